"""Credentials in URLs are refused (not redacted), and no secret ever reaches the library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import LocalServer, article_html, run_cli
from readreceipt.errors import RefusedError
from readreceipt.fetching.credentials import find_credential, loggable_url, name_rule, secret_shape
from readreceipt.fetching.urlpolicy import check_url

# Fake secrets in the vendors' documented shapes; each is unique so a grep finds it.
AWS_KEY = "AKIAQ7EXAMPLEKEY4TST"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJyZWFkcmVjZWlwdC10ZXN0In0."
       "c2lnbmF0dXJlLW5vdC1yZWFsLXRlc3Q")
SLACK = "xoxb-1234567890-0987654321-FakeSlackTokenForTests"
STRIPE = "sk_live_FakeStripeKeyForTests0123"
GITHUB = "ghp_FakeGithubTokenForReadreceiptTests0123"

NAMES = [
    "token", "TOKEN", "access_token", "Access-Token", "access.token", "id_token",
    "refresh_token", "code", "state", "key", "apikey", "api_key", "API-Key", "secret",
    "client_secret", "password", "passwd", "pwd", "pass", "sig", "signature", "auth",
    "session", "sessionid", "sid", "jsessionid", "JSESSIONID", "phpsessid", "credential",
    "credentials", "assertion", "otp", "ticket", "jwt",
    # names containing a listed part
    "my_token_2", "csrftoken", "x-secret-value", "oldPassword", "userApiKey", "gcp_credential",
    "RequestSignature",
]

PRESIGNED = [
    "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Credential=abc%2F20250101",
    "X-Amz-Date=20250101T000000Z",
    "X-Amz-Signature=abcdef", "x_amz_expires=300", "X-Goog-Signature=abcdef",
    "X-Goog-Credential=abc", "AWSAccessKeyId=abc", "GoogleAccessId=svc%40example",
    "Key-Pair-Id=APKAEXAMPLE", "sv=2022-11-02&se=2025-01-01&sig=abc%3D",
]

SHAPED = [AWS_KEY, JWT, SLACK, STRIPE, GITHUB, "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
          "AIzaSyFakeGoogleApiKeyForTests-01234567", "glpat-FakeGitlabTokenForTests01"]

HARMLESS = [
    "https://example.com/search?q=tokenization+explained",
    "https://example.com/?keyword=secretary&author=x&codec=h264&statement=1&passage=2",
    "https://example.com/?page=2&sort=key&session_date=2024",
    "https://example.com/docs#section-token-types",
    "https://example.com/a/b?utm_source=newsletter",
    "https://example.com/eyJ-not-a-jwt",
]


@pytest.mark.parametrize("name", NAMES)
def test_credential_query_names_are_refused(name: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(f"https://example.com/cb?x=1&{name}=Zq9valuez")
    assert info.value.reason == "credential_param"
    assert "Zq9valuez" not in str(info.value)
    assert info.value.url == "https://example.com/cb"


@pytest.mark.parametrize("query", PRESIGNED)
def test_presigned_url_parameters_are_refused(query: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(f"https://bucket.s3.amazonaws.com/object.pdf?{query}")
    assert info.value.reason in ("credential_presigned", "credential_param")
    assert "?" not in (info.value.url or "")


@pytest.mark.parametrize("value", SHAPED)
def test_secret_shaped_values_are_refused_whatever_the_name(value: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(f"https://example.com/page?q={value}")
    assert info.value.reason == "credential_value"
    assert value not in str(info.value)
    assert value not in (info.value.url or "")


@pytest.mark.parametrize("url", [
    "https://example.com/cb#access_token=Zq9valuez&token_type=bearer",
    "https://example.com/app#/callback?code=Zq9valuez",
    f"https://example.com/#{JWT}",
])
def test_credentials_in_the_fragment_are_refused(url: str) -> None:
    with pytest.raises(RefusedError) as info:
        check_url(url)
    assert info.value.reason == "credential_fragment"
    assert "#" not in (info.value.url or "")


def test_secret_shapes_in_the_path_are_refused_and_the_path_not_kept() -> None:
    with pytest.raises(RefusedError) as info:
        check_url(f"https://example.com/reset/{JWT}")
    assert info.value.reason == "credential_path"
    assert JWT not in (info.value.url or "")


@pytest.mark.parametrize("url", HARMLESS)
def test_ordinary_urls_pass(url: str) -> None:
    assert find_credential(url) is None
    check_url(url)


def test_credentials_are_found_before_the_scheme_rule() -> None:
    # A refused URL is written down; the credential rule must have stripped it first.
    with pytest.raises(RefusedError) as info:
        check_url("ftp://example.com/f?token=Zq9valuez")
    assert info.value.reason == "credential_param"
    assert "Zq9valuez" not in (info.value.url or "")


def test_a_too_long_url_is_written_down_without_its_credential() -> None:
    url = "https://example.com/?" + "a=b&" * 30 + "token=Zq9valuez&" + "c=" + "d" * 2100
    with pytest.raises(RefusedError) as info:
        check_url(url)
    assert info.value.reason == "url_too_long"
    assert info.value.url == "https://example.com/"


def test_percent_encoded_names_are_decoded() -> None:
    assert name_rule("%74oken") is None  # the raw name; the query parser decodes it first
    with pytest.raises(RefusedError):
        check_url("https://example.com/?%74oken=abc")


def test_secret_shape_labels() -> None:
    assert secret_shape(f"prefix {AWS_KEY} suffix") == "aws_access_key_id"
    assert secret_shape(JWT) == "jwt"
    assert secret_shape("AKIA is a prefix alone") is None


def test_loggable_url() -> None:
    assert loggable_url("https://u:p@example.com/a?token=x#y") == "https://example.com/a"
    assert loggable_url("https://example.com/a?q=1#f") == "https://example.com/a?q=1#f"
    assert loggable_url(f"https://example.com/r/{JWT}") == "https://example.com/[path removed]"
    assert loggable_url("http://a:b/c@example.com/", "userinfo") == "http://example.com/"
    assert loggable_url("https://medium.com/@user/post") == "https://medium.com/@user/post"


# -- through the real CLI ----------------------------------------------------------------


def _library_bytes(root: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()]


def test_refused_credential_url_makes_no_request_and_logs_no_query(
        server: LocalServer, library_dir: Path) -> None:
    url = server.route("/cb", "<p>hello</p>") + "?state=Zq9valuez&code=Zq8valuez"
    result = run_cli("capture", url, "--json", library=library_dir, allow=server.pair)
    assert result.code == 2
    assert result.json()["error"]["reason"] == "credential_param"
    assert server.connections == 0
    lines = [json.loads(x) for x in (library_dir / "skipped.jsonl").read_text().splitlines()]
    assert len(lines) == 1
    assert lines[0]["url"] == server.url("/cb")
    assert lines[0]["rule"] == "credential_param"
    assert {"at", "url", "rule", "session_id"} <= set(lines[0])
    assert "Zq9valuez" not in result.stdout + result.stderr


def test_secret_values_never_appear_in_any_file_of_the_library(
        server: LocalServer, library_dir: Path) -> None:
    cookie_secret = "CookieSecretZq1value"
    header_secret = "HeaderSecretZq2value"
    link_secret = "LinkSecretZq3value"
    page = server.route("/page", article_html(), headers={
        "Set-Cookie": f"sid={cookie_secret}; HttpOnly",
        "Set-Cookie2": f"old={cookie_secret}",
        "Authorization": f"Bearer {header_secret}",
        "X-Api-Key": header_secret,
        "X-Amz-Security-Token": header_secret,
        "X-Session-Token": header_secret,
        "X-Client-Secret": header_secret,
        "X-Debug-Trace": f"user={JWT}",
        "Link": f"<https://cdn.example/a.css?token={link_secret}>; rel=preload",
        "X-Ordinary": "kept",
    })
    server.route("/hop", status=302,
                 headers={"Location": f"https://elsewhere.example/cb?access_token={link_secret}"})
    env = {"READRECEIPT_ALLOW_HOSTS": server.pair}
    ok = run_cli("capture", page, "--now", "--json", library=library_dir, env=env)
    assert ok.code == 0, ok.stderr
    secret_urls = [
        server.url(f"/a?token={AWS_KEY}"), server.url(f"/b?q={JWT}"),
        server.url(f"/c?X-Amz-Signature={STRIPE}"), server.url(f"/d#access_token={SLACK}"),
        f"http://user:{GITHUB}@example.com/", server.url(f"/e/{GITHUB}"),
        f"ftp://example.com/?password={header_secret}",
    ]
    for url in secret_urls:
        refused = run_cli("capture", url, "--now", "--json", library=library_dir, env=env)
        assert refused.code == 2, (url, refused.stdout, refused.stderr)
    hop = run_cli("capture", server.url("/hop"), "--now", "--json", library=library_dir,
                  env=env)
    assert hop.code == 2
    record = json.loads(ok.stdout)
    held = (library_dir / "records" / f"{record['record_id']}.yaml").read_text()
    assert "x-ordinary" in held  # headers are written, only the secret ones left out
    files = _library_bytes(library_dir)
    assert any(p.name == "skipped.jsonl" for p, _ in files)
    assert any(p.name == "index.db" for p, _ in files)
    secrets = [cookie_secret, header_secret, link_secret, AWS_KEY, JWT, SLACK, STRIPE, GITHUB]
    for path, data in files:
        for secret in secrets:
            assert secret.encode() not in data, (secret, path)
    requested = [r["path"] for r in server.requests]
    assert requested == ["/page", "/hop"]  # no refused URL was ever requested
