"""The team index's schema in PostgreSQL: named, append-only migrations.

Each migration is applied once, in order, and its name recorded in ``readreceipt_migrations``.
Append a new one; never edit one already applied. :func:`migrate` holds a transaction-level
advisory lock while it reads what is applied and applies the rest, so two processes that
start together (two laptops, eight CI runners) apply each migration exactly once: the second
waits for the first's transaction and then finds nothing left to do.

The columns of ``retrievals`` are the SQLite index's (:mod:`readreceipt.store.rows`), so a
row reads the same from either. Timestamps stay ISO 8601 text with a ``Z``, as in the
records, compared as text (their fixed width makes text order time order); ids, URLs and
times are ``COLLATE "C"``, so that they compare byte by byte whatever the database's locale
(an id prefix is then a range of the primary key). ``push_key``
columns make ``readreceipt push`` idempotent: a row copied from a local library carries the
key it had there, and a second copy of it is ignored.

Standard library only (imported by :mod:`readreceipt.store.team.postgres`).
"""

from __future__ import annotations

from readreceipt.store.team import rollup

#: The advisory lock that serializes migrations (any constant; this one spells "rrmigrat").
MIGRATION_LOCK = 0x72726D6967726174

#: (name, SQL, or its statements when one holds semicolons of its own). Append only; never
#: edit an applied migration.
MIGRATIONS: list[tuple[str, str | tuple[str, ...]]] = [
    ("0001_retrievals", """
        CREATE TABLE retrievals (
            record_id TEXT COLLATE "C" PRIMARY KEY,
            url TEXT COLLATE "C" NOT NULL,
            final_url TEXT COLLATE "C",
            host TEXT COLLATE "C",
            fetched_at TEXT COLLATE "C" NOT NULL,
            http_status INTEGER,
            content_type TEXT,
            verdict TEXT NOT NULL,
            reason TEXT NOT NULL,
            wall TEXT,
            bytes BIGINT NOT NULL DEFAULT 0,
            bytes_sha256 TEXT,
            bytes_kept BOOLEAN NOT NULL DEFAULT FALSE,
            truncated BOOLEAN NOT NULL DEFAULT FALSE,
            text_sha256 TEXT,
            page_text_sha256 TEXT,
            text_chars INTEGER NOT NULL DEFAULT 0,
            javascript_executed BOOLEAN NOT NULL DEFAULT FALSE,
            session_id TEXT,
            agent_id TEXT,
            answer_outcome TEXT,
            answer_without_page_text BOOLEAN NOT NULL DEFAULT FALSE,
            title TEXT
        );
        CREATE INDEX retrievals_url ON retrievals (url, fetched_at);
        CREATE INDEX retrievals_final_url ON retrievals (final_url, fetched_at);
        CREATE INDEX retrievals_newest ON retrievals (fetched_at, record_id);
        CREATE INDEX retrievals_session ON retrievals (session_id);
        CREATE INDEX retrievals_bytes_sha ON retrievals (bytes_sha256);
        CREATE INDEX retrievals_text_sha ON retrievals (text_sha256);
        CREATE INDEX retrievals_page_text_sha ON retrievals (page_text_sha256)
    """),
    ("0002_checks_flags", """
        CREATE TABLE answer_checks (
            id BIGSERIAL PRIMARY KEY,
            record_id TEXT NOT NULL,
            url TEXT NOT NULL,
            checked_at TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reason TEXT,
            answer_sha256 TEXT,
            session_id TEXT,
            agent_id TEXT,
            push_key TEXT UNIQUE
        );
        CREATE INDEX answer_checks_record ON answer_checks (record_id);
        CREATE TABLE flags (
            id BIGSERIAL PRIMARY KEY,
            record_id TEXT NOT NULL,
            url TEXT NOT NULL,
            passage TEXT NOT NULL,
            nearest TEXT,
            similarity DOUBLE PRECISION,
            session_id TEXT,
            agent_id TEXT,
            created_at TEXT NOT NULL,
            reported_at TEXT,
            reported_to TEXT,
            push_key TEXT UNIQUE
        );
        CREATE INDEX flags_session ON flags (session_id, reported_at);
        CREATE INDEX flags_record ON flags (record_id)
    """),
    ("0003_shared_state", """
        CREATE TABLE pacing (
            host TEXT PRIMARY KEY,
            next_at DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE robots (
            origin TEXT PRIMARY KEY,
            fetched_at DOUBLE PRECISION NOT NULL,
            status INTEGER,
            body TEXT,
            outcome TEXT NOT NULL
        );
        CREATE TABLE soft404_probes (
            origin TEXT PRIMARY KEY,
            fetched_at DOUBLE PRECISION NOT NULL,
            url TEXT NOT NULL,
            final_url TEXT,
            status INTEGER,
            text_sha256 TEXT,
            text TEXT,
            failure TEXT
        )
    """),
    ("0004_logs", """
        CREATE TABLE log_entries (
            id BIGSERIAL PRIMARY KEY,
            log TEXT NOT NULL,
            line TEXT NOT NULL,
            push_key TEXT UNIQUE
        );
        CREATE INDEX log_entries_log ON log_entries (log, id)
    """),
    ("0005_audits", """
        CREATE TABLE audits (
            audit_id TEXT COLLATE "C" PRIMARY KEY,
            transcript TEXT NOT NULL,
            session_id TEXT,
            audited_at TEXT COLLATE "C" NOT NULL,
            pages INTEGER NOT NULL,
            quotations INTEGER NOT NULL,
            not_found INTEGER NOT NULL,
            report TEXT NOT NULL
        );
        CREATE INDEX audits_at ON audits (audited_at)
    """),
    # `status` reads every retrieval: an index-only scan of these instead of the table.
    ("0006_summary_indexes", """
        CREATE INDEX retrievals_verdict ON retrievals (verdict, reason, bytes_kept,
                                                       answer_without_page_text);
        CREATE INDEX retrievals_outcome ON retrievals (answer_outcome)
            WHERE answer_outcome IS NOT NULL
    """),
    # A flag is a quotation, a figure or a name (quotes/claims.py).
    ("0007_flag_kinds", """
        ALTER TABLE flags ADD COLUMN kind TEXT NOT NULL DEFAULT 'quotation';
        ALTER TABLE flags ADD COLUMN place TEXT
    """),
    # `status` from counts kept as rows change, whatever the number of retrievals
    # (store/team/rollup.py).
    ("0008_summary_rollup", rollup.MIGRATION),
    # `status`'s count of refused and declined URLs, kept as log lines are added.
    ("0009_log_counts", rollup.LOG_MIGRATION),
    # A capture about to fetch a URL claims it; another capture of the URL waits for its
    # copy (fetching/politeness.py: claimed_fetch).
    ("0010_fetch_claims", "CREATE TABLE fetch_claims (url TEXT PRIMARY KEY, "
                          "token TEXT NOT NULL, until DOUBLE PRECISION NOT NULL)"),
]


def statements(sql: str | tuple[str, ...]) -> list[str]:
    """The statements of one migration: a tuple's as they are, else split at semicolons
    (then none of them holds one of its own)."""
    if isinstance(sql, tuple):
        return [s.strip() for s in sql if s.strip()]
    return [s.strip() for s in sql.split(";") if s.strip()]
