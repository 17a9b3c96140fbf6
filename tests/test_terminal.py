"""What a person at a terminal sees, run through a real pseudo-terminal (Linux ``pty``): the
progress bar lives on the terminal (stderr) and every result still reaches standard output,
whatever standard output is."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

import sudoku_csp

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pty")

# More than the progress bar's threshold (cli.output.PROGRESS_AFTER): a bar is shown.
MIXED9 = [line for line in (Path(sudoku_csp.__file__).parent / "data" / "mixed9.txt")
          .read_text().splitlines() if line and not line.startswith("#")]
MANY = (MIXED9 * 3)[:400]


def on_terminal(args: list[str], *, columns: int = 100, cwd: Path | None = None,
                terminal: str = "stderr") -> tuple[int, str, str]:
    """(exit code, the other stream, what the terminal showed) of ``sudoku-csp ARGS`` whose
    ``terminal`` stream (``stderr``, as in ``cmd | wc -l``, or ``stdout``) is a
    ``columns``-wide terminal and whose other stream is a pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns)}
    env.pop("NO_COLOR", None)
    streams = ({"stdout": subprocess.PIPE, "stderr": slave} if terminal == "stderr"
               else {"stdout": slave, "stderr": subprocess.PIPE})
    proc = subprocess.Popen([sys.executable, "-m", "sudoku_csp", *args], **streams,
                            stdin=subprocess.DEVNULL, env=env, cwd=cwd)
    os.close(slave)
    screen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the last writer has gone
                return
            if not chunk:
                return
            screen.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    out, err = proc.communicate(timeout=120)
    reader.join(timeout=30)
    os.close(master)
    piped = out if terminal == "stderr" else err
    return proc.returncode, piped.decode(), b"".join(screen).decode(errors="replace")


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("terminal") / "many.txt"
    path.write_text("\n".join(MANY) + "\n")
    return path


@pytest.mark.parametrize("command", ["solve", "count"])
def test_results_reach_stdout_while_the_bar_is_on_the_terminal(many, command):
    code, out, screen = on_terminal([command, str(many)])
    assert code == 0, screen
    lines = out.splitlines()
    assert len(lines) == len(MANY)
    assert [line.split("\t")[0] for line in lines] == [str(i) for i in range(1, 401)]
    assert "\t" not in screen  # no result line went to the terminal


def test_check_with_out_file_keeps_stdout(many, tmp_path):
    records = tmp_path / "r.jsonl"
    code, out, screen = on_terminal(["check", str(many), "-s", "native", "-s", "sat",
                                     "--out", str(records)])
    assert code == 0, screen
    assert len(out.splitlines()) == len(MANY)
    assert len(records.read_text().splitlines()) == 2 * len(MANY)
    assert "checked with native, sat" in screen  # the summary line is for the person
