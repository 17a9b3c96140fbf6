"""The kinds command: every registered constraint kind, its names and what handles it.

Each fact is read off the registry, never typed here: a kind's names from its
:class:`~sudoku_csp.constraints.names.Names`, the backends from each backend's translation
(:meth:`~sudoku_csp.backends.base.BackendBase.handles`), the explanation steps from
:func:`~sudoku_csp.logic.constraints.kind_steps`, the generator from
:func:`~sudoku_csp.constraints.makers`, and the rule from the first sentence of the kind's
module. ``kinds --markdown`` writes docs/kinds.md (a test holds the page to it).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Annotated, Any

import typer

from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit, guarded
from sudoku_csp.cli.options import JsonOpt
from sudoku_csp.cli.output import emit

MARKDOWN_HEAD = """\
# Constraint kinds

<!-- Written by `sudoku-csp kinds --markdown > docs/kinds.md`; a test holds this page to the
registry. -->

Every kind of typed constraint this tool reads, from its registry. A kind's module in
`sudoku_csp/constraints/kinds/` declares its names once (`names = Names(...)`), and
everything below is derived from the kinds themselves:

- **name**: what options take (`generate --kind NAME`, `--treat-line COLOUR=NAME`) and
  messages say; options take a kind's f-puzzles key alike, in any case, with spaces, `-`
  and `_` alike, and the older spellings in brackets;
- **f-puzzles**: the keys the kind reads (in a grid cell: `cell`; `negative`: the words of
  f-puzzles' `negative` list it honours, its keys' own unless listed). f-puzzles has no key
  of its own for kropki dots and XV marks: they are written as the value dots f-puzzles has
  (`as dots`), which read back as that kind. A kind with neither is refused by `show --to
  fpuzzles`, never written under a key f-puzzles lacks;
- **JSON**: the fields of the tool's own JSON (`show --to json`);
- **backends**: those that solve it (each through its translation of the kind);
- **explain**: the techniques its deductions come as (`explain --list`), `named` when the
  kind words them by its name alone;
- **generate**: `yes` when `generate --kind NAME` reads it off a grid (kinds combine);
  killer cages have a generator of their own (`--kind cage`, or `killer`).
"""


def kind_facts(kind: Any) -> dict[str, Any]:
    """What ``kinds`` says of one registered kind, as JSON values."""
    from sudoku_csp.backends.registry import list_backends
    from sudoku_csp.constraints import makers
    from sudoku_csp.logic.constraints import kind_steps

    names = kind.names
    generator = ("its own" if kind.own_generator else "read off a grid"
                 if kind in makers().values() else None)
    return {
        "name": names.name, "kind": names.kind, "aliases": list(names.aliases),
        "json": list(names.json), "fpuzzles": list(names.fpuzzles),
        "fpuzzles_cell": list(names.fpuzzles_cell),
        "fpuzzles_negative": list(names.fpuzzles_negative),
        "fpuzzles_as": names.fpuzzles_as,
        "backends": [b.name for b in list_backends() if b.handles(kind)],
        "steps": list(kind_steps(kind)), "starting": kind.starting,
        "worded": kind.has_own("why") or kind.has_own("why_link"),
        "generator": generator, "rule": rule(kind),
    }


def rule(kind: Any) -> str:
    """The rule of ``kind`` in one sentence: the first of its module's docstring, with
    reStructuredText's double backquotes as Markdown's single ones."""
    doc = sys.modules[kind.__module__].__doc__ or ""
    first = " ".join(doc.strip().split("\n\n")[0].split())
    sentence = re.split(r"(?<=\.)\s", first)[0]
    return re.sub(r"``([^`]+)``", r"`\1`", sentence)


def _codes(words: list[str]) -> str:
    return ", ".join(f"`{w}`" for w in words)


def _fpuzzles(facts: dict[str, Any]) -> str:
    words = facts["fpuzzles_negative"]
    negative = ("" if not words else "negative" if set(words) <= set(facts["fpuzzles"])
                else f"negative {_codes(words)}")  # its keys' words: said once
    said = [_codes(facts["fpuzzles"]),
            *([f"cell {_codes(facts['fpuzzles_cell'])}"] if facts["fpuzzles_cell"] else []),
            negative, *([f"as {facts['fpuzzles_as']}"] if facts["fpuzzles_as"] else [])]
    return "; ".join(s for s in said if s) or "none"


def _explain(facts: dict[str, Any]) -> str:
    if facts["starting"]:
        return "before the first step"
    steps = ", ".join(s.removeprefix("constraint_") if s != "constraint" else "rule"
                      for s in facts["steps"])
    return (steps + ("" if facts["worded"] else " (named)")) if steps else "none"


def _generate(facts: dict[str, Any]) -> str:
    return {"its own": "its own", "read off a grid": "yes"}.get(facts["generator"], "no")


def _row(facts: dict[str, Any]) -> list[str]:
    aliases = f" ({_codes(facts['aliases'])})" if facts["aliases"] else ""
    return [f"`{facts['name']}`{aliases}", _fpuzzles(facts), _codes(facts["json"]),
            ", ".join(facts["backends"]) or "none", _explain(facts), _generate(facts)]


HEADINGS = ("name", "f-puzzles", "JSON", "backends", "explain", "generate")


def markdown(facts: list[dict[str, Any]]) -> str:
    """docs/kinds.md: the introduction, the table of every kind, and each kind's rule."""
    lines = [MARKDOWN_HEAD, "| " + " | ".join(HEADINGS) + " |",
             "|" + "---|" * len(HEADINGS)]
    lines += ["| " + " | ".join(_row(f)) + " |" for f in facts]
    lines += ["", "## The rules", ""]
    lines += [f"- **{f['kind']}** (`{f['name']}`): {f['rule']}" for f in facts]
    return "\n".join(lines) + "\n"


@app.command()
def kinds(
    as_json: JsonOpt = False,
    as_markdown: Annotated[bool, typer.Option(
        "--markdown", help="Print the page docs/kinds.md (Markdown).")] = False,
) -> None:
    """List every constraint kind, its names and backends.

    One line each: the name options take, the f-puzzles keys and JSON fields it reads, the
    backends that solve it, the techniques its deductions come as in explain, and whether
    generate makes it. --json prints one object per kind, --markdown the page docs/kinds.md.
    """

    def action() -> Exit:
        from sudoku_csp.constraints import KINDS

        if as_json and as_markdown:
            raise typer.BadParameter("give one of --json and --markdown, not both",
                                     param_hint="'--json' / '--markdown'")
        facts = [kind_facts(kind) for kind in KINDS]
        if as_json:
            for f in facts:
                emit(json.dumps(f, ensure_ascii=False) + "\n")
        elif as_markdown:
            emit(markdown(facts))
        else:  # aligned columns, a line each: greppable, never folded
            rows = [list(HEADINGS), *([cell.replace("`", "") for cell in _row(f)]
                                      for f in facts)]
            widths = [max(len(row[i]) for row in rows) for i in range(len(HEADINGS))]
            for row in rows:
                emit("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                     + "\n")
        return Exit.OK

    guarded(action)
