"""A body hidden by its own style (issue 21, ninth round): a page hides its whole body until its
script has run, then shows it, so what the body holds is what the page shows (placement.py);
its hidden parts stay hidden. A sign-in page built so is a wall; an article built so, with a
log-in form in its header, stays an article."""

from __future__ import annotations

from pathlib import Path

from judged import judged
from readreceipt.reading.placement import tree

PAGES = Path(__file__).parent / "pages"


def test_a_hidden_body_is_not_hidden_chrome_but_its_hidden_parts_are() -> None:
    page = tree("<html><body style='display:none'><p>Shown once the script ran, at last</p>"
                "<div style='display:none'><p>A panel a click opens, never shown</p></div>"
                "</body></html>")
    assert page is not None
    kinds = [(e.tag, kind) for e, kind in zip(page.elements, page.kinds, strict=True)]
    assert kinds[:2] == [("body", "content"), ("p", "content")]
    assert kinds[2:] == [("div", "hidden"), ("p", "hidden")]  # the panel


def test_a_sign_in_page_whose_body_waits_for_its_script_is_a_wall() -> None:
    html = (PAGES / "login" / "en_sign_in_page_body_hidden_until_script.html").read_text()
    got = judged(html)
    assert got is not None and got[0] == "wall:login"
    assert got[1].startswith("structure:")


def test_an_article_whose_body_waits_for_its_script_stays_an_article() -> None:
    html = (PAGES / "hard_negative" /
            "article_body_hidden_until_script_header_login.html").read_text()
    assert judged(html) is None
    # And the same article shown from the start.
    assert judged(html.replace('<body style="display:none">', "<body>")) is None
