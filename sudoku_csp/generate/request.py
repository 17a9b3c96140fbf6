"""What to make, in one object: a :class:`Request` checks itself, picks its generator, says in
words the options that reproduce it, and :func:`make` runs it.

Three generators answer requests: plain puzzles with givens
(:func:`~sudoku_csp.generate.plain.generate`, rated when a difficulty is asked), puzzles of
typed constraints read off a grid (:func:`~sudoku_csp.generate.kinds.generate_variants`) and
given-free killers
(:func:`~sudoku_csp.generate.killer.generate_killers`). Options that belong to another
generator than the one asked for are refused, never ignored. The command line builds a
request from its options and renders what :func:`make` yields; a library caller does the same.

>>> request = Request(count=2, size=4, seed=1)
>>> request.generator, " ".join(request.words())
('plain', '--count 2 --size 4 --symmetry none --seed 1')
>>> [p.clue_count > 0 for p in make(request)]
[True, True]
>>> Request(kinds=("killer",), minimal=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sudoku_csp.errors.InputError: generate --kind killer does not take --minimal: a killer has ...
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sudoku_csp.constraints import kind_named, makers
from sudoku_csp.constraints.kinds.cage import Cage
from sudoku_csp.errors import InputError
from sudoku_csp.generate.killer import (
    DEFAULT_KILLER_ATTEMPTS,
    DEFAULT_MERGES,
    DEFAULT_MIN_CAGE,
    generate_killers,
)
from sudoku_csp.generate.kinds import (
    DEFAULT_NEGATIVE,
    DEFAULT_VARIANT_ATTEMPTS,
    generate_variants,
    maker_names,
)
from sudoku_csp.generate.plain import generate
from sudoku_csp.generate.rated import Difficulty
from sudoku_csp.geometry import Geometry
from sudoku_csp.logic.techniques import highest_rating
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

__all__ = ["Request", "make"]


@dataclass(frozen=True)
class Request:
    """What to make: ``count`` puzzles of a ``size`` grid (``box``, ``variants``, jigsaw
    ``regions`` and ``contiguous`` as for :func:`~sudoku_csp.variants.make_geometry`),
    reproducibly from ``seed``, with at most ``attempts`` grids tried per puzzle (each
    generator's own default when None), and:

    - plain puzzles: ``symmetry``, ``minimal``, and a difficulty (``difficulty`` a tier,
      ``min_rating``, ``max_rating``, ``allow_search``: see
      :class:`~sudoku_csp.generate.rated.Difficulty`);
    - ``kinds``: typed constraints read off a grid (each a kind's name, alias or f-puzzles
      key, :func:`~sudoku_csp.constraints.kind_named`; several combine; ``negative`` for
      dots and marks, ``max_givens``; ``symmetry`` and ``minimal`` apply to the givens), or
      ``killer`` (or ``cage``) alone: given-free killers (``min_cage``,
      ``max_cage``, ``merges``).

    Values the generators check themselves (a count, a symmetry name) are checked when
    :func:`make` runs; everything else here, on creation, with the messages of the command
    line (:class:`~sudoku_csp.errors.InputError`): a geometry that cannot be, an unknown
    kind or difficulty, options that do not go with the generator asked for.
    ``generator`` (``plain``, ``kinds`` or ``killer``), ``geometry``, ``makers`` (the
    names of the kinds of ``kinds``, :func:`~sudoku_csp.constraints.makers`) and ``target``
    (the difficulty, or None) are derived.
    """

    count: int = 1
    size: int = 9
    box: tuple[int, int] | None = None
    variants: tuple[str, ...] = ()
    regions: str | Sequence[int] | None = None
    contiguous: bool = True
    seed: int = 0
    attempts: int | None = None
    symmetry: str = "none"
    minimal: bool = False
    difficulty: str | None = None
    min_rating: float | None = None
    max_rating: float | None = None
    allow_search: bool = False
    kinds: tuple[str, ...] = ()
    negative: bool | None = None
    max_givens: int | None = None
    min_cage: int | None = None
    max_cage: int | None = None
    merges: int | None = None
    generator: str = field(init=False)
    geometry: Geometry = field(init=False, repr=False, compare=False)
    makers: tuple[str, ...] = field(init=False)
    target: Difficulty | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # derived fields of a frozen dataclass
        set_(self, "variants", tuple(self.variants))
        set_(self, "kinds", tuple(self.kinds))
        set_(self, "geometry", make_geometry(self.size, self.box, self.variants, self.regions,
                                             contiguous=self.contiguous))
        # Killer cages have their own generator (given-free killers); the names a request
        # takes for them are the kind's own (cage, killer, killercage).
        asked = [kind_named(k, [Cage, *makers().values()], "kind to generate")
                 for k in self.kinds]
        cages = Cage in asked
        others = [k.names.name for k in asked if k is not Cage]
        if cages and others:
            raise InputError("--kind killer combines with no other kind: a killer keeps no "
                             "givens and reshapes its cages instead")
        set_(self, "makers", tuple(maker_names(others)) if others else ())
        set_(self, "target", None)
        if cages:
            refused = [name for name, given in (
                ("--minimal", self.minimal), ("--symmetry", self.symmetry != "none"),
                *self._rating_options(), *self._kind_options()) if given]
            if refused:
                raise InputError(f"generate --kind killer does not take {', '.join(refused)}: "
                                 "a killer has no givens to make minimal, symmetric or rated")
            set_(self, "generator", "killer")
            return
        _only_with(self._cage_options(), "--kind killer")
        if self.makers:
            if any(given for _, given in self._rating_options()):
                raise InputError("generate --kind does not take --difficulty, --min-rating, "
                                 "--max-rating or --allow-search: constrained puzzles are "
                                 "not rated yet")
            made = makers()
            if not any(made[name].negative_rule for name in self.makers):
                _only_with(self._kind_options()[:1], " or ".join(
                    f"--kind {name}" for name, kind in made.items() if kind.negative_rule))
            set_(self, "generator", "kinds")
            return
        _only_with(self._kind_options(), "--kind")
        if any(given for _, given in self._rating_options()):
            target = Difficulty(self.difficulty, self.min_rating, self.max_rating,
                                self.allow_search)
            top = highest_rating(self.geometry.size, self.geometry.ncells)
            if target.bounds()[0] > top and not self.allow_search:
                # No puzzle rates that high: the search would run every attempt for nothing.
                raise InputError(f"--min-rating {self.min_rating}: no {self.geometry.name} "
                                 f"puzzle rates above ER {top}, the highest any step can "
                                 "be rated (--allow-search asks for puzzles the techniques "
                                 "cannot finish)")
            set_(self, "target", target)
        set_(self, "generator", "plain")

    # -- which options are given -------------------------------------------------------------
    def _rating_options(self) -> list[tuple[str, bool]]:
        return [("--difficulty", self.difficulty is not None),
                ("--min-rating", self.min_rating is not None),
                ("--max-rating", self.max_rating is not None),
                ("--allow-search", self.allow_search)]

    def _kind_options(self) -> list[tuple[str, bool]]:
        return [("--negative" if self.negative else "--no-negative", self.negative is not None),
                ("--max-givens", self.max_givens is not None)]

    def _cage_options(self) -> list[tuple[str, bool]]:
        return [("--min-cage", self.min_cage is not None),
                ("--max-cage", self.max_cage is not None),
                ("--merges", self.merges is not None)]

    # -- in words --------------------------------------------------------------------------------
    def words(self) -> list[str]:
        """The command-line options that make the same puzzles (``sudoku-csp generate``
        and these), as a generated file's header repeats them: the defaults that say what
        was made are kept, the other defaults left out.

        >>> Request(kinds=("thermo",), size=6).words()
        ['--kind thermometer', '--count 1', '--size 6', '--symmetry none', '--seed 0']
        """
        common = [f"--count {self.count}", f"--size {self.size}",
                  *([f"--box {self.box[0]}x{self.box[1]}"] if self.box else []),
                  *(f"--variant {v}" for v in self.variants)]
        if self.generator == "killer":
            words = ["--kind killer", *common,
                     *(f"--{name} {value}" for name, value in (
                         ("min-cage", self.min_cage), ("max-cage", self.max_cage),
                         ("merges", self.merges)) if value is not None)]
        elif self.generator == "kinds":
            words = [*(f"--kind {name}" for name in self.makers), *common,
                     f"--symmetry {self.symmetry}", *(["--minimal"] if self.minimal else []),
                     *([self._kind_options()[0][0]] if self.negative is not None else []),
                     *([f"--max-givens {self.max_givens}"] if self.max_givens is not None
                       else [])]
        else:
            words = [*common, f"--symmetry {self.symmetry}",
                     *(["--minimal"] if self.minimal else []),
                     *([f"--difficulty {self.difficulty}"] if self.difficulty else []),
                     *([f"--min-rating {self.min_rating}"] if self.min_rating is not None
                       else []),
                     *([f"--max-rating {self.max_rating}"] if self.max_rating is not None
                       else []),
                     *(["--allow-search"] if self.allow_search else [])]
        return [*words, *([f"--attempts {self.attempts}"] if self.attempts else []),
                f"--seed {self.seed}"]


def make(request: Request) -> Iterator[Puzzle]:
    """The puzzles ``request`` asks for, one at a time, from the generator it picked (each
    puzzle re-checked by a second backend before it is yielded)."""
    r = request
    if r.generator == "killer":
        return generate_killers(
            r.geometry, count=r.count, seed=r.seed,
            min_cage=DEFAULT_MIN_CAGE if r.min_cage is None else r.min_cage,
            max_cage=r.max_cage, merges=DEFAULT_MERGES if r.merges is None else r.merges,
            attempts=DEFAULT_KILLER_ATTEMPTS if r.attempts is None else r.attempts)
    if r.generator == "kinds":
        return generate_variants(
            r.geometry, kinds=r.makers, count=r.count, seed=r.seed,
            negative=DEFAULT_NEGATIVE if r.negative is None else r.negative,
            symmetry=r.symmetry, minimal=r.minimal, max_givens=r.max_givens,
            attempts=DEFAULT_VARIANT_ATTEMPTS if r.attempts is None else r.attempts)
    return generate(r.geometry, count=r.count, seed=r.seed, symmetry=r.symmetry,
                    minimal=r.minimal, difficulty=r.target, attempts=r.attempts)


def _only_with(options: list[tuple[str, bool]], where: str) -> None:
    """One input error naming every option given (``True``) that needs ``where``."""
    asked = [name for name, given in options if given]
    if asked:
        raise InputError(f"{', '.join(asked)}: only with {where}")
