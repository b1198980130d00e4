"""The team index: PostgreSQL (psycopg 3, a connection pool), the same questions as SQLite.

:class:`PostgresIndex` implements :class:`~readreceipt.store.protocols.Index` over the
schema of :mod:`readreceipt.store.team.pgschema`; :class:`PostgresLogs` keeps the JSONL logs of
a local library (``skipped.jsonl``, ``flags.jsonl``, ``answer_checks.jsonl``) as rows of one
table, one JSON line a row. Both are shared by every worker on every machine that names the
same database.

Concurrency: every connection is in autocommit mode; a method that changes shared state
reads and writes in one explicit transaction holding a row lock (``SELECT ... FOR UPDATE``)
or, where the row may not exist yet, a transaction-level advisory lock on its key. A pacing
slot is one such transaction; the caller sleeps outside it. The pacing schedule runs on the
*database server's* clock, so machines whose clocks disagree still queue one gap apart: the
start handed back is converted to the caller's clock by the offset read in that transaction.

Failures: a driver error becomes :class:`~readreceipt.errors.LibraryError` whose message is
scrubbed of every secret (:meth:`~readreceipt.store.team.config.TeamConfig.scrub`) and names the
index without its password. Text that PostgreSQL cannot hold (a NUL character, a lone
surrogate) is stored with U+FFFD in its place, never dropped.

psycopg is imported when a team library is opened, never before (the local library and the
hook's fast path do not pay for it).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from readreceipt.errors import LibraryError
from readreceipt.store.clock import utc_now
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
from readreceipt.store.team import pgschema, rollup
from readreceipt.store.team.config import (
    TeamConfig,
    redact_dsn,
    require_auth,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: Seconds to wait for the server to answer a connection (unless the URL sets its own).
CONNECT_TIMEOUT = 10
#: Seconds a worker waits for a free connection of its pool before giving up.
POOL_TIMEOUT = 60.0
#: Rows read from a log per round trip.
LOG_PAGE = 1000
#: How the server of an index URL found in a config.toml may authenticate the user. Such a
#: file is a project's, a repository can carry one naming any server, and libpq hands that
#: server the password if it asks, in the clear or as an md5 hash a guess can be tested
#: against offline: a password goes only through SCRAM, which proves it without revealing
#: it; a server that asks for nothing (trust) is sent nothing (libpq 16 and later).
CONFIG_FILE_REQUIRE_AUTH = "scram-sha-256,none"
#: The loggers psycopg and its pool write to (their lines are scrubbed of secrets).
_DRIVER_LOGGERS = ("psycopg", "psycopg.pool")

def _upsert(table: str, columns: Sequence[str]) -> str:
    """INSERT of every column, or UPDATE of all but the first (the key) when the key is
    there: one row per key, the newest values."""
    return (f"INSERT INTO {table} ({', '.join(columns)}) "  # noqa: S608 - constant names
            f"VALUES ({', '.join('%s' for _ in columns)}) ON CONFLICT ({columns[0]}) DO UPDATE "
            "SET " + ", ".join(f"{c} = EXCLUDED.{c}" for c in columns[1:]))


_UPSERT_RETRIEVAL = _upsert("retrievals", RETRIEVAL_COLUMNS)
_UPSERT_ROBOTS = _upsert("robots", ("origin", "fetched_at", "status", "body", "outcome"))
_UPSERT_PROBE = _upsert("soft404_probes", ("origin", "fetched_at", "url", "final_url", "status",
                                           "text_sha256", "text", "failure"))
_UPSERT_AUDIT = _upsert("audits", ("audit_id", "transcript", "session_id", "audited_at",
                                   "pages", "quotations", "not_found", "report"))


def _pg_text(value: str) -> str:
    """``value`` as PostgreSQL can hold it: no NUL, no lone surrogate."""
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
    return value


def _clean(params: Sequence[Any]) -> list[Any]:
    return [_pg_text(p) if isinstance(p, str) else p for p in params]


class _Scrubbing(logging.Filter):
    """Removes the team's secrets from what psycopg itself logs."""

    def __init__(self, scrub: Callable[[str], str]) -> None:
        super().__init__()
        self._scrub = scrub

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self._scrub(record.getMessage()), ()
        return True


class PostgresIndex(IndexReads):
    """The index of a team library, in one PostgreSQL database."""

    read_only = False

    def __init__(self, config: TeamConfig, *, max_connections: int = 4) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self._psycopg = psycopg
        self._config = config
        self.name = redact_dsn(config.index_url)
        self._lock = threading.Lock()
        #: Slots reserved by this process: (host, start on the caller's clock) -> start on
        #: the server's clock, so that a slot given back is found again.
        self._reserved: dict[tuple[str, float], float] = {}
        # Taken off again by close (or a failed opening): a process that opens the library
        # for every request (the MCP server) would gather one more filter each time.
        self._scrubbing = _Scrubbing(config.scrub)
        for name in _DRIVER_LOGGERS:
            logging.getLogger(name).addFilter(self._scrubbing)
        kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in config.index_url:
            kwargs["connect_timeout"] = CONNECT_TIMEOUT
        if config.from_file and require_auth(config.index_url) is None and \
                psycopg.pq.version() >= 160000:
            kwargs["require_auth"] = CONFIG_FILE_REQUIRE_AUTH
        try:
            # One plain connection first: its failure says why in libpq's words, where a
            # pool would only say it timed out.
            with psycopg.connect(config.index_url, **kwargs) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            self._unhook()
            raise self._error(exc, "opening it") from None
        self._pool: ConnectionPool[Any] = ConnectionPool(
            config.index_url, kwargs=kwargs, min_size=1, max_size=max(1, max_connections),
            open=False, timeout=POOL_TIMEOUT, name="readreceipt", num_workers=1)
        self._pool.open(wait=False)

    # plumbing ---------------------------------------------------------------------------

    def _error(self, exc: Exception, doing: str) -> LibraryError:
        errors = self._psycopg.errors
        text = self._config.scrub(str(exc).strip().splitlines()[0] if str(exc).strip()
                                  else type(exc).__name__)
        if isinstance(exc, errors.ReadOnlySqlTransaction | errors.InsufficientPrivilege):
            return LibraryError(f"the team index {self.name} is not writable ({text}); "
                                "nothing already stored was changed", reason="read_only")
        if isinstance(exc, errors.DiskFull):
            return LibraryError(f"the team index {self.name} is out of disk space while "
                                f"{doing}; nothing already stored was lost", reason="disk_full")
        if isinstance(exc, self._psycopg.OperationalError) and doing == "opening it":
            return LibraryError(f"the team index {self.name} cannot be reached: {text}",
                                reason="unreachable")
        return LibraryError(f"the team index {self.name} failed while {doing}: {text}",
                            reason="io")

    @staticmethod
    def _migrate(conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (pgschema.MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS readreceipt_migrations (name TEXT PRIMARY "
                         "KEY, applied_at TEXT NOT NULL)")
            done = {r[0] for r in conn.execute("SELECT name FROM readreceipt_migrations")}
            for name, sql in pgschema.MIGRATIONS:
                if name in done:
                    continue
                for statement in pgschema.statements(sql):
                    conn.execute(statement.encode("utf-8"))
                conn.execute("INSERT INTO readreceipt_migrations VALUES (%s, %s)",
                             (name, utc_now()))

    @contextlib.contextmanager
    def _tx(self, doing: str) -> Iterator[psycopg.Cursor[Any]]:
        """One transaction on a pooled connection, committed when the block ends."""
        from psycopg_pool import PoolTimeout

        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                yield cur
        except self._psycopg.Error as exc:
            raise self._error(exc, doing) from None
        except PoolTimeout:
            raise LibraryError(f"the team index {self.name} gave no connection within "
                               f"{POOL_TIMEOUT:g} s while {doing}", reason="unreachable"
                               ) from None

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._tx("reading it") as cur:
            cur.execute(sql.encode("utf-8"), _clean(params))
            return cur.fetchall()

    def _read_together(self, queries: Sequence[str]) -> list[list[Any]]:
        """The rows of each of ``queries`` (constants, no parameters), sent as one string in
        one transaction: one round trip to the server for them all, not one each."""
        with self._tx("reading it") as cur:
            cur.execute(";\n".join(queries).encode("utf-8"))
            results = [cur.fetchall()]
            while cur.nextset():
                results.append(cur.fetchall())
        if len(results) != len(queries):
            raise LibraryError(f"the team index {self.name} answered {len(results)} of "
                               f"{len(queries)} questions", reason="protocol")
        return results

    def _ask(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # The shared questions are written with ?; none holds a literal question mark.
        return self._read(sql.replace("?", "%s"), params)

    def _write(self, doing: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement in its own transaction; the rows it changed."""
        with self._tx(doing) as cur:
            cur.execute(sql.encode("utf-8"), _clean(params))
            return int(cur.rowcount)

    def close(self) -> None:
        self._pool.close()
        self._unhook()

    def _unhook(self) -> None:
        for name in _DRIVER_LOGGERS:
            logging.getLogger(name).removeFilter(self._scrubbing)

    # retrievals -------------------------------------------------------------------------

    def add_retrieval(self, record: Record) -> None:
        self._write("writing a retrieval", _UPSERT_RETRIEVAL, row_for(record))

    def existing_ids(self, record_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """Which of ``record_ids`` have a row, each with the URL and time of the capture it
        is (``push`` skips those that are the same capture)."""
        rows = self._read("SELECT record_id, url, fetched_at FROM retrievals "
                          "WHERE record_id = ANY(%s)", (list(record_ids),))
        return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}

    def summary(self) -> Summary:
        """The counts ``status`` shows, from the rollup's shards (store/team/rollup.py)."""
        urls, groups, outcomes, kinds, checks = self._read_together(rollup.SUMMARY)
        return summary_of(urls[0][0], groups, outcomes, sum(int(n) for _, n in kinds),
                          checks[0][0], kinds)

    def counted_summary(self) -> Summary:
        """The same counts, counted from every row (what the rollup must always equal)."""
        urls = self._read("SELECT COUNT(DISTINCT url) FROM retrievals")[0][0]
        groups = self._read("SELECT verdict, reason, COUNT(*), "
                            "COUNT(*) FILTER (WHERE bytes_kept), "
                            "COUNT(*) FILTER (WHERE answer_without_page_text) "
                            "FROM retrievals GROUP BY verdict, reason")
        outcomes = self._read("SELECT answer_outcome, COUNT(*) FROM retrievals WHERE "
                              "answer_outcome IS NOT NULL GROUP BY answer_outcome "
                              "ORDER BY COUNT(*) DESC, answer_outcome")
        kinds = self._read("SELECT kind, COUNT(*) FROM flags GROUP BY kind")
        checks = self._read("SELECT COUNT(*) FROM answer_checks")[0][0]
        return summary_of(urls, groups, outcomes, sum(int(n) for _, n in kinds), checks, kinds)

    def set_forgotten(self, record_ids: Sequence[str]) -> None:
        self._write("forgetting bytes", "UPDATE retrievals SET bytes_kept = FALSE WHERE "
                    "record_id = ANY(%s)", (list(record_ids),))

    # answer checks and flags ------------------------------------------------------------

    def add_check(self, check: AnswerCheck) -> None:
        self.add_pushed_check(check)

    def add_pushed_check(self, check: AnswerCheck, *, checked_at: str | None = None,
                         push_key: str | None = None) -> bool:
        """Add the check; False when ``push_key`` names one held already (``push``)."""
        added = self._write("writing an answer check",
                            "INSERT INTO answer_checks (record_id, url, checked_at, outcome, "
                            "reason, answer_sha256, session_id, agent_id, push_key) VALUES "
                            "(%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (push_key) DO "
                            "NOTHING",
                            (check.record_id, check.url, checked_at or utc_now(), check.outcome,
                             check.reason, check.answer_sha256, check.session_id,
                             check.agent_id, push_key))
        return added > 0

    def add_flags(self, flags: Sequence[NewFlag], *,
                  push_keys: Sequence[str | None] | None = None) -> list[NewFlag]:
        """The flags not held already (one per record, passage, session and agent), added;
        ``push_keys`` (``push``) make a second copy of one flag a no-op as well."""
        added: list[NewFlag] = []
        if not flags:
            return added
        keys = list(push_keys) if push_keys is not None else [None] * len(flags)
        with self._tx("writing flags") as cur:
            # Two writers checking one answer at once: the record's lock lets one look and
            # write at a time (taken in order, so two writers never wait on each other).
            for record_id in sorted({f.record_id for f in flags}):
                cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                            ("flags " + record_id,))
            for f, key in zip(flags, keys, strict=True):
                cur.execute("SELECT 1 FROM flags WHERE record_id = %s AND passage = %s AND "
                            "kind = %s AND session_id IS NOT DISTINCT FROM %s AND agent_id IS "
                            "NOT DISTINCT FROM %s LIMIT 1",
                            _clean((f.record_id, f.passage, f.kind, f.session_id, f.agent_id)))
                if cur.fetchone() is not None:
                    continue
                cur.execute(
                    "INSERT INTO flags (record_id, url, passage, nearest, similarity, "
                    "session_id, agent_id, created_at, reported_at, reported_to, push_key, "
                    "kind, place) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (push_key) DO NOTHING RETURNING id",
                    _clean((f.record_id, f.url, f.passage, f.nearest, f.similarity,
                            f.session_id, f.agent_id, f.created_at,
                            getattr(f, "reported_at", None), getattr(f, "reported_to", None),
                            key, f.kind, f.place)))
                if cur.fetchone() is not None:
                    added.append(f)
        return added

    def claim_unreported_flags(self, session_id: str, agent_id: str | None, *,
                               limit: int) -> list[Flag]:
        where, params = unreported(session_id, agent_id, "%s")
        now, told = utc_now(), agent_id or "main"
        with self._tx("claiming flags") as cur:
            # SKIP LOCKED: two reports at once claim different flags, neither waits.
            cur.execute(SELECT_FLAGS + where + " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED",
                        [*params, limit])
            rows = cur.fetchall()
            cur.execute("UPDATE flags SET reported_at = %s, reported_to = %s WHERE id = ANY(%s)",
                        (now, told, [row[0] for row in rows]))
        return [flag((*row[:-2], now, told)) for row in rows]

    # the pacing schedule, on the server's clock -----------------------------------------

    def reserve_pacing_slot(self, host: str, gap: float, clock: Callable[[], float]) -> float:
        with self._tx("reserving a pacing slot") as cur:
            cur.execute("INSERT INTO pacing (host, next_at) VALUES (%s, 0) "
                        "ON CONFLICT (host) DO NOTHING", (host,))
            cur.execute("SELECT next_at FROM pacing WHERE host = %s FOR UPDATE", (host,))
            next_at = float(cur.fetchone()[0])  # type: ignore[index]
            # Read after the lock is held: a worker that waited for it sees the time it got it.
            cur.execute("SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8")
            server_now = float(cur.fetchone()[0])  # type: ignore[index]
            local_now = clock()
            start = max(server_now, next_at)
            cur.execute("UPDATE pacing SET next_at = %s WHERE host = %s", (start + gap, host))
        local_start = local_now + (start - server_now)
        with self._lock:
            self._reserved[(host, local_start)] = start
        return local_start

    def release_pacing_slot(self, host: str, start: float, gap: float) -> None:
        with self._lock:
            server_start = self._reserved.pop((host, start), None)
        if server_start is None:
            return
        self._write("releasing a pacing slot", "UPDATE pacing SET next_at = %s WHERE host = %s "
                    "AND next_at = %s", (server_start, host, server_start + gap))

    # the robots.txt cache ---------------------------------------------------------------

    def claim_robots(self, origin: str, now: float, *, fresh: Callable[[CachedRobots], bool],
                     pending_timeout: float) -> RobotsClaim:
        with self._tx("reading the robots.txt cache") as cur:
            # The row may not exist yet, so the lock is on the origin's name.
            cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                        ("robots " + origin,))
            cur.execute("SELECT origin, fetched_at, status, body, outcome FROM robots "
                        "WHERE origin = %s", (origin,))
            answer = robots_answer(cur.fetchone(), now, fresh, pending_timeout)
            if answer is not None:
                return answer
            cur.execute("INSERT INTO robots (origin, fetched_at, status, body, outcome) "
                        "VALUES (%s, %s, NULL, NULL, %s) ON CONFLICT (origin) DO UPDATE SET "
                        "fetched_at = EXCLUDED.fetched_at, status = NULL, body = NULL, "
                        "outcome = EXCLUDED.outcome", (origin, now, ROBOTS_PENDING))
        return RobotsClaim(None, claimed=True)

    def claim_fetch(self, url: str, token: str, seconds: float) -> float | None:
        with self._tx("claiming a fetch") as cur:
            # The server's clock, as the pacing schedule's: machines whose clocks disagree
            # still agree on when a claim runs out. Taken where there is no claim or only a
            # spent one, in one statement.
            cur.execute("INSERT INTO fetch_claims (url, token, until) VALUES (%s, %s, "
                        "extract(epoch FROM clock_timestamp()) + %s) ON CONFLICT (url) DO "
                        "UPDATE SET token = EXCLUDED.token, until = EXCLUDED.until WHERE "
                        "fetch_claims.token = EXCLUDED.token OR fetch_claims.until <= "
                        "extract(epoch FROM clock_timestamp()) RETURNING url",
                        (url, token, seconds))
            if cur.fetchone() is not None:
                return None
            cur.execute("SELECT until - extract(epoch FROM clock_timestamp()) FROM "
                        "fetch_claims WHERE url = %s", (url,))
            row = cur.fetchone()
        return max(float(row[0]), 0.0) if row is not None else 0.0

    def release_fetch(self, url: str, token: str) -> None:
        self._write("releasing a fetch claim", "DELETE FROM fetch_claims WHERE url = %s AND "
                    "token = %s", (url, token))

    def release_robots_claim(self, origin: str) -> None:
        self._write("releasing a robots.txt claim", "DELETE FROM robots WHERE origin = %s AND "
                    "outcome = %s", (origin, ROBOTS_PENDING))

    def store_robots(self, entry: CachedRobots) -> None:
        self._write("caching a robots.txt", _UPSERT_ROBOTS,
                    (entry.origin, entry.fetched_at, entry.status, entry.body, entry.outcome))

    # soft-404 probes --------------------------------------------------------------------

    def remember_probe_answer(self, answer: ProbeAnswer) -> None:
        self._write("caching a soft-404 probe's answer", _UPSERT_PROBE,
                    (answer.origin, answer.fetched_at, answer.url, answer.final_url,
                     answer.status, answer.text_sha256, answer.text, answer.failure))

    # audits of agent sessions -----------------------------------------------------------

    def add_audit(self, audit: Audit) -> None:
        self._write("writing an audit", _UPSERT_AUDIT,
                    (audit.audit_id, audit.transcript, audit.session_id, audit.audited_at,
                     audit.pages, audit.quotations, audit.not_found, audit.report))

    # the logs ---------------------------------------------------------------------------

    def append_log(self, name: str, entry: dict[str, Any], *,
                   push_key: str | None = None) -> bool:
        """Append the line; False when ``push_key`` names one held already."""
        # ASCII JSON: every character PostgreSQL cannot hold is an escape in the line.
        added = self._write(f"appending to {name}", "INSERT INTO log_entries (log, line, "
                            "push_key) VALUES (%s, %s, %s) ON CONFLICT (push_key) DO NOTHING",
                            (name, json.dumps(entry, ensure_ascii=True), push_key))
        return added > 0

    def read_log(self, name: str) -> Iterator[dict[str, Any]]:
        after = 0
        while True:
            rows = self._read("SELECT id, line FROM log_entries WHERE log = %s AND id > %s "
                              "ORDER BY id LIMIT %s", (name, after, LOG_PAGE))
            for _, line in rows:
                with contextlib.suppress(ValueError):
                    value = json.loads(line)
                    if isinstance(value, dict):
                        yield value
            if len(rows) < LOG_PAGE:
                return
            after = int(rows[-1][0])

    def count_log(self, name: str) -> int:
        """Entries of the log ``name``, from the rollup (store/team/rollup.py)."""
        return int(self._read(rollup.LOG_COUNT, (name,))[0][0])

    def counted_log(self, name: str) -> int:
        """The same, counted from every row (what the rollup must always equal)."""
        return int(self._read("SELECT COUNT(*) FROM log_entries WHERE log = %s", (name,))[0][0])


class PostgresLogs:
    """The JSONL logs of a team library, as rows of the index's ``log_entries``."""

    def __init__(self, index: PostgresIndex) -> None:
        self.index = index

    def append(self, name: str, entry: dict[str, Any]) -> None:
        self.index.append_log(name, entry)

    def read(self, name: str) -> Iterator[dict[str, Any]]:
        return self.index.read_log(name)

    def count(self, name: str) -> int:
        return self.index.count_log(name)
