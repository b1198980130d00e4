"""The MCP server's results as models: each tool's ``outputSchema`` and ``structuredContent``.

A tool's result is one of these, validated before it is sent; the schema a client lists is
the model's (JSON Schema 2020-12, as pydantic writes it). Fields that come from a page, a
server or an answer are fenced or marked by the server before they get here
(:mod:`readreceipt.agents.fence`); a model only says what the fields are.

Invariants: pydantic only (the ``mcp`` extra brings it); a record's own JSON is passed
through with its known fields declared and any later field allowed, so an older client
validating against the schema is never broken by a new record field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

VerdictName = Literal["RETRIEVED", "FAILED", "UNKNOWN"]

RECORD_URI = "readreceipt://record/{record_id}"
TEXT_URI = "readreceipt://record/{record_id}/text"
BYTES_URI = "readreceipt://record/{record_id}/bytes"


def record_uri(record_id: str, part: str = "") -> str:
    """The resource of a stored capture: its record, or its ``text`` or ``bytes``."""
    return f"readreceipt://record/{record_id}" + (f"/{part}" if part else "")


class FetchPageOutput(BaseModel):
    """What ``fetch_page`` wrote and read, and a window of the text."""

    message: str = Field(description="One line: what was written where, and whether the "
                         "page was really read (with what to do next when it was not).")
    path: str | None = Field(description="The file written, below the server's output folder.")
    verdict: VerdictName
    reason: str = Field(description="Why the verdict (ok, wall:paywall, js_shell, ...).")
    record_id: str
    record_uri: str = Field(description="The stored capture, readable with resources/read "
                            "(add /text or /bytes for the page's text or bytes).")
    bytes: int = Field(description="Bytes written to the file.")
    format: str
    content_type: str = Field(description="The server's content type, marked as sent.")
    injection_marks: int = Field(description="Control-shaped strings marked in the text.")
    preview: str | None = Field(default=None, description="The first lines, when asked.")
    content: str | None = Field(description="The text written, from start_index, at most "
                                "max_length characters, fenced as untrusted web content; None "
                                "for bytes that are not text (read the file).")
    start_index: int = Field(description="Where the content starts in the text.")
    next_start_index: int | None = Field(description="Where the next window starts: call "
                                         "again with start_index set to it; None at the end.")
    total_length: int | None = Field(description="Characters of the whole text.")
    truncated: bool = Field(description="True when the content stops before the text's end "
                            "(the page itself is whole in the file).")


class AnswerPassage(BaseModel):
    model_config = ConfigDict(extra="allow")

    text: str
    found: bool
    nearest: str | None = None
    similarity: float | None = None


class AnswerCheckOutput(BaseModel):
    """An answer check: found, not_found (a passage on no page) or not_run (why)."""

    model_config = ConfigDict(extra="allow")

    outcome: Literal["found", "not_found", "not_run"]
    reason: str | None = None
    passages: list[AnswerPassage] = Field(default_factory=list)
    skipped: list[dict[str, Any]] = Field(default_factory=list)
    claims: list[dict[str, Any]] = Field(default_factory=list, description="The figures and "
                                         "names the answer states, each checked (record.md).")


class CaptureOutput(BaseModel):
    """The capture's record, as ``readreceipt capture --json`` prints it."""

    model_config = ConfigDict(extra="allow")

    url: str
    final_url: str | None = None
    verdict: VerdictName
    reason: str
    http_status: int | None = None
    bytes: int | None = None
    bytes_sha256: str | None = None
    record_id: str
    record_uri: str = Field(description="The stored capture, readable with resources/read.")
    fetched_at: str
    reused: bool = Field(description="Answered from a copy fetched within the dedup window.")
    title: str | None = None
    answer_check: AnswerCheckOutput | None = None


class CheckAnswerOutput(BaseModel):
    """An answer checked against the newest copy held."""

    model_config = ConfigDict(extra="allow")

    url: str
    record_id: str
    record_uri: str
    fetched_at: str
    verdict: VerdictName
    reason: str
    answer_check: AnswerCheckOutput


class RecordRow(BaseModel):
    model_config = ConfigDict(extra="allow")

    record_id: str
    url: str
    verdict: VerdictName
    reason: str
    fetched_at: str
    record_uri: str


class FindRecordsOutput(BaseModel):
    """Rows of the library's index, newest first."""

    library: str
    records: list[RecordRow]
