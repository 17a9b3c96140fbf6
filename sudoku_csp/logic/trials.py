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

from array import array

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
from sudoku_csp.native.rules import (
    PRESETS,
    RULES,
    constrain,
    eliminate,
    only_choice,
    propagate,
    unit_digits,
)
from sudoku_csp.native.state import State

__all__ = ["CARRIED", "dynamic_forcing_chain", "forcing_chain_plus", "outcome", "plus_outcome"]

CARRIED = 24
"""Contradictions carried to the next step at most (the shortest of the search): worded
again each step, they cost a tracked run each."""

_KEY = "dynamic_forcing_chain"


def _quiet(board: Board) -> tuple[int, list[tuple[int, ...] | None]]:
    """What a trial's first look at the position would find nothing in, worked out once
    per position (:meth:`Board.cached`): the units where the hidden-single rule has nothing
    to do (no digit without a place, none with one place outside a single cell), and per
    typed constraint's link the masks it leaves as they are (None where it narrows them,
    the masks ``rules.constrain`` keeps in ``State.seen``)."""
    def compute() -> tuple[int, list[tuple[int, ...] | None]]:
        state = board.state
        cand, done, tables = state.cand, state.done, state.tables
        full, units = tables.full, tables.units
        quiet = 0
        for u, get in enumerate(tables.getters):
            seen, once = unit_digits(get(cand))
            if seen != full:
                continue
            hidden = once & ~done[u]
            if all(cand[c] == bit for bit in (1 << d for d in bits(hidden))
                   for c in units[u] if cand[c] & bit):
                quiet |= 1 << u
        accepted: list[tuple[int, ...] | None] = []
        if state.links:
            assert state.link_tables is not None
            for link, fetch in zip(state.links, state.link_tables.getters, strict=True):
                masks = fetch(cand)
                accepted.append(masks if link.narrow(masks) == masks else None)
        return quiet, accepted
    return board.cached("trial quiet", compute)


def _trial(board: Board) -> State:
    """A copy of the board's state for a trial, nothing pending: every unit marked for the
    hidden-single rule and every link for ``rules.constrain``, except where a look would
    find nothing (:func:`_quiet`). A trial then looks again only at a unit or a link whose
    cells it changes; the rules make no change and find no contradiction in the others, so
    it ends exactly where looking at everything ends it (same marks, same verdict), without
    those looks. The caller makes its supposition and touches the cell."""
    quiet, accepted = _quiet(board)
    state = board.state.copy()
    state.pending.clear()
    if state.links:
        state.seen = accepted[:]
    state.dirty = state.tables.all_units & ~quiet
    return state


def outcome(board: Board, cell: int, digit: int, on: bool) -> list[int] | None:
    """The pencil marks after supposing the fact and running singles to a fixpoint with the
    native rules (fast); None on contradiction."""
    board.check_time()
    state = _trial(board)
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
    while True:  # singles, then the typed constraints' links, until neither changes a thing
        if eliminate(state) is None or only_choice(state) is None:
            return None
        made = constrain(state) if state.links else 0
        if made is None:
            return None
        if not made:
            return state.cand


class _Packed:
    """Pencil marks packed into one integer, a field of :attr:`field` bits per cell (cell
    ``x``'s mask at bit ``x * field``; 32, or 64 for grids of 32 digits and more), so that
    what a trial implies is read for every cell at once: packed by ``array`` in C,
    compared by integer operations."""

    def __init__(self, board: Board) -> None:
        self.code = "I" if board.size < 32 else "Q"
        self.field = field = array(self.code).itemsize * 8
        self.ones = ones = (1 << (field - 1)) - 1  # a field's bits under its top one
        self.low = sum(1 << (x * field) for x in range(len(board.cand)))
        self.high = self.low << (field - 1)
        self.below = self.high - self.low  # ones in every field
        cand, placed = board.cand, board.state.placed
        # The open cells' candidates; the fields of the open cells that are not single
        self.open = self.pack([0 if placed >> x & 1 else m for x, m in enumerate(cand)])
        self.multi = self.pack([0 if placed >> x & 1 or not m & (m - 1) else ones
                                for x, m in enumerate(cand)])

    def pack(self, masks: list[int]) -> int:
        return int.from_bytes(array(self.code, masks).tobytes(), "little")

    def implied(self, marks: list[int]) -> tuple[int, int]:
        """``(placed, gone)`` for a trial's pencil marks ``marks`` (none empty, each within
        the board's): the digits it leaves single in open cells that were not, and the
        candidates of open cells it removes, each as fields of one integer."""
        packed = self.pack(marks)
        rest = packed & (packed - self.low)  # per field m & (m - 1): no field is empty
        single = (self.high & ~((rest + self.below) & self.high)) >> (self.field - 1)
        return packed & single * self.ones & self.multi, self.open & ~packed


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
    packed = _Packed(board)
    implied = {key: None if marks is None else packed.implied(marks)
               for key, marks in results.items()}

    def shared(keys: list[tuple[int, int, bool]]) -> bool:
        """Some open cell has a digit placed in every case (and is not that digit's
        already), or a digit gone in every case."""
        on = off = -1
        for key in keys:
            found = implied[key]
            if found is None:
                return False
            on &= found[0]
            off &= found[1]
        return bool(on | off)

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
    state = _trial(board)
    state.cand[cell] = 1 << digit
    state.pending.append(cell)
    state.touch(cell)
    state.stale = state.tables.all_units
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
