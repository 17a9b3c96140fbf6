"""A batch record's puzzle reads back as the puzzle that was read, on every input form and
geometry: plain lines and grids read with geometry options, the tool's JSON (one line or
pretty-printed), f-puzzles JSON and links, SudokuPad links; box shapes, jigsaw regions
(in pieces too), variants, and every registered kind through its own ``sample``. Plain
puzzles keep their short line. Then the same through the commands that write records, and
``--resume`` on such records."""

from __future__ import annotations

import csv
import io
import json
import random
import warnings
from functools import cache

import lzstring
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_csp.backends import get_backend
from sudoku_csp.batch import Finished, iter_records, run_to_file
from sudoku_csp.cli import app
from sudoku_csp.constraints import KINDS, UnsupportedError
from sudoku_csp.errors import InputError, ParseError, ReaderNote
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io import (
    fpuzzles_json,
    fpuzzles_url,
    json_line,
    parse,
    puzzle_record,
    puzzle_texts,
    to_grid,
    to_line,
)
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

runner = CliRunner()

GEOMETRIES = {
    "4x4": {"size": 4},
    "4x4 diagonal": {"size": 4, "variants": ("diagonal",)},
    "4x4 jigsaw": {"size": 4, "regions": "AAAB CABB CCDB CDDD"},
    "4x4 regions in pieces": {"size": 4, "regions": "AABB AABB CDCD CDCD",
                              "contiguous": False},
    "6x6": {"size": 6},
    "6x6 3x2 boxes": {"size": 6, "box": (3, 2)},
    "6x6 3x2 anti-king": {"size": 6, "box": (3, 2), "variants": ("anti-king",)},
    "9x9 anti-knight": {"size": 9, "variants": ("anti-knight",)},
    "9x9 disjoint diagonal": {"size": 9, "variants": ("disjoint", "diagonal")},
    "9x9 windoku": {"size": 9, "variants": ("windoku",)},
}
KIND_NAMES = [k.kind for k in KINDS]


@cache
def _grids(name: str) -> tuple[tuple[int, ...], ...]:
    """A few solutions of the geometry's empty grid, which constraints are drawn around."""
    geometry = make_geometry(**GEOMETRIES[name])
    found = get_backend("native").solve(Puzzle.empty(geometry), limit=20).solutions
    assert found, name
    return found


def _puzzle(geometry_name: str, kind_name: str | None, seed: int, density: float) -> Puzzle:
    """Givens of a solution grid, and constraints of the kind drawn around it."""
    rng = random.Random(seed)
    geometry = make_geometry(**GEOMETRIES[geometry_name])
    grid = rng.choice(_grids(geometry_name))
    constraints = ()
    if kind_name is not None:
        kind = next(k for k in KINDS if k.kind == kind_name)
        constraints = tuple(kind.sample(geometry, grid, rng))
    givens = tuple(d if rng.random() < density else EMPTY for d in grid)
    return Puzzle(geometry, givens, "", constraints)


def _read(text: str, **options: object) -> Puzzle:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        return parse(text, **options)


def _options(geometry_name: str) -> dict:
    """The geometry as a command line gives it (--box, --variant, --regions,
    --split-regions)."""
    return {k: v for k, v in GEOMETRIES[geometry_name].items() if k != "size"}


def _forms(puzzle: Puzzle, geometry_name: str) -> dict[str, tuple[str, dict]]:
    """Every form the puzzle can be given in: text, and the options it is read with."""
    options = _options(geometry_name)
    forms = {"line": (to_line(puzzle), options),
             "json": (json_line(puzzle), {}),
             "pretty json": (json.dumps(puzzle_record(puzzle), indent=2), {})}
    if not puzzle.constraints:
        forms["grid"] = (to_grid(puzzle), options)
    try:
        forms["f-puzzles"] = (fpuzzles_json(puzzle), {})
    except UnsupportedError:  # a kind f-puzzles has no form for
        return forms
    link = fpuzzles_url(puzzle)
    forms["f-puzzles link"] = (link, {})
    forms["sudokupad link"] = ("https://sudokupad.app/fpuzzles" + link.partition("load=")[2],
                               {})
    return forms


def _same(a: Puzzle, b: Puzzle) -> bool:
    return (a.geometry == b.geometry and a.givens == b.givens
            and sorted(map(repr, a.constraints)) == sorted(map(repr, b.constraints)))


def _check_reads_back(read: Puzzle, form: str) -> None:
    line = to_line(read, standalone=True)
    back = _read(line)  # no option: the record alone says it all
    assert _same(back, read), (form, read.geometry.name, line)
    if read.geometry == make_geometry(read.size):  # the short line where it says it all
        assert line == to_line(read), (form, line)


@pytest.mark.parametrize("kind_name", [None, *KIND_NAMES])
@settings(max_examples=8, deadline=None, derandomize=True)
@given(geometry_name=st.sampled_from(sorted(GEOMETRIES)), seed=st.integers(0, 2**16),
       density=st.floats(0.0, 0.6))
def test_a_record_line_reads_back_as_the_puzzle_read(kind_name, geometry_name, seed, density):
    puzzle = _puzzle(geometry_name, kind_name, seed, density)
    for form, (text, options) in _forms(puzzle, geometry_name).items():
        read = _read(text, **options)
        if form in ("line", "grid", "json", "pretty json"):  # the tool's own forms lose nothing
            assert _same(read, puzzle), (form, text)
        _check_reads_back(read, form)


def test_every_geometry_is_kept_by_the_record_line():
    for name in GEOMETRIES:
        puzzle = _puzzle(name, None, 1, 0.3)
        for form, (text, options) in _forms(puzzle, name).items():
            _check_reads_back(_read(text, **options), form)


@pytest.mark.parametrize(("field", "words"), [
    ('"split_regions": 1', "expected true or false"),
    ('"split_regions": true', "no regions"),
])
def test_split_regions_in_json_is_checked(field, words):
    with pytest.raises(ParseError, match=words):
        parse('{"size": 4, ' + field + "}")


def test_regions_in_pieces_need_saying_in_json():
    text = '{"size": 4, "regions": "AABB AABB CDCD CDCD"}'
    with pytest.raises(ParseError, match="not contiguous"):
        parse(text)
    assert "jigsaw" in parse(text[:-1] + ', "split_regions": true}').geometry.variants


# -- through the commands that write records ---------------------------------------------------
def _file_of_forms(tmp_path) -> tuple[str, list[Puzzle]]:
    """A puzzle file of one-line puzzles in every form (each read alone), and the puzzles
    as read: a jigsaw from f-puzzles, 3x2 boxes, anti-knight (one with no solution), a
    killer with a diagonal, a SudokuPad scl link with regions, a cage and a global rule."""
    lines = [
        "3.1...4.2.......",
        json_line(_puzzle("6x6 3x2 boxes", None, 3, 0.3)),
        fpuzzles_json(_puzzle("4x4 jigsaw", None, 4, 0.25)),
        fpuzzles_url(_puzzle("4x4 regions in pieces", None, 5, 0.25)),
        fpuzzles_url(_puzzle("9x9 anti-knight", "cage", 6, 0.3)),
        json_line(_puzzle("9x9 disjoint diagonal", "thermometer", 7, 0.3)),
    ]
    # Two 1s a knight's move apart (R1C3, R2C5): no solution, and no clash in a unit.
    clash = Puzzle(make_geometry(9, variants=["anti-knight"]),
                   tuple(0 if cell in (2, 13) else EMPTY for cell in range(81)))
    lines.append(fpuzzles_url(clash))
    scl = {"cellSize": 50,
           "cells": [[{"value": 1} if (r, c) == (0, 0) else {} for c in range(4)]
                     for r in range(4)],
           "regions": [[[0, 0], [0, 1], [0, 2], [1, 0]], [[0, 3], [1, 1], [1, 2], [1, 3]],
                       [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]],
           "cages": [{"cells": [[3, 2], [3, 3]], "value": 5, "unique": True}],
           "global": ["antiking"]}
    lines.append("https://sudokupad.app/scl"
                 + lzstring.LZString().compressToBase64(json.dumps(scl)))
    path = tmp_path / "forms.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path), [_read(line) for line in lines]


def _records_read_back(puzzles: list[Puzzle], lines: list[str]) -> None:
    assert len(lines) == len(puzzles)
    for line, puzzle in zip(lines, puzzles, strict=True):
        assert _same(_read(line), puzzle), (puzzle.geometry.name, line)


def test_the_forms_file_holds_what_it_should(tmp_path):
    _, puzzles = _file_of_forms(tmp_path)
    names = [p.geometry.name for p in puzzles]
    assert names == ["4x4", "6x6 (3x2 boxes)", "4x4 jigsaw", "4x4 jigsaw", "9x9 anti-knight",
                     "9x9 diagonal disjoint", "9x9 anti-knight", "4x4 jigsaw anti-king"]
    assert [bool(p.constraints) for p in puzzles] == [False] * 4 + [True, True, False, True]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_count_out_records_read_back_as_the_puzzles(tmp_path, suffix):
    src, puzzles = _file_of_forms(tmp_path)
    out = tmp_path / f"rec{suffix}"
    result = runner.invoke(app, ["count", src, "--out", str(out)])
    assert result.exit_code == 0, result.output
    _records_read_back(puzzles, [r.puzzle for r in iter_records(out)])


@pytest.mark.parametrize("command", [["count"], ["solve"], ["rate"],
                                     ["check", "-s", "native", "-s", "sat"]])
def test_json_and_csv_output_read_back_as_the_puzzles(tmp_path, command):
    src, puzzles = _file_of_forms(tmp_path)
    result = runner.invoke(app, [*command, src, "--json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    _records_read_back(puzzles, [r["puzzle"] for r in records])
    # The conflict of the puzzle with no solution (the 7th) is worked out on the rules as
    # read: the two 1s a knight's move apart.
    assert records[6]["conflict"] == ["given R1C3=1", "given R2C5=1"]
    result = runner.invoke(app, [*command, src, "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    per_puzzle = 2 if command[0] == "check" else 1  # a row per puzzle and spec
    _records_read_back(puzzles, [row["puzzle"] for row in rows][::per_puzzle])


def test_compare_out_records_read_back_as_the_puzzles(tmp_path):
    src, puzzles = _file_of_forms(tmp_path)
    out = tmp_path / "rec.jsonl"
    result = runner.invoke(app, ["compare", src, "-s", "native", "-s", "sat", "--out",
                                 str(out)])
    assert result.exit_code == 0, result.output
    _records_read_back(puzzles, [r.puzzle for r in iter_records(out)][::2])


# -- resume -----------------------------------------------------------------------------------
def test_resume_on_records_of_every_form(tmp_path):
    src, puzzles = _file_of_forms(tmp_path)
    out = tmp_path / "rec.jsonl"
    assert len(list(run_to_file(puzzle_texts([src]), ["native"], out))) == len(puzzles)
    # Every puzzle compared (1, 2, 4 and the last: 8): the same input resumes, nothing to do.
    assert list(run_to_file(puzzle_texts([src]), ["native"], out, resume=True)) == []
    # Cut after the fifth puzzle: the rest is run, the records read back whole.
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:5]), encoding="utf-8")
    resumed = list(run_to_file(puzzle_texts([src]), ["native"], out, resume=True))
    assert [o.index for o in resumed] == [6, 7, 8]
    _records_read_back(puzzles, [r.puzzle for r in iter_records(out)])


def test_resume_refuses_the_same_givens_under_another_geometry(tmp_path):
    src = tmp_path / "plain.txt"
    plain = ["3.1...4.2.......", "1..." "..1." ".1.." "...1"]
    src.write_text("\n".join(plain) + "\n", encoding="utf-8")
    out = tmp_path / "rec.jsonl"
    list(run_to_file(puzzle_texts([src]), ["native"], out))
    # The same lines read as diagonal puzzles are other puzzles: their verdicts would be
    # mixed with the plain ones' in one file.
    with pytest.raises(InputError, match="without the 4x4 diagonal geometry"):
        list(run_to_file(puzzle_texts([src], variants=["diagonal"]), ["native"], out,
                         resume=True))
    result = runner.invoke(app, ["count", str(src), "--variant", "diagonal", "--out",
                                 str(out), "--resume"])
    assert result.exit_code == 6 and "without the 4x4 diagonal geometry" in result.output


def test_records_of_earlier_versions_are_read_and_refused_for_resume_honestly(tmp_path):
    # A file written before records carried the geometry: a jigsaw's line is its givens.
    jigsaw = _puzzle("4x4 jigsaw", None, 4, 0.25)
    old = {"index": 1, "puzzle": to_line(jigsaw, standalone=False), "spec": "native",
           "status": "unique", "verdict": "unique", "agreed": False, "seconds": 0.001, "stats": {},
           "solutions": 1, "solution": None, "message": "", "metadata": "",
           "complete": True}
    out = tmp_path / "old.jsonl"
    out.write_text(json.dumps(old) + "\n", encoding="utf-8")
    (record,) = iter_records(out)
    assert record.puzzle == to_line(jigsaw, standalone=False) and record.decided == 1
    finished = Finished.load(out, ["native"])
    with pytest.raises(InputError, match="without the 4x4 jigsaw geometry"):
        finished.check_puzzle(1, jigsaw)
    finished.check_puzzle(1, _read(to_line(jigsaw, standalone=False)))  # the plain one it says


@pytest.mark.parametrize(("options", "geometry"), [
    (["--size", "6", "--box", "3x2"], {"size": 6, "box": (3, 2)}),
    (["--variant", "diagonal"], {"size": 9, "variants": ("diagonal",)}),
], ids=["3x2", "diagonal"])
def test_generated_and_shown_lines_read_back_as_the_same_puzzle(options, geometry):
    """What generate prints and show --to line writes is read again with no option: it must
    carry the geometry a plain line cannot say (before, a 3x2-box 6x6 read back with 2x3
    boxes and a diagonal puzzle as a plain one, both with exit 0)."""
    runner = CliRunner()
    made = runner.invoke(app, ["generate", "--count", "1", "--seed", "1", *options])
    assert made.exit_code == 0, made.output
    line = made.stdout.splitlines()[0].split("\t")[0]
    puzzle = _read(line)
    assert puzzle.geometry == make_geometry(**geometry)
    shown = runner.invoke(app, ["show", line, "--to", "line"])
    assert shown.exit_code == 0, shown.output
    assert _read(shown.stdout.strip()) == puzzle
