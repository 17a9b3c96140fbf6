"""Cross-checking: agreement over the shared cases, and disagreements that must be reported."""

from __future__ import annotations

import json

import pytest
from cases import BY_NAME, CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import Result, SpecError, Status, get_backend, make_backend
from sudoku_csp.backends.base import make_result
from sudoku_csp.backends.registry import BACKENDS
from sudoku_csp.crosscheck import DISAGREEMENT, Claim, crosscheck, judge
from sudoku_csp.io import parse
from sudoku_csp.puzzle import Puzzle

NATIVE_SPECS = ["native", "native:rules=singles", "native:rules=full,branch=first"]
TRIO = ["native", "sat", "cpsat"]


# -- fake backends: the Backend protocol, each wrong in its own way ---------------------------
class SaysNone:
    """Claims every puzzle has no solution."""

    spec = "broken:says=none"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        return Result(Status.NONE, solver=self.spec)


class SaysMultiple:
    """Claims two solutions but shows none (a valid-looking status, no evidence)."""

    spec = "broken:says=multiple"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        return Result(Status.MULTIPLE, solver=self.spec)


class StopsAtOne:
    """Finds one real solution, then claims it is the only one."""

    spec = "broken:stops=1"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        found = get_backend("native").solve(puzzle, limit=1)
        return Result(Status.UNIQUE, found.solutions, solver=self.spec)


class WrongGrid:
    """Returns a grid that is not a solution: make_result refuses it."""

    spec = "broken:grid=wrong"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        grid = [0] * puzzle.geometry.ncells
        return make_result(puzzle, [grid], limit=limit, complete=True, timed_out=False,
                           solver=self.spec, seconds=0.0, stats={})


class TimesOut:
    """Always runs out of time."""

    spec = "slow"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        return Result(Status.UNKNOWN, solver=self.spec, message="time limit of 0.001 s reached")


class Crashes:
    spec = "crashes"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        raise RuntimeError("segfault, nearly")


# -- agreement --------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_native_configurations_agree_on_shared_cases(case):
    check = crosscheck(case.puzzle(), NATIVE_SPECS, limit=2, time_limit=60)
    assert check.agreed, check.explain()
    assert check.status == case.expected.value
    assert check.specs == ("native", "native:rules=singles", "native:rules=full,branch=first")
    assert set(check.verdicts.values()) == {case.expected.value}
    if case.solution:
        assert check.solution == case.solution


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_registered_backend_agrees(case):
    check = crosscheck(case.puzzle(), list(BACKENDS), limit=2, time_limit=60)
    assert check.agreed, check.explain()
    assert check.status == case.expected.value


@pytest.mark.skipif(not set(TRIO) <= BACKENDS.keys(),
                    reason=f"default trio not registered yet (have {', '.join(BACKENDS)})")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_default_trio_agrees(case):
    check = crosscheck(case.puzzle(), TRIO, limit=2, time_limit=60)
    assert check.agreed, check.explain()
    assert check.status == case.expected.value


def test_limit_one_agrees_as_solved():
    check = crosscheck(BY_NAME["grid2"].puzzle(), ["native:rules=singles,branch=first",
                                                   "native:rules=none,branch=mrv"], limit=1)
    assert check.agreed, check.explain()
    assert check.status in ("solved", "unique")


def test_two_different_solutions_at_limit_one_prove_multiple():
    # Each spec only solved (limit=1), but their grids differ: the puzzle is not unique.
    # A fresh backend: a random value order depends on what the instance solved before.
    shuffled = make_backend("native:branch=first,order=random,seed=3")
    check = crosscheck(BY_NAME["empty4"].puzzle(), ["native:branch=first", shuffled], limit=1)
    solutions = {c.solution for c in check.claims.values()}
    assert len(solutions) == 2, "the two value orders should find different grids"
    assert check.agreed
    assert check.status == "multiple"


def test_unknown_from_a_time_limit_is_not_a_disagreement_nor_an_agreement():
    # One spec decided, the other ran out of time: nothing contradicts the verdict, and
    # nothing checked it, so it is not called agreed.
    check = crosscheck(BY_NAME["grid1"].puzzle(), ["native", TimesOut()])
    assert check.status == "unique" and check.decided == 1
    assert not check.agreed and check.status is not DISAGREEMENT
    assert check.undecided == ("slow",)
    assert check.verdicts == {"native": "unique", "slow": "unknown"}
    assert check.explain().startswith("decided by one backend: unique (undecided: slow)")
    assert "time limit" in check.explain()
    data = check.as_dict()
    assert (data["status"], data["decided"], data["agreed"]) == ("unique", 1, False)
    both = crosscheck(BY_NAME["grid1"].puzzle(), ["native", "sat", TimesOut()])
    assert both.decided == 2 and both.agreed and both.explain().startswith("agreed: unique")


def test_all_unknown_is_unknown():
    check = crosscheck(BY_NAME["grid1"].puzzle(), [TimesOut()])
    assert check.status == "unknown" and check.decided == 0 and not check.agreed
    assert check.explain().startswith("decided by no backend: unknown")


# -- disagreements ----------------------------------------------------------------------------
def test_says_none_on_a_unique_puzzle_is_a_disagreement():
    check = crosscheck(BY_NAME["grid1"].puzzle(), ["native", SaysNone()])
    assert not check.agreed
    assert check.status == DISAGREEMENT
    assert check.verdicts == {"native": "unique", "broken:says=none": "none"}
    assert check.reasons == ("broken:says=none says none, but native found a solution",)
    assert check.solution is None
    text = check.explain()
    assert text.startswith("DISAGREEMENT")
    assert "broken:says=none" in text and "native" in text


def test_valid_looking_status_without_evidence_is_a_disagreement():
    check = crosscheck(BY_NAME["4x4"].puzzle(), ["native", SaysMultiple()])
    assert check.status == DISAGREEMENT
    assert check.reasons == ("specs disagree: unique (native); multiple (broken:says=multiple)",)


def test_unique_claim_on_a_multiple_puzzle_is_a_disagreement():
    check = crosscheck(BY_NAME["hard1"].puzzle(), ["native", StopsAtOne()])
    assert check.status == DISAGREEMENT
    assert check.verdicts == {"native": "multiple", "broken:stops=1": "unique"}
    assert any(r.startswith("broken:stops=1 says unique") for r in check.reasons)


def test_wrong_solution_error_is_that_specs_error_and_a_disagreement():
    check = crosscheck(BY_NAME["grid1"].puzzle(), ["native", WrongGrid()])
    assert check.status == DISAGREEMENT
    assert check.verdicts["broken:grid=wrong"] == "error"
    assert "wrong solution" in check.errors["broken:grid=wrong"]
    assert "broken:grid=wrong" not in check.results
    assert check.results["native"].status is Status.UNIQUE
    assert check.reasons[0].startswith("broken:grid=wrong failed:")


def test_other_backend_exceptions_propagate():
    with pytest.raises(RuntimeError, match="segfault"):
        crosscheck(BY_NAME["grid1"].puzzle(), ["native", Crashes()])


def test_counting_all_compares_the_counts():
    claims = {"a": Claim(Status.MULTIPLE, 288, "x", exact=True),
              "b": Claim(Status.MULTIPLE, 287, "y", exact=True)}
    judgement = judge(claims)
    assert judgement.status == DISAGREEMENT
    assert judgement.reasons == ("b counts 287 solutions, but 288 were found",)
    check = crosscheck(BY_NAME["empty4"].puzzle(), ["native", "native:rules=singles"],
                       limit=None)
    assert check.agreed and check.status == "multiple"
    assert {c.found for c in check.claims.values()} == {288}


@settings(max_examples=300)
@given(st.sampled_from([None, *Status]), st.integers(0, 3), st.sampled_from([None, "12"]),
       st.booleans(), st.booleans())
def test_one_claim_is_judged_as_with_a_silent_second(status, found, solution, exact, complete):
    """A lone claim takes a short cut when it says unique, solved or none: its verdict is
    the one the full comparison gives it beside a spec that says nothing (unknown, no
    solution)."""
    claim = Claim(status, found, solution, "" if status else "crashed", exact=exact,
                  complete=complete)
    assert judge({"a": claim}) == judge({"a": claim, "b": Claim(Status.UNKNOWN)})


def test_known_claims_take_part():
    known = {"earlier": Claim(Status.NONE)}
    check = crosscheck(BY_NAME["grid1"].puzzle(), ["native"], known=known)
    assert check.specs == ("earlier", "native")
    assert check.status == DISAGREEMENT


def test_as_dict_is_json():
    check = crosscheck(BY_NAME["grid1"].puzzle(), ["native", WrongGrid()])
    data = json.loads(json.dumps(check.as_dict()))
    assert data["status"] == DISAGREEMENT and data["agreed"] is False
    assert data["specs"]["native"]["status"] == "unique"
    assert data["specs"]["broken:grid=wrong"]["status"] == "error"
    assert "error" in data["specs"]["broken:grid=wrong"]
    assert data["reasons"]


def test_as_dict_shape():
    # The line `sudoku-csp check --json` prints (batch.Outcome.as_dict gives the same, plus index).
    check = crosscheck(parse("3.1...4.2.......\tfrom the tests"), ["native", "sat"])
    data = check.as_dict()
    assert list(data) == ["puzzle", "status", "decided", "agreed", "specs", "metadata"]
    assert data["puzzle"] == "3.1...4.2......." and data["metadata"] == "from the tests"
    assert (data["status"], data["decided"], data["agreed"]) == ("unique", 2, True)
    assert list(data["specs"]["native"]) == ["status", "seconds"]
    assert data["specs"]["native"]["seconds"] == round(check.claims["native"].seconds, 6)


def test_specs_are_checked():
    puzzle = BY_NAME["4x4"].puzzle()
    with pytest.raises(SpecError, match="same solver"):
        crosscheck(puzzle, ["native", "native:rules=locked"])
    with pytest.raises(SpecError, match="unknown solver"):
        crosscheck(puzzle, ["native", "nope"])
    with pytest.raises(SpecError, match="no solver"):
        crosscheck(puzzle, [])


def test_a_count_cut_by_the_time_limit_is_a_lower_bound_not_a_disagreement():
    # Counting every solution of an open grid: one backend cut short after a few, another
    # after more. Both counts are lower bounds: "multiple", never a contradiction.
    puzzle = parse("." * 16)
    few = Result(Status.MULTIPLE, ((0,) * 16, (1,) * 16), total=5, complete=False)
    claims = {"a": Claim.of(puzzle, few, None),
              "b": Claim(Status.MULTIPLE, 40, None, exact=False, complete=False)}
    assert not claims["a"].exact and claims["a"].bounds == (2, float("inf"))
    assert judge(claims).status == "multiple"
