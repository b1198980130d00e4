"""A host's page in place of a site: read from where its links point, not from its words.

A hosting company serves a page of its own where a customer's site should be: the default
page of a domain just added to an account ("this website has no content yet: upload your
files"), the page of an account suspended or past its paid term. Each is the company's
template, whatever the site: its logo links to the company's home page, its other links to
the company's support pages, control panel, documentation and contact page, and not one link
goes to the site it stands for (there is no site yet, or no more). Its words change with every
host and language; that shape does not. So the test reads the links:

- the page is short (main text at most ``BLOCK_MAX_MAIN_LETTERS``, the whole visible text at
  most ``MAX_PAGE_LETTERS``: a host's menu of 58 links is 1,326 letters), the publisher
  does not type it an article, and it has no password field (a site's own sign-in);
- no link, and no form, goes to the site itself (a relative address, the page's own host or a
  host of the same name under another suffix: ``example.de`` and ``example.com``,
  ``user.github.io`` and ``github.com``; or a name the page's head declares its own, by its
  canonical address, alternates, short link, og:url or base, which a saved copy judged away
  from its address still carries): a site's page, however short, links to the rest of its
  site;
- at least ``MIN_LINKS`` links, and ``MIN_SHARE`` of all its links, go to one other name
  (``MIN_DISTINCT`` different addresses of it, one of them its home page): the company whose
  template it is (a link-in-bio page or a one-page site with its social profiles links to
  many names; a site builder's badge is one link; a moved site's notice links to its new
  address, not to a support site and a control panel beside a home page).

A page on a shared platform's host (``tables/platforms.py``, ``SHARED_HOSTS``: a cloud
bucket's, a CDN's) is a file someone put there, linking wherever its owner's site is; the
rule does not read it.

What the page is then: a notice's own word in its title or headings (barenotice.py's words:
suspended, unavailable, blocked, maintenance) makes it the host's notice (an interstitial);
otherwise it is the host's placeholder (parked: the address leads to no site). The rule kind
is ``structure`` either way: the links decide that the page is the host's, the word only which
of the host's pages it is.

The evidence: the development set's hosting pages (bench/devset3_labels.tsv: de_hostdefault_01,
fr_parked_01, fr_parked_02, ru_suspended_01, pl_suspended_01: 4 to 58 links, every one to the
host, 3 to 40 distinct, its home page among them); the development set's clean pages, the
corpora's 181 articles and the held-out clean pages each have a link to their own site.

Invariants: pure; linear in the markup (one pass over its link and form openers, at most
``MAX_LINKS``, and one over its link, meta and base tags, at most ``MAX_HEAD_TAGS``, each read
to the next ``<``); runs only on a page already short enough to be a wall.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from tld import get_tld

from readreceipt.reading.barenotice import notice_word
from readreceipt.reading.facts import BLOCK_MAX_MAIN_LETTERS, ContentSignal, Facts
from readreceipt.reading.tables.platforms import SHARED_HOSTS

__all__ = ["MAX_LINKS", "MAX_PAGE_LETTERS", "MIN_DISTINCT", "MIN_LINKS", "MIN_SHARE", "HostPage",
           "check_host_page", "host_of", "host_page", "listed_under", "name_of",
           "site_names"]

#: Visible letters of the whole page, at most (the development set's largest host page, with
#: its 58-link menu of the host's services, has 1,326).
MAX_PAGE_LETTERS = 3000
#: Links to the host, at least (the development set's host pages have 4 to 58).
MIN_LINKS = 3
#: The host's share of the page's links (mail addresses included), at least.
MIN_SHARE = 0.8
#: Different addresses of the host, at least (its home page, support, panel: 3 to 40 there).
MIN_DISTINCT = 3
#: Link and form openers read, at most (a host page has tens).
MAX_LINKS = 500

#: A link's or a form's address (``[^<>]``: an attempt stops at the next tag's opening).
_LINK = re.compile(r"""<(?:a|form|area)\b[^<>]{0,600}?\b(?:href|action)\s*=\s*["']?"""
                   r"""([^"'\s<>]{0,600})""")
#: The head's tags that may declare the page's own address: its canonical address, its feeds'
#: and languages' alternates, its short link, its og:url, its base.
_HEAD_TAG = re.compile(r"<(link|meta|base)\b([^<>]{0,1000})>")
_DECLARES = re.compile(r"""\brel\s*=\s*["']?(canonical|alternate|shortlink)\b|og:url""")
_ADDRESS = re.compile(r"""\b(?:href|content)\s*=\s*["']?(https?://[^"'\s<>/]{1,253})""")
#: A password field: a host's template asks for none (a site's sign-in page whose links are
#: all absolute, judged away from its address, bench/devset4_labels.tsv fa_login_235, is the
#: site's own page).
_PASSWORD = re.compile(r"""<input\b[^<>]{0,400}?\btype\s{0,3}=\s{0,3}["']?password""")
#: Head tags read for a declared address, at most.
MAX_HEAD_TAGS = 300
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]{0,20}:")
_IP = re.compile(r"^[\d.]+$|^\[?[0-9a-f:]+\]?$")
#: Addresses that go nowhere: a fragment, a script, a phone number.
_NOWHERE = ("#", "javascript:", "tel:", "sms:", "data:", "{{", "${")

_WHAT_PARKED = "a hosting company's placeholder: the address leads to no site yet"
_WHAT_NOTICE = {
    "suspended": "a hosting company's notice: the site is suspended or past its paid term",
    "unavailable": "a hosting company's notice: the site is unavailable",
    "blocked": "a hosting company's notice: the site is blocked",
    "maintenance": "a hosting company's notice: the site is down for maintenance",
}


@dataclass(frozen=True, slots=True)
class HostPage:
    """What the links of a host's page showed."""

    host: str  #: the name every link goes to (``firestorm``)
    example: str  #: one of its addresses (its home page)
    links: int  #: links to it
    distinct: int  #: different addresses among them
    counted: int  #: the page's links counted (mail addresses included)


def name_of(host: str) -> str:
    """A host's name without its public suffix and subdomains, by the Public Suffix List's
    ICANN section (``tld``'s copy of it, offline): ``www.hostinger.fr`` and
    ``cpanel.hostinger.com`` are ``hostinger``, ``domeny.az.pl`` is ``az``, ``user.github.io``
    is ``github``; an IP address is itself; under a suffix the list does not hold (``.test``,
    ``.example``), the label before the last."""
    host = host.lower().strip(".").rsplit("@", 1)[-1].split(":", 1)[0]
    if not host or _IP.match(host):
        return host
    try:
        found = get_tld(host, fix_protocol=True, as_object=True, fail_silently=True,
                        search_private=False)
    except (ValueError, TypeError):
        found = None
    domain = getattr(found, "domain", "")
    if isinstance(domain, str) and domain:
        return domain
    parts = host.split(".")
    return parts[-2] if len(parts) >= 2 else host


def host_of(url: str) -> str:
    """The host of ``url``, lower-cased, without ``www.``; empty when it has none."""
    try:
        return (urlsplit(url).hostname or "").removeprefix("www.")
    except ValueError:
        return ""


def listed_under(host: str, hosts: frozenset[str]) -> str | None:
    """The entry of ``hosts`` that ``host`` is, or is under; None."""
    parts = host.split(".")
    for i in range(len(parts) - 1):
        candidate = ".".join(parts[i:])
        if candidate in hosts:
            return candidate
    return None


def _declared(markup: str) -> set[str]:
    """The names of the page's own addresses as its head declares them (a site's page says
    where it lives; a host's template, served for any domain, does not)."""
    names: set[str] = set()
    for i, m in enumerate(_HEAD_TAG.finditer(markup)):
        if i >= MAX_HEAD_TAGS:
            break
        tag, attrs = m.group(1), m.group(2)
        if tag != "base" and _DECLARES.search(attrs) is None:
            continue
        address = _ADDRESS.search(attrs)
        host = host_of(address.group(1)) if address is not None else ""
        if host:
            names.add(name_of(host))
    return names


def site_names(f: Facts) -> set[str]:
    """The names that are the site's own: its address's, and those its head declares."""
    own = host_of(f.page.final_url or f.page.url)
    return ({name_of(own)} if own else set()) | _declared(f.markup)


def _target(address: str) -> tuple[str, str] | None:
    """(host, address) of a link's target, ("", "") for the site's own (a relative address),
    None for one that goes nowhere."""
    a = address.strip().lower()
    if not a or a.startswith(_NOWHERE):
        return None
    if a.startswith("mailto:"):
        domain = a[7:].split("?", 1)[0].rsplit("@", 1)[-1]
        return (domain, "mailto:" + domain) if domain else None
    if a.startswith("//"):
        a = "http:" + a
    if _SCHEME.match(a) is None:
        return "", ""
    if not a.startswith(("http:", "https:")):
        return None
    try:
        parts = urlsplit(a)
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:
        return None
    return (host, f"{host}{parts.path.rstrip('/')}") if host else None


def host_page(f: Facts) -> HostPage | None:
    """The links' evidence that the page is a hosting company's template, or None (module
    docstring)."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS or f.page_letters > MAX_PAGE_LETTERS:
        return None
    if f.typed_article or _PASSWORD.search(f.markup) is not None:
        return None  # (a password field: the site's own sign-in, whatever its links)
    own = host_of(f.page.final_url or f.page.url)
    if own and listed_under(own, SHARED_HOSTS):
        return None
    own_names = site_names(f)
    markup = f.markup
    links: Counter[str] = Counter()
    addresses: dict[str, set[str]] = {}
    home: dict[str, str] = {}
    counted = 0
    for i, m in enumerate(_LINK.finditer(markup)):
        if i >= MAX_LINKS:
            break
        target = _target(m.group(1))
        if target is None:
            continue
        host, address = target
        name = name_of(host) if host else ""
        if not host or host == own or name in own_names:
            return None  # a link to the site itself
        counted += 1
        links[name] += 1
        addresses.setdefault(name, set()).add(address)
        if address == host:
            home.setdefault(name, host)
    if not links:
        return None
    name, n = links.most_common(1)[0]
    distinct = len(addresses[name])
    if n < MIN_LINKS or n < MIN_SHARE * counted or distinct < MIN_DISTINCT or name not in home:
        return None
    return HostPage(name, home[name], n, distinct, counted)


def check_host_page(f: Facts) -> ContentSignal | None:
    """A hosting company's placeholder (parked) or notice (interstitial) by its links."""
    found = host_page(f)
    if found is None:
        return None
    rule = (f"structure:{found.links} of the page's {found.counted} links go to one other "
            f"name, {found.distinct} addresses of it with its home page, and none to the site: "
            f"a host's page in place of the site; the host {found.example}")
    noticed = notice_word([line for line in (f.title, *f.shown_headings) if line])
    if noticed is not None and noticed[0] in _WHAT_NOTICE:
        return ContentSignal(reason="wall:interstitial", wall="interstitial",
                             rule=f"{rule}; its notice word {noticed[1]!r}", vendor=None,
                             detail=_WHAT_NOTICE[noticed[0]])
    return ContentSignal(reason="parked", wall=None, rule=rule, vendor=None, detail=_WHAT_PARKED)
