"""Where puzzles come from on a command line: one puzzle given as text, puzzle files, or
standard input (``-``), told apart the same way for every command.

>>> src = resolve_source(["3.1...4.2......."], {}, count=False)
>>> src.single.size, src.files
(4, ())
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass
from typing import Any, TextIO

from sudoku_csp.errors import InputError, ParseError, ReaderNote
from sudoku_csp.io.files import first_puzzle_of, opens_json_document
from sudoku_csp.io.lines import MAX_LINE
from sudoku_csp.io.text import is_constrained_text, parse
from sudoku_csp.puzzle import Puzzle

__all__ = ["Source", "first_puzzle", "not_a_file", "resolve_source"]


@dataclass(frozen=True)
class Source:
    """Resolved input: one puzzle given as text, or files (``-`` is standard input)."""

    single: Puzzle | None
    files: tuple[str | TextIO, ...]
    total: int | None  # puzzle lines, counted only for a progress bar on a terminal (None
    # for JSON written over several lines)


def resolve_source(sources: list[str], options: dict[str, Any], *, count: bool) -> Source:
    """One puzzle given as text, or the files to read (``options``: those of
    :func:`~sudoku_csp.io.parse`); ``count`` asks for the number of puzzle lines (it reads
    every file once more: only for a progress bar)."""
    if len(sources) == 1 and sources[0] != "-" and not os.path.isfile(sources[0]):
        text = sources[0]
        try:
            return Source(parse(text, **options), (), 1)
        except ParseError:
            # A link holds slashes too: its own error is the news, not "no such file".
            if not is_constrained_text(text) and (
                    os.path.exists(text) or os.sep in text
                    or text.endswith((".txt", ".sdk", ".csv"))):
                raise not_a_file(text) from None
            raise
    files: list[str | TextIO] = []
    for name in sources:
        if name != "-" and not os.path.isfile(name):
            if is_constrained_text(name) and not os.path.exists(name):
                shown = name if len(name) <= 60 else name[:57] + "..."
                raise InputError(f"{shown!r} is a puzzle, not a puzzle file: a puzzle is "
                                 "given alone, as the only argument")
            raise not_a_file(name)
        files.append(sys.stdin if name == "-" else name)
    total = None
    if count and all(isinstance(f, str) for f in files):
        counts = [_count_lines(str(f)) for f in files]
        total = None if None in counts else sum(c for c in counts if c is not None)
    return Source(None, tuple(files), total)


def not_a_file(name: str) -> InputError:
    """Why ``name``, which is not a regular file, cannot be read as a puzzle file: missing,
    a directory, or something else (a device such as /dev/zero, a FIFO, a socket), whose
    reading might never end.

    >>> str(not_a_file("/"))
    '/: is a directory, not a puzzle file'
    """
    if os.path.isdir(name):
        return InputError(f"{name}: is a directory, not a puzzle file")
    if os.path.exists(name):
        return InputError(f"{name}: not a regular file (a device, pipe or socket); give a "
                          "puzzle file, or - to read standard input")
    return InputError(f"no such file: {name}")


def _count_lines(path: str) -> int | None:
    """The puzzle lines of a file; None for JSON written over several lines, whose puzzles
    are not its lines."""
    # In bounded pieces: a file of one gigantic line is refused by the reader, not here.
    count = 0
    with open(path, "rb") as handle:
        for line in iter(lambda: handle.readline(MAX_LINE + 1), b""):
            if line.strip() and not line.lstrip().startswith(b"#"):
                if not count and opens_json_document(line.decode("utf-8", "replace")):
                    return None
                count += 1
    return count


def first_puzzle(source: str, options: dict[str, Any]) -> Puzzle:
    """The puzzle given, or the first one of the file given (``-``: standard input). A file
    that holds more than one gets a :class:`~sudoku_csp.errors.ReaderNote` naming the line
    the puzzle was taken from and where the next one starts (the CLI prints it as a note);
    a next multi-line grid is read, so a malformed one is a ParseError (see
    :func:`~sudoku_csp.io.files.first_puzzle_of`)."""
    src = resolve_source([source], options, count=False)
    if src.single is not None:
        return src.single
    puzzle, line, after = first_puzzle_of(src.files[0], **options)
    if after is not None:
        name = "standard input" if source == "-" else source
        warnings.warn(f"{name} holds more than one puzzle: took the first, at line {line} "
                      f"(the next starts at line {after}); give one puzzle, or a file of "
                      "one, to choose", ReaderNote, stacklevel=2)
    return puzzle
