"""The SQLite index: one row per retrieval, per answer check and per flag, plus small state.

The YAML records are the evidence; the index exists to answer questions fast (newest copy
of a URL, counts by verdict, unreported flags) and to hold shared state across processes
(pacing schedule, robots.txt cache). It can be rebuilt from the records.

Concurrency: WAL journal, ``synchronous=NORMAL`` (survives application crashes), autocommit
connections, and every writing transaction begun with ``BEGIN IMMEDIATE`` so that several
processes queue on the write lock instead of failing with SQLITE_BUSY mid-transaction.

Migrations are named and applied once, in order; each applied name is recorded.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from readreceipt.errors import LibraryError
from readreceipt.store.records import Record, utc_now

BUSY_TIMEOUT_MS = 60_000

#: (name, SQL). Append only; never edit an applied migration.
MIGRATIONS: list[tuple[str, str]] = [
    ("0001_retrievals", """
        CREATE TABLE retrievals (
            record_id TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            final_url TEXT,
            host TEXT,
            fetched_at TEXT NOT NULL,
            http_status INTEGER,
            content_type TEXT,
            verdict TEXT NOT NULL,
            reason TEXT NOT NULL,
            wall TEXT,
            bytes INTEGER NOT NULL DEFAULT 0,
            bytes_sha256 TEXT,
            bytes_kept INTEGER NOT NULL DEFAULT 0,
            truncated INTEGER NOT NULL DEFAULT 0,
            text_sha256 TEXT,
            page_text_sha256 TEXT,
            text_chars INTEGER NOT NULL DEFAULT 0,
            javascript_executed INTEGER NOT NULL DEFAULT 0,
            session_id TEXT,
            agent_id TEXT,
            answer_outcome TEXT,
            answer_without_page_text INTEGER NOT NULL DEFAULT 0,
            title TEXT
        );
        CREATE INDEX retrievals_url ON retrievals(url, fetched_at);
        CREATE INDEX retrievals_final_url ON retrievals(final_url, fetched_at);
        CREATE INDEX retrievals_fetched ON retrievals(fetched_at);
        CREATE INDEX retrievals_session ON retrievals(session_id);
        CREATE INDEX retrievals_sha ON retrievals(bytes_sha256);
    """),
    ("0002_checks_flags", """
        CREATE TABLE answer_checks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            record_id TEXT NOT NULL,
            url TEXT NOT NULL,
            checked_at TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reason TEXT,
            answer_sha256 TEXT,
            session_id TEXT,
            agent_id TEXT
        );
        CREATE INDEX answer_checks_record ON answer_checks(record_id);
        CREATE TABLE flags (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            record_id TEXT NOT NULL,
            url TEXT NOT NULL,
            passage TEXT NOT NULL,
            nearest TEXT,
            similarity REAL,
            session_id TEXT,
            agent_id TEXT,
            created_at TEXT NOT NULL,
            reported_at TEXT,
            reported_to TEXT
        );
        CREATE INDEX flags_session ON flags(session_id, reported_at);
    """),
    ("0003_pacing", """
        CREATE TABLE pacing (
            host TEXT PRIMARY KEY,
            next_at REAL NOT NULL
        );
        CREATE TABLE robots (
            origin TEXT PRIMARY KEY,
            fetched_at REAL NOT NULL,
            status INTEGER,
            body TEXT,
            outcome TEXT NOT NULL
        );
    """),
    ("0004_soft404_probes", """
        CREATE TABLE soft404_probes (
            origin TEXT PRIMARY KEY,
            fetched_at REAL NOT NULL,
            url TEXT NOT NULL,
            final_url TEXT,
            status INTEGER,
            text_sha256 TEXT,
            text TEXT,
            failure TEXT
        );
    """),
]

_RETRIEVAL_COLUMNS = (
    "record_id", "url", "final_url", "host", "fetched_at", "http_status", "content_type",
    "verdict", "reason", "wall", "bytes", "bytes_sha256", "bytes_kept", "truncated",
    "text_sha256", "page_text_sha256", "text_chars", "javascript_executed", "session_id",
    "agent_id", "answer_outcome", "answer_without_page_text", "title",
)


def _row_for(record: Record) -> tuple[Any, ...]:
    from urllib.parse import urlsplit

    host = urlsplit(record.url).hostname or ""
    outcome = (record.answer_check or {}).get("outcome")
    values = {
        **{c: getattr(record, c, None) for c in _RETRIEVAL_COLUMNS if hasattr(record, c)},
        "host": host,
        "answer_outcome": outcome,
    }
    return tuple(values.get(c) for c in _RETRIEVAL_COLUMNS)


@dataclass(frozen=True)
class ProbeRow:
    """How an origin answered a request for a path that cannot exist (soft-404 probe)."""

    origin: str
    fetched_at: float  # epoch seconds
    url: str
    final_url: str | None
    status: int | None  # None: no answer (failure says why)
    text_sha256: str | None
    text: str | None  # the answer's visible text, for comparison with later pages
    failure: str | None = None


class Index(Protocol):
    """What the pipeline and the adapters ask of an index. A PostgreSQL index for teams
    implements the same methods; ``write()`` yields a DB-API connection in a transaction
    that holds the write lock (``BEGIN IMMEDIATE`` here, ``SELECT … FOR UPDATE`` there)."""

    read_only: bool

    def write(self) -> contextlib.AbstractContextManager[Any]: ...
    def add_retrieval(self, record: Record) -> None: ...
    def retrieval(self, record_id: str) -> Any: ...
    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]: ...
    def for_url(self, url: str, *, limit: int | None = None) -> list[Any]: ...
    def rows(self, *, limit: int | None = 50, verdict: str | None = None,
             session_id: str | None = None, url_like: str | None = None,
             since: str | None = None, until: str | None = None,
             offset: int = 0) -> list[Any]: ...
    def counts_by(self, column: str) -> list[tuple[str | None, int]]: ...
    def totals(self) -> dict[str, int]: ...
    def set_forgotten(self, record_ids: Sequence[str]) -> None: ...
    def digest_in_use(self, column: str, digest: str) -> bool: ...
    def session_captures(self, session_id: str) -> int: ...
    def add_check(self, *, record_id: str, url: str, outcome: str, reason: str | None,
                  answer_sha256: str | None, session_id: str | None,
                  agent_id: str | None) -> None: ...
    def add_flags(self, flags: Sequence[dict[str, Any]]) -> None: ...
    def probe_answer_for_origin(self, origin: str, newer_than: float) -> ProbeRow | None: ...
    def remember_probe_answer(self, row: ProbeRow) -> None: ...
    def close(self) -> None: ...


class SQLiteIndex:
    """The index over one library's records."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        if read_only:
            # On a read-only folder SQLite cannot make the WAL's -shm file; ``immutable``
            # reads the file as it is. Any write then fails, and the library says why.
            self.conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True,
                                        isolation_level=None, check_same_thread=False)
            self.conn.row_factory = sqlite3.Row
            return
        self.conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000,
                                    isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self._set_wal()
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.migrate()

    def _set_wal(self) -> None:
        # Switching to WAL needs a brief exclusive lock; several new processes may race here.
        for _ in range(50):
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A writing transaction, begun IMMEDIATE so it queues for the write lock."""
        if self.read_only:
            raise LibraryError(f"the index {self.path} is on a read-only disk or folder",
                               reason="read_only")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def migrate(self) -> list[str]:
        applied_now: list[str] = []
        with self.write() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, "
                         "applied_at TEXT NOT NULL)")
            done = {r[0] for r in conn.execute("SELECT name FROM migrations")}
            for name, sql in MIGRATIONS:
                if name in done:
                    continue
                for statement in sql.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO migrations VALUES (?, ?)", (name, utc_now()))
                applied_now.append(name)
        return applied_now

    def migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM migrations ORDER BY name")]

    # retrievals -----------------------------------------------------------------------

    def add_retrieval(self, record: Record) -> None:
        marks = ",".join("?" for _ in _RETRIEVAL_COLUMNS)
        with self.write() as conn:
            conn.execute(f"INSERT OR REPLACE INTO retrievals ({','.join(_RETRIEVAL_COLUMNS)}) "  # noqa: S608 - column names are constants
                         f"VALUES ({marks})", _row_for(record))

    def retrieval(self, record_id: str) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM retrievals WHERE record_id = ?", (record_id,)).fetchone()
        return row

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        rows = self.conn.execute(
            "SELECT record_id FROM retrievals WHERE record_id >= ? AND record_id < ? "
            "ORDER BY record_id LIMIT ?", (prefix, prefix + "\uffff", limit))
        return [r[0] for r in rows]

    def for_url(self, url: str, *, limit: int | None = None) -> list[sqlite3.Row]:
        """Retrievals of ``url`` (asked for or arrived at), newest first."""
        sql = ("SELECT * FROM retrievals WHERE url = ? OR final_url = ? "
               "ORDER BY fetched_at DESC, record_id DESC")
        params: tuple[Any, ...] = (url, url)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        return list(self.conn.execute(sql, params))

    def rows(self, *, limit: int | None = 50, verdict: str | None = None,
             session_id: str | None = None, url_like: str | None = None,
             since: str | None = None, until: str | None = None,
             offset: int = 0) -> list[sqlite3.Row]:
        clauses, params = self._filters(verdict, session_id, url_like, since, until)
        sql = "SELECT * FROM retrievals"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        sql += " ORDER BY fetched_at DESC, record_id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return list(self.conn.execute(sql, params))

    def count(self, *, verdict: str | None = None, session_id: str | None = None,
              url_like: str | None = None, since: str | None = None,
              until: str | None = None) -> int:
        clauses, params = self._filters(verdict, session_id, url_like, since, until)
        sql = "SELECT COUNT(*) FROM retrievals"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        return int(self.conn.execute(sql, params).fetchone()[0])

    @staticmethod
    def _filters(verdict: str | None, session_id: str | None, url_like: str | None,
                 since: str | None, until: str | None) -> tuple[list[str], list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if verdict:
            clauses.append("verdict = ?")
            params.append(verdict.upper())
        if session_id:
            clauses.append("session_id = ?")
            params.append(session_id)
        if url_like:
            clauses.append("(url LIKE ? OR final_url LIKE ?)")
            params += [f"%{url_like}%", f"%{url_like}%"]
        if since:
            clauses.append("fetched_at >= ?")
            params.append(since)
        if until:
            clauses.append("fetched_at < ?")
            params.append(until)
        return clauses, params

    def counts_by(self, column: str) -> list[tuple[str | None, int]]:
        if column not in ("verdict", "reason", "wall", "answer_outcome", "session_id"):
            raise ValueError(column)
        rows = self.conn.execute(
            f"SELECT {column}, COUNT(*) FROM retrievals GROUP BY {column} "  # noqa: S608 - column is checked above
            "ORDER BY COUNT(*) DESC")
        return [(r[0], int(r[1])) for r in rows]

    def totals(self) -> dict[str, int]:
        row = self.conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT url), COALESCE(SUM(bytes_kept), 0), "
            "COALESCE(SUM(answer_without_page_text), 0) FROM retrievals").fetchone()
        flags = self.conn.execute("SELECT COUNT(*) FROM flags").fetchone()[0]
        checks = self.conn.execute("SELECT COUNT(*) FROM answer_checks").fetchone()[0]
        return {"retrievals": int(row[0]), "urls": int(row[1]), "bytes_kept": int(row[2]),
                "answer_without_page_text": int(row[3]), "flags": int(flags),
                "answer_checks": int(checks)}

    def set_forgotten(self, record_ids: Sequence[str]) -> None:
        with self.write() as conn:
            conn.executemany("UPDATE retrievals SET bytes_kept = 0 WHERE record_id = ?",
                             [(r,) for r in record_ids])

    def digest_in_use(self, column: str, digest: str) -> bool:
        if column not in ("bytes_sha256", "text_sha256", "page_text_sha256"):
            raise ValueError(column)
        row = self.conn.execute(
            f"SELECT 1 FROM retrievals WHERE {column} = ? AND bytes_kept = 1 LIMIT 1",  # noqa: S608 - column is checked above
            (digest,)).fetchone()
        return row is not None

    def session_captures(self, session_id: str) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM retrievals WHERE session_id = ?",
                                     (session_id,)).fetchone()[0])

    # checks and flags -----------------------------------------------------------------

    def add_check(self, *, record_id: str, url: str, outcome: str, reason: str | None,
                  answer_sha256: str | None, session_id: str | None,
                  agent_id: str | None) -> None:
        with self.write() as conn:
            conn.execute("INSERT INTO answer_checks (record_id, url, checked_at, outcome, reason,"
                         " answer_sha256, session_id, agent_id) VALUES (?,?,?,?,?,?,?,?)",
                         (record_id, url, utc_now(), outcome, reason, answer_sha256,
                          session_id, agent_id))

    def add_flags(self, flags: Sequence[dict[str, Any]]) -> None:
        if not flags:
            return
        with self.write() as conn:
            conn.executemany(
                "INSERT INTO flags (record_id, url, passage, nearest, similarity, session_id,"
                " agent_id, created_at) VALUES (:record_id, :url, :passage, :nearest,"
                " :similarity, :session_id, :agent_id, :created_at)", flags)

    def flags(self, *, limit: int = 200) -> list[sqlite3.Row]:
        return list(self.conn.execute("SELECT * FROM flags ORDER BY id DESC LIMIT ?", (limit,)))

    # soft-404 probes (one per origin, kept a day) --------------------------------------

    def probe_answer_for_origin(self, origin: str, newer_than: float) -> ProbeRow | None:
        """The origin's answer to a probe made after ``newer_than`` (epoch), if any."""
        row = self.conn.execute(
            "SELECT origin, fetched_at, url, final_url, status, text_sha256, text, failure "
            "FROM soft404_probes WHERE origin = ? AND fetched_at > ?",
            (origin, newer_than)).fetchone()
        return ProbeRow(*row) if row is not None else None

    def remember_probe_answer(self, row: ProbeRow) -> None:
        """Keep ``row`` as the origin's probe answer (replacing an older one)."""
        with self.write() as conn:
            conn.execute(
                "INSERT INTO soft404_probes (origin, fetched_at, url, final_url, status, "
                "text_sha256, text, failure) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(origin) DO UPDATE SET fetched_at = excluded.fetched_at, "
                "url = excluded.url, final_url = excluded.final_url, status = excluded.status,"
                " text_sha256 = excluded.text_sha256, text = excluded.text, "
                "failure = excluded.failure",
                (row.origin, row.fetched_at, row.url, row.final_url, row.status,
                 row.text_sha256, row.text, row.failure))
