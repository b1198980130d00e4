"""``readreceipt-hook`` through the real console script, with payloads of the real shapes.

Most tests run the worker in the hook's own process (READRECEIPT_HOOK_FOREGROUND=1) so that
nothing outlives a test; the detached path is tested on its own, waiting (boundedly) for the
worker's record.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import BIN, CliResult, LocalServer, article_html, clean_env, reply, run_cli
from readreceipt.store.library import Library

SESSION = "5f3c1d2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f"
PROMPT = "What did the chief engineer say at the reopening of the bridge?"
MISQUOTE = ('The chief engineer said: "We did not make the bridge stronger, we made it far '
            'more rigid" at the reopening.')
pytestmark = pytest.mark.usefixtures("own_marks_folder")

GOOD_QUOTE = ('The page says "Engineers replaced 212 of the bridge\'s 480 bearings with '
              'lead-rubber isolators".')


def webfetch(url: str, result: str = GOOD_QUOTE, *, session: str = SESSION,
             agent: str | None = None, cwd: str | None = None, prompt: str = PROMPT,
             event: str = "PostToolUse") -> dict[str, Any]:
    """A PostToolUse payload for WebFetch, as Claude Code sends it."""
    payload: dict[str, Any] = {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/p/{session}.jsonl",
        "cwd": cwd or os.getcwd(),
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_name": "WebFetch",
        "tool_input": {"url": url, "prompt": prompt},
        "tool_response": {"bytes": 5210, "code": 200, "codeText": "OK", "result": result,
                          "durationMs": 2311, "url": url},
        "tool_use_id": "toolu_01ABCDEF",
    }
    if agent is not None:
        payload["agent_id"] = agent
        payload["agent_type"] = "general-purpose"
    return payload


def other_tool(*, session: str = SESSION, agent: str | None = None,
               cwd: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd or os.getcwd(),
        "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a\nb", "stderr": "",
                                                           "interrupted": False},
        "tool_use_id": "toolu_02",
    }
    if agent is not None:
        payload["agent_id"] = agent
    return payload


def hook(mode: str, payload: Any, library: Path | None, *, allow: str | None = None,
         foreground: bool = True, env: dict[str, str] | None = None) -> CliResult:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    extra = {"READRECEIPT_HOOK_FOREGROUND": "1"} if foreground else {}
    return run_cli(mode, script="readreceipt-hook", input=data, library=library, allow=allow,
                   env={**extra, **(env or {})}, timeout=60)


def records(library: Path) -> list[dict[str, Any]]:
    out = []
    for path in sorted((library / "records").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        out.append(data)
    return out


def skipped(library: Path) -> list[dict[str, Any]]:
    path = library / "skipped.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def silent(out: CliResult) -> bool:
    return out.code == 0 and out.stdout == "" and out.stderr == ""


@pytest.fixture
def article(server: LocalServer) -> str:
    return server.route("/bridge", article_html())


# --- capture ----------------------------------------------------------------------------


def test_a_webfetch_is_captured_and_its_answer_checked(article: str, server: LocalServer,
                                                       library_dir: Path) -> None:
    out = hook("capture", webfetch(article), library_dir, allow=server.pair)
    assert silent(out), out
    [record] = records(library_dir)
    assert record["url"] == article and record["verdict"] == "RETRIEVED"
    assert record["session_id"] == SESSION and record["agent_id"] is None
    assert record["prompt"] == PROMPT
    assert record["answer_check"]["outcome"] == "found"
    assert "answer" not in record and record["answer_chars"] == len(GOOD_QUOTE)
    assert record["agent_fetch"]["status"] == 200 and record["agent_fetch"]["bytes"] == 5210
    assert record["bytes_kept"] is True
    assert not (library_dir / "flags.jsonl").exists()


def test_a_misquote_is_flagged_and_reported_once(article: str, server: LocalServer,
                                                 library_dir: Path) -> None:
    assert silent(hook("capture", webfetch(article, MISQUOTE), library_dir, allow=server.pair))
    [flag] = [json.loads(x) for x in (library_dir / "flags.jsonl").read_text().splitlines()]
    assert flag["passage"].startswith("We did not make the bridge stronger")
    first = hook("report", other_tool(), library_dir)
    assert first.code == 0 and first.stderr == ""
    output = json.loads(first.stdout)
    context = output["hookSpecificOutput"]["additionalContext"]
    assert output["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert "We did not make the bridge stronger, we made it far more rigid" in context
    assert "the nearest passage on the page says" in context  # what the page does say
    assert "we made it more" in context
    assert article in context
    assert silent(hook("report", other_tool(), library_dir))  # told once
    with sqlite3.connect(library_dir / "index.db") as conn:
        assert conn.execute("SELECT reported_to FROM flags").fetchall() == [("main",)]


def test_a_cross_host_redirect_notice_is_not_checked_as_an_answer(
        server: LocalServer, library_dir: Path) -> None:
    server.route("/new", article_html())
    old = server.route("/old", "", status=301, headers={"Location": server.url("/new")})
    target = "https://docs.other-host.example/guides/bridges/retrofit-overview"
    notice = (
        "REDIRECT DETECTED: The URL redirects to a different host.\n\n"
        f"Original URL: {old}\nRedirect URL: {target}\nStatus: 301 Moved Permanently\n\n"
        "To complete your request, I need to fetch content from the redirected URL. Please "
        "use WebFetch again with these parameters:\n"
        f'- url: "{target}"\n- prompt: "{PROMPT}"')
    out = hook("capture", webfetch(old, notice), library_dir, allow=server.pair)
    assert silent(out)
    [record] = records(library_dir)
    assert record["agent_fetch"]["redirect_notice"] is True
    assert record["answer_check"] is None
    assert not (library_dir / "flags.jsonl").exists()
    assert silent(hook("report", other_tool(), library_dir))


def test_a_failed_fetch_is_still_captured(article: str, server: LocalServer,
                                          library_dir: Path) -> None:
    payload = {
        "session_id": SESSION, "transcript_path": "/tmp/t.jsonl", "cwd": os.getcwd(),
        "permission_mode": "default", "hook_event_name": "PostToolUseFailure",
        "tool_name": "WebFetch", "tool_input": {"url": article, "prompt": PROMPT},
        "tool_use_id": "toolu_03", "error": "Request failed with status code 403",
        "is_interrupt": False,
    }
    assert silent(hook("capture", payload, library_dir, allow=server.pair))
    [record] = records(library_dir)
    assert record["verdict"] == "RETRIEVED"  # readreceipt's own fetch got through
    assert record["agent_fetch"]["event"] == "PostToolUseFailure"
    assert record["agent_fetch"]["error"] == "Request failed with status code 403"
    assert record["answer_check"] is None


def test_a_subagents_fetch_is_recorded_with_its_agent(article: str, server: LocalServer,
                                                      library_dir: Path) -> None:
    payload = webfetch(article, MISQUOTE, agent="a1b2c3")
    assert silent(hook("capture", payload, library_dir, allow=server.pair))
    [record] = records(library_dir)
    assert (record["session_id"], record["agent_id"]) == (SESSION, "a1b2c3")
    [flag] = [json.loads(x) for x in (library_dir / "flags.jsonl").read_text().splitlines()]
    assert flag["agent_id"] == "a1b2c3"


MALFORMED: dict[str, bytes] = {
    "empty": b"",
    "not json": b"{this is not json",
    "a list": b"[1, 2, 3]",
    "null": b"null",
    "a string": b'"WebFetch"',
    "url not a string": json.dumps({"session_id": SESSION, "tool_name": "WebFetch",
                                    "tool_input": {"url": 42, "prompt": None}}).encode(),
    "tool_input a string": json.dumps({"session_id": SESSION, "tool_name": "WebFetch",
                                       "tool_input": "https://example.test/"}).encode(),
    "wrong types everywhere": json.dumps({
        "session_id": ["x"], "agent_id": {"a": 1}, "cwd": 7, "tool_name": "WebFetch",
        "hook_event_name": 3, "tool_input": {"url": "http://10.0.0.9/", "prompt": 5},
        "tool_response": [1, 2]}).encode(),
    "another tool": json.dumps(other_tool()).encode(),
    "not utf-8": b"\xff\xfe\x00garbage",
    "6 MiB": json.dumps({"session_id": SESSION, "tool_name": "WebFetch",
                         "tool_input": {"url": "https://example.test/", "prompt": "x"},
                         "tool_response": {"result": "y" * (6 * 1024 * 1024)}}).encode(),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_payloads_never_fail_and_are_written_down(name: str,
                                                            library_dir: Path) -> None:
    Library.open(library_dir).close()  # a skip is written to a library there, never makes one
    for mode in ("capture", "report", "stop"):
        out = hook(mode, MALFORMED[name], library_dir)
        assert silent(out), (mode, out)
    guard = hook("guard", MALFORMED[name], library_dir)
    assert guard.code == 0 and guard.stderr == ""
    if guard.stdout:  # still a WebFetch call, however odd its input: denied, well formed
        decision = json.loads(guard.stdout)["hookSpecificOutput"]
        assert decision["permissionDecision"] == "deny"
        assert "`readreceipt fetch " in decision["permissionDecisionReason"]
    lines = skipped(library_dir)
    assert len(lines) == 1, lines  # capture wrote one line; report and guard write nothing
    assert lines[0]["kind"] in ("hook", "refused")
    assert records(library_dir) == []


def test_the_worst_malformed_payloads_name_their_rule(library_dir: Path) -> None:
    expected = {"empty": "hook_payload_empty", "not json": "hook_payload_not_json",
                "a list": "hook_payload_not_object", "null": "hook_payload_not_object",
                "url not a string": "hook_no_url", "another tool": "hook_not_webfetch",
                "6 MiB": "hook_payload_too_large"}
    Library.open(library_dir).close()
    for name in expected:
        assert silent(hook("capture", MALFORMED[name], library_dir))
    assert [line["rule"] for line in skipped(library_dir)] == list(expected.values())


def test_a_refused_url_is_a_skipped_line_not_an_error(library_dir: Path) -> None:
    out = hook("capture", webfetch("http://169.254.169.254/latest/meta-data/"), library_dir)
    assert silent(out)
    [line] = skipped(library_dir)
    assert line["kind"] == "refused" and line["session_id"] == SESSION
    assert records(library_dir) == []


def test_keep_none_writes_the_record_digests_and_check_but_no_bytes(
        article: str, server: LocalServer, library_dir: Path) -> None:
    out = hook("capture", webfetch(article, MISQUOTE), library_dir, allow=server.pair,
               env={"READRECEIPT_KEEP": "none"})
    assert silent(out)
    [record] = records(library_dir)
    assert record["bytes_kept"] is False
    assert record["bytes_sha256"] and record["text_sha256"] and record["page_text_sha256"]
    assert record["answer_check"]["outcome"] == "not_found"
    assert not any((library_dir / "store").rglob("*")) or not any(
        p.is_file() for p in (library_dir / "store").rglob("*"))


@pytest.mark.parametrize(("answer", "kept"), [(GOOD_QUOTE, False), (MISQUOTE, True)])
def test_keep_flagged_keeps_only_flagged_pages(answer: str, kept: bool, article: str,
                                               server: LocalServer, library_dir: Path) -> None:
    out = hook("capture", webfetch(article, answer), library_dir, allow=server.pair,
               env={"READRECEIPT_KEEP": "flagged"})
    assert silent(out)
    [record] = records(library_dir)
    assert record["bytes_kept"] is kept and record["bytes_sha256"]


def test_the_library_is_found_from_the_payloads_cwd(article: str, server: LocalServer,
                                                    tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    assert silent(hook("capture", webfetch(article, MISQUOTE, cwd=str(project)), None,
                       allow=server.pair))
    library = project / ".readreceipt"
    assert len(records(library)) == 1
    # report, from a folder below, finds the same library and reports its flag
    out = hook("report", other_tool(cwd=str(project / "src")), None)
    assert "far more rigid" in out.stdout


def test_report_without_a_library_says_nothing_and_makes_none(tmp_path: Path) -> None:
    out = hook("report", other_tool(cwd=str(tmp_path)), None)
    assert silent(out)
    assert not (tmp_path / ".readreceipt").exists()


# --- who is told ------------------------------------------------------------------------


def _flag_for(agent: str | None, article: str, server: LocalServer, library: Path) -> None:
    out = hook("capture", webfetch(article, MISQUOTE, agent=agent), library, allow=server.pair,
               env={})
    assert silent(out)


def test_a_subagent_is_told_of_its_own_flags_only(article: str, server: LocalServer,
                                                  library_dir: Path) -> None:
    _flag_for("sub-A", article, server, library_dir)
    assert silent(hook("report", other_tool(agent="sub-B"), library_dir))
    told = hook("report", other_tool(agent="sub-A"), library_dir)
    assert "far more rigid" in told.stdout and "from subagent" not in told.stdout
    assert silent(hook("report", other_tool(), library_dir))  # the main agent: already told
    with sqlite3.connect(library_dir / "index.db") as conn:
        assert conn.execute("SELECT reported_to FROM flags").fetchall() == [("sub-A",)]


def test_the_main_agent_is_told_of_a_subagents_flag_when_it_asks_first(
        article: str, server: LocalServer, library_dir: Path) -> None:
    _flag_for("sub-A", article, server, library_dir)
    told = hook("report", other_tool(), library_dir)
    assert "far more rigid" in told.stdout
    assert "from subagent sub-A's fetch" in told.stdout
    assert silent(hook("report", other_tool(agent="sub-A"), library_dir))


def test_another_session_is_not_told(article: str, server: LocalServer,
                                     library_dir: Path) -> None:
    _flag_for(None, article, server, library_dir)
    assert silent(hook("report", other_tool(session="another-session"), library_dir))
    assert "far more rigid" in hook("report", other_tool(), library_dir).stdout


def test_two_concurrent_reports_tell_once(article: str, server: LocalServer,
                                          library_dir: Path) -> None:
    _flag_for(None, article, server, library_dir)
    env = clean_env()
    env["READRECEIPT_LIBRARY"] = str(library_dir)
    data = json.dumps(other_tool()).encode()
    procs = [subprocess.Popen([str(BIN / "readreceipt-hook"), "report"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
             for _ in range(4)]
    outputs = [p.communicate(data, timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    told = [out for out, _ in outputs if out.strip()]
    assert len(told) == 1
    assert b"far more rigid" in told[0]


# --- guard ------------------------------------------------------------------------------


def test_guard_denies_webfetch_pointing_to_readreceipt_fetch(library_dir: Path) -> None:
    payload = webfetch("https://example.test/docs/page?x=1")
    payload["hook_event_name"] = "PreToolUse"
    del payload["tool_response"]
    out = hook("guard", payload, library_dir)
    assert out.code == 0 and out.stderr == ""
    decision = json.loads(out.stdout)["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse"
    assert decision["permissionDecision"] == "deny"
    assert "readreceipt fetch 'https://example.test/docs/page?x=1'" in \
        decision["permissionDecisionReason"]
    assert silent(hook("guard", other_tool(), library_dir))


def test_an_unknown_mode_does_nothing(library_dir: Path) -> None:
    assert silent(hook("frobnicate", webfetch("https://example.test/"), library_dir))
    assert silent(hook("", b"", library_dir))


# --- the detached path --------------------------------------------------------------------


def _wait_for(predicate: Any, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_capture_returns_before_the_page_is_fetched(server: LocalServer,
                                                    library_dir: Path) -> None:
    release = threading.Event()
    body = article_html().encode("utf-8")

    def slow(handler: BaseHTTPRequestHandler) -> None:
        release.wait(60)  # the page arrives only after the hook has returned
        reply(handler, body)

    url = server.route("/slow", handler=slow)
    out = hook("capture", webfetch(url, MISQUOTE), library_dir, allow=server.pair,
               foreground=False)
    assert silent(out)
    assert records(library_dir) == []  # the hook is back; the worker still waits on the page
    release.set()

    def done() -> bool:
        found = records(library_dir)
        return bool(found) and "agent_fetch" in found[0]

    assert _wait_for(done), "the detached worker wrote no record"
    [record] = records(library_dir)
    assert record["verdict"] == "RETRIEVED"
    assert record["answer_check"]["outcome"] == "not_found"
    assert (library_dir / "flags.jsonl").exists()


def test_killing_the_hooks_process_group_as_it_exits_loses_no_capture(
        library_dir: Path) -> None:
    """Some harnesses kill a hook's process group the moment the hook returns: 25 of 87
    workers died before they had left it. The hook now returns only once its worker is in a
    session of its own. Each worker here meets a refused URL (a documentation address), so
    its whole run is one line of skipped.jsonl, with no pacing to wait for; the hook runs on
    one CPU where it can (taskset), so the worker starts only once the hook has exited."""
    count = 30
    env = clean_env(READRECEIPT_LIBRARY=str(library_dir))
    pinned = ["taskset", "-c", "0"] if shutil.which("taskset") and (os.cpu_count() or 1) > 1 \
        else []
    for i in range(count):
        proc = subprocess.Popen([*pinned, str(BIN / "readreceipt-hook"), "capture"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, start_new_session=True)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(json.dumps(webfetch(f"http://192.0.2.1/page{i}")).encode("utf-8"))
        proc.stdin.close()
        os.waitpid(proc.pid, 0)
        proc.returncode = 0
        with contextlib.suppress(ProcessLookupError):  # nothing was left in it
            os.killpg(proc.pid, signal.SIGKILL)  # the hook's group, the moment it exits
        proc.stdout.close()
        proc.stderr.close()
    assert _wait_for(lambda: len(skipped(library_dir)) >= count, timeout=120), (
        f"{count - len(skipped(library_dir))} of {count} workers were killed with the hook's "
        "process group")
    assert sorted(line["url"] for line in skipped(library_dir)) == sorted(
        f"http://192.0.2.1/page{i}" for i in range(count))


def test_the_capture_fast_path_imports_only_the_standard_library(library_dir: Path) -> None:
    # The parent leaves through os._exit the moment it has forked: list its modules there.
    code = ("import os, sys\nparent = os.getpid()\nreal_exit = os._exit\n"
            "def listing_exit(status):\n"
            "    if os.getpid() == parent:\n"
            "        mods = sorted(m for m in sys.modules if m.split('.')[0] not in "
            "sys.stdlib_module_names and m not in ('__main__', '_distutils_hack'))\n"
            "        sys.stdout.write(' '.join(mods) + chr(10)); sys.stdout.flush()\n"
            "    real_exit(status)\n"
            "os._exit = listing_exit\n"
            "from readreceipt.agents.hook import main\nmain(['capture'])\n")
    env = clean_env()
    env["READRECEIPT_LIBRARY"] = str(library_dir)
    Library.open(library_dir).close()  # the skipped line goes to a library that is there
    proc = subprocess.run([sys.executable, "-c", code], input=b"[]", capture_output=True,
                          env=env, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().split() == ["readreceipt", "readreceipt._version",
                                            "readreceipt.agents", "readreceipt.agents.dialects",
                                            "readreceipt.agents.dialects.claude",
                                            "readreceipt.agents.hook",
                                            "readreceipt.errors", "readreceipt.store",
                                            "readreceipt.store.ownership",
                                            "readreceipt.store.sessionmarks"]
    # the forked worker still did its job: the list payload is one skipped line
    assert _wait_for(lambda: len(skipped(library_dir)) == 1)


#: Standard modules whose import alone costs a quick mode more than its work.
COSTLY = ("json", "re", "pathlib", "typing", "sqlite3", "enum", "dataclasses", "tempfile")


def _modules_after(mode: str, payload: bytes, library: Path) -> tuple[list[str], list[str], str]:
    """(readreceipt's modules, costly standard modules, stdout) after one in-process run."""
    code = (f"import sys\nfrom readreceipt.agents.hook import main\nmain([{mode!r}])\n"
            "print(chr(10) + ' '.join(sorted(m for m in sys.modules if m.split('.')[0] not in "
            "sys.stdlib_module_names and m not in ('__main__', '_distutils_hack'))))\n"
            f"print(' '.join(m for m in {COSTLY!r} if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True,
                          env=clean_env(READRECEIPT_LIBRARY=str(library)), timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    *printed, ours, costly = proc.stdout.decode().split("\n")[:-1]
    return ours.split(), costly.split(), "\n".join(printed).strip()


@pytest.mark.parametrize("mode", ["report", "stop", "guard"])
def test_a_quick_mode_with_nothing_to_tell_stays_light(mode: str, library_dir: Path) -> None:
    # report runs after every tool call and stop after every answer: with nothing to tell
    # they read the payload and look at one file; guard reads the payload and answers.
    Library.open(library_dir).close()  # makes the library
    payload = webfetch("https://example.test/a") if mode == "guard" else other_tool()
    ours, costly, printed = _modules_after(mode, json.dumps(payload).encode(), library_dir)
    assert costly == []
    expected = ["readreceipt", "readreceipt._version", "readreceipt.agents",
                "readreceipt.agents.dialects", "readreceipt.agents.dialects.claude",
                "readreceipt.agents.hook", "readreceipt.errors"]
    if mode != "guard":
        expected += ["readreceipt.store", "readreceipt.store.ownership",
                     "readreceipt.store.sessionmarks"]
    assert ours == expected
    if mode == "guard":
        assert json.loads(printed)["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert printed == ""


def test_report_with_something_to_tell_opens_the_index(article: str, server: LocalServer,
                                                       library_dir: Path) -> None:
    # The control for the test above: with a flag untold, the same mode does import more.
    _flag_for(None, article, server, library_dir)
    ours, costly, printed = _modules_after("report", json.dumps(other_tool()).encode(),
                                           library_dir)
    assert "readreceipt.store.local.sqlite" in ours and "sqlite3" in costly
    assert "far more rigid" in printed


def test_a_skipped_line_never_keeps_a_query(library_dir: Path) -> None:
    payload = webfetch("https://example.test/file?X-Amz-Signature=abc123&token=s3cret")
    payload["tool_name"] = "NotWebFetch"
    Library.open(library_dir).close()
    assert silent(hook("capture", payload, library_dir))
    [line] = skipped(library_dir)
    assert line["url"] == "https://example.test/file"
    assert "s3cret" not in (library_dir / "skipped.jsonl").read_text("utf-8")


def test_a_skipped_line_keeps_no_credential_anywhere_in_its_url(
        library_dir: Path, tmp_path: Path, own_marks_folder: Path) -> None:
    # The worker wrote its own skipped lines with the query cut off, but a password in the
    # authority and a path shaped like a secret stayed, in the library and in the fallback
    # file alike; loggable_url is the one form a URL that passed no policy may take.
    url = f"https://reader:hunter2pass@example.test/{'AKIA' + 'Q' * 16}/file?token=s3cret"
    payload = webfetch(url)
    payload["tool_name"] = "NotWebFetch"
    Library.open(library_dir).close()
    assert silent(hook("capture", payload, library_dir))
    not_a_library = tmp_path / "notlib"
    not_a_library.mkdir()
    (not_a_library / "notes.txt").write_text("not a library")
    assert silent(hook("capture", webfetch(url), not_a_library))
    fallback = own_marks_folder / f"readreceipt-hook-{os.getuid()}" / "skipped.jsonl"
    written = (library_dir / "skipped.jsonl").read_text("utf-8") + fallback.read_text("utf-8")
    for secret in ("hunter2pass", "AKIA", "s3cret"):
        assert secret not in written, secret
    assert written.count('"url": "https://example.test/') == 2  # the control: both written


def test_the_installed_command_is_our_launcher_and_imports_nothing_costly(
        library_dir: Path) -> None:
    # An entry point's wrapper is the installer's: pip 23 (the one Python 3.11's venv starts
    # with, the README's install path) writes one that imports re first. readreceipt-hook is
    # a script of our own (scripts/readreceipt-hook), whatever pip installs it.
    from importlib.metadata import entry_points

    assert "readreceipt-hook" not in {e.name for e in entry_points(group="console_scripts")}
    Library.open(library_dir).close()
    script = BIN / "readreceipt-hook"
    assert script.read_text().splitlines()[0].startswith("#!")
    proc = subprocess.run([sys.executable, "-X", "importtime", str(script), "report"],
                          input=json.dumps(other_tool()).encode(), capture_output=True,
                          env=clean_env(READRECEIPT_LIBRARY=str(library_dir)), timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.decode().splitlines()
                if line.startswith("import time:")}
    assert "readreceipt.agents.hook" in imported
    assert imported.isdisjoint(COSTLY), sorted(imported & set(COSTLY))


# --- by hand ----------------------------------------------------------------------------


def test_a_payload_that_names_no_capture_makes_no_library(tmp_path: Path) -> None:
    """`readreceipt-hook capture </dev/null` made ./.readreceipt, which later commands adopted."""
    work, marks = tmp_path / "work", tmp_path / "marks"
    work.mkdir()
    marks.mkdir()
    env = clean_env(TMPDIR=str(marks), READRECEIPT_HOOK_FOREGROUND="1")
    for data in (b"", b"not json", json.dumps(other_tool(cwd=str(work))).encode()):
        proc = subprocess.run([str(BIN / "readreceipt-hook"), "capture"], input=data, cwd=work,
                              env=env, capture_output=True, timeout=60, check=False)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert list(work.iterdir()) == []
    [folder] = marks.glob("readreceipt-hook-*")  # the hook's own folder has the lines
    rules = [json.loads(x)["rule"] for x in (folder / "skipped.jsonl").read_text().splitlines()]
    assert rules == ["hook_payload_empty", "hook_payload_not_json", "hook_not_webfetch"]
    status = subprocess.run([str(BIN / "readreceipt"), "status"], cwd=work, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert status.returncode == 1 and "no readreceipt library" in status.stderr


def test_help_and_a_bare_call_print_usage() -> None:
    helped = subprocess.run([str(BIN / "readreceipt-hook"), "--help"], capture_output=True,
                            text=True, env=clean_env(), timeout=60, check=False)
    assert helped.returncode == 0 and helped.stderr == ""
    assert helped.stdout.startswith("usage: readreceipt-hook MODE [--agent NAME]")
    bare = subprocess.run([str(BIN / "readreceipt-hook")], capture_output=True, text=True,
                          env=clean_env(), stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert bare.returncode == 0 and bare.stdout == ""
    assert bare.stderr.startswith("usage: readreceipt-hook")
    # A mode this copy does not know (a newer settings file's) still prints nothing.
    unknown = subprocess.run([str(BIN / "readreceipt-hook"), "captur"], capture_output=True,
                             text=True, env=clean_env(), stdin=subprocess.DEVNULL, timeout=60,
                             check=False)
    assert (unknown.returncode, unknown.stdout, unknown.stderr) == (0, "", "")


def test_a_mode_run_at_a_terminal_says_it_waits_for_a_payload(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(BIN / "readreceipt-hook"), "stop"], stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env(TMPDIR=str(tmp_path)))
    os.close(follower)
    os.write(leader, b"\x04")  # Ctrl-D: the end of what was typed
    out, err = proc.communicate(timeout=60)
    os.close(leader)
    assert proc.returncode == 0 and out == b""
    assert b"readreceipt-hook stop: waiting for a hook payload (JSON) on stdin" in err
