"""The sums narrowings and encodings of the summing kinds, against brute force.

- Every native link of every kind (its joint links too: the implied sums of cages) keeps
  every digit of a grid its constraints hold, whatever candidates around it: it never
  removes a digit of a true solution.
- :class:`LinearSum` keeps exactly the values some completion adds up with (generalised arc
  consistency).
- :func:`set_supports` (a digit set held against cells, as sandwiches and X-sums read their
  fillings) keeps exactly each cell's digits in some placement, up to ``EXACT_MOST`` cells,
  and at least those beyond.
- Both ``line_sums`` encodings of the sat backend, the little killers' ``sum_bounds``
  switched off, and each translation with the implied families switched off, count what
  the checker counts on each summing kind's samples; so do the native ``conflicts`` and
  ``restarts`` branchings (the latter restarting often).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

import sudoku_csp.constraints.cage_sums as cage_sums
import sudoku_csp.constraints.group_sums as group_sums
import sudoku_csp.constraints.kinds.arrow as arrow_module
from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import KINDS, Arrow, Sandwich, XSum, cnf_clauses, native_links
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.constraints.group_sums import EXACT_MOST, group_sets, set_supports, sets_adding_to
from sudoku_csp.constraints.sum_tables import sum_table
from sudoku_csp.geometry import EMPTY
from sudoku_csp.modeling.variables import variables
from sudoku_csp.native import search
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

SUMMING = ["cage", "arrow", "double arrow", "little killer", "sandwich", "X-sum", "xv",
           "region sum line", "zipper line", "dots"]


@cache
def _grids(size: int) -> tuple[tuple[int, ...], ...]:
    return get_backend("native").solve(Puzzle.empty(make_geometry(size)),
                                       limit=288 if size == 4 else 200).solutions


def _kind(name: str):  # noqa: ANN202
    return next(k for k in KINDS if k.kind == name)


def _sample(name: str, size: int, rng: random.Random):  # noqa: ANN202
    geometry = make_geometry(size)
    for _ in range(20):
        grid = rng.choice(_grids(size))
        found = _kind(name).sample(geometry, grid, rng)
        if found:
            return geometry, grid, tuple(found)
    return None


def _counted(name: str, seed: str) -> tuple[Puzzle, int]:
    """A given-free 4x4 of the kind's sample and how many of the 288 grids it holds on."""
    sampled = _sample(name, 4, random.Random(seed))
    assert sampled is not None
    geometry, _, constraints = sampled
    expected = sum(all(not c.violations(geometry, g) for c in constraints)
                   for g in _grids(4))
    return Puzzle(geometry, (EMPTY,) * 16, "", constraints), expected


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([k.kind for k in KINDS]), st.sampled_from([4, 6]),
       st.integers(0, 10**9))
def test_no_link_removes_a_digit_of_a_grid_the_constraints_hold(name, size, seed):
    rng = random.Random(seed)
    sampled = _sample(name, size, rng)
    if sampled is None:
        return
    geometry, grid, constraints = sampled
    full = (1 << size) - 1
    for link in native_links(geometry, constraints):
        # Candidates around the grid's digits: each cell its digit and some others.
        masks = tuple(1 << grid[c] | (rng.randrange(1 << size) if rng.random() < 0.8 else
                                      full) for c in link.cells)
        out = link.narrow(masks)
        assert out is not None, (link, masks)
        assert all(m >> grid[c] & 1 for m, c in zip(out, link.cells, strict=True)), (
            link, masks, out)
        assert all(m & ~before == 0 for m, before in zip(out, masks, strict=True))


def _values(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, -1]), st.integers(1, 63)), min_size=1,
                max_size=4), st.integers(-10, 20))
def test_linear_sum_keeps_exactly_the_supported_values(terms, total):
    signs = tuple(s for s, _ in terms)
    masks = tuple(m for _, m in terms)
    support = [0] * len(masks)
    for values in product(*(_values(m) for m in masks)):
        if sum(s * v for s, v in zip(signs, values, strict=True)) == total:
            for i, v in enumerate(values):
                support[i] |= 1 << (v - 1)
    expected = tuple(support) if all(support) else None
    assert LinearSum(signs, total).narrow(masks) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(0, 10**9))
def test_set_supports_are_the_placements_digits(k, seed):
    rng = random.Random(seed)
    combo = sum(1 << d for d in rng.sample(range(7), k))
    masks = tuple(rng.randrange(1, 128) | (combo if rng.random() < 0.3 else 0)
                  for _ in range(k))
    support = [0] * k
    for digits in product(*([d for d in range(7) if m >> d & 1] for m in masks)):
        if sum(1 << d for d in set(digits)) == combo and len(set(digits)) == k:
            for i, d in enumerate(digits):
                support[i] |= 1 << d
    out = set_supports(combo, masks)
    if k <= EXACT_MOST:
        assert out == (tuple(support) if all(support) else None)
    elif all(support):
        assert out is not None and all(o & s == s for o, s in zip(out, support, strict=True))



@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10**9))
def test_set_supports_on_the_digits_of_a_large_grid(k, seed):
    rng = random.Random(seed)
    combo = sum(1 << d for d in rng.sample(range(25), k))
    masks = tuple(rng.randrange(1, 1 << 25) | (combo if rng.random() < 0.5 else 0)
                  for _ in range(k))
    support = [0] * k
    for digits in product(*([d for d in range(25) if m >> d & 1 and combo >> d & 1]
                            for m in masks)):
        if len(set(digits)) == k:
            for i, d in enumerate(digits):
                support[i] |= 1 << d
    assert set_supports(combo, masks) == (tuple(support) if all(support) else None)


def test_set_supports_reads_tables_as_large_as_the_set_not_the_grid(monkeypatch):
    # A 25x25 grid's digit 25 made tables of 2**25 bits (about 250 MB, 0.2 s a call).
    asked: list[int] = []
    real = group_sums._set_tables
    monkeypatch.setattr(group_sums, "_set_tables", lambda n: asked.append(n) or real(n))
    combo = 1 << 24 | 1 << 20 | 1 << 3
    both = 1 << 24 | 1 << 3
    assert set_supports(combo, (combo, both, 1 << 20)) == (both, both, 1 << 20)
    assert asked == [3]


def test_sets_adding_to_are_group_sets_of_that_sum():
    for n in range(1, 11):
        for size in range(n + 1):
            table = group_sets(size, n)
            for total in range(-1, n * (n + 1) // 2 + 2):
                assert sets_adding_to(size, total, n) == table.get(total, ()), (size, total)


@pytest.mark.parametrize("kind", [Sandwich, XSum])
def test_a_25_digit_clue_lists_only_the_sets_of_its_sum(kind, monkeypatch):
    # Every set of every size of 25 digits is 2**25: listing them took a 25x25 sandwich 84 s
    # and 1.4 GB to narrow once. Bounded by the sets listed, not by time.
    listed = 0

    def counted(digits, size):
        nonlocal listed
        for chosen in combinations(digits, size):
            listed += 1
            if listed > 100_000:
                raise AssertionError("every set of the digits listed")
            yield chosen

    for module in (cage_sums, group_sums):  # wherever the sets are listed
        monkeypatch.setattr(module, "combinations", counted, raising=False)
    group_sets.cache_clear()
    g25 = make_geometry(25)
    clue = kind(tuple(range(25)), "right", 31)
    full = (1 << 25) - 1
    for link in native_links(g25, (clue,)):
        assert link.narrow((full,) * 25) is not None

SPECS = ["sat:line_sums=cells", "sat:region_sums=cells,zipper_sums=cells", "sat:bounds_rows=all",
         "sat:line_sums=groups,sum_bounds=off", "sat:sum_bounds=off",
         "sat:hidden=off,leftovers=off", "sat:required=off", "native:hidden=off",
         "native:leftovers=off,required=off",
         "cpsat:hidden=off,required=off", "native:branch=conflicts", "native:branch=degree"]


@pytest.mark.parametrize("name", SUMMING)
def test_encodings_count_what_the_checker_counts(name):
    for seed in range(4):
        puzzle, expected = _counted(name, f"{name} {seed}")
        for spec in SPECS:
            result = get_backend(spec).solve(puzzle, limit=None)
            assert (result.count, result.complete) == (expected, True), (spec, puzzle.constraints)


def test_a_sandwich_reading_needs_every_cell_outside_its_crusts_free_of_them():
    # Digits 1, 4, 1, 2 along a row (two 1s): each 1 beside the 4 makes a sandwich of 0 on
    # its own, but each leaves the other 1 outside its crusts. Found by
    # test_read_off_grids_hold_and_a_changed_digit_is_judged_alike[sandwich].
    (link,) = Sandwich((3, 2, 1, 0), "left", 0).native(make_geometry(4))
    assert link.narrow((1, 8, 1, 2)) is None
    assert link.narrow((1, 8, 2, 4)) == (1, 8, 2, 4)


def _line_supports(masks: tuple[int, ...], holds) -> tuple[int, ...] | None:  # noqa: ANN001
    """Brute force: each cell's digits over the orderings of the line's digits (the line a
    unit: every digit once) within ``masks`` whose values ``holds`` accepts."""
    n = len(masks)
    found = [0] * n
    values: list[int] = []

    def place(i: int, used: int) -> None:
        if i == n:
            if holds(values):
                for k, v in enumerate(values):
                    found[k] |= 1 << (v - 1)
            return
        for d in range(n):
            if masks[i] >> d & 1 and not used >> d & 1:
                values.append(d + 1)
                place(i + 1, used | 1 << d)
                values.pop()

    place(0, 0)
    return tuple(found) if all(found) else None


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["sandwich", "X-sum"]), st.sampled_from([4, 6, 9]),
       st.integers(0, 10**9))
def test_a_line_sum_on_a_unit_keeps_exactly_what_some_ordering_of_the_line_gives(
        name, size, seed):
    # A sandwich or an X-sum on a row holds every digit once: its joint link (the rule with
    # the units) keeps exactly each cell's digits in some ordering of the row that shows
    # the clue, never a digit of a real one (the clue read off a random ordering,
    # candidates around it). Main had no such link; its own link kept more.
    rng = random.Random(seed)
    kind = _kind(name)
    line = list(range(1, size + 1))
    rng.shuffle(line)
    total = kind.clue_of(line, size)
    if total is None:
        return
    clue = kind(tuple(range(size)), "right", total)
    (link,) = kind.joint_native(make_geometry(size), [clue])
    masks = tuple(1 << (v - 1) | (rng.randrange(1 << size) if rng.random() < 0.7 else 0)
                  for v in line)
    expected = _line_supports(masks, lambda values: kind.clue_of(values, size) == total)
    assert expected is not None
    assert link.narrow(masks) == expected, (name, line, total, masks)


def test_a_sandwich_outside_its_crusts_holds_the_digits_left_over():
    # Row A of a 9x9 under a sandwich of 5, the 1 in A1: the 9 in A3 (A2 holds 5) or in A4
    # (A2 and A3 hold 2 and 3). A9 holds 5, which the reading with the 9 in A3 needs
    # between its crusts: read as a unit, the row outside the crusts holds the digits left
    # over, so that reading dies and A2..A4 are 2, 3, 9, as brute force over the row's
    # orderings finds. Main's link kept both readings (each filling fits between).
    rest = 0b111111110
    masks = (1, 0b10110, 0b100010100, 0b100000110, *[rest & ~0b10000] * 4, 0b10000)
    clue = Sandwich(tuple(range(9)), "right", 5)
    (link,) = Sandwich.joint_native(make_geometry(9), [clue])
    out = link.narrow(masks)
    assert out == _line_supports(masks, lambda values: Sandwich.clue_of(values, 9) == 5)
    assert out is not None and out[1:4] == (0b10, 0b100, 1 << 8)


def _row_propagation(clue, masks: tuple[int, ...]) -> list[int] | None:  # noqa: ANN001
    """What unit propagation reaches over row A of a 9x9 (each cell one digit, each digit
    once) and ``clue``'s clauses, given the candidates ``masks``: the literals implied, or
    ``None`` on a conflict."""
    geometry = make_geometry(9)
    x = variables(geometry).x
    cells = tuple(range(9))
    rules = []
    for c in cells:
        rules.append([x(c, d) for d in range(9)])
        rules += [[-x(c, a), -x(c, b)] for a in range(9) for b in range(a + 1, 9)]
    for d in range(9):
        rules.append([x(c, d) for c in cells])
        rules += [[-x(a, d), -x(b, d)] for i, a in enumerate(cells) for b in cells[i + 1:]]
    clauses, _ = cnf_clauses(geometry, [clue], start=1000)
    with Solver("minisat22", bootstrap_with=rules + [list(c) for c in clauses]) as solver:
        ok, implied = solver.propagate(assumptions=[
            -x(c, d) for c, m in zip(cells, masks, strict=True) for d in range(9)
            if not m >> d & 1])
    return implied if ok else None


def test_a_sandwich_on_a_row_propagates_its_filling_as_a_set_in_cnf():
    # Row A under a sandwich of 17, candidates A1 3/6, A2 5/7, A3 1, A5 1/6, A7 4,
    # A9 2/4/7/8/9, the rest free (the row 3 7 1 2 6 5 4 9 8 holds them). Unit
    # propagation over the row's unit clauses and the sandwich's reaches A2 = 7 and A9 = 8,
    # which brute force over the row's orderings confirms; main's automaton clauses reached
    # neither.
    masks = (0b100100, 0b1010000, 1, 0b111111111, 0b100001, 0b111111111, 0b1000, 0b111111111,
             0b111001010)
    implied = _row_propagation(Sandwich(tuple(range(9)), "right", 17), masks)
    x = variables(make_geometry(9)).x
    assert implied is not None and {x(1, 6), x(8, 7)} <= set(implied)
    truth = _line_supports(masks, lambda values: Sandwich.clue_of(values, 9) == 17)
    assert truth is not None and truth[1] == 1 << 6 and truth[8] == 1 << 7


def test_an_x_sum_on_a_row_propagates_its_first_values_as_a_set_in_cnf():
    # Row A under an X-sum of 37, candidates A4 2/5, A5 5/6/8, A7 1/3, A8 4/8, the rest
    # free (the row 6 7 9 2 8 5 1 4 3 holds them). Unit propagation over the row's unit
    # clauses and the X-sum's reaches A1 = 6 and A8 = 4, which brute force over the row's
    # orderings confirms; main's automaton clauses reached neither.
    masks = (0b111111111, 0b111111111, 0b111111111, 0b10010, 0b10110000, 0b111111111, 0b101,
             0b10001000, 0b111111111)
    implied = _row_propagation(XSum(tuple(range(9)), "right", 37), masks)
    x = variables(make_geometry(9)).x
    assert implied is not None and {x(0, 5), x(7, 3)} <= set(implied)
    truth = _line_supports(masks, lambda values: XSum.clue_of(values, 9) == 37)
    assert truth is not None and truth[0] == 1 << 5 and truth[7] == 1 << 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=2, max_size=4, unique=True), st.booleans())
def test_an_arrow_table_holds_exactly_the_fillings_of_its_rule(cells, apart):
    # cells: a shaft, then the circle (any cells: the table reads only sums and peers);
    # apart: cells that see each other differ too.
    geometry = make_geometry(9)
    cells = tuple(cells)
    expected = tuple(
        digits for digits in product(range(9), repeat=len(cells))
        if sum(d + 1 for d in digits[:-1]) == digits[-1] + 1
        and not (apart and any(digits[i] == digits[j] for i in range(len(cells))
                               for j in range(i) if geometry.are_peers(cells[i], cells[j]))))
    assert sum_table(geometry, cells, apart) == expected


def test_an_arrow_in_cnf_propagates_what_its_table_allows():
    # A1 = B2 + C3 + D4 (a diagonal, A1, B2 and C3 in box 1), candidates as below. Unit
    # propagation over the arrow's clauses (its table's support clauses) keeps exactly
    # what some filling gives: A1 loses 3 (the shaft adds up to 4 at least) and B2 its 7
    # (8 at most less 2 and 1), as brute force finds; main's automaton clauses kept both.
    # A digit no row of the table has at all is out by a unit clause of the formula, not
    # by propagation: either counts.
    geometry = make_geometry(9)
    x = variables(geometry).x
    cells = (0, 10, 20, 30)
    allowed = ([2, 3, 4, 5, 6, 8], [1, 3, 5, 7, 8, 9], [2, 3, 5, 6, 9], [1, 2, 5, 6, 7, 8])
    rules = [[x(c, d) for d in range(9)] for c in cells]
    rules += [[-x(c, a), -x(c, b)] for c in cells for a in range(9) for b in range(a)]
    clauses, _ = cnf_clauses(geometry, [Arrow((0,), ((0, 10, 20, 30),))], start=1000)
    with Solver("minisat22", bootstrap_with=rules + [list(c) for c in clauses]) as solver:
        assumptions = [-x(c, v - 1) for c, values in zip(cells, allowed, strict=True)
                       for v in range(1, 10) if v not in values]
        ok, implied = solver.propagate(assumptions=assumptions)
        units = {c[0] for c in clauses if len(c) == 1}
        implied = [*implied, *units]
    fillings = [f for f in product(*allowed)
                if f[0] == sum(f[1:]) and len({f[0], f[1], f[2]}) == 3]
    kept = [{f[i] for f in fillings} for i in range(4)]
    assert ok and 3 not in kept[0] and 7 not in kept[1]
    assert -x(0, 2) in implied and -x(10, 6) in implied
    # and nothing some filling uses
    assert not any(-x(c, v - 1) in implied for c, k in zip(cells, kept, strict=True)
                   for v in k)


@pytest.mark.parametrize("joint", [False, True])
def test_an_arrow_in_cnf_keeps_its_shaft_digits_apart_where_they_see_each_other(
        monkeypatch, joint):
    # A1 = A2 + A3, all in row A, A1 a 4: 1+3 or 3+1, never 2+2 (the row). Unit propagation
    # over the arrow's clauses alone (and one digit per cell) takes the 2 out of A2: the
    # rule's table leaves out fillings the grid forbids (sum_tables.APART), and so do the
    # joint tables when switched on (arrow.CNF_TABLE); the table of every filling kept it,
    # as the automaton's clauses, adding values one by one, did.
    monkeypatch.setattr(arrow_module, "CNF_TABLE", joint)
    geometry = make_geometry(9)
    x = variables(geometry).x
    rules = [[x(c, d) for d in range(9)] for c in (0, 1, 2)]
    rules += [[-x(c, a), -x(c, b)] for c in (0, 1, 2) for a in range(9) for b in range(a)]
    clauses, _ = cnf_clauses(geometry, [Arrow((0,), ((0, 1, 2),))], start=1000)
    with Solver("minisat22", bootstrap_with=rules + [list(c) for c in clauses]) as solver:
        ok, implied = solver.propagate(assumptions=[x(0, 3)])
    assert ok and -x(1, 1) in implied and -x(2, 1) in implied
    assert {a for a in range(1, 10) for b in range(1, 10) if a + b == 4 and a != b} == {1, 3}


def test_an_arrow_reads_its_shafts_together_natively():
    # A1 = A2 + A3 = B1 + B2, all five in box 1, A1 a 3 or a 6. Each shaft alone makes 3 as
    # 1 + 2; together they would need 1 and 2 twice in one box, so A1 is 6, as brute force
    # over the five cells finds. Main's links, run to a fixpoint, kept the 3.
    geometry = make_geometry(9)
    arrow = Arrow((0,), ((0, 1, 2), (0, 9, 10)))
    masks = {0: 0b100100, 1: 0x1FF, 2: 0x1FF, 9: 0x1FF, 10: 0x1FF}
    links = native_links(geometry, (arrow,))
    changed = True
    while changed:
        changed = False
        for link in links:
            out = link.narrow(tuple(masks[c] for c in link.cells))
            assert out is not None
            for cell, mask in zip(link.cells, out, strict=True):
                changed |= mask != masks[cell]
                masks[cell] = mask
    circles = {a for a, b, c, d, e in product(range(1, 10), repeat=5)
               if a == b + c == d + e and len({a, b, c, d, e}) == 5
               and a in (3, 6)}
    assert circles == {6} and masks[0] == 1 << 5


@pytest.mark.parametrize("name", SUMMING)
def test_restarts_count_each_solution_once(name, monkeypatch):
    # A budget of one node: the restarts branching restarts many times, meeting the same
    # solutions again; each is counted once, and the count up to a limit is right.
    monkeypatch.setattr(search, "RESTART_FIRST", 1)
    for seed in range(3):
        puzzle, expected = _counted(name, f"restart {name} {seed}")
        for limit in (1, 2, 5, 1000):
            result = get_backend("native:branch=restarts").solve(puzzle, limit=limit)
            assert len(set(result.solutions)) == len(result.solutions)
            assert result.count == min(limit, expected), (limit, puzzle.constraints)
            assert result.complete
