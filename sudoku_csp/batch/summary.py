"""Batch summaries: records grouped per puzzle (one cross-checked verdict each, for
``sudoku-csp check``) and per spec (the rows of ``sudoku-csp compare``).
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sudoku_csp.batch.records import Record
from sudoku_csp.crosscheck import DISAGREEMENT, ERROR, Judgement, judge, verdict_dict
from sudoku_csp.result import Status


def group_by_puzzle(records: Iterable[Record]) -> Iterator[tuple[int, list[Record]]]:
    """(index, that puzzle's records) from records in input order (as :func:`run_batch`
    yields them): one verdict per puzzle for ``sudoku-csp check``."""
    for index, group in itertools.groupby(records, key=lambda r: r.index):
        yield index, list(group)


def verdict_of(records: Sequence[Record], *, limit: int | None = 2) -> dict[str, Any]:
    """One puzzle's verdict from its records (one group of :func:`group_by_puzzle`, from one
    run), in the shape of :meth:`CrossCheck.as_dict <sudoku_csp.crosscheck.CrossCheck.as_dict>`
    plus the puzzle's ``index`` (see :func:`~sudoku_csp.crosscheck.verdict_dict`).
    ``limit`` is the run's: it decides whether a ``multiple`` claim was an exact count.

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.batch import run_batch
    >>> records = run_batch([parse("3.1...4.2.......")], ["native", "native:rules=singles"])
    >>> verdict_of(list(records))["status"]
    'unique'
    """
    first = records[0]
    claims = {r.spec: r.claim(limit) for r in records}
    # Records carry the status the run judged (on a resumed run, also over the claims read
    # back from the file, which are not among these records) but not the reasons of a
    # disagreement: those are judged again from these records alone.
    reasons = judge(claims).reasons if first.verdict == DISAGREEMENT else ()
    return verdict_dict(first.puzzle, claims, Judgement(first.verdict, reasons),
                        metadata=first.metadata, index=first.index)


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
    >>> from sudoku_csp.batch import run_batch
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
