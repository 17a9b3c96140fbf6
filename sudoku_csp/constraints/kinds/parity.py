"""Odd and even cells: a cell marked odd holds an odd value, one marked even an even value.

Translations: natively a one-cell link that keeps the digits of the right parity; in CNF a
unit clause ``¬x(c, d)`` per digit of the wrong parity; in CP-SAT the model's
``allow_digits``. Drawn as setters draw them: a grey circle on an odd cell, a grey square on
an even one; generated as one droppable mark per cell of the solution grid.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import SHAPE_EDGE, SHAPE_FILL, Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, Pieces, at
from sudoku_csp.constraints.fields import (
    FieldError,
    entries,
    labels,
    parse_cells,
    parse_rc,
    rc,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import Clause, CnfContext, Link, keep_digits
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


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

    names = Names("parity", json=("odd", "even"), fpuzzles=("odd", "even"),
                  fpuzzles_cell=("parity",), noun="odd or even cell")
    single: ClassVar[bool] = True

    def touched(self) -> tuple[int, ...]:
        return (*self.odd, *self.even)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        if len(self.odd) + len(self.even) == 1:  # a part (:meth:`parts`)
            return f"{'odd' if self.odd else 'even'} cell {at(geometry, self.touched(), name)}"
        return "odd/even cells"

    def parts(self, geometry: Geometry) -> tuple[Constraint, ...]:
        return (*(Parity((c,), ()) for c in self.odd), *(Parity((), (c,)) for c in self.even))

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
        return [keep_digits(cell, sum(1 << d for d in digits))
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

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The cell's mark (``A1 is odd``)."""
        (cell,) = link.cells
        return f"{geometry.label(cell)} is {'odd' if cell in self.odd else 'even'}"

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = [f"{geometry.label(c)} is marked odd but holds {grid[c] + 1}"
                 for c in self.odd if (grid[c] + 1) % 2 != 1]
        found += [f"{geometry.label(c)} is marked even but holds {grid[c] + 1}"
                  for c in self.even if (grid[c] + 1) % 2 != 0]
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """A grey circle on each odd cell, a grey square on each even one (under digits and
        thermometers), as setters draw them; pale and outlined, and bigger than a
        thermometer's bulb, which is solid and has no outline, so that a bulb on a marked
        cell stays in sight and an odd circle never passes for a bulb."""
        r = canvas.cell_shape_half
        paint = (f'fill="{SHAPE_FILL}" fill-opacity="{canvas.cell_shape_opacity}" '
                 f'stroke="{SHAPE_EDGE}" stroke-width="1.2"')
        canvas.add(Layer.FILLS, [
            f'<circle class="odd" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'
            for x, y in map(canvas.centre, self.odd)])
        canvas.add(Layer.FILLS, [
            f'<rect class="even" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
            f'height="{2 * r:.1f}" {paint}/>'
            for x, y in map(canvas.centre, self.even)])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"odd/even cells ({len(c.odd)} odd, {len(c.even)} even)"
                for c in constraints if isinstance(c, Parity)]

    # -- generation -------------------------------------------------------------------------
    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        """An odd or even mark on every cell, each droppable."""
        return [], [cls((cell,), ()) if grid[cell] % 2 == 0 else cls((), (cell,))
                    for cell in range(geometry.ncells)]  # digit 0 is the odd value 1

    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        marks = [p for p in pieces if isinstance(p, Parity)]
        if not marks:
            return []
        return [cls(tuple(sorted(c for m in marks for c in m.odd)),
                    tuple(sorted(c for m in marks for c in m.even)))]

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        for c in constraints:
            if isinstance(c, Parity):
                return f"{len(c.odd)} odd and {len(c.even)} even cells"
        return "no odd or even cells"

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

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``odd`` and ``even`` entries (``{"cell": "R1C1"}``), and grid cells whose
        ``parity`` is ``"Odd"`` or ``"Even"``."""
        marked: dict[str, set[int]] = {"odd": set(), "even": set()}
        for key in ("odd", "even"):
            if key in document:
                for path, item in entries(document, key):
                    marked[key].add(parse_rc(geometry, item.get("cell"), f"{path}.cell"))
        for r, row in enumerate(document.get("grid") or ()):
            for c, cell in enumerate(row if isinstance(row, list) else ()):
                word = cell.get("parity") if isinstance(cell, Mapping) else None
                if word is None:
                    continue
                if not isinstance(word, str) or word.lower() not in marked:
                    raise FieldError(f"grid[{r}][{c}].parity",
                                     f"expected \"Odd\" or \"Even\", got {word!r}")
                marked[word.lower()].add(r * geometry.size + c)
        made = cls(tuple(sorted(marked["odd"])), tuple(sorted(marked["even"])))
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError("odd", exc.reason) from None
        return [made] if made.odd or made.even else []

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for c in constraints:
            if isinstance(c, Parity):
                out["odd"] = [{"cell": rc(geometry, cell)} for cell in c.odd]
                out["even"] = [{"cell": rc(geometry, cell)} for cell in c.even]
        return out
