"""Batch runs: many puzzles × several backend specs, one record per (puzzle, spec).

The pieces, each usable alone:

- Puzzles come from :mod:`sudoku_csp.io` (:func:`~sudoku_csp.io.puzzle_texts` streams files
  and leaves each one-line puzzle for a worker to parse).
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
  :func:`iter_records` streams such a file back as records, :func:`read_records` reads it
  into a pandas DataFrame with the right column types.
- :func:`group_by_puzzle` and :func:`verdict_of` turn records back into one verdict per
  puzzle (``sudoku-csp check``), in the shape of a single cross-check's.
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

from sudoku_csp.batch.plot import PLOT_FORMATS, cactus_plot
from sudoku_csp.batch.records import (
    RECORD_FIELDS,
    Finished,
    Record,
    RecordFormat,
    RecordWriter,
    csv_header,
    iter_records,
    read_records,
    record_format,
    record_line,
)
from sudoku_csp.batch.runner import CHUNKSIZE, Spec, run_batch, run_to_file
from sudoku_csp.batch.summary import (
    SpecSummary,
    Summary,
    group_by_puzzle,
    summarize,
    verdict_of,
)

__all__ = [
    "CHUNKSIZE", "PLOT_FORMATS", "RECORD_FIELDS", "Finished", "Record", "RecordFormat",
    "RecordWriter", "Spec", "SpecSummary", "Summary", "cactus_plot", "csv_header",
    "group_by_puzzle", "iter_records", "read_records", "record_format", "record_line",
    "run_batch", "run_to_file", "summarize", "verdict_of",
]
