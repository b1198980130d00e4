"""``forget``: drop the bytes and texts of some records, keep the records.

Invariants:
- every record named is kept, rewritten with ``bytes_kept: false``, and its index row says
  the same before anything is deleted;
- a blob or text is deleted only when no record whose bytes are kept still names it: as its
  body, its main or page text, or (a page a browser rendered) as the server's own bytes,
  which only its record names (the same shell rendered twice shares them);
- a record that cannot be read might name a blob: while one is found, the blob stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from readreceipt.errors import LibraryError

if TYPE_CHECKING:
    from readreceipt.store.library import Library
    from readreceipt.store.records import Record


def forget(lib: Library, ref: str) -> list[Record]:
    """Forget the bytes and texts of the records ``ref`` names; the records this changed, as
    now kept (a record whose bytes were forgotten already is left as it is)."""
    changed: list[Record] = []
    for record in lib.resolve(ref):
        if not record.bytes_kept:
            continue
        updated = record.replace(bytes_kept=False)
        lib.save(updated)
        changed.append(updated)
    lib.index.set_forgotten([r.record_id for r in changed])
    for record in changed:
        for digest in (record.bytes_sha256, record.static_bytes_sha256):
            if digest and not _bytes_still_kept(lib, digest):
                lib.blobs.delete(digest)
        for digest in (record.text_sha256, record.page_text_sha256):
            if digest and not lib.index.is_text_kept(digest):
                lib.texts.delete(digest)
    return changed


def _bytes_still_kept(lib: Library, digest: str) -> bool:
    """Does a record whose bytes are kept still name these bytes?"""
    if lib.index.is_bytes_kept(digest):
        return True
    for record_id in lib.index.kept_rendered_ids():
        try:
            if lib.load(record_id).static_bytes_sha256 == digest:
                return True
        except LibraryError:
            return True
    return False
