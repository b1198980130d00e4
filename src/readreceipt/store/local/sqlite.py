"""The embedded index: one SQLite file (``index.db``) beside the records, in WAL mode.

The YAML records are the evidence; the index exists to answer questions fast (newest copy
of a URL, counts by verdict, unreported flags) and to hold the state several processes share
(the pacing schedule, the robots.txt cache). It can be rebuilt from the records. This module
is the only one in readreceipt that speaks SQL; it implements
:class:`~readreceipt.store.protocols.Index`.

Concurrency: WAL journal, ``synchronous=NORMAL`` (survives application crashes), autocommit
connections, and every writing transaction begun with ``BEGIN IMMEDIATE`` so that several
processes queue on the write lock instead of failing with SQLITE_BUSY mid-transaction.

A copy reads complete: a writer checkpoints when it closes (passively, so it never waits for
a reader such as ``serve``), so once a command has ended ``index.db`` alone holds every row it
committed; and a library on a read-only disk is opened ``mode=ro``, which applies the WAL a
copy made mid-capture carries (``index.db-wal`` beside ``index.db-shm``). Where SQLite cannot
(the WAL came without its ``-shm`` and none can be made there), the index and its WAL are
read through a private temporary copy; only an index with no WAL to apply is opened
``immutable``.

Migrations are named and applied once, in order; each applied name is recorded. Append a
new one; never edit one already applied.

Standard library only (the hook's report path opens the index read-only to ask whether
there is anything to tell, and must stay light).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from readreceipt.errors import LibraryError
from readreceipt.store.clock import utc_now
from readreceipt.store.escaping import storable
from readreceipt.store.local import rollup
from readreceipt.store.local.jsonlog import Tally
from readreceipt.store.protocols import (
    ROBOTS_PENDING,
    AnswerCheck,
    Audit,
    CachedRobots,
    Flag,
    NewFlag,
    ProbeAnswer,
    RobotsClaim,
    Summary,
)
from readreceipt.store.rows import (
    RETRIEVAL_COLUMNS,
    SELECT_FLAGS,
    IndexReads,
    flag,
    robots_answer,
    row_for,
    unreported,
)
from readreceipt.store.rows import summary as summary_of

if TYPE_CHECKING:
    from readreceipt.store.records import Record

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 60_000

#: (name, SQL, or its statements when one holds semicolons of its own). Append only; never
#: edit an applied migration.
MIGRATIONS: list[tuple[str, str | tuple[str, ...]]] = [
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
    ("0005_audits", """
        CREATE TABLE audits (
            audit_id TEXT PRIMARY KEY,
            transcript TEXT NOT NULL,
            session_id TEXT,
            audited_at TEXT NOT NULL,
            pages INTEGER NOT NULL,
            quotations INTEGER NOT NULL,
            not_found INTEGER NOT NULL,
            report TEXT NOT NULL
        );
        CREATE INDEX audits_at ON audits(audited_at);
    """),
    # `status` reads every retrieval: these let it read two narrow indexes instead of the
    # table (1,000,000 rows: 3.0 s -> 0.3 s here; bench/team.py).
    ("0006_summary_indexes", """
        CREATE INDEX retrievals_verdict ON retrievals(verdict, reason, bytes_kept,
                                                      answer_without_page_text);
        CREATE INDEX retrievals_outcome ON retrievals(answer_outcome)
            WHERE answer_outcome IS NOT NULL;
    """),
    # A flag is a quotation, a figure or a name (quotes/claims.py), with the page's text
    # its nearest figure stands in.
    ("0007_flag_kinds", """
        ALTER TABLE flags ADD COLUMN kind TEXT NOT NULL DEFAULT 'quotation';
        ALTER TABLE flags ADD COLUMN place TEXT;
    """),
    # `status` from counts kept as rows change, whatever the number of retrievals
    # (store/local/rollup.py).
    ("0008_summary_rollup", rollup.MIGRATION),
    # `export` reads the retrievals oldest first a page at a time (Index.oldest_first).
    ("0009_oldest_first", "CREATE INDEX retrievals_oldest ON retrievals(fetched_at, record_id)"),
    # `status` counts skipped.jsonl's entries from where it last counted (jsonlog.tally),
    # not from the first line: a cache of the log, which stays the evidence.
    ("0010_log_tallies", "CREATE TABLE log_tallies (name TEXT PRIMARY KEY, "
                         "inode INTEGER NOT NULL, offset INTEGER NOT NULL, "
                         "entries INTEGER NOT NULL)"),
    # A capture about to fetch a URL claims it, so that another capture of the URL waits for
    # its copy instead of fetching it again (fetching/politeness.py: claimed_fetch).
    ("0011_fetch_claims", "CREATE TABLE fetch_claims (url TEXT PRIMARY KEY, "
                          "token TEXT NOT NULL, until REAL NOT NULL)"),
]



def _library_error(exc: sqlite3.Error, path: Path, doing: str) -> LibraryError:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return LibraryError(f"the index {path} is not writable ({text}); nothing already "
                            "stored was changed", reason="read_only")
    if "disk is full" in text or "database or disk is full" in text:
        return LibraryError(f"the disk is full while {doing} in {path}; nothing already "
                            "stored was lost", reason="disk_full")
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
        return LibraryError(f"{path} is not a readreceipt index ({text})",
                            reason="not_a_library")
    return LibraryError(f"the index {path} failed while {doing}: {text}", reason="io")


class _Connection(sqlite3.Connection):
    """A connection whose text parameters are escaped on the way in
    (:mod:`readreceipt.store.escaping`): SQLite refuses a lone surrogate, and a row must
    never be lost to one. Writes and lookups escape alike, so they still meet."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, storable(parameters))

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        return super().executemany(sql, [storable(p) for p in parameters])


class SQLiteIndex(IndexReads):
    """The index over one library's records."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        try:
            self._conn = self._connect(path, read_only)
            if not read_only:
                self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                self._set_wal()
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._migrate()
        except sqlite3.Error as exc:
            with contextlib.suppress(AttributeError, sqlite3.Error):
                self._conn.close()
            raise _library_error(exc, path, "opening it") from exc

    def _connect(self, path: Path, read_only: bool) -> sqlite3.Connection:
        self._scratch: Path | None = None
        if not read_only:
            return sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                   check_same_thread=False, factory=_Connection)
        # A read-only disk: ``mode=ro`` applies the committed WAL content when the -shm is
        # there (or can be made). Any write then fails, and the library says why.
        uri = path.resolve().as_uri()
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                                   check_same_thread=False, factory=_Connection)
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            pass
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return self._through_a_copy(path, wal)
        # No WAL to apply: the file is the whole index, read as it is.
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None,
                               check_same_thread=False, factory=_Connection)

    def _through_a_copy(self, path: Path, wal: Path) -> sqlite3.Connection:
        """The index and its WAL copied to a private folder and opened there, where SQLite
        can apply the WAL: its committed rows are read, and nothing here is written to."""
        import shutil
        import tempfile

        self._scratch = Path(tempfile.mkdtemp(prefix="readreceipt-index-"))
        log.info("%s is read-only and its WAL came without its -shm: reading a copy in %s",
                 path, self._scratch)
        shutil.copyfile(path, self._scratch / path.name)
        shutil.copyfile(wal, self._scratch / wal.name)
        return sqlite3.connect(self._scratch / path.name, isolation_level=None,
                               check_same_thread=False, factory=_Connection)

    @classmethod
    def peek(cls, path: Path) -> SQLiteIndex:
        """Open an existing index only to read it, creating and migrating nothing (the
        hook's quick look). LibraryError when there is no readable index at ``path``."""
        index = cls.__new__(cls)
        index.path, index.read_only = path, True
        uri = path.resolve().as_uri() + "?mode=ro"
        try:
            index._conn = sqlite3.connect(uri, uri=True, timeout=5, isolation_level=None,
                                          factory=_Connection)
        except sqlite3.Error as exc:
            raise _library_error(exc, path, "opening it") from exc
        return index

    def _set_wal(self) -> None:
        # Switching to WAL needs a brief exclusive lock; several new processes may race here.
        for _ in range(50):
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        if not self.read_only:
            # Backfill the WAL into index.db now, without waiting for any reader: a copy
            # of the folder made after this command then reads complete, even of index.db
            # alone. (The last connection to close also resets the WAL, as SQLite does.)
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self._conn.close()
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)

    @contextlib.contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """A writing transaction, begun IMMEDIATE so it queues for the write lock."""
        if self.read_only:
            raise LibraryError(f"the index {self.path} is on a read-only disk or folder",
                               reason="read_only")
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _library_error(exc, self.path, doing) from exc
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise _library_error(exc, self.path, doing) from exc
            raise

    def _ask(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._read(sql, params)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _library_error(exc, self.path, "reading it") from exc

    def _migrate(self) -> None:
        with self._write("migrating it") as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, "
                         "applied_at TEXT NOT NULL)")
            done = {r[0] for r in conn.execute("SELECT name FROM migrations")}
            for name, sql in MIGRATIONS:
                if name in done:
                    continue
                for statement in (sql if isinstance(sql, tuple) else sql.split(";")):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO migrations VALUES (?, ?)", (name, utc_now()))

    # retrievals -----------------------------------------------------------------------

    def add_retrieval(self, record: Record) -> None:
        marks = ",".join("?" for _ in RETRIEVAL_COLUMNS)
        with self._write("writing a retrieval") as conn:
            conn.execute(f"INSERT OR REPLACE INTO retrievals ({','.join(RETRIEVAL_COLUMNS)}) "  # noqa: S608 - column names are constants
                         f"VALUES ({marks})", row_for(record))

    def summary(self) -> Summary:
        """The counts ``status`` shows, from the rollup (a few rows, whatever the number of
        retrievals: store/local/rollup.py)."""
        urls, groups, outcomes, kinds, checks = (self._read(sql) for sql in rollup.SUMMARY)
        return summary_of(urls[0][0], groups, outcomes, sum(int(n) for _, n in kinds),
                          checks[0][0], kinds)

    def counted_summary(self) -> Summary:
        """The same counts, counted from every row (what the rollup must always equal)."""
        urls = self._read("SELECT COUNT(DISTINCT url) FROM retrievals")[0][0]
        groups = self._read("SELECT verdict, reason, COUNT(*), SUM(bytes_kept), "
                            "SUM(answer_without_page_text) FROM retrievals "
                            "GROUP BY verdict, reason")
        outcomes = self._read("SELECT answer_outcome, COUNT(*) FROM retrievals WHERE "
                              "answer_outcome IS NOT NULL GROUP BY answer_outcome "
                              "ORDER BY COUNT(*) DESC, answer_outcome")
        kinds = self._read("SELECT kind, COUNT(*) FROM flags GROUP BY kind")
        checks = self._read("SELECT COUNT(*) FROM answer_checks")[0][0]
        return summary_of(urls, groups, outcomes, sum(int(n) for _, n in kinds), checks, kinds)

    def log_tally(self, name: str) -> Tally | None:
        """Where the count of the log ``name`` last stopped; None if never counted (or the
        index is a read-only one from before the tallies)."""
        try:
            rows = self._conn.execute("SELECT inode, offset, entries FROM log_tallies "
                                      "WHERE name = ?", (name,)).fetchall()
        except sqlite3.Error:
            return None
        return Tally(*rows[0]) if rows else None

    def keep_log_tally(self, name: str, tally: Tally) -> None:
        """Remember where the count stopped. A cache: on a read-only or busy index it is not
        kept, and the next count starts further back."""
        if self.read_only:
            return
        with contextlib.suppress(LibraryError), self._write("keeping a log's count") as conn:
            conn.execute("INSERT OR REPLACE INTO log_tallies VALUES (?, ?, ?, ?)",
                         (name, tally.inode, tally.offset, tally.entries))

    def set_forgotten(self, record_ids: Sequence[str]) -> None:
        with self._write("forgetting bytes") as conn:
            conn.executemany("UPDATE retrievals SET bytes_kept = 0 WHERE record_id = ?",
                             [(r,) for r in record_ids])

    # answer checks and flags ----------------------------------------------------------

    def add_check(self, check: AnswerCheck) -> None:
        with self._write("writing an answer check") as conn:
            conn.execute("INSERT INTO answer_checks (record_id, url, checked_at, outcome, reason,"
                         " answer_sha256, session_id, agent_id) VALUES (?,?,?,?,?,?,?,?)",
                         (check.record_id, check.url, utc_now(), check.outcome, check.reason,
                          check.answer_sha256, check.session_id, check.agent_id))

    def add_flags(self, flags: Sequence[NewFlag]) -> list[NewFlag]:
        added: list[NewFlag] = []
        if not flags:
            return added
        with self._write("writing flags") as conn:
            for f in flags:
                held = conn.execute(
                    "SELECT 1 FROM flags WHERE record_id = ? AND passage = ? AND kind = ? AND "
                    "session_id IS ? AND agent_id IS ? LIMIT 1",
                    (f.record_id, f.passage, f.kind, f.session_id, f.agent_id)).fetchone()
                if held is None:
                    conn.execute(
                        "INSERT INTO flags (record_id, url, passage, nearest, similarity, "
                        "session_id, agent_id, created_at, kind, place) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (f.record_id, f.url, f.passage, f.nearest, f.similarity, f.session_id,
                         f.agent_id, f.created_at, f.kind, f.place))
                    added.append(f)
        return added

    def all_flags(self) -> list[Flag]:
        """Every flag, oldest first (``push`` copies them)."""
        return [flag(r) for r in self._read(SELECT_FLAGS + " ORDER BY id")]

    def all_checks(self) -> list[tuple[int, str, AnswerCheck]]:
        """Every answer check as (id, checked_at, check), oldest first (``push``)."""
        rows = self._read("SELECT id, checked_at, record_id, url, outcome, reason, "
                          "answer_sha256, session_id, agent_id FROM answer_checks ORDER BY id")
        return [(int(r[0]), str(r[1]), AnswerCheck(*r[2:])) for r in rows]

    def claim_unreported_flags(self, session_id: str, agent_id: str | None, *,
                               limit: int) -> list[Flag]:
        where, params = unreported(session_id, agent_id)
        with self._write("claiming flags") as conn:
            rows = conn.execute(SELECT_FLAGS + where + " ORDER BY id LIMIT ?",
                                [*params, limit]).fetchall()
            now, told = utc_now(), agent_id or "main"
            conn.executemany("UPDATE flags SET reported_at = ?, reported_to = ? WHERE id = ?",
                             [(now, told, row[0]) for row in rows])
        return [flag((*row[:-2], now, told)) for row in rows]

    # the pacing schedule --------------------------------------------------------------

    def reserve_pacing_slot(self, host: str, gap: float, clock: Callable[[], float]) -> float:
        with self._write("reserving a pacing slot") as conn:
            row = conn.execute("SELECT next_at FROM pacing WHERE host = ?", (host,)).fetchone()
            now = clock()
            start = max(now, row[0]) if row else now
            conn.execute("INSERT INTO pacing (host, next_at) VALUES (?, ?) ON CONFLICT(host) "
                         "DO UPDATE SET next_at = excluded.next_at", (host, start + gap))
        return float(start)

    def release_pacing_slot(self, host: str, start: float, gap: float) -> None:
        with self._write("releasing a pacing slot") as conn:
            conn.execute("UPDATE pacing SET next_at = ? WHERE host = ? AND next_at = ?",
                         (start, host, start + gap))

    # fetches in flight ----------------------------------------------------------------

    def claim_fetch(self, url: str, token: str, seconds: float) -> float | None:
        with self._write("claiming a fetch") as conn:
            now = time.time()
            row = conn.execute("SELECT token, until FROM fetch_claims WHERE url = ?",
                               (url,)).fetchone()
            if row is not None and row[0] != token and row[1] > now:
                return float(row[1]) - now
            conn.execute("INSERT OR REPLACE INTO fetch_claims VALUES (?, ?, ?)",
                         (url, token, now + seconds))
        return None

    def release_fetch(self, url: str, token: str) -> None:
        with self._write("releasing a fetch claim") as conn:
            conn.execute("DELETE FROM fetch_claims WHERE url = ? AND token = ?", (url, token))

    # the robots.txt cache -------------------------------------------------------------

    def claim_robots(self, origin: str, now: float, *, fresh: Callable[[CachedRobots], bool],
                     pending_timeout: float) -> RobotsClaim:
        with self._write("reading the robots.txt cache") as conn:
            row = conn.execute("SELECT origin, fetched_at, status, body, outcome FROM robots "
                               "WHERE origin = ?", (origin,)).fetchone()
            answer = robots_answer(row, now, fresh, pending_timeout)
            if answer is not None:
                return answer
            conn.execute("INSERT INTO robots (origin, fetched_at, status, body, outcome) "
                         "VALUES (?, ?, NULL, NULL, ?) ON CONFLICT(origin) DO UPDATE SET "
                         "fetched_at = excluded.fetched_at, status = NULL, body = NULL, "
                         "outcome = excluded.outcome", (origin, now, ROBOTS_PENDING))
        return RobotsClaim(None, claimed=True)

    def release_robots_claim(self, origin: str) -> None:
        with self._write("releasing a robots.txt claim") as conn:
            conn.execute("DELETE FROM robots WHERE origin = ? AND outcome = ?",
                         (origin, ROBOTS_PENDING))

    def store_robots(self, entry: CachedRobots) -> None:
        with self._write("caching a robots.txt") as conn:
            conn.execute("INSERT INTO robots (origin, fetched_at, status, body, outcome) "
                         "VALUES (?, ?, ?, ?, ?) ON CONFLICT(origin) DO UPDATE SET "
                         "fetched_at = excluded.fetched_at, status = excluded.status, "
                         "body = excluded.body, outcome = excluded.outcome",
                         (entry.origin, entry.fetched_at, entry.status, entry.body,
                          entry.outcome))

    # audits of agent sessions ---------------------------------------------------------

    def add_audit(self, audit: Audit) -> None:
        with self._write("writing an audit") as conn:
            conn.execute("INSERT OR REPLACE INTO audits (audit_id, transcript, session_id, "
                         "audited_at, pages, quotations, not_found, report) VALUES "
                         "(?,?,?,?,?,?,?,?)",
                         (audit.audit_id, audit.transcript, audit.session_id, audit.audited_at,
                          audit.pages, audit.quotations, audit.not_found, audit.report))

    # soft-404 probes (one per origin, kept a day) --------------------------------------

    def remember_probe_answer(self, answer: ProbeAnswer) -> None:
        with self._write("caching a soft-404 probe's answer") as conn:
            conn.execute(
                "INSERT INTO soft404_probes (origin, fetched_at, url, final_url, status, "
                "text_sha256, text, failure) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(origin) DO UPDATE SET fetched_at = excluded.fetched_at, "
                "url = excluded.url, final_url = excluded.final_url, status = excluded.status,"
                " text_sha256 = excluded.text_sha256, text = excluded.text, "
                "failure = excluded.failure",
                (answer.origin, answer.fetched_at, answer.url, answer.final_url, answer.status,
                 answer.text_sha256, answer.text, answer.failure))
