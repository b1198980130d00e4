"""A short page that sends the reader on (reading/barenotice.py's ``check_sent_on``).

A meta refresh outside ``<noscript>``, or a script's timer that sets the location, on a page
that holds next to nothing: an interstitial by structure, in any language. Beside each, the
page each guard keeps clean: the same refresh inside ``<noscript>``, on a long page, on a
page typed as an article; and the patterns' work stays linear on hostile markup.
"""

from __future__ import annotations

import pytest

import regexsteps
from judged import judged
from readreceipt.reading.barenotice import _DELAY, _META, _REFRESH, _TIMED


def _page(head: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Portal</title>{head}"
            f"</head><body>{body}</body></html>")


_SHORT = "<p>Einen Moment bitte.</p>"
_LONG = "".join(f"<p>Absatz {i}: " + "Der Gemeinderat hat am Montag beraten. " * 6 + "</p>"
                for i in range(8))


@pytest.mark.parametrize("tag", [
    '<meta http-equiv="refresh" content="3; url=https://example.org/next">',
    "<meta content='0;URL=/next' http-equiv='Refresh'>",  # the attributes the other way
    '<meta http-equiv=refresh content=10>',  # reloads itself, no address
])
def test_a_short_page_that_refreshes_is_an_interstitial_by_structure(tag: str) -> None:
    got = judged(_page(tag, _SHORT))
    assert got is not None and got[0] == "wall:interstitial"
    assert got[1].startswith("structure:a meta refresh after ")


def test_a_refresh_inside_noscript_is_a_fallback_not_the_page() -> None:
    tag = '<noscript><meta http-equiv="refresh" content="0; url=/nojs"></noscript>'
    got = judged(_page(tag, _SHORT))
    assert got is None or "meta refresh" not in got[1]


def test_a_long_page_that_refreshes_itself_is_its_content() -> None:
    # A news page reloads itself every five minutes: its text is the read.
    assert judged(_page('<meta http-equiv="refresh" content="300">', _LONG)) is None


def test_a_short_article_typed_so_is_not_sent_on() -> None:
    typed = ('<meta property="og:type" content="article">'
             '<meta http-equiv="refresh" content="30">')
    got = judged(_page(typed, _SHORT))
    assert got is None or "meta refresh" not in got[1]


def test_a_timer_setting_the_location_sends_the_reader_on() -> None:
    script = ("<script>var n = 5; var t = setInterval(function () { n -= 1; "
              "if (n <= 0) { clearInterval(t); window.location.href = '/neu'; } }, 1000);"
              "</script>")
    got = judged(_page(script, _SHORT))
    assert got is not None and got[0] == "wall:interstitial"
    assert got[1].startswith("structure:a script's timer setting the location")


def test_a_timer_that_does_not_touch_the_location_is_no_redirect() -> None:
    script = "<script>setTimeout(function () { document.body.className = 'ready'; }, 500);</script>"
    got = judged(_page(script, _SHORT))
    assert got is None or "timer" not in got[1]


@pytest.mark.parametrize(("pattern", "text"), [
    (_META, "<meta " * 400),
    (_META, "<meta http-equiv=refresh " + "x" * 3000),
    (_REFRESH, "http-equiv=" * 300),
    (_DELAY, "content=" * 300),
    (_TIMED, "settimeout(" * 300),
    (_TIMED, "setinterval(" + "a" * 3000),
])
def test_the_patterns_stay_linear(pattern: object, text: str) -> None:
    assert regexsteps.steps(pattern, text) < 400 * len(text)  # type: ignore[arg-type]


def test_a_moved_posts_refresh_names_it_by_structure_not_by_its_addresss_words() -> None:
    # The new address's slug begins "blocking-": the page is sent on, not a block page.
    got = judged(_page('<meta http-equiv="refresh" content="5; url=/blog/blocking-out-time/">',
                       "<h1>This post has moved</h1><p>It now lives on the new blog.</p>"))
    assert got is not None and got[1].startswith("structure:a meta refresh after 5 s")
