"""Candidate grids read back as puzzles with pencil marks: hint and explain go on from a
partly solved grid, and every backend honours the marks."""

from __future__ import annotations

import pytest
from cases import GRID2
from typer.testing import CliRunner

from sudoku_csp import ParseError, count, datasets, get_backend, parse, render, to_line
from sudoku_csp.cli import app
from sudoku_csp.constraints import PencilMarks
from sudoku_csp.geometry import bits
from sudoku_csp.io import format_cells
from sudoku_csp.logic import explain, hint
from sudoku_csp.logic.board import Board
from sudoku_csp.verify import violations

runner = CliRunner()
TRIO = ["native", "sat", "cpsat"]


def candidate_text(board: Board) -> str:
    """The board as a candidate grid, the way ``show -c`` lays one out."""
    return format_cells(board.geometry, ["".join(str(d + 1) for d in bits(m))
                                         for m in board.cand])


def test_show_candidates_reads_back_as_the_same_puzzle():
    result = runner.invoke(app, ["show", "-c", "--rules", "none", GRID2])
    grid = result.stdout.split("propagation:\n", 1)[1]
    puzzle = parse(grid)
    assert puzzle.givens == parse(GRID2).givens
    (marks,) = puzzle.constraints
    assert isinstance(marks, PencilMarks) and len(marks.marks) == 81 - 17
    assert count(puzzle).solutions == count(GRID2).solutions
    assert parse(to_line(puzzle)) == puzzle  # its JSON line keeps the marks


@pytest.mark.parametrize("done", [3, 10, 25])
def test_hint_goes_on_from_a_partly_solved_grid(done):
    # Apply the first steps of an explanation, write the pencil marks out as text, read them
    # back: the hint there is a true step from where the marks stand (a cell down to one
    # candidate reads back as placed, so it need not be the explanation's own next step).
    puzzle = datasets.load("mixed9")[5]
    e = explain(puzzle)
    board = Board.from_puzzle(puzzle)
    for step in e.steps[:done]:
        board.apply(step)
    partial = parse(candidate_text(board))
    assert all(board.cand[c] >> d & 1 for c, d in enumerate(e.grid))  # the marks hold it
    nxt = hint(partial)
    assert nxt is not None and (nxt.placements or nxt.eliminations)
    assert all(partial.givens[c] == -1 and e.grid[c] == d for c, d in nxt.placements)
    assert all(e.grid[c] != d for c, d in nxt.eliminations)
    rest = explain(partial)
    assert rest.solved and rest.grid == e.grid
    assert len(rest.steps) < len(e.steps)  # it went on from there, not from the start


def test_every_backend_honours_the_marks():
    # Strike the true digit from one cell's marks: no solution, on every backend, and the
    # independent check names the cell.
    puzzle = parse(GRID2)
    solution = count(puzzle).solution
    assert solution is not None
    cell = puzzle.givens.index(-1)
    wrong = PencilMarks(((cell, ((1 << 9) - 1) & ~(1 << solution[cell])),))
    struck = type(puzzle)(puzzle.geometry, puzzle.givens, "", (wrong,))
    for spec in TRIO:
        assert get_backend(spec).solve(struck, limit=2).status.value == "none", spec
    assert "not one of its pencil marks" in violations(struck, solution)[0]


def test_a_token_that_repeats_a_digit_names_its_place():
    text = "12 3 4 1234\n" + "11 3 4 1234\n" * 3
    with pytest.raises(ParseError, match=r"line 2, column 1: '11' names a digit twice"):
        parse(text)


def test_commands_that_ignore_constraints_refuse_pencil_marks():
    grid = runner.invoke(app, ["show", "-c", "--rules", "none", GRID2]).stdout
    result = runner.invoke(app, ["canon", "-"], input=grid.split("propagation:\n", 1)[1])
    assert result.exit_code == 6 and "pencil marks" in result.stderr


def test_a_picture_shows_the_pencil_marks():
    grid = runner.invoke(app, ["show", "-c", "--rules", "none", GRID2]).stdout
    puzzle = parse(grid.split("propagation:\n", 1)[1])
    (marks,) = puzzle.constraints
    svg = render.grid_svg(puzzle.geometry, puzzle.givens, constraints=puzzle.constraints)
    assert svg.count('class="candidate"') == sum(m.bit_count() for _, m in marks.marks)


def _candidates(puzzle_text: str) -> str:
    result = runner.invoke(app, ["show", "-c", "--rules", "none", puzzle_text])
    assert result.exit_code == 0, result.output
    return result.stdout.split("propagation:\n", 1)[1]


def _pattern_25(keep: int) -> str:
    # a valid 25x25 solution (the shifted pattern), every cell but one in ``keep`` blanked
    rows = [[(5 * (r % 5) + r // 5 + c) % 25 for c in range(25)] for r in range(25)]
    return "".join("123456789ABCDEFGHIJKLMNOP"[d] if (r * 25 + c) % keep == 0 else "."
                   for r, row in enumerate(rows) for c, d in enumerate(row))


@pytest.mark.parametrize("size", [16, 25])
def test_show_candidates_of_a_large_grid_read_back_with_the_same_candidates(size):
    # symbols 1-9 then A-Z, one character each: a 16x16 or 25x25 candidate grid is as
    # unambiguous as a 9x9 one
    text = datasets.load("sixteen")[0] if size == 16 else parse(_pattern_25(3))
    line = to_line(text)
    grid = _candidates(line)
    puzzle = parse(grid)
    assert puzzle.geometry.size == size and puzzle.givens == parse(line).givens
    (marks,) = puzzle.constraints
    assert isinstance(marks, PencilMarks) and any(m >> 9 for _, m in marks.marks)  # A and up
    assert _candidates(to_line(puzzle)) == grid  # the same candidates, through its JSON line
    assert parse(to_line(puzzle)) == puzzle


def test_a_numbered_sixteen_grid_is_no_candidate_grid():
    # whitespace-separated numbers (12 is the digit twelve there, not candidates 1 and 2)
    puzzle = datasets.load("sixteen")[0]
    numbers = " ".join("0" if d < 0 else str(d + 1) for d in puzzle.givens)
    assert parse(numbers).givens == puzzle.givens
    full = count(puzzle).solution
    assert full is not None
    assert parse(" ".join(str(d + 1) for d in full)).givens == full
