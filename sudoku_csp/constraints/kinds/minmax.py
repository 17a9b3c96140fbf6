"""Minimum and maximum cells: a minimum cell holds a value less than each of its orthogonal
neighbours, a maximum cell one greater than each. As in Rangsk's solver, a minimum cell's
neighbour that is itself a minimum cell is not compared with it (nor a maximum's that is a
maximum): a puzzle's minimum cells are read together, so it holds one :class:`MinMax`.

Translations: a :class:`~sudoku_csp.constraints.pairs.PairRules` kind, one "less than"
relation per compared pair (a maximum cell's neighbour is less than it): arc consistency
natively, support or conflict clauses in CNF, tables in CP-SAT.

Drawn as f-puzzles marks them: the cell shaded, with a small chevron at each side pointing
to the smaller value (inwards for a minimum, outwards for a maximum).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sudoku_csp.canvas import CAGE_COLOUR, SHAPE_FILL, Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError
from sudoku_csp.constraints.fields import (
    FieldError,
    entries,
    labels,
    parse_cells,
    parse_rc,
    rc,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import PairRules, Relation
from sudoku_csp.geometry import Geometry, Grid

LESS = Relation("minmax less", lambda x, y: x < y, "{a} is less than {b}")
"""The first cell's value is less than the second's."""


def _neighbours(n: int, cell: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n]


@dataclass(frozen=True)
class MinMax(PairRules):
    """``minimum`` cells are less than their neighbours, ``maximum`` cells greater (each
    sorted); a neighbour of the same sort is not compared.

    >>> from sudoku_csp.variants import make_geometry
    >>> MinMax((0, 1), ()).violations(make_geometry(4), [0, 1, 2, 3, 2, 0] + [0] * 10)
    ['minimum cell A2 holds 2, not less than B2 (1)']
    """

    minimum: tuple[int, ...] = ()
    maximum: tuple[int, ...] = ()

    names = Names("minmax", json=("minmax",), fpuzzles=("minimum", "maximum"),
                  noun="minimum or maximum cell")
    single: ClassVar[bool] = True

    def touched(self) -> tuple[int, ...]:
        return (*self.minimum, *self.maximum)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return "minimum/maximum cells"

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        for name, cells in (("minimum", self.minimum), ("maximum", self.maximum)):
            if len(set(cells)) != len(cells):
                raise ConstraintError(f"a {name} cell is given twice", part=name)
        both = set(self.minimum) & set(self.maximum)
        if both:
            raise ConstraintError(f"{geometry.label(min(both))} is marked both minimum and "
                                  "maximum", part="maximum")

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        n = geometry.size
        pairs: set[tuple[int, int]] = set()
        lows, highs = set(self.minimum), set(self.maximum)
        for cell in self.minimum:
            pairs.update((cell, o) for o in _neighbours(n, cell) if o not in lows)
        for cell in self.maximum:
            pairs.update((o, cell) for o in _neighbours(n, cell) if o not in highs)
        return [(a, b, LESS) for a, b in sorted(pairs)]

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        n, label = geometry.size, geometry.label
        found = []
        for name, cells, smaller in (("minimum", self.minimum, True),
                                     ("maximum", self.maximum, False)):
            for cell in cells:
                r, c = divmod(cell, n)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    other = rr * n + cc
                    if not (0 <= rr < n and 0 <= cc < n) or other in cells:
                        continue
                    x, y = grid[cell] + 1, grid[other] + 1
                    if (x >= y) if smaller else (x <= y):
                        found.append(f"{name} cell {label(cell)} holds {x}, not "
                                     f"{'less' if smaller else 'greater'} than {label(other)} "
                                     f"({y})")
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Each marked cell shaded pale grey, with a chevron near each side pointing to the
        smaller value: inwards on a minimum cell, outwards on a maximum; the candidates keep
        clear of the chevrons."""
        side = canvas.side
        half, depth, gap = side * 0.1, side * 0.06, side * 0.035
        clear = gap + depth + 1.0
        for cells, inwards in ((self.minimum, True), (self.maximum, False)):
            for cell in cells:
                x, y = canvas.corner(cell)
                canvas.pad(cell, clear, clear, clear, clear)
                cx, cy = canvas.centre(cell)
                paths = []
                # Each side: its middle, and the direction pointing into the cell.
                for mx, my, ix, iy in ((cx, y, 0, 1), (x + side, cy, -1, 0),
                                       (cx, y + side, 0, -1), (x, cy, 1, 0)):
                    near = gap + (depth if not inwards else 0.0)
                    tip = gap + (depth if inwards else 0.0)
                    bx, by = mx + ix * near, my + iy * near  # the chevron's open side
                    tx, ty = mx + ix * tip, my + iy * tip  # its tip
                    ax, ay = iy * half, ix * half  # along the side
                    paths.append(f"M{bx - ax:.1f} {by - ay:.1f}L{tx:.1f} {ty:.1f}"
                                 f"L{bx + ax:.1f} {by + ay:.1f}")
                canvas.add(Layer.FILLS, canvas.shade((cell,), "minimum" if inwards else "maximum",
                                                     SHAPE_FILL, canvas.cell_shape_opacity))
                canvas.add(Layer.MARKS, [
                    f'<path class="{"minimum" if inwards else "maximum"}-chevrons" '
                    f'd="{"".join(paths)}" stroke="{CAGE_COLOUR}" stroke-width="1.2" '
                    'fill="none"/>'])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(c.minimum)} minimum and {len(c.maximum)} maximum cells"
                for c in constraints if isinstance(c, MinMax)]

    # -- random instances -------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """Cells that hold for the grid, taken in random order: a cell joins the minimum
        cells when it is less than each neighbour not already one (so two neighbouring
        minimum cells can be drawn), likewise the maximum cells; a few of each."""
        n = geometry.size
        cells = list(range(geometry.ncells))
        rng.shuffle(cells)
        lows: list[int] = []
        highs: list[int] = []
        want_low, want_high = rng.randint(0, 3), rng.randint(1, 3)
        for cell in cells:
            others = _neighbours(n, cell)
            if len(lows) < want_low and cell not in highs and all(
                    grid[cell] < grid[o] for o in others if o not in lows):
                lows.append(cell)
            elif len(highs) < want_high and cell not in lows and all(
                    grid[cell] > grid[o] for o in others if o not in highs):
                highs.append(cell)
        if not lows and not highs:
            return []
        return [cls(tuple(sorted(lows)), tuple(sorted(highs)))]

    # -- generation -------------------------------------------------------------------------
    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        """The minimum and the maximum cells of the pieces a generator kept, as the one
        constraint a puzzle holds (the generator keeps only pieces that merge without
        changing what they say: no two neighbouring minimum cells from different pieces)."""
        marked = [p for p in pieces if isinstance(p, MinMax)]
        lows = sorted({c for p in marked for c in p.minimum})
        highs = sorted({c for p in marked for c in p.maximum})
        return [cls(tuple(lows), tuple(highs))] if lows or highs else []

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        """``2 minimum and 3 maximum cells``."""
        for c in constraints:
            if isinstance(c, MinMax):
                return f"{len(c.minimum)} minimum and {len(c.maximum)} maximum cells"
        return "no minimum or maximum cells"

    # -- JSON and f-puzzles -------------------------------------------------------------------
    @classmethod
    def _made(cls, geometry: Geometry, lows: Sequence[int], highs: Sequence[int], path: str
              ) -> list[Constraint]:
        made = cls(tuple(sorted(lows)), tuple(sorted(highs)))
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError(f"{path}{exc.part or 'minimum'}", exc.reason) from None
        return [made] if lows or highs else []

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["minmax"]
        if not isinstance(value, Mapping) or set(value) - {"minimum", "maximum"}:
            raise FieldError("minmax", "expected an object such as {\"minimum\": [\"A1\"], "
                                       "\"maximum\": [\"B3\"]}")
        lows, highs = (parse_cells(geometry, value.get(name, []), f"minmax.{name}", least=0)
                       for name in ("minimum", "maximum"))
        return cls._made(geometry, lows, highs, "minmax.")

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        for c in constraints:
            if isinstance(c, MinMax):
                return {"minmax": {"minimum": labels(geometry, c.minimum),
                                   "maximum": labels(geometry, c.maximum)}}
        return {}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``minimum`` and ``maximum`` entries: ``{"cell": "R1C1"}``."""
        marked: dict[str, list[int]] = {"minimum": [], "maximum": []}
        for key, cells in marked.items():
            if key in document:
                for path, item in entries(document, key):
                    cells.append(parse_rc(geometry, item.get("cell"), f"{path}.cell"))
        return cls._made(geometry, marked["minimum"], marked["maximum"], "")

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for c in constraints:
            if isinstance(c, MinMax):
                out["minimum"] = [{"cell": rc(geometry, cell)} for cell in c.minimum]
                out["maximum"] = [{"cell": rc(geometry, cell)} for cell in c.maximum]
        return out
