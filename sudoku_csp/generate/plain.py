"""Unique puzzles with givens: random grids cleared greedily, symmetric and minimal when
asked, of a difficulty when asked (:mod:`sudoku_csp.generate.rated`)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from sudoku_csp.backends import get_backend
from sudoku_csp.backends.base import Backend
from sudoku_csp.errors import InputError
from sudoku_csp.generate.base import GenerationError, confirm
from sudoku_csp.generate.clearing import cleared
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.generate.rated import DEFAULT_DIFFICULTY_ATTEMPTS, Difficulty, rating_note, targeted
from sudoku_csp.generate.session import UniquenessSession, session_for
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.logic.explain import Rating
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.symmetry import symmetry_groups
from sudoku_csp.variants import make_geometry

DEFAULT_CHECK = "native"
"""The second backend that confirms each plain puzzle."""
DEFAULT_ATTEMPTS = 200
"""Grids tried per puzzle before :class:`~sudoku_csp.generate.base.GenerationError`."""


def generate(geometry: Geometry | None = None, *, count: int = 1, seed: int = 0,
             symmetry: str = "none", minimal: bool = False,
             difficulty: Difficulty | str | None = None,
             check: str | Backend = DEFAULT_CHECK,
             solver: str = DEFAULT_SOLVER, attempts: int | None = None
             ) -> Iterator[Puzzle]:
    """``count`` unique puzzles of ``geometry`` (default 9×9), yielded one at a time.

    - ``seed``: same seed (and same version) → same puzzles; puzzle ``i`` depends only on
      the seed and ``i``, so a longer run starts with the puzzles of a shorter one.
    - ``symmetry``: a name from :data:`sudoku_csp.symmetry.SYMMETRIES`; GeometryError
      (raised here, before any puzzle) if it does not map the geometry onto itself.
    - ``minimal``: every given necessary. Without a symmetry every generated puzzle is
      minimal anyway (see the module notes). With one, ``minimal=False`` gives puzzles
      where no *group* can be cleared; ``minimal=True`` searches for a symmetric puzzle
      whose every single given is necessary, over at most ``attempts`` grids
      (GenerationError after that; rot90 is the slowest symmetry).
    - ``difficulty``: a :class:`Difficulty` (or a tier name): only puzzles that
      :func:`sudoku_csp.logic.explain` rates in it. For each grid, the greedy clearing
      gives a candidate; when it is too hard and ``minimal`` is False, givens are put back
      (the puzzle is then not minimal); while it is out of range, a local search moves a
      given at a time (:data:`CLIMB_STEPS` moves), keeping moves that come no farther from
      the range. Without an upper bound on ER every candidate is fully rated (slow for a
      very hard one, far more on 16×16 and tight variants); with one, the techniques
      above it are never tried, so too hard candidates cost little (docs/design.md: Design
      choices, measured).
    - ``attempts``: grids tried per puzzle before :class:`GenerationError` (default
      :data:`DEFAULT_ATTEMPTS`, or :data:`DEFAULT_DIFFICULTY_ATTEMPTS` with a difficulty):
      a bound on work, not time, so that the same seed gives the same puzzles or the same
      error on every machine.
    - ``check``: the backend (or its spec) that confirms uniqueness (``limit=2``) and the
      solution before a puzzle is yielded; ``solver``: the PySAT solver of the session.

    Each puzzle's ``metadata`` records its seed, index, clue count and options, and with a
    difficulty its rating (``ER 4.4 hard``; ``needs search`` when logic cannot finish it).

    >>> from sudoku_csp.symmetry import is_symmetric
    >>> p = next(generate(seed=3, symmetry="rot180"))
    >>> p.clue_count < 40, is_symmetric(p, "rot180")
    (True, True)
    >>> from sudoku_csp.logic import explain
    >>> p = next(generate(seed=1, difficulty="medium", minimal=True))
    >>> explain(p).rating.tier, p.metadata.endswith(" medium")
    ('medium', True)
    """
    geometry = geometry if geometry is not None else make_geometry(9)
    if count < 0:
        raise InputError("count must be at least 0")
    target = Difficulty(difficulty) if isinstance(difficulty, str) else difficulty
    if attempts is None:
        attempts = DEFAULT_ATTEMPTS if target is None else DEFAULT_DIFFICULTY_ATTEMPTS
    if attempts < 1:
        raise InputError("attempts must be at least 1")
    groups = symmetry_groups(geometry, symmetry)
    # A bad spec fails here, not after the first puzzle.
    checker = get_backend(check) if isinstance(check, str) else check
    session = session_for(geometry, solver)

    single_minimal = minimal and symmetry != "none"

    def puzzles() -> Iterator[Puzzle]:
        master = random.Random(seed)
        for index in range(count):
            rng = random.Random(master.getrandbits(64))
            rating: Rating | None = None
            is_minimal = minimal or symmetry == "none"
            if target is None:
                givens, grid = _one(geometry, groups, rng, session, single_minimal, attempts)
            else:
                givens, grid, rating, eased = targeted(geometry, groups, rng, session, target,
                                                        minimal, single_minimal, attempts)
                is_minimal = is_minimal and not eased
            clues = sum(d != EMPTY for d in givens)
            note = (f"generated seed={seed} #{index + 1}: {clues} clues"
                    + (f", {symmetry}" if symmetry != "none" else "")
                    + (", minimal" if is_minimal else "")
                    + (f", {rating_note(rating)}" if rating is not None else ""))
            puzzle = Puzzle(geometry, givens, note)
            confirm(puzzle, grid, checker)
            yield puzzle

    return puzzles()


def _one(geometry: Geometry, groups: list[tuple[int, ...]], rng: random.Random,
         session: UniquenessSession, single_minimal: bool, attempts: int
         ) -> tuple[Grid, Grid]:
    """The givens and solution of one unique puzzle (cleared greedily, group by group)."""
    for _ in range(attempts):
        grid = random_grid(geometry, rng.getrandbits(31))
        givens = cleared(grid, groups, rng, session, single_minimal)
        if givens is None:
            continue
        return tuple(givens), grid
    raise GenerationError(f"no {'minimal ' if single_minimal else ''}unique puzzle found in "
                          f"{attempts} attempts; try another symmetry, minimal=False (then "
                          "no symmetry group can be cleared, though single givens may), "
                          "or more attempts")
