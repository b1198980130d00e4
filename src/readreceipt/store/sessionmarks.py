"""Marks the hook's quick modes read instead of opening a library: what a session waits for.

Two kinds of empty-or-tiny files in one per-user folder, ``<tmp>/readreceipt-hook-<uid>/``:

``pending/<pid>``
    A detached capture worker (process ``pid``) is still at work. The hook creates it before
    it returns; the worker writes its session id into it once it has read the payload and
    removes it when done. The ``Stop`` hook waits, bounded, while any mark of its session (or
    one not yet named) belongs to a live process. A mark whose process is gone is stale and
    is removed by whoever meets it.
``pages/<session key>``
    The records of the pages the session read, one id a line, appended by the capture
    worker (a capture reused from the dedup window too, whose record names another
    session): what an agent's final answer is checked against, beside the index's rows.
``flags/<session key>``
    The session may have flags nobody was told about. Written after the flags are in the
    index; removed by the reporter *before* it claims, and written again when some remain,
    so a flag added while a report runs is never left without its mark.

Why files and not the index: ``report`` runs after every tool call and ``Stop`` after every
answer. Asking the index means finding the library, importing SQLite and opening the file,
several times the cost of the interpreter's own start; a ``stat`` costs microseconds.

Invariants: the folder is used only when it is a real directory (not a symlink) of this
user's own (:func:`readreceipt.store.ownership.foreign_control`, the one rule), else every
function here answers conservatively ("maybe flags", "nothing pending") and writes nothing;
every failure is swallowed (a mark is a hint, the index stays the truth); the standard
library and :mod:`readreceipt.store.ownership` only, and not even :mod:`pathlib` or
:mod:`re`, whose imports alone would cost the hook more than its work.
"""

from __future__ import annotations

import os
import time

from readreceipt.store.ownership import foreign_control

#: A pending mark older than this belongs to a worker that is stuck or whose pid was reused:
#: it is not waited for. (A worker waits at most 30 s for its host's turn, and its fetch has
#: its own total deadline.)
PENDING_MAX_AGE = 600.0

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
_MAX_KEY = 100


def _temp_root() -> str:
    for name in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(name)
        if value and os.path.isdir(value):
            return value
    return "/tmp" if os.name == "posix" else os.getcwd()  # noqa: S108 - as tempfile does


def _uid() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid else "user"


def folder(create: bool = True) -> str | None:
    """The per-user folder, when it is safely this user's; None otherwise."""
    return _own_folder(os.path.join(_temp_root(), f"readreceipt-hook-{_uid()}"), create)


def _own_folder(path: str, create: bool) -> str | None:
    """``path`` (made first when ``create``), if it is a folder of this user's alone."""
    if create:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    return path if _ours(path) else None


def _ours(path: str) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if (info.st_mode & 0o170000) != 0o040000:  # not a directory (a symlink, a file)
        return False
    return foreign_control(info) is None  # nobody else may add or swap marks


def session_key(session_id: str) -> str:
    """A file name for ``session_id``: itself when it is a plain identifier (Claude Code's
    are UUIDs), else a digest of it."""
    if 0 < len(session_id) <= _MAX_KEY and all(ch in _SAFE for ch in session_id):
        return session_id
    import hashlib

    data = session_id.encode("utf-8", "surrogatepass")
    return "h-" + hashlib.sha256(data).hexdigest()


def _sub(name: str, create: bool) -> str | None:
    base = folder(create)
    return None if base is None else _own_folder(os.path.join(base, name), create)


def _touch(path: str, content: bytes = b"", *, truncate: bool = True) -> None:
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    if truncate:
        flags |= os.O_TRUNC
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        return
    try:
        if content:
            os.write(fd, content)
    finally:
        os.close(fd)


def _unlink(path: str) -> None:
    try:  # noqa: SIM105 - importing contextlib costs the hook more than this whole module
        os.unlink(path)
    except OSError:
        pass


# ---------------------------------------------------------------------------- pending work


def pending_mark(pid: int) -> str | None:
    """Create the mark of a worker (``pid``) whose session is not known yet; its path."""
    where = _sub("pending", True)
    if where is None:
        return None
    path = os.path.join(where, str(pid))
    _touch(path, truncate=False)  # the worker may have named it already: keep its name
    return path


def name_pending(path: str | None, session_id: str | None) -> None:
    """The worker says whose capture it is (an empty mark is waited for by every session)."""
    if path is not None:
        _touch(path, session_key(session_id or "").encode("ascii") if session_id else b"-")


def end_pending(path: str | None) -> None:
    if path is not None:
        _unlink(path)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, though we may not signal it
        return True
    return True


def pending_for(session_id: str) -> int:
    """How many live workers may be capturing for ``session_id`` (stale marks removed)."""
    where = _sub("pending", False)
    if where is None:
        return 0
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    key = session_key(session_id).encode("ascii")
    now = time.time()
    count = 0
    for name in names:
        path = os.path.join(where, name)
        if not name.isdigit() or not _alive(int(name)):
            _unlink(path)
            continue
        try:
            with open(path, "rb") as handle:
                owner = handle.read(256)
            age = now - os.stat(path).st_mtime
        except OSError:
            continue
        if age > PENDING_MAX_AGE:
            continue
        if not owner or owner == key:
            count += 1
    return count


def wait_for_pending(session_id: str, seconds: float, *, step: float = 0.05) -> int:
    """Wait until no worker may be capturing for the session, at most ``seconds``; how many
    still may be when the wait ends."""
    deadline = time.monotonic() + max(seconds, 0.0)
    while True:
        left = pending_for(session_id)
        if left == 0 or time.monotonic() >= deadline:
            return left
        time.sleep(step)


# ---------------------------------------------------------------------------- pages read

#: Record ids kept per session at most (the newest); a record id is 25 characters.
MAX_PAGES = 500


def add_page(session_id: str | None, record_id: str) -> None:
    """The session read the page of ``record_id`` (appended; a hint, the index stays the
    truth)."""
    if not session_id or not record_id or len(record_id) > 64 or \
            any(ch not in _SAFE for ch in record_id):
        return
    where = _sub("pages", True)
    if where is None:
        return
    path = os.path.join(where, session_key(session_id))
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        return
    try:
        os.write(fd, record_id.encode("ascii") + b"\n")
    finally:
        os.close(fd)


def has_pages(session_id: str) -> bool:
    """Did the session read a page, as far as the marks tell? (A stat, for the quick path.)"""
    base = folder(create=False)
    return base is not None and os.path.exists(os.path.join(base, "pages",
                                                            session_key(session_id)))


def pages(session_id: str) -> list[str]:
    """The record ids of the pages the session read, oldest first, once each, the newest
    :data:`MAX_PAGES` at most."""
    where = _sub("pages", False)
    if where is None:
        return []
    try:
        with open(os.path.join(where, session_key(session_id)), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - MAX_PAGES * 80))  # the newest lines; the first may be cut
            data = handle.read(MAX_PAGES * 80)
    except OSError:
        return []
    ids = [line.decode("ascii", "replace").strip() for line in data.splitlines()]
    kept = [i for i in dict.fromkeys(ids) if i and all(ch in _SAFE for ch in i)]
    return kept[-MAX_PAGES:]


# --------------------------------------------------------------------------- untold flags


def mark_flags(session_id: str | None) -> None:
    """The session has flags in some library that nobody was told about (yet)."""
    if not session_id:
        return
    where = _sub("flags", True)
    if where is not None:
        _touch(os.path.join(where, session_key(session_id)))


def clear_flags(session_id: str) -> None:
    where = _sub("flags", False)
    if where is not None:
        _unlink(os.path.join(where, session_key(session_id)))


def may_have_flags(session_id: str) -> bool:
    """False only when the session surely has no untold flag; True when it may, and True
    when the marks cannot be trusted (the folder is not this user's alone, or cannot be
    made), so that the index is asked."""
    base = folder(create=True)
    if base is None:
        return True
    return os.path.exists(os.path.join(base, "flags", session_key(session_id)))


__all__ = ["MAX_PAGES", "PENDING_MAX_AGE", "add_page", "clear_flags", "end_pending", "folder",
           "has_pages", "mark_flags", "may_have_flags", "name_pending", "pages", "pending_for",
           "pending_mark", "session_key", "wait_for_pending"]
