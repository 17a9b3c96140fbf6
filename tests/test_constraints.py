"""Typed constraints (sudoku_csp.constraints): every kind on every backend against a brute
force count, the puzzle formats and their errors, the CLI, and what refuses them."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from cases import CONSTRAINED_CASES, KILLER4, slow_if
from pages import pages
from typer.testing import CliRunner

from sudoku_csp import (
    InvalidPuzzleError,
    ParseError,
    Puzzle,
    Status,
    get_backend,
    is_solution,
    make_geometry,
    parse,
    read_puzzles,
    violations,
)
from sudoku_csp.cli import app
from sudoku_csp.constraints import (
    KINDS,
    Cage,
    Kropki,
    UnsupportedError,
    cnf_clauses,
)
from sudoku_csp.constraints.kinds.cage import combinations_for, sum_range
from sudoku_csp.constraints.registry import encoding_options, makers
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io import to_line
from sudoku_csp.io.record import puzzle_record

ROOT = Path(__file__).resolve().parents[1]
KILLER9_FILE = ROOT / "examples" / "killer9.txt"
SPECS = ["native", "native:rules=none", "native:rules=full", "sat", "sat:sums=bdd",
         "sat:sums=totalizer", "sat:mode=fresh", "sat:mode=reduced", "cpsat",
         "cpsat:model=boolean"]
runner = CliRunner()


# -- every kind against a brute force count -----------------------------------------------------
@cache
def all_grids(size: int, variants: tuple[str, ...] = ()) -> tuple[tuple[int, ...], ...]:
    """Every solution of the empty grid (288 for 4x4), by the native solver (verified)."""
    result = get_backend("native").solve(
        Puzzle.empty(make_geometry(size, variants=variants)), limit=100_000)
    assert result.complete
    return result.solutions


# Every kind's own contract (counts against the checker, links, JSON and f-puzzles forms) is
# tested over the registry by tests/test_kinds.py, through each kind's sample().


# -- cages ----------------------------------------------------------------------------------------
def test_combination_table():
    assert sum_range(3, 9) == (6, 24)
    assert combinations_for(2, 3, 9) == (0b11,)
    assert combinations_for(9, 45, 9) == ((1 << 9) - 1,)
    assert len(combinations_for(3, 15, 9)) == 8
    assert combinations_for(2, 18, 9) == ()


@pytest.mark.parametrize("sums", ["combos", "bdd", "totalizer", "adder"])
def test_cage_encodings_agree_on_a_given_free_killer(sums):
    puzzle = next(iter(read_puzzles(KILLER9_FILE)))
    result = get_backend(f"sat:sums={sums}").solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE and is_solution(puzzle, result.solution)


def test_cnf_clauses_number_auxiliaries_after_start():
    g = make_geometry(9)
    clauses, top = cnf_clauses(g, [Cage((0, 1, 2), 15)], start=1000)  # 8 sets: auxiliaries
    assert top >= 1000 and all(abs(lit) <= 729 or 1000 <= abs(lit) <= top
                               for clause in clauses for lit in clause)
    assert cnf_clauses(g, [], start=1000) == ([], 999)


def test_incremental_sat_retires_a_puzzles_clauses():
    # Constraint clauses join the loaded formula under the puzzle's selector: the next
    # puzzle on the same solver must not see them.
    sat = get_backend("sat")
    assert sat.solve(parse(KILLER4 + " 2..............."), limit=2).status is Status.NONE
    assert sat.solve(parse("2..............."), limit=2).status is Status.MULTIPLE
    assert sat.solve(parse(KILLER4), limit=2).status is Status.UNIQUE


def test_verify_names_a_broken_cage():
    puzzle = parse(KILLER4)
    solution = get_backend("sat").solve(puzzle).solution
    wrong = (solution[1], solution[0], *solution[2:])  # breaks row A's cages, not its row
    assert "cage 5 at A1 adds up to" not in " ".join(violations(puzzle, solution))
    assert any("cage" in v or "column" in v for v in violations(puzzle, wrong))


# -- formats --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CONSTRAINED_CASES, ids=lambda c: c.name)
def test_lines_read_back(case):
    puzzle = case.puzzle()
    # A killer line, like a plain line, leaves the geometry to the options.
    again = parse(to_line(puzzle), geometry=puzzle.geometry)
    assert set(again.constraints) == set(puzzle.constraints)
    assert (again.geometry, again.givens) == (puzzle.geometry, puzzle.givens)
    record = json.loads(json.dumps(puzzle_record(puzzle)))
    assert set(parse(json.dumps(record)).constraints) == set(puzzle.constraints)


def test_killer_line_is_written_for_cages_only():
    assert to_line(parse(KILLER4)) == KILLER4
    assert to_line(parse(KILLER4 + " 3...............")) == KILLER4 + " 3..............."
    thermo = parse('{"size": 4, "thermos": [["A1", "A2"]]}')
    assert to_line(thermo) == '{"size":4,"thermos":[["A1","A2"]]}'


def test_files_mix_forms_and_keep_names(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('# two\n{"size": 4, "name": "first", "cages": []}\n'
                    f"{KILLER4}\tsecond\n", encoding="utf-8")
    puzzles = list(read_puzzles(path))
    assert [p.metadata for p in puzzles] == ["first", "second"]
    assert [len(p.constraints) for p in puzzles] == [0, 8]


BAD = [
    (KILLER4.replace(" 5,", " 5,5,"), 1, 18, "the cage map has 8 cages but 9 sums"),
    (KILLER4.replace(" 5,", " 9,"), 1, 18, "cage 'A': a cage of 2 cells cannot sum to 9 on a "
                                           "4x4 grid: expected 3 to 7"),
    ("AABCDDBBEFGHEFH 5,6,4,5,3,7,2,8", 1, 16, "the cage map has 15 characters: expected one "
                                              "per cell, a square number"),
    ("AAAAABBBBCCCCDDD 15,4,4,4", 1, 1, "cage 'A': a cage of 5 cells cannot hold different"),
    (KILLER4 + " 5...............", 1, 34, "givens: '5' is out of range"),
    ('{"size": 4, "cages": [{"sum": 3, "cells": ["A1", "A1"]}]}', 1, None,
     "field cages[0].cells: the cage covers A1 twice"),
    ('{"size": 4, "cages": [{"sum": 3, "cells": ["A1", "A2"]}, {"sum": 4, "cells": ["A2"]}]}',
     1, None, "field cages[1].cells: A2 is already in cages[0]"),
    ('{"size": 4, "cages": [{"sum": 30, "cells": ["A1", "A2"]}]}', 1, None,
     "field cages[0].sum: a cage of 2 cells cannot sum to 30 on a 4x4 grid: expected 3 to 7"),
    ('{"size": 4, "thermos": [["A1", "C1"]]}', 1, None,
     "field thermos[0]: the thermometer is not a path of neighbours: A1 and C1"),
    ('{"size": 4, "dots": {"white": [["A1", "B2"]]}}', 1, None,
     "field dots: a kropki mark between A1 and B2: the cells must share a side"),
    ('{"size": 4, "odd": ["Z9"]}', 1, None, "field odd[0]: 'Z9' is not a cell of a 4x4 grid"),
    ('{"size": 4, "cagez": []}', 1, None, "field cagez: unknown field"),
    ('{"size": 4, "cages": [}', 1, 23, "not valid JSON"),
    ('{"cages": []}', 1, None, "field size: missing"),
    ('{"size": 4, "givens": "12"}', 1, None, "field givens: expected 16 cells"),
    ('{"size": 4, "xv": {"x": [], "negative": "yes"}}', 1, None,
     "field xv.negative: expected true or false"),
]


@pytest.mark.parametrize(("text", "line", "column", "words"), BAD, ids=[b[3][:30] for b in BAD])
def test_bad_input_names_line_field_and_expectation(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert words in str(caught.value)
    if line is not None:
        assert (caught.value.line, caught.value.column) == (line, column)


def test_library_puzzles_are_validated():
    g = make_geometry(4)
    with pytest.raises(InvalidPuzzleError, match="A2 is in two cages"):
        Puzzle(g, (EMPTY,) * 16, "", (Cage((0, 1), 3), Cage((1, 2), 3)))
    with pytest.raises(InvalidPuzzleError, match="at most one kropki"):
        Puzzle(g, (EMPTY,) * 16, "", (Kropki(((0, 1),)), Kropki(((2, 3),))))


def test_refused_where_not_handled_yet():
    from sudoku_csp.study import run_study

    with pytest.raises(UnsupportedError, match="study does not handle cage constraints"):
        run_study([parse(KILLER4)])
    with pytest.raises(ParseError, match="line 1: this command does not handle cage"):
        parse(KILLER4, constraints=False)


# -- minimality with the constraints in force ------------------------------------------------
def _brute_count(puzzle: Puzzle) -> int:
    """Solutions of a 4x4 puzzle by the independent checker over all 288 grids."""
    return sum(not violations(puzzle, g) for g in all_grids(puzzle.size))


@pytest.mark.parametrize("kind", slow_if([k.kind for k in KINDS], lambda kind: kind not in (
    "cage", "xv")))
def test_minimality_with_constraints_matches_brute_force(kind):
    # Status and redundant givens of random constrained 4x4 puzzles, against the checker's
    # count of every grid (the SAT session shares nothing with it).
    from sudoku_csp.generate import minimality

    geometry = make_geometry(4)
    rng = random.Random(f"minimal {kind}")
    unique = 0
    maker = next(k for k in KINDS if k.kind == kind)
    for _ in range(8):
        grid = rng.choice(all_grids(4))
        constraints = tuple(maker.sample(geometry, grid, rng))
        cells = rng.sample(range(16), rng.randint(5, 11))
        givens = tuple(grid[c] if c in cells else EMPTY for c in range(16))
        puzzle = Puzzle(geometry, givens, "", constraints)
        m = minimality(puzzle)
        count = _brute_count(puzzle)
        assert m.status is (Status.NONE if count == 0 else Status.UNIQUE if count == 1
                            else Status.MULTIPLE), to_line(puzzle)
        if not m.unique:
            continue
        unique += 1
        redundant = []
        for cell in sorted(cells):
            fewer = Puzzle(geometry, tuple(EMPTY if c == cell else d
                                           for c, d in enumerate(givens)), "", constraints)
            if _brute_count(fewer) == 1:
                redundant.append(cell)
        assert list(m.redundant) == redundant, to_line(puzzle)
    assert unique >= 1


def test_givens_the_cages_imply_are_redundant():
    from sudoku_csp.generate import minimality

    killer = parse(KILLER4 + " 3..4...2........")  # three givens of its solution
    m = minimality(killer)
    assert m.unique and m.labels(killer.geometry) == ["A1", "A4", "B4"]
    assert minimality(Puzzle(killer.geometry, killer.givens)).status is Status.MULTIPLE
    # 9x9: a published-style given-free killer with five givens of its solution added.
    nine = read_puzzles(str(KILLER9_FILE))
    first = next(iter(nine))
    solution = get_backend("cpsat").solve(first).solution
    assert solution is not None
    givens = tuple(solution[c] if c in (0, 10, 40, 70, 80) else EMPTY for c in range(81))
    m = minimality(Puzzle(first.geometry, givens, "", first.constraints))
    assert m.unique and m.redundant == (0, 10, 40, 70, 80)
    assert minimality(first).minimal  # no givens: nothing to spare


KILLER_EXAMPLES = ("killer9.txt", "killer9_200.txt")


@pytest.mark.parametrize("name", KILLER_EXAMPLES)
def test_the_docs_give_each_example_killer_file_its_cage_sizes(name):
    # Every "N-M-cell" (or "N-M cell") README.md or a page of docs/ says of a file is the
    # range of the cage sizes the file holds, as its header says it was made. A phrase is said
    # of the file named just before it ("killer9.txt (... 2-3-cell cages)"), or just after it
    # ("2-5-cell cages of killer9_200.txt").
    sizes = {len(c.cells) for p in read_puzzles(str(ROOT / "examples" / name))
             for c in p.constraints}
    files = "|".join(map(re.escape, KILLER_EXAMPLES))
    said = set()
    for page in pages():
        words = " ".join(page.read_text(encoding="utf-8").split())
        for phrase in re.finditer(r"(\d)[-–](\d)[- ]cell", words):
            after = re.match(rf"\w* cages of `(?:examples/)?({files})", words[phrase.end():])
            before = re.findall(files, words[max(0, phrase.start() - 100):phrase.start()])
            owner = after[1] if after else before[-1] if before else None
            if owner == name:
                said.add((int(phrase[1]), int(phrase[2])))
    assert said, f"the docs say nothing of the cages of {name}"
    assert said == {(min(sizes), max(sizes))}, (name, said, sorted(sizes))


# -- the command line -----------------------------------------------------------------------------
def test_cli_solves_counts_and_checks_killers(tmp_path):
    result = runner.invoke(app, ["solve", KILLER4])
    assert result.exit_code == 0, result.output
    assert "3 2 | 1 4" in result.output
    result = runner.invoke(app, ["count", KILLER4.replace("5,6,4,5,3,7,2,8", "?,?,?,?,?,?,?,?"),
                                 "-s", "sat:sums=bdd"])
    assert result.exit_code == 3, result.output
    result = runner.invoke(app, ["check", str(KILLER9_FILE), "--json"])
    assert result.exit_code == 0, result.output
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(verdicts) == 20 and all(v["status"] == "unique" and v["agreed"] for v in verdicts)
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["compare", str(KILLER9_FILE), "-s", "sat", "-s", "cpsat",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert parse(first["puzzle"]).constraints  # records keep the cages


@pytest.mark.parametrize(("args", "words"), [
    (["solve", KILLER4.replace(" 5,", " 9,")], "error: line 1, column 18: cage 'A': a cage of 2 "
                                                "cells cannot sum to 9"),
    (["canon", KILLER4], "error: line 1: this command does not handle cage constraints yet"),
    (["encode", KILLER4, "--reduce"], "the clue-reduced DIMACS form does not handle cage"),
    (["canon", str(KILLER9_FILE)], "error: line 4: this command does not handle cage"),
    (["solve", KILLER4, "--size", "9"], "expected 81 for a 9x9 puzzle"),
])
def test_cli_errors_are_one_line_and_exit_6(args, words):
    result = runner.invoke(app, args)
    assert result.exit_code == 6, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1


def test_cli_minimal_honours_constraints(tmp_path):
    result = runner.invoke(app, ["minimal", KILLER4 + " 3..............."])
    assert result.exit_code == 9, result.output
    assert result.stdout.split("\t")[:3] == ["1", "unique", "redundant: A1"]
    path = tmp_path / "p.jsonl"
    path.write_text('{"size": 4, "givens": "1...........4...", "thermos": [["A2", "A3", "A4"]]}\n'
                    + KILLER4 + "\n", encoding="utf-8")
    result = runner.invoke(app, ["minimal", str(path), "--json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "unique"]
    assert records[1]["minimal"] and parse(records[1]["puzzle"]).constraints


def test_cli_names_the_line_of_a_bad_jsonl_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"size": 4}\n{"size": 4}\n{"size": 4, "thermos": [["A1"]]}\n',
                    encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "sudoku_csp", "count", str(path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 6
    assert result.stderr.strip() == ("error: line 3: field thermos[0]: expected a list of at "
                                     "least 2 cell labels such as [\"A1\", \"A2\"]")


@pytest.mark.parametrize("case", CONSTRAINED_CASES, ids=lambda c: c.name)
def test_a_guard_is_on_every_clause_and_changes_nothing_else(case):
    # Kinds write the guard into their template clauses themselves (Guarded lists), the
    # rest get it from cnf_clauses: either way every clause is the unguarded one plus it,
    # and neither path copies a clause into another type (a template's stay tuples).
    puzzle = case.puzzle()
    start = puzzle.geometry.ncells * puzzle.geometry.size + 1
    plain, top = cnf_clauses(puzzle.geometry, puzzle.constraints, start=start)
    guarded, top_guarded = cnf_clauses(puzzle.geometry, puzzle.constraints, start=start,
                                       guard=-start + 1)  # a variable below start: free
    assert top == top_guarded
    assert all(type(c) in (list, tuple) for c in (*plain, *guarded))
    assert sorted(sorted(c) for c in guarded) == sorted(sorted([*c, -start + 1])
                                                        for c in plain)


# A solution grid to read every kind's constraints off (all of them true of it).
_GRID9 = tuple(int(ch) - 1 for ch in "534678912672195348198342567859761423426853791713924856"
                                     "961537284287419635345286179")


def _option_settings() -> list[dict[str, str]]:
    """No option, then each encoding option's other choices one at a time (of the pysat.pb
    sums one: they share one path)."""
    settings: list[dict[str, str]] = [{}]
    for name, option in encoding_options().items():
        settings += ({name: value} for value in option.choices
                     if value != option.default and (name != "sums" or value == "totalizer"))
    return settings


@pytest.mark.parametrize("name", slow_if(list(makers()), lambda name: name in {
    "skyscraper", "little-killer", "zipper-line", "sandwich", "region-sum-line"}))
def test_a_guard_is_on_every_clause_of_every_kind_under_every_encoding_option(name):
    # The clauses an incremental solver holds for one puzzle must all carry its selector:
    # one without it stays when the puzzle is retired and prunes the next puzzle's solutions
    # (a false "unique" or "no solution"). Kinds write the guard into their own templated
    # clauses (Guarded lists) on several paths (line_order=both, sum_bounds, required), so
    # every kind is read off a grid, both ways where it has a negative rule, and written
    # under each option: every clause is the unguarded one plus the guard, once.
    kind, geometry = makers()[name], make_geometry(9)
    start = geometry.ncells * geometry.size + 1
    guard = -(start - 1)  # a variable below start: free
    for negative in (False, True):
        fixed, pieces = kind.read_off(geometry, _GRID9, random.Random(1), negative)
        constraints = [*fixed, *pieces]
        assert constraints
        for options in _option_settings():
            plain, top = cnf_clauses(geometry, constraints, start=start, options=options)
            guarded, top_guarded = cnf_clauses(geometry, constraints, start=start,
                                               guard=guard, options=options)
            assert top == top_guarded, (negative, options)
            assert sorted(sorted(c) for c in guarded) == sorted(
                sorted([*c, guard]) for c in plain), (negative, options)


# A second solution grid (the first's digits relabelled, its rows swapped within bands, and
# turned over its diagonal): constraints read off one are mostly false of the other.
_OTHER9 = tuple(int(ch) - 1 for ch in "874263159251749386963158472718526943532984617496371825"
                                      "145632798387495261629817534")


@pytest.mark.slow
def test_an_incremental_sat_solver_answers_each_puzzle_as_a_fresh_one():
    # One incremental solver takes every kind's puzzle in turn, read off two different grids
    # by turns: a clause of one puzzle left unguarded would stay loaded and prune the next
    # puzzle's solutions (a false "unique" or "no solution"); each answer must be the fresh
    # solver's.
    geometry = make_geometry(9)
    incremental, fresh = get_backend("sat"), get_backend("sat:mode=fresh")
    for i, (name, kind) in enumerate(makers().items()):
        grid = (_GRID9, _OTHER9)[i % 2]
        fixed, pieces = kind.read_off(geometry, grid, random.Random(i), False)
        rng = random.Random(100 + i)
        givens = tuple(v if rng.random() < 0.5 else EMPTY for v in grid)
        try:
            puzzle = Puzzle(geometry, givens, name, (*fixed, *pieces[:8]))
        except InvalidPuzzleError:  # a kind held once per puzzle: one of its pieces
            puzzle = Puzzle(geometry, givens, name, (*fixed, *pieces[:1]))
        a, b = incremental.solve(puzzle, limit=50), fresh.solve(puzzle, limit=50)
        assert (a.status, a.count) == (b.status, b.count), name
        assert a.count < 50 and sorted(a.solutions) == sorted(b.solutions), name
        assert a.count or kind.grid_rule(), name  # a rule of the grid: not read off it


def test_forget_puzzles_leaves_a_puzzle_met_again_as_new():
    # What the native search remembered of a puzzle (its links; narrowings per candidate
    # masks: a sandwich's, a renban's, an automaton's) goes; the count stays the same.
    from cases import sampled_puzzle

    from sudoku_csp.constraints import forget_puzzles, native_links
    from sudoku_csp.constraints.automaton import _BUILT
    from sudoku_csp.constraints.kinds.renban import Renban, _line
    from sudoku_csp.constraints.kinds.sandwich import Sandwich
    from sudoku_csp.constraints.sandwich_fillings import narrow as _narrow

    geometry = make_geometry(6)
    puzzles = [sampled_puzzle(kind, geometry, seed=3) for kind in (Sandwich, Renban)]
    native = get_backend("native")
    counts = [native.solve(p, limit=None).count for p in puzzles]
    links = native_links(geometry, puzzles[0].constraints)
    assert _narrow.cache_info().currsize and _line.cache_info().currsize
    forget_puzzles()
    assert not _narrow.cache_info().currsize and not _line.cache_info().currsize
    assert not any("_memo" in vars(a) for a in _BUILT.values())
    assert native_links(geometry, puzzles[0].constraints) is not links
    assert [native.solve(p, limit=None).count for p in puzzles] == counts
