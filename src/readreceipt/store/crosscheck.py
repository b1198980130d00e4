"""``verify``: every blob and text re-hashed, every record parsed, and the index checked
against the objects both ways.

- Each blob and text must still match its digest (``digest_mismatch``). Bodies are hashed
  as they stream (:meth:`~readreceipt.store.protocols.BlobStore.chunks`): a large body is
  never held whole.
- Each record must parse (``unreadable_record``) and, while it says its bytes are kept,
  find every digest it names: bytes, the server's own bytes of a rendered page, main and
  page text (``missing_blob``, ``missing_text``).
- Each row of the index must find its record (``missing_record``).
- The other way: each record must have a row, and each blob and text must be named by a
  record whose bytes are kept (``orphan_record``, ``orphan_blob``, ``orphan_text``); for a
  record that cannot be read, its index row names them. Objects
  are written first and the row last, so a writer killed between them leaves exactly such
  orphans; they lose nothing (the evidence was never indexed) and are reported so a person
  can index or remove them.
- A local library's folder is searched for what killed writers left behind
  (:mod:`readreceipt.store.local.leftovers`, ``leftover``); a team library has no such folder.

The digests and ids seen are held as sets: memory grows with the number of objects (about
100 bytes each), not with their size.
"""

from __future__ import annotations

import hashlib
import os
import stat
from typing import TYPE_CHECKING

from readreceipt.errors import LibraryError
from readreceipt.progress import Progress
from readreceipt.store.local import leftovers
from readreceipt.store.protocols import BlobStore

if TYPE_CHECKING:
    from readreceipt.store.library import Library, Problem


def _rehash(store: BlobStore, digest: str) -> str | None:
    """The SHA-256 of the blob as it is now; None when it vanished meanwhile."""
    hasher = hashlib.sha256()
    try:
        for chunk in store.chunks(digest):
            hasher.update(chunk)
    except KeyError:
        return None
    return hasher.hexdigest()


def _no_file(location: str) -> bool:
    """Whether ``location`` (a local store's path) names something that is no regular file;
    a team store's URL names nothing here, and a blob that vanished meanwhile is not one."""
    try:
        return not stat.S_ISREG(os.lstat(location).st_mode)
    except (OSError, ValueError):
        return False


class _Check:
    """One verify run: what was found so far, and the problems."""

    def __init__(self, lib: Library) -> None:
        from readreceipt.store.library import Problem

        self.lib = lib
        self.problem = Problem
        self.problems: list[Problem] = []
        self.blobs = set(lib.blobs.digests())
        self.texts = set(lib.texts.digests())
        self.named_blobs: set[str] = set()
        self.named_texts: set[str] = set()

    def rehash(self, progress: Progress) -> None:
        for store, digests in ((self.lib.blobs, self.blobs), (self.lib.texts, self.texts)):
            for digest in sorted(digests):
                progress.advance()
                now = _rehash(store, digest)
                if now is None and _no_file(store.location(digest)):
                    # Listed, yet refused when read: a link planted at it, a FIFO, a folder.
                    self.problems.append(self.problem(
                        "unreadable_entry", digest, None,
                        f"{store.location(digest)} is not a regular file (a link, a FIFO "
                        "or a folder); readreceipt does not read it"))
                elif now not in (digest, None):
                    self.problems.append(self.problem(
                        "digest_mismatch", digest, None,
                        f"{store.location(digest)} no longer matches its digest"))

    def record(self, record_id: str) -> None:
        lib = self.lib
        try:
            record = lib.load(record_id)
        except LibraryError as exc:
            self.problems.append(self.problem("unreadable_record", None, record_id, str(exc)))
            self._named_by_row(record_id)
            return
        if not record.bytes_kept:
            return
        for digest, found, named, what in (
                (record.bytes_sha256, self.blobs, self.named_blobs, "bytes"),
                (record.static_bytes_sha256, self.blobs, self.named_blobs, "static bytes"),
                (record.text_sha256, self.texts, self.named_texts, "main text"),
                (record.page_text_sha256, self.texts, self.named_texts, "page text")):
            if not digest:
                continue
            named.add(digest)
            if digest not in found:
                store = lib.blobs if found is self.blobs else lib.texts
                kind = "missing_blob" if found is self.blobs else "missing_text"
                self.problems.append(self.problem(
                    kind, digest, record_id, f"the record says its {what} are kept, but "
                    f"{store.location(digest)} is gone"))

    def _named_by_row(self, record_id: str) -> None:
        """The objects a record that cannot be read names, as its index row remembers them:
        its evidence, not orphans."""
        row = self.lib.index.retrieval(record_id)
        if row is None or not row.bytes_kept:
            return
        if row.bytes_sha256:
            self.named_blobs.add(row.bytes_sha256)
        self.named_texts.update(d for d in (row.text_sha256, row.page_text_sha256) if d)

    def orphans(self, records: set[str], indexed: set[str]) -> None:
        lib = self.lib
        for record_id in sorted(records - indexed):
            self.problems.append(self.problem(
                "orphan_record", None, record_id, f"{lib.record_location(record_id)} has no "
                "row in the index (a capture stopped before its last step?)"))
        for kind, store, found, named in (
                ("orphan_blob", lib.blobs, self.blobs, self.named_blobs),
                ("orphan_text", lib.texts, self.texts, self.named_texts)):
            for digest in sorted(found - named):
                self.problems.append(self.problem(
                    kind, digest, None, f"{store.location(digest)} is named by no record "
                    "that keeps its bytes"))


def verify(lib: Library, progress: Progress) -> tuple[int, list[Problem]]:
    check = _Check(lib)
    records = set(lib.records.ids())
    progress.start(len(check.blobs) + len(check.texts) + len(records))
    check.rehash(progress)
    for record_id in sorted(records):
        progress.advance()
        check.record(record_id)
    indexed: set[str] = set()
    for row in lib.index.all_retrievals():
        indexed.add(row.record_id)
        if row.record_id not in records:
            check.problems.append(check.problem(
                "missing_record", None, row.record_id,
                f"the index names {lib.record_location(row.record_id)}, which is gone"))
    check.orphans(records, indexed)
    if lib.team is None:
        check.problems += [check.problem("leftover", None, None,
                                         f"{item.path}: {item.describe()}")
                           for item in leftovers.find(lib.root)]
    return len(check.blobs) + len(check.texts) + len(records), check.problems
