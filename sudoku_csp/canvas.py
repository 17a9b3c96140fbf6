"""The drawing surface of one grid picture, which typed constraints draw themselves on.

:mod:`sudoku_csp.render` lays out a grid and hands a :class:`Canvas` to each constraint
(:meth:`~sudoku_csp.constraints.base.Constraint.draw`); a constraint adds SVG elements to the
canvas's :class:`Layer` of its choice and keeps room clear of candidates with
:meth:`Canvas.pad`. The canvas knows where things are (cell corners and centres, the middle
of a shared edge, an outline just inside a set of cells, where a candidate sits), how big
marks are drawn in cells of its size, and the setters' palette (greys, so that the
highlights of an explanation keep their colours). It knows no constraint kind.

Clues outside the grid (little killers, sandwich sums, ...) stand where f-puzzles puts them:
in a ring of places one cell wide around the border, row or column ``-1`` or ``N``
(:meth:`Canvas.outside_centre`). A constraint that asks for such a place marks the canvas
(:attr:`Canvas.outside`), and the renderer then draws the picture again with the ring
(:attr:`Canvas.ring`) between the grid and its coordinates; a picture without outside
clues keeps no room for them.

>>> canvas = Canvas(4, 40, 2, 2)
>>> canvas.centre(5), canvas.edge_middle(0, 1)
((63.0, 63.0), (43.0, 23.0))
"""

from __future__ import annotations

import enum
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["CAGE_COLOUR", "CELL_SHAPE_OPACITY", "DOT_COLOUR", "MARGIN", "SHAPE_EDGE",
           "SHAPE_FILL", "Canvas", "Layer", "Pad", "escape", "text"]

MARGIN = 3
FONT = "sans-serif"
# Typed constraints: setters' conventions, in greys so that the highlights keep their colours.
CAGE_COLOUR = "#000000"
SHAPE_FILL = "#cccccc"  # thermometers (solid) and odd/even cells: candidates (#555) keep 4.6:1
SHAPE_EDGE = "#8c8c8c"  # the outline of odd circles and even squares, which bulbs lack
CELL_SHAPE_OPACITY = 0.45
"""Odd circles and even squares are :data:`SHAPE_FILL` at this opacity, a paler grey than a
thermometer's, so that a bulb on an odd or even cell shows as a darker disc inside the pale
outlined shape (and a highlighted cell shows through)."""
DOT_COLOUR = "#000000"

Pad = tuple[float, float, float, float]
"""Pixels kept clear of candidates inside a cell: top, right, bottom, left."""
NO_PAD: Pad = (0, 0, 0, 0)


class Layer(enum.IntEnum):
    """Where a constraint's elements go, bottom first: fills, paths and outlines lie under
    the digits; marks and labels over them."""

    FILLS = 0  # shapes filling a cell (odd circles, even squares)
    PATHS = 1  # lines through cells (thermometers)
    OUTLINES = 2  # outlines just inside a set of cells (cages)
    MARKS = 3  # over the digits: marks on an edge between two cells (dots, letters)
    LABELS = 4  # over the digits: small labels in a corner (cage sums)


UNDER = (Layer.FILLS, Layer.PATHS, Layer.OUTLINES)
OVER = (Layer.MARKS, Layer.LABELS)


def escape(content: str) -> str:
    """Text for an SVG element: ``&``, ``<`` and ``>`` as entities, quotes kept (what
    ``xml.sax.saxutils.escape`` and ``html.escape(quote=False)`` do; the first would import
    urllib and ssl into every command's start, the second html's table of entities:
    constraint kinds import this module).

    >>> escape("a < b & c > d")
    'a &lt; b &amp; c &gt; d'
    """
    return content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


BASELINE_DROP = 0.35
"""How far below the middle of a text its baseline goes, in em: half the height of a digit
or capital (about 0.7 em in common sans-serif fonts), so that digits and labels sit centred
in every renderer. ``dominant-baseline="central"`` says the same, but librsvg
(rsvg-convert, GNOME's viewers, many converters) ignores it and drew each digit with its
baseline on the middle: a third of an em too high."""


def baseline(y: float, size: float) -> float:
    """The baseline of a text of font ``size`` whose middle is at ``y``.

    >>> baseline(100, 20)
    107.0
    """
    return y + BASELINE_DROP * size


def text(x: float, y: float, content: str, size: float, cls: str, colour: str,
         bold: bool = False) -> str:
    """One ``<text>`` element centred on ``(x, y)``: its baseline :func:`baseline` of ``y``."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text class="{cls}" x="{x:.1f}" y="{baseline(y, size):.1f}" '
            f'font-size="{size:.1f}" fill="{colour}"{weight} text-anchor="middle">'
            f"{escape(content)}</text>")


def label_width(content: str, size: float) -> float:
    return len(content) * size * 0.62 + size * 0.3


def label_height(size: float) -> float:
    return size * 0.95


@dataclass
class Canvas:
    """Cells of ``side`` pixels of an ``n``×``n`` grid whose top-left corner is ``origin``
    pixels from the picture's left and top edges (the margin, and room for the row and
    column coordinates), and in each cell a ``sub_rows`` × ``sub_cols`` sub-grid of
    candidate spots, spread over the whole cell but for the ``pads`` (top, right, bottom,
    left) that constraint marks keep clear; and the SVG elements constraints add, by
    :class:`Layer`."""

    n: int
    side: int
    sub_rows: int
    sub_cols: int
    pads: dict[int, Pad] = field(default_factory=dict)
    layers: dict[Layer, list[str]] = field(default_factory=dict)
    origin: int = MARGIN
    ring: int = 0
    """Pixels kept around the grid, inside ``origin``, for clues outside it (0: none)."""
    outside: bool = False
    """Whether a constraint placed something outside the grid (:meth:`outside_centre`)."""

    # -- places -----------------------------------------------------------------------------
    def x0(self, col: int) -> int:
        return self.origin + col * self.side

    def y0(self, row: int) -> int:
        return self.origin + row * self.side

    def corner(self, cell: int) -> tuple[int, int]:
        """The top-left corner of a cell."""
        r, c = divmod(cell, self.n)
        return self.x0(c), self.y0(r)

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + self.side / 2, y + self.side / 2

    def path_through(self, cells: Sequence[int], trim_start: float = 0.0,
                     trim_end: float = 0.0) -> str:
        """SVG path data through the centres of ``cells`` (a line, a thermometer, an arrow's
        shaft), its first and last segments shortened by ``trim_start`` and ``trim_end``
        pixels (to stop at an end's circle)."""
        points = [list(self.centre(c)) for c in cells]
        for (i, j), trim in (((0, 1), trim_start), ((-1, -2), trim_end)):
            if trim and len(points) > 1:
                (x, y), (x2, y2) = points[i], points[j]
                length = math.hypot(x2 - x, y2 - y)
                points[i] = [x + (x2 - x) * trim / length, y + (y2 - y) * trim / length]
        return "".join(f"{'L' if i else 'M'}{x:.1f} {y:.1f}" for i, (x, y) in enumerate(points))

    def outside_centre(self, row: int, col: int) -> tuple[float, float]:
        """The centre of a place of the ring outside the grid, where f-puzzles draws clues
        outside it: ``row`` or ``col`` is ``-1`` (above, left) or ``N`` (below, right), the
        other ``-1`` .. ``N`` (corners too). Asking marks the canvas (:attr:`outside`), so
        that the picture keeps the ring's room.

        >>> canvas = Canvas(4, 40, 2, 2, origin=43, ring=40)
        >>> canvas.outside_centre(-1, 0), canvas.outside_centre(2, 4), canvas.outside
        ((63.0, 23.0), (223.0, 143.0), True)
        """
        self.outside = True
        return self.x0(col) + self.side / 2, self.y0(row) + self.side / 2

    def edge_middle(self, a: int, b: int) -> tuple[float, float]:
        """The middle of the side two neighbouring cells share."""
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        return (ax + bx) / 2, (ay + by) / 2

    def _sub(self, cell: int) -> tuple[float, float, float, float]:
        """Left, top, width and height of a spot of the cell's sub-grid."""
        x, y = self.corner(cell)
        top, right, bottom, left = self.pads.get(cell, NO_PAD)
        if cell in self.pads:
            # The candidates of a padded cell are squeezed towards its sides without a pad:
            # keep them off the lines there (a box border reaches 1.5 px into the cell).
            clear = self.edge_clearance
            top, right, bottom, left = (max(pad, clear) for pad in (top, right, bottom, left))
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

    def outline(self, cells: Collection[int], inset: float) -> str:
        """Path data of the border of a set of cells, drawn ``inset`` pixels inside it: one
        segment per cell side facing outside the set, lengthened or shortened at its ends so
        that segments meet at inner and outer corners."""
        n, half = self.n, self.side / 2
        inside = set(cells)

        def has(r: int, c: int) -> bool:
            return 0 <= r < n and 0 <= c < n and r * n + c in inside

        out = []
        for cell in sorted(inside):
            r, c = divmod(cell, n)
            cx, cy = self.centre(cell)
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

    def outline_sides(self, cells: Collection[int]) -> dict[int, tuple[bool, ...]]:
        """For each of ``cells``, which of its sides (top, right, bottom, left) an inset
        :meth:`outline` of the set runs near: a side facing out of the set, and both sides
        of an inner corner (the two neighbours there inside the set, the diagonal one
        outside).

        >>> Canvas(9, 40, 3, 3).outline_sides([0, 1, 9])[0]   # A1 of an L
        (True, True, True, True)
        >>> Canvas(9, 40, 3, 3).outline_sides([0, 1, 9, 10])[0]
        (True, False, False, True)
        """
        n, inside = self.n, set(cells)

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

    # -- sizes of marks in cells of this side -------------------------------------------
    @property
    def edge_clearance(self) -> float:
        """The least room between a padded cell's candidates and its sides."""
        return round(self.side * 0.06, 1)

    @property
    def outline_inset(self) -> float:
        """How far inside its cells an outline (a cage's) runs."""
        return round(self.side * 0.1, 1)

    @property
    def corner_label_size(self) -> float:
        """The font size of a label in a cell's corner (a cage's sum)."""
        return max(self.side * 0.23, 7.0)

    @property
    def corner_label_top(self) -> float:
        """The top of a corner label's white patch, below the cell's top edge."""
        return 1.5

    @property
    def corner_label_bottom(self) -> float:
        return self.corner_label_top + label_height(self.corner_label_size)

    @property
    def cell_shape_half(self) -> float:
        """The radius of an odd circle and half the side of an even square: bigger than a
        thermometer's bulb, so that a bulb on the same cell sits inside the shape."""
        return self.side * 0.43

    @property
    def cell_shape_opacity(self) -> float:
        """See :data:`CELL_SHAPE_OPACITY`."""
        return CELL_SHAPE_OPACITY

    @property
    def bulb_radius(self) -> float:
        """The radius of a thermometer's bulb."""
        return self.side * 0.31

    @property
    def dot_radius(self) -> float:
        """The radius of a dot on an edge."""
        return self.side * 0.12

    @property
    def outside_size(self) -> float:
        """The font size of a clue outside the grid (a sandwich sum)."""
        return self.side * 0.45

    @property
    def letter_size(self) -> float:
        """The font size of a letter on an edge."""
        return self.side * 0.3

    def edge_reach(self, across: bool) -> float:
        """How far a dot or letter on an edge reaches into each cell: ``across`` the edge
        between cells side by side (horizontally), else up and down."""
        letter = (label_width("X", self.letter_size) if across
                  else label_height(self.letter_size)) / 2
        return max(self.dot_radius, letter)

    # -- what constraints add ---------------------------------------------------------------
    def add(self, layer: Layer, elements: Iterable[str]) -> None:
        """Add SVG elements to a layer (drawn in the order added)."""
        self.layers.setdefault(layer, []).extend(elements)

    def elements(self, layers: Iterable[Layer]) -> list[str]:
        """The elements of ``layers``, bottom layer first."""
        return [e for layer in sorted(layers) for e in self.layers.get(layer, [])]

    def shade(self, cells: Iterable[int], cls: str, fill: str,
              opacity: float | None = None) -> list[str]:
        """A square of ``fill`` (at ``opacity``, else opaque) over each of ``cells``, of
        class ``cls``: cells shaded (windows, regions, highlighted cells, ...).

        >>> Canvas(4, 40, 2, 2).shade([1], "odd", "#ccc", 0.5)
        ['<rect class="odd" x="43" y="3" width="40" height="40" fill="#ccc" fill-opacity="0.5"/>']
        """
        alpha = "" if opacity is None else f' fill-opacity="{opacity}"'
        return [f'<rect class="{cls}" x="{x}" y="{y}" width="{self.side}" '
                f'height="{self.side}" fill="{fill}"{alpha}/>' for x, y in map(self.corner, cells)]

    def pad(self, cell: int, top: float = 0.0, right: float = 0.0, bottom: float = 0.0,
            left: float = 0.0) -> None:
        """Keep at least this room of ``cell`` clear of candidates (pads only grow)."""
        old = self.pads.get(cell, NO_PAD)
        self.pads[cell] = (max(old[0], top), max(old[1], right), max(old[2], bottom),
                           max(old[3], left))

    def pad_edge(self, a: int, b: int) -> None:
        """Keep both cells of an edge mark (dot, letter) clear of it."""
        a, b = min(a, b), max(a, b)
        if b == a + 1 and a // self.n == b // self.n:  # side by side
            across = self.edge_reach(True) + 0.5
            self.pad(a, right=across)
            self.pad(b, left=across)
        else:
            down = self.edge_reach(False) + 0.5
            self.pad(a, bottom=down)
            self.pad(b, top=down)

    def label(self, cls: str, x: float, y: float, content: str, size: float, *,
              bold: bool = False, anchor_left: bool = False) -> list[str]:
        """A short text on a white patch just big enough for it, centred on ``(x, y)`` or,
        with ``anchor_left``, starting at ``x``."""
        width, height = label_width(content, size), label_height(size)
        left = x if anchor_left else x - width / 2
        return [f'<rect class="{cls}-back" x="{left:.1f}" y="{y - height / 2:.1f}" '
                f'width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
                text(left + width / 2, y, content, size, cls, CAGE_COLOUR, bold=bold)]
