"""The URL policy: one canonical WHATWG parse, refusals by scheme, userinfo, length, name."""

from __future__ import annotations

from pathlib import Path

import pytest

from readreceipt.errors import RefusedError
from readreceipt.fetching.urlpolicy import (
    MAX_URL_CHARS,
    blocked_host_name,
    canonical_host,
    check_url,
)


@pytest.mark.parametrize(("raw", "canonical", "host", "port"), [
    ("HTTP://Example.COM:80/a/../b?x=1#f", "http://example.com/b?x=1#f", "example.com", 80),
    ("https://example.com", "https://example.com/", "example.com", 443),
    ("https://example.com:8443/p", "https://example.com:8443/p", "example.com", 8443),
    ("http://2130706433:81/", "http://127.0.0.1:81/", "127.0.0.1", 81),
    ("http://0x7f.1/", "http://127.0.0.1/", "127.0.0.1", 80),
    ("http://0177.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80),
    ("http://127.1/", "http://127.0.0.1/", "127.0.0.1", 80),
    ("http://127\u30020\u30020\u30021/", "http://127.0.0.1/", "127.0.0.1", 80),
    ("http://\u2460\u2461\u2466.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80),
    ("http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "::ffff:7f00:1", 80),
    ("http://b\u00fccher.example/", "http://xn--bcher-kva.example/", "xn--bcher-kva.example", 80),
    ("http://example.com/a b", "http://example.com/a%20b", "example.com", 80),
])
def test_one_canonical_parse(raw: str, canonical: str, host: str, port: int) -> None:
    policy = check_url(raw)
    assert (policy.url, policy.host, policy.port) == (canonical, host, port)
    assert check_url(policy.url) == policy  # the canonical form is a fixed point


@pytest.mark.parametrize(("raw", "reason"), [
    ("file:///etc/passwd", "scheme"), ("gopher://example.com/_x", "scheme"),
    ("data:text/html,hi", "scheme"), ("ftp://example.com/", "scheme"),
    ("javascript:alert(1)", "scheme"), ("ws://example.com/", "scheme"),
    ("http://user:pw@example.com/", "userinfo"), ("http://user@example.com/", "userinfo"),
    ("http://:pw@example.com/", "userinfo"),
    ("http://127.1.1.1:80\\@evil.example/", "parser_disagreement"),
    ("http:/\\127.0.0.1/", "parser_disagreement"),
    ("http://evil.example\\@127.0.0.1/", "parser_disagreement"),
    ("http://localhost/", "local_host_name"), ("http://localhost./", "local_host_name"),
    ("http://LOCALHOST:8080/", "local_host_name"), ("http://a.b.localhost/", "local_host_name"),
    ("http://printer.local/", "local_host_name"), ("http://db.internal./", "local_host_name"),
    ("http://box.localdomain/", "local_host_name"), ("http://nas.home.arpa/", "local_host_name"),
    ("http://metadata.google.internal/computeMetadata/v1/", "metadata_host"),
    ("http://metadata.google.internal./", "metadata_host"),
    ("http://metadata.goog/", "metadata_host"), ("http://metadata/", "metadata_host"),
    ("http://instance-data/latest/", "metadata_host"),
    ("http://metadata.azure.internal/", "metadata_host"),
    ("http://[fe80::1%25eth0]/", "malformed_url"), ("http://127.0.0.1%00.evil/", "malformed_url"),
    ("not a url", "malformed_url"), ("", "malformed_url"), ("http://example.com:0/",
                                                           "malformed_url"),
    ("http://" + "a" * MAX_URL_CHARS + ".example/", "url_too_long"),
])
def test_refusals(raw: str, reason: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(raw)
    assert info.value.reason == reason
    assert info.value.exit_code == 2


def test_length_limit_is_on_both_the_raw_and_the_canonical_form() -> None:
    base = "http://example.com/"
    check_url(base + "a" * (MAX_URL_CHARS - len(base)))
    # 683 spaces pass as raw text (2,048 chars) but become 2,049+ once percent-encoded.
    with pytest.raises(RefusedError) as info:
        check_url(base + "x" + " " * (MAX_URL_CHARS - len(base) - 2) + "y")
    assert info.value.reason == "url_too_long"


def test_userinfo_never_reaches_the_refusal_url() -> None:
    with pytest.raises(RefusedError) as info:
        check_url("http://alice:hunter2secret@example.com/x")
    assert "hunter2secret" not in (info.value.url or "")
    assert "hunter2secret" not in str(info.value)


def test_blocked_host_names_ignore_trailing_dots_and_case() -> None:
    assert blocked_host_name("Localhost..") == "local_host_name"
    assert blocked_host_name("METADATA.GOOGLE.INTERNAL.") == "metadata_host"
    assert blocked_host_name("localhost.example.com") is None
    assert blocked_host_name("notlocal") is None
    assert blocked_host_name("example.com") is None


def test_canonical_host() -> None:
    assert canonical_host("0x7f.1") == "127.0.0.1"
    assert canonical_host("::FFFF:127.0.0.1") == "::ffff:7f00:1"
    assert canonical_host("bad host") == ""


def test_origin_and_host_port() -> None:
    assert check_url("https://Example.com:443/x").origin == "https://example.com"
    assert check_url("http://[2606:4700::1111]:8080/").origin == "http://[2606:4700::1111]:8080"
    assert check_url("http://example.com:81/").host_port == "example.com:81"


@pytest.mark.parametrize(("raw", "shown"), [
    ("example.org", "example.org"),
    ("www.example.org/docs/a", "www.example.org/docs/a"),
    ("example.org:8080/x", "example.org:8080/x"),  # WHATWG reads "example.org:" as a scheme
    ("example.org/a?token=abc", "example.org/a"),  # never echoes a query
    ("example.org/ghp_" + "a" * 36, "example.org"),  # nor a path shaped like a secret
])
def test_a_url_without_its_scheme_is_echoed_with_a_suggestion(raw: str, shown: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(raw)
    assert str(info.value) == (f"{shown} is not a whole URL (it has no http:// or https://); "
                               f"did you mean https://{shown}?")
    assert info.value.exit_code == 2


def test_the_cli_suggests_the_whole_url(tmp_path: Path) -> None:
    from conftest import run_cli

    out = run_cli("capture", "example.org", library=None,
                  env={"READRECEIPT_LIBRARY": str(tmp_path)})
    assert out.code == 2
    assert out.stderr.strip().splitlines()[-1] == (
        "readreceipt: example.org is not a whole URL (it has no http:// or https://); did you "
        "mean https://example.org?")
