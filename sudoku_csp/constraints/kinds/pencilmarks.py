"""Pencil marks: the candidates a solver has left in some cells of a partly solved grid.

Not a rule of the puzzle but where a solver stands (:attr:`Constraint.starting`): the
candidate grid ``sudoku-csp show -c`` prints reads back as a puzzle with its pencil marks
(:mod:`sudoku_csp.io.pencilmarks`), so that ``hint`` and ``explain`` go on from there, as
Sudoku Explainer and SudokuWiki do with a pasted candidate grid. Every backend honours the
marks as a restriction of the cells' digits, so a verdict on such a puzzle is a verdict on
the grid as the solver left it.

Translations: natively a one-cell link keeping the marked digits; in CNF a unit clause
``¬x(c, d)`` per digit not marked; in CP-SAT the model's ``allow_digits``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.fields import FieldError, parse_cell
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import Clause, CnfContext, Link, keep_digits
from sudoku_csp.geometry import SYMBOLS, Geometry, Grid, symbol

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sudoku_csp.modeling.cpsat_model import CpSatModel


def _digits(mask: int) -> list[int]:
    return [d for d in range(mask.bit_length()) if mask >> d & 1]


@dataclass(frozen=True)
class PencilMarks(Constraint):
    """``marks``: (cell, mask) pairs, the digits (bit ``d`` for digit ``d``) each cell may
    still hold; cells without a mark keep every digit.

    >>> from sudoku_csp.variants import make_geometry
    >>> marks = PencilMarks(((0, 0b0011),))       # A1: 1 or 2
    >>> marks.violations(make_geometry(4), [2] + [0] * 15)
    ['A1 holds 3, not one of its pencil marks 12']
    """

    marks: tuple[tuple[int, int], ...] = ()

    names = Names("pencil marks", json=("candidates",), fpuzzles_cell=("givenPencilMarks",),
                  noun="pencil mark")
    single: ClassVar[bool] = True
    starting: ClassVar[bool] = True

    def touched(self) -> tuple[int, ...]:
        return tuple(cell for cell, _ in self.marks)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        if len(self.marks) == 1:  # a part (:meth:`parts`)
            cell, mask = self.marks[0]
            shown = "/".join(str(d + 1) for d in _digits(mask))
            return f"pencil marks {shown} at {at(geometry, (cell,), name)}"
        return "pencil marks"

    def parts(self, geometry: Geometry) -> tuple[Constraint, ...]:
        return tuple(PencilMarks((mark,)) for mark in self.marks)

    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        """Every cell's marks kept, as the one constraint of the kind a puzzle holds."""
        marks = sorted(mark for p in pieces if isinstance(p, PencilMarks) for mark in p.marks)
        return [cls(tuple(marks))] if marks else []

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        full = (1 << geometry.size) - 1
        seen: set[int] = set()
        for cell, mask in self.marks:
            if cell in seen:
                raise ConstraintError(f"{geometry.label(cell)} has two sets of pencil marks",
                                      part="candidates")
            seen.add(cell)
            if not isinstance(mask, int) or not 0 < mask <= full:
                raise ConstraintError(f"{geometry.label(cell)}: pencil marks must be digits "
                                      f"of a {geometry.size}x{geometry.size} grid, at least "
                                      "one", part="candidates")

    def native(self, geometry: Geometry) -> list[Link]:
        return [keep_digits(cell, mask) for cell, mask in self.marks]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        for cell, mask in self.marks:
            for d in range(ctx.geometry.size):
                if not mask >> d & 1:
                    yield (-ctx.x(cell, d),)

    def cpsat(self, model: CpSatModel) -> None:
        for cell, mask in self.marks:
            model.allow_digits(cell, _digits(mask))

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        return [f"{geometry.label(cell)} holds {symbol(grid[cell])}, not one of its pencil "
                f"marks {''.join(map(symbol, _digits(mask)))}"
                for cell, mask in self.marks if not mask >> grid[cell] & 1]

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"pencil marks in {len(c.marks)} cells" for c in constraints
                if isinstance(c, PencilMarks)]

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        given = fields.get("candidates", {})
        if not isinstance(given, Mapping):
            raise FieldError("candidates", "expected an object of cell label -> digits, "
                                           "such as {\"A2\": \"16\"}")
        marks = []
        for label, digits in given.items():
            cell = parse_cell(geometry, label, f"candidates.{label}")
            if not isinstance(digits, str) or not digits:
                raise FieldError(f"candidates.{label}", "expected the cell's digits as text, "
                                                        "such as \"16\"")
            mask = 0
            for ch in digits:
                digit = SYMBOLS.find(ch.upper())
                if not 0 <= digit < geometry.size:
                    raise FieldError(f"candidates.{label}",
                                     f"{ch!r} is no digit of a {geometry.size}x"
                                     f"{geometry.size} grid")
                mask |= 1 << digit
            marks.append((cell, mask))
        made = cls(tuple(sorted(marks)))
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError("candidates", exc.reason) from None
        return [made] if marks else []

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        for c in constraints:
            if isinstance(c, PencilMarks):
                return {"candidates": {geometry.label(cell): "".join(map(symbol,
                                                                          _digits(mask)))
                                       for cell, mask in c.marks}}
        return {}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """Grid cells' ``givenPencilMarks`` (the values a setter allows there: ``[1, 6]``;
        ``null`` or an empty list: none given)."""
        n = geometry.size
        marks = []
        for r, row in enumerate(document.get("grid") or ()):
            for c, cell in enumerate(row if isinstance(row, list) else ()):
                values = cell.get("givenPencilMarks") if isinstance(cell, Mapping) else None
                if not values:
                    continue
                path = f"grid[{r}][{c}].givenPencilMarks"
                if not isinstance(values, list):
                    raise FieldError(path, f"expected a list of values 1..{n}")
                mask = 0
                for v in values:
                    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
                        raise FieldError(path, f"expected values 1..{n}, got {v!r}")
                    mask |= 1 << (v - 1)
                marks.append((r * n + c, mask))
        return [cls(tuple(sorted(marks)))] if marks else []

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        """The marks as grid cells' ``givenPencilMarks`` (under ``grid``, by cell index)."""
        return {"grid": {cell: {"givenPencilMarks": [d + 1 for d in _digits(mask)]}
                         for c in constraints if isinstance(c, PencilMarks)
                         for cell, mask in c.marks}}

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """Marks in a few cells: the grid's digit and two others."""
        n = geometry.size
        cells = sorted(rng.sample(range(geometry.ncells), 5))
        return [cls(tuple((c, 1 << grid[c] | sum(1 << d for d in rng.sample(range(n), 2)))
                          for c in cells))]
