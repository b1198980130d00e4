"""A capture that returned is on disk, in the order that keeps the index honest.

The system calls a capture makes are recorded as it runs (``os.fsync``, ``os.link``,
``os.replace``, and the index row), and the order is checked:
- every file is fsynced under its temp name before it takes its own name;
- every name is made durable (its folder fsynced) before the capture returns;
- every blob and text a record names is on disk under its own name before the record takes
  its name, and the record before its index row;
- a write that fails leaves no record and no row.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import LocalServer, article_html
from readreceipt.errors import LibraryError
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from readreceipt.store.local.sqlite import SQLiteIndex

pytestmark = pytest.mark.usefixtures("allow_server")


class Calls:
    """What a capture asked of the file system and the index, in order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def at(self, kind: str, path: str) -> int:
        return self.events.index((kind, path))

    def last(self, kind: str, path: str) -> int:
        return len(self.events) - 1 - self.events[::-1].index((kind, path))


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    seen = Calls()
    fsync, link, replace = os.fsync, os.link, os.replace
    add = SQLiteIndex.add_retrieval

    def traced_fsync(fd: int) -> None:
        seen.events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        fsync(fd)

    def traced_link(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        link(src, dst, *args, **kwargs)
        seen.events.append(("name", str(dst)))

    def traced_replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        replace(src, dst, *args, **kwargs)
        seen.events.append(("name", str(dst)))

    def traced_add(self: SQLiteIndex, record: Any) -> None:
        seen.events.append(("row", record.record_id))
        add(self, record)

    monkeypatch.setattr(os, "fsync", traced_fsync)
    monkeypatch.setattr(os, "link", traced_link)
    monkeypatch.setattr(os, "replace", traced_replace)
    monkeypatch.setattr(SQLiteIndex, "add_retrieval", traced_add)
    yield seen


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc")
def test_every_name_is_durable_and_in_order(server: LocalServer, library_dir: Path,
                                           calls: Calls) -> None:
    url = server.route("/a", article_html())
    with Library.open(library_dir) as lib:
        calls.events.clear()
        result = capture(url, CaptureOptions(now=True), lib)
    record = result.record
    assert record.bytes_sha256 and record.text_sha256 and record.page_text_sha256
    blobs = [str(library_dir / "store" / record.bytes_sha256[:2] / record.bytes_sha256),
             *(str(library_dir / "text" / d[:2] / d)
               for d in (record.text_sha256, record.page_text_sha256))]
    kept = str(result.record_path)
    row = calls.at("row", record.record_id)
    for path in [*blobs, kept]:
        named = calls.at("name", path)
        # its bytes fsynced (as the temp file, which then takes the name) before the name...
        tmp_synced = [i for i, (kind, p) in enumerate(calls.events[:named])
                      if kind == "fsync" and Path(p).parent == Path(path).parent
                      and Path(p).name.startswith(".tmp-")]
        assert tmp_synced, (path, calls.events)
        # ...and its folder fsynced after the name, before the row
        folder = calls.last("fsync", str(Path(path).parent))
        assert named < folder < row, (path, calls.events)
    # every blob and text durable under its own name before the record takes its name
    for path in blobs:
        assert calls.last("fsync", str(Path(path).parent)) < calls.at("name", kept)


def test_a_text_that_cannot_be_written_leaves_no_record_and_no_row(
        server: LocalServer, library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = server.route("/a", article_html())
    lib = Library.open(library_dir)
    (library_dir / "text").chmod(0o500)
    if os.access(library_dir / "text", os.W_OK):  # root writes anywhere
        from readreceipt.store.local import files

        def full(self: Any, data: bytes) -> str:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(files.FileBlobStore, "put", full)
    try:
        with pytest.raises(LibraryError) as failed:
            capture(url, CaptureOptions(now=True), lib)
    finally:
        (library_dir / "text").chmod(0o755)
    assert failed.value.reason in ("disk_full", "read_only")
    assert list((library_dir / "records").iterdir()) == []
    assert lib.index.summary().retrievals == 0
    lib.close()
