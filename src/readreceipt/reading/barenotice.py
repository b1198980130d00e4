"""Bare notices by structure: a page that is one short notice and nothing else.

An outage, maintenance, suspension or block page served in place of a site is, whatever its
language or wording, a few sentences on an otherwise empty page: no link to follow, no
navigation, no form, no table, no article, no media. Every page a site serves as itself has
at least one of those (the corpus's 181 articles and the 1,400-odd pages of mozilla/
readability, postlight/parser and adbar/trafilatura's evaluation set all do: none is bare).
So a page that none of the named rules took (it is judged last, before thin text) and that is
bare is called an interstitial:

- no shown link with an address (``<a href>`` other than ``#``), no form or form control,
  no ``nav``, ``table``, ``article``, ``time``, ``video``, ``audio`` or ``iframe``;
- at most ``MAX_MAIN_LETTERS`` letters of main text and ``MAX_PAGE_LETTERS`` of visible text,
  and more than thin text has (fingerprint.py's thin-text check: a page too short to say what
  it is stays *thin*, an UNKNOWN that names no wall).

It cannot say *which* kind of interstitial (a bot check and an outage look alike when bare):
a named rule that can comes first. Invariants: pure; one pass over the page tree; no words.
"""

from __future__ import annotations

from collections.abc import Callable

from readreceipt.reading.facts import ContentSignal, Facts

__all__ = ["MAX_MAIN_LETTERS", "MAX_PAGE_LETTERS", "check_bare_notice"]

#: A notice of a few sentences: the synthetic pages' bare outage and block notices have up to
#: 218 letters (tests/pages/other_interstitial/page_you_requested_down_for_upkeep.html); the
#: shortest real article in the corpus has 352, and the shortest bare hard negative written
#: here (a single-page app's shell with its hidden not-found view) 254.
MAX_MAIN_LETTERS = 240
#: The whole visible text: a notice's heading, its lines and a signature.
MAX_PAGE_LETTERS = 1000

#: Elements a page that is a site's own carries and a bare notice does not.
_NOT_BARE = frozenset({"form", "input", "button", "select", "textarea", "nav", "table",
                       "article", "time", "video", "audio", "iframe"})


def check_bare_notice(f: Facts, thin: Callable[[Facts], object]) -> ContentSignal | None:
    """An interstitial when the page is a bare notice (module docstring); ``thin``: the
    thin-text check, which keeps the pages it takes."""
    if not 1 <= f.main_letters <= MAX_MAIN_LETTERS or f.page_letters > MAX_PAGE_LETTERS:
        return None
    if thin(f) is not None:
        return None
    page = f.tree
    if page is None:
        return None
    for node, kind in zip(page.elements, page.kinds, strict=True):
        if kind == "hidden":
            continue
        if node.tag in _NOT_BARE:
            return None
        if node.tag == "a" and (node.attrs.get("href") or "").strip() not in ("", "#"):
            return None
    rule = (f"structure:a bare notice ({f.main_letters} letters, no link, no navigation, "
            "no form)")
    return ContentSignal(reason="wall:interstitial", wall="interstitial", rule=rule,
                         vendor=None, detail="an interstitial page: a bare notice, no site "
                                             "around it")
