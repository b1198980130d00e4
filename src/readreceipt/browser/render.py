"""Render a JavaScript shell in headless Chromium, behind the same address guard.

Only :mod:`readreceipt.pipeline` calls this, and only for a page judged ``js_shell``. The
rendered DOM is then judged again like any fetched page.

Layers, each of which alone keeps the browser from reaching a blocked address:

1. every connection the page makes leaves through a
   :class:`~readreceipt.browser.proxy.BrowserProxy`, which resolves names itself and applies
   the URL policy and the address guard (the browser context's proxy); the browser's own
   traffic (component updates, sign-in checks) goes to a second proxy that refuses
   everything (the browser's proxy). Both are given with ``<-loopback>``, so loopback and
   link-local targets get no implicit bypass, and a host-resolver rule makes Chromium's own
   name resolution fail, so nothing is looked up outside the proxy;
2. ``context.route`` aborts every request whose URL fails :func:`check_url` or whose scheme
   is not http, https, data, blob or about (route sees no redirects; the proxy does);
3. service workers, WebSockets and WebRTC are blocked; downloads are refused;
4. afterwards the page's URL and every frame's URL are checked again (URL policy, then the
   address the proxy used or, failing that, the guard's resolution); a page that moved
   from https to plain http is not kept either.

Layers 2-4 are in :mod:`readreceipt.browser.checks`.

Outcomes (the contract with capture):

- ``None``: no browser here (playwright not importable, its driver will not start, or no
  Chromium executable). Nothing changes; the record says ``javascript_executed: false``.
- a :class:`Rendering`: ``fetched`` is the rendered DOM serialized as UTF-8 HTML (cut at
  ``max_bytes``, then ``truncated``), with the main response's status and headers (minus
  the framing headers that described the original body; ``content-type`` says what the
  serialization is), the final URL, every main-frame response passed through before it as
  the redirect chain, and the address the proxy connected to; ``extraction`` its texts;
  ``browser`` (``Chromium <version>``), ``elapsed`` and ``blocked_requests`` (each request
  refused on the way, which the record keeps).
- :class:`RefusedError` (rendering discarded): the main frame moved to a blocked URL or
  address, or a frame holds content from one. :class:`FetchError` / :class:`FetchTimeout`:
  the browser failed or ran out of time. The static capture stands in both cases; capture
  adds the message to the record's detail.

Time: the rendering spends what is left of the capture's
:class:`~readreceipt.fetching.deadline.Deadline`: the browser's launch, the page's load and
settling are given the time left, and both proxies cut every connection when it passes
(:class:`~readreceipt.browser.proxy.BrowserProxy` bounds each relayed response by it).

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from readreceipt.browser import watchdog
from readreceipt.browser.checks import (
    Blocked,
    Session,
    all_blocked,
    check_where_it_went,
    discard,
    filter_request,
    on_response,
    refuse_websocket,
)
from readreceipt.browser.proxy import BrowserProxy
from readreceipt.errors import FetchError, FetchTimeout, ReadReceiptError, RefusedError
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.headers import safe_headers
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.transport import USER_AGENT, FetchResult, Hop
from readreceipt.fetching.urlpolicy import PolicyURL, check_url
from readreceipt.reading.extract import Extraction, extract

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright, Response

log = logging.getLogger(__name__)

RENDERING_METHOD = "chromium-headless"
#: Where a system Chromium lives. Debian's binary itself comes before its /usr/bin/chromium
#: wrapper script, which adds Google API keys and extension flags a reader has no use for.
SYSTEM_BROWSERS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium",
                   "chromium-browser")
#: After ``load``, wait at most this long for the network to go quiet (playwright's
#: "networkidle": 500 ms without a request), so data a script fetches after load is in. The
#: cap is a judgement, not a measurement: a page that polls forever is read after it.
SETTLE_SECONDS = 3.0
#: Everything the browser may pull through the proxy, as a multiple of the body cap, and
#: never less than a floor: a heavy app's scripts, styles and data are a few MB; 10x the
#: default 10 MB cap is ample, and a tiny cap must not starve the scripts.
BUDGET_FACTOR = 10
MIN_BUDGET = 16 * 1024 * 1024
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
    # Chromium's own resolver answers "not found" for everything but the proxies' address
    # (without the exception it cannot reach them), so a name can only be resolved by the
    # proxy, through the guard.
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
class Rendering:
    """A page as a browser rendered it behind the guard."""

    fetched: FetchResult
    extraction: Extraction
    browser: str  # "Chromium <version>"
    elapsed: float  # seconds the rendering took
    blocked_requests: tuple[Blocked, ...]
    rendering_method: str = RENDERING_METHOD
    javascript_executed: bool = True


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


def render_page(target: PolicyURL, guard: AddressGuard, *, deadline: Deadline,
                max_bytes: int) -> Rendering | None:
    """Render ``target`` in headless Chromium behind the guard, by ``deadline``; see the
    module docstring."""
    try:
        import playwright.sync_api  # noqa: F401  (only probing that the extra is installed)
    except ImportError:
        log.info("playwright is not installed; the JavaScript shell is not rendered")
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _render(target, guard, deadline, max_bytes)
    # Playwright's sync API refuses to run inside an event loop (the MCP server has one):
    # give it a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="readreceipt-render") as ex:
        return ex.submit(_render, target, guard, deadline, max_bytes).result()


def _render(target: PolicyURL, guard: AddressGuard, deadline: Deadline,
            max_bytes: int) -> Rendering | None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    if deadline.expired:
        raise FetchTimeout(f"the browser's rendering was not started: the capture's "
                           f"{deadline.seconds:g} s had passed", reason="render_timeout")
    session = Session(target)
    with BrowserProxy(guard, refuse_all="browser_internal", budget=0) as sink, \
            BrowserProxy(guard, budget=max(BUDGET_FACTOR * max_bytes, MIN_BUDGET),
                         deadline=deadline) as proxy:
        try:
            manager, driver = watchdog.started(lambda: sync_playwright().start())
        except (PlaywrightError, OSError) as exc:  # installed, but its driver will not start
            log.warning("playwright could not start (%s); not rendering", exc)
            return None
        dog = watchdog.Watchdog(driver, deadline)
        try:
            with dog:
                return _rendered(manager, sink, target, guard, proxy, session, start,
                                 deadline, max_bytes, dog)
        finally:
            # A driver the watchdog killed cannot be stopped cleanly; nothing is left of it.
            with contextlib.suppress(Exception) if dog.fired else contextlib.nullcontext():
                manager.stop()


def _rendered(manager: Playwright, sink: BrowserProxy, target: PolicyURL,
              guard: AddressGuard, proxy: BrowserProxy, session: Session, start: float,
              deadline: Deadline, max_bytes: int, dog: watchdog.Watchdog) -> Rendering | None:
    from playwright.sync_api import Error as PlaywrightError

    browser = _launch(manager, sink, deadline)
    if browser is None:
        return None
    try:
        return _run(browser, target, guard, proxy, session, start, deadline, max_bytes)
    except Exception as exc:
        if dog.fired:  # whatever the call blocked on said once its browser was killed
            stopped = FetchTimeout(f"the browser's rendering was discarded: the page kept "
                                   f"the browser busy past the capture's "
                                   f"{deadline.seconds:g} s, and the browser was stopped",
                                   url=target.url, reason="render_timeout")
            stopped.blocked_requests = _refused(session, proxy)
            raise stopped from exc
        if isinstance(exc, ReadReceiptError):
            exc.url = exc.url or target.url
            exc.blocked_requests = _refused(session, proxy)  # the record keeps them still
        raise
    finally:
        with contextlib.suppress(Exception if dog.fired else PlaywrightError):
            browser.close()  # it may have crashed, or been killed, already


def _refused(session: Session, proxy: BrowserProxy) -> tuple[dict[str, str], ...]:
    return tuple(b.to_dict() for b in all_blocked(session, proxy))


def _launch(manager: Playwright, sink: BrowserProxy, deadline: Deadline) -> Browser | None:
    """Chromium with the sink as its proxy: the browser's own requests go nowhere."""
    from playwright.sync_api import Error as PlaywrightError

    first = find_browser(_playwright_own(manager))
    if first is None:
        log.info("no Chromium found; the JavaScript shell is not rendered")
        return None
    # Playwright's own download may be present and unable to run here: then the system's.
    fallback = system_browser()
    for executable in dict.fromkeys(e for e in (first, fallback) if e is not None):
        try:
            return manager.chromium.launch(
                executable_path=executable,
                headless=True,
                # Chromium cannot sandbox itself as root; everywhere else the sandbox stays on.
                chromium_sandbox=os.geteuid() != 0,
                proxy={"server": sink.server, "bypass": "<-loopback>"},
                args=list(CHROMIUM_ARGS),
                timeout=_ms(min(deadline.remaining(), 30.0)),
            )
        except PlaywrightError as exc:
            if deadline.expired:
                raise FetchTimeout(f"the browser's rendering was discarded: the capture's "
                                   f"{deadline.seconds:g} s passed while Chromium started",
                                   reason="render_timeout") from exc
            log.warning("Chromium at %s would not start (%s)", executable, exc)
    log.warning("no Chromium would start; the JavaScript shell is not rendered")
    return None


def _playwright_own(manager: Playwright) -> str | None:
    try:
        path = manager.chromium.executable_path
    except Exception:  # playwright raises its own Error when its browser was never installed
        return None
    return str(path) if path else None


def _run(browser: Browser, target: PolicyURL, guard: AddressGuard, proxy: BrowserProxy,
         session: Session, start: float, deadline: Deadline, max_bytes: int) -> Rendering:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(
        service_workers="block", user_agent=USER_AGENT, java_script_enabled=True,
        accept_downloads=False,
        # The page's own traffic: through the guarded proxy, loopback included.
        proxy={"server": proxy.server, "bypass": "<-loopback>"},
    )
    context.add_init_script(_NO_WEBRTC)
    context.route("**/*", lambda route: filter_request(route, session))
    context.route_web_socket("**/*", lambda ws: refuse_websocket(ws, session))
    page = context.new_page()
    page.on("response", lambda response: on_response(response, page, session))
    left = deadline.remaining
    # Any other wait playwright makes (reading the DOM) ends by the deadline too.
    page.set_default_timeout(_ms(left()))

    try:
        if left() <= 0:
            raise PlaywrightTimeout("the deadline passed before the page was opened")
        first = page.goto(target.url, wait_until="load", timeout=_ms(left()))
        if deadline.expired:
            # "load" can fire just as the proxy cuts the page's open requests at the
            # deadline: a page that loaded only because its requests were cut did not load.
            raise PlaywrightTimeout("the page loaded only once the deadline had passed")
        settle = min(SETTLE_SECONDS, left())
        if settle > 0:
            # A page that keeps polling never goes quiet; it is read as it stands.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_load_state("networkidle", timeout=_ms(settle))
        check_where_it_went(page, guard, proxy, session)
        checked_url, seen = page.url, len(session.main_responses)
        html = page.content()
        if page.url != checked_url or len(session.main_responses) != seen:
            # It moved while being read: check again what it now shows, or give up.
            check_where_it_went(page, guard, proxy, session)
            raise FetchError("the browser's rendering was discarded: the page kept "
                             "navigating", reason="render_unstable")
        main = session.main_responses[-1] if session.main_responses else first
        if main is None:
            raise FetchError("the browser got no response for the page", reason="render_failed")
        fetched = _fetched(target, page.url, main, session, proxy, html, max_bytes)
    except PlaywrightTimeout as exc:
        if proxy.over_budget:  # a cut-off document never fires "load"
            raise FetchError(f"the browser's rendering was discarded: the page pulled more "
                             f"than {proxy.budget} bytes", reason="render_over_budget") from exc
        raise FetchTimeout(f"the browser's rendering was discarded: it did not finish within "
                           f"the capture's {deadline.seconds:g} s",
                           reason="render_timeout") from exc
    except PlaywrightError as exc:
        if session.main_blocked:
            raise discard(session.main_blocked[0], proxy) from exc
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FetchError(f"the browser's rendering was discarded: {message}",
                         reason="render_failed") from exc
    extraction = extract(fetched.body, "text/html", "utf-8")
    return Rendering(fetched, extraction, browser=f"Chromium {browser.version}",
                     elapsed=time.monotonic() - start,
                     blocked_requests=tuple(all_blocked(session, proxy)))


# -- the result -----------------------------------------------------------------------------


def _fetched(target: PolicyURL, final_url: str, main: Response, session: Session,
             proxy: BrowserProxy, html: str, max_bytes: int) -> FetchResult:
    body = html.encode("utf-8")
    truncated = len(body) > max_bytes
    if truncated:  # cut on a character boundary, or the decoder would guess another charset
        body = body[:max_bytes].decode("utf-8", "ignore").encode("utf-8")
    headers = [(h["name"].lower(), h["value"]) for h in main.headers_array()
               if h["name"].lower() not in _FRAMING_HEADERS]
    headers.append(("content-type", "text/html; charset=utf-8"))
    peer = None
    try:
        final = check_url(final_url)
        peer = proxy.peer_for(final.host, final.port)
    except RefusedError:
        pass  # not reached: check_where_it_went has refused such a final URL already
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
    )


def _chain(session: Session) -> tuple[Hop, ...]:
    """Every response the main frame passed through before its last one, in order."""
    hops: list[Hop] = []
    # A redirect's own response is reported too; it is reached again through the
    # redirected_from chain of the response that ended its navigation.
    ends = [r for r in session.main_responses if r.request.redirected_to is None]
    for index, response in enumerate(ends):
        earlier: list[Hop] = []
        request = response.request.redirected_from
        while request is not None:
            earlier.insert(0, _hop(request.url, request.response()))
            request = request.redirected_from
        hops.extend(earlier)
        if index < len(ends) - 1:
            hops.append(Hop(response.url, response.status))
    return tuple(hops)


def _hop(url: str, redirect: Response | None) -> Hop:
    """A redirect the browser followed, with its headers as a record may keep them."""
    if redirect is None:
        return Hop(url, 0)
    headers = safe_headers(((h["name"], h["value"]) for h in redirect.headers_array()), url)
    return Hop(url, redirect.status, tuple(headers.items()),
               http_version=_http_version(redirect) or None)


def _http_version(response: Response) -> str:
    try:
        return str(response.http_version())
    except Exception:  # not every engine reports it; the record does not need it
        return ""


def _ms(seconds: float) -> float:
    return max(seconds, 0.001) * 1000.0


__all__ = ["Blocked", "Rendering", "find_browser", "render_page", "system_browser"]
