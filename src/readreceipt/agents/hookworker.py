"""The hook's worker: one agent's payload in, captures (or skipped lines) and checks out.

``readreceipt-hook capture`` (and ``after``, when the call fetched) forks this off and
returns; nobody waits for it. The agent's dialect (:mod:`readreceipt.agents.dialects`) reads
the payload into :class:`~readreceipt.agents.fetchcalls.FetchCall` values; each URL is
captured by :func:`readreceipt.pipeline.capture` -- with the session and agent ids, the prompt
and, for a call that read one page, the fetch tool's answer (checked against the page) --
waiting up to :data:`HOST_WAIT` seconds for the host's turn, and the record gains what the
agent's own fetch reported (status, bytes, error). An answer about several pages is checked
against all of them, as ``capture URL URL... --answer`` checks one
(:func:`readreceipt.quotes.answerlog.check_across`). Every page captured is marked as
read by the session (:func:`readreceipt.store.sessionmarks.add_page`), for the check of the
agent's final answer. ``answer`` workers (Cursor's afterAgentResponse) check that answer.
Telling the agent is :mod:`.hookreport`'s part.

A worker's life is bounded: at most :data:`HOST_WAIT` seconds waiting for each host's turn,
then each capture's total deadline of :data:`TIMEOUT` seconds (``READRECEIPT_HOOK_TIMEOUT``
sets another) for all its network work -- the name lookup, robots.txt, the page and its
redirects, a rendering -- after which the capture is recorded FAILED ``timeout``; then the
time to read what came back, which the size cap bounds. A call names at most
:data:`~readreceipt.agents.fetchcalls.MAX_URLS` URLs.

Invariants: :func:`run` never raises and never prints; every URL that does not become a
capture is one line of ``skipped.jsonl`` (refusals and declines are written by capture
itself): of the library already there, else of the hook's own per-user folder, so a payload
that names no capture (empty, not JSON, no URL) never makes a library; the answer is never
kept, only its digest.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from readreceipt.agents import dialects
from readreceipt.agents.fetchcalls import FetchCall, Skip
from readreceipt.errors import DeclinedError, ReadReceiptError, RefusedError
from readreceipt.fetching.credentials import loggable_url
from readreceipt.fetching.transport import DEFAULT_TIMEOUT
from readreceipt.pipeline import KEEP_CHOICES, CaptureOptions, CaptureResult, capture
from readreceipt.quotes.answerlog import check_across
from readreceipt.quotes.answers import CheckedAnswer
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

__all__ = ["HOST_WAIT", "KEEP_ENV", "TIMEOUT", "TIMEOUT_ENV", "Skip", "keep_setting", "main",
           "parse", "run", "timeout_setting"]


def run(data: bytes, *, oversize: bool = False, agent: str = dialects.DEFAULT,
        kind: str = "fetch") -> None:
    """Capture what one hook payload names (``kind`` ``fetch``), or check the answer it
    hands over (``answer``). Never raises."""
    payload: Any = None
    lib: Library | None = None
    dialect = dialects.load(agent) or dialects.load(dialects.DEFAULT)
    assert dialect is not None
    where: dict[str, Any] = {}
    try:
        payload = parse(data, oversize)
        where = _where(dialect, payload)
        # What the payload asks is read before any library is opened: a payload that names
        # no capture and hands over no answer makes no library (its skipped line goes to one
        # already there, else to the hook's own folder).
        if kind == "answer":
            message, prompt, session_id = _answer_of(dialect, payload)
            lib = _library(dialect.cwd(payload))
            from readreceipt.agents.answercheck import check_answer

            check_answer(lib, session_id, dialect.agent(payload), message, prompt)
        else:
            calls = dialect.fetches(payload)
            if calls:
                lib = _library(dialect.cwd(payload))
            for call in calls:
                assert lib is not None
                _captures(lib, call)
    except Skip as skip:
        _skipped(lib, where, skip.rule, str(skip))
    except UnsafeFolder as exc:  # no library of this user's own to write to
        _skipped(lib, where, "hook_unsafe_library", str(exc))
    except ReadReceiptError as exc:
        _skipped(lib, where, f"hook_{exc.reason}", str(exc))
    except Exception as exc:  # the worker's last line of defence: write it down, never raise
        log.debug("hook worker failed", exc_info=True)
        _skipped(lib, where, "hook_error", f"{type(exc).__name__}: {exc}")
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


def _where(dialect: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """Who a skipped line is about: the session, the agent, the first URL named."""
    url = None
    try:
        calls = dialect.fetches(payload)
        url = calls[0].urls[0] if calls and calls[0].urls else None
    except Exception:  # the payload names no URL; the run says why
        url = _claimed_url(payload)
    return {"session_id": dialect.session(payload), "agent_id": dialect.agent(payload),
            "url": url, "cwd": dialect.cwd(payload)}


def _claimed_url(payload: dict[str, Any]) -> str | None:
    tool_input = payload.get("tool_input")
    url = tool_input.get("url") if isinstance(tool_input, dict) else None
    return url if isinstance(url, str) and url else None


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


def _library(cwd: Any, *, create: bool = True) -> Library:
    start = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else None
    # a detached worker: nobody reads its stderr
    return Library.locate(cwd=start, create=create, watched=False)


def _captures(lib: Library, call: FetchCall) -> None:
    """Capture every URL of one call; an answer about several pages is checked against all
    of them once they are captured."""
    single = len(call.urls) == 1
    checks: list[CheckedAnswer] = []
    for url in call.urls:
        try:
            result = _capture(lib, call, url, single)
        except (RefusedError, DeclinedError):
            continue  # capture wrote its own skipped line, with the rule that fired
        except ReadReceiptError as exc:
            _skipped(lib, {"session_id": call.session_id, "agent_id": call.agent_id,
                           "url": url}, f"hook_{exc.reason}", str(exc))
            continue
        if result.answer is not None:
            checks.append(result.answer)
    if not single:
        check_across(lib, checks, call.session_id, call.agent_id)


def _capture(lib: Library, call: FetchCall, url: str, single: bool) -> CaptureResult:
    """One URL of the call: the answer is checked against its page and written down when
    it is the call's only page, else checked and left for the check across the pages."""
    options = CaptureOptions(wait=HOST_WAIT, timeout=timeout_setting(),
                             session_id=call.session_id, agent_id=call.agent_id,
                             prompt=call.prompt, answer=call.answer, keep=keep_setting(),
                             record_answer=single)
    result = capture(url, options, lib)
    record = result.record
    if not result.reused:
        lib.save(record.replace(extra={**record.extra, "agent_fetch": call.agent_fetch()}))
    if call.session_id:
        sessionmarks.add_page(call.session_id, record.record_id)
    return result


def _answer_of(dialect: Any, payload: dict[str, Any]) -> tuple[str, str | None, str]:
    """The answer an ``answer`` payload hands over, its prompt and its session."""
    message, prompt = dialect.final_message(payload)
    session_id = dialect.session(payload)
    if not message or not session_id:
        raise Skip("hook_no_answer", "the payload hands over no answer of a session")
    return message, prompt, session_id


def _skipped(lib: Library | None, where: dict[str, Any], rule: str, message: str) -> None:
    """One line of skipped.jsonl; in a per-user fallback file when no library opens."""
    url = where.get("url")
    url = url[:2048] if isinstance(url, str) and url else None
    entry = {
        # As the URL policy lets a URL be written down: this one passed no policy, and its
        # query, its authority or its path may hold a credential. Never its query at all.
        "url": loggable_url(url.split("#", 1)[0].split("?", 1)[0]) if url else None,
        "rule": rule, "message": message[:2000], "kind": "hook",
        "session_id": _cut(where.get("session_id")), "agent_id": _cut(where.get("agent_id")),
    }
    try:
        if lib is not None:
            lib.log("skipped.jsonl", entry)
        else:  # a library already there; a skip never makes one
            with _library(where.get("cwd"), create=False) as opened:
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


def _cut(value: Any) -> str | None:
    return value[:200] if isinstance(value, str) and value else None


def main() -> None:
    """``python -m readreceipt.agents.hookworker``: the worker where the hook cannot fork."""
    args = sys.argv[1:]
    agent = args[args.index("--agent") + 1] if "--agent" in args[:-1] else dialects.DEFAULT
    kind = args[args.index("--kind") + 1] if "--kind" in args[:-1] else "fetch"
    dialect = dialects.load(agent) or dialects.load(dialects.DEFAULT)
    mark = sessionmarks.pending_mark(os.getpid())
    try:
        data = sys.stdin.buffer.read()
        try:
            payload = json.loads(data)
            session = dialect.session(payload) if dialect and isinstance(payload, dict) else None
        except (ValueError, RecursionError):
            session = None
        sessionmarks.name_pending(mark, session)
        run(data, oversize="--oversize" in args, agent=agent, kind=kind)
    finally:
        sessionmarks.end_pending(mark)


if __name__ == "__main__":
    main()
