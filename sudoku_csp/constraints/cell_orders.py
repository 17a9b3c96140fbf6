"""A cell's order literals: "its value (digit + 1) is ``v`` or more" for ``v = 2..N``, tied
to its digits (:func:`order_clauses`), on which the CNF of monotone lines
(:mod:`~sudoku_csp.constraints.order_lines`) and of sums on bounds
(:mod:`~sudoku_csp.constraints.sum_bounds`) is written, so that a SAT solver learns clauses
about bounds. The grid alone defines them: with :data:`CELL_ORDERS` ``shared`` each cell's
are a :class:`~sudoku_csp.constraints.translation.Definition`
(:func:`order_definitions`), written once for every line through the cell and held by an
incremental solver for every puzzle after, as a sandwich's line is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sudoku_csp.constraints.translation import Clause, CnfContext, Definition, EncodingOption

__all__ = ["CELL_ORDERS", "order_clauses", "order_definitions"]

CELL_ORDERS = EncodingOption(
    "cell_orders", "shared", "a cell's order literals under thermometers, slow thermometers "
    "and between lines in CNF: shared (defined once per cell, read by every line through "
    "it; a solver asked about many puzzles holds them for all) or own (each line its own)",
    ("shared", "own"), "cell-order layout", unrecorded="own")
"""Whether the order literals of a monotone line's cells
(:func:`~sudoku_csp.constraints.order_lines.line_orders`) are each cell's own
:class:`~sudoku_csp.constraints.translation.Definition` (``shared``), or the line's (``own``,
as before the option existed). Little killers keep their own (``bounds_ends=segments``): with
their cells' literals shared they took more time and conflicts (docs/design.md, "A cell's
order literals shared")."""


def _cell_order(slots: CnfContext, cells: tuple[int, ...]) -> Iterable[Clause]:
    """A cell's order literals, "``v`` or more" for ``v = 2..N`` in order, over the slots of
    a definition's template (:func:`order_definitions`)."""
    first = slots.new_vars(slots.geometry.size - 1)[0] - 2
    return order_clauses(slots.x(cells[0], 0), first, slots.geometry.size)


def order_definitions(ctx: CnfContext, cells: Sequence[int]) -> tuple[Definition, ...]:
    """The definitions of ``cells``' order literals that a rule written on them reads
    under ``ctx``'s options (:data:`CELL_ORDERS`): one per cell, "its value is ``v`` or
    more" for ``v = 2..N`` in order (:func:`order_clauses`); none when each rule has its
    own.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> found = order_definitions(ctx, (5, 1))
    >>> aux, clauses = ctx.defined(found[1])   # B1 is 2+, 3+, 4+: 65, 66, 67
    >>> [d.cells for d in found], aux, clauses[:4]
    ([(5,), (1,)], (65, 66, 67), [(-66, 65), (-67, 66), (-5, -65), (5, 65)])
    """
    if ctx.option(CELL_ORDERS) != "shared":
        return ()
    return tuple(Definition(("cell order",), (cell,), _cell_order) for cell in cells)


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
