"""Depth-first search over candidate states, with propagation at every node.

The search is iterative (an explicit stack), so 25×25 grids never meet Python's recursion
limit. It finds up to ``limit`` solutions; ``limit=None`` counts them all. One loop serves
two candidate representations: the per-cell :class:`State` of the reference rules, and the
digit planes of :mod:`sudoku_csp.native.planes`, which :meth:`Searcher.solve` uses for the
``singles`` and ``locked`` rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from sudoku_csp.deadline import Deadline
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Grid, bits
from sudoku_csp.native.branching import (
    ConflictScores,
    WeightedScores,
    branch_degree,
    branch_first,
    branch_houses,
    branch_mrv,
    cell_weights,
)
from sudoku_csp.native.planes import Planes, planes, takes_locked
from sudoku_csp.native.rules import DEFAULT_RULES, PRESETS, RULES, Rule, propagate, rule_names
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import check_limit

if TYPE_CHECKING:
    from sudoku_csp.constraints.base import Constraint

BRANCHING: dict[str, Callable[[State], tuple[int, int]]] = {
    "mrv": branch_mrv,
    "degree": branch_degree,
    "first": branch_first,
    "conflicts": branch_degree,  # per search: a ConflictScores' branch (see _CellEngine)
    "restarts": branch_degree,  # searches under growing budgets (see Searcher._restarts)
    "houses": branch_degree,  # a cell's or a house digit's places (see branch_houses)
    "weighted": branch_degree,  # per search: a WeightedScores' branch (see _CellEngine)
}

RESTART_FIRST = 1000
"""The ``restarts`` branching's first node budget (doubled at each restart)."""


DEFAULT_BRANCH = "weighted"
"""The branching the native solver uses unless told otherwise: ``weighted`` over ``degree``
by measurement on puzzles with constraints (docs/design.md, "The native search branches
where the constraints are"). Plain puzzles branch by ``degree`` under it, as they do on the
digit-plane engine under every branching but ``mrv`` and ``first`` (``degree`` measured
fastest there with :data:`~sudoku_csp.native.rules.DEFAULT_RULES` by
examples/benchmark.py)."""


@dataclass
class SearchStats:
    """Counters of one search. ``firings[name]``: deductions made by each rule."""

    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    firings: dict[str, int] = field(default_factory=dict)
    solved_by_propagation: bool = False

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "nodes": self.nodes,
            "guesses": self.guesses,
            "backtracks": self.backtracks,
            # the shared names (DESIGN.md): every child state tried is one decision, and
            # every child that propagation refuted is one conflict
            "decisions": self.nodes - 1,
            "conflicts": self.backtracks,
            "solved_by_propagation": self.solved_by_propagation,
        }
        out.update({f"rule_{name}": n for name, n in self.firings.items()})
        return out


@dataclass
class SearchResult:
    """What a search found. ``complete``: the whole space was explored (no limit cut it)."""

    solutions: list[Grid]
    complete: bool
    timed_out: bool
    stats: SearchStats
    # The root state after propagation by the per-cell engine (None on contradiction, and
    # after the plane engine, which has no per-cell state: see ``refuted``).
    state: State | None = None
    refuted: bool = False  # propagation from the givens alone found a contradiction
    exhausted: bool = False  # a node budget stopped the search (the restarts branching)


class Searcher:
    """A configured search: rules, branching and value order.

    >>> from sudoku_csp import parse
    >>> four = parse("1..." "..1." ".1.." "...1")
    >>> out = Searcher("singles").run(State.from_puzzle(four), limit=2)
    >>> len(out.solutions), out.complete
    (2, False)
    """

    def __init__(self, rules: str = DEFAULT_RULES, branch: str = DEFAULT_BRANCH,
                 order: str = "numeric", seed: int | None = None,
                 options: Mapping[str, str] | None = None, nodes: int | None = None) -> None:
        # options: the kinds' encoding options for native links ({"hidden": "off"});
        # nodes: the most search nodes of one search (None: no bound), past which it stops
        # incomplete (SearchResult.exhausted), as a portfolio's cheap first try wants.
        self.options = dict(options or {})
        self.nodes = nodes
        self.rule_names = rule_names(rules)
        self.rules: list[Rule] = [RULES[name] for name in self.rule_names]
        if branch not in BRANCHING:
            raise InputError(f"unknown branching {branch!r}; choose from {', '.join(BRANCHING)}")
        if order not in ("numeric", "random"):
            raise InputError(f"unknown value order {order!r}; choose numeric or random")
        self.branch = BRANCHING[branch]
        self.branch_name = branch
        # The rules the plane engine runs exactly as the per-cell ones: "singles" or
        # "locked" (None: some other rule is asked for).
        self.plane_rules = next((name for name in ("singles", "locked")
                                 if self.rule_names == PRESETS[name]), None)
        self.random_order = order == "random"
        self.seed = seed

    def state(self, puzzle: Puzzle) -> State:
        """The starting state of ``puzzle`` with this searcher's options for its links."""
        return State.from_puzzle(puzzle, self.options)

    def propagate_only(self, state: State) -> SearchResult:
        """Apply the rules to a fixpoint without search (mutates ``state``)."""
        stats = SearchStats(nodes=1)
        firings = [0] * len(self.rules)
        ok = propagate(state, self.rules, firings)
        stats.firings = dict(zip(self.rule_names, firings, strict=False))
        if not ok:
            return SearchResult([], True, False, stats, refuted=True)
        if state.solved:
            stats.solved_by_propagation = True
            return SearchResult([state.grid()], True, False, stats, state)
        return SearchResult([], False, False, stats, state)

    def run(self, state: State, limit: int | None = 1,
            deadline: Deadline | float | None = None,
            sink: Callable[[Grid], object] | None = None,
            constraints: Sequence[Constraint] = ()) -> SearchResult:
        """Search from ``state`` (mutated) for up to ``limit`` solutions before ``deadline``
        (a :class:`~sudoku_csp.deadline.Deadline`, or a ``time.monotonic()`` value; looked at
        after every node, which costs far less than the node). Each solution goes to
        ``sink`` as it is found (then ``SearchResult.solutions`` stays empty: the sink
        counts them), or into
        ``SearchResult.solutions``: a caller counting millions of solutions passes a sink.
        ``constraints``: the puzzle's, which the ``weighted`` branching starts from
        (:func:`~sudoku_csp.native.branching.cell_weights`).

        This is the per-cell engine (:mod:`sudoku_csp.native.rules`) on any state; see
        :meth:`solve` for a puzzle."""
        check_limit(limit)
        root = self.propagate_only(state)
        if not root.state or root.solutions:
            if sink is not None:
                for grid in root.solutions:
                    sink(grid)
                root.solutions = []
            return root
        firings = [0] * len(self.rules)
        engine = _CellEngine(self, firings, state, constraints)
        if self.branch_name == "restarts" and limit is not None:
            out = self._restarts(engine, state, limit, deadline, sink, root.stats)
        else:
            out = self._depth_first(engine, state, limit, deadline, sink, root.stats)
        out.state = root.state
        for name, n in zip(self.rule_names, firings, strict=False):
            out.stats.firings[name] = root.stats.firings.get(name, 0) + n
        return out

    def solve(self, puzzle: Puzzle, limit: int | None = 1,
              deadline: Deadline | float | None = None,
              sink: Callable[[Grid], object] | None = None) -> SearchResult:
        """:meth:`run` from the puzzle's givens, on the digit-plane engine
        (:mod:`sudoku_csp.native.planes`) when it runs these rules on this puzzle exactly
        as the per-cell rules do (the ``singles`` and ``locked`` rules, no typed
        constraints, a grid it takes): same tree, same solutions, several times faster.
        ``SearchResult.state`` is then None; ``SearchResult.refuted`` says whether the givens alone
        led to a contradiction."""
        engine = self._planes(puzzle)
        if engine is None:
            return self.run(self.state(puzzle), limit, deadline, sink, puzzle.constraints)
        check_limit(limit)
        planes_engine = _PlaneEngine(engine, self)
        stats = SearchStats(nodes=1)
        root = planes_engine.propagate((engine.start(puzzle.givens), 0))
        if root is None:
            out = SearchResult([], True, False, stats, refuted=True)
        elif root[1] == engine.all_cells:
            stats.solved_by_propagation = True
            grid = engine.grid(root[0])
            out = SearchResult([] if sink else [grid], True, False, stats)
            if sink is not None:
                sink(grid)
        else:
            out = self._depth_first(planes_engine, root, limit, deadline, sink, stats)
        # counts: placements, hidden singles, locked eliminations: the presets' rule order
        stats.firings = dict(zip(self.rule_names, planes_engine.counts, strict=False))
        return out

    def _planes(self, puzzle: Puzzle) -> Planes | None:
        # the plane engine branches on cells only: the houses branching runs per cell
        if not self.plane_rules or puzzle.constraints or self.branch_name == "houses":
            return None
        engine = planes(puzzle.geometry)
        if engine is None or (self.plane_rules == "locked" and not takes_locked(engine)):
            return None
        return engine

    def _restarts(self, engine: _CellEngine, root: State, limit: int,
                  deadline: Deadline | float | None, sink: Callable[[Grid], object] | None,
                  stats: SearchStats) -> SearchResult:
        """The ``restarts`` branching: searches from ``root`` again and again under a node
        budget that doubles each time, alternating the ``degree`` branching and the
        conflict scores (:class:`ConflictScores`, kept from search to search), until one
        finishes. A solution is counted once, however often it is met again; the last
        search runs to its end, so nothing is missed."""
        seen: set[Grid] = set()
        kept: list[Grid] = []

        def once(grid: Grid) -> None:
            if grid not in seen:
                seen.add(grid)
                if sink is None:
                    kept.append(grid)
                else:
                    sink(grid)

        budget, turn = RESTART_FIRST, 0
        scores = ConflictScores(root.tables.ncells)
        while True:
            engine.scores = scores
            engine.branch = scores.branch if turn % 2 else branch_degree
            # The whole limit each time: a search finds different solutions, so one that
            # finds ``limit`` of them leaves at least that many seen.
            out = self._depth_first(engine, root.copy(), limit, deadline, once, stats, budget)
            capped = self.nodes is not None and stats.nodes >= self.nodes
            if len(seen) >= limit or out.timed_out or not out.exhausted or capped:
                out.solutions = kept
                out.complete = out.complete and len(seen) < limit
                return out
            budget, turn = budget * 2, turn + 1

    def _depth_first(self, engine: _Engine[S], root: S, limit: int | None,
                     deadline: Deadline | float | None,
                     sink: Callable[[Grid], object] | None, stats: SearchStats,
                     budget: int | None = None) -> SearchResult:
        """Depth-first search below a propagated, unsolved ``root``: the one search loop
        of both engines. ``budget``: the most nodes it visits (then
        ``SearchResult.exhausted``)."""
        # A fresh generator per search: the same seed gives the same order on every call,
        # whatever ran before on this (possibly shared, cached) searcher.
        rng = random.Random(self.seed) if self.random_order else None
        if deadline is not None and not isinstance(deadline, Deadline):
            deadline = Deadline(deadline)
        expired = None if deadline is None or not deadline.limited else deadline.expired
        solutions: list[Grid] = []
        keep = solutions.append if sink is None else sink
        found = 0
        wanted = limit if limit is not None else float("inf")

        def frame(s: S) -> tuple[S, list[tuple[int, int]]]:
            choices = engine.choices(s)
            if rng is not None:
                rng.shuffle(choices)
            else:
                choices.reverse()  # popped from the end: smallest digit first
            return s, choices

        stack = [frame(root)]
        stats.guesses = 1
        complete, timed_out, exhausted = True, False, False
        stop = None if budget is None else stats.nodes + budget
        if self.nodes is not None:  # the cap on the whole search, restarts included
            stop = self.nodes if stop is None else min(stop, self.nodes)
        while stack:
            if expired is not None and expired():  # before each node: none past the limit
                complete, timed_out = False, True
                break
            if stop is not None and stats.nodes >= stop:
                complete, exhausted = False, True
                break
            parent, choices = stack[-1]
            cell, digit = choices.pop()
            last = not choices
            if last:
                stack.pop()
            stats.nodes += 1
            child = engine.propagate(engine.child(parent, cell, digit, last))
            if child is None:
                stats.backtracks += 1
                engine.failed(cell)
            elif engine.solved(child):
                keep(engine.grid(child))
                found += 1
                if found >= wanted:
                    complete = False
                    break
            else:
                stack.append(frame(child))
                stats.guesses += 1
        return SearchResult(solutions, complete, timed_out, stats, exhausted=exhausted)


S = TypeVar("S")


class _Engine(Protocol[S]):
    """What the search loop needs of a candidate representation."""

    def propagate(self, s: S) -> S | None: ...
    def choices(self, s: S) -> list[tuple[int, int]]: ...
    def child(self, s: S, cell: int, digit: int, last: bool) -> S: ...
    def failed(self, cell: int) -> None: ...
    def solved(self, s: S) -> bool: ...
    def grid(self, s: S) -> Grid: ...


class _CellEngine:
    """The per-cell :class:`State` and rules of :mod:`sudoku_csp.native.rules`."""

    def __init__(self, searcher: Searcher, firings: list[int], root: State,
                 constraints: Sequence[Constraint]) -> None:
        self.rules, self.firings, self.branch = searcher.rules, firings, searcher.branch
        self.scores: ConflictScores | None = None
        if searcher.branch_name == "conflicts":
            self.scores = ConflictScores(root.tables.ncells)
        elif searcher.branch_name == "weighted" and constraints:
            # without constraints, degree: the tree the digit planes search
            self.scores = WeightedScores(root.tables.ncells,
                                         cell_weights(root.geometry, constraints))
        if self.scores is not None:
            self.branch = self.scores.branch
        self.houses = searcher.branch_name == "houses"

    def choices(self, s: State) -> list[tuple[int, int]]:
        """The alternatives of a branch at ``s``: ``(cell, digit)`` placements, of which
        exactly one holds in each solution below ``s``."""
        if self.houses:
            return branch_houses(s)
        cell, mask = self.branch(s)
        return [(cell, d) for d in bits(mask)]

    def failed(self, cell: int) -> None:
        if self.scores is not None:
            self.scores.failed(cell)

    def propagate(self, s: State) -> State | None:
        return s if propagate(s, self.rules, self.firings) else None

    @staticmethod
    def child(s: State, cell: int, digit: int, last: bool) -> State:
        # The last alternative reuses the parent's state instead of copying it.
        child = s if last else s.copy()
        child.cand[cell] = 1 << digit
        child.pending.append(cell)
        child.touch(cell)
        return child

    @staticmethod
    def solved(s: State) -> bool:
        return s.solved

    @staticmethod
    def grid(s: State) -> Grid:
        return s.grid()


class _PlaneEngine:
    """``(P, solved)`` integers of :mod:`sudoku_csp.native.planes`."""

    def __init__(self, engine: Planes, searcher: Searcher) -> None:
        self.engine, self.how = engine, searcher.branch_name
        self.locked = searcher.plane_rules == "locked"
        self.counts = [0, 0, 0]

    def propagate(self, s: tuple[int, int]) -> tuple[int, int] | None:
        return self.engine.propagate(s[0], s[1], locked=self.locked, counts=self.counts)

    def failed(self, cell: int) -> None:
        return None

    def choices(self, s: tuple[int, int]) -> list[tuple[int, int]]:
        cell = self.engine.branch(s[0], s[1], self.how)
        return [(cell, d) for d in bits(self.engine.cell_mask(s[0], cell))]

    def child(self, s: tuple[int, int], cell: int, digit: int, last: bool
              ) -> tuple[int, int]:
        return self.engine.guess(s[0], cell, digit), s[1]

    def solved(self, s: tuple[int, int]) -> bool:
        return s[1] == self.engine.all_cells

    def grid(self, s: tuple[int, int]) -> Grid:
        return self.engine.grid(s[0])


def propagate_puzzle(puzzle: Puzzle, rules: str = DEFAULT_RULES) -> State | None:
    """The candidate state of ``puzzle`` once ``rules`` (a preset or ``+``-joined rule
    names) have run to a fixpoint, without search; ``None`` when they reach a contradiction.

    >>> from sudoku_csp import parse
    >>> four = parse("1..." "..1." ".1.." "...1")
    >>> state = propagate_puzzle(four, "singles")
    >>> state.candidates(1)
    (1, 2, 3)
    """
    return Searcher(rules).propagate_only(State.from_puzzle(puzzle)).state
