"""A constraint read exactly with the units its cells share, and constraints that overlap
read together: every way to fill the cells that keeps the rules, by search.

A constraint's own link weighs its rule alone (a sandwich's sums, an arrow's totals), and
may let two cells of one row hold the same digit; a solver reading it by hand never does:
the cells between a sandwich's crusts hold different digits, an arrow's cells in one box
too. ``constraint_exact`` fills the link's cells every way its candidates allow, with
different digits wherever two cells see each other, keeps the fillings the link accepts
(links are complete on singles, so a full filling it accepts keeps the rule), and removes
each candidate no filling uses. ``constraint_overlap`` does the same for two constraints
that share cells (a cage beneath an arrow, two sums crossing): what their combinations
allow together, beyond what each allows alone.

The search checks each candidate in turn for one filling that uses it (each filling found
supports all the candidates it holds), narrowing by the links at every node; it is bounded
by :data:`BUDGET` nodes per link and position: a search that would need more is given up,
and that link makes no step (never a false one), nor is searched again on the same
candidates. The fillings found are carried from one step to the next: a filling keeps the
rules whatever the pencil marks, so a candidate one of them holds is not searched for again
while its digits remain, and a link whose cells have not changed is not searched at all.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import links_of, title
from sudoku_csp.logic.step import Step, eliminated

__all__ = ["BUDGET", "EXACT_RATING", "MOST_CELLS", "OVERLAP_RATING", "constraint_exact",
           "constraint_overlap", "read_together", "supports", "Filling"]

BUDGET = 4000
"""Search nodes spent at most on one link (or pair of links) for one set of candidates."""

EXACT_RATING = 2.7
"""Reading a constraint with the units of its cells: after pointing (2.6), before claiming
(2.8); a setter weighs a sandwich's fillings as different digits from the start."""

MOST_CELLS = 14
"""Two constraints over more cells than this together are not read together (the search
would mostly give up)."""

OVERLAP_RATING = 3.2
"""Two constraints read together: a combination clash, as hard to see as an X-wing."""


class _OutOfBudget(Exception):  # noqa: N818 - a signal inside the search, never raised out
    pass


Filling = tuple[int, ...]
"""One way to fill a search's cells: a one-digit mask per cell, in the order of its cells."""


def supports(geometry: Geometry, links: tuple[Link, ...], cells: tuple[int, ...],
             masks: tuple[int, ...], budget: int = BUDGET, known: tuple[Filling, ...] = (),
             first: bool = False) -> tuple[tuple[int, ...], tuple[Filling, ...]] | None:
    """The candidates of ``cells`` (``masks``, in that order) that some filling keeping
    every one of ``links`` (their cells among ``cells``) and different digits in peer
    cells uses, and fillings that show it (one for each candidate at most); None when the
    search would pass ``budget`` nodes. A cell with no candidate left means the links
    cannot be met. ``known``: fillings seen before (on these links and cells); each still
    inside ``masks`` supports its candidates without a search (a filling keeps the rules
    whatever the pencil marks, so what it shows stays shown while its digits remain).
    ``first``: stop at the first filling found, the candidates it uses standing for those
    kept (asked only whether the links can be met at all).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints.cage_sums import sum_link
    >>> g = make_geometry(4)
    >>> bounds = sum_link(g, (0, 1), 4, False)        # A1 + A2 = 4, repeats allowed
    >>> kept, shown = supports(g, (bounds,), (0, 1), (0b1111, 0b1111))
    >>> kept, supports(g, (bounds,), (0, 1), (0b0101, 0b0101), known=shown)[0]
    ((5, 5), (5, 5))
    """
    n = len(cells)
    index = {c: i for i, c in enumerate(cells)}
    where = [tuple(index[c] for c in link.cells) for link in links]
    peers = [[j for j in range(n) if j != i and geometry.are_peers(cells[i], cells[j])]
             for i in range(n)]
    spent = [0]

    def narrow(state: list[int]) -> list[int] | None:
        """Different digits between peers and every link, to a fixpoint (a link is asked
        again only when its cells changed since it last left them as they were)."""
        state = list(state)
        spread = 0          # the cells whose one digit is gone from their peers
        still: list[tuple[int, ...] | None] = [None] * len(links)
        changed = True
        while changed:
            changed = False
            for i, m in enumerate(state):
                if spread >> i & 1 or m & (m - 1):
                    continue
                spread |= 1 << i
                for j in peers[i]:
                    if state[j] & m:
                        state[j] &= ~m
                        if not state[j]:
                            return None
                        changed = True
            for k, (link, at) in enumerate(zip(links, where, strict=True)):
                before = tuple(state[i] for i in at)
                if before == still[k]:
                    continue
                after = link.narrow(before)
                if after is None:
                    return None
                if after == before:
                    still[k] = before
                    continue
                for i, a in zip(at, after, strict=True):
                    if state[i] & ~a:
                        state[i] &= a
                        if not state[i]:
                            return None
                        changed = True
        return state

    def search(state: list[int]) -> list[int] | None:
        spent[0] += 1
        if spent[0] > budget:
            raise _OutOfBudget
        narrowed = narrow(state)
        if narrowed is None:
            return None
        open_ = [i for i, m in enumerate(narrowed) if m & (m - 1)]
        if not open_:
            return narrowed
        i = min(open_, key=lambda k: narrowed[k].bit_count())
        for d in digits_of(narrowed[i]):
            trial = list(narrowed)
            trial[i] = 1 << d
            found = search(trial)
            if found is not None:
                return found
        return None

    state = list(masks)
    supported = [0] * n
    shown = [f for f in known if all(m & ~s == 0 for m, s in zip(f, masks, strict=True))]
    for filling in shown:
        for j, m in enumerate(filling):
            supported[j] |= m
    try:
        for i in range(n):
            for d in digits_of(state[i] & ~supported[i]):
                if supported[i] >> d & 1:
                    continue
                trial = list(state)
                trial[i] = 1 << d
                found = search(trial)
                if found is None:
                    state[i] &= ~(1 << d)
                    continue
                shown.append(tuple(found))
                for j, m in enumerate(found):
                    supported[j] |= m
                if first:
                    return tuple(supported), tuple(shown)
    except _OutOfBudget:
        return None
    return tuple(supported), tuple(shown)


def _gone(board: Board, links: tuple[Link, ...]) -> tuple[list[Candidate], tuple[int, ...]
                                                          ] | None:
    """What reading ``links`` together removes now (with their cells), or None when
    nothing, or when the search was given up. The fillings found are carried to the next
    steps (:attr:`Board.carried`), so a candidate shown once is not searched for again while
    its filling stands; a search given up is not tried again on the same candidates."""
    cells = tuple(dict.fromkeys(c for link in links for c in link.cells))
    if sum(board.is_open(c) for c in cells) < 2:
        return None
    masks = tuple(board.cand[c] for c in cells)
    shown: dict[tuple[Link, ...], tuple[Filling, ...]] = board.carried.setdefault(
        "exact fillings", {})
    given_up: set[tuple[tuple[Link, ...], tuple[int, ...]]] = board.carried.setdefault(
        "exact given up", set())
    if (links, masks) in given_up:
        return None
    found = supports(board.geometry, links, cells, masks, BUDGET, shown.get(links, ()))
    if found is None:
        given_up.add((links, masks))
        return None
    kept, shown[links] = found
    gone = [(c, d) for c, m, k in zip(cells, masks, kept, strict=True) if board.is_open(c)
            for d in digits_of(m & ~k)]
    return (gone, cells) if gone else None


def _exact_words(geometry: Geometry, constraint: Constraint) -> str:
    return (f"{title(geometry, constraint)}, with different digits where its cells see each "
            f"other: no way to keep it")


def _overlap_words(geometry: Geometry, first: Constraint, second: Constraint) -> str:
    return (f"{title(geometry, first)} and {title(geometry, second)} share cells: no way to "
            f"keep both")


def read_together(board: Board, key: str, links: tuple[Link, ...], words: Callable[[], str]
          ) -> Step | None:
    """The step of technique ``key`` when reading ``links`` together removes candidates
    (``words()``: what is read, then "uses these"; worded only then)."""
    found = _gone(board, links)
    if found is None:
        return None
    gone, cells = found
    return Step(key, 0.0,
                f"{words()} uses these → eliminates {eliminated(board.geometry, gone)}",
                eliminations=tuple(sorted(gone)), cells=cells)


def _with_peers(geometry: Geometry, link: Link) -> bool:
    cells = tuple(dict.fromkeys(link.cells))
    return any(geometry.are_peers(a, b) for i, a in enumerate(cells) for b in cells[i + 1:])


def constraint_exact(board: Board) -> Step | None:
    """A constraint's link, read with different digits in the cells of it that see each
    other, rules out candidates its own link keeps."""
    g = board.geometry
    for constraint in board.constraints:
        for link in links_of(g, constraint):
            if len(link.cells) < 3 or not _with_peers(g, link):
                continue
            board.check_time()
            step = read_together(board, "constraint_exact", (link,),
                         partial(_exact_words, g, constraint))
            if step is not None:
                return step
    return None


def constraint_overlap(board: Board) -> Step | None:
    """Two constraints that share cells, read together (all the links of both), rule out
    candidates that each alone keeps (a combination clash)."""
    g = board.geometry
    by_cell: dict[int, list[int]] = {}
    for k, constraint in enumerate(board.constraints):
        for c in set(constraint.touched()):
            if board.is_open(c):
                by_cell.setdefault(c, []).append(k)
    pairs = sorted({(a, b) for ks in by_cell.values() for i, a in enumerate(ks)
                    for b in ks[i + 1:]})
    for a, b in pairs:
        board.check_time()
        first, second = board.constraints[a], board.constraints[b]
        links = links_of(g, first) + links_of(g, second)
        if not links or len({c for link in links for c in link.cells}) > MOST_CELLS:
            continue
        step = read_together(board, "constraint_overlap", links,
                     partial(_overlap_words, g, first, second))
        if step is not None:
            return step
    return None
