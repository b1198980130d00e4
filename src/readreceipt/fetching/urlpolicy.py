"""May this URL ever be fetched? One canonical parse, shared by every later step.

The URL is parsed once with a WHATWG parser (``ada-url``, the parse a browser makes) and the
canonical ``href`` it yields is what every later step (transport, robots.txt, the browser,
the record) uses. The WHATWG parse folds every IPv4 spelling (``2130706433``, ``0x7f.1``,
``0177.0.0.1``, full-width dots, circled digits) into its dotted form, so the address guard
judges the address a browser would reach. A URL whose host Python's own parser reads
differently is refused: two parsers disagreeing on the host is how guard bypasses are built.

Rules, in order: length; parse; credentials (:mod:`credentials`, before anything else so a
refused URL is never written down with its secret); scheme; userinfo; parser agreement;
host names that only ever mean this machine, its network or a cloud metadata service.
IP-literal hosts are judged by the address guard (:mod:`netguard`), which also knows the
test exemptions.

Invariant: :func:`check_url` either returns a :class:`PolicyURL` or raises
:class:`~readreceipt.errors.RefusedError` whose ``url`` is safe to write down; it never
performs I/O.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import ada_url

from readreceipt.errors import RefusedError
from readreceipt.fetching.credentials import find_in_parts, loggable_url

log = logging.getLogger(__name__)

#: RFC 9110 sets no limit; browsers and most servers start failing past ~2 KB, and a longer
#: "URL" from an agent is far more likely an exfiltration payload than a page.
MAX_URL_CHARS = 2048

ALLOWED_SCHEMES = frozenset({"http", "https"})

#: Names that resolve to this machine or a cloud metadata service by convention, whatever a
#: resolver says: RFC 6761 (localhost), RFC 6762 (.local, and Appendix G's private
#: top-level names), RFC 8375 (.home.arpa), GCP (metadata.google.internal, metadata.goog,
#: the bare ``metadata``), AWS (instance-data), Azure (metadata.azure.internal).
BLOCKED_HOST_NAMES: frozenset[str] = frozenset({
    "localhost", "metadata", "metadata.goog", "metadata.google.internal", "instance-data",
    "metadata.azure.internal",
})
BLOCKED_HOST_SUFFIXES: tuple[str, ...] = (
    ".localhost", ".local", ".internal", ".localdomain", ".home.arpa",
    ".intranet", ".private", ".corp", ".home", ".lan",
)


def _schemeless_host(raw: str) -> str | None:
    """What a URL typed without its scheme starts with, when it does: a host name with a dot,
    or a host with a port (``example.org``, ``example.org/a``, ``127.0.0.1:8000/x``), up to
    the first ``/``, ``?`` or ``#``. One pass over the text (a regular expression for it
    rescanned: the regex audit's finding)."""
    end = len(raw)
    for mark in "/?#":
        found = raw.find(mark, 0, end)
        if found >= 0:
            end = found
    head = raw[:end]
    host, colon, port = head.rpartition(":") if ":" in head else (head, "", "")
    if colon and not (0 < len(port) <= 5 and port.isascii() and port.isdigit()):
        return None
    labels = host.split(".")
    if len(labels) > 1 and all(label and _word(label) for label in labels):
        return head
    if colon and host and _word(host.replace(".", "")):
        return head
    return None


def _word(text: str) -> bool:
    """Letters, digits, ``_`` and ``-`` only (``[\\w-]+`` of a regular expression)."""
    return all(ch.isalnum() or ch in "_-" for ch in text)


def _missing_scheme(raw: str) -> RefusedError | None:
    """A refusal that echoes ``raw`` and suggests its https form when it reads as a URL typed
    without ``http://`` or ``https://``; None otherwise. Echoed without its query or
    fragment (where a credential would sit)."""
    start = _schemeless_host(raw)
    if "://" in raw or start is None:
        return None
    shown = re.split(r"[?#]", raw, maxsplit=1)[0][:200]
    if find_in_parts(shown[len(start):], "", "") is not None:
        shown = start  # a secret-shaped path is not echoed
    return _refuse(f"{shown} is not a whole URL (it has no http:// or https://); did you mean "
                   f"https://{shown}?", raw, "malformed_url")


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


def blocked_host_name(host: str) -> str | None:
    """The reason code when ``host`` is a name reserved for local or metadata use."""
    name = host.lower().rstrip(".")
    if name in BLOCKED_HOST_NAMES:
        return "metadata_host" if name != "localhost" else "local_host_name"
    if name.endswith(".internal") and name.startswith("metadata."):
        return "metadata_host"
    for suffix in BLOCKED_HOST_SUFFIXES:
        if name.endswith(suffix):
            return "local_host_name"
    return None


def _refuse(message: str, raw: str, reason: str, *, limit: int = MAX_URL_CHARS) -> RefusedError:
    # Made safe on the whole URL first, then cut: a cut could hide a credential's name.
    return RefusedError(message, url=loggable_url(raw, reason, limit=limit), reason=reason)


def _usv(text: str) -> str:
    """``text`` as the WHATWG URL standard reads it (a USVString): each lone surrogate, which
    JSON can carry but no URL can, becomes U+FFFD, as a browser's own fetch makes it."""
    if text.isascii():
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def check_url(raw: str) -> PolicyURL:
    """Parse ``raw`` and apply the URL rules; raise RefusedError when one fails."""
    if not isinstance(raw, str) or not raw.strip():
        raise RefusedError("the URL is empty", url=str(raw)[:200], reason="malformed_url")
    raw = _usv(raw.strip())
    if len(raw) > MAX_URL_CHARS:
        raise _refuse(f"the URL is longer than {MAX_URL_CHARS} characters", raw,
                      "url_too_long", limit=200)
    schemeless = _missing_scheme(raw)
    if schemeless is not None:
        raise schemeless
    try:
        parsed = ada_url.URL(raw)
    except ValueError:
        raise _refuse("the URL cannot be parsed", raw, "malformed_url") from None
    finding = find_in_parts(parsed.pathname, parsed.search, parsed.hash)
    if finding is not None:
        raise _refuse(finding.message, raw, finding.rule)
    scheme = parsed.protocol.rstrip(":").lower()
    if scheme not in ALLOWED_SCHEMES:
        raise _refuse(f"only http and https URLs are fetched, not {scheme}:", raw, "scheme")
    if parsed.username or parsed.password:
        raise _refuse("the URL carries a user name or password", raw, "userinfo")
    href = parsed.href
    if len(href) > MAX_URL_CHARS:
        raise _refuse(f"the URL is longer than {MAX_URL_CHARS} characters", href,
                      "url_too_long", limit=200)
    host = parsed.hostname.lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        raise _refuse("the URL has no host", raw, "malformed_url")
    _refuse_parser_disagreement(raw, host)
    reason = blocked_host_name(host)
    if reason is not None:
        what = ("a cloud metadata service" if reason == "metadata_host"
                else "this machine or its network")
        raise _refuse(f"the host {host} names {what}; readreceipt does not fetch it", raw,
                      reason)
    port = int(parsed.port) if parsed.port else (443 if scheme == "https" else 80)
    if port == 0:
        raise _refuse("port 0 is not a port a page is served on", raw, "malformed_url")
    return PolicyURL(url=href, scheme=scheme, host=host, port=port)


def as_recorded(raw: str) -> str:
    """``raw`` in the form a record holds a URL it captured (the canonical WHATWG form
    :func:`check_url` gives: ``HTTP://Example.org`` is ``http://example.org/``), so a URL
    typed as a person types it finds its captures; ``raw`` itself when the policy refuses it
    (no such URL was ever captured)."""
    try:
        return check_url(raw).url
    except RefusedError:
        return raw


def canonical_host(host: str) -> str:
    """``host`` as the WHATWG parser writes it (lower case, punycode, dotted IPv4), or ""."""
    if not host:
        return ""
    bracketed = f"[{host}]" if ":" in host and not host.startswith("[") else host
    try:
        return str(ada_url.URL(f"http://{bracketed}/").hostname).lower().strip("[]")
    except ValueError:
        return ""


def _refuse_parser_disagreement(raw: str, whatwg_host: str) -> None:
    """Refuse when Python's urlsplit reads a different host than the WHATWG parser."""
    try:
        parts = urlsplit(raw)
        py_host = (parts.hostname or "").lower()
        py_user = parts.username
    except ValueError:
        py_host, py_user = "", None
    if py_user is not None:
        raise _refuse("URL parsers disagree on this URL's user name", raw,
                      "parser_disagreement")
    if canonical_host(py_host) != whatwg_host:
        raise _refuse("URL parsers disagree on this URL's host", raw, "parser_disagreement")
