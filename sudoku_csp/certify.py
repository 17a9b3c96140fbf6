"""Uniqueness certificates: a witness solution plus a DRUP proof that it is the only one.

A puzzle is *unique* when it has a solution S and the formula

    F = encoding of the empty grid  +  one unit clause per given
        +  the clauses of its typed constraints (killer cages, thermometers, …)
        +  (¬S over the open cells)

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
propagation* with :mod:`sudoku_csp.rup`, which shares no code with any solver. Nor does it
trust the folder: it reads only regular files directly inside it (no symbolic links, FIFOs
or devices), each within a size limit that follows from the puzzle, and its reasons never
quote what a file holds.

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

import errno
import json
import os
import re
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import encoding_choices, encoding_options
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.encodings.variables import variables
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.io import format_line, parse, to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.rup import check_proof
from sudoku_csp.satsolver import capabilities, load, solve_until
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
                        encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                        options: cnf.Options = None) -> tuple[int, list[tuple[int, ...]]]:
    """``(variables, clauses)`` of F: the empty-grid encoding, the givens as unit clauses,
    the clauses of the puzzle's typed constraints (killer cages, …, written with the kinds'
    encoding ``options``, auxiliaries numbered after the formula's), then the exclusion clause
    of ``solution`` (:func:`~sudoku_csp.encodings.cnf.encode` of the puzzle, plus that
    clause). The same list is written to ``formula.cnf``.
    """
    formula = cnf.encode(puzzle, encoding, amo, options)
    clauses = [tuple(clause) for clause in formula.clauses]
    clauses.append(tuple(exclusion_clause(puzzle, solution)))
    return formula.nv, clauses


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


def _witness(puzzle: Puzzle) -> Grid:
    result = get_backend("sat").solve(puzzle, limit=1)
    if result.solution is None:
        raise NotUniqueError(f"no solution: {result.message or result.status}", Status.NONE)
    return result.solution


def prove(puzzle: Puzzle, *, solver: str = DEFAULT_PROOF_SOLVER,
          encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
          solution: Sequence[int] | None = None, options: cnf.Options = None
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
    from pysat.solvers import NoSuchSolverError

    solver = proof_solver(solver)
    if solution is None:
        solution = _witness(puzzle)
    solution = tuple(solution)
    problems = violations(puzzle, solution)
    if problems:
        raise InputError(f"the given solution is wrong: {problems[0]}")
    nv, clauses = certificate_formula(puzzle, solution, encoding, amo, options)
    try:
        sat_solver = load(solver, clauses, with_proof=True)
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
            solution: Sequence[int] | None = None, options: cnf.Options = None
            ) -> Certificate:
    """Write a uniqueness certificate for ``puzzle`` into ``directory`` (created if needed;
    its three files are overwritten).

    ``solver`` must be one of :data:`PROOF_SOLVERS`; ``encoding`` and ``amo`` choose the
    CNF (:mod:`sudoku_csp.encodings.cnf`), ``options`` the constraint kinds' encoding options
    (``{"sums": "bdd"}``: how killer cage sums are written; the manifest records every one
    for puzzles with typed constraints). ``solution`` skips the search
    for the witness. Raises :class:`NotUniqueError` when the puzzle is not unique.
    """
    start = time.perf_counter()
    solver = proof_solver(solver)
    solution, nv, clauses, proof = prove(puzzle, solver=solver, encoding=encoding, amo=amo,
                                         solution=solution, options=options)
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
        **(encoding_choices(options) if puzzle.constraints else {}),
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


# -- verifying a certificate -------------------------------------------------------------------
@dataclass(frozen=True)
class CertificateCheck:
    """The verdict on a certificate directory: ``ok``, or the ``reason`` it fails; the
    puzzle and solution when they could be read; proof counts; time taken.

    ``unreadable`` tells the two kinds of failure apart: True when a file was not read at all
    (the folder or a file is missing, is not a regular file directly inside the folder, is
    over its size limit, or reading it failed), False when the files were read and their
    content is wrong (not UTF-8, not JSON, a wrong witness, formula or proof). The CLI exits
    6 for the first, 8 for the second."""

    ok: bool
    reason: str = ""
    puzzle: Puzzle | None = None
    solution: Grid | None = None
    lemmas: int = 0
    checked: int = 0
    seconds: float = 0.0
    details: dict = field(default_factory=dict)
    unreadable: bool = False

    def __bool__(self) -> bool:
        return self.ok


MANIFEST_LIMIT = 1 << 20
"""The most bytes :func:`verify_certificate` reads of ``certificate.json``. The largest one
:func:`certify` writes (a 35×35 jigsaw: puzzle, solution and region map) is about 15 kB, a
25×25 one 1.8 kB; a fixed megabyte leaves room for hand-edited ones, none for a flood."""

COMMENT_SLACK = 1 << 20
"""Bytes allowed in ``formula.cnf`` beyond its clauses, for comment lines (the header
:func:`certify` writes is a few kB; another tool's may be longer)."""

PROOF_SLACK = 4 << 20
"""Bytes allowed in ``proof.drup`` beyond its share of the formula's size (see
:func:`proof_limit`): room for a long search on a small grid, whose formula is tiny."""


def dimacs_size(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """An upper bound on the bytes of the DIMACS text of ``clauses`` over ``1..nv``, comments
    left out: the ``p`` line, then every literal as wide as ``-nv`` plus a space, every
    clause ended by ``0`` and a newline. Sudoku variables mostly have as many digits as
    ``nv``, so this is within a few percent of the exact size (150 kB for a 9×9 formula).

    >>> dimacs_size(3, [(1, -2), (3,)])  # "p cnf 3 2\\n1 -2 0\\n3 0\\n" is 21 bytes
    23
    """
    width = len(str(nv)) + 2
    return (len(f"p cnf {nv} {len(clauses)}\n") + width * sum(map(len, clauses))
            + 2 * len(clauses))


def formula_limit(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """The most bytes :func:`verify_certificate` reads of ``formula.cnf`` for the derived
    formula ``clauses``: three times :func:`dimacs_size`, plus :data:`COMMENT_SLACK`.

    The file must hold exactly these clauses, so a much larger one is wrong anyway; three
    times leaves room for another writer's spacing (CRLF line ends, padded numbers), the
    slack for its comments. A 9×9 file (150 kB) may be 1.5 MB, a 16×16 one (1.7 MB) 6.5 MB,
    a 25×25 one (11 MB) 38 MB.
    """
    return 3 * dimacs_size(nv, clauses) + COMMENT_SLACK


def proof_limit(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """The most bytes :func:`verify_certificate` reads of ``proof.drup`` for the derived
    formula ``clauses``: four times :func:`dimacs_size`, plus :data:`PROOF_SLACK`.

    A DRUP proof is clauses over the same variables. One formula's worth lets it delete
    every clause of F once (Glucose deletes nearly all: its 9×9 proofs are 0.9 times the
    formula's size); three more let it add and delete learnt clauses amounting to three
    formulas. Real proofs are far smaller (cadical195, measured): 5 kB for a 17-clue 9×9
    (limit 4.8 MB), 31 kB for a 16×16 (limit 11 MB), 128 kB for a 25×25 (limit 54 MB). The
    limit also bounds the checker's memory, which grows with the proof it parses: a proof at
    the limit made of one-literal lines took 150 MB for a 9×9 (about 30 bytes a byte), so the
    limit is a small multiple of the formula rather than a product of counts.
    """
    return 4 * dimacs_size(nv, clauses) + PROOF_SLACK


_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_BINARY", 0))
"""How a certificate file is opened: never through a symbolic link (O_NOFOLLOW), never
waiting (O_NONBLOCK: a FIFO opens at once, then fstat refuses it), bytes as they are
(O_BINARY, Windows). A flag the platform lacks is 0."""

_SYMLINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP)})
"""What ``open`` with O_NOFOLLOW fails with on a symbolic link: Linux, FreeBSD, NetBSD."""

_DIR_FD = os.open in os.supports_dir_fd and os.lstat in os.supports_dir_fd
"""Whether files are opened relative to a descriptor of the folder, so that the folder cannot
be swapped for another between being checked and being read from."""

_CHUNK = 1 << 20

_CONTENT_ERRORS = (ValueError, TypeError, LookupError, ArithmeticError)
"""What rebuilding a geometry or a puzzle from a hostile manifest can raise."""


class _Unreadable(Exception):
    """A certificate file (or folder) left unread; the message names it and says why, never
    quoting its content."""


def _why(exc: OSError) -> str:
    # strerror only: str(exc) repeats the path, and the caller names the file already.
    return exc.strerror or type(exc).__name__


def _require_regular(name: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    kind = next((what for test, what in kinds if test(mode)), "a special file")
    raise _Unreadable(f"cannot read {name}: it is {kind}, not a regular file")


def _open_member(folder: Path, dir_fd: int | None, name: str) -> tuple[int, int]:
    """Open ``name``, which must be a regular file directly inside the certificate folder:
    ``(descriptor, size)``, or :class:`_Unreadable`."""
    path = name if dir_fd is not None else str(folder / name)
    try:
        # lstat first, so that a FIFO or a device is refused without being opened at all
        # (opening a device can have effects); the fstat below is what counts, in case the
        # entry is replaced in between.
        _require_regular(name, os.lstat(path, dir_fd=dir_fd).st_mode)
        fd = os.open(path, _OPEN_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        raise _Unreadable(f"cannot read {name}: no such file in the folder") from None
    except OSError as exc:
        if exc.errno in _SYMLINK_ERRNOS:
            raise _Unreadable(f"cannot read {name}: it is a symbolic link, not a regular "
                              "file") from None
        raise _Unreadable(f"cannot read {name}: {_why(exc)}") from None
    try:
        info = os.fstat(fd)
        _require_regular(name, info.st_mode)
    except OSError as exc:
        os.close(fd)
        raise _Unreadable(f"cannot read {name}: {_why(exc)}") from None
    except _Unreadable:
        os.close(fd)
        raise
    return fd, info.st_size


def _check_size(name: str, size: int, limit: int) -> None:
    if size > limit:
        raise _Unreadable(f"cannot read {name}: too large ({size} bytes > limit {limit})")


def _read_member(name: str, fd: int, size: int, limit: int) -> bytes:
    """The content of an opened certificate file of at most ``limit`` bytes, or
    :class:`_Unreadable`. Reads at most ``limit + 1`` bytes, in chunks, whatever the size
    the file claims (it may grow while being read)."""
    _check_size(name, size, limit)
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise _Unreadable(f"cannot read {name}: {_why(exc)}") from None
    if total > limit:
        raise _Unreadable(f"cannot read {name}: too large (it grew past the limit of "
                          f"{limit} bytes while being read)")
    return b"".join(chunks)


def _utf8(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Its own message shows the offending bytes: say only where they are.
        raise ValueError(f"{name} is not UTF-8 text (invalid byte at offset {exc.start})"
                         ) from None


def _read_manifest(data: bytes) -> tuple[Puzzle, Grid, str, str, dict[str, str]]:
    """``(puzzle, witness, encoding, amo, options)`` from the manifest's bytes, or ValueError
    with a message that names what is wrong but quotes nothing of the file. The kinds'
    encoding options (``sums``: how cage sums were written) are optional: certificates of
    plain puzzles have none."""
    text = _utf8(MANIFEST, data)
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        # exc.msg is one of the json module's fixed phrases; only the position is the file's.
        raise ValueError(f"{MANIFEST} is not JSON ({exc.msg}: line {exc.lineno} column "
                         f"{exc.colno})") from None
    except (ValueError, RecursionError):
        # An integer of more than 4300 digits, or arrays nested past the interpreter's stack.
        raise ValueError(f"{MANIFEST} is not JSON this checker can read") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{MANIFEST} is not a certificate of format {FORMAT!r}")
    texts = {key: manifest.get(key) for key in ("puzzle", "solution", "encoding", "amo")}
    missing = [key for key, value in texts.items() if not isinstance(value, str)]
    if missing:
        raise ValueError(f"{MANIFEST} has no text for {', '.join(missing)}")
    puzzle_text, solution_text, encoding, amo = (str(value) for value in texts.values())
    # The messages of GeometryError and ParseError may quote the manifest: they are replaced
    # by ones that say which part is wrong.
    record = manifest.get("geometry")
    if not isinstance(record, dict):
        raise ValueError(f"bad geometry in {MANIFEST}: no geometry record")
    try:
        geometry = geometry_from_record(record)
    except _CONTENT_ERRORS:
        raise ValueError(f"bad geometry in {MANIFEST}: its record describes no geometry"
                         ) from None
    try:
        puzzle = parse(puzzle_text, geometry=geometry)
    except _CONTENT_ERRORS:
        raise ValueError(f"bad puzzle in {MANIFEST}: not a puzzle of its geometry "
                         f"({geometry.name})") from None
    try:
        solution = parse(solution_text, geometry=geometry).givens
    except _CONTENT_ERRORS:
        raise ValueError(f"bad solution in {MANIFEST}: not a grid of its geometry "
                         f"({geometry.name})") from None
    if encoding not in {e.value for e in cnf.Encoding}:
        raise ValueError(f"{MANIFEST} names an unknown encoding; known: "
                         f"{', '.join(e.value for e in cnf.Encoding)}")
    if amo not in cnf.AMO_CHOICES:
        raise ValueError(f"{MANIFEST} names an unknown at-most-one encoding; known: "
                         f"{', '.join(cnf.AMO_CHOICES)}")
    options = {}
    for name, option in encoding_options().items():
        options[name] = manifest.get(name, option.default)
        if options[name] not in option.choices:
            raise ValueError(f"{MANIFEST} names an unknown {option.what}; known: "
                             f"{', '.join(option.choices)}")
    return puzzle, solution, encoding, amo, options


def _dimacs_body(text: str) -> tuple[int, int, list[int]]:
    """``(declared variables, declared clauses, every number after the p line)`` of DIMACS
    text (comment lines skipped), read in bulk: a 9×9 file has 36k numbers, which this
    reads in 9 ms against 46 ms for :func:`~sudoku_csp.encodings.dimacs.read_dimacs` (that
    one names the line of each bad token; here any mismatch is reported by comparison).
    ValueError on text that is not DIMACS, with a message that quotes none of it."""
    lines = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith(("c", "%"))]
    if not lines or not lines[0].startswith("p"):
        raise ValueError("no 'p cnf VARIABLES CLAUSES' line before the clauses")
    fields = lines[0].split()
    try:
        if len(fields) != 4 or fields[1] != "cnf":
            raise ValueError
        declared = int(fields[2]), int(fields[3])
    except ValueError:
        raise ValueError("its p line is not 'p cnf VARIABLES CLAUSES'") from None
    try:
        numbers = list(map(int, " ".join(lines[1:]).split()))
    except ValueError:
        # int()'s message quotes the token.
        raise ValueError("a clause line holds something other than whole numbers") from None
    return declared[0], declared[1], numbers


_PROOF_LINE = re.compile(r"proof line (\d+):")


def _proof_reason(reason: str) -> str:
    """The reason :func:`check_proof` gives, with any quoted proof text left out: the
    rejection of a line that is not a clause quotes the line. Its other reasons hold only
    numbers it parsed (the literals of a lemma that is not RUP)."""
    bad_line = _PROOF_LINE.match(reason)
    if bad_line:
        return (f"line {bad_line.group(1)} of {PROOF} is not a clause (whole numbers ending "
                "in one 0)")
    return reason


def verify_certificate(directory: str | os.PathLike) -> CertificateCheck:
    """Check a certificate written by :func:`certify`, trusting none of its files.

    Each file read must be a regular file directly inside ``directory``: a symbolic link,
    FIFO, device or directory in its place is refused, never opened through or waited on
    (``directory`` itself may be a link). In order: the manifest is read (at most
    :data:`MANIFEST_LIMIT` bytes); the geometry is rebuilt from it; the witness must solve
    the puzzle (:func:`~sudoku_csp.verify.is_solution`); ``formula.cnf`` and ``proof.drup``
    are opened; F is derived from the puzzle, the encoding named in the manifest and the
    witness; ``formula.cnf`` (at most :func:`formula_limit` bytes) must hold exactly F; the
    proof (at most :func:`proof_limit` bytes) must refute F (:func:`check_proof`). The
    first failure is the ``reason``, with ``unreadable`` set when it is a file that was not
    read (see :class:`CertificateCheck`). Nothing in the folder makes this raise, and no
    reason quotes a file's content.
    """
    start = time.perf_counter()
    folder = Path(directory)
    try:
        # The folder itself is followed if it is a symbolic link: the caller named it.
        dir_fd = (os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _DIR_FD
                  else None)
    except OSError as exc:
        return _failed(start, f"cannot read the certificate folder {folder}: {_why(exc)}",
                       unreadable=True)
    if dir_fd is None and not folder.is_dir():
        return _failed(start, f"cannot read the certificate folder {folder}: not a directory",
                       unreadable=True)
    opened: dict[str, tuple[int, int]] = {}  # closed below, whatever happens
    try:
        try:
            opened[MANIFEST] = _open_member(folder, dir_fd, MANIFEST)
            manifest_bytes = _read_member(MANIFEST, *opened[MANIFEST], MANIFEST_LIMIT)
        except _Unreadable as exc:
            return _failed(start, str(exc), unreadable=True)
        return _check_contents(start, manifest_bytes, folder, dir_fd, opened)
    finally:
        for fd, _ in opened.values():
            os.close(fd)
        if dir_fd is not None:
            os.close(dir_fd)


def _failed(start: float, reason: str, **info) -> CertificateCheck:
    return CertificateCheck(False, reason, seconds=time.perf_counter() - start, **info)


def _check_contents(start: float, manifest_bytes: bytes, folder: Path, dir_fd: int | None,
                    opened: dict[str, tuple[int, int]]) -> CertificateCheck:
    """The rest of :func:`verify_certificate`, once the manifest is read: the formula and the
    proof are opened (into ``opened``) once the manifest holds a puzzle and its solution, and
    read within limits that follow from the formula the manifest implies."""
    try:
        puzzle, solution, encoding, amo, options = _read_manifest(manifest_bytes)
    except ValueError as exc:
        return _failed(start, str(exc))
    problems = violations(puzzle, solution)
    if problems:
        return _failed(start, f"the witness is not a solution of the puzzle: {problems[0]}",
                       puzzle=puzzle)
    seen = {"puzzle": puzzle, "solution": solution}
    try:
        # Both opened before either is read, so that a missing proof is reported as such
        # even when the formula is wrong; each then stays the file that was checked.
        for name in (FORMULA, PROOF):
            opened[name] = _open_member(folder, dir_fd, name)
    except _Unreadable as exc:
        return _failed(start, str(exc), unreadable=True, **seen)
    try:
        nv, clauses = certificate_formula(puzzle, solution, encoding, amo, options)
    except ValueError as exc:
        return _failed(start, f"cannot derive the formula: {exc}", **seen)
    limits = {FORMULA: formula_limit(nv, clauses), PROOF: proof_limit(nv, clauses)}
    try:
        # Both sizes first: an oversized proof is unreadable even when the formula is wrong.
        for name, limit in limits.items():
            _check_size(name, opened[name][1], limit)
        formula_text = _utf8(FORMULA, _read_member(FORMULA, *opened[FORMULA], limits[FORMULA]))
    except _Unreadable as exc:
        return _failed(start, str(exc), unreadable=True, **seen)
    except ValueError as exc:
        return _failed(start, str(exc), **seen)
    try:
        file_nv, file_count, file_numbers = _dimacs_body(formula_text)
    except ValueError as exc:
        return _failed(start, f"{FORMULA} is not DIMACS: {exc}", **seen)
    del formula_text
    mismatch = _formula_mismatch(nv, clauses, file_nv, file_count, file_numbers)
    if mismatch:
        return _failed(start, f"{FORMULA} is not the formula derived from the puzzle: "
                       f"{mismatch}", **seen)
    del file_numbers
    try:
        proof_text = _utf8(PROOF, _read_member(PROOF, *opened[PROOF], limits[PROOF]))
    except _Unreadable as exc:
        return _failed(start, str(exc), unreadable=True, **seen)
    except ValueError as exc:
        return _failed(start, str(exc), **seen)
    result = check_proof(nv, clauses, proof_text)
    details = {"variables": nv, "clauses": len(clauses), "deletions": result.deletions}
    if not result.ok:
        return _failed(start, f"proof rejected: {_proof_reason(result.reason)}",
                       lemmas=result.lemmas, checked=result.checked, details=details, **seen)
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
            return f"clause {i} is {_shown(b)}, expected {_shown(a)}"
    return f"it holds {len(found)} clauses, the derived formula {len(clauses)}"


def _shown(clause: Sequence[int], most: int = 12) -> str:
    """A clause in DIMACS, cut after ``most`` literals: a file's clause can be any length.
    (Its literals are numbers the checker parsed and writes anew, never the file's text.)"""
    head = " ".join(map(str, clause[:most]))
    return f"{head} ... 0 ({len(clause)} literals)" if len(clause) > most else f"{head} 0"
