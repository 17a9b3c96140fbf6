"""Non-consecutive: cells that share a side never hold consecutive values.

The translations are those of any rule between two cells
(:mod:`sudoku_csp.constraints.pairs`), on every pair of neighbours: arc consistency natively,
conflict clauses in CNF (16 per pair on 9×9), forbidden pairs in CP-SAT. A rule over the
whole grid, so nothing is drawn (the picture's title names it); a generator keeps it on every
grid it draws (:meth:`NonConsecutive.grid_rule`).

f-puzzles says it with the flag ``nonconsecutive``; on a puzzle with kropki dots (difference
or ratio entries) the flag means "neighbours without a dot are not consecutive" and
:class:`~sudoku_csp.constraints.kinds.dots.Dots` reads it instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import Constraint, Pieces
from sudoku_csp.constraints.fields import orthogonal_pairs, parse_bool
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import (
    NOT_CONSECUTIVE,
    pair_clauses,
    pair_cpsat,
    pair_link,
    pair_why,
)
from sudoku_csp.constraints.translation import Clause, CnfContext, Link
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


@dataclass(frozen=True)
class NonConsecutive(Constraint):
    """No two cells sharing a side hold consecutive values.

    >>> from sudoku_csp.variants import make_geometry
    >>> NonConsecutive().violations(make_geometry(4), [0, 2, 0, 2] + [1] * 12)[:1]
    ['A1 and B1 hold consecutive values (1 and 2)']
    """

    names = Names("nonconsecutive", json=("nonconsecutive",), fpuzzles=("nonconsecutive",))
    single: ClassVar[bool] = True

    def touched(self) -> tuple[int, ...]:
        return ()

    def native(self, geometry: Geometry) -> list[Link]:
        n = geometry.size
        return [pair_link(a, b, NOT_CONSECUTIVE, n) for a, b in orthogonal_pairs(geometry)]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        for a, b in orthogonal_pairs(ctx.geometry):
            yield from pair_clauses(ctx, a, b, NOT_CONSECUTIVE)

    def cpsat(self, model: CpSatModel) -> None:
        for a, b in orthogonal_pairs(model.geometry):
            pair_cpsat(model, a, b, NOT_CONSECUTIVE)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The two neighbours' rule (:func:`~sudoku_csp.constraints.pairs.pair_why`)."""
        a, b = link.cells
        return pair_why(geometry, candidates, a, b, NOT_CONSECUTIVE, gone)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        n, found = geometry.size, []
        for r in range(n):
            for c in range(n):
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < n and cc < n and abs(grid[r * n + c] - grid[rr * n + cc]) == 1:
                        found.append(f"{geometry.label(r * n + c)} and "
                                     f"{geometry.label(rr * n + cc)} hold consecutive values "
                                     f"({grid[r * n + c] + 1} and {grid[rr * n + cc] + 1})")
        return found

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return ["non-consecutive: neighbours never consecutive"]

    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        return [cls()], []  # the grid keeps it (grid_rule): a fixed rule, never dropped

    @classmethod
    def grid_rule(cls) -> tuple[Constraint, ...]:
        return (cls(),)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        return [cls()] if parse_bool(fields["nonconsecutive"], "nonconsecutive") else []

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"nonconsecutive": True} if any(isinstance(c, cls) for c in constraints) else {}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``"nonconsecutive": true``, unless the puzzle has kropki dots (``difference`` or
        ``ratio`` entries): the flag then exempts the dotted pairs, and the dots' kind
        reads it (Rangsk's solver's reading)."""
        on = parse_bool(document.get("nonconsecutive", False), "nonconsecutive")
        dotted = any(isinstance(document.get(key), list) and document[key]
                     for key in ("difference", "ratio"))
        return [cls()] if on and not dotted else []

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"nonconsecutive": True} if any(isinstance(c, cls) for c in constraints) else {}

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """The rule, when ``grid`` keeps it (none of the 4x4 grids does)."""
        return [] if cls().violations(geometry, grid) else [cls()]
