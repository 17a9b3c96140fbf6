"""CNF encodings: exact counts, model counts, decoding, clue reduction, DIMACS, encodings/."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cases import BY_NAME, CASES, slow_if
from pysat.solvers import Solver

from sudoku_csp import EMPTY, Puzzle, get_backend, is_solution, make_geometry
from sudoku_csp.encodings import cnf, dimacs, reference
from sudoku_csp.encodings.cnf import AMO_CHOICES, Encoding
from sudoku_csp.errors import InputError
from sudoku_csp.io import parse

REPO = Path(__file__).resolve().parents[1]
NINE = make_geometry(9)
FOUR = make_geometry(4)
NUMBERING = cnf.variables(NINE)


def count_models(clauses, x_vars: int, *, project: bool = True, limit: int = 100_000) -> int:
    """Models of ``clauses``, each blocked once found: over the ``x`` variables when
    ``project``, else over every variable the model mentions."""
    n = 0
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        while s.solve():
            model = s.get_model()
            s.add_clause([-v for v in (model[:x_vars] if project else model)])
            n += 1
            assert n <= limit
    return n


# -- counts -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("encoding", "clauses"), [
    ("minimal", 8_829), ("natural", 11_745), ("extended", 11_988), ("augmented", 15_228),
    ("tdoku", 7_695)])
def test_9x9_pairwise_clause_counts(encoding, clauses):
    formula = cnf.build(NINE, encoding, "pairwise")
    assert len(formula.clauses) == clauses
    assert len(cnf.encode(NINE, encoding).clauses) == clauses
    assert formula.x_vars == 729
    assert formula.nv == (729 + 54 * 9 if encoding in ("augmented", "tdoku") else 729)


def test_9x9_family_counts():
    counts = cnf.build(NINE, "augmented").counts
    assert counts == {"cell_alo": 81, "cell_amo": 81 * 36, "unit_alo": 27 * 9,
                      "unit_amo": 27 * 9 * 36, "pair_differ": 0,
                      "triad_def": 54 * 9 * 4, "triad_alo": 36 * 9, "triad_amo": 36 * 9 * 3}
    assert sum(counts.values()) == 15_228
    assert cnf.build(NINE, "minimal").counts == {"cell_alo": 81, "unit_amo": 8_748,
                                                 "pair_differ": 0}


def test_tdoku_counts_are_those_of_its_benchmark():
    # tdoku's other/other_minisat.cc, configuration 3: 15 * 81 variables; per cell one
    # exactly-one (1 + 36 clauses), per triad and digit one exactly-one over 3 cells and the
    # negated triad (1 + 6), per row, column and box side and digit one over 3 triads (1 + 3)
    formula = cnf.build(NINE, "tdoku")
    assert formula.nv == 15 * 81
    assert len(formula.clauses) == 81 * 37 + 54 * 9 * 7 + 36 * 9 * 4 == 7_695
    assert formula.literals == 81 * (9 + 72) + 54 * 9 * (4 + 12) + 36 * 9 * (3 + 6)
    assert formula.counts["lone_units"] == 0
    # a grid whose boxes are its rows: no part meets a column, so columns keep unit clauses
    rows_as_boxes = cnf.build(make_geometry(4, box=(1, 4)), "tdoku")
    assert rows_as_boxes.counts["lone_units"] == 4 * 4 * (1 + 6)


def test_variant_families_grow_with_the_geometry():
    knight = cnf.build(make_geometry(9, variants=["anti-knight"]), "extended")
    pairs = len(make_geometry(9, variants=["anti-knight"]).extra_pairs)
    assert knight.counts["pair_differ"] == pairs * 9
    assert all(len(c) == 2 and c[0] < 0 and c[1] < 0 for c in knight.family("pair_differ"))
    diagonal = cnf.build(make_geometry(9, variants=["diagonal"]), "extended")
    assert diagonal.counts["unit_alo"] == 29 * 9


def test_numbering_matches_the_textbook_formula():
    for r in range(1, 10):
        for c in range(1, 10):
            for d in range(1, 10):
                v = NUMBERING.x(9 * (r - 1) + c - 1, d - 1)
                assert v == 81 * (r - 1) + 9 * (c - 1) + d
                assert NUMBERING.cell_digit(v) == (9 * (r - 1) + c - 1, d - 1)


def test_triads_of_9x9_are_box_line_intersections():
    parts = cnf.parts(NINE)
    assert len(parts.cells) == 54
    boxes = NINE.boxes
    for cells in parts.cells:
        assert len(cells) == 3
        assert len({boxes[c] for c in cells}) == 1
        same_row = len({c // 9 for c in cells}) == 1
        same_col = len({c % 9 for c in cells}) == 1
        assert same_row != same_col
    # every group splits one unit: its pieces' cells are exactly that unit's cells
    units = {frozenset(u.cells) for u in NINE.units}
    numbering = cnf.variables(NINE, triads=True)
    piece = {numbering.triad(p, 0): cells for p, cells in enumerate(parts.cells)}
    piece.update({numbering.x(c, 0): (c,) for c in range(NINE.ncells)})
    for bases in parts.groups:
        cells = {c for base in bases for c in piece[base]}
        assert frozenset(cells) in units


def test_encode_returns_a_fresh_cnf_each_call():
    first = cnf.encode(FOUR, "minimal")
    first.clauses.append([1])
    assert len(cnf.encode(FOUR, "minimal").clauses) == len(first.clauses) - 1


def test_unknown_names_are_refused_with_the_choices():
    with pytest.raises(InputError, match="minimal, natural, extended, augmented"):
        cnf.build(NINE, "clever")
    with pytest.raises(InputError, match="seqcounter"):
        cnf.build(NINE, "extended", "native")
    with pytest.raises(InputError, match="seqcounter"):
        cnf.amo_of("native")


# -- model counting -----------------------------------------------------------------------------
@pytest.mark.parametrize("amo", AMO_CHOICES)
@pytest.mark.parametrize("encoding", list(Encoding), ids=str)
def test_empty_4x4_has_288_models(encoding, amo):
    formula = cnf.build(FOUR, encoding, amo)
    grids = set()
    empty = Puzzle.empty(FOUR)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as s:
        while s.solve():
            model = s.get_model()
            grid = cnf.decode(model, FOUR)
            assert is_solution(empty, grid)
            grids.add(grid)
            s.add_clause([-v for v in model[:formula.x_vars] if v > 0])
    assert len(grids) == 288


@pytest.mark.parametrize("encoding", [Encoding.NATURAL, Encoding.EXTENDED, Encoding.AUGMENTED,
                                      Encoding.TDOKU], ids=str)
def test_auxiliary_variables_are_defined_by_the_grid(encoding):
    # Blocking whole models (triad variables included) still finds 288: every triad
    # variable is a function of the cells, so the augmented encoding adds no models.
    formula = cnf.build(FOUR, encoding, "pairwise")
    assert count_models(formula.clauses, formula.x_vars, project=False) == 288


@pytest.mark.parametrize("options", [
    {"variants": ["diagonal"]}, {"variants": ["windoku"]}, {"variants": ["anti-king"]},
    {"box": (1, 4)}, {"regions": "aabb aabb ccdd ccdd"}, {"regions": "aaab abbb cccd cddd"},
], ids=str)
def test_variant_model_counts_agree_with_the_native_solver(options):
    geometry = make_geometry(4, **options)
    expected = get_backend("native").solve(Puzzle.empty(geometry), limit=None).count
    for encoding in Encoding:
        formula = cnf.build(geometry, encoding)
        assert count_models(formula.clauses, formula.x_vars) == expected, encoding


# -- puzzles: givens, decoding, clue reduction ----------------------------------------------------
def test_givens_are_positive_cell_digit_literals():
    puzzle = BY_NAME["grid1"].puzzle()
    lits = cnf.givens(puzzle)
    assert len(lits) == puzzle.clue_count
    assert all(NUMBERING.cell_digit(v) == (c, puzzle.givens[c]) for v, c in
               zip(lits, [c for c, d in enumerate(puzzle.givens) if d != EMPTY], strict=True))


def test_decode_refuses_two_digits_and_lets_givens_decide():
    with pytest.raises(cnf.DecodeError):
        cnf.decode([1, 2], FOUR)
    givens = (0,) + (EMPTY,) * 15
    # literal 2 (A1=2) contradicts the given and literal 5 (A2=1) is fixed false by it
    assert cnf.decode([2, 5, 8], FOUR, givens)[:2] == (0, 3)


@pytest.mark.parametrize("case", slow_if([c for c in CASES if c.puzzle().size <= 9],
                                         lambda c: c.name == "empty9"), ids=lambda c: c.name)
@pytest.mark.parametrize("encoding", slow_if(list(Encoding), lambda e: e not in (
    Encoding.MINIMAL, Encoding.EXTENDED)), ids=str)
def test_clue_reduced_formula_has_the_same_solutions(case, encoding):
    puzzle = case.puzzle()
    reduced = cnf.clue_reduced(puzzle, encoding)
    full = cnf.build(puzzle.geometry, encoding)
    fixed = {abs(lit) for lit in cnf.fixed_literals(puzzle)}
    assert len(reduced.clauses) <= len(full.clauses)
    assert not any(abs(lit) in fixed for clause in reduced.clauses for lit in clause)
    found = []
    with Solver(name="glucose4", bootstrap_with=reduced.clauses) as s:
        while len(found) < 2 and s.solve():
            model = s.get_model()
            grid = cnf.decode(model, puzzle.geometry, puzzle.givens)
            assert is_solution(puzzle, grid)
            found.append(grid)
            s.add_clause(cnf.variables(puzzle.geometry).exclusion(grid, puzzle.givens))
    assert len(found) == {"unique": 1, "multiple": 2, "none": 0}[case.expected.value]
    if case.solution:
        assert cnf.decode(model, puzzle.geometry, puzzle.givens) == \
            parse(case.solution, geometry=puzzle.geometry).givens


def test_clue_reduced_counts_like_the_full_formula():
    puzzle = parse("1..." "...." "...." "...2")
    full = cnf.build(FOUR, "extended")
    units = [[lit] for lit in cnf.givens(puzzle)]
    expected = count_models([*full.clauses, *units], 64)
    reduced = cnf.clue_reduced(puzzle)
    # variables the givens fix no longer occur: count over the free cell variables only
    free = sorted({abs(lit) for c in reduced.clauses for lit in c if abs(lit) <= 64})
    n = 0
    with Solver(name="glucose4", bootstrap_with=reduced.clauses) as s:
        while s.solve():
            model = s.get_model()
            s.add_clause([-v for v in free if model[v - 1] > 0])
            n += 1
    assert n == expected > 1


# -- DIMACS ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"variants": ["diagonal", "anti-knight"]},
                                     {"regions": BY_NAME["jigsaw"].options["regions"]},
                                     {"size": 6}, {"size": 8, "box": (4, 2)}], ids=str)
@pytest.mark.parametrize("encoding", slow_if(list(Encoding), lambda e: e is not Encoding.MINIMAL),
                         ids=str)
def test_dimacs_round_trip(options, encoding):
    options = dict(options)
    geometry = make_geometry(options.pop("size", 9), **options)
    text = dimacs.empty_dimacs(geometry, encoding, "seqcounter")
    back = dimacs.read_dimacs(text)
    formula = cnf.build(geometry, encoding, "seqcounter")
    assert back.geometry == geometry
    assert back.encoding is formula.encoding and back.amo == "seqcounter"
    assert back.cnf.nv == formula.nv
    assert [tuple(c) for c in back.cnf.clauses] == list(formula.clauses)
    assert back.givens is None and not back.reduced
    assert f"p cnf {formula.nv} {len(formula.clauses)}" in text.splitlines()


@pytest.mark.parametrize("reduce", [False, True])
def test_puzzle_dimacs_solves_back_to_the_solution(reduce, tmp_path):
    case = BY_NAME["jigsaw"]
    puzzle = case.puzzle()
    path = tmp_path / "p.cnf"
    path.write_text(dimacs.encode_puzzle_dimacs(puzzle, "extended", "pairwise", reduce))
    back = dimacs.read_dimacs(path)
    assert back.givens == puzzle.givens and back.reduced is reduce
    with open(path) as handle:
        assert len(dimacs.read_dimacs(handle).cnf.clauses) == len(back.cnf.clauses)
    with Solver(name="glucose4", bootstrap_with=back.cnf.clauses) as s:
        assert s.solve()
        grid = cnf.decode(s.get_model(), back.geometry, back.givens)
    assert is_solution(puzzle, grid)
    assert "".join(str(d + 1) for d in grid) == case.solution


def test_read_dimacs_of_a_foreign_file():
    text = "c from elsewhere\nc encoding: latin-1\np cnf 3 2\n1 -2 0\n2 3\n0\n%\n0\n"
    back = dimacs.read_dimacs(io.StringIO(text))
    assert back.cnf.clauses == [[1, -2], [2, 3]] and back.cnf.nv == 3  # "%" ends it (SATLIB)
    # without our header tag, comments that look like ours are not read as ours
    assert back.geometry is None and back.encoding is None and back.amo is None


@pytest.mark.parametrize(("text", "message"), [
    ("p cnf 3 3\n1 -2 0\n", "line 1: the header declares 3 clauses, the file has 1"),
    ("c hello\np dnf 3 1\n1 0\n", "line 2: expected 'p cnf VARIABLES CLAUSES'"),
    ("p cnf three 1\n1 0\n", "line 1: expected 'p cnf"),
    ("p cnf 3 1\np cnf 3 1\n1 0\n", "line 2: a second 'p' line"),
    ("p cnf 3 2\n1 0\n\n2 1.5 0\n", "line 4: '1.5' is not a literal"),
])
def test_read_dimacs_names_the_bad_line(text, message):
    with pytest.raises(dimacs.DimacsError, match=message):
        dimacs.read_dimacs(text)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("c size: 4", "c size: 5", "line 3: geometry: box 2x2 does not tile"),
    ("c box: 2x2", "c box: 2", "line 3: geometry: bad geometry record: box"),
    ("c variants: -", "c variants: bogus", "line 3: geometry: unknown variant 'bogus'"),
    ("c encoding: minimal", "c encoding: clever", "line 6: encoding: unknown encoding"),
    ("c puzzle: 1", "c puzzle: 11", "line 12: puzzle: line 1, column 18"),
])
def test_read_dimacs_names_the_bad_header_line(old, new, message):
    text = dimacs.encode_puzzle_dimacs(parse("1" + "." * 15), "minimal")
    assert old in text
    with pytest.raises(dimacs.DimacsError, match=message) as info:
        dimacs.read_dimacs(text.replace(old, new, 1))
    assert isinstance(info.value, InputError)


def test_clashing_givens_make_the_reduced_formula_unsatisfiable():
    puzzle = BY_NAME["clash"].puzzle()
    reduced = cnf.clue_reduced(puzzle)
    assert [] in reduced.clauses
    with Solver(name="glucose4", bootstrap_with=reduced.clauses) as s:
        assert not s.solve()


# -- the encodings/ folder ----------------------------------------------------------------------
def test_encodings_folder_is_up_to_date():
    folder = REPO / "encodings"
    expected = reference.reference_files()
    stale = [name for name, text in expected.items()
             if not (folder / name).is_file()
             or (folder / name).read_text(encoding="utf-8") != text]
    assert not stale, (f"encodings/ is out of date ({', '.join(stale)}): regenerate with "
                       "sudoku_csp.encodings.reference.write_reference_files('encodings')")
    extra = {p.name for p in folder.glob("*.cnf")} - expected.keys()
    assert not extra, f"encodings/ holds files no encoding produces: {sorted(extra)}"


def test_reference_files_read_back(tmp_path):
    written = reference.write_reference_files(tmp_path)
    assert {p.name for p in written} == set(reference.reference_files())
    nine = dimacs.read_dimacs(tmp_path / "sudoku_9x9_extended.cnf")
    assert nine.geometry == NINE and len(nine.cnf.clauses) == 11_988
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    for count in ("8,829", "11,745", "11,988", "15,228"):
        assert count in readme


@pytest.mark.parametrize("amo", cnf.AMO_CHOICES)
def test_at_least_one_is_the_clause_pysat_card_writes(amo):
    # Cards.at_least_one writes the one clause itself (start-up, issue 34): the same clause
    # as pysat.card's bound of 1 in every encoding, with no auxiliary variable taken.
    from pysat.card import CardEnc, EncType

    from sudoku_csp.encodings.families import Cards
    from sudoku_csp.modeling.variables import variables

    cards = Cards(amo, variables(make_geometry(9)))
    for lits in ([1, 2, 3, 4, 5, 6, 7, 8, 9], [5, -40, 700], [12]):
        top = cards.pool.top
        theirs = CardEnc.atleast(lits, 1, top_id=10_000, encoding=getattr(EncType, amo))
        assert cards.at_least_one(lits) == theirs.clauses and cards.pool.top == top


def test_pairwise_at_most_one_is_the_clauses_pysat_card_writes():
    # Cards writes pairwise at-most-ones itself (start-up, issue 34), clause for clause as
    # pysat.card does, in its order.
    from pysat.card import CardEnc, EncType

    from sudoku_csp.encodings.families import Cards
    from sudoku_csp.modeling.variables import variables

    cards = Cards("pairwise", variables(make_geometry(9)))
    for lits in ([1, 2, 3, 4, 5, 6, 7, 8, 9], [5, -40, 700, 3], [12], [7, 8]):
        theirs = CardEnc.atmost(lits, 1, top_id=10_000, encoding=EncType.pairwise)
        assert cards.at_most_one(lits) == theirs.clauses
