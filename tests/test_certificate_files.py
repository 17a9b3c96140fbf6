"""Hostile certificate folders: verify_certificate reads only regular files directly inside the
folder, within size limits, never quotes their content, and tells unreadable (CLI exit 6) from
read-but-wrong (exit 8).

The tests that could hang or exhaust memory before the checker was hardened (a FIFO, a link to
/dev/zero, a huge sparse file) run the checker in a child process with a time limit and an
address-space limit, so that they fail instead of taking the machine with them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cases import BY_NAME
from typer.testing import CliRunner

import sudoku_csp
from sudoku_csp import parse
from sudoku_csp.certify import (
    FORMULA,
    MANIFEST,
    MANIFEST_LIMIT,
    PROOF,
    certificate_formula,
    certify,
    formula_limit,
    proof_limit,
    verify_certificate,
)
from sudoku_csp.cli import Exit, app

SECRET = "SECRET-CONTENT"

posix_only = pytest.mark.skipif(sys.platform == "win32",
                                reason="symbolic links, FIFOs and rlimits as on POSIX")


def _limits(folder: Path) -> tuple[int, int]:
    """``(formula limit, proof limit)`` of the formula the folder's manifest implies."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    puzzle = parse(manifest["puzzle"])
    nv, clauses = certificate_formula(puzzle, parse(manifest["solution"]).givens)
    return formula_limit(nv, clauses), proof_limit(nv, clauses)


def _refused(check, name: str) -> None:
    assert not check.ok
    assert check.unreadable, check.reason
    assert check.reason.startswith(f"cannot read {name}:"), check.reason


# -- in a child process: what could block or fill memory -----------------------------------
_CHILD = textwrap.dedent("""
    import json, resource, sys
    sys.path.insert(0, sys.argv[3])  # the parent's sudoku_csp, not one found from the cwd
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from sudoku_csp.certify import verify_certificate

    def bytes_read():  # all read() calls of this process so far (Linux), else None
        try:
            with open("/proc/self/io") as io:
                return next(int(line.split()[1]) for line in io if line.startswith("rchar:"))
        except OSError:
            return None

    before = bytes_read()
    check = verify_certificate(sys.argv[1])
    after = bytes_read()
    print(json.dumps({"ok": check.ok, "unreadable": getattr(check, "unreadable", None),
                      "reason": check.reason,
                      "read": None if before is None else after - before}))
""")


_ROOT = str(Path(sudoku_csp.__file__).resolve().parent.parent)


def _verify_in_child(folder: Path, *, seconds: float = 30, memory: int = 1 << 30) -> dict:
    """verify_certificate(folder) in a child limited to ``memory`` bytes of address space,
    killed after ``seconds``: its verdict as a dict, or a test failure."""
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(folder), str(memory), _ROOT],
                              capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.fail(f"verify_certificate still running after {seconds} s")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def _refused_in_child(verdict: dict, name: str, why: str) -> None:
    assert verdict["ok"] is False and verdict["unreadable"] is True, verdict
    assert verdict["reason"].startswith(f"cannot read {name}:"), verdict
    assert why in verdict["reason"], verdict
    # Refused before reading it, not after a long read: what the checker read is counted in
    # bytes (where the system counts them: about 0.3 MB, its own modules loading), not timed.
    # Reading up to a file's limit before refusing it (1.5 MB for the formula of a 9x9 grid,
    # more for its proof) would pass 1 MB.
    if verdict["read"] is not None:
        assert verdict["read"] < 1 << 20, verdict


@posix_only
def test_symlink_to_dev_zero_is_refused_quickly(copy):
    (copy / FORMULA).unlink()
    (copy / FORMULA).symlink_to("/dev/zero")
    _refused_in_child(_verify_in_child(copy), FORMULA, "symbolic link")


@posix_only
def test_fifo_proof_is_refused_without_blocking(copy):
    (copy / PROOF).unlink()
    os.mkfifo(copy / PROOF)  # no writer ever opens it: a blocking open would wait forever
    _refused_in_child(_verify_in_child(copy), PROOF, "FIFO")


@posix_only
def test_huge_sparse_formula_is_refused_unread(copy):
    with open(copy / FORMULA, "r+b") as handle:
        handle.truncate(8 << 30)  # 8 GB that take no disk space, and would not fit in memory
    verdict = _verify_in_child(copy, memory=1 << 30)
    _refused_in_child(verdict, FORMULA, "too large")
    assert f"{8 << 30} bytes > limit {_limits(copy)[0]}" in verdict["reason"]


# -- refused: not a regular file directly inside, or over its limit --------------------------
@posix_only
@pytest.mark.parametrize(("name", "content"), [
    (MANIFEST, f'{{"format": "{SECRET}"}}\n'),
    (MANIFEST, f"{SECRET}\n"),
    (FORMULA, f"p cnf 729 1\n{SECRET} 0\n"),  # int() would have quoted the token
    (PROOF, f"{SECRET}\n"),  # the proof parser would have quoted the line
])
def test_symlink_to_a_secret_is_refused_without_quoting_it(copy, tmp_path, name, content):
    secret = tmp_path / "elsewhere.txt"
    secret.write_text(content, encoding="utf-8")
    (copy / name).unlink()
    (copy / name).symlink_to(secret)
    check = verify_certificate(copy)
    _refused(check, name)
    assert "symbolic link" in check.reason
    assert SECRET not in check.reason


@posix_only
def test_symlink_to_a_file_inside_the_folder_is_refused_too(copy):
    (copy / "proof.copy").write_bytes((copy / PROOF).read_bytes())
    (copy / PROOF).unlink()
    (copy / PROOF).symlink_to("proof.copy")  # relative, same folder: still not followed
    _refused(verify_certificate(copy), PROOF)


def test_directory_in_place_of_a_file_is_refused(copy):
    (copy / PROOF).unlink()
    (copy / PROOF).mkdir()
    check = verify_certificate(copy)
    _refused(check, PROOF)
    assert "directory" in check.reason


def test_missing_file_is_unreadable(copy, tmp_path):
    (copy / FORMULA).unlink()
    _refused(verify_certificate(copy), FORMULA)
    check = verify_certificate(tmp_path / "nowhere")
    assert not check.ok and check.unreadable and "cannot read" in check.reason


def test_oversized_proof_is_refused(copy):
    proof_cap = _limits(copy)[1]
    size = (copy / PROOF).stat().st_size
    junk = "c " + "x" * 998 + "\n"  # comment lines: without the limit the proof still checks
    with open(copy / PROOF, "a", encoding="utf-8") as handle:
        handle.write(junk * ((proof_cap - size) // len(junk) + 1))
    grown = (copy / PROOF).stat().st_size
    assert grown > proof_cap
    check = verify_certificate(copy)
    _refused(check, PROOF)
    assert f"too large ({grown} bytes > limit {proof_cap})" in check.reason


def test_oversized_formula_is_refused(copy):
    formula_cap = _limits(copy)[0]
    with open(copy / FORMULA, "r+b") as handle:
        # Comment lines before the header: the clauses are still exactly the formula.
        body = handle.read()
        handle.seek(0)
        handle.write(b"c padding\n" * (formula_cap // 10 + 1) + body)
    check = verify_certificate(copy)
    _refused(check, FORMULA)
    assert "too large" in check.reason


def test_oversized_manifest_is_refused(copy):
    manifest = json.loads((copy / MANIFEST).read_text(encoding="utf-8"))
    padded = json.dumps(manifest) + " " * MANIFEST_LIMIT  # still valid JSON
    (copy / MANIFEST).write_text(padded, encoding="utf-8")
    check = verify_certificate(copy)
    _refused(check, MANIFEST)
    assert f"> limit {MANIFEST_LIMIT}" in check.reason


# -- read, wrong, and never quoted ------------------------------------------------------------
def _set_manifest(folder: Path, key: str, value) -> None:
    path = folder / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest[key] = value
    path.write_text(json.dumps(manifest), encoding="utf-8")


def _replace_clause(folder: Path, text: str) -> None:
    lines = (folder / FORMULA).read_text(encoding="utf-8").splitlines()
    p_at = next(i for i, line in enumerate(lines) if line.startswith("p "))
    lines[p_at + 10] = text
    (folder / FORMULA).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _replace_p_line(folder: Path, text: str) -> None:
    lines = (folder / FORMULA).read_text(encoding="utf-8").splitlines()
    p_at = next(i for i, line in enumerate(lines) if line.startswith("p "))
    lines[p_at] = text
    (folder / FORMULA).write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("name", "tamper"), [
    (PROOF, lambda f: (f / PROOF).write_text(f"{SECRET}\n", encoding="utf-8")),
    (PROOF, lambda f: (f / PROOF).write_bytes(b"1 0\n\xff" + SECRET.encode() + b"\n")),
    (FORMULA, lambda f: _replace_clause(f, f"{SECRET} 0")),
    (FORMULA, lambda f: _replace_p_line(f, f"p cnf {SECRET} 12006")),
    (MANIFEST, lambda f: _set_manifest(f, "geometry", {"size": SECRET})),
    (MANIFEST, lambda f: _set_manifest(f, "encoding", SECRET)),
    (MANIFEST, lambda f: _set_manifest(f, "amo", SECRET)),
    (MANIFEST, lambda f: _set_manifest(f, "puzzle", SECRET * 6)),
    (MANIFEST, lambda f: (f / MANIFEST).write_bytes(b'{"\xff' + SECRET.encode() + b'": 1}')),
    (MANIFEST, lambda f: (f / MANIFEST).write_text(f'{{"{SECRET}": ', encoding="utf-8")),
], ids=["proof-line", "proof-not-utf8", "formula-token", "formula-p-line", "geometry",
        "encoding", "amo", "puzzle", "manifest-not-utf8", "manifest-not-json"])
def test_wrong_content_is_invalid_and_never_quoted(copy, name, tamper):
    tamper(copy)
    check = verify_certificate(copy)
    assert not check.ok and not check.unreadable, check.reason
    assert name in check.reason
    assert SECRET not in check.reason and "SECRET" not in check.reason
    assert "\\xff" not in check.reason and "0xff" not in check.reason


def test_manifest_nested_too_deeply_is_invalid(copy):
    (copy / MANIFEST).write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    check = verify_certificate(copy)
    assert not check.ok and not check.unreadable and MANIFEST in check.reason


# -- real certificates stay well inside the limits ------------------------------------------
@pytest.mark.slow
def test_a_16x16_certificate_is_well_inside_the_limits(tmp_path):
    certify(BY_NAME["16x16"].puzzle(), tmp_path)
    formula_cap, proof_cap = _limits(tmp_path)
    assert 3 * (tmp_path / FORMULA).stat().st_size < formula_cap
    assert 100 * (tmp_path / PROOF).stat().st_size < proof_cap
    assert 100 * (tmp_path / MANIFEST).stat().st_size < MANIFEST_LIMIT
    check = verify_certificate(tmp_path)
    assert check.ok and not check.unreadable, check.reason


def test_the_9x9_certificate_is_well_inside_the_limits(certificate):
    formula_cap, proof_cap = _limits(certificate)
    assert 3 * (certificate / FORMULA).stat().st_size < formula_cap
    assert 100 * (certificate / PROOF).stat().st_size < proof_cap
    check = verify_certificate(certificate)
    assert check.ok and not check.unreadable, check.reason


# -- the command line: 6 unreadable, 8 invalid, 0 valid ---------------------------------------
runner = CliRunner()


def _run(folder: Path):
    return runner.invoke(app, ["verify-certificate", str(folder)])


def _one_error_line(result, *words: str) -> None:
    assert result.exit_code == Exit.INPUT, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("error: cannot read"), result.stderr
    assert all(word in result.stderr for word in words), result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert "INVALID" not in result.stdout


def test_cli_missing_proof_exits_6(copy):
    (copy / PROOF).unlink()
    _one_error_line(_run(copy), PROOF)


@posix_only
def test_cli_symlinked_formula_exits_6_without_quoting(copy, tmp_path):
    secret = tmp_path / "elsewhere.cnf"
    secret.write_text(f"p cnf 1 1\n{SECRET} 0\n", encoding="utf-8")
    (copy / FORMULA).unlink()
    (copy / FORMULA).symlink_to(secret)
    result = _run(copy)
    _one_error_line(result, FORMULA, "symbolic link")
    assert SECRET not in result.output + result.stderr


def test_cli_oversized_proof_exits_6(copy):
    with open(copy / PROOF, "a", encoding="utf-8") as handle:
        handle.write("c padding\n" * (_limits(copy)[1] // 10 + 1))
    _one_error_line(_run(copy), PROOF, "too large")


def test_cli_tampered_certificate_exits_8(copy):
    lines = (copy / PROOF).read_text(encoding="utf-8").splitlines()
    (copy / PROOF).write_text("\n".join(lines[: len(lines) // 3]) + "\n", encoding="utf-8")
    result = _run(copy)
    assert result.exit_code == Exit.INVALID, result.output
    assert result.stdout.startswith("INVALID: proof rejected")


def test_cli_wrong_witness_exits_8(copy):
    manifest = json.loads((copy / MANIFEST).read_text(encoding="utf-8"))
    solution = manifest["solution"]
    _set_manifest(copy, "solution", solution[1] + solution[0] + solution[2:])
    result = _run(copy)
    assert result.exit_code == Exit.INVALID, result.output
    assert "witness" in result.stdout


def test_cli_valid_certificate_exits_0(certificate):
    result = _run(certificate)
    assert result.exit_code == Exit.OK, result.output
    assert result.stdout.startswith("valid:")
