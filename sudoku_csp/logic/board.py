"""The pencil-mark view the techniques read: the native solver's :class:`State` plus the few
geometry questions human techniques ask (which units are lines, who sees whom, where a digit
can go in a unit).

A cell is *open* until a step places a digit in it. Placing removes the digit from the
cell's peers at once (that is what pencil marks show) but does not cascade: a peer left with
one candidate stays open until a naked-single step places it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache, reduce
from operator import or_
from typing import Any, TypeVar

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.geometry import BOX_KINDS, EMPTY, Candidate, Geometry, UnitKind, bits
from sudoku_csp.logic.step import Step
from sudoku_csp.native.rules import assign
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import Puzzle

__all__ = ["Board", "Contradiction"]

T = TypeVar("T")

class Contradiction(Exception):
    """The pencil marks admit no solution (the puzzle has none)."""


class Layout:
    """Per-geometry facts the techniques use, computed once (see :func:`layout`)."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        units = geometry.units
        self.rows = tuple(u for u, unit in enumerate(units) if unit.kind == UnitKind.ROW)
        self.columns = tuple(u for u, unit in enumerate(units) if unit.kind == UnitKind.COLUMN)
        self.boxes = tuple(u for u, unit in enumerate(units) if unit.kind in BOX_KINDS)
        self.others = tuple(u for u, unit in enumerate(units)
                            if u not in self.rows + self.columns + self.boxes)
        # Hidden singles are looked for in this order (Sudoku Explainer rates boxes first).
        self.single_order = self.boxes + self.rows + self.columns + self.others
        self.unit_masks = tuple(sum(1 << c for c in unit.cells) for unit in units)
        self.row_of = [geometry.row(c) for c in range(geometry.ncells)]
        self.col_of = [geometry.col(c) for c in range(geometry.ncells)]
        # Uniqueness techniques swap two digits in a rectangle: sound only when every rule
        # is a row, a column or a box/region, so that the swap breaks none.
        self.plain = not geometry.extra_pairs and not self.others
        # Per cell, its peers as a mask over candidates (bit ``cell * size + digit``) at
        # digit 0: shifted by a digit, the candidates that digit's placement there clears.
        size = geometry.size
        self.peer_spread = tuple(sum(1 << (p * size) for p in peers) for peers in geometry.peers)


@lru_cache(maxsize=16)
def layout(geometry: Geometry) -> Layout:
    return Layout(geometry)


class Board:
    """Pencil marks during an explanation: ``cand[cell]`` is the candidate bitmask.

    >>> from sudoku_csp import parse
    >>> b = Board.from_puzzle(parse("1..." "..1." ".1.." "...1"))
    >>> b.label(5), b.candidates(5), b.is_open(0), b.is_open(5)
    ('B2', (1, 2, 3), False, True)
    """

    __slots__ = ("state", "tables", "geometry", "layout", "size", "cand", "constraints",
                 "deadline", "_memo", "_memo_key", "carried")

    def __init__(self, state: State, constraints: tuple[Constraint, ...] = (),
                 deadline: Deadline = NEVER) -> None:
        self.state = state
        # The explanation's deadline: the techniques that search long (chains, forcing
        # chains, large subsets) look at it as they go, through check_time.
        self.deadline = deadline
        # The puzzle's typed constraints (killer cages, …), for the steps that read them.
        self.constraints = constraints
        self.tables = state.tables
        self.geometry = state.geometry
        self.layout = layout(self.geometry)
        self.size = self.geometry.size
        self.cand = state.cand
        self._memo: dict[str, Any] = {}
        self._memo_key: tuple[tuple[int, ...], int] | None = None
        # What a technique keeps from one step to the next of the same explanation (a
        # finding that stays true as candidates go: see :meth:`cached`).
        self.carried: dict[str, Any] = {}

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> Board:
        """The pencil marks of ``puzzle``: givens placed, their digits gone from their peers.

        Raises :class:`Contradiction` if two givens clash.
        """
        state = State.from_puzzle(puzzle)
        state.pending.clear()
        board = cls(state, puzzle.constraints)
        for cell, digit in enumerate(puzzle.givens):
            if digit != EMPTY:
                board.place(cell, digit)
        for constraint in puzzle.constraints:
            if constraint.starting:  # pencil marks: where the solver stands, not a step
                board.narrow_by(constraint)
        return board

    def narrow_by(self, constraint: Constraint) -> None:
        """Remove what ``constraint``'s native links rule out (Contradiction if one cannot
        be met)."""
        for link in constraint.native(self.geometry):
            for cell, digit in self.ruled_out(link, constraint.describe(self.geometry)):
                self.remove(cell, digit)

    def ruled_out(self, link: Link, name: str) -> list[Candidate]:
        """The candidates of open cells that ``link`` (a native link of the constraint
        ``name`` names) rules out now; Contradiction when it cannot be met at all."""
        masks = tuple(self.cand[c] for c in link.cells)
        narrowed = link.narrow(masks)
        if narrowed is None:
            raise Contradiction(f"{name} cannot be met")
        return [(c, d) for c, old, new in zip(link.cells, masks, narrowed, strict=True)
                if self.is_open(c) for d in bits(old & ~new)]

    def copy(self) -> Board:
        return Board(self.state.copy(), self.constraints, self.deadline)

    def cached(self, name: str, compute: Callable[[], T]) -> T:
        """``compute()``, worked out once for these pencil marks: what several techniques
        read from the same position (the houses rules make, the weak links) is not derived
        again until a candidate changes. Keyed by the candidates themselves, so a change
        made any way (a step, a test writing marks) is seen.

        >>> b = Board.from_puzzle(__import__("sudoku_csp").parse("." * 16))
        >>> b.cached("n", lambda: [1]) is b.cached("n", lambda: [2])
        True
        """
        key = (tuple(self.cand), self.state.placed)
        if key != self._memo_key:
            self._memo, self._memo_key = {}, key
        if name not in self._memo:
            self._memo[name] = compute()
        return self._memo[name]

    def holders(self) -> list[int]:
        """Per digit, the open cells that hold it as a candidate (a mask of cells), worked
        out once per position (:meth:`cached`).

        >>> b = Board.from_puzzle(__import__("sudoku_csp").parse("1..." "..1." ".1.." "...1"))
        >>> b.holders()[0], [b.label(c) for c in range(16) if b.holders()[1] >> c & 1][:4]
        (0, ['A2', 'A3', 'A4', 'B1'])
        """

        def masks() -> list[int]:
            found = [0] * self.size
            placed = self.state.placed
            for c, m in enumerate(self.cand):
                if not placed >> c & 1:
                    for d in bits(m):
                        found[d] |= 1 << c
            return found

        return self.cached("holders", masks)

    def open_candidates(self) -> int:
        """The candidates of open cells as one mask, bit ``cell * size + digit`` (worked
        out once per position): sets of candidates as masks, intersected in one operation.

        >>> b = Board.from_puzzle(__import__("sudoku_csp").parse("1..." "..1." ".1.." "...1"))
        >>> b.open_candidates() & 0xff == 0b1110_0000   # A1 placed; A2 holds 2, 3, 4
        True
        """

        def mask() -> int:
            size, placed, found = self.size, self.state.placed, 0
            for c, m in enumerate(self.cand):
                if not placed >> c & 1:
                    found |= m << (c * size)
            return found

        return self.cached("open candidates", mask)

    def unmask(self, mask: int) -> list[Candidate]:
        """The candidates of a mask over candidates (bit ``cell * size + digit``, as
        :meth:`open_candidates`), sorted.

        >>> Board.from_puzzle(__import__("sudoku_csp").parse("." * 16)).unmask(0b100010)
        [(0, 1), (1, 1)]
        """
        size = self.size
        return [divmod(i, size) for i in bits(mask)]

    def check_time(self) -> None:
        """Raise :class:`~sudoku_csp.deadline.Expired` once the deadline has passed: what a
        technique calls between two pieces of a search that can run long on a large grid
        (the explanation then stops, that step unmade)."""
        self.deadline.check("looking for a step")

    # -- questions ------------------------------------------------------------------------
    def is_open(self, cell: int) -> bool:
        return not self.state.placed >> cell & 1

    @property
    def solved(self) -> bool:
        return self.state.solved

    def open_cells(self) -> Iterator[int]:
        placed = self.state.placed
        return (c for c in range(self.geometry.ncells) if not placed >> c & 1)

    def candidates(self, cell: int) -> tuple[int, ...]:
        return tuple(bits(self.cand[cell]))

    def places(self, unit: int, digit: int) -> list[int]:
        """The cells of ``unit`` where ``digit`` is still a candidate (placed ones too)."""
        bit = 1 << digit
        return [c for c in self.tables.units[unit] if self.cand[c] & bit]

    def is_done(self, unit: int, digit: int) -> bool:
        """``digit`` is already placed in ``unit``."""
        return bool(self.state.done[unit] >> digit & 1)

    def sees(self, a: int, b: int) -> bool:
        """``a`` and ``b`` are peers (share a unit or an extra "must differ" pair)."""
        return bool(self.tables.peer_masks[a] >> b & 1)

    def seen_by_all(self, cells: list[int] | tuple[int, ...]) -> list[int]:
        """Open cells that are peers of every one of ``cells`` (and none of them)."""
        mask = self.tables.all_cells & ~self.state.placed
        for c in cells:
            mask &= self.tables.peer_masks[c]
        return bits(mask)

    def label(self, cell: int) -> str:
        return self.geometry.label(cell)

    def sym(self, digit: int) -> str:
        return self.geometry.symbols[digit]

    def check(self, units: int | None = None) -> None:
        """Raise :class:`Contradiction` if an open cell has no candidate or a digit has no
        place left in a unit (of those in the bitmask ``units``; default: every unit)."""
        cand = self.cand
        if 0 in cand:  # a placed cell keeps its digit as its one candidate
            raise Contradiction(f"{self.label(cand.index(0))} has no candidate left")
        full, getters = self.tables.full, self.tables.getters
        for u in range(len(getters)) if units is None else bits(units):
            seen = reduce(or_, getters[u](cand))
            if seen != full:
                digit = bits(full & ~seen)[0]
                raise Contradiction(f"{self.sym(digit)} has no place left in "
                                    f"{self.geometry.units[u].name}")

    # -- changes --------------------------------------------------------------------------
    def place(self, cell: int, digit: int) -> None:
        if not self.cand[cell] >> digit & 1:
            raise Contradiction(f"{self.sym(digit)} is not a candidate of {self.label(cell)}")
        if not assign(self.state, cell, digit):
            raise Contradiction(f"placing {self.sym(digit)} in {self.label(cell)} empties a peer")

    def remove(self, cell: int, digit: int) -> None:
        self.cand[cell] &= ~(1 << digit)
        self.state.touch(cell)

    def apply(self, step: Step) -> None:
        """Make the step's placements and eliminations (then :meth:`check` the units they
        changed: the state's ``dirty`` units, which nothing else reads on a board)."""
        self.state.dirty = 0
        for cell, digit in step.eliminations:
            self.remove(cell, digit)
        for cell, digit in step.placements:
            if self.is_open(cell):
                self.place(cell, digit)
        self.check(self.state.dirty)

    def present(self, candidates: list[Candidate] | tuple[Candidate, ...]) -> list[Candidate]:
        """The ``(cell, digit)`` pairs still among the pencil marks, sorted, without repeats."""
        cand = self.cand
        return sorted({(c, d) for c, d in candidates if cand[c] >> d & 1})
