"""Skyscrapers: seen from the clue, exactly that many cells of the row or column are visible,
a cell being visible when its value is higher than every value before it (nearer the
clue); the values are the heights of the buildings.

The clue stands above or below a column, or left or right of a row, and the line is read
away from it. A line without a building of height N (which the units rule out anyway)
breaks the rule: so the rule's automaton knows that the tallest building comes and is seen,
and a clue of 1 puts it first at once.

Translations: one automaton (:class:`~sudoku_csp.constraints.automaton.AutomatonRule`) over
the whole line, its state the tallest height so far and how many were seen (never more than
the clue, less one until N is seen, and cut as soon as the heights above the tallest cannot
make up the count); it accepts when the count is the clue and N was seen:

- native: the automaton's link (generalised arc consistency for the whole line);
- CNF: the automaton's clauses, the automaton knowing too, on a row or column (a unit: its
  digits differ), that after ``i`` cells the tallest is ``i`` or more, which the rule alone
  does not say (a 1 then a 1 hides nothing); :data:`SKYSCRAPERS` ``rule``: the rule's
  automaton alone, as before the option;
- CP-SAT: by hand: the running maximum (``add_max_equality``), a Boolean per cell for
  "higher than the maximum before it" reified on it, their count equal to the clue, and the
  last maximum N. With presolve off (the backend's choice for puzzles with typed
  constraints) ``add_automaton`` did not finish the three skyscraper puzzles of
  SudokuVariantSolverJS's set in 20 s with either model; by hand they take 4-50 ms.

f-puzzles: ``skyscraper`` entries ``{"cell": "R0C3", "value": "4"}`` (above, below, left or
right); an entry without a value is skipped. Own JSON: ``{"skyscrapers": [{"from": "A3",
"direction": "down", "visible": 4}]}``, ``from`` the first cell read. Drawn as f-puzzles
does: the count in the clue's place outside the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.outside import OutsideClue
from sudoku_csp.constraints.translation import CnfContext, EncodingOption, Link
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry

_ORDINAL = {1: "st", 2: "nd", 3: "rd"}

SKYSCRAPERS = EncodingOption(
    "skyscrapers", "unit", "skyscraper clues in CNF: unit (the automaton also knows that the "
    "line's digits differ: after i cells the tallest is i or more) or rule (the rule's "
    "automaton alone)", ("unit", "rule"), "skyscraper encoding", unrecorded="rule")
"""How the sat backend reads a skyscraper clue on a row or column. ``unit`` by measurement
(docs/design.md, "Skyscrapers read with their unit in CNF")."""

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


@dataclass(frozen=True)
class Skyscraper(OutsideClue):
    """A skyscraper clue: reading ``cells`` (a whole row or column) ``direction`` from the
    clue, ``total`` values are higher than every value before them.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> clue = Skyscraper((3, 2, 1, 0), "left", 2)     # right of row A: sees 3, then 4
    >>> clue.violations(g, [3, 0, 1, 2] + [0] * 12), clue.violations(g, [0, 1, 2, 3] * 4)
    ([], ['skyscraper 2 right of row A does not hold: A4..A1 read 4 3 2 1, which gives 1'])
    """

    names = Names("skyscraper", json=("skyscrapers",), fpuzzles=("skyscraper",),
                  noun="skyscraper clue")
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (SKYSCRAPERS,)
    value_key: ClassVar[str] = "visible"

    @classmethod
    def clue_of(cls, values: Sequence[int], n: int) -> int | None:
        if n not in values:
            return None
        seen, tallest = 0, 0
        for height in values:
            if height > tallest:
                seen, tallest = seen + 1, height
        return seen

    @classmethod
    def bounds(cls, n: int, length: int) -> tuple[int, int]:
        return 1, min(n, length)

    def automaton(self, geometry: Geometry, unit: bool = False) -> Automaton:
        """The rule's automaton; with ``unit`` (the line is a unit), knowing too that its
        digits differ: after ``i`` cells the tallest is ``i`` or more."""
        n, total, length = geometry.size, self.total, len(self.cells)

        def step(state: tuple[int, int], i: int, value: int) -> tuple[int, int] | None:
            tallest, seen = state
            if value > tallest:
                tallest, seen = value, seen + 1
            # Still to see: N if not yet seen, and at most one per height above the
            # tallest and one per cell left. On a unit, i + 1 different digits read.
            if (seen + (tallest < n) > total or seen + min(n - tallest, length - 1 - i) < total
                    or unit and tallest <= i):
                return None
            return tallest, seen

        return build(("skyscraper", total, unit), length, n, (0, 0), step,
                     lambda state: state == (n, total))

    def cnf_automaton(self, ctx: CnfContext) -> Automaton:
        """:meth:`automaton` knowing that the line's digits differ where it is a unit
        (:meth:`~sudoku_csp.constraints.outside.OutsideClue.reads_a_unit`), unless
        ``skyscrapers=rule``: the clauses may lean on what the units say, the native link
        may not (it is judged alone, on grids that break the units)."""
        unit = ctx.option(SKYSCRAPERS) == "unit" and self.reads_a_unit(ctx.geometry)
        return self.automaton(ctx.geometry, unit)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The count of buildings seen: the tallest is the last seen, so no nearer than the
        clue's place in the line; then what each cell keeps of the readings that fit."""
        n, total = geometry.size, self.total
        where = ("first cell" if total == 1 else
                 f"{total}{_ORDINAL.get(total % 10 if total not in (11, 12, 13) else 0, 'th')}"
                 " cell or further")
        return (f"{total} seen, so the {geometry.symbols[n - 1]} stands in the {where}: "
                + kept(geometry, link.cells, candidates, gone))

    def cpsat(self, model: CpSatModel) -> None:
        m, n = model.model, model.geometry.size
        values = [model.value(c) for c in self.cells]
        tallest = m.new_int_var(1, n, "")
        m.add(tallest == values[0])
        seen: list[Any] = [1]  # the first cell is always seen
        for value in values[1:]:
            visible = m.new_bool_var("")
            m.add(value > tallest).only_enforce_if(visible)
            m.add(value <= tallest).only_enforce_if(~visible)
            higher = m.new_int_var(1, n, "")
            m.add_max_equality(higher, [tallest, value])
            tallest = higher
            seen.append(visible)
        m.add(tallest == n)
        m.add(sum(seen) == self.total)
