"""Implied constraints: what a puzzle's sums say together with the grid's units, derived
before solving and added beside its rules. Redundant by construction (each follows from the
rules and the units), so they never change an answer; they let propagation see what it
would otherwise find only by search. Each family is an encoding option
(:class:`~sudoku_csp.constraints.translation.EncodingOption`, ``on`` by default) that every
translation honours, so that a backend spec (``sat:leftovers=off``, ``native:hidden=off``)
or the study can switch it off and measure it:

- ``hidden``: *hidden cages*. A unit holds every digit once, so its cells add up to
  ``N(N+1)/2`` (45 on 9×9); the cells of a unit outside the summed cages wholly inside it
  add up to the rest, and hold different digits: a cage the puzzle does not draw
  (:func:`~sudoku_csp.constraints.rule45.hidden_sums`).
- ``leftovers``: *the law of leftovers* over unions of units (bands of rows or columns,
  runs and neighbouring pairs of boxes or jigsaw regions, single units): the summed pieces
  mostly inside the union count in, and the region's cells they leave uncovered (*innies*)
  less the cells they stick out with (*outies*) add up to what is left
  (:func:`~sudoku_csp.constraints.rule45.leftover_sums`).
- ``required``: *required digits*. A digit that every digit set a cage can still hold
  contains is in the cage, so it leaves every cell outside that sees all of the cage's
  cells that can hold it (:func:`required_link`; in CNF ``has(d) → ¬x(o, d)``).

An implied sum is a :class:`SignedSum`: ``plus`` less ``minus`` add up to ``total``. Its
translations (:func:`signed_link`, :func:`signed_clauses`, :func:`signed_cpsat`) treat one
whose cells are peers two by two with nothing subtracted as a cage (its digit sets), any
other as a sum read cell by cell (an automaton, natively with the cells that see each other
kept apart when it is short enough).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.cage_sums import (
    LinearSum,
    combinations_for,
    combo_clauses,
    narrow,
    pairwise_peers,
    seers_of,
)
from sudoku_csp.constraints.translation import (
    Clause,
    ClauseTemplate,
    CnfContext,
    EncodingOption,
    Link,
    Words,
    compile_clauses,
)
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

__all__ = ["FAMILIES", "HIDDEN", "LEFTOVERS", "REQUIRED", "SEERS", "SignedSum", "on",
           "required_link", "seer_clauses", "signed_clauses", "signed_cpsat", "signed_link"]

_EVERYWHERE = ("cnf", "native", "cpsat")


def _switch(name: str, what: str) -> EncodingOption:
    return EncodingOption(name, "on", f"implied constraints: {what} (on|off)", ("on", "off"),
                          "implied-constraint switch", None, _EVERYWHERE)


HIDDEN = _switch("hidden", "hidden cages, a unit less the summed cages inside it")
LEFTOVERS = _switch("leftovers", "the law of leftovers over unions of units (innies "
                                 "less outies)")
REQUIRED = _switch("required", "digits a cage must hold leave the cells that see it")
FAMILIES = (HIDDEN, LEFTOVERS, REQUIRED)
"""Every family of implied constraints, each an encoding option."""

SEERS = EncodingOption(
    "seers", "uncovered", "killer cages in CNF: on (with required digits, a clause per digit "
    "and cell that sees the whole cage: the digit leaves it once the cage must hold it), off, "
    "or uncovered (on where the summed cages leave cells of the grid uncovered, off where "
    "they tile it)", ("uncovered", "on", "off"), "seer-clause switch", unrecorded="on")
"""Whether the CNF of a cage (and of an implied cage) writes its required digits' clauses
for the cells that see it all (and :data:`REQUIRED` is on). ``uncovered`` by measurement
(issue 34, each puzzle met as new; docs/design.md): where the cages tile the grid (a
killer), a third of its clauses, whose building and loading cost more than the search they
save (the 100 published killers: `sat` 1.2 ms at the median, 1.95 with them); where they
leave cells uncovered (cages beside little killers, arrows, givens), the required digits
the search would otherwise learn cage by cage (the published cages 1.66 -> 1.39 ms,
"Blitz" 162 -> 57 conflicts). A puzzle whose constraints are written one at a time (a
session of questions) has no whole to look at: off. The native and CP-SAT translations
keep them (:data:`REQUIRED`)."""


def on(options: dict[str, str], family: EncodingOption) -> bool:
    """Whether the chosen encoding ``options`` keep ``family`` (its default when unset)."""
    return options.get(family.name, family.default) != "off"


def seer_clauses(ctx: CnfContext, tiled: Callable[[Sequence[Any]], bool]) -> bool:
    """Whether the CNF of a cage (or an implied cage) writes its required digits' clauses
    for the cells that see it all: :data:`REQUIRED` on, and :data:`SEERS` on, or
    ``uncovered`` and ``tiled`` false of the whole puzzle's constraints
    (:attr:`~sudoku_csp.constraints.translation.CnfContext.whole`; decided once per
    context; off when the constraints are written one at a time).

    >>> from sudoku_csp.modeling.variables import variables
    >>> from sudoku_csp.variants import make_geometry
    >>> def ctx(whole):
    ...     return CnfContext(variables(make_geometry(4)), start=65, whole=whole)
    >>> untiled, tiles = (lambda whole: False), (lambda whole: True)
    >>> seer_clauses(ctx(["..."]), untiled), seer_clauses(ctx(["..."]), tiles)
    (True, False)
    >>> seer_clauses(ctx(None), untiled)   # written one at a time: no whole to read
    False
    """
    choice = ctx.option(SEERS)
    if choice == "uncovered":
        decided: str | None = ctx.memo.get(SEERS.name)
        if decided is None:
            whole = ctx.whole
            decided = ctx.memo[SEERS.name] = "on" if whole is not None and not tiled(whole) \
                else "off"
        choice = decided
    return choice == "on" and on(ctx.options, REQUIRED)


@dataclass(frozen=True)
class SignedSum:
    """``plus`` less ``minus`` add up to ``total`` (values, ``1..N``); ``family``: the
    encoding option it belongs to; ``region``: words for where it comes from (``rows
    1-3``)."""

    plus: tuple[int, ...]
    minus: tuple[int, ...]
    total: int
    family: str
    region: str = ""
    complement: tuple[int, ...] = ()
    """For a sum over part of a unit (a hidden cage), the unit's other cells: they hold the
    unit's other digits, so saying that they add up to the rest says the same (written so
    when they are fewer, :meth:`smaller`)."""

    def smaller(self, geometry: Geometry) -> SignedSum:
        """The same sum over the fewer cells: over :attr:`complement` when it has fewer cells
        than ``plus`` (a hidden cage of 7 cells said by the 2 its cages cover)."""
        if not self.complement or len(self.complement) >= len(self.plus):
            return self
        n = geometry.size
        return SignedSum(self.complement, (), n * (n + 1) // 2 - self.total, self.family,
                         self.region, self.plus)

    @property
    def cells(self) -> tuple[int, ...]:
        return (*self.plus, *self.minus)

    def cage(self, geometry: Geometry) -> tuple[tuple[int, ...], int] | None:
        """``(cells, total)`` when the sum is a cage's: one side only, its cells peers two by
        two (so their digits differ)."""
        if self.plus and self.minus:
            return None
        cells, total = (self.plus, self.total) if self.plus else (self.minus, -self.total)
        if not cells or not pairwise_peers(geometry, cells):
            return None
        return cells, total


# -- native ----------------------------------------------------------------------------------
def signed_link(geometry: Geometry, implied: SignedSum, why: str | Words) -> Link:
    """The native link of an implied sum: a cage's narrowing (its digit sets) when it is a
    cage's, else its reachable partial sums (:class:`~sudoku_csp.constraints.cage_sums.
    LinearSum`: generalised arc consistency for the sum; keeping the cells that see each
    other apart as well, as
    :func:`~sudoku_csp.constraints.line_kinds.distinct` can, cut the nodes of hard killers
    by half but cost more in building than it saved: docs/design.md)."""
    family = implied.family
    cage = implied.cage(geometry)
    if cage is not None:
        cells, total = cage
        combos = (combinations_for(len(cells), total, geometry.size)
                  if len(cells) <= geometry.size else ())
        return Link(cells, partial(narrow, combos, total), why, family)
    cells = implied.cells
    if not cells:
        return Link((), partial(_nothing_adds_up, implied.total), why, family)
    signs = (1,) * len(implied.plus) + (-1,) * len(implied.minus)
    return Link(cells, LinearSum(signs, implied.total).narrow, why, family)


def _nothing_adds_up(total: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """No cells: the sum holds only when it is 0."""
    return masks if total == 0 else None


def _automaton(implied: SignedSum, n: int) -> Automaton:
    """The automaton reading ``plus`` then ``minus`` cells adding up to ``total``: the state
    is the signed running sum, kept where the cells still to read can bring it to ``total``
    (built once per shape and total)."""
    plus, minus, total = len(implied.plus), len(implied.minus), implied.total
    length = plus + minus

    def step(partial: int, position: int, value: int) -> int | None:
        partial += value if position < plus else -value
        ahead_plus = max(0, plus - position - 1)
        ahead_minus = length - max(plus, position + 1)
        low = partial + ahead_plus - ahead_minus * n
        high = partial + ahead_plus * n - ahead_minus
        return partial if low <= total <= high else None

    return build(("signed sum", plus, minus, total), length, n, 0, step,
                 lambda state: state == total)


def required_link(geometry: Geometry, cells: tuple[int, ...], combos: tuple[int, ...],
                  why: str | Words) -> Link | None:
    """The native link of a cage's required digits: over the cage's ``cells`` (digit sets
    ``combos``) and the cells outside that see all of them, each digit every set still
    possible holds leaves those outside cells. ``None`` when no cell outside sees them all.
    (Taking also the cells that see only the cage's cells that can hold the digit found a
    little more and cost more than it found: docs/design.md.)"""
    outside = seers_of(geometry, cells)
    if not outside:
        return None
    # Its result depends on the cage's cells alone: the cells outside only lose digits.
    return Link((*cells, *outside), partial(_required, combos, len(cells)), why,
                REQUIRED.name, reads=len(cells))


def _required(combos: tuple[int, ...], k: int, masks: tuple[int, ...]
              ) -> tuple[int, ...] | None:
    cage = masks[:k]
    union = singles = 0
    for m in cage:
        union |= m
        if not m & (m - 1):
            singles |= m
    required, fits, unplaced = -1, False, ~singles  # placed digits leave their peers already
    for c in combos:
        if c & singles == singles and not c & ~union:
            for m in cage:
                if not m & c:
                    break
            else:
                required &= c
                if not required & unplaced:
                    return masks  # one set fits and none is required: the rest can add none
                fits = True
    if not fits:
        return None
    required &= unplaced
    keep = ~required
    out = list(masks)
    for j in range(k, len(out)):
        m = out[j] & keep
        if not m:
            return None
        out[j] = m
    return tuple(out)


# -- CNF -------------------------------------------------------------------------------------
def signed_clauses(ctx: CnfContext, implied: SignedSum, required: bool) -> list[Clause]:
    """The clauses of an implied sum, said over the fewer cells (:meth:`SignedSum.smaller`):
    two cells as support clauses; a cage's as its digit-set clauses (with the required
    digits leaving the cells that see it all, when ``required``); any other as the
    automaton's. A hidden cage said by the summed cages of its unit adds nothing when
    ``required``: their ``has(d)`` and required clauses already say it. The cage's and
    two cells' clauses carry ``ctx``'s guard (:meth:`CnfContext.fill`), the others not."""
    g = ctx.geometry
    smaller = implied.smaller(g)
    if smaller is not implied and required:
        return []
    cells = smaller.cells
    if not cells:
        return [()] if smaller.total else []
    if len(cells) == 2:
        return _pair_clauses(ctx, smaller)
    cage = smaller.cage(g)
    combos = None if cage is None or len(cells) > g.size else combinations_for(
        len(cells), cage[1], g.size)
    if combos is not None:
        return combo_clauses(ctx, cells, combos, seers_of(g, cells) if required else (),
                             guarded=True)
    return list(_automaton(smaller, g.size).clauses(ctx, cells))


def _pair_clauses(ctx: CnfContext, implied: SignedSum) -> list[Clause]:
    """A sum of two cells as support clauses (a digit of one needs a partner in the other),
    no auxiliary variable: a fifth of the automaton's clauses, the same propagation."""
    a, b = implied.cells
    template = _pair_template(a in implied.plus, b in implied.plus, implied.total,
                              ctx.geometry.are_peers(a, b), ctx.geometry.size)
    return ctx.fill(template, ctx.cell_vars((a, b)))


@lru_cache(maxsize=512)
def _pair_template(a_plus: bool, b_plus: bool, total: int, apart: bool, n: int
                   ) -> ClauseTemplate:
    """The clauses of :func:`_pair_clauses` over slots: cell ``a``'s digit ``d`` is slot
    ``d + 1``, cell ``b``'s slot ``n + d + 1``."""
    signs = (1 if a_plus else -1, 1 if b_plus else -1)
    pairs = [(i, j) for i in range(n) for j in range(n)
             if signs[0] * (i + 1) + signs[1] * (j + 1) == total and not (apart and i == j)]
    clauses = []
    for mine, base, other in ((0, 1, n + 1), (1, n + 1, 1)):
        for d in range(n):
            clauses.append((-(base + d), *(other + p[1 - mine] for p in pairs if p[mine] == d)))
    return compile_clauses(clauses)


# -- CP-SAT ----------------------------------------------------------------------------------
def signed_cpsat(model: CpSatModel, implied: SignedSum) -> None:
    """An implied sum in CP-SAT: a cage's different sum when it is a cage's, else linear."""
    cage = implied.cage(model.geometry)
    if cage is not None:
        cells, total = cage
        model.different_sum(cells, total, combinations_for(len(cells), total,
                                                           model.geometry.size))
        return
    value = model.value
    model.model.add(sum(value(c) for c in implied.plus)
                    - sum(value(c) for c in implied.minus) == implied.total)


def required_cpsat(model: CpSatModel,
                   sums: Iterable[tuple[Sequence[int], Sequence[int]]]) -> None:
    """For each ``(cells, combos)`` of ``sums``, the digits every set of ``combos`` holds
    leave the cells that see all of ``cells``: one domain cut per cell outside, whatever
    the number of sums it sees (a constraint each would cost the model more to build and
    presolve, for the same domains)."""
    banned: dict[int, int] = {}
    for cells, combos in sums:
        required = -1
        for c in combos:
            required &= c
        if not combos or not required:
            continue
        for o in seers_of(model.geometry, cells):
            banned[o] = banned.get(o, 0) | required
    n = model.geometry.size
    for o in sorted(banned):
        model.allow_digits(o, [d for d in range(n) if not banned[o] >> d & 1])
