"""Verdicts in words a person acts on, shared by every adapter that talks to people.

Invariant: one sentence per verdict that says what was met, whether anything was retried,
and whether the page was read; no adapter words a verdict on its own.
"""

from __future__ import annotations

from readreceipt.store.records import Record

_WALL_WORDS = {
    "challenge": "a bot check",
    "login": "a sign-in page",
    "consent": "a consent page",
    "paywall": "a paywall",
    "interstitial": "an interstitial (waiting room, geo-block or maintenance page)",
}

_REASON_WORDS = {
    "js_shell": "a JavaScript shell with no content of its own",
    "soft_404": "a 'not found' page served as a success",
    "parked": "a parked domain",
    "copy_differs": "a copy unlike what the agent read (its answer's specifics are not on it)",
    "thin_text": "too little text to be the page",
    "truncated": "more bytes than the size cap; only the first part was kept",
    "text_prefix": "more than readreceipt reads text from; only the first part's text was read",
    "no_text_layer": "a PDF with no text layer",
    "pdf_too_costly": "a PDF too costly to read",
    "invalid_json": "JSON that does not parse",
    "binary": "binary content with no text",
    "empty_body": "an empty body",
    # No answer at all, or one arriving too slowly to finish: the deadline covers both.
    "timeout": "no complete answer within the deadline",
    "dns": "a name that does not resolve",
    "tls": "a TLS failure",
    "https_downgrade": "a redirect from https to plain http, not followed",
    "too_many_redirects": "too many redirects",
}


def describe(record: Record) -> str:
    """One sentence: the verdict and what it means for the reader."""
    verdict = record.verdict
    if verdict == "RETRIEVED":
        kind = record.content_type or "content"
        js = " after running its JavaScript" if record.javascript_executed else ""
        return f"RETRIEVED: the page was read{js} ({record.text_chars} characters of {kind} text)."
    met = _met(record)
    if verdict == "FAILED":
        return f"FAILED: {met}; nothing was retried; there is no read of this page."
    return f"UNKNOWN: the server answered with {met}; nothing was retried; the page was not read."


def _met(record: Record) -> str:
    reason = record.reason
    if record.wall:
        # The fingerprint's detail names the wall and its vendor ("a bot check (Cloudflare)").
        met = record.detail if record.detail and not reason.startswith("http_") else \
            _WALL_WORDS.get(record.wall, f"a {record.wall} wall")
        return f"HTTP {reason[5:]} and {met}" if reason.startswith("http_") else met
    if reason.startswith("http_"):
        return f"the server answered HTTP {reason[5:]}"
    if reason == "timeout" and record.detail:  # how long, and what was still being read
        return record.detail
    if reason in _REASON_WORDS:
        return _REASON_WORDS[reason]
    return record.detail or reason.replace("_", " ")


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless there is one: "1 URL", "2 URLs",
    "1 entry", "3 entries" (``plural`` where adding -s or -ies is wrong)."""
    if count == 1:
        return f"{count} {word}"
    if plural is None:
        vowel_y = word.endswith("y") and word[-2:-1] in ("a", "e", "i", "o", "u")
        plural = word[:-1] + "ies" if word.endswith("y") and not vowel_y else word + "s"
    return f"{count} {plural}"
