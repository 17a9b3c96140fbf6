"""What every generator shares: its errors, and the second opinion every puzzle gets before
it is yielded (:func:`confirm`)."""

from __future__ import annotations

from sudoku_csp.backends.base import Backend
from sudoku_csp.errors import BackendError, InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status


class GenerationError(InputError):
    """No puzzle met the request within the allowed attempts (or the geometry has no
    complete grid). Not a bug: the request may be too strict for the attempts allowed, so
    an input error (the CLI exits 6)."""


class NoGridError(GenerationError):
    """The geometry asked for has no complete grid at all (a 4×4 anti-king, say): no puzzle
    can be made for it. An input error: the request, not the search, is at fault."""


class CheckDisagreesError(BackendError):
    """The second backend (``check``) does not find exactly the one solution the SAT session
    found: one of the two is wrong, a bug (the CLI reports an internal error)."""




def confirm(puzzle: Puzzle, grid: Grid, checker: Backend) -> None:
    """The second opinion: ``checker`` (an independent backend) must find exactly one
    solution, ``grid``; :class:`CheckDisagreesError` otherwise. Every generator calls it on
    every puzzle before yielding it."""
    result = checker.solve(puzzle, limit=2)
    if result.status is not Status.UNIQUE or result.solution != grid:
        raise CheckDisagreesError(f"{checker.spec} finds {result.status} for a puzzle the SAT "
                              f"session found unique: {to_line(puzzle)}")
