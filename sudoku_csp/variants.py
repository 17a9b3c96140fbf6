"""Standard Sudoku and its variants, each a set of extra units or extra "must differ" pairs.

A variant never touches a solver: it only adds units (diagonal, windoku) or pairs
(anti-knight, anti-king) to the :class:`~sudoku_csp.geometry.Geometry`, or replaces the boxes
by jigsaw regions. Variants combine freely (``diagonal`` + ``anti-knight``).

Jigsaw regions must be contiguous (each region's cells joined through orthogonal
neighbours), as in the usual rule sets; a map whose regions come in pieces raises
:class:`~sudoku_csp.geometry.GeometryError` naming the region, unless it is asked for with
``make_geometry(..., contiguous=False)``. Region maps are text or a sequence of ints; the
library never reads a file behind a string: :func:`load_regions` turns a command-line value
(text or file name) into map text.
"""

from __future__ import annotations

import os
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sudoku_csp.geometry import (
    Geometry,
    GeometryError,
    Unit,
    UnitKind,
    box_index,
    check_size,
    default_box,
    default_box_or_none,
    line_units,
    parse_box,
    row_label,
    units_from_index,
)


@dataclass(frozen=True)
class Variant:
    """A named rule. ``units(size, box)`` gives extra units, ``pairs(size)`` extra pairs."""

    name: str
    description: str
    units: Callable[[int, tuple[int, int] | None], list[Unit]] | None = None
    pairs: Callable[[int], list[tuple[int, int]]] | None = None


def _diagonals(size: int, box: tuple[int, int] | None) -> list[Unit]:
    main = tuple(r * size + r for r in range(size))
    anti = tuple(r * size + size - 1 - r for r in range(size))
    return [Unit(UnitKind.DIAGONAL, 0, main), Unit(UnitKind.DIAGONAL, 1, anti)]


def _main_diagonal(size: int, box: tuple[int, int] | None) -> list[Unit]:
    return _diagonals(size, box)[:1]


def _anti_diagonal(size: int, box: tuple[int, int] | None) -> list[Unit]:
    return _diagonals(size, box)[1:]


def _disjoint_groups(size: int, box: tuple[int, int] | None) -> list[Unit]:
    # The cells at one position of every box: needs boxes (a jigsaw's regions have no
    # positions in common).
    if box is None:
        raise GeometryError("disjoint groups need boxes, not jigsaw regions")
    rows, cols = box
    units: list[Unit] = []
    for i in range(rows):
        for j in range(cols):
            cells = tuple((top + i) * size + left + j
                          for top in range(0, size, rows) for left in range(0, size, cols))
            units.append(Unit(UnitKind.DISJOINT, len(units), cells))
    return units


def _windows(size: int, box: tuple[int, int] | None) -> list[Unit]:
    # Windoku's extra boxes sit one cell in from the edge with one-cell gaps between them
    # (four windows on 9×9, nine on 16×16); that layout needs square boxes.
    if box is None or box[0] != box[1]:
        raise GeometryError("windoku needs square boxes (4x4, 9x9, 16x16, 25x25)")
    b = box[0]
    starts = range(1, size - b + 1, b + 1)
    units: list[Unit] = []
    for top in starts:
        for left in starts:
            cells = tuple((top + i) * size + left + j for i in range(b) for j in range(b))
            units.append(Unit(UnitKind.WINDOW, len(units), cells))
    return units


def _offset_pairs(size: int, offsets: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    pairs = []
    for r in range(size):
        for c in range(size):
            for dr, dc in offsets:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    pairs.append((r * size + c, rr * size + cc))
    return pairs


def _knight_pairs(size: int) -> list[tuple[int, int]]:
    return _offset_pairs(size, [(1, 2), (2, 1), (1, -2), (2, -1)])


def _king_pairs(size: int) -> list[tuple[int, int]]:
    return _offset_pairs(size, [(1, 1), (1, -1)])


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("jigsaw", "irregular regions replace the boxes (needs a region map)"),
        Variant("diagonal", "both main diagonals hold every digit once (Sudoku X)", _diagonals),
        Variant("main-diagonal", "the diagonal from top left to bottom right holds every "
                "digit once (f-puzzles diagonal-)", _main_diagonal),
        Variant("anti-diagonal", "the diagonal from bottom left to top right holds every "
                "digit once (f-puzzles diagonal+)", _anti_diagonal),
        Variant("disjoint", "cells at the same position in every box hold different digits "
                "(disjoint groups)", _disjoint_groups),
        Variant("windoku", "extra windows, one cell in from the edges, hold every digit once",
                _windows),
        Variant("anti-knight", "cells a chess knight's move apart differ", pairs=_knight_pairs),
        Variant("anti-king", "cells a chess king's move apart differ", pairs=_king_pairs),
    )
}
"""Every variant, in the canonical order used in geometry names."""

ALIASES = {"x": "diagonal", "hyper": "windoku", "antiknight": "anti-knight",
           "antiking": "anti-king", "regions": "jigsaw", "diagonal-": "main-diagonal",
           "diagonal+": "anti-diagonal", "disjoint-groups": "disjoint",
           "disjointgroups": "disjoint"}


def variant_name(name: str) -> str:
    """The canonical name of a variant (aliases and ``_`` accepted), or GeometryError."""
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, ALIASES.get(key.replace("-", ""), key))
    if key not in VARIANTS:
        raise GeometryError(f"unknown variant {name!r}; choose from {', '.join(VARIANTS)}")
    return key


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")


def looks_like_path(text: str) -> bool:
    """Whether a regions value reads as a file name rather than a map: one line holding a
    path separator, or ending in a file extension such as ``.txt``.

    >>> looks_like_path("maps/jigsaw.txt"), looks_like_path("aabb aabb ccdd ccdd")
    (True, False)
    """
    name = text.strip()
    if not name or "\n" in name:
        return False
    return "/" in name or "\\" in name or os.sep in name or bool(_EXTENSION.search(name))


def load_regions(value: str) -> str:
    """A ``--regions`` value as map text: the map itself, or the file it names (UTF-8, a
    leading byte order mark and ``#`` comment lines skipped). A value that looks like a file
    name (see :func:`looks_like_path`) but names no file raises GeometryError.

    >>> load_regions("aabb aabb ccdd ccdd")
    'aabb aabb ccdd ccdd'
    >>> load_regions("maps/none.txt")
    Traceback (most recent call last):
    ...
    sudoku_csp.geometry.GeometryError: no such regions file: maps/none.txt
    """
    if not os.path.isfile(value):
        if looks_like_path(value):
            raise GeometryError(f"no such regions file: {value}")
        return value
    kept = []
    with open(value, "rb") as handle:
        for number, data in enumerate(handle, start=1):
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                column = len(data[:exc.start].decode("utf-8", "replace")) + 1
                raise GeometryError(
                    f"{value}: line {number}, column {column}: not UTF-8 text (byte "
                    f"0x{data[exc.start]:02X}); save the region map as UTF-8") from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            if not line.lstrip().startswith("#"):
                kept.append(line)
    return "".join(kept)


def _not_a_map(text: str) -> GeometryError:
    if os.path.isfile(text):
        return GeometryError(f"regions {text!r} names a file: pass the map it holds "
                             f"(regions=load_regions({text!r}))")
    return GeometryError(f"no such regions file: {text.strip()}")


def parse_regions(
    text: str | Sequence[int], size: int | None = None, *, contiguous: bool = True
) -> tuple[int, ...]:
    """A jigsaw region map -> region index per cell, validated (N regions of N cells, each
    contiguous unless ``contiguous`` is False).

    ``text`` holds one symbol per cell (any non-space characters; whitespace and a leading
    byte order mark ignored), e.g. ``"1122" "1122" "3344" "3344"`` for a 4×4 with ordinary
    boxes; or a sequence of ints. Text that is no map but looks like a file name (see
    :func:`looks_like_path`) is reported as a missing regions file.

    >>> parse_regions("aabb aabb ccdd ccdd")[:4]
    (0, 0, 1, 1)
    """
    try:
        symbols, side = _region_symbols(text, size)
    except GeometryError:
        if isinstance(text, str) and looks_like_path(text):
            raise _not_a_map(text) from None
        raise
    order = {s: i for i, s in enumerate(dict.fromkeys(symbols))}
    index = tuple(order[s] for s in symbols)
    if contiguous:
        _check_contiguous(index, side, list(order))
    return index


def _region_symbols(text: str | Sequence[int], size: int | None) -> tuple[list[object], int]:
    if isinstance(text, str):
        symbols: list[object] = [ch for ch in text.removeprefix("\ufeff") if not ch.isspace()]
    else:
        symbols = list(text)
    n = len(symbols)
    side = size if size is not None else round(n ** 0.5)
    if side * side != n:
        raise GeometryError(
            f"region map has {n} cells; expected {side * side} (one symbol per cell of a "
            f"{side}x{side} grid)" if size else f"region map has {n} cells, not a square number"
        )
    counts = Counter(symbols)
    if len(counts) != side:
        raise GeometryError(f"region map has {len(counts)} regions; a {side}x{side} grid needs "
                            f"{side} regions of {side} cells")
    wrong = [f"{s!s} has {k}" for s, k in counts.items() if k != side]
    if wrong:
        raise GeometryError(f"every region needs {side} cells: region {'; '.join(wrong)}")
    return symbols, side


def _check_contiguous(index: tuple[int, ...], side: int, names: list[object]) -> None:
    """GeometryError naming the first region (in map order) whose cells are not all joined
    through orthogonal neighbours of the same region."""
    def label(cell: int) -> str:
        return f"{row_label(cell // side)}{cell % side + 1}"

    seen = [False] * len(index)
    for start, region in enumerate(index):
        if seen[start]:
            continue
        # The first cell met of each region starts a flood fill over that region; any cell of
        # the region left unvisited afterwards lies in another piece.
        seen[start] = True
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            r, c = divmod(cell, side)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = rr * side + cc
                if (0 <= rr < side and 0 <= cc < side and not seen[other]
                        and index[other] == region):
                    seen[other] = True
                    queue.append(other)
        apart = next((c for c in range(start, len(index)) if index[c] == region and not seen[c]),
                     None)
        if apart is not None:
            raise GeometryError(
                f"region {names[region]!s} is not contiguous: {label(start)} and {label(apart)} "
                "are not joined through cells of the region (to allow regions in pieces: "
                "--split-regions on the command line, contiguous=False in the library)")


def make_geometry(
    size: int = 9,
    box: tuple[int, int] | None = None,
    variants: Iterable[str] = (),
    regions: str | Sequence[int] | None = None,
    *,
    contiguous: bool = True,
) -> Geometry:
    """The geometry of an N×N puzzle, built once and cached.

    ``size`` is a whole number from 2 to 35; ``box`` is (box rows, box columns), default as
    square as possible (2×3 for 6×6); ``variants`` are names from :data:`VARIANTS`;
    ``regions`` (a region map, see :func:`parse_regions`) makes it a jigsaw, whose regions
    must each be contiguous unless ``contiguous`` is False. Anything else raises
    :class:`~sudoku_csp.geometry.GeometryError` saying what was expected.

    >>> g = make_geometry(9, variants=["diagonal", "anti-knight"])
    >>> g.name, len(g.units)
    ('9x9 diagonal anti-knight', 29)
    """
    check_size(size)
    shape = None if box is None else parse_box(box)
    names = {variant_name(v) for v in variants}
    if regions is not None:
        names.add("jigsaw")
        if not isinstance(regions, str):
            regions = tuple(regions)
    elif "jigsaw" in names:
        raise GeometryError("the jigsaw variant needs a region map (--regions)")
    if {"main-diagonal", "anti-diagonal"} <= names:  # both single diagonals: Sudoku X
        names -= {"main-diagonal", "anti-diagonal"}
        names.add("diagonal")
    if "diagonal" in names:
        names -= {"main-diagonal", "anti-diagonal"}
    ordered = tuple(v for v in VARIANTS if v in names)
    return _make(size, shape, ordered, regions, contiguous)


@lru_cache(maxsize=64)
def _make(
    size: int,
    box: tuple[int, int] | None,
    variants: tuple[str, ...],
    regions: str | tuple[int, ...] | None,
    contiguous: bool,
) -> Geometry:
    units = line_units(size)
    if regions is not None:
        if box is not None:
            raise GeometryError("give either a box shape or jigsaw regions, not both")
        boxes = parse_regions(regions, size, contiguous=contiguous)
        units += units_from_index(UnitKind.REGION, boxes)
        shape = None
    else:
        shape = box or default_box(size)
        if min(shape) < 1:
            raise GeometryError(f"box {shape[0]}x{shape[1]} does not tile a {size}x{size} grid: "
                                "box rows and columns must be at least 1")
        if shape[0] * shape[1] != size:
            raise GeometryError(f"box {shape[0]}x{shape[1]} does not tile a {size}x{size} grid: "
                                f"box rows x box columns must equal {size}")
        boxes = box_index(size, shape)
        units += units_from_index(UnitKind.BOX, boxes)
    pairs: list[tuple[int, int]] = []
    for name in variants:
        variant = VARIANTS[name]
        if variant.units:
            units += variant.units(size, shape)
        if variant.pairs:
            pairs += variant.pairs(size)
    return Geometry(size, units, boxes=boxes, box=shape, extra_pairs=pairs, variants=variants)


REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""The symbols a geometry record writes jigsaw regions with (one per region, in the order of
the regions' first cells)."""


def geometry_record(geometry: Geometry, *, compact: bool = False) -> dict[str, Any]:
    """What rebuilds ``geometry`` with :func:`geometry_from_record`: ``size``, ``box``
    (``"RxC"``; None for jigsaws), ``variants`` (jigsaw left out), ``regions`` (the region
    map, one letter of :data:`REGION_SYMBOLS` per cell; None but for jigsaws) and ``name``.
    The one serialised form of a geometry: puzzles' JSON holds it (``compact``: only what
    differs from the defaults, no name), certificates store it, DIMACS headers write it as
    comment lines.

    >>> geometry_record(make_geometry(6))
    {'size': 6, 'box': '2x3', 'variants': [], 'regions': None, 'name': '6x6'}
    >>> geometry_record(make_geometry(6, box=(3, 2), variants=["diagonal"]), compact=True)
    {'size': 6, 'box': '3x2', 'variants': ['diagonal']}
    """
    jigsaw = "jigsaw" in geometry.variants
    box = None if jigsaw or geometry.box is None else geometry.box
    record: dict[str, Any] = {
        "size": geometry.size,
        "box": None if box is None else f"{box[0]}x{box[1]}",
        "variants": [v for v in geometry.variants if v != "jigsaw"],
        "regions": "".join(REGION_SYMBOLS[b] for b in geometry.boxes) if jigsaw else None,
        "name": geometry.name,
    }
    if compact:
        if box == default_box_or_none(geometry.size):
            record["box"] = None
        del record["name"]
        record = {k: v for k, v in record.items() if v is not None and v != []}
    return record


def geometry_from_record(record: Mapping[str, Any]) -> Geometry:
    """The geometry a :func:`geometry_record` describes; ``name`` is not read (it follows
    from the rest). ``box`` may be ``"RxC"`` text or two numbers, ``regions`` a region map
    or a list of region numbers per cell (the form certificates of earlier versions hold).
    Raises :class:`~sudoku_csp.geometry.GeometryError` when the record describes no geometry.

    >>> geometry_from_record({"size": 6, "box": "3x2", "variants": ["diagonal"]}).name
    '6x6 (3x2 boxes) diagonal'
    >>> geometry_from_record({"size": 4, "box": [4]})
    Traceback (most recent call last):
    ...
    sudoku_csp.geometry.GeometryError: bad geometry record: box [4] is not two numbers
    """
    if not isinstance(record, Mapping) or "size" not in record:
        raise GeometryError(f"bad geometry record: {record!r} has no size")
    size = _whole(record["size"], "size")
    box = record.get("box")
    shape = None
    if isinstance(box, str):
        try:
            shape = parse_box(box)
        except GeometryError as exc:
            raise GeometryError(f"bad geometry record: {exc}") from None
    elif box:
        numbers = [_whole(b, "box") for b in _sequence(box, "box")]
        if len(numbers) != 2:
            raise GeometryError(f"bad geometry record: box {box!r} is not two numbers")
        shape = (numbers[0], numbers[1])
    variants = [str(v) for v in _sequence(record.get("variants") or (), "variants")]
    regions = record.get("regions")
    cells: str | tuple[int, ...] | None = (
        regions if regions is None or isinstance(regions, str)
        else tuple(_whole(r, "region") for r in _sequence(regions, "regions")))
    # A recorded geometry was valid when it was built, possibly with regions in pieces
    # (contiguous=False): rebuild it as it was rather than judge it again.
    return make_geometry(size, shape, variants, cells, contiguous=False)


def _sequence(value: object, what: str) -> Sequence[object]:
    if isinstance(value, (list, tuple)):
        return value
    raise GeometryError(f"bad geometry record: {what} {value!r} is not a list")


def _whole(value: object, what: str) -> int:
    # bool is an int, and int() would truncate 9.5 or read "9x": accept only what a record holds
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    raise GeometryError(f"bad geometry record: {what} {value!r} is not a whole number")
