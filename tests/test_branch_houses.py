"""The native ``houses`` branching: a cell's candidates, or a digit's places in a house when
it has fewer of them than the best cell has candidates."""

from __future__ import annotations

import dataclasses

import pytest
from cases import BY_NAME, CASES, CONSTRAINED_CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import EMPTY, Status, get_backend, is_solution, make_backend
from sudoku_csp.native import State
from sudoku_csp.native.branching import branch_degree, branch_houses, house_digit
from sudoku_csp.native.search import Searcher

HOUSES = "native:branch=houses"
CAP = 40  # solutions kept per count: both sides find all when fewer than this

# Small puzzles of every shape the fixtures hold: classic 4x4 to 9x9, jigsaw, diagonals,
# windoku, anti-knight, killers, thermometers, dots, parity (the 16x16 and larger are slow).
SMALL = [c for c in [*CASES, *CONSTRAINED_CASES] if c.puzzle().geometry.size <= 9]


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SMALL), st.randoms(use_true_random=False))
def test_houses_finds_the_solutions_sat_finds(case, rng):
    # A few givens dropped make puzzles of several solutions, which a search that skipped a
    # house digit's place (or a cell's digit) would miss.
    puzzle = case.puzzle()
    keep = rng.random()
    givens = tuple(g if g == EMPTY or rng.random() < keep else EMPTY for g in puzzle.givens)
    puzzle = dataclasses.replace(puzzle, givens=givens)
    truth = get_backend("sat").solve(puzzle, limit=CAP)
    found = get_backend(HOUSES).solve(puzzle, limit=CAP)
    assert found.status is truth.status, case.name
    assert all(is_solution(puzzle, s) for s in found.solutions)
    if len(truth.solutions) < CAP:
        assert sorted(found.solutions) == sorted(truth.solutions), case.name


def test_house_digit_with_two_places_beats_four_candidate_cells():
    # An empty 9x9 whose cells hold four or five candidates, digit 1 (shown 2) on two
    # places in row A: the branch takes those two places, not a cell's four digits.
    s = State.from_puzzle(BY_NAME["empty9"].puzzle())
    for c in range(81):
        s.cand[c] = 0b11111 if c // 9 else 0b11101
    s.cand[3] = s.cand[7] = 0b11111
    assert house_digit(s, 3) == (0, 1)  # unit 0 (row A), digit 1
    assert branch_houses(s) == [(3, 1), (7, 1)]
    assert house_digit(s, 2) is None  # no choice narrower than a two-candidate cell
    s.cand[20] = 0b111  # a three-candidate cell: the cell, not the two-place digit
    assert branch_houses(s) == [(20, 0), (20, 1), (20, 2)]
    # a two-candidate cell is taken as the degree branching takes it (ties go to cells)
    s.cand[40] = 0b11
    cell, mask = branch_degree(s)
    assert branch_houses(s) == [(cell, 0), (cell, 1)] and cell == 40 and mask == 0b11


def test_house_branching_takes_fewer_nodes_on_a_kropki():
    # The 9x9 kropki fixture: after propagation its best cell keeps four candidates where a
    # digit has two places in a house; branching on those places decides it in 3 nodes,
    # the degree cell in 7.
    puzzle = next(c for c in CONSTRAINED_CASES if c.name == "kropki9").puzzle()
    searcher = Searcher(branch="houses")
    root = searcher.propagate_only(searcher.state(puzzle)).state
    assert root is not None and not root.solved
    first = branch_houses(root)
    assert len({cell for cell, _ in first}) == 2 == len(first)  # two cells, one digit
    assert len({digit for _, digit in first}) == 1
    cells = make_backend("native:branch=degree").solve(puzzle, limit=2)
    houses = make_backend(HOUSES).solve(puzzle, limit=2)
    assert cells.status is houses.status is Status.UNIQUE
    assert houses.solutions == cells.solutions
    assert houses.stats["nodes"] < cells.stats["nodes"]


@pytest.mark.parametrize("name", ["hard1", "anti-knight", "windoku"])
def test_houses_respects_node_budgets(name):
    case = BY_NAME[name]
    whole = make_backend(HOUSES).solve(case.puzzle(), limit=2)
    assert whole.status is case.expected and whole.stats["nodes"] > 3
    for nodes in (1, 2, 3, whole.stats["nodes"] // 2, whole.stats["nodes"] - 1):
        cut = make_backend(f"{HOUSES},nodes={nodes}").solve(case.puzzle(), limit=2)
        assert cut.stats["nodes"] <= nodes
        assert cut.status in (case.expected, Status.UNKNOWN), nodes
        if cut.status is Status.UNKNOWN:
            assert "node budget" in cut.message
    assert make_backend(f"{HOUSES},nodes={whole.stats['nodes']}").solve(
        case.puzzle(), limit=2).status is case.expected
