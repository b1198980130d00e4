"""The counts ``status`` shows, kept as rows change: the SQLite index's rollup.

``readreceipt status`` used to count every retrieval (0.3 s at a million rows, minutes at a
hundred million). These tables hold the counts instead, and triggers keep them as the rows
they count are written, in the same transaction, whichever code writes them (a capture,
``forget``, an older readreceipt):

    rollup_groups     (verdict, reason) -> retrievals, bytes kept, answers without page text
    rollup_outcomes   answer outcome -> retrievals
    rollup_urls       url -> retrievals (a URL's row goes when its last retrieval does)
    rollup_flag_kinds flag kind (quotation, figure, name) -> flags
    rollup_counts     'urls', 'answer_checks' -> how many

so the summary reads a few rows whatever the number of retrievals. The migration fills them
from the rows already there, once.

A row written again under its id (``INSERT OR REPLACE``, how the index writes a retrieval,
deletes the old row without firing delete triggers: ``recursive_triggers`` stays off) is
taken out of the counts by the ``BEFORE INSERT`` trigger, then counted again as written.
Every writing transaction holds SQLite's write lock, so concurrent writers keep the counts
exact.
"""

from __future__ import annotations

__all__ = ["MIGRATION", "SUMMARY"]


def _remove(row: str) -> tuple[str, ...]:
    """Take ``row`` (OLD, or a subquery's alias) out of the group and outcome counts."""
    return (
        f"UPDATE rollup_groups SET retrievals = retrievals - 1, "  # noqa: S608 - OLD/NEW, no data
        f"bytes_kept = bytes_kept - ({row}.bytes_kept <> 0), "
        f"answer_without_page_text = answer_without_page_text - "
        f"({row}.answer_without_page_text <> 0) "
        f"WHERE verdict = {row}.verdict AND reason = {row}.reason",
        f"UPDATE rollup_outcomes SET retrievals = retrievals - 1 "  # noqa: S608 - OLD/NEW, no data
        f"WHERE answer_outcome = {row}.answer_outcome",
    )


_ADD = (
    "INSERT INTO rollup_groups (verdict, reason) SELECT NEW.verdict, NEW.reason WHERE NOT "
    "EXISTS (SELECT 1 FROM rollup_groups WHERE verdict = NEW.verdict AND reason = NEW.reason)",
    "UPDATE rollup_groups SET retrievals = retrievals + 1, "
    "bytes_kept = bytes_kept + (NEW.bytes_kept <> 0), "
    "answer_without_page_text = answer_without_page_text + (NEW.answer_without_page_text <> 0) "
    "WHERE verdict = NEW.verdict AND reason = NEW.reason",
    "INSERT INTO rollup_outcomes (answer_outcome) SELECT NEW.answer_outcome WHERE "
    "NEW.answer_outcome IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rollup_outcomes WHERE "
    "answer_outcome = NEW.answer_outcome)",
    "UPDATE rollup_outcomes SET retrievals = retrievals + 1 "
    "WHERE answer_outcome = NEW.answer_outcome",
)


def _url_added(url: str) -> tuple[str, ...]:
    return (
        f"UPDATE rollup_counts SET value = value + 1 WHERE name = 'urls' AND NOT EXISTS "  # noqa: S608 - OLD/NEW, no data
        f"(SELECT 1 FROM rollup_urls WHERE url = {url})",
        f"INSERT INTO rollup_urls (url, retrievals) SELECT {url}, 0 WHERE NOT EXISTS "  # noqa: S608 - OLD/NEW, no data
        f"(SELECT 1 FROM rollup_urls WHERE url = {url})",
        f"UPDATE rollup_urls SET retrievals = retrievals + 1 WHERE url = {url}",  # noqa: S608 - OLD/NEW, no data
    )


def _url_removed(url: str) -> tuple[str, ...]:
    return (
        f"UPDATE rollup_urls SET retrievals = retrievals - 1 WHERE url = {url}",  # noqa: S608 - OLD/NEW, no data
        f"UPDATE rollup_counts SET value = value - 1 WHERE name = 'urls' AND "  # noqa: S608 - OLD/NEW, no data
        f"(SELECT retrievals FROM rollup_urls WHERE url = {url}) = 0",
        f"DELETE FROM rollup_urls WHERE url = {url} AND retrievals = 0",  # noqa: S608 - OLD/NEW, no data
    )


def _trigger(name: str, when: str, body: tuple[str, ...]) -> str:
    return f"CREATE TRIGGER {name} {when} BEGIN " + "; ".join(body) + "; END"


#: Taking out of the counts the row a new one is about to replace (``INSERT OR REPLACE``
#: deletes it without firing a delete trigger), read by the new row's id.
_REPLACED = (
        "UPDATE rollup_groups SET retrievals = retrievals - 1, "
        "bytes_kept = bytes_kept - (SELECT r.bytes_kept <> 0 FROM retrievals r WHERE "
        "r.record_id = NEW.record_id), "
        "answer_without_page_text = answer_without_page_text - (SELECT "
        "r.answer_without_page_text <> 0 FROM retrievals r WHERE r.record_id = NEW.record_id) "
        "WHERE (verdict, reason) = (SELECT r.verdict, r.reason FROM retrievals r WHERE "
        "r.record_id = NEW.record_id)",
        "UPDATE rollup_outcomes SET retrievals = retrievals - 1 WHERE answer_outcome = "
        "(SELECT r.answer_outcome FROM retrievals r WHERE r.record_id = NEW.record_id)",
        "UPDATE rollup_urls SET retrievals = retrievals - 1 WHERE url = (SELECT r.url FROM "
        "retrievals r WHERE r.record_id = NEW.record_id)",
        "UPDATE rollup_counts SET value = value - 1 WHERE name = 'urls' AND (SELECT retrievals "
        "FROM rollup_urls WHERE url = (SELECT r.url FROM retrievals r WHERE r.record_id = "
        "NEW.record_id)) = 0",
        "DELETE FROM rollup_urls WHERE retrievals = 0 AND url = (SELECT r.url FROM "
        "retrievals r WHERE r.record_id = NEW.record_id)",
)

_FLAG_ADDED = (
    "INSERT INTO rollup_flag_kinds (kind) SELECT NEW.kind WHERE NOT EXISTS "
    "(SELECT 1 FROM rollup_flag_kinds WHERE kind = NEW.kind)",
    "UPDATE rollup_flag_kinds SET flags = flags + 1 WHERE kind = NEW.kind",
)
_FLAG_REMOVED = ("UPDATE rollup_flag_kinds SET flags = flags - 1 WHERE kind = OLD.kind",)

_COUNTED = ", ".join(("verdict", "reason", "bytes_kept", "answer_without_page_text",
                      "answer_outcome"))

#: The migration (its statements, each whole: a trigger holds semicolons of its own).
MIGRATION: tuple[str, ...] = (
    "CREATE TABLE rollup_groups (verdict TEXT NOT NULL, reason TEXT NOT NULL, "
    "retrievals INTEGER NOT NULL DEFAULT 0, bytes_kept INTEGER NOT NULL DEFAULT 0, "
    "answer_without_page_text INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (verdict, reason))",
    "CREATE TABLE rollup_outcomes (answer_outcome TEXT PRIMARY KEY, "
    "retrievals INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE rollup_urls (url TEXT PRIMARY KEY, retrievals INTEGER NOT NULL)",
    "CREATE TABLE rollup_flag_kinds (kind TEXT PRIMARY KEY, flags INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE rollup_counts (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "INSERT INTO rollup_groups SELECT verdict, reason, COUNT(*), SUM(bytes_kept <> 0), "
    "SUM(answer_without_page_text <> 0) FROM retrievals GROUP BY verdict, reason",
    "INSERT INTO rollup_outcomes SELECT answer_outcome, COUNT(*) FROM retrievals "
    "WHERE answer_outcome IS NOT NULL GROUP BY answer_outcome",
    "INSERT INTO rollup_urls SELECT url, COUNT(*) FROM retrievals GROUP BY url",
    "INSERT INTO rollup_flag_kinds SELECT kind, COUNT(*) FROM flags GROUP BY kind",
    "INSERT INTO rollup_counts VALUES ('urls', (SELECT COUNT(*) FROM rollup_urls)), "
    "('answer_checks', (SELECT COUNT(*) FROM answer_checks))",
    _trigger("rollup_retrieval_replaced", "BEFORE INSERT ON retrievals WHEN EXISTS (SELECT 1 "
             "FROM retrievals WHERE record_id = NEW.record_id)", _REPLACED),
    _trigger("rollup_retrieval_added", "AFTER INSERT ON retrievals",
             _ADD + _url_added("NEW.url")),
    _trigger("rollup_retrieval_removed", "AFTER DELETE ON retrievals",
             _remove("OLD") + _url_removed("OLD.url")),
    _trigger("rollup_retrieval_counted", f"AFTER UPDATE OF {_COUNTED} ON retrievals",
             _remove("OLD") + _ADD),
    _trigger("rollup_retrieval_moved", "AFTER UPDATE OF url ON retrievals WHEN OLD.url IS NOT "
             "NEW.url", _url_removed("OLD.url") + _url_added("NEW.url")),
    _trigger("rollup_flag_added", "AFTER INSERT ON flags", _FLAG_ADDED),
    _trigger("rollup_flag_removed", "AFTER DELETE ON flags", _FLAG_REMOVED),
    _trigger("rollup_flag_rekinded", "AFTER UPDATE OF kind ON flags WHEN OLD.kind IS NOT "
             "NEW.kind", _FLAG_REMOVED + _FLAG_ADDED),
    _trigger("rollup_check_added", "AFTER INSERT ON answer_checks",
             ("UPDATE rollup_counts SET value = value + 1 WHERE name = 'answer_checks'",)),
    _trigger("rollup_check_removed", "AFTER DELETE ON answer_checks",
             ("UPDATE rollup_counts SET value = value - 1 WHERE name = 'answer_checks'",)),
)

#: The summary's queries, answered from the rollup: (urls, groups, outcomes, flags by kind,
#: checks).
SUMMARY = (
    "SELECT value FROM rollup_counts WHERE name = 'urls'",
    "SELECT verdict, reason, retrievals, bytes_kept, answer_without_page_text "
    "FROM rollup_groups WHERE retrievals > 0",
    "SELECT answer_outcome, retrievals FROM rollup_outcomes WHERE retrievals > 0 "
    "ORDER BY retrievals DESC, answer_outcome",
    "SELECT kind, flags FROM rollup_flag_kinds WHERE flags > 0",
    "SELECT value FROM rollup_counts WHERE name = 'answer_checks'",
)
