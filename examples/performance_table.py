"""Every line of the performance table (issue 13) in one run, each against its baseline
measured in the same run.

    python examples/performance_table.py SEVENTEEN.txt [TOP95.txt] [--lines 50000]
        [--count-lines 50000] [--jobs-lines 10000] [--max-puzzles 1000] [--rounds 3]

SEVENTEEN is a file of 17-clue puzzles (../shared/data/seventeen_clue_1000.txt), TOP95 a file
of hard ones. Lines printed, in the table's order:

1. native through the library on SEVENTEEN and on TOP95, against Norvig's algorithm
   (examples/benchmark.py's re-implementation), interleaved block by block.
2. sat (CaDiCaL) through the library against raw PySAT on the same formula
   (examples/sat_overhead.py, which prints more rounds): the library's speed in percent of
   raw.
3. ``sudoku-csp solve FILE -s native`` and ``-s sat`` end to end (a new process: start-up,
   parsing, solving, verifying, printing), on SEVENTEEN repeated to ``--lines`` lines (by
   default 50,000, about the size of the full 17-clue list), against Norvig's solver on the
   same lines in this process: Norvig's time on each distinct puzzle, summed over the
   lines (his solver is deterministic, and repeating it fifty times would take minutes).
   The start-up alone (the same command on one puzzle) is printed beside it.
4. ``sudoku-csp count -s sat --jobs 2`` on SEVENTEEN repeated to ``--count-lines`` lines
   (49,151 is the size of the full 17-clue list): wall seconds. Beside it, the floor: raw
   PySAT deciding uniqueness the same way (examples/sat_overhead.py's ``raw_unique``: two
   calls per puzzle) in this process on the same lines, and half of that for two cores.
5. CP-SAT, both models, through the library on SEVENTEEN, against Norvig.
6. ``--jobs 2`` against ``--jobs 1``: ``count -s native`` on ``--jobs-lines`` lines of
   SEVENTEEN (each shuffled by a random symmetry of the grid, so no two lines are the same
   puzzle) and ``count -s sat`` on the ``--count-lines`` file. Only meaningful on an idle
   machine with two cores. Beside them, the machine's own ceiling: two processes running
   the same pure-Python loop at once, against one (2.0x where the second core is as fast
   as the first; less on a host that shares its cores).

Process timings take the best of ``--rounds`` alternating rounds; in-process ones
interleave blocks of 25 puzzles. Compare the ratios; absolute times wander on a shared
machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from benchmark import measure, run_baseline, run_spec
from sat_overhead import interleaved, library_sat, raw_sat, raw_unique

from sudoku_csp import read_puzzles
from sudoku_csp.canon import Transformation
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle


def random_transform(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """``puzzle`` under a random map of the 9×9 Sudoku group (bands, rows within bands,
    stacks, columns within stacks, digits, transposition): the same puzzle up to symmetry,
    written differently."""
    def lines() -> tuple[int, ...]:
        groups = rng.sample(range(3), 3)
        return tuple(3 * g + i for g in groups for i in rng.sample(range(3), 3))

    digits = tuple(rng.sample(range(9), 9))
    return Transformation(rng.random() < 0.5, lines(), lines(), digits).apply(puzzle)


def library_rows(label: str, puzzles: list[Puzzle], specs: Sequence[str]) -> None:
    """Each spec through the library against Norvig, interleaved."""
    rows = measure(puzzles, [run_baseline] + [run_spec(s, 1, None) for s in specs])
    base = rows[0]["total_s"]
    for spec, row in zip(specs, rows[1:], strict=True):
        print(f"{spec + ', library, ' + label:58} {row['mean_ms']:8.3f} ms/puzzle "
              f"{base / row['total_s']:6.1f}x Norvig")


def sat_overhead(puzzles: list[Puzzle]) -> None:
    raw_s, lib_s = interleaved(puzzles, [raw_sat(puzzles), library_sat()], 25)
    print(f"{'sat, library vs raw PySAT (same formula, assumptions)':58} "
          f"{1000 * lib_s / len(puzzles):8.3f} ms/puzzle "
          f"{100 * raw_s / lib_s:6.0f}% of raw ({1000 * raw_s / len(puzzles):.3f} ms)")


def cli(args: Sequence[str]) -> float:
    """Wall seconds of ``sudoku-csp ARGS`` in a new process, output discarded."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sudoku_csp", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"sudoku-csp {' '.join(args)} exited {done.returncode}: "
                         f"{done.stderr.strip()}")
    return seconds


_SPIN = "x = 0\nfor i in range(10_000_000):\n    x += i"


def spin(copies: int) -> float:
    """Wall seconds of ``copies`` processes each running the same pure-Python loop at once:
    one copy against two is what this machine gives a second worker (a shared host may
    give the second core less than the first)."""
    began = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(copies)]
    for proc in procs:
        proc.wait()
    return time.perf_counter() - began


def write_lines(lines: Sequence[str], count: int, folder: str, name: str) -> str:
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        for line in itertools.islice(itertools.cycle(lines), count):
            handle.write(line + "\n")
    return path


def cycle_seconds(run: Callable[[Puzzle], object], puzzles: Sequence[Puzzle],
                  lines: int) -> float:
    """``run``'s seconds on ``lines`` lines cycling through ``puzzles``: each puzzle timed
    once, the times summed over the cycle."""
    clock, times = time.perf_counter, []
    for puzzle in puzzles:
        began = clock()
        run(puzzle)
        times.append(clock() - began)
    whole, rest = divmod(lines, len(times))
    return whole * sum(times) + sum(times[:rest])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seventeen", help="file of 17-clue puzzles")
    parser.add_argument("top95", nargs="?", help="file of hard puzzles (its line is left "
                                                 "out without it)")
    parser.add_argument("--max-puzzles", type=int, default=1000,
                        help="puzzles of each file for the library lines")
    parser.add_argument("--lines", type=int, default=50_000, help="lines for `solve`")
    parser.add_argument("--count-lines", type=int, default=50_000,
                        help="lines for `count -s sat --jobs 2`")
    parser.add_argument("--jobs-lines", type=int, default=10_000,
                        help="lines for the native --jobs line")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of process timings")
    args = parser.parse_args(argv)

    seventeen = list(itertools.islice(read_puzzles(args.seventeen), args.max_puzzles))
    print(f"{len(seventeen)} puzzles from {args.seventeen}; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f}")
    library_rows(os.path.basename(args.seventeen), seventeen, ["native"])
    if args.top95:
        top95 = list(itertools.islice(read_puzzles(args.top95), args.max_puzzles))
        library_rows(os.path.basename(args.top95), top95, ["native"])
    sat_overhead(seventeen)

    with tempfile.TemporaryDirectory() as folder:
        lines = [to_line(p) for p in seventeen]
        solve_file = write_lines(lines, args.lines, folder, "solve.txt")
        count_file = write_lines(lines, args.count_lines, folder, "count.txt")
        rng = random.Random(1)
        shuffled = [to_line(random_transform(p, rng))
                    for p in itertools.islice(itertools.cycle(seventeen), args.jobs_lines)]
        jobs_file = write_lines(shuffled, args.jobs_lines, folder, "jobs.txt")

        best: dict[str, float] = {}
        runs: dict[str, Callable[[], float]] = {
            "norvig": lambda: cycle_seconds(run_baseline, seventeen, args.lines),
            "raw_unique": lambda: cycle_seconds(raw_unique(seventeen), seventeen,
                                                args.count_lines),
            "startup": lambda: cli(["solve", lines[0], "-s", "sat"]),
            "native": lambda: cli(["solve", solve_file, "-s", "native"]),
            "sat": lambda: cli(["solve", solve_file, "-s", "sat"]),
            "count2": lambda: cli(["count", count_file, "-s", "sat", "--jobs", "2"]),
            "count1": lambda: cli(["count", count_file, "-s", "sat", "--jobs", "1"]),
            "native2": lambda: cli(["count", jobs_file, "-s", "native", "--jobs", "2"]),
            "native1": lambda: cli(["count", jobs_file, "-s", "native", "--jobs", "1"]),
            "spin1": lambda: spin(1),
            "spin2": lambda: spin(2),
        }
        for _ in range(args.rounds):
            for name, run in runs.items():
                seconds = run()
                best[name] = min(seconds, best.get(name, seconds))
        for spec in ("native", "sat"):
            print(f"{'sudoku-csp solve FILE -s ' + spec + f' ({args.lines} lines)':58} "
                  f"{1000 * best[spec] / args.lines:8.3f} ms/puzzle "
                  f"{best['norvig'] / best[spec]:6.1f}x Norvig "
                  f"(start-up {best['startup']:.2f} s)")
        print(f"{f'sudoku-csp count -s sat --jobs 2 ({args.count_lines} lines)':58} "
              f"{best['count2']:8.2f} s")
        print(f"{'  raw PySAT, the same two calls per puzzle, one core':58} "
              f"{best['raw_unique']:8.2f} s (two cores at best "
              f"{best['raw_unique'] / 2:.2f} s)")

    library_rows(os.path.basename(args.seventeen), seventeen[:300],
                 ["cpsat:model=alldiff", "cpsat:model=boolean"])
    print(f"{f'--jobs 2 vs 1, count -s native ({args.jobs_lines} lines)':58} "
          f"{best['native1'] / best['native2']:8.2f}x ({best['native2']:.2f} s vs "
          f"{best['native1']:.2f} s)")
    print(f"{f'--jobs 2 vs 1, count -s sat ({args.count_lines} lines)':58} "
          f"{best['count1'] / best['count2']:8.2f}x ({best['count2']:.2f} s vs "
          f"{best['count1']:.2f} s)")
    print(f"{'  the machine: two copies of a Python loop at once vs one':58} "
          f"{2 * best['spin1'] / best['spin2']:8.2f}x (the ceiling for --jobs 2)")


if __name__ == "__main__":
    main()
