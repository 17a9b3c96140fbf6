"""Producing a certificate: the formula F of a puzzle and its witness, the proof-logging
solve that refutes it, and the three files (see :mod:`sudoku_csp.certify`)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sudoku_csp.backends.sat import SatBackend
from sudoku_csp.constraints import encoding_choices
from sudoku_csp.deadline import NEVER, Deadline, Expired, Limit
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import as_puzzle, format_line, parse, to_line
from sudoku_csp.modeling.variables import variables
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.satsolver import capabilities, load, solve_until
from sudoku_csp.variants import geometry_record
from sudoku_csp.verify import violations

FORMAT = "sudoku_csp uniqueness certificate 1"
MANIFEST = "certificate.json"
FORMULA = "formula.cnf"
PROOF = "proof.drup"

PROOF_SOLVERS: tuple[str, ...] = (
    "cadical195", "cadical153", "cadical103", "cadical300", "glucose4", "glucose42",
    "glucose3", "gluecard4", "gluecard3", "lingeling", "maplechrono", "maplecm", "ergo",
)
"""PySAT solvers whose ``with_proof=True`` proofs this package's checker accepts (tried
with python-sat 1.9.dev17 on every top95 puzzle). ``cadical195`` is the default, the
fastest to produce a certificate (docs/design.md: Design choices, measured). Its proofs hold about
600 lemmas, mostly units it derived by propagation; the Glucose family writes about 18
lemmas (easier to read) but is slower to produce."""

DEFAULT_PROOF_SOLVER = "cadical195"
"""The proof-logging solver used unless told otherwise (see :data:`PROOF_SOLVERS`)."""


def proof_solver(name: str) -> str:
    """The canonical name of a solver of :data:`PROOF_SOLVERS` (PySAT aliases such as
    ``cd19`` or ``g4`` accepted), or :class:`~sudoku_csp.errors.InputError` listing them.

    >>> proof_solver("g4"), proof_solver("CaDiCaL195")
    ('glucose4', 'cadical195')
    """
    # pysat.solvers (its C extension) is loaded on use: the CLI imports this module at start
    # for PROOF_SOLVERS and the default, the same reason the other imports below are local.
    from pysat.solvers import SolverNames

    key = name.strip().lower()
    for canonical in PROOF_SOLVERS:
        if key == canonical or key in getattr(SolverNames, canonical, ()):
            return canonical
    # Checked by name, not by trying: PySAT solvers that refuse with_proof raise from their
    # constructor and then fail again in __del__ (an unraisable-exception warning).
    raise InputError(f"solver {name!r} cannot log proofs that this checker accepts; choose "
                     f"from {', '.join(PROOF_SOLVERS)}")


class NotUniqueError(InputError):
    """The puzzle has no solution (``status`` NONE) or several (MULTIPLE, ``solutions``
    holding two of them): there is nothing to certify. An input error: the puzzle given
    cannot be certified (the CLI reports its status instead)."""

    def __init__(self, message: str, status: Status, solutions: tuple[Grid, ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.solutions = solutions


# -- the formula -------------------------------------------------------------------------------
def exclusion_clause(puzzle: Puzzle, solution: Sequence[int]) -> list[int]:
    """"Some open cell differs from ``solution``": ``¬x(c, solution[c])`` for every cell that
    is not a given (a given cell's literal is false by its unit clause anyway); the variable
    map's :meth:`~sudoku_csp.modeling.variables.Variables.exclusion`.

    >>> from sudoku_csp import parse
    >>> exclusion_clause(parse("3.1...4.2......."), [2, 3, 0, 1] + [0] * 12)[:2]
    [-8, -14]
    """
    return variables(puzzle.geometry).exclusion(solution, puzzle.givens)


def certificate_formula(puzzle: Puzzle, solution: Sequence[int],
                        encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                        options: cnf.Options = None, *, deadline: Deadline = NEVER
                        ) -> tuple[int, list[tuple[int, ...]]]:
    """``(variables, clauses)`` of F: the empty-grid encoding, the givens as unit clauses,
    the clauses of the puzzle's typed constraints (killer cages, …, written with the kinds'
    encoding ``options``, auxiliaries numbered after the formula's), then the exclusion clause
    of ``solution`` (:func:`~sudoku_csp.encodings.cnf.encode` of the puzzle, plus that
    clause). The same list is written to ``formula.cnf``. Its clauses are the cached
    formula's own tuples, not copies (the empty 35×35 grid has 2.9 million).
    """
    built, nv = cnf.puzzle_clauses(puzzle, encoding, amo, options, deadline=deadline)
    clauses = [tuple(clause) for clause in built]  # a tuple stays itself: no copy
    clauses.append(tuple(exclusion_clause(puzzle, solution)))
    return nv, clauses


def _formula_dimacs(puzzle: Puzzle, solution: Sequence[int], encoding: str, amo: str,
                    options: cnf.Options = None) -> str:
    from sudoku_csp.encodings.dimacs import encode_puzzle_dimacs

    excl = exclusion_clause(puzzle, solution)
    note = (f"c exclusion: the last clause excludes the solution "
            f"{format_line(puzzle.geometry, solution)} ({len(excl)} open cells)")
    return encode_puzzle_dimacs(puzzle, encoding, amo, extra_clauses=[excl], notes=[note],
                                options=options)


# -- producing a certificate -------------------------------------------------------------------
@dataclass(frozen=True)
class Certificate:
    """A written certificate: where it is, what it proves, and how long it took."""

    directory: Path
    puzzle: Puzzle
    solution: Grid
    solver: str
    encoding: str
    amo: str
    variables: int
    clauses: int
    lemmas: int
    seconds: float


def _witness(puzzle: Puzzle, deadline: Deadline) -> Grid:
    # A backend of its own, closed after: its solver would otherwise stay loaded beside the
    # proof solver (two copies of a 35x35 formula).
    backend = SatBackend()
    try:
        result = backend.solve(puzzle, limit=1, time_limit=deadline)
    finally:
        backend.close()
    if result.status is Status.UNKNOWN:
        raise Expired(f"{deadline.words()} reached while looking for the solution")
    if result.solution is None:
        raise NotUniqueError(f"no solution: {result.message or result.status}", Status.NONE)
    return result.solution


def prove(puzzle: Puzzle, *, solver: str = DEFAULT_PROOF_SOLVER,
          encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
          solution: Sequence[int] | None = None, options: cnf.Options = None,
          time_limit: Limit = None) -> tuple[Grid, int, list[tuple[int, ...]], list[str]]:
    """Find the witness (or take ``solution``) and refute F with a proof-logging solver.

    Returns ``(solution, variables, clauses of F, proof lines)``. Raises
    :class:`NotUniqueError` when the puzzle has no solution or a second one,
    :class:`~sudoku_csp.errors.InputError` for a solver that cannot log proofs or a wrong
    ``solution``, :class:`~sudoku_csp.deadline.Expired` when ``time_limit`` (seconds, or
    the caller's :class:`~sudoku_csp.deadline.Deadline`) passes first, the solvers stopped
    inside their calls.

    >>> from sudoku_csp import parse
    >>> sol, nv, clauses, proof = prove(parse("3.1...4.2......."))
    >>> from sudoku_csp.rup import check_proof
    >>> nv, len(clauses), check_proof(nv, clauses, proof).ok
    (64, 453, True)
    """
    from pysat.solvers import NoSuchSolverError

    solver = proof_solver(solver)
    deadline = Deadline.of(time_limit)
    if solution is None:
        solution = _witness(puzzle, deadline)
    solution = tuple(solution)
    problems = violations(puzzle, solution)
    if problems:
        raise InputError(f"the given solution is wrong: {problems[0]}")
    nv, clauses = certificate_formula(puzzle, solution, encoding, amo, options,
                                      deadline=deadline)
    try:
        sat_solver = load(solver, clauses, with_proof=True, deadline=deadline)
    except (NotImplementedError, NoSuchSolverError) as exc:
        raise InputError(f"solver {solver!r} cannot log proofs here: {exc}") from None
    try:
        answer = solve_until(sat_solver, capabilities(solver), [], deadline)
        if answer is None:  # stopped: never to be read as "no other solution"
            raise Expired(f"{deadline.words()} reached while proving the solution unique")
        if answer:
            other = variables(puzzle.geometry).read_model(sat_solver.get_model())
            raise NotUniqueError("the puzzle has more than one solution", Status.MULTIPLE,
                                 (solution, other))
        proof = list(sat_solver.get_proof() or [])
    finally:
        sat_solver.delete()
    return solution, nv, clauses, proof


def certify(puzzle: Puzzle | str, directory: str | os.PathLike, *,
            solver: str = DEFAULT_PROOF_SOLVER, encoding: str = DEFAULT_ENCODING,
            amo: str = DEFAULT_AMO,
            solution: Sequence[int] | None = None, options: cnf.Options = None,
            time_limit: Limit = None) -> Certificate:
    """Write a uniqueness certificate for ``puzzle`` (a :class:`Puzzle` or its text) into
    ``directory`` (created if needed; its three files are overwritten).

    ``solver`` must be one of :data:`PROOF_SOLVERS`; ``encoding`` and ``amo`` choose the
    CNF (:mod:`sudoku_csp.encodings.cnf`), ``options`` the constraint kinds' encoding options
    (``{"sums": "bdd"}``: how killer cage sums are written; the manifest records every one
    for puzzles with typed constraints). ``solution`` skips the search
    for the witness. Raises :class:`NotUniqueError` when the puzzle is not unique, and
    :class:`~sudoku_csp.deadline.Expired` when ``time_limit`` (seconds, or a
    :class:`~sudoku_csp.deadline.Deadline`) passes before the proof is made: nothing is
    written then.
    """
    start = time.perf_counter()
    puzzle = as_puzzle(puzzle)
    # The manifest holds the puzzle as its one line, which the checker reads back (a killer's
    # cages in the line's order, whatever order they came in): the formula is derived from
    # that reading, so the checker derives the very formula that was proved.
    puzzle = parse(to_line(puzzle), geometry=puzzle.geometry)
    solver = proof_solver(solver)
    chosen = encoding_choices(options)  # checked even where no constraint uses them
    solution, nv, clauses, proof = prove(puzzle, solver=solver, encoding=encoding, amo=amo,
                                         solution=solution, options=options,
                                         time_limit=time_limit)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    g = puzzle.geometry
    lemmas = sum(1 for line in proof if not line.startswith("d"))
    manifest = {
        "format": FORMAT,
        "puzzle": to_line(puzzle),
        "geometry": geometry_record(g),
        "solution": format_line(g, solution),
        "encoding": str(encoding),
        "amo": amo,
        **(chosen if puzzle.constraints else {}),
        "solver": solver,
        "formula": FORMULA,
        "proof": PROOF,
        "variables": nv,
        "clauses": len(clauses),
        "lemmas": lemmas,
        "claim": "the formula (encoding + givens + constraints + exclusion of the solution) "
                 "is unsatisfiable, so the solution is the puzzle's only one",
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (folder / FORMULA).write_text(_formula_dimacs(puzzle, solution, str(encoding), amo, options),
                                  encoding="utf-8", newline="\n")
    (folder / PROOF).write_text("".join(line + "\n" for line in proof), encoding="utf-8",
                                newline="\n")
    return Certificate(folder, puzzle, solution, solver, str(encoding), amo, nv, len(clauses),
                       lemmas, time.perf_counter() - start)
