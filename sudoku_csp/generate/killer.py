"""Killer puzzles with no givens: cages laid over a random solution grid, reshaped until the
SAT session finds no second solution.

:func:`generate_killers` makes each puzzle from a random complete grid
(:func:`sudoku_csp.generate.random_grid`) in three steps:

1. *Cut* (:func:`random_cages`): the grid is cut into orthogonally connected cages of
   ``min_cage`` to ``max_cage`` cells holding different digits of the grid. Each cage starts
   at a free cell with the fewest free neighbours (so that few cells are left stranded) and
   grows at random to a size drawn from that range; a piece left too small joins a
   neighbouring cage.
2. *Reshape until unique*: every cage carries the sum of the grid's digits, so the grid is
   always a solution; the session is asked for another, T. A change rules T out when some
   new cage has a sum (or a repeated digit) under T that the grid does not have, which holds
   for every change below that touches a cell where T differs from the grid: *split* such a
   cage into two connected parts, *move* such a cell to a neighbouring cage, or *swap* it
   with a neighbouring cage's cell. One kind is drawn at random, then one change of it, and
   the session is asked again, up to :data:`RESHAPE_STEPS` × cells times; then a new grid.
3. *Merge*: neighbouring cages whose union fits ``max_cage`` cells and holds different
   digits are merged when the puzzle stays unique (``merges`` tries): fewer, larger cages,
   so a harder puzzle.

The questions go to one incremental solver per geometry
(:class:`sudoku_csp.generate.UniquenessSession`): each cage's clauses are added once, behind
a selector of its own, when a question first names it, and retired when the cage leaves the
layout. A change of one cage adds only that cage's clauses (about 70 on 9×9), never a new
formula. The session's solver is rebuilt before each puzzle: the second solutions it finds
steer the reshaping, so a solver warmed by earlier work could steer it elsewhere, and puzzle
``i`` must depend only on the seed and ``i``.

Every emitted puzzle is re-checked by a second backend (``check``, :data:`DEFAULT_KILLER_CHECK`)
before it is yielded, as :func:`sudoku_csp.generate.generate` does; a disagreement is a
:class:`~sudoku_csp.generate.CheckDisagreesError` (a bug). Giving up after ``attempts``
grids is a :class:`~sudoku_csp.generate.GenerationError` (an input error: the request may
be out of reach, e.g. every cage of a 4×4 four cells long sums to 10 and tells nothing).

Why a module of its own: the plain generator clears givens from a grid; this one keeps no
givens and searches over cage layouts instead (partition, split, move, swap, merge). It
shares only the session, the grid maker and the final check with :mod:`sudoku_csp.generate`.

>>> from sudoku_csp import make_geometry
>>> p = next(generate_killers(make_geometry(4), seed=2))
>>> p.clue_count, all(2 <= len(c.cells) <= 4 for c in p.constraints)
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from sudoku_csp.backends import get_backend
from sudoku_csp.backends.base import Backend
from sudoku_csp.constraints.kinds.cage import Cage
from sudoku_csp.errors import InputError
from sudoku_csp.generate.base import GenerationError, confirm
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.generate.session import UniquenessSession, session_for
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.variants import make_geometry

DEFAULT_MIN_CAGE = 2
"""The fewest cells of a generated cage: no single-cell cages (they are givens in disguise)
unless asked for."""
DEFAULT_MAX_CAGE = 5
"""The most cells of a generated cage (at most the grid size, which caps it on 4×4)."""
DEFAULT_MERGES = 0
"""Merges tried once a layout is unique (each one SAT question). None by default: each
merge makes the puzzle much harder for every solver (measured on 9×9: 20 tries leave 21
cages instead of 25, and the native solver needs seconds to minutes a puzzle)."""
DEFAULT_KILLER_CHECK = "cpsat"
"""The second backend that confirms each killer: on generated 9×9 killers CP-SAT takes a
fraction of the native solver's time, which has tails of minutes (docs/design.md: Design choices,
measured)."""
DEFAULT_KILLER_ATTEMPTS = 20
"""Grids tried per puzzle before :class:`~sudoku_csp.generate.GenerationError`."""
RESHAPE_STEPS = 2
"""Reshaping questions per grid, per cell of the grid (162 on 9×9) before a new grid."""
CUTS = 20
"""Cuts of one grid tried when pieces are left that no neighbouring cage can take."""
SPLIT_ENUMERATION = 12
"""Cages up to this size have every split listed; larger ones (big grids) sample splits."""

Cells = frozenset[int]
Change = tuple[tuple[int, ...], tuple[Cells, ...]]
"""A layout change: the ids of the cages it removes, the cells of the cages it adds."""


# -- geometry of the layout ------------------------------------------------------------------
def _neighbours(geometry: Geometry) -> list[tuple[int, ...]]:
    """The cells sharing a side with each cell (cages are orthogonally connected)."""
    n = geometry.size
    out = []
    for cell in range(geometry.ncells):
        r, c = divmod(cell, n)
        out.append(tuple(rr * n + cc for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1),
                                                    (r + 1, c)) if 0 <= rr < n and 0 <= cc < n))
    return out


def _connected(cells: Iterable[int], adjacent: Sequence[tuple[int, ...]]) -> bool:
    """Whether ``cells`` form one orthogonally connected piece (an empty set does not)."""
    left = set(cells)
    if not left:
        return False
    stack = [left.pop()]
    while stack:
        for other in adjacent[stack.pop()]:
            if other in left:
                left.remove(other)
                stack.append(other)
    return not left


def random_cages(geometry: Geometry, grid: Grid, rng: random.Random,
                 min_cage: int = DEFAULT_MIN_CAGE, max_cage: int = DEFAULT_MAX_CAGE
                 ) -> list[Cells] | None:
    """A random cut of the grid into orthogonally connected cages of ``min_cage`` to
    ``max_cage`` cells, each holding different digits of ``grid``; None when a piece is left
    that no neighbouring cage can take (draw again).

    >>> g = make_geometry(4)
    >>> grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
    >>> cages = random_cages(g, grid, random.Random(1), max_cage=4)
    >>> sorted(c for cage in cages for c in cage) == list(range(16))
    True
    >>> all(len({grid[c] for c in cage}) == len(cage) >= 2 for cage in cages)
    True
    """
    adjacent = _neighbours(geometry)
    free = set(range(geometry.ncells))
    cages: list[set[int]] = []

    def room(cell: int) -> int:
        return sum(other in free for other in adjacent[cell])

    while free:
        # Start where the fewest free neighbours are, so that cells are not left stranded.
        fewest = min(room(cell) for cell in free)
        start = rng.choice(sorted(cell for cell in free if room(cell) == fewest))
        want = rng.randint(min_cage, max_cage)
        cage, digits = {start}, {grid[start]}
        free.discard(start)
        while len(cage) < want:
            frontier = sorted({other for cell in cage for other in adjacent[cell]
                               if other in free and grid[other] not in digits})
            if not frontier:
                break
            cell = rng.choice(frontier)
            cage.add(cell)
            digits.add(grid[cell])
            free.discard(cell)
        cages.append(cage)
    # Pieces below min_cage join a neighbouring cage with room and none of their digits.
    for piece in [c for c in cages if len(c) < min_cage]:
        if piece not in cages:
            continue
        cages.remove(piece)
        digits = {grid[c] for c in piece}
        hosts = [c for c in cages if len(c) + len(piece) <= max_cage
                 and not digits & {grid[x] for x in c}
                 and any(other in c for cell in piece for other in adjacent[cell])]
        if not hosts:
            return None
        rng.choice(hosts).update(piece)
    return [frozenset(c) for c in cages]


# -- the layout being reshaped -------------------------------------------------------------------
class _Layout:
    """The cages over one grid: cells by cage id (ids are never reused) and each cell's
    cage; every cage's :class:`Cage` (sum from the grid) is made once."""

    def __init__(self, geometry: Geometry, grid: Grid, cages: Iterable[Cells]) -> None:
        self.grid = grid
        self.adjacent = _neighbours(geometry)
        self.cages: dict[int, Cells] = {}
        self.owner = [0] * geometry.ncells
        self._made: dict[Cells, Cage] = {}
        self._next = 0
        for cells in cages:
            self._add(cells)

    def _add(self, cells: Cells) -> None:
        self.cages[self._next] = cells
        for cell in cells:
            self.owner[cell] = self._next
        self._next += 1

    def cage(self, cells: Cells) -> Cage:
        made = self._made.get(cells)
        if made is None:
            made = self._made[cells] = Cage(tuple(sorted(cells)),
                                            sum(self.grid[c] + 1 for c in cells))
        return made

    def constraints(self, change: Change | None = None) -> list[Cage]:
        """The cages of the layout (with ``change`` made), in order of their first cell."""
        cells = list(self.cages.values()) if change is None else [
            *(c for i, c in self.cages.items() if i not in change[0]), *change[1]]
        return sorted((self.cage(c) for c in cells), key=lambda cage: cage.cells[0])

    def apply(self, change: Change) -> list[Cage]:
        """Make ``change``; the cages it removed."""
        gone = [self.cage(self.cages.pop(i)) for i in change[0]]
        for cells in change[1]:
            self._add(cells)
        return gone

    def digits(self, cells: Iterable[int]) -> set[int]:
        return {self.grid[c] for c in cells}

    def neighbour_cages(self, cells: Iterable[int]) -> set[int]:
        """Ids of the cages beside ``cells`` (not counting the cages of ``cells``)."""
        own = {self.owner[c] for c in cells}
        return {self.owner[o] for c in cells for o in self.adjacent[c]} - own


def _splits(cells: Cells, layout: _Layout, min_cage: int, rng: random.Random
            ) -> list[tuple[Cells, Cells]]:
    """Ways to cut a cage into two connected parts of at least ``min_cage`` cells (each
    pair once): all of them for small cages, a sample grown from random cells for large."""
    order = sorted(cells)
    found: list[tuple[Cells, Cells]] = []
    if len(order) < 2 * min_cage:
        return found
    if len(order) <= SPLIT_ENUMERATION:
        anchor, rest = order[0], order[1:]
        for mask in range(1 << len(rest)):
            part = frozenset([anchor, *(c for i, c in enumerate(rest) if mask >> i & 1)])
            other = cells - part
            if (min(len(part), len(other)) >= min_cage
                    and _connected(part, layout.adjacent) and _connected(other, layout.adjacent)):
                found.append((part, other))
        return found
    for _ in range(4 * len(order)):
        grown = {rng.choice(order)}
        want = rng.randint(min_cage, len(order) - min_cage)
        while len(grown) < want:
            grow = sorted({o for c in grown for o in layout.adjacent[c] if o in cells} - grown)
            if not grow:
                break
            grown.add(rng.choice(grow))
        other = cells - grown
        if min(len(grown), len(other)) >= min_cage and _connected(other, layout.adjacent):
            found.append((frozenset(grown), other))
    return found


def _fixes(layout: _Layout, other: Grid, min_cage: int, max_cage: int,
           rng: random.Random) -> dict[str, list[Change]]:
    """The changes, by kind, that rule ``other`` out: each touches a cage holding a cell
    where ``other`` differs from the grid, keeps cages connected, within size, with
    different digits of the grid, and gives some new cage a sum or a repeated digit under
    ``other`` that the grid does not have."""
    grid, adjacent = layout.grid, layout.adjacent
    differ = {c for c, d in enumerate(grid) if other[c] != d}

    def rules_out(new: Iterable[Cells]) -> bool:
        for cells in new:
            values = [other[c] for c in cells]
            if len(set(values)) < len(values) or sum(values) != sum(grid[c] for c in cells):
                return True
        return False

    kinds: dict[str, list[Change]] = {"split": [], "move": [], "swap": []}
    for cid in sorted({layout.owner[c] for c in differ}):
        cells = layout.cages[cid]
        for part, rest in _splits(cells, layout, min_cage, rng):
            if rules_out((part,)):
                kinds["split"].append(((cid,), (part, rest)))
        for cell in sorted(cells & differ):
            rest = cells - {cell}
            if len(rest) < min_cage or not _connected(rest, adjacent):
                continue
            for yid in sorted(layout.neighbour_cages([cell])):
                host = layout.cages[yid]
                if len(host) < max_cage and grid[cell] not in layout.digits(host):
                    new = (rest, host | {cell})
                    if rules_out(new):
                        kinds["move"].append(((cid, yid), new))
                for swap in sorted(o for o in adjacent[cell] if o in host):
                    mine, theirs = rest | {swap}, (host - {swap}) | {cell}
                    if (grid[swap] not in layout.digits(rest)
                            and grid[cell] not in layout.digits(host - {swap})
                            and _connected(mine, adjacent) and _connected(theirs, adjacent)
                            and rules_out((mine, theirs))):
                        kinds["swap"].append(((cid, yid), (mine, theirs)))
    return {kind: changes for kind, changes in kinds.items() if changes}


def _merges(layout: _Layout, max_cage: int, tried: set[Cells]) -> list[Change]:
    """Merges of two neighbouring cages into one of at most ``max_cage`` cells with
    different digits, not tried before."""
    found: list[Change] = []
    for cid, cells in sorted(layout.cages.items()):
        for yid in sorted(layout.neighbour_cages(cells)):
            host = layout.cages[yid]
            union = cells | host
            if (cid < yid and len(union) <= max_cage and union not in tried
                    and not layout.digits(cells) & layout.digits(host)):
                found.append(((cid, yid), (union,)))
    return found


# -- one puzzle -----------------------------------------------------------------------------------
def killer_cages(geometry: Geometry, grid: Grid, rng: random.Random,
                 session: UniquenessSession, *, min_cage: int = DEFAULT_MIN_CAGE,
                 max_cage: int = DEFAULT_MAX_CAGE, merges: int = DEFAULT_MERGES
                 ) -> list[Cage] | None:
    """Cages over ``grid`` (a complete grid of ``geometry``) whose only solution is
    ``grid``, or None when the search ran out of steps (or no cut was found).

    >>> from sudoku_csp.generate import session_for
    >>> g = make_geometry(4)
    >>> grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
    >>> cages = killer_cages(g, grid, random.Random(3), session_for(g), max_cage=4)
    >>> from sudoku_csp import get_backend
    >>> get_backend("native").solve(Puzzle(g, (EMPTY,) * 16, "", tuple(cages)),
    ...                             limit=2).solution == grid
    True
    """
    cut = None
    for _ in range(CUTS):
        cut = random_cages(geometry, grid, rng, min_cage, max_cage)
        if cut is not None:
            break
    if cut is None:
        return None
    layout = _Layout(geometry, grid, cut)
    blank = (EMPTY,) * geometry.ncells
    unique = False
    try:
        for _ in range(RESHAPE_STEPS * geometry.ncells):
            other = session.other_solution(blank, grid, layout.constraints())
            if other is None:
                unique = True
                break
            fixes = _fixes(layout, other, min_cage, max_cage, rng)
            if not fixes:
                return None  # every cage that could rule ``other`` out is stuck: a new grid
            changes = fixes[rng.choice(sorted(fixes))]
            session.release(layout.apply(rng.choice(changes)))
        if not unique:
            return None
        tried: set[Cells] = set()
        for _ in range(merges):
            candidates = _merges(layout, max_cage, tried)
            if not candidates:
                break
            change = rng.choice(candidates)
            trial = layout.constraints(change)
            if session.has_other(blank, grid, trial):
                tried |= set(change[1])
                session.release([layout.cage(change[1][0])])
            else:
                session.release(layout.apply(change))
        return layout.constraints()
    finally:
        session.release(layout.constraints())


# -- the generator --------------------------------------------------------------------------------
def generate_killers(geometry: Geometry | None = None, *, count: int = 1, seed: int = 0,
                     min_cage: int = DEFAULT_MIN_CAGE, max_cage: int | None = None,
                     merges: int = DEFAULT_MERGES, check: str | Backend = DEFAULT_KILLER_CHECK,
                     solver: str = DEFAULT_SOLVER, attempts: int = DEFAULT_KILLER_ATTEMPTS
                     ) -> Iterator[Puzzle]:
    """``count`` unique killer puzzles with no givens on ``geometry`` (default 9×9), yielded
    one at a time (see the module notes for the method).

    - ``seed``: same seed (and version) → same puzzles; puzzle ``i`` depends only on the
      seed and ``i``.
    - ``min_cage``, ``max_cage``: cells per cage (default :data:`DEFAULT_MIN_CAGE` to
      :data:`DEFAULT_MAX_CAGE`, or the grid size if smaller); ``min_cage=1`` allows
      single-cell cages. Cages are orthogonally connected and hold different digits.
    - ``merges``: merges of neighbouring cages tried once the layout is unique (kept when it
      stays unique); 0 keeps the first unique layout.
    - ``attempts``: grids tried per puzzle before :class:`GenerationError` (a bound on
      work, not time, so the same seed gives the same puzzles or the same error anywhere).
    - ``check``: the backend (or its spec) that confirms each puzzle has exactly the one
      solution; ``solver``: the PySAT solver of the session.

    Bad arguments are :class:`~sudoku_csp.errors.InputError`. Each puzzle's ``metadata``
    records its seed, index, cage count and sizes.

    >>> p = next(generate_killers(make_geometry(6), seed=1))
    >>> p.clue_count, p.metadata
    (0, 'generated seed=1 #1: killer, 0 givens, 13 cages of 2-4 cells')
    >>> next(generate_killers(make_geometry(4), min_cage=4, attempts=2))  # all sums 10
    Traceback (most recent call last):
    sudoku_csp.generate.base.GenerationError: no unique killer with cages of 4-4 cells found in ...
    """
    geometry = geometry if geometry is not None else make_geometry(9)
    n = geometry.size
    top = min(DEFAULT_MAX_CAGE, n) if max_cage is None else max_cage
    if count < 0:
        raise InputError("count must be at least 0")
    if min_cage < 1:
        raise InputError(f"the smallest cage must have at least 1 cell, not {min_cage}")
    if top > n:
        raise InputError(f"a cage holds different digits, so at most {n} cells on a "
                         f"{geometry.name} grid, not {top}")
    if top < min_cage:
        raise InputError(f"the largest cage ({top} cells) is smaller than the smallest "
                         f"({min_cage})")
    if merges < 0:
        raise InputError("merges must be at least 0")
    if attempts < 1:
        raise InputError("attempts must be at least 1")
    checker = get_backend(check) if isinstance(check, str) else check  # bad spec: now
    session = session_for(geometry, solver)

    def puzzles() -> Iterator[Puzzle]:
        master = random.Random(seed)
        for index in range(count):
            rng = random.Random(master.getrandbits(64))
            session.close()  # a fresh solver: see the module notes
            for _ in range(attempts):
                grid = random_grid(geometry, rng.getrandbits(31))
                cages = killer_cages(geometry, grid, rng, session, min_cage=min_cage,
                                     max_cage=top, merges=merges)
                if cages is not None:
                    break
            else:
                raise GenerationError(
                    f"no unique killer with cages of {min_cage}-{top} cells found in "
                    f"{attempts} grid{'s' if attempts > 1 else ''}; allow a wider range of cage "
                    "sizes or more attempts")
            sizes = [len(c.cells) for c in cages]
            note = (f"generated seed={seed} #{index + 1}: killer, 0 givens, {len(cages)} "
                    f"cages of {min(sizes)}-{max(sizes)} cells")
            puzzle = Puzzle(geometry, (EMPTY,) * geometry.ncells, note, tuple(cages))
            confirm(puzzle, grid, checker)
            yield puzzle

    return puzzles()
