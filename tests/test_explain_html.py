"""Pictures of explanation steps and the explanation page: valid SVG, every elimination
struck, placements and chain links drawn, one self-contained and escaped HTML document, on
every size and variant; and grid_svg unchanged for its old callers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from cases import BY_NAME, JIGSAW_MAP, slow_if

from sudoku_csp import EMPTY, datasets, make_geometry, parse
from sudoku_csp.io import to_line
from sudoku_csp.logic import TECHNIQUES, Explanation, Step, explain
from sudoku_csp.logic.html import chain_links, explanation_html, is_single, step_svg
from sudoku_csp.render import Highlights, cell_pixels, grid_origin, grid_svg

NS = "{http://www.w3.org/2000/svg}"
SVG_XMLNS = "http://www.w3.org/2000/svg"
# top95 #4: singles, pointing, pairs, an XY-wing and a WXYZ-wing (5.5).
TOP95_4 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
OLD_CLASSES = {None, "given", "value", "candidate", "window", "dead", "diagonal", "cell-lines",
               "box-lines", "border", "row-label", "col-label"}


def pictures(page: str) -> int:
    """The pictures of a page: its <svg> elements but the hidden one of shared definitions."""
    return page.count("<svg") - page.count('class="sudoku-defs"')


def classes(svg: str) -> Counter:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return Counter(e.get("class") for e in root.iter())


@pytest.fixture(scope="module")
def hard() -> Explanation:
    return explain(parse(TOP95_4))


def explanations() -> dict[str, Explanation]:
    sixteen = datasets.load("sixteen")[0]
    return {
        "4x4": explain(BY_NAME["4x4"].puzzle()),
        "jigsaw": explain(BY_NAME["jigsaw"].puzzle()),
        "diagonal": explain(BY_NAME["diagonal"].puzzle()),
        "16x16": explain(BY_NAME["16x16"].puzzle()),
        "16x16 pointing": explain(sixteen, max_steps=7),
    }


@pytest.fixture(scope="module")
def various() -> dict[str, Explanation]:
    return explanations()


def check_step_picture(e: Explanation, i: int, focus: bool = False) -> None:
    """The picture of step i shows each of its eliminations struck, its placements on
    green, its pattern, and one link per pair of neighbours in its chain."""
    step = e.steps[i]
    svg = step_svg(e, i, focus=focus)
    count = classes(svg)
    assert count["struck"] == len(set(step.eliminations))
    assert count["placed-digit"] == len(set(step.placements))
    assert count["placed"] == len({c for c, _ in step.placements})
    assert count["highlight"] == len(set(step.cells) - {c for c, _ in step.placements})
    assert count["unit"] == len(set(step.units))
    assert count["mark"] == len(set(step.marks) - set(step.placements))
    links = chain_links(step)
    assert count["link-strong"] + count["link-weak"] == len(links)
    assert count["link-strong"] == sum(strong for _, _, strong in links)


def test_every_step_of_a_hard_puzzle(hard):
    assert hard.solved and hard.rating.er == 5.5
    for i in range(len(hard.steps)):
        check_step_picture(hard, i)
        check_step_picture(hard, i, focus=True)


def test_eliminations_are_struck_and_chains_linked(hard):
    # Without the WXYZ- to TUVWXYZ-wings the puzzle needs an XY-chain at the same point.
    chained = explain(hard.puzzle, techniques=[k for k in TECHNIQUES if "wxyz" not in k])
    chain = next(i for i, s in enumerate(chained.steps) if s.technique == "xy_chain")
    step = chained.steps[chain]
    count = classes(step_svg(chained, chain))
    assert count["struck"] == len(step.eliminations) == 4
    assert len(step.chain) == 8
    assert (count["link-strong"], count["link-weak"]) == (4, 3)  # =, −, =, −, =, −, =
    pointing = next(i for i, s in enumerate(hard.steps) if s.technique == "pointing")
    count = classes(step_svg(hard, pointing))
    assert count["struck"] == len(hard.steps[pointing].eliminations) == 3
    assert count["unit"] == 2 and count["placed"] == 0


def test_struck_candidates_are_drawn_in_red(hard):
    i = next(i for i, s in enumerate(hard.steps) if s.technique == "hidden_pair")
    root = ET.fromstring(step_svg(hard, i))
    g = hard.puzzle.geometry
    gone = {g.symbols[d] for _, d in hard.steps[i].eliminations}
    red = [t for t in root.iter(f"{NS}text")
           if t.get("class") == "candidate" and t.get("fill") == "#d55e00"]
    assert len(red) == len(hard.steps[i].eliminations)
    assert {t.text for t in red} == gone


def test_links_stay_inside_the_grid():
    g = make_geometry(9)
    low = grid_origin(9)
    high = low + 9 * cell_pixels(9)
    links = [((0, 1), (8, 1), True), ((72, 1), (80, 1), False), ((0, 4), (72, 4), True),
             ((8, 4), (80, 4), False), ((40, 0), (40, 8), True)]
    root = ET.fromstring(grid_svg(g, [EMPTY] * 81, candidates=[0x1FF] * 81,
                                  highlights=Highlights(links=links)))
    paths = [p for p in root.iter(f"{NS}path") if p.get("class", "").startswith("link-")]
    assert len(paths) == len(links)
    for p in paths:
        numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", p.get("d"))]
        assert all(low <= x <= high for x in numbers), p.get("d")
    assert [p.get("stroke-dasharray") is None for p in paths] == [s for _, _, s in links]


def test_forcing_chains_are_not_drawn_as_alternating_links():
    step = Step("forcing_chain", 7.0, "Forcing chain", eliminations=((0, 0),),
                chain=((0, 0), (10, 1), (20, 2)), marks=((0, 0), (10, 1), (20, 2)))
    assert chain_links(step) == []
    aic = Step("aic", 7.0, "AIC", chain=((0, 0), (1, 0), (1, 1), (2, 1)))
    assert chain_links(aic) == [((0, 0), (1, 0), True), ((1, 0), (1, 1), False),
                                ((1, 1), (2, 1), True)]


def test_singles_focus_on_their_digit(hard):
    i = next(i for i, s in enumerate(hard.steps) if s.technique == "hidden_single_box")
    step = hard.steps[i]
    assert is_single(step) and not is_single(hard.steps[2])
    (cell, digit), = step.placements
    root = ET.fromstring(step_svg(hard, i, focus=True))
    symbol = hard.puzzle.geometry.symbols[digit]
    small = [t for t in root.iter(f"{NS}text") if t.get("class") == "candidate"]
    assert small and all(t.text == symbol for t in small)
    placed = [t for t in root.iter(f"{NS}text") if t.get("class") == "value"]
    assert [t.text for t in placed] == [symbol]


@pytest.mark.parametrize("name", slow_if(["4x4", "jigsaw", "diagonal", "16x16", "16x16 pointing"],
                                         lambda name: name in ("diagonal", "16x16")))
def test_other_sizes_and_variants(various, name):
    e = various[name]
    assert e.steps
    for i in range(len(e.steps)):
        check_step_picture(e, i, focus=is_single(e.steps[i]))
    page = explanation_html(e)
    assert pictures(page) == len(e.steps) + 2  # the puzzle, each step, the final grid
    fragment = explanation_html(e, standalone=False)
    ET.fromstring(fragment)  # well-formed: every tag closed, every text escaped


def test_jigsaw_units_are_outlined_along_their_regions(various):
    e = various["jigsaw"]
    g = e.puzzle.geometry
    n = g.size
    for i, step in enumerate(e.steps):
        root = ET.fromstring(step_svg(e, i))
        outlines = [p.get("d") for p in root.iter(f"{NS}path") if p.get("class") == "unit"]
        for u, d in zip(dict.fromkeys(step.units), outlines, strict=True):
            places = {divmod(x, n) for x in g.units[u].cells}
            sides = sum((r + dr, c + dc) not in places for r, c in places
                        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
            assert d.count("M") == sides


def test_page_is_one_self_contained_document(hard):
    page = explanation_html(hard)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<html") == 1 and page.count("</html>") == 1
    assert set(re.findall(r"https?://[^\s\"'<>]*", page)) == {SVG_XMLNS}
    assert not re.search(r"<script|<link|<img|<iframe|\bsrc=|@import|url\(", page)
    # Links only to the page's own shared definitions, each defined once.
    refs = set(re.findall(r'\bhref="([^"]*)"', page))
    ids = re.findall(r'\bid="([^"]*)"', page)
    assert refs and len(ids) == len(set(ids)) and refs <= {f"#{i}" for i in ids}
    assert pictures(page) == len(hard.steps) + 2
    for n in range(1, len(hard.steps) + 1):
        assert f"<b>{n}.</b>" in page
    # The header: the puzzle, its rating and the techniques used; the end.
    assert to_line(hard.puzzle) in page
    assert "5.5" in page and "hard" in page and "WXYZ-wing" in page
    assert hard.lines()[-1] in page
    body = page[page.index("<body>") + len("<body>"):page.index("</body>")]
    ET.fromstring(body)


def test_fragment_for_jupyter(hard):
    fragment = hard._repr_html_()
    assert fragment == explanation_html(hard, standalone=False)
    assert "<!DOCTYPE" not in fragment and "<html" not in fragment
    assert fragment.startswith('<div class="sudoku-explanation"><style>')
    root = ET.fromstring(fragment)
    assert len(list(root.iter(f"{NS}svg"))) == len(hard.steps) + 3  # and the shared definitions


def test_text_is_escaped():
    puzzle = parse("3.1...4.2.......\t<b>sneaky</b> & <script>alert(1)</script>")
    e = explain(puzzle)
    nasty = 'Made up: <script>alert("x")</script> & <b>bold</b> → A2'
    steps = (Step("made_up_<technique>", 1.0, nasty, placements=((1, 3),), cells=(1,),
                  marks=((1, 3),), units=(0,)),) + e.steps[1:]
    forged = Explanation(e.puzzle, steps, e.candidates, e.grid, "it <stopped> & gave up",
                         e.uniqueness)
    for page in (explanation_html(forged), explanation_html(forged, standalone=False)):
        assert "<script" not in page and "<b>bold" not in page and "<b>sneaky" not in page
        assert "&lt;script&gt;" in page and "&amp;" in page
        assert "Stopped: it &lt;stopped&gt; &amp; gave up." in page
        assert "Made up &lt;technique&gt;" in page  # in the techniques used
    ET.fromstring(explanation_html(forged, standalone=False))


def test_a_puzzle_without_steps():
    e = explain(BY_NAME["clash"].puzzle())
    assert not e.steps and not e.solved
    page = explanation_html(e)
    assert pictures(page) == 2 and "Stopped: the puzzle has no solution" in page
    ET.fromstring(explanation_html(e, standalone=False))


# -- grid_svg: the new arguments ----------------------------------------------------------------
def test_grid_svg_unchanged_without_the_new_arguments():
    cases = [(make_geometry(4), 0b1111), (make_geometry(9), 0x1FF),
             (make_geometry(9, regions=JIGSAW_MAP), 0x1FF),
             (make_geometry(9, variants=["diagonal", "windoku"]), 0x1FF)]
    for g, full in cases:
        n = g.size
        givens = [d if c % 7 == 0 else EMPTY for c, d in enumerate(range(g.ncells))]
        givens = [EMPTY if x == EMPTY else x % n for x in givens]
        values = [c % n if c % 5 == 1 else EMPTY for c in range(g.ncells)]
        cand = [(full >> (c % 3)) if c % 11 else 0 for c in range(g.ncells)]
        cand[2] = 0b10
        old = grid_svg(g, givens, values, cand)
        assert old == grid_svg(g, givens, values=values, candidates=cand,
                               highlights=Highlights(), compact=False)
        count = classes(old)
        assert set(count) <= OLD_CLASSES
        open_cells = [c for c in range(g.ncells) if givens[c] == EMPTY and values[c] == EMPTY]
        singles = [c for c in open_cells if cand[c] and not cand[c] & (cand[c] - 1)]
        assert count["given"] == sum(x != EMPTY for x in givens)
        assert count["value"] == sum(v != EMPTY for v in values) - sum(
            givens[c] != EMPTY and values[c] != EMPTY for c in range(g.ncells)) + len(singles)
        assert count["candidate"] == sum(cand[c].bit_count() for c in open_cells
                                         if c not in singles)
        assert count["dead"] == sum(m == 0 for m in cand)
        # Each text element still carries its own size, colour and alignment.
        for t in ET.fromstring(old).iter(f"{NS}text"):
            assert t.get("font-size") and t.get("fill") and t.get("text-anchor") == "middle"


def test_compact_draws_the_same_digits():
    g = make_geometry(9)
    cand = [0x1FF >> (c % 4) for c in range(81)]
    kwargs = {"highlights": Highlights(marks=[(0, 0)], eliminations=[(1, 1)],
                                       placements=[(2, 2)])}
    full = ET.fromstring(grid_svg(g, [EMPTY] * 81, candidates=cand, **kwargs))
    compact_text = grid_svg(g, [EMPTY] * 81, candidates=cand, compact=True, **kwargs)
    compact = ET.fromstring(compact_text)

    def digits(root):
        return sorted((t.get("class"), t.get("x"), t.get("y"), t.text)
                      for t in root.iter(f"{NS}text"))

    assert digits(full) == digits(compact)
    assert len(compact_text) < 0.55 * len(grid_svg(g, [EMPTY] * 81, candidates=cand, **kwargs))


def test_digit_filter_keeps_the_pattern():
    g = make_geometry(4)
    svg = grid_svg(g, [EMPTY] * 16, candidates=[0b1111] * 16,
                   highlights=Highlights(focus={0}, cells=[5], eliminations=[(6, 3)]))
    root = ET.fromstring(svg)
    shown = Counter(t.text for t in root.iter(f"{NS}text") if t.get("class") == "candidate")
    # 1 everywhere, all four in B2 (highlighted), and the struck 4 in B3.
    assert shown == Counter({"1": 16, "2": 1, "3": 1, "4": 2})


def test_placed_single_candidate_and_value():
    g = make_geometry(4)
    cand = [0b1111] * 16
    cand[0] = 0b0100  # A1 can only be 3: drawn as a value, with its placement on green
    root = ET.fromstring(grid_svg(g, [EMPTY] * 16, candidates=cand,
                                  highlights=Highlights(placements=[(0, 2), (5, 1)])))
    values = [t for t in root.iter(f"{NS}text") if t.get("class") == "value"]
    assert [(t.text, t.get("fill")) for t in values] == [("3", "#ffffff")]
    placed_small = [t for t in root.iter(f"{NS}text")
                    if t.get("class") == "candidate" and t.get("fill") == "#ffffff"]
    assert [t.text for t in placed_small] == ["2"]
    discs = [c for c in root.iter(f"{NS}circle") if c.get("class") == "placed-digit"]
    assert len(discs) == 2 and float(discs[0].get("r")) > float(discs[1].get("r"))


@pytest.mark.parametrize("bad", [{"marks": [(16, 0)]}, {"eliminations": [(0, 4)]},
                                 {"placements": [(-1, 0)]}, {"links": [((0, 0), (0, 9), True)]},
                                 {"units": [12]}, {"cells": [16]}])
def test_out_of_range_highlights_are_refused(bad):
    (field,) = bad
    with pytest.raises(ValueError, match=field):
        grid_svg(make_geometry(4), [EMPTY] * 16, highlights=Highlights(**bad))


def test_killer_steps_are_drawn_with_their_cages():
    killer = explain(parse("AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8"))
    assert killer.solved
    for i, step in enumerate(killer.steps):
        count = classes(step_svg(killer, i))
        assert count["cage"] == count["cage-sum"] == 8
        if step.technique.startswith("constraint"):
            assert count["struck"] == len(step.eliminations)
    page = explanation_html(killer)
    assert page.count('class="cage"') == 8  # once, shared by the head, the steps and the end
