"""Step-by-step explanations and the difficulty rating.

:func:`explain` applies, again and again, the simplest technique that makes progress (the
order of :data:`~sudoku_csp.logic.techniques.TECHNIQUES`) until the grid is full or nothing
applies; it never guesses. :func:`hint` is its first step.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from sudoku_csp.constraints.wording import counted
from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.errors import BackendError, InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import as_puzzle
from sudoku_csp.logic.board import Board, Contradiction
from sudoku_csp.logic.constraints import check_constraints
from sudoku_csp.logic.step import Step
from sudoku_csp.logic.techniques import TECHNIQUES, Technique
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status

__all__ = ["TIERS", "Explanation", "Rating", "TechniqueError", "explain", "hint", "tier_of"]

NO_SOLUTION = "the puzzle has no solution"
"""How ``Explanation.stuck`` begins when the puzzle has no solution."""

NOT_UNIQUE = "the puzzle has more than one solution"
"""How ``Explanation.stuck`` begins for a puzzle with several solutions: no step is made,
since no technique can force what the puzzle leaves open."""

VERDICT_SOLVER = "sat"
"""The backend that decides a puzzle's verdict before it is explained (counting to two
solutions: quick at every size, typed constraints included)."""

TIME_LIMIT = "time limit"
"""How ``Explanation.stuck`` begins when ``explain``'s time limit ended it."""

UNDECIDED = "whether the puzzle has one solution was not decided"
"""How ``Explanation.stuck`` ends when the verdict is unknown: no step is made, since a step
reads as progress on a sound puzzle, and this one may have no solution or several."""


class TechniqueError(BackendError):
    """A technique reached a contradiction on a puzzle counted to have one solution: a bug
    in a technique (or in the count), never the puzzle's fault."""


TIERS: tuple[tuple[str, float], ...] = (
    ("easy", 2.3),
    ("medium", 4.0),
    ("hard", 5.6),
    ("fiendish", 7.5),
    ("diabolical", float("inf")),
)
"""Tier names and the highest rating (ER) of each: singles only; locked candidates, pairs,
triples and basic fish; wings, unique rectangles, quads, jellyfish and BUG; chains, static
forcing chains and Nishio; then everything beyond, and puzzles these techniques cannot
finish."""


def tier_of(rating: float | None) -> str:
    """The tier of a puzzle's ER (``diabolical`` when the techniques do not finish it).

    >>> tier_of(1.5), tier_of(3.2), tier_of(7.2), tier_of(None)
    ('easy', 'medium', 'fiendish', 'diabolical')
    """
    if rating is None:
        return "diabolical"
    return next(name for name, top in TIERS if rating <= top)


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty, as Sudoku Explainer's ``serate`` reports it and more.

    ``er``: the hardest step's rating; ``ep``: the hardest rating up to and including the
    first placement; ``ed``: the first step's rating (all ``None`` if there is no step).
    ``needs_search``: the techniques could not finish the grid (``er`` is then the hardest
    rating reached, and the tier ``diabolical``); ``None`` with the tier ``unknown`` when a
    time limit stopped the explanation first. A puzzle without exactly one solution is not
    rated: the tier is ``not unique`` or ``no solution``, ``needs_search`` ``None``.
    ``techniques``: how often each was used. ``hardest``: the technique of the step that
    set ``er`` (the first one rated so), ``hardest_step`` its number (from 1), ``hardest_text``
    its words: what a setter reads to see why the puzzle is as hard as it is.
    """

    er: float | None
    ep: float | None
    ed: float | None
    tier: str
    needs_search: bool | None
    techniques: dict[str, int]
    hardest: str | None = None
    hardest_step: int | None = None
    hardest_text: str | None = None

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Explanation:
    """The steps that solve a puzzle (as far as the techniques go).

    ``verdict`` is decided first, by counting solutions to two (:data:`VERDICT_SOLVER`):
    ``unique``, ``multiple``, ``none``, or ``unknown`` when the time limit came first. Only
    a ``unique`` puzzle gets steps: one with several solutions, none, or an unknown verdict
    gets none, and ``stuck`` says why (:data:`NOT_UNIQUE`, :data:`NO_SOLUTION`, or the time
    limit and :data:`UNDECIDED`). ``candidates[i]`` are the pencil marks (one
    bitmask per cell) before ``steps[i]``; ``grid`` is the final grid (``EMPTY`` where
    unsolved); ``stuck`` says why it stopped short (not unique, no solution, no technique
    applies), ``None`` when solved. ``uniqueness`` says whether uniqueness techniques were
    allowed (only on puzzles found to have one solution). ``witnesses``: for a puzzle with
    several solutions, the two (verified) solutions the count found.

    >>> from sudoku_csp import parse
    >>> e = explain(parse("1..." "..1." ".1.." "...1"))   # four solutions
    >>> e.verdict.value, e.solved, len(e.steps), e.stuck
    ('multiple', False, 0, 'the puzzle has more than one solution')
    """

    puzzle: Puzzle
    steps: tuple[Step, ...]
    candidates: tuple[tuple[int, ...], ...]
    grid: Grid
    stuck: str | None
    uniqueness: bool
    verdict: Status = Status.UNIQUE
    witnesses: tuple[Grid, ...] = ()

    @property
    def solved(self) -> bool:
        return self.stuck is None

    @property
    def timed_out(self) -> bool:
        """The time limit ended the explanation before the techniques did."""
        return self.stuck is not None and self.stuck.startswith(TIME_LIMIT)

    @property
    def no_solution(self) -> bool:
        """The puzzle has no solution (and so no explanation)."""
        return self.verdict is Status.NONE

    def __repr__(self) -> str:
        """The verdict, how it ended and the rating, in words.

        >>> explain("3.1...4.2.......")
        <Explanation of a 4x4 puzzle (unique): 12 steps, solved, ER 1.2 easy>
        """
        ended = "solved" if self.solved else f"stopped: {self.stuck}"
        rating = self.rating
        rated = f", ER {rating.er:.1f} {rating.tier}" if rating.er is not None else ""
        return (f"<Explanation of a {self.puzzle.geometry.name} puzzle ({self.verdict.value}): "
                f"{counted(len(self.steps), 'step')}, {ended}{rated}>")

    @property
    def not_unique(self) -> bool:
        """The puzzle has more than one solution (and so no explanation)."""
        return self.verdict is Status.MULTIPLE

    @property
    def rating(self) -> Rating:
        if self.verdict in (Status.MULTIPLE, Status.NONE):
            return Rating(None, None, None, "not unique" if self.not_unique else "no solution",
                          None, {})
        unknown = self.timed_out or self.verdict is Status.UNKNOWN
        ratings = [s.rating for s in self.steps]
        first_place = next((i for i, s in enumerate(self.steps) if s.placements), None)
        top = ratings.index(max(ratings)) if ratings else None
        return Rating(
            er=max(ratings, default=None),
            ep=max(ratings[: first_place + 1]) if first_place is not None else None,
            ed=ratings[0] if ratings else None,
            tier=("unknown" if unknown
                  else tier_of(max(ratings, default=0.0) if self.solved else None)),
            needs_search=None if unknown else not self.solved,
            techniques=dict(Counter(s.technique for s in self.steps)),
            hardest=self.steps[top].technique if top is not None else None,
            hardest_step=top + 1 if top is not None else None,
            hardest_text=self.steps[top].text if top is not None else None,
        )

    def lines(self) -> list[str]:
        """One line per step, then how it ended."""
        out = [s.text for s in self.steps]
        out.append("Solved." if self.solved else f"Stopped: {self.stuck}.")
        return out

    def _repr_html_(self) -> str:
        from sudoku_csp.logic.html import explanation_html

        return explanation_html(self, standalone=False)


def _ladder(uniqueness: bool, techniques: Iterable[str] | None) -> list[Technique]:
    chosen = TECHNIQUES.values() if techniques is None else [TECHNIQUES[k] for k in techniques]
    return [t for t in chosen if uniqueness or not t.uniqueness]


def next_step(board: Board, ladder: list[Technique]) -> Step | None:
    """The simplest step the ladder finds on ``board``, rated; None if none applies."""
    for technique in ladder:
        board.check_time()
        step = technique.find(board)
        if step is not None:
            return dataclasses.replace(step, rating=technique.rate(step))
    return None


def verdict_of(puzzle: Puzzle, time_limit: Limit = None) -> Result:
    """The puzzle's verdict, counting to two solutions with :data:`VERDICT_SOLVER` (each
    solution checked against the rules, as every backend's is)."""
    from sudoku_csp.backends import get_backend

    return get_backend(VERDICT_SOLVER).solve(puzzle, limit=2, time_limit=time_limit)


def explain(puzzle: Puzzle | str, *, uniqueness: bool = True,
            techniques: Iterable[str] | None = None, max_steps: int | None = None,
            time_limit: Limit = None) -> Explanation:
    """Explain ``puzzle`` (a :class:`Puzzle` or its text) step by step.

    The verdict comes first, whatever ``max_steps`` says: steps are made only on a puzzle
    counted to have exactly one solution (see :class:`Explanation`). ``uniqueness``: allow
    unique rectangles and BUG+1. ``techniques``: keys of :data:`TECHNIQUES` to use
    (default: all). ``max_steps``: stop after that many steps. ``time_limit``: stop
    (``timed_out``) once that many seconds have passed (or at the caller's
    :class:`~sudoku_csp.deadline.Deadline`), for the verdict and the steps together; a
    technique still searching then (a forcing chain on a large grid) is cut short and its
    step not made. :class:`TechniqueError` if a technique contradicts a puzzle counted to
    have a solution (a bug).

    >>> from sudoku_csp import parse
    >>> e = explain(parse("3.1...4.2......."))
    >>> e.lines()[0], e.rating.tier
    ('Hidden single: 4 in box 1 → A2', 'easy')
    """
    puzzle = as_puzzle(puzzle)
    techniques = list(techniques) if techniques is not None else None
    unknown = sorted(set(techniques or ()) - TECHNIQUES.keys())
    if unknown:
        raise InputError(f"unknown techniques {', '.join(unknown)}: choose from "
                         f"{', '.join(TECHNIQUES)}")
    deadline = Deadline.of(time_limit)
    found = verdict_of(puzzle, deadline)
    verdict = found.status
    # Only a puzzle known to have one solution gets steps, whatever max_steps says: on one
    # with none every "deduction" holds vacuously, and one with several cannot be forced.
    if verdict is Status.MULTIPLE:
        return Explanation(puzzle, (), (), puzzle.givens, NOT_UNIQUE, False, verdict,
                           found.solutions)
    if verdict is Status.NONE:
        return Explanation(puzzle, (), (), puzzle.givens, _no_solution(puzzle), False,
                           verdict)
    if verdict is not Status.UNIQUE:
        return Explanation(puzzle, (), (), puzzle.givens, _undecided(deadline), False,
                           verdict)
    # Typed constraints (a cage, a dot) can forbid the swap uniqueness techniques rely on.
    allowed = uniqueness and not puzzle.constraints
    ladder = _ladder(allowed, techniques)
    steps: list[Step] = []
    before: list[tuple[int, ...]] = []
    stuck: str | None = None
    try:
        board = Board.from_puzzle(puzzle)
        board.deadline = deadline
        board.check()
        while not board.solved:
            if max_steps is not None and len(steps) >= max_steps:
                stuck = f"stopped after {counted(max_steps, 'step')}"
                break
            try:
                board.check_time()
                step = next_step(board, ladder)
            except Expired:
                stuck = f"{deadline.words()} reached"
                break
            if step is None:
                stuck = "no technique applies (the rest needs search)"
                break
            before.append(tuple(board.cand))
            steps.append(step)
            board.apply(step)
        if board.solved:  # a full grid may still break a cage no step looked at
            check_constraints(board)
        grid = board.state.grid()
    except Contradiction as exc:
        # The count found exactly one solution, so a sound technique cannot get here.
        raise TechniqueError(f"the techniques reached a contradiction on a puzzle with one "
                             f"solution ({exc}); after: "
                             f"{', '.join(s.text for s in steps) or 'no step'}") from exc
    return Explanation(puzzle, tuple(steps), tuple(before), grid, stuck, allowed, verdict)


def _no_solution(puzzle: Puzzle) -> str:
    """Why a puzzle counted to have no solution is not explained: the clash of its givens
    when they clash (cheap to show), else only that it has none."""
    try:
        Board.from_puzzle(puzzle).check()
    except Contradiction as exc:
        return f"{NO_SOLUTION}: {exc}"
    return NO_SOLUTION


def _undecided(deadline: Deadline) -> str:
    """Why a puzzle whose verdict the count could not decide gets no step."""
    if not deadline.limited:
        return f"{UNDECIDED} (the solver gave no answer)"
    return f"{deadline.words()} reached; {UNDECIDED}"


def hint(puzzle: Puzzle | str, *, uniqueness: bool = True,
         techniques: Iterable[str] | None = None) -> Step | None:
    """The next step of :func:`explain`, or None when the puzzle is solved, stuck, or not
    known to have exactly one solution (``explain(..., max_steps=1)`` says which).

    >>> hint("3.1...4.2.......").text
    'Hidden single: 4 in box 1 → A2'
    >>> hint("12.." "...." "..3." "..4.") is None   # no solution: no step
    True
    """
    steps = explain(puzzle, uniqueness=uniqueness, techniques=techniques, max_steps=1).steps
    return steps[0] if steps else None
