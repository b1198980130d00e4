"""Response headers as a record may hold them: names lower-cased, secrets never written.

Invariant: :func:`safe_headers` drops every header that carries or sets a credential
(cookies, authorization, API keys, session tokens) by name, whatever its value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Headers that carry or set credentials (RFC 6265 cookies, RFC 9110 authorization, vendor keys).
SECRET_HEADERS = frozenset({
    "set-cookie", "set-cookie2", "cookie", "authorization", "proxy-authorization",
    "x-api-key", "x-amz-security-token", "www-authenticate", "proxy-authenticate",
    "x-csrf-token", "x-xsrf-token",
})
_SECRET_NAME = re.compile(r"token|secret|key|passw|auth|session|cookie|credential", re.I)
#: Harmless headers whose names happen to contain a word above.
_SAFE_DESPITE_NAME = frozenset({"keep-alive", "access-control-allow-credentials"})


def is_secret_header(name: str) -> bool:
    lowered = name.lower()
    if lowered in _SAFE_DESPITE_NAME:
        return False
    return lowered in SECRET_HEADERS or bool(_SECRET_NAME.search(lowered))


def safe_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Lower-cased names, repeated headers joined with ', ', secret ones left out."""
    out: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if is_secret_header(key):
            continue
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out
