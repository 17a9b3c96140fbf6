"""The digit-set clauses of a sum of different digits (cage_sums.combo_clauses): a digit
every set holds and a single set are written without auxiliaries, and unit propagation
reaches exactly what the clauses with every ``has(d)`` and ``set(j)`` reach."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp import make_geometry
from sudoku_csp.constraints import Cage, cnf_clauses
from sudoku_csp.constraints.cage_sums import combinations_for, combo_clauses, seers_of
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.modeling.variables import variables

START = 1000


@pytest.mark.parametrize(("cells", "total", "aux"), [
    ((0, 1), 3, 0),         # {1, 2}: one set, both digits in
    ((0, 1, 2), 24, 0),     # {7, 8, 9}
    # {1, 2, 5} or {1, 3, 4}: 1 is in; has(2) = has(5) = set 1 = not set 2 = has(3) = has(4)
    ((0, 1, 2), 8, 1),
    ((0, 1), 10, 4),        # 1+9, 2+8, 3+7, 4+6: one variable a pair, 5 in none
])
def test_digits_every_set_holds_need_no_auxiliary(cells, total, aux):
    _, top = cnf_clauses(make_geometry(9), [Cage(cells, total)], start=START)
    assert top - (START - 1) == aux


def _clauses(cells, combos, seers, full):
    ctx = CnfContext(variables(make_geometry(9)), start=START)
    return [list(c) for c in combo_clauses(ctx, cells, combos, seers,
                                           [] if full else None)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9))
def test_propagation_is_that_of_every_auxiliary(seed):
    rng = random.Random(seed)
    geometry = make_geometry(9)
    n = geometry.size
    k = rng.choice((2, 3, 4))
    row = rng.randrange(n)
    cells = tuple(row * n + c for c in sorted(rng.sample(range(3), k) if k < 4
                                              else rng.sample(range(n), k)))
    total = rng.randint(k * (k + 1) // 2, k * (2 * n - k + 1) // 2)
    combos = combinations_for(k, total, n)
    seers = seers_of(geometry, cells) if rng.random() < 0.7 else ()
    # Each cell of the cage and of its seers holds one digit; the cage's digits differ.
    x = variables(geometry).x
    rules = []
    for cell in (*cells, *seers):
        rules.append([x(cell, d) for d in range(n)])
        rules += [[-x(cell, a), -x(cell, b)] for a in range(n) for b in range(a + 1, n)]
    rules += [[-x(a, d), -x(b, d)] for i, a in enumerate(cells) for b in cells[i + 1:]
              for d in range(n)]
    watched = [x(c, d) for c in (*cells, *seers) for d in range(n)]
    with Solver("minisat22", bootstrap_with=rules + _clauses(cells, combos, seers, True)) as full, \
            Solver("minisat22", bootstrap_with=rules + _clauses(cells, combos, seers,
                                                                False)) as short:
        for _ in range(6):
            assumptions = [rng.choice((1, -1)) * v for v in rng.sample(watched, rng.randint(0, 6))]
            a_ok, a_lits = full.propagate(assumptions=assumptions)
            b_ok, b_lits = short.propagate(assumptions=assumptions)
            assert a_ok == b_ok
            if a_ok:
                keep = set(watched)
                assert {v for v in a_lits if abs(v) in keep} == {v for v in b_lits
                                                                 if abs(v) in keep}
