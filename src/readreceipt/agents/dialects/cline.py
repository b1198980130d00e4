"""Cline: the PostToolUse hook (web_fetch, MCP fetch tools, shell downloads) and TaskComplete.

From Cline's hooks documentation (docs.cline.bot/customization/hooks; ``docs/customization/
hooks.mdx`` of cline/cline, "Input Structure", "Output Structure", "PostToolUse",
"TaskComplete"), and how the VS Code extension fills them (``apps/vscode/src/sdk/
hooks-adapter.ts``):

- every payload: ``taskId, hookName, clineVersion, timestamp, workspaceRoots, userId,
  model {provider, slug}``, and one field named after the hook;
- ``postToolUse {toolName, parameters, result, success, executionTimeMs}``: the parameters'
  values are strings; ``web_fetch`` takes ``url`` and returns the page as markdown,
  ``use_mcp_tool`` names ``server_name``, ``tool_name`` and its ``arguments`` (JSON text),
  ``execute_command`` runs ``command``: pages to capture, no answer to check;
- ``taskComplete {taskMetadata {taskId, ulid, initialTask, result}}``: ``result`` is the
  task's final answer, checked against the task's pages.

Replies: ``{"cancel": false, "contextModification": ...}`` puts text before Cline after a tool
call. TaskComplete's output is not read: the task has ended, so it cannot be kept going;
what its check finds is written down and told at the next tool call if the task resumes.
A hook is one executable file per hook type (see :mod:`readreceipt.agents.hookconfigs`).
"""

from __future__ import annotations

from readreceipt.agents.dialects import first_root, shell_downloads, text

NAME = "cline"
TITLE = "Cline"
DOCS = ("https://docs.cline.bot/customization/hooks",
        "https://github.com/cline/cline/blob/main/apps/vscode/src/sdk/hooks-adapter.ts")
FETCH_TOOL = "web_fetch"
#: Cline reads a hook's answer from its stdout and warns when there is none.
QUIET = {"cancel": False}
#: TaskComplete comes when the task has ended; its output is not read.
CAN_STOP = False

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.agents.fetchcalls import FetchCall


def session(payload: object) -> str | None:
    return text(payload, "taskId", limit=200)


def agent(payload: object) -> str | None:
    return None


def cwd(payload: object) -> str | None:
    return first_root(payload, "workspaceRoots")


def _call(payload: object) -> tuple[object, dict[str, object]]:
    post = payload.get("postToolUse") if isinstance(payload, dict) else None
    if not isinstance(post, dict):
        return None, {}
    parameters = post.get("parameters")
    return post.get("toolName"), parameters if isinstance(parameters, dict) else {}


def is_fetch(payload: object) -> bool:
    name, parameters = _call(payload)
    if name == FETCH_TOOL:
        return True
    if name == "execute_command":
        return shell_downloads(parameters.get("command"))
    tool = parameters.get("tool_name")
    return name == "use_mcp_tool" and isinstance(tool, str) and "fetch" in tool


def stop_active(payload: object) -> bool:
    return False  # TaskComplete comes once, when the task has ended


def final_message(payload: object) -> tuple[str | None, str | None]:
    return (text(payload, "taskComplete", "taskMetadata", "result"),
            text(payload, "taskComplete", "taskMetadata", "initialTask"))


def after_reply(context: str) -> dict[str, object]:
    return {"cancel": False, "contextModification": context, "errorMessage": ""}


def stop_reply(reason: str) -> dict[str, object] | None:
    return None  # TaskComplete's output is not read


def fetches(payload: dict[str, object]) -> list[FetchCall]:
    from readreceipt.agents.fetchcalls import FetchCall, Skip, arguments, number, web_url
    from readreceipt.agents.shellurls import fetched_in_shell

    name, parameters = _call(payload)
    post = payload.get("postToolUse")
    post = post if isinstance(post, dict) else {}
    failed = post.get("success") is False
    common: dict[str, Any] = {
        "event": "PostToolUse", "session_id": session(payload), "cwd": cwd(payload),
        "duration_ms": number(post.get("executionTimeMs")), "error": str(post.get("result") or
        "the tool failed") if failed else None}
    if name == FETCH_TOOL:
        url = web_url(parameters.get("url"))
        if url is None:
            raise Skip("hook_no_url", "web_fetch's parameters have no http(s) url")
        return [FetchCall(tool=FETCH_TOOL, urls=(url,), **common)]
    if name == "execute_command":
        command = parameters.get("command")
        found = fetched_in_shell(command) if isinstance(command, str) else []
        if not found:
            raise Skip("hook_no_url", "the shell command fetches no http(s) URL")
        return [FetchCall(tool=f"execute_command ({tool})", urls=(url,), **common)
                for tool, url in found]
    if name == "use_mcp_tool":
        url = web_url(arguments(parameters.get("arguments")).get("url"))
        if url is None:
            raise Skip("hook_no_url", "the MCP tool's arguments have no http(s) url")
        tool = f"{parameters.get('server_name')}/{parameters.get('tool_name')}"[:200]
        return [FetchCall(tool=tool, urls=(url,), **common)]
    raise Skip("hook_not_a_fetch", f"the hook was called for {str(name)[:80]!r}, not a fetch")
