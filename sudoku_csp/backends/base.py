"""The backend protocol, backend options, and the one place results are assembled.

Every backend builds its :class:`~sudoku_csp.result.Result` through :func:`make_result`,
which checks each solution with the independent :mod:`sudoku_csp.verify` and refuses
duplicates, so no backend can report an unchecked answer.
"""

from __future__ import annotations

import abc
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from sudoku_csp.constraints import Constraint
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import SpecError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import KEPT_WHEN_COUNTING, Result, Status, status_for
from sudoku_csp.verify import WrongSolutionError, check_solutions

if TYPE_CHECKING:
    from sudoku_csp.constraints.translation import EncodingOption

PHASES = ("model_seconds", "solve_seconds", "check_seconds", "native_seconds")
"""Where a puzzle's time goes, in a result's ``phases`` (seconds): building its model (the
SAT backend: the geometry's formula loaded when new, the constraints' clauses made and
added; CP-SAT: the template copied and the constraints added), the solver's calls, the
check of each solution (every backend), and in ``auto`` the native solver's run before SAT
took over (its node, with its own check). What is left of ``Result.seconds`` is reading the
solutions back and assembling the result (and the native solver's propagation and search
where it decides alone)."""


@runtime_checkable
class Backend(Protocol):
    """A configured solver. ``solve`` looks for up to ``limit`` solutions (``None``: all)
    within ``time_limit``: seconds, or a :class:`~sudoku_csp.deadline.Deadline` the caller
    shares with its other stages (what the solve spends, they no longer have).

    ``spec`` is the canonical spec string that names this configuration; results carry it.
    ``renew`` forgets what earlier puzzles left in its solvers
    (:meth:`BackendBase.renew`).
    """

    @property
    def spec(self) -> str: ...

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result: ...

    def renew(self) -> None: ...


@dataclass(frozen=True)
class Option:
    """One option of a backend spec (``name=value``), with its default and allowed values.

    ``choices`` lists allowed values; ``kind`` is the value's type (``int`` or ``str``);
    ``open_choices`` means other values are allowed too (the backend checks them itself);
    ``minimum`` bounds an ``int`` option from below.

    >>> Option("workers", 1, "threads", kind=int, minimum=0).value("cpsat", "4")
    4
    >>> Option("model", "a", "model", ("a", "b")).value("cpsat", "c")
    Traceback (most recent call last):
    ...
    sudoku_csp.errors.SpecError: cpsat: model='c' is not allowed; choose from a, b
    """

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    kind: type = str
    open_choices: bool = False
    minimum: int | None = None

    def value(self, backend: str, given: Any) -> Any:
        """``given`` (spec text, or a Python value passed as a keyword) checked and converted
        to ``kind``; SpecError naming the backend, the option and what is allowed."""
        if isinstance(given, str) and self.kind is not str:
            try:
                given = self.kind(given.strip())
            except ValueError:
                raise SpecError(f"{backend}: {self.name}={given!r} must be "
                                f"{self._kind_name()}") from None
        if not isinstance(given, self.kind) or (self.kind is int and isinstance(given, bool)):
            raise SpecError(f"{backend}: {self.name}={given!r} must be {self._kind_name()}")
        if self.choices and not self.open_choices and given not in self.choices:
            raise SpecError(f"{backend}: {self.name}={given!r} is not allowed; "
                            f"choose from {', '.join(self.choices)}")
        if self.minimum is not None and isinstance(given, int) and given < self.minimum:
            raise SpecError(f"{backend}: {self.name}={given!r} must be at least {self.minimum}")
        return given

    def _kind_name(self) -> str:
        return {int: "an integer", str: "text"}.get(self.kind, self.kind.__name__)

    def describe(self) -> str:
        """One line for ``sudoku-csp solvers``: allowed values, default and meaning."""
        allowed = ", ".join(self.choices) if self.choices else self.kind.__name__
        if self.open_choices:
            allowed += ", ..."
        if self.minimum is not None:
            allowed += f" >= {self.minimum}"
        return f"{self.name}={allowed} (default {self.default}): {self.help}"


class BackendBase(abc.ABC):
    """Shared spec handling: subclasses declare ``name``, ``description``, ``translation``
    and ``OPTIONS`` and implement :meth:`solve`. Every option value, from a spec string or a
    keyword, is checked here against its :class:`Option`, once; ``self.options`` holds the
    typed values.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    translation: ClassVar[str]
    """The translation of typed constraints this backend solves them through, a hook of
    :class:`~sudoku_csp.constraints.base.Constraint` (``native``, ``cnf`` or ``cpsat``): a
    kind without it is refused, with an error naming the kind (:meth:`handles`)."""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    """The backend's own options. The typed constraints' encoding options it also takes
    are :meth:`kind_encoding_options`'s; :meth:`all_options` lists both."""
    COMPARE: ClassVar[tuple[str, ...]] = ()
    """The configurations of this backend ``sudoku-csp compare`` runs when no solver is
    named (spec strings), in the order of its table."""
    reports_root: ClassVar[bool] = False
    """It has ``solve_from_root`` (:meth:`~sudoku_csp.backends.native.NativeBackend.
    solve_from_root`), reporting the candidates its propagation from the givens left: a
    portfolio run in turn hands them on (:func:`~sudoku_csp.backends.first.in_turn`)."""
    takes_candidates: ClassVar[bool] = False
    """Its :meth:`solve` takes ``candidates`` (SAT's): where a portfolio run in turn starts
    it from a native member's root."""

    def __init__(self, **options: Any) -> None:
        own = {o.name for o in self.OPTIONS}
        # The kinds' options are looked up only when the spec names one: the registry of
        # kinds imports every kind (start-up, issue 34), and a kind applies its own default.
        known = {o.name: o for o in (self.all_options() if options.keys() - own
                                     else self.OPTIONS)}
        unknown = options.keys() - known.keys()
        if unknown:
            raise SpecError(f"{self.name}: unknown option {', '.join(sorted(unknown))}; "
                            f"options are {', '.join(known) or 'none'}")
        self.options: dict[str, Any] = {
            o.name: o.value(self.name, options[o.name]) if o.name in options else o.default
            for o in known.values() if o.name in own or o.name in options}
        """Every own option's value, and the value of each kind's option the spec names (a
        kind's option not named is at the kind's default: :meth:`kind_encoding_options`)."""

    @classmethod
    def kind_encoding_options(cls) -> dict[str, EncodingOption]:
        """The typed constraints' encoding options this backend takes as options of its
        own (:func:`~sudoku_csp.constraints.encoding_options`), by name; none here."""
        return {}

    @classmethod
    def all_options(cls) -> tuple[Option, ...]:
        """Every option of the spec: :attr:`OPTIONS`, then :meth:`kind_encoding_options` (what
        ``sudoku-csp solvers`` lists; it imports every kind).

        >>> from sudoku_csp.backends.registry import backend_class
        >>> [o.name for o in backend_class("native").all_options()][-3:]
        ['hidden', 'leftovers', 'required']
        """
        return (*cls.OPTIONS, *(Option(o.name, o.default, o.help, o.choices)
                                for o in cls.kind_encoding_options().values()))

    def renew(self) -> None:
        """Forget what solving earlier puzzles left in this backend's solvers, keeping what
        depends on the grid and the shapes of constraints alone (formulas, definitions,
        clause templates), so that a puzzle met again is solved as a new one would be, the
        reloading done now rather than in the next solve (a benchmark's rounds:
        examples/uniqueness_benchmark.py). The native and CP-SAT backends keep nothing per
        puzzle but what :func:`~sudoku_csp.constraints.forget_puzzles` forgets: nothing to
        do here; SAT's incremental sessions (:meth:`SatBackend.renew
        <sudoku_csp.backends.sat.SatBackend.renew>`) and portfolios' members
        (:func:`~sudoku_csp.backends.first.renew_members`, the race's own) do it."""
        return  # nothing learnt per puzzle to forget

    def given_kind_options(self) -> dict[str, str]:
        """The kinds' encoding options the spec named, by name, for the translation (every
        other one is at its kind's default).

        >>> from sudoku_csp.backends.registry import get_backend
        >>> get_backend("native:hidden=off").given_kind_options()
        {'hidden': 'off'}
        """
        own = {o.name for o in self.OPTIONS}
        return {name: value for name, value in self.options.items() if name not in own}

    @classmethod
    def handles(cls, kind: type[Constraint]) -> bool:
        """Whether this backend solves puzzles with constraints of ``kind``: the kind has
        the backend's :attr:`translation`.

        >>> from sudoku_csp.backends.registry import backend_class
        >>> from sudoku_csp.constraints import Cage
        >>> backend_class("cpsat").handles(Cage)
        True
        """
        return kind.translates(cls.translation)

    @functools.cached_property
    def spec(self) -> str:
        """Canonical spec: the backend name and every option that differs from its default.
        Worked out once, at the first use (every result carries it): the options are
        settled when the backend is built and never change afterwards."""
        options = self.all_options() if self.given_kind_options() else self.OPTIONS
        changed = [f"{o.name}={self.options[o.name]}" for o in options
                   if o.name in self.options and self.options[o.name] != o.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    @abc.abstractmethod
    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        """Look for up to ``limit`` solutions (``None``: all) within ``time_limit`` (seconds,
        or a :class:`~sudoku_csp.deadline.Deadline` shared with the caller)."""

    def prepare(self, time_limit: Limit = None) -> bool:
        """Start loading what this backend's first solve would otherwise have to load (a
        solver library slow to import), and wait for it at most ``time_limit`` (0: not at
        all, it goes on in the background): whether it is ready. A batch calls it with 0 as
        it starts; the first solve waits for the rest inside its own time limit."""
        return True

    def crosscheck_seconds(self, puzzle: Puzzle) -> float | None:
        """The time limit this backend runs under in a cross-check given none (``check``,
        ``compare``): ``None``, no bound, unless its search can stall on the puzzle where the
        others answer at once; it then says "unknown", never holds up their verdicts."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def clash_result(puzzle: Puzzle, solver: str) -> Result | None:
    """``NONE`` naming the clash when two givens already break a rule, else ``None``."""
    clashes = puzzle.clashes()
    if not clashes:
        return None
    return Result(Status.NONE, solver=solver, message=puzzle.describe_clash(clashes[0]),
                  stats={"clashes": len(clashes)}, puzzle=puzzle)


class Tally:
    """The solutions of one search, each checked against the rules the moment it is found
    (:func:`~sudoku_csp.verify.check_solutions`, which trusts no solver), so that checking
    stays inside the search's time limit; the first ``limit`` are kept (the first
    :data:`~sudoku_csp.result.KEPT_WHEN_COUNTING` when every solution is counted) and the
    others only counted, each remembered by a 16-byte digest that proves it distinct (a kept
    grid is remembered as itself: no digest is made while every solution found is kept, as
    when solving or deciding uniqueness).

    >>> from sudoku_csp import parse
    >>> tally = Tally(parse("1..." "..1." ".1.." "...1"), "demo", limit=None)
    >>> tally.add((0, 1, 2, 3, 2, 3, 0, 1, 3, 0, 1, 2, 1, 2, 3, 0))
    >>> tally.count, len(tally.grids)
    (1, 1)
    """

    __slots__ = ("puzzle", "solver", "keep", "grids", "count", "check_seconds", "_kept",
                 "_seen")

    def __init__(self, puzzle: Puzzle, solver: str, limit: int | None) -> None:
        self.puzzle = puzzle
        self.solver = solver
        self.keep = KEPT_WHEN_COUNTING if limit is None else limit
        self.grids: list[Grid] = []
        self.count = 0
        self.check_seconds = 0.0  # spent checking grids (where a puzzle's time goes)
        self._kept: set[Grid] = set()  # the grids of ``grids``
        self._seen: set[bytes] = set()  # digests of the grids counted but not kept

    def seen(self, grid: Sequence[int]) -> bool:
        """Whether ``grid`` was added before."""
        grid = tuple(grid)
        return grid in self._kept or (bool(self._seen) and _digest(grid) in self._seen)

    def add(self, grid: Sequence[int]) -> None:
        """Check ``grid`` and count it; :class:`~sudoku_csp.verify.WrongSolutionError` if it
        is not a solution, or was added before (a wrong count is a wrong verdict)."""
        grid = tuple(grid)
        start = time.perf_counter()
        check_solutions(self.puzzle, (grid,), self.solver)
        self.check_seconds += time.perf_counter() - start
        if self.seen(grid):
            raise WrongSolutionError(f"{self.solver} returned the same solution twice for "
                                     f"{to_line(self.puzzle)}")
        self.count += 1
        if len(self.grids) < self.keep:
            self.grids.append(grid)
            self._kept.add(grid)
        else:
            self._seen.add(_digest(grid))


def _digest(grid: Sequence[int]) -> bytes:
    import hashlib  # here: loading OpenSSL's hashes costs about 4 ms of every start-up

    # Digits are below 256 (at most 25), so a grid is its own byte string.
    return hashlib.blake2b(bytes(grid), digest_size=16).digest()


class PortfolioBase(BackendBase):
    """A backend made of member backends, named by their specs in its own
    (``NAME:SPEC,SPEC,...``, read by :func:`~sudoku_csp.backends.registry.member_specs`;
    :attr:`default_members` when none are named). A subclass checks its members and keeps
    them in ``members``; it is rebuilt from them in another process."""

    default_members: ClassVar[tuple[str, ...]] = ()
    members: tuple[str, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # A worker process gets a portfolio of its own, of the same members.
        return (type(self), self.members)

    @property
    def spec(self) -> str:
        return f"{self.name}:{','.join(self.members)}"


def decisive(result: Result, limit: int | None) -> bool:
    """Whether ``result`` is a verdict: anything but unknown, that either ran to the end or
    found the ``limit`` solutions asked. A count a time limit or a node budget cut short
    below the limit is only a lower bound: a portfolio asks its next member.

    >>> three = Result(Status.MULTIPLE, ((0,), (1,)), total=3, complete=False)
    >>> decisive(three, 2), decisive(three, 5), decisive(three, None)
    (True, False, False)
    """
    return result.status is not Status.UNKNOWN and (
        result.complete or (limit is not None and result.count >= limit))


def make_result(
    puzzle: Puzzle,
    solutions: Sequence[Grid] | Tally,
    *,
    limit: int | None,
    complete: bool,
    timed_out: bool,
    solver: str,
    seconds: float,
    stats: dict[str, Any],
    time_limit: Limit = None,
    phases: dict[str, float] | None = None,
    budget: str = "",
) -> Result:
    """The verdict on a search that found ``solutions``: a :class:`Tally` that checked each
    as it came, or a sequence of grids, checked here (the same way). The result's
    ``phases`` are ``phases`` and ``check_seconds``, the time checking took (see
    :data:`PHASES`). ``budget``: what ran out and stopped the search short, other than
    the time limit (the native solver's "node budget ran out (8 search nodes)"): the
    result is then incomplete, its count a lower bound, as when ``timed_out``.

    Raises :class:`~sudoku_csp.verify.WrongSolutionError` if a backend produced a grid that
    is not a solution, or the same solution twice.
    """
    if isinstance(solutions, Tally):
        tally = solutions
    else:
        tally = Tally(puzzle, solver, limit)
        for grid in solutions:
            tally.add(grid)
    count = tally.count
    status = status_for(count, limit, complete)
    message = ""
    if timed_out or budget:
        deadline = Deadline.of(time_limit)
        why = budget if not timed_out else (
            f"{deadline.words() if deadline.limited else 'interruption'} reached")
        if status is Status.UNKNOWN:
            message = why
        elif limit is None:  # a verdict holds, but the count was cut short
            message = f"{why}: at least {count} solutions, count incomplete"
    return Result(status, tuple(tally.grids), stats, seconds, solver, message,
                  total=count if count != len(tally.grids) else None,
                  complete=not (timed_out or budget),
                  puzzle=puzzle,
                  phases={**(phases or {}), "check_seconds": tally.check_seconds})
