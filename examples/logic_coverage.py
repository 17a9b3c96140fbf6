"""How many puzzles of a file the human-style techniques finish without search, how fast,
with which techniques, beside SudokuVariantSolverJS's logical solve when asked.

    python examples/logic_coverage.py PUZZLE_FILE [PUZZLE_FILE ...] [--time-limit 60]
        [--limit N] [--svs PATH] [--quiet]

Each PUZZLE_FILE holds one puzzle per line in any form the tool reads, or lines of a corpus
such as ``fpuzzles_dev.jsonl`` (objects with ``title`` and ``url`` or ``fpuzzles``, read as
``examples/fpuzzles_benchmark.py`` reads them). Each puzzle is explained
(:func:`sudoku_csp.logic.explain`, which never guesses) under ``--time-limit`` seconds,
looked at between steps (one step is not cut short). Per puzzle it prints how it ended
(``solved``; ``stuck``: no technique applies; ``time``: the limit came first; or the verdict
when the puzzle is not unique), the steps, the hardest rating and the technique that set
it, and the seconds of CPU time the explanation took (verdict included; CPU time, not wall
time, since the machine is shared). Per file: how many were finished, the median and 90th
percentile of those seconds, and how often each technique was used.

``--svs PATH``: also run SudokuVariantSolverJS's ``logicalSolve`` on each puzzle, beside it
(PATH: a checkout of https://github.com/dclamage/SudokuVariantSolverJS with its
``npm install`` done, so that ``tsx`` is in its ``node_modules``; node must be on the PATH).
It gets the puzzle's f-puzzles JSON (the corpus's own document, or this tool's writing of
the puzzle), one node process a puzzle (its solver keeps state between solves), cancelled
after the same time limit; its seconds are the CPU time of the solve inside node. The table
then shows its outcome and seconds beside ours, and the summary its figures and the ratio
of the medians. Nothing of this project depends on node: the option is for measuring.

Exits 0: it reports figures, it checks nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fpuzzles_benchmark import entries  # noqa: E402  (this script's neighbour)

from sudoku_csp import parse  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402
from sudoku_csp.io.fpuzzles import fpuzzles_json  # noqa: E402
from sudoku_csp.logic import explain  # noqa: E402

RUNNER = """
import Solver from %(index)s;
import * as fs from 'fs';
const board = JSON.parse(fs.readFileSync(0, 'utf8'));
let out: any = null;
const solver = new Solver((r: any) => { out = r; });
const timer = setTimeout(() => solver.cancel(), %(limit)d);
const wall = performance.now();
const cpu = process.cpuUsage();
solver.logicalSolve({ board }).then(() => {
    const used = process.cpuUsage(cpu);
    clearTimeout(timer);
    const desc: string[] = (out && out.desc) || [];
    const ended = !out || out.result === 'cancelled' ? 'time'
        : desc[desc.length - 1] === 'Solved!' ? 'solved' : out.invalid ? 'invalid' : 'stuck';
    console.log(JSON.stringify({ ended, steps: Math.max(desc.length - 1, 0),
        wall: (performance.now() - wall) / 1000, cpu: (used.user + used.system) / 1e6 }));
});
"""


@dataclass
class Tally:
    """One solver's figures on one file."""

    ended: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    used: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        total = sum(self.ended.values())
        others = ", ".join(f"{k} {v}" for k, v in sorted(self.ended.items()) if k != "solved")
        return (f"finished {self.ended['solved']} of {total} ({others or '-'}); "
                f"median {median(self.seconds):.2f} s, p90 {p90(self.seconds):.2f} s")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def p90(values: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


class Peer:
    """SudokuVariantSolverJS's logicalSolve, one node process a puzzle."""

    def __init__(self, checkout: Path, limit: float) -> None:
        index = (checkout / "src" / "index.ts").resolve()
        if not index.exists():
            raise SystemExit(f"--svs: {index} not found (a SudokuVariantSolverJS checkout?)")
        tsx = checkout / "node_modules" / ".bin" / "tsx"
        if not tsx.exists() or shutil.which("node") is None:
            raise SystemExit(f"--svs: needs node and {tsx} (run npm install in {checkout})")
        self.limit = limit
        self.folder = tempfile.TemporaryDirectory(prefix="svs-runner-")
        self.script = Path(self.folder.name) / "runner.ts"
        self.script.write_text(RUNNER % {"index": json.dumps(str(index)),
                                         "limit": int(limit * 1000)}, encoding="utf-8")
        self.command = [str(tsx), str(self.script)]

    def solve(self, document: str) -> tuple[str, float, int]:
        """(how it ended, CPU seconds of the solve, steps)."""
        try:
            proc = subprocess.run(self.command, input=document, capture_output=True,
                                  text=True, timeout=self.limit + 60)
            record = json.loads(proc.stdout.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, IndexError, json.JSONDecodeError):
            return "error", 0.0, 0
        return str(record["ended"]), float(record["cpu"]), int(record["steps"])


def document_of(text: str, puzzle) -> str | None:
    """The f-puzzles JSON the peer reads: the corpus's own, else this tool's writing."""
    if text.lstrip().startswith("{") and '"grid"' in text:
        return text
    try:
        return fpuzzles_json(puzzle)
    except InputError:
        return None


def run_file(path: str, args: argparse.Namespace, peer: Peer | None) -> None:
    ours, theirs = Tally(), Tally()
    print(f"\n== {path}")
    if not args.quiet:
        print(f"{'#':>3} {'puzzle':34} {'ended':>8} {'steps':>5} {'ER':>5} {'s':>6}"
              + (f"  {'peer':>8} {'s':>6}" if peer else "") + "  hardest step")
    for index, (name, text, _) in enumerate(entries(path), 1):
        if args.limit is not None and index > args.limit:
            break
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ReaderNote)
                puzzle = parse(text)
        except InputError as exc:
            ours.ended["refused"] += 1
            print(f"{index:>3} {name[:34]:34} refused: {exc}")
            continue
        began = time.process_time()
        e = explain(puzzle, time_limit=args.time_limit)
        seconds = time.process_time() - began
        how = ("solved" if e.solved else "time" if e.timed_out
               else "stuck" if e.verdict.value == "unique" else e.verdict.value)
        ours.ended[how] += 1
        ours.seconds.append(seconds)
        ours.used.update(s.technique for s in e.steps)
        er = e.rating.er
        hardest = max(e.steps, key=lambda s: s.rating).technique if e.steps else "-"
        row = (f"{index:>3} {name[:34]:34} {how:>8} {len(e.steps):>5} "
               f"{'-' if er is None else f'{er:.1f}':>5} {seconds:>6.2f}")
        if peer is not None:
            document = document_of(text, puzzle)
            ended, cpu, _ = peer.solve(document) if document else ("-", 0.0, 0)
            theirs.ended[ended] += 1
            if ended != "-":
                theirs.seconds.append(cpu)
            row += f"  {ended:>8} {cpu:>6.2f}"
        if not args.quiet:
            print(f"{row}  {hardest}", flush=True)
    print(f"sudoku_csp explain: {ours.summary()}")
    if peer is not None:
        print(f"SudokuVariantSolverJS logicalSolve: {theirs.summary()}")
        if median(ours.seconds):
            ratio = median(theirs.seconds) / median(ours.seconds)
            print(f"median time, theirs / ours: {ratio:.2f}")
    print("technique uses: " + ", ".join(f"{k} {v}" for k, v in ours.used.most_common()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="PUZZLE_FILE")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per puzzle, looked at between steps (default 60)")
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles only")
    parser.add_argument("--svs", type=Path, default=None,
                        help="a SudokuVariantSolverJS checkout to run beside (needs node)")
    parser.add_argument("--quiet", action="store_true", help="the summaries only")
    args = parser.parse_args()
    peer = Peer(args.svs, args.time_limit) if args.svs is not None else None
    for path in args.files:
        run_file(path, args, peer)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
