"""The evidence store: what was fetched, kept so that it can be checked later.

Layout of the local library (``docs/design.md``)::

    store/ab/<bytes_sha256>    the bytes as received        (files.FileBlobStore)
    text/cd/<sha256>           each extracted text          (files.FileBlobStore)
    records/<record_id>.yaml   one record per retrieval     (files.FileRecordStore, records)
    index.db                   SQLite, WAL                  (sqlite.SQLiteIndex)
    skipped.jsonl, flags.jsonl, answer_checks.jsonl         (files.FileLogs, jsonlog)

:class:`~readreceipt.store.library.Library` ties them together and is all the rest of
readreceipt holds; the protocols it speaks to its backends are in
:mod:`readreceipt.store.protocols`.

What this package decides: how evidence is laid out, written atomically, found, counted and
shared between processes. What it may import: the standard library, PyYAML (records),
:mod:`readreceipt.errors` and :mod:`readreceipt.progress`; never a pipeline stage, an
adapter, click or mcp. It is the only package that speaks SQL (``sqlite.py``) or touches a
storage backend.

This ``__init__`` imports nothing, so that the hook's report path can open the index
(``store.discovery``, ``store.sqlite``: standard library only) without the records' YAML;
import :class:`~readreceipt.store.library.Library` from its module (or from ``readreceipt``).
"""
