"""The JSON form of a puzzle: one object per puzzle (a ``.jsonl`` file holds one per line)::

    {"size": 9, "box": "3x3", "variants": ["diagonal"], "givens": "....5....",
     "cages": [{"sum": 15, "cells": ["A1", "A2"]}], "thermos": [["B1", "B2", "C3"]],
     "dots": {"white": [["D1", "D2"]], "black": [], "negative": false},
     "xv": {"x": [["E1", "E2"]], "v": [], "negative": false},
     "nonconsecutive": true, "odd": ["F1"], "even": ["F2"], "name": "my puzzle"}

The geometry fields (``size``, ``box`` as ``"RxC"`` or ``[R, C]``, ``variants``, ``regions``
a jigsaw map) are the geometry record (:func:`~sudoku_csp.variants.geometry_record`), written
compact: only what differs from the defaults; ``split_regions``, true, allows regions in
pieces (as ``--split-regions`` does; f-puzzles draws them), which are otherwise refused as a
map's likely typo. ``givens`` is one line of grid text, ``name``
free text kept as the puzzle's metadata. Every other field belongs to a constraint kind
(:data:`~sudoku_csp.constraints.FIELDS`), which reads and writes it itself. Every field is
optional but ``size`` (which ``givens`` or ``regions`` can stand for). The geometry options
of the command (``--size``, ``--variant``, ...) add to the object's.

Cells are labels (row letters, then the 1-based column). An unknown field is an error naming
it: a rule this reader does not know is never dropped. Every error is a
:class:`~sudoku_csp.errors.ParseError` naming the line and the field, and what was expected.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from sudoku_csp.constraints import KINDS, Constraint, ConstraintError, FieldError, fields
from sudoku_csp.constraints.registry import json_readers
from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, check_size, parse_box
from sudoku_csp.io.grid import format_line, parse_grid
from sudoku_csp.io.options import NO_OPTIONS, ReadOptions
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import geometry_record, parse_regions

__all__ = ["PUZZLE_FIELDS", "is_json", "json_line", "parse_json", "puzzle_record"]

PUZZLE_FIELDS = ("size", "box", "variants", "regions", "split_regions", "givens", "name")
"""The fields of every puzzle; each other field is a constraint kind's."""
_GEOMETRY_FIELDS = PUZZLE_FIELDS[:5]


def is_json(text: str) -> bool:
    """Whether puzzle text is the JSON form (it starts with ``{``)."""
    return text.lstrip().startswith("{")


def parse_json(text: str, options: ReadOptions, line: int = 1, metadata: str = "") -> Puzzle:
    """The puzzle of a JSON object (see the module docstring); ``line`` numbers its line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:  # its place counts the text's leading spaces too
        raise ParseError(f"not valid JSON: {exc.msg}", line=line + exc.lineno - 1,
                         column=exc.colno) from None
    except ValueError:  # a number of thousands of digits, which Python will not convert
        raise ParseError("not a puzzle: a number of thousands of digits", line=line) from None
    except RecursionError:
        raise ParseError("not a puzzle: JSON nested hundreds of levels deep", line=line) from None
    if not isinstance(data, dict):
        raise ParseError("expected a JSON object holding a puzzle", line=line)
    try:
        return _from_record(data, options, line, metadata)
    except FieldError as exc:
        raise ParseError(str(exc), line=line) from None


def _from_record(data: dict[str, Any], options: ReadOptions, line: int,
                 metadata: str) -> Puzzle:
    # Only the kinds the record names are imported (start-up); a field none reads is
    # refused with every kind's fields listed.
    kinds = json_readers(k for k in data if k not in PUZZLE_FIELDS)
    owned = {field: kind for kind in kinds for field in kind.names.json}
    unknown = [k for k in data if k not in PUZZLE_FIELDS and k not in owned]
    if unknown:
        raise FieldError(unknown[0], "unknown field: expected "
                                     + ", ".join([*PUZZLE_FIELDS, *fields()]))
    givens_text = data.get("givens")
    if givens_text is not None and not isinstance(givens_text, str):
        raise FieldError("givens", "expected the givens as one line of text, such as "
                                   "\"4.....8.5.3...\"")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise FieldError("name", "expected text")
    geometry = options.geometry
    if geometry is None or any(k in data for k in _GEOMETRY_FIELDS):
        built = _record_geometry(data, options, line, givens_text)
        if geometry is not None and built != geometry:
            raise FieldError("size", f"the puzzle's geometry ({built.name}) differs from the "
                                     f"one asked for ({geometry.name})")
        geometry = built
    if givens_text is not None:
        try:
            givens = parse_grid(givens_text, ReadOptions(geometry=geometry), line).givens
        except ParseError as exc:
            raise FieldError("givens", exc.reason) from None
    else:
        givens = (EMPTY,) * geometry.ncells
    constraints: list[Constraint] = []
    for kind in kinds:
        present = {k: data[k] for k in kind.names.json if k in data}
        if present:
            constraints += kind.from_json(present, geometry)
    try:
        return Puzzle(geometry, givens, metadata or name or "", tuple(constraints))
    except ConstraintError as exc:
        raise FieldError(next((k for k in data if k in owned), "size"), exc.reason) from None


def _record_geometry(data: dict[str, Any], options: ReadOptions, line: int,
                     givens_text: str | None) -> Geometry:
    size = options.size
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
    own_regions = data.get("regions", options.regions)
    if own_regions is not None and not isinstance(own_regions, str):
        raise FieldError("regions", "expected a region map: one symbol per cell, as text")
    split = data.get("split_regions", False)
    if not isinstance(split, bool):
        raise FieldError("split_regions", f"expected true or false, got {split!r}")
    if split and own_regions is None:
        raise FieldError("split_regions", "regions in pieces, but no regions: expected a "
                                          "region map beside it")
    if split:
        options = options._replace(contiguous=False)
    chosen = own_size if own_size is not None else size
    if chosen is None and givens_text is not None:
        chosen = math.isqrt(len(parse_grid(givens_text, NO_OPTIONS, line).givens))
    if chosen is None and own_regions is not None:
        chosen = math.isqrt(sum(not c.isspace() for c in own_regions))
    if chosen is None:
        raise FieldError("size", "missing: expected the grid size (or givens to tell it)")
    shape = options.box
    if "box" in data:
        try:
            shape = parse_box(data["box"])
        except GeometryError as exc:
            raise FieldError("box", str(exc)) from None
    own_variants = data.get("variants", [])
    if not isinstance(own_variants, list) or not all(isinstance(v, str) for v in own_variants):
        raise FieldError("variants", "expected a list of variant names such as [\"diagonal\"]")
    try:
        return options.build(chosen, line, box=shape, variants=own_variants,
                             regions=own_regions)
    except ParseError as exc:
        field = ("regions" if own_regions is not None else "variants" if own_variants
                 else "box" if "box" in data else "size")
        raise FieldError(field, exc.reason) from None


def puzzle_record(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object of a puzzle (the fields of the module docstring).

    >>> from sudoku_csp import parse
    >>> puzzle_record(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4"))["cages"][0]
    {'sum': 3, 'cells': ['A1', 'A2']}
    """
    g = puzzle.geometry
    record = geometry_record(g, compact=True)
    if "regions" in record:
        try:
            parse_regions(record["regions"], g.size)
        except GeometryError:  # a region in pieces, which a map is refused for by default
            record["split_regions"] = True
    if any(d != EMPTY for d in puzzle.givens):
        record["givens"] = format_line(g, puzzle.givens)
    for kind in KINDS:
        mine: Sequence[Constraint] = [c for c in puzzle.constraints if type(c) is kind]
        if mine:
            record.update(kind.to_json(mine, g))
    return record


def json_line(puzzle: Puzzle) -> str:
    """The compact one-line JSON of ``puzzle``."""
    return json.dumps(puzzle_record(puzzle), separators=(",", ":"))
