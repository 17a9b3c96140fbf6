"""The SAT backend: specs, every mode, counting, time limits, bounded state, propagation."""

from __future__ import annotations

import random
import threading

import pytest
from cases import BY_NAME, CASES, KILLER4, LITTLE_KILLERS6, pigeonhole_puzzle, slow_if

from sudoku_csp import (
    EMPTY,
    Puzzle,
    SpecError,
    Status,
    WrongSolutionError,
    get_backend,
    is_solution,
    make_backend,
    satsolver,
)
from sudoku_csp.backends import sat
from sudoku_csp.encodings import cnf
from sudoku_csp.io import parse, to_line
from sudoku_csp.satsession import SELECTOR_BLOCK
from sudoku_csp.variants import make_geometry

CONFIGS = [
    "sat",
    "sat:encoding=minimal",
    "sat:encoding=natural,amo=seqcounter",
    "sat:encoding=augmented",
    "sat:solver=glucose4,amo=ladder",
    "sat:solver=minisat22,encoding=augmented,amo=bitwise",
    "sat:mode=fresh",
    "sat:solver=glucose4,mode=reduced",
    "sat:solver=lingeling,mode=reduced",
    "sat:solver=kissat404,mode=fresh,amo=totalizer",
]


# -- specs --------------------------------------------------------------------------------------
def test_bare_sat_is_the_documented_default():
    backend = make_backend("sat")
    assert backend.spec == "sat"
    assert backend.options["solver"] == sat.SAT_SOLVER == "minisat22"
    assert backend.options["encoding"] == cnf.DEFAULT_ENCODING.value
    assert sat.SAT_SOLVER in backend.description


def test_solver_aliases_become_canonical_names():
    assert make_backend("sat:solver=g4,encoding=minimal").spec == \
        "sat:solver=glucose4,encoding=minimal"


@pytest.mark.parametrize(("spec", "message"), [
    ("sat:solver=nosuch", "glucose4"),
    ("sat:encoding=clever", "minimal"),
    ("sat:amo=native", "seqcounter"),
    ("sat:mode=lazy", "incremental"),
    ("sat:recycle=0", "at least 1"),
    ("sat:recycle=many", "integer"),
    ("sat:colour=red", "unknown option"),
    ("sat:solver=lingeling,search=off", "propagate"),
    ("sat:solver=kissat404", "mode=fresh"),
])
def test_bad_specs_are_refused_clearly(spec, message):
    with pytest.raises(SpecError, match=message):
        make_backend(spec)


def test_unknown_solver_error_lists_only_available_solvers():
    with pytest.raises(SpecError) as error:
        make_backend("sat:solver=nosuch")
    listed = str(error.value).split("choose from ")[1].split(", ")
    assert "cadical195" in listed
    assert all(satsolver.capabilities(name).available for name in listed)


# -- verdicts in every mode ---------------------------------------------------------------------
@pytest.mark.parametrize("spec", CONFIGS)
@pytest.mark.parametrize("case", slow_if(CASES, lambda c: c.name in (
    "16x16", "12x12", "anti-knight")), ids=lambda c: c.name)
def test_configurations_agree_with_the_expected_verdicts(spec, case):
    puzzle = case.puzzle()
    result = get_backend(spec).solve(puzzle, limit=2, time_limit=60)
    assert result.status is case.expected, result.message
    assert all(is_solution(puzzle, s) for s in result.solutions)
    if case.solution:
        assert puzzle.geometry.symbols and "".join(
            puzzle.geometry.symbols[d] for d in result.solutions[0]) == case.solution


@pytest.mark.parametrize("spec", [c for c in CONFIGS if "minimal" not in c and "kissat" not in c])
def test_counting_the_empty_4x4(spec):
    result = get_backend(spec).solve(BY_NAME["empty4"].puzzle(), limit=None)
    assert result.status is Status.MULTIPLE and result.count == 288
    every = get_backend(spec).solve(BY_NAME["empty4"].puzzle(), limit=1000)
    assert len(set(every.solutions)) == 288


@pytest.mark.parametrize("spec", ["sat", "sat:solver=kissat404,mode=fresh"])
def test_counting_to_a_limit_and_to_the_end(spec):
    puzzle = parse("1..." "..1." ".1.." "...1")
    backend = make_backend(spec)
    everything = backend.solve(puzzle, limit=None)
    assert everything.status is Status.MULTIPLE
    n = everything.count
    assert n == get_backend("native").solve(puzzle, limit=None).count
    for limit in (1, 2, n, n + 1):
        result = backend.solve(puzzle, limit=limit)
        assert len(result.solutions) == min(limit, n)
    with pytest.raises(ValueError):
        backend.solve(puzzle, limit=0)


def test_stats_use_the_shared_names():
    result = make_backend("sat").solve(BY_NAME["hard1"].puzzle(), limit=2)
    assert {"decisions", "conflicts", "propagations", "restarts"} <= result.stats.keys()
    assert result.stats["solver_calls"] == 2
    assert result.stats["conflicts"] >= 0


def test_clashing_givens_name_the_clash_in_every_mode():
    for spec in ("sat", "sat:mode=fresh", "sat:mode=reduced", "sat:search=off"):
        result = get_backend(spec).solve(BY_NAME["clash"].puzzle(), limit=2)
        assert result.status is Status.NONE
        assert "clash" in result.message


def test_many_geometries_share_one_backend(monkeypatch):
    monkeypatch.setattr(sat, "MAX_SESSIONS", 4)  # so that solvers get dropped and rebuilt
    backend = make_backend("sat:solver=glucose4")
    cases = [c for c in CASES if c.expected is Status.UNIQUE]
    assert len({c.puzzle().geometry for c in cases}) > sat.MAX_SESSIONS
    for _ in range(2):
        for case in cases:
            assert backend.solve(case.puzzle(), limit=2).status is Status.UNIQUE
    assert len(backend._sessions) <= sat.MAX_SESSIONS
    backend.close()
    assert backend.solve(BY_NAME["grid1"].puzzle()).status is Status.SOLVED


# -- time limits --------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", [
    "sat:encoding=minimal",                  # CaDiCaL: conflict-budget slices
    "sat:encoding=minimal,solver=glucose4",  # MiniSat family: interrupt() from the watchdog
])
def test_time_limit_gives_unknown_then_the_backend_still_works(spec, cpu_clock):
    # The pigeonhole formula keeps a solver busy for far longer than any limit here, so the
    # verdict is UNKNOWN whatever the machine; the limit counts CPU time (cpu_clock), so the
    # search has done the same work before it is stopped however busy the machine is.
    puzzle = pigeonhole_puzzle()
    assert not puzzle.clashes()
    backend = make_backend(spec)
    # An expired limit: UNKNOWN, nothing claimed (the solver may be loaded for the next call).
    expired = backend.solve(puzzle, time_limit=0)
    assert expired.status is Status.UNKNOWN and not expired.solutions
    # The formula is loaded first, with no limit: on a core whose sibling is busy, loading
    # it can take a good part of 0.3 s of CPU, and the limit below is for the search.
    grid = make_backend("native").solve(Puzzle.empty(puzzle.geometry)).solution
    assert backend.solve(Puzzle(puzzle.geometry, grid), limit=2).status is Status.UNIQUE
    result = backend.solve(puzzle, limit=1, time_limit=0.3)
    assert result.status is Status.UNKNOWN
    assert "time limit" in result.message
    assert result.stats["conflicts"] > 0  # it really searched, inside the solver
    # no interrupt left behind: the next puzzles are solved in full
    for name in ("grid1", "grid2", "hard1"):
        case = BY_NAME[name]
        assert backend.solve(case.puzzle(), limit=2, time_limit=30).status is case.expected
    # unit ALO clauses make the same puzzle trivial
    assert make_backend("sat").solve(puzzle, time_limit=30).status is Status.NONE


def test_time_limits_in_two_threads_at_once():
    # one watchdog thread serves every backend: each armed solver meets its own deadline
    # (the pigeonhole search never ends by itself, so both are UNKNOWN on any machine)
    puzzle = pigeonhole_puzzle()
    results = {}

    def run(limit: float) -> None:
        backend = make_backend("sat:encoding=minimal,solver=glucose4")
        results[limit] = backend.solve(puzzle, time_limit=limit)

    threads = [threading.Thread(target=run, args=(t,)) for t in (0.2, 0.4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a deadline was missed by a minute"
    assert sorted(results) == [0.2, 0.4]
    assert {r.status for r in results.values()} == {Status.UNKNOWN}


def test_an_expired_time_limit_is_unknown_not_a_guess():
    result = make_backend("sat").solve(BY_NAME["grid1"].puzzle(), time_limit=0)
    assert result.status is Status.UNKNOWN and not result.solutions


def test_capabilities_of_the_default_solvers():
    assert satsolver.capabilities("glucose4").interrupt
    assert satsolver.capabilities("cadical195").budget
    assert satsolver.capabilities("cadical195").propagate
    assert not satsolver.capabilities("kissat404").incremental
    assert not satsolver.capabilities("nosuch").available


# -- nothing piles up ---------------------------------------------------------------------------
def varied_puzzles(count: int, seed: int = 7, cases=None, keep=(0.15, 0.7)) -> list[Puzzle]:
    """Puzzles made from the shared cases' solutions by keeping a random share of the cells
    (so some have many solutions, some one), plus one wrong given in every eleventh."""
    rng = random.Random(seed)
    solutions = []
    for case in cases or CASES:
        puzzle = case.puzzle()
        solution = get_backend("native").solve(puzzle).solution
        if solution is not None:
            solutions.append((puzzle.geometry, solution))
    out = []
    for i in range(count):
        geometry, solution = solutions[i % len(solutions)]
        share = rng.uniform(*keep)
        givens = [d if rng.random() < share else EMPTY for d in solution]
        if i % 11 == 0:
            cell = rng.randrange(len(givens))
            givens[cell] = rng.randrange(geometry.size)
        out.append(Puzzle(geometry, tuple(givens)))
    return out


def test_selectors_are_recycled_so_the_solver_stays_bounded(monkeypatch):
    # Every puzzle searched, so that each one with a solution blocks it under a selector
    # (one that propagation settles takes none).
    monkeypatch.setattr(satsolver, "SETTLE_FIRST", False)
    recycle = 20
    backend = make_backend(f"sat:solver=glucose4,recycle={recycle}")
    nine = [c for c in CASES if c.name in ("grid1", "grid2")]
    puzzles = varied_puzzles(150, cases=nine, keep=(0.4, 0.8))
    geometry = puzzles[0].geometry
    nv = backend.formula(geometry).nv
    biggest = {"variables": 0, "selectors": 0}
    for p in puzzles:
        result = backend.solve(p, limit=2)
        assert result.status in (Status.UNIQUE, Status.MULTIPLE, Status.NONE)
        info = backend.session_info(geometry)
        biggest = {k: max(v, info[k]) for k, v in biggest.items()}
    assert biggest["selectors"] < recycle
    assert biggest["variables"] <= nv + recycle
    assert backend.session_info(geometry)["builds"] >= 150 // recycle


def test_puzzles_number_their_auxiliaries_in_one_region():
    # Each constrained puzzle's auxiliaries take the session's one scratch region
    # (SolverSession.scratch): the solver holds one puzzle's auxiliaries and the selectors
    # retired since it was built (the first block of them below the region, the later ones
    # above it). Before, every puzzle's were left dead in the solver (up to 100,000 of them,
    # then 8x the formula's variables), and every solve and model read paid for each.
    backend = make_backend("sat")
    # 4x4: 64 variables; cages of two digit sets each (1+4, 2+3), so each puzzle adds
    # auxiliaries (a cage of one digit set needs none)
    killer = parse("AABBCCDDEEFFGGHH 5,5,5,5,5,5,5,5")
    nv = backend.formula(killer.geometry).nv
    aux = cnf.constraint_clauses(killer, nv + 1)[1] - nv
    assert aux > 0
    for _ in range(200):
        assert backend.solve(killer, limit=2).status is Status.MULTIPLE
        info = backend.session_info(killer.geometry)
        if info["variables"]:  # 0: rebuilt as the puzzle ended, loaded for the next
            assert info["variables"] == nv + aux + max(SELECTOR_BLOCK, info["selectors"])
    # the selectors' cost summed passes WASTE_PER_CLAUSE x its 400-odd clauses: rebuilt,
    # a few times (141 if the sum were not reset on a rebuild)
    assert 1 < info["builds"] < 20


def test_a_puzzle_needing_more_auxiliaries_grows_the_region_in_place(monkeypatch):
    # KILLER4 needs 2 auxiliaries, the killer of 5s 8: the region grows once, in place (its
    # selectors lie below it), then both reuse it, each puzzle's clauses written once;
    # every answer as a fresh solver's. Before, the region moved above the selector of the
    # puzzle that needed more, its clauses written twice (0.5-1.2 ms on a published little
    # killer).
    small, large = parse(f"{KILLER4} 3" + "." * 15), parse("AABBCCDDEEFFGGHH 5,5,5,5,5,5,5,5")
    assert cnf.constraint_clauses(small, 65)[1] - 64 == 2
    assert cnf.constraint_clauses(large, 65)[1] - 64 == 8
    fresh = make_backend("sat:mode=fresh")
    expected = {p: fresh.solve(p, limit=None) for p in (small, large)}
    backend = make_backend("sat")
    write, writings = cnf.constraint_clauses, []

    def counted(*args, **kwargs):
        writings.append(args)
        return write(*args, **kwargs)

    monkeypatch.setattr(cnf, "constraint_clauses", counted)
    for puzzle in (small, large, small, large, large, small):
        got = backend.solve(puzzle, limit=None)
        assert (got.status, got.count) == (expected[puzzle].status, expected[puzzle].count)
        if got.status is Status.UNIQUE:
            assert got.solution == expected[puzzle].solution
    nv = backend.formula(small.geometry).nv
    assert backend.session_info(small.geometry)["variables"] == nv + SELECTOR_BLOCK + 8
    assert len(writings) == 6


def test_each_puzzle_searches_from_activities_at_zero(monkeypatch):
    # order=fresh (the default): the incremental solver forgets the variable activities the
    # puzzles before left, once per puzzle; order=kept leaves them. Answers alike, and
    # alike too under a PySAT older than set_activities (1.8, which pyproject.toml
    # allows): the capability is then absent and no reset made.
    from pysat.solvers import Solver

    calls = []
    original = getattr(Solver, "set_activities", None)

    def spy(self, activities={}):  # noqa: B006 - PySAT's own signature
        original(self, activities)  # raises for a solver without it (CaDiCaL), as probed
        calls.append(dict(activities))

    if original is not None:
        monkeypatch.setattr(Solver, "set_activities", spy)
    zeroed = [{}] * 3 if original is not None else []  # one reset a puzzle
    puzzles = [parse(f"{KILLER4} {row}") for row in ("3" + "." * 15, "1" + "." * 15, "." * 16)]
    expected = [make_backend("sat:mode=fresh").solve(p, limit=2) for p in puzzles]
    for spec, resets in (("sat", zeroed), ("sat:order=kept", []), ("sat:solver=cadical153", [])):
        calls.clear()
        backend = make_backend(spec)
        for puzzle, want in zip(puzzles, expected, strict=True):
            got = backend.solve(puzzle, limit=2)
            assert (got.status, got.count) == (want.status, want.count), spec
        assert calls == resets, spec


def test_a_renewed_backend_searches_a_puzzle_met_before_as_a_fresh_one_does():
    # What a session learnt on a puzzle (clauses, saved phases) changes its next search of
    # that puzzle; renew() rebuilds it, so a benchmark's later round meets the puzzle as
    # new: the same search, count for count, as a backend that never met it.
    puzzle = parse(LITTLE_KILLERS6)
    counts = ("conflicts", "decisions", "propagations")
    first = make_backend("sat").solve(puzzle, limit=2)
    backend = make_backend("sat")
    warm = [backend.solve(puzzle, limit=2) for _ in range(3)]
    assert {tuple(r.stats[k] for k in counts) for r in warm[1:]} != {
        tuple(first.stats[k] for k in counts)}  # a warm session searches otherwise
    builds = backend.session_info(puzzle.geometry)["builds"]
    backend.renew()
    assert backend.session_info(puzzle.geometry)["builds"] == builds + 1
    again = backend.solve(puzzle, limit=2)
    assert again.status is first.status is Status.UNIQUE
    assert [again.stats[k] for k in counts] == [first.stats[k] for k in counts]
    # A portfolio renews its members: auto's SAT member is the registry's sat.
    auto = make_backend("auto")
    auto.solve(puzzle, limit=2)
    shared = get_backend("sat")
    built = shared.session_info(puzzle.geometry)["builds"]
    auto.renew()
    assert shared.session_info(puzzle.geometry)["builds"] == built + 1


def test_a_puzzles_givens_leave_with_it():
    # A puzzle with constraints puts its givens behind its selector (its one assumption):
    # retired with the puzzle, no given may hold for the next one on the same solver.
    # KILLER4 is unique with a 3 in A1 and has no solution with any other digit there.
    rows = ["3...............", "1...............", "2...............", "4...............",
            "3..4............", "................"]
    puzzles = [parse(f"{KILLER4} {row}") for row in rows] + [parse(row) for row in rows]
    expected = [make_backend("sat:mode=fresh").solve(p, limit=2) for p in puzzles]
    assert {r.status for r in expected} == {Status.UNIQUE, Status.NONE, Status.MULTIPLE}
    shared = make_backend("sat")
    for _ in range(2):
        for puzzle, want in zip(puzzles, expected, strict=True):
            got = shared.solve(puzzle, limit=2)
            assert got.status is want.status
            if got.status is Status.UNIQUE:
                assert got.solution == want.solution


def test_solving_without_counting_adds_no_variables():
    backend = make_backend("sat:solver=glucose4")
    puzzles = varied_puzzles(40, cases=[BY_NAME["grid1"]])
    for p in puzzles:
        backend.solve(p, limit=1)
    info = backend.session_info(puzzles[0].geometry)
    assert info["variables"] == backend.formula(puzzles[0].geometry).nv
    assert info["builds"] == 1


def test_counting_asks_unit_propagation_first():
    # What propagation settles takes no solver call: a grid in every cell (unique), or a
    # conflict (none); what it leaves open is searched (a solution, then the call that
    # finds no other). Solving alone (limit 1) always searches: one call finds a solution.
    backend = make_backend("sat")
    for text, status, calls in ((f"{KILLER4} 3" + "." * 15, Status.UNIQUE, 0),
                                (f"{KILLER4} 1" + "." * 15, Status.NONE, 0),
                                ("3.1...4.2.......", Status.UNIQUE, 0),
                                ("1..." "..1." ".1.." "...1", Status.MULTIPLE, 2)):
        result = backend.solve(parse(text), limit=2)
        assert (result.status, result.stats["solver_calls"]) == (status, calls), text
        assert result.stats.get("settled_by_propagation", False) is (calls == 0), text
    solved = backend.solve(parse("3.1...4.2......."), limit=1)
    assert (solved.status, solved.stats["solver_calls"]) == (Status.SOLVED, 1)
    assert "settled_by_propagation" not in solved.stats


def test_a_grid_propagation_settles_is_checked_as_a_model_is(monkeypatch):
    # The grid unit propagation places goes to the checker that trusts no solver: one that
    # breaks a rule (here put in place of what propagation found) is refused, not counted.
    puzzle = parse("3.1...4.2.......")
    wrong = (2, 3, 0, 1, 0, 1, 3, 2, 1, 0, 2, 3, 3, 2, 0, 1)  # row D's 1 and 2 swapped
    assert not is_solution(puzzle, wrong)
    monkeypatch.setattr(sat, "settled", lambda *args: wrong)
    with pytest.raises(WrongSolutionError):
        make_backend("sat").solve(puzzle, limit=2)


def test_what_propagation_settles_agrees_with_the_search():
    # Varied 9x9 puzzles counted to two with propagation asked first and in fresh solvers:
    # the same verdicts (the same solution when unique), and both roads taken often.
    puzzles = varied_puzzles(150, cases=[BY_NAME["grid1"], BY_NAME["grid2"]], keep=(0.3, 0.7))
    incremental, fresh = make_backend("sat"), make_backend("sat:mode=fresh")
    settled = 0
    for p in puzzles:
        a, b = incremental.solve(p, limit=2), fresh.solve(p, limit=2)
        assert a.status is b.status, to_line(p)
        assert a.status is not Status.UNIQUE or a.solutions == b.solutions, to_line(p)
        settled += a.stats.get("settled_by_propagation", False)
    assert 20 <= settled <= len(puzzles) - 20


# -- unit propagation alone ---------------------------------------------------------------------
def _agreement(sat_spec: str, native_spec: str, puzzles: list[Puzzle]) -> dict[Status, int]:
    ours, theirs = get_backend(sat_spec), get_backend(native_spec)
    seen: dict[Status, int] = {}
    for p in puzzles:
        a, b = ours.solve(p, limit=2), theirs.solve(p, limit=2)
        assert (a.status, a.solutions) == (b.status, b.solutions), to_line(p)
        seen[a.status] = seen.get(a.status, 0) + 1
    return seen


def test_unit_propagation_on_extended_is_naked_and_hidden_singles():
    puzzles = varied_puzzles(700)
    seen = _agreement("sat:search=off", "native:rules=singles,search=off", puzzles)
    # the comparison means something only if every outcome occurs often
    assert min(seen.get(s, 0) for s in (Status.UNIQUE, Status.UNKNOWN, Status.NONE)) >= 30


@pytest.mark.parametrize("amo", ["seqcounter", "bitwise"])
def test_other_at_most_one_encodings_propagate_the_same(amo):
    _agreement(f"sat:search=off,amo={amo},solver=glucose4",
               "native:rules=singles,search=off", varied_puzzles(150, seed=3))


def test_unit_propagation_on_augmented_adds_locked_candidates():
    puzzles = varied_puzzles(400, seed=11)
    seen = _agreement("sat:search=off,encoding=augmented", "native:rules=locked,search=off",
                      puzzles)
    assert seen.get(Status.UNIQUE, 0) >= 30
    singles = get_backend("sat:search=off")
    augmented = get_backend("sat:search=off,encoding=augmented")
    more = sum(augmented.solve(p).status is Status.UNIQUE and
               singles.solve(p).status is Status.UNKNOWN for p in puzzles)
    assert more > 0  # and it is strictly stronger on some of them


def test_propagation_stats():
    puzzle = BY_NAME["grid1"].puzzle()
    solved = get_backend("sat:search=off").solve(puzzle, limit=2)
    assert solved.status is Status.UNIQUE and solved.stats["solved_by_propagation"]
    assert solved.stats["placed"] == 81
    unsolved = get_backend("sat:search=off").solve(BY_NAME["hard1"].puzzle(), limit=2)
    assert unsolved.status is Status.UNKNOWN and not unsolved.stats["solved_by_propagation"]
    assert "propagation alone" in unsolved.message


@pytest.mark.parametrize("encoding", ["minimal", "natural"])
def test_without_unit_alo_propagation_makes_naked_singles_only(encoding):
    puzzles = varied_puzzles(200, seed=5)
    seen = _agreement(f"sat:search=off,encoding={encoding}",
                      "native:rules=eliminate,search=off", puzzles)
    assert seen.get(Status.UNIQUE, 0) >= 10


def test_propagator_handles_unit_clauses_of_a_degenerate_geometry():
    # 1×4 boxes are the rows again: the augmented encoding then holds unit clauses
    geometry = make_geometry(4, box=(1, 4))
    assert any(len(c) == 1 for c in cnf.build(geometry, "augmented").clauses)
    for line in ("1234" "3412" "2143" "....", "12.." "...." "...." "...."):
        puzzle = parse(line, geometry=geometry)
        a = get_backend("sat:search=off,encoding=augmented").solve(puzzle, limit=2)
        b = get_backend("native:rules=locked,search=off").solve(puzzle, limit=2)
        assert (a.status, a.solutions) == (b.status, b.solutions)


@pytest.mark.parametrize("name", ["cadical153", "cadical195", "cadical300", "glucose4",
                                  "glucose42", "minisat22", "maplechrono", "lingeling"])
def test_add_clauses_holds_what_append_formula_holds(name):
    # CaDiCaL's and the MiniSat family's clauses go in through their C function mapped over
    # them (no Python call per clause); Lingeling through append_formula. Tuples, lists and
    # a generator.
    from pysat.solvers import Solver

    from sudoku_csp.satsolver import _ADD_CLAUSE, add_clauses

    assert all(add is not None for _, add in _ADD_CLAUSE.values())
    clauses = [(1, 2, 3), [-1, -2], (-2, -3), [-1, -3], (2, 4)]
    with Solver(name=name) as s:
        # The C path is taken for every solver but Lingeling, on a handle it finds.
        handle, _ = _ADD_CLAUSE.get(type(s.solver).__name__, (None, None))
        assert (handle is not None and getattr(s.solver, handle, None) is not None) == \
            (name != "lingeling")
        add_clauses(s, (c for c in clauses))
        models = []
        while s.solve():
            model = s.get_model()
            models.append(model[:4])
            s.add_clause([-lit for lit in model[:4]])
    assert sorted(models) == [[-1, -2, 3, 4], [-1, 2, -3, -4], [-1, 2, -3, 4],
                              [1, -2, -3, 4]]
    with Solver(name=name) as s:
        add_clauses(s, [(1,), (-1,)])
        assert s.solve() is False
