"""``verify``: every kept blob and text re-hashed, and the index checked against the
objects both ways.

One way, every row of the index must find its record, and a row whose bytes are kept its
bytes and texts (``missing_record``, ``missing_blob``, ``missing_text``). The other way,
every record, blob and text must be named by some row (``orphan_record``, ``orphan_blob``,
``orphan_text``): a writer killed between its objects and its row leaves exactly such
orphans, since objects are written first and the row last. An orphan loses nothing (the
evidence it holds was never indexed); it is reported so a person can re-index or remove it.

Bodies are hashed as they stream (:meth:`~readreceipt.store.protocols.BlobStore.chunks`), so
a large body is never held whole. The digests and ids seen are held as sets: memory grows
with the number of objects (about 100 bytes each), not with their size.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from readreceipt.progress import Progress
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


def verify(lib: Library, progress: Progress) -> tuple[int, list[Problem]]:
    from readreceipt.store.library import Problem

    problems: list[Problem] = []
    blobs, texts = set(lib.blobs.digests()), set(lib.texts.digests())
    progress.start(len(blobs) + len(texts))
    checked = 0
    for store, digests in ((lib.blobs, blobs), (lib.texts, texts)):
        for digest in sorted(digests):
            checked += 1
            progress.advance()
            if _rehash(store, digest) not in (digest, None):
                problems.append(Problem("digest_mismatch", digest, None,
                                        f"{store.location(digest)} no longer matches its "
                                        "digest"))
    records = set(lib.records.ids())
    named_blobs: set[str] = set()
    named_texts: set[str] = set()
    indexed: set[str] = set()
    for row in lib.index.all_retrievals():
        indexed.add(row.record_id)
        row_texts = {d for d in (row.text_sha256, row.page_text_sha256) if d}
        named_texts |= row_texts
        if row.bytes_sha256:
            named_blobs.add(row.bytes_sha256)
        if row.record_id not in records:
            problems.append(Problem("missing_record", None, row.record_id,
                                    f"the index names {lib.record_location(row.record_id)}, "
                                    "which is gone"))
            continue
        if row.javascript_executed:  # the server's own bytes are named by the record only
            static = lib.load(row.record_id).static_bytes_sha256
            if static:
                named_blobs.add(static)
        if not row.bytes_kept:
            continue
        if row.bytes and row.bytes_sha256 and row.bytes_sha256 not in blobs:
            problems.append(Problem("missing_blob", row.bytes_sha256, row.record_id,
                                    "the record says its bytes are kept, but they are gone"))
        for digest in sorted(row_texts - texts):
            problems.append(Problem("missing_text", digest, row.record_id,
                                    "the record says its text is kept, but it is gone"))
    for record_id in sorted(records - indexed):
        problems.append(Problem("orphan_record", None, record_id,
                                f"{lib.record_location(record_id)} has no row in the index "
                                "(a capture stopped before its last step?)"))
    for kind, store, found, named in (("orphan_blob", lib.blobs, blobs, named_blobs),
                                      ("orphan_text", lib.texts, texts, named_texts)):
        for digest in sorted(found - named):
            problems.append(Problem(kind, digest, None, f"{store.location(digest)} is named "
                                    "by no row of the index"))
    return checked, problems
