"""How fast is canonical(), against enumerating the symmetry group, and how many classes?

    python examples/canon_benchmark.py PUZZLE_FILE [--limit N]

Prints puzzles/s for sudoku_csp.canon.canonical on the file (9x9 puzzles), the mean number
of partial transformations the search compared per puzzle, and the number of equivalence
classes (what `sudoku-csp canon --dedupe` keeps). The baseline, measured in the same run on
the same puzzles: the naive way, every transformation written out, relabelled and compared,
timed on a subgroup (transposition x band orders x stack orders: 72 maps) and scaled to the
whole group of 2*6^8 cell arrangements.
"""

from __future__ import annotations

import argparse
import itertools
import time

from sudoku_csp import EMPTY, read_puzzles
from sudoku_csp.canon import Transformation, canonicalize

GROUP = 2 * 6**8  # cell arrangements; the digit relabelling is forced (first appearance)


def relabelled(grid: tuple[int, ...]) -> tuple[int, ...]:
    labels: dict[int, int] = {}
    return tuple(0 if d == EMPTY else labels.setdefault(d, len(labels) + 1) for d in grid)


def subgroup() -> list[Transformation]:
    """Transposition x band orders x stack orders (rows and columns kept inside them)."""
    blocks = list(itertools.permutations(range(3)))
    same = tuple(range(9))
    return [Transformation(t, tuple(3 * b + k for b in bands for k in range(3)),
                           tuple(3 * s + k for s in stacks for k in range(3)), same)
            for t in (False, True) for bands in blocks for stacks in blocks]


def naive_seconds_per_map(puzzles: list, maps: list[Transformation]) -> float:
    start = time.perf_counter()
    for puzzle in puzzles:
        min(relabelled(m.apply_grid(puzzle.givens)) for m in maps)
    return (time.perf_counter() - start) / (len(puzzles) * len(maps))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--limit", type=int, default=None, help="Only the first N puzzles.")
    args = parser.parse_args()
    puzzles = [p for p in itertools.islice(read_puzzles(args.file), args.limit)
               if p.size == 9 and not p.geometry.variants]
    if not puzzles:
        raise SystemExit(f"no plain 9x9 puzzle in {args.file}")

    per_map = naive_seconds_per_map(puzzles[:20], subgroup())
    start = time.perf_counter()
    found = [canonicalize(p) for p in puzzles]
    seconds = time.perf_counter() - start
    classes = len({f.puzzle.givens for f in found})
    explored = sum(f.explored for f in found) / len(found)
    naive = per_map * GROUP

    givens = sum(p.clue_count for p in puzzles) / len(puzzles)
    print(f"{args.file}: {len(puzzles)} puzzles, {givens:.1f} givens on average")
    print(f"canonical():       {len(puzzles) / seconds:10,.0f} puzzles/s  "
          f"({1000 * seconds / len(puzzles):.2f} ms each; {explored:,.0f} partial "
          f"transformations compared, of {GROUP:,} arrangements)")
    print(f"naive enumeration: {1e6 * per_map:10.1f} us per transformation (72-map subgroup, "
          f"same run) -> {naive:,.0f} s per puzzle for the whole group")
    print(f"speed-up:          {naive * len(puzzles) / seconds:10,.0f}x")
    print(f"classes (--dedupe): {classes} of {len(puzzles)} puzzles "
          f"({len(puzzles) - classes} equivalent to an earlier one)")


if __name__ == "__main__":
    main()
