"""Sandwich sums: in the row or column beside the clue, the values strictly between the 1 and
the N (the "crusts", in either order) add up to the clue; 0 when they stand side by side.

The clue stands above or below a column, or left or right of a row (f-puzzles puts them
above and left only; the others are read too); the whole line is read, away from the clue,
though which way does not change the rule. A line that does not hold exactly one 1 and one
N (which the units rule out anyway) breaks the rule.

Translations: one automaton (:class:`~sudoku_csp.constraints.automaton.AutomatonRule`) over
the whole line, its state the phase (before the first crust; between the crusts, knowing
which one came first, with the sum so far; after the second) -- at most ``2 * clue + 2``
states a layer:

- native: the combination rule
  (:func:`~sudoku_csp.constraints.sandwich_fillings.narrow`): per place of the crusts, the
  fillings held against the cells between; with the units (the joint links of
  :class:`~sudoku_csp.constraints.set_clues.SetClue`), the line being one, also the digits
  left over against the cells outside (generalised arc consistency for the line and its
  unit together);
- CNF: on a line that is a unit, the line's auxiliaries (:func:`_line`, a
  :class:`~sudoku_csp.constraints.translation.Definition` whatever the clue, which the sat
  backend's incremental mode holds once for every puzzle: "between" per cell, "held
  between" per digit, the crusts' distance) and per clue a selector per filling tied to
  the digits held between and to its length as the distance (:meth:`Sandwich.set_clauses`;
  on 9x9 about 50 clauses a clue beside the line's 295, against 310 a clue with nothing
  shared: docs/design.md, "Sandwiches on shared lines"); :data:`SANDWICH_CNF` keeps the
  earlier ways; else the automaton's clauses and, per place of the crusts, the digits the
  fillings of that length leave out barred between;
- CP-SAT: on the Boolean model, a line that is a unit as its CNF clauses
  (:func:`~sudoku_csp.constraints.set_clues.clauses_to_cpsat`; five generated sandwiches
  of few givens 47-81 -> 20 ms median, the two of the dev corpus 34-39 -> 21 ms; on the
  integer model, literals reified per cell and digit measured no faster than the
  automaton); else ``add_automaton``. A hand formulation (per cell, Booleans for "holds 1"
  and "holds N", "between" from the running count of crusts, the sum where it holds)
  measured slower ("Sandwich Sudoku": 57 ms against 30 ms on the integer model, 620 against
  100 on the Boolean one; "MiniMax Sandwich": 30 against 24 ms, 100 against 26 ms).

f-puzzles: ``sandwichsum`` entries ``{"cell": "R0C3", "value": "8"}``; an entry without a
value is skipped. Own JSON: ``{"sandwiches": [{"from": "A3", "direction": "down",
"sum": 8}]}``, ``from`` the first cell read (at the edge beside the clue). Drawn as
f-puzzles does: the sum in the clue's place outside the grid.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.cage_sums import combinations_for
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.sandwich_fillings import fillings, narrow, totals
from sudoku_csp.constraints.set_clues import (
    SetClue,
    held_digit_clauses,
    set_choice_clauses,
)
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
)
from sudoku_csp.constraints.wording import listed, terms
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


SANDWICH_CNF = EncodingOption(
    "sandwich_cnf", "crusts", "sandwiches on a unit in CNF: crusts (lines, and each crust "
    "calls for the other at a distance some filling has), lines (the line's crusts, digits "
    "between and distance defined once for all its clues, which a clue's fillings read), "
    "lengths (all of it each clue's own, the crusts' distance as a literal per length of the "
    "fillings) or pairs (each two places of the 1 and the N call for the fillings of their "
    "distance; the digits those leave out barred between)",
    ("crusts", "lines", "lengths", "pairs"), "sandwich encoding", unrecorded="pairs")
"""How the sat backend writes a sandwich on a line that is a unit
(:meth:`Sandwich.unit_clauses`; docs/design.md, "Sandwiches on shared lines",
"Sandwiches on length literals" and "A crust calls for its partner"). A certificate's
manifest from before the option names none: its sandwiches were written as ``pairs`` writes
them; one that names ``lines`` (the default before ``crusts``) still reads so."""


_ON_LINES = ("crusts", "lines")  # the values that read the line's definition (_line)


def _between(ctx: CnfContext, cells: Sequence[int]) -> tuple[list[int | None], list[Clause]]:
    """Per cell of a sandwich's line "between the crusts" (the 1 and the N), over per cell
    "a crust before it" and "a crust after it" (running ORs both ways): the literals (None
    for the two end cells, never between) and their clauses, which define them."""
    n, x = ctx.geometry.size, ctx.x
    top, last = n - 1, len(cells) - 1
    clauses: list[Clause] = []

    def running(order: Sequence[int]) -> dict[int, int]:
        # seen[m]: a crust among the cells read before cells[m] in this order.
        seen: dict[int, int] = {}
        prev = 0
        for a, b in zip(order, order[1:], strict=False):
            lit = ctx.new_var()
            seen[b] = lit
            clauses.append((-lit, x(cells[a], 0), x(cells[a], top), *((prev,) if prev
                                                                      else ())))
            clauses.extend(((-x(cells[a], 0), lit), (-x(cells[a], top), lit)))
            if prev:
                clauses.append((-prev, lit))
            prev = lit
        return seen

    before = running(range(len(cells)))
    after = running(range(last, -1, -1))
    inside: list[int | None] = [None] * len(cells)
    for m in range(1, last):
        lit = inside[m] = ctx.new_var()
        clauses += [(-lit, before[m]), (-lit, after[m]), (lit, -before[m], -after[m])]
    return inside, clauses


def _line(slots: CnfContext, cells: tuple[int, ...]) -> list[Clause]:
    """A sandwich's line as a :class:`~sudoku_csp.constraints.translation.Definition`
    (whatever the clue; ``sandwich_cnf=lines``): per digit of 2..N-1 "between the crusts",
    then per distance ``k`` of ``0..len - 2`` "the crusts stand ``k`` cells apart" (at
    most one), over :func:`_between`
    (:func:`~sudoku_csp.constraints.set_clues.held_digit_clauses`)."""
    n, x = slots.geometry.size, slots.x
    top = n - 1
    held = dict(zip(range(1, top), slots.new_vars(n - 2), strict=True))
    apart = slots.new_vars(len(cells) - 1)
    inside, clauses = _between(slots, cells)
    clauses += held_digit_clauses(slots, cells, inside, held)
    for i, a in enumerate(cells):
        for j, b in enumerate(cells):
            if i != j:
                clauses.append((-x(a, 0), -x(b, top), apart[abs(i - j) - 1]))
    clauses += slots.at_most_one(list(apart))
    return clauses


@lru_cache(maxsize=1024)
def _line_of(cells: tuple[int, ...]) -> Definition:
    return Definition(("sandwich line",), min(cells, cells[::-1]), _line)


def _length_literals(ctx: CnfContext, by_length: dict[int, tuple[int, ...]]
                     ) -> tuple[list[Clause], dict[int, tuple[int, ...]]]:
    """The fillings' length as literals (``sandwich_cnf=lengths``), from their selectors
    by length: per length a literal (the selector itself when one filling has it) implied
    by its fillings' selectors and calling for one of them, and at most one length. Returns
    the clauses and per length its literal (as a 1-tuple, in place of the selectors)."""
    clauses: list[Clause] = []
    length: dict[int, tuple[int, ...]] = {}
    for k, selectors in by_length.items():
        if len(selectors) == 1:
            length[k] = selectors
        else:
            lit = ctx.new_var()
            length[k] = (lit,)
            clauses.append((-lit, *selectors))
            clauses += [(-s, lit) for s in selectors]
    lits = [lit for (lit,) in length.values()]
    clauses += [(-a, -b) for i, a in enumerate(lits) for b in lits[i + 1:]]
    return clauses, length


@dataclass(frozen=True)
class Sandwich(SetClue):
    """A sandwich sum: the values of ``cells`` (a whole row or column, read ``direction``
    from the clue) strictly between the 1 and the N add up to ``total``.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> clue = Sandwich((0, 1, 2, 3), "right", 2)     # left of row A
    >>> clue.violations(g, [0, 1, 3, 2] + [0] * 12), clue.violations(g, [0, 2, 1, 3] * 4)
    ([], ['sandwich 2 left of row A does not hold: A1..A4 read 1 3 2 4, which gives 5'])
    """

    names = Names("sandwich", json=("sandwiches",), fpuzzles=("sandwichsum",),
                  noun="sandwich sum")
    narrowing = staticmethod(narrow)
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (SANDWICH_CNF,)

    @classmethod
    def clue_of(cls, values: Sequence[int], n: int) -> int | None:
        if values.count(1) != 1 or values.count(n) != 1:
            return None
        low, high = sorted((values.index(1), values.index(n)))
        return sum(values[low + 1:high])

    @classmethod
    def bounds(cls, n: int, length: int) -> tuple[int, int]:
        return 0, sum(range(2, n))

    @classmethod
    def totals(cls, n: int, length: int) -> int | None:
        return totals(n)

    def automaton(self, geometry: Geometry) -> Automaton:
        n, total = geometry.size, self.total

        def step(state: Any, i: int, value: int) -> Any:
            crust = value in (1, n)
            if state == "before":
                return (value, 0) if crust else state
            if state == "after":
                return None if crust else state
            first, partial = state
            if crust:
                return "after" if value != first and partial == total else None
            partial += value
            return (first, partial) if partial <= total else None

        return build(("sandwich", total), len(self.cells), n, "before", step,
                     lambda state: state == "after")

    def line_definition(self, ctx: CnfContext) -> Definition | None:
        """With ``sandwich_cnf=crusts`` or ``lines``, its line's auxiliaries
        (:func:`_line`), the same read either way: every sandwich on the line reads them."""
        return _line_of(self.cells) if ctx.option(SANDWICH_CNF) in _ON_LINES else None

    def set_clauses(self, ctx: CnfContext, line: Sequence[int]) -> Iterator[Clause]:
        """The rule with the line a unit, over its :meth:`line_definition` (``lines``,
        ``crusts``): per digit of 2..N-1 "between the crusts", per distance "the crusts
        stand that far apart". One selector per filling of the clue, of any length, fixing
        the digits between (:func:`~sudoku_csp.constraints.set_clues.set_choice_clauses`)
        and calling for its length as the crusts' distance; a distance calls for one of the
        fillings of its length (none: refused).

        Exact without the distances: the selector fixes the digits between, whose values
        add up to the clue; the distances make unit propagation stronger (placed crusts
        rule out the fillings of other lengths, a filling's length rules out crusts at other
        distances, a length no filling has rules out crusts that far apart).
        """
        n, count = ctx.geometry.size, len(self.cells)
        held = dict(zip(range(1, n - 1), line, strict=False))
        apart = line[n - 2:n - 2 + count - 1]
        sets = self._fillings(n)
        clauses, chosen = set_choice_clauses(ctx, held, sets)
        clauses += [(-s, apart[c.bit_count()]) for s, c in zip(chosen, sets, strict=True)]
        for k, lit in enumerate(apart):
            clauses.append((-lit, *(s for s, c in zip(chosen, sets, strict=True)
                                    if c.bit_count() == k)))
        yield from clauses

    def _fillings(self, n: int) -> list[int]:
        """Every filling of the clue, of any length the line leaves between the crusts
        (:func:`~sudoku_csp.constraints.sandwich_fillings.fillings`), shortest first: the
        sets a clue's selectors choose among."""
        return [c for k in range(len(self.cells) - 1) for c in fillings(k, self.total, n)]

    def crust_clauses(self, ctx: CnfContext) -> Iterator[Clause]:
        """Each crust calls for the other at a distance some filling has: per cell and
        crust, "the other crust stands at one of the cells that far away" (none: the cell
        holds no such crust). Implied by :meth:`set_clauses`, but there unit propagation
        finds a crust's partner missing only once the crust is placed (a guess); with these
        a cell whose partners have all lost the other crust loses its own at once, as the
        native combination rule takes it.

        >>> from sudoku_csp.modeling.variables import variables
        >>> from sudoku_csp.variants import make_geometry
        >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
        >>> clue = Sandwich((0, 1, 2, 3), "right", 3)   # a 3 alone between: two cells apart
        >>> list(clue.crust_clauses(ctx))[:2]           # a 1 in A1 calls for the 4 in A3
        [(-1, 12), (-4, 9)]
        """
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        count = len(cells)
        apart = [bool(fillings(k, self.total, n)) for k in range(count - 1)]
        for a, cell in enumerate(cells):
            partners = [b for b in range(count) if b != a and apart[abs(a - b) - 1]]
            for crust, other in ((0, n - 1), (n - 1, 0)):
                yield (-x(cell, crust), *(x(cells[b], other) for b in partners))

    def unit_clauses(self, ctx: CnfContext, line: Sequence[int]) -> Iterator[Clause]:
        """As :data:`SANDWICH_CNF` says: ``lines``, :meth:`set_clauses`; ``crusts``, also
        :meth:`crust_clauses`; ``lengths`` and ``pairs``, :meth:`whole_clauses`, with
        ``pairs`` also :meth:`more_clauses`."""
        choice = ctx.option(SANDWICH_CNF)
        if choice in _ON_LINES:
            yield from self.set_clauses(ctx, line)
            if choice == "crusts":
                yield from self.crust_clauses(ctx)
            return
        yield from self.whole_clauses(ctx, choice)
        if choice == "pairs":
            yield from self.more_clauses(ctx)

    def whole_clauses(self, ctx: CnfContext, choice: str) -> Iterator[Clause]:
        """The rule with the line a unit, all of it the clue's own (``lengths``, ``pairs``):
        :func:`_between`, per digit of 2..N-1 "held between", a selector per filling
        (:func:`~sudoku_csp.constraints.set_clues.set_choice_clauses`); then the crusts'
        distance tied to the filling's length: ``lengths``, a literal per length of some
        filling (:func:`_length_literals`) and the 1 and the N at two places calling for the
        length of their distance (none: not both); ``pairs``, for some filling of it."""
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        top = n - 1
        inside, clauses = _between(ctx, cells)
        held = {d: ctx.new_var() for d in range(1, top)}
        clauses += held_digit_clauses(ctx, cells, inside, held)
        sets = self._fillings(n)
        chosen_clauses, chosen = set_choice_clauses(ctx, held, sets)
        clauses += chosen_clauses
        by_length: dict[int, tuple[int, ...]] = {}  # the fillings' selectors by length
        for s, c in zip(chosen, sets, strict=True):
            by_length[c.bit_count()] = (*by_length.get(c.bit_count(), ()), s)
        if choice == "lengths":
            length, by_length = _length_literals(ctx, by_length)
            clauses += length
        for i, a in enumerate(cells):
            for j, b in enumerate(cells):
                if i != j:
                    clauses.append((-x(a, 0), -x(b, top), *by_length.get(abs(i - j) - 1, ())))
        yield from clauses

    def more_clauses(self, ctx: CnfContext) -> Iterator[Clause]:
        """For the 1 and the N at two places, the cells between hold only values of the
        fillings of that length (none: the two places are refused)."""
        n, x, cells = ctx.geometry.size, ctx.x, self.cells
        crusts = 1 | 1 << (n - 1)
        for i, a in enumerate(cells):
            for j, b in enumerate(cells):
                if i == j:
                    continue
                low, high = sorted((i, j))
                combos = fillings(high - low - 1, self.total, n)
                union = 0
                for combo in combos:
                    union |= combo
                if not combos:
                    yield (-x(a, 0), -x(b, n - 1))
                    continue
                for m in cells[low + 1:high]:
                    for d in range(n):
                        if not (union | crusts) >> d & 1:
                            yield (-x(a, 0), -x(b, n - 1), -x(m, d))

    def cpsat(self, model: CpSatModel) -> None:
        if not self.cpsat_by_sets(model):
            super().cpsat(model)
        n, cells = model.geometry.size, self.cells
        for i, a in enumerate(cells):
            for j, b in enumerate(cells):
                if i != j and not fillings(abs(j - i) - 1, self.total, n):
                    model.forbid_pairs(a, b, [(0, n - 1)])

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The fillings that fit: for each distance the crusts' candidates allow, the sets
        of that many values of 2..N-1 (different: the line is a unit) adding up to the
        clue (``2 cells: 2+6, 3+5``)."""
        n, cells, total = geometry.size, self.cells, self.total
        ones = [i for i, c in enumerate(cells) if candidates[c] & 1]
        tops = [i for i, c in enumerate(cells) if candidates[c] >> (n - 1) & 1]
        words = []
        for k in sorted({abs(i - j) - 1 for i in ones for j in tops if i != j}):
            if k == 0:
                sets = [0] if total == 0 else []
            else:
                crusts = 1 | 1 << (n - 1)
                sets = [m for m in combinations_for(k, total, n) or () if not m & crusts]
            if sets:
                shown = listed([terms(m) for m in sets]) if k else "side by side"
                words.append(f"{k} cell{'s' * (k != 1)} ({shown})" if k else shown)
        fits = "; ".join(words) if words else "nothing fits"
        return f"the cells between the 1 and the {n} add up to {total}: {fits}"
