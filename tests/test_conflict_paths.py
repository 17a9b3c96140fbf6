"""Every conflict a command reports is a conflict of the puzzle as read, with all its rules:
through the commands themselves (count, solve, check, show, explain, candidates,
disambiguate; one puzzle on the command line and files; JSON and text), on every input form
a puzzle can come in (its line with the geometry options, its JSON, f-puzzles JSON and link,
SudokuPad links), over geometries whose rules a line of digits does not carry (boxes of
another shape, jigsaw regions, variants) and every registered kind.

Each reported conflict is checked by CP-SAT, not by the SAT solver that found it: its parts
alone have no solution under the puzzle's full rules, and leaving out any one of them leaves
a puzzle with one. A conflict worked out from the digits alone (the record's line) fails:
on a 6x6 with 3x2 boxes, givens R1C1=1 and R3C2=1 clash, which 2x3 boxes allow.
"""

from __future__ import annotations

import json
import random
from functools import cache

import lzstring
import pytest
from cases import slow_if
from typer.testing import CliRunner

from sudoku_csp.backends import get_backend
from sudoku_csp.cli import app
from sudoku_csp.constraints import KINDS, UnsupportedError
from sudoku_csp.geometry import EMPTY, Geometry
from sudoku_csp.io import fpuzzles_json, fpuzzles_url, json_line, to_line
from sudoku_csp.io.fpuzzles import FPUZZLES_PREFIX
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.setter import Conflict, puzzle_of, puzzle_parts
from sudoku_csp.setter.session import Part
from sudoku_csp.variants import geometry_record, make_geometry

runner = CliRunner()
CPSAT = get_backend("cpsat")
PLAIN6 = make_geometry(6)

# Six connected regions of six cells, none of them a 2x3 or 3x2 box.
JIGSAW6 = "AAABBB" "ACABDB" "ACCDDB" "ECCDFF" "EECDDF" "EEEFFF"
GEOMETRIES = {
    "3x2 boxes": make_geometry(6, box=(3, 2)),
    "jigsaw": make_geometry(6, regions=JIGSAW6),
    "anti-knight": make_geometry(6, variants=["anti-knight"]),
    "diagonal": make_geometry(6, variants=["diagonal"]),
    "disjoint": make_geometry(6, variants=["disjoint"]),
}
KIND_NAMES = [k.kind for k in KINDS]


@cache
def _grids(geometry: Geometry, rule: tuple = ()) -> tuple[tuple[int, ...], ...]:
    """Up to 200 grids of ``geometry`` that keep ``rule`` (a kind's grid rule)."""
    empty = Puzzle(geometry, (EMPTY,) * geometry.ncells, constraints=rule)
    return get_backend("native").solve(empty, limit=200).solutions


def _rules_clash(geometry: Geometry, seed: int) -> Puzzle:
    """Some givens of a grid, and one more that clashes with one of them only under a rule
    of ``geometry`` that a plain 6x6 (2x3 boxes) does not have: the same givens on a plain
    6x6 have a solution, so a conflict worked out from the digits alone is none at all."""
    rng = random.Random(f"{geometry.name} {seed}")
    plain = [set(PLAIN6.peers[c]) for c in range(36)]
    pairs = [(a, b) for a in range(36) for b in geometry.peers[a] if b not in plain[a]]
    while True:
        grid = rng.choice(_grids(geometry))
        a, b = rng.choice(pairs)
        givens = [grid[c] if rng.random() < 0.2 else EMPTY for c in range(36)]
        givens[a] = givens[b] = grid[a]
        if CPSAT.solve(Puzzle(PLAIN6, tuple(givens)), limit=1).status is not Status.NONE:
            return Puzzle(geometry, tuple(givens))


def _broken(name: str, geometry: Geometry, seed: int) -> Puzzle:
    """The kind's sampled constraints around a grid of ``geometry``, a third of the grid's
    digits, and one wrong given that leaves no solution (CP-SAT says so)."""
    kind = next(k for k in KINDS if k.kind == name)
    rng = random.Random(f"{name} {geometry.name} {seed}")
    grids = _grids(geometry, kind.grid_rule())
    for _ in range(20 if grids else 0):
        grid = rng.choice(grids)
        constraints = tuple(kind.sample(geometry, grid, rng))
        if not constraints:
            continue
        shown = set(rng.sample(range(36), 12))
        givens = [grid[c] if c in shown else EMPTY for c in range(36)]
        for cell in rng.sample([c for c in range(36) if c not in shown], 8):
            trial = list(givens)
            trial[cell] = (grid[cell] + rng.randrange(1, 6)) % 6
            puzzle = Puzzle(geometry, tuple(trial), constraints=constraints)
            if CPSAT.solve(puzzle, limit=1).status is Status.NONE:
                return puzzle
    pytest.skip(f"{name} on {geometry.name}: no sampled puzzle was left without a solution")


# -- the input forms ----------------------------------------------------------------------------
def _geometry_options(geometry: Geometry) -> list[str]:
    """The command-line options that give a line ``geometry``'s rules."""
    record = geometry_record(geometry, compact=True)
    options = [f"--box={record['box']}"] if "box" in record else []
    options += [f"--variant={v}" for v in record.get("variants", [])]
    return options + ([f"--regions={record['regions']}"] if "regions" in record else [])


def _scl_link(puzzle: Puzzle) -> str:
    """SudokuPad's own payload (givens and regions; no variants, no constraints)."""
    g = puzzle.geometry
    cells = [[{"value": puzzle.givens[r * 6 + c] + 1} if puzzle.givens[r * 6 + c] != EMPTY
              else {} for c in range(6)] for r in range(6)]
    regions = [[[c // 6, c % 6] for c in range(36) if g.boxes[c] == b] for b in range(6)]
    text = json.dumps({"cellSize": 50, "cells": cells, "regions": regions})
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(text)


def _forms(puzzle: Puzzle) -> dict[str, tuple[str, list[str]]]:
    """Every form the puzzle can be written in: form name -> (text, command-line options)."""
    forms = {"json": (json_line(puzzle), [])}
    line = to_line(puzzle)
    if not line.startswith("{"):  # a plain or killer line: the geometry comes as options
        forms["line"] = (line, _geometry_options(puzzle.geometry))
    try:
        forms["fpuzzles"] = (fpuzzles_json(puzzle), [])
    except UnsupportedError:
        return forms
    url = fpuzzles_url(puzzle)
    forms["fpuzzles-url"] = (url, [])
    forms["sudokupad-fpuzzles"] = (
        "https://sudokupad.app/fpuzzles" + url.removeprefix(FPUZZLES_PREFIX), [])
    if not puzzle.constraints and set(puzzle.geometry.variants) <= {"jigsaw"}:
        forms["sudokupad-scl"] = (_scl_link(puzzle), [])
    return forms


# -- the commands -------------------------------------------------------------------------------
BATCH = ("count", "solve", "check")  # through the batch runner
ONE = ("show --conflict", "explain", "candidates", "disambiguate")  # a puzzle's first puzzle


def _run(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 4, (args, result.output)
    return result.output


def _reported(command: str, source: str, options: list[str]) -> list[list[str]]:
    """The conflicts ``command --json`` reports (one per JSON record carrying one)."""
    words = command.split()
    out = _run([*words, source, *options, "--json"]) if words[0] != "show" else None
    if out is None:  # show has no --json: its one line, checked against the others later
        return []
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    found = [r["conflict"] for r in records if "conflict" in r]
    assert found and all(r.get("conflict_minimal") for r in records if "conflict" in r), out
    return found


def _text(command: str, source: str, options: list[str]) -> str:
    return _run([*command.split(), source, *options])


def _parts(puzzle: Puzzle, names: list[str]) -> list[Part]:
    """The parts of ``puzzle`` the names name (AssertionError for a name it has not)."""
    pool = puzzle_parts(puzzle)
    chosen = []
    for name in names:
        part = next((p for p in pool if p.name == name), None)
        assert part is not None, f"{name!r} is no part of the puzzle: {[p.name for p in pool]}"
        pool.remove(part)
        chosen.append(part)
    return chosen


def _assert_true_conflict(puzzle: Puzzle, parts: list[Part]) -> None:
    """By CP-SAT: the parts have no solution together, and every part is needed."""
    assert CPSAT.solve(puzzle_of(puzzle, parts), limit=1).status is Status.NONE, \
        [p.name for p in parts]
    for i, part in enumerate(parts):
        rest = puzzle_of(puzzle, parts[:i] + parts[i + 1:])
        assert CPSAT.solve(rest, limit=1).status is not Status.NONE, part.name


def _check_every_path(puzzle: Puzzle, tmp_path, batch: tuple[str, ...],
                      one: tuple[str, ...] = (), forms: tuple[str, ...] | None = None) -> None:
    """Run the ``batch`` commands on each form (one puzzle on the command line, and a file
    of it), the ``one`` commands on the command line's puzzle, and check what they say."""
    checked: dict[tuple[str, ...], str] = {}  # names -> the message they make
    for form, (text, options) in _forms(puzzle).items():
        if forms is not None and form not in forms:
            continue
        path = tmp_path / f"{form}.txt"
        path.write_text(text + "\n", encoding="utf-8")
        runs = [(c, s) for c in batch for s in (text, str(path))] + [(c, text) for c in one]
        for command, source in runs:
            for names in _reported(command, source, options):
                if tuple(names) not in checked:
                    parts = _parts(puzzle, names)
                    _assert_true_conflict(puzzle, parts)
                    checked[tuple(names)] = Conflict(puzzle, tuple(parts)).message()
            # The text output says the same: its message is one of a checked conflict.
            said = _text(command, source, options)
            assert any(message in said for message in checked.values()), (command, said)
    assert checked


# -- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", slow_if(range(3), lambda seed: seed > 0))
@pytest.mark.parametrize("shape", GEOMETRIES)
def test_conflicts_of_rules_a_line_does_not_carry(shape, seed, tmp_path):
    puzzle = _rules_clash(GEOMETRIES[shape], seed)
    if seed == 0:  # the inner loop: count (check and solve: the issue's example below)
        _check_every_path(puzzle, tmp_path, ("count",))
    else:
        _check_every_path(puzzle, tmp_path, BATCH, ONE)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_conflicts_of_every_kind(name, tmp_path):
    puzzle = _broken(name, GEOMETRIES["3x2 boxes"], 0)
    _check_every_path(puzzle, tmp_path, ("count",), forms=("json",))


@pytest.mark.slow
@pytest.mark.parametrize("name", KIND_NAMES)
def test_conflicts_of_every_kind_on_another_geometry_through_every_path(name, tmp_path):
    others = [shape for shape in GEOMETRIES if shape != "3x2 boxes"]
    shape = others[KIND_NAMES.index(name) % len(others)]
    # solve shares its path with count (the rules-clash cases run it).
    _check_every_path(_broken(name, GEOMETRIES[shape], 1), tmp_path, ("count", "check"), ONE)


def test_the_issue_example_names_the_real_clash():
    # f-puzzles, 6x6 with 3x2 regions: R1C1 and R2C3 can stand together, R1C1 and R3C2 not.
    regions = [[{"region": (r // 3) * 3 + c // 2} for c in range(6)] for r in range(6)]
    for r, c in ((0, 0), (1, 2), (2, 1)):
        regions[r][c].update(value=1, given=True)
    text = json.dumps({"size": 6, "grid": regions})
    for command in BATCH:
        (record,) = [json.loads(line) for line in _run([command, text, "--json"]).splitlines()]
        assert record["conflict"] == ["given R1C1=1", "given R3C2=1"], command
        assert record["conflict_minimal"]
        assert "given R1C1=1, given R3C2=1" in _run([command, text])


def test_a_variant_flag_of_f_puzzles_is_part_of_the_conflict():
    # 9x9 anti-knight: R1C3=1 and R2C5=1 are a knight's move apart (no conflict without it).
    rows = [[{} for _ in range(9)] for _ in range(9)]
    rows[0][2] = rows[1][4] = {"value": 1, "given": True}
    text = json.dumps({"size": 9, "grid": rows, "antiknight": True})
    for command in BATCH:
        (record,) = [json.loads(line) for line in _run([command, text, "--json"]).splitlines()]
        assert record["conflict"] == ["given R1C3=1", "given R2C5=1"], command


def test_the_outcome_holds_the_puzzle_as_read_from_workers_too(tmp_path):
    # Worker processes send lines back; the puzzle as read stays in this process.
    from sudoku_csp.batch import run_batch
    from sudoku_csp.io import puzzle_texts

    anti = _rules_clash(GEOMETRIES["anti-knight"], 0)
    path = tmp_path / "two.txt"
    path.write_text(f"{to_line(anti)}\n{to_line(anti)}\n", encoding="utf-8")
    texts = list(puzzle_texts([str(path)], variants=("anti-knight",)))
    for jobs in (1, 2):
        outcomes = list(run_batch(texts, ["native"], jobs=jobs))
        assert [o.puzzle_as_read() for o in outcomes] == [anti, anti]
