"""Candidate grids (pencil marks), as ``sudoku-csp show -c`` prints them, Sudoku Explainer
exports them and SudokuWiki pastes them: one token per cell, the digits the cell may still
hold, cells separated by spaces, with or without box borders (``|``, ``---+---``).

A cell with one digit is placed (a given); a cell with all digits says nothing; any other
cell's digits become its :class:`~sudoku_csp.constraints.PencilMarks`, which every backend
and every explanation honours. Digits are the symbols ``1-9`` then ``A-Z`` (one character
each, as ``show -c`` prints them), so grids up to 35×35 read: a 16×16 cell ``19AG`` holds
1, 9, 10 and 16. Beyond 35 there are no symbols. Grids of whitespace-separated numbers (the
other form of grids larger than 9×9) are never taken for candidate grids: a full one holds
``10``, one with blanks a ``0``, ``.`` or ``_``, none of which is a symbol.

>>> from sudoku_csp.io import parse
>>> p = parse("34 1 2 34 | 12 34 34 12\\n" * 2)   # a 4x4 in two lines of 8 cells
>>> p.givens[:4], p.constraints[0].marks[:2]
((-1, 0, 1, -1), ((0, 12), (3, 12)))
"""

from __future__ import annotations

import re

from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import EMPTY, SYMBOLS
from sudoku_csp.io.options import ReadOptions, infer_size
from sudoku_csp.puzzle import Puzzle

__all__ = ["parse_pencil_marks", "pencil_tokens"]

_TOKEN = re.compile(r"[^\s|+\-]+|[|+\-]+")
MAX_SIZE = len(SYMBOLS)
"""The largest grid a candidate grid may be: the number of one-character symbols."""


def pencil_tokens(text: str) -> list[re.Match[str]] | None:
    """The cell tokens of a candidate grid, or None when ``text`` is not one: N*N tokens of
    digits (N up to :data:`MAX_SIZE`), at least one of them holding more than one digit."""
    cells = [m for m in _TOKEN.finditer(text) if not set(m.group()) <= set("|+-")]
    size = infer_size(len(cells))
    if size is None or size > MAX_SIZE or len(cells) != size * size:
        return None
    digits = SYMBOLS[:size]
    if not all(set(m.group()) <= set(digits) for m in cells):
        return None
    return cells if any(len(m.group()) > 1 for m in cells) else None


def parse_pencil_marks(text: str, tokens: list[re.Match[str]], options: ReadOptions,
                       line: int = 1, metadata: str = "") -> Puzzle:
    """The puzzle of a candidate grid (its :func:`pencil_tokens`); ``line`` numbers the first
    line. A token that repeats a digit is refused, naming its line and column."""
    size = infer_size(len(tokens))
    assert size is not None
    geometry = options.geometry or options.build(size, line)
    givens = [EMPTY] * geometry.ncells
    marks = []
    full = (1 << size) - 1
    for cell, match in enumerate(tokens):
        token = match.group()
        mask = 0
        for ch in token:
            mask |= 1 << SYMBOLS.index(ch)
        if mask.bit_count() != len(token):
            row = line + text.count("\n", 0, match.start())
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            raise ParseError(f"{token!r} names a digit twice: expected each candidate once",
                             line=row, column=column)
        if len(token) == 1:
            givens[cell] = SYMBOLS.index(token)
        elif mask != full:
            marks.append((cell, mask))
    from sudoku_csp.constraints.kinds.pencilmarks import PencilMarks  # here: see io.killer

    constraints = (PencilMarks(tuple(marks)),) if marks else ()
    return Puzzle(geometry, tuple(givens), metadata, constraints)

