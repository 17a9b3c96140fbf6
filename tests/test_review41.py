"""The CNF of arrows and renbans that leans on the grid's formula (an arrow's table leaves
out fillings where cells that see each other are equal, sum_tables.APART and the pill's
table; a renban's run keeps apart only the cells that share no unit), checked where that
formula could be missing or differ: counted to the end by every sat mode and option
(incremental sessions shared across geometries, the hybrid switch at one conflict), beside
the native solver, which reads no CNF, on grids with extra "sees" (diagonals, anti-king,
anti-knight, a jigsaw, disjoint groups); and the minimal conflicts of the puzzles with none,
whose parts load one by one behind selectors over the grid's rules: each names parts that
have no solution by the native solver, and leaving any one out leaves a solvable puzzle.
Small random puzzles from fixed seeds (review of 2026-11-27)."""

from __future__ import annotations

import random

import pytest

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import Constraint
from sudoku_csp.constraints.kinds.arrow import Arrow
from sudoku_csp.constraints.kinds.renban import Renban
from sudoku_csp.constraints.line_kinds import random_path
from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.puzzle import InvalidPuzzleError, Puzzle
from sudoku_csp.setter import minimal_conflict
from sudoku_csp.setter.session import puzzle_of
from sudoku_csp.variants import make_geometry

GEOMETRIES = {
    "4x4": lambda: make_geometry(4),
    "diagonal": lambda: make_geometry(4, variants=["diagonal"]),
    "anti-knight": lambda: make_geometry(4, variants=["anti-knight"]),
    "jigsaw": lambda: make_geometry(4, regions="0011022102213333"),  # an L, a square, a row
    "6x6 anti-king": lambda: make_geometry(6, variants=["anti-king"]),
    "6x6 disjoint": lambda: make_geometry(6, variants=["disjoint"]),
}
COUNTED = ("4x4", "diagonal", "anti-knight", "jigsaw")
"""Counted to the end: the 6x6 grids with few givens have too many solutions."""
SPECS = ("sat", "sat:mode=fresh", "sat:mode=reduced", "sat:renban_runs=off",
         "sat:renban_runs=both", "sat:fresh_after=1", "sat:line_sums=groups", "auto")


def _lines(geometry: Geometry, rng: random.Random) -> tuple[Constraint, ...]:
    """One to three renbans and arrows (one cell in the circle, or a pill) on paths of
    their own."""
    made: list[Constraint] = []
    used: set[int] = set()
    for _ in range(rng.randint(1, 3)):
        path = random_path(geometry, rng, rng.randint(2, min(geometry.size, 5)), used)
        if path is None:
            continue
        if rng.random() < 0.4:
            made.append(Renban(path))
        elif len(path) >= 3 and rng.random() < 0.4:
            made.append(Arrow(path[:2], (path,)))
        else:
            made.append(Arrow(path[:1], (path,)))
        used.update(path)
    return tuple(made)


def _puzzles(name: str, count: int) -> list[Puzzle]:
    """``count`` puzzles on the geometry ``name``: random lines and a few random givens
    (many have no solution), from a seed of their own."""
    geometry = GEOMETRIES[name]()
    rng = random.Random(f"review41 {name}")
    found: list[Puzzle] = []
    while len(found) < count:
        givens = [EMPTY] * geometry.ncells
        for cell in rng.sample(range(geometry.ncells), rng.randint(0, geometry.size) // 2):
            givens[cell] = rng.randrange(geometry.size)
        try:
            found.append(Puzzle(geometry, tuple(givens), "", _lines(geometry, rng)))
        except InvalidPuzzleError:
            continue  # clashing givens, an arrow no filling reaches: drawn again
    return found


@pytest.mark.parametrize("name", COUNTED)
def test_every_sat_mode_counts_the_lines_as_the_native_solver(name):
    counts = set()
    for puzzle in _puzzles(name, 16):
        reference = get_backend("native").solve(puzzle, limit=None)
        assert reference.complete
        counts.add(min(reference.count, 2))
        for spec in SPECS:
            result = get_backend(spec).solve(puzzle, limit=None)
            assert (result.status, result.count, result.complete) == (
                reference.status, reference.count, True), (spec, puzzle.constraints)
            if len(reference.solutions) == reference.count == len(result.solutions):
                assert sorted(result.solutions) == sorted(reference.solutions), spec
    assert len(counts) > 1  # the seeds give puzzles of more than one verdict


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_a_minimal_conflict_of_lines_is_one_the_native_solver_confirms(name):
    native = get_backend("native")
    without = 0
    for puzzle in _puzzles(name, 10):
        if native.solve(puzzle, limit=1).count:
            assert minimal_conflict(puzzle) is None
            continue
        without += 1
        conflict = minimal_conflict(puzzle)
        assert conflict is not None and conflict.proven and conflict.minimal
        parts = list(conflict.parts)
        assert native.solve(puzzle_of(puzzle, parts), limit=1).count == 0, conflict.names()
        for part in parts:
            rest = [p for p in parts if p != part]
            assert native.solve(puzzle_of(puzzle, rest), limit=1).count == 1, part.name
    assert without  # the seeds give puzzles with no solution to report on
