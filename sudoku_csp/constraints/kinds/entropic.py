"""Entropic lines: every three consecutive cells along the line hold one low, one middle and
one high value (a line of two cells: values of two different thirds).

The thirds of 1..N follow Rangsk's solver and the f-puzzles extension: 1-3, 4-6, 7-9 on
9x9; when N is not divisible by 3, the low and high thirds have the same size and the middle
one takes the difference (4x4: 1 | 2-3 | 4; 5x5: 1-2 | 3 | 4-5; 8x8: 1-3 | 4-5 | 6-8). A line
may pass a cell twice only a multiple of three steps apart (the same third), else it could
never hold.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): cells 1 or 2 apart along
the line are in different thirds, which is exact (three cells pairwise in different thirds
hold one of each); also, implied and cheap, cells a multiple of 3 apart are in the same
third and any other two in different thirds (each window fixes the third of every third
cell), which lets arc consistency see along the whole line. Drawn as f-puzzles' extension
draws it: a pale orange line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import LinePairs, windows
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry


@lru_cache(maxsize=32)
def _thirds(n: int) -> tuple[int, ...]:
    """The third (0 low, 1 middle, 2 high) of each value 1..n."""
    small, large = n // 3, -(-n // 3)
    low, middle = (small, large) if 2 * small + large == n else (large, small)
    return tuple(0 if v <= low else 1 if v <= low + middle else 2 for v in range(1, n + 1))


@lru_cache(maxsize=64)
def _third_relation(n: int, same: bool) -> Relation:
    third = _thirds(n)
    word = "same" if same else "different"
    return Relation(f"{word} thirds of 1..{n}",
                    lambda x, y: (third[x - 1] == third[y - 1]) == same,
                    f"{{a}} and {{b}} lie in {'the same third' if same else 'different thirds'}"
                    f" of 1..{n}")


@dataclass(frozen=True)
class EntropicLine(LinePairs):
    """An entropic line: each three consecutive ``cells`` hold a low, a middle and a high
    value.

    >>> from sudoku_csp.variants import make_geometry
    >>> EntropicLine((0, 1, 2)).violations(make_geometry(4), [0, 3, 2] + [0] * 13)
    []
    >>> EntropicLine((0, 1, 2)).violations(make_geometry(4), [0, 2, 1] + [0] * 13)
    ['entropic line at A1: A1, A2, A3 (1, 3, 2) are not in different thirds (1 | 2-3 | 4)']
    """

    cells: tuple[int, ...]

    names = Names("entropic line", json=("entropic_lines",), fpuzzles=("entropicline",))
    colour: ClassVar[str] = "#ffccaa"
    width: ClassVar[float] = 0.15625
    revisits: ClassVar[bool] = True

    def check(self, geometry: Geometry) -> None:
        seen: dict[int, int] = {}
        for i, cell in enumerate(self.cells):
            if cell in seen and (i - seen[cell]) % 3:
                raise ConstraintError(
                    f"the {self.names.noun} passes {geometry.label(cell)} twice, {i - seen[cell]} "
                    "steps apart: it could never hold (only a multiple of 3 steps apart)",
                    part="cells")
            seen[cell] = i

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        n = geometry.size
        same, different = _third_relation(n, True), _third_relation(n, False)
        cells = self.cells
        return [(cells[i], cells[j], same if (j - i) % 3 == 0 else different)
                for i in range(len(cells)) for j in range(i + 1, len(cells))
                if cells[i] != cells[j]]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        n = geometry.size
        edge = round(n / 3)  # the low and the high third; the middle one takes the rest

        def third(value: int) -> int:
            return 0 if value <= edge else 2 if value > n - edge else 1

        def shown(low: int, high: int) -> str:
            return f"{low}" if low == high else f"{low}-{high}"

        bands = f"{shown(1, edge)} | {shown(edge + 1, n - edge)} | {shown(n - edge + 1, n)}"
        found = []
        for run in windows(self.cells, 3):
            values = [grid[c] + 1 for c in run]
            if len({third(v) for v in values}) != len(values):
                found.append(f"{self.describe(geometry)}: "
                             f"{', '.join(geometry.label(c) for c in run)} "
                             f"({', '.join(map(str, values))}) are not in different thirds "
                             f"({bands})")
        return found
