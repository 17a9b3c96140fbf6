"""Puzzles of the other constraint kinds (sudoku_csp.generate.kinds and
`generate --kind`): unique by backends that did not make them, constraints true of the
solution, minimal in givens and in pieces, reproducible; the CLI's lines, and the errors
of every `generate --kind` (killer too)."""

from __future__ import annotations

import json
import random

import pytest
from cases import slow_if
from typer.testing import CliRunner

from sudoku_csp import EMPTY, Puzzle, Status, get_backend, make_geometry, parse, violations
from sudoku_csp.cli import app
from sudoku_csp.constraints import (
    KINDS,
    XV,
    Cage,
    Constraint,
    Dots,
    Kropki,
    LittleKiller,
    MinMax,
    Parity,
    Thermo,
    XSum,
    check_all,
    makers,
)
from sudoku_csp.constraints.fields import orthogonal_pairs
from sudoku_csp.errors import InputError
from sudoku_csp.generate import GenerationError, NoGridError, generate, minimality, random_grid
from sudoku_csp.generate.kinds import generate_variants, maker_names
from sudoku_csp.io import to_line
from sudoku_csp.symmetry import is_symmetric

runner = CliRunner()
SIX = make_geometry(6)


def _less_one_piece(constraint: Constraint) -> list[tuple[Constraint, ...]]:
    """The constraint with each of the pieces the generator may drop taken out (written out
    again): a thermometer, a dot or mark without the negative rule, an odd or even cell."""
    if isinstance(constraint, (Kropki, XV)) and not constraint.negative:
        kind = type(constraint)
        return [(kind(tuple(q for q in constraint.first if q != p),
                      tuple(q for q in constraint.second if q != p), False),)
                for p in (*constraint.first, *constraint.second)]
    if isinstance(constraint, Parity):
        return [(Parity(tuple(c for c in constraint.odd if c != cell),
                        tuple(c for c in constraint.even if c != cell)),)
                for cell in constraint.touched()]
    if isinstance(constraint, Thermo):
        return [()]
    return []  # fixed: non-consecutive, and marks under the negative rule


def _assert_good(puzzle: Puzzle, kinds: set[str]) -> None:
    """Unique by native and CP-SAT (neither made it) with one solution that keeps every
    constraint; read back from its line; no given and no piece to spare."""
    g = puzzle.geometry
    assert {c.kind for c in puzzle.constraints} <= kinds and puzzle.constraints
    solutions = set()
    for spec in ("native", "cpsat"):
        result = get_backend(spec).solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, (spec, to_line(puzzle))
        solutions.add(result.solution)
    (solution,) = solutions
    assert violations(puzzle, solution) == []
    assert all(d in (EMPTY, s) for d, s in zip(puzzle.givens, solution, strict=True))
    again = parse(to_line(puzzle), geometry=g)
    assert set(again.constraints) == set(puzzle.constraints) and again.givens == puzzle.givens
    assert minimality(puzzle).minimal
    native = get_backend("native")
    for constraint in puzzle.constraints:
        for less in _less_one_piece(constraint):
            rest = (*(c for c in puzzle.constraints if c != constraint), *less)
            fewer = Puzzle(g, puzzle.givens, "", rest)
            assert native.solve(fewer, limit=2).status is Status.MULTIPLE, (less, puzzle)


CASES = [("thermometer", True), ("kropki", True), ("kropki", False), ("xv", True), ("xv", False),
         ("parity", True), ("nonconsecutive", True)]


@pytest.mark.parametrize(("name", "negative"), CASES,
                         ids=[f"{n}{'' if neg else '-positive'}" for n, neg in CASES])
def test_every_kind_makes_unique_minimal_puzzles(name, negative):
    kind = makers()[name].kind
    puzzles = list(generate_variants(SIX, kinds=[name], count=2, seed=3, negative=negative))
    assert len(puzzles) == 2
    for index, puzzle in enumerate(puzzles, start=1):
        _assert_good(puzzle, {kind})
        assert puzzle.metadata.startswith(f"generated seed=3 #{index}: {name}, ")
        assert puzzle.metadata.endswith(", minimal")
        marks = [c for c in puzzle.constraints if isinstance(c, (Kropki, XV))]
        assert all(m.negative == negative for m in marks)


def test_the_negative_rule_gives_every_dot_the_grid_implies():
    puzzle = next(generate_variants(SIX, kinds=["kropki"], seed=5))
    (dots,) = puzzle.constraints
    assert isinstance(dots, Kropki) and dots.negative
    solution = get_backend("cpsat").solve(puzzle).solution
    for a, b in orthogonal_pairs(SIX):
        x, y = solution[a] + 1, solution[b] + 1
        implied = abs(x - y) == 1 or x == 2 * y or y == 2 * x
        assert ((a, b) in dots.first or (a, b) in dots.second) == implied


def test_thermometers_increase_along_paths_of_neighbours():
    for puzzle in generate_variants(SIX, kinds=["thermo"], count=3, seed=2):
        for thermo in puzzle.constraints:
            assert isinstance(thermo, Thermo) and 3 <= len(thermo.cells) <= 6


def test_kinds_combine_and_given_free_on_request():
    puzzles = list(generate_variants(SIX, kinds=["parity", "thermometer"], count=2, seed=1,
                                     max_givens=0))
    for puzzle in puzzles:
        _assert_good(puzzle, {"thermometer", "parity"})
        assert puzzle.clue_count == 0
        assert puzzle.metadata.startswith("generated seed=1 #")
        assert ": thermometer and parity, 0 givens, " in puzzle.metadata


def test_symmetric_givens_when_asked():
    for puzzle in generate_variants(SIX, kinds=["xv"], count=2, seed=2, negative=False,
                                    symmetry="rot180", minimal=True):
        assert is_symmetric(puzzle, "rot180")
        _assert_good(puzzle, {"xv"})
        assert puzzle.metadata.endswith(", rot180, minimal")


def test_same_seed_same_puzzles_whatever_ran_before():
    first = [to_line(p) for p in generate_variants(SIX, kinds=["thermo"], count=3, seed=11)]
    next(generate(SIX, seed=5))  # other work on the shared session in between
    list(generate_variants(SIX, kinds=["kropki"], count=2, seed=12, negative=False))
    again = [to_line(p) for p in generate_variants(SIX, kinds=["thermo"], count=3, seed=11)]
    assert first == again
    assert [to_line(p) for p in generate_variants(SIX, kinds=["thermo"], seed=11)] == first[:1]
    assert first != [to_line(p) for p in generate_variants(SIX, kinds=["thermo"], count=3,
                                                            seed=12)]


def test_every_kind_has_a_generator():
    # One registry: killer cages by generate_killer, every other rule by a maker here (pencil
    # marks say where a solver stands, not a rule a puzzle is made of), named by its kind's
    # name with "-" for spaces, in lower case; options take any spelling of a kind.
    assert set(makers().values()) | {Cage} == {k for k in KINDS if not k.starting}
    for name, kind in makers().items():
        assert name == kind.kind.replace(" ", "-").lower()
    assert makers()["little-killer"] is LittleKiller and makers()["x-sum"] is XSum
    assert maker_names(["thermometer", "PARITY", "thermo"]) == ["thermometer", "parity"]
    assert maker_names(["X-sum", "little killer", "Little-Killer"]) == ["little-killer",
                                                                        "x-sum"]


SLOW_MAKERS = {"thermometer"}
"""Makers whose 6x6 puzzle takes more than about 0.05 s (thermometers: 0.05-0.2 s, and the
fast tests above make them anyway); the others take 5-50 ms."""


@pytest.mark.parametrize("name", slow_if(list(makers()), lambda name: name in SLOW_MAKERS))
def test_every_maker_makes_a_unique_puzzle_on_6x6(name):
    kind = makers()[name]
    (puzzle,) = generate_variants(SIX, kinds=[name], seed=1, attempts=3)
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.count == 1, to_line(puzzle)
    assert puzzle.constraints and all(isinstance(c, kind) for c in puzzle.constraints)
    check_all(SIX, puzzle.constraints)  # a single kind's pieces merged into one constraint
    assert violations(puzzle, result.solution) == []
    assert puzzle.metadata.startswith(f"generated seed=1 #1: {name}, ")
    assert parse(to_line(puzzle), geometry=SIX).constraints == puzzle.constraints


@pytest.mark.parametrize("kind", [Dots, MinMax])
def test_pieces_read_off_merge_into_what_they_say_together(kind):
    # The default read_off keeps only pieces of a single kind that merge exactly: any of
    # them kept, the one merged constraint rules the pairs they rule, and the grid keeps it.
    rng = random.Random(4)
    counts = []
    for seed in range(6):
        grid = random_grid(SIX, seed)
        fixed, pieces = kind.read_off(SIX, grid, rng, False)
        assert not fixed and pieces and len(set(pieces)) == len(pieces)
        counts.append(len(pieces))
        for _ in range(10):
            kept = rng.sample(pieces, rng.randint(1, len(pieces)))
            (merged,) = kind.merge(kept)
            assert set(merged.rules(SIX)) == {r for p in kept for r in p.rules(SIX)}
            assert merged.violations(SIX, grid) == []
    assert max(counts) > 3, counts


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"kinds": ["pencil marks"]}, InputError, "'pencil marks' .* is no kind to generate"),
    ({"kinds": []}, InputError, "no constraint kind"),
    ({"kinds": ["xv"], "count": -1}, InputError, "count"),
    ({"kinds": ["xv"], "attempts": 0}, InputError, "attempts"),
    ({"kinds": ["xv"], "max_givens": -1}, InputError, "max_givens"),
])
def test_bad_arguments_are_input_errors(kwargs, error, words):
    with pytest.raises(error, match=words):
        generate_variants(make_geometry(4), **kwargs)


def test_requests_out_of_reach_are_generation_errors():
    four = make_geometry(4)
    with pytest.raises(NoGridError, match="no solution with nonconsecutive"):
        next(generate_variants(four, kinds=["nonconsecutive"]))
    # Swapping 1 and 3 keeps every parity: a given must tell them apart.
    with pytest.raises(GenerationError, match="at most 0 givens found in 2 grids"):
        next(generate_variants(four, kinds=["parity"], max_givens=0, attempts=2))


# -- the command line -------------------------------------------------------------------------
def test_cli_generate_kind_prints_reproducible_json_lines(tmp_path):
    out = tmp_path / "t.jsonl"
    args = ["generate", "--kind", "thermo", "--kind", "xv", "--no-negative", "--count", "2",
            "--size", "6", "--seed", "7"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ("# sudoku-csp generate --kind thermometer --kind xv --count 2 --size 6 "
                        "--symmetry none --no-negative --seed 7")
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    printed = [line for line in again.stdout.splitlines() if "\t" in line]
    assert printed == lines[1:]
    for line in printed:
        text, _, note = line.partition("\t")
        assert json.loads(text)["size"] == 6 and note.startswith("generated seed=7 #")
        _assert_good(parse(text), {"thermometer", "xv"})
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0, checked.output


def test_cli_generate_takes_the_new_kinds_by_either_name(tmp_path):
    out = tmp_path / "k.jsonl"
    args = ["generate", "--kind", "little killer", "--kind", "dots", "--size", "6", "--seed",
            "3", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (line,) = out.read_text(encoding="utf-8").splitlines()[1:]
    text, _, note = line.partition("\t")
    assert note.startswith("generated seed=3 #1: little-killer and dots, ")
    puzzle = parse(text)
    # Dropping pieces while the puzzle stays unique may leave one kind out.
    assert puzzle.constraints and {c.kind for c in puzzle.constraints} <= {"little killer",
                                                                            "dots"}
    assert get_backend("sat").solve(puzzle, limit=2).count == 1


@pytest.mark.parametrize(("args", "words"), [
    # killer cages (sudoku_csp.generate.killer)
    (["--killer", "--minimal"], "generate --kind killer does not take --minimal"),
    (["--kind", "killer", "--symmetry", "rot180", "--difficulty", "easy"],
     "does not take --symmetry, --difficulty"),
    (["--kind", "killer", "--max-givens", "0", "--no-negative"],
     "does not take --no-negative, --max-givens"),
    (["--killer", "--kind", "thermo"], "--kind killer combines with no other kind"),
    (["--merges", "3"], "--merges: only with --kind killer"),
    (["--kind", "parity", "--min-cage", "2"], "--min-cage: only with --kind killer"),
    (["--killer", "--size", "4", "--max-cage", "5"], "at most 4 cells"),
    (["--killer", "--size", "4", "--min-cage", "4", "--attempts", "2"],
     "no unique killer with cages of 4-4 cells found in 2 grids"),
    (["--killer", "--size", "4", "--variant", "anti-king"], "has no solution"),
    # the other kinds
    (["--kind", "nonconsecutive", "--size", "4"], "has no solution with nonconsecutive"),
    (["--kind", "parity", "--size", "4", "--max-givens", "0", "--attempts", "2"],
     "no unique parity puzzle with at most 0 givens found in 2 grids"),
    (["--kind", "thermo", "--negative"], "--negative: only with --kind kropki or --kind xv"),
    (["--kind", "xv", "--difficulty", "easy"], "generate --kind does not take --difficulty"),
    (["--kind", "pencil-marks"], "'pencil-marks' (pencil marks) is no kind to generate"),
    (["--max-givens", "2"], "--max-givens: only with --kind"),
    (["--no-negative"], "--no-negative: only with --kind"),
])
def test_cli_generate_errors_are_one_line_and_exit_6(args, words, tmp_path):
    out = tmp_path / "never.txt"
    result = runner.invoke(app, ["generate", *args, "--out", str(out)])
    assert result.exit_code == 6, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output and not out.exists()


def test_help_lists_every_kind():
    words = " ".join(runner.invoke(app, ["generate", "--help"]).output.split())
    assert all(name in words for name in ["killer", *makers()])


def test_a_question_the_budget_leaves_open_counts_as_another_solution():
    # What keeps little killers on 9x9 from taking minutes: a bounded question answered
    # "another solution" keeps the given or piece asked about, never loses uniqueness.
    from sudoku_csp.generate.session import UniquenessSession

    puzzle = parse("..5...3....27...4.3.69...2......5...7..3.2.15....4628...1....3........."
                   "68...1....")
    session = UniquenessSession(puzzle.geometry)  # a fresh one: nothing learnt yet
    grid = get_backend("sat").solve(puzzle).solutions[0]
    with session.budgeted(1):
        assert session.has_other(puzzle.givens, grid)  # left open: "another solution"
        assert not session.has_other(grid, grid)  # settled at once: the true answer
    assert session.budget is None
    assert not session.has_other(puzzle.givens, grid)  # unique, as an unbounded question says
    session.close()
