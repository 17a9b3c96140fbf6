"""Deciding uniqueness per puzzle, by family: our backends in one warm process and end to
end (the command line), beside sigh's Interactive Sudoku Solver (ISS) run through node in
the same run when given its checkout.

    python examples/uniqueness_benchmark.py FILE [FILE ...] [--solver SPEC ...]
        [--iss PATH] [--rounds 2] [--time-limit 60] [--e2e N] [--first N] [--phases]
        [--per-puzzle] [--unsolvable] [--shuffle]

FILE holds one puzzle per line in any form the tool reads (an f-puzzles or SudokuPad link,
f-puzzles JSON, the tool's own JSON, a killer line), with anything after a tab ignored (a
solution, how it was made), or lines of a corpus such as ``fpuzzles_dev.jsonl`` (objects
with ``title`` and ``fpuzzles`` or ``url``). A puzzle's *family* is each kind of typed
constraint it holds (``plain`` for none): a puzzle of several kinds counts in each.

For each spec (``--solver``, repeatable; default sat and cpsat) every puzzle is counted to
two solutions (``count(puzzle, spec)``) ``--rounds`` times in this process, taking turns
with the other specs so that a shared machine's noise falls on all alike, and its best time
kept (each time as a new puzzle: what was worked out for this very puzzle is forgotten
first, :func:`~sudoku_csp.constraints.forget_puzzles`, and before each round every backend
renews its solvers, :meth:`~sudoku_csp.backends.base.BackendBase.renew`, so that no SAT
session keeps what it learnt from the puzzle a round before; what puzzles of the same
shapes share is kept, as ISS keeps its own tables, and within a round a session keeps what
the puzzles before learnt it, as a long run does); then, for the first ``--e2e`` puzzles of
each file (all by default, 0 for none), the wall time of ``sudoku-csp count PUZZLE -s
SPEC`` as a new process. With ``--iss``, the same puzzles go to ISS, written in its
constraint language by :func:`iss_text`: one node process counts each
(``SimpleSolver.countSolutions(text, 2)``, its public API) ``--rounds`` times, best kept,
then one node process per puzzle end to end.
The harness is a few lines written to a temporary directory (nothing here depends on node;
no code of ISS is copied): puzzles whose rules ISS has no constraint for, or whose
translation this script lacks, are left out of its columns ("n/a"). Every verdict is
compared: ours with each other and with ISS's count; a disagreement is printed and makes the
exit code 1.

Per file and family it prints, for each tool, the median / 90th percentile / largest time
per puzzle (ms), how many took over 2 s and how many were undecided (time limit), and the
ratio of our median to ISS's; with ``--phases``, where each spec's time goes: building the
puzzle's model, the solver's calls, checking the solutions, ``auto``'s native node before SAT
took over, and the rest (medians of the backends' ``phases``: ``model_seconds``,
``solve_seconds``, ``check_seconds`` and ``native_seconds``); with ``--per-puzzle``, each
puzzle's time and verdict per tool (and its ratio to ISS), since a family's medians for two
tools may sit on different puzzles. With ``--unsolvable``, each puzzle is replaced by a variant
with one clue's total moved by one or two so that it has no solution (a setter's typo: how
long proving "no solution" takes; :func:`unsolvable_variants`). With ``--shuffle`` our
backends meet the puzzles in a new seeded order each round: SAT's incremental solver carries
learnt clauses, phases and variables from one puzzle to the next, so in one fixed order each
puzzle is timed, every round, right after the same puzzle.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_csp import Puzzle, Status, make_backend, parse  # noqa: E402
from sudoku_csp.backends.base import PHASES  # noqa: E402
from sudoku_csp.constraints import forget_puzzles  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402
from sudoku_csp.geometry import EMPTY, UnitKind  # noqa: E402
from sudoku_csp.io.record import puzzle_record  # noqa: E402

DEFAULT_SPECS = ("sat", "cpsat")
SLOW = 2.0  # seconds: the "over 2 s"
COUNT_OF = {Status.NONE: 0, Status.UNIQUE: 1, Status.MULTIPLE: 2}


# -- puzzles ----------------------------------------------------------------------------------
@dataclass
class Entry:
    """One puzzle of a file: its name, the text the command line gets, the puzzle read."""

    file: str
    name: str
    text: str
    puzzle: Puzzle
    families: tuple[str, ...]
    times: dict[str, float] = field(default_factory=dict)  # tool -> best seconds in process
    e2e: dict[str, float] = field(default_factory=dict)  # tool -> seconds end to end
    verdicts: dict[str, int | None] = field(default_factory=dict)  # tool -> 0, 1, 2, None
    iss: str | None = None  # the puzzle in ISS's constraint language (iss_text)
    phases: dict[str, tuple[float, ...]] = field(default_factory=dict)  # spec -> PHASES, rest
    nodes: dict[str, int] = field(default_factory=dict)  # spec -> search nodes (native)


def entries(path: str, first: int | None) -> list[Entry]:
    """The puzzles of ``path`` (see the module docstring), the first ``first`` of them."""
    found: list[Entry] = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if first is not None and len(found) >= first:
                break
            name = f"line {number}"
            data = None
            if text.startswith("{"):
                try:
                    data = json.loads(text)
                except json.JSONDecodeError:
                    data = None
            if isinstance(data, dict) and ("fpuzzles" in data or "url" in data):
                name = str(data.get("title") or name)
                text = json.dumps(data["fpuzzles"], separators=(",", ":")) \
                    if "fpuzzles" in data else data["url"]
            else:
                text = text.split("\t")[0]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ReaderNote)
                    puzzle = parse(text)
            except InputError as exc:
                print(f"{Path(path).name} {name}: refused: {exc}", file=sys.stderr)
                continue
            families = tuple(sorted({c.kind for c in puzzle.constraints})) or ("plain",)
            found.append(Entry(Path(path).name, name, text, puzzle, families))
    return found


def unsolvable_variants(puzzles: list[Entry], seconds: float) -> list[Entry]:
    """Per puzzle, the first variant with one clue's total (any constraint with a ``total``:
    a cage's, a little killer's, a sandwich's, ...) moved by 1, -1, 2 or -2 that the sat
    backend finds no solution for: a setter's typo, the "unsolvable published puzzle" of
    issue 34. Puzzles where no such move does it (or none decides in ``seconds``) are left
    out; each variant's text is its JSON record, as the command line reads it."""
    sat = make_backend("sat")
    found = []
    for entry in puzzles:
        for i, clue in enumerate(entry.puzzle.constraints):
            if getattr(clue, "total", None) is None or not dataclasses.is_dataclass(clue):
                continue
            variant = None
            for move in (1, -1, 2, -2):
                try:  # a total no filling reaches is refused when the puzzle is made
                    moved = dataclasses.replace(clue, total=clue.total + move)
                    rules = list(entry.puzzle.constraints)
                    rules[i] = moved
                    candidate = dataclasses.replace(entry.puzzle, constraints=tuple(rules))
                except (InputError, ValueError):
                    continue
                if sat.solve(candidate, limit=1, time_limit=seconds).status is Status.NONE:
                    variant = (candidate, f"{clue.kind} {clue.total}->{moved.total}")
                    break
            if variant is not None:
                puzzle, how = variant
                text = json.dumps(puzzle_record(puzzle), separators=(",", ":"))
                found.append(Entry(entry.file, f"{entry.name} [{how}]", text, puzzle,
                                   entry.families))
                break
    return found


# -- ISS's constraint language ----------------------------------------------------------------
class Untranslated(Exception):  # noqa: N818 - a reason, not a failure
    """A rule this script cannot write in ISS's constraint language."""


_BASE17 = "0123456789abcdefg"  # ISS numbers rows and columns in base 17 (R1C1 .. RgCg)


def _cell(puzzle: Puzzle, cell: int) -> str:
    n = puzzle.geometry.size
    return f"R{_BASE17[cell // n + 1]}C{_BASE17[cell % n + 1]}"


def _cells(puzzle: Puzzle, cells) -> str:
    return "~".join(_cell(puzzle, c) for c in cells)


def _neighbours(n: int, cell: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n]


def _little_killer_key(n: int, cells: tuple[int, ...]) -> int:
    """The cell ISS names a little killer's diagonal by: the first, in ISS's order of the
    grid's sides (left going down-right, right going up-left, top going down-left, bottom
    going up-right), of the diagonals that hold exactly these cells."""
    starts = ([(r, 0, 1, 1) for r in range(n - 1)] + [(r, n - 1, -1, -1) for r in range(1, n - 1)]
              + [(0, c, 1, -1) for c in range(1, n)] + [(n - 1, c, -1, 1) for c in range(1, n - 1)])
    wanted = set(cells)
    for r, c, dr, dc in starts:
        line = []
        rr, cc = r, c
        while 0 <= rr < n and 0 <= cc < n:
            line.append(rr * n + cc)
            rr, cc = rr + dr, cc + dc
        if len(line) > 1 and set(line) == wanted:
            return line[0]
    raise Untranslated("a little killer off ISS's diagonals")


def _kind_text(puzzle: Puzzle, c) -> list[str]:  # noqa: ANN001 - any constraint
    """ISS's constraints for one of ours (the rules as ISS words them)."""
    n, kind = puzzle.geometry.size, c.kind
    cells = lambda cs: _cells(puzzle, cs)  # noqa: E731
    if kind == "cage":
        return [f".Cage~{c.total}~{cells(c.cells)}" if c.total is not None
                else f".AllDifferent~{cells(c.cells)}"]
    if kind == "thermometer":
        return [f".Thermo~{cells(c.cells)}"]
    if kind == "arrow":  # each line sums to the circle on its own
        shafts = [[x for x in line if x not in c.circle] for line in c.lines]
        if len(c.circle) == 1:
            return [f".Arrow~{cells((*c.circle, *shaft))}" for shaft in shafts]
        if len(c.circle) > 3 or list(c.circle) != sorted(c.circle):
            raise Untranslated("a pill not read in reading order")  # ISS reads pills so
        return [f".PillArrow~{len(c.circle)}~{cells((*c.circle, *shaft))}" for shaft in shafts]
    if kind in ("palindrome", "renban"):
        return [f".{kind.capitalize()}~{cells(c.cells)}"]
    if kind == "between line":
        return [f".Between~{cells(c.cells)}"]
    if kind == "whispers":
        return [f".Whisper~{c.difference}~{cells(c.cells)}"]
    if kind == "little killer":
        if len(c.cells) == 1:  # a corner: ISS has no one-cell diagonal, so its value
            return [f".~{_cell(puzzle, c.cells[0])}_{c.total}"]
        return [f".LittleKiller~{c.total}~{_cell(puzzle, _little_killer_key(n, c.cells))}"]
    if kind == "sandwich":
        row, col = divmod(c.cells[0], n)
        line = f"R{_BASE17[row + 1]}" if c.cells[1] // n == row else f"C{_BASE17[col + 1]}"
        return [f".Sandwich~{c.total}~{line}"]
    if kind == "parity":
        odd = "_".join(str(v) for v in range(1, n + 1, 2))
        even = "_".join(str(v) for v in range(2, n + 1, 2))
        return ([f".~{_cell(puzzle, x)}_{odd}" for x in c.odd]
                + [f".~{_cell(puzzle, x)}_{even}" for x in c.even])
    if kind == "clone":
        return [f".SameValues~2~{_cell(puzzle, a)}~{_cell(puzzle, b)}"
                for a, b in zip(c.cells, c.copy, strict=True)]
    if kind == "quadruple":
        return [f".Quad~{_cell(puzzle, min(c.cells))}~" + "~".join(map(str, c.values))]
    if kind == "minmax":  # a neighbour of the same sort is not compared (as Rangsk reads it)
        return ([f".GreaterThan~{_cell(puzzle, o)}~{_cell(puzzle, m)}"
                 for m in c.minimum for o in _neighbours(n, m) if o not in c.minimum]
                + [f".GreaterThan~{_cell(puzzle, m)}~{_cell(puzzle, o)}"
                   for m in c.maximum for o in _neighbours(n, m) if o not in c.maximum])
    if kind in ("kropki", "xv"):
        white, black = ("WhiteDot", "BlackDot") if kind == "kropki" else ("X", "V")
        out = [f".{white}~{cells(p)}" for p in c.first] + [f".{black}~{cells(p)}" for p in c.second]
        if c.negative:
            out.append(".StrictKropki" if kind == "kropki" else ".StrictXV")
        return out
    if kind == "dots":
        return _dots_text(puzzle, c)
    if kind == "nonconsecutive":  # orthogonal neighbours, as ISS reads it
        return [".AntiConsecutive"]
    if kind in _ISS_LINES:
        if kind == "entropic line" and n != 9:
            raise Untranslated("an entropic line off 9x9")  # ISS's thirds are 9x9's
        return [f".{_ISS_LINES[kind]}~{cells(c.cells)}"]
    if kind == "modular line":
        return [f".Modular~{c.modulus}~{cells(c.cells)}"]
    if kind == "lockout line":
        return [f".Lockout~{c.least_difference(puzzle.geometry)}~{cells(c.cells)}"]
    if kind in ("X-sum", "skyscraper"):  # a row or column, read forwards or backwards
        row, col = divmod(c.cells[0], n)
        along_row = c.cells[1] // n == row
        line = f"R{_BASE17[row + 1]}" if along_row else f"C{_BASE17[col + 1]}"
        forwards = c.cells[1] > c.cells[0]
        values = (c.total, "") if forwards else ("", c.total)
        name = "XSum" if kind == "X-sum" else "Skyscraper"
        return [f".{name}~{line}~{values[0]}~{values[1]}"]
    raise Untranslated(f"no translation of {kind}")


_ISS_LINES = {"region sum line": "RegionSumLine", "zipper line": "Zipper",
              "double arrow": "DoubleArrow", "entropic line": "Entropic"}
"""Our line kinds that ISS words alike, cells in order (its region-sum segments are boxes'
as ours, or a jigsaw's regions)."""


def _dots_text(puzzle: Puzzle, c) -> list[str]:  # noqa: ANN001
    out = []
    for family, dots, words in (("difference", c.difference, {1: "WhiteDot"}),
                                ("ratio", c.ratio, {2: "BlackDot"}),
                                ("sums", c.sums, {10: "X", 5: "V"}),
                                ("xv", c.xv, {10: "X", 5: "V"})):
        for a, b, value in dots:
            if value not in words:
                raise Untranslated(f"a {family} dot of {value}")
            out.append(f".{words[value]}~{_cells(puzzle, (a, b))}")
    negative = set(c.negative)
    if c.nonconsecutive:
        negative.add("difference")
    if negative == {"difference", "ratio"}:
        out.append(".StrictKropki")
    elif negative == {"xv"} or negative == {"sum"} and not c.difference and not c.ratio:
        out.append(".StrictXV")
    elif negative:
        raise Untranslated(f"negative rules {sorted(negative)}")
    return out


def iss_text(puzzle: Puzzle) -> str:
    """``puzzle`` in ISS's constraint language (``.Shape~6x6.Cage~10~R1C1~R1C2.~R5C5_5``);
    :class:`Untranslated` for a rule or a grid it is not written for here."""
    g, n = puzzle.geometry, puzzle.geometry.size
    parts = [] if n == 9 else [f".Shape~{n}x{n}"]
    regions = g.units_of_kind(UnitKind.REGION) or g.units_of_kind(UnitKind.BOX)
    square = round(n ** 0.5) ** 2 == n
    if g.units_of_kind(UnitKind.REGION) or not square:
        # ISS's own boxes are those of square sizes (and 2x3-like ones it picks itself):
        # any other layout is given as jigsaw regions.
        layout = [""] * g.ncells
        for index, unit in enumerate(regions):
            for cell in unit.cells:
                layout[cell] = _BASE17[index] if index < 17 else chr(ord("A") + index)
        parts += [".NoBoxes"] + ([".Jigsaw~" + "".join(layout)] if regions else [])
    diagonals = g.units_of_kind(UnitKind.DIAGONAL)
    for unit in diagonals:
        parts.append(".Diagonal~-1" if unit.cells[0] == 0 else ".Diagonal~1")
    if g.units_of_kind(UnitKind.DISJOINT):
        parts.append(".DisjointSets")
    if g.units_of_kind(UnitKind.WINDOW):
        parts.append(".Windoku")
    for variant in g.variants:
        if variant in ("anti-knight", "anti-king"):
            parts.append(".AntiKnight" if variant == "anti-knight" else ".AntiKing")
        elif variant not in ("diagonal", "main-diagonal", "anti-diagonal", "disjoint",
                             "windoku", "jigsaw"):
            raise Untranslated(f"the {variant} variant")
    givens = [f"{_cell(puzzle, cell)}_{d + 1}" for cell, d in enumerate(puzzle.givens)
              if d != EMPTY]
    if givens:
        parts.append(".~" + "~".join(givens))
    for c in puzzle.constraints:
        parts += _kind_text(puzzle, c)
    return "".join(parts) or ".Shape~9x9"


HARNESS = """\
// Counts solutions with ISS's public API. Written by uniqueness_benchmark.py.
// node harness.mjs ISS_ROOT            one JSON line of a puzzle per stdin line -> a result
// node harness.mjs ISS_ROOT --one TEXT  one puzzle, then exit
globalThis.self = globalThis;
globalThis.VERSION_PARAM = '';
const root = process.argv[2];
const { SimpleSolver } = await import(root + '/js/sandbox/simple_solver.js');
const count = (text) => {
  const start = performance.now();
  const found = new SimpleSolver().countSolutions(text, 2);
  return { count: found, ms: performance.now() - start };
};
if (process.argv[3] === '--one') {
  console.log(JSON.stringify(count(process.argv[4])));
} else {
  const { createInterface } = await import('node:readline');
  for await (const line of createInterface({ input: process.stdin })) {
    let out;
    try {
      out = count(JSON.parse(line));
    } catch (e) {
      out = { error: String(e.message || e) };
    }
    process.stdout.write(JSON.stringify(out) + '\\n');
  }
}
"""


class Peer:
    """One warm node process running the harness, restarted after a puzzle that runs past
    the time limit (node cannot be stopped inside a count)."""

    def __init__(self, node: str, harness: Path, root: str) -> None:
        self.command = [node, str(harness), root]
        self.proc: subprocess.Popen | None = None

    def count(self, text: str, seconds: float) -> dict:
        if self.proc is None:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        if not ready:
            self.close()
            return {"timeout": True}
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            return {"error": "node ended"}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


# -- runs -------------------------------------------------------------------------------------
def run_ours(puzzles: list[Entry], specs: list[str], rounds: int, seconds: float,
             shuffle: bool = False) -> None:
    # A backend of its own per spec: `auto` runs the registry's shared `sat`, and a solver
    # shared with the `sat` column would carry what it learnt on a puzzle from one column's
    # run to the next one's (the second would be timed warm).
    backends = {spec: make_backend(spec) for spec in specs}
    # The specs in a shuffled order per puzzle and round (seeded: runs compare): a rotation
    # keeps each spec behind the same other one, which then always leaves it its garbage to
    # collect (the native solver's, ahead of auto, cost auto about 0.5 ms a puzzle).
    order = random.Random(0)
    for _round in range(rounds):
        # Each round meets every puzzle as new: SAT's sessions would otherwise keep the
        # clauses learnt and phases saved on the very puzzle a round before (its best
        # round then a tenth quicker at the medians, and half on five generated
        # sandwiches: docs/design.md, "Each puzzle timed as new"). Rebuilt here, untimed.
        for backend in backends.values():
            backend.renew()
        # --shuffle: the puzzles in a new seeded order each round, so that no puzzle always
        # follows the same one (SAT's incremental solver carries what it met before it)
        for entry in order.sample(puzzles, len(puzzles)) if shuffle else puzzles:
            for spec in order.sample(specs, len(specs)):
                # Each solve meets the puzzle as new: the native links worked out for it
                # (by this spec in an earlier round, or by another spec just now) would
                # spare it half of a killer's time, which no new puzzle is spared (ISS
                # builds its handlers afresh for each count too).
                forget_puzzles()
                start = time.perf_counter()
                result = backends[spec].solve(entry.puzzle, limit=2, time_limit=seconds)
                took = time.perf_counter() - start
                if took <= entry.times.get(spec, took):
                    spent = tuple(result.phases.get(phase, 0.0) for phase in PHASES)
                    entry.phases[spec] = (*spent, max(0.0, took - sum(spent)))
                entry.times[spec] = min(took, entry.times.get(spec, took))
                entry.verdicts[spec] = COUNT_OF.get(result.status)
                if isinstance(result.stats.get("nodes"), int):
                    entry.nodes[spec] = result.stats["nodes"]


def run_iss(puzzles: list[Entry], peer: Peer, rounds: int, seconds: float) -> None:
    for _ in range(rounds):
        for entry in puzzles:
            if entry.iss is None:
                continue
            out = peer.count(entry.iss, seconds)
            if "error" in out:
                print(f"ISS refused {entry.name}: {out['error']}", file=sys.stderr)
                entry.iss = None
                continue
            took = seconds if out.get("timeout") else out["ms"] / 1000
            entry.times["ISS"] = min(took, entry.times.get("ISS", took))
            entry.verdicts["ISS"] = None if out.get("timeout") else min(out["count"], 2)


def cli(spec: str) -> list[str]:
    """The command line of ``sudoku-csp count`` (the console script beside this Python)."""
    script = Path(sys.executable).with_name("sudoku-csp")
    head = [str(script)] if script.exists() else [sys.executable, "-m", "sudoku_csp"]
    return [*head, "count", "-s", spec]


def run_e2e(puzzles: list[Entry], specs: list[str], node: tuple[str, Path, str] | None,
            seconds: float) -> None:
    for entry in puzzles:
        for spec in specs:
            start = time.perf_counter()
            try:
                subprocess.run([*cli(spec), "-t", str(seconds), entry.text],
                               capture_output=True, timeout=seconds + 30)
            except subprocess.TimeoutExpired:
                pass
            entry.e2e[spec] = time.perf_counter() - start
        if node is not None and entry.iss is not None:
            start = time.perf_counter()
            try:
                subprocess.run([node[0], str(node[1]), node[2], "--one", entry.iss],
                               capture_output=True, timeout=seconds)
            except subprocess.TimeoutExpired:
                pass
            entry.e2e["ISS"] = time.perf_counter() - start


# -- the table --------------------------------------------------------------------------------
def figures(times: list[float]) -> str:
    if not times:
        return "n/a"
    t = sorted(times)
    p90 = t[min(len(t) - 1, int(0.9 * len(t)))]
    return f"{statistics.median(t) * 1000:.1f} / {p90 * 1000:.0f} / {t[-1] * 1000:.0f}"


def by_family(puzzles: list[Entry]) -> dict[tuple[str, str], list[Entry]]:
    """The puzzles per file and family, each file's "all" first."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    for entry in puzzles:
        for family in ("all", *entry.families):
            groups.setdefault((entry.file, family), []).append(entry)
    return groups


def table(puzzles: list[Entry], tools: list[str], e2e_tools: list[str]) -> list[str]:
    lines = []
    head = ["file", "family", "n", *(f"{t} in process" for t in tools),
            *(f"{t} end to end" for t in e2e_tools)]
    ours = [t for t in tools if t != "ISS"]
    if "ISS" in tools:
        head += [f"{t} ÷ ISS" for t in ours]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for (file, family), members in by_family(puzzles).items():
        row = [file, family, str(len(members))]
        for tool in tools:
            times = [e.times[tool] for e in members if tool in e.times]
            notes = [f"{sum(t > SLOW for t in times)} over 2 s",
                     f"{sum(e.verdicts.get(tool) is None for e in members if tool in e.times)}"
                     " undecided"]
            notes = [note for note in notes if not note.startswith("0 ")]
            row.append(figures(times) + (f" ({', '.join(notes)})" if notes else ""))
        for tool in e2e_tools:
            row.append(figures([e.e2e[tool] for e in members if tool in e.e2e]))
        if "ISS" in tools:
            both = [e for e in members if "ISS" in e.times]
            for tool in ours:
                mine = [e.times[tool] for e in both if tool in e.times]
                theirs = [e.times["ISS"] for e in both]
                row.append(f"{statistics.median(mine) / statistics.median(theirs):.1f}×"
                           if both else "n/a")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def node_table(puzzles: list[Entry], specs: list[str]) -> list[str]:
    """Search nodes per file, family and spec (median / 90th percentile / largest): the
    load-independent figure of the native backend's branchings."""
    counted = [spec for spec in specs if any(spec in e.nodes for e in puzzles)]
    if not counted:
        return []
    lines = ["| file | family | n | " + " | ".join(f"{s} nodes" for s in counted) + " |",
             "|" + "---|" * (3 + len(counted))]
    for (file, family), members in by_family(puzzles).items():
        row = [file, family, str(len(members))]
        for spec in counted:
            n = sorted(e.nodes[spec] for e in members if spec in e.nodes)
            row.append(f"{statistics.median(n):.0f} / {n[min(len(n) - 1, int(0.9 * len(n)))]}"
                       f" / {n[-1]}" if n else "n/a")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def puzzle_table(puzzles: list[Entry], tools: list[str]) -> list[str]:
    """Each puzzle's best time per tool in process (ms) and its verdict (0, 1 or 2
    solutions; ``?`` undecided), and with ISS our first spec's time over its: a family's
    medians can sit on different puzzles for two tools, this says which puzzles lose."""
    ratio = "ISS" in tools and tools[0] != "ISS"
    lines = ["| file | puzzle | families | " + " | ".join(tools)
             + (f" | {tools[0]} ÷ ISS" if ratio else "") + " |",
             "|" + "---|" * (3 + len(tools) + ratio)]
    for e in puzzles:
        cells = []
        for tool in tools:
            said = e.verdicts.get(tool)
            cells.append(f"{e.times[tool] * 1000:.2f} ({'?' if said is None else said})"
                         if tool in e.times else "n/a")
        if ratio:
            mine, theirs = e.times.get(tools[0]), e.times.get("ISS")
            cells.append(f"{mine / theirs:.1f}×" if mine and theirs else "n/a")
        name = e.name.replace("|", "/")
        lines.append(f"| {e.file} | {name[:48]} | {', '.join(e.families)} | "
                     + " | ".join(cells) + " |")
    return lines


def phase_table(puzzles: list[Entry], specs: list[str]) -> list[str]:
    """Where the time goes: per file, family and spec, the median ms per puzzle of building
    the model, solving, checking and the rest (the results' ``phases``)."""
    lines = ["| file | family | spec | model | solve | check | native first | rest | model share |",
             "|---|---|---|---|---|---|---|---|---|"]
    for (file, family), members in by_family(puzzles).items():
        for spec in specs:
            rows = [e.phases[spec] for e in members if spec in e.phases]
            if not rows:
                continue
            medians = [statistics.median(column) * 1000 for column in zip(*rows, strict=True)]
            share = sum(r[0] for r in rows) / max(1e-12, sum(sum(r) for r in rows))
            lines.append(f"| {file} | {family} | {spec} | "
                         + " | ".join(f"{m:.2f}" for m in medians) + f" | {share:.0%} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--solver", action="append", help="backend spec (repeatable)")
    parser.add_argument("--iss", metavar="PATH", help="a checkout of ISS (needs node)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--e2e", type=int, default=None, metavar="N",
                        help="end to end: the first N puzzles of each file (default all)")
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="only the first N puzzles of each file")
    parser.add_argument("--phases", action="store_true",
                        help="also print where each spec's time goes (model, solve, check)")
    parser.add_argument("--per-puzzle", action="store_true",
                        help="also print each puzzle's times and verdicts")
    parser.add_argument("--unsolvable", action="store_true",
                        help="run, in place of each puzzle, a variant with one clue's total "
                             "moved so that it has no solution (puzzles with none left out)")
    parser.add_argument("--shuffle", action="store_true",
                        help="our backends meet the puzzles in a new seeded order each round "
                             "(best of the rounds then comes from different sequences)")
    args = parser.parse_args()
    specs = args.solver or list(DEFAULT_SPECS)
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and args.e2e != 0:
        print("note: PYTHONDONTWRITEBYTECODE is set, so each command line compiles the "
              "package again (about 0.1 s): set PYTHONPYCACHEPREFIX to a directory of your "
              "own and unset it for the figures of an installed package", file=sys.stderr)
    puzzles = [e for path in args.files for e in entries(path, args.first)]
    if args.unsolvable:
        puzzles = unsolvable_variants(puzzles, args.time_limit)
        print(f"{len(puzzles)} unsolvable variants", file=sys.stderr)
    node_run: tuple[str, Path, str] | None = None
    peer = None
    tmp = None
    if args.iss:
        node = shutil.which("node")
        if node is None:
            parser.error("--iss needs node on the PATH")
        tmp = tempfile.TemporaryDirectory()
        harness = Path(tmp.name) / "harness.mjs"
        harness.write_text(HARNESS, encoding="utf-8")
        node_run = (node, harness, str(Path(args.iss).resolve()))
        peer = Peer(*node_run)
        skipped: dict[str, int] = {}
        for entry in puzzles:
            try:
                entry.iss = iss_text(entry.puzzle)
            except Untranslated as why:
                skipped[str(why)] = skipped.get(str(why), 0) + 1
        for why, n in skipped.items():
            print(f"not given to ISS: {n} puzzle(s) with {why}", file=sys.stderr)
    try:
        run_ours(puzzles, specs, args.rounds, args.time_limit, args.shuffle)
        if peer is not None:
            run_iss(puzzles, peer, args.rounds, args.time_limit)
        if args.e2e != 0:
            by_file: dict[str, int] = {}
            chosen = []
            for entry in puzzles:
                by_file[entry.file] = by_file.get(entry.file, 0) + 1
                if args.e2e is None or by_file[entry.file] <= args.e2e:
                    chosen.append(entry)
            run_e2e(chosen, specs, node_run, args.time_limit)
    finally:
        if peer is not None:
            peer.close()
        if tmp is not None:
            tmp.cleanup()
    tools = [*specs, *(["ISS"] if peer is not None else [])]
    e2e_tools = tools if args.e2e != 0 else []
    print("ms per puzzle, median / 90th percentile / largest (count to two solutions)")
    print("\n".join(table(puzzles, tools, e2e_tools)))
    nodes = node_table(puzzles, specs)
    if nodes:
        print("\nsearch nodes per puzzle, median / 90th percentile / largest")
        print("\n".join(nodes))
    if args.phases:
        print("\nms per puzzle (medians), in process, best round; model share of the sum")
        print("\n".join(phase_table(puzzles, specs)))
    if args.per_puzzle:
        print("\nms per puzzle in process, best round (verdict: solutions counted to two)")
        print("\n".join(puzzle_table(puzzles, tools)))
    bad = 0
    for entry in puzzles:
        said = {t: v for t, v in entry.verdicts.items() if v is not None}
        if len(set(said.values())) > 1:
            bad += 1
            print(f"DISAGREEMENT on {entry.file} {entry.name}: {said}", file=sys.stderr)
    print(f"{len(puzzles)} puzzles; " + (f"{bad} disagreement(s)" if bad
                                         else "every verdict agreed"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
