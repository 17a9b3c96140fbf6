"""Sums on bounds: a sum along cells written in CNF on order literals, from which a SAT
solver learns clauses about bounds ("A1 is 6 or more", "the first three cells add up to 12
or more") where digit literals, or an automaton's states, give it one digit or one state
at a time (CP-SAT's integers carry such bounds of their own).

The sat backend writes a little killer's diagonal so by default (:data:`SUM_BOUNDS`;
:class:`~sudoku_csp.constraints.kinds.littlekiller.LittleKiller`), its ends shared
(:data:`BOUNDS_ENDS`: the first prefix is the first cell, the last cell the total less the
prefix before it, literals only inside the clue's ranges). Arrows keep their tables:
on bounds they took about as many conflicts, more on the generated arrows of few givens
(docs/design.md: Design choices, measured).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from itertools import product
from typing import TYPE_CHECKING

from sudoku_csp.constraints.cell_orders import order_clauses
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Constant,
    EncodingOption,
    folded,
    negated,
    templated,
)

if TYPE_CHECKING:
    from sudoku_csp.geometry import Geometry

__all__ = ["BOUNDS_ENDS", "BOUNDS_ROWS", "SUM_BOUNDS", "bounds_clauses"]

SUM_BOUNDS = EncodingOption(
    "sum_bounds", "on", "little killers in CNF: on (the running sum's bounds as order "
    "literals over each cell's value) or off (as line_sums says)", ("on", "off"),
    "sum-bounds switch")
"""Whether the sat backend writes a little killer's sum on bounds (:func:`bounds_clauses`)
or as ``line_sums`` says. ``on`` by measurement: on the five generated little killers of
few givens (examples/kinds_few_givens.txt) CaDiCaL's conflicts to decide uniqueness fell from
69,000 to 26,000 in all (CP-SAT, whose integers carry such bounds, takes 29,000); on the six
published ones of the dev corpus from 3,400 to 2,200."""

BOUNDS_ENDS = EncodingOption(
    "bounds_ends", "segments", "little killers on bounds: segments (the diagonal read by "
    "runs of up to three cells that see each other, each run's sum on bounds knowing its "
    "digits differ, then the running sum over the runs), shared (the running sum over the "
    "cells, the first prefix the first cell's value and the last cell's value the prefix "
    "before it read backwards, literals only for the values the clue leaves a cell) or own "
    "(every cell and prefix its own literals over all values)", ("segments", "shared", "own"),
    "sum-bounds layout")
"""How :func:`bounds_clauses` lays out a sum. ``segments`` by measurement (issue 34): on
the eleven little killer puzzles of the dev corpus and of examples/kinds_few_givens.txt,
counting to two in one process over three shuffled passes, 821 -> 739 ms in all and
27,500 -> 25,000 conflicts, five of the six published ones quicker (the three slowest
by 11-20 %, the 4x4 one 0.27 -> 0.32 ms); ``shared`` over ``own`` (docs/design.md: Design choices,
measured): on the fifteen generated little killers of few givens 17 % fewer auxiliaries,
5 % fewer clauses and 7-10 % fewer propagations at as many conflicts, the same propagation
on the digits."""


BOUNDS_ROWS = EncodingOption(
    "bounds_rows", "loosest", "little killers by runs (bounds_ends=segments): loosest (of "
    "the bounds that rule a run's cells out, only the loosest; the others follow by unit "
    "propagation) or all (every bound the run's different digits give)", ("loosest", "all"),
    "run-bounds rows", unrecorded="all")
"""Which bounds tie a run's cells to its sum with ``bounds_ends=segments``. ``loosest`` by
measurement (issue 34): the same unit propagation in fewer clauses (a run of three cells of
a 9x9 adding up to 17: 65 rows of 356), the six published little killers of the dev corpus
1,571 -> 981 clauses on "Blitz", 4,928 -> 2,732 on "Orbit", about 5 % quicker at the
median; the ten generated ones of few givens 2-3 % slower at as many conflicts
(docs/design.md). A certificate made before the option names none and is read as ``all``."""


def bounds_clauses(ctx: CnfContext, cells: Sequence[int], total: int,
                   ends: str = "shared", rows: str = "loosest") -> list[Clause]:
    """The clauses saying that the values (digit + 1) of ``cells`` add up to ``total``,
    written on bounds: per cell, order literals "its value is ``v`` or more" tied to its
    digits; per prefix of ``i`` cells, a literal "the first ``i`` cells add up to ``s`` or
    more" for each ``s`` the sum can still have there (at least ``total`` less ``N`` per
    cell to come, at most ``total`` less one per cell to come); a prefix at least ``a`` and
    a value at least ``b`` make the next prefix at least ``a + b``, and a prefix under ``a``
    and a value under ``b`` keep it under ``a + b - 1``. Exact: a filling of the cells
    satisfies them (with the literals it sets) if and only if its values add up to
    ``total``. Unit propagation keeps the running sum's bounds (not each digit's support, as
    an automaton does), and a solver learns clauses about bounds ("A1 is 6 or more") where
    digit literals alone give it one digit at a time.

    ``ends`` (:data:`BOUNDS_ENDS`): ``shared``, a cell's literals only for the values the
    total leaves it, the first prefix's literals the first cell's and the last cell's the
    prefix before it read backwards; ``own``, every cell's literals for ``v = 2..N`` and
    every prefix's of its own. Both propagate alike on the digits. ``segments``: the cells
    in runs that see each other (:func:`_runs`, in ``ctx``'s geometry), each run's sum a
    literal ladder tied to its cells' knowing that their digits differ (two cells of a box
    that are 5 or more add up to 11 or more), the running sum over the runs' sums, ends
    shared; exact on the fillings whose runs hold different digits (the grid's rules
    refuse the others), and propagation knows what the rules make of a run's bounds.
    ``rows`` (:data:`BOUNDS_ROWS`): ``loosest``, of the bounds that refute a run outright
    only the loosest (:func:`_run_rows`); ``all``, every row of :func:`_different_bounds`.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> bounds_clauses(ctx, (0, 1), 9)    # 4 + 4 at most
    [()]
    >>> bounds_clauses(ctx, (0,), 3)    # A1 is 3: no 1, no 2, a 3, no 4
    [(-1,), (-2,), (3,), (-4,)]
    >>> bounds_clauses(ctx, (0,), 3, "own")[-2:]   # A1 is 3: not 4 or more, and 3 or more
    [(-67,), (66,)]
    """
    if ends == "own":
        return templated(ctx, cells, ("sum bounds", total), partial(_bounds_over_slots, total))
    if ends == "segments":
        sizes = _runs(ctx.geometry, cells)
        loosest = rows == "loosest"
        return templated(ctx, cells, ("sum bounds, runs", total, sizes, loosest),
                         partial(_runs_over_slots, total, sizes, loosest))
    return templated(ctx, cells, ("sum bounds, ends shared", total),
                     partial(_shared_over_slots, total))


def _prefix_ranges(total: int, n: int, length: int) -> tuple[list[int], list[int]] | None:
    """Per prefix of ``i`` cells (``i = 0..length``) of a sum of ``length`` values ``1..n``
    adding up to ``total``, the least and greatest sum it can have (at least ``total`` less
    ``n`` per cell to come, at most ``total`` less one per cell to come); None when no
    filling reaches ``total``.

    >>> _prefix_ranges(7, 4, 2)
    ([0, 3, 7], [0, 4, 7])
    """
    lows = [max(i, total - n * (length - i)) for i in range(length + 1)]
    highs = [min(n * i, total - (length - i)) for i in range(length + 1)]
    if any(lo > hi for lo, hi in zip(lows, highs, strict=True)):
        return None
    return lows, highs


def _bounds_over_slots(total: int, slots: CnfContext, cells: tuple[int, ...]
                       ) -> list[Clause]:
    """:func:`bounds_clauses`' clauses for ``cells`` over the slots of a template
    (:func:`~sudoku_csp.constraints.translation.templated` keeps them per length, total and
    grid size): per cell its order literals "value ≥ v" (``v = 2..N``), then each prefix's
    literals "the first ``i`` cells add up to ``s`` or more" for ``lows[i] < s <=
    highs[i]``, all from ``slots``' pool; ``[()]`` when no filling reaches ``total``. Of
    the clauses a prefix and a value make, only those whose conclusion is no constant, and
    the first that meets one, are written: the order of the values' literals gives the
    others by propagation."""
    n, length = slots.geometry.size, len(cells)
    ranges = _prefix_ranges(total, n, length)
    if ranges is None:
        return [()]
    lows, highs = ranges
    digits = slots.cell_vars(cells)
    orders = slots.new_vars(length * (n - 1))
    prefix: list[dict[int, int]] = []  # per prefix: s -> its variable, for lows < s <= highs
    for lo, hi in zip(lows, highs, strict=True):
        prefix.append(dict(zip(range(lo + 1, hi + 1), slots.new_vars(hi - lo), strict=True)))
    clauses: list[Clause] = []
    for i in range(length):
        first = orders[i * (n - 1)] - 2  # first + v: "cell i's value is v or more"
        clauses += order_clauses(digits[i * n], first, n)
        lo, hi, lo1, hi1 = lows[i], highs[i], lows[i + 1], highs[i + 1]
        here, after = prefix[i], prefix[i + 1]
        clauses += [(-after[s + 1], after[s]) for s in range(lo1 + 1, hi1)]  # ordered
        for a in range(lo, hi + 1):  # at least a (a = lo: always), at least b: a + b
            p = () if a == lo else (-here[a],)
            for b in range(max(1, lo1 + 1 - a), min(n, hi1 + 1 - a) + 1):
                y = () if b == 1 else (-(first + b),)
                clauses.append((*p, *y, *((after[a + b],) if a + b <= hi1 else ())))
        for a in range(lo + 1, hi + 2):  # under a (a = hi + 1: always), under b: < a + b - 1
            p = () if a == hi + 1 else (here[a],)
            for b in range(max(2, lo1 + 1 - a), min(n + 1, hi1 + 1 - a) + 1):
                y = () if b == n + 1 else (first + b,)
                clauses.append((*p, *y, *((-after[a + b - 1],) if a + b - 1 > lo1 else ())))
    return clauses


# -- ends shared (bounds_ends=shared) ----------------------------------------------------------
class _Ladder:
    """The order literals "``s`` or more" of one bounded quantity (a cell's value, a
    prefix's sum): constant ``True`` up to ``low``, constant ``False`` above ``high``, in
    between a variable of its own or, with ``mirror = (other, total)``, "``total`` less
    ``other`` is ``s`` or more": ``other`` is not ``total - s + 1`` or more."""

    def __init__(self, low: int, high: int, variables: Sequence[int] = (),
                 mirror: tuple[_Ladder, int] | None = None) -> None:
        self.low, self.high, self.mirror = low, high, mirror
        self.own = dict(zip(range(low + 1, high + 1), variables, strict=True)) \
            if mirror is None else {}

    def ge(self, s: int) -> Constant:
        """The literal "``s`` or more"."""
        if s <= self.low:
            return True
        if s > self.high:
            return False
        if self.mirror is None:
            return self.own[s]
        other, total = self.mirror
        return negated(other.ge(total - s + 1))


def _ordered(ladders: Sequence[_Ladder]) -> list[Clause | None]:
    """The clauses ordering each ladder's own literals ("``s + 1`` or more" is "``s`` or
    more"), once per ladder (one may stand in two places); a mirror is ordered as the
    ladder it reads."""
    clauses: list[Clause | None] = []
    for ladder in {id(ladder): ladder for ladder in ladders}.values():
        own = ladder.own
        clauses += [(-own[s + 1], own[s]) for s in range(ladder.low + 1, ladder.high)
                    if ladder.mirror is None]
    return clauses


def _kept(clauses: list[Clause | None]) -> list[Clause]:
    """``clauses`` without those a constant satisfies (``None``), or ``[()]`` when one is
    empty (no filling reaches the total)."""
    if () in clauses:
        return [()]
    return [clause for clause in clauses if clause is not None]


def _tied(value: _Ladder, digits: Sequence[int]) -> list[Clause | None]:
    """The clauses tying a cell's ladder ``value`` to its ``digits`` (digit ``d``: value
    ``d + 1``): a digit sets the ladder, and "at least ``v``, not at least ``v + 1``" is the
    digit ``v - 1``."""
    clauses: list[Clause | None] = []
    for d, x in enumerate(digits):
        at_least, above = value.ge(d + 1), value.ge(d + 2)
        clauses += [folded(-x, at_least), folded(-x, negated(above)),
                    folded(x, negated(at_least), above)]
    return clauses


def _step(here: _Ladder, term: _Ladder, after: _Ladder) -> list[Clause | None]:
    """The clauses making ``after`` the sum of ``here`` and ``term`` on their ladders: at
    least ``a`` and at least ``b`` make at least ``a + b``, under ``a`` and under ``b`` keep
    it under ``a + b - 1`` (``None`` for a clause a constant satisfies)."""
    lo, hi, lo1, hi1 = here.low, here.high, after.low, after.high
    clauses: list[Clause | None] = []
    for a in range(lo, hi + 1):  # at least a (a = lo: always), at least b: a + b
        for b in range(max(term.low, lo1 + 1 - a), min(term.high, hi1 + 1 - a) + 1):
            clauses.append(folded(negated(here.ge(a)), negated(term.ge(b)), after.ge(a + b)))
    for a in range(lo + 1, hi + 2):  # under a (a = hi + 1: always), under b: < a + b - 1
        for b in range(max(term.low + 1, lo1 + 1 - a), min(term.high + 1, hi1 + 1 - a) + 1):
            clauses.append(folded(here.ge(a), term.ge(b), negated(after.ge(a + b - 1))))
    return clauses


def _shared_over_slots(total: int, slots: CnfContext, cells: tuple[int, ...]
                       ) -> list[Clause]:
    """:func:`bounds_clauses`' clauses with ``bounds_ends=shared``, over the slots of a
    template: as :func:`_bounds_over_slots` writes them, but each cell's literals only for
    the values the total leaves it (``total`` less ``N`` for each other cell up to
    ``total`` less one for each), the first prefix's literals the first cell's, and the
    last cell's the prefix before it read backwards (that cell is ``total`` less it): a
    sum of ``L > 1`` cells has ``L - 2`` prefixes of literals of its own (the chain ``L -
    1``) and ``L - 1`` cells' (the chain ``L``), and no clauses tying a prefix to a cell it
    equals. Both write the same propagation on the digits."""
    n, length = slots.geometry.size, len(cells)
    ranges = _prefix_ranges(total, n, length)
    if ranges is None:
        return [()]
    lows, highs = ranges
    least, most = max(1, total - n * (length - 1)), min(n, total - (length - 1))
    digits = slots.cell_vars(cells)
    prefix = [_Ladder(0, 0)]  # prefix[i]: the first i cells' sum
    value: list[_Ladder] = []  # value[i]: cell i's value
    for i in range(length):
        if i == length - 1 and i:  # the total less the cells before it
            value.append(_Ladder(least, most, mirror=(prefix[i], total)))
            break
        value.append(_Ladder(least, most, slots.new_vars(most - least)))
        if i == 0:
            prefix.append(value[0])
        else:
            prefix.append(_Ladder(lows[i + 1], highs[i + 1],
                                  slots.new_vars(highs[i + 1] - lows[i + 1])))
    clauses = _ordered((*value, *prefix[2:]))
    for i, ladder in enumerate(value):  # each cell's literals tied to its digits
        clauses += _tied(ladder, digits[i * n:(i + 1) * n])
    for i in range(1, length - 1):  # prefix i + 1 = prefix i + cell i, as the chain has it
        clauses += _step(prefix[i], value[i], prefix[i + 1])
    return _kept(clauses)


# -- runs of different digits (bounds_ends=segments) -------------------------------------------
RUN_MOST = 3
"""The most cells :func:`_runs` puts in one run: a run of ``k`` cells has a clause for each
tuple of bounds on its cells that no weaker one matches (65 for two cells of a 9x9, 366 for
three, thousands for four), and a 9x9 diagonal meets a box in three cells at most."""


def _runs(geometry: Geometry, cells: Sequence[int]) -> tuple[int, ...]:
    """The sizes of the runs ``cells`` is cut into, in order: each run the longest stretch
    of cells that see each other two by two (hold different digits), up to
    :data:`RUN_MOST`.

    >>> from sudoku_csp.variants import make_geometry
    >>> _runs(make_geometry(9), tuple(range(0, 81, 10)))   # the main diagonal: three boxes
    (3, 3, 3)
    """
    sizes: list[int] = []
    start = 0
    for i, cell in enumerate(cells):
        if i > start and (i - start == RUN_MOST or not all(
                geometry.are_peers(cell, other) for other in cells[start:i])):
            sizes.append(i - start)
            start = i
    return (*sizes, len(cells) - start)


def _least(bounds: Sequence[int]) -> int:
    """The least sum of different values each at least its bound: each value the least
    above the one before, in order of the bounds."""
    total = floor = 0
    for bound in sorted(bounds):
        floor = max(bound, floor + 1)
        total += floor
    return total


def _greatest(bounds: Sequence[int], n: int) -> int:
    """The greatest sum of different values ``1..n`` each at most its bound."""
    total, ceiling = 0, n + 1
    for bound in sorted(bounds, reverse=True):
        ceiling = min(bound, ceiling - 1)
        total += ceiling
    return total


def _looser_leasts(bounds: Sequence[int]) -> list[int]:
    """:func:`_least` of each tuple with one bound of ``bounds`` lowered by one (the
    bounds above 1)."""
    return [_least((*bounds[:j], b - 1, *bounds[j + 1:]))
            for j, b in enumerate(bounds) if b > 1]


def _looser_greatests(bounds: Sequence[int], n: int) -> list[int]:
    """:func:`_greatest` of each tuple with one bound of ``bounds`` raised by one (the
    bounds under ``n``)."""
    return [_greatest((*bounds[:j], b + 1, *bounds[j + 1:]), n)
            for j, b in enumerate(bounds) if b < n]


@lru_cache(maxsize=16)
def _different_bounds(k: int, n: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The bounds on ``k`` different values ``1..n`` that say more about their sum than
    weaker ones, as rows ``(bounds, least, 0)`` (the values at least ``bounds``, one each,
    add up to ``least`` or more: ``5, 5`` to 11) and ``(bounds, 0, greatest)`` (at most
    ``bounds``, to ``greatest`` or less): a tuple is kept when loosening any one bound
    loosens the sum.

    >>> [row for row in _different_bounds(2, 3) if row[1]]   # two of 1..3: (3, 3) cannot be
    [((1, 1), 3, 0), ((1, 3), 4, 0), ((2, 2), 5, 0), ((3, 1), 4, 0), ((3, 3), 7, 0)]
    """
    rows: list[tuple[tuple[int, ...], int, int]] = []
    for bounds in product(range(1, n + 1), repeat=k):
        low, high = _least(bounds), _greatest(bounds, n)
        if all(looser < low for looser in _looser_leasts(bounds)):
            rows.append((bounds, low, 0))
        if all(looser > high for looser in _looser_greatests(bounds, n)):
            rows.append((bounds, 0, high))
    return tuple(rows)


@lru_cache(maxsize=256)
def _run_rows(k: int, n: int, low: int, high: int
              ) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The rows of :func:`_different_bounds` worth a clause for a run whose sum lies in
    ``low..high``: none whose conclusion holds anyway (a least of ``low`` or less, a
    greatest of ``high`` or more), and of the rows that refute bounds outright (a least
    above ``high``, a greatest under ``low``) only the loosest, each of whose one-step
    loosenings no longer refutes. A tighter refuting row follows from a loosest one and
    the cells' ordered literals by unit propagation, so leaving it out loses none: a run of
    three cells of a 9x9 adding up to 17 keeps 65 of 356 rows.

    >>> len(_run_rows(3, 9, 17, 17)), len(_run_rows(3, 9, 6, 24))
    (65, 722)
    """
    rows = []
    for bounds, least, greatest in _different_bounds(k, n):
        if least:
            if least <= low or least > high and any(
                    looser > high for looser in _looser_leasts(bounds)):
                continue
        elif greatest >= high or greatest < low and any(
                looser < low for looser in _looser_greatests(bounds, n)):
            continue
        rows.append((bounds, least, greatest))
    return tuple(rows)


def _run_ranges(total: int, n: int, sizes: tuple[int, ...]
                ) -> tuple[list[int], list[int]] | None:
    """As :func:`_prefix_ranges`, per boundary between runs (``sizes``: each run's cells,
    which hold different values): ``k`` different values add up to ``k(k+1)/2`` at least
    and ``k(2n-k+1)/2`` at most.

    >>> _run_ranges(54, 9, (3, 3, 3))
    ([0, 6, 30, 54], [0, 24, 48, 54])
    """
    least = [k * (k + 1) // 2 for k in sizes]
    most = [k * (2 * n - k + 1) // 2 for k in sizes]
    lows = [max(sum(least[:g]), total - sum(most[g:])) for g in range(len(sizes) + 1)]
    highs = [min(sum(most[:g]), total - sum(least[g:])) for g in range(len(sizes) + 1)]
    if any(lo > hi for lo, hi in zip(lows, highs, strict=True)):
        return None
    return lows, highs


def _runs_over_slots(total: int, sizes: tuple[int, ...], loosest: bool, slots: CnfContext,
                     cells: tuple[int, ...]) -> list[Clause]:
    """:func:`bounds_clauses`' clauses with ``bounds_ends=segments``, over the slots of a
    template: ``cells`` in runs of ``sizes`` cells that hold different digits; each run's
    sum a ladder of its own (a lone cell's its value's), tied to its cells' ladders by
    :func:`_different_bounds` (two cells of 5 or more add up to 11 or more; ``loosest``:
    the rows of :func:`_run_rows`), then the running sum over the runs' sums as
    :func:`_shared_over_slots` has it over cells (the first prefix the first run, the last
    run the total less the prefix before it)."""
    n, count = slots.geometry.size, len(sizes)
    ranges = _run_ranges(total, n, sizes)
    if ranges is None:
        return [()]
    lows, highs = ranges
    digits = slots.cell_vars(cells)
    prefix = [_Ladder(0, 0)]  # prefix[g]: the first g runs' sum
    runs: list[_Ladder] = []
    value: list[_Ladder] = []  # each cell's value
    for g, k in enumerate(sizes):
        low = max(k * (k + 1) // 2, lows[g + 1] - highs[g])
        high = min(k * (2 * n - k + 1) // 2, highs[g + 1] - lows[g])
        if count == 1:
            run = _Ladder(total, total)
        elif g == count - 1:  # the total less the runs before it
            run = _Ladder(low, high, mirror=(prefix[g], total))
        else:
            run = _Ladder(low, high, slots.new_vars(high - low))
        runs.append(run)
        value += [run] if k == 1 else [_Ladder(1, n, slots.new_vars(n - 1)) for _ in range(k)]
        if g == 0:
            prefix.append(run)
        elif g < count - 1:
            prefix.append(_Ladder(lows[g + 1], highs[g + 1],
                                  slots.new_vars(highs[g + 1] - lows[g + 1])))
    clauses = _ordered((*value, *runs, *prefix[2:]))  # (a lone cell's value: its run's sum)
    for i, ladder in enumerate(value):  # each cell's literals tied to its digits
        clauses += _tied(ladder, digits[i * n:(i + 1) * n])
    first = 0
    for k, run in zip(sizes, runs, strict=True):  # a run's sum from its cells' bounds
        members = value[first:first + k]
        first += k
        if k == 1:
            continue
        for bounds, least, greatest in (_run_rows(k, n, run.low, run.high) if loosest
                                        else _different_bounds(k, n)):
            pairs = zip(members, bounds, strict=True)
            if least:  # each at least its bound: the run at least ``least``
                clauses.append(folded(*(negated(v.ge(b)) for v, b in pairs), run.ge(least)))
            else:  # each at most its bound: the run at most ``greatest``
                clauses.append(folded(*(v.ge(b + 1) for v, b in pairs),
                                       negated(run.ge(greatest + 1))))
    for g in range(1, count - 1):  # prefix g + 1 = prefix g + run g
        clauses += _step(prefix[g], runs[g], prefix[g + 1])
    return _kept(clauses)
