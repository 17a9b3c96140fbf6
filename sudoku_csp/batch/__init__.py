"""Batch runs: many puzzles × several backend specs, one outcome per puzzle holding one
record per (puzzle, spec).

The pieces, each usable alone:

- Puzzles come from :mod:`sudoku_csp.io` (:func:`~sudoku_csp.io.puzzle_texts` streams files
  and leaves each one-line puzzle for a worker to parse).
- :func:`run_batch` runs every spec on every puzzle and yields one :class:`Outcome` per
  puzzle (its :class:`Record` per spec and the verdict cross-checked over them) in input
  order, in this process (``jobs=1``), in worker processes (``jobs=N``) or on a Dask
  cluster (``scheduler=ADDRESS``). All three go through one ``concurrent.futures.Executor``
  interface: a trivial in-process one, ``ProcessPoolExecutor``, or the executor a
  ``dask.distributed.Client`` hands out (``Client.get_executor``). Puzzles travel in chunks
  and at most a few chunks per worker are in flight, so a file of a million puzzles is never
  held in memory, and results come back in input order whatever finishes first.
- :class:`RecordWriter` writes records to ``.jsonl`` or ``.csv`` (by extension), flushing
  each one, and :func:`run_to_file` ties it together (writing each outcome's records before
  yielding it) with ``resume``: a
  :class:`Finished` set read back from the output skips the (puzzle, spec) pairs done before.
  :func:`iter_records` streams such a file back as records, :func:`read_records` reads it
  into a pandas DataFrame with the right column types.
- ``sudoku-csp check`` prints each outcome (:meth:`Outcome.as_dict`, the shape of a single
  cross-check's); :class:`Summary` aggregates outcomes (or records read back) into the
  per-spec rows of ``sudoku-csp compare``;
  :func:`cactus_plot` draws puzzles solved against time (matplotlib, optional extra ``plot``).

Each worker builds its solvers once: spec strings go through the registry's per-process
cache (:func:`~sudoku_csp.backends.registry.get_backend`), warmed when a worker starts (the
pool's ``initializer``; ``Client.run`` on Dask workers), not per puzzle. Forked workers
inherit the solvers this process built when it checked the specs (see :data:`START_METHOD`
for when workers are forked and when they come from a forkserver).

>>> from sudoku_csp import parse
>>> outcomes = run_batch([parse("3.1...4.2......."), parse("1..." "..1." ".1.." "...1")],
...                      ["native", "native:rules=singles"])
>>> [(o.index, str(o.verdict), [str(r.status) for r in o.records]) for o in outcomes]
[(1, 'unique', ['unique', 'unique']), (2, 'multiple', ['multiple', 'multiple'])]
"""

from __future__ import annotations

from sudoku_csp.batch.plot import PLOT_FORMATS, cactus_plot
from sudoku_csp.batch.records import (
    RECORD_FIELDS,
    Outcome,
    Record,
    RecordFormat,
    RecordWriter,
    csv_header,
    iter_records,
    read_records,
    record_format,
    record_line,
)
from sudoku_csp.batch.resume import Finished
from sudoku_csp.batch.runner import CHUNKSIZE, Spec, resumed, run_batch, run_to_file
from sudoku_csp.batch.summary import SpecSummary, Summary, summarize
from sudoku_csp.crosscheck import Verdict

__all__ = [
    "CHUNKSIZE", "PLOT_FORMATS", "RECORD_FIELDS", "Finished", "Outcome", "Record",
    "RecordFormat", "RecordWriter", "Spec", "SpecSummary", "Summary", "Verdict",
    "cactus_plot", "csv_header", "iter_records", "read_records", "record_format",
    "record_line", "resumed", "run_batch", "run_to_file", "summarize",
]
