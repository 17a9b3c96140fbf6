"""The independent checker: accepts solutions, names every rule a wrong grid breaks."""

from __future__ import annotations

import pytest
from cases import BY_NAME, CASES, JIGSAW_MAP
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import (
    EMPTY,
    Puzzle,
    WrongSolutionError,
    is_solution,
    make_backend,
    make_geometry,
    violations,
)
from sudoku_csp.verify import check_solutions

SOLVED_CASES = [c for c in CASES if c.solution]


def digits(puzzle: Puzzle, text: str) -> list[int]:
    return [puzzle.geometry.symbols.index(ch) for ch in text]


def pattern_grid(box_rows: int, box_cols: int) -> list[int]:
    """A valid full grid: row r is row 0 shifted by bc*(r % br) + r//br."""
    n = box_rows * box_cols
    return [(box_cols * (r % box_rows) + r // box_rows + c) % n
            for r in range(n) for c in range(n)]


def swap(grid: list[int], a: int, b: int) -> list[int]:
    out = list(grid)
    out[a], out[b] = out[b], out[a]
    return out


GRID1 = BY_NAME["grid1"]
GRID1_SOLUTION = [int(ch) - 1 for ch in GRID1.solution]


def test_there_are_solved_cases():
    assert {c.name for c in SOLVED_CASES} >= {"grid1", "grid2", "jigsaw"}


@pytest.mark.parametrize("case", SOLVED_CASES, ids=lambda c: c.name)
def test_accepts_the_known_solutions(case):
    puzzle = case.puzzle()
    grid = digits(puzzle, case.solution)
    assert violations(puzzle, grid) == []
    assert is_solution(puzzle, grid) and is_solution(puzzle, tuple(grid))


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5)])
def test_accepts_pattern_grids_of_every_size(box):
    g = make_geometry(box[0] * box[1], box)
    assert is_solution(Puzzle.empty(g), pattern_grid(*box))


def test_rejects_a_broken_row_only():
    # Swap two cells of one column inside one box: column and box keep their digits.
    grid = swap(GRID1_SOLUTION, 0, 18)  # A1 <-> C1, both blanks in grid1
    assert violations(GRID1.puzzle(), grid) == [
        "row 1 does not hold every digit once", "row 3 does not hold every digit once"]


def test_rejects_a_broken_column_only():
    # A1 and A2 are blanks in grid1, so no given changes.
    grid = swap(GRID1_SOLUTION, 0, 1)
    assert violations(GRID1.puzzle(), grid) == [
        "column 1 does not hold every digit once", "column 2 does not hold every digit once"]


def test_rejects_broken_boxes_only():
    latin = [(r + c) % 9 for r in range(9) for c in range(9)]  # rows and columns fine
    found = violations(Puzzle.empty(make_geometry(9)), latin)
    assert found and all(v.startswith("box ") for v in found)
    assert len(found) == 9


def test_rejects_broken_diagonals():
    puzzle = Puzzle.empty(make_geometry(9, variants=["diagonal"]))
    assert violations(puzzle, GRID1_SOLUTION) == [
        "diagonal 1 does not hold every digit once", "diagonal 2 does not hold every digit once"]
    assert is_solution(Puzzle.empty(make_geometry(9)), GRID1_SOLUTION)


def test_rejects_broken_jigsaw_regions():
    puzzle = Puzzle.empty(make_geometry(9, regions=JIGSAW_MAP))
    found = violations(puzzle, GRID1_SOLUTION)
    assert found and all(v.startswith("region ") for v in found)
    jigsaw = BY_NAME["jigsaw"]
    solution = digits(jigsaw.puzzle(), jigsaw.solution)
    assert not is_solution(Puzzle.empty(make_geometry(9)), solution)  # its boxes are not full


def test_rejects_equal_digits_a_knights_move_apart():
    g = make_geometry(9, variants=["anti-knight"])
    found = violations(Puzzle.empty(g), GRID1_SOLUTION)
    expected = []
    for a, b in g.extra_pairs:
        (ra, ca), (rb, cb) = divmod(a, 9), divmod(b, 9)
        assert sorted((abs(ra - rb), abs(ca - cb))) == [1, 2]
        if GRID1_SOLUTION[a] == GRID1_SOLUTION[b]:
            expected.append(f"{g.label(a)} and {g.label(b)} must differ")
    assert found == expected
    assert "A7 and C6 must differ" in found


def test_rejects_a_changed_given():
    # Exchange the digits 1 and 2 everywhere: still a valid grid, but not grid1's.
    relabelled = [{0: 1, 1: 0}.get(d, d) for d in GRID1_SOLUTION]
    assert is_solution(Puzzle.empty(make_geometry(9)), relabelled)
    found = violations(GRID1.puzzle(), relabelled)
    changed = [c for c, d in enumerate(GRID1.puzzle().givens) if d in (0, 1)]
    assert len(found) == len(changed) > 0
    assert all("but the given is" in v for v in found)
    assert found[0] == "A5 holds 1 but the given is 2"


def test_rejects_grids_that_are_not_grids():
    puzzle = GRID1.puzzle()
    assert violations(puzzle, GRID1_SOLUTION[:80]) == ["grid has 80 cells, expected 81"]
    incomplete = [EMPTY] + GRID1_SOLUTION[1:]
    assert violations(puzzle, incomplete) == ["A1 holds -1, not a digit 0..8"]
    assert violations(puzzle, [9] + GRID1_SOLUTION[1:]) == ["A1 holds 9, not a digit 0..8"]
    assert not is_solution(puzzle, ["3"] + GRID1_SOLUTION[1:])
    assert not is_solution(puzzle, None)


def test_check_solutions_raises_on_a_wrong_grid():
    puzzle = GRID1.puzzle()
    check_solutions(puzzle, [GRID1_SOLUTION], "test")
    with pytest.raises(WrongSolutionError, match="test returned a wrong solution"):
        check_solutions(puzzle, [GRID1_SOLUTION, swap(GRID1_SOLUTION, 0, 1)], "test")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SOLVED_CASES), st.data())
def test_swapping_two_digits_of_a_row_breaks_a_solution(case, data):
    puzzle = case.puzzle()
    solution = digits(puzzle, case.solution)
    n = puzzle.size
    row = data.draw(st.integers(0, n - 1), label="row")
    c1, c2 = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True),
                       label="columns")
    broken = swap(solution, row * n + c1, row * n + c2)
    assert broken != solution
    assert not is_solution(puzzle, broken)
    found = violations(puzzle, broken)
    assert f"column {c1 + 1} does not hold every digit once" in found
    assert f"column {c2 + 1} does not hold every digit once" in found


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]), st.permutations(range(16)))
def test_relabelling_digits_keeps_a_solution(box, perm):
    n = box[0] * box[1]
    relabel = [d for d in perm if d < n]
    grid = [relabel[d] for d in pattern_grid(*box)]
    assert is_solution(Puzzle.empty(make_geometry(n, box)), grid)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SOLVED_CASES), st.data())
def test_the_quick_check_agrees_with_the_rule_by_rule_one(case, data):
    # violations() answers a solution by one quick pass (verify._solves_grid) and walks the
    # rules one by one only otherwise: both must say the same of every grid, right or wrong.
    from sudoku_csp.verify import _broken_rules, _solves_grid

    puzzle = case.puzzle()
    grid: list = digits(puzzle, case.solution)
    n, cells = puzzle.size, len(grid)
    for _ in range(data.draw(st.integers(0, 3), label="changes")):
        cell = data.draw(st.integers(0, cells - 1), label="cell")
        grid[cell] = data.draw(st.one_of(st.integers(-1, n), st.just(True), st.just(1.0),
                                         st.sampled_from([255, 256, -256, 2**70])),
                               label="value")
    shaped = all(type(d) is int and 0 <= d < n for d in grid)
    plain = Puzzle(puzzle.geometry, puzzle.givens)  # the typed constraints are not its job
    assert _solves_grid(plain, grid) == (shaped and not _broken_rules(plain, grid))
    assert _solves_grid(plain, tuple(grid)) == _solves_grid(plain, grid)


def _solved(geometry) -> list[int]:
    """A solution of ``geometry``'s empty grid: a pattern grid for plain boxes, the native
    solver's first one for the variants."""
    if geometry.name == f"{geometry.size}x{geometry.size}" and geometry.box:
        return pattern_grid(*geometry.box)
    return list(make_backend("native").solve(Puzzle.empty(geometry)).solution)


QUICK_GEOMETRIES = [
    make_geometry(4), make_geometry(6, box=(3, 2)), make_geometry(12), make_geometry(16),
    make_geometry(25), make_geometry(35), make_geometry(9, variants=["diagonal"]),
    make_geometry(9, variants=["windoku"]), make_geometry(9, variants=["anti-knight"]),
    make_geometry(9, variants=["diagonal", "windoku"]),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(QUICK_GEOMETRIES), st.data())
def test_the_quick_check_agrees_on_every_shape_of_unit(geometry, data):
    # Up to 12x12 unit sums are added up one shape at a time, in fields as wide as N needs
    # (1 byte a cell for 4x4, 2 for 9x9); larger grids go through a set of tagged digits:
    # swaps and changed digits, on each of those layouts.
    from sudoku_csp.verify import _broken_rules, _solves_grid

    grid = _solved(geometry)
    n, cells = geometry.size, len(grid)
    puzzle = Puzzle.empty(geometry)
    for _ in range(data.draw(st.integers(0, 3), label="changes")):
        a = data.draw(st.integers(0, cells - 1), label="cell")
        if data.draw(st.booleans(), label="swap"):
            grid = swap(grid, a, data.draw(st.integers(0, cells - 1), label="other"))
        else:
            grid[a] = data.draw(st.integers(-1, n), label="value")
    shaped = all(0 <= d < n for d in grid)
    assert _solves_grid(puzzle, grid) == (shaped and not _broken_rules(puzzle, grid))
