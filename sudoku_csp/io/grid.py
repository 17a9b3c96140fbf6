"""Grid text: one line of symbols, a multi-line grid, or numbers; read and written.

Accepted text (Norvig's rule: anything that is not a symbol or a blank mark is decoration):

- one line of symbols, ``.`` or ``0`` (or ``_``) for blanks: ``4.....8.5.3...``;
- a multi-line grid where spaces, ``|``, ``+``, ``-``, ``=`` and ``:`` are decoration;
- whitespace- or comma-separated numbers (``0`` or ``.`` blank), handy for N > 9.

Symbols are ``1-9`` then ``A-Z`` (lower case accepted). The size is inferred from the
number of cells (16, 36, 64, 81, 144, 256, 625, ...) unless given. Bad text raises
:class:`~sudoku_csp.errors.ParseError` naming the line, the column and what was expected.

The writers give the same forms back: :func:`format_line` (one line, ``.`` for blanks;
numbers beyond 35), :func:`format_grid` (boxed rows), :func:`format_cells` (any text per cell,
e.g. candidates), and Norvig's dict of labels (:func:`grid_to_dict`, :func:`from_dict`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import EMPTY, SYMBOLS, Geometry, symbol
from sudoku_csp.io.options import NO_OPTIONS, ReadOptions, infer_size, region_side
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

__all__ = ["BLANKS", "DECORATION", "format_cells", "format_grid", "format_line", "from_dict",
           "grid_to_dict", "parse_grid", "plain_line", "scan"]

BLANKS = frozenset("._0")
DECORATION = frozenset("|+-=:")
_SYMBOL_VALUE = {s: i for i, s in enumerate(SYMBOLS)}
_NUMBER_TOKEN = re.compile(r"[^\s,;]+")


# -- writing ----------------------------------------------------------------------------------
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

    >>> print(format_grid(make_geometry(4), [2, EMPTY, 0] + [1] * 13))
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
    """Norvig-style dict: label -> symbol, ``'.'`` for a blank."""
    return {geometry.label(c): symbol(d) for c, d in enumerate(grid)}


def from_dict(grid: Mapping[str, str], geometry: Geometry | None = None) -> Puzzle:
    """A puzzle from a Norvig-style dict ``{'A1': '4', 'A2': '.', ...}`` (``'0'``/``'.'``
    blank) over ``geometry`` (default 9×9).

    >>> from_dict({"A1": "3", "A3": "1"}, make_geometry(4)).givens[:4]
    (2, -1, 0, -1)
    """
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
    return Puzzle(geometry, tuple(givens))


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


def scan(text: str, line: int) -> list[_Cell]:
    """The cells of grid text, in order: each a digit or EMPTY, with its text and place
    (``line`` numbers the first line); ParseError naming the first character that is no
    symbol, blank or decoration."""
    return _scan_numbers(text, line) if _is_number_form(text) else _scan_symbols(text, line)


def _end_position(text: str, line: int) -> tuple[int, int]:
    lines = text.split("\n")
    return line + len(lines) - 1, len(lines[-1]) + 1


def parse_grid(text: str, options: ReadOptions = NO_OPTIONS, line: int = 1,
               metadata: str = "") -> Puzzle:
    """The puzzle of grid text (any form of the module docstring; ``line`` numbers its first
    line), under ``options``: a plain line by the fast path (:func:`plain_line`), anything
    else by the scanner, which names what is wrong. A grid written a row per line holds as
    many cells on every line as on its first: the first line that does not is named.

    >>> parse_grid("12 0 0 3" + " 0" * 140, ReadOptions(size=12)).givens[:4]
    (11, -1, -1, 2)
    """
    size, geometry, regions = options.size, options.geometry, options.regions
    if regions is None:
        plain = plain_line(text, options, line, metadata)
        if plain is not None:
            return plain
    cells = scan(text, line)
    if geometry is not None:
        size = geometry.size
    elif size is None and regions is not None:
        size = region_side(regions)
    rows = _rows(cells)
    _check_rows(rows, size, line)
    expected = size if size is not None else infer_size(len(cells))
    if expected is None or len(cells) != expected * expected:
        end_line, end_col = _end_position(text, line)
        widths = {len(row) for row in rows}
        if expected is None and len(rows) > 1 and len(widths) == 1:
            raise ParseError(
                f"found {len(rows)} rows of {len(cells) // len(rows)} cells: a grid has as "
                "many rows as cells in a row", line=end_line, column=end_col)
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
        geometry = options.build(expected, line)
    return Puzzle(geometry, tuple(c.value for c in cells), metadata)


def _rows(cells: Sequence[_Cell]) -> list[list[_Cell]]:
    """The cells of each line that holds some, in order."""
    rows: list[list[_Cell]] = []
    for cell in cells:
        if not rows or rows[-1][0].line != cell.line:
            rows.append([])
        rows[-1].append(cell)
    return rows


def _check_rows(rows: list[list[_Cell]], size: int | None, line: int) -> None:
    """A grid written a row per line (its first line holds as many cells as the grid has
    rows: ``size``, or else the lines that hold cells) has that many cells on every line:
    else a ParseError naming the first line that does not. Other layouts (a puzzle in a few
    long lines) are read as they come."""
    if len(rows) < 2:
        return
    width = len(rows[0])
    if width != (size if size is not None else len(rows)):
        return
    for number, row in enumerate(rows, 1):
        if len(row) != width:
            raise ParseError(
                f"row {number} of the grid that starts at line {line} has {len(row)} cells: "
                f"expected {width}, as in every row of a {width}x{width} grid",
                line=row[0].line, column=row[width].column if len(row) > width
                else row[-1].column + len(row[-1].text))


_PLAIN_VALUE = {**_SYMBOL_VALUE, **{s.lower(): v for s, v in _SYMBOL_VALUE.items()},
                **dict.fromkeys(BLANKS, EMPTY)}
"""The value of each character a plain line may hold: a symbol (either case) or a blank."""
_CANONICAL = bytes.maketrans(("".join(BLANKS) + SYMBOLS.lower()).encode(),
                             ("." * len(BLANKS) + SYMBOLS).encode())
"""A plain line's characters as :func:`format_line` writes them (upper case, ``.``)."""


def plain_line(text: str, options: ReadOptions = NO_OPTIONS, line: int = 1,
               metadata: str = "") -> Puzzle | None:
    """The puzzle :func:`parse_grid` reads from ``text`` when it is a *plain line*: N²
    symbols and blanks, nothing else, every symbol a digit of the N×N grid (nearly every line
    of a puzzle file). One table look-up per character instead of the general scanner, which
    reads everything else (and names what is wrong); None then. Not for jigsaw ``regions``.

    >>> plain_line("3.1...4.2.......").givens[:4]
    (2, -1, 0, -1)
    >>> plain_line("3.1...4.2......") is None
    True
    """
    try:
        givens = tuple(map(_PLAIN_VALUE.__getitem__, text))
    except KeyError:
        return None
    geometry = options.geometry
    n = geometry.size if geometry is not None else options.size
    if n is None:
        n = infer_size(len(givens))
    if n is None or len(givens) != n * n or max(givens) >= n:
        return None
    if geometry is None:
        geometry = options.build(n, line)
    # N² ints, each from the table (EMPTY or a symbol's digit) and below N: checked. The
    # text, all ASCII, written as format_line writes it: upper case, "." for every blank.
    return Puzzle._checked(geometry, givens, metadata,
                           text.encode().translate(_CANONICAL).decode())


def _range_text(size: int) -> str:
    if size <= 9:
        return f"1-{size}"
    if size <= len(SYMBOLS):
        return f"1-9, A-{SYMBOLS[size - 1]} or 1-{size}"
    return f"1-{size}"

