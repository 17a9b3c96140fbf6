"""How many puzzles of a file the human-style techniques finish without search.

    python examples/logic_coverage.py PUZZLE_FILE [--time-limit 60] [--limit N]

PUZZLE_FILE holds one puzzle per line in any form the tool reads, or lines of a corpus such
as ``fpuzzles_dev.jsonl`` (objects with ``title`` and ``url`` or ``fpuzzles``, read as
``examples/fpuzzles_benchmark.py`` reads them). Each puzzle is explained
(:func:`sudoku_csp.logic.explain`, which never guesses) under ``--time-limit`` seconds,
looked at between steps (one step is not cut short). Per puzzle it prints: how it ended
(``solved``, ``stuck``: no technique applies, ``time``: the limit came first, or the
verdict when the puzzle is not unique), the steps, the hardest rating, the seconds, the
constraint kinds; then how many were finished, the total time, and how often each technique
was used. Exits 0: it reports figures, it checks nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fpuzzles_benchmark import entries  # noqa: E402  (this script's neighbour)

from sudoku_csp import parse  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402
from sudoku_csp.logic import explain  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per puzzle, looked at between steps (default 60)")
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles only")
    args = parser.parse_args()
    used: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    start = time.perf_counter()
    print(f"{'#':>3} {'puzzle':34} {'ended':>8} {'steps':>6} {'ER':>5} {'s':>7}  kinds")
    for index, (name, text, _) in enumerate(entries(args.file), 1):
        if args.limit is not None and index > args.limit:
            break
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ReaderNote)
                puzzle = parse(text)
        except InputError as exc:
            ended["refused"] += 1
            print(f"{index:>3} {name[:34]:34} refused: {exc}")
            continue
        began = time.perf_counter()
        e = explain(puzzle, time_limit=args.time_limit)
        seconds = time.perf_counter() - began
        how = ("solved" if e.solved else "time" if e.timed_out
               else "stuck" if e.verdict.value == "unique" else e.verdict.value)
        ended[how] += 1
        used.update(s.technique for s in e.steps)
        er = e.rating.er
        kinds = ",".join(sorted({c.kind for c in puzzle.constraints})) or "-"
        print(f"{index:>3} {name[:34]:34} {how:>8} {len(e.steps):>6} "
              f"{'-' if er is None else f'{er:.1f}':>5} {seconds:>7.1f}  {kinds}", flush=True)
    total = sum(ended.values())
    print(f"\nfinished without search: {ended['solved']} of {total} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ended.items()) if k != 'solved') or '-'})"
          f"; time limit {args.time_limit:g} s a puzzle; total "
          f"{time.perf_counter() - start:.1f} s")
    print("technique uses: " + ", ".join(f"{k} {v}" for k, v in used.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
