"""Block templates by their shape (reading/blocktemplate.py), Cloudflare custom pages'
challenge tokens (tables/vendors.py), and a captcha on a sale page's offer form
(fingerprint.py): the pages that carry them, the clean pages that share a part of the shape,
and the patterns' linearity on hostile text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import regexsteps
from judged import judged
from readreceipt.reading.blocktemplate import block_shape
from readreceipt.reading.tables.vendors import (
    BLOCK_TEMPLATE_MAX_LINKS,
    BLOCK_TEMPLATE_MAX_PAGE_LETTERS,
    CLIENT_ADDRESS,
    REQUEST_ID,
)

PAGES = Path(__file__).parent / "pages"


def _page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [
    "challenge/cdn_block_template_ip_reference_pt.html",
    "challenge/waf_block_template_placeholders_ru.html",
])
def test_a_short_refusal_with_address_and_reference_is_a_bot_check(name: str) -> None:
    got = judged(_page(name))
    assert got is not None
    assert got[0] == "wall:challenge"
    assert got[1].startswith("structure:a block template")


@pytest.mark.parametrize("name", [
    "hard_negative/short_ip_lookup_tool_page.html",
    "hard_negative/release_note_address_and_commit.html",
])
def test_pages_showing_an_address_and_a_token_inside_a_site_stay_clean(name: str) -> None:
    assert judged(_page(name)) is None


_TEXT = "access blocked\nyour address: 203.0.113.47\nreference: 7c1f9a04be2d63e8\n"


def test_each_part_of_the_shape_is_needed() -> None:
    assert block_shape(_TEXT, 40, 0) == block_shape(_TEXT, 40, BLOCK_TEMPLATE_MAX_LINKS)
    assert block_shape(_TEXT, 40, 0) is not None
    assert block_shape(_TEXT.replace("203.0.113.47", "the office"), 40, 0) is None
    assert block_shape(_TEXT.replace("7c1f9a04be2d63e8", "see below"), 40, 0) is None
    # A site's page: its menus' links, or text of its own.
    assert block_shape(_TEXT, 40, BLOCK_TEMPLATE_MAX_LINKS + 1) is None
    assert block_shape(_TEXT, BLOCK_TEMPLATE_MAX_PAGE_LETTERS + 1, 0) is None


@pytest.mark.parametrize(("text", "found"), [
    ("ip 999.1.1.1 ref 7c1f9a04be2d63e8", False),  # not an address
    ("ip 10.0.0.1 ref 7c1f9a04be2d63e8", True),
    ("ip 2001:db8:85a3:0:0:8a2e:370:7334 ref 7c1f9a04be2d63e8", True),
    ("ip ::client_ip:: ray ::ray_id::", True),
    ("ip {{ .clientip }} id {{ .requestid }}", True),
    ("ip ${ip} id ${incident_id}", True),
    # Only letters or only digits, or too short, is not a request's token.
    ("ip 10.0.0.1 ref deadbeefcafebabe", False),
    ("ip 10.0.0.1 ref 1234567", False),
    ("ip 10.0.0.1 support id 1234567890123456789", True),
    # An IPv6 address is not its own reference.
    ("ip 2001:db8:85a3:0:0:8a2e:370:7334", False),
])
def test_what_counts_as_an_address_and_a_reference(text: str, found: bool) -> None:
    assert (block_shape(text, 20, 0) is not None) is found


def test_cloudflares_custom_page_tokens_name_the_challenge() -> None:
    for token in ("::CAPTCHA_BOX::", "::IM_UNDER_ATTACK_BOX::"):
        page = (f"<html><head><title>Один момент</title></head><body><h1>Проверка</h1>"
                f"<p>Подождите.</p><div>{token}</div></body></html>")
        got = judged(page)
        assert got is not None
        assert got[0] == "wall:challenge"
        assert "Cloudflare's custom" in got[1]


def test_the_error_boxes_alone_do_not() -> None:
    # The template projects put both error boxes on every page, their demo home among them.
    page = ("<html><body><h1>Custom pages for Cloudflare</h1><p>" + "A light set of pages "
            "for the errors a site behind the CDN may show. " * 20 + "</p><none>"
            "::CLOUDFLARE_ERROR_1000S_BOX:: ::CLOUDFLARE_ERROR_500S_BOX::</none></body></html>")
    assert judged(page) is None


def test_a_captcha_on_a_sale_pages_offer_form_leaves_it_a_sale_page() -> None:
    page = _page("parked/sale_page_offer_form_recaptcha_nl.html")
    got = judged(page)
    assert got is not None
    assert got[0] == "parked"
    # Without the offer form the captcha is all the page is about.
    bare = re.sub(r"<form.*</form>", "<div class='g-recaptcha' data-sitekey='k'></div>", page,
                  flags=re.S).replace("Doe een bod, wij reageren binnen twee werkdagen.", "")
    got = judged(bare)
    assert got is not None
    assert got[0] != "parked"


@pytest.mark.parametrize("expr", [CLIENT_ADDRESS, REQUEST_ID])
def test_the_shape_patterns_are_linear(expr: str) -> None:
    pattern = re.compile(expr)
    for text in ("1.2.3." * 500, "a1" * 1500, "1a:" * 1000, "::" + "a_" * 1500,
                 "{{ " + "x" * 3000, "9" * 3000, "f0" * 19 + "-" + "f0" * 1500):
        assert regexsteps.steps(pattern, text) < 200 * len(text)


@pytest.mark.parametrize(("page", "vendor"), [
    ("<html><head><title>You've been blocked</title></head><body><main><p>Désolé, vous ne "
     "pouvez pas accéder à cette page.</p><p>Security Response ID: 5f2c9e1a-77b0-4c1e</p>"
     "</main><footer><p>Security provided by <a href='https://www.datadoghq.com/'>Datadog</a>"
     "</p></footer></body></html>", "Datadog"),
    ("<html><body><h1>Your access to this site has been limited</h1><p>" + "The site's "
     "firewall limited your access; if you run this site, the options page lets you lift "
     "the rule that did it. " * 9 + "</p><p>This response was generated by Wordfence.</p>"
     "</body></html>", "Wordfence"),
])
def test_in_app_firewalls_block_pages_by_their_signature_line(page: str, vendor: str) -> None:
    got = judged(page)
    assert got is not None
    assert got[0] == "wall:challenge"
    assert vendor in got[1]


def test_a_long_post_quoting_the_signature_line_stays_clean() -> None:
    post = ("<html><body><article><h1>Why my own site locked me out</h1><p>" + "I tuned the "
            "firewall rules for an hour and learnt how the plugin decides who is a crawler. "
            * 30 + "</p><p>The page said: this response was generated by Wordfence.</p>"
            "</article></body></html>")
    assert judged(post) is None
