"""The address guard at connect time, as an httpcore network backend and an httpx transport.

A name is resolved exactly once per capture (the answer is kept in the guard, so robots.txt,
the page and every redirect hop to that name connect to the same checked addresses); every
address in the answer is checked (one blocked answer refuses the whole name, so a resolver
cannot slip a private address in beside a public one); the connection is made to a checked
address, never to the name, so there is no second resolution to rebind. httpcore still uses
the URL's host for SNI, the certificate check and the Host header. The peer the socket
really reached is checked again.

Time: every step that waits on the network answers to the capture's
:class:`~readreceipt.fetching.deadline.Deadline`. The name lookup runs under
:meth:`Deadline.call` (``getaddrinfo`` cannot be cancelled, so it is waited for only until the
deadline); the connection, the TLS handshake and each read and write get the time left as
their timeout (never more than httpcore's own per-operation timeout), and a stream whose
deadline has passed refuses the next read or write, so a server that trickles one byte a
second is cut off at the deadline rather than timed byte by byte.

Invariants:
- every TCP connection the transport opens went through :meth:`AddressGuard.addresses_for`;
- a transport made with a deadline never waits past it, in any step;
- environment proxies are never used (the transport is built on a bare ConnectionPool);
- names reserved for this machine or a metadata service are refused here too, whatever a
  resolver or a ``--resolve`` pin says;
- an exemption from ``READRECEIPT_ALLOW_HOSTS`` is remembered in ``exemptions_used``; it
  never covers a cloud metadata address.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import logging
import re
import socket
import ssl
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpcore
import httpx

from readreceipt.errors import FetchError, FetchTimeout, RefusedError
from readreceipt.fetching.addresses import (
    METADATA_REASON,
    AllowHosts,
    blocked_reason,
    describe_block,
)
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.urlpolicy import blocked_host_name, canonical_host

log = logging.getLogger(__name__)

#: What a host name handed to the resolver may contain (already IDNA-encoded by the URL
#: parse). Anything else (a NUL, a space, a percent sign) is a trick on getaddrinfo.
_HOST_NAME = re.compile(r"[a-z0-9_](?:[a-z0-9_.-]{0,252})")


class Resolver(Protocol):
    """Turns a host name into addresses. Injected in tests; the system resolver otherwise."""

    def resolve(self, host: str, port: int) -> list[str]: ...


class SystemResolver:
    def resolve(self, host: str, port: int) -> list[str]:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise FetchError(f"the name {host} does not resolve", reason="dns") from exc
        seen: list[str] = []
        for info in infos:
            addr = str(info[4][0])
            if addr not in seen:
                seen.append(addr)
        return seen


def parse_pin(spec: str) -> tuple[str, int, str]:
    """Parse curl's ``HOST:PORT:ADDR[,ADDR...]`` (an ADDR may be ``[v6]``).

    Returns the host as the URL parser writes it, the port, and the addresses joined by
    commas (each one canonical); every address still passes the guard when used.
    """
    host, sep1, rest = spec.strip().partition(":")
    port_s, sep2, addrs = rest.partition(":")
    if not (sep1 and sep2 and host and port_s.isdigit() and addrs):
        raise ValueError(f"--resolve takes HOST:PORT:ADDR, not {spec!r}")
    canonical = canonical_host(host)
    if not canonical:
        raise ValueError(f"--resolve: {host!r} is not a host name")
    parsed: list[str] = []
    for one in addrs.split(","):
        try:
            parsed.append(str(ipaddress.ip_address(one.strip().strip("[]"))))
        except ValueError:
            raise ValueError(f"--resolve: {one!r} is not an IP address") from None
    port = int(port_s)
    if not 0 < port < 65536:
        raise ValueError(f"--resolve: {port} is not a port")
    return canonical.rstrip("."), port, ",".join(parsed)


def _norm(host: str) -> str:
    return host.lower().strip("[]").rstrip(".")


@dataclass
class AddressGuard:
    """Decides which addresses one capture may connect to, and remembers exemptions used."""

    allow: AllowHosts = field(default_factory=AllowHosts.from_env)
    resolver: Resolver = field(default_factory=SystemResolver)
    #: (host, port) -> address, or several joined by commas (curl's --resolve).
    pins: Mapping[tuple[str, int], str] = field(default_factory=dict)
    exemptions_used: set[str] = field(default_factory=set)
    _answers: dict[tuple[str, int], tuple[str, ...]] = field(
        default_factory=dict, repr=False, compare=False)

    def addresses_for(self, host: str, port: int,
                      deadline: Deadline | None = None) -> list[str]:
        """Every address ``host`` resolves to, all checked; RefusedError if any is blocked.

        The first answer for a (host, port) is kept: later connections in this capture use
        it again instead of asking the resolver a second time. With a ``deadline``, the
        resolver is waited for until then and no longer (FetchTimeout).
        """
        host = _norm(host)
        key = (host, port)
        cached = self._answers.get(key)
        if cached is not None:
            return list(cached)
        name_reason = blocked_host_name(host)
        if name_reason is not None:
            raise RefusedError(f"the host {host} names this machine, its network or a cloud "
                               "metadata service; readreceipt does not connect there",
                               reason=name_reason)
        answers = self._answer(host, port, deadline)
        if not answers:
            raise FetchError(f"the name {host} has no address", reason="dns")
        for addr in answers:
            self.check(host, port, addr)
        self._answers[key] = tuple(answers)
        return list(answers)

    def precheck(self, host: str, port: int, deadline: Deadline | None = None) -> bool:
        """Resolve and check ``host`` now (before any politeness step spends a slot).

        A refusal is raised; a DNS failure (or a lookup that outlived ``deadline``) is left
        for the connection to meet and record, and False tells the caller no request can
        reach the host now.
        """
        try:
            self.addresses_for(host, port, deadline)
        except FetchError:
            log.debug("precheck of %s:%s could not resolve; the fetch will say so", host, port)
            return False
        return True

    def _answer(self, host: str, port: int, deadline: Deadline | None) -> list[str]:
        pinned = self.pins.get((host, port))
        if pinned is not None:
            return [a for a in pinned.split(",") if a]
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            pass
        if not _HOST_NAME.fullmatch(host):
            raise RefusedError(f"{host!r} is not a host name readreceipt will look up",
                               reason="bad_host")
        if deadline is None:
            answer = self.resolver.resolve(host, port)
        else:
            answer = deadline.call(self.resolver.resolve, host, port, what=f"resolving {host}")
        return [a.split("%", 1)[0] for a in answer]

    def check(self, host: str, port: int, addr: str) -> None:
        """RefusedError unless ``addr`` may be contacted for ``host:port``."""
        try:
            ip = ipaddress.ip_address(addr.split("%", 1)[0])
        except ValueError:
            raise RefusedError(f"{addr!r} is not an address", reason="bad_address") from None
        reason = blocked_reason(ip)
        if reason is None:
            return
        if reason != METADATA_REASON and self.allow.exempts(host, port):
            self.exemptions_used.add(f"{_norm(host)}:{port}")
            return
        subject = f"the address {ip} is" if _norm(host) == str(ip) else (
            f"{host} resolves to {ip},")
        raise RefusedError(f"{subject} {describe_block(ip)}; readreceipt does not connect there",
                           reason=reason)


class GuardedBackend(httpcore.NetworkBackend):
    """httpcore backend that connects only to addresses the guard has checked, and (with a
    deadline) never waits past it."""

    def __init__(self, guard: AddressGuard, deadline: Deadline | None = None) -> None:
        self._guard = guard
        self._deadline = deadline
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        last_exc: Exception | None = None
        deadline = self._deadline
        for addr in self._guard.addresses_for(host, port, deadline):
            try:
                stream = self._inner.connect_tcp(
                    addr, port, timeout=_bounded(deadline, timeout, httpcore.ConnectTimeout),
                    local_address=local_address, socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last_exc = exc
                continue
            peer = stream.get_extra_info("server_addr")
            if peer is not None:
                try:
                    self._guard.check(host, port, str(peer[0]))
                except RefusedError:
                    stream.close()
                    raise
            return stream if deadline is None else _DeadlineStream(stream, deadline)
        if isinstance(last_exc, httpcore.ConnectTimeout):
            raise last_exc
        raise httpcore.ConnectError(str(last_exc) if last_exc else "no address to connect to")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def _bounded(deadline: Deadline | None, timeout: float | None,
             expired: type[httpcore.TimeoutException]) -> float | None:
    """``timeout`` for one socket operation, cut to the time the deadline leaves."""
    if deadline is None:
        return timeout
    left = deadline.remaining()
    if left <= 0:
        raise expired(f"no complete answer within {deadline.seconds:g} s")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation ends by the deadline.

    httpcore hands each read a timeout of its own, which a byte arriving resets; here each
    read and write is given at most the time left, and none starts once the deadline has
    passed. CPython times a TLS handshake (and a ``sendall``) as a whole against the socket
    timeout, so ``start_tls`` is bounded the same way.
    """

    def __init__(self, inner: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _bounded(self._deadline, timeout,
                                                    httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(self._deadline, timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname,
                                      _bounded(self._deadline, timeout,
                                               httpcore.ConnectTimeout))
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Stream(httpx.SyncByteStream):
    def __init__(self, inner: Iterable[bytes]) -> None:
        self._inner = inner

    def __iter__(self) -> Iterator[bytes]:
        with _mapped_errors():
            yield from self._inner

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


@functools.cache
def _default_ssl_context() -> ssl.SSLContext:
    """Loading the CA bundle costs ~20 ms; one verifying context serves every capture."""
    return ssl.create_default_context()


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport over a public httpcore pool with the guarded backend; with a
    deadline, no request made through it waits past that deadline."""

    def __init__(self, guard: AddressGuard, *, verify: ssl.SSLContext | None = None,
                 deadline: Deadline | None = None) -> None:
        context = verify or _default_ssl_context()
        self._pool = httpcore.ConnectionPool(
            ssl_context=context,
            max_connections=4,
            network_backend=GuardedBackend(guard, deadline),
            retries=0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _mapped_errors():
            response = self._pool.handle_request(core_request)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Stream(response.stream),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._pool.close()


@contextlib.contextmanager
def _mapped_errors() -> Iterator[None]:
    """Turn httpcore's exceptions into readreceipt's, with a reason code."""
    try:
        yield
    except httpcore.TimeoutException as exc:
        raise FetchTimeout("the server did not answer in time", reason="timeout") from exc
    except (httpcore.NetworkError, httpcore.ProtocolError, ssl.SSLError) as exc:
        text = str(exc)
        if isinstance(exc, ssl.SSLError) or "SSL" in text or "CERTIFICATE" in text.upper():
            raise FetchError(f"TLS failed: {text}", reason="tls") from exc
        if isinstance(exc, httpcore.ProtocolError):
            raise FetchError(f"the server broke the HTTP protocol: {text}",
                             reason="protocol") from exc
        raise FetchError(f"could not connect: {text}", reason="connect") from exc
