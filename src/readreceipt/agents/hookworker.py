"""The hook's worker: one WebFetch payload in, one capture (or one skipped line) out.

``readreceipt-hook capture`` forks this off and returns; nobody waits for it. It maps the
payload to :func:`readreceipt.pipeline.capture` -- the URL, the session and agent ids, the
prompt and the fetch tool's answer (checked against the page) -- waiting up to
:data:`HOST_WAIT` seconds for the host's turn, and adds to the record what the agent's own
fetch reported (status, bytes, error). Telling the agent is :mod:`.hookreport`'s part.

A worker's life is bounded: at most :data:`HOST_WAIT` seconds waiting for the host's turn,
then the capture's total deadline of :data:`TIMEOUT` seconds (``READRECEIPT_HOOK_TIMEOUT``
sets another) for all its network work -- the name lookup, robots.txt, the page and its
redirects, a rendering -- after which the capture is recorded FAILED ``timeout``; then the
time to read what came back, which the size cap bounds.

Invariants: :func:`run` never raises and never prints; every payload that does not become a
capture is one line of ``skipped.jsonl`` (refusals and declines are written by capture
itself); the answer is never kept, only its digest.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from readreceipt.errors import DeclinedError, ReadReceiptError, RefusedError
from readreceipt.fetching.credentials import loggable_url
from readreceipt.fetching.transport import DEFAULT_TIMEOUT
from readreceipt.pipeline import KEEP_CHOICES, CaptureOptions, capture
from readreceipt.store import sessionmarks
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.local import jsonlog
from readreceipt.store.ownership import UnsafeFolder

log = logging.getLogger(__name__)

#: How long a worker waits for its host's turn. Nobody waits on the worker, so a page fetched
#: right after another from the same host is captured a little late rather than lost; past
#: this the capture is declined (a skipped line), as a worker minutes behind its session has
#: stopped being a by-product of it.
HOST_WAIT = 30.0
KEEP_ENV = "READRECEIPT_KEEP"
#: The capture's total deadline for its network work, as ``capture --timeout``.
TIMEOUT = DEFAULT_TIMEOUT
TIMEOUT_ENV = "READRECEIPT_HOOK_TIMEOUT"

#: WebFetch's answer when a URL redirects to another host: a notice naming the new URL and
#: repeating the prompt, not an answer about any page. Its quoted URL and prompt must not be
#: checked as quotations, so the notice is recognised and recorded instead.
_REDIRECT_NOTICE_MARKS = ("REDIRECT DETECTED", "redirects to a different host")

_TEXT_LIMIT = 2000  # the most of a fetch tool's error kept in the record


class Skip(Exception):
    """A payload that will not become a capture, and the rule that says so."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class Job:
    url: str
    session_id: str | None
    agent_id: str | None
    prompt: str | None
    answer: str | None
    cwd: str | None
    agent_fetch: dict[str, Any]


def run(data: bytes, *, oversize: bool = False) -> None:
    """Capture what one hook payload names. Never raises."""
    payload: Any = None
    lib: Library | None = None
    try:
        payload = parse(data, oversize)
        lib = _library(payload.get("cwd"))
        job = job_from_payload(payload)
        _capture(lib, job)
    except Skip as skip:
        _skipped(lib, payload, skip.rule, str(skip))
    except UnsafeFolder as exc:  # no library of this user's own to write to
        _skipped(lib, payload, "hook_unsafe_library", str(exc))
    except (RefusedError, DeclinedError):
        pass  # capture wrote its own skipped line, with the rule that fired
    except ReadReceiptError as exc:
        _skipped(lib, payload, f"hook_{exc.reason}", str(exc))
    except Exception as exc:  # the worker's last line of defence: write it down, never raise
        log.debug("hook worker failed", exc_info=True)
        _skipped(lib, payload, "hook_error", f"{type(exc).__name__}: {exc}")
    finally:
        if lib is not None:
            lib.close()


def parse(data: bytes, oversize: bool) -> dict[str, Any]:
    if oversize:
        raise Skip("hook_payload_too_large",
                   f"the hook payload is larger than {len(data)} bytes; not read")
    if not data.strip():
        raise Skip("hook_payload_empty", "the hook payload was empty")
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):
        raise Skip("hook_payload_not_json", "the hook payload is not JSON") from None
    if not isinstance(payload, dict):
        raise Skip("hook_payload_not_object",
                   f"the hook payload is JSON {type(payload).__name__}, not an object")
    return payload


def _str(value: Any, limit: int | None = None) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    return value[:limit] if limit else value


def job_from_payload(payload: dict[str, Any]) -> Job:
    """What to capture, from a PostToolUse or PostToolUseFailure payload for WebFetch."""
    tool = payload.get("tool_name")
    if tool is not None and tool != "WebFetch":
        raise Skip("hook_not_webfetch", f"the hook was called for {str(tool)[:80]!r}, "
                   "not WebFetch")
    tool_input = payload.get("tool_input")
    url = _str(tool_input.get("url")) if isinstance(tool_input, dict) else None
    if url is None:
        raise Skip("hook_no_url", "the payload's tool_input has no url string")
    prompt = _str(tool_input.get("prompt")) if isinstance(tool_input, dict) else None
    event = _str(payload.get("hook_event_name")) or "PostToolUse"
    response = payload.get("tool_response")
    fetch_info: dict[str, Any] = {"tool": "WebFetch", "event": event,
                                  "tool_use_id": _str(payload.get("tool_use_id"), 200)}
    answer: str | None = None
    if isinstance(response, dict):
        answer = _str(response.get("result"))
        for key, name in (("code", "status"), ("bytes", "bytes"), ("durationMs", "duration_ms")):
            if isinstance(response.get(key), int) and not isinstance(response.get(key), bool):
                fetch_info[name] = response[key]
    elif isinstance(response, str):
        answer = _str(response)
    error = payload.get("error")
    if event == "PostToolUseFailure" or error is not None:
        answer = None  # a failed fetch answered nothing; the URL is still worth a receipt
        fetch_info["error"] = (error if isinstance(error, str) else json.dumps(error))[
            :_TEXT_LIMIT]
    if answer is not None and any(mark in answer for mark in _REDIRECT_NOTICE_MARKS):
        fetch_info["redirect_notice"] = True
        answer = None
    return Job(url=url, session_id=_str(payload.get("session_id"), 200),
               agent_id=_str(payload.get("agent_id"), 200), prompt=prompt, answer=answer,
               cwd=_str(payload.get("cwd")), agent_fetch=fetch_info)


def keep_setting() -> str:
    value = os.environ.get(KEEP_ENV, "all").strip().lower()
    return value if value in KEEP_CHOICES else "all"


def timeout_setting() -> float:
    """:data:`TIMEOUT`, or ``READRECEIPT_HOOK_TIMEOUT`` when it is a number in (0, TIMEOUT]."""
    try:
        value = float(os.environ.get(TIMEOUT_ENV, ""))
    except ValueError:
        return TIMEOUT
    return value if 0 < value <= TIMEOUT else TIMEOUT


def _library(cwd: Any) -> Library:
    start = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else None
    return Library.locate(cwd=start, watched=False)  # a detached worker: nobody reads its stderr


def _capture(lib: Library, job: Job) -> None:
    options = CaptureOptions(wait=HOST_WAIT, timeout=timeout_setting(),
                             session_id=job.session_id, agent_id=job.agent_id,
                             prompt=job.prompt, answer=job.answer, keep=keep_setting())
    result = capture(job.url, options, lib)
    if not result.reused:
        record = result.record
        lib.save(record.replace(extra={**record.extra, "agent_fetch": job.agent_fetch}))


def _skipped(lib: Library | None, payload: Any, rule: str, message: str) -> None:
    """One line of skipped.jsonl; in a per-user fallback file when no library opens."""
    info = payload if isinstance(payload, dict) else {}
    tool_input = info.get("tool_input")
    url = _str(tool_input.get("url"), 2048) if isinstance(tool_input, dict) else None
    entry = {
        # As the URL policy lets a URL be written down: this one passed no policy, and its
        # query, its authority or its path may hold a credential. Never its query at all.
        "url": loggable_url(url.split("#", 1)[0].split("?", 1)[0]) if url else None,
        "rule": rule, "message": message[:_TEXT_LIMIT], "kind": "hook",
        "session_id": _str(info.get("session_id"), 200),
        "agent_id": _str(info.get("agent_id"), 200),
    }
    try:
        if lib is not None:
            lib.log("skipped.jsonl", entry)
        else:
            with _library(info.get("cwd")) as opened:
                opened.log("skipped.jsonl", entry)
        return
    except Exception:  # no library: fall back to a file that always opens
        log.debug("no library for a skipped line", exc_info=True)
    try:
        # Only the hook's own folder, when this user controls it: a link or a folder planted
        # there by another user would receive the line (then nowhere is left to write).
        folder = sessionmarks.folder()
        if folder is not None:
            jsonlog.append(Path(folder) / "skipped.jsonl", {"at": utc_now(), **entry})
    except Exception:  # nowhere left to write; a hook still never fails
        log.debug("could not write the fallback skipped line", exc_info=True)


def main() -> None:
    """``python -m readreceipt.agents.hookworker``: the worker where the hook cannot fork."""
    mark = sessionmarks.pending_mark(os.getpid())
    try:
        data = sys.stdin.buffer.read()
        try:
            session = json.loads(data).get("session_id")
        except (ValueError, AttributeError, RecursionError):
            session = None
        sessionmarks.name_pending(mark, session if isinstance(session, str) else None)
        run(data, oversize="--oversize" in sys.argv[1:])
    finally:
        sessionmarks.end_pending(mark)


if __name__ == "__main__":
    main()
