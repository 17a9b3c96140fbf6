"""Canonical forms (sudoku_csp.canon): exact minlex, equivalence with its transformation, the
`canon` command."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from cases import GRID1, GRID2, HARD1, JIGSAW_MAP
from hypothesis import given, settings
from hypothesis import strategies as st
from test_input_errors import assert_input_error
from typer.testing import CliRunner

from sudoku_csp import EMPTY, Puzzle, datasets, make_geometry, parse, solve
from sudoku_csp.canon import (
    Transformation,
    UnsupportedGeometryError,
    canonical,
    canonicalize,
    equivalent,
)
from sudoku_csp.cli import Exit, app
from sudoku_csp.errors import InputError
from sudoku_csp.io import to_line

runner = CliRunner()

# The minlex strings of four puzzles and a full grid, found once by enumerating all 2·6^8 cell
# arrangements of the 9x9 group (numpy, outside the test suite: about 20 s a puzzle), with
# digits numbered by first appearance. The search must land on exactly these.
ENUMERATED = {
    GRID1: "000000000001002003240560780000000000002003007350680940000070050520308406710405208",
    GRID2: "000000001000001023004050000000000500000600740380000000000002000007000600010008000",
    HARD1: "000000000000000000000001234000000001002000005460005000010047003030000000740000000",
    "48.92.6.7.67345..12.1...4.354..32.7....5.4.3.1.67982.5.7..895.....253.6.6.54.738.":
        "000001023023004105670250849000006251004020908260019034039460580406700312750130000",
}
FULL = ("483921657967345821251876493548132976729564138136798245372689514814253769695417382",
        "123456789457189236689327145275814693364592817891673524536248971742961358918735462")


def minlex_string(puzzle: Puzzle) -> str:
    return to_line(puzzle).replace(".", "0")


def relabelled(grid) -> tuple[int, ...]:
    """Digits renumbered 1, 2, ... by first appearance, 0 for blanks: the best relabelling of
    one cell arrangement (written here independently of the search)."""
    labels: dict[int, int] = {}
    return tuple(0 if d == EMPTY else labels.setdefault(d, len(labels) + 1) for d in grid)


def orders(n: int, step: int) -> list[tuple[int, ...]]:
    """Every order of 0..n-1 that keeps the blocks of ``step`` together (bands or stacks)."""
    blocks = [tuple(range(b, b + step)) for b in range(0, n, step)]
    found = []
    for block_order in itertools.permutations(blocks):
        for inner in itertools.product(*(itertools.permutations(b) for b in block_order)):
            found.append(tuple(k for block in inner for k in block))
    return found


def brute_force_minlex(puzzle: Puzzle) -> tuple[int, ...]:
    """The minimum over the whole group, every cell arrangement enumerated."""
    n, (height, width) = puzzle.size, puzzle.geometry.box
    identity = tuple(range(n))
    return min(relabelled(Transformation(t, rows, columns, identity).apply_grid(puzzle.givens))
               for t in ((False, True) if height == width else (False,))
               for rows in orders(n, height) for columns in orders(n, width))


def random_transformation(rng: random.Random, n: int, height: int, width: int
                          ) -> Transformation:
    def order(step: int) -> tuple[int, ...]:
        blocks = [list(range(b, b + step)) for b in range(0, n, step)]
        rng.shuffle(blocks)
        for block in blocks:
            rng.shuffle(block)
        return tuple(k for block in blocks for k in block)

    digits = list(range(n))
    rng.shuffle(digits)
    return Transformation(height == width and rng.random() < 0.5, order(height), order(width),
                          tuple(digits))


def random_puzzle(rng: random.Random, size: int, box: tuple[int, int] | None = None,
                  density: float = 0.4) -> Puzzle:
    """Givens of a solution grid, shuffled by a random transformation, kept with
    probability ``density``."""
    geometry = make_geometry(size, box)
    grid = solve(Puzzle.empty(geometry)).solution
    height, width = geometry.box
    grid = random_transformation(rng, size, height, width).apply_grid(grid)
    return Puzzle(geometry, tuple(d if rng.random() < density else EMPTY for d in grid))


NINES = [parse(text) for text in ENUMERATED] + datasets.load("mixed9")[:6]


# -- exactness ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", list(ENUMERATED))
def test_the_search_finds_the_enumerated_minimum(text):
    assert minlex_string(canonical(parse(text))) == ENUMERATED[text]


@pytest.mark.parametrize(("size", "box", "count"), [
    (4, None, 40), (6, (2, 3), 4), (6, (3, 2), 3),
])
def test_small_grids_against_the_whole_group(size, box, count):
    rng = random.Random(size * 10 + count)
    for _ in range(count):
        puzzle = random_puzzle(rng, size, box, rng.choice([0.2, 0.4, 0.7, 1.0]))
        expected = brute_force_minlex(puzzle)
        got = canonical(puzzle)
        assert relabelled(got.givens) == expected == tuple(d + 1 if d != EMPTY else 0
                                                           for d in got.givens)


def test_clashing_givens_have_an_exact_form_too():
    rng = random.Random(7)
    geometry = make_geometry(4)
    for _ in range(30):  # random digits anywhere, clashes included
        puzzle = Puzzle(geometry, tuple(rng.randrange(4) if rng.random() < 0.5 else EMPTY
                                        for _ in range(16)))
        assert relabelled(canonical(puzzle).givens) == brute_force_minlex(puzzle)


def generators(n: int, box: int) -> list[Transformation]:
    """Transposition and every swap of two bands, stacks, rows in a band, columns in a stack."""
    same = tuple(range(n))
    swaps = []
    for a, b in itertools.combinations(range(n), 2):
        if a // box == b // box:  # two rows (columns) of one band (stack)
            swaps.append(tuple(b if k == a else a if k == b else k for k in same))
    for a, b in itertools.combinations(range(n // box), 2):  # two bands (stacks)
        swaps.append(tuple(k + (b - a) * box if k // box == a else
                           k - (b - a) * box if k // box == b else k for k in same))
    return ([Transformation(True, same, same, same)]
            + [Transformation(False, s, same, same) for s in swaps]
            + [Transformation(False, same, s, same) for s in swaps])


@pytest.mark.parametrize("puzzle", NINES, ids=lambda p: to_line(p)[:20])
def test_no_single_generator_makes_the_canonical_form_smaller(puzzle):
    form = canonical(puzzle)
    mine = relabelled(form.givens)
    assert mine == tuple(d + 1 if d != EMPTY else 0 for d in form.givens)
    for step in generators(9, 3):
        assert relabelled(step.apply_grid(form.givens)) >= mine, step


# -- invariance and equivalence ----------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, len(NINES) - 1), seed=st.integers(0, 2**32 - 1))
def test_random_transformations_give_the_same_form(index, seed):
    puzzle = NINES[index]
    moved = random_transformation(random.Random(seed), 9, 3, 3).apply(puzzle)
    assert canonical(moved) == canonical(puzzle)
    found = equivalent(puzzle, moved)
    assert found is not None and found.apply(puzzle) == moved
    back = equivalent(moved, puzzle)
    assert back is not None and back.apply(moved).givens == puzzle.givens


@pytest.mark.parametrize("puzzle", NINES, ids=lambda p: to_line(p)[:20])
def test_the_form_is_a_transformation_of_the_input_and_idempotent(puzzle):
    found = canonicalize(puzzle)
    assert found.transformation.apply(puzzle) == found.puzzle
    assert found.puzzle.clue_count == puzzle.clue_count
    again = equivalent(puzzle, found.puzzle)
    assert again is not None and again.apply(puzzle) == found.puzzle
    assert canonical(found.puzzle) == found.puzzle
    assert 0 < found.explored < 2 * 6 ** 8


def count_profile(puzzle: Puzzle) -> list[list[int]]:
    """Sorted givens per row and per column, in either role: an invariant of the group."""
    n = puzzle.size
    rows = sorted(sum(puzzle.givens[r * n + c] != EMPTY for c in range(n)) for r in range(n))
    cols = sorted(sum(puzzle.givens[r * n + c] != EMPTY for r in range(n)) for c in range(n))
    return sorted([rows, cols])


def test_inequivalent_puzzles_are_told_apart():
    grid2 = parse(GRID2)
    # the same puzzle with one given changed (a digit, then a place): the first differs from
    # GRID2 in one cell only, the second has another profile of givens per row
    changed = parse(GRID2[:1] + "7" + GRID2[2:])
    moved = parse("." + GRID2[1:-1] + "4")
    assert count_profile(moved) != count_profile(grid2)
    other = random_puzzle(random.Random(3), 9, density=0.25)
    assert count_profile(other) != count_profile(grid2)
    for a, b in [(grid2, changed), (grid2, moved), (grid2, other), (parse(GRID1), parse(HARD1))]:
        assert canonical(a) != canonical(b)
        assert equivalent(a, b) is None


def test_one_changed_digit_is_not_equivalent():
    # Same places, digits that no relabelling can match: 1 and 2 swapped in one cell only.
    a = parse("12" + "." * 7 + "21" + "." * 70)
    b = parse("12" + "." * 7 + "12" + "." * 70)  # a clash, but a grid all the same
    assert equivalent(a, b) is None


def test_different_geometries_are_not_equivalent():
    assert equivalent(parse("." * 36), parse("." * 36, box=(3, 2))) is None
    assert equivalent(parse("." * 16), parse("." * 81)) is None


def test_empty_and_full_grids():
    assert minlex_string(canonical(parse("." * 81))) == "0" * 81
    # A full grid: every arrangement of the first row ties, the slowest case (about a second).
    assert minlex_string(canonical(parse(FULL[0]))) == FULL[1]


# -- the transformation ------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_transformations_compose_and_invert(seed):
    rng = random.Random(seed)
    puzzle = NINES[seed % len(NINES)]
    first, second = (random_transformation(rng, 9, 3, 3) for _ in range(2))
    both = first.then(second)
    assert both.apply(puzzle) == second.apply(first.apply(puzzle))
    assert first.inverse().apply(first.apply(puzzle)).givens == puzzle.givens
    assert first.then(first.inverse()) == Transformation.identity(9)


def test_maps_that_break_the_rules_are_refused():
    puzzle = parse(GRID2)
    same = tuple(range(9))
    with pytest.raises(InputError, match="break up the boxes"):
        Transformation(False, (3, 1, 2, 0, 4, 5, 6, 7, 8), same, same).apply(puzzle)
    with pytest.raises(InputError, match="permutation"):
        Transformation(False, same, same, (0,) * 9)
    with pytest.raises(InputError, match="transposition"):
        Transformation(True, tuple(range(6)), tuple(range(6)), tuple(range(6))).apply(
            parse("." * 36))


# -- what is refused ---------------------------------------------------------------------------
@pytest.mark.parametrize("puzzle", [
    parse("." * 81, variants=["diagonal"]),
    parse("." * 81, regions=JIGSAW_MAP),
    parse("." * 81, variants=["anti-knight"]),
    parse("." * 256),
    parse("." * 81, box=(1, 9)),
], ids=["diagonal", "jigsaw", "anti-knight", "16x16", "1x9 boxes"])
def test_other_geometries_are_refused_with_one_message(puzzle):
    with pytest.raises(UnsupportedGeometryError, match="standard Sudoku grids with boxes"):
        canonical(puzzle)


# -- the command -------------------------------------------------------------------------------
def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


@pytest.fixture()
def puzzle_file(tmp_path):
    rng = random.Random(11)
    moved = random_transformation(rng, 9, 3, 3).apply(parse(GRID2))
    path = tmp_path / "p.txt"
    path.write_text(f"# three puzzles, two equivalent\n{GRID2}\n{HARD1}\n{to_line(moved)}\n")
    return path


def test_canon_prints_one_form_per_puzzle(puzzle_file):
    result = run("canon", str(puzzle_file))
    assert result.exit_code == Exit.OK, result.output
    lines = result.stdout.split()
    assert [line.replace(".", "0") for line in lines] == [
        ENUMERATED[GRID2], ENUMERATED[HARD1], ENUMERATED[GRID2]]
    single = run("canon", GRID1)
    assert single.stdout.strip().replace(".", "0") == ENUMERATED[GRID1]
    piped = run("canon", "-", input=puzzle_file.read_text())
    assert piped.stdout == result.stdout


def test_canon_dedupe_and_json(puzzle_file):
    result = run("canon", str(puzzle_file), "--dedupe")
    assert result.exit_code == Exit.OK, result.output
    assert len(result.stdout.split()) == 2
    assert "kept 2 of 3 puzzles; 1 dropped" in result.stderr
    result = run("canon", str(puzzle_file), "--dedupe", "--json")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["index"] for r in records] == [1, 2, 3]
    assert [r["duplicate_of"] for r in records] == [None, None, 1]
    assert records[0]["puzzle"] == GRID2 and records[2]["canonical"] == records[0]["canonical"]
    plain = [json.loads(line) for line in run("canon", str(puzzle_file), "--json").stdout
             .splitlines()]
    assert "duplicate_of" not in plain[0]


@pytest.mark.parametrize(("args", "expected"), [
    (["canon", GRID2, "--variant", "diagonal"], "standard Sudoku grids with boxes"),
    (["canon", "." * 256], "got a 16x16 puzzle"),
    (["canon", "no/such/file.txt"], "no such file"),
    (["canon", "1" * 80 + "?"], "unknown symbol"),
])
def test_canon_input_errors_are_one_line_with_exit_6(args, expected):
    assert_input_error(run(*args), expected)
