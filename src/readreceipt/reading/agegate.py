"""Age gates by structure: is a date-of-birth form or an age box the page's main thing?

A wine estate, a brewery or a games publisher asks the reader's age before it shows anything;
what arrives is the question, not the page. Its structure says so in any language:

- a *date-of-birth form*: a form (or, form-less, the block around the field) with a shown
  date field (``type=date``), a field whose ``autocomplete`` token is a birthday's
  (``bday``, ``bday-day``, ``bday-month``, ``bday-year``), a field named as one (``dob``,
  ``birthday``, ``birthdate``, ``birth``...), or a list of at least ``MIN_YEARS`` years to
  pick a year of birth from; not an account's form (a sign-up asks a birthday beside a
  password or an e-mail address, a bank's first sign-in step beside the user ID);
- an *age-verification box*: an element whose id or class names it so (``age-gate``,
  ``agegate``, ``age-verification``, ``age-check``, ``verify-age``: the names the age-gate
  plugins of the common CMSs and shop systems give their overlay), holding something shown.

It is an age gate when the box stands where the content is or in a dialog (not in a header,
navigation, sidebar or footer) and little of the content lies outside it: at most
``MAX_OUTSIDE`` letters of content, and of the extracted main text outside the box's own
lines (consent.py's bound, by the same measure). A shop's product page with an age notice
keeps its description beside it.

Invariants: pure; a cheap test of the markup first; one pass over the page tree (linear).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from readreceipt.reading.basics import letters
from readreceipt.reading.consent import MAX_OUTSIDE
from readreceipt.reading.placement import (
    WIDGET_PLACES,
    Element,
    PageTree,
    content_outside,
    subtree_ends,
)
from readreceipt.reading.tables.signin import IDENTIFIER_NAMES

__all__ = ["MAX_BOXES", "MAX_CLIMB", "MAX_MAIN_LETTERS", "MIN_YEARS", "AgeGate", "age_gate",
           "may_hold_age_gate"]

#: A year-of-birth list: at least this many years between 1900 and 2030 in one select.
MIN_YEARS = 40
#: Pages with more main text than this are not parsed for an age gate.
MAX_MAIN_LETTERS = 3000
#: Boxes measured on one page, at most (each measure is a pass over the page).
MAX_BOXES = 8
#: How far up from a form-less date field to look for the block holding its button.
MAX_CLIMB = 4

#: The cheap test on the lower-cased markup, in attributes only (an article's text says
#: "birthday"): a date field, a birthday's name, an age box's, a year in a list. One pattern
#: for each way, each opening with a literal (the name-or-class way with its "=", the name
#: looked behind): Python's engine then jumps from one occurrence of that literal to the next,
#: where one alternation of the four tried every position of the page (12 ms an article of the
#: corpus, now 3.5; the same pages match).
_MARKUP_WAYS = (
    re.compile(r"type=[\"']?date\b"),
    re.compile(r"autocomplete=[\"']?bday"),
    re.compile(r"=[\"'](?:(?<=name=[\"'])|(?<=id=[\"'])|(?<=class=[\"']))[^\"'>]{0,60}?"
               r"(?:birth|dob\b|bday|geburt|naissance|nacimiento|"
               r"age[-_]?(?:gate|verif|check|confirm)|verify[-_]?age)"),
    re.compile(r"<option[^<>]{0,40}>\s{0,4}19[0-9]{2}\s{0,4}</option>"),
)
#: An age box's id or class: "age-gate", "agegate", "age_verification", "av-age-check".
_AGE_BOX = re.compile(r"(?<![a-z])age[-_]?(?:gate|verif[a-z]{0,9}|check|confirm[a-z]{0,6})|"
                      r"verify[-_]?age")
_NAME_TOKEN = re.compile(r"[a-z0-9]+")
#: Field names a date of birth is given (the word in developers' English the markup uses,
#: and the three most common others').
_BIRTH_NAMES = frozenset({"dob", "birthday", "birthdate", "dateofbirth", "birth", "bday",
                          "geburtsdatum", "geburtstag", "naissance", "nacimiento"})
_BIRTH_AUTOCOMPLETE = frozenset({"bday", "bday-day", "bday-month", "bday-year"})
_YEAR = re.compile(r"19\d\d|20[0-3]\d")


@dataclass(frozen=True)
class AgeGate:
    what: str  # "a date-of-birth form", "an age-verification box"
    outside: int
    main_outside: int


def may_hold_age_gate(main_letters: int, markup: Callable[[], str]) -> bool:
    """The cheap test before the page is parsed (``markup()``: the lower-cased markup, asked
    for only when the page is short enough)."""
    return main_letters <= MAX_MAIN_LETTERS and any(
        way.search(markup()) is not None for way in _MARKUP_WAYS)


def _tokens(node: Element) -> set[str]:
    a = node.attrs
    raw = " ".join((a.get(k) or "") for k in ("name", "id", "autocomplete")).lower()
    return set(_NAME_TOKEN.findall(raw)) | {raw.replace("_", "").replace("-", "")}


def _birth_field(nodes: tuple[Element, ...], index: int, end: list[int]) -> bool:
    node = nodes[index]
    kind = (node.attrs.get("type") or "").strip().lower()
    if node.tag == "input" and kind == "date":
        return True
    if node.tag not in ("input", "select"):
        return False
    auto = set((node.attrs.get("autocomplete") or "").lower().split())
    if auto & _BIRTH_AUTOCOMPLETE or _tokens(node) & _BIRTH_NAMES:
        return True
    if node.tag == "select":
        years = sum(1 for i in range(index + 1, end[index] + 1) if nodes[i].tag == "option"
                    and any(_YEAR.fullmatch(t.strip()) for _, t in nodes[i].texts))
        return years >= MIN_YEARS
    return False


def _block_with_control(nodes: tuple[Element, ...], index: int, end: list[int]) -> int:
    """The nearest ancestor of a form-less field that also holds a button or a link (the
    field's grandparent when none does within ``MAX_CLIMB`` levels)."""
    at = nodes[index].parent
    for _ in range(MAX_CLIMB):
        if at < 0:
            break
        if any(nodes[i].tag in ("button", "a") or (nodes[i].tag == "input" and (
                nodes[i].attrs.get("type") or "").lower() in ("submit", "button"))
               for i in range(at + 1, end[at] + 1)):
            return at
        at = nodes[at].parent
    parent = nodes[index].parent
    return max(nodes[parent].parent if parent >= 0 else 0, 0)


def _account_form(nodes: tuple[Element, ...], start: int, stop: int) -> bool:
    """A sign-up or account form: it asks a password, an e-mail address or an account's
    identifier too (a bank's first sign-in step asks the user ID and the date of birth:
    tests/pages/login/bank_login_step_one_no_password.html)."""
    for i in range(start, stop + 1):
        n = nodes[i]
        if n.tag != "input":
            continue
        kind = (n.attrs.get("type") or "").strip().lower()
        auto = set((n.attrs.get("autocomplete") or "").lower().split())
        if kind in ("password", "email") or "username" in auto or \
                _tokens(n) & IDENTIFIER_NAMES:
            return True
    return False


def age_gate(page: PageTree | None, main_text: str) -> AgeGate | None:
    """The age gate that is the page's main thing (module docstring), or None."""
    if page is None:
        return None
    nodes, kinds = page.elements, page.kinds
    end = subtree_ends(nodes)
    boxes: list[tuple[str, int]] = []
    form = [-1] * len(nodes)
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0:
            form[index] = parent if nodes[parent].tag == "form" else form[parent]
        if kinds[index] in WIDGET_PLACES:
            continue
        raw = f"{node.attrs.get('id') or ''} {node.attrs.get('class') or ''}".lower()
        if _AGE_BOX.search(raw) and (node.letters > 0 or any(
                nodes[i].tag in ("button", "input", "select", "a")
                for i in range(index + 1, end[index] + 1))):
            boxes.append(("an age-verification box", index))
        elif _birth_field(nodes, index, end):
            box = form[index] if form[index] >= 0 else _block_with_control(nodes, index, end)
            if not _account_form(nodes, box, end[box]):
                boxes.append(("a date-of-birth form", box))
    seen: set[int] = set()
    for what, box in boxes:
        if box in seen or len(seen) >= MAX_BOXES:
            continue
        seen.add(box)
        outside = content_outside(page, [(box, end[box])])
        if outside > MAX_OUTSIDE:
            continue
        own = {" ".join(t.split()) for i in range(box, end[box] + 1)
               for _, t in nodes[i].texts if t.strip()}
        main_outside = sum(letters(line) for line in main_text.split("\n")
                           if (one := " ".join(line.split())) and one not in own)
        if main_outside <= MAX_OUTSIDE:
            return AgeGate(what, outside, main_outside)
    return None
