"""Benchmark solver specs on a puzzle file against Norvig's algorithm in the same run.

    python examples/benchmark.py PUZZLES.txt [--solver SPEC ...] [--limit 1 --limit 2]

Every spec runs on the same puzzles in this process, after the baseline: a plain
re-implementation of Norvig's 2006 solver (a dict of candidate strings, recursive
assign/eliminate with both the naked-single and hidden-single rules, fewest-candidates
search). Printed per spec: puzzles/s, mean and max ms, mean search nodes (or decisions),
conflicts, the share solved by propagation alone, and the speed ratio to the baseline's
plain solve. Runners take turns on blocks of 25 puzzles, so a noisy shared machine slows
every runner alike: compare the ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable

from sudoku_csp import is_solution, make_backend, read_puzzles
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle

DEFAULT_SPECS = ["native:rules=singles", "native:rules=locked", "native:rules=pairs",
                 "native:rules=full"]


# -- the baseline: Norvig's algorithm, 9×9 only --------------------------------------------
DIGITS = "123456789"
ROWS = "ABCDEFGHI"
SQUARES = [r + c for r in ROWS for c in DIGITS]
UNIT_LIST = ([[r + c for c in DIGITS] for r in ROWS]
             + [[r + c for r in ROWS] for c in DIGITS]
             + [[r + c for r in rs for c in cs]
                for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS = {s: [u for u in UNIT_LIST if s in u] for s in SQUARES}
PEERS = {s: set(itertools.chain.from_iterable(UNITS[s])) - {s} for s in SQUARES}


def norvig_assign(values: dict[str, str], square: str, digit: str) -> dict[str, str] | None:
    """Keep only ``digit`` in ``square`` by eliminating the others; None on contradiction."""
    for other in values[square].replace(digit, ""):
        if norvig_eliminate(values, square, other) is None:
            return None
    return values


def norvig_eliminate(values: dict[str, str], square: str, digit: str) -> dict[str, str] | None:
    """Remove ``digit`` from ``square``, then apply both rules; None on contradiction."""
    if digit not in values[square]:
        return values
    values[square] = values[square].replace(digit, "")
    left = values[square]
    if not left:
        return None
    if len(left) == 1:  # naked single: its digit leaves the peers
        for peer in PEERS[square]:
            if norvig_eliminate(values, peer, left) is None:
                return None
    for unit in UNITS[square]:  # hidden single: the digit's only place in a unit
        places = [s for s in unit if digit in values[s]]
        if not places:
            return None
        if len(places) == 1 and norvig_assign(values, places[0], digit) is None:
            return None
    return values


def norvig_search(values: dict[str, str] | None) -> dict[str, str] | None:
    if values is None:
        return None
    if all(len(v) == 1 for v in values.values()):
        return values
    _, square = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for digit in values[square]:
        found = norvig_search(norvig_assign(dict(values), square, digit))
        if found is not None:
            return found
    return None


def norvig_solve(puzzle: Puzzle) -> tuple[int, ...] | None:
    values: dict[str, str] | None = dict.fromkeys(SQUARES, DIGITS)
    for square, digit in zip(SQUARES, puzzle.givens, strict=True):
        if digit >= 0 and values is not None:
            values = norvig_assign(values, square, DIGITS[digit])
    found = norvig_search(values)
    return None if found is None else tuple(int(found[s]) - 1 for s in SQUARES)


# -- measuring ----------------------------------------------------------------------------
def measure(puzzles: list[Puzzle], runners: list[Callable[[Puzzle], dict]],
            block: int = 25) -> list[dict]:
    """Time every runner on every puzzle, taking turns block by block (``block`` puzzles
    each), so that the noise of a shared machine falls on all runners alike while each
    runner still meets its puzzles with warm caches. One summary per runner."""
    times: list[list[float]] = [[] for _ in runners]
    records: list[list[dict]] = [[] for _ in runners]
    clock = time.perf_counter
    for start in range(0, len(puzzles), block):
        chunk = puzzles[start:start + block]
        for i, run in enumerate(runners):
            for puzzle in chunk:
                began = clock()
                record = run(puzzle)
                times[i].append(clock() - began)
                records[i].append(record)
    return [summarize(t, r) for t, r in zip(times, records, strict=True)]


def summarize(times: list[float], records: list[dict]) -> dict:
    total = sum(times)
    tenth = max(1, len(times) // 10)
    out = {
        "puzzles": len(times),
        "per_s": len(times) / total if total else float("inf"),
        "mean_ms": 1000 * statistics.fmean(times),
        "max_ms": 1000 * max(times),
        "first10_ms": 1000 * statistics.fmean(times[:tenth]),
        "last10_ms": 1000 * statistics.fmean(times[-tenth:]),
        "total_s": total,
    }
    for key in ("nodes", "conflicts", "propagated"):
        values = [r[key] for r in records if r.get(key) is not None]
        out[key] = statistics.fmean(values) if values else None
    return out


def run_spec(spec: str, limit: int, time_limit: float | None) -> Callable[[Puzzle], dict]:
    # A backend of its own per (spec, limit): a shared incremental solver would meet each
    # puzzle a second time already warm. Built here, before any clock starts.
    backend = make_backend(spec)

    def run(puzzle: Puzzle) -> dict:
        result = backend.solve(puzzle, limit=limit, time_limit=time_limit)
        if not result.status.has_solution:
            print(f"  {spec}: {result.status} for {to_line(puzzle)} {result.message}",
                  file=sys.stderr)
        stats = result.stats
        return {
            "nodes": stats.get("nodes", stats.get("decisions")),
            "conflicts": stats.get("backtracks", stats.get("conflicts")),
            # native reports this on every run; sat and cpsat only with search=off
            "propagated": (100.0 * stats["solved_by_propagation"]
                           if "solved_by_propagation" in stats else None),
        }

    return run


def run_baseline(puzzle: Puzzle) -> dict:
    grid = norvig_solve(puzzle)
    if not is_solution(puzzle, grid):
        raise AssertionError(f"baseline failed on {to_line(puzzle)}")
    return {}


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def row_text(name: str, limit: int, row: dict, ratio: str) -> str:
    return (f"{name:42} {limit:>5} {fmt(row['per_s']):>10} {fmt(row['mean_ms'], 2):>9} "
            f"{fmt(row['max_ms'], 1):>9} {fmt(row['nodes']):>9} {fmt(row['conflicts']):>9} "
            f"{fmt(row['propagated'], 0):>7} {fmt(row['first10_ms'], 2):>9} "
            f"{fmt(row['last10_ms'], 2):>9} {ratio:>8}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="puzzle file, one puzzle per line")
    parser.add_argument("--solver", action="append", dest="specs",
                        help=f"backend spec, repeatable (default: {' '.join(DEFAULT_SPECS)})")
    parser.add_argument("--limit", action="append", type=int, dest="limits",
                        help="solutions to look for: 1 solves, 2 decides uniqueness "
                             "(repeatable; default: 1 and 2)")
    parser.add_argument("--max-puzzles", type=int, default=None, help="use the first N")
    parser.add_argument("--repeat", type=int, default=1, help="run the file this many times")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per puzzle")
    parser.add_argument("--no-baseline", action="store_true", help="skip Norvig's solver")
    args = parser.parse_args(argv)

    puzzles = list(itertools.islice(read_puzzles(args.file), args.max_puzzles)) * args.repeat
    specs = args.specs or DEFAULT_SPECS
    limits = args.limits or [1, 2]
    print(f"{len(puzzles)} puzzles from {args.file}")
    header = (f"{'solver':42} {'limit':>5} {'puzzles/s':>10} {'mean ms':>9} {'max ms':>9} "
              f"{'nodes':>9} {'confl.':>9} {'prop.%':>7} {'first10%':>9} {'last10%':>9} "
              f"{'vs base':>8}")
    print(header)
    print("-" * len(header))
    with_baseline = not args.no_baseline and all(p.geometry.name == "9x9" for p in puzzles)
    runs = [(spec, limit) for spec in specs for limit in limits]
    runners = [run_spec(spec, limit, args.time_limit) for spec, limit in runs]
    if with_baseline:
        runs.insert(0, ("baseline: Norvig (dict of strings)", 1))
        runners.insert(0, run_baseline)
    rows = measure(puzzles, runners)
    base = rows[0] if with_baseline else None
    for (name, limit), row in zip(runs, rows, strict=True):
        ratio = f"{base['total_s'] / row['total_s']:.1f}x" if base else "-"
        print(row_text(name, limit, row, ratio))

if __name__ == "__main__":
    main()
