"""The evidence store: what was fetched, kept so that it can be checked later.

Layout of the local library (``docs/design.md``)::

    store/ab/<bytes_sha256>    the bytes as received        (local.files.FileBlobStore)
    text/cd/<sha256>           each extracted text          (local.files.FileBlobStore)
    records/<record_id>.yaml   one record per retrieval     (local.files.FileRecordStore)
    index.db                   SQLite, WAL                  (local.sqlite.SQLiteIndex)
    skipped.jsonl, flags.jsonl, answer_checks.jsonl         (local.files.FileLogs)

Two back ends, one subpackage each, behind the ``Index`` and ``BlobStore`` protocols
(:mod:`readreceipt.store.protocols`):

- ``store/local/``: the folder above (SQLite, files, JSONL logs, a killed writer's leftovers);
- ``store/team/``: PostgreSQL (``postgres``, ``pgschema``), an S3-compatible bucket
  (``objects``), where a team library is named (``config``) and ``push``.

The modules directly in ``store/`` are what both share: the record and its YAML form, the
index's rows, :class:`~readreceipt.store.library.Library`, discovery, atomic writes, ``verify``
and ``forget``. ``local`` never imports ``team``; ``team`` reads ``local`` only in ``push``
(``tests/test_layout.py``).

:class:`~readreceipt.store.library.Library` ties them together and is all the rest of
readreceipt holds; the protocols it speaks to its backends are in
:mod:`readreceipt.store.protocols`.

What this package decides: how evidence is laid out, written atomically, found, counted and
shared between processes. What it may import: the standard library, PyYAML (records),
:mod:`readreceipt.errors` and :mod:`readreceipt.progress`; never a pipeline stage, an
adapter, click or mcp. It is the only package that speaks SQL (``local/sqlite.py``,
``team/postgres.py``) or touches a storage backend.

This ``__init__`` imports nothing, so that the hook's report path can open the index
(``store.discovery``, ``store.local.sqlite``: standard library only) without the records' YAML;
import :class:`~readreceipt.store.library.Library` from its module (or from ``readreceipt``).
"""
