"""Pair rules along lines: whispers, renban, nabner, entropic and modular lines, palindromes,
clones and slow thermometers, each on its known tricky cases (what tests/test_kinds.py, which
names no kind, cannot say): defaults per grid size, the pairs against the rule on every
assignment of a short line, bad input naming its path, the real f-puzzles shapes."""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET

import pytest
from cases import published

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import (
    KINDS,
    Clone,
    ConstraintError,
    EntropicLine,
    FieldError,
    ModularLine,
    Nabner,
    Palindrome,
    Renban,
    SlowThermo,
    Whispers,
    native_links,
)
from sudoku_csp.constraints.kinds.entropic import _thirds
from sudoku_csp.constraints.pairlines import LinePairs
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.render import grid_svg
from sudoku_csp.variants import make_geometry

LINES = [Whispers, Renban, Nabner, EntropicLine, ModularLine, Palindrome, SlowThermo]


def _line(kind: type[LinePairs], cells: tuple[int, ...], number: int | None = None
          ) -> LinePairs:
    return kind.make(cells, number if number is not None else kind.default(6))


def _grid_with(size: int, cells: tuple[int, ...], values: tuple[int, ...]) -> list[int]:
    grid = [0] * (size * size)
    for cell, value in zip(cells, values, strict=True):
        grid[cell] = value
    return grid


# -- the pairs say exactly what the rule says --------------------------------------------------
CASES = [(Whispers, 3), (Whispers, 2), (Renban, None), (Nabner, None), (EntropicLine, None),
         (ModularLine, 3), (ModularLine, 2), (ModularLine, 4), (Palindrome, None),
         (SlowThermo, None)]


@pytest.mark.parametrize(("kind", "number"), CASES,
                         ids=[f"{k.kind}-{n}" for k, n in CASES])
def test_pairs_and_links_judge_every_assignment_as_the_rule(kind, number):
    # A line of 1 to 5 cells (B1 C2 B3 C4 B5: no two in a row) on 6x6, every assignment of
    # its cells: the relations, the native links on singles and violations agree.
    g = make_geometry(6)
    path = (6, 13, 8, 15, 10)
    for length in range(2, 6):
        cells = path[:length]
        line = _line(kind, cells, number)
        if kind is Nabner and length > 3:
            continue
        rules = line.rules(g)
        links = line.native(g)
        for values in itertools.product(range(6), repeat=length):
            grid = _grid_with(6, cells, values)
            broken = bool(line.violations(g, grid))
            paired = all(rel.holds(grid[a] + 1, grid[b] + 1) for a, b, rel in rules)
            linked = all(link.narrow(tuple(1 << grid[c] for c in link.cells)) is not None
                         for link in links)
            assert paired == linked == (not broken), (line, values)


def test_lines_with_a_cell_twice():
    g = make_geometry(6)
    loop = (0, 1, 7, 6, 0)  # A1 A2 B2 B1 A1: a closed loop of whispers
    w = Whispers(loop, 3)
    w.validate(g)
    assert all(a != b for a, b, _ in w.rules(g))
    assert not w.violations(g, _grid_with(6, (0, 1, 7, 6), (0, 4, 0, 5)))
    Palindrome((0, 1, 0)).validate(g)  # rules nothing: every cell its own mirror
    assert Palindrome((0, 1, 0)).rules(g) == []
    EntropicLine((0, 1, 7, 0)).validate(g)  # three steps apart: the same third
    with pytest.raises(ConstraintError, match="A1 twice, 2 steps apart"):
        EntropicLine((0, 1, 0)).validate(g)
    with pytest.raises(ConstraintError, match="multiple of 4"):
        ModularLine((0, 1, 7, 0), 4).validate(g)
    for kind in (Renban, Nabner, SlowThermo):
        with pytest.raises(ConstraintError, match="passes A1 twice"):
            kind.make((0, 1, 0), None).validate(g)


# -- whispers ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "default"), [(4, 2), (6, 3), (8, 4), (9, 5), (16, 8)])
def test_whispers_default_difference_is_half_the_size_rounded_up(size, default):
    g = make_geometry(size)
    doc = {"whispers": [{"lines": [["R1C1", "R1C2"]]}]}
    (w,) = Whispers.from_fpuzzles(doc, g)
    assert w.difference == default
    assert Whispers.to_fpuzzles([w], g) == doc  # the default is not written
    assert Whispers.from_json({"whispers": [["A1", "A2"]]}, g)[0] == w


def test_german_whispers_never_hold_5_on_9x9():
    g = make_geometry(9)
    (link,) = Whispers((0, 1), 5).native(g)
    assert link.narrow((0x1FF, 0x1FF)) == (0x1EF, 0x1EF)  # 5 (bit 4) gone from both
    assert link.narrow((1 << 4, 0x1FF)) is None


def test_whispers_values_from_fpuzzles_and_json():
    g = make_geometry(9)
    doc = {"whispers": [{"lines": [["R1C1", "R1C2", "R2C3"], ["R5C5", "R6C6"]], "value": "4"}]}
    found = Whispers.from_fpuzzles(doc, g)
    assert found == [Whispers((0, 1, 11), 4), Whispers((40, 50), 4)]
    assert Whispers.to_fpuzzles(found, g) == {"whispers": [
        {"lines": [["R1C1", "R1C2", "R2C3"]], "value": "4"},
        {"lines": [["R5C5", "R6C6"]], "value": "4"}]}
    assert Whispers.to_json(found[:1], g) == {
        "whispers": [{"cells": ["A1", "A2", "B3"], "difference": 4}]}
    assert Whispers.from_fpuzzles({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": ""}]},
                                  g)[0].difference == 5
    assert Whispers.summary(found, g) == ["2 whispers lines (difference 4)"]


@pytest.mark.parametrize(("doc", "path", "words"), [
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "x"}]}, "whispers[0].value",
     "whole number from 1 to 8"),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": 9}]}, "whispers[0].value",
     "from 1 to 8"),
    ({"whispers": [{"lines": [["R1C1", "R1C3"]]}]}, "whispers[0].lines[0]",
     "not a path of neighbours"),
    ({"whispers": [{"lines": [["R1C1", "R1C0"]]}]}, "whispers[0].lines[0][1]", "R1C1 .. R9C9"),
    ({"whispers": [{"lines": [["R1C1"]]}]}, "whispers[0].lines[0]", "at least 2"),
    ({"whispers": [{"line": [["R1C1", "R1C2"]]}]}, "whispers[0].lines", "list of lines"),
    ({"whispers": {"lines": []}}, "whispers", "list of objects"),
])
def test_bad_fpuzzles_whispers_name_the_element(doc, path, words):
    with pytest.raises(FieldError, match=words) as caught:
        Whispers.from_fpuzzles(doc, make_geometry(9))
    assert caught.value.path == path


@pytest.mark.parametrize(("fields", "path"), [
    ({"whispers": [{"cells": ["A1", "A2"], "difference": 0}]}, "whispers[0].difference"),
    ({"whispers": [{"cells": ["A1", "A2"], "gap": 3}]}, "whispers[0].gap"),
    ({"whispers": [{"cells": ["A1", "Z2"]}]}, "whispers[0].cells[1]"),
    ({"whispers": [["A1", "C1"]]}, "whispers[0]"),
    ({"whispers": "A1 A2"}, "whispers"),
])
def test_bad_json_whispers_name_the_field(fields, path):
    with pytest.raises(FieldError) as caught:
        Whispers.from_json(fields, make_geometry(9))
    assert caught.value.path == path


# -- renban, nabner ----------------------------------------------------------------------------
def test_renban_is_a_run_in_any_order():
    g = make_geometry(9)
    line = Renban((0, 1, 2, 3))
    assert not line.violations(g, _grid_with(9, line.cells, (4, 2, 5, 3)))   # 5 3 6 4
    assert line.violations(g, _grid_with(9, line.cells, (4, 2, 6, 3)))       # 5 3 7 4
    assert line.violations(g, _grid_with(9, line.cells, (4, 3, 5, 3)))       # a repeat
    (link, *_) = line.native(g)
    assert link.narrow((1 << 0, 0x1FF)) == (1, 0b1110)  # with a 1: the rest from 2-4
    with pytest.raises(ConstraintError, match="at most 4 cells"):
        Renban((0, 1, 2, 3, 7)).validate(make_geometry(4))


def test_renban_windows_and_units():
    g = make_geometry(9)
    line = Renban((0, 1, 2, 3, 4, 5))  # six cells of row A: 4, 5 and 6 are surely there
    runs = line.native(g)[-1]
    full = (0x1FF,) * 6
    assert runs.narrow(full) == full
    # A1 from 1-3: the run is 1-6, 2-7 or 3-8, so holds 3-6; 5 has one place left: A6
    only = runs.narrow((0b111,) + (0x1FF & ~(1 << 4),) * 4 + (0x1FF,))
    assert only is not None and only[5] == 1 << 4
    assert runs.narrow((0b111,) + (0x1FF & ~0b111000,) * 4 + (0x1FF,)) is None  # 4, 5, 6: A6
    assert runs.narrow((1, 1 << 8) + (0x1FF,) * 4) is None  # 1 and 9: no run of six
    (pointing,) = Renban.joint_native(g, [line])
    masks = dict(zip(pointing.cells, pointing.narrow(
        tuple(0x1FF for _ in pointing.cells)), strict=True))
    assert masks[6] == 0x1FF & ~0b111000  # A7: not 4, 5 or 6 (row A holds them on the line)
    assert masks[9] == 0x1FF  # B1: in box 1 with A1-A3, which need not hold them
    # the same six cells as two short lines: nothing is sure, nothing leaves
    (short,) = Renban.joint_native(g, [Renban((0, 1, 2))])
    assert short.narrow(tuple(0x1FF for _ in short.cells)) == tuple(0x1FF for _ in short.cells)


def test_nabner_is_at_most_half_the_size_long():
    g = make_geometry(9)
    Nabner((0, 1, 2, 3, 4)).validate(g)  # 1 3 5 7 9
    doc = {"nabner": [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4", "R1C5", "R1C6"]]}]}
    with pytest.raises(FieldError, match="at most 5 cells") as caught:
        Nabner.from_fpuzzles(doc, g)
    assert caught.value.path == "nabner[0].lines[0]"
    far = Nabner((0, 1, 2))  # not only neighbours: the ends too
    assert far.violations(g, _grid_with(9, far.cells, (0, 4, 1)))


# -- entropic and modular lines ----------------------------------------------------------------
@pytest.mark.parametrize(("size", "bands"), [
    (4, "1 | 2-3 | 4"), (6, "1-2 | 3-4 | 5-6"), (8, "1-3 | 4-5 | 6-8"), (9, "1-3 | 4-6 | 7-9"),
    (10, "1-3 | 4-7 | 8-10"), (12, "1-4 | 5-8 | 9-12"), (16, "1-5 | 6-11 | 12-16")])
def test_entropic_thirds_follow_rangsk(size, bands):
    # Low and high thirds of one size, the middle takes the rest; relations and the check
    # (written separately) agree on which values share a third.
    g = make_geometry(size)
    line = EntropicLine((0, 1))
    (_, _, different) = line.rules(g)[0]
    for x, y in itertools.product(range(size), repeat=2):
        message = line.violations(g, _grid_with(size, (0, 1), (x, y)))
        assert different.holds(x + 1, y + 1) == (not message)
        if message:
            assert message[0].endswith(f"({bands})")


def test_entropic_thirds_of_prime_sizes():
    # 5x5 and 7x7 grids are jigsaws; their thirds: 1-2 | 3 | 4-5 and 1-2 | 3-5 | 6-7
    assert _thirds(5) == (0, 0, 1, 2, 2)
    assert _thirds(7) == (0, 0, 1, 1, 1, 2, 2)


def test_modular_lines_modulus_from_fpuzzles():
    g = make_geometry(9)
    doc = {"modularline": [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]},
                           {"lines": [["R3C1", "R3C2"]], "value": "4"}]}
    found = ModularLine.from_fpuzzles(doc, g)
    assert found == [ModularLine((0, 1, 2, 3), 3), ModularLine((18, 19), 4)]
    assert ModularLine.to_fpuzzles(found, g) == doc
    # 1 5 9 holds mod 3 (1, 2, 0); the fourth cell must repeat the first residue
    line = found[0]
    assert not line.violations(g, _grid_with(9, line.cells, (0, 4, 8, 3)))
    assert line.violations(g, _grid_with(9, line.cells, (0, 4, 8, 4)))
    with pytest.raises(FieldError, match="from 2 to 9"):
        ModularLine.from_json({"modular_lines": [{"cells": ["A1", "A2"], "modulus": 1}]}, g)


# -- palindromes, clones -----------------------------------------------------------------------
def test_palindrome_pairs_mirror_cells():
    g = make_geometry(9)
    odd = Palindrome((0, 1, 2, 3, 4))
    assert [(a, b) for a, b, _ in odd.rules(g)] == [(0, 4), (1, 3)]
    assert not odd.violations(g, _grid_with(9, odd.cells, (1, 2, 8, 2, 1)))
    assert odd.violations(g, _grid_with(9, odd.cells, (1, 2, 8, 3, 1)))


def test_clones_from_fpuzzles_real_shape():
    g = make_geometry(9)
    doc = {"clone": [{"cells": ["R3C3", "R3C4", "R4C3", "R4C4"],
                      "cloneCells": ["R6C6", "R6C7", "R7C6", "R7C7"]}]}
    (clone,) = Clone.from_fpuzzles(doc, g)
    assert clone == Clone((20, 21, 29, 30), (50, 51, 59, 60))
    assert Clone.to_fpuzzles([clone], g) == doc
    assert Clone.from_json(Clone.to_json([clone], g), g) == [clone]
    overlapping = Clone((0, 1), (1, 2))  # shifted by one: all three equal
    assert [(a, b) for a, b, _ in overlapping.rules(g)] == [(0, 1), (1, 2)]


@pytest.mark.parametrize(("doc", "path", "words"), [
    ({"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R5C5"]}]}, "clone[0]",
     "as many cells: 2 and 1"),
    ({"clone": [{"cells": ["R1C1"]}]}, "clone[0].cloneCells", "list of cell names"),
    ({"clone": [{"cells": ["R1C1", "R1C1"], "cloneCells": ["R5C5", "R5C6"]}]}, "clone[0]",
     "A1 twice"),
    ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R10C1"]}]}, "clone[0].cloneCells[0]",
     "R1C1 .. R9C9"),
])
def test_bad_clones_name_the_element(doc, path, words):
    with pytest.raises(FieldError, match=words) as caught:
        Clone.from_fpuzzles(doc, make_geometry(9))
    assert caught.value.path == path


# -- slow thermometers -------------------------------------------------------------------------
def test_slow_thermo_bounds_and_the_units():
    g = make_geometry(4)
    thermo = SlowThermo((0, 5, 2))  # A1 B2 A3: A1 and A3 share row A
    (link,) = thermo.native(g)
    assert link.narrow((0b1100, 0b1111, 0b1111)) == (0b1100, 0b1100, 0b1100)
    (joint,) = SlowThermo.joint_native(g, [thermo])
    # B2 shares A1's box and A3 its row: both above A1, which keeps 3; B2 and A3 are 4
    assert joint.narrow((0b1100, 0b1111, 0b1111)) == (0b0100, 0b1000, 0b1000)
    assert SlowThermo.joint_native(g, [SlowThermo((0, 5))]) != []  # A1, B2: one box
    assert SlowThermo.joint_native(make_geometry(9), [SlowThermo((2, 12))]) == []  # A3, B4
    # a slow thermometer along a whole row is a thermometer: 1 2 3 4
    row = Puzzle(g, (EMPTY,) * 16, "", (SlowThermo((0, 1, 2, 3)),))
    for spec in ("native", "sat"):  # (every backend counts samples in tests/test_kinds.py)
        result = get_backend(spec).solve(row, limit=None)
        assert result.count == 288 // 24 * 1, spec
        assert all(s[:4] == (0, 1, 2, 3) for s in result.solutions)
    assert len(native_links(g, row.constraints)) == 2


# -- every kind: samples hold on 4x4, pictures, real puzzles -----------------------------------
@pytest.mark.parametrize("kind", [*LINES, Clone], ids=lambda k: k.kind)
def test_samples_are_short_paths_that_hold(kind):
    for size in (4, 6, 9):
        g = make_geometry(size)
        grid = get_backend("native").solve(Puzzle.empty(g), limit=1).solutions[0]
        for seed in range(15):
            found = kind.sample(g, grid, random.Random(seed))
            assert 1 <= len(found) <= 3
            for c in found:
                c.validate(g)
                assert not c.violations(g, grid)
                if isinstance(c, LinePairs):
                    assert 2 <= len(c.cells) <= 4


def test_pictures_draw_each_kind():
    g = make_geometry(9)
    cons = (Whispers((0, 1, 2), 5), Renban((9, 10)), Nabner((18, 19)), EntropicLine((27, 28)),
            ModularLine((36, 37)), Palindrome((45, 46, 47)), SlowThermo((54, 55)),
            Clone((72, 73), (76, 77)))
    root = ET.fromstring(grid_svg(g, [EMPTY] * 81, constraints=cons))
    found = {e.get("class") for e in root.iter()}
    assert {"whispers-line", "renban-line", "nabner-line", "entropic-line-line",
            "modular-line-line", "palindrome-line", "slow-thermo-line", "slow-thermo-bulb",
            "clone-cell"} <= found
    bulb = next(e for e in root.iter() if e.get("class") == "slow-thermo-bulb")
    assert bulb.get("fill") == "#ffffff"  # hollow


def test_published_puzzles_solutions_keep_these_lines():
    mine = [k for k in KINDS if k in (*LINES, Clone)]
    checked = 0
    for item in published():
        doc, solution = item["fpuzzles"], item.get("solution")
        readers = [k for k in mine if any(key in doc for key in k.names.fpuzzles)]
        if not readers or not solution:
            continue
        g = make_geometry(doc["size"])
        digits = [int(v) - 1 for v in solution]
        for kind in readers:
            for c in kind.from_fpuzzles(doc, g):
                assert not c.violations(g, digits), (item["title"], c)
                checked += 1
    assert checked >= 10
