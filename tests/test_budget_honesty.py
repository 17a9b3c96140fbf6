"""Answers a budget or a limit cut short stay honest: a node budget's count is a lower bound,
never exact, and no portfolio takes it for a verdict; a race no member decided names no
winner; propagation alone keeps the time limit."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from cases import pigeonhole_puzzle
from typer.testing import CliRunner

from sudoku_csp import parse
from sudoku_csp.backends.base import decisive
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.cli import Exit, app
from sudoku_csp.constraints import Cage
from sudoku_csp.crosscheck import crosscheck
from sudoku_csp.result import Status

MANY = parse("1..." "..1." ".1.." "...1")  # 18 solutions
# native:nodes=8 finds 3 of them, then its budget ends the search (with either branching).
BUDGETED = ("native:nodes=8", "native:nodes=8,branch=restarts")


def test_a_node_budget_that_cuts_a_count_leaves_it_incomplete():
    # complete=True made `count -l 0 -s native:nodes=8` print "(one of 3 solutions)".
    result = make_backend("native:nodes=8").solve(MANY, limit=None)
    assert result.status is Status.MULTIPLE and result.count == 3
    assert not result.complete and not decisive(result, None)
    assert result.message == ("the node budget ran out (8 search nodes): at least 3 "
                              "solutions, count incomplete")


@pytest.mark.parametrize("spec", BUDGETED)
def test_a_node_budget_below_the_limit_is_no_verdict(spec):
    result = make_backend(spec).solve(MANY, limit=5)
    assert result.status is Status.MULTIPLE and result.count < 5
    assert not result.complete and not decisive(result, 5)


def test_a_node_budget_the_limit_came_before_is_a_verdict():
    # Two solutions asked, two found inside the budget: the limit ended the search.
    result = make_backend("native:nodes=8").solve(MANY, limit=2)
    assert result.status is Status.MULTIPLE and result.count == 2
    assert result.complete and decisive(result, 2) and not result.message


def test_an_unknown_from_a_node_budget_keeps_its_message():
    result = make_backend("native:rules=none,nodes=50").solve(pigeonhole_puzzle(), limit=None)
    assert result.status is Status.UNKNOWN and not result.complete
    assert result.message == "the node budget ran out (50 search nodes)"


@pytest.mark.parametrize("limit", [None, 5])
def test_first_goes_past_a_budgets_count_to_the_next_member(limit):
    # `first:native:nodes=50,sat -l 0` said "exactly 4" of the empty 9x9; with -l 5 it
    # stopped at the budgeted member's 3.
    result = make_backend("first:native:nodes=8,sat").solve(MANY, limit=limit)
    assert result.count == (18 if limit is None else 5)
    assert result.complete and result.stats["winner"] == "sat"


@pytest.mark.parametrize("limit", [None, 1, 2, 5, 30])
def test_auto_keeps_exact_counts(limit):
    # auto's native member has a budget of one node: its answer never ends a count.
    result = make_backend("auto").solve(MANY, limit=limit)
    assert result.count == min(18, limit or 18) and result.complete
    assert result.status is (Status.SOLVED if limit == 1 else Status.MULTIPLE)
    assert decisive(result, limit)


def test_a_cross_check_beside_a_budget_sees_no_disagreement():
    # The budget's "exactly 3" contradicted SAT's 18: a disagreement no solver had.
    check = crosscheck(MANY, ["native:nodes=8", "sat"], limit=None)
    assert str(check.status) == "multiple" and not check.reasons


def test_the_command_line_says_at_least():
    runner = CliRunner()
    line = "1.....1..1.....1"
    shown = runner.invoke(app, ["count", line, "-l", "0", "-s", "native:nodes=8"])
    assert shown.exit_code == Exit.MULTIPLE
    assert "(one of 3+ solutions)" in shown.output and "at least 3" in shown.output
    record = runner.invoke(app, ["count", line, "-l", "0", "-s", "native:nodes=8", "--json"])
    assert record.exit_code == Exit.MULTIPLE
    assert json.loads(record.output)["complete"] is False


def test_a_race_no_member_decided_names_no_winner():
    # A race named the member whose unknown it kept ("unknown · sat (race:sat,cpsat)").
    race = make_backend("race:sat,cpsat")
    try:
        result = race.solve(parse("." * 81), limit=2, time_limit=0)
    finally:
        race.close()
    assert result.status is Status.UNKNOWN
    assert "winner" not in result.stats


@pytest.mark.parametrize("constrained", [False, True])
def test_propagation_alone_keeps_the_time_limit(constrained):
    # sat:search=off built the formula and propagated with no deadline: on an empty 25x25
    # `count -s sat:search=off -t 0.01` took 0.9 s (35x35: 5.8 s) and said "propagation
    # alone does not solve this puzzle", not that the time limit was reached.
    empty = parse("." * 625)
    if constrained:
        empty = replace(empty, constraints=(Cage((0, 1), 3),))
    result = make_backend("sat:search=off").solve(empty, limit=2, time_limit=0)
    assert result.status is Status.UNKNOWN and not result.complete
    assert result.message == "time limit of 0 s reached"


def test_propagation_alone_under_a_time_limit_it_keeps_still_decides():
    result = make_backend("sat:search=off").solve(parse("3.1...4.2......."), time_limit=60)
    assert result.status is Status.UNIQUE and result.complete


@pytest.mark.parametrize("limit", [None, 5])
def test_the_explainers_two_witnesses_are_no_exact_count_beyond_two(limit):
    # explain stops at the two solutions that show a puzzle is not unique: asked for more,
    # they are a lower bound (complete=True claimed exactly 2 of these 18).
    from sudoku_csp.logic.backend import LogicBackend
    result = LogicBackend().solve(MANY, limit=limit)
    assert result.status is Status.MULTIPLE and result.count == 2
    assert not result.complete and not decisive(result, limit)
    assert LogicBackend().solve(MANY, limit=2).complete
