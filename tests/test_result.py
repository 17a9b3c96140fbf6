"""Result in a notebook: ``_repr_html_`` is well-formed HTML with the verdict and the picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from cases import BY_NAME, GRID2

from sudoku_csp import Result, Status, count, parse

SVG = "{http://www.w3.org/2000/svg}"


def parsed(html: str) -> ET.Element:
    """The block as XML: the parser raises unless it is well-formed."""
    return ET.fromstring(html)


def test_html_shows_the_verdict_solver_count_time_and_the_solution():
    puzzle = parse(GRID2)
    block = parsed(count(puzzle, "sat")._repr_html_())
    line = "".join(block.find("p").itertext())
    assert block.find("p/b").text == "unique"
    assert "sat" in line and "1 solution found" in line and " ms" in line
    svg = block.find(f"{SVG}svg")
    assert svg is not None
    texts = {cls: [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == cls]
             for cls in ("given", "value")}
    assert len(texts["given"]) == puzzle.clue_count
    assert len(texts["value"]) == 81 - puzzle.clue_count  # the solved cells, drawn in blue


def test_html_without_a_solution_draws_the_puzzle_and_escapes_the_message():
    block = parsed(count(BY_NAME["clash"].text)._repr_html_())
    assert block.find("p/b").text == "none"
    assert "both hold 1" in "".join(block.find("p").itertext())
    assert block.find(f"{SVG}svg") is not None
    bare = parsed(Result(Status.UNKNOWN, message="time <limit> & more", complete=False)
                  ._repr_html_())
    assert "time <limit> & more" in "".join(bare.itertext())
    assert "search cut short" in "".join(bare.itertext())
    assert bare.find(f"{SVG}svg") is None  # no puzzle known, nothing to draw


def test_reprs_name_cells_and_digits_as_text_does():
    # Digits 1-based, blanks as '.', the verdict in words: not raw internal tuples.
    from sudoku_csp import count, parse
    from sudoku_csp.logic import explain

    puzzle = parse("3.1...4.2.......")
    assert repr(puzzle) == "<Puzzle 4x4, 4 givens: 3.1...4.2.......>"
    assert repr(count(puzzle, "native")).startswith("<Result unique by native: 1 solution "
                                          "3412124321344321, ")
    several = repr(count("1..." "..1." ".1.." "...1", "native"))
    assert several.startswith("<Result multiple by native: 2 solutions 1") and "(-1" not in several
    assert repr(explain(puzzle)).startswith("<Explanation of a 4x4 puzzle (unique): ")
    assert "cage" in repr(parse("AABBCCDDEEFFGGHH 3,7,7,3,4,6,6,4"))


def test_a_step_repr_is_its_own_words():
    from sudoku_csp.logic import hint

    step = hint("3.1...4.2.......")
    assert repr(step) == "<Step hidden_single_box 1.2: Hidden single: 4 in box 1 → A2>"


def test_digits_are_the_solution_as_the_user_sees_it():
    # Result.solution is 0-based (digit d is d - 1, as every solver works); digits is the
    # same grid 1-based, as printed, typed and read back.
    result = count(GRID2)
    expected = BY_NAME["grid2"].solution
    assert result.digits is not None and len(result.digits) == 81
    assert "".join(map(str, result.digits)) == expected
    assert result.digits == tuple(d + 1 for d in result.solution)
    big = count(BY_NAME["16x16"].text)
    assert big.digits is not None and set(big.digits) == set(range(1, 17))
    assert Result(Status.NONE).digits is None
