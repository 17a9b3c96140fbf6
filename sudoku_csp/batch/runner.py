"""The batch runner: puzzles in chunks through one executor interface (this process, worker
processes, or a Dask cluster), one outcome per puzzle back in input order, its records
written as they arrive.

Its settings are module attributes read at each run, so they are set (or patched) here, on
``sudoku_csp.batch.runner``: :data:`START_METHOD` (how worker processes start) and
:data:`CHUNKSIZE` (puzzles per task in workers). The package re-exports ``CHUNKSIZE`` as a
value; assigning to ``sudoku_csp.batch.CHUNKSIZE`` changes nothing.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from sudoku_csp.backends.base import Backend, BackendBase
from sudoku_csp.backends.registry import get_backend
from sudoku_csp.batch.records import Outcome, Record, RecordWriter, record_format
from sudoku_csp.batch.resume import Finished
from sudoku_csp.crosscheck import Claim, judge, resolve, run_claims
from sudoku_csp.extras import require_extra
from sudoku_csp.interrupts import deferred, worker_signals
from sudoku_csp.io import PuzzleText, to_line
from sudoku_csp.processes import context, single_threaded
from sudoku_csp.puzzle import Puzzle

Spec = str | Backend
"""A spec string (``"native:rules=singles"``) or a ready-made backend."""

CHUNKSIZE = 32
"""Puzzles per task for worker processes and Dask: large enough that sending a chunk costs
little next to solving it (a 17-clue 9×9 takes about half a millisecond natively), small
enough that the last chunks leave no worker idle for long at the end of a run."""


JOBS_PER_CORE = 2
"""Worker processes a run starts at most per core of this machine, whatever ``jobs`` asks:
the work is CPU-bound, so more only share the cores (and each process loads its own
solvers)."""

_DASK = "scheduler=ADDRESS (a Dask cluster)"


def worker_count(jobs: int, chunks: int | None) -> int:
    """The worker processes a run of ``jobs`` starts: never more than the ``chunks`` of work
    there are (None: more than ``jobs``), nor than :data:`JOBS_PER_CORE` per core.

    >>> worker_count(100_000, 3), worker_count(1, None)
    (3, 1)
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(jobs, JOBS_PER_CORE * (cores or 1), jobs if chunks is None else chunks))


# -- the work, in a worker --------------------------------------------------------------------
_Item = tuple[int, "Puzzle | PuzzleText", tuple[str, ...] | None, dict[str, Claim] | None]
"""(index, puzzle, the specs to run or None for all, claims already made or None)."""


def _warm(specs: Sequence[Spec]) -> None:
    """Build this process's solvers once, and start loading the solver libraries slow to
    import, in the background: a backend's first solve waits for the rest of its import
    inside its own time limit (pool initializer; ``Client.run`` on Dask; a run here)."""
    for spec in specs:
        backend = get_backend(spec) if isinstance(spec, str) else spec
        if isinstance(backend, BackendBase):
            backend.prepare(0)


def _start_worker(specs: Sequence[Spec]) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (it stops the workers), then
    :func:`_warm`."""
    worker_signals()
    _warm(specs)



def _solve_chunk(specs: Sequence[Spec], items: list[_Item], limit: int | None,
                 time_limit: float | None, concurrent: bool = False) -> list[Outcome]:
    """Run the specs on each puzzle of a chunk: the outcomes, in order."""
    backends = resolve(specs)  # cached per process: built once, then looked up
    outcomes: list[Outcome] = []
    for index, puzzle, todo, known in items:
        if isinstance(puzzle, PuzzleText):
            puzzle = puzzle.parse()
        chosen = backends if todo is None else {s: backends[s] for s in todo}
        claims, results = run_claims(puzzle, chosen, limit=limit, time_limit=time_limit,
                                     concurrent=concurrent)
        judgement = judge({**known, **claims} if known else claims)
        verdict = judgement.status
        line = to_line(puzzle)  # the record reads back as this very puzzle
        records = []
        for spec, claim in claims.items():
            result = results.get(spec)
            records.append(Record(
                index, line, spec, claim.verdict, verdict, judgement.agreed, claim.seconds,
                dict(result.stats) if result else {}, claim.found, claim.solution,
                claim.error or (result.message if result else ""), puzzle.metadata,
                claim.complete, judgement.decided))
        outcomes.append(Outcome(index, line, puzzle.metadata, tuple(records), verdict,
                                judgement.reasons, puzzle.notes, judgement.decided))
    return outcomes


# -- executors --------------------------------------------------------------------------------
START_METHOD: str | None = None
"""How worker processes start (``"fork"``, ``"forkserver"``, ``"spawn"``); ``None`` picks
``"fork"`` on Linux while this process runs a single thread, else ``"forkserver"`` where
there is one, else the platform's default."""


def _single_threaded() -> bool:
    """Whether this process runs one thread (:func:`sudoku_csp.processes.single_threaded`)."""
    return single_threaded()


def _mp_context():
    # fork when it is safe, else forkserver: see sudoku_csp.processes.
    return context(START_METHOD)


@contextmanager
def _executor(jobs: int, scheduler: Any, specs: Sequence[Spec]) -> Iterator[tuple[Executor, int]]:
    """(executor, tasks to keep in flight) for worker processes (``jobs`` > 1) or a Dask
    cluster (``scheduler``)."""
    if scheduler is not None:
        distributed = require_extra("distributed", "cluster", _DASK)
        own = isinstance(scheduler, str)
        client = distributed.Client(scheduler) if own else scheduler
        try:
            client.run(_warm, list(specs))
            workers = max(1, sum(client.nthreads().values()))
            # pure=False: every chunk is new work; never let Dask hash the puzzles for a key.
            executor = client.get_executor(pure=False)
            try:
                yield executor, 4 * workers  # deeper: a cluster's round trips are longer
            finally:
                executor.shutdown(wait=False)
        finally:
            if own:
                client.close()
    else:
        with deferred():  # workers are born with Ctrl-C blocked (see _start_worker)
            pool = ProcessPoolExecutor(jobs, mp_context=_mp_context(),
                                       initializer=_start_worker, initargs=(list(specs),))
        try:
            yield _DeferredSubmit(pool), 2 * jobs
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)


class _DeferredSubmit(Executor):
    """A process pool whose ``submit`` holds signals back: submitting is where the pool
    starts its workers, which must inherit a blocked SIGINT."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self.pool = pool

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Future:
        with deferred():
            return self.pool.submit(fn, *args, **kwargs)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now (Ctrl-C, SIGTERM, an error): pending chunks cancelled, workers
    terminated mid-chunk, its threads joined, so that nothing it started outlives the run
    and no thread of it prints a traceback at exit."""
    # No public way to stop busy workers before Python 3.14 (terminate_workers), nor to
    # join the pool's manager thread after shutdown(wait=False), which lets go of both:
    # take them first. A manager thread still running at exit races Python's exit hook for
    # its wake-up pipe ("Bad file descriptor" printed after Ctrl-C).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        # A worker still starting holds SIGTERM blocked (deferred), as does one born of a
        # process that blocked it: SIGKILL then.
        process.join(_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
    if manager is not None:
        manager.join(_GRACE)
        if manager.is_alive() and results is not None:
            # A worker terminated while it wrote a result left half a message in the
            # results pipe, and the manager thread waits in recv() for the rest, which no
            # one will write: this process holds the pipe's last write end. Closing it ends
            # the read (EOFError), which the manager takes for a broken pool and leaves.
            # (Seen about once in 30 SIGTERMs to `check --jobs 2` beside a busy core.)
            results._writer.close()
            manager.join()


_GRACE = 0.5
"""Seconds :func:`_stop_pool` gives a terminated worker to end (then it kills it), and the
pool's manager thread to leave on its own once the workers are gone (then it ends a read
no worker can finish)."""


# -- running ----------------------------------------------------------------------------------
def run_batch(
    puzzles: Iterable[Puzzle | PuzzleText],
    specs: Sequence[Spec],
    *,
    limit: int | None = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    chunksize: int | None = None,
    finished: Finished | None = None,
    concurrent: bool = False,
) -> Generator[Outcome, None, None]:
    """Run every spec on every puzzle; yield one :class:`Outcome` per puzzle, in input
    order: its :class:`Record` per spec (in the order given) and its cross-checked verdict.

    - ``limit``: solutions looked for (2 decides uniqueness); ``time_limit``: seconds per
      puzzle per spec, after which that spec's status is ``unknown``.
    - ``jobs=1`` runs here; ``jobs=N`` in up to N worker processes (never more than the
      chunks of work, nor :data:`JOBS_PER_CORE` per core: :func:`worker_count`);
      ``scheduler`` (an address such as ``"tcp://10.0.0.5:8786"``, or a
      ``dask.distributed.Client``) on a Dask cluster whose workers can import sudoku_csp
      (extra ``cluster``; MissingExtraError without it).
    - ``chunksize``: puzzles per task (default 1 here, :data:`CHUNKSIZE` in workers).
    - ``finished``: pairs to skip (resume); see :class:`Finished`.
    - ``concurrent``: a puzzle's specs run at the same time, each in a process of its own
      (:func:`~sudoku_csp.crosscheck.run_claims`), every one to its own end.
    - ``puzzles``: :class:`Puzzle` objects, or :class:`PuzzleText` (from
      :func:`puzzle_texts`), parsed by the worker; a bad one raises ParseError here.

    Worker processes start by fork while this process runs a single thread (Linux), else
    from a forkserver (:data:`START_METHOD`), so a script that calls this with ``jobs > 1``
    needs the ``if __name__ == "__main__":`` guard. Dask
    workers are best started with one thread each (``--nthreads 1``, more ``--nworkers``):
    the native solver is pure Python, and a worker's threads share its backends.

    Specs are checked here before any work starts (SpecError). The puzzles are consumed
    lazily, a few chunks ahead of the outcomes yielded. A backend returning a wrong solution
    gives a record with status ``error``; any other exception in a backend propagates.
    Spec objects (not strings) must be picklable for ``jobs > 1`` or a scheduler.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if scheduler is not None and jobs != 1:
        raise ValueError("give jobs (processes here) or scheduler (a Dask cluster), not both")
    if chunksize is not None and chunksize < 1:
        raise ValueError(f"chunksize must be at least 1, got {chunksize}")
    if scheduler is not None:
        require_extra("distributed", "cluster", _DASK)  # now, not at the first record
    names = tuple(resolve(specs))  # SpecError now, not from inside a worker
    if jobs == 1 and scheduler is None and (not concurrent or len(names) < 2):
        # Here, not in a process that forks workers (a thread would be left to fork beside):
        # those warm up in their own processes.
        _warm(specs)
    if finished is not None and finished.specs != names:
        raise ValueError("finished was loaded for other specs: "
                         f"{', '.join(finished.specs)} (run: {', '.join(names)})")
    return _run(puzzles, tuple(specs), limit, time_limit, jobs, scheduler, chunksize,
                finished, concurrent)


def _items(puzzles: Iterable[Puzzle | PuzzleText], finished: Finished | None) -> Iterator[_Item]:
    for index, puzzle in enumerate(puzzles, start=1):
        if finished is None:
            yield index, puzzle, None, None
            continue
        if finished.needs_check(index):
            finished.check_puzzle(index, puzzle.parse() if isinstance(puzzle, PuzzleText)
                                  else puzzle)
        todo = finished.todo(index)
        if todo:
            partly = len(todo) < len(finished.specs)
            yield index, puzzle, todo if partly else None, finished.known(index)


def _run(puzzles: Iterable[Puzzle | PuzzleText], specs: tuple[Spec, ...], limit: int | None,
         time_limit: float | None, jobs: int, scheduler: Any, chunksize: int | None,
         finished: Finished | None, concurrent: bool) -> Generator[Outcome, None, None]:
    items = _items(puzzles, finished)
    if jobs == 1 and scheduler is None:
        # In this process, one puzzle per chunk by default: each outcome is yielded (and
        # written) as soon as its puzzle is done, with no executor between (a Future per
        # puzzle measured slower: docs/design.md, Design choices, measured).
        while chunk := list(itertools.islice(items, chunksize or 1)):
            yield from _as_read(_solve_chunk(specs, chunk, limit, time_limit, concurrent),
                                chunk)
        return
    size = chunksize or CHUNKSIZE
    # The first chunks are read before any worker starts: a run with fewer chunks than
    # jobs starts no process that would have nothing to do.
    ahead = worker_count(jobs, None) if scheduler is None else 0
    first = [c for c in (list(itertools.islice(items, size)) for _ in range(ahead)) if c]
    if scheduler is None:
        jobs = worker_count(jobs, len(first) if len(first) < ahead else None)
    chunks = itertools.chain(first, iter(lambda: list(itertools.islice(items, size)), []))
    with _executor(jobs, scheduler, specs) as (executor, depth):
        window: deque[tuple[Future, list[_Item]]] = deque()
        try:
            for chunk in chunks:
                window.append((executor.submit(_solve_chunk, specs, chunk, limit, time_limit,
                                               concurrent), chunk))
                # Bounded look-ahead keeps memory flat; the oldest chunk first keeps order.
                if len(window) >= depth:
                    yield from _result(*window.popleft())
            while window:
                yield from _result(*window.popleft())
        finally:
            if not isinstance(executor, _DeferredSubmit):  # a pool cancels its own
                for future, _ in window:
                    future.cancel()


def _result(future: Future, chunk: list[_Item]) -> list[Outcome]:
    # A worker's ParseError pickles whole (ParseError.__reduce__).
    return _as_read(future.result(), chunk)


def _as_read(outcomes: list[Outcome], chunk: list[_Item]) -> list[Outcome]:
    """The chunk's outcomes (one per item, in order), each holding its puzzle as read here
    (the workers send back only its line, which would have to be read again)."""
    for outcome, item in zip(outcomes, chunk, strict=True):
        outcome.read = item[1]
    return outcomes


def run_to_file(
    puzzles: Iterable[Puzzle | PuzzleText],
    specs: Sequence[Spec],
    out: str | os.PathLike,
    *,
    resume: bool = False,
    limit: int | None = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    chunksize: int | None = None,
    finished: Finished | None = None,
    concurrent: bool = False,
) -> Generator[Outcome, None, None]:
    """:func:`run_batch`, writing each outcome's records to ``out`` (``.jsonl`` or
    ``.csv``) as it arrives, then yielding it. Without ``resume`` the file is replaced;
    with it, the (puzzle index, spec) pairs already in the file are skipped and new records
    appended — run with the same puzzles, in the same order, and the same ``limit``. Yields
    only the new outcomes (a resumed puzzle's holds the records of the specs run now, its
    verdict judged over those read back too): :func:`summarize` the file
    (:func:`iter_records`) for the whole run. ``finished``: what :func:`resumed` read from
    ``out`` (a caller that showed it, a progress bar starting at the puzzles done, hands it
    over rather than have the file read twice).

    >>> import tempfile, pathlib
    >>> from sudoku_csp import parse
    >>> tmp = tempfile.TemporaryDirectory()
    >>> out = pathlib.Path(tmp.name) / "r.jsonl"
    >>> puzzles = [parse("3.1...4.2......."), parse("1..." "..1." ".1.." "...1")]
    >>> len(list(run_to_file(puzzles[:1], ["native"], out)))
    1
    >>> [r.index for r in run_to_file(puzzles, ["native"], out, resume=True)]
    [2]
    >>> tmp.cleanup()
    """
    record_format(out)  # before any work
    if finished is not None and not resume:
        raise ValueError("finished is what a resumed run skips: give resume=True too")
    if resume and finished is None:
        finished = resumed(out, specs, limit=limit)
    outcomes = run_batch(puzzles, specs, limit=limit, time_limit=time_limit, jobs=jobs,
                         scheduler=scheduler, chunksize=chunksize, finished=finished,
                         concurrent=concurrent)
    return _write_each(outcomes, out, resume)


def resumed(out: str | os.PathLike, specs: Sequence[Spec], *,
            limit: int | None = 2) -> Finished:
    """What the records file ``out`` already holds of ``specs`` (the run's ``limit``
    unchanged): the pairs :func:`run_to_file` with ``resume`` skips.

    >>> import tempfile, pathlib
    >>> from sudoku_csp import parse
    >>> tmp = tempfile.TemporaryDirectory()
    >>> out = pathlib.Path(tmp.name) / "r.jsonl"
    >>> _ = list(run_to_file([parse("3.1...4.2.......")], ["native"], out))
    >>> resumed(out, ["native"]).puzzles_done(), resumed(out, ["native", "sat"]).puzzles_done()
    (1, 0)
    >>> tmp.cleanup()
    """
    record_format(out)
    return Finished.load(out, tuple(resolve(specs)), limit=limit)


def _write_each(outcomes: Iterable[Outcome], out: str | os.PathLike,
                append: bool) -> Generator[Outcome, None, None]:
    with RecordWriter(out, append=append) as writer:
        for outcome in outcomes:
            for record in outcome.records:
                writer.write(record)  # written before the caller sees it: Ctrl-C keeps it
            yield outcome
