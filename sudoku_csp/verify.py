"""The independent rule checker. It trusts no solver: every backend's answer passes here.

It reads only the puzzle's givens and the geometry's units and extra pairs (plain tuples of
cells) and checks the grid against them with sums and sets; it shares no code with any
solver. Typed constraints (cages, thermometers, dots, ...) are checked by each kind's own
``violations``, which adds up sums and compares values directly from the rule, never
through the native, CNF or CP-SAT translation of that kind.

Every answer of every backend passes here, so the common case, a grid that is a solution,
is decided by a few C-level passes over tables built once per geometry
(:func:`_solves_grid`); only a grid that fails them is walked again rule by rule, to name
what it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from operator import add, eq, itemgetter
from typing import NamedTuple

from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle

__all__ = ["WrongSolutionError", "check_solutions", "is_solution", "violations"]


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` breaks as a solution of ``puzzle`` (empty list: a solution).

    >>> from sudoku_csp import parse
    >>> p = parse("12..34..21..43..")
    >>> violations(p, [0] * 16)[:1]
    ['A2 holds 1 but the given is 2']
    """
    g = puzzle.geometry
    if _solves_grid(puzzle, grid):
        found: list[str] = []
    else:
        n = g.size
        if len(grid) != g.ncells:
            return [f"grid has {len(grid)} cells, expected {g.ncells}"]
        if not all(type(d) is int and 0 <= d < n for d in grid):
            return [f"{g.label(c)} holds {d!r}, not a digit 0..{n - 1}"
                    for c, d in enumerate(grid) if not (type(d) is int and 0 <= d < n)]
        found = _broken_rules(puzzle, grid)
    for constraint in puzzle.constraints:
        found += constraint.violations(g, grid)
    return found


def _broken_rules(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """One line per given, unit and extra pair that ``grid`` (of digits) breaks."""
    g = puzzle.geometry
    found = [f"{g.label(c)} holds {d + 1} but the given is {given + 1}"
             for c, (given, d) in enumerate(zip(puzzle.givens, grid, strict=True))
             if given >= 0 and given != d]
    everything = set(range(g.size))
    for unit, digits in zip(g.units, map(set, _unit_digits(g, grid)), strict=True):
        if digits != everything:
            found.append(f"{unit.name} does not hold every digit once")
    for a, b in g.extra_pairs:
        if grid[a] == grid[b]:
            found.append(f"{g.label(a)} and {g.label(b)} must differ")
    return found


SUMS_UP_TO = 12
"""Largest N whose units :func:`_solves_grid` checks by sums; larger grids by a set: sums
are faster up to 12×12, even at 16×16 and slower beyond, since multiplying integers of N³
bits grows faster than a set of N³ numbers (docs/design.md: Design choices, measured)."""


class _Tables(NamedTuple):
    """One geometry's rules as flat tables for :func:`_solves_grid`."""

    digits: bytes  # the bytes 0..N-1: what a grid's bytes may hold
    width: int  # bytes per cell in the sums' integer
    one_hot: tuple[bytes, ...]  # per byte of a cell: digit d -> that byte of 1 << d
    shapes: tuple[tuple[int, int, int], ...]  # per unit shape: (spread, ends, target)
    unit_cells: itemgetter | None  # beyond SUMS_UP_TO: every unit's cells, unit after unit
    unit_offsets: tuple[int, ...]  # u * N for each of those places (u: the unit's index)
    pair_firsts: tuple[int, ...]  # the extra pairs' cells, first and second
    pair_seconds: tuple[int, ...]


@lru_cache(maxsize=64)  # bounded: a file of jigsaws brings a new geometry with every puzzle
def _tables(geometry: Geometry) -> _Tables:
    n = geometry.size
    pairs = (tuple(a for a, _ in geometry.extra_pairs), tuple(b for _, b in geometry.extra_pairs))
    if n > SUMS_UP_TO:
        cells = [c for u in geometry.units for c in u.cells]
        offsets = tuple(u * n for u, unit in enumerate(geometry.units) for _ in unit.cells)
        return _Tables(bytes(range(n)), 0, (), (), itemgetter(*cells), offsets, *pairs)
    # A unit's sum of 1 << digit is at most N << (N - 1): that many bits never overflow a
    # cell's field into the next one.
    width = ((n << (n - 1)).bit_length() + 7) // 8
    bits = 8 * width
    one_hot = tuple(bytes.maketrans(bytes(range(n)),
                                    bytes(((1 << d) >> (8 * j)) & 255 for d in range(n)))
                    for j in range(width))
    # Units of one shape (rows; columns; boxes and windows; each diagonal; each jigsaw
    # region) are the same cells moved: one multiplication sums all of them at once.
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for unit in geometry.units:
        first = min(unit.cells)
        by_shape.setdefault(tuple(sorted(c - first for c in unit.cells)), []).append(first)
    shapes = []
    field, full = (1 << bits) - 1, (1 << n) - 1
    for shape, firsts in by_shape.items():
        last = shape[-1]
        # Field j of x * spread is the sum of fields j - last + s (s in the shape): at
        # j = first + last, the sum over the unit's cells.
        spread = sum(1 << (bits * (last - s)) for s in shape)
        ends = [bits * (first + last) for first in firsts]
        shapes.append((spread, sum(field << e for e in ends), sum(full << e for e in ends)))
    return _Tables(bytes(range(n)), width, one_hot, tuple(shapes), None, (), *pairs)


def _solves_grid(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether ``grid`` has a digit ``0..N-1`` (an ``int``, not a bool) in every cell,
    keeps every given, holds every digit once in each unit and differs across each extra
    pair: all that :func:`violations` checks but the typed constraints, answered by a few
    C-level steps over tables built once per geometry, without naming anything.

    Each unit holds N cells, so its digits are all different exactly when they are every
    digit once. Up to :data:`SUMS_UP_TO`, that is when the sum of ``1 << digit`` over its
    cells is ``2**N - 1`` (a sum of N powers of two has N one bits only when no two are
    equal): the grid is written as one integer with a field of ``1 << digit`` per cell,
    wide enough that no unit's sum carries out of a field, and multiplying it by a unit
    shape's spread adds up every unit of that shape at once, each sum landing in the field
    of the unit's last cell. Larger grids tag each digit with its unit (``u * N + digit``):
    one set of ``units × N`` distinct numbers over the whole grid. A given is kept where the
    grid's digit equals it, and only given cells (never ``EMPTY``) can: so every given is
    kept exactly when the equal cells number the givens.
    """
    t = _tables(puzzle.geometry)
    givens = puzzle.givens
    if len(grid) != len(givens) or {*map(type, grid)} != _INT:
        return False
    try:
        digits = bytes(grid)
    except ValueError:  # below 0 or above 255
        return False
    if digits.translate(None, t.digits) \
            or sum(map(eq, givens, grid)) != len(givens) - givens.count(EMPTY):
        return False
    if t.unit_cells is None:
        width = t.width
        fields = bytearray(len(digits) * width)
        for j, table in enumerate(t.one_hot):
            fields[j::width] = digits.translate(table)
        x = int.from_bytes(fields, "little")
        for spread, ends, target in t.shapes:
            if (x * spread) & ends != target:
                return False
    elif len({*map(add, t.unit_offsets, t.unit_cells(grid))}) != len(t.unit_offsets):
        return False
    return not any(map(eq, map(grid.__getitem__, t.pair_firsts),
                       map(grid.__getitem__, t.pair_seconds)))


_INT = {int}


def _unit_digits(geometry: Geometry, grid: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The digits in each unit of ``geometry``, as tuples (one C-level fetch per unit)."""
    return (get(grid) for get in _getters(geometry))


@lru_cache(maxsize=64)  # bounded: a file of jigsaws brings a new geometry with every puzzle
def _getters(geometry: Geometry) -> list[itemgetter]:
    return [itemgetter(*u.cells) for u in geometry.units]


def is_solution(puzzle: Puzzle, grid: Sequence[int] | None) -> bool:
    """Whether ``grid`` solves ``puzzle``: every unit a permutation of the N digits, every
    extra pair different, every given kept, every typed constraint met.

    >>> from sudoku_csp import parse
    >>> is_solution(parse("1..." "..1." ".1.." "...1"), [0] * 16)
    False
    """
    return grid is not None and not violations(puzzle, grid)


class WrongSolutionError(BackendError, AssertionError):
    """A backend returned a grid that is not a solution: a bug in that backend."""


def check_solutions(puzzle: Puzzle, grids: Sequence[Sequence[int]], solver: str) -> None:
    """Raise :class:`WrongSolutionError` unless every grid solves the puzzle."""
    for grid in grids:
        if not puzzle.constraints and _solves_grid(puzzle, grid):
            continue  # the common case, at the cost of one call
        problems = violations(puzzle, grid)
        if problems:
            raise WrongSolutionError(
                f"{solver} returned a wrong solution for {to_line(puzzle)}: {problems[0]}"
            )
