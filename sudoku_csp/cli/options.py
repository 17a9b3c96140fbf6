"""The options the commands share, and turning them into library arguments.

Options that go together are one value, a *bundle*: :class:`Reading` (how puzzles are
read: size, box, variants, regions, f-puzzles keys), :class:`BatchOptions` (how files are
run: jobs, a cluster, an output file to resume) and :class:`Printing` (records as JSON or
CSV). A command declares one parameter of the bundle's type and :func:`bundled` lists the
bundle's options in its place, so every command offers them alike, declared once here.

Every list of choices and every default in a help text is read from the library's own table
(:data:`~sudoku_csp.variants.VARIANTS`, :data:`~sudoku_csp.native.PRESETS`, ...), so the help
cannot drift from what the library accepts. Values are checked by the library, so a bad one
is an input error (exit 6) with the library's own message.

Only the tables these help texts need are imported here; the batch runner and the readers
are imported by the functions that use them (see :mod:`sudoku_csp.cli.app`). Options of one
module's commands live in that module, with the tables they read
(:class:`~sudoku_csp.encodings.cnf.Encoding` and :data:`~sudoku_csp.certify.PROOF_SOLVERS`
in :mod:`~sudoku_csp.cli.research`, :data:`~sudoku_csp.symmetry.SYMMETRIES` in
:mod:`~sudoku_csp.cli.generating`), so that the other commands start without them.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import os
import typing
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar

import typer

from sudoku_csp.errors import InputError
from sudoku_csp.geometry import GeometryError, parse_box
from sudoku_csp.native import BRANCHING, DEFAULT_BRANCH, DEFAULT_RULES, PRESETS, RULES
from sudoku_csp.variants import VARIANTS, load_regions

if TYPE_CHECKING:
    from sudoku_csp.batch import Outcome, RecordFormat
    from sudoku_csp.batch.runner import Spec
    from sudoku_csp.io import Source


def listed(names: Any) -> str:
    """Choices as a help text lists them: ``a, b, c``."""
    return ", ".join(map(str, names))


def completes(names: Iterable[Any]) -> Callable[[str], list[str]]:
    """Shell completion for an option of fixed values (``autocompletion=``): the names that
    start with what was typed. The values themselves are checked by the library, whose
    message lists them (exit 6), and every such option's help lists them too."""
    values = [str(name) for name in names]
    return lambda incomplete: [v for v in values if v.startswith(incomplete)]


SourceArg = Annotated[str, typer.Argument(
    metavar="PUZZLE|FILE|-",
    help="A puzzle (one line, or a grid in quotes; a killer line 'CAGEMAP SUMS [GIVENS]'; "
         "a JSON object), a file of puzzles one per line (.txt, .jsonl), or - for standard "
         "input.")]
ONE_PUZZLE_HELP = ("A puzzle (one line, or a grid in quotes; a killer line 'CAGEMAP SUMS "
                   "[GIVENS]'; a JSON object; an f-puzzles or SudokuPad link), or a file (- "
                   "for standard input) whose first puzzle is taken: a note on stderr names "
                   "its line when more puzzles follow.")
OnePuzzleArg = Annotated[str, typer.Argument(metavar="PUZZLE|FILE|-", help=ONE_PUZZLE_HELP)]
"""The argument of a command about one puzzle (show, explain, hint, candidates, ...)."""
SizeOpt = Annotated[int | None, typer.Option(
    "--size", "-n", help="Grid size N (default: inferred from the number of cells).")]
BoxOpt = Annotated[str | None, typer.Option(
    "--box", help="Box shape ROWSxCOLS, e.g. 2x3 for 6x6 (default: as square as possible).")]
VariantOpt = Annotated[list[str] | None, typer.Option(
    "--variant", "-v", autocompletion=completes(VARIANTS),
    help=f"Extra rule, repeatable: {listed(VARIANTS)}.")]
RegionsOpt = Annotated[str | None, typer.Option(
    "--regions", help="Jigsaw region map: N*N region symbols, or a file holding them.")]
SplitRegionsOpt = Annotated[bool, typer.Option(
    "--split-regions", help="Allow jigsaw regions in pieces (by default each region's cells "
                            "must be joined through orthogonal neighbours).")]
IgnoreOpt = Annotated[list[str] | None, typer.Option(
    "--ignore", metavar="KEY", help="f-puzzles: leave out this key although it is no rule "
                                    "this tool knows (repeatable; by default it is refused).")]
TreatLineOpt = Annotated[list[str] | None, typer.Option(
    "--treat-line", metavar="COLOUR=KIND", help="f-puzzles: read decoration lines of this "
    "colour as this line kind, by its name or f-puzzles key (see `sudoku-csp kinds`), e.g. "
    "'#FFCCAA=entropic-line' (repeatable).")]
SolverOpt = Annotated[str, typer.Option(
    "--solver", "-s", help="Backend spec, e.g. native, sat, native:rules=singles,branch=first "
                            "(see `sudoku-csp solvers`). Default auto: native bounded to a "
                            "few search nodes, then sat, to solve or decide uniqueness; "
                            "native to enumerate more solutions, or with --rules/--branch.")]
SpecsOpt = Annotated[list[str] | None, typer.Option(
    "--solver", "-s", help="Backend spec, repeatable (see `sudoku-csp solvers`).")]
RulesOpt = Annotated[str | None, typer.Option(
    "--rules", autocompletion=completes([*PRESETS, *RULES]),
    help=f"Native rules: a preset ({listed(PRESETS)}; default {DEFAULT_RULES}), "
                    f"or rule names joined by + ({listed(RULES)}).")]
BranchOpt = Annotated[str | None, typer.Option(
    "--branch", autocompletion=completes(BRANCHING),
    help=f"Native branching: {listed(BRANCHING)} (default {DEFAULT_BRANCH}).")]
TimeOpt = Annotated[float | None, typer.Option(
    "--time-limit", "-t", min=0.0, help="Seconds per puzzle; past it the verdict is unknown.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON Lines, one per puzzle.")]
CsvOpt = Annotated[bool, typer.Option(
    "--csv", help="Print CSV: a header, then one row per record (the columns of --out "
                  "FILE.csv).")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=1, help="Worker processes for files (each builds its solvers once); "
                                "never more than one per 32 puzzles, nor two per core.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Run on a Dask cluster (extra 'cluster'), e.g. tcp://host:8786.")]
OutOpt = Annotated[str | None, typer.Option(
    "--out", "-o", help="Also write every record to this .jsonl or .csv file as it finishes.")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="Skip the (puzzle, solver) pairs already in the --out file.")]


def output_format(as_json: bool, as_csv: bool) -> RecordFormat | None:
    """The machine-readable output asked for (``--json``, ``--csv``), ``None`` for text;
    both at once is a usage error (exit 2).

    >>> output_format(False, True)
    'csv'
    """
    if as_json and as_csv:
        raise typer.BadParameter("give one of --json and --csv, not both",
                                 param_hint="'--json' / '--csv'")
    return "jsonl" if as_json else "csv" if as_csv else None


def geometry_options(size: int | None, box: str | None, variants: list[str] | None,
                     regions: str | None, split_regions: bool = False,
                     ignore: list[str] | None = None, treat_line: list[str] | None = None, *,
                     constraints: bool = False) -> dict[str, Any]:
    """The geometry keywords of :func:`~sudoku_csp.puzzle.parse` from the shared options
    (``--regions`` may name a file holding the map; ``--split-regions`` allows regions in
    pieces). ``constraints`` says the command handles typed constraints (killer cages,
    thermometers, dots): without it a puzzle that has some is refused with one input
    error (exit 6), never solved as if they were not there.

    >>> geometry_options(4, None, None, "abab abab cdcd cdcd", split_regions=True)["contiguous"]
    False
    """
    options: dict[str, Any] = {"size": size, "variants": variants or (),
                               "constraints": constraints}
    if split_regions:
        options["contiguous"] = False
    if box:
        try:
            options["box"] = parse_box(box)
        except GeometryError as exc:
            raise InputError(f"--{exc}") from None
    if regions is not None:
        options["regions"] = load_regions(regions)  # a map, or the file holding one
    if ignore:
        options["ignore"] = tuple(ignore)
    if treat_line:
        pairs = {}
        for item in treat_line:
            colour, sep, kind = item.partition("=")
            if not sep or not colour.strip() or not kind.strip():
                raise InputError(f"--treat-line {item!r}: expected COLOUR=KIND, such as "
                                 "'#FFCCAA=entropic-line'")
            pairs[colour.strip()] = kind.strip()
        options["treat_line"] = pairs
    return options


Command = TypeVar("Command", bound=Callable[..., None])


def bundled(command: Command) -> Command:
    """``command`` as typer reads it, with its bundles spelled out: in place of each
    parameter whose type is a bundle (a dataclass whose fields are typer options, such as
    :class:`Reading`), the bundle's fields, one option each; the command is called with one
    value of the bundle made of them. ``--help`` shows them in the bundle's panel
    (``PANEL``), unless an option names its own. A parameter the command declares itself
    under a field's name stands for that field (its own option and default, e.g.
    generate's ``--size``, 9 by default); the bundle carries its value too.

    Typer makes a command's options from its signature and has no bundles of its own (its
    issue 264), hence this signature. Below ``@app.command()``; a bundle has no default,
    so it and the options stand after ``*`` (by name), the arguments before::

        @app.command()
        @bundled
        def solve(source: SourceArg, *, reading: Reading, batch: BatchOptions) -> None:
            options = reading.options(constraints=True)
    """
    hints = typing.get_type_hints(command, include_extras=True)
    own = inspect.signature(command).parameters
    params: list[inspect.Parameter] = []
    bundles: dict[str, tuple[type, list[str]]] = {}
    for param in own.values():
        hint = hints.get(param.name, param.annotation)
        if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
            params.append(param.replace(annotation=hint, kind=param.KEYWORD_ONLY))
            continue
        fields = dataclasses.fields(hint)
        bundles[param.name] = (hint, [field.name for field in fields])
        options = typing.get_type_hints(hint, include_extras=True)
        params += [inspect.Parameter(
            field.name, param.KEYWORD_ONLY,
            annotation=_in_panel(options[field.name], getattr(hint, "PANEL", None)),
            default=param.empty if field.default is dataclasses.MISSING else field.default)
            for field in fields if field.name not in own]
    spelled = {name for _, names in bundles.values() for name in names} - set(own)

    @functools.wraps(command)
    def run(**values: Any) -> None:
        made = {name: kind(**{field: values[field] for field in names})
                for name, (kind, names) in bundles.items()}
        command(**{k: v for k, v in values.items() if k not in spelled}, **made)

    # All by name, as typer passes them: a field with a default may then stand before a
    # parameter without one.
    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {param.name: param.annotation for param in params}
    return typing.cast(Command, run)


def _in_panel(option: Any, panel: str | None) -> Any:
    """``option`` (``Annotated[type, typer.Option(...)]``) shown in ``panel`` of ``--help``
    unless it names its own."""
    base, *infos = typing.get_args(option)
    if panel is None or not infos or getattr(infos[0], "rich_help_panel", panel) is not None:
        return option
    info = copy.copy(infos[0])
    info.rich_help_panel = panel
    shown = (base, info, *infos[1:])
    return Annotated[shown]


@dataclass(frozen=True)
class GridRules:
    """The grid a puzzle stands on when its text does not say it: size, box, extra rules
    and jigsaw regions. What generate takes; every command that reads puzzles takes it
    inside :class:`Reading` (see :func:`bundled`).

    >>> GridRules(size=4, regions="abab abab cdcd cdcd", split_regions=True).options()["size"]
    4
    """

    PANEL: ClassVar[str] = "Grid and rules"

    size: SizeOpt = None
    box: BoxOpt = None
    variant: VariantOpt = None
    regions: RegionsOpt = None
    split_regions: SplitRegionsOpt = False

    def options(self, *, constraints: bool = False) -> dict[str, Any]:
        """The keywords of :func:`~sudoku_csp.puzzle.parse` (see :func:`geometry_options`,
        which says what ``constraints`` does): an input error (exit 6) for a value the
        library refuses."""
        return geometry_options(self.size, self.box, self.variant, self.regions,
                                self.split_regions, None, None, constraints=constraints)


@dataclass(frozen=True)
class Reading(GridRules):
    """How a command reads puzzles: the :class:`GridRules`, and what an f-puzzles or
    SudokuPad puzzle may hold that this tool does not read (``--ignore``, ``--treat-line``).
    The options every command about puzzles takes (see :func:`bundled`).

    >>> Reading(size=4, regions="abab abab cdcd cdcd", split_regions=True).options()["size"]
    4
    """

    ignore: IgnoreOpt = None
    treat_line: TreatLineOpt = None

    def options(self, *, constraints: bool = False) -> dict[str, Any]:
        return geometry_options(self.size, self.box, self.variant, self.regions,
                                self.split_regions, self.ignore, self.treat_line,
                                constraints=constraints)


@dataclass(frozen=True)
class Printing:
    """Records printed as JSON Lines (``--json``) or CSV (``--csv``) rather than text; both
    at once is a usage error (exit 2), raised when made.

    >>> Printing(as_csv=True).format
    'csv'
    """

    as_json: JsonOpt = False
    as_csv: CsvOpt = False

    def __post_init__(self) -> None:
        output_format(self.as_json, self.as_csv)

    @property
    def format(self) -> RecordFormat | None:
        """What :func:`output_format` says: ``jsonl``, ``csv``, or ``None`` for text."""
        return output_format(self.as_json, self.as_csv)


def solver_spec(solver: str, rules: str | None, branch: str | None) -> str:
    """``solver`` with the ``--rules`` / ``--branch`` shortcuts folded in (native only): they
    name choices of the native solver, so beside the default ``auto`` they ask for the
    native solver, unbounded.

    >>> solver_spec("auto", "singles", None), solver_spec("auto", None, None)
    ('native:rules=singles', 'auto')
    """
    extra = {k: v for k, v in (("rules", rules), ("branch", branch)) if v}
    if not extra:
        return solver
    from sudoku_csp.backends.registry import parse_spec

    name, options = parse_spec(solver)
    if name == "auto" and not options:
        name = "native"
    if name != "native":
        raise InputError(f"--rules and --branch apply to the native solver, not {name!r}")
    options.update(extra)
    return "native:" + ",".join(f"{k}={v}" for k, v in options.items())


@dataclass(frozen=True)
class BatchOptions:
    """How file inputs are run: processes, a Dask cluster, an output file to resume.

    Checked when made, before any work: options that contradict each other or lack their
    partner are usage errors (exit 2, as typer's own). The output file's path is checked
    by :func:`outcomes`, inside the command's error handling: one that cannot be a file is
    an input error (exit 6)."""

    PANEL: ClassVar[str] = "Batch runs"

    jobs: JobsOpt = 1
    scheduler: SchedulerOpt = None
    out: OutOpt = None
    resume: ResumeOpt = False

    def __post_init__(self) -> None:
        if self.scheduler is not None and self.jobs != 1:
            raise typer.BadParameter("give --jobs (processes here) or --scheduler (a Dask "
                                     "cluster), not both", param_hint="'--jobs'")
        if self.resume and not self.out:
            raise typer.BadParameter("--resume needs --out FILE (the records to resume "
                                     "from)", param_hint="'--resume'")
        if self.out == "-":  # never a file named '-'; the records have their own options
            raise typer.BadParameter("records go to standard output with --json or --csv; "
                                     "--out takes a .jsonl or .csv file", param_hint="'--out'")


def check_output_path(path: str | os.PathLike, option: str) -> None:
    """InputError unless ``path`` can be a file this command writes: not a directory, in a
    directory that exists (``-``, standard output, always can)."""
    if os.fspath(path) == "-":
        return
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{option} {os.fspath(path)}: is a directory, not a file")
    if not target.parent.is_dir():
        raise InputError(f"{option} {os.fspath(path)}: no directory {target.parent}")


def outcomes(src: Source, options: dict[str, Any], specs: Sequence[Spec], limit: int | None,
             time_limit: float | None, opts: BatchOptions, concurrent: bool = False,
             ) -> AbstractContextManager[tuple[Generator[Outcome, None, None], int]]:
    """Every puzzle's outcome (its record per spec, its verdict), through the one batch
    runner (here, in processes, or on a Dask cluster), the records written to ``opts.out``
    as they finish when asked; and the number of puzzles a resumed run found done (where
    its progress starts; 0 otherwise).

    ``opts.out`` is checked when this is called, before the caller prints a line: a path
    that cannot be a file is an input error. The run starts when the context is entered,
    and leaving it closes the run there and then, whatever ends the command (the last
    outcome, an error, Ctrl-C while an outcome is printed), so worker processes are
    stopped and the records file closed before the interpreter exits, not whenever the
    garbage collector gets to the run (a pool still running at exit races Python's own
    exit hook and may print its traceback). ``concurrent``: each puzzle's specs at the
    same time (:func:`~sudoku_csp.batch.run_batch`)."""
    if opts.out:
        check_output_path(opts.out, "--out")
    return _outcomes(src, options, specs, limit, time_limit, opts, concurrent)


@contextmanager
def _outcomes(src: Source, options: dict[str, Any], specs: Sequence[Spec], limit: int | None,
              time_limit: float | None, opts: BatchOptions,
              concurrent: bool) -> Iterator[tuple[Generator[Outcome, None, None], int]]:
    from sudoku_csp.batch import resumed, run_batch, run_to_file
    from sudoku_csp.io import puzzle_texts

    puzzles = [src.single] if src.single else puzzle_texts(src.files, **options)
    done = 0
    if opts.out:
        finished = resumed(opts.out, specs, limit=limit) if opts.resume else None
        done = finished.puzzles_done() if finished else 0
        run = run_to_file(puzzles, specs, opts.out, resume=opts.resume, limit=limit,
                          time_limit=time_limit, jobs=opts.jobs, scheduler=opts.scheduler,
                          finished=finished, concurrent=concurrent)
    else:
        run = run_batch(puzzles, specs, limit=limit, time_limit=time_limit, jobs=opts.jobs,
                        scheduler=opts.scheduler, concurrent=concurrent)
    with closing(run):
        yield run, done
