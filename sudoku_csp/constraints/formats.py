"""Puzzle text with typed constraints: the JSON form and the one-line killer form.

**JSON** (one object per line; a ``.jsonl`` file holds one puzzle per line)::

    {"size": 9, "box": "3x3", "variants": ["diagonal"], "givens": "....5....",
     "cages": [{"sum": 15, "cells": ["A1", "A2"]}], "thermos": [["B1", "B2", "C3"]],
     "dots": {"white": [["D1", "D2"]], "black": [], "negative": false},
     "xv": {"x": [["E1", "E2"]], "v": [], "negative": false},
     "nonconsecutive": true, "odd": ["F1"], "even": ["F2"], "name": "my puzzle"}

Cells are labels (row letters, then the 1-based column). Every field is optional but
``size`` (which ``givens`` or ``regions`` can stand for); ``box`` is ``"RxC"`` or
``[R, C]``, ``regions`` a jigsaw map, ``name`` free text kept as the puzzle's metadata.
The geometry options of the command (``--size``, ``--variant``, ...) add to the object's.

**Killer line**: the cage map (``N²`` characters, one per cell: the same symbol for the
cells of one cage, ``.`` for a cell in no cage), a space, the cage sums separated by commas in
the order each symbol first appears in the map (``?`` for a cage without a sum), and
optionally a second space and the givens in the usual one-line form::

    AABBBCCDD... 3,15,22,...  [....5....]

Symbols are ``A-Z``, then ``a-z``, then ``0-9``, then the punctuation of
:data:`CAGE_SYMBOLS`; any other character but space, ``.``, ``,``, ``|`` and ``+`` also names
a cage when read. A puzzle with more cages than :data:`CAGE_SYMBOLS` holds, or with other
constraints, is written as JSON.

Every error is a :class:`~sudoku_csp.puzzle.ParseError` naming the line, and the field (JSON)
or column (killer line), and what was expected.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sudoku_csp.constraints import FIELDS, KINDS, Cage, Constraint, ConstraintError, FieldError
from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, check_size, default_box_or_none
from sudoku_csp.puzzle import ParseError, Puzzle, format_line, parse
from sudoku_csp.variants import make_geometry

CAGE_SYMBOLS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                "!#$%&()*-/:;<=>@[]^_{}~")
"""The symbols the killer line gives cages, in order (85)."""

NOT_CAGE = frozenset(".,|+")
REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PUZZLE_FIELDS = ("size", "box", "variants", "regions", "givens", "name")
_SUMS = re.compile(r"^(\d+|\?)(,(\d+|\?))*$")
_TOKEN = re.compile(r"\S+")


def is_json(text: str) -> bool:
    """Whether puzzle text is the JSON form (it starts with ``{``)."""
    return text.lstrip().startswith("{")


def killer_tokens(text: str) -> list[re.Match[str]] | None:
    """The map, sums (and givens) tokens of a killer line, or None when ``text`` is not one.

    >>> [m.group() for m in killer_tokens("AABB" * 4 + " 3,7,7,3")]
    ['AABBAABBAABBAABB', '3,7,7,3']
    """
    tokens = list(_TOKEN.finditer(text))
    if len(tokens) not in (2, 3):
        return None
    first, sums = tokens[0].group(), tokens[1].group()
    if "," in first or not _SUMS.match(sums):
        return None
    side = math.isqrt(len(first))
    square = side >= 2 and side * side == len(first)
    # Sums of several cages (a comma) mark a killer line even when the map has the wrong
    # length: that is then the error to report, not an unknown puzzle symbol.
    return tokens if square or ("," in sums and not first.isdigit()) else None


def is_constrained_text(text: str) -> bool:
    """Whether puzzle text is in a form that carries constraints (JSON or a killer line)."""
    return is_json(text) or killer_tokens(text) is not None


# -- reading ----------------------------------------------------------------------------------
def _geometry(line: int, size: int, box: Any, variants: Iterable[str], regions: Any,
              contiguous: bool) -> Geometry:
    try:
        return make_geometry(size, box, variants, regions, contiguous=contiguous)
    except GeometryError as exc:
        raise ParseError(str(exc), line=line) from None


class Options(NamedTuple):
    """What :func:`~sudoku_csp.puzzle.parse` was given besides the text."""

    line: int
    size: int | None
    box: Any
    variants: tuple[str, ...]
    regions: Any
    contiguous: bool
    geometry: Geometry | None
    metadata: str


def parse_killer(text: str, tokens: list[re.Match[str]], options: Options) -> Puzzle:
    """The puzzle of a killer line (see the module docstring)."""
    line, size, box, variants, regions, contiguous, geometry, metadata = options
    mapping, sums = tokens[0], tokens[1]
    side = math.isqrt(len(mapping.group()))
    if side * side != len(mapping.group()):
        raise ParseError(f"the cage map has {len(mapping.group())} characters: expected one "
                         "per cell, a square number (16, 36, 81, ... for 4x4, 6x6, 9x9)",
                         line=line, column=mapping.end() + 1)
    wanted = geometry.size if geometry is not None else size
    if wanted is not None and wanted != side:
        raise ParseError(f"the cage map has {len(mapping.group())} characters, a {side}x{side} "
                         f"grid; expected {wanted * wanted} for a {wanted}x{wanted} puzzle",
                         line=line, column=mapping.start() + 1)
    if geometry is None:
        try:
            check_size(side)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line, column=mapping.start() + 1) from None
        geometry = _geometry(line, side, box, variants, regions, contiguous)
    cells: dict[str, list[int]] = {}
    for cell, ch in enumerate(mapping.group()):
        if ch in NOT_CAGE:
            if ch != ".":
                raise ParseError(f"{ch!r} cannot name a cage: expected a letter, a digit or "
                                 "another symbol, or '.' for a cell in no cage",
                                 line=line, column=mapping.start() + cell + 1)
            continue
        cells.setdefault(ch, []).append(cell)
    entries = list(re.finditer(r"[^,]+", sums.group()))
    if len(entries) != len(cells):
        raise ParseError(f"the cage map has {len(cells)} cages but {len(entries)} sums are "
                         "given: expected one sum per cage, in the order each cage's symbol "
                         "first appears in the map", line=line, column=sums.start() + 1)
    cages: list[Constraint] = []
    for (symbol, members), entry in zip(cells.items(), entries, strict=True):
        total = None if entry.group() == "?" else int(entry.group())
        cage = Cage(tuple(members), total)
        try:
            cage.validate(geometry)
        except ConstraintError as exc:
            column = sums.start() + entry.start() + 1 if exc.part == "sum" \
                else mapping.start() + members[0] + 1
            raise ParseError(f"cage {symbol!r}: {exc.reason}", line=line, column=column) from None
        cages.append(cage)
    givens = (EMPTY,) * geometry.ncells
    if len(tokens) == 3:
        text_givens = tokens[2]
        try:
            givens = parse(text_givens.group(), geometry=geometry, line=line).givens
        except ParseError as exc:
            column = text_givens.start() + (exc.column or 1)
            raise ParseError(f"givens: {exc.reason}", line=line, column=column) from None
    return Puzzle(geometry, givens, metadata, tuple(cages))


def parse_json(text: str, options: Options) -> Puzzle:
    """The puzzle of a JSON object (see the module docstring)."""
    line, size, box, variants, regions, contiguous, geometry, metadata = options
    offset = len(text) - len(text.lstrip())
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", line=line + exc.lineno - 1,
                         column=exc.colno + (offset if exc.lineno == 1 else 0)) from None
    if not isinstance(data, dict):
        raise ParseError("expected a JSON object holding a puzzle", line=line)
    try:
        return _from_record(data, line=line, size=size, box=box, variants=variants,
                            regions=regions, contiguous=contiguous, geometry=geometry,
                            metadata=metadata)
    except FieldError as exc:
        raise ParseError(str(exc), line=line) from None


def _from_record(data: dict[str, Any], *, line: int, size: int | None, box: Any,
                 variants: Iterable[str], regions: Any, contiguous: bool,
                 geometry: Geometry | None, metadata: str) -> Puzzle:
    unknown = [k for k in data if k not in PUZZLE_FIELDS and k not in FIELDS]
    if unknown:
        raise FieldError(unknown[0], "unknown field: expected "
                                     + ", ".join([*PUZZLE_FIELDS, *FIELDS]))
    givens_text = data.get("givens")
    if givens_text is not None and not isinstance(givens_text, str):
        raise FieldError("givens", "expected the givens as one line of text, such as "
                                   "\"4.....8.5.3...\"")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise FieldError("name", "expected text")
    own = any(k in data for k in ("size", "box", "variants", "regions"))
    if geometry is None or own:
        built = _record_geometry(data, line, size, box, variants, regions, contiguous,
                                 givens_text)
        if geometry is not None and built != geometry:
            raise FieldError("size", f"the puzzle's geometry ({built.name}) differs from the "
                                     f"one asked for ({geometry.name})")
        geometry = built
    if givens_text is not None:
        try:
            givens = parse(givens_text, geometry=geometry, line=line).givens
        except ParseError as exc:
            raise FieldError("givens", exc.reason) from None
    else:
        givens = (EMPTY,) * geometry.ncells
    constraints: list[Constraint] = []
    for kind in KINDS:
        present = {k: data[k] for k in kind.keys if k in data}
        if present:
            constraints += kind.from_json(present, geometry)
    try:
        return Puzzle(geometry, givens, metadata or name or "", tuple(constraints))
    except ConstraintError as exc:
        raise FieldError(next((k for k in data if k in FIELDS), "size"), exc.reason) from None


def _record_geometry(data: dict[str, Any], line: int, size: int | None, box: Any,
                     variants: Iterable[str], regions: Any, contiguous: bool,
                     givens_text: str | None) -> Geometry:
    own_size = data.get("size")
    if own_size is not None:
        if not isinstance(own_size, int) or isinstance(own_size, bool):
            raise FieldError("size", f"expected a whole number, got {own_size!r}")
        try:
            check_size(own_size)
        except GeometryError as exc:
            raise FieldError("size", str(exc)) from None
        if size is not None and size != own_size:
            raise FieldError("size", f"{own_size}, but the size asked for is {size}")
    own_regions = data.get("regions", regions)
    if own_regions is not None and not isinstance(own_regions, str):
        raise FieldError("regions", "expected a region map: one symbol per cell, as text")
    chosen = own_size if own_size is not None else size
    if chosen is None and givens_text is not None:
        chosen = math.isqrt(len(parse(givens_text, line=line).givens))
    if chosen is None and own_regions is not None:
        chosen = math.isqrt(sum(not c.isspace() for c in own_regions))
    if chosen is None:
        raise FieldError("size", "missing: expected the grid size (or givens to tell it)")
    shape = box
    if "box" in data:
        shape = _box(data["box"])
    own_variants = data.get("variants", [])
    if not isinstance(own_variants, list) or not all(isinstance(v, str) for v in own_variants):
        raise FieldError("variants", "expected a list of variant names such as [\"diagonal\"]")
    try:
        return make_geometry(chosen, shape, [*own_variants, *variants], own_regions,
                             contiguous=contiguous)
    except GeometryError as exc:
        field = ("regions" if own_regions is not None else "variants" if own_variants
                 else "box" if "box" in data else "size")
        raise FieldError(field, str(exc)) from None


def _box(value: object) -> tuple[int, int]:
    if isinstance(value, str):
        rows, sep, cols = value.lower().partition("x")
        if sep and rows.strip().isdigit() and cols.strip().isdigit():
            return int(rows), int(cols)
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return value[0], value[1]
    raise FieldError("box", f"expected \"ROWSxCOLS\" such as \"2x3\", or [2, 3]; got {value!r}")


# -- writing ----------------------------------------------------------------------------------
def puzzle_record(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object of a puzzle (the fields of the module docstring).

    >>> from sudoku_csp import parse
    >>> puzzle_record(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4"))["cages"][0]
    {'sum': 3, 'cells': ['A1', 'A2']}
    """
    g = puzzle.geometry
    record: dict[str, Any] = {"size": g.size}
    jigsaw = "jigsaw" in g.variants
    if not jigsaw and g.box is not None and g.box != default_box_or_none(g.size):
        record["box"] = f"{g.box[0]}x{g.box[1]}"
    variants = [v for v in g.variants if v != "jigsaw"]
    if variants:
        record["variants"] = variants
    if jigsaw:
        record["regions"] = "".join(REGION_SYMBOLS[b] for b in g.boxes)
    if any(d != EMPTY for d in puzzle.givens):
        record["givens"] = format_line(g, puzzle.givens)
    for kind in KINDS:
        mine = [c for c in puzzle.constraints if type(c) is kind]
        if mine:
            record.update(kind.to_json(mine, g))
    return record


def puzzle_line(puzzle: Puzzle) -> str:
    """One line that reads back as ``puzzle``: the killer line when its only constraints are
    cages with symbols enough, else compact JSON.

    >>> from sudoku_csp import parse
    >>> puzzle_line(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4 1..............."))
    'AABBCCDDEEFFGGHH 3,7,7,3,4,6,6,4 1...............'
    """
    cages = [c for c in puzzle.constraints if isinstance(c, Cage)]
    if len(cages) == len(puzzle.constraints) and len(cages) <= len(CAGE_SYMBOLS):
        return killer_line(puzzle.geometry, cages, puzzle.givens)
    return json.dumps(puzzle_record(puzzle), separators=(",", ":"))


def killer_line(geometry: Geometry, cages: Sequence[Cage], givens: Sequence[int]) -> str:
    """The killer line of ``cages`` (and ``givens``, left out when there are none)."""
    owner = ["."] * geometry.ncells
    ordered = sorted(cages, key=lambda c: min(c.cells))  # symbols in order of first appearance
    for symbol, cage in zip(CAGE_SYMBOLS, ordered, strict=False):
        for cell in cage.cells:
            owner[cell] = symbol
    sums = ",".join("?" if c.total is None else str(c.total) for c in ordered)
    line = f"{''.join(owner)} {sums}"
    if any(d != EMPTY for d in givens):
        line += " " + format_line(geometry, givens)
    return line
