"""The native renban links against brute force and on puzzles with few givens.

- The line's own link keeps exactly each cell's digits of some run of consecutive digits
  the cells can take one each (generalised arc consistency), on any candidates.
- The link that reads the line with the grid (its units and peers) never removes a digit of
  a grid the line holds, whatever the candidates around it.
- So does the link of two renbans sharing cells.
- Each deduction, on a position where the links before it kept the digit, against brute
  force.
- Generated renban puzzles with few givens, which the native search left undecided after
  a minute, are decided under node budgets; the link of two renbans sharing cells keeps
  exactly what brute force keeps.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import permutations, product

import pytest
from cases import slow_if
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import parse
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import Renban
from sudoku_csp.constraints.fields import king_neighbours
from sudoku_csp.native.search import propagate_puzzle
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

G9 = make_geometry(9)
ALL = 0x1FF


def _supports(masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Brute force: each cell's digits in some filling of the cells with different digits
    forming a run of consecutive digits."""
    length = len(masks)
    out = [0] * length
    choices = [[d for d in range(m.bit_length()) if m >> d & 1] for m in masks]
    for digits in product(*choices):
        if len(set(digits)) == length and max(digits) - min(digits) == length - 1:
            for i, d in enumerate(digits):
                out[i] |= 1 << d
    return tuple(out) if all(out) else None


def _runs_link(cells: tuple[int, ...]):  # noqa: ANN202 - a Link
    return Renban(cells).native(G9)[-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, ALL), min_size=2, max_size=5))
def test_the_line_keeps_exactly_the_digits_of_some_run(masks):
    cells = tuple(range(len(masks)))  # A1, A2, ...: a line along row A
    assert _runs_link(cells).narrow(tuple(masks)) == _supports(tuple(masks))


def test_a_run_the_cells_cannot_fill_one_each_is_out():
    # 1-4 or 2-5 by the cells' reach; but A1 and A2 both need 2 for 2-5: the run is 1-4,
    # and A3, A4 keep only 3 and 4
    masks = (0b11, 0b11, 0b11110, 0b11110)
    assert _runs_link((0, 1, 2, 3)).narrow(masks) == (0b11, 0b11, 0b1100, 0b1100)
    assert _supports(masks) == (0b11, 0b11, 0b1100, 0b1100)


def _joint(line: tuple[int, ...], marks: dict[int, int]):  # noqa: ANN202
    """The masks the grid link of a renban along ``line`` leaves, by cell; ``marks``: the
    cells' candidates that are not all digits."""
    (link,) = Renban.joint_native(G9, [Renban(line)])
    out = link.narrow(tuple(marks.get(c, ALL) for c in link.cells))
    assert out is not None
    return dict(zip(link.cells, out, strict=True))


def test_a_digit_its_row_can_place_only_on_the_line_is_on_it():
    # Row A's 9 can go only to A1-A3, the line: its run is 7-9
    line = (0, 1, 2)
    masks = _joint(line, dict.fromkeys(range(3, 9), ALL & ~(1 << 8)))
    assert [masks[c] for c in line] == [0b111000000] * 3
    # brute force over the row: what A1-A3 can hold when the row's 9 is not in A4-A9
    kept = [0, 0, 0]
    for row in permutations(range(9)):
        if 8 not in row[3:] and max(row[:3]) - min(row[:3]) == 2:
            for i in range(3):
                kept[i] |= 1 << row[i]
    assert kept == [0b111000000] * 3


def test_a_digit_the_line_holds_leaves_the_cells_that_see_both_its_places():
    # C3 and D4 hold 4 and 5 in some order; C4 (row C, column 4) and D3 (row D, column 3)
    # see both, so hold neither; C5 sees only C3
    c3, d4, c4, d3, c5 = 20, 30, 21, 29, 22
    masks = _joint((c3, d4), {c3: 0b11000, d4: 0b11000})
    assert masks[c4] == masks[d3] == ALL & ~0b11000
    assert masks[c5] == ALL


def test_two_renbans_sharing_a_cell_in_one_box_make_a_run_of_six():
    # A6-A7-A8 and A9-B8-B7-A6 share A6; all six cells differ (row A, box 3, the lines), so
    # the runs meet only in A6's value: together a run of six with A6 inside, at 3 to 7
    (a6, a7, a8, a9, b8, b7) = cells = (5, 6, 7, 8, 16, 15)
    links = Renban.joint_native(G9, [Renban((a6, a7, a8)), Renban((a9, b8, b7, a6))])
    (overlap,) = [link for link in links if set(link.cells) == set(cells)]
    out = dict(zip(overlap.cells, overlap.narrow((ALL,) * 6), strict=True))
    assert out[a6] == 0b001111100
    # brute force: six different digits, A6-A8 a run of three and A6, A9, B8, B7 of four
    kept = 0
    for digits in permutations(range(9), 6):
        one, other = digits[:3], (digits[0], *digits[3:])
        if max(one) - min(one) == 2 and max(other) - min(other) == 3:
            kept |= 1 << digits[0]
    assert kept == out[a6]


RENBANS = {  # generated with few givens (sudoku-csp generate --kind renban --seed 1)
    "two givens":
    '{"size":9,"givens":"........................................................'
    '3.......................1","renbans":[["A2","B1","C1"],["A6","B6","C5"],["A9'
    '","A8","B7"],["B2","A3"],["B2","C2","C3"],["B5","A4"],["C4","B3","B2","A3"],'
    '["D3","C3","B2","C1"],["D8","E9","F8"],["D9","E8","F9","G9"],["E2","F3","F4"'
    ',"E5"],["E7","E6","E5","F5"],["F6","G7","F8"],["F7","G6"],["G1","F2","G3","G'
    '4"],["H5","G6","F7"],["H8","G8"],["I7","H8","G7","F8"]]}',
    "four givens":
    '{"size":9,"givens":".........7...............3..............................'
    '............1...........8","renbans":[["A1","B2","A3"],["A4","B5","A6","A7"]'
    ',["B3","A2","B1"],["C2","D1"],["C5","D6"],["C7","D6","E5","D4"],["C9","B9"],'
    '["D6","E6","D5"],["D8","D7","C6","B7"],["F6","E6","F5"],["F7","F8"],["G3","G'
    '2"],["H1","I2","I3","I4"],["I1","H1"],["I8","H7","G8","G9"]]}',
    "eight givens":
    '{"size":9,"givens":"..........1......7.......6.......5.9..7.................'
    '.....5.........3.........","renbans":[["B3","C4","D3","D2"],["C4","D3","E4"]'
    ',["D1","C2","D2","E1"],["D5","C6"],["D8","E8"],["E1","D2","D1","C1"],["E5","'
    'D5"],["G6","F6","G5","F5"],["G7","H6"],["H1","G2"],["H5","G4","H4","I5"],["H'
    '8","I9"],["I3","H2","I2"],["I6","H5","H4"]]}',
    "three givens":
    '{"size":9,"givens":"..7.............7.......................................'
    '...........9.............","renbans":[["B2","A2","A3"],["B2","A3"],["C1","B1'
    '"],["C3","D2","D1"],["C4","B4","A5","B6"],["C6","C7","D6"],["D4","D3","C4"],'
    '["D6","E6","F5","F4"],["D8","E7","F6","E5"],["E8","F9","E9"],["G9","F8","E9"'
    ',"E8"],["H2","G2","H3","H4"],["I2","I3","H2","G1"],["I6","H6","G7","F7"],["I'
    '6","H7","I7"]]}',
}


def test_reading_the_lines_with_the_grid_narrows_the_givens_state():
    puzzle = parse(RENBANS["eight givens"])
    (solution,) = get_backend("sat").solve(puzzle, limit=2).solutions
    state = propagate_puzzle(puzzle)
    assert state is not None
    assert all(state.cand[c] >> d & 1 for c, d in enumerate(solution))
    # C1, C2 and C4: 8 and 9 are out (they were kept before)
    for cell in (18, 19, 21):
        assert not state.cand[cell] & 0b110000000, (cell, state.cand[cell])


# Undecided by the native search after 60 s before (47,000, over 85,000, over 120,000 and
# over 30,000 nodes); now 3,600, 1,500, 49 and 10,600.
BUDGETS = {"two givens": 5000, "four givens": 2500, "eight givens": 500,
           "three givens": 15000}


@pytest.mark.parametrize("name", slow_if(list(BUDGETS), lambda name: BUDGETS[name] > 500))
def test_renbans_with_few_givens_are_decided_under_a_node_budget(name):
    puzzle = parse(RENBANS[name])
    expected = get_backend("sat").solve(puzzle, limit=2)
    result = get_backend(f"native:nodes={BUDGETS[name]}").solve(puzzle, limit=2)
    assert result.status is expected.status
    assert result.solutions == expected.solutions


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_the_grid_link_never_removes_a_digit_of_a_grid_the_line_holds(seed):
    rng = random.Random(seed)
    grid = _grids()[rng.randrange(len(_grids()))]
    found = Renban.sample(G9, grid, rng)
    if not found:
        return
    for line in found:
        (link,) = Renban.joint_native(G9, [line])
        masks = tuple(1 << grid[c] | (rng.randrange(ALL + 1) if rng.random() < 0.7 else 0)
                      for c in link.cells)
        out = link.narrow(masks)
        assert out is not None, (line, masks)
        assert all(m >> grid[c] & 1 for m, c in zip(out, link.cells, strict=True))


@cache
def _grids() -> tuple[tuple[int, ...], ...]:
    return get_backend("native").solve(Puzzle.empty(G9), limit=20).solutions


def _walk(grid: tuple[int, ...], start: int, rng: random.Random) -> Renban | None:
    """A random renban of 2 to 4 cells from ``start`` that ``grid`` holds, if one is met."""
    steps = king_neighbours(9)
    for _ in range(50):
        path = [start]
        for _ in range(rng.randint(1, 3)):
            free = [x for x in steps[path[-1]] if x not in path]
            if not free:
                break
            path.append(rng.choice(free))
        line = Renban(tuple(path))
        if len(path) > 1 and not line.violations(G9, grid):
            return line
    return None


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_the_link_of_two_renbans_sharing_cells_never_removes_a_digit_of_a_grid(seed):
    rng = random.Random(seed)
    grid = _grids()[rng.randrange(len(_grids()))]
    one = _walk(grid, rng.randrange(81), rng)
    other = one and _walk(grid, rng.choice(one.cells), rng)
    if one is None or other is None or set(one.cells) == set(other.cells):
        return
    links = [link for link in Renban.joint_native(G9, [one, other])
             if set(link.cells) == set(one.cells) | set(other.cells)]
    assert len(links) == 1
    (link,) = links
    masks = tuple(1 << grid[c] | (rng.randrange(ALL + 1) if rng.random() < 0.7 else 0)
                  for c in link.cells)
    out = link.narrow(masks)
    assert out is not None, (one, other, masks)
    assert all(m >> grid[c] & 1 for m, c in zip(out, link.cells, strict=True))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, ALL), min_size=7, max_size=7), st.integers(0, 10**9))
def test_two_renbans_sharing_a_cell_keep_exactly_the_digits_of_some_filling(noise, seed):
    # I2-I3-H2-G1 and H2-G2-H3-H4 share H2; I2 and H4 do not see each other, so the runs
    # may meet in more than H2's value: the fillings of the two are paired exactly
    rng = random.Random(seed)
    one, other = Renban((73, 74, 64, 54)), Renban((64, 55, 65, 66))
    (link,) = [link for link in Renban.joint_native(G9, [one, other]) if len(link.cells) == 7]
    # few digits a cell, around a grid the lines hold, so brute force stays small
    base = (3, 4, 5, 2, 4, 5, 6)  # I2 I3 H2 G1 and G2 H3 H4 (0-based): runs 3-6 and 5-8
    where = dict(zip((73, 74, 64, 54, 55, 65, 66), base, strict=True))
    masks = tuple(1 << where[c] | _few(noise[i], rng) for i, c in enumerate(link.cells))
    choices = [[d for d in range(9) if m >> d & 1] for m in masks]
    peers = [(a, b) for a in link.cells for b in link.cells if a < b and G9.are_peers(a, b)]
    expected = [0] * 7
    for digits in product(*choices):
        value = dict(zip(link.cells, digits, strict=True))
        if all(_is_run([value[c] for c in line.cells]) for line in (one, other)) and all(
                value[a] != value[b] for a, b in peers):
            for i, d in enumerate(digits):
                expected[i] |= 1 << d
    assert link.narrow(masks) == (tuple(expected) if all(expected) else None)


def _is_run(values: list[int]) -> bool:
    return len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1


def _few(mask: int, rng: random.Random) -> int:
    """At most three digits of ``mask``."""
    digits = [d for d in range(9) if mask >> d & 1]
    return sum(1 << d for d in rng.sample(digits, min(3, len(digits))))
