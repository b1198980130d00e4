"""A page's charset label is untrusted: only the web's encodings are decoded with.

Python's codec registry also holds text transforms (rot13, punycode, ``undefined``, which
raises on every byte) and bytes-to-bytes codecs (base64, zlib, hex, uu). A label naming one
of them ended the capture in "internal error" with no record and the body's blob orphaned.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import LocalServer, run_cli
from readreceipt.reading.charsets import WEB_CODECS, codec_for
from readreceipt.reading.extract import decode

HOSTILE = ["undefined", "punycode", "base64", "rot13", "zlib", "hex", "uu", "idna",
           "utf-7", "mbcs", "cp037", "x\x00y", "a" * 200]
_WORDS = "Grüße aus Köln, the harbour café reopened"


def _page(meta: str = "") -> bytes:
    return (f"<!doctype html><html><head>{meta}<title>Harbour</title></head><body><article>"
            f"<p>{_WORDS}. " + "The council met and voted on the harbour plan. " * 30
            + "</p></article></body></html>").encode()


@pytest.mark.parametrize("label", HOSTILE)
def test_a_label_that_is_no_web_encoding_is_passed_over(label: str) -> None:
    assert codec_for(label) is None
    text, used = decode(_page(), label, html=True)
    assert (used, _WORDS in text) == ("utf-8", True)


@pytest.mark.parametrize(("label", "codec"), [
    ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("unicode-1-1-utf-8", "utf-8"),
    ("ISO-8859-1", "cp1252"), ("latin1", "cp1252"), ("us-ascii", "cp1252"),
    ("windows-874", "cp874"), ("x-mac-cyrillic", "mac-cyrillic"), ("iso-8859-8-i", "iso8859-8"),
    ("Shift_JIS", "shift_jis"), ("windows-31j", "cp932"), ("euc-kr", "euc_kr"),
    ("gb18030", "gb18030"), ("koi8-u", "koi8-u"), (' "windows-1251" ', "cp1251"),
])
def test_the_webs_labels_name_their_codecs(label: str, codec: str) -> None:
    assert codec_for(label) == codec
    assert codec in WEB_CODECS


def test_a_utf7_page_is_not_read_as_markup() -> None:
    body = b"<html><body><p>+ADw-script+AD4-alert(1)+ADw-/script+AD4-</p></body></html>"
    text, used = decode(body, "utf-7", html=True)
    assert used == "utf-8" and "<script>" not in text


@pytest.mark.parametrize("where", ["header", "meta"])
@pytest.mark.parametrize("label", ["undefined", "punycode", "base64", "rot13", "zlib", "uu"])
def test_capture_and_fetch_keep_a_record_whatever_the_label(
        server: LocalServer, library_dir: Path, tmp_path: Path, label: str, where: str) -> None:
    if where == "header":
        url = server.route("/p", _page(), headers={
            "Content-Type": f"text/html; charset={label}"})
    else:
        url = server.route("/p", _page(f"<meta charset={label}>"),
                           headers={"Content-Type": "text/html"})
    captured = run_cli("capture", url, "--now", "--json", library=library_dir,
                       allow=server.pair)
    assert captured.code == 0, captured.stderr
    assert "internal error" not in captured.stderr
    assert captured.json()["verdict"] == "RETRIEVED"
    out = tmp_path / "page.md"
    fetched = run_cli("fetch", url, "--now", "-o", str(out), library=library_dir,
                      allow=server.pair)
    assert fetched.code == 0, fetched.stderr
    assert _WORDS in out.read_text(encoding="utf-8")
    checked = run_cli("verify", library=library_dir)
    assert checked.code == 0, checked.stdout + checked.stderr
