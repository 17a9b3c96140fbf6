"""Thermometers, slow thermometers, between lines and lockout lines on order literals
(:mod:`~sudoku_csp.constraints.order_lines`, the sat backend's ``line_order``), against brute
force.

- Exact: a filling of the cells satisfies the clauses, with the literals they set, if and
  only if it keeps the rule (strict and slow thermometers, between lines either way up).
- Unit propagation carries bounds: a 3-cell thermometer on a 4x4 whose bulb is no 1 is
  2, 3, 4; a between line whose ends are 1 and 3 has a 2 between, and one whose ends are no
  1 a 3, either way up, with no other clause.
- ``cell_orders=shared``: lines read the order literals a solver holds for their cells (a
  thermometer and a between line crossing on one cell share its), defining none.
- ``line_order`` (and ``renban_runs``) off, on or both, ``cell_orders`` own: every grid of a
  small puzzle judged as the checker does (a renban across boxes too, whose cells the grid
  does not keep apart);
  generated puzzles of few givens counted alike, incrementally (clauses guarded: a reversed
  thermometer after the first changes nothing) and fresh, and with fewer conflicts on order
  literals (a count, not a time); a renban puzzle so with ``renban_runs``
  (tests/test_renban_runs.py holds the runs against brute force).
"""

from __future__ import annotations

from itertools import product

import pytest
from cases import cnf_context, filling
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp import parse
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.cell_orders import order_definitions
from sudoku_csp.constraints.kinds.between import BetweenLine
from sudoku_csp.constraints.kinds.lockout import LockoutLine
from sudoku_csp.constraints.kinds.renban import Renban
from sudoku_csp.constraints.kinds.slowthermo import SlowThermo
from sudoku_csp.constraints.kinds.thermo import Thermo
from sudoku_csp.constraints.order_lines import between_clauses, lockout_clauses, thermo_clauses
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry


def _exact(n: int, clauses, cells, rule) -> None:  # noqa: ANN001
    _, numbering = cnf_context(n)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for values in product(range(n), repeat=len(cells)):
            ok = solver.solve(assumptions=filling(numbering, cells, values))
            assert ok == rule(values), values


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(2, 4), st.booleans())
def test_thermometers_hold_exactly_the_fillings_that_increase(n, length, strict):
    ctx, _ = cnf_context(n)
    cells = tuple(range(length))
    clauses = thermo_clauses(ctx, cells, strict=strict)
    _exact(n, clauses, cells, lambda v: all(a < b if strict else a <= b
                                            for a, b in zip(v, v[1:], strict=False)))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(3, 5))
def test_between_lines_hold_exactly_the_fillings_between_the_ends(n, length):
    ctx, _ = cnf_context(n)
    cells = tuple(range(length))
    clauses = between_clauses(ctx, cells)
    _exact(n, clauses, cells, lambda v: all(min(v[0], v[-1]) < m < max(v[0], v[-1])
                                            for m in v[1:-1]))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(2, 4), st.integers(1, 5), st.booleans())
def test_lockout_lines_hold_exactly_the_fillings_they_allow(n, length, least, shared):
    # The ends at least `least` apart, no other cell in their range, inclusive; the ends'
    # order literals their own or the cells' definitions (written here with the line).
    least = min(least, n - 1 if length == 2 else n - 2)
    ctx, _ = cnf_context(n, {} if shared else {"cell_orders": "own"})
    cells = tuple(range(length))

    def keeps(v) -> bool:  # noqa: ANN001
        low, high = sorted((v[0], v[-1]))
        return high - low >= least and all(not low <= m <= high for m in v[1:-1])

    _exact(n, lockout_clauses(ctx, cells, least), cells, keeps)


def test_two_lines_through_one_cell_hold_together():
    ctx, _ = cnf_context(4)
    clauses = thermo_clauses(ctx, (0, 1, 2)) + between_clauses(ctx, (3, 1, 2))
    _exact(4, clauses, (0, 1, 2, 3),
           lambda v: v[0] < v[1] < v[2] and min(v[3], v[2]) < v[1] < max(v[3], v[2]))


def test_lines_read_the_order_literals_a_solver_holds_for_their_cells():
    # cell_orders=shared: each cell's order literals are a definition. A solver that holds
    # them (a session, `shared`) gets lines that read them and define none of their own:
    # a thermometer and a between line crossing at B2 share its literals, and the
    # definitions' clauses with the lines' keep exactly the fillings both rules allow.
    held_ctx, numbering = cnf_context(4)
    cells = (0, 1, 2, 3, 5)
    held, definitions = {}, []
    for definition in order_definitions(held_ctx, cells):
        held[definition], made = held_ctx.defined(definition)
        definitions += made
    assert len(definitions) == 5 * 12
    ctx = CnfContext(numbering, start=held_ctx.top + 1, shared=held)
    thermo, between = thermo_clauses(ctx, (0, 5, 2)), between_clauses(ctx, (3, 5, 1))
    own_ctx, _ = cnf_context(4, {"cell_orders": "own"})
    assert len(thermo) + 12 * 3 == len(thermo_clauses(own_ctx, (0, 5, 2)))
    assert len(between) + 12 * 3 == len(between_clauses(own_ctx, (3, 5, 1)))
    b2 = set(held[order_definitions(ctx, (5,))[0]])
    assert b2 & {abs(lit) for c in thermo for lit in c}
    assert b2 & {abs(lit) for c in between for lit in c}
    _exact(4, definitions + thermo + between, (0, 5, 2, 3, 1),
           lambda v: v[0] < v[1] < v[2] and min(v[3], v[4]) < v[1] < max(v[3], v[4]))


def test_unit_propagation_carries_bounds_along_the_lines():
    ctx, numbering = cnf_context(4)
    x = numbering.x
    with Solver(name="cadical153", bootstrap_with=thermo_clauses(ctx, (0, 1, 2))) as solver:
        ok, implied = solver.propagate(assumptions=[-x(0, 0)])  # the bulb is no 1
        assert ok and {x(0, 1), x(1, 2), x(2, 3)} <= set(implied)
    ctx, numbering = cnf_context(4)
    with Solver(name="cadical153", bootstrap_with=between_clauses(ctx, (0, 1, 2))) as solver:
        for ends in ([x(0, 0), x(2, 2)], [x(0, 2), x(2, 0)]):  # 1 and 3, either way
            ok, implied = solver.propagate(assumptions=ends)
            assert ok and x(1, 1) in implied
        # Neither end a 1, which is the smaller left open: the middle is 3 (above 2, below 4).
        ok, implied = solver.propagate(assumptions=[-x(0, 0), -x(2, 0)])
        assert ok and x(1, 2) in implied


SPECS = ("sat:line_order=off", "sat:line_order=on", "sat:line_order=both",
         "sat:cell_orders=own", "sat:lockout_order=off", "sat:renban_runs=off",
         "sat:renban_runs=both", "sat:mode=fresh")


@pytest.mark.parametrize("lines", [
    (Thermo((0, 1, 2)), Thermo((7, 6, 5))),
    (Thermo((4, 9, 14, 15)),),
    (BetweenLine((0, 5, 10)), BetweenLine((3, 2, 6, 7))),
    (BetweenLine((12, 9, 6, 3)), Thermo((8, 13, 14))),
    (SlowThermo((0, 5, 6, 7)), SlowThermo((12, 8, 4))),
    (Renban((0, 5, 10)), Renban((3, 6))),
    (Renban((1, 2, 6, 11)),),  # across the top boxes: A2 and C4 share no unit
    (Renban((4, 9, 14, 15)), Thermo((2, 7))),
    (Renban((0, 1, 2, 3)),),
    (LockoutLine((0, 5, 10)), LockoutLine((3, 6), 1)),
    (LockoutLine((12, 9, 6, 3), 1), Thermo((8, 13, 14))),  # A4..D1 across the boxes
])
def test_every_option_counts_the_grids_the_checker_keeps(lines):
    geometry = make_geometry(4)
    puzzle = Puzzle(geometry, (-1,) * 16, "", lines)
    every = get_backend("native").solve(Puzzle.empty(geometry), limit=1000).solutions
    expected = sorted(g for g in every if not any(c.violations(geometry, g) for c in lines))
    for spec in SPECS:
        result = get_backend(spec).solve(puzzle, limit=1000)  # every solution kept
        assert (result.count, result.complete) == (len(expected), True), spec
        assert sorted(result.solutions) == expected, spec


# The second generated thermometer puzzle and the first between-line puzzle of
# examples/kinds_few_givens.txt (`sudoku-csp generate --kind thermometer|between-line
# --count 5 --size 9 --symmetry none --seed 1`), and the first of `generate --kind
# slow-thermometer` with the same options: one solution each.
THERMOS = (
    '{"size":9,"givens":"....................................6...............8.................'
    '...........","thermos":[["A3","A4","B3","B4"],["A5","B5","A6","A7","A8"],["B2","A1","B1",'
    '"C2"],["B9","B8","A9"],["C6","B7","C7"],["D8","E7","D7","E8"],["E2","F2","F3","E4","E5"],'
    '["E3","D2","C3","D3"],["E9","F9","F8"],["F4","G4","H4","I4","I5"],["F6","E6","D5","D4"],'
    '["G3","G2","H2","H3"],["G9","G8","H8","H9"],["H6","H7","G6","F7"]]}')
BETWEEN = (
    '{"size":9,"givens":"........5.....3.....5....7...........3...52.....1..9..................'
    '....6...74.","between_lines":[["B1","C2","D1"],["B6","B7","C8"],["C6","B5","C5"],["D2",'
    '"C3","C2","B3"],["D9","C9","B9"],["E4","D3","D4"],["E6","D5","C4"],["E7","F8","G7","H8"],'
    '["F4","F3","E2"],["F4","G3","H2"],["G6","G7","H7"],["G8","F8","E9","D8"],["H1","I2","I1",'
    '"H2"],["H3","G2","F1"],["H6","G7","F7"],["I5","I6","H6","G5"],["I9","H8","G9","G8"]]}')

SLOW = (
    '{"size":9,"givens":".2.......1...........................39................7.6....2..1.....'
    '.5......4.","slow_thermos":[["A4","B4","B3","C4"],["B6","C6","D6"],["C1","B2","A3","B4"],'
    '["C3","B4","A3"],["C6","D7","D6"],["D8","C8","D7"],["D9","D8","C9","B9"],["E8","E7","F8",'
    '"E9"],["F2","E1","F1"],["F5","E6"],["F9","F8","F7","G8"],["G1","F2","G2"],["I1","I2","H2"'
    '],["I6","H6","G6"]]}')


def _reversed(text: str) -> Puzzle:
    """The puzzle with every line read from its other end (a thermometer turned round has no
    solution with these givens' grid): what a clause left unguarded would carry over."""
    puzzle = parse(text)
    turned = tuple(type(c)(c.cells[::-1]) for c in puzzle.constraints)
    return Puzzle(puzzle.geometry, puzzle.givens, "", turned)


# The first generated renban puzzle of examples/kinds_few_givens.txt (`sudoku-csp generate
# --kind renban --count 5 --size 9 --symmetry none --seed 1`): one solution.
RENBANS = (
    '{"size":9,"givens":"........................................................3...........'
    '............1","renbans":[["A2","B1","C1"],["A6","B6","C5"],["A9","A8","B7"],["B2","A3"],'
    '["B2","C2","C3"],["B5","A4"],["C4","B3","B2","A3"],["D3","C3","B2","C1"],["D8","E9","F8"],'
    '["D9","E8","F9","G9"],["E2","F3","F4","E5"],["E7","E6","E5","F5"],["F6","G7","F8"],["F7",'
    '"G6"],["G1","F2","G3","G4"],["H5","G6","F7"],["H8","G8"],["I7","H8","G7","F8"]]}')


def _shifted(text: str) -> Puzzle:
    """The puzzle with every line moved one row down where it can be (other runs, no
    longer this grid's): what a clause left unguarded would carry over to the next."""
    puzzle = parse(text)
    n = puzzle.geometry.size
    moved = tuple(Renban(tuple(c + n for c in line.cells))
                  if all(c + n < n * n for c in line.cells) else line
                  for line in puzzle.constraints)
    return Puzzle(puzzle.geometry, puzzle.givens, "", moved)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "option", "other"), [
    (THERMOS, "line_order", _reversed), (BETWEEN, "line_order", _reversed),
    (SLOW, "line_order", _reversed), (RENBANS, "renban_runs", _shifted)])
def test_order_literals_take_fewer_conflicts_and_change_no_answer(text, option, other):
    puzzle = parse(text)
    off = get_backend(f"sat:mode=fresh,{option}=off").solve(puzzle, limit=2)
    on = get_backend(f"sat:mode=fresh,{option}=on").solve(puzzle, limit=2)
    assert on.count == off.count == 1 and on.solutions == off.solutions
    assert on.stats["conflicts"] < off.stats["conflicts"]
    incremental = get_backend("sat")
    first = incremental.solve(puzzle, limit=2)
    turned = incremental.solve(other(text), limit=2)
    again = incremental.solve(puzzle, limit=2)
    fresh_turned = get_backend("sat:mode=fresh").solve(other(text), limit=2)
    assert first.solutions == again.solutions == on.solutions
    assert (turned.count, sorted(turned.solutions)) == (fresh_turned.count,
                                                       sorted(fresh_turned.solutions))
