"""Kropki dots between cells that share a side: a white dot joins consecutive values, a black
dot two values one of which is double the other. With ``negative`` (all dots are given),
neighbours without a dot are neither consecutive nor in a 1:2 ratio. (1 and 2 may carry
either dot.)

The translations are those of every mark between neighbours
(:class:`~sudoku_csp.constraints.pairs.MarkedPairs`): arc consistency natively, support or
conflict clauses in CNF, tables in CP-SAT.

f-puzzles writes them as ``difference`` and ``ratio`` dots without values and the words
``difference`` and ``ratio`` in its ``negative`` list; they read back as
:class:`~sudoku_csp.constraints.kinds.dots.Dots`, which says the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sudoku_csp.canvas import DOT_COLOUR, Canvas
from sudoku_csp.constraints.base import Constraint
from sudoku_csp.constraints.fields import rcs
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import CONSECUTIVE, DOUBLE, NO_DOT, MarkedPairs, Relation
from sudoku_csp.geometry import Geometry


@dataclass(frozen=True)
class Kropki(MarkedPairs):
    """White dots (``first``: consecutive), black dots (``second``: one value double the
    other), and the negative rule.

    >>> from sudoku_csp.variants import make_geometry
    >>> Kropki(((0, 1),), ((2, 3),), False).violations(make_geometry(4), [0, 1, 1, 3] + [0] * 12)
    []
    """

    first: tuple[tuple[int, int], ...]
    second: tuple[tuple[int, int], ...] = ()
    negative: bool = False

    names = Names("kropki", json=("dots",), fpuzzles_as="dots", noun="dot")
    sorts: ClassVar[tuple[str, str]] = ("white", "black")
    relations: ClassVar[tuple[Relation, Relation]] = (CONSECUTIVE, DOUBLE)
    unmarked: ClassVar[Relation] = NO_DOT
    title: ClassVar[str] = "kropki dots"
    shown: ClassVar[tuple[str, str]] = ("white", "black")

    def mark(self, canvas: Canvas, sort: int, x: float, y: float) -> list[str]:
        """A small disc: white for consecutive, black for a double."""
        name, fill = (("white", "#ffffff"), ("black", DOT_COLOUR))[sort]
        return [f'<circle class="kropki-{name}" cx="{x:.1f}" cy="{y:.1f}" '
                f'r="{canvas.dot_radius:.1f}" fill="{fill}" stroke="{DOT_COLOUR}" '
                'stroke-width="1.2"/>']

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        marked = set()
        for (a, b), white in [(p, True) for p in self.first] + [(p, False) for p in self.second]:
            marked.add((a, b))
            x, y = grid[a] + 1, grid[b] + 1
            ok = abs(x - y) == 1 if white else (x == 2 * y or y == 2 * x)
            if not ok:
                found.append(f"{'white' if white else 'black'} dot between {geometry.label(a)} "
                             f"and {geometry.label(b)} joins {x} and {y}")
        if self.negative:
            n = geometry.size
            for a in range(geometry.ncells):
                for b in (a + 1, a + n):
                    if b >= geometry.ncells or (b == a + 1 and b % n == 0) or (a, b) in marked:
                        continue
                    x, y = grid[a] + 1, grid[b] + 1
                    if abs(x - y) == 1 or x == 2 * y or y == 2 * x:
                        found.append(f"{geometry.label(a)} and {geometry.label(b)} hold {x} and "
                                     f"{y} but no dot is between them")
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        """White dots as ``difference`` entries, black ones as ``ratio`` entries (the default
        values 1 and 2 left out); the negative rule as both words in ``negative``, and, when
        there is no white dot, ``nonconsecutive`` too: f-puzzles' negative difference rule
        only forbids the differences its dots carry (Rangsk's solver), while
        ``nonconsecutive`` on a puzzle with kropki dots forbids consecutive neighbours
        without a dot."""
        out: dict[str, Any] = {}
        for c in constraints:
            if isinstance(c, Kropki):
                out.setdefault("difference", []).extend(
                    {"cells": rcs(geometry, pair)} for pair in c.first)
                out.setdefault("ratio", []).extend(
                    {"cells": rcs(geometry, pair)} for pair in c.second)
                if c.negative:
                    out["negative"] = ["difference", "ratio"]
                    if not c.first:
                        out["nonconsecutive"] = True
        return out
