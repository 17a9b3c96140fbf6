"""Puzzles: a geometry plus givens; parsing, puzzle files, and formatting back.

Accepted text (Norvig's rule: anything that is not a symbol or a blank mark is decoration):

- one line of symbols, ``.`` or ``0`` (or ``_``) for blanks: ``4.....8.5.3...``;
- a multi-line grid where spaces, ``|``, ``+``, ``-``, ``=`` and ``:`` are decoration;
- whitespace- or comma-separated numbers (``0`` or ``.`` blank), handy for N > 9.

Symbols are ``1-9`` then ``A-Z`` (lower case accepted). The size is inferred from the
number of cells (16, 36, 64, 81, 144, 256, 625, ...) unless given. Bad text raises
:class:`ParseError` naming the line, the column and what was expected. A leading byte order
mark (U+FEFF, as some editors save UTF-8) is skipped.

Puzzle files (:func:`read_puzzles`) are UTF-8 text; blank lines and ``#`` comments are
skipped. The first puzzle line decides the layout of the whole file:

- *one puzzle per line* when it is a puzzle by itself and carries no box borders (``|``,
  ``+``); each later line is then a puzzle of its own;
- otherwise *multi-line grids*, one after another. A grid ends once it has as many rows as
  its first row has cells (the size, when the options give one): blank lines, comments and
  border rows inside a grid are skipped, so grids may be separated by blank lines or not,
  and a grid may leave blank lines between its bands. A grid cut short by the end of the
  input is read as it is (a few long lines can still make one grid).

Sixteen lines of sixteen cells read as either sixteen 4x4 puzzles or one 16x16 grid. When
the options do not fix the size, they are one 16x16 grid only if they are exactly the first
sixteen puzzle lines (a blank line or the end of the input follows) and either hold no given
at all, or givens of eight or more different symbols (a 4x4 puzzle has four symbols, so no
file of 4x4 puzzles with a few typos reaches eight, while a 16x16 puzzle's givens use nearly
all sixteen). Anything else stays a file of 4x4 puzzles: more or fewer lines, or lines with
the givens of 4x4 puzzles. Give ``size`` to settle it either way.

A source holding no puzzle at all (empty, or only blank lines and comments) raises
:class:`NoPuzzleError`; bytes that are not UTF-8 raise :class:`ParseError` naming the line.
"""

from __future__ import annotations

import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TextIO

from sudoku_csp.constraints import Constraint, ConstraintError, check_all
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import (
    EMPTY,
    MAX_SIZE,
    SYMBOLS,
    Geometry,
    GeometryError,
    Grid,
    check_size,
)
from sudoku_csp.variants import looks_like_path, make_geometry, parse_regions

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


class NoPuzzleError(ParseError):
    """A whole source (file, stream or text) without a puzzle: empty, or only blank lines and
    ``#`` comments. ``source`` names it when known; ``line`` is 1. A :class:`ParseError`, so
    that readers raise only that.

    >>> str(NoPuzzleError("p.txt", empty=True))
    'no puzzle in p.txt: it is empty'
    """

    def __init__(self, source: str | None = None, empty: bool = False) -> None:
        self.source = source
        self.empty = empty
        what = "it is empty" if empty else "it holds only # comments"
        message = f"no puzzle in {source or 'the input'}: {what}"
        # No "line 1:" in front as ParseError would put: the whole source is at fault.
        InputError.__init__(self, message)
        self.reason, self.line, self.column = message, 1, None

    def __reduce__(self):
        return NoPuzzleError, (self.source, self.empty)


class InvalidPuzzleError(InputError):
    """A puzzle built in code with givens that do not fit its geometry."""


class Clash(NamedTuple):
    """Two givens that break a rule: ``a`` and ``b`` both hold ``digit`` in ``where``."""

    a: int
    b: int
    digit: int
    where: str


_INT = {int}


@dataclass(frozen=True)
class Puzzle:
    """A geometry and its givens (``EMPTY`` for a blank), plus free-text ``metadata`` and
    the typed ``constraints`` of :mod:`sudoku_csp.constraints` (killer cages, thermometers,
    dots, ...), which every backend and :mod:`sudoku_csp.verify` honour.

    >>> p = Puzzle.parse("1..." "..1." ".1.." "...1")
    >>> p.geometry.name, p.to_line()
    ('4x4', '1.....1..1.....1')
    """

    geometry: Geometry
    givens: Grid
    metadata: str = ""
    constraints: tuple[Constraint, ...] = ()

    def __post_init__(self) -> None:
        givens = tuple(self.givens)
        object.__setattr__(self, "givens", givens)
        constraints = tuple(self.constraints)
        object.__setattr__(self, "constraints", constraints)
        if constraints:
            try:
                check_all(self.geometry, constraints)
            except ConstraintError as exc:
                raise InvalidPuzzleError(str(exc)) from None
        n = self.geometry.size
        if len(givens) != self.geometry.ncells:
            raise InvalidPuzzleError(
                f"a {self.geometry.name} puzzle has {self.geometry.ncells} cells, "
                f"got {len(givens)} givens"
            )
        # Plain ints from EMPTY (-1) to N-1 are all good; only other givens are walked,
        # to find and name the first bad one.
        if not ({*map(type, givens)} <= _INT and min(givens, default=0) >= EMPTY
                and max(givens, default=0) < n):
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
    def _checked(cls, geometry: Geometry, givens: Grid, metadata: str, line: str) -> Puzzle:
        """A puzzle of givens the caller has already checked (a tuple of one int from EMPTY
        to N-1 per cell), made without checking them again: the parser's fast path, where
        that check would cost half of the parsing. ``line`` is what :meth:`to_line` must
        return, kept so that a batch run does not write it again for every record."""
        puzzle = object.__new__(cls)
        puzzle.__dict__.update(geometry=geometry, givens=givens, metadata=metadata,
                               constraints=(), _line=line)
        return puzzle

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
        """One line that reads back as this puzzle (under the same geometry options): the
        givens; with constraints, the killer line or the JSON form
        (:mod:`sudoku_csp.constraints.formats`)."""
        if self.constraints:
            from sudoku_csp.constraints.formats import puzzle_line

            return puzzle_line(self)
        return self.__dict__.get("_line") or format_line(self.geometry, self.givens)

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

        return grid_svg(self.geometry, self.givens, constraints=self.constraints)


# -- formatting -------------------------------------------------------------------------------
def symbol(digit: int) -> str:
    """The symbol of a digit (``0 -> '1'``), ``'.'`` for EMPTY."""
    return "." if digit == EMPTY else SYMBOLS[digit]


_SYMBOL_AT = tuple(SYMBOLS) + (".",)  # index a digit, EMPTY (-1) included: its symbol
# Byte d -> the symbol of digit d; every byte past the symbols -> 0xFF, which is no ASCII:
# decoding then fails, and the general path below names the bad digit.
_SYMBOL_BYTES = bytes.maketrans(bytes(range(256)),
                                SYMBOLS.encode() + b"\xff" * (256 - len(SYMBOLS)))


def format_line(geometry: Geometry, grid: Sequence[int]) -> str:
    """One line: a symbol per cell, ``.`` for blanks; numbers (comma-separated) beyond 35."""
    if geometry.size > len(SYMBOLS):
        return ",".join("0" if d == EMPTY else str(d + 1) for d in grid)
    # Every record of a batch run formats two lines. A tuple or list of digits (a solution)
    # goes through bytes in a few C-level steps (not any buffer: bytes() of an array would
    # copy its memory, not its values); one with blanks (EMPTY is -1, not a byte value)
    # by one look-up per cell.
    if isinstance(grid, (tuple, list)):
        try:
            return bytes(grid).translate(_SYMBOL_BYTES).decode("ascii")
        except (ValueError, UnicodeDecodeError):
            pass
    return "".join(map(_SYMBOL_AT.__getitem__, grid))


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
        elif "\udc80" <= ch <= "\udcff":
            # A byte that was not UTF-8, kept by the surrogateescape error handler (what
            # sys.stdin does under a POSIX locale): name the byte, not an odd character.
            raise ParseError(f"byte 0x{ord(ch) - 0xDC00:02X} is not UTF-8 text: save the "
                             "puzzle as UTF-8", line=row, column=col)
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
    contiguous: bool = True,
    geometry: Geometry | None = None,
    line: int = 1,
    constraints: bool = True,
) -> Puzzle:
    """Parse one puzzle (one line or a multi-line grid); ``line`` numbers the first line.

    A line that is a JSON object, or a killer line (cage map, sums, optional givens), is read
    with its typed constraints (:mod:`sudoku_csp.constraints.formats`); with ``constraints``
    False such a puzzle is refused (a caller that cannot honour them yet).

    Give a ``geometry``, or the parts of one (``size``, ``box``, ``variants``,
    ``regions``, ``contiguous``: see :func:`~sudoku_csp.variants.make_geometry`); otherwise
    the size is inferred from the number of cells. Text after a tab on a one-line puzzle is
    kept as ``metadata``. Text that is no puzzle raises :class:`ParseError`, and so does a
    geometry that cannot be built for the cells found (a 7x7 has no boxes). Options that are
    wrong whatever the text (a size of -9, a regions value naming a missing file) raise
    :class:`~sudoku_csp.geometry.GeometryError`.

    >>> parse("12 0 0 3" + " 0" * 140, size=12).givens[:4]
    (11, -1, -1, 2)
    """
    metadata = ""
    text = text.removeprefix("\ufeff")
    if "\n" not in text.strip() and "\t" in text:
        text, _, metadata = text.partition("\t")
        metadata = metadata.strip()
    if geometry is None and size is not None:
        check_size(size)  # before it is used to count cells: "a -9x-9 puzzle" says nothing
    if regions is None:
        plain = _plain_line(text, size, box, variants, contiguous, geometry, line, metadata)
        if plain is not None:
            return plain
    if "\n" not in text.strip():
        from sudoku_csp.constraints import formats
        from sudoku_csp.constraints.base import HANDLED_BY

        tokens = formats.killer_tokens(text)
        if tokens is not None or formats.is_json(text):
            options = formats.Options(line, size, box, tuple(variants), regions, contiguous,
                                      geometry, metadata)
            puzzle = (formats.parse_killer(text, tokens, options) if tokens is not None
                      else formats.parse_json(text, options))
            if not constraints and puzzle.constraints:
                kinds = ", ".join(sorted({c.kind for c in puzzle.constraints}))
                raise ParseError(f"this command does not handle {kinds} constraints yet "
                                 f"({HANDLED_BY})", line=line)
            return puzzle
    if geometry is None and isinstance(regions, str) and looks_like_path(regions):
        # A file name passed as the map (a --regions file that is missing): say so, before
        # its letters are counted as cells of a map.
        parse_regions(regions, contiguous=contiguous)
    cells = _scan(text, line)
    if geometry is not None:
        size = geometry.size
    elif size is None and regions is not None:
        size = _region_side(regions)
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
            geometry = make_geometry(expected, box, variants, regions, contiguous=contiguous)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line) from None
    return Puzzle(geometry, tuple(c.value for c in cells), metadata)


_PLAIN_VALUE = {**_SYMBOL_VALUE, **{s.lower(): v for s, v in _SYMBOL_VALUE.items()},
                **dict.fromkeys(BLANKS, EMPTY)}
"""The value of each character a plain line may hold: a symbol (either case) or a blank."""
_CANONICAL = bytes.maketrans(("".join(BLANKS) + SYMBOLS.lower()).encode(),
                             ("." * len(BLANKS) + SYMBOLS).encode())
"""A plain line's characters as :func:`format_line` writes them (upper case, ``.``)."""


def _plain_line(text: str, size: int | None, box: tuple[int, int] | None,
                variants: Iterable[str], contiguous: bool, geometry: Geometry | None,
                line: int, metadata: str) -> Puzzle | None:
    """The puzzle :func:`parse` reads from ``text`` when it is a *plain line*: N² symbols
    and blanks, nothing else, every symbol a digit of the N×N grid (nearly every line of a
    puzzle file). One table look-up per character instead of the general scanner, which
    reads everything else (and names what is wrong); None then. Not for jigsaw ``regions``.

    >>> _plain_line("3.1...4.2.......", None, None, (), True, None, 1, "").givens[:4]
    (2, -1, 0, -1)
    >>> _plain_line("3.1...4.2......", None, None, (), True, None, 1, "") is None
    True
    """
    try:
        givens = tuple(map(_PLAIN_VALUE.__getitem__, text))
    except KeyError:
        return None
    n = geometry.size if geometry is not None else size
    if n is None:
        n = _infer_size(len(givens))
    if n is None or len(givens) != n * n or max(givens) >= n:
        return None
    if geometry is None:
        try:
            geometry = make_geometry(n, box, variants, contiguous=contiguous)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line) from None
    # N² ints, each from the table (EMPTY or a symbol's digit) and below N: checked. The
    # text, all ASCII, written as format_line writes it: upper case, "." for every blank.
    return Puzzle._checked(geometry, givens, metadata,
                           text.encode().translate(_CANONICAL).decode())


def _region_side(regions: str | Sequence[int]) -> int | None:
    if isinstance(regions, str):
        return _infer_size(sum(not c.isspace() for c in regions.removeprefix("\ufeff")))
    return _infer_size(len(regions))


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
    """Stream the puzzles of a file (path or open text file): one per line, or multi-line
    grids (see the module docstring for the layout rules).

    Blank lines and ``#`` comments are skipped; text after a tab is the puzzle's metadata.
    Lines are read one at a time, so a file of millions of puzzles is never held in memory.
    ``options`` are those of :func:`parse`; without a size, each line's size is inferred,
    so a file may mix sizes (geometries are cached, not rebuilt per line). A source without
    a puzzle raises :class:`NoPuzzleError` (when it is read: this is a generator); bytes
    that are not UTF-8 raise :class:`ParseError` naming their line and column.

    >>> [p.to_line()[:8] for p in read_puzzles(io.StringIO("# two\\n" + "1" * 16 + "\\n"))]
    ['11111111']
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
    left unparsed: the first puzzle (and every multi-line grid) as a :class:`Puzzle`, then
    each further one-line puzzle as ``(text, line number)``, for the caller to :func:`parse`
    with the same ``options`` (where it likes: a worker process).

    ``handle`` is any iterable of lines; a file opened with ``encoding="utf-8"`` whose bytes
    are not UTF-8 gives a :class:`ParseError` naming the line (and, when ``handle.name`` is
    the file's path, the column), after the puzzles before it. A source without a puzzle
    raises :class:`NoPuzzleError` naming ``handle.name`` when it has one.

    >>> list(puzzle_entries(io.StringIO("# two\\n" + "1" * 16 + "\\n\\n" + "2" * 16 + "\\n")))[1]
    ('2222222222222222', 4)
    """
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
        from sudoku_csp.constraints.formats import is_constrained_text

        if is_constrained_text(text):
            raise  # a JSON object or a killer line is never the first row of a grid
        error = exc
    # One-line puzzles never carry box borders; a first line that does (before the tab: the
    # metadata after it may say anything), or that is not a puzzle by itself, starts a
    # multi-line grid.
    if error is None and not any(ch in "|+" for ch in text.split("\t", 1)[0]):
        if not (puzzle.size == 4 and _fixed_size(options) is None
                and _sixteen_rows(lines, text)):
            yield puzzle
            for number, text in lines:
                stripped = text.strip()
                if stripped and not stripped.startswith("#"):
                    yield text, number
            return
    lines.unread([first])
    yield from _grids(lines, options, error)


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


def _fixed_size(options: Mapping) -> int | None:
    """The size the options settle before any text is read, if they do."""
    geometry = options.get("geometry")
    if geometry is not None:
        return geometry.size
    if options.get("size") is not None:
        return options["size"]
    regions = options.get("regions")
    return None if regions is None else _region_side(regions)


def _sixteen_rows(lines: _Lines, first: str) -> bool:
    """Whether ``first`` (a 4x4 puzzle by itself) and the lines after it are one 16x16 grid
    written a row per line, by the rule of the module docstring. The lines read ahead are
    pushed back."""
    from sudoku_csp.constraints.formats import is_constrained_text

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
        scanned = [_scan(row, 1) for row in rows]
    except ParseError:
        return False  # the line-by-line reading reports it, at its line
    if any(len(cells) != 16 for cells in scanned):
        return False
    givens = {cell.value for cells in scanned for cell in cells if cell.value != EMPTY}
    return not givens or len(givens) >= 8


def _row_width(text: str, line: int) -> int:
    """Cells in one line of a grid (0 for a border row)."""
    return len(_scan(text, line))


def _grids(lines: _Lines, options: dict, first_error: ParseError | None) -> Iterator[Puzzle]:
    """The multi-line grids of the rest of the input (see the module docstring).
    ``first_error`` is why the first line is no puzzle by itself: reported instead when the
    first grid is not a whole grid, for the input is then more likely bad one-line puzzles."""
    fixed = _fixed_size(options)
    first = True
    for entry in lines:
        stripped = entry[1].strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines.unread([entry])
        body, size, complete = _grid_lines(lines, fixed, first, first_error)
        if complete:
            _take_borders(lines, body)
        while body[-1] == "":
            body.pop()
        # A grid ended by its rows has its size: a short row is then "81 cells expected".
        grid_options = {**options, "size": size} if complete and fixed is None else options
        try:
            puzzle = parse("\n".join(body), line=entry[0], **grid_options)
        except ParseError:
            if first and first_error is not None and not complete:
                raise first_error from None
            raise
        first = False
        yield puzzle


MIN_ROW, MAX_ROW = 2, 35  # cells in the first row of a grid (its size, so 2..35)


def _grid_lines(
    lines: _Lines, fixed: int | None, first: bool, first_error: ParseError | None
) -> tuple[list[str], int | None, bool]:
    """The lines of the grid starting at the next line (blank and comment lines as ``""``),
    its size, and whether it ended by having that many rows (else at the end of the input).
    In the ``first`` grid, a first row that is no grid row makes the rest of the input one
    grid, as it comes (a puzzle in a few long lines); ``first_error`` is reported if that
    grid runs too long."""
    body: list[str] = []
    size, rows, whole, start = fixed, 0, False, 0
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            body.append("")  # keeps the line numbers of what follows
            continue
        start = start or number
        width = _row_width(text, number)
        body.append(text)
        if width:
            rows += 1
            if rows == 1 and not MIN_ROW <= width <= MAX_ROW:
                if not first:
                    raise ParseError(
                        f"a line of {width} cells where a multi-line grid starts: expected a "
                        f"row of {MIN_ROW} to {MAX_ROW} cells (this input holds multi-line "
                        "grids, so each of its puzzles must be one)", line=number)
                whole = True
            elif rows == 1:
                size = size or width
        if len(body) > _GRID_LINES:
            raise (first_error if first else None) or ParseError(
                f"a multi-line grid still open after {_GRID_LINES} lines: a grid ends after "
                "as many rows as its first row has cells", line=start)
        if not whole and size is not None and rows >= size:
            return body, size, True
    return body, size, False


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
