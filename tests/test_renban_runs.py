"""Renbans on their run's start in CNF (:func:`~sudoku_csp.constraints.order_lines.run_clauses`,
the sat backend's ``renban_runs``), against brute force.

- Exact: a filling of the cells satisfies the clauses, with the start literals they set, if
  and only if its values are a run of consecutive values (distinct), though no clause says
  "different" (the run's values are each held by one of as many cells).
- Unit propagation: a 1 on a 3-cell renban of a 4x4 takes the 4 from every cell; a value
  every run holds is placed on the line.
- Seers (``renban_seers``): with a cell that sees the whole line, exactly the runs whose
  values that cell does not hold; a line of four cells on 9x9 gives its seer a value every
  run left holds, by unit propagation; on a 6x6 puzzle with two lines of four cells that
  have seers, the sat backend with and without them counts the native solver's solutions.
- ``renban_runs`` off, on or both on a 6x6 puzzle with lines across boxes (whose cells the
  grid does not keep apart): the native solver's solutions. Small puzzles judged grid by
  grid as the checker does, and a generated puzzle of few givens counted alike
  incrementally and fresh with fewer conflicts on the runs, are with the other lines on
  order literals (tests/test_order_lines.py).
"""

from __future__ import annotations

from itertools import product

import pytest
from cases import cnf_context, filling
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.kinds.renban import Renban
from sudoku_csp.constraints.order_lines import run_clauses
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry


def _run(values) -> bool:  # noqa: ANN001
    return sorted(values) == list(range(min(values), min(values) + len(values)))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6, 8]), st.data())
def test_run_clauses_hold_exactly_the_runs(n, data):
    length = data.draw(st.integers(2, min(n, 4)))
    ctx, numbering = cnf_context(n)
    cells = tuple(range(length))
    clauses = run_clauses(ctx, cells)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for values in product(range(n), repeat=length):
            ok = solver.solve(assumptions=filling(numbering, cells, values))
            assert ok == _run(values), values


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6, 8]), st.data())
def test_seers_hold_exactly_the_runs_whose_values_they_leave(n, data):
    length = data.draw(st.integers(2, min(n - 1, 4)))
    ctx, numbering = cnf_context(n)
    cells, seer = tuple(range(length)), length  # the seer: any cell off the line
    clauses = run_clauses(ctx, cells, seers=(seer,))
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for values in product(range(n), repeat=length + 1):
            ok = solver.solve(assumptions=filling(numbering, (*cells, seer), values))
            assert ok == (_run(values[:-1]) and values[-1] not in values[:-1]), values


def test_seers_count_as_the_native_solver_does():
    geometry = make_geometry(6)
    # A3 A2 A1 B1 and D4 D5 D6 C6: the rest of box 1 (B2, B3) and of box 4 see all of each.
    lines = (Renban((2, 1, 0, 6)), Renban((21, 22, 23, 17)))
    grid = "123456456123231564564231312645645312"  # keeps both: 1 2 3 4 and 2 3 1 4
    givens = tuple(int(v) - 1 if c >= 30 or c in (4, 9) else -1 for c, v in enumerate(grid))
    puzzle = Puzzle(geometry, givens, "", lines)
    reference = get_backend("native").solve(puzzle, limit=500)
    assert 1 < reference.count < 500
    for spec in ("sat", "sat:renban_seers=off", "sat:mode=fresh", "sat:renban_runs=both"):
        result = get_backend(spec).solve(puzzle, limit=500)
        assert sorted(result.solutions) == sorted(reference.solutions), spec


@pytest.mark.parametrize("seers", ["on", "off"])
def test_a_renban_gives_its_seers_the_values_its_run_must_hold(seers):
    # A1-A4 without a 1 or a 9: the run starts at 2 to 5 and holds 5 whatever it is, so
    # A5 (in row A, seeing the whole line) is no 5 by unit propagation, with the seers.
    ctx, numbering = cnf_context(9, {"renban_seers": seers})
    line = Renban((0, 1, 2, 3))
    x = numbering.x
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in line.cnf(ctx)]) as solver:
        ok, implied = solver.propagate(assumptions=[-x(c, d) for c in line.cells
                                                    for d in (0, 8)])
        assert ok and (-x(4, 4) in implied) is (seers == "on")


def test_unit_propagation_bounds_the_run_and_places_its_values():
    ctx, numbering = cnf_context(4)
    x = numbering.x
    with Solver(name="cadical153", bootstrap_with=run_clauses(ctx, (0, 1, 2))) as solver:
        ok, implied = solver.propagate(assumptions=[x(0, 0)])  # A1 is 1: the run is 1..3
        assert ok and {-x(1, 3), -x(2, 3)} <= set(implied)
        # 2 and 3 are in both runs: the last cell that can hold them does
        ok, implied = solver.propagate(assumptions=[-x(0, 1), -x(1, 1), -x(0, 2), -x(2, 2)])
        assert ok and {x(2, 1), x(1, 2)} <= set(implied)


def test_a_six_by_six_line_across_boxes_counts_as_the_checker_does():
    geometry = make_geometry(6)
    lines = (Renban((0, 7, 14, 21)), Renban((5, 10, 15)))  # diagonals: most pairs share no unit
    grid = "345612612435234156561243123564456321"  # keeps both; its last two rows given
    givens = tuple(int(v) - 1 if c >= 24 else -1 for c, v in enumerate(grid))
    puzzle = Puzzle(geometry, givens, "", lines)
    specs = ("sat:renban_runs=off", "sat:renban_runs=on", "sat:renban_runs=both",
             "sat:mode=fresh,renban_runs=on")
    counts = {spec: get_backend(spec).solve(puzzle, limit=200) for spec in specs}
    reference = get_backend("native").solve(puzzle, limit=200)
    assert 1 < reference.count < 200
    for spec, result in counts.items():
        assert sorted(result.solutions) == sorted(reference.solutions), spec
        for grid in result.solutions:
            assert not any(c.violations(geometry, grid) for c in lines)
