"""Failed-literal probing on a loaded PySAT solver (:func:`probe`): what the encodings study
reports as the deductions of probing (:mod:`sudoku_csp.study`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pysat.solvers import Solver

__all__ = ["Probed", "probe"]


@dataclass(frozen=True)
class Probed:
    """What failed-literal probing derived: ``consistent`` is False when the assumptions
    (with what probing added) propagate to a conflict; ``literals`` is the root assignment
    (``propagate``'s answer under ``assumptions``, which include the negation of every
    literal in ``failed``); ``probes`` counts the ``propagate`` calls made."""

    consistent: bool
    literals: tuple[int, ...]
    assumptions: tuple[int, ...]
    failed: tuple[int, ...]
    probes: int


def probe(solver: Solver, assumptions: Sequence[int], variables: Sequence[int]) -> Probed:
    """Failed-literal probing under ``assumptions`` to a fixpoint: each literal of
    ``variables`` (both signs) that is not yet assigned is propagated on its own; one that
    propagates to a conflict is *failed*, so its negation holds and joins the assumptions.
    Passes repeat until one finds nothing. One loaded ``solver`` answers every probe (PySAT's
    ``propagate``), so no formula is built per probe; it must hold no learnt units (use a
    solver that only propagates, like :class:`Propagator`'s).

    A literal implied by a probe that succeeded cannot fail until the assumptions grow (unit
    propagation is monotone), so such literals are skipped: about half the probes.

    >>> with Solver(name="minisat22", bootstrap_with=[[-1, 2], [-1, -2], [1, 3]]) as s:
    ...     found = probe(s, [], [1, 2, 3])
    >>> found.failed, sorted(found.literals, key=abs)
    ((1,), [-1, 3])
    """
    base = list(assumptions)
    probes = 1
    ok, trail = solver.propagate(assumptions=base)
    failed: list[int] = []
    changed = ok
    while changed:
        changed = False
        assigned = set(trail)
        safe: set[int] = set()  # literals implied by a successful probe of this round
        for var in variables:
            for lit in (var, -var):
                if lit in assigned or -lit in assigned or lit in safe:
                    continue
                probes += 1
                fine, implied = solver.propagate(assumptions=[*base, lit])
                if fine:
                    safe.update(implied)
                    continue
                failed.append(lit)
                base.append(-lit)
                probes += 1
                ok, trail = solver.propagate(assumptions=base)
                if not ok:
                    return Probed(False, (), tuple(base), tuple(failed), probes)
                assigned = set(trail)
                safe.clear()  # larger assumptions: earlier successes prove nothing now
                changed = True
                break
    return Probed(ok, tuple(trail) if ok else (), tuple(base), tuple(failed), probes)
