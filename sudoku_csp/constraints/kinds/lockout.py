"""Lockout lines: the two ends of the line (its diamonds) differ by at least a minimum, and no
other cell of the line holds a value between the ends' values, inclusive. Digits may repeat
along the line where no unit forbids it.

The minimum is ⌊N/2⌋ (4 on 9x9, 3 on 6x6), as in Rangsk's solver, unless the line gives its
own (an f-puzzles entry's ``value``). f-puzzles key ``lockout``
(``{"lines": [[...], ...], "value": "4"}``, each line one constraint, the value optional);
JSON field ``lockout_lines``: each line a list of cell labels, or
``{"cells": [...], "difference": 3}`` with a minimum of its own.

Translations:

- native: an automaton (:mod:`sudoku_csp.constraints.automaton`) reading both ends, then
  the other cells, its state the ends' values in order (at most N²/2 states a layer):
  generalised arc consistency;
- CNF: on the ends' order literals and one literal "the first end is the smaller", each
  other cell outside the ends' range on its digits
  (:func:`~sudoku_csp.constraints.order_lines.lockout_clauses`), so that a SAT solver
  learns clauses about the ends' bounds; :data:`~sudoku_csp.constraints.order_lines.
  LOCKOUT_ORDER` ``off``: the automaton's clauses, as before the option (on thirteen
  generated lockout puzzles 2.8 -> 1.5 ms at the median, 2,024 -> 1,038 conflicts in
  all: docs/design.md, "Lockout lines on order literals");
- CP-SAT: a Boolean for which end is the smaller, enforcing the difference either way, and
  one per other cell, enforcing that it lies below both ends or above both. Measured
  against the automaton's ``add_automaton`` (:data:`CPSAT_LINEAR`) on three 9x9 grids with
  ten sampled lines (the dev corpus has no lockout line): 4 ms against 5-8.

Drawn as SudokuPad draws it: a thick line with a diamond at each end.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import CellName, ConstraintError, at
from sudoku_csp.constraints.cell_orders import CELL_ORDERS, order_definitions
from sudoku_csp.constraints.fields import FieldError, labels, parse_cells, parse_number
from sudoku_csp.constraints.line_kinds import LineRule, Reading
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.order_lines import LOCKOUT_ORDER, lockout_clauses
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
)
from sudoku_csp.constraints.wording import marked
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

CPSAT_LINEAR = True
"""Whether CP-SAT gets a lockout line as linear inequalities enforced by Boolean choices rather
than as its automaton: measured faster (see the module docstring)."""


def default_difference(size: int) -> int:
    """The least difference of a lockout line's ends unless it says otherwise: ⌊N/2⌋.

    >>> default_difference(9), default_difference(6), default_difference(4)
    (4, 3, 2)
    """
    return size // 2


def _reader(difference: int):  # noqa: ANN202
    def step(state: tuple[int, ...], position: int, value: int) -> tuple[int, ...] | None:
        if position == 0:
            return (value,)
        if position == 1:
            low, high = min(state[0], value), max(state[0], value)
            return (low, high) if high - low >= difference else None
        low, high = state
        return state if value < low or value > high else None

    return step


def _accept(state: tuple[int, ...]) -> bool:
    return True


@dataclass(frozen=True)
class LockoutLine(LineRule):
    """A lockout line along ``cells``: its ends differ by at least ``difference`` (``None``:
    :func:`default_difference`), and no other cell holds a value between them, inclusive.

    >>> from sudoku_csp.variants import make_geometry
    >>> LockoutLine((0, 1, 2)).violations(make_geometry(4), [0, 1, 2] + [0] * 13)
    ['lockout line at A1: its ends A1 and A3 hold 1 and 3, and A2 holds 2, between them']
    """

    difference: int | None = None

    names = Names("lockout line", json=("lockout_lines",), fpuzzles=("lockout",))
    colour: ClassVar[str] = "#ffa53d"
    opacity: ClassVar[float] = 0.6
    width: ClassVar[float] = 0.15
    ends: ClassVar[str] = "diamond"
    ends_first: ClassVar[bool] = True
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (LOCKOUT_ORDER, CELL_ORDERS)

    def least_difference(self, geometry: Geometry) -> int:
        """The least difference of the ends on ``geometry``."""
        return (default_difference(geometry.size) if self.difference is None
                else self.difference)

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        n, least = geometry.size, self.least_difference(geometry)
        if not (isinstance(least, int) and 1 <= least <= n - 1):
            raise ConstraintError(f"the ends of a lockout line on a {n}x{n} grid can differ by "
                                  f"1 to {n - 1}, not by {least}", part="difference")
        if len(self.cells) > 2 and least > n - 2:
            raise ConstraintError(f"ends {least} apart on a {n}x{n} grid leave no value for "
                                  "the other cells of a lockout line", part="difference")

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        own = "" if self.difference is None else f" (difference {self.difference})"
        return f"{self.kind} at {at(geometry, self.cells, name)}{own}"

    combines: ClassVar[bool] = False  # the ends' range, read like a thermometer's bounds

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        first, last, middle = self.cells[0], self.cells[-1], self.cells[1:-1]
        outside = (f", and {', '.join(geometry.label(c) for c in middle)} "
                   f"{'lies' if len(middle) == 1 else 'lie'} outside the range between them"
                   if middle else "")
        return (f"the ends {marked(geometry, first, candidates[first])} and "
                f"{marked(geometry, last, candidates[last])} differ by at least "
                f"{self.least_difference(geometry)}{outside}")

    def reading(self, geometry: Geometry) -> Reading:
        least = self.least_difference(geometry)
        return Reading(("lockout", least), (), _reader(least), _accept)

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """With ``lockout_order=on``, its ends' order literals
        (:func:`~sudoku_csp.constraints.cell_orders.order_definitions`)."""
        if ctx.option(LOCKOUT_ORDER) == "off":
            return ()
        return order_definitions(ctx, (self.cells[0], self.cells[-1]))

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """On its ends' order literals (:func:`~sudoku_csp.constraints.order_lines.
        lockout_clauses`); with ``lockout_order=off`` the automaton's clauses."""
        if ctx.option(LOCKOUT_ORDER) == "off":
            return super().cnf(ctx)
        return lockout_clauses(ctx, self.cells, self.least_difference(ctx.geometry))

    def cpsat_rule(self, model: CpSatModel) -> None:
        if not CPSAT_LINEAR:
            super().cpsat_rule(model)
            return
        value, cp = model.value, model.model
        a, b = value(self.cells[0]), value(self.cells[-1])
        least = self.least_difference(model.geometry)
        up = cp.new_bool_var("")
        cp.add(b - a >= least).only_enforce_if(up)
        cp.add(a - b >= least).only_enforce_if(~up)
        for c in self.cells[1:-1]:
            below = cp.new_bool_var("")
            cp.add(value(c) < a).only_enforce_if(below)
            cp.add(value(c) < b).only_enforce_if(below)
            cp.add(value(c) > a).only_enforce_if(~below)
            cp.add(value(c) > b).only_enforce_if(~below)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        label = geometry.label
        a, b = self.cells[0], self.cells[-1]
        first, last = grid[a] + 1, grid[b] + 1
        least = self.least_difference(geometry)
        found = []
        if abs(first - last) < least:
            found.append(f"{self.describe(geometry)}: its ends {label(a)} and {label(b)} hold "
                         f"{first} and {last}, less than {least} apart")
        low, high = min(first, last), max(first, last)
        found += [f"{self.describe(geometry)}: its ends {label(a)} and {label(b)} hold "
                  f"{first} and {last}, and {label(c)} holds {grid[c] + 1}, between them"
                  for c in self.cells[1:-1] if low <= grid[c] + 1 <= high]
        return found

    # -- JSON and f-puzzles -----------------------------------------------------------------
    @classmethod
    def line_from_json(cls, geometry: Geometry, item: object, path: str) -> LineRule:
        if not isinstance(item, Mapping):
            return cls(parse_cells(geometry, item, path, least=cls.least))
        unknown = set(item) - {"cells", "difference"}
        if unknown:
            raise FieldError(f"{path}.{sorted(unknown)[0]}",
                             "unknown field: expected cells or difference")
        cells = parse_cells(geometry, item.get("cells"), f"{path}.cells", least=cls.least)
        difference = None
        if "difference" in item:
            difference = parse_number(item["difference"], f"{path}.difference", low=1,
                                      high=geometry.size - 1)
        return cls(cells, difference)

    def line_to_json(self, geometry: Geometry) -> object:
        if self.difference is None:
            return labels(geometry, self.cells)
        return {"cells": labels(geometry, self.cells), "difference": self.difference}

    @classmethod
    def line_from_fpuzzles(cls, geometry: Geometry, item: Mapping[str, Any], path: str,
                           cells: tuple[int, ...]) -> LineRule:
        value = item.get("value")
        if value in (None, ""):
            return cls(cells)
        return cls(cells, parse_number(value, f"{path}.value", low=1, high=geometry.size - 1))

    def line_to_fpuzzles(self, geometry: Geometry) -> dict[str, Any]:
        own = {} if self.difference is None else {"value": str(self.difference)}
        return {**super().line_to_fpuzzles(geometry), **own}

    @classmethod
    def sample_line(cls, geometry: Geometry, cells: tuple[int, ...], rng: random.Random
                    ) -> LineRule:
        """A line with the default difference, or now and then a smaller one of its own."""
        if rng.random() < 0.3 and default_difference(geometry.size) > 1:
            return cls(cells, rng.randint(1, default_difference(geometry.size) - 1))
        return cls(cells)
