"""Clues outside the grid, each read along one line of cells from where it stands: what
little killers, sandwich sums, X-sums and skyscrapers share.

A clue stands in the ring of places around the grid (f-puzzles' row or column ``0`` or
``N+1``) and is read from there, one step at a time in its direction, through the cells of
a row, a column or a diagonal to the far edge. A constraint holds those cells in reading
order (``cells``: the first is the cell at the edge beside the clue), the ``direction`` as a
word (``down``, ``up-left``) and the clue's number (``total``); the clue's place is one step
back from the first cell (:func:`clue_place`). Each kind's module says what the number means
(its rule, written twice: as an automaton for the translations and as ``clue_of`` for the
independent check) and how it reads an f-puzzles entry; this module holds their common
shape: validation, the tool's own JSON, the f-puzzles entries of row and column clues,
drawing (the number in the ring, as f-puzzles does), summaries and samples.

The tool's own JSON names a clue by the first cell read and the direction read in:
``{"from": "A3", "direction": "down", "sum": 16}`` is a clue above column 3 (``sum``, or the
kind's own word such as ``visible``). A ``from`` cell whose neighbour back against the
direction is inside the grid is refused: a clue stands outside it.

>>> from sudoku_csp.variants import make_geometry
>>> ray(9, -1, 3, "down-left")             # from above column 4 (f-puzzles R0C4), down-left
(2, 10, 18)
>>> clue_place(9, (2, 10, 18), "down-left"), where(make_geometry(9), (2,), "down-left")
((-1, 3), 'down-left from A3')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from sudoku_csp.canvas import CAGE_COLOUR, Canvas, Layer, text
from sudoku_csp.constraints.automaton import AutomatonRule
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.fields import (
    FieldError,
    checked_together,
    entries,
    parse_cell,
    parse_number,
    parse_outside,
)
from sudoku_csp.constraints.wording import counted
from sudoku_csp.geometry import Geometry, Grid, row_label

__all__ = ["DIAGONAL", "DIRECTIONS", "STRAIGHT", "OutsideClue", "clue_place", "inside",
           "ray", "starts", "where"]

DIRECTIONS: dict[str, tuple[int, int]] = {
    "down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1),
    "down-left": (1, -1), "down-right": (1, 1), "up-left": (-1, -1), "up-right": (-1, 1),
}
"""The directions a clue is read in, as (row, column) steps."""
STRAIGHT = ("down", "up", "right", "left")
"""A clue beside a row or a column reads all of it, away from its side."""
DIAGONAL = ("down-left", "down-right", "up-left", "up-right")
"""A little killer reads a diagonal."""


def inside(n: int, row: int, col: int) -> bool:
    """Whether ``(row, col)`` is a cell of an ``n``×``n`` grid (else a place around it)."""
    return 0 <= row < n and 0 <= col < n


def ray(n: int, row: int, col: int, direction: str) -> tuple[int, ...]:
    """The cells read from the place ``(row, col)`` (0-based; ``-1`` and ``n`` outside the
    grid) in ``direction``, stepping until the far edge; the place itself is not read."""
    dr, dc = DIRECTIONS[direction]
    cells = []
    row, col = row + dr, col + dc
    while inside(n, row, col):
        cells.append(row * n + col)
        row, col = row + dr, col + dc
    return tuple(cells)


def clue_place(n: int, cells: Sequence[int], direction: str) -> tuple[int, int]:
    """Where a clue read along ``cells`` stands: one step back from the first cell."""
    dr, dc = DIRECTIONS[direction]
    row, col = divmod(cells[0], n)
    return row - dr, col - dc


def where(geometry: Geometry, cells: Sequence[int], direction: str,
          name: CellName | None = None) -> str:
    """Words naming a clue's place (``above column 3``, ``right of row B``), or for a
    diagonal its direction and first cell (``down-left from A3``). With ``name`` (how a
    report names cells: ``R1C1``), rows are numbered too (``right of row 2``)."""
    n = geometry.size
    if direction in DIAGONAL:
        return f"{direction} from {at(geometry, cells[:1], name)}"
    row, col = clue_place(n, cells, direction)
    if row == -1:
        return f"above column {col + 1}"
    if row == n:
        return f"below column {col + 1}"
    shown = row_label(row) if name is None else str(row + 1)
    return f"{'left' if col == -1 else 'right'} of row {shown}"


def starts(n: int, directions: Sequence[str]) -> list[tuple[tuple[int, ...], str]]:
    """Every clue of a grid read in one of ``directions``: ``(cells, direction)`` for each
    place outside the grid whose line in that direction meets the grid."""
    found = []
    for direction in directions:
        dr, dc = DIRECTIONS[direction]
        for cell in range(n * n):
            row, col = divmod(cell, n)
            if not inside(n, row - dr, col - dc):
                found.append((ray(n, row - dr, col - dc, direction), direction))
    return found


@lru_cache(maxsize=4096)
def _a_unit(geometry: Geometry, cells: tuple[int, ...]) -> bool:
    """Whether ``cells`` are a unit of ``geometry`` (asked for each clue as its clauses are
    written, and again as they are checked)."""
    if len(cells) != geometry.size:
        return False
    line, units = set(cells), geometry.units
    return any(line == set(units[u].cells) for u in geometry.cell_units[cells[0]])


@dataclass(frozen=True)
class OutsideClue(AutomatonRule):
    """A clue outside the grid, read along ``cells`` (in order, from the edge beside it) in
    ``direction``, with its number ``total``. Subclasses give the rule
    (:meth:`~sudoku_csp.constraints.automaton.AutomatonRule.automaton`, :meth:`clue_of`),
    which numbers can be shown (:meth:`bounds`, :meth:`totals`), and the words and fields
    below."""

    cells: tuple[int, ...]
    direction: str
    total: int

    directions: ClassVar[tuple[str, ...]] = STRAIGHT
    """The directions a clue of the kind is read in."""
    value_key: ClassVar[str] = "sum"
    """The field of the clue's number in the tool's own JSON."""

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def reads_a_unit(self, geometry: Geometry) -> bool:
        """Whether ``cells`` are a unit of ``geometry`` (its digits once each): a row or a
        column of the grids made so far, but a kind leans on it only when it holds."""
        return _a_unit(geometry, self.cells)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        if not self.cells or self.direction not in DIRECTIONS:
            return self.kind
        return f"{self.kind} {self.total} {where(geometry, self.cells, self.direction, name)}"

    # -- the rule, read off values ------------------------------------------------------------
    @classmethod
    def clue_of(cls, values: Sequence[int], n: int) -> int | None:
        """The number a clue of the kind shows for ``values`` (``1..n``, in reading order),
        or ``None`` when the rule gives none (a sandwich without one 1 and one N): what
        :meth:`violations` and :meth:`sample` read, written from the rule alone."""
        raise NotImplementedError

    @classmethod
    def bounds(cls, n: int, length: int) -> tuple[int, int]:
        """The least and greatest number of a clue over ``length`` cells of an ``n``-digit
        grid (not every number between them need be shown: :meth:`totals`)."""
        raise NotImplementedError

    @classmethod
    def totals(cls, n: int, length: int) -> int | None:
        """The numbers some line of ``length`` values shows, as a bit mask (bit ``s``: ``s``
        is shown by some line), when not every number of :meth:`bounds` is; else ``None``
        (the default)."""
        return None

    @classmethod
    def reachable(cls, n: int, length: int, total: int) -> bool:
        """Whether some line of ``length`` values can show ``total``."""
        low, high = cls.bounds(n, length)
        mask = cls.totals(n, length)
        return low <= total <= high and (mask is None or bool(mask >> total & 1))

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        n = geometry.size
        values = [grid[c] + 1 for c in self.cells]
        shown = self.clue_of(values, n)
        if shown == self.total:
            return []
        says = "no clue at all" if shown is None else shown
        return [f"{self.describe(geometry)} does not hold: {geometry.label(self.cells[0])}.."
                f"{geometry.label(self.cells[-1])} read {' '.join(map(str, values))}, which "
                f"gives {says}"]

    # -- validation -----------------------------------------------------------------------
    def validate(self, geometry: Geometry) -> None:
        n = geometry.size
        if self.direction not in self.directions:
            raise ConstraintError(f"a {self.kind} is read {', '.join(self.directions[:-1])} or "
                                  f"{self.directions[-1]}, not {self.direction!r}",
                                  part="direction")
        if not self.cells:
            raise ConstraintError(f"a {self.kind} reads at least one cell", part="cells")
        super().validate(geometry)
        row, col = clue_place(n, self.cells, self.direction)
        first = geometry.label(self.cells[0])
        if inside(n, row, col):
            raise ConstraintError(f"a {self.kind} stands outside the grid: read {self.direction} "
                                  f"from {first}, it would stand on "
                                  f"{geometry.label(row * n + col)}", part="from")
        line = ray(n, row, col, self.direction)
        if self.cells != line:
            raise ConstraintError(f"a {self.kind} read {self.direction} from {first} reads "
                                  f"{first}..{geometry.label(line[-1])} to the edge, not the "
                                  "cells given", part="cells")
        total = self.total
        if not isinstance(total, int) or isinstance(total, bool) or not self.reachable(
                n, len(line), total):
            low, high = self.bounds(n, len(line))
            raise ConstraintError(f"{self.kind} {total!r} {where(geometry, line, self.direction)}"
                                  f" is out of reach: no line of {len(line)} values of a "
                                  f"{n}x{n} grid gives it (those clues lie from {low} to "
                                  f"{high})",
                                  part="total")

    @classmethod
    def joint_validate(cls, geometry: Geometry, constraints: Sequence[Constraint]) -> None:
        """Two clues of a kind cannot stand in one place."""
        seen: set[tuple[tuple[int, int], str]] = set()
        for c in constraints:
            if isinstance(c, OutsideClue):
                key = (clue_place(geometry.size, c.cells, c.direction), c.direction)
                if key in seen:
                    raise ConstraintError(f"two {c.names.plural} "
                                          f"{where(geometry, c.cells, c.direction)}")
                seen.add(key)

    # -- JSON -------------------------------------------------------------------------------
    @classmethod
    def example(cls) -> str:
        direction = cls.directions[0]
        return f'{{"from": "A3", "direction": "{direction}", "{cls.value_key}": 7}}'

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        key = cls.names.json[0]
        value = fields[key]
        if not isinstance(value, list):
            raise FieldError(key, f"expected a list of clues such as [{cls.example()}]")
        names = ("from", "direction", cls.value_key)
        found: list[Constraint] = []
        n = geometry.size
        for i, item in enumerate(value):
            path = f"{key}[{i}]"
            if not isinstance(item, Mapping):
                raise FieldError(path, f"expected an object such as {cls.example()}")
            for name in item:
                if name not in names:
                    raise FieldError(f"{path}.{name}", f"unknown field: a {cls.kind} has "
                                                       f"\"from\", \"direction\" and "
                                                       f"\"{cls.value_key}\"")
            for name in names:
                if name not in item:
                    raise FieldError(f"{path}.{name}", f"missing: expected {cls.example()}")
            first = parse_cell(geometry, item["from"], f"{path}.from")
            direction = item["direction"]
            if direction not in cls.directions:
                raise FieldError(f"{path}.direction",
                                 f"expected one of {', '.join(cls.directions)}, got "
                                 f"{direction!r}")
            total = item[cls.value_key]
            if not isinstance(total, int) or isinstance(total, bool):
                raise FieldError(f"{path}.{cls.value_key}",
                                 f"expected a whole number, got {total!r}")
            dr, dc = DIRECTIONS[direction]
            row, col = divmod(first, n)
            clue = cls(ray(n, row - dr, col - dc, direction) if not inside(
                n, row - dr, col - dc) else (first,), direction, total)
            cls._check(clue, geometry, path, {"total": cls.value_key})
            found.append(clue)
        return checked_together(cls, geometry, found, key)

    @classmethod
    def _check(cls, clue: OutsideClue, geometry: Geometry, path: str,
               parts: Mapping[str, str]) -> None:
        """Validate a clue read from ``path``: a :class:`FieldError` naming the field at
        fault (``parts`` maps a validation part to its field name)."""
        try:
            clue.validate(geometry)
        except ConstraintError as exc:
            part = exc.part or "cells"
            raise FieldError(f"{path}.{parts.get(part, part)}", exc.reason) from None

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {cls.names.json[0]: [{"from": geometry.label(c.cells[0]), "direction": c.direction,
                               cls.value_key: c.total}
                              for c in constraints if isinstance(c, cls)]}

    # -- f-puzzles --------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """Entries ``{"cell": "R0C3", "value": "8"}`` beside a row or column: above (row 0),
        below (row N+1), left (column 0) or right (column N+1), read away from that side.
        An entry without a value (or an empty one) says nothing: it is skipped."""
        key = cls.names.fpuzzles[0]
        found: list[Constraint] = []
        n = geometry.size
        for path, item in entries(document, key):
            value = item.get("value")
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            row, col = parse_outside(geometry, item.get("cell"), f"{path}.cell")
            if row == -1 and 0 <= col < n:
                direction = "down"
            elif row == n and 0 <= col < n:
                direction = "up"
            elif col == -1 and 0 <= row < n:
                direction = "right"
            elif col == n and 0 <= row < n:
                direction = "left"
            else:
                raise FieldError(f"{path}.cell", f"{item.get('cell')!r} is not beside a row or "
                                                 f"a column: expected R0Cc or R{n + 1}Cc "
                                                 f"(above or below column c), RrC0 or "
                                                 f"RrC{n + 1} (left or right of row r)")
            cells = ray(n, row, col, direction)
            low, high = cls.bounds(n, len(cells))
            total = parse_number(value, f"{path}.value", low=low, high=high)
            clue = cls(cells, direction, total)
            cls._check(clue, geometry, path, {"total": "value"})
            found.append(clue)
        return checked_together(cls, geometry, found, key)

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {cls.names.fpuzzles[0]: [cls._fpuzzles_entry(c, geometry) for c in constraints
                                  if isinstance(c, cls)]}

    @classmethod
    def _fpuzzles_entry(cls, clue: OutsideClue, geometry: Geometry) -> dict[str, Any]:
        row, col = clue_place(geometry.size, clue.cells, clue.direction)
        return {"cell": f"R{row + 1}C{col + 1}", "value": str(clue.total)}

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The number in the clue's place outside the grid, as f-puzzles writes it."""
        x, y = canvas.outside_centre(*clue_place(canvas.n, self.cells, self.direction))
        canvas.add(Layer.LABELS, [text(x, y, str(self.total), canvas.outside_size,
                                       self.names.name, CAGE_COLOUR)])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        count = len(constraints)
        return [counted(count, cls.names.noun, cls.names.plural)]

    # -- samples ----------------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three clues of the kind in different places, each read off ``grid``."""
        n = geometry.size
        places = starts(n, cls.directions)
        rng.shuffle(places)
        wanted = rng.randint(1, 3)
        found: list[Constraint] = []
        for cells, direction in places:
            shown = cls.clue_of([grid[c] + 1 for c in cells], n)
            if shown is not None:
                found.append(cls(cells, direction, shown))
                if len(found) == wanted:
                    break
        return found
