"""Where a picture's parts go: the size of a cell, of its candidates and of the coordinates
around the grid, the room kept for clues outside it, and the :class:`Sheet` every layer of
one picture is drawn on.

>>> cell_pixels(9), grid_origin(9), picture_width(9)
(40, 20, 383)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_csp.canvas import MARGIN, Canvas
from sudoku_csp.constraints import Constraint
from sudoku_csp.geometry import Geometry
from sudoku_csp.render.shared import SharedDefs

__all__ = ["Sheet", "candidate_layout", "candidate_size", "cell_pixels", "coordinate_size",
           "grid_origin", "outside_ring", "picture_width"]


def cell_pixels(size: int) -> int:
    """The side of one cell in pixels: 40 up to 9×9; 44 up to 16×16, whose cells hold up to
    4×4 candidates (8.8 px type); 30 beyond, to keep the picture on a screen."""
    if size <= 9:
        return 40
    if size <= 16:
        return 44
    return 30


def candidate_size(geometry: Geometry) -> float:
    """The font size of a candidate in a cell that no constraint mark squeezes."""
    rows, cols = candidate_layout(geometry)
    side = cell_pixels(geometry.size)
    return min(side / cols, side / rows) * 0.8


def coordinate_size(size: int) -> float:
    """The font size of the row letters and column numbers of an ``size``×``size`` grid."""
    return min(13.0, max(9.0, cell_pixels(size) * 0.3))


def grid_origin(size: int) -> int:
    """Pixels from the picture's left (and top) edge to the grid's: the margin and the room
    of the row letters (``AA`` … ``AI`` beyond 26 rows) and column numbers."""
    font = coordinate_size(size)
    widest = 1.45 if size > 26 else 0.95  # em: "AH", "W"
    return MARGIN + math.ceil(max(font + 4, widest * font + 5))


def picture_width(size: int, ring: int = 0) -> int:
    """The width (and height) of the picture of an ``size``×``size`` grid in pixels, with
    ``ring`` pixels around the grid for clues outside it (:func:`outside_ring`)."""
    return grid_origin(size) + size * cell_pixels(size) + 2 * ring + MARGIN


def outside_ring(size: int) -> int:
    """The room kept on every side of the grid when a puzzle has clues outside it: one
    cell, as in f-puzzles (corners included: a little killer may stand there)."""
    return cell_pixels(size)


def candidate_layout(geometry: Geometry) -> tuple[int, int]:
    """(rows, columns) of the sub-grid that holds a cell's candidates: the box shape when
    there is one (3×3 for 9×9), else as square as possible (jigsaws)."""
    if geometry.box is not None:
        return geometry.box
    columns = math.isqrt(geometry.size - 1) + 1 if geometry.size > 1 else 1
    return -(-geometry.size // columns), columns


@dataclass(frozen=True)
class Sheet:
    """One picture being drawn: its grid's ``geometry``; the ``canvas`` that knows where
    everything goes, with every typed constraint already drawn on it (their marks are two of
    the picture's layers, and the room they keep clear moves the candidates); and how the
    layers are written: ``compact`` (what the elements of a kind share written once, on a
    group around them) and ``shared`` (what every picture of a page has in common drawn
    with ``<use>`` of its definitions there, :meth:`static`).

    >>> from sudoku_csp import make_geometry
    >>> sheet = Sheet.of(make_geometry(4), ())
    >>> sheet.width, sheet.canvas.ring, sheet.static(["<g/>"])
    (183, 0, ['<g/>'])
    """

    geometry: Geometry
    canvas: Canvas
    compact: bool = False
    shared: SharedDefs | None = None

    @classmethod
    def of(cls, geometry: Geometry, constraints: Sequence[Constraint], *,
           compact: bool = False, shared: SharedDefs | None = None) -> Sheet:
        """The sheet of a picture of ``geometry`` with ``constraints`` drawn; ``shared``
        implies ``compact``. A constraint that draws outside the grid gets the ring's room
        around it (:func:`outside_ring`): the canvas is then drawn again with it."""
        canvas = _drawn(geometry, constraints, 0)
        if canvas.outside:
            canvas = _drawn(geometry, constraints, outside_ring(geometry.size))
        return cls(geometry, canvas, compact or shared is not None, shared)

    @property
    def width(self) -> int:
        """The width (and height) of the picture in pixels."""
        return picture_width(self.geometry.size, self.canvas.ring)

    def static(self, elements: list[str]) -> list[str]:
        """Elements every picture of the page draws alike: one ``<use>`` of them when the
        page shares its definitions, else the elements themselves."""
        if self.shared is None or not elements:
            return elements
        return [self.shared.use("".join(elements))]


def _drawn(geometry: Geometry, constraints: Sequence[Constraint], ring: int) -> Canvas:
    """The canvas of the picture, ``ring`` pixels kept around the grid, with every
    constraint drawn on it (before the digits: the pads they keep move candidates)."""
    n = geometry.size
    canvas = Canvas(n, cell_pixels(n), *candidate_layout(geometry),
                    origin=grid_origin(n) + ring, ring=ring)
    for constraint in constraints:
        constraint.draw(canvas)
    return canvas
