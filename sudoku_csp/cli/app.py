"""The typer application: its name, help (with the exit-code table) and ``--version``.

The commands live in :mod:`sudoku_csp.cli.solving`, :mod:`sudoku_csp.cli.explain`,
:mod:`sudoku_csp.cli.setter`, :mod:`sudoku_csp.cli.kinds`,
:mod:`sudoku_csp.cli.generating` and :mod:`sudoku_csp.cli.research`, and register
themselves on :data:`app` when imported. A module is imported when a command of its is first
needed (:data:`COMMANDS` says where each lives), so that ``sudoku-csp solve`` loads neither
the explainer nor the generator, nor the tables their options' help is made of, and
``sudoku-csp --help`` lists every command by its summary in :data:`COMMANDS`, loading none
(issue 24.7: start-up; tests/test_startup.py).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import re
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_command_name

from sudoku_csp import __version__
from sudoku_csp.cli.exits import exit_help
from sudoku_csp.cli.output import out

COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("solving", "Solve puzzles: a grid for one, a line each for a file."),
    "count": ("solving", "Decide uniqueness: unique, multiple, none or unknown."),
    "show": ("solving", "Show a puzzle: its grid, rules and (-c) candidates left."),
    "check": ("solving", "Cross-check puzzles on several solvers: do they agree?"),
    "compare": ("solving", "Compare solver strategies on files: a row per solver."),
    "solvers": ("solving", "List every backend, its options and their values."),
    "kinds": ("kinds", "List every constraint kind, its names and backends."),
    "explain": ("explain", "Solve a puzzle as a person would, step by step; rate it."),
    "hint": ("explain", "The next step only: the simplest technique that works."),
    "rate": ("explain", "Rate puzzles on Sudoku Explainer's scale (ER/EP/ED)."),
    "candidates": ("setter", "True candidates: the digits solutions put in each cell."),
    "disambiguate": ("setter", "Givens that make a puzzle of several solutions unique."),
    "generate": ("generating", "Generate unique puzzles: minimal, rated or constrained."),
    "encode": ("research", "Write a puzzle as DIMACS CNF, its typed constraints too."),
    "certify": ("research", "Certify uniqueness: the solution, a CNF, a DRUP proof."),
    "verify-certificate": ("research", "Check a certificate by RUP, trusting no solver."),
    "minimal": ("research", "Is each puzzle unique, and is every given necessary?"),
    "canon": ("research", "Print each puzzle's minlex canonical form."),
    "study": ("research", "Encodings study: propagation and search per encoding."),
    "serve": ("serving", "Serve the solver to the f-puzzles editor and a page."),
}
"""Every command, in the order ``--help`` lists them: the module of :mod:`sudoku_csp.cli`
that defines it, and its summary (the first paragraph of its docstring, which ``--help``
shows without importing the module). tests/test_startup.py holds this table to what the
modules register and to their docstrings."""


def prose(doc: str | None) -> str | None:
    """A command's docstring as ``--help`` shows it: each paragraph one line, which rich
    wraps to the terminal. Typer's rich help keeps a docstring's own line breaks, which
    broke sentences mid-line at any width but the source's. A paragraph that starts with
    ``\\b`` (click's mark) keeps its lines.

    >>> prose("Summary.\\n\\n    One sentence\\n    over two lines.\\n\\n    \\b\\n    a\\n    b")
    'Summary.\\n\\nOne sentence over two lines.\\n\\n\\x08\\na\\nb'
    """
    if doc is None:
        return None
    return "\n\n".join(part if part.startswith("\b") else " ".join(part.split())
                       for part in inspect.cleandoc(doc).split("\n\n"))


def _as_prose(command: Any) -> Any:
    """``command`` with its help as :func:`prose`."""
    command.help = prose(command.help)
    return command


_INTEGER = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_NOT_PLAIN = object()


def _plain_value(annotation: Any, info: Any, value: Any) -> Any:
    """``value`` as typer's own coercion gives it for the plain cases (text, a flag's
    bool, a list of texts, a decimal integer or number within its range), else
    :data:`_NOT_PLAIN`."""
    if annotation in (str, bool):
        return value if type(value) is annotation else _NOT_PLAIN
    if annotation == list[str]:
        plain = isinstance(value, list | tuple) and all(type(v) is str for v in value)
        return list(value) if plain else _NOT_PLAIN
    if annotation not in (int, float):
        return _NOT_PLAIN
    if type(value) is str:
        if not (_INTEGER if annotation is int else _DECIMAL).fullmatch(value):
            return _NOT_PLAIN
    elif not (type(value) is int or type(value) is annotation):
        return _NOT_PLAIN
    number = annotation(value)
    if (info.min is not None and number < info.min) or (info.max is not None
                                                        and number > info.max):
        return _NOT_PLAIN  # typer's words for it, or its clamp
    return number


@functools.cache
def _plain_param_class() -> type | None:
    """typer's coercion contract, kept for the plain cases without pydantic: typer 0.2x
    builds a pydantic adapter for every parameter of the command that runs, which imports
    pydantic (about 45 ms) and builds 19 adapters for ``count`` (11 ms), where the values
    are a puzzle's text, a spec, a limit. Anything else (a choice, a path, a value out of
    range, a wrong one) goes to typer's own coercion, so its values and its error messages
    stay typer's. None with a typer that has no such contract: typer's coercion then."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:
        return None

    @dataclasses.dataclass(frozen=True)
    class PlainParam(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            plain = _plain_value(self.annotation, self.parameter_info, value)
            if plain is not _NOT_PLAIN:
                return plain
            param._runtime_param = own = build_runtime_param(param.type_descriptor)
            return own._coerce_value(value, param=param, ctx=ctx)

    return PlainParam


def plain_coercion(params: list[Any]) -> list[Any]:
    """``params`` (a command's), those of plain types given a coercion without pydantic
    (see :func:`_plain_param_class`); the others, and any value that is not plain, are
    coerced as typer coerces them."""
    plain = _plain_param_class()
    for param in params:
        desc = getattr(param, "type_descriptor", None)
        if plain is None or desc is None or desc.file_annotation is not None \
                or getattr(param, "_runtime_param", False) is not None \
                or desc.parameter_info.parser is not None or desc.is_choice \
                or not (desc.annotation in (str, bool, int, float)
                        or desc.annotation == list[str]):
            continue
        param._runtime_param = plain(desc.parameter_info, desc.annotation)
    return params


class PlainCommand(TyperCommand):
    """typer's command, its parameters of plain types coerced without pydantic
    (:func:`plain_coercion`): every command of the app is built as one."""

    def get_params(self, ctx: Any) -> list[Any]:
        return plain_coercion(super().get_params(ctx))


class _Commands(MutableMapping[str, Any]):
    """The group's commands by name: every name of :data:`COMMANDS` is there from the start,
    and a command is built (its module imported, then typer's click command made from it)
    the first time it is looked up."""

    def __init__(self, built: Mapping[str, Any]) -> None:
        self.built = {name: _as_prose(command) for name, command in built.items()}
        for command in self.built.values():  # built by typer (their modules were imported)
            if type(command) is TyperCommand:
                command.__class__ = PlainCommand  # the same command, plainly coerced

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            if name not in COMMANDS:
                raise KeyError(name)
            importlib.import_module(f"sudoku_csp.cli.{COMMANDS[name][0]}")
            for info in app.registered_commands:
                assert info.callback is not None
                if (info.name or get_command_name(info.callback.__name__)) == name:
                    if info.cls in (None, TyperCommand):  # a command of its own class keeps it
                        info.cls = PlainCommand
                    self.built[name] = _as_prose(get_command_from_info(
                        info, pretty_exceptions_short=app.pretty_exceptions_short,
                        rich_markup_mode=app.rich_markup_mode))
                    break
            else:
                raise KeyError(name)
        return self.built[name]

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self.built

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*COMMANDS, *self.built]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*COMMANDS, *self.built]))

    def __setitem__(self, name: str, command: Any) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]


class LazyGroup(TyperGroup):
    """typer's group, with commands built when first looked up (see :class:`_Commands`), so
    that running one command builds that command only. The group's own help and the shell's
    completion of a command name show each command's summary: one not built yet stands
    there as a command of that summary alone (:data:`COMMANDS`), which is what they read of
    it, so the list costs no import."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.lazy = _Commands(self.commands)
        self.commands = self.lazy
        self.summaries = False  # while listing: commands not built yet stand as summaries

    def get_params(self, ctx: Any) -> list[Any]:
        return plain_coercion(super().get_params(ctx))  # --version, --help, completion

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.lazy)  # the names: nothing is built

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if self.summaries and cmd_name in COMMANDS and cmd_name not in self.lazy.built:
            return TyperCommand(name=cmd_name, help=COMMANDS[cmd_name][1])
        return self.lazy.get(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.summaries = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.summaries = False

    def shell_complete(self, ctx: Any, incomplete: str) -> Any:
        self.summaries = True
        try:
            return super().shell_complete(ctx, incomplete)
        finally:
            self.summaries = False


app = typer.Typer(
    name="sudoku-csp",
    cls=LazyGroup,
    help="Solve, count and study Sudoku puzzles with three independent solvers.\n\n"
         + exit_help(),
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"sudoku-csp {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Solve, count and study Sudoku puzzles with three independent solvers."""
