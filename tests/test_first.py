"""The ``first`` portfolio (members tried in turn, the first decisive answer taken, SAT
starting from the candidates a native member's root left) and the native solver's node
budget it leans on."""

from __future__ import annotations

import pytest
from cases import (
    BY_NAME,
    CASES,
    CONSTRAINED_CASES,
    Free,
    FreeNativeCnf,
    pigeonhole_puzzle,
    with_constraint,
)

from sudoku_csp import InputError, SpecError, Status, get_backend, make_backend
from sudoku_csp.backends.native import NativeBackend
from sudoku_csp.backends.sat import SatBackend
from sudoku_csp.crosscheck import resolve
from sudoku_csp.deadline import Cancellable
from sudoku_csp.modeling.variables import variables
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


# -- the hand-over: SAT after a native member starts from its root's candidates ------------
KILLER = next(c for c in CONSTRAINED_CASES if c.name == "killer9-diagonal")  # undecided at 1 node


@pytest.fixture
def handed(monkeypatch):
    """The ``candidates`` each SAT call was given."""
    seen: list = []
    real = SatBackend.solve

    def solve(self, puzzle, *, limit=1, time_limit=None, candidates=None):
        seen.append(candidates)
        return real(self, puzzle, limit=limit, time_limit=time_limit, candidates=candidates)

    monkeypatch.setattr(SatBackend, "solve", solve)
    return seen


@pytest.mark.parametrize("native", ["native:nodes=1", "native:search=off"])
def test_sat_starts_from_the_candidates_the_native_root_left(handed, native):
    # A native member that stopped at its root, undecided, hands on what its propagation
    # from the givens left; SAT makes each digit ruled out a unit clause ("known").
    puzzle = KILLER.puzzle()
    root = get_backend("native").propagate(puzzle).cand
    answer = make_backend(f"first:{native},sat").solve(puzzle, limit=2)
    assert (answer.status, answer.stats["winner"]) == (Status.UNIQUE, "sat")
    assert handed == [root]
    assert answer.stats["known"] == len(variables(puzzle.geometry).ruled_out(
        root, puzzle.givens)) > 0


def test_nothing_is_handed_over_from_below_the_root(handed):
    # Past its root the native search holds the candidates under its guesses, which need not
    # keep every solution: SAT then starts from the givens alone.
    puzzle = KILLER.puzzle()
    native = make_backend("native:nodes=3").solve(puzzle, limit=2)
    assert native.status is Status.UNKNOWN and native.stats["nodes"] > 1
    answer = make_backend("first:native:nodes=3,sat").solve(puzzle, limit=2)
    assert (answer.status, answer.stats["winner"]) == (Status.UNIQUE, "sat")
    assert handed == [None] and "known" not in answer.stats
    # A later native member that searched past its root keeps the earlier root's.
    answer = make_backend("first:native:nodes=1,native:nodes=3,sat").solve(puzzle, limit=2)
    assert handed[1] == get_backend("native").propagate(puzzle).cand


def test_a_refusing_member_is_passed_over_and_the_candidates_go_past_it(handed):
    puzzle = with_constraint(KILLER.puzzle(), FreeNativeCnf())
    with pytest.raises(InputError, match="no CP-SAT model"):
        make_backend("cpsat").solve(puzzle, limit=2)
    answer = make_backend("first:native:nodes=1,cpsat,sat").solve(puzzle, limit=2)
    assert (answer.status, answer.stats["winner"]) == (Status.UNIQUE, "sat")
    assert handed == [get_backend("native").propagate(puzzle).cand]
    assert answer.stats["known"] > 0


def test_when_every_member_refuses_the_last_refusal_is_raised():
    puzzle = with_constraint(KILLER.puzzle(), Free())
    with pytest.raises(InputError, match="have no CNF clauses"):
        make_backend("first:native:nodes=1,sat").solve(puzzle, limit=2)
    with pytest.raises(InputError, match="have no native propagation"):
        make_backend("first:sat,native:nodes=1").solve(puzzle, limit=2)


def test_a_deadline_spent_by_one_member_starts_no_other(monkeypatch, handed):
    real = NativeBackend.solve_from_root

    def spent(self, puzzle, *, limit=1, time_limit=None):
        answer = real(self, puzzle, limit=limit, time_limit=time_limit)
        time_limit.cancel()  # as a time limit passing as the member ends
        return answer

    monkeypatch.setattr(NativeBackend, "solve_from_root", spent)
    answer = make_backend("first:native:nodes=1,sat").solve(
        KILLER.puzzle(), limit=2, time_limit=Cancellable.of_limit(None))
    assert answer.status is Status.UNKNOWN and "winner" not in answer.stats
    assert handed == [] and "node budget" in answer.message


def test_with_no_member_deciding_the_later_answer_stands_on_a_tie():
    # Two node budgets that both run out on hard1, no solution found by either: the answer
    # says why the last try stopped.
    answer = make_backend("first:native:nodes=1,native:rules=singles,nodes=2").solve(
        BY_NAME["hard1"].puzzle(), limit=2)
    assert (answer.status, answer.count) == (Status.UNKNOWN, 0)
    assert "winner" not in answer.stats
    assert answer.message == "the node budget ran out (2 search nodes)"


@pytest.mark.parametrize("case", CONSTRAINED_CASES, ids=lambda c: c.name)
def test_the_hand_over_keeps_each_verdict(case):
    result = make_backend("first:native:nodes=1,sat").solve(case.puzzle(), limit=2)
    assert result.status is case.expected
    assert all(is_solution(case.puzzle(), grid) for grid in result.solutions)
