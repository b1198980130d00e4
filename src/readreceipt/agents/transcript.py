"""A session transcript, read for what an audit needs: the pages, the words.

Three agents' files are read (:func:`read_transcript` tells them apart by their first
entry): Claude Code's session transcript (this module), Codex CLI's session rollout
(:mod:`.transcript_codex`) and Gemini CLI's saved chat (:mod:`.transcript_gemini`). Each
becomes the same :class:`Transcript`.

Claude Code's:

The transcript (``transcript_path`` in every hook payload) is JSON Lines, one entry a line:
``{"type": "user"|"assistant", "sessionId", "uuid", "timestamp", "message": {"role",
"content"}}``. An assistant's ``content`` is a list of blocks: ``{"type": "text", "text"}`` and
``{"type": "tool_use", "id", "name", "input"}``; the tool's answer comes back in a user entry
as ``{"type": "tool_result", "tool_use_id", "content"}``, with the tool's own result object
beside the message under ``toolUseResult``. Entries of other types, and blocks of other
kinds, are passed over.

What is read (:func:`read_transcript`):

- every page the session fetched: ``WebFetch`` (its URL, prompt and the fetch tool's
  answer and status), ``readreceipt fetch URL`` run through the Bash tool, and the MCP
  server's ``fetch_page`` and ``capture`` tools (``mcp__<server>__fetch_page``);
- every ``WebSearch``: its query and the result URLs it returned (links seen, not pages read);
- every text block the assistant wrote (where its quotations are), and the user's own words
  (a passage the user wrote is not a page's). A user entry Claude Code wrote itself is not
  the user's: the summary a compaction leaves (``isCompactSummary``, a model's words, which
  repeat the answers' quotations) and a subagent's prompt (an entry of a sidechain, written
  by the main agent; nothing a subagent's file holds is the user's). Their tool results are
  still read.

A session's subagents: Claude Code writes each one's transcript beside the session's, in
``<session>/subagents/agent-<id>.jsonl`` (older versions wrote them into the session's own
file, as sidechain entries). Those files are read as part of the session, each thing found
there naming its file (``source``): a page only a subagent fetched is still a page the
session read.

Invariants: a line that is not a JSON object, or an entry of an unknown shape, is counted
and passed over, never fatal; nothing here does I/O beyond reading the transcript and its
subagents' files, and at most :data:`MAX_TRANSCRIPT_BYTES` of them all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from readreceipt.agents.shellurls import fetched_by_command, fetched_in_shell
from readreceipt.errors import UsageError

#: The most of a transcript read. A long working session writes some tens of megabytes.
MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024
#: Subagent transcripts read at most beside a session's own.
MAX_SUBAGENT_FILES = 1000
#: Where Claude Code keeps a session's subagent transcripts, relative to ``<session>.jsonl``.
SUBAGENTS_FOLDER = "subagents"
#: Result URLs kept per search (a search returns ten or so).
MAX_SEARCH_URLS = 50

#: Flags of a user entry whose words are not the user's: a compaction's summary (a model's
#: words) and a sidechain's prompt (the main agent's words to a subagent). (``isMeta``
#: entries stay the user's: a slash command's text comes from the user's own files.)
_NOT_THE_USERS = ("isCompactSummary", "isSidechain")


@dataclass(frozen=True)
class Fetch:
    """A page the session asked for."""

    tool: str  # WebFetch | readreceipt fetch | <mcp tool name>
    url: str
    line: int
    tool_use_id: str | None = None
    prompt: str | None = None
    answer: str | None = None  # the fetch tool's answer (WebFetch's small model)
    status: int | None = None  # what the agent's own fetch reported
    source: str | None = None  # the subagent's file it is in; None: the session's own


@dataclass(frozen=True)
class Search:
    query: str
    line: int
    tool_use_id: str | None = None
    urls: tuple[str, ...] = ()
    source: str | None = None


@dataclass(frozen=True)
class Said:
    """A text block the assistant wrote."""

    text: str
    line: int
    source: str | None = None


@dataclass(frozen=True)
class Transcript:
    path: str
    session_id: str | None
    fetches: tuple[Fetch, ...]
    searches: tuple[Search, ...]
    said: tuple[Said, ...]
    user_words: str
    entries: int
    skipped_lines: int = 0
    truncated: bool = False
    tools: dict[str, int] = field(default_factory=dict)  # tool name -> calls
    #: The subagents' files read with the session's, each with the SHA-256 of the bytes read
    #: ("subagents/agent-x.jsonl", digest): the audit's receipt covers every file it used.
    subagent_files: tuple[tuple[str, str], ...] = ()
    #: Whose file it is: claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI).
    agent: str = "claude"
    #: SHA-256 of the session's own file as read (its first MAX_TRANSCRIPT_BYTES + 1 bytes),
    #: so that the receipt names the bytes audited, not a later state of a file still written.
    sha256: str = ""


def open_transcript(file: Path) -> BinaryIO:
    """``file`` opened to read, when it is a regular file; UsageError otherwise. Opened
    without blocking and checked on the open descriptor: a FIFO's open would wait for a
    writer forever, and a check of the path before the open could be raced."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise UsageError(f"cannot read the transcript {file}: {exc.strerror or exc}",
                         reason="bad_transcript") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{file} is not a file", reason="bad_transcript")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """The transcript at ``path``; UsageError when it cannot be read at all."""
    file = Path(path)
    with open_transcript(file) as handle:
        data = handle.read(MAX_TRANSCRIPT_BYTES + 1)
    read = _read(file, data)
    return dataclasses.replace(read, sha256=hashlib.sha256(data).hexdigest())


def _read(file: Path, data: bytes) -> Transcript:
    kind = sniff(data)
    if kind == "codex":
        from readreceipt.agents.transcript_codex import read_rollout

        return read_rollout(str(file), data)
    if kind == "gemini":
        from readreceipt.agents.transcript_gemini import read_chat

        return read_chat(str(file), data)
    reader = Reader(str(file))
    left = reader.read(data, MAX_TRANSCRIPT_BYTES)
    if reader.entries == 0:
        raise UsageError(f"{file} holds no transcript entry (one JSON object a line, with "
                         "\"type\": \"user\" or \"assistant\")", reason="bad_transcript")
    for sub in subagent_files(file):
        if left <= 0:
            reader.truncated = True
            break
        try:
            with open_transcript(sub) as handle:  # swapped for a FIFO since it was listed
                data = handle.read(left + 1)
        except UsageError:
            reader.skipped += 1  # a subagent's file that cannot be read: counted, not fatal
            continue
        reader.source = f"{SUBAGENTS_FOLDER}/{sub.name}"
        reader.pending.clear()
        read_to = reader.read(data, left)
        reader.digests.append((reader.source, hashlib.sha256(data[:left]).hexdigest()))
        left = read_to
    return reader.result()


def _first_object(data: bytes) -> Any:
    for raw in data[:1 << 20].splitlines():
        if raw.strip():
            try:
                return json.loads(raw)
            except (ValueError, RecursionError):
                return None
    return None


def sniff(data: bytes) -> str:
    """Whose transcript the bytes are: ``codex`` (a rollout: ``{timestamp, type,
    payload}`` lines, the first a ``session_meta``), ``gemini`` (a saved chat: a first line,
    or a whole JSON document, naming ``sessionId`` and ``projectHash``), else ``claude``."""
    first = _first_object(data)
    if first is None and data.lstrip()[:1] == b"{":
        try:  # a saved chat of an older Gemini CLI: one JSON document, not a line each
            first = json.loads(data)
        except (ValueError, RecursionError):
            first = None
    if not isinstance(first, dict):
        return "claude"
    if isinstance(first.get("payload"), dict) and first.get("type") in (
            "session_meta", "response_item", "event_msg", "turn_context"):
        return "codex"
    if isinstance(first.get("sessionId"), str) and isinstance(first.get("projectHash"), str):
        return "gemini"
    return "claude"


def subagent_files(transcript: Path) -> list[Path]:
    """The transcripts of the session's subagents (regular files only), in name order."""
    folder = transcript.with_suffix("") / SUBAGENTS_FOLDER
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = [folder / name for name in names
             if name.startswith("agent-") and name.endswith(".jsonl")]
    return [path for path in found if path.is_file() and not path.is_symlink()][
        :MAX_SUBAGENT_FILES]


class Reader:
    """What a transcript says, collected entry by entry (each agent's reader fills it)."""

    agent = "claude"

    def __init__(self, path: str) -> None:
        self.path = path
        self.session_id: str | None = None
        self.fetches: list[Fetch] = []
        self.searches: list[Search] = []
        self.said: list[Said] = []
        self.user_words: list[str] = []
        self.entries = 0
        self.skipped = 0
        self.truncated = False
        self.tools: dict[str, int] = {}
        self.pending: dict[str, tuple[str, int]] = {}  # tool_use id -> (kind, index)
        self.digests: list[tuple[str, str]] = []  # subagents' files read, and their SHA-256
        self.source: str | None = None  # the subagent's file being read; None: the session's

    def read(self, data: bytes, budget: int) -> int:
        """Read ``data`` (at most ``budget`` bytes of it); the budget left."""
        if len(data) > budget:
            self.truncated = True
        for number, raw in enumerate(data[:budget].splitlines(), start=1):
            if raw.strip():
                self.line(number, raw)
        return budget - min(len(data), budget)

    def result(self) -> Transcript:
        return Transcript(self.path, self.session_id, tuple(self.fetches),
                          tuple(self.searches), tuple(self.said), "\n\n".join(self.user_words),
                          self.entries, self.skipped, self.truncated, dict(self.tools),
                          tuple(self.digests), self.agent)

    def shell(self, number: int, command: Any, use_id: str | None) -> None:
        """The pages a shell command fetched (``readreceipt fetch``, curl, wget)."""
        if isinstance(command, str | list):
            for tool, url in fetched_in_shell(command):
                self.fetches.append(Fetch(tool, url, number, use_id, source=self.source))

    def line(self, number: int, raw: bytes) -> None:
        try:
            entry = json.loads(raw)
        except (ValueError, RecursionError):
            self.skipped += 1
            return
        if not isinstance(entry, dict) or entry.get("type") not in ("user", "assistant"):
            if not isinstance(entry, dict):
                self.skipped += 1
            return  # summaries, system notes and the like: not ours to read
        message = entry.get("message")
        if not isinstance(message, dict):
            self.skipped += 1
            return
        self.entries += 1
        session = entry.get("sessionId")
        if self.source is None and self.session_id is None and isinstance(session, str) \
                and session:
            self.session_id = session
        content = message.get("content")
        if entry["type"] == "assistant":
            self._assistant(number, content)
        else:
            self._user(number, content, entry.get("toolUseResult"),
                       users=self.source is None
                       and not any(entry.get(key) is True for key in _NOT_THE_USERS))

    # assistant --------------------------------------------------------------------------

    def _assistant(self, number: int, content: Any) -> None:
        if isinstance(content, str):
            self.said.append(Said(content, number, self.source))
            return
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                self.said.append(Said(block["text"], number, self.source))
            elif block.get("type") == "tool_use":
                self._tool_use(number, block)

    def _tool_use(self, number: int, block: dict[str, Any]) -> None:
        name = block.get("name")
        tool_input = block.get("input")
        use_id = block.get("id") if isinstance(block.get("id"), str) else None
        if not isinstance(name, str) or not isinstance(tool_input, dict):
            return
        self.tools[name] = self.tools.get(name, 0) + 1
        url = tool_input.get("url")
        if name == "WebFetch" and isinstance(url, str) and url.strip():
            prompt = tool_input.get("prompt")
            self._pending(use_id, "fetch", len(self.fetches))
            self.fetches.append(Fetch("WebFetch", url.strip(), number, use_id,
                                      prompt if isinstance(prompt, str) else None,
                                      source=self.source))
        elif name == "WebSearch" and isinstance(tool_input.get("query"), str):
            self._pending(use_id, "search", len(self.searches))
            self.searches.append(Search(tool_input["query"], number, use_id,
                                        source=self.source))
        elif name == "Bash" and isinstance(tool_input.get("command"), str):
            self.shell(number, tool_input["command"], use_id)
        elif name.startswith("mcp__") and name.rsplit("__", 1)[-1] in ("fetch_page", "capture") \
                and isinstance(url, str) and url.strip():
            self.fetches.append(Fetch(name, url.strip(), number, use_id, source=self.source))

    def _pending(self, use_id: str | None, kind: str, index: int) -> None:
        if use_id is not None:
            self.pending[use_id] = (kind, index)

    # user -------------------------------------------------------------------------------

    def _user(self, number: int, content: Any, result: Any, *, users: bool) -> None:
        if isinstance(content, str):
            if users:
                self.user_words.append(content)
            return
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                if users:
                    self.user_words.append(block["text"])
            elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"),
                                                                   str):
                self._tool_result(block["tool_use_id"], block, result)

    def _tool_result(self, use_id: str, block: dict[str, Any], result: Any) -> None:
        kind, index = self.pending.pop(use_id, ("", -1))
        if kind == "fetch":
            fetch = self.fetches[index]
            answer = result.get("result") if isinstance(result, dict) else None
            if not isinstance(answer, str):
                answer = _block_text(block.get("content"))
            code = result.get("code") if isinstance(result, dict) else None
            self.fetches[index] = Fetch(
                fetch.tool, fetch.url, fetch.line, fetch.tool_use_id, fetch.prompt,
                answer or None, code if isinstance(code, int) and not isinstance(code, bool)
                else None, fetch.source)
        elif kind == "search":
            search = self.searches[index]
            urls = _urls(result if result is not None else block.get("content"))
            self.searches[index] = Search(search.query, search.line, search.tool_use_id,
                                          tuple(urls), search.source)


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content
                         if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def _urls(value: Any, found: list[str] | None = None, depth: int = 0) -> list[str]:
    """Every ``url`` string inside a tool's result, in order, once each."""
    found = [] if found is None else found
    if depth > 8 or len(found) >= MAX_SEARCH_URLS:
        return found
    if isinstance(value, dict):
        url = value.get("url")
        if isinstance(url, str) and url.startswith(("http://", "https://")) \
                and url not in found:
            found.append(url)
        for item in value.values():
            _urls(item, found, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _urls(item, found, depth + 1)
    return found


__all__ = ["Fetch", "Reader", "Said", "Search", "Transcript", "fetched_by_command",
           "read_transcript", "sniff", "subagent_files"]
