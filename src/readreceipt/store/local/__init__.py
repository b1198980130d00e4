"""The local library's back end: one folder on one machine.

``sqlite.SQLiteIndex`` (the index, ``index.db`` in WAL mode), ``files`` (content-addressed
blobs and texts, YAML records), ``jsonlog`` (the append-only logs) and ``leftovers`` (what a
killed writer left in the folder). Each speaks one of the protocols of
:mod:`readreceipt.store.protocols`; the rest of readreceipt reaches them only through
:class:`~readreceipt.store.library.Library`.

This ``__init__`` imports nothing, so that the hook's quick modes can open the index (standard
library only) without loading the rest.
"""
