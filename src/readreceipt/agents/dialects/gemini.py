"""Gemini CLI: AfterTool (web_fetch, MCP fetch tools) and AfterAgent as the stop gate.

From google-gemini/gemini-cli ``docs/hooks/reference.md`` ("Base input schema", "AfterTool",
"AfterAgent") and ``docs/tools/web-fetch.md``:

- every payload: ``session_id, transcript_path, cwd, hook_event_name, timestamp``;
- AfterTool: ``tool_name, tool_input, tool_response {llmContent, returnDisplay, error}``;
  ``web_fetch`` takes one ``prompt`` holding up to 20 http(s) URLs and instructions (and, in
  an experimental mode, one ``url``), and its ``llmContent`` is the model's answer about the
  pages, with sources: the answer readreceipt checks, against all the pages the prompt named.
  MCP tools are named ``mcp_<server>_<tool>``; one whose name says fetch and whose input has
  a ``url`` hands the page itself back (nothing to check, a page to capture);
- AfterAgent: ``prompt``, ``prompt_response`` (the final answer), ``stop_hook_active``.

Replies: ``hookSpecificOutput.additionalContext`` is appended to the tool's result;
``{"decision": "deny", "reason"}`` from AfterAgent rejects the answer and sends the reason to
the agent as its next prompt. Exit 0 with JSON only on stdout (exit 2 would block with stderr).
"""

from __future__ import annotations

from readreceipt.agents.dialects import text

NAME = "gemini"
TITLE = "Gemini CLI"
DOCS = ("https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md",
        "https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/web-fetch.md")
FETCH_TOOL = "web_fetch"
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
    return None  # Gemini CLI's payloads name no subagent


def cwd(payload: object) -> str | None:
    return text(payload, "cwd")


def _mcp_fetch(name: object) -> bool:
    return isinstance(name, str) and name.startswith("mcp_") and "fetch" in name[4:]


def is_fetch(payload: object) -> bool:
    if not isinstance(payload, dict):
        return False
    name = payload.get("tool_name")
    return name == FETCH_TOOL or _mcp_fetch(name)


def stop_active(payload: object) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True


def final_message(payload: object) -> tuple[str | None, str | None]:
    if text(payload, "hook_event_name") not in (None, "AfterAgent"):
        return None, None
    return text(payload, "prompt_response"), text(payload, "prompt")


def after_reply(context: str) -> dict[str, object]:
    return {"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": context}}


def stop_reply(reason: str) -> dict[str, object] | None:
    return {"decision": "deny", "reason": reason}


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    from readreceipt.agents.fetchcalls import (
        FetchCall,
        Skip,
        arguments,
        result_text,
        string,
        urls_in_text,
        web_url,
    )

    name = string(payload.get("tool_name"), 200)
    tool_input = arguments(payload.get("tool_input"))
    response = payload.get("tool_response")
    error = response.get("error") if isinstance(response, dict) else None
    common: dict[str, Any] = {
        "tool": name or "?", "event": string(payload.get("hook_event_name")) or "AfterTool",
        "session_id": string(payload.get("session_id"), 200), "cwd": string(payload.get("cwd")),
        "error": None if error is None else str(error)}
    if name == FETCH_TOOL:
        prompt = string(tool_input.get("prompt"))
        direct = web_url(tool_input.get("url"))
        urls = [direct] if direct else urls_in_text(prompt or "")
        if not urls:
            raise Skip("hook_no_url", "web_fetch's prompt names no http(s) URL")
        answer = None
        if error is None and isinstance(response, dict):
            answer = result_text(response.get("llmContent"))
        return [FetchCall(urls=tuple(urls), prompt=prompt, answer=answer, **common)]
    if _mcp_fetch(name):
        url = web_url(tool_input.get("url"))
        if url is None:
            raise Skip("hook_no_url", f"{name}'s input has no http(s) url")
        return [FetchCall(urls=(url,), **common)]
    raise Skip("hook_not_a_fetch", f"the hook was called for {str(name)[:80]!r}, not a fetch")
