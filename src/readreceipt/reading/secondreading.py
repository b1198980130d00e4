"""A second reading of an article whose main text came out far shorter than the page shows.

trafilatura reads most articles well, and when it fails it fails in one way: it keeps one
block of an article the page splits into several (a row of adverts between the blocks, as in
Condé Nast's layouts: trafilatura's issues #85, #159, #234 and #304; two Wired pages of the
article corpus), or it keeps a line of the page's chrome instead of the article. Either
way the main text holds far fewer letters than the visible text outside chrome
(:mod:`placement`). On a page that is plainly an article (:func:`article_evidence`), the
page is read again from its own structure:

- *continuation*: the paragraphs the first reading kept sit in containers of one shape (the
  container's tag and class words); every block in a container of that shape belongs to the
  article. The second reading is the first one, whole and as it was written (its tables and
  lists too), with those blocks it left out put in at their place in the document;
- *densest block*: when the first reading kept no paragraph of the page's content at all,
  the container holding the most letters of long paragraphs (and every container of its
  shape) is read instead.

The better reading wins: the second one only when it holds at least :data:`GAIN` times the
letters of the first. The verdict, the text digest and the quotation check then all use it;
the record names the extractor and says why (``second_reading``).

Invariants: pure; runs only on a page that is plainly an article and whose main text is far
shorter than its content (so an article read well costs nothing here); never raises on
hostile markup (no tree, no second reading); work linear in the page's elements.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import cache

from readreceipt.reading.basics import letters
from readreceipt.reading.placement import Element, PageTree, tokens
from readreceipt.reading.publisher import OG_ARTICLE, article_type

__all__ = ["FAR_SHORTER", "GAIN", "SecondReading", "article_evidence", "second_reading",
           "wanted"]

#: The main text is "far shorter" below this share of the letters outside chrome. Of the 181
#: articles of the corpus, 5 are below it: two (Wired's split layout) lost most of the article
#: (recall 0.35 and 0.45); on the other three the second reading is no longer than the first
#: (their extra content is lists of other articles), so it is not used. bench/extraction.py.
FAR_SHORTER = 0.5
#: A paragraph: a block of content with at least this many letters (a sentence or two).
LONG_PARAGRAPH = 80
#: Plainly an article, by its own text: at least this many long paragraphs in one container.
MIN_RUN = 3
#: The second reading must hold at least this many times the letters of the first.
GAIN = 1.3

#: Elements that sit inside a line of text rather than making one.
_INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del",
                     "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "nobr", "q", "s",
                     "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt",
                     "u", "var", "wbr"})


@dataclass(frozen=True)
class SecondReading:
    """What the second reading found, used or not (the record's ``second_reading``)."""

    used: bool
    method: str  # "continuation" | "densest block" | "none"
    why: str
    evidence: str  # why the page is plainly an article
    text: str  # the second reading's text ("" when there is none)
    first_text: str  # the first reading's (kept for comparison; the record keeps its digest)

    @property
    def first_text_sha256(self) -> str:
        return hashlib.sha256(self.first_text.encode("utf-8")).hexdigest()

    def to_dict(self, first_extractor: str) -> dict[str, object]:
        return {"used": self.used, "method": self.method, "why": self.why,
                "evidence": self.evidence, "first_extractor": first_extractor,
                "first_chars": len(self.first_text), "first_text_sha256": self.first_text_sha256,
                "second_chars": len(self.text)}


@dataclass(frozen=True)
class _Block:
    element: int
    container: int
    text: str
    letters: int
    linked: int  # letters inside links


def wanted(main_text: str, page_text: str, sure_chrome: int = 0) -> bool:
    """Whether the main text may be far shorter than the content. Cheap: the whole visible
    text, less ``sure_chrome`` (the letters :func:`placement.sure_chrome_letters` found in
    elements the page tree is sure to count as chrome: navigation, hidden elements, and
    asides, forms, dialogs, page headers and footers too short to be a layout wrapper),
    bounds the content from above, so a page that stops here is one :func:`second_reading`
    would have given up on. On the article corpus 39 of 181 pages go on (70 with navigation
    and hidden elements alone, 95 without ``sure_chrome``), and the 5 pages whose main text
    is far shorter than their content are among them, as are every walls, walls2 and
    synthetic page whose second reading was made before."""
    return letters(main_text) < FAR_SHORTER * (letters(page_text) - sure_chrome)


def second_reading(html: str, page: PageTree, main_text: str) -> SecondReading | None:
    """The second reading of a page whose main text is ``main_text``; None when none is
    called for (the main text is not far shorter than the content, or the page is not
    plainly an article)."""
    blocks = _blocks(page)
    content = sum(b.letters for b in blocks)
    first = letters(main_text)
    if first >= FAR_SHORTER * content:
        return None
    evidence = article_evidence(html, page, blocks)
    if evidence is None:
        return None
    far = f"the main text holds {first} letters of the {content} outside chrome"
    anchors = _anchors(blocks, main_text)
    if anchors:
        method, text = "continuation", _extend(page, blocks, anchors, main_text)
    else:
        anchors = _densest(blocks)
        method, text = "densest block", "\n".join(b.text for b in _shaped(page, blocks,
                                                                          anchors))
    if not anchors:
        return SecondReading(False, "none", f"{far}; no run of paragraphs to read again",
                             evidence, "", main_text)
    second = letters(text)
    if second < GAIN * max(first, 1):
        return SecondReading(False, method, f"{far}; the second reading ({second} letters) "
                             "is not longer by enough", evidence, text, main_text)
    return SecondReading(True, method, f"{far}; the second reading holds {second}",
                         evidence, text, main_text)


def article_evidence(html: str, page: PageTree, blocks: list[_Block] | None = None) -> str | None:
    """Why the page is plainly an article, or None: the publisher says so (schema.org's
    Article types, ``og:type`` article), or its content outside chrome holds a run of long
    paragraphs in one container (in an ``<article>`` element or not)."""
    said = article_type(html)
    if said is not None:
        return said
    if OG_ARTICLE.search(html[:200_000]):
        return "og:type article"
    runs = Counter(b.container for b in blocks or _blocks(page) if _paragraph(b))
    container, count = runs.most_common(1)[0] if runs else (-1, 0)
    if count >= MIN_RUN:
        inside = " inside <article>" if _within(page, container, "article") else ""
        return f"{count} long paragraphs in one block{inside}"
    return None


def _paragraph(block: _Block) -> bool:
    return block.letters >= LONG_PARAGRAPH and block.linked * 2 < block.letters


def _blocks(page: PageTree) -> list[_Block]:
    """Every block of content (an element that makes lines, with its inline elements' text),
    in document order."""
    elements, kinds = page.elements, page.kinds
    owner = [0] * len(elements)  # the block each element's text belongs to
    pieces: dict[int, list[tuple[int, str]]] = {}
    linked: Counter[int] = Counter()
    for index, element in enumerate(elements):
        inline = element.tag in _INLINE and element.parent >= 0
        owner[index] = owner[element.parent] if inline else index
        if kinds[index] != "content" or not element.texts:
            continue
        pieces.setdefault(owner[index], []).extend(element.texts)
        if element.tag == "a" or (inline and _linked(elements, index, owner[index])):
            linked[owner[index]] += sum(letters(t) for _, t in element.texts)
    blocks = []
    for index in sorted(pieces):
        raw = "".join(t for _, t in sorted(pieces[index]))
        text = "\n".join(line for part in raw.split("\n") if (line := " ".join(part.split())))
        count = letters(text)
        if count:
            blocks.append(_Block(index, elements[index].parent, text, count, linked[index]))
    return blocks


def _linked(elements: tuple[Element, ...], index: int, block: int) -> bool:
    """Whether an inline element sits inside a link within its block."""
    p = elements[index].parent
    for _ in range(8):  # inline nesting is shallow; deeper is not worth walking
        if p < 0 or p == block:
            return False
        if elements[p].tag == "a":
            return True
        p = elements[p].parent
    return False


def _anchors(blocks: list[_Block], main_text: str) -> list[_Block]:
    """The long paragraphs of content the first reading kept."""
    folded = " ".join(main_text.split())
    lines = {" ".join(line.split()) for line in main_text.split("\n")}
    return [b for b in blocks if _paragraph(b) and ((one := " ".join(b.text.split())) in lines
                                                    or one in folded)]


def _densest(blocks: list[_Block]) -> list[_Block]:
    """The long paragraphs of the container holding the most letters of them (at least
    MIN_RUN of them), or none."""
    weight: Counter[int] = Counter()
    count: Counter[int] = Counter()
    for b in blocks:
        if _paragraph(b):
            weight[b.container] += b.letters
            count[b.container] += 1
    if not weight:
        return []
    container, _ = weight.most_common(1)[0]
    if count[container] < MIN_RUN:
        return []
    return [b for b in blocks if b.container == container and _paragraph(b)]


def _shape(page: PageTree, index: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """An element's tag and class words; for an element with no class, its parent's shape too
    (up to three levels), so bare <div>s elsewhere on the page do not match."""
    shape = []
    for _ in range(3):
        if index < 0:
            break
        element = page.elements[index]
        words = tuple(sorted(set(tokens({"class": element.attrs.get("class")}))))
        shape.append((element.tag, words))
        if words:
            break
        index = element.parent
    return tuple(shape)


def _shaped(page: PageTree, blocks: list[_Block], anchors: list[_Block]) -> list[_Block]:
    """Every block in a container shaped like an anchor's, in document order."""
    shapes: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {}
    for b in blocks:
        if b.container not in shapes:
            shapes[b.container] = _shape(page, b.container)
    wanted_shapes = {shapes[a.container] for a in anchors}
    return [b for b in blocks if shapes[b.container] in wanted_shapes]


def _extend(page: PageTree, blocks: list[_Block], anchors: list[_Block], first: str) -> str:
    """The first reading, whole and as it is written, with the blocks of its paragraphs'
    shape it left out put in at their place in the document.

    The first reading's pieces (its lines, or its paragraphs when blank lines part them) are
    placed at the block they match; a piece matching none (a table row, a list item as the
    extractor wrote it) stays after the piece before it."""
    sep = "\n\n" if "\n\n" in first else "\n"
    pieces = first.split(sep)
    where: dict[str, list[int]] = {}
    for b in blocks:
        where.setdefault(" ".join(b.text.split()), []).append(b.element)
    placed: list[tuple[int, int, int, str]] = []
    at, used = -1, set()
    for i, piece in enumerate(pieces):
        found = where.get(" ".join(piece.split()))
        if found:
            at = found.pop(0)
            used.add(at)
        placed.append((at, 1, i, piece))
    folded = " ".join(first.split())
    for b in _shaped(page, blocks, anchors):
        if b.element not in used and " ".join(b.text.split()) not in folded:
            placed.append((b.element, 0, 0, b.text))
    return sep.join(piece for *_, piece in sorted(placed))


def _within(page: PageTree, index: int, tag: str) -> bool:
    steps = 0
    while index >= 0 and steps < 64:
        if page.elements[index].tag == tag:
            return True
        index = page.elements[index].parent
        steps += 1
    return False


@cache
def extractor_name() -> str:
    """The second reading's extractor, with the versions its text depends on."""
    from importlib.metadata import version

    return (f"readreceipt {version('readreceipt')} second reading (selectolax "
            f"{version('selectolax')})")
