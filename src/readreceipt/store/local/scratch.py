"""Maps kept on disk for work that would outgrow memory: what an export must remember.

An export of a million retrievals remembers, for each payload, the capture that first wrote
it (a later one is a revisit of it), for each text the record that holds it, and for each
record its answer checks and flags. In dicts that is a gigabyte; here each is a table of a
throwaway SQLite file in the export's work folder, read and written a key at a time, with a
few megabytes of cache: memory stays flat whatever the number of records.

Invariants: nothing here is evidence (the file goes with the work folder); no fsync (a killed
export starts again from nothing); a key holds one value (:meth:`Scratch.first` keeps the
first) or, in a list table, several in the order added.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["Scratch"]

#: Kibibytes of page cache the scratch file may hold in memory.
CACHE_KIB = 8192
#: Writes between commits (a transaction's dirty pages spill to the file as it grows).
COMMIT_EVERY = 10_000


class Scratch:
    """Named maps (``first``) and lists (``add``/``values``) of JSON values by key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = sqlite3.connect(path, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=OFF")
        self._conn.execute("PRAGMA synchronous=OFF")
        self._conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self._conn.execute("PRAGMA temp_store=FILE")
        self._tables: set[str] = set()
        self._pending = 0
        self._conn.execute("BEGIN")

    def _table(self, name: str, unique: bool) -> str:
        if not name.isidentifier():
            raise ValueError(f"not a table name: {name!r}")
        if name not in self._tables:
            key = "key TEXT PRIMARY KEY" if unique else "key TEXT NOT NULL"
            self._conn.execute(f"CREATE TABLE IF NOT EXISTS {name} ({key}, value TEXT NOT NULL)")
            if not unique:
                self._conn.execute(f"CREATE INDEX IF NOT EXISTS {name}_key ON {name}(key)")
            self._tables.add(name)
        return name

    def _wrote(self) -> None:
        self._pending += 1
        if self._pending >= COMMIT_EVERY:
            self._conn.execute("COMMIT")
            self._conn.execute("BEGIN")
            self._pending = 0

    def get(self, table: str, key: str) -> Any:
        """The value kept under ``key`` in the map ``table``, or None."""
        row = self._conn.execute(f"SELECT value FROM {self._table(table, True)} WHERE key = ?",  # noqa: S608 - a checked identifier
                                 (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def first(self, table: str, key: str, value: Any) -> None:
        """Keep ``value`` under ``key`` unless a value is kept there already."""
        self._conn.execute(f"INSERT OR IGNORE INTO {self._table(table, True)} VALUES (?, ?)",  # noqa: S608 - a checked identifier
                           (key, json.dumps(value)))
        self._wrote()

    def add(self, table: str, key: str, value: Any) -> None:
        """Add ``value`` to the list under ``key`` in ``table``."""
        self._conn.execute(f"INSERT INTO {self._table(table, False)} VALUES (?, ?)",  # noqa: S608 - a checked identifier
                           (key, json.dumps(value)))
        self._wrote()

    def values(self, table: str, key: str) -> Iterator[Any]:
        """The values added under ``key``, in the order added."""
        rows = self._conn.execute(f"SELECT value FROM {self._table(table, False)} "  # noqa: S608 - a checked identifier
                                  "WHERE key = ? ORDER BY rowid", (key,)).fetchall()
        return (json.loads(r[0]) for r in rows)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("COMMIT")
        self._conn.close()
