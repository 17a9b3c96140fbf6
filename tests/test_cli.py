"""The command line, through typer's CliRunner, and once as a real subprocess."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from cases import BY_NAME, CASES, GRID1, GRID2, HARD1, JIGSAW_MAP
from pages import DOCS, README, section, text
from typer.testing import CliRunner

from sudoku_csp import __version__, is_solution, parse
from sudoku_csp.backends.auto import NODES
from sudoku_csp.backends.base import BackendBase
from sudoku_csp.backends.cpsat import CpSatError
from sudoku_csp.backends.registry import BACKENDS, get_backend
from sudoku_csp.batch import RECORD_FIELDS
from sudoku_csp.cli import Exit, app
from sudoku_csp.cli.app import COMMANDS
from sudoku_csp.errors import SpecError
from sudoku_csp.io import to_grid, to_line
from sudoku_csp.modeling.variables import DecodeError
from sudoku_csp.result import Result, Status

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_version_and_help():
    result = run("--version")
    assert result.exit_code == 0, result.output
    assert __version__ in result.output
    for flag in ("-h", "--help"):
        result = run(flag)
        assert result.exit_code == 0
        assert "count" in result.output and "Exit codes" in result.output


def test_solve_one_puzzle_prints_a_boxed_grid():
    result = run("solve", GRID2)
    assert result.exit_code == Exit.OK, result.output
    assert "4 1 7 | 3 6 9 | 8 2 5" in result.output
    assert "------+-------+------" in result.output


@pytest.mark.parametrize(("text", "code", "word"), [
    (GRID2, Exit.OK, "unique"),
    (HARD1, Exit.MULTIPLE, "multiple"),
    (BY_NAME["clash"].text, Exit.NONE, "none"),
    (BY_NAME["unsolvable"].text, Exit.NONE, "none"),
])
def test_count_exit_codes(text, code, word):
    result = run("count", text)
    assert result.exit_code == code, result.output
    assert word in result.output


def test_clash_is_named():
    result = run("count", BY_NAME["clash"].text)
    assert "A1 and A2 both hold 1" in result.output


def test_unknown_on_time_limit():
    result = run("count", "." * 625, "--time-limit", "0", "--solver", "native:rules=none")
    assert result.exit_code == Exit.UNKNOWN, result.output
    assert "unknown" in result.output


def test_exit_table_is_the_same_in_help_and_the_docs():
    # The table is docs/commands.md's "Exit codes", the page README links for it; every row
    # is a member of Exit and every member a row, as --help gives them.
    table = section(DOCS / "commands.md", "Exit codes")
    rows = {line for line in table.splitlines() if re.match(r"\| \d+ \|", line)}
    helped = " ".join(run("--help").output.split())
    for code in Exit:
        assert f"| {code.value} | {code.meaning} |" in rows, code
        assert f"{code.value} {code.meaning}" in helped, code
    assert len(rows) == len(Exit) == len({c.value for c in Exit})
    assert "(docs/commands.md#exit-codes)" in text(README)


def _help_at(columns: int, *args: str) -> list[str]:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= columns  # the width took effect
    return lines


def test_every_command_summary_fits_one_line_of_help_at_80_columns():
    lines = _help_at(80)
    for name, (_, summary) in COMMANDS.items():
        row = next(line for line in lines if line.startswith(f"│ {name} "))
        assert summary in row, f"{name}: its summary is broken over two lines at 80 columns"


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_help_paragraphs_are_wrapped_only_where_the_terminal_ends(name):
    # Every line of a paragraph but its last is full: the next word would not have fitted
    # (a docstring's own line breaks, kept, broke sentences mid-line at 80 columns).
    width = 80
    lines = _help_at(width, *filter(None, [name]))
    text = lines[:next(i for i, line in enumerate(lines) if line.startswith("╭"))]
    paragraph: list[str] = []
    for line in [*text, ""]:
        if line.strip():
            paragraph.append(line.rstrip())
            continue
        for this, after in itertools.pairwise(paragraph):
            word = after.split()[0]
            assert len(this) + 1 + len(word) > width - 1, (name, this, after)
        paragraph = []


@pytest.mark.parametrize(("args", "expected"), [
    (["solve", "12345678" + "." * 72], "expected a square number of cells"),
    (["solve", "1" * 80 + "?"], "column 81: unknown symbol '?'"),
    (["solve", "A" + "." * 80], "out of range for a 9x9 puzzle"),
    (["solve", GRID2, "--solver", "nope"], "unknown solver 'nope'"),
    (["solve", GRID2, "--solver", "native:rules=bogus"], "unknown rules"),
    (["solve", GRID2, "--box", "2x2"], "does not tile"),
    (["solve", GRID2, "--box", "3by3"], "expected ROWSxCOLS"),
    (["solve", "no/such/file.txt"], "no such file"),
    (["solve", GRID2, "--variant", "hexagonal"], "unknown variant"),
    (["solve", GRID2, "--regions", "AB" * 40 + "C"], "regions"),
])
def test_input_errors_are_one_line_with_exit_6(args, expected):
    result = run(*args)
    assert result.exit_code == Exit.INPUT, result.output
    assert expected in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output + result.stderr


def test_bad_line_in_file_names_the_line(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"# two good, one bad\n{GRID2}\n{GRID2}\n\n{GRID2[:-1]}Z\n")
    result = run("count", str(path))
    assert result.exit_code == Exit.INPUT
    assert "line 5, column 81" in result.stderr
    assert result.stdout.count("unique") == 2  # the good ones were reported before


def test_file_lines_and_json(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\tfrom top95\n{HARD1}\n{BY_NAME['clash'].text}\n")
    result = run("count", str(path))
    assert result.exit_code == Exit.OK, result.output
    lines = result.stdout.strip().splitlines()
    assert [line.split("\t")[1] for line in lines] == ["unique", "multiple", "none"]
    result = run("count", str(path), "--json")
    records = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert [r["index"] for r in records] == [1, 2, 3]
    assert [r["status"] for r in records] == ["unique", "multiple", "none"]
    assert records[0]["metadata"] == "from top95"
    assert is_solution(parse(GRID2), parse(records[0]["solution"]).givens)
    assert records[2]["solution"] is None and "clash" in records[2]["message"]
    for record in records:
        assert {"index", "puzzle", "status", "solution", "seconds", "stats"} <= record.keys()


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_output_is_the_records_file_csv(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\tfrom, \"top95\"\n{HARD1}\n{BY_NAME['clash'].text}\n")
    out_file = tmp_path / "r.csv"
    # Both runs from new solvers, as two processes would be: a shared incremental solver
    # keeps what it learnt, so the second run could find another of HARD1's solutions.
    get_backend.cache_clear()
    printed = run("count", str(path), "--csv", "--out", str(out_file))
    assert printed.exit_code == Exit.OK, printed.output
    assert printed.stdout == out_file.read_text()  # the same lines as the --out file
    assert printed.stdout.splitlines()[0] == ",".join(RECORD_FIELDS)
    rows = csv_rows(printed.stdout)
    get_backend.cache_clear()
    as_json = [json.loads(line) for line in run("count", str(path), "--json").stdout.splitlines()]
    # The same fields, in order; a puzzle with no solution also gets the parts that conflict
    # in JSON (they have no CSV column).
    conflict = ["conflict", "conflict_cells", "conflict_minimal", "conflict_seconds"]
    assert [list(r) for r in rows] == [[k for k in r if k not in conflict] for r in as_json]
    assert list(as_json[2])[-4:] == conflict and as_json[2]["status"] == "none"
    for row, record in zip(rows, as_json, strict=True):
        for field in ("index", "puzzle", "status", "verdict", "solutions", "metadata"):
            assert row[field] == str(record[field]), field
        assert row["solution"] == (record["solution"] or "")
        assert json.loads(row["stats"]) == record["stats"]
    assert rows[0]["metadata"] == 'from, "top95"'


def test_csv_for_one_puzzle_and_for_check():
    result = run("solve", GRID2, "--csv")
    assert result.exit_code == Exit.OK, result.output
    (row,) = csv_rows(result.stdout)
    assert row["spec"] == "auto" and row["solution"] == BY_NAME["grid2"].solution
    assert json.loads(row["stats"])["winner"] == f"native:nodes={NODES}"  # the default's choice
    result = run("count", HARD1, "--csv")
    assert result.exit_code == Exit.MULTIPLE and csv_rows(result.stdout)[0]["status"] == "multiple"
    # check: the flat records, one row per (puzzle, solver), the cross-check in each
    result = run("check", GRID2, "--csv", "-s", "native", "-s", "native:rules=singles")
    assert result.exit_code == Exit.OK, result.output
    rows = csv_rows(result.stdout)
    assert [r["spec"] for r in rows] == ["native", "native:rules=singles"]
    assert {(r["index"], r["verdict"], r["agreed"]) for r in rows} == {("1", "unique", "True")}


@pytest.mark.parametrize("command", [["solve", GRID2], ["count", GRID2], ["check", GRID2],
                                     ["compare"]])
def test_json_and_csv_together_is_a_usage_error(command):
    result = run(*command, "--json", "--csv", "-s", "native")
    assert result.exit_code == Exit.USAGE, result.output
    assert "--json and --csv, not both" in result.stderr
    assert result.stdout == ""  # refused before any work


def test_stdin_multiline_grid_gives_its_verdict():
    grid = to_grid(parse(GRID2))
    result = run("count", "-", input=grid + "\n")
    assert result.exit_code == Exit.OK, result.output
    assert "unique" in result.output


def test_count_all_and_limit():
    result = run("count", "." * 16, "--limit", "0", "--json")
    assert json.loads(result.stdout)["solutions"] == 288


def test_variants_and_jigsaw_options(tmp_path):
    case = BY_NAME["diagonal+anti-knight"]
    result = run("count", case.text, "-v", "diagonal", "-v", "anti-knight")
    assert result.exit_code == Exit.OK, result.output
    regions = tmp_path / "regions.txt"
    regions.write_text("# a jigsaw map\n" + JIGSAW_MAP.replace(" ", "\n") + "\n")
    result = run("count", BY_NAME["jigsaw"].text, "--regions", str(regions), "--json")
    assert json.loads(result.stdout)["solution"] == BY_NAME["jigsaw"].solution


def test_rules_and_branch_shortcuts():
    result = run("count", GRID2, "--rules", "singles", "--branch", "first", "--json")
    assert json.loads(result.stdout)["spec"] == "native:rules=singles,branch=first"
    result = run("count", GRID2, "--rules", "singles", "--solver", "cpsat")
    assert result.exit_code == Exit.INPUT


def test_propagate_only_mode():
    result = run("count", GRID2, "--solver", "native:rules=singles,search=off")
    assert result.exit_code == Exit.UNKNOWN
    assert "propagation alone" in result.output
    result = run("count", BY_NAME["grid1"].text, "--solver", "native:search=off")
    assert result.exit_code == Exit.OK


def test_show_with_candidates():
    result = run("show", GRID2, "--candidates", "--rules", "singles")
    assert result.exit_code == Exit.OK, result.output
    assert "17 givens" in result.output
    assert "candidates after singles propagation" in result.output
    result = run("show", BY_NAME["clash"].text, "--candidates")
    assert result.exit_code == Exit.NONE
    assert "A1 and A2" in result.output


def test_solvers_lists_options():
    result = run("solvers")
    assert result.exit_code == 0, result.output
    for word in ("native", "rules", "branch", "degree"):
        assert word in result.output


def test_real_subprocess():
    proc = subprocess.run([sys.executable, "-m", "sudoku_csp", "count", GRID2, "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "unique"
    proc = subprocess.run([sys.executable, "-m", "sudoku_csp", "solve", "x"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == Exit.INPUT
    assert proc.stderr.startswith("error: line 1") and "Traceback" not in proc.stderr


def test_encode_puzzle_and_reduced(tmp_path):
    result = run("encode", GRID2)
    assert result.exit_code == 0, result.output
    header = [line for line in result.stdout.splitlines() if line.startswith("p cnf")]
    assert header and header[0].split()[2] == "729"
    full_clauses = int(header[0].split()[3])
    out_file = tmp_path / "grid2.cnf"
    result = run("encode", GRID2, "--reduce", "--encoding", "minimal", "--amo", "ladder",
                 "-o", str(out_file))
    assert result.exit_code == 0, result.output
    reduced = [line for line in out_file.read_text().splitlines() if line.startswith("p cnf")]
    assert int(reduced[0].split()[3]) < full_clauses


def test_encode_errors():
    assert run("encode").exit_code == Exit.INPUT
    result = run("encode", GRID2, "--encoding", "maximal")
    assert result.exit_code == Exit.INPUT and "maximal" in result.stderr
    result = run("encode", GRID2, "--amo", "nope")
    assert result.exit_code == Exit.INPUT and "nope" in result.stderr


def test_encode_empty_matches_the_repository_folder(tmp_path):
    from pathlib import Path

    result = run("encode", "--empty", str(tmp_path))
    assert result.exit_code == 0, result.output
    repo = Path(__file__).resolve().parent.parent / "encodings"
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written and set(written) <= {p.name for p in repo.iterdir()}
    for name in written:
        assert (tmp_path / name).read_text() == (repo / name).read_text(), name


def test_sat_and_cpsat_solvers_from_the_cli():
    for spec in ("sat", "sat:solver=glucose4,encoding=minimal", "cpsat", "cpsat:model=boolean"):
        result = run("count", GRID2, "--solver", spec, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["status"] == "unique"
    result = run("count", GRID2, "--solver", "sat:solver=nosuch")
    assert result.exit_code == Exit.INPUT and "glucose4" in result.stderr


def test_check_agrees_and_reports(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n{HARD1}\n{BY_NAME['clash'].text}\n")
    result = run("check", str(path))
    assert result.exit_code == Exit.OK, result.output
    lines = result.stdout.strip().splitlines()
    assert [line.split("\t")[1] for line in lines[:3]] == ["unique", "multiple", "none"]
    assert len(lines) == 3  # the summary goes to stderr, like the other commands
    summary = result.stderr.strip().splitlines()[-1]
    assert "all verdicts agreed" in summary and "native, sat, cpsat" in summary
    result = run("check", str(path), "--json", "-s", "native", "-s", "native:rules=singles")
    verdicts = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert [v["index"] for v in verdicts] == [1, 2, 3]
    assert all(v["agreed"] and set(v["specs"]) == {"native", "native:rules=singles"}
               for v in verdicts)


# Propagation by singles alone does not finish GRID2: that spec answers unknown.
SINGLES_ONLY = "native:rules=singles,search=off"


def test_check_says_when_only_one_backend_decided(tmp_path):
    result = run("check", GRID2, "-s", "sat", "-s", SINGLES_ONLY, "--json")
    assert result.exit_code == Exit.UNKNOWN, result.output  # nothing cross-checked it
    verdict = json.loads(result.stdout)
    assert (verdict["status"], verdict["decided"], verdict["agreed"]) == ("unique", 1, False)
    result = run("check", GRID2, "-s", "sat", "-s", SINGLES_ONLY)
    assert result.exit_code == Exit.UNKNOWN
    assert result.stdout.split("\t")[1:3] == ["unique", "decided by one backend"]
    assert "1 decided by fewer than two backends (not cross-checked)" in result.stderr
    rows = list(csv.DictReader(io.StringIO(run("check", GRID2, "-s", "sat", "-s",
                                               SINGLES_ONLY, "--csv").stdout)))
    assert {(r["agreed"], r["decided"]) for r in rows} == {("False", "1")}
    # Two that decide: agreed, and the verdict's own code.
    result = run("check", GRID2, "-s", "sat", "-s", "native", "--json")
    assert result.exit_code == Exit.OK and json.loads(result.stdout)["agreed"]
    # compare's title says it too; nothing contradicted, so it exits 0.
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n{GRID1}\n")
    result = run("compare", str(path), "-s", "sat", "-s", SINGLES_ONLY)
    assert result.exit_code == Exit.OK, result.output
    assert "decided by fewer than two solvers (not cross-checked)" in result.stdout
    assert "all solvers agreed" not in result.stdout


def test_counts_of_one_are_singular_and_flags_are_words(tmp_path):
    result = run("check", GRID2, "-s", "native", "-s", "sat")
    assert "1 puzzle checked with native, sat" in result.stderr, result.stderr
    shown = run("show", "3" + "." * 15)
    assert shown.stdout.startswith("4x4, 1 given\n")
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n")
    table = run("compare", str(path), "-s", "native", "-s", "sat", "--columns",
                "spec,agreed").stdout
    assert "True" not in table and table.count(" yes ") == 2, table
    (row, _) = [json.loads(line) for line in run(
        "compare", str(path), "-s", "native", "-s", "sat", "--json").stdout.splitlines()]
    assert row["agreed"] is True  # JSON keeps its booleans


class Liar(BackendBase):
    """A deliberately broken backend: every puzzle has no solution."""

    name = "liar"
    description = "says none"

    def solve(self, puzzle, *, limit=1, time_limit=None):
        return Result(Status.NONE, solver=self.spec)


@pytest.mark.slow  # compare's bundled sets
def test_check_exits_7_on_disagreement(monkeypatch):
    monkeypatch.setitem(BACKENDS, "liar", "test_cli:Liar")  # registered like any backend
    result = run("check", GRID2, "-s", "native", "-s", "liar")
    assert result.exit_code == Exit.DISAGREEMENT, result.output
    assert "DISAGREEMENT" in result.stdout and "; 1 DISAGREEMENT\n" in result.stderr
    result = run("compare", "-s", "native", "-s", "liar", "--json", "--time-limit", "600")
    assert result.exit_code == Exit.DISAGREEMENT, result.output


@pytest.mark.slow  # the README's first command: 210 bundled puzzles
def test_compare_on_bundled_sets_and_outputs(tmp_path):
    # No file: the bundled sets; no time limit, so that a loaded machine still decides all.
    result = run("compare", "-s", "native", "--json", "--time-limit", "600")
    assert result.exit_code == Exit.OK, result.output
    (row,) = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert row["spec"] == "native" and row["puzzles"] == 210 and row["unique"] == 210
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n{HARD1}\n")
    specs = ["-s", "native", "-s", "native:rules=singles"]
    result = run("compare", str(path), *specs)
    assert result.exit_code == Exit.OK, result.output
    assert "all solvers agreed" in result.stdout
    for column in ("puz/s", "mean ms", "median", "p95", "max", "nodes", "prop.%"):
        assert column in result.stdout
    result = run("compare", str(path), *specs, "--csv")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("spec,puzzles,solved") and len(lines) == 3


def test_compare_out_resume_and_plot(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n{HARD1}\n")
    out_file = tmp_path / "records.jsonl"
    plot = tmp_path / "cactus.png"
    result = run("compare", str(path), "-s", "native", "--out", str(out_file),
                 "--plot", str(plot))
    assert result.exit_code == Exit.OK, result.output
    assert len(out_file.read_text().splitlines()) == 2
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = run("compare", str(path), "-s", "native", "--out", str(out_file), "--resume",
                 "--json")
    assert result.exit_code == Exit.OK, result.output
    assert json.loads(result.stdout)["puzzles"] == 2  # the whole run, nothing redone
    assert len(out_file.read_text().splitlines()) == 2
    assert run("compare", str(path), "--resume").exit_code == 2  # a usage error


def test_compare_reads_a_puzzle_or_link_given_alone(tmp_path):
    from sudoku_csp.io import fpuzzles_url

    result = run("compare", "3.1...4.2.......", "-s", "native", "-s", "sat")
    assert result.exit_code == Exit.OK, result.output
    assert "the 4x4 puzzle given: all solvers agreed" in result.stdout
    out = tmp_path / "r.jsonl"
    jigsaw = BY_NAME["jigsaw"].puzzle()
    result = run("compare", fpuzzles_url(jigsaw), "-s", "native", "-s", "sat", "--json",
                 "--out", str(out))
    assert result.exit_code == Exit.OK, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["spec"], r["puzzles"], r["unique"]) for r in rows] == [
        ("native", 1, 1), ("sat", 1, 1)]
    assert [parse(json.loads(line)["puzzle"]) for line in out.read_text().splitlines()] \
        == [jigsaw] * 2
    # A missing file is still one.
    assert "no such file" in run("compare", "no/such/file.txt").output


@pytest.mark.parametrize("command", [["solve"], ["check"], ["compare", "-s", "native"]])
def test_a_resumed_runs_progress_starts_at_the_puzzles_done(tmp_path, monkeypatch, command):
    from sudoku_csp.cli import solving

    bars = []

    class Recording:  # the progress bar, counting what it is told
        def __init__(self, total, what, always=False, done=0) -> None:
            self.start = self.count = done
            bars.append(self)

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def advance(self, steps=1) -> None:
            self.count += steps

    monkeypatch.setattr(solving, "Bar", Recording)
    lines = [c.text for c in CASES if not c.options][:5]
    first, five = tmp_path / "three.txt", tmp_path / "five.txt"
    first.write_text("".join(f"{line}\n" for line in lines[:3]))
    five.write_text("".join(f"{line}\n" for line in lines))
    out = tmp_path / "records.jsonl"
    run(*command, str(first), "--out", str(out))
    result = run(*command, str(five), "--out", str(out), "--resume")
    assert result.exit_code in (Exit.OK, Exit.NONE), result.output
    assert (bars[-1].start, bars[-1].count) == (3, 5)


def test_count_file_with_two_jobs_matches_one(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("".join(f"{c.text}\n" for c in (BY_NAME["grid1"], BY_NAME["hard1"],
                                                     BY_NAME["clash"])) * 3)
    one = run("count", str(path), "--json")
    two = run("count", str(path), "--json", "--jobs", "2")
    assert one.exit_code == two.exit_code == Exit.OK, two.output

    def verdicts(result):
        return [(r["index"], r["status"]) for r in map(json.loads, result.stdout.splitlines())]

    assert verdicts(one) == verdicts(two) and len(verdicts(one)) == 9


def test_certify_and_verify(tmp_path):
    folder = tmp_path / "cert"
    result = run("certify", GRID2, str(folder))
    assert result.exit_code == Exit.OK, result.output
    assert "unique" in result.stdout
    result = run("verify-certificate", str(folder))
    assert result.exit_code == Exit.OK, result.output
    assert "valid" in result.stdout
    proof = folder / "proof.drup"
    lines = proof.read_text().splitlines()
    proof.write_text("\n".join(lines[: len(lines) // 3]) + "\n")  # most lemmas gone
    result = run("verify-certificate", str(folder))
    assert result.exit_code == Exit.INVALID, result.output
    assert "INVALID" in result.stdout
    assert run("certify", HARD1, str(tmp_path / "h")).exit_code == Exit.MULTIPLE
    assert run("verify-certificate", str(tmp_path / "nothing")).exit_code == Exit.INPUT


def test_minimal_lists_redundant_givens(tmp_path):
    from sudoku_csp import EMPTY, Puzzle, solve

    puzzle = parse(GRID2)
    solution = solve(puzzle).solution
    extra = next(c for c, d in enumerate(puzzle.givens) if d == EMPTY)
    givens = list(puzzle.givens)
    givens[extra] = solution[extra]
    padded = Puzzle(puzzle.geometry, tuple(givens))
    result = run("minimal", to_line(padded), "--json")
    assert result.exit_code == Exit.NOT_MINIMAL, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "unique" and not record["minimal"]
    assert puzzle.geometry.label(extra) in record["redundant"]
    assert run("minimal", HARD1).exit_code == Exit.MULTIPLE


def test_generate_is_reproducible_and_unique(tmp_path):
    out_file = tmp_path / "gen.txt"
    result = run("generate", "--count", "3", "--seed", "5", "--minimal", "--symmetry",
                 "rot180", "-o", str(out_file))
    assert result.exit_code == Exit.OK, result.output
    lines = out_file.read_text().splitlines()
    assert lines[0].startswith("# sudoku-csp generate --count 3")
    again = run("generate", "--count", "3", "--seed", "5", "--minimal", "--symmetry", "rot180")
    assert [line.split("\t")[0] for line in again.stdout.splitlines()] == \
        [line.split("\t")[0] for line in lines[1:]]
    result = run("check", str(out_file))
    assert result.exit_code == Exit.OK and "3 unique" in result.stderr
    result = run("generate", "--size", "6", "--count", "2", "--seed", "1")
    assert result.exit_code == Exit.OK and len(result.stdout.splitlines()) == 2


def test_choices_in_help_come_from_the_library_tables():
    from sudoku_csp.certify import PROOF_SOLVERS
    from sudoku_csp.encodings.cnf import AMO_CHOICES, Encoding
    from sudoku_csp.native import BRANCHING, PRESETS, RULES
    from sudoku_csp.symmetry import SYMMETRIES
    from sudoku_csp.variants import VARIANTS

    def words(*args):
        return " ".join(run(*args, "--help").output.split())

    solve_help, encode_help = words("solve"), words("encode")
    for name in [*VARIANTS, *PRESETS, *RULES, *BRANCHING]:
        assert name in solve_help, name
    for name in [*(e.value for e in Encoding), *AMO_CHOICES]:
        assert name in encode_help, name
    certify_help = words("certify")
    assert all(name in certify_help for name in PROOF_SOLVERS)
    generate_help = words("generate")
    assert all(name in generate_help for name in SYMMETRIES)
    result = run("generate", "--symmetry", "spiral")
    assert result.exit_code == Exit.INPUT and "unknown symmetry 'spiral'" in result.stderr


class Wrong(BackendBase):
    """A deliberately broken backend: returns a grid that breaks the rules."""

    name = "wrong"
    description = "wrong grids"

    def solve(self, puzzle, *, limit=1, time_limit=None):
        from sudoku_csp.backends.base import make_result

        grid = (0,) * puzzle.geometry.ncells
        return make_result(puzzle, [grid], limit=limit, complete=True, timed_out=False,
                           solver=self.spec, seconds=0.0, stats={})


def test_a_wrong_answer_is_an_internal_error(monkeypatch, tmp_path):
    monkeypatch.setitem(BACKENDS, "wrong", "test_cli:Wrong")
    path = tmp_path / "p.txt"
    path.write_text(f"{GRID2}\n{HARD1}\n")
    for args in (["count", GRID2, "-s", "wrong"], ["count", str(path), "-s", "wrong"],
                 ["count", GRID2, "-s", "wrong", "--json"]):
        result = run(*args)
        assert result.exit_code == Exit.INTERNAL, (args, result.output)
        assert "wrong" in result.stderr


class Failing(BackendBase):
    """A backend that fails inside: what it raises is set by each test."""

    name = "failing"
    description = "raises"
    raises: BaseException = RuntimeError("boom")

    def solve(self, puzzle, *, limit=1, time_limit=None):
        raise Failing.raises


@pytest.mark.parametrize(("exc", "code", "words"), [
    (DecodeError("cell A1 gets two digits (1 and 2)"), Exit.INTERNAL,
     "internal error: cell A1 gets two digits"),
    (CpSatError("CP-SAT returned MODEL_INVALID"), Exit.INTERNAL, "internal error: CP-SAT"),
    (RuntimeError("boom"), Exit.INTERNAL, "internal error: RuntimeError: boom"),
    (ZeroDivisionError("division by zero"), Exit.INTERNAL, "internal error: ZeroDivisionError"),
    (KeyboardInterrupt(), Exit.INTERRUPTED, "interrupted"),
    (SpecError("failing: bad option"), Exit.INPUT, "error: failing: bad option"),
])
@pytest.mark.parametrize("as_file", [False, True])
def test_every_failure_is_one_line_and_its_exit_code(monkeypatch, tmp_path, exc, code, words,
                                                     as_file):
    monkeypatch.setitem(BACKENDS, "failing", "test_cli:Failing")
    monkeypatch.setattr(Failing, "raises", exc)
    source = GRID2
    if as_file:
        source = str(tmp_path / "p.txt")
        Path(source).write_text(f"{GRID2}\n{HARD1}\n")
    result = run("count", source, "-s", "failing")
    assert result.exit_code == code, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert words in result.stderr
    assert "Traceback" not in result.output


def test_a_value_error_inside_the_library_is_not_blamed_on_the_input(monkeypatch):
    monkeypatch.setitem(BACKENDS, "failing", "test_cli:Failing")
    monkeypatch.setattr(Failing, "raises", ValueError("an internal invariant broke"))
    result = run("count", GRID2, "-s", "failing")
    assert result.exit_code == Exit.INTERNAL, result.output
    assert result.stderr.startswith("internal error: ValueError")


def test_record_lines_are_buffered_and_flushed_at_least_every_half_second(monkeypatch):
    from sudoku_csp.cli import output

    class Out(io.StringIO):
        flushes = 0

        def flush(self) -> None:
            Out.flushes += 1
            super().flush()

    monkeypatch.setattr(sys, "stdout", Out())
    monkeypatch.setattr(output.emit, "flushed", time.monotonic() - 2 * output.FLUSH_EVERY)
    output.emit("1\n")  # the last flush is long past: this line goes out at once
    output.emit("2\n")  # just after: it waits in the buffer
    assert (sys.stdout.getvalue(), Out.flushes) == ("1\n2\n", 1)


# Every option that writes a file takes - for standard output, and then writes only that.
DASH_WRITERS = {
    "show --svg": (["show", GRID2, "--svg", "-"], "<svg", "</svg>"),
    "candidates --svg": (["candidates", "3.1...4.2.......", "--svg", "-"], "<svg", "</svg>"),
    "explain --html": (["explain", "3.1...4.2.......", "--html", "-"], "<!DOCTYPE html>",
                       "</html>"),
    "generate -o": (["generate", "--size", "4", "--seed", "1", "-o", "-"], "", ""),
    "encode -o": (["encode", "3.1...4.2.......", "-o", "-"], "c sudoku_csp CNF", " 0"),
}


@pytest.mark.parametrize("name", DASH_WRITERS)
def test_every_file_option_takes_dash_for_standard_output(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)  # a file named '-' would land here
    args, first, last = DASH_WRITERS[name]
    result = run(*args)
    assert result.exit_code == Exit.OK, result.output
    assert not (tmp_path / "-").exists(), f"{name} - wrote a file named '-'"
    assert result.stdout.startswith(first) and result.stdout.rstrip().endswith(last)
    plain = [a for a in args if a not in ("--svg", "--html", "-o", "-")]
    if name in ("generate -o", "encode -o"):  # - is where they write anyway
        assert result.stdout == run(*plain).stdout


def test_records_out_dash_is_refused_not_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("solve", "3.1...4.2.......", "--out", "-")
    assert result.exit_code == Exit.USAGE and not (tmp_path / "-").exists()
    assert "with --json or --csv" in " ".join(result.stderr.replace("│", " ").split())


def test_show_names_a_killers_cages_in_the_text_view():
    result = run("show", "AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    assert result.exit_code == Exit.OK, result.output
    assert "8 killer cages: cage 3 at A1–A2, cage 7 at A3–A4" in result.stdout


def test_show_lists_every_kind_of_constraint_in_the_text_view():
    # Through the kinds' own hooks: each kind's summary; each piece of a kind that is not
    # held once for the whole grid, by its describe (first and last cells named).
    from sudoku_csp import EMPTY, Puzzle, get_backend, make_geometry
    from sudoku_csp.constraints import KINDS

    g = make_geometry(9)
    grid = get_backend("native").solve(Puzzle.empty(g)).solution
    rng = random.Random(5)
    shown = 0
    for kind in KINDS:
        mine = kind.sample(g, grid, rng)
        if not mine:
            continue
        puzzle = Puzzle(g, (EMPTY,) * g.ncells, constraints=tuple(mine))
        result = run("show", to_line(puzzle))
        assert result.exit_code == Exit.OK, (kind.kind, result.output)
        text = " ".join(result.stdout.split())
        for line in kind.summary(mine, g):
            assert line in text, kind.kind
        if not kind.single:
            for c in mine:
                assert c.describe(g, g.label) in text, kind.kind
        shown += 1
    assert shown >= len(KINDS) - 2


def test_show_svg_dash_writes_only_the_picture_to_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file named '-' would land here
    result = run("show", GRID2, "--candidates", "--svg", "-")
    assert result.exit_code == Exit.OK, result.output
    assert result.stdout.startswith("<svg") and result.stdout.rstrip().endswith("</svg>")
    ElementTree.fromstring(result.stdout)  # one well-formed picture, nothing around it
    assert not (tmp_path / "-").exists()


def test_every_command_has_a_one_line_summary_in_help():
    import typer.main

    commands = typer.main.get_command(app).commands
    for name, command in commands.items():
        summary = (command.help or "").split("\n\n")[0]
        assert summary and "\n" not in summary and len(summary) <= 76, (name, summary)
