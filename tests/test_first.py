"""The ``first`` portfolio (members tried in turn, the first decisive answer taken) and the
native solver's node budget it leans on."""

from __future__ import annotations

import pytest
from cases import BY_NAME, CASES, pigeonhole_puzzle

from sudoku_csp import SpecError, Status, make_backend
from sudoku_csp.crosscheck import resolve
from sudoku_csp.verify import is_solution

# The pigeonhole puzzle: native without rules searches it for ever, SAT's unit ALO
# clauses refute it at once (tests/cases.py).
BLIND = "native:rules=none,nodes=50"


@pytest.mark.parametrize("branch", ["degree", "restarts"])
def test_a_node_budget_stops_the_native_search_with_unknown(branch):
    result = make_backend(f"{BLIND},branch={branch}").solve(pigeonhole_puzzle(), limit=2)
    assert result.status is Status.UNKNOWN and not result.complete
    assert result.message == "the node budget ran out (50 search nodes)"
    assert result.stats["nodes"] <= 50


def test_no_node_budget_by_default_and_none_below_zero():
    assert make_backend("native").options["nodes"] == 0  # no bound
    with pytest.raises(SpecError, match="nodes"):
        make_backend("native:nodes=-1")


def test_a_budget_the_search_stays_inside_changes_nothing():
    case = BY_NAME["hard1"]
    plain = make_backend("native").solve(case.puzzle(), limit=2)
    bounded = make_backend("native:nodes=100000").solve(case.puzzle(), limit=2)
    assert plain.status is bounded.status is case.expected
    assert plain.solutions == bounded.solutions


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_first_portfolio_gives_each_case_its_verdict(case):
    first = make_backend("first:native:nodes=20,sat")
    result = first.solve(case.puzzle(), limit=2)
    assert result.status is case.expected
    assert result.solver == "first:native:nodes=20,sat"
    assert all(is_solution(case.puzzle(), grid) for grid in result.solutions)


def test_the_next_member_decides_when_the_first_runs_out():
    first = make_backend(f"first:{BLIND},sat")
    result = first.solve(pigeonhole_puzzle(), limit=2)
    assert result.status is Status.NONE and result.stats["winner"] == "sat"
    easy = first.solve(BY_NAME["grid1"].puzzle(), limit=2)
    assert easy.status is Status.UNIQUE and easy.stats["winner"] == BLIND


def test_one_deadline_for_every_member():
    result = make_backend(f"first:{BLIND},sat").solve(pigeonhole_puzzle(), time_limit=0)
    assert result.status is Status.UNKNOWN and "winner" not in result.stats


def test_a_first_spec_names_two_solvers_or_more_once_each():
    for spec, words in [("first:sat", "two members or more"),
                        ("first:race,sat", "'race' is not a backend to run"),
                        ("first:first,sat", "'first' is not a backend to run"),
                        ("first:sat,sat", "named twice")]:
        with pytest.raises(SpecError, match=words):
            make_backend(spec)


def test_a_cross_check_never_counts_a_portfolio_and_its_member_as_two():
    with pytest.raises(SpecError, match="count its verdict twice"):
        resolve(["first:native,sat", "sat"])
    with pytest.raises(SpecError, match="count its verdict twice"):
        resolve(["first:native,sat", "race:sat,cpsat"])


@pytest.mark.parametrize("name", ["grid2", "hard1", "windoku", "anti-knight"])
def test_a_budget_cut_anywhere_claims_nothing_false(name):
    # However few nodes the search is given, its answer is the verdict or unknown: never
    # "unique" for a puzzle with several solutions because the second was not reached.
    case = BY_NAME[name]
    whole = make_backend("native:rules=singles").solve(case.puzzle(), limit=2)
    assert whole.status is case.expected
    for nodes in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, whole.stats["nodes"] - 1):
        cut = make_backend(f"native:rules=singles,nodes={nodes}").solve(case.puzzle(), limit=2)
        assert cut.status in (case.expected, Status.UNKNOWN), nodes
        if cut.status is Status.UNKNOWN:
            assert not cut.complete and "node budget" in cut.message
