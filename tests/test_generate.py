"""Minimality of givens and the generator of unique puzzles."""

from __future__ import annotations

import pytest
from cases import BY_NAME, GRID2, JIGSAW_MAP

from sudoku_csp import (
    EMPTY,
    BackendError,
    GeometryError,
    InputError,
    Puzzle,
    Result,
    Status,
    get_backend,
    is_solution,
    make_geometry,
    parse,
)
from sudoku_csp.generate import (
    CheckDisagreesError,
    GenerationError,
    UniquenessSession,
    clearing,
    generate,
    minimality,
    random_grid,
)
from sudoku_csp.io import to_line
from sudoku_csp.symmetry import SYMMETRIES, is_symmetric, symmetry_groups

NINE = make_geometry(9)


def _with_given(puzzle: Puzzle, cell: int, digit: int) -> Puzzle:
    givens = list(puzzle.givens)
    givens[cell] = digit
    return Puzzle(puzzle.geometry, tuple(givens))


def _redundant_by_brute_force(puzzle: Puzzle) -> list[int]:
    """Each given removed in turn, uniqueness decided afresh by the native backend."""
    native = get_backend("native")
    found = []
    for cell, digit in enumerate(puzzle.givens):
        if digit != EMPTY:
            smaller = _with_given(puzzle, cell, EMPTY)
            if native.solve(smaller, limit=2).status is Status.UNIQUE:
                found.append(cell)
    return found


# -- minimality -----------------------------------------------------------------------------------
def test_seventeen_clue_puzzle_is_minimal():
    m = minimality(parse(GRID2))
    assert m.status is Status.UNIQUE and m.unique and m.minimal
    assert m.redundant == () and is_solution(parse(GRID2), m.solution)
    assert m.calls == 2 + 17  # solve, uniqueness, one per given


def test_added_given_is_redundant():
    puzzle = parse(GRID2)
    solution = parse(BY_NAME["grid2"].solution).givens
    cell = next(c for c, d in enumerate(puzzle.givens) if d == EMPTY)
    bigger = _with_given(puzzle, cell, solution[cell])
    m = minimality(bigger)
    assert m.unique and not m.minimal
    assert cell in m.redundant
    assert geometry_labels_ok(m, bigger)


def geometry_labels_ok(m, puzzle) -> bool:
    return m.labels(puzzle.geometry) == [puzzle.geometry.label(c) for c in m.redundant]


@pytest.mark.parametrize("name", ["grid1", "4x4", "6x6", "jigsaw", "anti-king"])
def test_redundant_givens_match_brute_force(name):
    puzzle = BY_NAME[name].puzzle()
    m = minimality(puzzle)
    assert m.unique
    assert list(m.redundant) == _redundant_by_brute_force(puzzle)


def test_easy_puzzle_has_many_redundant_givens():
    # grid1 (32 givens, solved by singles) is far from minimal
    assert len(minimality(BY_NAME["grid1"].puzzle()).redundant) > 5


@pytest.mark.parametrize("name,status", [("hard1", Status.MULTIPLE), ("empty9", Status.MULTIPLE),
                                         ("clash", Status.NONE), ("unsolvable", Status.NONE),
                                         ("jigsaw-clash", Status.NONE)])
def test_not_unique(name, status):
    puzzle = BY_NAME[name].puzzle()
    m = minimality(puzzle)
    assert m.status is status and not m.unique and not m.minimal and m.redundant == ()
    if status is Status.MULTIPLE:
        assert m.solution != m.other
        assert is_solution(puzzle, m.solution) and is_solution(puzzle, m.other)


def test_one_session_serves_many_puzzles():
    session = UniquenessSession(NINE, solver="glucose4", recycle=2)
    for name in ["grid1", "grid2", "hard1", "grid1"]:
        m = minimality(BY_NAME[name].puzzle(), session=session)
        assert m.status is BY_NAME[name].expected
    with pytest.raises(InputError, match="session"):
        minimality(BY_NAME["4x4"].puzzle(), session=session)
    session.close()


def test_session_other_solution():
    session = UniquenessSession(make_geometry(4))
    solution = session.solve((EMPTY,) * 16)
    other = session.other_solution((EMPTY,) * 16, solution)
    assert other is not None and other != solution
    assert session.other_solution(solution, solution) is None
    with pytest.raises(InputError):
        session.solve((EMPTY,) * 15)


# -- symmetry ------------------------------------------------------------------------------------
@pytest.mark.parametrize("symmetry,groups", [("none", 81), ("rot180", 41), ("rot90", 21),
                                             ("mirror", 45), ("diagonal", 45)])
def test_symmetry_groups_9x9(symmetry, groups):
    found = symmetry_groups(NINE, symmetry)
    assert len(found) == groups
    assert sorted(c for g in found for c in g) == list(range(81))


@pytest.mark.parametrize("geometry,symmetry", [
    (make_geometry(6), "rot90"),
    (make_geometry(6), "diagonal"),
    (make_geometry(9, regions=JIGSAW_MAP), "mirror"),
    (make_geometry(9, regions=JIGSAW_MAP), "rot90"),
])
def test_symmetry_that_breaks_the_geometry_is_rejected(geometry, symmetry):
    with pytest.raises(GeometryError, match="does not map"):
        generate(geometry, symmetry=symmetry)  # eagerly, before any puzzle


def test_symmetry_must_map_extra_pairs():
    # anti-knight pairs are symmetric under every listed symmetry; a lopsided set is not
    from sudoku_csp.geometry import Geometry, box_index, line_units, units_from_index

    units = line_units(4) + units_from_index("box", box_index(4, (2, 2)))
    lopsided = Geometry(4, units, boxes=box_index(4, (2, 2)), box=(2, 2),
                        extra_pairs=[(0, 6)], variants=("custom",))
    with pytest.raises(GeometryError, match="pair"):
        symmetry_groups(lopsided, "mirror")
    assert len(symmetry_groups(make_geometry(9, variants=["anti-knight"]), "rot90")) == 21


def test_unknown_symmetry():
    with pytest.raises(ValueError, match="symmetry"):
        generate(symmetry="spiral")


def test_symmetries_have_one_home():
    # The CLI builds --symmetry from sudoku_csp.symmetry; no second name to drift from it.
    import sudoku_csp.generate as package

    assert not hasattr(package, "SYMMETRIES")
    assert not any(hasattr(getattr(package, name), "SYMMETRIES") for name in
                   ("base", "clearing", "grids", "plain", "rated", "request", "session"))


# -- the generator -------------------------------------------------------------------------------
def test_random_grid_is_a_solution_and_seeded():
    grid = random_grid(NINE, 11)
    assert is_solution(Puzzle.empty(NINE), grid)
    assert grid == random_grid(NINE, 11)
    assert grid != random_grid(NINE, 12)


@pytest.fixture(scope="module")
def nine_by_nine() -> list[Puzzle]:
    return list(generate(count=3, seed=5))


@pytest.mark.parametrize("spec", ["native", "sat", "cpsat"])
def test_generated_puzzles_are_unique_by_every_backend(spec, nine_by_nine):
    for puzzle in nine_by_nine:
        result = get_backend(spec).solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, (spec, to_line(puzzle))


@pytest.mark.parametrize("geometry", [
    make_geometry(4), make_geometry(6), make_geometry(9, regions=JIGSAW_MAP),
    make_geometry(9, variants=["diagonal"]), make_geometry(9, variants=["anti-king"]),
    make_geometry(12),
], ids=lambda g: g.name)
def test_other_geometries_unique_by_every_backend(geometry):
    for puzzle in generate(geometry, count=2, seed=1, minimal=True):
        assert puzzle.geometry == geometry
        for spec in ("native", "sat", "cpsat"):
            assert get_backend(spec).solve(puzzle, limit=2).status is Status.UNIQUE, spec
        assert minimality(puzzle).minimal


def test_generated_puzzles_are_minimal(nine_by_nine):
    for puzzle in nine_by_nine:
        assert minimality(puzzle).minimal
        assert _redundant_by_brute_force(puzzle) == []


@pytest.mark.parametrize("symmetry", [s for s in SYMMETRIES if s != "none"])
def test_symmetric_when_asked(symmetry):
    for puzzle in generate(count=2, seed=3, symmetry=symmetry):
        assert is_symmetric(puzzle, symmetry)
        assert get_backend("native").solve(puzzle, limit=2).status is Status.UNIQUE
        assert symmetry in puzzle.metadata


@pytest.mark.parametrize("symmetry", ["rot180", "diagonal"])
def test_symmetric_and_minimal_when_asked(symmetry):
    for puzzle in generate(count=2, seed=4, symmetry=symmetry, minimal=True):
        assert is_symmetric(puzzle, symmetry)
        assert minimality(puzzle).minimal


def test_symmetric_jigsaw():
    # the shared jigsaw map is symmetric under a half turn
    geometry = make_geometry(9, regions=JIGSAW_MAP)
    puzzle = next(generate(geometry, seed=2, symmetry="rot180"))
    assert is_symmetric(puzzle, "rot180")


def test_deterministic_per_seed():
    first = [to_line(p) for p in generate(count=3, seed=42)]
    assert first == [to_line(p) for p in generate(count=3, seed=42)]
    assert first[:2] == [to_line(p) for p in generate(count=2, seed=42)]
    assert first != [to_line(p) for p in generate(count=3, seed=43)]
    assert len(set(first)) == 3


def test_metadata_records_the_seed():
    puzzle = next(generate(seed=9, symmetry="rot180", minimal=True))
    assert puzzle.metadata.startswith("generated seed=9 #1")
    assert f"{puzzle.clue_count} clues" in puzzle.metadata


def test_count_zero_and_bad_arguments():
    assert list(generate(count=0)) == []
    with pytest.raises(InputError):
        generate(count=-1)
    with pytest.raises(InputError):
        generate(attempts=0)


def test_gives_up_after_the_attempts(monkeypatch):
    monkeypatch.setattr(clearing, "REPAIR_STEPS", 0)  # no local search: rot90 minimal is rare
    with pytest.raises(GenerationError, match="attempts"):
        next(generate(seed=1, symmetry="rot90", minimal=True, attempts=1))


class _Disagrees:
    """A checker backend that always finds two solutions."""

    spec = "disagrees"

    def solve(self, puzzle, *, limit=1, time_limit=None) -> Result:
        return Result(Status.MULTIPLE)


def test_second_backend_must_agree():
    with pytest.raises(CheckDisagreesError, match="disagrees") as info:
        next(generate(make_geometry(4), check=_Disagrees()))
    assert isinstance(info.value, BackendError)  # a bug, not a generation that gave up
