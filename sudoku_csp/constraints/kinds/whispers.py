"""Whispers lines: cells next to each other along the line differ by at least the line's
difference (German whispers: 5 on 9x9; Dutch whispers: 4).

The difference defaults to half the grid size rounded up (5 on 9x9, 2 on 4x4, 3 on 6x6),
as in Rangsk's solver (f-puzzles' German whispers "adjusts to (size / 2) rounded up"); an
f-puzzles element may give another as ``"value"``. A line may pass a cell twice (a loop):
only neighbours along the line are compared.

Translations: the relation "at least d apart" on each step of the line
(:class:`~sudoku_csp.constraints.pairs.PairRules`): arc consistency natively, support or
conflict clauses (whichever are fewer), a table in CP-SAT. The rule is exactly the
conjunction of its steps, so nothing more is needed. Drawn as f-puzzles does: a green line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import LinePairs, apart
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry


def default_difference(n: int) -> int:
    """Half the grid size rounded up: 5 on 9x9."""
    return (n + 1) // 2


@dataclass(frozen=True)
class Whispers(LinePairs):
    """A whispers line: neighbours along ``cells`` differ by at least ``difference``.

    >>> from sudoku_csp.variants import make_geometry
    >>> Whispers((0, 1, 2), 2).violations(make_geometry(4), [0, 2, 1] + [0] * 13)
    ['whispers line at A1: A2 and A3 (3 and 2) differ by less than 2']
    """

    cells: tuple[int, ...]
    difference: int

    names = Names("whispers", json=("whispers",), fpuzzles=("whispers",), noun="whispers line")
    colour: ClassVar[str] = "#67f067"
    width: ClassVar[float] = 0.1875
    option: ClassVar[str | None] = "difference"
    revisits: ClassVar[bool] = True

    def number(self) -> int | None:
        return self.difference

    @classmethod
    def default(cls, n: int) -> int | None:
        return default_difference(n)

    @classmethod
    def number_range(cls, n: int) -> tuple[int, int]:
        return 1, n - 1

    @classmethod
    def sample_numbers(cls, n: int, rng: random.Random) -> list[int | None]:
        d = default_difference(n)
        return [rng.choice([d, d, max(d - 1, 1)]), d, 1]  # 1: neighbours always differ

    @classmethod
    def make(cls, cells: tuple[int, ...], number: int | None) -> LinePairs:
        return cls(cells, number if number is not None else 1)

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        rel = apart(self.difference)
        return [(a, b, rel) for a, b in zip(self.cells, self.cells[1:], strict=False)]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            x, y = grid[a] + 1, grid[b] + 1
            if abs(x - y) < self.difference:
                found.append(f"{self.describe(geometry)}: {geometry.label(a)} and "
                             f"{geometry.label(b)} ({x} and {y}) differ by less than "
                             f"{self.difference}")
        return found
