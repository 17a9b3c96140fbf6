"""What makes a puzzle with several solutions unique: givens to add.

A given ``cell = digit`` added alone makes the puzzle unique exactly when one solution holds
that digit there: the true candidates counted to two (:func:`true_candidates` with
``cap=2``) name every such given at once, and the solution each leads to is among the ones
found on the way. When no single given does, a set is built greedily towards one solution
(the setter's, with ``keep``; else the first found), a greedy cover of the other solutions:
each round adds that solution's digit in the cell that rules out most of the other
solutions met so far, then asks for one more under the givens so far, until there is none;
then every added given that the others make needless is dropped again.
The mirror tool, which asks which givens a unique puzzle can lose, is
:func:`sudoku_csp.generate.minimal.minimality` (the ``minimal`` command).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_csp.constraints.fields import rc
from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import as_puzzle
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.setter.candidates import TrueCandidates, true_candidates
from sudoku_csp.setter.session import PartSession, given_name
from sudoku_csp.verify import violations

Given = tuple[int, int]
"""A given to add: (cell, digit), both 0-based."""

SAMPLE = 16
"""Other solutions drawn per round while a set of givens is built: the given that rules out
most of them is added."""

@dataclass(frozen=True)
class Disambiguation:
    """What to add to ``puzzle`` to make it unique.

    ``singles``: the givens that alone make it unique (every one when :attr:`complete`;
    those proven so far when the time limit stopped the search), those that keep ``keep``
    (the setter's solution, when given) first, then in cell order; ``leads_to[i]`` is the
    solution ``singles[i]`` leaves. ``found_set``: when no single given does (or, with
    ``keep``, none keeps it), a set of givens that does, found greedily towards ``keep`` or
    the first solution found (not proven smallest; each of its givens needed when
    ``set_minimal``); empty otherwise. ``candidates``: the true candidates the answer rests
    on (the first two solutions found, and where they differ). ``complete``: the time limit
    left nothing out.

    >>> from sudoku_csp import parse
    >>> d = disambiguate(parse("12.." "34.." "...." "...."))
    >>> d.status, d.named(d.singles)[:4]
    ('multiple', [])
    >>> d.named(d.found_set), d.set_minimal
    (['R3C3=1', 'R4C4=4'], True)
    """

    puzzle: Puzzle
    candidates: TrueCandidates
    singles: tuple[Given, ...] = ()
    leads_to: tuple[Grid, ...] = ()
    keep: Grid | None = None
    found_set: tuple[Given, ...] = ()
    set_minimal: bool = False
    complete: bool = True
    seconds: float = 0.0

    @property
    def status(self) -> str:
        return self.candidates.status

    def named(self, givens: Sequence[Given]) -> list[str]:
        """Givens as setters write them: ``R4C7=3``."""
        return [given_name(self.puzzle, cell, d) for cell, d in givens]

    def keeps(self, given: Given) -> bool:
        """Whether a single given leaves the setter's solution (``keep``)."""
        return self.keep is not None and self.leads_to[self.singles.index(given)] == self.keep

    @property
    def keeping(self) -> tuple[Given, ...]:
        """The single givens that keep the setter's solution."""
        return tuple(s for s, leads in zip(self.singles, self.leads_to, strict=True)
                     if self.keep is not None and leads == self.keep)

    def to_json(self) -> dict[str, Any]:
        """The record: ``status``, ``singles`` (``R4C7=3``…), ``keeping`` (those of them
        that keep the setter's solution, with ``--keep``), ``set`` and ``set_minimal``
        (when no single given does), ``differences`` (cells where the first two solutions
        differ), ``open_cells`` (how many cells have more than one true candidate),
        ``complete``."""
        g = self.puzzle.geometry
        record: dict[str, Any] = {
            "status": self.status,
            "singles": self.named(self.singles),
            "set": self.named(self.found_set),
            "set_minimal": self.set_minimal,
            "differences": [rc(g, c) for c in self.candidates.differences()],
            "open_cells": len(self.candidates.open_cells()),
            "complete": self.complete,
            "seconds": round(self.seconds, 4),
        }
        if self.keep is not None:
            record["keeping"] = self.named(self.keeping)
        return record


def _ranked(singles: list[Given], leads_to: list[Grid], keep: Grid | None
            ) -> tuple[tuple[Given, ...], tuple[Grid, ...]]:
    order = sorted(range(len(singles)),
                   key=lambda i: (keep is None or leads_to[i] != keep, singles[i]))
    return tuple(singles[i] for i in order), tuple(leads_to[i] for i in order)


def disambiguate(puzzle: Puzzle | str, *, keep: Sequence[int] | None = None,
                 time_limit: Limit = None, solver: str = DEFAULT_SOLVER
                 ) -> Disambiguation:
    """The givens that make ``puzzle`` unique (see the module docstring). ``keep``: the
    setter's solution (a full grid of digits ``0..N-1``), which must solve the puzzle: the
    givens that keep it are ranked first, and a set is built towards it. ``time_limit``
    (seconds, or the caller's :class:`~sudoku_csp.deadline.Deadline`) bounds the whole
    search: the true candidates and the set built after them share it.

    A puzzle that is already unique, or has no solution, is returned with nothing to add
    (see :attr:`Disambiguation.status`).
    """
    puzzle = as_puzzle(puzzle)
    start = time.monotonic()
    deadline = Deadline.of(time_limit)

    target: Grid | None = None
    if keep is not None:
        target = tuple(keep)
        broken = violations(puzzle, target)
        if broken:
            raise InputError(f"the solution to keep does not solve the puzzle: {broken[0]}")
    tc = true_candidates(puzzle, cap=2, time_limit=deadline, solver=solver)
    if tc.status != "multiple":
        return Disambiguation(puzzle, tc, keep=target, complete=tc.complete,
                              seconds=time.monotonic() - start)
    singles, leads_to = [], []
    for cell, row in enumerate(tc.counts):
        for d in range(len(row)):
            # Only a proven count of one: a count the time limit cut short may grow.
            if tc.exactly_one(cell, d) and puzzle.givens[cell] != d:
                singles.append((cell, d))
                leads_to.append(next(s for s in tc.solutions if s[cell] == d))
    ranked, leading = _ranked(singles, leads_to, target)
    kept = target is not None and target in leading
    if not tc.complete or (ranked and (target is None or kept)):
        return Disambiguation(puzzle, tc, ranked, leading, target, complete=tc.complete,
                              seconds=time.monotonic() - start)
    found, minimal, complete = _greedy_set(puzzle, target or tc.solutions[0], deadline, solver)
    return Disambiguation(puzzle, tc, ranked, leading, target, found, minimal, complete,
                          time.monotonic() - start)


def _greedy_set(puzzle: Puzzle, target: Grid, deadline: Deadline, solver: str
                ) -> tuple[tuple[Given, ...], bool, bool]:
    """Givens from ``target`` that leave it the only solution: (givens, each needed,
    finished in time); nothing when the time ran out before a set was found.

    A greedy cover: each round enumerates up to :data:`SAMPLE` other solutions under the
    givens so far and adds the target's digit in the cell that rules out most of them,
    until no other solution is left; then each given the others make needless is dropped."""
    try:
        loaded = PartSession(puzzle, solver=solver, deadline=deadline)
    except Expired:
        return (), False, False
    with loaded as session:
        others = session.exclude(target)

        def another(givens: Sequence[Given], also: Sequence[int] = ()) -> Grid | None:
            """A solution other than the target under ``givens`` (None: none, or the time
            ran out: ``session.timed_out``)."""
            extra = [session.literal(c, d) for c, d in givens]
            return session.solve(session.parts, [*extra, others, *also], deadline)

        added: list[Given] = []
        while True:
            sample: list[Grid] = []
            met: list[int] = []  # the exclusion selectors of the sample so far
            while len(sample) < SAMPLE:
                grid = another(added, met)
                if grid is None:
                    break
                sample.append(grid)
                met.append(session.exclude(grid))
            if session.timed_out:
                return (), False, False
            if not sample:
                break
            taken = {c for c, _ in added}
            cell = max((c for c in range(len(target)) if c not in taken),
                       key=lambda c: (sum(s[c] != target[c] for s in sample), -c))
            added.append((cell, target[cell]))
        for given in list(reversed(added)):  # the first chosen cut the most: try last first
            rest = [g for g in added if g != given]
            if another(rest) is None:
                if session.timed_out:
                    return tuple(sorted(added)), False, False
                added = rest
        return tuple(sorted(added)), True, True
