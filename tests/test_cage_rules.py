"""The 45 rule (Cage.joint_native: innies and outies) is implied by the cages and units:
the native solver with it counts exactly what the checker and the SAT backend count."""

from __future__ import annotations

import random
from functools import cache

from cases import random_cages
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_csp import Puzzle, get_backend, make_geometry
from sudoku_csp.constraints import Cage, native_links
from sudoku_csp.constraints.kinds.cage import sum_range
from sudoku_csp.constraints.rule45 import hidden_sums, leftover_sums, regions
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io import to_line
from sudoku_csp.verify import violations


@cache
def grids(size: int) -> tuple[tuple[int, ...], ...]:
    result = get_backend("sat").solve(Puzzle.empty(make_geometry(size)),
                                      limit=300 if size == 4 else 20)
    return result.solutions


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_native_counts_what_the_checker_counts_on_4x4(seed, some_wrong):
    rng = random.Random(seed)
    geometry = make_geometry(4)
    cages = random_cages(geometry, rng.choice(grids(4)), rng, 3, 0.1)
    if some_wrong:  # sums that no grid may meet: the joint links must not invent answers
        cages = [Cage(c.cells, c.total + 1 if c.total and rng.random() < 0.3
                      and c.total < sum_range(len(c.cells), 4)[1] else c.total)
                 for c in cages]
    puzzle = Puzzle(geometry, (EMPTY,) * 16, "", tuple(cages))
    expected = sum(not violations(puzzle, g) for g in grids(4))
    result = get_backend("native").solve(puzzle, limit=None)
    assert (result.count, result.complete) == (expected, True), to_line(puzzle)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_native_agrees_with_sat_on_6x6(seed):
    rng = random.Random(seed)
    geometry = make_geometry(6)
    cages = random_cages(geometry, rng.choice(grids(6)), rng, 4, 0.1)
    puzzle = Puzzle(geometry, (EMPTY,) * 36, "", tuple(cages))
    native = get_backend("native").solve(puzzle, limit=30)
    sat = get_backend("sat").solve(puzzle, limit=30)
    assert native.status == sat.status
    # Below the limit both searches ran to the end: the same solutions. At the limit each
    # stopped at 30 of its own (48 for seed 53407), which need not be the same 30.
    if native.complete and native.count < 30:
        assert sorted(native.solutions) == sorted(sat.solutions)
        assert native.count == sat.count


def test_innies_and_outies_are_derived():
    geometry = make_geometry(4)
    # Row A: the cage A1+A2 = 3 lies inside it, the cage A3+A4+B4 = 9 sticks out by B4.
    cages = (Cage((0, 1), 3), Cage((2, 3, 7), 9))
    links = {link.cells for link in native_links(geometry, cages)}
    assert (2, 3) in links            # innie of row A: A3+A4 = 10 - 3
    assert (7,) in links              # outie of row A: B4 = 3 + 9 - 10 = 2
    (outie,) = [link for link in native_links(geometry, cages) if link.cells == (7,)]
    assert outie.narrow((15,)) == (0b0010,)   # B4 holds 2 (digit 1)
    assert outie.narrow((0b0100,)) is None


def test_no_joint_links_from_unsummed_cages():
    geometry = make_geometry(4)
    assert [link.cells for link in native_links(geometry, (Cage((0, 1), None),))] == [(0, 1)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([(2, 1), (6, 2), (81, 81)]))
def test_leftovers_are_those_a_plain_reading_finds(seed, limits):
    # The law of leftovers read region by region with sets, as its docstring says it.
    rng = random.Random(seed)
    geometry = make_geometry(9 if seed % 2 else 6)
    n = geometry.size
    grid = get_backend("sat").solve(Puzzle.empty(geometry), limit=1).solutions[0]
    cages = random_cages(geometry, grid, rng, 5, 0.1)
    summed = [c for c in cages if c.total is not None]
    expected, seen = [], set()
    for cells, count, _ in regions(geometry):
        here = set(cells)
        inner = [c for c in summed if 2 * len(here & set(c.cells)) > len(c.cells)]
        covered = {cell for c in inner for cell in c.cells}
        inside, outside = tuple(sorted(here - covered)), tuple(sorted(covered - here))
        total = count * n * (n + 1) // 2 - sum(c.total for c in inner)
        most, most_both = limits
        if (not inner or (count == 1 and not outside)
                or len(inside) + len(outside) > most or min(len(inside), len(outside)) > most_both
                or (inside, outside) in seen or not (inside or outside or total)):
            continue
        seen.add((inside, outside))
        expected.append((inside, outside, total))
    found = leftover_sums(geometry, cages, *limits)
    assert [(s.plus, s.minus, s.total) for s in found] == expected


def test_leftovers_of_a_small_layout_checked_by_hand():
    # 4x4, cells A1..D4 = 0..15, cages met by the grid 1234/3412/2143/4321:
    # A1+A2+B1 = 6, A3+A4 = 7, B2+B3+C3 = 9, D1+D2 = 7, D4 = 1, and C1+C2 without a sum.
    geometry = make_geometry(4)
    cages = [Cage((0, 1, 4), 6), Cage((2, 3), 7), Cage((5, 6, 10), 9), Cage((12, 13), 7),
             Cage((15,), 1), Cage((8, 9))]
    # Row 1: A1+A2+B1 counts (2 of its 3 cells inside), A3+A4 too: -B1 = 10 - 13 (B1 = 3).
    # Rows 1-2: the three cages of rows 1-2 leave B4 and stick out by C3: B4 - C3 = -2.
    # A cage half inside does not count (A3+A4 in column 4, D1+D2 in column 1), and a unit
    # with innies only is a hidden cage's (row 4, boxes), not a leftover.
    row1, rows12 = ((), (4,), -3, "row 1"), ((7,), (10,), -2, "rows 1-2")

    def found(most, most_both):
        return [(s.plus, s.minus, s.total, s.region)
                for s in leftover_sums(geometry, cages, most, most_both)]

    assert found(2, 1) == [row1, rows12]
    assert found(2, 0) == [row1]                 # one innie and one outie: both sides
    assert found(3, 1) == [row1,
                           ((4, 7), (10,), 1, "row 2"),       # B1 + B4 - C3 = 3 + 2 - 4
                           ((8, 12), (1,), 4, "column 1"),    # C1 + D1 - A2 = 2 + 4 - 2
                           ((2, 14), (5,), 1, "column 3"),    # A3 + D3 - B2 = 3 + 2 - 4
                           rows12,
                           ((5, 8, 9), (), 7, "columns 1-2")]  # B2 + C1 + C2 = 4 + 2 + 1
    # With row 1 filled by cages inside it, rows 1-2 leave what row 2 leaves (B1 + B4 - C3
    # = 1): said once, by row 2.
    cages = [Cage((0, 1), 3), Cage((2, 3), 7), Cage((5, 6, 10), 9)]
    assert found(3, 1) == [((4, 7), (10,), 1, "row 2"), ((2, 14), (5,), 1, "column 3")]


def test_hidden_cages_of_two_units_with_the_same_cells():
    # Boxes of 1x4 are the rows: row 1 and box 1 each give A1 + A2 = 10 - 7.
    geometry = make_geometry(4, box=(1, 4))
    cages = [Cage((2, 3), 7), Cage((15,), 1)]
    assert [(s.plus, s.total, s.region, s.complement) for s in hidden_sums(geometry, cages)] == [
        ((0, 1), 3, "row 1", (2, 3)), ((12, 13, 14), 9, "row 4", (15,)),
        ((3, 7, 11), 9, "column 4", (15,)),
        ((0, 1), 3, "box 1", (2, 3)), ((12, 13, 14), 9, "box 4", (15,))]
    assert [s.region for s in hidden_sums(geometry, cages, 2)] == ["row 1", "box 1"]


def test_each_implied_sum_gives_one_native_link():
    """Two regions can leave the same cells, one as innies, the other as outies: the sum
    (and the required digits of it as a cage) gets one link, not two that narrow alike."""
    from sudoku_csp import parse
    from sudoku_csp.constraints.rule45 import cage_links, implied_for

    puzzle = parse("ABBCDEEFFAAGCDHEFIJJGDDHKFIJLLLLMKNIOOOPPMQNNRSSTUQQNVRWWTUQXXVYYYUU"
                   "UXVVYZZaaaabb 16,9,11,24,11,17,13,9,20,14,9,13,14,19,18,12,26,12,7,7,20,"
                   "20,10,17,17,14,21,5")
    g, cages = puzzle.geometry, list(puzzle.constraints)
    implied = implied_for(g, cages, "native")
    said = {min((s.plus, s.minus, s.total), (s.minus, s.plus, -s.total)) for s in implied}
    assert len(said) < len(implied)  # this puzzle has such twins
    links = cage_links(g, cages)
    assert len([link for link in links if link.family != "required"]) == len(said)
    required = [link.cells for link in links if link.family == "required"]
    assert len(required) == len(set(required))


def _with_full_cage(geometry, grid, rng) -> list:
    """A cage without a sum over one random cell of each digit of ``grid`` (N cells, each
    digit once), with random cages over the rest, a tenth of them without sums."""
    n = geometry.size
    full = tuple(sorted(rng.choice([c for c in range(geometry.ncells) if grid[c] == d])
                        for d in range(n)))
    rest = [c for c in random_cages(geometry, grid, rng, 3, 0.1)
            if not set(c.cells) & set(full)]
    return [Cage(full), *rest]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_a_cage_of_n_cells_without_a_sum_counts_as_the_checker_does(seed, clash):
    # Read as the sum N(N+1)/2 by every backend and the 45 rule; the checker only asks
    # that its digits differ. A given repeated in it (clash) must still give no solution.
    rng = random.Random(seed)
    geometry = make_geometry(4)
    cages = _with_full_cage(geometry, rng.choice(grids(4)), rng)[:rng.randint(1, 3)]
    givens = [EMPTY] * 16
    if clash:
        a, b = rng.sample(cages[0].cells, 2)
        givens[a] = givens[b] = rng.randrange(4)
    puzzle = Puzzle(geometry, tuple(givens), "", tuple(cages))
    expected = sum(not violations(puzzle, g) for g in grids(4))
    for spec in ("native", "sat", "cpsat"):
        result = get_backend(spec).solve(puzzle, limit=None)
        assert (result.count, result.complete) == (expected, True), (spec, to_line(puzzle))


def test_a_cage_of_n_cells_without_a_sum_places_a_digit_with_one_place_left():
    geometry = make_geometry(4)
    cage = Cage((0, 5, 10, 15))            # the main diagonal, as a cage of four cells
    assert cage.sum_for(4) == 10 and Cage((0, 5, 10)).sum_for(4) is None
    (link,) = cage.native(geometry)
    # Only D4 can hold 4 (digit 3): it is placed there; the others keep theirs.
    assert link.narrow((0b0111, 0b0111, 0b0111, 0b1111)) == (0b0111, 0b0111, 0b0111, 0b1000)
    assert link.narrow((0b0111, 0b0111, 0b0111, 0b0111)) is None
    # In CNF, each digit in at least one of its cells.
    from cases import cnf_context
    clauses = {tuple(c) for c in cage.cnf(cnf_context(4)[0])}
    assert (4, 24, 44, 64) in clauses       # the variables "holds 4" of A1, B2, C3, D4
    # A1+A2+A3+B4 holds 1-4 as row A does: A4 is B4, the law of leftovers says.
    bent = {link.cells for link in native_links(geometry, (Cage((0, 1, 2, 7)),))}
    assert (3, 7) in bent
    assert bent == {link.cells for link in native_links(geometry, (Cage((0, 1, 2, 7), 10),))}
    assert [link.cells for link in native_links(geometry, (Cage((0, 1, 2)),))] == [(0, 1, 2)]


def test_seers_are_written_where_the_cages_leave_cells_uncovered():
    # seers=uncovered (the default): a puzzle whose cages with a total tile the grid (a
    # killer) gets no seers' clauses, as seers=off writes it; one whose cages leave cells
    # uncovered gets them, as seers=on writes it; constraints written one at a time (a
    # session of questions) have no whole to read: off. Every count stays the checker's.
    from sudoku_csp.constraints import cnf_clauses
    from sudoku_csp.satsession import GeometrySession

    geometry = make_geometry(4)
    grid = grids(4)[0]
    pairs = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15)]
    tiling = [Cage(p, grid[p[0]] + grid[p[1]] + 2) for p in pairs]
    sparse = tiling[:3]

    def count(cages, options=None):
        return len(cnf_clauses(geometry, cages, start=65, options=options)[0])

    assert count(tiling) == count(tiling, {"seers": "off"}) < count(tiling, {"seers": "on"})
    assert count(sparse) == count(sparse, {"seers": "on"}) > count(sparse, {"seers": "off"})
    one_at_a_time = len(cnf_clauses(geometry, sparse[:1], start=65, whole=False)[0])
    assert one_at_a_time == count(sparse[:1], {"seers": "off"}) < count(sparse[:1])
    session = GeometrySession(geometry)
    assert session.ask([session.guard(c) for c in sparse])
    for cages in (tiling, sparse):
        puzzle = Puzzle(geometry, (EMPTY,) * 16, "", tuple(cages))
        expected = sum(not violations(puzzle, g) for g in grids(4))
        assert get_backend("sat").solve(puzzle, limit=None).count == expected
