"""``sudoku-csp serve``'s protocol and answers, in this process: the messages of Rangsk's
SudokuSolver listener read and written, and each command answered by the library (the same
questions over a real websocket: tests/test_serve_ws.py)."""

from __future__ import annotations

import random
import time

import pytest
from cases import published
from serving import grid_document, payload
from test_lzdecode import bomb

from sudoku_csp import parse, true_candidates
from sudoku_csp.deadline import Deadline
from sudoku_csp.logic import TECHNIQUES
from sudoku_csp.serve import jobs, protocol
from sudoku_csp.serve.jobs import answer, count_solutions, estimate_solutions
from sudoku_csp.serve.protocol import (
    COMMANDS,
    DISABLED_LOGIC,
    ProtocolError,
    Request,
    read_puzzle,
    read_request,
)

MANY = grid_document(4, {(0, 0): 1, (1, 2): 1, (2, 1): 1, (3, 3): 1})  # 18 solutions
SIX = grid_document(4, {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4, (2, 0): 2})  # 6
UNIQUE = grid_document(4, {(0, 0): 3, (0, 2): 1, (1, 2): 4, (2, 0): 2})  # 3.1...4.2.......
CLASH = grid_document(4, {(0, 0): 1, (0, 3): 1})


def request(command: str, document: dict, **extra) -> Request:
    return read_request(__import__("json").dumps(
        {"nonce": 1, "command": command, "dataType": "fpuzzles", "data": payload(document),
         **extra}))


def run(command: str, document: dict, **extra) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    return answer(request(command, document, **extra), events.append), events


# -- messages ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ("not json", "not a JSON message at line 1, column 1"),
    ("[1, 2]", "expected a JSON object"),
    ('{"command": "solve"}', "expected a whole number as nonce, got None"),
    ('{"nonce": "7", "command": "solve"}', "expected a whole number as nonce, got '7'"),
    ('{"nonce": 7, "command": "fly"}', "unknown command 'fly'"),
    ('{"nonce": 7, "command": "solve", "dataType": "givens", "data": "x"}',
     "unknown dataType 'givens'"),
    ('{"nonce": 7, "command": "solve", "dataType": "fpuzzles"}', "expected the puzzle"),
    ("x" * (protocol.MAX_MESSAGE + 1), "more than any puzzle needs"),
])
def test_a_message_that_is_no_request_is_refused_saying_why(text, words):
    with pytest.raises(ProtocolError) as caught:
        read_request(text)
    assert words in str(caught.value)
    assert caught.value.nonce == (7 if '"nonce": 7' in text else None)


def test_the_userscripts_messages_read():
    # Fpuzzles-SudokuSolver.user.js: {nonce, command, dataType: "fpuzzles", data}; a cancel
    # is {nonce, command} alone.
    r = read_request('{"nonce": 12, "command": "truecandidates", "dataType": "fpuzzles", '
                     '"data": "N4Ig"}')
    assert (r.nonce, r.command, r.data_type, r.data, r.extra) == (
        12, "truecandidates", "fpuzzles", "N4Ig", {})
    assert read_request('{"nonce": 13, "command": "cancel"}') == Request(13, "cancel")


def test_every_command_has_an_answer():
    assert set(COMMANDS) - {"cancel"} == set(jobs.HANDLERS)


def test_each_disabled_logic_name_stands_for_techniques_of_the_ladder():
    for name, keys in DISABLED_LOGIC.items():
        assert keys and set(keys) <= set(TECHNIQUES), name
    chains = {k for k, t in TECHNIQUES.items() if t.chained}
    assert chains <= set(DISABLED_LOGIC["aic"]) | set(DISABLED_LOGIC["contradictions"])
    # Every fish, the ones through the variant rules too, goes with the "fishes" setting.
    fishes = {k for k in TECHNIQUES if k.endswith(("fish", "fish3")) or k == "x_wing"}
    assert fishes <= set(DISABLED_LOGIC["fishes"])


# -- the request's puzzle -----------------------------------------------------------------------
def test_the_givens_alone_or_what_the_setter_entered():
    document = grid_document(4, {(0, 0): 1})
    document["grid"][0][1] = {"value": 2}  # entered, not given
    document["grid"][0][2] = {"centerPencilMarks": [3, 4]}
    document["grid"][0][3] = {"value": 0}  # the editor's empty cell
    puzzle, _, notes = read_puzzle(request("truecandidates", document))
    assert puzzle.givens[:4] == (0, -1, -1, -1) and not puzzle.constraints
    assert any("entered without 'given'" in n for n in notes)
    puzzle, _, _ = read_puzzle(request("step", document))
    assert puzzle.givens[:4] == (0, 1, -1, -1)
    assert [c.marks for c in puzzle.constraints] == [((2, 0b1100),)]


def test_the_userscripts_settings_are_read_off_the_puzzle():
    document = {**UNIQUE, "truecandidatesoptions": ["truecandidatesnumsolutions=8", "logical"],
                "disabledlogic": ["wings", "aic"]}
    _, settings, _ = read_puzzle(request("truecandidates", document))
    assert (settings.cap, settings.logical, settings.disabled) == (8, True, ("wings", "aic"))
    kept = settings.techniques()
    assert kept is not None and "xy_wing" not in kept and "x_chain" not in kept
    assert "naked_pair" in kept
    _, settings, _ = read_puzzle(request("truecandidates", UNIQUE))
    assert settings.cap == 1 and settings.techniques() is None


@pytest.mark.parametrize("data, words", [
    ("not base64!", "not lz-string base64"),
    (payload({"size": 4}) + "", "f-puzzles grid: expected 4 rows"),
    (payload(grid_document(4, foo=[1])), "foo: not a rule this tool knows"),
    (bomb(20_000), "decodes to more than 4,000,000 characters"),
])
def test_a_puzzle_that_does_not_read_is_the_readers_one_line_error(data, words):
    bad = Request(5, "truecandidates", "fpuzzles", data)
    with pytest.raises(ProtocolError) as caught:
        read_puzzle(bad)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.nonce == 5


# -- answers ---------------------------------------------------------------------------------
def test_true_candidates_are_cell_major_and_capped():
    fields, _ = run("truecandidates", {**MANY, "truecandidatesoptions":
                                       ["truecandidatesnumsolutions=3"]})
    tc = true_candidates(parse("1..." "..1." ".1.." "...1"), cap=3)
    per = fields["solutionsPerCandidate"]
    assert fields["type"] == "truecandidates" and len(per) == 4 * 4 * 4
    for cell in range(16):
        for digit in range(4):
            assert per[cell * 4 + digit] == min(tc.counts[cell][digit], 3)
    assert max(per) == 3 and fields["status"] == "multiple"


def test_true_candidates_of_a_puzzle_with_no_solution_name_the_conflict():
    fields, _ = run("truecandidates", CLASH, pictures=True)
    assert fields["type"] == "invalid"
    assert fields["message"].startswith("no solution:") and "given R1C1=1" in fields["message"]
    assert fields["conflict_cells"] == ["R1C1", "R1C4"] and "<svg" in fields["svg"]


def test_solve_check_and_count():
    fields, _ = run("solve", UNIQUE)
    assert fields["type"] == "solved"
    assert fields["solution"] == [int(ch) for ch in "3412124321344321"]
    assert run("check", MANY)[0]["count"] == 2
    fields, events = run("count", SIX)
    assert (fields["type"], fields["count"], fields["inProgress"]) == ("count", 6, False)
    assert events and events[0] == {"type": "count", "count": 1, "inProgress": True}
    fields, _ = run("count", CLASH)
    assert fields["count"] == 0 and "given R1C4=1" in fields["message"]
    assert run("solve", CLASH)[0]["type"] == "invalid"


def test_counting_checks_each_solution_on_both_engines():
    from sudoku_csp.backends import get_backend

    plain = parse("1..." "..1." ".1.." "...1")
    cages = parse('{"size": 4, "givens": "1.....1..1.....1", '
                  '"cages": [{"cells": ["A2", "A3"], "sum": 5}]}')
    seen: list[int] = []
    assert count_solutions(plain, None, Deadline(), seen.append) == (18, True)
    assert seen == list(range(1, 19))
    assert jobs.engine(plain) == "native" and jobs.engine(cages) == "sat"
    found = count_solutions(cages, None, Deadline(), lambda n: None)
    assert found == (get_backend("cpsat").solve(cages, limit=None).count, True) == (6, True)
    assert count_solutions(plain, 2, Deadline(), lambda n: None) == (2, False)
    assert count_solutions(cages, 2, Deadline(), lambda n: None) == (2, False)


def entered(document: dict, cells: list[dict]) -> dict:
    """``document`` as the userscript leaves the grid after a ``logical`` reply: each cell
    that is not a given holds the reply's digit (entered) or its candidates (centre
    marks)."""
    grid = [[dict(c) for c in row] for row in document["grid"]]
    size = document["size"]
    for cell, shown in enumerate(cells):
        here = grid[cell // size][cell % size]
        if here.get("given"):
            continue
        here.pop("value", None)
        here.pop("centerPencilMarks", None)
        if shown["value"]:
            here["value"] = shown["value"]
        else:
            here["centerPencilMarks"] = shown["candidates"]
    return {**document, "grid": grid}


def test_the_first_step_fills_in_the_candidates_then_steps_follow():
    first, _ = run("step", UNIQUE)
    assert first["type"] == "logical" and first["message"] == "Initial candidates.\n"
    assert first["cells"][0] == {"value": 3}
    assert first["cells"][1] == {"value": 0, "candidates": [2, 4]}
    document, texts = UNIQUE, []
    for _ in range(40):
        fields, _ = run("step", entered(document, first["cells"]))
        assert fields["isValid"] and fields["message"] != "Initial candidates.\n"
        texts.append(fields["message"])
        if not fields.get("steps"):
            break
        document, first = entered(document, first["cells"]), fields
    assert texts[-1] == "Solved: no step left.\n" and len(texts) > 5
    assert all(c["value"] for c in first["cells"])  # the grid the steps filled in
    solution = [int(ch) for ch in "3412124321344321"]
    assert [c["value"] for c in first["cells"]] == solution


def test_the_path_solves_a_unique_puzzle_and_says_why_not_otherwise():
    fields, _ = run("solvepath", UNIQUE, pictures=True)
    assert fields["isValid"] and fields["message"].endswith("Solved.\n")
    assert all(c["value"] for c in fields["cells"]) and "<svg" in fields["html"]
    fields, _ = run("solvepath", MANY)
    assert fields["isValid"] and "more than one solution" in fields["message"]
    fields, _ = run("solvepath", CLASH)
    assert not fields["isValid"]


def test_the_estimate_is_knuths_and_close_on_a_small_grid():
    puzzle = parse("1..." "..1." ".1.." "...1")  # 18 solutions
    last = estimate_solutions(puzzle, lambda f: None, Deadline(), random.Random(7), 400)
    assert last["iterations"] == 400 and last["ci95_lower"] <= 18 <= last["ci95_upper"]
    none = estimate_solutions(parse("11.." + "." * 12), lambda f: None, Deadline(),
                              random.Random(7), 10)
    assert none["estimate"] == 0 and none["iterations"] == 0


def test_the_verdicts_of_a_request_share_its_time_limit(monkeypatch):
    # serve --time-limit bounds each request: the backends of "verdicts" run one after
    # another within it, not each with all of it (the second got the seconds the first had
    # left, counted again from its own start: three times the limit in all).
    from sudoku_csp.result import Result, Status

    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    seen = []

    class Slow:
        """A backend whose search takes the request's whole time (the clock moves on)."""

        def __init__(self, spec):
            self.spec = spec

        def solve(self, puzzle, *, limit=1, time_limit=None):
            seen.append((self.spec, Deadline.of(time_limit).expired()))
            now[0] += 10.0
            return Result(Status.UNKNOWN, message="time limit reached", complete=False)

    monkeypatch.setattr(jobs, "BACKENDS", (Slow("first"), Slow("second")))
    fields = answer(request("verdicts", MANY), lambda _: None, time_limit=10.0)
    assert seen == [("first", False), ("second", True)]
    assert fields["status"] == "unknown" and not fields["agreed"]


def test_a_no_solution_its_conflict_report_contradicts_is_an_internal_error(monkeypatch):
    # After a "none", the report's own SAT solver finds the puzzle solvable: two solvers
    # contradict each other. It was answered as "invalid: the puzzle has a solution:
    # nothing conflicts", the wrong verdict's type with the report's words; now an error
    # (the worker answers "internal error: ..."). The conflict command itself still says
    # that a solvable puzzle has no conflict.
    from sudoku_csp import backends
    from sudoku_csp.errors import BackendError
    from sudoku_csp.result import Result, Status

    class SaysNone:
        spec = "says-none"

        def solve(self, puzzle, *, limit=1, time_limit=None):
            return Result(Status.NONE, solver=self.spec, puzzle=puzzle)

    monkeypatch.setattr(backends, "get_backend", lambda spec: SaysNone())
    with pytest.raises(BackendError, match="one of the two is wrong"):
        run("solve", UNIQUE)
    fields, _ = run("conflict", UNIQUE)
    assert fields["message"] == "the puzzle has a solution: nothing conflicts"


def test_the_pages_own_commands():
    fields, _ = run("read", MANY)
    assert fields["type"] == "puzzle" and fields["size"] == 4 and "<svg" in fields["svg"]
    for link in fields["links"].values():  # each opens as the same puzzle
        assert parse(link) == parse("1..." "..1." ".1.." "...1")
    fields, _ = run("verdicts", MANY)
    assert fields["status"] == "multiple" and fields["agreed"]
    assert [b["spec"] for b in fields["backends"]] == list(jobs.BACKENDS)
    fields, _ = run("conflict", CLASH)
    assert fields["conflict"] == ["given R1C1=1", "given R1C4=1"]
    for document in (SIX, MANY):  # single givens; a set of them
        fields, _ = run("disambiguate", document, pictures=True)
        assert fields["type"] == "disambiguation" and "<svg" in fields["svg"]
        sets = [[g] for g in fields["singles"]] or [fields["set"]]
        assert sets[0]
        for added in sets:
            givens = {(r, c): d for r, row in enumerate(document["grid"])
                      for c, cell in enumerate(row) if cell for d in (cell["value"],)}
            for given in added:
                cell, digit = given.split("=")
                givens[int(cell[1]) - 1, int(cell[3]) - 1] = int(digit)
            assert run("check", grid_document(4, givens))[0]["count"] == 1, added


@pytest.mark.parametrize("entry", published()[:3], ids=lambda e: e["title"][:24])
def test_published_puzzles_answer_with_their_solution(entry):
    fields, _ = run("truecandidates", entry["fpuzzles"])
    solution = [int(ch) for ch in entry["solution"]]
    size = entry["fpuzzles"]["size"]
    expected = [int(solution[cell] == digit + 1)
                for cell in range(size * size) for digit in range(size)]
    assert fields["solutionsPerCandidate"] == expected
    assert run("solve", entry["fpuzzles"])[0]["solution"] == solution


def test_the_page_ships_as_package_data():
    import fnmatch
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["sudoku_csp"]
    static = root / "sudoku_csp" / "serve" / "static"
    files = sorted(p.relative_to(root / "sudoku_csp").as_posix() for p in static.iterdir())
    assert {"serve/static/index.html", "serve/static/page.js",
            "serve/static/page.css"} <= set(files)
    assert all(any(fnmatch.fnmatch(f, g) for g in globs) for f in files)
    assert "aiohttp" in " ".join(project["project"]["optional-dependencies"]["serve"])


def test_without_the_serve_extra_the_service_says_what_to_install(monkeypatch):
    import sys

    from sudoku_csp.extras import MissingExtraError
    from sudoku_csp.serve import server

    monkeypatch.setitem(sys.modules, "aiohttp", None)
    monkeypatch.setitem(sys.modules, "aiohttp.web", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'sudoku_csp\[serve\]'"):
        server._web()  # noqa: SLF001
