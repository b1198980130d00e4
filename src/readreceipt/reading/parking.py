"""Parked domains by structure: where the page's links, forms and scripts go, not its words.

A parked domain's page offers the domain for sale or shows advertising in place of a site. Its
structure says so in any language and at any length (a marketplace's sale page may carry
thousands of letters of buyer protection and FAQ):

- a link or a form to a marketplace (``tables/parking.py``) whose address names the page's own
  domain: an offer to sell this very domain;
- the page was sent to a marketplace or a parking service (its final address is on one);
- a parking service's script or frame (``<script src>``, ``<iframe src>``) on a page whose
  content is short;
- links whose tracking parameters name the parking page they are on
  (``utm_source=parking_click``: a registrar's lander counting the clicks it sends back,
  seen on AfterMarket.pl's landers in the development set; ``parkedpages``,
  ``domain_parking``), on a page short enough to be a sale page;
- the ad-block key parking landers carry on their root element (``<html
  data-adblockkey="...">``: the key by which the parking services' ad networks let their
  adverts through ad blockers; Sedo's, Bodis's and ParkingCrew's landers all carry it), on a
  page whose content is short (an archived front page of a lapsed domain in the development
  set, bench/devset3_labels.tsv, has it and no text);
- on a short page: links offering ``MIN_LISTED`` or more domain names on one other site
  (``sklep.example/wawa.pl``, ``?domain=...``): a domain shop's listing framed on the parked
  domain (the development set's premium.pl seller page, 49 names); an address of a broker that
  sells nothing but domains (``BROKERS``) on a page titled with a domain name (Saw.com's
  lander); an almost empty page whose script reads the host it is served at, with an empty
  heading for it to fill (a for-sale template served for any domain). A site's own links and
  the broker's own pages are not read so (hostpage.py's ``site_names``: the page's address and
  the one its head declares).

Invariants: pure; the markup is searched once per domain name (and, on a short page, once per
parking service, once for the brokers' hosts, once for its links), each hit read in the tag
around it, capped (``MAX_LINKS``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from readreceipt.reading.facts import BARE_MAX_MAIN_LETTERS, BLOCK_MAX_MAIN_LETTERS, Facts
from readreceipt.reading.hostpage import host_of, listed_under, name_of, site_names
from readreceipt.reading.tables.parking import (
    BROKERS,
    DOMAIN_FIELDS,
    FILE_SUFFIXES,
    MARKETPLACES,
    OFFER_FIELDS,
    PARKING_SERVICES,
)

__all__ = ["MAX_LINKS", "MAX_MAIN_LETTERS", "MIN_LISTED", "parked_by_structure"]

#: A sale page's text, FAQ and buyer protection included, is shorter than this (letters of
#: main text; tests/pages/parked/sale_page_long_faq.html: 1,500); a longer page is a site's.
MAX_MAIN_LETTERS = 6000
#: Occurrences of a listed host read from one page, at most (a sale page has tens).
MAX_LINKS = 500
#: How far before a host's name its tag may open (the tag's name and attributes).
_TAG_REACH = 700
_LINK = re.compile(r"""<(a|form|iframe|script)\b[^<>]{0,600}?\b(href|action|src)\s*=\s*["']?"""
                   r"""([^"'\s>]{1,600})""")


#: The root element's ad-block key, within the first characters of the markup (a doctype,
#: a comment before ``<html>``).
_ADBLOCK_KEY = re.compile(r"<html\b[^<>]{0,400}\bdata-adblockkey\s*=")
_ROOT_REACH = 2000
#: A link's tracking parameter naming the parking page it is on (not "parking" alone: a
#: city's page about car parks tags its campaigns so).
_PARKING_TAG = re.compile(r"[?&](amp;)?utm_[a-z]{1,10}=[a-z0-9_-]{0,20}?(parked|domain_?parking|"
                          r"parking_?(click|page|lander))")
#: Domains on offer, at least, in a shop's listing framed on a parked domain (the development
#: set's premium.pl listing has 49; a sale page's "other names of this seller" box, a few).
MIN_LISTED = 10
#: A link's path that is one domain name (``/wawa.pl``), or a query naming one.
_NAME_PATH = re.compile(r"/?([a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){0,2}\.([a-z]{2,24}))/?")
_NAME_QUERY = re.compile(r"(?:^|&)(?:domain|domainname|name)=([a-z0-9][a-z0-9-]{0,62}"
                         r"(?:\.[a-z0-9-]{1,63}){0,2}\.([a-z]{2,24}))(?:&|$)")
#: A broker's host as an address's host (after "//", "." or "@"), not a word of prose.
_BROKER = re.compile(r"(?<=[/.@])(" + "|".join(re.escape(b) for b in sorted(BROKERS)) +
                     r")(?![a-z0-9-])")
#: The domain a sale page is titled with, first in its title ("EXAMPLE.COM - For Sale").
_TITLE_DOMAIN = re.compile(r"^\W{0,3}([a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){0,2}"
                           r"\.([a-z]{2,24}))(?![a-z0-9.-])")
#: What a script writes a page's text with (one of them beside the host it reads).
_WRITES = ("textcontent", "innerhtml", "innertext", "document.title", "document.write")
#: A heading with nothing in it, for a script to fill.
_EMPTY_H1 = re.compile(r"<h1\b[^<>]{0,300}>\s{0,200}</h1>")
_DOMAIN = re.compile(r"\b[a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){1,3}\b")
#: A heading that is one domain name and nothing else (a sale page's "example.com").
_WHOLE_DOMAIN = re.compile(r"[a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){0,2}\.([a-z]{2,24})")
#: A form's opening tag, and a field's, read in their own tag (``[^<>]``: linear).
_FORM_OPEN = re.compile(r"<form\b([^<>]{0,600})>")
_FIELD = re.compile(r"<(?:input|select|textarea|button)\b([^<>]{0,600})>")
_ATTR = re.compile(r"""\b(name|id|type)\s*=\s*["']?([^"'\s<>]{1,100})""")
#: Forms read on one page, and characters of one form, at most.
MAX_FORMS = 20
_FORM_REACH = 20_000


def _registrable(host: str) -> str:
    """The page's own domain name as a sale names it: the host without ``www.``; its last
    two labels when those are longer than a country's second level (``co.uk``)."""
    parts = host.split(".")
    if len(parts) >= 3 and len(parts[-2]) <= 3 and len(parts[-1]) == 2:
        return ".".join(parts[-3:])
    return ".".join(parts[-2:]) if len(parts) >= 2 else host


#: What may stand before an address in a tag: a quote or a blank, neither of which an
#: address ``_LINK`` reads may hold, so the address begins right after it (an ``=`` may be a
#: query's, inside another address: ``?u=https://example.com``).
_VALUE_START = frozenset("\"' \t\n\r\f")
#: What may end the host of an address (not ``:`` or ``\``: ``https://example.com:x@other/``
#: and ``https://example.com\@other/`` have the other host).
_HOST_END = frozenset("/\"' \t\n\r\f>?#")
_HOST_LABEL = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")
#: How far back a host's subdomain labels are read (the longest host name).
_HOST_REACH = 253


def _is_own_host(markup: str, at: int, end: int) -> bool:
    """Whether the domain at ``markup[at:end]`` is the host (or under the host) of an
    absolute address that begins there: ``="https://www.example.com/...``. Such an address
    is the site's own link, never a marketplace's."""
    if end < len(markup) and markup[end] not in _HOST_END:
        return False
    i, floor = at, max(0, at - _HOST_REACH)
    while i > floor and markup[i - 1] in _HOST_LABEL:
        i -= 1
    if i != at and markup[i] == ".":  # (".example.com": not a label before it)
        return False
    if i != at and markup[at - 1] != ".":  # (the domain is the tail of a longer label)
        return False
    if not markup.startswith("//", i - 2):
        return False
    i -= 2
    for scheme in ("https:", "http:"):
        if markup.startswith(scheme, i - len(scheme)):
            i -= len(scheme)
            break
    return i > 0 and markup[i - 1] in _VALUE_START


@lru_cache(maxsize=256)
def _hosts_market(domain: str) -> bool:
    """Whether a host that is ``domain`` or under it may be a marketplace's: the domain is
    one, is under one, or has one under it (a link to the domain's own site is then not
    passed over)."""
    return any(m == domain or m.endswith("." + domain) or domain.endswith("." + m)
               for m in MARKETPLACES)


def _tags_naming(markup: str, needle: str,
                 skip_own_links: bool = False) -> list[tuple[str, str]]:
    """(tag, address) of the links, forms, frames and scripts whose address holds ``needle``:
    each occurrence is read in the tag around it (at most ``MAX_LINKS`` occurrences, each tag
    at most ``_TAG_REACH`` characters back), so the page is scanned once for the needle.

    ``skip_own_links``: an occurrence that is the host of an absolute address beginning
    there (the site's own links, hundreds on an article page) is passed over without reading
    its tag: the caller has made sure no host of that kind is one it looks for."""
    found: list[tuple[str, str]] = []
    at, seen = markup.find(needle), 0
    while at >= 0 and seen < MAX_LINKS:
        seen += 1
        if skip_own_links and _is_own_host(markup, at, at + len(needle)):
            at = markup.find(needle, at + len(needle))
            continue
        start = markup.rfind("<", max(0, at - _TAG_REACH), at)
        if start >= 0 and (m := _LINK.match(markup, start)) is not None and \
                m.start(3) <= at < m.end(3):
            found.append((m.group(1), unquote(m.group(3))))
        at = markup.find(needle, at + len(needle))
    return found


def _listed_name(target: str) -> tuple[str, str] | None:
    """(host, domain) when a link's address offers one domain name (its path, or a query
    key naming it), else None."""
    try:
        parts = urlsplit(target)
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:
        return None
    if not host:
        return None
    for pattern, text in ((_NAME_PATH, parts.path), (_NAME_QUERY, parts.query)):
        m = pattern.fullmatch(text) if pattern is _NAME_PATH else pattern.search(text)
        if m is not None and m.group(2) not in FILE_SUFFIXES:
            return host, m.group(1)
    return None


def _domain_listing(f: Facts, markup: str) -> str | None:
    """Links offering ``MIN_LISTED`` or more domains on one other site: a domain shop's
    listing framed on the parked domain (a site's own list of names, a registrar's search
    results, links to its own host: not counted)."""
    own = site_names(f)
    offered: dict[str, set[str]] = {}
    for i, m in enumerate(_LINK.finditer(markup)):
        if i >= MAX_LINKS:
            break
        if m.group(1) != "a" or "//" not in m.group(3):
            continue
        found = _listed_name(unquote(m.group(3)))
        if found is None or (name := name_of(found[0])) in own:
            continue
        names = offered.setdefault(name, set())
        names.add(found[1])
        if len(names) >= MIN_LISTED:
            return (f"structure:links offering {MIN_LISTED} or more domains on one other site "
                    f"({found[0]}): a domain shop's listing in place of the site")
    return None


def _broker_sale(f: Facts, markup: str) -> str | None:
    """A short page titled with a domain name that carries an address of a broker that only
    sells domains (``BROKERS``): the sale page of that name. Not the broker's own page."""
    titled = _TITLE_DOMAIN.match(f.title)
    if titled is None or titled.group(2) in FILE_SUFFIXES:
        return None
    broker = _BROKER.search(markup)
    if broker is None:
        return None
    name = name_of(broker.group(1))
    if name == name_of(titled.group(1)) or name in site_names(f):
        return None
    return (f"vendor:the broker {broker.group(1)}'s address on a short page titled with a "
            f"domain name ({titled.group(1)})")


def _hostname_lander(f: Facts, markup: str) -> str | None:
    """An almost empty page whose script reads the host it is served at, with an empty
    heading for it: a template served for any domain, writing each one's name in
    (a parking or for-sale lander, bench/devset3_labels.tsv ru_parked_02)."""
    if f.main_letters > BARE_MAX_MAIN_LETTERS or "location.host" not in markup:
        return None
    if not any(w in markup for w in _WRITES) or _EMPTY_H1.search(markup) is None:
        return None
    return ("structure:a script reads the address it is served at, for an empty heading: "
            "a template served for any domain")


def _heading_domains(f: Facts, content_only: bool = False) -> set[str]:
    """The domain names the page shows as a whole heading (not a file's name); with
    ``content_only``, not one that also stands in the site's header or navigation (a logo)."""
    # (The headings as the markup holds them first: where none is a domain name, as on
    # almost every page, the layout that says where a heading is shown is not built.)
    if not any(_WHOLE_DOMAIN.fullmatch(h.strip()) for h in f.headings[1 if f.title else 0:]):
        return set()
    found = set()
    for heading in f.shown_headings[1 if f.title else 0:]:
        m = _WHOLE_DOMAIN.fullmatch(heading.strip())
        if m is not None and m.group(1) not in FILE_SUFFIXES and (
                not content_only or f.only_in_content(m.group(0))):
            found.add(m.group(0))
    return found


def _words(value: str) -> set[str]:
    """An identifier and the words it is made of (``main-offer-form``: offer, form ...)."""
    value = value.lower()
    return {value, *re.split(r"[^a-z0-9]+", value)}


def _offer_form(f: Facts, markup: str) -> str | None:
    """A short page with a form for an offer on a domain: a field (or the form itself) named
    for the amount offered (``OFFER_FIELDS``) where the domain is named by the form's hidden
    field (``DOMAIN_FIELDS``), the page's title or one of its headings. Its words may be in any
    language; the template's identifiers are the same."""
    shown_domain = bool(_heading_domains(f, content_only=True)) or (
        (t := _TITLE_DOMAIN.match(f.title)) is not None and t.group(2) not in FILE_SUFFIXES)
    for i, form in enumerate(_FORM_OPEN.finditer(markup)):
        if i >= MAX_FORMS:
            break
        close = markup.find("</form", form.end(), form.end() + _FORM_REACH)
        body = markup[form.end():close if close >= 0 else form.end() + _FORM_REACH]
        offer = any(k == "id" and OFFER_FIELDS & _words(v) for k, v in _ATTR.findall(form.group(1)))
        hidden_domain = False
        for field in _FIELD.finditer(body):
            attrs = {k: v.lower() for k, v in _ATTR.findall(field.group(1))}
            if attrs.get("name") in OFFER_FIELDS or attrs.get("id") in OFFER_FIELDS:
                offer = True
            if attrs.get("type") == "hidden" and attrs.get("name") in DOMAIN_FIELDS:
                hidden_domain = True
        if offer and (hidden_domain or shown_domain):
            named = "its hidden domain field" if hidden_domain else "the domain its page shows"
            return (f"structure:a form for an offer on a domain ({named}) on a short page: "
                    "the domain's sale page")
    return None


def parked_by_structure(f: Facts) -> str | None:
    """The rule naming the structure that makes the page a parked domain's, or None."""
    final = host_of(f.page.final_url)
    asked = host_of(f.page.url)
    if final and final != asked and (on := listed_under(final, MARKETPLACES | PARKING_SERVICES)):
        return f"structure:the address was sent to {on}, a domain marketplace or parking service"
    if f.main_letters > MAX_MAIN_LETTERS:
        return None
    # The domain on sale: the page's own, or the one its title names (a sale page is titled
    # with the name it sells; the address asked for may be any of the domain's paths).
    owns = {_registrable(asked)} if asked else set()
    owns |= {d for d in _DOMAIN.findall(f.title) if "." in d}
    # (A heading that is a domain name alone is the name on sale on a sale page, a site's
    # logo on many others; either way a marketplace's link offering it is a sale.)
    owns |= _heading_domains(f)
    markup = f.markup
    # A link or form whose address names the domain on sale and is on a marketplace: the
    # page is read at each mention of the domain (a few), not link by link. (Not when that
    # domain is a marketplace's own: its pages link to itself, tests/test_parking_shapes.py.)
    for own in sorted(owns):
        if listed_under(own, MARKETPLACES):
            continue
        for tag, target in _tags_naming(markup, own, skip_own_links=not _hosts_market(own)):
            market = listed_under(host_of(target if "//" in target else ""), MARKETPLACES)
            if market and tag in ("a", "form"):
                return (f"structure:a {'link' if tag == 'a' else 'form'} to {market} "
                        f"offering this domain ({own})")
    # (The literals first: a substring test is a small part of the pattern's scan of a page.)
    tagged = _PARKING_TAG.search(markup) if "utm_" in markup and (
        "parked" in markup or "parking" in markup) else None
    if tagged is not None:
        return f"vendor:links tagged as a parking page's ({tagged.group(0)[:60]})"
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS:
        return None
    sold = (_domain_listing(f, markup) or _broker_sale(f, markup) or _hostname_lander(f, markup)
            or _offer_form(f, markup))
    if sold is not None:
        return sold
    if _ADBLOCK_KEY.search(markup[:_ROOT_REACH]) is not None:
        return "vendor:a parking lander's ad-block key (data-adblockkey) on a short page"
    for service in sorted(PARKING_SERVICES):
        for tag, target in _tags_naming(markup, service):
            host = host_of(target if "//" in target else "")
            if tag in ("script", "iframe") and listed_under(host, PARKING_SERVICES):
                return f"structure:a parking service's {tag} ({service}) on a short page"
    return None
