"""Cross-checking: run several backend specs on one puzzle and compare what they claim.

Glossary:

- A *claim* is what one spec said about a puzzle: its status, how many (verified) solutions
  it returned and the first of them, or the error it raised. Each status claims a range for
  the true number of solutions: ``none`` 0, ``unique`` exactly 1, ``solved`` at least 1,
  ``multiple`` at least 2 (exactly the number found when counting all, ``limit=None``),
  ``unknown`` anything (a time limit is not a claim).
- The *evidence* is a lower bound on the true number of solutions: every solution a backend
  returns has already passed :func:`sudoku_csp.verify.is_solution`, so the distinct solutions
  returned across all specs, and the most any one spec returned, are facts.
- The claims are *consistent* when no spec failed and the claimed ranges, together with the
  evidence, still leave a possible number of solutions. The status is then the most specific
  one: two specs that solved (``limit=1``) but returned different grids prove ``multiple``.
  Anything else is a *disagreement*: a first-class result naming which spec said what.
- A spec *decided* when it gave a verdict (not ``unknown``, not an error). The specs *agree*
  only when their claims are consistent and at least two of them decided: a verdict one
  spec decided while the others ran out of time was checked by nothing (``decided`` says
  how many did; :func:`agreement` words it).

>>> from sudoku_csp import parse
>>> check = crosscheck(parse("1..." "..1." ".1.." "...1"),
...                    ["native", "native:rules=singles,branch=first"])
>>> check.status, check.decided, check.agreed
(<Verdict.MULTIPLE: 'multiple'>, 2, True)
"""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_csp.backends.base import Backend
from sudoku_csp.backends.registry import get_backend, names_a_solver
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import SpecError
from sudoku_csp.io import as_puzzle, format_line, to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status
from sudoku_csp.verify import WrongSolutionError

__all__ = [
    "DISAGREEMENT", "ERROR", "Claim", "CrossCheck", "Judgement", "Verdict", "agreement",
    "crosscheck", "judge", "resolve", "run_claims", "verdict_dict",
]


class Verdict(str, enum.Enum):
    """A status as records and cross-checks report it: a backend's :class:`Status`, or
    ``error`` (what a spec whose backend returned a wrong answer says) or ``disagreement``
    (the verdict on a puzzle whose specs contradict each other). Its values are the words
    records and JSON carry.

    >>> Verdict.of(Status.UNIQUE), Verdict.ERROR.status
    (<Verdict.UNIQUE: 'unique'>, None)
    """

    SOLVED = "solved"
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"
    ERROR = "error"
    DISAGREEMENT = "disagreement"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of(cls, status: Status) -> Verdict:
        """The verdict of a backend's status."""
        return _OF_STATUS[status]

    @property
    def status(self) -> Status | None:
        """The backend status this verdict is (None for ``error`` and ``disagreement``)."""
        return _STATUS_OF.get(self)


_OF_STATUS = {status: Verdict(status.value) for status in Status}
_STATUS_OF = {verdict: status for status, verdict in _OF_STATUS.items()}

DISAGREEMENT = Verdict.DISAGREEMENT
"""The verdict of a cross-check whose specs contradict each other (or one of them failed)."""

ERROR = Verdict.ERROR
"""The verdict shown for a spec whose backend raised :class:`WrongSolutionError`."""


@dataclass(frozen=True)
class Claim:
    """What one spec said about a puzzle, reduced to what the comparison needs.

    ``status`` is ``None`` when the backend raised (``error`` says what); ``found`` is the
    number of distinct verified solutions it returned, ``solution`` the first of them as a
    line (:func:`~sudoku_csp.puzzle.format_line`); ``exact`` marks a count of all solutions
    (``limit=None``) that ran to the end, which makes a ``multiple`` claim exact;
    ``complete`` is False when a time limit cut the search (see :class:`Result`).
    """

    status: Status | None
    found: int = 0
    solution: str | None = None
    error: str = ""
    seconds: float = 0.0
    exact: bool = False
    complete: bool = True

    @classmethod
    def of(cls, puzzle: Puzzle, result: Result, limit: int | None) -> Claim:
        """The claim made by ``result`` when ``limit`` solutions were asked for."""
        first = result.solution
        return cls(result.status, result.count,
                   None if first is None else format_line(puzzle.geometry, first),
                   seconds=result.seconds, exact=limit is None and result.complete,
                   complete=result.complete)

    @property
    def verdict(self) -> Verdict:
        """The status as a verdict, or ``error``."""
        return ERROR if self.status is None else Verdict.of(self.status)

    @property
    def decided(self) -> bool:
        """The spec gave a verdict: neither unknown (time limit) nor an error."""
        return self.status not in (None, Status.UNKNOWN)

    @property
    def bounds(self) -> tuple[int, float] | None:
        """The claimed (lowest, highest) number of solutions; ``None`` for an error."""
        s = self.status
        if s is None:
            return None
        if s is Status.NONE:
            return 0, 0
        if s is Status.UNIQUE:
            return 1, 1
        if s is Status.SOLVED:
            return 1, float("inf")
        if s is Status.MULTIPLE:
            return (self.found, self.found) if self.exact else (2, float("inf"))
        return 0, float("inf")  # UNKNOWN: no claim at all


@dataclass(frozen=True)
class Judgement:
    """The outcome of comparing claims: the ``status`` they leave (or ``"disagreement"``),
    for a disagreement one human-readable ``reasons`` line per contradiction found, and how
    many specs ``decided`` (gave a verdict)."""

    status: Verdict
    reasons: tuple[str, ...] = ()
    decided: int = 0

    @property
    def agreed(self) -> bool:
        """At least two specs decided, and no claim contradicts another."""
        return self.status is not DISAGREEMENT and self.decided >= 2


def agreement(status: Verdict, decided: int) -> str:
    """How far a cross-checked verdict goes, in words: ``agreed`` (two specs or more decided
    it), ``DISAGREEMENT``, or who decided it when fewer than two did (nothing checked it).

    >>> agreement(Verdict.UNIQUE, 3), agreement(Verdict.UNIQUE, 1), agreement(DISAGREEMENT, 2)
    ('agreed', 'decided by one backend', 'DISAGREEMENT')
    """
    if status is DISAGREEMENT:
        return "DISAGREEMENT"
    if decided >= 2:
        return "agreed"
    return "decided by one backend" if decided == 1 else "decided by no backend"


_ALONE = {s: Judgement(Verdict.of(s), (), 1)
          for s in (Status.UNIQUE, Status.SOLVED, Status.NONE)}


def _names(specs: Sequence[str]) -> str:
    return ", ".join(specs)


def judge(claims: Mapping[str, Claim]) -> Judgement:
    """Compare the claims of several specs on one puzzle (see the module docstring).

    Never raises on a contradiction: it is reported as ``Judgement(DISAGREEMENT, ...)``.

    >>> judge({"a": Claim(Status.UNIQUE, 1, "12"), "b": Claim(Status.NONE)}).reasons
    ('b says none, but a found a solution',)
    >>> j = judge({"a": Claim(Status.UNIQUE, 1, "12"), "b": Claim(Status.UNKNOWN)})
    >>> str(j.status), j.decided, j.agreed   # one spec decided: nothing checked it
    ('unique', 1, False)
    >>> judge({"a": Claim(Status.UNKNOWN, 1, "12"),
    ...        "b": Claim(Status.UNKNOWN, 1, "21")}).status.value
    'multiple'
    """
    if len(claims) == 1:
        # The common case of a batch run: one spec saying unique or solved with its one
        # solution, or none with nothing. The comparison below would return that status.
        (c,) = claims.values()
        found = c.status is not Status.NONE
        if c.status in _ALONE and c.found == found and (c.solution is not None) == found:
            return _ALONE[c.status]
    reasons = [f"{spec} failed: {c.error}" for spec, c in claims.items() if c.status is None]
    decided = {s: c for s, c in claims.items() if c.decided}
    n = len(decided)
    finders = [s for s, c in claims.items() if c.found]
    distinct = {c.solution for c in claims.values() if c.solution is not None}
    evidence = max([len(distinct)] + [c.found for c in claims.values()])
    # Claims refuted by the evidence: these name the spec that is provably wrong.
    for spec, c in decided.items():
        _, high = c.bounds  # type: ignore[misc]
        others = [s for s in finders if s != spec] or finders
        if evidence <= high:
            continue
        if high == 0:
            reasons.append(f"{spec} says none, but {_names(others)} found a solution")
        elif high == 1 and len(distinct) > 1:
            reasons.append(f"{spec} says unique, but {len(distinct)} different solutions "
                           f"were found ({_names(finders)})")
        elif high == 1:
            reasons.append(f"{spec} says unique, but {_names(others)} found {evidence} "
                           "solutions")
        else:
            reasons.append(f"{spec} counts {high:g} solutions, but {evidence} were found")
    low = max([evidence] + [c.bounds[0] for c in decided.values()])  # type: ignore[index]
    high = min([float("inf")] + [c.bounds[1] for c in decided.values()])  # type: ignore[index]
    if low > high and not reasons:
        # Contradictory claims with no solution to prove either side (a backend that
        # reported a status without the solutions behind it).
        groups: dict[str, list[str]] = {}
        for spec, c in decided.items():
            groups.setdefault(c.verdict, []).append(spec)
        reasons.append("specs disagree: " + "; ".join(
            f"{verdict} ({_names(specs)})" for verdict, specs in groups.items()))
    if reasons:
        return Judgement(DISAGREEMENT, tuple(reasons), n)
    if not decided:  # every spec ran out of time; what they found may still settle it
        return Judgement(Verdict.MULTIPLE if evidence >= 2 else Verdict.UNKNOWN)
    if high == 0:
        return Judgement(Verdict.NONE, (), n)
    if low >= 2:
        return Judgement(Verdict.MULTIPLE, (), n)
    if high == 1:
        return Judgement(Verdict.UNIQUE, (), n)
    return Judgement(Verdict.SOLVED, (), n)


def verdict_dict(puzzle: str, claims: Mapping[str, Claim], judgement: Judgement, *,
                 metadata: str = "", index: int | None = None) -> dict[str, Any]:
    """One puzzle's verdict as a JSON-ready dict: the one shape printed by ``sudoku-csp check
    --json``, whether the claims come from one cross-check (:meth:`CrossCheck.as_dict`) or
    from a batch run (:meth:`sudoku_csp.batch.Outcome.as_dict`).

    Keys, in this order: ``index`` (only when given: the puzzle's place in its input),
    ``puzzle`` (its line, which reads back as the very puzzle: see
    :func:`~sudoku_csp.io.to_line`), ``status`` (``judgement.status``), ``decided`` (how
    many specs gave a verdict), ``agreed`` (two or more did and nothing contradicts: see
    :attr:`Judgement.agreed`), ``specs`` (spec -> ``status``, ``seconds`` rounded to the
    microsecond, and ``error`` for a spec that failed), ``reasons`` (only for a
    disagreement, and always then) and ``metadata`` (only when not empty).

    >>> verdict_dict("12", {"a": Claim(Status.UNIQUE, 1, "12", seconds=0.25)},
    ...              Judgement(Verdict.UNIQUE, (), 1), index=3)  # doctest: +NORMALIZE_WHITESPACE
    {'index': 3, 'puzzle': '12', 'status': 'unique', 'decided': 1, 'agreed': False,
     'specs': {'a': {'status': 'unique', 'seconds': 0.25}}}
    >>> verdict_dict("12", {"a": Claim(None, error="wrong solution")},
    ...              judge({"a": Claim(None, error="wrong solution")}))["reasons"]
    ['a failed: wrong solution']
    """
    out: dict[str, Any] = {} if index is None else {"index": index}
    specs: dict[str, dict[str, Any]] = {}
    for spec, claim in claims.items():
        specs[spec] = {"status": claim.verdict.value, "seconds": round(claim.seconds, 6)}
        if claim.status is None:
            specs[spec]["error"] = claim.error
    out.update(puzzle=puzzle, status=judgement.status.value, decided=judgement.decided,
               agreed=judgement.agreed, specs=specs)
    if judgement.status is DISAGREEMENT:
        out["reasons"] = list(judgement.reasons)
    if metadata:
        out["metadata"] = metadata
    return out


@dataclass(frozen=True)
class CrossCheck:
    """Several specs on one puzzle, compared. Frozen; treat the mappings as read-only.

    - ``status``: the status the claims leave (``unique``, ``multiple``, ``none``,
      ``solved`` when only ``limit=1`` was asked, ``unknown`` when no spec decided — unless
      the solutions found before the time limit already differ: ``multiple``), or
      ``"disagreement"``; ``decided``: how many specs gave a verdict, ``agreed``: two or
      more did and nothing contradicts.
    - ``results``: spec -> :class:`Result`, for every spec run here that returned.
    - ``claims``: spec -> :class:`Claim` for every spec compared, including those that
      raised and any ``known`` claims passed in (in the order given).
    - ``reasons``: for a disagreement, one line per contradiction.

    Specs are keyed by their canonical spec string (``backend.spec``).
    """

    puzzle: Puzzle
    limit: int | None
    status: Verdict
    claims: dict[str, Claim]
    results: dict[str, Result] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()

    @property
    def decided(self) -> int:
        """How many specs gave a verdict (neither unknown nor an error)."""
        return sum(c.decided for c in self.claims.values())

    @property
    def judgement(self) -> Judgement:
        return Judgement(self.status, self.reasons, self.decided)

    @property
    def agreed(self) -> bool:
        """At least two specs decided, none failed, and no claim contradicts another
        (UNKNOWN contradicts nothing, and checks nothing)."""
        return self.judgement.agreed

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(self.claims)

    @property
    def verdicts(self) -> dict[str, Verdict]:
        """spec -> its own verdict (``error`` for a spec that failed)."""
        return {spec: c.verdict for spec, c in self.claims.items()}

    @property
    def errors(self) -> dict[str, str]:
        """spec -> the error message of each spec whose backend raised."""
        return {spec: c.error for spec, c in self.claims.items() if c.status is None}

    @property
    def undecided(self) -> tuple[str, ...]:
        """Specs that answered UNKNOWN (time limit, or propagation alone could not decide)."""
        return tuple(s for s, c in self.claims.items() if c.status is Status.UNKNOWN)

    @property
    def solution(self) -> str | None:
        """The agreed solution (as a line) when the status is ``unique``, else ``None``."""
        if self.status is not Verdict.UNIQUE:
            return None
        return next((c.solution for c in self.claims.values() if c.solution), None)

    def explain(self) -> str:
        """A few lines for people: the verdict, the reasons, then each spec's own answer."""
        head = agreement(self.status, self.decided)
        if self.status is not DISAGREEMENT:
            head += f": {self.status}"
            if self.undecided:
                head += f" (undecided: {_names(self.undecided)})"
        lines = [f"{head} · {to_line(self.puzzle)}"]
        lines += [f"  ! {reason}" for reason in self.reasons]
        width = max((len(s) for s in self.claims), default=0)
        for spec, claim in self.claims.items():
            result = self.results.get(spec)
            note = claim.error or (result.message if result else "")
            line = f"  {spec:<{width}}  {claim.verdict:<8} {1000 * claim.seconds:9.2f} ms"
            lines.append(line + (f"  {note}" if note else ""))
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the puzzle line, the agreed status, and each spec's status and seconds
        (see :func:`verdict_dict`).

        >>> from sudoku_csp import parse
        >>> crosscheck(parse("3.1...4.2......."), ["native"]).as_dict()["status"]
        'unique'
        """
        return verdict_dict(to_line(self.puzzle), self.claims,
                            self.judgement, metadata=self.puzzle.metadata)


def resolve(specs: Sequence[str | Backend]) -> dict[str, Backend]:
    """Canonical spec -> backend for spec strings (via the registry, cached per process)
    and ready-made backends. Raises :class:`SpecError` for an unknown spec, and for two
    specs naming the same configuration (``native`` and ``native:rules=locked``)."""
    if not specs:
        raise SpecError("no solver spec given")
    backends: dict[str, Backend] = {}
    for spec in specs:
        backend = get_backend(spec) if isinstance(spec, str) else spec
        if backend.spec in backends:
            raise SpecError(f"{spec!r} names the same solver as an earlier spec "
                            f"({backend.spec})")
        backends[backend.spec] = backend
    # A race's verdict is one of its members': beside one of them, or another race that
    # shares one, the same claim would be counted as two agreeing specs. (A race alone is
    # not made to build its members here: they live in processes of their own.)
    seen: dict[str, str] = {}
    for spec, backend in backends.items() if len(backends) > 1 else ():
        for member in [spec, *(get_backend(m).spec for m in getattr(backend, "members", ()))]:
            if member in seen and seen[member] != spec:
                raise SpecError(f"{seen[member]} and {spec} both run {member}: a cross-check "
                                "would count its verdict twice")
            seen[member] = spec
    return backends


def run_claims(puzzle: Puzzle, backends: Mapping[str, Backend], *, limit: int | None,
               time_limit: Limit, concurrent: bool = False,
               ) -> tuple[dict[str, Claim], dict[str, Result]]:
    """Run each backend once on ``puzzle``; a :class:`WrongSolutionError` becomes that
    spec's failed claim instead of propagating. Any other exception propagates.
    ``time_limit``: seconds for each backend, or one :class:`~sudoku_csp.deadline.Deadline`
    they all share; without a limit, each backend's own
    :meth:`~sudoku_csp.backends.base.BackendBase.crosscheck_seconds`.

    ``concurrent``: the specs run at the same time, each in a process of its own (the
    members of a :class:`~sudoku_csp.backends.race.RaceBackend`, kept for the puzzles
    after), every one to its own end: still a cross-check, in the time of the slowest spec
    rather than the sum. Specs that are not solvers of the registry (a portfolio, a backend
    object made by hand) run here, one after another."""
    claims: dict[str, Claim] = {}
    results: dict[str, Result] = {}
    seconds = {spec: _crosscheck_seconds(backend, puzzle, time_limit)
               for spec, backend in backends.items()}
    together = [spec for spec in backends if concurrent and names_a_solver(spec)]
    if len(together) > 1:
        from sudoku_csp.backends.race import RaceBackend

        pool = get_backend("race:" + ",".join(together))
        assert isinstance(pool, RaceBackend)
        answers = pool.solve_each(puzzle, limit=limit,
                                  time_limits=[seconds[spec] for spec in together])
        for spec, answer in zip(together, answers, strict=True):
            if isinstance(answer, WrongSolutionError):
                claims[spec] = Claim(None, error=str(answer) or type(answer).__name__,
                                     exact=limit is None)
            elif isinstance(answer, Exception):
                raise answer
            else:
                results[spec], claims[spec] = answer, Claim.of(puzzle, answer, limit)
    for spec, backend in backends.items():
        if spec in claims:
            continue
        start = time.perf_counter()
        try:
            result = backend.solve(puzzle, limit=limit, time_limit=seconds[spec])
        except WrongSolutionError as exc:
            claims[spec] = Claim(None, error=str(exc) or type(exc).__name__,
                                 seconds=time.perf_counter() - start, exact=limit is None)
            continue
        results[spec] = result
        claims[spec] = Claim.of(puzzle, result, limit)
    return {spec: claims[spec] for spec in backends}, results


def _crosscheck_seconds(backend: Backend, puzzle: Puzzle, time_limit: Limit) -> Limit:
    """The time limit ``backend`` runs under in a cross-check: ``time_limit``, or when it
    sets none its own :meth:`~sudoku_csp.backends.base.BackendBase.crosscheck_seconds`."""
    own = getattr(backend, "crosscheck_seconds", None)  # a Backend need not have one
    if own is None or Deadline.of(time_limit).limited:
        return time_limit
    return own(puzzle)


def crosscheck(
    puzzle: Puzzle | str,
    specs: Sequence[str | Backend],
    *,
    limit: int | None = 2,
    time_limit: Limit = None,
    known: Mapping[str, Claim] | None = None,
    concurrent: bool = False,
) -> CrossCheck:
    """Run every spec on ``puzzle`` (a :class:`Puzzle` or its text) with the same ``limit``
    and ``time_limit`` (seconds: each spec gets all of them; a
    :class:`~sudoku_csp.deadline.Deadline`: the specs share it) and compare their claims.

    ``specs`` are spec strings (``"native:rules=singles"``) or backend objects. ``known``
    adds claims made earlier by other specs (say, read back from a results file); they are
    compared but not run again. A backend raising :class:`WrongSolutionError` is reported
    as that spec's error and a disagreement; SpecError (bad spec) and any other exception
    propagate. ``concurrent``: the specs run at the same time, each in a process of its
    own, every one to its own end (see :func:`run_claims`).

    >>> from sudoku_csp import parse
    >>> c = crosscheck(parse("3.1...4.2......."), ["native", "native:rules=full"])
    >>> str(c.status), c.solution
    ('unique', '3412124321344321')
    """
    puzzle = as_puzzle(puzzle)
    backends = resolve(specs)
    claims, results = run_claims(puzzle, backends, limit=limit, time_limit=time_limit,
                                 concurrent=concurrent)
    if known:
        claims = {**{s: c for s, c in known.items() if s not in claims}, **claims}
    judgement = judge(claims)
    return CrossCheck(puzzle, limit, judgement.status, claims, results, judgement.reasons)
