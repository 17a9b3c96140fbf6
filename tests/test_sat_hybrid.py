"""The SAT backend's ``fresh_after``: a puzzle's search that passes its conflict budget in
the incremental solver goes on in a fresh one, and gives what either mode alone gives."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import replace

import pytest
from cases import BY_NAME, CASES, CONSTRAINED_CASES, pigeonhole_puzzle, slow_if
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from sudoku_csp import EMPTY, Puzzle, SpecError, Status, get_backend, interrupts, make_backend
from sudoku_csp.backends.sat import DEFAULT_FRESH_AFTER, SatBackend
from sudoku_csp.satsolver import capabilities, solve_until
from sudoku_csp.variants import make_geometry

SWITCHING = "sat:fresh_after=1"  # every search of a conflict or more goes on fresh


def _blank(case):
    puzzle = case.puzzle()
    return replace(puzzle, givens=(EMPTY,) * puzzle.geometry.ncells)


# Every kind with its givens, and without them (most then have many solutions), and the
# plain cases: unique, multiple, none, every size and variant.
PUZZLES = [(c.name, c.puzzle) for c in CONSTRAINED_CASES] + [
    (f"{c.name}-blank", lambda c=c: _blank(c)) for c in CONSTRAINED_CASES] + [
    (c.name, c.puzzle) for c in CASES if c.name not in ("empty9", "16x16")]


@pytest.fixture()
def switches(monkeypatch):
    """The solutions each switch to a fresh solver carried over, one list per switch."""
    carried: list[int] = []
    go_on = SatBackend._go_on_fresh

    def spy(self, puzzle, limit, deadline, tally, candidates, found, stats, phases):
        carried.append(len(found))
        return go_on(self, puzzle, limit, deadline, tally, candidates, found, stats, phases)

    monkeypatch.setattr(SatBackend, "_go_on_fresh", spy)
    return carried


@pytest.mark.parametrize(("solver", "limit"), slow_if(
    [(solver, limit) for solver in ("cadical153", "glucose4") for limit in (1, 2, 5)],
    lambda case: case != ("cadical153", 2)))  # about 2 s each
def test_a_search_past_its_budget_gives_what_fresh_and_incremental_give(solver, limit,
                                                                         switches):
    hybrid = make_backend(f"{SWITCHING},solver={solver}")
    alone = [make_backend(f"sat:solver={solver},fresh_after=0"),
             make_backend(f"sat:solver={solver},mode=fresh")]
    for name, make in PUZZLES:
        puzzle = make()
        switched = len(switches)
        result = hybrid.solve(puzzle, limit=limit)
        if "clashes" not in result.stats:  # clashing givens: no search at all
            assert result.stats["finished_in"] == ("fresh" if len(switches) > switched
                                                   else "incremental"), name
        for other in alone:
            expected = other.solve(puzzle, limit=limit)
            assert (result.status, result.count) == (expected.status, expected.count), name
            if expected.count < limit:  # every solution found: the same ones
                assert sorted(result.solutions) == sorted(expected.solutions), name
        assert len(set(result.solutions)) == len(result.solutions) == min(result.count, limit)
    # Many searches crossed the budget, some after finding solutions they carried over.
    # (Glucose looks at its budget seldom: 361 conflicts on a budget of 10 on PHP(7).)
    if solver == "cadical153":
        assert len(switches) >= 10 and (limit == 1 or any(switches))


def test_every_solution_once_when_counting_crosses_the_budget(switches):
    # All 288 grids of the empty 4×4: many found before the switch, the rest after it.
    empty = Puzzle.empty(make_geometry(4))
    result = make_backend("sat:fresh_after=20").solve(empty, limit=None)
    assert (result.status, result.count, result.stats["finished_in"]) == (
        Status.MULTIPLE, 288, "fresh")
    assert switches and 0 < switches[0] < 288
    assert len(set(make_backend("sat:fresh_after=20").solve(empty, limit=300).solutions)) \
        == 288


def test_candidates_handed_over_hold_after_the_switch():
    # The candidates are units in the fresh solver too: ruling out the one solution's
    # digit leaves none, with or without the switch.
    puzzle = next(c for c in CONSTRAINED_CASES if c.name == "kropki4").puzzle()
    full = (1 << puzzle.geometry.size) - 1
    (solution,) = get_backend("sat").solve(puzzle, limit=2).solutions
    wrong = [full] * 16
    wrong[5] &= ~(1 << solution[5])
    for spec in (SWITCHING, "sat:fresh_after=0"):
        assert make_backend(spec).solve(puzzle, limit=2, candidates=wrong).status \
            is Status.NONE


def test_the_counts_are_both_solvers_together(monkeypatch):
    fresh_stats: list[dict] = []
    fresh = SatBackend._fresh

    def spy(self, *args, **kwargs):
        complete, timed_out, stats = fresh(self, *args, **kwargs)
        fresh_stats.append(dict(stats))
        return complete, timed_out, stats

    monkeypatch.setattr(SatBackend, "_fresh", spy)
    result = make_backend(SWITCHING).solve(BY_NAME["hard1"].puzzle(), limit=2)
    (after,) = fresh_stats
    assert result.stats["finished_in"] == "fresh"
    # The incremental solver spent at least the budget before handing over.
    assert result.stats["conflicts"] >= after["conflicts"] + 1
    assert result.stats["solver_calls"] > after["solver_calls"]
    assert result.stats["propagations"] > after["propagations"]
    assert "finished_in" not in make_backend("sat:fresh_after=0").solve(
        BY_NAME["hard1"].puzzle(), limit=2).stats


@pytest.mark.parametrize("solver", slow_if(["cadical153", "glucose4"],
                                           lambda solver: solver != "cadical153"))
def test_the_time_limit_holds_after_the_switch(solver, cpu_clock):
    # The pigeonhole search never ends: past the budget it goes on fresh until the one
    # time limit (CPU time: the same work on a busy machine), then the backend still works.
    backend = make_backend(f"{SWITCHING},encoding=minimal,solver={solver}")
    puzzle = pigeonhole_puzzle()
    grid = make_backend("native").solve(Puzzle.empty(puzzle.geometry)).solution
    assert backend.solve(Puzzle(puzzle.geometry, grid), limit=2).status is Status.UNIQUE
    result = backend.solve(puzzle, limit=1, time_limit=0.3)
    assert result.status is Status.UNKNOWN and "time limit" in result.message
    assert result.stats["finished_in"] == "fresh" and result.stats["conflicts"] > 1
    assert backend.solve(puzzle, time_limit=0).status is Status.UNKNOWN
    for name in ("grid1", "grid2", "hard1"):
        case = BY_NAME[name]
        assert backend.solve(case.puzzle(), limit=2, time_limit=30).status is case.expected


def test_an_interrupt_after_the_switch_stops_the_search(monkeypatch):
    # Ctrl-C once the search went on fresh: KeyboardInterrupt, and the backend solves again.
    switched = threading.Event()
    go_on = SatBackend._go_on_fresh

    def spy(self, *args):
        switched.set()
        return go_on(self, *args)

    monkeypatch.setattr(SatBackend, "_go_on_fresh", spy)

    def send() -> None:
        if switched.wait(60):
            os.kill(os.getpid(), signal.SIGINT)

    backend = make_backend(f"{SWITCHING},encoding=minimal")
    # Python's own SIGINT handler for the test: a background job (pytest run with "&") has
    # SIGINT ignored, and handling() keeps it so, so the search would never stop.
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), interrupts.handling():
            threading.Thread(target=send, daemon=True).start()
            backend.solve(pigeonhole_puzzle(), limit=1)
    finally:
        signal.signal(signal.SIGINT, before)
    assert switched.is_set()
    assert backend.solve(BY_NAME["hard1"].puzzle(), limit=2).status is Status.MULTIPLE


@pytest.mark.parametrize("solver", ["cadical153", "glucose4", "minisat22"])
def test_a_conflict_budget_is_not_left_for_the_next_call(solver):
    # The MiniSat family keeps a budget for every later limited call unless told otherwise:
    # a later call with a time limit must search to the end.
    caps = capabilities(solver)
    with Solver(name=solver, bootstrap_with=PHP(6).clauses) as s:
        assert solve_until(s, caps, [], None, conflicts=5) is None
        assert solve_until(s, caps, [], time.monotonic() + 600) is False


def test_the_option_is_checked_and_named_in_the_spec():
    assert make_backend("sat:fresh_after=250").spec == "sat:fresh_after=250"
    assert make_backend(f"sat:fresh_after={DEFAULT_FRESH_AFTER}").spec == "sat"
    with pytest.raises(SpecError, match="at least 0"):
        make_backend("sat:fresh_after=-1")
    with pytest.raises(SpecError, match="integer"):
        make_backend("sat:fresh_after=soon")
