"""A sandwich's CNF on a line that is a unit (``Sandwich.cnf``: with ``sandwich_cnf=crusts``
or ``lines`` its line's definition and the clue's ``unit_clauses``), every value of
``sandwich_cnf``, is exact: with the line's cells a permutation of the digits, its models
are exactly the orderings whose values between the 1 and the N add up to the clue (all of
them on 4x4 and 6x6, sampled orderings on 8x8, 9x9, 10x10 and 12x12); unit propagation with
the crusts placed keeps the cells between to the digits of the fillings of their distance,
and (``crusts``) takes a crust from a cell whose partners are all barred from the other; the
line's part is written once for all its clues (a solver session holds it for every puzzle);
and the sat backend counts alike with each."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.kinds.sandwich import SANDWICH_CNF, Sandwich
from sudoku_csp.constraints.sandwich_fillings import fillings
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.geometry import EMPTY
from sudoku_csp.modeling.variables import variables
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

CHOICES = SANDWICH_CNF.choices


def _line_formula(n: int, total: int, choice: str) -> tuple[list, list[list[int]]]:
    """Row A of an n x n grid as a permutation of the digits, with a sandwich of ``total``
    left of it written as ``choice`` says; and the row's variables, cell by cell."""
    geometry = make_geometry(n)
    numbering = variables(geometry)
    x = [[numbering.x(c, d) for d in range(n)] for c in range(n)]
    clauses: list = []
    for group in (*x, *zip(*x, strict=True)):  # each cell one digit, each digit once
        clauses.append(list(group))
        clauses += [[-a, -b] for i, a in enumerate(group) for b in group[i + 1:]]
    ctx = CnfContext(numbering, start=numbering.x_count + 1,
                     options={SANDWICH_CNF.name: choice})
    clauses += Sandwich(tuple(range(n)), "right", total).cnf(ctx)
    return clauses, x


def _models(n: int, total: int, choice: str) -> set[tuple[int, ...]]:
    clauses, x = _line_formula(n, total, choice)
    found = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            values = tuple(next(d + 1 for d in range(n) if x[c][d] in model) for c in range(n))
            found.add(values)
            solver.add_clause([-x[c][v - 1] for c, v in enumerate(values)])
    return found


@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("n", [4, 6])
def test_the_models_are_the_orderings_that_show_the_clue(n, choice):
    shown: dict[int, set[tuple[int, ...]]] = {}
    for values in permutations(range(1, n + 1)):
        shown.setdefault(Sandwich.clue_of(values, n) or 0, set()).add(values)
    for total in range(sum(range(2, n)) + 2):  # one past the largest: no model
        assert _models(n, total, choice) == shown.get(total, set()), (n, total)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CHOICES), st.sampled_from([8, 9, 10, 12]), st.integers(0, 10**9))
def test_an_ordering_is_a_model_exactly_for_its_own_clue(choice, n, seed):
    rng = random.Random(seed)
    values = list(range(1, n + 1))
    rng.shuffle(values)
    own = Sandwich.clue_of(values, n)
    assert own is not None
    others = [t for t in range(sum(range(2, n)) + 1) if t != own]
    for total in (own, rng.choice(others)):
        clauses, x = _line_formula(n, total, choice)
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            placed = [x[c][v - 1] for c, v in enumerate(values)]
            assert solver.solve(assumptions=placed) == (total == own), (values, total)


@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("n", [6, 9])
def test_placed_crusts_keep_the_cells_between_to_the_fillings_of_their_distance(n, choice):
    # The digits no filling of that length holds leave the cells between by unit
    # propagation alone: with `lengths` through the line's distances (at most one), with
    # `pairs` also through its clauses per place of the crusts and digit. Every clue,
    # every two places.
    for total in range(sum(range(2, n)) + 1):
        clauses, x = _line_formula(n, total, choice)
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            for low in range(n):
                for high in range(low + 1, n):
                    found = fillings(high - low - 1, total, n)
                    ok, implied = solver.propagate(assumptions=[x[low][0], x[high][n - 1]])
                    assert ok == bool(found), (total, low, high)
                    if not ok:
                        continue
                    union = 0
                    for combo in found:
                        union |= combo
                    gone = {-x[c][d] for c in range(low + 1, high) for d in range(1, n - 1)
                            if not union >> d & 1}
                    assert gone <= set(implied), (total, low, high)


@pytest.mark.parametrize("n", [6, 9])
def test_a_cell_whose_partners_are_barred_loses_the_crust_by_propagation(n):
    # `crusts`: with the other crust barred from every cell a filling's length away, a
    # cell loses the crust by unit propagation alone, before anything is placed there
    # (the distances see it only once the crust is placed: a search's guess). No such
    # cell at all: the crust is refused outright.
    for total in range(sum(range(2, n)) + 1):
        clauses, x = _line_formula(n, total, "crusts")
        lengths = {k for k in range(n - 1) if fillings(k, total, n)}
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            for a in range(n):
                partners = [b for b in range(n) if b != a and abs(a - b) - 1 in lengths]
                for crust, other in ((0, n - 1), (n - 1, 0)):
                    if not partners:
                        assert not solver.propagate(assumptions=[x[a][crust]])[0]
                        continue
                    ok, implied = solver.propagate(assumptions=[-x[b][other]
                                                                for b in partners])
                    assert ok and -x[a][crust] in implied, (total, a, crust)


def test_a_solver_holding_the_line_gets_only_each_clues_own_clauses():
    # Two clues on row A, read from either side, read one line definition. Written alone
    # (a formula of their own) each writes the line; with a context that holds it already
    # (a solver session's) each writes only its own clauses, over the line's auxiliaries.
    geometry = make_geometry(9)
    numbering = variables(geometry)
    row = tuple(range(9))
    left, right = Sandwich(row, "right", 15), Sandwich(row[::-1], "left", 20)
    ctx = CnfContext(numbering, start=numbering.x_count + 1)
    line = left.line_definition(ctx)
    assert line == right.line_definition(ctx)
    shared, made = ctx.defined(line)
    held = CnfContext(numbering, start=shared[-1] + 1, shared={line: shared})
    for clue in (left, right):
        alone = list(clue.cnf(CnfContext(numbering, start=numbering.x_count + 1)))
        own = list(clue.cnf(held))
        assert len(own) == len(alone) - len(made) and len(own) < len(made) // 3, clue
        aux = {abs(v) for c in own for v in c if abs(v) > numbering.x_count}
        assert aux & set(shared), "the clue reads the line's auxiliaries"


@pytest.mark.parametrize("seed", range(3))
def test_the_sat_backend_counts_alike_with_each(seed):
    # A given-free 4x4 with a sandwich on two of its rows and one column: both encodings
    # count what the checker counts over the 288 grids.
    rng = random.Random(seed)
    geometry = make_geometry(4)
    grids = get_backend("native").solve(Puzzle.empty(geometry), limit=288).solutions
    assert len(grids) == 288
    grid = rng.choice(grids)
    lines = [tuple(range(0, 4)), tuple(range(8, 12)), tuple(range(1, 16, 4))]
    clues = tuple(Sandwich(cells, "right" if cells[1] - cells[0] == 1 else "down",
                           Sandwich.clue_of([grid[c] + 1 for c in cells], 4) or 0)
                  for cells in lines)
    expected = sum(all(not c.violations(geometry, g) for c in clues) for g in grids)
    puzzle = Puzzle(geometry, (EMPTY,) * 16, "", clues)
    for choice in CHOICES:
        result = get_backend(f"sat:sandwich_cnf={choice}").solve(puzzle, limit=None)
        assert (result.count, result.complete) == (expected, True), choice
