"""Solve, count and study Sudoku puzzles with three independent solvers.

Where to start
--------------
**One puzzle.** :func:`parse` reads puzzle text (one line of symbols with ``.`` for blanks,
a drawn grid, numbers, a killer line or a JSON object; the size is inferred) into a
:class:`Puzzle`, and :func:`to_line` writes it back; every format lives in
:mod:`sudoku_csp.io`. :func:`solve` looks
for one solution, :func:`count` for two, which decides uniqueness. Both return a
:class:`Result` whose every solution was checked by :mod:`sudoku_csp.verify`, which trusts
no solver. Variants and jigsaws: :func:`make_geometry` (also ``parse(text, variants=...)``).

>>> import sudoku_csp
>>> puzzle = sudoku_csp.parse("3.1...4.2.......")
>>> sudoku_csp.format_line(puzzle.geometry, sudoku_csp.solve(puzzle).solution)
'3412124321344321'
>>> sudoku_csp.count(puzzle).status
<Status.UNIQUE: 'unique'>

**Solvers.** The second argument is a *spec*: a backend and its options, ``native``
(propagation and search), ``sat`` (a CNF solved by PySAT) or ``cpsat`` (OR-Tools CP-SAT),
as in ``"sat:solver=glucose4,encoding=minimal"``; the default, ``auto``
(:data:`DEFAULT_SPEC`), tries the native solver for a few search nodes, then SAT, and
names the one that decided in ``result.stats["winner"]``. :func:`get_backend`
returns the configured backend, built once per process; ``sudoku-csp solvers`` lists every
option.

>>> sudoku_csp.count(puzzle, "cpsat:model=boolean").status
<Status.UNIQUE: 'unique'>
>>> sudoku_csp.get_backend("sat:encoding=minimal,solver=glucose4").spec
'sat:solver=glucose4,encoding=minimal'

**Encodings, for research.** :mod:`sudoku_csp.encodings.cnf` holds the clause families and
named encodings (``encode(geometry)`` gives a PySAT CNF, ``givens(puzzle)`` the literals to
assume); :mod:`sudoku_csp.encodings.cpsat` builds CP-SAT models to extend. They build and
never solve.

>>> from sudoku_csp.encodings import cnf, cpsat
>>> cnf.build(puzzle.geometry, "minimal").counts
{'cell_alo': 16, 'unit_amo': 288, 'pair_differ': 0}
>>> cpsat.build_model(puzzle, "alldiff")
<CpSatModel alldiff 4x4: 16 variables, 12 constraints>

**Many puzzles.** :func:`sudoku_csp.batch.run_batch` runs several specs on a stream of
puzzles (in worker processes or on a Dask cluster) and compares their verdicts;
:func:`sudoku_csp.crosscheck.crosscheck` does the same for one puzzle.
:mod:`sudoku_csp.datasets` opens the puzzle sets bundled with the package.

>>> sudoku_csp.datasets.names()
['mixed9', 'sixteen']
>>> from sudoku_csp.batch import run_batch
>>> sixteen = sudoku_csp.datasets.load("sixteen")[:1]
>>> [(str(o.verdict), o.agreed) for o in run_batch(sixteen, ["native", "sat"])]
[('unique', True)]

**Certificates.** :func:`sudoku_csp.certify.certify` writes a proof that a puzzle is unique
(the solution, the CNF, a DRUP proof) and :func:`sudoku_csp.certify.verify_certificate`
checks it with this package's own proof checker (:mod:`sudoku_csp.rup`), no solver trusted.
:mod:`sudoku_csp.generate` makes new unique, minimal or symmetric puzzles.

**Setters.** :func:`true_candidates` says which digits some solution puts in each cell (and
in how many), :func:`minimal_conflict` which givens and constraints cannot hold together
when there is no solution, :func:`disambiguate` which givens make a puzzle unique
(:mod:`sudoku_csp.setter`).

>>> tc = sudoku_csp.true_candidates("12..34..........", cap=2)
>>> tc.status, tc.to_json()["candidates"]["R1C3"]
('multiple', [3, 4])

Errors the caller can fix derive from :class:`InputError` (a ``ValueError``), failures
inside a solver from :class:`BackendError`. The command line is ``sudoku-csp --help``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The names below are loaded when first used (PEP 562), so that importing the package, or
# one light module of it, loads nothing heavy: the command line owns Ctrl-C from its first
# line (sudoku_csp.__main__) and starts without the solvers it will not run.
_EXPORTS = {
    "sudoku_csp": ("datasets", "io"),
    "sudoku_csp.backends": ("Backend", "get_backend", "make_backend"),
    "sudoku_csp.backends.registry": ("DEFAULT_SPEC",),
    "sudoku_csp.batch": ("read_records",),
    "sudoku_csp.canon": ("canonical", "equivalent"),
    "sudoku_csp.deadline": ("Deadline",),
    "sudoku_csp.errors": ("BackendError", "InputError", "ParseError", "SpecError"),
    "sudoku_csp.geometry": ("EMPTY", "Geometry", "GeometryError", "Unit"),
    "sudoku_csp.io": ("format_grid", "format_line", "parse", "read_puzzles", "to_grid",
                      "to_line"),
    "sudoku_csp.puzzle": ("InvalidPuzzleError", "Puzzle"),
    "sudoku_csp.result": ("Result", "Status"),
    "sudoku_csp.setter": ("disambiguate", "minimal_conflict", "true_candidates"),
    "sudoku_csp.variants": ("VARIANTS", "make_geometry"),
    "sudoku_csp.verify": ("WrongSolutionError", "is_solution", "violations"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

if TYPE_CHECKING:  # the same names, for type checkers (tests/test_packaging.py compares)
    from sudoku_csp import datasets, io
    from sudoku_csp.backends import Backend, get_backend, make_backend
    from sudoku_csp.backends.registry import DEFAULT_SPEC
    from sudoku_csp.batch import read_records
    from sudoku_csp.canon import canonical, equivalent
    from sudoku_csp.deadline import Deadline
    from sudoku_csp.errors import BackendError, InputError, ParseError, SpecError
    from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, Unit
    from sudoku_csp.io import format_grid, format_line, parse, read_puzzles, to_grid, to_line
    from sudoku_csp.puzzle import InvalidPuzzleError, Puzzle
    from sudoku_csp.result import Result, Status
    from sudoku_csp.setter import disambiguate, minimal_conflict, true_candidates
    from sudoku_csp.variants import VARIANTS, make_geometry
    from sudoku_csp.verify import WrongSolutionError, is_solution, violations


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku_csp' has no attribute {name!r}")
    value = (importlib.import_module(f"sudoku_csp.{name}") if module == "sudoku_csp"
             else getattr(importlib.import_module(module), name))
    globals()[name] = value  # once: later look-ups are plain attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


__version__ = "0.1.0"


def solve(puzzle: Puzzle | str, solver: str | None = None, *, limit: int | None = 1,
          time_limit: float | Deadline | None = None) -> Result:
    """Solve ``puzzle`` (a Puzzle or puzzle text) with the backend named by ``solver``
    (default :data:`DEFAULT_SPEC`).

    ``limit`` solutions are looked for: 1 solves, 2 decides uniqueness, ``None`` counts all.
    ``time_limit``: seconds, or a :class:`Deadline` shared with the caller's other work.

    >>> result = solve("3.1...4.2.......", "sat")
    >>> result.solver, len(result.solutions)
    ('sat', 1)
    """
    from sudoku_csp.backends import get_backend
    from sudoku_csp.backends.registry import DEFAULT_SPEC
    from sudoku_csp.io import as_puzzle

    return get_backend(solver or DEFAULT_SPEC).solve(as_puzzle(puzzle), limit=limit,
                                                     time_limit=time_limit)


def count(puzzle: Puzzle | str, solver: str | None = None, *, limit: int | None = 2,
          time_limit: float | Deadline | None = None) -> Result:
    """Decide uniqueness (``limit=2``): status UNIQUE, MULTIPLE, NONE or UNKNOWN.

    >>> count("1..." "..1." ".1.." "...1").status
    <Status.MULTIPLE: 'multiple'>
    """
    return solve(puzzle, solver, limit=limit, time_limit=time_limit)


__all__ = [
    "DEFAULT_SPEC",
    "EMPTY",
    "VARIANTS",
    "Backend",
    "BackendError",
    "Deadline",
    "Geometry",
    "GeometryError",
    "InputError",
    "InvalidPuzzleError",
    "ParseError",
    "Puzzle",
    "Result",
    "SpecError",
    "Status",
    "Unit",
    "WrongSolutionError",
    "canonical",
    "count",
    "datasets",
    "disambiguate",
    "equivalent",
    "format_grid",
    "format_line",
    "get_backend",
    "io",
    "is_solution",
    "make_backend",
    "make_geometry",
    "minimal_conflict",
    "parse",
    "read_puzzles",
    "read_records",
    "solve",
    "to_grid",
    "to_line",
    "true_candidates",
    "violations",
]
