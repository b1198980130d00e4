"""Rendering JavaScript shells in a real headless Chromium, behind the address guard.

Pages are served by a local server whose ``host:port`` is exempted; the blocked target is a
canary at another loopback address that is not. Each refusal test has a control in which
the canary is exempted and is reached, so the refusal tests can fail.
"""

from __future__ import annotations

import asyncio
import base64
import sys
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import TypeVar

import pytest
import yaml

from canary import Canary, MapResolver, guard_for
from conftest import LocalServer, run_cli
from readreceipt.browser import render
from readreceipt.errors import FetchTimeout, RefusedError
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.transport import USER_AGENT
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

F = TypeVar("F", bound=Callable[..., object])
_NO_CHROMIUM = pytest.mark.skipif(
    render.system_browser() is None,
    reason="no Chromium executable here (.ci/run installs Debian's chromium)")


def needs_browser(test: F) -> F:
    return pytest.mark.browser(_NO_CHROMIUM(test))  # type: ignore[no-any-return]


PROSE = [
    "The ferry timetable changes twice a year, and the spring change moves the first "
    "crossing forty minutes earlier so that market traders reach the island before dawn.",
    "Tickets bought on board cost a little more than those bought at the kiosk, but the "
    "kiosk closes at six in the evening, which catches out visitors on the last sailing.",
    "In rough weather the smaller boat is withdrawn and the larger one runs a reduced "
    "service; notices go up at both piers an hour before the first affected departure.",
]


def shell(script: str = "", body_extra: str = "") -> str:
    """A page with nothing to read until its script builds the article."""
    paragraphs = "".join(f"<p>{p}</p>" for p in PROSE)
    return (
        "<!doctype html><html><head><title>Ferry notes</title></head><body>"
        f'<div id="root"></div>{body_extra}<script>'
        "document.getElementById('root').innerHTML = "
        f"'<article><h1>Ferry timetable notes</h1>{paragraphs}</article>';"
        f"{script}</script></body></html>"
    )




def blocked_urls(rendering: render.Rendering) -> set[str]:
    return {b.url for b in rendering.blocked_requests}


# -- the capture path ---------------------------------------------------------------------


@needs_browser
def test_shell_rendered_and_judged_again(allow_server: LocalServer, library_dir: Path) -> None:
    url = allow_server.route("/app", shell())
    lib = Library.open(library_dir)
    result = capture(url, CaptureOptions(now=True, timeout=30), lib)
    record = result.record
    assert (record.verdict, record.reason) == ("RETRIEVED", "ok")
    assert record.javascript_executed is True
    assert record.rendering_method == "chromium-headless"
    assert record.browser is not None and record.browser.startswith("Chromium ")
    assert record.final_url == url
    assert record.http_status == 200
    assert record.content_type == "text/html"
    main_text = lib.text(record.text_sha256) or ""
    assert "market traders reach the island" in main_text
    body = lib.body(record) or b""
    assert b"<article>" in body  # the rendered DOM is what was kept
    # ... and the bytes the server sent are kept beside it, and forgotten with it.
    static = record.static_bytes_sha256
    assert static is not None and lib.blobs.get(static) == shell().encode()
    lib.forget(record.record_id)
    assert not lib.blobs.has(static)
    # The static fetch and the browser both asked, both under readreceipt's own name.
    agents = [r["headers"].get("user-agent") for r in allow_server.requests
              if r["path"] == "/app"]
    assert len(agents) == 2
    assert set(agents) == {USER_AGENT}
    assert result.to_json()["javascript_executed"] is True


@needs_browser
def test_requests_the_browser_was_refused_are_in_the_record(
        allow_server: LocalServer, canary: Canary, library_dir: Path) -> None:
    url = allow_server.route("/app", shell(body_extra=f'<img src="{canary.url("/pixel.png")}">'))
    with Library.open(library_dir) as lib:
        result = capture(url, CaptureOptions(now=True, timeout=30), lib)
    record = result.record
    assert record.javascript_executed is True
    assert canary.connections == 0
    assert canary.url("/pixel.png") in {b["url"] for b in record.blocked_requests}
    assert all(set(b) == {"url", "reason", "layer"} for b in record.blocked_requests)
    on_disk = yaml.safe_load(result.record_path.read_text())
    assert canary.url("/pixel.png") in {b["url"] for b in on_disk["blocked_requests"]}


@needs_browser
def test_navigation_to_blocked_address_discards_rendering(
        allow_server: LocalServer, canary: Canary, library_dir: Path) -> None:
    url = allow_server.route("/go", shell(f"location.href = '{canary.url('/stolen')}';"))
    result = capture(url, CaptureOptions(now=True, timeout=30), Library.open(library_dir))
    record = result.record
    assert canary.connections == 0
    assert (record.verdict, record.reason) == ("UNKNOWN", "js_shell")  # the static capture
    assert record.javascript_executed is False
    assert record.rendering_method == "none"
    assert "rendering was discarded" in (record.detail or "")
    assert canary.url("/stolen") in (record.detail or "")
    # What the discarded rendering was refused stays evidence (it was lost with it before).
    assert canary.url("/stolen") in [b["url"] for b in record.blocked_requests]


def test_without_a_browser_nothing_changes(allow_server: LocalServer, library_dir: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "find_browser", lambda own: None)
    url = allow_server.route("/app", shell())
    record = capture(url, CaptureOptions(now=True, timeout=30), Library.open(library_dir)).record
    assert (record.verdict, record.reason) == ("UNKNOWN", "js_shell")
    assert record.javascript_executed is False
    assert record.rendering_method == "none"
    assert record.browser is None
    assert [r["path"] for r in allow_server.requests] == ["/app"]  # only the static fetch


def test_without_playwright_render_page_returns_none(allow_server: LocalServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # import now fails
    url = allow_server.route("/app", shell())
    assert render.render_page(check_url(url), guard_for(allow_server.pair),
                              deadline=Deadline.after(10), max_bytes=10**6) is None
    assert allow_server.requests == []


def test_render_option_off_leaves_the_shell(allow_server: LocalServer, library_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(render, "render_page", lambda *a, **k: called.append("x"))
    url = allow_server.route("/app", shell())
    record = capture(url, CaptureOptions(now=True, render=False),
                     Library.open(library_dir)).record
    assert record.reason == "js_shell" and called == []


# -- render_page directly -----------------------------------------------------------------


@needs_browser
def test_blocked_subrequests_never_reach_the_canary(server: LocalServer,
                                                    canary: Canary) -> None:
    script = f"fetch('{canary.url('/fetched')}').catch(() => null);"
    extra = (f'<img src="{canary.url("/pixel.png")}">'
             f'<iframe src="{canary.url("/framed")}"></iframe>')
    url = server.route("/", shell(script, extra))
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    fetched, extraction = rendered.fetched, rendered.extraction
    assert canary.connections == 0
    assert {canary.url("/fetched"), canary.url("/pixel.png"),
            canary.url("/framed")} <= blocked_urls(rendered)
    proxy_reasons = {b.reason for b in rendered.blocked_requests if b.layer == "proxy"}
    assert proxy_reasons == {"loopback_address"}
    # A refused frame shows only the refusal: the rendering itself stands.
    assert "market traders" in extraction.main_text
    assert fetched.final_url == url and fetched.peer_address == "127.0.0.1"


@needs_browser
def test_control_exempted_canary_is_reached(server: LocalServer, canary: Canary) -> None:
    """The same page with the canary exempted: its requests arrive (the test above can fail)."""
    script = f"fetch('{canary.url('/fetched')}').catch(() => null);"
    extra = f'<img src="{canary.url("/pixel.png")}">'
    url = server.route("/", shell(script, extra))
    rendered = render.render_page(check_url(url), guard_for(server.pair, canary.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    assert canary.connections >= 2


@needs_browser
def test_redirect_hop_to_blocked_address_refused(server: LocalServer, canary: Canary) -> None:
    """Route filtering never sees redirects; the proxy checks every hop."""
    server.route("/hop", status=302, headers={"Location": canary.url("/after-hop")})
    url = server.route("/", shell("fetch('/hop').catch(() => null);"))
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    assert canary.connections == 0
    assert canary.url("/after-hop") in blocked_urls(rendered)


@needs_browser
def test_page_redirected_to_blocked_address_is_discarded(server: LocalServer,
                                                         canary: Canary) -> None:
    server.route("/start", status=302, headers={"Location": canary.url("/landing")})
    with pytest.raises(RefusedError) as caught:
        render.render_page(check_url(server.url("/start")), guard_for(server.pair),
                           deadline=Deadline.after(30), max_bytes=10**6)
    assert caught.value.reason == "loopback_address"
    assert "discarded" in str(caught.value)
    assert canary.connections == 0


@needs_browser
def test_script_navigation_to_blocked_address_raises(server: LocalServer,
                                                     canary: Canary) -> None:
    url = server.route("/", shell(f"location.href = '{canary.url('/stolen')}';"))
    with pytest.raises(RefusedError) as caught:
        render.render_page(check_url(url), guard_for(server.pair), deadline=Deadline.after(30),
                           max_bytes=10**6)
    assert canary.connections == 0
    assert caught.value.url == canary.url("/stolen")


@needs_browser
def test_allowed_navigation_gives_final_url_and_chain(server: LocalServer) -> None:
    server.route("/start", status=302, headers={"Location": "/boot"})
    server.route("/boot", "<html><body><script>location.replace('/article')</script>"
                          "</body></html>")
    server.route("/article", shell())
    rendered = render.render_page(check_url(server.url("/start")), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    fetched, extraction = rendered.fetched, rendered.extraction
    assert fetched.url == server.url("/start")
    assert fetched.final_url == server.url("/article")
    assert [(h.url, h.status) for h in fetched.redirect_chain] == [
        (server.url("/start"), 302), (server.url("/boot"), 200)]
    # The redirect the browser followed keeps its headers (an export archives it as a 302).
    hop = dict(fetched.redirect_chain[0].headers)
    assert hop["location"] == "/boot"
    assert "kiosk closes at six" in extraction.main_text


@needs_browser
def test_names_are_resolved_only_by_the_proxy(server: LocalServer, canary: Canary) -> None:
    """Chromium's own resolver answers nothing; a name works only through the guard's."""
    resolver = MapResolver({"ferry.test": ["127.0.0.1"], "canary.test": [canary.host]})
    guard = guard_for(f"ferry.test:{server.port}", resolver=resolver)
    script = f"fetch('http://canary.test:{canary.port}/named').catch(() => null);"
    server.route("/", shell(script))
    rendered = render.render_page(check_url(f"http://ferry.test:{server.port}/"), guard,
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    extraction = rendered.extraction
    assert "market traders" in extraction.main_text
    assert "ferry.test" in resolver.asked and "canary.test" in resolver.asked
    assert f"http://canary.test:{canary.port}/named" in blocked_urls(rendered)
    assert canary.connections == 0
    assert guard.exemptions_used == {f"ferry.test:{server.port}"}


@needs_browser
def test_websockets_webrtc_and_service_workers_blocked(server: LocalServer) -> None:
    script = (
        f"try {{ new WebSocket('ws://127.0.0.1:{server.port}/socket'); }} catch (e) {{}}"
        "document.getElementById('root').insertAdjacentHTML('beforeend',"
        " '<p id=rtc>peer connection: ' + typeof RTCPeerConnection + '</p>');"
        "if (navigator.serviceWorker) { navigator.serviceWorker.register('/sw.js')"
        ".catch(() => null); }"
    )
    server.route("/sw.js", "self.addEventListener('fetch', () => null);",
                 headers={"Content-Type": "text/javascript"})
    url = server.route("/", shell(script))
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    extraction = rendered.extraction
    assert "peer connection: undefined" in extraction.page_text
    assert f"ws://127.0.0.1:{server.port}/socket" in blocked_urls(rendered)
    paths = {r["path"] for r in server.requests}
    assert "/socket" not in paths and "/sw.js" not in paths


@needs_browser
def test_body_over_the_cap_is_truncated(server: LocalServer) -> None:
    url = server.route("/", shell())
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=300)
    assert rendered is not None
    fetched, extraction = rendered.fetched, rendered.extraction
    assert fetched.truncated is True and len(fetched.body) == 300
    assert extraction.charset == "utf-8"


@needs_browser
def test_truncation_never_splits_a_character(server: LocalServer) -> None:
    url = server.route("/", shell("document.title = '\u00e9\u00e9\u00e9\u00e9';"))
    whole = render.render_page(check_url(url), guard_for(server.pair), deadline=Deadline.after(30),
                               max_bytes=10**6)
    assert whole is not None
    cut_at = whole.fetched.body.index("\u00e9".encode()) + 1  # inside the first two-byte letter
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=cut_at)
    assert rendered is not None
    fetched, extraction = rendered.fetched, rendered.extraction
    assert fetched.truncated is True and len(fetched.body) == cut_at - 1
    assert fetched.body.decode("utf-8").endswith("<title>")
    assert extraction.charset == "utf-8"


@needs_browser
def test_a_page_that_never_loads_times_out(server: LocalServer) -> None:
    def stall(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(8)

    server.route("/slow.js", handler=stall)
    url = server.route("/", shell(body_extra='<script src="/slow.js"></script>'))
    with pytest.raises(FetchTimeout) as caught:
        render.render_page(check_url(url), guard_for(server.pair), deadline=Deadline.after(3),
                           max_bytes=10**6)
    assert caught.value.reason == "render_timeout"


@needs_browser
@pytest.mark.timeout(90)
def test_a_page_that_spins_after_load_is_stopped_at_the_deadline(server: LocalServer) -> None:
    # Polling keeps the network busy, then the main thread spins: reading the DOM waited
    # for it forever (a capture with --timeout 15 still ran at 600 s).
    import os

    from readreceipt.browser.watchdog import _descendants

    server.route("/poll", "x", headers={"Content-Type": "text/plain"})
    url = server.route("/", shell("setInterval(function(){fetch('/poll?'+Math.random())},200);"
                                  "setTimeout(function(){while(true){}}, 1500);"))
    with pytest.raises(FetchTimeout) as caught:
        render.render_page(check_url(url), guard_for(server.pair), deadline=Deadline.after(4),
                           max_bytes=10**6)
    assert caught.value.reason == "render_timeout"
    assert "kept the browser busy" in str(caught.value)
    time.sleep(1)  # the browser's own processes end once their driver is gone
    left = []
    for pid in _descendants(os.getpid()):
        try:
            left.append(Path(f"/proc/{pid}/cmdline").read_bytes())
        except OSError:
            continue
    assert not [cmd for cmd in left if b"chrom" in cmd.lower()], left


@needs_browser
def test_works_from_inside_an_event_loop(server: LocalServer) -> None:
    url = server.route("/", shell())

    async def inside() -> object:
        return render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)

    rendered = asyncio.run(inside())
    assert isinstance(rendered, render.Rendering)
    assert "market traders" in rendered.extraction.main_text


@needs_browser
def test_route_layer_refuses_what_the_url_policy_refuses(server: LocalServer) -> None:
    long_path = "/long?" + "a" * 2100  # over the URL policy's length limit
    url = server.route("/", shell(body_extra=f'<img src="{long_path}">'))
    rendered = render.render_page(check_url(url), guard_for(server.pair),
                                  deadline=Deadline.after(30), max_bytes=10**6)
    assert rendered is not None
    assert [(b.layer, b.reason) for b in rendered.blocked_requests] == [
        ("route", "url_too_long")]
    assert all(not r["path"].startswith("/long") for r in server.requests)


@needs_browser
def test_cli_capture_reports_the_rendering(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/app", shell())
    out = run_cli("capture", url, "--now", "--json", library=library_dir, allow=server.pair)
    assert out.code == 0, out.stderr
    data = out.json()
    assert (data["verdict"], data["reason"]) == ("RETRIEVED", "ok")
    assert data["javascript_executed"] is True
    assert data["final_url"] == url


# -- a rendered shell is judged on what it rendered -----------------------------------------
# Still empty, or a wall once its scripts ran, it stays UNKNOWN; only a shell whose scripts
# build the page becomes RETRIEVED (the control).

RENDERED_ARTICLE = ("<article><h1>Harbour notes</h1>" + "".join(
    f"<p>Paragraph {i} of the harbour notes: the cranes on the north quay were moved in "
    "spring, and the berths they left are now used by the ferries in the summer season.</p>"
    for i in range(4)) + "</article>")
CHALLENGE = ("<div class='box'><h1>Just a moment...</h1><p>Checking your browser before "
             "accessing the site. This process is automatic.</p></div>")
LOGIN = ("<div class='box'><h2>Sign in to continue reading</h2><form action='/login'>"
         "<input name='email'><input type='password' name='password'><button>Sign in</button>"
         "</form></div>")


def filled_shell(fills_with: str | None) -> str:
    """An empty mount point and a script that fills it with ``fills_with`` (or nothing).

    The markup is encoded in the script (as a bundle's would be), so the words of a wall are
    not in the HTML the server sends: the static page is a shell, and only rendering shows
    what it is."""
    encoded = base64.b64encode((fills_with or "").encode()).decode()
    script = "" if fills_with is None else (
        f"document.getElementById('root').innerHTML = atob('{encoded}');")
    return ("<!doctype html><html><head><title>Harbour</title></head><body>"
            f'<div id="root"></div><script>{script}</script></body></html>')


@needs_browser
@pytest.mark.parametrize(("fills_with", "reason"), [
    (None, "js_shell"),
    (CHALLENGE, "wall:challenge"),
    (LOGIN, "wall:login"),
    (RENDERED_ARTICLE, "ok"),  # the control: the same shell, filled with the page, is read
], ids=["still-empty", "renders-a-bot-check", "renders-a-sign-in-wall", "control-article"])
def test_a_rendered_shell_is_judged_on_what_it_rendered(
        fills_with: str | None, reason: str, allow_server: LocalServer,
        library_dir: Path) -> None:
    url = allow_server.route("/app", filled_shell(fills_with))
    record = capture(url, CaptureOptions(now=True, timeout=30), Library.open(library_dir)).record
    assert record.javascript_executed is True
    assert record.rendering_method == "chromium-headless"
    assert record.reason == reason, record.detail
    assert record.verdict == ("RETRIEVED" if reason == "ok" else "UNKNOWN")
