"""Puzzles of a chosen difficulty: ``generate(difficulty=...)`` and ``generate --difficulty``.

Every expectation is read from the explainer's own tables (TIERS, TECHNIQUES), never from
numbers copied here, so the tests follow when tiers or technique ratings change.
"""

from __future__ import annotations

import math
import re

import pytest
from typer.testing import CliRunner

from sudoku_csp import InputError, Status, get_backend, make_geometry, parse
from sudoku_csp.cli import Exit, app
from sudoku_csp.generate import Difficulty, GenerationError, generate, minimality
from sudoku_csp.generate.rated import _assess
from sudoku_csp.io import to_line
from sudoku_csp.logic import TECHNIQUES, TIERS, Rating, explain
from sudoku_csp.symmetry import is_symmetric

NAMES = [name for name, _ in TIERS]
TOP = dict(TIERS)


def _rating(er: float | None, *, needs_search: bool = False) -> Rating:
    return Rating(er=er, ep=er, ed=er, tier="", needs_search=needs_search, techniques={})


def _unique(puzzle) -> bool:
    return all(get_backend(spec).solve(puzzle, limit=2).status is Status.UNIQUE
               for spec in ("native", "sat"))


# -- the target ----------------------------------------------------------------------------------
def test_a_tier_is_its_range_of_the_tier_table():
    for index, (name, top) in enumerate(TIERS):
        target = Difficulty(name)
        assert target.accepts(_rating(top)) and tier_is(top, name)
        if index:
            below = TIERS[index - 1][1]
            assert not target.accepts(_rating(below))  # the previous tier's top is not in it
            assert target.accepts(_rating(math.nextafter(below, math.inf)))
        if top < math.inf:
            assert not target.accepts(_rating(math.nextafter(top, math.inf)))


def tier_is(er: float, name: str) -> bool:
    from sudoku_csp.logic import tier_of

    return tier_of(er) == name


def test_puzzles_that_need_search_only_when_allowed():
    stuck = _rating(TOP[NAMES[0]], needs_search=True)  # an easy step, then nothing applies
    assert not any(Difficulty(name).accepts(stuck) for name in NAMES)
    assert not Difficulty().accepts(stuck)
    assert Difficulty(NAMES[-1], allow_search=True).accepts(stuck)
    assert Difficulty(min_rating=1.0, allow_search=True).accepts(stuck)
    assert Difficulty(NAMES[-1], allow_search=True).describe().endswith("or needing search)")


def test_tier_and_range_intersect():
    easy_top = TOP[NAMES[0]]
    both = Difficulty(NAMES[0], min_rating=easy_top)
    assert both.accepts(_rating(easy_top))
    assert not both.accepts(_rating(easy_top - 0.1))
    assert Difficulty(NAMES[1], max_rating=100.0).bounds() == Difficulty(NAMES[1]).bounds()
    assert Difficulty(min_rating=2, max_rating=2).accepts(_rating(2.0))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"tier": "hardest"}, "unknown difficulty 'hardest': choose from " + ", ".join(NAMES)),
    ({"min_rating": 5.0, "max_rating": 3.0}, "the minimum rating 5.0 is above the maximum 3.0"),
    ({"tier": NAMES[0], "min_rating": TOP[NAMES[0]] + 1}, f"no rating is both {NAMES[0]}"),
    ({"tier": NAMES[1], "max_rating": TOP[NAMES[0]]}, f"no rating is both {NAMES[1]}"),
    ({"max_rating": 6.0, "allow_search": True}, "no upper bound"),
    ({"tier": NAMES[0], "allow_search": True}, "no upper bound"),
    ({"min_rating": float("nan")}, "must be a number"),
])
def test_bad_targets_are_input_errors(kwargs, message):
    with pytest.raises(InputError, match=re.escape(message)):
        Difficulty(**kwargs)


# -- the quick check agrees with the full explainer -----------------------------------------------
@pytest.fixture(scope="module")
def plain_puzzles():
    return list(generate(count=12, seed=21))


def _targets():
    ratings = sorted({t.rating for t in TECHNIQUES.values()})
    middle = ratings[len(ratings) // 2]
    return ([Difficulty(name) for name in NAMES]
            + [Difficulty(max_rating=r) for r in (ratings[0], middle, ratings[-1])]
            + [Difficulty(min_rating=middle)])


@pytest.mark.slow
def test_quick_assessment_agrees_with_explain(plain_puzzles):
    # _assess leaves out the techniques above the range; its verdict must be explain's.
    for puzzle in plain_puzzles:
        rating = explain(puzzle).rating
        for target in _targets():
            assessed = _assess(puzzle, target)
            assert assessed.inside == target.accepts(rating), (target, to_line(puzzle))
            if assessed.rating is not None:
                assert assessed.rating.er == rating.er


# -- generation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("tier", "minimal"), [
    (NAMES[0], True), (NAMES[0], False), (NAMES[2], True), (NAMES[2], False)])
def test_nine_by_nine_in_the_tier(tier, minimal):
    for puzzle in generate(count=3, seed=2, difficulty=tier, minimal=minimal):
        rating = explain(puzzle).rating
        assert rating.tier == tier and not rating.needs_search, to_line(puzzle)
        assert f"ER {rating.er} {tier}" in puzzle.metadata
        assert _unique(puzzle)
        found = minimality(puzzle)
        if minimal:
            assert found.minimal
        # the note claims minimality only when it holds (givens put back make it easier)
        assert ("minimal" in puzzle.metadata) <= found.minimal


def test_a_rating_range():
    single = TECHNIQUES["naked_single"].rating  # the hardest step is exactly a naked single
    for puzzle in generate(count=2, seed=3, minimal=True,
                           difficulty=Difficulty(min_rating=single, max_rating=single)):
        assert explain(puzzle).rating.er == single
        assert minimality(puzzle).minimal


@pytest.mark.slow
def test_same_seed_same_puzzles():
    first = [to_line(p) for p in generate(count=3, seed=8, difficulty=NAMES[1])]
    assert first == [to_line(p) for p in generate(count=3, seed=8, difficulty=NAMES[1])]
    assert first[:2] == [to_line(p) for p in generate(count=2, seed=8, difficulty=NAMES[1])]
    assert len(set(first)) == 3


@pytest.mark.slow
def test_symmetric_minimal_and_rated():
    for puzzle in generate(count=2, seed=5, symmetry="rot180", minimal=True,
                           difficulty=NAMES[2]):
        assert is_symmetric(puzzle, "rot180")
        assert minimality(puzzle).minimal
        assert explain(puzzle).rating.tier == NAMES[2]


@pytest.mark.parametrize("geometry", [make_geometry(6), make_geometry(9, variants=["diagonal"])],
                         ids=lambda g: g.name)
def test_other_geometries(geometry):
    # the diagonal's unique minimal puzzles are mostly very hard: easy ones get givens back
    for tier in (NAMES[0], NAMES[2]):
        for puzzle in generate(geometry, count=1, seed=1, difficulty=tier):
            assert puzzle.geometry == geometry
            assert explain(puzzle).rating.tier == tier
            assert _unique(puzzle)


def test_an_unreachable_tier_gives_up():
    # a 4x4 needs nothing beyond singles: the search gives up after its attempts
    with pytest.raises(GenerationError, match=f"no puzzle rated {NAMES[2]} .* in 2 grids"):
        next(generate(make_geometry(4), difficulty=NAMES[2], attempts=2))
    assert issubclass(GenerationError, InputError)


def test_no_difficulty_no_rating():
    puzzle = next(generate(seed=9))
    assert "ER" not in puzzle.metadata


# -- the command line ----------------------------------------------------------------------------
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["generate", *args])


def test_cli_writes_rated_puzzles(tmp_path):
    out = tmp_path / "hard.txt"
    result = run("--count", "2", "--difficulty", NAMES[2], "--minimal", "--seed", "4",
                 "-o", str(out))
    assert result.exit_code == Exit.OK, result.output
    header, *lines = out.read_text().splitlines()
    assert header.startswith("# sudoku-csp generate --count 2")
    assert f"--minimal --difficulty {NAMES[2]} --seed 4" in header
    assert len(lines) == 2
    for line in lines:
        text, note = line.split("\t")
        rating = explain(parse(text)).rating
        assert rating.tier == NAMES[2] and note.endswith(f"ER {rating.er} {NAMES[2]}")
    again = run("--count", "2", "--difficulty", NAMES[2], "--minimal", "--seed", "4")
    assert again.stdout.splitlines() == lines


def test_cli_any_rating_option_rates():
    # a lower bound of zero still asks for rated puzzles (and no unfinished ones)
    result = run("--min-rating", "0", "--seed", "2")
    assert result.exit_code == Exit.OK, result.output
    text, note = result.stdout.splitlines()[0].split("\t")
    assert note.endswith(f"ER {explain(parse(text)).rating.er} {explain(parse(text)).rating.tier}")


def test_cli_help_lists_the_tiers():
    result = runner.invoke(app, ["generate", "--help"])
    help_text = " ".join(result.output.split())
    assert all(name in help_text for name in NAMES)


@pytest.mark.parametrize(("args", "message"), [
    (["--difficulty", "hardest"], "unknown difficulty 'hardest': choose from " + ", ".join(NAMES)),
    (["--min-rating", "5", "--max-rating", "3"], "above the maximum"),
    (["--difficulty", NAMES[0], "--min-rating", str(TOP[NAMES[0]] + 1)], "no rating is both"),
    (["--max-rating", "6", "--allow-search"], "no upper bound"),
    (["--size", "4", "--difficulty", NAMES[-1], "--attempts", "1"], "no puzzle rated"),
])
def test_cli_errors(args, message, tmp_path):
    out = tmp_path / "never.txt"
    result = run(*args, "-o", str(out))
    assert result.exit_code == Exit.INPUT, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.output
    assert not out.exists()  # nothing written when the first puzzle cannot be made
