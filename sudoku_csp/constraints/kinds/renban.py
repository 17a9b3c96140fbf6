"""Renban lines: the cells of the line hold different values that form a run of consecutive
values, in any order (a line of 4 cells: 3, 5, 2, 4).

A line holds at most N cells (N different values) and passes no cell twice.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): every two cells of the line
hold different values at most ``L - 1`` apart (``L`` cells). That is exact: ``L`` different
values whose greatest and least are at most ``L - 1`` apart are exactly a run of ``L``
consecutive values. Arc consistency natively, tables in CP-SAT. In CNF (sat option
``renban_runs``, :func:`~sudoku_csp.constraints.order_lines.run_clauses`) the run's start on
order literals with each of the run's values held by a cell, and cells that share no unit
different: a seventh of the pair clauses' conflicts on "159", two fifths on the generated
renbans of few givens (``renban_runs=off``: the pairs' support or conflict clauses); and
(``renban_seers``) a value of the run leaves the cells off a line of three cells or more
that see all of it, as the native joint link below says: "159" 801 -> 281 conflicts.
Natively also what pairs cannot see: the run is one of the windows of ``L`` consecutive
values that the cells can take one each (Hall's condition, checked exactly by the sets of
values the first cells can have taken, as sandwiches and X-sums hold their digit sets:
:func:`~sudoku_csp.constraints.group_sums.set_supports`, up to :data:`WINDOW_EXACT`
cells), so each cell keeps exactly its values of some
filling of some such window (generalised arc consistency: a value of every window that
only one cell can hold is that cell's). Joined with the grid (:meth:`Renban.joint_native`):
a value whose places in a unit all lie on the line is on the line, so only windows holding
it are left; and a value every window left holds leaves each cell that sees all its places
on the line (a peer of each: the rest of their unit, or a cell in the row of one and the
column of another). Two renbans sharing cells are read together (:class:`_Overlap`): their
runs overlap in the shared cells' values, and in others only through pairs of cells (one of
each line's own) that do not see each other. On "159" (zetamath: sixteen renbans and three
dots, no givens) the native search took 26,000 nodes with pairs alone, 10,000 with the
windows, 165 with the units too and 31 with all of this. On the five generated renbans of
examples/kinds_few_givens.txt (two to eight givens): 47,000, over 85,000, over 120,000,
3,400 and over 30,000 nodes before (four undecided after a minute); 3,600, 1,500, 49, 162
and 10,600 now.
Drawn as f-puzzles does: a thick pink-purple line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial, reduce
from itertools import combinations, permutations
from operator import or_
from typing import ClassVar

from sudoku_csp.constraints.base import Constraint
from sudoku_csp.constraints.cage_sums import apart_clauses, seers_of
from sudoku_csp.constraints.group_sums import set_supports
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.order_lines import (
    RENBAN_RUNS,
    RENBAN_SEERS,
    SEERS_FROM,
    run_clauses,
)
from sudoku_csp.constraints.pairlines import LinePairs
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.constraints.remembered import state_cache
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    EncodingOption,
    Guarded,
    Link,
    gather,
    with_guard,
)
from sudoku_csp.constraints.wording import digit_list, digits_of
from sudoku_csp.geometry import Geometry, bits


@lru_cache(maxsize=32)
def _within(length: int) -> Relation:
    """Two different values of a run of ``length`` consecutive values."""
    spread = length - 1
    return Relation(f"renban of {length}", lambda x, y: x != y and abs(x - y) <= spread,
                    f"{{a}} and {{b}} differ, by at most {spread}")


@state_cache(maxsize=1 << 15)
def _fits(n: int, masks: tuple[int, ...]) -> tuple[int, ...]:
    """The windows of ``len(masks)`` consecutive digits (of ``n``) the line can fill: its
    cells can take the window's digits one each (:func:`_window_support`)."""
    length = len(masks)
    union = 0
    for m in masks:
        union |= m
    return tuple(w for w in ((1 << length) - 1 << s for s in range(n - length + 1))
                 if union & w == w and _window_support(masks, w) is not None)


Gather = Callable[[Sequence[int]], tuple[int, ...]]


def _runs(n: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Each cell's digits that some filling of a run the line can be gives it (:func:`_line`)."""
    found = _line(n, masks)
    return None if found is None else found[0]


class _Joint:
    """The line read with the grid's units, a link's narrowing: ``masks`` are the line's
    cells, then every peer of one of them; ``units``: each full unit the line crosses, as
    (its line cells, its other cells), each a :func:`gather` of their positions; ``peers``:
    per line cell, its peers' positions as a bit mask.

    - A digit whose places in a unit all lie on the line is on the line: only runs holding
      it are left (:func:`_line` with ``held``).
    - A digit every run left holds is on the line, at one of its places there: a cell that
      sees every such place (a peer of each, on the line or off it) does not hold it.
    """

    def __init__(self, n: int, length: int, units: tuple[tuple[Gather, Gather], ...],
                 peers: tuple[int, ...]) -> None:
        self.n, self.length, self.units, self.peers = n, length, units, peers
        # the line cells (a bit mask) -> the positions of the cells that see them all, and
        # their gather (None: no cell does)
        self.sights: dict[int, tuple[tuple[int, ...], Gather | None]] = {}

    def sight(self, holders: int) -> tuple[tuple[int, ...], Gather | None]:
        """The positions of the cells that see every line cell of ``holders`` (a bit mask),
        and a :func:`gather` of them (None when there are none)."""
        found = self.sights.get(holders)
        if found is None:
            sees = -1
            for i, mask in enumerate(self.peers):
                if holders >> i & 1:
                    sees &= mask
            positions = tuple(bits(sees))
            found = self.sights[holders] = (positions,
                                            gather(positions) if positions else None)
        return found

    def __call__(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        length = self.length
        out = list(masks)
        held = 0
        while True:
            found = _line(self.n, tuple(out[:length]), held)
            if found is None:
                return None
            keep, required = found
            out[:length] = keep
            changed = False
            while required:
                bit = required & -required
                required ^= bit
                holders = 0
                for i in range(length):
                    if out[i] & bit:
                        holders |= 1 << i
                if not holders:  # taken from the line by a digit before it
                    return None
                positions, gather = self.sight(holders)
                if gather is None or not reduce(or_, gather(out)) & bit:
                    continue
                for k in positions:
                    if out[k] & bit:
                        out[k] &= ~bit
                        if not out[k]:
                            return None
                        changed = True
            for on_line, others in self.units:
                near = reduce(or_, on_line(out)) & ~held
                if near:
                    near &= ~reduce(or_, others(out))
                    if near:
                        held |= near
                        changed = True
            if not changed:
                return tuple(out)


class _Overlap:
    """Two renbans sharing cells, a link's narrowing over the cells of both: ``shared``,
    ``first`` and ``second`` are the positions of the shared cells and of each line's own;
    ``seen``: the pairs (i, j) of the ``i``-th cell of ``first`` and the ``j``-th of
    ``second`` that see each other. The lines' runs overlap in at least the shared cells'
    values: for each pair of windows and each choice of those values, the shared cells fill
    that choice, and each line's own cells the rest of its window, one each. A value of
    both runs that no shared cell holds is in a cell of each line's own, two cells that
    must not see each other: when every such pair does, the windows meet in exactly the
    shared values; when each line has at most :data:`EXACT_MOST` cells of its own, the
    fillings of the two are paired exactly. Each cell keeps the values some such filling
    gives it. Results are remembered per masks (at most :data:`REMEMBERED`)."""

    REMEMBERED = 1 << 14
    EXACT_MOST = 3

    def __init__(self, n: int, shared: tuple[int, ...], first: tuple[int, ...],
                 second: tuple[int, ...], seen: tuple[tuple[int, int], ...]) -> None:
        self.n, self.shared, self.first, self.second = n, shared, first, second
        self.seen = seen
        self.apart = len(seen) == len(first) * len(second)
        self.exact = max(len(first), len(second)) <= self.EXACT_MOST
        self.memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def __call__(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        if masks in self.memo:
            return self.memo[masks]
        shared = tuple(masks[i] for i in self.shared)
        first = tuple(masks[i] for i in self.first)
        second = tuple(masks[i] for i in self.second)
        k = len(shared)
        out = [0] * len(masks)
        for w1 in _fits(self.n, shared + first):
            for w2 in _fits(self.n, shared + second):
                both = w1 & w2
                extra = both.bit_count() - k
                if extra < 0 or extra and self.apart:
                    continue
                for held in _subsets(both, k):
                    on_both = _window_support(shared, held)
                    if on_both is None:
                        continue
                    if extra and self.exact:
                        paired = self.paired(first, w1 & ~held, second, w2 & ~held)
                        if paired is None:
                            continue
                        on_first, on_second = paired
                    else:
                        one = _window_support(first, w1 & ~held)
                        other = _window_support(second, w2 & ~held)
                        if one is None or other is None:
                            continue
                        on_first, on_second = one, other
                    for positions, found in ((self.shared, on_both), (self.first, on_first),
                                             (self.second, on_second)):
                        for i, m in zip(positions, found, strict=True):
                            out[i] |= m
        result = tuple(out) if all(out) else None
        if len(self.memo) >= self.REMEMBERED:
            self.memo.clear()
        self.memo[masks] = result
        return result


    def paired(self, first: tuple[int, ...], one: int, second: tuple[int, ...], other: int
               ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Each own cell's values in some filling of ``one`` by ``first`` and of ``other``
        by ``second`` where no two cells that see each other hold the same value."""
        on_first, on_second = [0] * len(first), [0] * len(second)
        seconds = _fillings(second, other)
        for p in _fillings(first, one):
            for q in seconds:
                if any(p[i] == q[j] for i, j in self.seen):
                    continue
                for i, d in enumerate(p):
                    on_first[i] |= 1 << d
                for j, d in enumerate(q):
                    on_second[j] |= 1 << d
        return (tuple(on_first), tuple(on_second)) if all(on_first) else None


@state_cache(maxsize=1 << 14)
def _fillings(masks: tuple[int, ...], window: int) -> tuple[tuple[int, ...], ...]:
    """The ways ``masks`` take the values of ``window`` one each (digit tuples)."""
    return tuple(p for p in permutations(bits(window))
                 if all(m >> d & 1 for m, d in zip(masks, p, strict=True)))


def _subsets(mask: int, k: int) -> list[int]:
    """The subsets of ``k`` bits of ``mask``."""
    return [sum(1 << d for d in chosen) for chosen in combinations(bits(mask), k)]


WINDOW_EXACT = 16
"""Lines of up to so many cells are read exactly against a window
(:func:`~sudoku_csp.constraints.group_sums.set_supports`: tables of ``2**k`` bits for
``k`` cells); a longer one, only on grids of 17 digits or more, as a cage narrows."""


def _window_support(masks: tuple[int, ...], window: int) -> tuple[int, ...] | None:
    """Each cell's digits of ``window`` (as many digits as cells) that some one-to-one
    filling of the window gives it, every cell taking one of its candidates; None when no
    filling exists (Hall's condition fails): a digit set held against cells, as sandwiches
    and X-sums read theirs."""
    return set_supports(window, masks, WINDOW_EXACT)


@state_cache(maxsize=1 << 15)
def _line(n: int, masks: tuple[int, ...], held: int = 0) -> tuple[tuple[int, ...], int] | None:
    """Exactly what the line allows: each cell's digits that some filling of a run of
    ``len(masks)`` consecutive digits (of ``n``) holding every digit of ``held`` gives it,
    and the digits every such run holds; None when no run can be filled."""
    keep = [0] * len(masks)
    required = -1
    for w in _fits(n, masks):
        if held & ~w:
            continue
        support = _window_support(masks, w)
        assert support is not None  # a window _fits gives can be filled
        required &= w
        keep = [a | b for a, b in zip(keep, support, strict=True)]
    if required == -1:
        return None
    return tuple(keep), required


@dataclass(frozen=True)
class Renban(LinePairs):
    """A renban line: ``cells`` hold a set of consecutive values, in any order.

    >>> from sudoku_csp.variants import make_geometry
    >>> Renban((0, 1, 2)).violations(make_geometry(4), [0, 3, 1] + [0] * 13)
    ['renban line at A1 holds 1, 4, 2: not a run of consecutive values']
    """

    cells: tuple[int, ...]

    names = Names("renban", json=("renbans",), fpuzzles=("renban",), noun="renban line")
    colour: ClassVar[str] = "#f067f0"
    width: ClassVar[float] = 0.25
    prefix_closed: ClassVar[bool] = False

    @classmethod
    def longest(cls, n: int) -> int | None:
        return n

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        rel = _within(len(self.cells))
        cells = self.cells
        return [(cells[i], cells[j], rel)
                for i in range(len(cells)) for j in range(i + 1, len(cells))]

    def native(self, geometry: Geometry) -> list[Link]:
        return [*super().native(geometry), Link(self.cells, partial(_runs, geometry.size))]

    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (RENBAN_RUNS, RENBAN_SEERS)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """On the run's start (:func:`~sudoku_csp.constraints.order_lines.run_clauses`)
        with each two cells that share no unit different (the grid keeps the others apart)
        and, with ``renban_seers`` on and at least
        :data:`~sudoku_csp.constraints.order_lines.SEERS_FROM` cells, the run's values out of
        the cells that see the whole line; with ``renban_runs=off`` the pair clauses, with
        ``both`` both."""
        choice = ctx.option(RENBAN_RUNS)
        if choice == "off":
            return super().cnf(ctx)
        clauses: list[Clause] = Guarded() if ctx.guard else []
        clauses += super().cnf(ctx) if choice == "both" else apart_clauses(ctx, self.cells)
        seers: tuple[int, ...] = ()
        if len(self.cells) >= SEERS_FROM and ctx.option(RENBAN_SEERS) == "on":
            seers = seers_of(ctx.geometry, self.cells)
        clauses += with_guard(run_clauses(ctx, self.cells, seers), ctx.guard)
        return clauses

    combines: ClassVar[bool] = True

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Two cells' spread (the pair rule), or the runs the line can still be: ``its 4
        digits are a run of 4: 3..6 or 4..7, each holding 4/5/6``."""
        if len(link.cells) == 2:
            return super().why_link(geometry, candidates, link, gone)
        length = len(self.cells)
        fits = _fits(geometry.size, tuple(candidates[c] for c in self.cells))
        runs = " or ".join(f"{w.bit_length() - length + 1}..{w.bit_length()}" for w in fits)
        required = -1
        for w in fits:
            required &= w
        held = (f", each holding {digit_list(geometry, digits_of(required))}"
                if fits and required else "")
        return f"its {length} digits are a run of {length}: {runs or 'none fits'}{held}"

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Per renban, the line read with the grid's units and peers (:class:`_Joint`): a
        digit a unit can place only on the line is on it, and a digit every run holds
        leaves the cells that see all its places on the line."""
        links = []
        for c in constraints:
            if not isinstance(c, Renban):
                continue
            length = len(c.cells)
            cells = list(c.cells)
            position = {cell: i for i, cell in enumerate(cells)}
            for cell in c.cells:
                for x in geometry.peers[cell]:
                    if x not in position:
                        position[x] = len(cells)
                        cells.append(x)
            line = set(c.cells)
            # a full unit the line crosses; one it fills tells it nothing (it holds every
            # digit anyway)
            crossed = [unit.cells for unit in geometry.units
                       if len(unit.cells) == geometry.size and line & set(unit.cells)
                       and not line >= set(unit.cells)]
            units = tuple((gather([position[x] for x in unit if x in line]),
                           gather([position[x] for x in unit if x not in line]))
                          for unit in crossed)
            peers = tuple(sum(1 << position[x] for x in geometry.peers[cell])
                          for cell in c.cells)
            links.append(Link(tuple(cells), _Joint(geometry.size, length, units, peers),
                              f"{c.describe(geometry)}: a digit its units can place only on "
                              "it is on it, and a digit every run it can be holds leaves the "
                              "cells that see all its places on the line"))
        lines = [c for c in constraints if isinstance(c, Renban)]
        for i, one in enumerate(lines):
            for other in lines[i + 1:]:
                links += _overlap_links(geometry, one, other)
        return links

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        values = [grid[c] + 1 for c in self.cells]
        low = min(values)
        if sorted(values) == list(range(low, low + len(values))):
            return []
        shown = ", ".join(map(str, values))
        return [f"{self.describe(geometry)} holds {shown}: not a run of consecutive values"]


def _overlap_links(geometry: Geometry, one: Renban, other: Renban) -> list[Link]:
    """The link of two renbans that share cells (:class:`_Overlap`), if they do."""
    shared = [x for x in one.cells if x in other.cells]
    if not shared or set(one.cells) == set(other.cells):
        return []
    first = [x for x in one.cells if x not in shared]
    second = [x for x in other.cells if x not in shared]
    cells = shared + first + second
    seen = tuple((i, j) for i, x in enumerate(first) for j, y in enumerate(second)
                 if geometry.are_peers(x, y))
    narrow = _Overlap(geometry.size, tuple(range(len(shared))),
                      tuple(range(len(shared), len(shared) + len(first))),
                      tuple(range(len(shared) + len(first), len(cells))), seen)
    return [Link(tuple(cells), narrow,
                 f"{one.describe(geometry)} and {other.describe(geometry)} share "
                 f"{len(shared)} cell{'s' if len(shared) > 1 else ''}: their runs overlap in "
                 "those cells' values")]
