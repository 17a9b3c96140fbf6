"""Thermometers: values strictly increase along the thermometer, from the bulb.

A thermometer is a path of cells, each a king's move from the one before (sharing a side or
a corner), the bulb first, no cell twice, at most N cells.

Translations:

- native: bounds along the path: each cell keeps only values above the least candidate of
  the cell before it and below the greatest of the cell after it (one pass each way);
- CNF: on order literals (:func:`~sudoku_csp.constraints.order_lines.thermo_clauses`:
  "``a`` is ``v`` or more" gives "``b`` is ``v + 1`` or more"), half the conflicts of the
  digit clauses on generated thermometers; with ``line_order=off``, for each step ``a → b``
  and each value ``v`` of ``a``, the conflict clauses ``¬x(a, v) ∨ ¬x(b, w)`` for ``w ≤ v``,
  plus unit clauses for the values a cell at position ``i`` of a thermometer of length ``L``
  can never take (below ``i+1`` or above ``N-L+i+1``);
- CP-SAT: ``value(a) < value(b)`` per step.

Drawn as a grey bulb on the first cell and a thick grey line through the others; generated
(``generate --kind thermo``) as a random cover of the solution grid by increasing paths.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import SHAPE_FILL, Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, Pieces, at
from sudoku_csp.constraints.cell_orders import CELL_ORDERS
from sudoku_csp.constraints.fields import (
    FieldError,
    check_path,
    checked,
    entries,
    king_neighbours,
    labels,
    line_cells,
    parse_cells,
    rcs,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.order_lines import (
    LINE_ORDER,
    as_line_order,
    line_orders,
    thermo_clauses,
)
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
    templated,
)
from sudoku_csp.constraints.wording import order
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


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

    names = Names("thermometer", json=("thermos",), fpuzzles=("thermometer",),
                  aliases=("thermo",))
    fpuzzles_lines: ClassVar[bool] = True
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LINE_ORDER, CELL_ORDERS)

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return f"thermometer at {at(geometry, self.cells, name)}" if self.cells else "thermometer"

    def validate(self, geometry: Geometry) -> None:
        if len(self.cells) < 2:
            raise ConstraintError("a thermometer needs at least two cells", part="cells")
        super().validate(geometry)
        n = geometry.size
        if len(self.cells) > n:
            raise ConstraintError(f"a thermometer of {len(self.cells)} cells cannot increase "
                                  f"on a {n}x{n} grid (at most {n} cells)", part="cells")
        check_path(geometry, self.cells, "the thermometer")

    def native(self, geometry: Geometry) -> list[Link]:
        return [Link(self.cells, _narrow)]

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """Its cells' order literals
        (:func:`~sudoku_csp.constraints.order_lines.line_orders`)."""
        return line_orders(ctx, self.cells)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """Each cell's digits out of reach of its place, and each two cells in a row in
        order, written once per length (:func:`~sudoku_csp.constraints.translation.templated`)."""
        return as_line_order(ctx, lambda: thermo_clauses(ctx, self.cells),
                             lambda: templated(ctx, self.cells, "thermometer", _clauses))

    # -- CP-SAT -----------------------------------------------------------------------------
    def cpsat(self, model: CpSatModel) -> None:
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            model.model.add(model.value(a) < model.value(b))

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        return [f"{self.describe(geometry)} does not increase from {geometry.label(a)} to "
                f"{geometry.label(b)}"
                for a, b in zip(self.cells, self.cells[1:], strict=False) if grid[a] >= grid[b]]

    # -- explanations -----------------------------------------------------------------------
    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Thermometer order: each cell above the one before, below the one after."""
        after = _narrow(tuple(candidates[c] for c in self.cells)) or ()
        return "values increase from the bulb: " + order(geometry, self.cells, after, gone,
                                                          strict=True)

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """A thick grey line through the cells' centres and a solid grey bulb, without an
        outline, on the first: darker and smaller than an odd circle or even square, so that
        it shows inside one on the same cell."""
        side = canvas.side
        x, y = canvas.centre(self.cells[0])
        canvas.add(Layer.PATHS, [
            f'<path class="thermo-line" d="{canvas.path_through(self.cells)}" '
            f'stroke="{SHAPE_FILL}" '
            f'stroke-width="{side * 0.22:.1f}" stroke-linecap="round" '
            'stroke-linejoin="round" fill="none"/>',
            f'<circle class="thermo-bulb" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{canvas.bulb_radius:.1f}" fill="{SHAPE_FILL}"/>'])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(constraints)} thermometer{'s' * (len(constraints) != 1)}"]

    # -- generation -------------------------------------------------------------------------
    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        """Every thermometer of a random cover (:func:`thermometers`), each droppable."""
        return [], list(thermometers(geometry, grid, rng))

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        lengths = [len(c.touched()) for c in constraints]
        if not lengths:
            return "no thermometer"
        return (f"{len(lengths)} thermometer{'s' if len(lengths) > 1 else ''} of "
                f"{min(lengths)}-{max(lengths)} cells")

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["thermos"]
        if not isinstance(value, list):
            raise FieldError("thermos", "expected a list of thermometers, each a list of cell "
                                        "labels from the bulb: [[\"A1\", \"A2\", \"B3\"]]")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            found.append(checked(cls(parse_cells(geometry, item, f"thermos[{i}]", least=2)),
                                 geometry, f"thermos[{i}]"))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"thermos": [labels(geometry, c.cells) for c in constraints
                            if isinstance(c, Thermo)]}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``thermometer`` entries: ``{"lines": [[bulb, ...], ...]}``, each line one
        thermometer."""
        found: list[Constraint] = []
        for path, item in entries(document, "thermometer"):
            found += [checked(cls(cells), geometry, where)
                      for where, cells in line_cells(geometry, item, path)]
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"thermometer": [{"lines": [rcs(geometry, c.cells)]} for c in constraints
                                if isinstance(c, Thermo)]}


THERMO_LENGTH = 3
"""The fewest cells of a generated thermometer (two cells make a mere inequality)."""
THERMO_MAX_LENGTH = 6
"""The most cells of a generated thermometer (at most the grid size)."""


def thermometers(geometry: Geometry, grid: Grid, rng: random.Random) -> list[Thermo]:
    """A random cover of ``grid`` by disjoint thermometers of :data:`THERMO_LENGTH` to
    :data:`THERMO_MAX_LENGTH` cells (at most the grid size), each a path of neighbours
    (side or corner) whose values increase. Each grows from a random free cell at either
    end, to one of the two free neighbours nearest in value (above the top end, below the
    bulb), so that paths grow long; a path shorter than the least length is left out.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
    >>> thermos = thermometers(g, grid, random.Random(2))
    >>> all(grid[a] < grid[b] for t in thermos for a, b in zip(t.cells, t.cells[1:]))
    True
    """
    kings = king_neighbours(geometry.size)
    top = min(THERMO_MAX_LENGTH, geometry.size)
    low = min(THERMO_LENGTH, top)
    free = set(range(geometry.ncells))
    starts = list(range(geometry.ncells))
    rng.shuffle(starts)
    found = []
    for start in starts:
        if start not in free:
            continue
        free.discard(start)
        want = rng.randint(low, top)
        path = [start]
        while len(path) < want:
            bulb, end = path[0], path[-1]
            up = sorted((grid[o], o) for o in kings[end] if o in free and grid[o] > grid[end])
            down = sorted((-grid[o], o) for o in kings[bulb]
                          if o in free and grid[o] < grid[bulb])
            ends = [side for side in (up, down) if side]
            if not ends:
                break
            side = rng.choice(ends)
            cell = rng.choice(side[:2])[1]
            free.discard(cell)
            if side is up:
                path.append(cell)
            else:
                path.insert(0, cell)
        if len(path) >= low:
            found.append(Thermo(tuple(path)))
        else:
            free.update(path[1:])  # cells of a path too short stay free for later ones
    return found


def _clauses(ctx: CnfContext, cells: tuple[int, ...]) -> Iterator[Clause]:
    """A thermometer's clauses over ``cells`` (:meth:`Thermo.cnf`)."""
    n, x = ctx.geometry.size, ctx.x
    length = len(cells)
    for i, cell in enumerate(cells):
        for d in range(n):
            if d < i or d > n - length + i:
                yield (-x(cell, d),)
    for a, b in zip(cells, cells[1:], strict=False):
        for da in range(n):
            for db in range(da + 1):
                yield (-x(a, da), -x(b, db))
