"""Puzzle text, every format in one place: read it into a :class:`~sudoku_csp.puzzle.Puzzle`,
write a puzzle back.

Formats, each one module with its reader and its writer:

- :mod:`~sudoku_csp.io.grid`: grid text (a plain line of symbols, a multi-line grid, numbers)
  and Norvig's dict of labels;
- :mod:`~sudoku_csp.io.killer`: the killer line (cage map, sums, givens);
- :mod:`~sudoku_csp.io.record`: the JSON object (one per line in ``.jsonl``), which holds
  every constraint kind under the fields the kind owns;
- :mod:`~sudoku_csp.io.fpuzzles`: f-puzzles JSON and links (and SudokuPad links carrying
  one), whose constraint keys each kind reads and writes itself;
- :mod:`~sudoku_csp.io.pencilmarks`: candidate grids.

:data:`WRITERS` names every form a puzzle can be written in (``show --to``).

:func:`parse` tells the form of one puzzle's text and reads it; :func:`to_line` writes a
puzzle on one line in the form that holds it (:mod:`~sudoku_csp.io.text`).
:func:`read_puzzles` streams a file or standard input (:mod:`~sudoku_csp.io.files`), and
:func:`resolve_source` tells a puzzle given on the command line from a file
(:mod:`~sudoku_csp.io.sources`). A reader never drops what it does not understand: unknown
text or fields are a :class:`~sudoku_csp.errors.ParseError` naming the line, the column or
field, and what was expected.

>>> from sudoku_csp import io
>>> puzzle = io.parse("3.1...4.2.......")
>>> io.to_line(puzzle), puzzle.size
('3.1...4.2.......', 4)
"""

from __future__ import annotations

from sudoku_csp.io.files import (
    PuzzleText,
    parse_many,
    puzzle_entries,
    puzzle_texts,
    read_puzzle_files,
    read_puzzles,
)
from sudoku_csp.io.fpuzzles import fpuzzles_json, fpuzzles_url
from sudoku_csp.io.grid import (
    format_cells,
    format_grid,
    format_line,
    from_dict,
    grid_to_dict,
)
from sudoku_csp.io.lines import MAX_LINE
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.record import json_line, puzzle_record
from sudoku_csp.io.sources import Source, first_puzzle, not_a_file, resolve_source
from sudoku_csp.io.text import as_puzzle, is_constrained_text, parse, to_grid, to_line

WRITERS = {"line": to_line, "json": json_line, "fpuzzles": fpuzzles_json,
           "fpuzzles-url": fpuzzles_url}
"""Every form a puzzle is written in, by name: the tool's own line (plain, killer or JSON,
whichever holds it), its JSON object, f-puzzles JSON and the f-puzzles link."""

__all__ = [
    "WRITERS",
    "MAX_LINE", "PuzzleText", "ReadOptions", "Source", "as_puzzle", "first_puzzle",
    "format_cells",
    "format_grid", "format_line", "from_dict", "grid_to_dict", "is_constrained_text",
    "not_a_file", "parse", "parse_many", "puzzle_entries", "puzzle_record", "puzzle_texts",
    "read_puzzle_files", "read_puzzles", "resolve_source", "to_grid", "to_line",
]
