"""Bot checks by their structure, in any language: is a captcha form the page's main thing?

A bot check that no vendor table knows (a site's own captcha, a CDN's or a host's template in
words no table has) is still built the same way: a form holding a captcha (an element whose
id, class or name, or an image whose address, names a captcha: ``captcha``, ``recaptcha``,
``hcaptcha``, ``captchaImage`` ... the word every captcha library and template is coded
with, in every language the page is written in; or a widget whose custom element's tag is
its vendor's, ``tables/vendors.py`` ``CAPTCHA_WIDGET_TAGS``), at most ``MAX_FIELDS`` shown
text field (the answer) and no password field or text area (a sign-in form is judged by signin.py; a
contact or comment form with a captcha has a message box), and the page has nothing else:
at most ``MAX_OUTSIDE`` letters of content outside the form, in at most one block of text of
``BLOCK_LETTERS`` or more (a check page explains itself in a heading and a paragraph; a page
with a captcha under its text has two paragraphs or more), and as little of the extracted
main text outside the form's own lines, on a page with at most ``MAX_MAIN_LETTERS`` of main
text. A form in the site's header, navigation, sidebar or footer (a sign-in or search box
with a captcha) is never the page's main thing.

Invariants: pure; one pass over the page tree the placement already walked (linear in the
number of elements); no words of any language in the decision.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from readreceipt.reading.basics import letters
from readreceipt.reading.placement import (
    WIDGET_PLACES,
    ContentSums,
    Element,
    PageTree,
    subtree_ends,
)
from readreceipt.reading.tables.signin import AUTOCOMPLETE_IDENTIFIER, IDENTIFIER_NAMES
from readreceipt.reading.tables.vendors import CAPTCHA_WIDGET_TAGS

__all__ = ["BLOCK_LETTERS", "MAX_FIELDS", "MAX_MAIN_LETTERS", "MAX_OUTSIDE", "CaptchaForm",
           "captcha_form", "may_hold_captcha"]

#: The answer's field: a form that also asks an e-mail address or a name is a sign-up or a
#: contact form with a captcha (tests/pages/hard_negative/short_page_newsletter_*); a form
#: whose one field is an account's identifier (an e-mail field, a user name) with a captcha
#: widget is a password-recovery or sign-up step (``_asks_identity``).
MAX_FIELDS = 1
#: A check page's content beside its form: a heading and its explanation (the corpus's
#: challenge pages: at most about 500 letters; facts.BLOCK_MAX_MAIN_LETTERS is 800).
MAX_OUTSIDE = 600
#: A block of text this long is a paragraph, not a heading or a label; one may stand beside
#: the form.
BLOCK_LETTERS = 80
MAX_MAIN_LETTERS = 800
_TEXTLIKE = frozenset({"", "text", "email", "tel", "number"})
_MAIL_NAMES = frozenset({"email", "mail", "e", "emailaddress"})
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class CaptchaForm:
    """A captcha form that is the page's main thing."""

    outside: int  # letters of content outside the form's region


def may_hold_captcha(main_letters: int, markup: Callable[[], str]) -> bool:
    """The cheap test: short enough, a form and the word in the lower-cased markup (asked
    for only when the page is short enough)."""
    if main_letters > MAX_MAIN_LETTERS or "<form" not in markup():
        return False
    m = markup()
    return "captcha" in m or any("<" + tag in m for tag in CAPTCHA_WIDGET_TAGS)


def _names_captcha(node: Element) -> bool:
    if node.tag in CAPTCHA_WIDGET_TAGS:
        return True
    a = node.attrs
    raw = " ".join((a.get(k) or "") for k in ("id", "class", "name"))
    if node.tag == "img":
        raw += " " + (a.get("src") or "")
    return "captcha" in raw.lower()


def captcha_form(page: PageTree | None, main_text: str,
                 main_letters: int) -> CaptchaForm | None:
    """The captcha form that is the page's main thing (module docstring), or None."""
    if page is None or main_letters > MAX_MAIN_LETTERS:
        return None
    nodes, kinds = page.elements, page.kinds
    end = subtree_ends(nodes)
    content = ContentSums(page, BLOCK_LETTERS)
    for index, node in enumerate(nodes):
        if node.tag != "form" or kinds[index] in WIDGET_PLACES or \
                (node.parent >= 0 and kinds[node.parent] in WIDGET_PLACES):
            continue
        inside = range(index, end[index] + 1)
        shown = [nodes[i] for i in inside if kinds[i] != "hidden"]
        if not any(_names_captcha(n) for n in shown):
            continue
        kinds_of = [(n.attrs.get("type") or "").strip().lower() for n in shown
                    if n.tag == "input"]
        fields = [n for n in shown if n.tag == "input" and
                  (n.attrs.get("type") or "").strip().lower() in _TEXTLIKE]
        if "password" in kinds_of or any(n.tag == "textarea" for n in shown) or \
                len(fields) > MAX_FIELDS or any(_asks_identity(n) for n in fields):
            continue
        outside, paragraphs = content.outside(index, end[index])
        if outside > MAX_OUTSIDE or paragraphs > 1:
            continue
        own = {" ".join(t.split()) for n in shown for _, t in n.texts if t.strip()}
        main_outside = sum(letters(line) for line in main_text.split("\n")
                           if (one := " ".join(line.split())) and one not in own)
        if main_outside <= MAX_OUTSIDE:
            return CaptchaForm(outside)
    return None


def _asks_identity(field: Element) -> bool:
    """An e-mail or user-name field (its type, autocomplete token or name; signin.py's
    table), never a captcha's answer."""
    a = field.attrs
    if (a.get("type") or "").strip().lower() == "email":
        return True
    if set((a.get("autocomplete") or "").lower().split()) & AUTOCOMPLETE_IDENTIFIER:
        return True
    raw = f"{a.get('name') or ''} {a.get('id') or ''}".lower()
    if "captcha" in raw:
        return False
    tokens = set(_TOKEN.findall(raw))
    return bool(tokens & (IDENTIFIER_NAMES | _MAIL_NAMES))
