"""Fetch one URL safely: redirects by hand, a size cap, a total deadline, bounded memory.

Every hop goes through the URL policy and the address guard *before* a request is made to
it. The body is streamed and decoded (content-encoding removed) chunk by chunk; reading stops
at ``max_bytes`` (the capture keeps what came and says ``truncated``) or at the deadline.
Memory stays bounded by ``max_bytes`` plus one chunk, whatever the server sends.

One :class:`~readreceipt.fetching.deadline.Deadline` covers the whole chain: every hop's name
lookup, connection, TLS handshake, head and body (the caller may pass the capture's own, so
robots.txt, the page and any later request share it). It ends as :class:`FetchTimeout`.

Invariant: :func:`fetch` returns a :class:`FetchResult` whenever a response arrived, and
raises a :class:`~readreceipt.errors.ReadReceiptError` otherwise; a refusal (of the URL or
of a hop) is a :class:`RefusedDuringFetch` carrying the hops followed up to it in
``.chain``. ``FetchResult.http_version`` is the version httpcore spoke with the server.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import ada_url
import httpx

from readreceipt._version import __version__
from readreceipt.errors import FetchError, FetchTimeout, ReadReceiptError, RefusedError
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.decoding import DecodeFailure, decoded
from readreceipt.fetching.headers import has_secret_value, safe_headers
from readreceipt.fetching.netguard import AddressGuard, GuardedTransport
from readreceipt.fetching.urlpolicy import PolicyURL, check_url

log = logging.getLogger(__name__)

PROJECT_URL = "https://github.com/readreceipt/readreceipt"
USER_AGENT = f"readreceipt/{__version__} (+{PROJECT_URL})"
MAX_REDIRECTS = 10
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
DEFAULT_TIMEOUT = 30.0
#: The encodings decoding.py undoes with bounded memory, and so the only ones asked for.
ACCEPT_ENCODING = "gzip, deflate, br"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class Hop:
    """One redirect followed: the URL asked, and the answer that sent the fetch on.

    ``headers`` are the redirect's response headers as a record may keep them
    (:func:`~readreceipt.fetching.headers.safe_headers`: ``location`` included, secrets never),
    so an export can archive the hop as the 3xx response it was. Its body is never read.
    """

    url: str
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    peer_address: str | None = None
    http_version: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"url": self.url, "status": self.status}
        if self.http_version:
            out["http_version"] = self.http_version
        if self.peer_address:
            out["peer_address"] = self.peer_address
        if self.headers:
            out["headers"] = dict(self.headers)
        return out


class RefusedDuringFetch(RefusedError):
    """A security rule refused the URL asked for, or a hop its redirects led to; nothing was
    requested from the refused URL or address."""

    def __init__(self, message: str, *, url: str | None, reason: str,
                 chain: tuple[Hop, ...]) -> None:
        super().__init__(message, url=url, reason=reason)
        #: The hops followed before the refusal (empty: the URL asked for was refused).
        self.chain = chain


@dataclass(frozen=True)
class FetchResult:
    """What came back: the last response of the chain, its body and how it was reached."""

    url: str
    final_url: str
    status: int
    reason_phrase: str
    headers: tuple[tuple[str, str], ...]  # lower-cased names, in order received
    body: bytes
    truncated: bool
    redirect_chain: tuple[Hop, ...]
    peer_address: str | None
    http_version: str  # as spoken with the server: "HTTP/1.1", "HTTP/1.0"
    downgraded: bool = False  # an https -> http redirect was met and not followed

    def header(self, name: str) -> str | None:
        name = name.lower()
        for key, value in self.headers:
            if key == name:
                return value
        return None

    @property
    def content_type(self) -> str:
        raw = self.header("content-type") or ""
        return raw.split(";", 1)[0].strip().lower()

    @property
    def charset(self) -> str | None:
        raw = self.header("content-type") or ""
        for part in raw.split(";")[1:]:
            key, _, value = part.partition("=")
            if key.strip().lower() == "charset" and value.strip():
                return value.strip().strip("\"'").lower()
        return None


@dataclass(frozen=True)
class FetchOptions:
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    user_agent: str = USER_AGENT
    accept: str = ("text/html,application/xhtml+xml,application/json,text/plain,"
                   "application/pdf;q=0.9,*/*;q=0.8")


def fetch(target: PolicyURL, guard: AddressGuard, options: FetchOptions = FetchOptions(),
          deadline: Deadline | None = None) -> FetchResult:
    """GET ``target``, following redirects by hand, every hop checked first.

    Everything ends by ``deadline`` (by default ``options.timeout`` from now).
    """
    if deadline is None:
        deadline = Deadline.after(options.timeout)
    chain: list[Hop] = []
    current = target
    headers = {"user-agent": options.user_agent, "accept": options.accept,
               "accept-encoding": ACCEPT_ENCODING}
    with httpx.Client(transport=GuardedTransport(guard, deadline=deadline), trust_env=False,
                      follow_redirects=False, headers=headers,
                      event_hooks={"response": [_hide_location]}) as client:
        while True:
            left = deadline.check()
            timeout = httpx.Timeout(left)
            try:
                with client.stream("GET", current.url, timeout=timeout) as response:
                    status = response.status_code
                    peer = _peer(response)
                    locations: list[str] = response.extensions.get(_LOCATION) or []
                    location = locations[0] if locations else None
                    if location is not None:
                        response.headers["location"] = location
                    if status in REDIRECT_CODES and len(set(locations)) > 1:
                        raise _two_locations(locations, current.url)
                    if status in REDIRECT_CODES and location:
                        kept = safe_headers(response.headers.multi_items(), current.url)
                        chain.append(Hop(current.url, status, tuple(kept.items()), peer,
                                         response.http_version))
                        nxt = _next_hop(current, location)
                        if current.scheme == "https" and nxt.scheme == "http":
                            return _result(target, current, response, b"", False, chain,
                                           peer, downgraded=True)
                        if len(chain) > MAX_REDIRECTS:
                            raise FetchError(f"more than {MAX_REDIRECTS} redirects",
                                             url=target.url, reason="too_many_redirects")
                        current = nxt
                        # The hop is judged (URL policy above, addresses here) before any
                        # request is made to it; the connection reuses this checked answer.
                        guard.precheck(current.host, current.port, deadline)
                        continue
                    body, truncated = _read_capped(response, options.max_bytes, deadline)
                    return _result(target, current, response, body, truncated, chain,
                                   peer)
            except (httpx.TimeoutException, FetchTimeout) as exc:
                raise deadline.error(current.url) from exc
            except httpx.DecodingError as exc:
                raise FetchError(f"the body could not be decoded: {exc}", url=target.url,
                                 reason="decoding") from exc
            except httpx.HTTPError as exc:
                raise FetchError(f"the request failed: {exc}", url=target.url,
                                 reason="network") from exc
            except RefusedError as exc:
                raise RefusedDuringFetch(str(exc), url=exc.url or current.url,
                                         reason=exc.reason, chain=tuple(chain)) from exc
            except ReadReceiptError as exc:
                exc.url = exc.url or current.url
                raise


_LOCATION = "readreceipt.location"


def _hide_location(response: httpx.Response) -> None:
    """Keep a redirect's Location out of httpx's sight (put back once the response is ours).

    httpx parses Location itself to offer ``next_request`` even when not following, and
    raises on some values (``data:``, other schemes); readreceipt judges Location with its
    own WHATWG parse and the URL policy instead.
    """
    if response.status_code in REDIRECT_CODES and "location" in response.headers:
        # Each header apart: httpx joins two with ", " into one path ("/ok, http://...").
        response.extensions[_LOCATION] = response.headers.get_list("location")
        del response.headers["location"]


def _two_locations(values: list[str], url: str) -> FetchError:
    """A redirect naming two different places: browsers refuse it (Chrome's
    ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION), and so does readreceipt, naming both (a value
    holding a credential is named only as such)."""
    shown = ", ".join("(a URL holding a credential)" if has_secret_value("location", v, url)
                      else repr(v[:200]) for v in values[:4])
    return FetchError(f"the redirect has {len(values)} Location headers ({shown}); a browser "
                      "follows none of them", url=url, reason="protocol")


def _next_hop(current: PolicyURL, location: str) -> PolicyURL:
    # Resolved against the current URL by the same WHATWG parser as everything else. A
    # refusal's url is already safe to write down (check_url drops credentials, userinfo).
    try:
        absolute = str(ada_url.URL(location.strip(), base=current.url).href)
    except ValueError:
        absolute = location
    return check_url(absolute)


def _read_capped(response: httpx.Response, max_bytes: int,
                 deadline: Deadline) -> tuple[bytes, bool]:
    """Read at most ``max_bytes`` decoded bytes; True as second value when more was coming.

    The body gathers in one growing buffer whose value is handed over without a copy, so
    reading it costs about its size once, not twice (a list joined at the end would).
    """
    body = io.BytesIO()
    size = 0
    try:
        chunks = decoded(response.iter_raw(), response.headers.get("content-encoding"))
        for chunk in chunks:
            room = max_bytes - size
            if len(chunk) > room:
                body.write(chunk[:room])
                return body.getvalue(), True
            body.write(chunk)
            size += len(chunk)
            deadline.check()
            if size == max_bytes:
                # Exactly at the cap: only a further byte makes the body truncated.
                return body.getvalue(), any(c for c in chunks)
    except DecodeFailure as exc:
        raise FetchError(str(exc), reason="decoding") from exc
    return body.getvalue(), False


def _peer(response: httpx.Response) -> str | None:
    stream = response.extensions.get("network_stream")
    if stream is None:
        return None
    try:
        addr = stream.get_extra_info("server_addr")
    except OSError:
        return None
    return str(addr[0]) if addr else None


def _result(target: PolicyURL, current: PolicyURL, response: httpx.Response, body: bytes,
            truncated: bool, chain: list[Hop], peer: str | None,
            *, downgraded: bool = False) -> FetchResult:
    raw_phrase = response.extensions.get("reason_phrase", b"")
    phrase = raw_phrase.decode("latin-1") if isinstance(raw_phrase, bytes) else str(raw_phrase)
    return FetchResult(
        url=target.url,
        final_url=current.url,
        status=response.status_code,
        reason_phrase=phrase,
        headers=tuple((k.lower(), v) for k, v in response.headers.multi_items()),
        body=body,
        truncated=truncated,
        redirect_chain=tuple(chain),
        peer_address=peer,
        http_version=response.http_version,
        downgraded=downgraded,
    )
