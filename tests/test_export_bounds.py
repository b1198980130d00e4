"""What an export holds follows its bounds, not the number of records (issue 23, goal 5).

Memory is measured by ``bench/library_scale.py``; these tests check the behaviour that keeps
it flat, on both back ends:

- the index hands the selected rows a page at a time (``oldest_first``: never more than one
  page of rows per question, however many rows match);
- the records are taken from the ids no more than the read-ahead window before the caller
  has them (:data:`readreceipt.store.readahead.WINDOW`), by no more than
  :data:`~readreceipt.store.readahead.THREADS` threads;
- a team export opens no object-store client and no index connection per record: the one
  client made when the library opened serves every read, and the index's pool stays within
  its size.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from library_builder import article, at, put_capture
from readreceipt.errors import ReadReceiptError
from readreceipt.export import export_wacz
from readreceipt.store import readahead
from readreceipt.store.library import Library


@pytest.fixture
def lib(either_library: Library) -> Library:
    return either_library


def _fill(lib: Library, count: int) -> list[str]:
    return [put_capture(lib, f"https://example.org/{n}", article(f"Item {n}", f"Text {n}."),
                        at(n)).record_id for n in range(count)]


def test_the_index_hands_rows_a_page_at_a_time(lib: Library,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _fill(lib, 23)
    answers: list[int] = []
    ask = lib.index._ask  # type: ignore[attr-defined]

    def counted(sql: str, params: Sequence[Any] = ()) -> list[Any]:
        rows: list[Any] = ask(sql, params)
        answers.append(len(rows))
        return rows

    monkeypatch.setattr(lib.index, "_ask", counted)
    assert [r.record_id for r in lib.index.oldest_first(batch=5)] == ids
    assert answers == [5, 5, 5, 5, 3]


def test_records_are_read_no_more_than_a_window_ahead(lib: Library,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _fill(lib, 30)
    monkeypatch.setattr(readahead, "WINDOW", 4)
    monkeypatch.setattr(readahead, "THREADS", 2)
    taken = 0
    readers: set[str] = set()
    load = lib.load

    def counting_ids() -> Iterator[str]:
        nonlocal taken
        for record_id in ids:
            taken += 1
            yield record_id

    def watched_load(record_id: str) -> Any:
        readers.add(threading.current_thread().name)
        return load(record_id)

    monkeypatch.setattr(lib, "load", watched_load)
    handed = 0
    for record_id, record in lib.records_ahead(counting_ids()):
        handed += 1
        assert not isinstance(record, ReadReceiptError) and record.record_id == record_id
        # the one handed out, and at most a window behind it still to come
        assert taken - handed <= readahead.WINDOW
    assert handed == taken == 30
    if lib.team is not None:
        assert len(readers) <= readahead.THREADS
        assert all(name.startswith("readreceipt-read-ahead") for name in readers)


def test_a_team_export_opens_no_client_or_connection_per_record(
        lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if lib.team is None:
        pytest.skip("the local library has no client to open")
    import obstore.store

    from readreceipt.store.team.objects import ObjectBlobStore, ObjectRecordStore

    _fill(lib, 40)
    made: list[object] = []
    real = obstore.store.S3Store

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(obstore.store, "S3Store", counted)
    result = export_wacz(lib, tmp_path / "out.wacz")
    assert result.retrievals == 40 and not result.damaged
    assert made == []  # every read went through the client the library opened with
    assert isinstance(lib.blobs, ObjectBlobStore) and isinstance(lib.texts, ObjectBlobStore)
    assert isinstance(lib.records, ObjectRecordStore)
    assert lib.blobs.bucket is lib.texts.bucket is lib.records.bucket
    stats = lib.index._pool.get_stats()  # type: ignore[attr-defined]
    assert stats["pool_size"] <= stats["pool_max"]
