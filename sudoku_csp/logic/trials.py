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

from sudoku_csp.geometry import bits
from sudoku_csp.logic import basic, constraints, houses
from sudoku_csp.logic.board import Board, Contradiction
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
from sudoku_csp.native.rules import PRESETS, RULES, constrain, eliminate, only_choice, propagate

__all__ = ["CARRIED", "dynamic_forcing_chain", "forcing_chain_plus", "outcome", "plus_outcome"]

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
    rest = sorted((outcome.conflict_length(), lit) for lit, outcome in outcomes.items()
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
    results: dict[tuple[int, int, bool], list[int] | None] = {}
    for c, d in cands:
        results[(c, d, True)] = outcome(board, c, d, True)
        results[(c, d, False)] = None  # its place in the order; set below
    for c, d in cands:
        # In a bivalue cell "not d" starts the very same trial as the other digit on.
        rest = board.cand[c] & ~(1 << d)
        results[(c, d, False)] = (results[(c, rest.bit_length() - 1, True)]
                                  if not rest & (rest - 1) else outcome(board, c, d, False))
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


# -- dynamic forcing chains (+): trials that use subsets and locked candidates too -------------
PLUS_RULES = tuple(RULES[name] for name in PRESETS["full"])
"""The native rules a trial of the (+) chains runs: singles, locked candidates, naked pairs
and triples, hidden pairs, and the constraints' links."""

REPLAY = (basic.full_house, basic.hidden_single_box, basic.hidden_single_line,
          basic.naked_single, constraints.rule_step, constraints.combination_step,
          houses.rule_hidden_single, constraints.units_step, basic.pointing, basic.claiming,
          basic.naked_pair, basic.hidden_pair, basic.naked_triple, basic.hidden_triple)
"""The techniques that word a (+) chain, tried in the ladder's order on the supposed
position (they reach at least what :data:`PLUS_RULES` reach)."""

WORDED = 6
"""Contradictions worded per search (the shortest of them is the step; one the replay
cannot word is passed over): wording one replays the techniques, the costly part."""

MOST_SUBSTEPS = 120
"""Steps a replay takes at most before it is given up (that supposition is then left)."""

_PLUS = "forcing_chain_plus"


def plus_outcome(board: Board, cell: int, digit: int) -> bool:
    """Whether supposing ``digit`` in ``cell`` empties a cell or a unit once the native
    rules of :data:`PLUS_RULES` run to a fixpoint."""
    board.check_time()
    state = board.state.copy()
    state.pending.clear()
    state.cand[cell] = 1 << digit
    state.pending.append(cell)
    state.touch(cell)
    state.dirty = state.stale = state.tables.all_units
    return not propagate(state, PLUS_RULES)


def _replay(board: Board, cell: int, digit: int) -> list[Step] | None:
    """The steps our own techniques take from ``digit`` supposed in ``cell`` to a
    contradiction (the last step is the one that meets it), or None when they do not get
    there within :data:`MOST_SUBSTEPS`."""
    trial = board.copy()
    made: list[Step] = []
    try:
        trial.place(cell, digit)
        trial.check()
        for _ in range(MOST_SUBSTEPS):
            step = next((s for s in (find(trial) for find in REPLAY) if s is not None), None)
            if step is None:
                return None
            made.append(step)
            trial.apply(step)
    except Contradiction as exc:
        made.append(Step("contradiction", 0.0, str(exc)))
        return made
    return None


def _plus_step(board: Board, cell: int, digit: int, made: list[Step]) -> Step:
    g = board.geometry
    facts = sum(len(s.placements) + len(s.eliminations) for s in made) + 1
    chain = ((cell, digit), *(p for s in made for p in s.placements))
    said = "; ".join(_brief(s) for s in made)
    return Step(_PLUS, 0.0,
                f"Forcing chain (+): {g.label(cell)}={board.sym(digit)} leads to a "
                f"contradiction in {len(made) - 1} steps ({said}) → "
                f"{g.label(cell)}≠{board.sym(digit)}",
                eliminations=((cell, digit),), chain=chain, marks=((cell, digit),),
                cells=tuple(dict.fromkeys(c for c, _ in chain)), length=facts)


def _brief(step: Step) -> str:
    """A step of a replay as the chain shows it: a constraint's step by its name and what
    it removes (its reasons are the constraint's own, seen in the step when it is made);
    every other step whole."""
    if step.technique.startswith("constraint") and " → " in step.text:
        return f"{step.text.split(':')[0]} → {step.text.rsplit(' → ', 1)[1]}"
    return step.text


def forcing_chain_plus(board: Board) -> Step | None:
    """A candidate whose supposition leads to a contradiction once singles, the
    constraints, locked candidates and naked and hidden subsets follow from it: the
    shortest of the first few found (fewest steps), worded step by step; the others found
    are carried to the next steps."""
    cand = board.cand
    carried = [(c, d) for c, d in board.carried.get(_PLUS, ())
               if board.is_open(c) and cand[c] >> d & 1]
    found = [x for x in carried if plus_outcome(board, *x)]
    if not found:
        found = [(c, d) for c, d in _candidates(board) if plus_outcome(board, c, d)]
    worded: list[tuple[int, int, int, list[Step]]] = []
    tried = 0
    for c, d in found:
        if len(worded) == WORDED:
            break
        tried += 1
        made = _replay(board, c, d)
        if made is not None:
            worded.append((len(made), c, d, made))
    board.carried[_PLUS] = found[tried:] + [(c, d) for _, c, d, _ in sorted(worded)[1:]]
    if not worded:
        return None
    _, c, d, made = min(worded, key=lambda w: w[:3])
    return _plus_step(board, c, d, made)
