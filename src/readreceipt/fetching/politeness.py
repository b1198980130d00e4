"""May this URL be fetched *now*? Dedup window, session cap and per-host pacing.

The order is :mod:`readreceipt.pipeline`'s: the address rule first (a refused URL spends
nothing), then the dedup window (a copy held answers, no request at all), the session cap,
robots.txt (:mod:`readreceipt.fetching.robots`, itself a request made through the same
guard) and last the pacing slot. ``--now`` skips all of these (the pipeline does not call
them); it never skips a security rule.

Pacing is a schedule in the library's index, shared by every process using the library: a
worker reserves the next free slot for its host in one transaction that holds the write
lock (:meth:`~readreceipt.store.protocols.Index.reserve_pacing_slot`) and sleeps *outside*
it, so concurrent workers queue one gap apart instead of bursting. A worker that will not
wait gives its slot back when nobody has queued behind it. When its turn comes, a capture
claims the URL's fetch (:func:`claimed_fetch`) for as long as its deadline allows: another
capture of the URL whose turn comes while the first is still fetching waits for that copy
instead of asking the host again, and a claim whose capture died runs out with its deadline.
This module holds the rules (the numbers, the clamping, what to say); the store holds the
state.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from readreceipt.errors import DeclinedError, LibraryError
from readreceipt.fetching.urlpolicy import PolicyURL
from readreceipt.store.library import Library
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: Seconds between two requests to one host; a longer robots.txt Crawl-delay wins.
MIN_GAP_SECONDS = 2.0
#: A longer Crawl-delay than this is capped: a site cannot park a capture for hours.
MAX_CRAWL_DELAY = 60.0
#: A URL fetched within this many seconds is answered from the copy held.
DEDUP_WINDOW_SECONDS = 15 * 60
#: Captures one session may make; an agent loop should not become a crawler.
SESSION_CAP = 100
#: How often a capture waiting for its host's turn looks for a copy another capture made.
COPY_POLL_SECONDS = 0.25
#: Seconds a fetch claim outlasts the capture's deadline: the deadline bounds the requests
#: and the reading, and writing the copy down comes after, so a capture that used its whole
#: deadline still holds its claim while it saves.
CLAIM_MARGIN_SECONDS = 10.0
#: How long a command a person (or an agent) types waits for the host's turn before it is
#: declined: ``capture``, ``fetch``, ``audit`` and the MCP tools alike. Two pages of one host
#: asked for a second apart then both arrive, the second two seconds after the first; ten
#: seconds of patience is shorter than a retry. Scripts that would rather be told at once
#: pass ``--wait 0``.
DEFAULT_WAIT = 10.0


@dataclass(frozen=True)
class PolitenessOptions:
    #: Seconds a capture may wait for its host's turn before it is declined.
    wait: float = 0.0


def recent_copy(library: Library, url: str, window: float = DEDUP_WINDOW_SECONDS) -> Record | None:
    """The newest record of ``url`` fetched within ``window`` seconds, if any.

    Only a retrieval that reached a server counts (it has an HTTP status): a DNS failure or
    a refused connection asked nothing of the host, so it holds no copy worth answering from.
    """
    cutoff = (datetime.now(UTC) - timedelta(seconds=window)).strftime("%Y-%m-%dT%H:%M:%S")
    record_id = library.index.newest_reached_since(url, cutoff)
    if record_id is None:
        return None
    try:
        return library.load(record_id)
    except LibraryError as exc:  # a damaged record answers nothing: fetch anew
        log.warning("not answering from %s: %s", record_id, exc)
        return None


def check_session_cap(library: Library, session_id: str | None) -> None:
    if session_id and library.index.session_capture_count(session_id) >= SESSION_CAP:
        raise DeclinedError(f"session {session_id} has made {SESSION_CAP} captures, its cap",
                            reason="session_cap")


def _clamped(gap: float) -> float:
    return min(max(gap, MIN_GAP_SECONDS), MAX_CRAWL_DELAY)


def reserve_slot(library: Library, host: str, gap: float,
                 clock: Callable[[], float] = time.time) -> float:
    """Reserve the next request slot for ``host``; return the epoch time it starts."""
    return library.index.reserve_pacing_slot(host, _clamped(gap), clock)


def release_slot(library: Library, host: str, start: float, gap: float) -> None:
    """Give back a slot not used (the caller declined instead of waiting)."""
    library.index.release_pacing_slot(host, start, _clamped(gap))


def _reserve_within(library: Library, target: PolicyURL, options: PolitenessOptions,
                    gap: float) -> float:
    """Reserve the host's next slot; give it back and decline when it is further off than
    ``options.wait``. The slot's start (epoch seconds)."""
    start = reserve_slot(library, target.host, gap)
    delay = start - time.time()
    if delay > options.wait:
        release_slot(library, target.host, start, gap)
        raise DeclinedError(
            f"{target.host} was asked less than {gap:g} s ago; its next turn is in "
            f"{delay:.1f} s (use --wait {int(delay) + 1} to wait for it, or --now)",
            url=target.url, reason="pacing")
    return start


def wait_for_turn(library: Library, target: PolicyURL, options: PolitenessOptions,
                  crawl_delay: float | None = None) -> float:
    """Wait (up to ``options.wait``) for this host's turn; DeclinedError when too long."""
    gap = max(MIN_GAP_SECONDS, crawl_delay or 0.0)
    start = _reserve_within(library, target, options, gap)
    delay = start - time.time()
    if delay > 0:
        time.sleep(delay)
    return max(delay, 0.0)


def turn_or_copy(library: Library, target: PolicyURL, options: PolitenessOptions,
                 crawl_delay: float | None = None,
                 on_wait: Callable[[float], None] | None = None) -> tuple[Record | None, float]:
    """Wait for this host's turn as :func:`wait_for_turn` does, but look, while waiting and
    once more when the turn comes, for a copy of this URL that another capture made in the
    meantime. Returns that copy (the slot is given back; no request is to be made) or None
    when the turn has come and there is still no copy, and the seconds waited. Eight
    captures of one URL queued behind each other so make one request, not eight.
    ``on_wait`` hears, once, how many seconds the turn is away when there is a wait."""
    gap = max(MIN_GAP_SECONDS, crawl_delay or 0.0)
    began = time.monotonic()
    start = _reserve_within(library, target, options, gap)
    if on_wait is not None and start - time.time() > 0:
        on_wait(start - time.time())
    while True:
        remaining = start - time.time()
        held = recent_copy(library, target.url)
        if held is not None:
            release_slot(library, target.host, start, gap)
            return held, time.monotonic() - began
        if remaining <= 0:
            return None, time.monotonic() - began
        time.sleep(min(remaining, COPY_POLL_SECONDS))


@contextlib.contextmanager
def claimed_fetch(library: Library, url: str, seconds: float, patience: float
                  ) -> Iterator[tuple[Record | None, float]]:
    """Claim the fetch of ``url`` for ``seconds`` (the capture's deadline, and a margin for
    storing what it fetched), and yield
    ``(None, waited)`` to fetch under the claim, released when the block ends; or, when
    another capture of ``url`` held the claim and made its copy meanwhile, ``(that copy,
    waited)`` and nothing to fetch. A claim whose holder ended without a copy that reached
    a server (a DNS failure, a crash) leaves the fetch to this capture, and so does a wait
    longer than ``patience`` (the capture's ``--wait``: ``--wait 0`` is never held).

    The copy is looked for again once the claim is ours: the holder may have saved it and
    let go between two looks."""
    token = secrets.token_hex(8)
    began = time.monotonic()
    seconds += CLAIM_MARGIN_SECONDS
    while (held_for := library.index.claim_fetch(url, token, seconds)) is not None:
        held = recent_copy(library, url)
        if held is not None:
            yield held, time.monotonic() - began
            return
        if time.monotonic() - began > patience:
            # Waited as long as the capture may wait (--wait): fetch, as without claims.
            yield None, time.monotonic() - began
            return
        time.sleep(min(max(held_for, 0.0), COPY_POLL_SECONDS))
    try:
        yield recent_copy(library, url), time.monotonic() - began
    finally:
        try:
            library.index.release_fetch(url, token)
        except LibraryError as exc:  # the claim runs out with its deadline anyway
            log.warning("could not release the claim on %s: %s", url, exc)
