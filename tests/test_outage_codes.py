"""Server errors' status codes in a page's own heading (tables/outages.py's first entry).

The code names an error page when it fills the heading or a title segment, stands beside its
reason phrase, or follows "error"/"HTTP", for every 5xx code servers and CDNs write over
their error templates; a number inside a heading's words (an address, a model, a ranking)
names nothing, nor a code the table leaves out because it names things more often.
"""

from __future__ import annotations

import pytest

from judged import judged
from readreceipt.reading.tables.noticewords import NOTICE_WORDS


def _page(title: str, heading: str, text: str) -> str:
    links = " ".join(f"<a href='/s{i}'>Seite {i}</a>" for i in range(5))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><header>{links}</header><main><h1>{heading}</h1><p>{text}</p></main>"
            "</body></html>")


_TEXT = "Der Betreiber wurde benachrichtigt und kümmert sich darum."


@pytest.mark.parametrize("heading", ["501", "Error 521", "520 | Origin Error",
                                     "505 - HTTP Version Not Supported", "HTTP 530"])
def test_a_5xx_code_filling_the_heading_names_an_error_page(heading: str) -> None:
    got = judged(_page("Site", heading, _TEXT))
    assert got is not None and got[0] == "wall:interstitial", got
    assert got[1].startswith("structure:heading a server error's status code")


@pytest.mark.parametrize("heading", ["520 Park Avenue", "Peugeot 508", "Top 500 companies",
                                     "510", "Ferrari 512 | review"])
def test_a_number_among_a_headings_words_or_a_code_left_out_names_nothing(heading: str) -> None:
    got = judged(_page(heading, heading, _TEXT))
    assert got is None or not got[1].startswith("structure:heading a server error's"), got


def test_the_frameworks_service_unavailable_names_a_bare_page_in_unspaced_scripts() -> None:
    words = {w for _, w, _ in NOTICE_WORDS["unavailable"]}
    assert {"サービスは利用できません", "服务不可用"} <= words
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>現在、サービスは利用できません"
            "</title></head><body><h1>現在、サービスは利用できません</h1>"
            "<p>しばらく時間をおいてもう一度お試しください。</p></body></html>")
    got = judged(page)
    assert got is not None and got[0] == "wall:interstitial"
    assert "サービスは利用できません" in got[1]
