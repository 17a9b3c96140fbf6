"""Odd and even cells: a cell marked odd holds an odd value, one marked even an even value.

Translations: natively a one-cell link that keeps the digits of the right parity; in CNF a
unit clause ``¬x(c, d)`` per digit of the wrong parity; in CP-SAT the model's
``allow_digits``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
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


def _keep(mask: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    m = masks[0] & mask
    return (m,) if m else None


def _digits(n: int, odd: bool) -> list[int]:
    """The digits (0-based) whose values (digit + 1) are odd, or even."""
    return [d for d in range(n) if (d % 2 == 0) == odd]


@dataclass(frozen=True)
class Parity(Constraint):
    """``odd`` cells hold odd values, ``even`` cells even ones.

    >>> from sudoku_csp.variants import make_geometry
    >>> Parity((0,), (1,)).violations(make_geometry(4), [1, 1] + [0] * 14)
    ['A1 is marked odd but holds 2']
    """

    odd: tuple[int, ...] = ()
    even: tuple[int, ...] = ()

    kind: ClassVar[str] = "parity"
    keys: ClassVar[tuple[str, ...]] = ("odd", "even")
    single: ClassVar[bool] = True

    def touched(self) -> tuple[int, ...]:
        return (*self.odd, *self.even)

    def describe(self, geometry: Geometry) -> str:
        return "odd/even cells"

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        both = set(self.odd) & set(self.even)
        if both:
            raise ConstraintError(f"{geometry.label(min(both))} is marked both odd and even",
                                  part="even")

    def _marks(self, n: int) -> Iterator[tuple[int, list[int]]]:
        for cells, odd in ((self.odd, True), (self.even, False)):
            for cell in cells:
                yield cell, _digits(n, odd)

    def native(self, geometry: Geometry) -> list[Link]:
        return [Link((cell, ), partial(_keep, sum(1 << d for d in digits)))
                for cell, digits in self._marks(geometry.size)]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        n = ctx.geometry.size
        for cell, digits in self._marks(n):
            for d in range(n):
                if d not in digits:
                    yield (-ctx.x(cell, d),)

    def cpsat(self, model: CpSatModel) -> None:
        for cell, digits in self._marks(model.geometry.size):
            model.allow_digits(cell, digits)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = [f"{geometry.label(c)} is marked odd but holds {grid[c] + 1}"
                 for c in self.odd if (grid[c] + 1) % 2 != 1]
        found += [f"{geometry.label(c)} is marked even but holds {grid[c] + 1}"
                  for c in self.even if (grid[c] + 1) % 2 != 0]
        return found

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        odd = parse_cells(geometry, fields.get("odd", []), "odd", least=0)
        even = parse_cells(geometry, fields.get("even", []), "even", least=0)
        made = cls(odd, even)
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError(exc.part or "odd", exc.reason) from None
        return [made] if odd or even else []

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        for c in constraints:
            if isinstance(c, Parity):
                return {"odd": labels(geometry, c.odd), "even": labels(geometry, c.even)}
        return {}
