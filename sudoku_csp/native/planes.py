"""Digit planes: the native search's fast engine for the ``singles`` and ``locked`` rules.

The whole candidate state is ONE integer ``P``: bit ``d * NC + c`` (``NC`` cells) is set
while digit ``d`` is still possible in cell ``c``, so the ``NC`` bits from ``d * NC`` are
*plane* ``d``, the cells where ``d`` may go. A second integer, ``solved``, marks the cells
whose digit has left their peers. With that layout each rule is a handful of big-integer
operations over every unit and digit at once, in place of Python loops over cells:

- **naked singles** (``eliminate``): folding the N planes onto one another, half onto
  half, with "seen"/"seen twice" masks gives the cells with exactly one candidate; each
  one's digit leaves its peers with one precomputed mask (the cell's peers, moved to its
  plane).
- **hidden singles** (``only_choice``): shifting ``P`` by each cell's offset inside a unit
  and keeping the units' first bits counts, for every unit of one shape in every plane at
  once, the places of each digit ("seen" once, "twice" or more). Rows, whose cells are
  consecutive bits, are counted by carries (one addition tells every row of every plane
  whether it holds a place); columns and boxes through the column segments they share (a
  box's cells in one column), counted once and then stacked band over band (columns) or
  put side by side (boxes). A row, column or box of a plane with one place has a hidden
  single there; with none, the puzzle has no solution. Units of other shapes (diagonals,
  windows, jigsaw regions) are tested one unit at a time.
- **locked candidates** (pointing and claiming): the same counting over the row and column
  *segments* of boxes (a box's cells in one row or column) finds, for every box and line of
  every plane at once, a digit confined to one segment; it leaves the rest of the line (or
  box).

The rules are the ones :mod:`sudoku_csp.native.rules` states one cell at a time, which stay
the reference: they are what the explainer and the other presets use, and the tests check
that both reach the same candidates. The fixpoint of these rules does not depend on the
order they fire in, so both engines search the same tree (same nodes, same solutions).

>>> from sudoku_csp import parse
>>> four = parse("1..." "..1." ".1.." "...1")
>>> engine = planes(four.geometry)
>>> p, solved = engine.propagate(engine.start(four.givens), locked=False)
>>> engine.candidates(p)[1], bin(solved)   # A2 keeps 2, 3, 4; the four 1s are placed
(14, '0b1000001001000001')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.native.plane_counts import LockedMasks, places, spread
from sudoku_csp.native.state import tables

MAX_PLANE_SIZE = 12
"""Largest grid the plane engine takes. Each operation touches all N³ bits: up to 12×12
planes beat the per-cell rules; from 16×16 they are even at best and slower on the hard
16×16 puzzles of ``sudoku_csp/data/sixteen.txt`` (docs/design.md: Design choices, measured). At
most 16 in any case: :meth:`Planes.singles` folds the planes in four levels at most."""

PlaneState = tuple[int, int]
"""``(P, solved)``: the candidate bits and the mask of placed cells."""


def _fold_levels(n: int, nc: int) -> tuple[tuple[int, int], ...]:
    """How :meth:`Planes._fold` halves ``n`` planes of ``nc`` bits down to one: at each
    level the upper planes are shifted onto the lower ``h`` ones (``h`` the larger half),
    as ``(mask of the lower h planes, shift)``. Nine planes take four levels (9, 5, 3, 2
    to 1): a few wide operations in place of one narrow step per plane."""
    levels = []
    while n > 1:
        h = (n + 1) // 2
        levels.append(((1 << (h * nc)) - 1, h * nc))
        n = h
    return tuple(levels)


class _Family:
    """Rows, columns or boxes: N units of one shape at N positions (hidden-single counting).

    ``starts`` has a bit at every unit's first cell, in every plane; ``shifts`` are the
    offsets of a unit's cells from its first; ``fill`` spreads start bits over the units.
    A family of runs of consecutive cells (rows) has ``low`` and ``high`` too: the low
    N-1 bits and the top bit of every run, for counting a run's bits by carries.
    """

    __slots__ = ("starts", "shifts", "fill", "low", "high")

    def __init__(self, starts: int, shifts: Sequence[int]) -> None:
        self.starts = starts
        self.shifts = tuple(shifts)
        self.fill = spread(shifts)
        n = len(self.shifts)
        consecutive = self.shifts == tuple(range(n))
        self.low = starts * ((1 << (n - 1)) - 1) if consecutive else 0
        self.high = starts << (n - 1) if consecutive else 0


class _Segments:
    """Columns and boxes of R×C boxes, counted through the pieces they share: the column
    segments (a box's R cells in one column). Each segment's places of each digit are
    counted once ("seen", "twice", at the segment's first cell); a column is C segments
    stacked band over band, a box C segments side by side, so both follow from the
    segments' counts with C - 1 shifts each, not N - 1 over single cells."""

    __slots__ = ("starts", "inside", "groups")

    def __init__(self, n: int, box: tuple[int, int], columns: _Family, boxes: _Family) -> None:
        rows, cols = box
        down = tuple(b * rows * n for b in range(n // rows))  # a column's segments
        self.starts = sum(columns.starts << shift for shift in down)  # every segment's first
        self.inside = tuple(r * n for r in range(rows))  # a segment's cells from its first
        # (a column's or a box's other segments from its first, its first cells, its fill)
        self.groups = ((down[1:], columns.starts, columns.fill),
                       (tuple(range(1, cols)), boxes.starts, boxes.fill))

    def hidden(self, p: int) -> int | None:
        """Bits of ``P`` that are a digit's only place in a column or a box; None if a
        digit has no place left in one (see :meth:`Planes._hidden`)."""
        seen, twice = places(p, self.starts, self.inside)  # each segment's places
        found = 0
        for shifts, first, fill in self.groups:
            s, t = seen, twice
            for shift in shifts:
                b = seen >> shift
                t |= (twice >> shift) | (s & b)
                s |= b
            s &= first
            if s != first:
                return None
            found |= ((s & ~t) * fill) & p
        return found


class Planes:
    """Precomputed masks of one geometry, and the rules and search steps over ``(P, solved)``.

    Build it with :func:`planes` (cached; ``None`` when the geometry is not supported).
    """

    def __init__(self, geometry: Geometry, families: list[_Family], extra: list[int],
                 box: tuple[int, int] | None, segments: _Segments | None = None) -> None:
        n, nc = geometry.size, geometry.ncells
        self.ncells = nc
        self.all_cells = (1 << nc) - 1
        self.repeat = spread([d * nc for d in range(n)])  # a cell's bit in every plane
        self.full = self.all_cells * self.repeat
        self.offsets = tuple(d * nc for d in range(n))
        self.fold_levels = _fold_levels(n, nc)
        self.digit_bytes = [bytes.maketrans(b"01", bytes((0, d))) for d in range(n)]
        peer_masks = tables(geometry).peer_masks  # the per-cell rules' masks, shared
        self.peer_masks = peer_masks
        # The peers of cell c moved to plane d, at index d * NC + c: placing d in c clears them.
        self.clears = [peer_masks[bit % nc] << (bit - bit % nc) for bit in range(n * nc)]
        self.families = families
        self.segments = segments
        # Units of no family, one mask per (unit, digit): tested one by one.
        self.extra = [mask << off for mask in extra for off in self.offsets]
        self.locked_masks = LockedMasks(n, box, self.repeat, nc) if box else None

    # -- state ----------------------------------------------------------------------------
    def start(self, givens: Sequence[int]) -> int:
        """``P`` with every digit possible in blank cells and only its digit in given ones
        (their digits have not left the peers yet: :meth:`propagate` does that)."""
        nc, cells, bits = self.ncells, 0, 0
        for cell, digit in enumerate(givens):
            if digit >= 0:
                cells |= 1 << cell
                bits |= 1 << (digit * nc + cell)
        return (self.full & ~(cells * self.repeat)) | bits

    def cell_mask(self, p: int, cell: int) -> int:
        """Candidate digits of ``cell`` as a mask (bit d: digit d), the per-cell form."""
        bits, mask = (p >> cell) & self.repeat, 0
        nc = self.ncells
        while bits:
            low = bits & -bits
            mask |= 1 << ((low.bit_length() - 1) // nc)
            bits ^= low
        return mask

    def candidates(self, p: int) -> list[int]:
        """Every cell's candidate mask: the ``cand`` list of a per-cell state."""
        return [self.cell_mask(p, c) for c in range(self.ncells)]

    def grid(self, p: int) -> Grid:
        """The digit of every cell of a solved ``P``."""
        # Each plane written in binary and translated to bytes holding the plane's digit
        # where its bits are set: OR-ed together they are the grid, one byte per cell,
        # with no Python loop over cells.
        mask, width, cells = self.all_cells, self.ncells, 0
        for off, table in zip(self.offsets, self.digit_bytes, strict=True):
            text = format((p >> off) & mask, "b").encode().translate(table)
            cells |= int.from_bytes(text, "big")
        return tuple(cells.to_bytes(width, "little"))

    def guess(self, p: int, cell: int, digit: int) -> int:
        """``P`` with ``digit`` the only candidate of ``cell``."""
        return (p & ~(self.repeat << cell)) | (1 << (digit * self.ncells + cell))

    # -- rules ------------------------------------------------------------------------------
    def _fold(self, p: int) -> tuple[int, int]:
        """``(seen, twice)``: cells with at least one candidate, and with two or more."""
        seen, twice = p, 0
        for low, shift in self.fold_levels:
            a, b = seen & low, seen >> shift
            twice = (twice & low) | (twice >> shift) | (a & b)
            seen = a | b
        return seen, twice

    def singles(self, p: int, solved: int, counts: list[int]) -> PlaneState | None:
        """Naked and hidden singles to their fixpoint; None on a contradiction (a cell with
        no candidate, a unit with no place for a digit, one cell claimed by two hidden
        singles). ``counts[0]`` gains the cells placed, ``counts[1]`` the hidden singles."""
        all_cells, repeat, clears = self.all_cells, self.repeat, self.clears
        # self._fold(p), unrolled: it runs in every round (measured faster than its loop). Up
        # to 16 planes take four levels; fewer levels are padded in front by (0, 0), under
        # which the first step leaves seen = P and twice = 0.
        levels = self.fold_levels
        (l0, s0), (l1, s1), (l2, s2), (l3, s3) = ((0, 0),) * (4 - len(levels)) + levels
        while True:
            a, b = p & l0, p >> s0
            seen, twice = a | b, a & b
            a, b = seen & l1, seen >> s1
            twice = (twice & l1) | (twice >> s1) | (a & b)
            seen = a | b
            a, b = seen & l2, seen >> s2
            twice = (twice & l2) | (twice >> s2) | (a & b)
            seen = a | b
            a, b = seen & l3, seen >> s3
            twice = (twice & l3) | (twice >> s3) | (a & b)
            seen = a | b
            if seen != all_cells:
                return None
            single = seen & ~twice & ~solved
            if not single:
                hidden = self._hidden(p)
                if hidden is None:
                    return None
                hidden &= ~(solved * repeat)
                if not hidden:
                    return p, solved
                single, twice = self._fold(hidden)
                if twice:
                    return None  # two digits each have their one place in the same cell
                counts[1] += hidden.bit_count()
                # The hidden singles' cells are now the only single ones: placed at once.
                p = (p & ~(single * repeat)) | hidden
            # Each new single's digit leaves its peers. Two singles of one digit that are
            # peers clear each other: the next fold finds the empty cell.
            todo, clear = (single * repeat) & p, 0
            while todo:
                low = todo & -todo
                clear |= clears[low.bit_length() - 1]
                todo ^= low
            p &= ~clear
            solved |= single
            counts[0] += single.bit_count()

    def _hidden(self, p: int) -> int | None:
        """Bits of ``P`` that are a digit's only place in some unit (placed cells included);
        None if a digit has no place left in some unit."""
        found = 0
        for family in self.families:
            starts, low, high = family.starts, family.low, family.high
            if high:
                # Runs of N consecutive bits (a row of a plane), all at once by carries:
                # (x & low) + low carries into a run's top bit exactly when one of its
                # low bits is set, so with x's own top bits it marks the runs holding a
                # place. x & (x - starts) drops each run's lowest bit (no borrow crosses
                # runs: each holds a bit), and the same test marks runs with two or more.
                seen = (((p & low) + low) | p) & high
                if seen != high:
                    return None
                rest = p & (p - starts)
                twice = (((rest & low) + low) | rest) & high
                found |= (((high ^ twice) >> (len(family.shifts) - 1)) * family.fill) & p
                continue
            # Columns without boxes (jigsaws): with boxes, _Segments counts them faster.
            seen, twice = places(p, starts, family.shifts)
            if seen != starts:
                return None
            found |= ((seen & ~twice) * family.fill) & p
        if self.segments is not None:
            more = self.segments.hidden(p)
            if more is None:
                return None
            found |= more
        for unit in self.extra:
            m = p & unit
            if not m & (m - 1):
                if not m:
                    return None
                found |= m
        return found

    def locked(self, p: int) -> int:
        """``P`` after pointing and claiming over rows, columns and boxes (one pass)."""
        masks = self.locked_masks
        assert masks is not None
        return p & ~masks.eliminations(p)

    def propagate(self, p: int, solved: int = 0, *, locked: bool,
                  counts: list[int] | None = None) -> PlaneState | None:
        """Singles (and with ``locked``, locked candidates) to their fixpoint; None on a
        contradiction. ``counts``: placements, hidden singles, locked eliminations."""
        if counts is None:
            counts = [0, 0, 0]
        while True:
            state = self.singles(p, solved, counts)
            if state is None or not locked:
                return state
            p, solved = state
            narrowed = self.locked(p)
            if narrowed == p:
                return state
            counts[2] += (p ^ narrowed).bit_count()
            p = narrowed

    # -- branching --------------------------------------------------------------------------
    def fewest(self, p: int, solved: int) -> int:
        """The open cells with the fewest candidates (a mask)."""
        one = two = more = 0
        mask = self.all_cells
        for off in self.offsets:
            plane = (p >> off) & mask
            more |= two & plane
            two |= one & plane
            one |= plane
        open_cells = mask & ~solved
        pairs = two & ~more & open_cells
        if pairs:
            return pairs
        best, best_n, repeat = 0, 1 << 30, self.repeat
        rest = open_cells
        while rest:
            low = rest & -rest
            rest ^= low
            n = ((p >> (low.bit_length() - 1)) & repeat).bit_count()
            if n < best_n:
                best, best_n = low, n
            elif n == best_n:
                best |= low
        return best

    def branch(self, p: int, solved: int, how: str) -> int:
        """The cell to branch on: ``mrv`` the first of the fewest-candidate cells,
        ``degree`` the one of them with the most open peers (first on ties), ``first`` the
        first open cell: the choices of :data:`~sudoku_csp.native.search.BRANCHING`."""
        if how == "first":
            open_cells = self.all_cells & ~solved
            return (open_cells & -open_cells).bit_length() - 1
        cells = self.fewest(p, solved)
        if how == "mrv":
            return (cells & -cells).bit_length() - 1
        open_cells, peer_masks = self.all_cells & ~solved, self.peer_masks
        best, best_n = -1, -1
        while cells:
            low = cells & -cells
            cells ^= low
            c = low.bit_length() - 1
            n = (open_cells & peer_masks[c]).bit_count()
            if n > best_n:
                best, best_n = c, n
        return best


def _families(geometry: Geometry) -> tuple[dict[str, _Family], list[int]]:
    """Rows, columns and boxes found among the geometry's units as families (by those
    names); every other unit as a cell mask."""
    n, nc = geometry.size, geometry.ncells
    repeat = spread([d * nc for d in range(n)])
    shapes: dict[str, tuple[list[frozenset[int]], list[int], list[int]]] = {
        "rows": ([frozenset(range(r * n, r * n + n)) for r in range(n)],
                 [r * n for r in range(n)], list(range(n))),
        "columns": ([frozenset(range(c, nc, n)) for c in range(n)], list(range(n)),
                    [r * n for r in range(n)]),
    }
    if geometry.box:
        rows, cols = geometry.box
        origins = [r * n + c for r in range(0, n, rows) for c in range(0, n, cols)]
        inside = [r * n + c for r in range(rows) for c in range(cols)]
        shapes["boxes"] = ([frozenset(o + s for s in inside) for o in origins], origins,
                           inside)
    left = {frozenset(u.cells) for u in geometry.units}
    families = {}
    for name, (units, starts, shifts) in shapes.items():
        if all(u in left for u in units):
            left.difference_update(units)
            families[name] = _Family(sum(1 << s for s in starts) * repeat, shifts)
    return families, [sum(1 << c for c in unit) for unit in left]


@lru_cache(maxsize=32)
def planes(geometry: Geometry) -> Planes | None:
    """The plane engine of ``geometry``, or None when it does not take it (larger than
    :data:`MAX_PLANE_SIZE`)."""
    if geometry.size > MAX_PLANE_SIZE:
        return None
    families, extra = _families(geometry)
    # Pointing and claiming as rows, columns and boxes only: with other units (diagonals,
    # windows) the per-cell rule also confines digits along them, so the engines would part.
    box = geometry.box if len(families) == 3 and not extra and min(geometry.box or (0,)) > 1 \
        else None
    segments = None
    if geometry.box and "columns" in families and "boxes" in families:
        segments = _Segments(geometry.size, geometry.box, families.pop("columns"),
                             families.pop("boxes"))
    return Planes(geometry, list(families.values()), extra, box, segments)


def takes_locked(engine: Planes) -> bool:
    """Whether ``engine`` runs locked candidates exactly as the per-cell rule does."""
    return engine.locked_masks is not None
