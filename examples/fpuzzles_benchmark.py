"""Check variant puzzles for uniqueness on every backend and time each: the setter's table.

    python examples/fpuzzles_benchmark.py PUZZLE_FILE [--solver SPEC ...] [--time-limit 10]
        [--native-limit 10] [--rounds 1]

PUZZLE_FILE holds one puzzle per line in any form the tool reads (an f-puzzles or SudokuPad
link, f-puzzles JSON, the tool's own lines), or lines of a corpus such as
``fpuzzles_dev.jsonl``: objects with ``title``, ``url`` or ``fpuzzles``, and ``solution``
(then the solution found is compared with it).

Per puzzle it prints: size, the constraint kinds, and for each backend the verdict (up to
two solutions, as ``check`` looks) and the milliseconds it took end to end (model built
from the puzzle, solved, each solution verified), best of ``--rounds`` (each round meets the
puzzle as new: :func:`~sudoku_csp.constraints.forget_puzzles`, and after the first the
backend's :meth:`~sudoku_csp.backends.base.BackendBase.renew`); then, per backend,
the median, 90th percentile and largest time, and whether every backend agreed; and per
constraint kind, the median time over the puzzles that hold it. The
backends run in turn on each puzzle, so the noise of a shared machine falls on all alike.
The native solver runs under ``--native-limit`` seconds: where its propagation is weak for
a kind it reports "unknown" rather than stall; the others under ``--time-limit``.
Exits 1 on a disagreement or a solution that differs from the corpus's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_csp import Status, get_backend, parse  # noqa: E402
from sudoku_csp.constraints import forget_puzzles  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402

DEFAULT_SPECS = ("native", "sat", "cpsat")
SHORT = {Status.UNIQUE: "unique", Status.SOLVED: "solved", Status.MULTIPLE: "multiple",
         Status.NONE: "none", Status.UNKNOWN: "unknown"}


def entries(path: str) -> list[tuple[str, str, str | None]]:
    """(name, puzzle text, expected solution digits or None) per puzzle line."""
    found = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            name, solution = f"line {number}", None
            try:
                data = json.loads(text) if text.startswith("{") else None
            except json.JSONDecodeError:
                data = None
            if isinstance(data, dict) and ("fpuzzles" in data or "url" in data):
                name = str(data.get("title") or name)
                text = json.dumps(data["fpuzzles"]) if "fpuzzles" in data else data["url"]
                raw = data.get("solution") or None
                if raw:
                    solution = "".join(f"{int(v)}," for v in raw)
            found.append((name, text, solution))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--solver", action="append", help="backend spec (repeatable)")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--native-limit", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    specs = args.solver or list(DEFAULT_SPECS)
    backends = {spec: get_backend(spec) for spec in specs}
    times: dict[str, list[float]] = {spec: [] for spec in specs}
    per_kind: dict[str, dict[str, list[float]]] = {}
    bad = unchecked = 0
    head = f"{'#':>3} {'puzzle':34} {'size':>5} {'kinds':30}" + "".join(
        f" {spec:>18}" for spec in specs)
    print(head)
    for index, (name, text, solution) in enumerate(entries(args.file), 1):
        try:
            with warnings.catch_warnings(record=True) as noted:
                warnings.simplefilter("always", ReaderNote)
                puzzle = parse(text)
        except InputError as exc:
            print(f"{index:>3} {name[:34]:34} refused: {exc}")
            continue
        kinds = ",".join(sorted({c.kind for c in puzzle.constraints})) or "-"
        cells = []
        verdicts = set()
        decided = 0  # backends that gave a verdict: fewer than two checked nothing
        for spec in specs[index % len(specs):] + specs[:index % len(specs)]:
            best = float("inf")
            limit = args.native_limit if spec.startswith("native") else args.time_limit
            for again in range(args.rounds):
                # Each round meets the puzzle as new: nothing worked out for it natively,
                # nor learnt by a SAT session from it the round before (rebuilt untimed).
                forget_puzzles()
                if again:
                    backends[spec].renew()
                start = time.perf_counter()
                result = backends[spec].solve(puzzle, limit=2, time_limit=limit)
                best = min(best, time.perf_counter() - start)
            times[spec].append(best)
            for kind in {c.kind for c in puzzle.constraints}:
                per_kind.setdefault(kind, {}).setdefault(spec, []).append(best)
            if result.status is not Status.UNKNOWN:
                verdicts.add(result.status)
                decided += 1
            if solution and result.status is Status.UNIQUE:
                found = "".join(f"{d + 1}," for d in result.solutions[0])
                if found != solution:
                    bad += 1
                    print(f"    {spec}: solution differs from the corpus's", file=sys.stderr)
            cells.append((spec, f"{SHORT[result.status]} {best * 1000:.0f}ms"))
        by_spec = dict(cells)
        if len(verdicts) > 1:
            bad += 1
        unchecked += decided < 2
        note = f"  [{len(noted)} note(s): {noted[0].message}]" if noted else ""
        print(f"{index:>3} {name[:34]:34} {puzzle.size:>5} {kinds[:30]:30}"
              + "".join(f" {by_spec[spec]:>18}" for spec in specs)
              + ("  DISAGREE" if len(verdicts) > 1 else "") + note[:120])
    print()
    print(f"{'backend':20} {'puzzles':>8} {'median ms':>10} {'p90 ms':>10} {'max ms':>10}")
    for spec in specs:
        t = sorted(times[spec])
        if not t:
            continue
        p90 = t[min(len(t) - 1, int(0.9 * len(t)))]
        print(f"{spec:20} {len(t):>8} {statistics.median(t) * 1000:>10.1f} "
              f"{p90 * 1000:>10.1f} {t[-1] * 1000:>10.1f}")
    print()
    print(f"{'kind':20} {'puzzles':>8}" + "".join(f" {spec + ' median':>16}" for spec in specs))
    for kind in sorted(per_kind):
        row = per_kind[kind]
        count = len(next(iter(row.values())))
        print(f"{kind:20} {count:>8}" + "".join(
            f" {statistics.median(row[spec]) * 1000:>14.1f}ms" for spec in specs))
    print("; ".join([f"{bad} disagreement(s) or wrong solution(s)"] * bool(bad)
                    + [f"{unchecked} puzzle(s) decided by fewer than two backends"]
                    * bool(unchecked)) or "all backends agreed")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
