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
asked (a lower bound: :func:`~sudoku_csp.backends.base.decisive`), hands on to the next;
once the deadline has passed, no further member starts. A member that cannot take the
puzzle (a kind it has no translation for) is passed over; when every member refuses, the
last refusal is raised. When no member decides, the answer is the one that found the most
solutions, the later member's on a tie (its message says why the last try stopped).
Every member checks its own solutions as it finds them
(:class:`~sudoku_csp.backends.base.Tally`); the answer names this portfolio as its solver
and the member that decided in ``stats["winner"]``. In a cross-check it is one claim, like
a race: beside one of its own members it is refused.

The hand-over: a native member whose search stopped at its root, undecided (a budget of one
node, ``native:nodes=1``, or ``native:search=off``), reports the candidates its propagation
from the givens left
(:meth:`~sudoku_csp.backends.native.NativeBackend.solve_from_root`), and every later member
that takes candidates (SAT: :meth:`~sudoku_csp.backends.sat.SatBackend.solve`'s
``candidates``) starts from them, each digit ruled out a unit clause (its
``stats["known"]``). Only the root's candidates are ever handed over: they follow from the
puzzle's rules alone, so every solution keeps to them, where the candidates below a guess
hold only the solutions under that guess (a native member that searched past its root
reports none, so ``first:native:nodes=20,sat`` in effect hands nothing over). The verdict
and the count are SAT's from the givens (the hand-over removes no solution); its
statistics (``known``, mostly fewer conflicts) and, for a puzzle with several solutions,
which of them it finds may differ from SAT's alone. ``auto``
(:mod:`sudoku_csp.backends.auto`) runs its pair this way.

>>> from sudoku_csp import parse
>>> first = FirstBackend("native:nodes=10", "sat")
>>> result = first.solve(parse("3.1...4.2......."), limit=2)
>>> result.status, result.solver
(<Status.UNIQUE: 'unique'>, 'first:native:nodes=10,sat')
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sudoku_csp.backends.base import PortfolioBase, decisive
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import InputError, SpecError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, check_limit

__all__ = ["FirstBackend", "Turns", "in_turn"]


@dataclass(frozen=True)
class Turns:
    """What members tried in turn came to (:func:`in_turn`)."""

    answer: Result
    """The first decisive answer, ``stats["winner"]`` naming its member; else the one that
    found the most solutions (the later member's on a tie), without a winner."""
    member: str
    """The member whose answer it is."""
    tried: dict[str, Result]
    """Every member that answered (not refused), by spec, in the order they ran."""


def in_turn(puzzle: Puzzle, members: Sequence[str], *, limit: int | None,
            deadline: Deadline, hand_over: bool = True) -> Turns:
    """Run ``members`` (specs) on ``puzzle`` in turn under one ``deadline``, as the module
    docstring says: the loop of ``first:`` and of ``auto``. ``hand_over``: whether a member
    that takes candidates starts from the root candidates a native member before it
    reported. Raises the last member's refusal (:class:`~sudoku_csp.errors.InputError`)
    when every member refused.

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.deadline import Deadline
    >>> turns = in_turn(parse("3.1...4.2......."), ["native:nodes=1", "sat"], limit=2,
    ...                 deadline=Deadline.of(None))
    >>> turns.member, turns.answer.stats["winner"], list(turns.tried)
    ('native:nodes=1', 'native:nodes=1', ['native:nodes=1'])
    """
    from sudoku_csp.backends.registry import get_backend

    best: str | None = None
    tried: dict[str, Result] = {}
    refused: InputError | None = None
    root: list[int] | None = None  # the candidates a native member's root propagation left
    for member in members:
        backend = get_backend(member)
        reports_root, takes_candidates = _roles(member)
        try:
            if reports_root:
                result, found = backend.solve_from_root(  # type: ignore[attr-defined]
                    puzzle, limit=limit, time_limit=deadline)
                root = found if found is not None else root
            elif hand_over and root is not None and takes_candidates:
                result = backend.solve(puzzle, limit=limit, time_limit=deadline,
                                       candidates=root)  # type: ignore[call-arg]
            else:
                result = backend.solve(puzzle, limit=limit, time_limit=deadline)
        except InputError as exc:  # a kind this member has no translation for
            refused = exc
            continue
        tried[member] = result
        if decisive(result, limit):
            return Turns(replace(result, stats={**result.stats, "winner": member}), member,
                         tried)
        if best is None or result.count >= tried[best].count:
            best = member
        if deadline.expired():
            break
    if best is None:
        assert refused is not None  # a member that answered set best
        raise refused
    return Turns(tried[best], best, tried)


def renew_members(members: Sequence[str]) -> None:
    """Renew the registry's backend of each member spec
    (:meth:`~sudoku_csp.backends.base.BackendBase.renew`): the backends a portfolio run in
    this process (``first``, ``auto``) solves with."""
    from sudoku_csp.backends.registry import get_backend

    for member in members:
        get_backend(member).renew()


@functools.cache
def _roles(member: str) -> tuple[bool, bool]:
    """Whether ``member``'s backend reports its root's candidates (``reports_root``: the
    native solver) and whether it takes candidates (``takes_candidates``: SAT), as the
    class its name registers declares them (:class:`~sudoku_csp.backends.base.
    BackendBase`), read once a spec."""
    from sudoku_csp.backends.registry import backend_class, parse_spec

    cls = backend_class(parse_spec(member)[0])
    return cls.reports_root, cls.takes_candidates


class FirstBackend(PortfolioBase):
    """Member backends tried in turn on each puzzle; the first decisive answer is taken
    (see the module docstring)."""

    name = "first"
    translation = ""
    description = ("first:SPEC,SPEC,...: the member backends try each puzzle in turn, in "
                   "this process; the first decisive answer is taken (first:native:nodes="
                   "20,sat: native bounded to 20 search nodes, then sat; after native:"
                   "nodes=1, sat starts from the candidates its propagation left)")

    def __init__(self, *members: str) -> None:
        super().__init__()
        from sudoku_csp.backends.registry import check_members

        if len(members) < 2:
            raise SpecError("first: name two members or more, in the order to try them "
                            "(first:native:nodes=20,sat)")
        check_members("first", members)
        self.members = tuple(members)

    def renew(self) -> None:
        renew_members(self.members)

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        check_limit(limit)
        start = time.perf_counter()
        answer = in_turn(puzzle, self.members, limit=limit,
                         deadline=Deadline.of(time_limit)).answer
        return replace(answer, solver=self.spec, seconds=time.perf_counter() - start)
