"""The transport against real local servers: redirects, statuses, deadlines, caps, encodings."""

from __future__ import annotations

import gzip
import resource
import time
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import brotlicffi
import pytest

from conftest import LocalServer, article_html
from readreceipt.errors import RefusedError
from readreceipt.fetching.netguard import AddressGuard
from readreceipt.fetching.transport import FetchOptions, fetch
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

pytestmark = pytest.mark.usefixtures("allow_server")


def _capture(url: str, lib_dir: Path, **kw: object) -> object:
    options = CaptureOptions(now=True, **kw)  # type: ignore[arg-type]
    return capture(url, options, Library.open(lib_dir))


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_each_redirect_code_is_followed_and_recorded(server: LocalServer, library_dir: Path,
                                                     code: int) -> None:
    final = server.route("/final", article_html())
    server.route("/middle", status=code, headers={"Location": "/final"})
    start = server.route("/start", status=code, headers={"Location": server.url("/middle")})
    result = _capture(start, library_dir)
    record = result.record  # type: ignore[attr-defined]
    assert record.final_url == final
    assert [h["status"] for h in record.redirect_chain] == [code, code]
    assert [h["url"] for h in record.redirect_chain] == [start, server.url("/middle")]
    assert record.verdict == "RETRIEVED"


def test_a_hop_keeps_its_headers_but_never_a_secret(server: LocalServer,
                                                   library_dir: Path) -> None:
    secret = "hop-s3cr3t-value"
    final = server.route("/final", article_html())
    start = server.route("/start", status=302, headers={
        "Location": "/final", "Set-Cookie": f"sid={secret}", "X-Auth-Token": secret,
        "Cache-Control": "no-store"})
    lib = Library.open(library_dir)
    record = capture(start, CaptureOptions(now=True), lib).record
    [hop] = record.redirect_chain
    assert hop["headers"]["location"] == "/final"
    assert hop["headers"]["cache-control"] == "no-store"
    assert (hop["peer_address"], hop["http_version"]) == ("127.0.0.1", "HTTP/1.1")
    assert not {"set-cookie", "x-auth-token"} & set(hop["headers"])
    assert record.final_url == final
    assert secret not in lib.record_path(record.record_id).read_text("utf-8")
    # A redirect to a credential-bearing URL is refused; the hop logged keeps no secret either.
    refused = server.route("/to-token", status=302, headers={
        "Location": f"/final?access_token={secret}"})
    with pytest.raises(RefusedError):
        capture(refused, CaptureOptions(now=True), lib)
    skipped = (library_dir / "skipped.jsonl").read_text("utf-8")
    assert "/to-token" in skipped and secret not in skipped


def test_two_location_headers_are_a_protocol_failure(server: LocalServer,
                                                     library_dir: Path) -> None:
    """httpx joined them with ", " and the fetch followed /ok,%20http://... as one path;
    browsers refuse such a response. FAILED protocol, both values in the record."""
    server.route("/ok", article_html())
    elsewhere = server.url("/elsewhere")

    def two(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", "/ok")
        handler.send_header("Location", elsewhere)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    url = server.route("/two", handler=two)
    result = _capture(url, library_dir)
    record = result.record  # type: ignore[attr-defined]
    assert (record.verdict, record.reason) == ("FAILED", "protocol")
    assert "'/ok'" in record.detail and repr(elsewhere) in record.detail
    assert [r["path"] for r in server.requests] == ["/two"]  # neither was followed

    # the same value twice is one place: followed
    def same(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", "/ok")
        handler.send_header("Location", "/ok")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    again = _capture(server.route("/same", handler=same), library_dir)
    assert again.record.verdict == "RETRIEVED"  # type: ignore[attr-defined]


def test_too_many_redirects_is_failed(server: LocalServer, library_dir: Path) -> None:
    for i in range(12):
        server.route(f"/r{i}", status=302, headers={"Location": f"/r{i + 1}"})
    result = _capture(server.url("/r0"), library_dir)
    assert result.record.verdict == "FAILED"  # type: ignore[attr-defined]
    assert result.record.reason == "too_many_redirects"  # type: ignore[attr-defined]
    # 11 requests at most: the 11th Location is never followed.
    assert len(server.requests) == 11


@pytest.mark.parametrize(("status", "code"), [(404, 5), (500, 5), (410, 5)])
def test_error_statuses_are_failed(server: LocalServer, library_dir: Path, status: int,
                                   code: int) -> None:
    url = server.route("/x", "<html><body><p>error page</p></body></html>", status=status)
    result = _capture(url, library_dir)
    assert result.record.verdict == "FAILED"  # type: ignore[attr-defined]
    assert result.record.reason == f"http_{status}"  # type: ignore[attr-defined]
    assert result.exit_code == code  # type: ignore[attr-defined]
    assert result.record.bytes_kept  # the error page itself is evidence  # type: ignore[attr-defined]


def _slow(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    try:
        for _ in range(100):
            handler.wfile.write(b"<p>slow</p>")
            handler.wfile.flush()
            time.sleep(0.2)
    except (BrokenPipeError, ConnectionResetError):
        return


def test_a_slow_server_hits_the_total_deadline(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/slow", handler=_slow)
    started = time.monotonic()
    result = _capture(url, library_dir, timeout=1.0)
    assert result.record.verdict == "FAILED"  # type: ignore[attr-defined]
    assert result.record.reason == "timeout"  # type: ignore[attr-defined]
    assert result.exit_code == 6  # type: ignore[attr-defined]
    # The body trickles forever; only a total deadline ends it (a per-read timeout would not).
    assert time.monotonic() - started < 10


def test_a_silent_server_hits_the_deadline(server: LocalServer, library_dir: Path) -> None:
    def silent(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(3)

    url = server.route("/silent", handler=silent)
    result = _capture(url, library_dir, timeout=0.5)
    assert result.record.reason == "timeout"  # type: ignore[attr-defined]


def _endless(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b"x" * 65536
    try:
        for _ in range(100_000):
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    except (BrokenPipeError, ConnectionResetError):
        return


def test_an_endless_body_is_cut_at_the_cap(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/endless", handler=_endless)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = _capture(url, library_dir, max_bytes=2 * 1024 * 1024)
    record = result.record  # type: ignore[attr-defined]
    assert record.truncated is True
    assert record.bytes == 2 * 1024 * 1024
    assert record.verdict == "UNKNOWN" and record.reason == "truncated"
    assert result.exit_code == 7  # type: ignore[attr-defined]
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 64, f"peak RSS grew {grown_mib:.0f} MiB for a 2 MiB cap"


def test_a_body_exactly_at_the_cap_is_not_truncated(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/exact", b"y" * 4096, headers={"Content-Type": "text/plain"})
    guard = AddressGuard()
    result = fetch(check_url(url), guard, FetchOptions(max_bytes=4096))
    assert result.body == b"y" * 4096 and not result.truncated
    result = fetch(check_url(url), guard, FetchOptions(max_bytes=4095))
    assert len(result.body) == 4095 and result.truncated


def test_gzip_body_is_decoded_and_hashed_decoded(server: LocalServer, library_dir: Path) -> None:
    html = article_html().encode("utf-8")
    url = server.route("/gz", gzip.compress(html), headers={"Content-Encoding": "gzip"})
    record = _capture(url, library_dir).record  # type: ignore[attr-defined]
    lib = Library.open(library_dir)
    assert lib.body(record) == html
    assert record.verdict == "RETRIEVED"


def test_brotli_and_deflate_bodies_are_decoded(server: LocalServer, library_dir: Path) -> None:
    html = article_html().encode("utf-8")
    br = server.route("/br", brotlicffi.compress(html), headers={"Content-Encoding": "br"})
    raw_deflate = zlib.compressobj(wbits=-15)
    deflated = raw_deflate.compress(html) + raw_deflate.flush()
    df = server.route("/df", deflated, headers={"Content-Encoding": "deflate"})
    lib = Library.open(library_dir)
    for url in (br, df):
        record = capture(url, CaptureOptions(now=True), lib).record
        assert lib.body(record) == html


def _encoded(html: bytes, coding: str) -> bytes:
    if coding == "gzip":
        return gzip.compress(html)
    if coding == "deflate":
        return zlib.compress(html)
    return bytes(brotlicffi.compress(html))


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
def test_a_compressed_body_cut_short_is_not_passed_off_as_the_page(
        server: LocalServer, library_dir: Path, coding: str) -> None:
    # The Content-Length is honest for the bytes sent, so only the decoder can tell the
    # stream never reached its end: it was RETRIEVED, truncated false, at 40 % of the page.
    html = article_html().encode("utf-8")
    whole = _encoded(html, coding)
    cut = server.route("/cut", whole[: len(whole) // 2], headers={"Content-Encoding": coding})
    junk = server.route("/junk", whole[:-20] + b"\x00" * 20,
                        headers={"Content-Encoding": coding})
    empty = server.route("/gone", b"", status=404, headers={"Content-Encoding": coding})
    lib = Library.open(library_dir)
    for url in (cut, junk):
        record = capture(url, CaptureOptions(now=True), lib).record
        assert (record.verdict, record.reason) == ("FAILED", "decoding"), url
    record = capture(empty, CaptureOptions(now=True), lib).record  # no stream: its status
    assert (record.verdict, record.reason) == ("FAILED", "http_404")
    whole_url = server.route("/whole", whole, headers={"Content-Encoding": coding})
    assert lib.body(capture(whole_url, CaptureOptions(now=True), lib).record) == html


def test_a_gzip_bomb_stays_within_the_cap(server: LocalServer, library_dir: Path) -> None:
    bomb = gzip.compress(b"\0" * (200 * 1024 * 1024), compresslevel=9)  # ~200 KiB on the wire
    url = server.route("/bomb", bomb, headers={"Content-Encoding": "gzip",
                                              "Content-Type": "text/plain"})
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    record = _capture(url, library_dir, max_bytes=1024 * 1024).record  # type: ignore[attr-defined]
    assert record.truncated and record.bytes == 1024 * 1024
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 64


def test_a_stack_of_content_codings_is_a_failed_record(server: LocalServer,
                                                      library_dir: Path) -> None:
    # Thousands of codings (a 16 KiB header allows ~2,700 "gzip, ") once nested as many
    # decoders and blew the recursion limit: no record, an internal error. curl stops at 5
    # for the same reason (CVE-2022-32206).
    html = article_html().encode("utf-8")
    stacked = server.route("/stacked", html, headers={
        "Content-Encoding": ", ".join(["identity"] + ["gzip"] * 2500)})
    two = gzip.compress(gzip.compress(html))
    twice = server.route("/twice", two, headers={"Content-Encoding": "gzip, gzip"})
    lib = Library.open(library_dir)
    record = capture(stacked, CaptureOptions(now=True), lib).record
    assert (record.verdict, record.reason) == ("FAILED", "decoding")
    assert "content-codings" in record.detail
    assert lib.load(record.record_id).record_id == record.record_id  # one record, kept
    honest = capture(twice, CaptureOptions(now=True), lib).record  # the control: two layers
    assert lib.body(honest) == html


@pytest.mark.parametrize(("declared", "encoding"), [
    ("utf-8", "utf-8"), ("iso-8859-1", "cp1252"), ("windows-1251", "cp1251"), (None, "utf-8"),
])
def test_charsets_declared_and_not(server: LocalServer, library_dir: Path,
                                   declared: str | None, encoding: str) -> None:
    word = {"cp1251": "Привет мир, это страница", "cp1252": "Café crème brûlée à la façon",
            "utf-8": "Grüße aus Köln — naïve café"}[encoding]
    body = f"<html><body><article><p>{word}. {'Filler sentence here. ' * 40}</p></article>" \
           "</body></html>"
    ctype = f"text/html; charset={declared}" if declared else "text/html"
    url = server.route("/cs", body.encode(encoding), headers={"Content-Type": ctype})
    lib = Library.open(library_dir)
    record = capture(url, CaptureOptions(now=True), lib).record
    assert word in (lib.text(record.text_sha256) or "")


def test_meta_charset_is_used_when_the_header_is_silent(server: LocalServer,
                                                        library_dir: Path) -> None:
    body = ('<html><head><meta charset="windows-1252"></head><body><article><p>'
            + "Déjà vu in the café. " * 30 + "</p></article></body></html>")
    url = server.route("/meta", body.encode("cp1252"), headers={"Content-Type": "text/html"})
    lib = Library.open(library_dir)
    record = capture(url, CaptureOptions(now=True), lib).record
    assert record.charset == "cp1252"
    assert "Déjà vu in the café." in (lib.text(record.text_sha256) or "")


def test_json_plain_text_and_pdf_paths(server: LocalServer, library_dir: Path) -> None:
    from pdfs import make_pdf

    lib = Library.open(library_dir)
    good = server.route("/data.json", '{"title": "Tide tables", "rows": [{"note": "high at '
                        'noon"}]}', headers={"Content-Type": "application/json"})
    bad = server.route("/bad.json", '{"title": ', headers={"Content-Type": "application/json"})
    text = server.route("/notes.txt", "Plain notes.\n" * 50,
                        headers={"Content-Type": "text/plain; charset=utf-8"})
    pdf = server.route("/doc.pdf", make_pdf(["The tide was measured at 1.83 metres at noon."]),
                       headers={"Content-Type": "application/pdf"})
    scan = server.route("/scan.pdf", make_pdf([]), headers={"Content-Type": "application/pdf"})

    r = capture(good, CaptureOptions(now=True), lib).record
    assert r.verdict == "RETRIEVED" and "high at noon" in (lib.text(r.text_sha256) or "")
    r = capture(bad, CaptureOptions(now=True), lib).record
    assert (r.verdict, r.reason) == ("UNKNOWN", "invalid_json")
    r = capture(text, CaptureOptions(now=True), lib).record
    assert r.verdict == "RETRIEVED" and r.extractor == "plain"
    r = capture(pdf, CaptureOptions(now=True), lib).record
    assert r.verdict == "RETRIEVED" and r.extractor.startswith("pypdfium2")
    assert "1.83 metres" in (lib.text(r.text_sha256) or "")
    r = capture(scan, CaptureOptions(now=True), lib).record
    assert (r.verdict, r.reason) == ("UNKNOWN", "no_text_layer")


def test_empty_body_is_failed(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/empty", b"")
    record = _capture(url, library_dir).record  # type: ignore[attr-defined]
    assert (record.verdict, record.reason) == ("FAILED", "empty_body")


def test_connection_refused_is_a_failed_record(library_dir: Path, server: LocalServer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", f"127.0.0.1:{port}")
    result = _capture(f"http://127.0.0.1:{port}/", library_dir)
    assert result.record.verdict == "FAILED"  # type: ignore[attr-defined]
    assert result.exit_code == 4  # type: ignore[attr-defined]


def test_record_names_exemption_and_user_agent(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    record = _capture(url, library_dir).record  # type: ignore[attr-defined]
    assert server.pair in (record.policy_exemption or "")
    assert record.user_agent.startswith("readreceipt/")
    assert server.requests[-1]["headers"]["user-agent"] == record.user_agent
    assert record.peer_address == "127.0.0.1"


def test_loopback_without_exemption_is_refused(server: LocalServer, library_dir: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READRECEIPT_ALLOW_HOSTS")
    url = server.route("/a", article_html())
    with pytest.raises(RefusedError):
        _capture(url, library_dir)
    assert server.connections == 0


class _NoSuchName:
    def resolve(self, host: str, port: int) -> list[str]:
        from readreceipt.errors import FetchError

        raise FetchError(f"the name {host} does not resolve", reason="dns")


def test_a_name_that_does_not_resolve_is_a_failed_record(library_dir: Path) -> None:
    # Without --now: no robots.txt can be asked of a host with no address, so the capture
    # is recorded as FAILED (dns), not declined by robots.txt.
    lib = Library.open(library_dir)
    result = capture("https://no-such-name.example/page", CaptureOptions(), lib,
                     resolver=_NoSuchName())
    assert (result.record.verdict, result.record.reason) == ("FAILED", "dns")
    assert result.exit_code == 4
    assert lib.load(result.record.record_id).url == "https://no-such-name.example/page"
