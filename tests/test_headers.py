"""Secret response headers are never written, by name or by value."""

from __future__ import annotations

import pytest

from readreceipt.fetching.headers import has_secret_value, is_secret_header, safe_headers

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


@pytest.mark.parametrize(("name", "value"), [
    ("Location", "/next?access_token=abc"),
    ("Location", "next.html#id_token=abc"),
    ("Location", "https://user:pass@example.com/"),
    ("Location", "//user@example.com/"),
    ("Content-Location", "/doc?X-Amz-Signature=abc"),
    ("Link", "</a.css?token=abc>; rel=preload"),
    ("Refresh", "0; url=/cb?code=abc"),
    ("Refresh", "5;URL='/cb?state=xyz'"),
])
def test_relative_references_and_user_names_in_url_headers_are_dropped(name: str,
                                                                      value: str) -> None:
    assert has_secret_value(name, value)
    assert safe_headers([(name, value)]) == {}


@pytest.mark.parametrize(("name", "value"), [
    ("Location", "/next?page=2"),
    ("Location", "https://example.com/a@b"),  # an @ in the path is no user name
    ("Link", "</style.css>; rel=preload"),
    ("Refresh", "0; url=/home"),
])
def test_plain_url_references_are_kept(name: str, value: str) -> None:
    assert not has_secret_value(name, value)
