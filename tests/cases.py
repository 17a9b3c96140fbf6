"""Shared puzzle cases for every backend's tests (made with the project's own solver).

Each case: a name, the puzzle text, the geometry options, and the expected verdict when
counting to 2. Backends are checked against these through the registry.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from sudoku_csp import Puzzle, Status, parse
from sudoku_csp.constraints import Constraint, Names
from sudoku_csp.geometry import EMPTY
from sudoku_csp.variants import make_geometry

JIGSAW_MAP = ("AAAABBBCC AAABBBCCC AABBBCCCC DDDDEEEFF DDDEEEFFF DDEEEFFFF "
              "GGGGHHHII GGGHHHIII GGHHHIIII")

GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GRID2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
CLASH = "11" + "." * 79  # two 1s in row A


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    expected: Status
    options: dict = field(default_factory=dict)
    solution: str | None = None

    def puzzle(self) -> Puzzle:
        return parse(self.text, **self.options)


CASES = [
    Case("grid1", GRID1, Status.UNIQUE, solution=(
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382")),
    Case("grid2", GRID2, Status.UNIQUE, solution=(
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293")),
    Case("hard1", HARD1, Status.MULTIPLE),
    Case("clash", CLASH, Status.NONE),
    Case("empty9", "." * 81, Status.MULTIPLE),
    Case("empty4", "." * 16, Status.MULTIPLE),
    Case("4x4", "3.1...4.2.......", Status.UNIQUE),
    Case("6x6", ".1.52....1.......36.3....21......2..", Status.UNIQUE),
    Case("8x8", "..582.1..4.7.8...........546......25.4...1....6....41....78....3",
         Status.UNIQUE),
    Case("12x12", "......B893..8.9C.A5.B.4.B4..23..A.....3475A...1.5.2..81....A.7B19.....25"
         "456..C..3A781..8A....9.......9...2.....B.1978...3..7C...25.1.1...286C4.7",
         Status.UNIQUE),
    Case("16x16", "....932.51.8D.E6891D7G5E6.BF3.AC..3.D.....C..8456.E.F.C1D32.B97GGF.4E2"
         "..79D5A.1.7...1..DGC..F5.B.D8..7.....32E.451A.4.G.B...9D87.5...19..AE.4B..13B6C4"
         ".GF2.7..D.E..7.FD2453C..9.....3.A5.D...G....798C1..FA.G..D4G.1..76.85.E.BA.658A"
         "DE.2..1C.....D.G54..B7986.1", Status.UNIQUE),
    Case("diagonal", "....9.53...24......5......15..9....23..."
         ".4....6...8....8............6.4....5.....",
         Status.UNIQUE, {"variants": ["diagonal"]}),
    Case("windoku", "...19..3.8..6......5...............1...."
         ".4........5.79.3........2...6.8.4........",
         Status.UNIQUE, {"variants": ["windoku"]}),
    Case("anti-knight", "......53.1.28......9.......2............"
         ".3....1......7..........6...8...8........",
         Status.UNIQUE, {"variants": ["anti-knight"]}),
    Case("anti-king", "...19...83.95.7....5......2...9........."
         "74....6...5.2..4............6............",
         Status.UNIQUE, {"variants": ["anti-king"]}),
    Case("diagonal+anti-knight", "..4.9.5.81.........39........3.........2"
         ".9....6....8............2...4...3....6...",
         Status.UNIQUE, {"variants": ["diagonal", "anti-knight"]}),
    Case("jigsaw", "4.......37......6..3....7....79..3......"
         "6.4....45.6........9.....8.5.2.7...1.....",
         Status.UNIQUE, {"regions": JIGSAW_MAP},
         solution=("496217583715832964839645721647921358521768439"
                   "384596172273489615168354297952173846")),
    Case("jigsaw-clash", "44" + "." * 79, Status.NONE, {"regions": JIGSAW_MAP}),
    # No clash among the givens, yet A9 has no digit left (row A holds 1-8, B9 holds 9).
    Case("unsolvable", "12345678." + "........9" + "." * 63, Status.NONE),
]
"""Every shared case; ``expected`` is the verdict when counting to 2."""

BY_NAME = {case.name: case for case in CASES}


# -- typed constraints (sudoku_csp.constraints) -------------------------------------------------
CONSTRAINED_FILE = Path(__file__).with_name("constrained_cases.jsonl")

KILLER4 = "AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8"
"""A given-free 4x4 killer in the one-line form (cage map, sums)."""

LITTLE_KILLERS6 = (
    '{"size":6,"little_killers":[{"from":"A1","direction":"down-right","sum":21},'
    '{"from":"A2","direction":"down-right","sum":21},{"from":"B6","direction":"down-left",'
    '"sum":16},{"from":"C1","direction":"up-right","sum":11},{"from":"F1","direction":'
    '"up-right","sum":21},{"from":"F2","direction":"up-left","sum":4},{"from":"F5",'
    '"direction":"up-left","sum":17},{"from":"F5","direction":"up-right","sum":11}]}')
"""A 6x6 of eight little killers and no given (`generate --kind little-killer --size 6 --seed
7`), unique: SAT's search takes a few hundred conflicts, a warm session's a different number."""


def _constrained() -> list[Case]:
    cases = []
    for line in CONSTRAINED_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            cases.append(Case(json.loads(line)["name"], line, Status.UNIQUE))
    return cases


CONSTRAINED_CASES = [
    *_constrained(),
    Case("killer4-line", KILLER4, Status.UNIQUE, solution="3214413214232341"),
    Case("killer4-given", KILLER4 + " 2...............", Status.NONE),  # A1 must be 1
    Case("killer4-no-sums", "AABCDDBBEFGHEFHH ?,?,?,?,?,?,?,?", Status.MULTIPLE),
    # Row A would need 1 and 2 in both of its cages.
    Case("cages-4x4-none", "AABBCCDDEEFFGGHH 3,3,7,7,3,7,7,3", Status.NONE),
]
"""Puzzles with typed constraints (every kind, sizes 4, 6 and 9, with and without the
diagonal variant); tests/test_backends.py runs every backend on them."""


def random_cages(geometry, grid, rng, largest: int, unsummed: float) -> list:
    """Cages covering the whole grid in random order, each grown from a random cell to a
    random size up to ``largest`` through orthogonal neighbours holding digits of ``grid``
    not yet in the cage; each with its sum from ``grid``, or none with chance
    ``unsummed``. ``grid`` satisfies them all."""
    from sudoku_csp.constraints import Cage
    from sudoku_csp.constraints.fields import orthogonal_pairs

    pairs = set(orthogonal_pairs(geometry))
    cells, cages = list(range(geometry.ncells)), []
    rng.shuffle(cells)
    while cells:
        cage = [cells.pop()]
        while cells and len(cage) < rng.randint(1, largest):
            near = [c for c in cells if any((min(c, x), max(c, x)) in pairs for x in cage)
                    and grid[c] not in {grid[x] for x in cage}]
            if not near:
                break
            cage.append(near[0])
            cells.remove(near[0])
        total = None if rng.random() < unsummed else sum(grid[c] + 1 for c in cage)
        cages.append(Cage(tuple(cage), total))
    return cages


@functools.cache
def latin_squares_4() -> tuple[tuple[int, ...], ...]:
    """All 576 Latin squares of order 4 (rows built one by one, none clashing in a column
    with a row above): every 4×4 solution of any variant or constraint is among them."""
    rows = list(itertools.permutations(range(4)))

    def squares(above: tuple[tuple[int, ...], ...]):
        if len(above) == 4:
            yield sum(above, ())
            return
        for row in rows:
            if all(row[c] != other[c] for other in above for c in range(4)):
                yield from squares((*above, row))

    return tuple(squares(()))


def pigeonhole_puzzle(size: int = 16) -> Puzzle:
    """No solution, but only pigeonhole reasoning shows it without unit ALO clauses: digit
    d* is given in every row but the first, in every column but the first, and the first
    cell holds another digit, so row 1 has 15 open cells for 14 digits. A search that does
    not reason so (SAT without unit ALO clauses, native without rules) never ends on it, so a
    time limit cuts it on any machine."""
    from sudoku_csp import get_backend

    geometry = make_geometry(size)
    solution = get_backend("native").solve(Puzzle.empty(geometry)).solution
    assert solution is not None
    digit = solution[0]
    givens = [d if d == digit and c >= size else EMPTY for c, d in enumerate(solution)]
    givens[0] = solution[1]
    return Puzzle(geometry, tuple(givens))


PUBLISHED = Path(__file__).parent / "fpuzzles_published.jsonl"


@functools.cache
def _published() -> tuple[dict, ...]:
    import lzstring

    entries = []
    for line in PUBLISHED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            entry = json.loads(line)
            # decoded here by lz-string itself, so that the project's link reader is checked
            payload = entry["url"].split("?load=", 1)[1]
            entry["fpuzzles"] = json.loads(lzstring.LZString().decompressFromBase64(payload))
            entries.append(entry)
    return tuple(entries)


def published(title: str | None = None) -> list[dict]:
    """The published puzzles of ``tests/fpuzzles_published.jsonl`` (its header says where
    they come from), each ``title``, ``url``, ``solution`` ("" if none) and ``fpuzzles`` (the
    document); with ``title``, the one whose title starts with it, in quotes.

    >>> published("Eddies")[0]["fpuzzles"]["size"]
    9
    """
    entries = [dict(e) for e in _published()]
    if title is None:
        return entries
    found = [e for e in entries if e["title"].startswith(f'"{title}"')]
    assert len(found) == 1, f"no published puzzle {title!r} in {PUBLISHED.name}"
    return found


def slow_if(values, is_slow) -> list:
    """``values`` to parametrize a test with (a tuple: the values of several arguments),
    those ``is_slow`` picks marked slow: the inner loop (``pytest -m "not slow"``) runs the
    rest, the full suite all of them.

    >>> [getattr(v, "marks", ()) != () for v in slow_if([4, 9, 16], lambda n: n > 9)]
    [False, False, True]
    """
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.slow)
            if is_slow(v) else v for v in values]


def cnf_context(n: int, options: dict[str, str] | None = None):  # noqa: ANN201
    """A CNF context on an n x n grid, auxiliaries after the digit variables, with the
    kinds' encoding ``options``, and its numbering: for clauses tested alone against brute
    force."""
    from sudoku_csp.constraints.translation import CnfContext
    from sudoku_csp.modeling.variables import variables

    numbering = variables(make_geometry(n))
    return CnfContext(numbering, start=numbering.x_count + 1, options=options), numbering


def filling(numbering, cells, values) -> list[int]:  # noqa: ANN001
    """Assumptions placing digit ``values`` in ``cells``, every other digit of them out."""
    return [numbering.x(c, d) if d == v else -numbering.x(c, d)
            for c, v in zip(cells, values, strict=True) for d in range(numbering.geometry.size)]


def local_fillings(geometry, cells, clauses) -> set[tuple[int, ...]]:  # noqa: ANN001
    """Every digit filling of ``cells`` that ``clauses`` allow with each cell's one digit and
    peers' different digits (the grid's rules on those cells alone), found by a SAT solver
    and blocked one by one: to hold a kind's clauses against brute force."""
    from pysat.solvers import Solver

    from sudoku_csp.modeling.variables import variables

    x, n = variables(geometry).x, geometry.size
    rules = [[x(c, d) for d in range(n)] for c in cells]
    rules += [[-x(c, a), -x(c, b)] for c in cells for a in range(n) for b in range(a)]
    rules += [[-x(a, d), -x(b, d)] for i, a in enumerate(cells) for b in cells[:i]
              if geometry.are_peers(a, b) for d in range(n)]
    found = set()
    with Solver("minisat22", bootstrap_with=rules + [list(c) for c in clauses]) as solver:
        while solver.solve():
            model = set(solver.get_model())
            row = tuple(next(d for d in range(n) if x(c, d) in model) for c in cells)
            found.add(row)
            solver.add_clause([-x(c, d) for c, d in zip(cells, row, strict=True)])
    return found


def sampled_puzzle(kind, geometry, seed: int, count: int = 6) -> Puzzle:  # noqa: ANN001
    """A puzzle of ``count`` or more constraints of ``kind`` drawn by its ``sample`` on a
    grid of ``geometry`` (the native solver's first), every other cell off them given: few
    solutions, each counted by every backend in a blink."""
    from sudoku_csp.backends import get_backend

    grid = get_backend("native").solve(Puzzle.empty(geometry), limit=1).solutions[0]
    rng = random.Random(seed)
    drawn: list[Constraint] = []
    while len(drawn) < count:
        drawn += [c for c in kind.sample(geometry, grid, rng) if isinstance(c, kind)]
    used = {c for constraint in drawn for c in constraint.touched()}
    givens = tuple(v if c not in used and c % 2 else EMPTY for c, v in enumerate(grid))
    return Puzzle(geometry, givens, "", tuple(drawn))


# -- kinds a backend refuses: a rule that rules nothing, with only the translations named --
@dataclass(frozen=True)
class Free(Constraint):
    """No translation: every backend refuses it, as it refuses a kind with no native
    propagation, no CNF clauses or no CP-SAT model (unregistered: only these tests make it)."""

    cells: tuple[int, ...] = (0,)
    names = Names("free (a test kind)", json=())

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def violations(self, geometry, grid) -> list[str]:  # noqa: ANN001
        return []

    @classmethod
    def from_json(cls, fields, geometry) -> list[Constraint]:  # noqa: ANN001
        return []

    @classmethod
    def to_json(cls, constraints, geometry) -> dict:  # noqa: ANN001
        return {}


@dataclass(frozen=True)
class FreeNative(Free):
    """The native solver takes it (no links); SAT and CP-SAT refuse it."""

    def native(self, geometry) -> list:  # noqa: ANN001
        return []


@dataclass(frozen=True)
class FreeCnf(Free):
    """SAT takes it (no clauses); the native solver and CP-SAT refuse it."""

    def cnf(self, ctx):  # noqa: ANN001, ANN201
        return iter(())


@dataclass(frozen=True)
class FreeNativeCnf(FreeNative, FreeCnf):
    """The native solver and SAT take it; CP-SAT refuses it."""


def with_constraint(puzzle: Puzzle, constraint: Constraint) -> Puzzle:
    """``puzzle`` with ``constraint`` added."""
    return replace(puzzle, constraints=(*puzzle.constraints, constraint))
