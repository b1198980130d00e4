"""Atomic, durable file writes: a temp file in the same folder, fsync, then link or rename,
then fsync of the folder.

A write is two steps, so that a caller writing several files can overlap their slow parts
(:class:`Staged`): :func:`stage` writes the bytes to a temp file beside the final name and
fsyncs it; :meth:`Staged.publish` links (or renames) it to its name and fsyncs the folder, so
the name too survives a power loss. :func:`write_once` and :func:`write_replace` are the two
steps in one.

What a crash leaves, at each point: before the temp file's fsync, a temp file (``.tmp-*``,
maybe partial) and no name; after it and before the link, a whole temp file and no name;
after the link and before the folder's fsync, the name may or may not survive a power loss
(an application crash keeps it); after, the file under its name. A name is never given to
bytes that are not whole on disk, so a blob written once is never a partial one. What a
killed writer leaves is found by ``verify`` (store/local/leftovers.py).

Invariant: a reader never sees a partly written file under its final name; a failed write
(full disk, read-only folder) leaves nothing behind but raises.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path


def sync_folder(folder: Path) -> None:
    """fsync a folder, so the names made in it survive a power loss. A file system that
    cannot fsync a folder (some network ones answer EINVAL) is left as it is."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM):
            return
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _ensure_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) when missing, its new name made durable."""
    if folder.is_dir():
        return
    missing = []
    at = folder
    while not at.is_dir():
        missing.append(at)
        at = at.parent
    folder.mkdir(parents=True, exist_ok=True)
    for made in reversed(missing):
        sync_folder(made.parent)


class Staged:
    """Bytes written and fsynced to a temp file beside ``path``, not yet under its name."""

    def __init__(self, path: Path, tmp: Path) -> None:
        self.path = path
        self.tmp = tmp

    def publish(self, *, replace: bool = False) -> bool:
        """Give the bytes their name and make the name durable. Without ``replace``, a file
        already at the name is left as it is and False is returned (the temp file is
        removed either way)."""
        try:
            if replace:
                os.replace(self.tmp, self.path)
            else:
                try:
                    os.link(self.tmp, self.path)
                except FileExistsError:
                    return False
        except BaseException:
            self.discard()
            raise
        if not replace:
            self.discard()
        sync_folder(self.path.parent)
        return True

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def stage(path: Path, data: bytes) -> Staged:
    """Write ``data`` to a temp file beside ``path`` and fsync it (the slow half of a
    durable write, which callers can overlap); publish it with :meth:`Staged.publish`."""
    _ensure_folder(path.parent)
    tmp = path.parent / f".tmp-{secrets.token_hex(8)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    os.close(fd)
    return Staged(path, tmp)


def write_replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, replacing what was there, atomically and durably."""
    stage(path, data).publish(replace=True)


def write_once(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it exists; never overwrite. True if written here."""
    if path.exists():
        return False
    return stage(path, data).publish()
