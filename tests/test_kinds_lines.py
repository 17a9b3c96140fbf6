"""Sums along lines and circles: arrows, double arrows, zipper lines, region-sum lines,
between lines and lockout lines, each on its known tricky cases (what tests/test_kinds.py,
which names no kind, cannot say): the translations against the rule on every assignment of a
short line, pills and arrows with several lines, segments that re-enter a region, defaults
per grid size, bad input naming its path, the real f-puzzles shapes of published puzzles
(tests/fpuzzles_published.jsonl)."""

from __future__ import annotations

import itertools
import random
import re
from functools import cache

import pytest
from cases import published
from pysat.solvers import Solver

import sudoku_csp.constraints.kinds.arrow as arrow_module
import sudoku_csp.constraints.kinds.between as between_module
import sudoku_csp.constraints.kinds.lockout as lockout_module
from sudoku_csp.backends import get_backend
from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints import (
    Arrow,
    BetweenLine,
    Constraint,
    ConstraintError,
    DoubleArrow,
    FieldError,
    LockoutLine,
    RegionSumLine,
    ZipperLine,
    cnf_clauses,
)
from sudoku_csp.constraints.kinds.regionsum import segments
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.io.fpuzzles import fpuzzles_document
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.modeling.variables import variables
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

G4, G6, G9 = make_geometry(4), make_geometry(6), make_geometry(9)


def _grid(geometry: Geometry, cells: tuple[int, ...], values: tuple[int, ...]) -> list[int]:
    """A grid (digits) holding ``values`` (1..N) in ``cells``, 0 elsewhere."""
    grid = [0] * geometry.ncells
    for cell, value in zip(cells, values, strict=True):
        grid[cell] = value - 1
    return grid


def _cnf_accepts(geometry: Geometry, constraint: Constraint, grid: list[int],
                 joint: bool = True) -> bool:
    """Whether the constraint's clauses, with its kind's joint clauses or (``joint``
    false) alone, accept ``grid`` on the cells it touches."""
    start = geometry.ncells * geometry.size + 1
    if joint:
        clauses, _ = cnf_clauses(geometry, [constraint], start=start)
    else:
        ctx = CnfContext(variables(geometry), start=start)
        clauses = [list(c) for c in constraint.cnf(ctx)]
    x = variables(geometry).x
    units = [x(c, d) if grid[c] == d else -x(c, d)
             for c in constraint.touched() for d in range(geometry.size)]
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        return solver.solve(assumptions=units)


def _native_accepts(geometry: Geometry, constraint: Constraint, grid: list[int]) -> bool:
    return all(link.narrow(tuple(1 << grid[c] for c in link.cells)) is not None
               for link in constraint.native(geometry))


# -- every translation says what the rule says, on every assignment of a short line -----------
SHORT = [
    (G4, Arrow((0,), ((0, 1, 2),))),
    (G4, Arrow((0,), ((0, 1), (0, 4, 8)))),  # two lines: each adds up to the circle
    (G6, Arrow((0, 1), ((1, 2, 3, 4),))),  # a pill: 10a + b, three shaft cells reach 18
    (G4, DoubleArrow((0, 1, 2, 3))),
    (G4, ZipperLine((0, 1, 2, 3))),
    (G4, ZipperLine((0, 1, 5, 6, 7))),  # odd: the centre is the total
    (G4, RegionSumLine((0, 1, 2, 6))),
    (G4, RegionSumLine((1, 2, 5, 9))),  # box 0, box 1, box 0 again, box 2: four segments
    (G6, RegionSumLine((0, 1, 2, 3, 9))),  # segments of three and two: their digit sets
    (G6, ZipperLine((0, 1, 2, 8, 14))),  # odd on 6x6: the centre's digits are the totals
    (G6, ZipperLine((0, 7, 14, 21))),  # even: a total of its own, 2 to 12
    (G6, BetweenLine((0, 1, 2, 3))),
    (G6, LockoutLine((0, 1, 2, 3))),
    (G6, LockoutLine((0, 1, 2), 1)),
    (G4, LockoutLine((0, 1))),
]


@pytest.mark.parametrize(("geometry", "constraint"), SHORT,
                         ids=[f"{c.kind} {i}" for i, (_, c) in enumerate(SHORT)])
def test_links_and_clauses_say_what_the_rule_says_on_every_assignment(geometry, constraint):
    constraint.validate(geometry)
    cells = constraint.touched()
    n = geometry.size
    rng = random.Random(repr(constraint))
    joint = type(constraint).joint_native(geometry, [constraint])
    assert joint  # every line here has cells that see each other
    held = 0
    for values in itertools.product(range(1, n + 1), repeat=len(cells)):
        grid = _grid(geometry, cells, values)
        holds = not constraint.violations(geometry, grid)
        held += holds
        assert _native_accepts(geometry, constraint, grid) == holds, values
        # the joint links: the rule, and cells that see each other differ
        apart = all(grid[a] != grid[b] for a, b in itertools.combinations(cells, 2)
                    if geometry.are_peers(a, b))
        assert all(link.narrow(tuple(1 << grid[c] for c in link.cells)) is not None
                   for link in joint) == (holds and apart or not joint), values
        if rng.random() < 0.08:  # CNF on a sample: one solver call each
            # The clauses, the kind's own and with its joint ones, say what the rule says
            # wherever cells that see each other differ; elsewhere (which the grid's formula,
            # loaded with them by every consumer, forbids) they may reject a filling that
            # holds (an arrow's table leaves such fillings out: sum_tables.APART), never
            # accept one that breaks the rule.
            for together in (False, True):
                accepts = _cnf_accepts(geometry, constraint, grid, joint=together)
                assert accepts == holds if apart else not accepts or holds, (values, together)
    assert held  # the rule is not empty


@pytest.mark.parametrize("kind", [Arrow, DoubleArrow, ZipperLine, RegionSumLine, BetweenLine,
                                  LockoutLine])
def test_joint_links_keep_every_solution(kind):
    # Implied rules: on the grid a constraint was sampled from, each joint link keeps the
    # grid's digits from full candidates, and accepts them as singles.
    for size in (4, 6, 9):
        geometry = make_geometry(size)
        rng = random.Random(f"{kind.kind} {size}")
        grid = _grids_4x4()[0] if size == 4 else _solution(geometry)
        constraints = [c for _ in range(5) for c in kind.sample(geometry, grid, rng)]
        for link in kind.joint_native(geometry, constraints):
            full = link.narrow(tuple((1 << size) - 1 for _ in link.cells))
            assert full is not None
            assert all(m >> grid[c] & 1 for m, c in zip(full, link.cells, strict=True))
            assert link.narrow(tuple(1 << grid[c] for c in link.cells)) is not None


@cache
def _solution(geometry: Geometry) -> tuple[int, ...]:
    return get_backend("native").solve(Puzzle.empty(geometry), limit=1).solutions[0]


def test_arrow_on_16x16_reads_a_pill_of_two_digit_values():
    # 1 and 12 in the pill make 112 (as Rangsk's solver joins the digits), 11 and 2 make
    # 112 too; seven shaft cells reach it.
    g = make_geometry(16)
    arrow = Arrow((0, 1), ((1, 2, 3, 4, 5, 6, 7, 8),))
    arrow.validate(g)
    cells = arrow.touched()
    shaft = (16, 16, 16, 16, 16, 16, 16)
    for pill, ok in [((1, 12), True), ((11, 2), True), ((11, 12), False), ((1, 1), False)]:
        grid = _grid(g, cells, (*pill, *shaft))
        assert (not arrow.violations(g, grid)) == ok
        assert _native_accepts(g, arrow, grid) == ok
    # and the link narrows: with a shaft of sixteens the pill holds 1|12 or 11|2
    link, = arrow.native(g)
    out = link.narrow(tuple(0xFFFF if c in arrow.circle else 1 << 15 for c in link.cells))
    assert out is not None
    pill = [{d + 1 for d in range(16) if out[link.cells.index(c)] >> d & 1} for c in (0, 1)]
    assert pill == [{1, 11}, {2, 12}]


def test_arrow_pill_link_keeps_the_tens_digit_in_reach():
    # Three shaft cells add up to at most 27: the pill's first cell holds 1 or 2.
    arrow = Arrow((0, 1), ((1, 10, 19, 28),))
    link = arrow.native(G9)[0]
    out = link.narrow(tuple([0x1FF] * len(link.cells)))
    first = out[link.cells.index(0)]
    assert {d + 1 for d in range(9) if first >> d & 1} == {1, 2}


def test_each_line_of_an_arrow_adds_up_to_the_circle_on_its_own():
    # "Eddies": a 7 with a shaft of 3 cells and one of 2, each adding up to 7.
    row, = published("Eddies")
    entry = next(a for a in row["fpuzzles"]["arrow"] if len(a["lines"]) == 2)
    arrow, = Arrow.from_fpuzzles({"arrow": [entry]}, G9)
    solution = [int(ch) - 1 for ch in row["solution"]]
    assert len(arrow.lines) == 2
    assert arrow.violations(G9, solution) == []


def test_arrow_pill_from_the_corpus_and_its_violations():
    row, = published("Cloneways Game of Life")
    entry = next(a for a in row["fpuzzles"]["arrow"] if len(a["cells"]) == 2)
    arrow, = Arrow.from_fpuzzles({"arrow": [entry]}, G9)
    assert arrow.circle == (28, 29) and arrow.shafts() == [(39, 49, 59, 69, 79)]
    solution = [int(ch) - 1 for ch in row["solution"]]
    assert arrow.violations(G9, solution) == []
    broken = list(solution)
    broken[arrow.circle[0]] = (broken[arrow.circle[0]] + 1) % 9
    assert arrow.violations(G9, broken)


@pytest.mark.parametrize("linear", [True, False])
def test_arrow_cpsat_either_way_counts_what_the_checker_counts(monkeypatch, linear):
    monkeypatch.setattr(arrow_module, "CPSAT_LINEAR", linear)
    _count_all_ways(G4, [Arrow((12,), ((12, 13, 14),)), Arrow((5,), ((5, 2), (5, 8)))])


@pytest.mark.parametrize("module", [between_module, lockout_module])
@pytest.mark.parametrize("linear", [True, False])
def test_between_and_lockout_cpsat_either_way(monkeypatch, module, linear):
    monkeypatch.setattr(module, "CPSAT_LINEAR", linear)
    kind = BetweenLine if module is between_module else LockoutLine
    _count_all_ways(G4, [kind((0, 5, 10)), kind((3, 6))])


@cache
def _grids_4x4() -> tuple[tuple[int, ...], ...]:
    grids = get_backend("native").solve(Puzzle.empty(G4), limit=100_000).solutions
    assert len(grids) == 288
    return grids


def _count_all_ways(geometry: Geometry, constraints: list[Constraint]) -> None:
    expected = sum(all(not c.violations(geometry, g) for c in constraints)
                   for g in _grids_4x4())
    assert expected > 0
    puzzle = Puzzle(geometry, (EMPTY,) * geometry.ncells, "", tuple(constraints))
    for spec in ("cpsat", "cpsat:model=boolean", "sat", "native"):
        result = get_backend(spec).solve(puzzle, limit=None)
        assert result.count == expected, spec


# -- the rules' own cases ----------------------------------------------------------------------
def test_double_arrow_rule_and_length():
    arrow = DoubleArrow((0, 1, 2, 3))
    assert arrow.violations(G4, _grid(G4, arrow.cells, (4, 2, 3, 1))) == []
    assert arrow.violations(G4, _grid(G4, arrow.cells, (4, 2, 3, 2)))
    with pytest.raises(ConstraintError, match="at least 3 cells"):
        DoubleArrow((0, 1)).validate(G4)
    snake = (0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15)  # 11 cells between: at least 11 > 8
    with pytest.raises(ConstraintError, match="more than two ends"):
        DoubleArrow(snake).validate(G4)


def test_zipper_centre_and_pairs():
    zipper = ZipperLine((0, 1, 2, 3, 4))  # on 6x6: pairs (A1, A5), (A2, A4), centre A3
    assert zipper.violations(G6, _grid(G6, zipper.cells, (1, 2, 5, 3, 4))) == []
    message, = zipper.violations(G6, _grid(G6, zipper.cells, (1, 2, 6, 3, 4)))
    assert "centre A3 holds 6" in message
    message, = zipper.violations(G6, _grid(G6, zipper.cells, (1, 2, 5, 4, 4)))
    assert "A2 and A4 add up to 6" in message
    assert ZipperLine((0, 1)).native(G4) == []  # two cells: nothing to rule


def test_region_sum_segments_reenter_a_region():
    # B1 A2 | A3 | B2: A3 is box 1, B2 back in box 0: three segments, not two.
    line = RegionSumLine((4, 1, 2, 5))
    assert segments(G4, line.cells) == [(4, 1), (2,), (5,)]
    assert line.violations(G4, _grid(G4, line.cells, (1, 2, 3, 3))) == []
    assert line.violations(G4, _grid(G4, line.cells, (1, 2, 3, 4)))
    inside = RegionSumLine((0, 1, 5))
    assert inside.native(G4) == [] and not inside.meaningful(G4)


def test_region_sum_follows_jigsaw_regions():
    jigsaw = make_geometry(4, regions="aaab abbb ccdd ccdd")
    line = RegionSumLine((1, 2, 3))  # A2 A3 in region a, A4 in region b
    assert segments(jigsaw, line.cells) == [(1, 2), (3,)]
    assert segments(G4, line.cells) == [(1,), (2, 3)]
    assert line.violations(jigsaw, _grid(jigsaw, line.cells, (1, 2, 3))) == []
    assert line.violations(G4, _grid(G4, line.cells, (1, 2, 3)))


def test_region_sum_out_of_reach():
    # one cell (at most 4) against four different values of a box (at least 10)
    with pytest.raises(ConstraintError, match="cannot add up to the same total"):
        RegionSumLine((2, 1, 0, 4, 5)).validate(G4)


def test_between_either_order_and_strictly():
    line = BetweenLine((0, 1, 2))
    assert line.violations(G4, _grid(G4, line.cells, (4, 2, 1))) == []
    assert line.violations(G4, _grid(G4, line.cells, (1, 3, 4))) == []
    assert line.violations(G4, _grid(G4, line.cells, (1, 4, 4)))
    masks = BetweenLine((0, 1, 2)).native(G4)[0].narrow((0b0010, 0b1000, 0b1111))
    assert masks == (0b0010, 0b1000, 0b0100)  # read ends first: 2 and 4 leave 3 between
    assert BetweenLine((0, 1)).native(G4) == []  # two cells: nothing between


def test_lockout_default_difference_and_inclusive_rule():
    assert [LockoutLine((0, 1)).least_difference(g) for g in (G4, G6, G9)] == [2, 3, 4]
    line = LockoutLine((0, 1, 2))
    # values in line order: end, middle, end
    assert line.violations(G9, _grid(G9, line.cells, (2, 9, 6))) == []
    assert line.violations(G9, _grid(G9, line.cells, (7, 1, 2))) == []
    assert line.violations(G9, _grid(G9, line.cells, (2, 7, 7)))  # an end's value: out
    assert line.violations(G9, _grid(G9, line.cells, (2, 9, 5)))  # 3 apart, less than 4
    assert LockoutLine((0, 1, 2), 3).violations(G9, _grid(G9, line.cells, (2, 9, 5))) == []
    with pytest.raises(ConstraintError, match="leave no value"):
        LockoutLine((0, 1, 2), 3).validate(G4)


# -- f-puzzles and JSON: real shapes, bad input naming its path ---------------------------------
@pytest.mark.parametrize(("kind", "key", "value", "path", "words"), [
    (Arrow, "arrow", [{"cells": ["R1C1"], "lines": [["R1C2", "R1C3"]]}], "arrow[0].lines[0]",
     "starts on its circle"),
    (Arrow, "arrow", [{"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C2", "R1C1"]]}],
     "arrow[0].lines[0]", "comes back into its circle"),
    (Arrow, "arrow", [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3", "R4C4", "R5C5",
                                                     "R6C6", "R7C7", "R8C8", "R9C9", "R8C9",
                                                     "R7C9"]]}],
     "arrow[0].lines[0]", "out of the circle's reach"),
    (Arrow, "arrow", [{"cells": ["R0C1"], "lines": [["R1C1", "R1C2"]]}], "arrow[0].cells[0]",
     "not a cell name"),
    (Arrow, "arrow", [{"cells": ["R1C1"]}], "arrow[0].lines", "list of lines"),
    (Arrow, "arrow", [{"cells": ["R1C1"], "lines": [["R1C1", "R3C3"]]}], "arrow[0].lines[0]",
     "not a path of neighbours"),
    (DoubleArrow, "doublearrow", [{"lines": [["R1C1", "R1C2"]]}], "doublearrow[0].lines[0]",
     "at least 3"),
    (ZipperLine, "zipperline", [{"lines": [["R1C1", "R1C1"]]}], "zipperline[0].lines[0]",
     "not a path of neighbours"),
    (RegionSumLine, "regionsumline", {"lines": []}, "regionsumline", "list of objects"),
    (BetweenLine, "betweenline", [{"lines": [["R1C1", "R2C2", "R1C1"]]}],
     "betweenline[0].lines[0]", "passes A1 twice"),
    (LockoutLine, "lockout", [{"lines": [["R1C1", "R2C2"]], "value": "0"}], "lockout[0].value",
     "whole number from 1 to 8"),
])
def test_bad_fpuzzles_input_names_its_path(kind, key, value, path, words):
    with pytest.raises(FieldError) as info:
        kind.from_fpuzzles({key: value}, G9)
    assert info.value.path == path
    assert re.search(words, info.value.reason), info.value.reason


@pytest.mark.parametrize(("kind", "fields", "path"), [
    (Arrow, {"arrows": [{"circle": ["A1"], "lines": [["B1", "C1"]]}]}, "arrows[0].lines[0]"),
    (Arrow, {"arrows": [{"circle": ["A1"], "line": [["A1", "B1"]]}]}, "arrows[0].line"),
    (Arrow, {"arrows": [{"circle": [], "lines": [["A1", "B1"]]}]}, "arrows[0].circle"),
    (DoubleArrow, {"double_arrows": [["A1", "A2"]]}, "double_arrows[0]"),
    (ZipperLine, {"zipper_lines": "A1 A2"}, "zipper_lines"),
    (LockoutLine, {"lockout_lines": [{"cells": ["A1", "B2"], "difference": 9}]},
     "lockout_lines[0].difference"),
    (LockoutLine, {"lockout_lines": [{"cells": ["A1", "B2"], "gap": 3}]},
     "lockout_lines[0].gap"),
])
def test_bad_json_names_its_path(kind, fields, path):
    with pytest.raises(FieldError) as info:
        kind.from_json(fields, G9)
    assert info.value.path == path


def test_lockout_value_and_json_forms_read_back():
    line, = LockoutLine.from_fpuzzles({"lockout": [{"lines": [["R1C1", "R2C2", "R3C3"]],
                                                    "value": "3"}]}, G9)
    assert line == LockoutLine((0, 10, 20), 3)
    assert LockoutLine.to_fpuzzles([line], G9) == {
        "lockout": [{"lines": [["R1C1", "R2C2", "R3C3"]], "value": "3"}]}
    written = LockoutLine.to_json([line, LockoutLine((5, 6))], G9)
    assert written == {"lockout_lines": [{"cells": ["A1", "B2", "C3"], "difference": 3},
                                         ["A6", "A7"]]}
    assert LockoutLine.from_json(written, G9) == [line, LockoutLine((5, 6))]


def test_arrow_forms_read_back():
    arrow = Arrow((27, 28), ((28, 38, 48), (27, 36, 45)))
    written = Arrow.to_fpuzzles([arrow], G9)
    assert written == {"arrow": [{"lines": [["R4C2", "R5C3", "R6C4"],
                                            ["R4C1", "R5C1", "R6C1"]],
                                  "cells": ["R4C1", "R4C2"]}]}
    assert Arrow.from_fpuzzles(written, G9) == [arrow]
    assert Arrow.from_json(Arrow.to_json([arrow], G9), G9) == [arrow]


def test_several_lines_in_one_fpuzzles_entry_are_several_constraints():
    entry = {"lines": [["R1C1", "R1C2", "R1C3"], ["R5C5", "R6C6", "R7C7"]]}
    found = ZipperLine.from_fpuzzles({"zipperline": [entry]}, G9)
    assert found == [ZipperLine((0, 1, 2)), ZipperLine((40, 50, 60))]


@pytest.mark.parametrize("title", ["Clipped", "Hay Fever", "Dotween", "Knight Moves"])
def test_corpus_puzzles_are_unique_on_sat_and_cpsat(title):
    row, = published(title)
    puzzle = fpuzzles_document(row["fpuzzles"], ReadOptions())
    for spec in ("sat", "cpsat"):
        result = get_backend(spec).solve(puzzle, limit=2)
        assert result.count == 1, spec
        if row["solution"]:
            assert "".join(str(d + 1) for d in result.solutions[0]) == row["solution"]


# -- pictures ----------------------------------------------------------------------------------
def test_drawing_follows_fpuzzles():
    canvas = Canvas(9, 40, 3, 3)
    Arrow((0, 1), ((1, 11, 21),)).draw(canvas)
    Arrow((40,), ((40, 50),)).draw(canvas)
    BetweenLine((60, 61, 62)).draw(canvas)
    LockoutLine((70, 71, 72)).draw(canvas)
    ZipperLine((3, 4, 5)).draw(canvas)
    paths = "".join(canvas.layers[Layer.PATHS])
    assert paths.count('class="arrow-circle"') == 2
    assert '<rect class="arrow-circle"' in paths  # a pill: one rounded outline
    assert paths.count('class="between-line-end"') == 2
    assert paths.count('class="lockout-line-end"') == 2
    assert 'class="zipper-line"' in paths and "stroke-opacity" in paths
