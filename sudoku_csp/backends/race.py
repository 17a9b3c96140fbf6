"""A race between backends: each member in a process of its own, the first decisive answer
taken, the others stopped at once.

Spec: ``race`` (the members of :data:`DEFAULT_MEMBERS`) or ``race:SPEC,SPEC,...``, each
member a spec of :data:`~sudoku_csp.backends.registry.BACKENDS` with its own options:
``race:native,sat:solver=glucose4,encoding=minimal,cpsat:model=boolean`` (an item
``key=value`` goes on with the member before it; a new member starts at a backend's name).

How it runs, and why:

- One worker process per member, started at the first puzzle (by fork where that is
  safe: :func:`sudoku_csp.processes.context`) and kept for every puzzle after, so that each
  member keeps its loaded solvers and templates, as the backend does in one process. A
  member imports its own solver library in its own process, at the same time as the others
  and as the caller reading its puzzle.
- Every member gets the puzzle with the caller's deadline (:class:`~sudoku_csp.deadline.
  Deadline`, on the monotonic clock all processes share). The first *decisive* answer
  (:func:`~sudoku_csp.backends.base.decisive`: any verdict but ``unknown`` that ran to the
  end or found the solutions asked; a count a time limit or node budget cut short below
  the limit does not decide) wins.
  Then every other member's deadline is brought forward to now
  (:meth:`~sudoku_csp.deadline.Cancellable.cancel`): it stops exactly as a time limit stops
  it (CP-SAT's ``stop_search``, PySAT's ``interrupt`` or the end of a conflict-budget
  slice, the native search's next node), keeping its loaded solvers, and its late answer
  is dropped. A member that has not stopped :data:`GRACE` seconds after that is killed and
  started again.
- The winner's solutions are verified again here, as they arrive from another process
  (:class:`~sudoku_csp.backends.base.Tally`), on top of the check its own backend made;
  the result names the race as its solver and the winner in ``stats["winner"]``.
- A wrong answer from a member (:class:`~sudoku_csp.verify.WrongSolutionError`) is raised
  at once, not outvoted. A member that cannot take the puzzle (a kind it has no
  translation for) sits the puzzle out; when none can, its error is raised.
- No member decided (time limit): the result is the answer of the member that found the
  most solutions (``unknown``, or a count that is a lower bound), with no winner named.

A race is one backend: in a cross-check its verdict is one claim, never counted as two
(:func:`~sudoku_csp.crosscheck.resolve` refuses a race beside a spec of its own members).

>>> from sudoku_csp.backends.registry import make_backend
>>> race = make_backend("race:native,sat")
>>> race.spec
'race:native,sat'
>>> from sudoku_csp import parse
>>> race.solve(parse("3.1...4.2......."), limit=2).status
<Status.UNIQUE: 'unique'>
>>> race.close()
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing.connection import Connection, wait
from typing import Any

from sudoku_csp.backends.base import PortfolioBase, Tally, decisive
from sudoku_csp.deadline import Cancellable, Deadline, Limit
from sudoku_csp.errors import BackendError
from sudoku_csp.interrupts import deferred, worker_signals
from sudoku_csp.processes import context
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status, check_limit
from sudoku_csp.verify import WrongSolutionError

DEFAULT_MEMBERS = ("sat", "cpsat")
"""The members of a bare ``race``: one per core of a two-core machine, SAT's clause
learning and CP-SAT's models, which lose on different families of puzzles."""

GRACE = 0.5
"""Seconds a member stopped by the race has to give up before it is killed (and started
again for the next puzzle): a solver that cannot be stopped inside a call (Lingeling,
Kissat) must not keep a core busy."""

START_METHOD: str | None = None
"""How member processes start (``"fork"``, ``"forkserver"``, ``"spawn"``); ``None``: fork
while this process runs a single thread (:func:`sudoku_csp.processes.context`)."""

__all__ = ["DEFAULT_MEMBERS", "GRACE", "START_METHOD", "RaceBackend"]


# -- a member, in its own process ---------------------------------------------------------
def _serve(spec: str, inbox: Connection, outbox: Connection) -> None:
    """A member's process: solve each puzzle sent, answer ``(kind, job, payload)``; a
    thread listens for the race's "stop" and cancels the job's deadline."""
    worker_signals()
    from sudoku_csp.backends.registry import make_backend

    jobs: list[tuple[Any, ...] | None] = []
    ready = threading.Condition()
    current: dict[int, Cancellable] = {}  # the job being solved: its deadline
    stopped: set[int] = set()  # jobs the race stopped before they began

    def listen() -> None:
        while True:
            try:
                message = inbox.recv()
            except (EOFError, OSError):
                message = None
            except Exception as exc:  # noqa: BLE001 - a job that does not unpickle here
                with contextlib.suppress(Exception):
                    outbox.send(("fatal", 0, BackendError(f"{spec}: {exc}")))
                message = None
            with ready:
                if message is not None and message[0] == "quit":
                    message = None
                elif message is not None and message[0] == "stop":
                    job = message[1]
                    if job in current:
                        current[job].cancel()
                    else:
                        stopped.add(job)
                    continue
                jobs.append(message)
                ready.notify()
            if message is None:
                return

    threading.Thread(target=listen, name="race-listener", daemon=True).start()
    try:
        backend = make_backend(spec)
    except BaseException as exc:  # a bad option: every job answers with it
        backend, failure = None, exc
    while True:
        with ready:
            while not jobs:
                ready.wait()
            message = jobs.pop(0)
            if message is None:
                return
        if message[0] == "renew":  # between puzzles: nothing of this member is running
            if backend is not None:
                backend.renew()
            outbox.send(("renewed", message[1], None))
            continue
        with ready:
            _, job, puzzle, limit, at, seconds = message
            deadline = Cancellable.of_limit(at, seconds)
            current[job] = deadline
            if job in stopped:
                stopped.discard(job)
                deadline.cancel()
        try:
            if backend is None:
                raise failure
            answer: tuple[str, int, Any] = ("result", job, replace(
                backend.solve(puzzle, limit=limit, time_limit=deadline), puzzle=None))
        except Exception as exc:  # noqa: BLE001 - handed to the race, which raises it
            answer = ("error", job, exc)
        with ready:
            del current[job]
        try:
            outbox.send(answer)
        except Exception as exc:  # noqa: BLE001 - an error that does not pickle
            outbox.send(("error", job, BackendError(f"{spec}: {type(exc).__name__}: {exc}")))


class _Member:
    """The race's side of one member: its process and pipes, the jobs sent and not yet
    answered, and when it was told to stop."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.process: Any = None
        self.inbox: Connection | None = None  # the race writes jobs and stops here
        self.outbox: Connection | None = None  # and reads answers here
        self.waiting: set[int] = set()  # jobs sent, not answered
        self.stopped_at: float | None = None  # when the race last told it to stop

    def start(self) -> None:
        ctx: Any = context(START_METHOD)
        inbox_read, inbox_write = ctx.Pipe(duplex=False)
        outbox_read, outbox_write = ctx.Pipe(duplex=False)
        with deferred():  # born with Ctrl-C blocked: the race stops its members
            self.process = ctx.Process(target=_serve, args=(self.spec, inbox_read, outbox_write),
                                       name=f"race {self.spec}", daemon=True)
            self.process.start()
        inbox_read.close()
        outbox_write.close()
        self.inbox, self.outbox = inbox_write, outbox_read
        self.waiting.clear()
        self.stopped_at = None

    def submit(self, job: int, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> None:
        self.drain()
        if self.waiting and self.stopped_at is not None \
                and time.monotonic() - self.stopped_at > GRACE:
            self.kill()  # still busy with a puzzle it was told to stop
        if self.process is None:
            self.start()
        assert self.inbox is not None
        self.inbox.send(("job", job, puzzle, limit, deadline.at, deadline.seconds))
        self.waiting.add(job)

    def stop(self, job: int) -> None:
        """Tell the member to give up ``job`` (its late answer is dropped)."""
        if job in self.waiting and self.inbox is not None:
            with contextlib.suppress(OSError):
                self.inbox.send(("stop", job))
            self.stopped_at = time.monotonic()

    def receive(self) -> tuple[str, int, Any]:
        assert self.outbox is not None
        try:
            kind, job, payload = self.outbox.recv()
        except (EOFError, OSError):
            self.kill()
            raise BackendError(f"race: member {self.spec} ended without an answer") from None
        if kind == "fatal":  # the member could not go on: it has ended
            self.kill()
            raise BackendError(f"race: member {payload}")
        self.waiting.discard(job)
        return kind, job, payload

    def drain(self) -> None:
        """Read the late answers already there (of puzzles the race stopped)."""
        while self.outbox is not None and self.waiting and self.outbox.poll(0):
            try:
                self.receive()
            except BackendError:
                return

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
            self.process = None
        for end in (self.inbox, self.outbox):
            if end is not None:
                end.close()
        self.inbox = self.outbox = None
        self.waiting.clear()

    def close(self) -> None:
        """End the process: asked first, killed if it does not end within :data:`GRACE`."""
        if self.process is not None and self.inbox is not None:
            with contextlib.suppress(OSError):
                for job in self.waiting:
                    self.inbox.send(("stop", job))
                self.inbox.send(("quit",))
            self.process.join(GRACE)
        self.kill()


# -- the race -------------------------------------------------------------------------------
class RaceBackend(PortfolioBase):
    """Several backends raced on each puzzle, each in a process of its own: the first
    decisive answer, verified, and the others stopped (see the module docstring).

    Not thread-safe: one race per thread (as the batch runner makes one per process).
    """

    name = "race"
    translation = ""
    default_members = DEFAULT_MEMBERS
    description = ("race:SPEC,SPEC,...: the member backends race on each puzzle, each in "
                   "a process of its own; the first decisive answer wins and the others are "
                   f"stopped (bare 'race' = {', '.join(DEFAULT_MEMBERS)})")

    def __init__(self, *members: str) -> None:
        super().__init__()
        from sudoku_csp.backends.registry import check_members

        specs = members or DEFAULT_MEMBERS
        check_members("race", specs)
        self.members = tuple(specs)
        self._racers = [_Member(spec) for spec in specs]  # started at the first puzzle
        self._job = 0
        _LIVE.add(self)

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        check_limit(limit)
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        answers = self._gather(puzzle, limit, [deadline] * len(self._racers), first=True)
        winner = next((a for a in answers if isinstance(a, Result) and decisive(a, limit)),
                      None)
        if winner is None:
            undecided = [a for a in answers if isinstance(a, Result)]
            if not undecided:
                errors = [a for a in answers if isinstance(a, Exception)]
                if errors:
                    raise errors[0]
                undecided.append(Result(Status.UNKNOWN, message="time limit reached",
                                        complete=False))
            # No member decided: the answer that found the most, with no winner named.
            best = max(undecided, key=lambda r: r.count)
            return self._verified(puzzle, best, limit, time.perf_counter() - start)
        return self._verified(puzzle, winner, limit, time.perf_counter() - start)

    def solve_each(self, puzzle: Puzzle, *, limit: int | None,
                   time_limits: Sequence[Limit]) -> list[Result | Exception]:
        """Every member on ``puzzle`` at the same time, each to its own end under its own
        time limit (in member order), none stopped for another's answer: a cross-check run
        concurrently (:func:`~sudoku_csp.crosscheck.run_claims`). Each answer is the
        member's result, its solutions verified again here, or the error it raised (a
        :class:`~sudoku_csp.verify.WrongSolutionError` among them)."""
        check_limit(limit)
        deadlines = [Deadline.of(t) for t in time_limits]
        answers = self._gather(puzzle, limit, deadlines, first=False)
        out: list[Result | Exception] = []
        for answer in answers:
            if isinstance(answer, Result):
                try:
                    answer = self._verified(puzzle, answer, limit, answer.seconds,
                                            as_race=False)
                except WrongSolutionError as exc:
                    answer = exc
            out.append(answer)
        return out

    def _gather(self, puzzle: Puzzle, limit: int | None, deadlines: Sequence[Deadline], *,
                first: bool) -> list[Result | Exception]:
        """Send ``puzzle`` to every member (each under its deadline) and collect their
        answers, in member order: until the first decisive one (``first``; the others then
        stopped, their answers missing from the list), or every one. A member still silent
        well past its deadline answers "unknown" and is stopped."""
        self._job += 1
        job = self._job
        racers = self._racers
        for racer, deadline in zip(racers, deadlines, strict=True):
            racer.submit(job, puzzle, limit, deadline)
        running: dict[Any, tuple[int, _Member]] = {
            racer.outbox: (i, racer) for i, racer in enumerate(racers)}
        answers: dict[int, Result | Exception] = {}
        try:
            while running:
                lefts = [deadlines[i].remaining() for i, _ in running.values()]
                known = [left for left in lefts if left is not None]
                wait_for = None if len(known) < len(lefts) else max(known) + 2 * GRACE
                ready = wait(list(running), wait_for)
                if not ready:  # past every deadline and a member did not give up
                    for i, racer in running.values():
                        answers[i] = Result(Status.UNKNOWN, solver=racer.spec,
                                            message="time limit reached", complete=False)
                    break
                for end in ready:
                    i, racer = running[end]
                    kind, answered, payload = racer.receive()
                    if answered != job:
                        continue  # a late answer to a puzzle stopped before
                    del running[end]
                    if kind == "error" and isinstance(payload, WrongSolutionError) and first:
                        raise payload
                    answers[i] = payload
                    if first and kind == "result" and decisive(payload, limit):
                        running.clear()
                        break
        except BaseException:
            for racer in racers:  # Ctrl-C, a wrong answer: nothing is left running
                if job in racer.waiting:
                    racer.kill()
            raise
        for racer in racers:
            racer.stop(job)
        return [answers[i] for i in sorted(answers)]

    def _verified(self, puzzle: Puzzle, result: Result, limit: int | None,
                  seconds: float, as_race: bool = True) -> Result:
        """The member's result, its solutions checked again here: as the race's
        (``as_race``; the member named the winner in its stats when its answer is
        :func:`~sudoku_csp.backends.base.decisive`), else as the member's own."""
        tally = Tally(puzzle, result.solver, limit)
        for grid in result.solutions:
            tally.add(grid)
        if not as_race:
            return replace(result, puzzle=puzzle)
        stats = ({**result.stats, "winner": result.solver} if decisive(result, limit)
                 else result.stats)
        return replace(result, solver=self.spec, seconds=seconds, puzzle=puzzle, stats=stats)

    def renew(self) -> None:
        """Have every member's process renew its backend
        (:meth:`~sudoku_csp.backends.base.BackendBase.renew`), and wait until each has.
        A member still busy with a puzzle the race stopped gets :data:`GRACE` seconds to
        give it up, then is killed (a new process has nothing to forget); a member not
        started has nothing to renew."""
        self._job += 1
        job = self._job
        told = []
        for racer in self._racers:
            racer.drain()
            if racer.waiting and racer.outbox is not None:
                racer.outbox.poll(GRACE)
                racer.drain()
                if racer.waiting:
                    racer.kill()
            if racer.process is None or racer.inbox is None:
                continue
            racer.inbox.send(("renew", job))
            racer.waiting.add(job)
            told.append(racer)
        for racer in told:
            while job in racer.waiting:
                racer.receive()  # late answers to stopped puzzles, then "renewed"

    def close(self) -> None:
        """End every member's process (a later :meth:`solve` starts them again)."""
        for racer in self._racers:
            racer.close()

    def __enter__(self) -> RaceBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_LIVE: weakref.WeakSet[RaceBackend] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Members are daemon processes, which multiprocessing ends at exit by SIGTERM and a
    # join each; killing them first ends them without waiting on a search.
    for race in list(_LIVE):
        for racer in race._racers:
            racer.kill()

