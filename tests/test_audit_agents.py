"""``readreceipt audit`` of Codex CLI's session rollouts and Gemini CLI's saved chats, in the
shapes their sources write them (openai/codex ``codex-rs/protocol``: RolloutLine,
ResponseItem; google-gemini/gemini-cli ``packages/core/src/services/chatRecordingTypes.ts``),
against pages of a local server, through the real console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import CliResult, LocalServer, article_html, run_cli
from readreceipt.agents.transcript import read_transcript, sniff
from test_audit import GOOD_1, GOOD_2, MISQUOTE, NOTES_HTML

SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
USER = ('What did the engineer say? My notes say "the council voted for the retrofit after a '
        'long debate".')
ANSWER = (f'The engineer said "{MISQUOTE}". The page also notes "{GOOD_1}", and the traffic '
          f'notes say "{GOOD_2}". Your notes say "the council voted for the retrofit after a '
          'long debate".')


def audit(path: Path, library: Path, server: LocalServer, *args: str) -> CliResult:
    return run_cli("audit", str(path), *args, library=library, allow=server.pair)


# --- Codex CLI ---------------------------------------------------------------------------


def rollout(server: LocalServer, answer: str) -> list[dict[str, Any]]:
    article = server.route("/news/bridge", article_html())
    notes = server.route("/notes", NOTES_HTML)
    at = "2026-11-30T10:00:00.000Z"

    def item(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": at, "type": kind, "payload": payload}

    return [
        item("session_meta", {"id": SESSION, "timestamp": at, "cwd": "/work/p",
                              "originator": "codex_cli_rs", "cli_version": "0.98.0",
                              "source": "cli", "instructions": None}),
        item("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/work/p</cwd>\n"
                                           "</environment_context>"}]}),
        item("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": USER}]}),
        item("event_msg", {"type": "user_message", "message": USER, "kind": "plain"}),
        item("turn_context", {"cwd": "/work/p", "approval_policy": "on-request",
                              "model": "gpt-5.3-codex"}),
        item("response_item", {"type": "function_call", "name": "shell", "call_id": "call_1",
                               "arguments": json.dumps({"command": [
                                   "bash", "-lc", f"curl -sL '{article}' | head -c 4000"]})}),
        item("response_item", {"type": "function_call_output", "call_id": "call_1",
                               "output": "<!doctype html>..."}),
        item("response_item", {"type": "function_call", "name": "fetch__fetch",
                               "call_id": "call_2",
                               "arguments": json.dumps({"url": notes, "max_length": 5000})}),
        item("event_msg", {"type": "mcp_tool_call_end", "call_id": "call_2", "invocation": {
            "server": "fetch", "tool": "fetch", "arguments": {"url": notes}},
            "duration": {"secs": 1, "nanos": 0}, "result": {"Ok": {"content": []}}}),
        item("response_item", {"type": "function_call_output", "call_id": "call_2",
                               "output": "Contents of the notes..."}),
        item("response_item", {"type": "web_search_call", "status": "completed",
                               "action": {"type": "search", "query": "harbour bridge 2024"}}),
        item("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "x"}),
        item("response_item", {"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": answer}]}),
        item("event_msg", {"type": "agent_message", "message": answer}),
        item("compacted", {"message": f'Summary: the engineer said "{MISQUOTE}" (compacted)'}),
    ]


def write_lines(path: Path, items: list[dict[str, Any]], extra: str = "") -> Path:
    path.write_text("\n".join(json.dumps(i) for i in items) + "\n" + extra, encoding="utf-8")
    return path


def test_a_codex_rollout_is_audited(server: LocalServer, library_dir: Path,
                                    tmp_path: Path) -> None:
    path = write_lines(tmp_path / f"rollout-2026-11-30T10-00-00-{SESSION}.jsonl",
                       rollout(server, ANSWER), "{not json\n")
    assert sniff(path.read_bytes()) == "codex"
    out = audit(path, library_dir, server, "--json")
    assert out.code == 10, out.stderr
    data = out.json()
    assert data["agent"] == "codex" and data["session_id"] == SESSION
    assert data["skipped_lines"] == 1
    pages = {p["url"]: p for p in data["pages"]}
    assert list(pages) == [server.url("/news/bridge"), server.url("/notes")]
    assert pages[server.url("/news/bridge")]["tools"] == ["curl/wget"]
    assert pages[server.url("/notes")]["tools"] == ["mcp__fetch__fetch"]  # counted once
    assert len(pages[server.url("/notes")]["lines"]) == 1
    assert [s["query"] for s in data["searches"]] == ["harbour bridge 2024"]
    quotes = {q["text"]: q["status"] for q in data["quotations"]}
    # the compacted summary is a model's words, the user's quotation the user's
    assert quotes == {MISQUOTE: "not_found", GOOD_1: "found", GOOD_2: "found"}


def test_a_codex_rollout_whose_quotes_hold_exits_0(server: LocalServer, library_dir: Path,
                                                   tmp_path: Path) -> None:
    good = f'The page notes "{GOOD_1}", and the notes say "{GOOD_2}".'
    path = write_lines(tmp_path / "rollout.jsonl", rollout(server, good))
    out = audit(path, library_dir, server)
    assert out.code == 0, out.stdout + out.stderr
    assert "2 found, 0 on no page" in out.stdout


# --- Gemini CLI --------------------------------------------------------------------------


def chat(server: LocalServer, answer: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    article = server.route("/news/bridge", article_html())
    notes = server.route("/notes", NOTES_HTML)
    meta = {"sessionId": SESSION, "projectHash": "3f2a9c", "startTime": "2026-11-30T10:00:00Z",
            "lastUpdated": "2026-11-30T10:09:00Z", "kind": "main"}
    messages = [
        {"id": "m1", "timestamp": "2026-11-30T10:00:01Z", "type": "user",
         "content": [{"text": USER}]},
        {"id": "m2", "timestamp": "2026-11-30T10:00:05Z", "type": "gemini", "content": "",
         "toolCalls": [
             {"id": "t1", "name": "web_fetch", "status": "success",
              "timestamp": "2026-11-30T10:00:06Z",
              "args": {"prompt": f"Summarise {article} and {notes}, quoting them."},
              "result": [{"functionResponse": {"id": "t1", "name": "web_fetch", "response": {
                  "output": f'The article says "{GOOD_1}".'}}}]},
             {"id": "t2", "name": "google_web_search", "status": "success",
              "timestamp": "2026-11-30T10:00:07Z", "args": {"query": "harbour bridge 2024"},
              "result": []},
             {"id": "t3", "name": "run_shell_command", "status": "success",
              "timestamp": "2026-11-30T10:00:08Z",
              "args": {"command": f"readreceipt fetch {notes} --format text"}}]},
        {"id": "m3", "timestamp": "2026-11-30T10:00:09Z", "type": "info",
         "content": "Request cancelled."},
        {"id": "m4", "timestamp": "2026-11-30T10:00:10Z", "type": "gemini",
         "content": [{"text": answer}], "model": "gemini-2.5-pro"},
    ]
    return meta, messages


def test_a_gemini_chat_is_audited(server: LocalServer, library_dir: Path,
                                  tmp_path: Path) -> None:
    meta, messages = chat(server, ANSWER)
    # the answer was written once, then again in full (the same id): the last one counts;
    # a message rewound is gone
    draft = {**messages[3], "content": [{"text": f'Draft: "{MISQUOTE} and more"'}]}
    rewound = {"id": "m9", "timestamp": "2026-11-30T10:01:00Z", "type": "gemini",
               "content": [{"text": '"A passage from a message rewound away entirely"'}]}
    lines = [meta, *messages[:3], draft, messages[3], rewound, {"$rewindTo": "m9"},
             {"$set": {"lastUpdated": "2026-11-30T10:09:30Z"}}]
    path = write_lines(tmp_path / "session-2026-11-30T10-00-019a2d7a.jsonl", lines)
    assert sniff(path.read_bytes()) == "gemini"
    out = audit(path, library_dir, server, "--json")
    assert out.code == 10, out.stderr
    data = out.json()
    assert data["agent"] == "gemini" and data["session_id"] == SESSION
    pages = {p["url"]: p for p in data["pages"]}
    assert list(pages) == [server.url("/news/bridge"), server.url("/notes")]
    assert pages[server.url("/notes")]["tools"] == ["web_fetch", "readreceipt fetch"]
    assert [s["query"] for s in data["searches"]] == ["harbour bridge 2024"]
    quotes = {q["text"]: q["status"] for q in data["quotations"]}
    assert quotes == {MISQUOTE: "not_found", GOOD_1: "found", GOOD_2: "found"}


def test_an_older_gemini_chat_of_one_document_is_read(server: LocalServer, library_dir: Path,
                                                      tmp_path: Path) -> None:
    meta, messages = chat(server, ANSWER)
    path = tmp_path / "session-2026-11-30T10-00-019a2d7a.json"
    path.write_text(json.dumps({**meta, "messages": messages}, indent=2), encoding="utf-8")
    read = read_transcript(path)
    assert read.agent == "gemini" and read.session_id == SESSION
    assert [f.tool for f in read.fetches] == ["web_fetch", "web_fetch", "readreceipt fetch"]
    assert read.fetches[0].answer == f'The article says "{GOOD_1}".'
    out = audit(path, library_dir, server)
    assert out.code == 10 and "quotations in the assistant's messages: 3" in out.stdout


@pytest.mark.parametrize(("content", "says"), [
    ('{"timestamp": "t", "type": "event_msg", "payload": {"type": "x"}}\n', "Codex CLI"),
    ('{"sessionId": "s", "projectHash": "h"}\n', "Gemini CLI"),
])
def test_a_file_with_no_entry_of_its_agent_is_one_line(content: str, says: str,
                                                        library_dir: Path,
                                                        tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(content, encoding="utf-8")
    out = run_cli("audit", str(path), library=library_dir)
    assert out.code == 1 and out.stderr.count("\n") == 1 and says in out.stderr
    assert not (library_dir / "audits.jsonl").exists()
