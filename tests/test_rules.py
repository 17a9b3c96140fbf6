"""Each propagation rule alone on small hand-made candidate states, then soundness.

States are written as candidate strings per cell: ``cands(g, A1="12", A3="12")`` is the
state where A1 and A3 may hold 1 or 2 and every other cell may hold anything. Each test
asserts the whole state afterwards, so every elimination a rule makes is pinned.
"""

from __future__ import annotations

import functools

import pytest
from cases import BY_NAME, GRID1
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import Puzzle, get_backend, is_solution, make_geometry, parse
from sudoku_csp.native import (
    PRESETS,
    RULES,
    State,
    eliminate,
    forward_check,
    hidden_pairs,
    locked_candidates,
    naked_pairs,
    naked_triples,
    only_choice,
    propagate,
    rule_names,
    state_from_candidates,
)

G4 = make_geometry(4)
G9 = make_geometry(9)


def cands(g, **cells: str) -> list[str]:
    """Candidate strings of every cell: all digits, except the cells named by label."""
    labels = {g.label(c): c for c in range(g.ncells)}
    out = [g.symbols] * g.ncells
    for label, symbols in cells.items():
        out[labels[label]] = symbols
    return out


def state(g, **cells: str) -> State:
    digits = [[g.symbols.index(ch) for ch in text] for text in cands(g, **cells)]
    return state_from_candidates(Puzzle.empty(g), digits)


def show(s: State) -> list[str]:
    syms = s.geometry.symbols
    return ["".join(syms[d] for d in s.candidates(c)) for c in range(s.geometry.ncells)]


def row(g, letter: str, symbols: str) -> dict[str, str]:
    """The same candidates for every cell of a row."""
    return {f"{letter}{c + 1}": symbols for c in range(g.size)}


# -- eliminate (naked singles) ----------------------------------------------------------------
def test_eliminate_removes_a_single_from_its_peers_and_cascades():
    s = state(G4, A1="1", A2="12")
    assert eliminate(s) == 2  # A1 placed, then A2 (left with 2 alone)
    assert show(s) == cands(G4, A1="1", A2="2", A3="34", A4="34", B1="34", B2="34",
                            C1="234", D1="234", C2="134", D2="134")
    assert s.pending == [] and s.placed == 0b11


def test_eliminate_with_nothing_pending_does_nothing():
    s = state(G4, A1="12", B3="34")
    assert eliminate(s) == 0
    assert show(s) == cands(G4, A1="12", B3="34")


def test_eliminate_places_a_cell_once():
    s = state(G4, A1="1")
    assert eliminate(s) == 1
    s.pending.append(0)
    assert eliminate(s) == 0


def test_eliminate_contradiction():
    assert eliminate(state(G4, A1="1", A3="1")) is None  # two 1s in row A
    assert eliminate(state(G4, A1="1", B2="1")) is None  # two 1s in box 1
    assert eliminate(state(G4, A1="1", B1="12", C1="12", D1="2")) is None  # B1, C1 run dry


def test_eliminate_uses_extra_pairs():
    g = make_geometry(4, variants=["anti-king"])
    s = state(g, B2="1")
    assert eliminate(s) == 1
    # Peers of B2 by units (row B, column 2, box 1) and the king steps A3, C1 and C3.
    assert show(s) == cands(g, B2="1", A1="234", A2="234", B1="234", B3="234", B4="234",
                            C2="234", D2="234", A3="234", C1="234", C3="234")


# -- forward_check (plain backtracking) --------------------------------------------------------
def test_forward_check_does_not_cascade():
    s = state(G4, A1="1", A2="12")
    pending_before = list(s.pending)
    assert pending_before == [0]
    assert forward_check(s) == 1
    assert show(s) == cands(G4, A1="1", A2="2", A3="234", A4="234", B1="234", B2="234",
                            C1="234", D1="234")
    assert s.placed == 0b1  # A2 is single but neither placed nor pending
    assert s.pending == []


def test_forward_check_contradiction():
    assert forward_check(state(G4, A1="1", D1="1")) is None


def test_forward_check_with_nothing_pending():
    s = state(G4, A1="12")
    assert forward_check(s) == 0 and show(s) == cands(G4, A1="12")


# -- only_choice (hidden singles) --------------------------------------------------------------
def test_only_choice_places_a_hidden_single():
    s = state(G4, A1="123", A2="123", A3="123")
    # 4 can go only in A4 in row A: A4 becomes 4 and is placed at once, so 4 leaves
    # column 4 and box 2.
    assert only_choice(s) == 2  # one hidden single + one cell placed
    assert show(s) == cands(G4, A1="123", A2="123", A3="123", A4="4",
                            B3="123", B4="123", C4="123", D4="123")
    assert s.placed == 1 << 3


def test_only_choice_in_a_column_and_a_box():
    s = state(G4, A1="234", B1="234", D1="234")  # 1 only in C1 (column 1)
    only_choice(s)
    assert s.candidates(8) == (0,)
    s = state(G4, A1="234", A2="234", B1="234")  # 1 only in B2 (box 1)
    only_choice(s)
    assert s.candidates(5) == (0,)


def test_only_choice_without_hidden_singles_does_nothing():
    s = state(G4)
    assert only_choice(s) == 0 and show(s) == cands(G4)
    s = state(G4, A1="12", A2="12", A3="34", A4="34")  # every digit twice in row A
    assert only_choice(s) == 0
    assert show(s) == cands(G4, A1="12", A2="12", A3="34", A4="34")


def test_only_choice_contradictions():
    # No place left for 4 in row A.
    assert only_choice(state(G4, A1="123", A2="123", A3="123", A4="123")) is None
    # 3 and 4 both have A4 as their only place in row A.
    assert only_choice(state(G4, A1="12", A2="12", A3="12")) is None


# -- naked pairs and triples -------------------------------------------------------------------
def test_naked_pair_in_a_row():
    s = state(G4, A1="12", A3="12")  # A1 and A3 own 1 and 2 (different boxes)
    assert naked_pairs(s) == 2
    assert show(s) == cands(G4, A1="12", A2="34", A3="12", A4="34")


def test_naked_pair_in_a_box_and_column():
    s = state(G9, A1="45", C2="45")  # same box, different rows and columns
    assert naked_pairs(s) == 7
    box_rest = dict.fromkeys(("A2", "A3", "B1", "B2", "B3", "C1", "C3"), "1236789")
    assert show(s) == cands(G9, A1="45", C2="45", **box_rest)


def test_naked_pair_leaves_a_single_pending():
    s = state(G4, A1="12", A2="123", A3="12")
    assert naked_pairs(s) == 2
    assert show(s) == cands(G4, A1="12", A2="3", A3="12", A4="34")
    assert 1 in s.pending  # A2, now single, waits for eliminate


def test_no_naked_pair():
    s = state(G4, A1="12", A3="13", B2="23")  # three cells, but no two alike
    assert naked_pairs(s) == 0
    assert show(s) == cands(G4, A1="12", A3="13", B2="23")


def test_naked_pair_contradiction():
    assert naked_pairs(state(G4, A1="12", A2="12", A3="12")) is None


def test_naked_triple():
    # A1, A5, A9 hold 1, 2, 3 between them (no cell has all three).
    s = state(G9, A1="12", A5="23", A9="13")
    assert naked_pairs(s) == 0
    assert naked_triples(s) == 6
    rest = {f"A{c}": "456789" for c in (2, 3, 4, 6, 7, 8)}
    assert show(s) == cands(G9, A1="12", A5="23", A9="13", **rest)


def test_naked_triple_with_a_cell_of_three():
    s = state(G9, A1="123", A5="23", A9="13")
    assert naked_triples(s) == 6
    assert s.candidates(1) == (3, 4, 5, 6, 7, 8)


def test_no_naked_triple():
    s = state(G9, A1="12", A5="23", A9="34")
    assert naked_triples(s) == 0
    assert show(s) == cands(G9, A1="12", A5="23", A9="34")


def test_naked_triple_contradiction():
    assert naked_triples(state(G9, A1="12", A5="12", A9="12")) is None


# -- hidden pairs ------------------------------------------------------------------------------
def test_hidden_pair():
    # 1 and 2 can go only in A1 and A5 within row A: those cells lose every other digit.
    others = {f"A{c}": "3456789" for c in (2, 3, 4, 6, 7, 8, 9)}
    s = state(G9, **others)
    assert hidden_pairs(s) == 2
    assert show(s) == cands(G9, A1="12", A5="12", **others)


def test_hidden_pair_in_a_4x4_row():
    s = state(G4, A2="34", A4="34")
    assert hidden_pairs(s) == 2
    assert show(s) == cands(G4, A1="12", A2="34", A3="12", A4="34")


def test_no_hidden_pair():
    others = {f"A{c}": "3456789" for c in (2, 3, 4, 6, 7, 8)}
    s = state(G9, A9="23456789", **others)  # 2 can also go in A9
    assert hidden_pairs(s) == 0
    assert show(s) == cands(G9, A9="23456789", **others)
    bare = {f"A{c}": "3456789" for c in (2, 3, 4, 6, 7, 8, 9)}
    s = state(G9, A1="12", A5="12", **bare)  # already a naked pair: nothing to remove
    assert hidden_pairs(s) == 0


def test_hidden_pair_contradiction():
    # 1, 2 and 3 all confined to A1 and A5.
    others = {f"A{c}": "456789" for c in (2, 3, 4, 6, 7, 8, 9)}
    assert hidden_pairs(state(G9, **others)) is None


# -- locked candidates -------------------------------------------------------------------------
def test_pointing():
    # In box 1, 1 can go only in row A (A1, A2): it leaves the rest of row A.
    no_one = dict.fromkeys(("A3", "B1", "B2", "B3", "C1", "C2", "C3"), "23456789")
    s = state(G9, **no_one)
    assert locked_candidates(s) == 6
    rest_of_row = {f"A{c}": "23456789" for c in range(4, 10)}
    assert show(s) == cands(G9, **no_one, **rest_of_row)


def test_claiming():
    # In row A, 1 can go only in box 1 (A1-A3): it leaves the rest of box 1.
    no_one = {f"A{c}": "23456789" for c in range(4, 10)}
    s = state(G9, **no_one)
    assert locked_candidates(s) == 6
    rest_of_box = dict.fromkeys(("B1", "B2", "B3", "C1", "C2", "C3"), "23456789")
    assert show(s) == cands(G9, **no_one, **rest_of_box)


def test_claiming_from_a_column():
    no_one = {f"{r}1": "23456789" for r in "DEFGHI"}
    s = state(G9, **no_one)
    assert locked_candidates(s) == 6
    rest_of_box = dict.fromkeys(("A2", "A3", "B2", "B3", "C2", "C3"), "23456789")
    assert show(s) == cands(G9, **no_one, **rest_of_box)


def test_locked_candidates_on_a_diagonal():
    g = make_geometry(9, variants=["diagonal"])
    # On the main diagonal, 1 can go only in box 1 (A1, B2, C3): it leaves the rest of box 1.
    no_one = {f"{'ABCDEFGHI'[i]}{i + 1}": "23456789" for i in range(3, 9)}
    s = state(g, **no_one)
    assert locked_candidates(s) == 6
    rest_of_box = dict.fromkeys(("A2", "A3", "B1", "B3", "C1", "C2"), "23456789")
    assert show(s) == cands(g, **no_one, **rest_of_box)


def test_locked_candidates_in_a_4x4():
    s = state(G4, B1="234", B2="234")  # pointing: 1 in box 1 only in row A
    assert locked_candidates(s) == 2
    assert show(s) == cands(G4, B1="234", B2="234", A3="234", A4="234")


def test_no_locked_candidates():
    s = state(G9)
    assert locked_candidates(s) == 0 and show(s) == cands(G9)
    # 1 sits in two rows of box 1 and in two boxes of row A: nothing is locked.
    s = state(G9, **dict.fromkeys(("A3", "B1", "B2", "B3"), "23456789"))
    assert locked_candidates(s) == 0


def test_locked_candidates_contradiction():
    # Box 1 puts its 1 in row A (A1 or A2), but A4 can only be 1.
    no_one = dict.fromkeys(("A3", "B1", "B2", "B3", "C1", "C2", "C3"), "23456789")
    assert locked_candidates(state(G9, A4="1", **no_one)) is None


# -- propagate and presets ---------------------------------------------------------------------
def rules_of(preset: str):
    return [RULES[name] for name in rule_names(preset)]


def test_singles_solve_grid1_by_propagation():
    puzzle = parse(GRID1)
    s = State.from_puzzle(puzzle)
    firings = [0, 0]
    assert propagate(s, rules_of("singles"), firings)
    assert s.solved and is_solution(puzzle, s.grid())
    assert firings[0] == 81  # every cell placed once by eliminate
    assert firings[1] >= 0


def test_propagate_without_rules_is_forward_checking():
    s = State.from_puzzle(parse("1..." "..1." ".1.." "...1"))
    assert propagate(s, [])
    assert bin(s.placed).count("1") == 4 and not s.solved
    assert s.candidates(1) == (1, 2, 3)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_propagate_finds_contradictions(preset):
    for name in ("clash", "unsolvable", "jigsaw-clash"):
        s = State.from_puzzle(BY_NAME[name].puzzle())
        assert propagate(s, rules_of(preset)) is False, name


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "none"])
@pytest.mark.parametrize("name", ["grid2", "hard1", "diagonal", "jigsaw", "windoku", "16x16"])
def test_propagate_reaches_a_fixpoint(preset, name):
    puzzle = BY_NAME[name].puzzle()
    s = State.from_puzzle(puzzle)
    assert propagate(s, rules_of(preset))
    after = show(s)
    # A fresh state with the same candidates: no rule of the preset changes anything.
    digits = [s.candidates(c) for c in range(puzzle.geometry.ncells)]
    for rule in rules_of(preset):
        fresh = state_from_candidates(puzzle, digits)
        assert rule(fresh) is not None
        assert show(fresh) == after, rule.__name__


def test_stronger_presets_remove_at_least_as_much():
    puzzle = BY_NAME["hard1"].puzzle()
    sizes = []
    for preset in ("singles", "locked", "full"):
        s = State.from_puzzle(puzzle)
        assert propagate(s, rules_of(preset))
        sizes.append(sum(len(s.candidates(c)) for c in range(81)))
    assert sizes[0] >= sizes[1] >= sizes[2]


def test_rule_names_presets():
    assert rule_names("none") == ()
    assert rule_names("singles") == ("eliminate", "only_choice")
    assert rule_names("locked") == ("eliminate", "only_choice", "locked_candidates")
    assert rule_names("pairs") == ("eliminate", "only_choice", "naked_pairs", "hidden_pairs")
    assert set(rule_names("full")) == set(RULES)
    assert all(set(rule_names(p)) <= set(RULES) for p in PRESETS)


def test_rule_names_plus_syntax():
    # eliminate is always added (only it places cells); the order is RULES' order.
    assert rule_names("only_choice") == ("eliminate", "only_choice")
    assert rule_names("hidden_pairs+only_choice") == ("eliminate", "only_choice", "hidden_pairs")
    assert rule_names(" naked_triples + eliminate ") == ("eliminate", "naked_triples")
    assert rule_names("eliminate+eliminate") == ("eliminate",)


@pytest.mark.parametrize("text", ["", "+", "bogus", "singles+naked_pairs", "eliminate+bogus"])
def test_rule_names_errors(text):
    with pytest.raises(ValueError, match="unknown rules"):
        rule_names(text)


# -- soundness ---------------------------------------------------------------------------------
def pattern_grid(box_rows: int, box_cols: int) -> tuple[int, ...]:
    n = box_rows * box_cols
    return tuple((box_cols * (r % box_rows) + r // box_rows + c) % n
                 for r in range(n) for c in range(n))


@functools.cache
def solved(name: str) -> tuple[Puzzle, tuple[int, ...]]:
    """An empty puzzle of some geometry, and a full solution of it."""
    shapes = {"4x4": (2, 2), "6x6": (2, 3), "12x12": (3, 4), "16x16": (4, 4)}
    if name in shapes:
        box = shapes[name]
        return Puzzle.empty(make_geometry(box[0] * box[1], box)), pattern_grid(*box)
    case = BY_NAME[name]
    puzzle = case.puzzle()
    if case.solution:
        solution = tuple(puzzle.geometry.symbols.index(ch) for ch in case.solution)
    else:  # a variant without a stored solution: ask the solver, check it independently
        solution = get_backend("native").solve(puzzle).solution
    assert is_solution(puzzle, solution)
    return Puzzle.empty(puzzle.geometry), solution


SOLVED = ["4x4", "6x6", "12x12", "16x16", "grid1", "grid2", "jigsaw", "diagonal+anti-knight",
          "windoku"]
ALL_RULES = [*RULES.values(), forward_check]


def keeps_truth(s: State, solution) -> bool:
    return all(s.cand[c] >> d & 1 for c, d in enumerate(solution))


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SOLVED), st.randoms(use_true_random=False), st.floats(0.0, 1.0),
       st.floats(0.0, 0.6))
def test_rules_never_remove_the_true_digit(name, rng, keep, single):
    """Any candidate state that still allows the solution: no rule removes a true digit,
    and none reports a contradiction (there is none)."""
    empty, solution = solved(name)
    n = empty.size
    digits = []
    for d in solution:
        if rng.random() < single:
            digits.append([d])
        else:
            digits.append(sorted({d} | {x for x in range(n) if rng.random() < keep}))
    for rule in ALL_RULES:
        s = state_from_candidates(empty, digits)
        assert rule(s) is not None, rule.__name__
        assert keeps_truth(s, solution), rule.__name__
    s = state_from_candidates(empty, digits)
    assert propagate(s, list(RULES.values()))
    assert keeps_truth(s, solution)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SOLVED), st.randoms(use_true_random=False), st.floats(0.0, 0.8),
       st.sampled_from(list(PRESETS)))
def test_presets_keep_the_solution_of_puzzles_made_from_it(name, rng, blank, preset):
    empty, solution = solved(name)
    givens = tuple(-1 if rng.random() < blank else d for d in solution)
    puzzle = Puzzle(empty.geometry, givens)
    s = State.from_puzzle(puzzle)
    assert propagate(s, rules_of(preset))
    assert keeps_truth(s, solution)
    if s.solved:
        assert s.grid() == solution
