"""Reading a certificate folder that nobody is trusted to have written well: only regular
files directly inside it (no symbolic links, FIFOs or devices), opened relative to the
folder, each within a size limit that follows from the puzzle; reasons that name a file and
what is wrong with it, never what it holds."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

MANIFEST_LIMIT = 1 << 20
"""The most bytes :func:`verify_certificate` reads of ``certificate.json``. The largest one
:func:`certify` writes (a 35×35 jigsaw: puzzle, solution and region map) is about 15 kB, a
25×25 one 1.8 kB; a fixed megabyte leaves room for hand-edited ones, none for a flood."""

COMMENT_SLACK = 1 << 20
"""Bytes allowed in ``formula.cnf`` beyond its clauses, for comment lines (the header
:func:`certify` writes is a few kB; another tool's may be longer)."""

PROOF_SLACK = 4 << 20
"""Bytes allowed in ``proof.drup`` beyond its share of the formula's size (see
:func:`proof_limit`): room for a long search on a small grid, whose formula is tiny."""


def dimacs_size(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """An upper bound on the bytes of the DIMACS text of ``clauses`` over ``1..nv``, comments
    left out: the ``p`` line, then every literal as wide as ``-nv`` plus a space, every
    clause ended by ``0`` and a newline. Sudoku variables mostly have as many digits as
    ``nv``, so this is within a few percent of the exact size (150 kB for a 9×9 formula).

    >>> dimacs_size(3, [(1, -2), (3,)])  # "p cnf 3 2\\n1 -2 0\\n3 0\\n" is 21 bytes
    23
    """
    width = len(str(nv)) + 2
    return (len(f"p cnf {nv} {len(clauses)}\n") + width * sum(map(len, clauses))
            + 2 * len(clauses))


def formula_limit(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """The most bytes :func:`verify_certificate` reads of ``formula.cnf`` for the derived
    formula ``clauses``: three times :func:`dimacs_size`, plus :data:`COMMENT_SLACK`.

    The file must hold exactly these clauses, so a much larger one is wrong anyway; three
    times leaves room for another writer's spacing (CRLF line ends, padded numbers), the
    slack for its comments. A 9×9 file (150 kB) may be 1.5 MB, a 16×16 one (1.7 MB) 6.5 MB,
    a 25×25 one (11 MB) 38 MB.
    """
    return 3 * dimacs_size(nv, clauses) + COMMENT_SLACK


def proof_limit(nv: int, clauses: Sequence[Sequence[int]]) -> int:
    """The most bytes :func:`verify_certificate` reads of ``proof.drup`` for the derived
    formula ``clauses``: four times :func:`dimacs_size`, plus :data:`PROOF_SLACK`.

    A DRUP proof is clauses over the same variables. One formula's worth lets it delete
    every clause of F once (Glucose deletes nearly all: its 9×9 proofs are 0.9 times the
    formula's size); three more let it add and delete learnt clauses amounting to three
    formulas. Real proofs are far smaller (cadical195, measured): 5 kB for a 17-clue 9×9
    (limit 4.8 MB), 31 kB for a 16×16 (limit 11 MB), 128 kB for a 25×25 (limit 54 MB). The
    limit also bounds the checker's memory, which grows with the proof it parses: a proof at
    the limit made of one-literal lines took 150 MB for a 9×9 (about 30 bytes a byte), so the
    limit is a small multiple of the formula rather than a product of counts.
    """
    return 4 * dimacs_size(nv, clauses) + PROOF_SLACK


_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_BINARY", 0))
"""How a certificate file is opened: never through a symbolic link (O_NOFOLLOW), never
waiting (O_NONBLOCK: a FIFO opens at once, then fstat refuses it), bytes as they are
(O_BINARY, Windows). A flag the platform lacks is 0."""

_SYMLINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP)})
"""What ``open`` with O_NOFOLLOW fails with on a symbolic link: Linux, FreeBSD, NetBSD."""

DIR_FD = os.open in os.supports_dir_fd and os.lstat in os.supports_dir_fd
"""Whether files are opened relative to a descriptor of the folder, so that the folder cannot
be swapped for another between being checked and being read from."""

_CHUNK = 1 << 20


class Unreadable(Exception):
    """A certificate file (or folder) left unread; the message names it and says why, never
    quoting its content."""


def why(exc: OSError) -> str:
    # strerror only: str(exc) repeats the path, and the caller names the file already.
    return exc.strerror or type(exc).__name__


def _require_regular(name: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    kind = next((what for test, what in kinds if test(mode)), "a special file")
    raise Unreadable(f"cannot read {name}: it is {kind}, not a regular file")


def open_member(folder: Path, dir_fd: int | None, name: str) -> tuple[int, int]:
    """Open ``name``, which must be a regular file directly inside the certificate folder:
    ``(descriptor, size)``, or :class:`Unreadable`."""
    path = name if dir_fd is not None else str(folder / name)
    try:
        # lstat first, so that a FIFO or a device is refused without being opened at all
        # (opening a device can have effects); the fstat below is what counts, in case the
        # entry is replaced in between.
        _require_regular(name, os.lstat(path, dir_fd=dir_fd).st_mode)
        fd = os.open(path, _OPEN_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        raise Unreadable(f"cannot read {name}: no such file in the folder") from None
    except OSError as exc:
        if exc.errno in _SYMLINK_ERRNOS:
            raise Unreadable(f"cannot read {name}: it is a symbolic link, not a regular "
                              "file") from None
        raise Unreadable(f"cannot read {name}: {why(exc)}") from None
    try:
        info = os.fstat(fd)
        _require_regular(name, info.st_mode)
    except OSError as exc:
        os.close(fd)
        raise Unreadable(f"cannot read {name}: {why(exc)}") from None
    except Unreadable:
        os.close(fd)
        raise
    return fd, info.st_size


def check_size(name: str, size: int, limit: int) -> None:
    if size > limit:
        raise Unreadable(f"cannot read {name}: too large ({size} bytes > limit {limit})")


def read_member(name: str, fd: int, size: int, limit: int) -> bytes:
    """The content of an opened certificate file of at most ``limit`` bytes, or
    :class:`Unreadable`. Reads at most ``limit + 1`` bytes, in chunks, whatever the size
    the file claims (it may grow while being read)."""
    check_size(name, size, limit)
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise Unreadable(f"cannot read {name}: {why(exc)}") from None
    if total > limit:
        raise Unreadable(f"cannot read {name}: too large (it grew past the limit of "
                          f"{limit} bytes while being read)")
    return b"".join(chunks)


def utf8(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Its own message shows the offending bytes: say only where they are.
        raise ValueError(f"{name} is not UTF-8 text (invalid byte at offset {exc.start})"
                         ) from None
