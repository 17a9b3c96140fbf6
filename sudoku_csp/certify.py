"""Uniqueness certificates: a witness solution plus a DRUP proof that it is the only one.

A puzzle is *unique* when it has a solution S and the formula

    F = encoding of the empty grid  +  one unit clause per given  +  (¬S over the open cells)

is unsatisfiable: the last clause says "some open cell differs from S". :func:`certify` finds
S, asks a proof-logging PySAT solver to refute F, and writes a *certificate directory*:

=====================  =================================================================
``certificate.json``   the puzzle, its geometry (size, box, variants, regions), the
                       solution, the encoding, the solver and a few counts
``formula.cnf``        F in DIMACS (header as written by :mod:`sudoku_csp.encodings.cnf`)
``proof.drup``         the solver's DRUP proof (text: one lemma per line, ``d`` deletions)
=====================  =================================================================

:func:`verify_certificate` trusts none of it. It rebuilds the geometry and F from the
puzzle and the witness (so a tampered ``formula.cnf`` is caught by comparison, and the proof
is checked against the derived F, never the file), checks the witness with
:func:`~sudoku_csp.verify.is_solution`, and checks every lemma by *reverse unit
propagation* (RUP) with its own watched-literal propagator (:class:`RupChecker`): no solver
code is involved. Deletions are ignored: that is sound (every clause kept is implied by F,
so whatever unit propagation derives from them is implied too) and loses no DRUP proof
(a lemma RUP with fewer clauses is RUP with more). RAT lemmas that are not RUP are
rejected.

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

Roads not taken: binary DRAT (smaller, but not readable and no faster to parse in Python);
backward checking with core marking (it pays off for proofs of many long lemmas; a 9×9
proof has a few hundred, mostly units, and forward checking stops at the first conflict).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, Grid
from sudoku_csp.puzzle import ParseError, Puzzle, format_line, parse
from sudoku_csp.result import Status
from sudoku_csp.variants import make_geometry
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

DEFAULT_SOLVER = "cadical195"
DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"


def proof_solver(name: str) -> str:
    """The canonical name of a solver of :data:`PROOF_SOLVERS` (PySAT aliases such as
    ``cd19`` or ``g4`` accepted), or ValueError listing them.

    >>> proof_solver("g4"), proof_solver("CaDiCaL195")
    ('glucose4', 'cadical195')
    """
    from pysat.solvers import SolverNames

    key = name.strip().lower()
    for canonical in PROOF_SOLVERS:
        if key == canonical or key in getattr(SolverNames, canonical, ()):
            return canonical
    # Checked by name, not by trying: PySAT solvers that refuse with_proof raise from their
    # constructor and then fail again in __del__ (an unraisable-exception warning).
    raise ValueError(f"solver {name!r} cannot log proofs that this checker accepts; choose "
                     f"from {', '.join(PROOF_SOLVERS)}")


class NotUniqueError(ValueError):
    """The puzzle has no solution (``status`` NONE) or several (MULTIPLE, ``solutions``
    holding two of them): there is nothing to certify."""

    def __init__(self, message: str, status: Status, solutions: tuple[Grid, ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.solutions = solutions


# -- the formula -------------------------------------------------------------------------------
def exclusion_clause(puzzle: Puzzle, solution: Sequence[int]) -> list[int]:
    """"Some open cell differs from ``solution``": ``¬x(c, solution[c])`` for every cell that
    is not a given. (A given cell's literal is false by its unit clause anyway.)

    >>> exclusion_clause(parse("3.1...4.2......."), [2, 3, 0, 1] + [0] * 12)[:2]
    [-8, -14]
    """
    n = puzzle.geometry.size
    pairs = zip(solution, puzzle.givens, strict=True)
    return [-(c * n + d + 1) for c, (d, given) in enumerate(pairs) if given == EMPTY]


def certificate_formula(puzzle: Puzzle, solution: Sequence[int],
                        encoding: str = DEFAULT_ENCODING,
                        amo: str = DEFAULT_AMO) -> tuple[int, list[tuple[int, ...]]]:
    """``(variables, clauses)`` of F: the empty-grid encoding, the givens as unit clauses,
    then the exclusion clause of ``solution``. The same list is written to ``formula.cnf``.
    """
    from sudoku_csp.encodings import cnf

    formula = cnf.build(puzzle.geometry, encoding, amo)
    clauses = list(formula.clauses)
    clauses.extend((lit,) for lit in cnf.givens(puzzle))
    clauses.append(tuple(exclusion_clause(puzzle, solution)))
    return formula.nv, clauses


def _formula_dimacs(puzzle: Puzzle, solution: Sequence[int], encoding: str, amo: str) -> str:
    from sudoku_csp.encodings import cnf

    excl = exclusion_clause(puzzle, solution)
    note = (f"c exclusion: the last clause excludes the solution "
            f"{format_line(puzzle.geometry, solution)} ({len(excl)} open cells)")
    return cnf.encode_puzzle_dimacs(puzzle, encoding, amo, extra_clauses=[excl], notes=[note])


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
    from sudoku_csp.backends import get_backend

    result = get_backend("sat").solve(puzzle, limit=1)
    if result.solution is None:
        raise NotUniqueError(f"no solution: {result.message or result.status}", Status.NONE)
    return result.solution


def prove(puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER, encoding: str = DEFAULT_ENCODING,
          amo: str = DEFAULT_AMO, solution: Sequence[int] | None = None
          ) -> tuple[Grid, int, list[tuple[int, ...]], list[str]]:
    """Find the witness (or take ``solution``) and refute F with a proof-logging solver.

    Returns ``(solution, variables, clauses of F, proof lines)``. Raises
    :class:`NotUniqueError` when the puzzle has no solution or a second one, ValueError for
    a solver that cannot log proofs.

    >>> sol, nv, clauses, proof = prove(parse("3.1...4.2......."))
    >>> nv, len(clauses), check_proof(nv, clauses, proof).ok
    (64, 453, True)
    """
    from pysat.solvers import NoSuchSolverError, Solver

    from sudoku_csp.encodings import cnf

    solver = proof_solver(solver)
    if solution is None:
        solution = _witness(puzzle)
    solution = tuple(solution)
    problems = violations(puzzle, solution)
    if problems:
        raise ValueError(f"the given solution is wrong: {problems[0]}")
    nv, clauses = certificate_formula(puzzle, solution, encoding, amo)
    try:
        sat_solver = Solver(name=solver, bootstrap_with=clauses, with_proof=True)
    except (NotImplementedError, NoSuchSolverError) as exc:
        raise ValueError(f"solver {solver!r} cannot log proofs here: {exc}") from None
    try:
        if sat_solver.solve():
            other = cnf.decode(sat_solver.get_model(), puzzle.geometry)
            raise NotUniqueError("the puzzle has more than one solution", Status.MULTIPLE,
                                 (solution, other))
        proof = list(sat_solver.get_proof() or [])
    finally:
        sat_solver.delete()
    return solution, nv, clauses, proof


def certify(puzzle: Puzzle, directory: str | os.PathLike, *, solver: str = DEFAULT_SOLVER,
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


def geometry_record(geometry: Geometry) -> dict:
    """What rebuilds ``geometry`` with :func:`~sudoku_csp.variants.make_geometry`: size, box,
    variants (jigsaw left out) and the region of every cell (jigsaws only).

    >>> geometry_record(make_geometry(6))
    {'size': 6, 'box': [2, 3], 'variants': [], 'regions': None, 'name': '6x6'}
    """
    jigsaw = "jigsaw" in geometry.variants
    return {
        "size": geometry.size,
        "box": None if jigsaw or geometry.box is None else list(geometry.box),
        "variants": [v for v in geometry.variants if v != "jigsaw"],
        "regions": list(geometry.boxes) if jigsaw else None,
        "name": geometry.name,
    }


def geometry_from_record(record: dict) -> Geometry:
    """The geometry a :func:`geometry_record` describes (GeometryError if it is not one)."""
    try:
        size = int(record["size"])
        box = record.get("box")
        regions = record.get("regions")
        return make_geometry(size, tuple(int(b) for b in box) if box else None,
                             [str(v) for v in record.get("variants") or ()],
                             tuple(int(r) for r in regions) if regions is not None else None)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, GeometryError):
            raise
        raise GeometryError(f"bad geometry record: {exc}") from None


# -- the RUP checker ---------------------------------------------------------------------------
class RupChecker:
    """A clause set under unit propagation, that takes lemmas only if they are RUP.

    Literals are DIMACS ints. Every per-literal table is a list (or bytearray) of length
    ``2*nv + 1`` indexed by the literal itself: Python's negative indices put ``-v`` at
    ``2*nv + 1 - v``, so no literal-to-index mapping is ever computed.

    - ``value[lit]`` is 1 when ``lit`` is true (so ``lit`` is false when ``value[-lit]``).
    - Binary clauses live in ``implied[lit]`` (the literals that become true with ``lit``),
      longer ones in ``watches[lit]`` (clauses that watch ``¬lit``, visited when ``lit``
      becomes true; a clause's watches are its first two literals).
    - Assignments made at the top level (units and what they propagate) are permanent, so a
      clause is simplified by them when it is added: satisfied clauses are dropped, false
      literals removed. The loaded puzzle is thereby clue-reduced as it is read.

    >>> r = RupChecker(2)
    >>> r.add_clauses([(1, 2), (-1, 2), (1, -2), (-1, -2)])
    >>> r.is_rup((2,)), r.is_rup((1, -2)), r.is_rup(()), r.refuted
    (True, True, False, False)
    >>> r.add_lemma((2,)), r.refuted
    (True, True)
    """

    def __init__(self, nv: int) -> None:
        self.nv = nv
        size = 2 * nv + 1
        self.value = bytearray(size)
        self.implied: list[list[int]] = [[] for _ in range(size)]
        self.watches: list[list[list[int]]] = [[] for _ in range(size)]
        self.trail: list[int] = []
        self.refuted = False  # the top level is in conflict: the empty clause follows

    # -- adding clauses --------------------------------------------------------------------
    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        """Add clauses of the formula (no check). ValueError if a literal is 0 or its
        variable lies outside ``1..nv``."""
        clauses = list(clauses)
        filled = [c for c in clauses if c]
        if filled:
            # One pass in C over every literal, so that the loop below need not check.
            low, high = min(map(min, filled)), max(map(max, filled))
            if max(high, -low) > self.nv or any(0 in c for c in filled):
                raise ValueError(f"a clause has a literal 0 or a variable outside "
                                 f"1..{self.nv}")
        value, implied = self.value, self.implied
        for clause in clauses:
            if self.refuted:
                return
            if len(clause) == 2:  # the common case in Sudoku CNFs: inline it
                a, b = clause
                if value[a] or value[b] or a == -b:
                    continue
                if value[-a]:
                    self._assign_top(b)
                elif value[-b]:
                    self._assign_top(a)
                elif a == b:
                    self._assign_top(a)
                else:
                    implied[-a].append(b)
                    implied[-b].append(a)
            else:
                self._store(clause)

    def _store(self, clause: Sequence[int]) -> None:
        """Add an implied clause, simplified by the top level (which it may extend)."""
        value = self.value
        lits: list[int] = []
        for lit in clause:
            if value[lit]:
                return  # satisfied for good
            if not value[-lit] and lit not in lits:
                lits.append(lit)
        if not lits:
            self.refuted = True
        elif len(lits) == 1:
            self._assign_top(lits[0])
        elif any(-lit in lits for lit in lits):
            return  # a tautology never propagates
        elif len(lits) == 2:
            a, b = lits
            self.implied[-a].append(b)
            self.implied[-b].append(a)
        else:
            self.watches[-lits[0]].append(lits)
            self.watches[-lits[1]].append(lits)

    def _assign_top(self, lit: int) -> None:
        if self.value[-lit]:
            self.refuted = True
            return
        if self.value[lit]:
            return
        mark = len(self.trail)
        self.value[lit] = 1
        self.trail.append(lit)
        if not self._propagate(mark):
            self.refuted = True

    # -- unit propagation --------------------------------------------------------------------
    def _propagate(self, head: int) -> bool:
        """Propagate the trail from position ``head``; False on a conflict."""
        value, trail, implied, watches = self.value, self.trail, self.implied, self.watches
        append = trail.append
        while head < len(trail):
            lit = trail[head]
            head += 1
            for q in implied[lit]:
                if not value[q]:
                    if value[-q]:
                        return False
                    value[q] = 1
                    append(q)
            ws = watches[lit]
            if not ws:
                continue
            false_lit = -lit
            n = len(ws)
            i = j = 0
            while i < n:
                clause = ws[i]
                i += 1
                first = clause[0]
                if first == false_lit:
                    first = clause[1]
                    clause[0] = first
                    clause[1] = false_lit
                if value[first]:
                    ws[j] = clause
                    j += 1
                    continue
                for k in range(2, len(clause)):
                    q = clause[k]
                    if not value[-q]:  # a new watch: q is not false
                        clause[1] = q
                        clause[k] = false_lit
                        watches[-q].append(clause)
                        break
                else:
                    ws[j] = clause
                    j += 1
                    if value[-first]:  # every literal false: conflict
                        ws[j:i] = []  # keep the clauses not yet visited
                        return False
                    value[first] = 1
                    append(first)
            del ws[j:]
        return True

    # -- checking lemmas ---------------------------------------------------------------------
    def is_rup(self, lemma: Sequence[int]) -> bool:
        """Whether assuming every literal of ``lemma`` false propagates to a conflict."""
        if self.refuted:
            return True
        value, trail = self.value, self.trail
        mark = len(trail)
        conflict = False
        for lit in lemma:
            if value[lit]:
                conflict = True  # true at the top level: implied at once
                break
            if not value[-lit]:
                value[-lit] = 1
                trail.append(-lit)
        if not conflict:
            conflict = not self._propagate(mark)
        for lit in trail[mark:]:
            value[lit] = 0
        del trail[mark:]
        return conflict

    def add_lemma(self, lemma: Sequence[int]) -> bool:
        """Check ``lemma`` by RUP; if it passes, add it (and propagate). Returns the check."""
        for lit in lemma:
            if not 0 < abs(lit) <= self.nv:
                return False  # a variable the formula lacks: never RUP here
        if not self.is_rup(lemma):
            return False
        if not self.refuted:
            self._store(lemma)
        return True


@dataclass(frozen=True)
class ProofCheck:
    """The outcome of checking a proof: ``ok`` and, when not, ``reason``; counts of lemmas
    read, lemmas checked (checking stops once the formula is refuted) and deletions."""

    ok: bool
    reason: str = ""
    lemmas: int = 0
    checked: int = 0
    deletions: int = 0

    def __bool__(self) -> bool:
        return self.ok


def parse_proof(text: str) -> tuple[list[tuple[int, ...]], int]:
    """The lemmas of a text DRUP/DRAT proof (``d`` lines dropped, counted) as ``(lemmas,
    deletions)``. ValueError on a line that is not a clause.

    >>> parse_proof("1 -2 0\\nd 1 2 0\\nc note\\n0\\n")
    ([(1, -2), ()], 1)
    """
    lemmas: list[tuple[int, ...]] = []
    deletions = 0
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("d"):
            deletions += 1
            continue
        try:
            lits = [int(t) for t in line.split()]
        except ValueError:
            raise ValueError(f"proof line {number}: not a clause: {line[:60]!r}") from None
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise ValueError(f"proof line {number}: a clause must end with one 0")
        lemmas.append(tuple(lits[:-1]))
    return lemmas, deletions


def check_proof(nv: int, clauses: Iterable[Sequence[int]], proof: str | Sequence[str]
                ) -> ProofCheck:
    """Check a text DRUP proof (a string, or its lines) that ``clauses`` over variables
    ``1..nv`` are unsatisfiable: every lemma must be RUP with respect to the clauses and the
    lemmas before it, and unit propagation must end in a conflict.

    >>> check_proof(2, [(1, 2), (-1, 2), (1, -2), (-1, -2)], ["2 0", "0"]).ok
    True
    >>> check_proof(2, [(1, 2), (-1, 2), (1, -2), (-1, -2)], ["1 2 -2 0"]).reason
    'the proof ends without deriving the empty clause'
    """
    text = proof if isinstance(proof, str) else "\n".join(proof)
    try:
        lemmas, deletions = parse_proof(text)
    except ValueError as exc:
        return ProofCheck(False, str(exc))
    checker = RupChecker(nv)
    try:
        # Unit clauses first: every later clause is then simplified as it is read.
        clauses = list(clauses)
        checker.add_clauses(c for c in clauses if len(c) == 1)
        checker.add_clauses(c for c in clauses if len(c) != 1)
    except ValueError as exc:
        return ProofCheck(False, str(exc), len(lemmas), 0, deletions)
    checked = 0
    for number, lemma in enumerate(lemmas, start=1):
        if checker.refuted:
            break
        checked += 1
        if not checker.add_lemma(lemma):
            shown = " ".join(map(str, lemma[:12])) + (" ..." if len(lemma) > 12 else "")
            return ProofCheck(False, f"lemma {number} ({shown} 0) is not implied by unit "
                              "propagation (RUP)", len(lemmas), checked, deletions)
    if not checker.refuted:
        return ProofCheck(False, "the proof ends without deriving the empty clause",
                          len(lemmas), checked, deletions)
    return ProofCheck(True, "", len(lemmas), checked, deletions)


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
    text (comment lines skipped), read in bulk: a 9×9 file has 36k numbers."""
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
