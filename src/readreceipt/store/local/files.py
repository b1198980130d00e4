"""The local library's blobs, texts, records and logs, as files in its folder.

- :class:`FileBlobStore` keeps each blob at ``<root>/<first two hex>/<digest>``
  (:class:`~readreceipt.store.protocols.BlobStore`): the bytes under ``store/``, the
  extracted texts under ``text/``;
- :class:`FileRecordStore` keeps each record at ``records/<record_id>.yaml``
  (:class:`~readreceipt.store.protocols.RecordStore`);
- :class:`FileLogs` appends to ``<name>`` JSON Lines files beside them
  (:class:`~readreceipt.store.protocols.LogStore`).

Invariants: a blob is written once and never overwritten, and ``put`` returns the digest of
exactly the bytes stored; a record is replaced atomically (a reader sees the old file or the
new one, never a part); ``get`` of something missing raises KeyError, and so does ``get`` of
an entry that is no regular file of its own (a link planted at it, a FIFO, a directory).
OSError (a full disk, a read-only folder) is left to
:class:`~readreceipt.store.library.Library`, which says it in words.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from readreceipt.store.atomic import Staged, stage, write_once, write_replace
from readreceipt.store.local import jsonlog

_DIGEST = re.compile(r"^[0-9a-f]{64}$")
_RECORD_SUFFIX = ".yaml"
#: Bytes read at a time when a blob is streamed.
CHUNK_BYTES = 1024 * 1024


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: How an entry is opened: never through a link at the entry itself, never waiting for a
#: FIFO's writer (a library carried in a repository can plant either: a link to a file of
#: the user's would be exported as the page, a FIFO hung the export).
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _open_entry(path: Path, key: str) -> BinaryIO:
    """The entry at ``path`` opened for reading; KeyError unless it is a regular file."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise KeyError(key) from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENXIO):  # a link, a socket
            raise KeyError(key) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO, a directory, a device
        os.close(fd)
        raise KeyError(key)
    return os.fdopen(fd, "rb")


def _read(path: Path, key: str) -> bytes:
    with _open_entry(path, key) as handle:
        return handle.read()


class FileBlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, digest: str) -> Path:
        if not _DIGEST.match(digest):
            raise KeyError(digest)
        return self.root / digest[:2] / digest

    def location(self, digest: str) -> str:
        return str(self.path(digest))

    def put(self, data: bytes) -> str:
        digest = sha256_hex(data)
        write_once(self.path(digest), data)
        return digest

    def stage(self, data: bytes) -> StagedFile:
        """The blob written and fsynced under a temp name beside its own (nothing when it
        is kept already); ``publish()`` links it to its digest and fsyncs the folder."""
        digest = sha256_hex(data)
        path = self.path(digest)
        return StagedFile(digest, None if path.exists() else stage(path, data))

    def get(self, digest: str) -> bytes:
        return _read(self.path(digest), digest)

    def chunks(self, digest: str) -> Iterator[bytes]:
        with _open_entry(self.path(digest), digest) as handle:
            while chunk := handle.read(CHUNK_BYTES):
                yield chunk

    def has(self, digest: str) -> bool:
        try:
            return self.path(digest).is_file()
        except KeyError:
            return False

    def delete(self, digest: str) -> bool:
        try:
            self.path(digest).unlink()
            return True
        except (FileNotFoundError, KeyError):
            return False

    def digests(self) -> Iterator[str]:
        if not self.root.is_dir():
            return
        for sub in sorted(self.root.iterdir()):
            if sub.is_dir() and len(sub.name) == 2:
                for item in sorted(sub.iterdir()):
                    if _DIGEST.match(item.name):
                        yield item.name


class StagedFile:
    """A blob staged by :meth:`FileBlobStore.stage` (``staged`` None: kept already)."""

    def __init__(self, digest: str, staged: Staged | None) -> None:
        self.digest = digest
        self.staged = staged

    def publish(self) -> bool:
        return self.staged.publish() if self.staged is not None else False

    def discard(self) -> None:
        if self.staged is not None:
            self.staged.discard()


class FileRecordStore:
    """Records as ``<root>/<record_id>.yaml``. Ids are checked by the library first."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, record_id: str) -> Path:
        return self.root / f"{record_id}{_RECORD_SUFFIX}"

    def location(self, record_id: str) -> str:
        return str(self.path(record_id))

    def put(self, record_id: str, data: bytes) -> None:
        write_replace(self.path(record_id), data)

    def add(self, record_id: str, data: bytes) -> bool:
        return write_once(self.path(record_id), data)

    def stage(self, record_id: str, data: bytes) -> Staged:
        """The record written and fsynced under a temp name; ``publish()`` links it to its
        id (never over another) and fsyncs the folder."""
        return stage(self.path(record_id), data)

    def get(self, record_id: str) -> bytes:
        return _read(self.path(record_id), record_id)

    def has(self, record_id: str) -> bool:
        return self.path(record_id).is_file()

    def ids(self) -> Iterator[str]:
        for path in sorted(self.root.glob(f"*{_RECORD_SUFFIX}")):
            yield path.name.removesuffix(_RECORD_SUFFIX)


class Tallies(Protocol):
    """Where each log's count last stopped (the SQLite index keeps them)."""

    def log_tally(self, name: str) -> jsonlog.Tally | None: ...
    def keep_log_tally(self, name: str, tally: jsonlog.Tally) -> None: ...


class FileLogs:
    """JSON Lines logs in the library's folder (see :mod:`readreceipt.store.local.jsonlog`);
    their counts go on from where the last count stopped (``tallies``)."""

    def __init__(self, root: Path, tallies: Tallies) -> None:
        self.root = root
        self.tallies = tallies

    def count(self, name: str) -> int:
        """Entries in the log ``name`` (as many as :meth:`read` yields), reading only what
        was appended since the last count."""
        held = self.tallies.log_tally(name)
        tally, tail = jsonlog.tally(self.root / name, held)
        if tally != held:
            self.tallies.keep_log_tally(name, tally)
        return tally.entries + tail

    def append(self, name: str, entry: dict[str, Any]) -> None:
        jsonlog.append(self.root / name, entry)

    def read(self, name: str) -> Iterator[dict[str, Any]]:
        return jsonlog.read(self.root / name)
