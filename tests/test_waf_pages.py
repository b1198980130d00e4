"""The web application firewalls' block pages taken from wafw00f (reading/tables/wafs.py).

Every entry is tried on a block page built around it (the vendor's marker in the markup, or
its sentence as the page's only paragraph) and on a long article carrying the same marker or
sentence: the first is a bot check named by the vendor's own evidence, the second stays a
page (the entries sit at the gate of a page that is the wall and nothing else).
"""

from __future__ import annotations

import re

import pytest

from judged import judged
from readreceipt.reading.tables.entries import Entry
from readreceipt.reading.tables.wafs import WAF_PAGES

#: What each regular-expression entry's vendor writes, in the page's own case.
EXAMPLES = {
    "Alibaba Cloud's block page (errors.aliyun)": "https://errors.aliyun.com/images/405.png",
    "KnownSec's block page image": "/ks_waf_error.png",
    "Tencent Cloud's block page (waf.tencent)": "https://waf.tencent-cloud.com/403page.html",
    "Yundun's error page": "https://www.yundun.com/yd_http_error/403.png",
    "suspicious activity detected, access to the site is blocked":
        "Suspicious activity detected. Access to the site is blocked.",
    "for security reasons it was blocked and logged":
        "Sorry, your request cannot be processed. For security reason, it was blocked and "
        "logged.",
    "broke one of the Wordfence blocking rules":
        "Your access to this site was blocked because you broke one of the Wordfence "
        "advanced blocking rules.",
    "the incident ID is": "This page can't be displayed. Contact support for additional "
                          "information. The incident ID is: 734001230401.",
    "protected by Imunify360": "This website is protected by Imunify360.",
    "violation category APPFW_": "Violation Category: APPFW_SQL",
    "a safety critical request was detected and blocked":
        "A safety critical request was discovered and blocked.",
    "URLScan's rejection": "/Rejected-By-UrlScan?~/admin",
}

_ARTICLE = " ".join(
    f"Paragraph {i} of the report on the city's new tram line, which opens next spring and "
    "links the station with the university campus in twelve minutes." for i in range(12))


def _said(entry: Entry) -> str:
    if entry.literal:
        return entry.expr
    return EXAMPLES[entry.name]


def _page(entry: Entry, article: bool) -> str:
    said = _said(entry)
    body = f"<article><h1>Tram line opens</h1><p>{_ARTICLE}</p></article>" if article else \
        "<h1>403</h1>"
    if entry.where == "markup":
        # A marker is the template's: an asset path, a class, a comment.
        body += f"<!-- {said} -->" if '"' in said else f'<img src="{said}" alt="">'
    else:
        body += f"<p>{said}</p>"
    return f"<html><head><title>403</title></head><body>{body}</body></html>"


def test_every_regex_entry_has_an_example_it_matches() -> None:
    for entry in WAF_PAGES:
        if not entry.literal:
            assert re.search(entry.expr, EXAMPLES[entry.name].lower()), entry.name


@pytest.mark.parametrize("entry", WAF_PAGES, ids=[e.name[:50] for e in WAF_PAGES])
def test_the_vendors_block_page_is_a_bot_check_and_an_article_naming_it_is_not(
        entry: Entry) -> None:
    got = judged(_page(entry, article=False))
    assert got is not None, entry.name
    reason, rule = got
    assert reason == f"wall:{entry.kind}", rule
    # Named by vendor evidence (this entry, or another vendor's entry for the same page; a
    # web filter's name in its sentence is the filter's own).
    assert rule.split(":", 1)[0] in ("vendor", "wording") if entry.kind == "interstitial" \
        else rule.startswith("vendor:"), rule
    assert judged(_page(entry, article=True)) is None, entry.name


def test_every_entry_names_its_vendor_and_plugin() -> None:
    for entry in WAF_PAGES:
        assert entry.vendor and entry.ev.startswith("wafw00f 2.4.2 plugins/"), entry.name
        bare = re.sub(r"\\.", "", entry.expr)  # an escape (\\W) is not a letter
        assert bare == bare.lower(), entry.name
        assert entry.gate == "block", entry.name


@pytest.mark.parametrize("label", ["Reference #", "Reference ID:", "Referenznummer:"])
def test_akamais_reference_id_names_the_vendor_however_it_is_labelled(label: str) -> None:
    page = ("<html><head><title>Example Shop</title></head><body><h1>One moment</h1><p>We could "
            f"not serve this request.</p><p>{label} 18.294c3917.1565639044.23a4966</p></body>"
            "</html>")
    got = judged(page)
    assert got is not None and got[0] == "wall:challenge", got
    assert got[1] == "vendor:Akamai's edge reference ID on a short page", got


def test_a_sites_error_page_with_akamais_reference_is_an_error_page() -> None:
    """Akamai stamps its reference on the error pages of the sites it fronts too (scrapy/
    protego's bank pages): the error page is named first."""
    page = ("<html><head><title>Internet Banking</title></head><body><h1>Sorry, an error has "
            "occurred [Error: 1007 ID: 18.1c4c3917.1563829620.38b0b75b]</h1><p>If this problem "
            "continues, please contact us quoting the above error and ID.</p></body></html>")
    got = judged(page)
    assert got is not None and got[0] == "wall:interstitial", got


def test_a_dotted_version_number_is_not_akamais_reference_id() -> None:
    page = ("<html><head><title>Release notes</title></head><body><h1>Build</h1><p>Build "
            "2.1.1565639044.7 of the tool.</p></body></html>")
    got = judged(page)
    assert got is None or "Akamai" not in got[1], got
