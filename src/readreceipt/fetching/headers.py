"""Response headers as a record may hold them: names lower-cased, secrets never written.

Invariants: :func:`safe_headers` drops every header that carries or sets a credential by
name (cookies, authorization, API keys, session tokens: any name that says token, secret or
key), whatever its value; every header whose value holds a known secret shape, whatever its
name; and every URL carrying a credential in the headers that carry URLs.

Those headers are Location, Content-Location, Refresh and Link. Their URLs are judged by the
rules a URL to fetch is judged by (:func:`~readreceipt.fetching.credentials.find_credential`:
credential-named parameters, presigned-URL parameters, secret-shaped values, fragments and
paths), each one *after resolving it against the response's URL* when it is relative, so
``Content-Location: /page?api_key=...`` is caught as surely as the absolute form; a user name
or password in the URL (``https://user:pass@host/``) is a credential too. What
happens to a header with such a URL, by header:

- ``Location``, ``Content-Location``, ``Refresh``: the header holds one URL and is **dropped**
  whole. A redacted URL would be one the server never sent, which has no place in evidence.
- ``Link``: the header holds a list of links; each link whose target (or ``anchor``) carries
  a credential is **dropped**, the other links are kept in the order sent. A Link header
  left with no links, or that does not parse as a list of links, is dropped whole.

The same rules run again when a library is exported, so a record written before a rule
existed leaves no secret in a WARC or WACZ either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import ada_url

from readreceipt.fetching.credentials import find_credential, secret_shape

#: RFC 9110 section 5.6.2: a field name (and a request method) is a token (``fullmatch``).
FIELD_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")

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
#: Headers whose value is one URL (RFC 9110 Location and Content-Location; Refresh as HTML
#: defines it) and the header whose value is a list of links (RFC 8288).
_ONE_URL_HEADERS = frozenset({"location", "content-location", "refresh"})
_LINK_HEADER = "link"
_URL_HEADERS = _ONE_URL_HEADERS | {_LINK_HEADER}
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"',;]+", re.I)
#: Refresh: a delay, a separator, then ``url=`` (optional) and the URL, perhaps quoted.
#: Matched on the stripped value, each space run taken one way only (a value of spaces costs
#: its length, not its cube).
_REFRESH = re.compile(r"""\A[0-9.]*(?:\s*[;,])?\s*(?:url\s*=\s*)?(.*)""", re.I | re.S)
_ANCHOR = re.compile(r"""(?:^|;)\s*anchor\s*=\s*(?:"([^"]*)"|([^;,\s]+))""", re.I)


def is_secret_header(name: str) -> bool:
    lowered = name.lower()
    if lowered in _SAFE_DESPITE_NAME:
        return False
    return lowered in SECRET_HEADERS or bool(_SECRET_NAME.search(lowered))


def has_secret_value(name: str, value: str, base_url: str | None = None) -> bool:
    """True when ``value`` holds a known secret shape, or a URL carrying a credential
    (relative ones resolved against ``base_url``) in a header that carries URLs."""
    if secret_shape(value) is not None:
        return True
    key = name.lower()
    if key in _ONE_URL_HEADERS:
        return _one_url_carries_credential(key, value, base_url)
    if key == _LINK_HEADER:
        links = _links(value)
        return links is None or any(_link_carries_credential(link, base_url)
                                    for link in links)
    return False


def safe_headers(headers: Iterable[tuple[str, str]],
                 base_url: str | None = None) -> dict[str, str]:
    """Lower-cased names, repeated headers joined with ', ', secret ones left out.

    ``base_url`` is the URL of the response the headers came with; relative URLs in them are
    resolved against it before they are judged.
    """
    out: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if is_secret_header(key) or secret_shape(value) is not None:
            continue
        if key in _ONE_URL_HEADERS and _one_url_carries_credential(key, value, base_url):
            continue
        if key == _LINK_HEADER:
            kept = _safe_links(value, base_url)
            if kept is None:
                continue
            value = kept
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out


def _carries_credential(reference: str, base_url: str | None) -> bool:
    """A credential in ``reference`` as written, or once resolved against ``base_url``; or a
    user name or password in it (``https://user:pass@host/``, ``//user@host/``)."""
    reference = reference.strip().strip("\"'")
    if find_credential(reference) is not None:
        return True
    try:
        resolved = (ada_url.URL(reference, base=base_url) if base_url
                    else ada_url.URL(reference))
    except ValueError:
        return False  # not a URL at all (or relative, with no base); judged as written above
    if resolved.username or resolved.password:
        return True
    return bool(base_url) and find_credential(str(resolved.href)) is not None


def _absolute_urls_carry_credential(text: str) -> bool:
    return any(find_credential(url) is not None for url in _URL_IN_TEXT.findall(text))


def _one_url_carries_credential(key: str, value: str, base_url: str | None) -> bool:
    if _absolute_urls_carry_credential(value):
        return True
    if key == "refresh":
        match = _REFRESH.match(value.strip())
        target = match.group(1) if match else value
        return bool(target) and _carries_credential(target, base_url)
    return _carries_credential(value, base_url)


def _links(value: str) -> list[str] | None:
    """The link-values of a Link header, as sent; None when it is not a list of links.

    ``<target>`` then parameters up to a comma outside double quotes (RFC 8288 section 3).
    """
    links: list[str] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and value[i] in " \t,":
            i += 1
        if i >= n:
            break
        if value[i] != "<":
            return None
        close = value.find(">", i)
        if close < 0:
            return None
        j, quoted = close + 1, False
        while j < n and (quoted or value[j] != ","):
            if value[j] == "\\" and quoted:
                j += 1
            elif value[j] == '"':
                quoted = not quoted
            j += 1
        if quoted:
            return None
        links.append(value[i:j].strip())
        i = j
    return links


def _link_carries_credential(link: str, base_url: str | None) -> bool:
    close = link.index(">")
    target, params = link[1:close], link[close + 1:]
    if _carries_credential(target, base_url) or _absolute_urls_carry_credential(params):
        return True
    return any(_carries_credential(m.group(1) or m.group(2), base_url)
               for m in _ANCHOR.finditer(params))


def _safe_links(value: str, base_url: str | None) -> str | None:
    """The Link header without the links that carry a credential; None when nothing is left
    or it does not parse."""
    links = _links(value)
    if links is None:
        return None
    kept = [link for link in links if not _link_carries_credential(link, base_url)]
    if len(kept) == len(links):
        return value  # as sent
    return ", ".join(kept) if kept else None
