"""The recipe of encodings/README.md for decoding a model of a clue-reduced DIMACS file,
followed to the letter, as an outside user would: the decoders here read only the file's text
and a solver's model (no sudoku_csp code), and the solver loads the formula from that text.
sudoku_csp only writes the files and checks the answers. Also ``cnf.encode`` of a puzzle.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cases import BY_NAME, slow_if
from pysat.formula import CNF
from pysat.solvers import Solver

from sudoku_csp import Puzzle, Status, get_backend, make_geometry, violations
from sudoku_csp.encodings import cnf, dimacs
from sudoku_csp.encodings.cnf import Encoding
from sudoku_csp.io import parse

REPO = Path(__file__).resolve().parents[1]

# The first puzzles of top95 (hard 9×9, 17-21 givens), copied so that the test stands alone.
TOP95 = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
    "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
)
PUZZLES = [parse(line) for line in TOP95] + [
    BY_NAME[name].puzzle() for name in ("4x4", "16x16", "diagonal", "anti-knight", "jigsaw")]
PUZZLE_IDS = [f"top95-{i + 1}" for i in range(len(TOP95))] + [
    "4x4", "16x16", "diagonal", "anti-knight", "jigsaw"]

# CaDiCaL prints variables that occur in no clause true (its default phase), which is what
# makes a careless decoder fail; minisat-like solvers print them false and hide the mistake.
SOLVER = "cadical195"

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # the README: 1…9, then A = 10, B = 11, …


# -- an outside user's decoder, from the README's words ------------------------------------
def read_text(text: str) -> tuple[dict[str, str], list[list[int]]]:
    """The header's ``c key: value`` comments (the first of each key) and the clauses."""
    header: dict[str, str] = {}
    clauses: list[list[int]] = []
    clause: list[int] = []
    for line in text.splitlines():
        if line.startswith("c"):
            key, sep, value = line[1:].partition(":")
            if sep:
                header.setdefault(key.strip(), value.strip())
        elif line and not line.startswith("p"):
            for lit in map(int, line.split()):
                if lit:
                    clause.append(lit)
                else:
                    clauses.append(clause)
                    clause = []
    return header, clauses


def given_digits(header: dict[str, str]) -> list[int]:
    """The puzzle of the header, one 1-based digit per cell, 0 for an open cell."""
    return [0 if s == "." else SYMBOLS.index(s) + 1 for s in header["puzzle"]]


def fixed_by_occurrence(header: dict[str, str], clauses: list[list[int]]) -> set[int]:
    """The README: "the fixed variables are exactly the variables of 1..N³ that occur in no
    clause of the file"."""
    n = int(header["size"])
    return set(range(1, n ** 3 + 1)) - {abs(lit) for clause in clauses for lit in clause}


def fixed_by_rules(header: dict[str, str]) -> set[int]:
    """The README's list: for each given digit d in cell c, every x(c, ·), and x(p, d) for
    every peer p of c (sharing a row, column, box, diagonal or jigsaw region with c, or an
    anti-knight pair). Only the variants these tests use."""
    n = int(header["size"])
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    if "regions" in header:
        regions = header["regions"]
        units += [[cell for cell in range(n * n) if regions[cell] == s] for s in set(regions)]
    else:
        h, w = map(int, header["box"].split("x"))
        units += [[(top + r) * n + left + c for r in range(h) for c in range(w)]
                  for top in range(0, n, h) for left in range(0, n, w)]
    variants = header["variants"].split()
    pairs = set()
    for cell in range(n * n):
        r, c = divmod(cell, n)
        for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)) if "anti-knight" in variants else ():
            if 0 <= r + dr < n and 0 <= c + dc < n:
                pairs.add((cell, (r + dr) * n + c + dc))
    if "diagonal" in variants:
        units += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    assert set(variants) <= {"-", "diagonal", "anti-knight"}, "a variant this test lacks"
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units:
        for cell in unit:
            peers[cell].update(unit)
    for a, b in pairs:
        peers[a].add(b)
        peers[b].add(a)
    fixed = set()
    for cell, d in enumerate(given_digits(header)):
        if d:
            fixed.update(cell * n + e for e in range(1, n + 1))
            fixed.update(p * n + d for p in peers[cell] - {cell})
    return fixed


def decode(header: dict[str, str], model: list[int], fixed: set[int]) -> list[int]:
    """The README's two steps; 1-based digits per cell. Fails on a cell with no digit or two."""
    n = int(header["size"])
    grid = given_digits(header)  # step 1: every given cell its given digit
    for v in model:  # step 2
        if 0 < v <= n ** 3 and v not in fixed:
            cell, digit = (v - 1) // n, (v - 1) % n + 1
            assert not grid[cell], f"cell {cell} gets two digits ({grid[cell]} and {digit})"
            grid[cell] = digit
    assert all(grid), f"cells {[c for c, d in enumerate(grid) if not d]} get no digit"
    return grid


def solve(text: str) -> list[int]:
    """A model of the DIMACS text, loaded as an external tool would load it."""
    with Solver(name=SOLVER, bootstrap_with=CNF(from_string=text).clauses) as solver:
        assert solver.solve()
        return solver.get_model()


# -- the recipe ------------------------------------------------------------------------------
@pytest.mark.parametrize(("encoding", "amo"), [
    *((e.value, "pairwise") for e in Encoding), ("minimal", "ladder"),
    ("augmented", "seqcounter")])
@pytest.mark.parametrize("puzzle", slow_if(  # one of top95 in the inner loop, the 16x16 slow
    PUZZLES, lambda p: p.size == 16 or p in PUZZLES[1:len(TOP95)]), ids=PUZZLE_IDS)
def test_readme_recipe_decodes_a_model_of_a_reduced_file(puzzle, encoding, amo):
    text = dimacs.encode_puzzle_dimacs(puzzle, encoding, amo, reduce=True)
    header, clauses = read_text(text)
    fixed = fixed_by_occurrence(header, clauses)
    assert fixed == fixed_by_rules(header)  # the README's two descriptions agree
    model = solve(text)
    grid = tuple(d - 1 for d in decode(header, model, fixed))
    assert not violations(puzzle, grid)
    expected = get_backend("native").solve(puzzle, limit=2)
    assert expected.status is Status.UNIQUE and grid == expected.solution
    assert cnf.decode(model, puzzle.geometry, puzzle.givens) == grid  # the README's Python


def test_given_cells_alone_are_not_enough():
    """The recipe this file replaced ignored only the given cells' variables: with this
    solver that gives some open cell a second digit, so the test above can tell them apart."""
    failures = 0
    for line in TOP95:
        text = dimacs.encode_puzzle_dimacs(parse(line), reduce=True)
        header, _ = read_text(text)
        given_cells = {cell * 9 + e for cell, d in enumerate(given_digits(header)) if d
                       for e in range(1, 10)}
        try:
            decode(header, solve(text), given_cells)
        except AssertionError as exc:
            assert "two digits" in str(exc)
            failures += 1
    assert failures


def test_header_and_readme_state_the_recipe():
    text = dimacs.encode_puzzle_dimacs(parse(TOP95[0]), reduce=True)
    header, _ = read_text(text)
    assert "clue-reduced" in header["givens"] and dimacs.read_dimacs(text).reduced
    assert "x(p, d) for every peer p of c" in header["fixed"]
    assert "variables of 1..729 that occur in no clause" in header["fixed"]
    assert "not fixed" in header["decode"]
    readme = (REPO / "encodings" / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Clue-reduced files")[1].split("\n## ")[0]
    for words in ("for every *peer* `p` of `c`", "occur in no clause",
                  "that is not fixed", "ignore every fixed variable"):
        assert words in " ".join(section.split()), words


# -- cnf.encode of a puzzle ------------------------------------------------------------------
@pytest.mark.parametrize("puzzle", [PUZZLES[0], BY_NAME["4x4"].puzzle(),
                                    BY_NAME["diagonal"].puzzle()],
                         ids=["top95-1", "4x4", "diagonal"])
def test_encode_of_a_puzzle_adds_the_givens_as_unit_clauses(puzzle):
    geometry = puzzle.geometry
    formula = cnf.build(geometry, "augmented", "ladder")
    encoded = cnf.encode(puzzle, "augmented", "ladder")
    assert encoded.nv == formula.nv
    assert encoded.clauses == [*map(list, formula.clauses),
                               *([lit] for lit in cnf.givens(puzzle))]
    # the clauses encode_puzzle_dimacs writes, and the empty puzzle's are the geometry's
    text = dimacs.encode_puzzle_dimacs(puzzle, "augmented", "ladder")
    assert dimacs.read_dimacs(text).cnf.clauses == encoded.clauses
    assert cnf.encode(Puzzle.empty(geometry)).clauses == cnf.encode(geometry).clauses
    with Solver(name="glucose4", bootstrap_with=encoded.clauses) as solver:
        assert solver.solve()
        grid = cnf.variables(geometry).read_model(solver.get_model())
    assert grid == get_backend("native").solve(puzzle, limit=1).solution


def test_encode_still_takes_a_geometry():
    encoded = cnf.encode(make_geometry(4), "minimal")
    assert (encoded.nv, len(encoded.clauses)) == (64, 304)
