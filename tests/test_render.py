"""Notebook pictures: valid SVG, thick borders where boxes or regions meet, digits by kind."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from cases import BY_NAME, JIGSAW_MAP
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import EMPTY, Puzzle, make_geometry, parse
from sudoku_csp.native import State, eliminate
from sudoku_csp.render import candidate_layout, grid_svg

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
    assert not list(root.iter(f"{NS}text"))


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
    assert "".join(t.text for t in givens) == puzzle.to_line().replace(".", "")


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
    side = float(root.get("width")) / 9
    first = texts(root, "candidate")[:3]
    assert [t.text for t in first] == ["1", "5", "9"]
    xs = [float(t.get("x")) for t in first]
    ys = [float(t.get("y")) for t in first]
    assert xs[0] < xs[1] < xs[2] and ys[0] < ys[1] < ys[2]  # a 3x3 layout, top left first
    assert all(x < side and y < side for x, y in zip(xs, ys, strict=True))  # inside cell A1
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
