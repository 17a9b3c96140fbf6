"""Puzzles of a chosen difficulty: the target (:class:`Difficulty`), where a candidate stands
against it (rated as :func:`sudoku_csp.logic.explain` rates it), and the local search that
moves a candidate into range."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_csp.errors import InputError
from sudoku_csp.generate.base import GenerationError
from sudoku_csp.generate.clearing import clear_groups, move, repair
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.generate.session import UniquenessSession
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.logic import TECHNIQUES, TIERS, Explanation, Rating, explain
from sudoku_csp.puzzle import Puzzle

DEFAULT_DIFFICULTY_ATTEMPTS = 20
"""Grids tried per puzzle of a difficulty (each searched locally) before giving up."""
CLIMB_STEPS = 40
"""Moves of the local search per grid when a puzzle of a given difficulty is wanted."""


@dataclass(frozen=True)
class Difficulty:
    """The ratings a generated puzzle may have: a tier of :data:`sudoku_csp.logic.TIERS`,
    a range of ER (the rating of :func:`sudoku_csp.logic.explain`, Sudoku Explainer's
    scale), or both (then both must hold).

    - ``tier``: from just above the previous tier's highest ER to the tier's own highest
      (the first tier has no lower bound, the last no upper bound).
    - ``min_rating``, ``max_rating``: ER ≥ min, ER ≤ max.
    - ``allow_search``: also accept puzzles the techniques cannot finish. They have no
      final ER and count as harder than every rating: without this flag no target accepts
      them, not even the last tier (so ``diabolical`` means "the hardest tier, and logic
      finishes it"); with it only a target with no upper bound may be asked for.

    Bad values are :class:`~sudoku_csp.errors.InputError`: an unknown tier (the message
    lists the tiers), a minimum above the maximum, a tier and a range with no rating in
    common, ``allow_search`` with an upper bound.

    >>> Difficulty(min_rating=6.0, max_rating=7.2).describe()
    '6.0 ≤ ER ≤ 7.2'
    >>> Difficulty("easy", min_rating=1.5).describe().startswith("easy (1.5 ≤ ER ≤ ")
    True
    >>> Difficulty("hardest")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    sudoku_csp.errors.InputError: unknown difficulty 'hardest': choose from easy, medium, ...
    """

    tier: str | None = None
    min_rating: float | None = None
    max_rating: float | None = None
    allow_search: bool = False

    def __post_init__(self) -> None:
        names = [name for name, _ in TIERS]
        if self.tier is not None and self.tier not in names:
            raise InputError(f"unknown difficulty {self.tier!r}: choose from {', '.join(names)}")
        for label, value in (("minimum", self.min_rating), ("maximum", self.max_rating)):
            if value is not None and math.isnan(value):
                raise InputError(f"the {label} rating must be a number, not {value}")
        if (self.min_rating is not None and self.max_rating is not None
                and self.min_rating > self.max_rating):
            raise InputError(f"the minimum rating {self.min_rating} is above the maximum "
                             f"{self.max_rating}")
        low, low_open, high = self.bounds()
        if low > high or (low == high and low_open):
            raise InputError(f"no rating is both {self.tier} and in the range asked "
                             f"({self._range(self._range_bounds())}): the tier's ratings are "
                             f"{self._range(self._tier_bounds())}")
        if self.allow_search and high < math.inf:
            asked = self._range(self.bounds())
            raise InputError("puzzles that need search count as harder than every rating: "
                             "allowing them needs a target with no upper bound (asked: "
                             f"{f'{self.tier}, ' if self.tier else ''}{asked})")

    def _tier_bounds(self) -> tuple[float, bool, float]:
        if self.tier is None:
            return -math.inf, False, math.inf
        index = [name for name, _ in TIERS].index(self.tier)
        low = TIERS[index - 1][1] if index else -math.inf
        return low, bool(index), TIERS[index][1]

    def _range_bounds(self) -> tuple[float, bool, float]:
        return (-math.inf if self.min_rating is None else float(self.min_rating), False,
                math.inf if self.max_rating is None else float(self.max_rating))

    def bounds(self) -> tuple[float, bool, float]:
        """``(low, low_open, high)``: the accepted ER are above ``low`` (or equal to it when
        not ``low_open``) and at most ``high``; infinite where there is no bound."""
        low, low_open, high = self._tier_bounds()
        min_low, _, max_high = self._range_bounds()
        if min_low > low:
            low, low_open = min_low, False
        return low, low_open, min(high, max_high)

    @staticmethod
    def _range(bounds: tuple[float, bool, float]) -> str:
        low, low_open, high = bounds
        sign = "<" if low_open else "≤"
        if low > -math.inf and high < math.inf:
            return f"{low} {sign} ER ≤ {high}"
        if low > -math.inf:
            return f"ER {'>' if low_open else '≥'} {low}"
        return f"ER ≤ {high}" if high < math.inf else "any ER"

    def describe(self) -> str:
        """The accepted ratings in words, as messages and help show them."""
        text = self._range(self.bounds())
        if self.allow_search:
            text += ", or needing search"
        return f"{self.tier} ({text})" if self.tier is not None else text

    def accepts(self, rating: Rating) -> bool:
        """Whether a puzzle with this :class:`~sudoku_csp.logic.Rating` is wanted."""
        if rating.needs_search:
            return self.allow_search
        low, low_open, high = self.bounds()
        er = rating.er if rating.er is not None else 0.0  # no step: a full grid, easiest
        return (er > low if low_open else er >= low) and er <= high


_INSIDE, _BELOW, _ABOVE = 0, 1, 2


@dataclass(frozen=True)
class _Rated:
    """A candidate's place against the target. ``miss`` is ``(_INSIDE, 0, 0)``, or
    ``(_BELOW, how far below in ER, minus the sum of all step ratings)``, or ``(_ABOVE,
    cells the techniques left open, ER over the top)``; on one side, smaller is closer.
    ``rating`` is the explainer's full rating, None when the quick check alone showed the
    puzzle too hard."""

    miss: tuple[int, float, float]
    rating: Rating | None

    @property
    def inside(self) -> bool:
        return self.miss[0] == _INSIDE

    def closer_than(self, other: _Rated) -> bool:
        """Inside, or at most as far as ``other`` on the same side (equal moves are taken:
        they let the local search cross plateaus)."""
        return self.inside or (self.miss[0] == other.miss[0] and self.miss <= other.miss)


def _open_cells(explanation: Explanation) -> int:
    return sum(d == EMPTY for d in explanation.grid)


def _assess(puzzle: Puzzle, target: Difficulty) -> _Rated:
    """Where ``puzzle`` (unique) stands against ``target``, rated as ``explain`` rates it."""
    low, _, high = target.bounds()
    if high < math.inf:
        # No step of an accepted explanation uses a technique rated above the range, so the
        # ladder without them gives the same verdict, and stops early on a puzzle that is
        # too hard instead of running forcing chains for seconds: each step the full ladder
        # takes in an accepted puzzle is the first of these that applies.
        keys = [key for key, t in TECHNIQUES.items() if t.rating <= high]
        quick = explain(puzzle, techniques=keys)
        er = quick.rating.er or 0.0
        if not quick.solved or er > high:
            return _Rated((_ABOVE, _open_cells(quick), max(er - high, 0.0)), None)
        # When those techniques are the first of the ladder, the full explainer takes the
        # very same steps; otherwise one it skipped may come first: explain again.
        full = quick if keys == list(TECHNIQUES)[: len(keys)] else explain(puzzle)
    else:
        full = explain(puzzle)
    rating = full.rating
    if target.accepts(rating):
        return _Rated((_INSIDE, 0.0, 0.0), rating)
    er = rating.er or 0.0
    if rating.needs_search or er > high:
        return _Rated((_ABOVE, _open_cells(full), max(er - high, 0.0)), rating)
    # Below: first the ER, then the total work (more and harder steps) tells neighbours
    # apart, so that the search climbs plateaus of equal ER towards harder puzzles.
    return _Rated((_BELOW, low - er, -sum(step.rating for step in full.steps)), rating)


@dataclass
class _Candidate:
    """A unique puzzle under consideration; ``eased`` when givens were put back to make it
    easier (then it is not minimal)."""

    givens: list[int]
    rated: _Rated
    eased: bool = False


class _Search:
    """The search for puzzles of one difficulty on one geometry (see :func:`generate`)."""

    def __init__(self, geometry: Geometry, groups: list[tuple[int, ...]],
                 session: UniquenessSession, target: Difficulty, minimal: bool,
                 single_minimal: bool) -> None:
        self.geometry, self.groups, self.session = geometry, groups, session
        self.target, self.minimal, self.single_minimal = target, minimal, single_minimal
        self.rated = 0
        self.hardest: float | None = None  # the highest ER seen below the range
        self.too_hard = 0

    def assess(self, givens: Sequence[int]) -> _Rated:
        rated = _assess(Puzzle(self.geometry, tuple(givens)), self.target)
        self.rated += 1
        if rated.miss[0] == _BELOW and rated.rating is not None:
            er = rated.rating.er or 0.0
            self.hardest = er if self.hardest is None else max(self.hardest, er)
        elif rated.miss[0] == _ABOVE:
            self.too_hard += 1
        return rated

    def settle(self, givens: list[int], before: list[int], cleared: list[tuple[int, ...]]
               ) -> _Candidate:
        """Rate ``givens`` (``before`` with the groups ``cleared`` cleared in that order);
        if too hard and minimality is not required, put cleared groups back, the last
        cleared first, to the fewest givens that are not too hard. Every such state is
        unique (it came up while clearing). A binary search over how many groups stay
        cleared: fewer givens rarely make a puzzle easier, and the result is rated anyway."""
        rated = self.assess(givens)
        if rated.miss[0] != _ABOVE or self.minimal:
            return _Candidate(givens, rated)
        best: _Candidate | None = None
        low, high = 0, len(cleared)  # ``before`` plus cleared[:high] is too hard
        while low < high:
            middle = (low + high) // 2
            trial = list(before)
            for group in cleared[:middle]:
                for cell in group:
                    trial[cell] = EMPTY
            found = self.assess(trial)
            if found.miss[0] == _ABOVE:
                high = middle
            else:
                best, low = _Candidate(trial, found, eased=True), middle + 1
        return best if best is not None else _Candidate(givens, rated)

    def one(self, grid: Grid, rng: random.Random) -> _Candidate | None:
        """A puzzle of ``grid`` in range, or None: a greedy clearing, then a local search
        of :data:`CLIMB_STEPS` moves (:func:`move`, each kept when it comes no farther
        from the range)."""
        order = list(self.groups)
        rng.shuffle(order)
        givens = list(grid)
        cleared = clear_groups(givens, grid, order, self.session)
        if self.single_minimal and not repair(givens, grid, self.groups, rng, self.session):
            return None
        current = self.settle(givens, list(grid), cleared)
        for _ in range(CLIMB_STEPS):
            if current.rated.inside:
                return current
            given_groups = [g for g in self.groups if current.givens[g[0]] != EMPTY]
            moved = move(current.givens, grid, self.groups, rng.choice(given_groups), rng,
                          self.session)
            if moved is None or (self.single_minimal and not repair(
                    moved.givens, grid, self.groups, rng, self.session)):
                continue
            trial = self.settle(moved.givens, moved.before, moved.cleared)
            if trial.rated.closer_than(current.rated):
                current = trial
        return current if current.rated.inside else None

    def failure(self, attempts: int) -> GenerationError:
        seen = (f", the hardest at ER {self.hardest}" if self.hardest is not None else "") + (
            f", {self.too_hard} too hard" if self.too_hard else "")
        minimal = " or no minimality" if self.minimal else ""
        return GenerationError(
            f"no {'minimal ' if self.minimal else ''}puzzle rated {self.target.describe()} "
            f"found in {attempts} grid{'s' if attempts > 1 else ''} ({self.rated} candidates "
            f"rated{seen}); try more attempts, a wider range{minimal}, or another size or "
            "variant")


def rating_note(rating: Rating) -> str:
    """How a generated puzzle's metadata states its rating."""
    return "needs search" if rating.needs_search else f"ER {rating.er or 0.0} {rating.tier}"




def targeted(geometry: Geometry, groups: list[tuple[int, ...]], rng: random.Random,
              session: UniquenessSession, target: Difficulty, minimal: bool,
              single_minimal: bool, attempts: int) -> tuple[Grid, Grid, Rating, bool]:
    """The givens, solution and rating of one unique puzzle rated in ``target``, and
    whether givens were put back (then it is not minimal)."""
    search = _Search(geometry, groups, session, target, minimal, single_minimal)
    for _ in range(attempts):
        grid = random_grid(geometry, rng.getrandbits(31))
        found = search.one(grid, rng)
        if found is None:
            continue
        # The search may take the word of the explainer without the techniques above the
        # range (see _assess); what is yielded carries the full explainer's own rating.
        rating = explain(Puzzle(geometry, tuple(found.givens))).rating
        if target.accepts(rating):
            return tuple(found.givens), grid, rating, found.eased
    raise search.failure(attempts)
