"""The setter commands (candidates, disambiguate) and the conflict report of count, solve,
check, explain and show, through typer's CliRunner."""

from __future__ import annotations

import json
import warnings
from xml.etree import ElementTree

from typer.testing import CliRunner

from sudoku_csp import parse
from sudoku_csp.cli import Exit, app
from sudoku_csp.errors import ReaderNote

runner = CliRunner()
BROKEN = "..214.....1....."   # R1C1, R1C2 need 3 and 4; R2C1's 4 takes both places of 4
CONFLICT = "no solution: these 3 parts conflict: given R1C3=2, given R1C4=1, given R2C1=4"
LOOSE = "12..34.........."   # several solutions, none told apart by one given
SIX = ".......56.23.3..6.5.4.31.4..123..645"  # 6x6: three solutions


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# -- candidates -------------------------------------------------------------------------------
def test_candidates_text_grid_and_exit_codes():
    result = run("candidates", LOOSE)
    assert result.exit_code == Exit.MULTIPLE, result.output
    assert "34   34" in result.output and "1234 1234" in result.output
    assert "several solutions: 12 cells open, 36 true candidates" in result.output
    unique = run("candidates", "3.1...4.2.......")
    assert unique.exit_code == Exit.OK and "unique: 0 cells open" in unique.output
    none = run("candidates", BROKEN)
    assert none.exit_code == Exit.NONE and CONFLICT in none.output


def test_candidates_json_maps_cells_to_digits_and_counts():
    result = run("candidates", LOOSE, "--json", "--cap", "2")
    record = json.loads(result.output)
    assert record["status"] == "multiple" and record["cap"] == 2
    assert record["candidates"]["R1C3"] == [3, 4] and record["counts"]["R1C3"] == {"3": 2,
                                                                                   "4": 2}
    assert record["differences"]
    broken = json.loads(run("candidates", BROKEN, "--json").output)
    assert broken["status"] == "none"
    assert broken["conflict"] == ["given R1C3=2", "given R1C4=1", "given R2C1=4"]


def test_candidates_svg_colours_each_digit_by_its_count(tmp_path):
    path = tmp_path / "tc.svg"
    result = run("candidates", LOOSE, "--svg", str(path), "--cap", "4")
    assert result.exit_code == Exit.MULTIPLE
    root = ElementTree.fromstring(path.read_text(encoding="utf-8"))
    colours = {el.get("fill") for el in root.iter("{http://www.w3.org/2000/svg}text")
               if el.get("class") == "candidate"}
    assert {"#b07d00", "#c0392b"} <= colours  # few (yellow) and many (red)
    alone = run("candidates", LOOSE, "--svg", "-")
    assert alone.output.startswith("<svg") and "several" not in alone.output


def test_candidates_as_fpuzzles_pencil_marks_read_back_as_notes():
    result = run("candidates", LOOSE, "--to", "fpuzzles", "--cap", "2")
    document = json.loads(result.output)
    assert document["grid"][0][2]["centerPencilMarks"] == [3, 4]
    assert "centerPencilMarks" not in document["grid"][0][0]  # a given
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", ReaderNote)
        back = parse(result.output.strip())
    assert back.givens == parse(LOOSE).givens and not back.constraints
    assert any("pencil" in str(w.message) for w in said)
    url = run("candidates", LOOSE, "--to", "fpuzzles-url")
    assert url.output.startswith("https://f-puzzles.com/?load=")
    assert run("candidates", LOOSE, "--to", "nothing").exit_code == Exit.USAGE


# -- disambiguate -------------------------------------------------------------------------------
def test_disambiguate_lists_single_givens_and_those_keeping_a_solution():
    puzzle = parse(SIX)
    from sudoku_csp.setter import true_candidates

    tc = true_candidates(puzzle, cap=2)
    assert tc.status == "multiple"
    keep = "".join(str(d + 1) for d in tc.solutions[-1])
    result = run("disambiguate", SIX, "--keep", keep)
    assert result.exit_code == Exit.OK, result.output
    assert "givens alone makes it unique" in result.output
    assert "(keeps your solution)" in result.output
    record = json.loads(run("disambiguate", SIX, "--keep", keep, "--json").output)
    assert record["keeping"] and record["singles"][: len(record["keeping"])] == \
        record["keeping"]
    assert all("=" in s and s.startswith("R") for s in record["singles"])


def test_disambiguate_builds_a_set_when_no_single_given_does():
    result = run("disambiguate", LOOSE)
    assert result.exit_code == Exit.OK
    assert "no single given makes it unique; these 2 together do (each of them needed)" in \
        result.output
    assert json.loads(run("disambiguate", LOOSE, "--json").output)["set_minimal"] is True


def test_disambiguate_on_unique_unsolvable_and_bad_keep():
    assert "already unique" in run("disambiguate", "3.1...4.2.......").output
    none = run("disambiguate", BROKEN)
    assert none.exit_code == Exit.NONE and CONFLICT in none.output
    bad = run("disambiguate", LOOSE, "--keep", "1234")
    assert bad.exit_code == Exit.INPUT and "--keep: " in bad.output
    blanks = run("disambiguate", LOOSE, "--keep", "." * 16)
    assert blanks.exit_code == Exit.INPUT and "full grid of 16" in blanks.output
    wrong = run("disambiguate", LOOSE, "--keep", "1" * 16)
    assert wrong.exit_code == Exit.INPUT and "does not solve" in wrong.output


# -- conflicts in the other commands ----------------------------------------------------------
def test_count_and_solve_name_the_conflict(tmp_path):
    for command in ("count", "solve"):
        result = run(command, BROKEN)
        assert result.exit_code == Exit.NONE and CONFLICT in result.output
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{BROKEN}\n3.1...4.2.......\n", encoding="utf-8")
    lines = run("count", str(puzzles)).output.splitlines()
    assert len(lines) == 2 and lines[0].endswith(f"\t{CONFLICT}")
    records = [json.loads(x) for x in run("count", str(puzzles), "--json").output.splitlines()]
    assert records[0]["conflict"] == ["given R1C3=2", "given R1C4=1", "given R2C1=4"]
    assert "conflict" not in records[1]


def test_check_and_explain_name_the_conflict():
    check = run("check", BROKEN)
    assert check.exit_code == Exit.NONE and check.stdout.strip().endswith(f"\t{CONFLICT}")
    verdict = json.loads(run("check", BROKEN, "--json").output.splitlines()[0])
    assert verdict["conflict_minimal"] and verdict["conflict_cells"] == ["R1C3", "R1C4",
                                                                         "R2C1"]
    explain = run("explain", BROKEN)
    assert explain.exit_code == Exit.NONE and CONFLICT in explain.output
    last = json.loads(run("explain", BROKEN, "--json").output.splitlines()[-1])
    assert last["conflict"] == ["given R1C3=2", "given R1C4=1", "given R2C1=4"]


def test_show_conflict_highlights_the_parts(tmp_path):
    path = tmp_path / "c.svg"
    result = run("show", BROKEN, "--conflict", "--svg", str(path))
    assert result.exit_code == Exit.NONE and CONFLICT in result.output
    assert path.read_text(encoding="utf-8").count('class="highlight"') == 3
    fine = run("show", "3.1...4.2.......", "--conflict")
    assert fine.exit_code == Exit.OK and "no conflict" in fine.output


def test_count_names_where_two_solutions_differ():
    # Which two solutions come first is the solver's own order: the native solver's here.
    result = run("count", LOOSE, "-s", "native")
    assert result.exit_code == Exit.MULTIPLE
    assert "the first two differ in 4 cells: R3C2, R3C4, R4C2, R4C4" in result.output


SPARSE = "1..........2.........3..........................4.........5......................"


def test_a_cut_short_run_says_so_everywhere():
    result = run("candidates", SPARSE, "--time-limit", "0")
    assert result.exit_code == Exit.UNKNOWN
    assert "undecided (time limit)" in result.output
    assert "the time limit left 729 candidates undecided (shown, dim)" in result.output
    document = json.loads(run("candidates", SPARSE, "--time-limit", "0",
                              "--to", "fpuzzles").output)
    full = json.loads(run("candidates", SPARSE, "--to", "fpuzzles").output)
    for row, whole in zip(document["grid"], full["grid"], strict=True):
        for cell, truth in zip(row, whole, strict=True):  # undecided digits kept as marks
            assert set(truth.get("centerPencilMarks", [])) <= set(
                cell.get("centerPencilMarks", []))
    cut = run("disambiguate", SPARSE, "--time-limit", "0")
    assert cut.exit_code == Exit.UNKNOWN and "undecided" in cut.output


def test_the_legend_follows_the_cap():
    assert "yellow: 2 to 3, red: 4 or more" in run("candidates", LOOSE, "--cap", "4").output
    assert "counts not taken (--cap 1)" in run("candidates", LOOSE, "--cap", "1").output


def test_show_conflict_with_candidates_keeps_the_exit_code():
    result = run("show", BROKEN, "--conflict", "--candidates")
    assert result.exit_code == Exit.NONE and CONFLICT in result.output
