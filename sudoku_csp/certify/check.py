"""Verifying a certificate: the geometry, the puzzle and F rebuilt from the manifest, the
witness checked by the rules, the formula file compared with F, and every proof lemma
checked by reverse unit propagation (:mod:`sudoku_csp.rup`), trusting no solver."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_csp.certify.folder import (
    DIR_FD,
    MANIFEST_LIMIT,
    Unreadable,
    check_size,
    formula_limit,
    open_member,
    proof_limit,
    read_member,
    utf8,
    why,
)
from sudoku_csp.certify.make import FORMAT, FORMULA, MANIFEST, PROOF, certificate_formula
from sudoku_csp.constraints import encoding_options
from sudoku_csp.encodings import cnf
from sudoku_csp.geometry import Grid
from sudoku_csp.io import parse
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.rup import check_proof
from sudoku_csp.variants import geometry_from_record
from sudoku_csp.verify import violations

_CONTENT_ERRORS = (ValueError, TypeError, LookupError, ArithmeticError)
"""What rebuilding a geometry or a puzzle from a hostile manifest can raise."""


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


def _read_manifest(data: bytes) -> tuple[Puzzle, Grid, str, str, dict[str, str]]:
    """``(puzzle, witness, encoding, amo, options)`` from the manifest's bytes, or ValueError
    with a message that names what is wrong but quotes nothing of the file. The kinds'
    encoding options (``sums``: how cage sums were written) are optional: certificates of
    plain puzzles have none."""
    text = utf8(MANIFEST, data)
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
        # An option the manifest does not name is at the value it was made with.
        options[name] = manifest.get(name, option.unrecorded or option.default)
        if options[name] not in option.choices:
            raise ValueError(f"{MANIFEST} names an unknown {option.what}; known: "
                             f"{', '.join(option.choices)}")
    return puzzle, solution, encoding, amo, options


def _dimacs_body(text: str) -> tuple[int, int, list[int]]:
    """``(declared variables, declared clauses, every number after the p line)`` of DIMACS
    text (comment lines skipped), read in bulk: a 9×9 file has 36k numbers, which this
    reads several times faster than :func:`~sudoku_csp.encodings.dimacs.read_dimacs` (that
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
        dir_fd = (os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if DIR_FD
                  else None)
    except OSError as exc:
        return _failed(start, f"cannot read the certificate folder {folder}: {why(exc)}",
                       unreadable=True)
    if dir_fd is None and not folder.is_dir():
        return _failed(start, f"cannot read the certificate folder {folder}: not a directory",
                       unreadable=True)
    opened: dict[str, tuple[int, int]] = {}  # closed below, whatever happens
    try:
        try:
            opened[MANIFEST] = open_member(folder, dir_fd, MANIFEST)
            manifest_bytes = read_member(MANIFEST, *opened[MANIFEST], MANIFEST_LIMIT)
        except Unreadable as exc:
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
            opened[name] = open_member(folder, dir_fd, name)
    except Unreadable as exc:
        return _failed(start, str(exc), unreadable=True, **seen)
    try:
        nv, clauses = certificate_formula(puzzle, solution, encoding, amo, options)
    except ValueError as exc:
        return _failed(start, f"cannot derive the formula: {exc}", **seen)
    limits = {FORMULA: formula_limit(nv, clauses), PROOF: proof_limit(nv, clauses)}
    try:
        # Both sizes first: an oversized proof is unreadable even when the formula is wrong.
        for name, limit in limits.items():
            check_size(name, opened[name][1], limit)
        formula_text = utf8(FORMULA, read_member(FORMULA, *opened[FORMULA], limits[FORMULA]))
    except Unreadable as exc:
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
        proof_text = utf8(PROOF, read_member(PROOF, *opened[PROOF], limits[PROOF]))
    except Unreadable as exc:
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
