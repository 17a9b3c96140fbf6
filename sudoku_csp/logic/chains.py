"""Alternating inference chains: X-chains, XY-chains and general AICs, shortest first.

A node is a candidate ``(cell, digit)``. A *strong* link joins two candidates of which at
least one is true: the two candidates of a bivalue cell, or the two places of a digit that
has only two in a unit. A *weak* link joins two that cannot both be true: two candidates of
one cell, or one digit in two peer cells. A chain ``A = B - C = D … = Z`` alternates strong
and weak links, starting and ending strong, so "A false" forces "Z true": one of A and Z is
true, and any candidate weakly linked to both is false.

- X-chain: one digit, strong links inside units. Chains of two to six strong links are
  rated as Sukaku Explainer's "strong links" family (two: skyscraper, two-string kite,
  turbot fish) by :func:`strong_links`, longer ones as X-chains;
- XY-chain: strong links inside bivalue cells only (an XY-wing is the three-cell case);
- AIC: both kinds of strong link.

On a puzzle with typed constraints the weak links also include those the constraints imply
(:func:`~sudoku_csp.logic.constraints.weak_links`: two cells of a cage cannot hold one
digit, neighbours on a whispers line cannot be close), as SudokuSolver's AIC has them: in
every chain (single-digit chains only those between one digit) and in what the two ends
eliminate. A chain that uses one names the constraints after its notation.

``finder(board) -> Step | None`` returns the shortest chain that eliminates something.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial

from sudoku_csp.geometry import LINE_KINDS, Candidate, UnitKind, bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import WeakLinks, weak_links
from sudoku_csp.logic.step import Step, eliminated

Links = dict[Candidate, list[Candidate]]

MAX_NODES = 40
"""Longer chains are not looked for: beyond this the forcing chains explain better."""


def _strong_links(board: Board, cells: bool, units: bool, digit: int | None) -> Links:
    strong: Links = {}
    cand = board.cand
    if cells:
        for c in board.open_cells():
            if cand[c].bit_count() == 2:
                a, b = bits(cand[c])
                strong.setdefault((c, a), []).append((c, b))
                strong.setdefault((c, b), []).append((c, a))
    if units:
        digits = range(board.size) if digit is None else (digit,)
        for u in range(len(board.tables.units)):
            for d in digits:
                ends = board.places(u, d)
                if len(ends) == 2 and not board.is_done(u, d):
                    p, q = ends
                    strong.setdefault((p, d), []).append((q, d))
                    strong.setdefault((q, d), []).append((p, d))
    return strong


def _weak_links(board: Board, strong: Links, in_cell: bool, extra: WeakLinks) -> Links:
    """Weak links from every candidate of the pencil marks to the nodes that carry a strong
    link (only those can continue a chain): between peers, in a cell when ``in_cell``, and
    the constraints' ``extra`` ones."""
    weak: Links = {}
    for node in strong:
        c, d = node
        for p in board.tables.peers[c]:
            if (p, d) in strong:
                weak.setdefault((p, d), []).append(node)
        if in_cell:
            for e in bits(board.cand[c] & ~(1 << d)):
                if (c, e) in strong:
                    weak.setdefault((c, e), []).append(node)
        for other in extra.get(node, ()):
            if other in strong:
                weak.setdefault(other, []).append(node)
    return weak


def _constraint_links(board: Board, digit: int | None) -> WeakLinks:
    """The constraints' weak links (:func:`weak_links`), only those between candidates of
    ``digit`` when one is given (single-digit chains)."""
    extra = weak_links(board)
    if digit is None or not extra:
        return extra
    return board.cached("constraint links by digit", lambda: _by_digit(board, extra))[digit]


def _by_digit(board: Board, extra: WeakLinks) -> list[WeakLinks]:
    """The constraints' weak links split by digit, in one pass per position: each digit's
    chains read them again and again (every length of strong-link chain, every digit)."""
    found: list[WeakLinks] = [{} for _ in range(board.size)]
    for node, linked in extra.items():
        d = node[1]
        found[d][node] = {o: name for o, name in linked.items() if o[1] == d}
    return found


def _unit_weak(board: Board, x: Candidate, y: Candidate) -> bool:
    """``x`` and ``y`` are two candidates of one cell, or one digit in two peers."""
    (cx, dx), (cy, dy) = x, y
    return dx != dy if cx == cy else dx == dy and board.sees(cx, cy)


def _victims(board: Board, a: Candidate, z: Candidate, extra: WeakLinks) -> list[Candidate]:
    """Candidates weakly linked to both ends (so false when one of the ends is true): by
    the units, or by the constraints' ``extra`` links."""
    (ca, da), (cz, dz) = a, z
    if ca == cz:
        found = ([] if da == dz else
                 [(ca, e) for e in bits(board.cand[ca]) if e not in (da, dz)])
    elif da == dz:
        found = [(c, da) for c in board.seen_by_all([ca, cz])]
    elif board.sees(ca, cz):
        found = [(ca, dz), (cz, da)]
    else:
        found = []
    if extra and a != z:
        near_a, near_z = extra.get(a, {}), extra.get(z, {})
        found += [x for x in near_a if x != z and (x in near_z or _unit_weak(board, x, z))]
        found += [x for x in near_z if x != a and _unit_weak(board, x, a)]
    return board.present(found)


def shortest_chain(board: Board, strong: Links, weak: Links, max_nodes: int = MAX_NODES,
                   extra: WeakLinks | None = None
                   ) -> tuple[list[Candidate], list[Candidate]] | None:
    """The shortest chain (nodes, eliminations) of at most ``max_nodes`` nodes that
    eliminates something, or None; ``extra``: the constraints' weak links, for what the
    ends eliminate.

    Breadth-first from every start; a state is (node, whether the next link is strong).
    """
    extra = extra or {}
    best: tuple[list[Candidate], list[Candidate]] | None = None
    for start in sorted(strong):
        board.check_time()
        parent: dict[tuple[Candidate, bool], tuple[Candidate, bool] | None] = {
            (start, True): None}
        depth = {(start, True): 1}
        queue = deque([(start, True)])
        while queue:
            node, strong_next = queue.popleft()
            n = depth[(node, strong_next)]
            if best is not None and n + 1 >= len(best[0]) or n >= max_nodes:
                break
            for nxt in (strong if strong_next else weak).get(node, ()):
                key = (nxt, not strong_next)
                if key in depth:
                    continue
                depth[key] = n + 1
                parent[key] = (node, strong_next)
                if strong_next and n + 1 >= 4 and nxt != start:
                    gone = _victims(board, start, nxt, extra)
                    if gone:
                        path = [nxt]
                        back = parent[key]
                        while back is not None:
                            path.append(back[0])
                            back = parent[back]
                        best = (path[::-1], gone)
                        break
                queue.append(key)
            else:
                continue
            break
    return best


def _notation(board: Board, chain: list[Candidate]) -> str:
    out = []
    for i, (c, d) in enumerate(chain):
        if i:
            out.append("=" if i % 2 else "−")
        out.append(f"{board.label(c)}({board.sym(d)})")
    return "".join(out)


def _by_constraints(board: Board, chain: list[Candidate], gone: list[Candidate],
                    extra: WeakLinks) -> str:
    """`` (weak links of cage 15 at A1, …)``: the constraints whose weak links the chain
    or its eliminations use (a link the units also make is theirs); empty when none."""
    pairs = list(zip(chain[1::2], chain[2::2], strict=False))
    ends = (chain[0], chain[-1])
    pairs += [(end, x) for x in gone for end in ends if x not in
              (chain[0], chain[-1]) and x in extra.get(end, {})]
    names = [extra[x][y] for x, y in pairs
             if y in extra.get(x, {}) and not _unit_weak(board, x, y)]
    return f" (weak links of {', '.join(dict.fromkeys(names))})" if names else ""


def _chain_step(board: Board, technique: str, name: str,
                links: Callable[[Board], tuple[Links, Links]]) -> Step | None:
    strong, weak = links(board)
    extra = _constraint_links(board, None)
    found = shortest_chain(board, strong, weak, MAX_NODES, extra)
    return _step_of(board, technique, name, found, extra)


def _step_of(board: Board, technique: str, name: str | Callable[[list[Candidate]], str],
             found: tuple[list[Candidate], list[Candidate]] | None, extra: WeakLinks,
             bonus: Callable[[list[Candidate]], float] | None = None) -> Step | None:
    """The step of a chain :func:`shortest_chain` found (None for none)."""
    if found is None:
        return None
    chain, gone = found
    title = name if isinstance(name, str) else name(chain)
    return Step(technique, 0.0,
                f"{title}: {_notation(board, chain)}{_by_constraints(board, chain, gone, extra)}"
                f" → eliminates {eliminated(board.geometry, gone)}",
                eliminations=tuple(gone), chain=tuple(chain), marks=tuple(chain),
                cells=tuple(dict.fromkeys(c for c, _ in chain)), length=len(chain),
                bonus=bonus(chain) if bonus else 0.0)


def _digit_chain(board: Board, d: int, max_nodes: int
                 ) -> tuple[list[Candidate], list[Candidate]] | None:
    """The shortest chain of digit ``d`` through strong links in units of at most
    ``max_nodes`` nodes (as :func:`shortest_chain` finds it), or None.

    The search of :data:`MAX_NODES` nodes is made once per position and digit
    (:meth:`Board.cached`) and serves every bound up to it: each of the ladder's strong-link
    chains and the X-chain asks again with a longer bound, and the chain the search finds
    within a bound is the one it finds without it when that one fits (it goes through the
    starts in one order, finds the shortest from each first and keeps a later start's only
    when strictly shorter: a bound only leaves out longer chains), else there is none."""
    def search() -> tuple[list[Candidate], list[Candidate]] | None:
        strong = _strong_links(board, cells=False, units=True, digit=d)
        extra = _constraint_links(board, d)
        weak = _weak_links(board, strong, False, extra)
        return shortest_chain(board, strong, weak, MAX_NODES, extra)
    found = board.cached(f"x chain {d}", search)
    return found if found is not None and len(found[0]) <= max_nodes else None


def _single_digit(board: Board, technique: str, name: Callable[[int, list[Candidate]], str],
                  max_nodes: int, bonus: Callable[[list[Candidate]], float] | None = None
                  ) -> Step | None:
    """The shortest chain of one digit through strong links in units, over every digit."""
    best: Step | None = None
    for d in range(board.size):
        step = _step_of(board, technique, partial(name, d), _digit_chain(board, d, max_nodes),
                        _constraint_links(board, d), bonus)
        if step is not None and (best is None or step.length < best.length):
            best = step
    return best


def x_chain(board: Board) -> Step | None:
    """The shortest single-digit chain through strong links in units."""
    return _single_digit(board, "x_chain", lambda d, _: f"X-chain on {board.sym(d)}",
                         MAX_NODES)


def _link_kinds(board: Board, chain: list[Candidate]) -> list[set[str]]:
    """For each strong link of a single-digit chain, the kinds of unit ("row", "column",
    or "box" for any other unit) in which its two cells are the digit's only places."""
    units = board.geometry.units
    kinds = []
    for (p, d), (q, _) in zip(chain[::2], chain[1::2], strict=True):
        kinds.append({units[u].kind if units[u].kind in LINE_KINDS else UnitKind.BOX
                      for u in board.tables.cell_units[p]
                      if q in units[u].cells and len(board.places(u, d)) == 2})
    return kinds


def _kinds_bonus(kinds: list[set[str]]) -> float:
    """Sukaku Explainer's refinement of a strong-link chain's rating, with each link read
    in the unit that keeps it lowest: +0 when every link lies in the same kind of line,
    +0.2 when a box link and both kinds of line cannot be avoided, +0.1 otherwise."""
    if any(all(line in k for k in kinds) for line in LINE_KINDS):
        return 0.0
    if all(k & set(LINE_KINDS) for k in kinds):
        return 0.1
    if any(all(k - {line} for k in kinds) for line in LINE_KINDS):
        return 0.1
    return 0.2


def _strong_links_name(board: Board, d: int, chain: list[Candidate]) -> str:
    links = len(chain) // 2
    if links > 2:
        return f"{links} strong links on {board.sym(d)}"
    kinds = _link_kinds(board, chain)
    bonus = _kinds_bonus(kinds)
    name = "Skyscraper" if bonus == 0 else (
        "Two-string kite" if all(k & set(LINE_KINDS) for k in kinds) else "Turbot fish")
    return f"{name} on {board.sym(d)}"


def strong_links(links: int) -> Callable[[Board], Step | None]:
    """A finder for single-digit chains of at most ``links`` strong links (the ladder tries
    fewer links first, so the chain it reports has exactly that many)."""
    def find(board: Board) -> Step | None:
        return _single_digit(
            board, STRONG_LINK_KEYS[links],
            lambda d, chain: _strong_links_name(board, d, chain), 2 * links,
            lambda chain: _kinds_bonus(_link_kinds(board, chain)))
    find.__doc__ = f"A single-digit chain of {links} strong links."
    return find


STRONG_LINK_KEYS = {2: "turbot_fish", 3: "three_strong_links", 4: "four_strong_links",
                    5: "five_strong_links", 6: "six_strong_links"}


def xy_chain(board: Board) -> Step | None:
    """The shortest chain through bivalue cells (digits linked weakly between peers)."""
    def links(b: Board) -> tuple[Links, Links]:
        strong = _strong_links(b, cells=True, units=False, digit=None)
        return strong, _weak_links(b, strong, False, weak_links(b))
    return _chain_step(board, "xy_chain", "XY-chain", links)


def aic(board: Board) -> Step | None:
    """The shortest alternating inference chain with both kinds of strong link."""
    def links(b: Board) -> tuple[Links, Links]:
        strong = _strong_links(b, cells=True, units=True, digit=None)
        return strong, _weak_links(b, strong, True, weak_links(b))
    return _chain_step(board, "aic", "AIC", links)
