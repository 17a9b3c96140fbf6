"""The default solver, ``auto``: for each run, the backend that suits what is asked.

- Solving or deciding uniqueness (``limit`` 1 or 2): a puzzle of no constraints (or only of
  :data:`NATIVE_FIRST`'s kinds: none today) goes to the native solver bounded to
  :data:`NODES` search nodes, then SAT, in turn, by the loop of ``first:native:nodes=1,sat``
  (:func:`~sudoku_csp.backends.first.in_turn`); a puzzle with any other kind goes to SAT at
  once (:data:`NATIVE_FIRST`, measured). The native solver decides what its propagation
  settles (most 17-clue puzzles) in a fraction of a millisecond, without loading a SAT
  solver; a puzzle that needs a search goes to SAT, whose clause learning decides in
  milliseconds what the native search, where its propagation is weak (long sums with few
  givens, some little killers and lines), would take seconds over. PySAT is imported only
  when SAT is reached. SAT starts from the candidates the native propagation left
  (:meth:`~sudoku_csp.backends.native.NativeBackend.solve_from_root`, passed as SAT's
  ``candidates``: unit clauses for the digits ruled out, :data:`HAND_OVER`), not from the
  givens alone: what the native rules found (sum combinations, locked candidates) SAT's unit
  propagation does not all find again, and its search has that much less to do.
- Looking for more solutions (``limit`` above 2, or ``None``: every one): the same pair
  decides uniqueness first; a puzzle it finds unique or without a solution has its exact
  count there (a published puzzle, the usual case, costs no more than ``count``). Only a
  puzzle with two solutions or more goes on to the native solver alone, unbounded, which
  enumerates them: SAT would find each further solution in a new call under one more
  blocking clause, which grows slow past a few hundred.

Every result names ``auto`` as its solver and the member that decided in
``stats["winner"]`` (``native:nodes=1``, ``sat`` or ``native``; absent when none did),
as the other portfolios do. The native solver's own spec (``-s native``) stays the
reference solver, unbounded; ``auto`` takes no options (name ``first:...`` or a backend
for another choice). In a cross-check it is one claim: beside ``native`` or ``sat`` it is
refused (:func:`~sudoku_csp.crosscheck.resolve`), and unlike the native solver alone it runs
there with no time limit of its own when given none
(:meth:`~sudoku_csp.backends.base.BackendBase.crosscheck_seconds`): where the native search
would stall, SAT decides.

>>> from sudoku_csp import parse
>>> auto = AutoBackend()
>>> result = auto.solve(parse("3.1...4.2......."), limit=2)
>>> result.status, result.solver, result.stats["winner"]
(<Status.UNIQUE: 'unique'>, 'auto', 'native:nodes=1')
>>> several = auto.solve(parse("1..." "..1." ".1.." "...1"), limit=None)
>>> several.count, several.stats["winner"]
(18, 'native')
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from sudoku_csp.backends.base import PortfolioBase, decisive
from sudoku_csp.backends.first import in_turn, renew_members
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import SpecError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, check_limit

__all__ = ["NATIVE_FIRST", "NODES", "AutoBackend", "native_first"]

NODES = 1
"""The native solver's search nodes before SAT takes over, when solving or deciding uniqueness:
one, so the native solver decides what its propagation settles (most 17-clue puzzles: a
fraction of a millisecond, without loading a SAT solver) and hands every puzzle that needs a
search to SAT at once. Measured (before a puzzle met again was timed as new) in one run
beside budgets of 5 and 20 (examples/uniqueness_benchmark.py, two rounds, medians in one
process): the published variants 2.3 ms (5 nodes: 2.8, 20: 4.4; SAT alone 1.9), the
published killers 1.2 (1.2, 1.3; SAT 3.4), the generated few-givens puzzles 4.4 (4.7, 6.3;
SAT 4.3); end to end the three budgets were within 3 ms of each other. Budgets of 50 and 150
measured no better than 20."""

HAND_OVER = True
"""Whether SAT starts from the native propagation's candidates (a switch, to measure it; see
docs/design.md, "SAT from the native node's candidates"). On the puzzles the native node
leaves undecided, counting to two in fresh mode (deterministic), conflicts per puzzle at the
median: the published variants 56 → 48, the generated few-givens puzzles 200 → 115 (the
placed digits alone: 52 and 200)."""

NATIVE_FIRST: frozenset[str] = frozenset()
"""The constraint kinds on which the native node goes first: a puzzle whose constraints are
all of these (or that has none: a plain puzzle always does) starts with the native node, any
other goes to SAT at once. None today, by measurement (examples/uniqueness_benchmark.py,
three shuffled rounds, medians in one process, each puzzle met as new:
:func:`~sudoku_csp.constraints.forget_puzzles`), SAT alone against the node then SAT, ms:
the published killers 1.5 against 2.3 (since SAT leaves out the seers' clauses:
:data:`~sudoku_csp.constraints.implied.SEERS`), the killers of few givens 1.7 against 3.2
and 1.9 against 2.9, the sandwiches 2.1 against 3.2 published and 2.0-2.9 against 5.0-5.6
with few givens (their node had looked quick only while a puzzle met again found its
links and narrowings remembered), the other kinds 1.4 against 2.1 published and 3.5
against 4.8 with few givens. Plain puzzles keep the node: 300 17-clue puzzles 0.1 against
0.2 (it decides most, and their clauses are never built)."""

QUICK = (f"native:nodes={NODES}", "sat")
"""The members tried in turn on every puzzle, to two solutions at most."""

ENUMERATOR = "native"
"""The member that enumerates, when more solutions than two are asked and there are two."""


class AutoBackend(PortfolioBase):
    """The default solver: ``first:native:nodes=1,sat`` to solve or decide uniqueness, and
    ``native`` to enumerate where they find two solutions (see the module docstring)."""

    name = "auto"
    translation = ""
    description = (f"the default: to solve or decide uniqueness, native bounded to {NODES} "
                   f"search nodes then sat (first:{','.join(QUICK)}) on plain puzzles, sat "
                   "on puzzles with constraints; to count further, "
                   "the same, then native where they find two solutions; the member that "
                   "decided is in stats['winner']")

    def __init__(self, *given: str) -> None:
        super().__init__()
        if given:
            raise SpecError(f"auto takes no options (got {','.join(given)!r}); name "
                            f"first:{','.join(QUICK)} or a backend for another choice")
        from sudoku_csp.backends.registry import get_backend

        self.members = (*QUICK, ENUMERATOR)
        """Every backend ``auto`` may run: a cross-check refuses it beside any of them."""
        # The native members are built now, as any backend is before its first puzzle (a
        # result's seconds are the solve's); SAT's only when a puzzle reaches it.
        for spec in (QUICK[0], ENUMERATOR):
            get_backend(spec)

    @property
    def spec(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), ())

    def renew(self) -> None:
        renew_members(self.members)

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        check_limit(limit)
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        asked = limit if limit is not None and limit <= 2 else 2
        result = self._quick(puzzle, asked, deadline)
        # Decided with fewer than two solutions, the search ran to its end: the count is
        # exact, whatever the limit (status_for gives the same verdict for every limit).
        if asked == limit or (decisive(result, asked) and result.count < 2):
            return replace(result, solver=self.spec, seconds=time.perf_counter() - start)
        from sudoku_csp.backends.registry import get_backend

        result = get_backend(ENUMERATOR).solve(puzzle, limit=limit, time_limit=deadline)
        stats = {**result.stats, "winner": ENUMERATOR} if decisive(result, limit) \
            else result.stats
        return replace(result, solver=self.spec, stats=stats,
                       seconds=time.perf_counter() - start)

    def _quick(self, puzzle: Puzzle, limit: int, deadline: Deadline) -> Result:
        """The native node (where :func:`native_first`), then SAT from the candidates it
        left, run in turn as :class:`~sudoku_csp.backends.first.FirstBackend` runs its
        members (:func:`~sudoku_csp.backends.first.in_turn`): ``stats["winner"]`` names
        the member that decided (absent when neither did; the answer is then the one that
        found more solutions, SAT's on a tie). A SAT answer after the node carries the
        node's time in its phases (``native_seconds``)."""
        members = QUICK if native_first(puzzle) else QUICK[1:]
        turns = in_turn(puzzle, members, limit=limit, deadline=deadline, hand_over=HAND_OVER)
        node = turns.tried.get(QUICK[0])
        if node is None or turns.member == QUICK[0]:
            return turns.answer
        return replace(turns.answer,
                       phases={**turns.answer.phases, "native_seconds": node.seconds})


def native_first(puzzle: Puzzle) -> bool:
    """Whether ``auto`` starts ``puzzle`` with the native node (:data:`NATIVE_FIRST`).

    >>> from sudoku_csp import parse
    >>> native_first(parse("." * 81))
    True
    """
    return all(c.kind in NATIVE_FIRST for c in puzzle.constraints)
