"""The kinds command (sudoku_csp.cli.kinds) and the page it writes, docs/kinds.md: every
registered kind with its names and what handles it, derived from the registry."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sudoku_csp.backends.registry import list_backends
from sudoku_csp.cli import app
from sudoku_csp.constraints import KINDS, kind_named, makers

PAGE = Path(__file__).resolve().parents[1] / "docs" / "kinds.md"
runner = CliRunner()


def test_docs_kinds_md_is_what_the_registry_writes():
    result = runner.invoke(app, ["kinds", "--markdown"])
    assert result.exit_code == 0, result.output
    assert PAGE.read_text(encoding="utf-8") == result.stdout, (
        "docs/kinds.md is not what the registry says: write it again with "
        "`sudoku-csp kinds --markdown > docs/kinds.md`")


def test_json_lists_every_kind_once_by_the_names_it_declares():
    result = runner.invoke(app, ["kinds", "--json"])
    assert result.exit_code == 0, result.output
    listed = [json.loads(line) for line in result.stdout.splitlines()]
    assert [k["name"] for k in listed] == [k.names.name for k in KINDS]
    for facts, kind in zip(listed, KINDS, strict=True):
        assert facts["json"] == list(kind.names.json)
        assert facts["fpuzzles"] == list(kind.names.fpuzzles)
        # options take what is listed, each naming this kind
        for spelled in (facts["name"], facts["kind"], *facts["aliases"]):
            assert kind_named(spelled) is kind, spelled
        assert facts["backends"] == [b.name for b in list_backends() if b.handles(kind)]
        assert (facts["generator"] == "read off a grid") == (kind in makers().values())
        assert facts["rule"].endswith(".") and not facts["rule"].startswith(" ")


def test_every_fpuzzles_key_names_its_kind_but_where_a_name_comes_first():
    names = {s: k for k in KINDS for s in k.names.spellings()}
    for kind in KINDS:
        for key in kind.names.fpuzzles_keys():
            assert kind_named(key) is names.get(key.lower(), kind), key
    assert kind_named("xv").names.name == "xv"  # the XV kind; f-puzzles' xv key is dots'


def test_text_lists_every_name():
    result = runner.invoke(app, ["kinds"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[1:]] == [kind.names.name for kind in KINDS]
    assert runner.invoke(app, ["kinds", "--json", "--markdown"]).exit_code == 2
