"""sudoku_csp: solve, count and study Sudoku puzzles with three independent solvers.

>>> from sudoku_csp import solve
>>> solve("1..." "..1." ".1.." "...1", limit=2).status
<Status.MULTIPLE: 'multiple'>
"""

from __future__ import annotations

from sudoku_csp.backends import Backend, SpecError, get_backend, make_backend
from sudoku_csp.backends.registry import DEFAULT_SPEC
from sudoku_csp.errors import BackendError, InputError
from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, Unit
from sudoku_csp.puzzle import (
    InvalidPuzzleError,
    ParseError,
    Puzzle,
    format_grid,
    format_line,
    parse,
    read_puzzles,
)
from sudoku_csp.result import Result, Status
from sudoku_csp.variants import VARIANTS, make_geometry
from sudoku_csp.verify import WrongSolutionError, is_solution, violations

__version__ = "0.1.0"


def solve(puzzle: Puzzle | str, solver: str = DEFAULT_SPEC, *, limit: int | None = 1,
          time_limit: float | None = None) -> Result:
    """Solve ``puzzle`` (a Puzzle or puzzle text) with the backend named by ``solver``.

    ``limit`` solutions are looked for: 1 solves, 2 decides uniqueness, ``None`` counts all.
    """
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    return get_backend(solver).solve(puzzle, limit=limit, time_limit=time_limit)


def count(puzzle: Puzzle | str, solver: str = DEFAULT_SPEC, *, limit: int | None = 2,
          time_limit: float | None = None) -> Result:
    """Decide uniqueness (``limit=2``): status UNIQUE, MULTIPLE, NONE or UNKNOWN.

    >>> count("1..." "..1." ".1.." "...1").status
    <Status.MULTIPLE: 'multiple'>
    """
    return solve(puzzle, solver, limit=limit, time_limit=time_limit)


__all__ = [
    "EMPTY",
    "BackendError",
    "InputError",
    "VARIANTS",
    "Backend",
    "Geometry",
    "GeometryError",
    "InvalidPuzzleError",
    "ParseError",
    "Puzzle",
    "Result",
    "SpecError",
    "Status",
    "Unit",
    "WrongSolutionError",
    "count",
    "format_grid",
    "format_line",
    "get_backend",
    "is_solution",
    "make_backend",
    "make_geometry",
    "parse",
    "read_puzzles",
    "solve",
    "violations",
]
