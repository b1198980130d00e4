"""A Codex CLI session rollout, read for what an audit needs: the pages, the words.

Codex CLI records each session in ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``
(``$CODEX_HOME`` moves ``~/.codex``), one line an item: ``{"timestamp", "type", "payload"}``
(openai/codex, ``codex-rs/protocol/src/protocol.rs``: ``RolloutLine``, ``RolloutItem``;
``codex-rs/protocol/src/models.rs``: ``ResponseItem``). What is read:

- ``session_meta``: ``payload.id``, the session (the hooks' ``session_id``);
- ``response_item`` of type ``message``: the assistant's ``output_text`` parts (where its
  quotations are) and the user's ``input_text`` parts (a passage the user wrote is not a
  page's); ``developer`` and ``system`` messages are Codex's own and passed over;
- ``response_item`` of type ``function_call`` (``name``, ``arguments`` as a JSON text,
  ``call_id``) and ``local_shell_call`` (``action.command``): a shell command's fetches
  (``readreceipt fetch``, curl, wget; :mod:`.shellurls`), and an MCP tool's (named
  ``<server>__<tool>``) whose tool says fetch and whose arguments hold a ``url``;
- ``response_item`` of type ``web_search_call`` and ``event_msg`` ``web_search_end``: the
  searches (links seen, not pages read);
- ``event_msg`` ``mcp_tool_call_end`` (``invocation {server, tool, arguments}``): an MCP
  fetch not already met as a function call.

``compacted`` items (a model's summary of the session so far), ``turn_context`` and every
other item are passed over; a line that is not a JSON object is counted and passed over.
"""

from __future__ import annotations

import json
from typing import Any

from readreceipt.agents.fetchcalls import arguments
from readreceipt.agents.transcript import (
    MAX_TRANSCRIPT_BYTES,
    Fetch,
    Reader,
    Said,
    Search,
    Transcript,
)
from readreceipt.errors import UsageError

_SHELL_FUNCTIONS = frozenset({"shell", "exec_command", "shell_command", "local_shell",
                              "container.exec", "unified_exec"})


class RolloutReader(Reader):
    agent = "codex"

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.calls: set[str] = set()  # call ids of MCP fetches already counted
        # Queries already listed: an end event repeats its call's query, and a search of
        # every earlier one per event made a long rollout quadratic.
        self.queries: set[str] = set()

    def line(self, number: int, raw: bytes) -> None:
        try:
            item = json.loads(raw)
        except (ValueError, RecursionError):
            self.skipped += 1
            return
        if not isinstance(item, dict) or not isinstance(item.get("payload"), dict):
            self.skipped += 1
            return
        kind, payload = item.get("type"), item["payload"]
        if kind == "session_meta":
            self.entries += 1
            if self.session_id is None and isinstance(payload.get("id"), str):
                self.session_id = payload["id"]
        elif kind == "response_item":
            self.entries += 1
            self._response_item(number, payload)
        elif kind == "event_msg":
            self._event(number, payload)

    def _response_item(self, number: int, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "message":
            content = payload.get("content")
            texts = [part["text"] for part in (content if isinstance(content, list) else [])
                     if isinstance(part, dict) and isinstance(part.get("text"), str)]
            if payload.get("role") == "assistant":
                self.said.extend(Said(text, number) for text in texts)
            elif payload.get("role") == "user":
                self.user_words.extend(texts)
        elif kind == "function_call" and isinstance(payload.get("name"), str):
            self._function(number, payload["name"], payload.get("arguments"),
                           payload.get("call_id"))
        elif kind == "local_shell_call":
            action = payload.get("action")
            self._count("local_shell")
            if isinstance(action, dict):
                self.shell(number, action.get("command"), _id(payload.get("call_id")))
        elif kind == "web_search_call":
            action = payload.get("action")
            query = action.get("query") if isinstance(action, dict) else None
            self._count("web_search")
            if isinstance(query, str) and query:
                self.queries.add(query)
                self.searches.append(Search(query, number, _id(payload.get("id"))))

    def _function(self, number: int, name: str, raw: Any, call_id: Any) -> None:
        self._count(name)
        args = arguments(raw)
        use_id = _id(call_id)
        if name in _SHELL_FUNCTIONS or (name.endswith("shell") and "command" in args):
            self.shell(number, args.get("command", args.get("cmd")), use_id)
            return
        server, _, tool = name.rpartition("__")
        if server and "fetch" in tool:
            self._mcp_fetch(number, f"mcp__{server}__{tool}", args, use_id)

    def _mcp_fetch(self, number: int, tool: str, args: dict[str, Any],
                   use_id: str | None) -> None:
        url = args.get("url")
        if not isinstance(url, str) or not url.strip():
            return
        if use_id is not None:
            if use_id in self.calls:
                return
            self.calls.add(use_id)
        self.fetches.append(Fetch(tool, url.strip(), number, use_id))

    def _event(self, number: int, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "mcp_tool_call_end":
            invocation = payload.get("invocation")
            if isinstance(invocation, dict) and "fetch" in str(invocation.get("tool") or ""):
                tool = f"mcp__{invocation.get('server')}__{invocation.get('tool')}"
                self._mcp_fetch(number, tool, arguments(invocation.get("arguments")),
                                _id(payload.get("call_id")))
        elif kind == "web_search_end" and isinstance(payload.get("query"), str) and \
                payload["query"] not in self.queries:
            self.queries.add(payload["query"])
            self.searches.append(Search(payload["query"], number, _id(payload.get("call_id"))))

    def _count(self, name: str) -> None:
        self.tools[name] = self.tools.get(name, 0) + 1


def _id(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def read_rollout(path: str, data: bytes) -> Transcript:
    """The rollout's bytes (read by :func:`~readreceipt.agents.transcript.read_transcript`)."""
    reader = RolloutReader(path)
    reader.read(data, MAX_TRANSCRIPT_BYTES)
    if reader.entries == 0:
        raise UsageError(f"{path} holds no Codex CLI rollout item (one JSON object a line, "
                         "with \"type\" and \"payload\")", reason="bad_transcript")
    return reader.result()
