"""The index's rows, shared by every SQL index: columns, a record as a row, a row as a value.

Both :mod:`readreceipt.store.sqlite` and :mod:`readreceipt.store.postgres` keep the same
columns under the same names, so that a retrieval reads the same from either; only the
placeholder differs (``?`` against ``%s``), and :func:`filters` takes it as an argument.

Standard library only (the SQLite index, and through it the hook's report path, imports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from readreceipt.store.protocols import Flag, Retrieval, RetrievalFilter

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
                "agent_id", "created_at", "reported_at", "reported_to")
SELECT_RETRIEVALS = f"SELECT {', '.join(RETRIEVAL_COLUMNS)} FROM retrievals"  # noqa: S608 - constant column names
SELECT_FLAGS = f"SELECT {', '.join(FLAG_COLUMNS)} FROM flags"  # noqa: S608 - constant column names
NEWEST_FIRST = " ORDER BY fetched_at DESC, record_id DESC"


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
        clauses.append(f"(url LIKE {mark} OR final_url LIKE {mark})")
        params += [f"%{where.url_like}%", f"%{where.url_like}%"]
    if where.since:
        clauses.append(f"fetched_at >= {mark}")
        params.append(where.since)
    if where.until:
        clauses.append(f"fetched_at < {mark}")
        params.append(where.until)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params
