"""The shared structure of a puzzle: cells, units and peers.

Glossary (every backend reads only these):

- *cell*: an int ``0 .. N*N-1``, row-major (cell ``r*N + c`` is row ``r``, column ``c``).
- *digit*: an int ``0 .. N-1``; shown to people as a *symbol* (``1..9`` then ``A..Z``).
- *unit*: N cells that must hold all N digits (a row, column, box, jigsaw region, diagonal,
  window). Each :class:`Unit` carries its ``kind`` (the built-in kinds: :class:`UnitKind`).
- *extra pair*: two cells that must differ without sharing a unit (anti-knight, anti-king).
- *peers*: for a cell, every other cell that must hold a different digit.
- *candidate*: ``(cell, digit)``, one pencil mark (:data:`Candidate`).

A :class:`Geometry` is built once per (size, box shape, variants) and shared by puzzles and
solvers; it is immutable, hashable and cheap to compare.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sudoku_csp.errors import InputError

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Symbols of digits 0, 1, 2, ... in one-character forms; sizes above 35 use numbers only."""

MAX_SIZE = 35
MIN_SIZE = 2  # a unit of one cell says nothing; 2x2 is the smallest (jigsaw) grid

Cell = int
Grid = tuple[int, ...]
"""N*N digits (``0..N-1``) or ``EMPTY``; row-major."""
Candidate = tuple[int, int]
"""``(cell, digit)``: one pencil mark."""

EMPTY = -1


class UnitKind(str, enum.Enum):
    """The kinds of unit the built-in geometries make. A :class:`Unit` built by hand may name
    another kind (its ``kind`` is any string; these compare equal to their values).

    >>> UnitKind.ROW == "row", f"{UnitKind.BOX} 5"
    (True, 'box 5')
    """

    ROW = "row"
    COLUMN = "column"
    BOX = "box"
    REGION = "region"  # a jigsaw region, where the boxes would be
    DIAGONAL = "diagonal"
    WINDOW = "window"
    DISJOINT = "disjoint group"  # the cells at one position of every box

    def __str__(self) -> str:
        return self.value


LINE_KINDS = (UnitKind.ROW, UnitKind.COLUMN)
"""Rows and columns."""
BOX_KINDS = (UnitKind.BOX, UnitKind.REGION)
"""The kinds that tile the grid in blocks: boxes, or the jigsaw regions that replace them."""


class GeometryError(InputError):
    """An impossible geometry: a size with no box shape, a bad region map, an unknown variant."""


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first: the digits of a candidate mask,
    the cells of a cell mask.

    >>> bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def check_size(size: object) -> int:
    """``size`` if it is a grid size (a whole number from :data:`MIN_SIZE` to
    :data:`MAX_SIZE`), else GeometryError saying what a size is.

    >>> check_size(9)
    9
    >>> check_size(-9)
    Traceback (most recent call last):
    ...
    sudoku_csp.geometry.GeometryError: size must be between 2 and 35 (cells in a row), got -9
    """
    # bool is an int, and a float such as 9.0 would pass the range test only to fail later
    # inside range(): accept exactly what a size is.
    if not isinstance(size, int) or isinstance(size, bool):
        raise GeometryError(f"size must be a whole number between {MIN_SIZE} and {MAX_SIZE}, "
                            f"got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise GeometryError(
            f"size must be between {MIN_SIZE} and {MAX_SIZE} (cells in a row), got {size}")
    return size


@dataclass(frozen=True)
class Unit:
    """N cells that must hold N different digits; ``kind`` says where it comes from."""

    kind: str
    index: int
    cells: tuple[Cell, ...]

    @property
    def name(self) -> str:
        return f"{self.kind} {self.index + 1}"


def default_box(size: int) -> tuple[int, int]:
    """The box shape (rows, columns) used when none is given: as square as possible.

    >>> default_box(9), default_box(6), default_box(12)
    ((3, 3), (2, 3), (3, 4))
    """
    rows = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if rows == 1 and size > 1:
        raise GeometryError(
            f"size {size} has no box shape (it is prime); give a jigsaw region map instead"
        )
    return rows, size // rows


def parse_box(value: object) -> tuple[int, int]:
    """A box shape given as ``"RxC"`` text (``"2x3"``, any case, spaces allowed) or as two whole
    numbers (a list or tuple): ``(rows, columns)``; GeometryError saying what a shape is.
    Whether it tiles a grid is :func:`~sudoku_csp.variants.make_geometry`'s to check.

    >>> parse_box("2x3"), parse_box([3, 2])
    ((2, 3), (3, 2))
    >>> parse_box("2by3")
    Traceback (most recent call last):
    ...
    sudoku_csp.geometry.GeometryError: box '2by3': expected ROWSxCOLS such as 3x3 or 2x3
    """
    if isinstance(value, str):
        rows, sep, cols = value.lower().partition("x")
        if sep and rows.strip().isdigit() and cols.strip().isdigit():
            return int(rows), int(cols)
        raise GeometryError(f"box {value!r}: expected ROWSxCOLS such as 3x3 or 2x3")
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return value[0], value[1]
    raise GeometryError(f"box must be two whole numbers (rows, columns) such as [2, 3], or "
                        f"ROWSxCOLS text such as \"2x3\"; got {value!r}")


def symbol(digit: int) -> str:
    """The one-character symbol of a digit (``0 -> '1'``), ``'.'`` for EMPTY.

    >>> symbol(0), symbol(9), symbol(EMPTY)
    ('1', 'A', '.')
    """
    return "." if digit == EMPTY else SYMBOLS[digit]


def row_label(row: int) -> str:
    """``A``, ``B``, ... ``Z``, ``AA``, ``AB``, ... (spreadsheet style)."""
    label = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


class Geometry:
    """Cells, units, extra pairs and peers of an N×N puzzle.

    Build standard and variant geometries with :func:`sudoku_csp.variants.make_geometry`;
    this constructor takes the parts directly, for researchers who invent a new rule.

    ``boxes[cell]`` is the index of the box (or jigsaw region) holding ``cell``; it is what
    renderers draw thick borders around. ``box`` is the box shape, or ``None`` for jigsaws.

    >>> from sudoku_csp import make_geometry
    >>> g = make_geometry(9)
    >>> len(g.units), len(g.peers[0]), g.label(80)
    (27, 20, 'I9')
    """

    __slots__ = (
        "size",
        "box",
        "variants",
        "units",
        "extra_pairs",
        "boxes",
        "peers",
        "cell_units",
        "name",
        "_key",
        "_hash",
    )

    def __init__(
        self,
        size: int,
        units: Iterable[Unit],
        *,
        boxes: Sequence[int],
        box: tuple[int, int] | None = None,
        extra_pairs: Iterable[tuple[Cell, Cell]] = (),
        variants: Sequence[str] = (),
    ) -> None:
        check_size(size)
        ncells = size * size
        self.size = size
        self.box = box
        self.variants = tuple(variants)
        self.units = tuple(units)
        self.boxes = tuple(boxes)
        if len(self.boxes) != ncells:
            raise GeometryError(f"boxes must name a box for each of the {ncells} cells")
        for unit in self.units:
            if len(set(unit.cells)) != size or not all(0 <= c < ncells for c in unit.cells):
                raise GeometryError(f"{unit.name} must hold {size} distinct cells of the grid")

        mates: list[set[int]] = [set() for _ in range(ncells)]
        cell_units: list[list[int]] = [[] for _ in range(ncells)]
        for u, unit in enumerate(self.units):
            for cell in unit.cells:
                mates[cell].update(unit.cells)
                cell_units[cell].append(u)
        # An extra pair already implied by a shared unit adds no constraint: keep only the new
        # ones, so that counts of pairs (and of CNF clauses built from them) mean something.
        pairs = set()
        for a, b in extra_pairs:
            if a == b or not (0 <= a < ncells and 0 <= b < ncells):
                raise GeometryError(f"extra pair ({a}, {b}) must join two different cells")
            if b not in mates[a]:
                pairs.add((min(a, b), max(a, b)))
        self.extra_pairs = tuple(sorted(pairs))
        for a, b in self.extra_pairs:
            mates[a].add(b)
            mates[b].add(a)
        self.peers = tuple(tuple(sorted(m - {c})) for c, m in enumerate(mates))
        self.cell_units = tuple(tuple(us) for us in cell_units)

        shape = f"{size}x{size}"
        if box is not None and box != default_box_or_none(size):
            shape += f" ({box[0]}x{box[1]} boxes)"
        self.name = " ".join([shape, *self.variants]) if self.variants else shape
        self._key = (
            size,
            box,
            self.variants,
            tuple((u.kind, u.cells) for u in self.units),
            self.extra_pairs,
        )
        self._hash = hash(self._key)

    # -- identity -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Geometry):
            return NotImplemented
        return self._hash == other._hash and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"<Geometry {self.name}: {len(self.units)} units, {len(self.extra_pairs)} pairs>"

    def __reduce__(self):
        # Pickle by structure (for worker processes); the derived tables are rebuilt.
        return (
            _rebuild,
            (self.size, self.units, self.boxes, self.box, self.extra_pairs, self.variants),
        )

    # -- shape ----------------------------------------------------------------------------
    @property
    def ncells(self) -> int:
        return self.size * self.size

    @property
    def symbols(self) -> str:
        """The symbols of digits ``0..N-1`` (empty for sizes beyond :data:`SYMBOLS`)."""
        return SYMBOLS[: self.size]

    def row(self, cell: Cell) -> int:
        return cell // self.size

    def col(self, cell: Cell) -> int:
        return cell % self.size

    def label(self, cell: Cell) -> str:
        """Display label: row letter(s), then 1-based column (``A1`` .. ``I9`` for 9×9)."""
        return f"{row_label(cell // self.size)}{cell % self.size + 1}"

    def units_of_kind(self, kind: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.kind == kind)

    def are_peers(self, a: Cell, b: Cell) -> bool:
        return b in self.peers[a]

    def seen_before(self, cells: Sequence[Cell]) -> tuple[tuple[int, ...], ...]:
        """Per place ``i`` of ``cells``, the earlier places whose cells see its cell.

        >>> from sudoku_csp.variants import make_geometry
        >>> make_geometry(9).seen_before((0, 1, 80))   # A1, A2 (row A), I9
        ((), (0,), ())
        """
        return tuple(tuple(j for j in range(i) if self.are_peers(cells[i], cells[j]))
                     for i in range(len(cells)))


def default_box_or_none(size: int) -> tuple[int, int] | None:
    try:
        return default_box(size)
    except GeometryError:
        return None


@lru_cache(maxsize=64)
def _rebuild(size, units, boxes, box, extra_pairs, variants) -> Geometry:
    # Once per structure in a process: a worker that receives a puzzle per task (a race's
    # member, the batch runner's chunks) would otherwise rebuild the tables each time (about
    # 0.6 ms for a 9×9 grid), and its solvers are cached per geometry anyway.
    return Geometry(
        size, units, boxes=boxes, box=box, extra_pairs=extra_pairs, variants=variants
    )


def line_units(size: int) -> list[Unit]:
    """The N rows and N columns of an N×N grid."""
    rows = [Unit(UnitKind.ROW, r, tuple(range(r * size, (r + 1) * size))) for r in range(size)]
    cols = [Unit(UnitKind.COLUMN, c, tuple(range(c, size * size, size))) for c in range(size)]
    return rows + cols


def box_index(size: int, box: tuple[int, int]) -> tuple[int, ...]:
    """For each cell, the index of its box (boxes numbered row-major)."""
    box_rows, box_cols = box
    per_band = size // box_cols
    return tuple(
        (cell // size // box_rows) * per_band + (cell % size) // box_cols
        for cell in range(size * size)
    )


def units_from_index(kind: str, index: Sequence[int]) -> list[Unit]:
    """One unit per distinct value of ``index`` (cells in row-major order)."""
    groups: dict[int, list[int]] = {}
    for cell, i in enumerate(index):
        groups.setdefault(i, []).append(cell)
    return [Unit(kind, i, tuple(groups[k])) for i, k in enumerate(sorted(groups))]

