"""A double arrow in CNF, each way ``double_arrows`` writes it (the table of its fillings
with cells that see each other apart, by digit sets or a row at a time; the automaton): the
clauses with the cells' rules hold exactly the fillings of the rule (brute force on 4x4,
6x6 and 9x9), puzzles count as the native solver counts them, and the incremental guard is
written into the clauses."""

from __future__ import annotations

from itertools import product

import pytest
from cases import local_fillings, sampled_puzzle, slow_if
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints.kinds.doublearrow import DOUBLE_ARROWS, DoubleArrow
from sudoku_csp.constraints.translation import CnfContext, Guarded
from sudoku_csp.geometry import UnitKind
from sudoku_csp.modeling.variables import variables
from sudoku_csp.variants import make_geometry

WAYS = DOUBLE_ARROWS.choices


@pytest.mark.parametrize("n", slow_if([4, 6, 9], lambda n: n == 9))
@settings(max_examples=30, deadline=None)
@given(st.sampled_from([UnitKind.BOX, UnitKind.ROW]), st.data())
def test_each_way_holds_exactly_the_fillings_of_the_rule(n, kind, data):
    # Two ends (both in one unit, or anywhere) and one to three cells between (two past
    # 4x4), some of one unit: each way's clauses with each cell's one digit and peers'
    # different digits, against every filling checked by the rule. The line need not be a
    # path: CNF reads only its cells.
    geometry = make_geometry(n)
    units = [u.cells for u in geometry.units if u.kind == kind]
    ends = data.draw(st.lists(st.sampled_from(data.draw(st.sampled_from(units), "unit")),
                              min_size=2, max_size=2, unique=True), "ends")
    if data.draw(st.booleans(), "an end elsewhere"):
        ends[1] = data.draw(st.sampled_from([c for c in range(geometry.ncells)
                                             if c != ends[0]]), "elsewhere")
    rest = [c for c in range(geometry.ncells) if c not in ends]
    unit = [c for c in data.draw(st.sampled_from(units), "run unit") if c not in ends]
    most = 3 if n == 4 else 2
    middle = data.draw(st.lists(st.sampled_from(unit), min_size=1, max_size=most,
                                unique=True), "between")
    rest = [c for c in rest if c not in middle]
    middle += data.draw(st.lists(st.sampled_from(rest), max_size=most - len(middle),
                                 unique=True), "between elsewhere")
    line = DoubleArrow((ends[0], *middle, ends[1]))
    cells = line.cells
    peers = [(i, j) for i, a in enumerate(cells) for j, b in enumerate(cells[:i])
             if geometry.are_peers(a, b)]
    expected = {digits for digits in product(range(n), repeat=len(cells))
                if digits[0] + digits[-1] + 2 == sum(d + 1 for d in digits[1:-1])
                and all(digits[i] != digits[j] for i, j in peers)}
    for way in WAYS:
        ctx = CnfContext(variables(geometry), start=variables(geometry).x_count + 1,
                         options={"double_arrows": way})
        assert local_fillings(geometry, cells, line.cnf(ctx)) == expected, way


def test_sets_read_ends_that_see_each_other_as_one_set():
    # A1 + A3 = A2 (all in row A; A2 between): the fillings 1+2=3, 2+1=3, ..., each pair
    # of ends in both orders. The table has a selector per filling, sets one per pair.
    geometry = make_geometry(9)
    numbering = variables(geometry)
    line = DoubleArrow((0, 1, 2))
    made = {}
    for way in ("table", "sets"):
        ctx = CnfContext(numbering, start=numbering.x_count + 1, options={"double_arrows": way})
        made[way] = len(list(line.cnf(ctx))), ctx.top - numbering.x_count
    pairs = {(a, b) for a in range(1, 10) for b in range(1, 10)
             if a != b and a + b <= 9 and a + b not in (a, b)}
    assert made["table"][1] == len(pairs) and made["sets"][1] == len(pairs) // 2
    assert made["sets"][0] < made["table"][0]


@pytest.mark.parametrize("way", WAYS)
def test_each_way_writes_its_guard_into_its_own_clauses(way):
    numbering = variables(make_geometry(9))
    start = numbering.x_count + 2
    guard = -(start - 1)
    line = DoubleArrow((0, 1, 2, 11, 20))
    plain = CnfContext(numbering, start=start, options={"double_arrows": way})
    guarded = CnfContext(numbering, start=start, options={"double_arrows": way}, guard=guard)
    clauses = line.cnf(guarded)
    assert type(clauses) is Guarded
    assert sorted(map(sorted, clauses)) == sorted(sorted([*c, guard]) for c in line.cnf(plain))
    assert guarded.top == plain.top


@pytest.mark.parametrize("variant", slow_if([None, "anti-king"], lambda v: v is not None))
def test_each_way_counts_as_the_native_solver(variant):
    # Double arrows drawn on a grid, half the other cells given: every way (fresh, and the
    # default incremental) finds the native solver's solutions.
    puzzle = sampled_puzzle(DoubleArrow, make_geometry(9, variants=[variant] if variant else []),
                            5)
    native = sorted(get_backend("native").solve(puzzle, limit=50).solutions)
    assert 0 < len(native) < 50
    for spec in (*(f"sat:mode=fresh,double_arrows={way}" for way in WAYS), "sat"):
        assert sorted(get_backend(spec).solve(puzzle, limit=50).solutions) == native, spec
