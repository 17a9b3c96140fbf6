"""The sandwich's combination rule (its native narrowing) is exact: on random candidates it
keeps exactly what some filling of the line gives each cell, found here by a search of its
own (the line's cells in order, the digits used so far, which crust came first and the sum
so far), with the line a unit of the grid and without."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp.constraints.kinds.sandwich import Sandwich

narrow = Sandwich.narrowing


def projection(n: int, total: int, unit: bool, masks: tuple[int, ...]
               ) -> tuple[int, ...] | None:
    """Each cell's digits over the fillings of the line that show the clue: exactly one 1
    and one N, the values strictly between them different and adding up to ``total``; with
    ``unit`` every digit once on the line, else the cells outside anything but 1 and N."""
    length, top = len(masks), n - 1

    @cache
    def ends(k: int, used: int, phase: int, partial: int) -> frozenset[tuple[int, ...]]:
        # phase 0: before the first crust; 1: between; 2: after the second.
        if k == length:
            return frozenset({()}) if phase == 2 else frozenset()
        found: set[tuple[int, ...]] = set()
        for d in range(n):
            crust = d in (0, top)
            if not masks[k] >> d & 1 or used >> d & 1 and (unit or crust or phase == 1):
                continue
            if phase == 1 and crust:
                if partial != total:
                    continue
                state = (used | 1 << d, 2, partial)
            elif crust:
                if phase == 2:
                    continue
                state = (used | 1 << d, 1, 0)
            elif phase == 1:
                if partial + d + 1 > total:
                    continue
                state = (used | 1 << d, 1, partial + d + 1)
            else:  # outside the crusts: on a unit, no digit twice
                state = (used | 1 << d if unit else used, phase, partial)
            found.update((d, *tail) for tail in ends(k + 1, *state))
        return frozenset(found)

    fillings = ends(0, 0, 0, 0)
    if not fillings:
        return None
    out = [0] * length
    for filling in fillings:
        for k, d in enumerate(filling):
            out[k] |= 1 << d
    return tuple(out)


def lines(n: int) -> st.SearchStrategy[tuple[int, tuple[int, ...]]]:
    """A clue (sometimes one no filling makes) and candidates, a few digits a cell."""
    most = sum(range(2, n))
    mask = st.integers(1, (1 << n) - 1)
    sparse = st.lists(st.integers(0, n - 1), min_size=1, max_size=max(2, n // 2)).map(
        lambda ds: sum({1 << d for d in ds}))
    return st.tuples(st.integers(0, most + 2),
                     st.lists(st.one_of(mask, sparse), min_size=n, max_size=n).map(tuple))


@pytest.mark.parametrize("n", [4, 6, 9])
@pytest.mark.parametrize("unit", [True, False])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_narrowing_is_the_projection_of_the_fillings(n: int, unit: bool, data) -> None:
    total, masks = data.draw(lines(n))
    expected = projection(n, total, unit, masks)
    assert narrow(n, total, unit, masks) == expected
    # The rule reads the same either way along the line (a clue at either end).
    back = narrow(n, total, unit, masks[::-1])
    assert back == (None if expected is None else expected[::-1])


@pytest.mark.parametrize("unit", [True, False])
def test_narrowing_on_given_lines(unit: bool) -> None:
    """Whole lines given: kept exactly when they show the clue."""
    line = (3, 1, 5, 9, 2, 4, 7, 8, 6)   # only the 5 between the 1 and the 9
    masks = tuple(1 << (v - 1) for v in line)
    assert narrow(9, 5, unit, masks) == masks
    assert narrow(9, 6, unit, masks) is None
    assert narrow(9, 5, unit, masks[::-1]) == masks[::-1]
