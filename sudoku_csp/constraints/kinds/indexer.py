"""Indexer cells: a cell's value says where in its column, row or box its own row, column or
box position stands (the "1-5-9" rule and its kin).

Each sort has f-puzzles' and Rangsk's solver's meaning:

- *row* indexer (f-puzzles ``rowindexer``): a cell in row ``r`` holding ``v`` says where
  ``r`` stands in its column: the cell of row ``v`` of the same column holds ``r``;
- *column* indexer (``columnindexer``): a cell in column ``c`` holding ``v``: the cell of
  column ``v`` of the same row holds ``c`` (the 1-5-9 rule: columns 1, 5 and 9 are column
  indexers);
- *box* indexer (``boxindexer``): a cell at position ``p`` of its box (1 to N in reading
  order) holding ``v``: the cell at position ``v`` of that box holds ``p``; the boxes are the
  geometry's (a jigsaw's regions, cells in reading order, as Rangsk's solver reads them).

Rows, columns and positions count from 1. A cell that indexes itself (``v`` its own row, column
or position) needs nothing more.

Translations: a :class:`~sudoku_csp.constraints.pairs.PairRules` kind: for each indexer
cell and each value ``v`` it may hold, one relation with the cell ``v`` points to, "not
``v`` here, or the index there" (``indexer 3->5``): arc consistency natively, conflict
clauses in CNF (``N - 1`` per relation), forbidden pairs in CP-SAT.

Drawn as shaded cells with a small R, C or B in the corner.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sudoku_csp.canvas import CAGE_COLOUR, SHAPE_FILL, Canvas, Layer, text
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.fields import (
    FieldError,
    checked,
    entries,
    labels,
    parse_cells,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import PairRules, Relation
from sudoku_csp.geometry import Geometry, Grid

SORTS = ("row", "column", "box")
FPUZZLES_KEYS = {"row": "rowindexer", "column": "columnindexer", "box": "boxindexer"}


@cache
def _points(v: int, index: int) -> Relation:
    """The first cell holding ``v`` means the second holds ``index``."""
    return Relation(f"indexer {v}->{index}", lambda x, y: x != v or y == index,
                    f"{{a}} holding {v} puts {index} in {{b}}")


def _boxes(geometry: Geometry) -> dict[int, list[int]]:
    """The cells of each box (or jigsaw region) of the geometry, in reading order."""
    found: dict[int, list[int]] = {}
    for cell, box in enumerate(geometry.boxes):
        found.setdefault(box, []).append(cell)
    return found


@dataclass(frozen=True)
class Indexer(PairRules):
    """Indexer ``cells`` (sorted) of one ``sort``: ``row``, ``column`` or ``box``.

    >>> from sudoku_csp.variants import make_geometry
    >>> grid = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0]
    >>> Indexer("column", (0,)).violations(make_geometry(4), grid)   # A1 = 1: itself
    []
    >>> Indexer("row", (1,)).violations(make_geometry(4), grid)      # A2 = 2: B2 holds 4
    ['row indexer A2 holds 2, so B2 should hold 1, not 4']
    """

    sort: str
    cells: tuple[int, ...]

    names = Names("indexer", json=("indexers",), fpuzzles=tuple(FPUZZLES_KEYS.values()))

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        where = f" at {at(geometry, self.cells, name)}" if self.cells else ""
        return f"{self.sort} indexer{where}"

    def validate(self, geometry: Geometry) -> None:
        if self.sort not in SORTS:
            raise ConstraintError(f"unknown indexer sort {self.sort!r}: expected row, column "
                                  "or box", part="sort")
        if not self.cells:
            raise ConstraintError("an indexer needs at least one cell", part="cells")
        super().validate(geometry)
        if len(set(self.cells)) != len(self.cells):
            raise ConstraintError("an indexer names a cell twice", part="cells")
        if self.sort == "box":
            n = geometry.size
            for cells in _boxes(geometry).values():
                if len(cells) != n:
                    raise ConstraintError(f"box indexers need boxes of {n} cells",
                                          part="sort")

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        n = geometry.size
        boxes = _boxes(geometry) if self.sort == "box" else {}
        ruled = []
        for cell in self.cells:
            r, c = divmod(cell, n)
            if self.sort == "box":
                members = boxes[geometry.boxes[cell]]
                index = members.index(cell) + 1
                targets = members
            elif self.sort == "row":
                index, targets = r + 1, [row * n + c for row in range(n)]
            else:
                index, targets = c + 1, [r * n + col for col in range(n)]
            for v, target in enumerate(targets, start=1):
                if target != cell:
                    ruled.append((cell, target, _points(v, index)))
        return ruled

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        n, label = geometry.size, geometry.label
        found = []
        for cell in self.cells:
            v = grid[cell] + 1
            row, col = divmod(cell, n)
            if self.sort == "row":
                target, index = (v - 1) * n + col, row + 1
            elif self.sort == "column":
                target, index = row * n + v - 1, col + 1
            else:
                box = [x for x in range(geometry.ncells) if geometry.boxes[x] ==
                       geometry.boxes[cell]]
                target, index = box[v - 1], box.index(cell) + 1
            if grid[target] + 1 != index:
                found.append(f"{self.sort} indexer {label(cell)} holds {v}, so "
                             f"{label(target)} should hold {index}, not {grid[target] + 1}")
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Each cell shaded pale grey with the sort's letter (R, C, B) small in its
        bottom-right corner, which candidates keep clear of."""
        side, size = canvas.side, canvas.corner_label_size * 0.9
        letter = self.sort[0].upper()
        for cell in self.cells:
            x, y = canvas.corner(cell)
            canvas.pad(cell, bottom=size + 2.0)
            canvas.add(Layer.FILLS, canvas.shade((cell,), f"{self.sort}-indexer", SHAPE_FILL,
                                                 canvas.cell_shape_opacity))
            canvas.add(Layer.LABELS, [text(x + side - size * 0.6, y + side - size * 0.6,
                                           letter, size, f"{self.sort}-indexer-letter",
                                           CAGE_COLOUR)])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        counts = {sort: sum(len(c.cells) for c in constraints
                            if isinstance(c, Indexer) and c.sort == sort) for sort in SORTS}
        return [f"{count} {sort} indexer cell{'s' * (count != 1)}"
                for sort, count in counts.items() if count]

    # -- random instances -------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One or two indexers of random sorts, each of one to three cells the grid obeys."""
        found: list[Constraint] = []
        for sort in rng.sample(SORTS, rng.randint(1, 2)):
            probe = cls(sort, tuple(range(geometry.ncells)))
            wrong = {cell for cell in probe.cells
                     if cls(sort, (cell,)).violations(geometry, grid)}
            fit = [cell for cell in probe.cells if cell not in wrong]
            if fit:
                found.append(cls(sort, tuple(sorted(rng.sample(fit, min(len(fit),
                                                                        rng.randint(1, 3)))))))
        return found

    # -- JSON and f-puzzles -------------------------------------------------------------------
    @classmethod
    def _made(cls, geometry: Geometry, sort: str, cells: tuple[int, ...], path: str
              ) -> Indexer:
        return checked(cls(sort, tuple(sorted(cells))), geometry, path)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["indexers"]
        if not isinstance(value, list):
            raise FieldError("indexers", "expected a list of indexers such as "
                                         "[{\"sort\": \"column\", \"cells\": [\"A1\", \"B1\"]}]")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            path = f"indexers[{i}]"
            if not isinstance(item, Mapping):
                raise FieldError(path, f"expected an object, got {item!r}")
            sort = item.get("sort")
            if sort not in SORTS:
                raise FieldError(f"{path}.sort", f"expected \"row\", \"column\" or \"box\", "
                                                 f"got {sort!r}")
            cells = parse_cells(geometry, item.get("cells"), f"{path}.cells")
            found.append(cls._made(geometry, sort, cells, f"{path}.cells"))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"indexers": [{"sort": c.sort, "cells": labels(geometry, c.cells)}
                             for c in constraints if isinstance(c, Indexer)]}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``rowindexer``, ``columnindexer`` and ``boxindexer`` entries:
        ``{"cells": ["R1C1", "R2C1", ...]}``."""
        found: list[Constraint] = []
        for sort, key in FPUZZLES_KEYS.items():
            if key in document:
                for path, item in entries(document, key):
                    cells = parse_rcs(geometry, item.get("cells"), f"{path}.cells")
                    found.append(cls._made(geometry, sort, cells, f"{path}.cells"))
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for c in constraints:
            if isinstance(c, Indexer):
                out.setdefault(FPUZZLES_KEYS[c.sort], []).append({"cells": rcs(geometry,
                                                                               c.cells)})
        return out
