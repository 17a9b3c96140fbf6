"""A killer cage's native narrowing (cage_sums.narrow) and its required digits
(implied._required) against brute force and against a plain statement of their rule, on
random candidate masks: sound (every digit of some filling of the cage is kept), complete
on singles, and exactly the deductions the rule describes (the fast paths change no
result)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp.constraints.cage_sums import combinations_for, narrow, sum_range
from sudoku_csp.constraints.implied import _required


def _fillings(masks: tuple[int, ...], total: int, n: int) -> list[tuple[int, ...]]:
    """Every filling of the cells from their masks: different digits adding up to total."""
    options = [[d for d in range(n) if m >> d & 1] for m in masks]
    return [f for f in product(*options)
            if len(set(f)) == len(f) and sum(f) + len(f) == total]


def _fitting(combos: tuple[int, ...], masks: tuple[int, ...]) -> list[int]:
    """The digit sets that fit: each cell can hold one of its digits, and every digit of
    the set is some cell's candidate."""
    union = 0
    for m in masks:
        union |= m
    return [c for c in combos if not c & ~union and all(m & c for m in masks)]


def _rule(combos: tuple[int, ...], masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The cage's rule as its docstring states it, one step after another."""
    singles = [m for m in masks if m and not m & (m - 1)]
    if len(set(singles)) < len(singles):
        return None
    placed = sum(set(singles))
    out = [m if not m & (m - 1) else m & ~placed for m in masks]
    if not all(out):
        return None
    fit = _fitting(combos, tuple(out))
    if not fit:
        return None
    allowed, required = 0, -1
    for c in fit:
        allowed |= c
        required &= c
    out = [m & allowed for m in out]
    if not all(out):
        return None
    # A required digit not placed yet with one cell left for it goes there, in digit
    # order, each seeing the ones before (none left for it: nothing fits).
    for d in (d for d in range(required.bit_length()) if (required & ~placed) >> d & 1):
        places = [i for i in range(len(out)) if out[i] >> d & 1]
        if len(places) == 1:
            out[places[0]] = 1 << d
        elif not places:
            return None
    return tuple(out)


@st.composite
def cages(draw: st.DrawFn) -> tuple[int, int, tuple[int, ...]]:
    n = draw(st.sampled_from((4, 6, 9)))
    k = draw(st.integers(1, 4))
    low, high = sum_range(k, n)
    total = draw(st.integers(low, high))
    masks = tuple(draw(st.lists(st.integers(1, (1 << n) - 1), min_size=k, max_size=k)))
    return n, total, masks


@settings(max_examples=150, deadline=None)
@given(cages())
def test_cage_narrowing_is_its_rule_and_sound(cage: tuple[int, int, tuple[int, ...]]) -> None:
    n, total, masks = cage
    combos = combinations_for(len(masks), total, n)
    assert combos is not None
    got = narrow(combos, total, masks)
    assert got == _rule(combos, masks)
    fillings = _fillings(masks, total, n)
    if got is None:
        assert not fillings
        return
    for i, m in enumerate(got):
        assert not m & ~masks[i]
        for f in fillings:
            assert m >> f[i] & 1  # no digit of a filling is lost
    if all(not m & (m - 1) for m in masks):
        assert len(fillings) == 1  # complete on singles: only a filling is accepted


@settings(max_examples=100, deadline=None)
@given(cages(), st.lists(st.integers(1, 511), min_size=1, max_size=4))
def test_required_digits_leave_the_cells_outside(cage: tuple[int, int, tuple[int, ...]],
                                                 outside: list[int]) -> None:
    n, total, masks = cage
    combos = combinations_for(len(masks), total, n)
    assert combos is not None
    outside = [m & ((1 << n) - 1) or 1 for m in outside]
    got = _required(combos, len(masks), (*masks, *outside))
    fit = _fitting(combos, masks)
    if not fit:
        assert got is None and not _fillings(masks, total, n)
        return
    required = -1
    for c in fit:
        required &= c
    for m in masks:
        if not m & (m - 1):
            required &= ~m
    kept = [m & ~required for m in outside]
    assert got == (None if not all(kept) else (*masks, *kept))
