"""Retrievals as WARC 1.1 records (warcio), one capture event at a time.

For each retrieval whose bytes are held:

- one ``response`` (and its ``request``) per redirect the capture followed, in order: the 3xx
  status and its headers (``Location`` included), an empty payload (a redirect's body is never
  read), so ``/old`` replays as the redirect it was (:mod:`readreceipt.export.http`).
- ``response``: the HTTP status line (in the version the capture spoke, ``http_version``;
  HTTP/1.1 for records older than that field) and the recorded response headers, then the
  body exactly as stored (content-encoding already removed). ``Content-Encoding``,
  ``Transfer-Encoding`` and ``Content-Length`` are dropped from the headers and
  ``Content-Length`` is set to the body's length, so replay tools neither decode twice nor
  de-chunk a body that is not chunked. A body cut at the size cap is marked
  ``WARC-Truncated: length``; ``WARC-IP-Address`` is the address the answer came from. Bytes
  a browser rendered are not an HTTP response: they go in a ``resource`` record.
- ``request``: the GET readreceipt sent (method, path, host, its user agent, accept headers,
  in the HTTP version spoken), with ``WARC-IP-Address`` the address it was sent to; no cookie,
  no authorization: readreceipt never sends one.
- ``revisit`` instead of ``response`` when the same payload was already written in this file
  (identical-payload-digest profile, ``WARC-Refers-To`` the first response). It keeps the
  response's headers and leaves the payload out, so it carries ``WARC-Truncated: length`` as
  WARC 1.1 (section 6.7.2) requires of such a record.
- ``conversion``: the extracted main text (its block digest is the record's ``text_sha256``),
  and the whole visible text when it differs; each distinct text once per file (a later
  capture that says the same names the earlier conversion record in its metadata).
- ``metadata``: the provenance as JSON (:mod:`readreceipt.export.provenance`).

A retrieval whose bytes were forgotten, never kept, or never arrived has the metadata record
only. Digests are SHA-256 (``sha256:<hex>``), computed here and handed to warcio, which keeps
them. WARC record ids are derived from the readreceipt record id, so exporting the same
evidence twice gives the same records.
"""

from __future__ import annotations

import hashlib
import json
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from io import BytesIO
from typing import Any, BinaryIO

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from readreceipt._version import __version__
from readreceipt.export.cdxj import IndexEntry
from readreceipt.export.http import (
    RedirectHop,
    http_version,
    redirect_hops,
    request_headers,
    response_headers,
)
from readreceipt.export.provenance import Provenance
from readreceipt.store.library import Library
from readreceipt.store.local.scratch import Scratch
from readreceipt.store.records import Record

#: Namespace of the WARC record ids derived from readreceipt record ids.
_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/readreceipt/readreceipt/warc")
#: zlib's default: most of level 9's compression at 1.5 times its speed.
GZIP_LEVEL = 6

WARC_1_1_SPEC = "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"


def sha256_label(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def warc_record_id(record_id: str, kind: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{record_id}/{kind}')}>"


def warc_date(fetched_at: str) -> str:
    """A record's ``fetched_at`` as a WARC 1.1 date (UTC, microseconds)."""
    try:
        when = datetime.fromisoformat(fetched_at.replace("Z", "+00:00"))
    except ValueError:
        when = datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _clean(value: str) -> str:
    return " ".join(str(value).split())


@dataclass(frozen=True)
class Page:
    """A replayable capture, for a WACZ's pages list."""

    record_id: str
    url: str
    fetched_at: str
    title: str | None
    text: str | None


@dataclass
class WarcCounts:
    retrievals: int = 0
    warc_records: int = 0
    redirects: int = 0  # redirect hops written as 3xx responses
    pages: int = 0  # retrievals written as a replayable response, revisit or resource
    by_kind: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


@dataclass(frozen=True)
class _First:
    warc_id: str
    uri: str
    date: str


class _Memory:
    """What an exporter remembers (each payload's first response, each text's record):
    in dicts, or in a :class:`~readreceipt.store.local.scratch.Scratch` file for an export
    whose memory must stay flat."""

    def __init__(self, scratch: Scratch | None) -> None:
        self.scratch = scratch
        self.maps: dict[str, dict[str, Any]] = {"first": {}, "texts": {}}

    def get(self, table: str, key: str) -> Any:
        if self.scratch is not None:
            return self.scratch.get(table, key)
        return self.maps[table].get(key)

    def first(self, table: str, key: str, value: Any) -> None:
        if self.scratch is not None:
            self.scratch.first(table, key, value)
        else:
            self.maps[table].setdefault(key, value)


class WarcExporter:
    """Writes retrievals to one WARC stream and hands each replayable record's place to
    ``on_entry`` (a WACZ's index)."""

    def __init__(self, library: Library, out: BinaryIO, *, gzip: bool, filename: str,
                 provenance: Provenance | None = None, scratch: Scratch | None = None,
                 on_entry: Callable[[IndexEntry], None] | None = None) -> None:
        self.library = library
        self.out = out
        self.filename = filename
        self.gzip = gzip
        self.position = 0  # bytes written so far: where the next record starts
        # warcio writes each record into this sink a piece at a time, which gzips it here, one
        # member a record, at zlib's default level (warcio's own gzip runs at level 9, 1.5
        # times slower for a file under 1 % smaller), straight into ``out``: no record is
        # ever held whole, so a body costs its own size once, not five times.
        self._sink = _MemberSink(out, gzip)
        self.writer = WARCWriter(self._sink, gzip=False, warc_version="1.1")
        self.provenance = provenance or Provenance(library)
        self.on_entry = on_entry
        self.counts = WarcCounts()
        # payload digest -> its first response ("first"); text digest -> its record ("texts")
        self._memory = _Memory(scratch)

    # the file -------------------------------------------------------------------------

    def write_warcinfo(self, description: str) -> None:
        fields = {
            "software": f"readreceipt/{__version__}",
            "format": "WARC File Format 1.1",
            "conformsTo": WARC_1_1_SPEC,
            "description": description,
        }
        body = "".join(f"{k}: {_clean(v)}\r\n" for k, v in fields.items()).encode("utf-8")
        self._write("", "warcinfo", body, "application/warc-fields",
                    {"WARC-Filename": self.filename})

    # one retrieval --------------------------------------------------------------------

    def add(self, record: Record) -> Page | None:
        """Write the records of one retrieval; the page when it can be replayed."""
        self.counts.retrievals += 1
        date = warc_date(record.fetched_at)
        uri = record.final_url or record.url
        main_id: str | None = None
        exported_as = self._bytes_state(record)
        body: bytes | None = None
        if exported_as == "held":
            body = b"" if record.bytes == 0 else self.library.body(record)
            if body is None:
                exported_as = "missing"
            elif record.bytes_sha256 and sha256_label(body) != f"sha256:{record.bytes_sha256}":
                exported_as = "corrupt"
                body = None
            else:
                exported_as = "resource" if record.javascript_executed else "response"
        elif exported_as == "revisit":
            body = None
        written: dict[str, str | list[str]] = {}
        if exported_as in ("response", "resource", "revisit"):
            hops = [self._write_redirect(record, hop, date) for hop in redirect_hops(record)]
            if hops:
                written["redirects"] = hops
            main_id = self._write_capture(record, exported_as, uri, date, body)
            written[exported_as] = main_id
            if exported_as != "resource":
                written["request"] = warc_record_id(record.record_id, "request")
        written.update(self._write_texts(record, uri, date, main_id))
        self._write_metadata(record, uri, date, main_id, exported_as, written)
        self.counts.count(exported_as)
        if main_id is None:
            return None
        self.counts.pages += 1
        return Page(record.record_id, uri, record.fetched_at, record.title,
                    self.library.text(record.text_sha256))

    def _bytes_state(self, record: Record) -> str:
        if record.http_status is None:
            return "no_response"
        digest = record.bytes_sha256
        if record.bytes == 0 and not record.truncated:
            return "held"  # an empty body needs no blob
        if not record.bytes_kept:
            return "not_kept"
        if digest and not record.javascript_executed and \
                self._memory.get("first", digest) is not None:
            return "revisit"
        return "held"

    def _write_capture(self, record: Record, kind: str, uri: str, date: str,
                       body: bytes | None) -> str:
        warc_id = warc_record_id(record.record_id, kind)
        digest = f"sha256:{record.bytes_sha256 or hashlib.sha256(body or b'').hexdigest()}"
        headers: dict[str, str] = {"WARC-Record-ID": warc_id, "WARC-Date": date}
        if record.peer_address:
            headers["WARC-IP-Address"] = record.peer_address
        if kind == "resource":
            mime = (record.content_type or "application/octet-stream").split(";")[0].strip()
            offset, length = self._write(uri, "resource", body or b"", mime, headers)
        else:
            http = response_headers(record, record.bytes)
            http.compute_headers_buffer()
            if kind == "revisit":
                first = _First(*self._memory.get("first", record.bytes_sha256 or ""))
                headers.update({
                    "WARC-Refers-To": first.warc_id,
                    "WARC-Refers-To-Target-URI": first.uri,
                    "WARC-Refers-To-Date": first.date,
                    "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/"
                                    "identical-payload-digest",
                    # The headers are kept and the payload left out: WARC 1.1, 6.7.2.
                    "WARC-Truncated": "length",
                })
                payload = b""
            else:
                payload = body or b""
                if record.truncated:
                    headers["WARC-Truncated"] = "length"
            headers["WARC-Payload-Digest"] = digest
            offset, length = self._write(uri, kind, payload,
                                         "application/http; msgtype=response", headers,
                                         http=http)
            self._write_request(uri, date, warc_id, record.user_agent, http_version(record),
                                record.peer_address,
                                warc_record_id(record.record_id, "request"))
            mime = (record.content_type or "application/octet-stream").split(";")[0].strip()
            if kind == "revisit":
                mime = "warc/revisit"
        if kind == "response" and record.bytes_sha256:
            self._memory.first("first", record.bytes_sha256, [warc_id, uri, date])
        self._entry(IndexEntry(uri, record.fetched_at, mime, record.http_status, digest,
                               length, offset, self.filename, kind))
        return warc_id

    def _entry(self, entry: IndexEntry) -> None:
        if self.on_entry is not None:
            self.on_entry(entry)

    def _write_request(self, uri: str, date: str, concurrent_to: str, user_agent: str | None,
                       version: str, peer: str | None, warc_id: str) -> None:
        http = request_headers(uri, user_agent, version)
        http.compute_headers_buffer()
        headers = {"WARC-Record-ID": warc_id, "WARC-Date": date,
                   "WARC-Concurrent-To": concurrent_to}
        if peer:
            headers["WARC-IP-Address"] = peer
        self._write(uri, "request", b"", "application/http; msgtype=request", headers,
                    http=http)

    def _write_redirect(self, record: Record, hop: RedirectHop, date: str) -> str:
        """The 3xx response of one hop (and its request); its WARC record id."""
        warc_id = warc_record_id(record.record_id, f"redirect/{hop.index}")
        http = hop.response()
        http.compute_headers_buffer()
        headers = {"WARC-Record-ID": warc_id, "WARC-Date": date}
        if hop.peer_address:
            headers["WARC-IP-Address"] = hop.peer_address
        if hop.body_not_read:
            headers["WARC-Truncated"] = "length"
        offset, length = self._write(hop.url, "response", b"",
                                     "application/http; msgtype=response", headers, http=http)
        self._write_request(hop.url, date, warc_id, record.user_agent, hop.http_version,
                            hop.peer_address,
                            warc_record_id(record.record_id, f"redirect-request/{hop.index}"))
        self._entry(IndexEntry(hop.url, record.fetched_at, hop.content_type, hop.status,
                               sha256_label(b""), length, offset, self.filename, "response"))
        self.counts.redirects += 1
        return warc_id

    def _write_texts(self, record: Record, uri: str, date: str,
                     refers_to: str | None) -> dict[str, str]:
        """Conversion records of the texts not yet written; every text's record id back."""
        ids: dict[str, str] = {}
        if record.http_status is None or not record.bytes_kept:
            return ids  # forgotten texts go with their bytes; a failure has none
        for kind, digest in (("main_text", record.text_sha256),
                             ("page_text", record.page_text_sha256)):
            if not digest or (kind == "page_text" and digest == record.text_sha256):
                continue
            held = self._memory.get("texts", digest)
            if held is not None:  # the same text, already written for a capture before
                ids[kind] = held
                continue
            text = self.library.text(digest)
            if text is None:
                continue
            warc_id = warc_record_id(record.record_id, kind)
            headers = {"WARC-Record-ID": warc_id, "WARC-Date": date,
                       "WARC-Readreceipt-Text": kind}
            if refers_to:
                headers["WARC-Refers-To"] = refers_to
            self._write(uri, "conversion", text.encode("utf-8"), "text/plain; charset=utf-8",
                        headers)
            self._memory.first("texts", digest, warc_id)
            ids[kind] = warc_id
        return ids

    def _write_metadata(self, record: Record, uri: str, date: str, concurrent_to: str | None,
                        exported_as: str, written: dict[str, str | list[str]]) -> None:
        document = self.provenance.document(record, exported_as)
        document["warc_record_ids"] = written
        data = json.dumps(document, ensure_ascii=False, indent=1, default=str).encode("utf-8")
        headers = {"WARC-Record-ID": warc_record_id(record.record_id, "metadata"),
                   "WARC-Date": date}
        if concurrent_to:
            headers["WARC-Concurrent-To"] = concurrent_to
        self._write(uri, "metadata", data, "application/json", headers)

    # writing --------------------------------------------------------------------------

    def _write(self, uri: str, kind: str, payload: bytes, content_type: str,
               headers: dict[str, str], *, http: StatusAndHeaders | None = None
               ) -> tuple[int, int]:
        """Write one record (``http``'s head, when given, then ``payload``); its offset and
        length in the file."""
        headers = dict(headers)
        block = hashlib.sha256(http.headers_buff if http is not None else b"")
        block.update(payload)
        headers["WARC-Block-Digest"] = "sha256:" + block.hexdigest()
        if kind not in ("revisit", "warcinfo") and "WARC-Payload-Digest" not in headers:
            headers["WARC-Payload-Digest"] = sha256_label(payload)
        # BytesIO over bytes shares them until written to: the payload is not copied.
        record = self.writer.create_warc_record(
            uri, kind, payload=BytesIO(payload), length=len(payload),
            warc_content_type=content_type, warc_headers_dict=headers, http_headers=http)
        start = self.position
        self.writer.write_record(record)
        self.position += self._sink.finish()
        self.counts.warc_records += 1
        return start, self.position - start


class _MemberSink:
    """What warcio writes a record into: passed on to ``out`` as it comes, gzipped as one
    member per record when ``gzip``; :meth:`finish` ends the record, and says how many bytes
    it took in ``out``."""

    def __init__(self, out: BinaryIO, gzip: bool) -> None:
        self.out = out
        self.gzip = gzip
        self.packer: Any = None
        self.written = 0

    def write(self, data: bytes) -> int:
        taken = len(data)
        if self.gzip:
            if self.packer is None:
                self.packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, zlib.MAX_WBITS | 16)
            data = self.packer.compress(data)
        if data:
            self.out.write(data)
            self.written += len(data)
        return taken  # as a file's write says: the bytes it was handed

    def flush(self) -> None:
        """warcio flushes after each record; the member ends in :meth:`finish`."""

    def finish(self) -> int:
        if self.packer is not None:
            tail = self.packer.flush()
            self.out.write(tail)
            self.written += len(tail)
            self.packer = None
        written, self.written = self.written, 0
        return written


def describe_export(count: int) -> str:
    return (f"{count} retrievals exported by readreceipt. Each response holds the bytes that "
            "were at the URL at that time, as readreceipt received them; they are not "
            "necessarily the bytes any agent read. Provenance is in the metadata records.")
