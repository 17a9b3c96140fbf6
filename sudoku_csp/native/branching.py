"""The native search's branchings: which cell (or house digit) a search node splits on.

Each takes a propagated :class:`~sudoku_csp.native.state.State` (no pending singles) and
names the alternatives of a branch; :data:`~sudoku_csp.native.search.BRANCHING` maps the
``branch=`` option's names to them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sudoku_csp.geometry import Geometry, bits
from sudoku_csp.native.state import State

if TYPE_CHECKING:
    from sudoku_csp.constraints.base import Constraint


def branch_mrv(state: State) -> tuple[int, int]:
    """The open cell with the fewest candidates (first such cell), and its candidates."""
    cand = state.cand
    open_cells = state.tables.all_cells & ~state.placed
    best, best_mask, best_n = -1, 0, 1 << 30
    while open_cells:
        low = open_cells & -open_cells
        open_cells ^= low
        c = low.bit_length() - 1
        m = cand[c]
        n = m.bit_count()
        if n < best_n:
            best, best_mask, best_n = c, m, n
            if n == 1:  # only plain backtracking leaves single cells open
                break
    return best, best_mask


def branch_degree(state: State) -> tuple[int, int]:
    """Fewest candidates, ties broken by most open peers (the degree heuristic of graph
    colouring): the choice that constrains the most cells. Its candidates too."""
    cand, peer_masks = state.cand, state.tables.peer_masks
    open_cells = state.tables.all_cells & ~state.placed
    rest = open_cells
    best, best_key = -1, 1 << 62
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        key = (cand[c].bit_count() << 16) - (open_cells & peer_masks[c]).bit_count()
        if key < best_key:
            best, best_key = c, key
    return best, cand[best]


def branch_first(state: State) -> tuple[int, int]:
    """The first open cell in row-major order, and its candidates."""
    open_cells = state.tables.all_cells & ~state.placed
    c = (open_cells & -open_cells).bit_length() - 1
    return c, state.cand[c]


class ConflictScores:
    """The ``conflicts`` branching's memory over one search: per cell, how many children of a
    branch on it propagation refuted, halved every :data:`DECAY` refutations so that recent
    ones weigh more (the conflict scores of sigh's Interactive Sudoku Solver, and of
    dom/wdeg: branch where the search keeps failing)."""

    DECAY = 1 << 14

    def __init__(self, ncells: int, weights: list[int] | None = None) -> None:
        self.scores = [0] * ncells if weights is None else list(weights)
        self.countdown = self.DECAY

    def failed(self, cell: int) -> None:
        """A child of a branch on ``cell`` was refuted."""
        self.scores[cell] += 1
        self.countdown -= 1
        if not self.countdown:
            self.scores = [score >> 1 for score in self.scores]
            self.countdown = self.DECAY

    def branch(self, state: State) -> tuple[int, int]:
        """The open cell with the highest score per candidate (a single first: no guess);
        :func:`branch_degree` while no branch has failed yet."""
        cell, score = self.highest(state)
        return (cell, state.cand[cell]) if score != 0 else branch_degree(state)

    def highest(self, state: State) -> tuple[int, int | None]:
        """The open cell with the highest score per candidate (the first on ties) and its
        score, or an open single at once (score ``None``: no guess)."""
        cand, scores = state.cand, self.scores
        open_cells = state.tables.all_cells & ~state.placed
        best, best_score, best_count = -1, -1, 1
        while open_cells:
            low = open_cells & -open_cells
            open_cells ^= low
            c = low.bit_length() - 1
            n = cand[c].bit_count()
            if n == 1:
                return c, None
            score = scores[c]
            if score * best_count > best_score * n:
                best, best_score, best_count = c, score, n
        return best, best_score


CONSTRAINT_WEIGHT = 2
"""What each cell of a constraint adds to the starting score of its cells in the ``weighted``
branching, against 1 for each cell of a unit, unless the constraint fixes a sum
(:func:`cell_weights`; docs/design.md, "The native search branches where the constraints
are")."""


def cell_weights(geometry: Geometry, constraints: Iterable[Constraint]) -> list[int]:
    """Each cell's starting score for the ``weighted`` branching: the cells of every unit
    holding it, plus, for every constraint on it, :data:`CONSTRAINT_WEIGHT` times the
    constraint's cells, or for a constraint that fixes a sum
    (:meth:`~sudoku_csp.constraints.base.Constraint.linear_sums`: cages, little killers,
    arrows, ...) ``max(2N - k, N)`` over its ``k`` cells, the more the fewer: a long sum
    says little of each cell. The search then starts where the constraints are densest,
    as sigh's Interactive Sudoku Solver seeds its conflict scores with its handlers'
    priorities (a handler's size; a sum's the same ``max(2N - k, N)``).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage, Thermo
    >>> cell_weights(make_geometry(4), [Thermo((0, 1, 2)), Cage((2, 3), 7)])[:5]
    [18, 18, 24, 18, 12]
    """
    n = geometry.size
    weights = [0] * geometry.ncells
    for unit in geometry.units:
        for c in unit.cells:
            weights[c] += len(unit.cells)
    for constraint in constraints:
        cells = constraint.touched()
        k = len(cells)
        weight = max(2 * n - k, n) if constraint.linear_sums(geometry) else CONSTRAINT_WEIGHT * k
        for c in cells:
            weights[c] += weight
    return weights


class WeightedScores(ConflictScores):
    """The ``weighted`` branching: conflict scores that start from each cell's weight
    (:func:`cell_weights`) and grow by one for each refuted child of a branch on the cell;
    the search branches on the open cell of the highest score per candidate (a single
    first). Where :class:`ConflictScores` falls back to the degree heuristic until
    something fails, this one is led by the constraints from the first node, and a cell
    of two candidates still beats one of many."""

    def branch(self, state: State) -> tuple[int, int]:
        cell, _ = self.highest(state)
        return cell, state.cand[cell]


def house_digit(state: State, fewer_than: int) -> tuple[int, int] | None:
    """A digit with the fewest places (fewer than ``fewer_than``, at least two) in one
    house: a unit of as many cells as digits, where the digit must go somewhere (rows,
    columns, boxes, and every variant house of the geometry: diagonals, windows, jigsaw
    regions...). ``(unit, digit)``, the first such on ties, or None. A digit with two places
    is a binary choice, as a cell with two candidates is; a branch on its places is complete
    because the digit must take one of them."""
    tables, cand = state.tables, state.cand
    size, best, best_n = tables.size, None, fewer_than
    for u, get in enumerate(tables.getters):
        if len(tables.units[u]) != size:
            continue
        # levels[k]: the digits with more than k places in the unit (k < best_n)
        levels = [0] * best_n
        for m in get(cand):
            for k in range(best_n - 1, 0, -1):
                levels[k] |= levels[k - 1] & m
            levels[0] |= m
        for k in range(1, best_n - 1):  # exactly k + 1 places, fewest first
            exact = levels[k] & ~levels[k + 1]
            if exact:
                best, best_n = (u, (exact & -exact).bit_length() - 1), k + 1
                break
        if best_n == 2:  # no fewer places but in a hidden single, which propagation took
            break
    return best


def branch_houses(state: State) -> list[tuple[int, int]]:
    """The ``houses`` branching's alternatives, as ``(cell, digit)`` placements: a cell's
    candidates (the :func:`branch_degree` cell), or, when that cell has four or more and
    some digit has two places in a house, that digit's places (:func:`house_digit`): a
    binary choice where the cells offer none narrower than three. (Taken against a
    three-candidate cell too, house digits cost more nodes than they saved on the generated
    arrows, whispers and thermometers: 553 nodes median against 4675 on the arrows.)"""
    cell, mask = branch_degree(state)
    n = mask.bit_count()
    if n > 3:
        found = house_digit(state, 3)
        if found is not None:
            unit, digit = found
            cand = state.cand
            return [(c, digit) for c in state.tables.units[unit] if cand[c] >> digit & 1]
    return [(cell, d) for d in bits(mask)]
