"""The counts ``status`` shows, kept as rows change: the team index's rollup in PostgreSQL.

The same counts as the local index's (:mod:`readreceipt.store.local.rollup`), kept by a row
trigger on ``retrievals`` (insert, update, delete: a capture, ``forget``, ``push``, a COPY),
and on ``flags`` (by kind) and ``answer_checks``, in the writing transaction itself.

Many workers on many machines write at once, and a single row of counts would be a lock every
capture queues for until its transaction commits. So the counts of groups, outcomes and
totals are kept in 16 *shards*, one chosen by the backend's process id (a connection keeps
its shard), each an upsert that adds or takes away; the summary adds the shards up: a few
hundred rows at most, whatever the number of retrievals. The distinct URLs are one row per
URL (``rollup_urls``, its retrievals counted): the upsert that makes a URL's first row, or
the update that takes its last, also moves the ``urls`` total; row locks on that URL's row
order two transactions that race on it, so exactly one of them sees the count go from 0 to 1.
"""

from __future__ import annotations

__all__ = ["MIGRATION", "SHARDS", "SUMMARY"]

#: Shards of the counts that every capture moves.
SHARDS = 16

_FUNCTION = f"""
CREATE FUNCTION readreceipt_rollup_retrievals() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    s SMALLINT := pg_backend_pid() % {SHARDS};
    n BIGINT;
BEGIN
    IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
        INSERT INTO rollup_groups AS g VALUES (s, OLD.verdict, OLD.reason, -1,
                -(OLD.bytes_kept::int), -(OLD.answer_without_page_text::int))
            ON CONFLICT (shard, verdict, reason) DO UPDATE SET
                retrievals = g.retrievals + excluded.retrievals,
                bytes_kept = g.bytes_kept + excluded.bytes_kept,
                answer_without_page_text = g.answer_without_page_text
                    + excluded.answer_without_page_text;
        IF OLD.answer_outcome IS NOT NULL THEN
            INSERT INTO rollup_outcomes AS o VALUES (s, OLD.answer_outcome, -1)
                ON CONFLICT (shard, answer_outcome) DO UPDATE SET
                    retrievals = o.retrievals - 1;
        END IF;
        IF TG_OP = 'DELETE' OR OLD.url IS DISTINCT FROM NEW.url THEN
            UPDATE rollup_urls SET retrievals = retrievals - 1 WHERE url = OLD.url
                RETURNING retrievals INTO n;
            IF n = 0 THEN
                DELETE FROM rollup_urls WHERE url = OLD.url AND retrievals = 0;
                INSERT INTO rollup_counts AS c VALUES (s, 'urls', -1)
                    ON CONFLICT (shard, name) DO UPDATE SET value = c.value - 1;
            END IF;
        END IF;
    END IF;
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        INSERT INTO rollup_groups AS g VALUES (s, NEW.verdict, NEW.reason, 1,
                NEW.bytes_kept::int, NEW.answer_without_page_text::int)
            ON CONFLICT (shard, verdict, reason) DO UPDATE SET
                retrievals = g.retrievals + 1,
                bytes_kept = g.bytes_kept + excluded.bytes_kept,
                answer_without_page_text = g.answer_without_page_text
                    + excluded.answer_without_page_text;
        IF NEW.answer_outcome IS NOT NULL THEN
            INSERT INTO rollup_outcomes AS o VALUES (s, NEW.answer_outcome, 1)
                ON CONFLICT (shard, answer_outcome) DO UPDATE SET
                    retrievals = o.retrievals + 1;
        END IF;
        IF TG_OP = 'INSERT' OR OLD.url IS DISTINCT FROM NEW.url THEN
            INSERT INTO rollup_urls AS u VALUES (NEW.url, 1)
                ON CONFLICT (url) DO UPDATE SET retrievals = u.retrievals + 1
                RETURNING retrievals INTO n;
            IF n = 1 THEN
                INSERT INTO rollup_counts AS c VALUES (s, 'urls', 1)
                    ON CONFLICT (shard, name) DO UPDATE SET value = c.value + 1;
            END IF;
        END IF;
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
        INSERT INTO rollup_flag_kinds AS k VALUES (s, OLD.kind, -1)
            ON CONFLICT (shard, kind) DO UPDATE SET flags = k.flags - 1;
    END IF;
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        INSERT INTO rollup_flag_kinds AS k VALUES (s, NEW.kind, 1)
            ON CONFLICT (shard, kind) DO UPDATE SET flags = k.flags + 1;
    END IF;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data


def _counter(table: str, name: str) -> str:
    return f"""
CREATE FUNCTION readreceipt_rollup_{table}() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO rollup_counts AS c VALUES (pg_backend_pid() % {SHARDS}, '{name}',
            CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
        ON CONFLICT (shard, name) DO UPDATE SET value = c.value + excluded.value;
    RETURN NULL;
END $$
"""  # noqa: S608 - constants only, no data


_COUNTED = "verdict, reason, bytes_kept, answer_without_page_text, answer_outcome, url"

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
    f"CREATE TRIGGER rollup_retrievals AFTER INSERT OR DELETE OR UPDATE OF {_COUNTED} "
    "ON retrievals FOR EACH ROW EXECUTE FUNCTION readreceipt_rollup_retrievals()",
    _FLAG_KINDS,
    "CREATE TRIGGER rollup_flags AFTER INSERT OR DELETE OR UPDATE OF kind ON flags FOR EACH ROW "
    "EXECUTE FUNCTION readreceipt_rollup_flags()",
    _counter("answer_checks", "answer_checks"),
    "CREATE TRIGGER rollup_answer_checks AFTER INSERT OR DELETE ON answer_checks FOR EACH ROW "
    "EXECUTE FUNCTION readreceipt_rollup_answer_checks()",
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
