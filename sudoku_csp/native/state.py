"""Candidate states for the native solver: one bitmask of candidate digits per cell.

Bit ``d`` of ``cand[cell]`` is set while digit ``d`` is still possible in ``cell``. A cell is
*placed* once its single digit has been removed from all its peers; ``pending`` lists cells
that are single but not yet placed. Everything the rules need from the geometry is
precomputed once per geometry in :class:`Tables` (lists of ints, no per-call work).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle, grid_to_dict


class Tables:
    """Per-geometry lookup tables for the rules and the search.

    ``intersections`` lists, for every ordered pair of units (U, V) sharing two or more
    cells, ``(U ∩ V, U \\ V, V \\ U)``: the shape the locked-candidates rule works on
    (box/line pointing and claiming, and the same for diagonals, windows, regions).
    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.size = geometry.size
        self.ncells = geometry.ncells
        self.full = (1 << self.size) - 1
        self.all_cells = (1 << self.ncells) - 1
        self.peers = [tuple(p) for p in geometry.peers]
        self.units = [u.cells for u in geometry.units]
        intersections = []
        for a, b in permutations(range(len(self.units)), 2):
            u, v = set(self.units[a]), set(self.units[b])
            common = u & v
            if len(common) >= 2:
                intersections.append((
                    tuple(sorted(common)), tuple(sorted(u - v)), tuple(sorted(v - u)),
                ))
        self.intersections = intersections


@lru_cache(maxsize=32)
def tables(geometry: Geometry) -> Tables:
    """The (cached) tables of a geometry."""
    return Tables(geometry)


class State:
    """Candidates of every cell during solving. Rules and search mutate it in place.

    >>> from sudoku_csp import Puzzle
    >>> s = State.from_puzzle(Puzzle.parse("1..." "..1." ".1.." "...1"))
    >>> s.candidates(1)
    (1, 2, 3)
    """

    __slots__ = ("tables", "cand", "pending", "placed", "givens")

    def __init__(self, tables: Tables, cand: list[int], pending: list[int], placed: int,
                 givens: Grid) -> None:
        self.tables = tables
        self.cand = cand
        self.pending = pending
        self.placed = placed
        self.givens = givens

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> State:
        """All digits possible in blank cells; each given's cell single and pending.

        The givens' digits have not left their peers yet: run ``eliminate`` (or any preset)
        for that. Clashing givens show up as a contradiction at that point.
        """
        t = tables(puzzle.geometry)
        full = t.full
        cand = [full if d == EMPTY else 1 << d for d in puzzle.givens]
        pending = [c for c, d in enumerate(puzzle.givens) if d != EMPTY]
        return cls(t, cand, pending, 0, puzzle.givens)

    def copy(self) -> State:
        return State(self.tables, self.cand[:], self.pending[:], self.placed, self.givens)

    # -- queries --------------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return self.tables.geometry

    @property
    def solved(self) -> bool:
        """Every cell placed (so every digit has left every peer: a consistent grid)."""
        return self.placed == self.tables.all_cells

    def candidates(self, cell: int) -> tuple[int, ...]:
        m = self.cand[cell]
        return tuple(d for d in range(self.tables.size) if m >> d & 1)

    def grid(self) -> Grid:
        """Digit of each single cell, ``EMPTY`` elsewhere."""
        return tuple(m.bit_length() - 1 if m and not m & (m - 1) else EMPTY for m in self.cand)

    def to_dict(self) -> dict[str, str]:
        """Norvig-style values dict: label -> string of candidate symbols."""
        g = self.geometry
        syms = g.symbols
        return {g.label(c): "".join(syms[d] for d in self.candidates(c))
                for c in range(g.ncells)}

    def grid_dict(self) -> dict[str, str]:
        return grid_to_dict(self.geometry, self.grid())

    def _repr_svg_(self) -> str:
        from sudoku_csp.render import grid_svg

        return grid_svg(self.geometry, self.givens, values=self.grid(), candidates=self.cand)


def state_from_candidates(puzzle: Puzzle, candidates: Sequence[Sequence[int]]) -> State:
    """A state with the given candidate digits per cell (for exercising rules by hand).

    Single cells start pending (not yet placed), as after a deduction.
    """
    t = tables(puzzle.geometry)
    cand = [sum(1 << d for d in digits) for digits in candidates]
    pending = [c for c, m in enumerate(cand) if m and not m & (m - 1)]
    return State(t, cand, pending, 0, puzzle.givens)
