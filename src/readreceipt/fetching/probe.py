"""The soft-404 probe: one request for a path that cannot exist on the page's own origin.

Made only for a page suspected of being a not-found page (``reading/soft404.py``), never
under ``--now``, at most once a day per origin (the answer is kept in the index,
``soft404_probes``). It is an ordinary request in every way that matters to the host: the
same URL policy, the same address guard (every hop checked), robots.txt honoured, the
host's pacing slot taken, readreceipt's own user agent, nothing retried, and within what is
left of the capture's deadline.

Invariants: :func:`probe_origin` never raises for the probe's own failures: a refusal,
a robots.txt that disallows the path, a host whose turn is too far off or a failed request
gives a :class:`ProbeAnswer` with ``status=None`` and ``failure`` saying why, and the page-only
verdict stands. The probe's URL is random (:func:`probe_url`), so no real page is asked for.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable

from readreceipt.errors import DeclinedError, FetchError, ReadReceiptError, RefusedError
from readreceipt.fetching import politeness, robots
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.transport import FetchOptions, FetchResult, fetch
from readreceipt.fetching.urlpolicy import PolicyURL, check_url
from readreceipt.store.library import Library
from readreceipt.store.protocols import ProbeAnswer

log = logging.getLogger(__name__)

#: One probe answer serves an origin this long (a host's not-found page changes rarely).
CACHE_SECONDS = 24 * 3600.0
#: The probe reads at most this much: a not-found page is small, and it is only compared.
MAX_BYTES = 2 * 1024 * 1024
#: Below this many seconds left of the capture's deadline, no probe is started.
MIN_SECONDS = 1.0
#: Text kept per origin for comparing later pages.
MAX_TEXT_CHARS = 200_000


def probe_url(origin: str) -> str:
    """A random path on ``origin`` that no site has: 24 hex digits, named as a probe."""
    return f"{origin}/readreceipt-probe-{secrets.token_hex(12)}"


#: How the probe's answer is read: its visible text, read the way pages are (the pipeline
#: passes the reading stage's extractor; fetching does not import reading).
ReadText = Callable[[FetchResult], str]


def probe_origin(lib: Library, target: PolicyURL, guard: AddressGuard, deadline: Deadline,
                 read_text: ReadText, *,
                 max_bytes: int = MAX_BYTES) -> tuple[ProbeAnswer, bool]:
    """The origin's answer for a missing path, and whether it came from the day's cache.

    Everything the probe does (its name lookup, robots.txt, its turn, the request) ends by
    ``deadline``, the capture's own."""
    origin = target.origin
    held = lib.index.probe_answer_for_origin(origin, time.time() - CACHE_SECONDS)
    if held is not None:
        return held, True
    row = _ask(lib, origin, guard, deadline, read_text, max_bytes)
    if row.status is not None or row.failure in ("network", "timeout"):
        # An answer, or a request that reached for the host and failed: remembered for the
        # day like any answer (nothing is retried). A probe declined before any request
        # (robots, pacing, deadline) is not remembered: the next suspect page may ask.
        lib.index.remember_probe_answer(row)
    return row, False


def _ask(lib: Library, origin: str, guard: AddressGuard, deadline: Deadline,
         read_text: ReadText, max_bytes: int) -> ProbeAnswer:
    url = probe_url(origin)

    def failure(why: str) -> ProbeAnswer:
        return ProbeAnswer(origin, time.time(), url, None, None, None, None, why)

    if deadline.remaining() < MIN_SECONDS:
        return failure("deadline")
    try:
        target = check_url(url)
        guard.precheck(target.host, target.port, deadline)
        delay = robots.admit(lib, target, guard, deadline)
        # The probe's turn is waited for within the capture's deadline, not beside it.
        politeness.wait_for_turn(lib, target, politeness.PolitenessOptions(
            wait=max(deadline.remaining() - MIN_SECONDS, 0.0)), float(delay) if delay else None)
        if deadline.remaining() < MIN_SECONDS:
            return failure("deadline")
        answer = fetch(target, guard, FetchOptions(timeout=deadline.seconds, max_bytes=max_bytes),
                       deadline)
    except RefusedError as exc:
        log.info("soft-404 probe of %s refused: %s", origin, exc.reason)
        return failure(f"refused:{exc.reason}")
    except DeclinedError as exc:
        log.info("soft-404 probe of %s declined: %s", origin, exc.reason)
        return failure(f"declined:{exc.reason}")
    except FetchError as exc:
        return failure(exc.reason if exc.reason in ("timeout",) else "network")
    except ReadReceiptError as exc:
        return failure(exc.reason or "error")
    text = ""
    if 200 <= answer.status < 300 and answer.body:
        text = read_text(answer)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest() if text else None
    return ProbeAnswer(origin, time.time(), url, answer.final_url, answer.status, digest,
                    text[:MAX_TEXT_CHARS] or None, None)
