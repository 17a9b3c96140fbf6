"""Unique puzzles of the other constraint kinds (thermometers, kropki dots, XV, odd/even
cells, non-consecutive): constraints read off a random solution grid, then givens cleared
and constraints dropped as far as uniqueness allows.

:func:`generate_variants` makes each puzzle in four steps:

1. *Grid*: a random complete grid (:func:`sudoku_csp.generate.random_grid`), drawn under the
   rules that bind the whole grid (non-consecutive: no two neighbours consecutive).
2. *Read the constraints off it* (each kind's own
   :meth:`~sudoku_csp.constraints.base.Constraint.read_off`): every constraint is true of
   the grid, so the grid stays a solution throughout. *Pieces* may be dropped later: every
   thermometer of a random cover of the grid by disjoint paths of increasing values (cells
   sharing a side or a corner), every kropki dot or X/V mark the grid implies, an odd or
   even mark on every cell. *Fixed* rules stay: non-consecutive, and the dots or marks
   under the negative rule (all of them are given, so none may go).
3. *Clear givens* from the full grid, a symmetry group at a time in random order, while the
   SAT session finds no second solution with every piece in force
   (:func:`sudoku_csp.generate.cleared`, the plain generator's step, which also makes a
   symmetric puzzle minimal when asked).
4. *Drop pieces* in random order while the puzzle stays unique.

Why this order: with every piece in force the fewest givens are needed, so the constraints
carry the solution; dropping pieces afterwards keeps every given necessary (fewer pieces
only add solutions), and a piece kept could not be dropped when it was tried, nor later.
So without a symmetry the result is minimal twice over: no single given and no single
piece can go.

Every question goes to the one incremental solver of
:class:`~sudoku_csp.generate.UniquenessSession`: each piece's clauses are added once behind a
selector of its own (a dot is a one-pair :class:`~sudoku_csp.constraints.Kropki`, a mark a
one-cell :class:`~sudoku_csp.constraints.Parity`), givens are assumptions, and a puzzle's
pieces are retired when it is done; only the emitted puzzle merges a kind's pieces into the
one constraint the puzzle holds. Every puzzle is re-checked by a second backend (``check``,
CP-SAT by default, as for killers) before it is yielded; puzzle ``i`` depends only on the
seed and ``i`` (the session's answers are yes or no, whatever it solved before).

Killer cages have a generator of their own (:mod:`sudoku_csp.generate.killer`): a killer
keeps no givens and reshapes its cages instead. The kinds with a maker
(:func:`sudoku_csp.constraints.makers`) and killers together cover
:data:`sudoku_csp.constraints.KINDS` (a test keeps it so).

>>> from sudoku_csp import make_geometry
>>> p = next(generate_variants(make_geometry(6), kinds=["thermo"], seed=1))
>>> [c.kind for c in p.constraints][:1], p.metadata.startswith("generated seed=1 #1: thermometer,")
(['thermometer'], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sudoku_csp.backends import get_backend
from sudoku_csp.backends.base import Backend
from sudoku_csp.constraints import Constraint, kind_named, makers
from sudoku_csp.errors import InputError
from sudoku_csp.generate.base import GenerationError, confirm
from sudoku_csp.generate.clearing import cleared
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.generate.session import UniquenessSession, session_for
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.symmetry import symmetry_groups
from sudoku_csp.variants import make_geometry

DEFAULT_VARIANT_CHECK = "cpsat"
"""The second backend that confirms each puzzle: CP-SAT handles every kind by its own
model (tables, inequalities), and the native solver can search long on puzzles with few
givens."""
DEFAULT_VARIANT_ATTEMPTS = 20
"""Grids tried per puzzle before :class:`~sudoku_csp.generate.GenerationError` (only a
request such as ``max_givens`` or a symmetric ``minimal`` puzzle can fail on a grid)."""
DEFAULT_NEGATIVE = True
"""Kropki dots and XV marks are generated under the negative rule unless asked otherwise:
every dot the grid implies is then given, and their absence tells as much as they do."""


def maker_names(kinds: Sequence[str]) -> list[str]:
    """The names (:func:`~sudoku_csp.constraints.makers`) of the kinds ``kinds`` name (each a
    kind's name, alias or f-puzzles key: :func:`~sudoku_csp.constraints.kind_named`), in
    registry order, each once; :class:`InputError` naming the choices for one that is no
    kind a generator reads off a grid, or for none.

    >>> maker_names(["Parity", "thermometer", "thermo", "littlekillersum"])
    ['thermometer', 'parity', 'little-killer']
    """
    known = makers()
    asked = {kind_named(text, known.values(), "kind to generate") for text in kinds}
    if not asked:
        raise InputError(f"no constraint kind to generate: choose from {', '.join(known)}")
    return [name for name, kind in known.items() if kind in asked]


# -- one puzzle -----------------------------------------------------------------------------------
def _drop(givens: Sequence[int], grid: Grid, fixed: Sequence[Constraint],
          pieces: Sequence[Constraint], rng: random.Random, session: UniquenessSession
          ) -> set[Constraint]:
    """The pieces left when each, in random order, is dropped while ``givens``, ``fixed``
    and the pieces still kept leave ``grid`` the only solution."""
    kept = list(pieces)
    order = list(pieces)
    rng.shuffle(order)
    for piece in order:
        trial = [p for p in kept if p != piece]
        if not session.has_other(givens, grid, [*fixed, *trial]):
            kept = trial
    return set(kept)


@dataclass(frozen=True)
class _Dressed:
    """One unique puzzle over a grid: its givens and each maker's merged constraints."""

    givens: tuple[int, ...]
    constraints: list[tuple[str, list[Constraint]]]


def _dress(geometry: Geometry, grid: Grid, names: Sequence[str], rng: random.Random,
           session: UniquenessSession, groups: list[tuple[int, ...]], negative: bool,
           single_minimal: bool, max_givens: int | None) -> _Dressed | None:
    """The puzzle of steps 2-4 of the module notes over ``grid``, or None when it keeps
    more than ``max_givens`` givens or cannot be made minimal (``single_minimal``)."""
    kinds = makers()
    read = {name: kinds[name].read_off(geometry, grid, rng, negative) for name in names}
    fixed = [c for f, _ in read.values() for c in f]
    pieces = [c for _, p in read.values() for c in p]
    everything = [*fixed, *pieces]
    try:
        givens = cleared(grid, groups, rng, session, single_minimal, everything)
        if givens is None or (max_givens is not None
                              and sum(d != EMPTY for d in givens) > max_givens):
            return None
        kept = _drop(givens, grid, fixed, pieces, rng, session)
    finally:
        session.release(everything)  # the next grid reads other pieces
    return _Dressed(tuple(givens), [
        (name, kinds[name].merge([*f, *(c for c in p if c in kept)]))
        for name, (f, p) in read.items()])


QUERY_CONFLICTS = 5_000
"""The conflicts one uniqueness question of the variant generator may take (0.02-0.1 s of
CaDiCaL): with long sums and few givens left (little killers on 9x9) single questions took
from one to a hundred seconds. One left open keeps the given or piece asked about (see
:meth:`~sudoku_csp.generate.session.UniquenessSession.has_other`)."""


# -- the generator --------------------------------------------------------------------------------
def generate_variants(geometry: Geometry | None = None, *, kinds: Sequence[str],
                      count: int = 1, seed: int = 0, negative: bool = DEFAULT_NEGATIVE,
                      symmetry: str = "none", minimal: bool = False,
                      max_givens: int | None = None,
                      check: str | Backend = DEFAULT_VARIANT_CHECK,
                      solver: str = DEFAULT_SOLVER,
                      attempts: int = DEFAULT_VARIANT_ATTEMPTS) -> Iterator[Puzzle]:
    """``count`` unique puzzles of ``geometry`` (default 9×9) carrying constraints of
    ``kinds`` (maker names, :func:`~sudoku_csp.constraints.makers`; several combine),
    yielded one at a time (see the
    module notes for the method).

    - ``seed``: same seed (and version) → same puzzles; puzzle ``i`` depends only on the
      seed and ``i``.
    - ``negative``: kropki dots and XV marks under the negative rule (every one the grid
      implies is given; none is dropped). Off, each dot or mark is a piece dropped while
      the puzzle stays unique.
    - ``symmetry``, ``minimal``: as for :func:`sudoku_csp.generate.generate`, on the
      givens. Without a symmetry every puzzle is minimal anyway: no single given and no
      single piece (thermometer, dot, mark, odd/even cell) can go.
    - ``max_givens``: only puzzles with at most this many givens (0: given-free); grids
      that leave more are drawn again.
    - ``attempts``: grids tried per puzzle before :class:`GenerationError` (a bound on
      work, not time: the same seed gives the same puzzles or the same error anywhere).
    - ``check``: the backend (or its spec) that confirms each puzzle has exactly the one
      solution; ``solver``: the PySAT solver of the session.

    Bad arguments are :class:`~sudoku_csp.errors.InputError`, a geometry with no grid
    keeping the kinds' rules :class:`~sudoku_csp.generate.NoGridError`. Each puzzle's
    ``metadata`` records its seed, index, kinds, givens and constraints.

    >>> p = next(generate_variants(make_geometry(4), kinds=["kropki"], seed=3))
    >>> p.metadata    # doctest: +ELLIPSIS
    'generated seed=3 #1: kropki, ... givens, ... white and ... black dots, negative, minimal'
    >>> next(generate_variants(make_geometry(4), kinds=["parity"], max_givens=0,
    ...                        attempts=2))   # swapping 1 and 3 keeps every parity
    Traceback (most recent call last):
    sudoku_csp.generate.base.GenerationError: no unique parity puzzle with at most 0 givens ...
    """
    geometry = geometry if geometry is not None else make_geometry(9)
    names = maker_names(kinds)
    if count < 0:
        raise InputError("count must be at least 0")
    if attempts < 1:
        raise InputError("attempts must be at least 1")
    if max_givens is not None and max_givens < 0:
        raise InputError("max_givens must be at least 0")
    groups = symmetry_groups(geometry, symmetry)
    checker = get_backend(check) if isinstance(check, str) else check  # bad spec: now
    session = session_for(geometry, solver)
    made_by = makers()
    rules = [c for name in names for c in made_by[name].grid_rule()]
    single_minimal = minimal and symmetry != "none"
    # No "+" or "|" in metadata: a file reader takes a first line holding one for a row of
    # a boxed grid.
    label = " and ".join(names)

    def puzzles() -> Iterator[Puzzle]:
        master = random.Random(seed)
        for index in range(count):
            rng = random.Random(master.getrandbits(64))
            for _ in range(attempts):
                grid = random_grid(geometry, rng.getrandbits(31), constraints=rules)
                with session.budgeted(QUERY_CONFLICTS):
                    dressed = _dress(geometry, grid, names, rng, session, groups, negative,
                                     single_minimal, max_givens)
                if dressed is not None:
                    break
            else:
                raise _failure(label, max_givens, single_minimal, attempts)
            clues = sum(d != EMPTY for d in dressed.givens)
            parts = [label, f"{clues} given{'' if clues == 1 else 's'}",
                     *(made_by[name].made(made) for name, made in dressed.constraints),
                     *([symmetry] if symmetry != "none" else []),
                     *(["minimal"] if minimal or symmetry == "none" else [])]
            note = f"generated seed={seed} #{index + 1}: " + ", ".join(filter(None, parts))
            constraints = tuple(c for _, made in dressed.constraints for c in made)
            puzzle = Puzzle(geometry, dressed.givens, note, constraints)
            confirm(puzzle, grid, checker)
            yield puzzle

    return puzzles()


def _failure(label: str, max_givens: int | None, single_minimal: bool,
             attempts: int) -> GenerationError:
    wanted = [*([f"at most {max_givens} givens"] if max_givens is not None else []),
              *(["every given necessary"] if single_minimal else [])]
    return GenerationError(
        f"no unique {label} puzzle with {' and '.join(wanted)} found in {attempts} "
        f"grid{'s' if attempts > 1 else ''}; allow more givens, another kind or symmetry, "
        "or more attempts")
