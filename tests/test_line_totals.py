"""Region-sum, zipper and short double-arrow lines in CNF by their shared total
(``region_sums=sets``, ``zipper_sums=totals``, ``double_arrows=totals``): the same solutions
as the automaton's clauses (the sets of a double arrow), the native solver and CP-SAT, on
6x6 puzzles drawn from a grid with few givens (several solutions each, so that a clause too
many or too few shows as a count that differs)."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from sudoku_csp.backends import make_backend
from sudoku_csp.constraints import DoubleArrow, RegionSumLine, ZipperLine, cnf_clauses
from sudoku_csp.constraints.kinds.regionsum import MOST_SETS, _shared_totals
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

REFERENCE = "sat:region_sums=cells,zipper_sums=cells,double_arrows=sets"
SPECS = ("sat", REFERENCE, "sat:mode=fresh", "native", "cpsat")
LIMIT = 40


JIGSAW = "AAAABB" "AABBBB" "CCCCDD" "CCDDDD" "EEEEFF" "EEFFFF"
"""A 6x6 jigsaw whose regions are no boxes: a region-sum line's segments are its regions'."""


def _puzzle(kind: type, seed: int, regions: str | None = None
            ) -> tuple[Puzzle, tuple[int, ...]]:
    """A 6x6 of some lines of ``kind`` read off a solved grid, with givens of the grid
    added (by the automaton's clauses, the reference here) until fewer than ``LIMIT``
    solutions are left."""
    geometry = make_geometry(6, regions=regions)
    rng = random.Random(f"{kind.kind} {seed}")
    empty = Puzzle.empty(geometry)
    grid = make_backend(f"native:order=random,seed={seed}").solve(empty).solutions[0]
    lines = tuple(kind.sample(geometry, grid, rng) + kind.sample(geometry, grid, rng))
    givens = [EMPTY] * geometry.ncells
    order = rng.sample(range(geometry.ncells), geometry.ncells)
    reference = make_backend(REFERENCE)
    while True:
        puzzle = dataclasses.replace(empty, givens=tuple(givens), constraints=lines)
        if reference.solve(puzzle, limit=LIMIT).count < LIMIT:
            return puzzle, grid
        cell = order.pop()
        givens[cell] = grid[cell]


@pytest.mark.parametrize(("kind", "regions"), [(RegionSumLine, None), (RegionSumLine, JIGSAW),
                                               (ZipperLine, None), (DoubleArrow, None)])
@pytest.mark.parametrize("seed", range(6))
def test_every_backend_counts_the_same_solutions(kind, regions, seed):
    puzzle, grid = _puzzle(kind, seed, regions)
    assert puzzle.constraints
    found = {}
    for spec in SPECS:
        result = make_backend(spec).solve(puzzle, limit=None)
        assert result.complete, spec
        found[spec] = result.count
    assert len(set(found.values())) == 1, (puzzle.constraints, found)
    # the grid the lines were read off is one of them: with all its givens, the only one
    whole = dataclasses.replace(puzzle, givens=grid)
    assert make_backend("sat").solve(whole, limit=2).count == 1


def test_segments_that_share_no_total_make_an_empty_clause():
    # A segment of one cell (at most 6) and one of three cells in a region (at least 6):
    # only 6 is shared; with a third segment of three where 6 = 1+2+3 they still share it,
    # but one cell beside three cells of a 4x4 region shares nothing (3 cells: 6 or more).
    g4 = make_geometry(4)
    assert not _shared_totals((1, 3), 4)
    clauses, _ = cnf_clauses(g4, [RegionSumLine((2, 0, 1, 4))], start=65)
    assert [list(c) for c in clauses] == [[]]
    assert sorted(_shared_totals((1, 3), 6)) == [6]


def test_long_segments_on_a_large_grid_keep_the_automaton():
    # Two segments of 8 cells on 16x16 have tens of thousands of digit sets between them:
    # more than MOST_SETS, so the line is written as its automaton (no selectors), and
    # the sets are never listed.
    assert 2 * math.comb(16, 8) > MOST_SETS
    _shared_totals.cache_clear()
    g16 = make_geometry(16)
    zigzag = [(r, c) for c in range(8) for r in ((0, 1) if c < 4 else (1, 0))]
    line = RegionSumLine(tuple(16 * r + c for r, c in zigzag))  # boxes 0 and 1, 8 cells each
    line.validate(g16)
    default, _ = cnf_clauses(g16, [line], start=g16.ncells * 16 + 1)
    automaton, _ = cnf_clauses(g16, [line], start=g16.ncells * 16 + 1,
                               options={"region_sums": "cells"})
    assert default == automaton
    assert _shared_totals.cache_info().currsize == 0
