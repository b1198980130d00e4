"""CDXJ index lines (``<surt> <timestamp> <json>``) for the records of an exported WARC.

Replay tools find a capture by the SURT of its URL: pywb recomputes the key of the URL asked
for with the ``surt`` package's default canonicalisation and looks it up in the sorted index,
so :func:`surt` must give exactly that key. It does for the URLs readreceipt stores (canonical
WHATWG hrefs), and tests compare it with the ``surt`` package over the corpus and odd cases.

The canonicalisation, as the Internet Archive's key maker defines it: the fragment dropped;
percent-escapes undone repeatedly and then only bytes outside printable ASCII (and ``%``, ``#``)
escaped again; the host lower-cased, a leading ``www``/``wwwN.`` removed and its labels
reversed and joined with commas; the default port dropped; ``.`` and ``..`` path segments
resolved and empty ones dropped; path and query lower-cased; a trailing slash removed (unless
the path is ``/``); common session-id parameters removed; the query's parameters sorted.

A WACZ carries the lines as the spec's reference tools (py-wacz) write them, a compressed,
paged index (:func:`paged_index`): ``index.cdx.gz``, the sorted lines in blocks, each block its
own gzip member; and ``index.idx``, one line per block giving its first key, offset, length
and digest, after a ``!meta`` line naming the format (``cdxj-gzip-1.0``). ReplayWeb.page reads
the ``.idx`` and fetches only the blocks a lookup needs (a lone ``.cdx.gz`` it ignores); pywb's
``wb-manager add`` takes ``*.cdx`` and ``*.cdx.gz`` files, and reads the gzip members in turn.

Invariant: :func:`sorted_lines` orders lines as pywb's binary search expects (plain byte
order of the whole line, as ``LC_ALL=C sort`` would).
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import io
import ipaddress
import itertools
import json
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote_from_bytes, unquote_to_bytes, urlsplit

#: Characters never escaped again after unescaping (all printable ASCII but ``%`` and ``#``).
_SAFE = b"!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~"
_WWW = re.compile(r"^www\d*\.")
_DEFAULT_PORTS = {"http": 80, "https": 443}
#: Session-id parameters the key maker drops (its own list).
_QUERY_SESSION_IDS = (
    re.compile(rb"^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$", re.I),
)
_PATH_SESSION_IDS = (
    re.compile(rb"^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$", re.I),
    re.compile(rb"^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$", re.I),
)


def _unescape(data: bytes) -> bytes:
    while True:
        once = unquote_to_bytes(data)
        if once == data:
            return data
        data = once


def _escape(data: bytes) -> bytes:
    return quote_from_bytes(data, safe=_SAFE).encode("ascii")


def _path(raw: bytes) -> bytes:
    kept: list[bytes] = []
    for segment in raw.split(b"/")[1:]:
        if segment == b".":
            continue
        if segment == b"..":
            if kept:
                kept.pop()
            else:
                kept.append(segment)
            continue
        kept.append(segment)
    if not kept:
        return b"/"
    return b"/" + b"".join(s + b"/" for s in kept[:-1] if s) + kept[-1]


def _host(host: str) -> bytes:
    raw = _unescape(host.encode("utf-8")).replace(b"..", b".").strip(b".").lower()
    try:
        return str(ipaddress.IPv4Address(raw.decode("ascii"))).encode("ascii")
    except (ValueError, UnicodeDecodeError):
        pass
    return _WWW.sub("", _escape(raw).decode("ascii")).encode("ascii")


def surt(url: str) -> str:
    """The SURT key of ``url`` (``com,example)/path?a=1&b=2``), as pywb computes it."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = _host(parts.hostname or "")
    key = b",".join(reversed(host.split(b".")))
    if parts.port is not None and parts.port != _DEFAULT_PORTS.get(scheme):
        key += b":" + str(parts.port).encode("ascii")
    path = _escape(_path(_unescape(parts.path.encode("utf-8")))).lower()
    for pattern in _PATH_SESSION_IDS:
        match = pattern.match(path)
        if match:
            path = match.group(1) + match.group(3)
    if len(path) > 1 and path.endswith(b"/"):
        path = path[:-1]
    key += b")" + path
    query = _escape(_unescape(parts.query.encode("utf-8"))) if parts.query else b""
    for pattern in _QUERY_SESSION_IDS:
        match = pattern.match(query)
        if match:
            query = match.group(1) + (match.group(2) or b"")
    query = query.lower()
    if query:
        pairs = sorted(tuple(arg.split(b"=", 1)) for arg in query.split(b"&"))
        key += b"?" + b"&".join(b"=".join(p) for p in pairs)
    return key.decode("ascii")


def timestamp14(iso: str) -> str:
    """``2026-01-31T12:00:05.123456Z`` -> ``20260131120005``."""
    digits = re.sub(r"\D", "", iso)
    return (digits + "0" * 14)[:14]


@dataclass(frozen=True)
class IndexEntry:
    """Where one replayable record lies in the WARC, and what it holds."""

    url: str
    fetched_at: str
    mime: str | None  # None: the response declared no type (the key is left out)
    status: int | None
    digest: str
    length: int
    offset: int
    filename: str
    record_type: str  # response | revisit | resource

    def line(self) -> str:
        data: dict[str, Any] = {"url": self.url}
        if self.mime:
            data["mime"] = self.mime
        if self.status is not None:
            data["status"] = str(self.status)
        data.update({"digest": self.digest, "length": str(self.length),
                     "offset": str(self.offset), "filename": self.filename})
        return (f"{surt(self.url)} {timestamp14(self.fetched_at)} "
                f"{json.dumps(data, ensure_ascii=False, separators=(', ', ': '))}")


def sorted_lines(entries: list[IndexEntry]) -> list[str]:
    """Index lines in byte order, as readers binary-search them."""
    return sorted((e.line() for e in entries), key=lambda line: line.encode("utf-8"))


#: Lines per block of a paged index: what py-wacz writes (a lookup inflates one block).
LINES_PER_BLOCK = 1024
#: The format the ``!meta`` line of an ``.idx`` names, as py-wacz and ReplayWeb.page spell it.
PAGED_FORMAT = "cdxj-gzip-1.0"


@dataclass(frozen=True)
class PagedIndex:
    """A compressed, paged CDXJ index: the blocks and the index of the blocks."""

    blocks: bytes  # index.cdx.gz: one gzip member per block of sorted lines
    idx: bytes  # index.idx: ``!meta`` line, then ``<first key> <timestamp> {offset, ...}``


def paged_index(lines: list[str], data_name: str,
                per_block: int = LINES_PER_BLOCK) -> PagedIndex:
    """Pack sorted ``lines`` into blocks named ``data_name`` in the ``.idx`` it comes with."""
    blocks = io.BytesIO()
    idx = write_paged_index(iter(lines), blocks, data_name, per_block)
    return PagedIndex(blocks.getvalue(), idx)


def write_paged_index(lines: Iterator[str], blocks: BinaryIO, data_name: str,
                      per_block: int = LINES_PER_BLOCK) -> bytes:
    """Write sorted ``lines`` to ``blocks`` a block at a time (each its own gzip member);
    the ``.idx`` that goes with them (one line a block: small whatever the lines)."""
    meta = json.dumps({"format": PAGED_FORMAT, "filename": data_name})
    idx = [f"!meta 0 {meta}\n"]
    offset = 0
    while chunk := list(itertools.islice(lines, per_block)):
        packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
        member = packer.compress("".join(line + "\n" for line in chunk).encode("utf-8"))
        member += packer.flush()
        key = chunk[0].split(" {", 1)[0]
        where = {"offset": offset, "length": len(member),
                 "digest": "sha256:" + hashlib.sha256(member).hexdigest()}
        idx.append(f"{key} {json.dumps(where)}\n")
        blocks.write(member)
        offset += len(member)
    return "".join(idx).encode("utf-8")


#: Lines sorted in memory before a run of them is written out (about 8 MB of lines; a million
#: replayable records make 40 runs, merged a line at a time).
LINES_PER_RUN = 25_000


class SortedLines:
    """Index lines sorted on disk: each run of :data:`LINES_PER_RUN` sorted in memory and
    written to a file in ``folder``, the runs merged as they are read back. Memory follows
    the run, not the number of lines. (A string's code point order is its UTF-8 byte order,
    the order readers binary-search.)"""

    def __init__(self, folder: Path, per_run: int = LINES_PER_RUN) -> None:
        self.folder = folder
        self.per_run = per_run
        self._lines: list[str] = []
        self._runs: list[Path] = []
        self.count = 0

    def add(self, entry: IndexEntry) -> None:
        self._lines.append(entry.line())
        self.count += 1
        if len(self._lines) >= self.per_run:
            self._spill()

    def _spill(self) -> None:
        run = self.folder / f"index-run-{len(self._runs):05d}"
        self._lines.sort()
        with run.open("w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in self._lines)
        self._runs.append(run)
        self._lines = []

    def __iter__(self) -> Iterator[str]:
        """Every line, in order (the runs read back a line at a time)."""
        self._lines.sort()
        with contextlib.ExitStack() as stack:
            runs = [(line.rstrip("\n") for line in stack.enter_context(
                run.open(encoding="utf-8"))) for run in self._runs]
            yield from heapq.merge(*runs, iter(self._lines))
