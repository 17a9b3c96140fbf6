import sys
import time
from pathlib import Path

import pytest

# The shared puzzle cases (tests/cases.py) are imported by name from every test module.
sys.path.insert(0, str(Path(__file__).parent))

from cases import GRID2  # noqa: E402 - needs the path above

from sudoku_csp import parse  # noqa: E402
from sudoku_csp.certify import FORMULA, MANIFEST, PROOF, certify  # noqa: E402


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> Path:
    """A valid certificate for a 17-clue 9×9 puzzle (minimal, so every given matters)."""
    folder = tmp_path_factory.mktemp("cert") / "grid2"
    certify(parse(GRID2), folder)
    return folder


@pytest.fixture()
def copy(certificate, tmp_path) -> Path:
    """A private copy of :func:`certificate` that a test may tamper with."""
    folder = tmp_path / "copy"
    folder.mkdir()
    for name in (MANIFEST, FORMULA, PROOF):
        (folder / name).write_bytes((certificate / name).read_bytes())
    return folder


@pytest.fixture()
def cpu_clock(monkeypatch) -> None:
    """``time.monotonic`` and ``time.perf_counter`` counting this process's CPU time from
    now: a time limit then bounds the work done, which a busy machine does not shrink (it
    only stretches the wall time that work takes). For tests that need a search cut short
    part-way, after it has done some work."""
    start = time.process_time()
    since = {name: getattr(time, name)() for name in ("monotonic", "perf_counter")}
    for name, base in since.items():
        monkeypatch.setattr(time, name, lambda base=base: base + time.process_time() - start)
