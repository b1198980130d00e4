"""What the publisher says about its own page, for search engines: locked or not, how long.

News sites that lock an article tell search engines so in schema.org markup (Google's
"paywalled content" guidelines): ``isAccessibleForFree: false`` on the article, and a
``hasPart`` of ``WebPageElement`` with its own ``isAccessibleForFree: false`` and a
``cssSelector`` naming the element that holds the locked text. Many also give the article's
``articleBody`` or ``wordCount``. Set against the text that arrived, this tells a teaser from
the article better than any phrase:

- the locked part named by ``cssSelector`` is absent, empty or hidden: the page is a teaser;
  present, shown and holding the text: the article arrived whole, whatever the page says
  around it;
- ``articleBody`` ends with words the visible text does not hold: a teaser; holds them: whole;
- ``wordCount`` far above the words that arrived: a teaser; met: whole.

Evidence: walls/paywall (3 of 4 carry ``isAccessibleForFree: false`` with a selector absent
from the HTML), walls2/paywall/topagrar_* (selector present but empty), and six hard
negatives (walls2: handelsblatt, latimes, ladiaria, gazetadopovo: the same markup with the
locked part present and full). The markup is Google's documented convention, not any site's.

Invariants: pure, never raises on bad JSON or markup (bad blocks are skipped); reads only
``<script type="application/ld+json">`` blocks (at most ``MAX_BLOCKS``, each at most
``MAX_BLOCK_CHARS``) and the elements a ``cssSelector`` names.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from readreceipt.reading.basics import hides_itself, letters

log = logging.getLogger(__name__)

__all__ = ["OG_ARTICLE", "PublisherSays", "article_type", "json_ld_nodes", "publisher_says"]

MAX_BLOCKS = 20
MAX_BLOCK_CHARS = 2_000_000
#: A locked part holding fewer letters than this arrived empty (a placeholder div)...
LOCKED_PART_MIN_LETTERS = 200
#: ... and one holding at least this many arrived whole (a teaser is up to 1,500 letters:
#: fingerprint.TEASER_MAX_MAIN_LETTERS; walls/paywall/zeit_*'s selector names the whole
#: page, teaser included: 1,003 letters).
LOCKED_PART_WHOLE_LETTERS = 1500
#: Whole: at least this share of the publisher's wordCount arrived as words of the main text.
WHOLE_WORDS_SHARE = 0.8
#: A teaser: the whole visible page holds fewer words than this share of wordCount.
TEASER_WORDS_SHARE = 0.5
#: articleBody's last words are looked for in the visible text, this many of them.
BODY_TAIL_WORDS = 12
#: articleBody shorter than this says too little to compare.
BODY_MIN_WORDS = 80

_ARTICLE_TYPES = re.compile(r"(news|scholarly|tech|report|blog|opinion|analysis|review|"
                            r"satirical|advertiser)?article|blogposting|posting|report", re.I)
#: An Open Graph ``og:type`` of article (either attribute order). Within one tag: a run of
#: ``<meta`` openers that never close is read to the next ``<`` from each, not 300
#: characters (1 MB of them took 1.5 s).
OG_ARTICLE = re.compile(r"<meta[^<>]{0,300}?(?:property|name)\s*=\s*[\"']og:type[\"'][^<>]{0,300}?"
                         r"content\s*=\s*[\"']article|<meta[^<>]{0,300}?content\s*=\s*[\"']"
                         r"article[\"'][^<>]{0,300}?(?:property|name)\s*=\s*[\"']og:type", re.I)
_LD_JSON = re.compile(r"<script[^<>]{0,200}application/ld\+json[^<>]{0,200}>", re.I)
_SCRIPT_END = re.compile(r"</script>", re.I)
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class PublisherSays:
    """The publisher's own word on this page; ``verdict`` is "teaser", "whole" or None."""

    verdict: str | None
    why: str
    locked: bool = False  # isAccessibleForFree is false somewhere on the page
    article: bool = False  # the markup types the page as an article


def publisher_says(html: str, visible_text: str, main_text: str) -> PublisherSays:
    """Set the page's schema.org claims against the text that arrived (see module doc)."""
    nodes = list(_nodes(html))
    article = any(_is_article(n) for n in nodes)
    locked = any(_false(n.get("isAccessibleForFree")) for n in nodes)
    selectors = sorted({s for n in nodes for s in _locked_selectors(n)})
    if locked and selectors:
        found = _selector_letters(html, selectors)
        if found is not None:
            shown = ", ".join(selectors)
            if found < LOCKED_PART_MIN_LETTERS:
                what = "absent" if found < 0 else f"only {found} letters"
                return PublisherSays("teaser", f"isAccessibleForFree=false; the locked part "
                                     f"({shown}) is {what}", locked, article)
            if found >= LOCKED_PART_WHOLE_LETTERS:
                return PublisherSays("whole", f"isAccessibleForFree=false, but the locked part "
                                     f"({shown}) arrived with {found} letters", locked, article)
    body = next((b for n in nodes if _is_article(n)
                 and isinstance(b := n.get("articleBody"), str)), None)
    if body is not None and len(_WORD.findall(body)) >= BODY_MIN_WORDS:
        tail = " ".join(_WORD.findall(body)[-BODY_TAIL_WORDS:]).lower()
        visible = " ".join(_WORD.findall(visible_text)).lower()
        if tail in visible:
            return PublisherSays("whole", "articleBody's last words are on the page", locked,
                                 article)
        if locked:
            return PublisherSays("teaser", "isAccessibleForFree=false; articleBody's last "
                                 "words are not on the page", locked, article)
    count = next((c for n in nodes if _is_article(n) and (c := _int(n.get("wordCount")))), None)
    if count:
        main_words = len(_WORD.findall(main_text))
        page_words = len(_WORD.findall(visible_text))
        if main_words >= WHOLE_WORDS_SHARE * count:
            return PublisherSays("whole", f"wordCount {count}; {main_words} words arrived",
                                 locked, article)
        if page_words < TEASER_WORDS_SHARE * count:
            return PublisherSays("teaser", f"wordCount {count}; the whole page holds "
                                 f"{page_words} words", locked, article)
    return PublisherSays(None, "", locked, article)


_MICRODATA = re.compile(r"itemtype\s*=\s*[\"']?https?://schema\.org/(\w+)", re.I)


def article_type(html: str) -> str | None:
    """The schema.org article type the page gives itself (JSON-LD or microdata), or None."""
    if "ld+json" in html:
        for node in _nodes(html):
            kind = next((t for t in _types(node) if _ARTICLE_TYPES.fullmatch(t)), None)
            if kind is not None:
                return f"JSON-LD {kind}"
    for match in _MICRODATA.finditer(html):
        if _ARTICLE_TYPES.fullmatch(match.group(1)):
            return f"microdata {match.group(1)}"
    return None


def json_ld_nodes(html: str) -> Iterator[dict[str, Any]]:
    """Every JSON object in the page's JSON-LD blocks, nested ones and @graph members too."""
    return _nodes(html)


def _nodes(html: str) -> Iterator[dict[str, Any]]:
    """Every JSON object in the page's JSON-LD blocks, nested ones and @graph members too."""
    for count, block in enumerate(_ld_json_blocks(html)):
        if count >= MAX_BLOCKS:
            return
        raw = block.strip()
        if not raw or len(raw) > MAX_BLOCK_CHARS:
            continue
        try:
            data = json.loads(raw.removeprefix("<!--").removesuffix("-->"), strict=False)
        except (ValueError, RecursionError):
            continue
        stack: list[Any] = [data]
        seen = 0
        while stack and seen < 10_000:
            item = stack.pop()
            seen += 1
            if isinstance(item, dict):
                yield item
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)


def _ld_json_blocks(html: str) -> Iterator[str]:
    """The content of each JSON-LD script, up to its closing tag. Found by hand, not by one
    pattern: a lazy scan to ``</script>`` from every opener would read the rest of a page
    that opens many and closes none once per opener; here, once none closes, none will."""
    pos = 0
    while (opener := _LD_JSON.search(html, pos)) is not None:
        end = _SCRIPT_END.search(html, opener.end())
        if end is None:
            return
        yield html[opener.end():end.start()]
        pos = end.end()


def _types(node: dict[str, Any]) -> list[str]:
    kind = node.get("@type")
    return [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)]


def _is_article(node: dict[str, Any]) -> bool:
    return any(_ARTICLE_TYPES.fullmatch(t) for t in _types(node))


def _false(value: object) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() == "false")


def _int(value: object) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def _locked_selectors(node: dict[str, Any]) -> Iterator[str]:
    parts = node.get("hasPart")
    for part in parts if isinstance(parts, list) else [parts]:
        if isinstance(part, dict) and _false(part.get("isAccessibleForFree")):
            selector = part.get("cssSelector")
            if isinstance(selector, str) and 0 < len(selector) <= 200:
                yield selector.strip()


def _hidden(node: Any) -> bool:
    """Whether the element or one of its ancestors is hidden by its own attributes (a locked
    part shipped in the HTML but not shown: walls2/paywall/topagrar_*)."""
    depth = 0
    while node is not None and depth < 100:
        if hides_itself(node.attributes):
            return True
        node = node.parent
        depth += 1
    return False


def _selector_letters(html: str, selectors: list[str]) -> int | None:
    """Letters of visible text in the elements the selectors name; -1 when none is there;
    None when no selector could be applied (the claim is then not used)."""
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(html)
        tree.strip_tags(["script", "style", "noscript", "template"])
    except Exception:  # selectolax raises a variety on hostile markup
        return None
    total, matched, applied = 0, False, False
    for selector in selectors:
        try:
            found = tree.css(selector)
        except Exception:  # a selector selectolax does not understand: not evidence
            log.debug("publisher: cssSelector %r not understood", selector)
            continue
        applied = True
        for node in found:
            matched = True
            if not _hidden(node):
                total += letters(node.text(separator=" "))
    if not applied:
        return None
    return total if matched else -1
