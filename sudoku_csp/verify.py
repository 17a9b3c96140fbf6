"""The independent rule checker. It trusts no solver: every backend's answer passes here.

It reads only the puzzle's givens and the geometry's units and extra pairs (plain tuples of
cells) and checks the grid against them with sets; it shares no code with any solver. Typed
constraints (cages, thermometers, dots, ...) are checked by each kind's own ``violations``,
which adds up sums and compares values directly from the rule, never through the native,
CNF or CP-SAT translation of that kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from operator import itemgetter

from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import Geometry
from sudoku_csp.puzzle import Puzzle

__all__ = ["WrongSolutionError", "check_solutions", "is_solution", "violations"]


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` breaks as a solution of ``puzzle`` (empty list: a solution).

    >>> from sudoku_csp import Puzzle
    >>> p = Puzzle.parse("12..34..21..43..")
    >>> violations(p, [0] * 16)[:1]
    ['A2 holds 1 but the given is 2']
    """
    g = puzzle.geometry
    n = g.size
    if len(grid) != g.ncells:
        return [f"grid has {len(grid)} cells, expected {g.ncells}"]
    found = []
    if not all(type(d) is int and 0 <= d < n for d in grid):
        return [f"{g.label(c)} holds {d!r}, not a digit 0..{n - 1}"
                for c, d in enumerate(grid) if not (type(d) is int and 0 <= d < n)]
    if any(given >= 0 and given != d for given, d in zip(puzzle.givens, grid, strict=True)):
        found += [f"{g.label(c)} holds {d + 1} but the given is {given + 1}"
                  for c, (given, d) in enumerate(zip(puzzle.givens, grid, strict=True))
                  if given >= 0 and given != d]
    everything = set(range(n))
    for unit, digits in zip(g.units, map(set, _unit_digits(g, grid)), strict=True):
        if digits != everything:
            found.append(f"{unit.name} does not hold every digit once")
    for a, b in g.extra_pairs:
        if grid[a] == grid[b]:
            found.append(f"{g.label(a)} and {g.label(b)} must differ")
    for constraint in puzzle.constraints:
        found += constraint.violations(g, grid)
    return found


def _unit_digits(geometry: Geometry, grid: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The digits in each unit of ``geometry``, as tuples (one C-level fetch per unit)."""
    return (get(grid) for get in _getters(geometry))


@lru_cache(maxsize=64)  # bounded: a file of jigsaws brings a new geometry with every puzzle
def _getters(geometry: Geometry) -> list[itemgetter]:
    return [itemgetter(*u.cells) for u in geometry.units]


def is_solution(puzzle: Puzzle, grid: Sequence[int] | None) -> bool:
    """Whether ``grid`` solves ``puzzle``: every unit a permutation of the N digits, every
    extra pair different, every given kept, every typed constraint met.

    >>> from sudoku_csp import Puzzle
    >>> is_solution(Puzzle.parse("1..." "..1." ".1.." "...1"), [0] * 16)
    False
    """
    return grid is not None and not violations(puzzle, grid)


class WrongSolutionError(BackendError, AssertionError):
    """A backend returned a grid that is not a solution: a bug in that backend."""


def check_solutions(puzzle: Puzzle, grids: Sequence[Sequence[int]], solver: str) -> None:
    """Raise :class:`WrongSolutionError` unless every grid solves the puzzle."""
    for grid in grids:
        problems = violations(puzzle, grid)
        if problems:
            raise WrongSolutionError(
                f"{solver} returned a wrong solution for {puzzle.to_line()}: {problems[0]}"
            )
