"""Sign-in forms by their structure, in any language: is a credential form the page's main thing?

A *credential box* is one of:

- a form (or, for a form-less script page, the nearest block around the field that also holds
  a button) with a shown password field;
- an *identifier-first* form: exactly one shown text field, named as an account's
  identifier (its ``autocomplete`` token or its name, ``tables/signin.py``), and at most two
  buttons: the first step of a two-step sign-in;
- a *sign-in by text message*: exactly two shown fields, a phone number (its ``tel`` type or
  its name) and a one-time code (its ``one-time-code`` token or its name), and at most three
  buttons (send the code, refresh a captcha, submit);
- links or buttons to identity providers' sign-in endpoints ("sign in with Google/Apple..."),
  at least two providers, or one inside a box above.

Search boxes, newsletter sign-ups (an e-mail field and a button, the shape of an
identifier-first form) and comment forms are not credential boxes (their names say so).

The box is the page's *main thing* when it stands where the content is (not in a header,
navigation, sidebar, footer, teaser or hidden element; a dialog only on an otherwise bare
page; in a block the link density takes for a list of links, only on a page with almost no
main text beside it: a mobile sign-in page among its language links) and little of the
content lies outside it, measured on the page's structure, not its words
(``placement.py``'s content: text outside every chrome): at most ``MAX_BEFORE`` letters of
content before the box, at most ``MAX_BESIDE`` letters beside it in all, no more than
``MAX_LONG_PARAGRAPHS`` paragraphs of prose (``LONG_PARAGRAPH`` letters each) outside it
(``MAX_LONG_AFTER`` when all of them follow the box and no h1 does: a sign-in page's pitch
under its form, testimonials or legal addresses), and
the extracted main text, less the box's own lines, within the same bound (for a box in the
main column, less too the lines the structure sets aside as chrome that holds no page's own
text: hidden elements, dialogs, navigation, the site's header and footer, and a line the
extractor joined from a run of such texts in document order, :func:`set_aside_lines`; an
extractor that finds no article takes a shop's menus, its
promotion banner, its footer's addresses, a cookie dialog or a hidden carousel for the main
text, and none of them stands beside the form); and no listing
(a run of entries: a forum's boards, a shop's products, a portal's headlines, ``listings.py``)
stands in the box's region beside it. An article with a
sign-in box (in its header, its sidebar, or under it for comments) has its text before the
box, or in paragraphs of prose; a sign-in page has a heading, a few sentences of
reassurance and links around its form.

Where the structure is less plain: a box in a container a script opens on a click (its class
or id words: ``tables/signin.py`` ``SCRIPT_SHOWN``; a hiding class) is a dialog; a gallery of
products or pictured headlines anywhere outside the box (``listings.py``) makes it a widget;
and a box in a list of links, a sidebar, a teaser or the main column is the page's main thing
when the rest of the page is chrome only (``CHROME_ONLY_PLACES``: next to no content,
teasers or sidebars beside it, no prose paragraph, at most ``CHROME_ONLY_MAX_PROSE`` letters
of the main text beside it that are not links' whole texts, and no listing in its region, nor
gallery, dated run, ``main`` element or header sign-in widget elsewhere). Identity
providers' buttons include any OpenID 2.0 or OAuth 2.0 sign-in request
(``AUTHORIZATION_REQUESTS``).

Invariants: pure; one pass over the page tree the placement already walked (linear in the
number of elements); no words of any language in the decision.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace

from readreceipt.reading.basics import letters
from readreceipt.reading.listings import Listings
from readreceipt.reading.placement import (
    HIDING_CLASSES,
    WIDGET_PLACES,
    WRAPPER_MIN_LETTERS,
    WRAPPER_SHARE,
    ContentSums,
    Element,
    PageTree,
    subtree_ends,
)
from readreceipt.reading.tables.signin import (
    AUTHORIZATION_REQUESTS,
    AUTOCOMPLETE_IDENTIFIER,
    AUTOCOMPLETE_PASSWORD,
    CODE_NAMES,
    IDENTIFIER_NAMES,
    IDENTITY_PROVIDER_MARKUP,
    IDENTITY_PROVIDERS,
    NOT_CREDENTIAL,
    PHONE_NAMES,
    PROVIDER_PARAMETERS,
    SCRIPT_SHOWN,
    SEARCH_NAMES,
    SIGN_IN_FORM_NAMES,
    SIGN_UP_NAMES,
)

__all__ = ["CHROME_ONLY_MAX_PROSE", "CHROME_ONLY_PLACES", "LONG_PARAGRAPH", "MAX_BEFORE",
           "MAX_BESIDE", "MAX_BOX_LETTERS", "MAX_LONG_AFTER", "MAX_LONG_PARAGRAPHS",
           "OFFER_PLACES", "PROVIDER_NEEDLES", "SET_ASIDE", "SignIn", "set_aside_lines",
           "sign_in_boxes"]

#: Content before the box: a sign-in page's heading and a sentence or two (the corpus's
#: sign-in pages: 0-127 letters; tests/pages/login/*: up to 260). An article's own text
#: stands before a comment form's sign-in box (the shortest article: 352 letters).
MAX_BEFORE = 300
#: Content beside the box in all: a sign-in page's reassurances, help and sign-up offers,
#: security notices (tests/pages/login/*_with_text_*: up to 1,900 letters).
MAX_BESIDE = 2500
#: The letters of a sign-in box itself, at most, as the content's bound counts them (its
#: labels, buttons, help links and the sign-up offer in the same column): a page whose
#: content outside every chrome exceeds MAX_BEFORE + MAX_BESIDE + this is not weighed at all.
MAX_BOX_LETTERS = 2000
#: A paragraph of prose: a text block this long (an article's paragraph; a sign-in page's
#: notices are shorter).
LONG_PARAGRAPH = 200
MAX_LONG_PARAGRAPHS = 2
#: Paragraphs of prose all after the box, with no h1 after it: a sign-in page's pitch under
#: its form (testimonials, benefits, legal addresses: 3-5 on bench/devset4_labels.tsv's and
#: scrapy/loginform's sign-in pages).
MAX_LONG_AFTER = 5
#: Beside more content than a page that is only a wall (facts.BLOCK_MAX_MAIN_LETTERS), the
#: page's top-level heading must not come after the box: a site's sign-in widget in a left
#: column stands before the article's own h1 (a blog post in trafilatura's evaluation pages,
#: pointofsail-kiel.de; a sign-in page's heading names the sign-in, above or in its form).
BLOCK_BESIDE = 800
#: Headings that may title a sign-in box: text before the box's own heading is the page's
#: other blocks (a welcome column, a site's intro), not what the box stands under. The
#: nearest of them before the box is its heading; only an h1 lets more than MAX_BEFORE
#: letters stand before it (SignIn.under_heading).
_HEADINGS = frozenset({"h1", "h2", "h3"})
#: Main text beside a box that stands in a list of links, at most (the gate of a page with
#: almost nothing else, facts.BARE_MAX_MAIN_LETTERS): a sign-in page whose form sits among
#: its language and help links has a heading and a line or two; a portal or a forum index
#: with a quick-login box among its links has its headlines and boards.
LINKS_MAX_MAIN_OUTSIDE = 200
#: Places where a box is the page's main thing when the rest of the page is only chrome
#: (SignIn.main_thing): the widget places but a header, a footer, a hidden element or an
#: advert; and the main column (placement.py's content, a form's own block), where the
#: extracted main text may be a list of links the structure does not set aside (Fathom's
#: fa_login_206, a shop's menu of 5,400 letters of links beside 240 of content).
CHROME_ONLY_PLACES = frozenset({"links", "sidebar", "teaser", "content", "form"})
#: Chrome that holds offers of the site or of other pages (teasers, sidebars, adverts): beside
#: a box, the rest of the page is then not chrome only.
OFFER_PLACES = frozenset({"teaser", "sidebar", "advert"})
#: The extracted main text outside such a box, less chrome set aside and links' whole texts,
#: at most: bench/devset4_labels.tsv's sign-in pages in a side column or a list of links have
#: 0-700 letters there (a reset-password panel, a promotion banner, a country's address),
#: one 1,700 (fa_login_359, a shop's reviews widget: missed); a shop's home page among its
#: category menu (fa_hardneg_379) 1,400.
CHROME_ONLY_MAX_PROSE = 1000
#: Chrome whose text is never the page's own (what the main text beside a box leaves out):
#: hidden elements, dialogs, navigation, the site's header and footer (placement.py). Not a
#: sidebar, a teaser, a form or a list of links: a shop's home page has its offers there.
SET_ASIDE = frozenset({"hidden", "dialog", "navigation", "header", "footer"})
#: Inline elements: their text is part of the line of the block around them.
_INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em",
                     "font", "i", "kbd", "label", "mark", "q", "s", "samp", "small", "span",
                     "strong", "sub", "sup", "time", "u", "var"})
#: A main-text line that is a run of text nodes (set_aside_lines): how many nodes it may
#: start at, how many of its first words may name the first node, and the walk's steps a
#: character of the page's text, at most.
_RUN_STARTS = 4
_RUN_PREFIX_WORDS = 12
_RUN_STEPS = 4
#: Main elements a box is tested against, at most (a page shows one).
MAX_MAINS = 3
#: How far up from a form-less password field to look for the block holding its button.
MAX_CLIMB = 5

_TEXTLIKE = frozenset({"", "text", "email", "password", "tel", "number"})
_BUTTON_INPUTS = frozenset({"submit", "image", "button"})
_NAME_TOKEN = re.compile(r"[a-zà-öø-ÿ0-9]+")
#: A camel-case hump ("modalWindow"): split before the capital, then tokens as above.
_HUMP = re.compile(r"([a-z0-9])([A-Z])")
#: Characters of a class or id value read for its words (a longer value is generated noise).
_MAX_CLASS_CHARS = 400
#: Elements that may be an identity provider's button (a link, a button, a form, or the
#: provider's own markup on a div or span).
_PROVIDER_TAGS = frozenset({"a", "button", "form", "div", "span"})
#: Substrings of the lower-cased markup without which no identity provider is named
#: (tables/signin.py): the caller's cheap test.
PROVIDER_NEEDLES = ("oauth", "accounts.google.com", "appleid", "g_id_", "fb-login-button",
                    "microsoftonline", "amazon.com/ap/oa", "open.weixin.qq.com",
                    "openid.mode", "response_type")


@dataclass(frozen=True)
class SignIn:
    """A credential box and how much content stands outside it."""

    what: str  # "a password field", "a user-name field and one button", "sign-in buttons (...)"
    place: str  # "content" or the kind of chrome around it
    before: int  # letters of content before the box
    beside: int  # letters of content outside the box, before and after
    long_paragraphs: int  # paragraphs of prose outside the box
    heading_after: bool  # a top-level heading (h1) of the content stands after the box
    box_lines: frozenset[str]  # the box's own text, a line a text node (whitespace folded)
    #: Content before the box but after the box's own heading (the nearest h1-h3 before it,
    #: when it is an h1 and no h1 stands before it); None when there is no such heading, the
    #: nearest is an h2 or h3 (a site's module among modules titled alike), a paragraph of
    #: prose stands before the box, or the box is a sign-up form (two password fields, or a
    #: ``new-password`` one: an account is made, not signed in to).
    under_heading: int | None = None
    #: A listing (a run of entries: boards, products, headlines) lies in the box's region,
    #: outside it (listings.py): the box is a widget beside the page's entries.
    beside_listing: bool = False
    #: Letters outside the box in teasers, sidebars and adverts (``OFFER_PLACES``).
    widgets_beside: int = 0
    #: The page has its own things elsewhere, by structure: a gallery or a dated run stands
    #: anywhere outside the box (listings.py); the page's ``main`` element (HTML's main
    #: content; ``role=main``), with more than ``MAX_BEFORE`` letters, does not hold the box;
    #: or another credential box of the page stands in its header or navigation (the site's
    #: sign-in widget: scrapy/protego's arvest.com home page, its log-in options in the menu
    #: as well).
    page_elsewhere: bool = False
    #: Paragraphs of prose before the box (``long_paragraphs`` counts both sides).
    long_before: int = 0
    #: Letters of the whole page, chrome too, outside the outermost dialog (or container a
    #: script opens) around the box: what a dialog's box stands over.
    outside_dialog: int = 0

    def main_thing(self, main_outside: int, shown_outside: int | None = None,
                   prose_outside: int | None = None) -> bool:
        """Whether the box is the page's main thing (module docstring). ``main_outside``: the
        extracted main text's letters outside the box; ``shown_outside``: those of them that
        the structure does not set aside as chrome (:func:`set_aside_lines`), when measured;
        ``prose_outside``: those of these that are not a link's whole text (a menu's items
        an extractor took), when measured."""
        if self.place in CHROME_ONLY_PLACES and not self.page_elsewhere and \
                not self.beside_listing and prose_outside is not None and \
                not self.long_paragraphs and self.beside + self.widgets_beside <= MAX_BEFORE and \
                prose_outside <= CHROME_ONLY_MAX_PROSE:
            # The rest of the page is chrome: next to no content outside every chrome, no
            # listing or gallery, and what the extractor found beside the box is menus'
            # links and a few lines. The box is the page's main thing even where the
            # structure took it for a side column or a list of links (a shop's sign-in page
            # inside its layout's "sidebar" cell, among its mega menu's links).
            return True
        if self.place == "dialog":
            # A dialog over a page: only on a page with next to nothing else, by the
            # extractor's count as well (a shop's home page under a sign-in dialog a click
            # opened has its offers in blocks the structure may take for chrome; its gallery
            # of products, listings.py, says so whatever their text).
            # And over a page that is bare in all, its chrome too: no more than a sign-in
            # page holds beside its box (a shop's home page of menus and brand links under
            # its sign-in and registration popups, ya_parser's boutique.ru: 4,435 letters;
            # every development page with such a box and little content beside it has 2,786
            # to 7,264, and no sign-in page of any set has its box in a dialog).
            return not self.beside_listing and self.beside <= MAX_BEFORE and \
                main_outside <= MAX_BEFORE and self.outside_dialog <= MAX_BESIDE
        if self.place == "links" and not self.beside_listing:
            # A box the link density took for a list of links (a mobile sign-in page under
            # its list of languages): the page's main thing only on a page with almost
            # nothing else to read.
            return self.beside <= MAX_BEFORE and main_outside <= LINKS_MAX_MAIN_OUTSIDE
        if self.place in WIDGET_PLACES or self.beside_listing:
            return False
        if shown_outside is not None:
            # A box in the main column: what an extractor took from the chrome around it (a
            # menu, a banner, a footer, a dialog, a hidden carousel) is not beside it. (Not for
            # a box in a dialog or a list of links: the page's own text may then be what the
            # structure took for chrome; scrapy/protego's arvest.com home page.)
            main_outside = shown_outside
        if self.beside > BLOCK_BESIDE and self.heading_after:
            return False  # the page's own heading comes after the box: the box is a widget
        before = self.before <= MAX_BEFORE or (
            self.under_heading is not None and self.under_heading <= MAX_BEFORE)
        # A sign-in page may follow its form with its pitch (customers' testimonials, the
        # service's benefits, the company's legal addresses): paragraphs of prose after the
        # box, none before it and no top-level heading after it. An article's prose has its
        # own h1, or stands before a comment form's box.
        paragraphs = MAX_LONG_PARAGRAPHS if self.long_before or self.heading_after else \
            MAX_LONG_AFTER
        return (before and self.beside <= MAX_BESIDE
                and self.long_paragraphs <= paragraphs and main_outside <= MAX_BESIDE)


def _name_tokens(node: Element) -> set[str]:
    a = node.attrs
    raw = " ".join((a.get(k) or "") for k in ("name", "id", "class", "autocomplete"))
    return set(_NAME_TOKEN.findall(raw.lower()))


def _type(node: Element) -> str:
    return (node.attrs.get("type") or "").strip().lower()


def _provider(node: Element) -> str | None:
    if node.tag in ("a", "form", "button"):
        target = " ".join((node.attrs.get(k) or "") for k in ("href", "action", "formaction",
                                                                "data-href")).lower()
        for name, needle in IDENTITY_PROVIDERS:
            if needle in target:
                return name
        if any(all(part in target for part in request) for request in AUTHORIZATION_REQUESTS):
            return _requested_provider(target)
    classes = _name_tokens(node)
    for name, parts in IDENTITY_PROVIDER_MARKUP:
        if all(p in classes for p in parts):
            return name
    return None


def _requested_provider(target: str) -> str:
    """The name of an OpenID or OAuth 2.0 sign-in request's provider: the host it goes to,
    and the provider a broker is asked for (``identityprovider=``, ``idp=``, ``provider=``):
    one broker's links to several providers are several providers."""
    href = target.split()[0] if target.split() else ""
    host = href.split("//", 1)[1].split("/", 1)[0] if "//" in href else ""
    asked = ""
    for key in PROVIDER_PARAMETERS:
        at = href.find(key)
        if at >= 0 and (at == 0 or href[at - 1] in "?&;"):
            asked = href[at + len(key):].split("&", 1)[0][:40]
            break
    return f"{host or 'this site'}{'/' + asked if asked else ''} (OpenID/OAuth)"


def sign_in_boxes(page: PageTree, main_text: str, *, providers: bool = True) -> list[SignIn]:
    """Every credential box on the page, with what stands outside it (module docstring).
    ``providers``: whether the markup names an identity provider at all (the caller's cheap
    test; without one, no element is asked)."""
    nodes, kinds = page.elements, page.kinds
    end = subtree_ends(nodes)
    form = [-1] * len(nodes)
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0:
            form[index] = parent if nodes[parent].tag == "form" else form[parent]
    total = nodes[0].letters if nodes else 0
    wrappers = {i for i, n in enumerate(nodes) if n.tag == "form" and
                n.letters > WRAPPER_MIN_LETTERS and n.letters > WRAPPER_SHARE * total}
    boxes: dict[int, str] = {}
    button_counts = [0]
    for node in nodes:
        button_counts.append(button_counts[-1] + _is_button(node))
    for index, node in enumerate(nodes):
        if node.tag == "form" and index not in wrappers:
            what = _credential_form(nodes, kinds, index, end[index])
            if what:
                boxes[index] = what
        elif node.tag == "input" and _type(node) == "password" and kinds[index] != "hidden" and \
                (form[index] < 0 or form[index] in wrappers):
            # A form-less field, or one inside a form that wraps the whole page (ASP.NET's
            # one form per page): its box is the block around it that holds its button.
            box = _block_with_button(nodes, index, end, button_counts)
            boxes.setdefault(box, "a password field")
    buttons = [(i, name) for i, n in enumerate(nodes)
               if providers and n.tag in _PROVIDER_TAGS and kinds[i] != "hidden"
               and (name := _provider(n)) is not None]
    if buttons:
        at = [i for i, _ in buttons]  # in document order
        for box in list(boxes):
            inside = sorted({name for _, name in
                             buttons[bisect_left(at, box):bisect_right(at, end[box])]})
            if inside:
                boxes[box] += f" and sign-in buttons ({', '.join(inside)})"
        boxed = _covered(len(nodes), [(b, end[b]) for b in boxes])
        free = [(i, name) for i, name in buttons if not boxed[i]]
        if len({name for _, name in free}) >= 2:
            box = _common_ancestor(nodes, [i for i, _ in free], end)
            boxes[box] = f"sign-in buttons ({', '.join(sorted({n for _, n in free}))})"
    if not boxes:
        return []
    sums = _PageSums(page)
    listings = Listings.of(page)
    opened = _script_shown(page, wrappers_from=max(WRAPPER_MIN_LETTERS, WRAPPER_SHARE * total))
    mains = _main_elements(page)
    # The outermost dialog (or container a script opens) around each element, itself when
    # none: one pass, parents before children.
    top = list(range(len(nodes)))
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0 and (kinds[parent] == "dialog" or opened[parent]):
            top[index] = top[parent]
    measured = []
    for box, what in boxes.items():
        gallery = listings.gallery_outside(end, box)
        sign_in = _measure(page, sums, box, end[box], what,
                           listings.beside(page, end, box) or gallery, opened[box])
        elsewhere = any(not m <= box <= end[m] and not box <= m <= end[box] for m in mains)
        measured.append(replace(sign_in, page_elsewhere=gallery or elsewhere or
                                listings.run_outside(end, box),
                                outside_dialog=total - nodes[top[box]].letters))
    if any(m.place in ("header", "navigation") for m in measured):
        measured = [replace(m, page_elsewhere=True) for m in measured]
    return measured


def _main_elements(page: PageTree) -> list[int]:
    """The page's ``main`` elements (or ``role=main``) with more than ``MAX_BEFORE`` letters,
    the first ``MAX_MAINS`` of them (HTML allows one shown; a box is tested against each)."""
    found = []
    for index, node in enumerate(page.elements):
        if node.letters > MAX_BEFORE and (node.tag == "main" or (
                node.attrs.get("role") or "").strip().lower() == "main"):
            found.append(index)
            if len(found) == MAX_MAINS:
                break
    return found


def _script_shown(page: PageTree, wrappers_from: float) -> list[bool]:
    """Which elements stand in a container a script opens on a click (``SCRIPT_SHOWN``:
    a modal, a dropdown, a drawer, a popup; or a CSS framework's hiding class), itself or an
    ancestor. Not the body, nor a wrapper holding most of the page's text (Bootstrap marks
    the body ``modal-open``; a sign-in page may be one big card named so). One pass, parents
    before children."""
    nodes = page.elements
    inside = [False] * len(nodes)
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0 and inside[parent]:
            inside[index] = True
        elif parent >= 0 and node.letters <= wrappers_from:
            inside[index] = _opens_on_click(node)
    return inside


def _opens_on_click(node: Element) -> bool:
    raw = f"{node.attrs.get('class') or ''} {node.attrs.get('id') or ''}"[:_MAX_CLASS_CHARS]
    words = set(_NAME_TOKEN.findall(_HUMP.sub(r"\1 \2", raw).lower()))
    classes = set((node.attrs.get("class") or "").lower().split())
    return not words.isdisjoint(SCRIPT_SHOWN) or not classes.isdisjoint(HIDING_CLASSES)


def set_aside_lines(page: PageTree, main_lines: Iterable[str] = ()) -> frozenset[str]:
    """The lines of text that the page's structure puts in chrome that holds no page's own
    text (``SET_ASIDE``: hidden elements, dialogs, navigation, the site's header and footer)
    and nowhere in its content: an extractor's main text may take them (a menu outside
    ``<nav>``'s reach, a promotion banner, a footer's legal addresses, a cookie dialog's table,
    a hidden carousel), yet they do not stand beside a form in the main column. A line is a
    text node, or the text nodes of one block joined (an element and its inline children: a
    paragraph with a link in it), whitespace folded, as an extractor writes its lines. One
    pass over the elements."""
    nodes, kinds = page.elements, page.kinds
    block = list(range(len(nodes)))  # each element's block: itself, or its parent's block
    pieces: dict[int, list[tuple[int, str]]] = {}
    for index, node in enumerate(nodes):
        if node.tag in _INLINE and node.parent >= 0:
            block[index] = block[node.parent]
        if node.texts:
            pieces.setdefault(block[index], []).extend(node.texts)
    aside: set[str] = set()
    kept: set[str] = set()
    for at, texts in pieces.items():
        lines = [" ".join(piece.split()) for _, t in texts for piece in t.split("\n")]
        lines.append(" ".join(" ".join(t for _, t in sorted(texts)).split()))
        (aside if kinds[at] in SET_ASIDE else kept).update(line for line in lines if line)
    aside -= kept
    # (A line that is also a text of the content is the page's own: not tried.)
    unmatched = [line for line in main_lines if line not in aside and line not in kept]
    runs = _runs_aside(page, block, unmatched) if unmatched else set()
    return frozenset(aside | runs)


def _runs_aside(page: PageTree, block: list[int], lines: list[str]) -> set[str]:
    """Those of the main text's ``lines`` that are a run of the page's text nodes in
    document order, every one of them in chrome that holds no page's own text
    (``SET_ASIDE``): an extractor joins a menu's items, a drop-down's "back" button and
    its links, into one line (a shop's mega menu outside ``<nav>``'s reach). Each line is
    tried from at most ``_RUN_STARTS`` text nodes its first words name, and the walk along
    the nodes compares at most ``_RUN_STEPS`` characters a character of the page's text in
    all: linear in the page and the lines."""
    nodes, kinds = page.elements, page.kinds
    seq: list[tuple[int, str, bool]] = []  # (order, folded text, in set-aside chrome)
    for index, node in enumerate(nodes):
        for order, text in node.texts:
            for piece in text.split("\n"):
                if folded := " ".join(piece.split()):
                    seq.append((order, folded, kinds[block[index]] in SET_ASIDE))
    seq.sort()
    # Where each text, and each pair of neighbouring texts, starts: a menu repeats its
    # items ("Go Back" before every panel), the pair names the panel.
    starts: dict[str, list[int]] = {}
    for at, (_, folded, _) in enumerate(seq):
        keys = (folded, f"{folded} {seq[at + 1][1]}") if at + 1 < len(seq) else (folded,)
        for key in keys:
            found = starts.setdefault(key, [])
            if len(found) < _RUN_STARTS:
                found.append(at)
    # The walk's budget in characters compared: a few times the page's text.
    budget = _RUN_STEPS * (sum(len(folded) + 1 for _, folded, _ in seq) + 1)
    runs: set[str] = set()
    for line in lines:
        candidates: list[int] = []
        prefix = ""
        for word in line.split(" ", _RUN_PREFIX_WORDS)[:_RUN_PREFIX_WORDS]:
            prefix = f"{prefix} {word}" if prefix else word
            candidates[:0] = starts.get(prefix, ())  # the longest prefix's first
        matched = False
        for first in candidates[:_RUN_STARTS]:
            pos, at, whole = 0, first, True
            while pos < len(line) and at < len(seq) and budget > 0:
                _, folded, set_aside = seq[at]
                budget -= len(folded) + 1
                stop = pos + len(folded)
                if line.startswith(folded, pos) and (stop == len(line) or line[stop] == " "):
                    whole = whole and set_aside
                    pos, at = stop + 1, at + 1
                else:
                    break
            if pos >= len(line):
                if not whole:
                    # The same run stands in the content too: the page's own.
                    matched = False
                    break
                matched = True
        if matched:
            runs.add(line)
    return runs


def _covered(size: int, spans: list[tuple[int, int]]) -> list[bool]:
    """Which elements lie in one of the ``(first, last)`` subtrees; each marked once."""
    inside = [False] * size
    reached = -1
    for first, last in sorted(spans):
        for index in range(max(first, reached + 1), last + 1):
            inside[index] = True
        reached = max(reached, last)
    return inside


class _PageSums:
    """What ``_measure`` asks of the page outside a box, as running sums over element order
    (a subtree is a contiguous range): one pass over the page, then O(1) a box, so a page of
    n boxes costs O(n), not a walk of the page per box."""

    def __init__(self, page: PageTree) -> None:
        nodes, kinds = page.elements, page.kinds
        self.content = ContentSums(page, LONG_PARAGRAPH)
        #: Letters of the widgets that hold other pages' or the site's offers (teasers,
        #: sidebars, adverts) before each element: beside a box, they are not chrome only.
        self.widgets = [0]
        self.h1 = [0]  # content h1 headings before each element
        #: The last heading that may title a box before each element, and the first h1 of
        #: those (-1: none).
        self.last_heading = [-1]
        self.first_h1 = -1
        for index, node in enumerate(nodes):
            self.h1.append(self.h1[-1] + (node.tag == "h1" and kinds[index] == "content"))
            self.widgets.append(self.widgets[-1] + (
                sum(letters(t) for _, t in node.texts)
                if node.texts and kinds[index] in OFFER_PLACES else 0))
            titling = kinds[index] not in WIDGET_PLACES and node.tag in _HEADINGS
            self.last_heading.append(index if titling else self.last_heading[-1])
            if titling and node.tag == "h1" and self.first_h1 < 0:
                self.first_h1 = index

    def content_between(self, first: int, stop: int) -> tuple[int, int]:
        """Content letters and long paragraphs of elements ``first`` to ``stop - 1``."""
        c = self.content
        return c.letters[stop] - c.letters[first], c.blocks[stop] - c.blocks[first]

def _credential_form(nodes: tuple[Element, ...], kinds: tuple[str, ...], start: int,
                     stop: int) -> str | None:
    """What makes the form at ``start`` a credential form, or None (module docstring)."""
    form_tokens = _name_tokens(nodes[start]) | set(
        _NAME_TOKEN.findall((nodes[start].attrs.get("action") or "").lower()))
    if (nodes[start].attrs.get("role") or "").lower() == "search":
        return None
    fields: list[Element] = []
    buttons = 0
    for index in range(start, stop + 1):
        node = nodes[index]
        if kinds[index] == "hidden":
            continue
        if node.tag == "button" and _type(node) != "reset":
            buttons += 1
        elif node.tag == "input":
            kind = _type(node)
            if kind in _BUTTON_INPUTS:
                buttons += 1
            elif kind in _TEXTLIKE:
                fields.append(node)
            elif kind == "search":
                return None
    if any(_type(f) == "password" for f in fields):
        return "a password field"
    if len(fields) == 2 and 1 <= buttons <= 3 and _phone_and_code(fields, form_tokens):
        return "a phone number and a one-time code"
    if len(fields) != 1 or not 1 <= buttons <= 2:
        return None
    tokens = _name_tokens(fields[0])
    if tokens & SEARCH_NAMES or (tokens | form_tokens) & (NOT_CREDENTIAL | SIGN_UP_NAMES):
        return None
    autocomplete = set((fields[0].attrs.get("autocomplete") or "").lower().split())
    if autocomplete & AUTOCOMPLETE_PASSWORD:
        return "a one-time-code field"
    if "username" in autocomplete or "webauthn" in autocomplete:
        return "a user-name field and one button"
    if _type(fields[0]) != "email" and tokens & IDENTIFIER_NAMES:
        return "a user-name field and one button"
    # An e-mail field is an account's identifier only in a form named for signing in (an
    # e-mail field and a button is also every sign-up and newsletter form's shape).
    if (_type(fields[0]) == "email" or autocomplete & AUTOCOMPLETE_IDENTIFIER) and \
            form_tokens & SIGN_IN_FORM_NAMES:
        return "a user-name field and one button"
    return None


def _phone_and_code(fields: list[Element], form_tokens: set[str]) -> bool:
    """Whether two fields are a phone number and a one-time code sent to it."""
    tokens = [_name_tokens(f) for f in fields]
    if any(t & (SEARCH_NAMES | NOT_CREDENTIAL) for t in tokens) or form_tokens & NOT_CREDENTIAL:
        return False

    def phone(i: int) -> bool:
        return _type(fields[i]) == "tel" or bool(tokens[i] & PHONE_NAMES)

    def code(i: int) -> bool:
        autocomplete = set((fields[i].attrs.get("autocomplete") or "").lower().split())
        return "one-time-code" in autocomplete or bool(tokens[i] & CODE_NAMES)

    return (phone(0) and code(1)) or (phone(1) and code(0))


def _block_with_button(nodes: tuple[Element, ...], index: int, end: list[int],
                       buttons: list[int]) -> int:
    """The nearest ancestor of a form-less field that also holds a button (or the field's
    parent when none does within ``MAX_CLIMB`` levels). ``buttons``: running count of
    buttons over element order (_PageSums.buttons)."""
    at, first = nodes[index].parent, nodes[index].parent
    for _ in range(MAX_CLIMB):
        if at < 0:
            break
        if buttons[end[at] + 1] - buttons[at + 1] > 0:
            return at
        at = nodes[at].parent
    return max(first, 0)


def _is_button(node: Element) -> bool:
    return node.tag == "button" or (node.tag == "input" and _type(node) in _BUTTON_INPUTS)


def _common_ancestor(nodes: tuple[Element, ...], members: list[int], end: list[int]) -> int:
    at = nodes[members[0]].parent
    last = max(members)
    while at > 0 and end[at] < last:
        at = nodes[at].parent
    return max(at, 0)


def _measure(page: PageTree, sums: _PageSums, box: int, stop: int, what: str,
             beside_listing: bool, opened: bool) -> SignIn:
    nodes, kinds = page.elements, page.kinds
    before, long_before = sums.content_between(0, box)
    after, long_after = sums.content_between(stop + 1, len(nodes))
    heading_after = sums.h1[len(nodes)] - sums.h1[stop + 1] > 0
    # The nearest heading before the box, and the content between it and the box (its own
    # text is not 'under' it).
    heading_at = sums.last_heading[box]
    lines = frozenset(" ".join(t.split()) for i in range(box, stop + 1)
                      for _, t in nodes[i].texts if t.strip())
    widgets = sums.widgets[-1] - (sums.widgets[stop + 1] - sums.widgets[box])
    place = _place(page, box)
    if opened and place in ("content", "form"):
        # In a container a script opens (a modal, a dropdown, a drawer): a dialog over the
        # page, whatever the markup calls its tag.
        place = "dialog"
    under = None
    # Only the page's top-level heading titles the box so (a sign-in column's own h1): a
    # shop's log-in module under an h3 like its category and cart modules' is one module among
    # them beside the shop's welcome text (ya_parser's secret-land.ru), whatever stands
    # between that heading and the box.
    if heading_at >= 0 and nodes[heading_at].tag == "h1" and \
            not 0 <= sums.first_h1 < heading_at and not long_before and \
            not _signs_up(nodes, kinds, box, stop):
        under = max(sums.content_between(heading_at, box)[0] - nodes[heading_at].letters, 0)
    return SignIn(what, place, before, before + after, long_before + long_after,
                  heading_after, lines, under, beside_listing, widgets,
                  long_before=long_before)


def _signs_up(nodes: tuple[Element, ...], kinds: tuple[str, ...], box: int, stop: int) -> bool:
    """Whether the box makes an account: two shown password fields (one to confirm), or one
    whose autocomplete token is ``new-password`` (WHATWG HTML's autofill names)."""
    passwords = [nodes[i] for i in range(box, stop + 1) if nodes[i].tag == "input"
                 and _type(nodes[i]) == "password" and kinds[i] != "hidden"]
    return len(passwords) >= 2 or any(
        "new-password" in (n.attrs.get("autocomplete") or "").lower() for n in passwords)


def _place(page: PageTree, box: int) -> str:
    """Where the box stands: the kind of the chrome around it, or "content"."""
    nodes, kinds = page.elements, page.kinds
    own = kinds[box]
    parent = nodes[box].parent
    around = kinds[parent] if parent >= 0 else "content"
    if own == "hidden" or around == "hidden":
        return "hidden"
    if around != "content":
        return around
    return "content" if own in ("content", "form") else own
