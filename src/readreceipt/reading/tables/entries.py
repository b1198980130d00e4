"""The shape of an entry in the tables of evidence (walls.py, access.py, notfound.py, vendors.py).

An entry names one thing a page or a response can carry that shows it is not the page asked
for; the fingerprint (fingerprint.py, evidence.py) decides *when* an entry may fire (how short
the page must be, where on the page the words sit); the tables only say *what* to look for and
why.

Invariants of every table:
- Patterns are matched against *folded* text: lower case, one space for any run of
  whitespace, curly quotes made straight (``facts.fold``); markup patterns against the
  lower-cased HTML. So every pattern is written in lower case.
- ``gate`` says how thin the page must be for the entry to count (``GATES`` in ``facts.py``
  holds the numbers): ``empty`` for a vendor's script, which ordinary pages also load (only a
  page with nothing to read is its challenge); ``bare`` for a captcha widget, which also sits
  under comment forms; ``block`` for a page that is the wall and nothing else; ``teaser`` for
  a paywall, which keeps a few paragraphs; ``tail`` for a wall phrase at the very end of the
  main content, on a page of any length (an article cut off by its own wall).
- ``ev`` (evidence) says where the entry was seen: a corpus page (``walls/<label>/...``,
  ``articles``) or the vendor's own page layout.
- Nothing is keyed on a site's name or on a string only one page carries. Platform markers
  (Google's, YouTube's, Weibo's gate pages) are layouts every page of that platform shares.
- ``evidence`` names the kind of evidence the entry is (``EVIDENCE_KINDS``), which the rule
  a verdict records begins with: ``vendor`` for a vendor's or platform's own markup, headers,
  cookies or the fixed text of its template (the same on every site it fronts, in whatever
  language the site is written), ``structure`` for what a page's markup shows whatever its
  language (a password field, a status code in its own heading), ``wording`` for words a
  site chose. ``licence`` says under what terms the entry's words were taken from a
  maintained vocabulary (``vocabulary.py``); entries written here from what pages show leave
  it empty.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EVIDENCE_KINDS", "Entry", "HeaderRule", "alt", "lit", "rx"]

#: The kinds of evidence a verdict can rest on, the language-free ones first. A recorded
#: rule begins with one of them (docs/record.md, ``rule``).
EVIDENCE_KINDS = ("structure", "comparison", "answer", "vendor", "publisher", "wording")


@dataclass(frozen=True)
class Entry:
    """One thing to look for.

    ``where``: ``title`` (the document title), ``heading`` (title, h1 or h2, each on its
    own), ``text`` (all visible text, noscript text, and image alt text on a page with no
    text), ``label`` (a line of visible text short enough to be a label, not a sentence of
    prose: ``facts.LABEL_MAX_CHARS``), ``markup`` (the lower-cased HTML) or ``tail`` (the
    end of the main text).
    ``expr`` is a regular expression unless ``literal``; a markup regex carries an
    ``anchor``, a substring it cannot match without, so a 1 MB page is not run through
    the regex engine unless the anchor is there.
    """

    kind: str
    where: str
    expr: str
    name: str
    gate: str
    vendor: str | None
    what: str | None
    literal: bool
    anchor: str | None
    ev: str
    evidence: str = "wording"
    licence: str = ""


@dataclass(frozen=True)
class HeaderRule:
    """A response header that names a wall; ``value`` is a substring of its lower-cased value."""

    kind: str
    header: str
    value: str
    vendor: str
    gate: str
    ev: str


def _kind_of(where: str, evidence: str | None, vendor: str | None) -> str:
    """Markup patterns, and the words of an entry naming its vendor (the fixed text of the
    vendor's template), are a vendor's or platform's own unless said otherwise."""
    return evidence or ("vendor" if where == "markup" or vendor else "wording")


def lit(kind: str, where: str, s: str, *, name: str | None = None, gate: str = "block",
         vendor: str | None = None, what: str | None = None, ev: str = "",
         evidence: str | None = None, licence: str = "") -> Entry:
    return Entry(kind, where, s, name or s, gate, vendor, what, True, None, ev,
                 _kind_of(where, evidence, vendor), licence)


def rx(kind: str, where: str, expr: str, name: str, *, gate: str = "block",
        vendor: str | None = None, what: str | None = None, anchor: str | None = None,
        ev: str = "", evidence: str | None = None, licence: str = "") -> Entry:
    return Entry(kind, where, expr, name, gate, vendor, what, False, anchor, ev,
                 _kind_of(where, evidence, vendor), licence)


def alt(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"
