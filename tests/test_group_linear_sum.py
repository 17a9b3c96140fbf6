"""Little killers read by box segments: :class:`GroupLinearSum` against brute force.

- It keeps exactly each cell's digits in some placement (different digits within each
  group) whose signed group sums add up to the total: generalised arc consistency for the
  sum read by groups, never removing a digit of a true completion.
- A little killer's joint link (its diagonal with the units) removes what the cell-by-cell reading
  (:class:`LinearSum`) kept: three cells of one box under a 6 hold 1, 2 and 3, never a 4
  (1 + 1 + 4), and a grid that holds the clue keeps its digits.
"""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp.constraints import Cage, native_links
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.constraints.group_sums import EXACT_MOST, GroupLinearSum, placements
from sudoku_csp.constraints.kinds.littlekiller import LittleKiller
from sudoku_csp.variants import make_geometry


def _group_fillings(masks: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every filling of one group: one digit per cell from its mask, all different."""
    return [digits for digits in product(*([d for d in range(m.bit_length()) if m >> d & 1]
                                           for m in masks))
            if len(set(digits)) == len(digits)]


def _brute(sizes, signs, total, masks):  # noqa: ANN001, ANN202
    """Each cell's digits in some filling of every group adding up to ``total``."""
    groups, start = [], 0
    for size in sizes:
        groups.append(_group_fillings(masks[start:start + size]))
        start += size
    support = [0] * len(masks)
    for fillings in product(*groups):
        if sum(s * sum(d + 1 for d in f) for s, f in zip(signs, fillings, strict=True)) \
                == total:
            for i, d in enumerate(digit for f in fillings for digit in f):
                support[i] |= 1 << d
    return tuple(support) if all(support) else None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.sampled_from([1, 1, -1])), min_size=1,
                max_size=3), st.integers(-8, 30), st.integers(0, 10**9))
def test_group_linear_sum_keeps_exactly_the_supported_digits(groups, total, seed):
    rng = random.Random(seed)
    sizes = tuple(size for size, _ in groups)
    signs = tuple(sign for _, sign in groups)
    masks = tuple(rng.randrange(1, 64) for _ in range(sum(sizes)))
    assert GroupLinearSum(sizes, signs, total).narrow(masks) == _brute(sizes, signs, total,
                                                                       masks)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.integers(0, 10**9))
def test_placements_are_the_fillings_by_sum(k, seed):
    # Exact up to EXACT_MOST cells; beyond, every filling's digits are kept under its sum.
    rng = random.Random(seed)
    masks = tuple(rng.randrange(1, 128) for _ in range(k))
    expected: dict[int, list[int]] = {}
    for digits in _group_fillings(masks):
        row = expected.setdefault(sum(d + 1 for d in digits), [0] * k)
        for i, d in enumerate(digits):
            row[i] |= 1 << d
    found = placements(masks)
    if k <= EXACT_MOST:
        assert found == {total: tuple(row) for total, row in sorted(expected.items())}
    else:
        for total, row in expected.items():
            assert all(f & r == r for f, r in zip(found[total], row, strict=True))


def _pattern_grid() -> list[int]:
    """A valid 9x9 grid (digits 0-8, row-major) relabelled so that A7, B8, C9 hold 1, 2, 3:
    the shifted-rows pattern, whose validity is checked below without any solver."""
    grid = [(r * 3 + r // 3 + c) % 9 for r in range(9) for c in range(9)]
    first = [grid[6], grid[16], grid[26]]
    order = first + [d for d in range(9) if d not in first]
    relabel = {d: i for i, d in enumerate(order)}
    return [relabel[d] for d in grid]


def test_a_little_killer_through_one_box_holds_different_digits():
    geometry = make_geometry(9)
    grid = _pattern_grid()
    for unit in geometry.units:  # a sudoku grid: each unit holds each digit once
        assert sorted(grid[c] for c in unit.cells) == list(range(9))
    cells = (6, 16, 26)  # A7, B8, C9: one box, down-right from above column 7
    assert [grid[c] + 1 for c in cells] == [1, 2, 3]
    clue = LittleKiller(cells, "down-right", 6)
    assert clue.violations(geometry, grid) == []
    (link,) = LittleKiller.joint_native(geometry, [clue])
    full = (0b111111111,) * 3
    cell_by_cell = LinearSum((1, 1, 1), 6).narrow(full)
    assert cell_by_cell == (0b1111,) * 3  # 1 + 1 + 4 reads as possible
    out = link.narrow(full)
    assert out == (0b111,) * 3  # a 4 would need two 1s in one box
    assert out == _brute((3,), (1,), 6, full)
    assert all(m >> grid[c] & 1 for m, c in zip(out, link.cells, strict=True))


def test_a_little_killer_across_boxes_reads_each_box_segment_as_a_set():
    # A4 down-left: A4 (box 2), B3 and C2 (box 1), D1 (box 4). Under 6, B3 + C2 is 3 at
    # least (different digits), so A4 + D1 is 3 at most: A4 and D1 hold 1 or 2. Cell by
    # cell, 3 + 1 + 1 + 1 reads as possible.
    geometry = make_geometry(9)
    cells = (3, 11, 19, 27)
    (link,) = LittleKiller.joint_native(geometry, [LittleKiller(cells, "down-left", 6)])
    assert link.cells == cells
    full = (0b111111111,) * 4
    assert LinearSum((1,) * 4, 6).narrow(full) == (0b111,) * 4
    out = link.narrow(full)
    assert out == (0b11, 0b111, 0b111, 0b11)
    assert out == _brute((1, 2, 1), (1, 1, 1), 6, full)


def test_the_search_runs_the_joint_link_in_place_of_the_clue_s_own():
    # A little killer with a box segment: its joint link covers it, the search leaves its
    # own link out; one whose cells see no other keeps its own; a cage on the same cells
    # as a covered diagonal keeps its own too (covering is per constraint, not per cells).
    geometry = make_geometry(9)
    boxed = LittleKiller((3, 11, 19, 27), "down-left", 6)    # A4, B3, C2, D1
    one_box = LittleKiller((2, 10, 18), "down-left", 6)      # A3, B2, C1: one box
    lone = LittleKiller((8,), "down-left", 5)                # A9 alone
    cage = Cage((3, 11, 19, 27), 10)
    links = native_links(geometry, (boxed, one_box, lone, cage))

    def reader(link):  # noqa: ANN001, ANN202 - the object whose narrow the link calls
        return getattr(link.narrow, "__self__", None)

    assert [link.cells for link in links if type(reader(link)) is LinearSum] == [lone.cells]
    assert {id(link.covers) for link in links if link.covers is not None} == {id(boxed),
                                                                              id(one_box)}
    assert any(link.cells == cage.cells and link.covers is None for link in links)
    assert [type(reader(link)) for link in boxed.native(geometry)] == [LinearSum]
