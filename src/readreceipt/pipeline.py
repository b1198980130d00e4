"""The capture pipeline, end to end. The only module that knows the order of the steps.

    URL -> urlpolicy -> politeness -> transport (address guard) -> [render] -> extract
        -> verdict -> store -> [quotes]

Every adapter (CLI, hook, MCP server, API) calls :func:`capture`; none re-implements a step.

Invariants:
- a refused or declined capture makes no request to the target and is one line of
  ``skipped.jsonl`` (the URL without its query when the rule was a credential);
- a capture that reached the network makes exactly one record, written before the call
  returns, whatever the verdict;
- bytes are kept unless ``keep`` says otherwise; both text digests are always recorded;
- one :class:`~readreceipt.fetching.deadline.Deadline` of ``timeout`` seconds, started when
  the capture starts, covers all its network work: the name lookup, robots.txt, the page and
  its redirects, the rendering. Only the wait for the host's turn (``wait``) is not counted.
  When it passes, the capture is recorded FAILED ``timeout``. Reading, judging and checking
  the answer spend the same deadline: when it passes there, the capture is recorded UNKNOWN
  ``timeout`` (its bytes kept) and the answer check ``not_run`` (``timeout``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from readreceipt.errors import (
    DeclinedError,
    ExitCode,
    FetchError,
    FetchTimeout,
    ReadReceiptError,
    RefusedError,
    UsageError,
)
from readreceipt.fetching import politeness, robots
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.deadline import Deadline
from readreceipt.fetching.headers import safe_headers
from readreceipt.fetching.netguard import AddressGuard, Resolver, SystemResolver, parse_pin
from readreceipt.fetching.transport import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    USER_AGENT,
    FetchOptions,
    FetchResult,
    RefusedDuringFetch,
    fetch,
)
from readreceipt.fetching.urlpolicy import PolicyURL, check_url
from readreceipt.quotes.answers import Copy
from readreceipt.reading.extract import Extraction, extract
from readreceipt.reading.redirects import route_kind
from readreceipt.reading.verdict import (
    SHORT_SUSPICION,
    Verdict,
    after_answer,
    after_probe,
    exit_code_for,
    failed,
    judge,
    over_deadline,
    probe_wanted,
)
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.protocols import StagedBlob
from readreceipt.store.records import Record, new_record_id

if TYPE_CHECKING:
    from readreceipt.browser.render import Rendering
    from readreceipt.quotes.answers import CheckedAnswer

log = logging.getLogger(__name__)

KEEP_CHOICES = ("all", "flagged", "none")


@dataclass(frozen=True)
class CaptureOptions:
    now: bool = False
    wait: float = 0.0
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    session_id: str | None = None
    agent_id: str | None = None
    prompt: str | None = None
    answer: str | None = None
    resolve: tuple[str, ...] = ()  # curl-style HOST:PORT:ADDR pins
    keep: str = "all"  # whose bytes to keep: all | flagged | none
    render: bool = True  # render a JavaScript shell when a browser is available
    #: host:port pairs exempt from the private-address rule, beside READRECEIPT_ALLOW_HOSTS
    #: (the demo's own server); every record made under an exemption says so.
    allow_hosts: tuple[str, ...] = ()
    #: Write the answer's check down (in the record made, or as an answer check naming the
    #: copy reused) with its flags. False: the check is made and returned, and nothing of it
    #: written; the caller checks one answer against several pages and records the whole
    #: (``capture URL URL... --answer``: :func:`readreceipt.quotes.answers.combine`).
    record_answer: bool = True
    #: Told, in a few words, each time the capture starts a step that may take seconds
    #: (waiting for the host's turn, rendering in a browser): the MCP server's progress.
    on_phase: Callable[[str], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class CaptureResult:
    """What one capture answered with: the record made, or the copy reused, and the check
    of the answer given with it (None: no answer was given)."""

    record: Record
    #: Where the record is kept: a file of the local library, an object of a team library.
    record_location: str
    reused: bool = False
    timings: dict[str, float] = field(default_factory=dict)
    #: The URL asked for (canonical): a copy reused may be another URL's, whose redirects
    #: landed here. None: the record's own.
    asked: str | None = None
    #: The answer given, checked against the copy this capture answers with.
    answer: CheckedAnswer | None = None

    @property
    def record_path(self) -> Path:
        """The record's file (meaningful for the local library)."""
        return Path(self.record_location)

    @property
    def verdict(self) -> str:
        return self.record.verdict

    @property
    def url(self) -> str:
        """The URL this capture answers for: the one asked."""
        return self.asked or self.record.url

    @property
    def page_exit_code(self) -> int:
        """The copy's own code (its verdict's), whatever the answer."""
        return exit_code_for(self.record.verdict, self.record.reason)

    @property
    def exit_code(self) -> int:
        """The copy's code; for a copy read, the answer check's (10 a quotation not on the
        page, 11 nothing checked)."""
        code = self.page_exit_code
        if code == ExitCode.OK and self.answer is not None:
            return self.answer.exit_code
        return code

    def to_json(self) -> dict[str, Any]:
        r = self.record
        out: dict[str, Any] = {
            "url": self.url, "final_url": r.final_url, "verdict": r.verdict, "reason": r.reason,
            "wall": r.wall, "detail": r.detail, "rule": r.rule, "http_status": r.http_status,
            "bytes": r.bytes, "bytes_sha256": r.bytes_sha256, "text_sha256": r.text_sha256,
            "truncated": r.truncated, "text_from_prefix": r.text_from_prefix,
            "javascript_executed": r.javascript_executed,
            "record_id": r.record_id, "record_path": self.record_location,
            "fetched_at": r.fetched_at, "reused": self.reused,
        }
        if self.reused:
            out["record_url"] = r.url  # the copy reused is that URL's capture
        if self.answer is not None:
            out["answer_check"] = self.answer.check
        if r.policy_exemption:
            out["policy_exemption"] = r.policy_exemption
        if r.probe is not None:
            out["probe"] = r.probe
        if r.second_reading is not None:
            out["second_reading"] = r.second_reading
        return out


def capture(url: str, options: CaptureOptions = CaptureOptions(),
            library: Library | None = None, *, resolver: Resolver | None = None) -> CaptureResult:
    """Fetch ``url`` again, safely; keep what came back; decide whether it was a read.

    Without ``library`` the library is found (:meth:`Library.locate`), used and closed."""
    try:
        deadline = Deadline.after(options.timeout)  # the capture's total deadline
    except ValueError:
        raise UsageError(f"--timeout takes a finite number of seconds, not {options.timeout}",
                         reason="bad_timeout") from None
    if library is None:
        with Library.locate() as lib:
            return capture(url, options, lib, resolver=resolver)
    lib = library
    _check_bounds(options)
    pins = _pins(options.resolve)
    try:
        target = check_url(url)
    except RefusedError as exc:
        _skip(lib, url, exc, options)
        raise
    allow = AllowHosts.from_env().including(options.allow_hosts)
    guard = AddressGuard(allow=allow, resolver=resolver or SystemResolver(), pins=pins)
    try:
        # The address rule runs before any politeness step: a refused URL spends no slot
        # and is never answered from a copy held. The answer is kept for the fetch.
        resolved = guard.precheck(target.host, target.port, deadline)
    except RefusedError as exc:
        exc.url = exc.url or target.url  # the guard judges an address; the error names the URL
        _skip(lib, target.url, exc, options)
        raise
    if not options.now:
        held = politeness.recent_copy(lib, target.url)
        if held is not None:
            return _reuse(lib, target, held, options)
    try:
        # A name that does not resolve reaches no server: no robots.txt to ask, no pace to
        # keep. The fetch meets the same failure and records it (FAILED, dns).
        if not options.now and resolved:
            politeness.check_session_cap(lib, options.session_id)
            crawl_delay = _robots(lib, target, guard, deadline)
            # Waiting for the host's turn, another capture of this URL may have been made:
            # the dedup window is looked at again, and a copy made meanwhile answers.
            held, waited = politeness.turn_or_copy(
                lib, target, politeness.PolitenessOptions(wait=options.wait), crawl_delay,
                on_wait=_waiting(options, target.host))
            if held is not None:
                return _reuse(lib, target, held, options)
            # Waiting for the host's turn is --wait's time, not the network's.
            deadline = deadline.later_by(waited)
    except (RefusedError, DeclinedError) as exc:
        _skip(lib, target.url, exc, options)
        raise
    except FetchTimeout as exc:  # robots.txt used up the capture's deadline
        return _store_failure(lib, target, exc, guard, options, utc_now(), {})
    if options.now or not resolved:
        return _fetch_and_store(lib, target, guard, options, deadline)
    # Another capture of this URL whose turn came first may still be fetching it: its copy
    # answers this one too, rather than a second request (politeness.claimed_fetch).
    with politeness.claimed_fetch(lib, target.url, deadline.remaining(),
                                  options.wait) as (held, waited):
        if held is not None:
            return _reuse(lib, target, held, options)
        return _fetch_and_store(lib, target, guard, options, deadline.later_by(waited))


def _waiting(options: CaptureOptions, host: str) -> Callable[[float], None] | None:
    tell = options.on_phase
    if tell is None:
        return None
    return lambda seconds: tell(f"waiting {seconds:.1f} s for {host}'s turn (readreceipt "
                                "paces its requests to each host)")


def _check_bounds(options: CaptureOptions) -> None:
    """A wait and a size cap are finite and positive (the CLI parses them so; this guards
    every other caller; the deadline checks the timeout)."""
    if not (math.isfinite(options.wait) and options.wait >= 0):
        raise UsageError(f"the wait must be a number of seconds, not {options.wait!r}",
                         reason="bad_wait")
    if options.max_bytes < 1:
        raise UsageError(f"the size cap must be at least 1 byte, not {options.max_bytes!r}",
                         reason="bad_max_bytes")


def _pins(specs: tuple[str, ...]) -> dict[tuple[str, int], str]:
    pins: dict[tuple[str, int], str] = {}
    for spec in specs:
        try:
            host, port, addr = parse_pin(spec)
        except ValueError as exc:
            raise UsageError(str(exc), reason="bad_resolve") from None
        pins[(host, port)] = addr
    return pins


def _robots(lib: Library, target: PolicyURL, guard: AddressGuard,
            deadline: Deadline) -> float | None:
    """robots.txt verdict for ``target``; DeclinedError when disallowed. Crawl-delay back."""
    delay = robots.admit(lib, target, guard, deadline)
    return float(delay) if delay is not None else None


def _fetch_and_store(lib: Library, target: PolicyURL, guard: AddressGuard,
                     options: CaptureOptions, deadline: Deadline) -> CaptureResult:
    timings: dict[str, float] = {}
    fetched_at = utc_now()
    t0 = time.perf_counter()
    fetch_options = FetchOptions(timeout=options.timeout, max_bytes=options.max_bytes)
    try:
        fetched = fetch(target, guard, fetch_options, deadline)
    except RefusedDuringFetch as exc:
        refused = _named_step(target, exc)
        # The skip log keeps the hops' URLs and statuses only: the refused Location is in
        # its ``url``, in the one form a refused URL may be written down.
        _skip(lib, refused.url or target.url, refused, options,
              chain=[{"url": h.url, "status": h.status} for h in refused.chain])
        if refused is exc:
            raise
        raise refused from exc
    except FetchError as exc:
        timings["fetch"] = time.perf_counter() - t0
        return _store_failure(lib, target, exc, guard, options, fetched_at, timings)
    timings["fetch"] = time.perf_counter() - t0
    # The bytes are written (and fsynced) in a writer thread while they are read below;
    # the record waits for them (Library.save_new).
    early_body = fetched.body if options.keep == "all" and fetched.body else None
    putting = [lib.put_bytes_soon(early_body)] if early_body is not None else []

    t1 = time.perf_counter()
    extraction = extract(fetched.body, fetched.content_type, fetched.charset,
                         seconds=deadline.remaining())
    timings["extract"] = time.perf_counter() - t1
    # The texts are written under temp names while the page is judged; they take their
    # names with the record (or are thrown away if a rendering replaces them).
    staged = (lib.stage_texts_soon([extraction.main_text, extraction.page_text])
              if early_body is not None and (extraction.main_text or extraction.page_text)
              else [])
    try:
        return _judge_and_store(lib, target, guard, options, deadline, fetched, extraction,
                                fetched_at, timings, putting, early_body, staged)
    except BaseException:
        lib.discard_staged(staged)
        raise


def _judge_and_store(lib: Library, target: PolicyURL, guard: AddressGuard,
                     options: CaptureOptions, deadline: Deadline, fetched: FetchResult,
                     extraction: Extraction, fetched_at: str, timings: dict[str, float],
                     putting: list[Future[str]], early_body: bytes | None,
                     staged: list[Future[StagedBlob]]) -> CaptureResult:
    t2 = time.perf_counter()
    verdict = _judge_within(fetched, extraction, deadline)
    timings["verdict"] = time.perf_counter() - t2

    rendering: Rendering | None = None
    static_body: bytes | None = None
    discarded: tuple[dict[str, str], ...] = ()
    if verdict.reason == "js_shell" and options.render:
        if options.on_phase is not None:
            options.on_phase("the page builds itself with JavaScript: rendering it in a browser")
        try:
            rendering = _render(target, guard, options, deadline)
        except ReadReceiptError as exc:  # rendering discarded; the static capture stands
            verdict = Verdict(verdict.verdict, verdict.reason, verdict.wall, verdict.rule,
                              f"{verdict.detail}; {exc}")
            discarded = exc.blocked_requests  # what it was refused is evidence all the same
        if rendering is not None:
            # The record describes the rendered DOM and its final URL; the server's own bytes
            # stay evidence too, kept under static_bytes_sha256.
            static_body = fetched.body
            fetched, extraction = rendering.fetched, rendering.extraction
            verdict = _judge_within(fetched, extraction, deadline)
            timings["render"] = rendering.elapsed
            lib.discard_staged(staged)  # the static texts are not the record's
            staged = []

    verdict, probe = _soft404_probe(lib, target, guard, options, fetched, extraction, verdict,
                                    deadline)

    verdict = _answer_agreement(options, extraction, verdict)

    t3 = time.perf_counter()
    record_id = new_record_id()
    checked = _check_answer(options, Copy.fresh(record_id, target.url, fetched_at, extraction,
                                                fetched, verdict,
                                                in_record=options.record_answer), deadline)
    keep = options.keep == "all" or (options.keep == "flagged" and checked is not None
                                     and checked.outcome == "not_found")
    record, texts = _build_record(lib, record_id, target, fetched, extraction, verdict, guard,
                                  options, fetched_at, keep, rendering, static_body,
                                  _answer_fields(options, checked), putting, early_body)
    if probe is not None:
        record = record.replace(probe=probe)
    if discarded and rendering is None:
        record = record.replace(blocked_requests=discarded)
    record = lib.save_new(record, texts=[] if staged else texts, staged=staged,
                          pending=putting)
    path = lib.record_location(record.record_id)
    _record_answer(lib, checked, options)
    timings["store"] = time.perf_counter() - t3
    return CaptureResult(record, path, False, timings, answer=checked)


def _judge_within(fetched: FetchResult, extraction: Extraction, deadline: Deadline) -> Verdict:
    """The verdict, judged inside the capture's deadline: reading and judging spend it as the
    network does (their work is linear and capped; this bounds what is left of it)."""
    try:
        deadline.check()
        return judge(fetched, extraction, deadline)
    except FetchTimeout:
        return over_deadline(deadline)


def _soft404_probe(lib: Library, target: PolicyURL, guard: AddressGuard,
                   options: CaptureOptions, fetched: FetchResult, extraction: Extraction,
                   verdict: Verdict, deadline: Deadline) -> tuple[Verdict, dict[str, Any] | None]:
    """Ask the host for a missing path when the page is suspected of being its not-found
    page (never under --now); the verdict after the comparison, and what the record says."""
    if options.now:
        return verdict, None
    suspicion = probe_wanted(fetched, extraction, verdict)
    if suspicion is None:
        return verdict, None
    from readreceipt.fetching.probe import probe_origin
    from readreceipt.reading.soft404 import compare

    row, cached = probe_origin(
        lib, target, guard, deadline,
        lambda answer: extract(answer.body, answer.content_type, answer.charset).page_text)
    comparison = compare(extraction.page_text, fetched.url, fetched.final_url, row.status,
                         row.text or "", row.url, row.final_url,
                         extraction.main_text if suspicion.startswith(SHORT_SUSPICION) else None)
    record = {"url": row.url, "status": row.status, "final_url": row.final_url,
              "text_sha256": row.text_sha256,
              "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row.fetched_at)),
              "cached": cached, "failure": row.failure, "suspicion": suspicion,
              "resemblance": (round(comparison.resemblance, 3)
                              if comparison.resemblance is not None else None),
              "outcome": comparison.outcome if row.failure is None else "not_made",
              "why": comparison.why if row.failure is None else f"no probe: {row.failure}"}
    return after_probe(verdict, comparison, suspicion, fetched, extraction), record


def _render(target: PolicyURL, guard: AddressGuard, options: CaptureOptions,
            deadline: Deadline) -> Rendering | None:
    from readreceipt.browser import render  # imported here: only a JavaScript shell needs a browser

    return render.render_page(target, guard, deadline=deadline, max_bytes=options.max_bytes)


def _build_record(lib: Library, record_id: str, target: PolicyURL, fetched: FetchResult,
                  extraction: Extraction, verdict: Verdict, guard: AddressGuard,
                  options: CaptureOptions, fetched_at: str, keep: bool,
                  rendering: Rendering | None, static_body: bytes | None,
                  answer_fields: dict[str, Any], putting: list[Future[str]],
                  early_body: bytes | None) -> tuple[Record, list[str]]:
    """The record, and the texts to keep with it (Library.save_new writes them). Bytes to
    keep that are not being written yet (``early_body`` is) are begun here, into
    ``putting``."""
    body_digest = _sha_bytes(fetched.body)
    if keep and fetched.body and fetched.body is not early_body:
        putting.append(lib.put_bytes_soon(fetched.body))
    static_digest = None
    if static_body:
        static_digest = _sha_bytes(static_body)
        if keep and static_body is not early_body:
            putting.append(lib.put_bytes_soon(static_body))
    text_digest = page_digest = None
    texts: list[str] = []
    if extraction.main_text or extraction.page_text:
        text_digest, page_digest = _sha(extraction.main_text), _sha(extraction.page_text)
        if keep:
            texts = [extraction.main_text, extraction.page_text]
    record = Record(
        record_id=record_id,
        url=target.url,
        final_url=fetched.final_url,
        redirect_chain=tuple(h.to_dict() for h in fetched.redirect_chain),
        fetched_at=fetched_at,
        http_status=fetched.status,
        http_version=fetched.http_version or None,
        content_type=fetched.content_type or None,
        charset=extraction.charset or fetched.charset,
        bytes=len(fetched.body),
        bytes_sha256=body_digest,
        bytes_kept=keep and bool(fetched.body),
        truncated=fetched.truncated,
        text_from_prefix=extraction.from_prefix,
        text_sha256=text_digest,
        page_text_sha256=page_digest,
        text_chars=len(extraction.main_text),
        extractor=extraction.extractor,
        rendering_method=rendering.rendering_method if rendering else "none",
        javascript_executed=rendering.javascript_executed if rendering else False,
        browser=rendering.browser if rendering else None,
        static_bytes_sha256=static_digest,
        blocked_requests=tuple(b.to_dict() for b in rendering.blocked_requests)
        if rendering else (),
        response_headers=safe_headers(fetched.headers, fetched.final_url),
        peer_address=fetched.peer_address,
        user_agent=USER_AGENT,
        verdict=verdict.verdict,
        reason=verdict.reason,
        wall=verdict.wall,
        rule=verdict.rule,
        detail=verdict.detail,
        session_id=options.session_id,
        agent_id=options.agent_id,
        prompt=options.prompt,
        policy_exemption=_exemption(guard),
        title=extraction.title,
        second_reading=(extraction.second_reading.to_dict(extraction.first_extractor
                                                          or extraction.extractor)
                        if extraction.second_reading is not None else None),
        **answer_fields,
    )
    return record, texts


def _sha(text: str) -> str:
    return _sha_bytes(text.encode("utf-8"))


def _sha_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _exemption(guard: AddressGuard) -> str | None:
    if not guard.exemptions_used:
        return None
    pairs = ", ".join(sorted(guard.exemptions_used))
    return f"READRECEIPT_ALLOW_HOSTS exempted {pairs} from the private-address rule"


def _store_failure(lib: Library, target: PolicyURL, exc: FetchError, guard: AddressGuard,
                   options: CaptureOptions, fetched_at: str,
                   timings: dict[str, float]) -> CaptureResult:
    verdict = failed(exc.reason, str(exc))
    record_id = new_record_id()
    checked = _check_answer(options, Copy.fresh(record_id, target.url, fetched_at, None, None,
                                                verdict, in_record=options.record_answer))
    record = Record(
        record_id=record_id, url=target.url, final_url=exc.url or target.url,
        fetched_at=fetched_at, user_agent=USER_AGENT, verdict=verdict.verdict,
        reason=verdict.reason, rule=verdict.rule, detail=verdict.detail,
        session_id=options.session_id, agent_id=options.agent_id, prompt=options.prompt,
        policy_exemption=_exemption(guard),
        **_answer_fields(options, checked),
    )
    record = lib.save_new(record)
    path = lib.record_location(record.record_id)
    _record_answer(lib, checked, options)
    return CaptureResult(record, path, False, timings, answer=checked)


def _answer_agreement(options: CaptureOptions, extraction: Extraction,
                      verdict: Verdict) -> Verdict:
    """The verdict once the answer given is set against the copy (reading/agreement.py): a
    short copy holding none of an answer's specifics is not the page the agent read."""
    if options.answer is None:
        return verdict
    from readreceipt.reading.agreement import agreement

    agreed = agreement(options.answer, extraction.main_text, extraction.page_text)
    return after_answer(verdict, agreed, extraction.main_text)


def _check_answer(options: CaptureOptions, copy: Copy,
                  deadline: Deadline | None = None) -> CheckedAnswer | None:
    """The answer given, checked against the copy this capture answers with (the one place
    of :mod:`readreceipt.quotes.answers`), inside the capture's ``deadline``; None without an
    answer."""
    if options.answer is None:
        return None
    from readreceipt.quotes.answers import check

    return check(options.answer, options.prompt or "", [copy], deadline=deadline)


def _answer_fields(options: CaptureOptions, checked: CheckedAnswer | None) -> dict[str, Any]:
    """The record's answer fields: the check, when this capture writes it down."""
    if checked is None or not options.record_answer:
        return {}
    return checked.record_fields()


def _record_answer(lib: Library, checked: CheckedAnswer | None,
                   options: CaptureOptions) -> None:
    """Write the check down (an answer check for a copy reused; the flags), once the copy's
    record is stored."""
    if checked is None or not options.record_answer:
        return
    from readreceipt.quotes.answerlog import record

    record(lib, checked, options.session_id, options.agent_id)


def _reuse(lib: Library, target: PolicyURL, held: Record,
           options: CaptureOptions) -> CaptureResult:
    """Answer from the copy held (fetched within the dedup window, or while this capture
    waited for its host's turn); no request made. The answer given is checked against it;
    the copy's own earlier checks are not this capture's."""
    checked = None
    if options.answer is not None:
        from readreceipt.quotes.answerlog import held_copy

        checked = _check_answer(options, held_copy(lib, held))
        _record_answer(lib, checked, options)
    return CaptureResult(held, lib.record_location(held.record_id), True, {},
                         asked=target.url, answer=checked)


def _named_step(target: PolicyURL, exc: RefusedDuringFetch) -> RefusedDuringFetch:
    """The refusal of a redirect's hop, saying what the hop was when the words of its
    address name a sign-in step (reading/redirects.py, ``route_kind``): a sign-in request is
    refused for its ``state`` or ``code``, and that the page needs a sign-in is what the
    reader needs to know. The refused URL arrives without its query (the one form it may
    be written down in), so only its path is read, and nothing is added but a path."""
    if not exc.chain or exc.url is None or route_kind(exc.url) != "login":
        return exc
    path = urlsplit(exc.url).path[:80]
    return RefusedDuringFetch(f"{exc}; the address asked for was redirected to {path}, "
                              "by its address a sign-in step: the page may need a sign-in",
                              url=exc.url, reason=exc.reason, chain=exc.chain)


def _skip(lib: Library, url: str, exc: ReadReceiptError, options: CaptureOptions,
          chain: list[dict[str, Any]] | None = None) -> None:
    entry: dict[str, Any] = {
        "url": _loggable_url(url, exc), "rule": exc.reason, "message": str(exc),
        "kind": "refused" if isinstance(exc, RefusedError) else "declined",
        "session_id": options.session_id, "agent_id": options.agent_id,
    }
    if chain:
        entry["redirect_chain"] = chain
    try:
        lib.log("skipped.jsonl", entry)
    except ReadReceiptError:
        log.warning("could not write skipped.jsonl", exc_info=True)


def _loggable_url(url: str, exc: ReadReceiptError) -> str:
    """The URL as it may be written down: without its query when that held a credential."""
    from readreceipt.fetching.credentials import loggable_url

    return loggable_url(url, exc.reason)
