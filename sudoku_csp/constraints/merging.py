"""Auxiliaries that a clause list makes equivalent, written as one
(:func:`merge_equivalent`, :func:`merge_map`): what a kind's clauses lose before they become
a template (:func:`~sudoku_csp.constraints.translation.templated`) when it asks for it
(killer cages' sets: :mod:`sudoku_csp.constraints.cage_sums`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import neg

__all__ = ["merge_equivalent", "merge_map"]


def merge_equivalent(clauses: Sequence[Sequence[int]], first: int
                     ) -> tuple[list[tuple[int, ...]], int]:
    """``clauses`` with auxiliaries (variables from ``first`` on) that two binary clauses
    make equivalent written as one: from ``p ∨ q`` and ``¬p ∨ ¬q``, ``p`` is ``¬q``
    (``has(d) ↔ set(j)`` of a cage's only set holding ``d``; both digits of a two-cell
    cage's pair), again until no such pair is left. A clause that becomes a tautology goes,
    a literal or clause written twice is kept once, and the auxiliaries left are numbered
    from ``first`` in order; returns the clauses and how many auxiliaries they use.

    Unit propagation loses nothing: where the clauses gave one of two equivalent literals a
    value, the pair of binary clauses gave the other the same value in the next step, and
    each merged clause is a clause of those, or implied by them with fewer literals.

    >>> merge_equivalent([(-1, 5), (-5, 1), (-5, 6), (5, -6), (6, 2), (2, 5)], 5)  # 6 is 5
    ([(-1, 5), (-5, 1), (5, 2)], 1)
    >>> merge_equivalent([(-1, 5), (-5, 6)], 5)   # none: as they are
    ([(-1, 5), (-5, 6)], 2)
    """
    merged, aux, _ = merge_map(clauses, first)
    return merged, aux


def merge_map(clauses: Sequence[Sequence[int]], first: int
              ) -> tuple[list[tuple[int, ...]], int, dict[int, int]]:
    """:func:`merge_equivalent`, and where each auxiliary went: its literal among the
    clauses returned (an auxiliary not in it is unchanged).

    >>> merge_map([(-1, 5), (-5, 1), (-5, 6), (5, -6), (6, 2), (2, 5)], 5)[2]
    {6: 5, 5: 5}
    """
    rep: dict[int, int] = {}  # an auxiliary variable -> the literal it is merged into

    def find(lit: int) -> int:
        v = abs(lit)
        while v in rep:
            lit = rep[v] if lit > 0 else -rep[v]
            v = abs(lit)
        return lit

    low = -first
    current = [tuple(c) for c in clauses]
    rounds = 0
    while True:
        binary = {frozenset(c) for c in current if len(c) == 2 and c[0] != c[1]
                  and (c[0] >= first or c[0] <= low) and (c[1] >= first or c[1] <= low)}
        merged = False
        for pair in binary:
            p, q = pair
            if abs(p) != abs(q) and frozenset((-p, -q)) in binary:
                # p is ¬q: the higher variable becomes the lower one's literal.
                a, b = find(p), find(-q)
                if abs(a) != abs(b):
                    lead, gone = sorted((a, b), key=abs)  # not ``low``: the bound above
                    rep[abs(gone)] = lead if gone > 0 else -lead
                    merged = True
        if not merged:
            break
        rounds += 1
        # Each merged literal (either sign) to its representative: C-level lookups.
        sub: dict[int, int] = {}
        for v in rep:
            r = find(v)
            sub[v], sub[-v] = r, -r
        rewritten = []
        for c in current:
            if not sub.keys().isdisjoint(c):
                c = tuple(dict.fromkeys(map(sub.get, c, c)))
                if not set(c).isdisjoint(map(neg, c)):
                    continue  # a tautology
            rewritten.append(c)
        current = rewritten
    if not rounds:  # nothing to merge (most automata): the clauses as they are
        top = max(map(abs, chain.from_iterable(current)), default=0)
        return current, max(top - first + 1, 0), {}
    once: dict[frozenset[int], tuple[int, ...]] = {}
    for c in current:
        once.setdefault(frozenset(c), c)
    kept = list(once.values())
    used = sorted(v for v in set(map(abs, chain.from_iterable(kept))) if v >= first)
    number: dict[int, int] = {}
    for i, v in enumerate(used):
        number[v], number[-v] = first + i, -(first + i)
    moved = {v: number.get(r, r) for v in (*rep, *used) for r in (find(v),)}
    return [tuple(map(number.get, c, c)) for c in kept], len(used), moved
