"""Append-only JSON Lines logs (skipped.jsonl, flags.jsonl, answer_checks.jsonl).

Invariant: each call appends exactly one complete line, under an exclusive ``flock``, in a
single ``write``; concurrent writers never interleave or tear lines; a lone surrogate in any
text is written escaped (:mod:`readreceipt.store.escaping`), so no line is ever lost to it;
a reader passes over a damaged line and reads on; a log is only ever a regular file of its
own: a symbolic link or a FIFO at its name is refused (OSError), never written through (a
line holds URLs an agent chose, and a link planted in a library could aim it at a shell's
start-up file).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.store.escaping import storable


def append(path: Path, entry: dict[str, Any]) -> None:
    line = (json.dumps(storable(entry), ensure_ascii=False) + "\n").encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise OSError(exc.errno, f"{path.name} is a symbolic link or a FIFO, not a log "
                          "of this library's own") from exc
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{path.name} is not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Iterator[dict[str, Any]]:
    """Each entry of the log, in order. A damaged line (not UTF-8, not JSON, not an object)
    is passed over: it never hides the lines after it."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return
    with handle:
        for raw in handle:
            value = _entry(raw)
            if value is not None:
                yield value


def _entry(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None  # a blank line too
    return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class Tally:
    """A log's entries up to ``offset``, the byte after its last complete line, in the file
    whose inode is ``inode``. A log only grows, so the count goes on from there."""

    inode: int
    offset: int
    entries: int


def tally(path: Path, since: Tally | None) -> tuple[Tally, int]:
    """The log's tally, counted on from ``since`` where that is still this file's (the same
    inode, no longer than the file), from the start otherwise; and 1 if a last line without
    its line break is an entry (a line being written, or an old file's end), else 0.

    The entries are :func:`read`'s, so ``tally(...)[0].entries + tail`` equals the number of
    entries read; the work is linear in the bytes after ``since``."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return Tally(0, 0, 0), 0
    with handle:
        inode = os.fstat(handle.fileno()).st_ino
        size = os.fstat(handle.fileno()).st_size
        start = since if since is not None and since.inode == inode and since.offset <= size \
            else Tally(inode, 0, 0)
        handle.seek(start.offset)
        entries, offset, tail = start.entries, start.offset, 0
        for raw in handle:
            if not raw.endswith(b"\n"):
                tail = int(_entry(raw) is not None)
                break
            offset += len(raw)
            entries += _entry(raw) is not None
    return Tally(inode, offset, entries), tail
