"""Answers checked against pages: when a check may run, and how its outcome is written down.

:mod:`readreceipt.quotes.quotations` decides, purely, whether quotations are on a page. This module
decides *whether* a page can answer at all (a wall, an error status, a truncated or thin page
cannot: ``not_run`` with a reason, never a pass) and writes the outcome: the answer only as
its digest and length, every passage not found as one line of ``flags.jsonl`` and one index
row, and a check against a copy already held as one line of ``answer_checks.jsonl``.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from readreceipt.errors import ExitCode, RecordNotFound
from readreceipt.fetching.transport import FetchResult
from readreceipt.reading.extract import Extraction
from readreceipt.reading.verdict import RETRIEVED, Verdict, exit_code_for
from readreceipt.store import sessionmarks
from readreceipt.store.clock import utc_now
from readreceipt.store.escaping import escape_text
from readreceipt.store.library import Library
from readreceipt.store.protocols import AnswerCheck, NewFlag
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: The longest answer checked: 1 MiB (characters; the CLI reads at most this many bytes). A
#: model's answer is tens of kilobytes; a longer one is recorded as ``not_run``
#: (``answer_too_long``), so the capture it came with is never lost.
MAX_ANSWER_BYTES = 1024 * 1024


def answer_digest(answer: str) -> str:
    """The answer's digest: of its UTF-8 bytes, a lone surrogate taken as written escaped."""
    return hashlib.sha256(escape_text(answer).encode("utf-8")).hexdigest()


_digest = answer_digest


def _too_long(answer: str) -> str | None:
    return "answer_too_long" if len(answer) > MAX_ANSWER_BYTES else None


def not_run_reason(verdict: str, reason: str, wall: str | None,
                   extraction_error: str | None = None) -> str | None:
    """Why a page with this verdict cannot be checked against, or None when it can."""
    if extraction_error in ("invalid_json", "binary"):
        return extraction_error
    if verdict == RETRIEVED:
        return None
    if wall or reason.startswith("wall:"):
        return "wall"
    if reason == "no_text_layer":
        return "pdf_no_text"
    return reason  # FAILED: http_404, timeout...; UNKNOWN: js_shell, soft_404, thin_text...


def check_against(answer: str, prompt: str, extraction: Extraction | None,
                  fetched: FetchResult | None, verdict: Verdict) -> dict[str, Any]:
    """The record fields for an answer checked while capturing."""
    from readreceipt.quotes import quotations

    fields: dict[str, Any] = {"answer_sha256": _digest(answer), "answer_chars": len(answer)}
    why = not_run_reason(verdict.verdict, verdict.reason, verdict.wall,
                         extraction.error if extraction else None) or _too_long(answer)
    if why is not None or extraction is None:
        fields["answer_check"] = quotations.not_run(why or verdict.reason).to_dict()
    else:
        fields["answer_check"] = quotations.check_answer_text(
            answer, main_text=extraction.main_text, page_text=extraction.page_text,
            prompt=prompt, is_pdf=extraction.kind == "pdf").to_dict()
    if fetched is not None and extraction is not None:
        fields["answer_without_page_text"] = quotations.answer_without_page_text(
            answer, len(extraction.page_text), fetched.content_type, fetched.status)
    return fields


def record_flags(lib: Library, record: Record, check: dict[str, Any],
                 session_id: str | None, agent_id: str | None) -> int:
    """Write one flag per passage not found (the index, then flags.jsonl), unless the same
    passage of this record is flagged for this session and agent already: checking one
    answer twice flags nothing twice. Returns how many were written."""
    pairs = []
    for passage in check.get("passages", []):
        if passage.get("found"):
            continue
        pairs.append((NewFlag(record_id=record.record_id, url=record.url,
                              passage=str(passage.get("text") or ""),
                              nearest=passage.get("nearest"),
                              similarity=passage.get("similarity"), session_id=session_id,
                              agent_id=agent_id, created_at=utc_now()), passage))
    added = lib.index.add_flags([flag for flag, _ in pairs])
    new = {id(flag) for flag in added}
    for flag, passage in pairs:
        if id(flag) not in new:
            continue
        lib.log("flags.jsonl", {
            "record_id": flag.record_id, "url": flag.url, "passage": flag.passage,
            "nearest": flag.nearest, "similarity": flag.similarity,
            "edited": bool(passage.get("edited")), "missing": passage.get("missing"),
            "session_id": flag.session_id, "agent_id": flag.agent_id})
    if added:
        # After the index holds them: the hook's quick modes look at this mark first.
        sessionmarks.mark_flags(session_id)
    return len(added)


@dataclass(frozen=True)
class HeldCheck:
    """An answer checked against a copy already held."""

    record: Record
    answer_check: dict[str, Any]
    answer_without_page_text: bool

    def to_json(self) -> dict[str, Any]:
        return {"url": self.record.url, "record_id": self.record.record_id,
                "fetched_at": self.record.fetched_at, "verdict": self.record.verdict,
                "reason": self.record.reason, "answer_check": self.answer_check}

    @property
    def exit_code(self) -> int:
        """10 when a passage is not on the page; the held copy's own code when the check
        could not run because of it (a wall is 8: nothing was checked, which is no pass)."""
        outcome = self.answer_check.get("outcome")
        if outcome == "not_found":
            return ExitCode.QUOTE_NOT_FOUND
        if outcome == "not_run":
            return exit_code_for(self.record.verdict, self.record.reason)
        return ExitCode.OK


def check_held_copy(lib: Library, record: Record, answer: str, prompt: str,
                    session_id: str | None = None, agent_id: str | None = None) -> HeldCheck:
    """Check ``answer`` against the texts kept for ``record``; make no request."""
    from readreceipt.quotes import quotations

    why = not_run_reason(record.verdict, record.reason, record.wall) or _too_long(answer)
    main = lib.text(record.text_sha256)
    page = lib.text(record.page_text_sha256)
    if why is None and main is None and page is None:
        why = "bytes_forgotten" if not record.bytes_kept else "no_text"
    if why is not None:
        result = quotations.not_run(why).to_dict()
    else:
        result = quotations.check_answer_text(answer, main_text=main or "", page_text=page or "",
                                          prompt=prompt,
                                          is_pdf=(record.content_type == "application/pdf")
                                          ).to_dict()
    awpt = (record.http_status is not None and quotations.answer_without_page_text(
        answer, len(page or ""), record.content_type or "", record.http_status))
    lib.log("answer_checks.jsonl", {
        "record_id": record.record_id, "url": record.url, "outcome": result["outcome"],
        "reason": result.get("reason"), "answer_sha256": _digest(answer),
        "answer_chars": len(answer), "answer_without_page_text": awpt,
        "passages": result.get("passages", []), "session_id": session_id,
        "agent_id": agent_id,
    })
    lib.index.add_check(AnswerCheck(
        record_id=record.record_id, url=record.url, outcome=str(result["outcome"]),
        reason=str(result["reason"]) if result.get("reason") else None,
        answer_sha256=_digest(answer), session_id=session_id, agent_id=agent_id))
    record_flags(lib, record, result, session_id, agent_id)
    return HeldCheck(record, result, bool(awpt))


def check_newest(lib: Library, url: str, answer: str, prompt: str = "",
                 session_id: str | None = None, agent_id: str | None = None) -> HeldCheck:
    """Check against the newest copy of ``url`` held; RecordNotFound when none is."""
    record = lib.newest(url)
    if record is None:
        from readreceipt.fetching.urlpolicy import as_recorded

        record = lib.newest(as_recorded(url))
    if record is None:
        raise RecordNotFound(f"no copy of {url} is held; capture it first (or use --fetch)",
                             url=url, reason="unknown_url")
    return check_held_copy(lib, record, answer, prompt, session_id, agent_id)
