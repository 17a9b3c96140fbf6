"""Thermometers: values strictly increase along the thermometer, from the bulb.

A thermometer is a path of cells, each a king's move from the one before (sharing a side or
a corner), the bulb first, no cell twice, at most N cells.

Translations:

- native: bounds along the path: each cell keeps only values above the least candidate of
  the cell before it and below the greatest of the cell after it (one pass each way);
- CNF: for each step ``a → b`` and each value ``v`` of ``a``, the conflict clauses
  ``¬x(a, v) ∨ ¬x(b, w)`` for ``w ≤ v``, plus unit clauses for the values a cell at
  position ``i`` of a thermometer of length ``L`` can never take (below ``i+1`` or above
  ``N-L+i+1``);
- CP-SAT: ``value(a) < value(b)`` per step.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import (
    Clause,
    CnfContext,
    Constraint,
    ConstraintError,
    FieldError,
    Link,
    labels,
    parse_cells,
)
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.encodings.cpsat_model import CpSatModel


def _narrow(masks: tuple[int, ...]) -> tuple[int, ...] | None:
    out = list(masks)
    floor = 0  # the least value the previous cell can take (values as digit + 1)
    for i, m in enumerate(out):
        m &= ~((1 << floor) - 1)  # values above floor: digits >= floor
        if not m:
            return None
        out[i] = m
        floor = (m & -m).bit_length()
    top = out[-1].bit_length()  # greatest value of the last cell
    for i in range(len(out) - 2, -1, -1):
        m = out[i] & ((1 << (top - 1)) - 1)  # values below top: digits < top - 1
        if not m:
            return None
        out[i] = m
        top = m.bit_length()
    return tuple(out)


@dataclass(frozen=True)
class Thermo(Constraint):
    """A thermometer: values strictly increase along ``cells`` (the bulb first).

    >>> from sudoku_csp.variants import make_geometry
    >>> Thermo((0, 1, 2)).violations(make_geometry(4), [0, 2, 1] + [0] * 13)
    ['thermometer at A1 does not increase from A2 to A3']
    """

    cells: tuple[int, ...]

    kind: ClassVar[str] = "thermometer"
    keys: ClassVar[tuple[str, ...]] = ("thermos",)

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry) -> str:
        return f"thermometer at {geometry.label(self.cells[0])}" if self.cells else "thermometer"

    def validate(self, geometry: Geometry) -> None:
        if len(self.cells) < 2:
            raise ConstraintError("a thermometer needs at least two cells", part="cells")
        super().validate(geometry)
        n = geometry.size
        if len(self.cells) > n:
            raise ConstraintError(f"a thermometer of {len(self.cells)} cells cannot increase "
                                  f"on a {n}x{n} grid (at most {n} cells)", part="cells")
        if len(set(self.cells)) != len(self.cells):
            raise ConstraintError("a thermometer cannot pass a cell twice", part="cells")
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            if max(abs(ra - rb), abs(ca - cb)) != 1:
                raise ConstraintError(
                    f"the thermometer is not a path of neighbours: {geometry.label(a)} and "
                    f"{geometry.label(b)} share neither a side nor a corner", part="cells")

    def native(self, geometry: Geometry) -> list[Link]:
        return [Link(self.cells, _narrow)]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        length = len(cells)
        for i, cell in enumerate(cells):
            for d in range(n):
                if d < i or d > n - length + i:
                    yield (-x(cell, d),)
        for a, b in zip(cells, cells[1:], strict=False):
            for da in range(n):
                for db in range(da + 1):
                    yield (-x(a, da), -x(b, db))

    def cpsat(self, model: CpSatModel) -> None:
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            model.model.add(model.value(a) < model.value(b))

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        return [f"{self.describe(geometry)} does not increase from {geometry.label(a)} to "
                f"{geometry.label(b)}"
                for a, b in zip(self.cells, self.cells[1:], strict=False) if grid[a] >= grid[b]]

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["thermos"]
        if not isinstance(value, list):
            raise FieldError("thermos", "expected a list of thermometers, each a list of cell "
                                        "labels from the bulb: [[\"A1\", \"A2\", \"B3\"]]")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            thermo = cls(parse_cells(geometry, item, f"thermos[{i}]", least=2))
            try:
                thermo.validate(geometry)
            except ConstraintError as exc:
                raise FieldError(f"thermos[{i}]", exc.reason) from None
            found.append(thermo)
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"thermos": [labels(geometry, c.cells) for c in constraints
                            if isinstance(c, Thermo)]}
