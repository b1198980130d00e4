"""WARC export: what each retrieval becomes, digests, secrets, revisits, filters, the CLI."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

from conftest import BIN, LocalServer, article_html, run_cli
from library_builder import article, at, put_capture, put_failure
from readreceipt.export import Selection, export_warc, parse_since
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.quotes.answerlog import check_held_copy
from readreceipt.store.library import Library
from readreceipt.store.records import Record

PAGE_A = article("Tide tables of the northern estuary",
                 "The northern estuary has two high tides a day, about twelve hours and "
                 "twenty-five minutes apart, and the spring range reaches 6.4 metres.",
                 "Boats moor on the east bank, where the channel keeps its depth at low water.")
PAGE_A2 = PAGE_A.replace(b"6.4 metres", b"6.9 metres")
PAGE_B = article("Ferry timetable changes",
                 "From April the first ferry leaves at 06:40 instead of 07:10, and the last "
                 "crossing on Sundays moves to 21:30.",
                 "Season tickets bought before March stay valid until their printed date.")
SECRET = "s3cr3t-cookie-value"
ANSWER = ('The estuary page says "the spring range reaches 7.5 metres at the mouth" and '
          '"Boats moor on the east bank, where the channel keeps its depth at low water."')


@dataclass
class Evidence:
    lib: Library
    server: LocalServer
    captured: dict[str, Record]
    a1: Record
    a_repeat: Record
    a2: Record
    b: Record
    forgotten: Record
    failure: Record
    truncated: Record


@pytest.fixture
def evidence(tmp_path: Path, allow_server: LocalServer) -> Evidence:
    srv = allow_server
    lib = Library.open(tmp_path / "lib")
    srv.route("/cookie", article_html(), headers={"Set-Cookie": f"sid={SECRET}",
                                                   "X-Served-By": "test"})
    srv.route("/gz", gzip.compress(article_html().encode()), headers={"Content-Encoding": "gzip"})
    srv.route("/moved", b"", status=301, headers={"Location": "/cookie"})
    captured = {}
    for path in ("/cookie", "/gz", "/moved"):
        captured[path] = capture(srv.url(path), CaptureOptions(now=True), lib).record
    a1 = put_capture(lib, "https://news.example/estuary", PAGE_A, at(0))
    a_repeat = put_capture(lib, "https://news.example/estuary", PAGE_A, at(10))
    a2 = put_capture(lib, "https://news.example/estuary", PAGE_A2, at(20))
    b = put_capture(lib, "https://ferry.example/timetable?lang=en", PAGE_B, at(30),
                    session_id="session-b")
    forgotten = put_capture(lib, "https://private.example/note", article(
        "A note to forget", "This page held something its reader asked to forget later, "
        "and readreceipt removed its bytes and texts on request."), at(40))
    lib.forget(forgotten.record_id)
    failure = put_failure(lib, "https://slow.example/", at(50))
    truncated = put_capture(lib, "https://big.example/report", PAGE_B[:200], at(60),
                            truncated=True, verdict="UNKNOWN", reason="truncated")
    check_held_copy(lib, a1, ANSWER, "", "session-a")
    return Evidence(lib, srv, captured, a1, a_repeat, a2, b, lib.load(forgotten.record_id),
                    failure, truncated)


def read_warc(path: Path) -> list[dict[str, Any]]:
    """Every record of a WARC: type, headers, HTTP headers and the raw payload."""
    out = []
    with path.open("rb") as handle:
        for rec in ArchiveIterator(handle, check_digests="raise"):
            out.append({
                "type": rec.rec_type, "version": rec.rec_headers.protocol,
                "headers": dict(rec.rec_headers.headers),
                "http": rec.http_headers, "payload": rec.content_stream().read(),
            })
    return out


def by_record(records: list[dict[str, Any]], record_id: str) -> dict[str, Any]:
    """The metadata document of one readreceipt record."""
    for rec in records:
        if rec["type"] == "metadata":
            doc = json.loads(rec["payload"])
            if doc["record"]["record_id"] == record_id:
                return doc  # type: ignore[no-any-return]
    raise AssertionError(f"no metadata for {record_id}")


def warc_with_id(records: list[dict[str, Any]], warc_id: str) -> dict[str, Any]:
    return next(r for r in records if r["headers"]["WARC-Record-ID"] == warc_id)


@pytest.fixture
def exported(evidence: Evidence, tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "out.warc.gz"
    result = export_warc(evidence.lib, path)
    assert result.retrievals == 10
    return read_warc(path)


def test_every_record_is_warc_1_1_with_sha256_digests(exported: list[dict[str, Any]],
                                                      tmp_path: Path) -> None:
    assert exported[0]["type"] == "warcinfo"
    for rec in exported:
        assert rec["version"] == "WARC/1.1"
        assert rec["headers"]["WARC-Block-Digest"].startswith("sha256:")
        if rec["type"] not in ("warcinfo",):
            assert rec["headers"]["WARC-Payload-Digest"].startswith("sha256:")
    proc = subprocess.run([str(BIN / "warcio"), "check", "-v", str(tmp_path / "out.warc.gz")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "digest pass" in proc.stdout and "fail" not in proc.stdout


def test_response_holds_the_decoded_body_and_no_transfer_headers(
        evidence: Evidence, exported: list[dict[str, Any]]) -> None:
    gz = evidence.captured["/gz"]
    doc = by_record(exported, gz.record_id)
    assert doc["exported_as"] in ("response", "revisit")
    if doc["exported_as"] == "revisit":  # the same bytes as /cookie: find the first response
        first = warc_with_id(exported, warc_with_id(
            exported, doc["warc_record_ids"]["revisit"])["headers"]["WARC-Refers-To"])
    else:
        first = warc_with_id(exported, doc["warc_record_ids"]["response"])
    assert first["payload"] == article_html().encode()
    responses = [r for r in exported if r["type"] in ("response", "revisit")]
    for rec in responses:
        names = {name.lower() for name, _ in rec["http"].headers}
        assert "content-encoding" not in names and "transfer-encoding" not in names
    for rec in (r for r in responses if r["type"] == "response"):
        assert rec["http"].get_header("content-length") == str(len(rec["payload"]))
        assert rec["headers"]["WARC-Payload-Digest"] == (
            "sha256:" + hashlib.sha256(rec["payload"]).hexdigest())


def test_no_secret_header_is_exported(evidence: Evidence, tmp_path: Path) -> None:
    path = tmp_path / "plain.warc"
    export_warc(evidence.lib, path)
    raw = path.read_bytes()
    assert SECRET.encode() not in raw
    assert b"set-cookie" not in raw.lower()
    requests = [r for r in read_warc(path) if r["type"] == "request"]
    assert requests
    for rec in requests:
        names = {name.lower() for name, _ in rec["http"].headers}
        assert names == {"host", "user-agent", "accept", "accept-encoding"}
        assert rec["http"].protocol == "GET"
    cookie = evidence.captured["/cookie"]
    response = next(r for r in read_warc(path) if r["type"] == "response"
                    and r["headers"]["WARC-Target-URI"] == cookie.url)
    assert response["http"].get_header("x-served-by") == "test"


def test_request_rebuilds_the_get_readreceipt_sent(evidence: Evidence,
                                                   exported: list[dict[str, Any]]) -> None:
    doc = by_record(exported, evidence.b.record_id)
    request = warc_with_id(exported, doc["warc_record_ids"]["request"])
    assert request["headers"]["WARC-Concurrent-To"] == doc["warc_record_ids"]["response"]
    http = request["http"]
    first_line = f"{http.protocol} {http.statusline}".strip()
    assert first_line == "GET /timetable?lang=en HTTP/1.1"
    assert http.get_header("host") == "ferry.example"
    assert http.get_header("user-agent") == "readreceipt/test"
    # The address the request went to, as the response names where its answer came from.
    assert request["headers"]["WARC-IP-Address"] == evidence.b.peer_address == "203.0.113.7"
    captured = by_record(exported, evidence.captured["/cookie"].record_id)
    request = warc_with_id(exported, captured["warc_record_ids"]["request"])
    assert request["headers"]["WARC-IP-Address"] == "127.0.0.1"


def test_the_http_version_spoken_is_recorded_and_exported(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    with LocalServer(protocol="HTTP/1.0") as old, Library.open(tmp_path / "lib") as lib:
        monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", old.pair)
        url = old.route("/a", article_html())
        record = capture(url, CaptureOptions(now=True), lib).record
        assert record.http_version == "HTTP/1.0"  # what the server spoke, not a constant
        export_warc(lib, tmp_path / "out.warc")
    records = read_warc(tmp_path / "out.warc")
    doc = by_record(records, record.record_id)
    response = warc_with_id(records, doc["warc_record_ids"]["response"])
    request = warc_with_id(records, doc["warc_record_ids"]["request"])
    assert response["http"].protocol == "HTTP/1.0"
    assert response["http"].statusline.startswith("200")
    assert request["http"].statusline.endswith(" HTTP/1.0")


def test_a_payload_already_written_is_a_revisit(evidence: Evidence,
                                                exported: list[dict[str, Any]]) -> None:
    first = by_record(exported, evidence.a1.record_id)
    repeat = by_record(exported, evidence.a_repeat.record_id)
    changed = by_record(exported, evidence.a2.record_id)
    assert (first["exported_as"], repeat["exported_as"], changed["exported_as"]) == (
        "response", "revisit", "response")
    revisit = warc_with_id(exported, repeat["warc_record_ids"]["revisit"])
    assert revisit["headers"]["WARC-Profile"] == (
        "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
    assert revisit["headers"]["WARC-Refers-To"] == first["warc_record_ids"]["response"]
    assert revisit["headers"]["WARC-Refers-To-Target-URI"] == evidence.a1.url
    assert revisit["headers"]["WARC-Refers-To-Date"] == evidence.a1.fetched_at
    assert revisit["headers"]["WARC-Payload-Digest"] == f"sha256:{evidence.a1.bytes_sha256}"
    assert revisit["payload"] == b""
    assert revisit["headers"]["WARC-Date"] == evidence.a_repeat.fetched_at
    # It keeps the response's headers and leaves the payload out: WARC 1.1, section 6.7.2.
    assert revisit["http"].get_statuscode() == "200"
    assert revisit["headers"]["WARC-Truncated"] == "length"
    assert "WARC-Truncated" not in warc_with_id(
        exported, first["warc_record_ids"]["response"])["headers"]


def test_conversion_records_hold_the_texts_once(evidence: Evidence,
                                                exported: list[dict[str, Any]]) -> None:
    first = by_record(exported, evidence.a1.record_id)
    repeat = by_record(exported, evidence.a_repeat.record_id)
    conversion = warc_with_id(exported, first["warc_record_ids"]["main_text"])
    assert conversion["payload"].decode() == evidence.lib.text(evidence.a1.text_sha256)
    assert conversion["headers"]["WARC-Block-Digest"] == f"sha256:{evidence.a1.text_sha256}"
    assert conversion["headers"]["WARC-Refers-To"] == first["warc_record_ids"]["response"]
    assert repeat["warc_record_ids"]["main_text"] == first["warc_record_ids"]["main_text"]
    digests = [r["headers"]["WARC-Block-Digest"] for r in exported if r["type"] == "conversion"]
    assert len(digests) == len(set(digests))


def test_metadata_carries_the_provenance(evidence: Evidence,
                                         exported: list[dict[str, Any]]) -> None:
    doc = by_record(exported, evidence.a1.record_id)
    record = doc["record"]
    assert record["verdict"] == "RETRIEVED" and record["reason"] == "ok"
    assert record["text_sha256"] == evidence.a1.text_sha256
    assert record["extractor"] == evidence.a1.extractor
    assert "not necessarily the bytes any agent read" in record["note"]
    checks = doc["answer_checks_against_held_copy"]
    assert [c["outcome"] for c in checks] == ["not_found"]
    assert [f["passage"] for f in doc["flags"]] == [
        "the spring range reaches 7.5 metres at the mouth"]
    assert doc["flags"][0]["nearest"]
    moved = by_record(exported, evidence.captured["/moved"].record_id)
    chain = moved["record"]["redirect_chain"]
    assert [hop["status"] for hop in chain] == [301]
    response = warc_with_id(exported, moved["warc_record_ids"].get("response")
                            or moved["warc_record_ids"]["revisit"])
    assert response["headers"]["WARC-Target-URI"] == evidence.server.url("/cookie")


def test_a_redirect_is_archived_as_the_3xx_response_it_was(
        evidence: Evidence, exported: list[dict[str, Any]]) -> None:
    moved = evidence.captured["/moved"]
    [hop] = moved.redirect_chain
    assert hop["url"] == evidence.server.url("/moved") and hop["status"] == 301
    assert hop["headers"]["location"] == "/cookie"  # as the server sent it
    assert (hop["peer_address"], hop["http_version"]) == ("127.0.0.1", "HTTP/1.1")
    doc = by_record(exported, moved.record_id)
    [hop_id] = doc["warc_record_ids"]["redirects"]
    response = warc_with_id(exported, hop_id)
    assert response["type"] == "response"
    assert response["headers"]["WARC-Target-URI"] == evidence.server.url("/moved")
    assert response["headers"]["WARC-IP-Address"] == "127.0.0.1"
    assert response["http"].protocol == "HTTP/1.1"
    assert response["http"].get_statuscode() == "301"
    assert response["http"].get_header("location") == "/cookie"
    assert response["http"].get_header("content-length") == "0"
    assert response["payload"] == b""
    assert "WARC-Truncated" not in response["headers"]  # the server announced no body
    request = next(r for r in exported if r["type"] == "request"
                   and r["headers"]["WARC-Concurrent-To"] == hop_id)
    assert f"{request['http'].protocol} {request['http'].statusline}" == "GET /moved HTTP/1.1"
    assert request["headers"]["WARC-IP-Address"] == "127.0.0.1"
    # The hop comes before the response it led to, as it happened.
    ids = [r["headers"]["WARC-Record-ID"] for r in exported]
    final = doc["warc_record_ids"].get("response") or doc["warc_record_ids"]["revisit"]
    assert ids.index(hop_id) < ids.index(final)


def test_a_record_older_than_hop_headers_still_exports_its_redirects(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    record = put_capture(lib, "https://old.example/a", PAGE_B, at(0),
                         final_url="https://old.example/c",
                         redirect_chain=({"url": "https://old.example/a", "status": 301},
                                         {"url": "https://old.example/b", "status": 302}))
    rendered = put_capture(lib, "https://app.example/", PAGE_A, at(5),
                           final_url="https://app.example/home", javascript_executed=True,
                           redirect_chain=({"url": "https://app.example/", "status": 200},))
    result = export_warc(lib, tmp_path / "old.warc")
    assert result.redirects == 2 and result.pages == 2
    records = read_warc(tmp_path / "old.warc")
    hops = by_record(records, record.record_id)["warc_record_ids"]["redirects"]
    written = [warc_with_id(records, warc_id) for warc_id in hops]
    assert [(r["headers"]["WARC-Target-URI"], r["http"].get_statuscode(),
             r["http"].get_header("location")) for r in written] == [
        ("https://old.example/a", "301", "https://old.example/b"),
        ("https://old.example/b", "302", "https://old.example/c")]
    for hop in written:
        # Nothing but Location was known; the body was never read, so it is marked cut.
        assert [name for name, _ in hop["http"].headers] == ["location", "content-length"]
        assert hop["headers"]["WARC-Truncated"] == "length"
        assert "WARC-IP-Address" not in hop["headers"]
    # A page a browser left by script is no redirect: nothing is written for it.
    assert "redirects" not in by_record(records, rendered.record_id)["warc_record_ids"]


def test_hop_headers_kept_before_a_rule_existed_are_judged_again(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    hop = {"url": "https://old.example/a", "status": 302,
           "headers": {"location": "/b?session=hop-s3cr3t", "x-served-by": "edge-1",
                       "link": "</style.css?token=hop-s3cr3t>; rel=preload"}}
    record = put_capture(lib, "https://old.example/a", PAGE_B, at(0),
                         final_url="https://old.example/b", redirect_chain=(hop,))
    path = tmp_path / "judged.warc"
    export_warc(lib, path)
    assert b"hop-s3cr3t" not in path.read_bytes()  # nor in the metadata's copy of the record
    records = read_warc(path)
    [hop_id] = by_record(records, record.record_id)["warc_record_ids"]["redirects"]
    http = warc_with_id(records, hop_id)["http"]
    assert http.get_header("x-served-by") == "edge-1"
    # The Location the server sent carried a credential: the one written is the next URL.
    assert http.get_header("location") == "https://old.example/b"


def test_a_redirect_that_is_the_final_answer_is_written_once(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    url = "https://secure.example/go"
    record = put_capture(lib, url, b"", at(0), status=301, verdict="FAILED",
                         reason="http_downgrade", headers={"location": "http://plain.example/"},
                         redirect_chain=({"url": url, "status": 301},))
    export_warc(lib, tmp_path / "one.warc")
    records = read_warc(tmp_path / "one.warc")
    ids = by_record(records, record.record_id)["warc_record_ids"]
    assert "redirects" not in ids
    responses = [r for r in records if r["type"] == "response"]
    assert len(responses) == 1
    assert responses[0]["http"].get_header("location") == "http://plain.example/"


def test_a_url_is_written_once_per_capture_even_when_the_chain_loops(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    start, gate = "https://loop.example/a", "https://loop.example/gate"
    record = put_capture(lib, start, PAGE_B, at(0), final_url=start,
                         redirect_chain=({"url": start, "status": 302},
                                         {"url": gate, "status": 302}))
    export_warc(lib, tmp_path / "loop.warc")
    records = read_warc(tmp_path / "loop.warc")
    ids = by_record(records, record.record_id)["warc_record_ids"]
    [hop] = [warc_with_id(records, warc_id) for warc_id in ids["redirects"]]
    assert hop["headers"]["WARC-Target-URI"] == gate
    assert hop["http"].get_header("location") == start
    responses = [r["headers"]["WARC-Target-URI"] for r in records if r["type"] == "response"]
    assert sorted(responses) == [start, gate]  # /a answers once: with the page


def test_forgotten_failed_and_truncated_retrievals(evidence: Evidence,
                                                   exported: list[dict[str, Any]]) -> None:
    forgotten = by_record(exported, evidence.forgotten.record_id)
    assert forgotten["exported_as"] == "not_kept"
    assert forgotten["warc_record_ids"] == {}
    assert not [r for r in exported if r["type"] != "metadata"
                and r["headers"].get("WARC-Target-URI") == evidence.forgotten.url]
    assert b"removed its bytes" not in b"".join(r["payload"] for r in exported)
    failure = by_record(exported, evidence.failure.record_id)
    assert failure["exported_as"] == "no_response"
    assert failure["record"]["reason"] == "timeout"
    truncated = by_record(exported, evidence.truncated.record_id)
    response = warc_with_id(exported, truncated["warc_record_ids"]["response"])
    assert response["headers"]["WARC-Truncated"] == "length"
    assert response["payload"] == PAGE_B[:200]


def test_same_evidence_exports_to_the_same_records(evidence: Evidence, tmp_path: Path) -> None:
    first, second = tmp_path / "1.warc", tmp_path / "2.warc"
    export_warc(evidence.lib, first)
    export_warc(evidence.lib, second)
    strip = [r for r in read_warc(first) if r["type"] != "warcinfo"]
    again = [r for r in read_warc(second) if r["type"] != "warcinfo"]
    assert [r["headers"] for r in strip] == [r["headers"] for r in again]


def test_selection_by_url_since_and_session(evidence: Evidence, tmp_path: Path) -> None:
    def ids(selection: Selection) -> set[str]:
        path = tmp_path / "sel.warc"
        export_warc(evidence.lib, path, selection)
        return {json.loads(r["payload"])["record"]["record_id"]
                for r in read_warc(path) if r["type"] == "metadata"}

    a_ids = {evidence.a1.record_id, evidence.a_repeat.record_id, evidence.a2.record_id}
    assert ids(Selection(url_pattern="news.example/estuary")) == a_ids
    assert ids(Selection(url_pattern="https://*.example/time*?lang=en")) == {
        evidence.b.record_id}
    assert ids(Selection(session_id="session-b")) == {evidence.b.record_id}
    later = ids(Selection(since=parse_since("2026-03-01T09:25")))
    assert evidence.b.record_id in later and evidence.a2.record_id not in later
    assert ids(Selection(url_pattern="estuary", since=parse_since("2026-03-01T09:05Z"))) == {
        evidence.a_repeat.record_id, evidence.a2.record_id}


def test_a_revisit_never_points_outside_the_selection(evidence: Evidence,
                                                      tmp_path: Path) -> None:
    path = tmp_path / "later.warc"
    export_warc(evidence.lib, path, Selection(since=parse_since("2026-03-01T09:05")))
    records = read_warc(path)
    repeat = by_record(records, evidence.a_repeat.record_id)
    assert repeat["exported_as"] == "response"


def test_cli_export_json_and_filters(evidence: Evidence, tmp_path: Path) -> None:
    out = tmp_path / "cli.warc.gz"
    result = run_cli("export", "--warc", str(out), "--url", "estuary", "--json",
                     library=evidence.lib.root)
    assert result.code == 0, result.stderr
    data = result.json()
    assert data["retrievals"] == 3 and data["exported_as"] == {"response": 2, "revisit": 1}
    assert Path(data["path"]) == out and out.stat().st_size == data["bytes"]
    assert result.stderr == ""
    none = run_cli("export", "--warc", str(tmp_path / "none.warc"), "--session", "nobody",
                   library=evidence.lib.root)
    assert none.code == 1 and "no retrievals match" in none.stderr
    assert not (tmp_path / "none.warc").exists()
    assert not list(tmp_path.glob(".*part"))
    bad = run_cli("export", "--warc", str(tmp_path / "x.warc"), "--since", "last week",
                  library=evidence.lib.root)
    assert bad.code == 1 and "--since" in bad.stderr
    for edge in ("0001-01-01T00:00+01:00", "9999-12-31T23:00-05:00"):  # off the calendar
        off = run_cli("export", "--warc", str(tmp_path / "x.warc"), "--since", edge,
                      library=evidence.lib.root)
        assert off.code == 1 and off.stderr.startswith("readreceipt: --since "), off.stderr
        assert "internal error" not in off.stderr
    neither = run_cli("export", library=evidence.lib.root)
    assert neither.code == 1 and "--warc" in neither.stderr


def test_a_rendered_page_is_a_resource_not_a_response(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    rendered = put_capture(lib, "https://app.example/", PAGE_B, at(0), javascript_executed=True,
                           rendering_method="chromium", browser="chromium 130")
    path = tmp_path / "rendered.warc"
    result = export_warc(lib, path)
    assert result.by_kind == {"resource": 1}
    records = read_warc(path)
    doc = by_record(records, rendered.record_id)
    resource = warc_with_id(records, doc["warc_record_ids"]["resource"])
    assert resource["type"] == "resource" and resource["payload"] == PAGE_B
    assert resource["headers"]["Content-Type"] == "text/html"
    assert not [r for r in records if r["type"] in ("response", "request")]
