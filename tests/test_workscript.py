"""Bot checks by their script (reading/workscript.py), the self-hosted gates' fixed markup
(tables/walls.py: go-away, BunkerWeb, CrowdSec) and captcha widgets written as custom elements
(captcha.py with tables/vendors.py CAPTCHA_WIDGET_TAGS), with the hard negatives that must
stay clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import regexsteps
from judged import judged
from readreceipt.reading.placement import tree
from readreceipt.reading.tables.walls import WALLS_AFTER_SIGN_IN, WALLS_BEFORE_SIGN_IN
from readreceipt.reading.workscript import (
    MAX_MAIN_LETTERS,
    MAX_SCRIPT_CHARS,
    _inline_scripts,
    hidden_form_submitted,
    proof_of_work,
)
from work import grows_linearly

PAGES = Path(__file__).parent / "pages"


def _page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


_GATE = ("<html><body><h1>Moment</h1><script>let n=0;while (true) {{ if ({hash}(s+n)) break; "
         "n++ }} {back}</script></body></html>")


@pytest.mark.parametrize(("name", "rule"), [
    ("challenge/pow_script_webcrypto_cookie_de.html", "structure:a proof-of-work script"),
    ("challenge/pow_script_bundled_sha256_form_ja.html", "structure:a proof-of-work script"),
    ("challenge/cap_widget_form_es.html", "structure:a captcha form, the page's main thing"),
    ("challenge/go_away_gate_fr.html", "vendor:marker git.gammaspectra.live/git/go-away"),
    ("challenge/crowdsec_ban_nl.html", "vendor:marker CrowdSec's remediation page"),
    ("challenge/bunkerweb_antibot_pl.html", "vendor:marker utm_source=bwantibot"),
    ("challenge/hidden_form_arithmetic_check_pt.html",
     "structure:a form of hidden fields the page's script submits"),
])
def test_the_gates_are_named_bot_checks(name: str, rule: str) -> None:
    got = judged(_page(name))
    assert got is not None
    assert got[0] == "wall:challenge"
    assert got[1].startswith(rule)


@pytest.mark.parametrize("name", [
    "hard_negative/altcha_widget_contact_form_article.html",
    "hard_negative/pow_library_docs_with_demo.html",
    "hard_negative/short_download_page_checksum_script.html",
    "hard_negative/short_comment_form_external_pow_solver.html",
    "hard_negative/article_links_bot_gate_projects.html",
    "hard_negative/short_page_hidden_search_form_script.html",
])
def test_pages_that_carry_the_parts_stay_clean(name: str) -> None:
    assert judged(_page(name)) is None


def test_each_part_of_the_script_is_needed() -> None:
    whole = _GATE.format(hash="crypto.subtle.digest", back='document.cookie="a=1";')
    assert proof_of_work(whole.lower(), 10) is not None
    assert proof_of_work(whole.replace("crypto.subtle.digest", "check").lower(), 10) is None
    assert proof_of_work(whole.replace("while (true)", "for (;n<9;)").lower(), 10) is None
    assert proof_of_work(whole.replace('document.cookie="a=1";', "").lower(), 10) is None
    # A page with text of its own is not a gate, whatever its script.
    assert proof_of_work(whole.lower(), MAX_MAIN_LETTERS + 1) is None


def test_the_bounded_loop_is_what_keeps_the_download_page_clean() -> None:
    page = _page("hard_negative/short_download_page_checksum_script.html")
    unbounded = page.replace("for (let i = 0; i < parts.length; i++)", "for (let i = 0; ; i++)")
    assert unbounded != page
    got = judged(unbounded)
    assert got is not None
    assert got[1].startswith("structure:a proof-of-work script")


def test_external_and_bundle_sized_scripts_are_not_the_pages_own() -> None:
    body = 'while(true){crypto.subtle.digest(x)} location.replace("/")'
    assert proof_of_work(f"<script src='/s.js'>{body}</script>", 0) is None
    padded = body + " " * MAX_SCRIPT_CHARS
    assert proof_of_work(f"<script>{padded}</script>", 0) is None
    assert proof_of_work(f"<script>{body}</script>", 0) is not None


def test_the_script_scan_is_linear() -> None:
    grows_linearly(lambda n: "<script>" * n, _inline_scripts, 2000)
    grows_linearly(lambda n: "<script src=x>" + "</script><script>a" * n, _inline_scripts, 2000)


def test_the_widget_tag_counts_only_inside_the_pages_main_form() -> None:
    bare = ("<html><body><cap-widget data-cap-api-endpoint='/api/'></cap-widget>"
            "<button>Trigger</button></body></html>")
    got = judged(bare)
    assert got is None or got[0] != "wall:challenge"


def _crowdsec() -> re.Pattern[str]:
    for e in WALLS_BEFORE_SIGN_IN + WALLS_AFTER_SIGN_IN:
        if e.name == "CrowdSec's remediation page":
            return re.compile(e.expr)
    raise AssertionError("no CrowdSec entry")


def test_the_crowdsec_pattern_is_linear() -> None:
    pattern = _crowdsec()
    for text in ("security check has been powered by" + " " * 80 + "</p>" + " " * 79) * 200, \
            "powered by </p> " * 2000:
        assert regexsteps.steps(pattern, text) < 20 * len(text)


_RELAY = ("<html><body onload='document.forms[0].submit()'><form method='post' "
          "action='https://sp.example.org/SAML2/POST'><input type='hidden' name='SAMLResponse' "
          "value='PHNhbWxw'>{fallback}</form><script>document.forms[0].submit();</script>"
          "</body></html>")


def test_a_sign_in_relays_fallback_button_keeps_it_from_being_a_check() -> None:
    """A SAML or OAuth form post relays what the visitor has, with a Continue button for
    browsers without scripts; the page tree leaves noscript out, so the form's markup is
    read for it."""
    relay = _RELAY.format(fallback="<noscript><input type='submit' value='Continue'></noscript>")
    assert not hidden_form_submitted(tree(relay), relay.lower(), 0)
    bare = _RELAY.format(fallback="")
    assert hidden_form_submitted(tree(bare), bare.lower(), 0)


def test_the_hidden_form_needs_its_script_a_single_form_and_a_short_page() -> None:
    page = _page("challenge/hidden_form_arithmetic_check_pt.html")
    assert hidden_form_submitted(tree(page), page.lower(), 40)
    assert not hidden_form_submitted(tree(page), page.lower(), MAX_MAIN_LETTERS + 1)
    unsent = page.replace('document.getElementById("chk").submit();', "")
    assert not hidden_form_submitted(tree(unsent), unsent.lower(), 40)
    two = page.replace("</div>", "<form action='/s'><input type='hidden' name='x'></form></div>")
    assert not hidden_form_submitted(tree(two), two.lower(), 40)
