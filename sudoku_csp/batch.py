"""Batch runs: many puzzles × several backend specs, one record per (puzzle, spec).

The pieces, each usable alone:

- :func:`read_puzzle_files` streams puzzles from files (or open text files) one at a time.
- :func:`run_batch` runs every spec on every puzzle and yields :class:`Record` objects in
  input order, in this process (``jobs=1``), in worker processes (``jobs=N``) or on a Dask
  cluster (``scheduler=ADDRESS``). All three go through one ``concurrent.futures.Executor``
  interface: a trivial in-process one, ``ProcessPoolExecutor``, or the executor a
  ``dask.distributed.Client`` hands out (``Client.get_executor``). Puzzles travel in chunks
  and at most a few chunks per worker are in flight, so a file of a million puzzles is never
  held in memory, and results come back in input order whatever finishes first.
- :class:`RecordWriter` writes records to ``.jsonl`` or ``.csv`` (by extension), flushing
  each one, and :func:`run_to_file` ties it together with ``resume``: a
  :class:`Finished` set read back from the output skips the (puzzle, spec) pairs done before.
- :func:`group_by_puzzle` and :func:`puzzle_verdict` turn records back into one verdict per
  puzzle (``sudoku-csp check``).
- :class:`Summary` aggregates records into the per-spec rows of ``sudoku-csp compare``;
  :func:`cactus_plot` draws puzzles solved against time (matplotlib, optional extra ``plot``).

Each worker builds its solvers once: spec strings go through the registry's per-process
cache (:func:`~sudoku_csp.backends.registry.get_backend`), warmed when a worker starts (the
pool's ``initializer``; ``Client.run`` on Dask workers), not per puzzle. Forked workers
inherit the solvers this process built when it checked the specs (see :data:`START_METHOD`
for when workers are forked and when they come from a forkserver).

>>> from sudoku_csp import parse
>>> records = list(run_batch([parse("3.1...4.2......."), parse("1..." "..1." ".1.." "...1")],
...                          ["native", "native:rules=singles"]))
>>> [(r.index, r.spec, r.status, r.agreed) for r in records]  # doctest: +NORMALIZE_WHITESPACE
[(1, 'native', 'unique', True), (1, 'native:rules=singles', 'unique', True),
 (2, 'native', 'multiple', True), (2, 'native:rules=singles', 'multiple', True)]
"""

from __future__ import annotations

import csv
import importlib
import io
import itertools
import json
import math
import multiprocessing
import os
import sys
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TextIO

from sudoku_csp.backends.base import Backend
from sudoku_csp.backends.registry import get_backend
from sudoku_csp.crosscheck import DISAGREEMENT, ERROR, Claim, judge, resolve, run_claims
from sudoku_csp.puzzle import Puzzle, parse, puzzle_entries, read_puzzles
from sudoku_csp.result import Status

Spec = str | Backend
"""A spec string (``"native:rules=singles"``) or a ready-made backend."""

CHUNKSIZE = 32
"""Puzzles per task for worker processes and Dask: large enough that sending a chunk costs
little next to solving it (a 17-clue 9×9 takes about half a millisecond natively), small
enough that the last chunks leave no worker idle for long at the end of a run."""


_DASK = "scheduler=ADDRESS (a Dask cluster)"


class MissingExtraError(ImportError):
    """An optional dependency (extra ``cluster`` or ``plot``) is not installed."""


def _require(module: str, extra: str, purpose: str):
    """Import an optional dependency, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{purpose} needs {module.split('.')[0]}: pip install 'sudoku_csp[{extra}]'"
        ) from exc


# -- records ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """One spec on one puzzle.

    ``index`` is the puzzle's 1-based position in the input; ``puzzle`` its line;
    ``status`` the spec's own verdict (a :class:`Status` value, or ``"error"`` when the
    backend returned a wrong answer: ``message`` says what); ``verdict`` the cross-checked
    status of the puzzle over all specs run on it (``"disagreement"`` if they contradict
    each other) and ``agreed`` whether they agree; ``solutions`` how many solutions the spec
    returned, ``solution`` the first as a line; ``seconds`` the backend's own solve time.
    """

    index: int
    puzzle: str
    spec: str
    status: str
    verdict: str
    agreed: bool
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: int = 0
    solution: str | None = None
    message: str = ""
    metadata: str = ""

    @property
    def decided(self) -> bool:
        """The spec gave a verdict: neither unknown (time limit) nor an error."""
        return self.status not in (Status.UNKNOWN.value, ERROR)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, fields in declaration order."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """Rebuild a record from :meth:`as_dict` output (unknown keys are ignored)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def claim(self, limit: int | None) -> Claim:
        """What this record says, for comparing with other specs (see :mod:`crosscheck`)."""
        status = None if self.status == ERROR else Status(self.status)
        return Claim(status, self.solutions, self.solution, self.message if status is None
                     else "", self.seconds, exact=limit is None)


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Record))
"""Column order of CSV output (``stats`` is a JSON object in its column)."""

_REQUIRED = ("index", "puzzle", "spec", "status")


def _record_from_row(row: dict[str, str]) -> Record:
    return Record(
        index=int(row["index"]),
        puzzle=row["puzzle"],
        spec=row["spec"],
        status=row["status"],
        verdict=row.get("verdict", ""),
        agreed=row.get("agreed", "True") == "True",
        seconds=float(row.get("seconds") or 0.0),
        stats=json.loads(row["stats"]) if row.get("stats") else {},
        solutions=int(row.get("solutions") or 0),
        solution=row.get("solution") or None,
        message=row.get("message", ""),
        metadata=row.get("metadata", ""),
    )


def _row_of(record: Record) -> list[Any]:
    values = record.as_dict()
    values["stats"] = json.dumps(record.stats, separators=(",", ":"), default=str)
    values["solution"] = record.solution or ""
    return [values[name] for name in RECORD_FIELDS]


def record_format(path: str | os.PathLike) -> Literal["jsonl", "csv"]:
    """``"jsonl"`` for ``.jsonl``/``.ndjson``, ``"csv"`` for ``.csv``; ValueError otherwise."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".jsonl", ".ndjson"):
        return "jsonl"
    if ext == ".csv":
        return "csv"
    raise ValueError(f"{os.fspath(path)}: results are written as .jsonl or .csv, not {ext!r}")


def _complete_lines(handle: TextIO) -> Iterator[str]:
    """The lines of ``handle`` that end in a newline: a last line without one was cut short
    by a crash mid-write (every record is written with its newline in one call)."""
    for line in handle:
        if line.endswith("\n"):
            yield line


def read_records(path: str | os.PathLike) -> Iterator[Record]:
    """Stream the records of a ``.jsonl`` or ``.csv`` results file, skipping a last line
    left incomplete by an interrupted write. ValueError names a line that is not a record."""
    fmt = record_format(path)
    with open(path, encoding="utf-8", newline="") as handle:
        lines = _complete_lines(handle)
        if fmt == "jsonl":
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    yield Record.from_dict(json.loads(line))
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"{os.fspath(path)}:{number}: not a batch record "
                                     f"({exc})") from None
            return
        reader = csv.DictReader(lines)
        if reader.fieldnames is None:
            return
        missing = [name for name in _REQUIRED if name not in reader.fieldnames]
        if missing:
            raise ValueError(f"{os.fspath(path)}: not a batch results file "
                             f"(no column {', '.join(missing)})")
        for row in reader:
            try:
                yield _record_from_row(row)
            except (ValueError, TypeError, KeyError) as exc:
                raise ValueError(f"{os.fspath(path)}:{reader.line_num}: not a batch record "
                                 f"({exc})") from None


def _drop_partial_tail(path: str | os.PathLike) -> None:
    """Cut a last line that has no newline (a write interrupted by a crash), so appended
    records start on a line of their own."""
    with open(path, "rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        # Walk back in blocks to the last newline; records are short, so this is quick.
        pos = size
        while pos > 0:
            step = min(4096, pos)
            handle.seek(pos - step)
            block = handle.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                handle.truncate(pos - step + cut + 1)
                return
            pos -= step
        handle.truncate(0)


class RecordWriter:
    """Writes records to a ``.jsonl`` or ``.csv`` file (by extension), one line per record,
    flushed at once so that Ctrl-C or a crash keeps every record written before it.

    ``append=True`` continues an existing file (resume): an incomplete last line is cut,
    and a CSV file must have the same columns. Use as a context manager.

    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "r.csv"
    >>> with RecordWriter(path) as w:
    ...     w.write(Record(1, "1" * 16, "native", "none", "none", True, 0.001))
    >>> [r.status for r in read_records(path)]
    ['none']
    >>> tmp.cleanup()
    """

    def __init__(self, path: str | os.PathLike, *, append: bool = False) -> None:
        self.path = path
        self.format = record_format(path)
        header_needed = True
        if append and os.path.exists(path):
            _drop_partial_tail(path)
            if os.path.getsize(path) > 0:
                header_needed = False
                if self.format == "csv":
                    self._check_header()
        self._handle = open(path, "a" if append else "w", encoding="utf-8", newline="")
        self._csv = None
        if self.format == "csv":
            self._csv = csv.writer(self._handle, lineterminator="\n")
            if header_needed:
                self._csv.writerow(RECORD_FIELDS)
                self._handle.flush()

    def _check_header(self) -> None:
        with open(self.path, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), [])
        if tuple(header) != RECORD_FIELDS:
            raise ValueError(f"{os.fspath(self.path)}: its columns are not those of this "
                             f"version ({', '.join(RECORD_FIELDS)}); write to a new file")

    def write(self, record: Record) -> None:
        """Write one record and flush it."""
        if self._csv is not None:
            # One string, one write: a crash can cut only the last line, never mix two.
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="\n").writerow(_row_of(record))
            self._handle.write(buffer.getvalue())
        else:
            self._handle.write(json.dumps(record.as_dict(), separators=(",", ":"),
                                          default=str) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- resume -----------------------------------------------------------------------------------
class Finished:
    """The (puzzle index, spec) pairs already done, for resuming a run.

    Memory stays small on huge files: one byte per puzzle index per spec, plus the claims of
    puzzles done for only some of the specs (normally just the one a Ctrl-C cut short), which
    the new records of that puzzle are cross-checked against.
    """

    def __init__(self, specs: Sequence[str]) -> None:
        self.specs = tuple(specs)
        self._done = {spec: bytearray() for spec in self.specs}
        self._known: dict[int, dict[str, Claim]] = {}

    @classmethod
    def load(cls, path: str | os.PathLike, specs: Sequence[str], *,
             limit: int | None = 2) -> Finished:
        """The pairs of ``specs`` (canonical spec strings) in the results file ``path``;
        records of other specs are ignored. ``limit`` is the run's, assumed unchanged."""
        finished = cls(specs)
        if not os.path.exists(path):
            return finished
        for record in read_records(path):
            finished._mark(record.index, record.spec)
        partial = finished._partial()
        if partial:
            for record in read_records(path):
                if record.index in partial and record.spec in finished._done:
                    finished._known.setdefault(record.index, {})[record.spec] = \
                        record.claim(limit)
        return finished

    def _mark(self, index: int, spec: str) -> None:
        done = self._done.get(spec)
        if done is None:
            return
        if index >= len(done):
            done.extend(bytes(index + 1 - len(done) + len(done) // 2))
        done[index] = 1

    def _partial(self) -> set[int]:
        """Indices done for some but not all specs."""
        n = max((len(d) for d in self._done.values()), default=0)
        if not n:
            return set()
        k = len(self.specs)
        if k > 255:  # a byte would carry into the next index: count plainly
            return {i for i in range(n)
                    if 0 < sum(i < len(d) and d[i] for d in self._done.values()) < k}
        # Per-index counts in one pass: the byte arrays, read as big integers, add up byte
        # by byte without carries (each byte is 0 or 1, and there are < 256 specs).
        total = sum(int.from_bytes(d, "little") for d in self._done.values())
        counts = total.to_bytes(n, "little")
        flags = counts.translate(bytes(1 if 0 < c < k else 0 for c in range(256)))
        found, start = set(), flags.find(1)
        while start >= 0:
            found.add(start)
            start = flags.find(1, start + 1)
        return found

    def __contains__(self, pair: tuple[int, str]) -> bool:
        index, spec = pair
        done = self._done.get(spec)
        return done is not None and index < len(done) and bool(done[index])

    def todo(self, index: int) -> tuple[str, ...]:
        """The specs still to run on puzzle ``index``."""
        return tuple(spec for spec in self.specs if (index, spec) not in self)

    def known(self, index: int) -> dict[str, Claim] | None:
        """Claims of the specs already done on a partly done puzzle, else ``None``."""
        return self._known.get(index)

    def __len__(self) -> int:
        return sum(d.count(1) for d in self._done.values())


# -- the work, in a worker --------------------------------------------------------------------
_Item = tuple[int, "Puzzle | PuzzleText", tuple[str, ...] | None, dict[str, Claim] | None]
"""(index, puzzle, the specs to run or None for all, claims already made or None)."""


def _warm(specs: Sequence[Spec]) -> None:
    """Build this process's solvers once (pool initializer; ``Client.run`` on Dask)."""
    for spec in specs:
        if isinstance(spec, str):
            get_backend(spec)


def _solve_chunk(specs: Sequence[Spec], items: list[_Item], limit: int | None,
                 time_limit: float | None) -> list[Record]:
    """Run the specs on each puzzle of a chunk: the records, in order."""
    backends = resolve(specs)  # cached per process: built once, then looked up
    records: list[Record] = []
    for index, puzzle, todo, known in items:
        if isinstance(puzzle, PuzzleText):
            puzzle = puzzle.parse()
        chosen = backends if todo is None else {s: backends[s] for s in todo}
        claims, results = run_claims(puzzle, chosen, limit=limit, time_limit=time_limit)
        judgement = judge({**known, **claims} if known else claims)
        agreed = judgement.status != DISAGREEMENT
        line = puzzle.to_line()
        for spec, claim in claims.items():
            result = results.get(spec)
            records.append(Record(
                index, line, spec, claim.verdict, judgement.status, agreed, claim.seconds,
                dict(result.stats) if result else {}, claim.found, claim.solution,
                claim.error or (result.message if result else ""), puzzle.metadata))
    return records


# -- executors --------------------------------------------------------------------------------
class _InlineExecutor(Executor):
    """Runs each call at once in this process (``jobs=1``): the same code path as the pools,
    with no process start-up and nothing pickled."""

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: B036 - handed to the caller via result()
            future.set_exception(exc)
        return future


START_METHOD: str | None = None
"""How worker processes start (``"fork"``, ``"forkserver"``, ``"spawn"``); ``None`` picks
``"fork"`` on Linux while this process runs a single thread, else ``"forkserver"`` where
there is one, else the platform's default."""


def _single_threaded() -> bool:
    """Whether this process runs one thread, native threads included (Linux /proc)."""
    if threading.active_count() > 1:
        return False
    # A thread just joined (the previous pool's manager) lingers in /proc for a moment after
    # Python lets go of it: look again for up to 20 ms before settling for forkserver.
    for _ in range(10):
        try:
            if len(os.listdir("/proc/self/task")) == 1:
                return True
        except OSError:
            return False
        time.sleep(0.002)
    return False


def _mp_context():
    # fork starts a worker in milliseconds, with the solvers already built (the registry's
    # cache is inherited); forkserver takes a few hundred milliseconds (a new interpreter,
    # imports in every worker), which a run of a thousand easy puzzles would not win back.
    # But forking a process that runs other threads (a Dask client, a progress bar's
    # refresh thread) can deadlock the child on a lock held at the fork, so then forkserver
    # (the default from Python 3.14) forks workers from a clean single-threaded server.
    method = START_METHOD
    if method is None:
        methods = multiprocessing.get_all_start_methods()
        if sys.platform.startswith("linux") and "fork" in methods and _single_threaded():
            method = "fork"
        elif "forkserver" in methods:
            method = "forkserver"
    return multiprocessing.get_context(method)


@contextmanager
def _executor(jobs: int, scheduler: Any, specs: Sequence[Spec]) -> Iterator[tuple[Executor, int]]:
    """(executor, tasks to keep in flight) for the chosen way of running."""
    if scheduler is not None:
        distributed = _require("distributed", "cluster", _DASK)
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
    elif jobs == 1:
        yield _InlineExecutor(), 1
    else:
        pool = ProcessPoolExecutor(jobs, mp_context=_mp_context(), initializer=_warm,
                                   initargs=(list(specs),))
        try:
            yield pool, 2 * jobs
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)


# -- running ----------------------------------------------------------------------------------
def read_puzzle_files(sources: Iterable[str | os.PathLike | TextIO],
                      **options: Any) -> Iterator[Puzzle]:
    """Stream the puzzles of several files (paths or open text files) one after another.

    ``options`` are the geometry options of :func:`~sudoku_csp.puzzle.parse` (``size``,
    ``box``, ``variants``, ``regions``); ParseError names the line of a bad puzzle.
    """
    for source in sources:
        yield from read_puzzles(source, **options)


@dataclass(frozen=True, slots=True)
class PuzzleText:
    """A one-line puzzle not parsed yet: its text, line number and parse options.

    :func:`run_batch` parses it in the worker that solves it, so the process reading the
    file does little more than read lines (parsing costs about a tenth of a native solve,
    and on a small machine that process shares the cores with the workers).
    """

    text: str
    line: int
    options: dict[str, Any] = field(default_factory=dict)

    def parse(self) -> Puzzle:
        """The puzzle (ParseError naming this line if the text is not one)."""
        return parse(self.text, line=self.line, **self.options)


def puzzle_texts(sources: Iterable[str | os.PathLike | TextIO],
                 **options: Any) -> Iterator[Puzzle | PuzzleText]:
    """Like :func:`read_puzzle_files`, but leaves the parsing of one-line puzzles to the
    workers of :func:`run_batch` (:class:`PuzzleText`). Same input rules as
    :func:`~sudoku_csp.puzzle.read_puzzles`: blank lines and ``#`` comments are skipped, and
    a file whose first puzzle line is not a puzzle by itself (or carries box borders) is
    read as one multi-line grid, parsed here. A bad line raises ParseError when reached.

    >>> text = "# two 4x4 puzzles\\n" + "3.1...4.2.......\\n" * 2
    >>> [type(p).__name__ for p in puzzle_texts([io.StringIO(text)])]
    ['Puzzle', 'PuzzleText']
    """
    for source in sources:
        if isinstance(source, (str, os.PathLike)):
            with open(source, encoding="utf-8") as handle:
                yield from _texts(handle, options)
        else:
            yield from _texts(source, options)


def _texts(handle: TextIO, options: dict[str, Any]) -> Iterator[Puzzle | PuzzleText]:
    for entry in puzzle_entries(handle, **options):
        yield entry if isinstance(entry, Puzzle) else PuzzleText(*entry, options)


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
) -> Iterator[Record]:
    """Run every spec on every puzzle; yield one :class:`Record` per (puzzle, spec), in
    input order (puzzle by puzzle, specs in the order given).

    - ``limit``: solutions looked for (2 decides uniqueness); ``time_limit``: seconds per
      puzzle per spec, after which that spec's status is ``unknown``.
    - ``jobs=1`` runs here; ``jobs=N`` in N worker processes; ``scheduler`` (an address
      such as ``"tcp://10.0.0.5:8786"``, or a ``dask.distributed.Client``) on a Dask cluster
      whose workers can import sudoku_csp (extra ``cluster``; MissingExtraError without it).
    - ``chunksize``: puzzles per task (default 1 here, :data:`CHUNKSIZE` in workers).
    - ``finished``: pairs to skip (resume); see :class:`Finished`.
    - ``puzzles``: :class:`Puzzle` objects, or :class:`PuzzleText` (from
      :func:`puzzle_texts`), parsed by the worker; a bad one raises ParseError here.

    Worker processes start by fork while this process runs a single thread (Linux), else
    from a forkserver (:data:`START_METHOD`), so a script that calls this with ``jobs > 1``
    needs the ``if __name__ == "__main__":`` guard. Dask
    workers are best started with one thread each (``--nthreads 1``, more ``--nworkers``):
    the native solver is pure Python, and a worker's threads share its backends.

    Specs are checked here before any work starts (SpecError). The puzzles are consumed
    lazily, a few chunks ahead of the records yielded. A backend returning a wrong solution
    gives a record with status ``"error"``; any other exception in a backend propagates.
    Spec objects (not strings) must be picklable for ``jobs > 1`` or a scheduler.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if scheduler is not None and jobs != 1:
        raise ValueError("give jobs (processes here) or scheduler (a Dask cluster), not both")
    if chunksize is not None and chunksize < 1:
        raise ValueError(f"chunksize must be at least 1, got {chunksize}")
    if scheduler is not None:
        _require("distributed", "cluster", _DASK)  # now, not at the first record
    names = tuple(resolve(specs))  # SpecError now, not from inside a worker
    if finished is not None and finished.specs != names:
        raise ValueError("finished was loaded for other specs: "
                         f"{', '.join(finished.specs)} (run: {', '.join(names)})")
    return _run(puzzles, tuple(specs), limit, time_limit, jobs, scheduler, chunksize,
                finished)


def _items(puzzles: Iterable[Puzzle | PuzzleText], finished: Finished | None) -> Iterator[_Item]:
    for index, puzzle in enumerate(puzzles, start=1):
        if finished is None:
            yield index, puzzle, None, None
            continue
        todo = finished.todo(index)
        if todo:
            partly = len(todo) < len(finished.specs)
            yield index, puzzle, todo if partly else None, finished.known(index)


def _run(puzzles: Iterable[Puzzle | PuzzleText], specs: tuple[Spec, ...], limit: int | None,
         time_limit: float | None, jobs: int, scheduler: Any, chunksize: int | None,
         finished: Finished | None) -> Iterator[Record]:
    with _executor(jobs, scheduler, specs) as (executor, depth):
        inline = isinstance(executor, _InlineExecutor)
        # In this process, one puzzle per task: each record is yielded (and written) as soon
        # as its puzzle is done.
        size = chunksize or (1 if inline else CHUNKSIZE)
        items = _items(puzzles, finished)
        window: deque[Future] = deque()
        try:
            while chunk := list(itertools.islice(items, size)):
                window.append(executor.submit(_solve_chunk, specs, chunk, limit, time_limit))
                # Bounded look-ahead keeps memory flat; the oldest chunk first keeps order.
                if len(window) >= depth:
                    yield from _result(window.popleft())
            while window:
                yield from _result(window.popleft())
        finally:
            for future in window:
                future.cancel()


def _result(future: Future) -> list[Record]:
    return future.result()  # a worker's ParseError pickles whole (ParseError.__reduce__)


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
) -> Iterator[Record]:
    """:func:`run_batch`, writing each record to ``out`` (``.jsonl`` or ``.csv``) as it
    arrives, then yielding it. Without ``resume`` the file is replaced; with it, the
    (puzzle index, spec) pairs already in the file are skipped and new records appended —
    run with the same puzzles, in the same order, and the same ``limit``. Yields only the
    new records: :func:`summarize` the file (:func:`read_records`) for the whole run.

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
    record_format(out)  # ValueError before any work
    names = tuple(resolve(specs))
    finished = Finished.load(out, names, limit=limit) if resume else None
    records = run_batch(puzzles, specs, limit=limit, time_limit=time_limit, jobs=jobs,
                        scheduler=scheduler, chunksize=chunksize, finished=finished)
    return _write_each(records, out, resume)


def _write_each(records: Iterator[Record], out: str | os.PathLike,
                append: bool) -> Iterator[Record]:
    with RecordWriter(out, append=append) as writer:
        for record in records:
            writer.write(record)  # written before the caller sees it: Ctrl-C keeps it
            yield record


def group_by_puzzle(records: Iterable[Record]) -> Iterator[tuple[int, list[Record]]]:
    """(index, that puzzle's records) from records in input order (as :func:`run_batch`
    yields them): one verdict per puzzle for ``sudoku-csp check``."""
    for index, group in itertools.groupby(records, key=lambda r: r.index):
        yield index, list(group)


def puzzle_verdict(records: Sequence[Record], *, limit: int | None = 2) -> dict[str, Any]:
    """One JSON-ready line for a puzzle from its records (one group of
    :func:`group_by_puzzle`): ``index``, ``puzzle``, the agreed ``status`` (or
    ``"disagreement"``), ``agreed``, each spec's ``status`` and ``seconds``, and for a
    disagreement the ``reasons`` (judged again from the records, with the run's ``limit``).

    >>> from sudoku_csp import parse
    >>> records = run_batch([parse("3.1...4.2.......")], ["native", "native:rules=singles"])
    >>> puzzle_verdict(list(records))["status"]
    'unique'
    """
    first = records[0]
    out: dict[str, Any] = {
        "index": first.index,
        "puzzle": first.puzzle,
        "status": first.verdict,
        "agreed": all(r.agreed for r in records),
        "specs": {r.spec: {"status": r.status, "seconds": round(r.seconds, 6)}
                  for r in records},
    }
    for r in records:
        if r.status == ERROR:
            out["specs"][r.spec]["error"] = r.message
    if not out["agreed"]:
        out["reasons"] = list(judge({r.spec: r.claim(limit) for r in records}).reasons)
    if first.metadata:
        out["metadata"] = first.metadata
    return out


# -- summary ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SpecSummary:
    """One row of the compare table: how one spec did over all its records.

    ``solved`` counts puzzles with a solution (solved, unique or multiple);
    ``puzzles_per_s`` is records over the spec's own total solve time (not wall-clock);
    times are over every record, unknowns included; ``mean_nodes`` averages ``nodes``
    (native) or ``decisions`` (sat, cpsat), ``mean_conflicts`` ``backtracks`` or
    ``conflicts``, ``propagation_pct`` the share with ``solved_by_propagation`` among
    records reporting it; ``None`` where no record reports the statistic. ``agreed``: every
    puzzle this spec ran on was agreed by all specs.
    """

    spec: str
    puzzles: int
    solved: int
    unique: int
    multiple: int
    none: int
    unknown: int
    errors: int
    puzzles_per_s: float | None
    mean_ms: float | None
    median_ms: float | None
    p95_ms: float | None
    max_ms: float | None
    mean_nodes: float | None
    mean_conflicts: float | None
    propagation_pct: float | None
    agreed: bool

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


SUMMARY_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(SpecSummary))


def _number(value: Any) -> float | None:
    # bool is an int subclass: a flag is not a count.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _first(stats: dict[str, Any], *names: str) -> float | None:
    for name in names:
        value = _number(stats.get(name))
        if value is not None:
            return value
    return None


class _Tally:
    __slots__ = ("statuses", "times", "decided_times", "nodes", "conflicts", "propagated",
                 "agreed")

    def __init__(self) -> None:
        self.statuses: dict[str, int] = {}
        self.times = array("d")  # 8 bytes a record: medians need every time
        self.decided_times = array("d")
        self.nodes = [0.0, 0]
        self.conflicts = [0.0, 0]
        self.propagated = [0, 0]
        self.agreed = True


def _percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of sorted values (a time some record really took)."""
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


class Summary:
    """Aggregates records into one :class:`SpecSummary` per spec (in first-seen order).

    Streams: :meth:`add` one record at a time (8 bytes a record are kept, for medians).

    >>> from sudoku_csp import parse
    >>> s = summarize(run_batch([parse("3.1...4.2.......")], ["native"]))
    >>> row = s.rows[0]
    >>> row.spec, row.puzzles, row.unique, s.all_agreed
    ('native', 1, 1, True)
    """

    def __init__(self) -> None:
        self._tallies: dict[str, _Tally] = {}
        self._disagreements: set[int] = set()

    def add(self, record: Record) -> None:
        tally = self._tallies.get(record.spec)
        if tally is None:
            tally = self._tallies[record.spec] = _Tally()
        tally.statuses[record.status] = tally.statuses.get(record.status, 0) + 1
        tally.times.append(record.seconds)
        if record.decided:
            tally.decided_times.append(record.seconds)
        for target, names in ((tally.nodes, ("nodes", "decisions")),
                              (tally.conflicts, ("backtracks", "conflicts"))):
            value = _first(record.stats, *names)
            if value is not None:
                target[0] += value
                target[1] += 1
        flag = record.stats.get("solved_by_propagation")
        if flag is not None:
            tally.propagated[0] += bool(flag)
            tally.propagated[1] += 1
        if not record.agreed:
            tally.agreed = False
            self._disagreements.add(record.index)

    def update(self, records: Iterable[Record]) -> Summary:
        for record in records:
            self.add(record)
        return self

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(self._tallies)

    @property
    def all_agreed(self) -> bool:
        """Every puzzle's specs agreed (unknowns contradict nothing)."""
        return not self._disagreements

    @property
    def disagreements(self) -> list[int]:
        """Indices of the puzzles whose specs disagreed, in order."""
        return sorted(self._disagreements)

    def decided_times(self, spec: str) -> list[float]:
        """Sorted seconds of the records where ``spec`` gave a verdict (the cactus line)."""
        return sorted(self._tallies[spec].decided_times)

    @property
    def rows(self) -> list[SpecSummary]:
        return [self._row(spec, tally) for spec, tally in self._tallies.items()]

    @staticmethod
    def _row(spec: str, t: _Tally) -> SpecSummary:
        n = len(t.times)
        count = t.statuses.get
        ordered = sorted(t.times)
        total = sum(ordered)
        ms = [1000 * x for x in ordered]
        return SpecSummary(
            spec=spec,
            puzzles=n,
            solved=sum(count(s.value, 0) for s in Status if s.has_solution),
            unique=count(Status.UNIQUE.value, 0),
            multiple=count(Status.MULTIPLE.value, 0),
            none=count(Status.NONE.value, 0),
            unknown=count(Status.UNKNOWN.value, 0),
            errors=count(ERROR, 0),
            puzzles_per_s=n / total if total > 0 else None,
            mean_ms=sum(ms) / n if n else None,
            median_ms=(ms[(n - 1) // 2] + ms[n // 2]) / 2 if n else None,
            p95_ms=_percentile(ms, 95) if n else None,
            max_ms=ms[-1] if n else None,
            mean_nodes=t.nodes[0] / t.nodes[1] if t.nodes[1] else None,
            mean_conflicts=t.conflicts[0] / t.conflicts[1] if t.conflicts[1] else None,
            propagation_pct=(100 * t.propagated[0] / t.propagated[1]
                             if t.propagated[1] else None),
            agreed=t.agreed,
        )


def summarize(records: Iterable[Record]) -> Summary:
    """A :class:`Summary` of ``records`` (streamed)."""
    return Summary().update(records)


# -- cactus plot ------------------------------------------------------------------------------
PLOT_FORMATS = (".png", ".svg", ".pdf")


def cactus_plot(
    data: Summary | Iterable[Record],
    path: str | os.PathLike,
    *,
    title: str | None = None,
    solved_axis: Literal["x", "y"] = "x",
) -> None:
    """Write a cactus plot to ``path`` (PNG, SVG or PDF, by extension): for each spec, its
    puzzles sorted by solve time, so the point (k, t) says "k puzzles took at most t each".
    Time is on a log axis; ``solved_axis="y"`` puts the count on the y axis instead (the
    "puzzles solved within t" reading). Only decided records count (not unknown or error).

    Needs matplotlib (extra ``plot``; MissingExtraError without it). Uses no pyplot state.
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in PLOT_FORMATS:
        raise ValueError(f"{os.fspath(path)}: a cactus plot is written as "
                         f"{', '.join(PLOT_FORMATS)}, not {ext!r}")
    figure_module = _require("matplotlib.figure", "plot", "the cactus plot")
    summary = data if isinstance(data, Summary) else summarize(data)
    fig = figure_module.Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.subplots()
    for spec in summary.specs:
        ms = [1000 * t for t in summary.decided_times(spec)]
        counts = range(1, len(ms) + 1)
        xs, ys = (counts, ms) if solved_axis == "x" else (ms, counts)
        ax.plot(xs, ys, label=spec, drawstyle="steps-post", linewidth=1.5,
                marker="." if len(ms) <= 50 else None)
    if solved_axis == "x":
        ax.set_yscale("log")
        ax.set_xlabel("puzzles solved")
        ax.set_ylabel("time per puzzle (ms, log scale)")
    else:
        ax.set_xscale("log")
        ax.set_xlabel("time per puzzle (ms, log scale)")
        ax.set_ylabel("puzzles solved")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title or "cactus plot: puzzles solved vs time")
    if summary.specs:
        ax.legend(fontsize="small")
    # No date in SVG/PDF metadata: the same records give the same file.
    fig.savefig(path, metadata={"Date": None} if ext in (".svg", ".pdf") else None)
