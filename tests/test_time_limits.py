"""A limit set by the user is kept through the long phases that run before any search:
loading a formula into a solver looks at the deadline between chunks.

Bounded by the deadline's looks, never by the clock: a fake deadline passes at a chosen
look, or is limited but never passes and counts how often it is looked at.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from cases import GRID2, KILLER4

from sudoku_csp import Status, parse, satsolver
from sudoku_csp.backends import make_backend
from sudoku_csp.deadline import Deadline, Expired
from sudoku_csp.encodings import cnf
from sudoku_csp.variants import make_geometry

LOADING = "loading the formula"
SIMPLIFYING = "simplifying the formula"


@dataclass(frozen=True)
class PassesAtLook(Deadline):
    """A limited deadline that passes at the ``passes_at``-th look made while doing
    ``when`` (0: never), and records what each look was made during."""

    at: float | None = 1e18
    seconds: float | None = 3
    passes_at: int = 0
    when: str = LOADING
    looks: list[str] = field(default_factory=list)

    def check(self, doing: str = "") -> None:
        self.looks.append(doing)
        if self.expired():
            raise Expired(f"{self.words()} reached while {doing}")

    def expired(self) -> bool:
        return bool(self.passes_at) and self.looks.count(self.when) >= self.passes_at


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(satsolver, "_LOADED_BETWEEN_CHECKS", 100)


def test_a_propagating_solver_is_loaded_in_chunks_each_after_a_look(small_chunks):
    # Before: one PySAT call (bootstrap_with) loaded every clause with no look at the
    # deadline (the empty 35x35 grid's 2.9 million clauses ran about 2 s past a limit).
    clauses = cnf.build(make_geometry(4)).clauses
    deadline = PassesAtLook()
    solver, units = satsolver.propagating_solver("cadical153", clauses, deadline)
    solver.delete()
    assert deadline.looks.count(LOADING) == -(-len(clauses) // 100) > 1
    with pytest.raises(Expired, match=LOADING):
        satsolver.propagating_solver("cadical153", clauses, PassesAtLook(passes_at=2))


@pytest.mark.parametrize("text", [GRID2, KILLER4], ids=["plain", "killer"])
def test_search_off_stops_loading_when_the_limit_passes(small_chunks, text):
    # Before: the deadline was looked at once, after the whole formula was loaded, so a
    # limit passing during the loading went unseen and the propagation ran on.
    backend = make_backend("sat:search=off")
    deadline = PassesAtLook(passes_at=2)
    result = backend.solve(parse(text), limit=2, time_limit=deadline)
    assert result.status is Status.UNKNOWN and "time limit of 3 s" in result.message
    assert deadline.looks.count(LOADING) == 2  # it stopped at the look that saw the limit
    # Nothing half-loaded is kept: the same backend loads again and decides as a new one.
    again = backend.solve(parse(text), limit=2, time_limit=PassesAtLook())
    assert "time limit" not in again.message
    assert again.status is make_backend("sat:search=off").solve(parse(text), limit=2).status

def test_the_cli_answers_unknown_with_the_limit_when_loading_is_cut(monkeypatch, small_chunks):
    from typer.testing import CliRunner

    from sudoku_csp.cli import Exit, app

    real = satsolver.add_clauses
    loaded = []

    def expire_after_first_chunk(solver, clauses):
        loaded.append(len(clauses))
        real(solver, clauses)
        monkeypatch.setattr(Deadline, "expired", lambda self: self.at is not None)

    monkeypatch.setattr(satsolver, "add_clauses", expire_after_first_chunk)
    result = CliRunner().invoke(app, ["count", GRID2, "-s", "sat:search=off", "-t", "30"])
    assert result.exit_code == Exit.UNKNOWN, result.output
    assert "time limit of 30 s" in result.output
    assert loaded == [100]  # the first chunk only


# -- the clue-reduced formula (sat:mode=reduced, encode --reduce) -------------------------
def test_simplifying_by_the_givens_looks_at_the_deadline():
    # Before: clue_reduced built and went through the whole formula with no deadline (the
    # empty 35x35 grid's: seconds past `count -s sat:mode=reduced -t 0.2`).
    with pytest.raises(Expired, match=SIMPLIFYING):
        cnf.clue_reduced(parse(GRID2), deadline=PassesAtLook(passes_at=1, when=SIMPLIFYING))


def test_reduced_mode_answers_unknown_when_the_limit_passes_while_simplifying():
    deadline = PassesAtLook(passes_at=1, when=SIMPLIFYING)
    result = make_backend("sat:mode=reduced").solve(parse(GRID2), limit=2, time_limit=deadline)
    assert result.status is Status.UNKNOWN and "time limit of 3 s" in result.message
    assert LOADING not in deadline.looks  # stopped before any solver was loaded


def test_encode_reduce_stops_when_the_limit_passes_while_simplifying():
    from sudoku_csp.encodings.dimacs import encode_puzzle_dimacs

    with pytest.raises(Expired, match=SIMPLIFYING):
        encode_puzzle_dimacs(parse(GRID2), reduce=True,
                             time_limit=PassesAtLook(passes_at=1, when=SIMPLIFYING))
