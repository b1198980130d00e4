"""A block template by its shape: a short page whose whole text is a refusal carrying the
reader's address and a reference for the request, whatever the vendor and the language.

Every CDN's and web application firewall's block page is built so: the reader is shown the
address the request came from and an id to quote to support (a Ray ID, a block, incident or
support id), and nothing of the site. A page that shows both, whose whole visible text is
short and that links to almost nothing, is such a page (tables/vendors.py: ``CLIENT_ADDRESS``,
``REQUEST_ID`` and the two limits, with the pages they were measured on). A template stored
unfilled carries placeholders named for the two (``::CLIENT_IP::``, ``::RAY_ID::``), which
count as the values would.

Invariants: the page's text is read up to ``WALL_TEXT_CHARS``; the patterns are linear (a
lookahead bounded to 40 characters, bounded repetitions); nothing here reads the markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from readreceipt.reading.tables.vendors import (
    BLOCK_TEMPLATE_MAX_LINKS,
    BLOCK_TEMPLATE_MAX_PAGE_LETTERS,
    CLIENT_ADDRESS,
    REQUEST_ID,
)

__all__ = ["BlockShape", "block_shape"]

_ADDRESS = re.compile(CLIENT_ADDRESS)
_ID = re.compile(REQUEST_ID)


@dataclass(frozen=True)
class BlockShape:
    """What made the page a block template: the address and the reference it shows."""

    address: str
    reference: str


def block_shape(page_text: str, page_letters: int, links: int) -> BlockShape | None:
    """The address and reference a short, link-poor page shows (``page_text`` already
    lower-cased and capped by the caller), or None."""
    if page_letters > BLOCK_TEMPLATE_MAX_PAGE_LETTERS or links > BLOCK_TEMPLATE_MAX_LINKS:
        return None
    address = _ADDRESS.search(page_text)
    if address is None:
        return None
    for found in _ID.finditer(page_text):
        # The address is not its own reference (an IPv6 address's groups are hexadecimal).
        if found.start() >= address.end() or found.end() <= address.start():
            return BlockShape(address.group(0), found.group(0))
    return None
