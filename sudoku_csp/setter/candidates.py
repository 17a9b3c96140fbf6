"""True candidates: for every cell, the digits that some solution puts there, and how many
solutions do (up to a cap), from one incremental SAT session.

A candidate (cell, digit) is true when "the puzzle and cell = digit" is satisfiable. Asked one
by one that is N³ solver calls; most are not needed:

1. Solutions are enumerated first, up to ``cap`` (at least two): when there are fewer,
   they are all of them, and every count is exact (a unique puzzle costs two calls).
2. Each solution found marks every candidate it holds, so a candidate seen in one needs no
   call of its own. For each cell, one call asks "a solution with any digit not yet seen
   here?" (a clause over those digits behind a selector): unsatisfiable rules them all out
   at once; satisfiable brings a new solution, which marks more.
3. A true candidate seen in fewer than ``cap`` solutions is counted on: "a solution with
   cell = digit other than the ones known to hold it" (their exclusion clauses switched on),
   until ``cap`` or until no other exists (its count is then exact).

So a solution found for one question serves every later one, and the exclusion clauses stay
off unless a question needs them: none ever narrows an answer it was not meant for.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_csp.constraints.fields import rc
from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, Grid
from sudoku_csp.io import as_puzzle
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.setter.session import PartSession

DEFAULT_CAP = 8
"""Solutions counted per candidate before it counts as "many"."""

TINTS = {"one": "#1b7f3b", "few": "#b07d00", "many": "#c0392b", "undecided": "#9e9e9e"}
"""A candidate's colour in pictures by its tier (:meth:`TrueCandidates.tier`): green when
one solution holds it, yellow for fewer than the cap, red for the cap or more, grey for a
digit the time limit left undecided (drawn, since it may be possible)."""


@dataclass(frozen=True)
class TrueCandidates:
    """The true candidates of a puzzle.

    ``counts[cell][digit]``: how many solutions hold ``digit`` in ``cell``, up to ``cap``
    (``cap`` means "``cap`` or more"). ``settled[cell]``: a mask of the digits whose count is
    final (exact below ``cap``; zero: no solution holds the digit); every count is when
    :attr:`complete`, else a count not settled is only a lower bound. ``unknown[cell]``: a
    mask of the digits the time limit left undecided, neither seen in a solution nor ruled
    out. ``solutions``: the solutions found on the way, in the order found (each checked
    against the rules). ``calls``: solver calls made; ``seconds``: time taken.

    >>> from sudoku_csp import parse
    >>> tc = true_candidates(parse("1..." "..1." ".1.." "...."))
    >>> tc.status, tc.candidates(3), tc.counts[3]   # R1C4: 2, 3 or 4, in 6 solutions each
    ('multiple', (1, 2, 3), (0, 6, 6, 6))
    """

    puzzle: Puzzle
    cap: int
    counts: tuple[tuple[int, ...], ...]
    unknown: tuple[int, ...]
    solutions: tuple[Grid, ...]
    complete: bool
    settled: tuple[int, ...] = ()
    calls: int = 0
    seconds: float = 0.0

    def candidates(self, cell: int) -> tuple[int, ...]:
        """The digits (0-based) some solution puts in ``cell``."""
        return tuple(d for d, k in enumerate(self.counts[cell]) if k)

    def masks(self, *, undecided: bool = False) -> list[int]:
        """A bitmask per cell of its true candidates (bit ``d``: digit ``d``); with
        ``undecided``, also the digits the time limit left undecided (every digit that may
        be possible: what pencil marks written for a setter must keep)."""
        return [sum(1 << d for d in self.candidates(cell)) | (self.unknown[cell] if undecided
                                                               else 0)
                for cell in range(len(self.counts))]

    def tier(self, cell: int, digit: int) -> str | None:
        """``one``, ``few`` or ``many`` solutions hold the candidate (``many``: the cap or
        more), or ``undecided``; None when the cap (1) says nothing of how many."""
        if self.unknown[cell] >> digit & 1:
            return "undecided"
        if self.cap == 1:
            return None
        count = self.counts[cell][digit]
        return "many" if count >= self.cap else "one" if count == 1 else "few"

    def svg(self) -> str:
        """The puzzle with its true candidates (and any left undecided), each coloured by
        its tier (:data:`TINTS`): what ``sudoku-csp candidates --svg`` draws, and what a
        notebook shows.

        >>> tc = true_candidates("12.." "34.." "...." "....", cap=4)
        >>> svg = tc.svg()
        >>> svg.count('fill="#b07d00"') > 0, svg.count('fill="#c0392b"') > 0
        (True, True)
        """
        from sudoku_csp.render import Highlights, grid_svg  # noqa: PLC0415 - pictures only

        p = self.puzzle
        masks = self.masks(undecided=True)
        tints = {(cell, d): TINTS[tier] for cell, mask in enumerate(masks)
                 for d in range(p.size) if mask >> d & 1
                 for tier in (self.tier(cell, d),) if tier is not None}
        return grid_svg(p.geometry, p.givens, candidates=masks, constraints=p.constraints,
                        highlights=Highlights(tints=tints))

    def _repr_svg_(self) -> str:
        return self.svg()

    def exactly_one(self, cell: int, digit: int) -> bool:
        """Whether exactly one solution holds ``digit`` in ``cell`` (proven: its count is
        settled), so that adding it as a given makes the puzzle unique."""
        return self.counts[cell][digit] == 1 and self.cap > 1 and bool(
            self.complete or self.settled[cell] >> digit & 1)

    @property
    def status(self) -> str:
        """``none``, ``unique``, ``multiple`` or ``unknown`` (the time limit ended it before
        a second solution was found or ruled out)."""
        if not self.solutions:
            return "none" if self.complete else "unknown"
        if len(self.solutions) > 1:
            return "multiple"
        return "unique" if self.complete else "unknown"

    def differences(self) -> tuple[int, ...]:
        """The cells where the first two solutions found differ (none for fewer than two)."""
        if len(self.solutions) < 2:
            return ()
        first, second = self.solutions[:2]
        return tuple(c for c, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)

    def open_cells(self) -> tuple[int, ...]:
        """The cells with more than one true candidate."""
        return tuple(c for c in range(len(self.counts)) if len(self.candidates(c)) > 1)

    def to_json(self) -> dict[str, Any]:
        """A record: ``candidates`` maps each cell (``R1C1``…) to its true digits (shown
        values, 1-based); ``counts`` each cell to ``{digit: solutions}`` (``cap`` means
        "``cap`` or more"); ``undecided`` lists what the time limit left open."""
        g = self.puzzle.geometry
        record: dict[str, Any] = {
            "status": self.status,
            "complete": self.complete,
            "cap": self.cap,
            "candidates": {rc(g, c): [d + 1 for d in self.candidates(c)]
                           for c in range(g.ncells)},
            "counts": {rc(g, c): {str(d + 1): k for d, k in enumerate(self.counts[c]) if k}
                       for c in range(g.ncells)},
            "differences": [rc(g, c) for c in self.differences()],
            "calls": self.calls,
            "seconds": round(self.seconds, 4),
        }
        if not self.complete:
            record["undecided"] = {rc(g, c): [d + 1 for d in range(g.size) if m >> d & 1]
                                   for c, m in enumerate(self.unknown) if m}
            record["unsettled_counts"] = {
                rc(g, c): [d + 1 for d, k in enumerate(row) if k and not m >> d & 1]
                for c, (row, m) in enumerate(zip(self.counts, self.settled, strict=True))
                if any(k and not m >> d & 1 for d, k in enumerate(row))}
        return record


class _Counter:
    """The state of one true-candidate run: counts, what is settled, the solutions."""

    def __init__(self, session: PartSession, cap: int, deadline: Deadline) -> None:
        self.s = session
        self.cap = cap
        self.deadline = deadline
        g = session.geometry
        self.n = g.size
        self.counts = [[0] * g.size for _ in range(g.ncells)]
        self.exact = [0] * g.ncells       # mask: digits whose count is final
        self.solutions: list[Grid] = []
        self.selectors: list[int] = []    # each solution's exclusion selector, made lazily
        self.holders: dict[tuple[int, int], list[int]] = {}  # (cell, digit) -> solutions

    def add(self, grid: Grid) -> None:
        index = len(self.solutions)
        self.solutions.append(grid)
        self.selectors.append(0)
        for cell, d in enumerate(grid):
            self.counts[cell][d] += 1
            self.holders.setdefault((cell, d), []).append(index)

    def excluded(self, index: int) -> int:
        if not self.selectors[index]:
            self.selectors[index] = self.s.exclude(self.solutions[index])
        return self.selectors[index]

    def ask(self, extra: Sequence[int]) -> bool | None:
        """One question; a solution found is added. None: the deadline passed."""
        grid = self.s.solve(self.s.parts, extra, self.deadline)
        if grid is not None:
            self.add(grid)
            return True
        return None if self.s.timed_out else False

    def enumerate_all(self) -> bool:
        """Phase 1: True when every solution (fewer than ``cap``, or one) is found: a unique
        puzzle costs two calls whatever the cap."""
        while len(self.solutions) < max(self.cap, 2):
            answer = self.ask([self.excluded(i) for i in range(len(self.solutions))])
            if answer is None:
                return False
            if not answer:
                for cell in range(len(self.counts)):
                    self.exact[cell] = (1 << self.n) - 1
                return True
        return False

    def settle_truth(self, cell: int) -> bool:
        """Phase 2 for one cell: every digit is seen in a solution or ruled out. False when
        the deadline passed."""
        while True:
            unseen = [d for d in range(self.n)
                      if not self.counts[cell][d] and not self.exact[cell] >> d & 1]
            if not unseen:
                return True
            selector = self.s.guard([[self.s.literal(cell, d) for d in unseen]])
            answer = self.ask([selector])
            self.s.retire(selector)
            if answer is None:
                return False
            if not answer:
                for d in unseen:
                    self.exact[cell] |= 1 << d

    def settle_count(self, cell: int, digit: int) -> bool:
        """Phase 3 for one true candidate: count on to ``cap`` or to its exact count."""
        while self.counts[cell][digit] < self.cap and not self.exact[cell] >> digit & 1:
            known = [self.excluded(i) for i in self.holders.get((cell, digit), [])]
            answer = self.ask([self.s.literal(cell, digit), *known])
            if answer is None:
                return False
            if not answer:
                self.exact[cell] |= 1 << digit
        return True

    def run(self) -> bool:
        """All three phases; False when the deadline stopped them."""
        if self.enumerate_all():
            return True
        if not self.solutions:
            return not self.s.timed_out  # no solution at all (or no answer in time)
        for cell, d in enumerate(self.s.puzzle.givens):
            if d != EMPTY:  # an assumption: no solution holds another digit there
                self.exact[cell] |= ((1 << self.n) - 1) & ~(1 << d)
        cells = range(len(self.counts))
        if not all(self.settle_truth(cell) for cell in cells):
            return False
        return all(self.settle_count(cell, d) for cell in cells for d in range(self.n)
                   if self.counts[cell][d])

    def unknown(self, complete: bool) -> list[int]:
        """Per cell, the digits neither seen in a solution nor ruled out."""
        if complete:
            return [0] * len(self.counts)
        full = (1 << self.n) - 1
        return [full & ~self.exact[cell] & ~sum(1 << d for d in range(self.n) if row[d])
                for cell, row in enumerate(self.counts)]


def true_candidates(puzzle: Puzzle | str, cap: int = DEFAULT_CAP, *,
                    time_limit: Limit = None, solver: str = DEFAULT_SOLVER
                    ) -> TrueCandidates:
    """The true candidates of ``puzzle`` (see the module docstring for how), each counted
    in up to ``cap`` solutions. ``time_limit`` (seconds, or the caller's
    :class:`~sudoku_csp.deadline.Deadline`, which every solver call shares, loading the
    puzzle included) stops the run with what it settled: the result then says which
    candidates stay undecided (:attr:`TrueCandidates.unknown`).

    >>> from sudoku_csp import parse
    >>> tc = true_candidates(parse("12.." "34.." "...." "...."), cap=2)
    >>> tc.status, [len(tc.candidates(c)) for c in range(4)], tc.counts[2]
    ('multiple', [1, 1, 2, 2], (0, 0, 2, 2))
    """
    if cap < 1:
        raise InputError(f"the cap must be at least 1, not {cap}")
    puzzle = as_puzzle(puzzle)
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    try:
        loaded = PartSession(puzzle, solver=solver, deadline=deadline)
    except Expired:  # loading took all the time: nothing settled, every digit undecided
        g = puzzle.geometry
        return TrueCandidates(puzzle, cap, ((0,) * g.size,) * g.ncells,
                              ((1 << g.size) - 1,) * g.ncells, (), False, (0,) * g.ncells,
                              0, time.monotonic() - start)
    with loaded as session:
        counter = _Counter(session, cap, deadline)
        complete = counter.run()
        settled = tuple(m | sum(1 << d for d, k in enumerate(row) if k >= cap)
                        for m, row in zip(counter.exact, counter.counts, strict=True))
        return TrueCandidates(
            puzzle, cap, tuple(tuple(min(k, cap) for k in row) for row in counter.counts),
            tuple(counter.unknown(complete)), tuple(counter.solutions), complete, settled,
            session.calls, time.monotonic() - start)

