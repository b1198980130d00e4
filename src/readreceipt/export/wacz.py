"""A WACZ 1.1.1 package of an export, as ReplayWeb.page and pywb load it.

Members::

    archive/data.warc.gz        the WARC (per-record gzip), stored uncompressed in the ZIP so
                                readers can seek to a record by its offset
    indexes/index.cdx.gz        the sorted CDXJ lines in gzip blocks, stored uncompressed in
                                the ZIP (py-wacz's layout; pywb's ``wb-manager add`` reads it)
    indexes/index.idx           where each block starts and its first key (ReplayWeb.page
                                loads this and ignores a .cdx.gz that comes without it)
    pages/pages.jsonl           one line per replayable capture: id, url, ts, title, text
    datapackage.json            "profile": "data-package", "wacz_version": "1.1.1", and each
                                member's sha256 and size (ReplayWeb.page rejects the 1.2.0
                                spec's "profile": "wacz")
    datapackage-digest.json     the sha256 of datapackage.json

Invariant: members that are already compressed (the WARC, the index blocks) are stored, the
rest deflated;
every member named in datapackage.json is in the ZIP with the digest given.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from readreceipt._version import __version__
from readreceipt.export.warc import Page

WACZ_VERSION = "1.1.1"
WARC_MEMBER = "archive/data.warc.gz"
INDEX_BLOCKS_MEMBER = "indexes/index.cdx.gz"
INDEX_IDX_MEMBER = "indexes/index.idx"
PAGES_MEMBER = "pages/pages.jsonl"
_CHUNK = 1 << 20


def pages_header() -> str:
    return json.dumps({"format": "json-pages-1.0", "id": "pages",
                       "title": "Pages captured by readreceipt", "hasText": True}) + "\n"


def page_line(page: Page) -> str:
    entry: dict[str, Any] = {"id": page.record_id, "url": page.url, "ts": page.fetched_at}
    if page.title:
        entry["title"] = page.title
    if page.text is not None:
        entry["text"] = page.text
    return json.dumps(entry, ensure_ascii=False) + "\n"


def write_pages(out: TextIO) -> Callable[[Page], None]:
    """A sink that writes each page to ``out`` (after the header, written now)."""
    out.write(pages_header())

    def sink(page: Page) -> None:
        out.write(page_line(page))

    return sink


@dataclass(frozen=True)
class Member:
    path: str  # inside the ZIP
    source: Path | bytes  # a file to copy, or the bytes themselves
    stored: bool  # already compressed: ZIP_STORED


def _digest_and_size(source: Path | bytes) -> tuple[str, int]:
    if isinstance(source, bytes):
        return "sha256:" + hashlib.sha256(source).hexdigest(), len(source)
    hasher = hashlib.sha256()
    size = 0
    with source.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            hasher.update(chunk)
            size += len(chunk)
    return "sha256:" + hasher.hexdigest(), size


def datapackage(members: Iterable[Member], *, created: str, title: str,
                description: str) -> dict[str, Any]:
    resources = []
    for member in members:
        digest, size = _digest_and_size(member.source)
        resources.append({"name": member.path.rsplit("/", 1)[-1].lower(), "path": member.path,
                          "hash": digest, "bytes": size})
    return {"profile": "data-package", "resources": resources, "wacz_version": WACZ_VERSION,
            "title": title, "description": description, "created": created,
            "software": f"readreceipt {__version__}"}


def write_wacz(path: Path, members: list[Member], *, created: str, title: str,
               description: str) -> None:
    """Write the ZIP: the members, then datapackage.json and its digest."""
    package = json.dumps(datapackage(members, created=created, title=title,
                                     description=description), indent=2).encode("utf-8")
    digest = json.dumps({"path": "datapackage.json",
                         "hash": "sha256:" + hashlib.sha256(package).hexdigest()},
                        indent=2).encode("utf-8")
    with zipfile.ZipFile(path, "w", allowZip64=True) as archive:
        for member in members:
            kind = zipfile.ZIP_STORED if member.stored else zipfile.ZIP_DEFLATED
            if isinstance(member.source, bytes):
                archive.writestr(member.path, member.source, compress_type=kind)
            else:
                archive.write(member.source, member.path, compress_type=kind)
        archive.writestr("datapackage.json", package, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("datapackage-digest.json", digest, compress_type=zipfile.ZIP_DEFLATED)
