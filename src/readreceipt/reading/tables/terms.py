"""Entries built from the maintained vocabularies of vocabulary.py: a page's own heading that
*is* the term (a title segment or a whole h1/h2, beside a status code or nothing), in every
language those vocabularies translate it into.

A heading that only contains the words ("Hiker not found after three days") is news: the term
must fill the heading or a segment of the title between separators, with at most a status code
and punctuation beside it.
"""

from __future__ import annotations

import re

from readreceipt.reading.tables.entries import Entry, rx
from readreceipt.reading.tables.vocabulary import TERMS, terms

__all__ = ["heading_entry", "title_alternation"]

# Title separators: bar, hyphen, en and em dash, colon, middle dot, bullet.
_SEP = "[|\\-\u2013\u2014:\u00b7\u2022]"
_SOURCES = "; ".join(sorted({t.source.split(" locales/")[0].split(" docs/")[0] + " "
                             + t.licence for t in TERMS}))


def title_alternation(concept: str) -> str:
    """The concept's terms as one alternation of literals (longest first). A capital dotted
    I lower-cases to "i" and a combining dot: a term holding one is written both ways, as
    pages write it in capitals or not ("Çok Fazla İstek", "çok fazla istek")."""
    forms = {t for term in terms(concept) for t in (term, term.replace("i\u0307", "i"))}
    ordered = sorted(forms, key=lambda t: (-len(t), t))
    return "(?:" + "|".join(re.escape(t) for t in ordered) + ")"


def heading_entry(kind: str, concept: str, name: str, *, gate: str = "block",
                  what: str | None = None) -> Entry:
    """A heading entry: the page's own heading is the concept's term (module docstring)."""
    languages = len({t.language for t in TERMS if t.concept == concept})
    expr = (rf"(^|{_SEP} ?)\W{{0,3}}(\d{{3}}\W{{0,3}})?{title_alternation(concept)}"
            rf"\W{{0,3}}(\d{{3}})?\W{{0,3}}( ?{_SEP}|$)")
    return rx(kind, "heading", expr, name, gate=gate, what=what,
              ev=f"vocabulary.py: the {concept!r} terms in {languages} languages",
              licence=_SOURCES)
