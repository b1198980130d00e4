"""May this URL ever be fetched? One canonical parse, shared by every later step.

The URL is parsed once with a WHATWG parser (``ada-url``, the parse a browser makes) and the
canonical ``href`` it yields is what every later step (transport, robots.txt, the browser,
the record) uses. A URL whose host Python's own parser reads differently is refused: two
parsers disagreeing on the host is how address-guard bypasses are built.

Invariant: :func:`check_url` either returns a :class:`PolicyURL` or raises
:class:`~readreceipt.errors.RefusedError`; it never performs I/O.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

import ada_url

from readreceipt.errors import RefusedError

log = logging.getLogger(__name__)

#: RFC 9110 sets no limit; browsers and most servers start failing past ~2 KB, and a longer
#: "URL" from an agent is far more likely an exfiltration payload than a page.
MAX_URL_CHARS = 2048

ALLOWED_SCHEMES = frozenset({"http", "https"})


@dataclass(frozen=True)
class PolicyURL:
    """A URL that passed the policy, in its canonical WHATWG form."""

    url: str
    scheme: str
    host: str  # lower-case; IPv6 without brackets
    port: int

    @property
    def origin(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")

    @property
    def host_port(self) -> str:
        return f"{self.host}:{self.port}"


def check_url(raw: str) -> PolicyURL:
    """Parse ``raw`` and apply the URL rules; raise RefusedError when one fails."""
    if not isinstance(raw, str) or not raw.strip():
        raise RefusedError("the URL is empty", url=str(raw), reason="malformed_url")
    raw = raw.strip()
    if len(raw) > MAX_URL_CHARS:
        raise RefusedError(
            f"the URL is longer than {MAX_URL_CHARS} characters",
            url=raw[:200],
            reason="url_too_long",
        )
    try:
        parsed = ada_url.URL(raw)
    except ValueError:
        raise RefusedError("the URL cannot be parsed", url=raw, reason="malformed_url") from None
    scheme = parsed.protocol.rstrip(":").lower()
    if scheme not in ALLOWED_SCHEMES:
        raise RefusedError(
            f"only http and https URLs are fetched, not {scheme}:",
            url=raw,
            reason="scheme",
        )
    if parsed.username or parsed.password:
        raise RefusedError(
            "the URL carries a user name or password", url=_without_userinfo(raw), reason="userinfo"
        )
    href = parsed.href
    if len(href) > MAX_URL_CHARS:
        raise RefusedError(
            f"the URL is longer than {MAX_URL_CHARS} characters",
            url=href[:200],
            reason="url_too_long",
        )
    host = parsed.hostname.lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        raise RefusedError("the URL has no host", url=raw, reason="malformed_url")
    _refuse_parser_disagreement(raw, host)
    port = int(parsed.port) if parsed.port else (443 if scheme == "https" else 80)
    return PolicyURL(url=href, scheme=scheme, host=host, port=port)


def _refuse_parser_disagreement(raw: str, whatwg_host: str) -> None:
    """Refuse when Python's urlsplit reads a different host than the WHATWG parser."""
    try:
        py_host = (urlsplit(raw).hostname or "").lower()
    except ValueError:
        py_host = ""
    try:
        canonical_py = ada_url.URL(f"http://{py_host}/").hostname.lower() if py_host else ""
    except ValueError:
        canonical_py = py_host
    if canonical_py.strip("[]") != whatwg_host:
        raise RefusedError(
            "URL parsers disagree on this URL's host",
            url=raw,
            reason="parser_disagreement",
        )


def _without_userinfo(raw: str) -> str:
    scheme, sep, rest = raw.partition("://")
    if not sep:
        return raw
    authority, slash, tail = rest.partition("/")
    return f"{scheme}://{authority.rpartition('@')[2]}{slash}{tail}"
