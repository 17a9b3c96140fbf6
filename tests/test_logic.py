"""The explainer: every step sound (checked against the unique solution another backend
finds), the techniques on hand-made positions, the rating, the CLI commands and the SAT
proof of each step."""

from __future__ import annotations

import json
import sys

import pytest
from cases import slow_if
from typer.testing import CliRunner

from sudoku_csp import EMPTY, datasets, get_backend, make_geometry, parse
from sudoku_csp.cli import app
from sudoku_csp.generate import generate
from sudoku_csp.io import to_line
from sudoku_csp.logic import TECHNIQUES, explain, hint, length_bonus, tier_of
from sudoku_csp.logic.backend import LogicBackend
from sudoku_csp.logic.explain import NOT_UNIQUE
from sudoku_csp.logic.prove import UnprovenStepError, prove_steps
from sudoku_csp.logic.step import Step
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status

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
            bad.append(f"{step.technique} on {to_line(puzzle)}: {step.text}")
    if e.solved:
        assert e.grid == truth
    return bad


@pytest.mark.parametrize("chunk", slow_if(range(4), lambda chunk: chunk > 0))
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
SLOW_VARIANTS = {"diagonal", "windoku", "anti-knight"}  # 2 to 7 s each


@pytest.mark.parametrize(("name", "geometry"),
                         slow_if(VARIANT_CASES, lambda case: case[0] in SLOW_VARIANTS),
                         ids=[n for n, _ in VARIANT_CASES])
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
    proof = prove_steps(e)
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
        prove_steps(dataclasses.replace(e, steps=(bogus,)))


SINGLES = ["full_house", "hidden_single_box", "hidden_single_line", "naked_single",
           "pointing", "claiming"]
ISOLATED = ["turbot_fish", "three_strong_links", "four_strong_links", "five_strong_links",
            "six_strong_links", "wxyz_wing", "vwxyz_wing", "uvwxyz_wing", "tuvwxyz_wing"]


@pytest.mark.parametrize("key", slow_if(  # one chain and one wing in the inner loop
    ISOLATED, lambda key: key not in ("turbot_fish", "wxyz_wing")))
def test_each_rarer_technique_alone_after_singles_is_sound_and_fires(key):
    """With only singles before it, a technique meets many more positions than in the full
    ladder (where simpler ones get there first): every step it makes must still be true."""
    used = 0
    for p in HARD[::2]:
        truth = get_backend("sat").solve(p).solution
        for step in explain(p, techniques=[*SINGLES, key]).steps:
            wrong = [(c, d) for c, d in step.placements if truth[c] != d]
            wrong += [(c, d) for c, d in step.eliminations if truth[c] == d]
            assert not wrong, f"{step.technique} on {to_line(p)}: {step.text}"
            used += step.technique == key
    assert used > 0


# Found by explaining puzzles this project's generator made (`generate(count=20, seed=s)`
# for a few hundred seeds): each needs the technique named.
WITNESSES = [
    ("bug_plus_one",
     "..7...132.632..5.........4.........3.9..48.......7..5..2.7.1..4....9.68.9....5..."),
    ("bug_type_2",
     "...34.....5.7.9..3.......6..31........79...5..26..7..4.......2.4....6.18....813.."),
    ("bug_type_2",
     "...3..2.4.9.8....5.384.....3..2.8.59.75.......8..7.1.........72.....6...7.4...93."),
    ("tuvwxyz_wing",
     "5....6.91.8.2..6...623..4...5.14..8.......1...2...3....3.9.8..7..8..7.2........1."),
    ("uvwxyz_wing",
     ".2.4.......875....3.5.26....1.26..5.63.....1..5....9.4.....8.9229.57......63....."),
]


@pytest.mark.parametrize(("key", "line"), WITNESSES)
def test_witness_puzzles_need_their_technique_and_stay_sound(key, line):
    puzzle = parse(line)
    assert key in explain(puzzle).rating.techniques
    assert violations(puzzle) == []


def test_strong_link_kinds_refine_the_rating():
    from sudoku_csp.logic.chains import _kinds_bonus

    row, col, box = {"row"}, {"column"}, {"box"}
    assert _kinds_bonus([row, row]) == 0.0                 # skyscraper
    assert _kinds_bonus([row, col]) == 0.1                 # two-string kite
    assert _kinds_bonus([box, row]) == 0.1                 # turbot fish
    assert _kinds_bonus([box, row, col]) == 0.2            # box and both kinds of line
    assert _kinds_bonus([box | row, row, col]) == 0.1      # the box link read as a row
    assert _kinds_bonus([box | col, row | col, col]) == 0.0


def test_wing_ratings_follow_the_widest_cell():
    from sudoku_csp.logic.wings import _wing_bonus

    assert [_wing_bonus(3, w) for w in (2, 3, 4)] == [0.0, 0.1, 0.0]          # 5.5–5.6
    assert [_wing_bonus(4, w) for w in (2, 3, 4, 5)] == [0.1, 0.2, 0.1, 0.0]  # 6.2–6.4
    assert _wing_bonus(5, 3) == _wing_bonus(6, 4) == 0.0


# -- techniques on positions where each must fire -------------------------------------------
@pytest.mark.slow
def test_harder_techniques_appear_on_hard_puzzles():
    used: set[str] = set()
    for p in HARD[::3]:
        used |= set(explain(p).rating.techniques)
    for key in ("full_house", "hidden_single_box", "naked_single", "pointing", "naked_pair",
                "hidden_pair", "x_wing", "xy_wing"):
        assert key in used, key


@pytest.mark.slow
def test_uniqueness_techniques_only_on_unique_puzzles():
    two = parse("1..." "..1." ".1.." "...1")  # several solutions
    e = explain(two)
    assert not e.uniqueness and not e.solved
    assert all(not s.uniqueness for s in e.steps)
    for p in HARD[:40]:
        e = explain(p, uniqueness=False)
        assert all(not s.uniqueness for s in e.steps)


SINGLES = ["full_house", "naked_single"]


def test_explain_never_guesses_and_says_so():
    e = explain(HARD[0], techniques=SINGLES)  # unique, beyond naked singles
    assert not e.solved and e.verdict is Status.UNIQUE
    assert "no technique applies" in e.stuck
    assert e.rating.needs_search and e.rating.tier == "diabolical"


# -- the verdict first --------------------------------------------------------------------------
MULTIPLE = "1..." "..1." ".1.." "...1"  # four solutions


def test_a_puzzle_with_several_solutions_is_said_so_not_explained():
    e = explain(parse(MULTIPLE))
    assert (e.verdict, e.steps, e.stuck) == (Status.MULTIPLE, (), NOT_UNIQUE)
    assert e.not_unique and not e.solved and not e.no_solution
    assert (e.rating.tier, e.rating.needs_search, e.rating.er) == ("not unique", None, None)
    assert hint(parse(MULTIPLE)) is None
    empty = explain(parse("." * 625))  # an empty 25x25: decided at once, not searched
    assert empty.verdict is Status.MULTIPLE


@pytest.mark.parametrize("command", ["explain", "hint", "rate"])
def test_commands_say_several_solutions_and_exit_3(command):
    result = runner.invoke(app, [command, MULTIPLE])
    assert result.exit_code == 3, result.output
    assert ("more than one solution" in result.output if command != "rate"
            else "not unique" in result.output)


def test_the_rating_record_carries_the_verdict():
    r = LogicBackend().solve(parse(MULTIPLE), limit=2)
    assert r.status is Status.MULTIPLE and len(r.solutions) == 2
    assert r.stats["tier"] == "not unique"
    none = LogicBackend().solve(parse("11" + "." * 14), limit=2)
    assert none.status is Status.NONE and none.stats["tier"] == "no solution"


def test_contradiction_is_reported():
    no_place = "12.." "...." "..3." "..4."  # A3 has no candidate left
    e = explain(parse(no_place))
    assert e.stuck == "the puzzle has no solution: placing 4 in D3 empties a peer"
    assert runner.invoke(app, ["explain", no_place]).exit_code == 4


# No two givens clash, and the techniques find a hidden single before they reach the
# contradiction: a step here would read as progress on a sound puzzle.
NO_SOLUTION_9 = ("4.....8.5.3..........7......2.....6....."
                 "8.4......1.......6.3.7.5..2.....1.4.....9")


@pytest.mark.parametrize("max_steps", [None, 1, 5])
def test_no_step_is_made_on_a_puzzle_without_solution_whatever_the_step_limit(max_steps):
    e = explain(parse(NO_SOLUTION_9), max_steps=max_steps)
    assert (e.verdict, e.steps, e.stuck) == (Status.NONE, (), "the puzzle has no solution")
    assert e.no_solution and not e.solved and e.rating.tier == "no solution"
    assert hint(NO_SOLUTION_9) is None
    rated = LogicBackend().solve(parse(NO_SOLUTION_9), limit=2)
    assert rated.status is Status.NONE and rated.stats["steps"] == 0


@pytest.mark.parametrize("command", ["hint", "explain"])
@pytest.mark.parametrize("as_json", [False, True])
def test_hint_and_explain_say_no_solution_with_the_conflict_and_exit_4(command, as_json):
    result = runner.invoke(app, [command, NO_SOLUTION_9, *(["--json"] if as_json else [])])
    assert result.exit_code == 4, result.output
    assert "Hidden single" not in result.output
    if as_json:
        (record,) = [json.loads(line) for line in result.output.splitlines()]
        assert (record["verdict"], record["solved"]) == ("none", False)
        assert record["stuck"] == "the puzzle has no solution" and record["conflict_minimal"]
        assert "given R1C1=4" in record["conflict"]
    else:
        lines = result.output.splitlines()
        assert lines[0] == "Stopped: the puzzle has no solution."
        assert lines[1].startswith("no solution: these 18 parts conflict: given R1C1=4")


@pytest.mark.parametrize("as_json", [False, True])
def test_rate_gives_a_puzzle_without_solution_its_conflict(as_json):
    from sudoku_csp.io import fpuzzles_url

    result = runner.invoke(app, ["rate", NO_SOLUTION_9, *(["--json"] if as_json else [])])
    assert result.exit_code == 4, result.output
    if as_json:
        record = json.loads(result.output)
        assert record["status"] == "none" and record["conflict_minimal"]
        assert "given R1C1=4" in record["conflict"]
    else:
        fields = result.output.rstrip("\n").split("\t")
        assert fields[2] == "no solution"
        assert fields[3] == "-"   # no step: no hardest one
        assert "no solution: these 18 parts conflict: given R1C1=4" in fields[5]
    # Worked out on the puzzle as read: two 1s a knight's move apart, which only the
    # f-puzzles link's anti-knight rule forbids.
    anti = Puzzle(make_geometry(9, variants=["anti-knight"]),
                  tuple(0 if cell in (2, 13) else EMPTY for cell in range(81)))
    result = runner.invoke(app, ["rate", fpuzzles_url(anti), "--json"])
    assert result.exit_code == 4, result.output
    assert json.loads(result.output)["conflict"] == ["given R1C3=1", "given R2C5=1"]


def test_an_undecided_verdict_gets_no_step(monkeypatch):
    # The count gave no answer (a time limit, or a solver that gave up): the puzzle may have
    # no solution or several, so no step is shown as progress, and the tier is unknown.
    from sudoku_csp.result import Result

    module = sys.modules["sudoku_csp.logic.explain"]  # the package's `explain` is the function

    puzzle = parse("3.1...4.2.......")
    monkeypatch.setattr(module, "verdict_of", lambda p, t=None: Result(
        Status.UNKNOWN, (), {}, 0.0, "sat", "", complete=False, puzzle=p))
    for limit in (None, 1):
        e = explain(puzzle, max_steps=limit)
        assert (e.verdict, e.steps, e.solved) == (Status.UNKNOWN, (), False)
        assert e.stuck == "whether the puzzle has one solution was not decided (the solver " \
                          "gave no answer)"
        assert (e.rating.tier, e.rating.needs_search) == ("unknown", None)
    assert hint(puzzle) is None
    timed = explain(puzzle, time_limit=7)
    assert timed.timed_out and timed.stuck == ("time limit of 7 s reached; whether the "
                                               "puzzle has one solution was not decided")
    for command in ("hint", "explain", "rate"):
        result = runner.invoke(app, [command, "3.1...4.2......."])
        assert result.exit_code == 5 and "Hidden single" not in result.output, result.output
    record = json.loads(runner.invoke(app, ["hint", "3.1...4.2.......", "--json"]).output)
    assert (record["verdict"], record["solved"]) == ("unknown", False)


def test_rating_ed_ep_er_and_tiers():
    e = explain(parse("3.1...4.2......."))
    r = e.rating
    assert (r.ed, r.ep, r.er, r.tier) == (1.2, 1.2, 1.2, "easy")
    assert tier_of(2.3) == "easy" and tier_of(2.6) == "medium" and tier_of(8.3) == "diabolical"
    assert [length_bonus(n) for n in (4, 6, 8, 12, 16, 24)] == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]


@pytest.mark.slow
def test_ratings_are_base_plus_pattern_bonus_plus_length_bonus():
    for p in HARD[:60]:
        for step in explain(p).steps:
            t = TECHNIQUES[step.technique]
            assert 0 <= step.bonus <= 0.3
            extra = length_bonus(step.length) if t.chained else 0.0
            assert step.rating == round(t.rating + step.bonus + extra, 1)
            if t.chained:
                assert step.length >= 4


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
    stuck = LogicBackend(uniqueness="off").solve(HARD[0], limit=2)
    assert stuck.status.value == "unique"  # the whole ladder finishes it
    assert LogicBackend().solve(parse(MULTIPLE), limit=2).status.value == "multiple"


# -- CLI ----------------------------------------------------------------------------------------
def line(p: Puzzle) -> str:
    return to_line(p)


def test_cli_explain_text_json_and_exit_codes(tmp_path):
    result = runner.invoke(app, ["explain", line(HARD[5])])
    assert result.exit_code == 0, result.output
    assert "Solved." in result.output and "rating ER=" in result.output
    result = runner.invoke(app, ["explain", line(HARD[5]), "--json"])
    rows = [json.loads(x) for x in result.output.splitlines()]
    assert rows[0]["step"] == 1 and rows[-1]["solved"] is True
    assert runner.invoke(app, ["explain", "." * 81]).exit_code == 3  # several solutions
    assert runner.invoke(app, ["explain", line(HARD[0]), "--techniques",
                               ",".join(SINGLES)]).exit_code == 5
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


def test_time_limit_stops_between_steps_and_says_so():
    puzzle = HARD[0]
    e = explain(puzzle, time_limit=0)
    assert e.timed_out and not e.solved and not e.no_solution and e.steps == ()
    assert (e.rating.tier, e.rating.needs_search) == ("unknown", None)
    r = LogicBackend().solve(puzzle, limit=2, time_limit=0)
    assert r.status.value == "unknown" and r.message == "time limit of 0 s reached"
    assert r.stats["needs_search"] is None
    out = runner.invoke(app, ["rate", to_line(puzzle), "--time-limit", "0"])
    assert out.exit_code == 5 and "unknown" in out.output
    assert explain(puzzle, time_limit=60).solved


# -- typed constraints (killer cages, thermometers, dots, …) ------------------------------------
def _constrained_cases():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from cases import CONSTRAINED_CASES

    return CONSTRAINED_CASES


@pytest.mark.parametrize("case", slow_if(_constrained_cases(), lambda c: c.name in (
    "killer9-diagonal", "kropki9", "xv9")), ids=lambda c: c.name)  # the slowest, 0.4 to 1.3 s
def test_constrained_puzzles_are_explained_soundly_and_proved(case):
    puzzle = case.puzzle()
    e = explain(puzzle)
    assert not e.uniqueness  # a cage or a dot can forbid a rectangle's swap
    if case.expected.value == "unique":
        assert violations(puzzle) == []
        if e.solved:
            prove_steps(e)
    else:  # no solution or several: never "solved"
        assert not e.solved


def test_killer_steps_name_the_digit_sets_that_fit():
    killer = parse("AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8")
    e = explain(killer)
    assert e.solved and e.rating.techniques["constraint_combination"] >= 3
    first = e.steps[0]
    assert first.technique == "constraint_combination" and first.rating == 2.2
    assert first.text == ("Cage 6 at A3 (A3, B3, B4): only 1/2/3 add up to 6 here → "
                          "eliminates 4 from A3, B3, B4")
    assert runner.invoke(app, ["explain", to_line(killer)]).exit_code == 0


def test_a_grid_that_breaks_a_cage_is_no_solution():
    # Row A would need 1 and 2 in both of its cages.
    assert explain(parse("AABBCCDDEEFFGGHH 3,3,7,7,3,7,7,3")).no_solution
    # A full house would fill the last cell before any cage step looks: the count comes
    # first, so no step is made, and the conflict names the cage.
    broken = "...............A 2 321441321423234."
    e = explain(parse(broken))
    assert e.no_solution and e.steps == ()
    result = runner.invoke(app, ["explain", broken])
    assert result.exit_code == 4 and "cage 2 at R4C4" in result.output, result.output


def test_a_technique_contradicting_a_unique_puzzle_is_an_internal_error(monkeypatch):
    # A full grid that breaks a cage after the steps can only be a technique's bug.
    from sudoku_csp.logic.board import Contradiction
    from sudoku_csp.logic.explain import TechniqueError

    def broken(board):
        raise Contradiction("made up")

    monkeypatch.setattr(sys.modules["sudoku_csp.logic.explain"], "check_constraints", broken)
    with pytest.raises(TechniqueError, match="made up"):
        explain(parse("3.1...4.2......."))


@pytest.mark.parametrize("command", ["explain", "hint", "rate"])
def test_a_time_limit_bounds_every_explaining_command(command):
    # Each has a default bound (cli.explain.DEFAULT_EXPLAIN_SECONDS) and takes --time-limit;
    # past it: tier unknown, exit 5, never a guess.
    result = runner.invoke(app, [command, line(HARD[0]), "--time-limit", "0"])
    assert result.exit_code == 5, result.output
    assert "time limit" in result.output or "unknown" in result.output


def test_hidden_sets_of_a_unit_that_did_not_change_are_not_searched_again(monkeypatch):
    from sudoku_csp.logic import basic
    from sudoku_csp.logic.board import Board

    b = Board.from_puzzle(HARD[1])
    searched = []
    real = basic.hidden_sets
    monkeypatch.setattr(basic, "hidden_sets", lambda *a: searched.append(a) or real(*a))
    basic._unit_hidden.cache_clear()
    first = basic.direct_hidden_pair(b)
    once = len(searched)
    assert basic.direct_hidden_pair(b) == first and once > 0
    assert len(searched) == once                    # the same masks: read, not searched
    before = tuple(b.cand)
    b.apply(TECHNIQUES["hidden_single_box"].find(b))
    changed = sum(get(before) != get(b.cand) for get in b.tables.getters)
    basic.direct_hidden_pair(b)
    assert 0 < len(searched) - once <= changed < once   # only the units that changed
