"""``readreceipt mcp``: the library as MCP tools and resources over stdio (the ``mcp`` extra).

The server speaks what the SDK it runs on speaks (mcp 2.3: protocol revisions 2024-11-05,
2025-03-26, 2025-06-18 and 2025-11-25 through the initialize handshake, and the stateless
2026-07-28). Tools, each a thin adapter over one library call:

- ``fetch_page``: as ``readreceipt fetch`` (:func:`~readreceipt.agents.fetchpage.fetch_page`),
  writing only below the server's output folder; returns the one line, the path, the verdict,
  the record, and a window of the text written (``start_index`` and ``max_length`` in;
  ``next_start_index``, ``total_length`` and ``truncated`` out), fenced as the file is;
- ``capture``: :func:`readreceipt.pipeline.capture`, the record's JSON;
- ``check_answer``: :func:`readreceipt.quotes.answerlog.check_newest` against the copy held;
- ``find_records``: rows of the library's index.

Every tool has an ``outputSchema`` (:mod:`.mcp_models`) and returns ``structuredContent``
with the same JSON as text beside it, and a ``resource_link`` to the capture it made or
read: ``readreceipt://record/{id}`` (the record), ``.../text`` (the page's text, fenced)
and ``.../bytes`` (the bytes kept, as sent), all three readable with ``resources/read``. A
capture that waits for its host's turn or renders a page in a browser sends progress
notifications (when the client asked with a progress token).

One rule for every tool: a request refused or declined, a fetch that failed (no answer, or an
HTTP error status such as 404: verdict FAILED) and an argument that makes no sense are tool
errors (``isError``) whose text starts with the reason; a page reached but not read (a wall, a
shell: verdict UNKNOWN) is a result whose message says so. Messages name this server's
arguments (``now=true``), not the command line's flags.

Invariants: every text from a page or an answer that a result or a resource carries
(content, previews, passages, nearest passages, titles, the text resource) is fenced or
marked (:mod:`readreceipt.agents.fence`), and every file written for the model is fenced,
``raw`` text included (binary bodies stay bytes); the server writes files only below its
output folder; stdout carries only the protocol; this module imports no CLI code, and the
library never imports this module.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio.from_thread
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, ResourceLink, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from readreceipt._version import __version__
from readreceipt.agents import fence
from readreceipt.agents.mcp_models import (
    BYTES_URI,
    RECORD_URI,
    TEXT_URI,
    CaptureOutput,
    CheckAnswerOutput,
    FetchPageOutput,
    FindRecordsOutput,
    record_uri,
)
from readreceipt.errors import ReadReceiptError
from readreceipt.store.clock import stamp_of
from readreceipt.store.library import Library
from readreceipt.store.records import Record

INSTRUCTIONS = (
    "readreceipt fetches web pages safely and keeps a verifiable record of each. Use "
    "fetch_page when you need a page's exact words: it writes the page's own content to a "
    "file, fenced as untrusted web content, returns a window of it, and tells you whether the "
    "page was really read. Use check_answer to check the quotations in an answer against the "
    "copy held. Every result links the stored capture as readreceipt://record/ID."
)

_F = TypeVar("_F", bound=Callable[..., Any])

#: Rows find_records returns at most in one call.
MAX_ROWS = 200
#: Bounds of the arguments that size a fetch (the command line has its own).
MAX_TIMEOUT = 600.0
MAX_WAIT = 600.0
MAX_FETCH_BYTES = 100 * 1024 * 1024
MAX_PREVIEW = 200
#: fetch_page's window of text: as the reference fetch server, 5000 characters by default.
DEFAULT_MAX_LENGTH = 5000
MAX_LENGTH = 1_000_000
OUTPUT_DIR_ENV = "READRECEIPT_MCP_OUTPUT"

Format = Literal["markdown", "text", "html", "raw"]
VerdictName = Literal["RETRIEVED", "FAILED", "UNKNOWN"]

Url = Annotated[str, Field(description="The page's URL (http or https).", min_length=1,
                           max_length=8192)]
Now = Annotated[bool, Field(description="Skip pacing, robots.txt and the 15-minute dedup "
                            "window (never the security rules).")]
Wait = Annotated[float, Field(description="Seconds to wait for the host's turn before the "
                              "request is declined.", ge=0, le=MAX_WAIT)]
Timeout = Annotated[float, Field(description="Total deadline of the fetch, in seconds.",
                                 ge=0.1, le=MAX_TIMEOUT)]
MaxBytes = Annotated[int, Field(description="Size cap in bytes; only the first part of a "
                                "larger page is kept.", ge=1, le=MAX_FETCH_BYTES)]

#: Command-line words in the library's messages, and what this server calls them.
_ARGUMENT_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"--wait (\d+)"), r"wait=\1"),
    (re.compile(r"--now\b"), "now=true"),
    (re.compile(r"--max-bytes\b"), "max_bytes"),
    (re.compile(r"--timeout\b"), "timeout"),
    (re.compile(r"--no-overwrite\b"), "overwrite=false"),
    (re.compile(r"\(or use --fetch\)"), "(or call capture first)"),
)


def mcp_words(text: str) -> str:
    """``text`` with the command line's flags named as this server's arguments."""
    for pattern, replacement in _ARGUMENT_WORDS:
        text = pattern.sub(replacement, text)
    return text


def _tool_error(exc: ReadReceiptError) -> ToolError:
    return _failed(exc.reason, str(exc))


def _failed(reason: str, message: str) -> ToolError:
    """A tool error: the reason, then the message as one marked line (a message may quote a
    server, a page or a URL)."""
    return ToolError(f"{reason}: {fence.one_line(mcp_words(message), 2000)}")


def _tool(server: MCPServer, *, title: str, description: str, read_only: bool,
          open_world: bool, destructive: bool = False,
          idempotent: bool = False) -> Callable[[_F], _F]:
    """``server.tool()`` with a clean description and honest hints (typed: mypy sees the mcp
    extra as Any, installed or not)."""
    register: Callable[[_F], _F] = server.tool(
        title=title, description=" ".join(description.split()),
        annotations=ToolAnnotations(title=title, read_only_hint=read_only,
                                    destructive_hint=destructive, idempotent_hint=idempotent,
                                    open_world_hint=open_world))
    return register


def result(output: BaseModel, record: Record | str | None = None) -> CallToolResult:
    """The structured result, its JSON as text beside it, and a link to the capture (a
    record, or its id)."""
    data = output.model_dump(mode="json", exclude_unset=True)  # a field not given stays out
    content: list[Any] = [TextContent(type="text", text=json.dumps(data, ensure_ascii=False))]
    if record is not None:
        record_id = record if isinstance(record, str) else record.record_id
        content.append(ResourceLink(
            type="resource_link", uri=record_uri(record_id), name=f"record {record_id}",
            mime_type="application/json",
            description="readreceipt's record of this capture (add /text or /bytes)"))
    return CallToolResult(content=content, structured_content=data)


def parse_since(text: str) -> str:
    """An ISO 8601 date or time as a ``fetched_at`` bound (UTC); ToolError otherwise."""
    try:
        return stamp_of(text)
    except ValueError as exc:
        raise _failed("bad_since", f"since={text!r} is {exc} (2026-11-30 or "
                      "2026-11-30T14:00:00Z)") from None


def _names_a_file(path: str) -> bool:
    try:
        return "\x00" not in path and all(len(os.fsencode(part)) <= 255
                                          for part in Path(path).parts)
    except UnicodeEncodeError:  # a lone surrogate outside surrogateescape's range
        return False


def inside(folder: Path, path: str | None) -> Path:
    """Where ``path`` (relative to ``folder``, or absolute within it) points; ToolError when
    it leaves ``folder``, symbolic links followed."""
    root = folder.resolve()
    if path is None or not path.strip():
        return root
    # A NUL, a lone surrogate or a name longer than a file system takes fails in the
    # resolve or the mkdir after it with an error no adapter maps: refused here.
    if not _names_a_file(path):
        raise _failed("bad_path", f"path={path[:200]!r} cannot name a file: it holds a NUL "
                      "byte, a character no file name can hold, or a name over 255 bytes")
    target = Path(path).expanduser()
    target = (target if target.is_absolute() else root / target).resolve()
    if target != root and root not in target.parents:
        raise _failed("outside_output_folder", f"path={path!r} is outside this server's "
                      f"output folder {root}; give a path inside it (or none)")
    return target


def fenced_check(check: dict[str, Any]) -> dict[str, Any]:
    """An answer check with each passage, nearest passage, figure and name made one marked
    line."""
    passages = [{**p, "text": fence.one_line(str(p.get("text") or ""), 2000),
                 "nearest": fence.one_line(p["nearest"], 2000) if p.get("nearest") else None}
                for p in check.get("passages", [])]
    skipped = [{**s, "text": fence.one_line(str(s.get("text") or ""), 2000)}
               for s in check.get("skipped", [])]
    # A claim's words are the answer's (text, value) or the page's (nearest, match).
    claims = [{**c, **{key: fence.one_line(str(c[key]), 2000) if c.get(key) else c.get(key)
                       for key in ("text", "value", "nearest", "match", "computed")}}
              for c in check.get("claims", [])]
    return {**check, "passages": passages, "skipped": skipped, "claims": claims}


def window(fenced: fence.Fenced | None, start: int, length: int
           ) -> tuple[str | None, int | None, int | None]:
    """(content, next start, total length) of the fenced text from ``start``: the slice
    stands between the file's own fence lines, so a window is never unfenced, and is
    marked again, so a window never starts or ends a control shape unmarked."""
    if fenced is None:
        return None, None, None
    text = "\n".join(fenced.lines)
    total = len(text)
    piece = text[start:start + length] if length > 0 else ""
    following = start + len(piece)  # in the text's own positions, whatever marks add below
    # A window's edges are a line start and word edges the text did not have there: a
    # shape they complete (``Human:`` after a letter cut off) is marked in the window.
    piece = fence.mark_injections(piece, again=True)[0]
    content = "\n".join([fenced.begin, piece, fenced.end]) if length > 0 else None
    return content, following if following < total else None, total


def default_output_folder() -> Path:
    """$READRECEIPT_MCP_OUTPUT, else a new folder of this server's own under <tmp>."""
    configured = os.environ.get(OUTPUT_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(tempfile.mkdtemp(prefix="readreceipt-mcp-"))


class Progress:
    """A capture's phases, told to the client as progress notifications from the thread the
    capture runs in."""

    def __init__(self, ctx: Context[Any, Any] | None) -> None:
        self.ctx = ctx
        self.step = 0

    def __call__(self, message: str) -> None:
        if self.ctx is None:
            return
        self.step += 1
        try:
            anyio.from_thread.run(self.ctx.report_progress, float(self.step), None,
                                  fence.one_line(message, 300))
        except Exception:  # a progress note that cannot be sent is not the tool's failure
            return


def build_server(library: str | None = None, output: str | os.PathLike[str] | None = None
                 ) -> MCPServer:
    """The server with its four tools and the record resources; ``library`` overrides
    READRECEIPT_LIBRARY, ``output`` is the one folder ``fetch_page`` writes below."""
    root = library or os.environ.get("READRECEIPT_LIBRARY") or None
    out_folder = Path(output).expanduser() if output else default_output_folder()
    out_folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    server: MCPServer = MCPServer(name="readreceipt", version=__version__,
                                  instructions=INSTRUCTIONS)

    def library_() -> Library:
        return Library.locate(root) if root else Library.locate()

    from readreceipt.agents.mcp_resources import register_resources
    from readreceipt.agents.mcp_tools import register_tools

    register_tools(server, library_, out_folder)
    register_resources(server, library_)
    return server


def main(library: str | None = None, output: str | None = None) -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(library, output).run()


__all__ = ["BYTES_URI", "DEFAULT_MAX_LENGTH", "INSTRUCTIONS", "MAX_LENGTH", "RECORD_URI",
           "TEXT_URI", "CaptureOutput", "CheckAnswerOutput", "FetchPageOutput",
           "FindRecordsOutput", "Progress", "build_server", "default_output_folder", "fenced_check",
           "inside", "main", "mcp_words", "parse_since", "result", "window"]
