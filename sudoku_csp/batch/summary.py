"""Batch summaries: records aggregated per spec (the rows of ``sudoku-csp compare``).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sudoku_csp.batch.records import Outcome, Record
from sudoku_csp.crosscheck import ERROR, Verdict


@dataclass(frozen=True)
class SpecSummary:
    """One row of the compare table: how one spec did over all its records.

    ``solved`` counts puzzles with a solution (solved, unique or multiple);
    ``puzzles_per_s`` is records over the spec's own total solve time (not wall-clock);
    times are over every record, unknowns included; ``mean_nodes`` averages ``nodes``
    (native) or ``decisions`` (sat, cpsat), ``mean_conflicts`` ``backtracks`` or
    ``conflicts``, ``propagation_pct`` the share with ``solved_by_propagation`` among
    records reporting it; ``None`` where no record reports the statistic. ``agreed``: on
    every puzzle this spec ran on, two specs or more decided and none contradicted another.
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
        self.statuses: dict[Verdict, int] = {}
        self.times = array("d")  # 8 bytes a record: medians need every time
        self.decided_times = array("d")
        self.nodes = [0.0, 0]
        self.conflicts = [0.0, 0]
        self.propagated = [0, 0]
        self.agreed = True


_HAS_SOLUTION = tuple(v for v in Verdict if v.status is not None and v.status.has_solution)


def _percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of sorted values (a time some record really took)."""
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


class Summary:
    """Aggregates records into one :class:`SpecSummary` per spec (in first-seen order).

    Streams: :meth:`add` one record at a time, :meth:`update` with records (read back from
    a file) or the outcomes of a run (8 bytes a record are kept, for medians).

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.batch import run_batch
    >>> s = summarize(run_batch([parse("3.1...4.2.......")], ["native", "native:rules=singles"]))
    >>> row = s.rows[0]
    >>> row.spec, row.puzzles, row.unique, s.all_agreed
    ('native', 1, 1, True)
    >>> summarize(run_batch([parse("3.1...4.2.......")], ["native"])).unchecked  # one spec
    [1]
    """

    def __init__(self) -> None:
        self._tallies: dict[str, _Tally] = {}
        self._disagreements: set[int] = set()
        self._unchecked: set[int] = set()

    def add(self, record: Record) -> None:
        tally = self._tallies.get(record.spec)
        if tally is None:
            tally = self._tallies[record.spec] = _Tally()
        tally.statuses[record.status] = tally.statuses.get(record.status, 0) + 1
        tally.times.append(record.seconds)
        if record.gave_verdict:
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
        if record.disagreed:
            tally.agreed = False
            self._disagreements.add(record.index)
        elif not record.agreed:  # fewer than two specs decided: checked by nothing
            tally.agreed = False
            self._unchecked.add(record.index)

    def update(self, items: Iterable[Outcome | Record]) -> Summary:
        """Add records, or every record of each outcome."""
        for item in items:
            if isinstance(item, Outcome):
                for record in item.records:
                    self.add(record)
            else:
                self.add(item)
        return self

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(self._tallies)

    @property
    def all_agreed(self) -> bool:
        """Every puzzle's specs agreed: two or more decided and none contradicted another."""
        return not self._disagreements and not self._unchecked

    @property
    def disagreements(self) -> list[int]:
        """Indices of the puzzles whose specs disagreed, in order."""
        return sorted(self._disagreements)

    @property
    def unchecked(self) -> list[int]:
        """Indices of the puzzles fewer than two specs decided (the others ran out of time,
        or only one spec ran): nothing contradicted their verdict, and nothing checked it."""
        return sorted(self._unchecked - self._disagreements)

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
            solved=sum(count(v, 0) for v in _HAS_SOLUTION),
            unique=count(Verdict.UNIQUE, 0),
            multiple=count(Verdict.MULTIPLE, 0),
            none=count(Verdict.NONE, 0),
            unknown=count(Verdict.UNKNOWN, 0),
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


def summarize(items: Iterable[Outcome | Record]) -> Summary:
    """A :class:`Summary` of records or outcomes (streamed)."""
    return Summary().update(items)
