"""A constraint kind owns all of itself: a new kind written here, in this test module alone,
registered with one line, works in every reader, writer, backend, command, check, picture,
explanation and generator, with no other file touched. It follows CONTRIBUTING's row "a
typed constraint kind" step by step: a frozen dataclass subclass of ``Constraint`` that
declares its names once (``names = Names(...)``) and writes its hooks, and one registration.

The kind: "these two cells add up to this sum" (digits may repeat; the cells need not
touch), with the JSON field ``pairsums`` and no f-puzzles form (f-puzzles has none).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from cases import latin_squares_4, slow_if
from typer.testing import CliRunner

from sudoku_csp import EMPTY, Puzzle, Status, get_backend, make_geometry, parse, to_line
from sudoku_csp.canvas import CAGE_COLOUR, Canvas, Layer
from sudoku_csp.cli import app
from sudoku_csp.constraints import KINDS, Constraint, ConstraintError, Link, Names, register
from sudoku_csp.constraints.fields import FieldError, labels, parse_cells
from sudoku_csp.constraints.translation import Clause, CnfContext
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.logic import explain
from sudoku_csp.modeling.cpsat_model import CpSatModel
from sudoku_csp.verify import violations


@dataclass(frozen=True)
class PairSum(Constraint):
    """The values of ``cells`` (two cells) add up to ``total``."""

    cells: tuple[int, ...]
    total: int

    names = Names("pair sum", json=("pairsums",))  # every name of the kind, declared once

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        if len(self.cells) != 2 or self.cells[0] == self.cells[1]:
            raise ConstraintError("a pair sum joins two different cells", part="cells")

    def _partners(self, n: int, mask: int) -> int:
        """The digits whose value completes the sum with some digit of ``mask``."""
        return sum(1 << d for d in range(n)
                   if 0 <= self.total - d - 2 < n and mask >> (self.total - d - 2) & 1)

    def native(self, geometry: Geometry) -> list[Link]:
        n = geometry.size

        def narrow(masks: tuple[int, ...]) -> tuple[int, ...] | None:
            a = masks[0] & self._partners(n, masks[1])
            b = masks[1] & self._partners(n, a)
            return (a, b) if a and b else None

        return [Link(self.cells, narrow)]

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        (a, b), n = self.cells, ctx.geometry.size
        for da in range(n):
            for db in range(n):
                if da + db + 2 != self.total:
                    yield (-ctx.x(a, da), -ctx.x(b, db))

    def cpsat(self, model: CpSatModel) -> None:
        a, b = self.cells
        model.model.add(model.value(a) + model.value(b) == self.total)

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        value = sum(grid[c] + 1 for c in self.cells)
        return [] if value == self.total else [f"{self.describe(geometry)} adds up to {value}"]

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        (key,), found = cls.names.json, []
        for i, item in enumerate(fields[key]):
            if not isinstance(item, dict) or not isinstance(item.get("sum"), int):
                raise FieldError(f"{key}[{i}]", "expected {\"cells\": [...], \"sum\": N}")
            found.append(cls(parse_cells(geometry, item.get("cells"), f"{key}[{i}].cells",
                                         least=2), item["sum"]))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {cls.names.json[0]: [{"cells": labels(geometry, c.touched()), "sum": c.total}
                                    for c in constraints if isinstance(c, PairSum)]}

    def draw(self, canvas: Canvas) -> None:
        (ax, ay), (bx, by) = (canvas.centre(c) for c in self.cells)
        canvas.add(Layer.PATHS, [f'<path class="pair-sum" d="M{ax:.1f} {ay:.1f}L{bx:.1f} '
                                 f'{by:.1f}" stroke="{CAGE_COLOUR}" fill="none"/>'])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(constraints)} pair sums"]

    def why(self, geometry: Geometry, candidates: Sequence[int]) -> str:
        return f"the two add up to {self.total}"

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        a, b = sorted(rng.sample(range(geometry.ncells), 2))
        return [cls((a, b), grid[a] + grid[b] + 2)]


# A given-free 4x4 that these four pair sums make unique (found by counting with SAT).
UNIQUE = ('{"size": 4, "pairsums": [{"cells": ["B3", "B4"], "sum": 3}, '
          '{"cells": ["B3", "C3"], "sum": 5}, {"cells": ["C1", "D1"], "sum": 6}, '
          '{"cells": ["C2", "C3"], "sum": 5}]}')
IMPOSSIBLE = '{"size": 4, "pairsums": [{"cells": ["A1", "A2"], "sum": 9}]}'
SPECS = ["native", "native:rules=singles", "sat", "sat:mode=fresh", "sat:mode=reduced",
         "cpsat", "cpsat:model=boolean"]


@pytest.fixture(autouse=True)
def pair_sums():
    register(PairSum)  # the one registry line a new kind needs
    yield
    KINDS.remove(PairSum)


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_it_reads_and_writes_through_the_kinds_own_fields():
    puzzle = parse(UNIQUE)
    assert [c.kind for c in puzzle.constraints] == ["pair sum"] * 4
    assert json.loads(to_line(puzzle))["pairsums"][0] == {"cells": ["B3", "B4"], "sum": 3}
    assert parse(to_line(puzzle)) == puzzle


@cache
def _all_4x4() -> tuple[tuple[int, ...], ...]:
    """Every 4x4 grid, by brute force (no solver involved): the Latin squares the
    independent rule check passes."""
    empty = Puzzle.empty(make_geometry(4))
    return tuple(grid for grid in latin_squares_4() if not violations(empty, grid))


@pytest.mark.parametrize("spec", SPECS)
def test_every_backend_counts_what_the_independent_check_counts(spec):
    assert len(_all_4x4()) == 288
    for pairs in ([PairSum((0, 5), 5)],  # A1 + B2 = 5: peers (one box)
                  [PairSum((0, 15), 2), PairSum((3, 12), 8)]):  # apart: digits may repeat
        puzzle = Puzzle(make_geometry(4), (EMPTY,) * 16, "", tuple(pairs))
        expected = sum(not violations(puzzle, g) for g in _all_4x4())
        result = get_backend(spec).solve(puzzle, limit=None)
        assert (result.count, result.complete) == (expected, True), pairs
    assert get_backend(spec).solve(parse(UNIQUE), limit=2).status is Status.UNIQUE
    assert get_backend(spec).solve(parse(IMPOSSIBLE), limit=2).status is Status.NONE


def test_solve_count_and_check_on_the_command_line():
    assert run("count", UNIQUE, "-s", "native").exit_code == 0
    solved = run("solve", UNIQUE, "-s", "cpsat")
    assert solved.exit_code == 0, solved.output
    checked = run("check", UNIQUE)  # every backend, cross-checked
    assert checked.exit_code == 0, checked.output
    assert re.search(r"unique\tagreed", checked.output)
    assert run("count", IMPOSSIBLE, "-s", "sat").exit_code == 4


def test_it_is_drawn_and_named_in_the_picture(tmp_path):
    svg = tmp_path / "p.svg"
    shown = run("show", UNIQUE, "--svg", str(svg))
    assert shown.exit_code == 0, shown.output
    text = svg.read_text(encoding="utf-8")
    assert text.count('class="pair-sum"') == 4
    assert "<title>4x4; 4 pair sums</title>" in text


def test_its_deductions_are_worded_by_the_kind():
    e = explain(parse(UNIQUE))
    assert e.solved
    worded = [s.text for s in e.steps if s.technique == "constraint"]
    assert worded and worded[0].startswith("Pair sum at ")
    assert "the two add up to" in worded[0]
    printed = run("explain", UNIQUE)
    assert printed.exit_code == 0 and "the two add up to" in printed.output


def test_the_kinds_folder_and_the_registry_agree():
    """Every module of ``constraints/kinds/`` is a built-in kind the registry lists, and each
    defines exactly one registered kind: nothing in the folder is left out of KINDS, and no
    kind lives elsewhere."""
    from pathlib import Path

    import sudoku_csp.constraints.kinds as kinds_package
    from sudoku_csp.constraints import BUILT_IN

    folder = {p.stem for p in Path(kinds_package.__file__).parent.glob("*.py")} - {"__init__"}
    assert folder == set(BUILT_IN)
    built_in = [k for k in KINDS if k.__module__.startswith("sudoku_csp.")]
    assert sorted(k.__module__.rsplit(".", 1)[1] for k in built_in) == sorted(folder)
    assert all(k.__module__.startswith("sudoku_csp.constraints.kinds.") for k in built_in)


# -- every command that takes a puzzle ----------------------------------------------------------
SEVERAL = '{"size": 4, "pairsums": [{"cells": ["B3", "B4"], "sum": 3}]}'


@pytest.mark.parametrize(("args", "code", "words"), [
    (["solve", UNIQUE], 0, "solved · "),  # auto: SAT for one solution (kind not NATIVE_FIRST)
    (["count", UNIQUE, "-s", "sat"], 0, "unique"),
    (["check", UNIQUE], 0, "all verdicts agreed"),
    (["show", UNIQUE], 0, "4 pair sums: pair sum at B3–B4"),
    (["show", UNIQUE, "--to", "json"], 0, '"pairsums":[{"cells":["B3","B4"],"sum":3}'),
    (["show", UNIQUE, "--to", "fpuzzles"], 6, "f-puzzles has no pair sum constraint"),
    (["explain", UNIQUE], 0, "Pair sum at B3 (B3, B4): the two add up to 3"),
    (["hint", UNIQUE], 0, "Pair sum at B3 (B3, B4): the two add up to 3"),
    (["rate", UNIQUE], 0, "2.0/2.0/2.0"),
    (["candidates", SEVERAL], 3, "48 true candidates"),
    (["disambiguate", SEVERAL], 0, "these 4 together do"),
    (["minimal", UNIQUE], 0, "unique\tminimal"),
    (["encode", UNIQUE], 0, "p cnf "),
    (["kinds"], 0, "pair-sum"),
    (["count", IMPOSSIBLE], 4, "cannot hold: pair sum at R1C1–R1C2"),
], ids=lambda v: v[0] if isinstance(v, list) else None)
def test_every_command_takes_it(args, code, words):
    result = run(*args)
    assert result.exit_code == code, result.output
    assert words in result.output


def test_a_certificate_proves_it_unique(tmp_path):
    made = run("certify", UNIQUE, str(tmp_path / "cert"))
    assert made.exit_code == 0 and made.output.startswith("unique"), made.output
    checked = run("verify-certificate", str(tmp_path / "cert"))
    assert checked.exit_code == 0 and checked.output.startswith("valid"), checked.output


def test_generate_reads_it_off_a_grid_by_any_of_its_names(tmp_path):
    out = tmp_path / "made.jsonl"
    made = run("generate", "--kind", "Pair Sum", "--size", "4", "--count", "2", "--seed", "1",
               "--out", str(out))
    assert made.exit_code == 0, made.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# sudoku-csp generate --kind pair-sum ")
    assert all('"pairsums"' in line for line in lines[1:]) and len(lines) == 3
    checked = run("check", str(out))  # each unique on every backend
    assert checked.exit_code == 0 and "2 unique" in checked.output, checked.output


def test_kinds_lists_it_with_what_is_derived_of_it():
    listed = {json.loads(line)["name"]: json.loads(line)
              for line in run("kinds", "--json").stdout.splitlines()}
    facts = listed["pair-sum"]
    assert (facts["json"], facts["fpuzzles"], facts["fpuzzles_as"]) == (["pairsums"], [], None)
    assert facts["backends"] == ["native", "sat", "cpsat"]
    assert (facts["steps"], facts["worded"], facts["generator"]) == (
        ["constraint"], True, "read off a grid")


@dataclass(frozen=True)
class PairSumNoCpsat(PairSum):
    """The same rule, without a CP-SAT translation or a sample of its own."""

    names = Names("pair sum without cpsat", json=("pairsums_no_cpsat",))
    cpsat = Constraint.cpsat
    sample = Constraint.sample


def test_what_a_kind_lacks_is_refused_and_kinds_says_so():
    register(PairSumNoCpsat)
    try:
        listed = [json.loads(line) for line in run("kinds", "--json").stdout.splitlines()]
        assert (listed[-1]["backends"], listed[-1]["generator"]) == (["native", "sat"], None)
        text = UNIQUE.replace("pairsums", "pairsums_no_cpsat")
        assert run("count", text, "-s", "sat").exit_code == 0
        refused = run("count", text, "-s", "cpsat")
        assert refused.exit_code == 6
        assert "pair sum without cpsat constraints have no CP-SAT model" in refused.output
        passed_over = run("count", text, "-s", "first:cpsat,sat")  # cpsat sits it out
        assert passed_over.exit_code == 0 and "first:cpsat,sat" in passed_over.output
        none_can = run("count", text, "-s", "first:cpsat,cpsat:model=boolean")
        assert none_can.exit_code == 6 and "have no CP-SAT model" in none_can.output
        made = run("generate", "--kind", "pair sum without cpsat", "--size", "4")
        assert made.exit_code == 6 and "is no kind to generate" in made.output
    finally:
        KINDS.remove(PairSumNoCpsat)


def test_a_kind_declares_its_names_once():
    with pytest.raises(TypeError, match="sets kind, keys: a kind declares its names once"):
        class Spelled(PairSum):  # the old spellings, one attribute each
            kind = "spelled"
            keys = ("spelled",)
    with pytest.raises(ValueError, match="the name 'pairsum' belongs to the pair sum kind"):
        register(type("Twin", (PairSum,), {"names": Names("Pair-Sum", json=("twins",))}))
    with pytest.raises(ValueError, match="JSON field 'odd' belongs to the parity kind"):
        register(type("Odd", (PairSum,), {"names": Names("oddity", json=("odd",))}))


def test_contributings_row_is_the_path_this_module_takes():
    """CONTRIBUTING's row for a new kind names the declaration and the registry line this
    module uses, and the files it names hold them."""
    from pathlib import Path

    from sudoku_csp.constraints import registry

    root = Path(__file__).resolve().parents[1]
    row = next(line for line in (root / "CONTRIBUTING.md").read_text(encoding="utf-8")
               .splitlines() if line.startswith("| a typed constraint kind"))
    for said in ("`names = Names(...)`", "`sudoku_csp/constraints/names.py`", "`BUILT_IN`",
                 "`sudoku_csp/constraints/registry.py`", "`register`",
                 "`tests/test_kind_registry.py`", "`sudoku-csp kinds --markdown > docs/kinds.md`"):
        assert said in row, said
    assert Path(registry.__file__).name == "registry.py" and "thermo" in registry.BUILT_IN
    example = (root / "sudoku_csp/constraints/kinds/thermo.py").read_text(encoding="utf-8")
    assert "    names = Names(" in example and PairSum.names.json == ("pairsums",)


def test_the_fpuzzles_writer_invents_no_key():
    # f-puzzles has no pair sum: the kind is refused there, and a kind that wrote a key of
    # its own making would be a fault of the kind, never a file f-puzzles misreads.
    from sudoku_csp.constraints import UnsupportedError
    from sudoku_csp.io.fpuzzles import fpuzzles_json

    puzzle = parse(UNIQUE)
    with pytest.raises(UnsupportedError, match="f-puzzles has no pair sum constraint"):
        fpuzzles_json(puzzle)
    invented = {"to_fpuzzles": classmethod(lambda cls, constraints, geometry: {"pairsum": []})}
    inventor = register(type("Inventor", (PairSum,),
                             {"names": Names("inventor", json=("inventors",)), **invented}))
    try:
        wrong = Puzzle(puzzle.geometry, puzzle.givens, "", (inventor((0, 1), 3),))
        with pytest.raises(TypeError, match="Inventor.to_fpuzzles wrote 'pairsum', a key no "
                                            "registered kind reads"):
            fpuzzles_json(wrong)
    finally:
        KINDS.remove(inventor)


_FIRST = ("import importlib, sys\n"
          "from sudoku_csp.constraints import BUILT_IN\n"
          "importlib.import_module(f'sudoku_csp.constraints.kinds.{sys.argv[1]}')\n"
          "from sudoku_csp.constraints import KINDS\n"
          "assert len(KINDS) == len(BUILT_IN), len(KINDS)\n")


@pytest.mark.parametrize("module", slow_if(["dots", "cage"], lambda m: m != "dots"))
def test_a_kind_module_imported_first_in_a_fresh_interpreter_loads_the_registry_whole(module):
    """Unpickling a constraint in a worker imports its kind's module before anything else:
    a module whose machinery imports went through the package's ``__getattr__`` (dots:
    ``from sudoku_csp.constraints import value_dots``) loaded every kind from inside its own
    import, found itself half made ("dots defines 0 constraint kinds") and left the registry
    half loaded."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _FIRST, module], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr[-400:]


@pytest.mark.slow
def test_every_kind_module_imported_first_loads_the_registry_whole():
    import subprocess
    import sys

    from sudoku_csp.constraints import BUILT_IN

    for module in BUILT_IN:
        run = subprocess.run([sys.executable, "-c", _FIRST, module], capture_output=True,
                             text=True)
        assert run.returncode == 0, (module, run.stderr[-400:])


def test_a_lower_case_name_is_no_kind_and_loads_no_kind():
    import subprocess
    import sys

    code = ("import pytest, sudoku_csp.constraints as c\n"
            "from sudoku_csp.constraints.registry import KINDS\n"
            "with pytest.raises(AttributeError): c.__getattr__('value_dots')\n"
            "assert not KINDS._loaded\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-400:]
