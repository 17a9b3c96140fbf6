"""Little killers: the values along a diagonal, read from a clue outside the grid in the
direction its arrow points, add up to the clue. Digits may repeat (a diagonal is no unit).

The clue stands in the ring around the grid (:mod:`~sudoku_csp.constraints.outside`); its
diagonal runs from the cell one step inside, in one of the four diagonal directions, to the
far edge (one cell from next to a corner, N from a corner).

Translations: one automaton (:class:`~sudoku_csp.constraints.automaton.AutomatonRule`)
whose state is the running sum, kept no higher than the clue less one for each cell still
to read (so at most ``clue`` states a layer):

- native: reachable partial sums (:class:`~sudoku_csp.constraints.cage_sums.LinearSum`),
  generalised arc consistency for the whole sum (each cell keeps the digits some
  completion of the diagonal from the candidates adds up with, as the automaton does);
  and, as the little killers' joint link (:meth:`LittleKiller.joint_native`), the same
  sum read by box segments, each a set of different digits
  (:class:`~sudoku_csp.constraints.group_sums.GroupLinearSum`);
- CNF: the sum on bounds (order literals "this cell's value is v or more", "the first i
  cells add up to s or more": :func:`~sudoku_csp.constraints.sum_bounds.bounds_clauses`),
  from which the solver learns clauses about bounds, as CP-SAT does from its integers; by
  default read by box segments (``bounds_ends=segments``: each run of cells that see each
  other summed on bounds knowing its digits differ, about 10 % fewer conflicts and less
  time on the little killer puzzles of both corpora), its ends shared (the first prefix
  the first run's literals, the last run the prefix before it read backwards, 10-12 %
  fewer propagations on the generated little killers of few givens), each run's cells
  bound by only the loosest tuples that refute it (``bounds_rows=loosest``: the same
  propagation in a fifth fewer clauses on the published little killers); with
  ``sum_bounds=off``, the automaton's clauses (a state variable per running sum, unit
  propagation following the sums both ways: each cell's digits, not only its bounds), or
  by box segments (``line_sums=groups``). On the five generated little killers
  of few givens (examples/kinds_few_givens.txt) the bounds took CaDiCaL 26,000 conflicts
  to decide uniqueness in all where the automaton took 69,000 (both together no fewer, with
  more propagations); on the six published ones of the dev corpus 2,200 where the
  automaton took 3,400;
- CP-SAT: ``add_automaton`` and the linear sum of the cells' values together. On the seven
  little killer puzzles of the dev corpus and SudokuVariantSolverJS's set, the two
  together took 109 ms (integer model) and 280 ms (Boolean model) in all, the automaton
  alone 216 and 310 ms, the sum alone 267 and 929 ms ("Orbit", little killers with arrows,
  decides it: 65, 175 and 232 ms with the integer model, 225, 234 and 875 ms with the
  Boolean one).

f-puzzles: ``littlekillersum`` entries ``{"cell": "R0C4", "cells": [...], "direction":
"DL", "value": "17"}``; the diagonal is read from ``cell`` and ``direction`` and must agree
with ``cells`` when given; an entry without a value is no clue (f-puzzles keeps it as a
drawing) and is skipped. Own JSON: ``{"little_killers": [{"from": "A3", "direction":
"down-left", "sum": 17}]}``, ``from`` the first cell of the diagonal. Drawn as f-puzzles does:
the sum in the clue's place outside the grid and a small arrow in the corner it points to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import CAGE_COLOUR, Canvas, Layer, text
from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.base import Constraint, LinearTerms
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.constraints.fields import (
    FieldError,
    checked_together,
    entries,
    parse_number,
    parse_outside,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.group_sums import (
    LINE_SUMS,
    GroupLinearSum,
    GroupSum,
    exclusion_groups,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.outside import (
    DIAGONAL,
    DIRECTIONS,
    OutsideClue,
    clue_place,
    inside,
    ray,
)
from sudoku_csp.constraints.sum_bounds import (
    BOUNDS_ENDS,
    BOUNDS_ROWS,
    SUM_BOUNDS,
    bounds_clauses,
)
from sudoku_csp.constraints.translation import Clause, CnfContext, EncodingOption, Link
from sudoku_csp.constraints.wording import equal_sums, kept, seeing
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

FPUZZLES_DIRECTIONS = {"DL": "down-left", "DR": "down-right", "UL": "up-left", "UR": "up-right"}
"""f-puzzles' direction codes, and the words the tool's own JSON uses."""
_CODES = {word: code for code, word in FPUZZLES_DIRECTIONS.items()}


@dataclass(frozen=True)
class LittleKiller(OutsideClue):
    """A little killer: the values of ``cells`` (a diagonal read ``direction`` from outside
    the grid) add up to ``total``.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> clue = LittleKiller((1, 4), "down-left", 5)     # A2, B1: from above column 3
    >>> clue.violations(g, [0, 1, 2, 3, 2] + [0] * 11), clue.violations(g, [0] * 16)
    ([], ['little killer 5 down-left from A2 does not hold: A2..B1 read 1 1, which gives 2'])
    """

    names = Names("little killer", json=("little_killers",), fpuzzles=("littlekillersum",))
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LINE_SUMS, SUM_BOUNDS,
                                                                BOUNDS_ENDS, BOUNDS_ROWS)
    directions: ClassVar[tuple[str, ...]] = DIAGONAL

    @classmethod
    def clue_of(cls, values: Sequence[int], n: int) -> int | None:
        return sum(values)

    @classmethod
    def bounds(cls, n: int, length: int) -> tuple[int, int]:
        return length, length * n

    def automaton(self, geometry: Geometry) -> Automaton:
        total, length = self.total, len(self.cells)

        def step(partial: int, i: int, value: int) -> int | None:
            partial += value
            return partial if partial + (length - 1 - i) <= total else None

        return build(("little killer", total), length, geometry.size, 0, step,
                     lambda partial: partial == total)

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """The diagonal's cells add up to the clue."""
        return [(tuple((c, 1) for c in self.cells), self.total)]

    def native(self, geometry: Geometry) -> list[Link]:
        """The diagonal's sum as reachable partial sums
        (:class:`~sudoku_csp.constraints.cage_sums.LinearSum`): what the automaton keeps,
        several times faster."""
        return [Link(self.cells, LinearSum((1,) * len(self.cells), self.total).narrow)]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Per diagonal with cells that see each other (its box segments), the sum read by
        those segments, each a set of different digits, as reachable partial sums over the
        segments' sums (:class:`~sudoku_csp.constraints.group_sums.GroupLinearSum`): three
        cells of a box under a 6 hold 1, 2 and 3, never 1, 1 and 4, which the rule alone
        allows. It keeps no more than :meth:`native` does and holds the whole rule, so the
        native search runs it in place of the clue's own link
        (:attr:`~sudoku_csp.constraints.translation.Link.covers`)."""
        links = []
        for clue in constraints:
            if not isinstance(clue, LittleKiller):
                continue
            groups = exclusion_groups(geometry, clue.cells)
            if len(groups) == len(clue.cells):
                continue  # no two cells see each other: the rule's own link says it all
            cells = tuple(c for group in groups for c in group)
            sizes = tuple(len(group) for group in groups)
            links.append(Link(cells, GroupLinearSum(sizes, (1,) * len(sizes),
                                                    clue.total).narrow,
                              partial(clue.why_apart, geometry, cells), covers=clue))
        return links

    def why_apart(self, geometry: Geometry, cells: tuple[int, ...], candidates: Sequence[int],
                  gone: Sequence[tuple[int, int]]) -> str:
        """The words of the joint link over ``cells`` (the diagonal by box segments): its
        cells that see each other differ, and what the cells that lose candidates keep."""
        return (f"{seeing(geometry, self.describe(geometry), cells)}: "
                + kept(geometry, cells, candidates, gone))

    def grouped(self, geometry: Geometry) -> GroupSum:
        """The diagonal's sum read by box segments (cells that see each other)."""
        groups = exclusion_groups(geometry, self.cells)
        return GroupSum(groups, (1,) * len(groups), self.total, geometry.size)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """The diagonal's sum on bounds (:func:`~sudoku_csp.constraints.sum_bounds.
        bounds_clauses`); with ``sum_bounds=off``, as ``line_sums`` says: the automaton
        over the cells' values, or the box segments' digit sets then the running sum."""
        if ctx.option(SUM_BOUNDS) == "on":
            return bounds_clauses(ctx, self.cells, self.total, ctx.option(BOUNDS_ENDS),
                                  ctx.option(BOUNDS_ROWS))
        if ctx.option(LINE_SUMS) == "groups":
            return self.grouped(ctx.geometry).clauses(ctx)
        return super().cnf(ctx)

    def cpsat(self, model: CpSatModel) -> None:
        super().cpsat(model)
        model.model.add(sum(model.value(c) for c in self.cells) == self.total)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The diagonal's sum: each cell's bound from the clue and the others."""
        return equal_sums(geometry, [self.cells], self.total, candidates, gone)

    # -- f-puzzles --------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``littlekillersum`` entries; the diagonal is read from ``cell`` (outside the
        grid) in ``direction``, and ``cells``, when given, must list it. An entry without a
        value (or an empty one) is a drawing, not a clue: skipped."""
        found: list[Constraint] = []
        n = geometry.size
        for path, item in entries(document, "littlekillersum"):
            value = item.get("value")
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            name = item.get("cell")
            row, col = parse_outside(geometry, name, f"{path}.cell")
            if inside(n, row, col):
                raise FieldError(f"{path}.cell", f"{name!r} is inside the grid: a little killer "
                                                 f"stands outside it, in row or column 0 or "
                                                 f"{n + 1}")
            code = item.get("direction")
            direction = FPUZZLES_DIRECTIONS.get(code.strip().upper()) if isinstance(
                code, str) else None
            if direction is None:
                raise FieldError(f"{path}.direction",
                                 f"expected \"DL\", \"DR\", \"UL\" or \"UR\", got {code!r}")
            cells = ray(n, row, col, direction)
            if not cells:
                raise FieldError(f"{path}.direction", f"{code} from {name} points away from "
                                                      "the grid: the diagonal has no cell")
            if "cells" in item:
                given = parse_rcs(geometry, item["cells"], f"{path}.cells")
                if given != cells:
                    raise FieldError(f"{path}.cells",
                                     f"the diagonal {code} from {name} is "
                                     f"{', '.join(rcs(geometry, cells))}, not "
                                     f"{', '.join(rcs(geometry, given))}")
            low, high = cls.bounds(n, len(cells))
            total = parse_number(value, f"{path}.value", low=low, high=high)
            clue = cls(cells, direction, total)
            cls._check(clue, geometry, path, {"total": "value", "from": "cell"})
            found.append(clue)
        return checked_together(cls, geometry, found, "littlekillersum")

    @classmethod
    def _fpuzzles_entry(cls, clue: OutsideClue, geometry: Geometry) -> dict[str, Any]:
        row, col = clue_place(geometry.size, clue.cells, clue.direction)
        return {"cell": f"R{row + 1}C{col + 1}", "cells": rcs(geometry, clue.cells),
                "direction": _CODES[clue.direction], "value": str(clue.total)}

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The sum in the clue's place, a little back from the corner the diagonal leaves
        by, and a small arrow in that corner pointing along the diagonal."""
        side = canvas.side
        x, y = canvas.outside_centre(*clue_place(canvas.n, self.cells, self.direction))
        dy, dx = DIRECTIONS[self.direction]
        tail, tip, head = side * 0.2, side * 0.44, side * 0.12
        ax, ay = x + dx * tip, y + dy * tip
        arrow = (f"M{x + dx * tail:.1f} {y + dy * tail:.1f}L{ax:.1f} {ay:.1f}"
                 f"M{ax - dx * head:.1f} {ay:.1f}L{ax:.1f} {ay:.1f}L{ax:.1f} "
                 f"{ay - dy * head:.1f}")
        canvas.add(Layer.LABELS, [
            text(x - dx * side * 0.1, y - dy * side * 0.1, str(self.total), side * 0.32,
                 self.names.name, CAGE_COLOUR),
            f'<path class="{self.names.name}-arrow" d="{arrow}" stroke="{CAGE_COLOUR}" '
            'stroke-width="1.2" stroke-linecap="round" stroke-linejoin="round" fill="none"/>'])
