"""A redirect that carries the address asked for: the server sent the reader to a step
standing before the page (a sign-in, a consent, an age or region check, an error page).

A site that will not show a page to this reader commonly redirects the request to the page
that stands in its way and writes the address asked for into that page's URL, so that it can
send the reader back once the step is done (``/accounts/login/?next=/news/42``,
``wp-login.php?redirect_to=...``, CAS's ``?service=https://...``; the names are in
``tables/redirects.py``). An answer reached that way is not the page asked for, in any
language and whatever its text: the evidence is the two addresses, compared.

:func:`carried_back` finds it: a URL the fetch was redirected to (a hop or the last) whose
path is not the one asked for (nor the same path under a prefix: a language or region
folder in front of the same page), and one of whose continuation parameters names the
address asked for (its path on the same host, its whole URL on any); or a sign-in request
of SAML, OpenID or OAuth 2.0 met on the way. :func:`route_kind` names the step by the words
of the URL it leads to, for the verdict's wording only.

Invariants: pure; work capped (``MAX_URL_CHARS`` of each URL, ``MAX_FIELDS`` parameters,
two more rounds of percent-decoding), so a hostile Location costs a bounded parse.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from readreceipt.reading.tables.redirects import (
    BASE64_NAMES,
    CONTINUATION_NAMES,
    ROUTE_KINDS,
    SIGN_IN_PROTOCOLS,
    SIGN_IN_ROUTES,
)

__all__ = ["CarriedBack", "carried_back", "moved_to_sign_in", "route_kind", "squash"]

#: Characters of a URL looked at; a continuation parameter is a URL, well under this.
MAX_URL_CHARS = 4096
#: Query (and fragment) parameters looked at per URL.
MAX_FIELDS = 64

_NOT_NAME = re.compile(r"[^a-z0-9]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{8,2048}={0,2}")
_URL_SAFE = str.maketrans("-_", "+/")


@dataclass(frozen=True)
class CarriedBack:
    """Where the request was sent and how it carries the address asked for."""

    reached: str  # the URL that carries it (a hop or the last), as fetched
    parameter: str  # the parameter's name as written, or the protocol's request
    protocol: str | None = None  # a sign-in protocol's request met on the way


def squash(name: str) -> str:
    """A name compared as the tables write it: lower case, letters and digits only."""
    return _NOT_NAME.sub("", name.lower())


def carried_back(asked: str, reached: Sequence[str]) -> CarriedBack | None:
    """The first URL of ``reached`` (the hops after the one asked, then the last) that
    carries ``asked`` back, or that is a sign-in protocol's request; None."""
    try:
        want = urlsplit(asked[:MAX_URL_CHARS])
    except ValueError:
        return None
    want_host, want_path = _host(want.hostname), _path(want.path)
    if not reached or _same_page(reached[-1], want_path):
        return None  # the step was passed and the page itself was served in the end
    for url in reached:
        try:
            got = urlsplit(url[:MAX_URL_CHARS])
        except ValueError:
            continue
        fields = _fields(got.query, got.fragment)
        names = {squash(name) for name, _ in fields}
        for what, needed in SIGN_IN_PROTOCOLS:
            if all(n in names for n in needed):
                return CarriedBack(url, what, what)
        if _same_page(url, want_path):
            continue
        same_host = _host(got.hostname) == want_host
        for name, value in fields:
            key = squash(name)
            if key not in CONTINUATION_NAMES:
                continue
            if _names(value, want_host, want_path, same_host) or (
                    key in BASE64_NAMES and
                    _names(_unbase64(value), want_host, want_path, same_host)):
                return CarriedBack(url, name)
    return None


def moved_to_sign_in(asked: str, final: str) -> bool:
    """Whether ``final`` is another page than ``asked`` at a sign-in route by the words of
    its path (``SIGN_IN_ROUTES``): a framework that keeps the address to return to in the
    session (Rails' Devise, Laravel) redirects to its bare sign-in route."""
    try:
        want, got = urlsplit(asked[:MAX_URL_CHARS]), urlsplit(final[:MAX_URL_CHARS])
    except ValueError:
        return False
    if _same_page(final, _path(want.path)):
        return False
    return any(word in SIGN_IN_ROUTES for word in _words(got.path))


def route_kind(url: str) -> str | None:
    """The kind of step the words of ``url``'s path (or its host's first label) name, by
    ``ROUTE_KINDS``; None."""
    try:
        parts = urlsplit(url[:MAX_URL_CHARS])
    except ValueError:
        return None
    host = _host(parts.hostname)
    words = _words(parts.path)
    if host.count(".") >= 2:
        words.append(squash(host.split(".", 1)[0]))
    for kind, names in ROUTE_KINDS:
        if any(word in names for word in words):
            return kind
    return None


def _words(path: str) -> list[str]:
    """A path's segments, squashed, each without its extension (``wp-login.php``:
    ``wplogin``)."""
    return [squash(segment.rsplit(".", 1)[0] if "." in segment else segment)
            for segment in path.split("/", 32)[:32] if segment]


def _names(value: str, host: str, path: str, same_host: bool) -> bool:
    """Whether a parameter's value names the page asked for: its whole URL, or (on the
    asking host) its path."""
    for _ in range(2):  # a value encoded once more than the query's own encoding
        if "%" not in value:
            break
        value = unquote(value)
    value = value.strip()
    if value.startswith(("http://", "https://", "//")):
        try:
            named = urlsplit(value)
        except ValueError:
            return False
        return _host(named.hostname) == host and _path(named.path) == path
    if value.startswith("/") and same_host:
        return _path(urlsplit(value).path) == path
    return False


def _unbase64(value: str) -> str:
    """``value`` decoded from base64 (the standard or the URL-safe alphabet) as UTF-8, or ""
    when it is not base64 of text."""
    if not _BASE64.fullmatch(value):
        return ""
    try:
        standard = value.rstrip("=").translate(_URL_SAFE)
        return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return ""


def _fields(query: str, fragment: str) -> list[tuple[str, str]]:
    """The query's first parameters, then a script router's in the fragment
    (``#/login?next=``)."""
    _, _, routed = fragment.partition("?")
    out: list[tuple[str, str]] = []
    for part in (query, routed):
        first = "&".join(part.split("&", MAX_FIELDS)[:MAX_FIELDS])
        out += parse_qsl(first, keep_blank_values=False)
    return out


def _same_page(url: str, path: str) -> bool:
    """Whether ``url`` has the page's path (on a moved host, or under a language or region
    folder in front of it)."""
    try:
        got = _path(urlsplit(url[:MAX_URL_CHARS]).path)
    except ValueError:
        return False
    return got == path or (bool(path) and got.endswith(path))


def _host(host: str | None) -> str:
    return (host or "").lower().removeprefix("www.")


def _path(path: str) -> str:
    """A path compared: percent-decoded, lower case, without its trailing slash (the home
    page is the empty path)."""
    return unquote(path).lower().rstrip("/")
