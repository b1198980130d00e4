"""Claude Code: PostToolUse / PostToolUseFailure on WebFetch, Stop and SubagentStop.

Payloads (https://code.claude.com/docs/en/hooks, "PostToolUse input", "Stop input"):
``session_id, transcript_path, cwd, permission_mode, hook_event_name, tool_name, tool_input
{url, prompt}, tool_response {bytes, code, codeText, result, durationMs, url}, tool_use_id``,
and ``agent_id`` inside a subagent; a failed fetch comes as PostToolUseFailure with ``error``.
``result`` is WebFetch's small model's answer about the page, the answer readreceipt checks.
Replies: ``hookSpecificOutput.additionalContext`` after a tool call, ``{"decision": "block",
"reason"}`` to keep the agent from stopping.
"""

from __future__ import annotations

from readreceipt.agents.dialects import text

NAME = "claude"
TITLE = "Claude Code"
DOCS = ("https://code.claude.com/docs/en/hooks",)
#: WebFetch's answer when a URL redirects to another host: a notice naming the new URL and
#: repeating the prompt, not an answer about any page. Its quoted URL and prompt must not be
#: checked as quotations, so the notice is recognised and recorded instead.
REDIRECT_NOTICE_MARKS = ("REDIRECT DETECTED", "redirects to a different host")
QUIET = None
#: Can a stop be kept from happening (the reply is read)?
CAN_STOP = True

TYPE_CHECKING = False
if TYPE_CHECKING:
    from readreceipt.agents.fetchcalls import FetchCall


def session(payload: object) -> str | None:
    return text(payload, "session_id")


def agent(payload: object) -> str | None:
    return text(payload, "agent_id")


def cwd(payload: object) -> str | None:
    return text(payload, "cwd")


def is_fetch(payload: object) -> bool:
    return isinstance(payload, dict) and payload.get("tool_name") == "WebFetch"


def stop_active(payload: object) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True


def final_message(payload: object) -> tuple[str | None, str | None]:
    # WebFetch's answers are checked as they come; the stop tells what they found.
    return None, None


def after_reply(context: str) -> dict[str, object]:
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": context}}


def stop_reply(reason: str) -> dict[str, object] | None:
    return {"decision": "block", "reason": reason}


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    """One call for a PostToolUse or PostToolUseFailure payload of WebFetch."""
    import json

    from readreceipt.agents.fetchcalls import FetchCall, Skip, number, string

    tool = payload.get("tool_name")
    if tool is not None and tool != "WebFetch":
        raise Skip("hook_not_webfetch", f"the hook was called for {str(tool)[:80]!r}, "
                   "not WebFetch")
    tool_input = payload.get("tool_input")
    url = string(tool_input.get("url")) if isinstance(tool_input, dict) else None
    if url is None:
        raise Skip("hook_no_url", "the payload's tool_input has no url string")
    prompt = string(tool_input.get("prompt")) if isinstance(tool_input, dict) else None
    event = string(payload.get("hook_event_name")) or "PostToolUse"
    response = payload.get("tool_response")
    answer = None
    status = size = duration = None
    if isinstance(response, dict):
        answer = string(response.get("result"))
        status, size = number(response.get("code")), number(response.get("bytes"))
        duration = number(response.get("durationMs"))
    elif isinstance(response, str):
        answer = string(response)
    error = payload.get("error")
    error_text = None
    if event == "PostToolUseFailure" or error is not None:
        answer = None  # a failed fetch answered nothing; the URL is still worth a receipt
        error_text = error if isinstance(error, str) else json.dumps(error)
    notice = answer is not None and any(mark in answer for mark in REDIRECT_NOTICE_MARKS)
    return [FetchCall(
        tool="WebFetch", event=event, urls=(url,), prompt=prompt,
        answer=None if notice else answer, session_id=string(payload.get("session_id"), 200),
        agent_id=string(payload.get("agent_id"), 200), cwd=string(payload.get("cwd")),
        tool_use_id=string(payload.get("tool_use_id"), 200), status=status, bytes=size,
        duration_ms=duration, error=error_text, redirect_notice=notice)]
