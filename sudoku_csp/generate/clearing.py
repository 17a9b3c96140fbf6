"""Clearing givens from a solution grid while it stays the only solution: the greedy pass,
the redundant givens, and the local search that makes a symmetric puzzle minimal."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sudoku_csp.constraints import Constraint
from sudoku_csp.generate.session import UniquenessSession
from sudoku_csp.geometry import EMPTY, Grid
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it


def cleared(grid: Grid, groups: list[tuple[int, ...]], rng: random.Random,
            session: UniquenessSession, single_minimal: bool,
            constraints: Sequence[Constraint] = ()) -> list[int] | None:
    """The givens of a unique puzzle whose solution is ``grid``: its symmetry ``groups``
    cleared greedily in random order while ``constraints`` and the givens left keep the
    grid the only solution, then (``single_minimal``) made minimal in single givens by
    :func:`repair`; None when that fails. The step every generator of puzzles with
    givens shares.

    >>> from sudoku_csp.generate import minimality, session_for
    >>> from sudoku_csp.puzzle import Puzzle
    >>> from sudoku_csp.symmetry import symmetry_groups
    >>> g = make_geometry(4)
    >>> grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
    >>> givens = cleared(grid, symmetry_groups(g, "none"), random.Random(1),
    ...                  session_for(g), False)
    >>> sum(d != EMPTY for d in givens) < 16, minimality(Puzzle(g, tuple(givens))).minimal
    (True, True)
    """
    order = list(groups)
    rng.shuffle(order)
    givens = list(grid)
    clear_groups(givens, grid, order, session, constraints)
    if single_minimal and not repair(givens, grid, groups, rng, session, constraints):
        return None
    return givens




def clear_groups(givens: list[int], grid: Grid, order: Sequence[tuple[int, ...]],
           session: UniquenessSession, constraints: Sequence[Constraint] = ()
           ) -> list[tuple[int, ...]]:
    """Clear each given group of ``order`` in turn, keeping it cleared while unique (under
    ``constraints``); the groups cleared, in order."""
    cleared = []
    for group in order:
        if givens[group[0]] == EMPTY:
            continue
        for cell in group:
            givens[cell] = EMPTY
        if session.has_other(givens, grid, constraints):
            for cell in group:  # needed: put the group back
                givens[cell] = grid[cell]
        else:
            cleared.append(group)
    return cleared


def redundant_givens(givens: list[int], grid: Grid, session: UniquenessSession,
               constraints: Sequence[Constraint] = ()) -> list[int]:
    """The given cells that can be cleared alone, the puzzle staying unique (under
    ``constraints``)."""
    return [cell for cell, spare in redundancy(givens, grid, session, constraints) if spare]


def redundancy(givens: list[int], grid: Grid, session: UniquenessSession,
               constraints: Sequence[Constraint] = ()) -> Iterator[tuple[int, bool]]:
    """Each given cell in turn, and whether it can be cleared alone, the puzzle staying
    unique: one question at a time, so a caller stopped part way (a time limit) keeps the
    answers so far. ``givens`` is restored after each question, whatever it raised."""
    for cell, digit in enumerate(givens):
        if digit == EMPTY:
            continue
        givens[cell] = EMPTY
        try:
            spare = not session.has_other(givens, grid, constraints)
        finally:
            givens[cell] = digit
        yield cell, spare


REPAIR_STEPS = 30
"""Local-search moves per grid when a symmetric puzzle must also be minimal."""


def repair(givens: list[int], grid: Grid, groups: list[tuple[int, ...]], rng: random.Random,
            session: UniquenessSession, constraints: Sequence[Constraint] = ()) -> bool:
    """Make a symmetric unique puzzle minimal in single givens (under ``constraints``), in
    place; False on failure.

    A cleared-by-groups puzzle is rarely minimal (under rot90 on 9×9, never). Each move
    clears the group of a redundant given, restores uniqueness by adding back random
    cleared groups, clears groups greedily again, and is kept when it leaves no more
    redundant givens than before: far faster than drawing new grids alone (docs/design.md: Design
    choices, measured).
    """
    group_of = {cell: group for group in groups for cell in group}
    redundant = redundant_givens(givens, grid, session, constraints)
    for _ in range(REPAIR_STEPS):
        if not redundant:
            return True
        moved = move(givens, grid, groups, group_of[rng.choice(redundant)], rng, session,
                      constraints)
        if moved is None:
            continue
        trial = moved.givens
        again = redundant_givens(trial, grid, session, constraints)
        if len(again) <= len(redundant):
            givens[:], redundant = trial, again
    return not redundant


@dataclass
class Moved:
    """A neighbour of a puzzle (:func:`move`): ``givens``, made by clearing ``cleared``
    (in that order) from ``before``, which is unique."""

    givens: list[int]
    before: list[int]
    cleared: list[tuple[int, ...]]


def move(givens: list[int], grid: Grid, groups: list[tuple[int, ...]],
          group: tuple[int, ...], rng: random.Random, session: UniquenessSession,
          constraints: Sequence[Constraint] = ()) -> Moved | None:
    """A neighbour of the unique puzzle ``givens``: ``group`` cleared, random cleared groups
    put back one at a time until the puzzle is unique again, then the givens cleared
    greedily in random order (uniqueness under ``constraints``). None when no single group
    put back restores uniqueness."""
    trial = list(givens)
    for cell in group:
        trial[cell] = EMPTY
    absent = [g for g in groups if trial[g[0]] == EMPTY and g != group]
    rng.shuffle(absent)
    for restored in absent:
        for cell in restored:
            trial[cell] = grid[cell]
        if not session.has_other(trial, grid, constraints):
            break
    else:
        return None
    before = list(trial)
    order = [g for g in groups if trial[g[0]] != EMPTY]
    rng.shuffle(order)
    return Moved(trial, before, clear_groups(trial, grid, order, session, constraints))
