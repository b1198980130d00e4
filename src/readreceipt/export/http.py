"""The HTTP messages an exported WARC holds: status lines, headers, requests, redirect hops.

readreceipt keeps a retrieval's facts, not its wire bytes, so each message is rebuilt from the
record: the version the capture spoke (``http_version``; HTTP/1.1 for records older than that
field, the only version the transport spoke then), the headers as recorded (secrets were never
kept), and a ``Content-Length`` that matches the body actually written.

Redirects: every 3xx answer in ``redirect_chain`` becomes a response of its own, so a replay
tool asked for the first URL redirects as the server did. A hop recorded with its headers is
written with them; an older record kept only ``{url, status}``, and its hop is written with
the one header a replay needs, ``Location``, pointing at the next URL the fetch went to. A
hop's body is never read (readreceipt stops at the headers), so its payload is empty, marked
truncated unless the server announced an empty body.

Invariant: no message written here holds a header a record did not hold, except the
``Location`` rebuilt for an old hop and the recomputed ``Content-Length``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders

from readreceipt.store.records import Record

#: The version a record made before ``http_version`` was kept is written with: the only one
#: readreceipt's transport spoke then.
DEFAULT_HTTP_VERSION = "HTTP/1.1"
#: Response headers that describe the transfer, not the stored body (which is de-chunked,
#: decoded, and whose length is recomputed).
_TRANSFER_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})


def _clean(value: str) -> str:
    return " ".join(str(value).split())


def http_version(record: Record) -> str:
    """The HTTP version the capture spoke with the server, as a status line writes it."""
    return record.http_version or DEFAULT_HTTP_VERSION


def _response(status: int, headers: Iterable[tuple[str, str]], length: int,
              version: str) -> StatusAndHeaders:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    kept = [(name, _clean(value)) for name, value in headers
            if name.lower() not in _TRANSFER_HEADERS]
    kept.append(("content-length", str(length)))
    return StatusAndHeaders(f"{status} {phrase}".strip(), kept, protocol=version)


def response_headers(record: Record, length: int) -> StatusAndHeaders:
    """The status line and recorded headers of the capture's last response."""
    return _response(record.http_status or 200, record.response_headers.items(), length,
                     http_version(record))


def request_headers(url: str, user_agent: str | None,
                    version: str = DEFAULT_HTTP_VERSION) -> StatusAndHeaders:
    """The GET readreceipt sends: path, host, its user agent and accept headers, no cookie."""
    from readreceipt.fetching.transport import ACCEPT_ENCODING, USER_AGENT, FetchOptions

    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [("host", parts.netloc.rpartition("@")[2]),
               ("user-agent", user_agent or USER_AGENT),
               ("accept", FetchOptions().accept),
               ("accept-encoding", ACCEPT_ENCODING)]
    return StatusAndHeaders(f"GET {target} {version}", headers, protocol="",
                            is_http_request=True)


@dataclass(frozen=True)
class RedirectHop:
    """One 3xx answer the capture passed through, as the export writes it."""

    index: int  # its place in redirect_chain
    url: str
    status: int
    location: str  # where the fetch went next (absolute)
    headers: tuple[tuple[str, str], ...] | None  # None: an old record kept no headers
    peer_address: str | None
    http_version: str

    @property
    def content_type(self) -> str | None:
        for name, value in self.headers or ():
            if name.lower() == "content-type":
                return value.split(";")[0].strip().lower() or None
        return None

    @property
    def body_not_read(self) -> bool:
        """True unless the server announced an empty body (its body is never read)."""
        for name, value in self.headers or ():
            if name.lower() == "content-length":
                return value.strip() != "0"
        return True

    def response(self) -> StatusAndHeaders:
        headers = list(self.headers) if self.headers is not None else []
        if not any(name.lower() == "location" for name, _ in headers):
            headers.append(("location", self.location))
        return _response(self.status, headers, 0, self.http_version)


def _headers(raw: Any) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(raw, Mapping):
        return None
    return tuple((str(k), str(v)) for k, v in raw.items())


def redirect_hops(record: Record) -> list[RedirectHop]:
    """The 3xx hops of ``record``'s chain that a replay can follow, in order.

    A hop that is not a redirect (a page a browser left by script) is not written: its bytes
    were never kept. A chain's last hop that is the capture's own response (a redirect to
    plain http, not followed) is written once, as that response. A URL is written once per
    capture: a hop back to a URL already written, or to the final URL, would give a replay
    tool two answers for one URL at one time, one of them a loop.
    """
    chain = [hop for hop in record.redirect_chain if isinstance(hop, Mapping)]
    final = record.final_url or record.url
    if (chain and record.http_status is not None and 300 <= record.http_status < 400
            and chain[-1].get("url") == final):
        chain = chain[:-1]
    hops = []
    seen = {final}
    for index, hop in enumerate(chain):
        status, url = hop.get("status"), hop.get("url")
        if not isinstance(status, int) or not 300 <= status < 400 or not isinstance(url, str):
            continue
        if url in seen:
            continue
        seen.add(url)
        following = chain[index + 1].get("url") if index + 1 < len(chain) else final
        hops.append(RedirectHop(
            index, url, status, str(following or final), _headers(hop.get("headers")),
            hop.get("peer_address") if isinstance(hop.get("peer_address"), str) else None,
            str(hop.get("http_version") or DEFAULT_HTTP_VERSION)))
    return hops
