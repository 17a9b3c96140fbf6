"""Reviewer findings on bad or surprising input: each is either read as the user meant, or
refused with one clear line (which line, which column, what was expected)."""

from __future__ import annotations

import io
import os

import pytest
from cases import BY_NAME, GRID1, GRID2, JIGSAW_MAP, slow_if
from typer.testing import CliRunner

from sudoku_csp import EMPTY, GeometryError, ParseError, make_geometry, parse, read_puzzles
from sudoku_csp.cli import Exit, app
from sudoku_csp.errors import InputError, NoPuzzleError
from sudoku_csp.io import (
    MAX_LINE,
    format_line,
    parse_many,
    puzzle_entries,
    puzzle_texts,
    to_grid,
    to_line,
)
from sudoku_csp.variants import geometry_from_record, geometry_record, load_regions

runner = CliRunner()
BOM = "\ufeff"


def run(*args: str, input: str | bytes | None = None):
    return runner.invoke(app, list(args), input=input)


def assert_input_error(result, expected: str) -> None:
    """Exit 6, one line on stderr holding ``expected``, no traceback."""
    assert result.exit_code == Exit.INPUT, result.output
    assert expected in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output + result.stderr


def rows_of(line: str, size: int) -> list[str]:
    return [line[i:i + size] for i in range(0, size * size, size)]


# -- 1. a UTF-8 byte order mark ------------------------------------------------------------------
def test_bom_at_the_start_of_a_file_is_skipped(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes((BOM + f"{GRID2}\n{GRID1}\n").encode("utf-8"))
    assert [to_line(p) for p in read_puzzles(path)] == [GRID2, GRID1.replace("0", ".")]
    grid = tmp_path / "grid.txt"
    grid.write_bytes((BOM + "\n".join(rows_of(GRID1, 9)) + "\n").encode("utf-8"))
    assert [to_line(p) for p in read_puzzles(grid)] == [GRID1.replace("0", ".")]
    result = run("count", str(path))
    assert result.exit_code == Exit.OK, result.output


def test_bom_at_the_start_of_text_is_skipped_and_columns_ignore_it():
    assert parse(BOM + GRID2) == parse(GRID2)
    assert parse_many(BOM + "# comment\n" + GRID2 + "\n") == [parse(GRID2)]
    with pytest.raises(ParseError) as err:
        parse(BOM + "12?" + "." * 78)
    assert (err.value.line, err.value.column) == (1, 3)
    # only a leading mark: one further inside the text is still an unknown symbol
    with pytest.raises(ParseError, match="unknown symbol"):
        parse("1" + BOM + "." * 80)


# -- 2. bytes that are not UTF-8 -------------------------------------------------------------------
LATIN1 = f"{GRID2}\n# caf\xe9 au lait\n{GRID2}\n".encode("latin-1")


def test_latin1_file_names_line_and_column(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(LATIN1)
    puzzles = read_puzzles(path)
    assert to_line(next(puzzles)) == GRID2  # the lines before the bad byte are read
    with pytest.raises(ParseError, match="not UTF-8 text") as err:
        next(puzzles)
    assert (err.value.line, err.value.column) == (2, 6)
    assert str(path) in str(err.value) and "0xE9" in str(err.value)


def test_latin1_far_into_a_big_file_names_its_line(tmp_path):
    # Past the text layer's first read-ahead chunk: the line is still exact, and every
    # puzzle before it is read first.
    path = tmp_path / "big.txt"
    path.write_bytes((f"{GRID2}\n" * 500).encode() + b"..\xff\n")
    seen = 0
    with pytest.raises(ParseError, match="not UTF-8 text") as err:
        for _ in read_puzzles(path):
            seen += 1
    assert seen == 500
    assert (err.value.line, err.value.column) == (501, 3)


def test_latin1_through_the_batch_runner_and_the_cli(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(LATIN1)
    # puzzle_texts opens paths itself, with open(..., encoding="utf-8")
    texts = puzzle_texts([str(path)])
    next(texts)
    with pytest.raises(ParseError, match=r"line 2, column 6: .* is not UTF-8 text"):
        next(texts)
    assert_input_error(run("count", str(path)), "line 2, column 6")


def test_latin1_in_a_stream_without_a_name_still_names_the_line():
    stream = io.TextIOWrapper(io.BytesIO(LATIN1), encoding="utf-8")
    with pytest.raises(ParseError, match="not UTF-8 text") as err:
        list(puzzle_entries(stream))
    assert err.value.line == 2


def test_surrogate_escaped_bytes_are_named_as_bytes():
    # what sys.stdin holds for a Latin-1 byte under a POSIX locale
    with pytest.raises(ParseError, match="byte 0xE9 is not UTF-8 text") as err:
        parse("12\udce9" + "." * 78)
    assert err.value.column == 3


# -- 3. --regions naming a missing file -------------------------------------------------------
@pytest.mark.parametrize("name", ["missing.txt", "maps/regions.txt", "maps\\jigsaw", "r.map"])
def test_missing_regions_file_is_named(name):
    with pytest.raises(GeometryError, match="no such regions file: " + name.replace("\\", r"\\")):
        make_geometry(9, regions=name)
    # "maps/regions.txt" has 16 characters: it must not make the puzzle a 4x4
    with pytest.raises(GeometryError, match="no such regions file"):
        parse(GRID2, regions=name)


def test_missing_regions_file_through_the_cli():
    assert_input_error(run("count", GRID2, "--regions", "missing.txt"),
                       "no such regions file: missing.txt")


def test_a_map_that_looks_like_a_path_is_still_a_map():
    assert make_geometry(4, regions="//// .... aaaa bbbb").boxes[:8] == (0,) * 4 + (1,) * 4


def test_load_regions_reads_text_or_a_file(tmp_path):
    path = tmp_path / "map.txt"
    path.write_bytes((BOM + "# a jigsaw\n" + JIGSAW_MAP.replace(" ", "\n") + "\n").encode())
    assert make_geometry(9, regions=load_regions(str(path))) == make_geometry(
        9, regions=JIGSAW_MAP)
    assert load_regions(JIGSAW_MAP) == JIGSAW_MAP
    with pytest.raises(GeometryError, match="no such regions file: nope/map.txt"):
        load_regions("nope/map.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"# r\xe9gions\n" + JIGSAW_MAP.encode())
    with pytest.raises(GeometryError, match=r"latin.txt: line 1, column 4: not UTF-8 text"):
        load_regions(str(latin))
    # given the name of an existing file, make_geometry says how to read it
    with pytest.raises(GeometryError, match="load_regions"):
        make_geometry(9, regions=str(path))


# -- 4. sizes and box shapes ---------------------------------------------------------------------
@pytest.mark.parametrize("size", [-9, 0, 1, 36])
def test_bad_sizes_say_what_a_size_is(size):
    expected = f"size must be between 2 and 35 .*got {size}$"
    with pytest.raises(GeometryError, match=expected):
        make_geometry(size)
    with pytest.raises(GeometryError, match=expected):
        parse(GRID2, size=size)
    with pytest.raises(GeometryError, match=expected):
        list(read_puzzles(io.StringIO(GRID2 + "\n"), size=size))


@pytest.mark.parametrize("size", [9.0, "9", True, None])
def test_sizes_that_are_not_whole_numbers(size):
    with pytest.raises(GeometryError, match="size must be a whole number"):
        make_geometry(size)  # type: ignore[arg-type]


@pytest.mark.parametrize(("box", "message"), [
    ((0, 9), "box 0x9 does not tile a 9x9 grid: box rows and columns must be at least 1"),
    ((-3, -3), "box -3x-3 does not tile a 9x9 grid: box rows and columns must be at least 1"),
    ((2, 4), "box 2x4 does not tile a 9x9 grid: box rows x box columns must equal 9"),
    ((3,), "box must be two whole numbers"),
    ((3, 3, 1), "box must be two whole numbers"),
    ((3.0, 3.0), "box must be two whole numbers"),
])
def test_bad_box_shapes_say_what_is_wrong(box, message):
    with pytest.raises(GeometryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_geometry(9, box)


def test_prime_and_one_by_one_sizes():
    with pytest.raises(GeometryError, match="size 7 has no box shape"):
        make_geometry(7)


@pytest.mark.parametrize("size", ["-9", "0"])
def test_bad_size_through_the_cli(size):
    assert_input_error(run("count", GRID2, "--size", size),
                       f"size must be between 2 and 35 (cells in a row), got {size}")


# -- 5. sixteen lines of sixteen cells ---------------------------------------------------------
def test_sixteen_empty_rows_are_one_empty_16x16():
    text = "\n".join(["." * 16] * 16) + "\n"
    assert [p.geometry.name for p in parse_many(text)] == ["16x16"]
    assert [p.geometry.name for p in parse_many("# empty\n" + text + "\n\n")] == ["16x16"]


@pytest.mark.parametrize("count", [15, 17, 32])
def test_more_or_fewer_empty_rows_stay_4x4_puzzles(count):
    text = "\n".join(["." * 16] * count)
    assert [p.size for p in parse_many(text)] == [4] * count


def test_sixteen_4x4_puzzles_with_givens_stay_4x4_puzzles():
    lines = [BY_NAME["4x4"].text, "1" + "." * 15, "." * 15 + "4", "12.." + "." * 12] * 4
    puzzles = parse_many("\n".join(lines) + "\n")
    assert [to_line(p) for p in puzzles] == lines
    # a file of sixteen with a typo in one line is still sixteen 4x4 puzzles: its error
    lines[5] = "5" + lines[5][1:]
    with pytest.raises(ParseError, match="out of range for a 4x4 puzzle") as err:
        parse_many("\n".join(lines))
    assert err.value.line == 6


def test_sixteen_rows_of_a_16x16_puzzle_are_one_grid():
    # the first row alone could be a 4x4 puzzle; the others use all sixteen symbols
    puzzle = BY_NAME["16x16"].puzzle()
    givens = (EMPTY,) * 16 + puzzle.givens[16:]
    line = format_line(puzzle.geometry, givens)
    assert parse_many("\n".join(rows_of(line, 16))) == [parse(line)]


def test_a_size_option_settles_sixteen_rows():
    text = "\n".join(["." * 16] * 16)
    assert [p.size for p in parse_many(text, size=4)] == [4] * 16
    assert [p.size for p in parse_many(text, size=16)] == [16]


def test_sixteen_empty_rows_through_the_cli(tmp_path):
    path = tmp_path / "empty16.txt"
    path.write_text("\n".join(["." * 16] * 16) + "\n")
    result = run("count", str(path), "--limit", "1", "--json")
    assert result.exit_code == Exit.OK, result.output
    assert len(result.stdout.strip().splitlines()) == 1


# -- 6. several multi-line grids in one file ---------------------------------------------------
NORVIG_GRID2 = to_grid(parse(GRID2))


def test_two_multi_line_grids_separated_by_a_blank_line():
    text = "\n".join(rows_of(GRID1, 9)) + "\n\n" + "\n".join(rows_of(GRID2, 9)) + "\n"
    assert [to_line(p) for p in parse_many(text)] == [GRID1.replace("0", "."), GRID2]


def test_boxed_grids_with_comments_and_without_blank_lines():
    one = to_grid(parse(GRID1))
    text = f"# two boxed grids\n{one}\n# the second\n{NORVIG_GRID2}\n\n\n{one}\n"
    assert [to_line(p)[:9] for p in parse_many(text)] == ["..3.2.6..", "4.....8.5", "..3.2.6.."]


def test_grids_of_different_sizes_and_bordered_grids():
    four = to_grid(parse(BY_NAME["4x4"].text))
    bordered = "+-------+-------+-------+\n" + "\n".join(
        f"| {r[:3]} | {r[3:6]} | {r[6:]} |" for r in rows_of(GRID1, 9)) + "\n+-------+\n"
    puzzles = parse_many(f"{four}\n\n{bordered}\n{four}\n")
    assert [p.size for p in puzzles] == [4, 9, 4]
    assert to_line(puzzles[1]) == GRID1.replace("0", ".")


def test_blank_lines_between_the_bands_of_one_grid():
    rows = rows_of(GRID1, 9)
    text = "\n".join(rows[:3]) + "\n\n" + "\n".join(rows[3:6]) + "\n\n" + "\n".join(rows[6:])
    assert [to_line(p) for p in parse_many(text + "\n\n" + text)] == [
        GRID1.replace("0", ".")] * 2


def test_a_grid_with_a_short_row_names_its_line():
    rows = rows_of(GRID1, 9)
    rows[4] = rows[4][:8]
    text = "\n".join(rows_of(GRID2, 9)) + "\n\n" + "\n".join(rows) + "\n"
    with pytest.raises(ParseError, match="row 5 of the grid that starts at line 11 has 8 "
                                         "cells: expected 9, as in every row of a 9x9 grid"
                       ) as err:
        parse_many(text)
    assert (err.value.line, err.value.column) == (15, 9)


# -- a grid is read exactly as written: as many rows as cells in a row, every row ------------
NINE_ROWS_OF_EIGHT = "1 2 3 4 5 6 7 8\n" + "0 0 0 0 0 0 0 0\n" * 8
NINE_ROWS_ERROR = ("line 9: the input ends after 1 row of the grid that starts here (8 cells "
                   "a row): expected 8 rows")
ONE_PUZZLE_COMMANDS = [["show"], ["explain"], ["hint"], ["candidates"], ["disambiguate"],
                       ["encode"], ["certify", "{dir}"]]


@pytest.mark.parametrize("command", [*ONE_PUZZLE_COMMANDS, ["count"], ["solve"]])
def test_nine_rows_of_eight_numbers_are_no_puzzle(tmp_path, command):
    # Rows 1-8 make an 8x8 grid; row 9 is then a grid cut short, not a row to drop.
    path = tmp_path / "rows.txt"
    path.write_text(NINE_ROWS_OF_EIGHT)
    args = [a.format(dir=tmp_path / "cert") for a in command[1:]]
    assert_input_error(run(command[0], str(path), *args), NINE_ROWS_ERROR)
    with pytest.raises(ParseError, match="found 9 rows of 8 cells: a grid has as many rows"):
        parse(NINE_ROWS_OF_EIGHT)


def test_rows_of_other_lengths_are_refused_even_when_the_cells_add_up(tmp_path):
    rows = rows_of(GRID1, 9)
    rows[2], rows[4] = rows[2][:8], rows[4] + "0"  # 81 cells, in rows of 9, 8 and 10
    expected = "row 3 of the grid that starts at line 1 has 8 cells: expected 9"
    with pytest.raises(ParseError, match=expected) as err:
        parse("\n".join(rows))
    assert err.value.line == 3
    path = tmp_path / "rows.txt"
    path.write_text("# one grid\n" + "\n".join(rows) + "\n")
    assert_input_error(run("show", str(path)), "line 4, column 9: row 3 of the grid that "
                                               "starts at line 2 has 8 cells: expected 9")
    rows[2] = rows[2] + "00"  # a row too long names its first extra cell
    with pytest.raises(ParseError, match="has 10 cells: expected 9") as err:
        parse("\n".join(rows))
    assert (err.value.line, err.value.column) == (3, 10)


def test_a_row_after_grids_separated_by_blank_lines_is_named():
    text = "\n".join(rows_of(GRID1, 9)) + "\n\n" + "\n".join(rows_of(GRID2, 9)) + "\n\n"
    assert len(parse_many(text)) == 2
    with pytest.raises(ParseError, match="the input ends after 1 row of the grid that starts "
                                         "here \\(9 cells a row\\): expected 9 rows") as err:
        parse_many(text + GRID1[:9] + "\n")
    assert err.value.line == 21


@pytest.mark.parametrize("rows", [4, 5])
def test_a_grid_cut_short_is_no_smaller_puzzle(tmp_path, rows):
    # Four rows of nine cells are 36 cells, as many as a 6x6 has: still a 9x9 cut short.
    path = tmp_path / "short.txt"
    path.write_text("# a grid cut short\n" + "123456000\n" + "000000000\n" * (rows - 1))
    assert_input_error(run("show", str(path)), f"line 2: the input ends after {rows} rows "
                                               "of the grid that starts here (9 cells a row)")


def test_a_puzzle_in_a_few_long_lines_is_still_one_puzzle(tmp_path):
    text = "\n".join(GRID1[i:i + 27] for i in range(0, 81, 27)) + "\n"
    assert [to_line(p) for p in parse_many(text)] == [GRID1.replace("0", ".")]
    path = tmp_path / "long.txt"
    path.write_text(text)
    result = run("show", str(path))
    assert result.exit_code == Exit.OK and "note:" not in result.stderr, result.output


# -- a command about one puzzle, given a file of several, says which it took -----------------
@pytest.mark.parametrize("command", ONE_PUZZLE_COMMANDS)
def test_one_puzzle_commands_name_the_puzzle_they_took_from_a_file(tmp_path, command):
    four = BY_NAME["4x4"].text
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n{four}\n\n{four[::-1]}\n")
    args = [a.format(dir=tmp_path / "two") for a in command[1:]]
    result = run(command[0], str(path), *args)
    assert result.exit_code == Exit.OK, result.output
    assert (f"note: {path} holds more than one puzzle: took the first, at line 2 (the next "
            "starts at line 4)") in result.stderr
    path.write_text(f"# one puzzle\n{four}\n")
    args = [a.format(dir=tmp_path / "one") for a in command[1:]]
    result = run(command[0], str(path), *args)
    assert result.exit_code == Exit.OK and "note:" not in result.stderr, result.output


def test_the_next_grid_is_named_from_standard_input():
    four = to_grid(parse(BY_NAME["4x4"].text))
    result = run("show", "-", input=f"{four}\n\n{four}\n")
    assert result.exit_code == Exit.OK, result.output
    assert ("note: standard input holds more than one puzzle: took the first, at line 1 (the "
            "next starts at line 7)") in result.stderr


def test_two_grids_through_the_cli(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text(f"{to_grid(parse(GRID1))}\n\n{NORVIG_GRID2}\n")
    result = run("count", str(path))
    assert result.exit_code == Exit.OK, result.output
    assert [line.split("\t")[1] for line in result.stdout.strip().splitlines()] == [
        "unique", "unique"]


# -- 7. no puzzle at all ---------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n\n", "# only\n   \n# comments\n", BOM])
def test_sources_without_a_puzzle_say_so(tmp_path, text):
    path = tmp_path / "empty.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NoPuzzleError, match=f"no puzzle in {path}"):
        list(read_puzzles(path))
    with pytest.raises(NoPuzzleError, match="no puzzle in the input"):
        list(read_puzzles(io.StringIO(text)))
    with pytest.raises(NoPuzzleError, match=f"no puzzle in {path}"):
        list(puzzle_texts([str(path)]))
    assert_input_error(run("count", str(path)), f"no puzzle in {path}")


def test_no_puzzle_is_an_input_error_raised_lazily_and_parse_many_is_empty():
    assert issubclass(NoPuzzleError, InputError)
    puzzles = read_puzzles(io.StringIO(""))  # a generator: nothing is read yet
    with pytest.raises(NoPuzzleError):
        next(puzzles)
    assert parse_many("# nothing\n") == []


def test_empty_stdin_through_the_cli():
    assert_input_error(run("count", "-", input=""), "no puzzle in")


def test_no_puzzle_error_pickles():
    import pickle

    err = pickle.loads(pickle.dumps(NoPuzzleError("p.txt", empty=True)))
    assert str(err) == str(NoPuzzleError("p.txt", empty=True)) and err.source == "p.txt"


# -- 8. jigsaw regions in pieces ---------------------------------------------------------------
SPLIT_MAP = "abab abab cdcd cdcd"  # every region is two separate columns


def test_regions_in_pieces_are_refused():
    with pytest.raises(GeometryError, match="region a is not contiguous: A1 and A3"):
        make_geometry(4, regions=SPLIT_MAP)
    with pytest.raises(GeometryError, match="region 2 is not contiguous: C1 and C3"):
        make_geometry(4, regions=[0, 0, 1, 1] * 2 + [2, 3, 2, 3] * 2)
    with pytest.raises(ParseError, match="not contiguous"):
        parse("." * 16, regions=SPLIT_MAP)


def test_regions_in_pieces_when_asked_for():
    g = make_geometry(4, regions=SPLIT_MAP, contiguous=False)
    assert g.name == "4x4 jigsaw" and g.boxes[:4] == (0, 1, 0, 1)
    assert parse("." * 16, regions=SPLIT_MAP, contiguous=False).geometry == g
    assert [p.geometry for p in parse_many("." * 16, regions=SPLIT_MAP, contiguous=False)] == [g]
    # a recorded geometry is rebuilt as it was recorded (certificates, DIMACS headers)
    assert geometry_from_record(geometry_record(g)) == g


SPLIT_PUZZLE = "..2....14....3.."  # unique on SPLIT_MAP (sudoku-csp generate --seed 1)
SPLIT_COMMANDS = [  # every command that takes --regions; FILE is a file holding SPLIT_PUZZLE
    ["solve", SPLIT_PUZZLE], ["count", SPLIT_PUZZLE], ["show", SPLIT_PUZZLE],
    ["check", SPLIT_PUZZLE, "-s", "native", "-s", "sat"], ["compare", "FILE", "-s", "native"],
    ["encode", SPLIT_PUZZLE], ["certify", SPLIT_PUZZLE, "DIR"], ["minimal", SPLIT_PUZZLE],
    ["generate", "--size", "4"],
]


@pytest.mark.parametrize("command", slow_if(SPLIT_COMMANDS, lambda c: c[0] not in (
    "solve", "compare", "generate")), ids=lambda c: c[0])
def test_regions_in_pieces_through_the_cli_only_with_split_regions(tmp_path, command):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(SPLIT_PUZZLE + "\n")
    args = [str(puzzles) if a == "FILE" else str(tmp_path / "cert") if a == "DIR" else a
            for a in command] + ["--regions", SPLIT_MAP]
    assert_input_error(run(*args), "--split-regions")
    result = run(*args, "--split-regions")
    assert result.exit_code == Exit.OK, result.output


def test_contiguous_regions_pass():
    assert make_geometry(9, regions=JIGSAW_MAP).name == "9x9 jigsaw"
    assert make_geometry(5, regions="aaabb aabbb cccdd ccedd eeeed").size == 5


def test_an_over_long_line_is_refused_while_it_is_read(tmp_path):
    # Ten million characters on one line: refused after MAX_LINE of them, without reading
    # (or splitting into cells) the whole line.
    path = tmp_path / "long.txt"
    path.write_text("1" * 10_000_000 + "\n")
    reads = []

    class Counting(io.TextIOWrapper):
        def readline(self, size=-1):
            reads.append(size)
            return super().readline(size)

    with Counting(open(path, "rb"), encoding="utf-8") as handle:
        with pytest.raises(ParseError, match=f"longer than {MAX_LINE} characters") as info:
            list(read_puzzles(handle))
    assert info.value.line == 1
    assert reads and all(0 < size <= MAX_LINE + 1 for size in reads)


# -- 9. a path that exists but is not a regular file -------------------------------------------
@pytest.mark.parametrize("command", [["count"], ["solve"], ["check", "-s", "native"], ["show"],
                                     ["minimal"], ["compare", "-s", "native"]],
                         ids=lambda c: c[0])
def test_a_directory_is_named_as_one(tmp_path, command):
    assert_input_error(run(command[0], str(tmp_path), *command[1:]),
                       f"{tmp_path}: is a directory")
    puzzles = tmp_path / "p.txt"  # also among several files
    puzzles.write_text(GRID2 + "\n")
    if command[0] == "compare":
        assert_input_error(run("compare", str(puzzles), str(tmp_path), *command[1:]),
                           "is a directory")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_not_read_as_a_puzzle_file():
    # /dev/zero would be read for ever (or until the line-length cap): refused by its kind.
    assert_input_error(run("count", "/dev/zero"), "/dev/zero: not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_is_not_read_as_a_puzzle_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run("count", str(fifo))
    assert_input_error(result, "not a regular file")
    assert "- to read standard input" in result.stderr


# -- usage errors are usage errors (exit 2, typer's usage line), bad paths input errors -------
def assert_usage_error(result, expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Usage: " in result.output and expected in result.output, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("args", "expected"), [
    (["count", "{file}", "--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"], "not both"),
    (["check", "{file}", "--resume"], "--resume needs --out"),
    (["explain"], "give a puzzle"),
])
def test_conflicting_or_missing_arguments_are_usage_errors(tmp_path, args, expected):
    path = tmp_path / "p.txt"
    path.write_text(GRID2 + "\n")
    assert_usage_error(run(*(a.format(file=path) for a in args)), expected)


@pytest.mark.parametrize("command", ["solve", "count", "rate", "check"])
def test_an_out_path_that_cannot_be_a_file_is_refused_before_any_work(tmp_path, command):
    folder = tmp_path / "r.jsonl"
    folder.mkdir()
    assert_input_error(run(command, GRID2, "--out", str(folder)), "is a directory")
    assert_input_error(run(command, GRID2, "--out", str(tmp_path / "no" / "r.jsonl")),
                       "no directory")


# -- numbers and nesting no reader can convert are input errors, named ------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("AABBCCDDEEFFGGHH " + "9" * 5000 + ",7,7,3,4,6,6,4",
     "a sum of 5000 digits is beyond any cage"),
    ('{"givens": "' + "." * 16 + '", "cages": [{"cells": ["A1", "A2"], "sum": ' + "9" * 5000
     + "}]}", "a number of thousands of digits"),
    ('{"givens": "' + "." * 16 + '", "cages": [{"cells": ["A1", "A2"], "sum": ' + "9" * 4000
     + "}]}", "cannot sum to a number of 4000 digits"),
    ('{"givens": "3.1...4.2.......", "metadata": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}",
     "nested hundreds of levels deep"),
])
def test_numbers_and_nesting_beyond_any_puzzle_are_input_errors(tmp_path, text, expected):
    with pytest.raises(ParseError, match=expected):
        parse(text)
    path = tmp_path / "p.jsonl"
    path.write_text(text + "\n")
    assert_input_error(run("count", str(path)), expected)


@pytest.mark.parametrize("args", [["encode", GRID2], ["certify", GRID2, "{dir}"]])
def test_every_option_value_is_checked_even_where_nothing_uses_it(tmp_path, args):
    # A plain puzzle has no cage to write with --sums: a bad value is still refused.
    result = run(*(a.format(dir=tmp_path / "cert") for a in args), "--sums", "bogus")
    assert_input_error(result, "unknown cage-sum encoding 'bogus'")
