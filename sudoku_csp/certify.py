"""Uniqueness certificates: a witness solution plus a DRUP proof that it is the only one.

A puzzle is *unique* when it has a solution S and the formula

    F = encoding of the empty grid  +  one unit clause per given  +  (¬S over the open cells)

is unsatisfiable: the last clause says "some open cell differs from S". :func:`certify` finds
S, asks a proof-logging PySAT solver to refute F, and writes a *certificate directory*:

=====================  =================================================================
``certificate.json``   the puzzle, its geometry (size, box, variants, regions), the
                       solution, the encoding, the solver and a few counts
``formula.cnf``        F in DIMACS (header as written by :mod:`sudoku_csp.encodings.dimacs`)
``proof.drup``         the solver's DRUP proof (text: one lemma per line, ``d`` deletions)
=====================  =================================================================

:func:`verify_certificate` trusts none of it. It rebuilds the geometry and F from the
puzzle and the witness (so a tampered ``formula.cnf`` is caught by comparison, and the proof
is checked against the derived F, never the file), checks the witness with
:func:`~sudoku_csp.verify.is_solution`, and checks every lemma by *reverse unit
propagation* with :mod:`sudoku_csp.rup`, which shares no code with any solver.

Solvers that log proofs in python-sat 1.9.dev17 (each tried on real certificates and
checked here): :data:`PROOF_SOLVERS`. Kissat, MiniSat 2.2, MiniSat-EP, Minicard and
MergeSat refuse ``with_proof``; MapleSAT logs a proof whose variables are shifted by one
(every variable ``v`` written as ``v+1``), which no checker accepts.

>>> import tempfile
>>> from sudoku_csp import parse
>>> p = parse("3.1...4.2.......")
>>> with tempfile.TemporaryDirectory() as d:
...     cert = certify(p, d)
...     verify_certificate(d).ok
True

Roads not taken: binary DRAT (smaller, but not readable and no faster to parse in Python).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_csp.backends import get_backend
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.encodings.variables import variables
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import GeometryError, Grid
from sudoku_csp.puzzle import ParseError, Puzzle, format_line, parse
from sudoku_csp.result import Status
from sudoku_csp.rup import check_proof
from sudoku_csp.satsolver import capabilities, solve_until
from sudoku_csp.variants import geometry_from_record, geometry_record
from sudoku_csp.verify import violations

FORMAT = "sudoku_csp uniqueness certificate 1"
MANIFEST = "certificate.json"
FORMULA = "formula.cnf"
PROOF = "proof.drup"

PROOF_SOLVERS: tuple[str, ...] = (
    "cadical195", "cadical153", "cadical103", "cadical300", "glucose4", "glucose42",
    "glucose3", "gluecard4", "gluecard3", "lingeling", "maplechrono", "maplecm", "ergo",
)
"""PySAT solvers whose ``with_proof=True`` proofs this module's checker accepts (measured
with python-sat 1.9.dev17 on every top95 puzzle). ``cadical195`` is the default: on the
``extended`` encoding a top95 certificate takes it about 13 ms to produce and 16 ms to
check. Its proofs hold about 600 lemmas, mostly units it derived by propagation; the
Glucose family writes about 18 lemmas (easier to read) but is slower to produce."""

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
    map's :meth:`~sudoku_csp.encodings.variables.Variables.exclusion`.

    >>> exclusion_clause(parse("3.1...4.2......."), [2, 3, 0, 1] + [0] * 12)[:2]
    [-8, -14]
    """
    return variables(puzzle.geometry).exclusion(solution, puzzle.givens)


def certificate_formula(puzzle: Puzzle, solution: Sequence[int],
                        encoding: str = DEFAULT_ENCODING,
                        amo: str = DEFAULT_AMO) -> tuple[int, list[tuple[int, ...]]]:
    """``(variables, clauses)`` of F: the empty-grid encoding, the givens as unit clauses,
    then the exclusion clause of ``solution``. The same list is written to ``formula.cnf``.
    """
    formula = cnf.build(puzzle.geometry, encoding, amo)
    clauses = list(formula.clauses)
    clauses.extend((lit,) for lit in cnf.givens(puzzle))
    clauses.append(tuple(exclusion_clause(puzzle, solution)))
    return formula.nv, clauses


def _formula_dimacs(puzzle: Puzzle, solution: Sequence[int], encoding: str, amo: str) -> str:
    from sudoku_csp.encodings.dimacs import encode_puzzle_dimacs

    excl = exclusion_clause(puzzle, solution)
    note = (f"c exclusion: the last clause excludes the solution "
            f"{format_line(puzzle.geometry, solution)} ({len(excl)} open cells)")
    return encode_puzzle_dimacs(puzzle, encoding, amo, extra_clauses=[excl], notes=[note])


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


def _witness(puzzle: Puzzle) -> Grid:
    result = get_backend("sat").solve(puzzle, limit=1)
    if result.solution is None:
        raise NotUniqueError(f"no solution: {result.message or result.status}", Status.NONE)
    return result.solution


def prove(puzzle: Puzzle, *, solver: str = DEFAULT_PROOF_SOLVER,
          encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
          solution: Sequence[int] | None = None
          ) -> tuple[Grid, int, list[tuple[int, ...]], list[str]]:
    """Find the witness (or take ``solution``) and refute F with a proof-logging solver.

    Returns ``(solution, variables, clauses of F, proof lines)``. Raises
    :class:`NotUniqueError` when the puzzle has no solution or a second one,
    :class:`~sudoku_csp.errors.InputError` for a solver that cannot log proofs or a wrong
    ``solution``.

    >>> sol, nv, clauses, proof = prove(parse("3.1...4.2......."))
    >>> nv, len(clauses), check_proof(nv, clauses, proof).ok
    (64, 453, True)
    """
    from pysat.solvers import NoSuchSolverError, Solver

    solver = proof_solver(solver)
    if solution is None:
        solution = _witness(puzzle)
    solution = tuple(solution)
    problems = violations(puzzle, solution)
    if problems:
        raise InputError(f"the given solution is wrong: {problems[0]}")
    nv, clauses = certificate_formula(puzzle, solution, encoding, amo)
    try:
        sat_solver = Solver(name=solver, bootstrap_with=clauses, with_proof=True)
    except (NotImplementedError, NoSuchSolverError) as exc:
        raise InputError(f"solver {solver!r} cannot log proofs here: {exc}") from None
    try:
        if solve_until(sat_solver, capabilities(solver), [], None):
            other = variables(puzzle.geometry).read_model(sat_solver.get_model())
            raise NotUniqueError("the puzzle has more than one solution", Status.MULTIPLE,
                                 (solution, other))
        proof = list(sat_solver.get_proof() or [])
    finally:
        sat_solver.delete()
    return solution, nv, clauses, proof


def certify(puzzle: Puzzle, directory: str | os.PathLike, *, solver: str = DEFAULT_PROOF_SOLVER,
            encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
            solution: Sequence[int] | None = None) -> Certificate:
    """Write a uniqueness certificate for ``puzzle`` into ``directory`` (created if needed;
    its three files are overwritten).

    ``solver`` must be one of :data:`PROOF_SOLVERS`; ``encoding`` and ``amo`` choose the
    CNF (:mod:`sudoku_csp.encodings.cnf`). ``solution`` skips the search for the witness.
    Raises :class:`NotUniqueError` when the puzzle is not unique.
    """
    start = time.perf_counter()
    solver = proof_solver(solver)
    solution, nv, clauses, proof = prove(puzzle, solver=solver, encoding=encoding, amo=amo,
                                         solution=solution)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    g = puzzle.geometry
    lemmas = sum(1 for line in proof if not line.startswith("d"))
    manifest = {
        "format": FORMAT,
        "puzzle": puzzle.to_line(),
        "geometry": geometry_record(g),
        "solution": format_line(g, solution),
        "encoding": str(encoding),
        "amo": amo,
        "solver": solver,
        "formula": FORMULA,
        "proof": PROOF,
        "variables": nv,
        "clauses": len(clauses),
        "lemmas": lemmas,
        "claim": "the formula (encoding + givens + exclusion of the solution) is "
                 "unsatisfiable, so the solution is the puzzle's only one",
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (folder / FORMULA).write_text(_formula_dimacs(puzzle, solution, str(encoding), amo),
                                  encoding="utf-8", newline="\n")
    (folder / PROOF).write_text("".join(line + "\n" for line in proof), encoding="utf-8",
                                newline="\n")
    return Certificate(folder, puzzle, solution, solver, str(encoding), amo, nv, len(clauses),
                       lemmas, time.perf_counter() - start)


# -- verifying a certificate -------------------------------------------------------------------
@dataclass(frozen=True)
class CertificateCheck:
    """The verdict on a certificate directory: ``ok``, or the ``reason`` it fails; the
    puzzle and solution when they could be read; proof counts; time taken."""

    ok: bool
    reason: str = ""
    puzzle: Puzzle | None = None
    solution: Grid | None = None
    lemmas: int = 0
    checked: int = 0
    seconds: float = 0.0
    details: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.ok


def _dimacs_body(text: str) -> tuple[int, int, list[int]]:
    """``(declared variables, declared clauses, every number after the p line)`` of DIMACS
    text (comment lines skipped), read in bulk: a 9×9 file has 36k numbers, which this
    reads in 9 ms against 46 ms for :func:`~sudoku_csp.encodings.dimacs.read_dimacs` (that
    one names the line of each bad token; here any mismatch is reported by comparison)."""
    lines = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith(("c", "%"))]
    if not lines or not lines[0].startswith("p"):
        raise ValueError("no 'p cnf VARIABLES CLAUSES' line before the clauses")
    fields = lines[0].split()
    if len(fields) != 4 or fields[1] != "cnf":
        raise ValueError("expected 'p cnf VARIABLES CLAUSES'")
    numbers = list(map(int, " ".join(lines[1:]).split()))
    return int(fields[2]), int(fields[3]), numbers


def verify_certificate(directory: str | os.PathLike) -> CertificateCheck:
    """Check a certificate written by :func:`certify`, trusting none of its files.

    In order: the manifest is read; the geometry is rebuilt from it; the witness must solve
    the puzzle (:func:`~sudoku_csp.verify.is_solution`); F is derived from the puzzle, the
    encoding named in the manifest and the witness; ``formula.cnf`` must hold exactly F; the
    proof must refute F (:func:`check_proof`). The first failure is the ``reason``.
    """
    start = time.perf_counter()
    folder = Path(directory)

    def fail(reason: str, **info) -> CertificateCheck:
        return CertificateCheck(False, reason, seconds=time.perf_counter() - start, **info)

    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return fail(f"cannot read {MANIFEST}: {exc}")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return fail(f"{MANIFEST} is not a certificate of format {FORMAT!r}")
    try:
        geometry = geometry_from_record(manifest["geometry"])
        puzzle = parse(str(manifest["puzzle"]), geometry=geometry)
        solution = parse(str(manifest["solution"]), geometry=geometry).givens
    except (KeyError, GeometryError, ParseError) as exc:
        return fail(f"bad puzzle, geometry or solution in {MANIFEST}: {exc}")
    problems = violations(puzzle, solution)
    if problems:
        return fail(f"the witness is not a solution of the puzzle: {problems[0]}",
                    puzzle=puzzle)
    try:
        nv, clauses = certificate_formula(puzzle, solution, str(manifest.get("encoding")),
                                          str(manifest.get("amo")))
    except ValueError as exc:
        return fail(f"cannot derive the formula: {exc}", puzzle=puzzle, solution=solution)
    try:
        # Fixed names: a manifest never makes the checker read outside its directory.
        file_nv, file_count, file_numbers = _dimacs_body(
            (folder / FORMULA).read_text(encoding="utf-8"))
        proof_text = (folder / PROOF).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        return fail(f"cannot read the formula or the proof: {exc}", puzzle=puzzle,
                    solution=solution)
    mismatch = _formula_mismatch(nv, clauses, file_nv, file_count, file_numbers)
    if mismatch:
        return fail(f"{FORMULA} is not the formula derived from the puzzle: {mismatch}",
                    puzzle=puzzle, solution=solution)
    result = check_proof(nv, clauses, proof_text)
    details = {"variables": nv, "clauses": len(clauses), "deletions": result.deletions}
    if not result.ok:
        return fail(f"proof rejected: {result.reason}", puzzle=puzzle, solution=solution,
                    lemmas=result.lemmas, checked=result.checked, details=details)
    return CertificateCheck(True, "", puzzle, solution, result.lemmas, result.checked,
                            time.perf_counter() - start, details)


def _formula_mismatch(nv: int, clauses: list[tuple[int, ...]], file_nv: int, file_count: int,
                      numbers: list[int]) -> str:
    """Why the numbers of a DIMACS body are not exactly ``clauses`` ("" when they are)."""
    if file_nv != nv:
        return f"it declares {file_nv} variables, the derived formula has {nv}"
    expected = [lit for clause in clauses for lit in (*clause, 0)]
    if numbers == expected:
        if file_count != len(clauses):
            return f"it declares {file_count} clauses but holds {len(clauses)}"
        return ""
    found: list[tuple[int, ...]] = []
    start = 0
    for i, lit in enumerate(numbers):
        if lit == 0:
            found.append(tuple(numbers[start:i]))
            start = i + 1
    for i, (a, b) in enumerate(zip(clauses, found, strict=False), start=1):
        if a != b:
            return (f"clause {i} is {' '.join(map(str, b))} 0, expected "
                    f"{' '.join(map(str, a))} 0")
    return f"it holds {len(found)} clauses, the derived formula {len(clauses)}"
