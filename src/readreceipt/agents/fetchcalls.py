"""The one event every agent's fetch becomes: a :class:`FetchCall` (the worker's side).

A dialect (:mod:`readreceipt.agents.dialects`) reads its agent's after-a-tool payload into
FetchCall values; :mod:`readreceipt.agents.hookworker` captures each URL and checks the
answer, whoever sent it. A payload that names nothing to capture raises :class:`Skip` with
the rule that says why (one line of ``skipped.jsonl``).

Invariants: a FetchCall's strings are the payload's, cut to sane lengths; nothing here does
I/O; the answer (a fetch tool's own answer about the page: WebFetch's or Gemini CLI's small
model) is None whenever the tool handed the page itself back (curl, an MCP fetch server, a
fetch tool that returns the page as markdown): a page's text is not an answer to check.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The most URLs one call may name (Gemini CLI's web_fetch takes up to 20 in its prompt).
MAX_URLS = 20
#: Characters of a fetch tool's error kept in the record.
ERROR_CHARS = 2000


class Skip(Exception):
    """A payload that will not become a capture, and the rule that says so."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class FetchCall:
    """One tool call that fetched one or more pages, as every agent's payload maps to it."""

    tool: str
    event: str
    urls: tuple[str, ...]
    prompt: str | None = None
    answer: str | None = None
    session_id: str | None = None
    agent_id: str | None = None
    cwd: str | None = None
    tool_use_id: str | None = None
    status: int | None = None
    bytes: int | None = None
    duration_ms: int | None = None
    error: str | None = None
    redirect_notice: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def agent_fetch(self) -> dict[str, Any]:
        """What the agent's own fetch reported, as the record keeps it (``agent_fetch``)."""
        info: dict[str, Any] = {"tool": self.tool, "event": self.event,
                                "tool_use_id": self.tool_use_id}
        for key, value in (("status", self.status), ("bytes", self.bytes),
                           ("duration_ms", self.duration_ms)):
            if value is not None:
                info[key] = value
        if self.error is not None:
            info["error"] = self.error[:ERROR_CHARS]
        if self.redirect_notice:
            info["redirect_notice"] = True
        if len(self.urls) > 1:
            info["urls_in_call"] = len(self.urls)
        return {**info, **self.extra}


def string(value: Any, limit: int | None = None) -> str | None:
    """``value`` when it is a non-empty string (cut to ``limit``), else None."""
    if not isinstance(value, str) or not value:
        return None
    return value[:limit] if limit else value


def number(value: Any) -> int | None:
    """``value`` when it is an integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def arguments(value: Any) -> dict[str, Any]:
    """A tool's arguments: an object, or a JSON text of one (Cursor and Copilot CLI send a
    string); anything else is no arguments."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return {}
    return value if isinstance(value, dict) else {}


def web_url(value: Any) -> str | None:
    """``value`` when it is an http(s) URL string (at most 8 KiB), else None."""
    text = string(value)
    if text is None or len(text) > 8192:
        return None
    text = text.strip()
    return text if text[:8].lower().startswith(("http://", "https://")) else None


def urls_in_text(text: str, limit: int = MAX_URLS) -> list[str]:
    """The http(s) URLs of a free-text prompt, in order, once each: each whitespace-separated
    word that starts with a scheme (as Gemini CLI's web_fetch reads its prompt), without the
    punctuation a sentence puts after it."""
    found: list[str] = []
    for word in text.split():
        word = word.strip("<>()[]{}\"'`")
        word = word.rstrip(".,;:!?")
        url = web_url(word)
        if url is not None and url not in found:
            found.append(url)
            if len(found) >= limit:
                break
    return found


def result_text(value: Any, depth: int = 0) -> str | None:
    """The text of a tool's result: a string, or the ``text`` (and ``output``) strings of a
    list of parts or of an object (MCP content, Gemini parts), joined."""
    if depth > 6:
        return None
    if isinstance(value, str):
        return value or None
    parts: list[str] = []
    if isinstance(value, list):
        for item in value[:200]:
            found = result_text(item, depth + 1)
            if found:
                parts.append(found)
    elif isinstance(value, dict):
        for key in ("text", "output", "content", "llmContent", "response", "functionResponse"):
            if key in value:
                found = result_text(value[key], depth + 1)
                if found:
                    parts.append(found)
                    break
    return "\n".join(parts) or None


__all__ = ["ERROR_CHARS", "MAX_URLS", "FetchCall", "Skip", "arguments", "number",
           "result_text", "string", "urls_in_text", "web_url"]
