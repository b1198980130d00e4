"""``readreceipt-hook``: Claude Code hooks that make a read receipt of every WebFetch.

Three modes, each registered by ``readreceipt hook install``:

``capture`` (PostToolUse and PostToolUseFailure, matcher WebFetch)
    Reads the payload (at most :data:`MAX_PAYLOAD` bytes), forks a detached worker that owns
    it, and returns 0 at once, printing nothing. The worker
    (:mod:`readreceipt.agents.hookworker`) captures the URL, checks the answer against the page and
    writes everything down; every failure there is one line of ``skipped.jsonl``.
``report`` (PostToolUse, every tool)
    Where this session (or, for a subagent, this agent) has flags nobody was told about,
    prints them once as ``hookSpecificOutput.additionalContext``; otherwise prints nothing.
``guard`` (optional PreToolUse, matcher WebFetch)
    Denies WebFetch with a reason that points the agent at ``readreceipt fetch URL``.

Invariants: the hook never fails a session (every mode exits 0, whatever the input) and
never blocks on a fetch; the capture mode's path to its exit imports only the standard
library (``os`` and ``sys`` here; ``readreceipt/__init__`` is lazy) and starts no second
interpreter where ``os.fork`` exists; ``report`` looks into the library's index read-only
(:mod:`readreceipt.store.discovery` and :mod:`readreceipt.store.sqlite`, both standard
library only) and imports the rest of readreceipt only when there is something to tell. This
module never imports the CLI and speaks no SQL itself.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: importing typing costs the fast path (see __init__)
if TYPE_CHECKING:
    from pathlib import Path

#: The most of a payload read. A WebFetch payload is a URL, a prompt and a model's answer:
#: tens of kilobytes at most. Anything larger is not one, and is skipped, not parsed.
MAX_PAYLOAD = 4 * 1024 * 1024

#: Run the worker in the hook's own process, for tests and debugging; the hook then returns
#: only when the capture is written.
FOREGROUND_ENV = "READRECEIPT_HOOK_FOREGROUND"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    mode = args[0] if args else ""
    try:
        if mode == "capture":
            _capture()
        elif mode == "report":
            _report()
        elif mode == "guard":
            _guard()
    except BaseException:  # a hook must never fail the session it serves
        return 0
    return 0


def read_payload() -> tuple[bytes, bool]:
    """The payload's bytes (at most MAX_PAYLOAD) and whether there was more."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return b"", False
    try:
        data: bytes = stream.read(MAX_PAYLOAD + 1)
    except (OSError, ValueError):
        return b"", False
    return data[:MAX_PAYLOAD], len(data) > MAX_PAYLOAD


# ---------------------------------------------------------------------------------- capture


def _capture() -> None:
    data, oversize = read_payload()
    if os.environ.get(FOREGROUND_ENV) == "1":
        _work(data, oversize)
        return
    if not hasattr(os, "fork"):
        _spawn(data, oversize)
        return
    try:
        pid = os.fork()
    except OSError:  # no room for a process now: a worker interpreter may still start
        _spawn(data, oversize)
        return
    if pid != 0:
        # The parent: the session goes on at once. Nothing was printed, so there is nothing
        # to flush, and the interpreter's teardown is skipped.
        os._exit(0)
    # The child: out of the hook's session and process group, holding none of its pipes, so
    # Claude Code sees the hook end now and a timeout that kills the group cannot reach it;
    # and at a lower priority, so its imports do not compete with the session it serves.
    try:
        os.setsid()
        os.nice(10)
        _detach_streams()
        _work(data, oversize)
    finally:
        os._exit(0)


def _detach_streams() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 65536)


def _work(data: bytes, oversize: bool) -> None:
    from readreceipt.agents import hookworker

    hookworker.run(data, oversize=oversize)


def _spawn(data: bytes, oversize: bool) -> None:
    """Where there is no fork: hand the payload to a worker interpreter over a pipe."""
    import subprocess

    argv = [sys.executable, "-m", "readreceipt.agents.hookworker"]
    if oversize:
        argv.append("--oversize")
    flags = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) | getattr(
        subprocess, "DETACHED_PROCESS", 0)
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, creationflags=flags,
                            start_new_session=hasattr(os, "setsid"))
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.close()


# ----------------------------------------------------------------------------------- report


def _payload_object(data: bytes) -> dict[str, object] | None:
    import json

    try:
        payload = json.loads(data)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def library_folder(payload: dict[str, object]) -> Path | None:
    """The library's folder, if a library exists: $READRECEIPT_LIBRARY, else the nearest
    above the payload's ``cwd`` (see :mod:`readreceipt.store.discovery`)."""
    from pathlib import Path

    from readreceipt.store import discovery

    cwd = payload.get("cwd")
    start = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else None
    return discovery.find(start)


def _text(payload: dict[str, object], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def _has_unreported(folder: Path, session_id: str, agent_id: str | None) -> bool:
    """A read-only look: is there anything to tell? (The common answer is no.)"""
    from readreceipt.store.discovery import INDEX_FILENAME
    from readreceipt.store.sqlite import SQLiteIndex

    index = SQLiteIndex.peek(folder / INDEX_FILENAME)
    try:
        return index.has_unreported_flags(session_id, agent_id)
    finally:
        index.close()


def _report() -> None:
    data, oversize = read_payload()
    payload = None if oversize else _payload_object(data)
    if payload is None:
        return
    session_id = _text(payload, "session_id")
    agent_id = _text(payload, "agent_id")
    folder = library_folder(payload)
    if session_id is None or folder is None or not _has_unreported(folder, session_id,
                                                                   agent_id):
        return
    from readreceipt.agents import hookworker

    context = hookworker.report(folder, session_id, agent_id)
    if context:
        _print_json({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                            "additionalContext": context}})


def _print_json(obj: dict[str, object]) -> None:
    import json

    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


# ------------------------------------------------------------------------------------ guard


def guard_reason(url: str | None) -> str:
    """Why WebFetch was denied, and what to run instead."""
    import shlex

    target = shlex.quote(url) if url else "URL"
    return ("readreceipt's guard stops WebFetch: it hands you another model's summary of the "
            "page, not the page's words. When you need the page's exact words, run "
            f"`readreceipt fetch {target}` and read the file it names (it also says whether "
            "the page was really read).")


def _guard() -> None:
    data, oversize = read_payload()
    payload = None if oversize else _payload_object(data)
    if payload is None or payload.get("tool_name") != "WebFetch":
        return
    tool_input = payload.get("tool_input")
    url = tool_input.get("url") if isinstance(tool_input, dict) else None
    _print_json({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": guard_reason(url if isinstance(url, str) else None)}})
