"""An export reads a team library's records a few ahead (store/readahead.py), and what it
writes is what reading them one at a time wrote.

- ``records_ahead`` gives every record in the order of the ids, a damaged or missing one as
  its error in its place, on both back ends;
- on the team library the texts come with the record: ``text`` answers them with the object
  store gone, and reads any other text from the store as ever;
- a reader that stops early leaves no thread reading;
- the WARC an export writes holds the same records, in the same order, with the same
  payloads, as with one read at a time (the window and the threads at 1).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

from library_builder import article, at, put_capture
from readreceipt.errors import ReadReceiptError
from readreceipt.export import export_warc
from readreceipt.store import readahead
from readreceipt.store.library import Library


@pytest.fixture
def lib(either_library: Library) -> Library:
    return either_library


def _fill(lib: Library, count: int) -> list[str]:
    ids = []
    for n in range(count):
        k = n % 10  # every tenth page the same bytes again: a revisit in an export
        body = article(f"Item {k}", f"The text of item {k}, in a sentence or two.",
                       "It repeats on every other page." if k % 2 else f"Its own {k}.")
        ids.append(put_capture(lib, f"https://example.org/{n % 7}", body, at(n)).record_id)
    return ids


def test_every_record_in_order_and_a_damaged_one_in_its_place(lib: Library) -> None:
    ids = _fill(lib, 40)
    lib.records.put(ids[5], b"format_version: [not a record")
    asked = [*ids[:20], "20260301T090000Z-00000000", *ids[20:]]  # one the store lacks
    got = list(lib.records_ahead(asked))
    assert [record_id for record_id, _ in got] == asked
    for record_id, record in got:
        if record_id in (ids[5], asked[20]):
            assert isinstance(record, ReadReceiptError), record_id
        else:
            assert not isinstance(record, ReadReceiptError) and record.record_id == record_id


def test_a_team_record_s_texts_come_with_it(lib: Library) -> None:
    if lib.team is None:
        pytest.skip("the local library reads as asked")
    ids = _fill(lib, 3)
    other = lib.load(ids[0]).text_sha256
    store, seen = lib.texts, []
    for _, record in lib.records_ahead(ids[1:]):
        assert not isinstance(record, ReadReceiptError)

        class Gone:
            def get(self, digest: str) -> bytes:
                seen.append(digest)
                raise KeyError(digest)

        lib.texts = Gone()  # type: ignore[assignment]
        try:
            assert lib.text(record.text_sha256)  # held, read with the record
            assert lib.text(other) is None  # any other text is asked of the store
        finally:
            lib.texts = store
    assert seen == [other, other]


def test_a_reader_that_stops_early_leaves_no_thread_reading(lib: Library) -> None:
    ids = _fill(lib, 30)
    taken = []
    for record_id, _ in lib.records_ahead(ids):
        taken.append(record_id)
        if len(taken) == 3:
            break
    assert taken == ids[:3]
    assert not [t for t in threading.enumerate() if t.name.startswith("readreceipt-read-ahead")]


def _warc_records(path: Path) -> list[tuple[str, str, str]]:
    """(type, target URI, payload digest) of every WARC record but the warcinfo, in order."""
    with path.open("rb") as handle:
        return [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI") or "",
                 r.rec_headers.get_header("WARC-Payload-Digest") or "")
                for r in ArchiveIterator(handle) if r.rec_type != "warcinfo"]


def test_the_export_is_what_one_read_at_a_time_wrote(lib: Library, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(lib, 25)
    ahead = export_warc(lib, tmp_path / "ahead.warc.gz")
    monkeypatch.setattr(readahead, "WINDOW", 1)
    monkeypatch.setattr(readahead, "THREADS", 1)
    one: Any = export_warc(lib, tmp_path / "one.warc.gz")
    assert ahead.retrievals == one.retrievals == 25
    assert ahead.by_kind == one.by_kind and ahead.by_kind.get("revisit")
    assert _warc_records(tmp_path / "ahead.warc.gz") == _warc_records(tmp_path / "one.warc.gz")
    assert len(_warc_records(tmp_path / "one.warc.gz")) >= 25 * 3
