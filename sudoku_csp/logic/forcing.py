"""Forcing chains: suppose a candidate true (or false), follow what must then happen, and
conclude from a contradiction or from a consequence every case shares.

Facts are literals, ``(cell * N + digit) * 2 + 1`` for "cell is digit" (*on*) and ``… + 0``
for "cell is not digit" (*off*). Implications, each remembering the facts it came from:

- on(c, d) ⇒ off(c, e) for the cell's other candidates, off(p, d) for its peers p, and
  off(x, e) for each candidate a typed constraint forbids beside it (its weak links,
  :func:`~sudoku_csp.logic.constraints.weak_links`);
- off facts ⇒ on(c, e) when every other candidate of c is off (a single in the cell), and
  ⇒ on(p, d) when every other place of d in a unit is off (a single in the unit).

*Static* (Sudoku Explainer's "forcing chains"): a single is used only when the cell is
bivalue or the unit has two places on the pencil marks, so each fact follows from one other
and the argument is a chain. *Dynamic*: any number of off facts may combine into a single,
and the typed constraints' links narrow their cells again from all the facts about them
(each fact so found comes from those). *Nishio*: dynamic, restricted to the facts about one
digit (and the constraints' weak links between that digit's candidates).

Conclusions, simplest first, with their length (the facts the argument needs):

- contradiction: X ⇒ two facts that cannot both hold, so not X;
- double implication: X ⇒ Y and not X ⇒ Y, so Y;
- cell forcing: each candidate of a cell ⇒ Y, so Y; region forcing: each place of a digit in
  a unit ⇒ Y, so Y.

A step records the implications its argument uses as links between candidates
(:attr:`~sudoku_csp.logic.step.Step.links`): an off fact derived from an on fact is a weak
link (both cannot be true), an on fact derived from off facts a strong one (one of them is
true).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from sudoku_csp.geometry import Candidate, bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.closures import (
    Closure,
    digit_forbids,
    nishio_suspects,
    shares,
    static_closures,
)
from sudoku_csp.logic.constraints import named_links, weak_links
from sudoku_csp.logic.step import Link, Step, unit_name

Lit = int


@dataclass
class Implications:
    """The facts a hypothesis implies (each with the facts it came from), and the facts of
    the first contradiction reached (empty if none)."""

    facts: dict[Lit, tuple[Lit, ...]]
    conflict: tuple[Lit, ...] = ()
    _conflict_length: int | None = field(default=None, repr=False, compare=False)

    def conflict_length(self) -> int:
        """:meth:`length` of the conflict, worked out once (a step is chosen by it, and
        the contradictions carried on are sorted by it)."""
        if self._conflict_length is None:
            self._conflict_length = self.length(self.conflict)
        return self._conflict_length

    def length(self, lits: tuple[Lit, ...] | list[Lit]) -> int:
        """How many facts the argument for ``lits`` rests on (their ancestors, themselves
        included)."""
        seen: set[Lit] = set()
        todo = list(lits)
        facts = self.facts
        while todo:
            lit = todo.pop()
            if lit in seen or lit not in facts:  # a single's reasons name its own digit
                continue
            seen.add(lit)
            todo.extend(facts[lit])
        return len(seen)


class Reasoner:
    """Follows implications from hypotheses on a fixed snapshot of the pencil marks."""

    def __init__(self, board: Board, dynamic: bool, digit: int | None = None) -> None:
        self.board = board
        self.n = board.size
        self.dynamic = dynamic
        self.digit = digit
        self.cand = board.cand
        self.peers = board.tables.peers
        self.units = board.tables.units
        self.done = board.state.done
        # unit * size + digit -> its places, as a list, as a mask of cells, and as the
        # places' off facts (what a single or a contradiction there comes from)
        self.places: dict[int, tuple[list[int], int, tuple[Lit, ...]]] = {}
        # on(c, d) -> the off facts it implies on the snapshot; cell -> its candidates' off
        # facts (made as runs first need them, the same in every run)
        self.implied: dict[Lit, tuple[Lit, ...]] = {}
        self.cell_offs: dict[int, tuple[Lit, ...]] = {}
        # The constraints' weak links as literals: on(c, d) ⇒ off of each (one digit's
        # only, for Nishio).
        self.forbids: dict[Lit, list[Lit]] = board.cached(
            f"reasoner forbids {digit}", lambda: _forbids(board, digit))
        # Dynamic chains follow the constraints' links themselves: each link, and per cell
        # the links through it.
        self.links = ([link for _, link in named_links(board)]
                      if dynamic and digit is None else [])
        self.links_of: dict[int, list[int]] = {}
        for k, link in enumerate(self.links):
            for c in dict.fromkeys(link.cells):
                self.links_of.setdefault(c, []).append(k)

    def lit(self, cell: int, digit: int, on: bool) -> Lit:
        return (cell * self.n + digit) * 2 + on

    def _implies(self, lit: Lit) -> tuple[Lit, ...]:
        """The off facts ``lit`` (an on fact) implies at once: the cell's other candidates
        (unless one digit is followed), the digit in the cell's peers, the constraints'
        weak links."""
        n, cand = self.n, self.cand
        cell, digit = divmod(lit >> 1, n)
        bit = 1 << digit
        offs = [] if self.digit is not None else [
            (cell * n + e) << 1 for e in bits(cand[cell] & ~bit)]
        offs += [(p * n + digit) << 1 for p in self.peers[cell] if cand[p] & bit]
        offs += self.forbids.get(lit, ())
        found = self.implied[lit] = tuple(offs)
        return found

    def _offs_of(self, cell: int) -> tuple[Lit, ...]:
        n = self.n
        found = self.cell_offs[cell] = tuple((cell * n + e) << 1 for e in bits(self.cand[cell]))
        return found

    def run(self, hypotheses: list[Lit]) -> Implications:
        self.board.check_time()
        n, cand, units, done = self.n, self.cand, self.units, self.done
        links, links_of = self.links, self.links_of
        places_of, implied, cell_offs = self.places, self.implied, self.cell_offs
        cell_units = self.board.tables.cell_units
        facts: dict[Lit, tuple[Lit, ...]] = {}
        offs = [0] * len(cand)  # per cell, the mask of digits supposed off
        off_cells = [0] * n  # per digit, the mask of the cells it is supposed off in
        ons: dict[int, int] = {}  # cell -> the digit supposed on
        about: dict[int, list[Lit]] = {}  # cell -> the facts about it (for the links)
        stale: dict[int, None] = {}  # links whose cells have new facts, in the order met
        queue: deque[Lit] = deque()
        only = self.digit

        def derive(lit: Lit, why: tuple[Lit, ...]) -> tuple[Lit, ...]:
            """Record ``lit``; the conflict if its opposite is already a fact."""
            if lit in facts:
                return ()
            facts[lit] = why
            if lit ^ 1 in facts:
                return (lit, lit ^ 1)
            c, d = divmod(lit >> 1, n)
            if lit & 1:
                ons[c] = d
            else:
                offs[c] |= 1 << d
                off_cells[d] |= 1 << c
            if links_of:
                about.setdefault(c, []).append(lit)
            queue.append(lit)
            return ()

        def narrow(k: int) -> tuple[Lit, ...]:
            """Run link ``k`` on the facts about its cells: its removals are off facts that
            come from all of those; the conflict if it cannot be met."""
            cells = links[k].cells
            masks = tuple([1 << ons[c] if c in ons else cand[c] & ~offs[c] for c in cells])
            out = links[k].narrow(masks)
            if out is None:
                return tuple(f for c in dict.fromkeys(cells) for f in about.get(c, ()))
            why: tuple[Lit, ...] | None = None  # gathered at the first removal, if any
            for c, before, after in zip(cells, masks, out, strict=True):
                for e in bits(before & ~after):
                    if why is None:
                        why = tuple(f for x in dict.fromkeys(cells) for f in about.get(x, ()))
                    conflict = derive((c * n + e) << 1, why)
                    if conflict:
                        return conflict
            return ()

        for lit in hypotheses:
            derive(lit, ())
        conflict: tuple[Lit, ...] = ()
        while queue or stale:
            if not queue:
                k = next(iter(stale))
                del stale[k]
                conflict = narrow(k)
                if conflict:
                    return Implications(facts, conflict)
                continue
            lit = queue.popleft()
            cell, digit = divmod(lit >> 1, n)
            bit = 1 << digit
            if links_of:
                for k in links_of.get(cell, ()):
                    stale[k] = None
            if lit & 1:  # on
                why = (lit,)
                for off in implied.get(lit) or self._implies(lit):
                    if off not in facts:  # derive(off, why), inlined: the hottest call
                        facts[off] = why
                        if off ^ 1 in facts:
                            return Implications(facts, (off, off ^ 1))
                        c, d = divmod(off >> 1, n)
                        offs[c] |= 1 << d
                        off_cells[d] |= 1 << c
                        if links_of:
                            about.setdefault(c, []).append(off)
                        queue.append(off)
                continue
            # off: a single in the cell? (Its reasons are all the cell's off facts: the one
            # of the digit left is no fact, and counts in no argument.)
            if only is None:
                left = cand[cell] & ~offs[cell]
                if not left:
                    return Implications(facts, cell_offs.get(cell) or self._offs_of(cell))
                if not left & (left - 1) and (self.dynamic or cand[cell].bit_count() == 2):
                    e = left.bit_length() - 1
                    conflict = derive(((cell * n + e) << 1) | 1,
                                      cell_offs.get(cell) or self._offs_of(cell))
                    if conflict:
                        return Implications(facts, conflict)
            # a single of the digit in one of the cell's units?
            for u in cell_units[cell]:
                if done[u] & bit:
                    continue
                found = places_of.get(u * n + digit)
                if found is None:  # the snapshot's places, the same in every run
                    listed = [p for p in units[u] if cand[p] & bit]
                    found = places_of[u * n + digit] = (
                        listed, sum(1 << p for p in listed),
                        tuple((p * n + digit) << 1 for p in listed))
                places, mask, place_offs = found
                left = mask & ~off_cells[digit]
                if not left:
                    return Implications(facts, place_offs)
                if not left & (left - 1) and (self.dynamic or len(places) == 2):
                    p = left.bit_length() - 1
                    conflict = derive(((p * n + digit) << 1) | 1, place_offs)
                    if conflict:
                        return Implications(facts, conflict)
        return Implications(facts)


def _forbids(board: Board, digit: int | None) -> dict[Lit, list[Lit]]:
    """The constraints' weak links as literals, on(c, d) ⇒ the off facts (one digit's only
    when ``digit`` is given): made once per position for every reasoner of it."""
    n, found = board.size, {}
    for (c, d), linked in weak_links(board).items():
        offs = [(x * n + e) << 1 for x, e in linked if digit is None or e == digit]
        if offs and (digit is None or d == digit):
            found[((c * n + d) << 1) | 1] = offs
    return found


def _candidates(board: Board) -> list[Candidate]:
    cand = board.cand
    return [(c, d) for c in board.open_cells() if cand[c].bit_count() > 1
            for d in bits(cand[c])]


def _useful(board: Board, lit: Lit) -> bool:
    """The fact would change the pencil marks."""
    c, d = divmod(lit >> 1, board.size)
    if not board.cand[c] >> d & 1:
        return False
    return not lit & 1 or board.is_open(c)


def _describe(board: Board, lit: Lit) -> str:
    c, d = divmod(lit >> 1, board.size)
    return f"{board.label(c)}{'=' if lit & 1 else '≠'}{board.sym(d)}"


def _conclude(board: Board, lit: Lit) -> tuple[tuple[Candidate, ...], tuple[Candidate, ...]]:
    c, d = divmod(lit >> 1, board.size)
    return (((c, d),), ()) if lit & 1 else ((), ((c, d),))


def _argument(outcome: Implications, lits: list[Lit] | tuple[Lit, ...]) -> list[Lit]:
    """The facts the argument for ``lits`` rests on, in the order they were derived."""
    need: set[Lit] = set()
    todo = list(lits)
    while todo:
        lit = todo.pop()
        if lit not in need:
            need.add(lit)
            todo.extend(outcome.facts.get(lit, ()))
    return [lit for lit in outcome.facts if lit in need]


def _chain_of(board: Board, outcome: Implications, lits: list[Lit] | tuple[Lit, ...]
              ) -> tuple[Candidate, ...]:
    """The on-facts of an argument, in the order they were derived (for pictures)."""
    n = board.size
    return tuple(divmod(lit >> 1, n) for lit in _argument(outcome, lits) if lit & 1)


def _links_of(board: Board, outcome: Implications, lits: list[Lit] | tuple[Lit, ...]
              ) -> tuple[Link, ...]:
    """The implications of the argument for ``lits`` as links, in the order derived: from
    each fact a fact came from to it, strong when it is an on fact (derived from off facts),
    weak when an off fact. A contradiction's two facts about one candidate join no link."""
    n = board.size
    found: dict[Link, None] = {}
    for lit in _argument(outcome, lits):
        end = divmod(lit >> 1, n)
        for source in outcome.facts[lit]:
            start = divmod(source >> 1, n)
            if start != end:
                found[(start, end, bool(lit & 1))] = None
    return tuple(found)


def _step(board: Board, technique: str, text: str, conclusion: Lit, length: int,
          chain: tuple[Candidate, ...], links: tuple[Link, ...]) -> Step:
    placements, eliminations = _conclude(board, conclusion)
    return Step(technique, 0.0, f"{text} → {_describe(board, conclusion)}",
                placements=placements, eliminations=eliminations, chain=chain,
                marks=chain, cells=tuple(dict.fromkeys(c for c, _ in chain)), length=length,
                links=links)


def _contradictions(board: Board, technique: str, name: str,
                    outcomes: dict[Lit, Implications]) -> Step | None:
    best: tuple[int, Lit, Implications] | None = None
    for lit, outcome in outcomes.items():
        if outcome.conflict:
            length = outcome.conflict_length()
            if best is None or length < best[0]:
                best = (length, lit, outcome)
    if best is None:
        return None
    length, lit, outcome = best
    return _step(board, technique,
                 f"{name}: {_describe(board, lit)} leads to a contradiction "
                 f"({', '.join(_describe(board, x) for x in outcome.conflict[:2])}"
                 f"{', …' if len(outcome.conflict) > 2 else ''}) in {length} steps",
                 lit ^ 1, length, _chain_of(board, outcome, outcome.conflict),
                 _links_of(board, outcome, outcome.conflict))


def _common(board: Board, technique: str, name: str, cases: list[Lit],
            outcomes: dict[Lit, Implications], what: str) -> tuple[int, Step] | None:
    """A useful fact every case implies, with the smallest total length."""
    if any(c not in outcomes for c in cases):
        return None
    runs = [outcomes[c] for c in cases]
    if any(r.conflict for r in runs):
        return None
    shared = set(runs[0].facts)
    for r in runs[1:]:
        shared &= r.facts.keys()
    best: tuple[int, Lit] | None = None
    for lit in shared:
        if lit in cases or not _useful(board, lit):
            continue
        length = sum(r.length([lit]) for r in runs)
        if best is None or length < best[0]:
            best = (length, lit)
    if best is None:
        return None
    length, lit = best
    chain = tuple(dict.fromkeys(x for r in runs for x in _chain_of(board, r, [lit])))
    links = tuple(dict.fromkeys(x for r in runs for x in _links_of(board, r, [lit])))
    return length, _step(board, technique, f"{name}: {what} each imply {_describe(board, lit)}"
                         f" ({length} steps)", lit, length, chain, links)


def _outcomes(reasoner: Reasoner, lits: list[Lit]) -> dict[Lit, Implications]:
    return {lit: reasoner.run([lit]) for lit in lits}


def _double_implication(board: Board, technique: str, name: str,
                        outcomes: dict[Lit, Implications]) -> Step | None:
    best: tuple[int, Step] | None = None
    for lit in outcomes:
        if lit & 1 and lit ^ 1 in outcomes:
            found = _common(board, technique, name, [lit, lit ^ 1], outcomes,
                            f"{_describe(board, lit)} and {_describe(board, lit ^ 1)}")
            if found and (best is None or found[0] < best[0]):
                best = found
    return best[1] if best else None


def _cell_and_region(board: Board, reasoner: Reasoner, technique: str, name: str,
                     outcomes: dict[Lit, Implications]) -> Step | None:
    best: tuple[int, Step] | None = None
    n, cand = board.size, board.cand
    for c in board.open_cells():
        if cand[c].bit_count() > 1:
            cases = [reasoner.lit(c, d, True) for d in bits(cand[c])]
            found = _common(board, technique, f"Cell {name}", cases, outcomes,
                            f"the candidates of {board.label(c)}")
            if found and (best is None or found[0] < best[0]):
                best = found
    for u in range(len(board.tables.units)):
        for d in range(n):
            places = board.places(u, d)
            if len(places) > 1 and not board.is_done(u, d):
                cases = [reasoner.lit(p, d, True) for p in places]
                found = _common(board, technique, f"Region {name}", cases, outcomes,
                                f"the places of {board.sym(d)} in "
                                f"{unit_name(board.geometry, u)}")
                if found and (best is None or found[0] < best[0]):
                    best = found
    return best[1] if best else None


def _all_lits(board: Board, reasoner: Reasoner) -> list[Lit]:
    return [reasoner.lit(c, d, on) for c, d in _candidates(board) for on in (True, False)]


def _static(board: Board) -> tuple[Reasoner, list[Lit], dict[Lit, Closure],
                                   dict[Lit, Implications]]:
    """The static reasoner, every supposition (each candidate on, and off), where each
    leads on masks (:func:`~sudoku_csp.logic.closures.static_closures`), and the reasoner's
    runs made so far: worked out once for the forcing chains and the cell and region forcing
    chains that both read them."""
    def compute() -> tuple[Reasoner, list[Lit], dict[Lit, Closure], dict[Lit, Implications]]:
        reasoner = Reasoner(board, dynamic=False)
        lits = _all_lits(board, reasoner)
        return reasoner, lits, static_closures(board, lits), {}
    return board.cached("static forcing", compute)


def _tracked(board: Board, wanted: set[Lit]) -> dict[Lit, Implications]:
    """The reasoner's runs of the suppositions ``wanted``, in the order of all of them
    (each run once per position): all a step is chosen from, since the others conclude
    nothing."""
    reasoner, lits, _, runs = _static(board)
    for lit in lits:
        if lit in wanted and lit not in runs:
            runs[lit] = reasoner.run([lit])
    return {lit: runs[lit] for lit in lits if lit in wanted}


def forcing_chain(board: Board) -> Step | None:
    """Static forcing chains from one candidate: contradiction or double implication."""
    _, lits, closed, _ = _static(board)
    refuted = {lit for lit in lits if closed[lit] is None}
    step = _contradictions(board, "forcing_chain", "Forcing chain", _tracked(board, refuted))
    if step is not None:
        return step
    both = {x for lit in lits if lit & 1 and shares(closed, [lit, lit ^ 1])
            for x in (lit, lit ^ 1)}
    if not both:
        return None
    return _double_implication(board, "forcing_chain", "Forcing chain",
                               _tracked(board, both))


def nishio(board: Board) -> Step | None:
    """A digit supposed in a cell leaves some unit with no place for that digit."""
    best: Step | None = None
    forbids, candidates = digit_forbids(board), _candidates(board)
    for d in range(board.size):
        cells = nishio_suspects(board, d, [c for c, e in candidates if e == d],
                                 forbids.get(d, {}))
        if not cells:
            continue
        reasoner = Reasoner(board, dynamic=True, digit=d)
        lits = [reasoner.lit(c, d, True) for c in cells]
        step = _contradictions(board, "nishio", f"Nishio on {board.sym(d)}",
                               _outcomes(reasoner, lits))
        if step is not None and (best is None or step.length < best.length):
            best = step
    return best


def static_cell_region(board: Board) -> Step | None:
    """Static forcing chains from every candidate of a cell, or place of a digit in a unit."""
    reasoner, lits, closed, _ = _static(board)
    cand, wanted = board.cand, set()
    groups = [[reasoner.lit(c, d, True) for d in bits(cand[c])] for c in board.open_cells()
              if cand[c].bit_count() > 1]
    groups += [[reasoner.lit(p, d, True) for p in board.places(u, d)]
               for u in range(len(board.tables.units)) for d in range(board.size)
               if not board.is_done(u, d)]
    for cases in groups:
        if len(cases) > 1 and shares(closed, cases):
            wanted.update(cases)
    if not wanted:
        return None  # no cell nor region whose cases share a fact
    return _cell_and_region(board, reasoner, "cell_region_forcing", "forcing chains",
                            _tracked(board, wanted))
