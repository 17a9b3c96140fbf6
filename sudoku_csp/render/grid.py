"""The grid's own layers: the ground under everything, and the skeleton over the shading.

- :func:`ground`: the white ground, and windoku windows shaded;
- :func:`skeleton`: the diagonals of the diagonal variant as faint dashed lines; thin lines
  between cells and thick ones wherever two neighbouring cells lie in different boxes (read
  from ``geometry.boxes``, so jigsaw regions get thick borders too); the border; and the
  coordinates: row letters down the left and column numbers across the top (``A``, ``B``,
  … ``AI``; ``1`` … ``35``), the names the text uses for cells (``E4``: row E, column 4).

Both are the same in every picture of a puzzle, so a page that shares draws each once.
"""

from __future__ import annotations

from sudoku_csp.canvas import Canvas, baseline, text
from sudoku_csp.geometry import UnitKind, row_label
from sudoku_csp.render.layout import Sheet, coordinate_size

__all__ = ["COORDINATE_COLOUR", "ground", "skeleton"]

LINE_COLOUR = "#999999"
BORDER_COLOUR = "#000000"
COORDINATE_COLOUR = "#595959"  # 7:1 on white, quieter than the digits
WINDOW_FILL = "#e8e8e8"
THIN = 1.0


def ground(sheet: Sheet) -> list[str]:
    """The white ground of the whole picture, and the windows of windoku shaded on it."""
    width = sheet.width
    out = [f'<rect x="0" y="0" width="{width}" height="{width}" fill="#ffffff"/>']
    for unit in sheet.geometry.units:
        if unit.kind == UnitKind.WINDOW:
            out += sheet.canvas.shade(unit.cells, "window", WINDOW_FILL)
    return out


def _thick(n: int) -> float:
    """The width of box borders and of the grid's border."""
    return 3.0 if n <= 16 else 2.5


def skeleton(sheet: Sheet) -> list[str]:
    """Diagonals, cell edges (each inner edge once, thin inside a box and thick between
    boxes), the border, then the coordinates."""
    geometry, canvas = sheet.geometry, sheet.canvas
    n, side, origin = geometry.size, canvas.side, canvas.origin
    thick = _thick(n)
    out = []
    if geometry.units_of_kind(UnitKind.DIAGONAL):
        far = origin + n * side
        out.append(f'<path class="diagonal" d="M{origin} {origin}L{far} {far}'
                   f'M{far} {origin}L{origin} {far}" stroke="{LINE_COLOUR}" '
                   f'stroke-width="{THIN}" stroke-dasharray="4 4" fill="none"/>')
    boxes = geometry.boxes
    thin_path: list[str] = []
    thick_path: list[str] = []
    for r in range(n):
        for c in range(n):
            cell = r * n + c
            if c + 1 < n:  # the edge to the right of the cell
                edge = f"M{canvas.x0(c + 1)} {canvas.y0(r)}v{side}"
                (thick_path if boxes[cell] != boxes[cell + 1] else thin_path).append(edge)
            if r + 1 < n:  # the edge below the cell
                edge = f"M{canvas.x0(c)} {canvas.y0(r + 1)}h{side}"
                (thick_path if boxes[cell] != boxes[cell + n] else thin_path).append(edge)
    if thin_path:
        out.append(f'<path class="cell-lines" d="{"".join(thin_path)}" '
                   f'stroke="{LINE_COLOUR}" stroke-width="{THIN}" fill="none"/>')
    if thick_path:
        out.append(f'<path class="box-lines" d="{"".join(thick_path)}" '
                   f'stroke="{BORDER_COLOUR}" stroke-width="{thick}" '
                   'stroke-linecap="square" fill="none"/>')
    out.append(f'<rect class="border" x="{origin}" y="{origin}" width="{n * side}" '
               f'height="{n * side}" stroke="{BORDER_COLOUR}" stroke-width="{thick}" '
               'fill="none"/>')
    return out + _coordinates(canvas, thick, sheet.compact)


def _coordinates(canvas: Canvas, thick: float, compact: bool) -> list[str]:
    """Row letters left of the grid and column numbers above it, centred on their row or
    column and in the room :func:`~sudoku_csp.render.layout.grid_origin` keeps (clear of
    the ``thick`` border, or beyond the ring of clues outside the grid)."""
    n, side, origin = canvas.n, canvas.side, canvas.origin
    font = coordinate_size(n)
    away = (origin - canvas.ring - thick / 2) / 2  # the middle of the room before the border
    labels = [("row-label", away, canvas.y0(r) + side / 2, row_label(r)) for r in range(n)]
    labels += [("col-label", canvas.x0(c) + side / 2, away, str(c + 1)) for c in range(n)]
    if not compact:
        return [text(x, y, label, font, cls, COORDINATE_COLOUR) for cls, x, y, label in labels]
    return [f'<g class="coordinates" font-size="{font:.1f}" fill="{COORDINATE_COLOUR}" '
            'text-anchor="middle">',
            *(f'<text class="{cls}" x="{x:.1f}" y="{baseline(y, font):.1f}">{label}</text>'
              for cls, x, y, label in labels), "</g>"]
