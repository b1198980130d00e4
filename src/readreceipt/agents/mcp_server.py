"""``readreceipt mcp``: the library as MCP tools over stdio (the ``mcp`` extra).

Tools, each a thin adapter over one library call:

- ``fetch_page``: as ``readreceipt fetch`` (:func:`~readreceipt.agents.fetchpage.fetch_page`),
  writing only below the server's output folder; returns the one line, the path, the verdict
  and the record id;
- ``capture``: :func:`readreceipt.pipeline.capture`, the record's JSON;
- ``check_answer``: :func:`readreceipt.quotes.answerlog.check_newest` against the copy held;
- ``find_records``: rows of the library's index.

One rule for every tool: a request refused or declined, a fetch that failed (no answer, or an
HTTP error status such as 404: verdict FAILED) and an argument that makes no sense are tool
errors (``isError``) whose text starts with the reason; a page reached but not read (a wall, a
shell: verdict UNKNOWN) is a result whose message says so. Messages name this server's
arguments (``now=true``), not the command line's flags.

Invariants: every text from a page or an answer that a result carries (previews, passages,
nearest passages, titles) is fenced or marked (:mod:`readreceipt.agents.fence`), and every
file written for the model is fenced, ``raw`` text included (binary bodies stay bytes); the
server writes files only below its output folder; stdout carries only the protocol; this
module imports no CLI code, and the library never imports this module.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from readreceipt._version import __version__
from readreceipt.agents import fence
from readreceipt.agents.fetchpage import DEFAULT_WAIT
from readreceipt.errors import ReadReceiptError
from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT
from readreceipt.reading.verdict import FAILED
from readreceipt.store.clock import stamp_of
from readreceipt.store.library import Library
from readreceipt.store.protocols import RetrievalFilter

INSTRUCTIONS = (
    "readreceipt fetches web pages safely and keeps a verifiable record of each. Use "
    "fetch_page when you need a page's exact words: it writes the page's own content to a "
    "file, fenced as untrusted web content, and tells you whether the page was really read. "
    "Use check_answer to check the quotations in an answer against the copy held."
)

_F = TypeVar("_F", bound=Callable[..., Any])

#: Rows find_records returns at most in one call.
MAX_ROWS = 200
#: Bounds of the arguments that size a fetch (the command line has its own).
MAX_TIMEOUT = 600.0
MAX_WAIT = 600.0
MAX_FETCH_BYTES = 100 * 1024 * 1024
MAX_PREVIEW = 200
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


def _tool(server: MCPServer, *, description: str, read_only: bool, open_world: bool,
          idempotent: bool = False) -> Callable[[_F], _F]:
    """``server.tool()`` with a clean description and honest hints (typed: mypy sees the mcp
    extra as Any, installed or not)."""
    register: Callable[[_F], _F] = server.tool(
        description=" ".join(description.split()),
        annotations=ToolAnnotations(read_only_hint=read_only, destructive_hint=False,
                                    idempotent_hint=idempotent, open_world_hint=open_world))
    return register


def parse_since(text: str) -> str:
    """An ISO 8601 date or time as a ``fetched_at`` bound (UTC); ToolError otherwise."""
    try:
        return stamp_of(text)
    except ValueError as exc:
        raise _failed("bad_since", f"since={text!r} is {exc} (2026-11-30 or "
                      "2026-11-30T14:00:00Z)") from None


def inside(folder: Path, path: str | None) -> Path:
    """Where ``path`` (relative to ``folder``, or absolute within it) points; ToolError when
    it leaves ``folder``, symbolic links followed."""
    root = folder.resolve()
    if path is None or not path.strip():
        return root
    target = Path(path).expanduser()
    target = (target if target.is_absolute() else root / target).resolve()
    if target != root and root not in target.parents:
        raise _failed("outside_output_folder", f"path={path!r} is outside this server's "
                      f"output folder {root}; give a path inside it (or none)")
    return target


def _fenced_check(check: dict[str, Any]) -> dict[str, Any]:
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


def default_output_folder() -> Path:
    """$READRECEIPT_MCP_OUTPUT, else a new folder of this server's own under <tmp>."""
    configured = os.environ.get(OUTPUT_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(tempfile.mkdtemp(prefix="readreceipt-mcp-"))


def build_server(library: str | None = None, output: str | os.PathLike[str] | None = None
                 ) -> MCPServer:
    """The server with its four tools; ``library`` overrides READRECEIPT_LIBRARY, ``output``
    is the one folder ``fetch_page`` writes below."""
    root = library or os.environ.get("READRECEIPT_LIBRARY") or None
    out_folder = Path(output).expanduser() if output else default_output_folder()
    out_folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    server: MCPServer = MCPServer(name="readreceipt", version=__version__,
                                  instructions=INSTRUCTIONS)

    def library_() -> Library:
        return Library.locate(root) if root else Library.locate()

    @_tool(server, read_only=False, open_world=True, description=f"""
        Fetch URL and write the page's own content to a file below {out_folder}, fenced as
        untrusted web content (markdown, text, html; raw writes the page as sent, still
        fenced when it is text), then say whether the page was really read. Read the file it
        names. A request refused or declined, or a failed fetch (an HTTP error such as 404),
        is an error; a page reached but not read (a wall, a shell) is a result that says so.""")
    def fetch_page(
            url: Url,
            format: Annotated[Format, Field(description="How to write an HTML page.")]
            = "markdown",
            path: Annotated[str | None, Field(description="The file to write, relative to "
                                              "the server's output folder (default: a name "
                                              "made of the time, the URL and the bytes).")]
            = None,
            links: Annotated[bool, Field(description="Keep links in the text.")] = True,
            tables: Annotated[bool, Field(description="Keep tables in the text.")] = True,
            overwrite: Annotated[bool, Field(description="Replace a file already at path.")]
            = True,
            now: Now = False, wait: Wait = DEFAULT_WAIT, timeout: Timeout = DEFAULT_TIMEOUT,
            max_bytes: MaxBytes = DEFAULT_MAX_BYTES,
            preview: Annotated[int, Field(description="Also return the first lines of the "
                                          "text, fenced as the file is.", ge=0,
                                          le=MAX_PREVIEW)] = 0) -> dict[str, Any]:
        from readreceipt.agents.fetchpage import FetchPageOptions
        from readreceipt.agents.fetchpage import fetch_page as run

        target = inside(out_folder, path)
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        options = FetchPageOptions(output=target, format=format, links=links, tables=tables,
                                   overwrite=overwrite, now=now, wait=wait, timeout=timeout,
                                   max_bytes=max_bytes, fence_raw=True, within=out_folder)
        with library_() as lib:
            try:
                result = run(url, options, lib)
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc
        if result.record.verdict == FAILED:
            raise _failed(result.record.reason, result.line())
        out: dict[str, Any] = {
            "message": mcp_words(result.line()),
            "path": str(result.path) if result.path else None,
            "verdict": result.record.verdict, "reason": result.record.reason,
            "record_id": result.record.record_id, "bytes": result.bytes,
            "format": result.format,
            "content_type": fence.one_line(result.content_type, 200),  # the server's label
            "injection_marks": result.injection_marks,
        }
        if preview > 0:
            out["preview"] = result.preview(preview)
        return out

    @_tool(server, read_only=False, open_world=True, description="""
        Fetch URL again, keep its bytes and a record, and say whether it was a real read;
        with an answer, check the answer's quotations against the page. A request refused or
        declined, or a failed fetch (an HTTP error such as 404), is an error.""")
    def capture(
            url: Url,
            prompt: Annotated[str | None, Field(description="The prompt the answer was "
                                                "written for (its words are not checked as "
                                                "quotations).", max_length=100_000)] = None,
            answer: Annotated[str | None, Field(description="An answer about the page whose "
                                                "quotations are to be checked.",
                                                max_length=1_000_000)] = None,
            now: Now = False, wait: Wait = DEFAULT_WAIT, timeout: Timeout = DEFAULT_TIMEOUT,
            max_bytes: MaxBytes = DEFAULT_MAX_BYTES) -> dict[str, Any]:
        from readreceipt.pipeline import CaptureOptions
        from readreceipt.pipeline import capture as run

        with library_() as lib:
            try:
                result = run(url, CaptureOptions(now=now, wait=wait, timeout=timeout,
                                                 max_bytes=max_bytes, prompt=prompt,
                                                 answer=answer), lib)
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc
        record = result.record
        if record.verdict == FAILED:
            raise _failed(record.reason, f"{record.url} was not fetched ({record.verdict} "
                          f"{record.reason}: {record.detail or 'no detail'}); the attempt is "
                          f"recorded as {record.record_id}")
        out = result.to_json()
        for key in ("detail", "rule"):  # they may quote the page or the server
            if out.get(key):
                out[key] = fence.one_line(out[key], 2000)
        if record.title:
            out["title"] = fence.one_line(record.title)
        if "answer_check" in out:
            out["answer_check"] = _fenced_check(out["answer_check"])
        return out

    @_tool(server, read_only=False, open_world=False, description="""
        Check the quotations in an answer against the newest copy of URL held (no request is
        made; the check is recorded). Passages not found come with the nearest passage the
        page holds. No copy held, or a copy that is a failed fetch, is an error.""")
    def check_answer(
            url: Url,
            answer: Annotated[str, Field(description="The answer whose quotations are "
                                         "checked.", max_length=1_000_000)],
            prompt: Annotated[str, Field(description="The prompt the answer was written "
                                         "for.", max_length=100_000)] = "") -> dict[str, Any]:
        from readreceipt.quotes.answerlog import check_newest

        with library_() as lib:
            try:
                held = check_newest(lib, url, answer, prompt)
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc
        if held.page.verdict == FAILED:
            raise _failed(held.page.reason, f"the copy of {url} held "
                          f"({held.page.record_id}) is a failed fetch ({held.page.reason}):"
                          " there is nothing to check against")
        checked = held.to_json()
        return {**checked, "answer_check": _fenced_check(checked["answer_check"])}

    @_tool(server, read_only=True, open_world=False, idempotent=True, description="""
        Records in the library, newest first: by URL (a substring), session id, verdict or
        fetch time.""")
    def find_records(
            url: Annotated[str | None, Field(description="Text the URL asked for or arrived "
                                             "at contains.", max_length=8192)] = None,
            session_id: Annotated[str | None, Field(description="Only this agent session's "
                                                    "records.", max_length=200)] = None,
            verdict: Annotated[VerdictName | None, Field(description="Only records with this "
                                                         "verdict.")] = None,
            since: Annotated[str | None, Field(description="Only records fetched at or after "
                                               "this ISO 8601 date or time (UTC unless it "
                                               "says).", max_length=64)] = None,
            limit: Annotated[int, Field(description="At most this many records.", ge=1,
                                        le=MAX_ROWS)] = 20) -> dict[str, Any]:
        where = RetrievalFilter(verdict=verdict, session_id=session_id, url_like=url,
                                since=parse_since(since) if since else None)
        with library_() as lib:
            rows = lib.index.retrievals(where, limit=limit)
            records = []
            for row in rows:
                data = row.to_dict()
                if row.title:
                    data["title"] = fence.one_line(row.title)
                if row.content_type:  # the server's label, as sent
                    data["content_type"] = fence.one_line(row.content_type, 200)
                records.append(data)
            return {"library": lib.where, "records": records}

    return server


def main(library: str | None = None, output: str | None = None) -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(library, output).run()
