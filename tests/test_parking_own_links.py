"""The parked-domain check passes over the site's own links without reading them, and finds
every marketplace link it found when it read them all (reading/parking.py, ``_is_own_host``).

An article page names its own domain in hundreds of absolute links; each used to be read in
the tag around it. The shortcut is sound only if an address it passes over can never have a
marketplace's host: these tests build addresses that put the domain in every place an
address can hold it (host, subdomain, path, query, user info, port, another address's
query) and compare what the check finds with and without the shortcut.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

from readreceipt.reading import parking
from readreceipt.reading.hostpage import host_of, listed_under
from readreceipt.reading.tables.parking import MARKETPLACES

OWN = "example.com"
MARKET = sorted(MARKETPLACES)[0]


def _market_links(markup: str, skip: bool) -> list[tuple[str, str]]:
    """The links to a marketplace the check reads around each mention of the domain."""
    found = parking._tags_naming(markup, OWN, skip_own_links=skip)
    return [(tag, target) for tag, target in found
            if listed_under(host_of(target if "//" in target else ""), MARKETPLACES)]


_PIECES = st.sampled_from([
    OWN, f"www.{OWN}", f"shop.{OWN}", f"{OWN}.{MARKET}", f"not{OWN}", MARKET, f"www.{MARKET}",
    "https://", "http://", "//", "ftp://", "/", "?", "#", "=", "&", "@", ":", ":8080", "\\",
    ".", "-", "a", "u=", "domain=", '"', "'", " ", "\n", ">", "<", "<a href=", "<form action=",
    '<a href="', "<a title=", " href='", "<script src=", "</a>", "x",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=30))
def test_the_shortcut_finds_every_marketplace_link_the_full_reading_finds(
        pieces: list[str]) -> None:
    markup = "".join(pieces)
    assert _market_links(markup, skip=True) == _market_links(markup, skip=False)


def test_a_marketplace_address_holding_the_domain_after_its_own_scheme_is_read() -> None:
    # "=https://example.com" inside a marketplace's query: the "=" is the query's.
    markup = f'<a href="https://{MARKET}/buy?u=https://{OWN}/">buy</a>'
    assert _market_links(markup, skip=True) == [("a", f"https://{MARKET}/buy?u=https://{OWN}/")]
    # User info and a backslash put the marketplace after the domain.
    for tail in (f":pw@{MARKET}/", f"\\@{MARKET}/"):
        markup = f'<a href="https://{OWN}{tail}">buy</a>'
        target = f"https://{OWN}{tail}"
        expected = [("a", target)] if urlsplit(target).hostname == MARKET else []
        assert _market_links(markup, skip=True) == expected == _market_links(markup, False)


def test_the_sites_own_links_are_passed_over() -> None:
    markup = "".join(f'<a href="https://www.{OWN}/story/{i}">story</a>' for i in range(50))
    assert all(parking._is_own_host(markup, at, at + len(OWN))
               for at in _mentions(markup))
    # An address that only holds the domain in its path or query is read.
    other = f'<a href="https://news.other.org/{OWN}/x">x</a>'
    assert not any(parking._is_own_host(other, at, at + len(OWN)) for at in _mentions(other))


def test_a_domain_that_is_a_marketplace_reads_every_link() -> None:
    assert parking._hosts_market(MARKET)
    assert not parking._hosts_market(OWN)


def _mentions(markup: str) -> list[int]:
    found, at = [], markup.find(OWN)
    while at >= 0:
        found.append(at)
        at = markup.find(OWN, at + 1)
    return found
