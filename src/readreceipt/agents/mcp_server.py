"""``readreceipt mcp``: the library as MCP tools over stdio (the ``mcp`` extra).

Tools, each a thin adapter over one library call:

- ``fetch_page``: as ``readreceipt fetch`` (:func:`~readreceipt.agents.fetchpage.fetch_page`);
  returns the one line, the path, the verdict and the record id;
- ``capture``: :func:`readreceipt.pipeline.capture`, the record's JSON;
- ``check_answer``: :func:`readreceipt.quotes.answers.check_newest` against the copy held;
- ``find_records``: rows of the library's index.

Invariants: a refused, declined or failed fetch is a tool error carrying the reason (never a
result that could be read as the page); a page reached but not read (a wall, a shell) is a
result whose message says so; stdout carries only the protocol; this module imports no CLI
code, and the library never imports this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from readreceipt._version import __version__
from readreceipt.agents.fetchpage import DEFAULT_WAIT
from readreceipt.errors import ReadReceiptError
from readreceipt.fetching.transport import DEFAULT_TIMEOUT
from readreceipt.reading.verdict import FAILED
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


def _library(root: str | None) -> Library:
    return Library.locate(root) if root else Library.locate()


def _tool_error(exc: ReadReceiptError) -> ToolError:
    return ToolError(f"{exc.reason}: {exc}")


def _tool(server: MCPServer) -> Callable[[_F], _F]:
    """``server.tool()``, typed: mypy sees the mcp extra as Any (installed or not)."""
    register: Callable[[_F], _F] = server.tool()
    return register


def build_server(library: str | None = None) -> MCPServer:
    """The server with its four tools; ``library`` overrides READRECEIPT_LIBRARY."""
    root = library or os.environ.get("READRECEIPT_LIBRARY") or None
    server: MCPServer = MCPServer(name="readreceipt", version=__version__,
                                  instructions=INSTRUCTIONS)

    @_tool(server)
    def fetch_page(url: str, format: str = "markdown", path: str | None = None,
                   links: bool = True, tables: bool = True, overwrite: bool = True,
                   now: bool = False, preview: int = 0,
                   timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Write URL's own content to a file (markdown, text, html or raw), fenced as untrusted
        web content; say whether the page was really read. Read the file it names. timeout:
        the total deadline in seconds for all the network work."""
        from readreceipt.agents.fetchpage import FetchPageOptions
        from readreceipt.agents.fetchpage import fetch_page as run

        options = FetchPageOptions(output=path, format=format, links=links, tables=tables,
                                   overwrite=overwrite, now=now, timeout=timeout)
        with _library(root) as lib:
            try:
                result = run(url, options, lib)
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc
        if result.record.verdict == FAILED:
            raise ToolError(f"{result.record.reason}: {result.line()}")
        out: dict[str, Any] = {
            "message": result.line(), "path": str(result.path) if result.path else None,
            "verdict": result.record.verdict, "reason": result.record.reason,
            "record_id": result.record.record_id, "bytes": result.bytes,
            "format": result.format, "content_type": result.content_type,
            "injection_marks": result.injection_marks,
        }
        if preview > 0:
            out["preview"] = result.preview(preview)
        return out

    @_tool(server)
    def capture(url: str, prompt: str | None = None, answer: str | None = None,
                now: bool = False, wait: float = DEFAULT_WAIT,
                timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Fetch URL again, keep the bytes and a record, say whether it was a real read; with
        an answer, check its quotations against the page. timeout: the total deadline in
        seconds for all the network work."""
        from readreceipt.pipeline import CaptureOptions
        from readreceipt.pipeline import capture as run

        with _library(root) as lib:
            try:
                result = run(url, CaptureOptions(now=now, wait=wait, prompt=prompt,
                                                 answer=answer, timeout=timeout), lib)
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc
            return result.to_json()

    @_tool(server)
    def check_answer(url: str, answer: str, prompt: str = "") -> dict[str, Any]:
        """Check the quotations in an answer against the newest copy of URL held (no request
        is made); passages not found come with the nearest passage the page holds."""
        from readreceipt.quotes.answers import check_newest

        with _library(root) as lib:
            try:
                return check_newest(lib, url, answer, prompt).to_json()
            except ReadReceiptError as exc:
                raise _tool_error(exc) from exc

    @_tool(server)
    def find_records(url: str | None = None, session_id: str | None = None,
                     verdict: str | None = None, since: str | None = None,
                     limit: int = 20) -> dict[str, Any]:
        """Records in the library, newest first: by URL (a substring), session id, verdict
        (RETRIEVED, FAILED, UNKNOWN) or fetched since an ISO 8601 time."""
        where = RetrievalFilter(verdict=verdict, session_id=session_id, url_like=url,
                                since=since)
        with _library(root) as lib:
            rows = lib.index.retrievals(where, limit=max(1, min(limit, MAX_ROWS)))
            return {"library": str(Path(lib.root)), "records": [row.to_dict() for row in rows]}

    return server


def main(library: str | None = None) -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(library).run()
