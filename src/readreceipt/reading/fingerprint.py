"""Content fingerprints: is what arrived the page, or something standing in front of it?

``judge_content(page)`` looks only at what came back (headers, HTML, extracted texts) and
returns ``None`` when the content looks like the page, or one ``ContentSignal`` naming what
it is instead: a wall (bot check, sign-in, consent, paywall, interstitial), a JavaScript
shell, a soft 404, a parked domain or thin text. The caller (``verdict.py``) turns a signal
into UNKNOWN; nothing here can make a verdict FAILED.

Invariants:
- A wall is *named*: an entry of ``walls.py`` fired, and the signal says which (``rule``).
- Every entry needs the page's main content to be short (``GATES``): an article that talks
  about captchas, or loads a vendor's script, has too much text of its own to be a wall.
  The one exception is a wall phrase at the very end of the main content (``TAIL_CHARS``),
  which is an article cut off by its wall.
- Strictness when several fire: wall > js_shell > soft_404 > parked > thin_text.
- Cheap: long pages (most pages) only have their main text counted and its tail searched;
  the markup and whole text are folded and searched only for pages short enough to be a
  wall. Patterns are compiled once, at import.
"""

from __future__ import annotations

import html as htmllib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from re import Pattern
from urllib.parse import urlsplit

from readreceipt.reading import shells
from readreceipt.reading.placement import Layout, layout
from readreceipt.reading.publisher import PublisherSays, publisher_says
from readreceipt.reading.walls import (
    HEADER_RULES,
    PARKED,
    SHELL_MARKERS,
    SHELL_NOSCRIPT,
    SOFT_404,
    SOFT_404_SUSPECT,
    VENDOR_HINTS,
    WALLS,
    Entry,
)

__all__ = ["GATES", "ContentSignal", "PageView", "fold", "judge_content", "letters",
           "soft_404_suspicion"]

log = logging.getLogger(__name__)

# --- thresholds (letters of text: digits, spaces and punctuation do not count) -----------
# Evidence: ../shared/corpus (walls/ and the 181 articles), through readreceipt.reading.extract as
# the pipeline runs it: "main" is the main-content text, "page" the whole visible text.

# A vendor's script alone (which ordinary pages also load) counts only on a page with
# nothing to read: the Reblaze, Weibo and Imperva challenges show 0 letters; JSTOR shows 619
# main letters and carries PerimeterX's script (hard_negative/jstor_*).
EMPTY_MAX_LETTERS = 30
# A captcha widget or a password field (which also sit in comment forms and site headers)
# counts only on a page with almost no main text: Reddit's check 115, Google's 126, the
# sign-in pages 110 and 127; articles carrying a reCAPTCHA or a password field: from 530.
BARE_MAX_MAIN_LETTERS = 200
# A page that is the wall and nothing else. Largest such wall: YouTube's consent page 645,
# Forza's not-found page 594, NCBI's block page 523. (The shortest article is 352: the
# entries at this gate are phrases an article does not carry.)
BLOCK_MAX_MAIN_LETTERS = 800
# A paywall keeps a teaser: Boston Globe 904 letters, Zeit 783, Bloomberg 573.
TEASER_MAX_MAIN_LETTERS = 1500
# A wall at the end of a long article: Nature's registration wall ends its 8,945-letter
# main text within the last 300 characters; The Week's unenforced regwall markup is not in
# the main text at all (hard_negative/theweek_*).
TAIL_CHARS = 400
# Main text that is a list of short lines may be a site's navigation taken for content
# (walls2/soft_404/tjx_*: 2,336 letters of menu items, 24 letters a line). Lines that are
# only a link's text are not counted when the main text has this many lines, this short.
LIST_MIN_LINES = 10
LIST_MAX_LETTERS_PER_LINE = 40

GATES: Mapping[str, int] = {
    "empty": EMPTY_MAX_LETTERS,
    "bare": BARE_MAX_MAIN_LETTERS,
    "block": BLOCK_MAX_MAIN_LETTERS,
    "teaser": TEASER_MAX_MAIN_LETTERS,
}

# A JavaScript shell shows (almost) nothing without its scripts, and says so by an empty
# mount point, unrendered {{templates}} or a noscript notice (or shows nothing at all):
# corpus shells show at most 66 letters, all of them templates; a YouTube error page showing
# only its 144-letter footer is named by its player status instead (a soft 404).
SHELL_MAX_PAGE_LETTERS = 100
# A challenge that only sets a cookie and reloads: tiny, no text (walls/challenge/
# js_cookie_reload_check_* is 1.5 kB with none).
COOKIE_CHECK_MAX_BYTES = 20_000
# Thin text: the shortest article in the corpus has 352 letters of main text and 1,243 of
# whole text; the smallest ratio of main-text letters to bytes among articles is 0.00078
# (467 letters in a 597 kB page).
THIN_MAX_MAIN_LETTERS = 150
THIN_MAX_PAGE_LETTERS = 500
THIN_MAX_LETTERS_PER_BYTE = 0.0003
THIN_RATIO_MAX_MAIN_LETTERS = 600
# Suspected of being a not-found page (only a suspicion: the soft-404 probe decides): main
# text shorter than the shortest article in the corpus (352 letters) beside at least three
# times as much chrome (walls2/soft_404/bits_pilani_*: 173 letters beside 7,835 of links).
SUSPECT_MAX_MAIN_LETTERS = 350
SUSPECT_MIN_CHROME_SHARE = 3.0


@dataclass(frozen=True)
class PageView:
    """What the content layer may look at; the caller extracts the texts once."""

    url: str
    final_url: str
    status: int
    headers: Mapping[str, str]
    content_type: str
    html: str | None
    main_text: str
    page_text: str
    body_bytes: int


@dataclass(frozen=True)
class ContentSignal:
    """Why the content is not (or may not be) the page asked for."""

    reason: str
    wall: str | None
    rule: str
    vendor: str | None
    detail: str


# --- folding and counting ------------------------------------------------------------------

_NON_LETTERS = re.compile(r"[\W\d_]+")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.S)
_TAG = re.compile(r"<[^>]*>")


def fold(text: str) -> str:
    """Lower case, straight quotes, one space for any run of whitespace."""
    return " ".join(text.translate(_QUOTES).lower().split())


def letters(text: str) -> int:
    """How many letters (of any script) ``text`` holds."""
    return len(_NON_LETTERS.sub("", text))


def _strip(fragment: str) -> str:
    return fold(htmllib.unescape(_TAG.sub(" ", fragment)))


# Bounded, so an unclosed element costs a few hundred characters, not the rest of the page.
_TITLE = re.compile(r"<title[^>]{0,200}>(.{0,2000}?)</title>", re.S)
_HEADING = re.compile(r"<h[12][^>]{0,500}>(.{0,1000}?)</h[12]>", re.S)
_NOSCRIPT = re.compile(r"<noscript[^>]{0,200}>(.{0,2000}?)</noscript>", re.S)
_IMG_ALT = re.compile(r"<img[^>]*?\salt=[\"']([^\"']+)")
_SCRIPT = re.compile(r"<script\b")


@dataclass(frozen=True)
class _Compiled:
    entry: Entry
    regex: Pattern[str] | None

    def search(self, haystack: str) -> str | None:
        """What matched (the literal, or the text the regex matched), or None."""
        if self.regex is None:
            return self.entry.expr if self.entry.expr in haystack else None
        anchor = self.entry.anchor
        if anchor is not None and anchor not in haystack:
            return None
        m = self.regex.search(haystack)
        return m.group(0).strip()[:80] if m else None


def _compile(entries: Iterable[Entry]) -> tuple[_Compiled, ...]:
    return tuple(_Compiled(e, None if e.literal else re.compile(e.expr)) for e in entries)


_WALLS = _compile(WALLS)
_SOFT_404 = _compile(SOFT_404)
_PARKED = _compile(PARKED)

_SHELL_NOSCRIPT = re.compile(SHELL_NOSCRIPT)
_SUSPECT = re.compile(SOFT_404_SUSPECT)


class _Facts:
    """Everything the rules ask of one page, each computed at most once and only if asked."""

    def __init__(self, page: PageView) -> None:
        self.page = page
        self.html = page.html or ""
        self.main_letters = self._main_letters()
        self.cleared: list[str] = []  # evidence found and set aside, and why

    def _main_letters(self) -> int:
        """Letters of main text, without lines that are only a link's text in a list of
        short lines (a menu taken for the content)."""
        text = self.page.main_text
        raw = letters(text)
        lines = [line for line in text.split("\n") if line.strip()]
        if raw <= BLOCK_MAX_MAIN_LETTERS or len(lines) < LIST_MIN_LINES or \
                raw > LIST_MAX_LETTERS_PER_LINE * len(lines):
            return raw
        links = self.layout.link_texts
        return sum(letters(line) for line in lines if " ".join(line.lower().split()) not in links)

    @cached_property
    def layout(self) -> Layout:
        return layout(self.html)

    @cached_property
    def publisher(self) -> PublisherSays:
        if "isaccessibleforfree" not in self.markup and "ld+json" not in self.markup:
            return PublisherSays(None, "")
        return publisher_says(self.html, self.page.page_text, self.page.main_text)

    @cached_property
    def substance(self) -> int:
        """Letters of content on the page by either measure: extracted, or outside chrome."""
        return max(self.main_letters, self.layout.content_letters)

    def place(self, c: _Compiled) -> str:
        """Where a text entry's words are: "content", a kind of chrome, or "own words"
        (title, noscript, alt text: the page's own, wherever they sit)."""
        where = self.layout.place_of(lambda text: c.search(fold(text)) is not None)
        if where is not None:
            return where
        if c.search(fold(self.page.main_text)) is not None:
            return "content"
        return "own words"

    @cached_property
    def page_letters(self) -> int:
        """Letters of visible text, not counting unrendered {{templates}}."""
        return letters(_TEMPLATE.sub(" ", self.page.page_text)) if self.templated_raw else (
            letters(self.page.page_text))

    @cached_property
    def templated_raw(self) -> bool:
        return "{{" in self.page.page_text

    @cached_property
    def templated(self) -> bool:
        """Unrendered {{templates}} are most of the visible text (walls/js_shell/sinica_*)."""
        if not self.templated_raw:
            return False
        return letters(self.page.page_text) >= 2 * self.page_letters

    @cached_property
    def markup(self) -> str:
        return self.html.lower()

    @cached_property
    def title(self) -> str:
        m = _TITLE.search(self.markup)
        return _strip(m.group(1)) if m else ""

    @cached_property
    def headings(self) -> tuple[str, ...]:
        found = [_strip(m.group(1)) for m in _HEADING.finditer(self.markup)]
        return tuple(h for h in [self.title, *found] if h)

    @cached_property
    def noscript(self) -> str:
        return " ".join(_strip(m.group(1)) for m in _NOSCRIPT.finditer(self.markup))

    @cached_property
    def text(self) -> str:
        parts = [self.title, *self.headings, fold(self.page.page_text), fold(self.page.main_text),
                 self.noscript]
        if self.page_letters == 0:
            # An image-only page says what it is in its alt text (walls/soft_404/ncsoft_*).
            parts.append(self.alt_text)
        return "\n".join(parts)

    @cached_property
    def alt_text(self) -> str:
        return " ".join(fold(htmllib.unescape(a)) for a in _IMG_ALT.findall(self.markup))

    @cached_property
    def tail(self) -> str:
        return fold(self.page.main_text[-TAIL_CHARS * 2:])[-TAIL_CHARS:]

    @cached_property
    def has_scripts(self) -> bool:
        return _SCRIPT.search(self.markup) is not None

    def header(self, name: str) -> str:
        return self.page.headers.get(name, "").lower()

    def allows(self, gate: str) -> bool:
        if gate == "tail":
            return True
        if gate == "empty" and self.page_letters > EMPTY_MAX_LETTERS:
            return False
        return self.main_letters <= GATES[gate]

    def matches(self, c: _Compiled) -> str | None:
        where = c.entry.where
        if where == "tail":
            return c.search(self.tail)
        if where == "markup":
            return c.search(self.markup)
        if where == "title":
            return c.search(self.title)
        if where == "heading":
            return next((m for h in self.headings if (m := c.search(h))), None)
        return c.search(self.text)


# --- the checks, strictest first ------------------------------------------------------------

_WALL_WORDS = {
    "challenge": "a bot check",
    "login": "a sign-in page",
    "consent": "a consent page",
    "paywall": "a paywall: a teaser, not the article",
    "interstitial": "an interstitial page",
}


def _vendor_hint(f: _Facts) -> str | None:
    for name, value, vendor in VENDOR_HINTS:
        if name in f.page.headers and value in f.header(name):
            return vendor
    return None


def _wall_signal(kind: str, rule: str, vendor: str | None, what: str | None) -> ContentSignal:
    words = what or _WALL_WORDS[kind]
    detail = f"{words} ({vendor})" if vendor else words
    return ContentSignal(reason=f"wall:{kind}", wall=kind, rule=rule, vendor=vendor, detail=detail)


def _first(f: _Facts, table: tuple[_Compiled, ...]) -> tuple[Entry, str] | None:
    """The first entry of ``table`` the page allows and carries, with its rule name."""
    long_page = f.main_letters > TEASER_MAX_MAIN_LETTERS
    for c in table:
        gate = c.entry.gate
        unlocked = c.entry.kind == "paywall" and gate == "teaser" and f.publisher.locked
        if long_page and gate != "tail" and not unlocked:
            continue
        if not (f.allows(gate) or unlocked) or (found := f.matches(c)) is None:
            continue
        # Words are named by what they said; markup patterns by their table name.
        name = c.entry.name if c.entry.where == "markup" else found
        rule = f"{_RULE_KIND.get(c.entry.where, c.entry.where)}:{name}"
        judged = _placed(f, c, rule, unlocked)
        if judged is not None:
            return c.entry, judged
    return None


def _placed(f: _Facts, c: _Compiled, rule: str, unlocked: bool) -> str | None:
    """The rule with where its evidence was found, or None when the place sets it aside."""
    entry = c.entry
    if entry.name == "password field":
        return _password_rule(f, rule)
    if entry.where != "text" or entry.kind not in _PLACED_KINDS:
        return rule
    place = f.place(c)
    # The publisher's own word that the page is a teaser makes a paywall's words count
    # wherever they sit (walls/paywall/bloomberg_*: its label in a list of links).
    teaser = entry.kind == "paywall" and f.publisher.verdict == "teaser"
    if place not in ("content", "own words") and not teaser:
        # A wall's own box may be a form, a dialog, an aside or a header: there it counts on
        # a page whose content (by either measure) is within the entry's gate. Navigation,
        # link lists, teasers, footers, adverts and hidden elements are never the wall
        # itself: there it counts only on a page that holds nothing else.
        limit = GATES.get(entry.gate, BARE_MAX_MAIN_LETTERS) if place in _WALL_BOXES else \
            BARE_MAX_MAIN_LETTERS
        if f.substance > limit:
            f.cleared.append(f"{rule} (only in the {place}, beside {f.substance} letters of "
                             "content)")
            return None
    if entry.kind in ("paywall", "login") and f.publisher.verdict == "whole":
        f.cleared.append(f"{rule} (publisher: {f.publisher.why})")
        return None
    if teaser:
        rule = f"publisher:{f.publisher.why}; {rule}"
    elif unlocked and not f.allows(entry.gate):
        if place != "content":
            return None
        rule = f"publisher:isAccessibleForFree=false; {rule}"
    where = "the page's own words" if place == "own words" else f"the {place}"
    return f"{rule} (in {where})"


def _password_rule(f: _Facts, rule: str) -> str | None:
    """A sign-in form is a login wall only when nothing substantial stands beside it."""
    fields = f.layout.passwords
    if not fields:
        return rule  # found by the markup pattern but not parsed (broken markup)
    beside = max(f.main_letters, min(f.layout.beside(p) for p in fields))
    if beside > BARE_MAX_MAIN_LETTERS:
        places = ", ".join(sorted({p.place for p in fields}))
        f.cleared.append(f"{rule} (in the {places}, beside {beside} letters of content)")
        return None
    return f"{rule} (a sign-in form with {beside} letters of content beside it)"


#: Chrome that may be the wall's own box (placement.py's kinds).
_WALL_BOXES = frozenset({"form", "dialog", "sidebar", "header"})
#: Kinds whose phrases count only where the content is (module docstring of placement.py).
_PLACED_KINDS = frozenset({"login", "paywall", "consent", "interstitial", "challenge",
                           "soft_404", "parked"})


_RULE_KIND = {"markup": "marker", "text": "phrase", "tail": "phrase-at-end"}


def _check_walls(f: _Facts) -> ContentSignal | None:
    for h in HEADER_RULES:
        if h.header in f.page.headers and h.value in f.header(h.header) and f.allows(h.gate):
            return _wall_signal(h.kind, f"header:{h.header}={h.value}", h.vendor, None)
    hit = _first(f, _WALLS)
    if hit is not None:
        e, rule = hit
        return _wall_signal(e.kind, rule, e.vendor or _vendor_hint(f), e.what)
    if _is_cookie_check(f):
        return _wall_signal("challenge", "structure:cookie-and-reload script", _vendor_hint(f),
                            "a bot check: a script sets a cookie and reloads")
    return None


def _is_cookie_check(f: _Facts) -> bool:
    """A tiny page whose only job is to set a cookie and load itself again."""
    if f.page.body_bytes > COOKIE_CHECK_MAX_BYTES or f.main_letters > BARE_MAX_MAIN_LETTERS:
        return False
    if f.page_letters > 0:
        return False
    m = f.markup
    return "document.cookie" in m and ("location.reload" in m or "location.href" in m
                                       or "location.replace" in m)


def _check_js_shell(f: _Facts) -> ContentSignal | None:
    """Scripts, little text, and a sign the text is for scripts to fill in (shells.py)."""
    if f.main_letters > BARE_MAX_MAIN_LETTERS or not f.has_scripts:
        return None
    found = _shell_sign(f)
    if found is None:
        return None
    what, rule = found
    framework = next((name for marker, name in SHELL_MARKERS if marker in f.markup), None)
    if framework is not None:
        what = f"{what}; {framework}"
    return ContentSignal(reason="js_shell", wall=None, rule=rule, vendor=None,
                         detail=f"a JavaScript shell with no content ({what})")


def _shell_sign(f: _Facts) -> tuple[str, str] | None:
    if f.page_letters <= SHELL_MAX_PAGE_LETTERS:
        mount = shells.empty_mount(f.markup) or shells.loading_mount(f.markup)
        if mount is not None:
            return f"an empty {mount}" if "loading" not in mount else f"a {mount}", \
                f"structure:empty {mount}"
        if f.templated:
            return "unrendered {{templates}}", "structure:unrendered templates"
        if _SHELL_NOSCRIPT.search(f.noscript):
            return "a 'please enable JavaScript' notice", "phrase:enable javascript (noscript)"
        if f.page_letters == 0 and not f.alt_text:
            # Nothing at all to see, not even an image: only scripts could fill it.
            return "scripts and no text", "structure:scripts and no text"
        # A little text of its own (walls/soft_404/physicsclassroom_*: a one-line 'not
        # found' page; a server-rendered 404): left to the checks below.
        return None
    if not f.templated_raw and "-bind" not in f.markup and "v-" not in f.markup and \
            "x-text" not in f.markup:
        return None
    # Text beside the shell's own: the site's chrome rendered on the server around templates
    # or bindings the scripts were to fill.
    count, left = shells.template_share(f.layout.content)
    if count >= shells.MIN_TEMPLATES and left <= shells.MAX_CONTENT_LETTERS_BESIDE_TEMPLATES:
        return (f"{count} unrendered {{{{templates}}}} where the content would be",
                "structure:unrendered templates beside chrome")
    bindings = shells.empty_bindings(f.markup)
    if bindings >= shells.MIN_EMPTY_BINDINGS and \
            f.layout.content_letters <= shells.MAX_CONTENT_LETTERS_BESIDE_TEMPLATES:
        return f"{bindings} empty ng-/v- bindings", "structure:empty bindings"
    return None


def _check_soft_404(f: _Facts) -> ContentSignal | None:
    hit = _first(f, _SOFT_404)
    if hit is None:
        return None
    e, rule = hit
    served = "served as success" if f.page.status < 400 else f"served with {f.page.status}"
    return ContentSignal(reason="soft_404", wall=None, rule=rule, vendor=e.vendor,
                         detail=f"a 'not found' page {served}")


def _check_parked(f: _Facts) -> ContentSignal | None:
    hit = _first(f, _PARKED)
    if hit is None:
        return None
    return ContentSignal(reason="parked", wall=None, rule=hit[1], vendor=None,
                         detail="a parked domain (a for-sale or ads page, not the site)")


def _check_thin(f: _Facts) -> ContentSignal | None:
    n = f.main_letters
    if n <= THIN_MAX_MAIN_LETTERS and f.page_letters <= THIN_MAX_PAGE_LETTERS:
        rule = f"length:main text {n} letters"
    elif (n <= THIN_RATIO_MAX_MAIN_LETTERS and f.page.body_bytes > 0
          and n / f.page.body_bytes < THIN_MAX_LETTERS_PER_BYTE):
        rule = f"ratio:{n} letters in {f.page.body_bytes} bytes"
    else:
        return None
    return ContentSignal(reason="thin_text", wall=None, rule=rule, vendor=None,
                         detail=f"very little text ({n} letters of main content)")


_CHECKS: tuple[Callable[[_Facts], ContentSignal | None], ...] = (
    _check_walls, _check_js_shell, _check_soft_404, _check_parked, _check_thin,
)


def judge_content(page: PageView) -> ContentSignal | None:
    """None means the content looks like the page (RETRIEVED as far as content goes)."""
    if page.html is None:
        # Not HTML: walls, shells and not-found pages are HTML; text, JSON and PDF are
        # judged by extraction (no text layer, invalid JSON), not here.
        return None
    f = _Facts(page)
    for check in _CHECKS:
        signal = check(f)
        if signal is not None:
            log.debug("content signal for %s: %s (%s)", page.url, signal.reason, signal.rule)
            return signal
    return None


def soft_404_suspicion(page: PageView) -> str | None:
    """Why the page may be a not-found page served as success, or None (soft404.py)."""
    if page.html is None or urlsplit(page.final_url).path in ("", "/"):
        return None  # a site's root exists by definition
    f = _Facts(page)
    heading = next((h for h in f.headings if _SUSPECT.search(h)), None)
    if heading is not None:
        return f"its title or heading reads like an error page ({heading[:60]!r})"
    chrome = f.layout.chrome_letters
    if f.main_letters <= SUSPECT_MAX_MAIN_LETTERS and \
            chrome >= SUSPECT_MIN_CHROME_SHARE * max(f.main_letters, 1):
        return f"{f.main_letters} letters of text beside {chrome} of navigation and chrome"
    return None
