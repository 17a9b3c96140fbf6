"""Sums as tables: every filling of a few cells whose last adds up the others (an arrow's
shaft and its circle of one cell), cells that see each other apart if asked, and the
support clauses that hold cells to one row of such a table.

A short shaft under a circle of one value has few fillings (three cells: at most 84), so
its table is small, and a solver propagating a table keeps exactly the digits some filling
still allowed gives (generalised arc consistency): CNF by support clauses, CP-SAT by
``add_allowed_assignments``. Read with the cells that see each other apart (a row, a box),
it holds what the sum and the units say together, which a sum read value by value misses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sudoku_csp.constraints.translation import Clause, CnfContext
from sudoku_csp.geometry import Geometry

__all__ = ["TABLE_MOST", "sum_table", "table_clauses"]

TABLE_MOST = 3000
"""The most rows a table (:func:`sum_table`) may have for a kind to take it (0: never); a
longer one is written as before (an arrow: its automaton, its linear sum)."""


def sum_table(geometry: Geometry, cells: tuple[int, ...], apart: bool = True
                ) -> tuple[tuple[int, ...], ...] | None:
    """Every way to fill ``cells`` (an arrow's shaft, then its circle of one cell) with
    values whose shaft adds up to the circle, and with ``apart`` where cells that see each
    other differ, as tuples of digits (value - 1); ``None`` when there are more than
    :data:`TABLE_MOST`.

    >>> from sudoku_csp.variants import make_geometry
    >>> table = sum_table(make_geometry(9), (1, 2, 0))   # A2 + A3 = A1, all in row A
    >>> len(table), table[:2]    # 1 + 2 = 3, 1 + 3 = 4, ...: 32 ways, no digit twice
    (32, ((0, 1, 2), (0, 2, 3)))
    """
    peers = tuple(tuple(j for j in range(i) if apart and geometry.are_peers(cells[i], cells[j]))
                  for i in range(len(cells)))
    return _table(geometry.size, peers, TABLE_MOST)


@lru_cache(maxsize=512)
def _table(n: int, peers: tuple[tuple[int, ...], ...], most: int
           ) -> tuple[tuple[int, ...], ...] | None:
    """:func:`sum_table` for ``n`` values, ``peers[i]``: the earlier places cell ``i``
    sees; the last place is the circle."""
    shaft = len(peers) - 1
    found: list[tuple[int, ...]] = []
    row: list[int] = []

    def place(i: int, total: int) -> bool:
        if i == shaft:
            d = total - 1
            if d < n and all(row[j] != d for j in peers[i]):
                found.append((*row, d))
            return len(found) <= most
        for d in range(n):
            if total + d + 1 + (shaft - i - 1) > n:
                break  # the rest of the shaft adds at least one each
            if any(row[j] == d for j in peers[i]):
                continue
            row.append(d)
            ok = place(i + 1, total + d + 1)
            row.pop()
            if not ok:
                return False
        return True

    if not place(0, 0):
        return None
    return tuple(found)


def table_clauses(ctx: CnfContext, cells: tuple[int, ...], table: Sequence[tuple[int, ...]]
                  ) -> list[Clause]:
    """The support encoding of "``cells`` take the digits of one row of ``table``": a
    selector per row, at least one, each fixing its digits; a digit of a cell needs a row
    with it there (none: the digit is out). Unit propagation keeps exactly the digits some
    row still allowed gives (generalised arc consistency on the table)."""
    x = ctx.x
    chosen = [ctx.new_var() for _ in table]
    clauses: list[Clause] = [tuple(chosen)]
    rows: list[dict[int, list[int]]] = [{} for _ in cells]
    for s, row in zip(chosen, table, strict=True):
        for i, d in enumerate(row):
            clauses.append((-s, x(cells[i], d)))
            rows[i].setdefault(d, []).append(s)
    for i, cell in enumerate(cells):
        for d in range(ctx.geometry.size):
            clauses.append((-x(cell, d), *rows[i].get(d, ())))
    return clauses
