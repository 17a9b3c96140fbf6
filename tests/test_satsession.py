"""The session core the generator and the setter tools share (sudoku_csp.satsession): one
formula loaded once, givens as assumptions, constraints and exclusions behind selectors,
every grid read back checked."""

from __future__ import annotations

import pytest

from sudoku_csp import EMPTY, Puzzle, parse
from sudoku_csp.constraints import Cage
from sudoku_csp.errors import InputError
from sudoku_csp.generate import UniquenessSession, minimality
from sudoku_csp.modeling.variables import Variables
from sudoku_csp.satsession import GeometrySession
from sudoku_csp.satsolver import capabilities, solver_names
from sudoku_csp.setter import PartSession
from sudoku_csp.variants import make_geometry
from sudoku_csp.verify import WrongSolutionError

FOUR = make_geometry(4)
BLANK = (EMPTY,) * 16


def test_a_constraint_joins_once_and_is_retired_for_good():
    s = GeometrySession(FOUR)
    cage = Cage((0, 1), 3)
    selector = s.guard(cage)
    assert s.guard(cage) == selector  # asked again: the clauses are there already
    assert s.ask([*s.literals(BLANK), selector])
    assert sorted(s.grid(Puzzle(FOUR, BLANK, constraints=(cage,)))[:2]) == [0, 1]
    s.release([cage])
    four = s.literal(0, 3)  # A1 holds 4, which the cage (1 + 2) rules out
    assert s.ask([four])  # off for good
    again = s.guard(cage)  # asked for again: back under a new selector
    assert again != selector and s.ask([four, again]) is False
    s.close()


def test_a_recycled_session_forgets_its_selectors_on_a_rebuild():
    s = GeometrySession(FOUR, recycle=1)
    cage = Cage((0, 1), 7)  # 3 + 4
    first = s.guard(cage)
    s.retire(s.exclude(tuple(range(4)) * 4))  # one retirement: the solver goes
    assert s.builds == 1
    again = s.guard(cage)  # loaded anew: the cage's clauses must join it again
    assert s.builds == 2 and again == first  # numbered as before, in the new solver
    assert s.ask([s.literal(0, 0), again]) is False  # A1 = 1 is neither 3 nor 4
    s.close()


def test_live_guards_do_not_count_as_dead_variables():
    # A session asked again and again about one puzzle (the generator's) keeps its
    # constraints' auxiliaries live behind their selectors: only the incremental mode's
    # sessions, one puzzle at a time, count every variable a puzzle leaves unused towards a
    # rebuild (SolverSession.retire), else each retired exclusion would rebuild the solver
    # and make every constraint join it again.
    s = GeometrySession(FOUR, recycle=1000)
    cages = [Cage((2 * i, 2 * i + 1), 5) for i in range(8)]  # 1+4 or 2+3: auxiliaries each
    guards = [s.guard(cage) for cage in cages]
    for _ in range(300):
        excluded = s.exclude(tuple(range(4)) * 4)  # no latin square anyway
        assert s.ask([*guards, excluded])
        s.retire(excluded)
        assert s.builds == 1  # a rebuild would void the guards
    s.close()


def test_a_session_that_never_recycles_is_closed_for_good():
    s = GeometrySession(FOUR)
    assert s.ask([]) is True
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.ask([])


def test_a_passed_deadline_asks_nothing():
    from sudoku_csp.deadline import Deadline

    s = GeometrySession(FOUR)
    with s.until(Deadline.after(0)):
        assert s.ask([]) is None
    assert s.calls == 0
    s.close()


def test_a_solver_that_ignores_assumptions_is_refused_by_every_session():
    # Before: the generator's session took it, and answered for another puzzle (minimality
    # on a full grid got a grid that broke its givens).
    blind = [n for n in solver_names() if not capabilities(n).assumptions]
    if not blind:
        pytest.skip("every solver here takes assumptions")
    with pytest.raises(InputError, match="assumptions"):
        UniquenessSession(FOUR, solver=blind[0])
    with pytest.raises(InputError, match="assumptions"):
        minimality(parse("1234341221434321"), solver=blind[0])
    with pytest.raises(InputError, match="assumptions"):
        PartSession(parse("1..............."), solver=blind[0])


def _wrong_models(monkeypatch):
    """Every model read back becomes a grid that breaks A1's rules (A1 copies A2)."""
    read = Variables.read_model

    def wrong(self, model):
        grid = list(read(self, model))
        grid[0] = grid[1]
        return tuple(grid)

    monkeypatch.setattr(Variables, "read_model", wrong)


def test_the_generators_session_checks_every_grid_it_returns(monkeypatch):
    # Before: other_solution handed the killer generator whatever the model said.
    session = UniquenessSession(FOUR)
    grid = session.solve(BLANK)
    _wrong_models(monkeypatch)
    with pytest.raises(WrongSolutionError, match="sat:solver="):
        session.other_solution(BLANK, grid, [Cage((0, 1), grid[0] + grid[1] + 2)])
    with pytest.raises(WrongSolutionError):
        session.solve(BLANK)
    session.close()


def test_the_setter_session_checks_every_grid_it_returns(monkeypatch):
    _wrong_models(monkeypatch)
    with PartSession(parse("1...............")) as s, pytest.raises(WrongSolutionError):
        s.solve(s.parts)
