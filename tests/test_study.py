"""The encodings study: invariants that cannot hold by accident, and its outputs."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from dataclasses import fields

import pytest
from pysat.solvers import Solver
from typer.testing import CliRunner

from sudoku_csp import datasets
from sudoku_csp.cli import Exit, app
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError
from sudoku_csp.extras import MissingExtraError
from sudoku_csp.io import parse, to_line
from sudoku_csp.study import Row, check_plot_path, methods, plot_study, run_study, work
from sudoku_csp.study.probing import probe

# The first 40 bundled puzzles: some solved by singles, some only once locked candidates join
# (index 35), some by neither (index 0); every one unique.
PUZZLES = datasets.load("mixed9")[:40]
FILE = str(datasets.path("mixed9"))
runner = CliRunner()


@pytest.fixture(scope="module")
def study():
    return run_study(PUZZLES, rules=["eliminate", "singles", "locked", "full"],
                     solvers=["minisat22"])


def test_unit_propagation_makes_exactly_the_deductions_of_a_rule_set(study):
    solved = study.propagated
    assert (solved["native eliminate"] < solved["native singles"] < solved["native locked"]
            < solved["native full"])
    assert solved["minimal"] == solved["natural"] == solved["native eliminate"]  # naked singles
    assert solved["extended"] == solved["native singles"] == solved["reduced extended"]
    assert solved["augmented"] == solved["tdoku"] == solved["native locked"]
    by_method = {row.method: row for row in study.rows}
    assert by_method["extended"].same_as == "native singles"
    assert by_method["native locked"].same_as == "augmented, tdoku"


def test_probing_solves_everything_propagation_does_and_more(study):
    assert set(study.probed) == {"minimal", "natural", "extended", "augmented", "tdoku",
                                 "reduced extended"}
    for label, probed in study.probed.items():
        assert study.propagated[label] <= probed, label
    assert study.probed["extended"] > study.propagated["extended"]


def test_sizes_are_those_of_the_formulas(study):
    for row in study.rows:
        if row.kind == "cnf":
            formula = cnf.build(PUZZLES[0].geometry, row.encoding, row.amo)
            assert (row.variables, row.clauses, row.literals) == \
                (formula.nv, len(formula.clauses), formula.literals)
        elif row.kind == "reduced":  # a mean over the puzzles' own formulas
            reduced = [cnf.clue_reduced(p, row.encoding) for p in PUZZLES]
            assert row.clauses == pytest.approx(sum(len(r.clauses) for r in reduced) / 40)
        else:
            assert row.variables is None and row.probing_pct is None


def test_search_columns(study):
    for row in study.rows:
        assert row.solver in ("minisat22", "native") and row.puzzles == 40
        assert row.not_unique == 0
        assert row.decisions_mean is not None and row.puzzles_per_s > 0
        # every puzzle propagation solves is solved without a decision (MiniSat's extra
        # counts, the final pick and PySAT's variable 0, are taken off)
        assert row.no_decision_pct >= row.propagation_pct, row.method
    minimal = next(r for r in study.rows if r.method == "minimal")
    assert minimal.decisions_mean > 5 * next(r for r in study.rows
                                             if r.method == "extended").decisions_mean


def test_failed_literal_probing_on_one_solver():
    # x1 -> x2 and x1 -> -x2: x1 fails, so -x1, then x3; x2 stays open
    with Solver(name="minisat22", bootstrap_with=[[-1, 2], [-1, -2], [1, 3], [2, 4, 5]]) as s:
        found = probe(s, [], [1, 2, 3, 4, 5])
    assert found.consistent and found.failed == (1,)
    assert set(found.literals) == {-1, 3} and found.assumptions == (-1,)
    with Solver(name="minisat22", bootstrap_with=[[1, 2], [1, -2], [-1, 2], [-1, -2]]) as s:
        assert not probe(s, [], [1, 2]).consistent


def test_work_counts_every_progress_step():
    steps = []
    run_study(PUZZLES[:3], encodings=["extended"], reduced=["minimal"], rules=["singles"],
              solvers=["minisat22", "cadical195"], progress=steps.append)
    assert sum(steps) == work(3, encodings=["extended"], amos=["pairwise"],
                              reduced=["minimal"], rules=["singles"],
                              solvers=["minisat22", "cadical195"])


def test_refusals():
    with pytest.raises(InputError, match="unknown encoding"):
        methods(["clever"], ["pairwise"], [], [])
    with pytest.raises(InputError, match="unknown rules"):
        methods([], ["pairwise"], [], ["clever"])
    with pytest.raises(InputError, match="one geometry"):
        run_study([PUZZLES[0], parse("1..." + "." * 12)])
    with pytest.raises(InputError, match="at least one"):
        run_study([])


# -- outputs ----------------------------------------------------------------------------------
@pytest.mark.slow
def test_json_and_csv_have_one_row_per_method_and_solver():
    args = ["study", FILE, "--limit", "4", "-e", "extended", "-e", "tdoku", "--amo",
            "pairwise", "--amo", "ladder", "--rules", "singles", "-s", "minisat22",
            "-s", "cadical195"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    keys = [f.name for f in fields(Row)]
    assert all(list(row) == keys for row in rows)
    # (2 encodings + 1 reduced) x 2 at-most-ones x 2 solvers, then the preset once
    assert [(r["method"], r["solver"]) for r in rows][::2] == [
        ("extended", "minisat22"), ("extended/ladder", "minisat22"),
        ("tdoku", "minisat22"), ("tdoku/ladder", "minisat22"),
        ("reduced extended", "minisat22"), ("reduced extended/ladder", "minisat22"),
        ("native singles", "native")]
    assert rows[2]["variables"] > 729  # ladder adds auxiliary variables
    result = runner.invoke(app, [*args, "--csv"])
    assert result.exit_code == 0, result.output
    table = list(csv.DictReader(io.StringIO(result.output)))
    assert len(table) == len(rows) and list(table[0]) == keys
    assert [r["method"] for r in table] == [r["method"] for r in rows]


def test_table_and_no_search():
    result = runner.invoke(app, ["study", FILE, "--limit", "3", "--no-search", "--no-probing",
                                 "--no-reduced", "--no-native"])
    assert result.exit_code == 0, result.output
    assert "tdoku" in result.output and "3 puzzles" in result.output
    shuffled = ["study", FILE, "--shuffle", "7", "--limit", "3", "-e", "extended",
                "--no-reduced", "--rules", "singles", "--no-search", "--no-probing", "--json"]
    first, again = runner.invoke(app, shuffled), runner.invoke(app, shuffled)
    assert first.exit_code == 0 and first.output == again.output  # a seed, the same sample
    assert json.loads(first.output.splitlines()[0])["puzzles"] == 3
    result = runner.invoke(app, ["study", FILE, "--json", "--csv"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["study", FILE, "-e", "clever"])
    assert result.exit_code == Exit.INPUT and "unknown encoding" in result.output


def test_plot(study, tmp_path):
    pytest.importorskip("matplotlib")
    plot_study(study, tmp_path / "study.svg", title="mixed9")
    assert "<svg" in (tmp_path / "study.svg").read_text(encoding="utf-8")


def test_plot_without_matplotlib(monkeypatch, tmp_path):
    # None in sys.modules makes the import fail, as when the extra is not installed
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(MissingExtraError, match=r"sudoku_csp\[plot\]"):
        check_plot_path(tmp_path / "study.png")
    result = runner.invoke(app, ["study", FILE, "--limit", "2", "--plot",
                                 str(tmp_path / "study.png")])
    assert result.exit_code == Exit.INPUT
    assert "pip install 'sudoku_csp[plot]'" in result.output
    assert not (tmp_path / "study.png").exists()
    with pytest.raises(InputError, match="written as"):
        check_plot_path(tmp_path / "study.gif")


def test_a_solver_without_assumptions_is_refused_before_any_work():
    from sudoku_csp.satsolver import capabilities

    if not capabilities("kissat404").available:
        pytest.skip("no kissat404 in this PySAT")
    with pytest.raises(InputError, match="kissat404 cannot take assumptions"):
        run_study(PUZZLES[:1], solvers=["kissat404"])
    result = runner.invoke(app, ["study", FILE, "-s", "kissat404"])
    assert result.exit_code == Exit.INPUT and "cannot take assumptions" in result.stderr


def test_a_search_out_of_reach_is_said_before_it_starts(tmp_path, monkeypatch):
    import sudoku_csp.study as studies

    monkeypatch.setattr(studies, "SEARCH_IN_REACH", 3)  # a 4x4 stands for a 25x25 here
    path = tmp_path / "four.txt"
    path.write_text("3.1...4.2.......\n")
    args = ["study", str(path), "-e", "minimal", "--no-reduced", "--no-native", "--json"]
    searched = runner.invoke(app, [*args, "-s", "minisat22"])
    assert searched.exit_code == 0 and "note: searching 4x4 grids can take hours" in \
        searched.stderr
    assert "note:" not in runner.invoke(app, [*args, "--no-search"]).stderr


# -- the time limit ---------------------------------------------------------------------------
# The time limit runs out at a point the test chooses, never at one the machine's speed does:
# the clock the study reads (time.monotonic) stands still until the test moves it, which it
# does when the study reports (``progress``) that the first solver's search is done.
class StoppedClock:
    """``time.monotonic`` standing still until :meth:`run_out` moves it past any limit."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def run_out(self) -> None:
        self.now += 1e6


@pytest.fixture
def clock(monkeypatch) -> StoppedClock:
    stopped = StoppedClock()
    monkeypatch.setattr(time, "monotonic", stopped)
    return stopped


def _runs_out_after(steps: int, clock: StoppedClock, progress=None):
    """A ``progress`` callback that runs the clock out once ``steps`` steps are reported."""
    done = 0

    def advance(step: int) -> None:
        nonlocal done
        done += step
        if done >= steps:
            clock.run_out()
        if progress:
            progress(step)

    return advance


# One puzzle, encoding `minimal`: its propagation is one step, MiniSat's search another; the
# time runs out there, before CaDiCaL's search.
ONE = PUZZLES[:1]
STUDIED = {"encodings": ["minimal", "extended"], "reduced": [], "rules": ["singles"],
           "solvers": ["minisat22", "cadical195"]}


def test_a_study_past_its_time_limit_keeps_the_rows_it_measured(clock):
    study = run_study(ONE, **STUDIED, time_limit=60, progress=_runs_out_after(2, clock))
    assert [(row.method, row.solver) for row in study.rows] == [("minimal", "minisat22")]
    assert study.rows[0].puzzles == 1 and study.rows[0].decisions_mean is not None
    assert study.unfinished == ["minimal / cadical195", "extended", "native singles"]
    # the same study with the clock never moved: every row, nothing unfinished
    whole = run_study(ONE, **STUDIED, time_limit=60)
    assert whole.unfinished == [] and len(whole.rows) == 2 + 2 + 1


def test_an_expired_time_limit_measures_nothing(clock):
    study = run_study(ONE, **STUDIED, time_limit=0)
    assert study.rows == [] and study.unfinished == ["minimal", "extended", "native singles"]


def test_the_study_command_stops_at_its_time_limit(tmp_path, clock, monkeypatch):
    import sudoku_csp.study

    def run_study_stopping(*args, progress=None, **kwargs):
        return run_study(*args, progress=_runs_out_after(2, clock, progress), **kwargs)

    monkeypatch.setattr(sudoku_csp.study, "run_study", run_study_stopping)
    path = tmp_path / "one.txt"
    path.write_text(to_line(ONE[0]) + "\n")
    result = runner.invoke(app, ["study", str(path), "-e", "minimal", "--no-reduced",
                                 "--rules", "singles", "-s", "minisat22", "-s", "cadical195",
                                 "--time-limit", "60", "--json"])
    assert result.exit_code == Exit.UNKNOWN, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["method"], r["solver"]) for r in rows] == [("minimal", "minisat22")]
    assert "time limit reached (60 s): not measured: minimal / cadical195, native singles" \
        in result.stderr
    result = runner.invoke(app, ["study", str(path), "-e", "minimal", "--no-reduced",
                                 "--no-native", "-s", "cadical195", "-t", "0"])
    assert result.exit_code == Exit.UNKNOWN and result.stdout == ""
    assert "no row was measured on every puzzle" in result.stderr


# -- the study of the kinds' encoding options (sudoku_csp.study.options) ----------------------
def _killers():
    from cases import CONSTRAINED_CASES

    return [case.puzzle() for case in CONSTRAINED_CASES
            if case.name in ("killer4", "killer9-diagonal", "killer4-line")]


def test_the_options_study_switches_each_option_the_puzzles_kinds_offer():
    import random

    from sudoku_csp.constraints import kind_named
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.study import option_specs
    from sudoku_csp.variants import make_geometry

    # seers has three values (uncovered, on, off): studied by naming its specs
    families = "hidden=off,leftovers=off,required=off"
    assert option_specs(_killers(), ["sat", "cpsat"]) == [
        "sat", "sat:house_cages=off", "sat:hidden=off", "sat:leftovers=off",
        "sat:required=off", f"sat:house_cages=off,{families}",
        "cpsat", "cpsat:hidden=off", "cpsat:leftovers=off", "cpsat:required=off",
        f"cpsat:{families}"]
    geometry = make_geometry(4)
    grid = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)
    lines = kind_named("little killer").sample(geometry, grid, random.Random(3))
    puzzle = Puzzle(geometry, (-1,) * 16, constraints=tuple(lines))
    # line_sums, sum_bounds and bounds_rows are the sat backend's alone; no cage, no
    # implied family; bounds_ends has three values (studied by naming its specs)
    assert option_specs([puzzle]) == ["sat", "sat:sum_bounds=off", "sat:line_sums=groups",
                                     "sat:bounds_rows=all", "native", "cpsat"]
    assert option_specs(PUZZLES[:2]) == ["sat", "native", "cpsat"]  # no kind, no option


def test_the_options_study_measures_each_spec_and_its_effect():
    from sudoku_csp.study import run_options_study

    puzzles = _killers()
    families = "hidden=off,leftovers=off,required=off"
    study = run_options_study(puzzles, specs=["sat", f"sat:{families}", "native",
                                              f"native:{families}", "cpsat:hidden=off"])
    rows = {row.method: row for row in study.rows}
    assert list(rows) == ["sat", f"sat:{families}", "native", f"native:{families}",
                          "cpsat:hidden=off"] and not study.unfinished
    assert all(row.puzzles == 3 and row.not_unique == 0 and row.kind == "spec"
               for row in rows.values())
    # The implied constraints are clauses of the puzzle's formula, and spare the searches
    # of the 9x9 killer conflicts (4 against 29 for sat, 4 against 19 native).
    on, off = rows["sat"], rows[f"sat:{families}"]
    assert off.clauses < on.clauses and off.conflicts_mean > on.conflicts_mean
    assert rows[f"native:{families}"].conflicts_mean > rows["native"].conflicts_mean
    # Propagation alone decides the two 4x4 killers, not the 9x9 one
    assert on.propagation_pct == rows["native"].propagation_pct == pytest.approx(200 / 3)
    # CP-SAT has no propagation alone to ask: not read, never said to be 0 %
    assert rows["native"].clauses is None and rows["cpsat:hidden=off"].propagation_pct is None
    # Each row against its backend's first: the first says so; cpsat's only row is its first.
    assert on.effect == rows["native"].effect == rows["cpsat:hidden=off"].effect \
        == "(the backend's first row)"
    ratio = off.clauses / on.clauses
    assert f"clauses x{ratio:.2f}" in off.effect and off.effect.startswith("time x")



def test_the_options_study_measures_a_sat_solver_that_cannot_propagate_alone():
    # The UP column asks the spec with search=off, which such a solver refuses: the row is
    # measured all the same, its UP share not read (it was a refusal of the whole study).
    from sudoku_csp.satsolver import propagating_solvers
    from sudoku_csp.study import run_options_study

    assert "lingeling" not in propagating_solvers()
    study = run_options_study(_killers()[:1], specs=["sat:solver=lingeling"])
    (row,) = study.rows
    assert row.not_unique == 0 and row.propagation_pct is None and row.conflicts_mean is not None

def test_the_studys_second_model_is_checked_like_the_first():
    # "Not unique" in a study row rests on a second solution: it is checked against the
    # rules and told apart from the first, as every backend's are (a reading of the model
    # that gave the first grid again counted the puzzle as not unique).
    from sudoku_csp.satsolver import capabilities, load
    from sudoku_csp.study.measure import Tally, _search
    from sudoku_csp.verify import WrongSolutionError

    puzzle = parse("3.1...4.2.......")  # unique: a second model would be a wrong one
    clauses, _ = cnf.puzzle_clauses(puzzle)
    formula = cnf.build(puzzle.geometry)
    unit = [[lit] for lit in cnf.givens(puzzle)]
    first = []

    def read(model):  # the first grid, whatever the model
        first.append(first[0] if first else formula.vars.read_model(model))
        return first[-1]

    tally = Tally()
    with load("minisat22", [*clauses, *unit]) as solver:
        # An exclusion that excludes nothing: the second call finds a model again.
        exclusion = lambda grid: [1, -1]  # noqa: E731
        with pytest.raises(WrongSolutionError, match="same solution twice"):
            _search(tally, solver, "minisat22", capabilities("minisat22"), puzzle, [], read,
                    exclusion, "sat:solver=minisat22", None)
    assert tally.not_unique == 0


def test_the_options_study_makes_a_rows_search_off_twin_once_within_its_time(monkeypatch):
    # The UP column of a sat row asks the same spec with search=off: that backend is made
    # once (it was made twice, once to see the spec could take it), and it is asked within
    # the study's time limit like the row's own backend (it was asked with none).
    from sudoku_csp.backends.registry import make_backend
    from sudoku_csp.study import options, run_options_study

    made, limits = [], []

    def counting(spec):
        backend = make_backend(spec)
        if "search=off" in spec:
            made.append(spec)
            solve = backend.solve

            def solve_seen(puzzle, limit=1, time_limit=None):
                limits.append(time_limit)
                return solve(puzzle, limit=limit, time_limit=time_limit)
            monkeypatch.setattr(backend, "solve", solve_seen)
        return backend

    monkeypatch.setattr(options, "make_backend", counting)
    study = run_options_study(_killers()[:2], specs=["sat"], time_limit=3600)
    assert made == ["sat:search=off"]
    assert len(limits) == 2 and all(limit is not None and limit <= 3600 for limit in limits)
    assert study.rows[0].propagation_pct is not None


def test_a_spec_that_cannot_decide_is_not_said_to_have_run_out_of_time(tmp_path):
    # A spec that leaves a puzzle undecided by its own nature (search=off on a killer its
    # propagation does not solve, a node budget) was counted as cut by the time limit:
    # "time limit reached (60 s)", and every spec after it left out as well.
    from sudoku_csp.study import run_options_study

    killers = _killers()[:2]  # propagation alone decides the 4x4, not the 9x9
    study = run_options_study(killers, specs=["native:search=off", "native"], time_limit=3600)
    assert [row.method for row in study.rows] == ["native"] and not study.unfinished
    assert study.undecided == {"native:search=off": "propagation alone does not solve "
                                                    "this puzzle"}
    path = tmp_path / "killers.txt"
    path.write_text("".join(f"{to_line(p)}\n" for p in killers), encoding="utf-8")
    result = runner.invoke(app, ["study", str(path), "--spec", "native:search=off",
                                 "--spec", "native", "--json"])
    assert result.exit_code == Exit.UNKNOWN, result.output
    assert "time limit" not in result.stderr
    assert "not measured: native:search=off (it left a puzzle undecided: propagation " \
           "alone does not solve this puzzle)" in result.stderr
    assert [json.loads(line)["method"] for line in result.stdout.splitlines()] == ["native"]


def test_study_of_puzzles_with_typed_constraints_studies_the_kinds_options(tmp_path):
    # Before issue 34's study of the options: refused, "study cannot honour typed
    # constraints" (exit 6).
    from cases import KILLER4

    path = tmp_path / "killers.txt"
    path.write_text(f"{KILLER4}\n{KILLER4}\n", encoding="utf-8")
    result = runner.invoke(app, ["study", str(path), "--spec", "native",
                                 "--spec", "native:required=off", "--json"])
    assert result.exit_code == Exit.OK, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["method"] for row in rows] == ["native", "native:required=off"]
    assert rows[1]["effect"].startswith("time x") and rows[0]["puzzles"] == 2
    table = runner.invoke(app, ["study", str(path), "--spec", "sat", "--columns",
                                "method,clauses,effect"])
    assert table.exit_code == Exit.OK and "the backend's first row" in table.stdout
    # The encodings study's own options say where they belong
    wrong = runner.invoke(app, ["study", str(path), "-e", "minimal"])
    assert wrong.exit_code == Exit.INPUT and "--encoding is an option of the encodings" \
        in wrong.output
    cut = runner.invoke(app, ["study", str(path), "--time-limit", "0"])
    assert cut.exit_code == Exit.UNKNOWN and "not measured: sat" in cut.output
