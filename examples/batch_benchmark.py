"""Throughput of the batch runner: puzzles/s with ``jobs=1`` against ``jobs=N`` processes.

    python examples/batch_benchmark.py PUZZLES.txt [--repeat K] [--jobs 2] [--solver SPEC ...]

Each run goes through :func:`sudoku_csp.batch.run_batch` end to end, timed by the wall
clock: reading and parsing the file, starting the worker processes, building the solvers in
each worker, solving with ``limit`` (2: decide uniqueness), and collecting the records in
input order. ``--repeat K`` runs the file K times over (the file is streamed again each
time, never held in memory) so that start-up and solver construction are amortised.
Runs alternate (1, N, 1, N, ...) for ``--rounds`` rounds, so a noisy shared machine slows
both alike; the best and the median round are printed. The records of every run are
checked to be the same, timings aside. On Linux the CPU time of all processes (this one,
the forkserver and the workers, from /proc) is printed too: on a shared, busy machine it
shows the parallel overhead, which the wall clock hides behind the neighbours' load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Iterator

from sudoku_csp.batch import CHUNKSIZE, run_batch
from sudoku_csp.io import PuzzleText, puzzle_texts
from sudoku_csp.puzzle import Puzzle


def repeated(path: str, times: int) -> Iterator[Puzzle | PuzzleText]:
    """The puzzles of ``path``, ``times`` times over, streamed."""
    for _ in range(times):
        yield from puzzle_texts([path])


def children_cpu() -> float | None:
    """CPU seconds used so far by this process's children: those it has reaped (forked pool
    workers, once joined), and those still alive with the children they have reaped (a
    forkserver, whose workers' time shows up in its ``cutime``). Linux /proc; else None."""
    if not os.path.isdir("/proc"):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    me = str(os.getpid())
    reaped = os.times()
    total = round((reaped.children_user + reaped.children_system) * tick)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # from field 3 (state) on
        if fields[1] == me:  # field 4: parent pid
            total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return total / tick


def timed_run(path: str, repeat: int, specs: list[str], jobs: int, limit: int,
              chunksize: int | None) -> tuple[float, float | None, int, list[tuple]]:
    """(wall seconds, CPU seconds of all processes, records, a fingerprint of the outcomes)
    of one full batch run."""
    before = children_cpu()
    start, cpu = time.perf_counter(), time.process_time()
    outcomes = [(r.index, r.spec, r.status, r.verdict, r.solution)
                for outcome in run_batch(repeated(path, repeat), specs, limit=limit, jobs=jobs,
                                         chunksize=chunksize)
                for r in outcome.records]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    time.sleep(0.1)  # let the forkserver reap the workers that just exited
    after = children_cpu()
    total = None if before is None or after is None else cpu + after - before
    return wall, total, len(outcomes), outcomes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="puzzle file, one puzzle per line")
    parser.add_argument("--repeat", type=int, default=1, help="run the file K times over")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes to compare "
                        "with jobs=1 (default 2)")
    parser.add_argument("--solver", action="append", dest="specs",
                        help="backend spec, repeatable (default: native)")
    parser.add_argument("--limit", type=int, default=2, help="solutions to look for")
    parser.add_argument("--chunksize", type=int, default=None,
                        help=f"puzzles per task for the workers (default {CHUNKSIZE})")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    args = parser.parse_args(argv)
    specs = args.specs or ["native"]

    print(f"file: {args.file} x{args.repeat}; specs: {', '.join(specs)}; limit {args.limit}; "
          f"cpus: {os.cpu_count()}; load average: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    runs: dict[int, list[float]] = {1: [], args.jobs: []}
    cpus: dict[int, list[float]] = {1: [], args.jobs: []}
    reference = None
    count = 0
    for _ in range(args.rounds):
        for jobs in runs:
            seconds, cpu, count, outcomes = timed_run(args.file, args.repeat, specs, jobs,
                                                      args.limit, args.chunksize)
            if reference is None:
                reference = outcomes
            elif outcomes != reference:
                raise SystemExit(f"jobs={jobs} gave different records than the first run")
            runs[jobs].append(seconds)
            if cpu is not None:
                cpus[jobs].append(cpu)
            print(f"  jobs={jobs}: {seconds:7.3f} s wall" +
                  (f", {cpu:7.3f} s CPU in all processes" if cpu is not None else ""))
    puzzles = count // len(specs)
    print(f"{puzzles} puzzles x {len(specs)} spec(s) = {count} records; same records in "
          "every run")
    base_best, base_median = min(runs[1]), statistics.median(runs[1])
    for jobs, times in runs.items():
        best, median = min(times), statistics.median(times)
        print(f"jobs={jobs}: best {puzzles / best:9,.0f} puzzles/s   median "
              f"{puzzles / median:9,.0f} puzzles/s   speed-up best {base_best / best:.2f}x "
              f"median {base_median / median:.2f}x")
    if cpus[1] and cpus[args.jobs]:
        # On a machine shared with other work, wall-clock speed-up says as much about the
        # neighbours as about us; CPU per puzzle does not. With every core free, jobs=N
        # can reach about N x (CPU of jobs=1 / CPU of jobs=N), less start-up and the tail.
        one, many = statistics.median(cpus[1]), statistics.median(cpus[args.jobs])
        print(f"CPU per puzzle (median): jobs=1 {1000 * one / puzzles:.3f} ms, "
              f"jobs={args.jobs} {1000 * many / puzzles:.3f} ms (all processes); "
              f"parallel overhead {100 * (many / one - 1):+.1f}%; "
              f"speed-up bound on an idle machine ~{args.jobs * one / many:.2f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":  # required: worker processes re-import this script's module
    main()
