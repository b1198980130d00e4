"""Libraries built straight through the Library API, with chosen times, for export and viewer tests.

A record made here is what a capture would have stored for these bytes (extraction, texts,
digests) without a request: tests and benchmarks need many captures at known times, and the
capture pipeline is tested on its own elsewhere.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

from readreceipt.reading.extract import extract
from readreceipt.store.library import Library
from readreceipt.store.records import Record, new_record_id

T0 = datetime(2026, 3, 1, 9, 0, 0, tzinfo=UTC)


def at(minutes: float) -> str:
    """A fetched_at ``minutes`` after T0."""
    return (T0 + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def put_capture(lib: Library, url: str, body: bytes, fetched_at: str, *,
                content_type: str = "text/html; charset=utf-8", status: int = 200,
                headers: dict[str, str] | None = None, final_url: str | None = None,
                redirect_chain: tuple[dict[str, Any], ...] = (), keep: bool = True,
                verdict: str = "RETRIEVED", reason: str = "ok", wall: str | None = None,
                session_id: str | None = None, truncated: bool = False,
                record_id: str | None = None, **fields: Any) -> Record:
    """Store ``body`` as a capture of ``url`` at ``fetched_at`` and return its record."""
    extraction = extract(body, content_type.split(";")[0].strip())
    digest = hashlib.sha256(body).hexdigest()
    if keep and body:
        lib.put_bytes(body)
    text_digest = page_digest = None
    if extraction.main_text or extraction.page_text:
        text_digest = (lib.put_text(extraction.main_text) if keep
                       else hashlib.sha256(extraction.main_text.encode()).hexdigest())
        page_digest = (lib.put_text(extraction.page_text) if keep
                       else hashlib.sha256(extraction.page_text.encode()).hexdigest())
    stamp = datetime.fromisoformat(fetched_at.replace("Z", "+00:00"))
    record = Record(
        record_id=record_id or new_record_id(stamp), url=url, final_url=final_url or url,
        redirect_chain=redirect_chain, fetched_at=fetched_at, http_status=status,
        content_type=content_type.split(";")[0], charset=extraction.charset,
        bytes=len(body), bytes_sha256=digest, bytes_kept=keep and bool(body),
        truncated=truncated, text_sha256=text_digest, page_text_sha256=page_digest,
        text_chars=len(extraction.main_text), extractor=extraction.extractor,
        response_headers={"content-type": content_type, **(headers or {})},
        peer_address="203.0.113.7", user_agent="readreceipt/test",
        verdict=verdict, reason=reason, wall=wall, session_id=session_id,
        title=extraction.title, **fields)
    lib.save(record)
    return record


def put_failure(lib: Library, url: str, fetched_at: str, reason: str = "timeout") -> Record:
    """A capture that got no HTTP response."""
    stamp = datetime.fromisoformat(fetched_at.replace("Z", "+00:00"))
    record = Record(record_id=new_record_id(stamp), url=url, final_url=url,
                    fetched_at=fetched_at, verdict="FAILED", reason=reason,
                    detail="no complete answer within 1 s", user_agent="readreceipt/test")
    lib.save(record)
    return record


def article(title: str, *paragraphs: str) -> bytes:
    """A small HTML article: enough text to be a page."""
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><main><article><h1>{title}</h1>\n{body}</article></main></body></html>"
            ).encode()
