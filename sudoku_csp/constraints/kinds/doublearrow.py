"""Double arrows: the two end cells of the line (its circles) add up to the sum of the cells
strictly between them. Digits may repeat along the line where no unit forbids it.

f-puzzles key ``doublearrow`` (``{"lines": [[...], ...]}``, each line one constraint); JSON
field ``double_arrows`` (lists of cell labels, end to end). A line needs at least three
cells (with none between, the ends would have to add up to nothing).

Translations:

- native: an automaton (:mod:`sudoku_csp.constraints.automaton`) reading both ends, then
  the cells between, its state what the cells between still have to add up to (at most 2N
  states a layer): exact, and generalised arc consistency;
- CNF (:data:`DOUBLE_ARROWS`): a line of three or four cells as pairs adding up to one
  total, the ends one pair and the cell between the total, or the two between the other
  pair (:mod:`~sudoku_csp.constraints.pair_totals`); a longer line as the readings that
  automaton accepts with the cells that see each other apart, as a table's support
  clauses, a selector per choice of digit set for the ends and for each run of cells
  between that see each other (:func:`~sudoku_csp.constraints.sum_tables.accepted_clauses`);
  the automaton's clauses where the table would pass
  :data:`~sudoku_csp.constraints.sum_tables.TABLE_MOST` rows;
- CP-SAT: the linear equality ``value(end1) + value(end2) == Σ value(middle)``, which
  CP-SAT propagates by bounds without auxiliary variables: measured against the
  automaton's ``add_automaton`` on three 9x9 grids with eight sampled lines, 4-6 ms
  against 4-10.

Drawn as f-puzzles draws it: a thin grey line with a circle at each end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudoku_csp.constraints import sum_tables as tables
from sudoku_csp.constraints.base import ConstraintError, LinearTerms
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.constraints.line_kinds import LineRule, Reading
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pair_totals import pair_total_clauses
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    EncodingOption,
    Link,
    templated,
)
from sudoku_csp.constraints.wording import equal_sums
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


DOUBLE_ARROWS = EncodingOption(
    "double_arrows", "totals", "double arrows in CNF: totals (a line of three or four cells "
    "as pairs adding up to one total, the ends and the cells between; a longer one as sets), "
    "sets (the table of the line's fillings, cells that see each other apart, a selector per "
    "choice of digit set for the ends and for each run of cells between that see each "
    "other), table (a selector per filling) or automaton (the automaton's clauses)",
    ("totals", "sets", "table", "automaton"), "double-arrow encoding")
"""How the sat backend writes a double arrow. ``totals`` by measurement (docs/design.md,
"Region-sum and zipper lines by their shared total"): on seventeen generated double arrows
of few givens, 93 -> 74 ms a puzzle at the median, at more conflicts each cheaper. ``sets``
over the others by measurement: on
twenty generated double-arrow puzzles of few givens (``generate --kind double-arrow --size 9
--symmetry none --count 10``, seeds 1 and 2) conflicts to decide uniqueness summed over
MiniSat, Glucose 4 and CaDiCaL 1.5.3 (fresh mode) 522,000 with the automaton, 152,000 with
the table a row at a time, 161,000 by sets in 70 % of the table's clauses; CPU per puzzle
(bare ``sat``, median) 128 and 157 ms -> 54 and 92 ms."""


def _step(state: int, position: int, value: int) -> int | None:
    if position < 2:
        return state + value
    left = state - value
    return left if left >= 0 else None


def _done(state: int) -> bool:
    return state == 0


def _totals_over_slots(slots: CnfContext, cells: tuple[int, ...]) -> list[Clause]:
    """:meth:`DoubleArrow.cnf`'s clauses with ``double_arrows=totals`` (three or four cells)
    over the slots of a template: the ends a pair adding up to the cell between, or to
    the total the two cells between add up to."""
    ends = (cells[0], cells[-1])
    if len(cells) == 3:
        return pair_total_clauses(slots, [ends], centre=cells[1])
    return pair_total_clauses(slots, [ends, (cells[1], cells[2])])


@dataclass(frozen=True)
class DoubleArrow(LineRule):
    """A double arrow along ``cells``: the first and last cells add up to the cells between.

    >>> from sudoku_csp.variants import make_geometry
    >>> DoubleArrow((0, 1, 2)).violations(make_geometry(4), [0, 3, 1] + [0] * 13)
    ['double arrow at A1: its ends A1 and A3 add up to 3, the cells between to 4']
    """

    names = Names("double arrow", json=("double_arrows",), fpuzzles=("doublearrow",))
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (DOUBLE_ARROWS,)
    least: ClassVar[int] = 3
    colour: ClassVar[str] = "#a0a0a0"
    width: ClassVar[float] = 0.05
    ends: ClassVar[str] = "circle"
    ends_first: ClassVar[bool] = True

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        middle = len(self.cells) - 2
        if middle > 2 * geometry.size:
            raise ConstraintError(
                f"the {middle} cells between the ends of a double arrow add up to at least "
                f"{middle}, more than two ends can reach on a {geometry.size}x{geometry.size} "
                f"grid ({2 * geometry.size})", part="cells")

    def reading(self, geometry: Geometry) -> Reading:
        return Reading(("double arrow",), 0, _step, _done)

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """The two ends less the cells between add up to 0."""
        ends = (self.cells[0], self.cells[-1])
        return [(tuple((c, 1) for c in ends) + tuple((c, -1) for c in self.cells[1:-1]), 0)]

    def native(self, geometry: Geometry) -> list[Link]:
        """The ends less the cells between as reachable partial sums
        (:class:`~sudoku_csp.constraints.cage_sums.LinearSum`): the automaton's deductions,
        several times faster."""
        cells = self.sequence(geometry)
        return [Link(cells, LinearSum((1, 1) + (-1,) * (len(cells) - 2), 0).narrow)]

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """As ``double_arrows`` says (:data:`DOUBLE_ARROWS`): a line of three or four cells
        as pairs adding up to one total (``totals``: the ends, and the cell between as the
        total or the two between as a pair,
        :func:`~sudoku_csp.constraints.pair_totals.pair_total_clauses`); the table of the
        line's fillings (ends first), cells that see each other apart
        (:func:`~sudoku_csp.constraints.sum_tables.accepted_clauses`), by digit sets of the
        ends and of each run of cells between that see each other (``sets``, and a longer
        line under ``totals``) or a row at a time (``table``); or the automaton's
        clauses."""
        how = ctx.option(DOUBLE_ARROWS)
        geometry = ctx.geometry
        if how == "automaton" or not self.meaningful(geometry):
            return super().cnf(ctx)
        if how == "totals" and len(self.cells) <= 4:
            return templated(ctx, self.cells, ("double arrow totals",), _totals_over_slots)
        cells = self.sequence(geometry)
        runs = (tables.sum_runs(geometry, cells, (0, 2), (2, len(cells)), least=2)
                if how in ("sets", "totals") else None)
        return tables.accepted_clauses(ctx, cells, self.reading(geometry), runs)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The sum bounds of the ends against the cells between."""
        ends = (self.cells[0], self.cells[-1])
        return equal_sums(geometry, [ends, self.cells[1:-1]], None, candidates, gone)

    def cpsat_rule(self, model: CpSatModel) -> None:
        value, cells = model.value, self.cells
        model.model.add(value(cells[0]) + value(cells[-1])
                        == sum(value(c) for c in cells[1:-1]))

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        first, last = self.cells[0], self.cells[-1]
        ends = grid[first] + 1 + grid[last] + 1
        between = sum(grid[c] + 1 for c in self.cells[1:-1])
        if ends == between:
            return []
        return [f"{self.describe(geometry)}: its ends {geometry.label(first)} and "
                f"{geometry.label(last)} add up to {ends}, the cells between to {between}"]
