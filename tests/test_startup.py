"""Start-up (issue 24.7): ``sudoku-csp --help`` and ``sudoku-csp solve PUZZLE`` load only what
they use.

The command line imports a command's module when that command is first needed
(:data:`sudoku_csp.cli.app.COMMANDS`), and each module imports the library it runs inside
its commands. These tests pin that by what is loaded, not by the clock (a loaded machine
would make a timing flaky): each runs the command line in a fresh interpreter and reads the
modules it holds at exit. They also hold the table of commands to the modules, and the help
and completion made from it to what the commands themselves give.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import subprocess
import sys

import pytest
import typer.main
from cases import KILLER4, slow_if
from typer.core import TyperCommand, TyperGroup

from sudoku_csp.cli import app
from sudoku_csp.cli.app import COMMANDS

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
MODULES = sorted({module for module, _ in COMMANDS.values()})

# Runs the command line as the console script does, then writes the loaded modules to
# stderr. With every command module imported first when asked (``--eager``): as before
# issue 24.7, every command built, which the lazy output must equal.
_SCRIPT = f"""
import importlib, sys
args = sys.argv[1:]
if args[:1] == ["--eager"]:
    args = args[1:]
    for module in {MODULES!r}:
        importlib.import_module("sudoku_csp.cli." + module)
if args[:1] == ["--rich"]:  # rich's consoles made first: what every print went through
    args = args[1:]
    from sudoku_csp.cli.exits import err
    from sudoku_csp.cli.output import out
    out.console, err.console
sys.argv = ["sudoku-csp", *args]
from sudoku_csp.__main__ import main
try:
    main()
finally:
    sys.stderr.write("\\nLOADED " + " ".join(sorted(sys.modules)) + "\\n")
"""


def _run(*args: str, env: dict[str, str] | None = None, tty: bool = False
         ) -> tuple[int, str, str, set[str]]:
    """(exit code, stdout, stderr without the module list, modules loaded at exit); with
    ``tty``, standard output is a terminal (stdout is what it showed)."""
    master, slave = os.openpty() if tty else (None, None)
    proc = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args], stdout=slave if tty else subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, timeout=120,
        env={**os.environ, "COLUMNS": "100", "TERMINAL_WIDTH": "100", **(env or {})})
    if tty:
        os.close(slave)
        proc.stdout = _drain(master).decode()
    stderr, _, loaded = proc.stderr.rpartition("\nLOADED ")
    assert loaded, proc.stderr
    return proc.returncode, proc.stdout, stderr, set(loaded.split())


def _drain(master: int) -> bytes:
    """What a terminal's other end wrote, once it closed."""
    data = b""
    try:
        while chunk := os.read(master, 65536):
            data += chunk
    except OSError:  # EIO: the other end is closed and everything was read
        pass
    os.close(master)
    return data


def _among(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    """The modules of ``loaded`` that are one of ``names`` or inside one of them."""
    return sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in names))


HEAVY = (
    "pysat", "ortools", "matplotlib", "pandas", "numpy", "multiprocessing", "concurrent.futures",
    "pydantic",  # typer's coercion of every parameter imported it (issue 34: start-up)
    "sudoku_csp.backends.sat", "sudoku_csp.backends.cpsat", "sudoku_csp.batch",
    "sudoku_csp.crosscheck", "sudoku_csp.certify", "sudoku_csp.generate", "sudoku_csp.study",
    "sudoku_csp.logic", "sudoku_csp.canon", "sudoku_csp.encodings", "sudoku_csp.satsolver",
    "sudoku_csp.rup", "sudoku_csp.datasets", "sudoku_csp.render", "sudoku_csp.cli.explain",
    "sudoku_csp.cli.generating", "sudoku_csp.cli.research",
)
"""What ``solve PUZZLE`` with the default native solver does without."""

FOR_SOLVING = (
    "sudoku_csp.cli.solving", "sudoku_csp.io", "sudoku_csp.puzzle",
    "sudoku_csp.constraints", "sudoku_csp.backends", "sudoku_csp.native",
    "sudoku_csp.interrupts",
)
"""What a command needs but the list of commands does not."""


@pytest.mark.parametrize(("args", "exit_code"), [
    (("--help",), 0), (("-h",), 0), ((), 2), (("--version",), 0),
], ids=["help", "h", "no-args", "version"])
def test_help_and_version_load_no_command_and_no_solver(args, exit_code):
    code, out, _, loaded = _run(*args)
    assert code == exit_code and "sudoku-csp" in out
    assert not _among(loaded, HEAVY + FOR_SOLVING)


def test_importing_the_application_loads_no_command_and_no_solver():
    # What every command pays before it runs (issue 34: start-up): typer, rich, the table
    # of commands; no command module, no solver, no kind, no reader.
    proc = subprocess.run(
        [sys.executable, "-c", "import sys, sudoku_csp.cli.app; print(' '.join(sys.modules))"],
        capture_output=True, text=True, timeout=120, check=True)
    loaded = set(proc.stdout.split())
    assert "sudoku_csp.cli.app" in loaded and "typer" in loaded
    assert not _among(loaded, HEAVY + FOR_SOLVING + ("hashlib", "html", "rich._emoji_codes"))


def test_solve_one_puzzle_loads_the_native_solver_and_nothing_else_heavy():
    code, out, _, loaded = _run("solve", PUZZLE)
    assert code == 0 and "5 3 4 | 6 7 8 | 9 1 2" in out
    assert "sudoku_csp.backends.native" in loaded  # the check below looked in the right place
    assert not _among(loaded, HEAVY)
    # issue 34: output is not read for emoji codes, and there is no HTML to escape; a pipe
    # gets the grid without rich, and no CSV is written
    assert not _among(loaded, ("rich", "html", "csv"))


@pytest.mark.parametrize("spec", ["native", "sat", "cpsat"])
def test_count_a_killer_loads_no_kind_but_the_cage(spec):
    # The registry of kinds imports every kind (about 30 modules); a backend's spec without
    # a kind's option, a killer's clauses, links and joint hooks need none but the cage's
    # (issue 34: start-up).
    code, out, _, loaded = _run("count", KILLER4, "-s", spec)
    assert code == 0 and "unique" in out
    kinds = set(_among(loaded, ("sudoku_csp.constraints.kinds",)))
    assert kinds == {"sudoku_csp.constraints.kinds", "sudoku_csp.constraints.kinds.cage"}
    if spec != "cpsat":  # OR-Tools loads hashlib itself
        assert "hashlib" not in loaded  # a digest is made only past the kept grids


def test_kinds_are_put_in_the_registrys_order_without_loading_it():
    # by_kind and kinds_among place a built-in kind by its module's line in BUILT_IN, not
    # by loading KINDS: the same order as KINDS's, with a kind of a subclass among them.
    from cases import CONSTRAINED_CASES

    from sudoku_csp.constraints import KINDS, Cage, Names, Thermo, by_kind
    from sudoku_csp.constraints.registry import kinds_among

    class Other(Cage):  # not registered: after every registered kind, for by_kind alone
        names = Names("other cage", json=("others",))

    constraints = [c for case in CONSTRAINED_CASES for c in case.puzzle().constraints]
    constraints += [Other((0, 1), 3), Thermo((0, 1, 2))]
    constraints.reverse()
    present = {type(c) for c in constraints}
    assert len(present) > 4
    assert [k for k, _ in by_kind(constraints)] == [
        *(k for k in KINDS if k in present), Other]
    assert kinds_among(constraints) == [
        k for k in KINDS if any(isinstance(c, k) for c in constraints)]


@pytest.mark.parametrize(("args", "env"), slow_if([
    (("--help",), {}),
    ((), {}),
    (("solv",), {}),  # the suggestion names every command, none built
    (("solve", "--help"), {}),
    ((), {"_SUDOKU_CSP_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "sudoku-csp "}),
    ((), {"_SUDOKU_CSP_COMPLETE": "complete_bash", "COMP_WORDS": "sudoku-csp s",
          "COMP_CWORD": "1"}),
    ((), {"_SUDOKU_CSP_COMPLETE": "complete_zsh",
          "_TYPER_COMPLETE_ARGS": "sudoku-csp certify x y --proof-solver "}),
], lambda case: case[0] != ("--help",)), ids=["help", "no-args", "typo", "solve-help",
                                              "zsh-commands", "bash-commands",
                                              "zsh-option-values"])
def test_lazy_commands_print_what_every_command_built_prints(args, env):
    lazy = _run(*args, env=env)
    eager = _run("--eager", *args, env=env)
    assert lazy[:3] == eager[:3]
    assert lazy[1] or lazy[2]  # something was printed to compare


def test_the_table_of_commands_is_what_the_modules_register():
    for module in MODULES:
        importlib.import_module(f"sudoku_csp.cli.{module}")
    registered = {}
    for info in app.registered_commands:
        assert info.callback is not None
        name = info.name or typer.main.get_command_name(info.callback.__name__)
        registered[name] = info.callback
    assert sorted(registered) == sorted(COMMANDS), (
        "every command needs its line in sudoku_csp.cli.app.COMMANDS (name: module, summary), "
        "or the command line never imports its module")
    for name, (module, summary) in COMMANDS.items():
        callback = registered[name]
        assert callback.__module__ == f"sudoku_csp.cli.{module}", name
        assert summary == (inspect.getdoc(callback) or "").split("\n\n")[0], (
            f"{name}: the summary in sudoku_csp.cli.app.COMMANDS must be the first paragraph "
            "of the command's docstring")


def test_every_command_is_built_when_looked_up():
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    ctx = group.make_context("sudoku-csp", ["solve", PUZZLE])
    assert group.list_commands(ctx) == list(COMMANDS)
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        assert isinstance(command, TyperCommand) and command.name == name, name
        assert command.callback is not None
    assert group.get_command(ctx, "nope") is None


SAMPLES = {
    str: ["x", "", " a b ", "-"], bool: [True, False, "true", "no", 1],
    int: ["0", "7", "-3", "+3", " 4", "1e3", "2.0", "x", "", 5, -1, 2.5, True],
    float: ["0", "2.5", "-1", "1e3", "inf", ".5", "x", 3, 2.5, -0.5, True],
    list[str]: [[], ["a", "b"], ("a",), ["a", 1], "ab"],
}


def test_plain_coercion_gives_what_typers_own_gives():
    # Every command's parameters of plain types skip typer's pydantic adapters (start-up):
    # their values must be typer's, and a value that is not plain gets typer's own words.
    from typer._click.exceptions import BadParameter
    from typer._coercion import build_runtime_param

    from sudoku_csp.cli.app import _plain_param_class

    plain = _plain_param_class()
    group = typer.main.get_command(app)
    ctx = group.make_context("sudoku-csp", ["solve", PUZZLE])
    checked = 0
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        for param in command.get_params(ctx):
            ours = param.get_runtime_param()
            if not isinstance(ours, plain):
                continue
            theirs = build_runtime_param(param.type_descriptor)
            for value in SAMPLES[param.type_descriptor.annotation]:
                outcomes = []
                for runtime in (ours, theirs):
                    try:
                        outcomes.append(("value", runtime.coerce(value, param=param, ctx=ctx)))
                    except BadParameter as exc:
                        outcomes.append(("error", exc.format_message()))
                assert outcomes[0] == outcomes[1], (name, param.name, value)
                assert type(outcomes[0][1]) is type(outcomes[1][1]), (name, param.name, value)
                checked += 1
            param._runtime_param = ours  # a fallback replaced it: the next value is plain
    assert checked > 200


def test_the_fpuzzles_index_is_what_the_kinds_declare():
    # FPUZZLES_INDEX is an index, not a second source: each built-in kind's module with the
    # f-puzzles keys and negative words its Names declare (issue 34: start-up).
    from sudoku_csp.constraints import BUILT_IN, KINDS
    from sudoku_csp.constraints.registry import FPUZZLES_INDEX, kind_of_module

    declared = {}
    for module in BUILT_IN:
        names = kind_of_module(f"sudoku_csp.constraints.kinds.{module}").names
        read = {*names.fpuzzles, *names.fpuzzles_cell, *names.fpuzzles_negative}
        if read:
            declared[module] = read
    assert {module: set(keys) for module, keys in FPUZZLES_INDEX.items()} == declared
    assert all(k.__module__.rpartition(".")[2] in BUILT_IN for k in KINDS[:len(BUILT_IN)])


_READ_EACH = """
import json, sys
from sudoku_csp.io import parse, to_line
texts = json.loads(sys.stdin.read())
puzzles, loaded = [], []
for text in texts:  # each recorded before any is written: a JSON writer loads every kind
    puzzles.append(parse(text))
    loaded.append(sorted(m for m in sys.modules if m.startswith("sudoku_csp.constraints.kinds.")))
print(json.dumps({"lines": [to_line(p) for p in puzzles], "loaded": loaded}))
"""


@pytest.mark.filterwarnings("ignore::sudoku_csp.errors.ReaderNote")
def test_the_fpuzzles_reader_loads_the_kinds_a_document_names():
    # Reading a link imports the kinds of the keys it holds (FPUZZLES_INDEX), not the
    # registry's every kind (about 30 modules, 15 ms of a command's start); what is read is
    # what the reader with every kind loaded reads.
    from cases import published

    from sudoku_csp.io import parse, to_line

    entries = published()
    proc = subprocess.run([sys.executable, "-c", _READ_EACH], input=json.dumps(
        [e["url"] for e in entries]), capture_output=True, text=True, timeout=120, check=True)
    got = json.loads(proc.stdout)
    from sudoku_csp.constraints import KINDS

    expected: set[str] = set()
    for entry, line, loaded in zip(entries, got["lines"], got["loaded"], strict=True):
        puzzle = parse(entry["url"])
        document = entry["fpuzzles"]
        keys = {*document, *(k for row in document["grid"] for cell in row for k in cell),
                *document.get("negative", [])}
        named = {kind.__module__ for kind in KINDS if keys & {
            *kind.names.fpuzzles, *kind.names.fpuzzles_cell, *kind.names.fpuzzles_negative}}
        assert {type(c).__module__ for c in puzzle.constraints} <= named
        expected |= named
        assert set(loaded) == expected, entry["title"]
        assert line == to_line(puzzle), entry["title"]
    assert len(expected) < 15  # the check above saw a subset of the kinds


def test_count_a_link_loads_the_kinds_it_names():
    from cases import published

    code, out, err, loaded = _run("count", published("Sandwich Sudoku")[0]["url"])
    assert code == 0 and "unique" in out, err
    kinds = set(_among(loaded, ("sudoku_csp.constraints.kinds",)))
    assert kinds == {"sudoku_csp.constraints.kinds", "sudoku_csp.constraints.kinds.sandwich"}


def test_count_a_plain_puzzle_loads_no_kind():
    # The killer line's and the pencil marks' readers import their kinds when they make
    # one (issue 34: start-up).
    code, out, _, loaded = _run("count", PUZZLE)
    assert code == 0 and "unique" in out
    assert not _among(loaded, ("sudoku_csp.constraints.kinds",))


def test_a_document_the_reader_refuses_is_told_every_rule_it_knows():
    # The messages that list what the tool knows list every kind's, though the reader
    # loaded only the kinds the document names.
    script = ("from sudoku_csp.io import parse\n"
              "try:\n"
              "    parse('{\"size\": 4, \"grid\": [[{}, {}, {}, {}], [{}, {}, {}, {}], '\n"
              "          '[{}, {}, {}, {}], [{}, {}, {}, {}]], \"negative\": [\"nope\"]}')\n"
              "except Exception as exc:\n"
              "    print(exc)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "'nope' is no negative rule this tool knows (it knows difference, ratio, sum, xv)" \
        in proc.stdout, proc.stdout


def test_the_json_index_is_what_the_kinds_declare():
    # JSON_INDEX is an index like FPUZZLES_INDEX: each built-in kind's module with the JSON
    # fields its Names declare.
    from sudoku_csp.constraints import BUILT_IN
    from sudoku_csp.constraints.registry import JSON_INDEX, kind_of_module

    declared = {module: set(kind_of_module(f"sudoku_csp.constraints.kinds.{module}").names.json)
                for module in BUILT_IN}
    assert {module: set(keys) for module, keys in JSON_INDEX.items()} == declared


def test_the_json_reader_loads_the_kinds_a_record_names():
    # The tool's own JSON, as the generated puzzles of few givens come: a record imports
    # the kinds of the fields it holds (JSON_INDEX), not every kind (about 30 modules, most
    # of a cold `count`'s reading), and reads what the reader with every kind loaded reads,
    # constraints in the registry's order; a field no kind reads is refused with every
    # kind's fields listed.
    from cases import CONSTRAINED_CASES

    from sudoku_csp.io import parse, puzzle_record, to_line

    puzzles = [case.puzzle() for case in CONSTRAINED_CASES]
    both = puzzles[0]  # a 4×4 killer, with a thermometer of the 4×4 thermo case's too
    thermo = next(p for p in puzzles if p.geometry == both.geometry and any(
        type(c).__name__ == "Thermo" for c in p.constraints))
    records = [puzzle_record(p) for p in puzzles]
    records.append({**puzzle_record(thermo), **puzzle_record(both)})
    proc = subprocess.run([sys.executable, "-c", _READ_EACH],
                          input=json.dumps([json.dumps(r) for r in records]),
                          capture_output=True, text=True, timeout=120, check=True)
    got = json.loads(proc.stdout)
    expected: set[str] = set()
    for record, line, loaded in zip(records, got["lines"], got["loaded"], strict=True):
        puzzle = parse(json.dumps(record))
        assert line == to_line(puzzle)
        expected |= {type(c).__module__ for c in puzzle.constraints}
        assert set(loaded) == expected
    assert len(parse(json.dumps(records[-1])).constraints) == len(both.constraints) + len(
        [c for c in thermo.constraints if type(c).__name__ == "Thermo"])
    assert len(expected) < 10  # a subset of the kinds
    script = ("from sudoku_csp.io import parse\n"
              "try:\n"
              "    parse('{\"size\": 4, \"thermos\": [], \"nope\": 1}')\n"
              "except Exception as exc:\n"
              "    print(exc)\n")
    refused = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=120, check=True).stdout
    assert "unknown field: expected" in refused and "little_killers" in refused, refused


def test_count_a_json_record_loads_the_kinds_it_names():
    from cases import CONSTRAINED_CASES

    from sudoku_csp.io import json_line

    thermo = next(c for c in CONSTRAINED_CASES if c.name == "thermo9").puzzle()
    code, out, err, loaded = _run("count", json_line(thermo))
    assert code == 0 and "unique" in out, err
    kinds = set(_among(loaded, ("sudoku_csp.constraints.kinds",)))
    assert kinds == {"sudoku_csp.constraints.kinds", "sudoku_csp.constraints.kinds.thermo"}


_REGISTER_THEN_READ = """
import json
from dataclasses import dataclass
from sudoku_csp.constraints import Names, register
from sudoku_csp.constraints.kinds.thermo import Thermo
from sudoku_csp.io import parse

@dataclass(frozen=True)
class Warm(Thermo):
    names = Names("warm line", json=("warmlines",), fpuzzles=("warmline",),
                  fpuzzles_cell=("warmcell",), fpuzzles_negative=("warmth",))

    @classmethod
    def from_fpuzzles(cls, document, geometry):
        return [cls((0, 1))]

    @classmethod
    def from_json(cls, fields, geometry):
        return [cls((0, 1))]

register(Warm)
grid = [[{} for _ in range(4)] for _ in range(4)]
said = []
for extra in ({"warmline": [1]}, {"negative": ["warmth"]}, {"cell": True},
              {"warmline": [1], "coldline": [1]}):
    rows = json.loads(json.dumps(grid))
    if extra.pop("cell", False):
        rows[3][3]["warmcell"] = True
    try:
        puzzle = parse(json.dumps({"size": 4, "grid": rows, **extra}))
        said.append([type(c).kind for c in puzzle.constraints])
    except Exception as exc:
        said.append(str(exc))
said.append([type(c).kind for c in parse('{"size": 4, "warmlines": [["A1", "A2"]]}')
                                      .constraints])
print(json.dumps(said))
"""


def test_a_kind_registered_at_run_time_reads_its_fpuzzles_keys():
    # The reader imports only the built-in kinds a document names (FPUZZLES_INDEX); once a
    # kind is registered it must still be handed its top-level key, its cell key and its
    # negative word (never refused, never skipped), and a key no kind reads still refused.
    proc = subprocess.run([sys.executable, "-c", _REGISTER_THEN_READ], capture_output=True,
                          text=True, timeout=120, check=True)
    said = json.loads(proc.stdout)
    assert said[:3] == [["warm line"]] * 3, said
    assert "coldline: not a rule this tool knows" in said[3], said
    assert said[4] == ["warm line"], said  # and its JSON field (json_readers)


@pytest.mark.parametrize("args", [
    ("count", PUZZLE),
    pytest.param(("solve", PUZZLE), marks=pytest.mark.slow),
    ("count", "1234" + "." * 77),  # clashing givens: the conflict report
    pytest.param(("count", KILLER4), marks=pytest.mark.slow),
    ("count", "not a puzzle"),  # an input error on stderr
    pytest.param(("show", PUZZLE), marks=pytest.mark.slow),
    pytest.param(("--version",), marks=pytest.mark.slow),
], ids=["count", "solve", "clash", "killer", "error", "show", "version"])
@pytest.mark.parametrize("tty", [False, True], ids=["pipe", "terminal"])
def test_output_is_what_richs_consoles_write(args, tty):
    # Output to a pipe is written without rich (issue 34: start-up), byte for byte as its
    # consoles write it; a terminal's is rich's own, in colour.
    def run(*more):
        code, out, err, loaded = _run(*more, *args, tty=tty)
        return code, _MS.sub("ms", out), err, "rich.console" in loaded

    lazy, rich = run(), run("--rich")
    assert lazy[:3] == rich[:3]
    assert lazy[1] or lazy[2]
    assert lazy[3] is (tty and bool(lazy[1])), "rich loaded for a pipe, or not for a terminal"
    if tty and args[0] in ("solve", "count") and lazy[0] == 0:
        assert "\x1b[" in lazy[1]  # the grid in colour: the terminal's output was looked at


_MS = re.compile(r"[0-9.]+ ms")


def _written(make, tty: bool, objects, stderr: bool) -> tuple[bytes, bool, bool]:
    """What a console made by ``make`` writes of ``objects`` (each printed, with its
    keywords; None where to look) to a pipe or a terminal, whether it says it writes to a
    terminal, and whether rich's console had been made at None."""
    master, slave = os.openpty() if tty else os.pipe()
    with open(slave, "w", encoding="utf-8") as file:
        saved = sys.stderr if stderr else sys.stdout
        try:
            if stderr:
                sys.stderr = file
            else:
                sys.stdout = file
            console = make()
            terminal = console.is_terminal
            for printed in objects:
                if printed is None:
                    made = getattr(console, "_console", True) is not None
                else:
                    console.print(printed[0], **printed[1])
        finally:
            if stderr:
                sys.stderr = saved
            else:
                sys.stdout = saved
    if tty:
        return _drain(master), terminal, made
    with open(master, "rb") as reader:
        return reader.read(), terminal, made


@pytest.mark.parametrize("env", [
    {}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "1"},
    {"TTY_COMPATIBLE": "0"}, {"NO_COLOR": "1"}, {"TERM": "dumb"}, {"COLUMNS": "8"},
], ids=["plain", "force-colour", "force-colour-empty", "tty-compatible", "tty-incompatible",
        "no-colour", "dumb", "narrow"])
@pytest.mark.parametrize("tty", [False, True], ids=["pipe", "terminal"])
@pytest.mark.parametrize("stderr", [False, True], ids=["stdout", "stderr"])
def test_a_lazy_console_writes_what_richs_console_writes(env, tty, stderr, monkeypatch):
    from rich.console import Console

    from sudoku_csp.cli.console import LazyConsole, Styled

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TERM", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    grid = Styled()
    for ch in "5 3 | 4\n--+--\n1 . | 2":
        grid.append(ch, "" if ch in " \n" else "dim" if ch in "|-+" else
                    "bold" if ch in "53" else "cyan")
    objects = [(grid, {}), ("multiple · 3.09 ms · native", {}), ("", {}),
               ("two\nlines", {}), ("a [bold]b[/bold]", {"markup": False}), ("x" * 120, {}),
               ("é ü ·", {}), (":smile: text", {}),
               None,  # what rich changes, which rich writes:
               ("a\ttab", {"markup": False}), ("ends in spaces   ", {}),
               ("ends  \nin spaces", {}), ("bell\x07 and \r return", {"markup": False}),
               ("a [bold]b[/bold] [1, 2]", {}), ("then plain", {})]
    ours = _written(lambda: LazyConsole(stderr=stderr), tty, objects, stderr)
    theirs = _written(lambda: Console(stderr=stderr, highlight=False, soft_wrap=True,
                                      emoji=False), tty, objects, stderr)
    assert ours[:2] == theirs[:2]
    # Without rich: a pipe, and nothing that says to write in colour.
    assert ours[2] is (tty or "FORCE_COLOR" in env or "TTY_COMPATIBLE" in env)


def test_the_entry_point_leaves_the_start_ups_objects_to_no_collection():
    # The garbage collector does not walk what the imports made, nor everything again at
    # exit (issue 34: start-up), but it collects while a command runs and after.
    script = ("import gc, sys\n"
              f"sys.argv = ['sudoku-csp', 'count', {PUZZLE!r}]\n"
              "from sudoku_csp.__main__ import main\n"
              "def seen(phase, info):\n"
              "    if phase == 'start' and 'sudoku_csp.cli.solving' in sys.modules \\\n"
              "            and not hasattr(seen, 'frozen'):\n"
              "        seen.frozen = gc.get_freeze_count()\n"
              "gc.callbacks.append(seen)\n"
              "try:\n"
              "    main()\n"
              "finally:\n"
              "    gc.collect()\n"
              "    print(gc.isenabled(), getattr(seen, 'frozen', 0), gc.get_freeze_count(),\n"
              "          file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    enabled, while_running, at_exit = proc.stderr.split()
    assert enabled == "True"
    assert int(while_running) > 10_000  # the command's collections left the imports' alone
    assert int(at_exit) > int(while_running)  # frozen again at the end
