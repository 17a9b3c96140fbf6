"""Between lines: the cells strictly between the line's two ends (its circles) hold values
strictly between the values of the ends (either end may be the greater). A line of two cells
rules nothing, as in f-puzzles and Rangsk's solver.

f-puzzles key ``betweenline`` (``{"lines": [[...], ...]}``, each line one constraint); JSON
field ``between_lines`` (lists of cell labels, end to end).

Translations:

- CNF: on order literals (:func:`~sudoku_csp.constraints.order_lines.between_clauses`), a
  fifth of the automaton's conflicts on generated between lines; with ``line_order=off``
  the automaton's clauses;
- native (and CNF with ``line_order=off``): an automaton
  (:mod:`sudoku_csp.constraints.automaton`) reading both ends, then the cells between, its
  state the ends' values in order (at most N²/2 states a layer): natively generalised arc
  consistency (each end keeps only values that leave room for the cells between, each
  middle cell only values inside some pair of ends), in CNF (``line_order=off``) exact
  clauses that unit propagation follows both ways;
- CP-SAT: one Boolean "the first end is the smaller", enforcing ``first < middle < last``
  or ``last < middle < first`` on each middle cell. Measured against the automaton's
  ``add_automaton`` (:data:`CPSAT_LINEAR`): on "Hay Fever" and "Dotween" of the dev corpus
  7 and 5 ms against 11 and 9 (integer model), even on the Boolean model; on three 9x9
  grids with ten sampled lines, 8-9 ms against 12-14.

Drawn as f-puzzles draws it: a thick grey line with a circle at each end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.constraints.cell_orders import CELL_ORDERS
from sudoku_csp.constraints.line_kinds import LineRule, Reading
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.order_lines import (
    LINE_ORDER,
    as_line_order,
    between_clauses,
    line_orders,
)
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
)
from sudoku_csp.constraints.wording import marked
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

CPSAT_LINEAR = True
"""Whether CP-SAT gets a between line as linear inequalities enforced by Boolean choices rather
than as its automaton: measured faster (see the module docstring)."""


def _step(state: tuple[int, ...], position: int, value: int) -> tuple[int, ...] | None:
    if position == 0:
        return (value,)
    if position == 1:
        return (min(state[0], value), max(state[0], value))
    low, high = state
    return state if low < value < high else None


def _accept(state: tuple[int, ...]) -> bool:
    return True


@dataclass(frozen=True)
class BetweenLine(LineRule):
    """A between line along ``cells``: the cells between the ends hold values strictly
    between the ends' values.

    >>> from sudoku_csp.variants import make_geometry
    >>> BetweenLine((0, 1, 2)).violations(make_geometry(4), [1, 3, 2] + [0] * 13)
    ['between line at A1: A2 holds 4, not strictly between 2 and 3']
    """

    names = Names("between line", json=("between_lines",), fpuzzles=("betweenline",))
    colour: ClassVar[str] = "#c0c0c0"
    width: ClassVar[float] = 0.15
    ends: ClassVar[str] = "circle"
    ends_first: ClassVar[bool] = True
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LINE_ORDER, CELL_ORDERS)

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        if len(self.cells) > 2 and geometry.size < 3:
            raise ConstraintError(f"no value lies strictly between two others on a "
                                  f"{geometry.size}x{geometry.size} grid", part="cells")

    def meaningful(self, geometry: Geometry) -> bool:
        return len(self.cells) > 2

    combines: ClassVar[bool] = False  # the ends' bounds, read like a thermometer's

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        first, last, middle = self.cells[0], self.cells[-1], self.cells[1:-1]
        return (f"{', '.join(geometry.label(c) for c in middle)} "
                f"{'lies' if len(middle) == 1 else 'lie'} strictly between the ends "
                f"{marked(geometry, first, candidates[first])} and "
                f"{marked(geometry, last, candidates[last])}")

    def reading(self, geometry: Geometry) -> Reading:
        return Reading(("between",), (), _step, _accept)

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """Its cells' order literals
        (:func:`~sudoku_csp.constraints.order_lines.line_orders`)."""
        if not self.meaningful(ctx.geometry):
            return ()
        return line_orders(ctx, self.cells)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """On order literals (:func:`~sudoku_csp.constraints.order_lines.between_clauses`);
        with ``line_order=off`` the automaton's clauses, with ``both`` both."""
        if not self.meaningful(ctx.geometry):
            return super().cnf(ctx)
        return as_line_order(ctx, lambda: between_clauses(ctx, self.cells),
                             lambda: super(BetweenLine, self).cnf(ctx))

    def cpsat_rule(self, model: CpSatModel) -> None:
        if not CPSAT_LINEAR:
            super().cpsat_rule(model)
            return
        value, cp = model.value, model.model
        a, b = value(self.cells[0]), value(self.cells[-1])
        up = cp.new_bool_var("")
        for c in self.cells[1:-1]:
            cp.add(a < value(c)).only_enforce_if(up)
            cp.add(value(c) < b).only_enforce_if(up)
            cp.add(b < value(c)).only_enforce_if(~up)
            cp.add(value(c) < a).only_enforce_if(~up)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        first, last = grid[self.cells[0]] + 1, grid[self.cells[-1]] + 1
        low, high = min(first, last), max(first, last)
        return [f"{self.describe(geometry)}: {geometry.label(c)} holds {grid[c] + 1}, not "
                f"strictly between {low} and {high}"
                for c in self.cells[1:-1] if not low < grid[c] + 1 < high]
