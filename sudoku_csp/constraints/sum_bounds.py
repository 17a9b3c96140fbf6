"""Sums on bounds: a sum along cells written in CNF on order literals, from which a SAT
solver learns clauses about bounds ("A1 is 6 or more", "the first three cells add up to 12
or more") where digit literals, or an automaton's states, give it one digit or one state
at a time (CP-SAT's integers carry such bounds of their own).

The sat backend writes a little killer's diagonal so by default (:data:`SUM_BOUNDS`;
:class:`~sudoku_csp.constraints.kinds.littlekiller.LittleKiller`). Arrows keep their tables:
on bounds they took about as many conflicts, more on the generated arrows of few givens
(docs/design.md: Design choices, measured).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from sudoku_csp.constraints.translation import Clause, CnfContext, EncodingOption, templated

__all__ = ["SUM_BOUNDS", "bounds_clauses", "order_clauses"]

SUM_BOUNDS = EncodingOption(
    "sum_bounds", "on", "little killers in CNF: on (the running sum's bounds as order "
    "literals over each cell's value) or off (as line_sums says)", ("on", "off"),
    "sum-bounds switch")
"""Whether the sat backend writes a little killer's sum on bounds (:func:`bounds_clauses`)
or as ``line_sums`` says. ``on`` by measurement: on the five generated little killers of
few givens (examples/kinds_few_givens.txt) CaDiCaL's conflicts to decide uniqueness fell from
69,000 to 26,000 in all (CP-SAT, whose integers carry such bounds, takes 29,000); on the six
published ones of the dev corpus from 3,400 to 2,200."""


def bounds_clauses(ctx: CnfContext, cells: Sequence[int], total: int) -> list[Clause]:
    """The clauses saying that the values (digit + 1) of ``cells`` add up to ``total``,
    written on bounds: per cell, order literals "its value is ``v`` or more" (``v = 2..N``)
    tied to its digits; per prefix of ``i`` cells, a literal "the first ``i`` cells add up
    to ``s`` or more" for each ``s`` the sum can still have there (at least ``total`` less
    ``N`` per cell to come, at most ``total`` less one per cell to come); a prefix at least
    ``a`` and a value at least ``b`` make the next prefix at least ``a + b``, and a prefix
    under ``a`` and a value under ``b`` keep it under ``a + b - 1``. Exact: a filling of the
    cells satisfies them (with the literals it sets) if and only if its values add up to
    ``total``. Unit propagation keeps the running sum's bounds (not each digit's support, as
    an automaton does), and a solver learns clauses about bounds ("A1 is 6 or more") where
    digit literals alone give it one digit at a time.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> bounds_clauses(ctx, (0, 1), 9)    # 4 + 4 at most
    [()]
    >>> bounds_clauses(ctx, (0,), 3)[-2:]   # A1 is 3: not 4 or more, and 3 or more
    [(-67,), (66,)]
    """
    return templated(ctx, cells, ("sum bounds", total), partial(_bounds_over_slots, total))


def order_clauses(digits: int, first: int, n: int) -> list[tuple[int, ...]]:
    """The clauses tying one cell's order literals to its digits, over slots: digit ``d``
    at ``digits + d``, "the value (digit + 1) is ``v`` or more" at ``first + v`` for
    ``v = 2..n`` (``v = 1`` always holds and has no slot). The literals are ordered (``v + 1``
    or more is ``v`` or more), each digit sets them all, and a value ``v`` or more and not
    ``v + 1`` or more is the digit ``v - 1``: with the cell's exactly-one, each filling of
    the digits gives the literals one value, and unit propagation carries the cell's bounds
    to its digits and back.

    >>> order_clauses(1, 3, 3)   # digits at 1..3, "2 or more" at 5, "3 or more" at 6
    [(-6, 5), (-1, -5), (1, 5), (-2, 5), (-2, -6), (2, -5, 6), (-3, 6), (3, -6)]
    """
    clauses: list[tuple[int, ...]] = [(-(first + v + 1), first + v) for v in range(2, n)]
    for d in range(n):
        x, v = digits + d, d + 1
        if v >= 2:
            clauses.append((-x, first + v))
        if v < n:
            clauses.append((-x, -(first + v + 1)))
        clauses.append((x, *((-(first + v),) if v >= 2 else ()),
                        *((first + v + 1,) if v < n else ())))
    return clauses


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
    lows = [max(i, total - n * (length - i)) for i in range(length + 1)]
    highs = [min(n * i, total - (length - i)) for i in range(length + 1)]
    if any(lo > hi for lo, hi in zip(lows, highs, strict=True)):
        return [()]
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
