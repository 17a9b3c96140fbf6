"""The batch runner: outcomes and records, parallel runs (processes, Dask), resume, summary,
cactus plot."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import multiprocessing
import sys

import pytest
from cases import BY_NAME, CASES, slow_if

from sudoku_csp import ParseError, Result, SpecError, Status, batch
from sudoku_csp.backends.registry import BACKENDS
from sudoku_csp.batch import (
    RECORD_FIELDS,
    Finished,
    Outcome,
    Record,
    RecordWriter,
    Verdict,
    cactus_plot,
    iter_records,
    run_batch,
    run_to_file,
    summarize,
)
from sudoku_csp.crosscheck import crosscheck
from sudoku_csp.errors import InputError
from sudoku_csp.extras import MissingExtraError, require_extra
from sudoku_csp.io import PuzzleText, parse, puzzle_texts, to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.verify import WrongSolutionError

SPECS = ["native", "native:rules=singles,branch=first"]
# Quick cases (each well under 0.1 s with both specs), repeated to make a small "file".
QUICK = [c for c in CASES if c.name not in ("hard1", "grid1")]


def quick_puzzles(times: int = 1) -> list[Puzzle]:
    return [c.puzzle() for c in QUICK] * times


def records(outcomes) -> list[Record]:
    """Every record of a run's outcomes, in order."""
    return [record for outcome in outcomes for record in outcome.records]


def untimed(record: Record) -> Record:
    """A record without its timings (CP-SAT, for one, reports its ``wall_time``)."""
    stats = {k: v for k, v in record.stats.items() if "time" not in k and "seconds" not in k}
    return dataclasses.replace(record, seconds=0.0, stats=stats)


class SaysNone:
    """A broken backend: claims every puzzle has no solution."""

    spec = "broken"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        return Result(Status.NONE, solver=self.spec)


class Wrong:
    """A broken backend whose solution failed verification: that spec's error."""

    spec = "wrong"

    def solve(self, puzzle: Puzzle, *, limit=1, time_limit=None) -> Result:
        raise WrongSolutionError("wrong solution: not a grid")


# -- records ----------------------------------------------------------------------------------
def test_one_outcome_per_puzzle_one_record_per_spec_in_input_order():
    outcomes = list(run_batch(quick_puzzles(), SPECS))
    assert [(r.index, r.spec) for r in records(outcomes)] == [
        (i, s) for i in range(1, len(QUICK) + 1) for s in SPECS]
    for index, (outcome, case) in enumerate(zip(outcomes, QUICK, strict=True), start=1):
        assert isinstance(outcome, Outcome) and outcome.index == index
        assert outcome.verdict is Verdict.of(case.expected) and outcome.agreed
        assert outcome.puzzle == to_line(case.puzzle(), standalone=True)
        assert outcome.reasons == ()
        assert [r.index for r in outcome.records] == [index, index]
        for r in outcome.records:
            assert r.status is r.verdict is outcome.verdict
            assert r.agreed
            assert r.puzzle == outcome.puzzle
            assert r.seconds >= 0
            assert "nodes" in r.stats
            if case.solution:
                assert r.solution == case.solution and r.solutions == 1


def test_broken_backend_shows_as_disagreement_in_records_and_summary():
    puzzles = [BY_NAME["4x4"].puzzle(), BY_NAME["clash"].puzzle()]
    outcomes = list(run_batch(puzzles, ["native", SaysNone()]))
    assert [(r.spec, r.status, r.agreed) for r in records(outcomes)] == [
        ("native", "unique", False), ("broken", "none", False),
        ("native", "none", True), ("broken", "none", True)]
    assert outcomes[0].records[0].verdict is Verdict.DISAGREEMENT
    assert [o.agreed for o in outcomes] == [False, True]
    summary = summarize(outcomes)
    assert not summary.all_agreed
    assert summary.disagreements == [1]
    assert [row.agreed for row in summary.rows] == [False, False]


def test_a_time_limit_gives_unknown_not_a_disagreement():
    # An expired limit settles nothing that needs a search (hard1 does); clashing givens
    # need none.
    puzzles = [BY_NAME["hard1"].puzzle(), BY_NAME["clash"].puzzle()]
    found = records(run_batch(puzzles, ["native:rules=singles"], time_limit=0))
    # One spec: nothing contradicts it, and nothing checked it either.
    assert [(r.status, r.verdict, r.decided, r.agreed, r.disagreed) for r in found] == [
        ("unknown", "unknown", 0, False, False), ("none", "none", 1, False, False)]
    assert "time limit" in found[0].message
    assert summarize(found).rows[0].unknown == 1


def test_specs_and_options_are_checked_before_any_work():
    with pytest.raises(SpecError):
        run_batch(iter(()), ["native", "nope"])
    with pytest.raises(ValueError, match="jobs"):
        run_batch(iter(()), SPECS, jobs=0)
    with pytest.raises(ValueError, match="not both"):
        run_batch(iter(()), SPECS, jobs=2, scheduler="tcp://127.0.0.1:1")


# -- parallel ---------------------------------------------------------------------------------
@pytest.mark.parametrize("start", slow_if([None, "fork", "forkserver"], lambda m: m is not None))
def test_two_processes_give_the_same_records_as_one(start, monkeypatch):
    if start and start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    if start == "fork" and not batch.runner._single_threaded():
        pytest.skip("this test process runs other threads now: forking it is unsafe")
    monkeypatch.setattr(batch.runner, "START_METHOD", start)
    puzzles = quick_puzzles(3)
    one = [untimed(r) for r in records(run_batch(puzzles, SPECS, jobs=1))]
    # Small chunks: many tasks in flight, finishing out of order, yielded in order.
    two = [untimed(r) for r in records(run_batch(puzzles, SPECS, jobs=2, chunksize=3))]
    assert two == one
    assert len(one) == len(puzzles) * len(SPECS)


@pytest.mark.slow  # a forkserver: a new interpreter
def test_a_worker_started_afresh_reads_a_puzzle_of_any_kind(monkeypatch):
    # Before: a forkserver worker that met the dots kind first while unpickling a puzzle
    # failed ("dots defines 0 constraint kinds"): the kinds were loaded half-way.
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no forkserver start method here")
    from sudoku_csp.constraints.kinds.dots import Dots

    monkeypatch.setattr(batch.runner, "START_METHOD", "forkserver")
    four = parse("3.1...4.2.......")
    dots = Puzzle(four.geometry, four.givens, "", (Dots(difference=((2, 3, 1),)),))
    found = list(run_batch([dots, dots], ["native"], jobs=2, chunksize=1))
    assert [o.verdict for o in found] == [Verdict.UNIQUE] * 2


@pytest.mark.slow
@pytest.mark.skipif(not {"native", "sat", "cpsat"} <= BACKENDS.keys(),
                    reason="default trio not registered yet")
def test_default_trio_in_worker_processes():
    puzzles = quick_puzzles()
    trio = ["native", "sat", "cpsat"]
    # Verdicts only: this process's cached incremental SAT solver has learnt clauses from
    # earlier tests, so its search statistics (and which of several solutions comes first)
    # legitimately differ from a fresh worker's.
    def verdict(r: Record) -> tuple:
        return r.index, r.spec, r.status, r.verdict, r.agreed, r.solutions

    one = [verdict(r) for r in records(run_batch(puzzles, trio))]
    two = [verdict(r) for r in records(run_batch(puzzles, trio, jobs=2, chunksize=4))]
    assert two == one
    assert all(agreed and v == c.expected.value for (_, _, _, v, agreed, _), c
               in zip(one, (c for c in QUICK for _ in trio), strict=True))


def test_input_is_consumed_lazily():
    taken = 0

    def endless():
        nonlocal taken
        for puzzle in itertools.cycle(quick_puzzles()):
            taken += 1
            yield puzzle

    for jobs, chunksize in ((1, None), (2, 2)):
        taken = 0
        outcomes = run_batch(endless(), ["native"], jobs=jobs, chunksize=chunksize)
        first = list(itertools.islice(outcomes, 5))
        outcomes.close()
        assert [r.index for r in first] == [1, 2, 3, 4, 5]
        # At most the look-ahead window (2 chunks per worker) beyond what was yielded.
        assert taken <= 5 + 2 * jobs * (chunksize or 1) + (chunksize or 1)


def test_puzzle_texts_are_parsed_in_the_workers():
    text = "# cases\n" + "".join(f"{c.text}\n" for c in QUICK if not c.options)
    items = list(puzzle_texts([io.StringIO(text)]))
    assert isinstance(items[0], Puzzle) and all(isinstance(p, PuzzleText) for p in items[1:])
    from_texts = [untimed(r) for r in records(run_batch(items, ["native"], jobs=2, chunksize=2))]
    parsed = [p if isinstance(p, Puzzle) else p.parse() for p in items]
    assert from_texts == [untimed(r) for r in records(run_batch(parsed, ["native"]))]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bad_line_raises_parse_error_naming_it(jobs):
    text = "3.1...4.2.......\n\n# comment\n3.1...4.2..x....\n"
    with pytest.raises(ParseError) as info:
        list(run_batch(puzzle_texts([io.StringIO(text)]), ["native"], jobs=jobs))
    assert str(info.value).startswith("line 4, column 12: ")


@pytest.mark.parametrize("processes", [
    pytest.param(False, id="thread-worker"),
    pytest.param(True, id="process-worker", marks=pytest.mark.slow)])
def test_dask_local_cluster_gives_the_same_records(processes):
    distributed = pytest.importorskip("distributed")
    puzzles = quick_puzzles(2)
    expected = [untimed(r) for r in records(run_batch(puzzles, SPECS))]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=processes,
                                  host="127.0.0.1", protocol="tcp://", scheduler_port=0,
                                  dashboard_address=None) as cluster:
        # By address, as `--scheduler tcp://...` does: the runner opens and closes a client.
        by_address = [untimed(r) for r in records(run_batch(puzzles, SPECS, chunksize=4,
                                                     scheduler=cluster.scheduler_address))]
        with distributed.Client(cluster) as client:
            with_client = [untimed(r) for r in records(run_batch(puzzles, SPECS, scheduler=client))]
    assert by_address == expected
    assert with_client == expected


def test_missing_extra_is_a_clear_error():
    with pytest.raises(MissingExtraError, match=r"pip install 'sudoku_csp\[cluster\]'"):
        require_extra("sudoku_csp_no_such_module", "cluster", "scheduler=ADDRESS")


# -- writing and resuming ---------------------------------------------------------------------
@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_records_round_trip(tmp_path, ext):
    written = records(run_batch([BY_NAME["4x4"].puzzle(), BY_NAME["clash"].puzzle()],
                                ["native", SaysNone()]))
    written.append(dataclasses.replace(written[0], metadata="from, \"somewhere\"",
                                       message="a, b", index=3))
    path = tmp_path / f"r{ext}"
    with RecordWriter(path) as writer:
        for record in written:
            writer.write(record)
    back = list(iter_records(path))
    assert back == written
    assert all(type(r.status) is Verdict and type(r.verdict) is Verdict for r in back)
    if ext == ".csv":
        assert path.read_text().splitlines()[0] == ",".join(RECORD_FIELDS)
    else:
        assert json.loads(path.read_text().splitlines()[0])["spec"] == "native"


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_resume_after_an_interrupted_run_matches_a_full_run(tmp_path, ext):
    puzzles = quick_puzzles(2)
    whole = tmp_path / f"full{ext}"
    full = [untimed(r) for r in records(run_to_file(puzzles, SPECS, whole))]

    out = tmp_path / f"part{ext}"
    run = run_to_file(puzzles, SPECS, out)
    done = list(itertools.islice(run, 3))  # "Ctrl-C" after puzzle 3
    run.close()
    # Each outcome's records are in the file before the caller sees it.
    assert [(r.index, r.spec) for r in iter_records(out)] == [
        (r.index, r.spec) for r in records(done)]
    # A run killed halfway through puzzle 4: its first record written, the next one cut.
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    header = 1 if ext == ".csv" else 0
    out.write_text("".join(lines[:header + 7]) + (
        '{"index": 4, "puz' if ext == ".jsonl" else "4,3.1.."), encoding="utf-8")
    assert [(r.index, r.spec) for r in iter_records(out)] == [
        (r.index, r.spec) for r in full[:7]]

    finished = Finished.load(out, SPECS)
    assert len(finished) == 7
    assert finished.puzzles_done() == 3  # puzzle 4 is done for one spec of two
    assert finished.todo(4) == (SPECS[1],) and finished.known(4) is not None
    assert finished.todo(3) == () and finished.todo(5) == tuple(SPECS)

    resumed = list(run_to_file(puzzles, SPECS, out, resume=True, finished=finished))
    assert [o.index for o in resumed] == list(range(4, len(puzzles) + 1))
    assert len(resumed[0].records) == 1  # puzzle 4: only the spec left to do ...
    # ... cross-checked with the claim read back for it.
    assert [untimed(r) for r in records(resumed)] == full[7:]
    assert [untimed(r) for r in iter_records(out)] == full

    # Resuming a complete file does nothing.
    assert list(run_to_file(puzzles, SPECS, out, resume=True)) == []
    assert [untimed(r) for r in iter_records(out)] == full


def test_resume_with_an_added_spec_runs_only_that_spec(tmp_path):
    puzzles = quick_puzzles()
    out = tmp_path / "r.jsonl"
    list(run_to_file(puzzles, ["native"], out))
    added = list(run_to_file(puzzles, ["native", SaysNone()], out, resume=True))
    assert {r.spec for r in records(added)} == {"broken"}
    # Agreement is judged against the native records already in the file.
    assert [o.agreed for o in added] == [c.expected is Status.NONE for c in QUICK]
    assert [r.agreed for r in records(added)] == [o.agreed for o in added]
    reasons = next(o.reasons for o in added if not o.agreed)
    assert reasons == ("broken says none, but native found a solution",)


def test_without_resume_the_output_is_replaced(tmp_path):
    out = tmp_path / "r.csv"
    list(run_to_file(quick_puzzles(), ["native"], out))
    list(run_to_file([BY_NAME["4x4"].puzzle()], ["native"], out))
    assert [r.index for r in iter_records(out)] == [1]


def test_output_format_and_columns_are_checked(tmp_path):
    with pytest.raises(ValueError, match=".jsonl or .csv"):
        run_to_file([], ["native"], tmp_path / "r.txt")
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="columns"):
        RecordWriter(other, append=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 1}\nnot json\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:1: not a batch record"):
        list(iter_records(bad))


# -- records into pandas ----------------------------------------------------------------------
# Lines pandas would take for numbers: the puzzle ".839..." (one blank) for 0.839..., its
# 81-digit solution for a float, and the metadata "007" for 7.
SOLVED1 = BY_NAME["grid1"].solution
NUMERIC_LOOKING = "." + SOLVED1[1:]


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_read_records_types_the_columns_of_a_cli_records_file(tmp_path, ext):
    pd = pytest.importorskip("pandas")
    from typer.testing import CliRunner

    import sudoku_csp
    from sudoku_csp.cli import app

    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{NUMERIC_LOOKING}\t007\n{BY_NAME['clash'].text}\n")
    out = tmp_path / f"r{ext}"
    result = CliRunner().invoke(app, ["count", str(puzzles), "--out", str(out)])
    assert result.exit_code == 0, result.output

    frame = sudoku_csp.read_records(out)
    assert list(frame.columns) == list(RECORD_FIELDS)
    types = {name: str(dtype) for name, dtype in frame.dtypes.items()}
    for name in ("puzzle", "solution", "spec", "status", "verdict", "message", "metadata"):
        assert types[name] == "string", (name, types[name])
    assert (types["index"], types["solutions"]) == ("int64", "int64")
    assert (types["agreed"], types["complete"], types["seconds"]) == ("bool", "bool", "float64")
    assert types["decided"] == "Int64"
    first, clash = frame.iloc[0], frame.iloc[1]
    assert (first["puzzle"], first["solution"], first["metadata"]) == (
        NUMERIC_LOOKING, SOLVED1, "007")
    assert (first["status"], first["solutions"], first["index"]) == ("unique", 1, 1)
    # One spec decided (count runs one): its verdict was checked by nothing.
    assert not first["agreed"] and first["decided"] == 1
    assert bool(first["complete"]) and first["seconds"] > 0
    assert isinstance(first["stats"], dict) and "nodes" in first["stats"]
    assert clash["status"] == "none" and pd.isna(clash["solution"])
    assert "clash" in clash["message"]


def test_record_files_from_before_the_decided_column_are_read_honestly(tmp_path):
    # Those files said agreed when nothing contradicted; read back, each record gets how
    # many specs of its puzzle decided, and agreed only when two or more did.
    old_csv = tmp_path / "old.csv"
    header = "index,puzzle,spec,status,verdict,agreed,seconds,stats,solutions,solution,"
    old_csv.write_text(header + "message,metadata,complete\n"
                       "1,p,a,unique,unique,True,0.1,{},1,s,,,True\n"
                       "1,p,b,unknown,unique,True,0.1,{},0,,,,False\n"
                       "2,q,a,none,none,True,0.1,{},0,,,,True\n"
                       "2,q,b,none,none,True,0.1,{},0,,,,True\n")
    old_jsonl = tmp_path / "old.jsonl"
    old_jsonl.write_text("".join(json.dumps(
        {"index": i, "puzzle": "p", "spec": spec, "status": status, "verdict": verdict,
         "agreed": True, "seconds": 0.1}) + "\n" for i, spec, status, verdict in (
        (1, "a", "unique", "unique"), (1, "b", "unknown", "unique"),
        (2, "a", "none", "none"), (2, "b", "none", "none"))))
    for path in (old_csv, old_jsonl):
        found = list(iter_records(path))
        assert [(r.index, r.decided, r.agreed) for r in found] == [
            (1, 1, False), (1, 1, False), (2, 2, True), (2, 2, True)], path
        summary = summarize(found)
        assert summary.unchecked == [1] and not summary.disagreements
    # The oldest files have no verdict column: agreed false was a disagreement.
    oldest = tmp_path / "oldest.csv"
    oldest.write_text("index,puzzle,spec,status,agreed\n1,p,a,unique,False\n"
                      "1,p,b,none,False\n")
    assert summarize(iter_records(oldest)).disagreements == [1]


def test_read_records_without_pandas_says_what_to_install(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    list(run_to_file([BY_NAME["4x4"].puzzle()], ["native"], out))
    monkeypatch.setitem(sys.modules, "pandas", None)  # what a missing package looks like
    with pytest.raises(MissingExtraError, match=r"needs pandas: pip install"):
        batch.read_records(out)


# -- summary and plot -------------------------------------------------------------------------
def fake(index: int, spec: str, status: str, ms: float, **stats) -> Record:
    return Record(index, "." * 16, spec, Verdict(status), Verdict(status), True, ms / 1000,
                  stats, decided=2)


def test_summary_rows():
    records = [fake(i, "a", "unique", i, nodes=2 * i, backtracks=i,
                    solved_by_propagation=i <= 5) for i in range(1, 21)]
    records += [fake(1, "b", "multiple", 4.0, decisions=10, conflicts=3),
                fake(2, "b", "none", 2.0, decisions=0, conflicts=1),
                fake(3, "b", "unknown", 1000.0),
                dataclasses.replace(fake(4, "b", "error", 1.0), agreed=False,
                                    verdict=Verdict.DISAGREEMENT)]
    summary = summarize(records)
    a, b = summary.rows
    assert (a.spec, a.puzzles, a.solved, a.unique, a.multiple, a.none, a.unknown) == \
        ("a", 20, 20, 20, 0, 0, 0)
    assert a.mean_ms == pytest.approx(10.5) and a.median_ms == pytest.approx(10.5)
    assert a.p95_ms == pytest.approx(19.0) and a.max_ms == pytest.approx(20.0)
    assert a.puzzles_per_s == pytest.approx(20 / 0.210)
    assert a.mean_nodes == pytest.approx(21.0) and a.mean_conflicts == pytest.approx(10.5)
    assert a.propagation_pct == pytest.approx(25.0) and a.agreed
    assert (b.puzzles, b.solved, b.multiple, b.none, b.unknown, b.errors) == (4, 1, 1, 1, 1, 1)
    assert b.median_ms == pytest.approx(3.0) and b.max_ms == pytest.approx(1000.0)
    assert b.mean_nodes == pytest.approx(5.0) and b.mean_conflicts == pytest.approx(2.0)
    assert b.propagation_pct is None and not b.agreed
    assert not summary.all_agreed and summary.disagreements == [4]
    assert summary.decided_times("b") == [0.002, 0.004]
    assert set(a.as_dict()) >= {"spec", "puzzles_per_s", "p95_ms", "propagation_pct"}


def test_summary_of_a_real_run():
    summary = summarize(run_batch(quick_puzzles(), SPECS))
    assert summary.all_agreed
    assert [row.spec for row in summary.rows] == SPECS
    for row in summary.rows:
        assert row.puzzles == len(QUICK) and row.errors == 0
        assert row.solved + row.none == len(QUICK)
        assert row.mean_nodes is not None and row.propagation_pct is not None


@pytest.mark.parametrize("ext", slow_if([".png", ".svg"], lambda ext: ext == ".png"))
def test_cactus_plot_is_written(tmp_path, ext):
    pytest.importorskip("matplotlib")
    found = records(run_batch(quick_puzzles(), SPECS))
    path = tmp_path / f"cactus{ext}"
    cactus_plot(found, path, title="quick cases")
    data = path.read_bytes()
    if ext == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        text = data.decode()
        assert text.lstrip().startswith("<?xml") and "<svg" in text
        assert "native:rules=singles,branch=first" in text
    cactus_plot(summarize(found), tmp_path / f"transposed{ext}", solved_axis="y")


def test_cactus_plot_format_is_checked(tmp_path):
    with pytest.raises(ValueError, match=".png"):
        cactus_plot([], tmp_path / "cactus.jpg")


# -- verdicts per puzzle (check) --------------------------------------------------------------
def test_puzzle_verdicts_for_check():
    puzzles = [BY_NAME["4x4"].puzzle(), BY_NAME["clash"].puzzle()]
    first, second = (o.as_dict() for o in run_batch(puzzles, ["native", SaysNone()]))
    assert first["index"] == 1 and first["status"] == "disagreement" and not first["agreed"]
    assert first["specs"]["broken"]["status"] == "none"
    assert first["reasons"] == ["broken says none, but native found a solution"]
    assert second == {"index": 2, "puzzle": to_line(puzzles[1]), "status": "none",
                      "decided": 2, "agreed": True, "specs": second["specs"]}
    assert json.loads(json.dumps(first)) == first


def without_seconds(verdict: dict) -> dict:
    """A verdict without its timings (two runs never take the same time)."""
    specs = {spec: {**v, "seconds": 0.0} for spec, v in verdict["specs"].items()}
    return {**verdict, "specs": specs}


@pytest.mark.parametrize("limit", [1, 2])
def test_a_batch_verdict_is_the_crosscheck_of_that_puzzle(limit):
    # Both paths build one dict (crosscheck.verdict_dict): they must not drift apart, in
    # keys, key order or values, for agreement, disagreement, errors and metadata alike.
    puzzles = [BY_NAME["4x4"].puzzle(), BY_NAME["clash"].puzzle(), BY_NAME["empty4"].puzzle(),
               parse("3.1...4.2.......\tfrom the tests")]
    for specs in (["native", "native:rules=singles"], ["native", SaysNone(), Wrong()]):
        verdicts = [o.as_dict(limit) for o in run_batch(puzzles, specs, limit=limit)]
        assert [v.pop("index") for v in verdicts] == [1, 2, 3, 4]
        for puzzle, verdict in zip(puzzles, verdicts, strict=True):
            expected = crosscheck(puzzle, specs, limit=limit).as_dict()
            # As `check --json` prints them: the same text, key order included.
            assert json.dumps(without_seconds(verdict)) == json.dumps(without_seconds(expected))
    assert verdict["metadata"] == "from the tests"
    assert verdict["specs"]["wrong"]["error"] == "wrong solution: not a grid"
    assert verdict["reasons"][0] == "wrong failed: wrong solution: not a grid"


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_records_say_whether_the_time_limit_cut_the_count(tmp_path, suffix, cpu_clock):
    # Counting every solution of an empty 9x9 never ends: the count is a lower bound. The
    # limit counts CPU time (cpu_clock): thousands of grids on any machine, however busy,
    # and the 288 of the empty 4x4 counted in full.
    out = tmp_path / f"r{suffix}"
    open_grid, closed = parse("." * 81), parse("." * 16)
    found = records(run_to_file([open_grid, closed], ["native"], out, limit=None,
                                time_limit=0.2))
    assert [(r.status, r.complete) for r in found] == [("multiple", False), ("multiple", True)]
    assert found[0].solutions >= 2
    assert [r.complete for r in iter_records(out)] == [False, True]


def test_resume_refuses_records_written_for_another_input(tmp_path):
    out = tmp_path / "r.jsonl"
    first = [c.puzzle() for c in CASES[:3]]
    other = [c.puzzle() for c in CASES[3:6]]
    list(run_to_file(first, ["native"], out))
    with pytest.raises(InputError, match="written for another input"):
        list(run_to_file(other + first, ["native"], out, resume=True))
    # The same input resumes (nothing left to do), a longer one goes on where it stopped.
    assert list(run_to_file(first, ["native"], out, resume=True)) == []
    assert [r.index for r in records(run_to_file(first + other, ["native"], out, resume=True))] \
        == [4, 5, 6]
