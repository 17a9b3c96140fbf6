"""The CP-SAT forms of killer cages: ``different_sum`` in both models, the 45-rule sums added
by ``Cage.joint_cpsat``, template copies, and the presolve choice for constrained puzzles.
Counts are checked against a brute force over every grid (no timings here)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from cases import BY_NAME
from ortools.sat.python import cp_model

from sudoku_csp import Puzzle, Status, get_backend, make_backend, make_geometry, read_puzzles
from sudoku_csp.backends.cpsat import CpSatBackend
from sudoku_csp.constraints import Cage, add_to_cpsat
from sudoku_csp.constraints.cage_sums import combinations_for, seers_of
from sudoku_csp.constraints.rule45 import implied_sums
from sudoku_csp.encodings.cpsat import MODELS, build_model
from sudoku_csp.geometry import EMPTY
from sudoku_csp.verify import violations

KILLER9_FILE = Path(__file__).resolve().parents[1] / "examples" / "killer9.txt"


@cache
def all_grids(size: int) -> tuple[tuple[int, ...], ...]:
    result = get_backend("native").solve(Puzzle.empty(make_geometry(size)), limit=100_000)
    assert result.complete
    return result.solutions


def random_cages(size: int, seed: int, *, most: int = 4) -> list[Cage]:
    """Cages of 1 to ``most`` row-neighbouring cells drawn from a random grid (so that the
    puzzle has at least that solution), covering part of the grid."""
    rng = random.Random(seed)
    grid = rng.choice(all_grids(size))
    cages, cell = [], 0
    while cell < size * size:
        length = min(rng.randint(1, most), size - cell % size)
        cells = tuple(range(cell, cell + length))
        if rng.random() < 0.7:
            cages.append(Cage(cells, sum(grid[c] + 1 for c in cells)))
        cell += length
    return cages


def count_by_brute_force(puzzle: Puzzle) -> int:
    return sum(not violations(puzzle, g) for g in all_grids(puzzle.geometry.size))


def count_model(model) -> int:
    """Every solution of a built model, counted by CP-SAT on one worker."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.keep_all_feasible_solutions_in_presolve = True
    grids = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            grids.add(model.read(self))

    solver.solve(model.model, Collect())
    return len(grids)


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("with_sets", [True, False], ids=["sets", "no-sets"])
@pytest.mark.parametrize("seed", range(6))
def test_different_sum_counts_what_brute_force_counts(kind, with_sets, seed):
    # Both forms of each model: with the digit sets (what cages use) and without them (the
    # fallback for cages with too many sets to list). No 45-rule sums here.
    geometry = make_geometry(4)
    cages = random_cages(4, seed)
    model = build_model(geometry, kind)
    for cage in cages:
        sets = combinations_for(len(cage.cells), cage.total, 4) if with_sets else None
        model.different_sum(cage.cells, cage.total, sets)
    puzzle = Puzzle(geometry, (EMPTY,) * 16, "", tuple(cages))
    assert count_model(model) == count_by_brute_force(puzzle)


@pytest.mark.parametrize("seed", range(8))
def test_implied_sums_hold_on_every_solution(seed):
    cages = random_cages(4, seed, most=3)
    puzzle = Puzzle(make_geometry(4), (EMPTY,) * 16, "", tuple(cages))
    sums = implied_sums(puzzle.geometry, cages)
    solutions = [g for g in all_grids(4) if not violations(puzzle, g)]
    assert solutions
    for cells, total, different in sums:
        assert all(sum(g[c] + 1 for c in cells) == total for g in solutions), (cells, total)
        if different:
            assert all(len({g[c] for c in cells}) == len(cells) for g in solutions)


def test_implied_sums_hold_on_the_killer_file():
    for puzzle in list(read_puzzles(KILLER9_FILE))[:3]:
        solution = get_backend("cpsat").solve(puzzle, limit=1).solution
        sums = implied_sums(puzzle.geometry, puzzle.constraints)
        assert sums
        assert all(sum(solution[c] + 1 for c in cells) == total for cells, total, _ in sums)


@pytest.mark.parametrize("spec", ["cpsat", "cpsat:model=boolean", "cpsat:presolve=on",
                                  "cpsat:model=boolean,presolve=on"])
@pytest.mark.parametrize("seed", range(4))
def test_backend_counts_killers_with_the_45_rule(spec, seed):
    cages = random_cages(4, 100 + seed)
    puzzle = Puzzle(make_geometry(4), (EMPTY,) * 16, "", tuple(cages))
    result = make_backend(spec).solve(puzzle, limit=None)
    assert result.complete
    assert result.count == count_by_brute_force(puzzle)


@pytest.mark.parametrize("spec", ["cpsat", "cpsat:model=boolean"])
def test_a_contradiction_only_the_45_rule_sees(spec):
    # Row A: A1 + A2 = 3 and A3 + A4 = 6 fit one by one ({1,2}, {2,4}) but leave 9, not 10.
    puzzle = Puzzle(make_geometry(4), (EMPTY,) * 16, "", (Cage((0, 1), 3), Cage((2, 3), 6)))
    result = make_backend(spec).solve(puzzle, limit=2)
    assert result.status is Status.NONE and result.complete


@pytest.mark.parametrize("kind", MODELS)
def test_a_copy_leaves_the_template_alone(kind):
    template = build_model(make_geometry(4), kind)
    before = str(template.model.proto)
    twin = template.copy()
    twin.different_sum((0, 1), 3, combinations_for(2, 3, 4))
    assert str(template.model.proto) == before
    assert count_model(template) == 288
    assert count_model(twin) == 288 // 6  # {A1, A2} = {1, 2}: a sixth of the grids


@pytest.mark.parametrize("kind", MODELS)
def test_a_copy_is_made_without_cp_models_per_instance_aliases(kind):
    # Before: CpModel.clone() set a camelCase alias of every method on the copy, one by
    # one: most of the time a constrained puzzle's copy took. The copy still solves.
    twin = build_model(make_geometry(4), kind).copy()
    assert not any(name[:1].isupper() for name in vars(twin.model))
    assert count_model(twin) == 288


def test_killer_puzzles_leave_the_cached_template_alone():
    backend = CpSatBackend(model="boolean")
    puzzle = next(iter(read_puzzles(KILLER9_FILE)))
    template = backend.template(puzzle.geometry)
    before = len(template.model.proto.constraints)
    assert backend.solve(puzzle, limit=2).status is Status.UNIQUE
    assert len(template.model.proto.constraints) == before
    plain = BY_NAME["hard1"]
    assert backend.solve(plain.puzzle(), limit=2).status is plain.expected


@pytest.mark.parametrize("model,plain,constrained", [("alldiff", "on", "off"),
                                                      ("boolean", "off", "off")])
def test_auto_presolve_depends_on_the_puzzle(model, plain, constrained):
    backend = make_backend(f"cpsat:model={model}")
    killer = next(iter(read_puzzles(KILLER9_FILE)))
    assert backend.solve(BY_NAME["hard1"].puzzle(), limit=1).stats["presolve"] == plain
    assert backend.solve(killer, limit=1).stats["presolve"] == constrained
    assert make_backend(f"cpsat:model={model},presolve=on").solve(
        killer, limit=1).stats["presolve"] == "on"


def test_required_digits_cut_each_cell_once():
    # A1+A2 = 3 and A3+A4 = 17: their 1, 2 and 8, 9 leave the cells that see each cage;
    # a cell seeing both (A5..A9) gets one domain cut, not one per cage.
    geometry = make_geometry(9)
    cages = [Cage((0, 1), 3), Cage((2, 3), 17)]
    sizes = {}
    for required in ("on", "off"):
        model = build_model(geometry, "alldiff")
        add_to_cpsat(model, cages, {"hidden": "off", "leftovers": "off", "required": required})
        sizes[required] = len(model.model.proto.constraints)
    seen = {*seers_of(geometry, (0, 1)), *seers_of(geometry, (2, 3))}
    assert sizes["on"] - sizes["off"] == len(seen) == 15
