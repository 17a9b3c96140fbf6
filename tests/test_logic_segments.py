"""A constraint's cells in one unit and the digits they must hold
(:mod:`sudoku_csp.logic.segments`): each step checked against every solution by SAT, proved
on generated puzzles, and never made on the plain grid."""

from __future__ import annotations

import pytest
from cases import slow_if
from test_logic_reach import SINGLES, board, cell, run_to_fixpoint
from test_logic_sums import BEFORE, _ruled_out

from sudoku_csp import EMPTY, make_geometry, parse
from sudoku_csp.constraints import LittleKiller, Palindrome
from sudoku_csp.generate.kinds import generate_variants
from sudoku_csp.logic import TECHNIQUES, explain, segments
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.html import step_highlights
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.logic.step import unit_name
from sudoku_csp.puzzle import Puzzle

NINE = make_geometry(9)
SLOW = {("little-killer", 1)}


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
    e = explain(puzzle, max_steps=2)
    assert e.rating.er is not None and e.rating.er > segments.SEGMENT_RATING
    assert "segment_pointing" not in e.rating.techniques
    assert "segment_unit" not in e.rating.techniques
    b = Board.from_puzzle(puzzle)
    for step in e.steps:
        assert segments.segment_pointing(b) is None
        assert segments.segment_unit(b) is None
        b.apply(step)


def test_two_diagonals_read_together_hold_what_neither_alone_holds():
    # A2 + B1 = 3 takes 1 and 2 of box 1, so A1 and B2 hold 3 and 4 and C3 + D4 = 13 - 7 is
    # 2 + 4: box 4's two cells of the long diagonal hold 2 and 4, which C4 and D3 lose.
    four = make_geometry(4)
    one = LittleKiller((0, 5, 10, 15), "down-right", 13)
    two = LittleKiller((1, 4), "down-left", 3)
    puzzle = Puzzle(four, (EMPTY,) * 16, constraints=(one, two))
    b = Board.from_puzzle(puzzle)
    step = segments.segment_overlap(b)
    assert step is not None
    assert set(step.eliminations) == {(c, d) for c in (11, 14) for d in (1, 3)}
    assert "not both can be kept" in step.text
    assert _ruled_out(puzzle, step.eliminations) == []
    assert [unit_name(four, u) for u in step.units] == ["box 4"]
    assert TECHNIQUES["segment_overlap"].rate(step) == segments.OVERLAP_RATING


def test_a_segment_holds_only_cells_the_links_read():
    # An odd palindrome's middle cell is in none of its links (it is free): a segment is
    # read over the links' cells. A3 = C5 share no unit; B4 and C5 share box 2, but B4 is
    # no cell of a link, so there is no segment to read.
    b = board(Palindrome(tuple(cell(x) for x in ("A3", "B4", "C5"))))
    assert segments.segment_pointing(b) is None
    assert segments.segment_overlap(b) is None


UNIT_BEFORE = [*SINGLES, *BEFORE, "segment_pointing", "segment_overlap"]


def test_two_arrows_read_with_a_column_leave_what_neither_pair_reading_sees():
    # Two arrows of a generated 6×6 puzzle each have two or more cells in column 4; with
    # everything before the step (singles, each constraint alone and with its units, the two
    # read together, their segments) nothing more is found, but the column must still hold
    # 1..6 once each: read with it, the two arrows rule out 4 from A4. Every elimination is
    # checked against all solutions by SAT.
    puzzle = next(generate_variants(make_geometry(6), kinds=["arrow"], seed=4))
    e = explain(puzzle, techniques=[*UNIT_BEFORE, "segment_unit"], max_steps=80)
    b = Board.from_puzzle(puzzle)
    for step in e.steps:
        if step.technique == "segment_unit":
            break
        b.apply(step)
    else:
        pytest.fail("no segment_unit step")
    for key in UNIT_BEFORE:   # the step is beyond every technique before it
        assert TECHNIQUES[key].find(b) is None
    found = segments.segment_unit(b)
    assert found is not None and found.eliminations == step.eliminations
    assert _ruled_out(puzzle, step.eliminations) == []
    assert step.eliminations == ((cell("A4", 6), 3),)
    assert step.text.startswith("Segment: Arrow from B4 (")
    assert "read with column 4 (each digit once there)" in step.text
    assert [unit_name(puzzle.geometry, u) for u in step_highlights(step).units] == ["column 4"]
    assert TECHNIQUES["segment_unit"].rate(step) == segments.UNIT_RATING


GENERATED = [("little-killer", 1), ("little-killer", 2), ("arrow", 4), ("thermometer", 3),
             ("whispers", 2), ("renban", 1), ("region-sum-line", 4), ("sandwich", 1),
             ("x-sum", 1), ("skyscraper", 1), ("modular-line", 1), ("nabner", 1)]


@pytest.mark.parametrize(("kind", "seed"), slow_if(GENERATED, lambda case: case in SLOW))
def test_segment_steps_on_generated_puzzles_fire_and_are_proved(kind, seed):
    """With only singles and the rules between cells before them, the techniques meet many
    positions: every step they make must be proved."""
    puzzle = next(generate_variants(make_geometry(6), kinds=[kind], seed=seed))
    keys = ["segment_pointing", "segment_overlap", "segment_unit"]
    e = explain(puzzle, techniques=[*SINGLES, "constraint", *keys], max_steps=80)
    prove_steps(e)
    assert sum(e.rating.techniques.get(key, 0) for key in keys) > 0
