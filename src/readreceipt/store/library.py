"""A library of evidence on disk: find it, open it, write to it, read from it.

Found as ``$READRECEIPT_LIBRARY``, else the nearest ``.readreceipt/`` walking up from the
current directory, else created at ``./.readreceipt/``.

Invariants:
- a directory is taken as a library only if it is empty (and then initialised) or already
  holds ``index.db``; anything else is refused, so a mistyped path never fills a folder;
- the record file is written (atomically) before its index row, so the index never points
  at a record that is not on disk;
- ``forget`` removes bytes and texts that no other kept record uses, and keeps the record.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.errors import LibraryError, RecordNotFound
from readreceipt.progress import NO_PROGRESS, Progress
from readreceipt.store import jsonlog
from readreceipt.store.atomic import write_replace
from readreceipt.store.blobs import FileBlobStore, sha256_hex
from readreceipt.store.index import SQLiteIndex
from readreceipt.store.records import Record, utc_now

log = logging.getLogger(__name__)

LIBRARY_ENV = "READRECEIPT_LIBRARY"
DEFAULT_DIRNAME = ".readreceipt"


def _os_error(exc: OSError, root: Path, doing: str) -> LibraryError:
    if exc.errno == errno.ENOSPC:
        msg = f"the disk is full while {doing} in {root}; nothing already stored was lost"
        return LibraryError(msg, reason="disk_full")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return LibraryError(f"the library {root} is not writable ({exc.strerror})",
                            reason="read_only")
    return LibraryError(f"the library {root} failed while {doing}: {exc.strerror or exc}",
                        reason="io")


@dataclass(frozen=True)
class Problem:
    kind: str  # "digest_mismatch" | "missing_blob" | "missing_record" | "unreadable_record"
    digest: str | None
    record_id: str | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "digest": self.digest, "record_id": self.record_id,
                "detail": self.detail}


class Library:
    """One evidence library: blobs, texts, records, index and logs under one directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.blobs = FileBlobStore(root / "store")
        self.texts = FileBlobStore(root / "text")
        self.records_dir = root / "records"
        #: A library on a read-only disk can still be read, shown, verified and exported.
        self.read_only = (root / "index.db").exists() and not os.access(root, os.W_OK)
        try:
            self.index = SQLiteIndex(root / "index.db", read_only=self.read_only)
        except sqlite3.DatabaseError as exc:
            raise LibraryError(f"{root / 'index.db'} is not a readreceipt index ({exc})",
                               reason="not_a_library") from exc

    # finding and opening ----------------------------------------------------------------

    @classmethod
    def locate(cls, explicit: str | os.PathLike[str] | None = None,
               *, cwd: Path | None = None) -> Library:
        if explicit:
            return cls.open(Path(explicit))
        env = os.environ.get(LIBRARY_ENV)
        if env:
            return cls.open(Path(env))
        here = (cwd or Path.cwd()).resolve()
        for folder in (here, *here.parents):
            candidate = folder / DEFAULT_DIRNAME
            if (candidate / "index.db").is_file():
                return cls.open(candidate)
        return cls.open(here / DEFAULT_DIRNAME)

    @classmethod
    def open(cls, root: Path) -> Library:
        root = root.expanduser()
        if root.exists() and not root.is_dir():
            raise LibraryError(f"{root} is a file, not a readreceipt library",
                               reason="not_a_library")
        if root.is_dir() and not (root / "index.db").exists() and any(root.iterdir()):
            raise LibraryError(f"{root} is not a readreceipt library (no index.db, and the "
                               "folder is not empty)", reason="not_a_library")
        try:
            if not (root / "index.db").exists() or os.access(root, os.W_OK):
                for sub in ("store", "text", "records"):
                    (root / sub).mkdir(parents=True, exist_ok=True)
            return cls(root)
        except sqlite3.OperationalError as exc:
            raise LibraryError(f"the library {root} cannot be opened: {exc}",
                               reason="read_only" if "readonly" in str(exc) else "io") from exc
        except OSError as exc:
            raise _os_error(exc, root, "opening it") from exc

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writing ----------------------------------------------------------------------------

    def _writable(self) -> None:
        if self.read_only:
            raise LibraryError(f"the library {self.root} is not writable (a read-only disk "
                               "or folder); nothing already stored was changed",
                               reason="read_only")

    def put_bytes(self, data: bytes) -> str:
        self._writable()
        try:
            return self.blobs.put(data)
        except OSError as exc:
            raise _os_error(exc, self.root, "writing the bytes") from exc

    def put_text(self, text: str) -> str:
        self._writable()
        try:
            return self.texts.put(text.encode("utf-8"))
        except OSError as exc:
            raise _os_error(exc, self.root, "writing an extracted text") from exc

    def record_path(self, record_id: str) -> Path:
        if not record_id or "/" in record_id or record_id.startswith("."):
            raise RecordNotFound(f"{record_id!r} is not a record id", reason="bad_id")
        return self.records_dir / f"{record_id}.yaml"

    def save(self, record: Record) -> Path:
        """Write the record file, then its index row."""
        path = self.record_path(record.record_id)
        self._writable()
        try:
            write_replace(path, record.to_yaml().encode("utf-8"))
            self.index.add_retrieval(record)
        except OSError as exc:
            raise _os_error(exc, self.root, "writing a record") from exc
        except sqlite3.OperationalError as exc:
            raise LibraryError(f"the index of {self.root} cannot be written: {exc}",
                               reason="read_only" if "readonly" in str(exc) else "io") from exc
        return path

    def log(self, name: str, entry: dict[str, Any]) -> None:
        """Append one line to ``name`` (skipped.jsonl, flags.jsonl, answer_checks.jsonl)."""
        entry = {"at": utc_now(), **entry}
        self._writable()
        try:
            jsonlog.append(self.root / name, entry)
        except OSError as exc:
            raise _os_error(exc, self.root, f"appending to {name}") from exc

    def read_log(self, name: str) -> Iterator[dict[str, Any]]:
        return jsonlog.read(self.root / name)

    # reading ----------------------------------------------------------------------------

    def load(self, record_id: str) -> Record:
        path = self.record_path(record_id)
        try:
            return Record.from_yaml(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RecordNotFound(f"no record {record_id!r} in {self.root}",
                                 reason="unknown_record") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise LibraryError(f"the record {path} cannot be read: {exc}",
                               reason="bad_record") from exc

    def resolve(self, ref: str) -> list[Record]:
        """Records named by ``ref``: a record id, a unique id prefix, or a URL (newest first)."""
        ref = ref.strip()
        if "://" in ref:
            rows = self.index.for_url(ref)
            if not rows:
                raise RecordNotFound(f"no capture of {ref} in {self.root}", url=ref,
                                     reason="unknown_url")
            return [self.load(r["record_id"]) for r in rows]
        if self.index.retrieval(ref) is not None or self.record_path(ref).exists():
            return [self.load(ref)]
        matches = self.index.ids_with_prefix(ref) if len(ref) >= 4 else []
        if len(matches) == 1:
            return [self.load(matches[0])]
        if len(matches) > 1:
            raise RecordNotFound(f"{ref!r} matches several records; give more of the id",
                                 reason="ambiguous_id")
        raise RecordNotFound(f"no record {ref!r} in {self.root}", reason="unknown_record")

    def newest(self, url: str) -> Record | None:
        rows = self.index.for_url(url, limit=1)
        return self.load(rows[0]["record_id"]) if rows else None

    def text(self, digest: str | None) -> str | None:
        if not digest:
            return None
        try:
            return self.texts.get(digest).decode("utf-8")
        except KeyError:
            return None

    def body(self, record: Record) -> bytes | None:
        if not record.bytes_kept or not record.bytes_sha256:
            return None
        try:
            return self.blobs.get(record.bytes_sha256)
        except KeyError:
            return None

    def all_records(self) -> Iterator[Record]:
        for path in sorted(self.records_dir.glob("*.yaml")):
            try:
                yield Record.from_yaml(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError, OSError):
                log.warning("skipping unreadable record %s", path)

    # forgetting and verifying -----------------------------------------------------------

    def forget(self, ref: str) -> list[Record]:
        """Remove the bytes and texts of the records ``ref`` names; keep the records."""
        records = self.resolve(ref)
        changed: list[Record] = []
        for record in records:
            updated = record.replace(bytes_kept=False)
            self.save(updated)
            changed.append(updated)
        self.index.set_forgotten([r.record_id for r in changed])
        for record in changed:
            for digest in (record.bytes_sha256, record.static_bytes_sha256):
                if digest and not self.index.digest_in_use("bytes_sha256", digest):
                    self.blobs.delete(digest)
            for column in ("text_sha256", "page_text_sha256"):
                digest = getattr(record, column)
                if digest and not (self.index.digest_in_use("text_sha256", digest)
                                   or self.index.digest_in_use("page_text_sha256", digest)):
                    self.texts.delete(digest)
        return changed

    def verify(self, progress: Progress = NO_PROGRESS) -> tuple[int, list[Problem]]:
        """Re-hash every kept blob and text; report mismatches and missing kept blobs."""
        problems: list[Problem] = []
        checked = 0
        stores = [(store, list(store.digests())) for store in (self.blobs, self.texts)]
        progress.start(sum(len(digests) for _, digests in stores))
        for store, digests in stores:
            for digest in digests:
                checked += 1
                progress.advance()
                if sha256_hex(store.get(digest)) != digest:
                    problems.append(Problem("digest_mismatch", digest, None,
                                            f"{store.path(digest)} no longer matches its digest"))
        for row in self.index.rows(limit=None):
            if row["bytes_kept"] and row["bytes_sha256"] and not self.blobs.has(
                    row["bytes_sha256"]):
                problems.append(Problem("missing_blob", row["bytes_sha256"], row["record_id"],
                                        "the record says its bytes are kept, but they are gone"))
            if not self.record_path(row["record_id"]).exists():
                problems.append(Problem("missing_record", None, row["record_id"],
                                        "the index names a record file that is gone"))
        return checked, problems
