"""GitHub Copilot CLI: postToolUse on shell downloads and MCP fetch tools, agentStop.

From https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
("Hook configuration format", "postToolUse", "agentStop") and the CLI's changelog
(github/copilot-cli ``changelog.md``: agentStop's ``stop_hook_active``, its cap of 8 blocks):

- postToolUse: ``timestamp, cwd, toolName, toolArgs`` (a JSON text), ``toolResult
  {resultType, textResultForLlm}``, and ``sessionId``; hooks configured under the
  PascalCase names get the snake_case payload instead (``session_id, tool_name,
  tool_input``), read here as well;
- agentStop: ``sessionId``, ``transcriptPath``, ``stop_hook_active``; no final answer;
- replies: ``{"additionalContext": ...}`` after a tool call; ``{"decision": "block",
  "reason"}`` from agentStop becomes the next prompt.

What Copilot CLI cannot do today: its ``postToolUse`` is not dispatched for its own
``web_fetch`` tool (github/copilot-cli issue 3665), so a page read with web_fetch reaches
no hook; pages fetched with ``bash``/``powershell`` (curl, wget, ``readreceipt fetch``) and
with MCP fetch tools are captured. The hook is registered for ``web_fetch`` anyway, so the
day Copilot CLI dispatches it, those pages are captured too.
"""

from __future__ import annotations

from readreceipt.agents.dialects import first_text, shell_downloads, text

NAME = "copilot"
TITLE = "GitHub Copilot CLI"
DOCS = ("https://docs.github.com/en/copilot/reference/copilot-cli-reference/"
        "cli-hooks-reference", "https://github.com/github/copilot-cli/issues/3665")
FETCH_TOOL = "web_fetch"
SHELLS = ("bash", "powershell", "Bash")
QUIET = None
#: Can a stop be kept from happening (the reply is read)?
CAN_STOP = True

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.agents.fetchcalls import FetchCall


def session(payload: object) -> str | None:
    return first_text(payload, "sessionId", "session_id", limit=200)


def agent(payload: object) -> str | None:
    return None


def cwd(payload: object) -> str | None:
    return text(payload, "cwd")


def _tool(payload: object) -> tuple[object, object]:
    if not isinstance(payload, dict):
        return None, None
    if "toolName" in payload:
        return payload.get("toolName"), payload.get("toolArgs")
    return payload.get("tool_name"), payload.get("tool_input")


def _mcp_fetch(name: object) -> bool:
    return isinstance(name, str) and name not in (FETCH_TOOL, *SHELLS) and "fetch" in name


def is_fetch(payload: object) -> bool:
    name, args = _tool(payload)
    if name in SHELLS:
        return shell_downloads(args)  # the JSON text of {"command": ...} holds the command
    return name == FETCH_TOOL or _mcp_fetch(name)


def stop_active(payload: object) -> bool:
    return isinstance(payload, dict) and (payload.get("stop_hook_active") is True
                                          or payload.get("stopHookActive") is True)


def final_message(payload: object) -> tuple[str | None, str | None]:
    return None, None


def after_reply(context: str) -> dict[str, object]:
    return {"additionalContext": context}


def stop_reply(reason: str) -> dict[str, object] | None:
    return {"decision": "block", "reason": reason}


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    from readreceipt.agents.fetchcalls import FetchCall, Skip, arguments, string, web_url
    from readreceipt.agents.shellurls import fetched_in_shell

    name, raw = _tool(payload)
    args = arguments(raw)
    result = payload.get("toolResult")
    failed = isinstance(result, dict) and result.get("resultType") not in (None, "success")
    common: dict[str, Any] = {
        "event": "postToolUse", "session_id": session(payload), "cwd": cwd(payload), "error":
        str(result.get("resultType")) if failed and isinstance(result, dict) else None}
    if name in SHELLS:
        command = args.get("command")
        found = fetched_in_shell(command) if isinstance(command, str) else []
        if not found:
            raise Skip("hook_no_url", "the shell command fetches no http(s) URL")
        return [FetchCall(tool=f"{name} ({tool})", urls=(url,), **common) for tool, url in found]
    if name == FETCH_TOOL or _mcp_fetch(name):
        url = web_url(args.get("url"))
        if url is None:
            raise Skip("hook_no_url", f"{name}'s arguments have no http(s) url")
        return [FetchCall(tool=string(name, 200) or "?", urls=(url,), **common)]
    raise Skip("hook_not_a_fetch", f"the hook was called for {str(name)[:80]!r}, not a fetch")
