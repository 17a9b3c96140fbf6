"""X-sums: seen from the clue, the first X cells of the row or column add up to the clue,
where X is the value of the first cell (counted among the X).

The clue stands above or below a column, or left or right of a row, and the line is read
away from it.

Translations: one automaton (:class:`~sudoku_csp.constraints.automaton.AutomatonRule`) over
the whole line (X may be N), its state the cells still to add and the sum still missing
(X and the running sum folded into what is left; one state once the X cells are added):

- native: the combination rule (:func:`_narrow`): per X, the sets of X values held against
  the first X cells; with the units (the joint links of
  :class:`~sudoku_csp.constraints.set_clues.SetClue`), the line being one, also the digits
  left over against the others (generalised arc consistency for the line and its unit
  together);
- CNF: on a line that is a unit, the set of the first X values: the line's part
  (:func:`_line`, a :class:`~sudoku_csp.constraints.translation.Definition` the sat
  backend's incremental mode holds once for every puzzle) and the clue's
  (:meth:`XSum.set_clauses`); on five generated X-sums of few givens sat's median went
  121-141 ms with the automaton to 10-13 ms, one run on a busy machine; else the
  automaton's clauses; and per X, the digits its sets allow in the first X cells;
- CP-SAT: on the Boolean model, a line that is a unit as its CNF clauses (five generated
  X-sums of few givens 32 -> 13 ms median); else by
  hand: per later cell ``i`` a Boolean "X > i" reified on the first cell's value,
  and the sum of the first value and, where the Boolean holds, the others'. With presolve
  off (the backend's choice for puzzles with typed constraints) ``add_automaton`` measured
  far slower with the Boolean model: 224 and 79 ms against 13 and 13 ms on the two X-sum
  puzzles of SudokuVariantSolverJS's set; the integer model took about 9 ms either way; the
  automaton and the sum together were as slow as the automaton.

f-puzzles: ``xsum`` entries ``{"cell": "R0C3", "value": "24"}`` (above, below, left or
right); an entry without a value is skipped. Own JSON: ``{"x_sums": [{"from": "A3",
"direction": "down", "sum": 24}]}``, ``from`` the first cell read. Drawn as f-puzzles does:
the sum in the clue's place outside the grid.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.cage_sums import combinations_for
from sudoku_csp.constraints.group_sums import sets_adding_to, split_supports
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.remembered import state_cache
from sudoku_csp.constraints.set_clues import (
    SetClue,
    held_digit_clauses,
    set_choice_clauses,
)
from sudoku_csp.constraints.translation import Clause, CnfContext, Definition, Link
from sudoku_csp.constraints.wording import listed, terms
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


@cache
def _totals(n: int) -> int:
    """Every X-sum a line of an ``n``-digit grid can show, as a bit mask: X, plus X-1 other
    different values of ``1..n``."""
    found = 0
    for x in range(1, n + 1):
        sums = [1] + [0] * (x - 1)  # sums[k]: the sums of k of the other values
        for value in range(1, n + 1):
            if value != x:
                for k in range(x - 1, 0, -1):
                    sums[k] |= sums[k - 1] << value
        found |= sums[x - 1] << x
    return found


@state_cache(maxsize=50_000)
def _narrow(n: int, total: int, unit: bool, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """An X-sum's combination rule: for each X the first cell may still hold, the first X
    cells hold one set of X different values (the line is a unit) with X among them, adding
    up to the clue (each set held against the cells); every cell keeps what some such
    reading gives it. With ``unit`` (the line is a unit of the grid: its ``n`` cells hold
    every digit once) the cells beyond the first X hold the other digits, the set's
    complement, held against them as well; else they keep anything."""
    first = masks[0]
    full = (1 << n) - 1
    out = [0] * len(masks)
    found = False
    for d in range(min(n, len(masks))):
        bit = 1 << d
        if not first & bit:
            continue
        x = d + 1
        here = (bit, *masks[1:x])
        rest = masks[x:]
        combos = [c for c in sets_adding_to(x, total, n) if c & bit]
        fits, beyond = split_supports(combos, here, rest if unit else (), full)
        if fits is None:
            continue
        found = True
        for k, m in enumerate(fits):
            out[k] |= m
        for k, m in enumerate(rest if beyond is None else beyond, start=x):
            out[k] |= m
    if not found or not all(out):
        return None
    return tuple(out)


def _line(slots: CnfContext, cells: tuple[int, ...]) -> list[Clause]:
    """An X-sum's line read from its first cell as a
    :class:`~sudoku_csp.constraints.translation.Definition` (whatever the clue): per later
    cell ``m`` "X > m" (X the first cell's value), then per digit "among the first X"
    (:func:`~sudoku_csp.constraints.set_clues.held_digit_clauses`). Written inline, with
    the clue's clauses after them, they are the formula the X-sums had before lines were
    shared, variable for variable (certificates made then still check)."""
    n, x = slots.geometry.size, slots.x
    first = cells[0]
    clauses: list[Clause] = []
    inside: list[int | None] = [0]
    prev = 0
    for m in range(1, len(cells)):
        lit = slots.new_var()  # X > m
        clauses.append((-lit, *(x(first, d) for d in range(m, n))))
        clauses += [(-x(first, d), lit) for d in range(m, n)]
        if prev:
            clauses.append((-lit, prev))
        inside.append(lit)
        prev = lit
    held = dict(zip(range(n), slots.new_vars(n), strict=True))
    return clauses + held_digit_clauses(slots, cells, inside, held)


@dataclass(frozen=True)
class XSum(SetClue):
    """An X-sum: the first X values of ``cells`` (a whole row or column, read ``direction``
    from the clue), X the first of them, add up to ``total``.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> clue = XSum((0, 4, 8, 12), "down", 6)     # above column 1: 3 + 2 + 1
    >>> clue.violations(g, [2, 0, 0, 0, 1, 0, 0, 0, 0] + [0] * 7)
    []
    >>> clue.violations(g, [1] * 16)
    ['X-sum 6 above column 1 does not hold: A1..D1 read 2 2 2 2, which gives 4']
    """

    names = Names("X-sum", json=("x_sums",), fpuzzles=("xsum",))
    narrowing = staticmethod(_narrow)

    @classmethod
    def clue_of(cls, values: Sequence[int], n: int) -> int | None:
        x = values[0]
        return sum(values[:x]) if x <= len(values) else None

    @classmethod
    def bounds(cls, n: int, length: int) -> tuple[int, int]:
        return 1, n * (n + 1) // 2

    @classmethod
    def totals(cls, n: int, length: int) -> int | None:
        return _totals(n)

    def automaton(self, geometry: Geometry) -> Automaton:
        n, total = geometry.size, self.total

        def step(state: Any, i: int, value: int) -> Any:
            if state == "start":  # the first cell: X = value, counted among the X
                left, missing = value - 1, total - value
            elif state == (0, 0):  # the X cells are added: the rest is free
                return state
            else:
                left, missing = state[0] - 1, state[1] - value
            if not left <= missing <= left * n:  # each cell still to add gives 1..n
                return None
            return left, missing

        return build(("X-sum", total), len(self.cells), n, "start", step,
                     lambda state: state == (0, 0))

    def readings(self, n: int) -> list[tuple[int, int, int]]:
        """Per value ``X`` the first cell may hold (as a digit ``d = X - 1``): ``(d, union,
        common)``, the digits some and every set of ``X`` different values with ``X``
        among them adding up to the clue holds (0, 0 when no set does)."""
        found = []
        for d in range(min(n, len(self.cells))):
            sets = [m for m in sets_adding_to(d + 1, self.total, n) if m >> d & 1]
            union, common = 0, (-1 if sets else 0)
            for m in sets:
                union |= m
                common &= m
            found.append((d, union, common & ~(1 << d)))
        return found

    def more_clauses(self, ctx: CnfContext) -> Iterator[Clause]:
        """Per X, the digits its sets allow in the first X cells, and those every set
        holds somewhere there (:meth:`readings`)."""
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        for d, union, common in self.readings(n):
            first = x(cells[0], d)
            if not union:
                yield (-first,)
                continue
            for c in cells[1:d + 1]:
                for e in range(n):
                    if not union >> e & 1:
                        yield (-first, -x(c, e))
            for e in range(n):
                if common >> e & 1:
                    yield (-first, *(x(c, e) for c in cells[1:d + 1]))

    def line_definition(self, ctx: CnfContext) -> Definition:
        """Its line's auxiliaries read from the clue's side (:func:`_line`)."""
        return Definition(("x-sum line",), self.cells, _line)

    def set_clauses(self, ctx: CnfContext, line: Sequence[int]) -> Iterator[Clause]:
        """The rule with the line a unit, over its :meth:`line_definition` (per digit "among
        the first X"): one of the sets of X values with X among them adding up to the clue
        (:func:`~sudoku_csp.constraints.set_clues.set_choice_clauses`), its selector tied
        both ways to the first cell holding X."""
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        first = cells[0]
        sets = [(d, c) for d in range(min(n, len(cells)))
                for c in sets_adding_to(d + 1, self.total, n) if c >> d & 1]
        held = dict(zip(range(n), line[len(cells) - 1:], strict=True))
        clauses, chosen = set_choice_clauses(ctx, held, [c for _, c in sets])
        for d in range(n):
            clauses.append((-x(first, d), *(s for s, (e, _) in zip(chosen, sets, strict=True)
                                            if e == d)))
        clauses += [(-s, x(first, d)) for s, (d, _) in zip(chosen, sets, strict=True)]
        yield from clauses

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The sums that fit: for each X the first cell can still hold, the sets of X-1
        other values (different: the line is a unit) that the next cells can hold and that
        make up the clue (``3+4+8``)."""
        n, cells, total = geometry.size, self.cells, self.total
        found = []
        for d in range(n):
            x = d + 1
            if not candidates[cells[0]] >> d & 1 or x > len(cells):
                continue
            if x == 1:
                found += ["1"] if total == 1 else []
                continue
            rest = [candidates[c] for c in cells[1:x]]
            found += [f"{x}+{terms(m)}" for m in combinations_for(x - 1, total - x, n) or ()
                      if not m >> d & 1 and all(r & m for r in rest)]
        fits = listed(found) if found else "nothing fits"
        return f"the first X cells add up to {total}, X the first of them: {fits}"

    def cpsat(self, model: CpSatModel) -> None:
        if self.cpsat_by_sets(model):
            return
        m, n = model.model, model.geometry.size
        values = [model.value(c) for c in self.cells]
        first = values[0]
        terms = [first]
        for i, value in enumerate(values[1:], start=1):
            counted = m.new_bool_var("")  # X > i: cell i is among the first X
            m.add(first > i).only_enforce_if(counted)
            m.add(first <= i).only_enforce_if(~counted)
            term = m.new_int_var(0, n, "")
            m.add(term == value).only_enforce_if(counted)
            m.add(term == 0).only_enforce_if(~counted)
            terms.append(term)
        m.add(sum(terms) == self.total)
        for d, union, _ in self.readings(n):  # what the first X cells may hold
            if not union:
                model.allow_digits(self.cells[0], [e for e in range(n) if e != d])
            for c in self.cells[1:d + 1]:
                model.forbid_pairs(self.cells[0], c, [(d, e) for e in range(n)
                                                      if not union >> e & 1])
