"""A library of evidence: find it, open it, write to it, read from it, close it.

:class:`Library` is the one object the pipeline and the adapters hold. It picks the backends
and speaks to them only through the protocols of :mod:`readreceipt.store.protocols`:

- the local library (the default): :class:`~readreceipt.store.local.sqlite.SQLiteIndex` and the
  file stores of :mod:`readreceipt.store.local.files`, in one folder;
- a team library, when :mod:`readreceipt.store.team.config` finds its two URLs (options, the
  environment, or the folder's ``config.toml``): :class:`~readreceipt.store.team.postgres.
  PostgresIndex` and the object stores of :mod:`readreceipt.store.team.objects`, imported only
  then. The local folder then holds only its ``config.toml``.

Which folder: :mod:`readreceipt.store.discovery`.

Invariants:
- a directory is taken as a library only if it is empty (and then initialised) or already
  holds ``index.db``; anything else is refused, so a mistyped path never fills a folder;
- blobs and texts are written before the record, and the record before its index row, so
  the index never points at a record (or a record at bytes) that is not stored; a writer
  killed midway leaves objects without a row (``verify`` names them), never the reverse;
- ``forget`` removes bytes and texts that no other kept record uses, and keeps the record;
- whoever opens a library closes it (``with Library.open(...) as lib``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.errors import LibraryError, ReadReceiptError, RecordNotFound
from readreceipt.progress import NO_PROGRESS, Progress
from readreceipt.store import discovery, readahead
from readreceipt.store.clock import utc_now
from readreceipt.store.local import leftovers
from readreceipt.store.local.files import FileBlobStore, FileLogs, FileRecordStore
from readreceipt.store.local.sqlite import SQLiteIndex
from readreceipt.store.protocols import (
    Audit,
    BlobStore,
    Index,
    LogStore,
    RecordStore,
    StagedBlob,
)
from readreceipt.store.records import Record
from readreceipt.store.team import config

log = logging.getLogger(__name__)

#: The longest text taken for a record id (an id is 25 characters: ``new_record_id``).
MAX_ID_CHARS = 128

LIBRARY_ENV = discovery.LIBRARY_ENV
DEFAULT_DIRNAME = discovery.DIRNAME


#: Fresh record ids drawn for a new record before giving up (one is nearly always free).
_NEW_ID_TRIES = 5

#: Threads that write a capture's files at once (its bytes, two texts; the record beside them):
#: file writes and fsyncs release the GIL, so the waits overlap one another and the
#: extraction, and a journaling file system commits fsyncs that arrive together as one.
_WRITERS = 3

def _team_install() -> str:
    """How to add the team extra, the way this copy was installed (pipx, a venv...)."""
    from readreceipt.installed import advice

    return f"add it as this copy was installed: {advice('team')}"


def _os_error(exc: OSError, root: Path, doing: str) -> LibraryError:
    if exc.errno == errno.ENOSPC:
        msg = f"the disk is full while {doing} in {root}; nothing already stored was lost"
        return LibraryError(msg, reason="disk_full")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return LibraryError(f"the library {root} is not writable ({exc.strerror})",
                            reason="read_only")
    return LibraryError(f"the library {root} failed while {doing}: {exc.strerror or exc}",
                        reason="io")


def _finish(writes: Sequence[Future[str]]) -> None:
    """Wait for writes begun, whatever became of them (the caller raises its own error)."""
    for write in writes:
        with contextlib.suppress(Exception):  # the caller's error is the one to report
            write.result()


@dataclass(frozen=True)
class Problem:
    #: digest_mismatch | unreadable_entry | missing_blob | missing_text | missing_record |
    #: unreadable_record | orphan_blob | orphan_text | orphan_record | leftover
    #: (store/crosscheck.py)
    kind: str
    digest: str | None
    record_id: str | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "digest": self.digest, "record_id": self.record_id,
                "detail": self.detail}


class Library:
    """One evidence library: its index, blobs, texts, records and logs."""

    def __init__(self, root: Path, *, index: Index, blobs: BlobStore, texts: BlobStore,
                 records: RecordStore, logs: LogStore, read_only: bool = False,
                 team: config.TeamConfig | None = None) -> None:
        #: The library's folder: where it was found (for a team library, where its
        #: config.toml is or would be).
        self.root = root
        #: The team store's URLs, for a team library; None for the local folder.
        self.team = team
        #: The library in words, without a secret: where messages point.
        self.where = team.describe() if team else str(root)
        self.index = index
        self.blobs = blobs
        self.texts = texts
        self.records = records
        self.logs = logs
        #: A library on a read-only disk can still be read, shown, verified and exported.
        self.read_only = read_only
        self._writers: ThreadPoolExecutor | None = None
        #: The texts of the record :meth:`records_ahead` handed out last, read with it.
        self._texts_ahead: dict[str, bytes] = {}

    # finding and opening ----------------------------------------------------------------

    @classmethod
    def locate(cls, explicit: str | os.PathLike[str] | None = None,
               *, cwd: Path | None = None, create: bool = True, index_url: str | None = None,
               blobs_url: str | None = None, connections: int = 4,
               watched: bool = True) -> Library:
        """The folder ``explicit``, else ``$READRECEIPT_LIBRARY``, else the nearest
        ``.readreceipt/`` at or above ``cwd`` that is the user's own
        (:mod:`readreceipt.store.discovery`), else a new one in ``cwd`` -- only when
        ``create``: a command that only reads never makes a library, and says there is none
        (LibraryError, reason ``no_library``).

        A team library comes first: the one ``index_url`` and ``blobs_url``, else the
        environment, else the folder's ``config.toml`` name (:mod:`readreceipt.store.team.config`);
        nothing is made in the folder for it."""
        named = Path(explicit).expanduser() if explicit else discovery.configured()
        start = Path(os.path.realpath(cwd if cwd is not None else Path.cwd()))
        found: Path | None = None
        if named is None:
            found, passed = discovery.search(start)
            for library, why in passed:
                log.warning("not using the library %s: %s", library, why)
        folder = named or found
        team = config.resolve(folder, index_url=index_url, blobs_url=blobs_url)
        if team is not None:
            return cls.open_team(folder or start / discovery.DIRNAME, team,
                                 connections=connections, watched=watched)
        if named is not None:
            return cls.open_local(named, create=create)
        if found is not None:
            return cls.open_local(found, create=False)
        if not create:
            raise LibraryError(
                f"no readreceipt library in {start} or the folders above it that are looked "
                "in; `readreceipt capture URL` makes one in ./.readreceipt, or name one with "
                "--library", reason="no_library")
        return cls.open_local(discovery.fresh(start), create=True)

    @classmethod
    def open_team(cls, root: Path, team: config.TeamConfig, *, connections: int = 4,
                  watched: bool = True) -> Library:
        """The team library ``team`` names (PostgreSQL and an S3-compatible bucket); ``root``
        is the local folder it was found from (nothing is made there).

        Named by a folder's config.toml (a project's file), its servers are told to the user
        on stderr the first time (``config.show``); a process whose stderr nobody reads
        (``watched`` False: the hook's worker) refuses one the user was never shown."""
        if team.from_file:
            if watched:
                config.show(team, lambda line: print(line, file=sys.stderr, flush=True))
            elif not config.shown(team):
                raise LibraryError(
                    f"{team.source} names a team library you were never shown "
                    f"({team.describe()}); nothing is sent there until a readreceipt command "
                    "run in that folder has named it to you", reason="team_not_shown")
        from readreceipt.store.team.objects import Bucket, ObjectBlobStore, ObjectRecordStore
        from readreceipt.store.team.postgres import PostgresIndex, PostgresLogs

        try:
            index = PostgresIndex(team, max_connections=connections)
        except ImportError as exc:  # the drivers are imported only now
            raise LibraryError(f"a team library needs the team extra ({exc.name} is missing); "
                               f"{_team_install()}", reason="missing_extra") from None
        try:
            bucket = Bucket(team)
        except Exception as exc:
            index.close()
            missing = isinstance(exc, ImportError)
            raise LibraryError(
                f"a team library needs the team extra (obstore is missing); {_team_install()}"
                if missing else f"the object store {team.blobs_url} "
                f"cannot be opened: {team.scrub(str(exc).splitlines()[0])}",
                reason="missing_extra" if missing else "io") from None
        return cls(root.expanduser(), index=index, blobs=ObjectBlobStore(bucket, "store"),
                   texts=ObjectBlobStore(bucket, "text"), records=ObjectRecordStore(bucket),
                   logs=PostgresLogs(index), team=team)

    @classmethod
    def open(cls, root: Path, *, create: bool = True) -> Library:
        """The library in the folder ``root``: the team library its ``config.toml`` names,
        else the local library there (:meth:`open_local`)."""
        team = config.from_folder(root.expanduser())
        if team is not None:
            return cls.open_team(root, team)
        return cls.open_local(root, create=create)

    @classmethod
    def open_local(cls, root: Path, *, create: bool = True) -> Library:
        """The local library in the folder ``root``, whatever its config.toml says (``push``
        reads a folder's own evidence so), made there when the folder is empty or missing
        and ``create`` (else LibraryError, reason ``no_library``)."""
        root = root.expanduser()
        if root.exists() and not root.is_dir():
            raise LibraryError(f"{root} is a file, not a readreceipt library",
                               reason="not_a_library")
        index_path = root / discovery.INDEX_FILENAME
        if root.is_dir() and not index_path.exists() and any(root.iterdir()):
            raise LibraryError(f"{root} is not a readreceipt library (no index.db, and the "
                               "folder is not empty)", reason="not_a_library")
        if not create and not index_path.exists():
            raise LibraryError(f"there is no readreceipt library at {root}; nothing was "
                               "made (`readreceipt capture URL --library DIR` makes one)",
                               reason="no_library")
        try:
            read_only = index_path.exists() and not os.access(root, os.W_OK)
            if not read_only:
                for sub in ("store", "text", "records"):
                    (root / sub).mkdir(parents=True, exist_ok=True)
            index = SQLiteIndex(index_path, read_only=read_only)
        except OSError as exc:
            raise _os_error(exc, root, "opening it") from exc
        return cls(root, index=index, blobs=FileBlobStore(root / "store"),
                   texts=FileBlobStore(root / "text"), records=FileRecordStore(root / "records"),
                   logs=FileLogs(root, index), read_only=read_only)

    def close(self) -> None:
        if self._writers is not None:
            self._writers.shutdown(wait=True)  # every write begun is finished
            self._writers = None
        self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writing ----------------------------------------------------------------------------

    def _writable(self) -> None:
        if self.read_only:
            raise LibraryError(f"the library {self.where} is not writable (a read-only disk "
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

    def put_bytes_soon(self, data: bytes) -> Future[str]:
        """:meth:`put_bytes` begun in a writer thread (the caller extracts meanwhile); its
        digest, or its LibraryError, from ``result()``. Hand it to :meth:`save_new`, which
        waits for it before the record is kept."""
        self._writable()
        return self._writer_pool().submit(self.put_bytes, data)

    def stage_texts_soon(self, texts: Sequence[str]) -> list[Future[StagedBlob]]:
        """Extracted texts written and fsynced under temp names in writer threads (the
        caller judges the page meanwhile), not yet under their digests: hand them to
        :meth:`save_new`, which gives them their names before the record takes its own, or
        to :meth:`discard_staged` (the page was rendered: other texts will be kept)."""
        self._writable()
        pool = self._writer_pool()
        return [pool.submit(self._stage_text, text) for text in dict.fromkeys(texts)]

    def _stage_text(self, text: str) -> StagedBlob:
        try:
            return self.texts.stage(text.encode("utf-8"))
        except OSError as exc:
            raise _os_error(exc, self.root, "writing an extracted text") from exc

    @staticmethod
    def discard_staged(staged: Sequence[Future[StagedBlob]]) -> None:
        """Throw staged texts away (their temp files go; nothing had their names)."""
        for future in staged:
            with contextlib.suppress(Exception):  # a staging that failed left nothing
                future.result().discard()

    def _publish(self, staged: Future[StagedBlob]) -> str:
        blob = staged.result()
        try:
            blob.publish()
        except OSError as exc:
            raise _os_error(exc, self.root, "writing an extracted text") from exc
        return blob.digest

    def _writer_pool(self) -> ThreadPoolExecutor:
        if self._writers is None:
            self._writers = ThreadPoolExecutor(max_workers=_WRITERS,
                                               thread_name_prefix="readreceipt-write")
        return self._writers

    @staticmethod
    def _checked_id(record_id: str) -> str:
        # A record id is 25 characters; one far longer names no file (a 300-character id
        # ended show and forget in "internal error: File name too long").
        if not record_id or "/" in record_id or "\\" in record_id or record_id.startswith(".") \
                or len(record_id) > MAX_ID_CHARS or "\0" in record_id:
            shown = record_id if len(record_id) <= 60 else record_id[:60] + "..."
            raise RecordNotFound(f"{shown!r} is not a record id", reason="bad_id")
        return record_id

    def record_location(self, record_id: str) -> str:
        """Where the record is kept (a path for the local library), for people to read."""
        return self.records.location(self._checked_id(record_id))

    def record_path(self, record_id: str) -> Path:
        """The record's file in the local library."""
        return Path(self.record_location(record_id))

    def save(self, record: Record) -> str:
        """Write the record, then its index row; where the record is kept."""
        record_id = self._checked_id(record.record_id)
        self._writable()
        try:
            self.records.put(record_id, record.to_yaml().encode("utf-8"))
        except OSError as exc:
            raise _os_error(exc, self.root, "writing a record") from exc
        self.index.add_retrieval(record)
        return self.record_location(record_id)

    def save_new(self, record: Record, *, texts: Sequence[str] = (),
                 staged: Sequence[Future[StagedBlob]] = (),
                 pending: Sequence[Future[str]] = ()) -> Record:
        """Keep a new capture: its ``texts`` (the extracted texts its digests name; or
        ``staged``, as :meth:`stage_texts_soon` began them), the ``pending`` writes of its
        bytes (:meth:`put_bytes_soon`), then its record, then its index row; the record as
        kept.

        The slow halves overlap: the texts are written in writer threads while the record
        is serialized and written under a temp name here; the record takes its name only
        once every blob and text it names is on disk under its own, and the row comes last,
        so the index never points at a record, nor a record at bytes, that is not stored
        (docs/design.md, "Durability"). A record id is a second's stamp and 32 random bits,
        which a busy team library draws twice now and then: the record is written only
        where none is (a conditional write), and one whose id is taken is kept under a fresh
        id, never over the other capture."""
        from readreceipt.store.records import new_record_id

        self._checked_id(record.record_id)
        self._writable()
        writes = list(pending)
        if texts or staged:
            pool = self._writer_pool()
            writes += [pool.submit(self.put_text, text) for text in dict.fromkeys(texts)]
            writes += [pool.submit(self._publish, blob) for blob in staged]
        for _ in range(_NEW_ID_TRIES):
            try:
                kept = self.records.stage(record.record_id, record.to_yaml().encode("utf-8"))
            except OSError as exc:
                _finish(writes)
                raise _os_error(exc, self.root, "writing a record") from exc
            try:
                for write in writes:
                    write.result()  # a LibraryError of a text's or the bytes' write
                written = kept.publish()
            except OSError as exc:
                kept.discard()
                raise _os_error(exc, self.root, "writing a record") from exc
            except BaseException:
                kept.discard()
                raise
            if written:
                self.index.add_retrieval(record)
                return record
            log.info("the record id %s is taken; drawing another", record.record_id)
            record = record.replace(record_id=new_record_id())
        raise LibraryError(f"no free record id in {self.where} after {_NEW_ID_TRIES} draws",
                           reason="io")

    def count_log(self, name: str) -> int:
        """Entries in the log ``name``."""
        return self.logs.count(name)

    def log(self, name: str, entry: dict[str, Any]) -> None:
        """Append one line to ``name`` (skipped.jsonl, flags.jsonl, answer_checks.jsonl)."""
        entry = {"at": utc_now(), **entry}
        self._writable()
        try:
            self.logs.append(name, entry)
        except OSError as exc:
            raise _os_error(exc, self.root, f"appending to {name}") from exc

    def save_audit(self, audit: Audit) -> None:
        """Keep an audit: its report as one line of ``audits.jsonl`` (the evidence, from which
        the index can be rebuilt), then its index row (what the viewer lists)."""
        self.log("audits.jsonl", {"audit_id": audit.audit_id, "report": json.loads(audit.report)})
        self.index.add_audit(audit)

    def read_log(self, name: str) -> Iterator[dict[str, Any]]:
        return self.logs.read(name)

    # reading ----------------------------------------------------------------------------

    def load(self, record_id: str) -> Record:
        record_id = self._checked_id(record_id)
        try:
            data = self.records.get(record_id)
        except KeyError:
            raise RecordNotFound(f"no record {record_id!r} in {self.where}",
                                 reason="unknown_record") from None
        except OSError as exc:
            raise _os_error(exc, self.root, "reading a record") from exc
        try:
            return Record.from_yaml(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise LibraryError(f"the record {self.records.location(record_id)} cannot be "
                               f"read: {exc}", reason="bad_record") from exc

    def resolve(self, ref: str) -> list[Record]:
        """Records named by ``ref``: a record id, a unique id prefix, or a URL (newest first)."""
        ref = ref.strip()
        if "://" in ref:
            rows = self.index.for_url(ref)
            if not rows:
                raise RecordNotFound(f"no capture of {ref} in {self.where}", url=ref,
                                     reason="unknown_url")
            readable = list(self._readable(r.record_id for r in rows))
            if not readable:  # every one is unreadable: say why, for the newest
                return [self.load(rows[0].record_id)]
            return readable
        if self.index.retrieval(ref) is not None or self.records.has(self._checked_id(ref)):
            return [self.load(ref)]
        matches = self.index.ids_with_prefix(ref) if len(ref) >= 4 else []
        if len(matches) == 1:
            return [self.load(matches[0])]
        if len(matches) > 1:
            raise RecordNotFound(f"{ref!r} matches several records; give more of the id",
                                 reason="ambiguous_id")
        raise RecordNotFound(f"no record {ref!r} in {self.where}", reason="unknown_record")

    def newest(self, url: str) -> Record | None:
        """The newest readable record of ``url`` (an unreadable one is skipped, warned of)."""
        rows = self.index.for_url(url)
        return next(self._readable(r.record_id for r in rows), None)

    def _readable(self, record_ids: Iterable[str]) -> Iterator[Record]:
        """The records of ``record_ids`` that can be read; each one that cannot is skipped
        with a warning, so one damaged file never hides the others."""
        for record_id in record_ids:
            try:
                yield self.load(record_id)
            except RecordNotFound:
                log.warning("skipping %s: the index names it but its file is gone", record_id)
            except LibraryError as exc:
                log.warning("skipping an unreadable record: %s", exc)

    def records_ahead(self, record_ids: Iterable[str]
                      ) -> Iterator[tuple[str, Record | ReadReceiptError]]:
        """Each record of ``record_ids`` in order, or the error reading it raised, for a
        reader that takes them all (an export). On a team library they and their texts are
        read a few ahead (:mod:`readreceipt.store.readahead`), and :meth:`text` answers the
        last one's texts from what was read with it; a local library reads as asked."""
        if self.team is None:
            for record_id in record_ids:
                try:
                    yield record_id, self.load(record_id)
                except ReadReceiptError as exc:
                    yield record_id, exc
            return
        try:
            for record_id, record, texts in readahead.ahead(record_ids, self.load,
                                                            self.texts.get):
                self._texts_ahead = texts
                yield record_id, record
        finally:
            self._texts_ahead = {}

    def text(self, digest: str | None) -> str | None:
        if not digest:
            return None
        held = self._texts_ahead.get(digest)
        try:
            data = held if held is not None else self.texts.get(digest)
        except KeyError:
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            # A text is named by its digest; one that is not its name's (a file swapped in a
            # library carried from elsewhere) is no text of this library's.
            log.warning("text %s does not match its digest; not used", digest)
            return None
        return data.decode("utf-8")

    def body(self, record: Record) -> bytes | None:
        if not record.bytes_kept or not record.bytes_sha256:
            return None
        try:
            return self.blobs.get(record.bytes_sha256)
        except KeyError:
            return None

    def all_records(self) -> Iterator[Record]:
        for record_id in self.records.ids():
            try:
                yield Record.from_yaml(self.records.get(record_id).decode("utf-8"))
            except (ValueError, UnicodeDecodeError, OSError, KeyError):
                log.warning("skipping unreadable record %s", self.records.location(record_id))

    # forgetting and verifying -----------------------------------------------------------

    def forget(self, ref: str) -> list[Record]:
        """Remove the bytes and texts of the records ``ref`` names that no other kept record
        uses (:mod:`readreceipt.store.forgetting`); keep the records. The records changed:
        those whose bytes were forgotten already are not."""
        from readreceipt.store.forgetting import forget

        return forget(self, ref)

    def verify(self, progress: Progress = NO_PROGRESS) -> tuple[int, list[Problem]]:
        """Check the library (:mod:`readreceipt.store.crosscheck`): re-hash every blob and
        text; parse every record and find every digest it names while its bytes are kept;
        check the index against the records, blobs and texts both ways (orphans included);
        report what killed writers left behind in a local library
        (:mod:`readreceipt.store.local.leftovers`). The number of blobs, texts and records
        checked, and the problems."""
        from readreceipt.store.crosscheck import verify

        return verify(self, progress)

    def remove_leftovers(self) -> list[leftovers.Leftover]:
        """Remove what killed writers left behind (old enough that no writer is still at
        it); the leftovers removed."""
        found = leftovers.find(self.root)
        if not found:
            return []
        self._writable()
        return leftovers.remove(self.root, found)

    def note_scratch(self, path: Path) -> None:
        """Write down a temporary file or folder about to be made outside the library (an
        export's), so that ``verify`` can find it if its writer is killed. (A team library
        has no folder of its own to note it in.)"""
        if self.read_only or self.team is not None:
            return
        try:
            leftovers.note(self.root, path)
        except OSError as exc:
            log.warning("could not note %s in %s: %s", path, self.root, exc)
