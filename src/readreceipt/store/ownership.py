"""Whose is a folder: the one rule for "this folder is the user's own, and nobody else's".

readreceipt writes into folders it chose itself (the default fetch folder under the system's
temporary folder) and reads libraries it found by walking up from the current folder. Either
is safe only when no other user can change what is there: a folder another user owns, or one
other users may write into, lets them choose where readreceipt writes or what it reads.

Rule (:func:`foreign_control`): a folder is the user's own when its owner is the user running
readreceipt and no other user can write into it: not writable by everyone, and writable by
its group only when that group is the user's own primary group (the private group most
systems give each user). :func:`private_folder` makes such a folder or refuses the one found.

Standard library (``os`` and ``stat`` alone at run time) and :mod:`readreceipt.errors` only:
the hook's quick modes and library discovery use it.
"""

from __future__ import annotations

import os
import stat

from readreceipt.errors import RefusedError

TYPE_CHECKING = False  # not typing's, nor pathlib at run time: the hook's quick modes use this
if TYPE_CHECKING:
    from pathlib import Path


def _uid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def foreign_control(info: os.stat_result) -> str | None:
    """Why another user controls the folder ``info`` describes, or None when it is ours."""
    uid = _uid()
    if uid is None:  # no owners to compare (not a POSIX system)
        return None
    if info.st_uid != uid:
        return f"it belongs to another user (uid {info.st_uid})"
    if info.st_mode & stat.S_IWOTH:
        return "every user may write into it"
    if info.st_mode & stat.S_IWGRP and info.st_gid != os.getegid():
        return f"the group {info.st_gid} may write into it"
    return None


def untrusted_reason(folder: str | os.PathLike[str]) -> str | None:
    """Why ``folder`` (followed if a link) is not the user's own, or None when it is."""
    try:
        info = os.stat(folder)
    except OSError as exc:
        return f"it cannot be examined ({exc.strerror or exc})"
    return foreign_control(info)


class UnsafeFolder(RefusedError):
    """A folder on a default path is not the user's own (exit 2). ``.path``, ``.why``."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"refusing to use {path}: {why}; remove it, or name another place",
                         reason="unsafe_folder")
        self.path = path
        self.why = why


def private_folder(path: Path) -> Path:
    """``path`` as a folder only this user controls: made (mode 0700) when missing; raises
    :class:`UnsafeFolder` when what is there is a link, not a folder, or not the user's own.

    The folder is looked at without following a link (``lstat``): a link planted at a
    default path would let its maker choose where readreceipt writes."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise UnsafeFolder(path, f"it cannot be made ({exc.strerror or exc})") from exc
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise UnsafeFolder(path, f"it cannot be examined ({exc.strerror or exc})") from exc
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeFolder(path, "it is a symbolic link")
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFolder(path, "it is not a folder")
    why = foreign_control(info)
    if why is not None:
        raise UnsafeFolder(path, why)
    return path
