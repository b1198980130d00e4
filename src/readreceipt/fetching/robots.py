"""robots.txt (RFC 9309): fetched through the same guard, cached a day, honoured.

:func:`admit` is what :mod:`readreceipt.pipeline` calls between the session cap and the
pacing slot. It answers from the index's robots.txt cache when the origin's robots.txt is
fresh there; otherwise one worker claims it and fetches it (the others wait for that answer
instead of asking too),
through :func:`readreceipt.fetching.transport.fetch` with the caller's :class:`AddressGuard`, with
readreceipt's own user agent and at most :data:`MAX_BYTES`. Parsing and matching are
protego's (longest match, ``*`` and ``$``, a tie goes to Allow, groups for one agent merged),
on the file as :mod:`readreceipt.fetching.robotsrules` narrows it to the groups that can
apply to readreceipt, so a parse is linear in the file, and once per body per process.

Time: robots.txt is part of the capture, so it spends the capture's own
:class:`~readreceipt.fetching.deadline.Deadline`, and at most :data:`FETCH_SECONDS` of it.
When robots.txt alone ran out of its :data:`FETCH_SECONDS` it counts as unreachable (below);
when the capture's deadline passes first (fetching it, or waiting for another worker's
answer) :class:`~readreceipt.errors.FetchTimeout` is raised and nothing is cached, as
nothing was learnt about the server.

Outcomes (RFC 9309 section 2.3.1): a 2xx body is parsed; a 4xx means there are no rules
(allow); a 5xx, a 429 or a network failure means "assume complete disallow" for now, cached
only :data:`UNREACHABLE_TTL` seconds so a recovered server is asked again soon.

Invariants:
- a URL robots.txt disallows raises DeclinedError and is never requested;
- the robots.txt request itself never bypasses the URL policy or the address guard: a
  refusal of the origin itself is raised as the RefusedError it is;
- nothing here is consulted under ``--now`` (the pipeline skips it).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from readreceipt.errors import DeclinedError, FetchError, FetchTimeout
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.robotsrules import PRODUCT_TOKEN as PRODUCT_TOKEN
from readreceipt.fetching.robotsrules import parse
from readreceipt.fetching.transport import FetchOptions, RefusedDuringFetch, fetch
from readreceipt.fetching.urlpolicy import PolicyURL, check_url
from readreceipt.store.library import Library
from readreceipt.store.protocols import ROBOTS_PENDING, CachedRobots

log = logging.getLogger(__name__)

#: RFC 9309 section 2.5: crawlers must parse at least 500 kibibytes.
MAX_BYTES = 500 * 1024
#: RFC 9309 section 2.4: a cached robots.txt should not be used for more than 24 hours.
CACHE_TTL = 24 * 3600.0
#: How long "disallow for now" after a 5xx, a 429 or a network failure lasts before the
#: next capture asks again: long enough that a loop of captures does not hammer a failing
#: server's robots.txt, short enough that a recovered one is read within minutes.
UNREACHABLE_TTL = 120.0
#: A worker that claimed the fetch but never finished (killed) is waited for this long
#: beyond the fetch timeout before another worker fetches instead.
PENDING_GRACE = 2.0
_POLL = 0.1
#: The most of a capture's deadline robots.txt may take: a robots.txt is a few KB, and a
#: server that cannot send it in this long is treated as unreachable, not waited on.
FETCH_SECONDS = 10.0

ALLOW, RULES, UNREACHABLE, PENDING = "allow", "rules", "unreachable", ROBOTS_PENDING


@dataclass(frozen=True)
class RobotsEntry(CachedRobots):
    """One origin's robots.txt as cached: what came back and what it means."""

    def fresh(self, now: float) -> bool:
        ttl = UNREACHABLE_TTL if self.outcome == UNREACHABLE else CACHE_TTL
        return self.outcome != PENDING and now - self.fetched_at < ttl

    @classmethod
    def of(cls, cached: CachedRobots) -> RobotsEntry:
        return cached if isinstance(cached, RobotsEntry) else cls(
            cached.origin, cached.fetched_at, cached.status, cached.body, cached.outcome)


def admit(lib: Library, target: PolicyURL, guard: AddressGuard,
          deadline: Deadline | None = None) -> float | None:
    """The Crawl-delay for ``target``'s host (None if unset); DeclinedError if disallowed.

    ``deadline`` is the capture's (by default :data:`FETCH_SECONDS` from now).
    """
    if deadline is None:
        deadline = Deadline.after(FETCH_SECONDS)
    entry = robots_for(lib, target, guard, deadline)
    delay = decide(entry, target)
    deadline.check()  # the parse is linear and cached, but it is the capture's time too
    return delay


def decide(entry: RobotsEntry, target: PolicyURL) -> float | None:
    """Apply a cached robots.txt to ``target``: DeclinedError, or the Crawl-delay."""
    if entry.outcome == ALLOW:
        return None
    if entry.outcome == UNREACHABLE:
        why = f"HTTP {entry.status}" if entry.status else "it could not be reached"
        raise DeclinedError(
            f"robots.txt of {entry.origin} could not be read ({why}); RFC 9309 says to assume "
            "every path is disallowed for now, so the page was not requested (--now skips "
            "robots.txt)", url=target.url, reason="robots_unreachable")
    parser = parse(entry.body)
    if not parser.can_fetch(target.url, PRODUCT_TOKEN):
        raise DeclinedError(
            f"robots.txt of {entry.origin} disallows this URL for {PRODUCT_TOKEN}; it was not "
            "requested (--now skips robots.txt)", url=target.url, reason="robots")
    delay = parser.crawl_delay(PRODUCT_TOKEN)
    return float(delay) if delay is not None else None


def robots_for(lib: Library, target: PolicyURL, guard: AddressGuard,
               deadline: Deadline | None = None) -> RobotsEntry:
    """The origin's robots.txt: from the cache when fresh, else fetched once and stored."""
    if deadline is None:
        deadline = Deadline.after(FETCH_SECONDS)
    origin = target.origin
    give_up_at = time.monotonic() + _pending_limit()
    while True:
        now = time.time()
        claim = lib.index.claim_robots(origin, now, fresh=_fresh_at(now),
                                       pending_timeout=_pending_limit())
        if claim.entry is not None:
            return RobotsEntry.of(claim.entry)
        if claim.claimed:
            break
        if time.monotonic() > give_up_at:
            break  # the worker that claimed it died; fetch it ourselves
        if deadline.expired:
            raise FetchTimeout(f"robots.txt of {origin} was still being fetched by another "
                               f"capture after {deadline.seconds:g} s", url=target.url,
                               reason="timeout")
        time.sleep(min(_POLL, deadline.remaining()))
    try:
        entry = _fetch(origin, guard, deadline)
    except BaseException:
        lib.index.release_robots_claim(origin)
        raise
    lib.index.store_robots(entry)
    return entry


def _fresh_at(now: float) -> Callable[[CachedRobots], bool]:
    return lambda cached: RobotsEntry.of(cached).fresh(now)


def _pending_limit() -> float:
    return FETCH_SECONDS + PENDING_GRACE  # the longest a robots fetch may take


def _fetch(origin: str, guard: AddressGuard, deadline: Deadline) -> RobotsEntry:
    """Fetch ``origin``/robots.txt through the guard and classify the answer."""
    url = check_url(origin + "/robots.txt")
    now = time.time()
    options = FetchOptions(timeout=FETCH_SECONDS, max_bytes=MAX_BYTES,
                           accept="text/plain,*/*;q=0.5")
    own = deadline.within(FETCH_SECONDS)
    try:
        result = fetch(url, guard, options, own)
    except RefusedDuringFetch as exc:
        if not exc.chain:
            raise  # the origin itself is refused: so is the capture
        # robots.txt redirected somewhere readreceipt never goes: unreadable, not a refusal
        # of this page.
        log.info("robots.txt of %s redirected to a refused URL (%s)", origin, exc.reason)
        return RobotsEntry(origin, now, None, "", UNREACHABLE)
    except FetchTimeout as exc:
        if own.ends_at >= deadline.ends_at:  # the capture's time ran out, not robots.txt's
            raise FetchTimeout(f"robots.txt of {origin} gave no complete answer within the "
                               f"capture's {deadline.seconds:g} s", reason="timeout") from exc
        log.info("robots.txt of %s took more than %g s", origin, FETCH_SECONDS)
        return RobotsEntry(origin, now, None, "", UNREACHABLE)
    except FetchError as exc:
        if exc.reason == "too_many_redirects":
            # RFC 9309 section 2.3.1.2: past five redirects it MAY be taken as unavailable.
            return RobotsEntry(origin, now, None, "", ALLOW)
        log.info("robots.txt of %s could not be fetched (%s)", origin, exc.reason)
        return RobotsEntry(origin, now, None, "", UNREACHABLE)
    status = result.status
    if 200 <= status < 300:
        body = result.body.decode("utf-8", "replace").removeprefix("\ufeff")
        return RobotsEntry(origin, now, status, body, RULES)
    if status == 429 or status >= 500:
        return RobotsEntry(origin, now, status, "", UNREACHABLE)
    # 4xx ("unavailable": no rules), or a redirect not followed (an https -> http downgrade).
    return RobotsEntry(origin, now, status, "", ALLOW)
