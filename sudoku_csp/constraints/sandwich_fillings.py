"""A sandwich's fillings, and its combination rule over a line's candidates (the native
translation of :class:`~sudoku_csp.constraints.kinds.sandwich.Sandwich`): the sets of values
of 2..N-1 that fit between the crusts, per place of the crusts held against the cells
between and, on a unit, against the cells outside."""

from __future__ import annotations

from functools import cache, lru_cache

from sudoku_csp.constraints.group_sums import set_supports, sets_adding_to
from sudoku_csp.constraints.remembered import state_cache

__all__ = ["fillings", "narrow", "totals"]


@cache
def totals(n: int) -> int:
    """The sums of any number of the values ``2..n-1`` (a sandwich's filling), as a bit mask
    (bit ``s``: some filling adds up to ``s``).

    >>> bin(totals(4))    # of 2 and 3: nothing, 2, 3, 2 + 3
    '0b101101'
    """
    sums = 1
    for value in range(2, n):
        sums |= sums << value
    return sums


@lru_cache(maxsize=1024)
def fillings(k: int, total: int, n: int) -> tuple[int, ...]:
    """The sets of ``k`` different values of ``2..n-1`` adding up to ``total``, as digit
    bitmasks (the empty set for ``k = 0`` and a total of 0).

    >>> [bin(m) for m in fillings(2, 10, 9)]    # 2 + 8, 3 + 7, 4 + 6 (bit d: value d + 1)
    ['0b10000010', '0b1000100', '0b101000']
    >>> fillings(0, 0, 9), fillings(1, 9, 9)    # side by side; a 9 is a crust
    ((0,), ())
    """
    if k == 0:
        return (0,) if total == 0 else ()
    crusts = 1 | 1 << (n - 1)
    return tuple(m for m in sets_adding_to(k, total, n) if not m & crusts)


@lru_cache(maxsize=1024)
def _readings(n: int, total: int, length: int) -> dict[tuple[int, int], tuple[int, int]]:
    """The places the crusts may take on a line of ``length`` cells for the clue: per two
    places ``(low, high)``, ``low < high``, with some filling of the cells between
    (:func:`fillings`), the digits some filling holds and the digits of 2..N-1 some
    filling leaves out (all the cells between and outside can hold in any reading of these
    places: their candidates are cut to them before the cache of :func:`_held` is read,
    which then serves more lines)."""
    rest = ((1 << n) - 1) & ~(1 | 1 << (n - 1))
    found = {}
    for low in range(length):
        for high in range(low + 1, length):
            combos = fillings(high - low - 1, total, n)
            if combos:
                union, common = 0, -1
                for combo in combos:
                    union |= combo
                    common &= combo
                found[low, high] = union, rest & ~common
    return found


@state_cache(maxsize=1 << 16)
def _held(n: int, total: int, size: int, digits: int, masks: tuple[int, ...]
          ) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """One side of a sandwich's crusts: per filling of ``size`` cells (:func:`fillings`)
    whose digits the cells of ``masks`` can hold, one each, all different
    (:func:`~sudoku_csp.constraints.group_sums.set_supports`), the cells' digits over those
    placements; with ``digits`` (not 0) the filling's complement there instead (the cells
    outside the crusts on a unit). Also the cells' digits over all the fillings kept.
    Cached per side, so that a change on the other side (or the crusts' other places)
    reads this one from the cache; a filling the cells' digits cannot cover, or that misses
    a cell's digits, is left out before its placements are read (they would refuse it
    too)."""
    union = 0
    for m in masks:
        union |= m
    found = {}
    every = [0] * len(masks)
    for combo in fillings(size, total, n):
        wanted = digits & ~combo if digits else combo
        if wanted & ~union or not all(m & wanted for m in masks):
            continue
        support = set_supports(wanted, masks) if masks else ()
        if support is not None:
            found[combo] = support
            every = [a | b for a, b in zip(every, support, strict=True)]
    return found, tuple(every)


def _joined(supports: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The cells' digits over several placements (each a tuple of masks)."""
    every = supports[0]
    for support in supports[1:]:
        every = tuple(a | b for a, b in zip(every, support, strict=True))
    return every


@state_cache(maxsize=1 << 14)
def _places(n: int, total: int, length: int, ones: int, tops: int
            ) -> tuple[tuple[int, int], ...]:
    """The readings of :func:`_readings` whose crusts the cells allow: ``ones`` and
    ``tops`` the cells (a bit each) that may hold the 1 and the N."""
    return tuple(pair for pair in _readings(n, total, length)
                 if ones >> pair[0] & tops >> pair[1] & 1 or ones >> pair[1] & tops >> pair[0] & 1)


@state_cache(maxsize=50_000)
def narrow(n: int, total: int, unit: bool, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A sandwich's combination rule over its whole line: for each two places the 1 and the
    N may still take, the cells between must hold one set of different values of 2..N-1
    adding up to the clue (each set held against the cells); every cell keeps what some
    such reading gives it (the crusts their digit, the cells between their set's digits).
    With ``unit`` (the line is a unit of the grid: its ``n`` cells hold every digit once)
    the cells outside the crusts hold the other digits, the set's complement, held against
    them as well: a set they cannot hold is no reading, and they lose its digits. Else they
    keep anything but 1 and N.

    The places come from a table per clue and length (:func:`_readings`), each side of the
    crusts is read once per candidates (:func:`_held`, cached), and the reading stops as
    soon as every cell keeps all it holds (nothing can narrow).

    >>> [bin(m) for m in narrow(4, 2, True, (0b1111, 0b0001, 0b1111, 0b1111))]
    ['0b100', '0b1', '0b10', '0b1000']
    """
    one, top = 1, 1 << (n - 1)
    crusts = one | top
    rest = ((1 << n) - 1) & ~crusts
    free = [m & ~crusts for m in masks]  # what each cell holds when no crust
    bound = 0  # the cells that can only be crusts, a bit each
    ones = tops = 0  # the cells that may hold the 1, the N
    for k, m in enumerate(masks):
        if not m & ~crusts:
            bound |= 1 << k
        if m & one:
            ones |= 1 << k
        if m & top:
            tops |= 1 << k
    if bound.bit_count() > 2:
        return None
    size = len(masks)
    out = [0] * size
    whole = list(masks)
    readings = _readings(n, total, size)
    for low, high in _places(n, total, size, ones, tops):
        if bound & ~(1 << low | 1 << high):
            continue  # a 1 or an N outside the crusts: not this reading
        within, left = readings[low, high]
        inside, fits = _held(n, total, high - low - 1, 0,
                             tuple([m & within for m in free[low + 1:high]]))
        if not inside:
            continue
        around = (*free[:low], *free[high + 1:])
        if unit and around:
            beside, beyond = _held(n, total, high - low - 1, rest,
                                   tuple([m & left for m in around]))
            if len(beside) != len(inside) or beside.keys() != inside.keys():
                kept = [c for c in inside if c in beside]
                if not kept:
                    continue
                fits = _joined([inside[c] for c in kept])
                beyond = _joined([beside[c] for c in kept])
        else:
            beyond = around
        up = ones >> low & tops >> high & 1  # the 1 at low, the N at high
        down = ones >> high & tops >> low & 1
        if up:
            out[low] |= one
            out[high] |= top
        if down:
            out[high] |= one
            out[low] |= top
        for k, m in enumerate(fits, start=low + 1):
            out[k] |= m
        for k, m in enumerate(beyond[:low]):
            out[k] |= m
        for k, m in enumerate(beyond[low:], start=high + 1):
            out[k] |= m
        if out == whole:
            return masks  # every cell keeps all it holds: the other readings add nothing
    if not all(out):
        return None
    return tuple(out)
