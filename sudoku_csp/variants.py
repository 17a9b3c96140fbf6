"""Standard Sudoku and its variants, each a set of extra units or extra "must differ" pairs.

A variant never touches a solver: it only adds units (diagonal, windoku) or pairs
(anti-knight, anti-king) to the :class:`~sudoku_csp.geometry.Geometry`, or replaces the boxes
by jigsaw regions. Variants combine freely (``diagonal`` + ``anti-knight``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sudoku_csp.geometry import (
    MAX_SIZE,
    MIN_SIZE,
    Geometry,
    GeometryError,
    Unit,
    box_index,
    default_box,
    line_units,
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
    return [Unit("diagonal", 0, main), Unit("diagonal", 1, anti)]


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
            units.append(Unit("window", len(units), cells))
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
        Variant("windoku", "extra windows, one cell in from the edges, hold every digit once",
                _windows),
        Variant("anti-knight", "cells a chess knight's move apart differ", pairs=_knight_pairs),
        Variant("anti-king", "cells a chess king's move apart differ", pairs=_king_pairs),
    )
}
"""Every variant, in the canonical order used in geometry names."""

ALIASES = {"x": "diagonal", "hyper": "windoku", "antiknight": "anti-knight",
           "antiking": "anti-king", "regions": "jigsaw"}


def variant_name(name: str) -> str:
    """The canonical name of a variant (aliases and ``_`` accepted), or GeometryError."""
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, ALIASES.get(key.replace("-", ""), key))
    if key not in VARIANTS:
        raise GeometryError(f"unknown variant {name!r}; choose from {', '.join(VARIANTS)}")
    return key


def parse_regions(text: str | Sequence[int], size: int | None = None) -> tuple[int, ...]:
    """A jigsaw region map -> region index per cell, validated (N regions of N cells).

    ``text`` holds one symbol per cell (any non-space characters; whitespace ignored), e.g.
    ``"1122" "1122" "3344" "3344"`` for a 4×4 with ordinary boxes; or a sequence of ints.

    >>> parse_regions("aabb aabb ccdd ccdd")[:4]
    (0, 0, 1, 1)
    """
    if isinstance(text, str):
        symbols: Sequence[object] = [ch for ch in text if not ch.isspace()]
    else:
        symbols = list(text)
    n = len(symbols)
    side = size if size is not None else round(n ** 0.5)
    if side * side != n:
        raise GeometryError(
            f"region map has {n} cells; expected {side * side} (one symbol per cell of a "
            f"{side}x{side} grid)" if size else f"region map has {n} cells, not a square number"
        )
    order = {s: i for i, s in enumerate(dict.fromkeys(symbols))}
    counts = Counter(symbols)
    if len(order) != side:
        raise GeometryError(f"region map has {len(order)} regions; a {side}x{side} grid needs "
                            f"{side} regions of {side} cells")
    wrong = [f"{s!s} has {k}" for s, k in counts.items() if k != side]
    if wrong:
        raise GeometryError(f"every region needs {side} cells: region {'; '.join(wrong)}")
    return tuple(order[s] for s in symbols)


def make_geometry(
    size: int = 9,
    box: tuple[int, int] | None = None,
    variants: Iterable[str] = (),
    regions: str | Sequence[int] | None = None,
) -> Geometry:
    """The geometry of an N×N puzzle, built once and cached.

    ``box`` is (box rows, box columns), default as square as possible (2×3 for 6×6);
    ``variants`` are names from :data:`VARIANTS`; ``regions`` (a region map, see
    :func:`parse_regions`) makes it a jigsaw.

    >>> g = make_geometry(9, variants=["diagonal", "anti-knight"])
    >>> g.name, len(g.units)
    ('9x9 diagonal anti-knight', 29)
    """
    names = {variant_name(v) for v in variants}
    if regions is not None:
        names.add("jigsaw")
        if not isinstance(regions, str):
            regions = tuple(regions)
    elif "jigsaw" in names:
        raise GeometryError("the jigsaw variant needs a region map (--regions)")
    ordered = tuple(v for v in VARIANTS if v in names)
    return _make(size, tuple(box) if box else None, ordered, regions)


@lru_cache(maxsize=64)
def _make(
    size: int,
    box: tuple[int, int] | None,
    variants: tuple[str, ...],
    regions: str | tuple[int, ...] | None,
) -> Geometry:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise GeometryError(f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")
    units = line_units(size)
    if regions is not None:
        if box is not None:
            raise GeometryError("give either a box shape or jigsaw regions, not both")
        boxes = parse_regions(regions, size)
        units += units_from_index("region", boxes)
        shape = None
    else:
        shape = box or default_box(size)
        if shape[0] * shape[1] != size or min(shape) < 1:
            raise GeometryError(
                f"box {shape[0]}x{shape[1]} does not tile a {size}x{size} grid "
                f"(box rows x box columns must equal {size})"
            )
        boxes = box_index(size, shape)
        units += units_from_index("box", boxes)
    pairs: list[tuple[int, int]] = []
    for name in variants:
        variant = VARIANTS[name]
        if variant.units:
            units += variant.units(size, shape)
        if variant.pairs:
            pairs += variant.pairs(size)
    return Geometry(size, units, boxes=boxes, box=shape, extra_pairs=pairs, variants=variants)


def geometry_record(geometry: Geometry) -> dict[str, Any]:
    """What rebuilds ``geometry`` with :func:`make_geometry`: size, box, variants (jigsaw left
    out) and the region of every cell (jigsaws only). The one serialised form of a geometry:
    certificates store it as JSON, DIMACS headers as comment lines.

    >>> geometry_record(make_geometry(6))
    {'size': 6, 'box': [2, 3], 'variants': [], 'regions': None, 'name': '6x6'}
    """
    jigsaw = "jigsaw" in geometry.variants
    return {
        "size": geometry.size,
        "box": None if jigsaw or geometry.box is None else list(geometry.box),
        "variants": [v for v in geometry.variants if v != "jigsaw"],
        "regions": list(geometry.boxes) if jigsaw else None,
        "name": geometry.name,
    }


def geometry_from_record(record: Mapping[str, Any]) -> Geometry:
    """The geometry a :func:`geometry_record` describes; ``name`` is not read (it follows
    from the rest). Numbers may be ints (JSON) or digit strings (DIMACS comments). Raises
    :class:`~sudoku_csp.geometry.GeometryError` when the record describes no geometry.

    >>> geometry_from_record({"size": 6, "box": [3, 2], "variants": ["diagonal"]}).name
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
    if box:
        numbers = [_whole(b, "box") for b in _sequence(box, "box")]
        if len(numbers) != 2:
            raise GeometryError(f"bad geometry record: box {box!r} is not two numbers")
        shape = (numbers[0], numbers[1])
    variants = [str(v) for v in _sequence(record.get("variants") or (), "variants")]
    regions = record.get("regions")
    cells = (None if regions is None
             else tuple(_whole(r, "region") for r in _sequence(regions, "regions")))
    return make_geometry(size, shape, variants, cells)


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
