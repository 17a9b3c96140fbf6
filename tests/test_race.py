"""The race (sudoku_csp.backends.race): members in processes of their own, the first decisive
answer taken and verified, the others stopped the way a time limit stops them.

Nothing here reads the clock to judge: a member that would search for minutes is shown
stopped by its answer arriving (within a generous bound), and a deadline cut from another
thread by what the search returns.
"""

from __future__ import annotations

import threading

import pytest
from cases import CASES, CONSTRAINED_CASES, LITTLE_KILLERS6, published, slow_if

from sudoku_csp import Puzzle, SpecError, Status, make_backend, parse
from sudoku_csp.backends import race as race_module
from sudoku_csp.backends.race import RaceBackend
from sudoku_csp.backends.registry import member_specs
from sudoku_csp.crosscheck import crosscheck, resolve
from sudoku_csp.deadline import Cancellable, Deadline
from sudoku_csp.processes import single_threaded
from sudoku_csp.result import Result
from sudoku_csp.variants import make_geometry
from sudoku_csp.verify import WrongSolutionError


@pytest.fixture(scope="module")
def race():
    backend = make_backend("race:native,sat")
    yield backend
    backend.close()


def hard_empty() -> Puzzle:
    """Every backend searches this for minutes (tests/test_deadline.py)."""
    return Puzzle.empty(make_geometry(16, variants=("anti-knight", "diagonal", "disjoint")))


# -- the spec -------------------------------------------------------------------------------
def test_a_race_spec_names_its_members_with_their_options():
    assert member_specs("native:rules=singles,branch=first,sat") == (
        "native:rules=singles,branch=first", "sat")
    with pytest.raises(SpecError, match="race: .* is not a backend to run"):
        make_backend("race:native,race")
    with pytest.raises(SpecError, match="race: .* is not a backend to run"):
        make_backend("race:sudo")
    with pytest.raises(SpecError, match="named twice"):
        make_backend("race:sat,sat")


def test_a_cross_check_never_counts_a_race_and_its_member_as_two():
    # Before: nothing stopped `check -s race:sat,cpsat -s sat`, whose two "agreeing"
    # verdicts could be one and the same solver's.
    with pytest.raises(SpecError, match="count its verdict twice"):
        resolve(["race:native,sat", "sat"])
    with pytest.raises(SpecError, match="count its verdict twice"):
        resolve(["race:native,sat", "race:sat,cpsat"])


# -- answers ----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", [c for c in CASES + CONSTRAINED_CASES
                                  if c.name in ("grid1", "hard1", "clash", "4x4", "jigsaw",
                                                "killer4-line", "cages-4x4-none")],
                         ids=lambda c: c.name)
def test_a_race_gives_the_verdict_of_its_members(race, case):
    result = race.solve(case.puzzle(), limit=2, time_limit=60)
    assert result.status is case.expected, result.message
    assert result.solver == "race:native,sat"
    assert result.stats["winner"] in ("native", "sat")
    if case.solution:
        assert "".join(str(d + 1) for d in result.solution) == case.solution


def test_counting_every_solution_waits_for_a_complete_count(race):
    result = race.solve(parse("." * 16), limit=None, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.MULTIPLE, 288, True)


@pytest.mark.slow  # about a second: a native member searching, stopped
def test_the_winner_is_taken_and_the_loser_stopped_not_killed():
    eddies = parse(published("Eddies")[0]["url"])
    # The native search takes over 10 s on Eddies where SAT answers in milliseconds.
    with RaceBackend("native", "sat") as race:
        result = race.solve(eddies, limit=2)
        assert result.status is Status.UNIQUE and result.stats["winner"] == "sat"
        native = race._racers[0]
        assert native.outbox.poll(60), "the native member was never stopped"
        kind, _, late = native.receive()  # its late answer: cut short as by a time limit
        assert kind == "result" and late.status is Status.UNKNOWN
        assert native.process.is_alive()  # stopped, not killed: it keeps its solvers
        assert race.solve(parse("3.1...4.2......."), limit=2).status is Status.UNIQUE


@pytest.mark.parametrize("start", slow_if(["fork", "forkserver"], lambda m: m != "fork"))
def test_a_member_started_afresh_reads_a_puzzle_of_any_kind(start, monkeypatch):
    # Before: a member started by forkserver (a new interpreter) that met the dots kind
    # first while unpickling its puzzle crashed ("dots defines 0 constraint kinds"), and
    # the race waited out its time limit.
    if start == "fork" and not single_threaded():
        pytest.skip("this test process runs other threads now: forking it is unsafe")
    monkeypatch.setattr(race_module, "START_METHOD", start)
    from sudoku_csp.constraints.kinds.dots import Dots

    four = parse("3.1...4.2.......")
    dots = Puzzle(four.geometry, four.givens, "", (Dots(difference=((2, 3, 1),)),))
    with RaceBackend("native", "sat") as fresh:
        assert fresh.solve(dots, limit=2, time_limit=60).status is Status.UNIQUE


def test_a_wrong_answer_from_a_member_is_raised_not_outvoted(race):
    puzzle = parse("3.1...4.2.......")
    wrong = Result(Status.UNIQUE, ((0,) * 16,), solver="sat")
    with pytest.raises(WrongSolutionError):
        race._verified(puzzle, wrong, 2, 0.0)


def test_a_race_in_a_cross_check_is_one_claim(race):
    check = crosscheck(parse("3.1...4.2......."), [race, "cpsat"], limit=2)
    assert check.decided == 2 and check.agreed


# -- the deadline a race cuts short --------------------------------------------------------------
def test_a_cancelled_deadline_has_expired_and_calls_its_watchers():
    d = Cancellable.of_limit(None)
    assert d.limited and not d.expired() and d.remaining() > 1e6
    stopped = threading.Event()
    with d.watch(stopped.set):
        d.cancel()
        assert stopped.is_set() and d.expired() and d.remaining() == 0.0
    late = threading.Event()
    with d.watch(late.set):  # watched after the cancel: stopped at once
        assert late.is_set()
    assert Cancellable.of_limit(Deadline.after(0).at).expired()


@pytest.mark.parametrize("spec", ["native", "sat", "sat:solver=glucose4", "cpsat"])
def test_each_backend_stops_when_its_deadline_is_cancelled(spec):
    backend = make_backend(spec)
    d = Cancellable.of_limit(None)
    cutter = threading.Thread(target=d.cancel)
    cutter.start()
    result = backend.solve(hard_empty(), limit=2, time_limit=d)
    cutter.join()
    assert result.status is Status.UNKNOWN and not result.complete


def test_renewing_a_race_renews_each_member_in_its_process():
    # Each member's process rebuilds its solvers and answers before renew() returns: the
    # SAT member then searches the puzzle as it did in its new process.
    puzzle = parse(LITTLE_KILLERS6)
    backend = make_backend("race:sat,native")
    try:
        def sat_conflicts() -> int:
            answer = backend.solve_each(puzzle, limit=2, time_limits=[None, None])[0]
            assert isinstance(answer, Result) and answer.status is Status.UNIQUE
            return answer.stats["conflicts"]

        first = sat_conflicts()
        warm = sat_conflicts()
        backend.renew()
        assert sat_conflicts() == first != warm
    finally:
        backend.close()
    make_backend("race:sat,native").renew()  # no member started yet: nothing to do


def test_renewing_kills_a_member_still_busy_with_a_puzzle(monkeypatch):
    # A member that does not give up a puzzle within GRACE is killed rather than waited
    # for: a new process has nothing to forget, and renew() returns at once.
    monkeypatch.setattr(race_module, "GRACE", 0.05)
    backend = make_backend("race:sat,native")
    try:
        assert backend.solve(parse("3.1...4.2......."), limit=2).status is Status.UNIQUE
        busy = backend._racers[0]
        busy.submit(10**6, hard_empty(), None, Deadline.of(None))  # minutes of search
        backend.renew()
        assert busy.process is None and not busy.waiting
        assert backend.solve(parse(LITTLE_KILLERS6), limit=2).status is Status.UNIQUE
    finally:
        backend.close()


# -- a cross-check run concurrently ------------------------------------------------------------
def test_a_concurrent_cross_check_runs_every_spec_to_its_end():
    puzzles = [parse("3.1...4.2......."), parse("1..." "..1." ".1.." "...1"),
               next(c for c in CASES if c.name == "clash").puzzle()]
    for puzzle in puzzles:
        one_by_one = crosscheck(puzzle, ["native", "sat"], limit=2)
        together = crosscheck(puzzle, ["native", "sat"], limit=2, concurrent=True)
        assert together.specs == one_by_one.specs == ("native", "sat")
        assert (together.status, together.decided, together.agreed) == (
            one_by_one.status, one_by_one.decided, one_by_one.agreed)
        assert together.results["sat"].solver == "sat"  # each spec's own claim


def test_check_race_on_the_command_line():
    from typer.testing import CliRunner

    from sudoku_csp.cli.app import app

    result = CliRunner().invoke(app, ["check", "3.1...4.2.......", "-s", "native", "-s",
                                      "sat", "--race"])
    assert result.exit_code == 0, result.output
    assert "agreed" in result.output and "native=unique" in result.output
