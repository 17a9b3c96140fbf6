"""Every registered backend, in its default configuration, on the shared cases."""

from __future__ import annotations

import pytest
from cases import CASES

from sudoku_csp import Status, get_backend, is_solution
from sudoku_csp.backends.registry import BACKENDS
from sudoku_csp.puzzle import format_line

SPECS = list(BACKENDS)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_count_to_two(spec, case):
    puzzle = case.puzzle()
    result = get_backend(spec).solve(puzzle, limit=2, time_limit=60)
    assert result.status is case.expected, result.message
    assert all(is_solution(puzzle, s) for s in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions)
    if case.expected is Status.UNIQUE:
        assert len(result.solutions) == 1
        if case.solution:
            assert format_line(puzzle.geometry, result.solution) == case.solution
    if case.expected is Status.NONE:
        assert result.solutions == ()


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("case", [c for c in CASES if c.expected is not Status.NONE],
                         ids=lambda c: c.name)
def test_solve_one(spec, case):
    puzzle = case.puzzle()
    result = get_backend(spec).solve(puzzle, limit=1, time_limit=60)
    assert result.status in (Status.SOLVED, Status.UNIQUE)
    assert is_solution(puzzle, result.solution)
    assert result.solver.startswith(spec.partition(":")[0])


@pytest.mark.parametrize("spec", SPECS)
def test_empty_4x4_has_288_solutions(spec):
    puzzle = next(c for c in CASES if c.name == "empty4").puzzle()
    result = get_backend(spec).solve(puzzle, limit=None)
    assert result.status is Status.MULTIPLE
    assert len(result.solutions) == 288
