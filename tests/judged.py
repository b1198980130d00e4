"""An HTML page judged by the content verdict directly (extract + judge_content), without a
server: what the table tests (test_waf_pages, test_barenotice) ask of a page they build."""

from __future__ import annotations

from readreceipt.reading.extract import extract
from readreceipt.reading.facts import PageView
from readreceipt.reading.fingerprint import judge_content


def judged(html: str) -> tuple[str, str] | None:
    """(reason, rule) of the content signal for ``html`` served as text/html, or None."""
    ex = extract(html.encode(), "text/html", None)
    view = PageView("http://a.test/x", "http://a.test/x", 200, {}, "text/html", ex.html,
                    ex.main_text, ex.page_text, len(html))
    signal = judge_content(view)
    return None if signal is None else (signal.reason, signal.rule)
