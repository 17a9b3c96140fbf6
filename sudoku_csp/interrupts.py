"""Ctrl-C and SIGTERM: stop the search that is running, and never take a search cut short by
the user for a verdict.

Each engine stops its own way, and each has a trap:

- the native solver is Python: ``KeyboardInterrupt`` is raised between two bytecodes;
- CP-SAT catches SIGINT itself unless told not to (``catch_sigint_signal``, turned off in
  :mod:`sudoku_csp.backends.cpsat`): it then returns ``UNKNOWN`` as if a time limit had hit
  and leaves the signal at its default action for the next solve, so a run either went on
  with a false "unknown" record or died without cleanup. Its own stop is
  ``CpSolver.stop_search``, safe from another thread;
- PySAT swaps in its own SIGINT handler during ``solve`` / ``solve_limited`` (unless
  ``expect_interrupt``) and jumps out of the C++ solver with ``pysolvers.error("Caught
  keyboard interrupt")``, leaving that solver unusable (the next call on a CaDiCaL aborts the
  process). :func:`reraise_pysat` turns that error into ``KeyboardInterrupt``; the SAT
  backend then drops its solvers. MiniSat-family solvers also stop by ``interrupt()``.

:func:`handling` (the CLI runs every command inside it) owns SIGINT and SIGTERM in the main
thread: SIGINT raises ``KeyboardInterrupt``, SIGTERM raises :class:`Terminated` (a
``KeyboardInterrupt``, so every cleanup path serves both), and the signal also wakes a
watcher thread (through :func:`signal.set_wakeup_fd`) that calls the stop function of every
search registered by :class:`stoppable`, so a long C++ search ends within milliseconds
rather than at its time limit. On leaving a :class:`stoppable` block after a signal,
``KeyboardInterrupt`` is raised even if the search returned normally: its result, cut short,
is never reported.

Worker processes (:func:`worker_signals`) block SIGINT: Ctrl-C reaches the whole process
group, and it is the parent's job to stop them (it terminates them), not theirs to die one
traceback each. :func:`deferred` blocks both signals in the parent while it starts workers,
so that they are born with SIGINT blocked.

>>> with handling():
...     with stoppable(lambda: None):
...         pass
>>> requested() is None
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType, TracebackType

__all__ = ["Terminated", "active", "deferred", "handling", "requested", "reraise_pysat",
           "stoppable", "worker_signals"]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_STOP_WATCHER = b"\0"  # no signal is numbered 0: the watcher's own "stop" byte


class Terminated(KeyboardInterrupt):
    """SIGTERM asked this process to stop (the CLI exits 143)."""


class _Watch:
    """The state of one :func:`handling` block: the wakeup pipe, the signal received, the
    stop functions of the searches running now, and the watcher thread (started by the
    first search that registers, so a run whose searches all happen in worker processes
    keeps this process single-threaded and able to fork them)."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.write_fd, False)  # set_wakeup_fd requires it
        self.signal: int | None = None
        self.raised = False  # KeyboardInterrupt raised once: later signals are ignored
        self.stops: dict[int, Callable[[], object]] = {}
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="interrupt-watcher",
                                               daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while True:
            data = os.read(self.read_fd, 64)
            if not data or _STOP_WATCHER in data:
                return
            self.signal = self.signal or data[0]
            with self.lock:
                stops = list(self.stops.values())
            for stop in stops:
                with contextlib.suppress(Exception):  # a search that just ended
                    stop()

    def close(self) -> None:
        if self.thread is not None:
            os.write(self.write_fd, _STOP_WATCHER)
            self.thread.join()
        os.close(self.read_fd)
        os.close(self.write_fd)


_watch: _Watch | None = None


def active() -> bool:
    """Whether a :func:`handling` block owns the signals now."""
    return _watch is not None


def requested() -> int | None:
    """The signal received inside the current :func:`handling` block, if any."""
    return _watch.signal if _watch is not None else None


def _exception(signum: int) -> KeyboardInterrupt:
    """What a signal raises: :class:`Terminated` for SIGTERM, else ``KeyboardInterrupt``."""
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _mark(signum: int) -> bool:
    """Note ``signum`` in the current block; whether this is the first time an exception
    is raised for it there."""
    watch = _watch
    if watch is None:
        return True
    watch.signal = watch.signal or signum
    first, watch.raised = not watch.raised, True
    return first


def _on_signal(signum: int, frame: FrameType | None) -> None:
    # Raised once per block: a second signal while the first one's cleanup runs
    # (terminating workers, closing the records file) is ignored, since raising again would
    # cut that cleanup short.
    if _mark(signum):
        raise _exception(signum)


@contextlib.contextmanager
def handling() -> Iterator[None]:
    """Own SIGINT and SIGTERM for the duration (main thread only; elsewhere, or nested, a
    no-op): see the module docstring. The previous handlers are restored on leaving. A
    signal the process was started with ignored (SIGINT in a background job) is left
    ignored."""
    global _watch
    if _watch is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    watch = _Watch()
    previous = {s: signal.getsignal(s) for s in _SIGNALS}
    previous_fd = signal.set_wakeup_fd(watch.write_fd, warn_on_full_buffer=False)
    _watch = watch
    try:
        for s in _SIGNALS:
            if previous[s] is not signal.SIG_IGN:  # ignored by the caller: stays so
                signal.signal(s, _on_signal)
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        signal.set_wakeup_fd(previous_fd)
        _watch = None
        watch.close()


class stoppable:  # noqa: N801 - used as a context manager, like contextlib's lower-case ones
    """Register ``stop`` (a function that makes a running search return early, callable from
    another thread) for the duration of the block; after a signal, leaving the block raises
    ``KeyboardInterrupt`` (:class:`Terminated` for SIGTERM). Costs a dictionary entry: it
    wraps every solve. Outside :func:`handling` it does nothing.

    >>> with stoppable(lambda: None):
    ...     1 + 1
    2
    """

    __slots__ = ("_stop", "_watch")

    def __init__(self, stop: Callable[[], object]) -> None:
        self._stop = stop
        self._watch = _watch

    def __enter__(self) -> None:
        watch = self._watch
        if watch is not None:
            if watch.thread is None:
                watch.start()
            watch.stops[id(self)] = self._stop

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        watch = self._watch
        if watch is not None:
            watch.stops.pop(id(self), None)
            if watch.signal is not None and kind is None:
                # Whatever the search returned was cut short: it must not become a verdict.
                _mark(watch.signal)
                raise _exception(watch.signal)


def raise_requested() -> None:
    """Raise what the signal received in the current :func:`handling` block raises, if one
    was received; otherwise return. For an error a signal caused where it could not surface
    as itself: a Ctrl-C inside the import of a compiled module comes back as
    ``ImportError: initialization failed``, inside a C call as a ``SystemError``."""
    watch = _watch
    if watch is not None and watch.signal is not None:
        raise _exception(watch.signal)


def reraise_pysat(exc: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` if ``exc`` is PySAT's report of a Ctrl-C caught inside a
    solver call (the solver is unusable afterwards: drop it); otherwise return."""
    # Only a loaded PySAT can have raised its error: looked up, not imported, so that a
    # command that runs no SAT solver (solve with native) never loads PySAT.
    solvers = sys.modules.get("pysat.solvers")
    if (solvers is not None and isinstance(exc, solvers.pysolvers.error)
            and "keyboard interrupt" in str(exc).lower()):
        _mark(signal.SIGINT)
        raise KeyboardInterrupt() from None


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back in this thread for the duration (they are delivered when
    it ends): worker processes forked or spawned inside inherit the blocked mask, so Ctrl-C
    cannot reach them before :func:`worker_signals` runs."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def worker_signals() -> None:
    """For a worker process: SIGINT blocked for good (the parent stops its workers), SIGTERM
    back to its default action (how the parent stops them), and no :func:`handling` watch
    inherited from a forking parent: its pipe is the parent's wakeup fd, so a watcher thread
    started here would take the parent's Ctrl-C from it and stop this worker's search."""
    global _watch
    _watch = None
    if threading.current_thread() is threading.main_thread():
        signal.set_wakeup_fd(-1)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
