"""Variant-aware logic (sudoku_csp.logic.constraints): each kind words its own deductions,
the three constraint techniques carry their ratings, the chains and forcing chains use the
weak links the constraints imply, and every step stays sound: checked against the unique
solution on the repository's constrained puzzles, generated ones of every kind and (slow)
the dev f-puzzles corpus, and proved by SAT."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from cases import CONSTRAINED_CASES, published, slow_if

from sudoku_csp import EMPTY, get_backend, make_geometry, parse
from sudoku_csp.constraints import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Clone,
    Dots,
    DoubleArrow,
    EntropicLine,
    ExtraRegion,
    Indexer,
    Kropki,
    LittleKiller,
    LockoutLine,
    MinMax,
    ModularLine,
    Nabner,
    NonConsecutive,
    Palindrome,
    Parity,
    Quadruple,
    RegionSumLine,
    Renban,
    Sandwich,
    Skyscraper,
    SlowThermo,
    Thermo,
    Whispers,
    XSum,
    ZipperLine,
    makers,
)
from sudoku_csp.errors import ReaderNote
from sudoku_csp.generate import NoGridError
from sudoku_csp.generate.kinds import generate_variants
from sudoku_csp.geometry import Geometry
from sudoku_csp.io import to_line
from sudoku_csp.logic import TECHNIQUES, chains, explain
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import weak_links
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.puzzle import Puzzle

NINE, FOUR = make_geometry(9), make_geometry(4)
ROOT = Path(__file__).resolve().parents[1]


def board(*constraints, geometry: Geometry = NINE, **givens: int) -> Board:
    """The pencil marks of a grid holding ``constraints`` and ``givens`` (``A1=5``)."""
    grid = [EMPTY] * geometry.ncells
    for label, value in givens.items():
        grid[(ord(label[0]) - ord("A")) * geometry.size + int(label[1:]) - 1] = value - 1
    return Board.from_puzzle(Puzzle(geometry, tuple(grid), constraints=constraints))


def marked(b: Board, **masks: int) -> Board:
    """``b`` with some cells' pencil marks narrowed (``A1=0b11``: 1 or 2)."""
    for label, mask in masks.items():
        b.cand[(ord(label[0]) - ord("A")) * b.size + int(label[1:]) - 1] = mask
    return b


def texts(b: Board, technique: str, most: int = 20) -> list[str]:
    """The words of the steps ``technique`` makes on ``b``, one after another."""
    found = []
    for _ in range(most):
        step = TECHNIQUES[technique].find(b)
        if step is None:
            break
        found.append(step.text)
        b.apply(step)
    return found


# -- each kind in its own words -----------------------------------------------------------------
ROW = tuple(range(9))
WORDED = [
    # (what, the board, the technique, words one of its steps must say)
    ("whispers", lambda: board(Whispers((0, 1, 2), 5)), "constraint",
     "A1 and A2 differ by at least 5: 5 in A1 has no partner at all"),
    ("kropki", lambda: board(Kropki(((0, 1),), (), False), A1=5), "constraint",
     "Kropki dots: A1 and A2 are consecutive: 1/2/3/7/8/9 in A2 have no partner among A1's 5"),
    ("xv", lambda: board(XV((), ((0, 1),), False)), "constraint",
     "A1 and A2 add up to 5: 5/6/7/8/9 in A1 have no partner at all"),
    ("dots", lambda: board(Dots(difference=((0, 1, 5),))), "constraint",
     "A1 and A2 differ by 5: 5 in A1 has no partner at all"),
    ("non-consecutive", lambda: board(NonConsecutive(), A1=5), "constraint",
     "A1 and A2 are not consecutive: 4/6 in A2 have no partner among A1's 5"),
    ("nabner", lambda: board(Nabner((0, 1)), A1=5), "constraint",
     "A1 and A2 differ by at least 2: 4/6 in A2 have no partner among A1's 5"),
    ("entropic", lambda: board(EntropicLine((0, 1, 2)), A1=1), "constraint",
     "A1 and A2 lie in different thirds of 1..9: 2/3 in A2 have no partner among A1's 1"),
    ("modular", lambda: board(ModularLine((0, 1, 2), 3), A1=1), "constraint",
     "A1 and A2 leave different remainders mod 3: 4/7 in A2 have no partner"),
    ("palindrome", lambda: board(Palindrome((2, 3, 13)), A3=1), "constraint",
     "A3 and B5 are equal: 2/3/4/5/6/7/8/9 in B5 have no partner among A3's 1"),
    ("clone", lambda: board(Clone((0,), (40,)), A1=3), "constraint",
     "A1 and E5 are equal: 1/2/4/5/6/7/8/9 in E5 have no partner among A1's 3"),
    ("indexer", lambda: board(Indexer("column", (0,)), A2=5), "constraint",
     "A1 holding 2 puts 1 in A2: 2 in A1 has no partner among A2's 5"),
    ("min/max", lambda: board(MinMax((0,), ())), "constraint",
     "A1 is less than A2: 9 in A1 has no partner at all"),
    ("thermometer", lambda: board(Thermo((0, 1, 2))), "constraint",
     "values increase from the bulb: A1 below A2 (at most 8)"),
    ("slow thermometer", lambda: board(SlowThermo((0, 10, 20)), A1=5), "constraint",
     "values never decrease from the bulb: B2 not below A1 (at least 5)"),
    ("odd", lambda: board(Parity((0,), ())), "constraint", "A1 is odd → eliminates 2/4/6/8"),
    ("between", lambda: board(BetweenLine((0, 1, 2)), A1=3), "constraint",
     "A2 lies strictly between the ends A1 (3) and A3 (1/2/4/5/6/7/8/9)"),
    ("lockout", lambda: board(LockoutLine((0, 1, 2))), "constraint",
     "differ by at least 4, and A2 lies outside the range between them"),
    ("extra region", lambda: board(ExtraRegion((0, 40, 80)), A1=1), "constraint",
     "its cells hold different digits: E5 keeps 2/3/4/5/6/7/8/9"),
    ("cage", lambda: board(Cage((0, 1), 3)), "constraint_combination",
     "only 1/2 add up to 3 here"),
    ("arrow", lambda: board(Arrow((0,), ((0, 1, 2, 3),))), "constraint_combination",
     "A2+A3+A4 = A1, at least 1+1+1 = 3, at most 9: A2 at most 9 − 1 − 1 = 7"),
    ("little killer", lambda: board(LittleKiller((1, 9), "down-left", 3)),
     "constraint_combination", "A2+B1 = 3: A2 at most 3 − 1 = 2; B1 at most 3 − 1 = 2"),
    ("double arrow", lambda: board(DoubleArrow((0, 1, 2))), "constraint_combination",
     "A1+A3 = A2, at least 1+1 = 2"),
    ("zipper", lambda: board(ZipperLine((0, 1, 2))), "constraint_combination",
     "A1+A3 = A2, at least 1+1 = 2"),
    ("region sum", lambda: board(RegionSumLine((1, 2, 3))), "constraint_combination",
     "A2+A3 = A4, at least 1+1 = 2"),
    # No cell can be 5 or 9: of the runs of 4, only 1..4 is left.
    ("renban", lambda: marked(board(Renban((0, 1, 2, 3))), A1=0xEF, A2=0xEF, A3=0xEF,
                              A4=0xEF),
     "constraint_combination", "its 4 digits are a run of 4: 1..4, each holding 1/2/3/4 → "
     "eliminates 6/7/8 from A1, A2, A3, A4"),
    ("sandwich", lambda: board(Sandwich(ROW, "right", 35)), "constraint_combination",
     "the cells between the 1 and the 9 add up to 35: 7 cells (2+3+4+5+6+7+8) → "
     "eliminates 1/9 from A2, A3, A4, A5, A6, A7, A8; 2/3/4/5/6/7/8 from A1, A9"),
    ("X-sum", lambda: board(XSum(ROW, "right", 6)), "constraint_combination",
     "the first X cells add up to 6, X the first of them: 2+4, 3+1+2 → eliminates"),
    ("skyscraper", lambda: board(Skyscraper(ROW, "right", 1)), "constraint_combination",
     "1 seen, so the 9 stands in the first cell: A1 keeps 9"),
    ("quadruple", lambda: board(Quadruple((0, 1, 9, 10), (1, 2, 3, 4))),
     "constraint_combination", "its four cells hold 1, 2, 3, 4: A1 keeps 1/2/3/4"),
    ("arrow in a row", lambda: board(Arrow((0,), ((0, 1, 2, 3),))), "constraint_units",
     "whose cells all see each other (so differ): A2+A3+A4 = A1, at least 1+2+3 = 6"),
    ("45 rule", lambda: board(Cage((0, 1), 3), geometry=FOUR), "constraint_units",
     "The 45 rule: A3+A4 = 7 (different digits) → eliminates 1/2 from A3, A4"),
]


@pytest.mark.parametrize(("what", "make", "technique", "words"), WORDED,
                         ids=[w[0] for w in WORDED])
def test_each_kind_words_its_deductions(what, make, technique, words):
    b = make()
    if technique == "constraint_units":  # the constraints' own steps come first
        for earlier in ("constraint", "constraint_combination"):
            texts(b, earlier)
    said = texts(b, technique)
    assert any(words in text for text in said), said


def test_the_three_constraint_techniques_carry_their_ratings():
    ratings = {key: TECHNIQUES[key].rating for key in
               ("constraint", "constraint_combination", "constraint_units")}
    assert ratings == {"constraint": 2.0, "constraint_combination": 2.2,
                       "constraint_units": 2.6}
    keys = list(TECHNIQUES)
    assert keys.index("constraint") < keys.index("constraint_combination") < keys.index(
        "naked_single") < keys.index("constraint_units") < keys.index("pointing")
    killer = explain(parse("AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8"))
    used = {s.technique: s.rating for s in killer.steps if s.technique.startswith("constr")}
    assert used == {"constraint_combination": 2.2}


# -- weak links ----------------------------------------------------------------------------------
def test_weak_links_come_from_the_constraints_links():
    cage = weak_links(board(Cage((0, 10), 17)))   # A1 + B2 = 17: 8 and 9
    # A1=8: B2 none of 1..7; and the cage must hold 9, so no cell that sees both is 9
    assert set(cage[(0, 7)]) == {(10, d) for d in range(7)} | {
        (c, 8) for c in (1, 2, 9, 11, 18, 19, 20)}
    assert cage[(0, 7)][(10, 0)] == "cage 17 at A1"
    assert (10, 7) not in cage[(0, 7)]   # one digit in two peers: the box links them
    whispers = weak_links(board(Whispers((0, 10), 5)))
    assert set(whispers[(0, 0)]) == {(10, d) for d in range(1, 5)}   # A1=1: B2 is 6..9
    clone = weak_links(board(Clone((0,), (40,))))
    assert set(clone[(0, 2)]) == {(40, d) for d in range(9) if d != 2}
    assert weak_links(board()) == {}


def test_an_xy_chain_uses_a_cage_weak_link():
    # A1 and E5 share no unit, but a cage without a sum forbids them one digit: with both
    # 1 or 2, one of them is 1, so A5 and E1 (which see both) are not.
    step = chains.xy_chain(marked(board(Cage((0, 40))), A1=0b11, E5=0b11))
    assert step is not None and "(weak links of cage at A1)" in step.text
    assert set(step.eliminations) <= {(4, 0), (4, 1), (36, 0), (36, 1)}
    assert chains.xy_chain(marked(board(), A1=0b11, E5=0b11)) is None   # no cage, no chain


def test_a_puzzle_needs_a_constraint_weak_link(monkeypatch):
    case = next(c for c in CONSTRAINED_CASES if c.name == "kropki4")
    puzzle = case.puzzle()
    # Without the techniques that read weak links beside a unit or a cell (pointing and
    # cell forcing through the rules, which finish this one first), a chain needs them.
    chained = [k for k in TECHNIQUES if not k.startswith("rule_")]
    e = explain(puzzle, techniques=chained)
    assert e.solved
    i = next(i for i, s in enumerate(e.steps) if "weak links of kropki dots" in s.text)
    b = Board.from_puzzle(puzzle)
    for step in e.steps[:i]:
        b.apply(step)
    find = TECHNIQUES[e.steps[i].technique].find
    found = find(b.copy())
    assert found is not None and found.text == e.steps[i].text
    monkeypatch.setattr(chains, "weak_links", lambda board: {})
    without = find(b.copy())
    assert without is None or not set(found.eliminations) <= set(without.eliminations)


# -- soundness -----------------------------------------------------------------------------------
def unsound(puzzle: Puzzle, prove: bool = False) -> list[str]:
    """Every step that places a wrong digit or removes the true one; the steps are proved
    by SAT too when ``prove``."""
    counted = get_backend("sat").solve(puzzle, limit=2)
    assert counted.count == 1
    truth = counted.solution
    e = explain(puzzle)
    bad = [f"{s.technique} on {to_line(puzzle)}: {s.text}" for s in e.steps
           if any(truth[c] != d for c, d in s.placements)
           or any(truth[c] == d for c, d in s.eliminations)]
    if e.solved:
        assert e.grid == truth
    if prove and not bad:
        prove_steps(e)
    return bad


UNIQUE_CASES = [c for c in CONSTRAINED_CASES if c.expected.value == "unique"]


@pytest.mark.parametrize("case", slow_if(UNIQUE_CASES, lambda c: c.name in (
    "killer9-diagonal", "xv9")), ids=lambda c: c.name)   # 1.5 and 3 s
def test_every_step_is_sound_on_the_constrained_cases(case):
    assert unsound(case.puzzle()) == []


def _fixtures() -> list[dict]:
    lines = (ROOT / "tests" / "fpuzzles_fixtures.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in lines.splitlines() if line.strip()]


def _fpuzzle(entry: dict) -> Puzzle:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        return parse(json.dumps(entry["fpuzzles"]) if "fpuzzles" in entry else entry["url"])


@pytest.mark.parametrize("entry", slow_if(_fixtures(), lambda e: e["fpuzzles"]["size"] > 9),
                         ids=lambda e: f"{e['fpuzzles']['size']}x{e['fpuzzles']['size']}")
def test_every_step_is_sound_and_proved_on_the_fpuzzles_fixtures(entry):
    # The 16x16 one stops short (about 10 s): its steps so far are checked.
    assert unsound(_fpuzzle(entry), prove=True) == []


SLOW_SIX = {"arrow", "double-arrow", "between-line", "nabner", "indexer", "kropki",
            "whispers"}   # 0.4 to 4 s each on 6x6


@pytest.mark.parametrize(("size", "kind"), [
    *((4, k) for k in makers() if k != "nonconsecutive"),   # no 4x4 grid is non-consecutive
    *slow_if([(6, k) for k in makers()], lambda v: v[1] in SLOW_SIX)])
def test_every_step_is_sound_on_generated_puzzles_of_every_kind(size, kind):
    try:
        puzzle = next(generate_variants(make_geometry(size), kinds=[kind], seed=1))
    except NoGridError:
        pytest.skip(f"no {size}x{size} grid keeps {kind}")
    assert unsound(puzzle, prove=True) == []


@pytest.mark.slow   # about a minute for the 14, each explained to its end (20 s the longest)
@pytest.mark.parametrize("entry", published(), ids=lambda e: e["title"][:30])
def test_no_step_is_unsound_on_published_puzzles(entry):
    puzzle = _fpuzzle(entry)
    if get_backend("sat").solve(puzzle, limit=2).count != 1:
        pytest.skip("no unique solution as read (rules left in decoration)")
    assert unsound(puzzle) == []
