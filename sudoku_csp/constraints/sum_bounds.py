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
from functools import lru_cache

from sudoku_csp.constraints.translation import (
    Clause,
    ClauseTemplate,
    CnfContext,
    EncodingOption,
    compile_clauses,
)

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
    n = ctx.geometry.size
    template, extra = _bounds_template(len(cells), total, n)
    if template is None:
        return [()]
    return ctx.fill(template, [*ctx.cell_vars(cells), *ctx.new_vars(extra)])


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


@lru_cache(maxsize=512)
def _bounds_template(length: int, total: int, n: int) -> tuple[ClauseTemplate | None, int]:
    """:func:`bounds_clauses`' clauses over slots: cell ``i``'s digit ``d`` at
    ``i * n + d + 1``, then its "value ≥ v" at ``length * n + i * (n - 1) + v - 1``, then
    the prefixes' literals; with how many slots follow the digits. ``None`` when no filling
    reaches ``total``. Of the clauses a prefix and a value make, only those whose
    conclusion is no constant, and the first that meets one, are written: the order of the
    values' literals gives the others by propagation."""
    lows = [max(i, total - n * (length - i)) for i in range(length + 1)]
    highs = [min(n * i, total - (length - i)) for i in range(length + 1)]
    if any(lo > hi for lo, hi in zip(lows, highs, strict=True)):
        return None, 0
    top = length * n + length * (n - 1)
    prefix: list[dict[int, int]] = []  # per prefix: s -> its slot, for lows < s <= highs
    for lo, hi in zip(lows, highs, strict=True):
        prefix.append({s: top + k + 1 for k, s in enumerate(range(lo + 1, hi + 1))})
        top += hi - lo
    clauses: list[tuple[int, ...]] = []
    for i in range(length):
        first = length * n + i * (n - 1) - 1  # first + v: "cell i's value is v or more"
        clauses += order_clauses(i * n + 1, first, n)
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
    return compile_clauses(clauses), top - length * n
