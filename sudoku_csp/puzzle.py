"""Puzzles: a geometry plus givens; parsing, puzzle files, and formatting back.

Accepted text (Norvig's rule: anything that is not a symbol or a blank mark is decoration):

- one line of symbols, ``.`` or ``0`` (or ``_``) for blanks: ``4.....8.5.3...``;
- a multi-line grid where spaces, ``|``, ``+``, ``-``, ``=`` and ``:`` are decoration;
- whitespace- or comma-separated numbers (``0`` or ``.`` blank), handy for N > 9.

Symbols are ``1-9`` then ``A-Z`` (lower case accepted). The size is inferred from the
number of cells (16, 36, 64, 81, 144, 256, 625, ...) unless given. Bad text raises
:class:`ParseError` naming the line, the column and what was expected.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TextIO

from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, SYMBOLS, Geometry, GeometryError, Grid
from sudoku_csp.variants import make_geometry

BLANKS = frozenset("._0")
DECORATION = frozenset("|+-=:")
_SYMBOL_VALUE = {s: i for i, s in enumerate(SYMBOLS)}
_NUMBER_TOKEN = re.compile(r"[^\s,;]+")


class ParseError(InputError):
    """Text that is not a puzzle. ``line`` and ``column`` are 1-based (``column`` may be None).

    >>> str(ParseError("unknown symbol 'x'", line=3, column=7))
    "line 3, column 7: unknown symbol 'x'"
    """

    def __init__(self, message: str, *, line: int = 1, column: int | None = None) -> None:
        self.reason = message
        self.line = line
        self.column = column
        where = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        # Rebuilt from its parts, so it survives the trip back from a worker process.
        return _parse_error, (self.reason, self.line, self.column)


def _parse_error(reason: str, line: int, column: int | None) -> ParseError:
    return ParseError(reason, line=line, column=column)


class InvalidPuzzleError(InputError):
    """A puzzle built in code with givens that do not fit its geometry."""


class Clash(NamedTuple):
    """Two givens that break a rule: ``a`` and ``b`` both hold ``digit`` in ``where``."""

    a: int
    b: int
    digit: int
    where: str


@dataclass(frozen=True)
class Puzzle:
    """A geometry and its givens (``EMPTY`` for a blank), plus free-text ``metadata``.

    >>> p = Puzzle.parse("1..." "..1." ".1.." "...1")
    >>> p.geometry.name, p.to_line()
    ('4x4', '1.....1..1.....1')
    """

    geometry: Geometry
    givens: Grid
    metadata: str = ""

    def __post_init__(self) -> None:
        givens = tuple(self.givens)
        object.__setattr__(self, "givens", givens)
        n = self.geometry.size
        if len(givens) != self.geometry.ncells:
            raise InvalidPuzzleError(
                f"a {self.geometry.name} puzzle has {self.geometry.ncells} cells, "
                f"got {len(givens)} givens"
            )
        for cell, d in enumerate(givens):
            if d != EMPTY and not 0 <= d < n:
                raise InvalidPuzzleError(
                    f"given {d} at {self.geometry.label(cell)} is not a digit 0..{n - 1}"
                )

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, **options) -> Puzzle:
        """Parse one puzzle; ``options`` as for :func:`parse`."""
        return parse(text, **options)

    @classmethod
    def empty(cls, geometry: Geometry) -> Puzzle:
        return cls(geometry, (EMPTY,) * geometry.ncells)

    @classmethod
    def from_dict(cls, grid: Mapping[str, str], geometry: Geometry | None = None) -> Puzzle:
        """From a Norvig-style dict ``{'A1': '4', 'A2': '.', ...}`` (``'0'``/``'.'`` blank)."""
        geometry = geometry or make_geometry(9)
        labels = {geometry.label(c): c for c in range(geometry.ncells)}
        givens = [EMPTY] * geometry.ncells
        for key, value in grid.items():
            if key not in labels:
                raise ParseError(f"unknown square {key!r} for a {geometry.name} grid")
            value = str(value).strip()
            if value in ("", ".", "0"):
                continue
            digit = _SYMBOL_VALUE.get(value.upper(), -1)
            if not 0 <= digit < geometry.size:
                raise ParseError(f"square {key}: {value!r} is not a digit of this grid")
            givens[labels[key]] = digit
        return cls(geometry, tuple(givens))

    # -- views ----------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def clue_count(self) -> int:
        return sum(d != EMPTY for d in self.givens)

    def to_line(self) -> str:
        return format_line(self.geometry, self.givens)

    def to_grid(self) -> str:
        return format_grid(self.geometry, self.givens)

    def to_dict(self) -> dict[str, str]:
        """Norvig-style dict: label -> symbol, ``'.'`` for a blank."""
        return grid_to_dict(self.geometry, self.givens)

    def clashes(self) -> list[Clash]:
        """Pairs of givens that already break a rule (same digit twice in a unit or pair)."""
        g, givens = self.geometry, self.givens
        found = []
        for unit in g.units:
            first: dict[int, int] = {}
            for cell in unit.cells:
                d = givens[cell]
                if d == EMPTY:
                    continue
                if d in first:
                    found.append(Clash(first[d], cell, d, unit.name))
                else:
                    first[d] = cell
        for a, b in g.extra_pairs:
            if givens[a] != EMPTY and givens[a] == givens[b]:
                found.append(Clash(a, b, givens[a], "extra pair"))
        return found

    def describe_clash(self, clash: Clash) -> str:
        g = self.geometry
        return (f"givens clash: {g.label(clash.a)} and {g.label(clash.b)} both hold "
                f"{symbol(clash.digit)} in {clash.where}")

    def __str__(self) -> str:
        return self.to_line()

    def _repr_svg_(self) -> str:
        from sudoku_csp.render import grid_svg

        return grid_svg(self.geometry, self.givens)


# -- formatting -------------------------------------------------------------------------------
def symbol(digit: int) -> str:
    """The symbol of a digit (``0 -> '1'``), ``'.'`` for EMPTY."""
    return "." if digit == EMPTY else SYMBOLS[digit]


def format_line(geometry: Geometry, grid: Sequence[int]) -> str:
    """One line: a symbol per cell, ``.`` for blanks; numbers (comma-separated) beyond 35."""
    if geometry.size > len(SYMBOLS):
        return ",".join("0" if d == EMPTY else str(d + 1) for d in grid)
    return "".join(symbol(d) for d in grid)


def format_grid(geometry: Geometry, grid: Sequence[int]) -> str:
    """A boxed multi-line grid (box borders drawn with ``|`` and ``-+-``; none for jigsaws).

    >>> print(format_grid(Puzzle.parse("3.1...4.2.......").geometry, [2, EMPTY, 0] + [1] * 13))
    3 . | 1 2
    2 2 | 2 2
    ----+----
    2 2 | 2 2
    2 2 | 2 2
    """
    return format_cells(geometry, [symbol(d) for d in grid])


def format_cells(geometry: Geometry, texts: Sequence[str]) -> str:
    """One text per cell (row-major), padded to one width, laid out in rows with the box
    borders of :func:`format_grid`: a grid of digits, or of each cell's candidates."""
    n = geometry.size
    width = max(map(len, texts), default=1)
    box_rows, box_cols = geometry.box or (n, n)
    border = "-+-".join("-" * ((width + 1) * box_cols - 1) for _ in range(n // box_cols))
    rows = []
    for r in range(n):
        if r and r % box_rows == 0:
            rows.append(border)
        cells = [texts[r * n + c].ljust(width) for c in range(n)]
        rows.append(" | ".join(" ".join(cells[c:c + box_cols]) for c in range(0, n, box_cols)))
    return "\n".join(rows)


def grid_to_dict(geometry: Geometry, grid: Sequence[int]) -> dict[str, str]:
    return {geometry.label(c): symbol(d) for c, d in enumerate(grid)}


# -- parsing ----------------------------------------------------------------------------------
class _Cell(NamedTuple):
    value: int  # digit 0-based, EMPTY, or the raw 0-based value when out of range
    text: str
    line: int
    column: int


def _scan_symbols(text: str, line: int) -> list[_Cell]:
    cells, row, col = [], line, 0
    for ch in text:
        col += 1
        if ch == "\n":
            row, col = row + 1, 0
        elif ch in BLANKS:
            cells.append(_Cell(EMPTY, ch, row, col))
        elif ch.isspace() or ch in DECORATION:
            continue
        elif ch.upper() in _SYMBOL_VALUE:
            cells.append(_Cell(_SYMBOL_VALUE[ch.upper()], ch, row, col))
        else:
            raise ParseError(
                f"unknown symbol {ch!r}: expected a digit 1-9, a letter A-Z (sizes above 9), "
                "'.' or '0' for a blank, or decoration (spaces | + -)",
                line=row, column=col)
    return cells


def _scan_numbers(text: str, line: int) -> list[_Cell]:
    cells = []
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    for match in _NUMBER_TOKEN.finditer(text):
        token, start = match.group(), match.start()
        if _is_decoration(token):
            continue
        row = bisect_right(line_starts, start) - 1
        column = start - line_starts[row] + 1
        if token == ".":
            cells.append(_Cell(EMPTY, token, line + row, column))
        elif _is_number(token):
            value = int(token)
            cells.append(_Cell(EMPTY if value == 0 else value - 1, token, line + row, column))
        else:
            raise ParseError(
                f"unknown token {token!r}: expected a number (0 or '.' for a blank)",
                line=line + row, column=column)
    return cells


def _is_number(token: str) -> bool:
    # ASCII only: str.isdigit() also accepts '²' and other digits int() refuses.
    return token.isascii() and token.isdigit()


def _is_number_form(text: str) -> bool:
    if "," in text or ";" in text:
        return True
    # Numbers never need more than two digits (sizes stop at 35); longer runs of digits
    # are rows of symbols, as in a grid of lines like ``003020600``.
    tokens = [t for t in text.split() if not _is_decoration(t)]
    return (len(tokens) > 1 and any(len(t) > 1 for t in tokens)
            and all((_is_number(t) and len(t) <= 2) or t == "." for t in tokens))


def _is_decoration(token: str) -> bool:
    """Box borders between numbers (``|``, ``+--+``) in printed grids."""
    return all(ch in DECORATION for ch in token)


def _scan(text: str, line: int) -> list[_Cell]:
    return _scan_numbers(text, line) if _is_number_form(text) else _scan_symbols(text, line)


def _infer_size(count: int) -> int | None:
    n = round(count ** 0.5)
    return n if n * n == count and 1 <= n and count else None


def _end_position(text: str, line: int) -> tuple[int, int]:
    lines = text.split("\n")
    return line + len(lines) - 1, len(lines[-1]) + 1


def parse(
    text: str,
    *,
    size: int | None = None,
    box: tuple[int, int] | None = None,
    variants: Iterable[str] = (),
    regions: str | Sequence[int] | None = None,
    geometry: Geometry | None = None,
    line: int = 1,
) -> Puzzle:
    """Parse one puzzle (one line or a multi-line grid); ``line`` numbers the first line.

    Give a ``geometry``, or the parts of one (``size``, ``box``, ``variants``,
    ``regions``); otherwise the size is inferred from the number of cells. Text after a tab
    on a one-line puzzle is kept as ``metadata``.

    >>> parse("12 0 0 3" + " 0" * 140, size=12).givens[:4]
    (11, -1, -1, 2)
    """
    metadata = ""
    if "\n" not in text.strip() and "\t" in text:
        text, _, metadata = text.partition("\t")
        metadata = metadata.strip()
    cells = _scan(text, line)
    if geometry is not None:
        size = geometry.size
    elif size is None and regions is not None:
        size = _infer_size(len(regions if not isinstance(regions, str)
                               else [c for c in regions if not c.isspace()]))
    expected = size if size is not None else _infer_size(len(cells))
    if expected is None or len(cells) != expected * expected:
        end_line, end_col = _end_position(text, line)
        if expected is not None:
            raise ParseError(
                f"expected {expected * expected} cells for a {expected}x{expected} puzzle, "
                f"found {len(cells)}", line=end_line, column=end_col)
        raise ParseError(
            f"found {len(cells)} cells; expected a square number of cells "
            "(16, 36, 64, 81, 144, 256, 625 for 4x4 .. 25x25)", line=end_line, column=end_col)
    for cell in cells:
        if cell.value != EMPTY and cell.value >= expected:
            raise ParseError(
                f"{cell.text!r} is out of range for a {expected}x{expected} puzzle "
                f"(expected {_range_text(expected)} or a blank)",
                line=cell.line, column=cell.column)
    if geometry is None:
        try:
            geometry = make_geometry(expected, box, variants, regions)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line) from None
    return Puzzle(geometry, tuple(c.value for c in cells), metadata)


def _range_text(size: int) -> str:
    if size <= 9:
        return f"1-{size}"
    if size <= len(SYMBOLS):
        return f"1-9, A-{SYMBOLS[size - 1]} or 1-{size}"
    return f"1-{size}"


def read_puzzles(
    source: str | os.PathLike | TextIO,
    **options,
) -> Iterator[Puzzle]:
    """Stream the puzzles of a file (path or open text file), one per line.

    Blank lines and ``#`` comments are skipped; text after a tab is the puzzle's metadata.
    Lines are read one at a time, so a file of millions of puzzles is never held in memory.
    If the first puzzle line is not a puzzle by itself (or carries box borders), the whole
    input is read as one multi-line grid instead. ``options`` are those of :func:`parse`;
    without a size, each line's size is inferred, so a file may mix sizes (geometries are
    cached, not rebuilt per line).

    >>> [p.to_line()[:8] for p in read_puzzles(io.StringIO("# two\\n" + "1" * 16 + "\\n"))]
    ['11111111']
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as handle:
            yield from _read(handle, options)
    else:
        yield from _read(source, options)


_GRID_LINES = 400  # a multi-line grid (up to 35x35 with separator rows) fits in this many


def _read(handle: TextIO, options: dict) -> Iterator[Puzzle]:
    for entry in puzzle_entries(handle, **options):
        yield entry if isinstance(entry, Puzzle) else parse(entry[0], line=entry[1], **options)


def puzzle_entries(handle: TextIO, **options) -> Iterator[Puzzle | tuple[str, int]]:
    """The puzzles of an open text file as :func:`read_puzzles` finds them, the later ones
    left unparsed: the first puzzle (or the whole input, when it is one multi-line grid) as
    a :class:`Puzzle`, then each further puzzle line as ``(text, line number)``, for the
    caller to :func:`parse` with the same ``options`` (where it likes: a worker process).

    >>> list(puzzle_entries(io.StringIO("# two\\n" + "1" * 16 + "\\n\\n" + "2" * 16 + "\\n")))[1]
    ('2222222222222222', 4)
    """
    first = True
    for number, raw in enumerate(handle, start=1):
        text = raw.rstrip("\r\n")
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not first:
            yield text, number
            continue
        first = False
        error = None
        try:
            puzzle = parse(text, line=number, **options)
        except ParseError as exc:
            error = exc
        # One-line puzzles never carry box borders; a first line that does, or that is not a
        # puzzle by itself, starts a multi-line grid.
        if error is None and not any(ch in "|+" for ch in text):
            yield puzzle
            continue
        rest = list(itertools.islice(handle, _GRID_LINES))
        if any(ln.strip() and not ln.lstrip().startswith("#") for ln in handle):
            raise error or ParseError("expected one multi-line grid or one puzzle per line",
                                      line=number)
        body = [text] + ["" if ln.lstrip().startswith("#") else ln.rstrip("\r\n")
                         for ln in rest]
        try:
            yield parse("\n".join(body), line=number, **options)
        except ParseError:
            if error is not None:
                raise error from None
            raise
        return


def parse_many(text: str, **options) -> list[Puzzle]:
    """All puzzles of a text in puzzle-file format (see :func:`read_puzzles`)."""
    return list(read_puzzles(io.StringIO(text), **options))
