"""One deadline per command, on one clock: every stage of a run takes what is left of it.

A command given ``--time-limit 30`` makes one :class:`Deadline` and hands the same object
to every stage it runs — building the model, solving, the verdict, the conflict report,
the explanation's steps, the many calls of true candidates — so that what one stage
spends the next one no longer has, and the whole run ends within the limit. The clock is
:func:`time.monotonic` everywhere (never the wall clock, which can jump).

Each engine stops its own way when the deadline passes: the native search and the
explainer look at :meth:`Deadline.expired` as they go; the SAT and CP-SAT solvers, which
run in C++, are stopped from outside by :meth:`Deadline.watch` (one watchdog thread for
the whole process: PySAT's ``interrupt``, CP-SAT's ``stop_search``), or, for a solver that
offers neither (CaDiCaL in PySAT), in conflict-budget slices sized to end on time
(:mod:`sudoku_csp.satsolver`).

>>> d = Deadline.after(30)
>>> d.limited, d.expired(), 29 < d.remaining() <= 30, d.seconds
(True, False, True, 30)
>>> NEVER.remaining() is None, NEVER.expired(), Deadline.of(None) is NEVER
(True, False, True)
>>> Deadline.of(d) is d
True
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

__all__ = ["NEVER", "Cancellable", "Deadline", "Expired", "Limit", "mark_start"]

_START: list[float] = []  # when this process's command began, once mark_start is called


def mark_start() -> None:
    """Note now as the moment this process's command began: :meth:`Deadline.from_start`
    counts from here. The console script calls it first thing, so that a command's time
    limit covers loading the solvers and reading the puzzle too, not only what follows."""
    _START[:] = [time.monotonic()]


class Expired(Exception):  # noqa: N818 - named for what happened, like StopIteration
    """The deadline passed before a stage that has nothing partial to give could finish
    (building a certificate, a formula): raised by :meth:`Deadline.check`. A stage that
    has settled something returns it instead, marked incomplete. The command line reports
    it as "unknown" (exit 5)."""


@dataclass(frozen=True)
class Deadline:
    """A point on the :func:`time.monotonic` clock (``at``; None: no limit) and the limit
    it was made from, in seconds (``seconds``, for messages: "time limit of 30 s").

    Made once per command (:meth:`after`, or :meth:`of` a ``time_limit=`` argument that may
    already be one) and passed as it is to every stage, never re-derived from a number of
    seconds at each stage."""

    at: float | None = None
    seconds: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (:data:`NEVER` for None)."""
        if seconds is None:
            return NEVER
        return cls(time.monotonic() + max(0.0, float(seconds)), seconds)

    @classmethod
    def from_start(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` after this process's command began (:func:`mark_start`;
        from now when it was not called, as for a command run inside a test): what the
        command line gives a command's ``--time-limit``."""
        if seconds is None:
            return NEVER
        start = _START[0] if _START else time.monotonic()
        return cls(start + max(0.0, float(seconds)), seconds)

    @classmethod
    def of(cls, limit: Limit) -> Deadline:
        """``limit`` itself when it is a Deadline, else :meth:`after` it: what every
        function taking ``time_limit=`` (seconds, or the caller's deadline) starts with."""
        return limit if isinstance(limit, Deadline) else cls.after(limit)

    @property
    def limited(self) -> bool:
        return self.at is not None

    def remaining(self) -> float | None:
        """Seconds left (0.0 once passed), None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return self.at is not None and time.monotonic() >= self.at

    def check(self, doing: str = "") -> None:
        """Raise :class:`Expired` (saying what was being done) once the deadline has
        passed: what a long piece of Python work calls between two parts of it.

        >>> Deadline.after(0).check("building the formula")
        Traceback (most recent call last):
        sudoku_csp.deadline.Expired: time limit of 0 s reached while building the formula
        """
        if self.expired():
            raise Expired(f"{self.words()} reached" + (f" while {doing}" if doing else ""))

    def words(self) -> str:
        """The limit as messages name it: ``time limit of 30 s``.

        >>> Deadline.after(2.5).words(), Deadline(12.0).words()
        ('time limit of 2.5 s', 'time limit')
        """
        return "time limit" if self.seconds is None else f"time limit of {self.seconds:g} s"

    def capped(self, seconds: float | None) -> Deadline:
        """The sooner of this deadline and ``seconds`` from now: for a stage with a bound
        of its own inside the command's (the conflict report's), which still ends when the
        command's time is up.

        >>> NEVER.capped(10).seconds, Deadline.after(5).capped(10).seconds
        (10, 5)
        """
        if seconds is None:
            return self
        own = Deadline.after(seconds)
        sooner = self.at is not None and own.at is not None and self.at <= own.at
        return self if sooner else own

    @contextlib.contextmanager
    def watch(self, stop: Callable[[], object]) -> Iterator[None]:
        """Call ``stop`` (thread-safe: it makes a running search return early) from the
        watchdog thread when the deadline passes during the block; nothing without a limit.
        ``stop`` may still be called just as the block ends: the caller clears what it
        leaves (PySAT's ``clear_interrupt``) after the block."""
        if self.at is None:
            yield
            return
        token = _WATCHDOG.arm(stop, self.at)
        try:
            yield
        finally:
            _WATCHDOG.disarm(token)


NEVER = Deadline()
"""No limit."""

FAR_AHEAD = 1e9
"""Seconds ahead (about 30 years) that a :class:`Cancellable` deadline without a limit stands
at: every stage then treats it as a limit, watches it and looks at it as it goes, so that
:meth:`Cancellable.cancel` reaches them."""


@dataclass(frozen=True, eq=False)
class Cancellable(Deadline):
    """A deadline that another thread can also bring forward to now (:meth:`cancel`): what a
    race between backends gives each of them (:mod:`sudoku_csp.backends.race`), so that the
    losers stop the way a time limit stops them, keeping their loaded solvers. Without a
    limit it stands :data:`FAR_AHEAD`, so that every stage watches it.

    >>> d = Cancellable.of_limit(None)
    >>> d.limited, d.expired()
    (True, False)
    >>> d.cancel(); d.expired(), d.remaining()
    (True, 0.0)
    """

    _cut: threading.Event = field(default_factory=threading.Event, repr=False)
    _stops: dict[int, Callable[[], object]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of_limit(cls, at: float | None, seconds: float | None = None) -> Cancellable:
        """A cancellable deadline at ``at`` on the monotonic clock (None: no limit)."""
        return cls(time.monotonic() + FAR_AHEAD if at is None else at, seconds)

    def cancel(self) -> None:
        """End it now: it has expired from here on, and every stop function watching it
        (:meth:`watch`) is called. Safe from any thread, and more than once."""
        self._cut.set()
        with self._lock:
            stops = list(self._stops.values())
        for stop in stops:
            with contextlib.suppress(Exception):  # a search that just ended
                stop()

    @property
    def cancelled(self) -> bool:
        return self._cut.is_set()

    def expired(self) -> bool:
        return self._cut.is_set() or super().expired()

    def remaining(self) -> float | None:
        return 0.0 if self._cut.is_set() else super().remaining()

    @contextlib.contextmanager
    def watch(self, stop: Callable[[], object]) -> Iterator[None]:
        """As :meth:`Deadline.watch`, and ``stop`` is also called when the deadline is
        cancelled during the block (at once if it was before)."""
        token = object()  # alive for the block: its id names this watch alone
        key = id(token)
        with self._lock:
            self._stops[key] = stop
        try:
            if self._cut.is_set():
                stop()
            with Deadline.watch(self, stop):
                yield
        finally:
            with self._lock:
                self._stops.pop(key, None)

Limit = Deadline | float | None
"""What a ``time_limit=`` argument takes: seconds from now, a deadline shared with the
caller, or None for no limit."""


class _Watchdog:
    """One daemon thread that calls each armed stop function at its deadline.

    Starting a ``threading.Timer`` per call costs more than solving a 9×9 puzzle (docs/design.md:
    Design choices, measured), so one thread serves every call of every backend: it sleeps
    until the earliest armed deadline and is woken only when a newly armed deadline is
    earlier still.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[Callable[[], object], float]] = {}
        self._tokens = 0
        self._wake_at: float | None = None
        self._thread: threading.Thread | None = None

    def arm(self, stop: Callable[[], object], at: float) -> int:
        """Call ``stop`` at ``at`` (a ``time.monotonic()`` value) unless the returned token
        is disarmed first."""
        with self._cond:
            self._tokens += 1
            self._armed[self._tokens] = (stop, at)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="deadline-watchdog",
                                                daemon=True)
                self._thread.start()
            if self._wake_at is None or at < self._wake_at:
                self._cond.notify()
            return self._tokens

    def disarm(self, token: int) -> None:
        """After this returns, ``token``'s stop function will not be called."""
        with self._cond:
            self._armed.pop(token, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (stop, at) in list(self._armed.items()):
                    if at <= now:
                        del self._armed[token]
                        with contextlib.suppress(Exception):  # a search that just ended
                            stop()
                self._wake_at = min((at for _, at in self._armed.values()), default=None)
                self._cond.wait(None if self._wake_at is None else self._wake_at - now)


_WATCHDOG = _Watchdog()
