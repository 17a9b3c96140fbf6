"""Extra regions: a set of cells (at most N) whose values are all different; a region of N
cells holds every value once, like a row.

Translations:

- native: one link over the region: a placed digit leaves the other cells (two cells placed
  alike: contradiction), and in a region of N cells a digit only one cell can hold is placed
  there (a digit none can hold: contradiction), repeated until nothing changes;
- CNF: at most one cell of the region per digit (``ctx.at_most_one``, pairwise), and, for a
  region of N cells, at least one;
- CP-SAT: the model's ``all_different``.

Drawn as f-puzzles draws it: the region's cells shaded grey.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from sudoku_csp.canvas import SHAPE_FILL, Canvas, Layer
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
from sudoku_csp.constraints.translation import Clause, CnfContext, Link
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


def _narrow(full: bool, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """All different (``full``: and every digit somewhere) over the cells' masks."""
    out = list(masks)
    done = 0  # the cells whose single digit has been taken from the others
    while True:
        changed = False
        for i, m in enumerate(out):
            if done >> i & 1 or m & (m - 1):
                continue
            if not m:
                return None
            done |= 1 << i
            for j, other in enumerate(out):
                if j != i and other & m:
                    out[j] = other & ~m
                    if not out[j]:
                        return None
                    changed = True
        if full:
            union = 0
            for m in out:
                union |= m
            seen_once = 0
            seen_twice = 0
            for m in out:
                seen_twice |= seen_once & m
                seen_once |= m
            lonely = union & ~seen_twice
            for i, m in enumerate(out):
                hidden = m & lonely
                if hidden & (hidden - 1):
                    return None  # two digits only this cell can hold
                if hidden and m != hidden:
                    out[i] = hidden
                    changed = True
            if union.bit_count() < len(out):
                return None
        if not changed:
            return tuple(out)


@dataclass(frozen=True)
class ExtraRegion(Constraint):
    """The values in ``cells`` (in reading order) are all different.

    >>> from sudoku_csp.variants import make_geometry
    >>> ExtraRegion((0, 5, 11)).violations(make_geometry(4), [0, 1, 2, 3, 3, 0] + [1] * 10)
    ['extra region at A1 holds 1 twice (A1 and B2)']
    """

    cells: tuple[int, ...]

    names = Names("extra region", json=("extra_regions",), fpuzzles=("extraregion",))

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return f"extra region at {at(geometry, self.cells, name)}" if self.cells \
            else "extra region"

    def validate(self, geometry: Geometry) -> None:
        if not self.cells:
            raise ConstraintError("an extra region needs at least one cell", part="cells")
        super().validate(geometry)
        n = geometry.size
        if len(set(self.cells)) != len(self.cells):
            raise ConstraintError("an extra region names a cell twice", part="cells")
        if len(self.cells) > n:
            raise ConstraintError(f"an extra region of {len(self.cells)} cells cannot hold "
                                  f"different values on a {n}x{n} grid (at most {n} cells)",
                                  part="cells")

    # -- translations -----------------------------------------------------------------------
    def native(self, geometry: Geometry) -> list[Link]:
        if len(self.cells) < 2:
            return []
        return [Link(self.cells, partial(_narrow, len(self.cells) == geometry.size))]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        full = len(self.cells) == ctx.geometry.size
        for d in range(ctx.geometry.size):
            lits = [ctx.x(c, d) for c in self.cells]
            for clause in ctx.at_most_one(lits):
                yield tuple(clause)
            if full:
                yield tuple(lits)

    def cpsat(self, model: CpSatModel) -> None:
        if len(self.cells) > 1:
            model.all_different(self.cells)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Its digits differ (and a region of N cells holds each once)."""
        each = ", each once" if len(self.cells) == geometry.size else ""
        return f"its cells hold different digits{each}: " + kept(geometry, link.cells,
                                                                    candidates, gone)

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        first: dict[int, int] = {}
        found = []
        for cell in self.cells:
            value = grid[cell] + 1
            if value in first:
                found.append(f"{self.describe(geometry)} holds {value} twice "
                             f"({geometry.label(first[value])} and {geometry.label(cell)})")
            else:
                first[value] = cell
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The region's cells shaded grey, under the digits."""
        canvas.add(Layer.FILLS, canvas.shade(self.cells, "extra-region", SHAPE_FILL,
                                             canvas.cell_shape_opacity))

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(constraints)} extra region{'s' * (len(constraints) != 1)}"]

    # -- random instances -------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One or two regions grown from a random cell through neighbours (sharing a side)
        of values not in the region yet: 2 to N cells."""
        n = geometry.size
        found: list[Constraint] = []
        for _ in range(rng.randint(1, 2)):
            region = [rng.randrange(geometry.ncells)]
            values = {grid[region[0]]}
            want = rng.randint(2, n)
            while len(region) < want:
                nexts = sorted({o for c in region for o in _neighbours(n, c)
                                if o not in region and grid[o] not in values})
                if not nexts:
                    break
                cell = rng.choice(nexts)
                region.append(cell)
                values.add(grid[cell])
            if len(region) >= 2:
                found.append(cls(tuple(sorted(region))))
        return found

    # -- JSON and f-puzzles -------------------------------------------------------------------
    @classmethod
    def _made(cls, geometry: Geometry, cells: tuple[int, ...], path: str) -> ExtraRegion:
        return checked(cls(tuple(sorted(cells))), geometry, path)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["extra_regions"]
        if not isinstance(value, list):
            raise FieldError("extra_regions", "expected a list of regions, each a list of cell "
                                              "labels: [[\"A1\", \"B2\", \"C3\"]]")
        return [cls._made(geometry, parse_cells(geometry, item, f"extra_regions[{i}]"),
                          f"extra_regions[{i}]")
                for i, item in enumerate(value)]

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"extra_regions": [labels(geometry, c.cells) for c in constraints
                                  if isinstance(c, ExtraRegion)]}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``extraregion`` entries: ``{"cells": ["R1C1", "R2C2", ...]}``."""
        return [cls._made(geometry, parse_rcs(geometry, item.get("cells"), f"{path}.cells"),
                          f"{path}.cells")
                for path, item in entries(document, "extraregion")]

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"extraregion": [{"cells": rcs(geometry, c.cells)} for c in constraints
                                if isinstance(c, ExtraRegion)]}


def _neighbours(n: int, cell: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n]
