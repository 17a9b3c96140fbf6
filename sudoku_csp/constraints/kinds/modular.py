"""Modular lines: every run of ``m`` consecutive cells along the line holds one value of each
residue modulo ``m`` (``m`` = 3 by default: on 9x9 one of 1/4/7, one of 2/5/8, one of
3/6/9); a line shorter than ``m`` holds values of different residues.

Rangsk's solver and the f-puzzles extension know only ``m`` = 3; an f-puzzles element may
give another modulus as ``"value"`` (from 2 to N), which is written back only when it is not
3. A line may pass a cell twice only a multiple of ``m`` steps apart.

Translations (:class:`~sudoku_csp.constraints.pairs.PairRules`): cells fewer than ``m``
steps apart have different residues, which is exact (``m`` values of pairwise different
residues hold each residue once); also, implied, cells a multiple of ``m`` apart have the
same residue and any other two different ones, as in Rangsk's solver. Drawn as the
f-puzzles extension draws it: a teal line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairlines import LinePairs, windows
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry

MODULUS = 3
"""The modulus of a modular line that gives none."""


@lru_cache(maxsize=64)
def _residues(modulus: int, same: bool) -> Relation:
    if same:
        return Relation(f"same residue mod {modulus}", lambda x, y: x % modulus == y % modulus,
                        f"{{a}} and {{b}} leave the same remainder mod {modulus}")
    return Relation(f"residues differ mod {modulus}", lambda x, y: x % modulus != y % modulus,
                    f"{{a}} and {{b}} leave different remainders mod {modulus}")


@dataclass(frozen=True)
class ModularLine(LinePairs):
    """A modular line: each ``modulus`` consecutive ``cells`` hold every residue once.

    >>> from sudoku_csp.variants import make_geometry
    >>> ModularLine((0, 1, 2)).violations(make_geometry(4), [0, 3, 2] + [0] * 13)
    ['modular line at A1: A1, A2, A3 (1, 4, 3) repeat a residue mod 3']
    """

    cells: tuple[int, ...]
    modulus: int = MODULUS

    names = Names("modular line", json=("modular_lines",), fpuzzles=("modularline",))
    colour: ClassVar[str] = "#33bbbb"
    width: ClassVar[float] = 0.15625
    option: ClassVar[str | None] = "modulus"
    revisits: ClassVar[bool] = True

    def number(self) -> int | None:
        return self.modulus

    @classmethod
    def default(cls, n: int) -> int | None:
        return MODULUS

    @classmethod
    def number_range(cls, n: int) -> tuple[int, int]:
        return 2, n

    @classmethod
    def sample_numbers(cls, n: int, rng: random.Random) -> list[int | None]:
        return [rng.choice([MODULUS, MODULUS, 2, 4]), MODULUS, 2]

    @classmethod
    def make(cls, cells: tuple[int, ...], number: int | None) -> LinePairs:
        return cls(cells, number if number is not None else MODULUS)

    def check(self, geometry: Geometry) -> None:
        seen: dict[int, int] = {}
        for i, cell in enumerate(self.cells):
            if cell in seen and (i - seen[cell]) % self.modulus:
                raise ConstraintError(
                    f"the {self.names.noun} passes {geometry.label(cell)} twice, {i - seen[cell]} "
                    f"steps apart: it could never hold (only a multiple of {self.modulus} "
                    "steps apart)", part="cells")
            seen[cell] = i

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        m = self.modulus
        same, different = _residues(m, True), _residues(m, False)
        cells = self.cells
        return [(cells[i], cells[j], same if (j - i) % m == 0 else different)
                for i in range(len(cells)) for j in range(i + 1, len(cells))
                if cells[i] != cells[j]]

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        m = self.modulus
        found = []
        for run in windows(self.cells, m):
            values = [grid[c] + 1 for c in run]
            if len({v % m for v in values}) != len(values):
                found.append(f"{self.describe(geometry)}: "
                             f"{', '.join(geometry.label(c) for c in run)} "
                             f"({', '.join(map(str, values))}) repeat a residue mod {m}")
        return found
