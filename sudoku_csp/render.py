"""Pictures of grids for notebooks: :func:`grid_svg` draws one grid as an SVG string.

Used by ``Puzzle._repr_svg_`` and ``State._repr_svg_``, so a puzzle or a candidate state
shows as a picture in Jupyter, and by :mod:`sudoku_csp.logic.html` for the steps of an
explanation. What is drawn:

- thin lines between cells, thick lines wherever two neighbouring cells lie in different
  boxes (read from ``geometry.boxes``, so jigsaw regions get thick borders too);
- givens in bold black, filled-in digits in blue;
- for a cell that is neither given nor filled, its candidates (when given) as small symbols
  in a sub-grid of the cell; a cell with no candidate left is tinted red;
- windoku windows shaded, diagonals of the diagonal variant as faint lines;
- typed constraints (``constraints=``, a puzzle's :attr:`~sudoku_csp.puzzle.Puzzle.constraints`),
  the way setters draw them: a killer cage as a dashed outline just inside its cells, its sum
  small on a white patch in the top-left corner of its first cell; a thermometer as a grey
  bulb on its first cell and a thick grey line through the centres of the others; odd cells
  with a grey circle, even cells with a grey square; kropki dots as small white or black
  discs, X and V as letters on a white patch, on the edge between their two cells. Grey marks
  lie under the digits, the rest over them; the candidates of a cell move clear of its cage
  line, sum and edge marks (a little smaller under a cage sum). Global rules (non-consecutive,
  the negative rule of kropki and XV) have no mark: the picture's title names them, as it
  names every kind.

A step of an explanation is drawn with optional highlights, each told apart by its shape as
well as by its colour (Okabe and Ito's colour-blind-safe palette): the pattern's cells on a
pale yellow background, its units outlined in orange just inside their cells, its candidates
on a sky-blue disc, placed digits in white on a green disc in a green-tinted cell,
eliminated candidates in vermillion and crossed out, and chain links as blue curves, solid
for a strong link and dashed for a weak one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from sudoku_csp.constraints import XV, Cage, Constraint, Kropki, NonConsecutive, Parity, Thermo
from sudoku_csp.constraints import check_all as check_constraints
from sudoku_csp.geometry import EMPTY, Geometry, UnitKind

__all__ = ["HIGHLIGHT_FILL", "LINK_COLOUR", "MARGIN", "MARK_FILL", "PLACED_COLOUR", "STRUCK_COLOUR",
           "UNIT_COLOUR", "Candidate", "Link", "candidate_layout", "cell_pixels", "grid_svg"]

Candidate = tuple[int, int]
"""``(cell, digit)``: one pencil mark."""
Link = tuple[Candidate, Candidate, bool]
"""Two candidates of a chain and whether the link between them is strong."""

MARGIN = 3
GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1f5fbf"
CANDIDATE_COLOUR = "#555555"
LINE_COLOUR = "#999999"
BORDER_COLOUR = "#000000"
WINDOW_FILL = "#e8e8e8"
DEAD_FILL = "#f8d0d0"
FONT = "sans-serif"
# Highlights (Okabe-Ito: orange, sky blue, bluish green, vermillion, blue; yellow, tinted).
HIGHLIGHT_FILL = "#faf2b8"
UNIT_COLOUR = "#e69f00"
MARK_FILL = "#a9d8f4"
MARK_TEXT = "#000000"
PLACED_COLOUR = "#009e73"
PLACED_FILL = "#cdeee3"
PLACED_TEXT = "#ffffff"
STRUCK_COLOUR = "#d55e00"
LINK_COLOUR = "#0072b2"
# Typed constraints: setters' conventions, in greys so that the highlights keep their colours.
CAGE_COLOUR = "#000000"
SHAPE_FILL = "#d9d9d9"  # thermometers, odd and even cells: candidates (#555) keep 5:1 on it
SHAPE_EDGE = "#a6a6a6"
DOT_COLOUR = "#000000"

_Where = Callable[[Candidate], tuple[float, float, float]]
_Pad = tuple[float, float, float, float]
"""Pixels kept clear of candidates inside a cell: top, right, bottom, left."""
_NO_PAD: _Pad = (0, 0, 0, 0)


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


@dataclass(frozen=True)
class _Frame:
    """Where things go: cells of ``side`` pixels after the margin, and in each cell a
    ``sub_rows`` × ``sub_cols`` sub-grid of candidate spots, spread over the whole cell but
    for the ``pads`` (top, right, bottom, left) that constraint marks keep clear."""

    n: int
    side: int
    sub_rows: int
    sub_cols: int
    pads: Mapping[int, _Pad] = field(default_factory=dict)

    def x0(self, col: int) -> int:
        return MARGIN + col * self.side

    def y0(self, row: int) -> int:
        return MARGIN + row * self.side

    def corner(self, cell: int) -> tuple[int, int]:
        r, c = divmod(cell, self.n)
        return self.x0(c), self.y0(r)

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + self.side / 2, y + self.side / 2

    def _sub(self, cell: int) -> tuple[float, float, float, float]:
        """Left, top, width and height of a spot of the cell's sub-grid."""
        x, y = self.corner(cell)
        top, right, bottom, left = self.pads.get(cell, _NO_PAD)
        return (x + left, y + top, (self.side - left - right) / self.sub_cols,
                (self.side - top - bottom) / self.sub_rows)

    def spot(self, cell: int, digit: int) -> tuple[float, float]:
        """The centre of ``digit``'s place in the cell's sub-grid."""
        x, y, w, h = self._sub(cell)
        i, j = divmod(digit, self.sub_cols)
        return x + (j + 0.5) * w, y + (i + 0.5) * h

    def fitted(self, cell: int, size: float) -> float | None:
        """The font size of the cell's candidates when ``size`` is too big for the room its
        pads leave them, else ``None``."""
        if cell not in self.pads:
            return None
        _, _, w, h = self._sub(cell)
        fit = min(size, h / 0.9, w / 0.75)
        return fit if fit < size - 0.05 else None

    def small_radius(self, cell: int) -> float:
        """The radius of a disc around a candidate of the cell."""
        _, _, w, h = self._sub(cell)
        return min(w, h) * 0.47


def _cell_rects(frame: _Frame, cells: Iterable[int], cls: str, fill: str) -> list[str]:
    side = frame.side
    return [f'<rect class="{cls}" x="{x}" y="{y}" width="{side}" height="{side}" '
            f'fill="{fill}"/>' for x, y in map(frame.corner, cells)]


def _outline(frame: _Frame, cells: Collection[int], inset: float) -> str:
    """Path data of the border of a set of cells, drawn ``inset`` pixels inside it: one
    segment per cell side facing outside the set, lengthened or shortened at its ends so
    that segments meet at inner and outer corners."""
    n, half = frame.n, frame.side / 2
    inside = set(cells)

    def has(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and r * n + c in inside

    out = []
    for cell in sorted(inside):
        r, c = divmod(cell, n)
        cx, cy = frame.centre(cell)
        for nr, nc in ((-1, 0), (0, 1), (1, 0), (0, -1)):  # outward normal (row, column)
            if has(r + nr, c + nc):
                continue
            ends = []
            for tr, tc in ((nc, -nr), (-nc, nr)):  # both ends along the side
                if not has(r + tr, c + tc):
                    along = half - inset  # outer corner
                elif has(r + tr + nr, c + tc + nc):
                    along = half + inset  # inner corner
                else:
                    along = half
                ends.append((cx + nc * (half - inset) + tc * along,
                             cy + nr * (half - inset) + tr * along))
            (ax, ay), (bx, by) = ends
            out.append(f"M{ax:.1f} {ay:.1f}L{bx:.1f} {by:.1f}")
    return "".join(out)


def _link_path(start: tuple[float, float], end: tuple[float, float], trim: float,
               inward: tuple[float, float]) -> str:
    """A gently bent curve from ``start`` to ``end``, ``trim`` pixels short at both ends,
    bent towards the point ``inward`` (the middle of the grid, so that it stays inside) and
    so off the candidates lined up between its ends."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    nx, ny = -dy / length, dx / length
    if nx * (inward[0] - mx) + ny * (inward[1] - my) < 0:
        nx, ny = -nx, -ny
    bend = min(0.2 * length, 40.0)
    cx, cy = mx + nx * bend, my + ny * bend

    def toward(x: float, y: float) -> tuple[float, float]:
        d = math.hypot(cx - x, cy - y) or 1.0
        step = min(trim, d / 2)
        return x + (cx - x) / d * step, y + (cy - y) / d * step

    (sx, sy), (ex, ey) = toward(x1, y1), toward(x2, y2)
    return f"M{sx:.1f} {sy:.1f}Q{cx:.1f} {cy:.1f} {ex:.1f} {ey:.1f}"


def _check_candidates(geometry: Geometry, name: str, candidates: Iterable[Candidate]) -> None:
    for cell, digit in candidates:
        if not (0 <= cell < geometry.ncells and 0 <= digit < geometry.size):
            raise ValueError(f"{name}: no candidate {digit} in cell {cell} of a "
                             f"{geometry.name} grid")


def grid_svg(
    geometry: Geometry,
    givens: Sequence[int],
    values: Sequence[int] | None = None,
    candidates: Sequence[int] | None = None,
    *,
    highlight_cells: Iterable[int] = (),
    marks: Iterable[Candidate] = (),
    struck: Iterable[Candidate] = (),
    placed: Iterable[Candidate] = (),
    links: Iterable[Link] = (),
    units: Iterable[int] = (),
    digits: Collection[int] | None = None,
    compact: bool = False,
    constraints: Iterable[Constraint] = (),
) -> str:
    """An SVG picture of a grid.

    ``givens`` and ``values`` hold a digit (``0..N-1``) or ``EMPTY`` per cell: givens are
    drawn bold black, values that are not givens in blue. ``candidates`` holds a bitmask per
    cell (bit ``d`` set: digit ``d`` still possible); cells that are neither given nor
    filled show their candidates small, and a single candidate counts as filled.

    Highlights, for pictures of a deduction: ``highlight_cells`` (the pattern's cells),
    ``units`` (indices into ``geometry.units``, outlined), ``marks`` (the pattern's
    ``(cell, digit)`` candidates), ``struck`` (eliminated candidates), ``placed`` (digits
    placed), ``links`` (``(candidate, candidate, strong)`` chain links) and ``digits``: when
    given, only these digits' candidates are drawn, besides all those of highlighted cells
    and every candidate marked, struck or placed. ``compact``: write what the digits of a
    kind share (size, colour, alignment) once, on a group around them, for pages that hold
    many pictures (a third of the bytes). ``constraints``: the puzzle's typed constraints
    (:mod:`sudoku_csp.constraints`), drawn as the module docstring says; a caller drawing a
    :class:`~sudoku_csp.puzzle.Puzzle` passes ``puzzle.constraints``.

    >>> from sudoku_csp import make_geometry
    >>> g = make_geometry(4)
    >>> svg = grid_svg(g, [0] + [EMPTY] * 15, values=[0, 1] + [EMPTY] * 14,
    ...                candidates=[0b0001, 0b0010, 0b1100] + [0b1111] * 13)
    >>> svg.startswith("<svg"), svg.count('class="given"'), svg.count('class="value"')
    (True, 1, 1)
    >>> svg.count('class="candidate"')  # 2 in A3, 4 in each of the 13 open cells
    54
    >>> svg = grid_svg(g, [EMPTY] * 16, candidates=[0b1111] * 16, placed=[(0, 2)],
    ...                struck=[(1, 2), (4, 2)], links=[((1, 3), (5, 3), True)])
    >>> svg.count('class="placed"'), svg.count('class="struck"'), svg.count('class="link-')
    (1, 2, 1)
    >>> from sudoku_csp import parse
    >>> killer = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> svg = grid_svg(killer.geometry, killer.givens, constraints=killer.constraints)
    >>> svg.count('class="cage"'), svg.count('class="cage-sum"')
    (8, 8)
    """
    n, ncells = geometry.size, geometry.ncells
    for name, grid in (("givens", givens), ("values", values), ("candidates", candidates)):
        if grid is not None and len(grid) != ncells:
            raise ValueError(f"{name} must have {ncells} entries for a {geometry.name} grid, "
                             f"got {len(grid)}")
    highlight_cells, units = tuple(highlight_cells), tuple(units)
    marks, struck, placed, links = tuple(marks), tuple(struck), tuple(placed), tuple(links)
    _check_candidates(geometry, "highlight_cells", ((c, 0) for c in highlight_cells))
    for name, group in (("marks", marks), ("struck", struck), ("placed", placed),
                        ("links", [x for a, b, _ in links for x in (a, b)])):
        _check_candidates(geometry, name, group)
    if any(not 0 <= u < len(geometry.units) for u in units):
        raise ValueError(f"units must be indices below {len(geometry.units)}")
    constraints = tuple(constraints)
    check_constraints(geometry, constraints)

    side = cell_pixels(n)
    width = n * side + 2 * MARGIN
    thin = 1.0
    thick = 3.0 if n <= 16 else 2.5
    frame = _Frame(n, side, *candidate_layout(geometry), _pads(n, side, constraints))
    x0, y0 = frame.x0, frame.y0

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" font-family="{FONT}">',
        f"<title>{escape(_title(geometry, constraints))}</title>",
        f'<rect x="0" y="0" width="{width}" height="{width}" fill="#ffffff"/>',
    ]

    # Shading first, so that lines and digits are drawn over it.
    for unit in geometry.units:
        if unit.kind == UnitKind.WINDOW:
            out += _cell_rects(frame, unit.cells, "window", WINDOW_FILL)
    if candidates is not None:
        out += _cell_rects(frame, (c for c, m in enumerate(candidates) if m == 0), "dead",
                           DEAD_FILL)
    placed_cells = {c for c, _ in placed}
    out += _cell_rects(frame, (c for c in dict.fromkeys(highlight_cells)
                               if c not in placed_cells), "highlight", HIGHLIGHT_FILL)
    out += _cell_rects(frame, sorted(placed_cells), "placed", PLACED_FILL)
    if geometry.units_of_kind(UnitKind.DIAGONAL):
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
    out += _constraint_shapes(frame, constraints)

    # What each cell shows: a given, a value (a single candidate counts), or candidates.
    big = [EMPTY] * ncells
    for cell in range(ncells):
        mask = candidates[cell] if candidates is not None else 0
        big[cell] = (givens[cell] if givens[cell] != EMPTY
                     else values[cell] if values is not None and values[cell] != EMPTY
                     else mask.bit_length() - 1 if mask and not mask & (mask - 1)
                     else EMPTY)

    def where(cand: Candidate) -> tuple[float, float, float]:
        """Centre and radius of a candidate's disc: its spot, or the cell's centre."""
        cell, digit = cand
        if big[cell] == EMPTY:
            return (*frame.spot(cell, digit), frame.small_radius(cell))
        return (*frame.centre(cell), side * 0.38)

    out += _highlights(frame, geometry, units, links, marks, placed, where)

    # Digits: givens, then filled values, then candidates of the open cells.
    marked, gone, new = set(marks), set(struck), set(placed)
    shown = set(highlight_cells) | marked | gone | new
    texts: list[_Digit] = []
    small = min(frame.side / frame.sub_cols, frame.side / frame.sub_rows) * 0.8
    for cell in range(ncells):
        mid_x, mid_y = frame.centre(cell)
        given = givens[cell]
        if given != EMPTY:
            texts.append(("given", mid_x, mid_y, _symbol(geometry, given), GIVEN_COLOUR, None))
            continue
        value = big[cell]
        if value != EMPTY:
            colour = _colour((cell, value), VALUE_COLOUR, marked, gone, new)
            texts.append(("value", mid_x, mid_y, _symbol(geometry, value), colour, None))
            continue
        mask = candidates[cell] if candidates is not None else 0
        fitted = frame.fitted(cell, small)
        for d in range(n):
            if mask >> d & 1 and (digits is None or d in digits or cell in shown
                                  or (cell, d) in shown):
                x, y = frame.spot(cell, d)
                colour = _colour((cell, d), CANDIDATE_COLOUR, marked, gone, new)
                texts.append(("candidate", x, y, _symbol(geometry, d), colour, fitted))
    out += _digit_texts(texts, {"given": (side * 0.6, GIVEN_COLOUR, True),
                                "value": (side * 0.6, VALUE_COLOUR, False),
                                "candidate": (small, CANDIDATE_COLOUR, False)}, compact)
    out += _crosses(struck, where)
    out += _constraint_marks(frame, constraints)
    out.append("</svg>")
    return "\n".join(out)


_Digit = tuple[str, float, float, str, str, float | None]
"""One digit to write: its kind (``given``, ``value``, ``candidate``), centre, symbol,
colour, and font size when it is not its kind's (candidates squeezed by constraint marks)."""


def _digit_texts(texts: Sequence[_Digit], styles: dict[str, tuple[float, str, bool]],
                 compact: bool) -> list[str]:
    """The text elements of the digits, in order; ``compact``: grouped by kind, each group
    carrying its kind's ``(font size, colour, bold)`` from ``styles``, and a digit only the
    colour and size that differ from its group's."""
    if not compact:
        return [_text(x, y, symbol, styles[cls][0] if size is None else size, cls, colour,
                      bold=styles[cls][2]) for cls, x, y, symbol, colour, size in texts]
    out = []
    for kind, (font, plain, bold) in styles.items():
        group = [t for t in texts if t[0] == kind]
        if not group:
            continue
        weight = ' font-weight="bold"' if bold else ""
        out.append(f'<g class="{kind}s" font-size="{font:.1f}" fill="{plain}"{weight} '
                   'text-anchor="middle" dominant-baseline="central">')
        out += [f'<text class="{kind}" x="{x:.1f}" y="{y:.1f}"'
                + (f' fill="{colour}"' if colour != plain else "")
                + (f' font-size="{size:.1f}"' if size is not None else "")
                + f">{escape(symbol)}</text>" for _, x, y, symbol, colour, size in group]
        out.append("</g>")
    return out


def _colour(cand: Candidate, plain: str, marked: set[Candidate], gone: set[Candidate],
            new: set[Candidate]) -> str:
    if cand in gone:
        return STRUCK_COLOUR
    if cand in new:
        return PLACED_TEXT
    return MARK_TEXT if cand in marked else plain


def _highlights(frame: _Frame, geometry: Geometry, units: Sequence[int],
                links: Sequence[Link], marks: Sequence[Candidate],
                placed: Sequence[Candidate], where: _Where) -> list[str]:
    """Unit outlines, then chain links, then the discs behind marked and placed digits
    (over the links, which end at their rims)."""
    out = []
    inset = 3.5 if frame.side >= 34 else 3.0
    for u in dict.fromkeys(units):
        out.append(f'<path class="unit" d="{_outline(frame, geometry.units[u].cells, inset)}" '
                   f'stroke="{UNIT_COLOUR}" stroke-width="2" stroke-linecap="square" '
                   'fill="none"/>')
    middle = MARGIN + frame.n * frame.side / 2
    for a, b, strong in links:
        (ax, ay, ar), (bx, by, _) = where(a), where(b)
        dash = "" if strong else ' stroke-dasharray="4 3"'
        d = _link_path((ax, ay), (bx, by), ar, (middle, middle))
        out.append(f'<path class="link-{"strong" if strong else "weak"}" d="{d}" '
                   f'stroke="{LINK_COLOUR}" stroke-width="2"{dash} fill="none"/>')
    new = set(placed)
    for cls, fill, cands in (("mark", MARK_FILL, [m for m in dict.fromkeys(marks)
                                                  if m not in new]),
                             ("placed-digit", PLACED_COLOUR, dict.fromkeys(placed))):
        for cand in cands:
            x, y, r = where(cand)
            out.append(f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
                       f'fill="{fill}"/>')
    return out


def _crosses(struck: Sequence[Candidate], where: _Where) -> list[str]:
    """A cross over each eliminated candidate."""
    out = []
    for cand in dict.fromkeys(struck):
        x, y, r = where(cand)
        r *= 0.8
        out.append(f'<path class="struck" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
                   f'M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}" '
                   f'stroke="{STRUCK_COLOUR}" stroke-width="1.4" stroke-linecap="round"/>')
    return out


# -- typed constraints --------------------------------------------------------------------------
def _title(geometry: Geometry, constraints: Sequence[Constraint]) -> str:
    """The picture's title: the geometry's name, then every rule the constraints add, marked
    in the picture or not (``9x9; 12 killer cages; non-consecutive: ...``)."""
    parts = [geometry.name]
    for kind, noun in ((Cage, "killer cage"), (Thermo, "thermometer")):
        count = sum(isinstance(c, kind) for c in constraints)
        if count:
            parts.append(f"{count} {noun}{'s' * (count != 1)}")
    for c in constraints:
        if isinstance(c, Kropki):
            parts.append(f"kropki dots ({len(c.first)} white, {len(c.second)} black"
                         + ("; negative: all dots given)" if c.negative else ")"))
        elif isinstance(c, XV):
            parts.append(f"XV ({len(c.first)} X, {len(c.second)} V"
                         + ("; negative: all marks given)" if c.negative else ")"))
        elif isinstance(c, NonConsecutive):
            parts.append("non-consecutive: neighbours never consecutive")
        elif isinstance(c, Parity):
            parts.append(f"odd/even cells ({len(c.odd)} odd, {len(c.even)} even)")
        elif not isinstance(c, Cage | Thermo):
            parts.append(c.describe(geometry))  # a kind added later: named, not drawn
    return "; ".join(parts)


@dataclass(frozen=True)
class _Sizes:
    """The sizes of constraint marks in cells of ``side`` pixels, shared by the drawing and
    by the pads that keep candidates clear of the marks."""

    side: int

    @property
    def cage_inset(self) -> float:
        """How far inside its cells a cage's outline runs."""
        return round(self.side * 0.1, 1)

    @property
    def sum_size(self) -> float:
        return max(self.side * 0.23, 7.0)

    @property
    def sum_top(self) -> float:
        """The top of a cage sum's white patch, below the cell's top edge."""
        return 1.5

    @property
    def sum_bottom(self) -> float:
        return self.sum_top + _label_height(self.sum_size)

    @property
    def dot_radius(self) -> float:
        return self.side * 0.12

    @property
    def letter_size(self) -> float:
        return self.side * 0.3

    def mark_reach(self, across: bool) -> float:
        """How far a dot or letter on an edge reaches into each cell: ``across`` the edge
        between cells side by side (horizontally), else up and down."""
        letter = (_label_width("X", self.letter_size) if across
                  else _label_height(self.letter_size)) / 2
        return max(self.dot_radius, letter)


def _pads(n: int, side: int, constraints: Sequence[Constraint]) -> dict[int, _Pad]:
    """Space kept clear of candidates in the cells that constraint marks touch: inside a
    cage's outline (and below the sum in its first cell), and away from an edge with a dot
    or a letter on it."""
    sizes = _Sizes(side)
    pads: dict[int, list[float]] = {}

    def pad(cell: int, top: float, right: float, bottom: float, left: float) -> None:
        old = pads.setdefault(cell, [0.0] * 4)
        pads[cell] = [max(a, b) for a, b in zip(old, (top, right, bottom, left), strict=True)]

    clear = sizes.cage_inset + 1.5
    across, down = sizes.mark_reach(True) + 0.5, sizes.mark_reach(False) + 0.5
    for c in constraints:
        if isinstance(c, Cage):
            for cell, sides in _cage_sides(n, c.cells).items():
                pad(cell, *(clear if side else 0.0 for side in sides))
            if c.total is not None:
                pad(min(c.cells), sizes.sum_bottom + 0.5, 0, 0, 0)
        elif isinstance(c, Kropki | XV):
            for a, b in (*c.first, *c.second):
                a, b = min(a, b), max(a, b)
                if b == a + 1 and a // n == b // n:  # side by side
                    pad(a, 0, across, 0, 0)
                    pad(b, 0, 0, 0, across)
                else:
                    pad(a, 0, 0, down, 0)
                    pad(b, down, 0, 0, 0)
    return {cell: (p[0], p[1], p[2], p[3]) for cell, p in pads.items()}


def _cage_sides(n: int, cells: Collection[int]) -> dict[int, tuple[bool, ...]]:
    """For each cell of a cage, which of its sides (top, right, bottom, left) its outline
    runs near: a side facing out of the cage, and both sides of an inner corner (the two
    neighbours there inside the cage, the diagonal one outside).

    >>> _cage_sides(9, [0, 1, 9])[0]   # A1 of an L: outline at top, left, bottom-right corner
    (True, True, True, True)
    >>> _cage_sides(9, [0, 1, 9, 10])[0]
    (True, False, False, True)
    """
    inside = set(cells)

    def out(r: int, c: int) -> bool:
        return not (0 <= r < n and 0 <= c < n and r * n + c in inside)

    sides = {}
    for cell in inside:
        r, c = divmod(cell, n)
        edge = [out(r - 1, c), out(r, c + 1), out(r + 1, c), out(r, c - 1)]
        for i, (dr, dc) in enumerate(((-1, 1), (1, 1), (1, -1), (-1, -1))):  # corner i
            if not edge[i] and not edge[(i + 1) % 4] and out(r + dr, c + dc):
                edge[i] = edge[(i + 1) % 4] = True
        sides[cell] = tuple(edge)
    return sides


def _edge_middle(frame: _Frame, a: int, b: int) -> tuple[float, float]:
    """The middle of the side two neighbouring cells share."""
    (ax, ay), (bx, by) = frame.centre(a), frame.centre(b)
    return (ax + bx) / 2, (ay + by) / 2


def _constraint_shapes(frame: _Frame, constraints: Sequence[Constraint]) -> list[str]:
    """What lies under the digits: odd circles and even squares, thermometers (grey), then
    cage outlines (dashed, inset so that neighbouring cages and box borders stay apart)."""
    side, sizes = frame.side, _Sizes(frame.side)
    out = []
    for c in constraints:
        if isinstance(c, Parity):
            r = side * 0.4
            out += [f'<circle class="odd" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
                    f'fill="{SHAPE_FILL}" stroke="{SHAPE_EDGE}"/>'
                    for x, y in map(frame.centre, c.odd)]
            out += [f'<rect class="even" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                    f'height="{2 * r:.1f}" fill="{SHAPE_FILL}" stroke="{SHAPE_EDGE}"/>'
                    for x, y in map(frame.centre, c.even)]
    for c in constraints:
        if isinstance(c, Thermo):
            points = [frame.centre(cell) for cell in c.cells]
            d = "".join(f"{'L' if i else 'M'}{x:.1f} {y:.1f}" for i, (x, y) in enumerate(points))
            out.append(f'<path class="thermo-line" d="{d}" stroke="{SHAPE_FILL}" '
                       f'stroke-width="{side * 0.24:.1f}" stroke-linecap="round" '
                       'stroke-linejoin="round" fill="none"/>')
            x, y = points[0]
            out.append(f'<circle class="thermo-bulb" cx="{x:.1f}" cy="{y:.1f}" '
                       f'r="{side * 0.36:.1f}" fill="{SHAPE_FILL}"/>')
    dash = f"{side * 0.1:.1f} {side * 0.075:.1f}"
    for c in constraints:
        if isinstance(c, Cage):
            out.append(f'<path class="cage" d="{_outline(frame, c.cells, sizes.cage_inset)}" '
                       f'stroke="{CAGE_COLOUR}" stroke-width="1" stroke-dasharray="{dash}" '
                       'fill="none"/>')
    return out


def _label_width(content: str, size: float) -> float:
    return len(content) * size * 0.62 + size * 0.3


def _label_height(size: float) -> float:
    return size * 0.95


def _label(cls: str, x: float, y: float, content: str, size: float, *, bold: bool = False,
           anchor_left: bool = False) -> list[str]:
    """A short text on a white patch just big enough for it, centred on ``(x, y)`` or, with
    ``anchor_left``, starting at ``x``."""
    width, height = _label_width(content, size), _label_height(size)
    left = x if anchor_left else x - width / 2
    return [f'<rect class="{cls}-back" x="{left:.1f}" y="{y - height / 2:.1f}" '
            f'width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
            _text(left + width / 2, y, content, size, cls, CAGE_COLOUR, bold=bold)]


def _constraint_marks(frame: _Frame, constraints: Sequence[Constraint]) -> list[str]:
    """What lies over the digits: kropki dots and X/V letters on the edges, and cage sums in
    the top-left corners of their cages (the first cell in reading order always has one)."""
    sizes = _Sizes(frame.side)
    out = []
    for c in constraints:
        if isinstance(c, Kropki):
            for pairs, sort, fill in ((c.first, "white", "#ffffff"),
                                      (c.second, "black", DOT_COLOUR)):
                for a, b in pairs:
                    x, y = _edge_middle(frame, a, b)
                    out.append(f'<circle class="kropki-{sort}" cx="{x:.1f}" cy="{y:.1f}" '
                               f'r="{sizes.dot_radius:.1f}" fill="{fill}" '
                               f'stroke="{DOT_COLOUR}" stroke-width="1.2"/>')
        elif isinstance(c, XV):
            for pairs, letter in ((c.first, "X"), (c.second, "V")):
                for a, b in pairs:
                    out += _label(f"xv-{letter.lower()}", *_edge_middle(frame, a, b), letter,
                                  sizes.letter_size, bold=True)
    size = sizes.sum_size
    for c in constraints:
        if isinstance(c, Cage) and c.total is not None:
            x, y = frame.corner(min(c.cells))
            out += _label("cage-sum", x + 1.5, y + (sizes.sum_top + sizes.sum_bottom) / 2,
                          str(c.total), size, anchor_left=True)
    return out
