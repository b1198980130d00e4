"""Export a library (or a selection of it) to a WARC file or a WACZ package.

Invariants: the output appears under its name only once complete (written beside it under a
temporary name, then renamed, by :mod:`readreceipt.store.outputs`' rules: a device or a pipe
is written through, a symbolic link followed), so an interrupted export leaves no half file;
its temporary file and work folder are noted in the library so that ``verify`` reports them
if the export was killed; retrievals are written oldest first, so repeated payloads become
revisits of their first capture; memory stays flat in the number of records (the ids are read
from the index a page at a time, what the exporter remembers is kept in a scratch file in the
work folder, the index lines are sorted in runs on disk and the pages written as they come).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from readreceipt.errors import ReadReceiptError, RecordNotFound, UsageError
from readreceipt.export.cdxj import IndexEntry, SortedLines, write_paged_index
from readreceipt.export.fields import header_problem
from readreceipt.export.provenance import Provenance
from readreceipt.export.selection import EVERYTHING, Selection, selected_ids
from readreceipt.export.wacz import (
    INDEX_BLOCKS_MEMBER,
    INDEX_IDX_MEMBER,
    PAGES_MEMBER,
    WARC_MEMBER,
    Member,
    write_pages,
    write_wacz,
)
from readreceipt.export.warc import Page, WarcExporter, describe_export
from readreceipt.fetching.headers import safe_headers
from readreceipt.progress import NO_PROGRESS, Progress
from readreceipt.store import outputs
from readreceipt.store.clock import utc_now
from readreceipt.store.library import Library
from readreceipt.store.local.scratch import Scratch
from readreceipt.store.records import Record

log = logging.getLogger(__name__)

#: The WACZ work folder's name starts so (``verify`` knows it as an export's leftover).
WORK_PREFIX = ".readreceipt-wacz-"


@dataclass(frozen=True)
class ExportResult:
    path: Path
    format: str  # "warc" | "wacz"
    retrievals: int
    warc_records: int
    by_kind: dict[str, int] = field(default_factory=dict)
    pages: int = 0
    #: The file's size; None when it was written through to a device or a pipe.
    size: int | None = 0
    redirects: int = 0  # redirect hops written as 3xx responses
    #: Selected retrievals whose records could not be read: left out, the rest exported.
    unreadable: tuple[str, ...] = ()

    @property
    def damaged(self) -> int:
        """Selected retrievals not exported whole: a record that could not be read, bytes
        the library no longer holds or that no longer match their digest."""
        return (len(self.unreadable) + self.by_kind.get("missing", 0)
                + self.by_kind.get("corrupt", 0))

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "format": self.format, "retrievals": self.retrievals,
                "warc_records": self.warc_records, "exported_as": dict(self.by_kind),
                "redirects": self.redirects, "pages": self.pages, "bytes": self.size,
                "unreadable": list(self.unreadable)}


def _output(library: Library, path: Path) -> contextlib.AbstractContextManager[Path]:
    """Where to write the export (:func:`readreceipt.store.outputs.writing`); the temporary
    file beside it is noted in the library, so ``verify`` finds it if the export is killed."""
    return outputs.writing(path, on_temp=library.note_scratch)


def _counted(library: Library, selection: Selection) -> int:
    """How many retrievals the selection takes (a first pass over the index, one page of
    rows in memory at a time); RecordNotFound when none."""
    count = sum(1 for _ in selected_ids(library, selection))
    if not count:
        raise RecordNotFound("no retrievals match; nothing was exported", reason="no_match")
    return count


def _write_all(library: Library, out: BinaryIO, selection: Selection, count: int,
               folder: Path, *, gzip: bool, filename: str, progress: Progress,
               unreadable: list[str],
               on_page: Callable[[Page], None] | None = None,
               on_entry: Callable[[IndexEntry], None] | None = None) -> WarcExporter:
    scratch = Scratch(folder / "scratch.db")
    try:
        exporter = WarcExporter(library, out, gzip=gzip, filename=filename,
                                provenance=Provenance(library, scratch), scratch=scratch,
                                on_entry=on_entry)
        exporter.write_warcinfo(describe_export(count))
        progress.start(count)
        for record_id, record in library.records_ahead(selected_ids(library, selection)):
            problem = str(record) if isinstance(record, ReadReceiptError) \
                else header_problem(record)
            if problem is not None or not isinstance(record, Record):
                log.warning("record %s not exported: %s", record_id, problem)
                unreadable.append(record_id)
                progress.advance()
                continue
            page = exporter.add(_judged_again(record))
            if page is not None and on_page is not None:
                on_page(page)
            progress.advance()
    finally:
        scratch.close()
    return exporter


def _judged_again(record: Record) -> Record:
    """The record with its headers, and its redirect hops' headers, judged by today's rules:
    a record kept before a rule existed may hold a header it would now leave out."""
    chain = tuple(
        {**hop, "headers": safe_headers(hop["headers"].items(),
                                        hop["url"] if isinstance(hop.get("url"), str) else None)}
        if isinstance(hop, dict) and isinstance(hop.get("headers"), dict) else hop
        for hop in record.redirect_chain)
    return record.replace(
        response_headers=safe_headers(record.response_headers.items(),
                                      record.final_url or record.url),
        redirect_chain=chain)


def export_warc(library: Library, path: Path, selection: Selection = EVERYTHING,
                progress: Progress = NO_PROGRESS) -> ExportResult:
    """Write the selected retrievals to ``path`` (gzipped per record when it ends in .gz)."""
    count = _counted(library, selection)
    gzip = path.name.endswith(".gz")
    unreadable: list[str] = []
    with _work_folder(library, _beside(path)) as folder, _output(library, path) as tmp, \
            tmp.open("wb") as out:
        exporter = _write_all(library, out, selection, count, folder, gzip=gzip,
                              filename=path.name, progress=progress, unreadable=unreadable)
        out.flush()
    return ExportResult(path, "warc", exporter.counts.retrievals, exporter.counts.warc_records,
                        exporter.counts.by_kind, exporter.counts.pages, _size(path),
                        exporter.counts.redirects, tuple(unreadable))


def export_wacz(library: Library, path: Path, selection: Selection = EVERYTHING,
                progress: Progress = NO_PROGRESS) -> ExportResult:
    """Write the selected retrievals to a WACZ package at ``path``."""
    count = _counted(library, selection)
    with _work_folder(library, _beside(path)) as folder:
        warc_path, pages_path = folder / "data.warc.gz", folder / "pages.jsonl"
        blocks_path = folder / "index.cdx.gz"
        lines = SortedLines(folder)
        pages = 0
        unreadable: list[str] = []
        with warc_path.open("wb") as out, pages_path.open("w", encoding="utf-8") as page_out:
            sink = write_pages(page_out)

            def on_page(page: Page) -> None:
                nonlocal pages
                pages += 1
                sink(page)

            exporter = _write_all(library, out, selection, count, folder, gzip=True,
                                  filename="data.warc.gz", progress=progress,
                                  unreadable=unreadable, on_page=on_page, on_entry=lines.add)
        with blocks_path.open("wb") as blocks:
            idx = write_paged_index(iter(lines), blocks,
                                    INDEX_BLOCKS_MEMBER.rsplit("/", 1)[-1])
        members = [Member(WARC_MEMBER, warc_path, stored=True),
                   Member(INDEX_BLOCKS_MEMBER, blocks_path, stored=True),
                   Member(INDEX_IDX_MEMBER, idx, stored=False),
                   Member(PAGES_MEMBER, pages_path, stored=False)]
        progress.describe("packing")
        with _output(library, path) as tmp:
            write_wacz(tmp, members, created=utc_now()[:19] + "Z",
                       title=f"readreceipt evidence: {count} retrievals",
                       description=describe_export(count))
    return ExportResult(path, "wacz", exporter.counts.retrievals, exporter.counts.warc_records,
                        exporter.counts.by_kind, pages, _size(path),
                        exporter.counts.redirects, tuple(unreadable))


def _beside(path: Path) -> Path | None:
    """Where the work folder goes: beside the file the export replaces (the same disk), or in
    the system's temporary folder (None) when it is written through to a device or a pipe."""
    target = outputs.plan(path)
    return None if target.through else target.real.parent


@contextlib.contextmanager
def _work_folder(library: Library, beside: Path | None) -> Iterator[Path]:
    """A new folder for the WACZ's parts, noted in the library *before* it is made (a kill
    at any moment leaves nothing ``verify`` cannot find), removed when the block ends."""
    parent = beside if beside is not None else Path(tempfile.gettempdir())
    for _ in range(100):
        folder = parent / f"{WORK_PREFIX}{secrets.token_hex(8)}"
        library.note_scratch(folder)
        try:
            folder.mkdir(mode=0o700)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise UsageError(f"cannot make a work folder in {parent}: {exc.strerror or exc}",
                             reason="io") from exc
    else:
        raise UsageError(f"cannot make a work folder in {parent}: every name tried is taken",
                         reason="io")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _size(path: Path) -> int | None:
    """The size of the file written; None for a device, a pipe or a descriptor."""
    info = path.stat()
    return info.st_size if stat.S_ISREG(info.st_mode) and not outputs.plan(path).through \
        else None
