"""Renbans on their run's start in CNF (:func:`~sudoku_csp.constraints.order_lines.run_clauses`,
the sat backend's ``renban_runs``), against brute force.

- Exact: a filling of the cells satisfies the clauses, with the start literals they set, if
  and only if its values are a run of consecutive values (distinct), though no clause says
  "different" (the run's values are each held by one of as many cells).
- Unit propagation: a 1 on a 3-cell renban of a 4x4 takes the 4 from every cell; a value
  every run holds is placed on the line.
- ``renban_runs`` off, on or both: every grid of small puzzles judged as the checker does
  (lines across boxes, whose cells the grid does not keep apart); a generated puzzle of few
  givens counted alike, incrementally (clauses guarded) and fresh, with fewer conflicts on
  the runs (a count, not a time).
"""

from __future__ import annotations

from itertools import product

import pytest
from cases import cnf_context, filling
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp import parse
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


def test_unit_propagation_bounds_the_run_and_places_its_values():
    ctx, numbering = cnf_context(4)
    x = numbering.x
    with Solver(name="cadical153", bootstrap_with=run_clauses(ctx, (0, 1, 2))) as solver:
        ok, implied = solver.propagate(assumptions=[x(0, 0)])  # A1 is 1: the run is 1..3
        assert ok and {-x(1, 3), -x(2, 3)} <= set(implied)
        # 2 and 3 are in both runs: the last cell that can hold them does
        ok, implied = solver.propagate(assumptions=[-x(0, 1), -x(1, 1), -x(0, 2), -x(2, 2)])
        assert ok and {x(2, 1), x(1, 2)} <= set(implied)


SPECS = ("sat:renban_runs=off", "sat:renban_runs=on", "sat:renban_runs=both",
         "sat:mode=fresh,renban_runs=on")


@pytest.mark.parametrize("lines", [
    (Renban((0, 5, 10)), Renban((3, 6))),
    (Renban((1, 2, 6, 11)),),  # across the top boxes: A2 and C4 share no unit
    (Renban((4, 9, 14, 15)), Renban((2, 7))),
    (Renban((0, 1, 2, 3)),),
])
def test_every_option_counts_the_grids_the_checker_keeps(lines):
    geometry = make_geometry(4)
    puzzle = Puzzle(geometry, (-1,) * 16, "", lines)
    every = get_backend("native").solve(Puzzle.empty(geometry), limit=1000).solutions
    expected = sorted(g for g in every if not any(c.violations(geometry, g) for c in lines))
    for spec in SPECS:
        result = get_backend(spec).solve(puzzle, limit=1000)  # every solution kept
        assert (result.count, result.complete) == (len(expected), True), spec
        assert sorted(result.solutions) == expected, spec


def test_a_six_by_six_line_across_boxes_counts_as_the_checker_does():
    geometry = make_geometry(6)
    lines = (Renban((0, 7, 14, 21)), Renban((5, 10, 15)))  # diagonals: most pairs share no unit
    grid = "345612612435234156561243123564456321"  # keeps both; its last two rows given
    givens = tuple(int(v) - 1 if c >= 24 else -1 for c, v in enumerate(grid))
    puzzle = Puzzle(geometry, givens, "", lines)
    counts = {spec: get_backend(spec).solve(puzzle, limit=200) for spec in SPECS}
    reference = get_backend("native").solve(puzzle, limit=200)
    assert 1 < reference.count < 200
    for spec, result in counts.items():
        assert sorted(result.solutions) == sorted(reference.solutions), spec
        for grid in result.solutions:
            assert not any(c.violations(geometry, grid) for c in lines)


# The first generated renban puzzle of examples/kinds_few_givens.txt (`sudoku-csp generate
# --kind renban --count 5 --size 9 --symmetry none --seed 1`): one solution.
RENBANS = (
    '{"size":9,"givens":"........................................................3...........'
    '............1","renbans":[["A2","B1","C1"],["A6","B6","C5"],["A9","A8","B7"],["B2","A3"],'
    '["B2","C2","C3"],["B5","A4"],["C4","B3","B2","A3"],["D3","C3","B2","C1"],["D8","E9","F8"],'
    '["D9","E8","F9","G9"],["E2","F3","F4","E5"],["E7","E6","E5","F5"],["F6","G7","F8"],["F7",'
    '"G6"],["G1","F2","G3","G4"],["H5","G6","F7"],["H8","G8"],["I7","H8","G7","F8"]]}')


def _shifted(text: str) -> Puzzle:
    """The puzzle with every line moved one row down where it can be (other runs, no
    longer this grid's): what a clause left unguarded would carry over to the next."""
    puzzle = parse(text)
    n = puzzle.geometry.size
    moved = tuple(Renban(tuple(c + n for c in line.cells))
                  if all(c + n < n * n for c in line.cells) else line
                  for line in puzzle.constraints)
    return Puzzle(puzzle.geometry, puzzle.givens, "", moved)


@pytest.mark.slow
def test_runs_take_fewer_conflicts_and_change_no_answer():
    puzzle = parse(RENBANS)
    off = get_backend("sat:mode=fresh,renban_runs=off").solve(puzzle, limit=2)
    on = get_backend("sat:mode=fresh,renban_runs=on").solve(puzzle, limit=2)
    assert on.count == off.count == 1 and on.solutions == off.solutions
    assert on.stats["conflicts"] < off.stats["conflicts"]
    incremental = get_backend("sat")
    first = incremental.solve(puzzle, limit=2)
    shifted = incremental.solve(_shifted(RENBANS), limit=2)
    again = incremental.solve(puzzle, limit=2)
    fresh_shifted = get_backend("sat:mode=fresh").solve(_shifted(RENBANS), limit=2)
    assert first.solutions == again.solutions == on.solutions
    assert (shifted.count, sorted(shifted.solutions)) == (fresh_shifted.count,
                                                         sorted(fresh_shifted.solutions))
