"""Every research script in examples/ runs to the end on a small puzzle file."""

from __future__ import annotations

import re
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest
from pages import DOCS, section

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "examples").glob("*.py"))


@pytest.fixture(scope="module")
def small_file(tmp_path_factory) -> Path:
    with open(ROOT / "sudoku_csp" / "data" / "mixed9.txt", encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    path = tmp_path_factory.mktemp("examples") / "five.txt"
    path.write_text("".join(islice(lines, 5)), encoding="utf-8")
    return path


def test_every_example_has_its_line_in_the_benchmarks_page():
    # CONTRIBUTING: a research or benchmark script gets a line in docs/benchmarks.md's list.
    listed = section(DOCS / "benchmarks.md", "The scripts")
    assert len(SCRIPTS) >= 4  # benchmark, batch_benchmark, encodings_study, generate_benchmark
    for script in SCRIPTS:
        assert re.search(rf"^python examples/{re.escape(script.name)} ", listed, re.M), script.name


SMALL_RUNS = {
    # the table's defaults time 50,000-line files: scaled down here
    "performance_table.py": ["--lines", "20", "--count-lines", "40", "--jobs-lines", "20",
                             "--rounds", "1"],
    "line_cost.py": ["--lines", "20", "--rounds", "1"],
    "uniqueness_benchmark.py": ["--rounds", "2", "--e2e", "2", "--phases", "--per-puzzle",
                                "--shuffle"],
    "crosscheck_fuzz.py": ["--count", "20"],
}


@pytest.mark.slow  # subprocesses that time things: about 15 s for the set
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_example_runs(script, small_file):
    proc = subprocess.run([sys.executable, str(script), str(small_file),
                           *SMALL_RUNS.get(script.name, [])], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip(), "an example prints its figures"


def test_unsolvable_variants_move_one_total_to_no_solution(tmp_path, monkeypatch):
    # uniqueness_benchmark --unsolvable: a variant per puzzle with one clue's total moved,
    # which an independent backend also finds unsolvable; a plain puzzle has none.
    from cases import KILLER4

    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    import uniqueness_benchmark as bench

    from sudoku_csp import Status, make_backend, parse

    path = tmp_path / "two.txt"
    path.write_text(f"{KILLER4}\n3...............\n", encoding="utf-8")
    found = bench.unsolvable_variants(bench.entries(str(path), None), 30)
    assert len(found) == 1 and "cage" in found[0].name
    (variant,) = found
    assert make_backend("cpsat").solve(variant.puzzle, limit=1).status is Status.NONE
    assert parse(variant.text).constraints == variant.puzzle.constraints
    moved = set(variant.puzzle.constraints) - set(parse(KILLER4).constraints)
    assert len(moved) == 1
