"""Worker processes for the server: the solver work runs there, never on the event loop.

A :class:`Pool` keeps a few worker processes, each answering one request at a time
(:func:`~sudoku_csp.serve.jobs.answer`) and sending its replies back through a pipe that the
event loop watches (``add_reader``: no thread). A request that is cancelled while it runs
(a cancel, a newer request from the same connection, a connection that closes) has its
worker killed at once, and the pool starts another in its place: a search in C++ (PySAT,
CP-SAT) cannot be stopped from Python at any other point, and nothing of it is left
running. Workers start from a fork server that has imported the solvers once, so a new one
is ready in milliseconds.

Workers block SIGINT (Ctrl-C reaches the whole process group: the server stops them).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from sudoku_csp.errors import BackendError, InputError
from sudoku_csp.interrupts import deferred, worker_signals
from sudoku_csp.serve.protocol import Request

__all__ = ["Pool", "WorkerDied"]

Fields = dict[str, Any]
OnEvent = Callable[[Fields], None]

_PRELOAD = ["sudoku_csp.serve.jobs", "sudoku_csp.setter", "sudoku_csp.logic",
            "sudoku_csp.crosscheck", "sudoku_csp.backends.sat", "sudoku_csp.backends.cpsat",
            "ortools.sat.python.cp_model",  # not imported by the backend's module itself
            "sudoku_csp.cli.conflicts"]
"""What the fork server imports once, so that each worker it forks starts with it."""


class WorkerDied(BackendError):
    """A worker process ended while it answered a request (killed from outside, out of
    memory, a crash inside a solver)."""


def _serve(conn: Connection, time_limit: float | None) -> None:
    """A worker's life: answer the requests the pipe brings until it closes."""
    worker_signals()
    from sudoku_csp.serve.jobs import answer

    pid = os.getpid()
    while True:
        try:
            job, request = conn.recv()
        except (EOFError, OSError):
            return

        def emit(fields: Fields, job: int = job) -> None:
            conn.send(("event", job, {**fields, "worker": pid}))

        try:
            fields = answer(request, emit, time_limit)
        except InputError as exc:  # a puzzle that does not read, or that the library refuses
            fields = {"type": "invalid", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug: said, and the service goes on
            fields = {"type": "invalid",
                      "message": f"internal error: {type(exc).__name__}: {exc}"}
        conn.send(("done", job, {**fields, "worker": pid}))


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, time_limit: float | None) -> None:
        parent, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, time_limit), daemon=True,
                                       name="sudoku-csp serve worker")
        with deferred():  # born with Ctrl-C blocked, until worker_signals
            self.process.start()
        child.close()
        self.conn: Connection = parent
        self.stopped = False

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    async def call(self, job: int, request: Request, on_event: OnEvent) -> Fields:
        """Send the request; ``on_event`` gets each reply before the last, which is
        returned. :class:`WorkerDied` if the process ends first."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Fields] = loop.create_future()
        conn, sentinel = self.conn, self.process.sentinel

        def readable() -> None:
            try:
                while not done.done() and conn.poll():
                    kind, number, fields = conn.recv()
                    if number != job:
                        continue
                    if kind == "event":
                        on_event(fields)
                    else:
                        done.set_result(fields)
            except (EOFError, OSError):
                died()

        def died() -> None:
            if not done.done():
                self.process.join(timeout=1)  # it has ended: its exit code is at hand
                code = self.process.exitcode
                done.set_exception(WorkerDied(
                    f"the worker process ended while it answered (exit code {code})"))

        loop.add_reader(conn.fileno(), readable)
        loop.add_reader(sentinel, lambda: readable() if conn.poll() else died())
        try:
            conn.send((job, request))
            return await done
        finally:
            loop.remove_reader(conn.fileno())
            loop.remove_reader(sentinel)

    async def stop(self) -> None:
        """Kill the process and wait until it is gone (reaped: its pid is free); once."""
        if self.stopped:
            return
        self.stopped = True
        loop = asyncio.get_running_loop()
        if self.process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            ended: asyncio.Future[None] = loop.create_future()
            sentinel = self.process.sentinel
            def end() -> None:
                if not ended.done():
                    ended.set_result(None)

            loop.add_reader(sentinel, end)
            try:
                await ended
            finally:
                loop.remove_reader(sentinel)
        self.process.join()
        self.process.close()
        self.conn.close()


class Pool:
    """``size`` worker processes; :meth:`run` answers a request on the first one free.

    ``time_limit``: seconds each request may take (None: until it ends or is cancelled).
    Start it with :meth:`start` (which waits until every worker is up) and end it with
    :meth:`close`; both run on the event loop."""

    def __init__(self, size: int = 2, time_limit: float | None = None) -> None:
        if size < 1:
            raise InputError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("forkserver")
        self._idle: collections.deque[_Worker] = collections.deque()
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._busy: set[_Worker] = set()
        self._jobs = itertools.count(1)
        self._closed = False
        self.started = 0  # workers started in all, replacements included
        self.killed = 0  # workers killed to stop a request

    async def start(self) -> None:
        # The fork server imports the solvers once; every worker it forks has them.
        self._context.set_forkserver_preload(_PRELOAD)
        for _ in range(self.size):
            self._add(self._new())

    def _new(self) -> _Worker:
        self.started += 1
        return _Worker(self._context, self.time_limit)

    def _add(self, worker: _Worker) -> None:
        """A worker becomes free: to the first request waiting, else idle."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                self._busy.add(worker)
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    async def _acquire(self) -> _Worker:
        if self._closed:
            raise BackendError("the server is shutting down")
        if self._idle:
            worker = self._idle.popleft()
            self._busy.add(worker)
            return worker
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed over as it was cancelled
                self._release(waiter.result())
            raise

    def _release(self, worker: _Worker) -> None:
        self._busy.discard(worker)
        if self._closed:
            asyncio.get_running_loop().create_task(worker.stop())
        else:
            self._add(worker)

    async def _replace(self, worker: _Worker) -> None:
        """Stop a worker (its request was cancelled, or it died) and start another."""
        self._busy.discard(worker)
        await worker.stop()
        if not self._closed:
            self._add(self._new())

    async def run(self, request: Request, on_event: OnEvent) -> Fields:
        """The final reply to ``request`` (``type`` and fields, and ``worker``: the pid
        that answered); ``on_event`` gets the replies before it. Cancelling the task that
        awaits this kills the worker doing it (when one started) before the cancellation
        goes on; :class:`WorkerDied` when the worker ended by itself."""
        worker = await self._acquire()
        try:
            fields = await worker.call(next(self._jobs), request, on_event)
        except BaseException:
            self.killed += 1
            # Shielded: a second cancellation must not leave the process running.
            await asyncio.shield(self._replace(worker))
            raise
        self._release(worker)
        return fields

    def pids(self) -> list[int]:
        """The worker processes' pids, busy ones included."""
        return [w.pid for w in (*self._idle, *self._busy)]

    async def close(self) -> None:
        """Stop every worker, busy or idle; requests still waiting are cancelled."""
        self._closed = True
        for waiter in self._waiting:
            waiter.cancel()
        workers = [*self._idle, *self._busy]
        self._idle.clear()
        self._busy.clear()
        await asyncio.gather(*(w.stop() for w in workers))
