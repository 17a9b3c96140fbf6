"""Dynamic forcing chains, found by trial: suppose a fact, run the native solver's
propagation to a fixpoint (:func:`outcome`: singles and the constraints' links, fast), and
keep the suppositions that conclude something; the tracked reasoner of
:mod:`sudoku_csp.logic.forcing` then words the shortest argument.

A supposition that leads to a contradiction stays contradictory as candidates go (no
solution of fewer candidates has it either), so the contradictions one search finds are
carried to the explanation's next steps (:attr:`~sudoku_csp.logic.board.Board.carried`):
while some of them still hold and nothing simpler applies, the next step is the shortest
of those, worded again on the pencil marks of the moment, and the trials are not run again
(:data:`CARRIED`). Every step is still the tracked reasoner's own argument; what is carried
only says where to look.
"""

from __future__ import annotations

from sudoku_csp.logic.board import Board
from sudoku_csp.logic.forcing import (
    Lit,
    Reasoner,
    _candidates,
    _cell_and_region,
    _contradictions,
    _double_implication,
    _outcomes,
)
from sudoku_csp.logic.step import Step
from sudoku_csp.native.rules import constrain, eliminate, only_choice
from sudoku_csp.native.state import bits

__all__ = ["CARRIED", "dynamic_forcing_chain", "outcome"]

CARRIED = 24
"""Contradictions carried to the next step at most (the shortest of the search): worded
again each step, they cost a tracked run each."""

_KEY = "dynamic_forcing_chain"


def outcome(board: Board, cell: int, digit: int, on: bool) -> list[int] | None:
    """The pencil marks after supposing the fact and running singles to a fixpoint with the
    native rules (fast); None on contradiction."""
    board.check_time()
    state = board.state.copy()
    state.pending.clear()
    if on:
        state.cand[cell] = 1 << digit
        state.pending.append(cell)
    else:
        state.cand[cell] &= ~(1 << digit)
        if not state.cand[cell]:
            return None
        if not state.cand[cell] & (state.cand[cell] - 1):
            state.pending.append(cell)
    state.touch(cell)
    state.dirty = state.tables.all_units
    while True:  # singles, then the typed constraints' links, until neither changes a thing
        if eliminate(state) is None or only_choice(state) is None:
            return None
        made = constrain(state) if state.links else 0
        if made is None:
            return None
        if not made:
            return state.cand


def _open(board: Board, lit: Lit) -> bool:
    """The supposition's candidate is still one of an open cell's."""
    c, d = divmod(lit >> 1, board.size)
    return board.is_open(c) and bool(board.cand[c] >> d & 1)


def _carry(board: Board, reasoner: Reasoner, lits: list[Lit]) -> Step | None:
    """The shortest contradiction among ``lits`` on these pencil marks; the others that
    still contradict are carried on (shortest first)."""
    outcomes = _outcomes(reasoner, lits)
    step = _contradictions(board, _KEY, "Dynamic forcing chain", outcomes)
    if step is None:
        board.carried.pop(_KEY, None)
        return None
    (cell, digit), = step.eliminations or step.placements
    made = reasoner.lit(cell, digit, bool(step.eliminations))  # the supposition refuted
    rest = sorted((outcome.length(outcome.conflict), lit) for lit, outcome in outcomes.items()
                  if outcome.conflict and lit != made)
    board.carried[_KEY] = [lit for _, lit in rest[:CARRIED]]
    return step


def dynamic_forcing_chain(board: Board) -> Step | None:
    """Dynamic forcing chains: contradiction, double implication, cell and region forcing,
    with singles that combine several facts. The native rules find which suppositions
    conclude something (fast); the tracked reasoner then words the shortest."""
    reasoner = Reasoner(board, dynamic=True)
    carried = [lit for lit in board.carried.get(_KEY, ()) if _open(board, lit)]
    if carried:
        step = _carry(board, reasoner, carried)
        if step is not None:
            return step
    cands = _candidates(board)
    results = {(c, d, on): outcome(board, c, d, on) for c, d in cands
               for on in (True, False)}
    lits = [reasoner.lit(c, d, on) for (c, d, on), cand in results.items() if cand is None]
    if lits:
        step = _carry(board, reasoner, lits)
        if step is not None:
            return step
    # Something every case implies, found on the native results, then worded.
    wanted: set[Lit] = set()
    cand = board.cand

    def shared(keys: list[tuple[int, int, bool]]) -> bool:
        marks = [m for m in (results[k] for k in keys) if m is not None]
        if len(marks) != len(keys):
            return False
        for x in board.open_cells():
            on_all = off_all = cand[x]  # a digit placed in every case; one gone in every case
            for m in marks:
                on_all &= m[x] if not m[x] & (m[x] - 1) else 0
                off_all &= ~m[x]
            if off_all or (on_all and on_all != cand[x]):
                return True
        return False

    for c, d in cands:
        if shared([(c, d, True), (c, d, False)]):
            wanted.update((reasoner.lit(c, d, True), reasoner.lit(c, d, False)))
    for c in board.open_cells():
        if cand[c].bit_count() > 1 and shared([(c, d, True) for d in bits(cand[c])]):
            wanted.update(reasoner.lit(c, d, True) for d in bits(cand[c]))
    for u in range(len(board.tables.units)):
        for d in range(board.size):
            places = board.places(u, d)
            if len(places) > 1 and not board.is_done(u, d):
                keys = [(p, d, True) for p in places]
                if shared(keys):
                    wanted.update(reasoner.lit(p, d, True) for p in places)
    if not wanted:
        return None
    outcomes = _outcomes(reasoner, sorted(wanted))
    return (_double_implication(board, _KEY, "Dynamic forcing chain", outcomes)
            or _cell_and_region(board, reasoner, _KEY, "dynamic forcing chains", outcomes))

