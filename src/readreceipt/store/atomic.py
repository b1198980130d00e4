"""Atomic file writes: temp file in the same folder, fsync, then rename or link.

Invariant: a reader never sees a partly written file under its final name; a failed write
(full disk, read-only folder) leaves nothing behind but raises.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def _write_temp(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
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
    return tmp


def write_replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, replacing what was there, atomically."""
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_once(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it exists; never overwrite. True if written here."""
    if path.exists():
        return False
    tmp = _write_temp(path, data)
    try:
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
