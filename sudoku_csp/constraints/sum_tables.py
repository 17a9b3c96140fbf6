"""Sums as tables: every filling of a few cells where each of some runs of them (an
arrow's shafts) adds up to the last cell (its circle of one cell), cells that see each
other apart if asked; the support clauses that hold cells to one row of such a table; and
the native narrowing by its rows.

A short shaft under a circle of one value has few fillings (three cells: at most 84), so
its table is small, and a solver propagating a table keeps exactly the digits some filling
still allowed gives (generalised arc consistency): CNF by support clauses, CP-SAT by
``add_allowed_assignments``, natively by :class:`TableNarrow`. Read with the cells that see
each other apart (a row, a box), it holds what the sum and the units say together, which a
sum read value by value misses; read over every shaft of one circle, what the shafts say
together (two shafts in one box hold different digits).

Arrows (:mod:`sudoku_csp.constraints.kinds.arrow`) measured, one run each on a busy
machine, five generated arrow puzzles of few givens and eight published ones: sat median
110-160 -> 56-71 ms and 28 -> 23 ms with the tables (conflicts on the five 9,940 with the
automaton, 3,578 with the rule's table, 2,988 adding those with cells apart); CP-SAT p90
145-192 -> 64-99 ms with the tables beside the linear sum; over every shaft of one circle,
the native search 4,846 -> 2,680 nodes and sat's conflicts about 15% fewer. Best of five
rounds later, on a quieter machine, sat's median on the five: 31 ms on main, 16 with both
tables, 14 with the rule's alone (sum 160, 120, 97 ms; on seven published arrow puzzles
51, 29, 23 ms): so sat takes the rule's table only (``Arrow.joint_cnf`` switched off).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from sudoku_csp.constraints.group_sums import exclusion_groups
from sudoku_csp.constraints.translation import (
    Clause,
    ClauseTemplate,
    CnfContext,
    EncodingOption,
    Guarded,
    compile_clauses,
    templated,
    with_guard,
)
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.constraints.line_kinds import Reading
    from sudoku_csp.modeling.cpsat_model import CpSatModel

__all__ = ["APART", "ARROW_ROWS", "PILL_TABLE", "SET_RUN", "TABLE_MOST", "Table", "TableNarrow",
           "accepted_clauses", "add_table", "reading_clauses", "shaft_tables", "sum_runs",
           "sum_table", "table_clauses"]

TABLE_MOST = 3000
"""The most rows a table (:func:`sum_table`) may have for a kind to take it (0: never); a
longer one is written as before (an arrow: its automaton, its linear sum)."""

Table = tuple[tuple[int, ...], ...]

APART = True
"""Whether CNF's table of an arrow's shaft and circle (:func:`reading_clauses`) leaves out
the fillings where cells that see each other hold one value (the grid's formula, loaded
with it, forbids them) rather than holding every filling of the sum. Conflicts to decide
uniqueness (fresh mode) on the eight published arrow puzzles of the dev corpus 2,902 ->
1,703, on twenty-five generated of few givens 19,641 -> 17,435, in a tenth fewer clauses
(docs/design.md: Design choices, measured)."""
PILL_TABLE = True
"""Whether CNF gets a pill's shaft and circle as the table of the readings its automaton
accepts, cells that see each other apart (:meth:`~sudoku_csp.constraints.automaton.
Automaton.table`, up to :data:`TABLE_MOST` rows), rather than as the automaton's clauses:
on twenty generated arrow puzzles of few givens (25 pills among 256 arrows) 14,392 -> 7,373
conflicts in 55,000 -> 71,900 clauses (docs/design.md)."""


ARROW_ROWS = EncodingOption(
    "arrow_rows", "cells", "arrows in CNF: cells (a selector per filling of a shaft and its "
    "circle) or sets (a selector per choice of digit set for each run of shaft cells that "
    "see each other)", ("cells", "sets"), "arrow-table rows")
"""How the sat backend writes an arrow's table (:func:`reading_clauses`): a selector per
row, or per row read up to the order of the digits inside each run of shaft cells that see
each other (:func:`exclusion_groups`), whose cells the grid's formula keeps apart.
``cells`` by measurement: ``sets`` takes a tenth to a quarter of the clauses away and about
as many conflicts, not a clear gain in time (docs/design.md)."""

SET_RUN = 3
"""The fewest cells of a run that ``arrow_rows=sets`` reads as a set: with runs of two as
well, conflicts summed over MiniSat, Glucose 4 and CaDiCaL 1.5.3 (fresh mode, counting to
two) on 30 generated arrow puzzles rose 84,300 -> 93,500 and on the eight published ones
5,000 -> 5,500 (docs/design.md)."""


def sum_table(geometry: Geometry, cells: tuple[int, ...], apart: bool = True,
              lengths: tuple[int, ...] | None = None) -> Table | None:
    """Every way to fill ``cells`` (an arrow's shafts one after another, ``lengths`` cells
    each, by default one shaft; then its circle of one cell) with values where each shaft
    adds up to the circle, and with ``apart`` where cells that see each other differ, as
    tuples of digits (value - 1); ``None`` when there are more than :data:`TABLE_MOST`.

    >>> from sudoku_csp.variants import make_geometry
    >>> table = sum_table(make_geometry(9), (1, 2, 0))   # A2 + A3 = A1, all in row A
    >>> len(table), table[:2]    # 1 + 2 = 3, 1 + 3 = 4, ...: 32 ways, no digit twice
    (32, ((0, 1, 2), (0, 2, 3)))
    >>> len(sum_table(make_geometry(9), (1, 2, 3, 0), lengths=(2, 1)))  # and A4 = A1 too
    0
    """
    peers = geometry.seen_before(cells) if apart else ((),) * len(cells)
    return _table(geometry.size, peers, lengths or (len(cells) - 1,), TABLE_MOST)


@lru_cache(maxsize=512)
def _table(n: int, peers: tuple[tuple[int, ...], ...], lengths: tuple[int, ...], most: int
           ) -> Table | None:
    """:func:`sum_table` for ``n`` values, ``peers[i]``: the earlier places cell ``i``
    sees; the last place is the circle."""
    shaft_of = [s for s, length in enumerate(lengths) for _ in range(length)]
    left = [length - k - 1 for length in lengths for k in range(length)]  # after this cell
    circle = len(shaft_of)
    found: list[tuple[int, ...]] = []
    row: list[int] = []
    totals = [0] * len(lengths)

    def place(i: int) -> bool:
        if i == circle:
            d = totals[0] - 1
            if all(t == totals[0] for t in totals) and d < n and all(
                    row[j] != d for j in peers[i]):
                found.append((*row, d))
            return len(found) <= most
        s = shaft_of[i]
        for d in range(n):
            if totals[s] + d + 1 + left[i] > n:
                break  # the rest of the shaft adds at least one each, the circle at most n
            if any(row[j] == d for j in peers[i]):
                continue
            row.append(d)
            totals[s] += d + 1
            ok = place(i + 1)
            totals[s] -= d + 1
            row.pop()
            if not ok:
                return False
        return True

    if not place(0):
        return None
    return tuple(found)


def shaft_tables(geometry: Geometry, shafts: Sequence[tuple[int, ...]],
                 circle: tuple[int, ...]) -> list[tuple[tuple[int, ...], Table]]:
    """For an arrow with a ``circle`` of one cell, its tables with cells that see each
    other apart (:func:`sum_table`, when not too long), each with its cells (shafts, then
    the circle): one over every shaft when there are several, apart from each other, some
    two of whose cells see each other; else one per shaft with such cells. None for a
    pill. On five generated arrow puzzles of few givens, the table over every shaft took
    the native search from 4,846 nodes to 2,680 and sat's conflicts down by about 15%."""
    if len(circle) != 1:
        return []
    whole = (*(c for shaft in shafts for c in shaft), *circle)
    if len(shafts) > 1 and len(set(whole)) == len(whole) and _sees(geometry, whole):
        table = sum_table(geometry, whole, lengths=tuple(map(len, shafts)))
        if table is not None:
            return [(whole, table)]
    found = []
    for shaft in shafts:
        cells = (*shaft, *circle)
        table = sum_table(geometry, cells)
        if table is not None and _sees(geometry, cells):
            found.append((cells, table))
    return found


def _sees(geometry: Geometry, cells: Sequence[int]) -> bool:
    """Whether some two of ``cells`` see each other."""
    return any(geometry.are_peers(a, b) for i, a in enumerate(cells) for b in cells[:i])


class TableNarrow:
    """The native narrowing of "the cells take one row of ``table``": each cell keeps the
    digits of the rows its candidates still allow (generalised arc consistency; ``None``
    when no row is left). Memoised per candidates.

    >>> TableNarrow(((0, 1), (1, 0))).narrow((0b11, 0b01))
    (2, 1)
    """

    __slots__ = ("table", "_memo")

    def __init__(self, table: Table) -> None:
        self.table = table
        self._memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        memo = self._memo
        if masks in memo:
            return memo[masks]
        if len(memo) >= 50_000:
            memo.clear()
        out = [0] * len(masks)
        for row in self.table:
            for m, d in zip(masks, row, strict=True):
                if not m >> d & 1:
                    break
            else:
                for i, d in enumerate(row):
                    out[i] |= 1 << d
        found = tuple(out) if out and out[0] else None
        memo[masks] = found
        return found


def add_table(model: CpSatModel, cells: tuple[int, ...], table: Table) -> None:
    """On CP-SAT's integer model, "``cells`` take one row of ``table``" as
    ``add_allowed_assignments`` over their values (digit + 1)."""
    model.model.add_allowed_assignments([model.value(c) for c in cells],
                                        [tuple(d + 1 for d in row) for row in table])


def table_clauses(ctx: CnfContext, cells: tuple[int, ...], table: Table,
                  runs: tuple[tuple[int, ...], ...] | None = None) -> list[Clause]:
    """The support encoding of "``cells`` take the digits of one row of ``table``": a
    selector per row, at least one, each fixing its digits; a digit of a cell needs a row
    with it there (none: the digit is out). Unit propagation keeps exactly the digits some
    row still allowed gives (generalised arc consistency on the table). Built once per
    table and grid size as a template (:func:`_table_template`), filled with ``ctx``'s guard
    (:meth:`~sudoku_csp.constraints.translation.CnfContext.fill`).

    With ``runs`` (places of ``cells`` in groups that cover them, each group's cells seeing
    each other, so that the grid's formula holds them apart), a selector per row read up to
    the order inside each group: each cell of a group holds a digit of the group's set and
    each digit of the set is on one of its cells. Exact with the grid's formula, which
    makes a group's cells hold its set; unit propagation no longer keeps exactly what the
    rows allow."""
    if not table:
        return with_guard([()], ctx.guard)  # no filling at all
    n = ctx.geometry.size
    groups = runs if runs is not None else tuple((i,) for i in range(len(cells)))
    template, aux = _table_template(table, groups, n)
    return ctx.fill(template, [*ctx.cell_vars(cells), *ctx.new_vars(aux)])


def reading_clauses(ctx: CnfContext, readings: Sequence[tuple[tuple[int, ...], Reading]],
                    circle: int, rule_table: bool = True) -> list[Clause]:
    """An arrow's shafts, each with its circle of ``circle`` cells (``readings``: the cells
    in reading order, the shaft's first, and how they are read), in CNF with ``ctx``'s
    guard: each one's table (:func:`sum_table`, cells apart as :data:`APART` says; a pill's
    from its automaton, :data:`PILL_TABLE`, :func:`accepted_clauses`; with ``rule_table``
    false, a circle of one cell gets none) as support clauses (with ``arrow_rows=sets`` on
    the digit sets of the shaft's runs of cells that see each other), else its automaton's
    clauses (one template per reading)."""
    geometry = ctx.geometry
    one = circle == 1
    sets = ctx.option(ARROW_ROWS) == "sets"
    clauses: list[Clause] = Guarded() if ctx.guard else []
    for cells, reading in readings:
        runs = sum_runs(geometry, cells, (0, len(cells) - circle)) if sets else None
        table = sum_table(geometry, cells, apart=APART) if rule_table and one else None
        if table is not None:
            clauses += table_clauses(ctx, cells, table, runs)
        elif PILL_TABLE and not one:
            clauses += accepted_clauses(ctx, cells, reading, runs)
        else:
            clauses += accepted_clauses(ctx, cells, reading, table=False)
    return clauses


def accepted_clauses(ctx: CnfContext, cells: tuple[int, ...], reading: Reading,
                     runs: tuple[tuple[int, ...], ...] | None = None, table: bool = True
                     ) -> list[Clause]:
    """The readings of ``cells`` that ``reading``'s automaton accepts, cells that see each
    other apart (:meth:`~sudoku_csp.constraints.automaton.Automaton.table`, up to
    :data:`TABLE_MOST` rows), as a table's support clauses (:func:`table_clauses`, by
    ``runs`` when given); else (or without ``table``) the automaton's clauses, one template
    per reading and length."""
    geometry = ctx.geometry
    automaton = reading.automaton(len(cells), geometry.size)
    rows = automaton.table(geometry.seen_before(cells), TABLE_MOST) if table else None
    if rows is None:
        return templated(ctx, cells, ("automaton", reading.key), automaton.clauses)
    return table_clauses(ctx, cells, rows, runs)


def sum_runs(geometry: Geometry, cells: tuple[int, ...], *summed: tuple[int, int],
             least: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The places of ``cells`` cut into groups for :func:`table_clauses`: those of each
    range of ``summed`` (places whose values are only added up, in any order: an arrow's
    shaft) by runs of cells that see each other (:func:`exclusion_groups`) of at least
    ``least`` cells (by default :data:`SET_RUN`), every other place alone; in order.

    >>> from sudoku_csp.variants import make_geometry
    >>> sum_runs(make_geometry(9), (1, 2, 3, 40, 0), (0, 4))   # A2 A3 A4 in row A, E5
    ((0, 1, 2), (3,), (4,))
    """
    least = SET_RUN if least is None else least
    groups: list[tuple[int, ...]] = []
    done = 0
    for start, stop in summed:
        groups += ((i,) for i in range(done, start))
        place = {cell: i for i, cell in enumerate(cells[start:stop], start)}
        groups += (tuple(place[c] for c in group)
                   for run in exclusion_groups(geometry, cells[start:stop])
                   for group in ((run,) if len(run) >= least else ((c,) for c in run)))
        done = stop
    groups += ((i,) for i in range(done, len(cells)))
    return tuple(groups)


@lru_cache(maxsize=512)
def _table_template(table: Table, groups: tuple[tuple[int, ...], ...], n: int
                    ) -> tuple[ClauseTemplate, int]:
    """:func:`table_clauses` over slots (cell ``i``'s digit ``d``: slot ``i·n + d + 1``,
    then a selector per row's digit sets over ``groups``), and the number of selectors."""
    count = sum(map(len, groups))
    keys = list(dict.fromkeys(tuple(sum(1 << row[i] for i in group) for group in groups)
                              for row in table))
    top = count * n
    chosen = list(range(top + 1, top + 1 + len(keys)))
    clauses: list[Clause] = [tuple(chosen)]
    supports: list[dict[int, list[int]]] = [{} for _ in range(count)]
    for s, key in zip(chosen, keys, strict=True):
        for group, mask in zip(groups, key, strict=True):
            digits = [d for d in range(n) if mask >> d & 1]
            for i in group:
                clauses.append((-s, *(i * n + d + 1 for d in digits)))
                for d in digits:
                    supports[i].setdefault(d, []).append(s)
            if len(group) > 1:
                clauses += [(-s, *(i * n + d + 1 for i in group)) for d in digits]
    for i in range(count):
        for d in range(n):
            clauses.append((-(i * n + d + 1), *supports[i].get(d, ())))
    return compile_clauses(clauses), len(chosen)
