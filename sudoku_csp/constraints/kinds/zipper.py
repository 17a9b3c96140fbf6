"""Zipper lines: cells the same distance from the line's centre add up to the same total; on a
line of odd length that total is the value of the centre cell. Digits may repeat along the
line where no unit forbids it.

f-puzzles key ``zipperline`` (``{"lines": [[...], ...]}``, each line one constraint); JSON
field ``zipper_lines`` (lists of cell labels in order along the line).

Translations:

- native (and CNF with ``zipper_sums=cells``): an automaton
  (:mod:`sudoku_csp.constraints.automaton`) reading the line from both ends inwards, pair by
  pair (first, last, second, second to last, ..., the centre last), its state the total the
  first pair fixed and the first value of the pair being read (at most about 2N² states a
  layer): exact, generalised arc consistency natively;
- CNF (``zipper_sums=totals``, the default): a literal per total the pairs may share (on an
  odd line the centre's digits), each pair's cells tied to it both ways
  (:mod:`~sudoku_csp.constraints.pair_totals`): fewer clauses than the automaton's, and a
  total the solver can learn about (docs/design.md: "Region-sum and zipper lines by their
  shared total");
- CP-SAT: per pair after the first ``value(a) + value(b) == value(first) + value(last)``,
  and ``value(centre) == value(first) + value(last)`` on an odd line: linear, no auxiliary
  variables; measured against the automaton's ``add_automaton`` on three 9x9 grids with
  eight sampled lines, 3-10 ms against 5-17.

Drawn as f-puzzles draws it: a thick lavender line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudoku_csp.constraints.base import LinearTerms
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


ZIPPER_SUMS = EncodingOption(
    "zipper_sums", "totals", "zipper lines in CNF: totals (a literal per total the pairs "
    "share, each pair's cells tied to it) or cells (an automaton over the line's values)",
    ("totals", "cells"), "zipper encoding", unrecorded="cells")
"""How the sat backend writes a zipper line (:meth:`ZipperLine.cnf`)."""


def _pairs(cells: tuple[int, ...]) -> list[tuple[int, int]]:
    """The pairs of cells the same distance from the centre, outermost first."""
    return [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]


def _zipper_reader(length: int):  # noqa: ANN202
    """The step of a zipper of ``length`` cells read outside in (see the module docstring):
    states ``(total, pending)``, 0 where not known yet."""
    centre = length - 1 if length % 2 else -1

    def step(state: tuple[int, int], position: int, value: int) -> tuple[int, int] | None:
        total, pending = state
        if position == centre:
            return (total, 0) if value == total else None
        if position % 2 == 0:
            return total, value
        pair = pending + value
        if position == 1:
            return pair, 0
        return (total, 0) if pair == total else None

    return step


def _accept(state: tuple[int, int]) -> bool:
    return True


def _totals_over_slots(slots: CnfContext, cells: tuple[int, ...]) -> list[Clause]:
    """:meth:`ZipperLine.cnf`'s clauses with ``zipper_sums=totals`` over the slots of a
    template: its pairs adding up to one total, the centre's value on an odd line
    (:func:`~sudoku_csp.constraints.pair_totals.pair_total_clauses`)."""
    centre = cells[len(cells) // 2] if len(cells) % 2 else None
    return pair_total_clauses(slots, _pairs(cells), centre)


@dataclass(frozen=True)
class ZipperLine(LineRule):
    """A zipper line along ``cells``: cells the same distance from its centre add up to the
    same total, the centre's value on a line of odd length.

    >>> from sudoku_csp.variants import make_geometry
    >>> ZipperLine((0, 1, 2)).violations(make_geometry(4), [0, 3, 1] + [0] * 13)
    ['zipper line at A1: A1 and A3 add up to 3, but the centre A2 holds 4']
    """

    names = Names("zipper line", json=("zipper_lines",), fpuzzles=("zipperline",))
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (ZIPPER_SUMS,)
    colour: ClassVar[str] = "#c69ff2"
    opacity: ClassVar[float] = 0.7
    width: ClassVar[float] = 0.22

    def sequence(self, geometry: Geometry) -> tuple[int, ...]:
        middle = (self.cells[len(self.cells) // 2],) if len(self.cells) % 2 else ()
        return (*(c for pair in _pairs(self.cells) for c in pair), *middle)

    def reading(self, geometry: Geometry) -> Reading:
        return Reading(("zipper", len(self.cells)), (0, 0), _zipper_reader(len(self.cells)),
                       _accept)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """The pairs tied to one shared total (:func:`_totals_over_slots`, built once per
        length), or with ``zipper_sums=cells`` the automaton's clauses."""
        if not self.meaningful(ctx.geometry) or ctx.option(ZIPPER_SUMS) == "cells":
            return super().cnf(ctx)
        return templated(ctx, self.cells, ("zipper totals",), _totals_over_slots)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The sum bounds of the pairs (and the centre) that share one total."""
        middle = [(self.cells[len(self.cells) // 2],)] if len(self.cells) % 2 else []
        return equal_sums(geometry, [*_pairs(self.cells), *middle], None, candidates, gone)

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """Each pair after the first less the first pair adds up to 0; the centre of an
        odd line less the first pair too."""
        (a, b), *rest = _pairs(self.cells)
        first = ((a, -1), (b, -1))
        found: list[tuple[LinearTerms, int]] = [(((c, 1), (d, 1), *first), 0)
                                                for c, d in rest]
        if len(self.cells) % 2:
            found.append((((self.cells[len(self.cells) // 2], 1), *first), 0))
        return found

    def cpsat_rule(self, model: CpSatModel) -> None:
        value = model.value
        (a, b), *rest = _pairs(self.cells)
        total = value(a) + value(b)
        for c, d in rest:
            model.model.add(value(c) + value(d) == total)
        if len(self.cells) % 2:
            model.model.add(value(self.cells[len(self.cells) // 2]) == total)

    def meaningful(self, geometry: Geometry) -> bool:
        return len(self.cells) > 2

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        label, cells = geometry.label, self.cells
        found = []
        first, last = cells[0], cells[-1]
        total = grid[first] + grid[last] + 2
        for i in range(1, len(cells) // 2):
            a, b = cells[i], cells[-1 - i]
            if grid[a] + grid[b] + 2 != total:
                found.append(f"{self.describe(geometry)}: {label(a)} and {label(b)} add up to "
                             f"{grid[a] + grid[b] + 2}, {label(first)} and {label(last)} to "
                             f"{total}")
        if len(cells) % 2:
            centre = cells[len(cells) // 2]
            if grid[centre] + 1 != total:
                found.append(f"{self.describe(geometry)}: {label(first)} and {label(last)} add "
                             f"up to {total}, but the centre {label(centre)} holds "
                             f"{grid[centre] + 1}")
        return found
