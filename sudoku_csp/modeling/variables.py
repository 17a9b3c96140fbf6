"""The one numbering of CNF variables: every formula, decoder, session and certificate uses it.

Glossary
--------
- ``x(cell, digit)``: "``cell`` holds ``digit``", variable ``cell * N + digit + 1``
  (cells ``0..N*N-1`` row-major, digits ``0..N-1``). For 9×9 these are ``1..729``, which is
  ``81(r-1) + 9(c-1) + d`` with 1-based row ``r``, column ``c`` and digit ``d``.
- *part* (augmented encoding only): the cells two units share, when there are two or more
  of them — the box-line "triads" of 9×9 (:class:`Parts`). ``triad(part, digit)``, "``digit``
  lies in ``part``", is variable ``N³ + part * N + digit + 1``, right after the ``x`` ones.
- *auxiliary* variables (at-most-one encodings, later pseudo-Boolean ones) come after both,
  from one :class:`pysat.formula.IDPool` per formula (:meth:`Variables.pool`).

:class:`Variables` holds this numbering for one geometry; :func:`variables` gives the cached
one. The arithmetic lives only here: every other module asks the map.

>>> from sudoku_csp.variants import make_geometry
>>> v = variables(make_geometry(9))
>>> v.x(0, 0), v.x(80, 8), v.cell_digit(104), v.triad(0, 0)
(1, 729, (11, 4), 730)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import sub

from pysat.formula import IDPool

from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import EMPTY, Geometry, Grid

__all__ = ["DecodeError", "Parts", "Variables", "parts", "variables"]


class DecodeError(BackendError):
    """A model that gives one cell two digits."""


class Variables:
    """The variable numbering of one geometry's formulas (see the module docstring).

    ``triads`` says whether the formula has part variables (the augmented encoding): it
    decides only where the auxiliary variables start (:attr:`first_aux`).
    """

    __slots__ = ("_firsts", "_positive", "first_aux", "geometry", "size", "triad_count",
                 "x_count")

    def __init__(self, geometry: Geometry, triads: bool = False) -> None:
        n = geometry.size
        self.geometry = geometry
        self.size = n
        self.x_count = geometry.ncells * n
        self.triad_count = len(parts(geometry).cells) * n if triads else 0
        self.first_aux = self.x_count + self.triad_count + 1
        # Tables that read a model's grid in C-level calls (read_model): the positive x
        # literals, and each cell's first variable (a cell's variables are consecutive).
        self._positive = frozenset(range(1, self.x_count + 1))
        self._firsts = [cell * n + 1 for cell in range(geometry.ncells)]

    # -- numbering -------------------------------------------------------------------------
    def x(self, cell: int, digit: int) -> int:
        """The variable of "``cell`` holds ``digit``" (both 0-based)."""
        return cell * self.size + digit + 1

    def cell_digit(self, variable: int) -> tuple[int, int]:
        """``(cell, digit)`` of an ``x`` variable; the inverse of :meth:`x`."""
        return divmod(variable - 1, self.size)

    def triad(self, part: int, digit: int) -> int:
        """The variable of "``digit`` lies in part ``part``" (see :func:`parts`)."""
        return self.x_count + part * self.size + digit + 1

    def pool(self) -> IDPool:
        """A new pool for a formula's auxiliary variables, numbered from :attr:`first_aux`."""
        return IDPool(start_from=self.first_aux)

    def cell_literals(self, cell: int) -> list[int]:
        """``x(cell, d)`` for every digit ``d``."""
        base = cell * self.size + 1
        return list(range(base, base + self.size))

    def digit_literals(self, cells: Iterable[int], digit: int) -> list[int]:
        """``x(c, digit)`` for every cell ``c`` of ``cells``."""
        n, d = self.size, digit + 1
        return [c * n + d for c in cells]

    # -- grids <-> literals ----------------------------------------------------------------
    def literals(self, grid: Sequence[int]) -> list[int]:
        """The positive literal of every filled cell of ``grid`` (``EMPTY`` cells skipped), in
        cell order: a puzzle's givens as assumptions or unit clauses."""
        return [first + d for first, d in zip(self._firsts, grid, strict=True) if d != EMPTY]

    def ruled_out(self, candidates: Sequence[int], givens: Sequence[int]) -> list[int]:
        """The literal of each digit ``candidates`` rule out (``¬x(c, d)`` where bit ``d`` of
        ``candidates[c]`` is clear), and ``x(c, d)`` where one digit is left, over the cells
        that are not givens (theirs are assumed already): another solver's propagation as
        clauses.

        >>> from sudoku_csp.variants import make_geometry
        >>> variables(make_geometry(4)).ruled_out([0b1111, 0b0100] + [0b1111] * 14, (-1,) * 16)
        [-5, -6, -8, 7]
        """
        size, full = self.size, (1 << self.size) - 1
        literals: list[int] = []
        for first, mask, given in zip(self._firsts, candidates, givens, strict=True):
            if mask == full or given != EMPTY:
                continue
            literals += [-(first + d) for d in range(size) if not mask >> d & 1]
            if mask and not mask & (mask - 1):
                literals.append(first + mask.bit_length() - 1)
        return literals

    def exclusion(self, solution: Sequence[int], givens: Sequence[int] | None = None,
                  guard: int = 0) -> list[int]:
        """The clause "not this solution": ``¬x(c, solution[c])`` for every cell that is not
        a given (every cell when ``givens`` is None), then ``guard`` when it is not 0 (a
        selector literal that switches the clause off).

        >>> from sudoku_csp.variants import make_geometry
        >>> variables(make_geometry(4)).exclusion([2, 3, 0, 1] + [0] * 12,
        ...                                       [2, EMPTY, 0] + [EMPTY] * 13, guard=-99)[:3]
        [-8, -14, -17]
        """
        firsts = self._firsts
        if givens is None:
            clause = [-(first + d) for first, d in zip(firsts, solution, strict=True)]
        else:
            clause = [-(first + d)
                      for first, d, given in zip(firsts, solution, givens, strict=True)
                      if given == EMPTY]
        if guard:
            clause.append(guard)
        return clause

    def read_model(self, model: Sequence[int]) -> Grid:
        """The grid of a model (any literals; PySAT's ``get_model()`` or a subset), read by
        one set intersection and a subtraction per cell; falls back to :meth:`decode` (which
        raises :class:`DecodeError`) when the model is not one digit per cell.

        >>> from sudoku_csp.variants import make_geometry
        >>> v = variables(make_geometry(4))
        >>> grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
        >>> true = set(v.literals(grid))
        >>> v.read_model([lit if lit in true else -lit for lit in range(1, 65)]) == grid
        True
        """
        grid = self.placed(model)
        return grid if grid is not None else self.decode(model)  # decode names the fault

    def placed(self, literals: Iterable[int]) -> Grid | None:
        """The grid ``literals`` place when their true x literals are one digit per cell
        (what unit propagation settled, or a model); None otherwise.

        >>> from sudoku_csp.variants import make_geometry
        >>> v = variables(make_geometry(4))
        >>> v.placed([1, -2, 3]), v.placed(v.literals((0, 1, 2, 3) * 4))[:4]
        (None, (0, 1, 2, 3))
        """
        # The true x literals, sorted, less each cell's first variable are the digits when
        # there is one per cell: exactly then are there N² of them, each in its own cell's
        # range.
        true = sorted(self._positive.intersection(literals))
        if len(true) == len(self._firsts):
            grid = tuple(map(sub, true, self._firsts))
            if min(grid) >= 0 and max(grid) < self.size:
                return grid
        return None

    def decode(self, literals: Iterable[int], givens: Sequence[int] | None = None) -> Grid:
        """The grid a set of literals describes: each cell's digit from its true ``x``
        variable, ``EMPTY`` where there is none; other literals are ignored.

        With ``givens`` (needed for models of a clue-reduced formula), the givens decide every
        variable they fix: a given cell's variables and its digit's variable in each peer no
        longer occur in a reduced formula, so a solver may report any value for them.
        Raises :class:`DecodeError` if a cell gets two digits.
        """
        g, top = self.geometry, self.x_count
        grid = [EMPTY] * g.ncells
        ignore: set[int] = set()
        if givens is not None:
            for cell, d in enumerate(givens):
                if d != EMPTY:
                    grid[cell] = d
                    ignore.update(self.cell_literals(cell))
                    ignore.update(self.digit_literals(g.peers[cell], d))
        for lit in literals:
            if 0 < lit <= top and lit not in ignore:
                cell, d = self.cell_digit(lit)
                if grid[cell] != EMPTY and grid[cell] != d:
                    raise DecodeError(f"cell {g.label(cell)} gets two digits "
                                      f"({grid[cell] + 1} and {d + 1})")
                grid[cell] = d
        return tuple(grid)


@lru_cache(maxsize=64)
def variables(geometry: Geometry, triads: bool = False) -> Variables:
    """The (cached) :class:`Variables` of ``geometry``; ``triads`` for the augmented encoding."""
    return Variables(geometry, triads)


@dataclass(frozen=True)
class Parts:
    """The parts of a geometry and the groups they form (the ``augmented`` encoding).

    A *part* is the set of cells two units share when they share two or more (and are not
    the same cells). Its variable ``triad(part, d)`` says "``d`` lies in the part"; a one-cell
    piece is just that cell's ``x``. Each *group* is a split of one unit into pieces, so each
    digit lies in exactly one piece of it; ``groups`` holds, for each, the *bases* of its
    pieces (the literal of a piece for digit ``d`` is ``base + d``):

    - units of two *partitioning* kinds (kinds whose units cover every cell once: rows,
      columns, boxes, jigsaw regions) cut each other into parts: a row into the three
      triads it shares with boxes, a box into three row triads and three column triads
      (rows × columns give one-cell pieces only, so that pair adds nothing);
    - any other two units sharing two or more cells (a diagonal or a window and a box, a
      window and a row, ...) each split into their shared part plus single cells.

    Unit propagation over these groups makes every locked-candidate (pointing / claiming)
    deduction for every pair of overlapping units.
    """

    cells: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=64)
def parts(geometry: Geometry) -> Parts:
    """The parts and groups of a geometry (for 9×9: 27 row-box triads, then 27 column-box
    triads, in 36 groups).

    >>> from sudoku_csp.variants import make_geometry
    >>> p = parts(make_geometry(9))
    >>> len(p.cells), p.cells[0], p.names[0], len(p.groups)
    (54, (0, 1, 2), 'row 1 & box 1', 36)
    """
    n, ncells = geometry.size, geometry.ncells
    units = geometry.units
    numbering = variables(geometry)  # x() and triad() do not depend on the part count
    kinds: dict[str, list[int]] = {}
    for u, unit in enumerate(units):
        kinds.setdefault(unit.kind, []).append(u)
    partitioning: dict[str, list[int]] = {}  # kind -> the unit holding each cell
    for kind, members in kinds.items():
        owner = [-1] * ncells
        for u in members:
            for cell in units[u].cells:
                owner[cell] = u
        if len(members) * n == ncells and -1 not in owner:
            partitioning[kind] = owner

    cells: list[tuple[int, ...]] = []
    names: list[str] = []
    groups: list[tuple[int, ...]] = []
    known: dict[tuple[int, ...], int] = {}

    def base_of(piece: Sequence[int], a: int, b: int) -> int:
        if len(piece) == 1:
            return numbering.x(piece[0], 0)
        key = tuple(sorted(piece))
        if key not in known:  # two pairs of units may share the same cells: one variable
            known[key] = numbering.triad(len(cells), 0)
            cells.append(key)
            names.append(f"{units[a].name} & {units[b].name}")
        return known[key]

    owners = list(partitioning.values())
    for i, owner_a in enumerate(owners):
        for owner_b in owners[i + 1:]:
            pieces: dict[tuple[int, int], list[int]] = {}
            for cell in range(ncells):
                pieces.setdefault((owner_a[cell], owner_b[cell]), []).append(cell)
            if max(len(p) for p in pieces.values()) < 2:
                continue  # e.g. rows × columns: every piece one cell, nothing to add
            base = {key: base_of(pieces[key], *key) for key in sorted(pieces)}
            for side in (0, 1):
                by_unit: dict[int, list[int]] = {}
                for key in sorted(pieces, key=lambda k: (k[side], k[1 - side])):
                    by_unit.setdefault(key[side], []).append(base[key])
                groups.extend(tuple(bases) for _, bases in sorted(by_unit.items()))

    sets = [frozenset(u.cells) for u in units]
    for a in range(len(units)):
        for b in range(a + 1, len(units)):
            if units[a].kind in partitioning and units[b].kind in partitioning:
                continue
            common = sets[a] & sets[b]
            if len(common) < 2 or len(common) == n:
                continue
            t = base_of(sorted(common), a, b)
            for u in (a, b):
                groups.append((t, *(numbering.x(c, 0) for c in units[u].cells
                                     if c not in common)))
    return Parts(tuple(cells), tuple(names), tuple(groups))
