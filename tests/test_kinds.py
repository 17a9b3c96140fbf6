"""Every registered constraint kind, through its own :meth:`sample`: the contract each kind
module signs, checked the same way for all of them (no test here names a kind).

- Every backend counts what the independent checker counts: on 4x4 against all 288 grids;
  on 6x6 against every completion of half a grid (found without the constraint, then
  judged by ``violations``).
- Native links agree with ``violations`` on full grids one digit away from a grid the
  constraints hold on (complete on singles); the sat and cpsat models on other grids.
- The kind's JSON and f-puzzles forms read back as the same constraints.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from cases import slow_if
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import KINDS, NonConsecutive, UnsupportedError
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.record import json_line, parse_json
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

SPECS = ["native", "sat", "cpsat", "cpsat:model=boolean"]
NAMES = [k.kind for k in KINDS]


@cache
def _grids(size: int) -> tuple[tuple[int, ...], ...]:
    """Solutions of the empty grid: all 288 on 4x4, a few hundred on 6x6."""
    result = get_backend("native").solve(Puzzle.empty(make_geometry(size)),
                                         limit=100_000 if size == 4 else 300)
    return result.solutions


def _kind(name: str):  # noqa: ANN202
    return next(k for k in KINDS if k.kind == name)


def _sampled(name: str, size: int, seed: object):  # noqa: ANN202
    """(geometry, grid, constraints): constraints of the kind drawn around a random grid;
    a few grids are tried, since a kind may find nothing on one. Skips the test when no
    grid of this size carries the kind (no 4x4 grid is non-consecutive)."""
    geometry = make_geometry(size)
    rng = random.Random(f"{name} {size} {seed}")
    for _ in range(20):
        grid = rng.choice(_grids(size))
        constraints = _kind(name).sample(geometry, grid, rng)
        if constraints:
            for c in constraints:
                c.validate(geometry)
                assert not c.violations(geometry, grid), (c, grid)
            return geometry, grid, tuple(constraints)
    pytest.skip(f"{name}: sample found nothing in 20 grids of {size}x{size}")


@cache
def _completions(givens: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    size = int(len(givens) ** 0.5)
    result = get_backend("native").solve(Puzzle(make_geometry(size), givens), limit=50_000)
    assert result.count < 50_000  # every completion kept (limit=None keeps only two)
    return result.solutions


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_samples_on_some_size(name):
    # On grids that keep the kind's grid rule (no 4x4 grid is non-consecutive).
    kind = _kind(name)
    rng = random.Random(name)
    found = 0
    for size in (4, 6, 9):
        geometry = make_geometry(size)
        grids = get_backend("native").solve(
            Puzzle(geometry, (EMPTY,) * geometry.ncells, "", kind.grid_rule()),
            limit=3).solutions
        found += sum(bool(kind.sample(geometry, g, rng)) for g in grids)
    assert found


@pytest.mark.parametrize("size", slow_if([4, 6], lambda s: s == 6))
@pytest.mark.parametrize("name", NAMES)
def test_every_backend_counts_what_the_checker_counts(name, size):
    for seed in range(3):
        geometry, grid, constraints = _sampled(name, size, seed)
        rng = random.Random(seed)
        if size == 4:
            givens = (EMPTY,) * 16
            candidates = _grids(4)
        else:  # half the grid given, so that every completion can be listed
            givens = tuple(d if rng.random() < 0.5 else EMPTY for d in grid)
            candidates = _completions(givens)
        expected = sum(all(not c.violations(geometry, g) for c in constraints)
                       for g in candidates)
        assert expected >= 1
        puzzle = Puzzle(geometry, givens, "", constraints)
        for spec in SPECS:
            result = get_backend(spec).solve(puzzle, limit=None)
            assert (result.count, result.complete) == (expected, True), (spec, constraints)


@pytest.mark.parametrize("name", NAMES)
def test_links_judge_near_grids_as_the_checker_does(name):
    # One digit changed in a cell the constraints touch: the grid may break the rule or not;
    # the native links, given single digits, must say what violations says.
    for size in (4, 6):
        for seed in range(4):
            geometry, grid, constraints = _sampled(name, size, f"near {seed}")
            rng = random.Random(seed)
            touched = sorted({cell for c in constraints for cell in c.touched()})
            links = [link for c in constraints for link in c.native(geometry)]
            for _ in range(8):
                near = list(grid)
                cell = rng.choice(touched)
                near[cell] = rng.choice([d for d in range(size) if d != grid[cell]])
                broken = any(c.violations(geometry, near) for c in constraints)
                accepted = all(link.narrow(tuple(1 << near[x] for x in link.cells))
                               is not None for link in links)
                assert accepted == (not broken), (constraints, near)


@pytest.mark.parametrize("name", NAMES)
def test_solvers_judge_other_grids_as_the_checker_does(name):
    # Other full grids as givens: the sat and cpsat models (whose clauses may leave out
    # what the units already say) accept exactly those the checker accepts.
    for size in (4, 6):
        geometry, grid, constraints = _sampled(name, size, "other")
        rng = random.Random(name)
        for other in rng.sample(_grids(size), 6):
            broken = any(c.violations(geometry, other) for c in constraints)
            puzzle = Puzzle(geometry, other, "", constraints)
            for spec in ("sat", "cpsat"):
                assert get_backend(spec).solve(puzzle).count == (not broken), (spec, other)


@pytest.mark.parametrize("name", NAMES)
def test_json_reads_back(name):
    for size in (4, 6, 9):
        if size == 9:
            geometry = make_geometry(9)
            rng = random.Random(name)
            grid = get_backend("native").solve(Puzzle.empty(geometry), limit=1).solutions[0]
            constraints = tuple(_kind(name).sample(geometry, grid, rng))
            if not constraints:
                continue
        else:
            geometry, grid, constraints = _sampled(name, size, "json")
        puzzle = Puzzle(geometry, (EMPTY,) * geometry.ncells, "", constraints)
        back = parse_json(json_line(puzzle), ReadOptions())
        assert sorted(map(repr, back.constraints)) == sorted(map(repr, constraints))


@pytest.mark.parametrize("name", NAMES)
def test_fpuzzles_form_reads_back(name):
    kind = _kind(name)
    for size in (4, 6):
        geometry, grid, constraints = _sampled(name, size, "fpuzzles")
        try:
            written = kind.to_fpuzzles(constraints, geometry)
        except UnsupportedError:
            assert not kind.names.fpuzzles_keys(), f"{name} reads f-puzzles but cannot write it"
            assert kind.names.fpuzzles_as is None, f"{name} says how it is written"
            return
        cells = written.pop("grid", {})  # keys of grid cells, by cell index
        document = {"size": size, "grid": [[dict(cells.get(r * size + c, {}))
                                            for c in range(size)] for r in range(size)],
                    **written}
        readers = [k for k in KINDS if any(key in document for key in k.names.fpuzzles)
                   or any(key in cell for key in k.names.fpuzzles_cell
                          for cell in cells.values())]
        if kind.names.fpuzzles_as is not None:  # written as what f-puzzles has, read as it
            assert [k.names.name for k in readers if k is not NonConsecutive] == [
                kind.names.fpuzzles_as]
        back = [c for k in readers for c in k.from_fpuzzles(document, geometry)]
        assert sorted(map(repr, back)) == sorted(map(repr, constraints)) or _same_rules(
            geometry, constraints, back), (written, back)


def _same_rules(geometry, first, second) -> bool:  # noqa: ANN001
    """Whether two constraint lists allow exactly the same 4x4/6x6 grids (a kind written to
    f-puzzles may read back as another kind saying the same: kropki dots as dots)."""
    grids = _grids(geometry.size)
    return all(
        all(not c.violations(geometry, g) for c in first)
        == all(not c.violations(geometry, g) for c in second) for g in grids)


@pytest.mark.parametrize("name", NAMES)
def test_read_off_grids_hold_and_a_changed_digit_is_judged_alike(name):
    # A property over random grids and changes (hypothesis): constraints drawn around a
    # valid grid hold on it, and a one-digit change is broken for violations exactly when
    # the native links, given single digits, refuse it.
    kind = _kind(name)
    geometry = make_geometry(4 if not kind.grid_rule() else 9)  # no 4x4 is non-consecutive
    grids = get_backend("native").solve(
        Puzzle(geometry, (EMPTY,) * geometry.ncells, "", kind.grid_rule()),
        limit=300 if geometry.size == 4 else 3).solutions

    @settings(max_examples=12, deadline=None, derandomize=True)
    @given(st.sampled_from(grids), st.integers(0, 2**32), st.data())
    def holds(grid, seed, data):
        constraints = kind.sample(geometry, grid, random.Random(seed))
        assume(constraints)
        assert not any(c.violations(geometry, grid) for c in constraints)
        touched = sorted({cell for c in constraints for cell in c.touched()})
        cell = data.draw(st.sampled_from(touched or range(geometry.ncells)))  # a rule on all
        near = list(grid)
        near[cell] = data.draw(st.sampled_from([d for d in range(geometry.size)
                                                if d != grid[cell]]))
        broken = any(c.violations(geometry, near) for c in constraints)
        links = [link for c in constraints for link in c.native(geometry)]
        refused = any(link.narrow(tuple(1 << near[x] for x in link.cells)) is None
                      for link in links)
        assert broken == refused

    holds()
