"""Notebook pictures: valid SVG, thick borders where boxes or regions meet, digits by kind,
typed constraints drawn the way setters draw them."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET

import pytest
from cases import BY_NAME, JIGSAW_MAP
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_csp import EMPTY, Puzzle, make_geometry, parse
from sudoku_csp.canvas import BASELINE_DROP
from sudoku_csp.cli import app
from sudoku_csp.constraints import (
    XV,
    Cage,
    Constraint,
    ConstraintError,
    Kropki,
    Names,
    NonConsecutive,
    Parity,
    Thermo,
)
from sudoku_csp.io import to_line
from sudoku_csp.native import State, eliminate
from sudoku_csp.render import Highlights, candidate_layout, cell_pixels, grid_origin, grid_svg

NS = "{http://www.w3.org/2000/svg}"

GEOMETRIES = {
    "4x4": make_geometry(4),
    "6x6": make_geometry(6),
    "8x8": make_geometry(8),
    "9x9": make_geometry(9),
    "10x10": make_geometry(10),
    "10x10 5x2": make_geometry(10, (5, 2)),
    "12x12": make_geometry(12),
    "16x16": make_geometry(16),
    "25x25": make_geometry(25),
    "jigsaw": make_geometry(9, regions=JIGSAW_MAP),
    "windoku": make_geometry(9, variants=["windoku"]),
    "diagonal+anti-knight": make_geometry(9, variants=["diagonal", "anti-knight"]),
}


def svg_root(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def texts(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}text") if e.get("class") == cls]


def segments(root: ET.Element, cls: str) -> int:
    paths = [e for e in root.iter(f"{NS}path") if e.get("class") == cls]
    return sum(p.get("d").count("M") for p in paths)


def box_borders(g) -> int:
    """Edges between two side-by-side cells of different boxes (or regions)."""
    n = g.size
    across = sum(g.boxes[r * n + c] != g.boxes[r * n + c + 1]
                 for r in range(n) for c in range(n - 1))
    down = sum(g.boxes[r * n + c] != g.boxes[(r + 1) * n + c]
               for r in range(n - 1) for c in range(n))
    return across + down


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_empty_grid_is_valid_svg_with_thick_box_borders(name):
    g = GEOMETRIES[name]
    root = svg_root(grid_svg(g, [EMPTY] * g.ncells))
    assert root.get("width") == root.get("height")
    assert root.find(f"{NS}title").text == g.name
    inner_edges = 2 * g.size * (g.size - 1)
    assert segments(root, "box-lines") == box_borders(g)
    assert segments(root, "cell-lines") == inner_edges - box_borders(g)
    assert {t.get("class") for t in root.iter(f"{NS}text")} == {"row-label", "col-label"}


@pytest.mark.parametrize(("size", "box"), [(4, (2, 2)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)),
                                           (25, (5, 5))])
def test_box_border_count_by_arithmetic(size, box):
    # Vertical borders: N rows x (N/bc - 1) box edges; horizontal: N columns x (N/br - 1).
    root = svg_root(grid_svg(make_geometry(size, box), [EMPTY] * size * size))
    br, bc = box
    assert segments(root, "box-lines") == size * (size // bc - 1) + size * (size // br - 1)


def test_jigsaw_regions_get_thick_borders():
    g = GEOMETRIES["jigsaw"]
    root = svg_root(grid_svg(g, [EMPTY] * 81))
    letters = [ch for ch in JIGSAW_MAP if not ch.isspace()]
    expected = sum(letters[c] != letters[c + 1] for c in range(81) if c % 9 != 8)
    expected += sum(letters[c] != letters[c + 9] for c in range(72))
    assert segments(root, "box-lines") == expected
    assert expected != segments(svg_root(grid_svg(make_geometry(9), [EMPTY] * 81)), "box-lines")


def test_givens_and_values_are_drawn_differently():
    puzzle = BY_NAME["grid1"].puzzle()
    values = [int(ch) - 1 for ch in BY_NAME["grid1"].solution]
    root = svg_root(grid_svg(puzzle.geometry, puzzle.givens, values=values))
    givens, filled = texts(root, "given"), texts(root, "value")
    assert len(givens) == puzzle.clue_count == 32
    assert len(filled) == 81 - 32
    assert {t.get("font-weight") for t in givens} == {"bold"}
    assert {t.get("font-weight") for t in filled} == {None}
    assert {t.get("fill") for t in givens}.isdisjoint({t.get("fill") for t in filled})
    assert "".join(t.text for t in givens) == to_line(puzzle).replace(".", "")


def test_symbols_come_from_the_geometry():
    g = make_geometry(16)
    root = svg_root(grid_svg(g, list(range(16)) + [EMPTY] * 240))
    assert [t.text for t in texts(root, "given")] == list("123456789ABCDEFG")
    g = make_geometry(25)
    root = svg_root(grid_svg(g, [24] + [EMPTY] * 624))
    assert [t.text for t in texts(root, "given")] == ["P"]


def test_candidates_in_a_sub_grid_of_the_cell():
    g = make_geometry(9)
    cand = [0b111111111] * 81
    cand[0] = 0b100010001  # A1: 1, 5, 9
    cand[1] = 0b000000100  # A2: single 3 -> drawn as a value
    root = svg_root(grid_svg(g, [EMPTY] * 81, candidates=cand))
    assert len(texts(root, "candidate")) == 3 + 79 * 9
    assert [t.text for t in texts(root, "value")] == ["3"]
    first = texts(root, "candidate")[:3]
    assert [t.text for t in first] == ["1", "5", "9"]
    xs = [float(t.get("x")) for t in first]
    ys = [float(t.get("y")) for t in first]
    assert xs[0] < xs[1] < xs[2] and ys[0] < ys[1] < ys[2]  # a 3x3 layout, top left first
    assert all(in_cell(g, 0, x, y) for x, y in zip(xs, ys, strict=True))
    sizes = {float(t.get("font-size")) for t in texts(root, "candidate")}
    assert max(sizes) < float(texts(root, "value")[0].get("font-size"))


def test_givens_and_values_hide_candidates():
    g = make_geometry(4)
    cand = [0b1111] * 16
    root = svg_root(grid_svg(g, [0] + [EMPTY] * 15, values=[EMPTY, 1] + [EMPTY] * 14,
                             candidates=cand))
    assert len(texts(root, "given")) == 1 and len(texts(root, "value")) == 1
    assert len(texts(root, "candidate")) == 14 * 4


def test_a_cell_without_candidates_is_marked():
    g = make_geometry(4)
    root = svg_root(grid_svg(g, [EMPTY] * 16, candidates=[0] + [0b1111] * 15))
    dead = [e for e in root.iter(f"{NS}rect") if e.get("class") == "dead"]
    assert len(dead) == 1


def test_variant_decoration():
    root = svg_root(grid_svg(GEOMETRIES["windoku"], [EMPTY] * 81))
    windows = [e for e in root.iter(f"{NS}rect") if e.get("class") == "window"]
    assert len(windows) == 4 * 9
    root = svg_root(grid_svg(GEOMETRIES["diagonal+anti-knight"], [EMPTY] * 81))
    assert any(p.get("class") == "diagonal" for p in root.iter(f"{NS}path"))


def test_candidate_layout():
    assert candidate_layout(make_geometry(9)) == (3, 3)
    assert candidate_layout(make_geometry(6)) == (2, 3)
    assert candidate_layout(GEOMETRIES["jigsaw"]) == (3, 3)
    rows, cols = candidate_layout(make_geometry(5, regions="aaabb aabbb cccdd ccedd eeeed"))
    assert rows * cols >= 5 and cols == 3


def test_wrong_lengths_are_refused():
    g = make_geometry(4)
    with pytest.raises(ValueError, match="givens must have 16"):
        grid_svg(g, [EMPTY] * 15)
    with pytest.raises(ValueError, match="candidates must have 16"):
        grid_svg(g, [EMPTY] * 16, candidates=[1])


def test_puzzle_and_state_render_in_notebooks():
    puzzle = BY_NAME["jigsaw"].puzzle()
    root = svg_root(puzzle._repr_svg_())
    assert len(texts(root, "given")) == puzzle.clue_count
    state = State.from_puzzle(parse(BY_NAME["grid2"].text))
    assert eliminate(state) is not None
    root = svg_root(state._repr_svg_())
    assert len(texts(root, "given")) == 17
    assert texts(root, "candidate")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(GEOMETRIES)), st.randoms(use_true_random=False))
def test_any_grid_renders_to_valid_svg(name, rng):
    g = GEOMETRIES[name]
    n = g.size
    givens = [rng.randrange(n) if rng.random() < 0.2 else EMPTY for _ in range(g.ncells)]
    values = [rng.randrange(n) if rng.random() < 0.2 else EMPTY for _ in range(g.ncells)]
    cand = [rng.randrange(1 << n) for _ in range(g.ncells)]
    root = svg_root(grid_svg(g, givens, values=values, candidates=cand))
    drawn = {"given": 0, "value": 0, "candidate": 0}
    for t in root.iter(f"{NS}text"):
        if t.get("class") in drawn:
            drawn[t.get("class")] += 1
            assert t.text in g.symbols
    shown_as_value = [givens[c] == EMPTY and (values[c] != EMPTY or cand[c].bit_count() == 1)
                      for c in range(g.ncells)]
    assert drawn["given"] == sum(d != EMPTY for d in givens)
    assert drawn["value"] == sum(shown_as_value)
    assert drawn["candidate"] == sum(
        cand[c].bit_count() for c in range(g.ncells)
        if givens[c] == EMPTY and not shown_as_value[c])
    width = float(root.get("width"))
    assert all(0 < float(t.get("x")) < width and 0 < float(t.get("y")) < width
               for t in root.iter(f"{NS}text"))


@pytest.mark.parametrize("size", [4, 6, 8, 9, 10, 12, 16, 25])
def test_empty_puzzle_of_every_size_renders(size):
    root = svg_root(Puzzle.empty(make_geometry(size))._repr_svg_())
    assert float(root.get("width")) > size * 20


# -- typed constraints ------------------------------------------------------------------------
# Plain pictures (no constraints) exactly as before constraints were drawn: sha256 prefixes of
# the output of render.py as it stood then. A deliberate change of the plain picture updates
# them (the row and column coordinates, the larger 16x16 cells and the text baselines placed
# by number, for librsvg, did); an accidental one (a constraint layer leaking into every
# picture) fails here.
PLAIN_HASHES = {
    "9x9 givens": "8419400e209e9e8a6445",
    "9x9 values": "eda51832c5b06da3b229",
    "9x9 highlights": "6e00352015ddedefa228",
    "9x9 compact": "9ba216005207cc4a44a0",
    "jigsaw": "b1cc3d4b179f5c136866",
    "windoku": "7a218325eafed8e3e3cc",
    "16x16 diagonal": "b5b9423d4baade6eb7d8",
    "4x4": "010455d10914212f62cd",
}
GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
KILLER9 = ("ABCDEFFFFGHHDEIIIJGKKLMNOPPGQKLMNOPPRRRLSSTTPUUUVSSTTTWXUVYYZZZWaaVbbcddeffgggggd "
           "4,8,5,9,11,20,13,3,13,8,17,20,15,9,14,17,2,21,21,22,18,10,8,9,9,15,12,11,1,17,8,7,28")
CONSTRAINT_CLASSES = {"cage", "cage-sum", "cage-sum-back", "thermo-line", "thermo-bulb", "odd",
                      "even", "kropki-white", "kropki-black", "xv-x", "xv-x-back", "xv-v",
                      "xv-v-back"}


def plain_pictures() -> dict[str, str]:
    g9 = make_geometry(9)
    givens = [EMPTY if ch == "0" else int(ch) - 1 for ch in GRID1]
    values = [(r * 3 + r // 3 + c) % 9 for r in range(9) for c in range(9)]
    cand = [(c * 37) % 512 for c in range(81)]
    return {
        "9x9 givens": grid_svg(g9, givens),
        "9x9 values": grid_svg(g9, givens, values=values),
        "9x9 highlights": grid_svg(g9, [EMPTY] * 81, candidates=cand, highlights=Highlights(
            cells=[0, 1], units=[0, 10], marks=[(2, 1)], eliminations=[(3, 0)],
            placements=[(4, 4)], links=[((5, 0), (6, 0), True)])),
        "9x9 compact": grid_svg(g9, [EMPTY] * 81, candidates=cand, compact=True,
                                highlights=Highlights(focus={1})),
        "jigsaw": grid_svg(make_geometry(9, regions=JIGSAW_MAP), givens),
        "windoku": grid_svg(make_geometry(9, variants=["windoku"]), givens, candidates=cand),
        "16x16 diagonal": grid_svg(make_geometry(16, variants=["diagonal"]), [EMPTY] * 256,
                                   candidates=[0xFFFF] * 256),
        "4x4": grid_svg(make_geometry(4), [0] + [EMPTY] * 15, candidates=[0b1111] * 16),
    }


def test_plain_pictures_are_unchanged():
    drawn = plain_pictures()
    assert {name: hashlib.sha256(svg.encode()).hexdigest()[:20]
            for name, svg in drawn.items()} == PLAIN_HASHES
    assert not CONSTRAINT_CLASSES & {e.get("class") for svg in drawn.values()
                                     for e in svg_root(svg).iter()}


# -- highlights: one value; the picture: layers, bottom first ------------------------------------
def test_highlights_are_one_value_kept_in_order_without_repeats():
    shown = Highlights(cells=[5, 1, 5], marks=[(1, 2), (1, 2)], units=(3, 3),
                       links=[((0, 0), (1, 0), True)], focus={2, 1})
    assert shown.cells == (5, 1) and shown.marks == ((1, 2),) and shown.units == (3,)
    assert shown.links == (((0, 0), (1, 0), True),) and shown.focus == frozenset({1, 2})
    assert shown == Highlights(cells=(5, 1), marks=((1, 2),), units=(3,),
                               links=(((0, 0), (1, 0), True),), focus=frozenset({1, 2}))
    with pytest.raises(AttributeError):
        shown.cells = ()
    g, cand = make_geometry(4), [0b1111] * 16
    assert grid_svg(g, [EMPTY] * 16, candidates=cand) == grid_svg(
        g, [EMPTY] * 16, candidates=cand, highlights=Highlights())
    # Each kind of highlight is drawn once however often it is named.
    twice = Highlights(cells=[1, 1], units=[0, 0], marks=[(2, 0), (2, 0)],
                       placements=[(3, 1), (3, 1)], eliminations=[(4, 2), (4, 2)])
    root = svg_root(grid_svg(g, [EMPTY] * 16, candidates=cand, highlights=twice))
    for cls in ("highlight", "unit", "mark", "placed", "placed-digit", "struck"):
        assert len(by_class(root, cls)) == 1, cls


def test_the_layers_stack_bottom_first():
    # The ground, the shading, the grid's lines with the marks under the digits, the
    # highlights under the digits, the digits, the crosses, the marks over the digits.
    g = make_geometry(9, variants=["windoku"])
    cand = [0x1FF] * 81
    cand[80] = 0
    shown = Highlights(cells=[9], units=[0], marks=[(10, 1)], placements=[(11, 2)],
                       eliminations=[(12, 3)], links=[((13, 4), (14, 4), True)])
    svg = grid_svg(g, [0] + [EMPTY] * 80, candidates=cand, highlights=shown,
                   constraints=[Thermo((30, 31, 32)), Kropki(((50, 51),), (), False)])
    order = ["window", "dead", "highlight", "placed", "cell-lines", "box-lines", "border",
             "row-label", "col-label", "thermo-line", "unit", "link-strong", "mark",
             "placed-digit", "given", "candidate", "struck", "kropki-white"]
    seen = [e.get("class") for e in svg_root(svg).iter()]
    assert [seen.index(cls) for cls in order] == sorted(seen.index(cls) for cls in order)


def by_class(root: ET.Element, cls: str, tag: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}" if tag else None) if e.get("class") == cls]


def points(d: str) -> list[tuple[float, float]]:
    """The end points of a path made of M and L commands."""
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def cell_box(g, cell: int) -> tuple[float, float, float]:
    """Left, top and side of a cell in pixels."""
    side = cell_pixels(g.size)
    r, c = divmod(cell, g.size)
    origin = grid_origin(g.size)
    return origin + c * side, origin + r * side, side


def in_cell(g, cell: int, x: float, y: float) -> bool:
    left, top, side = cell_box(g, cell)
    return left <= x <= left + side and top <= y <= top + side


SIDES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # top, right, bottom, left


def facing_out(n: int, cells, cell: int) -> list[bool]:
    """Which sides (top, right, bottom, left) of a cage's cell face a cell outside the cage
    (or the grid's edge)."""
    r, c = divmod(cell, n)
    return [not (0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc in cells)
            for dr, dc in SIDES]


def outer_sides(n: int, cells) -> int:
    return sum(sum(facing_out(n, set(cells), cell)) for cell in cells)


def draw(puzzle: Puzzle, **kwargs) -> ET.Element:
    return svg_root(grid_svg(puzzle.geometry, puzzle.givens, constraints=puzzle.constraints,
                             **kwargs))


@pytest.mark.parametrize("line", ["AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8", KILLER9,
                                  "AAB.CCB.DDEE.FFF ?,?,5,7,?,6"])
def test_each_cage_is_a_dashed_outline_along_its_border_with_its_sum(line):
    puzzle = parse(line)
    g = puzzle.geometry
    root = draw(puzzle)
    cages = [c for c in puzzle.constraints if isinstance(c, Cage)]
    paths = by_class(root, "cage", "path")
    assert len(paths) == len(cages)
    for cage, path in zip(cages, paths, strict=True):
        assert path.get("stroke-dasharray")
        d = path.get("d")
        assert d.count("M") == outer_sides(g.size, cage.cells)  # one segment per outer side
        for x, y in points(d):  # inside the cage's cells, not a bounding box
            assert any(in_cell(g, cell, x, y) for cell in cage.cells), (x, y)
    sums = by_class(root, "cage-sum", "text")
    assert [t.text for t in sums] == [str(c.total) for c in cages if c.total is not None]
    backs = by_class(root, "cage-sum-back", "rect")
    assert len(backs) == len(sums) and {b.get("fill") for b in backs} == {"#ffffff"}
    for cage, text in zip([c for c in cages if c.total is not None], sums, strict=True):
        first = min(cage.cells)
        left, top, side = cell_box(g, first)
        x, y = float(text.get("x")), float(text.get("y"))
        assert in_cell(g, first, x, y) and x < left + side / 2 and y < top + side / 2


def test_thermometers_parity_dots_and_marks():
    g = make_geometry(6)
    cons = (Thermo((0, 1, 8, 14)), Thermo((30, 24)),
            Kropki(((2, 3), (4, 10)), ((20, 21),), False), XV(((26, 27),), ((28, 34), (5, 11)),
                                                             False),
            Parity((15, 16), (17,)))
    puzzle = Puzzle(g, (EMPTY,) * 36, constraints=cons)
    root = draw(puzzle)
    side = cell_pixels(6)

    def centre(cell):
        left, top, s = cell_box(g, cell)
        return left + s / 2, top + s / 2

    bulbs, lines = by_class(root, "thermo-bulb", "circle"), by_class(root, "thermo-line", "path")
    assert len(bulbs) == len(lines) == 2
    for thermo, bulb, line in zip(cons[:2], bulbs, lines, strict=True):
        assert (float(bulb.get("cx")), float(bulb.get("cy"))) == centre(thermo.cells[0])
        assert points(line.get("d")) == [centre(c) for c in thermo.cells]
        assert float(line.get("stroke-width")) > side / 6
    for sort, fill, pairs in (("white", "#ffffff", cons[2].first),
                              ("black", "#000000", cons[2].second)):
        dots = by_class(root, f"kropki-{sort}", "circle")
        assert [e.get("fill") for e in dots] == [fill] * len(pairs)
        for dot, (a, b) in zip(dots, pairs, strict=True):  # on the middle of the shared edge
            (ax, ay), (bx, by) = centre(a), centre(b)
            assert (float(dot.get("cx")), float(dot.get("cy"))) == ((ax + bx) / 2, (ay + by) / 2)
    assert [t.text for t in by_class(root, "xv-x", "text")] == ["X"]
    assert [t.text for t in by_class(root, "xv-v", "text")] == ["V", "V"]
    assert len(by_class(root, "xv-v-back", "rect")) == 2
    assert len(by_class(root, "odd", "circle")) == 2 and len(by_class(root, "even", "rect")) == 1
    title = root.find(f"{NS}title").text
    assert "2 thermometers" in title and "kropki" in title and "negative" not in title


def test_global_rules_have_no_mark_but_are_named():
    g = make_geometry(4)
    cons = (Kropki((), (), True), XV((), (), True), NonConsecutive())
    root = draw(Puzzle(g, (EMPTY,) * 16, constraints=cons))
    assert not CONSTRAINT_CLASSES & {e.get("class") for e in root.iter()}
    title = root.find(f"{NS}title").text
    assert title.startswith(g.name) and "non-consecutive" in title
    assert "all dots given" in title and "all marks given" in title


def test_grey_shapes_lie_under_the_digits_and_marks_over_them():
    g = make_geometry(9)
    cons = (Cage((0, 1), 3), Thermo((20, 21, 22)), Parity((40,), (41,)),
            Kropki(((60, 61),), ()), XV(((70, 79),), ()))
    root = draw(Puzzle(g, (EMPTY,) * 81, constraints=cons), candidates=[0x1FF] * 81)
    order = [e.get("class") for e in root.iter()]
    first_digit = order.index("candidate")
    last_digit = len(order) - 1 - order[::-1].index("candidate")
    for cls in ("cage", "thermo-line", "thermo-bulb", "odd", "even"):
        assert order.index(cls) < first_digit, cls
    for cls in ("cage-sum", "kropki-white", "xv-x"):
        assert order.index(cls) > last_digit, cls


def constraint_points(root: ET.Element) -> list[tuple[float, float]]:
    found = []
    for e in root.iter():
        if e.get("class") not in CONSTRAINT_CLASSES:
            continue
        if e.get("d"):
            found += points(e.get("d"))
        for x, y in (("cx", "cy"), ("x", "y")):
            if e.get(x) is not None:
                found.append((float(e.get(x)), float(e.get(y))))
                if e.get("width") is not None:
                    found.append((float(e.get(x)) + float(e.get("width")),
                                  float(e.get(y)) + float(e.get("height"))))
    return found


@pytest.mark.parametrize("geometry", [make_geometry(4), make_geometry(6, variants=["diagonal"]),
                                      make_geometry(9, variants=["windoku"]),
                                      make_geometry(12), make_geometry(16, variants=["diagonal"])],
                         ids=lambda g: g.name)
def test_every_kind_on_every_size_stays_inside_the_grid(geometry):
    n = geometry.size
    last = n * n - 1
    cons = (Cage((0, 1, n), n + 2), Cage((last - 1, last), None), Thermo((2, n + 2, 2 * n + 3)),
            Kropki(((n - 2, n - 1),), ((2 * n, 3 * n),), True), XV(((last - n, last - n - 1),),
                                                                  ()),
            NonConsecutive(), Parity((n + 1,), (last - 2,)))
    puzzle = Puzzle(geometry, (EMPTY,) * n * n, constraints=cons)
    for kwargs in ({}, {"candidates": [(1 << n) - 1] * n * n}):
        root = draw(puzzle, **kwargs)
        low, high = grid_origin(n), grid_origin(n) + n * cell_pixels(n)
        assert all(low <= x <= high and low <= y <= high for x, y in constraint_points(root))
        assert len(by_class(root, "cage")) == 2 and len(by_class(root, "cage-sum")) == 1
        assert len(by_class(root, "thermo-bulb")) == 1 and len(by_class(root, "xv-x")) == 1
        assert len(by_class(root, "kropki-white")) == len(by_class(root, "kropki-black")) == 1


def test_candidates_keep_clear_of_cage_lines_sums_and_marks():
    puzzle = parse(KILLER9)
    g = puzzle.geometry
    root = draw(puzzle, candidates=[0x1FF] * 81)
    inset = cell_pixels(9) * 0.1
    cage_of = {cell: set(c.cells) for c in puzzle.constraints for cell in c.cells}
    first_cells = {min(c.cells) for c in puzzle.constraints}
    backs = by_class(root, "cage-sum-back", "rect")
    for cell in range(81):
        left, top, side = cell_box(g, cell)
        inside = [t for t in texts(root, "candidate")
                  if in_cell(g, cell, float(t.get("x")), float(t.get("y")))]
        assert len(inside) == 9
        up, right, down, left_side = facing_out(9, cage_of[cell], cell)
        for t in inside:  # glyphs about 0.72 of the font size high, less wide
            half = float(t.get("font-size")) * 0.36
            x = float(t.get("x"))
            y = float(t.get("y")) - BASELINE_DROP * float(t.get("font-size"))  # the middle
            assert not left_side or left + inset < x - half
            assert not right or x + half < left + side - inset
            assert not up or top + inset < y - half
            assert not down or y + half < top + side - inset
            if cell in first_cells:
                back = next(b for b in backs if in_cell(g, cell, float(b.get("x")) + 1,
                                                        float(b.get("y")) + 1))
                assert y - half > float(back.get("y")) + float(back.get("height"))


def test_the_title_is_escaped_and_bad_constraints_refused():
    class Odd(Constraint):  # a kind the renderer does not know: named in the title
        names = Names("odd <kind> & co", json=())

        def touched(self):
            return ()

        def native(self, geometry):
            return []

        def cnf(self, ctx):
            return iter(())

        def cpsat(self, model):
            pass

        def violations(self, geometry, grid):
            return []

        @classmethod
        def from_json(cls, fields, geometry):
            return []

        @classmethod
        def to_json(cls, constraints, geometry):
            return {}

    root = svg_root(grid_svg(make_geometry(4), [EMPTY] * 16, constraints=[Odd()]))
    assert root.find(f"{NS}title").text.endswith("odd <kind> & co")
    with pytest.raises(ConstraintError):
        grid_svg(make_geometry(4), [EMPTY] * 16, constraints=[Cage((0, 16), 5)])


def test_show_writes_the_picture_with_its_constraints(tmp_path):
    out = tmp_path / "killer.svg"
    result = CliRunner().invoke(app, ["show", KILLER9, "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = svg_root(out.read_text(encoding="utf-8"))
    assert len(by_class(root, "cage")) == 33 and not texts(root, "candidate")
    # A harder killer: the 45 rule alone settles KILLER9, leaving no candidate to draw.
    harder = ("AABCCCDDEABBFFCDEEABBGFHHEEIIGGJJHKKIIILLLLKKMMNOOOPPPQQNRSSSTPQUURVWTTTQUXXVWWWT "
              "24,21,12,16,24,20,21,18,24,12,15,18,8,10,11,21,25,9,17,21,16,4,29,9")
    result = CliRunner().invoke(app, ["show", harder, "-c", "--rules", "none", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert texts(svg_root(out.read_text(encoding="utf-8")), "candidate")
