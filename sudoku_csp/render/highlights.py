"""What a picture is asked to show besides the grid: :class:`Highlights`, one value, and
the layers that draw it.

A step of an explanation asks for its pattern, eliminations, placements and chain
(:func:`sudoku_csp.logic.html.step_highlights`), a conflict for the cells its parts name, true
candidates for a colour per candidate. Each is told apart by its shape as well as by its
colour (Okabe and Ito's colour-blind-safe palette): the pattern's cells on a pale yellow
background, its units outlined in orange just inside their cells, its candidates on a
sky-blue disc, placed digits in white on a green disc in a green-tinted cell, eliminated
candidates in vermillion and crossed out, and chain links as blue curves, solid for a strong
link and dashed for a weak one.

Three layers draw them, between the grid's and the digits' (:mod:`sudoku_csp.render`):
:meth:`Highlights.shading` under the grid's lines, :meth:`Highlights.under` (outlines,
links, discs) under the digits, :meth:`Highlights.over` (crosses) over them; the digits
layer asks :meth:`Highlights.colour` and :meth:`Highlights.shows` how and whether to write
each digit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.render.layout import Sheet

__all__ = ["HIGHLIGHT_FILL", "LINK_COLOUR", "MARK_FILL", "PLACED_COLOUR", "STRUCK_COLOUR",
           "UNIT_COLOUR", "ChainLink", "Highlights", "Where"]

ChainLink = tuple[Candidate, Candidate, bool]
"""Two candidates of a chain and whether the link between them is strong."""

Where = Callable[[Candidate], tuple[float, float, float]]
"""Where a candidate's digit stands: the centre and radius of a disc around it."""

# Okabe-Ito: orange, sky blue, bluish green, vermillion, blue; yellow, tinted.
HIGHLIGHT_FILL = "#faf2b8"
UNIT_COLOUR = "#e69f00"
MARK_FILL = "#a9d8f4"
MARK_TEXT = "#000000"
PLACED_COLOUR = "#009e73"
PLACED_FILL = "#cdeee3"
PLACED_TEXT = "#ffffff"
STRUCK_COLOUR = "#d55e00"
LINK_COLOUR = "#0072b2"


def _once(items: Iterable) -> tuple:
    return tuple(dict.fromkeys(items))


@dataclass(frozen=True)
class Highlights:
    """What a picture highlights: ``cells`` (a pattern's cells, or those a conflict names),
    ``units`` (indices into ``geometry.units``, outlined), ``marks`` (the pattern's
    ``(cell, digit)`` candidates), ``placements`` (digits placed), ``eliminations``
    (candidates crossed out), ``links`` (``(candidate, candidate, strong)`` chain links),
    ``focus`` (when given, only these digits' candidates are written, besides all those of
    the highlighted cells and every candidate marked, placed or eliminated) and ``tints`` (a
    colour for some candidates, or a cell's value, in place of the plain one: true
    candidates coloured by how many solutions hold them). Each collection is kept in its
    order, without repeats; an empty value highlights nothing.

    >>> Highlights(cells=[4, 3, 4], eliminations=[(3, 0)]).cells
    (4, 3)
    >>> Highlights(placements=[(3, 0)]).colour((3, 0), "#555555")
    '#ffffff'
    """

    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    marks: tuple[Candidate, ...] = ()
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    links: tuple[ChainLink, ...] = ()
    focus: frozenset[int] | None = None
    tints: Mapping[Candidate, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in ("cells", "units", "marks", "placements", "eliminations"):
            object.__setattr__(self, name, _once(getattr(self, name)))
        object.__setattr__(self, "links", tuple(self.links))
        if self.focus is not None:
            object.__setattr__(self, "focus", frozenset(self.focus))
        object.__setattr__(self, "tints", dict(self.tints))

    def check(self, geometry: Geometry) -> None:
        """Raise ``ValueError`` naming the field of a cell, candidate or unit that
        ``geometry`` lacks."""
        for cell in self.cells:
            if not 0 <= cell < geometry.ncells:
                raise ValueError(f"cells: no cell {cell} in a {geometry.name} grid")
        ends = [x for a, b, _ in self.links for x in (a, b)]
        for name, group in (("marks", self.marks), ("eliminations", self.eliminations),
                            ("placements", self.placements), ("links", ends)):
            for cell, digit in group:
                if not (0 <= cell < geometry.ncells and 0 <= digit < geometry.size):
                    raise ValueError(f"{name}: no candidate {digit} in cell {cell} of a "
                                     f"{geometry.name} grid")
        if any(not 0 <= u < len(geometry.units) for u in self.units):
            raise ValueError(f"units must be indices below {len(geometry.units)}")

    # Sets of the collections, for the digits layer's questions about every candidate.
    @cached_property
    def _shown(self) -> frozenset[int | Candidate]:
        return frozenset((*self.cells, *self.marks, *self.eliminations, *self.placements))

    @cached_property
    def _eliminated(self) -> frozenset[Candidate]:
        return frozenset(self.eliminations)

    @cached_property
    def _placed(self) -> frozenset[Candidate]:
        return frozenset(self.placements)

    @cached_property
    def _marked(self) -> frozenset[Candidate]:
        return frozenset(self.marks)

    def shows(self, cell: int, digit: int) -> bool:
        """Whether a candidate is written: every one without a ``focus``."""
        return (self.focus is None or digit in self.focus or cell in self._shown
                or (cell, digit) in self._shown)

    def colour(self, candidate: Candidate, plain: str) -> str:
        """The colour of a digit whose colour would be ``plain`` (or its tint)."""
        if candidate in self._eliminated:
            return STRUCK_COLOUR
        if candidate in self._placed:
            return PLACED_TEXT
        return MARK_TEXT if candidate in self._marked else self.tints.get(candidate, plain)

    # -- the layers -----------------------------------------------------------------------------
    def shading(self, sheet: Sheet) -> list[str]:
        """The highlighted cells on yellow, the cells of placements on green."""
        placed = {c for c, _ in self.placements}
        canvas = sheet.canvas
        return (canvas.shade((c for c in self.cells if c not in placed), "highlight",
                             HIGHLIGHT_FILL)
                + canvas.shade(sorted(placed), "placed", PLACED_FILL))

    def under(self, sheet: Sheet, where: Where) -> list[str]:
        """Unit outlines, then chain links, then the discs behind marked and placed digits
        (over the links, which end at their rims); ``where`` the digits stand."""
        canvas = sheet.canvas
        out = []
        inset = 3.5 if canvas.side >= 34 else 3.0
        for u in self.units:
            d = canvas.outline(sheet.geometry.units[u].cells, inset)
            out.append(f'<path class="unit" d="{d}" stroke="{UNIT_COLOUR}" stroke-width="2" '
                       'stroke-linecap="square" fill="none"/>')
        middle = canvas.origin + canvas.n * canvas.side / 2
        for a, b, strong in self.links:
            (ax, ay, ar), (bx, by, _) = where(a), where(b)
            dash = "" if strong else ' stroke-dasharray="4 3"'
            d = _link_path((ax, ay), (bx, by), ar, (middle, middle))
            out.append(f'<path class="link-{"strong" if strong else "weak"}" d="{d}" '
                       f'stroke="{LINK_COLOUR}" stroke-width="2"{dash} fill="none"/>')
        marks = [m for m in self.marks if m not in self._placed]
        for cls, fill, cands in (("mark", MARK_FILL, marks),
                                 ("placed-digit", PLACED_COLOUR, self.placements)):
            for cand in cands:
                x, y, r = where(cand)
                out.append(f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
                           f'fill="{fill}"/>')
        return out

    def over(self, sheet: Sheet, where: Where) -> list[str]:
        """A cross over each eliminated candidate; on a compact sheet their stroke written
        once, on a group around them."""
        stroke = f'stroke="{STRUCK_COLOUR}" stroke-width="1.4" stroke-linecap="round"'
        out = []
        for cand in self.eliminations:
            x, y, r = where(cand)
            r *= 0.8
            out.append(f'<path class="struck" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} '
                       f'{y + r:.1f}M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}"'
                       + ("/>" if sheet.compact else f" {stroke}/>"))
        if sheet.compact and out:
            return [f'<g class="crosses" {stroke}>', *out, "</g>"]
        return out


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
