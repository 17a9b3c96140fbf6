"""Pictures people can read (issue 24, section 5): coordinates on every grid, odd/even marks
told apart from thermometer bulbs, candidates clear of lines and marks, forcing chains drawn
link by link, readable 16x16 candidates, and explanation pages that share what their
pictures have in common."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cases import slow_if

from sudoku_csp import EMPTY, datasets, make_geometry, parse
from sudoku_csp.canvas import BASELINE_DROP
from sudoku_csp.constraints import XV, Cage, Kropki, Parity, Thermo
from sudoku_csp.geometry import row_label
from sudoku_csp.logic import Explanation, explain
from sudoku_csp.logic.html import chain_links, explanation_html, is_single, step_svg
from sudoku_csp.render import (
    SharedDefs,
    candidate_size,
    cell_pixels,
    grid_origin,
    grid_svg,
    picture_width,
)

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
TOP95_4 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
SINGLES = ["full_house", "hidden_single_box", "hidden_single_line", "naked_single", "pointing",
           "claiming", "naked_pair", "hidden_pair"]


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def font(e: ET.Element, parents: dict[ET.Element, ET.Element]) -> float:
    """An element's font size, its own or inherited from its groups."""
    while e.get("font-size") is None:
        e = parents[e]
    return float(e.get("font-size"))


def middle(e: ET.Element, parents: dict[ET.Element, ET.Element]) -> float:
    """The height of a text's middle: its baseline (``y``) less the drop the pictures give
    it (:data:`~sudoku_csp.canvas.BASELINE_DROP` em)."""
    return float(e.get("y")) - BASELINE_DROP * font(e, parents)


def candidate_boxes(root: ET.Element) -> list[tuple[float, float, float, float, str]]:
    """Left, top, right, bottom and symbol of the glyph of each candidate: a digit or capital
    letter is about 0.72 of the font size high and less than 0.6 wide."""
    parents = {child: parent for parent in root.iter() for child in parent}
    boxes = []
    for t in by_class(root, "candidate"):
        size, x, y = font(t, parents), float(t.get("x")), middle(t, parents)
        boxes.append((x - 0.3 * size, y - 0.36 * size, x + 0.3 * size, y + 0.36 * size, t.text))
    return boxes


def cell_of(n: int, x: float, y: float) -> int:
    side, origin = cell_pixels(n), grid_origin(n)
    return int((y - origin) // side) * n + int((x - origin) // side)


# -- coordinates ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [4, 9, 16, 26, 27, 35])
@pytest.mark.parametrize("compact", [False, True])
def test_rows_and_columns_are_named_as_the_text_names_cells(size, compact):
    g = make_geometry(size)
    root = ET.fromstring(grid_svg(g, [EMPTY] * g.ncells, compact=compact))
    rows, cols = by_class(root, "row-label"), by_class(root, "col-label")
    assert [t.text for t in rows] == [row_label(r) for r in range(size)]
    assert [t.text for t in cols] == [str(c + 1) for c in range(size)]
    side, origin = cell_pixels(size), grid_origin(size)
    parents = {child: parent for parent in root.iter() for child in parent}
    for r, t in enumerate(rows):  # left of the grid, level with its row
        assert 0 < float(t.get("x")) < origin
        assert abs(middle(t, parents) - (origin + (r + 0.5) * side)) < 0.1
    for c, t in enumerate(cols):  # above the grid, over its column
        assert 0 < middle(t, parents) and float(t.get("y")) < origin
        assert abs(float(t.get("x")) - (origin + (c + 0.5) * side)) < 0.1
    # The labels of a cell are its name in the text: E4 is row E, column 4.
    for cell in (0, g.ncells - 1, (size // 2) * size + size // 3):
        r, c = divmod(cell, size)
        assert rows[r].text + cols[c].text == g.label(cell)
    assert int(root.get("width")) == picture_width(size)


def test_every_picture_has_coordinates():
    puzzle = parse(TOP95_4)
    e = explain(puzzle, max_steps=3)
    for svg in (puzzle._repr_svg_(), step_svg(e, 0), step_svg(e, 1, focus=True)):
        root = ET.fromstring(svg)
        assert [t.text for t in by_class(root, "row-label")] == list("ABCDEFGHI")


# -- text placed by number --------------------------------------------------------------------
def every_picture() -> dict[str, str]:
    """A picture of each kind the project draws: plain and compact grids, candidates, every
    constraint kind's marks and labels, true candidates, explanation pages (shared
    definitions), and the notebook displays."""
    from sudoku_csp import Puzzle, get_backend
    from sudoku_csp.constraints import KINDS
    from sudoku_csp.native import propagate_puzzle
    from sudoku_csp.setter import true_candidates

    g = make_geometry(9)
    grid = get_backend("native").solve(Puzzle.empty(g)).solution
    rng = random.Random(11)
    puzzle = parse(TOP95_4)
    pictures = {
        "plain": grid_svg(g, puzzle.givens),
        "compact": grid_svg(g, puzzle.givens, compact=True),
        "candidates": propagate_puzzle(puzzle, "singles")._repr_svg_(),
        "puzzle": puzzle._repr_svg_(),
        "true candidates": true_candidates(parse("12.." "34.." "...." "...."), cap=4).svg(),
        "page": explanation_html(explain(parse("3.1...4.2......."))),
    }
    for kind in KINDS:
        marks = tuple(kind.sample(g, grid, rng))
        if marks:
            drawn = Puzzle(g, tuple(d if rng.random() < 0.3 else EMPTY for d in grid),
                           constraints=marks)
            pictures[kind.kind] = grid_svg(g, drawn.givens, constraints=drawn.constraints,
                                           candidates=[0x1FF] * 81)
    return pictures


def test_no_picture_leaves_its_text_to_dominant_baseline():
    # librsvg ignores dominant-baseline: there every digit stood a third of an em too high.
    for name, svg in every_picture().items():
        assert "dominant-baseline" not in svg, name
        assert "<text" in svg, name


@pytest.mark.parametrize("compact", [False, True])
def test_digits_stand_on_a_baseline_below_the_middle_of_their_cell(compact):
    g = make_geometry(9)
    puzzle = parse(TOP95_4)
    root = ET.fromstring(grid_svg(g, puzzle.givens, compact=compact))
    parents = {child: parent for parent in root.iter() for child in parent}
    side, origin = cell_pixels(9), grid_origin(9)
    givens = by_class(root, "given")
    assert len(givens) == puzzle.clue_count
    for t in givens:
        size, y = font(t, parents), float(t.get("y"))
        row = int((y - origin) // side)
        centre = origin + (row + 0.5) * side
        assert y > centre and abs(y - centre - BASELINE_DROP * size) < 0.1


# -- odd/even marks and thermometers ------------------------------------------------------------
def shown_grey(e: ET.Element) -> float:
    """The grey an element's fill shows on white (0 black, 255 white)."""
    fill = int(e.get("fill")[1:3], 16)
    opacity = float(e.get("fill-opacity", "1"))
    return opacity * fill + (1 - opacity) * 255


@pytest.mark.parametrize("shape", ["odd", "even"])
def test_a_bulb_on_an_odd_or_even_cell_stays_in_sight(shape):
    g = make_geometry(9)
    parity = Parity((0, 40), ()) if shape == "odd" else Parity((), (0, 40))
    cons = (Thermo((0, 1, 2)), parity)
    root = ET.fromstring(grid_svg(g, [EMPTY] * 81, candidates=[0x1FF] * 81, constraints=cons))
    order = list(root.iter())
    bulb, = by_class(root, "thermo-bulb")
    marks = by_class(root, shape)
    on_bulb = next(m for m in marks if in_place(m, 0))
    assert order.index(on_bulb) < order.index(bulb)  # under it, so the bulb shows
    half = (float(on_bulb.get("r")) if shape == "odd" else float(on_bulb.get("width")) / 2)
    side = cell_pixels(9)
    assert half - float(bulb.get("r")) >= 0.1 * side  # a ring of the mark around the bulb
    assert abs(shown_grey(on_bulb) - shown_grey(bulb)) >= 24  # a paler grey than the bulb
    assert on_bulb.get("stroke") and not bulb.get("stroke")  # outlined, the bulb is not
    alone = next(m for m in marks if in_place(m, 40))  # an odd circle is no bulb
    assert shown_grey(alone) == shown_grey(on_bulb) != shown_grey(bulb)


def in_place(e: ET.Element, cell: int) -> bool:
    x = float(e.get("cx") or float(e.get("x")) + float(e.get("width")) / 2)
    y = float(e.get("cy") or float(e.get("y")) + float(e.get("height")) / 2)
    return cell_of(9, x, y) == cell


# -- candidates clear of lines and marks --------------------------------------------------------
def random_marks(n: int, rng: random.Random) -> tuple:
    """XV marks, kropki dots and cages (with and without sums) at random on an n x n grid."""
    edges = [(a, a + 1) for a in range(n * n) if (a + 1) % n] + [(a, a + n)
                                                                   for a in range(n * n - n)]
    rng.shuffle(edges)
    xv, dots, rest = edges[:n], edges[n:2 * n], edges[2 * n:]
    cages = []
    cells = list(range(n * n))
    rng.shuffle(cells)
    taken: set[int] = set()
    for start in cells:
        if start in taken:
            continue
        cage = [start]
        for a, b in rest:
            if len(cage) < 3 and a in cage and b not in taken and b not in cage:
                cage.append(b)
        taken.update(cage)
        k = len(cage)
        total = rng.randrange(k * (k + 1) // 2, k * (2 * n - k + 1) // 2 + 1)
        cages.append(Cage(tuple(sorted(cage)), total if rng.random() < 0.8 else None))
    return (XV(tuple(xv[::2]), tuple(xv[1::2]), False),
            Kropki(tuple(dots[::2]), tuple(dots[1::2]), False), *cages)


def label_boxes(root: ET.Element) -> list[tuple[float, float, float, float, str]]:
    """The white patches of X/V letters and cage sums, and the kropki dots."""
    found = []
    for e in root.iter():
        cls = e.get("class") or ""
        if cls.endswith("-back"):
            x, y, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
            found.append((x, y, x + w, y + h, cls))
        elif cls.startswith("kropki"):
            x, y, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
            found.append((x - r, y - r, x + r, y + r, cls))
    return found


@pytest.mark.parametrize("size", slow_if([4, 6, 9, 16], lambda size: size == 16))
def test_letters_sums_and_dots_never_sit_on_candidates(size):
    rng = random.Random(size)
    g = make_geometry(size)
    for _ in range(6):
        cons = random_marks(size, rng)
        for compact in (False, True):
            root = ET.fromstring(grid_svg(g, [EMPTY] * g.ncells,
                                          candidates=[(1 << size) - 1] * g.ncells,
                                          constraints=cons, compact=compact))
            labels, glyphs = label_boxes(root), candidate_boxes(root)
            assert len(glyphs) == size * g.ncells
            assert sum(1 for b in labels if b[4] == "xv-x-back") == len(cons[0].first)
            for a in labels:
                for c in glyphs:
                    assert not (a[0] < c[2] and c[0] < a[2] and a[1] < c[3] and c[1] < a[3]), \
                        (a, c)


@pytest.mark.parametrize("size", [4, 6, 9, 16])
def test_candidates_keep_off_the_sides_of_their_cells(size):
    # Cage outlines and sums squeeze a cell's candidates towards its other sides: they stay
    # 2 px inside them, clear of box borders (1.5 px into the cell) and cell lines.
    rng = random.Random(size + 100)
    g = make_geometry(size)
    side, origin = cell_pixels(size), grid_origin(size)
    cases = [random_marks(size, rng) for _ in range(4)]
    killer = ROOT / "examples" / "killer9.txt"
    if size == 9:
        cases.append(parse(next(line for line in killer.read_text().splitlines()
                                if not line.startswith("#"))).constraints)
    for cons in cases:
        root = ET.fromstring(grid_svg(g, [EMPTY] * g.ncells,
                                      candidates=[(1 << size) - 1] * g.ncells,
                                      constraints=cons))
        for left, top, right, bottom, _ in candidate_boxes(root):
            cell = cell_of(size, (left + right) / 2, (top + bottom) / 2)
            r, c = divmod(cell, size)
            x0, y0 = origin + c * side, origin + r * side
            assert x0 + 2 <= left and right <= x0 + side - 2, (cell, left, right)
            assert y0 + 2 <= top and bottom <= y0 + side - 2, (cell, top, bottom)


# -- chains drawn link by link ------------------------------------------------------------------
def forcing_steps() -> list[tuple[Explanation, int]]:
    found = []
    for technique in ("forcing_chain", "cell_region_forcing", "dynamic_forcing_chain"):
        e = explain(parse(TOP95_4), techniques=[*SINGLES, technique], max_steps=45)
        found += [(e, i) for i, s in enumerate(e.steps) if s.technique == technique][:2]
    e = explain(datasets.load("mixed9")[2], techniques=[*SINGLES[:6], "nishio"], max_steps=35)
    found += [(e, i) for i, s in enumerate(e.steps) if s.technique == "nishio"][:2]
    return found


@pytest.fixture(scope="module")
def forcing() -> list[tuple[Explanation, int]]:
    return forcing_steps()


def test_forcing_and_nishio_steps_record_their_links(forcing):
    assert {e.steps[i].technique for e, i in forcing} == {
        "forcing_chain", "cell_region_forcing", "dynamic_forcing_chain", "nishio"}
    for e, i in forcing:
        step, cand = e.steps[i], e.candidates[i]
        assert step.links, step.text
        for (a, da), (b, db), strong in step.links:
            assert cand[a] >> da & 1 and cand[b] >> db & 1  # candidates of the pencil marks
            assert (a, da) != (b, db)
            if strong:  # an on fact: drawn with a disc
                assert (b, db) in step.chain
        # A path a reader can follow: each link starts where the argument began (a supposed
        # candidate, which no link ends at) or where another link ends.
        ends = {end for _, end, _ in step.links}
        roots = {start for start, _, _ in step.links if start not in ends}
        if "contradiction" in step.text:  # one supposition, the candidate it rules out
            assert roots == set(step.eliminations + step.placements)
            reached: set = set()
            for start, end, _ in step.links:  # in the order derived
                assert start in reached or start in roots, (start, end)
                reached.add(end)
        else:  # the cases of one cell or of one digit in a unit
            assert len({c for c, _ in roots}) == 1 or len({d for _, d in roots}) == 1


def test_forcing_pictures_draw_each_link(forcing):
    for e, i in forcing:
        step = e.steps[i]
        assert chain_links(step) == list(step.links)
        for focus in (False, True):
            root = ET.fromstring(step_svg(e, i, focus=focus))
            strong, weak = by_class(root, "link-strong"), by_class(root, "link-weak")
            assert len(strong) == sum(s for _, _, s in step.links)
            assert len(weak) == sum(not s for _, _, s in step.links)
            assert all(p.get("stroke-dasharray") for p in weak)
            assert not any(p.get("stroke-dasharray") for p in strong)
            if focus:  # the link ends' digits are drawn
                shown = {t.text for t in by_class(root, "candidate")}
                symbols = e.puzzle.geometry.symbols
                assert {symbols[d] for a, b, _ in step.links for _, d in (a, b)} <= shown | {
                    t.text for t in by_class(root, "value")}


# -- 16x16 candidates -----------------------------------------------------------------------------
def test_sixteen_by_sixteen_candidates_are_at_least_8_px():
    g = make_geometry(16)
    root = ET.fromstring(grid_svg(g, [EMPTY] * 256, candidates=[0xFFFF] * 256))
    sizes = {float(t.get("font-size")) for t in by_class(root, "candidate")}
    assert min(sizes) >= 8
    e = explain(datasets.load("sixteen")[0], max_steps=7)
    for i in range(len(e.steps)):
        root = ET.fromstring(step_svg(e, i, focus=True))
        parents = {child: parent for parent in root.iter() for child in parent}
        assert all(font(t, parents) >= 8 for t in by_class(root, "candidate"))


@pytest.mark.parametrize("size", [9, 16])
def test_pages_show_candidates_at_8_px_at_least(size):
    # Singles are drawn smaller on a page, but not so small that 16x16 candidates (8.8 px in
    # the picture) shrink to 6; every picture is shown at the width its figure sets.
    e = explain(datasets.load("sixteen")[0] if size == 16 else parse(TOP95_4), max_steps=7)
    assert any(is_single(s) for s in e.steps)
    page = explanation_html(e)
    full = int(re.search(r"\.sudoku-explanation figure \{[^}]*width: (\d+)px", page)[1])
    single = int(re.search(r"figure\.single \{ width: (\d+)px", page)[1])
    assert full == picture_width(size)
    smallest = candidate_size(e.puzzle.geometry) * single / full
    assert smallest >= 8


# -- pages that share ---------------------------------------------------------------------------
def glyphs(root: ET.Element, defs: dict[str, ET.Element]) -> list[tuple[str, str, str]]:
    """Each glyph an SVG picture draws, as (x, y, symbol), with every <use> replaced by what
    it refers to and a <text> of several x as one glyph per x."""
    found = []

    def walk(e: ET.Element) -> None:
        if e.tag == f"{NS}use":
            walk(defs[e.get("href")[1:]])
            return
        if e.tag == f"{NS}text":
            xs = e.get("x").split()
            symbols = list(e.text) if len(xs) > 1 else [e.text]
            found.extend((x, e.get("y"), s) for x, s in zip(xs, symbols, strict=True))
        for child in e:
            walk(child)

    walk(root)
    return sorted(found)


def test_shared_pictures_draw_what_the_plain_ones_draw():
    puzzle = parse(next(line for line in (ROOT / "examples" / "killer9.txt").read_text()
                        .splitlines() if not line.startswith("#")))
    e = explain(puzzle, max_steps=40)
    shared = SharedDefs("t")
    pictures = [(step_svg(e, i, focus=i % 2 == 0), step_svg(e, i, focus=i % 2 == 0,
                                                           shared=shared))
                for i in range(len(e.steps))]
    defs_root = ET.fromstring(shared.svg())
    defs = {g.get("id"): g for g in defs_root.iter(f"{NS}g") if g.get("id")}
    assert len(defs) == len(shared)
    for plain, compact in pictures:
        assert glyphs(ET.fromstring(plain), {}) == glyphs(ET.fromstring(compact), defs)
        assert len(compact) < len(plain) / 3


def test_a_long_killer_page_stays_small():
    # The first killer of examples/killer9.txt takes 141 steps. Its page weighed 5.2 MB when
    # each picture repeated the grid, cages and candidates; sharing them brings it under 0.5.
    line = next(line for line in (ROOT / "examples" / "killer9.txt").read_text().splitlines()
                if not line.startswith("#"))
    e = explain(parse(line))
    assert e.solved and len(e.steps) >= 130
    page = explanation_html(e)
    assert len(page.encode()) < 600_000
    assert page.count('class="cage"') == len(parse(line).constraints)
    ids = re.findall(r'\bid="([^"]*)"', page)
    assert set(re.findall(r'\bhref="#([^"]*)"', page)) <= set(ids)
    body = page[page.index("<body>") + len("<body>"):page.index("</body>")]
    ET.fromstring(body)


def test_pages_of_different_explanations_use_different_ids():
    a = explain(parse(TOP95_4), max_steps=3)
    b = explain(parse(TOP95_4), max_steps=4)
    first = set(re.findall(r'\bid="([^"]*)"', explanation_html(a)))
    second = set(re.findall(r'\bid="([^"]*)"', explanation_html(b)))
    assert first and second and not first & second
    assert explanation_html(a) == explanation_html(a)  # the same page, byte for byte
