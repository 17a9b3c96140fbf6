"""A sum written on bounds (:func:`~sudoku_csp.constraints.sum_bounds.bounds_clauses`, the
little killers' ``sum_bounds`` clauses), against brute force.

- Exact: a filling of the cells satisfies the clauses, with the order literals it sets, if
  and only if its values add up to the total; two sums through one cell (each with its
  own order literals there) hold together.
- Unit propagation keeps the running sum's bounds: two cells of a 4x4 under 8 cannot hold
  a 3, and under 7 a cell that is no 4 is 3 and the other 4, with no other clause.
- Switched off or on, the sat backend counts a little killer puzzle alike, and on a generated
  little killer of few givens the bounds take the solver fewer conflicts (a count, not a time).
- Ends shared (``bounds_ends=shared``: the first prefix the first cell's literals, the last
  cell the prefix before it read backwards, literals only inside the ranges) or own: both
  exact, the same propagation on the digits, the shared ones with fewer auxiliaries and
  clauses.
- By runs of cells that see each other (``bounds_ends=segments``, the default): exact on
  every diagonal of a 4x4 and a 6x6 and on 9x9 ones over the fillings whose runs hold
  different digits (the grid's rules refuse the others); a run is never cut across cells
  that do not see each other; unit propagation knows a run's digits differ (two cells of a
  box under a 4 are 1 and 3); the backend counts alike and the solver takes fewer
  conflicts on a generated little killer of few givens.
- Of the bounds that refute a run only the loosest (``bounds_rows=loosest``, the default):
  exact as every bound (``all``) is, the same propagation on the digits, fewer clauses.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from cases import cnf_context, filling
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp import parse
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.outside import DIAGONAL, ray
from sudoku_csp.constraints.sum_bounds import _run_rows, _runs, bounds_clauses
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.variants import make_geometry

ENDS = ["shared", "own"]


@pytest.mark.parametrize("ends", ENDS)
@settings(max_examples=60, deadline=None)
@given(n_length=st.sampled_from([(4, 4), (6, 4), (9, 3)]).flatmap(
           lambda nl: st.tuples(st.just(nl[0]), st.integers(1, nl[1]))),
       total=st.integers(-1, 30))
def test_the_bounds_hold_exactly_the_fillings_adding_up_to_the_total(ends, n_length, total):
    n, length = n_length
    ctx, numbering = cnf_context(n)
    cells = tuple(range(length))
    clauses = bounds_clauses(ctx, cells, total, ends)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for values in product(range(n), repeat=length):
            holds = sum(values) + length == total
            assert solver.solve(assumptions=filling(numbering, cells, values)) == holds, values


@pytest.mark.parametrize("ends", ENDS)
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12))
def test_two_sums_through_one_cell_hold_together(ends, first, second):
    ctx, numbering = cnf_context(4)
    clauses = (bounds_clauses(ctx, (0, 1, 2), first, ends)
               + bounds_clauses(ctx, (3, 1), second, ends))
    cells = (0, 1, 2, 3)
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for values in product(range(4), repeat=4):
            a, b, c, d = (v + 1 for v in values)
            holds = a + b + c == first and d + b == second
            assert solver.solve(assumptions=filling(numbering, cells, values)) == holds


@pytest.mark.parametrize("ends", ENDS)
def test_unit_propagation_keeps_the_running_sum_s_bounds(ends):
    ctx, numbering = cnf_context(4)
    clauses = bounds_clauses(ctx, (0, 1), 8, ends)  # 4 + 4 only
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        for cell in (0, 1):  # either cell under 4: no way, by propagation alone
            ok, _ = solver.propagate(assumptions=[-numbering.x(cell, 3)])
            assert not ok
    clauses = bounds_clauses(ctx, (0, 1), 7, ends)  # 3 + 4 or 4 + 3
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in clauses]) as solver:
        ok, implied = solver.propagate(assumptions=[-numbering.x(0, 3)])
        assert ok and numbering.x(0, 2) in implied and numbering.x(1, 3) in implied


def _implied_digits(clauses, assumptions, digits):  # noqa: ANN001, ANN202
    """The digit literals unit propagation sets under ``assumptions`` (None: a conflict)."""
    if clauses == [()]:
        return None
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as solver:
        ok, implied = solver.propagate(assumptions=assumptions)
    return {lit for lit in implied if abs(lit) in digits} if ok else None


def test_shared_ends_propagate_on_the_digits_as_own_ones_with_fewer_literals():
    rng = random.Random(34)
    for _ in range(150):
        length = rng.randint(2, 7)
        total = rng.randint(length - 1, 9 * length + 1)
        cells = tuple(range(length))
        made = {}
        for ends in ENDS:
            ctx, numbering = cnf_context(9)
            made[ends] = bounds_clauses(ctx, cells, total, ends), ctx.top - numbering.x_count
        digits = {numbering.x(c, d) for c in cells for d in range(9)}
        assumptions = [-lit for lit in rng.sample(sorted(digits), rng.randint(1, 4 * length))]
        shared, own = (_implied_digits(made[e][0], assumptions, digits) for e in ENDS)
        assert shared == own, (length, total, assumptions)
    # a diagonal of nine under 45: one cell's literals and one prefix's fewer (8 each)
    (shared, shared_aux), (own, own_aux) = (
        (bounds_clauses(ctx, tuple(range(9)), 45, ends), ctx.top - numbering.x_count)
        for ends in ENDS for ctx, numbering in [cnf_context(9)])
    assert shared_aux == own_aux - 16 and len(shared) < len(own)


# Generated by `sudoku-csp generate --kind little-killer --count 5 --size 9 --symmetry none
# --seed 1` (the second): 6 givens, 14 little killers, one solution.
FEW_GIVENS = (
    '{"size":9,"givens":".........7....................................................3.......6..43'
    '...7..","little_killers":[{"from":"A3","direction":"down-left","sum":8},{"from":"A4",'
    '"direction":"down-right","sum":25},{"from":"A6","direction":"down-right","sum":16},'
    '{"from":"A7","direction":"down-right","sum":12},{"from":"B9","direction":"up-left",'
    '"sum":11},{"from":"B9","direction":"down-left","sum":28},{"from":"D1","direction":'
    '"up-right","sum":27},{"from":"F9","direction":"down-left","sum":24},{"from":"G1",'
    '"direction":"down-right","sum":19},{"from":"G9","direction":"up-left","sum":37},'
    '{"from":"I2","direction":"up-left","sum":6},{"from":"I3","direction":"up-right","sum":21},'
    '{"from":"I6","direction":"up-left","sum":33},{"from":"I9","direction":"up-right","sum":8}]}')


@pytest.mark.slow
def test_the_bounds_take_fewer_conflicts_and_change_no_answer():
    puzzle = parse(FEW_GIVENS)
    on = get_backend("sat:mode=fresh,bounds_ends=shared").solve(puzzle, limit=2)
    off = get_backend("sat:mode=fresh,sum_bounds=off").solve(puzzle, limit=2)
    own = get_backend("sat:mode=fresh,bounds_ends=own").solve(puzzle, limit=2)
    runs = get_backend("sat:mode=fresh").solve(puzzle, limit=2)
    assert on.count == off.count == own.count == runs.count == 1
    assert on.solutions == off.solutions == own.solutions == runs.solutions
    assert runs.stats["conflicts"] < on.stats["conflicts"] < off.stats["conflicts"]


@pytest.mark.parametrize("ends", [*ENDS, "segments"])
@pytest.mark.parametrize("total", [1, 13])
def test_a_total_no_filling_reaches_is_one_clause_with_the_guard(total, ends):
    # An incremental solver holds one puzzle's clauses behind a guard: an empty clause
    # without it would leave every later puzzle with no solution.
    _, numbering = cnf_context(4)
    ctx = CnfContext(numbering, start=numbering.x_count + 1, guard=-99)
    assert [list(c) for c in bounds_clauses(ctx, (0, 1, 2), total, ends)] == [[-99]]


def _diagonals(n: int, longest: int):  # noqa: ANN202
    """Every diagonal of an n x n grid read from outside it, up to ``longest`` cells."""
    for row in range(n + 2):
        for col in range(n + 2):
            for direction in DIAGONAL:
                if (row in (0, n + 1)) != (col in (0, n + 1)):  # the ring, no corner
                    cells = ray(n, row, col, direction)
                    if 0 < len(cells) <= longest:
                        yield cells


def _runs_differ(values, sizes) -> bool:  # noqa: ANN001
    start = 0
    for size in sizes:
        if len(set(values[start:start + size])) < size:
            return False
        start += size
    return True


@pytest.mark.parametrize("rows", ["loosest", "all"])
@pytest.mark.parametrize(("n", "longest", "totals"), [(4, 4, None), (6, 4, 5), (9, 4, 4)])
def test_runs_hold_exactly_the_fillings_adding_up_with_different_digits(n, longest, totals,
                                                                        rows):
    rng = random.Random(n)
    geometry = make_geometry(n)
    diagonals = sorted(set(_diagonals(n, longest)))
    for cells in diagonals if n < 9 else rng.sample(diagonals, 6):
        sizes = _runs(geometry, cells)
        span = range(len(cells) - 1, n * len(cells) + 2)
        for total in span if totals is None else rng.sample(span, totals):
            ctx, numbering = cnf_context(n)
            clauses = bounds_clauses(ctx, cells, total, "segments", rows)
            with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as solver:
                for values in product(range(n), repeat=len(cells)):
                    if _runs_differ(values, sizes):
                        holds = sum(values) + len(cells) == total
                        assert solver.solve(assumptions=filling(
                            numbering, cells, values)) == holds, (cells, total, values)


def test_a_run_holds_cells_that_see_each_other_three_at_most():
    nine, six = make_geometry(9), make_geometry(6)
    assert _runs(nine, tuple(range(0, 81, 10))) == (3, 3, 3)  # the main diagonal
    assert _runs(nine, (2, 10, 18)) == (3,)  # within box 1
    assert _runs(nine, (3, 11, 19, 27)) == (1, 2, 1)  # boxes 2, 1 and 4
    assert _runs(six, (0, 7, 14, 21, 28, 35)) == (2, 1, 1, 2)  # boxes of two rows
    # a diagonal that stays in one unit: runs of three, no more
    x = make_geometry(9, variants=("diagonal",))
    assert _runs(x, tuple(range(0, 81, 10))) == (3, 3, 3)
    assert _runs(x, (8, 16, 24, 32)) == (3, 1)  # the anti-diagonal: its box, then on
    assert _runs(nine, (0,)) == (1,)


def test_unit_propagation_knows_a_run_s_digits_differ():
    ctx, numbering = cnf_context(9)
    cells = (0, 10)  # A1 and B2 share a box: under a 4 they are 1 and 3
    for ends, fixed in (("segments", True), ("shared", False)):
        clauses = bounds_clauses(ctx, cells, 4, ends)
        with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as solver:
            ok, implied = solver.propagate(assumptions=[-numbering.x(0, 0)])  # A1 no 1
        assert ok
        assert (numbering.x(0, 2) in implied and numbering.x(10, 0) in implied) == fixed


def test_the_loosest_refuting_bounds_propagate_as_every_bound_does_in_fewer_clauses():
    rng = random.Random(51)
    for n in (6, 9):
        geometry = make_geometry(n)
        diagonals = [cells for cells in set(_diagonals(n, n)) if max(_runs(geometry, cells)) > 1]
        for _ in range(60):
            cells = rng.choice(sorted(diagonals))
            total = rng.randint(len(cells), n * len(cells))
            made = {}
            for rows in ("loosest", "all"):
                ctx, numbering = cnf_context(n)
                made[rows] = bounds_clauses(ctx, cells, total, "segments", rows)
            digits = sorted(numbering.x(c, d) for c in cells for d in range(n))
            for _ in range(4):
                chosen = rng.sample(digits, rng.randint(1, 3 * len(cells)))
                assumptions = [lit if rng.random() < 0.1 else -lit for lit in chosen]
                loosest, every = (_implied_digits(made[r], assumptions, set(digits))
                                  for r in ("loosest", "all"))
                assert loosest == every, (cells, total, assumptions)
            assert len(made["loosest"]) <= len(made["all"])
    # three cells of a 9x9 box adding up to 17: 65 rows of the 356 whose conclusion can fail
    assert len(_run_rows(3, 9, 17, 17)) == 65
    ctx, _ = cnf_context(9)
    few = bounds_clauses(ctx, (2, 10, 18), 17, "segments")
    assert len(few) < len(bounds_clauses(ctx, (2, 10, 18), 17, "segments", "all")) / 2
