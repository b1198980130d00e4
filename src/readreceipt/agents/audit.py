"""``readreceipt audit TRANSCRIPT``: a whole agent session checked after the fact.

From a Claude Code transcript (:mod:`.transcript`, which reads the session's subagents'
transcripts with it), a Codex CLI rollout or a Gemini CLI saved chat: every page the session
fetched (``WebFetch``, ``web_fetch``, ``readreceipt fetch``, curl and wget in a shell, the MCP
fetch tools) with its verdict, every search with the
links it returned, and every quotation in the assistant's messages checked against the pages
the session read. A quotation is found when any page of the session holds it; one that none
holds is reported with the nearest passage any of them holds.

Pages come from the library: the newest copy held of each URL, else a capture made now
through the ordinary pipeline, politely (robots.txt, pacing, the dedup window, the session
cap, which a transcript naming no session meets here; never ``now``). The quotations are
found and matched by the one answer check (:mod:`readreceipt.quotes.answers`), each message
against every page read, with the user's own words as the prompt (a passage the user wrote
is not a page's).

The audit is kept in the library (:meth:`~readreceipt.store.library.Library.save_audit`), so
the viewer lists it. Exit code: 10 when a quotation is on no page the session read, 11 when
one could not be checked (no page read), else 0.

Invariants: the transcript is only read; a page that cannot be had (refused, declined, a
network failure) is reported with its reason and the audit goes on; a session that read no
page has its quotations reported as not checked, never as found or missing; everything
the transcript wrote and every message in the text report is one sanitized line (the report
may be read by an agent); a URL is kept and shown only as the URL policy lets it be written
down (a credential in it never is).
"""

from __future__ import annotations

__all__ = ["DEFAULT_WAIT", "AuditOptions", "AuditResult", "PageEntry", "QuoteEntry",
           "audit_transcript", "read_transcript", "report_text"]

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from readreceipt.agents import fence
from readreceipt.agents.transcript import Transcript, read_transcript
from readreceipt.errors import ExitCode, ReadReceiptError, RefusedError
from readreceipt.fetching import politeness
from readreceipt.fetching.credentials import loggable_url
from readreceipt.fetching.netguard import Resolver
from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.quotes.answerlog import held_copy
from readreceipt.quotes.answers import CheckedAnswer, check_one, combine, not_run_reason
from readreceipt.quotes.quotations import find_quotations
from readreceipt.reading.wording import counted
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.protocols import Audit
from readreceipt.store.records import Record, new_record_id

log = logging.getLogger(__name__)

#: How long a capture made now waits for its host's turn (the session's own pages were
#: fetched minutes apart; an audit asks for them one after another).
DEFAULT_WAIT = politeness.DEFAULT_WAIT

FOUND, APPROXIMATE, NOT_FOUND, NOT_RUN = "found", "approximate", "not_found", "not_run"


@dataclass(frozen=True)
class AuditOptions:
    capture_missing: bool = True  # capture a page no copy of which is held
    wait: float = DEFAULT_WAIT
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    resolve: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageEntry:
    url: str
    tools: tuple[str, ...]  # which tools fetched it
    lines: tuple[int, ...]  # where in the transcript
    verdict: str | None  # None: no copy (error says why)
    reason: str | None
    record_id: str | None
    fetched_at: str | None
    captured_now: bool
    error: str | None = None
    title: str | None = None
    agent_status: int | None = None  # the status the agent's own fetch reported
    subagent_lines: tuple[str, ...] = ()  # where subagents fetched it: "<file>:<line>"

    @property
    def readable(self) -> bool:
        return self.verdict is not None and not_run_reason(
            self.verdict, self.reason or "", None) is None


@dataclass(frozen=True)
class QuoteEntry:
    text: str
    line: int
    status: str  # found | not_found | not_run
    url: str | None = None  # found: the page that holds it
    record_id: str | None = None
    nearest: str | None = None  # not found: the closest passage any page holds
    nearest_url: str | None = None
    similarity: float | None = None
    reason: str | None = None  # not_run: why
    source: str | None = None  # the subagent's file it is in; None: the session's own


@dataclass(frozen=True)
class ClaimEntry:
    """A figure or a name an assistant's message attributes to a page it read."""

    kind: str  # "figure" | "name"
    text: str
    value: str
    line: int
    status: str  # found | approximate | not_found
    url: str | None = None  # the page that holds it, or whose nearest figure is shown
    record_id: str | None = None
    where: str | None = None  # which of that page's texts
    match: str | None = None  # found: the page's words
    nearest: str | None = None  # not found: the figure the page gives beside the same words
    computed: str | None = None
    source: str | None = None  # the subagent's file it is in; None: the session's own

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "value": self.value, "line": self.line,
                "status": self.status, "url": self.url, "record_id": self.record_id,
                "where": self.where, "match": self.match, "nearest": self.nearest,
                "computed": self.computed, "source": self.source}


@dataclass(frozen=True)
class AuditResult:
    audit_id: str
    transcript: str
    transcript_sha256: str
    session_id: str | None
    audited_at: str
    entries: int
    skipped_lines: int
    pages: tuple[PageEntry, ...]
    searches: tuple[dict[str, Any], ...]
    quotations: tuple[QuoteEntry, ...]
    skipped_quotations: tuple[dict[str, Any], ...] = field(default=())
    #: The subagents' transcripts read with the session's: (file, SHA-256 of what was read).
    subagent_transcripts: tuple[tuple[str, str], ...] = field(default=())
    #: Figures and names the messages attribute to a page ("according to the article...").
    claims: tuple[ClaimEntry, ...] = field(default=())
    #: Whose transcript: claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI).
    agent: str = "claude"

    def count(self, status: str) -> int:
        return sum(1 for q in self.quotations if q.status == status)

    def count_claims(self, status: str) -> int:
        return sum(1 for c in self.claims if c.status == status)

    @property
    def exit_code(self) -> int:
        """10 when a quotation, figure or name is on no page the session read; 11 when a
        quotation could not be checked (no page was read); else 0."""
        if self.count(NOT_FOUND) or self.count_claims(NOT_FOUND):
            return ExitCode.QUOTE_NOT_FOUND
        return ExitCode.NOT_CHECKED if self.count(NOT_RUN) else ExitCode.OK

    def to_json(self) -> dict[str, Any]:
        return {
            "audit_id": self.audit_id, "transcript": self.transcript, "agent": self.agent,
            "transcript_sha256": self.transcript_sha256,
            "subagent_transcripts": [{"file": name, "sha256": digest}
                                     for name, digest in self.subagent_transcripts],
            "session_id": self.session_id, "audited_at": self.audited_at,
            "entries": self.entries, "skipped_lines": self.skipped_lines,
            "counts": {"pages": len(self.pages),
                       "pages_read": sum(1 for p in self.pages if p.readable),
                       "searches": len(self.searches), "quotations": len(self.quotations),
                       FOUND: self.count(FOUND), NOT_FOUND: self.count(NOT_FOUND),
                       NOT_RUN: self.count(NOT_RUN), "claims": len(self.claims),
                       "claims_found": self.count_claims(FOUND),
                       "claims_approximate": self.count_claims(APPROXIMATE),
                       "claims_not_found": self.count_claims(NOT_FOUND)},
            "pages": [{"url": p.url, "tools": list(p.tools), "lines": list(p.lines),
                       "verdict": p.verdict, "reason": p.reason, "record_id": p.record_id,
                       "fetched_at": p.fetched_at, "captured_now": p.captured_now,
                       "error": p.error, "title": p.title, "agent_status": p.agent_status,
                       "subagent_lines": list(p.subagent_lines)}
                      for p in self.pages],
            "searches": list(self.searches),
            "quotations": [{"text": q.text, "line": q.line, "status": q.status, "url": q.url,
                            "record_id": q.record_id, "nearest": q.nearest,
                            "nearest_url": q.nearest_url, "similarity": q.similarity,
                            "reason": q.reason, "source": q.source}
                           for q in self.quotations],
            "skipped_quotations": list(self.skipped_quotations),
            "claims": [c.to_json() for c in self.claims],
            "exit_code": self.exit_code,
        }


def audit_transcript(transcript: Transcript, library: Library,
                     options: AuditOptions = AuditOptions(), *,
                     resolver: Resolver | None = None) -> AuditResult:
    """Audit the session of ``transcript`` (:func:`read_transcript`: read before a library is
    opened, a file that is no transcript makes none), and keep the audit in ``library``."""
    path = transcript.path
    pages = _pages(transcript, library, options, resolver)
    quotes, skipped, claims = _quotations(transcript, library, pages)
    result = AuditResult(
        audit_id=new_record_id(), transcript=str(path),
        transcript_sha256=transcript.sha256, session_id=transcript.session_id,
        audited_at=utc_now(), entries=transcript.entries,
        skipped_lines=transcript.skipped_lines, pages=tuple(p for p, _ in pages),
        searches=tuple({"query": s.query, "line": s.line, "source": s.source,
                        "results": list(dict.fromkeys(loggable_url(u) for u in s.urls))}
                       for s in transcript.searches),
        quotations=tuple(quotes), skipped_quotations=tuple(skipped),
        subagent_transcripts=transcript.subagent_files, claims=tuple(claims),
        agent=transcript.agent)
    library.save_audit(Audit(
        audit_id=result.audit_id, transcript=result.transcript, session_id=result.session_id,
        audited_at=result.audited_at, pages=len(result.pages),
        quotations=len(result.quotations),
        not_found=result.count(NOT_FOUND) + result.count_claims(NOT_FOUND),
        report=json.dumps(result.to_json(), ensure_ascii=False)))
    return result


# ---------------------------------------------------------------------------------- pages


def _pages(transcript: Transcript, lib: Library, options: AuditOptions,
           resolver: Resolver | None) -> list[tuple[PageEntry, Record | None]]:
    """One entry per URL the session fetched, in the order first fetched, with its copy.

    An entry names its URL as the URL policy lets it be written down
    (:func:`~readreceipt.fetching.credentials.loggable_url`): a credential the transcript
    holds in a URL is neither kept in the audit nor printed."""
    order: dict[str, list[Any]] = {}
    for fetch in transcript.fetches:
        order.setdefault(fetch.url, []).append(fetch)
    out: list[tuple[PageEntry, Record | None]] = []
    made = 0
    for url, fetches in order.items():
        tools = tuple(dict.fromkeys(f.tool for f in fetches))
        lines = tuple(f.line for f in fetches if f.source is None)
        elsewhere = tuple(f"{f.source}:{f.line}" for f in fetches if f.source is not None)
        status = next((f.status for f in fetches if f.status is not None), None)
        # A named session meets the session cap in capture; a transcript that names none
        # meets it here, so no transcript makes an audit a crawler.
        capped = transcript.session_id is None and made >= politeness.SESSION_CAP
        record, captured, error = _copy(url, lib, options, transcript.session_id, resolver,
                                        capped=capped)
        made += captured
        shown = loggable_url(url)
        if record is None:
            out.append((PageEntry(shown, tools, lines, None, None, None, None, captured, error,
                                  agent_status=status, subagent_lines=elsewhere), None))
            continue
        out.append((PageEntry(shown, tools, lines, record.verdict, record.reason,
                              record.record_id, record.fetched_at, captured, None,
                              record.title, status, elsewhere), record))
    return out


def _copy(url: str, lib: Library, options: AuditOptions, session_id: str | None,
          resolver: Resolver | None, *, capped: bool = False
          ) -> tuple[Record | None, bool, str | None]:
    """(the newest copy held, else one captured now; whether captured now; why none).
    ``capped``: the audit has captured as many pages as a session may; none is made."""
    held = lib.newest(url)
    if held is None:
        try:
            held = lib.newest(check_url(url).url)
        except RefusedError as exc:
            return None, False, f"{exc.reason}: {exc}"
    if held is not None:
        return held, False, None
    if not options.capture_missing:
        return None, False, "not_held: no copy is held and capturing was not asked for"
    if capped:
        return None, False, (f"session_cap: the transcript names no session, and this audit "
                             f"has captured {politeness.SESSION_CAP} pages, a session's cap")
    try:
        result = capture(url, CaptureOptions(wait=options.wait, timeout=options.timeout,
                                             max_bytes=options.max_bytes,
                                             resolve=options.resolve, session_id=session_id),
                         lib, resolver=resolver)
    except ReadReceiptError as exc:
        return None, False, f"{exc.reason}: {exc}"
    return result.record, not result.reused, None


# ----------------------------------------------------------------------------- quotations


@dataclass
class _Best:
    found_on: PageEntry | None = None
    nearest: str | None = None
    nearest_on: PageEntry | None = None
    similarity: float = -1.0


def _quotations(transcript: Transcript, lib: Library,
                pages: list[tuple[PageEntry, Record | None]]
                ) -> tuple[list[QuoteEntry], list[dict[str, Any]], list[ClaimEntry]]:
    """The quotations of the assistant's messages, each checked against every page the
    session read, and the figures and names its messages attribute to a page (the sentences
    that name a source: a message mixes pages' words with the agent's own work)."""
    prompt = transcript.user_words
    # A quotation is known by where it was written (the file, the line) and its words.
    found: list[tuple[str | None, int, str]] = []
    skipped: list[dict[str, Any]] = []
    for said in transcript.said:
        passages, passed_over = find_quotations(said.text, prompt)
        found.extend((said.source, said.line, p) for p in passages)
        skipped.extend({"text": text, "line": said.line, "source": said.source, "why": why}
                       for text, why in passed_over)
    readable = [(entry, held_copy(lib, record)) for entry, record in pages
                if record is not None and entry.readable]
    copies = [(entry, copy) for entry, copy in readable
              if (copy.main_text or "").strip() or (copy.page_text or "").strip()]
    if not copies:
        why = "no_page_read" if not pages else "no_page_text"
        return [QuoteEntry(text, line, NOT_RUN, reason=why, source=source)
                for source, line, text in found], skipped, []
    best: dict[tuple[str | None, int, str], _Best] = {key: _Best() for key in found}
    blocks = list(transcript.said)
    # Each message is an answer checked against every page the session read, as several
    # URLs given one answer are (quotes/answers.py): found when any page holds it.
    per_block: list[list[CheckedAnswer]] = [[] for _ in blocks]
    entries: dict[str, PageEntry] = {}
    for entry, copy in copies:  # page by page: each page's text is built once
        entries[copy.page.record_id] = entry
        for checks, said in zip(per_block, blocks, strict=True):
            checks.append(check_one(said.text, prompt, copy, attributed=True))
    claims: list[ClaimEntry] = []
    for checks, said in zip(per_block, blocks, strict=True):
        combined = combine(checks)
        for passage, on in combined.placed:
            mine = best.get((said.source, said.line, str(passage.get("text"))))
            if mine is None:
                continue
            if passage.get("found"):
                mine.found_on = entries[on.record_id]
            elif passage.get("similarity") is not None:
                mine.nearest, mine.nearest_on = passage.get("nearest"), entries[on.record_id]
                mine.similarity = float(passage["similarity"])
        for claim, on in combined.placed_claims:
            if claim.get("outcome") == NOT_RUN:
                continue
            page = entries[on.record_id]
            shown = claim.get("outcome") != NOT_FOUND or claim.get("nearest")
            claims.append(ClaimEntry(
                str(claim.get("kind")), str(claim.get("text")), str(claim.get("value")),
                said.line, str(claim.get("outcome")), page.url if shown else None,
                page.record_id if shown else None, claim.get("where"), claim.get("match"),
                claim.get("nearest"), claim.get("computed"), said.source))
    out = []
    for (source, line, text), mine in best.items():
        if mine.found_on is not None:
            out.append(QuoteEntry(text, line, FOUND, mine.found_on.url,
                                  mine.found_on.record_id, source=source))
        else:
            out.append(QuoteEntry(
                text, line, NOT_FOUND, nearest=mine.nearest,
                nearest_url=mine.nearest_on.url if mine.nearest_on else None,
                similarity=mine.similarity if mine.similarity >= 0 else None, source=source))
    return out, skipped, claims


# --------------------------------------------------------------------------------- report


def _line(text: str | None, limit: int = 200) -> str:
    return fence.one_line(text or "", limit)


def report_text(result: AuditResult) -> str:
    """The audit as plain text, for a person (or an agent) to read."""
    counts = result.to_json()["counts"]
    # Everything the transcript wrote (its session id, tool names, URLs, words) and what a
    # refusal or a server said is one marked line: the report may be read by an agent.
    session = _line(result.session_id, 200) if result.session_id else "(none named)"
    lines = [f"audit {result.audit_id} of {result.transcript}",
             f"  session {session}; {counted(result.entries, 'entry')}"
             + (f", {counted(result.skipped_lines, 'line')} passed over (not JSON)"
                if result.skipped_lines else "")]
    lines.append(f"pages fetched: {counts['pages']} ({counts['pages_read']} read)")
    for page in result.pages:
        how = _line(", ".join(page.tools), 300)
        if page.verdict is None:
            lines.append(f"  NO COPY    {_line(page.url, 300)}  ({how}; {_line(page.error, 500)})")
            continue
        verdict = page.verdict
        note = "captured now" if page.captured_now else f"copy of {page.fetched_at}"
        detail = "" if page.reason == "ok" else f" {page.reason}"
        lines.append(f"  {verdict}{detail}  {_line(page.url, 300)}  ({how}; {note}; record "
                     f"{page.record_id})")
    if result.searches:
        lines.append(f"searches: {len(result.searches)}")
        for search in result.searches:
            results = counted(len(search['results']), 'result')
            lines.append(f"  \u201c{_line(search['query'])}\u201d: {results} (links seen, not "
                         "pages read)")
    lines.append(f"quotations in the assistant's messages: {counts['quotations']} "
                 f"({counts[FOUND]} found, {counts[NOT_FOUND]} on no page the session read"
                 + (f", {counts[NOT_RUN]} not checked" if counts[NOT_RUN] else "") + ")")
    for quote in result.quotations:
        where = f"line {quote.line}" + (f" of {_line(quote.source, 300)}" if quote.source
                                        else "")
        shown = f"\u201c{_line(quote.text)}\u201d ({where})"
        if quote.status == FOUND:
            lines.append(f"  found      {shown} on {_line(quote.url, 300)}")
        elif quote.status == NOT_FOUND:
            near = "; no page holds anything close"
            if quote.nearest and quote.similarity is not None:
                near = (f"; nearest: \u201c{_line(quote.nearest)}\u201d ({quote.similarity:.0f}% "
                        f"similar) on {_line(quote.nearest_url, 300)}")
            lines.append(f"  NOT FOUND  {shown}{near}")
        else:
            lines.append(f"  not checked ({quote.reason})  {shown}")
    if result.claims:
        lines.append(f"figures and names the assistant's messages attribute to a page: "
                     f"{len(result.claims)} ({counts['claims_found']} found, "
                     f"{counts['claims_approximate']} approximate, "
                     f"{counts['claims_not_found']} not on any page as fetched)")
    for claim in result.claims:
        where = f"line {claim.line}" + (f" of {_line(claim.source, 300)}" if claim.source
                                        else "")
        shown = f"{claim.kind} \u201c{_line(claim.text)}\u201d ({where})"
        on = f" on {_line(claim.url, 300)}" if claim.url else ""
        texts = _TEXTS.get(claim.where or "", "")
        if claim.status == FOUND:
            how = f" (computed: {_line(claim.computed)})" if claim.computed else ""
            lines.append(f"  found      {shown}{on}{how}")
        elif claim.status == APPROXIMATE:
            lines.append(f"  approx.    {shown}{on}: the page says "
                         f"\u201c{_line(claim.match)}\u201d")
        elif claim.nearest:
            lines.append(f"  NOT FOUND  {shown}; nearest figure beside the same words: "
                         f"\u201c{_line(claim.nearest)}\u201d ({texts}){on}")
        else:
            lines.append(f"  NOT FOUND  {shown}; "
                         + ("no page read gives a figure beside the same words"
                            if claim.kind == "figure" else "no page read names it"))
    return "\n".join(lines)


_TEXTS = {"main": "main content", "page": "visible text", "table": "a table",
          "metadata": "the publisher's metadata"}


