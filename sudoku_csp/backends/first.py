"""A portfolio run in turn: each member backend tries the puzzle, one after another in this
process, and the first decisive answer is taken.

Spec: ``first:SPEC,SPEC,...`` (members as in a race:
:func:`~sudoku_csp.backends.registry.member_specs`), for example
``first:native:nodes=20,sat``: the native solver, which decides killers and sandwiches
in a millisecond or two but searches for seconds where its propagation is weak, bounded to
20 search nodes; then SAT, which pays a few milliseconds of clauses on every puzzle but
has no weak family. Unlike a race (:mod:`sudoku_csp.backends.race`) it starts no process
and takes no second core: the order of the members is the strategy.

Every member runs under the caller's one deadline; a member that answers ``unknown`` (its
node budget or the time limit ran out), or a count its budget cut short of the solutions
asked (a lower bound: :func:`~sudoku_csp.backends.base.decisive`), hands on to the next. A
member that cannot take the puzzle (a kind it has no translation for) is passed over.
Every member checks its own solutions as it finds them
(:class:`~sudoku_csp.backends.base.Tally`); the answer names this portfolio as its solver
and the member that decided in ``stats["winner"]``. In a cross-check it is one claim, like
a race: beside one of its own members it is refused.

>>> from sudoku_csp import parse
>>> first = FirstBackend("native:nodes=10", "sat")
>>> result = first.solve(parse("3.1...4.2......."), limit=2)
>>> result.status, result.solver
(<Status.UNIQUE: 'unique'>, 'first:native:nodes=10,sat')
"""

from __future__ import annotations

import time
from dataclasses import replace

from sudoku_csp.backends.base import PortfolioBase, decisive
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import InputError, SpecError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status, check_limit

__all__ = ["FirstBackend"]


class FirstBackend(PortfolioBase):
    """Member backends tried in turn on each puzzle; the first decisive answer is taken
    (see the module docstring)."""

    name = "first"
    translation = ""
    description = ("first:SPEC,SPEC,...: the member backends try each puzzle in turn, in "
                   "this process; the first decisive answer is taken (first:native:nodes="
                   "20,sat: native bounded to 20 search nodes, then sat)")

    def __init__(self, *members: str) -> None:
        super().__init__()
        from sudoku_csp.backends.registry import check_members

        if len(members) < 2:
            raise SpecError("first: name two members or more, in the order to try them "
                            "(first:native:nodes=20,sat)")
        check_members("first", members)
        self.members = tuple(members)

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        from sudoku_csp.backends.registry import get_backend

        check_limit(limit)
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        best: Result | None = None
        refused: InputError | None = None
        for member in self.members:
            try:
                result = get_backend(member).solve(puzzle, limit=limit, time_limit=deadline)
            except InputError as exc:  # a kind this member has no translation for
                refused = refused or exc
                continue
            if decisive(result, limit):
                return self._answer(result, member, start)
            if best is None or result.count > best.count:
                best = result
            if deadline.expired():
                break
        if best is None:
            if refused is not None:
                raise refused
            best = Result(Status.UNKNOWN, message="time limit reached", complete=False,
                          puzzle=puzzle)
        return self._answer(best, None, start)

    def _answer(self, result: Result, winner: str | None, start: float) -> Result:
        stats = {**result.stats, "winner": winner} if winner else dict(result.stats)
        return replace(result, solver=self.spec, stats=stats,
                       seconds=time.perf_counter() - start)
