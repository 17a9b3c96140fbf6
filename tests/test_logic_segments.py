"""A constraint's cells in one unit and the digits they must hold
(:mod:`sudoku_csp.logic.segments`): each step checked against every solution by SAT, proved
on generated puzzles, and never made on the plain grid."""

from __future__ import annotations

import pytest
from cases import slow_if
from test_logic_reach import SINGLES, board, cell, run_to_fixpoint
from test_logic_sums import BEFORE, _ruled_out

from sudoku_csp import EMPTY, make_geometry, parse
from sudoku_csp.constraints import LittleKiller
from sudoku_csp.generate.kinds import generate_variants
from sudoku_csp.logic import TECHNIQUES, explain, segments
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.html import step_highlights
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.logic.step import unit_name
from sudoku_csp.puzzle import Puzzle

NINE = make_geometry(9)


def diagonal(total: int, *labels: str) -> LittleKiller:
    return LittleKiller(tuple(cell(x) for x in labels), "up-left", total)


def test_a_diagonal_of_47_holds_8_and_9_in_each_box():
    # Orbit (Qodec): six cells of two boxes under 47. Each box's three cells add up to at
    # most 24, so each to at least 23: 6, 8, 9 or 7, 8, 9. The 8 and the 9 of box 2 are on
    # the diagonal, and no other cell of box 2 holds them.
    clue = diagonal(47, "F9", "E8", "D7", "C6", "B5", "A4")
    b = board(clue)
    run_to_fixpoint(b, *BEFORE)
    step = segments.segment_pointing(b)
    assert step is not None
    rest = [c for c in NINE.units[19].cells if c not in clue.cells]   # box 2
    assert set(step.eliminations) == {(c, d) for c in rest for d in (7, 8)}
    assert step.text.startswith(
        "Segment: Little killer 47 up-left from F9 must hold 8/9 in box 2 (A4, B5, C6): "
        "without them there it cannot be kept")
    puzzle = Puzzle(NINE, (EMPTY,) * 81, constraints=(clue,))
    assert _ruled_out(puzzle, step.eliminations) == []
    lit = step_highlights(step)
    assert set(lit.cells) == {cell(x) for x in ("A4", "B5", "C6")}
    assert [unit_name(NINE, u) for u in lit.units] == ["box 2"]
    assert TECHNIQUES["segment_pointing"].rate(step) == segments.SEGMENT_RATING


def test_never_on_the_plain_grid():
    # Without a constraint no segment is read: Sudoku Explainer's ratings stay. Inkala's
    # puzzle needs forcing chains from the start, so every technique is tried at each step.
    puzzle = parse("8..........36......7..9.2...5...7.......457....."
                   "1...3...1....68..85...1..9....4..")
    e = explain(puzzle, max_steps=3)
    assert e.rating.er is not None and e.rating.er > segments.SEGMENT_RATING
    assert "segment_pointing" not in e.rating.techniques
    b = Board.from_puzzle(puzzle)
    for step in e.steps:
        assert segments.segment_pointing(b) is None
        b.apply(step)


@pytest.mark.parametrize(("kind", "seed"), slow_if([("little-killer", 1), ("arrow", 4)],
                                                   lambda case: case[0] == "little-killer"))
def test_segment_steps_on_generated_puzzles_fire_and_are_proved(kind, seed):
    """With only singles and the rules between cells before it, the technique meets many
    positions: every step it makes must be proved."""
    puzzle = next(generate_variants(make_geometry(6), kinds=[kind], seed=seed))
    e = explain(puzzle, techniques=[*SINGLES, "constraint", "segment_pointing"], max_steps=80)
    prove_steps(e)
    assert e.rating.techniques.get("segment_pointing", 0) > 0
