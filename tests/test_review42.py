"""Review of session 42's changes: guards that attack them where a false claim could come
from.

- SAT's incremental mode with a puzzle's givens behind its selector: a shared solver,
  over a seeded sequence of random puzzles of many kinds (givens right and wrong), counts
  as fresh solvers do, also when a puzzle was cut short by its deadline or failed midway
  (its givens and blocking clauses must leave with it), and with the native root's
  candidates handed over (``first:``, ``auto``).
- Sandwiches on length literals: the clause template is kept per value of
  ``sandwich_cnf`` (a template built under one value reused under the other would be a
  silent wrong encoding).
- CP-SAT's import under the time limit: a file run that gives up on the import still
  writes every record to its output file and to a pipe, and exits with its code.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_cpsat_import_limit import _blocked, _finish

from sudoku_csp.backends import base as backends_base
from sudoku_csp.backends.registry import get_backend, make_backend
from sudoku_csp.constraints import Sandwich, makers
from sudoku_csp.deadline import Cancellable
from sudoku_csp.encodings import cnf
from sudoku_csp.generate.grids import random_grid
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.variants import make_geometry

KINDS = sorted(makers())


def _random_puzzle(rng: random.Random, sizes=(4, 6)) -> Puzzle:
    """A puzzle over a random grid: pieces of one to three kinds read off it (a sandwich
    often among them), some of its digits as givens, and now and then one given changed
    (perhaps no solution left)."""
    size = rng.choice(sizes)
    geometry = make_geometry(size)
    grid = random_grid(geometry, rng.randrange(10**6))
    names = {*rng.sample(KINDS, rng.randint(1, 3)), *(["sandwich"] * (rng.random() < 0.4))}
    constraints = []
    for name in sorted(names):
        kind = makers()[name]
        fixed, pieces = kind.read_off(geometry, grid, rng, rng.random() < 0.5)
        share = rng.choice([0.2, 0.5, 0.9])
        constraints += kind.merge([*fixed, *(p for p in pieces if rng.random() < share)])
    share = rng.choice([0.0, 0.15, 0.3])
    givens = [d if rng.random() < share else EMPTY for d in grid]
    if rng.random() < 0.25:
        givens[rng.randrange(geometry.ncells)] = rng.randrange(size)
    return Puzzle(geometry, tuple(givens), constraints=tuple(constraints))


def _verdict(result, limit):
    status = result.status.value
    if limit == 1 and status == "unique":
        status = "solved"  # a native propagation proves more than was asked
    return status, result.count, result.complete or result.count >= limit


SHARED = ["sat", "sat:recycle=1", "sat:fresh_after=1", "first:native:nodes=1,sat",
          "first:native:nodes=3,sat",
          "first:native:search=off,sat", "auto"]


@pytest.mark.parametrize("seed", [1, 2])
def test_shared_backends_count_as_fresh_solvers_over_a_random_sequence(seed):
    # 4x4 and 6x6 only: a random 9x9 of few givens can take a solver minutes (little
    # killers and one given: 20 s undecided), which a test bounded by counts cannot have.
    rng = random.Random(seed)
    fresh = make_backend("sat:mode=fresh")
    statuses = set()
    for _ in range(25):
        puzzle = _random_puzzle(rng)
        limit = rng.choice([1, 2, 12])
        expected = fresh.solve(puzzle, limit=limit)
        statuses.add(expected.status)
        for spec in SHARED:
            got = get_backend(spec).solve(puzzle, limit=limit)
            assert _verdict(got, limit) == _verdict(expected, limit), (spec, puzzle)
            if limit > 2 and expected.count < limit:
                assert set(got.solutions) == set(expected.solutions), spec
    assert Status.NONE in statuses and Status.MULTIPLE in statuses  # the sequence varies


def test_a_puzzle_cut_midway_leaves_nothing_behind_in_the_shared_solver(monkeypatch):
    # The deadline is cancelled as the first solution is checked: the puzzle ends with
    # one solution found and blocked behind its selector, its givens behind it too.
    # Solved again, and a puzzle with other givens after it, both count in full.
    geometry = make_geometry(4)
    sandwich = Sandwich(tuple(range(4)), "right", 0)  # the 1 and the 4 side by side in row A
    first = Puzzle(geometry, (EMPTY,) * 15 + (0,), constraints=(sandwich,))
    second = Puzzle(geometry, (1,) + (EMPTY,) * 15, constraints=(sandwich,))
    fresh = make_backend("sat:mode=fresh")
    full = {p: fresh.solve(p, limit=None).count for p in (first, second)}
    assert min(full.values()) > 2
    sat = make_backend("sat")
    add = backends_base.Tally.add
    deadline = Cancellable.of_limit(None)

    def add_then_cancel(self, grid):
        add(self, grid)
        deadline.cancel()

    monkeypatch.setattr(backends_base.Tally, "add", add_then_cancel)
    cut = sat.solve(first, limit=None, time_limit=deadline)
    monkeypatch.setattr(backends_base.Tally, "add", add)
    assert not cut.complete and cut.count >= 1
    for puzzle in (first, second, first):
        result = sat.solve(puzzle, limit=None)
        assert (result.count, result.complete) == (full[puzzle], True)


def test_a_puzzle_that_fails_midway_leaves_its_givens_behind_its_selector(monkeypatch):
    # A check that raises while the first puzzle's solutions are read (as a wrong solution
    # would): its selector is never retired, so its givens stay in the solver, behind it.
    geometry = make_geometry(4)
    sandwich = Sandwich(tuple(range(0, 16, 4)), "down", 3)
    first = Puzzle(geometry, (0,) + (EMPTY,) * 15, constraints=(sandwich,))
    second = Puzzle(geometry, (EMPTY,) * 5 + (2,) + (EMPTY,) * 10, constraints=(sandwich,))
    fresh = make_backend("sat:mode=fresh")
    expected = fresh.solve(second, limit=20)  # fewer than 20: every solution kept
    assert fresh.solve(first, limit=1).count == 1 and 1 < expected.count < 20
    sat = make_backend("sat")

    def broken(self, grid):
        raise RuntimeError("a check that failed")

    monkeypatch.setattr(backends_base.Tally, "add", broken)
    with pytest.raises(RuntimeError):
        sat.solve(first, limit=None)
    monkeypatch.undo()
    result = sat.solve(second, limit=20)
    assert (result.count, set(result.solutions)) == (expected.count, set(expected.solutions))


def test_the_sandwich_template_is_kept_per_value_of_its_option():
    # The same clue written under each value in turn, then again: each value's clauses are
    # its own, never the template the other value built.
    geometry = make_geometry(6)
    puzzle = Puzzle(geometry, (EMPTY,) * 36,
                    constraints=(Sandwich(tuple(range(6, 12)), "right", 5),))
    start = geometry.ncells * geometry.size + 1

    def written(choice):
        clauses, _ = cnf.constraint_clauses(puzzle, start, {"sandwich_cnf": choice})
        return sorted(map(tuple, clauses))

    first = {choice: written(choice) for choice in ("lengths", "pairs")}
    assert first["lengths"] != first["pairs"]
    assert {choice: written(choice) for choice in ("pairs", "lengths")} == first


# -- the command line while OR-Tools never finishes importing ---------------------------------
PUZZLES = ["..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
           "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3",
           "......9.7...42.18....7.5.261..9.4....5.....4....5.7..992.1.8....34.59...5.7......"]


def _run_beside_a_never_ending_import(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    proc, _ = _blocked(tmp_path, *args)
    return _finish(proc, " ".join(args[:1]))


@pytest.mark.slow  # a subprocess
def test_a_file_run_that_gives_up_on_the_import_writes_every_record(tmp_path):
    source = tmp_path / "three.txt"
    source.write_text("\n".join(PUZZLES) + "\n")
    out = tmp_path / "out.jsonl"
    code, stdout, err = _run_beside_a_never_ending_import(
        tmp_path, "solve", str(source), "-s", "cpsat", "-t", "0.05", "--json", "-o", str(out))
    assert (code, err) == (0, "")  # files: 0 when every puzzle was processed
    printed = [json.loads(line) for line in stdout.splitlines()]
    written = [json.loads(line) for line in out.read_text().splitlines()]
    for records in (printed, written):
        assert [(r["index"], r["status"]) for r in records] == [(1, "unknown"), (2, "unknown"),
                                                               (3, "unknown")]


@pytest.mark.slow  # a subprocess, two solvers
def test_check_and_compare_beside_the_import_claim_no_agreement(tmp_path):
    source = tmp_path / "three.txt"
    source.write_text("\n".join(PUZZLES) + "\n")
    out = tmp_path / "out.jsonl"
    code, stdout, err = _run_beside_a_never_ending_import(
        tmp_path, "check", str(source), "-s", "cpsat", "-s", "sat", "-t", "0.05", "-o", str(out))
    assert code == 5 and "3 decided by fewer than two backends (not cross-checked)" in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6 and not any(r["agreed"] for r in records)
    assert {r["status"] for r in records if r["spec"] == "cpsat"} == {"unknown"}
    code, stdout, err = _run_beside_a_never_ending_import(
        tmp_path, "compare", str(source), "-s", "cpsat", "-s", "sat", "-t", "0.05", "--json")
    assert err == "" and code == 0
    rows = {row["spec"]: row for row in map(json.loads, stdout.splitlines())}
    assert (rows["cpsat"]["unknown"], rows["sat"]["unique"]) == (3, 3)
