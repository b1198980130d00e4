"""The package's loopback server (the demo's, the tests', the benchmarks')."""

from __future__ import annotations

import http.client
import http.server

import pytest

from readreceipt.localserver import LocalServer, Route


def _get(server: LocalServer, path: str) -> tuple[int, bytes, str | None]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("content-type")
    finally:
        conn.close()


def test_routes_are_found_as_sent_without_the_query_and_decoded() -> None:
    with LocalServer({"/a b": Route(200, b"decoded", {"Content-Type": "text/plain"})}) as srv:
        srv.route("/page", b"<p>page</p>")
        srv.route("/page?v=2", b"<p>second</p>")
        assert _get(srv, "/page") == (200, b"<p>page</p>", "text/html; charset=utf-8")
        assert _get(srv, "/page?v=2")[1] == b"<p>second</p>"  # as sent wins
        assert _get(srv, "/page?v=3")[1] == b"<p>page</p>"  # then without the query
        assert _get(srv, "/a%20b")[:2] == (200, b"decoded")
        status, body, _ = _get(srv, "/missing")
        assert status == 404 and b"Not found" in body
        assert [r["path"] for r in srv.requests] == ["/page", "/page?v=2", "/page?v=3",
                                                     "/a%20b", "/missing"]
        assert srv.connections == 5


def test_a_handler_answers_by_hand() -> None:
    def teapot(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(418)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    with LocalServer() as srv:
        srv.route("/tea", handler=teapot)
        assert _get(srv, "/tea")[0] == 418


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1", "::"])
def test_only_a_loopback_address_is_bound(host: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        LocalServer(host=host)


def test_closing_frees_the_port() -> None:
    srv = LocalServer()
    port = srv.port
    srv.close()
    with LocalServer(port=port) as again:  # the same port binds again at once
        assert again.port == port
