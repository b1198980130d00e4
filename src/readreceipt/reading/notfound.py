"""Not-found and parked pages served as success, judged from the page alone.

The tables (tables/notfound.py) name what says outright that a page is not there (a heading
saying the page was not found, in any language the table knows; a platform's own error
status; a registrar's parking page); ``SOFT_404_SUSPECT`` only raises a suspicion, which the
host's own answer for a path that cannot exist settles (soft404.py, fetching/probe.py).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from readreceipt.reading.evidence import first
from readreceipt.reading.facts import ContentSignal, Facts, PageView, compile_entries
from readreceipt.reading.parking import parked_by_structure
from readreceipt.reading.tables.notfound import (
    NO_RESULTS,
    PARKED,
    SEARCH_KEYS,
    SEARCH_SEGMENTS,
    SOFT_404,
    SOFT_404_SUSPECT,
)
from readreceipt.reading.tables.platforms import PLACEHOLDERS

__all__ = ["NO_RESULTS", "PARKED", "SOFT_404", "SOFT_404_SUSPECT", "SUSPECT_MAX_MAIN_LETTERS",
           "SUSPECT_MIN_CHROME_SHARE", "check_parked", "check_soft_404", "home_address",
           "soft_404_suspicion"]

# Suspected of being a not-found page (only a suspicion: the soft-404 probe decides): main
# text shorter than the shortest article in the corpus (352 letters) beside at least three
# times as much chrome (walls2/soft_404/bits_pilani_*: 173 letters beside 7,835 of links).
SUSPECT_MAX_MAIN_LETTERS = 350
SUSPECT_MIN_CHROME_SHARE = 3.0

_SOFT_404 = compile_entries(SOFT_404)
_NO_RESULTS = compile_entries(NO_RESULTS)
_PARKED = compile_entries(PARKED + PLACEHOLDERS)
_SUSPECT = re.compile(SOFT_404_SUSPECT)


def check_soft_404(f: Facts) -> ContentSignal | None:
    hit = first(f, _SOFT_404)
    if hit is None and not _search_address(f.page.url):
        hit = first(f, _NO_RESULTS)
        if hit is not None:
            hit = hit[0], f"{hit[1]}; the address asked for is not a search"
    if hit is None:
        return None
    e, rule = hit
    served = "served as success" if f.page.status < 400 else f"served with {f.page.status}"
    return ContentSignal(reason="soft_404", wall=None, rule=rule, vendor=e.vendor,
                         detail=f"a 'not found' page {served}")


def check_parked(f: Facts) -> ContentSignal | None:
    """A parked domain: by its structure first (parking.py: where its links, forms and
    scripts go), then by the table's words and markers."""
    rule = parked_by_structure(f)
    if rule is None:
        hit = first(f, _PARKED)
        if hit is None:
            return None
        rule, what = hit[1], hit[0].what
    else:
        what = None
    return ContentSignal(reason="parked", wall=None, rule=rule, vendor=None,
                         detail=what or "a parked domain (a for-sale or ads page, not the site)")


def _search_address(url: str) -> bool:
    """Whether ``url`` asks for a search (a search segment in its path, or a search key)."""
    parts = urlsplit(url)
    segments = {s.lower() for s in parts.path.split("/") if s}
    keys = {kv.split("=", 1)[0].lower() for kv in parts.query.split("&") if kv}
    return bool(segments & SEARCH_SEGMENTS or keys & SEARCH_KEYS)


def soft_404_suspicion(page: PageView) -> str | None:
    """Why the page may be a not-found page served as success, or None (soft404.py)."""
    if page.html is None or urlsplit(page.url).path in ("", "/"):
        return None  # a site's root exists by definition
    asked, answered = urlsplit(page.url), urlsplit(page.final_url)
    if answered.path in ("", "/") and not answered.query and \
            _host(answered.netloc) == _host(asked.netloc) and not _home_alias(asked.path):
        # A deep address answered by the site's home page: the classic soft 404 of a site
        # that sends every missing path home (the probe then redirects there too).
        return f"the address asked for ({asked.path[:60]}) was redirected to the home page"
    f = Facts(page)
    heading = next((h for h in f.headings if _SUSPECT.search(h)), None)
    if heading is not None:
        return f"its title or heading reads like an error page ({heading[:60]!r})"
    chrome = f.layout.chrome_letters
    if f.main_letters <= SUSPECT_MAX_MAIN_LETTERS and \
            chrome >= SUSPECT_MIN_CHROME_SHARE * max(f.main_letters, 1):
        return f"{f.main_letters} letters of text beside {chrome} of navigation and chrome"
    return None


def _host(netloc: str) -> str:
    host = netloc.lower().rsplit("@", 1)[-1]
    return host.removeprefix("www.")


_HOME_ALIASES = re.compile(r"^/?((index|default|home|start)(\.[a-z]{2,5})?|[a-z]{2}([-_][a-z]{2})?)"
                           r"/?$", re.I)


def home_address(url: str) -> bool:
    """Whether ``url`` names a site's home page (its root, or another name of it)."""
    path = urlsplit(url).path
    return path in ("", "/") or _home_alias(path)


def _home_alias(path: str) -> bool:
    """Whether a path is another name of the home page (/index.html, /home, /en/)."""
    return _HOME_ALIASES.match(path) is not None
