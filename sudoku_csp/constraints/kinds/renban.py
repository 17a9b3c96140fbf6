"""Renban lines: the cells of the line hold different values that form a run of consecutive
values, in any order (a line of 4 cells: 3, 5, 2, 4).

A line holds at most N cells (N different values) and passes no cell twice.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): every two cells of the line
hold different values at most ``L - 1`` apart (``L`` cells). That is exact: ``L`` different
values whose greatest and least are at most ``L - 1`` apart are exactly a run of ``L``
consecutive values. Arc consistency natively, support or conflict clauses, tables in CP-SAT.
Natively also what pairs cannot see: the run is one of the windows of ``L`` consecutive
values that every cell can reach and the cells' candidates cover, so each cell keeps only
values of such windows, and a value of every such window (the line surely holds it) that
only one cell can hold is that cell's; and, joined with the grid's units
(:meth:`Renban.joint_native`), such a value whose places on the line all lie in one unit
leaves that unit's other cells. On "159" (zetamath: sixteen renbans and three dots, no
givens) the native search took 26,000 nodes with pairs alone, 10,000 with the windows and
165 (0.1 s) with the units too.
Drawn as f-puzzles does: a thick pink-purple line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import ClassVar

from sudoku_csp.constraints.base import Constraint
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import LinePairs
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.constraints.translation import Link
from sudoku_csp.constraints.wording import digit_list, digits_of
from sudoku_csp.geometry import Geometry


@lru_cache(maxsize=32)
def _within(length: int) -> Relation:
    """Two different values of a run of ``length`` consecutive values."""
    spread = length - 1
    return Relation(f"renban of {length}", lambda x, y: x != y and abs(x - y) <= spread,
                    f"{{a}} and {{b}} differ, by at most {spread}")


def _fits(n: int, masks: Sequence[int]) -> list[int]:
    """The windows of ``len(masks)`` consecutive digits (of ``n``) the line can fill: every
    cell can reach one of its digits and the cells' candidates cover it."""
    length = len(masks)
    union = 0
    for m in masks:
        union |= m
    return [w for w in ((1 << length) - 1 << s for s in range(n - length + 1))
            if union & w == w and all(m & w for m in masks)]


@lru_cache(maxsize=1 << 14)
def _runs(n: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Each cell's digits that lie in a window the line can fill (:func:`_fits`); a digit of
    every such window (the line holds it) that only one cell can hold placed there. Kept
    per masks: the explainer's trials ask the same lines the same again and again."""
    fits = _fits(n, masks)
    if not fits:
        return None
    keep, required = 0, -1
    for w in fits:
        keep |= w
        required &= w
    out = [m & keep for m in masks]
    placed = 0  # the cells given a required digit here
    while required:
        bit = required & -required
        required ^= bit
        holders = [i for i, m in enumerate(out) if m & bit]
        if not holders:  # the cells placed so far took its places
            return None
        if len(holders) == 1:
            i = holders[0]
            if placed >> i & 1:  # the only place of two digits
                return None
            placed |= 1 << i
            out[i] = bit
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _held(n: int, line: tuple[int, ...]) -> int | None:
    """The digits of every window the line can fill (:func:`_fits`), None when none fits:
    kept per masks, as :func:`_runs` is."""
    fits = _fits(n, line)
    if not fits:
        return None
    required = -1
    for w in fits:
        required &= w
    return required


def _pointing(n: int, length: int, units: tuple[tuple[int, tuple[int, ...]], ...],
              masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A digit the line surely holds (one of every window it can fill), whose cells on the
    line all lie in one unit, leaves the unit's other cells. ``masks``: the line's cells,
    then the other cells of ``units``, each given as (its line cells as a bit mask, the
    positions of its other cells in ``masks``)."""
    line = masks[:length]
    required = _held(n, line)
    if required is None:
        return None
    out = list(masks)
    while required:
        bit = required & -required
        required ^= bit
        holders = 0
        for i, m in enumerate(line):
            if m & bit:
                holders |= 1 << i
        for on_line, others in units:
            if holders and holders & ~on_line == 0:
                for j in others:
                    out[j] &= ~bit
                    if not out[j]:
                        return None
    return tuple(out)


@dataclass(frozen=True)
class Renban(LinePairs):
    """A renban line: ``cells`` hold a set of consecutive values, in any order.

    >>> from sudoku_csp.variants import make_geometry
    >>> Renban((0, 1, 2)).violations(make_geometry(4), [0, 3, 1] + [0] * 13)
    ['renban line at A1 holds 1, 4, 2: not a run of consecutive values']
    """

    cells: tuple[int, ...]

    names = Names("renban", json=("renbans",), fpuzzles=("renban",), noun="renban line")
    colour: ClassVar[str] = "#f067f0"
    width: ClassVar[float] = 0.25
    prefix_closed: ClassVar[bool] = False

    @classmethod
    def longest(cls, n: int) -> int | None:
        return n

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        rel = _within(len(self.cells))
        cells = self.cells
        return [(cells[i], cells[j], rel)
                for i in range(len(cells)) for j in range(i + 1, len(cells))]

    def native(self, geometry: Geometry) -> list[Link]:
        return [*super().native(geometry), Link(self.cells, partial(_runs, geometry.size))]

    combines: ClassVar[bool] = True

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Two cells' spread (the pair rule), or the runs the line can still be: ``its 4
        digits are a run of 4: 3..6 or 4..7, each holding 4/5/6``."""
        if len(link.cells) == 2:
            return super().why_link(geometry, candidates, link, gone)
        length = len(self.cells)
        fits = _fits(geometry.size, [candidates[c] for c in self.cells])
        runs = " or ".join(f"{w.bit_length() - length + 1}..{w.bit_length()}" for w in fits)
        required = -1
        for w in fits:
            required &= w
        held = (f", each holding {digit_list(geometry, digits_of(required))}"
                if fits and required else "")
        return f"its {length} digits are a run of {length}: {runs or 'none fits'}{held}"

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Per renban, with the units: a digit the line surely holds, all of whose places on
        the line lie in one unit, is not elsewhere in that unit (:func:`_pointing`)."""
        links = []
        for c in constraints:
            if not isinstance(c, Renban):
                continue
            cells = list(c.cells)
            position = {cell: i for i, cell in enumerate(cells)}
            units = []
            for unit in geometry.units:
                on_line = sum(1 << position[x] for x in unit.cells if x in position)
                if not on_line:
                    continue
                others = []
                for x in unit.cells:
                    if x not in position:
                        position[x] = len(cells)
                        cells.append(x)
                    if position[x] >= len(c.cells):
                        others.append(position[x])
                units.append((on_line, tuple(others)))
            links.append(Link(tuple(cells), partial(_pointing, geometry.size, len(c.cells),
                                                    tuple(units)),
                              f"{c.describe(geometry)}: a digit every run it can be holds, "
                              "all of whose places on the line lie in one unit, leaves the "
                              "rest of that unit"))
        return links

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        values = [grid[c] + 1 for c in self.cells]
        low = min(values)
        if sorted(values) == list(range(low, low + len(values))):
            return []
        shown = ", ".join(map(str, values))
        return [f"{self.describe(geometry)} holds {shown}: not a run of consecutive values"]
