"""Puzzles: a geometry, its givens and its typed constraints. A value type, nothing else.

Reading and writing puzzle text is :mod:`sudoku_csp.io`'s job (``parse``, ``to_line``,
``read_puzzles``, ...); solving is the backends'.

>>> from sudoku_csp import make_geometry
>>> p = Puzzle(make_geometry(4), (0,) + (EMPTY,) * 15)
>>> p.size, p.clue_count, p.clashes()
(4, 1, [])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from sudoku_csp.constraints import Constraint, ConstraintError, check_all
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, Geometry, Grid, symbol

__all__ = ["Clash", "InvalidPuzzleError", "Puzzle"]


class InvalidPuzzleError(InputError):
    """A puzzle built in code with givens that do not fit its geometry."""


class Clash(NamedTuple):
    """Two givens that break a rule: ``a`` and ``b`` both hold ``digit`` in ``where``."""

    a: int
    b: int
    digit: int
    where: str


_INT = {int}


@dataclass(frozen=True)
class Puzzle:
    """A geometry and its givens (``EMPTY`` for a blank), plus free-text ``metadata`` and
    the typed ``constraints`` of :mod:`sudoku_csp.constraints` (killer cages, thermometers,
    dots, ...), which every backend and :mod:`sudoku_csp.verify` honour.

    Givens must fit the geometry (one digit ``0..N-1`` or ``EMPTY`` per cell) and the
    constraints must stand on it, else :class:`InvalidPuzzleError` says what is wrong.

    >>> from sudoku_csp import make_geometry
    >>> Puzzle(make_geometry(4), (4,) + (EMPTY,) * 15)
    Traceback (most recent call last):
    ...
    sudoku_csp.puzzle.InvalidPuzzleError: given 4 at A1 is not a digit 0..3
    """

    geometry: Geometry
    givens: Grid
    metadata: str = ""
    constraints: tuple[Constraint, ...] = ()
    notes: tuple[str, ...] = field(default=(), compare=False)
    """What a reader left out of the rules and says so (``ignored decoration: 15 lines``):
    shown to the user, written in records, never part of what the puzzle is."""

    def __post_init__(self) -> None:
        givens = tuple(self.givens)
        object.__setattr__(self, "givens", givens)
        constraints = tuple(self.constraints)
        object.__setattr__(self, "constraints", constraints)
        if constraints:
            try:
                check_all(self.geometry, constraints)
            except ConstraintError as exc:
                raise InvalidPuzzleError(str(exc)) from None
        n = self.geometry.size
        if len(givens) != self.geometry.ncells:
            raise InvalidPuzzleError(
                f"a {self.geometry.name} puzzle has {self.geometry.ncells} cells, "
                f"got {len(givens)} givens"
            )
        # Plain ints from EMPTY (-1) to N-1 are all good; only other givens are walked,
        # to find and name the first bad one.
        if not ({*map(type, givens)} <= _INT and min(givens, default=0) >= EMPTY
                and max(givens, default=0) < n):
            for cell, d in enumerate(givens):
                if d != EMPTY and not 0 <= d < n:
                    raise InvalidPuzzleError(
                        f"given {d} at {self.geometry.label(cell)} is not a digit 0..{n - 1}"
                    )

    @classmethod
    def _checked(cls, geometry: Geometry, givens: Grid, metadata: str, line: str) -> Puzzle:
        """A puzzle of givens the caller has already checked (a tuple of one int from EMPTY
        to N-1 per cell), made without checking them again: the plain-line reader's fast
        path (:func:`sudoku_csp.io.grid.plain_line`), where that check would cost half of
        the parsing. ``line`` is what :func:`sudoku_csp.io.to_line` must return, kept (as
        ``_line``, outside the compared fields) so that a batch run does not write it again
        for every record."""
        puzzle = object.__new__(cls)
        puzzle.__dict__.update(geometry=geometry, givens=givens, metadata=metadata,
                               constraints=(), _line=line)
        return puzzle

    @classmethod
    def empty(cls, geometry: Geometry) -> Puzzle:
        """The puzzle with no given and no constraint."""
        return cls(geometry, (EMPTY,) * geometry.ncells)

    # -- views ----------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def clue_count(self) -> int:
        return sum(d != EMPTY for d in self.givens)

    def clashes(self) -> list[Clash]:
        """Pairs of givens that already break a rule (same digit twice in a unit or pair)."""
        g, givens = self.geometry, self.givens
        found = []
        for unit in g.units:
            first: dict[int, int] = {}
            for cell in unit.cells:
                d = givens[cell]
                if d == EMPTY:
                    continue
                if d in first:
                    found.append(Clash(first[d], cell, d, unit.name))
                else:
                    first[d] = cell
        for a, b in g.extra_pairs:
            if givens[a] != EMPTY and givens[a] == givens[b]:
                found.append(Clash(a, b, givens[a], "extra pair"))
        return found

    def describe_clash(self, clash: Clash) -> str:
        g = self.geometry
        return (f"givens clash: {g.label(clash.a)} and {g.label(clash.b)} both hold "
                f"{symbol(clash.digit)} in {clash.where}")

    def __repr__(self) -> str:
        """The grid as a line of symbols (digits 1-based, ``.`` blank), as text shows it.

        >>> from sudoku_csp import parse
        >>> parse("3.1...4.2.......")
        <Puzzle 4x4, 4 givens: 3.1...4.2.......>
        """
        kinds = Counter(c.kind for c in self.constraints)
        extra = "".join(f", {n} {kind}" for kind, n in kinds.items())
        about = f" ({self.metadata})" if self.metadata else ""
        return (f"<Puzzle {self.geometry.name}, {self.clue_count} givens{extra}: "
                f"{''.join(map(symbol, self.givens))}{about}>")

    def _repr_svg_(self) -> str:
        from sudoku_csp.render import grid_svg  # a display hook: only notebooks draw

        return grid_svg(self.geometry, self.givens, constraints=self.constraints)
