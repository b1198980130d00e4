"""The browser's guarded proxy, spoken to directly over sockets (no browser needed).

Each refusal test has a canary: a listener at an address that is not exempted. Controls
exempt the canary and see traffic arrive, so the refusal tests can fail.
"""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from canary import Canary, MapResolver, guard_for
from conftest import LocalServer
from readreceipt.browser.proxy import REFUSED_HEADER, BrowserProxy


def exchange(proxy: BrowserProxy, data: bytes, *, then: bytes = b"") -> bytes:
    """Send ``data`` (and ``then`` after the first answer), read until the proxy closes."""
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
        sock.sendall(data)
        if then:
            first = sock.recv(65536)
            sock.sendall(then)
            return first + _read_all(sock)
        return _read_all(sock)


def _read_all(sock: socket.socket) -> bytes:
    parts = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def test_plain_http_request_relayed(server: LocalServer) -> None:
    server.route("/page?x=1", "<p>hello through the proxy</p>")
    guard = guard_for(server.pair)
    with BrowserProxy(guard) as proxy:
        raw = (f"GET {server.url('/page?x=1')} HTTP/1.1\r\nHost: elsewhere.example\r\n"
               "Proxy-Connection: keep-alive\r\nUser-Agent: test-agent\r\n\r\n").encode()
        response = exchange(proxy, raw)
        assert proxy.peer_for("127.0.0.1", server.port) == "127.0.0.1"
    assert status_of(response) == 200
    assert response.endswith(b"<p>hello through the proxy</p>")
    head = response.split(b"\r\n\r\n", 1)[0].lower()
    assert b"connection: close" in head
    seen = server.requests[-1]
    assert seen["path"] == "/page?x=1"  # origin form, not the absolute URI
    assert seen["headers"]["host"] == server.pair  # rewritten from the checked URL
    assert seen["headers"]["user-agent"] == "test-agent"
    assert "proxy-connection" not in seen["headers"]
    assert guard.exemptions_used == {server.pair}


def test_plain_http_to_blocked_address_refused(canary: Canary) -> None:
    with BrowserProxy(guard_for()) as proxy:
        response = exchange(proxy, f"GET {canary.url('/x')} HTTP/1.1\r\n\r\n".encode())
        refused = proxy.refused
    assert status_of(response) == 403
    assert f"{REFUSED_HEADER}: refused".encode() in response.lower()
    assert canary.connections == 0
    assert [(r.target, r.reason) for r in refused] == [(canary.url("/x"), "loopback_address")]


def test_exempted_canary_is_reached(canary: Canary) -> None:
    """Control: the same request with the canary exempted does arrive."""
    with BrowserProxy(guard_for(canary.pair)) as proxy:
        response = exchange(proxy, f"GET {canary.url('/x')} HTTP/1.1\r\n\r\n".encode())
        assert proxy.refused == []
    assert status_of(response) == 200
    assert canary.connections == 1


def test_connect_tunnel_to_exempted_server(server: LocalServer) -> None:
    server.route("/t", "tunnelled")
    with BrowserProxy(guard_for(server.pair)) as proxy:
        response = exchange(
            proxy, f"CONNECT {server.pair} HTTP/1.1\r\nHost: {server.pair}\r\n\r\n".encode(),
            then=f"GET /t HTTP/1.1\r\nHost: {server.pair}\r\nConnection: close\r\n\r\n".encode())
    assert response.startswith(b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.")
    assert response.endswith(b"tunnelled")


def test_connect_to_blocked_address_refused(canary: Canary) -> None:
    with BrowserProxy(guard_for()) as proxy:
        response = exchange(proxy, f"CONNECT {canary.pair} HTTP/1.1\r\n\r\n".encode())
        refused = proxy.refused
    assert status_of(response) == 403
    assert canary.connections == 0
    assert [(r.target, r.reason) for r in refused] == [(canary.pair, "loopback_address")]


def test_names_are_resolved_by_the_proxy_through_the_guard(server: LocalServer,
                                                           canary: Canary) -> None:
    server.route("/", "named")
    resolver = MapResolver({"page.test": ["127.0.0.1"], "sneaky.test": [canary.host]})
    guard = guard_for(f"page.test:{server.port}", resolver=resolver)
    with BrowserProxy(guard) as proxy:
        ok = exchange(proxy, f"GET http://page.test:{server.port}/ HTTP/1.1\r\n\r\n".encode())
        bad = exchange(proxy, f"CONNECT sneaky.test:{canary.port} HTTP/1.1\r\n\r\n".encode())
        refused = proxy.refused
    assert status_of(ok) == 200 and ok.endswith(b"named")
    assert server.requests[-1]["headers"]["host"] == f"page.test:{server.port}"
    assert status_of(bad) == 403
    assert resolver.asked == ["page.test", "sneaky.test"]
    assert [(r.target, r.reason) for r in refused] == [(f"sneaky.test:{canary.port}",
                                                        "loopback_address")]
    assert canary.connections == 0


def test_one_blocked_answer_refuses_the_name(canary: Canary) -> None:
    resolver = MapResolver({"mixed.test": ["93.184.215.14", canary.host]})
    with BrowserProxy(guard_for(resolver=resolver)) as proxy:
        response = exchange(proxy, f"GET http://mixed.test:{canary.port}/ HTTP/1.1\r\n\r\n"
                            .encode())
    assert status_of(response) == 403
    assert canary.connections == 0


def test_unresolvable_name_is_a_bad_gateway() -> None:
    with BrowserProxy(guard_for()) as proxy:
        response = exchange(proxy, b"GET http://nowhere.test/ HTTP/1.1\r\n\r\n")
        assert [f.reason for f in proxy.failures] == ["dns"]
        assert proxy.refused == []
    assert status_of(response) == 502


@pytest.mark.parametrize(("raw", "status"), [
    (b"GET /relative HTTP/1.1\r\n\r\n", 400),
    (b"GET https://example.com/ HTTP/1.1\r\n\r\n", 400),
    (b"BREW http://example.com/ HTTP/1.1\r\n\r\n", 405),
    (b"GET http://example.com/ HTTP/1.1 extra\r\n\r\n", 400),
    (b"GET http://example.com/ HTTP/1.1\r\n folded: header\r\n\r\n", 400),
    (b"CONNECT example.com/path:443 HTTP/1.1\r\n\r\n", 400),
    (b"CONNECT user@example.com:443 HTTP/1.1\r\n\r\n", 400),
    (b"GET http://example.com/ HTTP/1.1\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n", 431),
])
def test_malformed_requests_rejected(raw: bytes, status: int) -> None:
    resolver = MapResolver({})
    with BrowserProxy(guard_for(resolver=resolver)) as proxy:
        response = exchange(proxy, raw)
    assert status_of(response) == status
    assert resolver.asked == []  # rejected before any name was looked up


@pytest.mark.parametrize("smuggled", [
    "X-Note: a\rGET {other} HTTP/1.1",        # a bare CR: a second request for some readers
    "X-Note: a\nGET {other} HTTP/1.1",        # a bare LF
    "X-Note: a\x00b",                         # NUL ends a string in C
    "X-Note\r: a",                            # in the field name
], ids=["cr-in-value", "lf-in-value", "nul-in-value", "cr-in-name"])
def test_bare_cr_lf_and_nul_in_the_head_are_refused(server: LocalServer, smuggled: str) -> None:
    """The proxy relayed a header holding a bare CR (X: a\rGET http://...)."""
    server.route("/page", "<p>page</p>")
    other = server.url("/other")
    with BrowserProxy(guard_for(server.pair)) as proxy:
        raw = (f"GET {server.url('/page')} HTTP/1.1\r\nHost: {server.pair}\r\n"
               f"{smuggled.format(other=other)}\r\n\r\n").encode("latin-1")
        response = exchange(proxy, raw)
    assert status_of(response) == 400
    assert server.requests == []  # nothing relayed


@pytest.mark.parametrize("line", [
    "GET http://example.com/\r HTTP/1.1", "GET http://example.com/\x00 HTTP/1.1",
])
def test_bare_cr_and_nul_in_the_request_line_are_refused(line: str) -> None:
    resolver = MapResolver({})
    with BrowserProxy(guard_for(resolver=resolver)) as proxy:
        response = exchange(proxy, (line + "\r\n\r\n").encode("latin-1"))
    assert status_of(response) == 400
    assert resolver.asked == []


def test_url_policy_applies_and_logs_no_user_name() -> None:
    resolver = MapResolver({})
    with BrowserProxy(guard_for(resolver=resolver)) as proxy:
        response = exchange(proxy, b"GET http://alice:pw@example.com/ HTTP/1.1\r\n\r\n")
        refused = proxy.refused
    assert status_of(response) == 403
    assert [(r.target, r.reason) for r in refused] == [("http://example.com/", "userinfo")]
    assert resolver.asked == []


def test_credential_in_url_refused_and_not_written_down() -> None:
    resolver = MapResolver({})
    with BrowserProxy(guard_for(resolver=resolver)) as proxy:
        response = exchange(
            proxy, b"GET http://example.com/api?access_token=abcdef123456 HTTP/1.1\r\n\r\n")
        refused = proxy.refused
    assert status_of(response) == 403
    assert [(r.target, r.reason) for r in refused] == [("http://example.com/api",
                                                        "credential_param")]
    assert b"abcdef123456" not in response
    assert resolver.asked == []


def test_request_body_forwarded_and_chunked_refused(server: LocalServer) -> None:
    got: list[bytes] = []

    def echo(handler: BaseHTTPRequestHandler) -> None:
        got.append(handler.rfile.read(int(handler.headers["Content-Length"])))
        handler.send_response(200)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(b"ok")

    server.route("/post", handler=echo)
    # The shared server answers GET only; let POST take the same route table.
    handler_class = server.httpd.RequestHandlerClass
    handler_class.do_POST = handler_class.do_GET  # type: ignore[attr-defined]
    with BrowserProxy(guard_for(server.pair)) as proxy:
        ok = exchange(proxy, (f"POST {server.url('/post')} HTTP/1.1\r\nContent-Length: 5\r\n"
                              "\r\nhello").encode())
        chunked = exchange(proxy, (f"POST {server.url('/post')} HTTP/1.1\r\n"
                                   "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                           .encode())
    assert status_of(ok) == 200 and ok.endswith(b"ok")
    assert got == [b"hello"]
    assert status_of(chunked) == 501


def test_keep_alive_answer_rewritten_to_close(server: LocalServer) -> None:
    def keep_alive(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Connection", "keep-alive")
        handler.send_header("Keep-Alive", "timeout=5")
        handler.send_header("Content-Length", "4")
        handler.end_headers()
        handler.wfile.write(b"kept")

    server.route("/ka", handler=keep_alive)
    with BrowserProxy(guard_for(server.pair)) as proxy:
        response = exchange(proxy, f"GET {server.url('/ka')} HTTP/1.1\r\n\r\n".encode())
    head = response.split(b"\r\n\r\n", 1)[0].lower()
    assert b"connection: close" in head
    assert b"keep-alive" not in head
    assert response.endswith(b"kept")


def test_connections_over_the_cap_wait_their_turn(server: LocalServer) -> None:
    server.route("/", "served")
    results: list[bytes] = []
    with BrowserProxy(guard_for(server.pair), max_connections=1) as proxy:
        hog = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
        hog.sendall(b"GET ")  # an unfinished head keeps the only slot busy
        waiting = threading.Thread(target=lambda: results.append(
            exchange(proxy, f"GET {server.url('/')} HTTP/1.1\r\n\r\n".encode())))
        waiting.start()
        waiting.join(timeout=1.0)
        assert results == []  # queued, not served, while the slot is held
        assert server.connections == 0
        hog.close()  # frees the slot
        waiting.join(timeout=10)
    assert len(results) == 1 and status_of(results[0]) == 200


def test_byte_budget_cuts_the_relay(server: LocalServer) -> None:
    server.route("/big", "x" * 200_000)
    with BrowserProxy(guard_for(server.pair), budget=10_000) as proxy:
        response = exchange(proxy, f"GET {server.url('/big')} HTTP/1.1\r\n\r\n".encode())
    assert status_of(response) == 200
    assert len(response) < 200_000


def test_sink_refuses_everything_without_resolving(server: LocalServer) -> None:
    resolver = MapResolver({"page.test": ["127.0.0.1"]})
    guard = guard_for(server.pair, f"page.test:{server.port}", resolver=resolver)
    with BrowserProxy(guard, refuse_all="browser_internal") as sink:
        plain = exchange(sink, f"GET {server.url('/')} HTTP/1.1\r\n\r\n".encode())
        tunnel = exchange(sink, f"CONNECT page.test:{server.port} HTTP/1.1\r\n\r\n".encode())
        reasons = [r.reason for r in sink.refused]
    assert status_of(plain) == status_of(tunnel) == 403
    assert reasons == ["browser_internal", "browser_internal"]
    assert resolver.asked == []
    assert server.connections == 0


def test_close_cuts_open_tunnels(server: LocalServer) -> None:
    proxy = BrowserProxy(guard_for(server.pair)).start()
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
        sock.sendall(f"CONNECT {server.pair} HTTP/1.1\r\n\r\n".encode())
        assert sock.recv(1024).startswith(b"HTTP/1.1 200")
        proxy.close()
        assert _read_all(sock) == b""  # the tunnel was closed, not left to the idle timeout


def test_chunked_answer_relayed_to_its_end(server: LocalServer) -> None:
    """A server that keeps its connection open: the proxy ends at the last chunk."""

    def chunked(handler: BaseHTTPRequestHandler) -> None:
        handler.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n")
        handler.send_response(200)
        handler.send_header("Transfer-Encoding", "chunked")
        handler.send_header("Connection", "keep-alive")
        handler.end_headers()
        handler.wfile.write(b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n")

    server.route("/chunked", handler=chunked)
    with BrowserProxy(guard_for(server.pair), idle_timeout=60) as proxy:
        response = exchange(proxy, f"GET {server.url('/chunked')} HTTP/1.1\r\n\r\n".encode())
    assert response.startswith(b"HTTP/1.1 103 Early Hints\r\n")
    final = response.split(b"\r\n\r\n", 1)[1]
    assert final.startswith(b"HTTP/1.0 200") or final.startswith(b"HTTP/1.1 200")
    assert b"connection: close" in final.lower().split(b"\r\n\r\n", 1)[0]
    assert response.endswith(b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n")
