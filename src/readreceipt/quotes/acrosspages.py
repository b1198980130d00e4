"""An answer checked against several pages at once: found on any, or flagged once.

A fetch tool that read several pages (Gemini CLI's web_fetch takes up to 20 URLs) and an
agent's final answer (Codex CLI's Stop, Gemini CLI's AfterAgent, Cursor's afterAgentResponse,
Cline's TaskComplete) are not about one page: a passage is found when any of the pages holds
it, and is flagged only when none does, once, on the page whose nearest passage came
closest (the first page when none holds anything close).

Each page is checked as a single-page answer is (:func:`~readreceipt.quotes.quotations.
check_answer_text`), only when the page can answer at all
(:func:`~readreceipt.quotes.answers.not_run_reason`). The outcome is written as a single
page's is: one flag per passage not found (:func:`~readreceipt.quotes.answers.record_flags`),
and one line of ``answer_checks.jsonl`` naming every page checked against (``kind:
"pages"``); the answer itself only as its digest and length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from readreceipt.quotes import quotations
from readreceipt.quotes.answers import answer_digest, not_run_reason, record_flags
from readreceipt.store.library import Library
from readreceipt.store.records import Record

#: Pages one answer is checked against at most (the newest a session read).
MAX_PAGES = 50


@dataclass
class _Best:
    found_on: Record | None = None
    nearest_on: Record | None = None
    passage: dict[str, Any] = field(default_factory=dict)
    similarity: float = -1.0


@dataclass(frozen=True)
class PagesCheck:
    """The outcome: ``found``, ``not_found`` or ``not_run`` (with a reason)."""

    outcome: str
    reason: str | None
    passages: tuple[dict[str, Any], ...]
    record_ids: tuple[str, ...]
    flagged: int = 0


def _texts(lib: Library, records: list[Record]) -> list[tuple[Record, str, str]]:
    out = []
    for record in records[:MAX_PAGES]:
        if not_run_reason(record.verdict, record.reason, record.wall) is not None:
            continue
        main, page = lib.text(record.text_sha256) or "", lib.text(record.page_text_sha256) or ""
        if main.strip() or page.strip():
            out.append((record, main, page))
    return out


def check_pages(lib: Library, records: list[Record], answer: str, prompt: str | None,
                session_id: str | None, agent_id: str | None) -> PagesCheck:
    """Check ``answer`` against every page of ``records`` that can answer; write the flags."""
    wanted, _ = quotations.find_quotations(answer, prompt or "")
    if not wanted:
        return PagesCheck(quotations.NOT_RUN, "no_quotation", (), ())
    texts = _texts(lib, records)
    if not texts:
        return PagesCheck(quotations.NOT_RUN, "no_page_text", (), ())
    best: dict[str, _Best] = {}
    for record, main, page in texts:
        check = quotations.check_answer_text(
            answer, main_text=main, page_text=page, prompt=prompt or "",
            is_pdf=record.content_type == "application/pdf").to_dict()
        passages: list[dict[str, Any]] = check["passages"]  # type: ignore[assignment] # to_dict's list
        for passage in passages:
            mine = best.setdefault(passage["text"], _Best())
            if mine.found_on is not None:
                continue
            if passage["found"]:
                mine.found_on, mine.passage = record, passage
                continue
            similarity = passage.get("similarity")
            score = float(similarity) if isinstance(similarity, int | float) else 0.0
            if mine.nearest_on is None or score > mine.similarity:
                mine.nearest_on, mine.passage, mine.similarity = record, passage, score
    flagged = 0
    by_record: dict[str, tuple[Record, list[dict[str, Any]]]] = {}
    for mine in best.values():
        if mine.found_on is None and mine.nearest_on is not None:
            by_record.setdefault(mine.nearest_on.record_id,
                                 (mine.nearest_on, []))[1].append(mine.passage)
    for record, passages in by_record.values():
        flagged += record_flags(lib, record, {"passages": passages}, session_id, agent_id)
    results = tuple({**mine.passage, "record_id": on.record_id} for mine in best.values()
                    if (on := mine.found_on or mine.nearest_on) is not None)
    outcome = quotations.FOUND if all(b.found_on for b in best.values()) else \
        quotations.NOT_FOUND
    ids = tuple(record.record_id for record, _, _ in texts)
    lib.log("answer_checks.jsonl", {
        "kind": "pages", "record_ids": list(ids), "outcome": outcome, "reason": None,
        "answer_sha256": answer_digest(answer), "answer_chars": len(answer),
        "passages": list(results), "session_id": session_id, "agent_id": agent_id})
    return PagesCheck(outcome, None, results, ids, flagged)
