"""Parked domains by structure: where the page's links, forms and scripts go, not its words.

A parked domain's page offers the domain for sale or shows advertising in place of a site. Its
structure says so in any language and at any length (a marketplace's sale page may carry
thousands of letters of buyer protection and FAQ):

- a link or a form to a marketplace (``tables/parking.py``) whose address names the page's own
  domain: an offer to sell this very domain;
- the page was sent to a marketplace or a parking service (its final address is on one);
- a parking service's script or frame (``<script src>``, ``<iframe src>``) on a page whose
  content is short.

Invariants: pure; one pass over the page's links (``href``, ``action``, ``src``), capped.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from readreceipt.reading.facts import BLOCK_MAX_MAIN_LETTERS, Facts
from readreceipt.reading.tables.parking import MARKETPLACES, PARKING_SERVICES

__all__ = ["MAX_LINKS", "parked_by_structure"]

#: Links read from one page, at most (a sale page has tens).
MAX_LINKS = 5_000
_LINK = re.compile(r"""<(a|form|iframe|script)\b[^>]{0,600}?\b(href|action|src)\s*=\s*["']?"""
                   r"""([^"'\s>]{1,600})""")


_DOMAIN = re.compile(r"\b[a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){1,3}\b")


def _host(url: str) -> str:
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""
    return host.removeprefix("www.")


def _on(host: str, hosts: frozenset[str]) -> str | None:
    """The listed host ``host`` is, or is under; None."""
    parts = host.split(".")
    for i in range(len(parts) - 1):
        candidate = ".".join(parts[i:])
        if candidate in hosts:
            return candidate
    return None


def _registrable(host: str) -> str:
    """The page's own domain name as a sale names it: the host without ``www.``; its last
    two labels when those are longer than a country's second level (``co.uk``)."""
    parts = host.split(".")
    if len(parts) >= 3 and len(parts[-2]) <= 3 and len(parts[-1]) == 2:
        return ".".join(parts[-3:])
    return ".".join(parts[-2:]) if len(parts) >= 2 else host


def parked_by_structure(f: Facts) -> str | None:
    """The rule naming the structure that makes the page a parked domain's, or None."""
    final = _host(f.page.final_url)
    asked = _host(f.page.url)
    if final and final != asked and (on := _on(final, MARKETPLACES | PARKING_SERVICES)):
        return f"structure:the address was sent to {on}, a domain marketplace or parking service"
    # The domain on sale: the page's own, or the one its title names (a sale page is titled
    # with the name it sells; the address asked for may be any of the domain's paths).
    owns = {_registrable(asked)} if asked else set()
    owns |= {d for d in _DOMAIN.findall(f.title) if "." in d}
    markup = f.markup
    if not any(h in markup for h in MARKETPLACES | PARKING_SERVICES):
        return None
    for count, m in enumerate(_LINK.finditer(markup)):
        if count >= MAX_LINKS:
            break
        tag, target = m.group(1), unquote(m.group(3))
        host = _host(target if "//" in target else "")
        if not host:
            continue
        market = _on(host, MARKETPLACES)
        rest = target.lower().replace(host, "", 1)
        own = next((d for d in owns if d in rest), None) if market else None
        if own and tag in ("a", "form"):
            return (f"structure:a {'link' if tag == 'a' else 'form'} to {market} offering this "
                    f"domain ({own})")
        service = _on(host, PARKING_SERVICES)
        if service and tag in ("script", "iframe") and f.main_letters <= BLOCK_MAX_MAIN_LETTERS:
            return f"structure:a parking service's {tag} ({service}) on a short page"
    return None
