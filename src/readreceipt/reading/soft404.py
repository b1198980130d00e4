"""Soft 404s by comparison: is this page what the host answers for a path that cannot exist?

The method of the literature (Bar-Yossef et al., "Sic transit gloria telae", WWW 2004;
Meneses et al., "Finding soft 404s", 2012): ask the same host for a random path, and compare
its answer with the page. A host that answers a path that cannot exist with a real 404
serves real 404s, which clears a page merely suspected; a host that answers it with 200 and
near-identical text has served this page as its "not found" page.

Only a *suspected* page is compared (``fingerprint.soft_404_suspicion``): its title or a
heading reads like an error page in any language, or its text is thin beside its navigation.
Pages the table names outright (a heading saying the page was not found) need no probe.

Invariants: pure; resemblance is the Jaccard coefficient of word shingles (``SHINGLE_WORDS``
words) of the two visible texts, after taking out the two URLs' own path words and numbers
(a not-found page often echoes the path asked for); the threshold lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

__all__ = ["CONTAINED", "NEAR_IDENTICAL", "Comparison", "compare", "containment", "resemblance",
           "shingles"]

#: Words per shingle: 4 is Broder's choice for near-duplicate web pages (the literature's).
SHINGLE_WORDS = 4
#: At or above this resemblance the page is the host's answer for a missing path. Two
#: different pages of one site share their chrome; their content keeps them below this
#: (the synthetic pages of tests/pages: a full article beside its site's not-found page
#: 0.2-0.4; a not-found page echoing another path beside the probe's answer 0.9-1.0).
NEAR_IDENTICAL = 0.85
#: A page suspected only for being short is the host's answer only if this share of its
#: main text's shingles is in that answer too.
CONTAINED = 0.9
#: Pages with fewer shingles than this are compared as sets of words instead.
MIN_SHINGLES = 8

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Comparison:
    outcome: str  # "soft_404" | "cleared" | "different"
    resemblance: float | None
    why: str


def _words(text: str, urls: tuple[str, ...]) -> list[str]:
    drop: set[str] = set()
    for url in urls:
        parts = urlsplit(url)
        drop.update(w.lower() for w in _WORD.findall(unquote(parts.path + " " + parts.query)))
    return [w for w in (m.lower() for m in _WORD.findall(text))
            if w not in drop and not w.isdigit()]


def shingles(words: list[str], size: int = SHINGLE_WORDS) -> set[tuple[str, ...]]:
    if len(words) < size:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}


def resemblance(a: str, b: str, urls: tuple[str, ...] = ()) -> float:
    """Jaccard resemblance of the two texts' word shingles (1.0: the same text)."""
    wa, wb = _words(a, urls), _words(b, urls)
    sa, sb = shingles(wa), shingles(wb)
    if min(len(sa), len(sb)) < MIN_SHINGLES:
        sa, sb = {(w,) for w in wa}, {(w,) for w in wb}
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def containment(part: str, whole: str, urls: tuple[str, ...] = ()) -> float:
    """The share of ``part``'s word shingles (or words, for a short part) found in ``whole``."""
    wp, ww = _words(part, urls), _words(whole, urls)
    sp, sw = shingles(wp), shingles(ww)
    if len(sp) < MIN_SHINGLES:
        sp, sw = {(w,) for w in wp}, {(w,) for w in ww}
    if not sp:
        return 1.0
    return len(sp & sw) / len(sp)


def compare(page_text: str, page_url: str, page_final_url: str, probe_status: int | None,
            probe_text: str, probe_url: str, probe_final_url: str | None,
            main_text: str | None = None) -> Comparison:
    """What the probe's answer says about the page. With ``main_text`` (a page suspected only
    for being short), the page's own content must also be in the answer (``CONTAINED``): two
    short pages of one site share most of their chrome, not their content."""
    if probe_status is None:
        return Comparison("different", None, "the probe got no answer")
    if 400 <= probe_status < 500:
        return Comparison("cleared", None, f"the host answers a missing path with "
                          f"{probe_status}, so it serves real not-found pages")
    if not 200 <= probe_status < 300:
        return Comparison("different", None, f"the probe was answered {probe_status}")
    moved = page_final_url != page_url
    if moved and probe_final_url and probe_final_url == page_final_url:
        return Comparison("soft_404", 1.0, "the page and a missing path redirect to the same "
                          f"address ({page_final_url})")
    score = resemblance(page_text, probe_text, (page_url, page_final_url, probe_url,
                                                probe_final_url or probe_url))
    if score >= NEAR_IDENTICAL and main_text is not None and \
            containment(main_text, probe_text, (page_url, page_final_url, probe_url)) < CONTAINED:
        return Comparison("different", score, f"its own content is not in the host's answer "
                          f"for a missing path (resemblance {score:.2f})")
    if score >= NEAR_IDENTICAL:
        return Comparison("soft_404", score, f"its text is near-identical to the host's answer "
                          f"for a missing path (resemblance {score:.2f})")
    return Comparison("different", score, f"its text differs from the host's answer for a "
                      f"missing path (resemblance {score:.2f})")
