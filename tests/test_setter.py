"""The setter tools (true candidates, minimal conflicts, disambiguation), each checked against
another backend: CP-SAT enumerates every solution, or decides each smaller puzzle, so nothing
here trusts the SAT session the tools are built on. Every registered kind takes part through
its own ``sample``, so no kind is named."""

from __future__ import annotations

import random
from functools import cache

import pytest

from sudoku_csp import parse
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import KINDS
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.setter import (
    disambiguate,
    minimal_conflict,
    puzzle_of,
    puzzle_parts,
    true_candidates,
)
from sudoku_csp.variants import make_geometry

NAMES = [k.kind for k in KINDS]
CPSAT = get_backend("cpsat")


@cache
def _grids(size: int, rule: tuple = ()) -> tuple[tuple[int, ...], ...]:
    """Up to 300 grids of the size that keep ``rule`` (a kind's grid rule)."""
    geometry = make_geometry(size)
    puzzle = Puzzle(geometry, (EMPTY,) * geometry.ncells, constraints=rule)
    return get_backend("native").solve(puzzle, limit=300).solutions


def _all_solutions(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    result = CPSAT.solve(puzzle, limit=100_000)
    assert result.complete and (result.total or len(result.solutions)) == len(result.solutions)
    return result.solutions


def _sampled(name: str, seed: object) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle of the kind's sampled constraints around a random grid, with a few of the
    grid's digits as givens (so that it keeps several solutions), and the grid."""
    kind = next(k for k in KINDS if k.kind == name)
    rng = random.Random(f"{name} {seed}")
    for size in sorted({max(4, kind.sample_size), 6}):  # no 4x4 grid is non-consecutive
        geometry = make_geometry(size)
        grids = _grids(size, kind.grid_rule())
        for _ in range(30 if grids else 0):
            grid = rng.choice(grids)
            constraints = kind.sample(geometry, grid, rng)
            if constraints:
                shown = rng.sample(range(geometry.ncells),
                                   geometry.ncells // (4 if size == 4 else 2))
                givens = tuple(grid[c] if c in shown else EMPTY for c in range(geometry.ncells))
                return Puzzle(geometry, givens, constraints=tuple(constraints)), grid
    pytest.skip(f"{name}: sample found nothing")


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_parts_make_the_same_puzzle_again(name):
    # A puzzle rebuilt from all its parts (kinds held once merged back) has the same
    # solutions; without its constraint parts, only the givens' (what conflicts remove).
    puzzle, _ = _sampled(name, 3)
    parts = puzzle_parts(puzzle)
    assert len({p.index for p in parts}) == len(parts)
    assert set(_all_solutions(puzzle_of(puzzle, parts))) == set(_all_solutions(puzzle))
    givens_only = puzzle_of(puzzle, [p for p in parts if p.is_given])
    assert givens_only.constraints == () and givens_only.givens == puzzle.givens


# -- true candidates ----------------------------------------------------------------------------
def _expected(puzzle: Puzzle, cap: int) -> list[list[int]]:
    solutions = _all_solutions(puzzle)
    n = puzzle.geometry.size
    return [[min(cap, sum(s[c] == d for s in solutions)) for d in range(n)]
            for c in range(puzzle.geometry.ncells)]


@pytest.mark.parametrize("name", NAMES)
def test_true_candidates_of_every_kind_are_the_union_of_all_solutions(name):
    puzzle, _ = _sampled(name, 1)
    for cap in (1, 3):
        tc = true_candidates(puzzle, cap=cap)
        assert tc.complete
        assert [list(row) for row in tc.counts] == _expected(puzzle, cap)


def test_true_candidates_on_plain_4x4_puzzles_against_every_solution():
    rng = random.Random(7)
    g = make_geometry(4)
    statuses = set()
    for _ in range(40):
        grid = rng.choice(_grids(4))
        givens = [EMPTY] * 16
        for c in rng.sample(range(16), rng.randint(0, 6)):
            givens[c] = grid[c] if rng.random() < 0.8 else rng.randrange(4)
        puzzle = Puzzle(g, tuple(givens))
        tc = true_candidates(puzzle, cap=8)
        assert [list(row) for row in tc.counts] == _expected(puzzle, 8)
        solutions = _all_solutions(puzzle)
        assert tc.status == ("none" if not solutions else "unique" if len(solutions) == 1
                             else "multiple")
        statuses.add(tc.status)
    assert statuses == {"none", "unique", "multiple"}


def test_a_unique_puzzle_costs_two_calls_and_collapses_to_its_solution():
    tc = true_candidates(parse("4.....8.5.3..........7......2.....6.....8.4......1......."
                               "6.3.7.5..2.....1.4......"))
    assert tc.status == "unique" and tc.calls == 2
    assert all(len(tc.candidates(c)) == 1 for c in range(81))
    assert tc.masks() == [1 << d for d in tc.solutions[0]]


def test_solutions_met_serve_later_questions():
    # An empty 9x9: 729 true candidates, each counted to 8, from far fewer solver calls
    # than one per candidate and count.
    tc = true_candidates(Puzzle.empty(make_geometry(9)), cap=8)
    assert all(k == 8 for row in tc.counts for k in row)
    assert tc.calls < 729 * 2
    assert tc.differences() and tc.status == "multiple"


def test_a_time_limit_leaves_candidates_undecided_and_says_so():
    tc = true_candidates(Puzzle.empty(make_geometry(9)), time_limit=0)
    assert not tc.complete and tc.status == "unknown" and any(tc.unknown)
    assert "undecided" in tc.to_json()


def test_the_record_names_cells_the_f_puzzles_way():
    record = true_candidates(parse("12.." "34.." "...." "...."), cap=2).to_json()
    assert record["candidates"]["R1C1"] == [1] and record["candidates"]["R1C3"] == [3, 4]
    assert record["counts"]["R3C1"] == {"2": 2, "4": 2}
    assert record["status"] == "multiple" and record["complete"]


def test_a_bad_cap_is_an_input_error():
    from sudoku_csp.errors import InputError

    with pytest.raises(InputError, match="cap"):
        true_candidates(parse("." * 16), cap=0)


# -- minimal conflicts ------------------------------------------------------------------------
def _broken(name: str, seed: object) -> Puzzle | None:
    """A puzzle of the kind with no solution: its sampled constraints, half the grid's
    digits, and one wrong given where that leaves none."""
    puzzle, grid = _sampled(name, seed)
    rng = random.Random(f"broken {name} {seed}")
    cells = [c for c, d in enumerate(puzzle.givens) if d == EMPTY]
    rng.shuffle(cells)
    for cell in cells[:12]:
        givens = list(puzzle.givens)
        givens[cell] = (grid[cell] + rng.randrange(1, puzzle.size)) % puzzle.size
        trial = Puzzle(puzzle.geometry, tuple(givens), constraints=puzzle.constraints)
        if trial.clashes():
            continue
        if CPSAT.solve(trial, limit=1).status is Status.NONE:
            return trial
    return None


def _assert_minimal(puzzle: Puzzle) -> None:
    conflict = minimal_conflict(puzzle)
    assert conflict is not None and conflict.proven and conflict.minimal
    parts = list(conflict.parts)
    # The parts conflict ...
    assert CPSAT.solve(puzzle_of(puzzle, parts), limit=1).status is Status.NONE
    # ... and leaving out any one of them leaves a puzzle with a solution.
    for i in range(len(parts)):
        rest = puzzle_of(puzzle, parts[:i] + parts[i + 1:])
        assert CPSAT.solve(rest, limit=1).status is not Status.NONE, parts[i].name


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_conflict_is_unsatisfiable_and_minimal_by_cpsat(name):
    puzzle = _broken(name, 2)
    if puzzle is None:
        pytest.skip(f"{name}: no wrong given left the sampled puzzle without a solution")
    _assert_minimal(puzzle)


def test_conflicts_of_plain_puzzles_are_minimal():
    rng = random.Random(11)
    g = make_geometry(4)
    seen = 0
    for _ in range(200):
        givens = [EMPTY] * 16
        for c in rng.sample(range(16), 5):
            givens[c] = rng.randrange(4)
        puzzle = Puzzle(g, tuple(givens))
        if CPSAT.solve(puzzle, limit=1).status is Status.NONE:
            _assert_minimal(puzzle)
            seen += 1
    assert seen >= 10


def test_a_puzzle_with_a_solution_has_no_conflict():
    assert minimal_conflict(parse("3.1...4.2.......")) is None


def test_the_message_names_givens_and_constraints_in_r1c1_form():
    # A 3-cell cage of 6 must hold 1, 2, 3: a 4 given in it cannot stand.
    puzzle = parse('{"size": 4, "givens": "4...............", '
                   '"cages": [{"cells": ["A1", "A2", "B1"], "sum": 6}]}')
    conflict = minimal_conflict(puzzle)
    assert conflict is not None
    assert conflict.names() == ["given R1C1=4", "cage 6 at R1C1–R2C1"]
    assert conflict.message() == ("no solution: these 2 parts conflict: given R1C1=4, "
                                  "cage 6 at R1C1–R2C1")
    record = conflict.to_json()
    assert record["conflict"] == conflict.names() and record["conflict_minimal"]
    assert record["conflict_cells"] == ["R1C1", "R1C2", "R2C1"]


def test_a_kind_held_once_comes_apart_into_its_pieces():
    # Dots are one constraint per puzzle; a conflict names the one dot at fault.
    from sudoku_csp.constraints import Dots

    g = make_geometry(4)
    dots = Dots(difference=((0, 1, 1), (2, 3, 3)))
    puzzle = Puzzle(g, (0, 2) + (EMPTY,) * 14, constraints=(dots,))
    parts = puzzle_parts(puzzle)
    assert [p.name for p in parts] == ["given R1C1=1", "given R1C2=3",
                                       "R1C1 and R1C2 differ by 1", "R1C3 and R1C4 differ by 3"]
    conflict = minimal_conflict(puzzle)
    assert conflict is not None
    assert conflict.names() == ["given R1C1=1", "given R1C2=3", "R1C1 and R1C2 differ by 1"]


def test_the_rules_alone_can_be_the_conflict():
    # No 4x4 grid keeps the anti-king rule: the conflict has no parts of the puzzle.
    conflict = minimal_conflict(parse("." * 16, variants=("anti-king",)))
    assert conflict is not None and conflict.parts == ()
    assert conflict.message() == "no solution: the rules of a 4x4 anti-king grid alone have none"


def test_a_time_limit_is_said_not_hidden():
    puzzle = parse("..214.....1.....")
    conflict = minimal_conflict(puzzle, time_limit=0)
    assert conflict is not None and not conflict.proven and not conflict.minimal
    assert "no conflict shown" in conflict.message()
    assert conflict.parts and conflict.highlights().cells == ()  # every part, unchecked
    proven = minimal_conflict(puzzle)
    assert proven is not None and proven.highlights().cells == proven.cells() != ()


# -- disambiguation -----------------------------------------------------------------------------
def _unique_with(puzzle: Puzzle, givens) -> tuple[int, ...] | None:  # noqa: ANN001
    grid = list(puzzle.givens)
    for cell, d in givens:
        grid[cell] = d
    result = CPSAT.solve(Puzzle(puzzle.geometry, tuple(grid), constraints=puzzle.constraints),
                         limit=2)
    return result.solutions[0] if result.status is Status.UNIQUE else None


@pytest.mark.parametrize("seed", range(6))
def test_single_givens_are_exactly_those_held_by_one_solution(seed):
    rng = random.Random(seed)
    g = make_geometry(6)
    grid = rng.choice(_grids(6))
    givens = tuple(d if rng.random() < 0.55 else EMPTY for d in grid)
    puzzle = Puzzle(g, givens)
    solutions = _all_solutions(puzzle)
    d = disambiguate(puzzle, keep=grid)
    if len(solutions) < 2:
        assert d.status in ("unique", "none") and not d.singles
        return
    expected = {(c, v) for c in range(g.ncells) for v in range(6)
                if sum(s[c] == v for s in solutions) == 1}
    assert set(d.singles) == expected
    kept = [s for s in d.singles if d.keeps(s)]
    assert list(d.singles[:len(kept)]) == kept  # those keeping the solution come first
    for single, leads in zip(d.singles, d.leads_to, strict=True):
        assert _unique_with(puzzle, [single]) == leads
        assert d.keeps(single) == (leads == grid)
    if not expected:
        assert d.found_set and d.set_minimal
        assert _unique_with(puzzle, d.found_set) == grid  # built towards the kept solution
        for i in range(len(d.found_set)):
            assert _unique_with(puzzle, d.found_set[:i] + d.found_set[i + 1:]) is None


def test_a_set_when_no_single_given_does():
    puzzle = parse("12.." "34.." "...." "....")
    d = disambiguate(puzzle)
    assert d.status == "multiple" and not d.singles
    assert d.found_set and d.set_minimal
    assert _unique_with(puzzle, d.found_set) is not None
    assert d.to_json()["set"] == d.named(d.found_set)


def test_keep_must_solve_the_puzzle():
    from sudoku_csp.errors import InputError

    puzzle = parse("12.." "34.." "...." "....")
    with pytest.raises(InputError, match="does not solve"):
        disambiguate(puzzle, keep=(0,) * 16)


def test_unique_and_unsolvable_puzzles_need_nothing():
    assert disambiguate(parse("3.1...4.2.......")).status == "unique"
    assert disambiguate(parse("..214.....1.....")).status == "none"


# -- time limits and solvers: what is not proven is never claimed -----------------------------
SPARSE = "1..........2.........3..........................4.........5......................"


@pytest.mark.parametrize("seconds", [0.0, 0.01, 0.03])
def test_a_cut_short_disambiguation_claims_only_proven_givens(seconds):
    puzzle = parse(SPARSE)
    d = disambiguate(puzzle, time_limit=seconds)
    for single in d.singles:  # whatever it lists is proven by another backend
        assert _unique_with(puzzle, [single]) is not None
    if d.found_set:
        assert _unique_with(puzzle, d.found_set) is not None
    if seconds == 0:
        assert not d.complete and d.status == "unknown" and not d.singles


def test_a_cut_short_count_is_a_lower_bound_and_undecided_digits_stay_possible():
    puzzle = parse(SPARSE)
    tc = true_candidates(puzzle, time_limit=0.005)
    full = true_candidates(puzzle)
    for cell in range(81):
        seen, maybe = tc.masks()[cell], tc.masks(undecided=True)[cell]
        assert seen & full.masks()[cell] == seen           # what was seen is true
        assert full.masks()[cell] & ~maybe == 0            # nothing true was ruled out
        for d in range(9):
            assert tc.counts[cell][d] <= full.counts[cell][d]
            if tc.settled[cell] >> d & 1:
                assert tc.counts[cell][d] == full.counts[cell][d]


def test_keep_gets_a_set_when_no_single_given_keeps_it():
    puzzle = parse("3...4.23........")
    keep = parse("3214412323411432").givens
    d = disambiguate(puzzle, keep=keep)
    assert d.singles and not d.keeping
    assert d.found_set and d.set_minimal
    assert _unique_with(puzzle, d.found_set) == keep


def test_a_solver_that_ignores_assumptions_is_refused():
    from sudoku_csp.errors import InputError
    from sudoku_csp.satsolver import capabilities, solver_names

    blind = [n for n in solver_names() if not capabilities(n).assumptions]
    if not blind:
        pytest.skip("every solver here takes assumptions")
    with pytest.raises(InputError, match="assumptions"):
        minimal_conflict(parse("..214.....1....."), solver=blind[0])
