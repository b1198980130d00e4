"""``readreceipt-hook``: coding agents' hooks that make a read receipt of every page fetched.

``readreceipt-hook MODE [--agent NAME]``; the agent's payloads are read, and its replies
written, by its dialect (:mod:`readreceipt.agents.dialects`: claude, the default, gemini,
codex, cursor, cline, copilot). Modes, each registered by ``readreceipt hook install``:

``capture`` (Claude Code: PostToolUse and PostToolUseFailure, matcher WebFetch)
    Reads the payload (at most :data:`MAX_PAYLOAD` bytes), forks a detached worker that owns
    it, leaves a pending mark for it (:mod:`readreceipt.store.sessionmarks`) and returns 0 at
    once, printing nothing. The worker (:mod:`readreceipt.agents.hookworker`) captures the
    URL, checks the answer against the page and writes everything down; every failure there
    is one line of ``skipped.jsonl``.
``report`` (Claude Code: PostToolUse, every tool)
    Where this session (or, for a subagent, this agent) has flags nobody was told about,
    prints them once in the agent's after-a-tool shape; otherwise prints nothing.
``after`` (the other agents: after every tool call)
    ``capture`` when the call fetched a page (the dialect says), then ``report``: one hook
    entry instead of two, for agents with one hook per event or no per-tool matcher.
``answer`` (Cursor: afterAgentResponse)
    Forks a worker that checks the agent's answer against the pages the session read; the
    stop that follows tells what it found.
``stop`` (Stop, SubagentStop, AfterAgent, agentStop, TaskComplete...)
    Waits, at most :data:`STOP_WAIT` seconds, for the session's pending captures; when the
    agent hands over its final answer, checks it against the pages the session read; when a
    quoted passage is not on its page and nobody was told, keeps the agent from stopping
    (the dialect's block, deny or follow-up) so it corrects its answer before the user reads
    it. Never when the agent is already going on because of a stop hook, so never twice in a
    row.
``guard`` (Claude Code, optional PreToolUse, matcher WebFetch)
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
    from types import ModuleType

#: The most of a payload read. A fetch payload is a URL, a prompt and a model's answer:
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

#: The modes, and the agents each is for (None: every agent).
MODES = {"capture": None, "report": None, "after": None, "answer": None, "stop": None,
         "guard": ("claude",)}


def arguments(args: list[str]) -> tuple[str, str]:
    """(mode, agent) from ``MODE [--agent NAME]`` (``--agent=NAME`` too)."""
    mode = args[0] if args else ""
    agent = "claude"
    rest = args[1:]
    for i, word in enumerate(rest):
        if word == "--agent" and i + 1 < len(rest):
            agent = rest[i + 1]
        elif word.startswith("--agent="):
            agent = word[len("--agent="):]
    return mode, agent


USAGE = """\
usage: readreceipt-hook MODE [--agent NAME]   (an agent's hook payload on stdin)

Claude Code (the default agent):
  capture  PostToolUse, PostToolUseFailure (WebFetch): capture the URL again and check the
           fetch tool's answer against the page, in a detached worker; returns at once
  report   PostToolUse (every tool): tell the agent once of quoted passages not on their page
  stop     Stop, SubagentStop: block the stop once when such a passage was not told
  guard    PreToolUse (WebFetch, with `hook install --guard`): deny WebFetch, pointing at
           `readreceipt fetch URL`

Other agents (--agent gemini, codex, cursor, cline, copilot):
  after    after a tool call: capture each page a fetch named, then tell what was found
  answer   after the agent's reply (Cursor): check it against the pages the session read
  stop     at the agent's stop: check its final answer; hold the stop once on a bad passage

`readreceipt hook install [--agent NAME]` writes these into the agent's settings. Every mode
exits 0 and prints only what the agent reads. READRECEIPT_HOOK_FOREGROUND=1 runs the capture
in this process, to watch it. More: docs/cli.md (readreceipt-hook) and the README.
"""

def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    mode, agent = arguments(args)
    if mode in ("-h", "--help", "help") or not args:
        # A person at the command line, not an agent (which always names a mode): the usage,
        # on stdout when asked for, else on stderr; exit 0, as every hook run does. A mode this
        # copy does not know (a newer settings file's) prints nothing.
        (sys.stdout if args else sys.stderr).write(USAGE)
        return 0
    try:
        from readreceipt.agents import dialects

        dialect = dialects.load(agent)
        allowed = MODES.get(mode, ())
        if dialect is not None and (allowed is None or (allowed and agent in allowed)):
            _RUN[mode](dialect)
    except BaseException:  # a hook must never fail the session it serves
        return 0
    if argv is None:
        # The console script: what was printed is flushed; the interpreter's teardown is
        # skipped, as the agent waits for the process to end.
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
        at_a_terminal = os.isatty(0)
    except OSError:
        at_a_terminal = False
    if at_a_terminal:  # a person ran it by hand: say what it waits for (agents pipe it)
        mode = sys.argv[1] if len(sys.argv) > 1 else "MODE"
        sys.stderr.write(f"readreceipt-hook {mode}: waiting for a hook payload "
                         "(JSON) on stdin; end it with Ctrl-D (readreceipt-hook --help)\n")
        sys.stderr.flush()
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
    except (StopIteration, ValueError, RecursionError, SystemError):
        # SystemError: the C scanner's error path for some malformed text (it reports
        # returning NULL without an exception set); the text is not a payload either way.
        return None
    if text[end:].strip(" \t\n\r"):
        return None
    return value if isinstance(value, dict) else None


def _read() -> tuple[bytes, bool, dict[str, object] | None]:
    data, oversize = read_payload()
    return data, oversize, None if oversize else parse_object(data)


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


def _print_json(obj: dict[str, object] | None) -> None:
    if obj is None:
        return
    sys.stdout.write(_dumps(obj) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------------- workers


def _capture(dialect: ModuleType) -> None:
    data, oversize = read_payload()
    if _start_worker(data, oversize, dialect, "fetch"):
        # The parent of a detached worker: nothing was printed, so the teardown is skipped.
        os._exit(0)


def _start_worker(data: bytes, oversize: bool, dialect: ModuleType, kind: str) -> bool:
    """Hand the payload to a worker of ``kind`` (``fetch`` or ``answer``) that nobody waits
    for; True in the hook's own process when the worker was forked off."""
    if os.environ.get(FOREGROUND_ENV) == "1":
        _work(data, oversize, dialect.NAME, kind)
        return False
    if not hasattr(os, "fork"):
        _spawn(data, oversize, dialect.NAME, kind)
        return False
    try:
        ready, told = os.pipe()
        pid = os.fork()
    except OSError:  # no room for a process now: a worker interpreter may still start
        _spawn(data, oversize, dialect.NAME, kind)
        return False
    if pid != 0:
        # The parent: wait until the worker has left this process group (a harness that
        # kills the hook's group the moment the hook exits killed 29 % of the workers while
        # they were still in it), mark it pending (the stop hook waits for it), and let the
        # session go on.
        os.close(told)
        os.read(ready, 1)  # one byte, or nothing if the worker died first
        os.close(ready)
        from readreceipt.store import sessionmarks

        sessionmarks.pending_mark(pid)
        return True
    # The child: its own session before anything else (so a kill of the hook's group cannot
    # reach it), then say so; let go of the hook's pipes (the agent waits until they close)
    # and lower its priority, so its imports do not compete with the session.
    try:
        os.setsid()
        os.write(told, b"s")
        os.close(told)
        os.close(ready)
        _detach_streams()
        os.nice(10)
        _work_marked(data, oversize, os.getpid(), dialect, kind)
    finally:
        os._exit(0)


def _detach_streams() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 65536)


def _work_marked(data: bytes, oversize: bool, pid: int, dialect: ModuleType,
                 kind: str) -> None:
    """The worker's run, its pending mark named with the session and removed at the end."""
    from readreceipt.store import sessionmarks

    mark = sessionmarks.pending_mark(pid)
    try:
        payload = None if oversize else parse_object(data)
        sessionmarks.name_pending(mark, dialect.session(payload) if payload else None)
        _work(data, oversize, dialect.NAME, kind)
    finally:
        sessionmarks.end_pending(mark)


def _work(data: bytes, oversize: bool, agent: str, kind: str) -> None:
    from readreceipt.agents import hookworker

    hookworker.run(data, oversize=oversize, agent=agent, kind=kind)


def _spawn(data: bytes, oversize: bool, agent: str, kind: str) -> None:
    """Where there is no fork: hand the payload to a worker interpreter over a pipe."""
    import subprocess

    argv = [sys.executable, "-m", "readreceipt.agents.hookworker", "--agent", agent,
            "--kind", kind]
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


def library_folder(cwd: object) -> Path | None:
    """The library's folder, if a library exists: $READRECEIPT_LIBRARY, else the nearest
    above ``cwd`` (the payload's working folder; see :mod:`readreceipt.store.discovery`)."""
    from pathlib import Path

    from readreceipt.store import discovery

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


def _untold(payload: dict[str, object], dialect: ModuleType
            ) -> tuple[Path | None, str, str | None] | None:
    """(library, session, agent) when this agent may have flags to be told; else None. The
    library is None for a team library the environment alone names."""
    session_id = dialect.session(payload)
    if session_id is None:
        return None
    from readreceipt.store import sessionmarks

    if not sessionmarks.may_have_flags(session_id):
        return None
    agent_id = dialect.agent(payload)
    folder = library_folder(dialect.cwd(payload))
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


def _tell(payload: dict[str, object] | None, dialect: ModuleType) -> None:
    """Print this agent's untold flags in its after-a-tool shape (or its quiet reply)."""
    found = _untold(payload, dialect) if payload is not None else None
    context = ""
    if found is not None:
        from readreceipt.agents import hookreport

        context = hookreport.report(*found)
    _print_json(dialect.after_reply(context) if context else dialect.QUIET)


def _report(dialect: ModuleType) -> None:
    _tell(_read()[2], dialect)


def _after(dialect: ModuleType) -> None:
    data, oversize, payload = _read()
    if payload is not None and dialect.is_fetch(payload):
        _start_worker(data, oversize, dialect, "fetch")
    _tell(payload, dialect)


def _checkable(payload: dict[str, object], dialect: ModuleType) -> bool:
    """Does the payload hand over an answer to check against the session's pages, and did
    the session read any? A look at the payload and one mark, no library."""
    message, _ = dialect.final_message(payload)
    session_id = dialect.session(payload)
    if message is None or session_id is None:
        return False
    from readreceipt.store import sessionmarks

    return sessionmarks.has_pages(session_id)


def _answer(dialect: ModuleType) -> None:
    data, oversize, payload = _read()
    if payload is not None and _checkable(payload, dialect):
        _start_worker(data, oversize, dialect, "answer")
    _print_json(dialect.QUIET)


def stop_wait() -> float:
    """Seconds the stop hook waits: $READRECEIPT_STOP_WAIT within [0, 30], else 5."""
    try:
        value = float(os.environ.get(STOP_WAIT_ENV, STOP_WAIT))
    except ValueError:
        return STOP_WAIT
    return min(max(value, 0.0), STOP_WAIT_MAX) if value == value else STOP_WAIT


def _stop(dialect: ModuleType) -> None:
    _, _, payload = _read()
    session_id = dialect.session(payload) if payload is not None else None
    if payload is None or session_id is None or dialect.stop_active(payload):
        _print_json(dialect.QUIET)  # never block twice in a row
        return
    from readreceipt.store import sessionmarks

    sessionmarks.wait_for_pending(session_id, stop_wait())
    if _checkable(payload, dialect):
        from readreceipt.agents import answercheck

        message, prompt = dialect.final_message(payload)
        answercheck.check_final(dialect.cwd(payload), session_id, dialect.agent(payload),
                                message or "", prompt)
    found = _untold(payload, dialect) if dialect.CAN_STOP else None
    reason = ""
    if found is not None:
        from readreceipt.agents import hookreport

        reason = hookreport.stop_reason(*found)
    _print_json(dialect.stop_reply(reason) if reason else dialect.QUIET)


# ------------------------------------------------------------------------------------ guard


#: The longest URL readreceipt fetches (the URL policy's MAX_URL_CHARS, written here because
#: the guard answers without importing a stage; tests/test_hook_stop.py holds the two equal).
GUARD_URL_CHARS = 2048


def shell_safe_url(url: str, limit: int = GUARD_URL_CHARS) -> str:
    """``url`` with every character that could end a quotation, start a tag or hide in a
    terminal percent-encoded: safe between single quotes in a shell, and in a message."""
    out = []
    url = url[:limit]
    authority = url.find("://") + 3 if "://" in url else -1
    # Where the authority ends (an IPv6 literal's brackets are kept there, and only there):
    # found once, where asking it of every character cost the square of the URL's length.
    ends = min((at for at in (url.find(c, authority) for c in "/?#") if at >= 0),
               default=len(url)) if authority > 0 else -1
    for i, ch in enumerate(url):
        code = ord(ch)
        in_authority = authority <= i < ends
        if 0x21 <= code <= 0x7E and ch not in "<>\"'`\\{}|^" and (
                ch not in "[]" or in_authority):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def guard_reason(url: str | None) -> str:
    """Why WebFetch was denied, and what to run instead."""
    # A URL longer than readreceipt fetches is not suggested cut short: the command would
    # fetch another page.
    target = f"'{shell_safe_url(url)}'" if url and len(url) <= GUARD_URL_CHARS else "URL"
    return ("readreceipt's guard stops WebFetch: it hands you another model's summary of the "
            "page, not the page's words. When you need the page's exact words, run "
            f"`readreceipt fetch {target}` and read the file it names (it also says whether "
            "the page was really read).")


def _guard(dialect: ModuleType) -> None:
    _, _, payload = _read()
    if payload is None or payload.get("tool_name") != "WebFetch":
        return
    tool_input = payload.get("tool_input")
    url = tool_input.get("url") if isinstance(tool_input, dict) else None
    _print_json({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": guard_reason(url if isinstance(url, str) else None)}})


_RUN = {"capture": _capture, "report": _report, "after": _after, "answer": _answer,
        "stop": _stop, "guard": _guard}


if __name__ == "__main__":  # python -m readreceipt.agents.hook MODE (see hook install --command)
    main()
