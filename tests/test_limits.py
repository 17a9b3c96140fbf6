"""Every command that can run long has a default time limit and stops with exit 5 and what
it settled; inputs that could only run for nothing are refused at once.

Bounded by what is called, and with what, never by the clock: a limit under test is expired
before the command starts (``-t 0``), or stops a count of questions the test chooses.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sudoku_csp import Status, parse
from sudoku_csp.batch import run_batch
from sudoku_csp.batch import runner as batch_runner
from sudoku_csp.cli import Exit, app
from sudoku_csp.deadline import Deadline, Expired
from sudoku_csp.errors import InputError
from sudoku_csp.generate import Request, minimality
from sudoku_csp.generate.session import UniquenessSession
from sudoku_csp.logic.techniques import TECHNIQUES, highest_rating

runner = CliRunner()

SIX = ".......56.23.3..6.5.4.31.4..123..645"  # several solutions
UNIQUE = "3.1...4.2......."
SPARE = "3.1...4.2......1"  # unique, A3 or D4 may go
GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def run(*args: str):
    return runner.invoke(app, list(args))


# -- a default limit on every command that can run long ---------------------------------
@pytest.mark.parametrize(("command", "target"), [
    (["candidates", SIX], "sudoku_csp.setter.true_candidates"),
    (["disambiguate", SIX], "sudoku_csp.setter.disambiguate"),
])
def test_the_setter_commands_run_under_a_default_limit(monkeypatch, command, target):
    # Before: no limit unless --time-limit was given (a hard puzzle ran for ever).
    seen = []

    def spy(puzzle, **options):
        seen.append(options["time_limit"])
        raise Expired("time limit of 300 s reached")

    monkeypatch.setattr(target, spy)
    result = run(*command)
    (limit,) = seen
    assert isinstance(limit, Deadline) and limit.limited and limit.seconds == 300
    assert result.exit_code == Exit.UNKNOWN, result.output  # what a passed deadline gives


@pytest.mark.parametrize("command", [["certify", UNIQUE, "DIR"], ["encode", UNIQUE]])
def test_certify_and_encode_run_under_a_default_limit(monkeypatch, tmp_path, command):
    seen = []

    def spy(*args, **options):
        seen.append(options["time_limit"])
        raise Expired("time limit of 300 s reached while building the formula")

    monkeypatch.setattr("sudoku_csp.certify.certify", spy)
    monkeypatch.setattr("sudoku_csp.encodings.dimacs.encode_puzzle_dimacs", spy)
    args = [str(tmp_path / "c") if a == "DIR" else a for a in command]
    result = run(*args)
    (limit,) = seen
    assert isinstance(limit, Deadline) and limit.limited and limit.seconds == 300
    assert result.exit_code == Exit.UNKNOWN
    assert "unknown: time limit of 300 s reached" in result.output


def test_certify_and_encode_past_their_limit_write_nothing(tmp_path):
    folder, cnf = tmp_path / "cert", tmp_path / "p.cnf"
    result = run("certify", GRID1, str(folder), "-t", "0")
    assert result.exit_code == Exit.UNKNOWN and "unknown: time limit of 0 s" in result.output
    assert not folder.exists()
    result = run("encode", GRID1, "-o", str(cnf), "-t", "0")
    assert result.exit_code == Exit.UNKNOWN and not cnf.exists()


def test_minimal_past_its_limit_says_unknown():
    # Before: minimal had no --time-limit at all.
    result = run("minimal", GRID1, "-t", "0")
    assert result.exit_code == Exit.UNKNOWN, result.output
    assert result.output.split("\t")[1] == "unknown"
    record = json.loads(run("minimal", GRID1, "-t", "0", "--json").output)
    assert (record["status"], record["complete"], record["minimal"]) == ("unknown", False, False)


def test_minimality_cut_short_keeps_what_it_settled(monkeypatch):
    # Two questions answered, then the deadline: the rest of the givens stay undecided.
    puzzle = parse(SPARE)
    whole = minimality(puzzle)
    asked = []
    has_other = UniquenessSession.has_other

    def limited(self, givens, solution, constraints=()):
        asked.append(1)
        if len(asked) > 3:  # the uniqueness question, then two givens
            raise Expired("time limit of 1 s reached while asking the solver")
        return has_other(self, givens, solution, constraints)

    monkeypatch.setattr(UniquenessSession, "has_other", limited)
    cut = minimality(puzzle)
    assert cut.status is Status.UNIQUE and not cut.complete and not cut.minimal
    assert set(cut.redundant) <= set(whole.redundant)
    assert len(cut.undecided) == puzzle.clue_count - 2
    assert not set(cut.undecided) & set(cut.redundant)


# -- refused at once ---------------------------------------------------------------------------
def test_canon_refuses_clashing_givens_before_any_search(monkeypatch):
    # Before: '1' * 81 ran 100 s, then printed a "canonical form" with exit 0.
    called = []
    monkeypatch.setattr("sudoku_csp.canon.canonical", lambda p: called.append(p) or p)
    result = run("canon", "1" * 81)
    assert result.exit_code == Exit.INPUT and "clash" in result.output
    assert called == []


def test_a_rating_no_grid_allows_is_refused_at_once():
    top = highest_rating(9, 81)
    assert top >= max(t.rating for t in TECHNIQUES.values())
    with pytest.raises(InputError, match=f"above ER {top}"):
        Request(min_rating=top + 0.1)
    Request(min_rating=top)                        # reachable in principle: accepted
    Request(min_rating=top + 5, allow_search=True)  # puzzles needing search: another thing
    result = run("generate", "--min-rating", "12", "-n", "4", "--attempts", "1")
    assert result.exit_code == Exit.INPUT and "above ER 10.4" in result.output


def test_workers_are_capped_by_the_work(monkeypatch):
    # Before: rate PUZZLE -j 100000 asked for a pool of 100,000 processes.
    started = []
    real = batch_runner._executor

    def spy(jobs, scheduler, specs):
        started.append(jobs)
        if jobs > 4:  # never start them: that many processes would swamp the machine
            raise AssertionError(f"a pool of {jobs} processes for 3 puzzles")
        return real(jobs, scheduler, specs)

    monkeypatch.setattr(batch_runner, "_executor", spy)
    outcomes = list(run_batch([parse(UNIQUE)] * 3, ["native"], jobs=100_000))
    assert len(outcomes) == 3 and started == [1]  # three puzzles: one chunk, one worker
    assert batch_runner.worker_count(100_000, None) <= 2 * batch_runner.os.cpu_count()
