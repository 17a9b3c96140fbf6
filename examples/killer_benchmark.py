"""Time every backend and cage-sum encoding on killer (or any) puzzles, and check they agree.

    python examples/killer_benchmark.py PUZZLE_FILE [--solver SPEC ...] [--limit 2]
        [--time-limit 10] [--study | --no-study] [--first N]

Each puzzle is solved by every configuration in turn, the order rotating from puzzle to
puzzle so that the noise of a shared machine falls on all alike. Prints, per configuration:
puzzles per second, mean and max milliseconds, the mean as a ratio to the first row (the
baseline, by default the sat backend with its default ``sums=combos``, measured in the same
run), how many hit the time limit, and for the propagation-only rows (``search=off``) the
share of puzzles that propagation alone solves.

Default rows: ``sat`` with every cage-sum encoding (the choices of the cage's ``sums``
option), ``sat:mode=fresh``,
CP-SAT with both models and both presolve settings, CP-SAT with an LP relaxation
(``linearization_level`` 1 and 2: the backend's tuning sets 0; rows of their own with
``--study``, dropped by ``--no-study``), the native solver, and native and sat with
``search=off``. ``--first N`` times only the first N puzzles; progress goes to stderr.

Every definite verdict is cross-checked: the same status from every row, and for a unique
puzzle the same solution. The script says so and exits 1 on any disagreement; puzzles a row
left undecided within ``--time-limit`` are counted, not compared.
Geometry options: ``--size``, ``--box``, ``--variant``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_csp import Status, get_backend, read_puzzles  # noqa: E402
from sudoku_csp.backends.base import Backend  # noqa: E402
from sudoku_csp.backends.cpsat import CpSatBackend  # noqa: E402
from sudoku_csp.cli.options import geometry_options  # noqa: E402
from sudoku_csp.constraints import encoding_options  # noqa: E402

SUMS = encoding_options()["sums"]
DEFAULT_SPECS = ("sat", *(f"sat:sums={s}" for s in SUMS.choices if s != SUMS.default),
                 "sat:mode=fresh", "cpsat", "cpsat:presolve=off", "cpsat:model=boolean",
                 "cpsat:model=boolean,presolve=on", "native", "native:search=off",
                 "sat:search=off")
STUDY = {"cpsat+linearization=1": {"linearization_level": 1},
         "cpsat+linearization=2": {"linearization_level": 2}}
"""CP-SAT parameters the backend does not expose, tried through a subclass."""
DEFINITE = {Status.UNIQUE, Status.SOLVED, Status.MULTIPLE, Status.NONE}


class TunedCpSat(CpSatBackend):
    """The cpsat backend with some CP-SAT parameters overridden (a study, not an option)."""

    def __init__(self, extra: dict[str, Any], **options: Any) -> None:
        super().__init__(**options)
        self.extra = extra

    def parameters(self, **when: Any) -> dict[str, Any]:
        params = super().parameters(**when)
        params.update(self.extra)
        return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--solver", "-s", action="append", dest="specs")
    ap.add_argument("--limit", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--study", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--first", type=int)
    ap.add_argument("--size", type=int)
    ap.add_argument("--box")
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    options = geometry_options(args.size, args.box, args.variant, None, constraints=True)
    backends: dict[str, Backend] = {spec: get_backend(spec)
                                    for spec in args.specs or DEFAULT_SPECS}
    if args.study or (args.study is None and not args.specs):
        for label, extra in STUDY.items():
            backends[label] = TunedCpSat(extra)
    labels = list(backends)
    times: dict[str, list[float]] = {label: [] for label in labels}
    unknown = dict.fromkeys(labels, 0)
    propagated = dict.fromkeys(labels, 0)
    puzzles = list(read_puzzles(args.file, **options))[:args.first]
    for backend in backends.values():  # warm up: templates, loaded solvers
        backend.solve(puzzles[0], limit=args.limit, time_limit=args.time_limit)
    load = os.getloadavg()[0]
    disagreements = unchecked = 0
    for i, puzzle in enumerate(puzzles):
        order = labels[i % len(labels):] + labels[:i % len(labels)]
        verdicts: dict[str, tuple] = {}
        for label in order:
            start = time.perf_counter()
            result = backends[label].solve(puzzle, limit=args.limit,
                                           time_limit=args.time_limit)
            times[label].append(time.perf_counter() - start)
            if "search=off" in label:
                solved = bool(result.stats.get("solved_by_propagation"))
                propagated[label] += solved
                if solved:  # propagation's grid must be the others' solution
                    verdicts[label] = (Status.UNIQUE, result.solution)
            elif result.status in DEFINITE:
                verdicts[label] = (result.status, result.solution
                                   if result.status is Status.UNIQUE else None)
            else:
                unknown[label] += 1
        if (i + 1) % 10 == 0:
            print(f"{i + 1} puzzles done", file=sys.stderr, flush=True)
        if len(set(verdicts.values())) > 1:
            disagreements += 1
            print(f"DISAGREEMENT on puzzle {i + 1}: {verdicts}", file=sys.stderr)
        unchecked += len(verdicts) < 2  # nothing cross-checked this verdict
    killers = sum(bool(p.constraints) for p in puzzles)
    print(f"{args.file}: {len(puzzles)} puzzles ({killers} with constraints, "
          f"{sum(p.clue_count == 0 for p in puzzles)} without givens), limit {args.limit}, "
          f"time limit {args.time_limit:g} s; {os.cpu_count()} cores, load average "
          f"{load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end (shared machine)")
    base = sum(times[labels[0]]) / len(puzzles)
    print(f"{'configuration':<34} {'puzzles/s':>9} {'mean ms':>9} {'max ms':>9} "
          f"{'x ' + labels[0]:>9} {'unknown':>8} {'by prop':>8}")
    for label in labels:
        mean = sum(times[label]) / len(puzzles)
        prop = (f"{100 * propagated[label] / len(puzzles):7.1f}%" if "search=off" in label
                else f"{'':>8}")
        print(f"{label:<34} {1 / mean:9.1f} {1000 * mean:9.2f} "
              f"{1000 * max(times[label]):9.1f} {mean / base:9.2f} {unknown[label]:8d} {prop}")
    print("; ".join([f"{disagreements} puzzles with DISAGREEMENTS"] * bool(disagreements)
                    + [f"{unchecked} decided by fewer than two configurations"]
                    * bool(unchecked)) or "every verdict agreed")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
