"""The evidence store: layout, verify, forget, migrations, and several processes at once."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from conftest import LocalServer, article_html, run_cli
from library_builder import article, at, put_capture
from readreceipt.errors import LibraryError, RecordNotFound
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from readreceipt.store.records import Record

pytestmark = pytest.mark.usefixtures("allow_server")

RECORD_FIELDS = (
    "record_id", "url", "final_url", "redirect_chain", "fetched_at", "http_status",
    "content_type", "charset", "bytes", "bytes_sha256", "bytes_kept", "truncated",
    "text_sha256", "page_text_sha256", "text_chars", "extractor", "rendering_method",
    "javascript_executed", "browser", "response_headers", "peer_address", "user_agent",
    "verdict", "reason", "wall", "session_id", "agent_id", "prompt", "answer_check", "note",
    "format_version", "http_version", "blocked_requests",
)


def test_layout_and_every_record_field(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/a", article_html(), headers={"Set-Cookie": "sid=abc123secret",
                                                      "X-Served-By": "test"})
    lib = Library.open(library_dir)
    result = capture(url, CaptureOptions(now=True, session_id="s1", prompt="what?"), lib)
    record = result.record
    data = yaml.safe_load(result.record_path.read_text())
    for name in RECORD_FIELDS:
        assert name in data, name
    assert result.record_path == library_dir / "records" / f"{record.record_id}.yaml"
    digest = record.bytes_sha256
    assert (library_dir / "store" / digest[:2] / digest).read_bytes() == \
        article_html().encode()
    for d in (record.text_sha256, record.page_text_sha256):
        assert (library_dir / "text" / d[:2] / d).is_file()
    assert "set-cookie" not in data["response_headers"]
    assert data["response_headers"]["x-served-by"] == "test"
    assert "abc123secret" not in result.record_path.read_text()
    assert data["fetched_at"].endswith("Z")
    assert "not necessarily the bytes any agent read" in data["note"]
    conn = sqlite3.connect(library_dir / "index.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY name")]
    assert names[:3] == ["0001_retrievals", "0002_checks_flags", "0003_pacing"]


def test_same_bytes_twice_share_one_blob_and_make_two_records(server: LocalServer,
                                                              library_dir: Path) -> None:
    url = server.route("/a", article_html())
    lib = Library.open(library_dir)
    first = capture(url, CaptureOptions(now=True), lib).record
    second = capture(url, CaptureOptions(now=True), lib).record
    assert first.record_id != second.record_id
    assert first.bytes_sha256 == second.bytes_sha256
    assert len(list(lib.blobs.digests())) == 1
    assert len(list((library_dir / "records").glob("*.yaml"))) == 2


def test_verify_finds_a_tampered_blob(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    lib = Library.open(library_dir)
    record = capture(url, CaptureOptions(now=True), lib).record
    ok = run_cli("verify", "--json", library=library_dir)
    assert ok.code == 0 and ok.json()["ok"] is True
    assert ok.json()["checked"] == 4  # the bytes, two texts and the record
    blob = library_dir / "store" / record.bytes_sha256[:2] / record.bytes_sha256
    blob.write_bytes(blob.read_bytes().replace(b"212", b"213"))
    bad = run_cli("verify", library=library_dir)
    assert bad.code == 1
    assert record.bytes_sha256 in bad.stdout
    assert "digest_mismatch" in bad.stdout


def test_forget_removes_bytes_and_texts_and_keeps_the_record(server: LocalServer,
                                                             library_dir: Path) -> None:
    url = server.route("/a", article_html())
    other = server.route("/b", article_html().replace("harbour", "river"))
    lib = Library.open(library_dir)
    record = capture(url, CaptureOptions(now=True), lib).record
    keep = capture(other, CaptureOptions(now=True), lib).record
    out = run_cli("forget", url, "--json", library=library_dir)
    assert out.code == 0 and out.json()["forgotten"] == [record.record_id]
    assert not lib.blobs.has(record.bytes_sha256)
    assert lib.text(record.text_sha256) is None
    kept = lib.load(record.record_id)
    assert kept.bytes_kept is False and kept.bytes_sha256 == record.bytes_sha256
    assert lib.blobs.has(keep.bytes_sha256)
    # Forgotten bytes are not a verify problem.
    assert run_cli("verify", library=library_dir).code == 0


def test_forget_keeps_a_blob_another_record_still_uses(server: LocalServer,
                                                       library_dir: Path) -> None:
    url = server.route("/a", article_html())
    lib = Library.open(library_dir)
    first = capture(url, CaptureOptions(now=True), lib).record
    second = capture(url, CaptureOptions(now=True), lib).record
    lib.forget(first.record_id)
    assert lib.blobs.has(second.bytes_sha256)
    assert lib.body(lib.load(second.record_id)) is not None


def _rendered(lib: Library, url: str, static: bytes, dom: str, minutes: float) -> Record:
    """A capture a browser rendered: its DOM as the bytes, the server's own bytes beside."""
    return put_capture(lib, url, article(dom, f"{dom} was rendered from the shell."),
                       at(minutes), javascript_executed=True, rendering_method="chromium-headless",
                       static_bytes_sha256=lib.put_bytes(static))


def test_forget_keeps_the_server_bytes_another_rendered_capture_still_uses(
        library_dir: Path) -> None:
    """The server's own bytes of a rendered page are named only in its record: the same shell
    captured twice (or once without rendering) shares them, and forgetting one capture must
    not take them from the other."""
    shell = b"<!doctype html><html><body><div id='root'></div><script src=app.js></script>"
    lib = Library.open(library_dir)
    first = _rendered(lib, "https://example.org/app", shell, "First", 0)
    second = _rendered(lib, "https://example.org/app", shell, "Second", 30)
    plain = put_capture(lib, "https://example.org/plain", shell, at(40))
    lib.forget(first.record_id)
    lib.forget(plain.record_id)
    assert second.static_bytes_sha256 is not None
    assert lib.blobs.has(second.static_bytes_sha256)
    _, problems = lib.verify()
    assert problems == [], problems
    lib.forget(second.record_id)  # nobody keeps them now: they go
    assert not lib.blobs.has(second.static_bytes_sha256)
    lib.close()


def test_resolve_by_prefix_url_and_unknown(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    lib = Library.open(library_dir)
    record = capture(url, CaptureOptions(now=True), lib).record
    assert lib.resolve(record.record_id[:20])[0].record_id == record.record_id
    assert lib.resolve(url)[0].record_id == record.record_id
    with pytest.raises(RecordNotFound):
        lib.resolve("20991231T000000Z-ffffffff")


def test_a_folder_that_is_not_a_library_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("my notes")
    with pytest.raises(LibraryError, match="not a readreceipt library"):
        Library.open(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(LibraryError):
        Library.open(tmp_path / "file")


def test_records_carry_their_format_version_and_old_ones_read_as_version_1() -> None:
    from readreceipt.store.records import FORMAT_VERSION

    written = yaml.safe_load(Record(record_id="r1", url="https://example.org/").to_yaml())
    assert written["format_version"] == FORMAT_VERSION == 1
    older = {k: v for k, v in written.items() if k not in ("format_version", "http_version",
                                                             "blocked_requests")}
    again = Record.from_yaml(yaml.safe_dump(older))
    assert again.format_version == 1 and again.http_version is None
    assert again.blocked_requests == ()
    newer = Record.from_yaml(yaml.safe_dump({**written, "format_version": 7, "later": 1}))
    assert newer.format_version == 7 and newer.extra == {"later": 1}


def test_record_yaml_round_trips_unknown_fields() -> None:
    record = Record(record_id="r1", url="https://example.org/", extra={"future_field": 3})
    again = Record.from_yaml(record.to_yaml())
    assert again == record


_WORKER = textwrap.dedent("""
    import sys
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library
    lib = Library.open(__import__("pathlib").Path(sys.argv[1]))
    for url in sys.argv[2:]:
        capture(url, CaptureOptions(now=True), lib)
""")


def test_four_processes_capturing_at_once_lose_nothing(server: LocalServer,
                                                       library_dir: Path) -> None:
    urls = []
    for i in range(40):
        urls.append(server.route(f"/p{i}", article_html().replace("harbour", f"harbour {i}")))
    Library.open(library_dir).close()
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, str(library_dir),
                               *urls[i::4]], env={**__import__("os").environ},
                              stderr=subprocess.PIPE)
             for i in range(4)]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    lib = Library.open(library_dir)
    rows = lib.index.retrievals(limit=None)
    assert len(rows) == 40
    assert {r.url for r in rows} == set(urls)
    records = list((library_dir / "records").glob("*.yaml"))
    assert len(records) == 40
    for path in records:
        rec = Record.from_yaml(path.read_text())
        assert lib.body(rec) is not None
    assert lib.verify()[1] == []
    conn = sqlite3.connect(library_dir / "index.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not list(library_dir.rglob(".tmp-*"))


def test_skipped_jsonl_has_a_line_per_refusal(server: LocalServer, library_dir: Path) -> None:
    out = run_cli("capture", "ftp://example.org/file", library=library_dir)
    assert out.code == 2
    lines = [json.loads(x) for x in (library_dir / "skipped.jsonl").read_text().splitlines()]
    assert lines[-1]["rule"] == "scheme" and lines[-1]["kind"] == "refused"


def test_discovery_walks_up_and_stops_at_a_ceiling(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    outer = tmp_path / "outer"
    Library.open(outer / ".readreceipt").close()  # a library above the project
    project = outer / "ceiling" / "project"
    (project / "src").mkdir(parents=True)
    # Without a ceiling between them, the library above is found from below.
    with Library.locate(cwd=project / "src") as found:
        assert found.root == (outer / ".readreceipt").resolve()
    # With the project's parent as a ceiling, it is not: a new library is made here.
    monkeypatch.setenv("READRECEIPT_CEILING_DIRECTORIES",
                       os.pathsep.join([str(outer / "ceiling"), str(tmp_path)]))
    with Library.locate(cwd=project) as made:
        assert made.root == (project / ".readreceipt").resolve()
    # A library at or below the ceiling is still found, and the starting folder always is.
    with Library.locate(cwd=project / "src") as found:
        assert found.root == (project / ".readreceipt").resolve()
    assert not (outer / "ceiling" / ".readreceipt").exists()


def test_a_ceiling_holds_for_the_console_scripts(tmp_path: Path) -> None:
    stray = tmp_path / "stray"
    Library.open(stray / ".readreceipt").close()
    work = stray / "sandbox" / "work"
    work.mkdir(parents=True)
    found = subprocess.run(
        [sys.executable, "-c", "from readreceipt.store import discovery; "
         "print(discovery.find())"], cwd=work, capture_output=True, text=True, check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("READRECEIPT_")})
    assert found.stdout.strip() == str((stray / ".readreceipt").resolve())
    bounded = subprocess.run(
        [sys.executable, "-c", "from readreceipt.store import discovery; "
         "print(discovery.find())"], cwd=work, capture_output=True, text=True, check=True,
        env={**os.environ, "READRECEIPT_CEILING_DIRECTORIES": str(stray / "sandbox")})
    assert bounded.stdout.strip() == "None"


def test_a_damaged_log_line_is_passed_over(library_dir: Path, tmp_path: Path) -> None:
    """A line that is not UTF-8 (a bad sector, a stray write) in a JSONL log used to stop
    every reader of that log: status, export and the viewer failed with an internal error."""
    with Library.open(library_dir) as lib:
        record = put_capture(lib, "https://news.example/a", article("A", "Words " * 50), at(0))
        lib.log("skipped.jsonl", {"url": "https://news.example/x", "rule": "robots"})
        lib.log("answer_checks.jsonl", {"record_id": record.record_id, "outcome": "found"})
    for name in ("skipped.jsonl", "answer_checks.jsonl"):
        with (library_dir / name).open("ab") as log:
            log.write(b'{"record_id": "\xff\xfe"}\n\xff not even json\n')
        with Library.open(library_dir) as lib:
            lib.log(name, {"record_id": record.record_id, "after": "the damage"})
    status = run_cli("status", "--json", library=library_dir)
    assert status.code == 0, status.stderr
    assert status.json()["skipped"] == 2  # the lines before and after the damaged ones
    exported = run_cli("export", "--warc", str(tmp_path / "out.warc"), library=library_dir)
    assert exported.code == 0, exported.stderr
    with Library.open(library_dir) as lib:
        assert [e.get("after") for e in lib.read_log("answer_checks.jsonl")] == [
            None, "the damage"]
