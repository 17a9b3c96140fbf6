"""Explanations as pictures: :func:`step_svg` draws one step, :func:`explanation_html` the
whole explanation as one HTML page (or, for Jupyter, one fragment).

A step is drawn on the pencil marks before it, with the highlights it asks for
(:func:`step_highlights`; :mod:`sudoku_csp.render.highlights` says what each colour and shape
means): the pattern's cells, units and candidates highlighted, eliminations crossed out,
placements on green, and the links of a chain (an alternating chain, or each implication of a
forcing chain or Nishio).

The page is self-contained (inline CSS, inline SVG, no script, nothing fetched), and stays
light on long explanations: the pictures flow several to a row, and singles, which say
"this digit has one place", are drawn smaller and show only that digit's candidates (with
all of the placed cell's), which is also what makes them read at a glance. What the
pictures share (the grid, its coordinates and constraint marks, the givens, a cell's
candidates while they stay the same) is defined once in a hidden ``<svg>`` and drawn with
``<use>`` (:class:`~sudoku_csp.render.SharedDefs`), so a page of a hundred steps weighs
little more than its differences.
"""

from __future__ import annotations

import hashlib
import math
from html import escape
from itertools import pairwise

from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.io import to_line
from sudoku_csp.logic import forcing, trials
from sudoku_csp.logic.explain import TIERS, Explanation
from sudoku_csp.logic.step import Step
from sudoku_csp.logic.techniques import TECHNIQUES
from sudoku_csp.render import (
    HIGHLIGHT_FILL,
    LINK_COLOUR,
    MARK_FILL,
    PLACED_COLOUR,
    STRUCK_COLOUR,
    UNIT_COLOUR,
    ChainLink,
    Highlights,
    SharedDefs,
    candidate_size,
    grid_svg,
    picture_width,
)

__all__ = ["chain_links", "explanation_html", "is_single", "single_scale", "step_highlights",
           "step_svg", "technique_name"]

SINGLE_SCALE = 0.7
"""Singles are drawn at this fraction of the full size, or larger where their candidates
would be smaller than :data:`LEAST_CANDIDATE_PX`."""
LEAST_CANDIDATE_PX = 8.0
"""The smallest a candidate is shown on a page (in CSS pixels, before the reader zooms)."""
FULL_CANDIDATES_UP_TO = 9
"""The largest grid whose pages show every candidate in the pictures of steps other than
singles; on larger grids their small print cannot be read at a glance, and those pictures
show only the digits each step is about."""


def chain_links(step: Step) -> list[ChainLink]:
    """The links to draw for the step: those it records (forcing chains and Nishio: each
    implication of the argument, :attr:`~sudoku_csp.logic.step.Step.links`), else those of
    its alternating chain, strong, weak, strong, … between its candidates in order. Empty
    for a forcing step that records no links, whose ``chain`` lists the facts the argument
    derives rather than a path."""
    if step.links:
        return list(step.links)
    technique = TECHNIQUES.get(step.technique)
    if technique is not None and technique.find.__module__ in (forcing.__name__,
                                                                 trials.__name__):
        return []
    return [(a, b, k % 2 == 0) for k, (a, b) in enumerate(pairwise(step.chain))]


def technique_name(key: str) -> str:
    """A technique's name from its key; a key the ladder does not list (a hand-made step)
    is spelled out."""
    technique = TECHNIQUES.get(key)
    return technique.name if technique else key.replace("_", " ").capitalize()


def _ladder_position(key: str) -> tuple[int, str]:
    """Where a technique key sits in the ladder (unknown keys last)."""
    keys = list(TECHNIQUES)
    return (keys.index(key) if key in TECHNIQUES else len(keys)), key


def is_single(step: Step) -> bool:
    """Whether the step is a single (the easy tier holds singles only)."""
    return bool(step.placements) and not step.eliminations and step.rating <= TIERS[0][1]


def step_highlights(step: Step, *, focus: bool = False) -> Highlights:
    """What the picture of ``step`` highlights: its pattern's cells, units and candidates,
    its placements and eliminations, and its links (:func:`chain_links`). ``focus``: only
    the candidates of the digits the step is about are written (and all of its cells').

    >>> aic = Step("aic", 7.0, "AIC", eliminations=((9, 0),), chain=((0, 0), (1, 0), (1, 1)))
    >>> shown = step_highlights(aic, focus=True)
    >>> shown.links, sorted(shown.focus)
    ((((0, 0), (1, 0), True), ((1, 0), (1, 1), False)), [0, 1])
    """
    links = chain_links(step)
    digits = None
    if focus:
        ends = tuple(x for a, b, _ in links for x in (a, b))
        digits = frozenset(d for _, d in step.marks + step.eliminations + step.placements
                           + step.chain + ends)
    return Highlights(cells=step.cells, units=step.units, marks=step.marks,
                      placements=step.placements, eliminations=step.eliminations,
                      links=tuple(links), focus=digits)


def step_svg(explanation: Explanation, i: int, *, focus: bool = False,
             shared: SharedDefs | None = None) -> str:
    """The picture of ``explanation.steps[i]`` on the pencil marks before it, with the
    step's highlights (:func:`step_highlights`). ``focus``: draw only the candidates of the
    digits the step is about (and all of its cells'), and placed digits full size.
    ``shared``: as :func:`~sudoku_csp.render.grid_svg` takes it, for a page of many
    pictures."""
    step = explanation.steps[i]
    puzzle = explanation.puzzle
    values = None
    if focus:
        values = [EMPTY] * puzzle.geometry.ncells
        for cell, digit in step.placements:
            values[cell] = digit
    return grid_svg(puzzle.geometry, puzzle.givens, values, explanation.candidates[i],
                    highlights=step_highlights(step, focus=focus), compact=True,
                    constraints=puzzle.constraints, shared=shared)


def _number(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"


def single_scale(geometry: Geometry) -> float:
    """The fraction of the full size singles are drawn at: :data:`SINGLE_SCALE`, or as much
    more as keeps their candidates at :data:`LEAST_CANDIDATE_PX` (0.75 on 9×9, 0.91 on
    16×16), at most 1."""
    return min(1.0, max(SINGLE_SCALE, LEAST_CANDIDATE_PX / candidate_size(geometry)))


def _css(geometry: Geometry) -> str:
    full = picture_width(geometry.size)
    small = max(math.ceil(full * single_scale(geometry)), 150)
    return f"""
.sudoku-explanation {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
  color: #222; line-height: 1.35; }}
.sudoku-explanation h2 {{ margin: 0 0 .4em; font-size: 1.3em; }}
.sudoku-explanation h3 {{ margin: 1em 0 .4em; font-size: 1.1em; }}
.sudoku-explanation .head {{ display: flex; flex-wrap: wrap; gap: 16px 28px;
  align-items: flex-start; }}
.sudoku-explanation .puzzle-line {{ font-family: ui-monospace, Menlo, Consolas, monospace;
  font-size: .85em; overflow-wrap: anywhere; max-width: 60em; }}
.sudoku-explanation table {{ border-collapse: collapse; font-size: .9em; }}
.sudoku-explanation td, .sudoku-explanation th {{ padding: 1px 8px 1px 0; text-align: left;
  vertical-align: top; }}
.sudoku-explanation td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
.sudoku-explanation .legend {{ font-size: .85em; margin: .6em 0 0; }}
.sudoku-explanation .legend span.key {{ display: inline-block; width: 14px; height: 14px;
  margin: 0 4px 0 12px; vertical-align: -2px; border-radius: 3px; }}
.sudoku-explanation .steps {{ display: flex; flex-wrap: wrap; gap: 10px;
  align-items: flex-start; }}
.sudoku-explanation figure {{ margin: 0; padding: 5px; border: 1px solid #ddd;
  border-radius: 6px; background: #fff; width: {full}px; box-sizing: content-box; }}
.sudoku-explanation figure.single {{ width: {small}px; }}
.sudoku-explanation figure svg {{ display: block; width: 100%; height: auto; }}
.sudoku-explanation figcaption {{ font-size: .82em; margin: 0 0 4px; min-height: 2.7em; }}
.sudoku-explanation figcaption b {{ margin-right: .25em; }}
.sudoku-explanation figcaption i {{ color: #666; font-style: normal; font-size: .9em; }}
.sudoku-explanation .outcome {{ font-weight: bold; }}
"""


def _legend() -> str:
    keys = [
        (f"background:{HIGHLIGHT_FILL}", "pattern cells"),
        (f"border:2px solid {UNIT_COLOUR}", "units"),
        (f"background:{MARK_FILL};border-radius:50%", "pattern candidates"),
        (f"background:{PLACED_COLOUR};border-radius:50%", "placed"),
        (f"border:2px solid {STRUCK_COLOUR};border-radius:0;"
         f"background:linear-gradient(45deg,transparent 45%,{STRUCK_COLOUR} 45%,"
         f"{STRUCK_COLOUR} 55%,transparent 55%)", "eliminated"),
        (f"border-top:2px solid {LINK_COLOUR};height:0;border-radius:0", "strong link"),
        (f"border-top:2px dashed {LINK_COLOUR};height:0;border-radius:0", "weak link"),
    ]
    return ('<p class="legend">Key:' + "".join(
        f'<span class="key" style="{style}"></span>{escape(text)}' for style, text in keys)
        + "</p>")


def _header(explanation: Explanation, shared: SharedDefs) -> str:
    puzzle, rating = explanation.puzzle, explanation.rating
    g = puzzle.geometry
    rows = [
        ("ER (hardest step)", _number(rating.er)),
        ("EP (up to the first placement)", _number(rating.ep)),
        ("ED (first step)", _number(rating.ed)),
        ("tier", rating.tier + (" (needs search)" if rating.needs_search else "")),
        ("steps", str(len(explanation.steps))),
    ]
    counts = rating.techniques
    used = "".join(f"<tr><td>{escape(technique_name(k))}</td><td class=\"n\">{counts[k]}</td>"
                   "</tr>" for k in sorted(counts, key=_ladder_position))
    metadata = (f"<p>{escape(puzzle.metadata)}</p>" if puzzle.metadata else "")
    return (
        f"<h2>Explanation of a {escape(g.name)} puzzle ({puzzle.clue_count} givens)</h2>"
        f'<p class="puzzle-line">{escape(to_line(puzzle))}</p>{metadata}'
        '<div class="head">'
        f'<figure class="single">'
        f'{grid_svg(g, puzzle.givens, constraints=puzzle.constraints, shared=shared)}'
        "</figure>"
        "<table><caption>Rating</caption>"
        + "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
        + "</table>"
        + (f"<table><caption>Techniques used</caption>{used}</table>" if used else "")
        + "</div>" + _legend()
    )


def _step_figure(explanation: Explanation, i: int, shared: SharedDefs) -> str:
    step = explanation.steps[i]
    single = is_single(step)
    focus = single or explanation.puzzle.size > FULL_CANDIDATES_UP_TO
    return (f'<figure class="{"single" if single else "full"}"><figcaption>'
            f"<b>{i + 1}.</b> {escape(step.text)} <i>({_number(step.rating)})</i>"
            f"</figcaption>{step_svg(explanation, i, focus=focus, shared=shared)}</figure>")


def _id_prefix(explanation: Explanation) -> str:
    """The start of the ids of a page's shared definitions: a digest of what its pictures
    show, so that two pages in one notebook share ids only when they draw the same."""
    puzzle = explanation.puzzle
    seen = repr((puzzle.geometry.name, puzzle.geometry.boxes, puzzle.givens, puzzle.constraints,
                 explanation.steps, explanation.candidates, explanation.grid))
    return "s" + hashlib.blake2s(seen.encode(), digest_size=3).hexdigest()


def explanation_html(explanation: Explanation, standalone: bool = True) -> str:
    """The explanation as HTML: a header (the puzzle, its rating, the techniques used), each
    step with its number, text and picture, then the final grid and how it ended.
    ``standalone``: a whole ``<!DOCTYPE html>`` document; else a fragment for Jupyter."""
    puzzle = explanation.puzzle
    g = puzzle.geometry
    end = explanation.lines()[-1]
    shared = SharedDefs(_id_prefix(explanation))
    pictures = (
        _header(explanation, shared)
        + "<h3>Steps</h3>"
        + '<div class="steps">'
        + "".join(_step_figure(explanation, i, shared) for i in range(len(explanation.steps)))
        + "</div>"
        + "<h3>Final grid</h3>"
        + '<figure class="full">'
        + grid_svg(g, puzzle.givens, values=explanation.grid, constraints=puzzle.constraints,
                   shared=shared)
        + "</figure>"
    )
    body = (
        '<div class="sudoku-explanation">'
        + ("" if standalone else f"<style>{_css(g)}</style>")
        + shared.svg()  # before the pictures: a browser drawing as the page loads finds it
        + pictures
        + f'<p class="outcome">{escape(end)}</p>'
        + "</div>"
    )
    if not standalone:
        return body
    title = f"Explanation: {to_line(puzzle)}"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(title)}</title>\n<style>{_css(g)}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")
