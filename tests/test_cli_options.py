"""Every command's options, as ``--help`` lists them: their names and defaults, pinned.

The options a command shares with others (reading the puzzle, batch runs, the records'
format) are declared once in :mod:`sudoku_csp.cli.options`; this table holds what each
command offers to what it offered when every command listed them itself, so a change to
how they are declared cannot change a command line. A line per option: its names, ``=``,
its default (``...``: repeatable), in ``--help``'s order.
"""

from __future__ import annotations

import pytest
import typer.main
from typer.core import TyperOption

from sudoku_csp.cli import app

OPTIONS = {
    "solve": (
        '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        "--solver -s='native'", '--rules=None', '--branch=None', '--time-limit -t=None',
        '--json=False', '--csv=False', '--jobs -j=1', '--scheduler=None', '--out -o=None',
        '--resume=False',),
    "count": (
        '--limit -l=2', '--size -n=None', '--box=None', '--variant -v=None...', '--regions=None',
        '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        "--solver -s='native'", '--rules=None', '--branch=None', '--time-limit -t=None',
        '--json=False', '--csv=False', '--jobs -j=1', '--scheduler=None', '--out -o=None',
        '--resume=False',),
    "show": (
        '--candidates -c=False', '--size -n=None', '--box=None', '--variant -v=None...',
        '--regions=None', '--split-regions=False', '--ignore=None...', '--treat-line=None...',
        '--rules=None', '--svg=None', '--to=None', '--conflict=False',),
    "check": (
        '--solver -s=None...', '--limit -l=2', '--size -n=None', '--box=None',
        '--variant -v=None...', '--regions=None', '--split-regions=False', '--ignore=None...',
        '--treat-line=None...', '--time-limit -t=None', '--json=False', '--csv=False',
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
        '--split-regions=False', '--ignore=None...', '--treat-line=None...', "--symmetry='none'",
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
        '--no-probing=False', '--limit -l=None', '--shuffle=None', '--size -n=None', '--box=None',
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
