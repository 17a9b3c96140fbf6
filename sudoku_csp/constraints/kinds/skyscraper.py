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
- CNF (:data:`SKYSCRAPERS`): ``lines``, on a row or column (a unit: its digits differ),
  the line read from the clue's side is a definition whatever the clue (:func:`_line`: the
  tallest so far on order literals, each cell seen or not, how many seen, and what a
  prefix leaves the count), which the sat backend's incremental mode holds for every puzzle
  after, and the clue two clauses on the count; ``unit``, the automaton's clauses, the
  automaton knowing too that after ``i`` cells the tallest is ``i`` or more, which the rule
  alone does not say (a 1 then a 1 hides nothing); ``rule``, the rule's automaton alone, as
  before the option;
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.outside import OutsideClue
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Constant,
    Definition,
    EncodingOption,
    Link,
    folded,
    negated,
    templated,
)
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry

_ORDINAL = {1: "st", 2: "nd", 3: "rd"}

SKYSCRAPERS = EncodingOption(
    "skyscrapers", "lines", "skyscraper clues in CNF: lines (the line read from the clue's "
    "side defined once whatever the clue: the tallest so far, each cell seen or not, how "
    "many seen; a clue is its count), unit (the automaton also knows that the line's digits "
    "differ: after i cells the tallest is i or more) or rule (the rule's automaton alone)",
    ("lines", "unit", "rule"), "skyscraper encoding", unrecorded="rule")
"""How the sat backend reads a skyscraper clue on a row or column. ``lines`` by measurement
(docs/design.md, "Skyscrapers on shared lines"): on thirteen generated skyscraper puzzles
5.6 -> 1.2 ms at the median and 3,634 -> 24 conflicts in all; ``unit`` over ``rule``
(docs/design.md, "Skyscrapers read with their unit in CNF")."""

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel



def _line(slots: CnfContext, cells: tuple[int, ...]) -> list[Clause]:
    """A row or column read from one side as a
    :class:`~sudoku_csp.constraints.translation.Definition` (``skyscrapers=lines``), whatever
    the clue: first "``j`` or more seen in all" (``j = 2..L``, what a clue reads), then per
    cell ``i`` but the last "the tallest of the first ``i + 1`` is ``v`` or more" (``v = i +
    2..N``: the line is a unit, so ``i + 1`` or more always holds), per cell but the first
    "seen" (higher than the tallest before it), per cell but the first and the last "``j``
    or more of the first ``i + 1`` seen" (``j = 2..i + 1``), each defined both ways by the
    digits. Besides, what bounds the count from a prefix: after ``i + 1`` cells with fewer
    than ``j + 1`` seen and the tallest ``v`` or more, at most ``j + N - v`` in all (so a
    clue of ``k`` keeps the tallest out of the first ``k - 1`` cells); with the tallest
    under ``N``, one more to come. A grid keeping the units satisfies every clause with the
    auxiliaries at their meaning."""
    n, length, x = slots.geometry.size, len(cells), slots.x
    final = dict(zip(range(2, length + 1), slots.new_vars(length - 1), strict=True))
    tallest = [dict(zip(range(i + 2, n + 1), slots.new_vars(n - i - 1), strict=True))
               for i in range(length - 1)]
    seen = [0, *slots.new_vars(length - 1)]
    counts = [{} if i in (0, length - 1) else
              dict(zip(range(2, i + 2), slots.new_vars(i), strict=True)) for i in range(length)]
    counts[-1] = final

    def ge(i: int, v: int) -> Constant:  # the tallest of the first i + 1 is v or more
        if v <= i + 1:
            return True
        if v > n:
            return False
        return True if i == length - 1 else tallest[i][v]

    def at_least(i: int, j: int) -> Constant:  # j or more of the first i + 1 seen
        if j <= 1:
            return True
        if j > i + 1:
            return False
        return counts[i][j]

    found: list[Clause | None] = []
    for i, cell in enumerate(cells[:-1]):
        for v in range(i + 2, n + 1):
            here, higher = ge(i, v), [x(cell, d) for d in range(v - 1, n)]
            found += [(-h, here) for h in higher]
            found.append(folded(negated(here), *(() if i == 0 else (ge(i - 1, v),)), *higher))
            found += [folded(negated(ge(i - 1, v)), here) if i else None,
                      folded(negated(ge(i, v + 1)), here)]
    for i in range(1, length):
        cell, look = cells[i], seen[i]
        for d in range(n):  # seen: higher than the tallest before
            before = ge(i - 1, d + 1)
            found += [folded(-x(cell, d), before, look),
                      folded(-x(cell, d), negated(before), -look)]
        for v in range(2, n + 1):  # the tallest grows exactly where a cell is seen
            found += [folded(negated(ge(i, v)), ge(i - 1, v), look),
                      folded(-look, negated(ge(i - 1, v)), ge(i, v + 1))]
        for j in range(2, i + 2):  # counting the cells seen
            now, then, one_less = at_least(i, j), at_least(i - 1, j), at_least(i - 1, j - 1)
            found += [folded(negated(then), now), folded(negated(one_less), -look, now),
                      folded(negated(now), then, one_less), folded(negated(now), then, look),
                      folded(negated(at_least(i, j + 1)), now)]
    for i in range(length - 1):  # what a prefix leaves the count
        for j in range(1, i + 2):
            found.append(folded(negated(at_least(i, j)), ge(i, n), at_least(length - 1, j + 1)))
            for v in range(i + 2, n + 1):
                most = j + min(n - v, length - 1 - i)
                found.append(folded(at_least(i, j + 1), negated(ge(i, v)),
                                   negated(at_least(length - 1, most + 1))))
    return [clause for clause in found if clause is not None]


@lru_cache(maxsize=1024)
def _line_of(cells: tuple[int, ...]) -> Definition:
    return Definition(("skyscraper line",), cells, _line)


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

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """With ``skyscrapers=lines`` on a row or column, its line read from the clue's side
        (:func:`_line`)."""
        return (_line_of(self.cells),) if self._on_line(ctx) else ()

    def _on_line(self, ctx: CnfContext) -> bool:
        return ctx.option(SKYSCRAPERS) == "lines" and self.reads_a_unit(ctx.geometry)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """With ``skyscrapers=lines`` on a row or column: its line's auxiliaries
        (:func:`_line`, with their clauses unless the solver holds them) and two clauses
        of its own, "``total`` or more seen" and "not ``total + 1``"; else the automaton's
        clauses (:meth:`cnf_automaton`)."""
        if not self._on_line(ctx):
            return super().cnf(ctx)
        length, total = len(self.cells), self.total

        def make(slots: CnfContext, cells: tuple[int, ...], line: Sequence[int]
                 ) -> list[Clause]:
            # The line's first auxiliaries are its counts in all, "j or more seen", j = 2..L
            # (one is always seen; more than L never: no reading, the empty clause).
            if total > length:
                return [()]
            final = dict(zip(range(2, length + 1), line, strict=False))
            clauses: list[Clause] = [(final[total],)] if total >= 2 else []
            return clauses + ([(-final[total + 1],)] if total < length else [])

        return templated(ctx, self.cells, ("skyscraper clue", total), make,
                         (_line_of(self.cells),))

    def cnf_automaton(self, ctx: CnfContext) -> Automaton:
        """:meth:`automaton` knowing that the line's digits differ where it is a unit
        (:meth:`~sudoku_csp.constraints.outside.OutsideClue.reads_a_unit`), unless
        ``skyscrapers=rule``: the clauses may lean on what the units say, the native link
        may not (it is judged alone, on grids that break the units)."""
        unit = ctx.option(SKYSCRAPERS) != "rule" and self.reads_a_unit(ctx.geometry)
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
