"""An arrow's clauses come from templates that write the incremental guard themselves
(:class:`~sudoku_csp.constraints.translation.Guarded`): the sat backend copies none of them
to add it, and they are the unguarded clauses with the guard, whatever the circle (one
cell: the table of its fillings; a pill: the automaton) and however many shafts. The
table leaves out fillings where cells that see each other hold one value."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from sudoku_csp.constraints import cnf_clauses
from sudoku_csp.constraints.kinds.arrow import Arrow
from sudoku_csp.constraints.translation import CnfContext, Guarded
from sudoku_csp.modeling.variables import variables
from sudoku_csp.variants import make_geometry


@pytest.mark.parametrize("arrow", [
    Arrow((0,), ((0, 1, 2),)),
    Arrow((0,), ((0, 1, 2), (0, 9, 18, 27))),
    Arrow((0, 1), ((1, 2, 3, 4),)),  # a pill: 10 to 36 along three cells
    Arrow((40,), ((40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50),)),  # nothing fills it
], ids=["one shaft", "two shafts", "pill", "too long"])
@pytest.mark.parametrize("line_sums", ["cells", "groups"])
def test_an_arrow_writes_its_guard_into_its_own_clauses(arrow, line_sums):
    numbering = variables(make_geometry(9))
    start = numbering.x_count + 2
    guard = -(start - 1)
    options = {"line_sums": line_sums}
    plain = CnfContext(numbering, start=start, options=options)
    guarded = CnfContext(numbering, start=start, options=options, guard=guard)
    clauses = arrow.cnf(guarded)
    assert type(clauses) is Guarded
    assert sorted(map(sorted, clauses)) == sorted(sorted([*c, guard])
                                                  for c in arrow.cnf(plain))
    assert guarded.top == plain.top


def test_an_arrow_table_keeps_cells_that_see_each_other_apart():
    # A1 = A2 + A3, all in row A, A1 a 4: 1 + 3 or 3 + 1, never 2 + 2 (the row forbids it,
    # so the table leaves it out). Unit propagation over the arrow's clauses alone (and one
    # digit per cell) takes the 2 from A2 and A3; the table of every filling kept it.
    geometry = make_geometry(9)
    x = variables(geometry).x
    rules = [[x(c, d) for d in range(9)] for c in (0, 1, 2)]
    rules += [[-x(c, a), -x(c, b)] for c in (0, 1, 2) for a in range(9) for b in range(a)]
    clauses, _ = cnf_clauses(geometry, [Arrow((0,), ((0, 1, 2),))], start=1000)
    with Solver("minisat22", bootstrap_with=rules + [list(c) for c in clauses]) as solver:
        ok, implied = solver.propagate(assumptions=[x(0, 3)])
    assert ok and -x(1, 1) in implied and -x(2, 1) in implied
