"""f-puzzles puzzles (and SudokuPad links that carry one): read and written.

An f-puzzles puzzle is a JSON object: ``size``, ``grid`` (``size`` rows of cell objects:
``value`` with ``given``, ``region``, ``givenPencilMarks``, ...), and one key per constraint
type (``killercage``, ``arrow``, ``thermometer``, ...; cells named ``R1C1``, clues outside
the grid at row or column 0 or N+1). Its link is ``https://f-puzzles.com/?load=`` followed by
the lz-string ``compressToBase64`` of that JSON; SudokuPad opens the same payload as
``https://sudokupad.app/fpuzzles<payload>`` (or ``fpuz<payload>``). A link is read whole:
text after it on its line is an error, and its payload is decoded by
:mod:`sudoku_csp.io.lzdecode`, which refuses one that grows past any puzzle's size.

This module reads the envelope (size, regions, givens, the geometry's flags, decoration and
settings) and hands every constraint key to the registered kind that reads it (the
f-puzzles keys of its :class:`~sudoku_csp.constraints.names.Names`); it never names a kind.
A key it does not know is an input error listing each such key (a rule silently skipped
would make a false "unique"), unless the caller lists it in ``ignore`` (which takes only
such keys: a rule this tool reads is never left out). Decoration
(``line``, ``rectangle``, ``circle``, ``text``, ``cage``) is no rule: it is reported in the
puzzle's ``notes`` ("ignored decoration: ..."), since a rule stated only in the rules text
may hide in it; ``treat_line`` (``{"#FFCCAA": "entropic line"}``) says what the lines of a
colour are, by a kind's name or its f-puzzles key.

The writer invents no key: each kind writes the keys of its own form, or of the kind its
names say it is written as (kropki dots as f-puzzles' difference and ratio dots), and a kind
f-puzzles cannot say is refused with an error naming it.

>>> from sudoku_csp.io.options import ReadOptions
>>> p = read_fpuzzles('{"size": 4, "grid": [[{"value": 1, "given": true}, {}, {}, {}], '
...                   '[{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]], '
...                   '"thermometer": [{"lines": [["R2C1", "R2C2", "R2C3"]]}]}', ReadOptions())
>>> p.givens[0], [c.kind for c in p.constraints]
(0, ['thermometer'])
>>> read_fpuzzles(fpuzzles_url(p), ReadOptions()) == p
True
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from sudoku_csp.constraints import (
    KINDS,
    Constraint,
    ConstraintError,
    FieldError,
    UnknownKindError,
    fpuzzles_keys,
    kind_named,
)
from sudoku_csp.constraints.names import spelling
from sudoku_csp.constraints.registry import fpuzzles_readers
from sudoku_csp.errors import InputError, ParseError, ReaderNote
from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.io.lzdecode import link_text
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.puzzle import Puzzle

__all__ = ["FPUZZLES_IDS", "FPUZZLES_PREFIX", "fpuzzles_document", "fpuzzles_json",
           "fpuzzles_object", "fpuzzles_url", "is_fpuzzles", "read_fpuzzles"]

FPUZZLES_PREFIX = "https://f-puzzles.com/?load="

VARIANT_FLAGS = {"diagonal+": "anti-diagonal", "diagonal-": "main-diagonal",
                 "antiknight": "anti-knight", "antiking": "anti-king",
                 "disjointgroups": "disjoint"}
"""f-puzzles' true/false keys that change the geometry, and the variant each one names."""

DECORATION = ("line", "rectangle", "circle", "text", "cage")
"""Keys f-puzzles draws without a rule of their own."""

SETTINGS = ("size", "grid", "title", "author", "ruleset", "solution", "successMessage",
            "highlightConflicts", "disabledlogic", "truecandidatesoptions", "negative",
            "version")
"""Keys that are no rule: the envelope, words, and the editor's and solvers' settings
(``negative`` is read by the kinds that honour its words)."""

CELL_KEYS = ("value", "given", "region", "centerPencilMarks", "cornerPencilMarks", "c",
             "highlight", "cosmetic")
"""Keys of a grid cell the envelope reads or knows to be no rule (a solver's own marks and
colours)."""

_LINK = re.compile(r"(?:https?://)?(?:www\.)?(?P<host>f-puzzles\.com|[\w.-]*sudokupad\.app|"
                   r"app\.crackingthecryptic\.com)/(?P<rest>\S*)", re.IGNORECASE)


def is_fpuzzles(text: str) -> bool:
    """Whether one line of puzzle text is an f-puzzles or SudokuPad link, or f-puzzles
    JSON (an object with ``size`` and a ``grid`` of rows).

    >>> is_fpuzzles("https://f-puzzles.com/?load=N4Ig"), is_fpuzzles('{"size": 4}')
    (True, False)
    """
    stripped = text.strip()
    if _LINK.match(stripped):
        return True
    return stripped.startswith("{") and '"grid"' in stripped and re.search(
        r'"grid"\s*:\s*\[\s*\[', stripped) is not None


FPUZZLES_IDS = ("fpuzzles", "fpuz")
"""The prefixes of a SudokuPad link's puzzle that carry an f-puzzles payload, longest first
(SudokuPad's own are :data:`~sudoku_csp.io.sudokupad_payload.SUDOKUPAD_PREFIXES`; ``scf`` is its
legacy compact format)."""


def _payload(link: str, line: int, options: ReadOptions) -> str:
    """The f-puzzles JSON text a link carries (a SudokuPad ``scl``/``ctc`` payload made one
    by :mod:`sudoku_csp.io.sudokupad`, which needs the options)."""
    from sudoku_csp.io.sudokupad_payload import SUDOKUPAD_PREFIXES

    match = _LINK.match(link.strip())
    assert match is not None
    host, rest = match["host"].lower(), unquote(match["rest"])
    if host == "f-puzzles.com":
        data = rest.partition("load=")[2]
        if not data:
            raise ParseError("an f-puzzles link holds its puzzle after '?load='", line=line)
    else:
        data = rest.rpartition("puzzleid=")[2] if "puzzleid=" in rest else rest
        data = data.removeprefix("sudoku/").removeprefix("?")
        if data.startswith(SUDOKUPAD_PREFIXES):
            from sudoku_csp.io.sudokupad import sudokupad_fpuzzles_json

            return sudokupad_fpuzzles_json(data, options, line)
        prefix = next((p for p in FPUZZLES_IDS if data.startswith(p)), None)
        if prefix is None:
            if data.startswith("scf"):
                raise ParseError("an scf link is SudokuPad's legacy compact format, which "
                                 "this tool does not read: give the puzzle's f-puzzles or "
                                 "scl link, or its f-puzzles JSON", line=line)
            raise ParseError(f"{link.strip()[:60]!r} names a SudokuPad puzzle by a short id, "
                             "which needs the network (out of scope): give the full link "
                             "(sudokupad.app/fpuzzles..., fpuz..., scl... or ctc...) or the "
                             "f-puzzles JSON", line=line)
        data = data.removeprefix(prefix)
    text = link_text(data, line)
    if text and text.lstrip().startswith("{"):
        return text
    raise ParseError("the link's puzzle data does not decode (lz-string base64 of an "
                     "f-puzzles JSON object expected)", line=line)


def read_fpuzzles(text: str, options: ReadOptions, line: int = 1, metadata: str = ""
                  ) -> Puzzle:
    """The puzzle of an f-puzzles link, SudokuPad ``fpuzzles`` link, or f-puzzles JSON.

    ``options.ignore`` lists keys to leave out although unknown; ``options.treat_line``
    maps a decoration line colour (``#FFCCAA``, any case) to the line kind it stands for, by
    its name or f-puzzles key (``entropic line``, ``entropicline``). Errors are
    :class:`~sudoku_csp.errors.ParseError` at ``line`` naming the key or element
    (``arrow[2].lines[0][3]``) and what was expected.
    """
    source = text.strip()
    link = _LINK.match(source)
    if link:
        after = source[link.end():].lstrip()
        if after:
            raise ParseError(f"{after[:40]!r} after the link: expected the link alone (the "
                             "puzzle's data runs to the first space; a title or note goes "
                             "after a tab)", line=line,
                             column=len(text) - len(text.lstrip()) + len(source) - len(after) + 1)
        source = _payload(source, line, options)
    try:
        document = json.loads(source if link else text)
    except json.JSONDecodeError as exc:
        if link:  # the place is in the link's decoded text, not in the line
            raise ParseError(f"not valid f-puzzles JSON: {exc.msg}", line=line,
                             column=exc.colno) from None
        # JSON written over several lines: the error's own line and column in the input
        raise ParseError(f"not valid f-puzzles JSON: {exc.msg}", line=line + exc.lineno - 1,
                         column=exc.colno) from None
    except (ValueError, RecursionError):
        raise ParseError("not an f-puzzles puzzle: JSON too deep or a number too long",
                         line=line) from None
    if not isinstance(document, dict):
        raise ParseError("expected an f-puzzles JSON object", line=line)
    try:
        return fpuzzles_document(document, options, metadata, ignore=options.ignore,
                                 treat_line=dict(options.treat_line))
    except FieldError as exc:
        raise ParseError(f"f-puzzles {exc.path}: {exc.reason}", line=line) from None


def fpuzzles_document(document: dict[str, Any], options: ReadOptions, metadata: str = "", *,
                      ignore: Sequence[str] = (), treat_line: Mapping[str, str] | None = None
                      ) -> Puzzle:
    """The puzzle of a decoded f-puzzles object (see :func:`read_fpuzzles`); raises
    :class:`FieldError`."""
    # The kinds that read a key, cell key or negative word the document holds or ``ignore``
    # names: every other kind would find nothing here, and stays unloaded (start-up).
    kinds = list(KINDS) if treat_line else fpuzzles_readers(_keys_named(document, ignore))
    owners = {key: kind for kind in kinds for key in kind.names.fpuzzles}
    cell_owners = {key: kind for kind in kinds for key in kind.names.fpuzzles_cell}
    negatives = {word for kind in kinds for word in kind.names.fpuzzles_negative}
    read = [key for key in ignore if key in owners or key in cell_owners or key in VARIANT_FLAGS]
    if read:  # left out, the rule would still be read: "ignored" would be a false note
        raise FieldError("--ignore", f"{read[0]!r} is a rule this tool reads, never left "
                                     "out: --ignore takes keys it does not know")
    document = _treat_lines(document, treat_line or {})
    unknown = [key for key in document if key not in owners and key not in VARIANT_FLAGS
               and key not in DECORATION and key not in SETTINGS and key not in ignore]
    if unknown:
        raise FieldError(", ".join(unknown), "not a rule this tool knows; it is refused rather "
                                             "than skipped (skip it with --ignore KEY)")
    size, rows = _size_and_rows(document)
    notes = []
    cell_keys: set[str] = set()
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            bad = [k for k in cell if k not in CELL_KEYS and k not in cell_owners]
            if bad:
                raise FieldError(f"grid[{r}][{c}].{bad[0]}", "not a cell key this tool knows")
            cell_keys.update(k for k in cell if k in cell_owners and cell[k])
    words = document.get("negative", [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise FieldError("negative", "expected a list of words such as [\"ratio\"]")
    for word in words:
        if word not in negatives:
            known = {word for kind in KINDS for word in kind.names.fpuzzles_negative}
            raise FieldError("negative", f"{word!r} is no negative rule this tool knows "
                                         f"(it knows {', '.join(sorted(known))})")
    variants = [name for key, name in VARIANT_FLAGS.items()
                if _flag(document.get(key, False), key)]
    geometry = _geometry(size, rows, variants, options)
    givens, entered = _givens(rows, geometry)
    constraints: list[Constraint] = []
    for kind in kinds:
        names = kind.names
        if (any(key in document for key in names.fpuzzles)
                or cell_keys & set(names.fpuzzles_cell)
                or set(words) & set(names.fpuzzles_negative)):
            constraints += kind.from_fpuzzles(document, geometry)
    decoration = [f"{len(document[k]) if isinstance(document[k], list) else 1} {k}"
                  for k in DECORATION if document.get(k)]
    if decoration:
        notes.append("ignored decoration: " + ", ".join(decoration)
                     + " (a rule stated only in the rules text is not checked)")
    if entered:
        notes.append(f"ignored {entered} digit{'s' * (entered != 1)} entered without 'given'")
    marked = sum(bool(cell.get(k)) for row in rows for cell in row
                 for k in ("centerPencilMarks", "cornerPencilMarks"))
    if marked:  # a solver's own marks; a setter's are givenPencilMarks
        notes.append(f"ignored a solver's pencil marks in {marked} cell{'s' * (marked != 1)}")
    skipped = [key for key in ignore if key in document]
    if skipped:
        notes.append("ignored as asked: " + ", ".join(skipped))
    for note in notes:
        warnings.warn(note, ReaderNote, stacklevel=2)
    title = " ".join(str(document[k]) for k in ("title", "author") if document.get(k))
    try:
        return Puzzle(geometry, givens, metadata or title, tuple(constraints), tuple(notes))
    except ConstraintError as exc:
        raise FieldError(exc.part or "constraints", exc.reason) from None
    except InputError as exc:
        raise FieldError("grid", str(exc)) from None


def _keys_named(document: Mapping[str, Any], ignore: Sequence[str]) -> set[str]:
    """Every key a kind could read in ``document``: its own keys, those of its grid's cells
    and the words of its ``negative`` list, however malformed (the reader says what is
    wrong with them), and the keys ``ignore`` names."""
    keys = {*document, *ignore}
    rows = document.get("grid")
    for row in rows if isinstance(rows, list) else ():
        for cell in row if isinstance(row, list) else ():
            keys.update(cell if isinstance(cell, dict) else ())
    words = document.get("negative")
    if isinstance(words, list):
        keys.update(word for word in words if isinstance(word, str))
    return keys


def _flag(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise FieldError(key, f"expected true or false, got {value!r}")
    return value


def _treat_lines(document: dict[str, Any], treat: Mapping[str, str]) -> dict[str, Any]:
    """``document`` with the decoration lines of each colour in ``treat`` moved to the
    f-puzzles key of the kind named for it (:func:`line_key`)."""
    if not treat:
        return document
    wanted = {colour.strip().upper(): line_key(kind) for colour, kind in treat.items()}
    document = dict(document)
    kept, found = [], set()
    for item in document.get("line", []) or []:
        colour = str(item.get("outlineC", "")).upper() if isinstance(item, dict) else ""
        if colour in wanted:
            key = wanted[colour]
            document[key] = [*document.get(key, []), {"lines": item.get("lines")}]
            found.add(colour)
        else:
            kept.append(item)
    missing = set(wanted) - found
    if missing:
        raise FieldError("--treat-line", f"no decoration line has colour {sorted(missing)[0]}")
    document["line"] = kept
    return document


def line_key(text: str) -> str:
    """The f-puzzles key decoration lines are read under when ``--treat-line`` names a
    kind ``text``: a kind's name or one of its f-puzzles keys
    (:func:`~sudoku_csp.constraints.kind_named`), the key named, else the kind's first. A
    kind whose f-puzzles entries are not lines alone
    (:attr:`~sudoku_csp.constraints.base.Constraint.fpuzzles_lines`: a little killer, whose
    entries without a value say nothing) is an error naming the line kinds.

    >>> line_key("Entropic line"), line_key("entropicline"), line_key("thermo")
    ('entropicline', 'entropicline', 'thermometer')
    """
    lines = [kind for kind in KINDS if kind.fpuzzles_lines]
    try:
        kind = kind_named(text, lines, "line kind")
    except UnknownKindError as exc:
        raise FieldError("--treat-line", str(exc)) from None
    spelled = spelling(text)
    return next((key for key in kind.names.fpuzzles if spelling(key) == spelled),
                kind.names.fpuzzles[0])


def _size_and_rows(document: Mapping[str, Any]) -> tuple[int, list[list[dict[str, Any]]]]:
    size = document.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 35:
        raise FieldError("size", f"expected the grid size, a whole number such as 9, got "
                                 f"{size!r}")
    rows = document.get("grid")
    if (not isinstance(rows, list) or len(rows) != size
            or not all(isinstance(row, list) and len(row) == size for row in rows)):
        raise FieldError("grid", f"expected {size} rows of {size} cell objects")
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise FieldError(f"grid[{r}][{c}]", "expected a cell object such as {}")
    return size, rows


def _geometry(size: int, rows: list[list[dict[str, Any]]], variants: list[str],
              options: ReadOptions) -> Geometry:
    """Boxes, or jigsaw regions where cells name other regions than the default ones.

    f-puzzles leaves out the ``region`` of a cell in its default region
    (:func:`_default_regions`).
    """
    from sudoku_csp.geometry import box_index, default_box_or_none

    default = _default_regions(size)
    regions = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            region = cell.get("region", default[r * size + c])
            if isinstance(region, bool) or not isinstance(region, int) or not (
                    0 <= region < size):
                raise FieldError(f"grid[{r}][{c}].region",
                                 f"expected a region number 0..{size - 1}, got {region!r} "
                                 "(cells outside every region are not supported)")
            regions.append(region)
    shape = default_box_or_none(size)
    jigsaw = shape is None or tuple(regions) != tuple(box_index(size, shape))
    try:
        # The setter's regions stand as drawn: f-puzzles allows a region in pieces.
        return options._replace(contiguous=False).build(
            size, 1, variants=variants, regions=tuple(regions) if jigsaw else None)
    except ParseError as exc:
        raise FieldError("grid", exc.reason) from None


def _default_regions(size: int) -> list[int]:
    """The region f-puzzles gives each cell that names none: the boxes ``h`` rows high and
    ``size / h`` wide, ``h`` the largest factor of ``size`` up to its square root (on a
    7x7, whose only such factor is 1, the default regions are the rows).

    >>> _default_regions(6)[:12]
    [0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]
    """
    high = max(h for h in range(1, math.isqrt(size) + 1) if size % h == 0)
    wide = size // high
    return [(r // high) * high + c // wide for r in range(size) for c in range(size)]


def _givens(rows: list[list[dict[str, Any]]], geometry: Geometry) -> tuple[tuple[int, ...], int]:
    """The given digits, and how many digits were entered without ``given`` (a solver's)."""
    size = geometry.size
    givens = []
    entered = 0
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            value = cell.get("value")
            given = cell.get("given", False)
            if value is None or value == "":
                givens.append(EMPTY)
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
                raise FieldError(f"grid[{r}][{c}].value", f"expected a digit 1..{size}, got "
                                                          f"{value!r}")
            if given is True:
                givens.append(value - 1)
            else:
                entered += 1
                givens.append(EMPTY)
    return tuple(givens), entered


# -- writing ----------------------------------------------------------------------------------
def fpuzzles_object(puzzle: Puzzle, marks: Sequence[int] | None = None) -> dict[str, Any]:
    """The f-puzzles object of a puzzle; UnsupportedError when a constraint or a variant has
    no f-puzzles form (windoku). ``marks``: a bitmask per cell written as the centre pencil
    marks of each cell that is not a given (a solver's notes, not a rule: read back, they
    are reported as notes, never as constraints). Every key written is one this tool reads
    back (:func:`_written`)."""
    from sudoku_csp.constraints import UnsupportedError

    g = puzzle.geometry
    n = g.size
    flags = {name: key for key, name in VARIANT_FLAGS.items()}
    document: dict[str, Any] = {"size": n}
    rows: list[list[dict[str, Any]]] = [[{} for _ in range(n)] for _ in range(n)]
    for cell, digit in enumerate(puzzle.givens):
        if digit != EMPTY:
            rows[cell // n][cell % n].update(value=digit + 1, given=True)
    # Boxes of another shape than f-puzzles' default (3x2 on a 6x6) are regions too.
    if "jigsaw" in g.variants or list(g.boxes) != _default_regions(n):
        for cell, region in enumerate(g.boxes):
            rows[cell // n][cell % n]["region"] = region
    for variant in g.variants:
        if variant == "jigsaw":
            continue
        if variant == "diagonal":
            document["diagonal+"] = document["diagonal-"] = True
        elif variant in flags:
            document[flags[variant]] = True
        else:
            raise UnsupportedError(f"f-puzzles has no {variant} rule")
    negative: list[str] = []
    for kind in KINDS:
        mine = [c for c in puzzle.constraints if type(c) is kind]
        if not mine:
            continue
        for key, value in _written(kind, kind.to_fpuzzles(mine, g)):
            if key == "grid":
                for cell, keys in value.items():
                    rows[cell // n][cell % n].update(keys)
            elif key == "negative":
                negative += [w for w in value if w not in negative]
            elif isinstance(value, list):
                document[key] = [*document.get(key, []), *value]
            else:
                document[key] = value
    if negative:
        document["negative"] = negative
    if marks is not None:
        for cell, mask in enumerate(marks):
            if puzzle.givens[cell] == EMPTY and mask:
                rows[cell // n][cell % n]["centerPencilMarks"] = [
                    d + 1 for d in range(n) if mask >> d & 1]
    document["grid"] = rows
    if puzzle.metadata:
        document["title"] = puzzle.metadata
    return document


def _written(kind: type[Constraint], written: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The items a kind's ``to_fpuzzles`` wrote, each key checked to be one some registered
    kind reads (top level, in a grid cell, or a ``negative`` word): a kind that invents a
    key is a fault of the kind (TypeError), never a file f-puzzles would misread."""
    keys = fpuzzles_keys()
    words = {word for k in KINDS for word in k.names.fpuzzles_negative}
    for key, value in written.items():
        invented = ([k for cell in value.values() for k in cell if k not in keys]
                    if key == "grid" else [w for w in value if w not in words]
                    if key == "negative" else [] if key in keys else [key])
        if invented:
            raise TypeError(f"{kind.__name__}.to_fpuzzles wrote {invented[0]!r}, a key no "
                            "registered kind reads")
    return list(written.items())


def fpuzzles_json(puzzle: Puzzle, marks: Sequence[int] | None = None) -> str:
    """The f-puzzles JSON of a puzzle, on one line (``marks``: see :func:`fpuzzles_object`)."""
    return json.dumps(fpuzzles_object(puzzle, marks), separators=(",", ":"))


def fpuzzles_url(puzzle: Puzzle, marks: Sequence[int] | None = None) -> str:
    """The f-puzzles link of a puzzle (``https://f-puzzles.com/?load=...``; ``marks``: see
    :func:`fpuzzles_object`)."""
    import lzstring

    document = fpuzzles_json(puzzle, marks)
    return FPUZZLES_PREFIX + str(lzstring.LZString().compressToBase64(document))
