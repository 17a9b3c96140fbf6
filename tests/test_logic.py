"""The explainer: every step sound (checked against the unique solution another backend
finds), the techniques on hand-made positions, the rating, the CLI commands and the SAT
proof of each step."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sudoku_csp import datasets, get_backend, make_geometry, parse
from sudoku_csp.cli import app
from sudoku_csp.generate import generate
from sudoku_csp.logic import TECHNIQUES, explain, hint, length_bonus, tier_of
from sudoku_csp.logic.backend import LogicBackend
from sudoku_csp.logic.prove import UnprovenStepError, prove
from sudoku_csp.logic.step import Step
from sudoku_csp.puzzle import Puzzle

runner = CliRunner()
HARD = datasets.load("mixed9")


def violations(puzzle: Puzzle, techniques=None) -> list[str]:
    """Every step that places a wrong digit or removes the true one, named."""
    solution = get_backend("sat").solve(puzzle, limit=2)
    assert solution.count == 1
    truth = solution.solution
    e = explain(puzzle, techniques=techniques)
    bad = []
    for step in e.steps:
        wrong = [(c, d) for c, d in step.placements if truth[c] != d]
        wrong += [(c, d) for c, d in step.eliminations if truth[c] == d]
        if wrong:
            bad.append(f"{step.technique} on {puzzle.to_line()}: {step.text}")
    if e.solved:
        assert e.grid == truth
    return bad


@pytest.mark.parametrize("chunk", range(4))
def test_every_step_is_sound_on_the_bundled_9x9(chunk):
    bad = [v for p in HARD[chunk::4] for v in violations(p)]
    assert bad == []


VARIANT_CASES = [
    ("4x4", make_geometry(4)),
    ("6x6", make_geometry(6)),
    ("diagonal", make_geometry(9, variants=["diagonal"])),
    ("windoku", make_geometry(9, variants=["windoku"])),
    ("anti-knight", make_geometry(9, variants=["anti-knight"])),
    ("8x8 (2x4 boxes)", make_geometry(8, box=(2, 4))),
]


@pytest.mark.parametrize(("name", "geometry"), VARIANT_CASES, ids=[n for n, _ in VARIANT_CASES])
def test_every_step_is_sound_on_other_sizes_and_variants(name, geometry):
    bad = [v for p in generate(geometry, count=3, seed=11) for v in violations(p)]
    assert bad == [], name


def test_sound_on_a_16x16_with_the_pattern_techniques():
    cheap = [k for k in TECHNIQUES if "forcing" not in k and k != "nishio"]
    assert violations(datasets.load("sixteen")[0], techniques=cheap) == []


def test_the_solved_grid_is_the_solution_and_steps_are_proved():
    puzzle = HARD[3]
    e = explain(puzzle)
    assert e.solved
    proof = prove(e)
    assert proof.steps == len(e.steps)
    assert proof.facts == sum(len(s.placements) + len(s.eliminations) for s in e.steps)


def test_prove_rejects_a_wrong_step():
    puzzle = parse("3.1...4.2.......")
    e = explain(puzzle)
    truth = e.grid
    wrong_digit = (truth[1] + 1) % 4
    bogus = Step("naked_single", 2.3, "bogus", placements=((1, wrong_digit),))
    import dataclasses
    with pytest.raises(UnprovenStepError, match="bogus"):
        prove(dataclasses.replace(e, steps=(bogus,)))


# -- techniques on positions where each must fire -------------------------------------------
def test_harder_techniques_appear_on_hard_puzzles():
    used: set[str] = set()
    for p in HARD[::3]:
        used |= set(explain(p).rating.techniques)
    for key in ("full_house", "hidden_single_box", "naked_single", "pointing", "naked_pair",
                "hidden_pair", "x_wing", "xy_wing"):
        assert key in used, key


def test_uniqueness_techniques_only_on_unique_puzzles():
    two = parse("1..." "..1." ".1.." "...1")  # several solutions
    e = explain(two)
    assert not e.uniqueness and not e.solved
    assert all(not s.uniqueness for s in e.steps)
    for p in HARD[:40]:
        e = explain(p, uniqueness=False)
        assert all(not s.uniqueness for s in e.steps)


def test_explain_never_guesses_and_says_so():
    e = explain(parse("." * 81))
    assert not e.solved and e.steps == ()
    assert "no technique applies" in e.stuck
    assert e.rating.needs_search and e.rating.tier == "diabolical"


def test_contradiction_is_reported():
    no_place = "12.." "...." "..3." "..4."  # A3 has no candidate left
    e = explain(parse(no_place))
    assert e.stuck == "the puzzle has no solution: placing 4 in D3 empties a peer"
    assert runner.invoke(app, ["explain", no_place]).exit_code == 4


def test_rating_ed_ep_er_and_tiers():
    e = explain(parse("3.1...4.2......."))
    r = e.rating
    assert (r.ed, r.ep, r.er, r.tier) == (1.2, 1.2, 1.2, "easy")
    assert tier_of(2.3) == "easy" and tier_of(2.6) == "medium" and tier_of(8.3) == "diabolical"
    assert [length_bonus(n) for n in (4, 6, 8, 12, 16, 24)] == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]


def test_chained_ratings_add_the_length_bonus():
    for p in HARD[:60]:
        for step in explain(p).steps:
            t = TECHNIQUES[step.technique]
            if t.chained:
                assert step.rating == round(t.rating + length_bonus(step.length), 1)
                assert step.length >= 4
            else:
                assert step.rating == t.rating


def test_hint_is_the_first_step():
    puzzle = HARD[0]
    assert hint(puzzle) == explain(puzzle).steps[0]


def test_unknown_technique_is_an_input_error():
    from sudoku_csp.errors import InputError
    with pytest.raises(InputError, match="unknown techniques"):
        explain(HARD[0], techniques=["x_wing", "magic"])


def test_logic_backend_status_and_stats():
    r = LogicBackend().solve(HARD[0], limit=2)
    assert r.status.value == "unique" and r.stats["er"] >= 1.0
    stuck = LogicBackend().solve(parse("." * 16), limit=2)
    assert stuck.status.value == "unknown" and stuck.stats["needs_search"]


# -- CLI ----------------------------------------------------------------------------------------
def line(p: Puzzle) -> str:
    return p.to_line()


def test_cli_explain_text_json_and_exit_codes(tmp_path):
    result = runner.invoke(app, ["explain", line(HARD[5])])
    assert result.exit_code == 0, result.output
    assert "Solved." in result.output and "rating ER=" in result.output
    result = runner.invoke(app, ["explain", line(HARD[5]), "--json"])
    rows = [json.loads(x) for x in result.output.splitlines()]
    assert rows[0]["step"] == 1 and rows[-1]["solved"] is True
    assert runner.invoke(app, ["explain", "." * 81]).exit_code == 5
    assert runner.invoke(app, ["explain", "x" * 81]).exit_code == 6
    assert "x_wing" in runner.invoke(app, ["explain", "--list"]).output


def test_cli_explain_prove_and_html(tmp_path):
    page = tmp_path / "steps.html"
    result = runner.invoke(app, ["explain", line(HARD[7]), "--prove", "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "proved:" in result.output
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_cli_hint():
    result = runner.invoke(app, ["hint", line(HARD[1])])
    assert result.exit_code == 0
    assert result.output.strip() == hint(HARD[1]).text


def test_cli_rate_file_json_and_resume(tmp_path):
    src = tmp_path / "p.txt"
    src.write_text("\n".join(line(p) for p in HARD[:6]) + "\n")
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["rate", str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(result.output.splitlines()) == 6
    records = [json.loads(x) for x in out.read_text().splitlines() if x.startswith("{")]
    assert [r["stats"]["er"] for r in records] == [explain(p).rating.er for p in HARD[:6]]
    again = runner.invoke(app, ["rate", str(src), "--out", str(out), "--resume"])
    assert again.exit_code == 0
    result = runner.invoke(app, ["rate", str(src), "--csv"])
    assert result.output.splitlines()[0].startswith("index,")
