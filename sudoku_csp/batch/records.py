"""Batch records: one per (puzzle, spec), written to ``.jsonl`` or ``.csv`` as they finish
and read back (what a resumed run skips is :mod:`sudoku_csp.batch.resume`'s); and the
per-puzzle :class:`Outcome` the runner yields: a puzzle's records with its cross-checked
verdict, which ``check``, ``compare`` and the record writer each consume as it is.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal, TextIO

from sudoku_csp.crosscheck import DISAGREEMENT, ERROR, Claim, Judgement, Verdict, verdict_dict
from sudoku_csp.errors import InputError
from sudoku_csp.puzzle import Puzzle

if TYPE_CHECKING:
    from sudoku_csp.io import PuzzleText


# -- records ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """One spec on one puzzle.

    ``index`` is the puzzle's 1-based position in the input; ``puzzle`` its line, which
    reads back as the same puzzle with no option (:func:`~sudoku_csp.io.to_line`: the
    plain or killer line, or the JSON form when the puzzle's geometry is
    not the one its size alone gives; files written before this held the plain line
    whatever the geometry);
    ``status`` the spec's own :class:`~sudoku_csp.crosscheck.Verdict` (its backend's status,
    or ``error`` when the backend returned a wrong answer: ``message`` says what);
    ``verdict`` the cross-checked verdict on the puzzle over all specs run on it
    (``disagreement`` if they contradict each other; None in a file that has no such
    column), ``decided`` how many of those specs gave a verdict, and ``agreed`` whether two
    or more did and none contradicts another (a verdict one spec decided alone was checked
    by nothing); ``solutions`` how many solutions the spec returned, ``solution`` the first
    as a line; ``seconds`` the backend's own solve time; ``complete`` False when the time
    limit or a budget cut the search short (the status is then ``unknown``, or
    ``solutions`` is only a lower bound on the count).

    Files written before the ``decided`` column are read with it worked out from their
    records (:func:`iter_records`); a record made by hand without it has ``decided`` None,
    which counts as not cross-checked.
    """

    index: int
    puzzle: str
    spec: str
    status: Verdict
    verdict: Verdict | None
    agreed: bool
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: int = 0
    solution: str | None = None
    message: str = ""
    metadata: str = ""
    complete: bool = True
    decided: int | None = None

    def __post_init__(self) -> None:
        # Records read back from JSON (or made by hand) carry the words; the runner's, the
        # verdicts themselves. A word that is no verdict raises ValueError here.
        if type(self.status) is not Verdict:
            object.__setattr__(self, "status", Verdict(self.status))
        if self.verdict is not None and type(self.verdict) is not Verdict:
            object.__setattr__(self, "verdict", Verdict(self.verdict))

    @property
    def gave_verdict(self) -> bool:
        """The spec gave a verdict: neither unknown (time limit) nor an error."""
        return self.status not in (Verdict.UNKNOWN, ERROR)

    @property
    def disagreed(self) -> bool:
        """The specs run on the puzzle contradict each other (or one failed). A record
        without ``decided`` (made by hand) says it by ``agreed`` alone, as old files did."""
        return self.verdict is DISAGREEMENT or (self.decided is None and not self.agreed)

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
        status = self.status.status
        return Claim(status, self.solutions, self.solution, self.message if status is None
                     else "", self.seconds, exact=limit is None and self.complete,
                     complete=self.complete)


@dataclass(slots=True)  # not frozen: one is made per puzzle, and a frozen one costs 4x as much
class Outcome:
    """One puzzle of a batch run: its ``records`` (one per spec run on it here, in the order
    of the specs), the ``verdict`` cross-checked over them (and over the claims a resumed run
    read back for this puzzle), and for a disagreement the ``reasons``.

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.batch import run_batch
    >>> (outcome,) = run_batch([parse("3.1...4.2.......")], ["native", "native:rules=singles"])
    >>> str(outcome.verdict), outcome.agreed, [r.spec for r in outcome.records]
    ('unique', True, ['native', 'native:rules=singles'])
    """

    index: int
    puzzle: str
    metadata: str
    records: tuple[Record, ...]
    verdict: Verdict
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """What the reader left out of the puzzle's rules and said so (:attr:`Puzzle.notes`)."""
    decided: int = 0
    """How many specs gave a verdict (those of a resumed run's records read back too)."""
    read: Puzzle | PuzzleText | None = None
    """The puzzle as the runner was given it, attached in the process that reads the input
    (never sent to or from a worker): see :meth:`puzzle_as_read`."""

    def puzzle_as_read(self) -> Puzzle:
        """The puzzle as read, with all its rules and its metadata: what anything asked of
        the puzzle itself (why it has no solution) is asked of, rather than reading its
        line again. ValueError for an outcome the runner did not make.

        >>> from sudoku_csp import parse
        >>> from sudoku_csp.batch import run_batch
        >>> anti = parse("1." + "." * 14, variants=("anti-king",))
        >>> (outcome,) = run_batch([anti], ["native"])
        >>> outcome.puzzle_as_read().geometry.name
        '4x4 anti-king'
        """
        if self.read is None:
            raise ValueError(f"outcome {self.index} does not hold the puzzle as read")
        return self.read if isinstance(self.read, Puzzle) else self.read.parse()

    @property
    def judgement(self) -> Judgement:
        return Judgement(self.verdict, self.reasons, self.decided)

    @property
    def agreed(self) -> bool:
        """Two or more specs decided, none failed, no claim contradicts another."""
        return self.judgement.agreed

    def as_dict(self, limit: int | None = 2) -> dict[str, Any]:
        """The puzzle's verdict as ``sudoku-csp check --json`` prints it (the shape of
        :func:`~sudoku_csp.crosscheck.verdict_dict`, with the puzzle's ``index``);
        ``limit`` is the run's: it decides whether a ``multiple`` claim was an exact count."""
        found = verdict_dict(self.puzzle, {r.spec: r.claim(limit) for r in self.records},
                             self.judgement, metadata=self.metadata, index=self.index)
        if self.notes:
            found["notes"] = list(self.notes)
        return found


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Record))
"""Column order of CSV output (``stats`` is a JSON object in its column)."""

_REQUIRED = ("index", "puzzle", "spec", "status")


def _record_from_row(row: dict[str, str]) -> Record:
    return Record(
        index=int(row["index"]),
        puzzle=row["puzzle"],
        spec=row["spec"],
        status=Verdict(row["status"]),
        verdict=Verdict(row["verdict"]) if row.get("verdict") else None,
        agreed=row.get("agreed", "True") == "True",
        seconds=float(row.get("seconds") or 0.0),
        stats=json.loads(row["stats"]) if row.get("stats") else {},
        solutions=int(row.get("solutions") or 0),
        solution=row.get("solution") or None,
        message=row.get("message", ""),
        metadata=row.get("metadata", ""),
        complete=row.get("complete", "True") == "True",
        decided=int(row["decided"]) if row.get("decided") else None,
    )


def _csv_line(values: Sequence[Any]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(values)
    return buffer.getvalue()


def _row_of(record: Record) -> list[Any]:
    values = record.as_dict()
    values["stats"] = json.dumps(record.stats, separators=(",", ":"), default=str)
    values["solution"] = record.solution or ""
    return [values[name] for name in RECORD_FIELDS]


RecordFormat = Literal["jsonl", "csv"]


def csv_header() -> str:
    """The header line of a CSV results file: :data:`RECORD_FIELDS`, newline included."""
    return _csv_line(RECORD_FIELDS)


def record_line(record: Record, fmt: RecordFormat) -> str:
    """One record as one line of a ``.jsonl`` or ``.csv`` results file, newline included:
    what :class:`RecordWriter` writes, and what the CLI prints for ``--json`` and ``--csv``.
    Grids are written as they are (CSV has no types: :func:`read_records` reads them back
    as text).

    >>> r = Record(1, "3.1...4.2.......", "native", "unique", "unique", True, 0.5,
    ...            solution="3412124321344321")
    >>> record_line(r, "csv")
    '1,3.1...4.2.......,native,unique,unique,True,0.5,{},0,3412124321344321,,,True,\\n'
    >>> record_line(r, "jsonl")[:36]
    '{"index":1,"puzzle":"3.1...4.2.......'
    """
    if fmt == "csv":
        return _csv_line(_row_of(record))
    return json.dumps(record.as_dict(), separators=(",", ":"), default=str) + "\n"


def record_format(path: str | os.PathLike) -> RecordFormat:
    """``"jsonl"`` for ``.jsonl``/``.ndjson``, ``"csv"`` for ``.csv``; ValueError otherwise."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".jsonl", ".ndjson"):
        return "jsonl"
    if ext == ".csv":
        return "csv"
    raise InputError(f"{os.fspath(path)}: results are written as .jsonl or .csv, not {ext!r}")


def _complete_lines(handle: TextIO) -> Iterator[str]:
    """The lines of ``handle`` that end in a newline: a last line without one was cut short
    by a crash mid-write (every record is written with its newline in one call)."""
    for line in handle:
        if line.endswith("\n"):
            yield line


def iter_records(path: str | os.PathLike) -> Iterator[Record]:
    """Stream the records of a ``.jsonl`` or ``.csv`` results file, skipping a last line
    left incomplete by an interrupted write. InputError names a line that is not a record.
    :func:`read_records` reads the same into a pandas DataFrame.

    Records of a file written before the ``decided`` column get it from the records of
    their puzzle (those next to each other in the file), and ``agreed`` only when two or
    more decided (those files said ``agreed`` when nothing contradicted)."""
    return _with_decided(_records(path))


def _with_decided(records: Iterator[Record]) -> Iterator[Record]:
    group: list[Record] = []  # a puzzle's records without the column, in a row

    def flush() -> Iterator[Record]:
        decided = sum(r.gave_verdict for r in group)
        for r in group:
            # A file older than the verdict column said a disagreement by agreed alone.
            verdict = DISAGREEMENT if r.verdict is None and not r.agreed else r.verdict
            yield replace(r, verdict=verdict, decided=decided,
                          agreed=r.agreed and decided >= 2)
        group.clear()

    for record in records:
        if group and (record.decided is not None or record.index != group[0].index):
            yield from flush()
        if record.decided is None:
            group.append(record)
        else:
            yield record
    yield from flush()


def _records(path: str | os.PathLike) -> Iterator[Record]:
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
                    raise InputError(f"{os.fspath(path)}:{number}: not a batch record "
                                     f"({exc})") from None
            return
        reader = csv.DictReader(lines)
        if reader.fieldnames is None:
            return
        missing = [name for name in _REQUIRED if name not in reader.fieldnames]
        if missing:
            raise InputError(f"{os.fspath(path)}: not a batch results file "
                             f"(no column {', '.join(missing)})")
        for row in reader:
            try:
                yield _record_from_row(row)
            except (ValueError, TypeError, KeyError) as exc:
                raise InputError(f"{os.fspath(path)}:{reader.line_num}: not a batch record "
                                 f"({exc})") from None


_DTYPES = {"int": "int64", "float": "float64", "bool": "bool", "str": "string",
           "Verdict": "string", "Verdict | None": "string",
           "str | None": "string", "int | None": "Int64"}
"""pandas dtype of each kind of :class:`Record` field (by its annotation); ``stats`` keeps
its dicts. Text is ``string``, so that no grid of digits ever becomes a number."""


def read_records(path: str | os.PathLike) -> Any:
    """The records of a ``.jsonl`` or ``.csv`` results file (``--out``) as a pandas
    DataFrame: one row per record, the columns of :data:`RECORD_FIELDS`, typed from
    :class:`Record` — grids and other text as strings (a 9×9 ``solution`` of digits stays
    text), ``index`` and ``solutions`` as int64, ``agreed`` and ``complete`` as bool,
    ``seconds`` as float64, ``stats`` as dicts. Read by :func:`iter_records`, so both
    formats give the same frame. Needs pandas (``pip install pandas``, or the extra
    ``data``); MissingExtraError without it.

    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name) / "r.csv"
    >>> with RecordWriter(path) as w:
    ...     w.write(Record(1, "3.1...4.2.......", "native", "unique", "unique", True, 0.5,
    ...                    solutions=1, solution="3412124321344321"))
    >>> frame = read_records(path)
    >>> frame.loc[0, "solution"], str(frame["solution"].dtype), str(frame["index"].dtype)
    ('3412124321344321', 'string', 'int64')
    >>> tmp.cleanup()
    """
    # Imported here: the runner imports this module (and pandas is optional).
    from sudoku_csp.extras import require_extra

    pd = require_extra("pandas", "data", "read_records")
    frame = pd.DataFrame([r.as_dict() for r in iter_records(path)], columns=RECORD_FIELDS)
    return frame.astype({f.name: _DTYPES[str(f.type)] for f in fields(Record)
                         if str(f.type) in _DTYPES})


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
    >>> [str(r.status) for r in iter_records(path)]
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
        if self.format == "csv" and header_needed:
            self._handle.write(csv_header())
            self._handle.flush()

    def _check_header(self) -> None:
        with open(self.path, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), [])
        if tuple(header) != RECORD_FIELDS:
            raise InputError(f"{os.fspath(self.path)}: its columns are not those of this "
                             f"version ({', '.join(RECORD_FIELDS)}); write to a new file")

    def write(self, record: Record) -> None:
        """Write one record and flush it."""
        # One string, one write: a crash can cut only the last line, never mix two.
        self._handle.write(record_line(record, self.format))
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
