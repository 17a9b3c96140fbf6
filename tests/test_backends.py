"""Every registered backend, in its default configuration, on the shared cases."""

from __future__ import annotations

import pytest
from cases import CASES, CONSTRAINED_CASES

from sudoku_csp import SpecError, Status, get_backend, is_solution, make_backend
from sudoku_csp.backends.registry import BACKENDS, backend_class
from sudoku_csp.io import format_line
from sudoku_csp.result import KEPT_WHEN_COUNTING

SPECS = list(BACKENDS)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("case", CASES + CONSTRAINED_CASES, ids=lambda c: c.name)
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
@pytest.mark.parametrize("case", [c for c in CASES + CONSTRAINED_CASES
                                  if c.expected is not Status.NONE],
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
    assert (result.status, result.count, result.complete) == (Status.MULTIPLE, 288, True)
    # Counting keeps only the first solutions; a finite limit keeps every one found.
    assert len(result.solutions) == KEPT_WHEN_COUNTING
    every = get_backend(spec).solve(puzzle, limit=1000)
    assert len(set(every.solutions)) == every.count == 288
    assert all(is_solution(puzzle, grid) for grid in every.solutions)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: make_backend("cpsat:workers=-1"), "workers=-1 must be at least 0"),
    (lambda: make_backend("cpsat:workers=two"), "workers='two' must be an integer"),
    (lambda: make_backend("cpsat:model=nope"), "model='nope' is not allowed"),
    (lambda: backend_class("cpsat")(model="nope"), "model='nope' is not allowed"),
    (lambda: backend_class("cpsat")(workers=True), "workers=True must be an integer"),
    (lambda: backend_class("native")(branch="sideways"), "branch='sideways' is not allowed"),
    (lambda: backend_class("native")(colour="red"), "unknown option colour"),
    (lambda: make_backend("sat:recycle=0"), "recycle=0 must be at least 1"),
    (lambda: backend_class("sat")(mode="sometimes"), "mode='sometimes' is not allowed"),
])
def test_option_values_are_checked_once_in_the_base_for_specs_and_keywords(call, words):
    with pytest.raises(SpecError) as caught:
        call()
    assert words in str(caught.value)


def test_keyword_and_spec_configure_the_same_backend():
    assert backend_class("cpsat")(workers="2").spec == make_backend("cpsat:workers=2").spec
    assert make_backend("native:seed=7,order=random").options["seed"] == 7
