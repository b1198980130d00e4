"""The MCP server's resources: a stored capture, readable through ``resources/read``.

Three templates, one capture each (``{record_id}`` as every tool result names it):

- ``readreceipt://record/{record_id}``: the record (its JSON, as the YAML file holds it,
  every string marked as a tool result marks it: the headers, hops and passages are the
  server's, the page's or the answer's words);
- ``readreceipt://record/{record_id}/text``: the page's text as readreceipt read it, fenced
  as untrusted web content, under the record's facts;
- ``readreceipt://record/{record_id}/bytes``: the bytes kept, as the server sent them (a blob;
  their SHA-256 is the record's ``bytes_sha256``), for checking, not for reading as text.

A record id that is not one, or names no capture, is an error; so are the text or the bytes
of a capture that kept none (``keep=none``, a forgotten copy), with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from readreceipt.agents import fence
from readreceipt.agents.mcp_models import BYTES_URI, RECORD_URI, TEXT_URI
from readreceipt.errors import ReadReceiptError
from readreceipt.store.library import Library
from readreceipt.store.records import Record


def _load(lib: Library, record_id: str) -> Record:
    try:
        return lib.load(record_id)
    except ReadReceiptError as exc:
        raise ResourceError(f"{exc.reason}: {fence.one_line(str(exc), 500)}") from exc


#: The longest string of a record shown whole (a URL is at most 2,048 characters; a
#: passage of an answer check at most a few thousand).
_LONGEST_VALUE = 20_000


def _marked(value: Any) -> Any:
    """Every string of a record, keys too, made one marked line: the title, the headers, the
    redirect hops and the answer check's passages are the page's, the server's or the
    answer's words, and readreceipt's own (digests, times) come out unchanged."""
    if isinstance(value, str):
        return fence.one_line(value, _LONGEST_VALUE)
    if isinstance(value, dict):
        return {_marked(key): _marked(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_marked(item) for item in value]
    return value


_F = TypeVar("_F", bound=Callable[..., Any])


def _resource(server: MCPServer, uri: str, **details: str) -> Callable[[_F], _F]:
    """``server.resource()``, typed (mypy sees the mcp extra as Any)."""
    register: Callable[[_F], _F] = server.resource(uri, **details)
    return register


def register_resources(server: MCPServer, library_: Callable[[], Library]) -> None:
    """Add the three record templates to ``server``."""

    @_resource(server, RECORD_URI, name="record", title="readreceipt record",
                     description="The record of one capture: URL, verdict, digests, checks.",
                     mime_type="application/json")
    def record(record_id: str) -> str:
        with library_() as lib:
            data = _load(lib, record_id).to_dict()
        return json.dumps(_marked(data), ensure_ascii=False, indent=2, default=str)

    @_resource(server, TEXT_URI, name="record-text", title="page text, fenced",
                     description="The page's text as readreceipt read it, fenced as "
                     "untrusted web content.", mime_type="text/plain")
    def text(record_id: str) -> str:
        with library_() as lib:
            found = _load(lib, record_id)
            body = lib.text(found.text_sha256) or lib.text(found.page_text_sha256)
        if body is None:
            raise ResourceError(f"no_text: the capture {record_id} kept no text")
        return fence.fence(body, header=[
            ("url", found.url), ("fetched_at", found.fetched_at),
            ("verdict", f"{found.verdict} {found.reason}"), ("record_id", found.record_id),
        ]).document

    @_resource(server, BYTES_URI, name="record-bytes", title="page bytes, as sent",
                     description="The bytes kept, as the server sent them (their SHA-256 is "
                     "the record's bytes_sha256).", mime_type="application/octet-stream")
    def bytes_(record_id: str) -> bytes:
        with library_() as lib:
            found = _load(lib, record_id)
            data = lib.body(found)
        if data is None:
            raise ResourceError(f"bytes_not_kept: the capture {record_id} kept no bytes")
        return data
