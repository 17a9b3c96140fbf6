"""An arrow's clauses come from templates that write the incremental guard themselves
(:class:`~sudoku_csp.constraints.translation.Guarded`): the sat backend copies none of them
to add it, and they are the unguarded clauses with the guard, whatever the circle (one
cell: the table of its fillings; a pill: the automaton) and however many shafts. The
pill's table (the readings its automaton accepts, cells that see each other apart) is exact
against brute force, and counts as its automaton does (the one-cell circle's table with
cells apart: tests/test_line_sums.py)."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_csp.constraints.sum_tables as sum_tables
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.kinds.arrow import Arrow, pill_value
from sudoku_csp.constraints.translation import CnfContext, Guarded
from sudoku_csp.modeling.variables import variables
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

GRID9 = tuple(int(ch) - 1 for ch in "534678912672195348198342567859761423426853791713924856"
                                    "961537284287419635345286179")


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


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.integers(1, 3), st.integers(1, 2), st.data())
def test_an_automaton_table_holds_exactly_the_accepted_readings_kept_apart(n, shaft, pill, data):
    # An arrow's reading (shaft, then the pill from its last cell) as a table, some places
    # kept apart at random, against every digit sequence checked by the rule itself.
    length = shaft + pill
    apart = tuple(tuple(j for j in range(i) if data.draw(st.booleans(), f"{i} sees {j}"))
                  for i in range(length))
    cells = tuple(range(length))
    (_, reading), = Arrow(cells[shaft:][::-1], (cells[shaft:][::-1][-1:] + cells[:shaft],)
                          ).readings(make_geometry(n))
    automaton = reading.automaton(length, n)
    expected = tuple(
        digits for digits in product(range(n), repeat=length)
        if sum(d + 1 for d in digits[:shaft]) == pill_value([d + 1 for d in digits[shaft:][::-1]])
        and all(digits[i] != digits[j] for i in range(length) for j in apart[i]))
    assert automaton.table(apart, 10 ** 6) == expected
    assert automaton.table(apart, len(expected) - 1) is None if expected else True


def test_a_pill_counts_the_same_on_its_table_and_on_its_automaton(monkeypatch):
    # Arrows drawn on a grid, pills among them, half the other cells given: the pills'
    # tables (default) and their automata find the same solutions as the native solver.
    geometry = make_geometry(9)
    rng = random.Random(4)
    arrows: list[Arrow] = []
    while sum(len(a.circle) > 1 for a in arrows) < 2:
        arrows += [a for a in Arrow.sample(geometry, GRID9, rng) if isinstance(a, Arrow)]
    used = {c for a in arrows for c in a.touched()}
    givens = tuple(v if c not in used and c % 2 else -1 for c, v in enumerate(GRID9))
    puzzle = Puzzle(geometry, givens, "", tuple(arrows))
    native = get_backend("native").solve(puzzle, limit=50)
    tabled = get_backend("sat:mode=fresh").solve(puzzle, limit=50)
    monkeypatch.setattr(sum_tables, "PILL_TABLE", False)
    automaton = get_backend("sat:mode=fresh").solve(puzzle, limit=50)
    assert native.count < 50
    assert sorted(tabled.solutions) == sorted(automaton.solutions) == sorted(native.solutions)
    assert GRID9 in tabled.solutions
