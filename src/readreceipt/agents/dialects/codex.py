"""Codex CLI: PostToolUse on Bash (curl, wget, ``readreceipt fetch``) and MCP fetch tools,
and Stop with the turn's last message.

From https://developers.openai.com/codex/hooks ("Common input fields", "PostToolUse",
"Stop") and the wire schemas in openai/codex ``codex-rs/hooks/schema/generated/``
(``post-tool-use.command.input``, ``stop.command.input`` and their outputs):

- every payload: ``session_id, transcript_path, cwd, hook_event_name, model, turn_id``;
- PostToolUse: ``tool_name`` (``Bash``, ``apply_patch``, or ``mcp__<server>__<tool>``),
  ``tool_input`` (``{"command": "..."}`` for Bash, the raw MCP arguments for an MCP tool),
  ``tool_response`` (the command's output as a string; the MCP ``CallToolResult``), and
  ``tool_use_id``. Neither the output of curl nor an MCP fetch server's result is an answer
  about the page: it is the page. The pages are captured, and the turn's answer is checked;
- Stop: ``last_assistant_message`` (the turn's final answer, may be null) and
  ``stop_hook_active``.

Replies (the outputs' schemas allow no other fields): ``hookSpecificOutput`` with
``hookEventName: "PostToolUse"`` and ``additionalContext``; ``{"decision": "block",
"reason"}`` from Stop turns the reason into the agent's next prompt.
"""

from __future__ import annotations

from readreceipt.agents.dialects import shell_downloads, text

NAME = "codex"
TITLE = "Codex CLI"
DOCS = ("https://developers.openai.com/codex/hooks",
        "https://github.com/openai/codex/tree/main/codex-rs/hooks/schema/generated")
QUIET = None
#: Can a stop be kept from happening (the reply is read)?
CAN_STOP = True

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.agents.fetchcalls import FetchCall


def session(payload: object) -> str | None:
    return text(payload, "session_id")


def agent(payload: object) -> str | None:
    return text(payload, "agent_id")


def cwd(payload: object) -> str | None:
    return text(payload, "cwd")


def _mcp_fetch(name: object) -> bool:
    return isinstance(name, str) and name.startswith("mcp__") and \
        "fetch" in name.rsplit("__", 1)[-1]


def is_fetch(payload: object) -> bool:
    if not isinstance(payload, dict):
        return False
    name = payload.get("tool_name")
    if name == "Bash":
        tool_input = payload.get("tool_input")
        return isinstance(tool_input, dict) and shell_downloads(tool_input.get("command"))
    return _mcp_fetch(name)


def stop_active(payload: object) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True


def final_message(payload: object) -> tuple[str | None, str | None]:
    return text(payload, "last_assistant_message"), None


def after_reply(context: str) -> dict[str, object]:
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": context}}


def stop_reply(reason: str) -> dict[str, object] | None:
    return {"decision": "block", "reason": reason}


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    from readreceipt.agents.fetchcalls import FetchCall, Skip, arguments, string, web_url
    from readreceipt.agents.shellurls import fetched_in_shell

    name = string(payload.get("tool_name"), 200)
    tool_input = arguments(payload.get("tool_input"))
    common: dict[str, Any] = {
        "event": string(payload.get("hook_event_name")) or "PostToolUse", "session_id":
        string(payload.get("session_id"), 200), "agent_id": string(payload.get("agent_id"),
        200), "cwd": string(payload.get("cwd")), "tool_use_id":
        string(payload.get("tool_use_id"), 200), "extra": {"turn_id":
        string(payload.get("turn_id"), 200)}}
    if name == "Bash":
        command = tool_input.get("command")
        found = fetched_in_shell(command) if isinstance(command, str | list) else []
        if not found:
            raise Skip("hook_no_url", "the shell command fetches no http(s) URL")
        return [FetchCall(tool=f"Bash ({tool})", urls=(url,), **common) for tool, url in found]
    if _mcp_fetch(name):
        url = web_url(tool_input.get("url"))
        if url is None:
            raise Skip("hook_no_url", f"{name}'s input has no http(s) url")
        return [FetchCall(tool=name or "mcp", urls=(url,), **common)]
    raise Skip("hook_not_a_fetch", f"the hook was called for {str(name)[:80]!r}, not a fetch")
