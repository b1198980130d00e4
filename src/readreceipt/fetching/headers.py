"""Response headers as a record may hold them: names lower-cased, secrets never written.

Invariants: :func:`safe_headers` drops every header that carries or sets a credential by
name (cookies, authorization, API keys, session tokens: any name that says token, secret or
key), whatever its value; and every header whose value holds a known secret shape, whatever its
name, or (``Location``, ``Content-Location``, ``Link``, ``Refresh``) a URL reference, absolute
or relative, carrying a credential or a user name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from readreceipt.fetching.credentials import find_credential, secret_shape

#: Headers that carry or set credentials (RFC 6265 cookies and the obsolete RFC 2965
#: Set-Cookie2, RFC 9110 authorization and its challenges, vendor keys and CSRF tokens).
SECRET_HEADERS = frozenset({
    "set-cookie", "set-cookie2", "cookie", "cookie2", "authorization", "proxy-authorization",
    "x-api-key", "x-amz-security-token", "www-authenticate", "proxy-authenticate",
    "authentication-info", "proxy-authentication-info", "x-csrf-token", "x-xsrf-token",
})
_SECRET_NAME = re.compile(r"token|secret|key|passw|auth|session|cookie|credential|signature",
                          re.I)
#: Harmless headers whose names happen to contain a word above.
_SAFE_DESPITE_NAME = frozenset({"keep-alive", "access-control-allow-credentials"})
#: Headers whose value is a URL (or holds URLs); checked for credentials in the URL.
_URL_HEADERS = frozenset({"location", "content-location", "link", "refresh"})
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"',;]+", re.I)
#: Relative references too: a Link's ``<...>`` and a Refresh's ``url=...``.
_URL_IN_LINK = re.compile(r"<([^>]*)>")
_URL_IN_REFRESH = re.compile(r"url\s*=\s*['\"]?([^'\"\s]+)", re.I)
#: Headers whose whole value is one URL reference, absolute or relative.
_WHOLE_URL_HEADERS = frozenset({"location", "content-location"})


def is_secret_header(name: str) -> bool:
    lowered = name.lower()
    if lowered in _SAFE_DESPITE_NAME:
        return False
    return lowered in SECRET_HEADERS or bool(_SECRET_NAME.search(lowered))


def has_secret_value(name: str, value: str) -> bool:
    """True when ``value`` holds a known secret shape, or a URL carrying a credential."""
    if secret_shape(value) is not None:
        return True
    name = name.lower()
    if name in _URL_HEADERS:
        urls = [*_URL_IN_TEXT.findall(value), *_URL_IN_LINK.findall(value),
                *_URL_IN_REFRESH.findall(value)]
        if name in _WHOLE_URL_HEADERS:
            urls.append(value.strip())
        return any(_carries_credential(u) for u in urls)
    return False


def _carries_credential(url: str) -> bool:
    """A credential in the URL's path, query or fragment, or a user name or password in it
    (a relative reference such as ``/next?access_token=...`` included)."""
    if find_credential(url) is not None:
        return True
    authority = url.partition("://")[2].split("/", 1)[0] if "://" in url else ""
    if url.startswith("//"):
        authority = url[2:].split("/", 1)[0]
    return "@" in authority


def safe_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Lower-cased names, repeated headers joined with ', ', secret ones left out."""
    out: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if is_secret_header(key) or has_secret_value(key, value):
            continue
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out
