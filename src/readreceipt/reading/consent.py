"""Consent walls by a consent platform's own dialog: is the CMP's dialog the page's main thing?

Nearly every European site loads a consent-management platform (CMP), and its dialog rides
on top of the article, which is in the same markup: that is no wall. A consent *wall* is a
page that holds the dialog and nothing else of its own, in whatever language the dialog is
written. So the evidence is the CMP's own markup (``tables/consent.py``: the ids and classes
of OneTrust's, Cookiebot's, Didomi's, Quantcast's, Usercentrics', TrustArc's, Sourcepoint's,
Google Funding Choices' ... dialog containers; or, on a page with the IAB TCF API stub, an
element named as a consent or cookie box shown over the page: a modal, banner, overlay or
dialog by its class words or its role) and the page's structure around it
(``placement.py``'s content: the text outside every chrome):

- a shown dialog container holding at least ``MIN_DIALOG_LETTERS`` letters (a consent
  dialog explains its purposes; "We use cookies. OK" is a bar, not a wall);
- at most ``MAX_OUTSIDE`` letters of content outside every such container, and at most as
  many letters of the extracted main text outside the dialogs' own lines (the shortest
  article of the corpus has 352: an article with a CMP banner has its text beside it).

A consent *interstitial* (Google's and YouTube's "before you continue", Yahoo's and AOL's
consent pages, a publisher's cookie wall) is built differently: the site answers the address
asked for with a page whose form posts the reader's choice to a consent endpoint and then sends
them on (:func:`consent_form`). Its evidence is the form itself: an action whose host is a
consent service (a host label ``consent...`` or ``guce``), or whose path names a consent step
while the form carries the address to continue to (a hidden ``continue``, ``originalDoneUrl``
... or a hidden absolute URL); it has a submit control. Its text is the consent notice, set
before or around the form: the page is the interstitial when everything of the page's content
lies within the form's largest ancestor of at most ``MAX_REGION_LETTERS`` letters (at most
``MAX_OUTSIDE`` letters outside it), the main text is no longer, the page has at most
``MAX_LINKS`` links outside the form (a site's page has its menus, footer and related links;
a consent step links its policies and partners), and the page does not type itself an article
(the caller: schema.org or og:type). A cookie banner on an article is a
script's dialog, not a form posting to a consent service; an article carrying one anyway is
longer or typed an article.

No word of any language is read.

Invariants: pure; the markup is searched for the markers once; one pass over the page tree
the placement already walked (linear in the number of elements).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from readreceipt.reading.basics import letters
from readreceipt.reading.placement import (
    ContentSums,
    Element,
    PageTree,
    content_outside,
    subtree_ends,
    tokens,
)
from readreceipt.reading.redirects import squash
from readreceipt.reading.tables.consent import CONTAINERS, SCRIPT_HOSTS, TCF_API
from readreceipt.reading.tables.redirects import CONTINUATION_NAMES, REFERRER_NAMES

__all__ = ["MAX_MAIN_LETTERS", "MAX_OUTSIDE", "MAX_REGION_LETTERS", "MIN_DIALOG_LETTERS",
           "ConsentDialog", "ConsentForm", "carries_cmp", "consent_dialog", "consent_form",
           "may_hold_consent_form"]

#: Content beside a dialog that is the page's main thing: a site's name and a line or two
#: (the shortest article of the corpus has 352 letters; signin.MAX_BEFORE, by the same
#: measure).
MAX_OUTSIDE = 300
#: A consent dialog's own text: its purposes and vendors' notice (tests/pages/consent/*:
#: 250-900 letters); a cookie bar's one sentence is shorter.
MIN_DIALOG_LETTERS = 150
#: Pages with more main text than this are not parsed for a dialog: a consent page's text,
#: its purposes listed, is shorter (tests/pages/consent/*: at most 900), and most articles on
#: a site with the TCF stub are longer.
MAX_MAIN_LETTERS = 3000
#: Words of an element's class or id that name a consent box, on a page with the TCF stub...
_CONSENT_TOKENS = frozenset({"consent", "cookie", "cookies", "gdpr", "cmp"})
#: ... and that name it a box shown over the page (a cookie *policy* page's text sits in a
#: "cookie-policy" block: tests/pages/hard_negative/cookie_policy_page_with_tcf_stub.html).
_OVERLAY_TOKENS = frozenset({"modal", "popup", "overlay", "banner", "dialog", "notice", "bar",
                             "layer", "wall", "box", "prompt"})
_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
#: A consent interstitial's notice with its form: the purposes, the partners, the choices
#: (Google's "before you continue" lists its purposes in 1,000-2,000 letters; the IAB TCF
#: notice of a publisher's consent page up to about 3,000, longer in German). A page whose
#: content outside the form's largest ancestor of this size is more than a line is a page
#: with a consent form in it.
MAX_REGION_LETTERS = 6000
#: Links of the whole page outside the consent form: a consent step's privacy and cookie
#: policies, its partners' list, a settings page, a help link, a few languages' names.
MAX_LINKS = 30
#: Hidden fields a consent step carries the address to continue to in: the continuation
#: names of redirects (Google's ``continue``, Yahoo's ``originalDoneUrl``, the common
#: redirect parameters: tables/redirects.py) and the referrer's.
_CONTINUATION_NAMES = CONTINUATION_NAMES | REFERRER_NAMES


@dataclass(frozen=True)
class ConsentDialog:
    """A CMP's dialog that is the page's main thing."""

    vendor: str
    outside: int  # letters of content outside the dialogs
    main_outside: int  # letters of the main text outside the dialogs' own lines


def carries_cmp(main_letters: int, markup: Callable[[], str]) -> bool:
    """The cheap test before the page is parsed: short enough, and a CMP's container or the
    TCF stub in the lower-cased markup (``markup()``, asked for only when short enough)."""
    if main_letters > MAX_MAIN_LETTERS:
        return False
    lowered = markup()
    return any(c in lowered for _, c in CONTAINERS) or any(t in lowered for t in TCF_API)


def _overlay_consent_box(node: Element) -> bool:
    """An element named as a consent or cookie box shown over the page (its class or id
    words, or its dialog role)."""
    words = set(tokens(node.attrs))
    if not words & _CONSENT_TOKENS:
        return False
    role = (node.attrs.get("role") or "").strip().lower()
    return bool(words & _OVERLAY_TOKENS) or role in _DIALOG_ROLES or \
        (node.attrs.get("aria-modal") or "").lower() == "true"


def consent_dialog(markup: str, page: PageTree | None, main_text: str,
                   main_letters: int) -> ConsentDialog | None:
    """The CMP dialog that is the page's main thing (module docstring), or None.
    ``markup`` is the lower-cased HTML."""
    if main_letters > MAX_MAIN_LETTERS or page is None:
        return None
    containers = [(v, c) for v, c in CONTAINERS if c in markup]
    tcf = any(t in markup for t in TCF_API)
    if not containers and not tcf:
        return None
    nodes, kinds = page.elements, page.kinds
    end = subtree_ends(nodes)
    boxes: list[tuple[int, int]] = []
    vendors: list[str] = []
    reached = -1
    for index, node in enumerate(nodes):
        if index <= reached or kinds[index] == "hidden" or node.letters < MIN_DIALOG_LETTERS:
            continue
        raw = f"{node.attrs.get('id') or ''} {node.attrs.get('class') or ''}".lower()
        vendor = next((v for v, c in containers if c in raw), None)
        if vendor is None and tcf and _overlay_consent_box(node):
            vendor = "IAB TCF"
        if vendor is None:
            continue
        boxes.append((index, end[index]))
        vendors.append(vendor)
        reached = end[index]
    if not boxes:
        return None
    outside = content_outside(page, boxes)
    if outside > MAX_OUTSIDE:
        return None
    own = {" ".join(t.split()) for first, last in boxes for i in range(first, last + 1)
           for _, t in nodes[i].texts if t.strip()}
    main_outside = sum(letters(line) for line in main_text.split("\n")
                       if (one := " ".join(line.split())) and one not in own)
    if main_outside > MAX_OUTSIDE:
        return None
    vendor = vendors[0]
    if vendor == "IAB TCF":
        vendor = next((v for v, h in SCRIPT_HOSTS if h in markup), vendor)
    return ConsentDialog(vendor, outside, main_outside)


@dataclass(frozen=True)
class ConsentForm:
    """A form posting to a consent endpoint that is the page's main thing."""

    endpoint: str  # the action's host (or its path, when relative)
    outside: int  # letters of content outside the form's region


def may_hold_consent_form(main_letters: int, markup: Callable[[], str]) -> bool:
    """The cheap test before the page is walked: short enough, a form, a consent word or a
    consent service's host label in the lower-cased markup (``markup()``, asked for only when
    short enough)."""
    if main_letters > MAX_REGION_LETTERS:
        return False
    lowered = markup()
    return "<form" in lowered and ("consent" in lowered or "guce." in lowered)


def _endpoint(action: str) -> tuple[str, bool] | None:
    """(what names the endpoint, whether its host is a consent service) for a form action
    posting to a consent step, else None."""
    try:
        parts = urlsplit(action.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    labels = host.split(".")[:-1]
    if any(label.startswith("consent") or label == "guce" for label in labels):
        return host, True
    if "consent" in parts.path.lower():
        return host or parts.path, False
    return None


def consent_form(page: PageTree | None, main_letters: int) -> ConsentForm | None:
    """The form posting to a consent endpoint that is the page's main thing (module
    docstring), or None."""
    if page is None or main_letters > MAX_REGION_LETTERS:
        return None
    nodes, kinds = page.elements, page.kinds
    end = subtree_ends(nodes)
    content: ContentSums | None = None  # made once, for the first form that gets this far
    top_links = sum(n.links for n in nodes if n.parent < 0)
    for index, node in enumerate(nodes):
        if node.tag != "form" or kinds[index] == "hidden":
            continue
        found = _endpoint(node.attrs.get("action") or "")
        if found is None:
            continue
        endpoint, consent_host = found
        inside = nodes[index + 1:end[index] + 1]
        if not any(_submits(n) for n in inside):
            continue
        if not consent_host and not any(_continuation(n) for n in inside):
            continue
        region = index
        while (parent := nodes[region].parent) >= 0 and \
                nodes[parent].letters <= MAX_REGION_LETTERS:
            region = parent
        content = content or ContentSums(page)
        outside = content.outside(region, end[region])[0]
        links = top_links - node.links
        if outside <= MAX_OUTSIDE and links <= MAX_LINKS:
            return ConsentForm(endpoint, outside)
    return None


def _submits(node: Element) -> bool:
    kind = (node.attrs.get("type") or "").strip().lower()
    if node.tag == "button":
        return kind not in ("button", "reset")
    return node.tag == "input" and kind in ("submit", "image")


def _continuation(node: Element) -> bool:
    if node.tag != "input" or (node.attrs.get("type") or "").strip().lower() != "hidden":
        return False
    name = (node.attrs.get("name") or "").strip().lower()
    value = (node.attrs.get("value") or "").strip().lower()
    return squash(name) in _CONTINUATION_NAMES or value.startswith(("http://", "https://"))
