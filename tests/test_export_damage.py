"""``export`` from a damaged library: the rest is exported, and the command says what was not."""

from __future__ import annotations

from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from conftest import run_cli
from library_builder import article, at, put_capture
from readreceipt.store.library import Library

PAGE = article("Tide tables of the northern estuary",
               "The northern estuary has two high tides a day, about twelve hours and "
               "twenty-five minutes apart, and the spring range reaches 6.4 metres.")
OTHER = article("Ferry timetable changes",
                "From April the first ferry leaves at 06:40 instead of 07:10, and the last "
                "crossing on Sundays moves to 21:30.")


def _exported_ids(path: Path) -> set[str]:
    ids = set()
    with path.open("rb") as handle:
        for rec in ArchiveIterator(handle):
            if rec.rec_type == "metadata":
                ids.add(rec.rec_headers.get_header("WARC-Target-URI"))
    return ids


def test_export_from_a_tampered_library_exits_1_after_exporting_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        broken = put_capture(lib, "https://news.example/estuary", PAGE, at(0))
        kept = put_capture(lib, "https://ferry.example/timetable", OTHER, at(10))
    (root / "records" / f"{broken.record_id}.yaml").write_text("record_id: [unclosed\n")
    out = run_cli("export", "--warc", str(tmp_path / "out.warc"), "--json", library=root)
    assert out.code == 1, out.stderr
    data = out.json()
    assert data["unreadable"] == [broken.record_id] and data["retrievals"] == 1
    assert _exported_ids(tmp_path / "out.warc") == {kept.url}
    line = out.stderr.strip().splitlines()[-1]
    assert "1 selected record could not be read and was left out" in line
    assert broken.record_id in line and "readreceipt verify" in line


def test_bytes_that_no_longer_match_their_digest_are_a_damaged_export(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        record = put_capture(lib, "https://news.example/estuary", PAGE, at(0))
    digest = str(record.bytes_sha256)
    (root / "store" / digest[:2] / digest).write_bytes(b"not what was received")
    out = run_cli("export", "--wacz", str(tmp_path / "out.wacz"), library=root)
    assert out.code == 1
    assert (tmp_path / "out.wacz").is_file()
    assert "the bytes of 1 retrieval are gone or no longer match" in out.stderr


def test_an_intact_library_exports_with_exit_0(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        put_capture(lib, "https://news.example/estuary", PAGE, at(0))
    out = run_cli("export", "--warc", str(tmp_path / "out.warc"), "--json", library=root)
    assert out.code == 0 and out.json()["unreadable"] == []
