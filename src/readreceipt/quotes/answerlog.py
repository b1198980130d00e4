"""Answer checks written down, and the copies held that answers are checked against.

:mod:`readreceipt.quotes.answers` makes the check; this module reads the texts of a copy held
(:func:`held_copy`) and writes the outcome (:func:`record`): a check against a copy held as
one line of ``answer_checks.jsonl`` and one index row naming that copy (a capture that checks
the copy it has just made keeps the check in that copy's record instead), and every passage
on none of the pages as one flag (one line of ``flags.jsonl`` and one index row) naming the
page it was checked against (against several, the page whose nearest passage it shows).

Invariants: the answer itself is never written, only its digest and length; checking one
answer twice flags nothing twice; the flags reach the index before the session is marked, so
the hook's quick modes never look for a flag that is not there yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from readreceipt.errors import RecordNotFound
from readreceipt.quotes.answers import CheckedAnswer, Copy, Page, check, combine, structured_of
from readreceipt.store import sessionmarks
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.protocols import AnswerCheck, NewFlag
from readreceipt.store.records import Record


def held_copy(lib: Library, record: Record) -> Copy:
    """The copy ``record`` describes, with the texts the library still holds of it (the
    tables and metadata read from its bytes, only if a figure is looked for there)."""
    return Copy(Page.of_record(record), lib.text(record.text_sha256),
                lib.text(record.page_text_sha256), bytes_kept=record.bytes_kept,
                structured=_structured_from_bytes(lib, record))


def _structured_from_bytes(lib: Library, record: Record) -> Callable[[], tuple[str, str]]:
    def read() -> tuple[str, str]:
        from readreceipt.reading.extract import html_text, sniff_kind

        body = lib.body(record) if record.bytes_kept else None
        if not body or sniff_kind(body, record.content_type or "") != "html":
            return "", ""
        html, _charset, _partial = html_text(body, record.charset)
        read_structured = structured_of(html)
        return read_structured() if read_structured else ("", "")

    return read


def record(lib: Library, checked: CheckedAnswer, session_id: str | None,
           agent_id: str | None) -> int:
    """Write ``checked`` down: an answer check naming each page whose record does not hold
    it, then the flags. Returns how many flags were new."""
    result = checked.check
    for outcome in checked.pages:
        page = outcome.page
        if page.in_record:
            continue
        entry = {"record_id": page.record_id, "url": page.url, "outcome": result["outcome"],
                 "reason": result.get("reason"), "answer_sha256": checked.answer_sha256,
                 "answer_chars": checked.answer_chars,
                 "answer_without_page_text": outcome.answer_without_page_text,
                 "passages": result.get("passages", []),
                 "claims": result.get("claims", []), "session_id": session_id,
                 "agent_id": agent_id}
        if "pages" in result:
            entry["pages"] = result["pages"]
        lib.log("answer_checks.jsonl", entry)
        lib.index.add_check(AnswerCheck(
            record_id=page.record_id, url=page.url, outcome=str(result["outcome"]),
            reason=str(result["reason"]) if result.get("reason") else None,
            answer_sha256=checked.answer_sha256, session_id=session_id, agent_id=agent_id))
    return _flags(lib, checked, session_id, agent_id)


def _flags(lib: Library, checked: CheckedAnswer, session_id: str | None,
           agent_id: str | None) -> int:
    """One flag per passage, figure or name on none of the pages, unless the same one of the
    same record is flagged for this session and agent already."""
    pairs = []
    for passage, page in checked.placed:
        if passage.get("found"):
            continue
        pairs.append((NewFlag(record_id=page.record_id, url=page.url,
                              passage=str(passage.get("text") or ""),
                              nearest=passage.get("nearest"),
                              similarity=passage.get("similarity"), session_id=session_id,
                              agent_id=agent_id, created_at=utc_now()), passage))
    for claim, page in checked.placed_claims:
        if claim.get("outcome") != "not_found":
            continue
        pairs.append((NewFlag(record_id=page.record_id, url=page.url,
                              passage=str(claim.get("text") or ""),
                              nearest=claim.get("nearest"), similarity=None,
                              session_id=session_id, agent_id=agent_id, created_at=utc_now(),
                              kind=str(claim.get("kind") or "figure"),
                              place=claim.get("where")), claim))
    if not pairs:
        return 0
    added = lib.index.add_flags([flag for flag, _ in pairs])
    new = {id(flag) for flag in added}
    for flag, passage in pairs:
        if id(flag) not in new:
            continue
        line = {"record_id": flag.record_id, "url": flag.url, "kind": flag.kind,
                "passage": flag.passage, "nearest": flag.nearest,
                "similarity": flag.similarity, "edited": bool(passage.get("edited")),
                "missing": passage.get("missing"), "session_id": flag.session_id,
                "agent_id": flag.agent_id}
        if flag.kind != "quotation":
            line.update({"value": passage.get("value"), "where": flag.place})
        lib.log("flags.jsonl", line)
    if added:
        # After the index holds them: the hook's quick modes look at this mark first.
        sessionmarks.mark_flags(session_id)
    return len(added)


def check_held_copy(lib: Library, held: Record, answer: str, prompt: str,
                    session_id: str | None = None, agent_id: str | None = None
                    ) -> CheckedAnswer:
    """Check ``answer`` against the texts kept for ``held`` and write it down; no request."""
    checked = check(answer, prompt, [held_copy(lib, held)])
    record(lib, checked, session_id, agent_id)
    return checked


def check_newest(lib: Library, url: str, answer: str, prompt: str = "",
                 session_id: str | None = None, agent_id: str | None = None) -> CheckedAnswer:
    """Check against the newest copy of ``url`` held; RecordNotFound when none is."""
    newest = lib.newest(url)
    if newest is None:
        from readreceipt.fetching.urlpolicy import as_recorded

        newest = lib.newest(as_recorded(url))
    if newest is None:
        raise RecordNotFound(f"no copy of {url} is held; capture it first (or use --fetch)",
                             url=url, reason="unknown_url")
    return check_held_copy(lib, newest, answer, prompt, session_id, agent_id)


def check_across(lib: Library, checks: Sequence[CheckedAnswer], session_id: str | None,
                 agent_id: str | None) -> CheckedAnswer | None:
    """One answer's checks against the pages of several captures (made with
    ``record_answer=False``, in the order the URLs were given) made one check and written
    down: a quotation is found when any of the pages holds it. None when no page was had."""
    if not checks:
        return None
    combined = combine(checks)
    record(lib, combined, session_id, agent_id)
    return combined
