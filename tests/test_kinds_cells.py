"""Cells, dots and regions: dots with values (and their negative rules), quadruples, extra
regions, minimum/maximum cells and indexers; each kind's tricky case, its f-puzzles entries
in their real shape, and bad input named by its path. (The contract every kind signs is
checked by tests/test_kinds.py.)"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from functools import cache
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sudoku_csp.backends import get_backend
from sudoku_csp.constraints import (
    XV,
    Cage,
    Dots,
    ExtraRegion,
    FieldError,
    Indexer,
    Kropki,
    MinMax,
    NonConsecutive,
    Quadruple,
)
from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.constraints.fields import orthogonal_pairs
from sudoku_csp.geometry import EMPTY
from sudoku_csp.native.search import propagate_puzzle
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.render import grid_svg
from sudoku_csp.variants import make_geometry

G4, G6, G9 = make_geometry(4), make_geometry(6), make_geometry(9)
GRID4 = (0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0)  # rows 1234 3412 2143 4321
SPECS = ["native", "sat", "cpsat", "cpsat:model=boolean"]


@cache
def grids4() -> tuple[tuple[int, ...], ...]:
    return get_backend("native").solve(Puzzle.empty(G4), limit=1000).solutions


def count_everywhere(constraints) -> int:  # noqa: ANN001
    """The checker's count over all 288 4x4 grids, asserted equal on every backend."""
    expected = sum(all(not c.violations(G4, g) for c in constraints) for g in grids4())
    puzzle = Puzzle(G4, (EMPTY,) * 16, "", tuple(constraints))
    for spec in SPECS:
        result = get_backend(spec).solve(puzzle, limit=None)
        assert (result.count, result.complete) == (expected, True), spec
    return expected


def links_accept(constraints, grid) -> bool:  # noqa: ANN001
    return all(link.narrow(tuple(1 << grid[x] for x in link.cells)) is not None
               for c in constraints for link in c.native(G4))


def fpuzzles(size: int, **keys) -> dict:  # noqa: ANN003
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **keys}


# -- dots -------------------------------------------------------------------------------------
def test_dots_read_a_real_kropki_puzzle_with_nonconsecutive():
    # "Bird in a Storm" (f-puzzles): white dots without values, black dots, the
    # nonconsecutive flag meaning "all white dots given", and negative ratio.
    doc = fpuzzles(9, difference=[{"cells": ["R1C7", "R1C6"]}, {"cells": ["R2C1", "R2C2"]}],
                   ratio=[{"cells": ["R3C3", "R3C2"]}], nonconsecutive=True,
                   negative=["ratio"])
    [dots] = Dots.from_fpuzzles(doc, G9)
    assert dots == Dots(difference=((5, 6, 1), (9, 10, 1)), ratio=((19, 20, 2),),
                        negative=("ratio",), nonconsecutive=True)
    assert NonConsecutive.from_fpuzzles(doc, G9) == []  # the dots read the flag
    assert NonConsecutive.from_fpuzzles(fpuzzles(9, nonconsecutive=True), G9) == \
        [NonConsecutive()]


def test_dots_values_and_letters_read_and_write_back():
    doc = fpuzzles(9, difference=[{"cells": ["R1C1", "R1C2"], "value": "3"}],
                   ratio=[{"cells": ["R2C1", "R2C2"], "value": 3}, {"cells": ["R3C1", "R3C2"]}],
                   sum=[{"cells": ["R4C1", "R5C1"], "value": "7"}],
                   xv=[{"cells": ["R6C2", "R6C1"], "value": "x"}, {"cells": ["R7C1", "R7C2"],
                                                                   "value": "V"}],
                   negative=["xv", "sum", "sandwich"])
    [dots] = Dots.from_fpuzzles(doc, G9)
    assert dots.difference == ((0, 1, 3),) and dots.ratio == ((9, 10, 3), (18, 19, 2))
    assert dots.sums == ((27, 36, 7),) and dots.xv == ((45, 46, 10), (54, 55, 5))
    assert dots.negative == ("sum", "xv")  # other kinds' words are theirs
    written = Dots.to_fpuzzles([dots], G9)
    assert written["difference"] == [{"cells": ["R1C1", "R1C2"], "value": "3"}]
    assert written["ratio"][1] == {"cells": ["R3C1", "R3C2"]}  # the default 2 left out
    assert written["xv"][0] == {"cells": ["R6C1", "R6C2"], "value": "X"}
    assert Dots.from_fpuzzles({"size": 9, **written}, G9) == [dots]


@pytest.mark.parametrize(("key", "entry", "path"), [
    ("difference", {"cells": ["R1C1", "R2C2"]}, "difference[0].cells"),
    ("difference", {"cells": ["R1C1"]}, "difference[0].cells"),
    ("ratio", {"cells": ["R1C1", "R1C2"], "value": "12"}, "ratio[0].value"),
    ("sum", {"cells": ["R1C1", "R1C2"]}, "sum[0].value"),
    ("sum", {"cells": ["R1C1", "R1C2"], "value": "20"}, "sum[0].value"),
    ("xv", {"cells": ["R1C1", "R1C2"], "value": "Y"}, "xv[0].value"),
    ("xv", {"cells": ["R1C1", "R1C10"], "value": "X"}, "xv[0].cells[1]"),
])
def test_dots_bad_entries_name_their_path(key, entry, path):
    with pytest.raises(FieldError) as info:
        Dots.from_fpuzzles(fpuzzles(9, **{key: [entry]}), G9)
    assert info.value.path == path


def test_an_x_is_out_of_reach_on_4x4():
    with pytest.raises(FieldError, match="out of reach"):
        Dots.from_fpuzzles(fpuzzles(4, xv=[{"cells": ["R1C1", "R1C2"], "value": "X"}]), G4)


def test_negative_difference_exempts_ratio_dots_but_not_xv_marks():
    # Rangsk's solver: a pair with any kropki dot is exempt from the negative kropki rules,
    # a pair with an X or V is not (and the other way round).
    base = {"difference": ((0, 1, 1),), "negative": ("difference",)}
    broken = Dots(**base).violations(G4, GRID4)
    assert len(broken) == 11  # every consecutive pair but A1-A2
    assert "C1 and C2 differ by 1 but no kropki dot is between them" in broken
    ratio = Dots(**base, ratio=((8, 9, 2),))  # C1=2, C2=1: a black dot there exempts them
    assert "C1 and C2 differ by 1 but no kropki dot is between them" not in \
        ratio.violations(G4, GRID4)
    xv = Dots(**base, sums=((8, 9, 3),))  # a sum dot does not
    assert "C1 and C2 differ by 1 but no kropki dot is between them" in xv.violations(G4, GRID4)
    for c in (ratio, xv):
        assert links_accept([c], GRID4) == (not c.violations(G4, GRID4))


def test_negative_difference_without_difference_dots_says_nothing():
    # Only the values the dots carry are forbidden (nonconsecutive adds 1).
    assert Dots(ratio=((0, 1, 2),), negative=("difference",)).rules(G4) == \
        Dots(ratio=((0, 1, 2),)).rules(G4)
    assert len(Dots(ratio=((0, 1, 2),), nonconsecutive=True).rules(G4)) == 24


def pairs_of(grid, rule) -> tuple:  # noqa: ANN001
    """(a, b, value) for each pair of neighbours of ``grid`` whose values ``rule`` maps to a
    value (``None``: no dot)."""
    found = []
    for a, b in orthogonal_pairs(G4):
        value = rule(grid[a] + 1, grid[b] + 1)
        if value is not None:
            found.append((a, b, value))
    return tuple(found)


def test_nonconsecutive_with_ratio_dots_exempts_the_dotted_pairs():
    # Non-consecutive with black dots: 1 and 2 may stand on a black dot (Rangsk's reading).
    # GRID4 with a black dot on each 1-2 pair, a white one on each other consecutive pair.
    ratio = pairs_of(GRID4, lambda x, y: 2 if {x, y} == {1, 2} else None)
    white = pairs_of(GRID4, lambda x, y: 1 if abs(x - y) == 1 and {x, y} != {1, 2} else None)
    dots = Dots(difference=white, ratio=ratio, nonconsecutive=True)
    assert ratio and dots.violations(G4, GRID4) == []
    assert Dots(difference=white, nonconsecutive=True).violations(G4, GRID4)
    assert count_everywhere([dots]) >= 1


def test_negative_sum_and_xv_need_every_mark():
    sums = pairs_of(GRID4, lambda x, y: 3 if x + y == 3 else None)
    vees = pairs_of(GRID4, lambda x, y: 5 if x + y == 5 else None)
    dots = Dots(sums=sums, xv=vees, negative=("sum", "xv"))
    assert dots.violations(G4, GRID4) == []
    assert Dots(sums=sums, xv=vees[1:], negative=("sum", "xv")).violations(G4, GRID4) == [
        f"{G4.label(vees[0][0])} and {G4.label(vees[0][1])} add up to 5 but no X, V or sum "
        "dot is between them"]
    assert Dots(sums=sums, negative=("sum",)).violations(G4, GRID4) == []
    assert count_everywhere([dots]) >= 1


def test_negative_ratio_names_its_values_and_two():
    # Difference dots of 2 on every pair two apart; ratio dots on every pair in ratio 2 or 3
    # (2 is always forbidden unmarked, 3 because a dot carries it).
    ratio = pairs_of(GRID4, lambda x, y: max(x, y) // min(x, y)
                     if max(x, y) % min(x, y) == 0 and max(x, y) // min(x, y) in (2, 3) else None)
    two = pairs_of(GRID4, lambda x, y: 2 if abs(x - y) == 2 else None)
    dots = Dots(difference=two, ratio=ratio, negative=("difference", "ratio"))
    assert any(v == 3 for _, _, v in ratio) and dots.violations(G4, GRID4) == []
    assert count_everywhere([dots]) >= 1


@pytest.mark.parametrize("negative", [False, True])
def test_kropki_and_xv_written_to_fpuzzles_read_back_as_dots_saying_the_same(negative):
    black_only = Kropki((), ((8, 9),), negative)  # no white dot: needs the flag
    both = Kropki(((0, 1),), ((8, 9),), negative)
    marks = XV((), ((2, 6),), negative)
    for constraint in (black_only, both, marks):
        written = type(constraint).to_fpuzzles([constraint], G4)
        doc = {"size": 4, **written}
        back = [*Dots.from_fpuzzles(doc, G4), *NonConsecutive.from_fpuzzles(doc, G4)]
        assert Kropki.names.fpuzzles_keys() == () and XV.names.fpuzzles_keys() == ()
        assert Kropki.names.fpuzzles_as == XV.names.fpuzzles_as == Dots.names.name
        for g in grids4():
            assert (not constraint.violations(G4, g)) == \
                all(not c.violations(G4, g) for c in back), (constraint, back, g)


def test_dots_json_reads_back_and_names_bad_fields():
    dots = Dots(difference=((0, 1, 2),), xv=((2, 3, 5),), negative=("xv",))
    fields = Dots.to_json([dots], G4)
    assert fields == {"value_dots": {"difference": [{"cells": ["A1", "A2"], "value": 2}],
                                     "xv": [{"cells": ["A3", "A4"], "value": "V"}],
                                     "negative": ["xv"]}}
    assert Dots.from_json(fields, G4) == [dots]
    with pytest.raises(FieldError) as info:
        Dots.from_json({"value_dots": {"ratio": [{"cells": ["A1", "C1"]}]}}, G4)
    assert info.value.path == "value_dots.ratio[0].cells"
    with pytest.raises(FieldError) as info:
        Dots.from_json({"value_dots": {"negative": ["kropki"]}}, G4)
    assert info.value.path == "value_dots.negative"


# -- quadruples -------------------------------------------------------------------------------
def test_quadruple_reads_fpuzzles_and_a_repeated_digit_needs_two_cells():
    doc = fpuzzles(9, quadruple=[{"cells": ["R3C3", "R3C4", "R4C3", "R4C4"], "values": [3, 4, 5]},
                                 {"cells": ["R3C6", "R3C7", "R4C6", "R4C7"], "values": [4, 4]}])
    first, second = Quadruple.from_fpuzzles(doc, G9)
    assert first == Quadruple((20, 21, 29, 30), (3, 4, 5))
    assert second.values == (4, 4)
    assert Quadruple.to_fpuzzles([first, second], G9) == {"quadruple": doc["quadruple"]}
    # On 4x4, B2 B3 C2 C3 straddle all four boxes: two 1s must lie on a diagonal.
    quad = Quadruple((5, 6, 9, 10), (1, 1))
    assert count_everywhere([quad]) == sum(
        [g[c] for c in (5, 6, 9, 10)].count(0) == 2 for g in grids4())
    assert quad.violations(G4, GRID4) == []  # B2 B3 C2 C3 hold 4 1 1 4
    assert Quadruple((5, 6, 9, 10), (2, 4, 4)).violations(G4, GRID4) == [
        "quadruple 244 at B2 has no 2 in B2, B3, C2, C3"]
    assert Quadruple((5, 6, 9, 10), (3, 3)).violations(G4, GRID4) == [
        "quadruple 33 at B2 has no 3 (needs 2) in B2, B3, C2, C3"]


def test_quadruple_link_fills_the_free_cells_with_what_is_missing():
    quad = Quadruple((0, 1, 4, 5), (1, 2))
    [link] = quad.native(G4)
    every = 0b1111
    # Two cells already 3 and 4: the other two keep only 1 and 2.
    assert link.narrow((0b0100, every, 0b1000, every)) == (0b0100, 0b0011, 0b1000, 0b0011)
    # Only one cell can hold 1: it is placed there.
    assert link.narrow((0b1110, 0b1111, 0b1110, 0b1110)) == (0b1110, 0b0001, 0b1110, 0b1110)
    # Complete on singles.
    assert link.narrow((0b0001, 0b0100, 0b1000, 0b0100)) is None
    assert link.narrow((0b0001, 0b0100, 0b1000, 0b0010)) is not None


def test_quadruple_points_along_the_units_it_crosses():
    # C3 C4 D3 D4 need a 4; with 4 only possible in D3 or D4, row D holds its 4 there.
    quad = Quadruple((20, 21, 29, 30), (4,))
    [link] = Quadruple.joint_native(G9, [quad])
    masks = dict.fromkeys(link.cells, 0x1FF)
    masks[20] = masks[21] = 0x1FF & ~(1 << 3)
    out = dict(zip(link.cells, link.narrow(tuple(masks[c] for c in link.cells)), strict=True))
    row_d = range(27, 36)
    assert all(not out[c] >> 3 & 1 for c in row_d if c not in (29, 30))
    assert all(out[c] == masks[c] for c in link.cells if c not in row_d)
    # Two 5s stand on a diagonal: rows C and D and columns 3 and 4 hold theirs in the square.
    [twice] = Quadruple.joint_native(G9, [Quadruple((20, 21, 29, 30), (5, 5))])
    out = dict(zip(twice.cells, twice.narrow((0x1FF,) * len(twice.cells)), strict=True))
    lines = {c for c in twice.cells if c // 9 in (2, 3) or c % 9 in (2, 3)} - {20, 21, 29, 30}
    assert lines and all(not out[c] >> 4 & 1 for c in lines)
    assert quad.native(G9)[0].narrow((0x1FF,) * 4) == (0x1FF,) * 4


def test_quadruple_under_a_cage_takes_the_cage_digit_sets_into_account():
    # A cage of C3 C4 D3 adding up to 11 under a quadruple 3 4 5: the cage holds two of the
    # three (D4 only one) and 3+4+5 = 12, so it is 2 4 5 and D4 the 3. The four cells alone
    # by brute force (rows, columns, the cage, the written digits) say so too.
    quad, cage = Quadruple((20, 21, 29, 30), (3, 4, 5)), Cage((20, 21, 29), 11)
    fits = [v for v in product(range(9), repeat=4)
            if not quad.violations(G9, _grid9(quad.cells, v))
            and not cage.violations(G9, _grid9(quad.cells, v))
            and all(v[i] != v[j] for i, j in ((0, 1), (0, 2), (1, 3), (2, 3)))]
    state = propagate_puzzle(Puzzle(G9, (EMPTY,) * 81, "", (quad, cage)))
    assert state is not None
    for i, cell in enumerate(quad.cells):
        assert state.candidates(cell) == tuple(sorted({v[i] for v in fits}))
    assert state.candidates(30) == (2,)


def _grid9(cells: tuple[int, ...], values: tuple[int, ...]) -> list[int]:
    grid = [EMPTY] * 81
    for cell, value in zip(cells, values, strict=True):
        grid[cell] = value
    return grid


@settings(max_examples=150, deadline=None)
@given(values=st.lists(st.integers(1, 4), min_size=1, max_size=4),
       cells=st.sets(st.sampled_from((5, 6, 9, 10, 4, 7, 1)), min_size=2, max_size=4),
       masks=st.lists(st.integers(1, 15), min_size=7, max_size=7),
       pick=st.integers(0, 287))
def test_quadruple_cage_links_never_remove_a_digit_of_a_solution(values, cells, masks, pick):
    # On a 4x4 grid, a quadruple in the middle and a cage whose sum one grid gives: every
    # grid keeping both, and the candidates, keeps its digits through the joint links.
    quad = Quadruple((5, 6, 9, 10), tuple(sorted(values)))
    assume(not quad.violations(G4, grids4()[pick]) and len(set(cells) & set(quad.cells)) >= 2)
    cage = Cage(tuple(sorted(cells)), sum(grids4()[pick][x] + 1 for x in cells))
    marks = dict(zip((5, 6, 9, 10, 4, 7, 1), masks, strict=True))
    links = [link for link in Quadruple.joint_native(G4, [quad, cage])
             if set(link.cells) <= set(marks)]
    assert links
    for grid in grids4():
        if quad.violations(G4, grid) or cage.violations(G4, grid):
            continue
        for link in links:
            out = link.narrow(tuple(marks[x] | 1 << grid[x] for x in link.cells))
            assert out is not None
            assert all(m >> grid[x] & 1 for x, m in zip(link.cells, out, strict=True))


@pytest.mark.parametrize(("entry", "path"), [
    ({"cells": ["R1C1", "R1C2", "R2C1", "R3C2"], "values": [1]}, "quadruple[0].cells"),
    ({"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 10]}, "quadruple[0].values[1]"),
    ({"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 1, 1]}, "quadruple[0].values"),
    ({"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": []}, "quadruple[0].values"),
    ({"cells": ["R1C9", "R1C10", "R2C9", "R2C10"], "values": [1]}, "quadruple[0].cells[1]"),
])
def test_quadruple_bad_entries_name_their_path(entry, path):
    with pytest.raises(FieldError) as info:
        Quadruple.from_fpuzzles(fpuzzles(9, quadruple=[entry]), G9)
    assert info.value.path == path


# -- extra regions ----------------------------------------------------------------------------
def test_extra_region_reads_fpuzzles_and_refuses_more_cells_than_digits():
    doc = fpuzzles(4, extraregion=[{"cells": ["R1C1", "R2C2", "R3C3", "R4C4"]}])
    [region] = ExtraRegion.from_fpuzzles(doc, G4)
    assert region == ExtraRegion((0, 5, 10, 15))
    assert ExtraRegion.to_fpuzzles([region], G4) == {"extraregion": doc["extraregion"]}
    too_many = fpuzzles(4, extraregion=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2", "R3C3"]}])
    with pytest.raises(FieldError) as info:
        ExtraRegion.from_fpuzzles(too_many, G4)
    assert info.value.path == "extraregion[0].cells"


def test_a_full_extra_region_places_hidden_singles():
    [link] = ExtraRegion((0, 5, 10, 15)).native(G4)
    # Only the last cell can hold 4.
    assert link.narrow((0b0111, 0b0011, 0b0111, 0b1111)) == (0b0111, 0b0011, 0b0111, 0b1000)
    # 3 and 4 only in the last cell: contradiction; a placed digit leaves the others.
    assert link.narrow((0b0011, 0b0011, 0b0011, 0b1100)) is None
    assert link.narrow((0b0001, 0b0011, 0b0110, 0b1100)) == (0b0001, 0b0010, 0b0100, 0b1000)
    [part] = ExtraRegion((0, 5, 10)).native(G4)  # three cells: no hidden singles
    assert part.narrow((0b0111, 0b0011, 0b0111)) == (0b0111, 0b0011, 0b0111)
    assert count_everywhere([ExtraRegion((0, 5, 10, 15))]) == \
        sum(len({g[0], g[5], g[10], g[15]}) == 4 for g in grids4())


# -- minimum and maximum cells ----------------------------------------------------------------
def test_neighbouring_minimum_cells_are_not_compared():
    # A1 = 1 and A2 = 2 are both minimum cells: each is less than its other neighbours.
    minmax = MinMax((0, 1), ())
    assert minmax.violations(G4, GRID4) == []  # A2's neighbours B2 = 4, A3 = 3
    assert links_accept([minmax], GRID4)
    alone = MinMax((1,), ())  # A2 alone: compared with A1 = 1
    assert alone.violations(G4, GRID4) == ["minimum cell A2 holds 2, not less than A1 (1)"]
    assert not links_accept([alone], GRID4)
    assert MinMax((), (1,)).violations(G4, GRID4) == [
        "maximum cell A2 holds 2, not greater than B2 (4)",
        "maximum cell A2 holds 2, not greater than A3 (3)"]
    # A minimum beside a maximum: compared once, the same way by both.
    assert len(MinMax((0,), (1,)).rules(G4)) == 4  # A1<A2, A1<B1, A3<A2, B2<A2
    assert count_everywhere([MinMax((0, 1), (5,))]) > 0


def test_minmax_reads_fpuzzles_and_refuses_a_cell_of_both_sorts():
    doc = fpuzzles(9, minimum=[{"cell": "R8C2"}], maximum=[{"cell": "R2C4"}, {"cell": "R7C1"}])
    [minmax] = MinMax.from_fpuzzles(doc, G9)
    assert minmax == MinMax((64,), (12, 54))
    assert MinMax.to_fpuzzles([minmax], G9) == {"minimum": doc["minimum"],
                                                 "maximum": [{"cell": "R2C4"}, {"cell": "R7C1"}]}
    with pytest.raises(FieldError) as info:
        MinMax.from_fpuzzles(fpuzzles(9, minimum=[{"cell": "R1C1"}],
                                      maximum=[{"cell": "R1C1"}]), G9)
    assert info.value.path == "maximum"
    with pytest.raises(FieldError) as info:
        MinMax.from_fpuzzles(fpuzzles(9, maximum=[{"cell": "R1C1"}, {"cells": "R1C2"}]), G9)
    assert info.value.path == "maximum[1].cell"


# -- indexers ---------------------------------------------------------------------------------
def test_indexer_sorts_follow_fpuzzles():
    # columnindexer: a cell in column c holding v puts c in column v of its row (the 1-5-9
    # rule); rowindexer: a cell in row r holding v puts r in row v of its column.
    doc = fpuzzles(4, columnindexer=[{"cells": ["R2C2"]}], rowindexer=[{"cells": ["R1C3"]}])
    row, column = Indexer.from_fpuzzles(doc, G4)
    assert (row, column) == (Indexer("row", (2,)), Indexer("column", (5,)))
    # B2 (column 2) holds 4: B4 must hold 2. It does (row 2 = 3 4 1 2).
    assert column.violations(G4, GRID4) == []
    # A3 (row 1) holds 3: C3 must hold 1; it holds 4.
    assert row.violations(G4, GRID4) == ["row indexer A3 holds 3, so C3 should hold 1, not 4"]
    for c in (column, row):
        assert links_accept([c], GRID4) == (not c.violations(G4, GRID4))
    assert Indexer.to_fpuzzles([row, column], G4) == {"columnindexer": doc["columnindexer"],
                                                      "rowindexer": doc["rowindexer"]}


def test_box_indexer_counts_positions_in_reading_order():
    # 6x6, 2x3 boxes. Box 1 is A1 A2 A3 B1 B2 B3: positions 1..6.
    grid = [0, 1, 2, 3, 4, 5,
            3, 4, 5, 0, 1, 2,
            1, 2, 0, 4, 5, 3,
            4, 5, 3, 1, 2, 0,
            2, 0, 1, 5, 3, 4,
            5, 3, 4, 2, 0, 1]
    # B2 (position 5) holds 5: itself. Box 2 is A4 A5 A6 B4 B5 B6: A4 (position 1) holds
    # 4, and B4 (position 4) holds 1.
    assert Indexer("box", (7, 3)).violations(G6, grid) == []
    # C2 (box 3 = C1 C2 C3 D1 D2 D3, position 2) holds 3: C3 should hold 2; it holds 1.
    assert Indexer("box", (13,)).violations(G6, grid) == [
        "box indexer C2 holds 3, so C3 should hold 2, not 1"]


def test_box_indexer_reads_jigsaw_regions():
    # Region a is A1 A2 A3 B1 (positions 1..4 in reading order), as Rangsk's solver reads a
    # jigsaw's regions.
    geometry = make_geometry(4, regions="aaab abbb ccdd ccdd")
    jig = Indexer("box", (4,))  # B1, position 4
    jig.validate(geometry)
    grid = get_backend("sat").solve(Puzzle(geometry, (EMPTY,) * 16, "", (jig,)),
                                    limit=1).solutions[0]
    assert grid[[0, 1, 2, 4][grid[4]]] == 3  # B1 holds v: the region's v-th cell holds 4
    links = jig.native(geometry)
    for d in range(4):  # B1 changed: broken unless it points at itself or at a 4
        near = [*grid[:4], d, *grid[5:]]
        target = [0, 1, 2, 4][d]
        broken = bool(jig.violations(geometry, near))
        assert broken == (near[target] != 3)
        assert broken == any(link.narrow(tuple(1 << near[x] for x in link.cells)) is None
                             for link in links)


@pytest.mark.parametrize(("fields", "path"), [
    ({"indexers": [{"sort": "diagonal", "cells": ["A1"]}]}, "indexers[0].sort"),
    ({"indexers": [{"sort": "row", "cells": ["A1", "A1"]}]}, "indexers[0].cells"),
    ({"indexers": [{"sort": "row", "cells": "A1"}]}, "indexers[0].cells"),
    ({"indexers": {"row": ["A1"]}}, "indexers"),
])
def test_indexer_json_errors_name_their_path(fields, path):
    with pytest.raises(FieldError) as info:
        Indexer.from_json(fields, G4)
    assert info.value.path == path


def test_indexer_refuses_an_unknown_sort():
    with pytest.raises(ConstraintError):
        Indexer("diagonal", (0,)).validate(G4)


# -- pictures ---------------------------------------------------------------------------------
def test_every_kind_here_draws_valid_svg():
    rng = random.Random(3)
    grid = get_backend("native").solve(Puzzle.empty(G9), limit=1).solutions[0]
    constraints = [
        Dots(difference=((0, 1, 1), (9, 10, 3)), ratio=((18, 19, 2), (27, 28, 4)),
             sums=((36, 37, 11),), xv=((45, 46, 10), (54, 55, 5)), negative=("ratio",)),
        Quadruple((20, 21, 29, 30), (1, 2, 3, 4)), Quadruple((60, 61, 69, 70), (5,)),
        ExtraRegion((2, 12, 22)), MinMax((40,), (50,)), Indexer("column", (4, 13)),
        Indexer("box", (80,))]
    root = ET.fromstring(grid_svg(G9, [EMPTY] * 81, candidates=[0x1FF] * 81,
                                  constraints=constraints))
    classes = {e.get("class") for e in root.iter()}
    assert {"dot-difference", "dot-ratio", "dot-sum", "dot-x", "quadruple", "extra-region",
            "minimum", "maximum-chevrons", "column-indexer"} <= classes
    for kind in (Dots, Quadruple, ExtraRegion, MinMax, Indexer):
        assert kind.summary([c for c in constraints if isinstance(c, kind)], G9)
        for c in kind.sample(G9, grid, rng):
            c.validate(G9)
            assert not c.violations(G9, grid)
