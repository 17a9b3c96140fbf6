"""One puzzle's text, whatever its form: :func:`parse` tells the form and reads it,
:func:`to_line` writes a puzzle back in the form that holds it.

The forms, tried in this order:

- a *plain line* of N² symbols and blanks (the fast path of nearly every line of a file);
- on one line, an f-puzzles or SudokuPad link or a killer line
  (:mod:`sudoku_csp.io.killer`); on one line or pretty-printed over several, f-puzzles JSON
  (:mod:`sudoku_csp.io.fpuzzles`) or the tool's own JSON object
  (:mod:`sudoku_csp.io.record`): puzzles with typed constraints;
- anything else is grid text (:mod:`sudoku_csp.io.grid`): a multi-line grid, symbols with
  decoration, or numbers.

Text after a tab on a one-line puzzle is kept as the puzzle's ``metadata``; a leading byte
order mark (U+FEFF, as some editors save UTF-8) is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from sudoku_csp.constraints import HANDLED_BY
from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import Geometry, GeometryError, check_size
from sudoku_csp.io.fpuzzles import is_fpuzzles, read_fpuzzles
from sudoku_csp.io.grid import format_grid, format_line, parse_grid, plain_line
from sudoku_csp.io.killer import killer_line, killer_tokens, parse_killer, writes
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.pencilmarks import parse_pencil_marks, pencil_tokens
from sudoku_csp.io.record import is_json, json_line, parse_json
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import looks_like_path, make_geometry, parse_regions

__all__ = ["UnhandledConstraintsError", "as_puzzle", "is_constrained_text", "parse", "to_grid",
           "to_line"]


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
    ignore: Iterable[str] = (),
    treat_line: dict[str, str] | None = None,
) -> Puzzle:
    """Parse one puzzle (one line or a multi-line grid); ``line`` numbers the first line.

    A line that is a JSON object, or a killer line (cage map, sums, optional givens), is read
    with its typed constraints; with ``constraints`` False such a puzzle is refused (a caller
    that cannot honour them yet).

    Give a ``geometry``, or the parts of one (``size``, ``box``, ``variants``,
    ``regions``, ``contiguous``: see :func:`~sudoku_csp.variants.make_geometry`); otherwise
    the size is inferred from the number of cells. Text that is no puzzle raises
    :class:`~sudoku_csp.errors.ParseError`, and so does a geometry that cannot be built for
    the cells found (a 7x7 has no boxes). Options that are wrong whatever the text (a size
    of -9, a regions value naming a missing file) raise
    :class:`~sudoku_csp.geometry.GeometryError`.

    >>> parse("3.1...4.2.......\\tfrom a book").metadata
    'from a book'
    >>> [c.kind for c in parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4").constraints][:1]
    ['cage']
    """
    options = ReadOptions(size, box, tuple(variants), regions, contiguous, geometry,
                          constraints, tuple(ignore), tuple((treat_line or {}).items()))
    metadata = ""
    text = text.removeprefix("\ufeff")
    if "\n" not in text.strip() and "\t" in text:
        text, _, metadata = text.partition("\t")
        metadata = metadata.strip()
    if geometry is None and size is not None:
        check_size(size)  # before it is used to count cells: "a -9x-9 puzzle" says nothing
    if regions is None:
        plain = plain_line(text, options, line, metadata)
        if plain is not None:
            return plain
    one_line = "\n" not in text.strip()
    # A JSON object is one document, written on one line or pretty-printed over several.
    if (one_line or is_json(text)) and is_fpuzzles(text):
        return _handled(read_fpuzzles(text, options, line, metadata), constraints, line)
    if is_json(text):
        return _handled(parse_json(text, options, line, metadata), constraints, line)
    if one_line:
        tokens = killer_tokens(text)
        if tokens is not None:
            return _handled(parse_killer(text, tokens, options, line, metadata), constraints,
                            line)
    marks = pencil_tokens(text)
    if marks is not None:
        return _handled(parse_pencil_marks(text, marks, options, line, metadata), constraints,
                        line)
    if geometry is None and isinstance(regions, str) and looks_like_path(regions):
        # A file name passed as the map (a --regions file that is missing): say so, before
        # its letters are counted as cells of a map.
        parse_regions(regions, contiguous=contiguous)
    return parse_grid(text, options, line, metadata)


class UnhandledConstraintsError(ParseError):
    """Puzzle text with typed constraints, read for a command that cannot honour them."""


def _handled(puzzle: Puzzle, constraints: bool, line: int) -> Puzzle:
    """``puzzle``, unless it has typed constraints a command that cannot honour them asked
    for (``constraints`` False): then :class:`UnhandledConstraintsError` naming them."""
    if not constraints and puzzle.constraints:
        kinds = ", ".join(sorted({c.kind for c in puzzle.constraints}))
        raise UnhandledConstraintsError(f"this command does not handle {kinds} constraints "
                                        f"yet ({HANDLED_BY})", line=line)
    return puzzle


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """``puzzle`` itself, or the puzzle its text reads as (:func:`parse`): what every public
    entry point taking a puzzle accepts.

    >>> as_puzzle("3.1...4.2.......").clue_count
    4
    """
    return puzzle if isinstance(puzzle, Puzzle) else parse(puzzle)


def is_constrained_text(text: str) -> bool:
    """Whether puzzle text is in a form that carries constraints (JSON, an f-puzzles or
    SudokuPad link, or a killer line)."""
    return is_json(text) or is_fpuzzles(text) or killer_tokens(text) is not None


def to_line(puzzle: Puzzle, *, standalone: bool = True) -> str:
    """One line that reads back as ``puzzle`` under no option at all: its givens as a plain
    line where that tells the geometry by itself (standard boxes for its size, no variant);
    with constraints, the killer line when it holds them; else compact JSON, which carries
    the box shape, variants and regions too (a jigsaw read from f-puzzles, a puzzle read
    with ``--variant``). What every output meant to be read again writes: records,
    generated puzzles, ``show --to line``, certificates.

    ``standalone=False`` gives the short line the puzzle had before the geometry options
    that read it (its givens alone): what records files of earlier versions hold.

    >>> to_line(parse("1..." "..1." ".1.." "...1"))
    '1.....1..1.....1'
    >>> to_line(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4 1..............."))
    'AABBCCDDEEFFGGHH 3,7,7,3,4,6,6,4 1...............'
    >>> to_line(parse("1..." "..1." ".1.." "...1", variants=["diagonal"]))
    '{"size":4,"variants":["diagonal"],"givens":"1.....1..1.....1"}'
    >>> to_line(parse("1..." "..1." ".1.." "...1", variants=["diagonal"]), standalone=False)
    '1.....1..1.....1'
    """
    if standalone and not _tells_geometry(puzzle.geometry):
        return json_line(puzzle)
    if puzzle.constraints:
        if writes(puzzle):
            return killer_line(puzzle.geometry, puzzle.constraints,  # type: ignore[arg-type]
                               puzzle.givens)
        return json_line(puzzle)
    # A puzzle read from a plain line keeps that line, as format_line would write it.
    return puzzle.__dict__.get("_line") or format_line(puzzle.geometry, puzzle.givens)


@lru_cache(maxsize=64)
def _tells_geometry(geometry: Geometry) -> bool:
    """Whether a plain or killer line alone reads as ``geometry``: the one a size takes
    when nothing more is said (its cell count tells the size, nothing the rest)."""
    try:
        return geometry == make_geometry(geometry.size)
    except GeometryError:  # a size without boxes (7x7): only a jigsaw
        return False


def to_grid(puzzle: Puzzle) -> str:
    """The givens as a boxed multi-line grid (:func:`~sudoku_csp.io.grid.format_grid`)."""
    return format_grid(puzzle.geometry, puzzle.givens)
