"""Clues outside the grid: little killers, sandwich sums, X-sums and skyscrapers; each kind's
tricky cases, its f-puzzles entries in their real shape, bad input named by its path, and
the picture's ring of clues. (The contract every kind signs is checked by
tests/test_kinds.py.)"""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from cases import cnf_context, filling, published
from pysat.solvers import Solver

from sudoku_csp.backends import get_backend
from sudoku_csp.canvas import BASELINE_DROP
from sudoku_csp.constraints import (
    FieldError,
    LittleKiller,
    Sandwich,
    Skyscraper,
    XSum,
)
from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.constraints.translation import CnfContext
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io.fpuzzles import read_fpuzzles
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.record import json_line, parse_json
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.render import cell_pixels, grid_origin, grid_svg, outside_ring, picture_width
from sudoku_csp.variants import make_geometry

G4, G6, G9 = make_geometry(4), make_geometry(6), make_geometry(9)
GRID4 = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)  # rows 1234 3412 2143 4321
SPECS = ["native", "sat", "cpsat", "cpsat:model=boolean"]
ROW = (0, 1, 2, 3)  # row A of 4x4, read left to right
COLUMN = (0, 4, 8, 12)  # column 1, read down


@cache
def grids4() -> tuple[tuple[int, ...], ...]:
    return get_backend("native").solve(Puzzle.empty(G4), limit=1000).solutions


def brute(constraints, geometry=G4) -> int:  # noqa: ANN001
    return sum(all(not c.violations(geometry, g) for c in constraints) for g in grids4())


def counts(constraints, geometry=G4) -> set[int]:  # noqa: ANN001
    puzzle = Puzzle(geometry, (EMPTY,) * geometry.ncells, "", tuple(constraints))
    return {get_backend(spec).solve(puzzle, limit=None).count for spec in SPECS}


def fpuzzles(size: int, **keys) -> Puzzle:  # noqa: ANN003
    document = {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **keys}
    return read_fpuzzles(json.dumps(document), ReadOptions())


def field_error(kind, document, geometry=G9) -> FieldError:  # noqa: ANN001
    with pytest.raises(FieldError) as info:
        kind.from_fpuzzles(document, geometry)
    return info.value


def narrowed(constraint, masks, geometry=G4):  # noqa: ANN001, ANN201
    (link,) = constraint.native(geometry)
    return link.narrow(tuple(masks))


# -- little killers ---------------------------------------------------------------------------
BLITZ = [{"cell": "R0C4", "cells": ["R1C3", "R2C2", "R3C1"], "direction": "DL", "value": "17"},
         {"cell": "R0C6", "cells": ["R1C7", "R2C8", "R3C9"], "direction": "DR", "value": "18"},
         {"cell": "R4C0", "cells": ["R5C1", "R6C2", "R7C3", "R8C4", "R9C5"],
          "direction": "DR", "value": "23"}]


def test_little_killer_reads_the_real_entries_and_writes_them_back():
    clues = LittleKiller.from_fpuzzles({"littlekillersum": BLITZ}, G9)
    assert clues[0] == LittleKiller((2, 10, 18), "down-left", 17)
    assert clues[2].cells == (36, 46, 56, 66, 76)
    assert [c.describe(G9) for c in clues[:2]] == ["little killer 17 down-left from A3",
                                                   "little killer 18 down-right from A7"]
    assert LittleKiller.to_fpuzzles(clues, G9) == {"littlekillersum": BLITZ}


def test_little_killer_from_a_corner_and_up_the_grid():
    # Peak Sudoku's corner clue (R0C0, the whole main diagonal) and Killer Blister's
    # up-left one from the right side.
    (corner,) = LittleKiller.from_fpuzzles({"littlekillersum": [
        {"cell": "R0C0", "cells": ["R1C1", "R2C2", "R3C3", "R4C4"], "direction": "DR",
         "value": "6"}]}, G4)
    assert corner.cells == (0, 5, 10, 15)
    (up,) = LittleKiller.from_fpuzzles({"littlekillersum": [
        {"cell": "R8C10", "direction": "UL", "value": "37"}]}, G9)  # no "cells": read it
    assert [G9.label(c) for c in up.cells] == ["G9", "F8", "E7", "D6", "C5", "B4", "A3"]


def test_little_killer_digits_may_repeat():
    # The diagonal D1..A4 is no unit: 1 2 1 2 (D1, C2 in one box; B3, A4 in another).
    clue = LittleKiller((12, 9, 6, 3), "up-right", 6)
    grid = [0] * 16
    for cell, digit in zip(clue.cells, (0, 1, 0, 1), strict=True):
        grid[cell] = digit
    assert clue.violations(G4, grid) == []
    assert clue.automaton(G4).accepts((0, 1, 0, 1))
    assert counts([clue]) == {brute([clue])}


def test_little_killer_sum_in_reach_but_not_in_a_sudoku():
    # 4 over the main diagonal of 4x4 needs four 1s, but A1 and B2 share a box: no grid.
    clue = LittleKiller((0, 5, 10, 15), "down-right", 4)
    clue.validate(G4)
    assert brute([clue]) == 0
    assert counts([clue]) == {0}


def test_little_killer_entry_without_a_value_is_no_clue():
    entries = [{"cell": "R0C4", "cells": ["R1C3", "R2C2", "R3C1"], "direction": "DL",
                "value": ""},
               {"cell": "R0C6", "cells": ["R1C7", "R2C8", "R3C9"], "direction": "DR"}]
    assert LittleKiller.from_fpuzzles({"littlekillersum": entries}, G9) == []


@pytest.mark.parametrize(("entry", "path", "words"), [
    ({"cell": "R0C4", "cells": ["R1C3", "R2C2"], "direction": "DL", "value": "17"},
     "littlekillersum[0].cells", "R1C3, R2C2, R3C1"),
    ({"cell": "R2C3", "direction": "DL", "value": "17"}, "littlekillersum[0].cell",
     "inside the grid"),
    ({"cell": "R0C4", "direction": "UL", "value": "17"}, "littlekillersum[0].direction",
     "points away"),
    ({"cell": "R0C4", "direction": "D", "value": "17"}, "littlekillersum[0].direction",
     "\"DL\""),
    ({"cell": "R0C4", "direction": "DL", "value": "28"}, "littlekillersum[0].value",
     "3 to 27"),
    ({"cell": "R0C11", "direction": "DL", "value": "5"}, "littlekillersum[0].cell",
     "R0C0 .. R10C10"),
])
def test_little_killer_bad_entries_name_their_field(entry, path, words):
    error = field_error(LittleKiller, {"littlekillersum": [entry]})
    assert error.path == path and words in error.reason


def test_little_killer_own_json():
    clue = LittleKiller((2, 10, 18), "down-left", 17)
    assert LittleKiller.to_json([clue], G9) == {
        "little_killers": [{"from": "A3", "direction": "down-left", "sum": 17}]}
    assert LittleKiller.from_json(LittleKiller.to_json([clue], G9), G9) == [clue]
    with pytest.raises(FieldError) as info:   # B3 down-left: the clue would stand on A4
        LittleKiller.from_json({"little_killers": [
            {"from": "B3", "direction": "down-left", "sum": 9}]}, G9)
    assert info.value.path == "little_killers[0].from" and "A4" in info.value.reason
    with pytest.raises(FieldError) as info:
        LittleKiller.from_json({"little_killers": [
            {"from": "A3", "direction": "down", "sum": 9}]}, G9)
    assert info.value.path == "little_killers[0].direction"
    with pytest.raises(FieldError) as info:
        LittleKiller.from_json({"little_killers": [
            {"from": "A3", "direction": "down-left", "total": 9}]}, G9)
    assert info.value.path == "little_killers[0].total"


# -- sandwiches ---------------------------------------------------------------------------------
def test_sandwich_reads_the_real_entries_on_every_side():
    clues = Sandwich.from_fpuzzles({"sandwichsum": [
        {"cell": "R0C1", "value": "8"}, {"cell": "R3C0", "value": "3"},
        {"cell": "R10C2", "value": "0"}, {"cell": "R4C10", "value": "35"}]}, G9)
    assert [c.describe(G9) for c in clues] == [
        "sandwich 8 above column 1", "sandwich 3 left of row C", "sandwich 0 below column 2",
        "sandwich 35 right of row D"]
    assert clues[2].cells[0] == 73 and clues[3].cells[:2] == (35, 34)   # I2 up; D9 left
    assert Sandwich.to_fpuzzles(clues, G9)["sandwichsum"][2] == {"cell": "R10C2",
                                                                 "value": "0"}


def test_sandwich_of_zero_and_the_unreachable_one():
    zero = Sandwich(ROW, "right", 0)   # 1 and 4 side by side in row A
    assert counts([zero]) == {brute([zero])} and brute([zero]) > 0
    with pytest.raises(ConstraintError, match="out of reach"):
        Sandwich(tuple(range(9)), "right", 1).validate(G9)  # nothing sums to 1 from 2..8
    error = field_error(Sandwich, {"sandwichsum": [{"cell": "R0C1", "value": "1"}]})
    assert error.path == "sandwichsum[0].value" and "out of reach" in error.reason
    error = field_error(Sandwich, {"sandwichsum": [{"cell": "R0C1", "value": "36"}]})
    assert error.path == "sandwichsum[0].value" and "0 to 35" in error.reason


def test_sandwich_needs_one_of_each_crust():
    # A line with two 1s (one digit changed in a grid) breaks the rule; the link agrees.
    clue = Sandwich(ROW, "right", 2)
    assert clue.violations(G4, [0, 1, 3, 2] + [0] * 12) == []   # 1 [2] 4 3
    broken = [0, 1, 0, 3] + [0] * 12                              # 1 2 1 4
    assert "gives no clue at all" in clue.violations(G4, broken)[0]
    assert narrowed(clue, [1 << d for d in broken[:4]]) is None
    # 1 2 then the 4 (the filling is 2), then no crust: 2 or 3 (the row's units say which).
    assert narrowed(clue, [0b0001, 0b0010, 0b1111, 0b1111]) == (1, 2, 8, 6)


def test_sandwich_corner_or_inside_is_refused():
    for cell in ("R0C0", "R10C10", "R5C5"):
        error = field_error(Sandwich, {"sandwichsum": [{"cell": cell, "value": "5"}]})
        assert error.path == "sandwichsum[0].cell" and "beside a row or a column" in error.reason
    error = field_error(Sandwich, {"sandwichsum": [{"cell": "R0C1", "value": "5"},
                                                   {"cell": "R0C1", "value": "7"}]})
    assert error.path == "sandwichsum" and "two sandwich sums above column 1" in error.reason
    assert Sandwich.from_fpuzzles({"sandwichsum": [{"cell": "R0C1", "value": ""},
                                                   {"cell": "R0C2"}]}, G9) == []


def test_sandwich_own_json_reads_back():
    clue = Sandwich(tuple(range(8, -1, -1)), "left", 12)   # right of row A
    fields = Sandwich.to_json([clue], G9)
    assert fields == {"sandwiches": [{"from": "A9", "direction": "left", "sum": 12}]}
    assert Sandwich.from_json(fields, G9) == [clue]
    with pytest.raises(FieldError) as info:
        Sandwich.from_json({"sandwiches": [{"from": "B9", "direction": "down", "sum": 1}]}, G9)
    assert info.value.path == "sandwiches[0].from"


@pytest.mark.slow
@pytest.mark.parametrize("title", ["Sandwich Sudoku", "MiniMax Sandwich"])
def test_published_sandwich_puzzles_on_sat_and_cpsat(title):
    record, = published(title)
    puzzle = read_fpuzzles(json.dumps(record["fpuzzles"]), ReadOptions())
    assert any(c.kind == "sandwich" for c in puzzle.constraints)
    results = [get_backend(spec).solve(puzzle, limit=2) for spec in SPECS[1:]]
    assert len({r.solutions for r in results}) == 1
    assert results[0].count == 1


# -- X-sums -----------------------------------------------------------------------------------
def test_xsum_counts_its_first_cell_and_reads_from_its_side():
    left, right = XSum(ROW, "right", 6), XSum(ROW[::-1], "left", 6)
    grid = [2, 1, 0, 3] + [0] * 12   # 3 2 1 4: 3+2+1 from the left, 4+1+2+3 from the right
    assert left.violations(G4, grid) == []
    assert "gives 10" in right.violations(G4, grid)[0]
    assert counts([left]) == {brute([left])}
    assert counts([left, right]) == {brute([left, right])}


def test_xsum_reach():
    # X=1 gives 1; X=2 at least 2+1; so 2 is out of reach; on 4x4, so is 4 (2+? or 1).
    XSum(COLUMN, "down", 1).validate(G4)
    for total in (2, 4, 11):
        with pytest.raises(ConstraintError, match="out of reach"):
            XSum(COLUMN, "down", total).validate(G4)
    XSum(COLUMN, "down", 10).validate(G4)            # X=4: the whole line
    assert narrowed(XSum(COLUMN, "down", 1), [0b1111] * 4) == (1, 15, 15, 15)


def test_xsum_real_entries():
    clues = XSum.from_fpuzzles({"xsum": [{"cell": "R0C1", "value": "5"},
                                         {"cell": "R9C10", "value": "3"},
                                         {"cell": "R10C2", "value": "45"}]}, G9)
    assert [c.describe(G9) for c in clues] == ["X-sum 5 above column 1",
                                               "X-sum 3 right of row I", "X-sum 45 below column 2"]
    error = field_error(XSum, {"xsum": [{"cell": "R0C1", "value": "2"}]})
    assert error.path == "xsum[0].value"
    error = field_error(XSum, {"xsum": [{"cell": "R0C1", "value": "many"}]})
    assert error.path == "xsum[0].value"


# -- skyscrapers ------------------------------------------------------------------------------
def test_skyscraper_extremes_as_the_link_narrows_them():
    one = Skyscraper(COLUMN, "down", 1)              # the 4 first (it comes, and is seen)
    assert narrowed(one, [0b1111] * 4) == (8, 15, 15, 15)
    assert "no clue at all" in one.violations(G4, [2] * 16)[0]   # 3 3 3 3: no 4
    four = Skyscraper(COLUMN[::-1], "up", 4)         # 1 2 3 4 from below
    assert narrowed(four, [0b1111] * 4) == (1, 2, 4, 8)
    assert counts([one, four]) == {brute([one, four])}


def test_skyscraper_counts_only_strictly_taller():
    clue = Skyscraper(ROW, "right", 2)
    assert clue.violations(G4, [1, 1, 3, 0] + [0] * 12) == []      # 2 2 4 1: sees 2, 4
    assert narrowed(clue, [0b0010, 0b0010, 0b1000, 0b0001]) is not None
    assert "gives 3" in clue.violations(G4, [0, 1, 3, 2] + [0] * 12)[0]


def test_skyscraper_real_entries_and_own_json():
    clues = Skyscraper.from_fpuzzles({"skyscraper": [
        {"cell": "R0C4", "value": "5"}, {"cell": "R4C7", "value": "3"},
        {"cell": "R3C0", "value": "4"}]}, G6)
    assert [c.describe(G6) for c in clues] == ["skyscraper 5 above column 4",
                                               "skyscraper 3 right of row D",
                                               "skyscraper 4 left of row C"]
    fields = Skyscraper.to_json(clues, G6)
    assert fields["skyscrapers"][0] == {"from": "A4", "direction": "down", "visible": 5}
    assert Skyscraper.from_json(fields, G6) == clues
    error = field_error(Skyscraper, {"skyscraper": [{"cell": "R0C4", "value": "7"}]}, G6)
    assert error.path == "skyscraper[0].value" and "1 to 6" in error.reason


def test_skyscraper_on_its_unit_knows_the_digits_differ():
    clue = Skyscraper(ROW, "right", 2)
    unit, rule = clue.automaton(G4, unit=True), clue.automaton(G4)
    for values in itertools.permutations(range(4)):   # the readings a unit allows: alike
        sees_two = Skyscraper.clue_of([v + 1 for v in values], 4) == 2
        assert unit.accepts(values) == rule.accepts(values) == sees_two
    assert rule.accepts((0, 0, 3, 1)) and not unit.accepts((0, 0, 3, 1))   # 1 1 4 2


def test_skyscraper_encodings_count_alike():
    rng = random.Random(7)
    places = [(ROW, "right"), (COLUMN, "down"), ((15, 14, 13, 12), "left"),
              ((3, 7, 11, 15), "down")]
    for _ in range(6):
        clues = [Skyscraper(cells, direction, rng.randint(1, 4))
                 for cells, direction in rng.sample(places, 3)]
        puzzle = Puzzle(G4, (EMPTY,) * 16, "", tuple(clues))
        found = {get_backend(spec).solve(puzzle, limit=None).count
                 for spec in ("sat", "sat:skyscrapers=unit", "sat:skyscrapers=rule",
                              "sat:mode=fresh")}
        assert found == {brute(clues)}


@pytest.mark.parametrize("geometry", [G4, G6], ids=["4x4", "6x6"])
def test_a_skyscraper_line_keeps_exactly_the_readings_of_its_count(geometry):
    # skyscrapers=lines: the line read from the clue's side is a definition whatever the
    # clue, the clue two clauses on its count. Every ordering of the line's digits (the
    # unit keeps them different) is kept iff it shows the clue; the line is read against
    # its direction too (a clue on the other side: another definition).
    n = geometry.size
    for cells, direction in (((*range(n),), "right"), ((*range(n - 1, -1, -1),), "left")):
        for total in range(1, n + 1):
            ctx, numbering = cnf_context(n)
            clauses = list(Skyscraper(cells, direction, total).cnf(ctx))
            assert len([c for c in clauses if len(c) == 1]) >= 1
            with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as s:
                for values in itertools.permutations(range(n)):
                    shown = Skyscraper.clue_of([v + 1 for v in values], n) == total
                    assert s.solve(assumptions=filling(numbering, cells, values)) == shown


def test_a_skyscraper_count_bounds_where_the_tallest_stands():
    # What the line's clauses say of a prefix, by unit propagation alone (behind a selector,
    # so that propagate reports it): a clue of k keeps the N out of the first k - 1 cells,
    # a clue of 1 puts it first, a clue of N leaves the line 1 to N.
    _, numbering = cnf_context(6)
    x, selector = numbering.x, numbering.x_count + 1
    for total in (1, 3, 6):
        ctx = CnfContext(numbering, start=selector + 1, guard=-selector)
        clauses = list(Skyscraper(tuple(range(6)), "right", total).cnf(ctx))
        with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as s:
            ok, implied = s.propagate(assumptions=[selector])
            assert ok
            assert {-x(i, 5) for i in range(total - 1)} <= set(implied)
            if total == 1:
                assert x(0, 5) in implied
            if total == 6:  # every other digit out (each cell's one digit is the units')
                assert {-x(i, d) for i in range(6) for d in range(6) if d != i} <= set(implied)


# -- every kind -----------------------------------------------------------------------------
KINDS = [LittleKiller, Sandwich, XSum, Skyscraper]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.kind)
def test_samples_on_9x9_read_back_and_hold(kind):
    grid = get_backend("native").solve(Puzzle.empty(G9), limit=1).solutions[0]
    rng = random.Random(kind.kind)
    clues = kind.sample(G9, grid, rng)
    assert clues
    for clue in clues:
        clue.validate(G9)
        assert clue.violations(G9, grid) == []
    puzzle = Puzzle(G9, (EMPTY,) * 81, "", tuple(clues))
    assert parse_json(json_line(puzzle), ReadOptions()).constraints == puzzle.constraints


def test_a_puzzle_in_fpuzzles_and_back():
    puzzle = fpuzzles(
        4, littlekillersum=[{"cell": "R0C5", "cells": ["R1C4", "R2C3", "R3C2", "R4C1"],
                             "direction": "DL", "value": "10"}],
        sandwichsum=[{"cell": "R0C1", "value": "5"}], xsum=[{"cell": "R2C5", "value": "6"}],
        skyscraper=[{"cell": "R5C2", "value": "2"}])
    assert sorted(c.kind for c in puzzle.constraints) == ["X-sum", "little killer",
                                                          "sandwich", "skyscraper"]
    from sudoku_csp.io.fpuzzles import fpuzzles_object

    again = read_fpuzzles(json.dumps(fpuzzles_object(puzzle)), ReadOptions())
    assert again.constraints == puzzle.constraints


# -- pictures ---------------------------------------------------------------------------------
def test_outside_clues_stand_in_a_ring_around_the_grid():
    clues = LittleKiller.from_fpuzzles({"littlekillersum": BLITZ}, G9) + Sandwich.from_fpuzzles(
        {"sandwichsum": [{"cell": "R10C3", "value": "7"}]}, G9)
    svg = grid_svg(G9, [EMPTY] * 81, constraints=clues)
    root = ET.fromstring(svg)
    ring, side = outside_ring(9), cell_pixels(9)
    width = picture_width(9, ring)
    assert int(root.get("width")) == int(root.get("height")) == width > picture_width(9)
    origin = grid_origin(9) + ring
    ns = "{http://www.w3.org/2000/svg}"
    border = next(e for e in root.iter(f"{ns}rect") if e.get("class") == "border")
    assert float(border.get("x")) == origin
    texts = {e.get("class"): e for e in root.iter(f"{ns}text")}
    sandwich = texts["sandwich"]
    assert sandwich.text == "7"
    assert float(sandwich.get("x")) == origin + 2.5 * side            # below column 3
    drop = BASELINE_DROP * float(sandwich.get("font-size"))  # the baseline below the middle
    assert float(sandwich.get("y")) == pytest.approx(origin + 9.5 * side + drop, abs=0.05)
    killers = [e for e in root.iter(f"{ns}text") if e.get("class") == "little-killer"]
    assert sorted(e.text for e in killers) == ["17", "18", "23"]
    assert all(float(e.get("y")) < origin or float(e.get("x")) < origin for e in killers)
    assert svg.count('class="little-killer-arrow"') == 3
    labels = [e for e in root.iter(f"{ns}text") if e.get("class") == "row-label"]
    assert all(float(e.get("x")) < origin - ring for e in labels)  # beyond the ring
    assert "3 little killers" in svg and "1 sandwich sum" in svg


def test_no_ring_without_outside_clues():
    svg = grid_svg(G4, [EMPTY] * 16)
    assert f'width="{picture_width(4)}"' in svg
