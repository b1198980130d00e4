"""The counts ``status`` shows, kept as rows change: the team index's rollup in PostgreSQL.

The same counts as the local index's (:mod:`readreceipt.store.local.rollup`), kept by
statement triggers on ``retrievals`` (insert, update, delete: a capture, ``forget``,
``push``, a COPY), ``flags`` (by kind), ``answer_checks`` and ``log_entries`` (by log: the
refused and declined URLs ``status`` counts), in the writing transaction itself. A
statement trigger reads the statement's rows from its transition tables (``old_rows``,
``new_rows``) and moves each count once per statement: a COPY of a million rows makes a
few upserts. (Row triggers made one upsert per row on the same few count rows,
and PostgreSQL cannot prune the versions one transaction leaves of a row it updates again:
each upsert walked them all, and a COPY of 100,000 rows took 10 minutes here.)

Many workers on many machines write at once, and a single row of counts would be a lock every
capture queues for until its transaction commits. So the counts of groups, outcomes and
totals are kept in 16 *shards*, one chosen by the backend's process id (a connection keeps
its shard), each an upsert that adds or takes away; the summary adds the shards up: a few
hundred rows at most, whatever the number of retrievals. The distinct URLs are one row per
URL (``rollup_urls``, its retrievals counted, left at 0 when its last goes): a statement
whose upsert takes a URL's count from 0 (its new total is what it added) adds one to the
``urls`` total, one that takes it to 0 takes one away; the URL's row lock orders two
transactions that race on it, so exactly one of them sees it leave 0. Upserts go in key
order, so two statements of many rows lock in the same order.
"""

from __future__ import annotations

__all__ = ["LOG_COUNT", "LOG_MIGRATION", "MIGRATION", "SHARDS", "SUMMARY"]

#: Shards of the counts that every capture moves.
SHARDS = 16


def _groups(rows: str, sign: str) -> str:
    return f"""
        INSERT INTO rollup_groups AS g SELECT s, verdict, reason, {sign}COUNT(*),
                {sign}COUNT(*) FILTER (WHERE bytes_kept),
                {sign}COUNT(*) FILTER (WHERE answer_without_page_text)
            FROM {rows} GROUP BY verdict, reason ORDER BY verdict, reason
            ON CONFLICT (shard, verdict, reason) DO UPDATE SET
                retrievals = g.retrievals + excluded.retrievals,
                bytes_kept = g.bytes_kept + excluded.bytes_kept,
                answer_without_page_text = g.answer_without_page_text
                    + excluded.answer_without_page_text;
        INSERT INTO rollup_outcomes AS o SELECT s, answer_outcome, {sign}COUNT(*)
            FROM {rows} WHERE answer_outcome IS NOT NULL GROUP BY answer_outcome
            ORDER BY answer_outcome
            ON CONFLICT (shard, answer_outcome) DO UPDATE SET
                retrievals = o.retrievals + excluded.retrievals;"""  # noqa: S608 - constants only, no data


_URLS_COUNT = """
        INSERT INTO rollup_counts AS c SELECT s, 'urls', {sign}COUNT(*) FROM {moved}
            HAVING COUNT(*) > 0
            ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;"""

#: URLs a statement took from 0 retrievals: their new total is what the statement added.
_NEW_URLS = "up JOIN added USING (url) WHERE up.retrievals = added.n"

_FUNCTION = f"""
CREATE FUNCTION readreceipt_rollup_retrievals() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    s SMALLINT := pg_backend_pid() % {SHARDS};
BEGIN
    IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
        {_groups("old_rows", "-")}
        WITH removed AS (SELECT url, COUNT(*) AS n FROM old_rows GROUP BY url),
             down AS (UPDATE rollup_urls u SET retrievals = u.retrievals - r.n FROM removed r
                      WHERE u.url = r.url RETURNING u.retrievals)
        {_URLS_COUNT.format(sign="-", moved="down WHERE retrievals = 0")}
    END IF;
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        {_groups("new_rows", "")}
        WITH added AS (SELECT url, COUNT(*) AS n FROM new_rows GROUP BY url),
             up AS (INSERT INTO rollup_urls AS u SELECT url, n FROM added ORDER BY url
                    ON CONFLICT (url) DO UPDATE SET retrievals = u.retrievals + excluded.retrievals
                    RETURNING u.url, u.retrievals)
        {_URLS_COUNT.format(sign="", moved=_NEW_URLS)}
    END IF;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data

_FLAG_KINDS = f"""
CREATE FUNCTION readreceipt_rollup_flags() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    s SMALLINT := pg_backend_pid() % {SHARDS};
BEGIN
    IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
        INSERT INTO rollup_flag_kinds AS k SELECT s, kind, -COUNT(*) FROM old_rows
            GROUP BY kind ORDER BY kind
            ON CONFLICT (shard, kind) DO UPDATE SET flags = k.flags + excluded.flags;
    END IF;
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        INSERT INTO rollup_flag_kinds AS k SELECT s, kind, COUNT(*) FROM new_rows
            GROUP BY kind ORDER BY kind
            ON CONFLICT (shard, kind) DO UPDATE SET flags = k.flags + excluded.flags;
    END IF;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data

_CHECKS = f"""
CREATE FUNCTION readreceipt_rollup_answer_checks() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO rollup_counts AS c SELECT pg_backend_pid() % {SHARDS}, 'answer_checks',
                COUNT(*) FROM new_rows HAVING COUNT(*) > 0
            ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;
    ELSE
        INSERT INTO rollup_counts AS c SELECT pg_backend_pid() % {SHARDS}, 'answer_checks',
                -COUNT(*) FROM old_rows HAVING COUNT(*) > 0
            ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;
    END IF;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data


def _triggers(table: str, function: str, *, update: bool) -> tuple[str, ...]:
    """One statement trigger per event (a trigger with transition tables takes one event)."""
    events = [("inserted", "INSERT", "NEW TABLE AS new_rows"),
              ("deleted", "DELETE", "OLD TABLE AS old_rows")]
    if update:
        events.append(("updated", "UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"))
    return tuple(f"CREATE TRIGGER rollup_{table}_{name} AFTER {event} ON {table} "
                 f"REFERENCING {tables} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
                 for name, event, tables in events)


#: The migration's statements (each whole: a function body holds semicolons of its own).
MIGRATION: tuple[str, ...] = (
    "CREATE TABLE rollup_groups (shard SMALLINT NOT NULL, verdict TEXT NOT NULL, "
    "reason TEXT NOT NULL, retrievals BIGINT NOT NULL, bytes_kept BIGINT NOT NULL, "
    "answer_without_page_text BIGINT NOT NULL, PRIMARY KEY (shard, verdict, reason))",
    "CREATE TABLE rollup_outcomes (shard SMALLINT NOT NULL, answer_outcome TEXT NOT NULL, "
    "retrievals BIGINT NOT NULL, PRIMARY KEY (shard, answer_outcome))",
    'CREATE TABLE rollup_urls (url TEXT COLLATE "C" PRIMARY KEY, retrievals BIGINT NOT NULL)',
    "CREATE TABLE rollup_flag_kinds (shard SMALLINT NOT NULL, kind TEXT NOT NULL, "
    "flags BIGINT NOT NULL, PRIMARY KEY (shard, kind))",
    "CREATE TABLE rollup_counts (shard SMALLINT NOT NULL, name TEXT NOT NULL, "
    "value BIGINT NOT NULL, PRIMARY KEY (shard, name))",
    # What is there already, counted once (the migration holds its advisory lock).
    "LOCK TABLE retrievals, flags, answer_checks IN SHARE MODE",
    "INSERT INTO rollup_groups SELECT 0, verdict, reason, COUNT(*), "
    "COUNT(*) FILTER (WHERE bytes_kept), COUNT(*) FILTER (WHERE answer_without_page_text) "
    "FROM retrievals GROUP BY verdict, reason",
    "INSERT INTO rollup_outcomes SELECT 0, answer_outcome, COUNT(*) FROM retrievals "
    "WHERE answer_outcome IS NOT NULL GROUP BY answer_outcome",
    "INSERT INTO rollup_urls SELECT url, COUNT(*) FROM retrievals GROUP BY url",
    "INSERT INTO rollup_flag_kinds SELECT 0, kind, COUNT(*) FROM flags GROUP BY kind",
    "INSERT INTO rollup_counts VALUES (0, 'urls', (SELECT COUNT(*) FROM rollup_urls)), "
    "(0, 'answer_checks', (SELECT COUNT(*) FROM answer_checks))",
    _FUNCTION,
    *_triggers("retrievals", "readreceipt_rollup_retrievals", update=True),
    _FLAG_KINDS,
    *_triggers("flags", "readreceipt_rollup_flags", update=True),
    _CHECKS,
    *_triggers("answer_checks", "readreceipt_rollup_answer_checks", update=False),
)

#: The summary's queries, answered from the rollup: (urls, groups, outcomes, flags by kind,
#: answer checks).
SUMMARY = (
    "SELECT COALESCE(SUM(value), 0) FROM rollup_counts WHERE name = 'urls'",
    "SELECT verdict, reason, SUM(retrievals), SUM(bytes_kept), SUM(answer_without_page_text) "
    "FROM rollup_groups GROUP BY verdict, reason HAVING SUM(retrievals) > 0",
    "SELECT answer_outcome, SUM(retrievals) FROM rollup_outcomes GROUP BY answer_outcome "
    "HAVING SUM(retrievals) > 0 ORDER BY SUM(retrievals) DESC, answer_outcome",
    "SELECT kind, SUM(flags) FROM rollup_flag_kinds GROUP BY kind HAVING SUM(flags) > 0",
    "SELECT COALESCE(SUM(value), 0) FROM rollup_counts WHERE name = 'answer_checks'",
)

_LOGS = f"""
CREATE FUNCTION readreceipt_rollup_logs() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO rollup_counts AS c SELECT pg_backend_pid() % {SHARDS}, 'log:' || log,
                COUNT(*) FROM new_rows GROUP BY log ORDER BY log
            ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;
    ELSE
        INSERT INTO rollup_counts AS c SELECT pg_backend_pid() % {SHARDS}, 'log:' || log,
                -COUNT(*) FROM old_rows GROUP BY log ORDER BY log
            ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;
    END IF;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data

#: The entries of each log (``status``'s "refused or declined" is skipped.jsonl's), kept in
#: ``rollup_counts`` as ``log:<name>`` by the same kind of trigger.
LOG_MIGRATION: tuple[str, ...] = (
    "LOCK TABLE log_entries IN SHARE MODE",
    "INSERT INTO rollup_counts SELECT 0, 'log:' || log, COUNT(*) FROM log_entries GROUP BY log",
    _LOGS,
    *_triggers("log_entries", "readreceipt_rollup_logs", update=False),
)

#: One log's entries, from the rollup.
LOG_COUNT = "SELECT COALESCE(SUM(value), 0) FROM rollup_counts WHERE name = 'log:' || %s"
