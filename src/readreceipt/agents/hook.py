"""``readreceipt-hook``: Claude Code hooks that make a read receipt of every WebFetch.

Four modes, each registered by ``readreceipt hook install``:

``capture`` (PostToolUse and PostToolUseFailure, matcher WebFetch)
    Reads the payload (at most :data:`MAX_PAYLOAD` bytes), forks a detached worker that owns
    it, leaves a pending mark for it (:mod:`readreceipt.store.sessionmarks`) and returns 0 at
    once, printing nothing. The worker (:mod:`readreceipt.agents.hookworker`) captures the
    URL, checks the answer against the page and writes everything down; every failure there
    is one line of ``skipped.jsonl``.
``report`` (PostToolUse, every tool)
    Where this session (or, for a subagent, this agent) has flags nobody was told about,
    prints them once as ``hookSpecificOutput.additionalContext``; otherwise prints nothing.
``stop`` (Stop and SubagentStop)
    Waits, at most :data:`STOP_WAIT` seconds, for the session's pending captures; when one
    of them found a quoted passage that is not on its page and nobody was told, blocks the
    stop (``{"decision": "block", "reason": ...}``) so the agent corrects its answer before
    the user reads it. Never blocks when the payload says ``stop_hook_active`` (the agent is
    already continuing because of a stop hook), so it never blocks twice in a row.
``guard`` (optional PreToolUse, matcher WebFetch)
    Denies WebFetch with a reason that points the agent at ``readreceipt fetch URL``.

Invariants: the hook never fails a session (every mode exits 0, whatever the input) and
never blocks on a fetch (``stop`` waits for its own session's captures, boundedly). Each
mode's path with nothing to tell imports only the standard library, and of it neither
:mod:`json` nor :mod:`re` nor :mod:`pathlib` (each costs more than the mode's work): the
payload is read with the C scanner behind :mod:`json`, and whether there is anything to tell
is a file's existence (:mod:`readreceipt.store.sessionmarks`). Only then does ``report`` or
``stop`` find the library and ask its index. ``capture`` starts no second interpreter where
``os.fork`` exists. This module never imports the CLI and speaks no SQL itself. Everything
shown to the agent that came from a page or an answer is fenced and marked
(:mod:`readreceipt.agents.fence`).
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

#: Seconds the stop hook waits for the session's pending captures. A capture of a page that
#: answers takes a second or two; one still waiting for its host's turn is not waited out,
#: and its flag, if any, is told at the next tool call instead.
STOP_WAIT = 5.0
STOP_WAIT_ENV = "READRECEIPT_STOP_WAIT"
STOP_WAIT_MAX = 30.0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    mode = args[0] if args else ""
    try:
        if mode == "capture":
            _capture()
        elif mode == "report":
            _report()
        elif mode == "stop":
            _stop()
        elif mode == "guard":
            _guard()
    except BaseException:  # a hook must never fail the session it serves
        return 0
    if argv is None:
        # The console script: what was printed is flushed; the interpreter's teardown is
        # skipped, as Claude Code waits for the process to end.
        try:
            sys.stdout.flush()
        finally:
            os._exit(0)
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


class _ScannerContext:
    """What the C scanner behind :mod:`json` reads from a decoder (json.decoder's defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity


def parse_object(data: bytes) -> dict[str, object] | None:
    """The payload as a JSON object, or None. :mod:`json` itself imports :mod:`re`, which
    alone costs more than a quick mode's work; its C scanner does not."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        import _json

        scan = _json.make_scanner(_ScannerContext())  # type: ignore[arg-type] # duck-typed
        value, end = scan(text, start)
    except ImportError:  # an interpreter without the C accelerator
        import json

        try:
            value, end = json.JSONDecoder().raw_decode(text, start)
        except ValueError:
            return None
    except (StopIteration, ValueError, RecursionError):
        return None
    if text[end:].strip(" \t\n\r"):
        return None
    return value if isinstance(value, dict) else None


def _text(payload: dict[str, object], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def _dumps(value: object) -> str:
    """JSON for the few shapes a hook prints (objects, strings, booleans), ASCII only."""
    import _json

    if isinstance(value, dict):
        return "{" + ", ".join(f"{_dumps(str(k))}: {_dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text: str = _json.encode_basestring_ascii(value)
        return text
    if value is None:
        return "null"
    return str(int(value)) if isinstance(value, int) else _dumps(str(value))


def _print_json(obj: dict[str, object]) -> None:
    sys.stdout.write(_dumps(obj) + "\n")
    sys.stdout.flush()


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
        ready, told = os.pipe()
        pid = os.fork()
    except OSError:  # no room for a process now: a worker interpreter may still start
        _spawn(data, oversize)
        return
    if pid != 0:
        # The parent: wait until the worker has left this process group (a harness that
        # kills the hook's group the moment the hook exits killed 29 % of the workers while
        # they were still in it), mark it pending (the stop hook waits for it), and let the
        # session go on. Nothing was printed, so the teardown is skipped.
        os.close(told)
        os.read(ready, 1)  # one byte, or nothing if the worker died first
        from readreceipt.store import sessionmarks

        sessionmarks.pending_mark(pid)
        os._exit(0)
    # The child: its own session before anything else (so a kill of the hook's group cannot
    # reach it), then say so; let go of the hook's pipes (Claude Code waits until they
    # close) and lower its priority, so its imports do not compete with the session.
    try:
        os.setsid()
        os.write(told, b"s")
        os.close(told)
        os.close(ready)
        _detach_streams()
        os.nice(10)
        _work_marked(data, oversize, os.getpid())
    finally:
        os._exit(0)


def _detach_streams() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 65536)


def _work_marked(data: bytes, oversize: bool, pid: int) -> None:
    """The worker's run, its pending mark named with the session and removed at the end."""
    from readreceipt.store import sessionmarks

    mark = sessionmarks.pending_mark(pid)
    try:
        payload = None if oversize else parse_object(data)
        sessionmarks.name_pending(mark, _text(payload, "session_id") if payload else None)
        _work(data, oversize)
    finally:
        sessionmarks.end_pending(mark)


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
    from readreceipt.store import sessionmarks

    sessionmarks.pending_mark(proc.pid)
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.close()


# ------------------------------------------------------------------------ report and stop


def library_folder(payload: dict[str, object]) -> Path | None:
    """The library's folder, if a library exists: $READRECEIPT_LIBRARY, else the nearest
    above the payload's ``cwd`` (see :mod:`readreceipt.store.discovery`)."""
    from pathlib import Path

    from readreceipt.store import discovery

    cwd = payload.get("cwd")
    start = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else None
    return discovery.find(start)


def _has_unreported(folder: Path, session_id: str, agent_id: str | None) -> bool:
    """A read-only look: is there anything to tell this agent? Keeps the session's mark
    true: it is cleared when nothing at all is left, and set again if a flag came meanwhile."""
    from readreceipt.store import sessionmarks
    from readreceipt.store.discovery import INDEX_FILENAME
    from readreceipt.store.local.sqlite import SQLiteIndex

    index = SQLiteIndex.peek(folder / INDEX_FILENAME)
    try:
        if index.has_unreported_flags(session_id, agent_id):
            return True
        if agent_id is None:
            sessionmarks.clear_flags(session_id)
            if index.has_unreported_flags(session_id, None):
                sessionmarks.mark_flags(session_id)
        return False
    finally:
        index.close()


def _untold(payload: dict[str, object]) -> tuple[Path | None, str, str | None] | None:
    """(library, session, agent) when this agent may have flags to be told; else None. The
    library is None for a team library the environment alone names."""
    session_id = _text(payload, "session_id")
    if session_id is None:
        return None
    from readreceipt.store import sessionmarks

    if not sessionmarks.may_have_flags(session_id):
        return None
    agent_id = _text(payload, "agent_id")
    folder = library_folder(payload)
    if _names_a_team(folder):
        # A team library's flags are in its database: past the session's mark, only the
        # report itself (which claims them there) can tell.
        return folder, session_id, agent_id
    if folder is None or not _has_unreported(folder, session_id, agent_id):
        return None
    return folder, session_id, agent_id


def _names_a_team(folder: Path | None) -> bool:
    """Is the library a team library (:mod:`readreceipt.store.team.config`)? Asked of the
    environment and the folder's config.toml only, so the quick look stays light."""
    if os.environ.get("READRECEIPT_INDEX_URL") or os.environ.get("READRECEIPT_BLOBS_URL"):
        return True
    from readreceipt.store.discovery import CONFIG_FILENAME

    return folder is not None and (folder / CONFIG_FILENAME).is_file()


def _report() -> None:
    data, oversize = read_payload()
    payload = None if oversize else parse_object(data)
    found = _untold(payload) if payload is not None else None
    if found is None:
        return
    from readreceipt.agents import hookreport

    context = hookreport.report(*found)
    if context:
        _print_json({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                            "additionalContext": context}})


def stop_wait() -> float:
    """Seconds the stop hook waits: $READRECEIPT_STOP_WAIT within [0, 30], else 5."""
    try:
        value = float(os.environ.get(STOP_WAIT_ENV, STOP_WAIT))
    except ValueError:
        return STOP_WAIT
    return min(max(value, 0.0), STOP_WAIT_MAX) if value == value else STOP_WAIT


def _stop() -> None:
    data, oversize = read_payload()
    payload = None if oversize else parse_object(data)
    if payload is None or payload.get("stop_hook_active") is True:
        return  # never block twice in a row
    session_id = _text(payload, "session_id")
    if session_id is None:
        return
    from readreceipt.store import sessionmarks

    sessionmarks.wait_for_pending(session_id, stop_wait())
    found = _untold(payload)
    if found is None:
        return
    from readreceipt.agents import hookreport

    reason = hookreport.stop_reason(*found)
    if reason:
        _print_json({"decision": "block", "reason": reason})


# ------------------------------------------------------------------------------------ guard


def shell_safe_url(url: str, limit: int = 2048) -> str:
    """``url`` with every character that could end a quotation, start a tag or hide in a
    terminal percent-encoded: safe between single quotes in a shell, and in a message."""
    out = []
    authority = url.find("://") + 3 if "://" in url else -1
    for i, ch in enumerate(url[:limit]):
        code = ord(ch)
        in_authority = authority > 0 and i >= authority and all(
            c not in "/?#" for c in url[authority:i])
        if 0x21 <= code <= 0x7E and ch not in "<>\"'`\\{}|^" and (
                ch not in "[]" or in_authority):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def guard_reason(url: str | None) -> str:
    """Why WebFetch was denied, and what to run instead."""
    target = f"'{shell_safe_url(url)}'" if url else "URL"
    return ("readreceipt's guard stops WebFetch: it hands you another model's summary of the "
            "page, not the page's words. When you need the page's exact words, run "
            f"`readreceipt fetch {target}` and read the file it names (it also says whether "
            "the page was really read).")


def _guard() -> None:
    data, oversize = read_payload()
    payload = None if oversize else parse_object(data)
    if payload is None or payload.get("tool_name") != "WebFetch":
        return
    tool_input = payload.get("tool_input")
    url = tool_input.get("url") if isinstance(tool_input, dict) else None
    _print_json({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": guard_reason(url if isinstance(url, str) else None)}})


if __name__ == "__main__":  # python -m readreceipt.agents.hook MODE (see hook install --command)
    main()
