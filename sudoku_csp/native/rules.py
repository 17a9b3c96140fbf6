"""Propagation rules. Each works alone on a :class:`~sudoku_csp.native.state.State`.

Contract of every rule: ``rule(state) -> int | None``. It makes only sound deductions,
mutating ``state`` in place, and returns how many it made (0: nothing to do), or ``None``
as soon as it finds a contradiction (a cell or a unit-digit with no place left), after which
the state is garbage. A cell reduced to one candidate is appended to ``state.pending``;
only :func:`eliminate` places it (removes its digit from its peers).

Rules run to a fixpoint through :func:`propagate`, cheapest first; presets name lists of
rules (:data:`PRESETS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, compress
from operator import ne

from sudoku_csp.errors import InputError
from sudoku_csp.geometry import bits
from sudoku_csp.native.state import Part, State

Rule = Callable[[State], "int | None"]


def eliminate(state: State) -> int | None:
    """Naked singles: each pending cell's digit leaves its peers; cascades.

    Returns the number of cells placed.
    """
    cand, pending, peers = state.cand, state.pending, state.tables.peers
    done, cell_units = state.done, state.tables.cell_units
    unit_flags = state.tables.unit_flags
    placed, dirty = state.placed, state.dirty
    count = 0
    while pending:
        cell = pending.pop()
        flag = 1 << cell
        if placed & flag:
            continue
        placed |= flag
        count += 1
        bit = cand[cell]
        for u in cell_units[cell]:
            done[u] |= bit
        keep = ~bit
        for p in [p for p in peers[cell] if cand[p] & bit]:
            m = cand[p] & keep
            if not m:
                state.placed = placed
                return None
            cand[p] = m
            dirty |= unit_flags[p]
            if not m & (m - 1):
                pending.append(p)
    state.placed, state.dirty = placed, dirty
    return count


def assign(state: State, cell: int, digit: int) -> bool:
    """Place ``digit`` in ``cell`` and remove it from the cell's peers, with no cascade: a
    peer left with one candidate is not placed (the explainer shows that as a naked single).

    Returns False if a peer loses its last candidate. The one placement both
    :func:`forward_check` and the step-by-step explainer (:mod:`sudoku_csp.logic`) use.
    """
    bit = 1 << digit
    cand = state.cand
    cand[cell] = bit
    state.placed |= 1 << cell
    for u in state.tables.cell_units[cell]:
        state.done[u] |= bit
    state.touch(cell)
    for p in state.tables.peers[cell]:
        if cand[p] & bit:
            if cand[p] == bit:
                return False
            cand[p] &= ~bit
            state.touch(p)
    return True


def forward_check(state: State) -> int | None:
    """Plain backtracking's only step: pending cells' digits leave their peers, no cascade.

    Cells left with one candidate are not placed; the search will branch on them.
    """
    cand, pending = state.cand, state.pending
    count = 0
    while pending:
        cell = pending.pop()
        if state.placed >> cell & 1:
            continue
        count += 1
        if not assign(state, cell, cand[cell].bit_length() - 1):
            return None
    return count


def unit_digits(masks: Iterable[int]) -> tuple[int, int]:
    """``(seen, once)``: the digits with at least one place among the candidate ``masks`` of
    a unit's cells, and those with exactly one place (hidden singles, or placed digits).

    >>> unit_digits([0b011, 0b010, 0b110])   # digit 0 only in the first cell, 2 in the last
    (7, 5)
    """
    seen = twice = 0
    for m in masks:
        twice |= seen & m
        seen |= m
    return seen, seen & ~twice


def only_choice(state: State) -> int | None:
    """Hidden singles: a digit with one place left in a unit goes there.

    Looks only at units changed since its last look (``state.dirty``) and runs until none
    is left. Each hidden single is placed at once (with :func:`eliminate` and its cascade),
    so units looked at later already see its consequences. Returns the number of hidden
    singles plus the cells placed in their wake; ``None`` if some digit has no place left
    in a unit.
    """
    cand, pending, done = state.cand, state.pending, state.done
    tables = state.tables
    full, units, getters, unit_flags = tables.full, tables.units, tables.getters, tables.unit_flags
    count = 0
    while state.dirty:
        dirty = state.dirty
        low = dirty & -dirty
        state.dirty = dirty ^ low
        state.stale |= low
        u = low.bit_length() - 1
        seen = twice = 0
        for m in getters[u](cand):  # unit_digits, inline: the solver's hottest loop
            twice |= seen & m
            seen |= m
        if seen != full:
            return None
        hidden = seen & ~twice & ~done[u]
        if not hidden:
            continue
        while hidden:
            bit = hidden & -hidden
            hidden ^= bit
            for c in units[u]:
                if cand[c] & bit:
                    if cand[c] != bit:
                        cand[c] = bit
                        state.dirty |= unit_flags[c]
                        pending.append(c)
                        count += 1
                    break
            else:
                return None  # its one place was just given another hidden digit
        placed = eliminate(state)
        if placed is None:
            return None
        count += placed
    return count


def _remove(state: State, cells: Sequence[int], digits: int) -> int | None:
    """Remove ``digits`` from ``cells``; the number of cells changed, None if one empties."""
    cand, changed, keep = state.cand, 0, ~digits
    for c in cells:
        m = cand[c]
        if m & digits:
            m &= keep
            if not m:
                return None
            cand[c] = m
            state.touch(c)
            changed += 1
            if not m & (m - 1):
                state.pending.append(c)
    return changed


# -- patterns: found here once, applied by the rules below and explained by sudoku_csp.logic --

def naked_sets(cand: Sequence[int], unit: Sequence[int], k: int
               ) -> Iterator[tuple[tuple[int, ...], int]]:
    """``(cells, digits)`` for each ``k`` open cells of ``unit`` whose candidates together
    are at most ``k`` digits: those digits leave the unit's other cells (fewer than ``k``
    digits is a contradiction). Cells already down to one candidate are not considered.

    >>> list(naked_sets([0b011, 0b011, 0b111, 0b100], (0, 1, 2, 3), 2))
    [((0, 1), 3)]
    """
    small = [c for c in unit if 2 <= cand[c].bit_count() <= k]
    if len(small) < k:
        return
    for group in combinations(small, k):
        union = 0
        for c in group:
            union |= cand[c]
        if union.bit_count() <= k:
            yield group, union


def hidden_sets(cand: Sequence[int], unit: Sequence[int], k: int, size: int
                ) -> Iterator[tuple[tuple[int, ...], int]]:
    """``(cells, digits)`` for each ``k`` digits whose places in ``unit`` (two to ``k`` each)
    lie together in at most ``k`` cells: those cells hold only those digits (a contradiction
    if fewer than ``k`` cells).

    >>> list(hidden_sets([0b0111, 0b0111, 0b1100, 0b1000], (0, 1, 2, 3), 2, 4))
    [((0, 1), 3)]
    """
    places: list[tuple[int, int]] = []  # (digit bit, bitmask of its positions in the unit)
    for d in range(size):
        bit = 1 << d
        where = 0
        for i, c in enumerate(unit):
            if cand[c] & bit:
                where |= 1 << i
        if 2 <= where.bit_count() <= k:
            places.append((bit, where))
    for combo in combinations(places, k):
        where = digits = 0
        for bit, w in combo:
            where |= w
            digits |= bit
        if where.bit_count() <= k:
            yield tuple(c for i, c in enumerate(unit) if where >> i & 1), digits


def locked_sets(state: State, units: Iterable[int]) -> Iterator[tuple[int, Part, int]]:
    """``(u, (cells, rest, v), digits)`` for each of ``units``: ``digits`` (not yet placed in
    unit ``u``) whose places in u all lie in ``cells`` = u ∩ v, two cells or more; they leave
    ``rest`` = v minus u. Pointing when u is a box, claiming when u is a line."""
    cand, done = state.cand, state.done
    locked_parts = state.tables.locked_parts
    for u in units:
        for parts in locked_parts[u]:
            seen = twice = 0
            ors = []
            for cells, _, _ in parts:
                m = 0
                for c in cells:
                    m |= cand[c]
                twice |= seen & m
                seen |= m
                ors.append(m)
            confined = seen & ~twice & ~done[u]
            if not confined:
                continue
            for part, m in zip(parts, ors, strict=True):
                locked = m & confined
                if locked and len(part[0]) > 1:
                    yield u, part, locked


def _naked_subsets(state: State, k: int) -> int | None:
    cand = state.cand
    count = 0
    for unit in state.tables.units:
        for group, union in naked_sets(cand, unit, k):
            if union.bit_count() < k:
                return None  # k cells share fewer than k digits
            changed = _remove(state, [c for c in unit if c not in group], union)
            if changed is None:
                return None
            count += changed
    return count


def naked_pairs(state: State) -> int | None:
    """Naked pairs ("naked twins"): two cells of a unit with the same two candidates own
    them; those digits leave the unit's other cells. Returns the number of cells changed."""
    return _naked_subsets(state, 2)


def naked_triples(state: State) -> int | None:
    """Naked triples: three cells of a unit whose candidates together are three digits own
    them (each cell may hold two or three of them). Returns the number of cells changed."""
    return _naked_subsets(state, 3)


def hidden_pairs(state: State) -> int | None:
    """Hidden pairs: two digits that can go only in the same two cells of a unit; those
    cells lose every other candidate. Returns the number of cells changed."""
    cand = state.cand
    size = state.tables.size
    count = 0
    for unit in state.tables.units:
        for cells, digits in hidden_sets(cand, unit, 2, size):
            if len(cells) < 2:
                return None  # two digits for one cell
            changed = 0
            for c in cells:
                if cand[c] & ~digits:
                    cand[c] &= digits
                    state.touch(c)
                    changed += 1
            # A third digit confined to the same two cells has just lost its last place.
            if changed and unit_digits(cand[c] for c in unit)[0] != state.tables.full:
                return None
            count += changed
    return count


def locked_candidates(state: State) -> int | None:
    """Pointing and claiming: if a digit's places in unit U all lie in U ∩ V for another
    unit V (two or more cells), it leaves the rest of V. Works for boxes and lines, and for
    diagonals, windows and jigsaw regions cut by rows, columns and boxes. Returns the number
    of cells changed."""
    count = 0
    todo = state.stale | state.dirty  # only a change inside U can confine a digit anew
    state.stale = 0
    for _, (_, rest, _), locked in locked_sets(state, bits(todo)):
        changed = _remove(state, rest, locked)
        if changed is None:
            return None
        count += changed
    return count


RULES: dict[str, Rule] = {
    "eliminate": eliminate,
    "only_choice": only_choice,
    "locked_candidates": locked_candidates,
    "naked_pairs": naked_pairs,
    "hidden_pairs": hidden_pairs,
    "naked_triples": naked_triples,
}
"""Every rule by name, cheapest first: the order they run in, whatever order is asked."""

PRESETS: dict[str, tuple[str, ...]] = {
    "none": (),
    "singles": ("eliminate", "only_choice"),
    "locked": ("eliminate", "only_choice", "locked_candidates"),
    "pairs": ("eliminate", "only_choice", "naked_pairs", "hidden_pairs"),
    "full": tuple(RULES),
}
"""``none`` is plain backtracking (forward checking only); ``singles`` is Norvig's
algorithm; ``full`` runs every rule."""

DEFAULT_RULES = "locked"
"""The preset the native solver runs unless told otherwise: measured fastest with search
(examples/benchmark.py on top95 and the 17-clue set)."""


def rule_names(preset_or_rules: str) -> tuple[str, ...]:
    """Rule names of a preset, or of ``+``-joined rule names (``eliminate+only_choice``).

    ``eliminate`` is always included when any rule is, since only it places cells.

    >>> rule_names("locked")
    ('eliminate', 'only_choice', 'locked_candidates')
    """
    if preset_or_rules in PRESETS:
        return PRESETS[preset_or_rules]
    asked = {name.strip() for name in preset_or_rules.split("+") if name.strip()}
    unknown = asked - RULES.keys()
    if unknown or not asked:
        raise InputError(
            f"unknown rules {preset_or_rules!r}: give a preset ({', '.join(PRESETS)}) or "
            f"rules joined by '+' ({', '.join(RULES)})"
        )
    asked.add("eliminate")
    return tuple(name for name in RULES if name in asked)


def constrain(state: State) -> int | None:
    """The puzzle's typed constraints (:mod:`sudoku_csp.constraints`): each link narrows
    its cells' candidates. Returns the number of cells changed, None on contradiction.

    A link is run only when its cells' masks differ from the last ones it accepted
    unchanged, and looked at only when one of the cells it reads
    (:attr:`~sudoku_csp.constraints.translation.Link.reads`) changed since
    (``state.todo``, the cells that differ from ``state.snap``), so a quiet constraint
    costs nothing. Links run in their order, each at most once a call. A cell left single
    goes to ``pending`` for :func:`eliminate` to place.
    """
    cand, pending, seen = state.cand, state.pending, state.seen
    tables = state.link_tables
    assert tables is not None  # a state with links has their tables
    getters, cell_links, narrows, link_cells = (
        tables.getters, tables.cell_links, tables.narrows, tables.link_cells)
    # state.touch, inlined on a local: this loop runs a few hundred times a killer's root
    unit_flags, dirty = state.tables.unit_flags, state.dirty
    todo, snap = state.todo, state.snap
    if snap is not None:  # the cells changed since: picked out in C, the few in Python
        for c in compress(tables.cells, map(ne, cand, snap)):
            todo |= cell_links[c]
    count = 0
    rest = todo
    while rest:
        low = rest & -rest
        rest ^= low
        i = low.bit_length() - 1
        masks = getters[i](cand)
        if masks == seen[i]:
            todo ^= low
            continue
        new = narrows[i](masks)
        if new is None:
            state.dirty = dirty
            return None
        todo ^= low
        if new == masks:
            seen[i] = masks
            continue
        later = ~((low << 1) - 1)  # links after this one, still to look at in this call
        for cell, old, m in zip(link_cells[i], masks, new, strict=True):
            m &= old  # a link only ever removes candidates
            if m != old:
                if not m:
                    state.dirty = dirty
                    return None
                cand[cell] = m
                dirty |= unit_flags[cell]
                if not m & (m - 1):
                    pending.append(cell)
                count += 1
                # the links that read the cell may see new masks: the later ones now, the
                # earlier ones (and this one, unless it does not read the cell: then it has
                # nothing more to do) at the next call
                todo |= cell_links[cell]
                rest |= cell_links[cell] & later
    state.todo, state.snap, state.dirty = todo, cand[:], dirty
    return count


def propagate(state: State, rules: Sequence[Rule], firings: list[int] | None = None) -> bool:
    """Run ``rules`` to a fixpoint: after any rule changes something, start again from the
    first (cheapest). False on contradiction. ``firings[i]`` accumulates rule ``i``'s count.

    With no rules this is plain backtracking's forward check. A state with typed
    constraints (``state.links``) runs :func:`constrain` after the rules, and the rules
    again after it narrows anything, until neither changes a thing: so a state whose cells
    are all placed satisfies every constraint (links are complete on singles).
    """
    if state.links:
        while True:
            if not _fixpoint(state, rules, firings):
                return False
            made = constrain(state)
            if made is None:
                return False
            if not made:
                return True
    return _fixpoint(state, rules, firings)


def _fixpoint(state: State, rules: Sequence[Rule], firings: list[int] | None) -> bool:
    if not rules:
        return forward_check(state) is not None
    i, n = 0, len(rules)
    while i < n:
        made = rules[i](state)
        if made is None:
            return False
        if made:
            if firings is not None:
                firings[i] += made
            if i:
                i = 0
                continue
        i += 1
    return True
