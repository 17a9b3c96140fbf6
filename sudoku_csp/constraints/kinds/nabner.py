"""Nabner lines: no two cells of the line hold equal or consecutive values (wherever they
stand on the line).

Values pairwise at least 2 apart: a line holds at most ``ceil(N/2)`` cells (1, 3, 5, 7, 9
on 9x9); a longer line can never hold and is refused (Rangsk's solver makes it an
unsolvable constraint). No cell twice.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): "at least 2 apart" between
every two cells of the line, which is the rule itself. Drawn as f-puzzles' extension draws
it: a thick pale olive-yellow line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import LinePairs, apart
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry


@dataclass(frozen=True)
class Nabner(LinePairs):
    """A nabner line: no two of ``cells`` hold equal or consecutive values.

    >>> from sudoku_csp.variants import make_geometry
    >>> Nabner((0, 5)).violations(make_geometry(4), [0] * 5 + [1] + [0] * 10)
    ['nabner line at A1: A1 and B2 hold 1 and 2, equal or consecutive']
    """

    cells: tuple[int, ...]

    names = Names("nabner", json=("nabners",), fpuzzles=("nabner",), noun="nabner line")
    colour: ClassVar[str] = "#c9c883"
    width: ClassVar[float] = 0.25

    @classmethod
    def longest(cls, n: int) -> int | None:
        return (n + 1) // 2

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        rel = apart(2)
        cells = self.cells
        return [(cells[i], cells[j], rel)
                for i in range(len(cells)) for j in range(i + 1, len(cells))]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        for i, a in enumerate(self.cells):
            for b in self.cells[i + 1:]:
                x, y = grid[a] + 1, grid[b] + 1
                if x - 1 <= y <= x + 1:
                    found.append(f"{self.describe(geometry)}: {geometry.label(a)} and "
                                 f"{geometry.label(b)} hold {x} and {y}, equal or consecutive")
        return found
