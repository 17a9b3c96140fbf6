"""Pictures of grids for notebooks and pages: :func:`grid_svg` draws one grid as an SVG
string.

Used by ``Puzzle._repr_svg_`` and ``State._repr_svg_``, so a puzzle or a candidate state
shows as a picture in Jupyter, by :mod:`sudoku_csp.logic.html` for the steps of an
explanation, and by the setter tools' results. A picture is a stack of layers, bottom first,
each drawn by its owner:

1. the ground: white, windoku windows shaded (:mod:`~sudoku_csp.render.grid`);
2. cells with no candidate left, tinted red (:mod:`~sudoku_csp.render.digits`), and the
   highlighted cells (:class:`Highlights`: what a step, a conflict or true candidates ask
   to be shown);
3. the grid's lines, thick between boxes or jigsaw regions, and its coordinates (``E4`` is
   row E, column 4), then the typed constraints' marks that lie under the digits: each kind
   draws itself the way setters draw it
   (:meth:`~sudoku_csp.constraints.base.Constraint.draw`, on the
   :class:`~sudoku_csp.canvas.Canvas` of :mod:`~sudoku_csp.render.layout`'s
   :class:`~sudoku_csp.render.layout.Sheet`), keeping the candidates of its cells clear of
   its marks; clues outside the grid stand in a ring one cell wide around it, there only
   when a constraint draws in it;
4. the highlights under the digits: unit outlines, chain links, discs;
5. the digits: givens, values, candidates (:mod:`~sudoku_csp.render.digits`), coloured by
   the highlights;
6. the highlights over the digits: eliminated candidates crossed out;
7. the constraints' marks over the digits (dots, letters, cage sums).

The picture's title names every rule the constraints add, marked in the picture or not
(:meth:`~sudoku_csp.constraints.base.Constraint.summary`). A page of many pictures of one
puzzle passes a :class:`SharedDefs`: what its pictures have in common is then defined once.
"""

from __future__ import annotations

from sudoku_csp.canvas import MARGIN
from sudoku_csp.render.grid import COORDINATE_COLOUR
from sudoku_csp.render.highlights import (
    HIGHLIGHT_FILL,
    LINK_COLOUR,
    MARK_FILL,
    PLACED_COLOUR,
    STRUCK_COLOUR,
    UNIT_COLOUR,
    ChainLink,
    Highlights,
)
from sudoku_csp.render.layout import (
    candidate_layout,
    candidate_size,
    cell_pixels,
    coordinate_size,
    grid_origin,
    outside_ring,
    picture_width,
)
from sudoku_csp.render.picture import grid_svg
from sudoku_csp.render.shared import SharedDefs

__all__ = ["COORDINATE_COLOUR", "HIGHLIGHT_FILL", "LINK_COLOUR", "MARGIN", "MARK_FILL",
           "PLACED_COLOUR", "STRUCK_COLOUR", "UNIT_COLOUR", "ChainLink", "Highlights",
           "SharedDefs", "candidate_layout", "candidate_size", "cell_pixels", "coordinate_size",
           "grid_origin", "grid_svg", "outside_ring", "picture_width"]
