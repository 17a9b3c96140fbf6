"""Sums beyond one constraint: the 45 rule over several units with every summing kind's
sums added in (innies and outies), and overlapping sums taken together.

Every unit adds up to ``N(N+1)/2`` (45 on 9×9), a set of ``k`` units to ``k`` times it; and
every summing constraint fixes a linear sum of its cells
(:meth:`~sudoku_csp.constraints.base.Constraint.linear_sums`: a cage's cells add up to its
sum, an arrow's shaft less its circle to 0, a little killer's diagonal to its clue, region
sum segments, zipper pairs, double arrows, X and V marks). Adding and taking away such sums
gives another true sum. A setter's innies and outies are one choice of them: the cages
mostly inside rows 1-3 taken away from the rows' 135 leave the cells the cages miss (less
those they stick out with). With arrows, a shaft inside the rows is taken away and its
circle added back (a circle inside the rows with its shaft counts twice); with little
killers, a diagonal mostly inside is taken away and its cells outside added.

``sum_leftovers`` starts from each region of :func:`~sudoku_csp.constraints.rule45.regions`
(each unit, each run of rows, columns or boxes, each two neighbouring boxes) and from each
constraint's own sum, and greedily adds or takes away the sum that leaves the fewest open
cells until none leaves fewer (placed digits count as numbers). A sum of at most
:data:`MOST_CELLS` open cells is then read exactly, with different digits where its cells
see each other and with the constraints on its cells
(:func:`~sudoku_csp.logic.exact.read_together`): a candidate no filling uses goes. When
no sum gives a step so, each is read again with a unit that holds two or more of its cells
brought in whole (a row's sum through a box whose corners are odd: the box holds five odd
digits, so one in its middle). Any sum so made holds in every solution, so every step is
sound whatever sums the greedy choice picks; the choice only decides which steps are found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.base import LinearTerms
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.constraints.rule45 import regions
from sudoku_csp.geometry import BOX_KINDS, Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import links_of
from sudoku_csp.logic.exact import MOST_CELLS as MOST_CELLS_EXACT
from sudoku_csp.logic.exact import read_together
from sudoku_csp.logic.segments import segments_of
from sudoku_csp.logic.step import Step, eliminated, unit_name

__all__ = ["MOST_CELLS", "SUMS_RATING", "Combined", "combined_sums", "sum_leftovers"]

SUMS_RATING = 3.0
"""Innies and outies over several units and constraints: after the law of leftovers (2.8)
and pointing through the rules (2.9), beside the naked pair; a setter adds up a band's
sums as readily as a killer solver does its cages, but weighing arrows' circles and
diagonals across it is more work."""

MOST_CELLS = 6
"""The most open cells of a sum read for a step (more rarely narrow, and read badly)."""

MOST_CELLS_TOGETHER = MOST_CELLS_EXACT
"""The most cells a sum is read with, its own and the constraints' on them (as two
constraints are read together)."""

MOST_WITH_UNIT = 18
"""The most cells a sum is read with when a unit comes in whole: the exact search gives up
past its budget rather than guess, more often the more cells."""

MOST_ROUNDS = 8
"""The most constraint sums added to one region's."""

@dataclass(frozen=True)
class Combined:
    """A sum made of a region's total and constraints' sums: ``terms`` (open cells, their
    weights) add up to ``total``; ``region`` the units started from (empty: a constraint's
    own sum), ``used`` which constraint sums (indices into the puzzle's sums) were taken
    away (+1) or added (-1), and ``fixed`` the placed cells counted as numbers."""

    terms: LinearTerms
    total: int
    region: tuple[int, ...]
    used: tuple[tuple[int, int], ...]
    fixed: tuple[int, ...]


@lru_cache(maxsize=64)
def _sums(geometry: Geometry, constraints: tuple[Constraint, ...]
          ) -> tuple[tuple[int, LinearTerms, int], ...]:
    """Every constraint's sums: ``(constraint index, terms, total)``."""
    return tuple((k, terms, total) for k, c in enumerate(constraints)
                 for terms, total in c.linear_sums(geometry))


@lru_cache(maxsize=16)
def _regions(geometry: Geometry) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """The regions as ``(cells, units, count)``: the units are ``count`` units of one kind
    that make up the region (to draw and name it)."""
    found = []
    for cells, count, _ in regions(geometry):
        here = set(cells)
        for kind in dict.fromkeys(u.kind for u in geometry.units):   # in a fixed order
            units = tuple(i for i, u in enumerate(geometry.units)
                          if u.kind == kind and here.issuperset(u.cells))
            if len(units) == count and {c for u in units for c in geometry.units[u].cells
                                        } == here:
                found.append((cells, units, count))
                break
    return tuple(found)


def _fixed(board: Board) -> dict[int, int]:
    """The value of every cell with one candidate left."""
    return {c: m.bit_length() for c, m in enumerate(board.cand) if m and not m & (m - 1)}


def _greedy(vector: dict[int, int], total: int,
            sums: Sequence[tuple[int, LinearTerms, int]], known: dict[int, int],
            by_cell: dict[int, list[int]], used: dict[int, int]
            ) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Add (sign -1) or take away (sign +1) constraint sums from ``vector`` (weights over
    open cells, adding up to ``total``; changed in place), each at most once (``used``:
    those in it already, by sign), while one leaves fewer open cells: the one that leaves
    fewest each time. The new total and every sum used."""
    for _ in range(MOST_ROUNDS):
        best, best_gain = None, 0
        for j in sorted({j for c in vector for j in by_cell.get(c, ())} - used.keys()):
            for sign in (1, -1):
                gain = 0
                for c, w in sums[j][1]:
                    if c not in known:
                        old = vector.get(c, 0)
                        gain += (old != 0) - (old != sign * w)
                if gain > best_gain:
                    best, best_gain = (j, sign), gain
        if best is None:
            break
        j, sign = best
        used[j] = sign
        _, terms, value = sums[j]
        total -= sign * value
        for c, w in terms:
            if c in known:
                total += sign * w * known[c]
                continue
            new = vector.get(c, 0) - sign * w
            if new:
                vector[c] = new
            else:
                vector.pop(c, None)
    return total, tuple(sorted(used.items()))


def combined_sums(board: Board) -> list[Combined]:
    """The sums of at most :data:`MOST_CELLS` open cells that regions' totals and the
    constraints' sums make together, none a constraint's own (made once per set of cells
    with one candidate left, carried from step to step)."""
    g = board.geometry
    sums = _sums(g, board.constraints)
    if not sums:
        return []
    known = _fixed(board)
    key = tuple(sorted(known.items()))
    made: dict[tuple[tuple[int, int], ...], list[Combined]] = board.carried.setdefault(
        "combined sums", {})
    if key not in made:
        made.clear()  # only the latest set of known cells is asked again
        made[key] = _combined(g, sums, known)
    return made[key]


def _combined(geometry: Geometry, sums: Sequence[tuple[int, LinearTerms, int]],
              known: dict[int, int]) -> list[Combined]:
    by_cell: dict[int, list[int]] = {}
    for j, (_, terms, _) in enumerate(sums):
        for c, _w in terms:
            by_cell.setdefault(c, []).append(j)
    n = geometry.size
    starts: list[tuple[dict[int, int], int, tuple[int, ...], dict[int, int]]] = [
        (dict.fromkeys(cells, 1), count * n * (n + 1) // 2, units, {})
        for cells, units, count in _regions(geometry) if any(c in by_cell for c in cells)]
    for j, (_, terms, total) in enumerate(sums):
        starts.append((_added(terms), total, (), {j: 1}))
    own = {_settle(_added(terms), total, known) for _, terms, total in sums}
    found: list[Combined] = []
    for start, total, units, first in starts:
        settled, total = _settle(start, total, known)
        opened = dict(settled)
        total, used = _greedy(opened, total, sums, known, by_cell, first)
        terms = tuple(sorted(opened.items()))
        if not used or not terms or len(terms) > MOST_CELLS or (terms, total) in own:
            continue
        own.add((terms, total))
        cells = {c for j, _ in used for c, _w in sums[j][1]}
        cells.update(c for u in units for c in geometry.units[u].cells)
        fixed = tuple(sorted(c for c in cells if c in known))
        found.append(Combined(terms, total, units, used, fixed))
    return found


def _added(terms: LinearTerms) -> dict[int, int]:
    """``terms`` as weights by cell (a cell named twice: its weights added)."""
    vector: dict[int, int] = {}
    for c, w in terms:
        vector[c] = vector.get(c, 0) + w
    return vector


def _settle(vector: dict[int, int], total: int, known: dict[int, int]
            ) -> tuple[LinearTerms, int]:
    """The cells of ``vector`` whose value is known counted as numbers: the terms left, in
    cell order, and the total."""
    out = []
    for c, w in sorted(vector.items()):
        if c in known:
            total -= w * known[c]
        elif w:
            out.append((c, w))
    return tuple(out), total


def _link(board: Board, terms: LinearTerms, total: int) -> Link:
    """The link of a sum, made once per sum (so that the fillings found for it are carried
    from step to step, :func:`~sudoku_csp.logic.exact.read_together`)."""
    links: dict[tuple[LinearTerms, int], Link] = board.carried.setdefault("sum links", {})
    link = links.get((terms, total))
    if link is None:
        link = links[(terms, total)] = Link(tuple(c for c, _ in terms),
                                            LinearSum([w for _, w in terms], total).narrow)
    return link


def _as_is(masks: tuple[int, ...]) -> tuple[int, ...]:
    """A unit's cells in the search: no rule of their own (their digits differ as peers)."""
    return masks


class _Reading:
    """What a sum is read with: links, their cells (at most ``most``), the unit brought in
    whole and the constraints (indices) whose links were added."""

    def __init__(self, link: Link, most: int) -> None:
        self.links, self.cells, self.most = [link], set(link.cells), most
        self.units: list[int] = []
        self.beside: list[int] = []

    def fits(self, cells: Sequence[int]) -> set[int] | None:
        """The cells with ``cells`` added, or None when past the most."""
        more = self.cells.union(cells)
        return more if len(more) <= self.most else None


def _with_neighbours(board: Board, link: Link, unit: int | None, most: int) -> _Reading:
    """``link`` (with ``unit``'s cells first, when given) and the links of the constraints
    on those cells, while they stay within ``most`` cells together."""
    g = board.geometry
    reading = _Reading(link, most)
    if unit is not None:
        reading.links.append(Link(g.units[unit].cells, _as_is))
        reading.cells.update(g.units[unit].cells)
        reading.units.append(unit)
    for k, constraint in enumerate(board.constraints):
        if reading.cells.isdisjoint(constraint.touched()):
            continue
        for other in links_of(g, constraint):
            more = reading.fits(other.cells)
            if more is None or reading.cells.isdisjoint(other.cells):
                continue
            reading.links.append(other)
            reading.cells = more
            if k not in reading.beside:
                reading.beside.append(k)
    return reading


def _units_of(geometry: Geometry, cells: Sequence[int]) -> list[int]:
    """The units holding two or more of ``cells`` and some cell besides, boxes first, then
    the most of them first."""
    found = segments_of(geometry, tuple(dict.fromkeys(cells)))
    return [u for *_, u in sorted((geometry.units[u].kind not in BOX_KINDS, -len(inside), u)
                                  for u, inside in found)]


def sum_leftovers(board: Board) -> Step | None:
    """A sum that a region's total and the constraints' sums make together, read with
    different digits where its cells see each other and with the constraints on its cells,
    rules out candidates; failing that, each read with a unit holding two or more of its
    cells, whole, and the constraints on that unit's cells too.

    >>> from sudoku_csp import EMPTY, make_geometry
    >>> from sudoku_csp.constraints import Arrow
    >>> from sudoku_csp.puzzle import Puzzle
    >>> arrow = Arrow((0,), ((0, 1, 2),))               # A2 + A3 = A1 on a 4x4 grid
    >>> board = Board.from_puzzle(Puzzle(make_geometry(4), (EMPTY,) * 16, constraints=(arrow,)))
    >>> sum_leftovers(board).text.split(": no way")[0]  # doctest: +NORMALIZE_WHITESPACE
    'Innies and outies: row A adds up to 10; with the sums of arrow from A1: 2×A1 + A4 = 10,
    read with arrow from A1, with different digits where its cells see each other'
    """
    made = combined_sums(board)
    for combined in made:
        board.check_time()
        link = _link(board, combined.terms, combined.total)
        if len(combined.terms) == 1:
            gone = board.ruled_out(link, "a sum")
            if gone:
                return _step(board, combined, None, gone)
            continue
        step = _read(board, combined, _with_neighbours(board, link, None, MOST_CELLS_TOGETHER))
        if step is not None:
            return step
    for combined in made:
        link = _link(board, combined.terms, combined.total)
        for unit in _units_of(board.geometry, link.cells):
            board.check_time()
            step = _read(board, combined, _with_neighbours(board, link, unit, MOST_WITH_UNIT))
            if step is not None:
                return step
    return None


def _read(board: Board, combined: Combined, reading: _Reading) -> Step | None:
    step = read_together(board, "sum_leftovers", tuple(reading.links),
                         partial(_words, board, combined, reading))
    return None if step is None else _step(board, combined, reading, step.eliminations,
                                           step.text)


def _step(board: Board, combined: Combined, reading: _Reading | None,
          gone: Sequence[Candidate], text: str = "") -> Step:
    """The step: the sum's cells drawn in the region's units (and the units it was read
    with)."""
    g = board.geometry
    units = tuple(dict.fromkeys((*combined.region, *(reading.units if reading else ()))))
    if not text:
        text = (f"{_words(board, combined, reading)}: it fixes "
                f"{g.label(combined.terms[0][0])} → eliminates {eliminated(g, gone)}")
    return Step("sum_leftovers", 0.0, text, eliminations=tuple(sorted(gone)),
                cells=tuple(c for c, _ in combined.terms), units=units)


def _region_words(geometry: Geometry, units: tuple[int, ...]) -> str:
    """``rows A-C``, ``boxes 1 and 2``, ``column 4``."""
    names = [unit_name(geometry, u) for u in units]
    if len(names) == 1:
        return names[0]
    kind = names[0].split()[0]
    plural = f"{kind}es" if kind.endswith("x") else f"{kind}s"
    first, last = names[0].split()[-1], names[-1].split()[-1]
    joint = " and " if len(names) == 2 else "-"
    return f"{plural} {first}{joint}{last}"


def _sum_words(geometry: Geometry, terms: LinearTerms, total: int) -> str:
    """``A4 + 2×C7 − B9 = 17``."""
    said = []
    for i, (c, w) in enumerate(terms):
        times = f"{abs(w)}×" if abs(w) != 1 else ""
        sign = ("−" if w < 0 else "") if i == 0 else (" − " if w < 0 else " + ")
        said.append(f"{sign}{times}{geometry.label(c)}")
    return f"{''.join(said)} = {total}"


def _words(board: Board, combined: Combined, reading: _Reading | None) -> str:
    """``Innies and outies: rows A-C add up to 135; with the sums of arrow from C7 and
    little killer 7 up-left from B9: A4 + 2×C7 − B9 = 17, read with ...``."""
    g, constraints = board.geometry, board.constraints
    sums = _sums(g, constraints)
    named = list(dict.fromkeys(constraints[sums[j][0]].describe(g) for j, _ in combined.used))
    n = g.size
    if combined.region:
        total = len(combined.region) * n * (n + 1) // 2
        verb = "adds" if len(combined.region) == 1 else "add"
        said = (f"{_region_words(g, combined.region)} {verb} up to {total}; with the sums of "
                f"{_listed(named)}")
    else:
        said = f"The sums of {_listed(named)} together"
    if combined.fixed:
        said += f" (placed {', '.join(g.label(c) for c in combined.fixed)} counted in)"
    said = f"Innies and outies: {said}: {_sum_words(g, combined.terms, combined.total)}"
    if reading is not None and (reading.units or reading.beside):
        withs = [f"{unit_name(g, u)} (every digit once)" for u in reading.units]
        withs += [constraints[k].describe(g) for k in reading.beside]
        said += f", read with {_listed(withs)}"
    if len(combined.terms) > 1:
        said += ", with different digits where its cells see each other: no way to keep it"
    return said


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
