"""XV: an X between two cells that share a side joins values adding up to 10, a V values
adding up to 5. With ``negative`` (all marks are given), neighbours without a mark add up
to neither.

The translations are those of every mark between neighbours
(:class:`~sudoku_csp.constraints.pairs.MarkedPairs`).

f-puzzles writes them as ``xv`` entries (``"value": "X"`` or ``"V"``) and the word ``xv`` in
its ``negative`` list; they read back as :class:`~sudoku_csp.constraints.kinds.dots.Dots`, which
says the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sudoku_csp.canvas import Canvas
from sudoku_csp.constraints.base import Constraint, LinearTerms
from sudoku_csp.constraints.fields import rcs
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import NO_XV, SUM_FIVE, SUM_TEN, MarkedPairs, Relation
from sudoku_csp.geometry import Geometry


@dataclass(frozen=True)
class XV(MarkedPairs):
    """X marks (``first``: sum 10), V marks (``second``: sum 5), and the negative rule.

    >>> from sudoku_csp.variants import make_geometry
    >>> XV((), ((0, 1),), False).violations(make_geometry(4), [0, 2] + [0] * 14)
    ['V between A1 and A2 joins 1 and 3']
    """

    first: tuple[tuple[int, int], ...]
    second: tuple[tuple[int, int], ...] = ()
    negative: bool = False

    names = Names("xv", json=("xv",), fpuzzles_as="dots", noun="mark")
    sorts: ClassVar[tuple[str, str]] = ("x", "v")
    relations: ClassVar[tuple[Relation, Relation]] = (SUM_TEN, SUM_FIVE)
    unmarked: ClassVar[Relation] = NO_XV
    title: ClassVar[str] = "XV"
    shown: ClassVar[tuple[str, str]] = ("X", "V")

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """Each X's two cells add up to 10, each V's to 5."""
        return [(((a, 1), (b, 1)), total) for pairs, total in ((self.first, 10),
                                                                (self.second, 5))
                for a, b in pairs]

    def mark(self, canvas: Canvas, sort: int, x: float, y: float) -> list[str]:
        """The letter, bold on a white patch."""
        letter = self.shown[sort]
        return canvas.label(f"xv-{letter.lower()}", x, y, letter, canvas.letter_size, bold=True)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        marked = set()
        for (a, b), total in [(p, 10) for p in self.first] + [(p, 5) for p in self.second]:
            marked.add((a, b))
            x, y = grid[a] + 1, grid[b] + 1
            if x + y != total:
                found.append(f"{'X' if total == 10 else 'V'} between {geometry.label(a)} and "
                             f"{geometry.label(b)} joins {x} and {y}")
        if self.negative:
            n = geometry.size
            for a in range(geometry.ncells):
                for b in (a + 1, a + n):
                    if b >= geometry.ncells or (b == a + 1 and b % n == 0) or (a, b) in marked:
                        continue
                    x, y = grid[a] + 1, grid[b] + 1
                    if x + y in (5, 10):
                        found.append(f"{geometry.label(a)} and {geometry.label(b)} add up to "
                                     f"{x + y} but no mark is between them")
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        """Each mark an ``xv`` entry with its letter; the negative rule the word ``xv``."""
        out: dict[str, Any] = {}
        for c in constraints:
            if isinstance(c, XV):
                out.setdefault("xv", []).extend(
                    {"cells": rcs(geometry, pair), "value": letter}
                    for pairs, letter in ((c.first, "X"), (c.second, "V")) for pair in pairs)
                if c.negative:
                    out["negative"] = ["xv"]
        return out
