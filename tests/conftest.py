import sys
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
