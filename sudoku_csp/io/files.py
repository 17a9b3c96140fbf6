"""Puzzle files and streams: one puzzle per line, or multi-line grids; read lazily.

Puzzle files (:func:`read_puzzles`) are UTF-8 text; blank lines and ``#`` comments are
skipped. The first puzzle line decides the layout of the whole file:

- *one puzzle per line* when it is a puzzle by itself and carries no box borders (``|``,
  ``+``); each later line is then a puzzle of its own (a JSON Lines file);
- *JSON written over several lines* when it opens a JSON object that goes on past it: the
  input is then JSON objects one after another, each a puzzle (a pretty-printed f-puzzles
  or :mod:`~sudoku_csp.io.record` document, or several, as ``jq .`` writes them), ``#``
  comment lines between them;
- otherwise *multi-line grids*, one after another. A grid ends once it has as many rows as
  its first row has cells (the size, when the options give one): blank lines, comments and
  border rows inside a grid are skipped, so grids may be separated by blank lines or not,
  and a grid may leave blank lines between its bands. Each row of a grid written a row per
  line holds as many cells as the first: a row with more or fewer is an error naming its
  line. A grid cut short by the end of the input is read as it is only when it is a puzzle
  in a few long lines (two or more, each holding whole rows of the puzzle) or a grid of
  candidates (several digits a cell); else it is an error naming the line it starts at.
  So nine rows of eight cells are an 8x8 grid followed by a grid cut short (an error at row
  9), never a puzzle with a row dropped. (:mod:`sudoku_csp.io.multiline` reads them, and
  says when sixteen lines of sixteen cells are one 16x16 grid rather than sixteen 4x4
  puzzles.)

A source holding no puzzle at all (empty, or only blank lines and comments) raises
:class:`~sudoku_csp.errors.NoPuzzleError`; bytes that are not UTF-8 raise
:class:`~sudoku_csp.errors.ParseError` naming the line. The batch runner reads through
:func:`puzzle_texts`, which leaves one-line puzzles unparsed (:class:`PuzzleText`) for the
worker that solves them.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from sudoku_csp.errors import NoPuzzleError, ParseError
from sudoku_csp.io.lines import Lines
from sudoku_csp.io.lzdecode import MAX_DECODED
from sudoku_csp.io.multiline import grids, sixteen_rows
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.text import is_constrained_text, parse
from sudoku_csp.puzzle import Puzzle

__all__ = ["PuzzleText", "first_puzzle_of", "parse_many", "puzzle_entries",
           "puzzle_texts", "read_puzzle_files", "read_puzzles"]


def read_puzzles(
    source: str | os.PathLike | TextIO,
    **options,
) -> Iterator[Puzzle]:
    """Stream the puzzles of a file (path or open text file): one per line, or multi-line
    grids (see the module docstring for the layout rules).

    Blank lines and ``#`` comments are skipped; text after a tab is the puzzle's metadata.
    Lines are read one at a time, so a file of millions of puzzles is never held in memory.
    ``options`` are those of :func:`parse`; without a size, each line's size is inferred,
    so a file may mix sizes (geometries are cached, not rebuilt per line). A source without
    a puzzle raises :class:`NoPuzzleError` (when it is read: this is a generator); bytes
    that are not UTF-8 raise :class:`ParseError` naming their line and column.

    >>> [p.givens[:4] for p in read_puzzles(io.StringIO("# one\\n" + "1" * 16 + "\\n"))]
    [(0, 0, 0, 0)]
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as handle:
            yield from _read(handle, options)
    else:
        yield from _read(source, options)


def _read(handle: Iterable[str], options: dict) -> Iterator[Puzzle]:
    for entry in puzzle_entries(handle, **options):
        yield entry if isinstance(entry, Puzzle) else parse(entry[0], line=entry[1], **options)


def puzzle_entries(handle: Iterable[str], **options) -> Iterator[Puzzle | tuple[str, int]]:
    """The puzzles of an open text file as :func:`read_puzzles` finds them, the later ones
    left unparsed: the first puzzle (and every multi-line grid or JSON document) as a
    :class:`Puzzle`, then
    each further one-line puzzle as ``(text, line number)``, for the caller to :func:`parse`
    with the same ``options`` (where it likes: a worker process).

    ``handle`` is any iterable of lines; a file opened with ``encoding="utf-8"`` whose bytes
    are not UTF-8 gives a :class:`ParseError` naming the line (and, when ``handle.name`` is
    the file's path, the column), after the puzzles before it. A source without a puzzle
    raises :class:`NoPuzzleError` naming ``handle.name`` when it has one.

    >>> list(puzzle_entries(io.StringIO("# two\\n" + "1" * 16 + "\\n\\n" + "2" * 16 + "\\n")))[1]
    ('2222222222222222', 4)
    """
    for number, entry in _numbered_entries(handle, options):
        yield entry if isinstance(entry, Puzzle) else (entry, number)


def _numbered_entries(handle: Iterable[str], options: dict
                      ) -> Iterator[tuple[int, Puzzle | str]]:
    """:func:`puzzle_entries`, each with the line it starts at."""
    lines = Lines(handle)
    commented = False
    for first in lines:
        number, text = first
        stripped = text.strip()
        if stripped.startswith("#"):
            commented = True
        if stripped and not stripped.startswith("#"):
            break
    else:
        raise NoPuzzleError(lines.source, empty=not commented)
    error = None
    try:
        puzzle = parse(text, line=number, **options)
    except ParseError as exc:
        if opens_json_document(text):
            lines.unread([first])
            yield from _documents(lines, options)
            return
        if is_constrained_text(text):
            raise  # a JSON object or a killer line is never the first row of a grid
        error = exc
    # One-line puzzles never carry box borders; a first line that does (before the tab: the
    # metadata after it may say anything), or that is not a puzzle by itself, starts a
    # multi-line grid.
    if error is None and (is_constrained_text(text)  # a link's base64 may hold a '+'
                          or not any(ch in "|+" for ch in text.split("\t", 1)[0])):
        if not (puzzle.size == 4 and ReadOptions.of(options).fixed_size() is None
                and sixteen_rows(lines, text)):
            yield number, puzzle
            for number, text in lines:
                stripped = text.strip()
                if stripped and not stripped.startswith("#"):
                    yield number, text
            return
    lines.unread([first])
    yield from grids(lines, options, error)


def first_puzzle_of(source: str | os.PathLike | TextIO, **options: Any
                    ) -> tuple[Puzzle, int, int | None]:
    """The first puzzle of a file (a path or an open text file), the line it starts at, and
    the line the next puzzle starts at (None when it holds only one). A next multi-line grid
    is read (only its end tells where the first grid ends), so a malformed one raises
    :class:`ParseError`; a next one-line puzzle is left unparsed. ``options`` are those of
    :func:`parse`; a source without a puzzle raises :class:`NoPuzzleError`.

    >>> first_puzzle_of(io.StringIO("# two\\n" + "1" * 16 + "\\n\\n" + "2" * 16 + "\\n"))[1:]
    (2, 4)
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as handle:
            return first_puzzle_of(handle, **options)
    entries = _numbered_entries(source, options)
    line, puzzle = next(entries)
    assert isinstance(puzzle, Puzzle)  # the first entry is always parsed
    after = next(entries, None)
    return puzzle, line, None if after is None else after[0]


def opens_json_document(text: str) -> bool:
    """Whether a line is the start of a JSON object that goes on past it (pretty-printed):
    it opens an object, and reading it stops short at its end. A line that breaks JSON
    before its end is an error of its own."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return False
    try:
        json.loads(stripped)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(stripped)
    except (ValueError, RecursionError):
        return False
    return False


MAX_DOCUMENT = MAX_DECODED
"""The most characters a file of JSON documents written over several lines may hold (the
bound a link's decoded text has): no puzzle comes near, and the file is read whole."""


def _documents(lines: Lines, options: dict) -> Iterator[tuple[int, Puzzle]]:
    """The rest of the input as JSON objects written over several lines (pretty-printed),
    one after another (``jq .`` of a JSON Lines file), each with the line it starts at;
    ``#`` comment lines between them are skipped. An error names the line and column."""
    first, texts, size = 0, [], 0
    for number, text in lines:
        first = first or number
        size += len(text) + 1
        if size > MAX_DOCUMENT:
            raise ParseError(f"JSON written over several lines, longer than {MAX_DOCUMENT:,} "
                             "characters: no puzzle is that long", line=first)
        texts.append(text)
    body = "\n".join(texts)  # line k of the body is line first + k of the input
    decoder = json.JSONDecoder()
    at = row = seen = 0  # where reading goes on; the body's line there, counted up to seen
    while True:
        while at < len(body) and body[at].isspace():
            at += 1
        if at == len(body):
            return
        row += body.count("\n", seen, at)
        seen = at
        start = body.rfind("\n", 0, at) + 1
        if body[at] == "#":  # a comment line
            at = body.find("\n", at)
            if at < 0:
                return
            continue
        if body[at] != "{":
            raise ParseError("expected a JSON object holding a puzzle", line=first + row,
                             column=at - start + 1)
        try:
            end = decoder.raw_decode(body, at)[1]
        except json.JSONDecodeError as exc:
            raise ParseError(f"not valid JSON: {exc.msg}", line=first + exc.lineno - 1,
                             column=exc.colno) from None
        except (ValueError, RecursionError):
            raise ParseError("not a puzzle: JSON nested too deep or a number too long",
                             line=first + row) from None
        # From the start of its line when nothing comes before it there, so that the
        # reader's columns are the input's.
        start = start if not body[start:at].strip() else at
        yield first + row, parse(body[start:end], line=first + row, **options)
        at = end


def parse_many(text: str, **options) -> list[Puzzle]:
    """All puzzles of a text in puzzle-file format (see :func:`read_puzzles`); ``[]`` for a
    text without one (where :func:`read_puzzles` raises :class:`NoPuzzleError`).

    >>> [p.size for p in parse_many("# a 4x4\\n3.1...4.2.......\\n")], parse_many("# none\\n")
    ([4], [])
    """
    try:
        return list(read_puzzles(io.StringIO(text), **options))
    except NoPuzzleError:
        return []


def read_puzzle_files(sources: Iterable[str | os.PathLike | TextIO],
                      **options: Any) -> Iterator[Puzzle]:
    """Stream the puzzles of several files (paths or open text files) one after another.

    ``options`` are the geometry options of :func:`~sudoku_csp.io.parse` (``size``,
    ``box``, ``variants``, ``regions``); ParseError names the line of a bad puzzle.
    """
    for source in sources:
        yield from read_puzzles(source, **options)


@dataclass(frozen=True, slots=True)
class PuzzleText:
    """A one-line puzzle not parsed yet: its text, line number and parse options.

    The batch runner parses it in the worker that solves it, so the process reading the
    file does little more than read lines (parsing costs about a tenth of a native solve,
    and on a small machine that process shares the cores with the workers).
    """

    text: str
    line: int
    options: dict[str, Any] = field(default_factory=dict)

    def parse(self) -> Puzzle:
        """The puzzle (ParseError naming this line if the text is not one)."""
        return parse(self.text, line=self.line, **self.options)


def puzzle_texts(sources: Iterable[str | os.PathLike | TextIO],
                 **options: Any) -> Iterator[Puzzle | PuzzleText]:
    """Like :func:`read_puzzle_files`, but leaves the parsing of one-line puzzles to the
    workers of the batch runner (:class:`PuzzleText`). Same input rules as
    :func:`read_puzzles`: blank lines and ``#`` comments are skipped, and
    a file whose first puzzle line is not a puzzle by itself (or carries box borders) is
    read as one multi-line grid, parsed here. A bad line raises ParseError when reached.

    >>> text = "# two 4x4 puzzles\\n" + "3.1...4.2.......\\n" * 2
    >>> [type(p).__name__ for p in puzzle_texts([io.StringIO(text)])]
    ['Puzzle', 'PuzzleText']
    """
    for source in sources:
        if isinstance(source, (str, os.PathLike)):
            with open(source, encoding="utf-8") as handle:
                yield from _texts(handle, options)
        else:
            yield from _texts(source, options)


def _texts(handle: TextIO, options: dict[str, Any]) -> Iterator[Puzzle | PuzzleText]:
    for entry in puzzle_entries(handle, **options):
        yield entry if isinstance(entry, Puzzle) else PuzzleText(*entry, options)
