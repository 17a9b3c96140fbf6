"""Pictures of grids for notebooks: :func:`grid_svg` draws one grid as an SVG string.

Used by ``Puzzle._repr_svg_`` and ``State._repr_svg_``, so a puzzle or a candidate state
shows as a picture in Jupyter. What is drawn:

- thin lines between cells, thick lines wherever two neighbouring cells lie in different
  boxes (read from ``geometry.boxes``, so jigsaw regions get thick borders too);
- givens in bold black, filled-in digits in blue;
- for a cell that is neither given nor filled, its candidates (when given) as small symbols
  in a sub-grid of the cell; a cell with no candidate left is tinted red;
- windoku windows shaded, diagonals of the diagonal variant as faint lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from sudoku_csp.geometry import EMPTY, Geometry

__all__ = ["candidate_layout", "cell_pixels", "grid_svg"]

MARGIN = 3
GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1f5fbf"
CANDIDATE_COLOUR = "#555555"
LINE_COLOUR = "#999999"
BORDER_COLOUR = "#000000"
WINDOW_FILL = "#e8e8e8"
DEAD_FILL = "#f8d0d0"
FONT = "sans-serif"


def cell_pixels(size: int) -> int:
    """The side of one cell in pixels: smaller cells for larger grids."""
    if size <= 9:
        return 40
    if size <= 16:
        return 34
    return 30


def candidate_layout(geometry: Geometry) -> tuple[int, int]:
    """(rows, columns) of the sub-grid that holds a cell's candidates: the box shape when
    there is one (3×3 for 9×9), else as square as possible (jigsaws)."""
    if geometry.box is not None:
        return geometry.box
    columns = math.isqrt(geometry.size - 1) + 1 if geometry.size > 1 else 1
    return -(-geometry.size // columns), columns


def _symbol(geometry: Geometry, digit: int) -> str:
    symbols = geometry.symbols
    return symbols[digit] if digit < len(symbols) else str(digit + 1)


def _text(x: float, y: float, content: str, size: float, cls: str, colour: str,
          bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" '
            f'fill="{colour}"{weight} text-anchor="middle" dominant-baseline="central">'
            f"{escape(content)}</text>")


def grid_svg(
    geometry: Geometry,
    givens: Sequence[int],
    values: Sequence[int] | None = None,
    candidates: Sequence[int] | None = None,
) -> str:
    """An SVG picture of a grid.

    ``givens`` and ``values`` hold a digit (``0..N-1``) or ``EMPTY`` per cell: givens are
    drawn bold black, values that are not givens in blue. ``candidates`` holds a bitmask per
    cell (bit ``d`` set: digit ``d`` still possible); cells that are neither given nor
    filled show their candidates small, and a single candidate counts as filled.

    >>> from sudoku_csp import make_geometry
    >>> g = make_geometry(4)
    >>> svg = grid_svg(g, [0] + [EMPTY] * 15, values=[0, 1] + [EMPTY] * 14,
    ...                candidates=[0b0001, 0b0010, 0b1100] + [0b1111] * 13)
    >>> svg.startswith("<svg"), svg.count('class="given"'), svg.count('class="value"')
    (True, 1, 1)
    >>> svg.count('class="candidate"')  # 2 in A3, 4 in each of the 13 open cells
    54
    """
    n, ncells = geometry.size, geometry.ncells
    for name, grid in (("givens", givens), ("values", values), ("candidates", candidates)):
        if grid is not None and len(grid) != ncells:
            raise ValueError(f"{name} must have {ncells} entries for a {geometry.name} grid, "
                             f"got {len(grid)}")
    side = cell_pixels(n)
    width = n * side + 2 * MARGIN
    thin = 1.0
    thick = 3.0 if n <= 16 else 2.5

    def x0(col: int) -> int:
        return MARGIN + col * side

    def y0(row: int) -> int:
        return MARGIN + row * side

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" font-family="{FONT}">',
        f"<title>{escape(geometry.name)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{width}" fill="#ffffff"/>',
    ]

    # Shading first, so that lines and digits are drawn over it.
    for unit in geometry.units:
        if unit.kind == "window":
            for cell in unit.cells:
                r, c = divmod(cell, n)
                out.append(f'<rect class="window" x="{x0(c)}" y="{y0(r)}" width="{side}" '
                           f'height="{side}" fill="{WINDOW_FILL}"/>')
    if candidates is not None:
        for cell, mask in enumerate(candidates):
            if mask == 0:
                r, c = divmod(cell, n)
                out.append(f'<rect class="dead" x="{x0(c)}" y="{y0(r)}" width="{side}" '
                           f'height="{side}" fill="{DEAD_FILL}"/>')
    if geometry.units_of_kind("diagonal"):
        far = MARGIN + n * side
        out.append(f'<path class="diagonal" d="M{MARGIN} {MARGIN}L{far} {far}M{far} {MARGIN}'
                   f'L{MARGIN} {far}" stroke="{LINE_COLOUR}" stroke-width="{thin}" '
                   'stroke-dasharray="4 4" fill="none"/>')

    # Cell edges: each inner edge once, thin inside a box and thick between boxes.
    boxes = geometry.boxes
    thin_path: list[str] = []
    thick_path: list[str] = []
    for r in range(n):
        for c in range(n):
            cell = r * n + c
            if c + 1 < n:  # the edge to the right of the cell
                edge = f"M{x0(c + 1)} {y0(r)}v{side}"
                (thick_path if boxes[cell] != boxes[cell + 1] else thin_path).append(edge)
            if r + 1 < n:  # the edge below the cell
                edge = f"M{x0(c)} {y0(r + 1)}h{side}"
                (thick_path if boxes[cell] != boxes[cell + n] else thin_path).append(edge)
    if thin_path:
        out.append(f'<path class="cell-lines" d="{"".join(thin_path)}" stroke="{LINE_COLOUR}" '
                   f'stroke-width="{thin}" fill="none"/>')
    if thick_path:
        out.append(f'<path class="box-lines" d="{"".join(thick_path)}" '
                   f'stroke="{BORDER_COLOUR}" stroke-width="{thick}" stroke-linecap="square" '
                   'fill="none"/>')
    out.append(f'<rect class="border" x="{MARGIN}" y="{MARGIN}" width="{n * side}" '
               f'height="{n * side}" stroke="{BORDER_COLOUR}" stroke-width="{thick}" '
               'fill="none"/>')

    # Digits: givens, then filled values, then candidates of the open cells.
    sub_rows, sub_cols = candidate_layout(geometry)
    sub_w, sub_h = side / sub_cols, side / sub_rows
    small = min(sub_w, sub_h) * 0.8
    big = side * 0.6
    for cell in range(ncells):
        r, c = divmod(cell, n)
        mid_x, mid_y = x0(c) + side / 2, y0(r) + side / 2
        given = givens[cell]
        if given != EMPTY:
            out.append(_text(mid_x, mid_y, _symbol(geometry, given), big, "given",
                             GIVEN_COLOUR, bold=True))
            continue
        value = values[cell] if values is not None else EMPTY
        mask = candidates[cell] if candidates is not None else 0
        if value == EMPTY and mask and not mask & (mask - 1):
            value = mask.bit_length() - 1
        if value != EMPTY:
            out.append(_text(mid_x, mid_y, _symbol(geometry, value), big, "value",
                             VALUE_COLOUR))
            continue
        for d in range(n):
            if mask >> d & 1:
                i, j = divmod(d, sub_cols)
                out.append(_text(x0(c) + (j + 0.5) * sub_w, y0(r) + (i + 0.5) * sub_h,
                                 _symbol(geometry, d), small, "candidate", CANDIDATE_COLOUR))
    out.append("</svg>")
    return "\n".join(out)

