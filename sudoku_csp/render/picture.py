"""One picture of a grid, composed of its layers: :func:`grid_svg`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sudoku_csp.canvas import FONT, OVER, UNDER, escape
from sudoku_csp.constraints import Constraint, by_kind
from sudoku_csp.constraints import check_all as check_constraints
from sudoku_csp.geometry import Geometry
from sudoku_csp.render.digits import Digits
from sudoku_csp.render.grid import ground, skeleton
from sudoku_csp.render.highlights import Highlights
from sudoku_csp.render.layout import Sheet
from sudoku_csp.render.shared import SharedDefs

__all__ = ["grid_svg"]


def grid_svg(
    geometry: Geometry,
    givens: Sequence[int],
    values: Sequence[int] | None = None,
    candidates: Sequence[int] | None = None,
    *,
    highlights: Highlights | None = None,
    constraints: Iterable[Constraint] = (),
    compact: bool = False,
    shared: SharedDefs | None = None,
) -> str:
    """An SVG picture of a grid.

    ``givens`` and ``values`` hold a digit (``0..N-1``) or ``EMPTY`` per cell: givens are
    drawn bold black, values that are not givens in blue. ``candidates`` holds a bitmask per
    cell (bit ``d`` set: digit ``d`` still possible); cells that are neither given nor
    filled show their candidates small, and a single candidate counts as filled.
    ``highlights``: what a step of an explanation, a conflict or true candidates ask to be
    shown (:class:`~sudoku_csp.render.highlights.Highlights`). ``constraints``: the puzzle's
    typed constraints (:mod:`sudoku_csp.constraints`), each drawn by its kind; a caller
    drawing a :class:`~sudoku_csp.puzzle.Puzzle` passes ``puzzle.constraints``.
    ``compact``: write what the digits of a kind share (size, colour, alignment) once, on a
    group around them, for pages that hold many pictures (a third of the bytes). ``shared``:
    draw what does not change from one picture of the page to the next (everything but the
    highlights, the digits in a highlight's colour and the shading of cells) with ``<use>``
    of its definitions there (implies ``compact``); the picture then shows only on a page
    that also holds ``shared.svg()``. A grid, highlight or constraint that does not fit the
    geometry is a ``ValueError``.

    >>> from sudoku_csp import EMPTY, make_geometry
    >>> g = make_geometry(4)
    >>> svg = grid_svg(g, [0] + [EMPTY] * 15, values=[0, 1] + [EMPTY] * 14,
    ...                candidates=[0b0001, 0b0010, 0b1100] + [0b1111] * 13)
    >>> svg.startswith("<svg"), svg.count('class="given"'), svg.count('class="value"')
    (True, 1, 1)
    >>> svg.count('class="candidate"')  # 2 in A3, 4 in each of the 13 open cells
    54
    >>> step = Highlights(placements=[(0, 2)], eliminations=[(1, 2), (4, 2)],
    ...                   links=[((1, 3), (5, 3), True)])
    >>> svg = grid_svg(g, [EMPTY] * 16, candidates=[0b1111] * 16, highlights=step)
    >>> svg.count('class="placed"'), svg.count('class="struck"'), svg.count('class="link-')
    (1, 2, 1)
    >>> from sudoku_csp import parse
    >>> killer = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> svg = grid_svg(killer.geometry, killer.givens, constraints=killer.constraints)
    >>> svg.count('class="cage"'), svg.count('class="cage-sum"')
    (8, 8)
    >>> svg.count('class="row-label"'), svg.count('class="col-label"')
    (4, 4)
    """
    for name, grid in (("givens", givens), ("values", values), ("candidates", candidates)):
        if grid is not None and len(grid) != geometry.ncells:
            raise ValueError(f"{name} must have {geometry.ncells} entries for a "
                             f"{geometry.name} grid, got {len(grid)}")
    highlights = highlights or Highlights()
    highlights.check(geometry)
    constraints = tuple(constraints)
    check_constraints(geometry, constraints)

    sheet = Sheet.of(geometry, constraints, compact=compact, shared=shared)
    digits = Digits.of(sheet, givens, values, candidates, constraints)
    layers = [  # bottom first, each drawn by its owner
        sheet.static(ground(sheet)),
        digits.dead(),
        highlights.shading(sheet),
        sheet.static(skeleton(sheet) + sheet.canvas.elements(UNDER)),  # and the kinds' marks
        highlights.under(sheet, digits.where),
        digits.draw(highlights),
        highlights.over(sheet, digits.where),
        sheet.static(sheet.canvas.elements(OVER)),  # the kinds' marks over the digits
    ]
    width = sheet.width
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" font-family="{FONT}">',
        f"<title>{escape(_title(geometry, constraints))}</title>",
        *(element for layer in layers for element in layer),
        "</svg>",
    ])


def _title(geometry: Geometry, constraints: Sequence[Constraint]) -> str:
    """The picture's title: the geometry's name, then every rule the constraints add, marked
    in the picture or not, kind by kind (``9x9; 12 killer cages; non-consecutive: ...``)."""
    parts = [geometry.name]
    for kind, mine in by_kind(constraints):
        parts += kind.summary(mine, geometry)
    return "; ".join(parts)
