"""Proofs that each step of an explanation follows from the puzzle, by a SAT solver.

For an elimination "cell ≠ digit": the givens, the digits placed so far, and "cell = digit"
together are unsatisfiable. For a placement "cell = digit": the same with "cell ≠ digit".
One incremental solver holds the empty grid's CNF; each question is a list of assumptions,
so no formula is built per step. The SAT solver shares no code with the techniques.

Uniqueness steps (unique rectangles, BUG+1) are proved the same way: on a puzzle with one
solution every false candidate is refuted by the givens alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_csp.certify import DEFAULT_PROOF_SOLVER
from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import Candidate
from sudoku_csp.logic.explain import Explanation
from sudoku_csp.logic.step import Step
from sudoku_csp.satsolver import capabilities, load, solve_until

__all__ = ["Proof", "UnprovenStepError", "prove_steps"]

class UnprovenStepError(BackendError, AssertionError):
    """A step's deduction is consistent with the puzzle: the technique made a mistake (a
    bug, so a backend error)."""


@dataclass(frozen=True)
class Proof:
    """How many facts were proved, with how many SAT calls (one per fact), over how many
    steps: every step unless the time limit stopped the proof first (``complete`` False:
    ``steps`` are the steps proved whole)."""

    steps: int
    facts: int
    complete: bool = True


def prove_steps(explanation: Explanation, solver: str = DEFAULT_PROOF_SOLVER, *,
                time_limit: Limit = None) -> Proof:
    """Prove every placement and elimination of ``explanation`` (UnprovenStepError naming
    the step and the fact if one does not follow), within ``time_limit`` (seconds, or the
    caller's :class:`~sudoku_csp.deadline.Deadline`; past it the proof stops, incomplete).

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.logic import explain
    >>> prove_steps(explain(parse("3.1...4.2.......")))
    Proof(steps=12, facts=12, complete=True)
    """
    puzzle = explanation.puzzle
    deadline = Deadline.of(time_limit)
    try:
        formula = cnf.build(puzzle.geometry, deadline=deadline)
    except Expired:
        return Proof(0, 0, False)
    x = formula.vars.x
    known = cnf.givens(puzzle)
    # A puzzle's typed constraints (killer cages, …) are part of what steps follow from.
    rules, _ = cnf.constraint_clauses(puzzle, formula.nv + 1)
    facts = 0
    caps = capabilities(solver)
    try:
        loaded = load(solver, [*formula.clauses, *rules], deadline=deadline)
    except Expired:
        return Proof(0, 0, False)
    with loaded as sat:
        for i, step in enumerate(explanation.steps):
            for fact, on in _facts(step):
                cell, digit = fact
                literal = -x(cell, digit) if on else x(cell, digit)
                answer = solve_until(sat, caps, [*known, literal], deadline)
                if answer is None:  # the time limit: the steps before this one are proved
                    return Proof(i, facts, False)
                if answer:
                    g = puzzle.geometry
                    what = (f"{g.label(cell)}={g.symbols[digit]}" if on
                            else f"{g.label(cell)}≠{g.symbols[digit]}")
                    raise UnprovenStepError(
                        f"step {i + 1} ({step.technique}: {step.text}): {what} does not "
                        "follow from the puzzle")
                facts += 1
            known.extend(x(cell, digit) for cell, digit in step.placements)
    return Proof(len(explanation.steps), facts)


def _facts(step: Step) -> list[tuple[Candidate, bool]]:
    return [(p, True) for p in step.placements] + [(e, False) for e in step.eliminations]
