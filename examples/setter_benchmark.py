"""Time the setter tools on a puzzle file: true candidates, minimal conflicts, disambiguation.

    python examples/setter_benchmark.py PUZZLE_FILE [--cap 8] [--time-limit 20] [--seed 1]

PUZZLE_FILE holds one puzzle per line in any form the tool reads, or corpus lines such as
``fpuzzles_dev.jsonl`` (objects with ``title`` and ``url`` or ``fpuzzles``). Per puzzle:

- ``as given``: the true candidates of the puzzle itself, counted to ``--cap`` (a unique
  one collapses to its solution), milliseconds and solver calls; then ``truth``, the same
  without counts (``cap=1``), beside the baseline in the same run that answers the same
  question with one solver question per candidate (``one by one``: the same session, no
  model reused, no solution read or checked);
- ``loosened``: the same, on the puzzle with its givens taken away and half its
  constraint parts dropped (seeded): a blank-ish variant puzzle, with the number of its
  solutions (counted by the sat backend up to 10,000);
- ``conflict``: one cell of the unique solution given a wrong digit (seeded), so the puzzle
  has none: the size of the solver's first core and of the minimal conflict, and the time;
- ``disambiguate``: on the loosened puzzle when it has several solutions: how many single
  givens make it unique, or the size of the set found, and the time.

Then medians and maxima, and how many puzzles meet the aims (a unique puzzle's candidates in
under 0.3 s; a loosened one with thousands of solutions in under 2 s).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fpuzzles_benchmark import entries  # noqa: E402  (the corpus reader, same folder)

from sudoku_csp import get_backend, parse  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402
from sudoku_csp.geometry import EMPTY  # noqa: E402
from sudoku_csp.puzzle import Puzzle  # noqa: E402
from sudoku_csp.setter import (  # noqa: E402
    PartSession,
    disambiguate,
    minimal_conflict,
    puzzle_of,
    puzzle_parts,
    true_candidates,
)

COUNT_UP_TO = 10_000


def one_by_one(puzzle: Puzzle) -> tuple[float, int]:
    """The baseline: one solver question per candidate, in one session (seconds, calls)."""
    start = time.perf_counter()
    with PartSession(puzzle) as s:
        for cell in range(puzzle.geometry.ncells):
            for d in range(puzzle.size):
                s.satisfiable(s.parts, [s.literal(cell, d)])
        return time.perf_counter() - start, s.calls


def loosened(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """No givens, and half the constraint parts, drawn at random."""
    parts = [p for p in puzzle_parts(puzzle) if not p.is_given]
    kept = sorted(rng.sample(parts, (len(parts) + 1) // 2), key=lambda p: p.index)
    return puzzle_of(Puzzle(puzzle.geometry, (EMPTY,) * puzzle.geometry.ncells,
                            constraints=puzzle.constraints), kept)


def broken(puzzle: Puzzle, solution: tuple[int, ...], rng: random.Random) -> Puzzle:
    """The puzzle with one open cell given a digit its unique solution does not hold."""
    cell = rng.choice([c for c, d in enumerate(puzzle.givens) if d == EMPTY])
    givens = list(puzzle.givens)
    givens[cell] = rng.choice([d for d in range(puzzle.size) if d != solution[cell]])
    return Puzzle(puzzle.geometry, tuple(givens), constraints=puzzle.constraints)


def first_core(puzzle: Puzzle) -> int:
    with PartSession(puzzle) as s:
        s.satisfiable(s.parts)
        return len(s.core())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--cap", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ReaderNote)
    sat = get_backend("sat")
    rows = []
    print(f"{'#':>3} {'puzzle':30} {'as given':>22} {'truth':>13} {'one by one':>18} "
          f"{'loosened':>28} {'conflict':>22} {'disambiguate':>22}")
    for number, (name, text, _) in enumerate(entries(args.file), 1):
        rng = random.Random(f"{args.seed} {number}")
        try:
            puzzle = parse(text)
        except InputError as exc:
            print(f"{number:>3} {name[:30]:30} cannot be read: {exc}")
            continue
        tc = true_candidates(puzzle, cap=args.cap, time_limit=args.time_limit)
        truth = true_candidates(puzzle, cap=1, time_limit=args.time_limit)
        base_s, base_calls = one_by_one(puzzle)
        loose = loosened(puzzle, rng)
        counted = sat.solve(loose, limit=COUNT_UP_TO, time_limit=args.time_limit)
        solutions = counted.count if counted.complete else None
        ltc = true_candidates(loose, cap=args.cap, time_limit=args.time_limit)
        row = {"name": name, "status": tc.status, "ms": 1000 * tc.seconds,
               "calls": tc.calls, "truth_ms": 1000 * truth.seconds, "truth_calls": truth.calls,
               "base_ms": 1000 * base_s, "base_calls": base_calls,
               "loose_status": ltc.status, "loose_ms": 1000 * ltc.seconds,
               "loose_calls": ltc.calls, "loose_complete": ltc.complete,
               "solutions": solutions}
        conflict_text = "-"
        if tc.status == "unique":
            bad = broken(puzzle, tc.solutions[0], rng)
            core = first_core(bad)
            conflict = minimal_conflict(bad, time_limit=args.time_limit)
            assert conflict is not None
            row.update(core=core, conflict=len(conflict.parts),
                       conflict_ms=1000 * conflict.seconds, minimal=conflict.minimal)
            conflict_text = (f"{core:>3}->{len(conflict.parts):<3} {1000 * conflict.seconds:7.0f}"
                             f" ms{'' if conflict.minimal else '?'}")
        dis_text = "-"
        if ltc.status == "multiple":
            d = disambiguate(loose, time_limit=args.time_limit)
            row.update(singles=len(d.singles), set=len(d.found_set), dis_ms=1000 * d.seconds)
            what = f"{len(d.singles)} single" if d.singles else f"set of {len(d.found_set)}"
            dis_text = f"{what:>12} {1000 * d.seconds:6.0f} ms"
        rows.append(row)
        shown = "?" if solutions is None else (f"{solutions}" if solutions < COUNT_UP_TO
                                               else f"{COUNT_UP_TO}+")
        print(f"{number:>3} {name[:30]:30} {tc.status:>8} {row['ms']:7.0f} ms {tc.calls:3}"
              f" {row['truth_ms']:6.0f} ms {truth.calls:3}"
              f" {row['base_ms']:8.0f} ms {base_calls:5} "
              f"{shown:>7} sol {ltc.seconds * 1000:7.0f} ms {ltc.calls:5}"
              f"{'' if ltc.complete else '?'} {conflict_text:>22} {dis_text:>22}")
    summarise(rows)
    return 0


def _stats(values: list[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values):.0f} ms, max {max(values):.0f} ms"


def summarise(rows: list[dict]) -> None:
    print()
    unique = [r for r in rows if r["status"] == "unique"]
    print(f"as given, unique ({len(unique)}): {_stats([r['ms'] for r in unique])}; "
          f"under 300 ms: {sum(r['ms'] < 300 for r in unique)}")
    print(f"truth only (cap 1), every puzzle: {_stats([r['truth_ms'] for r in rows])}, "
          f"{sum(r['truth_calls'] for r in rows)} solver calls in all; one question per "
          f"candidate: {_stats([r['base_ms'] for r in rows])}, "
          f"{sum(r['base_calls'] for r in rows)} calls")
    many = [r for r in rows if r["solutions"] is None or r["solutions"] >= 1000]
    print(f"loosened with 1,000+ solutions ({len(many)}): "
          f"{_stats([r['loose_ms'] for r in many])}; under 2 s: "
          f"{sum(r['loose_ms'] < 2000 and r['loose_complete'] for r in many)}")
    loose = [r for r in rows if r["loose_status"] == "multiple"]
    print(f"loosened with several solutions ({len(loose)}): "
          f"{_stats([r['loose_ms'] for r in loose])}")
    broken = [r for r in rows if "conflict" in r]
    if broken:
        sizes = [r["conflict"] for r in broken]
        print(f"conflicts ({len(broken)}): parts median {statistics.median(sizes):g}, max "
              f"{max(sizes)} (first cores median "
              f"{statistics.median(r['core'] for r in broken):g}); "
              f"{_stats([r['conflict_ms'] for r in broken])}; minimal: "
              f"{sum(r['minimal'] for r in broken)}")
    dis = [r for r in rows if "dis_ms" in r]
    if dis:
        print(f"disambiguate ({len(dis)}): single givens found on "
              f"{sum(r['singles'] > 0 for r in dis)}, sets on "
              f"{sum(r['set'] > 0 for r in dis)} (sizes "
              f"{sorted(r['set'] for r in dis if r['set'])}); "
              f"{_stats([r['dis_ms'] for r in dis])}")


if __name__ == "__main__":
    sys.exit(main())
