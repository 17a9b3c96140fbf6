"""Uniqueness certificates: produced, checked, and refused when any part is tampered with."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from cases import BY_NAME, CASES, CONSTRAINED_CASES, GRID2, KILLER4, slow_if

from sudoku_csp import InputError, Status, format_line, parse
from sudoku_csp.certify import (
    FORMULA,
    MANIFEST,
    PROOF,
    PROOF_SOLVERS,
    NotUniqueError,
    certificate_formula,
    certify,
    exclusion_clause,
    prove,
    verify_certificate,
)
from sudoku_csp.io import to_line
from sudoku_csp.rup import check_proof
from sudoku_csp.variants import geometry_from_record, geometry_record


def _manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def _write_manifest(folder: Path, manifest: dict) -> None:
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


# -- valid certificates -------------------------------------------------------------------------
def test_valid_certificate_passes(certificate):
    check = verify_certificate(certificate)
    assert check.ok, check.reason
    assert bool(check) and check.reason == ""
    assert to_line(check.puzzle) == to_line(parse(GRID2))
    assert format_line(check.puzzle.geometry, check.solution) == BY_NAME["grid2"].solution
    assert check.lemmas > 0 and 0 < check.checked <= check.lemmas


def test_certificate_files(certificate):
    manifest = _manifest(certificate)
    assert manifest["puzzle"] == to_line(parse(GRID2))
    assert manifest["geometry"]["size"] == 9 and manifest["encoding"] == "extended"
    cnf_text = (certificate / FORMULA).read_text(encoding="utf-8")
    p_line = next(line for line in cnf_text.splitlines() if line.startswith("p "))
    assert p_line == f"p cnf {manifest['variables']} {manifest['clauses']}"
    assert "c exclusion:" in cnf_text
    assert (certificate / PROOF).read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("solver", slow_if(PROOF_SOLVERS, lambda name: name not in (
    "cadical195", "minisat22")))
def test_every_listed_solver_gives_a_checkable_proof(solver, tmp_path):
    certify(parse(GRID2), tmp_path, solver=solver)
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason


@pytest.mark.parametrize("name", slow_if(["4x4", "6x6", "jigsaw", "diagonal+anti-knight",
                                          "windoku", "grid1"], lambda name: name == "windoku"))
def test_other_geometries(name, tmp_path):
    puzzle = BY_NAME[name].puzzle()
    cert = certify(puzzle, tmp_path, encoding="augmented" if name == "windoku" else "extended")
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason
    assert check.puzzle.geometry == puzzle.geometry
    assert cert.solution == check.solution


@pytest.mark.parametrize("case", [c for c in CASES if c.expected is Status.UNIQUE],
                         ids=lambda c: c.name)
def test_geometry_record_round_trip(case):
    geometry = case.puzzle().geometry
    assert geometry_from_record(json.loads(json.dumps(geometry_record(geometry)))) == geometry


# -- puzzles with nothing to certify -------------------------------------------------------------
def test_multiple_solutions_refused(tmp_path):
    with pytest.raises(NotUniqueError) as info:
        certify(BY_NAME["hard1"].puzzle(), tmp_path)
    assert info.value.status is Status.MULTIPLE
    assert isinstance(info.value, InputError)  # the CLI reports it, never as a crash
    first, second = info.value.solutions
    assert first != second
    assert not (tmp_path / MANIFEST).exists()


@pytest.mark.parametrize("name", ["clash", "unsolvable"])
def test_no_solution_refused(name, tmp_path):
    with pytest.raises(NotUniqueError) as info:
        certify(BY_NAME[name].puzzle(), tmp_path)
    assert info.value.status is Status.NONE


def test_wrong_given_solution_refused():
    with pytest.raises(InputError, match="wrong"):
        prove(parse(GRID2), solution=[0] * 81)


def test_solver_without_proofs_refused():
    with pytest.raises(InputError, match="cannot log proofs"):
        prove(parse("3.1...4.2......."), solver="minisat22")
    with pytest.raises(InputError, match="cannot log proofs"):
        certify(parse("3.1...4.2......."), "unused", solver="no-such-solver")


def test_solver_aliases(tmp_path):
    assert certify(parse("3.1...4.2......."), tmp_path, solver="g4").solver == "glucose4"
    assert _manifest(tmp_path)["solver"] == "glucose4"


# -- tampering ------------------------------------------------------------------------------------
def _lemma_that_matters(folder: Path) -> int:
    """The index (among proof lines) of a lemma whose removal breaks the proof."""
    manifest = _manifest(folder)
    puzzle = parse(manifest["puzzle"])
    solution = parse(manifest["solution"]).givens
    nv, clauses = certificate_formula(puzzle, solution)
    lines = (folder / PROOF).read_text(encoding="utf-8").splitlines()
    lemmas = [i for i, line in enumerate(lines) if not line.startswith("d") and line != "0"]
    # Learnt clauses first (CaDiCaL's many units are mostly re-derivable), last first.
    for i in sorted(lemmas, key=lambda i: (len(lines[i].split()) <= 2, -i)):
        if not check_proof(nv, clauses, lines[:i] + lines[i + 1:]).ok:
            return i
    raise AssertionError("no single lemma matters in this proof")


@pytest.mark.parametrize("solver", ["glucose4", "cadical195"])
def test_proof_with_a_lemma_removed_fails(solver, copy):
    if solver != "cadical195":  # the fixture's solver; Glucose's proofs are short
        certify(parse(GRID2), copy, solver=solver)
    lines = (copy / PROOF).read_text(encoding="utf-8").splitlines()
    drop = _lemma_that_matters(copy)
    (copy / PROOF).write_text("\n".join(lines[:drop] + lines[drop + 1:]) + "\n",
                              encoding="utf-8")
    check = verify_certificate(copy)
    assert not check.ok
    assert check.reason.startswith("proof rejected")


def test_empty_proof_fails(copy):
    (copy / PROOF).write_text("", encoding="utf-8")
    check = verify_certificate(copy)
    assert not check.ok and "empty clause" in check.reason


def test_changed_witness_fails(copy):
    manifest = _manifest(copy)
    solution = manifest["solution"]
    manifest["solution"] = solution[1] + solution[0] + solution[2:]  # swap A1 and A2
    _write_manifest(copy, manifest)
    check = verify_certificate(copy)
    assert not check.ok and "witness" in check.reason


def test_witness_of_another_puzzle_fails(copy):
    manifest = _manifest(copy)
    manifest["solution"] = BY_NAME["grid1"].solution
    _write_manifest(copy, manifest)
    assert "witness" in verify_certificate(copy).reason


def test_changed_given_fails(copy):
    manifest = _manifest(copy)
    puzzle = manifest["puzzle"]
    first = next(i for i, ch in enumerate(puzzle) if ch != ".")
    other = "1" if puzzle[first] != "1" else "2"
    manifest["puzzle"] = puzzle[:first] + other + puzzle[first + 1:]
    _write_manifest(copy, manifest)
    assert not verify_certificate(copy).ok


def test_removed_given_fails_against_the_file(copy):
    manifest = _manifest(copy)
    puzzle = manifest["puzzle"]
    first = next(i for i, ch in enumerate(puzzle) if ch != ".")
    manifest["puzzle"] = puzzle[:first] + "." + puzzle[first + 1:]
    _write_manifest(copy, manifest)
    check = verify_certificate(copy)
    assert not check.ok and FORMULA in check.reason


def test_removed_given_fails_even_with_a_matching_formula(copy):
    """A forger who rewrites formula.cnf to match still needs a proof: the 17-clue puzzle is
    minimal, so without a given it has two solutions and no refutation exists."""
    manifest = _manifest(copy)
    puzzle_text = manifest["puzzle"]
    first = next(i for i, ch in enumerate(puzzle_text) if ch != ".")
    manifest["puzzle"] = puzzle_text[:first] + "." + puzzle_text[first + 1:]
    _write_manifest(copy, manifest)
    from sudoku_csp.certify.make import _formula_dimacs

    puzzle = parse(manifest["puzzle"])
    solution = parse(manifest["solution"]).givens
    (copy / FORMULA).write_text(_formula_dimacs(puzzle, solution, "extended", "pairwise"),
                                encoding="utf-8")
    check = verify_certificate(copy)
    assert not check.ok and check.reason.startswith("proof rejected")


@pytest.mark.parametrize("fix_count", [False, True])
def test_formula_missing_a_clause_fails(copy, fix_count):
    lines = (copy / FORMULA).read_text(encoding="utf-8").splitlines()
    p_at = next(i for i, line in enumerate(lines) if line.startswith("p "))
    del lines[p_at + 100]  # a clause of the encoding
    if fix_count:
        _, _, nv, count = lines[p_at].split()
        lines[p_at] = f"p cnf {nv} {int(count) - 1}"
    (copy / FORMULA).write_text("\n".join(lines) + "\n", encoding="utf-8")
    check = verify_certificate(copy)
    assert not check.ok and FORMULA in check.reason


def test_formula_with_an_extra_clause_fails(copy):
    with open(copy / FORMULA, "a", encoding="utf-8") as handle:
        handle.write("1 0\n")
    assert not verify_certificate(copy).ok


def test_missing_or_foreign_files_fail(copy, tmp_path):
    assert "cannot read" in verify_certificate(tmp_path / "nowhere").reason
    (copy / PROOF).unlink()
    assert "cannot read" in verify_certificate(copy).reason
    _write_manifest(copy, {"format": "something else"})
    assert "format" in verify_certificate(copy).reason


def test_bad_geometry_record_fails(copy):
    manifest = _manifest(copy)
    manifest["geometry"]["size"] = 7
    _write_manifest(copy, manifest)
    check = verify_certificate(copy)
    assert not check.ok and "geometry" in check.reason


# -- the formula -------------------------------------------------------------------------------
def test_exclusion_clause_covers_open_cells_only():
    puzzle = parse(GRID2)
    solution = parse(BY_NAME["grid2"].solution).givens
    clause = exclusion_clause(puzzle, solution)
    assert len(clause) == 81 - puzzle.clue_count
    assert all(lit < 0 for lit in clause)


# -- typed constraints --------------------------------------------------------------------------
@pytest.mark.parametrize("case", slow_if(  # every kind on 4x4 and 6x6 in the inner loop
    [c for c in CONSTRAINED_CASES if c.expected is Status.UNIQUE], lambda c: "9" in c.name),
    ids=lambda c: c.name)
def test_constrained_puzzles_are_certified_and_checked(case, tmp_path):
    made = certify(case.puzzle(), tmp_path)
    assert verify_certificate(tmp_path).ok
    assert made.clauses > len(certificate_formula(parse("." * made.puzzle.geometry.ncells,
                                                        size=made.puzzle.geometry.size),
                                                  made.solution)[1]) - 1


def test_killer_certificate_records_the_sum_encoding_and_catches_a_changed_sum(tmp_path):
    killer = parse(KILLER4)
    certify(killer, tmp_path, options={"sums": "totalizer"})
    manifest = _manifest(tmp_path)
    assert manifest["sums"] == "totalizer" and manifest["puzzle"] == KILLER4
    assert verify_certificate(tmp_path).ok
    manifest["puzzle"] = KILLER4.replace(" 5,6,", " 4,6,")  # cage A: 4 (1 + 3) for 5
    _write_manifest(tmp_path, manifest)
    check = verify_certificate(tmp_path)
    assert not check.ok and "witness" in check.reason
    manifest["puzzle"], manifest["sums"] = KILLER4, "no-such"
    _write_manifest(tmp_path, manifest)
    assert "unknown cage-sum encoding" in verify_certificate(tmp_path).reason


def test_killer_certificate_with_a_cage_clause_removed_fails(tmp_path):
    certify(parse(KILLER4), tmp_path)
    formula = (tmp_path / FORMULA).read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(formula) if line.startswith("p "))
    nv, count = formula[header].split()[2:]
    del formula[-2]  # a cage clause: the last line is the exclusion clause
    formula[header] = f"p cnf {nv} {int(count) - 1}"
    (tmp_path / FORMULA).write_text("\n".join(formula) + "\n", encoding="utf-8")
    assert "not the formula derived" in verify_certificate(tmp_path).reason


@pytest.mark.parametrize("seers", ["on", "off"])
def test_a_manifest_from_before_an_option_reads_as_it_was_made(seers, tmp_path):
    # Killer certificates made before the ``seers`` option existed carry the seers' clauses
    # and no word of them: a manifest without the option reads as ``seers=on`` (what it was
    # made with), so such a certificate still checks, and one made with ``off`` does not
    # once the word is gone (its formula no longer matches the puzzle's).
    certify(KILLER4, tmp_path, options={"seers": seers})
    assert verify_certificate(tmp_path).ok
    manifest = _manifest(tmp_path)
    assert manifest.pop("seers") == seers
    _write_manifest(tmp_path, manifest)
    assert verify_certificate(tmp_path).ok is (seers == "on")


def test_a_certificate_from_before_house_cages_still_verifies():
    # Written by stop 44's code (8b94028) for a 4x4 with a cage of four cells and no sum,
    # before such a cage was read as a house: its manifest names no ``house_cages`` (nor
    # ``seers``), so it reads as made then, and the formula it holds is still the derived one.
    folder = Path(__file__).with_name("certificates") / "old_fullcage"
    check = verify_certificate(folder)
    assert check.ok, check.reason
    assert "house_cages" not in _manifest(folder) and "seers" not in _manifest(folder)


def test_a_certificate_from_before_renban_seers_still_verifies():
    # Written by stop 45's code (5675c5f) for a 6x6 whose two renbans of four cells have
    # cells that see all of them, before renban_seers: its manifest names no such option, so
    # it reads as made then (off), and the formula it holds is still the derived one.
    folder = Path(__file__).with_name("certificates") / "old_renban"
    check = verify_certificate(folder)
    assert check.ok, check.reason
    assert "renban_seers" not in _manifest(folder)


@pytest.mark.parametrize(("folder", "written"), [("old_sandwich", "lengths"),
                                                  ("old_sandwich_pairs", None),
                                                  ("old_sandwich_lines", "lines")])
def test_a_certificate_from_an_earlier_sandwich_default_still_verifies(folder, written,
                                                                       tmp_path):
    # A 6x6 with sandwiches on rows and columns from all four sides, certified by stop 47's
    # code (e147c4f: sandwich_cnf=lengths, its default then), by the code before the
    # option (8a08ce5: its manifest names none, written as `pairs` writes them) and by stop
    # 53's (0f36239: lines, before crusts): each reads as made then, and its formula is
    # still the derived one. Certified now, the manifest names crusts, the formula differs
    # (each crust's partners), and it verifies too.
    path = Path(__file__).with_name("certificates") / folder
    check = verify_certificate(path)
    assert check.ok, check.reason
    assert _manifest(path).get("sandwich_cnf") == written
    certify(parse(_manifest(path)["puzzle"]), tmp_path)
    assert _manifest(tmp_path)["sandwich_cnf"] == "crusts"
    assert (tmp_path / "formula.cnf").read_text() != (path / "formula.cnf").read_text()
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason


def test_a_certificate_from_before_line_totals_still_verifies(tmp_path):
    # A 6x6 with region-sum lines, two zipper lines (odd and even) and a skyscraper,
    # certified by stop 48's code (f4d0fa6), before region_sums=sets and zipper_sums=totals:
    # its manifest names neither, so both read as made then (the automaton's clauses), and
    # its formula is still the derived one. Certified again now, the manifest names the new
    # encodings, and that certificate verifies too.
    old = Path(__file__).with_name("certificates") / "old_lines"
    check = verify_certificate(old)
    assert check.ok, check.reason
    manifest = _manifest(old)
    assert "region_sums" not in manifest and "zipper_sums" not in manifest
    certify(parse(manifest["puzzle"]), tmp_path)
    assert (_manifest(tmp_path)["region_sums"], _manifest(tmp_path)["zipper_sums"]) == (
        "sets", "totals")
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason


@pytest.mark.parametrize(("folder", "option", "now"), [
    # Certified by stop 50's code (40df738). A 6x6 of thermometers, between lines and slow
    # thermometers crossing on cells (C4 on two between lines, F4 on two slow
    # thermometers): each line wrote its own order literals, which are now each cell's
    # definition, ahead of the line's clauses.
    ("old_orders", "cell_orders", "shared"),
    # By stop 50's code too: a 6x6 of lockout lines (F3 ends two lines, E6 two), the
    # automaton's clauses, now the ends' order literals.
    ("old_lockout", "lockout_order", "on"),
    # By stop 51's code (e04d3b2): a 6x6 of eight little killers, generated (`generate
    # --kind little-killer --size 6 --seed 7`), every bound of its runs written, now the
    # loosest of those that refute a run.
    ("old_little_killers", "bounds_rows", "loosest")])
def test_a_certificate_from_before_a_line_option_still_verifies(tmp_path, folder, option,
                                                                now):
    # Made before the option: its manifest names none, so it reads as made then, and its
    # formula is still the derived one. Certified again now, the manifest names the new
    # default, the formula is laid out otherwise, and it verifies too.
    old = Path(__file__).with_name("certificates") / folder
    check = verify_certificate(old)
    assert check.ok, check.reason
    assert option not in _manifest(old)
    certify(parse(_manifest(old)["puzzle"]), tmp_path)
    assert _manifest(tmp_path)[option] == now
    assert (tmp_path / "formula.cnf").read_text() != (old / "formula.cnf").read_text()
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason


def test_a_killer_certified_with_its_cages_in_another_order_verifies(tmp_path):
    # The manifest writes a killer whose cages cover the grid as its line, which reads the
    # cages back in the line's order: the formula is derived from that reading too.
    line = parse(KILLER4)
    assert len(line.constraints) > 1
    puzzle = dataclasses.replace(line, constraints=tuple(reversed(line.constraints)))
    certify(puzzle, tmp_path)
    check = verify_certificate(tmp_path)
    assert check.ok, check.reason
