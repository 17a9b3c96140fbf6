"""The answers: what a request asks, worked out by the library, in a worker process.

:func:`answer` takes one :class:`~sudoku_csp.serve.protocol.Request` and returns its final
reply (its ``type`` and fields, without the nonce, which the server adds); replies that come
before it (a count as it grows, an estimate as it improves) go to ``emit``. It runs in a
worker process of :mod:`sudoku_csp.serve.workers`, never on the server's event loop, so
that a long count never holds up a cancel: a cancelled request's worker is killed.

Every claim comes from the library's checked answers: true candidates
(:func:`~sudoku_csp.setter.true_candidates`), a solution from a backend (verified), counts
whose every solution is checked as it is found, the minimal conflict
(:func:`~sudoku_csp.setter.minimal_conflict`), explanations
(:func:`~sudoku_csp.logic.explain`) and the cross-check of the three backends
(:func:`~sudoku_csp.crosscheck.crosscheck`). A question the time limit leaves open is
answered ``invalid`` saying so, never with a guess.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from sudoku_csp.deadline import Deadline, Expired
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, bits
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.serve.protocol import (
    Request,
    Settings,
    logical_cells,
    read_puzzle,
    solutions_per_candidate,
)

__all__ = ["BACKENDS", "HANDLERS", "MAX_COUNT", "PROGRESS_SECONDS", "answer", "count_solutions",
           "engine", "estimate_solutions"]

Emit = Callable[[dict[str, Any]], None]
Fields = dict[str, Any]

BACKENDS = ("native", "sat", "cpsat")
"""The backends whose verdicts the ``verdicts`` command gives side by side."""

PROGRESS_SECONDS = 0.5
"""How often a count or an estimate reports how far it got (the first report comes at
once)."""

MAX_COUNT = 5_000_000
"""The most solutions ``count`` counts: each is checked and remembered (to prove it
distinct), so a count past this says "more than" and stops rather than filling memory."""


def engine(puzzle: Puzzle) -> str:
    """The backend spec that solves and counts ``puzzle``: the native search for a plain
    puzzle (the digit-plane engine, fastest at counting), SAT for one with typed
    constraints, where native propagation can leave a search of minutes that SAT ends in
    milliseconds (:meth:`~sudoku_csp.backends.native.NativeBackend.crosscheck_seconds`).

    >>> from sudoku_csp import parse
    >>> engine(parse("1..." "..1." ".1.." "...1"))
    'native'
    """
    return "sat" if puzzle.constraints else "native"


def answer(request: Request, emit: Emit, time_limit: float | None = None) -> Fields:
    """The final reply to ``request`` (``type`` and fields); earlier replies go to ``emit``.
    ``time_limit``: seconds for the whole request (None: until it ends or is cancelled).
    Raises :class:`~sudoku_csp.serve.protocol.ProtocolError` for a puzzle that does not
    read, and :class:`~sudoku_csp.errors.InputError` for one the library refuses."""
    deadline = Deadline.after(time_limit)
    puzzle, settings, notes = read_puzzle(request)
    handler = HANDLERS[request.command]
    fields = handler(puzzle, settings, request, deadline, emit)
    if notes:  # what the reader left out: decoration, digits entered without "given"
        fields.setdefault("notes", list(notes))
    return fields


# -- the conflict, for every command that meets a puzzle with no solution ---------------------
def _conflict_fields(puzzle: Puzzle, deadline: Deadline, pictures: bool, *,
                     capped: bool = True) -> Fields:
    """``message`` (no solution, and the parts that conflict), ``conflict`` (their names),
    ``conflict_cells``, and the puzzle's picture with them shaded (``svg``). ``capped``:
    the report after a verdict of no solution, which a solvable puzzle contradicts (an
    internal error: :func:`~sudoku_csp.cli.conflicts.conflict_after_none`); else the
    ``conflict`` command's, asked of any puzzle."""
    from sudoku_csp.cli.conflicts import conflict_after_none
    from sudoku_csp.constraints.fields import rc
    from sudoku_csp.setter import minimal_conflict

    conflict = (conflict_after_none(puzzle, deadline) if capped
                else minimal_conflict(puzzle, time_limit=deadline))
    if conflict is None:  # the conflict command, asked of a puzzle that has a solution
        return {"message": "the puzzle has a solution: nothing conflicts", "conflict": [],
                "conflict_cells": []}
    if not conflict.proven:
        fields: Fields = {"message": "no solution (no conflicting parts shown within the "
                                     "time limit)", "conflict": [], "conflict_cells": []}
    else:
        fields = {"message": conflict.message(), "conflict": conflict.names(),
                  "conflict_cells": [rc(puzzle.geometry, c) for c in conflict.cells()],
                  "conflict_minimal": conflict.minimal}
    if pictures:
        from sudoku_csp.serve.pictures import puzzle_svg

        fields["svg"] = puzzle_svg(puzzle, highlight=conflict.cells() if conflict.proven
                                   else ())
    return fields


def _undecided(deadline: Deadline, what: str) -> Fields:
    return {"type": "invalid", "message": f"undecided: the {deadline.words()} ended {what} "
                                          "before an answer"}


# -- the protocol's commands ------------------------------------------------------------------
def _truecandidates(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
                    emit: Emit) -> Fields:
    from sudoku_csp.setter import true_candidates

    tc = true_candidates(puzzle, cap=settings.cap, time_limit=deadline)
    extra: Fields = {"status": tc.status, "cap": tc.cap, "solutions": len(tc.solutions),
                     "complete": tc.complete, "calls": tc.calls,
                     "seconds": round(tc.seconds, 4)}
    if not tc.complete:
        # Partial counts would read as claims (a digit not yet seen as impossible, a count
        # not settled as exact): say what is settled in the extra fields only.
        return {**_undecided(deadline, "the true candidates"), **extra,
                "record": tc.to_json()}
    if tc.status == "none":
        return {"type": "invalid", **extra,
                **_conflict_fields(puzzle, deadline, request.pictures)}
    fields = {"type": "truecandidates", "solutionsPerCandidate":
              solutions_per_candidate(tc.counts), **extra}
    if request.pictures:
        from sudoku_csp.serve.pictures import candidates_svg

        fields["svg"] = candidates_svg(tc)
    return fields


def _solve(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
           emit: Emit) -> Fields:
    from sudoku_csp.backends import get_backend
    from sudoku_csp.result import Status

    result = get_backend(engine(puzzle)).solve(puzzle, limit=1, time_limit=deadline)
    if result.status is Status.NONE:
        return {"type": "invalid", **_conflict_fields(puzzle, deadline, request.pictures)}
    if result.digits is None:
        return _undecided(deadline, "the search")
    return {"type": "solved", "solution": list(result.digits), "solver": result.solver}


def count_solutions(puzzle: Puzzle, limit: int | None, deadline: Deadline,
                    seen: Callable[[int], None]) -> tuple[int, bool]:
    """Count ``puzzle``'s solutions up to ``limit`` (None: all) before ``deadline``, each
    checked against the rules as it is found; ``seen(count)`` after each. Returns the count
    and whether it is complete (every solution found: fewer than ``limit``, none left).

    >>> from sudoku_csp import parse
    >>> count_solutions(parse("12.." "34.." "2..." "...."), None, Deadline(), print)
    1
    2
    3
    4
    5
    6
    (6, True)
    """
    from sudoku_csp.backends.base import Tally

    if not puzzle.constraints:
        from sudoku_csp.native.search import Searcher

        tally = Tally(puzzle, engine(puzzle), limit)

        def sink(grid: tuple[int, ...]) -> None:
            tally.add(grid)  # checked against the rules, and against the ones before
            seen(tally.count)

        out = Searcher().solve(puzzle, limit, deadline, sink=sink)
        return tally.count, out.complete
    from sudoku_csp.setter import PartSession

    try:
        session = PartSession(puzzle, deadline=deadline)
    except Expired:
        return 0, False
    with session:
        # Each solution found is ruled out behind a selector of its own, assumed from then
        # on, as true candidates enumerate (a count of tens of thousands slows down).
        excluded: list[int] = []
        while limit is None or len(excluded) < limit:
            grid = session.solve(session.parts, excluded, deadline)  # checked there
            if grid is None:
                return len(excluded), not session.timed_out
            excluded.append(session.exclude(grid))
            seen(len(excluded))
        return len(excluded), False


class _Progress:
    """Reports a count as it grows: the first at once, then every
    :data:`PROGRESS_SECONDS`."""

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.last = -math.inf

    def __call__(self, count: int) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_SECONDS:
            self.last = now
            self.emit({"type": "count", "count": count, "inProgress": True})


def _counted(puzzle: Puzzle, request: Request, deadline: Deadline, emit: Emit,
             limit: int) -> Fields:
    """The ``count`` replies of a count to ``limit``: ``check`` counts to 2 (a final count
    of 2 says "two or more", as SudokuSolver's does); ``count`` to one past
    :data:`MAX_COUNT`, which it reports as "more than", never as the count."""
    found, complete = count_solutions(puzzle, limit, deadline, _Progress(emit))
    if not complete and found < limit:
        return {**_undecided(deadline, "the count"), "count": found}
    if found > MAX_COUNT:
        return {"type": "invalid", "count": found,
                "message": f"more than {MAX_COUNT:,} solutions: counting stopped there"}
    fields: Fields = {"type": "count", "count": found, "inProgress": False,
                      "complete": complete, "solver": engine(puzzle)}
    if found == 0:
        fields.update(_conflict_fields(puzzle, deadline, request.pictures))
    return fields


def _check(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
           emit: Emit) -> Fields:
    return _counted(puzzle, request, deadline, emit, 2)


def _count(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
           emit: Emit) -> Fields:
    return _counted(puzzle, request, deadline, emit, MAX_COUNT + 1)


def _setter_marks(puzzle: Puzzle) -> list[int]:
    """What the setter's grid shows per cell: a digit's bit, the pencil marks, or 0."""
    from sudoku_csp.constraints.kinds.pencilmarks import PencilMarks

    shown = [0 if d == EMPTY else 1 << d for d in puzzle.givens]
    for constraint in puzzle.constraints:
        if isinstance(constraint, PencilMarks):
            for cell, mask in constraint.marks:
                if shown[cell] == 0:
                    shown[cell] = mask
    return shown


def _logical(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
             one_step: bool) -> Fields:
    """``logical``: the grid after one step (``step``) or the whole path (``solvepath``)."""
    from sudoku_csp.logic import Board, Contradiction, explain

    try:
        start = Board.from_puzzle(puzzle)
    except Contradiction as exc:
        return {"type": "logical", "cells": logical_cells(puzzle), "isValid": False,
                "message": f"The board is invalid: {exc}.\n"}
    if one_step:
        shown = _setter_marks(puzzle)
        if any(start.is_open(c) and shown[c] != start.cand[c] for c in range(len(shown))):
            # SudokuSolver's first step fills in the candidates the givens leave.
            return {"type": "logical",
                    "cells": logical_cells(puzzle, start.cand, start.state.placed),
                    "isValid": True, "message": "Initial candidates.\n"}
    explanation = explain(puzzle, techniques=settings.techniques(),
                          max_steps=1 if one_step else None, time_limit=deadline)
    board = start
    for step in explanation.steps:
        board.apply(step)
    if explanation.no_solution:
        conflict = _conflict_fields(puzzle, deadline, False)
        return {"type": "logical",
                "cells": logical_cells(puzzle, board.cand, board.state.placed),
                "isValid": False, "message": conflict["message"] + "\n",
                "conflict": conflict["conflict"], "conflict_cells": conflict["conflict_cells"]}
    if one_step:
        if explanation.steps:
            message = explanation.steps[0].text
        elif explanation.solved:
            message = "Solved: no step left."
        else:
            message = f"No logical step: {explanation.stuck}."
    else:
        message = "\n".join(explanation.lines())
    fields: Fields = {"type": "logical",
                      "cells": logical_cells(puzzle, board.cand, board.state.placed),
                      "isValid": True, "message": message + "\n",
                      "verdict": explanation.verdict.value,
                      "steps": [s.as_dict(puzzle.geometry) for s in explanation.steps],
                      "rating": explanation.rating.as_dict()}
    if request.pictures and explanation.steps:
        from sudoku_csp.serve.pictures import path_html

        fields["html"] = path_html(explanation)
    return fields


def _solvepath(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
               emit: Emit) -> Fields:
    return _logical(puzzle, settings, request, deadline, one_step=False)


def _step(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
          emit: Emit) -> Fields:
    return _logical(puzzle, settings, request, deadline, one_step=True)


def estimate_solutions(puzzle: Puzzle, emit: Emit, deadline: Deadline,
                       rng: random.Random, samples: int | None = None) -> Fields:
    """Estimate how many solutions ``puzzle`` has by Knuth's random descents: from the
    propagated grid, branch on the cell with fewest candidates, keep the digits whose
    propagation survives, take one at random and multiply the weight by how many survived;
    a descent that ends on a solution (checked against the rules) counts its weight, one
    that ends in a contradiction 0. The mean of the weights is an unbiased estimate; its
    standard error and 95 % interval say how close. Reports go to ``emit`` every
    :data:`PROGRESS_SECONDS`; runs until ``samples`` descents (None: until the deadline, or
    until the worker is stopped), and returns the last report.

    >>> from sudoku_csp import parse
    >>> six = parse("12.." "34.." "2..." "....")
    >>> last = estimate_solutions(six, lambda f: None, Deadline(), random.Random(1), 300)
    >>> last["iterations"], last["ci95_lower"] < 6 < last["ci95_upper"]
    (300, True)
    """
    from sudoku_csp.native.rules import DEFAULT_RULES, RULES, assign, propagate, rule_names
    from sudoku_csp.native.search import branch_mrv
    from sudoku_csp.native.state import State
    from sudoku_csp.verify import is_solution

    rules = [RULES[name] for name in rule_names(DEFAULT_RULES)]
    root = State.from_puzzle(puzzle)
    n, mean, m2 = 0, 0.0, 0.0
    last = -math.inf

    def report() -> Fields:
        stderr = math.sqrt(m2 / (n - 1) / n) if n > 1 else math.inf
        spread = 1.96 * stderr
        return {"type": "estimate", "estimate": mean, "stderr": stderr, "iterations": n,
                "ci95_lower": mean - spread, "ci95_upper": mean + spread,
                "relErrPercent": 100 * spread / mean if mean and n > 1 else 0.0}

    if not propagate(root, rules):
        fields = report()
        emit(fields)
        return fields
    while (samples is None or n < samples) and not deadline.expired():
        state, weight = root.copy(), 1.0
        while not state.solved:
            cell, mask = branch_mrv(state)
            alive = []
            for digit in bits(mask):
                child = state.copy()
                if assign(child, cell, digit) and propagate(child, rules):
                    alive.append(child)
            if not alive:
                weight = 0.0
                break
            weight *= len(alive)
            state = rng.choice(alive)
        if weight and not is_solution(puzzle, state.grid()):
            weight = 0.0  # never counted unless it is one
        n += 1
        delta = weight - mean
        mean += delta / n
        m2 += delta * (weight - mean)
        now = time.monotonic()
        if now - last >= PROGRESS_SECONDS:
            last = now
            emit(report())
    return report()


def _estimate(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
              emit: Emit) -> Fields:
    samples = request.extra.get("samples")
    if not (isinstance(samples, int) and not isinstance(samples, bool) and samples > 0):
        samples = None
    return estimate_solutions(puzzle, emit, deadline, random.Random(), samples)


# -- this tool's own commands ---------------------------------------------------------------
def _read(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
          emit: Emit) -> Fields:
    """The puzzle as read: its rules in words, its picture, and links to open it in
    f-puzzles and SudokuPad."""
    from urllib.parse import quote

    from sudoku_csp.constraints import rule_lines
    from sudoku_csp.io import to_line
    from sudoku_csp.io.fpuzzles import FPUZZLES_PREFIX, fpuzzles_url
    from sudoku_csp.serve.pictures import puzzle_svg

    fields: Fields = {"type": "puzzle", "size": puzzle.size,
                      "geometry": puzzle.geometry.name, "title": puzzle.metadata,
                      "givens": puzzle.clue_count, "line": to_line(puzzle),
                      "rules": rule_lines(puzzle.geometry, puzzle.constraints),
                      "svg": puzzle_svg(puzzle)}
    try:
        link = fpuzzles_url(puzzle)
    except InputError as exc:  # a rule f-puzzles has no form for (windoku)
        fields["links"] = {"error": str(exc)}
    else:
        payload = link.removeprefix(FPUZZLES_PREFIX)
        fields["links"] = {"fpuzzles": link, "sudokupad": "https://sudokupad.app/?puzzleid="
                                                          "fpuzzles" + quote(payload, safe="")}
    return fields


def _verdicts(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
              emit: Emit) -> Fields:
    """Each backend's verdict on uniqueness, and whether they agree."""
    from sudoku_csp.crosscheck import crosscheck

    # One request, one time limit: the backends share it (each runs within what is left).
    check = crosscheck(puzzle, list(BACKENDS), limit=2, time_limit=deadline)
    backends = []
    for spec, claim in check.claims.items():
        result = check.results.get(spec)
        backends.append({"spec": spec, "verdict": str(claim.verdict),
                         "seconds": round(claim.seconds, 4),
                         "note": claim.error or (result.message if result else "")})
    return {"type": "verdicts", "status": str(check.status), "agreed": check.agreed,
            "decided": check.decided, "backends": backends, "reasons": list(check.reasons),
            "solution": check.solution}


def _conflict(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
              emit: Emit) -> Fields:
    return {"type": "conflict", **_conflict_fields(puzzle, deadline, request.pictures,
                                                   capped=False)}


def _disambiguate(puzzle: Puzzle, settings: Settings, request: Request, deadline: Deadline,
                  emit: Emit) -> Fields:
    """The single givens that make the puzzle unique, or a set of them when none does."""
    from sudoku_csp.setter import disambiguate

    found = disambiguate(puzzle, time_limit=deadline)
    fields: Fields = {"type": "disambiguation", **found.to_json()}
    if found.status == "multiple":
        if found.singles:
            words = f"{len(found.singles)} single givens make it unique"
        elif found.found_set:
            words = (f"no single given makes it unique; these {len(found.found_set)} do: "
                     + ", ".join(found.named(found.found_set)))
        else:
            words = "no set of givens found within the time limit"
    else:
        words = {"unique": "the puzzle is already unique",
                 "none": "the puzzle has no solution",
                 "unknown": "undecided within the time limit"}.get(found.status, found.status)
    fields["message"] = words
    if request.pictures:
        from sudoku_csp.serve.pictures import puzzle_svg

        cells = [cell for cell, _ in (found.singles or found.found_set)]
        fields["svg"] = puzzle_svg(puzzle, highlight=cells)
    return fields


Handler = Callable[[Puzzle, Settings, Request, Deadline, Emit], Fields]

HANDLERS: dict[str, Handler] = {
    "truecandidates": _truecandidates,
    "solve": _solve,
    "check": _check,
    "count": _count,
    "solvepath": _solvepath,
    "step": _step,
    "estimate": _estimate,
    "read": _read,
    "verdicts": _verdicts,
    "conflict": _conflict,
    "disambiguate": _disambiguate,
}
"""Every command but ``cancel`` (which the server answers itself), and the function that
answers it from the request's puzzle, the userscript's settings, the request (its extra
fields), the deadline, and ``emit`` for the replies before the last."""
