"""Where one line of ``sudoku-csp solve FILE -s SPEC`` spends its time, layer by layer, each
layer measured in the same run as Norvig's solver.

    python examples/line_cost.py PUZZLES.txt [--solver native] [--solver sat]
        [--max-puzzles 1000] [--lines 20000] [--block 25] [--rounds 3]

Each layer does what the one above it does, plus one more part of the path from a puzzle
line to a printed record:

1. **engine**: the search alone, no check (native: the searcher; sat: raw PySAT calls on
   the backend's formula, examples/sat_overhead.py's ``raw_sat``);
2. **backend**: ``make_backend(spec).solve(puzzle)``: the answer checked against the rules
   (:mod:`sudoku_csp.verify`), counted and timed, as a ``Result``;
3. **claim + verdict**: the claim the batch runner makes of that result and its judgement
   (:func:`~sudoku_csp.crosscheck.run_claims`, :func:`~sudoku_csp.crosscheck.judge`);
4. **batch record**: :func:`~sudoku_csp.batch.run_batch` on the puzzle's line, as the CLI
   calls it: parsing, the above, and the ``Record``;
5. **CLI line**: ``sudoku-csp solve`` in a new process on ``--lines`` lines cycling through
   the puzzles, less its start-up (the same command on one puzzle), per line. Its ratio to
   Norvig is taken against Norvig timed just before and after each run (a process cannot
   be interleaved block by block); its cost is Norvig's in-process time over that ratio.

Layers 1-4 and Norvig run block by block in turn in this process (``--block`` puzzles per
block, the order reversed every other block); each layer's best of ``--rounds`` passes is
printed with its cost per puzzle, what it adds to the layer above, and its speed against
Norvig. The CLI layer takes the best ratio of ``--rounds`` runs. Compare the ratios;
absolute times wander on a shared machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
from collections.abc import Callable, Sequence

from benchmark import norvig_solve
from performance_table import cli, cycle_seconds, write_lines
from sat_overhead import interleaved, raw_sat

from sudoku_csp import read_puzzles
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.batch import run_batch
from sudoku_csp.crosscheck import judge, run_claims
from sudoku_csp.io import PuzzleText, to_line
from sudoku_csp.puzzle import Puzzle

Runner = Callable[[Sequence[Puzzle]], object]


def each(run: Callable[[Puzzle], object]) -> Runner:
    """A block runner calling ``run`` on every puzzle of the block."""
    def block(puzzles: Sequence[Puzzle]) -> None:
        for puzzle in puzzles:
            run(puzzle)
    return block


def layers(spec: str, puzzles: Sequence[Puzzle]) -> dict[str, Runner]:
    """The in-process layers of ``spec``, outermost last."""
    backend = make_backend(spec)
    backends = {backend.spec: backend}
    if backend.name == "native":
        searcher = backend.searcher  # type: ignore[attr-defined]
        engine: Callable[[Puzzle], object] = lambda p: searcher.solve(p, 1)  # noqa: E731
    elif backend.name == "sat":
        engine = raw_sat(puzzles)
    else:
        raise SystemExit(f"{spec}: the engine layer is measured for native and sat")
    lines = {id(p): to_line(p) for p in puzzles}

    def batch(block: Sequence[Puzzle]) -> None:
        texts = [PuzzleText(lines[id(p)], i) for i, p in enumerate(block, start=1)]
        for _ in run_batch(texts, [backend], limit=1):
            pass

    return {
        "engine": each(engine),
        "backend": each(lambda p: backend.solve(p, limit=1)),
        "claim + verdict": each(lambda p: judge(run_claims(p, backends, limit=1,
                                                           time_limit=None)[0])),
        "batch record": batch,
    }


def best_blocks(puzzles: Sequence[Puzzle], runners: Sequence[Runner], block: int,
                rounds: int) -> list[float]:
    """Each runner's best seconds over ``rounds`` interleaved passes of ``puzzles``."""
    blocks = [puzzles[i:i + block] for i in range(0, len(puzzles), block)]
    for run in runners:  # warm up: solvers loaded, tables built
        run(blocks[0])
    best = [float("inf")] * len(runners)
    for _ in range(rounds):
        totals = interleaved(blocks, runners, 1)  # each "puzzle" it hands out is a block
        best = [min(b, t) for b, t in zip(best, totals, strict=True)]
    return best


def cli_layer(spec: str, puzzles: Sequence[Puzzle], path: str, lines: int,
              rounds: int) -> tuple[float, float]:
    """(start-up seconds, best ratio to Norvig) of ``sudoku-csp solve PATH -s SPEC``: each
    run's seconds per line, less start-up, against Norvig timed just before and after it
    on a few of the puzzles, so that a slower or faster spell of a shared machine falls
    on both sides of the ratio."""
    sample = puzzles[:300]
    best_startup, best_ratio = float("inf"), 0.0
    for _ in range(rounds):
        before = cycle_seconds(norvig_solve, sample, len(sample)) / len(sample)
        startup = cli(["solve", to_line(sample[0]), "-s", spec])
        whole = cli(["solve", path, "-s", spec])
        after = cycle_seconds(norvig_solve, sample, len(sample)) / len(sample)
        best_startup = min(best_startup, startup)
        per_line = (whole - startup) / lines
        if per_line > 0:
            best_ratio = max(best_ratio, (before + after) / 2 / per_line)
    return best_startup, best_ratio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="puzzle file, one puzzle per line, one geometry")
    parser.add_argument("--solver", action="append", help="native or sat, with options "
                        "(repeatable; default both)")
    parser.add_argument("--max-puzzles", type=int, default=1000, help="use the first N")
    parser.add_argument("--lines", type=int, default=20_000, help="lines for the CLI layer")
    parser.add_argument("--block", type=int, default=25, help="puzzles per block")
    parser.add_argument("--rounds", type=int, default=3, help="passes (and CLI runs)")
    args = parser.parse_args(argv)

    puzzles = list(itertools.islice(read_puzzles(args.file), args.max_puzzles))
    n = len(puzzles)
    print(f"{n} puzzles from {args.file}; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        path = write_lines([to_line(p) for p in puzzles], args.lines, folder, "lines.txt")
        for spec in args.solver or ["native", "sat"]:
            steps = layers(spec, puzzles)
            runners = [each(norvig_solve), *steps.values()]
            norvig, *seconds = best_blocks(puzzles, runners, args.block, args.rounds)
            per_norvig = norvig / n
            startup, ratio = cli_layer(spec, puzzles, path, args.lines, args.rounds)
            costs = [s / n for s in seconds] + [per_norvig / ratio if ratio else 0.0]
            print(f"\n{spec}: Norvig {1000 * per_norvig:.3f} ms/puzzle; CLI start-up "
                  f"{startup:.2f} s")
            print(f"  {'layer':18} {'ms/puzzle':>10} {'adds':>9} {'vs Norvig':>10}")
            previous = 0.0
            for name, cost in zip([*steps, "CLI line"], costs, strict=True):
                ratio = f"{per_norvig / cost:9.1f}x" if cost else "   (too few lines)"
                print(f"  {name:18} {1000 * cost:10.3f} {1000 * (cost - previous):+9.3f} "
                      f"{ratio}")
                previous = cost


if __name__ == "__main__":
    main()
