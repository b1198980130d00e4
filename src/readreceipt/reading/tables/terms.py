"""Entries built from the maintained vocabularies of vocabulary.py, in every language those
vocabularies translate a concept into:

- ``heading_entry``: a page's own heading that *is* the term (a title segment or a whole
  h1/h2, beside a status code or nothing). A heading that only contains the words ("Hiker not
  found after three days") is news: the term must fill the heading or a segment of the title
  between separators, with at most a status code and punctuation beside it;
- ``label_entry``: a line of the page's text that is the term and nothing else (Squid's
  "Access Denied." stands in a paragraph of its own, not a heading);
- ``phrase_entry``: a *sentence* a framework's or CMS's own template prints ("Briefly
  unavailable for scheduled maintenance", "This account is inactive"), anywhere in the text
  of a page as short as the entry's gate, placed as every wall phrase is (evidence.py). Only
  sentences: a short term ("Account inactive") is a heading's, not a phrase's; and not one
  in quotation marks (news quoting the notice).

All three are alternations of literals (linear in the text).
"""

from __future__ import annotations

import re

from readreceipt.reading.tables.entries import Entry, rx
from readreceipt.reading.tables.vocabulary import TERMS, terms

__all__ = ["coded_term", "evidence_of", "heading_entry", "label_entry", "phrase_entry",
           "title_alternation"]

# A template's sentence quoted is news about it ('visitors saw only "Briefly unavailable for
# scheduled maintenance"': tests/pages/hard_negative/short_news_quotes_wordpress_*): not
# after an opening quotation mark (folded text has straight quotes; guillemets, low and
# corner quotes kept).
_NOT_QUOTED = "(?<![\"\u00ab\u201e\u300c\u300e])"
# Title separators: bar, hyphen, en and em dash, colon, middle dot, bullet.
_SEP = "[|\\-\u2013\u2014:\u00b7\u2022]"


def title_alternation(concept: str) -> str:
    """The concept's terms as one alternation of literals (longest first). A capital dotted
    I lower-cases to "i" and a combining dot: a term holding one is written both ways, as
    pages write it in capitals or not ("Çok Fazla İstek", "çok fazla istek")."""
    forms = {t for term in terms(concept) for t in (term, term.replace("i\u0307", "i"))}
    ordered = sorted(forms, key=lambda t: (-len(t), t))
    return "(?:" + "|".join(re.escape(t) for t in ordered) + ")"


def evidence_of(concept: str) -> tuple[str, str]:
    """(ev, licence) of a concept's entry: how many languages, and whose terms."""
    rows = [t for t in TERMS if t.concept == concept]
    languages = len({t.language for t in rows})
    licence = "; ".join(sorted({t.source.split(" ")[0].split("@")[0] + " " + t.licence
                                for t in rows}))
    return f"vocabulary.py: the {concept!r} terms in {languages} languages", licence


def coded_term(concept: str) -> str:
    """The concept's term with at most a status code and a few marks beside it ("403 -
    Forbidden!", "Access Denied."): the core of a heading's and a line's pattern."""
    return (rf"\W{{0,3}}(\d{{3}}\W{{0,3}})?{title_alternation(concept)}"
            rf"\W{{0,3}}(\d{{3}})?\W{{0,3}}")


def _entry(kind: str, where: str, expr: str, concept: str, name: str, gate: str,
           what: str | None, vendor: str | None) -> Entry:
    ev, licence = evidence_of(concept)
    return rx(kind, where, expr, name, gate=gate, what=what, vendor=vendor, ev=ev,
              licence=licence)


def heading_entry(kind: str, concept: str, name: str, *, gate: str = "block",
                  what: str | None = None, vendor: str | None = None) -> Entry:
    """A heading entry: the page's own heading is the concept's term (module docstring)."""
    return _entry(kind, "heading", rf"(^|{_SEP} ?){coded_term(concept)}( ?{_SEP}|$)",
                  concept, name, gate, what, vendor)


def label_entry(kind: str, concept: str, name: str, *, gate: str = "block",
                what: str | None = None, vendor: str | None = None) -> Entry:
    """A line that is the concept's term, beside a status code or nothing (module docstring)."""
    return _entry(kind, "label", rf"(?m)^{coded_term(concept)}$", concept, name, gate, what,
                  vendor)


def phrase_entry(kind: str, concept: str, name: str, *, gate: str = "block",
                 what: str | None = None, vendor: str | None = None) -> Entry:
    """A template's sentence anywhere in a short page's text (module docstring)."""
    return _entry(kind, "text", _NOT_QUOTED + title_alternation(concept), concept, name, gate,
                  what, vendor)
