"""placements against brute force: every placement of different digits, listed."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp.constraints.group_sums import placements


def _listed(masks: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Each sum of values (digit + 1) over every placement of different digits, with each
    cell's digits over the placements making it: the definition, by listing."""
    table: dict[int, list[int]] = {}
    options = [[d for d in range(m.bit_length()) if m >> d & 1] for m in masks]
    for digits in product(*options):
        if len(set(digits)) != len(digits):
            continue
        row = table.setdefault(sum(d + 1 for d in digits), [0] * len(masks))
        for j, d in enumerate(digits):
            row[j] |= 1 << d
    return {total: tuple(row) for total, row in sorted(table.items())}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, (1 << 9) - 1), min_size=1, max_size=4))
def test_placements_match_listing(masks: list[int]) -> None:
    placements.cache_clear()  # read, not remembered from another example
    found = placements(tuple(masks))
    assert found == _listed(tuple(masks))
    assert list(found) == sorted(found)  # sums in increasing order, as callers read them


def test_three_cells_one_sum() -> None:
    placements.cache_clear()
    # 1, 2 or 3 in each: 1+2+3 only, every digit in every cell
    assert placements((0b111, 0b111, 0b111)) == {6: (0b111, 0b111, 0b111)}
    # a 1 in the first two: no placement
    assert placements((0b001, 0b001, 0b111)) == {}
    # 1 and 2 either way round before the 4: 7 only
    assert placements((0b011, 0b011, 0b1000)) == {7: (0b011, 0b011, 0b1000)}
