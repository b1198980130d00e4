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

Loaded lazily, so that the hook's report path can open the index without the records' YAML.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.store.library import Library
    from readreceipt.store.records import Record

_LAZY = {"Library": "readreceipt.store.library", "Record": "readreceipt.store.records"}

__all__ = ["Library", "Record"]


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'readreceipt.store' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value
