"""Listings by structure: is a box one block beside a page of entries?

A forum's list of boards, a shop's grid of products, a portal's headlines, a directory's
results: the page's own content is a run of *entries*, each a link with a line of its own
beside it (a description, a price, a count, an author and a date). A sign-in box standing
beside such a run (phpBB's quick-login form under its list of boards: phpbb/phpbb
``styles/prosilver/template/index_body.html``) is the site's widget, not what the page is,
however few letters of prose the page has outside it (most of a listing is link text, which
the placement counts as chrome).

- An *entry* is an ``li``, ``tr``, ``dl``, ``dd``, ``article`` or ``div`` that holds at least
  one link and at least ``ENTRY_MIN_OWN_LETTERS`` letters outside its links, and stands
  where the content is (not in a header, navigation, footer, dialog, advert or hidden
  element). A menu's items are links alone: never entries.
- A *listing* is at least ``MIN_ENTRIES`` entries of one tag under one parent.
- A *gallery* is a shop's grid of products or a portal's picture headlines as a page shows
  them, wherever it stands but the chrome above: at least ``GALLERY_MIN_TILES`` *tiles* of
  one tag under one parent, a tile being an ``li``, ``div``, ``article``, ``td`` or ``dd``
  that holds a link, a picture (``img``) and, outside its links, a text with a digit (a
  price, a date, a count, a code), and no password field, and that is not under an element
  whose tag or class words name the site's navigation (even one the placement took for the
  layout's wrapper: a mega menu's pictured headlines). The placement takes such a grid
  for a list of links (its text is mostly the products' names, links); a menu's pictures
  carry no figures, and a sign-in page's columns are two or three. Measured on every
  development page with a password field: no sign-in page has more than 3 tiles under one
  parent (Fathom's shop sign-in pages, ``bench/devset4_labels.tsv``: 3 at most; devset3,
  the corpus's walls and tests/pages/login: 0 to 3); the shop and portal home pages behind a
  sign-in box have 4 to 36 (ya_parser's Russian shops: 6 to 30; Fathom's shop homes: 7 to
  31; metascraper's portals: 5 to 36).
- A *dated run*: at least ``GALLERY_MIN_TILES`` elements of those tags under one parent,
  each a link and, outside it, a stamp: a text with a digit and at least
  ``STAMP_MIN_LETTERS`` letters (a headline's "Yesterday, 18:02", a product's "3,690 rub."; a
  menu's count "(12)" has none). Asked only of a box whose page is said to be only chrome
  beside it (signin.py): a portal's headlines in a list of links are not chrome.
- A box is *beside a listing* when a listing lies in the box's region, outside the box, or a
  gallery lies anywhere on the page outside it: the
  page's ``main`` element (or ``role=main``) around the box when it has one within
  ``MAIN_CLIMB`` levels, else the box's ancestor ``REGION_CLIMB`` levels up (a table
  layout's row of cells: a form in one cell, the headlines in the next; a shop's main
  column: the account box, then the product grid). A sign-in page's mega-menu of latest
  headlines sits in the site's header, far from its form (scrapy/loginform
  ``samples/meed.html``; tests/pages/login/sign_in_page_under_headline_mega_menu.html, where
  three levels up from the form is already the body), so it is not in the region.

Invariants: pure; one pass over the elements to find the listings, then each box costs
O(``MAIN_CLIMB``) (prefix sums over element order: a subtree is a contiguous range), so a page
of n boxes costs O(n), not O(n^2); no words of any language.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from readreceipt.reading.basics import letters
from readreceipt.reading.placement import CLASS_TOKENS, Element, PageTree, tokens

__all__ = ["ENTRY_MIN_OWN_LETTERS", "GALLERY_MIN_TILES", "MAIN_CLIMB", "MIN_ENTRIES",
           "REGION_CLIMB", "STAMP_MIN_LETTERS", "Listings"]

#: Letters of an entry outside its links: a board's description, a product's price line and
#: button, a headline's date and author ("by committee, Thu Mar 12": 17). A menu item with
#: a one-word note is not an entry.
ENTRY_MIN_OWN_LETTERS = 10
#: Entries of one tag under one parent that make a listing (two are a sign-in page's "new
#: customer / returning customer" columns; a list of boards or products has more).
MIN_ENTRIES = 3
#: How far up from a box its ``main`` element may be, and how far up its region is without one.
MAIN_CLIMB = 8
REGION_CLIMB = 2
#: Tiles of one tag under one parent that make a gallery (module docstring: sign-in pages
#: 0-3, the home pages behind a sign-in box 4-36).
GALLERY_MIN_TILES = 4
#: Letters beside the digits of a dated entry's stamp ("Yesterday, 18:02": 5; a menu's count
#: "(12)": none).
STAMP_MIN_LETTERS = 3

_ENTRY_TAGS = frozenset({"li", "tr", "dl", "dd", "article", "div"})
#: Places where a run of linked items is the site's chrome, not the page's entries.
_NOT_ENTRIES = frozenset({"header", "navigation", "footer", "dialog", "advert", "hidden"})
_TILE_TAGS = frozenset({"li", "div", "article", "td", "dd"})
_SITE_CHROME_TAGS = frozenset({"nav", "menu"})
_SITE_CHROME = frozenset({"navigation"})


@dataclass(frozen=True)
class Listings:
    """The listings of one page, as prefix counts over element order."""

    #: ``strong[i]``: listings (by their parent) among elements before ``i``, with more than
    #: ``MIN_ENTRIES`` entries (one of them may hold the box and the rest still make one).
    strong: tuple[int, ...]
    #: The same for listings of exactly ``MIN_ENTRIES`` entries.
    exact: tuple[int, ...]
    #: Parents of those exact listings: an ancestor of the box among them loses the entry
    #: that holds the box.
    exact_parents: frozenset[int]
    #: ``galleries[i]``: parents of galleries among elements before ``i``.
    galleries: tuple[int, ...] = (0,)
    #: ``runs[i]``: the same for dated runs.
    runs: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, page: PageTree) -> Listings:
        nodes, kinds = page.elements, page.kinds
        groups: Counter[tuple[int, str]] = Counter()
        for node, kind in zip(nodes, kinds, strict=True):
            if node.parent >= 0 and node.tag in _ENTRY_TAGS and kind not in _NOT_ENTRIES \
                    and node.links >= 1 and \
                    node.letters - node.link_letters >= ENTRY_MIN_OWN_LETTERS:
                groups[(node.parent, node.tag)] += 1
        strong_at = [0] * len(nodes)
        exact_at = [0] * len(nodes)
        exact_parents = set()
        for (parent, _), count in groups.items():
            if count > MIN_ENTRIES:
                strong_at[parent] = 1
            elif count == MIN_ENTRIES:
                exact_at[parent] = 1
                exact_parents.add(parent)
        galleries, runs = _gallery_parents(page)
        return cls(_prefix(strong_at), _prefix(exact_at), frozenset(exact_parents),
                   _prefix(galleries), _prefix(runs))

    def beside(self, page: PageTree, end: list[int], box: int) -> bool:
        """Whether a listing lies in the region of the box at ``box``, outside the box
        (module docstring). ``end``: placement.subtree_ends of the page."""
        nodes = page.elements
        region = _region(page, box)
        inside_box = self._count(box, end[box])
        total = self._count(region, end[region])
        if total[0] - inside_box[0] > 0:
            return True
        exact = total[1] - inside_box[1]
        # An exact listing whose parent is an ancestor of the box has the box in one of its
        # entries: it is the box's own column and two more, not a listing beside it.
        at = nodes[box].parent
        while exact > 0 and at >= region:
            exact -= at in self.exact_parents
            at = nodes[at].parent if at >= 0 else -1
        return exact > 0

    def gallery_outside(self, end: list[int], box: int) -> bool:
        """Whether a gallery (module docstring) stands outside the box at ``box``: its parent
        is not in the box's subtree (a tile never holds a password field, so a gallery whose
        parent holds the box has its tiles beside it)."""
        g = self.galleries
        inside = g[end[box] + 1] - g[box]
        return g[-1] - inside > 0

    def run_outside(self, end: list[int], box: int) -> bool:
        """Whether a dated run (module docstring) stands outside the box at ``box``."""
        r = self.runs
        return r[-1] - (r[end[box] + 1] - r[box]) > 0

    def _count(self, first: int, last: int) -> tuple[int, int]:
        return (self.strong[last + 1] - self.strong[first],
                self.exact[last + 1] - self.exact[first])


def _gallery_parents(page: PageTree) -> tuple[list[int], list[int]]:
    """1 at each element that is the parent of a gallery's tiles (module docstring), else 0;
    and the same for dated runs.
    Running counts over element order (a subtree is a contiguous range) and one pass
    backwards for what each subtree holds: linear in the number of elements."""
    nodes, kinds = page.elements, page.kinds
    size = len(nodes)
    pictures = [0] * size  # img elements in the subtree
    figures = [0] * size  # text nodes with a digit outside links, in the subtree
    stamps = [0] * size  # of those, the ones with words too ("Yesterday, 18:02", "3,690 rub.")
    in_link = [False] * size
    named_chrome = [False] * size  # under an element named the site's navigation
    for index, node in enumerate(nodes):
        parent = node.parent
        in_link[index] = node.tag == "a" or (parent >= 0 and in_link[parent])
        named_chrome[index] = (parent >= 0 and named_chrome[parent]) or _names_site_chrome(node)
        if not in_link[index]:
            for _, text in node.texts:
                if _has_digit(text):
                    figures[index] = 1
                    if letters(text) >= STAMP_MIN_LETTERS:
                        stamps[index] = 1
        pictures[index] = node.tag == "img"
    for index in range(size - 1, 0, -1):  # children come after their parent
        parent = nodes[index].parent
        if parent >= 0:
            pictures[parent] += pictures[index]
            figures[parent] += figures[index]
            stamps[parent] += stamps[index]
    tiles: Counter[tuple[int, str, bool]] = Counter()
    for index, node in enumerate(nodes):
        if node.parent >= 0 and node.tag in _TILE_TAGS and kinds[index] not in _NOT_ENTRIES \
                and not named_chrome[index] and node.links >= 1 and not node.passwords:
            if pictures[index] and figures[index]:
                tiles[(node.parent, node.tag, True)] += 1
            if stamps[index]:
                tiles[(node.parent, node.tag, False)] += 1
    galleries, runs = [0] * size, [0] * size
    for (parent, _, pictured), count in tiles.items():
        if count >= GALLERY_MIN_TILES:
            (galleries if pictured else runs)[parent] = 1
    return galleries, runs


def _names_site_chrome(node: Element) -> bool:
    """Whether the element's tag or its class and id words name the site's navigation
    (placement.CLASS_TOKENS), even where the placement took it for the layout's wrapper (a
    mega menu holding most of a sign-in page's text: scrapy/loginform ``samples/meed.html``,
    its headlines with pictures and dates). Not a header's name: a shop's whole centre column
    may be named so (ya_hardneg_dochkisinochki_ru's ``div.header`` around its products)."""
    if node.tag in _SITE_CHROME_TAGS:
        return True
    return any(CLASS_TOKENS.get(token) in _SITE_CHROME for token in tokens(node.attrs))


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _prefix(flags: list[int]) -> tuple[int, ...]:
    sums = [0]
    for flag in flags:
        sums.append(sums[-1] + flag)
    return tuple(sums)


def _region(page: PageTree, box: int) -> int:
    """The box's ``main`` ancestor within ``MAIN_CLIMB`` levels, else its ancestor
    ``REGION_CLIMB`` levels up (or the page's first element)."""
    nodes = page.elements
    at, climbed, fallback = nodes[box].parent, 1, 0
    while at >= 0 and climbed <= MAIN_CLIMB:
        node = nodes[at]
        if node.tag == "main" or (node.attrs.get("role") or "").strip().lower() == "main":
            return at
        if climbed == REGION_CLIMB:
            fallback = at
        at, climbed = node.parent, climbed + 1
    if climbed <= REGION_CLIMB:  # the page is shallower than the climb: its first element
        return 0
    return fallback
