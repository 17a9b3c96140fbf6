"""Monotone lines on order literals: a (slow) thermometer's steps and a between line's cells
written in CNF on "this cell's value is ``v`` or more" (the literals of
:func:`~sudoku_csp.constraints.cell_orders.order_clauses`), from which a SAT solver learns
clauses about bounds ("A1 is 6 or more") where pair clauses on digits give it one digit at a
time (CP-SAT's integers carry such bounds of their own).

The sat backend writes thermometers, slow thermometers and between lines so by default
(:data:`LINE_ORDER`). Fresh mode, counting to two, CaDiCaL's conflicts in all: the five
generated thermometers of few givens (examples/kinds_few_givens.txt) 5,404 with the digit
clauses, 2,655 on order literals, 2,757 with both; the five between lines 6,226 with the
automaton, 1,173 on order literals; five generated slow thermometers 1,047 -> 345; the dev
corpus's six thermometer puzzles 733 -> 268, its two between-line ones 289 -> 110. Whispers
(no two neighbours inside one window of ``difference`` values) were measured so too and left
on digits: 1,118 -> 1,309 conflicts on their generated five (docs/design.md: Design choices,
measured).

Renbans (:func:`run_clauses`, :data:`RENBAN_RUNS`) on order literals of their run's start,
each value of the run held by a cell: the start alone (each cell inside ``[M, M + L - 1]``)
had taken more conflicts than the pair clauses (15,521 -> 16,317 on the generated five);
with the values held, 14,900 -> 5,900.

Lockout lines (:func:`lockout_clauses`, :data:`LOCKOUT_ORDER`) on their ends' order
literals, each other cell outside the ends' range on its digits: on thirteen generated
lockout puzzles 2,024 -> 1,038 conflicts in all (docs/design.md, "Lockout lines on order
literals"). A line's cells' literals are the cells' definitions
(:func:`~sudoku_csp.constraints.cell_orders.order_definitions`, ``cell_orders=shared``),
shared by every line through a cell and held by an incremental solver for every puzzle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from sudoku_csp.constraints.cell_orders import order_clauses, order_definitions
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Constant,
    Definition,
    EncodingOption,
    folded,
    negated,
    templated,
)

__all__ = ["LINE_ORDER", "LOCKOUT_ORDER", "RENBAN_RUNS", "RENBAN_SEERS", "SEERS_FROM",
           "as_line_order", "between_clauses", "line_orders", "lockout_clauses", "run_clauses",
           "thermo_clauses"]

LINE_ORDER = EncodingOption(
    "line_order", "on", "thermometers, slow thermometers and between lines in CNF: on (order "
    "literals \"the cell is v or more\" tied to each cell's digits, the steps written on "
    "them), both (those and the digit clauses) or off (conflict clauses on digits; a between "
    "line's automaton)",
    ("on", "both", "off"), "line-order switch")
"""Whether the sat backend writes a (slow) thermometer's steps and a between line's cells on
order literals (``on``), on those and the digit clauses (``both``) or on digits alone
(``off``)."""


def line_orders(ctx: CnfContext, cells: Sequence[int]) -> tuple[Definition, ...]:
    """The definitions of ``cells``' order literals that a monotone line on them reads
    (:func:`~sudoku_csp.constraints.cell_orders.order_definitions`): none when the line is
    not on order literals (:data:`LINE_ORDER` ``off``)."""
    if ctx.option(LINE_ORDER) == "off":
        return ()
    return order_definitions(ctx, cells)


RENBAN_RUNS = EncodingOption(
    "renban_runs", "on", "renbans in CNF: on (the run's start as order literals \"the run "
    "starts at v or later\", each cell inside the run, each value of the run on the line, "
    "cells that share no unit different), both (those and the pair clauses) or off (each two "
    "cells different and at most length - 1 apart, on digits)",
    ("on", "both", "off"), "renban-runs switch")
"""Whether the sat backend writes a renban on its run's start (:func:`run_clauses`, ``on``),
on that and the pair clauses (``both``) or on the pair clauses alone (``off``)."""

SEERS_FROM = 3
"""The shortest renban given its seers (:data:`RENBAN_SEERS`). By measurement (issue 34,
docs/design.md, "A renban's seers in CNF"): on lines of 2 cells (eight possible runs, each
value in one or two, and the most seers: the rest of a row and of a box) the clauses save
about what they cost; from 3 and from 2 cells alike, from 4 slower (the twelve renban
puzzles: 61.5, 62.0 and 68.8 ms in all, 78.2 without). Certified formulas depend on it: a
new value would be a new value of the option, for certificates made before to read."""

RENBAN_SEERS = EncodingOption(
    "renban_seers", "on", f"renbans of {SEERS_FROM} cells or more on their run's start in "
    "CNF: on (a value of the run leaves every cell off the line that sees all of it) or off",
    ("on", "off"), "renban-seers switch", unrecorded="off")
"""Whether :func:`run_clauses` is given the cells that see a whole renban of at least
:data:`SEERS_FROM` cells (with ``renban_runs`` on or both). ``on`` by measurement (issue 34,
docs/design.md, "A renban's seers in CNF"): fresh mode, "159" (zetamath, sixteen renbans)
801 -> 281 conflicts; in one process, each puzzle met as new, 3.7 -> 2.0 ms, and the five
generated renbans of few givens of examples/kinds_few_givens.txt 57.4 -> 45.7 ms in all.
Certificates made before it name no ``renban_seers``: they were made without
(``unrecorded``)."""


def as_line_order(ctx: CnfContext, order: Callable[[], list[Clause]],
                  digits: Callable[[], Iterable[Clause]]) -> Iterable[Clause]:
    """A line kind's clauses as ``ctx``'s :data:`LINE_ORDER` says: ``digits()`` (the kind's
    clauses on digits) for ``off``, ``order()`` (on order literals) for ``on``, the order
    literals' followed by the digits' for ``both``. Each is written only when asked for."""
    choice = ctx.option(LINE_ORDER)
    if choice == "off":
        return digits()
    clauses = order()
    if choice == "both":
        clauses += digits()
    return clauses


class _Orders:
    """The order literals of ``length`` cells in a template's slots: cell ``i``'s digit
    ``d`` at ``i * n + d + 1``, its "value ≥ v" (``v = 2..n``) among ``slots``' auxiliaries;
    :meth:`ge` gives ``True``/``False`` for the constant ones (``v ≤ 1``, ``v > n``)."""

    def __init__(self, slots: CnfContext, length: int, given: Sequence[int] = ()) -> None:
        self.n = n = slots.geometry.size
        self.shared = bool(given)  # the cells' definitions' literals, else the line's own
        self.first = [v - 2 for v in (given or slots.new_vars(length * (n - 1)))][::n - 1]
        self.length = length

    def ge(self, i: int, v: int) -> Constant:
        if v <= 1:
            return True
        if v > self.n:
            return False
        return self.first[i] + v

    def definitions(self) -> Iterator[Clause]:
        if self.shared:
            return
        for i in range(self.length):
            yield from order_clauses(i * self.n + 1, self.first[i], self.n)


def thermo_clauses(ctx: CnfContext, cells: Sequence[int], *, strict: bool = True
                   ) -> list[Clause]:
    """A thermometer along ``cells`` (values increase from the first; with ``strict``
    false, never decrease) on order literals: per step ``a → b`` and value ``v``, "``a``
    is ``v`` or more" gives "``b`` is ``v + 1`` (or ``v``) or more". Exact: a filling of the
    cells satisfies the clauses (with the literals it sets) iff it satisfies the rule; unit
    propagation carries each cell's bounds along the line both ways.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> thermo_clauses(ctx, (0, 1))[-4:]   # A1's "2, 3, 4 or more" 65-67, A2's 68-70
    [(68,), (-65, 69), (-66, 70), (-67,)]
    """
    defined = line_orders(ctx, cells)
    return templated(ctx, cells, ("order thermo", strict, bool(defined)),
                     lambda slots, c, given=(): _thermo(slots, len(c), strict, given),
                     defined)


def _thermo(slots: CnfContext, length: int, strict: bool, given: Sequence[int] = ()
            ) -> Iterator[Clause]:
    orders = _Orders(slots, length, given)
    yield from orders.definitions()
    step = 1 if strict else 0
    for i in range(length - 1):
        for v in range(1, orders.n + 1):
            clause = folded(negated(orders.ge(i, v)), orders.ge(i + 1, v + step))
            if clause is not None:
                yield clause


def between_clauses(ctx: CnfContext, cells: Sequence[int]) -> list[Clause]:
    """A between line along ``cells`` (each cell between the ends strictly between their
    values) on order literals and one literal ``up``, "the first end is the smaller": with
    ``up``, "the first end is ``v`` or more" gives each middle cell ``v + 1`` or more, and a
    middle cell ``v`` or more gives the last end ``v + 1`` or more; without ``up`` the same
    with the ends swapped; the ends' bounds set ``up`` (the first ``v`` or more and the
    last not: not ``up``); and, either way up, both ends ``v`` or more give each middle cell
    ``v + 1`` or more, and a middle cell ``v`` or more gives one end ``v + 1`` or more (so
    propagation bounds the cells before the direction is known). Exact for a line of three
    cells or more: a filling satisfies the clauses (with the literals it sets, ``up`` as its
    ends say) iff it satisfies the rule.
    """
    defined = line_orders(ctx, cells)
    return templated(ctx, cells, ("order between", bool(defined)),
                     lambda slots, c, given=(): _between(slots, len(c), given), defined)


def _between(slots: CnfContext, length: int, given: Sequence[int] = ()) -> Iterator[Clause]:
    orders = _Orders(slots, length, given)
    up = slots.new_var()
    yield from orders.definitions()
    ge, n, last = orders.ge, orders.n, length - 1
    found: list[Clause | None] = []
    for v in range(1, n + 1):
        # The ends' bounds decide up: first >= v > last: the first is the greater.
        found.append(folded(negated(ge(0, v)), ge(last, v), -up))
        found.append(folded(negated(ge(last, v)), ge(0, v), up))
        for m in range(1, last):
            found.append(folded(-up, negated(ge(0, v)), ge(m, v + 1)))
            found.append(folded(-up, negated(ge(m, v)), ge(last, v + 1)))
            found.append(folded(up, negated(ge(last, v)), ge(m, v + 1)))
            found.append(folded(up, negated(ge(m, v)), ge(0, v + 1)))
            # Either way up: both ends v or more give the cell v + 1 or more, and the cell
            # v or more gives one end v + 1 or more (unit propagation without up's value).
            found.append(folded(ge(m, v + 1), negated(ge(0, v)), negated(ge(last, v))))
            found.append(folded(negated(ge(m, v)), ge(0, v + 1), ge(last, v + 1)))
    yield from (c for c in found if c is not None)


LOCKOUT_ORDER = EncodingOption(
    "lockout_order", "on", "lockout lines in CNF: on (the ends' order literals, one literal "
    "\"the first end is the smaller\", each other cell outside the ends' range on its "
    "digits) or off (the automaton's clauses)", ("on", "off"), "lockout-order switch",
    unrecorded="off")
"""Whether the sat backend writes a lockout line on its ends' order literals
(:func:`lockout_clauses`) or as its automaton (``off``, as before the option existed)."""


def lockout_clauses(ctx: CnfContext, cells: Sequence[int], least: int) -> list[Clause]:
    """A lockout line along ``cells`` (its ends at least ``least`` apart, no other cell
    between them, inclusive) on the ends' order literals (each cell's own definition under
    ``cell_orders=shared``: :func:`~sudoku_csp.constraints.cell_orders.order_definitions`)
    and one literal ``up``, "the first end is the smaller", which the ends' bounds set:
    with ``up``, "the first end is ``v`` or more" gives the last ``v + least`` or more, and
    a cell between holding ``u`` puts the first above ``u`` or the last below it; without
    ``up`` the same with the ends swapped; either way up, a cell between holds neither end's
    digit. Exact: a filling satisfies the clauses (with the literals it sets, ``up`` as its
    ends say) iff it keeps the rule.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65, options={"cell_orders": "own"})
    >>> lockout_clauses(ctx, (0, 1, 2), 2)[-2:]   # A2 holds neither A1's 4 nor A3's
    [(-8, -4), (-8, -12)]
    """
    ends, middle = (cells[0], cells[-1]), tuple(cells[1:-1])
    defined = order_definitions(ctx, ends)
    return templated(ctx, (*ends, *middle), ("order lockout", least, bool(defined)),
                     lambda slots, c, given=(): _lockout(slots, len(c), least, given), defined)


def _lockout(slots: CnfContext, length: int, least: int, given: Sequence[int] = ()
             ) -> Iterator[Clause]:
    orders = _Orders(slots, 2, given)  # the ends, slots 0 and 1
    up = slots.new_var()
    yield from orders.definitions()
    ge, n = orders.ge, orders.n
    found: list[Clause | None] = []
    for v in range(1, n + 1):
        # The ends' bounds decide up: first >= v > last: the first is the greater.
        found += [folded(negated(ge(0, v)), ge(1, v), -up),
                  folded(negated(ge(1, v)), ge(0, v), up),
                  folded(-up, negated(ge(0, v)), ge(1, v + least)),
                  folded(up, negated(ge(1, v)), ge(0, v + least))]
    for m in range(2, length):
        for d in range(n):
            x, u = m * n + d + 1, d + 1
            found += [folded(-up, -x, ge(0, u + 1), negated(ge(1, u))),
                      folded(up, -x, ge(1, u + 1), negated(ge(0, u))),
                      (-x, -(d + 1)), (-x, -(n + d + 1))]
    yield from (c for c in found if c is not None)


def run_clauses(ctx: CnfContext, cells: Sequence[int], seers: Sequence[int] = ()
                ) -> list[Clause]:
    """A renban along ``cells`` (``L`` cells holding a run of ``L`` consecutive values) on
    order literals of the run's start ``s`` ("the run starts at ``k`` or later", ``k = 2 ..
    N - L + 1``; none when ``L = N``): a cell holding ``v`` puts ``s`` in ``[v - L + 1,
    v]``, and a start in ``[v - L + 1, v]`` puts ``v`` in some cell (one clause per value,
    over its digit on each cell). Exact without a word about distinctness: the ``L`` values
    of the run are each held by one of ``L`` cells. Unit propagation bounds the start by
    each cell's value and each cell by the start's bounds, and places a value every run left
    holds on the line (the clause of a value in every run has the cells' digits alone);
    distinctness is the pigeonhole a SAT solver proves slowly, so the caller adds it for
    cells that share no unit. On the generated renbans of few givens
    (examples/kinds_few_givens.txt) CaDiCaL's conflicts fell from 14,900 to 5,900 with the
    pair clauses gone, on "159" (sixteen renbans, no givens) from 4,200 to 600, in a third
    of the clauses.

    ``seers``: cells off the line that see every cell of it (:data:`RENBAN_SEERS`); a value
    the run holds stands on the line, so none of them holds it: per value and seer, "a
    start whose run holds ``v``" excludes ``v`` there (what the native solver's joint link
    does with the cells that see all of a value's places on the line, here for all of its
    cells at once, on the start's literals).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> run_clauses(ctx, (0, 1, 2))[-4:]   # a run from 2 (65) holds 4, another 1; 2, 3 both
    [(65, 1, 5, 9), (2, 6, 10), (3, 7, 11), (-65, 4, 8, 12)]
    >>> run_clauses(ctx, (0, 1, 2), seers=(3,))[:4]   # A4 sees all three: 2, 3 never there
    [(66, -13), (-14,), (-15,), (-66, -16)]
    """
    length = len(cells)
    # The seers are slots after the line's cells: a template per length and count of seers.
    return templated(ctx, (*cells, *seers), ("renban run", length),
                     lambda slots, c: _run(slots, length, len(c) - length))


def _run(slots: CnfContext, length: int, seers: int) -> Iterator[Clause]:
    n = slots.geometry.size
    starts = n - length + 1  # the run starts at digit 0 .. starts - 1
    later = slots.new_vars(starts - 1)  # later[k - 1]: it starts at digit k or later

    def at_least(k: int) -> Constant:
        return True if k <= 0 else False if k >= starts else later[k - 1]

    for k in range(1, starts - 1):
        yield (-later[k], later[k - 1])
    for v in range(n):  # a value the run holds leaves the seers
        low, high = v - length + 1, v
        for seer in range(length, length + seers):
            clause = folded(negated(at_least(low)), at_least(high + 1), -(seer * n + v + 1))
            if clause is not None:
                yield clause
    covers = []
    for v in range(n):
        low, high = v - length + 1, v  # the starts whose run holds v
        for i in range(length):
            x = i * n + v + 1
            for clause in (folded(-x, at_least(low)), folded(-x, negated(at_least(high + 1)))):
                if clause is not None:
                    yield clause
        covers.append(folded(negated(at_least(low)), at_least(high + 1),
                              *(i * n + v + 1 for i in range(length))))
    yield from (c for c in covers if c is not None)
