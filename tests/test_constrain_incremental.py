"""The links' incremental bookkeeping (``State.todo``, ``State.snap``) against the plain
path that looks at every link: on random walks of removals and propagation through puzzles
with many links (renbans, little killers, arrows, a killer from
examples/kinds_few_givens.txt), a
state carried along and a copy made to look at every link again reach the same candidates
and the same verdict at every step."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import EMPTY, make_geometry, parse
from sudoku_csp.constraints.implied import required_link
from sudoku_csp.constraints.translation import Link
from sudoku_csp.native.rules import PRESETS, RULES, constrain, propagate
from sudoku_csp.native.state import State, tables

PUZZLES = {
    "renban": (
        '{"size":9,"givens":"........................................................3.......'
        '................1","renbans":[["A2","B1","C1"],["A6","B6","C5"],["A9","A8","B7"],["B'
        '2","A3"],["B2","C2","C3"],["B5","A4"],["C4","B3","B2","A3"],["D3","C3","B2","C1"],["'
        'D8","E9","F8"],["D9","E8","F9","G9"],["E2","F3","F4","E5"],["E7","E6","E5","F5"],["F'
        '6","G7","F8"],["F7","G6"],["G1","F2","G3","G4"],["H5","G6","F7"],["H8","G8"],["I7","'
        'H8","G7","F8"]]}'),
    "little_killer": (
        '{"size":9,"givens":"..................34............9.......4...........6..........2'
        '.................","little_killers":[{"from":"A1","direction":"up-right","sum":9},{"'
        'from":"A3","direction":"down-right","sum":35},{"from":"A5","direction":"down-left","'
        'sum":27},{"from":"A6","direction":"down-right","sum":15},{"from":"A9","direction":"d'
        'own-right","sum":5},{"from":"B1","direction":"up-right","sum":3},{"from":"E1","direc'
        'tion":"down-right","sum":28},{"from":"E9","direction":"up-left","sum":24},{"from":"F'
        '1","direction":"up-right","sum":30},{"from":"F9","direction":"down-left","sum":18},{'
        '"from":"H9","direction":"down-left","sum":10},{"from":"I1","direction":"up-left","su'
        'm":5},{"from":"I1","direction":"up-right","sum":39},{"from":"I3","direction":"up-lef'
        't","sum":19}]}'),
    "arrow": (
        '{"size":9,"givens":"........................................4.2...........4.........'
        '.................","arrows":[{"circle":["A8"],"lines":[["A8","B8","C7"]]},{"circle":'
        '["B3"],"lines":[["B3","A2","B2"],["B3","C2","B1","C1"]]},{"circle":["B4"],"lines":[['
        '"B4","A3"],["B4","C5","B5"]]},{"circle":["C8"],"lines":[["C8","B7","B8","C7"]]},{"ci'
        'rcle":["D8"],"lines":[["D8","C7","B7"]]},{"circle":["F1"],"lines":[["F1","F2","G3"],'
        '["F1","E2","D3","D2"]]},{"circle":["F4"],"lines":[["F4","G5"]]},{"circle":["F9"],"li'
        'nes":[["F9","E8","D9"]]},{"circle":["G4"],"lines":[["G4","H4","G5"]]},{"circle":["G6'
        '"],"lines":[["G6","F6","G5"],["G6","F5","E6"]]},{"circle":["H9"],"lines":[["H9","G9"'
        ',"F9"]]},{"circle":["I5"],"lines":[["I5","H4","I4","H3"]]}]}'),
    # a given-free killer: cages, hidden cages, leftovers and required-digit links, which
    # read only their cage's cells (Link.reads)
    "killer": (
        "ABBCDEEFFAAGCDHEFIJJGDDHKFIJLLLLMKNIOOOPPMQNNRSSTUQQNVRWWTUQXXVYYYUUUXVVYZZaaaabb "
        "16,9,11,24,11,17,13,9,20,14,9,13,14,19,18,12,26,12,7,7,20,20,10,17,17,14,21,5"),
}
RULE_LIST = [RULES[name] for name in PRESETS["locked"]]


def _plain(state: State) -> State:
    """A copy of ``state`` that looks at every link at its next constrain."""
    plain = state.copy()
    plain.todo, plain.snap = (1 << len(plain.links)) - 1, None
    return plain


@pytest.mark.parametrize("name", sorted(PUZZLES))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_incremental_constrain_keeps_what_the_plain_one_does(name: str, seed: int) -> None:
    rng = random.Random(seed)
    state = State.from_puzzle(parse(PUZZLES[name]))
    assert state.links
    assert propagate(state, RULE_LIST)
    for _ in range(40):
        open_cells = [c for c, m in enumerate(state.cand) if m & (m - 1)]
        if not open_cells:
            break
        cell = rng.choice(open_cells)
        digits = [d for d in range(9) if state.cand[cell] >> d & 1]
        if rng.random() < 0.3:  # a guess, as the search makes
            state.cand[cell] = 1 << rng.choice(digits)
        else:  # one digit fewer, as an outside deduction makes
            state.cand[cell] &= ~(1 << rng.choice(digits))
        state.touch(cell)
        if not state.cand[cell] & (state.cand[cell] - 1):
            state.pending.append(cell)
        plain = _plain(state)
        ok = propagate(state, RULE_LIST)
        assert propagate(plain, RULE_LIST) == ok
        if not ok:
            break
        assert state.cand == plain.cand


def test_a_required_link_is_looked_at_again_only_when_its_cage_changes() -> None:
    """A required-digit link reads only its cage's cells (``Link.reads``): a change to a
    cell outside that it narrows does not make constrain run it again, one to the cage does."""
    g = make_geometry(4)
    link = required_link(g, (0, 1), (0b0011,), "")  # A1 + A2 = 3: 1 and 2 leave A3-B2
    assert link is not None and link.cells == (0, 1, 2, 3, 4, 5) and link.reads == 2
    calls = []

    def counted(masks: tuple[int, ...]) -> tuple[int, ...] | None:
        calls.append(masks)
        return link.narrow(masks)

    t = tables(g)
    state = State(t, [0b1111] * 16, [], 0, [0] * len(t.units), (EMPTY,) * 16,
                  links=(Link(link.cells, counted, reads=link.reads),))
    assert constrain(state) == 4 and len(calls) == 1  # 1 and 2 left A3, A4, B1, B2
    assert state.cand[2] == state.cand[5] == 0b1100
    state.cand[2] = 0b0100  # outside: nothing for the link to do again
    assert constrain(state) == 0 and len(calls) == 1
    state.cand[0] = 0b0011  # the cage: looked at again
    assert constrain(state) == 0 and len(calls) == 2


def test_a_puzzles_link_tables_are_built_once() -> None:
    puzzle = parse(PUZZLES["killer"])
    first, again = State.from_puzzle(puzzle), State.from_puzzle(puzzle)
    assert first.links is again.links and first.link_tables is again.link_tables
