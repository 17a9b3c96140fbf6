"""The digits' layers: what each cell shows, and the digits written.

Givens are written bold black, values that are not givens in blue; a cell that is neither
given nor filled shows its candidates (when there are any) as small symbols in a sub-grid of
the cell, or tinted red when none is left; a single candidate counts as filled. A puzzle
whose constraints say where a solver starts (pencil marks) shows the candidates they leave,
as the grid it was read from did. The highlights colour the digits they name, and a focus
keeps some candidates back (:class:`~sudoku_csp.render.highlights.Highlights`).

On a compact sheet what the digits of a kind share (size, colour, alignment) is written
once, on a group around them; on a shared one, the digits in their kind's colour are
``<use>`` of the page's definitions (:class:`~sudoku_csp.render.shared.SharedDefs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sudoku_csp.canvas import baseline, escape, text
from sudoku_csp.constraints import Constraint
from sudoku_csp.geometry import EMPTY, Candidate, Geometry
from sudoku_csp.render.highlights import Highlights
from sudoku_csp.render.layout import Sheet, candidate_size
from sudoku_csp.render.shared import SharedDefs

__all__ = ["Digits"]

GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1f5fbf"
CANDIDATE_COLOUR = "#555555"
DEAD_FILL = "#f8d0d0"


@dataclass(frozen=True)
class Digits:
    """What each cell of the picture on ``sheet`` shows: ``givens``; ``big``, the digit a
    cell shows full size (its given, its value, or its single candidate; ``EMPTY`` where it
    shows its candidates); ``candidates``, a bitmask per cell, or ``None`` for none drawn.

    >>> from sudoku_csp import make_geometry
    >>> sheet = Sheet.of(make_geometry(4), ())
    >>> Digits.of(sheet, [0] + [EMPTY] * 15, None, [0b1111, 0b0100] + [0b1111] * 14).big[:3]
    (0, 2, -1)
    """

    sheet: Sheet
    givens: Sequence[int]
    big: tuple[int, ...]
    candidates: Sequence[int] | None

    @classmethod
    def of(cls, sheet: Sheet, givens: Sequence[int], values: Sequence[int] | None,
           candidates: Sequence[int] | None, constraints: Sequence[Constraint] = ()) -> Digits:
        """``givens`` and ``values`` hold a digit or ``EMPTY`` per cell, ``candidates`` a
        bitmask per cell or ``None``: then those ``constraints`` that say where a solver
        starts leave (none: no candidates drawn)."""
        if candidates is None and any(c.starting for c in constraints):
            candidates = _starting_candidates(sheet.geometry, constraints)
        big = []
        for cell, given in enumerate(givens):
            mask = candidates[cell] if candidates is not None else 0
            big.append(given if given != EMPTY
                       else values[cell] if values is not None and values[cell] != EMPTY
                       else mask.bit_length() - 1 if mask and not mask & (mask - 1)
                       else EMPTY)
        return cls(sheet, givens, tuple(big), candidates)

    def where(self, candidate: Candidate) -> tuple[float, float, float]:
        """Centre and radius of a disc around a candidate's digit: at its spot among the
        cell's candidates, or round the cell's one digit written full size."""
        canvas = self.sheet.canvas
        cell, digit = candidate
        if self.big[cell] == EMPTY:
            return (*canvas.spot(cell, digit), canvas.small_radius(cell))
        return (*canvas.centre(cell), canvas.side * 0.38)

    def dead(self) -> list[str]:
        """Cells with no candidate left, tinted red."""
        if self.candidates is None:
            return []
        return self.sheet.canvas.shade((c for c, m in enumerate(self.candidates) if m == 0),
                                       "dead", DEAD_FILL)

    def draw(self, highlights: Highlights) -> list[str]:
        """Givens, then filled values, then the candidates of the open cells, in the colours
        the ``highlights`` give them and, under a focus, only those it shows."""
        geometry, canvas = self.sheet.geometry, self.sheet.canvas
        texts: list[_Text] = []
        small = candidate_size(geometry)
        for cell, given in enumerate(self.givens):
            mid_x, mid_y = canvas.centre(cell)
            if given != EMPTY:
                texts.append(_Text("given", cell, mid_x, mid_y, _symbol(geometry, given),
                                   GIVEN_COLOUR))
                continue
            value = self.big[cell]
            if value != EMPTY:
                colour = highlights.colour((cell, value), VALUE_COLOUR)
                texts.append(_Text("value", cell, mid_x, mid_y, _symbol(geometry, value),
                                   colour))
                continue
            mask = self.candidates[cell] if self.candidates is not None else 0
            fitted = canvas.fitted(cell, small)
            for d in range(geometry.size):
                if mask >> d & 1 and highlights.shows(cell, d):
                    x, y = canvas.spot(cell, d)
                    colour = highlights.colour((cell, d), CANDIDATE_COLOUR)
                    texts.append(_Text("candidate", cell, x, y, _symbol(geometry, d), colour,
                                       fitted))
        side = canvas.side
        styles = {"given": (side * 0.6, GIVEN_COLOUR, True),
                  "value": (side * 0.6, VALUE_COLOUR, False),
                  "candidate": (small, CANDIDATE_COLOUR, False)}
        if not self.sheet.compact:
            return [text(t.x, t.y, t.symbol, styles[t.kind][0] if t.size is None else t.size,
                         t.kind, t.colour, bold=styles[t.kind][2]) for t in texts]
        return _grouped(texts, styles, self.sheet.shared, geometry.size)


def _starting_candidates(geometry: Geometry, constraints: Sequence[Constraint]) -> list[int]:
    """What constraints that say where a solver starts (pencil marks) leave of each cell."""
    full = (1 << geometry.size) - 1
    masks = [full] * geometry.ncells
    for constraint in constraints:
        if constraint.starting:
            for link in constraint.native(geometry):
                narrowed = link.narrow(tuple(masks[c] for c in link.cells))
                for cell, mask in zip(link.cells, narrowed or (), strict=False):
                    masks[cell] = mask
    return masks


def _symbol(geometry: Geometry, digit: int) -> str:
    symbols = geometry.symbols
    return symbols[digit] if digit < len(symbols) else str(digit + 1)


class _Text(NamedTuple):
    """One digit to write: its kind (``given``, ``value``, ``candidate``), cell, centre,
    symbol, colour, and font size when it is not its kind's (candidates squeezed by
    constraint marks)."""

    kind: str
    cell: int
    x: float
    y: float
    symbol: str
    colour: str
    size: float | None = None


def _grouped(texts: Sequence[_Text], styles: dict[str, tuple[float, str, bool]],
             shared: SharedDefs | None, n: int) -> list[str]:
    """The digits grouped by kind, each group carrying its kind's ``(font size, colour,
    bold)`` from ``styles``, and a digit only the colour and size that differ from its
    group's. ``shared``: the digits in their kind's colour as ``<use>`` of shared
    definitions: all the givens as one (every picture of a page has them), the others one
    per row of the ``n``×``n`` grid, each made of one per cell (a cell's candidates stay the
    same over many steps); a cell holding a digit of another colour is written out."""
    out = []
    for kind, (font, plain, bold) in styles.items():
        group = [t for t in texts if t.kind == kind]
        if not group:
            continue
        weight = ' font-weight="bold"' if bold else ""
        out.append(f'<g class="{kind}s" font-size="{font:.1f}" fill="{plain}"{weight} '
                   'text-anchor="middle">')
        cells: dict[int, list[_Text]] = {}
        for digit in group:
            cells.setdefault(digit.cell, []).append(digit)
        coloured = {t.cell for t in group if t.colour != plain}
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


def _texts(kind: str, items: Sequence[_Text], plain: str, font: float) -> str:
    """One ``<text>`` per digit, with its kind's class, and the colour and size that differ
    from those of its kind's group (whose font size is ``font``)."""
    return "".join(f'<text class="{kind}" x="{t.x:.1f}" '
                   f'y="{baseline(t.y, font if t.size is None else t.size):.1f}"'
                   + (f' fill="{t.colour}"' if t.colour != plain else "")
                   + (f' font-size="{t.size:.1f}"' if t.size is not None else "")
                   + f">{escape(t.symbol)}</text>" for t in items)


def _lines(items: Sequence[_Text], font: float) -> str:
    """The digits of a shared definition (all in their group's colour, at its font size
    ``font`` unless their own; no class: the ``<use>`` stands in the kind's group): those on
    one line at one size as one ``<text>`` with an ``x`` per symbol, each of which starts a
    chunk of its own, centred there."""
    lines: dict[tuple[float, ...], list[_Text]] = {}
    for t in items:
        key: tuple[float, ...] = (t.y, -1.0 if t.size is None else t.size)
        if len(t.symbol) != 1:  # an x per character: a longer symbol needs a <text> of its own
            key += (t.x,)
        lines.setdefault(key, []).append(t)
    out = []
    for line in lines.values():
        first = line[0]
        xs = " ".join(f"{t.x:.1f}" for t in line)
        y = baseline(first.y, font if first.size is None else first.size)
        out.append(f'<text x="{xs}" y="{y:.1f}"'
                   + (f' font-size="{first.size:.1f}"' if first.size is not None else "")
                   + f'>{escape("".join(t.symbol for t in line))}</text>')
    return "".join(out)
