"""The techniques that read the variant rules beyond one constraint's own link, each on a
small position where it fires, in its own words, sound: houses a rule must fill (hidden
singles, pointing, fish and naked subsets through the rules, cell forcing), a constraint read
with its units and two read together (and the fillings it carries), and the dynamic forcing
chains (+); what a technique carries from one step to the next and what a position's
techniques share; the hardest step of a rating; and, as a property, every step on generated
puzzles proved by SAT."""

from __future__ import annotations

import dataclasses
import json
import warnings

import pytest
from cases import CASES, JIGSAW_MAP, published
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_csp import EMPTY, datasets, get_backend, make_geometry, parse
from sudoku_csp.constraints import Cage, LittleKiller, Sandwich, Thermo, Whispers, makers
from sudoku_csp.errors import ReaderNote
from sudoku_csp.generate import NoGridError
from sudoku_csp.generate.kinds import generate_variants
from sudoku_csp.geometry import Geometry
from sudoku_csp.logic import (
    TECHNIQUES,
    chains,
    closures,
    exact,
    explain,
    fish,
    forcing,
    houses,
    leftovers,
    trials,
)
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import links_of
from sudoku_csp.logic.prove import prove_steps
from sudoku_csp.native.rules import RULES, propagate
from sudoku_csp.puzzle import Puzzle

NINE = make_geometry(9)
KNIGHT = make_geometry(9, variants=["anti-knight"])
ROW = tuple(range(9))
ALL = (1 << 9) - 1


def cell(label: str, size: int = 9) -> int:
    return (ord(label[0]) - ord("A")) * size + int(label[1:]) - 1


def board(*constraints, geometry: Geometry = NINE, **givens: int) -> Board:
    """The pencil marks of a grid holding ``constraints`` and ``givens`` (``A1=5``)."""
    grid = [EMPTY] * geometry.ncells
    for label, value in givens.items():
        grid[cell(label, geometry.size)] = value - 1
    return Board.from_puzzle(Puzzle(geometry, tuple(grid), constraints=constraints))


def without(b: Board, digit: int, *labels: str) -> Board:
    """``b`` with ``digit`` (shown value) taken out of the cells named."""
    for label in labels:
        b.cand[cell(label)] &= ~(1 << (digit - 1))
    return b


def run_to_fixpoint(b: Board, *keys: str) -> None:
    """Apply the steps of the techniques named until none of them finds one."""
    for key in keys:
        while (step := TECHNIQUES[key].find(b)) is not None:
            b.apply(step)


# -- houses ------------------------------------------------------------------------------------
DIAGONAL = tuple(range(0, 81, 10))   # A1, B2, …, I9: a cage with no sum over nine cells


def test_a_cage_of_nine_cells_is_a_house_and_gets_its_hidden_single():
    b = without(board(Cage(DIAGONAL)), 1, "A1", "B2", "C3", "D4", "F6", "G7", "H8", "I9")
    found = [h for h in houses.houses(b) if h.unit is None]
    assert [(h.cells, h.digits) for h in found] == [(DIAGONAL, ALL)]
    step = houses.rule_hidden_single(b)
    assert step is not None and step.placements == ((cell("E5"), 0),)
    assert step.text == ("Hidden single: Cage at A1 must hold a 1 (its cells hold different "
                         "digits), which only E5 can take → E5")
    assert houses.rule_hidden_single(board(Cage(DIAGONAL))) is None   # nine places each


def test_a_cage_with_a_sum_must_hold_what_every_set_of_it_holds():
    b = board(Cage((cell("A1"), cell("B1")), 17))   # 8 + 9
    (cage,) = [h for h in houses.houses(b) if h.name == "cage 17 at A1"]
    assert cage.digits == 0b110000000 and "cannot be met without it" in cage.why


def test_pointing_through_a_knights_move():
    # 1 in row A only in A1 and A5, which share no box: B3 sees A1 (box 1) and A5 (a
    # knight's move), so it is not 1. Plain claiming cannot see it.
    b = without(board(geometry=KNIGHT), 1, "A2", "A3", "A4", "A6", "A7", "A8", "A9")
    assert TECHNIQUES["claiming"].find(b) is None
    step = houses.rule_pointing(b)
    assert step is not None and step.eliminations == ((cell("B3"), 0),)
    assert step.text == ("Pointing through the rules: 1 in row A lies in A1, A5; each of them "
                         "rules out 1 in B3 (a knight's move) → eliminates 1 from B3")
    assert step.rating == 0.0 and TECHNIQUES["rule_pointing"].rate(step) == 2.9
    assert houses.rule_pointing(without(board(), 1, "A2", "A3", "A4", "A6", "A7", "A8",
                                        "A9")) is None   # no knight: nothing to see


def test_pointing_from_a_digit_a_cage_must_hold():
    # Cage 17 at A1, A2 holds an 8 and a 9: the 8 is in one of them, so not elsewhere in
    # row A or box 1.
    b = board(Cage((cell("A1"), cell("A2")), 17))
    run_to_fixpoint(b, "constraint_combination")
    step = houses.rule_pointing(b)
    assert step is not None
    assert "Cage 17 at A1 must hold an 8 (its cells hold different digits), which only A1, " \
           "A2 can take" in step.text


def test_cell_forcing_through_a_whispers_line():
    # A1 is 1 or 9; on a whispers line A2 then differs from it by at least 5: 5 in A2 is
    # ruled out either way.
    b = board(Whispers((cell("A1"), cell("A2")), 5))
    b.cand[cell("A1")] = 0b100000001
    step = houses.rule_cell_forcing(b)
    assert step is not None and (cell("A2"), 4) in step.eliminations
    assert step.text.startswith("Cell forcing: whichever of 1/9 A1 holds rules out ")
    assert "whispers" in step.text
    assert houses.rule_cell_forcing(board()) is None   # no constraint, no weak link


def test_a_naked_pair_through_a_knights_move():
    b = board(geometry=KNIGHT)
    b.cand[cell("A1")] = b.cand[cell("A5")] = 0b11
    step = houses.rule_subset(2)(b)
    assert step is not None
    assert {(cell("B3"), 0), (cell("B3"), 1)} <= set(step.eliminations)
    assert step.text.startswith("Naked pair through the rules: A1, A5 hold 1/2 in row A")


def test_a_fish_through_a_knights_move():
    # 1 in row A only in A1, A5; in row C only in C2, C7. A1 and C2 are a knight's move
    # apart, so the pairs left are A1+C7, A5+C2, A5+C7: B5 sees A5 and is a knight's move
    # from C7, B7 sees C7 and is a knight's move from A5, D5 likewise. Pointing in one row
    # sees only B3; an X-wing needs the same columns.
    b = without(board(geometry=KNIGHT), 1, "A2", "A3", "A4", "A6", "A7", "A8", "A9")
    without(b, 1, "C1", "C3", "C4", "C5", "C6", "C8", "C9")
    pointing = houses.rule_pointing(b)
    assert pointing is not None and pointing.eliminations == ((cell("B3"), 0),)
    b.apply(pointing)
    assert TECHNIQUES["x_wing"].find(b) is None
    step = fish.rule_fish(b)
    assert step is not None
    assert step.eliminations == tuple((cell(x), 0) for x in ("B5", "B7", "D5"))
    assert step.text == ("Fish through the rules: 1 must stand in row A in A1, A5 and in row "
                         "C in C2, C7, never in two places that rule each other out, so in "
                         "A1+C7, A5+C2 or A5+C7; whichever holds it rules out 1 in B5, B7, D5 "
                         "(a knight's move) → eliminates 1 from B5, B7, D5")
    assert TECHNIQUES["rule_fish"].rate(step) == 3.3
    plain = without(board(), 1, "A2", "A3", "A4", "A6", "A7", "A8", "A9")
    assert fish.rule_fish(without(plain, 1, "C1", "C3", "C4", "C5", "C6", "C8",
                                    "C9")) is None   # no knight: nothing rules a pair out


def test_a_fish_of_two_cages():
    # Two cages that must each hold a 1, with two places each, one pair of which share a
    # column: the 1 stands in one of the two crossing pairs, so the columns lose it.
    top, bottom = (cell("C4"), cell("D3")), (cell("F3"), cell("G4"))
    b = board(Cage(top, 12), Cage(bottom, 10))
    for label in ("C4", "D3", "F3", "G4"):
        b.cand[cell(label)] = 0b11
    step = fish.rule_fish(b)
    assert step is not None and step.text.startswith(
        "Fish through the rules: 1 must stand in cage 12 at C4 in C4, D3 and in cage 10 at "
        "F3 in F3, G4")
    assert {(cell("A3"), 0), (cell("E4"), 0)} <= set(step.eliminations)


def test_a_fish_of_three_rows_through_knights_moves():
    # 1 in row C only in C2, C7, C9; in row E in E1, E4, E9; in row F in F2, F5, F8. Knight's
    # moves and the boxes rule out 17 of the 27 triples; each of the ten left has a place
    # that rules out D7 and D9 (C7 and C9 in their columns or a knight's move away, E9 and
    # F8 in their box). No two of the rows, nor one row, show anything on their own.
    b = without(board(geometry=KNIGHT), 1, "C1", "C3", "C4", "C5", "C6", "C8")
    without(b, 1, "E2", "E3", "E5", "E6", "E7", "E8", "F1", "F3", "F4", "F6", "F7", "F9")
    for key in ("pointing", "claiming", "rule_pointing", "x_wing", "rule_fish", "swordfish"):
        assert TECHNIQUES[key].find(b) is None, key
    step = fish.rule_fish3(b)
    assert step is not None
    assert step.eliminations == ((cell("D7"), 0), (cell("D9"), 0))
    assert step.text == (
        "Fish through the rules (three houses): 1 must stand in row C in C2, C7, C9, in row "
        "E in E1, E4, E9 and in row F in F2, F5, F8, never in two places that rule each "
        "other out, so in C2+E4+F8, C2+E9+F5, C7+E1+F5, C7+E1+F8, C7+E4+F8, C7+E9+F2, "
        "C7+E9+F5, C9+E1+F5, C9+E1+F8 or C9+E4+F8; whichever holds it rules out 1 in D7, D9 "
        "(a knight's move) → eliminates 1 from D7, D9")
    assert TECHNIQUES["rule_fish3"].rate(step) == 4.2   # nine places: +0.3
    assert len(step.marks) == 9 and step.links   # the picture: the places, the links
    keys = list(TECHNIQUES)
    assert keys.index("rule_fish") < keys.index("swordfish") < keys.index("rule_fish3")


def test_no_fish_of_three_houses_on_the_plain_grid():
    # A swordfish on 1 in rows A, E, I (columns 1, 5, 9): the plain grid's own technique,
    # rated as Sudoku Explainer rates it, is never read as a fish through the rules.
    b = board()
    for row in "AEI":
        without(b, 1, *(f"{row}{k}" for k in (2, 3, 4, 6, 7, 8)))
    for row in "AE":
        without(b, 1, f"{row}9")
    without(b, 1, "I1")
    assert TECHNIQUES["swordfish"].find(b) is not None
    assert fish.rule_fish3(b) is None


@pytest.mark.slow   # the case explained and every step proved: about 2 s
def test_the_anti_knight_case_uses_a_fish_of_three_houses_and_is_proved():
    case = next(c for c in CASES if c.name == "anti-knight")
    e = explain(case.puzzle())
    assert e.solved and e.rating.techniques.get("rule_fish3", 0) > 0
    prove_steps(e)
    solution = e.grid
    for step in e.steps:
        if step.technique == "rule_fish3":
            assert all(solution[c] != d for c, d in step.eliminations)


def test_the_diagonal_case_needs_a_fish_through_the_rules_and_is_proved():
    case = next(c for c in CASES if c.name == "diagonal")
    e = explain(case.puzzle())
    assert e.solved and e.rating.techniques.get("rule_fish", 0) > 0
    prove_steps(e)


# -- the law of leftovers -------------------------------------------------------------------
def test_the_law_of_leftovers_on_a_jigsaw():
    # Columns 1-3 hold regions 1, 4 and 7 but for C3, F3, I3, and those regions stick out
    # into A4, D4, G4: the two trios hold the same digits. No 9 among A4, D4, G4: none
    # among C3, F3, I3.
    jigsaw = make_geometry(9, regions=JIGSAW_MAP)
    b = without(board(geometry=jigsaw), 9, "A4", "D4", "G4")
    step = leftovers.leftovers(b)
    assert step is not None
    assert step.eliminations == tuple((cell(x), 8) for x in ("C3", "F3", "I3"))
    assert step.text == ("Law of leftovers: columns 1, 2, 3 and regions 1, 4, 7 hold the same "
                         "digits, so C3, F3, I3 (in the columns, not the regions) hold what "
                         "A4, D4, G4 (in the regions, not the columns) hold → eliminates 9 "
                         "from C3, F3, I3")
    assert TECHNIQUES["leftovers"].rate(step) == 3.0   # a band of three lines
    assert leftovers.leftovers(without(board(), 9, "A4", "D4", "G4")) is None   # boxes


def test_the_jigsaw_case_is_explained_soundly_and_proved():
    case = next(c for c in CASES if c.name == "jigsaw")
    e = explain(case.puzzle())
    assert e.solved
    prove_steps(e)


# -- a constraint read exactly, two read together ---------------------------------------------
def test_a_little_killer_read_with_different_digits():
    # A4+B3+C2+D1 = 6: with repeats 1+1+1+3 would do anywhere; but B3 and C2 share box 1, so
    # they take 1+2 (and A4, D1 the other 1+2) or 1+3 (and A4 = D1 = 1): no 3 on the ends.
    # The little killers' joint link reads the diagonal by box segments (constraint_units);
    # nothing is left for the exact reading.
    clue = LittleKiller(tuple(cell(x) for x in ("A4", "B3", "C2", "D1")), "down-left", 6)
    b = board(clue)
    run_to_fixpoint(b, "constraint", "constraint_combination")
    assert all(b.cand[cell(x)] >> 2 & 1 for x in ("A4", "D1"))   # 3 kept so far
    step = TECHNIQUES["constraint_units"].find(b)
    assert step is not None
    assert set(step.eliminations) == {(cell("A4"), 2), (cell("D1"), 2)}
    assert "whose cells that see each other differ (B3/C2)" in step.text
    b.apply(step)
    assert exact.constraint_exact(b) is None


def test_a_cage_and_a_thermometer_read_together():
    b = board(Cage((0, 1, 2), 15), Thermo((0, 1, 2)))
    run_to_fixpoint(b, "constraint", "constraint_combination", "constraint_units",
                    "constraint_exact")
    step = exact.constraint_overlap(b)
    assert step is not None and (0, 6) in step.eliminations   # A1 = 7 leaves 8 for two more
    assert step.text.startswith("Cage 15 at A1 (A1, A2, A3) and Thermometer at A1 (A1, A2, "
                                "A3) share cells: no way to keep both uses these")


def test_the_exact_search_gives_up_rather_than_guess():
    b = board(Sandwich(ROW, "right", 20))
    (own,) = links_of(NINE, b.constraints[0])
    masks = tuple(b.cand[c] for c in ROW)
    assert exact.supports(NINE, (own,), ROW, masks, budget=5) is None
    kept, _ = exact.supports(NINE, (own,), ROW, masks)
    assert all(k == m for k, m in zip(kept, masks, strict=True))   # anything goes, empty


def test_the_fillings_found_show_their_candidates_again_without_a_search():
    # A filling keeps the rules whatever the pencil marks: while its digits remain, the
    # candidates it holds need no search (a budget of no node at all suffices).
    b = board(Sandwich(ROW, "right", 9), A1=1, A5=9)
    (own,) = links_of(NINE, b.constraints[0])
    masks = tuple(b.cand[c] for c in ROW)
    kept, shown = exact.supports(NINE, (own,), ROW, masks)
    assert kept != masks and len(shown) > 1
    assert exact.supports(NINE, (own,), ROW, kept, budget=0) is None
    assert exact.supports(NINE, (own,), ROW, kept, budget=0, known=shown) == (kept, shown)
    # A2 loses its 2: the fillings with a 2 there no longer count, and what they alone
    # showed is searched for again.
    fewer = (kept[0], kept[1] & ~0b10, *kept[2:])
    again = exact.supports(NINE, (own,), ROW, fewer, known=shown)
    assert again is not None and again[0] == exact.supports(NINE, (own,), ROW, fewer)[0]
    assert all(f[1] != 0b10 for f in again[1])


# -- forcing chains: what is carried, what is shared ------------------------------------------
HARD = datasets.load("mixed9")
SINGLES = ["full_house", "hidden_single_box", "hidden_single_line", "naked_single"]


def _after(puzzle: Puzzle, keys: list[str], steps: int) -> Board:
    b = Board.from_puzzle(puzzle)
    for step in explain(puzzle, techniques=keys, max_steps=steps).steps:
        b.apply(step)
    return b


def test_dynamic_forcing_chains_carry_their_contradictions(monkeypatch):
    puzzle = HARD[3]
    truth = get_backend("sat").solve(puzzle).solution
    b = _after(puzzle, SINGLES, 40)
    first = trials.dynamic_forcing_chain(b)
    assert first is not None and b.carried[trials._KEY]
    b.apply(first)
    tried = []
    real = trials.outcome
    monkeypatch.setattr(trials, "outcome", lambda *a: tried.append(a) or real(*a))
    second = trials.dynamic_forcing_chain(b)
    assert second is not None and tried == []     # worded from what was carried
    for step in (first, second):
        assert all(truth[c] != d for c, d in step.eliminations)
        assert all(truth[c] == d for c, d in step.placements)


def test_the_static_forcing_chains_share_their_suppositions(monkeypatch):
    b = _after(HARD[3], SINGLES, 40)
    runs = []
    real = forcing.Reasoner.run
    monkeypatch.setattr(forcing.Reasoner, "run", lambda self, h: runs.append(h) or real(self, h))
    closed = []
    masks = forcing.static_closures
    monkeypatch.setattr(forcing, "static_closures", lambda *a: closed.append(a) or masks(*a))
    forcing.forcing_chain(b)
    once = len(runs)
    forcing.static_cell_region(b)
    assert once > 0 and len(runs) == once        # the second read the first's
    assert len(closed) == 1 and len({tuple(h) for h in runs}) == len(runs)   # each once


def test_dynamic_forcing_chains_plus_reach_past_singles_and_stay_sound():
    puzzle = HARD[0]
    keys = [*SINGLES, "forcing_chain_plus"]
    e = explain(puzzle, techniques=keys, max_steps=60)
    plus = [s for s in e.steps if s.technique == "forcing_chain_plus"]
    assert plus and all(s.rating >= 9.0 for s in plus)
    assert plus[0].text.startswith("Forcing chain (+): ")
    assert " leads to a contradiction in " in plus[0].text
    truth = get_backend("sat").solve(puzzle).solution
    assert all(truth[c] != d for s in e.steps for c, d in s.eliminations)
    prove_steps(e)


def test_a_plus_chain_the_replay_cannot_word_is_passed_over(monkeypatch):
    # Were the first suppositions found beyond the techniques' wording, the next ones are
    # worded: the chain is not given up while some contradiction can be said.
    b = _after(HARD[0], SINGLES, 200)
    real, calls = trials._replay, []

    def failing_first(board, cell, digit):
        calls.append((cell, digit))
        return None if len(calls) <= trials.WORDED else real(board, cell, digit)

    monkeypatch.setattr(trials, "_replay", failing_first)
    step = trials.forcing_chain_plus(b)
    assert len(calls) > trials.WORDED and step is not None
    truth = get_backend("sat").solve(HARD[0]).solution
    assert all(truth[c] != d for c, d in step.eliminations)


# -- the rating names its hardest step --------------------------------------------------------
def test_the_rating_names_the_step_that_set_it():
    e = explain(parse("48.3............71.2.......7.5....6....2..8.............1.76...3.....4."
                      ".....5...."))
    r = e.rating
    assert (r.er, r.hardest, r.hardest_step) == (5.5, "wxyz_wing", 31)
    assert r.hardest_text == e.steps[30].text
    assert {"hardest", "hardest_step", "hardest_text"} <= r.as_dict().keys()


# -- every step of every technique, proved -------------------------------------------------------
KINDS = sorted(k for k in makers() if k != "nonconsecutive")   # no 4x4 grid is one


@pytest.mark.slow   # a dozen puzzles explained and proved: about 10 s
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10_000))
def test_every_step_on_generated_puzzles_is_proved(kind, seed):
    try:
        puzzle = next(generate_variants(make_geometry(4), kinds=[kind], seed=seed))
    except (NoGridError, StopIteration):
        return
    e = explain(puzzle)
    prove_steps(e)   # raises on any placement or elimination SAT cannot prove


ALONE = {   # a technique, and kinds whose generated 6x6 puzzles need it after singles
    "rule_pointing": ("sandwich", "x-sum"),
    "rule_cell_forcing": ("arrow", "region-sum-line"),
    "constraint_exact": ("arrow", "sandwich"),
    "constraint_overlap": ("sandwich", "between-line"),
    "rule_fish": ("lockout-line", "quadruple"),
    "forcing_chain_plus": ("kropki", "little-killer"),
}


@pytest.mark.parametrize(("key", "kinds"), ALONE.items(), ids=list(ALONE))
def test_each_new_technique_alone_after_singles_fires_and_is_proved(key, kinds):
    """With only singles and the rules between cells before it, a technique meets many
    more positions than in the full ladder: every step it makes must be proved."""
    used = 0
    for kind in kinds:
        puzzle = next(generate_variants(make_geometry(6), kinds=[kind], seed=3))
        e = explain(puzzle, techniques=[*SINGLES, "constraint", key], max_steps=80)
        prove_steps(e)
        used += e.rating.techniques.get(key, 0)
    assert used > 0


def _published(title: str) -> Puzzle:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        return parse(json.dumps(published(title)[0]["fpuzzles"]))


def _positions(puzzle: Puzzle, steps: int, every: int):
    """Boards along the puzzle's explanation, one every ``every`` steps."""
    b = Board.from_puzzle(puzzle)
    for k, step in enumerate(explain(puzzle, max_steps=steps).steps):
        if k % every == 0:
            yield b
        b.apply(step)


@pytest.mark.slow   # 1 to 3 s each: every supposition of three or four positions followed
@pytest.mark.parametrize("title", ["", "Alien", "Hay Fever"])
def test_the_static_closures_are_the_reasoners_facts(title):
    # The static forcing chains work out where each supposition leads on masks and follow
    # again with the reasoner only those that conclude something: the masks must be the
    # reasoner's facts, and contradict exactly where it does (weak links of whispers and
    # dots, and a plain grid).
    found = seen = 0
    for b in _positions(_published(title) if title else HARD[3], 90, 30):
        reasoner = forcing.Reasoner(b, dynamic=False)
        lits = forcing._all_lits(b, reasoner)
        closed = closures.static_closures(b, lits)
        for lit in lits:
            run = reasoner.run([lit])
            on = sum(1 << (x >> 1) for x in run.facts if x & 1)
            off = sum(1 << (x >> 1) for x in run.facts if not x & 1)
            assert closed[lit] == (None if run.conflict else (on, off))
            found, seen = found + bool(run.conflict), seen + 1
    assert 0 < found < seen


@pytest.mark.slow   # about 0.5 to 1 s each: every supposition of seven positions followed
@pytest.mark.parametrize("title", ["Alien", "Hay Fever", "Knight Moves"])
def test_nishio_follows_again_exactly_the_suppositions_that_contradict(title):
    # Nishio looks for contradictions on masks first and follows again with the reasoner
    # only the suppositions found there: the two must agree on every candidate, through
    # the constraints' weak links (whispers, dots) and the grid's extra pairs (knights).
    # Every 25 steps up to 150: the explanations' paths change as techniques come in, and
    # positions 30 steps apart missed every contradiction of Hay Fever once segment steps
    # shortened its path; the last assertion keeps the test from passing on none.
    found = seen = 0
    for b in _positions(_published(title), 150, 25):
        forbids = closures.digit_forbids(b)
        for d in range(9):
            cells = [c for c, e in forcing._candidates(b) if e == d]
            reasoner = forcing.Reasoner(b, dynamic=True, digit=d)
            truth = [c for c in cells if reasoner.run([reasoner.lit(c, d, True)]).conflict]
            assert closures.nishio_suspects(b, d, cells, forbids.get(d, {})) == truth
            found, seen = found + len(truth), seen + len(cells)
    assert 0 < found < seen


# -- trials: what a supposition looks at again --------------------------------------------------
def _whole_trial(b: Board, cell: int, digit: int, on: bool) -> list[int] | None:
    """The native solver's propagation (singles, then the links, to their fixpoint) of the
    supposition, looking at every unit and narrowing every link first: what
    :func:`trials.outcome` must end with, looking only where its supposition changes."""
    state = b.state.copy()
    state.cand[cell] = 1 << digit if on else state.cand[cell] & ~(1 << digit)
    if not state.cand[cell]:
        return None
    state.pending = [cell] if state.cand[cell].bit_count() == 1 else []
    state.dirty = state.tables.all_units
    state.seen = [None] * len(state.links)
    return state.cand if propagate(state, [RULES["eliminate"], RULES["only_choice"]]) else None


def _counting(b: Board) -> list[int]:
    """The board's links made to note their number each time one narrows masks."""
    asked: list[int] = []

    def counted(k: int, narrow):
        return lambda masks: asked.append(k) or narrow(masks)

    b.state.links = tuple(dataclasses.replace(link, narrow=counted(k, link.narrow))
                          for k, link in enumerate(b.state.links))
    return asked


def _explained(puzzle: Puzzle, steps: int) -> Board:
    """The board after the first ``steps`` steps of the puzzle's explanation."""
    b = Board.from_puzzle(puzzle)
    for step in explain(puzzle, max_steps=steps).steps:
        b.apply(step)
    return b


def test_a_trial_narrows_only_the_links_whose_cells_it_changes():
    b = _explained(_published("Hay Fever"), 30)   # whispers and dots
    asked = _counting(b)
    cands = forcing._candidates(b)
    trials.outcome(b, *cands[0], True)   # the position's own look at every link, once
    skipped = 0
    for c, d in cands[:100]:
        del asked[:]
        marks = trials.outcome(b, c, d, True)
        if marks is None:
            continue
        changed = {x for x, m in enumerate(marks) if m != b.cand[x]}
        assert all(changed & set(b.state.links[k].cells) for k in asked)
        skipped += len(b.state.links) - len(set(asked))
    assert skipped > 0


@pytest.mark.parametrize("title", ["", pytest.param("Hay Fever", marks=pytest.mark.slow)])
def test_a_trial_ends_where_looking_at_everything_ends(title):
    # Every supposition of two positions (the start, and after 60 steps): the same marks
    # (or the same contradiction) as a trial that looks at every unit and link first, and
    # what they place and remove read for every cell at once as cell by cell (the dynamic
    # forcing chains' shared facts).
    for b in _positions(_published(title) if title else HARD[3], 61, 60):
        packed = trials._Packed(b)
        for c, d in forcing._candidates(b):
            for on in (True, False):
                marks = trials.outcome(b, c, d, on)
                assert marks == _whole_trial(b, c, d, on)
                if marks is None:
                    continue
                placed, gone = packed.implied(marks)
                ones, width = (1 << packed.field) - 1, packed.field
                for x in b.open_cells():
                    new = marks[x] if b.cand[x].bit_count() > 1 == marks[x].bit_count() else 0
                    assert placed >> (x * width) & ones == new
                    assert gone >> (x * width) & ones == b.cand[x] & ~marks[x]


def test_the_chains_of_one_digit_search_each_digit_once_per_position(monkeypatch):
    b = _explained(HARD[4], 20)   # a skyscraper or a kite next
    searched = []
    real = chains.shortest_chain
    monkeypatch.setattr(chains, "shortest_chain",
                        lambda *a, **k: searched.append(a[4] if len(a) > 4 else 0) or real(*a, **k))
    keys = [*chains.STRONG_LINK_KEYS.values(), "x_chain"]
    found = [TECHNIQUES[key].find(b) for key in keys]
    assert len(searched) == b.size
    assert found[0] is not None and found[0].technique == "turbot_fish"
    # Each bound gives what a search within it gives.
    monkeypatch.setattr(chains, "shortest_chain", real)
    for links, step in zip([*chains.STRONG_LINK_KEYS, chains.MAX_NODES // 2], found,
                           strict=True):
        for d in range(b.size):
            strong = chains._strong_links(b, cells=False, units=True, digit=d)
            extra = chains._constraint_links(b, d)
            weak = chains._weak_links(b, strong, False, extra)
            assert (chains._digit_chain(b, d, 2 * links)
                    == real(b, strong, weak, 2 * links, extra))
        assert step is None or step.length <= 2 * links


@pytest.mark.parametrize("size", [9, 35])   # fields of 32 bits, and of 64 for 35 digits
def test_what_a_trial_places_and_removes_is_read_for_every_cell_at_once(size):
    b = Board.from_puzzle(parse("." * size * size) if size == 9 else
                          Puzzle(make_geometry(size), (EMPTY,) * size * size))
    marks = b.cand[:]
    top = 1 << (size - 1)
    marks[0], marks[1], marks[size] = top, marks[1] & ~top & ~1, 0b11
    packed = trials._Packed(b)
    placed, gone = packed.implied(marks)
    width = packed.field
    assert placed == top                        # A1 left with its last digit only
    assert gone == ((b.cand[0] & ~top) | (top | 1) << width
                    | (b.cand[size] & ~0b11) << (size * width))
