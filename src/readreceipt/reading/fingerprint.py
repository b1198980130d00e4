"""Content fingerprints: is what arrived the page, or something standing in front of it?

``judge_content(page)`` looks only at what came back (headers, HTML, extracted texts) and
returns ``None`` when the content looks like the page, or one ``ContentSignal`` naming what
it is instead: a wall (bot check, sign-in, consent, paywall, interstitial), a JavaScript
shell, a soft 404, a parked domain or thin text. The caller (``verdict.py``) turns a signal
into UNKNOWN; nothing here can make a verdict FAILED.

The parts: ``facts.py`` (what the checks ask of a page, and the gates), ``evidence.py``
(which table entry a page carries and whether its place lets it count), the tables
(``tables/``: ``walls.py`` with ``access.py`` and ``vendors.py``, ``notfound.py``),
``signin.py`` (sign-in forms by structure), ``consent.py`` (a consent platform's dialog that
is the page's main thing), ``agegate.py`` (age gates by structure), ``shells.py`` (shell
signs) and ``publisher.py`` (the publisher's own word). This module holds the order of the
checks, the wall check, and the thin-text check.

Invariants:
- A wall is *named*: an entry of a table fired, and the signal says which (``rule``) and
  where on the page (``evidence.py``).
- Every entry needs the page's main content to be short (``GATES``): an article that talks
  about captchas, or loads a vendor's script, has too much text of its own to be a wall.
  The one exception is a wall phrase at the very end of the main content (``TAIL_CHARS``),
  which is an article cut off by its wall.
- Strictness when several fire: wall > parked (a parking lander is often a shell of its own:
  its parking service's markup names it) > a redirect to a step that carries the address
  asked for back (redirects.py: a sign-in, consent or error step reached that way, named by
  the page's own evidence or its address, whatever the page's length) > js_shell > soft_404
  > error page (an interstitial wall, errorpages.py: a page that says it is missing is named
  so first) > bare notice (an interstitial named by its word on a page that is nothing else,
  barenotice.py) > a notice in the site's chrome (its word heading the short content the
  site's header, menus and footer stand around, barenotice.py) > a CDN's edge reference (a
  bot check, only where nothing else named the page: the CDN stamps the sites' own error
  pages too) > a short page that sends the reader on (a refresh or a timed redirect,
  barenotice.py) > thin_text. A hosting company's page in place of the site (hostpage.py:
  its links all go to the host) comes after the error page and before the bare notice: a
  page that names itself missing or an error is named so first; the host's page is its
  placeholder (parked) or its notice (interstitial). A block template by its shape (the
  reader's address and a request reference on a short page of almost no links,
  blocktemplate.py) comes after the host's page and before the bare notice: "access blocked"
  over the two is the CDN's refusal, a bot check.
- A captcha is the only wall evidence a sale page's offer form carries: a page the parked
  check names whose wall is a captcha's marker or form is parked (``_check_walls_or_sale``).
- Patterns are compiled once, at import.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from readreceipt.fetching.deadline import Deadline
from readreceipt.reading.agegate import age_gate, may_hold_age_gate
from readreceipt.reading.barenotice import (
    check_bare_notice,
    check_notice_in_chrome,
    check_sent_on,
    notice_word,
)
from readreceipt.reading.blocktemplate import block_shape
from readreceipt.reading.captcha import captcha_form, may_hold_captcha
from readreceipt.reading.consent import (
    carries_cmp,
    consent_dialog,
    consent_form,
    may_hold_consent_form,
)
from readreceipt.reading.errorpages import check_error_page
from readreceipt.reading.evidence import first
from readreceipt.reading.facts import (
    BARE_MAX_MAIN_LETTERS,
    BLOCK_MAX_MAIN_LETTERS,
    GATES,
    TAIL_CHARS,
    WALL_TEXT_CHARS,
    ContentSignal,
    Facts,
    PageView,
    compile_entries,
    fold,
    letters,
)
from readreceipt.reading.hostpage import check_host_page
from readreceipt.reading.notfound import check_parked, check_soft_404, soft_404_suspicion
from readreceipt.reading.redirects import carried_back, moved_to_sign_in, route_kind
from readreceipt.reading.shells import check_js_shell
from readreceipt.reading.signin import sign_in_boxes
from readreceipt.reading.tables.signin import REPLY_SIGN_IN
from readreceipt.reading.tables.vendors import EDGE_REFERENCE
from readreceipt.reading.tables.walls import (
    HEADER_RULES,
    VENDOR_HINTS,
    WALLS_AFTER_SIGN_IN,
    WALLS_BEFORE_SIGN_IN,
)
from readreceipt.reading.workscript import hidden_form_submitted, may_hold_work, proof_of_work

__all__ = ["BLOCK_MAX_MAIN_LETTERS", "GATES", "TAIL_CHARS", "THIN_RATIO_MAX_PAGE_LETTERS",
           "ContentSignal", "PageView", "fold",
           "judge_content", "letters", "name_served_everywhere", "soft_404_suspicion"]

log = logging.getLogger(__name__)

# A challenge that only sets a cookie and reloads: tiny, no text (walls/challenge/
# js_cookie_reload_check_* is 1.5 kB with none).
COOKIE_CHECK_MAX_BYTES = 20_000
# Thin text: the shortest article in the corpus has 352 letters of main text and 1,243 of
# whole text; the smallest ratio of main-text letters to bytes among articles is 0.00078
# (467 letters in a 597 kB page). Not beside many thousands of letters of visible text: a
# forum's link post whose extracted main text is its title (reddit's, in postlight/parser's
# fixtures: 223-474 letters in 1.6-2.7 MB) shows 16,214-28,214 letters of comments, and is a
# page; of the corpora's walls with a short main text, the most visible text is 8,122
# letters (walls2/soft_404/bits_pilani_*, 173 of main text).
THIN_MAX_MAIN_LETTERS = 150
THIN_MAX_PAGE_LETTERS = 500
THIN_MAX_LETTERS_PER_BYTE = 0.0003
THIN_RATIO_MAX_MAIN_LETTERS = 600
THIN_RATIO_MAX_PAGE_LETTERS = 12_000

_BEFORE_SIGN_IN = compile_entries(WALLS_BEFORE_SIGN_IN)
_AFTER_SIGN_IN = compile_entries(WALLS_AFTER_SIGN_IN)

_WALL_WORDS = {
    "challenge": "a bot check",
    "login": "a sign-in page",
    "consent": "a consent page",
    "paywall": "a paywall: a teaser, not the article",
    "interstitial": "an interstitial page",
}


def _vendor_hint(f: Facts) -> str | None:
    for name, value, vendor in VENDOR_HINTS:
        if name in f.page.headers and value in f.header(name):
            return vendor
    return None


def _wall_signal(kind: str, rule: str, vendor: str | None, what: str | None) -> ContentSignal:
    words = what or _WALL_WORDS[kind]
    detail = f"{words} ({vendor})" if vendor else words
    return ContentSignal(reason=f"wall:{kind}", wall=kind, rule=rule, vendor=vendor, detail=detail)


def _check_walls(f: Facts) -> ContentSignal | None:
    for h in HEADER_RULES:
        if h.header in f.page.headers and h.value in f.header(h.header) and f.allows(h.gate):
            return _wall_signal(h.kind, f"vendor:header {h.header}={h.value}", h.vendor, None)
    hit = first(f, _BEFORE_SIGN_IN)
    if hit is None or (hit[0].kind == "interstitial" and hit[0].evidence == "wording"):
        # An age gate's structure names it before an interstitial's words would.
        gated = _age_gate_signal(f)
        if gated is not None:
            return gated
    if hit is None:
        signed = _sign_in_signal(f) or _consent_signal(f)
        if signed is not None:
            return signed
        hit = first(f, _AFTER_SIGN_IN)
    if hit is not None:
        e, rule = hit
        return _wall_signal(e.kind, rule, e.vendor or _vendor_hint(f), e.what)
    if may_hold_captcha(f.main_letters, f.lowered) and f.sign_in is None:
        found = captcha_form(f.tree, f.page.main_text, f.main_letters)
        if found is not None:
            return _wall_signal("challenge", "structure:a captcha form, the page's main thing "
                                f"({found.outside} letters of content beside it)",
                                _vendor_hint(f), "a bot check: a captcha to solve")
    if may_hold_work(f.main_letters, f.lowered):
        work = proof_of_work(f.markup, f.main_letters)
        if work is not None:
            return _wall_signal("challenge", "structure:a proof-of-work script "
                                f"({work.hash} in an unbounded loop, then {work.handback})",
                                _vendor_hint(f), "a bot check: a script computes a proof of work")
        if hidden_form_submitted(f.tree, f.markup, f.main_letters):
            return _wall_signal("challenge", "structure:a form of hidden fields the page's "
                                "script submits", _vendor_hint(f),
                                "a bot check: a script answers it and submits the answer")
    if _is_cookie_check(f):
        return _wall_signal("challenge", "structure:cookie-and-reload script", _vendor_hint(f),
                            "a bot check: a script sets a cookie and reloads")
    return None


def _sign_in_signal(f: Facts) -> ContentSignal | None:
    """A credential form that is the page's main thing (signin.py), unless the publisher says
    the article arrived whole."""
    found = f.sign_in
    if found is None:
        return None
    box, outside = found
    rule = (f"structure:{box.what}, the page's main thing ({box.beside} letters of content "
            f"and {outside} of main text beside it)")
    article = f.publisher.article and box.beside > BARE_MAX_MAIN_LETTERS
    if f.publisher.verdict == "whole" or article:
        f.cleared.append(f"{rule} (publisher: {f.publisher.why or 'an article'})")
        return None
    markup = f.markup
    for engine, area, post in REPLY_SIGN_IN:
        if area in markup and post in markup:
            f.cleared.append(f"{rule} ({engine}'s sign-in to reply, under the posts it shows)")
            return None
    return _wall_signal("login", rule, _vendor_hint(f), None)


def _age_gate_signal(f: Facts) -> ContentSignal | None:
    """A date-of-birth form or an age-verification box that is the page's main thing
    (agegate.py)."""
    if not may_hold_age_gate(f.main_letters, f.lowered):
        return None
    found = age_gate(f.tree, f.page.main_text)
    if found is None:
        return None
    rule = (f"structure:{found.what}, the page's main thing ({found.outside} letters of "
            f"content and {found.main_outside} of main text beside it)")
    return _wall_signal("interstitial", rule, None, "an age gate")


def _consent_signal(f: Facts) -> ContentSignal | None:
    """A consent platform's dialog, or a form posting to a consent endpoint, that is the
    page's main thing (consent.py)."""
    if may_hold_consent_form(f.main_letters, f.lowered) and not f.typed_article:
        posted = consent_form(f.tree, f.main_letters)
        if posted is not None:
            rule = (f"vendor:a form posting to the consent endpoint {posted.endpoint}, the "
                    f"page's main thing ({posted.outside} letters of content beside it)")
            return _wall_signal("consent", rule, None, None)
    if not carries_cmp(f.main_letters, f.lowered):
        return None
    found = consent_dialog(f.markup, f.tree, f.page.main_text, f.main_letters)
    if found is None:
        return None
    rule = (f"vendor:{found.vendor}'s consent dialog, the page's main thing ({found.outside} "
            f"letters of content and {found.main_outside} of main text beside it)")
    return _wall_signal("consent", rule, found.vendor, None)


def _is_cookie_check(f: Facts) -> bool:
    """A tiny page whose only job is to set a cookie and load itself again."""
    if f.page.body_bytes > COOKIE_CHECK_MAX_BYTES or f.main_letters > BARE_MAX_MAIN_LETTERS:
        return False
    if f.page_letters > 0:
        return False
    m = f.markup
    return "document.cookie" in m and ("location.reload" in m or "location.href" in m
                                       or "location.replace" in m)


_EDGE_REFERENCE = re.compile(EDGE_REFERENCE[0])


def _check_edge_reference(f: Facts) -> ContentSignal | None:
    """A short page carrying a CDN's edge reference that no other check named: the CDN's
    own block page (tables/vendors.py, ``EDGE_REFERENCE``)."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS:
        return None
    found = _EDGE_REFERENCE.search(f.page.page_text[:WALL_TEXT_CHARS]) or \
        _EDGE_REFERENCE.search(f.page.main_text[:WALL_TEXT_CHARS])
    if found is None:
        return None
    vendor = EDGE_REFERENCE[1]
    return _wall_signal("challenge", f"vendor:{vendor}'s edge reference ID on a short page",
                        vendor, "a bot check: the CDN refused the request")


def _check_block_template(f: Facts) -> ContentSignal | None:
    """A short page showing the reader's address and a reference for the request, with
    almost no links: a CDN's or firewall's block template, whoever the vendor
    (blocktemplate.py). Runs after the error-page checks, which name a CDN's own 5xx pages
    (they show both too) first, and before the bare notice's words: "access blocked" over
    the reader's address and a request reference is the CDN's refusal, not a site's
    notice."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS:
        return None
    links = len(f.layout.link_texts)
    found = block_shape(f.page.page_text[:WALL_TEXT_CHARS].lower(), f.page_letters, links)
    if found is None:
        return None
    # The rule names the shape, the same for every page it fits (the leave-one-source-out
    # tables group by it); what the page showed goes in the detail.
    return _wall_signal("challenge", "structure:a block template (the reader's address and a "
                        f"request reference on a short page of {links} links)", _vendor_hint(f),
                        "a bot check: a CDN or firewall refused the request (address "
                        f"{found.address[:40]!r}, reference {found.reference[:40]!r})")


#: What a captcha alone names, which a sale page's offer form also carries (a widget's
#: marker, or the captcha form by structure): the form's own purpose decides.
_CAPTCHA_RULES = ("vendor:marker reCAPTCHA", "vendor:marker hCaptcha", "vendor:marker Turnstile",
                  "structure:a captcha form")


def _check_walls_or_sale(f: Facts) -> ContentSignal | None:
    """The wall check, except that a page whose only wall evidence is a captcha and that the
    parked check names (its structure first: an offer form, a marketplace's link offering the
    domain; then the table's words) is that sale page: sale templates guard their offer form
    with a captcha (bench/devset3_labels.tsv en_parked_08: an invisible reCAPTCHA on the
    make-an-offer form of a page titled "Domain For Sale")."""
    signal = _check_walls(f)
    if signal is None or not signal.rule.startswith(_CAPTCHA_RULES):
        return signal
    return check_parked(f) or signal


def _check_thin(f: Facts) -> ContentSignal | None:
    n = f.main_letters
    if n <= THIN_MAX_MAIN_LETTERS and f.page_letters <= THIN_MAX_PAGE_LETTERS:
        rule = f"structure:length of the main text, {n} letters"
    elif (n <= THIN_RATIO_MAX_MAIN_LETTERS and f.page.body_bytes > 0
          and n / f.page.body_bytes < THIN_MAX_LETTERS_PER_BYTE
          and f.page_letters <= THIN_RATIO_MAX_PAGE_LETTERS):
        rule = f"structure:ratio of {n} letters to {f.page.body_bytes} bytes"
    else:
        return None
    return ContentSignal(reason="thin_text", wall=None, rule=rule, vendor=None,
                         detail=f"very little text ({n} letters of main content)")


#: What a page the host serves for every address may name itself by, in this order (the
#: gates do not apply: the comparison already showed the page is not the one asked for).
_NAMING_KINDS = ("challenge", "interstitial", "login", "consent", "paywall")


def name_served_everywhere(page: PageView) -> tuple[str, str | None, str]:
    """(reason, wall, what matched) for a page the host also serves for a missing path
    (soft404.py): the kind of wall its own evidence names, wherever it sits; a not-found
    page when nothing else does. Used only after the comparison."""
    if page.html is None:
        return "soft_404", None, "nothing else"
    return _named_by_evidence(Facts(page)) or ("soft_404", None, "nothing else")


def _named_by_evidence(f: Facts) -> tuple[str, str, str] | None:
    """(reason, wall, what matched): the kind of wall a page's own evidence names wherever
    it sits (the gates do not apply: the caller already knows the page is not the one asked
    for); None."""
    tables = (_BEFORE_SIGN_IN, _AFTER_SIGN_IN)
    for kind in _NAMING_KINDS:
        if kind == "login" and f.tree is not None and any(
                box.place != "hidden" for box in sign_in_boxes(f.tree, f.page.main_text)):
            return "wall:login", "login", "a sign-in form"
        for table in tables:
            for c in table:
                if c.entry.kind == kind and (found := f.matches(c)) is not None:
                    name = c.entry.name if c.entry.where == "markup" else found
                    return f"wall:{kind}", kind, f"{c.entry.evidence} {name!r}"
    # A notice's own word in its title or a heading it shows (barenotice.py's words; the
    # site's chrome around it does not matter here): maintenance, a closure, a block.
    noticed = notice_word(list(f.visible_headings))
    if noticed is not None:
        return "wall:interstitial", "interstitial", f"wording {noticed[1]!r} ({noticed[0]})"
    return None


#: A redirect that carries the address asked for, to a step nothing names (neither the
#: page's own evidence nor the words of its address), is called an interstitial only on a
#: page short enough to be one: the longest interstitial of the corpora and development sets
#: holds a few thousand letters of main text (a consent notice with its purposes listed,
#: a sign-in page's pitch), and an article redirected to another address is longer.
CARRIED_BACK_MAX_MAIN_LETTERS = 5000

_STEP_WORDS = {
    "login": "a sign-in page", "consent": "a consent page", "challenge": "a bot check",
    "paywall": "a paywall", "interstitial": "an interstitial page",
    "soft_404": "a 'not found' page",
}


def _sent_to_sign_in(f: Facts) -> ContentSignal | None:
    """A redirect to another page at a sign-in route (redirects.py, ``moved_to_sign_in``)
    whose sign-in form stands in the page's content, however much text is around it."""
    page = f.page
    if not moved_to_sign_in(page.url, page.final_url) or f.tree is None:
        return None
    if not any(box.place in ("content", "form")
               for box in sign_in_boxes(f.tree, page.main_text)):
        return None
    return ContentSignal(
        reason="wall:login", wall="login", vendor=None,
        rule=f"comparison:the address asked for was redirected to a sign-in route "
             f"({page.final_url[:120]}) whose sign-in form is in its content",
        detail="a sign-in page: the server sent the request to its sign-in route, not the "
               "page asked for")


def _check_carried_back(f: Facts) -> ContentSignal | None:
    """The fetch was redirected to a step that carries the address asked for back
    (redirects.py): not the page, named by a sign-in protocol, the page's own evidence or
    the step's address, else an interstitial on a short page."""
    page = f.page
    if page.final_url == page.url:
        return None
    found = carried_back(page.url, (*page.via, page.final_url))
    if found is None:
        return _sent_to_sign_in(f)
    rule = (f"comparison:the address asked for was redirected to {found.reached[:120]}, "
            f"which carries it back ({found.parameter})")
    wall: str | None
    if found.protocol is not None:
        reason, wall, matched = "wall:login", "login", found.protocol
    elif (named := _named_by_evidence(f)) is not None:
        reason, wall, matched = named
    elif (kind := route_kind(found.reached)) is not None:
        reason = "soft_404" if kind == "soft_404" else f"wall:{kind}"
        wall, matched = (None if kind == "soft_404" else kind), "the words of its address"
    elif f.main_letters <= CARRIED_BACK_MAX_MAIN_LETTERS:
        reason, wall, matched = "wall:interstitial", "interstitial", "nothing else"
    else:
        return None
    step = _STEP_WORDS[wall or "soft_404"]
    return ContentSignal(reason=reason, wall=wall, rule=f"{rule}; named by {matched}",
                         vendor=None, detail=f"{step}: the server sent the request to "
                         "another address that will send the reader back once a step is "
                         "done, not the page asked for")


_CHECKS: tuple[Callable[[Facts], ContentSignal | None], ...] = (
    _check_walls_or_sale, check_parked, _check_carried_back, check_js_shell, check_soft_404,
    check_error_page, check_host_page, _check_block_template, check_bare_notice,
    check_notice_in_chrome, _check_edge_reference, check_sent_on, _check_thin,
)


def judge_content(page: PageView, deadline: Deadline | None = None) -> ContentSignal | None:
    """None means the content looks like the page (RETRIEVED as far as content goes).
    FetchTimeout when ``deadline`` passes before the checks are done (each check, and each
    entry of a table, looks at it first)."""
    if page.html is None:
        # Not HTML: walls, shells and not-found pages are HTML; text, JSON and PDF are
        # judged by extraction (no text layer, invalid JSON), not here.
        return None
    f = Facts(page, deadline)
    for check in _CHECKS:
        f.in_time()
        signal = check(f)
        if signal is not None:
            log.debug("content signal for %s: %s (%s)", page.url, signal.reason, signal.rule)
            return signal
    return None

