"""The native search through the backend: every configuration gives the right verdict."""

from __future__ import annotations

import dataclasses
import inspect
import random
import sys

import pytest
from cases import BY_NAME, CASES, latin_squares_4, pigeonhole_puzzle, slow_if
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import (
    EMPTY,
    Puzzle,
    Result,
    SpecError,
    Status,
    get_backend,
    is_solution,
    make_backend,
    make_geometry,
)
from sudoku_csp.backends.native import NativeBackend
from sudoku_csp.io import format_line
from sudoku_csp.native import BRANCHING, PRESETS, RULES, State, propagate, rule_names
from sudoku_csp.result import status_for

EVERY = 10_000  # a limit above any count here: the result then keeps every grid

ORDERS = ["numeric", "random,seed=3"]
# Plain backtracking (preset none) takes seconds to minutes on these; they run with the others.
SLOW_WITHOUT_RULES = {"hard1", "grid2", "windoku", "anti-knight", "jigsaw", "diagonal"}


def specs(presets):
    return [f"native:rules={p},branch={b},order={o}"
            for p in presets for b in BRANCHING for o in ORDERS]


MATRIX = (
    [(spec, case) for spec in specs(["none"]) for case in CASES
     if case.name not in SLOW_WITHOUT_RULES]
    + [(spec, case) for spec in specs([p for p in PRESETS if p != "none"]) for case in CASES
       if case.name != "hard1"]
)


def check(puzzle: Puzzle, result: Result) -> None:
    assert all(is_solution(puzzle, s) for s in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions)


# -- every preset x branching x order ---------------------------------------------------------
@pytest.mark.parametrize(("spec", "case"), slow_if(MATRIX, lambda m: m[1].name in (
    "anti-knight", "anti-king")), ids=[f"{s.split(':')[1]}-{c.name}" for s, c in MATRIX])
def test_verdicts(spec, case):
    puzzle = case.puzzle()
    result = get_backend(spec).solve(puzzle, limit=2)
    assert result.status is case.expected, result.message
    check(puzzle, result)
    if case.expected is Status.UNIQUE:
        assert result.count == 1
        if case.solution:
            assert format_line(puzzle.geometry, result.solution) == case.solution
    elif case.expected is Status.MULTIPLE:
        assert result.count == 2
    else:
        assert result.solutions == ()


@pytest.mark.parametrize("spec", specs(PRESETS))
def test_solve_one(spec):
    for name in ("4x4", "6x6", "grid1", "empty9", "diagonal+anti-knight"):
        puzzle = BY_NAME[name].puzzle()
        result = get_backend(spec).solve(puzzle, limit=1)
        assert result.status in (Status.SOLVED, Status.UNIQUE), name
        assert result.count == 1 and is_solution(puzzle, result.solution)
    assert get_backend(spec).solve(BY_NAME["unsolvable"].puzzle()).status is Status.NONE


@pytest.mark.parametrize("spec", specs(PRESETS))
def test_counts_every_solution_of_the_empty_4x4(spec):
    result = get_backend(spec).solve(BY_NAME["empty4"].puzzle(), limit=None)
    assert result.status is Status.MULTIPLE and result.count == 288
    check(BY_NAME["empty4"].puzzle(), result)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_first_branching_with_numeric_order_is_lexicographic(preset):
    # Depth-first over cells in row-major order, smallest digit first: solutions come out
    # sorted, whatever propagation fills in on the way.
    backend = get_backend(f"native:rules={preset},branch=first")
    solutions = backend.solve(BY_NAME["empty4"].puzzle(), limit=EVERY).solutions
    assert list(solutions) == sorted(solutions)
    first = backend.solve(BY_NAME["empty9"].puzzle()).solution
    assert format_line(make_geometry(9), first)[:18] == "123456789456789123"


def test_hard1_counting_is_quick_with_the_default_preset():
    """Norvig's pathological puzzle: early guesses lead into huge dead subtrees. The default
    configuration must decide it in a modest number of nodes (Norvig's solver took minutes).
    The time limit only caps the cost of a failure; the test asserts on nodes."""
    puzzle = BY_NAME["hard1"].puzzle()
    result = get_backend("native").solve(puzzle, limit=2, time_limit=30)
    assert result.status is Status.MULTIPLE, result.message
    check(puzzle, result)
    assert result.stats["nodes"] <= 20_000


@pytest.mark.parametrize("preset", ["pairs", "full"])
def test_hard1_with_stronger_presets(preset):
    puzzle = BY_NAME["hard1"].puzzle()
    result = get_backend(f"native:rules={preset}").solve(puzzle, limit=2, time_limit=30)
    assert result.status is Status.MULTIPLE
    check(puzzle, result)


# -- against brute force ----------------------------------------------------------------------
GEOMETRIES_4 = [make_geometry(4), make_geometry(4, variants=["diagonal"]),
                make_geometry(4, variants=["anti-king"]), make_geometry(4, variants=["windoku"]),
                make_geometry(4, variants=["diagonal", "anti-knight"]),
                make_geometry(4, regions="aaab abbb cccd cddd")]
ALL_SPECS = specs(PRESETS) + [f"native:rules={p},search=off" for p in PRESETS]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GEOMETRIES_4), st.randoms(use_true_random=False), st.floats(0, 0.7))
def test_4x4_counts_match_brute_force(geometry, rng, density):
    solution = rng.choice(latin_squares_4())
    # Mostly givens from one Latin square, some random ones (which may clash).
    givens = tuple((solution[c] if rng.random() < 0.8 else rng.randrange(4))
                   if rng.random() < density else EMPTY for c in range(16))
    puzzle = Puzzle(geometry, givens)
    truth = sorted(s for s in latin_squares_4() if is_solution(puzzle, s))
    verdict = {0: Status.NONE, 1: Status.UNIQUE}.get(len(truth), Status.MULTIPLE)
    for spec in ALL_SPECS:
        backend = get_backend(spec)
        if spec.endswith("search=off"):
            result = backend.solve(puzzle, limit=2)
            assert result.status in (verdict, Status.UNKNOWN), spec
            if result.status is Status.UNIQUE:
                assert list(result.solutions) == truth
            else:
                assert result.solutions == ()
            continue
        result = backend.solve(puzzle, limit=EVERY)  # a finite limit keeps every grid
        assert sorted(result.solutions) == truth, spec
        assert backend.solve(puzzle, limit=None).count == len(truth), spec
        assert result.status is verdict, spec
        assert backend.solve(puzzle, limit=2).status is verdict, spec


# -- time limits -------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["native", "native:rules=none",
                                  "native:rules=singles,branch=first",
                                  "native:rules=full,order=random"])
def test_tiny_time_limit_never_gives_a_wrong_verdict(spec):
    for case in CASES:
        puzzle = case.puzzle()
        result = get_backend(spec).solve(puzzle, limit=2, time_limit=1e-9)
        assert result.status in (case.expected, Status.UNKNOWN), case.name
        check(puzzle, result)
        if result.status is Status.UNKNOWN:
            assert "time limit" in result.message


def test_time_limit_stops_plain_backtracking():
    # Without rules the pigeonhole puzzle takes some 14! nodes to refute: no machine ends it.
    result = get_backend("native:rules=none").solve(pigeonhole_puzzle(), limit=2,
                                                    time_limit=0.05)
    assert result.status is Status.UNKNOWN
    assert result.message == "time limit of 0.05 s reached"
    assert result.count == 0 and result.stats["nodes"] > 0


def test_time_limit_on_solving_an_empty_25x25_with_the_first_cell():
    puzzle = Puzzle.empty(make_geometry(25))
    result = get_backend("native:rules=singles,branch=first").solve(puzzle, time_limit=0.05)
    assert result.status in (Status.UNKNOWN, Status.SOLVED)
    check(puzzle, result)


# -- big grids ---------------------------------------------------------------------------------
def pattern_grid(box_rows: int, box_cols: int) -> tuple[int, ...]:
    """A valid full grid: row r is row 0 shifted by bc*(r % br) + r//br."""
    n = box_rows * box_cols
    return tuple((box_cols * (r % box_rows) + r // box_rows + c) % n
                 for r in range(n) for c in range(n))


@pytest.mark.parametrize("spec", ["native", "native:rules=singles,branch=first",
                                  "native:rules=full", "native:branch=mrv,order=random,seed=5"])
def test_25x25_half_blank(spec):
    solution = pattern_grid(5, 5)
    g = make_geometry(25)
    assert is_solution(Puzzle.empty(g), solution)
    rng = random.Random(2024)
    puzzle = Puzzle(g, tuple(d if rng.random() < 0.5 else EMPTY for d in solution))
    result = get_backend(spec).solve(puzzle, limit=2, time_limit=60)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert result.count >= 1
    check(puzzle, result)


def test_25x25_search_is_not_recursive():
    """Solving the empty 25×25 grid takes hundreds of nested guesses; with the recursion
    limit a little above the current depth, a recursive search would fail."""
    backend = make_backend("native")
    puzzle = Puzzle.empty(make_geometry(25))
    backend.solve(Puzzle.empty(make_geometry(4)))  # imports and tables, before the squeeze
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 100)
    try:
        result = backend.solve(puzzle)
    finally:
        sys.setrecursionlimit(old)
    assert result.status is Status.SOLVED and is_solution(puzzle, result.solution)
    assert result.stats["guesses"] > 100


# -- propagate only ----------------------------------------------------------------------------
def test_propagate_only_solves_grid1():
    puzzle = BY_NAME["grid1"].puzzle()
    result = get_backend("native:rules=singles,search=off").solve(puzzle)
    assert result.status is Status.UNIQUE
    assert is_solution(puzzle, result.solution)
    assert result.stats["solved_by_propagation"] is True
    assert result.stats["guesses"] == 0 and result.stats["nodes"] == 1


@pytest.mark.parametrize("name", ["empty9", "hard1", "empty4", "diagonal"])
def test_propagate_only_unknown_when_search_is_needed(name):
    result = get_backend("native:rules=full,search=off").solve(BY_NAME[name].puzzle(), limit=2)
    assert result.status is Status.UNKNOWN and result.solutions == ()
    assert "propagation alone" in result.message
    assert result.stats["solved_by_propagation"] is False


def test_propagate_only_depends_on_the_rules():
    puzzle = BY_NAME["grid2"].puzzle()
    assert get_backend("native:rules=singles,search=off").solve(puzzle).status is Status.UNKNOWN
    assert get_backend("native:rules=locked,search=off").solve(puzzle).status is Status.UNIQUE
    # With no rules, nothing is ever placed beyond the givens: even grid1 stays unknown.
    none = get_backend("native:rules=none,search=off")
    assert none.solve(BY_NAME["grid1"].puzzle()).status is Status.UNKNOWN


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("name", ["unsolvable", "clash", "jigsaw-clash"])
def test_propagate_only_none_on_contradiction(preset, name):
    result = get_backend(f"native:rules={preset},search=off").solve(BY_NAME[name].puzzle())
    assert result.status is Status.NONE and result.solutions == ()


def test_backend_propagate_gives_the_candidate_state():
    backend = NativeBackend(rules="singles")
    state = backend.propagate(BY_NAME["grid2"].puzzle())
    assert state is not None and not state.solved
    assert backend.propagate(BY_NAME["unsolvable"].puzzle()) is None


# -- clashes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["native", "native:rules=none", "native:search=off"])
def test_clashing_givens_are_named(spec):
    result = get_backend(spec).solve(BY_NAME["clash"].puzzle(), limit=2)
    assert result.status is Status.NONE
    assert "A1 and A2 both hold 1" in result.message
    result = get_backend(spec).solve(BY_NAME["jigsaw-clash"].puzzle(), limit=2)
    assert result.status is Status.NONE and "A1 and A2" in result.message


def test_no_solution_without_a_clash_has_no_clash_message():
    result = get_backend("native").solve(BY_NAME["unsolvable"].puzzle(), limit=2)
    assert result.status is Status.NONE and "clash" not in result.message


# -- stats -------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", list(PRESETS))
def test_stats_keys(preset):
    result = get_backend(f"native:rules={preset}").solve(BY_NAME["grid2"].puzzle(), limit=2)
    stats = result.stats
    expected = {"nodes", "guesses", "backtracks", "solved_by_propagation", "decisions",
                "conflicts"}
    expected |= {f"rule_{name}" for name in rule_names(preset)}
    assert set(stats) == expected
    assert stats["decisions"] == stats["nodes"] - 1  # the shared names of DESIGN.md
    assert stats["conflicts"] == stats["backtracks"]
    assert all(isinstance(stats[k], int) and stats[k] >= 0 for k in expected - {
        "solved_by_propagation"})
    assert stats["backtracks"] < stats["nodes"]
    assert result.seconds >= 0 and result.solver == get_backend(f"native:rules={preset}").spec


def test_stats_of_a_search():
    result = get_backend("native:rules=singles").solve(BY_NAME["hard1"].puzzle(), limit=2)
    stats = result.stats
    assert stats["guesses"] >= 1 and stats["backtracks"] >= 1
    assert stats["nodes"] > stats["guesses"]
    assert stats["solved_by_propagation"] is False
    assert stats["rule_eliminate"] > 0 and stats["rule_only_choice"] > 0


# -- value order -------------------------------------------------------------------------------
def test_same_seed_same_solutions_in_the_same_order():
    puzzle = BY_NAME["empty9"].puzzle()
    first = make_backend("native:order=random,seed=11").solve(puzzle, limit=5).solutions
    again = make_backend("native:order=random,seed=11").solve(puzzle, limit=5).solutions
    other = make_backend("native:order=random,seed=12").solve(puzzle, limit=5).solutions
    numeric = make_backend("native").solve(puzzle, limit=5).solutions
    assert first == again
    assert first != other and first != numeric
    all_4x4 = make_backend("native:order=random,seed=1").solve(BY_NAME["empty4"].puzzle(),
                                                               limit=EVERY).solutions
    assert len(all_4x4) == 288 and list(all_4x4) != sorted(all_4x4)


def test_same_backend_same_seed_same_order():
    backend = make_backend("native:order=random,seed=11")
    puzzle = BY_NAME["empty9"].puzzle()
    assert backend.solve(puzzle, limit=3).solutions == backend.solve(puzzle, limit=3).solutions


# -- branching ---------------------------------------------------------------------------------
def open_counts(state: State) -> dict[int, int]:
    return {c: state.cand[c].bit_count() for c in range(state.geometry.ncells)
            if not state.placed >> c & 1}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["hard1", "empty9", "diagonal", "16x16", "jigsaw", "windoku"]),
       st.sampled_from([p for p in PRESETS if p != "none"]))
def test_branching_picks_an_open_cell_with_fewest_candidates(name, preset):
    state = State.from_puzzle(BY_NAME[name].puzzle())
    assert propagate(state, [RULES[r] for r in rule_names(preset)])
    if state.solved:
        return
    counts = open_counts(state)
    for heuristic in ("mrv", "degree"):
        cell, mask = BRANCHING[heuristic](state)
        assert mask == state.cand[cell] and cell in counts
        assert counts[cell] == min(counts.values()), heuristic
    cell, _ = BRANCHING["first"](state)
    assert cell == min(counts)


def test_mrv_prefers_an_unplaced_single_without_rules():
    s = State.from_puzzle(BY_NAME["empty4"].puzzle())
    s.cand[0] = 0b0011  # A1: two candidates
    s.cand[5] = 0b0100  # B2: one candidate, not placed (as forward checking leaves it)
    assert BRANCHING["mrv"](s) == (5, 0b0100)


def test_degree_breaks_ties_by_open_peers():
    s = State.from_puzzle(BY_NAME["empty4"].puzzle())
    s.cand[0] = s.cand[15] = 0b0011  # A1 and D4: two candidates each
    s.placed = 1 << 1  # A2 is placed: A1 now has one open peer fewer than D4
    assert BRANCHING["degree"](s)[0] == 15


def test_weighted_branching_starts_on_the_constraints_then_follows_the_refutations():
    from sudoku_csp.constraints import Palindrome
    from sudoku_csp.native.branching import WeightedScores, cell_weights

    g = make_geometry(9)
    line = Palindrome((40, 41, 42, 43))   # E5..E8: no digit leaves them at the root
    puzzle = Puzzle(g, (EMPTY,) * 81, "", (line,))
    state = State.from_puzzle(puzzle)
    assert propagate(state, [RULES[r] for r in rule_names("locked")])
    assert BRANCHING["degree"](state)[0] == 0                  # every cell alike to degree
    weights = cell_weights(g, puzzle.constraints)
    assert weights[40] == 27 + 2 * 4 and weights[0] == 27
    scores = WeightedScores(81, weights)
    assert scores.branch(state)[0] == 40
    for _ in range(9):                                         # A1's branches keep failing
        scores.failed(0)
    assert scores.branch(state)[0] == 0
    state.cand[5] = 0b11                                       # two candidates beat nine
    assert scores.branch(state)[0] == 5


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["native:rules=bogus", "native:branch=widest",
                                  "native:order=reverse", "native:seed=x", "native:depth=3"])
def test_bad_specs(spec):
    with pytest.raises(SpecError):
        make_backend(spec)


def test_limit_must_be_positive():
    with pytest.raises(ValueError, match="limit"):
        make_backend("native").solve(BY_NAME["empty4"].puzzle(), limit=0)


# -- result ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("found", "limit", "complete", "status"), [
    (0, 2, True, Status.NONE),
    (1, 2, True, Status.UNIQUE),
    (1, 1, True, Status.UNIQUE),
    (1, 1, False, Status.SOLVED),
    (2, 2, False, Status.MULTIPLE),
    (5, None, True, Status.MULTIPLE),
    (0, 2, False, Status.UNKNOWN),
    (1, 2, False, Status.UNKNOWN),
    (1, None, False, Status.UNKNOWN),
])
def test_status_for(found, limit, complete, status):
    assert status_for(found, limit, complete) is status


def test_status_and_result():
    assert str(Status.UNIQUE) == "unique" and Status("none") is Status.NONE
    assert [s.has_solution for s in Status] == [True, True, True, False, False]
    empty = Result(Status.NONE)
    assert empty.solution is None and empty.count == 0 and empty.stats == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        empty.status = Status.UNIQUE  # type: ignore[misc]
    two = Result(Status.MULTIPLE, ((0,), (1,)))
    assert two.solution == (0,) and two.count == 2
