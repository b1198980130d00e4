"""The evidence store: blobs by digest, one YAML record per retrieval, and a SQLite index.

Layout (DESIGN.md)::

    store/ab/<bytes_sha256>    the bytes as received        (blobs.FileBlobStore)
    text/cd/<sha256>           each extracted text          (blobs.FileBlobStore)
    records/<record_id>.yaml   one record per retrieval     (records)
    index.db                   SQLite, WAL                  (index.SQLiteIndex)
    skipped.jsonl, flags.jsonl, answer_checks.jsonl         (jsonlog)

:class:`~readreceipt.store.library.Library` ties them together; the pipeline sees only it.
"""

from __future__ import annotations

from readreceipt.store.library import Library
from readreceipt.store.records import Record

__all__ = ["Library", "Record"]
