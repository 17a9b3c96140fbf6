"""Audit the explainer on any puzzle file: every step checked against the true solution.

Usage: python examples/explain_audit.py FILE [--limit N]

For each puzzle the SAT backend finds the solution (and checks it is unique); then every
placement and elimination of every explanation step is compared with it. Prints the
violations (technique, puzzle, step: there must be none), how many puzzles the techniques
finished, how often each technique was used, and puzzles per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from sudoku_csp import get_backend, read_puzzles
from sudoku_csp.io import to_line
from sudoku_csp.logic import explain


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    sat = get_backend("sat")
    used: Counter[str] = Counter()
    puzzles = steps = finished = skipped = 0
    violations: list[str] = []
    start = time.perf_counter()
    for puzzle in read_puzzles(args.file):
        if args.limit is not None and puzzles >= args.limit:
            break
        puzzles += 1
        result = sat.solve(puzzle, limit=2)
        if result.count != 1:
            skipped += 1  # the audit needs the one true solution
            continue
        truth = result.solution
        assert truth is not None
        e = explain(puzzle)
        finished += e.solved
        for step in e.steps:
            steps += 1
            used[step.technique] += 1
            wrong = [(c, d) for c, d in step.placements if truth[c] != d]
            wrong += [(c, d) for c, d in step.eliminations if truth[c] == d]
            if wrong:
                violations.append(f"{step.technique}: {to_line(puzzle)}: {step.text}")
    seconds = time.perf_counter() - start
    print(f"puzzles {puzzles} (not unique, skipped: {skipped}), steps {steps}, "
          f"finished by the techniques {finished}")
    print(f"violations {len(violations)}")
    for line in violations:
        print("  " + line)
    print("technique uses: " + ", ".join(f"{k} {v}" for k, v in used.most_common()))
    print(f"time {seconds:.1f} s, {puzzles / seconds:.1f} puzzles/s")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
