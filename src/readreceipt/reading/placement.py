"""Where text sits on a page: in the content, or in the chrome around it.

A wall phrase means something where the page's content would be; the same words in a
navigation bar, a site header, a footer, a sidebar, a form or a teaser of another article say
nothing about this page (a "subscribers only" label on a teaser, "melden Sie sich an" in a
sidebar, a sign-in widget in the header). :func:`layout` splits the visible text of an HTML
page into *content* and *chrome* by the page's own structure, with no site's names in it:

- elements HTML gives the role of chrome: ``nav``, ``aside``, ``form``, ``dialog``, ``menu``,
  and ``header``/``footer`` when they belong to the page, not to an article or section
  (the HTML standard's own rule for ``banner``/``contentinfo``); the ARIA roles that say the
  same;
- elements whose class or id names a kind of chrome (``CLASS_TOKENS``);
- blocks that are mostly link text (lists of teasers, menus): ``LINK_DENSE_SHARE``; not a
  block whose only links are those of the sign-in form it holds (a sign-in box is its
  labels and its "forgot password" and "register" links);
- teasers of other articles: every ``<article>`` but the longest, when shorter than it by far;
- hidden elements (``hidden``, ``aria-hidden="true"``, ``display:none``): chrome of the
  kind "hidden" (a sign-in modal waiting for a click is not what the page shows); not the
  body itself, which a page hides until its script has run and then shows whole;
- elements a script shows only on a condition (a framework's ``v-if``/``ng-if``/``x-show``,
  a CSS framework's hiding class such as ``d-none``): their text stays where it sits, and
  the layout also keeps each kind's text without them (``Layout.certain``), so that words
  or a heading found only there count as hidden (an unrendered page ships its not-found
  view beside the article it is an alternative to).

A candidate that holds most of the page's text (``WRAPPER_SHARE``) is a layout wrapper, not
chrome (ASP.NET wraps whole pages in one ``<form>``; "page-with-sidebar" wraps everything),
so its inside is judged element by element instead; navigation is navigation at any size.

Invariants: pure (no I/O); never raises on hostile markup (a parse failure gives an empty
layout, whose content is the whole page text the caller already has); work linear in the
size of the tree whatever its depth (each pass visits an element once, never its
ancestors), with the element count capped (``MAX_NODES``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from readreceipt.reading.basics import hides_itself, letters

log = logging.getLogger(__name__)

__all__ = ["CLASS_TOKENS", "WIDGET_PLACES", "ContentSums", "Element", "Layout", "PageTree",
           "PasswordField", "content_outside", "layout", "layout_of", "subtree_ends",
           "sure_chrome_letters", "tokens", "tree"]

#: Tags whose whole subtree is chrome, and the kind of chrome.
CHROME_TAGS = {"nav": "navigation", "menu": "navigation", "aside": "sidebar", "form": "form",
               "dialog": "dialog", "header": "header", "footer": "footer"}
#: Chrome that may hold a wall's own box, and inside which navigation is still navigation.
#: Places where a form or a box is the site's widget, never the page's main thing (the sign-in,
#: age-gate and captcha rules' test).
WIDGET_PLACES = frozenset({"header", "navigation", "footer", "sidebar", "teaser", "advert",
                           "links", "hidden"})
_BOXES = frozenset({"header", "sidebar"})
#: header/footer are the page's own only outside these (HTML: banner and contentinfo roles).
_SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
CHROME_ROLES = {"navigation": "navigation", "menubar": "navigation", "menu": "navigation",
                "banner": "header", "contentinfo": "footer", "complementary": "sidebar",
                "search": "form", "dialog": "dialog", "alertdialog": "dialog"}
#: Words in class or id values that name chrome, in the vocabulary of the common CMSs and
#: CSS frameworks (WordPress, Drupal, Bootstrap, BEM names); a token is a run of letters and
#: digits. Evidence: the corpus's hard negatives put their sign-in forms, subscribe boxes and
#: "subscribers only" teasers in elements named so (walls2/hard_negative/*), and these are
#: the names those systems use on every site built with them.
CLASS_TOKENS: dict[str, str] = {
    **dict.fromkeys(("nav", "navbar", "navigation", "menu", "menubar", "breadcrumb",
                     "breadcrumbs", "topbar", "toolbar", "skip", "pagination", "pager"),
                    "navigation"),
    **dict.fromkeys(("header", "masthead", "banner"), "header"),
    **dict.fromkeys(("footer", "colophon"), "footer"),
    **dict.fromkeys(("sidebar", "aside", "rail", "widget", "widgets", "sidebox"), "sidebar"),
    **dict.fromkeys(("teaser", "teasers", "related", "recommended", "recommendations",
                     "promo", "popular", "trending", "mostread", "outbrain", "taboola",
                     "morenews", "readmore", "cards"), "teaser"),
    **dict.fromkeys(("login", "signin", "usermenu", "account", "newsletter", "share",
                     "social", "comments", "comment", "respond"), "form"),
    **dict.fromkeys(("modal", "popup", "overlay", "cookie", "cookies", "consent", "gdpr"),
                    "dialog"),
    **dict.fromkeys(("ad", "ads", "advert", "advertisement", "sponsored"), "advert"),
}
#: A block whose visible letters are at least this share link text is a list of links.
LINK_DENSE_SHARE = 0.6
#: ... when it holds at least this many letters and two links (one link is a sentence's).
LINK_DENSE_MIN_LETTERS = 25
#: A chrome candidate holding more than this share of the page's letters (and more than
#: WRAPPER_MIN_LETTERS) wraps the page: its inside is judged instead.
WRAPPER_SHARE = 0.6
WRAPPER_MIN_LETTERS = 400
#: Another <article> shorter than this share of the longest is a teaser of another article.
TEASER_ARTICLE_SHARE = 0.5
MAX_NODES = 200_000

_INVISIBLE = frozenset({"script", "style", "noscript", "template", "svg", "head", "title",
                        "meta", "link", "iframe", "object", "canvas"})
_BLOCKS = frozenset({"ul", "ol", "div", "section", "table", "tbody", "dl", "p", "span", "li"})
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class PasswordField:
    """One ``<input type=password>``: where it sits and what stands beside it."""

    place: str  # "content" or a kind of chrome ("header", "sidebar", "dialog", "hidden", ...)
    form_letters: int  # visible letters of its form (0 when it has none)
    form_place: str  # where the form itself sits (a whole-page form is "content")


@dataclass(frozen=True)
class Layout:
    content: str  # visible text outside chrome, one line per text node
    chrome: dict[str, str] = field(default_factory=dict)  # kind -> its visible text
    content_letters: int = 0
    chrome_letters: int = 0
    passwords: tuple[PasswordField, ...] = ()
    #: The text of every link, whitespace folded and lower-cased: a line of "main text" that
    #: is only a link's text is navigation taken for content (walls2/soft_404/tjx_*).
    link_texts: frozenset[str] = frozenset()
    parsed: bool = True
    #: Kind ("content" or a kind of chrome) -> its text without the elements a script shows
    #: only on a condition (:data:`CONDITIONAL_ATTRIBUTES`, :data:`HIDING_CLASSES`), for the
    #: kinds that hold such an element. Their text is counted where it sits, as any other
    #: (its letters are the page's, shown or not); words found only there are not where they
    #: sit (:meth:`place_of`), nor a heading the page's own.
    certain: dict[str, str] = field(default_factory=dict)

    def certain_text(self, kind: str) -> str:
        """The text of ``kind`` outside the elements a script shows only on a condition."""
        if kind in self.certain:
            return self.certain[kind]
        return self.content if kind == "content" else self.chrome.get(kind, "")

    def place_of(self, found: Callable[[str], bool]) -> str | None:
        """Where ``found`` says yes: "content" first, then a kind of chrome; None: nowhere.
        Words that stand only in elements a script shows on a condition are "hidden"."""
        conditional = False
        for kind, text in (("content", self.content), *self.chrome.items()):
            if found(text):
                if kind not in self.certain or found(self.certain[kind]):
                    return kind
                conditional = True
        return "hidden" if conditional else None

    def beside(self, field: PasswordField) -> int:
        """Letters of content beside a password field's form (not counting the form)."""
        inside = field.form_letters if field.form_place == "content" else 0
        return max(self.content_letters - inside, 0)


@dataclass(slots=True)
class Element:
    """One element under <body>, as the walk found it (read-only once :func:`tree` returns).

    ``letters`` and ``link_letters`` count its whole subtree; ``texts`` holds its own direct
    text nodes as they are written, ``(order, text)`` in document order, and a ``"\\n"``
    where a ``<br>`` breaks the line."""

    tag: str
    attrs: dict[str, str | None]
    parent: int
    letters: int = 0
    link_letters: int = 0
    links: int = 0
    #: Password fields in the subtree, and the links inside the forms that hold them: a
    #: block whose only links are its sign-in form's ("forgot password", "register") is a
    #: credential box, whatever share of its few letters those links are.
    passwords: int = 0
    form_links: int = 0
    texts: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class PageTree:
    """Every element under <body> in document order (pre-order, so a parent comes before
    its children), the kind of each ("content", "hidden" or a kind of chrome), and the
    folded text of every link."""

    elements: tuple[Element, ...]
    kinds: tuple[str, ...]
    link_texts: frozenset[str]


def tree(html: str) -> PageTree | None:
    """The page's elements with their kinds; None when it cannot be parsed or has no body."""
    try:
        nodes, link_texts = _walk(html)
    except Exception:  # selectolax raises a variety on hostile markup
        log.warning("placement: the page could not be parsed; no layout", exc_info=True)
        return None
    if not nodes:
        return None
    kinds = _classify(nodes, nodes[0].letters)
    return PageTree(tuple(nodes), tuple(kinds), link_texts)


def layout(html: str) -> Layout:
    """The page's visible text, split into content and chrome (see the module docstring)."""
    return layout_of(tree(html))


#: Attributes by which a client-side framework shows an element only when a script's
#: condition holds (Vue's ``v-if``/``v-show``, AngularJS's ``ng-if``/``ng-show``/``ng-hide``
#: and their ``data-`` forms, Alpine's ``x-show``/``x-if``, Angular's ``*ngIf`` as an HTML
#: parser lower-cases it): unrendered, the markup ships every branch, a not-found view's
#: "Page not found" beside the article it is an alternative to.
CONDITIONAL_ATTRIBUTES = frozenset({
    "v-if", "v-else", "v-else-if", "v-show", "ng-if", "ng-show", "ng-hide", "ng-switch-when",
    "ng-switch-default", "data-ng-if", "data-ng-show", "data-ng-hide", "x-show", "x-if",
    "*ngif"})
#: Class names (whole, never a part: Bootstrap 3's ``hidden-xs`` hides only on phones) by
#: which the CSS frameworks hide an element until a script shows it: Bootstrap's ``d-none``,
#: ``hidden`` and ``invisible``, Tailwind's ``hidden`` and ``invisible``, Bulma's
#: ``is-hidden``, Foundation's and Bootstrap 2's ``hide``, AngularJS's ``ng-hide``.
HIDING_CLASSES = frozenset({"d-none", "hidden", "invisible", "is-hidden", "hide", "ng-hide"})


def conditional(attrs: dict[str, str | None]) -> bool:
    """Whether an element's own attributes leave its showing to a script (above)."""
    if not attrs.keys().isdisjoint(CONDITIONAL_ATTRIBUTES):
        return True
    classes = attrs.get("class")
    return classes is not None and not HIDING_CLASSES.isdisjoint(classes.lower().split())


def layout_of(page: PageTree | None) -> Layout:
    """The layout of a page already walked (:func:`tree`)."""
    if page is None:
        return Layout(content="", parsed=False)
    content: list[tuple[int, str]] = []
    chrome: dict[str, list[tuple[int, str]]] = {}
    certain: dict[str, list[tuple[int, str]]] = {}  # by kind, outside conditional elements
    decided: set[str] = set()  # the kinds holding a conditional element's text
    under = [False] * len(page.elements)  # the element or one above it is conditional
    for index, (node, kind) in enumerate(zip(page.elements, page.kinds, strict=True)):
        (content if kind == "content" else chrome.setdefault(kind, [])).extend(node.texts)
        under[index] = (node.parent >= 0 and under[node.parent]) or conditional(node.attrs)
        if not node.texts:
            continue
        if under[index]:
            decided.add(kind)
        else:
            certain.setdefault(kind, []).extend(node.texts)
    content_text = _lines(content)
    chrome_text = {k: _lines(v) for k, v in chrome.items()}
    passwords = tuple(_passwords(page.elements, page.kinds))
    return Layout(content=content_text, chrome=chrome_text,
                  content_letters=letters(content_text),
                  chrome_letters=sum(letters(t) for k, t in chrome_text.items()
                                     if k != "hidden"),
                  passwords=passwords, link_texts=page.link_texts,
                  certain={k: _lines(certain.get(k, [])) for k in decided})


def _lines(texts: list[tuple[int, str]]) -> str:
    """One line per text node, whitespace folded, in document order."""
    return "\n".join(line for _, t in sorted(texts) if (line := " ".join(t.split())))


def _walk(html: str) -> tuple[list[Element], frozenset[str]]:
    """Every element under <body> with its letters, link letters and direct text, pre-order;
    and the folded text of every link.

    Linear in the size of the tree whatever its depth: each text's letters are added to its
    own element, then summed up the tree once, children before parents."""
    from selectolax.lexbor import LexborHTMLParser

    parsed = LexborHTMLParser(html)
    root = parsed.body
    if root is None:
        return [], frozenset()
    nodes: list[Element] = []
    order = 0
    # (selectolax node, parent index, inside a link)
    stack: list[tuple[object, int, bool]] = [(root, -1, False)]
    push = stack.append
    while stack:
        current, parent, in_link = stack.pop()
        tag = current.tag  # type: ignore[attr-defined]
        if tag == "-text":
            text = current.text_content  # type: ignore[attr-defined]
            if text and text.strip() and parent >= 0:
                n = letters(text)
                nodes[parent].texts.append((order, text))
                order += 1
                nodes[parent].letters += n
                if in_link:
                    nodes[parent].link_letters += n
            continue
        if tag == "br" and parent >= 0:
            nodes[parent].texts.append((order, "\n"))
            order += 1
            continue
        if tag in _INVISIBLE or tag is None or tag.startswith("-"):
            continue
        if len(nodes) >= MAX_NODES:
            break
        index = len(nodes)
        # (selectolax builds a fresh dict of the attributes on every call)
        nodes.append(Element(tag, current.attributes, parent))  # type: ignore[attr-defined]
        link = in_link or tag == "a"
        if tag == "a":
            nodes[index].links = 1
        elif tag == "input" and (nodes[index].attrs.get("type") or "").strip().lower() == \
                "password":
            nodes[index].passwords = 1
        # The children pushed last to first, so the first is popped first (pre-order).
        child = current.last_child  # type: ignore[attr-defined]
        while child is not None:
            push((child, index, link))
            child = child.prev
    for node in reversed(nodes):  # children come after their parent: sum them upwards
        if node.tag == "form" and node.passwords:  # (its subtree is summed by now)
            node.form_links = node.links
        if node.parent >= 0:
            up = nodes[node.parent]
            up.letters += node.letters
            up.link_letters += node.link_letters
            up.links += node.links
            up.passwords += node.passwords
            up.form_links += node.form_links
    links = frozenset(" ".join(a.text(separator=" ").lower().split()) for a in root.css("a"))
    return nodes, links


#: Elements :func:`tree` counts as chrome whatever their size or place (navigation is
#: navigation at any size; what hides itself is never what the page shows), and the chrome
#: elements it counts as chrome unless they are a layout wrapper (``_own_kind``).
_SURE_CHROME_SELECTOR = ("nav, menu, [role], [hidden], [aria-hidden], aside, form, dialog, "
                         "header, footer")
_SURE_CHROME_ROLES = frozenset({"navigation", "menubar", "menu"})
#: Elements whose text Lexbor's text holds and :func:`tree` does not (_INVISIBLE that the
#: extraction's strip leaves in the body).
_UNWALKED_SELECTOR = "iframe, object, canvas, title"


def sure_chrome_letters(root: Any, total: int) -> int:
    """Letters that :func:`tree` is sure to count as chrome on the page whose parsed body
    (selectolax's Lexbor node, scripts and styles stripped) is ``root`` and whose visible text
    holds ``total`` letters: the text of every outermost element that is always chrome
    (``nav``, ``menu``, a navigation role, ``hidden`` or ``aria-hidden``), or that is chrome
    unless it is a layout wrapper (``aside``, ``form``, ``dialog``, a chrome role, a
    ``header`` or ``footer`` outside any sectioning element) and is too short to be one even
    if every letter Lexbor reads and the walk does not were outside it. So the visible
    text's letters less these bound the content's letters from above (what the second
    reading asks first); CSS queries, in C, and the text of the elements they find."""
    unwalked = sum(letters(node.text(separator="\n")) for node in root.css(_UNWALKED_SELECTOR))
    wrapper_from = max(WRAPPER_MIN_LETTERS, WRAPPER_SHARE * (total - unwalked))
    found: dict[int, Any] = {}
    counted: dict[int, int] = {}  # letters of the candidates measured
    for node in root.css(_SURE_CHROME_SELECTOR):
        if node.mem_id in found:
            continue
        attrs = node.attributes
        tag = node.tag
        role = (attrs.get("role") or "").lower().strip()
        if tag in ("nav", "menu") or "hidden" in attrs or \
                (attrs.get("aria-hidden") or "").strip().lower() == "true" or \
                role in _SURE_CHROME_ROLES:
            found[node.mem_id] = node
            continue
        chrome = tag in ("aside", "form", "dialog") or role in CHROME_ROLES or (
            tag in ("header", "footer") and not _sectioned(node))
        # A wrapper is looked inside, so the elements in it are still asked about.
        if chrome:
            counted[node.mem_id] = letters(node.text(separator="\n"))
            if counted[node.mem_id] <= wrapper_from:
                found[node.mem_id] = node
    sure = 0
    for node in found.values():
        up = node.parent
        while up is not None and up.mem_id not in found:
            up = up.parent
        if up is None:  # outermost: its text holds every nested one's
            mem = node.mem_id
            sure += counted[mem] if mem in counted else letters(node.text(separator="\n"))
    return sure


def _sectioned(node: Any) -> bool:
    """Whether a Lexbor node sits inside an article, aside, main, nav or section."""
    up = node.parent
    while up is not None:
        if up.tag in _SECTIONING:
            return True
        up = up.parent
    return False


def tokens(attrs: dict[str, str | None]) -> list[str]:
    """The words of an element's class and id values, lower-cased."""
    raw = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
    return _TOKEN.findall(raw)


def _own_kind(node: Element, sectioned: bool) -> tuple[str | None, bool]:
    """(kind of chrome the element itself names, whether a wrapper may overrule it)."""
    attrs = node.attrs
    if hides_itself(attrs) and node.tag != "body":
        # (A body hidden by its own style is a page a script shows once it has loaded, to
        # spare the reader its unstyled flash: what it holds is what the page shows. Its
        # hidden parts stay hidden. Zwift's Keycloak sign-in page, zpdatafetch's fixture.)
        return "hidden", False
    tag = node.tag
    if tag in ("header", "footer") and sectioned:
        tag = ""  # an article's or section's own header: its headline, its byline
    if tag == "nav" or tag == "menu":
        return "navigation", False
    if tag in CHROME_TAGS:
        return CHROME_TAGS[tag], True
    role = (attrs.get("role") or "").lower().strip()
    if role in CHROME_ROLES:
        return CHROME_ROLES[role], role not in ("navigation", "menubar", "menu")
    for token in tokens(attrs):
        kind = CLASS_TOKENS.get(token)
        if kind is not None:
            return kind, True
    if tag in _BLOCKS and node.letters >= LINK_DENSE_MIN_LETTERS and node.links >= 2 and \
            node.link_letters >= LINK_DENSE_SHARE * node.letters and \
            not (node.passwords and node.form_links == node.links):
        # (A sign-in box's text is its labels and its form's "forgot password" and
        # "register" links: link-dense, yet not a list of links. Beside other links it is.)
        return "links", True
    return None, False


def _classify(nodes: list[Element], total: int) -> list[str]:
    """The kind of every node: "content", "hidden" or a kind of chrome (inherited)."""
    teasers = _teaser_articles(nodes)
    kinds = ["content"] * len(nodes)
    # Inside an article, aside, main, nav or section (so a header there is its own).
    sectioned = [False] * len(nodes)
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0:
            sectioned[index] = sectioned[parent] or nodes[parent].tag in _SECTIONING
        if parent >= 0 and kinds[parent] != "content":
            kinds[index] = kinds[parent]
            if kinds[parent] in _BOXES:
                # A menu or a list of links inside a site header or a sidebar is navigation,
                # never the wall's own box: "Solo para suscriptores" as a menu heading of a
                # site header names a section of the site, not this page
                # (tests/pages/hard_negative/es_header_menu_solo_para_suscriptores.html).
                own, _ = _own_kind(node, sectioned[index])
                if own in ("navigation", "links"):
                    kinds[index] = own
            continue
        if index in teasers:
            kinds[index] = "teaser"
            continue
        kind, overrulable = _own_kind(node, sectioned[index])
        if kind is None:
            continue
        if overrulable and node.letters > WRAPPER_MIN_LETTERS and \
                node.letters > WRAPPER_SHARE * total:
            continue  # a layout wrapper (a whole-page form, "with-sidebar"): look inside
        kinds[index] = kind
    return kinds


def _teaser_articles(nodes: list[Element]) -> set[int]:
    # Nested articles (comments inside a post) are the post's: only top-level ones compete.
    in_article = [False] * len(nodes)
    top: list[int] = []
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0:
            in_article[index] = in_article[parent] or nodes[parent].tag == "article"
        if node.tag == "article" and not in_article[index]:
            top.append(index)
    if len(top) < 2:
        return set()
    longest = max(nodes[i].letters for i in top)
    return {i for i in top if nodes[i].letters < TEASER_ARTICLE_SHARE * longest}


def _passwords(nodes: tuple[Element, ...], kinds: tuple[str, ...]) -> list[PasswordField]:
    found = []
    form = [-1] * len(nodes)  # the nearest <form> around each element
    for index, node in enumerate(nodes):
        parent = node.parent
        if parent >= 0:
            form[index] = parent if nodes[parent].tag == "form" else form[parent]
        if node.tag != "input" or (node.attrs.get("type") or "").lower() != "password":
            continue
        at = form[index]
        if at >= 0:
            found.append(PasswordField(kinds[index], nodes[at].letters, kinds[at]))
        else:
            found.append(PasswordField(kinds[index], 0, kinds[index]))
    return found


def subtree_ends(nodes: tuple[Element, ...]) -> list[int]:
    """The index of every element's last descendant (pre-order: a subtree is contiguous)."""
    end = list(range(len(nodes)))
    for index in range(len(nodes) - 1, -1, -1):
        parent = nodes[index].parent
        if parent >= 0 and end[index] > end[parent]:
            end[parent] = end[index]
    return end


class ContentSums:
    """Letters of the page's content (as :func:`content_outside` counts them) and its blocks
    of at least ``block`` letters, as running sums over the elements: what lies outside one
    subtree is the whole less its span, so a rule trying many candidate boxes reads the page
    once, not once a box (a page of many forms would cost the square of its size)."""

    def __init__(self, page: PageTree, block: int = 0) -> None:
        self.letters = [0]
        self.blocks = [0]
        for index, node in enumerate(page.elements):
            own = sum(letters(t) for _, t in node.texts) \
                if page.kinds[index] == "content" and node.texts else 0
            self.letters.append(self.letters[-1] + own)
            self.blocks.append(self.blocks[-1] + (block > 0 and own >= block))

    def outside(self, first: int, last: int) -> tuple[int, int]:
        """Letters of content outside elements ``first``..``last``, and its blocks."""
        inside = self.letters[last + 1] - self.letters[first]
        blocks = self.blocks[last + 1] - self.blocks[first]
        return self.letters[-1] - inside, self.blocks[-1] - blocks


def content_outside(page: PageTree, boxes: list[tuple[int, int]]) -> int:
    """Letters of the page's content (text outside every chrome) outside the given subtrees
    (``(first, last)`` element indices): what a box that claims to be the page's main thing
    leaves beside it. Linear in the number of elements."""
    inside = [False] * len(page.elements)
    reached = -1  # boxes merged in order: each element is marked once
    for first, last in sorted(boxes):
        for index in range(max(first, reached + 1), last + 1):
            inside[index] = True
        reached = max(reached, last)
    return sum(letters(t) for index, node in enumerate(page.elements)
               if page.kinds[index] == "content" and not inside[index]
               for _, t in node.texts)
