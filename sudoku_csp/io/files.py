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
  9), never a puzzle with a row dropped.

Sixteen lines of sixteen cells read as either sixteen 4x4 puzzles or one 16x16 grid. When
the options do not fix the size, they are one 16x16 grid only if they are exactly the first
sixteen puzzle lines (a blank line or the end of the input follows) and either hold no given
at all, or givens of eight or more different symbols (a 4x4 puzzle has four symbols, so no
file of 4x4 puzzles with a few typos reaches eight, while a 16x16 puzzle's givens use nearly
all sixteen). Anything else stays a file of 4x4 puzzles: more or fewer lines, or lines with
the givens of 4x4 puzzles. Give ``size`` to settle it either way.

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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from sudoku_csp.errors import NoPuzzleError, ParseError
from sudoku_csp.geometry import EMPTY, MAX_SIZE
from sudoku_csp.io.grid import scan
from sudoku_csp.io.lzdecode import MAX_DECODED
from sudoku_csp.io.options import ReadOptions, infer_size
from sudoku_csp.io.text import UnhandledConstraintsError, is_constrained_text, parse
from sudoku_csp.puzzle import Puzzle

__all__ = ["MAX_LINE", "PuzzleText", "first_puzzle_of", "parse_many", "puzzle_entries",
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


_GRID_LINES = 400  # a multi-line grid (up to 35x35 with separator rows) fits in this many


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
    lines = _Lines(handle)
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
                and _sixteen_rows(lines, text)):
            yield number, puzzle
            for number, text in lines:
                stripped = text.strip()
                if stripped and not stripped.startswith("#"):
                    yield number, text
            return
    lines.unread([first])
    yield from _grids(lines, options, error)


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


def _documents(lines: _Lines, options: dict) -> Iterator[tuple[int, Puzzle]]:
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


MAX_LINE = 65536
"""The longest line a puzzle file may hold, in characters (a puzzle, its separators and a
comment after it fit many times over); a longer line is refused as it is read."""


class _Lines:
    """The lines of a source as ``(number, text)``: numbered from 1, line ends and a leading
    byte order mark dropped, with read-ahead lines pushed back by :meth:`unread`. Bytes that
    are not UTF-8 become a :class:`ParseError` naming the line."""

    def __init__(self, handle: Iterable[str]) -> None:
        self._handle = handle
        readline = getattr(handle, "readline", None)
        # A file is read a bounded line at a time: one line of gigabytes (or /dev/zero) is
        # refused after MAX_LINE characters instead of being read whole.
        self._lines = (iter(lambda: readline(MAX_LINE + 1), "") if callable(readline)
                       else iter(handle))
        self._back: list[tuple[int, str]] = []
        self.taken = 0
        self.source = _source_name(handle)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        if self._back:
            return self._back.pop()
        try:
            raw = next(self._lines)
        except UnicodeDecodeError as exc:
            self._lines = self._after_decode_error(exc)
            raw = next(self._lines)
        self.taken += 1
        if len(raw) > MAX_LINE:
            raise ParseError(f"the line is longer than {MAX_LINE} characters: not a puzzle "
                             f"line (a {MAX_SIZE}x{MAX_SIZE} puzzle written as numbers needs "
                             f"fewer)", line=self.taken)
        text = raw.rstrip("\r\n")
        return self.taken, text.removeprefix("\ufeff") if self.taken == 1 else text

    def unread(self, entries: Sequence[tuple[int, str]]) -> None:
        """Push back lines read ahead; they come out again in the order given."""
        self._back.extend(reversed(entries))

    def _after_decode_error(self, exc: UnicodeDecodeError) -> Iterator[str]:
        # A text file decodes a chunk of some 8 KB at a time, so the bad byte may lie many
        # lines ahead of the line asked for. With the path at hand, go on from the same line
        # decoding one line at a time: the lines before the bad one are still read, and the
        # error names the exact line and column.
        name = getattr(self._handle, "name", None)
        if isinstance(name, str) and os.path.isfile(name):
            return _utf8_lines(name, self.taken)
        # A stream (standard input): everything before the chunk's current line has been
        # read, so count the line ends before the bad byte within the chunk.
        data = bytes(exc.object)
        before = data[:exc.start]
        column = None
        if b"\n" in before:
            column = len(before[before.rindex(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise ParseError(_not_utf8(self.source, data[exc.start]),
                         line=self.taken + 1 + before.count(b"\n"), column=column) from None


def _utf8_lines(path: str, skip: int) -> Iterator[str]:
    """The lines of the file at ``path`` after the first ``skip``, decoded one at a time."""
    with open(path, "rb") as handle:
        for number, data in enumerate(handle, start=1):
            if number <= skip:
                continue
            try:
                yield data.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = data[:exc.start].decode("utf-8", "replace")
                if number == 1:
                    text = text.removeprefix("\ufeff")
                raise ParseError(_not_utf8(path, data[exc.start]), line=number,
                                 column=len(text) + 1) from None


def _not_utf8(source: str | None, byte: int) -> str:
    return (f"{source or 'the input'} is not UTF-8 text: byte 0x{byte:02X} cannot be "
            "decoded (save it as UTF-8)")


def _source_name(handle: object) -> str | None:
    name = getattr(handle, "name", None)
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if name == "<stdin>":
        return "standard input"
    return name if isinstance(name, str) else None


def _sixteen_rows(lines: _Lines, first: str) -> bool:
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


def _grids(lines: _Lines, options: dict, first_error: ParseError | None
           ) -> Iterator[tuple[int, Puzzle]]:
    """The multi-line grids of the rest of the input (see the module docstring).
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


def _grid_lines(lines: _Lines, fixed: int | None, first: bool,
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


def _take_borders(lines: _Lines, body: list[str]) -> None:
    """Add the border rows (no cells) right after a grid's last row to the grid."""
    for number, text in lines:
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and _row_width(text, number) == 0:
            body.append(text)
            continue
        lines.unread([(number, text)])
        return


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
