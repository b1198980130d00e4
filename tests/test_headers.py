"""Secret response headers are never written, by name or by value, in records or exports."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import pytest

from conftest import LocalServer, article_html
from readreceipt.export import export_wacz, export_warc
from readreceipt.fetching.headers import has_secret_value, is_secret_header, safe_headers
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from readreceipt.store.records import Record

JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJoZWFkZXJzLXRlc3QifQ."
       "bm90LWEtcmVhbC1zaWduYXR1cmU")


@pytest.mark.parametrize("name", [
    "Set-Cookie", "Set-Cookie2", "Cookie", "Authorization", "Proxy-Authorization",
    "X-Api-Key", "X-Amz-Security-Token", "WWW-Authenticate", "X-CSRF-Token",
    # any name that says token, secret or key
    "X-Auth-Token", "X-Client-Secret", "X-Signing-Key", "Api-Key", "X-Session-Id",
    "Sec-WebSocket-Key", "X-Goog-Api-Key",
])
def test_secret_header_names(name: str) -> None:
    assert is_secret_header(name)
    assert safe_headers([(name, "v")]) == {}


@pytest.mark.parametrize("name", [
    "Content-Type", "Keep-Alive", "Access-Control-Allow-Credentials", "Cache-Control",
    "ETag", "Server", "Location", "Vary",
])
def test_ordinary_header_names(name: str) -> None:
    assert not is_secret_header(name)


def test_secret_values_are_dropped_whatever_the_name() -> None:
    headers = [
        ("X-Debug", f"user={JWT}"),
        ("X-Trace", "AKIAQ7EXAMPLEKEY4TST"),
        ("Link", "<https://cdn.example/a.css?token=abc>; rel=preload"),
        ("Location", "https://example.com/cb?code=abc&state=xyz"),
        ("Refresh", "0; url=https://example.com/?sig=abc"),
        ("Link", "<https://cdn.example/style.css>; rel=preload"),
        ("Content-Type", "text/html"),
    ]
    assert safe_headers(headers) == {
        "link": "<https://cdn.example/style.css>; rel=preload",
        "content-type": "text/html",
    }


def test_repeated_headers_are_joined_and_names_lower_cased() -> None:
    assert safe_headers([("Vary", "Accept"), ("VARY", "Cookie")]) == {"vary": "Accept, Cookie"}


def test_has_secret_value_only_reads_urls_in_url_headers() -> None:
    assert has_secret_value("location", "https://example.com/?token=x")
    assert not has_secret_value("x-note", "see https://example.com/?token=x for details")
    assert has_secret_value("x-note", f"bearer {JWT}")


# -- relative URLs: resolved against the response's URL, then judged --------------------------

BASE = "https://news.example/story/1"


@pytest.mark.parametrize(("name", "value"), [
    ("Content-Location", "/page?api_key=k-123"),
    ("Content-Location", "page?access_token=abc"),
    ("Location", "?code=abc&state=xyz"),
    ("Location", "//cdn.example/file?X-Amz-Signature=abc"),
    ("Location", "/next#access_token=abc"),
    ("Refresh", "0; url=/next?sig=abc"),
    ("Refresh", "5;URL='/login?session=abc'"),
])
def test_a_relative_url_carrying_a_credential_drops_its_header(name: str, value: str) -> None:
    assert has_secret_value(name, value, BASE)
    assert safe_headers([(name, value), ("Content-Type", "text/html")], BASE) == {
        "content-type": "text/html"}


@pytest.mark.parametrize(("name", "value"), [
    ("Content-Location", "/page?lang=en"),
    ("Location", "/story/2"),
    ("Refresh", "30"),
    ("Refresh", "0; url=/story/2?page=3"),
    ("Link", "</style.css>; rel=preload; as=style"),
])
def test_a_relative_url_without_one_is_kept_as_sent(name: str, value: str) -> None:
    assert not has_secret_value(name, value, BASE)
    assert safe_headers([(name, value)], BASE) == {name.lower(): value}


def test_links_carrying_a_credential_are_dropped_and_the_others_kept() -> None:
    value = ('</a.css>; rel=preload; as=style, </b.js?token=abc>; rel=preload; as=script, '
             '<https://cdn.example/c.woff2>; rel=preload; title="fonts, bold", '
             '</d>; rel=alternate; anchor="/e?api_key=k"')
    assert safe_headers([("Link", value)], BASE) == {
        "link": '</a.css>; rel=preload; as=style, <https://cdn.example/c.woff2>; '
                'rel=preload; title="fonts, bold"'}
    only_secret = "</b.js?token=abc>; rel=preload"
    assert safe_headers([("Link", only_secret)], BASE) == {}
    assert safe_headers([("Link", "not a link, <broken")], BASE) == {}


def test_a_relative_url_is_judged_as_written_even_without_a_base() -> None:
    assert has_secret_value("content-location", "/page?api_key=k-123")
    assert not has_secret_value("content-location", "/page?lang=en")


# -- through capture and through export -----------------------------------------------------

API_KEY = "k-9f8e7d6c5b4a"
SECRET_HEADERS_SENT = {
    "Content-Location": f"/page?api_key={API_KEY}",
    "Refresh": f"600; url=/page?session={API_KEY}",
    "Link": f'</style.css>; rel=preload; as=style, </app.js?token={API_KEY}>; rel=preload',
    "X-Served-By": "test",
}


@pytest.fixture
def captured(allow_server: LocalServer, tmp_path: Path) -> tuple[Library, Record]:
    url = allow_server.route("/page", article_html(), headers=SECRET_HEADERS_SENT)
    lib = Library.open(tmp_path / "lib")
    return lib, capture(url, CaptureOptions(now=True, render=False), lib).record


def test_capture_keeps_no_credential_from_a_relative_url(
        captured: tuple[Library, Record]) -> None:
    lib, record = captured
    assert record.response_headers["x-served-by"] == "test"
    assert record.response_headers["link"] == "</style.css>; rel=preload; as=style"
    assert "content-location" not in record.response_headers
    assert "refresh" not in record.response_headers
    assert API_KEY not in lib.record_path(record.record_id).read_text("utf-8")


@pytest.mark.parametrize("kind", ["warc", "wacz"])
def test_export_carries_no_credential_even_from_an_older_record(
        captured: tuple[Library, Record], tmp_path: Path, kind: str) -> None:
    lib, record = captured
    # A record written before the rule existed still holds the header: export judges it again.
    older = record.replace(response_headers={**record.response_headers,
                                             "content-location": f"/page?api_key={API_KEY}"})
    lib.save(older)
    assert API_KEY in lib.record_path(record.record_id).read_text("utf-8")
    path = tmp_path / f"out.{kind}"
    (export_warc if kind == "warc" else export_wacz)(lib, path)
    if kind == "warc":
        raw = path.read_bytes()
    else:
        with zipfile.ZipFile(path) as archive:
            raw = b"".join(gzip.decompress(archive.read(name)) if name.endswith(".gz")
                           else archive.read(name) for name in archive.namelist())
    assert raw.count(b"x-served-by") >= 1  # the headers were exported
    assert API_KEY.encode() not in raw
    assert b"content-location" not in raw.lower()


@pytest.mark.parametrize(("name", "value"), [
    ("Location", "https://user:pass@example.com/next"),
    ("Location", "//user@example.com/next"),
    ("Content-Location", "https://user@example.com/doc"),
    ("Refresh", "0; url=https://u:p@example.com/"),
    ("Link", "<https://user:pass@cdn.example/a.css>; rel=preload"),
])
def test_a_user_name_or_password_in_a_header_url_is_a_credential(name: str, value: str) -> None:
    assert has_secret_value(name, value, "https://example.com/page")
    assert safe_headers([(name, value)], "https://example.com/page") == {}


def test_an_at_sign_outside_the_authority_is_no_user_name() -> None:
    value = "https://example.com/people/@ada?ref=a@b"
    assert not has_secret_value("location", value, "https://example.com/")
    assert not has_secret_value("location", "/people/@ada", "https://example.com/")
