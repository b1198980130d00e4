"""Bare notices: a page that is one short notice and nothing else, named by its own word.

A site that is down for maintenance, not built yet, closed, suspended by its host or past
its paid term serves a document of its own in place of every page: a heading, a sentence or
two, perhaps a date, a phone number or the host's address, and next to no links, since there
is no site around it to link to. What it says changes with every site and language (the
tables' phrases miss most: "We komen terug", "Технические работы", "サーバメンテナンスのお知らせ");
its shape does not. So the test is structural first, and the words only name it:

- *bare*: the main text is short (``BLOCK_MAX_MAIN_LETTERS``, as every wall's), the whole
  visible text too (``MAX_PAGE_LETTERS``), the markup holds at most ``MAX_LINKS`` links
  (a site's page, however short, links to the rest of its site: its navigation, its footer)
  and no navigation element, and the publisher does not type it as an article
  (a news brief about a bridge closed for maintenance is an article of a site:
  tests/pages/hard_negative/short_news_scheduled_maintenance_bridge.html);
- *named*: its title, a heading it shows, or (on a page of almost nothing else) a short
  line of its main or visible text (``MAX_LINE``) holds a notice's word in any of the
  tables' languages (``tables/noticewords.py``: maintenance, construction, temporarily
  unavailable or closed, suspended or expired, blocked).

The evidence of a development set of notices collected from public repositories (37 notices
in 16 languages, bench/devset3_labels.tsv): 0 to 3 links each, the hosting providers'
suspension pages with their own menus excepted; the clean pages beside them, 18 or more. A
bare page that names no notice stays what the other checks make of it (thin text, or a page).

Two more since issue 21's ninth round (bench/devset7_labels.tsv: web applications' own views
of an account, a browser or a redirect inside their site's navigation and footer): a page in
the chrome with no h1 or h2 at all is read from its main text's opening lines
(``check_notice_in_chrome``); and a short page that refreshes itself or whose script's timer
sets the location sends the reader on (``check_sent_on``: structure, no word read).

Invariants: pure; linear in the page (one count of links over the markup, capped; the lines
searched are capped in number and length); runs only on a page already short enough to be
a wall.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from itertools import islice

from readreceipt.reading.basics import letters
from readreceipt.reading.facts import (
    BARE_MAX_MAIN_LETTERS,
    BLOCK_MAX_MAIN_LETTERS,
    WALL_TEXT_CHARS,
    ContentSignal,
    Facts,
    fold,
)
from readreceipt.reading.tables.noticewords import NOTICE_WORDS

__all__ = ["MAX_CONTENT_HEADINGS", "MAX_LINE", "MAX_LINKS", "MAX_OPENING_LINE",
           "MAX_OPENING_LINES", "MAX_PAGE_LETTERS", "STATUS_LINE", "check_bare_notice",
           "check_notice_in_chrome", "check_sent_on", "notice_word"]

#: A notice links to its host, its owner's mail, a status page: at most this many links.
MAX_LINKS = 3
#: Visible letters of the whole page (the notice and whatever small print stands beside it).
MAX_PAGE_LETTERS = 1200
#: A line this short may be the notice's heading written as bold text.
MAX_LINE = 100
#: Lines of the main text read, at most.
MAX_LINES = 40
#: Headings the content of a notice in a site's chrome holds, at most (the notice's, and
#: the site's name over it): a list of posts under a category named "Maintenance" has one
#: heading a post, so its last heading is no notice's.
MAX_CONTENT_HEADINGS = 2
#: Link texts read for a section of the site named by the notice's word, at most (a page
#: short enough to be a notice has far fewer).
MAX_LINK_TEXTS = 300
#: On a page in the site's chrome whose content has no h1 or h2, the main text's first lines
#: read for the notice's word (its heading written as an h3 or bold text, and the sentence
#: under it), at most, and each line's length, at most (a notice's sentence with its reason:
#: "Your Account has been suspended for breaking our code of conduct. Contact the admin for
#: further details", 104 characters).
MAX_OPENING_LINES = 3
MAX_OPENING_LINE = 160

#: Elements only a site's page has: its navigation. (Not ``<article>``: a notice may be
#: written as one, tests/pages/other_interstitial/tr_bare_maintenance_article_box.html.)
_SITE_TAGS = ("<nav", 'role="navigation"')
#: (``[^<>]``: an attempt stops at the next tag's opening, so a run of unclosed "<a" openers is
#: read once, not 2,000 characters from each.)
_LINK = re.compile(r"<a\b[^<>]{0,2000}?\bhref\s*=")
#: Scripts written without spaces between words: their words are matched anywhere.
_UNSPACED = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


#: A line that is a three-digit number and nothing else (a mark beside it at most): an HTTP
#: status code when ``_BY_STATUS`` knows it as an error's.
STATUS_LINE = re.compile(r"^\W{0,3}([45]\d\d)\W{0,3}$")
_SERVER_ERROR = ("wall:interstitial", "interstitial",
                 "a server's error page: it did not serve the page")
#: What each error code makes the page: (reason, wall, what it is). Every 4xx and 5xx code of
#: the IANA registry a server, proxy or CDN writes over its error page, and the CDN's origin
#: errors (520-527, 530: Cloudflare's); not 401 or 407, whose page asks for a sign-in (the
#: sign-in rules judge it), nor 402. A rate limit (429) is a refusal of the reader, as a bot
#: check's is (tests/pages/challenge/tr_cok_fazla_istek.html).
_BY_STATUS: dict[str, tuple[str, str | None, str]] = {
    "403": ("wall:challenge", "challenge", "a refusal: the server or its firewall denied access"),
    "429": ("wall:challenge", "challenge", "a rate limit: the server refused the reader"),
    "404": ("soft_404", None, "a 'not found' page served as success"),
    "410": ("soft_404", None, "a 'gone' page served as success"),
    **{str(c): _SERVER_ERROR for c in (400, 405, 406, 408, 409, 411, 412, 413, 414, 415, 416,
                                       417, 421, 422, 423, 424, 425, 426, 428, 431, 451)},
    **{str(c): _SERVER_ERROR for c in (*range(500, 512), *range(520, 528), 530)},
}


def _pattern(words: tuple[tuple[str, str, str], ...]) -> re.Pattern[str]:
    parts = sorted({w for _, w, _ in words}, key=len, reverse=True)
    return re.compile("|".join(
        re.escape(w) if _UNSPACED.match(w) else r"(?<!\w)" + re.escape(w) for w in parts))


_CONCEPTS = tuple((concept, _pattern(words)) for concept, words in NOTICE_WORDS.items())
_WHAT = {
    "maintenance": "a maintenance page: the site is down for maintenance",
    "construction": "a placeholder: the site is not built yet",
    "unavailable": "a notice that the site is closed or unavailable for now",
    "suspended": "a notice that the site or account is suspended, disabled, locked or expired",
    "blocked": "a block page: access to the address is blocked",
    "unsupported": "a notice that the reader's browser cannot show the site",
}


def _links(markup: str) -> int:
    """Links in the markup, counted up to one past the bound."""
    count = 0
    for _ in _LINK.finditer(markup):
        count += 1
        if count > MAX_LINKS:
            break
    return count


def _lines(f: Facts) -> list[str]:
    """The title and the headings the page shows; on a page with almost nothing else
    (``BARE_MAX_MAIN_LETTERS``), the short lines of its main and visible texts too (a
    notice's heading may be bold text; a short article's sentence about a forum's
    maintenance night is not one: tests/test_fingerprint.py's "a maintenance notice on a
    short article")."""
    lines = [f.title, *f.shown_headings]
    if f.main_letters > BARE_MAX_MAIN_LETTERS:
        return [line for line in lines if line]
    # The visible text's lines too: a notice laid out in a table cell is one line of main
    # text (tests/pages/other_interstitial/it_sito_sottoposto_a_sequestro.html).
    for text in (f.page.main_text, f.page.page_text):
        for line in text[:WALL_TEXT_CHARS].splitlines()[:MAX_LINES]:
            if 0 < len(line.strip()) <= MAX_LINE:
                lines.append(fold(line))
    return [line for line in lines if line]


def check_bare_notice(f: Facts) -> ContentSignal | None:
    """A bare page whose own words name a notice (module docstring), or None."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS or f.page_letters > MAX_PAGE_LETTERS:
        return None
    if letters(f.page.main_text) == 0 and not f.title:
        return None
    markup = f.markup
    links = _links(markup)
    if links > MAX_LINKS or any(tag in markup for tag in _SITE_TAGS) or f.typed_article:
        return None
    lines = _lines(f)
    found = notice_word(lines)
    if found is None:
        return _status_signal(lines, links, f.main_letters)
    concept, word = found
    rule = (f"wording:notice {word!r} ({concept}) on a bare page ({links} links, "
            f"{f.main_letters} letters of main text)")
    return ContentSignal(reason="wall:interstitial", wall="interstitial", rule=rule,
                         vendor=None, detail=_WHAT[concept])


def _a_section_of_the_site(f: Facts, concept: str) -> bool:
    """Whether a link of the page (its first ``MAX_LINK_TEXTS``) is named by a word of the
    notice's ``concept``: the page is then a section of the site the menu leads to."""
    pattern = dict(_CONCEPTS)[concept]
    return any(pattern.search(fold(text)) is not None
               for text in islice(f.layout.link_texts, MAX_LINK_TEXTS))


def _status_signal(lines: list[str], links: int, main: int) -> ContentSignal | None:
    """A bare page one of whose lines is a status code alone (``STATUS_LINE``), or None."""
    for line in lines:
        m = STATUS_LINE.match(line)
        if m is not None and m.group(1) in _BY_STATUS:
            reason, wall, what = _BY_STATUS[m.group(1)]
            rule = (f"structure:the status code {m.group(1)} as a line of its own on a bare "
                    f"page ({links} links, {main} letters of main text)")
            return ContentSignal(reason=reason, wall=wall, rule=rule, vendor=None, detail=what)
    return None


def notice_word(lines: list[str]) -> tuple[str, str] | None:
    """(concept, word) of the first notice word in the folded ``lines``, or None. Also what
    names a page the host serves for every address (fingerprint.name_served_everywhere),
    where the bareness need not be asked: the comparison showed it is not the page."""
    for line in lines:
        for concept, pattern in _CONCEPTS:
            m = pattern.search(line)
            if m is not None:
                return concept, m.group(0)
    return None


def check_notice_in_chrome(f: Facts) -> ContentSignal | None:
    """A notice that is the page's main thing though the site's chrome stands around it, or
    None: the page is short (``BARE_MAX_MAIN_LETTERS`` letters of main text outside its
    links' lines, ``MAX_PAGE_LETTERS`` in all), the site's header, breadcrumbs, menus and
    footer hold its links (so the bare test, which counts them, does not apply), and the
    last of the at most ``MAX_CONTENT_HEADINGS`` headings that stand in the content
    (placement.py: not the header's, a menu's or the footer's) names a notice
    (bench/devset5_labels.tsv kit_wartung: a university's page template, its breadcrumbs
    and twelve links, over "Wartungsarbeiten" and one sentence). A firm's page on the
    maintenance it sells has its own text under the heading, far more than a notice's
    (tests/pages/hard_negative/: the garage's and gardener's "Wartung" and "onderhoud"
    pages of bench/devset5_labels.tsv); a category page, a heading a post. And a notice
    stands in for the site, it is no section of it: a page one of whose links is named by
    the notice's word (the site's menu leading to its "Wartung" page,
    tests/pages/hard_negative/de_short_service_page_wartung_with_nav.html) is that section,
    however short."""
    if f.main_letters > BARE_MAX_MAIN_LETTERS or f.page_letters > MAX_PAGE_LETTERS:
        return None
    if f.typed_article:
        return None
    headings = f.content_headings
    if headings:
        if len(headings) > MAX_CONTENT_HEADINGS or len(headings[-1]) > MAX_LINE:
            return None
        found, where = notice_word([headings[-1]]), "heading"  # the word in the rule
    elif len(f.headings) <= (1 if f.title else 0):
        # No h1 or h2 in the page at all, the title aside: a view that writes its notice as an
        # h3, a box's bold line or a paragraph (bench/devset7_labels.tsv kq_suspended: a
        # charity site's navbar and footer around "Your Account has been suspended ...").
        # Its opening lines are the notice. A page with headings anywhere, even ones the
        # placement did not put in the content (a category's list of posts under "Wartung",
        # whose headings are links), is not read so.
        found, where = notice_word(_opening_lines(f)), "in the opening lines of"
    else:
        return None
    if found is None:
        return None
    concept, word = found
    if _a_section_of_the_site(f, concept):
        return None
    rule = (f"wording:notice {word!r} ({concept}) {where} the short content of a page "
            f"whose other text is the site's chrome, no link of it named so ({f.main_letters} "
            "letters of main text)")
    return ContentSignal(reason="wall:interstitial", wall="interstitial", rule=rule,
                         vendor=None, detail=_WHAT[concept])


def _opening_lines(f: Facts) -> list[str]:
    """The first ``MAX_OPENING_LINES`` lines of the main text that are not a link's whole
    text (the menu's items, which the placement counts as chrome), each at most
    ``MAX_OPENING_LINE`` characters, folded."""
    links = {fold(text) for text in islice(f.layout.link_texts, MAX_LINK_TEXTS)}
    lines: list[str] = []
    for raw in f.page.main_text[:WALL_TEXT_CHARS].splitlines()[:MAX_LINES]:
        line = fold(raw)
        if not line or line in links:
            continue
        if len(line) <= MAX_OPENING_LINE:
            lines.append(line)
        if len(lines) == MAX_OPENING_LINES:
            break
    return lines


#: A ``<meta>`` tag, read to its end or the next tag's opening (``[^<>]``: an unclosed run of
#: openers is read once, as ``_LINK`` is), and in it a refresh and its delay.
_META = re.compile(r"<meta\b[^<>]{0,800}")
_REFRESH = re.compile(r"\bhttp-equiv\s{0,9}=\s{0,9}[\"']?\s{0,9}refresh\b")
_DELAY = re.compile(r"\bcontent\s{0,9}=\s{0,9}[\"']?\s{0,9}(\d{1,6})")
#: A script that sends the reader on after a wait: a timer whose callback, within a few
#: hundred characters, sets or calls the location ("setTimeout(function(){ location.href =
#: ... }, 3000)", "setTimeout(\"window.location='...'\", 5000)").
#: (Any character: a countdown's callback compares, "if (left <= 0)"; each attempt starts at
#: a timer's name and reads at most 300 characters.)
_TIMED = re.compile(r"\bset(?:timeout|interval)\s*\((?s:.){0,300}?\blocation\b")
#: ``<meta>`` tags read, at most (a short page's head has a few dozen).
MAX_META_TAGS = 200


_NOSCRIPT = re.compile(r"<(/?)noscript\b")


def _noscript_spans(markup: str) -> list[tuple[int, int]]:
    """Where the ``<noscript>`` elements of ``markup`` lie, read once (an unclosed one runs
    to the end): a refresh there is the no-script fallback of a page that works with a
    script (bench/devset7_labels.tsv ba_about: every page of a book site refreshes to its
    JavaScript notice only when scripts are off)."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for m in _NOSCRIPT.finditer(markup):
        if not m.group(1) and start is None:
            start = m.start()
        elif m.group(1) and start is not None:
            spans.append((start, m.start()))
            start = None
    if start is not None:
        spans.append((start, len(markup)))
    return spans


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` lies in one of the ordered, disjoint ``spans``."""
    # The last span opening at or before ``at`` (no span ends past ``sys.maxsize``).
    i = bisect_right(spans, (at, sys.maxsize)) - 1
    return i >= 0 and at < spans[i][1]


def _refresh_delay(markup: str, spans: list[tuple[int, int]]) -> int | None:
    """The delay in seconds of the page's first meta refresh outside ``<noscript>``, or
    None."""
    for m in islice(_META.finditer(markup), MAX_META_TAGS):
        tag = m.group(0)
        if _REFRESH.search(tag) is None or _inside(spans, m.start()):
            continue
        delay = _DELAY.search(tag)
        if delay is not None:
            return int(delay.group(1))
    return None


def check_sent_on(f: Facts) -> ContentSignal | None:
    """A short page that sends the reader on, or None: its markup refreshes it after a
    delay (a meta refresh outside ``<noscript>``) or a script's timer sets the location,
    and it holds next to nothing (``BARE_MAX_MAIN_LETTERS`` letters of main text,
    ``MAX_PAGE_LETTERS`` in all; not typed an article). "Please wait, you are being
    redirected", a countdown to another address, a page that reloads itself until a job is
    done: the content, if any, is at the address it goes to, not in this copy
    (bench/devset7_labels.tsv sf_redirect, wg_wait). Language-free: the markup alone."""
    if f.main_letters > BARE_MAX_MAIN_LETTERS or f.page_letters > MAX_PAGE_LETTERS:
        return None
    if f.typed_article:
        return None
    markup = f.markup[:WALL_TEXT_CHARS]
    spans = _noscript_spans(markup)
    delay = _refresh_delay(markup, spans)
    if delay is not None:
        how = f"a meta refresh after {delay} s"
    elif (m := _TIMED.search(markup)) is not None and not _inside(spans, m.start()):
        how = "a script's timer setting the location"
    else:
        return None
    rule = (f"structure:{how} on a short page ({f.main_letters} letters of main text, "
            f"{f.page_letters} in all)")
    return ContentSignal(reason="wall:interstitial", wall="interstitial", rule=rule,
                         vendor=None, detail="a page that sends the reader on: the content "
                         "is not in this copy")
