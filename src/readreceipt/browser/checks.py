"""What the rendering browser may do, and whether its result may be kept.

Used only by :mod:`readreceipt.browser.render`. Three of its layers live here:

- :func:`filter_request` (``context.route``): aborts every request whose URL fails
  :func:`~readreceipt.fetching.urlpolicy.check_url` or whose scheme is not http, https, data,
  blob or about, and media (no text, often large). It never sees redirects; the proxy does.
- :func:`refuse_websocket`: no WebSocket is opened.
- :func:`check_where_it_went`: after loading, the page's URL and every frame's URL are
  checked again (URL policy, then the address the proxy used or, failing that, the guard's
  resolution); a main frame that was sent somewhere blocked discards the rendering.

Invariant: handlers run on playwright's dispatcher thread and touch only their
:class:`Session`; a discard is a :class:`~readreceipt.errors.RefusedError` naming the URL.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from readreceipt.browser.proxy import MAX_LOGGED_URL, REFUSED_HEADER, BrowserProxy
from readreceipt.errors import FetchError, RefusedError
from readreceipt.fetching.credentials import loggable_url
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.urlpolicy import PolicyURL, check_url

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response, Route, WebSocketRoute

log = logging.getLogger(__name__)

PROXY_REFUSED = "proxy_refused"
PAGE_SCHEMES = frozenset({"http", "https"})
INERT_SCHEMES = frozenset({"data", "blob", "about"})
#: Resource types that carry no text and can be large.
SKIPPED_TYPES = frozenset({"media"})


@dataclass(frozen=True)
class Blocked:
    """A request the browser made and readreceipt did not let through."""

    url: str
    reason: str
    layer: str  # "proxy" | "route" | "websocket"

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "reason": self.reason, "layer": self.layer}


@dataclass
class Session:
    """What the event handlers saw during one rendering (touched only on the driver thread)."""

    target: PolicyURL
    blocked: list[Blocked] = field(default_factory=list)
    blocked_navigations: set[str] = field(default_factory=set)
    main_blocked: list[Blocked] = field(default_factory=list)
    main_responses: list[Response] = field(default_factory=list)


# -- the second layer: request routing ------------------------------------------------------


def filter_request(route: Route, session: Session) -> None:
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
    blocked = Blocked(loggable_url(url, reason, limit=MAX_LOGGED_URL), reason, "route")
    session.blocked.append(blocked)
    if request.is_navigation_request():
        session.blocked_navigations.add(url)
        if request.frame.parent_frame is None:
            session.main_blocked.append(blocked)
    log.info("browser request refused (%s): %s", reason, blocked.url)
    route.abort("blockedbyclient")


def refuse_websocket(ws: WebSocketRoute, session: Session) -> None:
    # Not calling connect_to_server() means nothing reaches the network.
    session.blocked.append(Blocked(ws.url, "websocket", "websocket"))
    ws.close(code=1008, reason="readreceipt does not open WebSockets")


def on_response(response: Response, page: Page, session: Session) -> None:
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


def check_where_it_went(page: Page, guard: AddressGuard, proxy: BrowserProxy,
                         session: Session) -> None:
    """Raise RefusedError when the page or a frame shows content from a blocked place."""
    if session.main_blocked:
        raise discard(session.main_blocked[0], proxy)
    if session.target.scheme == "https" and page.url.lower().startswith("http:"):
        # transport.py never follows https -> http; a rendering may not either.
        raise discard(Blocked(page.url, "https_downgrade", "final_url"), proxy)
    problem = url_problem(page.url, guard, proxy)
    if problem is not None:
        raise discard(Blocked(page.url, problem, "final_url"), proxy)
    for frame in page.frames:
        if frame == page.main_frame:
            continue
        url = frame.url
        if url in session.blocked_navigations or url.startswith("chrome-error:"):
            continue  # the frame shows refusal or error text, nothing from its target
        problem = url_problem(url, guard, proxy)
        if problem is not None:
            raise discard(Blocked(url, problem, "frame_url"), proxy)


def url_problem(url: str, guard: AddressGuard, proxy: BrowserProxy) -> str | None:
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
            guard.addresses_for(policy.host, policy.port, proxy.deadline)
    except RefusedError as exc:
        return exc.reason
    except FetchError as exc:
        return exc.reason
    return None


def discard(blocked: Blocked, proxy: BrowserProxy) -> RefusedError:
    if blocked.reason == PROXY_REFUSED:  # name the guard's rule, not just "refused"
        rules = [r.reason for r in proxy.refused if r.target == blocked.url]
        if rules:
            blocked = Blocked(blocked.url, rules[-1], blocked.layer)
    blocked = Blocked(loggable_url(blocked.url, blocked.reason, limit=MAX_LOGGED_URL),
                      blocked.reason, blocked.layer)
    return RefusedError(
        f"the browser's rendering was discarded: it went to {blocked.url} "
        f"({blocked.reason.replace('_', ' ')})",
        url=blocked.url, reason=blocked.reason,
    )


def all_blocked(session: Session, proxy: BrowserProxy) -> list[Blocked]:
    from_proxy = [Blocked(r.target, r.reason, "proxy") for r in proxy.refused]
    return [*session.blocked, *from_proxy]
