"""The CP-SAT models (sudoku_csp.encodings.cpsat) and backend (sudoku_csp.backends.cpsat)."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cases import BY_NAME
from ortools.sat.python import cp_model

from sudoku_csp import (
    Puzzle,
    SpecError,
    Status,
    format_line,
    is_solution,
    make_backend,
    make_geometry,
    parse,
)
from sudoku_csp.backends.cpsat import STATUS_TABLE, CpSatBackend, CpSatError, SearchEnd, search_end
from sudoku_csp.encodings.cpsat import (
    EXPORT_SIZES,
    MODELS,
    build_model,
    export_models,
    export_name,
)

ROOT = Path(__file__).resolve().parents[1]
EMPTY4 = BY_NAME["empty4"]

SPECS = [
    "cpsat:model=alldiff",
    "cpsat:model=boolean",
    "cpsat:model=alldiff,presolve=off",
    "cpsat:model=boolean,presolve=on",
    "cpsat:workers=2",
]
CASE_NAMES = ["4x4", "6x6", "12x12", "16x16", "grid2", "hard1", "diagonal", "windoku",
              "anti-knight", "anti-king", "jigsaw", "unsolvable", "clash"]


def one_worker_solver():
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver


# -- models -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("name", ["4x4", "diagonal", "anti-king", "jigsaw"])
def test_model_solves_and_reads_back(kind, name):
    puzzle = BY_NAME[name].puzzle()
    built = build_model(puzzle, kind)
    solver = one_worker_solver()
    assert solver.solve(built.model) == cp_model.OPTIMAL
    grid = built.read(solver)
    assert is_solution(puzzle, grid)
    assert built.decode(solver.response_proto.solution) == grid


@pytest.mark.parametrize("kind", MODELS)
def test_model_sizes(kind):
    g = make_geometry(9, variants=["anti-knight"])
    proto = build_model(g, kind).model.proto
    if kind == "alldiff":
        assert len(proto.variables) == 81
        assert len(proto.constraints) == 27 + len(g.extra_pairs)
    else:
        assert len(proto.variables) == 729
        assert len(proto.constraints) == 81 + 27 * 9 + 9 * len(g.extra_pairs)


@pytest.mark.parametrize("kind", MODELS)
def test_research_constraint_is_respected(kind):
    # A script adds its own rule to the model: "A1 holds 9" on the empty 9x9 grid.
    built = build_model(make_geometry(9), kind)
    if kind == "alldiff":
        built.model.add(built.cells[0] == 9)
    else:
        built.model.add_bool_or([built.literals[0][8]])
    solver = one_worker_solver()
    assert solver.solve(built.model) == cp_model.OPTIMAL
    grid = built.read(solver)
    assert grid[0] == 8
    assert is_solution(Puzzle.empty(built.geometry), grid)


@pytest.mark.parametrize("kind", MODELS)
def test_fix_givens_then_release_restores_the_template(kind):
    puzzle = BY_NAME["grid2"].puzzle()
    built = build_model(puzzle.geometry, kind)
    before = str(built.model.proto)
    fixed = built.fix_givens(puzzle.givens)
    assert len(fixed) == puzzle.clue_count
    assert str(built.model.proto) != before
    built.release(fixed)
    assert str(built.model.proto) == before


def test_models_do_not_import_ortools_until_built():
    code = ("import sys, sudoku_csp, sudoku_csp.encodings.cpsat; "
            "sys.exit(any(m.startswith('ortools') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_a_model_kind_must_provide_every_helper():
    # CpSatModel is abstract: a model kind that leaves a helper out fails when it is made,
    # not later inside some kind's cpsat, where NotImplementedError reads as the kind's fault.
    from sudoku_csp.modeling.cpsat_model import AllDiffModel, BooleanModel, CpSatModel

    assert CpSatModel.__abstractmethods__ == {
        "given_indices", "decode", "read", "value", "all_different", "allow_pairs",
        "forbid_pairs", "allow_digits", "different_sum"}
    with pytest.raises(TypeError, match="abstract"):
        CpSatModel(make_geometry(4), cp_model.CpModel())  # type: ignore[abstract]
    assert not AllDiffModel.__abstractmethods__ and not BooleanModel.__abstractmethods__


def test_unknown_model_kind():
    with pytest.raises(ValueError, match="unknown CP-SAT model"):
        build_model(make_geometry(4), "sat")


# -- exported artifacts -----------------------------------------------------------------------
def test_exported_models_are_in_sync(tmp_path):
    written = export_models(tmp_path)
    assert {p.name for p in written} == {export_name(k, n) for k in MODELS for n in EXPORT_SIZES}
    for fresh in written:
        kept = ROOT / "encodings" / fresh.name
        assert kept.exists(), f"{kept} is missing: run export_models('encodings')"
        assert kept.read_text() == fresh.read_text(), (
            f"{kept.name} is out of date: run export_models('encodings')")


def test_exported_model_loads_and_solves():
    model = cp_model.CpModel()
    model.proto.parse_text_format((ROOT / "encodings" / export_name("alldiff", 9)).read_text())
    assert len(model.proto.variables) == 81
    assert one_worker_solver().solve(model) == cp_model.OPTIMAL


# -- backend ----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", CASE_NAMES)
def test_backend_cases(spec, name):
    case = BY_NAME[name]
    puzzle = case.puzzle()
    result = make_backend(spec).solve(puzzle, limit=2, time_limit=60)
    assert result.status is case.expected, result.message
    assert all(is_solution(puzzle, s) for s in result.solutions)
    if case.solution:
        assert result.solution is not None
        assert format_line(puzzle.geometry, result.solution) == case.solution


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("presolve", ["on", "off"])
def test_empty_4x4_has_288_solutions(kind, presolve):
    backend = make_backend(f"cpsat:model={kind},presolve={presolve}")
    result = backend.solve(EMPTY4.puzzle(), limit=None)
    assert result.status is Status.MULTIPLE and result.count == 288
    assert len(set(backend.solve(EMPTY4.puzzle(), limit=1000).solutions)) == 288
    assert result.stats["workers"] == 1


def test_enumeration_ignores_extra_workers():
    # CP-SAT 9.15 with num_workers=2 claimed a complete enumeration of the empty 4x4 after
    # 168 of its 288 solutions; the backend must enumerate on one worker.
    result = make_backend("cpsat:workers=2").solve(EMPTY4.puzzle(), limit=None)
    assert result.count == 288
    assert result.stats["workers"] == 1


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("presolve", ["on", "off"])
def test_duplicate_reports_are_counted_once(kind, presolve):
    # A free Boolean added to the template doubles every grid: CP-SAT then reports each
    # grid twice (as it sometimes does on its own, or-tools #4640), and only distinct grids
    # may count.
    backend = CpSatBackend(model=kind, presolve=presolve)
    puzzle = EMPTY4.puzzle()
    backend.template(puzzle.geometry).model.new_bool_var("free")
    everything = backend.solve(puzzle, limit=None)
    assert everything.count == 288
    assert everything.stats["solutions_reported"] == 576
    assert everything.stats["duplicates"] == 288
    first = backend.solve(puzzle, limit=3)
    assert len(first.solutions) == len(set(first.solutions)) == 3


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_limit_counts_distinct_solutions(limit):
    result = make_backend("cpsat").solve(BY_NAME["hard1"].puzzle(), limit=limit)
    assert len(result.solutions) == limit
    assert result.status is (Status.SOLVED if limit == 1 else Status.MULTIPLE)


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("limit", [1, 2])
def test_time_limit_gives_unknown(kind, limit):
    # An expired limit, so that no machine is fast enough to settle the empty 25x25 first.
    puzzle = Puzzle.empty(make_geometry(25))
    result = make_backend(f"cpsat:model={kind}").solve(puzzle, limit=limit, time_limit=0)
    assert result.status is Status.UNKNOWN
    assert result.solutions == ()
    assert "time limit" in result.message


def test_stats_use_shared_names():
    result = make_backend("cpsat").solve(BY_NAME["hard1"].puzzle(), limit=2)
    for key in ("decisions", "conflicts", "propagations", "wall_time"):
        assert key in result.stats
    assert result.stats["decisions"] >= 0 and result.stats["wall_time"] > 0


def test_clashing_givens():
    result = make_backend("cpsat").solve(BY_NAME["clash"].puzzle(), limit=2)
    assert result.status is Status.NONE
    assert "clash" in result.message


def test_template_is_restored_after_each_puzzle():
    backend = make_backend("cpsat")
    first = parse("3.1...4.2.......")
    second = parse("1..." "..1." ".1.." "...1")
    assert backend.solve(first, limit=2).status is Status.UNIQUE
    assert backend.solve(second, limit=2).status is Status.MULTIPLE
    assert backend.solve(first, limit=2).status is Status.UNIQUE


def test_threads_share_a_backend():
    backend = make_backend("cpsat")
    names = ["4x4", "6x6", "grid2", "hard1", "diagonal", "jigsaw"] * 3
    with ThreadPoolExecutor(max_workers=3) as pool:
        statuses = list(pool.map(
            lambda name: backend.solve(BY_NAME[name].puzzle(), limit=2).status, names))
    assert statuses == [BY_NAME[name].expected for name in names]


def test_status_table():
    assert search_end(cp_model.OPTIMAL) is SearchEnd.FINISHED
    assert set(STATUS_TABLE.values()) == set(SearchEnd)
    with pytest.raises(CpSatError, match="MODEL_INVALID"):
        search_end(cp_model.MODEL_INVALID)


@pytest.mark.parametrize("spec,message", [
    ("cpsat:model=mip", "model='mip' is not allowed"),
    ("cpsat:presolve=maybe", "presolve='maybe' is not allowed"),
    ("cpsat:workers=many", "must be an integer"),
    ("cpsat:workers=-1", "workers=-1"),
    ("cpsat:colour=red", "unknown option colour"),
])
def test_spec_errors(spec, message):
    with pytest.raises(SpecError, match=message):
        make_backend(spec)


def test_spec_round_trip():
    assert make_backend("cpsat").spec == "cpsat"
    backend = make_backend("cpsat:model=boolean,workers=0,presolve=on")
    assert backend.spec == "cpsat:model=boolean,workers=0,presolve=on"
    assert make_backend(backend.spec).options == backend.options


def test_bad_limit():
    with pytest.raises(ValueError, match="limit"):
        make_backend("cpsat").solve(EMPTY4.puzzle(), limit=0)


def test_a_broken_one_hot_read_back_is_a_backend_error():
    from sudoku_csp.errors import BackendError
    from sudoku_csp.modeling.cpsat_model import ReadBackError, _one_hot

    assert _one_hot(3, [0, 0, 1, 0]) == 2
    for bits in ([0, 1, 1, 0], [0, 0, 0, 0]):
        with pytest.raises(ReadBackError, match="cell 3") as caught:
            _one_hot(3, bits)
        assert isinstance(caught.value, BackendError)
