"""``readreceipt-hook MODE --agent NAME`` for Gemini CLI, Codex CLI, Cursor, Cline and Copilot
CLI, through the real console script, on payloads written from each agent's documentation
(tests/fixtures/agents/, each naming its page).

The worker runs in the hook's own process (READRECEIPT_HOOK_FOREGROUND=1) so that nothing
outlives a test; the detached path is the one tests/test_hook.py tries.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentpayloads import fixtures, payload
from conftest import CliResult, LocalServer, article_html, clean_env, run_cli
from readreceipt.store.library import Library

pytestmark = pytest.mark.usefixtures("own_marks_folder")

SESSION = "3b7e2a91-6c4d-4f0e-9a1b-agents000001"
GOOD = "Engineers replaced 212 of the bridge's 480 bearings with lead-rubber isolators"
MISQUOTE = "We did not make the bridge stronger, we made it far more rigid"
OTHER_MISQUOTE = "The bridge stayed closed to all traffic for eleven long years of works"
NOTES = ("<!doctype html><html><head><title>Traffic notes</title></head><body><article>"
         "<h1>Traffic notes</h1><p>" + ("The ferry ran every twenty minutes while the shared "
                                        "path was closed for repairs. ") * 8 +
         "</p><p>The transport authority counted an average of 94,000 crossings a day during "
         "the works, against 101,000 before they began.</p></article></body></html>")
ON_NOTES = "The transport authority counted an average of 94,000 crossings a day"
PROMPT = "What did the engineers do, and how busy was the bridge?"


def said(*quotes: str) -> str:
    return "The pages say: " + " and ".join(f'"{q}"' for q in quotes) + "."


def hook(mode: str, agent: str, data: Any, library: Path | None, *,
         allow: str | None = None, env: dict[str, str] | None = None) -> CliResult:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    return run_cli(mode, "--agent", agent, script="readreceipt-hook", input=raw,
                   library=library, allow=allow,
                   env={"READRECEIPT_HOOK_FOREGROUND": "1", **(env or {})}, timeout=90)


def records(library: Path) -> list[dict[str, Any]]:
    return [yaml.safe_load(p.read_text("utf-8"))
            for p in sorted((library / "records").glob("*.yaml"))]


def flags(library: Path) -> list[dict[str, Any]]:
    path = library / "flags.jsonl"
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()] if path.exists() else []


def skipped(library: Path) -> list[dict[str, Any]]:
    path = library / "skipped.jsonl"
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()] if path.exists() else []


def told(library: Path) -> list[tuple[str, str | None]]:
    with sqlite3.connect(library / "index.db") as conn:
        return conn.execute("SELECT passage, reported_to FROM flags").fetchall()


def silent(out: CliResult) -> bool:
    return out.code == 0 and out.stdout == "" and out.stderr == ""


def replied(out: CliResult) -> dict[str, Any]:
    assert out.code == 0 and out.stderr == "", out
    data: dict[str, Any] = json.loads(out.stdout)
    return data


@pytest.fixture
def pages(server: LocalServer) -> tuple[str, str]:
    return server.route("/bridge", article_html()), server.route("/notes", NOTES)


def fill(name: str, cwd: Path, url: str = "", url2: str = "", answer: str = "") -> dict[str, Any]:
    return payload(name, URL=url, URL2=url2, CWD=str(cwd), SESSION=SESSION, ANSWER=answer,
                   PROMPT=PROMPT)


# --- Gemini CLI --------------------------------------------------------------------------


def test_gemini_web_fetch_captures_every_url_of_its_prompt_and_checks_across_them(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, notes = pages
    # GOOD is on the first page, ON_NOTES on the second: both found, across the pages
    good = fill("gemini-aftertool-web_fetch", tmp_path, bridge, notes, said(GOOD, ON_NOTES))
    out = hook("after", "gemini", good, library_dir, allow=server.pair)
    assert silent(out), out
    got = records(library_dir)
    assert sorted(r["url"] for r in got) == sorted([bridge, notes])
    assert all(r["session_id"] == SESSION and r["verdict"] == "RETRIEVED" for r in got)
    assert all(r["agent_fetch"]["tool"] == "web_fetch" for r in got)
    assert all(r["agent_fetch"]["urls_in_call"] == 2 for r in got)
    assert flags(library_dir) == []
    # one check across both pages, written down once for each page it names
    checks = [json.loads(x) for x in
              (library_dir / "answer_checks.jsonl").read_text().splitlines()]
    assert sorted(c["record_id"] for c in checks) == sorted(r["record_id"] for r in got)
    assert all(c["outcome"] == "found" and c["session_id"] == SESSION for c in checks)
    assert sorted(p["url"] for p in checks[0]["pages"]) == sorted([bridge, notes])


def test_gemini_misquote_is_told_after_the_tool_and_its_answer_denied_once(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, notes = pages
    call = fill("gemini-aftertool-web_fetch", tmp_path, bridge, notes, said(MISQUOTE))
    out = replied(hook("after", "gemini", call, library_dir, allow=server.pair))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    assert MISQUOTE in context and "the nearest passage on the page says" in context
    [flag] = flags(library_dir)
    assert flag["url"] == bridge  # the page whose nearest passage came closest
    # The final answer repeats it (told already: not again) and adds one of its own, on no
    # page the session read: AfterAgent denies the answer, with the reason, once.
    final = fill("gemini-afteragent", tmp_path, answer=said(MISQUOTE, OTHER_MISQUOTE))
    denied = replied(hook("stop", "gemini", final, library_dir))
    assert denied["decision"] == "deny" and OTHER_MISQUOTE in denied["reason"]
    assert MISQUOTE not in denied["reason"] and "before you finish" in denied["reason"]
    assert silent(hook("stop", "gemini", {**final, "stop_hook_active": True}, library_dir))
    assert silent(hook("stop", "gemini", final, library_dir))  # told now: it goes through


def test_gemini_a_final_answer_on_the_pages_goes_through(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, notes = pages
    assert silent(hook("after", "gemini", fill("gemini-aftertool-web_fetch", tmp_path, bridge,
                                               notes, "Summary without quotations."),
                       library_dir, allow=server.pair))
    final = fill("gemini-afteragent", tmp_path, answer=said(GOOD, ON_NOTES))
    assert silent(hook("stop", "gemini", final, library_dir))
    assert flags(library_dir) == []


def test_gemini_tools_that_fetch_nothing_are_not_captured(library_dir: Path,
                                                          tmp_path: Path) -> None:
    out = hook("after", "gemini", fill("gemini-aftertool-read_file", tmp_path), library_dir)
    assert silent(out)
    assert records(library_dir) == [] and skipped(library_dir) == []


# --- Codex CLI ---------------------------------------------------------------------------


def test_codex_curl_and_mcp_fetches_are_captured_and_the_turns_answer_checked(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, notes = pages
    assert silent(hook("after", "codex", fill("codex-posttooluse-bash-curl", tmp_path, bridge),
                       library_dir, allow=server.pair))
    assert silent(hook("after", "codex", fill("codex-posttooluse-mcp-fetch", tmp_path, notes),
                       library_dir, allow=server.pair))
    got = {r["url"]: r for r in records(library_dir)}
    assert set(got) == {bridge, notes}
    assert got[bridge]["agent_fetch"]["tool"] == "Bash (curl/wget)"
    assert got[notes]["agent_fetch"]["tool"] == "mcp__fetch__fetch"
    assert got[bridge]["agent_fetch"]["turn_id"] == "turn-7"
    assert all(r["answer_check"] is None for r in got.values())  # the page itself: no answer
    stop = fill("codex-stop", tmp_path, answer=said(GOOD, MISQUOTE))
    blocked = replied(hook("stop", "codex", stop, library_dir))
    assert set(blocked) == {"decision", "reason"}  # Codex's schema allows no other field
    assert blocked["decision"] == "block" and MISQUOTE in blocked["reason"]
    assert GOOD not in blocked["reason"]
    assert silent(hook("stop", "codex", {**stop, "stop_hook_active": True}, library_dir))
    assert [p for p, _ in told(library_dir)] == [MISQUOTE]


def test_codex_reports_after_any_tool_in_its_own_shape(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    assert silent(hook("after", "codex", fill("codex-posttooluse-bash-curl", tmp_path, bridge),
                       library_dir, allow=server.pair))
    # a check that finds a misquote without blocking: the answer of an earlier turn
    with Library.open(library_dir) as lib:
        from readreceipt.agents.answercheck import check_answer

        check_answer(lib, SESSION, None, said(MISQUOTE), None)
    out = replied(hook("after", "codex", fill("codex-posttooluse-apply_patch", tmp_path),
                       library_dir))
    assert out["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert MISQUOTE in out["hookSpecificOutput"]["additionalContext"]
    assert set(out) == {"hookSpecificOutput"} and \
        set(out["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}


def test_codex_a_shell_command_without_a_download_is_not_captured(library_dir: Path,
                                                                   tmp_path: Path) -> None:
    call = fill("codex-posttooluse-bash-curl", tmp_path, "x")
    call["tool_input"] = {"command": "echo see https://example.test/ later"}
    assert silent(hook("after", "codex", call, library_dir))
    assert records(library_dir) == [] and skipped(library_dir) == []


# --- Cursor ------------------------------------------------------------------------------


def test_cursor_webfetch_captured_answer_checked_and_stop_followed_up_once(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    assert silent(hook("after", "cursor", fill("cursor-posttooluse-webfetch", tmp_path, bridge),
                       library_dir, allow=server.pair))
    [record] = records(library_dir)
    assert record["url"] == bridge and record["session_id"] == SESSION
    assert record["agent_fetch"]["duration_ms"] == 812
    answer = fill("cursor-afteragentresponse", tmp_path, answer=said(MISQUOTE))
    assert silent(hook("answer", "cursor", answer, library_dir))  # it cannot reply
    [flag] = flags(library_dir)
    assert flag["passage"] == MISQUOTE and flag["session_id"] == SESSION
    stop = fill("cursor-stop", tmp_path)
    followed = replied(hook("stop", "cursor", stop, library_dir))
    assert set(followed) == {"followup_message"} and MISQUOTE in followed["followup_message"]
    assert silent(hook("stop", "cursor", {**stop, "loop_count": 1}, library_dir))
    assert silent(hook("stop", "cursor", stop, library_dir))


def test_cursor_reports_in_its_own_shape_and_shell_without_download_is_passed_over(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    assert silent(hook("after", "cursor", fill("cursor-posttooluse-webfetch", tmp_path, bridge),
                       library_dir, allow=server.pair))
    assert silent(hook("answer", "cursor", fill("cursor-afteragentresponse", tmp_path,
                                                answer=said(MISQUOTE)), library_dir))
    out = replied(hook("after", "cursor", fill("cursor-posttooluse-shell", tmp_path),
                       library_dir))
    assert set(out) == {"additional_context"} and MISQUOTE in out["additional_context"]
    assert len(records(library_dir)) == 1 and skipped(library_dir) == []


# --- Cline -------------------------------------------------------------------------------


def test_cline_web_fetch_captured_and_every_reply_is_cline_json(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    out = replied(hook("after", "cline", fill("cline-posttooluse-web_fetch", tmp_path, bridge),
                       library_dir, allow=server.pair))
    assert out == {"cancel": False}
    [record] = records(library_dir)
    assert record["url"] == bridge and record["session_id"] == SESSION
    assert record["agent_fetch"]["duration_ms"] == 845


def test_cline_task_complete_writes_its_check_down_and_the_next_tool_call_tells(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    replied(hook("after", "cline", fill("cline-posttooluse-web_fetch", tmp_path, bridge),
                 library_dir, allow=server.pair))
    done = replied(hook("stop", "cline", fill("cline-taskcomplete", tmp_path,
                                              answer=said(MISQUOTE)), library_dir))
    assert done == {"cancel": False}  # TaskComplete's output is not read: nothing claimed
    assert told(library_dir) == [(MISQUOTE, None)]
    resumed = replied(hook("after", "cline", fill("cline-posttooluse-read_file", tmp_path),
                           library_dir))
    assert resumed["cancel"] is False and MISQUOTE in resumed["contextModification"]
    assert told(library_dir) == [(MISQUOTE, "main")]


# --- GitHub Copilot CLI ------------------------------------------------------------------


def test_copilot_shell_download_captured_and_agent_stop_blocks_for_an_untold_flag(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    assert silent(hook("after", "copilot", fill("copilot-posttooluse-bash-curl", tmp_path,
                                                bridge), library_dir, allow=server.pair))
    [record] = records(library_dir)
    assert record["url"] == bridge and record["agent_fetch"]["tool"] == "bash (curl/wget)"
    stop = fill("copilot-agentstop", tmp_path)
    assert silent(hook("stop", "copilot", stop, library_dir))  # nothing to tell
    with Library.open(library_dir) as lib:  # a flag of this session from elsewhere
        from readreceipt.agents.answercheck import check_answer

        check_answer(lib, SESSION, None, said(MISQUOTE), None)
    blocked = replied(hook("stop", "copilot", stop, library_dir))
    assert blocked["decision"] == "block" and MISQUOTE in blocked["reason"]
    assert silent(hook("stop", "copilot", {**stop, "stop_hook_active": True}, library_dir))


def test_copilot_reports_after_a_tool_in_its_own_shape(
        pages: tuple[str, str], server: LocalServer, library_dir: Path, tmp_path: Path) -> None:
    bridge, _ = pages
    assert silent(hook("after", "copilot", fill("copilot-posttooluse-bash-curl", tmp_path,
                                                bridge), library_dir, allow=server.pair))
    with Library.open(library_dir) as lib:
        from readreceipt.agents.answercheck import check_answer

        check_answer(lib, SESSION, None, said(MISQUOTE), None)
    out = replied(hook("after", "copilot", fill("copilot-posttooluse-view", tmp_path),
                       library_dir))
    assert set(out) == {"additionalContext"} and MISQUOTE in out["additionalContext"]


# --- every agent -------------------------------------------------------------------------

AGENTS = ("gemini", "codex", "cursor", "cline", "copilot")
BAD = [b"", b"{not json", b"[1, 2]", b"null", b'"web_fetch"', b"\xff\xfe",
       json.dumps({"tool_name": "web_fetch", "tool_input": {"prompt": 7},
                   "postToolUse": {"toolName": "web_fetch", "parameters": "x"},
                   "toolName": "web_fetch", "toolArgs": "{", "session_id": ["x"],
                   "conversation_id": {"a": 1}, "taskId": 3}).encode()]


@pytest.mark.parametrize("agent", AGENTS)
def test_malformed_payloads_never_fail_any_mode(agent: str, library_dir: Path) -> None:
    quiet = '{"cancel": false}\n' if agent == "cline" else ""
    for data in BAD:
        for mode in ("after", "answer", "stop", "capture", "report", "guard"):
            out = hook(mode, agent, data, library_dir)
            assert out.code == 0 and out.stderr == "", (agent, mode, data, out)
            if mode in ("after", "answer", "stop"):
                assert out.stdout == quiet, (agent, mode, data, out)
    assert records(library_dir) == []


def test_an_unknown_agent_does_nothing(library_dir: Path, tmp_path: Path) -> None:
    data = fill("gemini-aftertool-web_fetch", tmp_path, "https://example.test/")
    assert silent(hook("after", "windsurf", data, library_dir))
    assert records(library_dir) == [] and skipped(library_dir) == []


def test_every_fixture_names_its_documentation() -> None:
    names = fixtures()
    assert {n.split("-")[0] for n in names} == {"claude", *AGENTS}
    for name in names:
        payload(name)  # each parses, filled or not


#: Standard modules whose import alone costs a quick mode more than its work.
COSTLY = ("json", "re", "pathlib", "typing", "sqlite3", "enum", "dataclasses", "tempfile",
          "shlex")

QUICK = [("gemini", "after", "gemini-aftertool-read_file"), ("gemini", "stop", "gemini-afteragent"),
         ("codex", "after", "codex-posttooluse-apply_patch"), ("codex", "stop", "codex-stop"),
         ("cursor", "after", "cursor-posttooluse-shell"),
         ("cursor", "answer", "cursor-afteragentresponse"), ("cursor", "stop", "cursor-stop"),
         ("cline", "after", "cline-posttooluse-read_file"),
         ("cline", "stop", "cline-taskcomplete"),
         ("copilot", "after", "copilot-posttooluse-view"),
         ("copilot", "stop", "copilot-agentstop")]


@pytest.mark.parametrize(("agent", "mode", "name"), QUICK)
def test_every_quick_mode_with_nothing_to_tell_stays_light(agent: str, mode: str, name: str,
                                                           library_dir: Path,
                                                           tmp_path: Path) -> None:
    Library.open(library_dir).close()
    data = json.dumps(fill(name, tmp_path, answer=said(MISQUOTE))).encode()
    code = (f"import sys\nfrom readreceipt.agents.hook import main\n"
            f"main([{mode!r}, '--agent', {agent!r}])\n"
            "print(chr(10) + ' '.join(sorted(m for m in sys.modules if m.split('.')[0] not in "
            "sys.stdlib_module_names and m not in ('__main__', '_distutils_hack'))))\n"
            f"print(' '.join(m for m in {COSTLY!r} if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                          env=clean_env(READRECEIPT_LIBRARY=str(library_dir)), timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    *printed, ours, costly = proc.stdout.decode().split("\n")[:-1]
    assert costly == "", (agent, mode, costly)
    assert f"readreceipt.agents.dialects.{agent}" in ours.split()
    assert not any(m.startswith(("readreceipt.store.local", "readreceipt.quotes.quotations",
                                 "readreceipt.pipeline")) for m in ours.split()), ours
    assert "\n".join(printed).strip() in ("", '{"cancel": false}')


def test_a_stop_with_a_quotation_after_pages_does_check(pages: tuple[str, str],
                                                        server: LocalServer, library_dir: Path,
                                                        tmp_path: Path) -> None:
    # The control for the test above: with pages read and a quotation, stop does the work.
    bridge, _ = pages
    assert silent(hook("after", "codex", fill("codex-posttooluse-bash-curl", tmp_path, bridge),
                       library_dir, allow=server.pair))
    code = ("import sys\nfrom readreceipt.agents.hook import main\n"
            "main(['stop', '--agent', 'codex'])\n"
            "print(chr(10) + ' '.join(sorted(sys.modules)))\n")
    data = json.dumps(fill("codex-stop", tmp_path, answer=said(MISQUOTE))).encode()
    proc = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                          env=clean_env(READRECEIPT_LIBRARY=str(library_dir)), timeout=60,
                          check=False)
    *printed, modules = proc.stdout.decode().split("\n")[:-1]
    assert "readreceipt.quotes.quotations" in modules.split()
    assert json.loads("\n".join(printed).strip())["decision"] == "block"


def test_pages_marked_for_a_session_survive_a_reuse(pages: tuple[str, str],
                                                    server: LocalServer, library_dir: Path,
                                                    tmp_path: Path) -> None:
    # A page another session captured a minute ago is answered from that copy (its record
    # names the other session); it is still a page this session read.
    bridge, _ = pages
    other = fill("codex-posttooluse-bash-curl", tmp_path, bridge)
    other["session_id"] = "another-session"
    assert silent(hook("after", "codex", other, library_dir, allow=server.pair))
    assert silent(hook("after", "codex", fill("codex-posttooluse-bash-curl", tmp_path, bridge),
                       library_dir, allow=server.pair))
    assert len(records(library_dir)) == 1  # reused
    stop = fill("codex-stop", tmp_path, answer=said(MISQUOTE))
    assert MISQUOTE in replied(hook("stop", "codex", stop, library_dir))["reason"]


def test_the_worker_s_skipped_line_names_the_agent_s_session(library_dir: Path,
                                                             tmp_path: Path) -> None:
    call = fill("cline-posttooluse-web_fetch", tmp_path, "http://169.254.169.254/latest/")
    assert replied(hook("after", "cline", call, library_dir)) == {"cancel": False}
    [line] = skipped(library_dir)
    assert line["session_id"] == SESSION and line["kind"] == "refused"
    assert os.path.exists(library_dir / "index.db")


def test_a_session_s_pages_are_its_newest_and_only_record_ids(own_marks_folder: Path) -> None:
    from readreceipt.store import sessionmarks

    ids = [f"20261130T0100{i // 60:02d}Z-{i:08x}" for i in range(sessionmarks.MAX_PAGES + 100)]
    for record_id in ids:
        sessionmarks.add_page("s-1", record_id)
    sessionmarks.add_page("s-1", "../../etc/passwd")  # not an id: never written
    sessionmarks.add_page("s-1", ids[-1])  # read twice: kept once
    assert sessionmarks.has_pages("s-1") and not sessionmarks.has_pages("s-2")
    kept = sessionmarks.pages("s-1")
    assert kept[-1] == ids[-1] and ids[-2] in kept and ids[0] not in kept
    assert len(kept) <= sessionmarks.MAX_PAGES and all("/" not in k for k in kept)
