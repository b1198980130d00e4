"""A loopback HTTP forward proxy that puts the address guard in front of a browser.

The browser that renders JavaScript shells (:mod:`readreceipt.browser.render`) is started with this
proxy as its only way out and with no implicit bypass for loopback, so every connection the
browser makes (page, scripts, images, frames, fetch/XHR, redirects) is a request here, and
the proxy, not the browser, resolves names. Each request is treated as readreceipt treats
its own: the URL through :func:`~readreceipt.fetching.urlpolicy.check_url`, the host through
:meth:`AddressGuard.addresses_for`, a connection to a checked address only, the peer
actually reached checked again. ``READRECEIPT_ALLOW_HOSTS`` exemptions therefore apply
exactly as in the guard, and are remembered in the guard's ``exemptions_used``.

Two kinds of request arrive:

- ``CONNECT host:port`` (https, and any tunnel): checked, then bytes are relayed blindly;
  the browser does TLS with the origin itself, so certificates are still checked on the name.
- an absolute-form ``GET http://host/path`` (plain http): checked, sent upstream in origin
  form with ``Connection: close``; the response is relayed with its ``Connection`` header
  rewritten to ``close``, so each client connection carries exactly one request and a
  request for one host can never travel on a connection opened to another.

A proxy made with ``refuse_all`` is a sink: it refuses every request without resolving
anything. The renderer points the browser's own traffic (updates, sign-in, metrics) at one,
and each page's traffic at a guarded one.

A refused request gets a ``403`` carrying ``X-Readreceipt-Proxy: refused`` and is listed in
:attr:`BrowserProxy.refused`; nothing is sent toward its target.

Bounds: request head size, request body size, concurrent connections (more wait in the
listen backlog), an idle timeout on every socket, a connect timeout, and a total byte budget
over everything relayed. A proxy made with a ``deadline`` (the capture's) also bounds time
as a whole: name lookups are waited for only until it, connect and idle timeouts never run
past it, and when it passes every open connection is cut (a timer, so that an upstream
trickling one byte a second cannot keep a relay alive) and any new request is answered
``504``. Response bodies are relayed by their own framing (see
:mod:`readreceipt.browser.framing`). The proxy
listens on 127.0.0.1 on an ephemeral port for the life of one rendering; any local process
could use it meanwhile, but it reaches nothing that readreceipt itself may not reach.
"""

from __future__ import annotations

import contextlib
import logging
import re
import selectors
import socket
import threading
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urlsplit

from readreceipt.browser.framing import (
    CHUNK,
    Buffered,
    Reply,
    Request,
    connection_tokens,
    parse_request,
    read_head,
    read_request_body,
    relay_body,
    response_head,
    send_reply,
)
from readreceipt.errors import FetchError, RefusedError
from readreceipt.fetching.credentials import loggable_url
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.urlpolicy import check_url

log = logging.getLogger(__name__)

#: Chromium's request heads are a few KB; 16 KiB leaves room for long cookies-free URLs.
MAX_HEAD_BYTES = 16 * 1024
#: Response heads bigger than this are broken or hostile (nginx's default limit is 8-32 KiB).
MAX_RESPONSE_HEAD_BYTES = 64 * 1024
#: Request bodies a page's scripts may send (form posts, GraphQL queries).
MAX_REQUEST_BODY = 1024 * 1024
#: Chromium opens at most 32 sockets per proxy; beyond this, connections wait their turn.
MAX_CONNECTIONS = 48
IDLE_TIMEOUT = 15.0
CONNECT_TIMEOUT = 10.0
DEFAULT_BUDGET = 100 * 1024 * 1024

REFUSED_HEADER = "x-readreceipt-proxy"

#: Hop-by-hop headers (RFC 9110 section 7.6.1) and proxy-only ones, never passed on.
_HOP_BY_HOP = frozenset({
    "connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding",
    "upgrade", "proxy-authorization", "proxy-authenticate",
})
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_AUTHORITY = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[^\s/?#@\[\]:\\]+):([0-9]{1,5})$")
MAX_LOGGED_URL = 300


@dataclass(frozen=True)
class Refusal:
    """A request the proxy refused: its URL (or ``host:port`` for a tunnel) and the rule."""

    target: str
    reason: str
    message: str


class _OverBudget(Exception):
    pass


class BrowserProxy:
    """The guarded forward proxy; use as a context manager around one browser session."""

    def __init__(self, guard: AddressGuard, *, budget: int = DEFAULT_BUDGET,
                 idle_timeout: float = IDLE_TIMEOUT, connect_timeout: float = CONNECT_TIMEOUT,
                 max_connections: int = MAX_CONNECTIONS, refuse_all: str | None = None,
                 deadline: Deadline | None = None) -> None:
        self._guard = guard
        self._deadline = deadline
        self._expired = threading.Event()
        self._timer: threading.Timer | None = None
        #: When set, a sink: every request is refused with this reason and nothing resolved
        #: (the browser's own background traffic is pointed at one).
        self._refuse_all = refuse_all
        self._budget = budget
        self._idle = idle_timeout
        self._connect_timeout = connect_timeout
        self._slots = threading.BoundedSemaphore(max_connections)
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._open: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._refused: list[Refusal] = []
        self._failures: list[Refusal] = []
        self._peers: dict[tuple[str, int], str] = {}
        self._relayed = 0
        self._requests = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.25)  # so the accept loop notices close() promptly
        self.port: int = self._listener.getsockname()[1]
        self._acceptor = threading.Thread(target=self._accept_loop, name="readreceipt-proxy",
                                          daemon=True)

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> BrowserProxy:
        self._acceptor.start()
        if self._deadline is not None:
            self._timer = threading.Timer(self._deadline.remaining(), self._expire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def _expire(self) -> None:
        """The deadline passed: cut every open connection; new ones are answered 504."""
        self._expired.set()
        with self._lock:
            sockets = list(self._open)
        for sock in sockets:
            _shutdown(sock)
        log.info("browser proxy: the deadline passed; %d connection(s) cut", len(sockets))

    def close(self) -> None:
        """Stop accepting, cut every open connection, wait briefly for the workers."""
        self._closing.set()
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            sockets = list(self._open)
            threads = list(self._threads)
        for sock in sockets:
            _shutdown(sock)
        if self._acceptor.is_alive():
            # Wake a waiting accept() now rather than at its next timeout.
            with contextlib.suppress(OSError), \
                    socket.create_connection(("127.0.0.1", self.port), timeout=1.0):
                pass
            self._acceptor.join(timeout=2.0)
        self._listener.close()
        for thread in threads:
            thread.join(timeout=2.0)

    def __enter__(self) -> BrowserProxy:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- what happened -----------------------------------------------------------------

    @property
    def deadline(self) -> Deadline | None:
        return self._deadline

    @property
    def server(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def refused(self) -> list[Refusal]:
        with self._lock:
            return list(self._refused)

    @property
    def failures(self) -> list[Refusal]:
        """Requests that were allowed but could not reach their server (DNS, connect)."""
        with self._lock:
            return list(self._failures)

    def peer_for(self, host: str, port: int) -> str | None:
        """The checked address last connected to for ``host:port``, if any."""
        with self._lock:
            return self._peers.get((host.lower().strip("[]"), port))

    @property
    def bytes_relayed(self) -> int:
        with self._lock:
            return self._relayed

    @property
    def over_budget(self) -> bool:
        with self._lock:
            return self._relayed > self._budget

    @property
    def budget(self) -> int:
        return self._budget

    @property
    def requests(self) -> int:
        with self._lock:
            return self._requests

    # -- connections -------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._closing.is_set():
            # At the connection cap, wait: further connections queue in the listen backlog
            # until a slot frees (every slot is bounded by the idle timeout).
            if not self._slots.acquire(timeout=0.25):
                continue
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                self._slots.release()
                continue
            except OSError:
                self._slots.release()
                return
            if self._closing.is_set():
                client.close()
                self._slots.release()
                return
            thread = threading.Thread(target=self._serve, args=(client,), daemon=True,
                                      name="readreceipt-proxy-conn")
            with self._lock:
                self._open.add(client)
                self._threads = [t for t in self._threads if t.is_alive()]
                self._threads.append(thread)
            thread.start()

    def _serve(self, client: socket.socket) -> None:
        owned = [client]  # every socket this connection opened, closed on the way out
        try:
            client.settimeout(self._timeout(self._idle))
            head, rest = read_head(client, MAX_HEAD_BYTES, upstream=False)
            request = parse_request(head)
            with self._lock:
                self._requests += 1
            if self._refuse_all is not None:
                raise self._refusal(request.target, RefusedError(
                    "this proxy relays nothing", reason=self._refuse_all))
            if request.method == "CONNECT":
                self._open_tunnel(client, request, rest, owned)
            else:
                self._forward(client, request, rest, owned)
        except Reply as reply:
            send_reply(client, reply, marker=REFUSED_HEADER)
        except _OverBudget:
            log.warning("browser proxy: byte budget of %d spent; connection cut", self._budget)
        except OSError as exc:  # a peer went away or timed out mid-relay
            log.debug("browser proxy: connection ended: %s", exc)
        finally:
            for sock in owned:
                with self._lock:
                    self._open.discard(sock)
                _shutdown(sock)
                sock.close()
            self._slots.release()

    def _open_tunnel(self, client: socket.socket, request: Request, rest: bytes,
                     owned: list[socket.socket]) -> None:
        match = _AUTHORITY.match(request.target)
        if match is None:
            raise Reply(400, "Bad Request", "CONNECT takes host:port")
        label = request.target
        try:
            policy = check_url(f"https://{request.target}/")
        except RefusedError as exc:
            raise self._refusal(label, exc) from None
        if policy.port != int(match.group(2)):
            raise Reply(400, "Bad Request", "CONNECT takes host:port")
        upstream = self._connect(policy.host, policy.port, label, owned)
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        if rest:
            self._count(len(rest))
            upstream.sendall(rest)
        self._pump(client, upstream)

    def _forward(self, client: socket.socket, request: Request, rest: bytes,
                 owned: list[socket.socket]) -> None:
        if request.method not in _METHODS:
            raise Reply(405, "Method Not Allowed", f"{request.method} is not relayed")
        if not request.target.lower().startswith("http://"):
            raise Reply(400, "Bad Request", "only absolute http:// targets are relayed")
        try:
            policy = check_url(request.target)
        except RefusedError as exc:
            raise self._refusal(request.target, exc) from None
        body = read_request_body(client, request, rest, MAX_REQUEST_BODY)
        upstream = self._connect(policy.host, policy.port, policy.url, owned)
        parts = urlsplit(policy.url)
        origin_form = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = f"[{policy.host}]" if ":" in policy.host else policy.host
        lines = [f"{request.method} {origin_form} HTTP/1.1",
                 f"Host: {host}" + ("" if policy.port == 80 else f":{policy.port}")]
        dropped = connection_tokens(request.headers)
        for name, value in request.headers:
            low = name.lower()
            if low in _HOP_BY_HOP or low in dropped or low == "host":
                continue
            lines.append(f"{name}: {value}")
        lines.append("Connection: close")
        upstream.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self._count(len(body))
        self._relay_response(client, upstream, request.method)

    def _relay_response(self, client: socket.socket, upstream: socket.socket,
                        method: str) -> None:
        def emit(data: bytes) -> None:
            self._count(len(data))
            client.sendall(data)

        leftover = b""
        while True:
            raw, leftover = read_head(upstream, MAX_RESPONSE_HEAD_BYTES, upstream=True,
                                      initial=leftover)
            head = response_head(raw)
            emit(head.raw)
            if not head.informational:
                break
        relay_body(Buffered(upstream, leftover), emit, head, method)

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        """Relay both ways until either side closes, the idle timeout, or close()."""
        with selectors.DefaultSelector() as selector:
            selector.register(client, selectors.EVENT_READ, upstream)
            selector.register(upstream, selectors.EVENT_READ, client)
            while not (self._closing.is_set() or self._expired.is_set()):
                events = selector.select(timeout=self._idle)
                if not events:
                    return
                for key, _ in events:
                    source: socket.socket = key.fileobj  # type: ignore[assignment]
                    sink: socket.socket = key.data
                    chunk = source.recv(CHUNK)
                    if not chunk:
                        return
                    self._count(len(chunk))
                    sink.sendall(chunk)

    def _connect(self, host: str, port: int, label: str,
                 owned: list[socket.socket]) -> socket.socket:
        """A socket to a checked address of ``host``; never to the name itself."""
        if self._closing.is_set():
            raise Reply(503, "Service Unavailable", "the proxy is closing")
        try:
            addresses = self._guard.addresses_for(host, port, self._deadline)
        except RefusedError as exc:
            raise self._refusal(label, exc) from None
        except FetchError as exc:
            self._note_failure(label, exc.reason, str(exc))
            status, phrase = (504, "Gateway Timeout") if exc.reason == "timeout" else (
                502, "Bad Gateway")
            raise Reply(status, phrase, str(exc)) from None
        last: OSError | None = None
        for addr in addresses:
            try:
                sock = socket.create_connection((addr, port),
                                                timeout=self._timeout(self._connect_timeout))
            except OSError as exc:
                last = exc
                continue
            try:
                self._guard.check(host, port, str(sock.getpeername()[0]))
            except RefusedError as exc:
                sock.close()
                raise self._refusal(label, exc) from None
            sock.settimeout(self._timeout(self._idle))
            owned.append(sock)
            with self._lock:
                self._peers[(host, port)] = addr
                self._open.add(sock)
            if self._expired.is_set():  # the timer may have run while this one connected
                raise Reply(504, "Gateway Timeout", "the capture's deadline passed")
            return sock
        timed_out = isinstance(last, TimeoutError)
        self._note_failure(label, "timeout" if timed_out else "connect", str(last))
        if timed_out:
            raise Reply(504, "Gateway Timeout", f"{host} did not answer in time")
        raise Reply(502, "Bad Gateway", f"could not connect to {host}")

    def _timeout(self, most: float) -> float:
        """A socket timeout: ``most``, or the time the deadline leaves if sooner; past the
        deadline, the request is answered 504."""
        if self._deadline is None:
            return most
        left = self._deadline.remaining()
        if left <= 0 or self._expired.is_set():
            raise Reply(504, "Gateway Timeout", "the capture's deadline passed")
        return min(most, left)

    def _refusal(self, target: str, exc: RefusedError) -> Reply:
        target = loggable_url(target, exc.reason, limit=MAX_LOGGED_URL)
        log.info("browser proxy refused %s: %s", target, exc.reason)
        with self._lock:
            self._refused.append(Refusal(target, exc.reason, str(exc)))
        return Reply(403, "Forbidden", f"readreceipt refused this request ({exc.reason})",
                      refused=True)

    def _note_failure(self, target: str, reason: str, message: str) -> None:
        with self._lock:
            self._failures.append(Refusal(target, reason, message))

    def _count(self, size: int) -> None:
        with self._lock:
            self._relayed += size
            over = self._relayed > self._budget
        if over:
            raise _OverBudget


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
