"""Resuming a batch run: the (puzzle index, spec) pairs a records file already holds
(:class:`Finished`), read back from it by :func:`~sudoku_csp.batch.records.iter_records`, so
the runner skips them, cross-checks a partly done puzzle's new records against the claims
already written, and refuses a records file written for other puzzles.
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Sequence

from sudoku_csp.batch.records import iter_records
from sudoku_csp.crosscheck import Claim
from sudoku_csp.errors import InputError
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle

__all__ = ["Finished"]


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
        # The puzzle lines of a few finished indices (1, 2, 4, 8, ... and the last), which
        # the resumed input must hold at the same places: resuming with another file would
        # otherwise skip its first puzzles without a word.
        self._lines: dict[int, str] = {}

    @classmethod
    def load(cls, path: str | os.PathLike, specs: Sequence[str], *,
             limit: int | None = 2) -> Finished:
        """The pairs of ``specs`` (canonical spec strings) in the results file ``path``;
        records of other specs are ignored. ``limit`` is the run's, assumed unchanged."""
        finished = cls(specs)
        if not os.path.exists(path):
            return finished
        last = (0, "")
        for record in iter_records(path):
            finished._mark(record.index, record.spec)
            if record.index & (record.index - 1) == 0:  # a power of two
                finished._lines[record.index] = record.puzzle
            last = max(last, (record.index, record.puzzle))
        if last[0]:
            finished._lines[last[0]] = last[1]
        partial = finished._partial()
        if partial:
            for record in iter_records(path):
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

    def check_puzzle(self, index: int, puzzle: Puzzle) -> None:
        """InputError if the records file holds another puzzle at ``index`` than the input's
        ``puzzle`` (compared by its record line, :func:`~sudoku_csp.io.to_line`, which
        carries the geometry).

        A record that holds the puzzle's givens alone where its geometry is not the one
        they tell (a file written with other geometry options, or by a version that left
        the geometry out of records) is another puzzle too: resuming would mix verdicts of
        two puzzles in one file."""
        recorded = self._lines.get(index)
        if recorded is None:
            return
        line = to_line(puzzle)
        if recorded == line:
            return
        if recorded == to_line(puzzle, standalone=False):
            raise InputError(
                f"--resume: the records file holds puzzle {index} as {recorded}, without the "
                f"{puzzle.geometry.name} geometry it has here (written with other geometry "
                "options, or by a version that left the geometry out of records); write the "
                "records to a new file")
        raise InputError(
            f"--resume: the records file was written for another input (puzzle {index} "
            f"is {recorded} there, {line} here); resume with the same puzzles in the "
            "same order, or write the records to a new file")

    def needs_check(self, index: int) -> bool:
        """Whether :meth:`check_puzzle` compares anything at ``index``."""
        return index in self._lines

    def known(self, index: int) -> dict[str, Claim] | None:
        """Claims of the specs already done on a partly done puzzle, else ``None``."""
        return self._known.get(index)

    def __len__(self) -> int:
        return sum(d.count(1) for d in self._done.values())

    def puzzles_done(self) -> int:
        """How many puzzles are done for every spec: what a resumed run skips whole, where
        its progress starts."""
        if not self.specs:
            return 0
        # Each byte is 0 or 1: the byte arrays read as integers and ANDed keep a 1 in the
        # byte of each index every spec has done, one set bit per such puzzle.
        every = functools.reduce(operator.and_, (int.from_bytes(d, "little")
                                                 for d in self._done.values()))
        return every.bit_count()
