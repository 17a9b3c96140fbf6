"""Pairs of cells that add up to one shared total, in CNF: a zipper line's pairs (and its
centre), a short double arrow's ends and the cells between.

A literal per total the pairs may share, "the pairs add up to v" (or a cell's digit when a
cell holds the total: an odd zipper's centre, a three-cell double arrow's middle); per pair,
a total and one cell's digit call for the other cell's (or rule that digit out), a total
calls for one of the digits that can make it in each cell, and two digits call for their
sum (or rule each other out). Exact: each pair calls for the total its
digits make, and any other total refutes the pair, so one total holds for all. Unit
propagation follows the total both ways, and the solver learns about totals ("not 10")
where an automaton over the cells' values has a state per total and pending value.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_csp.constraints.translation import Clause, CnfContext

__all__ = ["pair_total_clauses"]


def pair_total_clauses(ctx: CnfContext, pairs: Sequence[tuple[int, int]],
                       centre: int | None = None) -> list[Clause]:
    """The clauses saying that each of ``pairs`` (two cells each) adds up to one total:
    the value of ``centre`` when given (which is then not 1), else a total of its own among
    ``2..2N`` (fresh literals from ``ctx``).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> clauses = pair_total_clauses(ctx, [(0, 1)], centre=2)   # A1 + A2 = A3
    >>> clauses[0]                # A3 is not 1
    (-9,)
    >>> (-10, -1, 5) in clauses, (-1, -5, 10) in clauses, (-4, -8) in clauses
    (True, True, True)

    (A3 is 2 and A1 is 1: A2 is 1; A1 and A2 are 1: A3 is 2; A1 and A2 are not both 4.)
    """
    n, x = ctx.geometry.size, ctx.x
    if centre is not None:
        total = {v: x(centre, v - 1) for v in range(2, n + 1)}
        clauses: list[Clause] = [(-x(centre, 0),)]
    else:
        total = dict(zip(range(2, 2 * n + 1), ctx.new_vars(2 * n - 1), strict=True))
        clauses = []
    for a, b in pairs:
        for v, literal in total.items():
            for d in range(n):
                e = v - d - 2
                for one, other in ((a, b), (b, a)):
                    clauses.append((-literal, -x(one, d), x(other, e)) if 0 <= e < n
                                   else (-literal, -x(one, d)))
            # Each cell holds a digit that a digit of the other completes to the total: a
            # total that none of a cell's digits left can be part of is refuted by unit
            # propagation (conflicts 18 % fewer on zippers, 16 % on double arrows; each
            # way's two digits as an auxiliary, fewer still but slower: docs/design.md).
            fits = [d for d in range(n) if 0 <= v - d - 2 < n]
            clauses += [(-literal, *(x(one, d) for d in fits)) for one in (a, b)]
        for d in range(n):
            for e in range(n):
                called = total.get(d + e + 2)
                clauses.append((-x(a, d), -x(b, e), called) if called
                               else (-x(a, d), -x(b, e)))
    return clauses
