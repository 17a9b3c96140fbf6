"""An independent reverse-unit-propagation (RUP) checker for DRUP proofs.

It trusts no solver and shares no code with one: :class:`RupChecker` keeps a clause set under
unit propagation with its own watched literals and accepts a lemma only if assuming it false
propagates to a conflict; :func:`check_proof` checks a whole text proof against a formula.
Certificates (:mod:`sudoku_csp.certify`) use it; so can anyone with a CNF and a DRUP proof.

Deletions are ignored: that is sound (every clause kept is implied by the formula, so
whatever unit propagation derives from them is implied too) and loses no DRUP proof (a lemma
RUP with fewer clauses is RUP with more). RAT lemmas that are not RUP are rejected.

Roads not taken: backward checking with core marking (it pays off for proofs of many long
lemmas; a 9×9 proof has a few hundred, mostly units, and forward checking stops at the first
conflict).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sudoku_csp.errors import InputError

__all__ = ["ProofCheck", "RupChecker", "check_proof", "parse_proof"]


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
            raise InputError(f"proof line {number}: not a clause: {line[:60]!r}") from None
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise InputError(f"proof line {number}: a clause must end with one 0")
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
