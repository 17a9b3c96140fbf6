"""Clause templates (constraints/translation.py): auxiliaries that two binary clauses make
equivalent are merged (merge_equivalent) without changing the solutions or weakening unit
propagation, and the kinds' templated clauses (sandwiches, X-sums, automaton lines)
propagate as the clauses they were made from."""

from __future__ import annotations

import itertools
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudoku_csp import make_geometry
from sudoku_csp.constraints import BetweenLine, Sandwich, XSum, cnf_clauses
from sudoku_csp.constraints.merging import merge_equivalent
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.modeling.variables import variables

MAIN = 5  # variables 1..5 are the formula's own; 6 on auxiliaries


def _random_formula(rng: random.Random) -> list[tuple[int, ...]]:
    """Random clauses over 5 main and 5 auxiliary variables, with pairs of binary clauses
    between auxiliaries (and their negations) so that some are equivalent."""
    def lit(v: int) -> int:
        return v if rng.random() < 0.5 else -v

    clauses = []
    for _ in range(rng.randint(2, 5)):
        a, b = rng.sample(range(MAIN + 1, MAIN + 6), 2)
        p, q = lit(a), lit(b)
        clauses += [(p, q), (-p, -q)]
    for _ in range(rng.randint(3, 10)):
        size = rng.randint(1, 4)
        clauses.append(tuple(lit(v) for v in rng.sample(range(1, MAIN + 6), size)))
    rng.shuffle(clauses)
    return clauses


def _propagator(clauses) -> tuple[Solver, list[int]]:
    """A solver over the clauses of two or more literals, and the unit clauses to assume:
    PySAT's propagate leaves out what holds at level 0, so no unit is loaded."""
    assert all(clauses)
    return (Solver("minisat22", bootstrap_with=[c for c in clauses if len(c) > 1]),
            [c[0] for c in clauses if len(c) == 1])


def _propagate(solver_units, assumptions) -> tuple[bool, set[int]]:
    solver, units = solver_units
    ok, found = solver.propagate(assumptions=[*units, *assumptions])
    return ok, set(found)


def _projections(clauses, main: int) -> set[tuple[bool, ...]]:
    top = max([main, *(abs(x) for c in clauses for x in c)])
    found = set()
    for values in itertools.product((False, True), repeat=top):
        if all(any(values[abs(x) - 1] == (x > 0) for x in c) for c in clauses):
            found.add(values[:main])
    return found


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
@example(8159)  # a merge once overwrote the bound telling auxiliaries from the formula's own
def test_merging_keeps_the_solutions_and_every_propagation(seed):
    rng = random.Random(seed)
    clauses = _random_formula(rng)
    merged, aux = merge_equivalent(clauses, MAIN + 1)
    assert all(abs(x) <= MAIN + aux for c in merged for x in c)
    assert _projections(merged, MAIN) == _projections(clauses, MAIN)
    before, after = _propagator(clauses), _propagator(merged)
    try:
        for _ in range(8):
            assumptions = [v if rng.random() < 0.5 else -v
                           for v in rng.sample(range(1, MAIN + 1), rng.randint(0, 3))]
            ok, found = _propagate(before, assumptions)
            ok2, found2 = _propagate(after, assumptions)
            if not ok:
                assert not ok2  # a conflict stays a conflict
            elif ok2:  # every main literal propagated before is propagated after
                assert {x for x in found if abs(x) <= MAIN} <= found2
    finally:
        before[0].delete()
        after[0].delete()


def _rules(geometry, cells):
    """Each of ``cells`` one digit, the digits different (the line is a unit)."""
    x, n = variables(geometry).x, geometry.size
    rules = []
    for cell in cells:
        rules.append([x(cell, d) for d in range(n)])
        rules += [[-x(cell, a), -x(cell, b)] for a in range(n) for b in range(a + 1, n)]
    rules += [[-x(a, d), -x(b, d)] for i, a in enumerate(cells) for b in cells[i + 1:]
              for d in range(n)]
    return rules


def _written(constraint, geometry, start):
    """The clauses the kind writes without a template (what the template is made from)."""
    ctx = CnfContext(variables(geometry), start=start)
    if isinstance(constraint, BetweenLine):
        return list(constraint.automaton(geometry).clauses(ctx, constraint.sequence(geometry)))
    line = constraint.line_definition(ctx)
    made = list(line.make(ctx, line.cells)) if line else []
    return made + list(constraint.unit_clauses(ctx, range(start, ctx.top + 1)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_templated_clauses_propagate_as_the_clauses_they_are_made_from(seed):
    rng = random.Random(seed)
    geometry = make_geometry(6)
    n = geometry.size
    first = n * rng.randrange(n)
    row = tuple(range(first, first + n))
    kind = rng.choice(("sandwich", "xsum", "between"))
    if kind == "sandwich":
        constraint = Sandwich(row, "right", rng.randint(0, 9))
    elif kind == "xsum":
        constraint = XSum(row, "right", rng.randint(1, 21))
    else:
        constraint = BetweenLine(row[:rng.randint(3, 5)])
    start = geometry.ncells * n + 1
    old = _written(constraint, geometry, start)
    # A between line's automaton (line_order=off): its default, on order literals, is tested
    # against brute force in test_order_lines.py.
    new, _ = cnf_clauses(geometry, [constraint], start=start, options={"line_order": "off"})
    if any(not c for c in old):  # no reading at all: the clue's template is that empty clause
        assert [] in [list(c) for c in new]
        return
    x = variables(geometry).x
    watched = [x(c, d) for c in row for d in range(n)]
    rules = _rules(geometry, row)
    before, after = _propagator(rules + old), _propagator(rules + new)
    try:
        for _ in range(6):
            assumptions = [rng.choice((1, -1)) * v for v in rng.sample(watched, rng.randint(0, 6))]
            ok, found = _propagate(before, assumptions)
            ok2, found2 = _propagate(after, assumptions)
            assert ok == ok2
            if ok:
                keep = set(watched)
                assert {v for v in found if abs(v) in keep} == {v for v in found2
                                                                if abs(v) in keep}
    finally:
        before[0].delete()
        after[0].delete()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.integers(0, 10**9), st.booleans(), st.booleans())
def test_cage_clauses_are_the_literal_by_literal_ones(size, seed, guarded, summed):
    """A cage's "different digits" clauses, zipped from its cells' negated literals, are
    those written literal by literal for each pair of its cells that do not see each other
    (in the same order), followed by its sum's clauses."""
    from sudoku_csp.constraints import Cage
    from sudoku_csp.constraints.cage_sums import combinations_for, combo_clauses, seers_of

    rng = random.Random(seed)
    geometry = make_geometry(size)
    cells = tuple(sorted(rng.sample(range(geometry.ncells), rng.randint(1, size))))
    total = sum(rng.sample(range(1, size + 1), len(cells))) if summed else None
    numbering = variables(geometry)
    guard = -numbering.first_aux if guarded else 0
    seers = rng.random() < 0.5  # the seers' clauses (off by default) or not
    ctx = CnfContext(numbering, start=numbering.first_aux + 1, guard=guard,
                     options={"seers": "on"} if seers else None)
    made = [tuple(c) for c in Cage(cells, total).cnf(ctx)]
    tail = (guard,) if guard else ()
    expected = [(-numbering.x(a, d), -numbering.x(b, d), *tail)
                for i, a in enumerate(cells) for b in cells[i + 1:]
                if not geometry.are_peers(a, b) for d in range(size)]
    assert made[:len(expected)] == expected
    if total is not None:
        again = CnfContext(numbering, start=numbering.first_aux + 1, guard=guard)
        rest = combo_clauses(again, cells, combinations_for(len(cells), total, size) or (),
                             seers_of(geometry, cells) if seers else (), guarded=True)
        assert [tuple(c) for c in rest] == made[len(expected):]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_pair_rules_write_each_pairs_clauses(seed, guarded):
    """A kind of pair rules (dots with negative rules: runs of pairs under one relation,
    broken by dots of other relations) writes, pair by pair, the clauses pair_clauses
    writes for that pair and relation."""
    from sudoku_csp.constraints.kinds.dots import Dots
    from sudoku_csp.constraints.pairs import pair_clauses

    rng = random.Random(seed)
    geometry = make_geometry(rng.choice([4, 6, 9]))
    n = geometry.size
    edges = [(a, a + 1) for a in range(geometry.ncells) if (a + 1) % n] + [
        (a, a + n) for a in range(geometry.ncells - n)]
    chosen = rng.sample(edges, rng.randint(0, 6))
    half = len(chosen) // 2
    dots = Dots(difference=tuple((a, b, 1) for a, b in chosen[:half]),
                ratio=tuple((a, b, 2) for a, b in chosen[half:]),
                negative=tuple(sorted(rng.sample(["difference", "ratio"], rng.randint(0, 2)))))
    numbering = variables(geometry)
    guard = -numbering.first_aux if guarded else 0
    ctx = CnfContext(numbering, start=numbering.first_aux + 1, guard=guard)
    expected = [tuple(c) for a, b, rel in dots.rules(geometry)
                for c in pair_clauses(ctx, a, b, rel, guarded=True)]
    assert [tuple(c) for c in dots.cnf(ctx)] == expected


def test_an_outside_clue_s_automaton_is_templated_unless_it_is_huge():
    # Read by its automaton (skyscrapers=unit), a 9x9 skyscraper's clauses come from a
    # template kept per clue (written twice, the same clauses over fresh auxiliaries; its
    # row a unit); a 25x25 one's automaton passes TEMPLATE_MOST_EDGES, so its clauses are
    # written afresh and no template is kept.
    from sudoku_csp.constraints import Skyscraper
    from sudoku_csp.constraints.automaton import TEMPLATE_MOST_EDGES
    from sudoku_csp.constraints.translation import _TEMPLATES

    g9, g25 = make_geometry(9), make_geometry(25)
    UNIT = {"skyscrapers": "unit"}  # noqa: N806
    small, large = Skyscraper(tuple(range(9)), "right", 4), Skyscraper(tuple(range(25)),
                                                                       "right", 12)
    assert sum(map(len, large.automaton(g25, unit=True).edges)) > TEMPLATE_MOST_EDGES
    start = g9.ncells * 9 + 1
    held = len(_TEMPLATES)
    first = [tuple(c) for c in small.cnf(CnfContext(variables(g9), start=start, options=UNIT))]
    assert len(_TEMPLATES) <= held + 1
    again = [tuple(c) for c in small.cnf(CnfContext(variables(g9), start=start, options=UNIT))]
    assert first == again == [tuple(c) for c in small.automaton(g9, unit=True).clauses(
        CnfContext(variables(g9), start=start, options=UNIT), small.cells)]
    held = len(_TEMPLATES)
    written = list(large.cnf(CnfContext(variables(g25), start=g25.ncells * 25 + 1,
                                        options=UNIT)))
    assert written and len(_TEMPLATES) == held
