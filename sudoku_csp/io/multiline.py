"""Multi-line grids in a puzzle file: where each one ends, and when sixteen lines of sixteen
cells are one 16x16 grid (the layouts themselves are :mod:`sudoku_csp.io.files`'s).

A grid ends once it has as many rows as its first row has cells (the size, when the options
give one); blank lines, comments and border rows inside it are skipped. A grid cut short by
the end of the input is read as it is only when it is a puzzle in a few long lines or a grid
of candidates; else it is an error naming the line it starts at.

Sixteen lines of sixteen cells read as either sixteen 4x4 puzzles or one 16x16 grid. When
the options do not fix the size, they are one 16x16 grid only if they are exactly the first
sixteen puzzle lines (a blank line or the end of the input follows) and either hold no given
at all, or givens of eight or more different symbols (a 4x4 puzzle has four symbols, so no
file of 4x4 puzzles with a few typos reaches eight, while a 16x16 puzzle's givens use nearly
all sixteen). Anything else stays a file of 4x4 puzzles: more or fewer lines, or lines with
the givens of 4x4 puzzles. Give ``size`` to settle it either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io.grid import scan
from sudoku_csp.io.lines import Lines
from sudoku_csp.io.options import ReadOptions, infer_size
from sudoku_csp.io.text import UnhandledConstraintsError, is_constrained_text, parse
from sudoku_csp.puzzle import Puzzle

__all__ = ["grids", "sixteen_rows"]

_GRID_LINES = 400  # a multi-line grid (up to 35x35 with separator rows) fits in this many


def sixteen_rows(lines: Lines, first: str) -> bool:
    """Whether ``first`` (a 4x4 puzzle by itself) and the lines after it are one 16x16 grid
    written a row per line, by the rule of the module docstring. The lines read ahead are
    pushed back."""
    if is_constrained_text(first):
        return False
    rows, ahead, ended = [first], [], True
    for entry in lines:
        ahead.append(entry)
        stripped = entry[1].strip()
        if len(ahead) > _GRID_LINES:
            ended = False
            break
        if stripped.startswith("#"):
            continue
        if not stripped:
            break
        if len(rows) == 16:
            ended = False
            break
        rows.append(entry[1])
    lines.unread(ahead)
    if not ended or len(rows) != 16 or any("\t" in row for row in rows):
        return False
    try:
        scanned = [scan(row, 1) for row in rows]
    except ParseError:
        return False  # the line-by-line reading reports it, at its line
    if any(len(cells) != 16 for cells in scanned):
        return False
    givens = {cell.value for cells in scanned for cell in cells if cell.value != EMPTY}
    return not givens or len(givens) >= 8


def _row_width(text: str, line: int) -> int:
    """Cells in one line of a grid (0 for a border row)."""
    return len(scan(text, line))


def grids(lines: Lines, options: dict, first_error: ParseError | None
           ) -> Iterator[tuple[int, Puzzle]]:
    """The multi-line grids of the rest of the input (see the module docstrings).
    ``first_error`` is why the first line is no puzzle by itself: reported instead when the
    first grid, cut short by the end of the input, is one line or was not written a row per
    line, for the input is then more likely bad one-line puzzles."""
    fixed = ReadOptions.of(options).fixed_size()
    first = True
    for entry in lines:
        stripped = entry[1].strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines.unread([entry])
        grid = _grid_lines(lines, fixed, first, first_error)
        body = grid.body
        if grid.complete:
            _take_borders(lines, body)
        while body[-1] == "":
            body.pop()
        # A grid ended by its rows has its size, which parse_grid holds every row to.
        grid_options = ({**options, "size": grid.size} if grid.complete and fixed is None
                        else options)
        try:
            puzzle = parse("\n".join(body), line=entry[0], **grid_options)
        except UnhandledConstraintsError:
            raise  # a whole grid was read: what it holds is the news, not its first line
        except ParseError:
            if first and first_error is not None and not grid.complete and grid.rows == 1:
                raise first_error from None
            if not grid.complete and grid.by_rows and not _whole_rows(grid):
                raise _cut_short(grid) from None
            if first and first_error is not None and not grid.complete:
                raise first_error from None
            raise
        if (not grid.complete and grid.by_rows and grid.rows > 1 and not _whole_rows(grid)
                and not puzzle.constraints):  # a candidate grid's rows hold more symbols
            raise _cut_short(grid)
        first = False
        yield entry[0], puzzle


MIN_ROW, MAX_ROW = 2, 35  # cells in the first row of a grid (its size, so 2..35)


@dataclass
class _Grid:
    """The lines of one multi-line grid as :func:`_grid_lines` reads them."""

    body: list[str]  # its lines, blank and comment lines as ""
    size: int | None  # cells a row: the options' size, else the first row's
    complete: bool  # ended by having ``size`` rows (else by the end of the input)
    whole: bool  # its first line is no row: the rest of the input is the grid, as it comes
    by_rows: bool  # a row per line: its first row has ``size`` cells, and so must every row
    start: int  # the line of its first row
    rows: int  # lines with cells
    cells: int  # cells in all of them


def _cut_short(grid: _Grid) -> ParseError:
    return ParseError(f"the input ends after {grid.rows} row{'s' * (grid.rows != 1)} of the "
                      f"grid that starts here ({grid.size} cells a row): expected {grid.size} "
                      "rows, as a grid has as many rows as cells in a row", line=grid.start)


def _whole_rows(grid: _Grid) -> bool:
    """Whether a grid cut short by the end of the input can be a puzzle in a few long lines:
    two lines or more, each holding whole rows of the puzzle its cells make."""
    side = infer_size(grid.cells)
    return grid.rows > 1 and side is not None and grid.size is not None and grid.size % side == 0


def _grid_lines(lines: Lines, fixed: int | None, first: bool,
                first_error: ParseError | None) -> _Grid:
    """The grid starting at the next line: it ends once it has as many rows as its size,
    else at the end of the input (the rows are checked as the grid is parsed). In the
    ``first`` grid, a first row that is no grid row makes the rest of the input one grid,
    as it comes (a puzzle in a few long lines); ``first_error`` is reported if that grid
    runs too long."""
    grid = _Grid([], fixed, False, False, False, 0, 0, 0)
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            grid.body.append("")  # keeps the line numbers of what follows
            continue
        grid.start = grid.start or number
        width = _row_width(text, number)
        grid.body.append(text)
        if width:
            grid.rows += 1
            grid.cells += width
            if grid.rows == 1 and not MIN_ROW <= width <= MAX_ROW:
                if not first:
                    raise ParseError(
                        f"a line of {width} cells where a multi-line grid starts: expected a "
                        f"row of {MIN_ROW} to {MAX_ROW} cells (this input holds multi-line "
                        "grids, so each of its puzzles must be one)", line=number)
                grid.whole = True
            elif grid.rows == 1:
                grid.size = grid.size or width
                grid.by_rows = width == grid.size
        if len(grid.body) > _GRID_LINES:
            raise (first_error if first else None) or ParseError(
                f"a multi-line grid still open after {_GRID_LINES} lines: a grid ends after "
                "as many rows as its first row has cells", line=grid.start)
        if not grid.whole and grid.size is not None and grid.rows >= grid.size:
            grid.complete = True
            return grid
    return grid


def _take_borders(lines: Lines, body: list[str]) -> None:
    """Add the border rows (no cells) right after a grid's last row to the grid."""
    for number, text in lines:
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and _row_width(text, number) == 0:
            body.append(text)
            continue
        lines.unread([(number, text)])
        return
