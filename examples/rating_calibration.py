"""Compare this project's difficulty rating (ER) with Sudoku Explainer's on a rated file.

Usage: python examples/rating_calibration.py FILE [--jobs N] [--limit N] [--worst K]

Lines without a rating are rated and listed, not compared.

FILE has one puzzle per line followed by a tab and ``se=R`` (R: Sudoku Explainer's rating),
like ../shared/data/se_rated_1000.txt. Prints the Spearman rank correlation between the two
ratings, the share rated exactly the same and within ±0.5, the mean absolute difference, a
confusion table by tier (theirs down, ours across), how often each technique decided a
puzzle's ER, the puzzles our techniques could not finish, and puzzles per second. With
``--worst K`` it lists the K puzzles we rate furthest from theirs (to find what is missing).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from sudoku_csp import parse
from sudoku_csp.logic import TIERS, explain, tier_of


def rate_line(line: str) -> tuple[str, float, float | None, str, bool]:
    """(puzzle, their rating (nan if the line has none), our ER, the technique of our
    hardest step, solved)."""
    text, _, tag = line.strip().partition("\t")
    tag = tag.strip()
    theirs = float(tag.removeprefix("se=")) if tag.startswith("se=") else float("nan")
    e = explain(parse(text))
    hardest = max(e.steps, key=lambda s: s.rating, default=None)
    return text, theirs, e.rating.er, hardest.technique if hardest else "-", e.solved


def ranks(values: list[float]) -> list[float]:
    """Ranks 1..n, ties given their average rank (as Spearman's rho needs)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--worst", type=int, default=0)
    args = parser.parse_args()
    with open(args.file, encoding="utf-8") as handle:
        lines = [line for line in handle
                 if line.strip() and not line.startswith("#")][: args.limit]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(rate_line, lines, chunksize=4))
    else:
        rows = [rate_line(line) for line in lines]
    seconds = time.perf_counter() - start

    rated = [r for r in rows if r[1] == r[1]]  # lines that carry Sudoku Explainer's rating
    if len(rated) < len(rows):
        print(f"{len(rows) - len(rated)} lines without se=R: only our ratings for them")
        for text, _, er, tech, solved in rows:
            if not any(text == r[0] for r in rated):
                print(f"  {text}  ER={er}  {tech}{'' if solved else '  (not finished)'}")
    rows = rated
    if not rows:
        print(f"time {seconds:.1f} s")
        return 0
    # A puzzle our techniques cannot finish needs more than the ladder has: rank it last.
    ours = [er if solved and er is not None else 12.0 for _, _, er, _, solved in rows]
    theirs = [r[1] for r in rows]
    diffs = [abs(a - b) for a, b in zip(ours, theirs, strict=True)]
    n = len(rows)
    print(f"puzzles                 {n}")
    print(f"Spearman rank corr.     {spearman(ours, theirs):.3f}")
    print(f"exactly the same        {sum(d < 0.05 for d in diffs) / n:.1%}")
    print(f"within ±0.5             {sum(d <= 0.5 + 1e-9 for d in diffs) / n:.1%}")
    print(f"mean absolute diff.     {sum(diffs) / n:.2f}")
    print(f"not finished by logic   {sum(not r[4] for r in rows)}")
    print(f"time                    {seconds:.1f} s, {n / seconds:.1f} puzzles/s "
          f"({args.jobs} job{'s' if args.jobs > 1 else ''})")

    names = [name for name, _ in TIERS]
    table = Counter((tier_of(t), tier_of(o if r[4] else None))
                    for t, o, r in zip(theirs, ours, rows, strict=True))
    print("\ntiers (rows: Sudoku Explainer, columns: ours)")
    print(f"{'':>12}" + "".join(f"{name:>12}" for name in names))
    for a in names:
        print(f"{a:>12}" + "".join(f"{table[(a, b)]:>12}" for b in names))

    print("\nhardest technique (ours) -> count, mean SE rating of those puzzles")
    by_tech: dict[str, list[float]] = {}
    for _, their, _, tech, _ in rows:
        by_tech.setdefault(tech, []).append(their)
    for tech, values in sorted(by_tech.items(), key=lambda kv: -len(kv[1])):
        print(f"  {tech:<24}{len(values):>5}   {sum(values) / len(values):.2f}")

    if args.worst:
        print(f"\n{args.worst} largest differences (puzzle, SE, ours, technique)")
        worst = sorted(zip(diffs, rows, ours, strict=True), key=lambda x: -x[0])
        for _, (text, their, _, tech, _), mine in worst[: args.worst]:
            print(f"  {text}  {their:.1f}  {mine:.1f}  {tech}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
