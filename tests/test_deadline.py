"""The capture's deadline is total: no server, resolver or relay can hold a fetch past it.

Every hostile server here would hold a fetch for a minute (``hostile.HOLD_SECONDS``) under
per-operation timeouts, each byte arriving well inside the read timeout. The tests give a
2 s deadline and assert the work ended, FAILED ``timeout``, in under 10 s: a bound the
unfixed code misses by fifty seconds, not a measurement of speed.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from conftest import BIN, article_html, run_cli
from hostile import (
    BOUND,
    DEADLINE,
    HangingResolver,
    SlowServer,
    body_trickle,
    header_trickle,
    silent_tls,
    slow_redirects,
    trickling_robots,
)
from readreceipt.browser.proxy import BrowserProxy
from readreceipt.errors import FetchTimeout
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
from readreceipt.store.library import Library


@pytest.fixture
def slow_servers() -> Iterator[list[SlowServer]]:
    made: list[SlowServer] = []
    yield made
    for server in made:
        server.close()


def _server(made: list[SlowServer], behaviour: Any) -> SlowServer:
    server = SlowServer(behaviour)
    made.append(server)
    return server


def _timed_capture(url: str, library_dir: Path, pair: str, **kw: Any) -> tuple[CaptureResult,
                                                                             float]:
    kw.setdefault("now", True)
    options = CaptureOptions(timeout=DEADLINE, allow_hosts=(pair,), render=False, **kw)
    started = time.monotonic()
    result = capture(url, options, Library.open(library_dir))
    return result, time.monotonic() - started


def _assert_timed_out(result: CaptureResult, seconds: float) -> None:
    assert result.record.verdict == "FAILED"
    assert result.record.reason == "timeout"
    assert result.exit_code == 6
    assert seconds < BOUND, f"the fetch was held {seconds:.1f} s past a {DEADLINE:g} s deadline"


# -- the transport -------------------------------------------------------------------------


def test_a_status_line_then_one_header_byte_at_a_time(slow_servers: list[SlowServer],
                                                      library_dir: Path) -> None:
    server = _server(slow_servers, header_trickle)
    result, seconds = _timed_capture(server.url("/page"), library_dir, server.pair)
    _assert_timed_out(result, seconds)
    assert result.record.http_status is None  # no head ever completed


def test_a_head_then_one_body_byte_at_a_time(slow_servers: list[SlowServer],
                                             library_dir: Path) -> None:
    server = _server(slow_servers, body_trickle)
    result, seconds = _timed_capture(server.url("/page"), library_dir, server.pair)
    _assert_timed_out(result, seconds)


def test_a_tls_handshake_never_answered(slow_servers: list[SlowServer],
                                        library_dir: Path) -> None:
    server = _server(slow_servers, silent_tls)
    result, seconds = _timed_capture(server.url("/page", scheme="https"), library_dir,
                                     server.pair)
    _assert_timed_out(result, seconds)


def test_a_redirect_chain_of_slow_hops_shares_one_deadline(slow_servers: list[SlowServer],
                                                           library_dir: Path) -> None:
    server = _server(slow_servers, slow_redirects(hops=4))
    result, seconds = _timed_capture(server.url("/hop/0"), library_dir, server.pair)
    _assert_timed_out(result, seconds)
    # The hops before the trickling one were followed (and are the failure's chain's context).
    assert server.paths[:2] == ["/hop/0", "/hop/1"]


def test_a_trickling_robots_txt_spends_the_captures_deadline(slow_servers: list[SlowServer],
                                                             library_dir: Path) -> None:
    server = _server(slow_servers, trickling_robots(article_html().encode()))
    result, seconds = _timed_capture(server.url("/page"), library_dir, server.pair, now=False)
    _assert_timed_out(result, seconds)
    assert "robots.txt" in (result.record.detail or "")
    assert "/page" not in server.paths  # the page was never asked for
    # Nothing was learnt about the server, so nothing is cached: the next capture asks again.
    conn = sqlite3.connect(library_dir / "index.db")  # the embedded index, by hand
    try:
        rows = conn.execute("SELECT outcome FROM robots").fetchall()
    finally:
        conn.close()
    assert rows == []


def test_a_resolver_that_hangs(library_dir: Path, slow_servers: list[SlowServer]) -> None:
    server = _server(slow_servers, body_trickle)
    resolver = HangingResolver()
    try:
        options = CaptureOptions(now=True, timeout=DEADLINE, render=False,
                                 allow_hosts=(f"hang.test:{server.port}",))
        started = time.monotonic()
        result = capture(f"http://hang.test:{server.port}/", options,
                         Library.open(library_dir), resolver=resolver)
        seconds = time.monotonic() - started
    finally:
        resolver.release.set()
    _assert_timed_out(result, seconds)
    assert server.paths == []  # never connected anywhere


def test_a_deadline_passes_while_the_resolver_hangs() -> None:
    resolver = HangingResolver()
    guard = AddressGuard(allow=AllowHosts(frozenset()), resolver=resolver)
    started = time.monotonic()
    try:
        with pytest.raises(FetchTimeout) as caught:
            guard.addresses_for("hang.test", 80, Deadline.after(0.5))
        # A spent deadline does not even start another lookup.
        with pytest.raises(FetchTimeout):
            guard.addresses_for("hang.test", 80, Deadline.after(0.0))
    finally:
        resolver.release.set()
    assert time.monotonic() - started < BOUND
    assert caught.value.reason == "timeout"
    assert resolver.calls == 1


# -- the adapters ---------------------------------------------------------------------------


def test_capture_timeout_through_the_cli(slow_servers: list[SlowServer],
                                         library_dir: Path) -> None:
    server = _server(slow_servers, header_trickle)
    started = time.monotonic()
    out = run_cli("capture", server.url("/page"), "--now", "--timeout", str(DEADLINE), "--json",
                  library=library_dir, allow=server.pair, timeout=120)
    seconds = time.monotonic() - started
    assert out.code == 6, out.stderr
    data = out.json()
    assert (data["verdict"], data["reason"]) == ("FAILED", "timeout")
    assert seconds < BOUND


def test_fetch_timeout_through_the_cli_against_a_trickling_robots_txt(
        slow_servers: list[SlowServer], library_dir: Path, tmp_path: Path) -> None:
    server = _server(slow_servers, trickling_robots(article_html().encode()))
    started = time.monotonic()
    out = run_cli("fetch", server.url("/page"), "-o", str(tmp_path / "page.md"), "--timeout",
                  str(DEADLINE), library=library_dir, allow=server.pair, timeout=120)
    seconds = time.monotonic() - started
    assert out.code == 6, out.stderr
    assert seconds < BOUND
    assert "/page" not in server.paths


def test_mcp_fetch_page_ends_at_its_deadline(slow_servers: list[SlowServer],
                                             library_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = _server(slow_servers, header_trickle)
    params = StdioServerParameters(
        command=str(BIN / "readreceipt"), args=["mcp"],
        env={"READRECEIPT_LIBRARY": str(library_dir), "READRECEIPT_ALLOW_HOSTS": server.pair,
             "TMPDIR": str(tmp_path)})
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            started = time.monotonic()
            seen["result"] = await session.call_tool(
                "fetch_page", {"url": server.url("/page"), "now": True, "timeout": DEADLINE,
                               "path": "page.md"})
            seen["seconds"] = time.monotonic() - started

    anyio.run(main)
    result = seen["result"]
    assert result.is_error
    assert "fetch_page: timeout: " in result.content[0].text
    assert seen["seconds"] < BOUND


def test_the_hook_worker_ends_at_its_deadline(slow_servers: list[SlowServer],
                                              library_dir: Path) -> None:
    server = _server(slow_servers, header_trickle)
    url = server.url("/page")
    payload = {"session_id": "s-deadline", "cwd": str(library_dir.parent),
               "hook_event_name": "PostToolUse", "tool_name": "WebFetch",
               "tool_input": {"url": url, "prompt": "what does it say?"},
               "tool_response": {"code": 200, "result": "It says hello."}}
    started = time.monotonic()
    out = run_cli("capture", script="readreceipt-hook", input=json.dumps(payload),
                  library=library_dir, allow=server.pair, timeout=120,
                  env={"READRECEIPT_HOOK_FOREGROUND": "1",
                       "READRECEIPT_HOOK_TIMEOUT": str(DEADLINE)})
    seconds = time.monotonic() - started
    assert out.code == 0 and out.stdout == ""
    [record_file] = (library_dir / "records").glob("*.yaml")
    text = record_file.read_text("utf-8")
    assert "verdict: FAILED" in text and "reason: timeout" in text
    assert seconds < BOUND


# -- the browser's proxy --------------------------------------------------------------------


def test_the_browser_proxy_cuts_a_trickling_upstream_at_the_deadline(
        slow_servers: list[SlowServer]) -> None:
    server = _server(slow_servers, body_trickle)
    guard = AddressGuard(allow=AllowHosts(frozenset({server.pair})))
    started = time.monotonic()
    with BrowserProxy(guard, deadline=Deadline.after(DEADLINE)) as proxy, \
            socket.create_connection(("127.0.0.1", proxy.port), timeout=120) as client:
        client.sendall(f"GET {server.url('/page')} HTTP/1.1\r\nHost: {server.pair}\r\n\r\n"
                       .encode())
        received = b""
        while chunk := client.recv(65536):
            received += chunk
        seconds = time.monotonic() - started
    assert received.startswith(b"HTTP/1.1 200 OK")  # relayed as it came, then cut
    assert seconds < BOUND


def test_the_browser_proxy_answers_504_once_the_deadline_passed(
        slow_servers: list[SlowServer]) -> None:
    server = _server(slow_servers, body_trickle)
    guard = AddressGuard(allow=AllowHosts(frozenset({server.pair})))
    with BrowserProxy(guard, deadline=Deadline.after(0.0)) as proxy, \
            socket.create_connection(("127.0.0.1", proxy.port), timeout=30) as client:
        client.sendall(f"GET {server.url('/page')} HTTP/1.1\r\nHost: {server.pair}\r\n\r\n"
                       .encode())
        reply = client.recv(65536)
    assert reply.startswith(b"HTTP/1.1 504 ")
    assert server.paths == []  # nothing was sent upstream


# -- the type itself ------------------------------------------------------------------------


def test_a_deadline_is_fixed_and_derived_deadlines_never_run_past_it() -> None:
    deadline = Deadline.after(5.0)
    assert 4.0 < deadline.remaining() <= 5.0
    assert deadline.within(60.0).ends_at == deadline.ends_at
    assert deadline.within(1.0).ends_at < deadline.ends_at
    assert deadline.later_by(3.0).ends_at == deadline.ends_at + 3.0
    spent = Deadline.after(0.0)
    assert spent.expired and spent.remaining() == 0.0
    with pytest.raises(FetchTimeout):
        spent.check()
    with pytest.raises(FetchTimeout):
        spent.timeout(cap=1.0)
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError):
            Deadline.after(bad)


def test_a_call_under_a_deadline_returns_or_raises_what_the_call_did() -> None:
    deadline = Deadline.after(5.0)
    assert deadline.call(lambda a, b: a + b, 2, 3) == 5

    def fails() -> None:
        raise LookupError("nope")

    with pytest.raises(LookupError):
        deadline.call(fails)
