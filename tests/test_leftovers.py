"""What ``kill -9`` and damaged files leave, found by ``verify`` and borne by the readers
(issue 11, item 10).

A real export is killed with SIGKILL in the middle of its work; its leftovers are reported by
``verify`` once old enough (never while a writer may still be at them) and removed by
``verify --repair``. A record file made unreadable and a text blob deleted are problems
``verify`` names; ``export``, ``show``, ``check``, ``log`` and the viewer skip the damaged
record with a warning instead of failing whole.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import BIN, clean_env, run_cli
from library_builder import article, at, put_capture
from readreceipt.store.library import Library
from readreceipt.store.records import Record

HOURS_AGO = time.time() - 2 * 3600


def _age(path: Path, when: float = HOURS_AGO) -> None:
    """Make ``path`` (and all inside it) look untouched since ``when``."""
    targets = [path, *path.rglob("*")] if path.is_dir() else [path]
    for item in targets:
        os.utime(item, (when, when), follow_symlinks=False)


def _problems(library: Path, *extra: str) -> tuple[int, list[dict[str, object]]]:
    out = run_cli("verify", "--json", *extra, library=library)
    return out.code, out.json()["problems"]


@pytest.fixture
def big_library(tmp_path: Path) -> Path:
    """About 48 MB of kept bytes: an export of it takes long enough to be caught mid-way."""
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        for i in range(24):
            put_capture(lib, f"https://files.example/{i}", os.urandom(2 * 1024 * 1024), at(i),
                        content_type="application/octet-stream")
    return root


def _kill_mid_export(library: Path, args: list[str], leftover: Path) -> None:
    """Start ``readreceipt export ARGS`` and SIGKILL it once ``leftover`` (a glob) exists."""
    proc = subprocess.Popen([str(BIN / "readreceipt"), "--library", str(library), "export",
                             *args], env=clean_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if list(leftover.parent.glob(leftover.name)):
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the export finished before it could be killed"


def test_a_killed_wacz_export_is_found_and_repaired(big_library: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    _kill_mid_export(big_library, ["--wacz", str(out_dir / "evidence.wacz")],
                     out_dir / ".readreceipt-wacz-*")
    left = sorted(out_dir.iterdir())
    assert left, "nothing was left behind"
    # Fresh: a writer might still be at them, so verify leaves them alone.
    code, problems = _problems(big_library)
    assert (code, problems) == (0, [])
    for path in left:
        _age(path)
    code, problems = _problems(big_library)
    assert code == 1
    assert {p["kind"] for p in problems} == {"leftover"}
    assert all(any(str(path) in str(p["detail"]) for p in problems) for path in left)
    repaired = run_cli("verify", "--repair", library=big_library)
    assert repaired.code == 0, repaired.stdout + repaired.stderr
    assert all(f"removed {path}" in repaired.stdout for path in left)
    assert not any(out_dir.iterdir())
    assert _problems(big_library) == (0, [])


def test_a_killed_warc_export_leaves_a_part_that_is_found(big_library: Path,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "evidence.warc.gz"
    _kill_mid_export(big_library, ["--warc", str(target)], tmp_path / ".evidence.warc.gz.*.part")
    [part] = list(tmp_path.glob(".evidence.warc.gz.*.part"))
    _age(part)
    code, problems = _problems(big_library)
    assert code == 1 and [p["kind"] for p in problems] == ["leftover"]
    assert _problems(big_library, "--repair")[0] == 0
    assert not part.exists() and not target.exists()


@pytest.mark.parametrize("fmt", ["--warc", "--wacz"])
def test_an_export_notes_each_temporary_path_before_making_it(
        fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Noted after it is made, a kill between the two leaves a leftover no note names, which
    verify never finds (the killed-export tests above then fail now and then)."""
    from readreceipt.export import export_wacz, export_warc

    root = tmp_path / "lib"
    seen: list[tuple[Path, bool]] = []
    with Library.open(root) as lib:
        put_capture(lib, "https://news.example/a", article("A", "Words " * 50), at(0))
        noting = lib.note_scratch

        def note(path: Path) -> None:
            seen.append((path, path.exists()))
            noting(path)

        monkeypatch.setattr(lib, "note_scratch", note)
        export = export_warc if fmt == "--warc" else export_wacz
        export(lib, tmp_path / f"out.{fmt[2:]}")
    assert seen, "nothing was noted"
    assert [existed for _, existed in seen] == [False] * len(seen), seen
    assert not any(path.exists() for path, _ in seen)  # and nothing is left after it


def test_temporary_files_inside_the_library(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        record = put_capture(lib, "https://news.example/a", article("A", "Words " * 50), at(0))
    assert record.bytes_sha256
    shard = root / "store" / record.bytes_sha256[:2]
    old = shard / ".tmp-0123456789abcdef"  # the shape store/atomic.py gives its temp files
    old.write_bytes(b"half a blob")
    _age(old)
    young = root / "records" / ".tmp-fedcba9876543210"
    young.write_bytes(b"a record being written right now")
    not_ours = shard / ".tmp-notthesameshape"
    not_ours.write_bytes(b"x")
    _age(not_ours)
    code, problems = _problems(root)
    assert code == 1 and [str(old) in str(p["detail"]) for p in problems] == [True]
    assert _problems(root, "--repair")[0] == 0
    assert not old.exists() and young.exists() and not_ours.exists()


def test_repair_never_reaches_outside_the_library_through_a_link(tmp_path: Path) -> None:
    # A library named outright may have a folder that is a link (found ones are passed
    # over); --repair followed it and removed what matched the temp-file shape out there.
    root = tmp_path / "lib"
    Library.open(root).close()
    elsewhere = tmp_path / "another-library-store" / "ab"
    elsewhere.mkdir(parents=True)
    theirs = elsewhere / ".tmp-0123456789abcdef"  # another writer's, in its own folder
    theirs.write_bytes(b"someone else's write")
    _age(theirs)
    (root / "text").rmdir()
    (root / "text").symlink_to(elsewhere.parent, target_is_directory=True)
    mine = root / "store" / "cd" / ".tmp-fedcba9876543210"  # the control: the library's own
    mine.parent.mkdir()
    mine.write_bytes(b"half a blob")
    _age(mine)
    assert _problems(root, "--repair")[0] == 0
    assert theirs.exists() and not mine.exists()


# ------------------------------------------------------------------- damaged evidence


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, Record, Record, Record]:
    """Three captures of one URL; the newest record's YAML broken, another's text deleted."""
    root = tmp_path / "lib"
    url = "https://news.example/estuary"
    with Library.open(root) as lib:
        oldest = put_capture(lib, url, article("Estuary", "The spring range reaches 6.4 "
                                               "metres at the mouth of the estuary."), at(0))
        middle = put_capture(lib, url, article("Estuary", "The spring range reaches 6.9 "
                                               "metres at the mouth of the estuary."), at(10))
        newest = put_capture(lib, url, article("Estuary", "The spring range reaches 7.2 "
                                               "metres at the mouth of the estuary."), at(20))
    (root / "records" / f"{newest.record_id}.yaml").write_text("record_id: [unclosed\nurl: {")
    assert oldest.text_sha256
    (root / "text" / oldest.text_sha256[:2] / oldest.text_sha256).unlink()
    return root, oldest, middle, newest


def test_verify_names_an_unreadable_record_and_a_missing_text(
        damaged: tuple[Path, Record, Record, Record]) -> None:
    root, oldest, _, newest = damaged
    code, problems = _problems(root)
    assert code == 1
    kinds = {(p["kind"], p["record_id"]) for p in problems}
    assert ("unreadable_record", newest.record_id) in kinds
    assert ("missing_text", oldest.record_id) in kinds


def test_verify_calls_no_object_of_a_damaged_record_an_orphan(
        damaged: tuple[Path, Record, Record, Record]) -> None:
    """An orphan is an object nothing names, safe to index or remove; the bytes and texts of
    a record that cannot be read are still named by its index row, and are its evidence."""
    root, _, _, newest = damaged
    _, problems = _problems(root)
    orphans = {str(p["digest"]) for p in problems if str(p["kind"]).startswith("orphan_")}
    assert newest.bytes_sha256 and newest.text_sha256 and newest.page_text_sha256
    assert orphans.isdisjoint({newest.bytes_sha256, newest.text_sha256,
                               newest.page_text_sha256}), problems


def test_readers_skip_a_damaged_record(damaged: tuple[Path, Record, Record, Record],
                                       tmp_path: Path) -> None:
    root, _, middle, newest = damaged
    exported = run_cli("export", "--warc", str(tmp_path / "out.warc"), "--json", library=root)
    # The rest is exported, and the command says (exit 1) that one record was not.
    assert exported.code == 1, exported.stderr
    assert exported.json()["retrievals"] == 2 and newest.record_id in exported.stderr
    assert exported.json()["unreadable"] == [newest.record_id]
    shown = run_cli("show", "https://news.example/estuary", "--json", library=root)
    assert shown.code == 0, shown.stderr
    assert shown.json()["record_id"] == middle.record_id
    assert "skipping an unreadable record" in shown.stderr
    answer = tmp_path / "answer.txt"
    answer.write_text('It says "The spring range reaches 6.9 metres at the mouth".')
    checked = run_cli("check", "https://news.example/estuary", "--answer", str(answer),
                      "--json", library=root)
    assert checked.code == 0 and checked.json()["record_id"] == middle.record_id
    log = run_cli("log", "--json", library=root)
    assert log.code == 0 and len(log.json()["retrievals"]) == 3
    broken = run_cli("show", newest.record_id, library=root)
    assert broken.code == 1 and len(broken.stderr.strip().splitlines()) == 1
    assert "cannot be read" in broken.stderr


def test_the_viewer_lists_around_a_damaged_record(
        damaged: tuple[Path, Record, Record, Record]) -> None:
    from readreceipt.viewer import make_viewer_server

    root, _, middle, newest = damaged
    with Library.open(root) as lib:
        server, _ = make_viewer_server(lib, 0)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with urllib.request.urlopen(base + "/", timeout=10) as listing:
                assert listing.status == 200
                assert newest.record_id.encode() in listing.read()
            with urllib.request.urlopen(f"{base}/record/{middle.record_id}",
                                        timeout=10) as page:
                assert page.status == 200
            with urllib.request.urlopen(
                    f"{base}/history?url=https://news.example/estuary", timeout=10) as hist:
                assert hist.status == 200
            # The damaged record's own page says so, with the usual headers (not a bare 500).
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(f"{base}/record/{newest.record_id}", timeout=10)
            assert "default-src 'none'" in caught.value.headers["Content-Security-Policy"]
            assert b"cannot be read" in caught.value.read()
        finally:
            server.shutdown()
            server.server_close()
