"""Cursor: postToolUse on its web fetch tool, MCP fetch tools and Shell downloads;
afterAgentResponse for the answer; stop with ``followup_message``.

From https://cursor.com/docs/agent/hooks ("Common input", "postToolUse",
"afterAgentResponse", "stop"):

- every payload: ``conversation_id, generation_id, model, hook_event_name, cursor_version,
  workspace_roots, user_email, transcript_path``;
- postToolUse: ``tool_name``, ``tool_input`` (an object), ``tool_output`` (the tool's result
  as a JSON string), ``duration``, ``tool_use_id``, ``cwd``. ``WebFetch`` takes a ``url``, an
  MCP tool is named ``MCP:<tool>``, and ``Shell`` runs ``tool_input.command``: pages to
  capture. Their results are taken as what the tool fetched, not as a model's answer about it
  (the documentation says nothing of a summary), so nothing is checked then;
- afterAgentResponse: ``text``, the agent's answer, checked against the pages of the
  conversation (it cannot reply; the stop that follows tells);
- stop: ``status`` and ``loop_count`` (how many follow-ups in a row already).

Replies: ``{"additional_context": ...}`` after a tool call; ``{"followup_message": ...}``
from stop is sent as the next user message (only when ``loop_count`` is 0: once).
"""

from __future__ import annotations

from readreceipt.agents.dialects import first_root, first_text, shell_downloads, text

NAME = "cursor"
TITLE = "Cursor"
DOCS = ("https://cursor.com/docs/agent/hooks",)
FETCH_TOOLS = ("WebFetch", "web_fetch", "Fetch")
QUIET = None
#: Can a stop be kept from happening (the reply is read)?
CAN_STOP = True

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.agents.fetchcalls import FetchCall


def session(payload: object) -> str | None:
    return first_text(payload, "conversation_id", "session_id", limit=200)


def agent(payload: object) -> str | None:
    return None


def cwd(payload: object) -> str | None:
    return text(payload, "cwd") or first_root(payload, "workspace_roots")


def _mcp_fetch(name: object) -> bool:
    return isinstance(name, str) and name.startswith("MCP:") and "fetch" in name[4:].lower()


def is_fetch(payload: object) -> bool:
    if not isinstance(payload, dict):
        return False
    name = payload.get("tool_name")
    if name == "Shell":
        tool_input = payload.get("tool_input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else tool_input
        return shell_downloads(command)
    return name in FETCH_TOOLS or _mcp_fetch(name)


def stop_active(payload: object) -> bool:
    if not isinstance(payload, dict):
        return False
    count = payload.get("loop_count")
    return (isinstance(count, int) and count > 0) or payload.get("stop_hook_active") is True


def final_message(payload: object) -> tuple[str | None, str | None]:
    if text(payload, "hook_event_name") not in (None, "afterAgentResponse"):
        return None, None
    return text(payload, "text"), None


def after_reply(context: str) -> dict[str, object]:
    return {"additional_context": context}


def stop_reply(reason: str) -> dict[str, object] | None:
    return {"followup_message": reason}


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    from readreceipt.agents.fetchcalls import FetchCall, Skip, arguments, number, string, web_url
    from readreceipt.agents.shellurls import fetched_in_shell

    name = string(payload.get("tool_name"), 200)
    tool_input = arguments(payload.get("tool_input"))
    duration = payload.get("duration")
    common: dict[str, Any] = {
        "event": string(payload.get("hook_event_name")) or "postToolUse", "session_id":
        session(payload), "cwd": cwd(payload), "tool_use_id": string(payload.get("tool_use_id"),
        200), "duration_ms": number(duration) if number(duration) is not None else
        (int(duration) if isinstance(duration, float) else None)}
    if name == "Shell":
        command = tool_input.get("command")
        found = fetched_in_shell(command) if isinstance(command, str | list) else []
        if not found:
            raise Skip("hook_no_url", "the shell command fetches no http(s) URL")
        return [FetchCall(tool=f"Shell ({tool})", urls=(url,), **common) for tool, url in found]
    if name in FETCH_TOOLS or _mcp_fetch(name):
        url = web_url(tool_input.get("url"))
        if url is None:
            raise Skip("hook_no_url", f"{name}'s input has no http(s) url")
        return [FetchCall(tool=name or "?", urls=(url,), **common)]
    raise Skip("hook_not_a_fetch", f"the hook was called for {str(name)[:80]!r}, not a fetch")
