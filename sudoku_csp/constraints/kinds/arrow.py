"""Arrows: the values along each arrow's shaft add up to the number in its circle. Digits may
repeat along a shaft where no unit forbids it.

The circle may span several cells (a "pill"): their values, read in the order given, are
the digits of one number, most significant first (``3`` and ``5`` make 35; on grids over 9
a value of two digits gives two, as in Rangsk's solver: ``1`` and ``12`` make 112). One
circle may send out several arrows: each one's shaft adds up to the circle's number on its
own (f-puzzles and Rangsk's solver: "Eddies" in the dev corpus has a 7 with two shafts
of 7).

f-puzzles key ``arrow``: ``{"cells": [circle cells...], "lines": [[start, ...], ...]}``, each
line starting on a circle cell (cells of the circle at a line's start are skipped: the shaft
is what follows). JSON field ``arrows``: ``{"circle": ["A1"], "lines": [["A1", "B2", "C3"]]}``
in the same shape, cell labels.

Translations, one per arrow (shaft and circle):

- native (and CNF for a pill too long for a table): an automaton (:mod:`sudoku_csp.
  constraints.automaton`) reading the shaft, then the circle from its last (least
  significant) cell, its state the sum still to account for and the place value of the
  next circle cell: exact for any grid size and pill, generalised arc consistency natively;
- CNF: the table of its fillings where cells that see each other differ (a pill's from its
  automaton: :func:`~sudoku_csp.constraints.sum_tables.reading_clauses`) as support
  clauses; with the units (CP-SAT's joint translation, natively for several shafts), the
  tables with cells apart (:mod:`~sudoku_csp.constraints.sum_tables`, which says what they
  measured), on CP-SAT's integer model as a table;
- otherwise CP-SAT: the linear equality ``Σ shaft == Σ 10^k · circle`` on grids of at most
  9 values (the automaton's ``add_automaton`` on larger grids with a pill, where a value's
  own number of digits decides its place). Measured against the automaton
  (:data:`CPSAT_LINEAR`) on the dev corpus, uniqueness (two solutions sought): "Knight
  Moves" (24 arrows, anti-knight) 12 ms against 23 on the integer model, 19 against 51 on
  the Boolean one; "Eddies" 23 against 31 and 85 against 107; "Clipped" 5 against 8.

Drawn as f-puzzles draws it: a grey circle (a rounded outline around a pill) and from it a
thin grey line ending in an arrowhead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints import sum_tables as tables
from sudoku_csp.constraints.automaton import Automaton
from sudoku_csp.constraints.base import (
    CellName,
    Constraint,
    ConstraintError,
    LinearTerms,
    at,
)
from sudoku_csp.constraints.cage_sums import LinearSum, pairwise_peers
from sudoku_csp.constraints.fields import (
    FieldError,
    check_path,
    entries,
    labels,
    line_cells,
    parse_cells,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.group_sums import LINE_SUMS, GroupSum, exclusion_groups
from sudoku_csp.constraints.line_kinds import (
    ENDS_GREY,
    Reading,
    counted,
    distinct,
    random_path,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import Clause, CnfContext, EncodingOption, Link, with_guard
from sudoku_csp.constraints.wording import equal_sums, kept, plus, seeing
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

CPSAT_LINEAR = True
"""Whether CP-SAT gets an arrow as a linear equality (grids up to 9 values) rather than as its
automaton: measured faster (see the module docstring)."""
CPSAT_TABLE, CNF_TABLE, CNF_RULE_TABLE, NATIVE_TABLE = True, False, True, True
"""Switches of the tables (CP-SAT's and CNF's joint ones, CNF's of the rule, the native
one over several shafts), by measurement (:mod:`sudoku_csp.constraints.sum_tables`)."""


def pill_value(values: Sequence[int]) -> int:
    """The number the values of a circle's cells make, first most significant.

    >>> pill_value([3, 5]), pill_value([1, 12]), pill_value([7])
    (35, 112, 7)
    """
    return int("".join(str(v) for v in values))


def _reader(shaft: int):  # noqa: ANN202
    """The step of an arrow of ``shaft`` cells read shaft first, then the circle from its
    last cell: states ``(sum left, place value)``; the pill's place values follow from the
    values read (a value of two digits moves the next one two places)."""

    def step(state: tuple[int, int], position: int, value: int) -> tuple[int, int] | None:
        left, place = state
        if position < shaft:
            return left + value, 1
        left -= value * place
        return (left, place * 10 ** len(str(value))) if left >= 0 else None

    return step


def _accept(state: tuple[int, int]) -> bool:
    return state[0] == 0


@dataclass(frozen=True)
class Arrow(Constraint):
    """An arrow: a ``circle`` of one or more cells (a pill, first most significant) and its
    ``lines``, each a path of neighbours starting on a circle cell; each line's shaft (its
    cells after those of the circle) adds up to the circle's number.

    >>> from sudoku_csp.variants import make_geometry
    >>> arrow = Arrow((0,), ((0, 1, 2), (0, 4)))
    >>> arrow.violations(make_geometry(4), [3, 0, 1, 0, 3] + [0] * 11)
    ['arrow from A1: the shaft A2-A3 adds up to 3, the circle holds 4']
    """

    circle: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]

    names = Names("arrow", json=("arrows",), fpuzzles=("arrow",))
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LINE_SUMS, tables.ARROW_ROWS)

    def touched(self) -> tuple[int, ...]:
        seen = dict.fromkeys(self.circle)
        for line in self.lines:
            seen.update(dict.fromkeys(line))
        return tuple(seen)

    def shafts(self) -> list[tuple[int, ...]]:
        """Each line's cells after the circle cells it starts on."""
        found = []
        for line in self.lines:
            start = 0
            while start < len(line) and line[start] in self.circle:
                start += 1
            found.append(line[start:])
        return found

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return f"arrow from {at(geometry, self.circle, name)}" if self.circle else "arrow"

    def validate(self, geometry: Geometry) -> None:
        if not self.circle:
            raise ConstraintError("an arrow needs a circle of at least one cell", part="cells")
        if not self.lines:
            raise ConstraintError("an arrow needs at least one line from its circle",
                                  part="lines")
        super().validate(geometry)
        label = geometry.label
        if len(set(self.circle)) != len(self.circle):
            raise ConstraintError("an arrow's circle names a cell twice", part="cells")
        n, k = geometry.size, len(self.circle)
        low, high = pill_value([1] * k), pill_value([n] * k)
        for i, (line, shaft) in enumerate(zip(self.lines, self.shafts(), strict=True)):
            part = f"lines[{i}]"
            if not line or line[0] not in self.circle:
                raise ConstraintError("an arrow's line starts on its circle"
                                      + (f", not on {label(line[0])}" if line else ""),
                                      part=part)
            try:
                check_path(geometry, line, "an arrow's line")
            except ConstraintError as exc:
                raise ConstraintError(exc.reason, part=part) from None
            if not shaft:
                raise ConstraintError("an arrow's line needs at least one cell outside its "
                                      "circle", part=part)
            back = [c for c in shaft if c in self.circle]
            if back:
                raise ConstraintError(f"an arrow's line comes back into its circle at "
                                      f"{label(back[0])}", part=part)
            if len(shaft) > high or len(shaft) * n < low:
                raise ConstraintError(
                    f"the {len(shaft)} cells of the arrow from {label(shaft[0])} add up to "
                    f"{len(shaft)} .. {len(shaft) * n}, out of the circle's reach ({low} .. "
                    f"{high})", part=part)

    # -- translations -----------------------------------------------------------------------
    def readings(self, geometry: Geometry) -> list[tuple[tuple[int, ...], Reading]]:
        """Per shaft, the cells it reads (shaft, then the circle from its last cell) and how
        it reads them."""
        back = tuple(reversed(self.circle))
        return [((*shaft, *back), Reading(("arrow", len(shaft)), (0, 1), _reader(len(shaft)),
                                          _accept))
                for shaft in self.shafts()]

    def automata(self, geometry: Geometry) -> list[tuple[tuple[int, ...], Automaton]]:
        """Per shaft, the cells it reads and its automaton."""
        return [(cells, reading.automaton(len(cells), geometry.size))
                for cells, reading in self.readings(geometry)]

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """Per shaft, its cells less the circle's number add up to 0 (a pill's cells
        weighted by their place, 10 for the tens; a pill on a grid of values past 9 is no
        fixed sum: a value's own number of digits decides the places)."""
        k = len(self.circle)
        if k > 1 and geometry.size > 9:
            return []
        circle = tuple((c, -10 ** (k - 1 - i)) for i, c in enumerate(self.circle))
        return [(tuple((c, 1) for c in shaft) + circle, 0) for shaft in self.shafts()]

    def native(self, geometry: Geometry) -> list[Link]:
        """Per shaft, its sum less the circle's: as reachable partial sums
        (:class:`~sudoku_csp.constraints.cage_sums.LinearSum`, the automaton's deductions
        several times faster) for a circle of one cell, else the automaton."""
        if len(self.circle) == 1:
            return [Link((*shaft, *self.circle),
                         LinearSum((1,) * len(shaft) + (-1,), 0).narrow)
                    for shaft in self.shafts()]
        return [Link(cells, automaton.narrow) for cells, automaton in self.automata(geometry)]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """For each shaft and circle with cells that see each other, the sum read with those
        cells kept apart (:func:`~sudoku_csp.constraints.line_kinds.distinct`): two cells of
        a row under an 8 never hold 4 and 4, so a shaft cell there loses 4. For several
        shafts, also their table together (:meth:`apart`, :data:`NATIVE_TABLE`)."""
        links = []
        for arrow in constraints:
            if isinstance(arrow, Arrow):
                for cells, reading in arrow.readings(geometry):
                    automaton = distinct(geometry, cells, reading)
                    if automaton is not None:
                        links.append(Link(cells, automaton.narrow,
                                          partial(arrow.why_apart, geometry, cells)))
                if NATIVE_TABLE and len(arrow.lines) > 1:
                    for cells, table in arrow.apart(geometry):
                        if len(cells) > len(arrow.shafts()[0]) + 1:  # the shafts together
                            links.append(Link(cells, tables.TableNarrow(table).narrow, partial(
                                arrow.why_together, geometry, cells)))
        return links

    def apart(self, geometry: Geometry) -> list[tuple[tuple[int, ...], tables.Table]]:
        """Its tables with cells that see each other apart (:func:`~sudoku_csp.constraints.
        sum_tables.shaft_tables`): their cells (shafts, then the circle) and rows."""
        return tables.shaft_tables(geometry, self.shafts(), self.circle)

    def grouped(self, geometry: Geometry) -> list[GroupSum]:
        """Per shaft, its sum less the circle's (one cell) read by groups of cells that see
        each other."""
        found = []
        for shaft in self.shafts():
            groups = exclusion_groups(geometry, shaft)
            found.append(GroupSum((*groups, self.circle), (1,) * len(groups) + (-1,), 0,
                                  geometry.size))
        return found

    def cnf(self, ctx: CnfContext) -> list[Clause]:
        """Its shafts' tables or automata (:func:`~sudoku_csp.constraints.sum_tables.
        reading_clauses`); with ``line_sums=groups`` and a circle of one cell, by groups."""
        if ctx.option(LINE_SUMS) == "groups" and len(self.circle) == 1:
            return with_guard([c for grouped in self.grouped(ctx.geometry)
                               for c in grouped.clauses(ctx)], ctx.guard)
        return tables.reading_clauses(ctx, self.readings(ctx.geometry), len(self.circle),
                                      CNF_RULE_TABLE)

    @classmethod
    def joint_cnf(cls, ctx: CnfContext, constraints: Sequence[Constraint]) -> Iterator[Clause]:
        """Its tables with cells apart (:meth:`apart`) as support clauses, beside the rule's
        (``line_sums=cells``; :data:`CNF_TABLE`)."""
        if CNF_TABLE and ctx.option(LINE_SUMS) == "cells":
            for arrow in constraints:
                for cells, table in arrow.apart(ctx.geometry) if isinstance(arrow, Arrow) else ():
                    yield from tables.table_clauses(ctx, cells, table)

    @classmethod
    def joint_cpsat(cls, model: CpSatModel, constraints: Sequence[Constraint]) -> None:
        """On the integer model, its tables with cells apart (:meth:`apart`), beside the
        rule's linear sum (:data:`CPSAT_TABLE`)."""
        if CPSAT_TABLE and model.kind == "alldiff":
            for arrow in constraints:
                for cells, table in arrow.apart(model.geometry) if isinstance(arrow, Arrow) else ():
                    tables.add_table(model, cells, table)

    def cpsat(self, model: CpSatModel) -> None:
        if CPSAT_LINEAR and (model.geometry.size <= 9 or len(self.circle) == 1):
            value, k = model.value, len(self.circle)
            number = sum(10 ** (k - 1 - i) * value(c) for i, c in enumerate(self.circle))
            for shaft in self.shafts():
                model.model.add(sum(value(c) for c in shaft) == number)
            return
        for cells, automaton in self.automata(model.geometry):
            automaton.add_to(model, cells)

    # -- explanations -----------------------------------------------------------------------
    combines: ClassVar[bool] = True

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The sum bounds of a shaft against its circle (``A2+A3 = A1, at least 1+2 = 3``);
        for a pill, what the cells keep."""
        shaft = link.cells[:len(link.cells) - len(self.circle)]
        if len(self.circle) == 1:
            return equal_sums(geometry, [shaft, self.circle], None, candidates, gone)
        circle = ", ".join(geometry.label(c) for c in self.circle)
        return (f"{plus(geometry, shaft)} = the number {circle} read as digits: "
                + kept(geometry, link.cells, candidates, gone))

    def why_together(self, geometry: Geometry, cells: tuple[int, ...],
                     candidates: Sequence[int], gone: Sequence[tuple[int, int]]) -> str:
        """The words of the joint link reading every shaft with the circle."""
        return (f"{seeing(geometry, self.describe(geometry), cells)}: each shaft adds up to "
                f"the circle, " + kept(geometry, cells, candidates, gone))

    def why_apart(self, geometry: Geometry, cells: tuple[int, ...], candidates: Sequence[int],
                  gone: Sequence[tuple[int, int]]) -> str:
        """The words of the joint link reading ``cells`` (a shaft, then the circle) with
        those that see each other apart: the sum bounds of a shaft whose cells all see each
        other are those of different digits (``at least 1+2+3 = 6``)."""
        said = seeing(geometry, self.describe(geometry), cells)
        if len(self.circle) != 1:
            return said
        shaft = cells[:-1]
        return f"{said}: " + equal_sums(geometry, [shaft, self.circle], None, candidates,
                                        gone, [pairwise_peers(geometry, shaft)])

    # -- the check ----------------------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        label = geometry.label
        number = int("".join(str(grid[c] + 1) for c in self.circle))
        found = []
        for line in self.lines:
            shaft = [c for c in line if c not in self.circle]
            total = sum(grid[c] + 1 for c in shaft)
            if total != number:
                cells = label(shaft[0]) + (f"-{label(shaft[-1])}" if len(shaft) > 1 else "")
                found.append(f"{self.describe(geometry)}: the shaft {cells} adds up to "
                             f"{total}, the circle holds {number}")
        return found

    # -- JSON ---------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["arrows"]
        shape = ("expected a list of arrows such as [{\"circle\": [\"A1\"], \"lines\": "
                 "[[\"A1\", \"B2\", \"C3\"]]}]: each line starts on the circle")
        if not isinstance(value, list):
            raise FieldError("arrows", shape)
        found: list[Constraint] = []
        for i, item in enumerate(value):
            path = f"arrows[{i}]"
            if not isinstance(item, Mapping):
                raise FieldError(path, shape)
            unknown = set(item) - {"circle", "lines"}
            if unknown:
                raise FieldError(f"{path}.{sorted(unknown)[0]}",
                                 "unknown field: expected circle or lines")
            circle = parse_cells(geometry, item.get("circle"), f"{path}.circle")
            lines = item.get("lines")
            if not isinstance(lines, list) or not lines:
                raise FieldError(f"{path}.lines", "expected a list of lines, each a list of "
                                                  "cell labels from the circle")
            arrow = cls(circle, tuple(parse_cells(geometry, line, f"{path}.lines[{j}]",
                                                  least=2) for j, line in enumerate(lines)))
            found.append(_checked(arrow, geometry, path, "circle"))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"arrows": [{"circle": labels(geometry, c.circle),
                            "lines": [labels(geometry, line) for line in c.lines]}
                           for c in constraints if isinstance(c, Arrow)]}

    # -- f-puzzles ----------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``arrow`` entries: ``{"cells": [circle...], "lines": [[start, ...], ...]}``."""
        found: list[Constraint] = []
        for path, item in entries(document, "arrow"):
            circle = parse_rcs(geometry, item.get("cells"), f"{path}.cells")
            lines = tuple(cells for _, cells in line_cells(geometry, item, path))
            found.append(_checked(cls(circle, lines), geometry, path, "cells"))
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"arrow": [{"lines": [rcs(geometry, line) for line in c.lines],
                           "cells": rcs(geometry, c.circle)}
                          for c in constraints if isinstance(c, Arrow)]}

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The circle's outline (a rounded box around a pill in a row or column, else a
        circle per cell) and each line from the circle's edge, thin and grey, ending in an
        arrowhead on its last cell. Outlines only: highlighted cells show through."""
        side = canvas.side
        radius = side * 0.4
        stroke = f'stroke="{ENDS_GREY}" stroke-width="{side * 0.05:.1f}"'
        elements = []
        for line, shaft in zip(self.lines, self.shafts(), strict=True):
            exit_cell = line[len(line) - len(shaft) - 1]
            d = canvas.path_through((exit_cell, *shaft), trim_start=radius)
            x, y = canvas.centre(shaft[-1])
            px, py = canvas.centre((exit_cell, *shaft)[-2])
            angle = math.atan2(y - py, x - px)
            head = side * 0.25
            for turn in (-0.6, 0.6):
                hx = x - head * math.cos(angle + turn)
                hy = y - head * math.sin(angle + turn)
                d += f"M{hx:.1f} {hy:.1f}L{x:.1f} {y:.1f}"
            elements.append(f'<path class="arrow-line" d="{d}" {stroke} fill="none" '
                            'stroke-linecap="round" stroke-linejoin="round"/>')
        elements += _circle_outline(canvas, self.circle, radius, stroke)
        canvas.add(Layer.PATHS, elements)

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [counted(sum(isinstance(c, Arrow) for c in constraints), "arrow")]

    # -- samples ----------------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three arrows on random cells, their lines random king-move paths of 2-4
        cells from the circle whose shafts add up to it on ``grid`` (a path that does not is
        drawn again); on 9x9 and larger now and then a pill of two cells, and now and then a
        second line from the same circle."""
        n = geometry.size
        used: set[int] = set()
        found: list[Constraint] = []
        want = rng.randint(1, 3)
        for _ in range(200):
            if len(found) == want:
                break
            free = [c for c in range(geometry.ncells) if c not in used]
            if not free:
                break
            start = rng.choice(free)
            circle: tuple[int, ...] = (start,)
            if n >= 9 and rng.random() < 0.3:
                if start % n + 1 < n and start + 1 not in used:
                    circle = (start, start + 1)
            number = pill_value([grid[c] + 1 for c in circle])
            lines: list[tuple[int, ...]] = []
            taken = used | set(circle)
            count = 2 if rng.random() < 0.3 else 1
            for _ in range(300):
                if len(lines) == count:
                    break
                line = random_path(geometry, rng, rng.randint(2, 4), taken - {circle[-1]},
                                   start=circle[-1])
                if line and sum(grid[c] + 1 for c in line[1:]) == number:
                    lines.append(line)
                    taken |= set(line)
            if lines:
                found.append(cls(circle, tuple(lines)))
                used |= taken
        return found


def _checked(arrow: Arrow, geometry: Geometry, path: str, circle_key: str) -> Arrow:
    """``arrow`` once valid, else FieldError naming its part (``arrow[2].lines[0]``)."""
    try:
        arrow.validate(geometry)
    except ConstraintError as exc:
        part = circle_key if exc.part == "cells" else exc.part
        raise FieldError(f"{path}.{part}", exc.reason) from None
    return arrow


def _circle_outline(canvas: Canvas, circle: tuple[int, ...], radius: float, stroke: str
                    ) -> list[str]:
    """A circle around one cell; a rounded box around a pill lying straight in a row or a
    column, its cells side by side; else a circle around each cell."""
    n = canvas.n
    ordered = sorted(circle)
    rows = {c // n for c in circle}
    step = ordered[1] - ordered[0] if len(ordered) > 1 else 0
    straight = len(ordered) > 1 and step in (1, n) and all(
        b - a == step for a, b in zip(ordered, ordered[1:], strict=False)) and (
        step == n or len(rows) == 1)
    if straight:
        (x0, y0), (x1, y1) = canvas.centre(ordered[0]), canvas.centre(ordered[-1])
        return [f'<rect class="arrow-circle" x="{x0 - radius:.1f}" y="{y0 - radius:.1f}" '
                f'width="{x1 - x0 + 2 * radius:.1f}" height="{y1 - y0 + 2 * radius:.1f}" '
                f'rx="{radius:.1f}" fill="none" {stroke}/>']
    return [f'<circle class="arrow-circle" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
            f'fill="none" {stroke}/>' for x, y in map(canvas.centre, circle)]
