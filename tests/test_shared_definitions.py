"""Definitions a SAT session keeps for every puzzle (``Definition``, ``SolverSession.define``):
a sandwich's line (its crusts, the digits between, their distance) and an X-sum's (the
first X cells, the digits among them) join the solver once, each behind a switch of its
own, and every later puzzle's clauses read them, switching on those it reads.

Guards where a false count could come from:

- a definition must constrain no grid: with the grid's formula, the clauses of every line's
  definition (both kinds, each line each way) leave exactly the grids there were;
- shared, they outlive their puzzle: a sequence of puzzles on the same and other lines,
  read from either side, between killers that move the scratch region and plain puzzles,
  must count as fresh solvers do, also through rebuilds and with another SAT solver;
- their variables are the session's, above the scratch region and never in it, and a
  rebuild forgets them (the new solver holds none until a puzzle asks again);
- switched off, a definition sets none of its auxiliaries (a puzzle that reads other
  lines does not pay for its propagation); switched on, it sets them as before.
"""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Solver

from sudoku_csp import parse
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.constraints import Sandwich, XSum, definitions
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.encodings import cnf
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsession import SolverSession
from sudoku_csp.variants import make_geometry


def _lines(n: int) -> list[tuple[int, ...]]:
    rows = [tuple(range(r * n, r * n + n)) for r in range(n)]
    return rows + [tuple(range(c, n * n, n)) for c in range(n)]


def _clue(kind: type, cells: tuple[int, ...], n: int, total: int, forward: bool):
    row = cells[1] - cells[0] == 1
    ways = ("right", "left") if row else ("down", "up")
    return kind(cells if forward else cells[::-1], ways[not forward], total)


def test_the_lines_definitions_leave_every_grid():
    # 4x4: 288 grids. The definitions of every row and column, sandwich and X-sum, read
    # either way, beside the grid's formula: still 288 grids, each once.
    geometry = make_geometry(4)
    formula = cnf.build(geometry)
    clues = [_clue(kind, cells, 4, 1, forward) for kind in (Sandwich, XSum)
             for cells in _lines(4) for forward in (True, False)]
    ctx = CnfContext(formula.vars, start=formula.nv + 1)
    clauses = []
    found = definitions(geometry, clues)
    assert len(found) == 8 + 16  # a sandwich's line is one either way, an X-sum's two
    for definition in found:
        clauses += ctx.defined(definition)[1]
    x = range(1, formula.x_vars + 1)
    grids = 0
    with Solver(name="minisat22", bootstrap_with=[*formula.clauses, *clauses]) as solver:
        while solver.solve():
            model = solver.get_model()
            solver.add_clause([-v for v in x if model[v - 1] > 0])
            grids += 1
    assert grids == 288


def _puzzles(seed: int, count: int) -> list[Puzzle]:
    """Puzzles read off random 6x6 grids: sandwiches and X-sums on random lines from
    either side with a few givens, killers of 2-cell cages (the scratch region moves), and
    a plain puzzle now and then; some with one given changed (perhaps no solution)."""
    rng = random.Random(seed)
    geometry = make_geometry(6)
    found = []
    for _ in range(count):
        grid = random_grid(geometry, rng.randrange(10**6))
        givens = [d if rng.random() < 0.25 else EMPTY for d in grid]
        if rng.random() < 0.2:
            givens[rng.randrange(36)] = rng.randrange(6)
        roll = rng.random()
        constraints = []
        if roll < 0.7:
            for cells in rng.sample(_lines(6), rng.randint(1, 5)):
                kind = rng.choice((Sandwich, XSum))
                forward = rng.random() < 0.5
                read = cells if forward else cells[::-1]
                total = kind.clue_of([grid[c] + 1 for c in read], 6)
                if total is not None:
                    constraints.append(_clue(kind, cells, 6, total, forward))
        elif roll < 0.9:
            cages = rng.randint(1, 6)
            layout = "".join(chr(65 + i // 2) if i < 2 * cages else "." for i in range(36))
            sums = [str(grid[2 * i] + grid[2 * i + 1] + 2) for i in range(cages)]
            found.append(parse(f"{layout} {','.join(sums)} "
                               + "".join(str(d + 1) if d != EMPTY else "." for d in givens),
                               geometry=geometry))
            continue
        found.append(Puzzle(geometry, tuple(givens), constraints=tuple(constraints)))
    return found


@pytest.mark.parametrize("spec", ["sat", "sat:recycle=1", "sat:solver=glucose4", "auto"])
def test_a_sequence_over_shared_lines_counts_as_fresh_solvers(spec):
    fresh = make_backend("sat:mode=fresh")
    backend = make_backend(spec)
    for puzzle in _puzzles(7, 30):
        want = fresh.solve(puzzle, limit=8)
        got = backend.solve(puzzle, limit=8)
        assert (got.status, got.count) == (want.status, want.count), (spec, puzzle)
        if want.count < 8:
            assert set(got.solutions) == set(want.solutions), (spec, puzzle)


def _session(backend, puzzle: Puzzle) -> SolverSession:
    families = tuple(sorted({d.key for d in definitions(puzzle.geometry, puzzle.constraints)},
                            key=repr))
    session = backend._sessions[puzzle.geometry, families]
    assert isinstance(session, SolverSession)
    return session


def test_the_session_keeps_the_definitions_above_the_region_until_a_rebuild():
    backend = make_backend("sat")
    puzzles = [p for p in _puzzles(11, 40) if p.constraints]
    held = 0
    for puzzle in puzzles:
        backend.solve(puzzle, limit=2)
        session = _session(backend, puzzle)
        region = range(session.scratch_start, session.scratch_start + session.scratch_size)
        defined = {v for aux in session.defined.values() for v in aux}
        assert not defined & set(region)
        assert all(session.formula.nv < v < session.next_var for v in defined)
        held = max(held, len(session.defined))
    assert held > 5  # lines did pile up in one solver
    session.close()
    assert session.get() and not session.defined  # a rebuilt solver holds none
    puzzle = puzzles[-1]
    assert backend.solve(puzzle, limit=2).count == \
        make_backend("sat:mode=fresh").solve(puzzle, limit=2).count


def test_a_renewed_session_holds_its_definitions_again_and_counts_alike():
    # renew() rebuilds each session between a benchmark's rounds: what it learnt goes, the
    # definitions it held come back at once (outside the next solve), and answers stay.
    backend = make_backend("sat")
    puzzles = [p for p in _puzzles(13, 30) if p.constraints]
    for puzzle in puzzles:
        backend.solve(puzzle, limit=2)
    held = {key: set(session.defined) for key, session in backend._sessions.items()}
    assert any(held.values())
    backend.renew()
    for key, session in backend._sessions.items():
        assert set(session.defined) == held[key]
        defined = {v for aux in session.defined.values() for v in aux}
        assert all(session.formula.nv < v < session.next_var for v in defined)
    fresh = make_backend("sat:mode=fresh")
    for puzzle in puzzles:
        got, want = backend.solve(puzzle, limit=8), fresh.solve(puzzle, limit=8)
        assert (got.status, got.count) == (want.status, want.count), puzzle


def test_a_held_definition_propagates_only_when_switched_on():
    # Row A of a 4x4 read as a sandwich's line: with its 1 in A1 and its 4 in A4, the
    # crusts stand two cells apart and A2, A3 are between. Held by a session, the line's
    # auxiliaries are set only under its switch; a puzzle that does not read the line
    # leaves it off, and its digits then set none of them (before, every puzzle paid for
    # the propagation of every line an earlier puzzle had read).
    g = make_geometry(4)
    session = SolverSession("minisat22", cnf.build(g), recycle=None)
    solver = session.get()
    line = definitions(g, [Sandwich((0, 1, 2, 3), "right", 2)])
    aux = set(session.define(line)[line[0]])
    crusts = [session.vars.x(0, 0), session.vars.x(3, 3)]
    ok, off = solver.propagate(assumptions=crusts)
    assert ok and not {abs(v) for v in off} & aux
    (switch, _), = session.switched_on(line, 0)
    ok, on = solver.propagate(assumptions=[switch, *crusts])
    assert ok and len({v for v in on if abs(v) in aux}) > 5
    assert session.switches[line[0]] == switch and switch not in aux


def test_only_the_puzzles_that_read_definitions_meet_them():
    # The definitions a session holds cost every puzzle put to it, switched off or not:
    # the killers and plain puzzles go to a session of the geometry that never holds any;
    # sandwiches and X-sums each to one of their own (both together: a third).
    backend = make_backend("sat")
    puzzles = _puzzles(5, 40)
    for puzzle in puzzles:
        backend.solve(puzzle, limit=2)
    geometry = puzzles[0].geometry
    families = {key[1] for key in backend._sessions}
    assert {(), (("sandwich line",),), (("x-sum line",),),
            (("sandwich line",), ("x-sum line",))} == families
    assert not backend._sessions[geometry, ()].defined
    for (_, family), session in backend._sessions.items():
        assert {d.key for d in session.defined} <= set(family)
