"""The digit-plane engine (sudoku_csp.native.planes) against the per-cell reference rules:
the same fixpoint candidates, the same contradictions, the same search tree."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cases import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import Puzzle, make_geometry, read_puzzles
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io import parse
from sudoku_csp.native.planes import MAX_PLANE_SIZE, planes, takes_locked
from sudoku_csp.native.search import Searcher
from sudoku_csp.native.state import State

DATA = Path(__file__).parents[1] / "sudoku_csp" / "data"


def plane_fixpoint(puzzle: Puzzle, preset: str) -> list[int] | None:
    engine = planes(puzzle.geometry)
    assert engine is not None
    state = engine.propagate(engine.start(puzzle.givens), locked=preset == "locked")
    return None if state is None else engine.candidates(state[0])


def cell_fixpoint(puzzle: Puzzle, preset: str) -> list[int] | None:
    state = State.from_puzzle(puzzle)
    out = Searcher(preset).propagate_only(state)
    return None if out.refuted else state.cand


def presets(puzzle: Puzzle) -> list[str]:
    engine = planes(puzzle.geometry)
    assert engine is not None
    return ["singles", "locked"] if takes_locked(engine) else ["singles"]


def plain_cases() -> list:
    return [c for c in CASES if c.puzzle().geometry.size <= MAX_PLANE_SIZE]


@pytest.mark.parametrize("case", plain_cases(), ids=lambda c: c.name)
def test_same_fixpoint_on_every_shared_case(case):
    puzzle = case.puzzle()
    for preset in presets(puzzle):
        assert plane_fixpoint(puzzle, preset) == cell_fixpoint(puzzle, preset), preset


def test_same_fixpoint_on_the_bundled_files():
    for name in ("mixed9.txt",):
        for puzzle in read_puzzles(DATA / name):
            for preset in presets(puzzle):
                assert plane_fixpoint(puzzle, preset) == cell_fixpoint(puzzle, preset)


def random_givens(geometry, rng: random.Random, keep: float, clash: bool) -> Puzzle:
    """Givens from a solved grid (a random subset), or random digits that may clash."""
    n = geometry.size
    if clash:
        givens = tuple(rng.randrange(n) if rng.random() < keep else EMPTY
                       for _ in range(geometry.ncells))
    else:
        solution = Searcher("locked", order="random", seed=rng.randrange(10**6)).run(
            State.from_puzzle(Puzzle(geometry, (EMPTY,) * geometry.ncells))).solutions[0]
        givens = tuple(d if rng.random() < keep else EMPTY for d in solution)
    return Puzzle(geometry, givens)


GEOMETRIES = [
    make_geometry(4), make_geometry(6), make_geometry(8), make_geometry(9),
    make_geometry(9, variants=["diagonal"]), make_geometry(9, variants=["windoku"]),
    make_geometry(9, variants=["anti-knight"]), make_geometry(12, box=(2, 6)),
    make_geometry(6, box=(3, 2)), make_geometry(12, box=(4, 3)),  # boxes taller than wide
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GEOMETRIES), st.integers(0, 10**9), st.floats(0.05, 0.6),
       st.booleans())
def test_same_fixpoint_on_random_givens(geometry, seed, keep, clash):
    puzzle = random_givens(geometry, random.Random(seed), keep, clash)
    for preset in presets(puzzle):
        assert plane_fixpoint(puzzle, preset) == cell_fixpoint(puzzle, preset), preset


@pytest.mark.parametrize("branch", ["mrv", "degree", "first"])
@pytest.mark.parametrize("preset", ["singles", "locked"])
def test_same_search_tree(preset, branch):
    """Counting solutions of sparse puzzles walks the same tree on both engines (all of
    them on 4×4, the first 100 elsewhere)."""
    rng = random.Random(7)
    for geometry in (make_geometry(4), make_geometry(6), make_geometry(9)):
        limit = None if geometry.size == 4 else 100
        for _ in range(4):
            puzzle = random_givens(geometry, rng, 0.4 if geometry.size == 9 else 0.15, False)
            searcher = Searcher(preset, branch)
            fast = searcher.solve(puzzle, limit=limit)
            ref = searcher.run(State.from_puzzle(puzzle), limit=limit)
            assert fast.state is None and ref.state is not None  # the plane engine ran
            assert fast.solutions == ref.solutions
            assert fast.complete == ref.complete
            for key in ("nodes", "guesses", "backtracks"):
                assert getattr(fast.stats, key) == getattr(ref.stats, key), key


def test_random_value_order_is_the_same_on_both_engines():
    puzzle = parse("." * 81)
    searcher = Searcher("locked", order="random", seed=11)
    assert searcher.solve(puzzle, limit=3).solutions == \
        searcher.run(State.from_puzzle(puzzle), limit=3).solutions


def test_refuted_givens_and_constraints_and_other_rules():
    clash = parse("11" + "." * 79)
    out = Searcher("locked").solve(clash)
    assert out.refuted and not out.solutions
    # Rules the plane engine does not run, and typed constraints, go to the per-cell engine.
    assert Searcher("pairs").solve(parse("." * 16)).state is not None
    killer = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    assert Searcher("locked").solve(killer, limit=2).state is not None


def test_jigsaw_runs_singles_on_planes_and_locked_per_cell():
    case = next(c for c in CASES if c.name == "jigsaw")
    engine = planes(case.puzzle().geometry)
    assert engine is not None and not takes_locked(engine)
    assert Searcher("singles").solve(case.puzzle()).state is None
    assert Searcher("locked").solve(case.puzzle()).state is not None


def test_large_grids_stay_per_cell():
    assert planes(make_geometry(16)) is None and planes(make_geometry(25)) is None
