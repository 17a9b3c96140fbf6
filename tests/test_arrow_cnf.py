"""An arrow's clauses come from templates that write the incremental guard themselves
(:class:`~sudoku_csp.constraints.translation.Guarded`): the sat backend copies none of them
to add it, and they are the unguarded clauses with the guard, whatever the circle (one
cell: the table of its fillings; a pill: the automaton) and however many shafts."""

from __future__ import annotations

import pytest

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
