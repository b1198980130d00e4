"""The MCP server's four tools (:mod:`.mcp_server` builds the server and says the rules).

Each tool runs its library call in a worker thread (the capture blocks on the network), so
that the server can send the capture's progress (waiting for a host's turn, rendering) while
it runs; each returns :func:`~readreceipt.agents.mcp_server.result`: structured content
validated against its output model, the same JSON as text, and a link to the capture.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from readreceipt.agents import fence
from readreceipt.agents.fetchpage import DEFAULT_WAIT
from readreceipt.agents.mcp_models import (
    CaptureOutput,
    CheckAnswerOutput,
    FetchPageOutput,
    FindRecordsOutput,
    record_uri,
)
from readreceipt.agents.mcp_server import (
    DEFAULT_MAX_LENGTH,
    MAX_LENGTH,
    MAX_PREVIEW,
    MAX_ROWS,
    Format,
    MaxBytes,
    Now,
    Progress,
    Timeout,
    Url,
    VerdictName,
    Wait,
    _failed,
    _tool,
    _tool_error,
    fenced_check,
    inside,
    mcp_words,
    parse_since,
    result,
    window,
)
from readreceipt.errors import ReadReceiptError
from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT
from readreceipt.reading.verdict import FAILED
from readreceipt.store.library import Library
from readreceipt.store.protocols import RetrievalFilter


async def _in_thread(work: Callable[[], Any]) -> Any:
    """``work()`` in a worker thread; the library's errors become tool errors."""
    try:
        return await anyio.to_thread.run_sync(work)
    except ReadReceiptError as exc:
        raise _tool_error(exc) from exc


def register_tools(server: MCPServer, library_: Callable[[], Library], out_folder: Path) -> None:
    """Add fetch_page, capture, check_answer and find_records to ``server``."""

    @_tool(server, title="Fetch a page's own words", read_only=False, open_world=True,
           destructive=True, description=f"""
        Fetch URL and write the page's own content to a file below {out_folder}, fenced as
        untrusted web content (markdown, text, html; raw writes the page as sent, still
        fenced when it is text), then say whether the page was really read, and return
        max_length characters of the text from start_index (call again with
        start_index=next_start_index for the rest: within 15 minutes the copy already
        captured answers). A request refused or declined, or a failed fetch (an HTTP error
        such as 404), is an error; a page reached but not read (a wall, a shell) is a
        result that says so. A file already at path is replaced unless overwrite=false.""")
    async def fetch_page(
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
                                          le=MAX_PREVIEW)] = 0,
            start_index: Annotated[int, Field(description="Where in the text the window of "
                                              "content starts (characters).", ge=0)] = 0,
            max_length: Annotated[int, Field(description="Characters of text returned at "
                                             "most (0: none, read the file).", ge=0,
                                             le=MAX_LENGTH)] = DEFAULT_MAX_LENGTH,
            ctx: Context[Any, Any] | None = None,
    ) -> Annotated[CallToolResult, FetchPageOutput]:
        from readreceipt.agents.fetchpage import FetchPageOptions
        from readreceipt.agents.fetchpage import fetch_page as run

        target = inside(out_folder, path)
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        options = FetchPageOptions(output=target, format=format, links=links, tables=tables,
                                   overwrite=overwrite, now=now, wait=wait, timeout=timeout,
                                   max_bytes=max_bytes, fence_raw=True, within=out_folder,
                                   on_phase=Progress(ctx))

        def work() -> Any:
            with library_() as lib:
                return run(url, options, lib)

        done = await _in_thread(work)
        record = done.record
        if record.verdict == FAILED:
            raise _failed(record.reason, done.line())
        content, following, total = window(done.fenced, start_index, max_length)
        return result(FetchPageOutput(
            message=mcp_words(done.line()), path=str(done.path) if done.path else None,
            verdict=record.verdict, reason=record.reason, record_id=record.record_id,
            record_uri=record_uri(record.record_id), bytes=done.bytes, format=done.format,
            content_type=fence.one_line(done.content_type, 200),  # the server's label
            injection_marks=done.injection_marks,
            preview=done.preview(preview) if preview > 0 else None, content=content,
            start_index=start_index, next_start_index=following, total_length=total,
            truncated=following is not None), record)

    @_tool(server, title="Capture a page and check an answer", read_only=False,
           open_world=True, description="""
        Fetch URL again, keep its bytes and a record, and say whether it was a real read;
        with an answer, check the answer's quotations against the page. A request refused or
        declined, or a failed fetch (an HTTP error such as 404), is an error.""")
    async def capture(
            url: Url,
            prompt: Annotated[str | None, Field(description="The prompt the answer was "
                                                "written for (its words are not checked as "
                                                "quotations).", max_length=100_000)] = None,
            answer: Annotated[str | None, Field(description="An answer about the page whose "
                                                "quotations are to be checked.",
                                                max_length=1_000_000)] = None,
            now: Now = False, wait: Wait = DEFAULT_WAIT, timeout: Timeout = DEFAULT_TIMEOUT,
            max_bytes: MaxBytes = DEFAULT_MAX_BYTES,
            ctx: Context[Any, Any] | None = None,
    ) -> Annotated[CallToolResult, CaptureOutput]:
        from readreceipt.pipeline import CaptureOptions
        from readreceipt.pipeline import capture as run

        options = CaptureOptions(now=now, wait=wait, timeout=timeout, max_bytes=max_bytes,
                                 prompt=prompt, answer=answer, on_phase=Progress(ctx))

        def work() -> Any:
            with library_() as lib:
                return run(url, options, lib)

        done = await _in_thread(work)
        record = done.record
        if record.verdict == FAILED:
            raise _failed(record.reason, f"{record.url} was not fetched ({record.verdict} "
                          f"{record.reason}: {record.detail or 'no detail'}); the attempt is "
                          f"recorded as {record.record_id}")
        out = done.to_json()
        for key in ("detail", "rule"):  # they may quote the page or the server
            if out.get(key):
                out[key] = fence.one_line(out[key], 2000)
        if record.title:
            out["title"] = fence.one_line(record.title)
        if "answer_check" in out:
            out["answer_check"] = fenced_check(out["answer_check"])
        out["record_uri"] = record_uri(record.record_id)
        return result(CaptureOutput.model_validate(out), record)

    @_tool(server, title="Check an answer against the copy held", read_only=False,
           open_world=False, description="""
        Check the quotations in an answer against the newest copy of URL held (no request is
        made; the check is recorded). Passages not found come with the nearest passage the
        page holds. No copy held, or a copy that is a failed fetch, is an error.""")
    async def check_answer(
            url: Url,
            answer: Annotated[str, Field(description="The answer whose quotations are "
                                         "checked.", max_length=1_000_000)],
            prompt: Annotated[str, Field(description="The prompt the answer was written "
                                         "for.", max_length=100_000)] = "",
    ) -> Annotated[CallToolResult, CheckAnswerOutput]:
        from readreceipt.quotes.answerlog import check_newest

        def work() -> Any:
            with library_() as lib:
                return check_newest(lib, url, answer, prompt)

        held = await _in_thread(work)
        page = held.page
        if page.verdict == FAILED:
            raise _failed(page.reason, f"the copy of {url} held ({page.record_id}) is a "
                          f"failed fetch ({page.reason}): there is nothing to check against")
        checked = held.to_json()
        out = {**checked, "answer_check": fenced_check(checked["answer_check"]),
               "record_uri": record_uri(page.record_id)}
        return result(CheckAnswerOutput.model_validate(out), page.record_id)

    @_tool(server, title="Find records", read_only=True, open_world=False, idempotent=True,
           description="""
        Records in the library, newest first: by URL (a substring), session id, verdict or
        fetch time.""")
    async def find_records(
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
                                        le=MAX_ROWS)] = 20,
    ) -> Annotated[CallToolResult, FindRecordsOutput]:
        where = RetrievalFilter(verdict=verdict, session_id=session_id, url_like=url,
                                since=parse_since(since) if since else None)

        def work() -> dict[str, Any]:
            with library_() as lib:
                rows = lib.index.retrievals(where, limit=limit)
                records = []
                for row in rows:
                    data = row.to_dict()
                    if row.title:
                        data["title"] = fence.one_line(row.title)
                    if row.content_type:  # the server's label, as sent
                        data["content_type"] = fence.one_line(row.content_type, 200)
                    data["record_uri"] = record_uri(row.record_id)
                    records.append(data)
                return {"library": lib.where, "records": records}

        return result(FindRecordsOutput.model_validate(await _in_thread(work)))
