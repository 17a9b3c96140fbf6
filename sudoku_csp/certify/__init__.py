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

from sudoku_csp.certify.check import CertificateCheck, verify_certificate
from sudoku_csp.certify.folder import (
    MANIFEST_LIMIT,
    dimacs_size,
    formula_limit,
    proof_limit,
)
from sudoku_csp.certify.make import (
    DEFAULT_PROOF_SOLVER,
    FORMAT,
    FORMULA,
    MANIFEST,
    PROOF,
    PROOF_SOLVERS,
    Certificate,
    NotUniqueError,
    certificate_formula,
    certify,
    exclusion_clause,
    proof_solver,
    prove,
)

__all__ = [
    "DEFAULT_PROOF_SOLVER", "FORMAT", "FORMULA", "MANIFEST", "MANIFEST_LIMIT", "PROOF",
    "PROOF_SOLVERS", "Certificate", "CertificateCheck", "NotUniqueError", "certificate_formula",
    "certify", "dimacs_size", "exclusion_clause", "formula_limit", "proof_limit", "proof_solver",
    "prove", "verify_certificate",
]
