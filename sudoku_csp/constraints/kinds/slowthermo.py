"""Slow thermometers: values never decrease along the thermometer, from the bulb (they may
repeat where the other rules let them: cells that see each other still differ).

f-puzzles itself has no slow thermometer; the f-puzzles extension of Rangsk's solver and
other editors write it under the key ``slowthermometer`` as ``{"lines": [[...]]}``, the bulb
first. A path of neighbours, no cell twice, of any length.

Translations:

- CNF: on order literals (:func:`~sudoku_csp.constraints.order_lines.thermo_clauses`, not
  strict), a third of the conflicts on generated slow thermometers; with ``line_order=off``
  and in CP-SAT "not greater" on each step (:class:`~sudoku_csp.constraints.pairs.PairRules`:
  conflict clauses, forbidden pairs);
- native: one bounds pass each way along the whole line (each cell keeps values from the
  least of the cell before it to the greatest of the cell after it), which is arc consistency
  for the chain in one call; and, joined with the grid's units
  (:meth:`SlowThermo.joint_native`), the same pass where two cells of the line that see each
  other must strictly increase (equal values cannot share a unit), which plain pairs miss
  (A1 ≤ B2 ≤ A3 with A1 and A3 in one row: A3 > A1).

Drawn as a thermometer whose bulb is hollow: a grey line and a grey ring on the first cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from sudoku_csp.canvas import SHAPE_FILL, Canvas, Layer
from sudoku_csp.constraints.base import Constraint
from sudoku_csp.constraints.cell_orders import CELL_ORDERS
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.order_lines import (
    LINE_ORDER,
    as_line_order,
    line_orders,
    thermo_clauses,
)
from sudoku_csp.constraints.pairlines import NOT_GREATER, LinePairs
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
)
from sudoku_csp.constraints.wording import order
from sudoku_csp.geometry import Geometry


def _narrow(masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Bounds along a non-decreasing chain (digits as bit positions)."""
    out = list(masks)
    floor = 0  # the least digit of the cell before
    for i, m in enumerate(out):
        m &= ~((1 << floor) - 1)
        if not m:
            return None
        out[i] = m
        floor = (m & -m).bit_length() - 1
    top = out[-1].bit_length() - 1  # the greatest digit of the cell after
    for i in range(len(out) - 2, -1, -1):
        m = out[i] & ((1 << (top + 1)) - 1)
        if not m:
            return None
        out[i] = m
        top = m.bit_length() - 1
    return tuple(out)


def _narrow_seeing(steps: tuple[tuple[int, ...], ...], masks: tuple[int, ...]
                   ) -> tuple[int, ...] | None:
    """Bounds along a non-decreasing chain where ``steps[i][j]`` (``i < j``) is 1 when the
    two cells see each other (strictly increasing), else 0."""
    out = list(masks)
    length = len(out)
    lows = [0] * length
    for j in range(length):
        low = max((lows[i] + steps[i][j] for i in range(j)), default=0)
        m = out[j] & ~((1 << low) - 1)
        if not m:
            return None
        out[j] = m
        lows[j] = (m & -m).bit_length() - 1
    highs = [0] * length
    for i in range(length - 1, -1, -1):
        high = min((highs[j] - steps[i][j] for j in range(i + 1, length)),
                   default=out[i].bit_length() - 1)
        m = out[i] & ((1 << (high + 1)) - 1) if high >= 0 else 0
        if not m:
            return None
        out[i] = m
        highs[i] = m.bit_length() - 1
    return tuple(out)


@dataclass(frozen=True)
class SlowThermo(LinePairs):
    """A slow thermometer: values never decrease along ``cells`` (the bulb first).

    >>> from sudoku_csp.variants import make_geometry
    >>> SlowThermo((0, 5, 10)).violations(make_geometry(4), [1] + [0] * 4 + [1] + [0] * 10)
    ['slow thermometer at A1 decreases from B2 to C3 (2 to 1)']
    """

    cells: tuple[int, ...]

    names = Names("slow thermometer", json=("slow_thermos",), fpuzzles=("slowthermometer",))
    colour: ClassVar[str] = SHAPE_FILL
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LINE_ORDER, CELL_ORDERS)

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """Its cells' order literals
        (:func:`~sudoku_csp.constraints.order_lines.line_orders`)."""
        return line_orders(ctx, self.cells)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """On order literals (:func:`~sudoku_csp.constraints.order_lines.thermo_clauses`,
        not strict); with ``line_order=off`` the pairs' digit clauses, with ``both`` both."""
        return as_line_order(ctx, lambda: thermo_clauses(ctx, self.cells, strict=False),
                             lambda: super(SlowThermo, self).cnf(ctx))

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        return [(a, b, NOT_GREATER) for a, b in zip(self.cells, self.cells[1:], strict=False)]

    def native(self, geometry: Geometry) -> list[Link]:
        return [Link(self.cells, _narrow)]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        links = []
        for c in constraints:
            if not isinstance(c, SlowThermo):
                continue
            cells = c.cells
            steps = tuple(tuple(int(j > i and geometry.are_peers(a, b))
                                for j, b in enumerate(cells)) for i, a in enumerate(cells))
            if any(map(any, steps)):
                seeing = ", ".join(f"{geometry.label(a)}<{geometry.label(b)}"
                                   for i, a in enumerate(cells) for j, b in enumerate(cells)
                                   if steps[i][j])
                links.append(Link(cells, partial(_narrow_seeing, steps),
                                  f"{c.describe(geometry)}, whose cells that see each other "
                                  f"differ, so increase ({seeing})"))
        return links

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Its order: each cell not below the one before, not above the one after."""
        after = _narrow(tuple(candidates[c] for c in self.cells)) or ()
        return "values never decrease from the bulb: " + order(geometry, self.cells, after,
                                                                gone, strict=False)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        return [f"{self.describe(geometry)} decreases from {geometry.label(a)} to "
                f"{geometry.label(b)} ({grid[a] + 1} to {grid[b] + 1})"
                for a, b in zip(self.cells, self.cells[1:], strict=False) if grid[a] > grid[b]]

    def draw(self, canvas: Canvas) -> None:
        """A thick grey line through the cells' centres and a hollow grey bulb (a ring,
        white inside) on the first: a thermometer that lets values repeat."""
        side = canvas.side
        x, y = canvas.centre(self.cells[0])
        ring = side * 0.07
        canvas.add(Layer.PATHS, [
            f'<path class="slow-thermo-line" d="{canvas.path_through(self.cells)}" '
            f'stroke="{SHAPE_FILL}" '
            f'stroke-width="{side * 0.22:.1f}" stroke-linecap="round" '
            'stroke-linejoin="round" fill="none"/>',
            f'<circle class="slow-thermo-bulb" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{canvas.bulb_radius - ring / 2:.1f}" fill="#ffffff" stroke="{SHAPE_FILL}" '
            f'stroke-width="{ring:.1f}"/>'])
