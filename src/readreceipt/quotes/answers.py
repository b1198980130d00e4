"""The answer check: one answer against the copies it is attributed to. The one place it is made.

Every way in goes through here: a capture's fresh copy, a copy reused inside the dedup window
or found while waiting for the host's turn (:mod:`readreceipt.pipeline`), ``check`` and
``check_answer()`` against the copy held, the hook's worker, the MCP tools, ``capture URL
URL... --answer`` against several pages, and ``audit`` against a session's pages. Each builds
the :class:`Copy` it used and calls :func:`check`, and what comes back (a
:class:`CheckedAnswer`) is what is reported, what is written down
(:mod:`readreceipt.quotes.answerlog`) and what decides the exit code
(:attr:`CheckedAnswer.exit_code`). A check of another kind joins here: per page in
:func:`check_one`, and in how pages add up in :func:`combine`.

The rules:

- a copy that cannot answer (a wall, an error status, a truncated, thin or binary page, its
  bytes forgotten) gives ``not_run`` with the reason, never a pass
  (:func:`not_run_reason`); so does an answer with no quotation, or an empty one;
- :mod:`readreceipt.quotes.quotations` decides, purely, whether each quotation is on a page,
  and :mod:`readreceipt.quotes.claims` whether each figure and name the answer states is
  (``claims``: a figure ``not_found`` counts as a passage not found does; ``approximate``
  is found); the check's ``outcome`` is ``not_found`` when any of either is;
- against several pages, a quotation (a figure, a name) counts as found when it is on any of
  them (the first, in the order given, that holds it), and one on none is reported with the
  nearest passage (figure) any of them holds; each then names its page (``url``,
  ``record_id``) and the check lists the pages with their own outcome (``pages``);
- the answer itself is never kept: only its digest and length.

Pure: nothing here reads or writes the library, and no request is made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from readreceipt.errors import ExitCode, batch_exit_code
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.transport import FetchResult
from readreceipt.reading.agreement import Agreement, agreement, disagrees
from readreceipt.reading.extract import Extraction
from readreceipt.reading.verdict import RETRIEVED, Verdict, exit_code_for
from readreceipt.store.escaping import escape_text
from readreceipt.store.records import Record

#: The longest answer checked: 1 MiB (characters; the CLI reads at most this many bytes). A
#: model's answer is tens of kilobytes; a longer one is recorded as ``not_run``
#: (``answer_too_long``), so the capture it came with is never lost.
MAX_ANSWER_BYTES = 1024 * 1024

FOUND, NOT_FOUND, NOT_RUN = "found", "not_found", "not_run"


def answer_digest(answer: str) -> str:
    """The answer's digest: of its UTF-8 bytes, a lone surrogate taken as written escaped."""
    return hashlib.sha256(escape_text(answer).encode("utf-8")).hexdigest()


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


@dataclass(frozen=True)
class Page:
    """A copy as a check names it: which retrieval, what it was, whether it was held."""

    record_id: str
    url: str
    fetched_at: str | None
    verdict: str
    reason: str
    wall: str | None = None
    content_type: str | None = None
    http_status: int | None = None
    #: The check goes into this page's record (a capture checking the copy it has just
    #: made); else it is written down as an answer check naming the page (a copy held).
    in_record: bool = False

    def exit_code(self) -> int:
        return exit_code_for(self.verdict, self.reason)

    @classmethod
    def of_record(cls, record: Record) -> Page:
        return cls(record.record_id, record.url, record.fetched_at, record.verdict,
                   record.reason, record.wall, record.content_type, record.http_status)


@dataclass(frozen=True)
class Copy:
    """What an answer is checked against: a page and the texts it said (None: not held).
    ``structured`` gives the page's tables' cells and its publisher's metadata as texts
    (:mod:`readreceipt.reading.structured`), read only when a figure is on neither text."""

    page: Page
    main_text: str | None
    page_text: str | None
    extraction_error: str | None = None
    bytes_kept: bool = True
    structured: Callable[[], tuple[str, str]] | None = field(default=None, compare=False)

    @classmethod
    def fresh(cls, record_id: str, url: str, fetched_at: str, extraction: Extraction | None,
              fetched: FetchResult | None, verdict: Verdict, *, in_record: bool = True) -> Copy:
        """The copy a capture has just made (its record is not written yet)."""
        page = Page(record_id, url, fetched_at, verdict.verdict, verdict.reason, verdict.wall,
                    fetched.content_type if fetched else None,
                    fetched.status if fetched else None, in_record=in_record)
        if extraction is None:
            return cls(page, None, None)
        return cls(page, extraction.main_text, extraction.page_text, extraction.error,
                   structured=structured_of(extraction.html))

    @property
    def is_pdf(self) -> bool:
        return self.page.content_type == "application/pdf"


def structured_of(html: str | None) -> Callable[[], tuple[str, str]] | None:
    """The tables' cells and the publisher's metadata of ``html``, read when first asked."""
    if not html:
        return None

    def read() -> tuple[str, str]:
        from readreceipt.reading.structured import metadata_text, tables_text

        return tables_text(html), metadata_text(html)

    return read


@dataclass(frozen=True)
class PageOutcome:
    """How the check went on one page of several (``pages`` in the check)."""

    page: Page
    outcome: str
    reason: str | None
    answer_without_page_text: bool

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.page.url, "record_id": self.page.record_id,
                "outcome": self.outcome, "reason": self.reason}


@dataclass(frozen=True)
class CheckedAnswer:
    """An answer checked against one copy or several: what is reported, recorded and exits.

    ``check`` is the answer check as records, logs and ``--json`` hold it: ``{outcome,
    reason, passages: [...], skipped: [...]}``, and, against several pages, ``pages`` and
    each passage's ``url`` and ``record_id``."""

    check: dict[str, Any]
    pages: tuple[PageOutcome, ...]
    answer_sha256: str
    answer_chars: int
    #: Passages as the check reports them, each with its page: the one it was found on, or
    #: whose nearest passage it shows (the first page checked when none holds anything
    #: close); a passage not found is flagged on that page.
    placed: tuple[tuple[dict[str, Any], Page], ...] = field(default=(), repr=False)
    #: The claims (figures and names), each with its page, as ``placed``.
    placed_claims: tuple[tuple[dict[str, Any], Page], ...] = field(default=(), repr=False)

    @property
    def outcome(self) -> str:
        return str(self.check["outcome"])

    @property
    def answer_check(self) -> dict[str, Any]:
        """The check (as a record's ``answer_check`` field is named)."""
        return self.check

    @property
    def page(self) -> Page:
        """The (first) copy checked against."""
        return self.pages[0].page

    @property
    def answer_without_page_text(self) -> bool:
        return any(p.answer_without_page_text for p in self.pages)

    @property
    def exit_code(self) -> int:
        """10 when a quotation, a figure or a name is on none of the pages; 0 when every one
        is on one. When nothing was checked: the code of the copy that kept the check from
        running (a wall is 8), else 11, not checked (no quotation or figure, an empty answer,
        the bytes forgotten)."""
        if self.outcome == NOT_FOUND:
            return ExitCode.QUOTE_NOT_FOUND
        if self.outcome == FOUND:
            return ExitCode.OK
        code = batch_exit_code([p.page.exit_code() for p in self.pages])
        return code if code != ExitCode.OK else ExitCode.NOT_CHECKED

    def record_fields(self) -> dict[str, Any]:
        """The fields of the record a capture makes when it checks the answer itself."""
        return {"answer_sha256": self.answer_sha256, "answer_chars": self.answer_chars,
                "answer_check": self.check,
                "answer_without_page_text": self.answer_without_page_text}

    def to_json(self) -> dict[str, Any]:
        """``check URL --json``: the copy checked against and the check."""
        page = self.page
        return {"url": page.url, "record_id": page.record_id, "fetched_at": page.fetched_at,
                "verdict": page.verdict, "reason": page.reason, "answer_check": self.check}


def check_one(answer: str, prompt: str, copy: Copy, *, attributed: bool = False,
              deadline: Deadline | None = None) -> CheckedAnswer:
    """``answer`` against one copy. Every check of an answer against a page is made here.
    ``attributed``: only the sentences that name a source state figures and names of the
    page (a session's own message, which mixes pages' words with the agent's own work)."""
    from readreceipt.quotes import quotations

    why = (not_run_reason(copy.page.verdict, copy.page.reason, copy.page.wall,
                          copy.extraction_error)
           or ("answer_too_long" if len(answer) > MAX_ANSWER_BYTES else None))
    if why is None and copy.main_text is None and copy.page_text is None:
        why = "no_text" if copy.bytes_kept else "bytes_forgotten"
    overlap = _overlap(answer, copy)
    if why is None and overlap is not None and disagrees(overlap, copy.main_text or ""):
        why = "copy_differs"  # not the page the agent read: nothing to flag the agent for
    claims: list[dict[str, Any]] = []
    if why is not None:
        result = quotations.not_run(why)
    else:
        from readreceipt.quotes.claims import PageTexts, check_claims

        # One deadline for the quotations, the figures and the names alike.
        deadline = deadline or Deadline.after(quotations.CHECK_SECONDS)
        result = quotations.check_answer_text(answer, main_text=copy.main_text or "",
                                              page_text=copy.page_text or "", prompt=prompt,
                                              is_pdf=copy.is_pdf, deadline=deadline)
        texts = PageTexts(main=copy.main_text or "", page=copy.page_text or "",
                          more=copy.structured)
        claims = [c.to_dict() for c in check_claims(answer, texts, prompt=prompt,
                                                    attributed=attributed,
                                                    deadline=deadline)]
    status = copy.page.http_status
    awpt = status is not None and quotations.answer_without_page_text(
        answer, len(copy.page_text or ""), copy.page.content_type or "", status)
    check: dict[str, Any] = _with_claims(dict(result.to_dict()), claims)
    if overlap is not None and why in (None, "copy_differs"):
        check["overlap"] = overlap.to_dict()
    outcome, reason = str(check["outcome"]), check.get("reason")
    return CheckedAnswer(check, (PageOutcome(copy.page, outcome, reason, awpt),),
                         answer_digest(answer), len(answer),
                         tuple((p, copy.page) for p in check["passages"]),
                         tuple((c, copy.page) for c in claims))


def _with_claims(check: dict[str, Any], claims: list[dict[str, Any]]) -> dict[str, Any]:
    """The quotation check with the figures and names beside it, and its outcome from both:
    not_found when a passage or a claim is not on the page; found when all that was checked
    is (an approximate figure is found); not_run when there was nothing to check."""
    check["claims"] = claims
    if check["outcome"] == NOT_RUN and check.get("reason") != "no_quotation":
        return check  # the page could not answer: nothing was checked
    checked = [c for c in claims if c["outcome"] != NOT_RUN]
    if not check["passages"] and not checked:
        return check
    missing = any(not p.get("found") for p in check["passages"]) or any(
        c["outcome"] == NOT_FOUND for c in checked)
    check["outcome"], check["reason"] = (NOT_FOUND if missing else FOUND), None
    return check


def _overlap(answer: str, copy: Copy) -> Agreement | None:
    """How much of what the answer states the copy holds (reading/agreement.py), for a copy
    with text that was read; None otherwise."""
    if copy.main_text is None and copy.page_text is None:
        return None
    if copy.page.verdict != RETRIEVED and copy.page.reason not in ("thin_text", "copy_differs"):
        return None
    return agreement(answer, copy.main_text or "", copy.page_text or "")


def combine(checks: Sequence[CheckedAnswer]) -> CheckedAnswer:
    """One answer's checks against several pages (in the order the pages were given) made
    one: a passage is found when any page holds it, else it shows the nearest passage any
    page holds. One check is returned as it is."""
    if not checks:
        raise ValueError("no check to combine")
    if len(checks) == 1:
        return checks[0]
    pages = tuple(p for c in checks for p in c.pages)
    ran = [c for c in checks if c.outcome != NOT_RUN]
    head = checks[0]
    listed = [p.to_dict() for p in pages]
    if not ran:
        reasons = {c.check.get("reason") for c in checks}
        reason = reasons.pop() if len(reasons) == 1 else "no_page_checked"
        check = {"outcome": NOT_RUN, "reason": reason, "passages": [],
                 "skipped": head.check.get("skipped", []), "claims": [], "pages": listed}
        return CheckedAnswer(check, pages, head.answer_sha256, head.answer_chars)
    placed: list[tuple[dict[str, Any], Page]] = []
    # Every check that ran found the same passages, in the same order (one answer, one
    # prompt): they are lined up by position.
    for i, first in enumerate(ran[0].placed):
        candidates = [c.placed[i] for c in ran]
        found = next((pair for pair in candidates if pair[0].get("found")), None)
        if found is None:
            near = [pair for pair in candidates if pair[0].get("similarity") is not None]
            found = max(near, key=lambda pair: float(pair[0]["similarity"]), default=None)
        if found is None:  # no page holds anything close: named by none, flagged on the first
            placed.append(({**first[0], "url": None, "record_id": None}, first[1]))
            continue
        passage, page = found
        placed.append(({**passage, "url": page.url, "record_id": page.record_id}, page))
    claims = _combined_claims(ran)
    check = {"outcome": FOUND, "reason": None, "passages": [p for p, _ in placed],
             "skipped": ran[0].check.get("skipped", []), "pages": listed}
    check = _with_claims(check, [c for c, _ in claims])
    if not placed and not any(c["outcome"] != NOT_RUN for c, _ in claims):
        check["outcome"], check["reason"] = NOT_RUN, ran[0].check.get("reason")
    return CheckedAnswer(check, pages, head.answer_sha256, head.answer_chars, tuple(placed),
                         tuple(claims))


_RANK = {"found": 0, "approximate": 1, "not_found": 2, "not_run": 3}


def _combined_claims(ran: Sequence[CheckedAnswer]) -> list[tuple[dict[str, Any], Page]]:
    """Each figure and name at its best over the pages: found on the first page that holds
    it, else approximate, else not found with the first nearest figure any page gives. The
    checks list the same claims in the same order (they come from the answer alone)."""
    lined = [c.placed_claims for c in ran]
    if any(len(claims) != len(lined[0]) for claims in lined):
        lined = lined[:1]  # cannot be lined up: the first page's alone
    out: list[tuple[dict[str, Any], Page]] = []
    for i in range(len(lined[0])):
        candidates = [claims[i] for claims in lined]
        best = min(candidates, key=lambda pair: _RANK.get(str(pair[0]["outcome"]), 3))
        if best[0]["outcome"] == NOT_FOUND:
            best = next((pair for pair in candidates if pair[0].get("nearest")), best)
        claim, page = best
        out.append(({**claim, "url": page.url, "record_id": page.record_id}, page))
    return out


def check(answer: str, prompt: str, copies: Sequence[Copy], *, attributed: bool = False,
          deadline: Deadline | None = None) -> CheckedAnswer:
    """``answer`` checked against ``copies`` (one, or several it is attributed to), inside
    ``deadline`` (a capture's own; else each check's, quotations.CHECK_SECONDS)."""
    return combine([check_one(answer, prompt, copy, attributed=attributed, deadline=deadline)
                    for copy in copies])

