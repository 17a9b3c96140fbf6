"""f-puzzles and SudokuPad: the envelope read and written (sudoku_csp.io.fpuzzles), the CLI's
--ignore, --treat-line and --to, and published puzzles (tests/fpuzzles_published.jsonl)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import lzstring
import pytest
from cases import published, slow_if
from typer.testing import CliRunner

from sudoku_csp.backends import get_backend
from sudoku_csp.cli import app
from sudoku_csp.errors import ParseError, ReaderNote
from sudoku_csp.io import WRITERS, parse
from sudoku_csp.io.fpuzzles import fpuzzles_json, fpuzzles_url
from sudoku_csp.result import Status


def grid(size: int, **cells: dict) -> list[list[dict]]:
    """An f-puzzles grid, ``cells`` by R1C1 name."""
    rows: list[list[dict]] = [[{} for _ in range(size)] for _ in range(size)]
    for name, cell in cells.items():
        r, c = (int(x) for x in name[1:].split("C"))
        rows[r - 1][c - 1] = cell
    return rows


def doc(size: int = 4, **keys: object) -> str:
    return json.dumps({"size": size, "grid": grid(size), **keys})


def url(document: str) -> str:
    return "https://f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(document)


def test_json_link_and_sudokupad_link_read_the_same_puzzle():
    text = json.dumps({"size": 4, "grid": grid(4, R1C1={"value": 2, "given": True}),
                       "killercage": [{"cells": ["R1C2", "R1C3"], "value": "7"}],
                       "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}]})
    payload = lzstring.LZString().compressToBase64(text)
    puzzles = [parse(text), parse(url(text)),
               parse("https://sudokupad.app/fpuzzles" + payload),
               parse("sudokupad.app/?puzzleid=fpuzzles" + payload)]
    assert all(p == puzzles[0] for p in puzzles)
    assert puzzles[0].givens[0] == 1
    assert sorted(c.kind for c in puzzles[0].constraints) == ["cage", "thermometer"]


@pytest.mark.parametrize("prefix", [
    "https://sudokupad.app/fpuz", "https://beta.sudokupad.app/sudoku/fpuz",
    "sudokupad.app/?puzzleid=fpuz", "https://sudokupad.app/sudoku/fpuzzles"])
def test_sudokupads_fpuz_prefix_carries_an_fpuzzles_payload(prefix):
    # SudokuPad names the f-puzzles format 'fpuz', 'fpuzzles' its alias (its puzzle loader).
    text = doc(4, thermometer=[{"lines": [["R2C1", "R2C2", "R2C3"]]}])
    payload = lzstring.LZString().compressToBase64(text)
    assert parse(prefix + payload) == parse(text)
    assert parse(prefix + payload + "?setting-nogrid=1") == parse(text)  # the link's settings
    assert parse(prefix + lzstring.LZString().compressToEncodedURIComponent(text)) == parse(text)


def test_a_link_is_read_whole_or_refused():
    link = url(doc(4))
    with pytest.raises(ParseError, match="'and more words' after the link: expected the link "
                                         "alone") as caught:
        parse(f"  {link} and more words")
    assert caught.value.column == len(link) + 4
    assert parse(f"{link}\tand more words").metadata == "and more words"  # after a tab
    result = CliRunner().invoke(app, ["solve", f"{link} (by a setter)"])
    assert result.exit_code == 6 and "'(by a setter)' after the link" in result.stderr
    result = CliRunner().invoke(app, ["compare", link, "more"])
    assert result.exit_code == 6 and "is a puzzle, not a puzzle file" in result.stderr


def test_writers_read_back_as_the_same_puzzle():
    p = parse(doc(6, killercage=[{"cells": ["R1C1", "R1C2"], "value": "11"}],
                  antiknight=True))
    for name, write in WRITERS.items():
        back = parse(write(p))
        if name == "line":  # the killer line holds no variants: they travel as options
            back = parse(write(p), variants=["anti-knight"])
        assert back == p, name
    assert fpuzzles_url(p).startswith("https://f-puzzles.com/?load=")


def test_boxes_of_another_shape_are_written_as_regions():
    # f-puzzles' 6x6 boxes are 2x3: 3x2 boxes left unwritten would read back as 2x3.
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.variants import make_geometry

    tall = make_geometry(6, box=(3, 2))
    back = parse(fpuzzles_json(Puzzle(tall, (0,) + (-1,) * 35))).geometry
    assert list(back.boxes) == list(tall.boxes)
    assert "region" not in fpuzzles_json(Puzzle(make_geometry(6), (0,) + (-1,) * 35))


@pytest.mark.parametrize("text, words", [
    (doc(4, foo=[1], bar=True), "foo, bar: not a rule this tool knows"),
    (doc(4, killercage=[{"cells": ["R1C1", "R9C1"], "value": "3"}]),
     "killercage[0].cells[1]: 'R9C1' is not a cell name of a 4x4 grid"),
    (doc(4, killercage=[{"cells": ["R1C1", "R1C2"], "value": "1" * 5000}]),
     "killercage[0].value: expected a whole number from 1 to 10"),
    (doc(4, thermometer=[{"lines": [["R1C1", "R3C1"]]}]), "not a path of neighbours"),
    (doc(4, negative=["bogus"]), "'bogus' is no negative rule"),
    (doc(4, antiknight="yes"), "antiknight: expected true or false"),
    (json.dumps({"size": 4, "grid": [[{}] * 4] * 3}), "grid: expected 4 rows of 4"),
    (json.dumps({"size": 4, "grid": grid(4, R1C1={"value": 7, "given": True})}),
     "grid[0][0].value: expected a digit 1..4"),
    (json.dumps({"size": 4, "grid": grid(4, R1C1={"colour": 1})}),
     "grid[0][0].colour: not a cell key"),
    (json.dumps({"size": 4, "grid": grid(4, R1C1={"region": None})}),
     "grid[0][0].region: expected a region number 0..3, got None"),
    ("https://f-puzzles.com/?load=%%%", "does not decode"),
    ("https://sudokupad.app/abc123xyz", "needs the network"),
    ("https://sudokupad.app/scfAAAA", "scf link is SudokuPad's legacy compact format"),
    ("https://sudokupad.app/sclN4Ig", "scl/ctc"),
])
def test_bad_input_names_the_key_and_what_was_expected(text, words):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert words in str(caught.value)


def test_unknown_keys_can_be_ignored_and_decoration_is_noted():
    text = doc(4, foo=[1], line=[{"lines": [["R1C1", "R1C2"]], "outlineC": "#FFCCAA"}],
               text=[{"cells": ["R1C1"], "value": "hi"}])
    with warnings.catch_warnings(record=True) as noted:
        warnings.simplefilter("always", ReaderNote)
        p = parse(text, ignore=["foo"])
    assert [str(w.message) for w in noted] == list(p.notes)
    assert p.notes[0].startswith("ignored decoration: 1 line, 1 text")
    assert p.notes[1] == "ignored as asked: foo"
    assert p.constraints == ()


@pytest.mark.parametrize("key", ["killercage", "givenPencilMarks", "antiknight"])
def test_ignore_never_leaves_out_a_rule_this_tool_reads(key):
    # It said "ignored as asked: killercage" while the cage was read and in force.
    text = doc(4, killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}], antiknight=True)
    with pytest.raises(ParseError, match=f"--ignore: '{key}' is a rule this tool reads"):
        parse(text, ignore=[key])
    result = runner.invoke(app, ["count", text, "--ignore", key])
    assert result.exit_code == 6 and "ignored as asked" not in result.output


def test_a_solvers_digits_and_marks_are_no_givens_and_are_noted():
    text = json.dumps({"size": 4, "grid": grid(4, R1C1={"value": 2},
                                               R1C2={"centerPencilMarks": [1, 3]},
                                               R1C3={"value": 4, "given": True})})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        p = parse(text)
    assert p.givens[:3] == (-1, -1, 3) and p.constraints == ()
    assert p.notes == ("ignored 1 digit entered without 'given'",
                       "ignored a solver's pencil marks in 1 cell")


def test_decoration_lines_of_a_colour_can_be_read_as_a_line_kind():
    text = doc(4, line=[{"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#ffccaa"},
                        {"lines": [["R4C1", "R4C2"]], "outlineC": "#000000"}])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        p = parse(text, treat_line={"#FFCCAA": "thermometer"})
    assert [c.kind for c in p.constraints] == ["thermometer"]
    assert "1 line" in p.notes[0]  # the other line stays decoration
    with pytest.raises(ParseError, match="no decoration line has colour #123456"):
        parse(text, treat_line={"#123456": "thermometer"})


def test_treat_line_takes_a_kinds_name_or_its_fpuzzles_key_alike():
    text = doc(4, line=[{"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#ffccaa"}])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        read = [parse(text, treat_line={"#FFCCAA": kind})
                for kind in ("slowthermometer", "slow thermometer", "Slow-Thermometer")]
    assert read[0] == read[1] == read[2]
    assert [c.kind for c in read[0].constraints] == ["slow thermometer"]
    with pytest.raises(ParseError, match="unknown line kind 'cubes': choose from "
                                         "thermometer, double-arrow, zipper-line"):
        parse(text, treat_line={"#FFCCAA": "cubes"})


@pytest.mark.parametrize("kind", ["littlekillersum", "little killer", "killercage"])
def test_treat_line_refuses_a_kind_whose_entries_are_not_lines(kind):
    # A little killer entry without a value says nothing: lines read as one were dropped
    # without a word, and the puzzle solved without them.
    text = doc(4, line=[{"lines": [["R1C1", "R2C2"]], "outlineC": "#FFCCAA"}])
    result = runner.invoke(app, ["count", text, "--treat-line", f"#FFCCAA={kind}"])
    assert result.exit_code == 6, result.output
    assert "is no line kind: choose from thermometer" in result.output


def test_default_regions_of_a_size_without_boxes_are_its_rows():
    p = parse(json.dumps({"size": 5, "grid": grid(5)}))
    assert "jigsaw" in p.geometry.variants
    assert {u.cells for u in p.geometry.units if u.kind == "region"} == {
        tuple(range(r * 5, r * 5 + 5)) for r in range(5)}


def test_a_negative_word_alone_is_a_rule():
    # No xv mark at all, yet "no neighbours add up to 5 or 10": dropping it would be wrong.
    p = parse(doc(4, negative=["xv"]))
    bad = [g for g in get_backend("native").solve(parse(doc(4)), limit=300).solutions
           if any(c.violations(p.geometry, g) for c in p.constraints)]
    assert p.constraints and bad


def test_regions_in_pieces_stand_as_the_setter_drew_them():
    regions = [[0, 1, 1, 0], [2, 2, 3, 3], [1, 1, 0, 0], [3, 3, 2, 2]]  # region 0 in pieces
    p = parse(json.dumps({"size": 4, "grid": [[{"region": r} for r in row] for row in regions]}))
    assert {0, 3, 10, 11} in [set(u.cells) for u in p.geometry.units if u.kind == "region"]


def test_irregular_regions_and_variant_flags_build_the_geometry():
    regions = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 3, 3, 3], [2, 2, 2, 3]]
    text = json.dumps({"size": 4, "grid": [[{"region": r} for r in row] for row in regions],
                       "diagonal+": True, "antiking": False})
    p = parse(text)
    assert "jigsaw" in p.geometry.variants and "anti-diagonal" in p.geometry.variants
    assert parse(fpuzzles_json(p)) == p


runner = CliRunner()


def test_cli_refuses_unknown_keys_with_exit_6_and_prints_notes():
    for given in (doc(4, foo=[1]), url(doc(4, foo=[1]))):  # a link's error is its own
        result = runner.invoke(app, ["check", given])
        assert result.exit_code == 6 and "foo: not a rule this tool knows" in result.output
    result = runner.invoke(app, ["solve", doc(4, foo=[1], text=[{"cells": ["R1C1"]}]),
                                 "--ignore", "foo"])
    assert "note: ignored decoration: 1 text" in result.output
    result = runner.invoke(app, ["show", doc(4), "--to", "fpuzzles"])
    assert result.exit_code == 0 and json.loads(result.stdout)["size"] == 4


FIXTURES = [json.loads(line) for line in (Path(__file__).parent / "fpuzzles_fixtures.jsonl")
            .read_text(encoding="utf-8").splitlines()]
"""A given-free 6x6 and a 16x16 jigsaw, made by this tool (sample() on a solution grid, then
givens removed while SAT found it unique), with their solutions."""


@pytest.mark.parametrize("entry", slow_if(FIXTURES, lambda e: e["fpuzzles"]["size"] > 9),
                         ids=lambda e: str(e["fpuzzles"]["size"]))
def test_fixtures_load_from_link_and_json_and_every_backend_finds_their_solution(entry):
    text = json.dumps(entry["fpuzzles"])
    puzzle = parse(text)
    assert parse(url(text)) == puzzle and parse(fpuzzles_url(puzzle)) == puzzle
    for spec in ("native", "sat", "cpsat"):
        result = get_backend(spec).solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, spec
        assert [d + 1 for d in result.solutions[0]] == entry["solution"]


@pytest.mark.slow
@pytest.mark.parametrize("entry", published(), ids=lambda e: e["title"][:30])
def test_published_puzzle_loads_and_is_found_unique_by_every_backend(entry):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        puzzle = parse(entry["url"])
        assert parse(json.dumps(entry["fpuzzles"])) == puzzle
        assert parse(fpuzzles_url(puzzle)) == puzzle  # written back, the same rules
    statuses = {spec: get_backend(spec).solve(puzzle, limit=2, time_limit=60)
                for spec in ("sat", "cpsat")}
    kinds = {r.status for r in statuses.values()}
    if any(note.startswith("ignored decoration") for note in puzzle.notes):
        # Its rules sit in decoration: reported, never solved as if they were the rules.
        assert kinds <= {Status.UNIQUE, Status.MULTIPLE, Status.NONE}
        return
    assert kinds == {Status.UNIQUE}, entry["title"]
    solution = entry.get("solution")
    if solution:
        got = [d + 1 for d in statuses["sat"].solutions[0]]
        assert got == [int(v) for v in solution]


def test_certify_and_encode_carry_the_kinds_clauses(tmp_path):
    # The 6x6 fixture holds arrows, little killers, sandwiches, dots and renban lines: its
    # certificate's formula holds their clauses, and the checker re-derives it from the
    # puzzle alone.
    text = json.dumps(FIXTURES[0]["fpuzzles"])
    plain = runner.invoke(app, ["encode", json.dumps({"size": 6, "grid": grid(6)})])
    encoded = runner.invoke(app, ["encode", text])
    assert encoded.exit_code == 0 and len(encoded.stdout) > len(plain.stdout)
    made = runner.invoke(app, ["certify", text, str(tmp_path / "certs")])
    assert made.exit_code == 0, made.output
    checked = runner.invoke(app, ["verify-certificate", str(tmp_path / "certs")])
    assert checked.exit_code == 0 and "valid" in checked.stdout
    formula = tmp_path / "certs" / "formula.cnf"  # a kind's clauses left out: refused
    formula.write_text("\n".join(formula.read_text().splitlines()[:-3]) + "\n")
    assert runner.invoke(app, ["verify-certificate", str(tmp_path / "certs")]).exit_code != 0
