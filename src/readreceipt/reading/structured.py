"""A page's tables and its publisher's metadata, as text a figure can be looked for in.

The claim check (:mod:`readreceipt.quotes.claims`) looks for an answer's figure in the main
content, then in the whole visible text, then here: :func:`tables_text` writes every data
cell of every table on a line of its own with the words that say what it counts, its row's
first cell and its column's header ("Daily crossings | 2025 | 84,000"), which the visible
text runs together or spreads over lines; :func:`metadata_text` writes what the publisher
tells search engines and previews, the ``<meta>`` descriptions and dates and the JSON-LD
values ("date published: 2026-03-03T09:00:00Z"), one ``key: value`` a line, camel-case keys
spelled out so that their words can stand beside a figure.

Invariants: pure, never raises on bad markup or JSON; bounded: at most :data:`MAX_TABLES`
tables, :data:`MAX_CELLS` cells and :data:`MAX_CHARS` characters of output each; JSON-LD as
:mod:`readreceipt.reading.publisher` reads it (its block and node caps).
"""

from __future__ import annotations

import re
from typing import Any

from readreceipt.reading.publisher import json_ld_nodes

__all__ = ["MAX_CELLS", "MAX_CHARS", "MAX_TABLES", "metadata_text", "tables_text"]

MAX_TABLES = 50
MAX_CELLS = 5000
MAX_CHARS = 200_000
_CELL_CHARS = 200
_WS = re.compile(r"\s{1,10000}")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
#: The ``<meta>`` names and properties whose content describes the page or dates it.
_META_NAMES = frozenset((
    "description", "og:description", "og:title", "twitter:description", "twitter:title",
    "article:published_time", "article:modified_time", "og:updated_time", "date",
    "dc.date", "dcterms.date", "dc.description", "pubdate", "publishdate", "citation_date",
    "citation_publication_date", "sailthru.date", "parsely-pub-date",
))


def _cell(node: Any) -> str:
    return _WS.sub(" ", node.text(separator=" ") or "").strip()[:_CELL_CHARS]


def tables_text(html: str) -> str:
    """Every data cell of the page's tables with its row's and column's labels."""
    if "<table" not in html and "<TABLE" not in html:
        return ""
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(html)
    except (ValueError, RuntimeError):
        return ""
    lines: list[str] = []
    size = cells = 0
    for table in tree.css("table")[:MAX_TABLES]:
        header: list[str] = []
        for row in table.css("tr"):
            row_cells = row.css("th, td")
            texts = [_cell(c) for c in row_cells]
            if not header and row_cells and all(c.tag == "th" for c in row_cells):
                header = texts
                continue
            label = texts[0] if texts else ""
            for i, text in enumerate(texts[1:], start=1):
                cells += 1
                if not text:
                    continue
                column = header[i] if i < len(header) else ""
                line = " | ".join(part for part in (label, column, text) if part)
                lines.append(line)
                size += len(line) + 1
            if len(texts) == 1 and texts[0]:
                lines.append(texts[0])
            if size > MAX_CHARS or cells > MAX_CELLS:
                return "\n".join(lines)[:MAX_CHARS]
    return "\n".join(lines)


_META = re.compile(r"<meta\s[^<>]{0,2000}>", re.I)
_ATTRIBUTE = re.compile(r"""([\w:.-]{1,60})\s{0,5}=\s{0,5}(?:"([^"]{0,4000})"|'([^']{0,4000})')""")


def metadata_text(html: str) -> str:
    """What the publisher tells search engines: meta descriptions and dates, JSON-LD."""
    import html as entities

    lines: list[str] = []
    for count, tag in enumerate(_META.finditer(html[:MAX_CHARS * 5])):
        if count > 500:
            break
        attributes = {m.group(1).lower(): m.group(2) if m.group(2) is not None else m.group(3)
                      for m in _ATTRIBUTE.finditer(tag.group())}
        name = (attributes.get("name") or attributes.get("property")
                or attributes.get("itemprop") or "").lower()
        content = attributes.get("content")
        if name in _META_NAMES and content:
            lines.append(f"{_spelled_key(name)}: {entities.unescape(content).strip()}")
    for node in json_ld_nodes(html):
        for key, value in node.items():
            if key.startswith("@") or key == "articleBody":
                continue  # the article's own text is the main content's
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                text = _WS.sub(" ", str(value)).strip()[:1000]
                if text and not text.startswith(("http://", "https://")):
                    lines.append(f"{_spelled_key(key)}: {text}")
        if sum(len(line) for line in lines) > MAX_CHARS:
            break
    return "\n".join(dict.fromkeys(lines))[:MAX_CHARS]


def _spelled_key(key: str) -> str:
    """"datePublished" -> "date published", "article:published_time" -> "article
    published time"."""
    key = key.split(":")[-1] if key.startswith(("og:", "twitter:", "dc.", "dcterms.")) else key
    return _CAMEL.sub(" ", key).replace("_", " ").replace(":", " ").replace(".", " ").lower()
