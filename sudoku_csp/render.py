"""Pictures of grids for notebooks: :func:`grid_svg` draws one grid as an SVG string.

Used by ``Puzzle._repr_svg_`` and ``State._repr_svg_``, so a puzzle or a candidate state
shows as a picture in Jupyter, and by :mod:`sudoku_csp.logic.html` for the steps of an
explanation. What is drawn:

- row letters down the left and column numbers across the top (``A``, ``B``, … ``AI``;
  ``1`` … ``35``), the names the text uses for cells (``E4``: row E, column 4);
- thin lines between cells, thick lines wherever two neighbouring cells lie in different
  boxes (read from ``geometry.boxes``, so jigsaw regions get thick borders too);
- givens in bold black, filled-in digits in blue;
- for a cell that is neither given nor filled, its candidates (when given) as small symbols
  in a sub-grid of the cell; a cell with no candidate left is tinted red;
- windoku windows shaded, diagonals of the diagonal variant as faint lines;
- typed constraints (``constraints=``, a puzzle's :attr:`~sudoku_csp.puzzle.Puzzle.constraints`)
  draw themselves the way setters draw them, each kind in its own module
  (:meth:`~sudoku_csp.constraints.base.Constraint.draw`, on a :class:`~sudoku_csp.canvas.Canvas`):
  under the digits or over them, keeping the candidates of their cells clear of their marks.
  Clues outside the grid (little killers, sandwich sums, ...) stand in a ring one cell wide
  around it, as in f-puzzles; the ring, and the room for it, is there only when a
  constraint draws in it (:meth:`~sudoku_csp.canvas.Canvas.outside_centre`).
  The picture's title names every rule the constraints add, marked in the picture or not
  (:meth:`~sudoku_csp.constraints.base.Constraint.summary`).

A step of an explanation is drawn with optional highlights, each told apart by its shape as
well as by its colour (Okabe and Ito's colour-blind-safe palette): the pattern's cells on a
pale yellow background, its units outlined in orange just inside their cells, its candidates
on a sky-blue disc, placed digits in white on a green disc in a green-tinted cell,
eliminated candidates in vermillion and crossed out, and chain links as blue curves, solid
for a strong link and dashed for a weak one.

A page of many pictures of one puzzle (:mod:`sudoku_csp.logic.html`) passes a
:class:`SharedDefs`: what its pictures have in common (the grid's lines, coordinates and
constraint marks, the givens, each cell's plain candidates) is then defined once, in one
hidden ``<svg>`` of the page, and each picture refers to it with ``<use>``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from sudoku_csp.canvas import FONT, MARGIN, OVER, UNDER, Canvas, baseline, escape, text
from sudoku_csp.constraints import Constraint, by_kind
from sudoku_csp.constraints import check_all as check_constraints
from sudoku_csp.geometry import EMPTY, Candidate, Geometry, UnitKind, row_label

__all__ = ["COORDINATE_COLOUR", "HIGHLIGHT_FILL", "LINK_COLOUR", "MARGIN", "MARK_FILL",
           "PLACED_COLOUR", "STRUCK_COLOUR", "UNIT_COLOUR", "ChainLink", "SharedDefs",
           "candidate_layout", "candidate_size", "cell_pixels", "coordinate_size", "grid_origin",
           "grid_svg", "outside_ring", "picture_width"]

ChainLink = tuple[Candidate, Candidate, bool]
"""Two candidates of a chain and whether the link between them is strong."""

GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1f5fbf"
CANDIDATE_COLOUR = "#555555"
LINE_COLOUR = "#999999"
BORDER_COLOUR = "#000000"
COORDINATE_COLOUR = "#595959"  # 7:1 on white, quieter than the digits
WINDOW_FILL = "#e8e8e8"
DEAD_FILL = "#f8d0d0"
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

_Where = Callable[[Candidate], tuple[float, float, float]]


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


def _symbol(geometry: Geometry, digit: int) -> str:
    symbols = geometry.symbols
    return symbols[digit] if digit < len(symbols) else str(digit + 1)


def _cell_rects(frame: Canvas, cells: Iterable[int], cls: str, fill: str) -> list[str]:
    side = frame.side
    return [f'<rect class="{cls}" x="{x}" y="{y}" width="{side}" height="{side}" '
            f'fill="{fill}"/>' for x, y in map(frame.corner, cells)]


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


class SharedDefs:
    """The parts that several pictures of one page have in common, each defined once.

    :meth:`use` returns a ``<use>`` element that draws ``content`` (SVG elements), defining
    it on first use; :meth:`svg` is the hidden ``<svg>`` holding the definitions, which must
    come before or after the pictures in the same HTML document. ``prefix`` starts every id
    (a letter, then letters, digits or ``-``): pages shown together (a notebook) need
    different prefixes unless their definitions are the same. A drawn ``<use>`` inherits
    fill, font and alignment from where it stands, so a definition holds only what differs
    between its elements.

    >>> shared = SharedDefs("p")
    >>> shared.use('<circle r="2"/>'), shared.use('<circle r="2"/>'), shared.use("<g/>")
    ('<use href="#p0"/>', '<use href="#p0"/>', '<use href="#p1"/>')
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._ids: dict[str, str] = {}

    def use(self, content: str) -> str:
        ident = self._ids.get(content)
        if ident is None:
            ident = self._ids[content] = f"{self.prefix}{len(self._ids):x}"
        return f'<use href="#{ident}"/>'

    def __len__(self) -> int:
        return len(self._ids)

    def svg(self) -> str:
        """The definitions, in a zero-sized ``<svg>`` that takes no room on the page."""
        parts = "".join(f'<g id="{ident}">{content}</g>' for content, ident in self._ids.items())
        return ('<svg xmlns="http://www.w3.org/2000/svg" class="sudoku-defs" width="0" '
                'height="0" aria-hidden="true" style="position:absolute;overflow:hidden">'
                f"<defs>{parts}</defs></svg>")


def _starting_candidates(geometry: Geometry, constraints: Sequence[Constraint]) -> list[int]:
    """What constraints that say where a solver starts (pencil marks) leave of each cell:
    the picture of such a puzzle shows them, as the grid it was read from did."""
    full = (1 << geometry.size) - 1
    masks = [full] * geometry.ncells
    for constraint in constraints:
        if constraint.starting:
            for link in constraint.native(geometry):
                narrowed = link.narrow(tuple(masks[c] for c in link.cells))
                for cell, mask in zip(link.cells, narrowed or (), strict=False):
                    masks[cell] = mask
    return masks


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
    links: Iterable[ChainLink] = (),
    units: Iterable[int] = (),
    digits: Collection[int] | None = None,
    compact: bool = False,
    constraints: Iterable[Constraint] = (),
    shared: SharedDefs | None = None,
    tints: Mapping[Candidate, str] | None = None,
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
    :class:`~sudoku_csp.puzzle.Puzzle` passes ``puzzle.constraints``. ``shared``: draw what
    does not change from one picture of the page to the next (everything but the
    highlights, the digits in a highlight's colour and the shading of cells) with ``<use>``
    of its definitions there (implies ``compact``); the picture then shows only on a page
    that also holds ``shared.svg()``. ``tints``: a colour for some ``(cell, digit)``
    candidates (or a value: a cell's single candidate), in place of the plain one (true
    candidates coloured by how many solutions hold them).

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
    >>> svg.count('class="row-label"'), svg.count('class="col-label"')
    (4, 4)
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
    if candidates is None and any(c.starting for c in constraints):
        candidates = _starting_candidates(geometry, constraints)

    compact = compact or shared is not None
    side = cell_pixels(n)
    thin = 1.0
    thick = 3.0 if n <= 16 else 2.5
    frame = _drawn(geometry, constraints, 0)
    if frame.outside:  # clues outside the grid: drawn again with the ring's room
        frame = _drawn(geometry, constraints, outside_ring(n))
    width = picture_width(n, frame.ring)
    origin = frame.origin
    x0, y0 = frame.x0, frame.y0

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}" font-family="{FONT}">',
        f"<title>{escape(_title(geometry, constraints))}</title>",
    ]

    def static(elements: list[str]) -> list[str]:
        """Elements every picture of the page shares: a ``<use>`` of them when shared."""
        if shared is None or not elements:
            return elements
        return [shared.use("".join(elements))]

    # Shading first, so that lines and digits are drawn over it.
    ground = [f'<rect x="0" y="0" width="{width}" height="{width}" fill="#ffffff"/>']
    for unit in geometry.units:
        if unit.kind == UnitKind.WINDOW:
            ground += _cell_rects(frame, unit.cells, "window", WINDOW_FILL)
    out += static(ground)
    if candidates is not None:
        out += _cell_rects(frame, (c for c, m in enumerate(candidates) if m == 0), "dead",
                           DEAD_FILL)
    placed_cells = {c for c, _ in placed}
    out += _cell_rects(frame, (c for c in dict.fromkeys(highlight_cells)
                               if c not in placed_cells), "highlight", HIGHLIGHT_FILL)
    out += _cell_rects(frame, sorted(placed_cells), "placed", PLACED_FILL)
    skeleton = []
    if geometry.units_of_kind(UnitKind.DIAGONAL):
        far = origin + n * side
        skeleton.append(f'<path class="diagonal" d="M{origin} {origin}L{far} {far}'
                        f'M{far} {origin}L{origin} {far}" stroke="{LINE_COLOUR}" '
                        f'stroke-width="{thin}" stroke-dasharray="4 4" fill="none"/>')

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
        skeleton.append(f'<path class="cell-lines" d="{"".join(thin_path)}" '
                        f'stroke="{LINE_COLOUR}" stroke-width="{thin}" fill="none"/>')
    if thick_path:
        skeleton.append(f'<path class="box-lines" d="{"".join(thick_path)}" '
                        f'stroke="{BORDER_COLOUR}" stroke-width="{thick}" '
                        'stroke-linecap="square" fill="none"/>')
    skeleton.append(f'<rect class="border" x="{origin}" y="{origin}" width="{n * side}" '
                    f'height="{n * side}" stroke="{BORDER_COLOUR}" stroke-width="{thick}" '
                    'fill="none"/>')
    skeleton += _coordinates(frame, thick, compact)
    skeleton += frame.elements(UNDER)
    out += static(skeleton)

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
    tinted = dict(tints or {})
    shown = set(highlight_cells) | marked | gone | new
    texts: list[_Digit] = []
    small = candidate_size(geometry)
    for cell in range(ncells):
        mid_x, mid_y = frame.centre(cell)
        given = givens[cell]
        if given != EMPTY:
            texts.append(("given", cell, mid_x, mid_y, _symbol(geometry, given), GIVEN_COLOUR,
                          None))
            continue
        value = big[cell]
        if value != EMPTY:
            colour = _colour((cell, value), tinted.get((cell, value), VALUE_COLOUR), marked,
                             gone, new)
            texts.append(("value", cell, mid_x, mid_y, _symbol(geometry, value), colour, None))
            continue
        mask = candidates[cell] if candidates is not None else 0
        fitted = frame.fitted(cell, small)
        for d in range(n):
            if mask >> d & 1 and (digits is None or d in digits or cell in shown
                                  or (cell, d) in shown):
                x, y = frame.spot(cell, d)
                colour = _colour((cell, d), tinted.get((cell, d), CANDIDATE_COLOUR), marked,
                                 gone, new)
                texts.append(("candidate", cell, x, y, _symbol(geometry, d), colour, fitted))
    out += _digit_texts(texts, {"given": (side * 0.6, GIVEN_COLOUR, True),
                                "value": (side * 0.6, VALUE_COLOUR, False),
                                "candidate": (small, CANDIDATE_COLOUR, False)}, compact, shared, n)
    out += _crosses(struck, where, compact)
    out += static(frame.elements(OVER))
    out.append("</svg>")
    return "\n".join(out)


def _drawn(geometry: Geometry, constraints: Sequence[Constraint], ring: int) -> Canvas:
    """The canvas of the picture, ``ring`` pixels kept around the grid, with every
    constraint drawn on it (before the digits: the pads they keep move candidates)."""
    n = geometry.size
    frame = Canvas(n, cell_pixels(n), *candidate_layout(geometry),
                   origin=grid_origin(n) + ring, ring=ring)
    for constraint in constraints:
        constraint.draw(frame)
    return frame


_Digit = tuple[str, int, float, float, str, str, float | None]
"""One digit to write: its kind (``given``, ``value``, ``candidate``), cell, centre, symbol,
colour, and font size when it is not its kind's (candidates squeezed by constraint marks)."""


def _digit_texts(texts: Sequence[_Digit], styles: dict[str, tuple[float, str, bool]],
                 compact: bool, shared: SharedDefs | None = None, n: int = 1) -> list[str]:
    """The text elements of the digits, in order; ``compact``: grouped by kind, each group
    carrying its kind's ``(font size, colour, bold)`` from ``styles``, and a digit only the
    colour and size that differ from its group's. ``shared``: the digits in their kind's
    colour as ``<use>`` of shared definitions: all the givens as one (every picture of a
    page has them), the others one per row of the ``n``×``n`` grid, each made of one
    per cell (a cell's candidates stay the same over many steps); a cell holding a digit of
    another colour is written out."""
    if not compact:
        return [text(x, y, symbol, styles[cls][0] if size is None else size, cls, colour,
                      bold=styles[cls][2]) for cls, _, x, y, symbol, colour, size in texts]
    out = []
    for kind, (font, plain, bold) in styles.items():
        group = [t for t in texts if t[0] == kind]
        if not group:
            continue
        weight = ' font-weight="bold"' if bold else ""
        out.append(f'<g class="{kind}s" font-size="{font:.1f}" fill="{plain}"{weight} '
                   'text-anchor="middle">')
        cells: dict[int, list[_Digit]] = {}
        for digit in group:
            cells.setdefault(digit[1], []).append(digit)
        coloured = {cell for _, cell, _, _, _, colour, _ in group if colour != plain}
        if shared is None:
            out += [_texts(kind, items, plain, font) for items in cells.values()]
        elif kind == "given":
            out.append(shared.use("".join(_lines(items, font) for items in cells.values())))
        else:
            rows: dict[int, list[str]] = {}
            for cell, items in cells.items():
                if cell in coloured:
                    out.append(_texts(kind, items, plain, font))
                else:
                    rows.setdefault(cell // n, []).append(shared.use(_lines(items, font)))
            # A row too is shared: most of a picture's rows are those of the step before.
            out += [shared.use("".join(uses)) if len(uses) > 1 else uses[0]
                    for uses in rows.values()]
        out.append("</g>")
    return out


def _texts(kind: str, items: Sequence[_Digit], plain: str, font: float) -> str:
    """One ``<text>`` per digit, with its kind's class, and the colour and size that differ
    from those of its kind's group (whose font size is ``font``)."""
    return "".join(f'<text class="{kind}" x="{x:.1f}" '
                   f'y="{baseline(y, font if size is None else size):.1f}"'
                   + (f' fill="{colour}"' if colour != plain else "")
                   + (f' font-size="{size:.1f}"' if size is not None else "")
                   + f">{escape(symbol)}</text>" for _, _, x, y, symbol, colour, size in items)


def _lines(items: Sequence[_Digit], font: float) -> str:
    """The digits of a shared definition (all in their group's colour, at its font size
    ``font`` unless their own; no class: the ``<use>`` stands in the kind's group): those on
    one line at one size as one ``<text>`` with an ``x`` per symbol, each of which starts a
    chunk of its own, centred there."""
    lines: dict[tuple[float, ...], list[_Digit]] = {}
    for digit in items:
        _, _, x, y, symbol, _, size = digit
        key: tuple[float, ...] = (y, -1.0 if size is None else size)
        if len(symbol) != 1:  # an x per character: a longer symbol needs a <text> of its own
            key += (x,)
        lines.setdefault(key, []).append(digit)
    out = []
    for line in lines.values():
        size = line[0][6]
        xs = " ".join(f"{x:.1f}" for _, _, x, _, _, _, _ in line)
        y = baseline(line[0][3], font if size is None else size)
        out.append(f'<text x="{xs}" y="{y:.1f}"'
                   + (f' font-size="{size:.1f}"' if size is not None else "")
                   + f'>{escape("".join(digit[4] for digit in line))}</text>')
    return "".join(out)


def _coordinates(frame: Canvas, thick: float, compact: bool) -> list[str]:
    """Row letters left of the grid and column numbers above it, centred on their row or
    column and in the room :func:`grid_origin` keeps (clear of the thick border, or beyond
    the ring of clues outside the grid)."""
    n, side, origin = frame.n, frame.side, frame.origin
    font = coordinate_size(n)
    away = (origin - frame.ring - thick / 2) / 2  # the middle of the room before the border
    labels = [("row-label", away, frame.y0(r) + side / 2, row_label(r)) for r in range(n)]
    labels += [("col-label", frame.x0(c) + side / 2, away, str(c + 1)) for c in range(n)]
    if not compact:
        return [text(x, y, label, font, cls, COORDINATE_COLOUR) for cls, x, y, label in labels]
    return [f'<g class="coordinates" font-size="{font:.1f}" fill="{COORDINATE_COLOUR}" '
            'text-anchor="middle">',
            *(f'<text class="{cls}" x="{x:.1f}" y="{baseline(y, font):.1f}">{label}</text>'
              for cls, x, y, label in labels), "</g>"]


def _colour(cand: Candidate, plain: str, marked: set[Candidate], gone: set[Candidate],
            new: set[Candidate]) -> str:
    if cand in gone:
        return STRUCK_COLOUR
    if cand in new:
        return PLACED_TEXT
    return MARK_TEXT if cand in marked else plain


def _highlights(frame: Canvas, geometry: Geometry, units: Sequence[int],
                links: Sequence[ChainLink], marks: Sequence[Candidate],
                placed: Sequence[Candidate], where: _Where) -> list[str]:
    """Unit outlines, then chain links, then the discs behind marked and placed digits
    (over the links, which end at their rims)."""
    out = []
    inset = 3.5 if frame.side >= 34 else 3.0
    for u in dict.fromkeys(units):
        out.append(f'<path class="unit" d="{frame.outline(geometry.units[u].cells, inset)}" '
                   f'stroke="{UNIT_COLOUR}" stroke-width="2" stroke-linecap="square" '
                   'fill="none"/>')
    middle = frame.origin + frame.n * frame.side / 2
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


def _crosses(struck: Sequence[Candidate], where: _Where, compact: bool) -> list[str]:
    """A cross over each eliminated candidate; ``compact``: their stroke written once, on a
    group around them."""
    stroke = f'stroke="{STRUCK_COLOUR}" stroke-width="1.4" stroke-linecap="round"'
    out = []
    for cand in dict.fromkeys(struck):
        x, y, r = where(cand)
        r *= 0.8
        out.append(f'<path class="struck" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
                   f'M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}"'
                   + ("/>" if compact else f" {stroke}/>"))
    if compact and out:
        return [f'<g class="crosses" {stroke}>', *out, "</g>"]
    return out


# -- typed constraints --------------------------------------------------------------------------
def _title(geometry: Geometry, constraints: Sequence[Constraint]) -> str:
    """The picture's title: the geometry's name, then every rule the constraints add, marked
    in the picture or not, kind by kind (``9x9; 12 killer cages; non-consecutive: ...``)."""
    parts = [geometry.name]
    for kind, mine in by_kind(constraints):
        parts += kind.summary(mine, geometry)
    return "; ".join(parts)
