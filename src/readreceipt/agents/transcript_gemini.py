"""A Gemini CLI saved chat, read for what an audit needs: the pages, the words.

Gemini CLI saves each session in ``~/.gemini/tmp/<project_hash>/chats/`` (its
``docs/cli/session-management.md``, "Automatic saving"): the complete conversation, tool
executions included. The file's shape is the CLI's own (google-gemini/gemini-cli,
``packages/core/src/services/chatRecordingTypes.ts`` and ``chatRecordingService.ts``):

- ``session-<time>-<id>.jsonl``: a first line of metadata ``{sessionId, projectHash,
  startTime, ...}``, then one message record a line ``{id, timestamp, type, content,
  toolCalls?}``; a record written again with the same ``id`` replaces the earlier one,
  ``{"$rewindTo": id}`` drops that message and every later one, ``{"$set": {...}}`` updates
  the metadata (with ``messages``: the conversation from there on);
- an older CLI's ``session-*.json``: one document ``{sessionId, projectHash, messages}``.

What is read: ``user`` messages (the user's words), ``gemini`` messages (the model's words,
where its quotations are) and their ``toolCalls`` ``{id, name, args, result, status}``:
``web_fetch`` (each http(s) URL of ``args.prompt``, up to 20, or ``args.url``; its result is
the tool's answer), ``run_shell_command`` (``args.command``: ``readreceipt fetch``, curl,
wget), an MCP tool whose name says fetch with a ``url`` argument, and
``google_web_search`` (``args.query``: a search, links seen, not pages read). ``info``,
``error`` and ``warning`` messages are the CLI's own and passed over.
"""

from __future__ import annotations

import json
from typing import Any

from readreceipt.agents.fetchcalls import result_text, urls_in_text
from readreceipt.agents.transcript import (
    MAX_TRANSCRIPT_BYTES,
    Fetch,
    Reader,
    Said,
    Search,
    Transcript,
)
from readreceipt.errors import UsageError


class ChatReader(Reader):
    agent = "gemini"

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.messages: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (line, record)

    def line(self, number: int, raw: bytes) -> None:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            self.skipped += 1
            return
        if not isinstance(record, dict):
            self.skipped += 1
            return
        self.record(number, record)

    def record(self, number: int, record: dict[str, Any]) -> None:
        if isinstance(record.get("$rewindTo"), str):
            # Popped from the end (dicts keep their order) to the message rewound to: a copy
            # and a search of every id per rewind made a long session quadratic.
            target = record["$rewindTo"]
            if target not in self.messages:
                self.messages.clear()
            else:
                while self.messages.popitem()[0] != target:
                    pass
            return
        updates = record.get("$set")
        if isinstance(updates, dict):
            self._metadata(updates)
            if isinstance(updates.get("messages"), list):
                self.messages.clear()
                self._messages(number, updates["messages"])
            return
        if isinstance(record.get("id"), str) and isinstance(record.get("type"), str):
            self.messages[record["id"]] = (number, record)
            return
        if self._metadata(record) and isinstance(record.get("messages"), list):
            self._messages(number, record["messages"])

    def _metadata(self, record: dict[str, Any]) -> bool:
        if isinstance(record.get("sessionId"), str) and record["sessionId"]:
            self.session_id = self.session_id or record["sessionId"]
            return True
        return False

    def _messages(self, number: int, messages: list[Any]) -> None:
        for i, message in enumerate(messages, start=1):
            if isinstance(message, dict) and isinstance(message.get("id"), str):
                # a whole document's messages have no line of their own: their place
                self.messages[message["id"]] = (number if number > 1 else i, message)

    def finish(self) -> None:
        for number, message in self.messages.values():
            kind = message.get("type")
            if kind not in ("user", "gemini"):
                continue
            self.entries += 1
            text = result_text(message.get("content"))
            if kind == "user":
                if text:
                    self.user_words.append(text)
                continue
            if text:
                self.said.append(Said(text, number))
            calls = message.get("toolCalls")
            for call in calls if isinstance(calls, list) else []:
                if isinstance(call, dict):
                    self._tool(number, call)

    def _tool(self, number: int, call: dict[str, Any]) -> None:
        name, args = call.get("name"), call.get("args")
        if not isinstance(name, str) or not isinstance(args, dict):
            return
        self.tools[name] = self.tools.get(name, 0) + 1
        use_id = call.get("id") if isinstance(call.get("id"), str) else None
        if name == "web_fetch":
            prompt = args.get("prompt") if isinstance(args.get("prompt"), str) else None
            url = args.get("url")
            urls = [url] if isinstance(url, str) and url else urls_in_text(prompt or "")
            answer = result_text(call.get("result"))
            for found in urls:
                self.fetches.append(Fetch("web_fetch", found, number, use_id, prompt, answer))
        elif name == "run_shell_command":
            self.shell(number, args.get("command"), use_id)
        elif name == "google_web_search" and isinstance(args.get("query"), str):
            self.searches.append(Search(args["query"], number, use_id))
        elif "fetch" in name and isinstance(args.get("url"), str) and args["url"].strip():
            self.fetches.append(Fetch(name, args["url"].strip(), number, use_id))


def read_chat(path: str, data: bytes) -> Transcript:
    """The saved chat's bytes (read by :func:`~readreceipt.agents.transcript.read_transcript`)."""
    reader = ChatReader(path)
    document = None
    if data.lstrip()[:1] == b"{" and b"\n" in data.strip():
        try:  # an older CLI's one JSON document
            document = json.loads(data[:MAX_TRANSCRIPT_BYTES])
        except (ValueError, RecursionError):
            document = None
    if isinstance(document, dict):
        reader.record(1, document)
    else:
        reader.read(data, MAX_TRANSCRIPT_BYTES)
    reader.finish()
    if reader.entries == 0:
        raise UsageError(f"{path} holds no Gemini CLI chat message (a \"user\" or \"gemini\" "
                         "message)", reason="bad_transcript")
    return reader.result()
