"""The bypass suite: every trick for reaching this machine through a capture is refused.

Each case points at a *canary*, a server on a loopback address that must never be reached,
and asserts two things: the capture is refused (RefusedError in process, exit 2 through the
real CLI), and the canary saw no connection at all. READRECEIPT_ALLOW_HOSTS never covers a
canary; redirect cases start at an exempted server that answers 30x to a canary.

``test_the_suite_fails_without_the_guard`` runs the same cases with the address guard and the
URL host rules patched out (in the test process only; there is no switch for it in the
product) and asserts that the suite's own check then fails for every case: each one either
reaches a canary or is no longer refused. That is the proof these tests can fail.
"""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpcore
import pytest

import readreceipt.fetching.netguard as netguard
import readreceipt.fetching.urlpolicy as urlpolicy
from conftest import LocalServer, article_html, reply, run_cli
from readreceipt.errors import ReadReceiptError, RefusedError
from readreceipt.fetching.deadline import Deadline
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

PUBLIC = "93.184.216.34"  # a global address (example.com's old one); never connected to here


class Canary:
    """An HTTP server on ``host`` that counts every connection it accepts."""

    def __init__(self, host: str, port: int = 0) -> None:
        self.connections = 0
        self.requests: list[str] = []
        outer = self
        family = socket.AF_INET6 if ":" in host else socket.AF_INET

        class _Server(ThreadingHTTPServer):
            address_family = family
            daemon_threads = True

            def get_request(self) -> tuple[socket.socket, Any]:
                pair = super().get_request()
                outer.connections += 1
                return pair

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                outer.requests.append(self.path)
                reply(self, b"<html><body><p>canary: you should not be here</p></body></html>")

            def log_message(self, format: str, *args: object) -> None:
                return

        self.httpd = _Server((host, port), _Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class Canaries:
    v4: Canary  # 127.0.0.1
    v4b: Canary  # 127.0.0.2
    v6: Canary  # ::1

    def total(self) -> int:
        # Give an accept racing the assertion a moment to be counted.
        time.sleep(0.02)
        return self.v4.connections + self.v4b.connections + self.v6.connections

    def fill(self, template: str, origin: str = "") -> str:
        return template.format(p=self.v4.port, p2=self.v4b.port, p6=self.v6.port, s=origin)


@pytest.fixture(scope="module")
def canaries() -> Iterator[Canaries]:
    c = Canaries(Canary("127.0.0.1"), Canary("127.0.0.2"), Canary("::1"))
    yield c
    for one in (c.v4, c.v4b, c.v6):
        one.close()


@pytest.fixture(scope="module")
def hub_server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.close()


@pytest.fixture
def hub(hub_server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> LocalServer:
    """The exempted server redirect cases start from (its exact pair only)."""
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", hub_server.pair)
    return hub_server


@dataclass(frozen=True)
class Case:
    id: str
    url: str  # {p}: canary on 127.0.0.1, {p2}: on 127.0.0.2, {p6}: on [::1]
    resolve: tuple[str, ...] = ()
    reason: str | None = None  # the refusal reason expected, when it is worth pinning
    #: True when, unguarded, the request would land on a canary (used by the proof).
    reaches: bool = True

    def __str__(self) -> str:
        return self.id


DIRECT = [
    # IPv4 spellings of 127.0.0.1 (the WHATWG parse folds them; the guard judges the result)
    Case("dotted", "http://127.0.0.1:{p}/", reason="loopback_address"),
    Case("decimal", "http://2130706433:{p}/", reason="loopback_address"),
    Case("octal", "http://0177.0.0.1:{p}/"),
    Case("octal-whole", "http://017700000001:{p}/"),
    Case("octal-padded", "http://127.000.000.001:{p}/"),
    Case("hex", "http://0x7f.0.0.1:{p}/"),
    Case("hex-whole", "http://0x7f000001:{p}/"),
    Case("short", "http://127.1:{p}/"),
    Case("short-hex", "http://0x7f.1:{p}/"),
    Case("zero", "http://0:{p}/", reason="this_network_address"),
    Case("zeros", "http://0.0.0.0:{p}/"),
    Case("other-loopback", "http://127.0.0.2:{p2}/"),
    Case("trailing-dot-ip", "http://127.0.0.1.:{p}/"),
    Case("encoded-dot", "http://127.0.0.1%2e:{p}/"),
    Case("percent-host", "http://%31%32%37.0.0.1:{p}/"),
    # full-width dots and digits, circled digits (NFKC / IDNA mapping)
    Case("ideographic-dots", "http://127\u30020\u30020\u30021:{p}/"),
    Case("fullwidth-dots", "http://127\uff0e0\uff0e0\uff0e1:{p}/"),
    Case("halfwidth-dots", "http://127\uff610\uff610\uff611:{p}/"),
    Case("fullwidth-digits", "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:{p}/"),
    Case("circled-digits", "http://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460:{p}/"),
    # IPv6 forms
    Case("v6-loopback", "http://[::1]:{p6}/", reason="loopback_address"),
    Case("v6-unspecified", "http://[::]:{p6}/", reason="unspecified_address"),
    Case("v6-expanded", "http://[0:0:0:0:0:0:0:1]:{p6}/"),
    Case("v4-mapped", "http://[::ffff:127.0.0.1]:{p}/", reason="loopback_address"),
    Case("v4-mapped-hex", "http://[::ffff:7f00:1]:{p}/"),
    Case("v4-mapped-long", "http://[0:0:0:0:0:ffff:127.0.0.1]:{p}/"),
    Case("v4-compatible", "http://[::127.0.0.1]:{p}/", reason="loopback_address",
         reaches=False),
    Case("nat64", "http://[64:ff9b::127.0.0.1]:{p}/", reason="loopback_address",
         reaches=False),
    Case("nat64-local", "http://[64:ff9b:1::7f00:1]:{p}/", reason="nat64_local_use_address",
         reaches=False),
    Case("6to4", "http://[2002:7f00:1::1]:{p}/", reason="loopback_address", reaches=False),
    Case("teredo", "http://[2001:0:7f00:1::f7f7:f7f7]:{p}/", reason="loopback_address",
         reaches=False),
    Case("scoped-link-local", "http://[fe80::1%25lo]:{p6}/", reaches=False),
    Case("link-local", "http://[fe80::1]:{p6}/", reason="link_local_address", reaches=False),
    # names
    Case("localhost", "http://localhost:{p}/", reason="local_host_name"),
    Case("localhost-dot", "http://localhost.:{p}/", reason="local_host_name"),
    Case("localhost-caps", "http://LocalHost:{p}/", reason="local_host_name"),
    Case("sub-localhost", "http://a.localhost:{p}/", reason="local_host_name", reaches=False),
    Case("metadata-name", "http://metadata.google.internal/computeMetadata/v1/",
         reason="metadata_host", reaches=False),
    Case("metadata-ip", "http://169.254.169.254/latest/meta-data/", reason="metadata_address",
         reaches=False),
    Case("azure-wireserver", "http://168.63.129.16/", reason="metadata_address",
         reaches=False),
    Case("metadata-mapped", "http://[::ffff:a9fe:a9fe]/", reason="metadata_address",
         reaches=False),
    # names resolving to blocked addresses, as --resolve pins them
    Case("pinned", "http://canary.example:{p}/", ("canary.example:{p}:127.0.0.1",),
         reason="loopback_address"),
    Case("pinned-mapped", "http://mapped.example:{p}/",
         ("mapped.example:{p}:[::ffff:127.0.0.1]",)),
    Case("pinned-v6", "http://six.example:{p6}/", ("six.example:{p6}:[::1]",)),
    Case("pinned-zero", "http://zero.example:{p}/", ("zero.example:{p}:0.0.0.0",)),
    Case("pinned-trailing-dot", "http://canary.example.:{p}/", ("canary.example:{p}:127.0.0.1",)),
    Case("pinned-any-answer", "http://multi.example:{p}/",
         (f"multi.example:{{p}}:{PUBLIC},127.0.0.1",), reason="loopback_address",
         reaches=False),
    Case("pinned-metadata", "http://meta.example/", ("meta.example:80:169.254.169.254",),
         reason="metadata_address", reaches=False),
    # userinfo and backslash tricks
    Case("userinfo", "http://user:pass@127.0.0.1:{p}/", reason="userinfo", reaches=False),
    Case("userinfo-host", "http://evil.example@127.0.0.1:{p}/", reason="userinfo",
         reaches=False),
    Case("backslash-at", "http://127.0.0.1:{p}\\@evil.example/", reason="parser_disagreement"),
    Case("backslash-scheme", "http:/\\127.0.0.1:{p}/", reason="parser_disagreement"),
    Case("backslash-user", "http://evil.example\\@127.0.0.1:{p}/",
         reason="parser_disagreement", reaches=False),
    Case("hash-at", "http://127.0.0.1:{p}#@evil.example/", reason="loopback_address"),
    Case("query-at", "http://127.0.0.1:{p}?@evil.example/", reason="loopback_address"),
]

#: Blocked targets a redirect may point at ({s}: the exempted server's origin).
REDIRECT_TARGETS = [
    Case("canary", "http://127.0.0.1:{p}/", reason="loopback_address"),
    Case("canary-decimal", "http://2130706433:{p}/"),
    Case("canary-mapped", "http://[::ffff:127.0.0.1]:{p}/"),
    Case("canary-v6", "http://[::1]:{p6}/"),
    Case("canary-other", "http://127.0.0.2:{p2}/"),
    Case("scheme-relative", "//127.0.0.1:{p}/x", reason="loopback_address"),
    Case("path-absolute-backslash", "/\\127.0.0.1:{p}/x", reason="loopback_address"),
    Case("localhost", "http://localhost:{p}/", reason="local_host_name"),
    Case("zero", "http://0:{p}/"),
    Case("metadata", "http://169.254.169.254/latest/meta-data/", reason="metadata_address",
         reaches=False),
]
SCHEME_TARGETS = [
    Case("file", "file:///etc/passwd", reason="scheme", reaches=False),
    Case("gopher", "gopher://127.0.0.1:{p}/_GET%20/", reason="scheme", reaches=False),
    Case("data", "data:text/html,<p>hi</p>", reason="scheme", reaches=False),
    Case("ftp", "ftp://127.0.0.1:{p}/", reason="scheme", reaches=False),
]
CODES = [301, 302, 303, 307, 308]


@dataclass(frozen=True)
class Outcome:
    refused: bool
    reason: str | None
    connections: int

    @property
    def suite_passes(self) -> bool:
        return self.refused and self.connections == 0


def _attempt(url: str, library_dir: Path, canaries: Canaries, *, resolve: tuple[str, ...] = (),
             resolver: netguard.Resolver | None = None, now: bool = True) -> Outcome:
    before = canaries.total()
    options = CaptureOptions(now=now, timeout=3, resolve=resolve, render=False)
    refused, reason = False, None
    try:
        capture(url, options, Library.open(library_dir), resolver=resolver)
    except RefusedError as exc:
        refused, reason = True, exc.reason
    except ReadReceiptError as exc:
        reason = exc.reason
    return Outcome(refused, reason, canaries.total() - before)


def _redirector(server: LocalServer, canaries: Canaries, target: Case, code: int) -> str:
    location = canaries.fill(target.url)
    return server.route(f"/to/{target.id}/{code}", status=code, headers={"Location": location})


def _direct(case: Case, canaries: Canaries) -> tuple[str, tuple[str, ...]]:
    return canaries.fill(case.url), tuple(canaries.fill(r) for r in case.resolve)


# -- the suite ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", DIRECT, ids=str)
def test_direct_bypass_is_refused(case: Case, canaries: Canaries, library_dir: Path) -> None:
    url, resolve = _direct(case, canaries)
    outcome = _attempt(url, library_dir, canaries, resolve=resolve)
    assert outcome.refused, outcome
    assert outcome.connections == 0
    if case.reason:
        assert outcome.reason == case.reason


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("target", REDIRECT_TARGETS + SCHEME_TARGETS, ids=str)
def test_redirect_to_blocked_target_is_refused(
        target: Case, code: int, canaries: Canaries, hub: LocalServer,
        library_dir: Path) -> None:
    start = _redirector(hub, canaries, target, code)
    seen = len(hub.requests)
    outcome = _attempt(start, library_dir, canaries)
    assert outcome.refused, outcome
    assert outcome.connections == 0
    if target.reason:
        assert outcome.reason == target.reason
    # The refused hop refuses the capture and the chain up to it is written down.
    line = json.loads((library_dir / "skipped.jsonl").read_text().splitlines()[-1])
    assert line["kind"] == "refused"
    assert line["redirect_chain"] == [{"url": start, "status": code}]
    assert [r["path"] for r in hub.requests[seen:]] == [f"/to/{target.id}/{code}"]


def test_redirect_chain_to_blocked_target_deep_in_the_chain(
        canaries: Canaries, hub: LocalServer, library_dir: Path) -> None:
    hub.route("/hop0", status=301, headers={"Location": "/hop1"})
    hub.route("/hop1", status=307, headers={"Location": "/hop2"})
    hub.route("/hop2", status=302,
              headers={"Location": canaries.fill("http://0x7f.1:{p}/deep")})
    outcome = _attempt(hub.url("/hop0"), library_dir, canaries)
    assert outcome.suite_passes, outcome
    line = json.loads((library_dir / "skipped.jsonl").read_text().splitlines()[-1])
    assert [h["status"] for h in line["redirect_chain"]] == [301, 307, 302]
    assert line["url"] == canaries.fill("http://127.0.0.1:{p}/deep")


class _Sequence:
    """A resolver answering each lookup with the next list (the last repeats)."""

    def __init__(self, *answers: list[str]) -> None:
        self.answers = list(answers)
        self.calls: list[str] = []

    def resolve(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        return self.answers[min(len(self.calls), len(self.answers)) - 1]


def test_resolver_answering_a_blocked_address_is_refused(canaries: Canaries,
                                                         library_dir: Path) -> None:
    resolver = _Sequence(["127.0.0.1"])
    outcome = _attempt(canaries.fill("http://evil.example:{p}/"), library_dir, canaries,
                       resolver=resolver)
    assert outcome.suite_passes, outcome
    assert outcome.reason == "loopback_address"


class _StandIn(httpcore.NetworkBackend):
    """Plays the public Internet: a connection to PUBLIC reaches ``standin`` (a local
    server on another loopback address, same port) and reports PUBLIC as its peer."""

    def __init__(self, standin_host: str) -> None:
        self.real = httpcore.SyncBackend()
        self.standin_host = standin_host
        self.connected: list[str] = []

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Any = None) -> httpcore.NetworkStream:
        self.connected.append(host)
        if host != PUBLIC:
            return self.real.connect_tcp(host, port, timeout=timeout)
        stream = self.real.connect_tcp(self.standin_host, port, timeout=timeout)
        return _PeerAs(stream, PUBLIC)


class _PeerAs(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, peer: str) -> None:
        self.inner, self.peer = inner, peer

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, timeout)

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return self.inner.start_tls(ssl_context, server_hostname, timeout)

    def get_extra_info(self, info: str) -> Any:
        if info == "server_addr":
            return (self.peer, 0)
        return self.inner.get_extra_info(info)


@pytest.fixture
def stand_in(canaries: Canaries, monkeypatch: pytest.MonkeyPatch) -> Iterator[_StandIn]:
    backend = _StandIn("127.0.0.3")
    monkeypatch.setattr(httpcore, "SyncBackend", lambda: backend)
    yield backend


def test_rebinding_resolver_never_reaches_the_canary(
        canaries: Canaries, library_dir: Path, stand_in: _StandIn) -> None:
    # The "public" server shares the canary's port on another address, as a rebinding
    # attacker's would: only the address decides which one a connection reaches.
    httpd = ThreadingHTTPServer(("127.0.0.3", canaries.v4.port), _article_handler())
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        resolver = _Sequence([PUBLIC], ["127.0.0.1"])
        url = canaries.fill("http://rebind.example:{p}/page")
        before = canaries.total()
        # Without --now: robots.txt, then the page, both to the name; one resolution.
        result = capture(url, CaptureOptions(timeout=5, render=False),
                         Library.open(library_dir), resolver=resolver)
        assert canaries.total() - before == 0
        assert resolver.calls == ["rebind.example"]
        assert set(stand_in.connected) == {PUBLIC}
        assert result.record.verdict == "RETRIEVED"
        assert result.record.peer_address == PUBLIC
    finally:
        httpd.shutdown()
        httpd.server_close()


def _article_handler() -> type[BaseHTTPRequestHandler]:
    body = article_html().encode()

    class _H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            status, data = (404, b"") if self.path == "/robots.txt" else (200, body)
            reply(self, data, status=status)

        def log_message(self, format: str, *args: object) -> None:
            return

    return _H


def test_connected_peer_is_checked(canaries: Canaries, library_dir: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A socket to a checked public address that lands on loopback (a NAT rule, a
    # transparent proxy) is caught by the peer check before a byte of request is sent.
    real = httpcore.SyncBackend()

    class Misrouted(httpcore.NetworkBackend):
        def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                        local_address: str | None = None,
                        socket_options: Any = None) -> httpcore.NetworkStream:
            return real.connect_tcp("127.0.0.1", port, timeout=timeout)

    monkeypatch.setattr(httpcore, "SyncBackend", Misrouted)
    requests_before = len(canaries.v4.requests)
    with pytest.raises(RefusedError) as info:
        capture(canaries.fill("http://public.example:{p}/"),
                CaptureOptions(now=True, timeout=3, resolve=(canaries.fill(
                    "public.example:{p}:" + PUBLIC),), render=False),
                Library.open(library_dir))
    assert info.value.reason == "loopback_address"
    time.sleep(0.05)
    assert len(canaries.v4.requests) == requests_before


def test_environment_proxies_are_not_used(canaries: Canaries, server: LocalServer,
                                          library_dir: Path) -> None:
    url = server.route("/page", article_html())
    proxy = canaries.fill("http://127.0.0.1:{p}/")
    env = {name: proxy for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy",
                                    "https_proxy", "all_proxy")}
    before = canaries.total()
    result = run_cli("capture", url, "--now", "--json", library=library_dir,
                     allow=server.pair, env=env)
    assert result.code == 0, result.stderr
    assert canaries.total() - before == 0
    assert [r["path"] for r in server.requests] == ["/page"]


def test_at_most_ten_hops(hub: LocalServer, library_dir: Path) -> None:
    for i in range(10):
        hub.route(f"/ten{i}", status=302, headers={"Location": f"/ten{i + 1}"})
    hub.route("/ten10", article_html())
    result = capture(hub.url("/ten0"), CaptureOptions(now=True, render=False),
                     Library.open(library_dir))
    assert result.record.verdict == "RETRIEVED"
    assert len(result.record.redirect_chain) == 10


def _self_signed(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl for a test cert")
def test_https_to_http_downgrade_is_failed_and_not_followed(
        tmp_path: Path, canaries: Canaries, library_dir: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cert, key = _self_signed(tmp_path)
    target = canaries.fill("http://127.0.0.2:{p2}/plain")
    handler = _redirect_handler(target)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    httpd.socket = server_ctx.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    client_ctx = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(netguard, "_default_ssl_context", lambda: client_ctx)
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", f"127.0.0.1:{port},127.0.0.2:{canaries.v4b.port}")
    try:
        before = canaries.total()
        result = capture(f"https://127.0.0.1:{port}/start",
                         CaptureOptions(now=True, timeout=5, render=False),
                         Library.open(library_dir))
        assert result.record.verdict == "FAILED"
        assert result.record.reason == "https_downgrade"
        assert canaries.total() - before == 0
    finally:
        httpd.shutdown()
        httpd.server_close()


def _redirect_handler(location: str) -> type[BaseHTTPRequestHandler]:
    class _H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return

    return _H


# -- through the real CLI -------------------------------------------------------------------

CLI_CASES = ["decimal", "hex-whole", "octal", "v4-mapped", "fullwidth-dots", "localhost-dot",
             "pinned", "pinned-any-answer", "pinned-metadata", "backslash-at", "zeros"]


@pytest.mark.parametrize("case", [c for c in DIRECT if c.id in CLI_CASES], ids=str)
def test_cli_refuses_with_exit_2(case: Case, canaries: Canaries, library_dir: Path) -> None:
    url, resolve = _direct(case, canaries)
    args = ["capture", url, "--json"] + [a for r in resolve for a in ("--resolve", r)]
    before = canaries.total()
    result = run_cli(*args, library=library_dir)  # no exemption at all
    assert result.code == 2, (result.stdout, result.stderr)
    assert result.json()["error"]["kind"] == "RefusedError"
    assert canaries.total() - before == 0
    line = json.loads((library_dir / "skipped.jsonl").read_text().splitlines()[-1])
    assert line["kind"] == "refused"


@pytest.mark.parametrize("target", ["canary", "scheme-relative", "file", "gopher", "data"])
def test_cli_refuses_redirects_with_exit_2(target: str, canaries: Canaries, server: LocalServer,
                                           library_dir: Path) -> None:
    case = next(c for c in REDIRECT_TARGETS + SCHEME_TARGETS if c.id == target)
    start = _redirector(server, canaries, case, 302)
    before = canaries.total()
    # Without --now: robots.txt is asked first, through the same guard.
    result = run_cli("capture", start, "--json", library=library_dir, allow=server.pair)
    assert result.code == 2, (result.stdout, result.stderr)
    assert canaries.total() - before == 0


# -- the proof that the suite can fail ------------------------------------------------------


@pytest.fixture
def guard_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The address guard and the URL host rules patched out, in this process only."""
    monkeypatch.setattr(netguard, "blocked_reason", lambda address: None)
    monkeypatch.setattr(netguard, "blocked_host_name", lambda host: None)
    monkeypatch.setattr(urlpolicy, "blocked_host_name", lambda host: None)
    monkeypatch.setattr(urlpolicy, "_refuse_parser_disagreement", lambda raw, host: None)


@pytest.mark.parametrize("case", [c for c in DIRECT if c.reaches], ids=str)
def test_the_suite_fails_without_the_guard(case: Case, canaries: Canaries, library_dir: Path,
                                           guard_removed: None) -> None:
    url, resolve = _direct(case, canaries)
    outcome = _attempt(url, library_dir, canaries, resolve=resolve)
    assert not outcome.suite_passes, outcome
    assert outcome.connections > 0, outcome


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("target", [c for c in REDIRECT_TARGETS if c.reaches], ids=str)
def test_the_redirect_suite_fails_without_the_guard(
        target: Case, code: int, canaries: Canaries, hub: LocalServer,
        library_dir: Path, guard_removed: None) -> None:
    start = _redirector(hub, canaries, target, code)
    outcome = _attempt(start, library_dir, canaries)
    assert outcome.connections > 0, outcome


def test_the_rebinding_test_fails_when_every_connection_resolves_again(
        canaries: Canaries, library_dir: Path, stand_in: _StandIn,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netguard, "blocked_reason", lambda address: None)
    original = netguard.AddressGuard.addresses_for

    def forgetful(self: netguard.AddressGuard, host: str, port: int,
                  deadline: Deadline | None = None) -> list[str]:
        self._answers.clear()
        return original(self, host, port, deadline)

    monkeypatch.setattr(netguard.AddressGuard, "addresses_for", forgetful)
    httpd = ThreadingHTTPServer(("127.0.0.3", canaries.v4.port), _article_handler())
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        before = canaries.total()
        capture(canaries.fill("http://rebind.example:{p}/page"),
                CaptureOptions(timeout=5, render=False), Library.open(library_dir),
                resolver=_Sequence([PUBLIC], ["127.0.0.1"]))
        assert canaries.total() - before > 0
    finally:
        httpd.shutdown()
        httpd.server_close()
