"""Every command's options, as ``--help`` lists them: their names and defaults, pinned.

The options a command shares with others (reading the puzzle, batch runs, the records'
format) are declared once in :mod:`sudoku_csp.cli.options`; this table holds what each
command offers to what it offered when every command listed them itself, so a change to
how they are declared cannot change a command line. A line per option: its names, ``=``,
its default (``...``: repeatable), in ``--help``'s order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest
import typer.main
from typer.core import TyperOption
from typer.testing import CliRunner

from sudoku_csp.cli import Exit, app
from sudoku_csp.cli.options import BatchOptions, Printing, Reading, SourceArg, bundled

OPTIONS = {
    "solve": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        "--solver -s='auto'", '--rules=None', '--branch=None', '--time-limit -t=None',
        '--json=False', '--csv=False', '--jobs -j=1', '--scheduler=None', '--out -o=None',
        '--resume=False',),
    "count": (
        '--limit -l=2', '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        "--solver -s='auto'", '--rules=None', '--branch=None', '--time-limit -t=None',
        '--json=False', '--csv=False', '--jobs -j=1', '--scheduler=None', '--out -o=None',
        '--resume=False',),
    "show": (
        '--candidates -c=False', '--size -n=None', '--box=None', '--variant -v=None...',
        '--regions=None', '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--rules=None', '--svg=None', '--to=None', '--conflict=False',),
    "check": (
        '--solver -s=None...', '--limit -l=2', '--size -n=None', '--box=None',
        '--variant -v=None...', '--regions=None', '--split-regions=False', '--ignore=None...',
        '--treat-line=None...', '--time-limit -t=None', '--race=False', '--json=False',
        '--csv=False',
        '--jobs -j=1', '--scheduler=None', '--out -o=None', '--resume=False',),
    "compare": (
        '--solver -s=None...', '--limit -l=2', '--size -n=None', '--box=None',
        '--variant -v=None...', '--regions=None', '--split-regions=False', '--ignore=None...',
        '--treat-line=None...', '--time-limit -t=10.0', '--json=False', '--csv=False',
        '--columns=None', '--plot=None', '--jobs -j=1', '--scheduler=None', '--out -o=None',
        '--resume=False',),
    "solvers": (
       ),
    "explain": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...', '--json=False',
        '--html=None', '--prove=False', '--no-uniqueness=False', '--techniques=None',
        '--time-limit -t=300.0', '--list=False',),
    "hint": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...', '--json=False',
        '--no-uniqueness=False', '--techniques=None', '--time-limit -t=300.0',),
    "rate": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--no-uniqueness=False', '--time-limit -t=300.0', '--json=False', '--csv=False',
        '--jobs -j=1', '--scheduler=None', '--out -o=None', '--resume=False',),
    "candidates": (
        '--cap=8', '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--time-limit -t=300.0', '--json=False', '--svg=None', '--to=None',),
    "disambiguate": (
        '--keep=None', '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--time-limit -t=300.0', '--json=False',),
    "generate": (
        '--count -c=1', '--size -n=9', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', "--symmetry='none'",
        '--minimal=False', '--seed=0', '--difficulty=None', '--min-rating=None',
        '--max-rating=None', '--allow-search=False', '--kind -k=None...', '--killer=False',
        '--negative --no-negative=None', '--max-givens=None', '--min-cage=None', '--max-cage=None',
        '--merges=None', '--attempts=None', '--out -o=None',),
    "encode": (
        "--encoding -e='extended'", "--amo='pairwise'", "--sums='combos'", '--reduce=False',
        '--output -o=None', '--empty=None', '--size -n=None', '--box=None', '--variant -v=None...',
        '--regions=None', '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--time-limit -t=300.0',),
    "certify": (
        "--proof-solver='cadical195'", "--encoding -e='extended'", "--sums='combos'",
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--time-limit -t=300.0',),
    "verify-certificate": (
       ),
    "minimal": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--time-limit -t=300.0', '--json=False',),
    "canon": (
        '--dedupe=False', '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...', '--json=False',),
    "study": (
        '--encoding -e=None...', '--amo=None...', '--reduced=None...', '--no-reduced=False',
        '--rules=None...', '--no-native=False', '--solver -s=None...', '--no-search=False',
        '--no-probing=False', '--limit -l=None', '--shuffle=None', '--spec=None...',
        '--size -n=None', '--box=None',
        '--variant -v=None...', '--regions=None', '--split-regions=False', '--ignore=None...',
        '--treat-line=None...', '--json=False', '--csv=False', '--columns=None', '--plot=None',
        '--time-limit -t=None',),
}


def _listed(command: str) -> tuple[str, ...]:
    group = typer.main.get_command(app)
    ctx = group.make_context("sudoku-csp", [command, "--help"], resilient_parsing=True)
    built = group.get_command(ctx, command)
    assert built is not None, command
    return tuple(f"{' '.join([*p.opts, *p.secondary_opts])}={p.default!r}"
                 + ("..." if p.multiple else "")
                 for p in built.params if isinstance(p, TyperOption))


@pytest.mark.parametrize("command", OPTIONS)
def test_every_command_offers_the_options_it_always_did(command):
    assert _listed(command) == OPTIONS[command]


# -- the bundles: one parameter, the options spelled out where it stands ----------------------
def _toy(command) -> typer.Typer:
    toy = typer.Typer()
    toy.command()(command)
    toy.command("other")(lambda: None)  # two commands: the first is called by its name
    return toy


def test_a_bundle_stands_for_its_options_and_the_command_gets_one_value():
    seen = {}

    @bundled
    def read(source: SourceArg, directory: Annotated[str, typer.Argument()], *,
             reading: Reading, batch: BatchOptions,
             limit: Annotated[int, typer.Option("--limit")] = 2) -> None:
        seen.update(source=source, directory=directory, reading=reading, batch=batch,
                    limit=limit)

    result = CliRunner().invoke(_toy(read), [
        "read", "PUZZLE", "DIR", "-n", "4", "-v", "x", "-v", "diagonal", "--split-regions",
        "--treat-line", "#FFCCAA=entropicline", "--jobs", "2", "--limit", "3"])
    assert result.exit_code == 0, result.output
    assert seen == {"source": "PUZZLE", "directory": "DIR", "limit": 3,  # arguments kept
                    "reading": Reading(size=4, variant=["x", "diagonal"], split_regions=True,
                                       treat_line=["#FFCCAA=entropicline"]),
                    "batch": BatchOptions(jobs=2)}
    assert seen["reading"].options()["variants"] == ["x", "diagonal"]


def test_a_parameter_of_the_command_stands_for_the_field_of_its_name():
    seen = {}

    @bundled
    def make(*, size: Annotated[int, typer.Option("--size", help="Own.")] = 9,
             reading: Reading) -> None:
        seen.update(size=size, reading=reading)

    toy = _toy(make)
    assert CliRunner().invoke(toy, ["make"]).exit_code == 0
    assert seen == {"size": 9, "reading": Reading(size=9)}
    assert CliRunner().invoke(toy, ["make", "-n", "6"]).exit_code == 2  # not the bundle's -n
    assert CliRunner().invoke(toy, ["make", "--size", "6", "--box", "2x3"]).exit_code == 0
    assert seen["reading"] == Reading(size=6, box="2x3")


@dataclass(frozen=True)
class Workers:
    jobs: Annotated[int, typer.Option("--workers")] = 1


def test_two_bundles_with_a_field_of_the_same_name_are_refused():
    with pytest.raises(ValueError, match="jobs"):
        @bundled
        def both(*, batch: BatchOptions, workers: Workers) -> None:
            pass


def test_json_and_csv_together_are_refused_when_the_value_is_made():
    assert Printing(as_json=True).format == "jsonl" and Printing().format is None
    with pytest.raises(typer.BadParameter, match="not both"):
        Printing(as_json=True, as_csv=True)


@pytest.mark.parametrize("command", ["solve", "count", "rate", "check"])
def test_an_out_path_that_cannot_be_a_file_is_refused_before_a_line_is_printed(tmp_path,
                                                                                command):
    folder = tmp_path / "r.csv"
    folder.mkdir()
    result = CliRunner().invoke(app, [command, "." * 16, "--csv", "--out", str(folder)])
    assert result.exit_code == Exit.INPUT, result.output
    assert "is a directory" in result.stderr and result.stdout == ""  # no CSV header


@pytest.mark.parametrize(("first", "panel", "names"), [
    ("--box", Reading.PANEL, ("--size", "--box", "--variant", "--regions", "--split-regions",
                              "--ignore", "--treat-line")),
    ("--jobs", BatchOptions.PANEL, ("--jobs", "--scheduler", "--out", "--resume")),
])
def test_help_shows_a_bundle_s_options_together_in_its_panel(first, panel, names):
    group = typer.main.get_command(app)
    ctx = group.make_context("sudoku-csp", ["solvers"])
    offering = [name for name, options in OPTIONS.items()
                if any(line.split("=")[0].split()[0] == first for line in options)]
    assert len(offering) > 4  # the table was read
    for name in offering:
        built = group.get_command(ctx, name)
        shown = [p.opts[0] for p in built.params
                 if isinstance(p, TyperOption) and p.rich_help_panel == panel]
        # generate reads no puzzle: it takes the grid's options, not the reader's.
        reads = name != "generate"
        assert shown == [n for n in names if reads or n not in ("--ignore", "--treat-line")]
