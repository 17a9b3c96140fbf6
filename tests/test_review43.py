"""Review of session 43's change: the SAT backend's incremental mode numbers every
puzzle's auxiliaries in one scratch region (:meth:`SolverSession.scratch`) that the next
puzzle takes over; a puzzle needing more grows it in place while it holds the highest
variables in use, and moves it above every variable otherwise (a block of selectors taken
above it: :data:`~sudoku_csp.satsession.SELECTOR_BLOCK`).

Guards where a false count could come from:

- the region's bounds: a puzzle needing one auxiliary more than the region holds must move
  it (an off-by-one that fits it there puts its last auxiliary on the variable above, a
  selector), and the old region's variables set false must be its own and no others;
- a move that fails midway: the old region's variables are set false for good, so the
  session must not go on numbering puzzles there (it did when the move failed after
  setting them; now it moves first).
"""

from __future__ import annotations

import pytest

from sudoku_csp import parse
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.encodings import cnf
from sudoku_csp.result import Status
from sudoku_csp.satsession import SolverSession

# Killers of k two-cell cages summing to 5 on the 4x4 grid: two digit sets each ({1,4},
# {2,3}), one auxiliary each; 64 to 96 solutions.
LAYOUT = "AABBCCDDEEFFGGHH"
LIMIT = 100  # above every count here: each puzzle counted in full, every solution kept


def _killer(k: int, givens: str = "." * 16):
    cages = "".join(c if ord(c) - ord("A") < k else "." for c in LAYOUT)
    if not k:
        return parse(givens)
    return parse(f"{cages} {','.join(['5'] * k)} {givens}")


def _selectors_above_the_region(backend, geometry) -> None:
    """Spend the session's block of selectors and take the next, which lies above the
    scratch region: the next puzzle needing more than the region moves it."""
    session = backend._sessions[geometry, ()]
    for _ in range(len(session.spare) + 1):
        session.selector()


@pytest.mark.parametrize("move", [False, True], ids=["in place", "moved"])
@pytest.mark.parametrize("spec", ["sat", "sat:solver=glucose4", "sat:solver=cadical195"])
def test_the_region_grows_one_auxiliary_at_a_time_and_counts_stay_right(spec, move):
    # Each killer needs one auxiliary more than the one before, so the region grows at
    # every step (1, 2, ... 8), in place or (move) moved above a new block of selectors,
    # then smaller ones reuse it; plain puzzles between them put their blocking selectors
    # below or above the region. Every count, in full, and every solution set (all kept:
    # fewer than the limit) as a fresh solver's.
    order = [1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 3, 0, 1, 8, 7, 2]
    puzzles = {k: _killer(k) for k in set(order)}
    puzzles[0] = _killer(0, "1" + "." * 15)  # 72 solutions: a selector per blocking clause
    assert [cnf.constraint_clauses(puzzles[k], 65)[1] - 64 for k in range(9)] == list(range(9))
    fresh = make_backend("sat:mode=fresh")
    expected = {k: fresh.solve(p, limit=LIMIT) for k, p in puzzles.items()}
    assert all(len(r.solutions) == r.count < LIMIT for r in expected.values())
    backend = make_backend(spec)
    moved, starts = [], set()
    for k in order:
        if move and moved:
            _selectors_above_the_region(backend, puzzles[k].geometry)
        got = backend.solve(puzzles[k], limit=LIMIT)
        assert (got.count, got.complete) == (expected[k].count, True), (spec, k)
        assert set(got.solutions) == set(expected[k].solutions), (spec, k)
        session = backend._sessions[puzzles[k].geometry, ()]
        assert isinstance(session, SolverSession)
        moved.append(session.scratch_size)
        starts.add(session.scratch_start)
    assert moved[:3] == [1, 2, 3] and moved[-1] == 8  # the region did grow, then stayed
    assert (len(starts) > 1) == move  # moved only when something lay above it


def test_a_region_move_that_fails_midway_leaves_no_region_set_false(monkeypatch):
    # The puzzle of 6 cages does not fit the region of the puzzle of 2, whose selectors lie
    # above it now, so its clauses are written again for a new region, and that second
    # writing fails (as an encoder out of memory would). Before, the old region's
    # variables were set false first and the session kept numbering puzzles there: the
    # puzzle of 2 counted 48 of its 96 solutions.
    small, large = _killer(2), _killer(6)
    expected = make_backend("sat:mode=fresh").solve(small, limit=LIMIT)
    backend = make_backend("sat")
    assert backend.solve(small, limit=LIMIT).count == expected.count == 96
    _selectors_above_the_region(backend, small.geometry)
    write, calls = cnf.constraint_clauses, []

    def fails_the_second_time(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise MemoryError("the new region's clauses")
        return write(*args, **kwargs)

    monkeypatch.setattr(cnf, "constraint_clauses", fails_the_second_time)
    with pytest.raises(MemoryError):
        backend.solve(large, limit=LIMIT)
    monkeypatch.undo()
    assert len(calls) == 2
    for puzzle in (small, large, small):
        got = backend.solve(puzzle, limit=LIMIT)
        want = expected if puzzle is small else make_backend("sat:mode=fresh").solve(large,
                                                                                    limit=LIMIT)
        assert (got.status, got.count, set(got.solutions)) == (
            Status.MULTIPLE, want.count, set(want.solutions))
