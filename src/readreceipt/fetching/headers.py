"""Response headers as a record may hold them: names lower-cased, secrets never written.

Invariants: :func:`safe_headers` drops every header that carries or sets a credential by
name (cookies, authorization, API keys, session tokens: any name that says token, secret or
key), whatever its value; and every header whose value holds a known secret shape or a URL
carrying a credential, whatever its name.
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


def is_secret_header(name: str) -> bool:
    lowered = name.lower()
    if lowered in _SAFE_DESPITE_NAME:
        return False
    return lowered in SECRET_HEADERS or bool(_SECRET_NAME.search(lowered))


def has_secret_value(name: str, value: str) -> bool:
    """True when ``value`` holds a known secret shape, or a URL carrying a credential."""
    if secret_shape(value) is not None:
        return True
    if name.lower() in _URL_HEADERS:
        return any(find_credential(u) is not None for u in _URL_IN_TEXT.findall(value))
    return False


def safe_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Lower-cased names, repeated headers joined with ', ', secret ones left out."""
    out: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if is_secret_header(key) or has_secret_value(key, value):
            continue
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out
