"""RETRIEVED / FAILED / UNKNOWN: was this capture a real read of the page?

Three layers, the strictest wins:

1. transport: the HTTP status, an https->http downgrade, an empty body (the only layer that
   may say FAILED);
2. extraction: truncated bytes, texts read from the body's beginning only, no text layer,
   invalid JSON, a binary body;
3. content fingerprint (:mod:`readreceipt.reading.fingerprint`): walls, JavaScript shells,
   soft 404s, parked domains, thin text. Fingerprints may only pull a verdict down to UNKNOWN.

Invariant: every verdict names its ``reason`` code and the ``rule`` that fired, and a
``detail`` a person can act on. Judging spends the capture's deadline like the network does
(``deadline``): when it passes before the content checks are done the verdict is UNKNOWN,
``timeout`` (:func:`over_deadline`), never a guess from the checks that ran.
"""

from __future__ import annotations

from dataclasses import dataclass

from readreceipt.errors import ExitCode
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.transport import FetchResult
from readreceipt.reading.agreement import Agreement, disagrees
from readreceipt.reading.extract import Extraction
from readreceipt.reading.facts import BLOCK_MAX_MAIN_LETTERS, letters
from readreceipt.reading.fingerprint import (
    ContentSignal,
    PageView,
    judge_content,
    name_served_everywhere,
    soft_404_suspicion,
)
from readreceipt.reading.notfound import home_address
from readreceipt.reading.soft404 import Comparison

RETRIEVED = "RETRIEVED"
FAILED = "FAILED"
UNKNOWN = "UNKNOWN"

#: Among UNKNOWN reasons, the more specific (and more actionable) wins.
_UNKNOWN_RANK = ("timeout", "wall:", "js_shell", "soft_404", "parked", "copy_differs",
                 "truncated", "text_prefix", "pdf_too_costly", "no_text_layer",
                 "invalid_json", "binary",
                 "thin_text")


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reason: str
    wall: str | None = None
    rule: str | None = None
    detail: str = ""


def failed(reason: str, detail: str, rule: str | None = None) -> Verdict:
    return Verdict(FAILED, reason, None, rule or f"transport:{reason}", detail)


def judge(fetched: FetchResult, extraction: Extraction,
          deadline: Deadline | None = None) -> Verdict:
    """The verdict on one response and what was extracted from it; FetchTimeout when
    ``deadline`` passes first."""
    content = _content_signal(fetched, extraction, deadline)
    transport = _transport(fetched)
    if transport is not None:
        if content is not None and content.wall:
            return Verdict(FAILED, transport.reason, content.wall,
                           f"{transport.rule}; {content.rule}",
                           f"{transport.detail}; the page is {content.detail}")
        return transport
    candidates: list[Verdict] = []
    if content is not None:
        candidates.append(Verdict(UNKNOWN, content.reason, content.wall, content.rule,
                                  content.detail))
    extraction_verdict = _extraction(fetched, extraction)
    if extraction_verdict is not None:
        candidates.append(extraction_verdict)
    if not candidates:
        return Verdict(RETRIEVED, "ok", None, "ok", "the page was read")
    return min(candidates, key=lambda v: _rank(v.reason))


def probe_wanted(fetched: FetchResult, extraction: Extraction, verdict: Verdict) -> str | None:
    """Why a soft-404 probe should be asked about this page, or None (reading/soft404.py).

    Only a page read (or read thinly) is a candidate: a wall, a shell or a failure is
    already not the page."""
    if verdict.verdict != RETRIEVED and verdict.reason != "thin_text":
        return None
    if extraction.kind != "html" or not fetched.body:
        return None
    suspicion = soft_404_suspicion(_view(fetched, extraction))
    if suspicion is None and not home_address(fetched.url) and \
            (n := letters(extraction.main_text)) <= BLOCK_MAX_MAIN_LETTERS:
        # A short page may be a wall or an interstitial the host serves for every address
        # (a sign-in page, a bot check, a maintenance page in words no table has): the same
        # comparison tells (after_probe).
        suspicion = f"{SHORT_SUSPICION} ({n} letters)"
    return suspicion


#: The suspicion of a page that is only short (its own content must then be in the answer).
SHORT_SUSPICION = "its main text is short"

#: What the verdict says a page the host serves for every address is, by kind of wall.
_EVERYWHERE = {
    "soft_404": "a 'not found' page served as success",
    "login": "a sign-in page the host serves for every address",
    "challenge": "a bot check the host serves for every address",
    "consent": "a consent page the host serves for every address",
    "interstitial": "an interstitial page the host serves for every address",
    "paywall": "a paywall the host serves for every address",
}


def after_probe(verdict: Verdict, comparison: Comparison, suspicion: str,
                fetched: FetchResult | None = None,
                extraction: Extraction | None = None) -> Verdict:
    """The verdict once the host's answer for a missing path is known: a page near-identical
    to it is not the page asked for, and is named by what its own evidence matches, wherever
    it sits (a sign-in form, a vendor's marker, a maintenance heading); a not-found page when
    nothing else names it."""
    if comparison.outcome != "soft_404":
        return verdict
    reason, wall, matched = "soft_404", None, "nothing else"
    if fetched is not None and extraction is not None:
        reason, wall, matched = name_served_everywhere(_view(fetched, extraction))
    rule = (f"comparison:near-identical to the answer for a missing path (resemblance "
            f"{comparison.resemblance:.2f})")
    if wall is not None:
        rule = f"{rule}; named by {matched}"
    return Verdict(UNKNOWN, reason, wall, rule,
                   f"{_EVERYWHERE[wall or 'soft_404']}: {comparison.why}; suspected because "
                   f"{suspicion}")


def after_answer(verdict: Verdict, agreed: Agreement, main_text: str) -> Verdict:
    """The verdict once the agent's own answer is known (reading/agreement.py): a copy read
    (or read thinly) that is short and holds none of what an answer rich in specifics states
    is not the page the agent read. Never a judgement of the answer."""
    if verdict.verdict != RETRIEVED and verdict.reason != "thin_text":
        return verdict
    if not disagrees(agreed, main_text):
        return verdict
    return Verdict(UNKNOWN, "copy_differs", None,
                   f"answer:{agreed.found} of the answer's {agreed.specifics} specifics "
                   "(numbers, names, distinctive words) are on this short copy",
                   "the copy is not what the agent read: its answer states "
                   f"{agreed.specifics} numbers, names and words, {agreed.found} of them on "
                   "this short copy (a sign-in page, a check or another page may stand in "
                   "the page's place); the answer was not checked against it")


def _rank(reason: str) -> int:
    for position, prefix in enumerate(_UNKNOWN_RANK):
        if reason.startswith(prefix):
            return position
    return len(_UNKNOWN_RANK)


def _transport(fetched: FetchResult) -> Verdict | None:
    if fetched.downgraded:
        return failed("https_downgrade",
                      "the server redirected from https to plain http; not followed")
    status = fetched.status
    if status >= 400:
        return failed(f"http_{status}", f"the server answered {status} {fetched.reason_phrase}"
                      .rstrip())
    if not 200 <= status < 300:
        return failed(f"http_{status}", f"the server answered {status}, not a page")
    if not fetched.body and not fetched.truncated:
        return failed("empty_body", "the server answered with an empty body")
    return None


def _extraction(fetched: FetchResult, extraction: Extraction) -> Verdict | None:
    if fetched.truncated:
        return Verdict(UNKNOWN, "truncated", None, "extraction:size_cap",
                       "the body was larger than the size cap; only its first part was kept")
    if extraction.from_prefix:
        return Verdict(UNKNOWN, "text_prefix", None, "extraction:text_limit",
                       "the body is larger than readreceipt reads text from; its text was "
                       "taken from the first part only, so the page was not read whole")
    if extraction.error == "pdf_too_costly":
        return Verdict(UNKNOWN, "pdf_too_costly", None, "extraction:pdf_too_costly",
                       "the PDF's text could not be read within the memory and time a PDF "
                       "is given (pdfium builds every object of a page); nothing was read")
    if extraction.error in ("pdf_no_text", "pdf_unreadable"):
        return Verdict(UNKNOWN, "no_text_layer", None, f"extraction:{extraction.error}",
                       "the PDF holds no text layer (a scan?); nothing could be read")
    if extraction.error == "invalid_json":
        return Verdict(UNKNOWN, "invalid_json", None, "extraction:invalid_json",
                       "the body was served as JSON but does not parse")
    if extraction.error == "binary":
        return Verdict(UNKNOWN, "binary", None, "extraction:binary",
                       "the body is binary; no text to read")
    return None


def over_deadline(deadline: Deadline) -> Verdict:
    """The verdict on a page that arrived but was not read and judged within the deadline."""
    return Verdict(UNKNOWN, "timeout", None, "deadline:reading and judging",
                   f"the page arrived, but reading and judging it did not end within the "
                   f"capture's {deadline.seconds:g} s deadline; its bytes are kept")


def _content_signal(fetched: FetchResult, extraction: Extraction,
                    deadline: Deadline | None) -> ContentSignal | None:
    if extraction.kind not in ("html", "text") or not fetched.body:
        return None
    return judge_content(_view(fetched, extraction), deadline)


def _view(fetched: FetchResult, extraction: Extraction) -> PageView:
    return PageView(
        url=fetched.url,
        final_url=fetched.final_url,
        status=fetched.status,
        headers=dict(fetched.headers),
        content_type=fetched.content_type,
        html=extraction.html,
        main_text=extraction.main_text,
        page_text=extraction.page_text,
        body_bytes=len(fetched.body),
        tree=extraction.page_tree,
        via=tuple(hop.url for hop in fetched.redirect_chain[1:]),
    )


def exit_code_for(verdict: str, reason: str) -> int:
    """The exit code of a capture with this verdict (the table is :class:`ExitCode`)."""
    if verdict == RETRIEVED:
        return ExitCode.OK
    if reason == "timeout":  # FAILED in the network; UNKNOWN in reading and judging
        return ExitCode.TIMEOUT
    if verdict == FAILED:
        if reason.startswith("http_") or reason == "too_many_redirects":
            return ExitCode.HTTP_ERROR
        if reason == "empty_body":
            return ExitCode.NO_TEXT
        return ExitCode.NETWORK
    if reason in ("truncated", "text_prefix"):
        return ExitCode.TOO_LARGE
    if reason in ("no_text_layer", "pdf_too_costly", "binary", "invalid_json"):
        return ExitCode.NO_TEXT
    return ExitCode.NOT_THE_PAGE
