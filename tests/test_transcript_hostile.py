"""Transcripts and shell commands built to make their readers slow or crash (the security
standard: work on untrusted text is linear and capped; a bad entry is counted and skipped).

Each test fails on the code before its bound: shlex's words grow by a copy a character (one
word of 1,000,000 characters took 63 s in the hook's worker); a Codex rollout's search end
events were each compared with every search before them; a Gemini rewind copied and searched
every message id; a field of the wrong type ended the audit with a TypeError; a FIFO's open
waited for a writer forever."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from readreceipt.agents import shellurls
from readreceipt.agents.transcript import read_transcript
from readreceipt.errors import UsageError

SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
AT = "2026-11-30T10:00:00.000Z"


def test_a_command_past_the_cap_names_no_url_and_one_within_it_does() -> None:
    url = "http://127.0.0.1:9/page"
    assert shellurls.fetched_in_shell(f"curl -sL {url}") == [("curl/wget", url)]
    long_word = url + "a" * shellurls.MAX_COMMAND_CHARS
    assert shellurls.words(f"curl {long_word}") == []
    assert shellurls.fetched_in_shell(f"curl {long_word}") == []
    # the cap is on the string split: a script handed to a shell is split under it too
    assert shellurls.words(["bash", "-lc", f"curl {long_word}"]) == ["(", ")"]


def _codex(path: Path, payloads: list[tuple[str, dict[str, Any]]]) -> Path:
    lines = [{"timestamp": AT, "type": "session_meta",
              "payload": {"id": SESSION, "timestamp": AT, "cwd": "/p",
                          "originator": "codex_cli_rs", "cli_version": "0.98.0"}}]
    lines += [{"timestamp": AT, "type": kind, "payload": p} for kind, p in payloads]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_codex_search_end_events_are_listed_once_each(tmp_path: Path) -> None:
    events: list[tuple[str, dict[str, Any]]] = [
        ("event_msg", {"type": "web_search_end", "call_id": f"c{i}", "query": f"q{i % 7}"})
        for i in range(3000)]
    events.insert(0, ("response_item", {"type": "web_search_call", "status": "completed",
                                        "action": {"type": "search", "query": "q3"}}))
    read = read_transcript(_codex(tmp_path / "rollout.jsonl", events))
    assert read.agent == "codex"
    assert [s.query for s in read.searches] == ["q3", "q0", "q1", "q2", "q4", "q5", "q6"]


def test_codex_content_of_the_wrong_type_is_passed_over(tmp_path: Path) -> None:
    items: list[tuple[str, dict[str, Any]]] = [
        ("response_item", {"type": "message", "role": "assistant", "content": bad})
             for bad in (7, True, "text", {"a": 1})]
    items.append(("response_item", {"type": "message", "role": "assistant",
                                    "content": [{"type": "output_text", "text": "kept"}]}))
    read = read_transcript(_codex(tmp_path / "rollout.jsonl", items))
    assert [s.text for s in read.said] == ["kept"]


def _gemini(path: Path, records: list[dict[str, Any]]) -> Path:
    meta = {"sessionId": SESSION, "projectHash": "3f2a9c", "startTime": AT, "lastUpdated": AT,
            "kind": "main"}
    path.write_text("\n".join(json.dumps(r) for r in [meta, *records]) + "\n", encoding="utf-8")
    return path


def _said(i: int) -> dict[str, Any]:
    return {"id": f"m{i}", "timestamp": AT, "type": "gemini", "content": [{"text": f"said {i}"}]}


def test_a_gemini_rewind_drops_the_message_and_every_later_one(tmp_path: Path) -> None:
    records = [_said(i) for i in range(6)] + [{"$rewindTo": "m3"}, _said(9)]
    read = read_transcript(_gemini(tmp_path / "a.jsonl", records))
    assert [s.text for s in read.said] == ["said 0", "said 1", "said 2", "said 9"]
    # a rewind to a message never seen drops them all, as before
    records = [_said(i) for i in range(3)] + [{"$rewindTo": "nowhere"}, _said(7)]
    read = read_transcript(_gemini(tmp_path / "b.jsonl", records))
    assert [s.text for s in read.said] == ["said 7"]


def test_gemini_tool_calls_of_the_wrong_type_are_passed_over(tmp_path: Path) -> None:
    records = [{**_said(i), "toolCalls": bad} for i, bad in enumerate((5, True, "x", {"a": 1}))]
    read = read_transcript(_gemini(tmp_path / "a.jsonl", records))
    assert [s.text for s in read.said] == ["said 0", "said 1", "said 2", "said 3"]


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)
    code = ("import sys\nfrom readreceipt.agents.transcript import read_transcript\n"
            "from readreceipt.errors import UsageError\n"
            "try:\n    read_transcript(sys.argv[1])\nexcept UsageError as e:\n    print(e)\n")
    # In a child, so a reader that waits for a writer is stopped by the timeout, not the run.
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True,
                          text=True, timeout=30)
    assert "is not a file" in done.stdout, done.stderr


def test_the_digest_is_of_the_bytes_read(tmp_path: Path) -> None:
    path = _gemini(tmp_path / "a.jsonl", [_said(1)])
    read = read_transcript(path)
    assert read.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(UsageError, match="is not a file"):
        read_transcript(tmp_path)


def test_a_subagent_file_swapped_for_a_fifo_is_skipped_not_waited_on(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(json.dumps({"type": "user", "sessionId": SESSION, "message": {
        "role": "user", "content": "hello"}}) + "\n", encoding="utf-8")
    folder = tmp_path / "s" / "subagents"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "agent-x.jsonl")
    # listed as a regular file, then a FIFO by the time it is opened (the race, made certain)
    code = ("import sys\nfrom pathlib import Path\nfrom readreceipt.agents import transcript\n"
            "transcript.subagent_files = lambda p: [Path(sys.argv[2])]\n"
            "t = transcript.read_transcript(sys.argv[1])\nprint(t.skipped_lines)\n")
    done = subprocess.run([sys.executable, "-c", code, str(session),
                           str(folder / "agent-x.jsonl")], capture_output=True, text=True,
                          timeout=30)
    assert done.stdout.strip() == "1", done.stderr
