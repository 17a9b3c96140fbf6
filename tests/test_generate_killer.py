"""Killer puzzles with no givens (sudoku_csp.generate.killer and `generate --kind killer`)."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from sudoku_csp import EMPTY, Puzzle, Result, Status, get_backend, make_geometry, parse
from sudoku_csp.cli import app
from sudoku_csp.constraints import Cage
from sudoku_csp.generate import CheckDisagreesError, GenerationError, UniquenessSession, generate
from sudoku_csp.generate.killer import (
    generate_killers,
    killer_cages,
    random_cages,
)
from sudoku_csp.io import to_line

runner = CliRunner()
NINE = make_geometry(9)


def _connected(cells: tuple[int, ...], n: int) -> bool:
    """Orthogonal connectivity, written out again (not the module's helper)."""
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = divmod(todo.pop(), n)
        for other in (r * n + c - 1 if c else -1, r * n + c + 1 if c < n - 1 else -1,
                      (r - 1) * n + c, (r + 1) * n + c):
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == set(cells)


def _assert_good(puzzle: Puzzle, low: int, high: int) -> None:
    """Given-free, cages covering the grid once, connected, within size, unique by two
    independent backends that agree on the solution."""
    g = puzzle.geometry
    assert puzzle.clue_count == 0 and all(d == EMPTY for d in puzzle.givens)
    cages = [c for c in puzzle.constraints if isinstance(c, Cage)]
    assert len(cages) == len(puzzle.constraints) and all(c.total is not None for c in cages)
    assert sorted(cell for c in cages for cell in c.cells) == list(range(g.ncells))
    for cage in cages:
        assert low <= len(cage.cells) <= high, cage
        assert _connected(cage.cells, g.size), cage
    solutions = set()
    for spec in ("sat", "cpsat"):
        result = get_backend(spec).solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, (spec, to_line(puzzle))
        solutions.add(result.solution)
    assert len(solutions) == 1
    # The printed line reads back as the same puzzle.
    again = parse(to_line(puzzle), geometry=g)
    assert set(again.constraints) == set(cages) and again.givens == puzzle.givens


@pytest.mark.parametrize(("geometry", "count"), [
    (make_geometry(4), 4),
    (make_geometry(6), 3),
    (make_geometry(6, (3, 2)), 2),
    (NINE, 3),
    (make_geometry(9, variants=["diagonal"]), 1),
], ids=["4x4", "6x6", "6x6-3x2", "9x9", "9x9-diagonal"])
def test_generated_killers_are_unique_given_free_and_well_caged(geometry, count):
    high = min(5, geometry.size)
    puzzles = list(generate_killers(geometry, count=count, seed=3))
    assert len(puzzles) == count
    for index, puzzle in enumerate(puzzles, start=1):
        _assert_good(puzzle, 2, high)
        assert puzzle.metadata.startswith(f"generated seed=3 #{index}: killer, 0 givens, ")


def test_cage_size_options_and_single_cells():
    for puzzle in generate_killers(NINE, count=2, seed=4, max_cage=3):
        _assert_good(puzzle, 2, 3)
    singles = list(generate_killers(make_geometry(6), count=3, seed=4, min_cage=1, max_cage=2))
    for puzzle in singles:
        _assert_good(puzzle, 1, 2)


def test_merges_make_fewer_cages_and_keep_uniqueness():
    plain = next(generate_killers(make_geometry(6), seed=9))
    merged = next(generate_killers(make_geometry(6), seed=9, merges=15))
    _assert_good(merged, 2, 5)
    assert len(merged.constraints) <= len(plain.constraints)


def test_same_seed_same_puzzles_whatever_ran_before():
    six = make_geometry(6)
    first = [to_line(p) for p in generate_killers(six, count=3, seed=11)]
    # Other work on the same shared session in between (plain puzzles, other killers)
    # must not change what a seed gives: each puzzle starts from a fresh solver.
    next(generate(six, seed=5))
    list(generate_killers(six, count=2, seed=12))
    again = [to_line(p) for p in generate_killers(six, count=3, seed=11)]
    assert first == again
    # Puzzle i depends only on the seed and i.
    assert [to_line(p) for p in generate_killers(six, count=1, seed=11)] == first[:1]
    assert first != [to_line(p) for p in generate_killers(six, count=3, seed=12)]


def test_random_cages_cover_the_grid_with_different_digits():
    grid = get_backend("sat").solve(Puzzle.empty(NINE)).solution
    made = 0
    for seed in range(10):
        cages = random_cages(NINE, grid, random.Random(seed), 2, 5)
        if cages is None:
            continue
        made += 1
        assert sorted(c for cage in cages for c in cage) == list(range(81))
        for cage in cages:
            assert 2 <= len(cage) <= 5 and len({grid[c] for c in cage}) == len(cage)
            assert _connected(tuple(cage), 9)
    assert made >= 5


def test_killer_cages_over_a_given_grid_leave_it_the_only_solution():
    grid = get_backend("sat").solve(parse(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    ).solution
    session = UniquenessSession(NINE)
    cages = killer_cages(NINE, grid, random.Random(1), session)
    assert cages is not None
    result = get_backend("cpsat").solve(Puzzle(NINE, (EMPTY,) * 81, "", tuple(cages)), limit=2)
    assert result.status is Status.UNIQUE and result.solution == grid
    session.close()


def test_session_retires_cage_clauses():
    # Clauses behind a cage's selector hold only while a question names the cage.
    g = make_geometry(4)
    session = UniquenessSession(g)
    blank = (EMPTY,) * 16
    grid = session.solve(blank)
    assert grid is not None
    wrong = Cage((0, 1), grid[0] + grid[1] + 3)  # a sum the grid does not have
    assert session.solve(blank, [wrong]) != grid
    assert session.has_other(blank, grid)        # the cage is not assumed: back to free
    session.release([wrong])
    assert session.solve(blank, [Cage((0, 1), grid[0] + grid[1] + 2)]) is not None
    session.close()


def test_a_checker_that_disagrees_is_a_backend_error():
    class Wrong:
        spec = "wrong"

        def solve(self, puzzle, *, limit=1, time_limit=None):
            return Result(Status.MULTIPLE)

    with pytest.raises(CheckDisagreesError):
        next(generate_killers(make_geometry(4), check=Wrong()))


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"min_cage": 0}, "at least 1 cell"),
    ({"max_cage": 5}, "at most 4 cells"),
    ({"min_cage": 3, "max_cage": 2}, "smaller than the smallest"),
    ({"merges": -1}, "merges"),
    ({"attempts": 0}, "attempts"),
    ({"count": -1}, "count"),
])
def test_bad_arguments_are_input_errors(kwargs, words):
    from sudoku_csp.errors import InputError

    with pytest.raises(InputError, match=words):
        generate_killers(make_geometry(4), **kwargs)


def test_out_of_reach_is_a_generation_error():
    # Every 4-cell cage of a 4x4 sums to 10: no layout is ever unique.
    with pytest.raises(GenerationError, match="2 grids"):
        next(generate_killers(make_geometry(4), min_cage=4, attempts=2))


# -- the command line -------------------------------------------------------------------------
def test_cli_generate_killer_writes_reproducible_killer_lines(tmp_path):
    out = tmp_path / "k.txt"
    args = ["generate", "--kind", "killer", "--count", "2", "--size", "6", "--seed", "7",
            "--max-cage", "4"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ("# sudoku-csp generate --kind killer --count 2 --size 6 --max-cage 4 "
                        "--seed 7")
    # --killer is the same as --kind killer (and the header's command makes the same file).
    again = runner.invoke(app, ["generate", "--killer", *args[3:]])
    assert again.exit_code == 0, again.output
    printed = [line for line in again.stdout.splitlines() if "\t" in line]
    assert printed == lines[1:]
    for line in printed:
        text, _, note = line.partition("\t")
        puzzle = parse(text)
        assert puzzle.size == 6 and note.startswith("generated seed=7 #")
        _assert_good(puzzle, 2, 4)
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
