"""A verdict is never said past evidence against it: where a command has a second,
independent answer at hand (the conflict report's own SAT solver, asked after every "no
solution"), a contradiction is an internal error (exit 1), never "none" (exit 4)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sudoku_csp import parse
from sudoku_csp.backends import registry
from sudoku_csp.cli import Exit, app
from sudoku_csp.cli.conflicts import ConflictReports, conflict_fields
from sudoku_csp.errors import BackendError
from sudoku_csp.result import Result, Status

runner = CliRunner()
SOLVABLE = "3.1...4.2......."  # unique


class _SaysNone:
    """A backend with a bug: no solution, whatever the puzzle."""

    spec = "says-none"

    def solve(self, puzzle, *, limit=1, time_limit=None):
        return Result(Status.NONE, solver=self.spec, puzzle=puzzle)


def test_a_none_the_conflict_report_contradicts_is_an_internal_error(monkeypatch):
    # The report's SAT solver finds the puzzle's parts hold together: said as it was,
    # "none" with no conflict and exit 4, the wrong verdict stood.
    monkeypatch.setattr(registry, "get_backend", lambda spec: _SaysNone())
    for command in ("count", "solve"):
        result = runner.invoke(app, [command, SOLVABLE])
        assert result.exit_code == Exit.INTERNAL, (command, result.output)
        assert "internal error" in result.output and "one of the two is wrong" in result.output


def test_a_batchs_conflict_report_and_record_fields_refuse_a_solvable_puzzle():
    puzzle = parse(SOLVABLE)
    with pytest.raises(BackendError, match="one of the two is wrong"):
        ConflictReports(None).message(puzzle)
    with pytest.raises(BackendError, match="one of the two is wrong"):
        conflict_fields(puzzle, None)
    clash = parse("11..............")
    assert ConflictReports(None).fields(clash)["conflict"] == ["given R1C1=1",
                                                                "given R1C2=1"]
