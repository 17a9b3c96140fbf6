"""Clones: two regions of the same number of cells hold the same values, cell by cell in the
order given (the i-th cell of one and the i-th of the other hold the same value).

f-puzzles writes ``{"cells": [...], "cloneCells": [...]}`` under ``clone``; the regions may
have any shape and may overlap (a cell paired with itself rules nothing), but a region names
each cell once.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): "equal" between the cells
of each pair, which is the rule: arc consistency natively (each keeps its twin's
candidates), support clauses, tables in CP-SAT. Drawn as f-puzzles does: both regions'
cells shaded, in one colour per clone pair.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.fields import (
    FieldError,
    checked,
    entries,
    king_neighbours,
    labels,
    parse_cells,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import EQUAL
from sudoku_csp.constraints.pairs import PairRules, Relation
from sudoku_csp.geometry import Geometry, Grid

SHADES = ("#cfcfcf", "#d8e8f8", "#f8e0c8", "#d8f0d0", "#ecd8f0", "#f8f0c0")
"""Pale fills of clone pairs (f-puzzles' grey first), one per pair, chosen by its cells."""


@dataclass(frozen=True)
class Clone(PairRules):
    """A clone: ``cells`` and ``copy`` hold the same values, cell by cell.

    >>> from sudoku_csp.variants import make_geometry
    >>> Clone((0, 1), (10, 11)).violations(make_geometry(4), [0, 1] + [0] * 8 + [0, 2] + [0] * 4)
    ['clone of A1: A2 holds 2 but its clone C4 holds 3']
    """

    cells: tuple[int, ...]
    copy: tuple[int, ...]

    names = Names("clone", json=("clones",), fpuzzles=("clone",))

    def touched(self) -> tuple[int, ...]:
        return self.cells + self.copy

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return f"clone of {at(geometry, self.cells, name)}" if self.cells else "clone"

    def validate(self, geometry: Geometry) -> None:
        if not self.cells:
            raise ConstraintError("a clone needs at least one cell", part="cells")
        if len(self.cells) != len(self.copy):
            raise ConstraintError(f"a clone's two regions must have as many cells: "
                                  f"{len(self.cells)} and {len(self.copy)}", part="cells")
        super().validate(geometry)
        for region in (self.cells, self.copy):
            if len(set(region)) != len(region):
                twice = next(c for c in region if region.count(c) > 1)
                raise ConstraintError(f"a clone's region names {geometry.label(twice)} twice",
                                      part="cells")

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        return [(a, b, EQUAL) for a, b in zip(self.cells, self.copy, strict=True) if a != b]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        return [f"{self.describe(geometry)}: {geometry.label(a)} holds {grid[a] + 1} but its "
                f"clone {geometry.label(b)} holds {grid[b] + 1}"
                for a, b in zip(self.cells, self.copy, strict=True) if grid[a] != grid[b]]

    # -- JSON ------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["clones"]
        if not isinstance(value, list):
            raise FieldError("clones", "expected a list of clones, each {\"cells\": [\"A1\", "
                                       "\"A2\"], \"copy\": [\"D5\", \"D6\"]}")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            path = f"clones[{i}]"
            if not isinstance(item, Mapping):
                raise FieldError(path, "expected {\"cells\": [...], \"copy\": [...]}")
            unknown = sorted(set(item) - {"cells", "copy"})
            if unknown:
                raise FieldError(f"{path}.{unknown[0]}", "unknown field: expected cells or copy")
            cells = parse_cells(geometry, item.get("cells"), f"{path}.cells")
            copy = parse_cells(geometry, item.get("copy"), f"{path}.copy")
            found.append(checked(cls(cells, copy), geometry, path))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"clones": [{"cells": labels(geometry, c.cells), "copy": labels(geometry, c.copy)}
                           for c in constraints if isinstance(c, Clone)]}

    # -- f-puzzles -------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        found: list[Constraint] = []
        for path, item in entries(document, "clone"):
            cells = parse_rcs(geometry, item.get("cells"), f"{path}.cells")
            copy = parse_rcs(geometry, item.get("cloneCells"), f"{path}.cloneCells")
            found.append(checked(cls(cells, copy), geometry, path))
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"clone": [{"cells": rcs(geometry, c.cells), "cloneCells": rcs(geometry, c.copy)}
                          for c in constraints if isinstance(c, Clone)]}

    # -- pictures --------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Both regions' cells shaded in the pair's colour, under everything else."""
        shade = SHADES[min(self.touched()) % len(SHADES)]
        canvas.add(Layer.FILLS, canvas.shade(dict.fromkeys(self.touched()), "clone-cell", shade))

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        count = sum(isinstance(c, Clone) for c in constraints)
        return [f"{count} clone{'s' * (count != 1)}"]

    # -- random clones that hold -------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three clones that hold on ``grid``: a random king path of 2 to 4 cells and
        a shifted copy of it elsewhere holding the same values, when some shift does; else a
        single cell and another cell of the same value (there always is one)."""
        return [cls._sample_one(geometry, grid, rng) for _ in range(rng.randint(1, 3))]

    @classmethod
    def _sample_one(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> Clone:
        n = geometry.size
        kings = king_neighbours(n)
        for _ in range(40):
            path = [rng.randrange(geometry.ncells)]
            for _ in range(rng.randint(1, min(3, n - 1))):
                nexts = [c for c in kings[path[-1]] if c not in path]
                if not nexts:
                    break
                path.append(rng.choice(nexts))
            places = [divmod(c, n) for c in path]
            shifts = [(dr, dc) for dr in range(-n + 1, n) for dc in range(-n + 1, n)
                      if (dr, dc) != (0, 0)
                      and all(0 <= r + dr < n and 0 <= c + dc < n for r, c in places)]
            rng.shuffle(shifts)
            for dr, dc in shifts:
                copy = tuple((r + dr) * n + c + dc for r, c in places)
                if all(grid[a] == grid[b] for a, b in zip(path, copy, strict=True)):
                    return cls(tuple(path), copy)
        cell = rng.randrange(geometry.ncells)
        twin = rng.choice([c for c in range(geometry.ncells)
                           if c != cell and grid[c] == grid[cell]])
        return cls((cell,), (twin,))
