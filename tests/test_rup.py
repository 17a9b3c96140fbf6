"""The RUP checker alone: lemmas accepted only when reverse unit propagation derives them."""

from __future__ import annotations

from sudoku_csp.rup import RupChecker, check_proof, parse_proof

UNSAT_2 = [(1, 2), (-1, 2), (1, -2), (-1, -2)]


def test_rup_accepts_a_resolution_proof():
    assert check_proof(2, UNSAT_2, ["2 0", "0"]).ok
    assert check_proof(2, UNSAT_2, "2 0\n0\n").ok


def test_rup_needs_the_conflict():
    assert not check_proof(2, UNSAT_2, []).ok
    result = check_proof(2, [(1, 2), (-1, 2), (1, -2)], ["2 0", "1 0", "0"])
    assert not result.ok and result.checked == 3  # the formula is satisfiable


def test_rup_rejects_a_lemma_that_is_not_implied():
    # (x3) is RAT on 3 (no clause holds -3) but not RUP: this checker does RUP only.
    result = check_proof(3, UNSAT_2, ["3 0", "2 0", "0"])
    assert not result.ok and result.reason.startswith("lemma 1 ")


def test_deletions_are_ignored():
    result = check_proof(2, UNSAT_2, ["d 1 2 0", "d -1 2 0", "2 0", "0"])
    assert result.ok and result.deletions == 2


def test_variable_outside_the_formula():
    assert not check_proof(2, UNSAT_2, ["5 0", "0"]).ok
    assert "outside" in check_proof(2, [(1, 9)], []).reason


def test_malformed_proof_line():
    assert "not a clause" in check_proof(2, UNSAT_2, ["2 x 0"]).reason
    assert "end with" in check_proof(2, UNSAT_2, ["2"]).reason


def test_parse_proof():
    assert parse_proof("c hi\n1 -2 0\nd 1 0\n\n0\n") == ([(1, -2), ()], 1)


def test_checker_propagates_long_clauses_and_backtracks():
    r = RupChecker(4)
    r.add_clauses([(1, 2, 3, 4), (-1,), (-2,)])
    assert r.is_rup((3, 4))
    assert not r.is_rup((3,))
    assert r.trail == [-1, -2]  # the check left no assignment behind
    assert r.add_lemma((3, 4)) and not r.refuted
    r.add_clauses([(-3,)])
    assert r.value[4] and not r.refuted
    r.add_clauses([(-4, 1)])
    assert r.refuted


def test_checker_duplicate_and_tautological_literals():
    r = RupChecker(2)
    r.add_clauses([(1, 1, 2), (2, -2, 1), (-1, -1)])
    assert r.is_rup((2,)) and not r.refuted
    assert r.add_lemma((2, 2))
    assert r.is_rup((1, -1))
