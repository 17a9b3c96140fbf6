"""Sums beyond one constraint (:mod:`sudoku_csp.logic.sums`): the linear sums every summing
kind states, the 45 rule over units with arrows' circles and shafts (and any other kind's
sums) added in, each step checked against every solution by SAT."""

from __future__ import annotations

import random
from itertools import product

import pytest
from cases import slow_if
from hypothesis import given, settings
from hypothesis import strategies as st
from test_logic_reach import SINGLES, board, cell, run_to_fixpoint

from sudoku_csp import EMPTY, get_backend, make_geometry
from sudoku_csp.constraints import Arrow, Parity, registry
from sudoku_csp.constraints.cage_sums import LinearSum
from sudoku_csp.generate.kinds import generate_variants
from sudoku_csp.logic import TECHNIQUES, explain, sums
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.html import step_highlights
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.logic.step import unit_name
from sudoku_csp.puzzle import Puzzle

NINE = make_geometry(9)
BEFORE = ("constraint", "constraint_combination", "constraint_units", "constraint_exact",
          "constraint_overlap")


def arrow(circle: str, *shaft: str) -> Arrow:
    return Arrow((cell(circle),), ((cell(circle), *map(cell, shaft)),))


def pattern_grid(n: int, box: tuple[int, int]) -> list[int]:
    """A solved grid (digits 0..n-1) of n x n with boxes ``box`` (rows x columns)."""
    rows, cols = box
    return [(r * cols + r // rows + c) % n for r in range(n) for c in range(n)]


# -- the sums each kind states -------------------------------------------------------------------
SUMMING = sorted(k.kind for k in registry.KINDS if k.has_own("linear_sums"))


def test_the_summing_kinds_state_their_sums():
    assert {"arrow", "cage", "little killer", "xv", "region sum line", "zipper line",
            "double arrow"} <= set(SUMMING)


@pytest.mark.parametrize("kind", SUMMING)
def test_every_sum_a_kind_states_holds_on_the_grid_it_was_read_from(kind):
    g = make_geometry(9)
    grid = pattern_grid(9, (3, 3))
    rng = random.Random(7)
    cls = next(k for k in registry.KINDS if k.kind == kind)
    stated = 0
    for _ in range(5):
        for constraint in cls.sample(g, grid, rng):
            assert constraint.violations(g, grid) == []
            for terms, total in constraint.linear_sums(g):
                assert sum(w * (grid[c] + 1) for c, w in terms) == total, constraint
                stated += 1
    assert stated > 0


def test_a_pill_counts_its_tens_ten_times():
    pill = Arrow((cell("A1"), cell("A2")), ((cell("A2"), cell("B3"), cell("C4")),))
    ((terms, total),) = pill.linear_sums(NINE)
    assert dict(terms) == {cell("B3"): 1, cell("C4"): 1, cell("A1"): -10, cell("A2"): -1}
    assert total == 0
    assert pill.linear_sums(make_geometry(16)) == []   # values of two digits: no fixed sum


def test_a_weighted_sum_narrows_by_its_weights():
    # a + 2b - c = 4 over 1..4: (1, 2, 1), (2, 1, 0)x, (2, 2, 2), (3, 1, 1), (3, 2, 3),
    # (4, 1, 2), (4, 2, 4), (1, 3, 3), (2, 3, 4) ...: b = 4 needs c >= 5
    full = 0b1111
    assert LinearSum((1, 2, -1), 4).narrow((full, full, full)) == (full, 0b0111, full)
    assert LinearSum((2,), 6).narrow((full,)) == (0b0100,)
    assert LinearSum((3, 1), 5).narrow((full, full)) == (0b0001, 0b0010)


@settings(max_examples=150, deadline=None)
@given(weights=st.lists(st.sampled_from([-10, -2, -1, 1, 2, 3]), min_size=1, max_size=4),
       masks=st.lists(st.integers(1, 63), min_size=4, max_size=4), total=st.integers(-30, 40))
def test_a_weighted_sum_keeps_exactly_the_values_some_solution_uses(weights, masks, total):
    masks = masks[:len(weights)]
    kept = [0] * len(weights)
    for values in product(*[[v for v in range(1, 7) if m >> (v - 1) & 1] for m in masks]):
        if sum(w * v for w, v in zip(weights, values, strict=True)) == total:
            for i, v in enumerate(values):
                kept[i] |= 1 << (v - 1)
    found = LinearSum(weights, total).narrow(tuple(masks))
    assert found == (None if not any(kept) else tuple(kept))


# -- the 45 rule with arrows -----------------------------------------------------------------------
def _ruled_out(puzzle: Puzzle, eliminations) -> list[str]:
    """The eliminations some solution of ``puzzle`` keeps (each asked of SAT)."""
    sat = get_backend("sat")
    kept = []
    for c, d in eliminations:
        grid = list(puzzle.givens)
        grid[c] = d
        if sat.solve(Puzzle(puzzle.geometry, tuple(grid), constraints=puzzle.constraints),
                     limit=1).count:
            kept.append(f"{puzzle.geometry.label(c)}={d + 1}")
    return kept


def _row_e() -> tuple[Puzzle, Board]:
    # Row E adds up to 45; E1+E2 = E3 and E8+E9 = E7, so 2×E3 + E4 + E5 + E6 + 2×E7 = 45:
    # with E4 = 8 and E5 = 3, E6 is even (2×(E3+E7) is).
    grid = [EMPTY] * 81
    grid[cell("E4")], grid[cell("E5")] = 7, 2
    puzzle = Puzzle(NINE, tuple(grid), constraints=(arrow("E3", "E2", "E1"),
                                                    arrow("E7", "E8", "E9")))
    b = Board.from_puzzle(puzzle)
    run_to_fixpoint(b, *BEFORE)
    return puzzle, b


def test_the_45_rule_on_a_row_counts_each_circle_twice():
    puzzle, b = _row_e()
    made = {(c.terms, c.total) for c in sums.combined_sums(b)}
    assert (((cell("E3"), 2), (cell("E6"), 1), (cell("E7"), 2)), 34) in made
    step = sums.sum_leftovers(b)
    assert step is not None
    assert step.text.startswith(
        "Innies and outies: row E adds up to 45; with the sums of arrow from E3 and arrow "
        "from E7 (placed E4, E5 counted in): 2×E3 + E6 + 2×E7 = 34")
    assert {(cell("E6"), d - 1) for d in (1, 5, 7, 9)} <= set(step.eliminations)
    assert _ruled_out(puzzle, step.eliminations) == []
    lit = step_highlights(step)
    assert set(lit.cells) == {cell("E3"), cell("E6"), cell("E7")}
    assert [unit_name(NINE, u) for u in lit.units] == ["row E"]
    assert TECHNIQUES["sum_leftovers"].rate(step) == sums.SUMS_RATING


def test_a_sum_through_a_box_read_with_the_box_finds_its_odd_cell():
    # Eddies (Qodec): 2×E3 + E4 + E5 + E6 + 2×E7 = 45 makes E4+E5+E6 odd. Box 5 holds five
    # odd digits, four in its corners: one odd digit in its middle cross, so it is in row E,
    # and D5, F5 are even. The row's sum alone cannot see it; read with box 5 whole it does.
    corners = Parity(tuple(cell(x) for x in ("D4", "D6", "F4", "F6")), ())
    puzzle = Puzzle(NINE, (EMPTY,) * 81, constraints=(arrow("E3", "E2", "E1"),
                                                      arrow("E7", "E8", "E9"), corners))
    b = Board.from_puzzle(puzzle)
    run_to_fixpoint(b, *BEFORE)
    step = sums.sum_leftovers(b)
    assert step is not None
    assert set(step.eliminations) == {(cell(x), d) for x in ("D5", "F5") for d in (0, 2, 4, 6, 8)}
    assert "2×E3 + E4 + E5 + E6 + 2×E7 = 45, read with box 5 (every digit once)" in step.text
    assert _ruled_out(puzzle, step.eliminations) == []
    assert [unit_name(NINE, u) for u in step.units] == ["row E", "box 5"]


def test_no_sum_is_made_from_a_region_alone_or_a_constraint_alone():
    b = board(arrow("E3", "E2", "E1"))
    run_to_fixpoint(b, *BEFORE)
    for combined in sums.combined_sums(b):
        assert combined.used
        assert combined.region or len(combined.used) > 1


# -- every step proved ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", slow_if(["region-sum-line", "double-arrow", "arrow",
                                          "little-killer"],
                                         lambda kind: kind in ("arrow", "little-killer")))
def test_sum_steps_on_generated_puzzles_fire_and_are_proved(kind):
    """With only singles and the rules between cells before it, the technique meets many
    positions: every step it makes must be proved."""
    puzzle = next(generate_variants(make_geometry(6), kinds=[kind], seed=3))
    e = explain(puzzle, techniques=[*SINGLES, "constraint", "sum_leftovers"], max_steps=80)
    prove_steps(e)
    assert e.rating.techniques.get("sum_leftovers", 0) > 0
