"""Palindromes: the line reads the same from either end (cells the same number of steps from
the two ends hold the same value). A line may pass a cell twice.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): "equal" between each cell
of the first half and its mirror in the second, which is the rule; a cell that is its own
mirror (the middle of an odd line, or a loop) rules nothing. Arc consistency natively (each
cell keeps its mirror's candidates), support clauses, tables in CP-SAT. Drawn as f-puzzles
does: a grey line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import EQUAL, LinePairs
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry


@dataclass(frozen=True)
class Palindrome(LinePairs):
    """A palindrome line: ``cells`` read the same both ways.

    >>> from sudoku_csp.variants import make_geometry
    >>> Palindrome((0, 5, 2)).violations(make_geometry(4), [0, 0, 1, 0, 0, 2] + [0] * 10)
    ['palindrome at A1: A1 and A3 (1 and 2) differ, the same number of steps from the ends']
    """

    cells: tuple[int, ...]

    names = Names("palindrome", json=("palindromes",), fpuzzles=("palindrome",))
    colour: ClassVar[str] = "#c0c0c0"
    width: ClassVar[float] = 0.25
    revisits: ClassVar[bool] = True
    prefix_closed: ClassVar[bool] = False

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        cells = self.cells
        return [(cells[i], cells[-1 - i], EQUAL) for i in range(len(cells) // 2)
                if cells[i] != cells[-1 - i]]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        backwards = self.cells[::-1]
        for i, (a, b) in enumerate(zip(self.cells, backwards, strict=True)):
            if i < len(self.cells) - 1 - i and grid[a] != grid[b]:
                found.append(f"{self.describe(geometry)}: {geometry.label(a)} and "
                             f"{geometry.label(b)} ({grid[a] + 1} and {grid[b] + 1}) differ, "
                             "the same number of steps from the ends")
        return found
