"""The index's rows, shared by every SQL index: columns, a record as a row, a row as a value,
and the read-only questions both ask in the same words (:class:`IndexReads`).

Both :mod:`readreceipt.store.local.sqlite` and :mod:`readreceipt.store.team.postgres` keep the same
columns under the same names, so that a retrieval reads the same from either; only the
placeholder differs (``?`` against ``%s``): :func:`filters` takes it as an argument, and
:class:`IndexReads` writes ``?`` and lets each index's ``_ask`` translate.

Standard library only (the SQLite index, and through it the hook's report path, imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from readreceipt.store.protocols import (
    EVERY_RETRIEVAL,
    ROBOTS_PENDING,
    Audit,
    CachedRobots,
    Flag,
    ProbeAnswer,
    Retrieval,
    RetrievalFilter,
    RobotsClaim,
    Summary,
)

if TYPE_CHECKING:
    from readreceipt.store.records import Record

RETRIEVAL_COLUMNS = (
    "record_id", "url", "final_url", "host", "fetched_at", "http_status", "content_type",
    "verdict", "reason", "wall", "bytes", "bytes_sha256", "bytes_kept", "truncated",
    "text_sha256", "page_text_sha256", "text_chars", "javascript_executed", "session_id",
    "agent_id", "answer_outcome", "answer_without_page_text", "title",
)
BOOLEAN_COLUMNS = frozenset({"bytes_kept", "truncated", "javascript_executed",
                             "answer_without_page_text"})
FLAG_COLUMNS = ("id", "record_id", "url", "passage", "nearest", "similarity", "session_id",
                "agent_id", "created_at", "kind", "place", "reported_at", "reported_to")
SELECT_RETRIEVALS = f"SELECT {', '.join(RETRIEVAL_COLUMNS)} FROM retrievals"  # noqa: S608 - constant column names
SELECT_FLAGS = f"SELECT {', '.join(FLAG_COLUMNS)} FROM flags"  # noqa: S608 - constant column names
NEWEST_FIRST = " ORDER BY fetched_at DESC, record_id DESC"
SELECT_AUDITS = ("SELECT audit_id, transcript, session_id, audited_at, pages, quotations, "
                 "not_found, report FROM audits")


def row_for(record: Record) -> tuple[Any, ...]:
    """The record's index row, in :data:`RETRIEVAL_COLUMNS` order."""
    values = {
        **{c: getattr(record, c) for c in RETRIEVAL_COLUMNS if hasattr(record, c)},
        "host": urlsplit(record.url).hostname or "",
        "answer_outcome": (record.answer_check or {}).get("outcome"),
    }
    return tuple(values.get(c) for c in RETRIEVAL_COLUMNS)


def retrieval(row: Sequence[Any]) -> Retrieval:
    values: dict[str, Any] = {c: (bool(v) if c in BOOLEAN_COLUMNS else v)
                              for c, v in zip(RETRIEVAL_COLUMNS, row, strict=True)}
    return Retrieval(**values)


def flag(row: Sequence[Any]) -> Flag:
    return Flag(**dict(zip(FLAG_COLUMNS, row, strict=True)))


def filters(where: RetrievalFilter, mark: str = "?") -> tuple[str, list[Any]]:
    """A WHERE clause (or '') and its parameters for ``where``, with ``mark`` as the
    placeholder."""
    clauses: list[str] = []
    params: list[Any] = []
    if where.verdict:
        clauses.append(f"verdict = {mark}")
        params.append(where.verdict.upper())
    if where.session_id:
        clauses.append(f"session_id = {mark}")
        params.append(where.session_id)
    if where.url_like:
        # The text is looked for as it is: its % and _ are no LIKE wildcards ("alpha_beta"
        # matched /alphaXbeta, and "%" every URL).
        text = (where.url_like.replace("\\", "\\\\").replace("%", "\\%")
                .replace("_", "\\_"))
        clauses.append(f"(url LIKE {mark} ESCAPE '\\' OR final_url LIKE {mark} ESCAPE '\\')")
        params += [f"%{text}%", f"%{text}%"]
    if where.since:
        clauses.append(f"fetched_at >= {mark}")
        params.append(where.since)
    if where.until:
        clauses.append(f"fetched_at < {mark}")
        params.append(where.until)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def unreported(session_id: str, agent_id: str | None, mark: str = "?") -> tuple[str, list[Any]]:
    """The WHERE clause of a session's (or one subagent's) flags nobody was told about."""
    sql = f" WHERE session_id = {mark} AND reported_at IS NULL"
    params: list[Any] = [session_id]
    if agent_id is not None:
        sql += f" AND agent_id = {mark}"
        params.append(agent_id)
    return sql, params


def summary(urls: Any, groups: Sequence[Sequence[Any]], outcomes: Sequence[Sequence[Any]],
            flags: Any, checks: Any, flag_kinds: Sequence[Sequence[Any]] = ()) -> Summary:
    """The summary from its queries' rows: the count of distinct URLs; one row per (verdict,
    reason) with its count, bytes kept and answers without page text; (outcome, n)...; the
    flag and check counts. The totals are the groups' sums, so the retrievals are read once,
    from an index that covers the group (migration 0006 in both indexes)."""
    tallies = [(str(v), str(r), int(n), int(kept or 0), int(awpt or 0))
               for v, r, n, kept, awpt in groups]
    tallies.sort(key=lambda g: (-g[2], g[0], g[1]))
    return Summary(
        retrievals=sum(g[2] for g in tallies), urls=int(urls),
        bytes_kept=sum(g[3] for g in tallies),
        answer_without_page_text=sum(g[4] for g in tallies), flags=int(flags),
        answer_checks=int(checks),
        by_verdict_reason=tuple((v, r, n) for v, r, n, _, _ in tallies),
        by_answer_outcome=tuple((str(o), int(n)) for o, n in outcomes),
        flags_by_kind=tuple(sorted(((str(k), int(n)) for k, n in flag_kinds),
                                   key=lambda kn: (-kn[1], kn[0]))))


def robots_answer(row: Sequence[Any] | None, now: float, fresh: Callable[[CachedRobots], bool],
                  pending_timeout: float) -> RobotsClaim | None:
    """What the cache says of an origin's row (read under its lock): use it, wait for the
    worker fetching it, or None when the caller is to claim it and fetch."""
    if row is None:
        return None
    entry = CachedRobots(row[0], float(row[1]), row[2], row[3] or "", row[4])
    if fresh(entry):
        return RobotsClaim(entry, claimed=False)
    if entry.outcome == ROBOTS_PENDING and now - entry.fetched_at < pending_timeout:
        return RobotsClaim(None, claimed=False)
    return None


class IndexReads:
    """The questions of :class:`~readreceipt.store.protocols.Index` that only read, asked
    the same way of SQLite and of PostgreSQL. A subclass answers ``_ask(sql, params)``, the
    SQL written with ``?`` placeholders, with the rows."""

    def _ask(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def retrieval(self, record_id: str) -> Retrieval | None:
        rows = self._ask(SELECT_RETRIEVALS + " WHERE record_id = ?", (record_id,))
        return retrieval(rows[0]) if rows else None

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        rows = self._ask("SELECT record_id FROM retrievals WHERE record_id >= ? AND "
                         "record_id < ? ORDER BY record_id LIMIT ?",
                         (prefix, prefix + "\U0010ffff", limit))
        return [r[0] for r in rows]

    def for_url(self, url: str, *, limit: int | None = None) -> list[Retrieval]:
        sql = SELECT_RETRIEVALS + " WHERE url = ? OR final_url = ?" + NEWEST_FIRST
        params: list[Any] = [url, url]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [retrieval(r) for r in self._ask(sql, params)]

    def retrievals(self, where: RetrievalFilter = EVERY_RETRIEVAL, *,
                   limit: int | None = 50, offset: int = 0) -> list[Retrieval]:
        clauses, params = filters(where)
        sql = SELECT_RETRIEVALS + clauses + NEWEST_FIRST
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [retrieval(r) for r in self._ask(sql, params)]

    def all_retrievals(self, batch: int = 5000) -> Iterator[Retrieval]:
        """Every retrieval, by record id, read a page at a time (verify, push)."""
        after = ""
        while True:
            rows = self._ask(SELECT_RETRIEVALS + " WHERE record_id > ? ORDER BY record_id "
                             "LIMIT ?", (after, batch))
            for row in rows:
                yield retrieval(row)
            if len(rows) < batch:
                return
            after = rows[-1][0]

    def oldest_first(self, where: RetrievalFilter = EVERY_RETRIEVAL, *,
                     batch: int = 2000) -> Iterator[Retrieval]:
        """Retrievals matching ``where``, oldest first (then by record id), read a page at a
        time from the index on (fetched_at, record_id): an export of a million holds one
        page of them."""
        clauses, params = filters(where)
        joiner = " AND " if clauses else " WHERE "
        after: tuple[Any, Any] | None = None
        while True:
            sql, args = SELECT_RETRIEVALS + clauses, list(params)
            if after is not None:
                sql += joiner + "(fetched_at > ? OR (fetched_at = ? AND record_id > ?))"
                args += [after[0], after[0], after[1]]
            rows = self._ask(sql + " ORDER BY fetched_at, record_id LIMIT ?", [*args, batch])
            for row in rows:
                yield retrieval(row)
            if len(rows) < batch:
                return
            last = retrieval(rows[-1])
            after = (last.fetched_at, last.record_id)

    def count_retrievals(self, where: RetrievalFilter = EVERY_RETRIEVAL) -> int:
        clauses, params = filters(where)
        return int(self._ask("SELECT COUNT(*) FROM retrievals" + clauses, params)[0][0])  # noqa: S608 - constant clauses

    def newest_reached_since(self, url: str, since: str) -> str | None:
        sql = ("SELECT record_id FROM retrievals WHERE (url = ? OR final_url = ?) "  # noqa: S608 - constant clauses
               f"AND http_status IS NOT NULL AND fetched_at >= ?{NEWEST_FIRST} LIMIT 1")
        rows = self._ask(sql, (url, url, since))
        return str(rows[0][0]) if rows else None

    def session_capture_count(self, session_id: str) -> int:
        rows = self._ask("SELECT COUNT(*) FROM retrievals WHERE session_id = ?", (session_id,))
        return int(rows[0][0])

    def is_bytes_kept(self, digest: str) -> bool:
        return bool(self._ask("SELECT 1 FROM retrievals WHERE bytes_sha256 = ? AND "
                              "bytes_kept = TRUE LIMIT 1", (digest,)))

    def is_text_kept(self, digest: str) -> bool:
        return bool(self._ask("SELECT 1 FROM retrievals WHERE (text_sha256 = ? OR "
                              "page_text_sha256 = ?) AND bytes_kept = TRUE LIMIT 1",
                              (digest, digest)))

    def kept_rendered_ids(self) -> list[str]:
        return [str(r[0]) for r in self._ask(
            "SELECT record_id FROM retrievals WHERE javascript_executed = TRUE AND "
            "bytes_kept = TRUE ORDER BY record_id")]

    def flags(self, *, limit: int = 200, session_id: str | None = None) -> list[Flag]:
        where, params = ("", []) if session_id is None else (" WHERE session_id = ?",
                                                              [session_id])
        rows = self._ask(SELECT_FLAGS + where + " ORDER BY id DESC LIMIT ?", [*params, limit])
        return [flag(r) for r in rows]

    def has_unreported_flags(self, session_id: str, agent_id: str | None) -> bool:
        where, params = unreported(session_id, agent_id)
        return bool(self._ask("SELECT 1 FROM flags" + where + " LIMIT 1", params))  # noqa: S608 - constant clauses

    def probe_answer_for_origin(self, origin: str, newer_than: float) -> ProbeAnswer | None:
        rows = self._ask(
            "SELECT origin, fetched_at, url, final_url, status, text_sha256, text, failure "
            "FROM soft404_probes WHERE origin = ? AND fetched_at > ?", (origin, newer_than))
        return ProbeAnswer(*rows[0]) if rows else None

    def audits(self, *, limit: int = 100) -> list[Audit]:
        rows = self._ask(SELECT_AUDITS + " ORDER BY audited_at DESC, audit_id DESC LIMIT ?",
                         (limit,))
        return [Audit(*row) for row in rows]

    def audit(self, audit_id: str) -> Audit | None:
        rows = self._ask(SELECT_AUDITS + " WHERE audit_id = ?", (audit_id,))
        return Audit(*rows[0]) if rows else None
