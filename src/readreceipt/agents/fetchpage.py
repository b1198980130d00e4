"""A page's own content in a file for an agent to read: ``readreceipt fetch`` and its kin.

:func:`fetch_page` runs the ordinary :func:`readreceipt.pipeline.capture` (same safe pipeline,
same record), then writes a file from the bytes that capture kept:

- HTML: hidden elements removed, main content extracted by trafilatura into markdown, text or
  HTML, under a short header (title, URL, final URL, fetched at, verdict, record id);
- anything else textual (JSON, plain text, markdown, XML, and a body declared as something
  unknown that is text by its own bytes): the text as sent, not converted;
- a PDF or other binary content, and ``format="raw"``: the body byte for byte.

Every text written for an agent is fenced as untrusted (:mod:`readreceipt.agents.fence`); raw bytes
are not text and are written untouched. The record gains ``injection_marks`` and
``fetch_output`` (in its ``extra``), so what was handed to the agent is written down too.

Invariants: no step of the pipeline runs here (capture does them); a page that was not read
still has what came back written, and the result's ``exit_code`` is its verdict's; a file is
never replaced when ``overwrite`` is false; nothing is written outside the path asked for or
the per-user default folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from readreceipt.agents import fence
from readreceipt.errors import DeclinedError, RefusedError, UsageError
from readreceipt.fetching import politeness
from readreceipt.fetching.netguard import Resolver
from readreceipt.fetching.transport import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.reading.extract import (
    HTML_TEXT_BYTES,
    decode,
    html_text,
    sniff_kind,
    too_dense_to_read_twice,
)
from readreceipt.reading.verdict import RETRIEVED, exit_code_for
from readreceipt.reading.wording import describe
from readreceipt.store import outputs
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.ownership import UnsafeFolder, private_folder
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

FORMATS = ("markdown", "text", "html", "raw")
_TRAFILATURA_FORMAT = {"markdown": "markdown", "text": "txt", "html": "html"}
_FORMAT_EXT = {"markdown": "md", "text": "txt", "html": "html"}
_TYPE_EXT = {
    "text/html": "html", "application/xhtml+xml": "xhtml", "application/json": "json",
    "text/json": "json", "text/markdown": "md", "text/x-markdown": "md", "text/plain": "txt",
    "text/csv": "csv", "application/xml": "xml", "text/xml": "xml", "application/pdf": "pdf",
}

#: An agent fetching two pages of one host in a row would otherwise be declined for the two
#: seconds of pacing (the one default of every command: politeness.DEFAULT_WAIT).
DEFAULT_WAIT = politeness.DEFAULT_WAIT

#: What to do next, by the verdict's reason (first matching prefix wins). One place, so the
#: CLI and the MCP server say the same thing.
_ADVICE: tuple[tuple[str, str], ...] = (
    ("wall:", "readreceipt does not get past walls: ask the user for the page's text or use "
              "another source, and do not cite this page as read"),
    ("js_shell", "the page builds itself with JavaScript: install the browser extra and "
                 "Chromium so readreceipt can render it, or find a static copy"),
    ("soft_404", "the page is not there: check the URL"),
    ("http_404", "the page is not there: check the URL"),
    ("http_410", "the page is gone: check the URL or find another source"),
    ("http_401", "the server wants a sign-in: ask the user for the page's text"),
    ("http_403", "the server refused the request: ask the user for the text or use another "
                 "source"),
    ("http_429", "the server asks for fewer requests: try again later"),
    ("http_5", "the server failed: try again later"),
    ("http_", "the server answered with an error: check the URL"),
    ("parked", "the domain is parked: check the URL"),
    ("thin_text", "there is too little text to be the page: check the URL"),
    ("truncated", "the page is larger than the size cap: run again with a larger --max-bytes"),
    ("text_prefix", "the page is larger than readreceipt reads text from: the file holds its "
                    "first part only; --format raw writes the whole body"),
    ("no_text_layer", "the PDF holds images of text only: it cannot be quoted"),
    ("timeout", "the server did not answer in time: try again later or with a longer "
                "--timeout"),
    ("too_many_redirects", "the URL redirects in a loop: check the URL"),
    ("https_downgrade", "the https page redirects to plain http, which is not followed: use "
                        "another source"),
)
_DEFAULT_ADVICE = "there is no text to read here: do not cite this page as read"


@dataclass(frozen=True)
class FetchPageOptions:
    output: str | os.PathLike[str] | None = None  # a file, or a folder for the default name
    format: str = "markdown"  # markdown | text | html | raw
    links: bool = True
    tables: bool = True
    overwrite: bool = True
    now: bool = False
    wait: float = DEFAULT_WAIT
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    resolve: tuple[str, ...] = ()
    session_id: str | None = None
    agent_id: str | None = None
    render: bool = True
    allow_hosts: tuple[str, ...] = ()
    #: ``raw`` text (not binary) fenced like every other format, for an agent that reads
    #: whatever file it is given (the MCP server); the command line's raw is byte for byte.
    fence_raw: bool = False
    #: The folder every file must land below, links followed (the MCP server's output
    #: folder): checked again when the file is written, after the fetch, so that a folder
    #: turned into a link meanwhile is not written through.
    within: str | os.PathLike[str] | None = None
    #: Told of the capture's slow steps (as :class:`~readreceipt.pipeline.CaptureOptions`).
    on_phase: Callable[[str], None] | None = dataclasses.field(default=None, compare=False)


@dataclass(frozen=True)
class FetchPageResult:
    record: Record
    path: Path | None  # None when nothing came back to write
    bytes: int  # bytes written to ``path``
    format: str  # what was written: markdown | text | html | raw | as-sent
    reused: bool
    fenced: fence.Fenced | None
    hidden_removed: int = 0

    @property
    def content_type(self) -> str:
        return self.record.content_type or ""

    @property
    def injection_marks(self) -> int:
        return self.fenced.injection_marks if self.fenced else 0

    @property
    def exit_code(self) -> int:
        return exit_code_for(self.record.verdict, self.record.reason)

    @property
    def read(self) -> bool:
        return self.record.verdict == RETRIEVED

    def line(self) -> str:
        """One line for the agent: what was written where, and, when not read, what to do."""
        r = self.record
        # What the verdict says may quote the server (a reason phrase, a header line the
        # parser refused): one marked line, like every web text an agent reads.
        said = fence.one_line(describe(r), 2000)
        if self.path is None:
            return (f"not read: nothing came back from {r.url}, so nothing was written. "
                    f"{said} Next: {advice(r.reason)}.")
        where = f"wrote {self.bytes} bytes to {self.path}"
        what = f"{self.format}, {fence.one_line(self.content_type or 'no content type', 200)}"
        extra = ""
        if self.injection_marks:
            extra += (f"; {self.injection_marks} control-shaped string"
                      f"{'s' if self.injection_marks != 1 else ''} marked in the text")
        if self.reused:
            extra += f"; from the copy fetched at {r.fetched_at}"
        if self.read:
            return f"ok: {where} ({what}, {r.verdict}){extra}"
        return (f"not read: {where} ({what}, {r.verdict} {r.reason}){extra}. {said} "
                f"Next: {advice(r.reason)}.")

    def preview(self, count: int) -> str:
        """The first ``count`` lines of the text written, fenced as the file is ('' if none)."""
        if self.fenced is None or count <= 0:
            return ""
        return self.fenced.preview(count)

    def to_json(self) -> dict[str, Any]:
        r = self.record
        return {
            "path": str(self.path) if self.path else None, "bytes": self.bytes,
            "format": self.format, "content_type": self.content_type, "verdict": r.verdict,
            "reason": r.reason, "wall": r.wall, "record_id": r.record_id, "url": r.url,
            "final_url": r.final_url, "fetched_at": r.fetched_at, "reused": self.reused,
            "injection_marks": self.injection_marks,
            "invisible_removed": self.fenced.invisible_removed if self.fenced else 0,
            "hidden_removed": self.hidden_removed, "exit_code": self.exit_code,
            "message": self.line(),
        }


def advice(reason: str) -> str:
    """What an agent should do about a page not read for ``reason``."""
    for prefix, text in _ADVICE:
        if reason.startswith(prefix):
            return text
    return _DEFAULT_ADVICE


def fetch_page(url: str, options: FetchPageOptions | None = None,
               library: Library | None = None, *, resolver: Resolver | None = None,
               **fields: Any) -> FetchPageResult:
    """Capture ``url`` and write its own content to a file for an agent to read.

    ``fields`` set :class:`FetchPageOptions` by name (``output=``, ``format=``...). Without
    ``library`` the library is found, used and closed.
    """
    if library is None:
        with Library.locate() as lib:
            return fetch_page(url, options, lib, resolver=resolver, **fields)
    opts = dataclasses.replace(options or FetchPageOptions(), **fields)
    if opts.format not in FORMATS:
        raise UsageError(f"unknown format {opts.format!r}; use one of {', '.join(FORMATS)}",
                         reason="bad_format")
    asked = Path(opts.output).expanduser() if opts.output is not None else None
    # A trailing slash names a folder (made when missing), as it does to a shell.
    folder_asked = isinstance(opts.output, str) and opts.output.endswith(("/", os.sep))
    if asked is not None and not folder_asked and not asked.is_dir() and asked.parent.is_dir():
        try:  # a path that cannot be written is refused before anything is fetched
            outputs.plan(asked, overwrite=opts.overwrite)
        except UsageError as exc:
            raise UsageError(f"{exc}; nothing was fetched", reason=exc.reason) from None
    elif asked is None:
        default_folder()  # a default folder another user controls is refused first, too
    lib = library
    result = capture(url, CaptureOptions(
        now=opts.now, wait=opts.wait, timeout=opts.timeout, max_bytes=opts.max_bytes,
        session_id=opts.session_id, agent_id=opts.agent_id, resolve=opts.resolve, keep="all",
        render=opts.render, allow_hosts=opts.allow_hosts, on_phase=opts.on_phase), lib,
        resolver=resolver)
    record = result.record
    if record.http_status is None:  # nothing came back (a network failure): nothing to write
        return FetchPageResult(record, None, 0, opts.format, result.reused, None)
    body = lib.body(record) if record.bytes else b""
    if body is None:
        raise DeclinedError(
            f"{record.url} was fetched at {record.fetched_at} and its bytes were not kept; "
            "run again with --now to fetch it anew", url=record.url, reason="bytes_not_kept")
    written = render_content(record, body, opts)
    within = Path(os.path.realpath(opts.within)) if opts.within is not None else None
    path = _write(asked, record, written, opts.overwrite, within, folder=folder_asked)
    saved = _note_output(lib, record, path, written)
    return FetchPageResult(saved, path, len(written.data), written.format, result.reused,
                           written.fenced, written.hidden_removed)


@dataclass(frozen=True)
class Written:
    data: bytes
    format: str
    ext: str
    fenced: fence.Fenced | None
    hidden_removed: int = 0


def render_content(record: Record, body: bytes, opts: FetchPageOptions) -> Written:
    """The file's bytes for ``body`` (served for ``record``) in the format asked for."""
    content_type = record.content_type or ""
    kind = sniff_kind(body, content_type) if body else "empty"
    if kind == "binary" and sniff_kind(body, "application/octet-stream") == "text":
        # Declared as something unknown, yet text by its own bytes: written as the text it
        # is, fenced, so that no Content-Type header takes a page's words past the fence.
        kind = "text"
    type_ext = _TYPE_EXT.get(content_type, "html" if kind == "html" else "txt")
    if (opts.format == "raw" and not opts.fence_raw) or kind in ("pdf", "binary"):
        ext = "pdf" if kind == "pdf" else ("bin" if kind == "binary" else type_ext)
        return Written(body, "raw", ext, None)
    if opts.format == "raw":  # fenced: the text as sent, nothing hidden removed or extracted
        partial = kind == "html" and len(body) > HTML_TEXT_BYTES
        if partial:  # its beginning, as much as extraction reads of visible markup
            body = body[:HTML_TEXT_BYTES]
        text, _ = decode(body, record.charset, html=(kind == "html"),
                         partial=partial) if body else ("", "utf-8")
        fenced = fence.fence(text, _header(record), from_page=_from_page(record))
        return Written(fenced.document.encode("utf-8"), "raw", type_ext, fenced)
    if kind == "html":  # as capture read it: its visible markup, within extraction's bound
        text = html_text(body, record.charset)[0]
    else:
        text, _ = decode(body, record.charset) if body else ("", "utf-8")
    if kind != "html":
        fenced = fence.fence(text, _header(record), from_page=_from_page(record))
        return Written(fenced.document.encode("utf-8"), "as-sent", type_ext, fenced)
    visible, hidden = fence.strip_hidden_html(text)
    content = _html_content(visible, record, opts)
    fenced = fence.fence(content, _header(record), from_page=_from_page(record))
    return Written(fenced.document.encode("utf-8"), opts.format, _FORMAT_EXT[opts.format],
                   fenced, hidden)


def _html_content(html: str, record: Record, opts: FetchPageOptions) -> str:
    import trafilatura

    dense = too_dense_to_read_twice(html)  # the fallbacks left out, as the capture does
    try:
        out = trafilatura.extract(
            html, url=record.final_url or record.url,
            output_format=_TRAFILATURA_FORMAT[opts.format], include_links=opts.links,
            include_tables=opts.tables, include_comments=False, include_images=False,
            deduplicate=False, with_metadata=False, fast=dense)
    except Exception:  # trafilatura raises a wide variety on hostile markup
        log.warning("trafilatura failed on %s; writing the whole visible text", record.url,
                    exc_info=True)
        out = None
    if out and out.strip() and opts.format != "html" and \
            (record.second_reading or {}).get("used"):
        # The capture read this article a second time (trafilatura cut it short): the file
        # is extended the same way, its own formatting kept.
        from readreceipt.reading.placement import tree
        from readreceipt.reading.secondreading import second_reading

        page = tree(html)
        again = second_reading(html, page, str(out).strip()) if page is not None else None
        if again is not None and again.used:
            return again.text
    if out and out.strip():
        return str(out).strip()
    # Nothing that looks like an article (a wall, a shell, a list page): the whole visible
    # text, so the agent sees what came back.
    from readreceipt.reading.extract import extract

    return extract(html.encode("utf-8"), "text/html", "utf-8").page_text


def _header(record: Record) -> list[tuple[str, str]]:
    rows = [("source", "readreceipt fetch (the page fetched again, independently)"),
            ("url", record.url)]
    if record.final_url and record.final_url != record.url:
        rows.append(("final url", record.final_url))
    rows += [("fetched at", record.fetched_at), ("content type", record.content_type or "none"),
             ("verdict", f"{record.verdict} ({record.reason})")]
    if record.verdict != RETRIEVED:
        rows.append(("not read", describe(record)))
    rows.append(("record", record.record_id))
    return rows


def _from_page(record: Record) -> list[tuple[str, str]]:
    """The page's own words about itself, written inside the fence: its title."""
    return [("title", fence.one_line(record.title))] if record.title else []


# ------------------------------------------------------------------------------- the file


def default_folder() -> Path:
    """``<tmp>/readreceipt`` when it is this user's own, else ``<tmp>/readreceipt-<uid>``,
    made when missing; RefusedError (exit 2) naming it when another user controls that one
    (a link planted there, or a folder another user owns or may write into, would let them
    choose where readreceipt writes or change the file before the agent reads it)."""
    base = Path(tempfile.gettempdir())
    try:
        return private_folder(base / "readreceipt")
    except UnsafeFolder as exc:
        log.debug("not using %s: %s", exc.path, exc.why)
    return private_folder(base / f"readreceipt-{_uid()}")


def _uid() -> str:
    return str(os.getuid()) if hasattr(os, "getuid") else "user"


_UNSAFE = re.compile(r"[^a-z0-9]+")


def default_name(record: Record, ext: str) -> str:
    stamp = re.sub(r"[^0-9TZ]", "", record.fetched_at.split(".")[0]) + "Z"
    path = urlsplit(record.url).path.rstrip("/")
    last = path.rsplit("/", 1)[-1].rsplit(".", 1)[0] if path else ""
    slug = _UNSAFE.sub("-", last.lower()).strip("-")[:40].strip("-") or "index"
    digest = (record.bytes_sha256 or hashlib.sha256(record.record_id.encode()).hexdigest())[:8]
    return f"{stamp}-{slug}-{digest}.{ext}"


def _host_folder(record: Record) -> str:
    parts = urlsplit(record.url)
    host = (parts.hostname or "unknown").lower()
    if parts.port:
        host += f"_{parts.port}"
    return re.sub(r"[^a-z0-9._-]+", "_", host).strip(".") or "unknown"


def _write(asked: Path | None, record: Record, written: Written, overwrite: bool,
           within: Path | None = None, *, folder: bool = False) -> Path:
    """Write the file: at the path asked for (:mod:`readreceipt.store.outputs` rules), or
    under a default name, which never replaces a file, in the folder asked for (``folder``:
    it was named with a trailing slash, and is made when missing) or the default one. The
    path written. With ``within``, where it lands is checked first, links followed
    (RefusedError ``outside_output_folder``)."""
    name = default_name(record, written.ext)
    if within is not None and asked is not None:
        _refuse_outside(asked, within)
    if asked is not None and folder:
        _make_folder(asked)
    if asked is not None and not asked.is_dir():
        _make_folder(asked.parent)  # folders on the path asked for are made
        if within is not None:
            _refuse_outside(asked, within)
        try:
            return outputs.write_file(asked, written.data, overwrite=overwrite)
        except UsageError as exc:
            if exc.reason == "exists":
                raise UsageError(f"{asked} exists and --no-overwrite was given; the capture "
                                 "is recorded but the file was not replaced",
                                 reason="exists") from None
            raise
    if asked is not None:
        return outputs.write_new(asked, name, written.data)
    default = default_folder() / _host_folder(record)
    _make_folder(default)
    return outputs.write_new(default, name, written.data)


def _refuse_outside(path: Path, within: Path) -> None:
    real = Path(os.path.realpath(path))
    if real != within and within not in real.parents:
        raise RefusedError(f"{path} now leads to {real}, outside {within} (a folder on its "
                           "way was turned into a link); nothing was written",
                           url=None, reason="outside_output_folder")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make {folder}: {exc.strerror or exc}",
                         reason="write_failed") from exc


def _note_output(lib: Library, record: Record, path: Path, written: Written) -> Record:
    """Write down in the record what was handed to the agent."""
    output = {
        "path": str(path), "format": written.format, "bytes": len(written.data),
        "sha256": hashlib.sha256(written.data).hexdigest(), "written_at": utc_now(),
        "fenced": written.fenced is not None,
        "invisible_removed": written.fenced.invisible_removed if written.fenced else 0,
        "hidden_removed": written.hidden_removed,
        "delimiters_escaped": written.fenced.delimiters_escaped if written.fenced else 0,
    }
    marks = written.fenced.injection_marks if written.fenced else 0
    updated = record.replace(extra={**record.extra, "injection_marks": marks,
                                    "fetch_output": output})
    lib.save(updated)
    return updated
