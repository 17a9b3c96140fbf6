"""Puzzle parsing, puzzle files, formatting round trips, and clashing givens."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest
from cases import BY_NAME, CASES, CLASH, GRID1, GRID2, JIGSAW_MAP
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import (
    EMPTY,
    InvalidPuzzleError,
    ParseError,
    Puzzle,
    format_grid,
    format_line,
    make_geometry,
    parse,
    read_puzzles,
)
from sudoku_csp.geometry import SYMBOLS, GeometryError
from sudoku_csp.io import from_dict, grid_to_dict, parse_many, puzzle_texts, to_grid, to_line

GRID1_DIGITS = tuple(int(ch) - 1 if ch != "0" else EMPTY for ch in GRID1)

NORVIG_GRID1 = """
. . 3 |. 2 . |6 . .
9 . . |3 . 5 |. . 1
. . 1 |8 . 6 |4 . .
------+------+------
. . 8 |1 . 2 |9 . .
7 . . |. . . |. . 8
. . 6 |7 . 8 |2 . .
------+------+------
. . 2 |6 . 9 |5 . .
8 . . |2 . 3 |. . 9
. . 5 |. 1 . |3 . .
"""


# -- one-line forms ----------------------------------------------------------------------------
def test_one_line_with_zero_and_dot_blanks():
    with_zeros = parse(GRID1)
    with_dots = parse(GRID1.replace("0", "."))
    assert with_zeros.givens == with_dots.givens == GRID1_DIGITS
    assert with_zeros.geometry == make_geometry(9)
    assert with_zeros.clue_count == sum(ch != "0" for ch in GRID1) == 32


def test_underscore_is_a_blank_too():
    assert parse("_" * 16).givens == (EMPTY,) * 16


@pytest.mark.parametrize(("cells", "size"), [(16, 4), (36, 6), (64, 8), (81, 9), (100, 10),
                                              (144, 12), (256, 16), (625, 25)])
def test_size_is_inferred_from_the_cell_count(cells, size):
    puzzle = parse("." * cells)
    assert puzzle.size == size and puzzle.givens == (EMPTY,) * cells


def test_explicit_size_and_box():
    puzzle = parse("." * 100, size=10, box=(5, 2))
    assert puzzle.geometry.box == (5, 2)
    assert parse("." * 36, size=6).geometry.box == (2, 3)


def test_letters_for_sizes_above_nine():
    puzzle = parse("G" + "." * 254 + "a")
    assert puzzle.size == 16 and puzzle.givens[0] == 15 and puzzle.givens[-1] == 9


def test_tab_starts_metadata():
    puzzle = parse(GRID2 + "\tNorvig grid2  ")
    assert puzzle.metadata == "Norvig grid2" and to_line(puzzle) == GRID2


# -- multi-line grids --------------------------------------------------------------------------
def test_norvig_style_grid_with_decoration():
    puzzle = parse(NORVIG_GRID1)
    assert puzzle.givens == GRID1_DIGITS


def test_rows_of_digits_without_decoration():
    rows = "\n".join(GRID1[i:i + 9] for i in range(0, 81, 9))
    assert parse(rows).givens == GRID1_DIGITS
    assert parse(" ".join(GRID1[i:i + 9] for i in range(0, 81, 9))).givens == GRID1_DIGITS


def test_other_decoration_is_ignored():
    text = "\n".join("=: " + " : ".join(GRID1[i:i + 9]) + " :" for i in range(0, 81, 9))
    assert parse(text).givens == GRID1_DIGITS
    assert parse(NORVIG_GRID1.replace("\n", "\r\n")).givens == GRID1_DIGITS


# -- numbers -----------------------------------------------------------------------------------
def pattern_grid(box_rows: int, box_cols: int) -> list[int]:
    """A valid full grid: row r is row 0 shifted by bc*(r % br) + r//br."""
    n = box_rows * box_cols
    return [(box_cols * (r % box_rows) + r // box_rows + c) % n
            for r in range(n) for c in range(n)]


@pytest.mark.parametrize("box", [(4, 4), (5, 5), (3, 4)])
@pytest.mark.parametrize("separator", [",", " ", ", ", ";"])
def test_separated_numbers(box, separator):
    solution = pattern_grid(*box)
    rng = random.Random(7)
    givens = [d if rng.random() < 0.4 else EMPTY for d in solution]
    text = separator.join("0" if d == EMPTY else str(d + 1) for d in givens)
    puzzle = parse(text)
    assert puzzle.size == box[0] * box[1]
    assert list(puzzle.givens) == givens


def test_numbers_in_rows_with_dots():
    solution = pattern_grid(4, 4)
    rows = [" ".join(str(solution[16 * r + c] + 1) if (r + c) % 3 else "." for c in range(16))
            for r in range(16)]
    puzzle = parse("\n".join(rows))
    assert puzzle.size == 16
    assert puzzle.givens[1] == 1 and puzzle.givens[0] == EMPTY


def test_numbers_with_explicit_size():
    assert parse("12 0 0 3" + " 0" * 140, size=12).givens[:4] == (11, EMPTY, EMPTY, 2)


# -- errors ------------------------------------------------------------------------------------
def test_wrong_cell_count_names_the_end_of_the_input():
    with pytest.raises(ParseError) as err:
        parse(GRID1[:80])
    assert (err.value.line, err.value.column) == (1, 81)
    assert "found 80 cells" in str(err.value) and "81" in str(err.value)
    assert str(err.value).startswith("line 1, column 81: ")


def test_wrong_cell_count_for_a_given_size():
    with pytest.raises(ParseError, match="expected 81 cells for a 9x9 puzzle, found 16"):
        parse("." * 16, size=9)


def test_unknown_symbol_names_line_and_column():
    text = NORVIG_GRID1.replace("7 . . |", "7 . ? |")
    with pytest.raises(ParseError) as err:
        parse(text)
    # NORVIG_GRID1 starts with a newline: the '?' is on line 7 of the text, column 5.
    assert (err.value.line, err.value.column) == (7, 5)
    assert "unknown symbol '?'" in err.value.reason and "blank" in err.value.reason


@pytest.mark.parametrize(("text", "bad", "column"), [
    ("5" + "." * 15, "'5'", 1),                 # 4x4 takes 1-4
    ("." * 40 + "A" + "." * 40, "'A'", 41),     # 9x9 takes 1-9
    ("." * 100 + "H" + "." * 155, "'H'", 101),  # 16x16 takes 1-9, A-G
])
def test_digit_out_of_range(text, bad, column):
    with pytest.raises(ParseError) as err:
        parse(text)
    assert err.value.column == column
    assert f"{bad} is out of range" in str(err.value)


def test_number_out_of_range():
    with pytest.raises(ParseError, match="'17' is out of range for a 16x16 puzzle") as err:
        parse(",".join(["0"] * 10 + ["17"] + ["0"] * 245))
    assert err.value.column == 21


def test_unknown_token_in_numbers():
    with pytest.raises(ParseError, match="unknown token 'x'") as err:
        parse("1, 2,\n3, x")
    assert (err.value.line, err.value.column) == (2, 4)


def test_only_ascii_digits_are_numbers():
    # str.isdigit() accepts '²', which int() refuses: that must be a ParseError.
    with pytest.raises(ParseError, match="unknown token '²'"):
        parse("1, ²" + ", 0" * 14)
    with pytest.raises(ParseError, match="unknown symbol '²'"):
        parse("²" + "." * 15)


def test_line_offset_is_used():
    with pytest.raises(ParseError) as err:
        parse("." * 15, line=12)
    assert err.value.line == 12


def test_a_size_with_no_boxes_is_a_parse_error():
    with pytest.raises(ParseError, match="prime"):
        parse("." * 49)


def test_invalid_puzzle_built_in_code():
    g = make_geometry(4)
    with pytest.raises(InvalidPuzzleError, match="16 cells"):
        Puzzle(g, (EMPTY,) * 15)
    with pytest.raises(InvalidPuzzleError, match="not a digit"):
        Puzzle(g, (4,) + (EMPTY,) * 15)


# -- puzzle files ------------------------------------------------------------------------------
FILE_TEXT = f"""# Norvig's two grids
{GRID1}\tgrid1\tfrom the essay

   # an indented comment
{GRID2}

"""


def test_read_puzzles_from_a_path(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(FILE_TEXT, encoding="utf-8")
    for source in (path, str(path)):
        puzzles = list(read_puzzles(source))
        assert [to_line(p) for p in puzzles] == [GRID1.replace("0", "."), GRID2]
        assert [p.metadata for p in puzzles] == ["grid1\tfrom the essay", ""]


def test_read_puzzles_from_an_open_file():
    puzzles = list(read_puzzles(io.StringIO(FILE_TEXT)))
    assert len(puzzles) == 2 and puzzles[1].givens == parse(GRID2).givens


def test_read_puzzles_streams():
    # An endless file: taking three puzzles must not try to read it all.
    endless = itertools.cycle(["# comment\n", GRID2 + "\n", "\n"])
    first = list(itertools.islice(read_puzzles(endless), 3))
    assert [to_line(p) for p in first] == [GRID2] * 3


def test_read_puzzles_mixed_sizes():
    text = "." * 16 + "\n" + GRID2 + "\n" + "." * 256 + "\n"
    assert [p.size for p in parse_many(text)] == [4, 9, 16]


def test_read_puzzles_with_options():
    text = BY_NAME["jigsaw"].text + "\n" + "." * 81 + "\n"
    puzzles = parse_many(text, regions=JIGSAW_MAP)
    assert all(p.geometry.name == "9x9 jigsaw" for p in puzzles)
    with pytest.raises(ParseError, match="expected 81 cells") as err:
        parse_many(GRID2 + "\n" + "." * 16 + "\n", size=9)
    assert err.value.line == 2


def test_a_file_holding_one_multi_line_grid(tmp_path):
    path = tmp_path / "grid1.txt"
    path.write_text("# grid1, boxed\n" + NORVIG_GRID1, encoding="utf-8")
    assert [p.givens for p in read_puzzles(path)] == [GRID1_DIGITS]
    rows = "\n".join(GRID1[i:i + 9] for i in range(0, 81, 9)) + "\n"
    assert [p.givens for p in parse_many(rows)] == [GRID1_DIGITS]


def test_errors_in_files_name_the_file_line():
    bad = GRID2[:30] + "?" + GRID2[31:]
    text = f"# header\n\n{GRID1}\n# comment\n{bad}\n{GRID2}\n"
    with pytest.raises(ParseError) as err:
        parse_many(text)
    assert (err.value.line, err.value.column) == (5, 31)
    short = f"{GRID1}\n\n{GRID2[:-1]}\n"
    with pytest.raises(ParseError, match="found 80 cells") as err:
        parse_many(short)
    assert err.value.line == 3


def test_first_line_errors_are_reported_for_one_line_files():
    with pytest.raises(ParseError) as err:
        parse_many("\n\n" + GRID1[:80] + "\n")
    assert err.value.line == 3


def test_empty_and_comment_only_files_hold_no_puzzles():
    assert parse_many("") == []
    assert parse_many("# nothing\n\n   \n# here\n") == []


KILLER_JIGSAW = Puzzle(make_geometry(4, regions="AAAB CABB CCDB CDDD"),
                       (0,) + (EMPTY,) * 15, "",
                       tuple(parse("AA.............. 3", size=4).constraints))


@pytest.mark.parametrize("writer", ["json", "fpuzzles"])
def test_a_json_document_over_several_lines_is_one_puzzle(writer):
    from sudoku_csp.io import WRITERS

    one_line = WRITERS[writer](KILLER_JIGSAW)
    pretty = json.dumps(json.loads(one_line), indent=2)
    assert pretty.count("\n") > 10
    assert parse_many(pretty) == [parse(one_line)] == [parse(pretty)]
    assert parse(pretty) == KILLER_JIGSAW
    # Several, one after another (``jq .`` of a JSON Lines file), comments between them.
    several = f"# two puzzles\n{pretty}\n# the second\n  {pretty}\n"
    assert parse_many(several) == [KILLER_JIGSAW] * 2
    assert list(puzzle_texts([io.StringIO(several)])) == [KILLER_JIGSAW] * 2  # the batch's
    assert parse_many(one_line + "\n" + one_line + "\n") == [KILLER_JIGSAW] * 2  # JSON Lines


def test_a_json_document_over_several_lines_is_not_counted_as_many_puzzles(tmp_path):
    from sudoku_csp.io import json_line, resolve_source

    pretty, lines = tmp_path / "pretty.json", tmp_path / "lines.jsonl"
    pretty.write_text(json.dumps(json.loads(json_line(KILLER_JIGSAW)), indent=2) + "\n")
    lines.write_text(json_line(KILLER_JIGSAW) + "\n" + json_line(KILLER_JIGSAW) + "\n")
    # The progress bar's total: a count of lines would be no count of puzzles.
    assert resolve_source([str(pretty)], {}, count=True).total is None
    assert resolve_source([str(lines)], {}, count=True).total == 2


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ('# c\n{\n  "size": 4,\n  "givens": "1..." x\n}\n', 4, 20, "not valid JSON"),
    ('{\n  "size": 4,\n  "grid": [[{}]]\n,x}\n', 4, 2, "not valid JSON"),
    ('{\n  "size": 4\n}\n[1, 2]\n', 4, 1, "expected a JSON object"),
    ('{\n  "size": 4\n}\n{\n "size": 4,\n', 5, 12, "not valid JSON"),  # cut short
])
def test_errors_in_json_over_several_lines_name_the_line_and_column(text, line, column,
                                                                       words):
    with pytest.raises(ParseError, match=words) as err:
        parse_many(text)
    assert (err.value.line, err.value.column) == (line, column)


def test_parse_names_the_line_and_column_in_json_over_several_lines():
    with pytest.raises(ParseError, match="not valid f-puzzles JSON") as err:
        parse('{\n  "size": 4,\n  "grid": [[{}]]\n,x}', line=10)
    assert (err.value.line, err.value.column) == (13, 2)


def test_a_json_line_broken_before_its_end_is_an_error_of_that_line():
    # Not the start of a document over several lines: its own error, at its place.
    with pytest.raises(ParseError, match="not valid JSON") as err:
        parse_many('  {"size": 4 x}\n{"size": 4}\n')
    assert (err.value.line, err.value.column) == (1, 14)


# -- round trips -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_round_trips(case):
    puzzle = case.puzzle()
    assert parse(to_line(puzzle), **case.options) == puzzle
    assert parse(to_grid(puzzle), **case.options) == puzzle


def test_format_line_and_grid():
    puzzle = parse(GRID1)
    assert to_line(puzzle) == GRID1.replace("0", ".")
    assert to_grid(puzzle).splitlines()[:4] == [
        ". . 3 | . 2 . | 6 . .",
        "9 . . | 3 . 5 | . . 1",
        ". . 1 | 8 . 6 | 4 . .",
        "------+-------+------",
    ]
    assert format_grid(make_geometry(6), [EMPTY] * 36).splitlines()[:3] == [
        ". . . | . . .", ". . . | . . .", "------+------"]
    assert format_line(make_geometry(16), list(range(16)) * 16)[:17] == "123456789ABCDEFG1"


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from([4, 6, 8, 9, 12, 16, 25, 35]).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(EMPTY, n - 1), min_size=n * n, max_size=n * n))),
    st.sampled_from([tuple, list]))
def test_format_line_writes_each_cell_symbol(case, kind):
    """Grids of digits take a faster path than grids with blanks: both write each cell's
    symbol, ``.`` for a blank."""
    n, cells = case
    line = format_line(make_geometry(n), kind(cells))
    assert line == "".join("." if d == EMPTY else SYMBOLS[d] for d in cells)


def test_a_parsed_line_is_the_puzzle_made_from_its_givens():
    """The parser's fast path skips the givens' check: what it makes is still the same
    puzzle (equal, same hash, pickled and back) as the checked constructor's."""
    import pickle

    line = "3.1...4.2.......\tfrom a file"
    fast = parse(line)
    made = Puzzle(make_geometry(4), (2, EMPTY, 0, EMPTY, EMPTY, EMPTY, 3, EMPTY, 1)
                  + (EMPTY,) * 7, "from a file")
    assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
    assert pickle.loads(pickle.dumps(fast)) == made and fast.constraints == ()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted({*SYMBOLS[:16], *SYMBOLS[:16].lower(), ".", "0", "_"})),
                min_size=256, max_size=256))
def test_a_parsed_line_reads_back_as_format_line_writes_it(chars):
    """The line a parsed plain line keeps for to_line is the one format_line writes."""
    puzzle = parse("".join(chars))
    assert to_line(puzzle) == format_line(puzzle.geometry, puzzle.givens)
    assert parse(to_line(puzzle)) == puzzle


def test_format_line_rejects_what_is_no_digit():
    with pytest.raises(IndexError):
        format_line(make_geometry(4), [0, 1, 2, 40] * 4)
    with pytest.raises(TypeError):
        format_line(make_geometry(4), [0, 1, 2, "3"] * 4)


def test_jigsaw_grid_has_no_box_borders():
    grid = to_grid(BY_NAME["jigsaw"].puzzle())
    assert "|" not in grid and "+" not in grid


def test_dict_round_trip():
    puzzle = parse(GRID1)
    as_dict = grid_to_dict(puzzle.geometry, puzzle.givens)
    assert len(as_dict) == 81 and as_dict["A3"] == "3" and as_dict["A1"] == "."
    assert as_dict["I7"] == "3"
    assert from_dict(as_dict) == puzzle
    zeros = {k: ("0" if v == "." else v) for k, v in as_dict.items()}
    assert from_dict(zeros) == puzzle
    g16 = make_geometry(16)
    big = BY_NAME["16x16"].puzzle()
    assert from_dict(grid_to_dict(big.geometry, big.givens), g16) == big


def test_dict_errors():
    with pytest.raises(ParseError, match="unknown square 'J1'"):
        from_dict({"J1": "1"})
    with pytest.raises(ParseError, match="'A' is not a digit"):
        from_dict({"A1": "A"})


sizes_and_boxes = st.sampled_from([(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)),
                                   (10, (2, 5)), (10, (5, 2)), (12, (3, 4)), (16, (4, 4)),
                                   (25, (5, 5))])


@settings(max_examples=60, deadline=None)
@given(sizes_and_boxes, st.randoms(use_true_random=False), st.floats(0, 1))
def test_round_trip_property(shape, rng, density):
    size, box = shape
    g = make_geometry(size, box)
    givens = tuple(rng.randrange(size) if rng.random() < density else EMPTY
                   for _ in range(g.ncells))
    puzzle = Puzzle(g, givens)
    assert parse(to_line(puzzle), box=box) == puzzle
    assert parse(to_grid(puzzle), box=box) == puzzle
    assert from_dict(grid_to_dict(puzzle.geometry, puzzle.givens), g) == puzzle


# -- arbitrary text ----------------------------------------------------------------------------
PUZZLE_ALPHABET = "0123456789.ABCDGPZaz _|+-=:,;\t\n#x?²"
texts = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=PUZZLE_ALPHABET, max_size=300),
    st.lists(st.sampled_from(["0", "1", "9", "12", "25", ".", " ", ",", "\n", "\t", "#",
                              "|", "+", "1" * 16, "." * 81, "-" * 6]),
             max_size=120).map("".join),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from([None, 4, 9, 16]))
def test_parse_raises_only_parse_error(text, size):
    try:
        puzzle = parse(text, size=size)
    except ParseError as err:
        assert err.line >= 1 and (err.column is None or err.column >= 1)
        return
    assert len(puzzle.givens) == puzzle.geometry.ncells
    assert all(d == EMPTY or 0 <= d < puzzle.size for d in puzzle.givens)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_read_puzzles_raises_only_parse_error(text):
    try:
        puzzles = list(read_puzzles(io.StringIO(text)))
    except ParseError as err:
        assert 1 <= err.line <= text.count("\n") + 1
        return
    for puzzle in puzzles:
        assert len(puzzle.givens) == puzzle.geometry.ncells


# -- clashes -----------------------------------------------------------------------------------
def test_clash_in_a_row_and_box():
    puzzle = parse(CLASH)
    clashes = puzzle.clashes()
    assert {(c.a, c.b, c.digit, c.where) for c in clashes} == {
        (0, 1, 0, "row 1"), (0, 1, 0, "box 1")}
    assert puzzle.describe_clash(clashes[0]) == "givens clash: A1 and A2 both hold 1 in row 1"


def test_clash_in_a_column():
    puzzle = parse("3" + "." * 71 + "3" + "." * 8)  # A1 and I1
    assert [(c.a, c.b, c.where) for c in puzzle.clashes()] == [(0, 72, "column 1")]


def test_clash_in_an_extra_pair():
    givens = ["."] * 81
    givens[2] = givens[13] = "5"  # A3 and B5: a knight's move apart, in different boxes
    text = "".join(givens)
    assert parse(text).clashes() == []
    clashes = parse(text, variants=["anti-knight"]).clashes()
    assert [(c.a, c.b, c.digit, c.where) for c in clashes] == [(2, 13, 4, "extra pair")]


def test_clash_in_a_diagonal_and_a_region():
    text = "7" + "." * 9 + "7" + "." * 70  # A1 and B2: same box, same main diagonal
    wheres = {c.where for c in parse(text, variants=["diagonal"]).clashes()}
    assert wheres == {"box 1", "diagonal 1"}
    regions = {c.where for c in BY_NAME["jigsaw-clash"].puzzle().clashes()}
    assert regions == {"row 1", "region 1"}


@pytest.mark.parametrize("case", [c for c in CASES if c.name not in ("clash", "jigsaw-clash")],
                         ids=lambda c: c.name)
def test_no_clash_in_the_other_cases(case):
    assert case.puzzle().clashes() == []


def test_printed_number_grid_with_box_borders():
    from cases import BY_NAME

    puzzle = BY_NAME["16x16"].puzzle()
    rows = []
    for r in range(16):
        cells = [str(d + 1) if d >= 0 else "0" for d in puzzle.givens[r * 16:(r + 1) * 16]]
        rows.append(" | ".join(" ".join(cells[c:c + 4]) for c in range(0, 16, 4)))
        if r % 4 == 3 and r < 15:
            rows.append("+".join(["-" * 9] * 4))
    assert parse("\n".join(rows)).givens == puzzle.givens


@pytest.mark.parametrize("text", [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "400000805030000000000700000020000060000080400000010000000603070500200000104000000",
    "3_1...4.2.......", "a" * 16, "g" * 256, "3.1...4.2......", "3.1...4.2.......5",
    "5" + "." * 15, "3.1.\u00e9.4.2.......",
])
@pytest.mark.parametrize("options", [{}, {"size": 4}, {"variants": ["diagonal"]}])
def test_a_plain_line_reads_as_the_general_scanner_reads_it(text, options):
    # parse() reads a line of symbols and blanks by table look-up (io.grid.plain_line); the
    # general scanner must give the same puzzle, or the same error, for every such line.
    from sudoku_csp.io import grid
    from sudoku_csp.io import text as text_module

    def general(text: str):
        saved = grid.plain_line
        grid.plain_line = text_module.plain_line = lambda *args: None  # type: ignore[assignment]
        try:
            return outcome(text)
        finally:
            grid.plain_line = text_module.plain_line = saved

    def outcome(text: str):
        try:
            found = parse(text, **options)
        except (ParseError, GeometryError) as exc:
            return type(exc), str(exc)
        return found.geometry, found.givens, found.metadata

    assert outcome(text) == general(text)
    assert outcome(text + "\tnote") == general(text + "\tnote")


def test_metadata_with_box_characters_does_not_start_a_grid():
    lines = ["3.1...4.2.......\tmade by a+b | c", "1...............\tsecond"]
    puzzles = list(read_puzzles(io.StringIO("\n".join(lines) + "\n")))
    assert [p.metadata for p in puzzles] == ["made by a+b | c", "second"]


@pytest.mark.parametrize("bad", [-0.5, -2, 4, 4.0])
def test_a_given_outside_the_digits_is_named_whatever_its_type(bad):
    with pytest.raises(InvalidPuzzleError, match=f"given {bad} at A2 is not a digit 0..3"):
        Puzzle(make_geometry(4), (0, bad) + (EMPTY,) * 14)


def test_givens_that_compare_as_digits_are_kept_as_before():
    # Not plain ints, yet each is EMPTY or 0 <= d < N: accepted, as the per-given check did.
    assert Puzzle(make_geometry(4), (True, 2.0) + (EMPTY,) * 14).givens[:2] == (True, 2.0)
