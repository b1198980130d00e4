"""Render a JavaScript shell in headless Chromium, behind the same address guard.

Only :mod:`readreceipt.capture` calls this, and only for a page judged ``js_shell``. The
rendered DOM is then judged again like any fetched page.

Layers, each of which alone keeps the browser from reaching a blocked address:

1. every connection the page makes leaves through a
   :class:`~readreceipt.browserproxy.BrowserProxy`, which resolves names itself and applies
   the URL policy and the address guard (the browser context's proxy); the browser's own
   traffic (component updates, sign-in checks) goes to a second proxy that refuses
   everything (the browser's proxy). Both are given with ``<-loopback>``, so loopback and
   link-local targets get no implicit bypass, and a host-resolver rule makes Chromium's own
   name resolution fail, so nothing is looked up outside the proxy;
2. ``context.route`` aborts every request whose URL fails :func:`check_url` or whose scheme
   is not http, https, data, blob or about (route sees no redirects; the proxy does);
3. service workers, WebSockets and WebRTC are blocked; downloads are refused;
4. afterwards the page's URL and every frame's URL are checked again (URL policy, then the
   address the proxy used or, failing that, the guard's resolution).

Outcomes (the contract with capture):

- ``None``: no browser here (playwright not importable, its driver will not start, or no
  Chromium executable). Nothing changes; the record says ``javascript_executed: false``.
- ``(FetchResult, Extraction, info)``: the rendered DOM serialized as UTF-8 HTML, with the
  main response's status and headers (minus the framing headers that described the original
  body), the final URL, the redirects seen and the address the proxy connected to.
- :class:`RefusedError` (rendering discarded): the main frame moved to a blocked URL or
  address, or a frame holds content from one. :class:`FetchError` / :class:`FetchTimeout`:
  the browser failed or ran out of time. The static capture stands in both cases; capture
  adds the message to the record's detail.

Nothing is retried, and the browser carries readreceipt's own user agent.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from readreceipt.browserproxy import REFUSED_HEADER, BrowserProxy, loggable_url
from readreceipt.errors import FetchError, FetchTimeout, ReadReceiptError, RefusedError
from readreceipt.extract import Extraction, extract
from readreceipt.netguard import AddressGuard
from readreceipt.transport import USER_AGENT, FetchResult, Hop
from readreceipt.urlpolicy import PolicyURL, check_url

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, Response, Route, WebSocketRoute

log = logging.getLogger(__name__)

RENDERING_METHOD = "chromium-headless"
#: Where a system Chromium lives (Debian's package is /usr/bin/chromium).
#: Debian's binary itself comes first: its /usr/bin wrapper adds Google API keys and
#: extension flags a reader has no use for.
SYSTEM_BROWSERS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium",
                   "chromium-browser")
#: After ``load``, wait this long at most for the network to go quiet (scripts fetching the
#: content). SPAs in the shell corpus finish their data calls well within 3 s locally.
SETTLE_SECONDS = 3.0
#: Everything the browser may pull through the proxy, as a multiple of the body cap: a
#: heavy app's scripts, styles and data are a few MB; 10x the default 10 MB cap is ample.
BUDGET_FACTOR = 10
PROXY_REFUSED = "proxy_refused"
PAGE_SCHEMES = frozenset({"http", "https"})
INERT_SCHEMES = frozenset({"data", "blob", "about"})
#: Resource types that carry no text and can be large.
SKIPPED_TYPES = frozenset({"media"})
#: Headers that described the transfer of the original body, not the DOM serialized here.
_FRAMING_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding",
                              "content-type", "content-md5", "digest", "etag"})

CHROMIUM_ARGS = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-first-run",
    "--no-pings",
    "--mute-audio",
    "--disable-quic",
    "--proxy-bypass-list=<-loopback>",
    # Chromium's own resolver answers "not found" for every name but the proxy's address,
    # so a name can only be resolved by the proxy (through the guard).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    # No --disable-features here: Chromium keeps only the last one given, and playwright's
    # own list (media router, optimization hints, network time...) must stay in force.
)

#: Runs before any page script: no peer connections (they can carry UDP past a proxy).
_NO_WEBRTC = """(() => {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel",
                      "RTCSessionDescription", "RTCIceCandidate"]) {
    try { Object.defineProperty(window, name, {value: undefined, writable: false,
                                               configurable: false}); } catch (e) {}
  }
})();"""


@dataclass(frozen=True)
class Blocked:
    """A request the browser made and readreceipt did not let through."""

    url: str
    reason: str
    layer: str  # "proxy" | "route" | "websocket"

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "reason": self.reason, "layer": self.layer}


@dataclass
class _Session:
    """What the event handlers saw during one rendering (touched only on the driver thread)."""

    target: PolicyURL
    blocked: list[Blocked] = field(default_factory=list)
    blocked_navigations: set[str] = field(default_factory=set)
    main_blocked: list[Blocked] = field(default_factory=list)
    main_responses: list[Response] = field(default_factory=list)


def system_browser() -> str | None:
    """The system's Chromium executable, if there is one (no playwright needed)."""
    for name in SYSTEM_BROWSERS:
        path = name if os.path.isabs(name) else shutil.which(name)
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def find_browser(playwright_own: str | None) -> str | None:
    """Playwright's own Chromium when it is installed, else the system's."""
    if playwright_own and os.path.isfile(playwright_own) and os.access(playwright_own, os.X_OK):
        return playwright_own
    return system_browser()


def render_page(target: PolicyURL, guard: AddressGuard, *, timeout: float,
                max_bytes: int) -> tuple[FetchResult, Extraction, dict[str, Any]] | None:
    """Render ``target`` in headless Chromium behind the guard; see the module docstring."""
    try:
        import playwright.sync_api  # noqa: F401  (only probing that the extra is installed)
    except ImportError:
        log.info("playwright is not installed; the JavaScript shell is not rendered")
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _render(target, guard, timeout, max_bytes)
    # Playwright's sync API refuses to run inside an event loop (the MCP server has one):
    # give it a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="readreceipt-render") as ex:
        return ex.submit(_render, target, guard, timeout, max_bytes).result()


def _render(target: PolicyURL, guard: AddressGuard, timeout: float,
            max_bytes: int) -> tuple[FetchResult, Extraction, dict[str, Any]] | None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    session = _Session(target)
    with BrowserProxy(guard, refuse_all="browser_internal", budget=0) as sink, \
            BrowserProxy(guard, budget=BUDGET_FACTOR * max_bytes) as proxy:
        try:
            manager = sync_playwright().start()
        except PlaywrightError as exc:  # the extra is installed but its driver cannot start
            log.warning("playwright could not start (%s); not rendering", exc)
            return None
        try:
            browser = _launch(manager, sink, timeout)
            if browser is None:
                return None
            try:
                return _run(browser, target, guard, proxy, session, start, timeout, max_bytes)
            except ReadReceiptError as exc:
                exc.url = exc.url or target.url
                exc.blocked = _all_blocked(session, proxy)  # type: ignore[attr-defined]
                raise
            finally:
                browser.close()
        finally:
            manager.stop()


def _launch(manager: Playwright, sink: BrowserProxy, timeout: float) -> Browser | None:
    """Chromium with the sink as its proxy: the browser's own requests go nowhere."""
    from playwright.sync_api import Error as PlaywrightError

    executable = find_browser(_playwright_own(manager))
    if executable is None:
        log.info("no Chromium found; the JavaScript shell is not rendered")
        return None
    try:
        return manager.chromium.launch(
            executable_path=executable,
            headless=True,
            # Chromium cannot sandbox itself as root; everywhere else the sandbox stays on.
            chromium_sandbox=os.geteuid() != 0,
            proxy={"server": sink.server, "bypass": "<-loopback>"},
            args=list(CHROMIUM_ARGS),
            timeout=_ms(min(timeout, 30.0)),
        )
    except PlaywrightError as exc:
        log.warning("Chromium at %s would not start (%s); not rendering", executable, exc)
        return None


def _playwright_own(manager: Playwright) -> str | None:
    try:
        return manager.chromium.executable_path
    except Exception:  # playwright raises its own Error when its browser was never installed
        return None


def _run(browser: Browser, target: PolicyURL, guard: AddressGuard, proxy: BrowserProxy,
         session: _Session, start: float, timeout: float,
         max_bytes: int) -> tuple[FetchResult, Extraction, dict[str, Any]]:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(
        service_workers="block", user_agent=USER_AGENT, java_script_enabled=True,
        accept_downloads=False,
        # The page's own traffic: through the guarded proxy, loopback included.
        proxy={"server": proxy.server, "bypass": "<-loopback>"},
    )
    context.add_init_script(_NO_WEBRTC)
    context.route("**/*", lambda route: _filter(route, session))
    context.route_web_socket("**/*", lambda ws: _refuse_websocket(ws, session))
    page = context.new_page()
    page.on("response", lambda response: _on_response(response, page, session))

    def left() -> float:
        return timeout - (time.monotonic() - start)

    try:
        if left() <= 0:
            raise PlaywrightTimeout("the deadline passed before the page was opened")
        first = page.goto(target.url, wait_until="load", timeout=_ms(left()))
        settle = min(SETTLE_SECONDS, left())
        if settle > 0:
            # A page that keeps polling never goes quiet; it is read as it stands.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_load_state("networkidle", timeout=_ms(settle))
        _check_where_it_went(page, guard, proxy, session)
        html = page.content()
        main = session.main_responses[-1] if session.main_responses else first
        if main is None:
            raise FetchError("the browser got no response for the page", reason="render_failed")
        fetched = _fetched(target, page.url, main, session, proxy, html, max_bytes, start)
    except PlaywrightTimeout as exc:
        raise FetchTimeout(f"the browser's rendering was discarded: it did not finish within "
                           f"{timeout:g} s", reason="render_timeout") from exc
    except PlaywrightError as exc:
        if session.main_blocked:
            raise _discard(session.main_blocked[0], proxy) from exc
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FetchError(f"the browser's rendering was discarded: {message}",
                         reason="render_failed") from exc
    extraction = extract(fetched.body, "text/html", "utf-8")
    version = browser.version
    info: dict[str, Any] = {
        "rendering_method": RENDERING_METHOD,
        "javascript_executed": True,
        "browser": f"Chromium {version}",
        "elapsed": time.monotonic() - start,
        "blocked_requests": [b.to_dict() for b in _all_blocked(session, proxy)],
    }
    return fetched, extraction, info


# -- the second layer: request routing ------------------------------------------------------


def _filter(route: Route, session: _Session) -> None:
    request = route.request
    url = request.url
    scheme = url.partition(":")[0].lower()
    reason: str | None = None
    if scheme in PAGE_SCHEMES:
        try:
            check_url(url)
        except RefusedError as exc:
            reason = exc.reason
    elif scheme not in INERT_SCHEMES:
        reason = "scheme"
    if reason is None and request.resource_type in SKIPPED_TYPES:
        route.abort("blockedbyclient")
        return
    if reason is None:
        route.continue_()
        return
    blocked = Blocked(loggable_url(url, reason), reason, "route")
    session.blocked.append(blocked)
    if request.is_navigation_request():
        session.blocked_navigations.add(url)
        if request.frame.parent_frame is None:
            session.main_blocked.append(blocked)
    log.info("browser request refused (%s): %s", reason, blocked.url)
    route.abort("blockedbyclient")


def _refuse_websocket(ws: WebSocketRoute, session: _Session) -> None:
    # Not calling connect_to_server() means nothing reaches the network.
    session.blocked.append(Blocked(ws.url, "websocket", "websocket"))
    ws.close(code=1008, reason="readreceipt does not open WebSockets")


def _on_response(response: Response, page: Page, session: _Session) -> None:
    request = response.request
    if not request.is_navigation_request():
        return
    refused = response.headers.get(REFUSED_HEADER) == "refused"
    if refused:
        session.blocked_navigations.add(response.url)
    if response.frame == page.main_frame:
        session.main_responses.append(response)
        if refused:
            session.main_blocked.append(Blocked(response.url, PROXY_REFUSED, "proxy"))


# -- the last layer: where did it end up? ----------------------------------------------------


def _check_where_it_went(page: Page, guard: AddressGuard, proxy: BrowserProxy,
                         session: _Session) -> None:
    """Raise RefusedError when the page or a frame shows content from a blocked place."""
    if session.main_blocked:
        raise _discard(session.main_blocked[0], proxy)
    problem = _url_problem(page.url, guard, proxy)
    if problem is not None:
        raise _discard(Blocked(page.url, problem, "final_url"), proxy)
    for frame in page.frames:
        if frame == page.main_frame:
            continue
        url = frame.url
        if url in session.blocked_navigations or url.startswith("chrome-error:"):
            continue  # the frame shows refusal or error text, nothing from its target
        problem = _url_problem(url, guard, proxy)
        if problem is not None:
            raise _discard(Blocked(url, problem, "frame_url"), proxy)


def _url_problem(url: str, guard: AddressGuard, proxy: BrowserProxy) -> str | None:
    """The rule ``url`` breaks as a place content came from, or None."""
    scheme = url.partition(":")[0].lower()
    if scheme in INERT_SCHEMES:
        return None
    if scheme not in PAGE_SCHEMES:
        return "scheme"
    try:
        policy = check_url(url)
        peer = proxy.peer_for(policy.host, policy.port)
        if peer is not None:
            guard.check(policy.host, policy.port, peer)
        else:  # the proxy never connected there; find out where the name points
            guard.addresses_for(policy.host, policy.port)
    except RefusedError as exc:
        return exc.reason
    except FetchError as exc:
        return exc.reason
    return None


def _discard(blocked: Blocked, proxy: BrowserProxy) -> RefusedError:
    if blocked.reason == PROXY_REFUSED:  # name the guard's rule, not just "refused"
        rules = [r.reason for r in proxy.refused if r.target == blocked.url]
        if rules:
            blocked = Blocked(blocked.url, rules[-1], blocked.layer)
    return RefusedError(
        f"the browser's rendering was discarded: it went to {blocked.url} "
        f"({blocked.reason.replace('_', ' ')})",
        url=blocked.url, reason=blocked.reason,
    )


# -- the result -----------------------------------------------------------------------------


def _fetched(target: PolicyURL, final_url: str, main: Response, session: _Session,
             proxy: BrowserProxy, html: str, max_bytes: int, start: float) -> FetchResult:
    body = html.encode("utf-8")
    truncated = len(body) > max_bytes
    if truncated:
        body = body[:max_bytes]
    headers = [(h["name"].lower(), h["value"]) for h in main.headers_array()
               if h["name"].lower() not in _FRAMING_HEADERS]
    headers.append(("content-type", "text/html; charset=utf-8"))
    peer = None
    try:
        final = check_url(final_url)
        peer = proxy.peer_for(final.host, final.port)
    except RefusedError:
        pass  # not reached: _check_where_it_went has refused such a final URL already
    return FetchResult(
        url=target.url,
        final_url=final_url,
        status=main.status,
        reason_phrase=main.status_text,
        headers=tuple(headers),
        body=body,
        truncated=truncated,
        redirect_chain=_chain(session),
        peer_address=peer,
        http_version=_http_version(main),
        elapsed=time.monotonic() - start,
    )


def _chain(session: _Session) -> tuple[Hop, ...]:
    """Every response the main frame passed through before its last one, in order."""
    hops: list[Hop] = []
    # A redirect's own response is reported too; it is reached again through the
    # redirected_from chain of the response that ended its navigation.
    ends = [r for r in session.main_responses if r.request.redirected_to is None]
    for index, response in enumerate(ends):
        earlier: list[Hop] = []
        request = response.request.redirected_from
        while request is not None:
            redirect = request.response()
            earlier.insert(0, Hop(request.url, redirect.status if redirect else 0))
            request = request.redirected_from
        hops.extend(earlier)
        if index < len(ends) - 1:
            hops.append(Hop(response.url, response.status))
    return tuple(hops)


def _http_version(response: Response) -> str:
    try:
        return str(response.http_version())
    except Exception:  # not every engine reports it; the record does not need it
        return ""


def _all_blocked(session: _Session, proxy: BrowserProxy) -> list[Blocked]:
    from_proxy = [Blocked(r.target, r.reason, "proxy") for r in proxy.refused]
    return [*session.blocked, *from_proxy]


def _ms(seconds: float) -> float:
    return max(seconds, 0.001) * 1000.0


__all__ = ["Blocked", "find_browser", "render_page", "system_browser"]
