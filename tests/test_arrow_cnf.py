"""An arrow's clauses come from templates that write the incremental guard themselves
(:class:`~sudoku_csp.constraints.translation.Guarded`): the sat backend copies none of them
to add it, and they are the unguarded clauses with the guard, whatever the circle (one
cell: the table of its fillings; a pill: the automaton) and however many shafts. The
pill's table (the readings its automaton accepts, cells that see each other apart) is exact
against brute force, and counts as its automaton does (the one-cell circle's table with
cells apart: tests/test_line_sums.py). Read with ``arrow_rows=sets`` (a selector per digit
set of each run of shaft cells that see each other), the clauses with the cells' rules hold
exactly the fillings of the rule, and puzzles count as with a selector per row."""

from __future__ import annotations

import random
from itertools import product

import pytest
from cases import local_fillings, sampled_puzzle, slow_if
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_csp.constraints.sum_tables as sum_tables
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.group_sums import exclusion_groups
from sudoku_csp.constraints.kinds.arrow import Arrow, pill_value
from sudoku_csp.constraints.translation import CnfContext, Guarded
from sudoku_csp.geometry import UnitKind
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
@pytest.mark.parametrize("options", [{"line_sums": "cells"}, {"line_sums": "groups"},
                                     {"arrow_rows": "sets"}], ids=["cells", "groups", "sets"])
def test_an_arrow_writes_its_guard_into_its_own_clauses(arrow, options):
    numbering = variables(make_geometry(9))
    start = numbering.x_count + 2
    guard = -(start - 1)
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


@pytest.mark.parametrize("n", slow_if([4, 6, 9], lambda n: n == 9))
@settings(max_examples=30, deadline=None)
@given(st.sampled_from([UnitKind.BOX, UnitKind.ROW]), st.integers(1, 2), st.data())
def test_arrow_rows_as_sets_hold_exactly_the_fillings_of_the_rule(n, kind, pill, data):
    # A shaft with up to four cells of one box or row (and maybe some elsewhere), under
    # a circle of one cell or, on 9x9, a pill of two: the arrow's clauses read by digit sets
    # (runs of 3 or more, as arrow_rows=sets writes them; and runs of any length, straight
    # from table_clauses) with each cell's one digit and peers' different digits, against
    # every filling of the cells checked by the rule.
    geometry = make_geometry(n)
    pill = 1 if n < 9 else pill
    unit = data.draw(st.sampled_from([u.cells for u in geometry.units if u.kind == kind]))
    shaft = data.draw(st.lists(st.sampled_from(unit), min_size=1, max_size=min(4, n - 1),
                               unique=True), "run")
    others = [c for c in range(geometry.ncells) if c not in shaft]
    shaft += data.draw(st.lists(st.sampled_from(others), max_size=4 - len(shaft), unique=True),
                       "elsewhere")
    others = [c for c in others if c not in shaft]
    circle = tuple(data.draw(st.lists(st.sampled_from(others), min_size=pill, max_size=pill,
                                      unique=True), "circle"))
    arrow = Arrow(circle, ((circle[-1], *shaft),))
    cells = (*shaft, *circle)
    by_value: dict[int, list[tuple[int, ...]]] = {}
    for digits in product(range(n), repeat=pill):
        by_value.setdefault(pill_value([d + 1 for d in digits]), []).append(digits)
    peers = _peer_places(geometry, cells)
    expected = {digits for part in product(range(n), repeat=len(shaft))
                for rest in by_value.get(sum(d + 1 for d in part), ())
                for digits in [(*part, *rest)]
                if all(digits[i] != digits[j] for i, j in peers)}
    start = variables(geometry).x_count + 1
    ctx = CnfContext(variables(geometry), start=start, options={"arrow_rows": "sets"})
    assert local_fillings(geometry, cells, arrow.cnf(ctx)) == expected
    # every run a set, runs of two too: straight from the rule's table
    (reading_cells, _), = arrow.readings(geometry)
    table = (sum_tables.sum_table(geometry, reading_cells) if pill == 1 else
             arrow.automata(geometry)[0][1].table(geometry.seen_before(reading_cells), 10 ** 6))
    place = {c: i for i, c in enumerate(reading_cells)}
    runs = (*(tuple(place[c] for c in run) for run in exclusion_groups(geometry, shaft)),
            *((place[c],) for c in circle))
    ctx = CnfContext(variables(geometry), start=start)
    clauses = sum_tables.table_clauses(ctx, reading_cells, table, runs)
    assert local_fillings(geometry, cells, clauses) == expected


def _peer_places(geometry, cells):  # noqa: ANN001, ANN202
    return [(i, j) for i, a in enumerate(cells) for j, b in enumerate(cells[:i])
            if geometry.are_peers(a, b)]


def test_a_run_of_three_is_one_selector_per_digit_set():
    # A1 = A2 + A3 + B2, all four in box 1: the sets 123, 124, 125, 134, 126, 135, 234,
    # each in 6 orders. arrow_rows=sets writes one selector per set (7), cells one per
    # order (42), and fewer clauses.
    geometry = make_geometry(9)
    arrow = Arrow((0,), ((0, 1, 2, 10),))
    numbering = variables(geometry)
    made = {}
    for rows in ("cells", "sets"):
        ctx = CnfContext(numbering, start=numbering.x_count + 1, options={"arrow_rows": rows})
        made[rows] = len(arrow.cnf(ctx)), ctx.top - numbering.x_count
    assert made["cells"][1] == 42 and made["sets"][1] == 7
    assert made["sets"][0] < made["cells"][0]


@pytest.mark.parametrize("variant", [None, "anti-knight"])
def test_arrow_rows_as_sets_count_as_rows_do(variant):
    # Arrows drawn on a grid (pills among them), half the other cells given: the solutions
    # with arrow_rows=sets, with a selector per row, and natively are the same.
    puzzle = sampled_puzzle(Arrow, make_geometry(9, variants=[variant] if variant else []), 7)
    found = [sorted(get_backend(spec).solve(puzzle, limit=50).solutions)
             for spec in ("native", "sat:mode=fresh", "sat:mode=fresh,arrow_rows=sets",
                          "sat:arrow_rows=sets")]
    assert 0 < len(found[0]) < 50 and found[1:] == [found[0]] * 3
