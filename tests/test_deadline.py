"""One deadline per command: the value type, every stage stopping on it, the SAT solver
stopped inside a call, and the stages of a command sharing one deadline.

No test here reads the wall clock to judge: what stopped, what was called and how often,
and (for the conflict-budget slices) a fake clock that the fake solver itself advances.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from sudoku_csp import Puzzle, Status, deadline, get_backend, make_backend, parse, satsolver
from sudoku_csp.cli.app import app
from sudoku_csp.deadline import NEVER, Deadline, Expired
from sudoku_csp.logic import chains, explain, forcing, trials, wings
from sudoku_csp.logic.basic import hidden_quad, jellyfish, naked_quad
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.setter import disambiguate, minimal_conflict, true_candidates
from sudoku_csp.setter.session import PartSession
from sudoku_csp.variants import make_geometry

runner = CliRunner()

HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
NO_SOLUTION = "12.." "..3." "...." "...1"  # no clash, no solution
EXPIRED = Deadline(0.0, 1.0)  # long past on the monotonic clock


def hard_empty() -> Puzzle:
    """The empty 16x16 grid with anti-knight, diagonals and disjoint groups: every backend
    searches for minutes without an answer (measured: SAT over 30 s, unknown)."""
    return Puzzle.empty(make_geometry(16, variants=("anti-knight", "diagonal", "disjoint")))


# -- the value -------------------------------------------------------------------------------
def test_a_deadline_is_made_once_and_passed_on():
    d = Deadline.after(30)
    assert Deadline.of(d) is d                         # a stage takes the caller's deadline
    assert Deadline.of(None) is NEVER and not NEVER.limited and NEVER.remaining() is None
    assert d.capped(None) is d and d.capped(60) is d   # the sooner one wins
    assert d.capped(5).seconds == 5 and d.capped(5).at < d.at
    assert EXPIRED.expired() and EXPIRED.remaining() == 0.0
    with pytest.raises(Expired, match="while building"):
        EXPIRED.check("building")
    NEVER.check("never")
    assert Deadline.after(2.5).words() == "time limit of 2.5 s"


def test_the_command_line_counts_from_when_the_command_began(monkeypatch):
    monkeypatch.setattr(deadline, "_START", [100.0])  # as if the process began at t=100
    assert Deadline.from_start(30).at == 130.0
    monkeypatch.setattr(deadline, "_START", [])       # in a test's runner: from now
    assert Deadline.from_start(30).remaining() > 29


def test_the_watchdog_calls_a_stop_function_at_the_deadline():
    stopped = threading.Event()
    with Deadline.after(0.01).watch(stopped.set):
        assert stopped.wait(30)                        # an event, however busy the machine
    never = threading.Event()
    with NEVER.watch(never.set):
        pass
    assert not never.is_set()


# -- an expired deadline: each stage gives up at once, without solving -----------------------
@pytest.mark.parametrize("spec", ["native", "sat", "sat:solver=glucose4", "cpsat"])
def test_an_expired_deadline_is_unknown_at_once(spec):
    result = get_backend(spec).solve(parse(HARD1), limit=2, time_limit=EXPIRED)
    assert result.status is Status.UNKNOWN and not result.solutions
    assert result.message == "time limit of 1 s reached"
    if spec == "native":
        assert result.stats["nodes"] == 1  # the root's propagation, no guess
    elif spec.startswith("sat"):
        # Not loaded yet: the loading stops at once; loaded: the one call returns at once.
        assert result.stats.get("conflicts", 0) == 0 and result.stats.get("solver_calls", 1) == 1


def test_an_expired_deadline_stops_every_setter_stage_before_any_solver_call():
    puzzle = parse(HARD1)
    tc = true_candidates(puzzle, time_limit=EXPIRED)
    assert (tc.status, tc.complete, tc.calls) == ("unknown", False, 0)
    d = disambiguate(puzzle, time_limit=EXPIRED)
    assert (d.status, d.complete) == ("unknown", False)
    conflict = minimal_conflict(parse(NO_SOLUTION), time_limit=EXPIRED)
    assert conflict is not None and (conflict.proven, conflict.calls) == (False, 0)
    with PartSession(puzzle) as session:
        assert session.satisfiable(session.parts, deadline=EXPIRED) is None
        assert session.calls == 0 and session.timed_out


def test_an_expired_deadline_stops_the_explanation_and_its_proof():
    e = explain(parse(HARD1), time_limit=EXPIRED)
    assert e.timed_out and e.steps == () and e.verdict is Status.UNKNOWN
    proof = prove_steps(explain(parse("3.1...4.2.......")), time_limit=EXPIRED)
    assert (proof.complete, proof.steps, proof.facts) == (False, 0, 0)


@pytest.mark.parametrize("find", [
    forcing.forcing_chain, trials.dynamic_forcing_chain, forcing.static_cell_region,
    forcing.nishio, chains.aic, chains.x_chain, wings.als_wing(4),
    wings.xyz_wing, naked_quad, hidden_quad, jellyfish,
])
def test_a_technique_still_searching_is_cut_short(find):
    # Before: the deadline was looked at between steps only, so one forcing-chain search
    # on a large grid ran on for as long as it took.
    board = Board.from_puzzle(parse(HARD1))
    board.deadline = EXPIRED
    with pytest.raises(Expired):
        find(board)


# -- the SAT solver stopped inside a call ---------------------------------------------------
@pytest.mark.parametrize("spec", ["sat", "sat:solver=glucose4", "cpsat", "native"])
def test_a_long_search_is_stopped_inside_the_solver(spec):
    result = make_backend(spec).solve(hard_empty(), limit=2, time_limit=Deadline.after(0.2))
    assert result.status is Status.UNKNOWN and "time limit" in result.message


class FakeCaDiCaL:
    """A solver without interrupt() that never finishes: each call runs out its conflict
    budget at ``per_conflict`` seconds a conflict, on a fake clock it advances."""

    def __init__(self, clock: list[float], per_conflict: float) -> None:
        self.clock, self.per_conflict, self.budget, self.calls = clock, per_conflict, 0, 0

    def conf_budget(self, budget: int) -> None:
        self.budget = budget

    def solve_limited(self, assumptions=()) -> None:
        self.calls += 1
        self.clock[0] += self.budget * self.per_conflict
        return None


@pytest.mark.parametrize("per_conflict", [1e-5, 2e-4, 7e-4, 1e-2])  # 9x9, 25x25, slower
def test_conflict_budget_slices_end_on_time(monkeypatch, per_conflict):
    # Before: slices doubled up to 64,000 conflicts whatever the formula, so a 25x25 search
    # under --time-limit 30 ran 36-54 s. Now each slice is sized from the last one's rate.
    clock = [0.0]
    fake_time = SimpleNamespace(monotonic=lambda: clock[0])
    monkeypatch.setattr(satsolver, "time", fake_time)
    monkeypatch.setattr(deadline, "time", fake_time)
    solver = FakeCaDiCaL(clock, per_conflict)
    caps = satsolver.Capabilities(True, budget=True)
    limit = Deadline.after(30)
    assert satsolver.solve_until(solver, caps, [], limit.at) is None  # a monotonic() value
    assert 30 <= clock[0] <= 30.5  # the target: under half a second past the limit
    assert solver.calls <= 30 / 0.1 + 50  # slices of about 0.1 s: few calls, little overhead


# -- one deadline shared by the stages of a command ------------------------------------------
def test_the_conflict_report_gets_what_the_verdict_left(monkeypatch):
    # Before: the verdict had the whole limit, then the conflict report a fresh one.
    seen: dict[str, object] = {}
    backend = get_backend("native")
    solve = backend.solve

    def spy_solve(puzzle, *, limit=1, time_limit=None):
        seen["verdict"] = time_limit
        return solve(puzzle, limit=limit, time_limit=time_limit)

    from sudoku_csp.setter import minimal_conflict

    def spy_conflict(puzzle, *, time_limit=None, solver=None):
        seen["conflict"] = time_limit
        return minimal_conflict(puzzle, time_limit=time_limit)

    monkeypatch.setattr(backend, "solve", spy_solve)
    monkeypatch.setattr("sudoku_csp.setter.minimal_conflict", spy_conflict)
    result = runner.invoke(app, ["count", NO_SOLUTION, "-s", "native", "-t", "5"])
    assert result.exit_code == 4, result.output
    verdict, conflict = seen["verdict"], seen["conflict"]
    assert isinstance(verdict, Deadline) and isinstance(conflict, Deadline)
    assert conflict.at <= verdict.at  # never beyond the command's deadline
