"""Region-sum lines: box (or jigsaw region) borders cut the line into segments, and every
segment adds up to the same total. A line that leaves a region and comes back into it later
starts a new segment there. A line inside one region rules nothing.

The regions are the geometry's boxes (``geometry.boxes``: a jigsaw's regions on a jigsaw),
as in f-puzzles and SudokuPad. f-puzzles key ``regionsumline`` (``{"lines": [[...], ...]}``,
each line one constraint); JSON field ``region_sum_lines`` (lists of cell labels in order
along the line).

Translations:

- native (and CNF with ``region_sums=cells``): an automaton
  (:mod:`sudoku_csp.constraints.automaton`) reading the line in order, its state the first
  segment's total (once read) and the running sum of the segment being read: exact,
  generalised arc consistency natively; built per pattern of segment lengths and cached;
- CNF (``region_sums=sets``, the default): a literal per total the segments may share, and
  each segment of two cells or more read as a cage whose total is that literal's (its digit
  sets, :func:`~sudoku_csp.constraints.cage_sums.combo_clauses`, each calling for its sum);
  a one-cell segment's digit is the total. The automaton cannot see that a segment's cells
  share a region, so hold different digits (three cells under 7 may hold 1, 1 and 5 for
  it); the sets do, as a killer cage's do (:data:`REGION_SUMS` says what it measured);
- CP-SAT: each segment's sum equals the first segment's, linear, no auxiliary variables;
  measured against the automaton's ``add_automaton`` on three 9x9 grids with eight sampled
  lines, 3-7 ms against 4-13.

Drawn as f-puzzles draws it: a thick light-blue line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import accumulate
from math import comb
from typing import TYPE_CHECKING, ClassVar

from sudoku_csp.constraints.base import ConstraintError, LinearTerms
from sudoku_csp.constraints.cage_sums import combo_clauses, pairwise_peers
from sudoku_csp.constraints.group_sums import sets_adding_to
from sudoku_csp.constraints.line_kinds import LineRule, Reading
from sudoku_csp.constraints.names import Names
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


REGION_SUMS = EncodingOption(
    "region_sums", "sets", "region-sum lines in CNF: sets (each segment's digit sets, as a "
    "cage's, calling for one total the segments share) or cells (an automaton over the "
    "line's values)", ("sets", "cells"), "region-sum encoding", unrecorded="cells")
"""How the sat backend writes a region-sum line (:meth:`RegionSumLine.cnf`)."""

MOST_SETS = 4096
"""The most digit sets a line's segments may have in all, whatever their sum, for
``region_sums=sets``; a line of more (long segments on a large grid) is written as its
automaton."""


def segments(geometry: Geometry, cells: Sequence[int]) -> list[tuple[int, ...]]:
    """The line's cells cut where it crosses a region border, in order.

    >>> from sudoku_csp.variants import make_geometry
    >>> segments(make_geometry(4), (0, 1, 2, 6))
    [(0, 1), (2, 6)]
    """
    boxes = geometry.boxes
    found: list[list[int]] = []
    for i, cell in enumerate(cells):
        if i and boxes[cell] == boxes[cells[i - 1]]:
            found[-1].append(cell)
        else:
            found.append([cell])
    return [tuple(s) for s in found]


def _region_reader(lengths: tuple[int, ...]):  # noqa: ANN202
    """The step of a line whose segments have ``lengths``: states ``(total, running)``,
    ``total`` 0 until the first segment is read."""
    ends = set(accumulate(lengths))  # positions (1-based) that close a segment
    first = lengths[0]

    def step(state: tuple[int, int], position: int, value: int) -> tuple[int, int] | None:
        total, running = state
        running += value
        if total and running > total:
            return None
        if position + 1 not in ends:
            return total, running
        if position + 1 == first:
            return running, 0
        return (total, 0) if running == total else None

    return step


def _accept(state: tuple[int, int]) -> bool:
    return True


@lru_cache(maxsize=256)
def _shared_totals(lengths: tuple[int, ...], n: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Each total every segment (of ``lengths`` different digits of ``1..n``) can make,
    with each segment's digit sets for it (kept per pattern: not to be changed)."""
    low = max(_range(n, k)[0] for k in lengths)
    high = min(_range(n, k)[1] for k in lengths)
    found = {}
    for total in range(low, high + 1):
        sets = tuple(sets_adding_to(k, total, n) for k in lengths)
        if all(sets):
            found[total] = sets
    return found


def _sets_over_slots(lengths: tuple[int, ...], slots: CnfContext, cells: tuple[int, ...]
                     ) -> list[Clause]:
    """:meth:`RegionSumLine.cnf`'s clauses with ``region_sums=sets`` over the slots of a
    template: a literal per shared total, each segment's digit sets tied to it both ways
    (a set calls for its sum, a total for one of the segment's sets of that sum), a
    one-cell segment's digit equal to it; ``[()]`` when the segments share no total.
    Exact: a segment's sets are exclusive (each fixes which digits its cells hold), so one
    total holds, and the segments add up to it."""
    n, x = slots.geometry.size, slots.x
    totals = _shared_totals(lengths, n)
    if not totals:
        return [()]
    shared = dict(zip(totals, slots.new_vars(len(totals)), strict=True))
    clauses: list[Clause] = []
    start = 0
    for g, k in enumerate(lengths):
        part, start = cells[start:start + k], start + k
        if k == 1:
            for d in range(n):
                literal = shared.get(d + 1)
                clauses += [(-x(part[0], d), literal), (-literal, x(part[0], d))] \
                    if literal else [(-x(part[0], d),)]
            continue
        sums = [total for total, sets in totals.items() for _ in sets[g]]
        combos = [combo for sets in totals.values() for combo in sets[g]]
        chosen: list[int] = []
        clauses += combo_clauses(slots, part, combos, (), chosen)
        clauses += [(-s, shared[total]) for s, total in zip(chosen, sums, strict=True)]
        clauses += [(-literal, *(s for s, t in zip(chosen, sums, strict=True) if t == total))
                    for total, literal in shared.items()]
    return clauses


def _range(n: int, k: int) -> tuple[int, int]:
    """The least and greatest sums of ``k`` different values of ``1..n``."""
    return k * (k + 1) // 2, k * (2 * n - k + 1) // 2


@dataclass(frozen=True)
class RegionSumLine(LineRule):
    """A region-sum line along ``cells``: its segments in each region add up to the same
    total.

    >>> from sudoku_csp.variants import make_geometry
    >>> RegionSumLine((0, 1, 2)).violations(make_geometry(4), [0, 1, 3] + [0] * 13)
    ['region sum line at A1: the segment A3 adds up to 4, the first (A1-A2) to 3']
    """

    names = Names("region sum line", json=("region_sum_lines",), fpuzzles=("regionsumline",))
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (REGION_SUMS,)
    colour: ClassVar[str] = "#2ecbff"
    opacity: ClassVar[float] = 0.6
    width: ClassVar[float] = 0.22

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        parts = segments(geometry, self.cells)
        ranges = [_range(geometry.size, len(s)) for s in parts]
        low, high = max(r[0] for r in ranges), min(r[1] for r in ranges)
        if low > high:
            short = min(parts, key=len)
            long = max(parts, key=len)
            raise ConstraintError(
                f"the segments of the region sum line cannot add up to the same total: "
                f"{len(long)} different values in one region add up to at least {low}, "
                f"{len(short)} to at most {high} (segments from "
                f"{geometry.label(long[0])} and {geometry.label(short[0])})", part="cells")

    def meaningful(self, geometry: Geometry) -> bool:
        return len(segments(geometry, self.cells)) > 1

    def reading(self, geometry: Geometry) -> Reading:
        lengths = tuple(len(s) for s in segments(geometry, self.cells))
        return Reading(("region sum", lengths), (0, 0), _region_reader(lengths), _accept)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """The segments' digit sets calling for one shared total (:func:`_sets_over_slots`,
        built once per pattern of segment lengths), or with ``region_sums=cells`` (or more
        sets than :data:`MOST_SETS`) the automaton's clauses."""
        geometry = ctx.geometry
        if not self.meaningful(geometry) or ctx.option(REGION_SUMS) == "cells":
            return super().cnf(ctx)
        parts = segments(geometry, self.cells)
        lengths = tuple(len(s) for s in parts)
        # Counted before they are listed: two segments of 12 cells on 25x25 have millions.
        # The sets hold different digits: a segment's cells must see each other (a region
        # is a unit in every geometry made here; the automaton reads any other).
        if sum(comb(geometry.size, k) for k in lengths) > MOST_SETS or not all(
                pairwise_peers(geometry, part) for part in parts):
            return super().cnf(ctx)
        return templated(ctx, self.cells, ("region sum sets", lengths),
                         partial(_sets_over_slots, lengths))

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The sum bounds of the segments, which share one total."""
        return equal_sums(geometry, segments(geometry, self.cells), None, candidates, gone)

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """Each segment after the first less the first adds up to 0."""
        first, *rest = segments(geometry, self.cells)
        less = tuple((c, -1) for c in first)
        return [(tuple((c, 1) for c in part) + less, 0) for part in rest]

    def cpsat_rule(self, model: CpSatModel) -> None:
        value = model.value
        first, *rest = segments(model.geometry, self.cells)
        total = sum(value(c) for c in first)
        for part in rest:
            model.model.add(sum(value(c) for c in part) == total)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        parts = segments(geometry, self.cells)
        label = geometry.label

        def name(part: tuple[int, ...]) -> str:
            return label(part[0]) if len(part) == 1 else f"{label(part[0])}-{label(part[-1])}"

        total = sum(grid[c] + 1 for c in parts[0])
        found = []
        for part in parts[1:]:
            here = sum(grid[c] + 1 for c in part)
            if here != total:
                found.append(f"{self.describe(geometry)}: the segment {name(part)} adds up to "
                             f"{here}, the first ({name(parts[0])}) to {total}")
        return found
