"""Candidate states for the native solver: one bitmask of candidate digits per cell.

Bit ``d`` of ``cand[cell]`` is set while digit ``d`` is still possible in ``cell``. A cell is
*placed* once its single digit has been removed from all its peers; ``pending`` lists cells
that are single but not yet placed; ``done[u]`` is the mask of digits placed in unit ``u``;
bit ``u`` of ``dirty`` marks a unit changed since the hidden-single rule last looked at it,
and of ``stale`` one that changed since the locked-candidates rule did (units leave ``dirty``
for ``stale``). Code that changes ``cand`` directly must :meth:`State.touch` the cell.
Everything the rules need from the geometry is
precomputed once per geometry in :class:`Tables` (lists of ints, no per-call work).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter

from sudoku_csp.constraints import Link, native_links
from sudoku_csp.constraints.translation import gather
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle


class Tables:
    """Per-geometry lookup tables for the rules and the search.

    ``locked_parts[u]`` is the shape the locked-candidates rule works on for unit ``u``
    (see :func:`_locked_parts`).
    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.size = geometry.size
        self.ncells = geometry.ncells
        self.full = (1 << self.size) - 1
        single = {1 << d: d for d in range(self.size)}
        self.digit_of = lambda mask: single.get(mask, EMPTY)
        self.all_cells = (1 << self.ncells) - 1
        self.peers = [tuple(p) for p in geometry.peers]
        self.peer_masks = [sum(1 << p for p in peers) for peers in self.peers]
        self.units = [u.cells for u in geometry.units]
        # itemgetter fetches a unit's masks in one C call: the hidden-single scan is the
        # solver's hottest loop.
        self.getters = [itemgetter(*cells) for cells in self.units]  # units hold >= 2 cells
        self.cell_units = [tuple(us) for us in geometry.cell_units]
        # Bit u of unit_flags[cell] is set for each unit holding the cell: a change to the
        # cell marks those units for the next hidden-single scan.
        self.unit_flags = [sum(1 << u for u in us) for us in geometry.cell_units]
        self.all_units = (1 << len(self.units)) - 1
        self.locked_parts = _locked_parts(geometry)


Part = tuple[tuple[int, ...], tuple[int, ...], int]


def _locked_parts(geometry: Geometry) -> list[list[tuple[Part, ...]]]:
    """For the locked-candidates rule, per unit: each unit U cut into parts by the units of
    another *partition kind* V (a kind that holds every cell exactly once: rows, columns,
    boxes, jigsaw regions). Each part is ``(U ∩ V, V \\ U, v)``, ``v`` the index of V. A
    digit whose places in U all lie in one part of two or more cells must go there, so it
    leaves ``V \\ U``: a box cut by rows gives pointing, a row cut by boxes gives claiming,
    a diagonal cut by boxes the same.
    Entry ``u`` lists one tuple of parts per partition kind that cuts unit ``u``.
    """
    owners: dict[str, dict[int, int]] = {}
    for v, unit in enumerate(geometry.units):
        owners.setdefault(unit.kind, {}).update(dict.fromkeys(unit.cells, v))
    counts: dict[str, int] = {}
    for unit in geometry.units:
        counts[unit.kind] = counts.get(unit.kind, 0) + len(unit.cells)
    partition_kinds = [k for k, owner in owners.items()
                       if len(owner) == geometry.ncells == counts[k]]
    cuts: list[list[tuple[Part, ...]]] = []
    for unit in geometry.units:
        cuts.append([])
        for kind in partition_kinds:
            if kind == unit.kind:
                continue
            by_owner: dict[int, list[int]] = {}
            for c in unit.cells:
                by_owner.setdefault(owners[kind][c], []).append(c)
            if all(len(cells) < 2 for cells in by_owner.values()):
                continue
            parts = tuple(
                (tuple(cells), tuple(sorted(set(geometry.units[v].cells) - set(cells))), v)
                for v, cells in by_owner.items()
            )
            cuts[-1].append(parts)
    return cuts


@lru_cache(maxsize=32)
def tables(geometry: Geometry) -> Tables:
    """The (cached) tables of a geometry."""
    return Tables(geometry)


class LinkTables:
    """Per puzzle's links, for :func:`~sudoku_csp.native.rules.constrain`: ``getters[i]``
    fetches link ``i``'s masks from ``cand`` as a tuple in one C call, and bit ``i`` of
    ``cell_links[cell]`` is set for each link ``i`` whose result depends on ``cell``: each
    link over it but one that reads only its other cells
    (:attr:`~sudoku_csp.constraints.translation.Link.reads`).

    >>> from sudoku_csp.constraints.translation import keep_digits
    >>> t = LinkTables((keep_digits(2, 1), Link((0, 2), lambda masks: masks),
    ...                 Link((), lambda masks: masks)), 3)
    >>> t.cell_links, [get([5, 6, 7]) for get in t.getters]
    ([2, 0, 3], [(7,), (5, 7), ()])
    """

    __slots__ = ("getters", "cell_links", "cells", "narrows", "link_cells")

    def __init__(self, links: Sequence[Link], ncells: int) -> None:
        self.getters: list[Callable[[Sequence[int]], tuple[int, ...]]] = [
            gather(link.cells) for link in links]
        self.narrows = [link.narrow for link in links]
        self.link_cells = [link.cells for link in links]
        self.cells = range(ncells)
        self.cell_links = [0] * ncells
        for i, link in enumerate(links):
            for c in link.cells[:link.reads]:  # the cells its result depends on
                self.cell_links[c] |= 1 << i


_LINK_TABLES: dict[int, tuple[tuple[Link, ...], LinkTables]] = {}


def link_tables_of(links: tuple[Link, ...], ncells: int) -> LinkTables:
    """The :class:`LinkTables` of ``links``, built once per tuple of links: a puzzle's links
    are one tuple (:func:`~sudoku_csp.constraints.native_links` caches them), so solving
    it again builds nothing. Keyed by the tuple's identity (hashing its links would cost
    more than building), which the entry keeps alive, so no other tuple can take its id.

    >>> links = (Link((0, 1), lambda masks: masks),)
    >>> link_tables_of(links, 2) is link_tables_of(links, 2)
    True
    """
    found = _LINK_TABLES.get(id(links))
    if found is not None and found[0] is links and len(found[1].cell_links) == ncells:
        return found[1]
    if len(_LINK_TABLES) >= 256:
        _LINK_TABLES.clear()
    made = LinkTables(links, ncells)
    _LINK_TABLES[id(links)] = (links, made)
    return made


class State:
    """Candidates of every cell during solving. Rules and search mutate it in place.

    >>> from sudoku_csp.native import eliminate
    >>> from sudoku_csp import parse
    >>> s = State.from_puzzle(parse("1..." "..1." ".1.." "...1"))
    >>> eliminate(s), s.candidates(1)   # 4 givens placed; digit 0 (shown 1) left B's peers
    (4, (1, 2, 3))
    """

    __slots__ = ("tables", "cand", "pending", "placed", "done", "dirty", "stale", "givens",
                 "links", "seen", "link_tables", "todo", "snap")

    def __init__(self, tables: Tables, cand: list[int], pending: list[int], placed: int,
                 done: list[int], givens: Grid, dirty: int = -1, stale: int = -1,
                 links: tuple[Link, ...] = (), seen: list[tuple[int, ...] | None] | None = None,
                 link_tables: LinkTables | None = None, todo: int = -1,
                 snap: list[int] | None = None) -> None:
        self.tables = tables
        self.cand = cand
        self.pending = pending
        self.placed = placed
        self.done = done
        self.givens = givens
        self.dirty = tables.all_units if dirty == -1 else dirty
        self.stale = tables.all_units if stale == -1 else stale
        # The puzzle's typed constraints as native links (sudoku_csp.constraints), and for
        # each the masks it last accepted unchanged: a link is run again only when they
        # differ (see rules.constrain).
        self.links = links
        self.seen: list[tuple[int, ...] | None] = (
            seen if seen is not None else [None] * len(links))
        # What spares rules.constrain a look at every link: bit i of ``todo`` is set for
        # each link whose masks may differ from ``seen[i]`` (every link at first), and
        # ``snap`` is ``cand`` as constrain left it (None: not run yet), so the cells
        # changed since are those where the two differ; ``link_tables`` the links' getters
        # and the links of each cell (built once, shared by copies).
        self.link_tables = (link_tables if link_tables is not None or not links
                            else link_tables_of(links, tables.ncells))
        self.todo = (1 << len(links)) - 1 if todo == -1 else todo
        self.snap = snap

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, options: Mapping[str, str] | None = None) -> State:
        """All digits possible in blank cells; each given's cell single and pending.
        ``options``: the kinds' encoding options for their links
        (:func:`~sudoku_csp.constraints.native_links`).

        The givens' digits have not left their peers yet: run ``eliminate`` (or any preset)
        for that. Clashing givens show up as a contradiction at that point.
        """
        t = tables(puzzle.geometry)
        full = t.full
        cand = [full if d == EMPTY else 1 << d for d in puzzle.givens]
        pending = [c for c, d in enumerate(puzzle.givens) if d != EMPTY]
        return cls(t, cand, pending, 0, [0] * len(t.units), puzzle.givens,
                   links=_links(puzzle, options))

    def copy(self) -> State:
        # ``snap`` is never changed in place (constrain replaces it): shared, not copied.
        return State(self.tables, self.cand[:], self.pending[:], self.placed, self.done[:],
                     self.givens, self.dirty, self.stale, self.links,
                     self.seen[:] if self.links else None, self.link_tables, self.todo,
                     self.snap)

    def touch(self, cell: int) -> None:
        """Mark the units of ``cell`` as changed (after changing ``cand[cell]`` by hand)."""
        self.dirty |= self.tables.unit_flags[cell]

    # -- queries --------------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return self.tables.geometry

    @property
    def solved(self) -> bool:
        """Every cell placed (so every digit has left every peer: a consistent grid)."""
        return self.placed == self.tables.all_cells

    def candidates(self, cell: int) -> tuple[int, ...]:
        m = self.cand[cell]
        return tuple(d for d in range(self.tables.size) if m >> d & 1)

    def grid(self) -> Grid:
        """Digit of each single cell, ``EMPTY`` elsewhere."""
        return tuple(map(self.tables.digit_of, self.cand))

    def _repr_svg_(self) -> str:
        from sudoku_csp.render import grid_svg

        return grid_svg(self.geometry, self.givens, values=self.grid(), candidates=self.cand)


def state_from_candidates(puzzle: Puzzle, candidates: Sequence[Sequence[int]]) -> State:
    """A state with the given candidate digits per cell (for exercising rules by hand).

    Single cells start pending (not yet placed), as after a deduction.
    """
    t = tables(puzzle.geometry)
    cand = [sum(1 << d for d in digits) for digits in candidates]
    pending = [c for c, m in enumerate(cand) if m and not m & (m - 1)]
    return State(t, cand, pending, 0, [0] * len(t.units), puzzle.givens, links=_links(puzzle))


def _links(puzzle: Puzzle, options: Mapping[str, str] | None = None) -> tuple[Link, ...]:
    """The native links of the puzzle's typed constraints (none for most puzzles)."""
    if not puzzle.constraints:
        return ()
    return native_links(puzzle.geometry, puzzle.constraints, options)
