"""Making puzzles: unique, minimal, symmetric, of a difficulty, with typed constraints, or
given-free killers; and minimality, the check that every given is needed.

Everything rests on one question, asked many times against one loaded formula: *under these
givens, is there a solution other than the known one?* A :class:`UniquenessSession`
(:mod:`~sudoku_csp.generate.session`) holds one incremental PySAT solver with the empty-grid
CNF of a geometry. The known solution S is excluded once, by the clause
``¬sel ∨ ¬x(c1, S1) ∨ … ∨ ¬x(cK, SK)`` guarded by a selector ``sel``; each question is then
one ``solve(assumptions=givens + [sel])``: UNSAT means S is the only solution. A new S
retires the old selector (unit ``¬sel``), and the solver is rebuilt after ``recycle`` of them.
Typed constraints join the same way: each constraint's clauses are added once behind a
selector of its own, assumed while a question names it, and retired by
:meth:`UniquenessSession.release` when it leaves the puzzle.

The modules, one job each:

- :mod:`~sudoku_csp.generate.request`: what to make (:class:`Request`) and :func:`make`, which
  picks the generator; what ``sudoku-csp generate`` builds from its options;
- :mod:`~sudoku_csp.generate.plain`: :func:`generate`, unique puzzles with givens: a random
  complete grid (:mod:`~sudoku_csp.generate.grids`: :func:`random_grid`, a SAT solver with
  seeded random phases, digits relabelled at random), then cells cleared in random order,
  one *symmetry group* at a time (:mod:`~sudoku_csp.generate.clearing`), each clearing kept
  only while the puzzle stays unique;
- :mod:`~sudoku_csp.generate.rated`: puzzles of a :class:`Difficulty` (a tier, an ER range,
  or both), rated as :func:`sudoku_csp.logic.explain` rates them; one too hard gets givens
  back (unless it must be minimal), one out of range is moved a given at a time by a local
  search that keeps moves coming no farther from the range;
- :mod:`~sudoku_csp.generate.kinds`: :func:`generate_variants`, puzzles of the constraint
  kinds a generator reads off a grid (each kind's own hooks);
- :mod:`~sudoku_csp.generate.killer`: :func:`generate_killers`, given-free killers (cages
  reshaped until unique);
- :mod:`~sudoku_csp.generate.minimal`: :func:`minimality`, unique? and which givens are
  redundant (one solver call per given, the puzzle's typed constraints in force);
- :mod:`~sudoku_csp.generate.base`: the errors, and :func:`confirm`, the second opinion: every
  generator has an independent backend re-check each puzzle before it is yielded.

Failures: bad arguments are :class:`~sudoku_csp.errors.InputError`; giving up after
``attempts`` grids is :class:`GenerationError`, an input error too (the request may just
be too strict, or out of reach: a 4×4 has no hard puzzle); a ``check`` backend that
disagrees with the SAT session is :class:`CheckDisagreesError`, a
:class:`~sudoku_csp.errors.BackendError` (one of the two is wrong: a bug). Symmetries and
their groups of cells live in :mod:`sudoku_csp.symmetry`.

Why one greedy pass gives a minimal puzzle: a given that was kept could not be cleared at
that moment (two solutions), and clearing more givens later only adds solutions; so in the
final puzzle no given can be cleared alone. With a symmetry this holds for groups, not
single cells: ``minimal=True`` then also requires every single given to be necessary, found
by a short local search per grid and new grids when it fails.

Why a session: it answers a question several times faster than a backend deciding
uniqueness through a ``Result`` (docs/design.md: Design choices, measured); the one independent
final check per puzzle goes through a backend.

>>> from sudoku_csp import make_geometry, to_line
>>> [to_line(p) for p in generate(make_geometry(4), count=2, seed=1)] == \\
...     [to_line(p) for p in generate(make_geometry(4), count=2, seed=1)]
True
"""

from __future__ import annotations

from sudoku_csp.generate.base import (
    CheckDisagreesError,
    GenerationError,
    NoGridError,
    confirm,
)
from sudoku_csp.generate.clearing import cleared
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.generate.killer import generate_killers, random_cages
from sudoku_csp.generate.kinds import generate_variants, maker_names
from sudoku_csp.generate.minimal import Minimality, minimality
from sudoku_csp.generate.plain import DEFAULT_ATTEMPTS, DEFAULT_CHECK, generate
from sudoku_csp.generate.rated import DEFAULT_DIFFICULTY_ATTEMPTS, Difficulty
from sudoku_csp.generate.request import Request, make
from sudoku_csp.generate.session import UniquenessSession, session_for

__all__ = [
    "DEFAULT_ATTEMPTS", "DEFAULT_CHECK", "DEFAULT_DIFFICULTY_ATTEMPTS", "CheckDisagreesError",
    "Difficulty", "GenerationError", "Minimality", "NoGridError", "Request",
    "UniquenessSession", "cleared", "confirm", "generate", "generate_killers",
    "generate_variants", "make", "maker_names", "minimality", "random_cages", "random_grid",
    "session_for",
]
