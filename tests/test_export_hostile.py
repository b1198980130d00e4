"""``export`` of a hostile library: what a record or a planted file holds never forges output.

A library is files anyone can edit (one carried in a repository, pushed by someone else). A
record field written into a header line with a CR LF in it forged WARC and HTTP headers; a
field of the wrong type ended the export with no output at all; a link planted at a text's
file exported the file it pointed to, and a FIFO at a blob's hung the export.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from warcio.archiveiterator import ArchiveIterator

from conftest import run_cli
from library_builder import at, put_capture
from readreceipt.store.library import Library
from test_export_damage import OTHER, PAGE

INJECTED = "\r\nWARC-Injected: yes\r\n\r\nHTTP/1.1 200 OK"
HOP = {"url": "https://news.example/old", "status": 301, "peer_address": "203.0.113.7",
       "http_version": "HTTP/1.1", "headers": {"location": "https://news.example/estuary"}}


def _library(tmp_path: Path) -> tuple[Path, str, str]:
    root = tmp_path / "lib"
    with Library.open(root) as lib:
        hostile = put_capture(lib, "https://news.example/estuary", PAGE, at(0),
                              redirect_chain=(HOP,))
        kept = put_capture(lib, "https://ferry.example/timetable", OTHER, at(10))
    return root, hostile.record_id, kept.url


def _edit(root: Path, record_id: str, change: Any) -> None:
    path = root / "records" / f"{record_id}.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    change(data)
    unquoted = data.get("fetched_at")
    if isinstance(unquoted, _Unquoted):
        data["fetched_at"] = str(unquoted)
    text = yaml.safe_dump(data, allow_unicode=True)
    if isinstance(unquoted, _Unquoted):  # as a hand would write it
        text = re.sub(r"(?m)^fetched_at: .*$", f"fetched_at: {unquoted}", text)
    path.write_text(text, "utf-8")


class _Unquoted(str):
    """A value written without quotes, so YAML reads it as what it spells (a date)."""


def _headers_written(path: Path) -> list[str]:
    names = []
    with path.open("rb") as handle:
        for rec in ArchiveIterator(handle, check_digests="raise"):
            names += [name.lower() for name, _ in rec.rec_headers.headers]
            if rec.http_headers is not None:
                names += [name.lower() for name, _ in rec.http_headers.headers]
    return names


def _set(key: str, value: Any) -> Any:
    return lambda data: data.__setitem__(key, value)


def _set_hop(key: str, value: Any) -> Any:
    return lambda data: data["redirect_chain"][0].__setitem__(key, value)


FORGERIES = {
    "final_url": _set("final_url", "https://news.example/estuary" + INJECTED),
    "final_url lone LF": _set("final_url", "https://news.example/a\nWARC-Injected: yes"),
    "peer_address": _set("peer_address", "203.0.113.7" + INJECTED),
    "http_version": _set("http_version", "HTTP/1.1" + INJECTED),
    "user_agent": _set("user_agent", "readreceipt" + INJECTED),
    "header name": lambda data: data["response_headers"].__setitem__(
        "x-note" + INJECTED, "value"),
    "header value NUL": lambda data: data["response_headers"].__setitem__("x-note", "a\0b"),
    "hop url": _set_hop("url", "https://news.example/old" + INJECTED),
    "hop peer_address": _set_hop("peer_address", "203.0.113.7" + INJECTED),
    "hop http_version": _set_hop("http_version", "HTTP/1.1" + INJECTED),
    "hop header name": lambda data: data["redirect_chain"][0]["headers"].__setitem__(
        "x" + INJECTED, "v"),
}
WRONG_TYPES = {
    "http_status a string": _set("http_status", "200"),
    "headers a list": _set("response_headers", [["content-type", "text/html"]]),
    "headers a string": _set("response_headers", "content-type: text/html"),
    "header value a number": lambda data: data["response_headers"].__setitem__("x-n", 5),
    "fetched_at a number": _set("fetched_at", 2026),
    "fetched_at a date": _set("fetched_at", _Unquoted("2026-03-01 09:00:00")),
    "bytes a string": _set("bytes", "123"),
}


@pytest.mark.parametrize("case", [*FORGERIES, *WRONG_TYPES])
def test_a_record_that_would_forge_or_break_the_export_is_left_out(tmp_path: Path,
                                                                   case: str) -> None:
    root, hostile, kept_url = _library(tmp_path)
    _edit(root, hostile, {**FORGERIES, **WRONG_TYPES}[case])
    out = run_cli("export", "--warc", str(tmp_path / "out.warc"), "--json", library=root)
    assert out.code == 1, out.stderr
    assert "internal error" not in out.stderr
    assert out.json()["unreadable"] == [hostile]
    assert hostile in out.stderr
    names = _headers_written(tmp_path / "out.warc")  # every digest checked as it is read
    assert "warc-injected" not in names and not any("\n" in n or "\r" in n for n in names)
    with (tmp_path / "out.warc").open("rb") as handle:
        targets = {rec.rec_headers.get_header("WARC-Target-URI")
                   for rec in ArchiveIterator(handle) if rec.rec_type == "metadata"}
    assert targets == {kept_url}


def test_a_link_planted_at_a_text_is_not_exported(tmp_path: Path) -> None:
    root, hostile, _kept = _library(tmp_path)
    record = yaml.safe_load((root / "records" / f"{hostile}.yaml").read_text("utf-8"))
    secret = tmp_path / "id_secret"
    secret.write_text("-----BEGIN PRIVATE KEY----- the user's own secret", "utf-8")
    digest = record["text_sha256"]
    text_file = root / "text" / digest[:2] / digest
    text_file.unlink()
    text_file.symlink_to(secret)
    for form, name in (("--warc", "out.warc"), ("--wacz", "out.wacz")):
        out = run_cli("export", form, str(tmp_path / name), library=root)
        assert out.code in (0, 1), out.stderr
        assert b"the user's own secret" not in (tmp_path / name).read_bytes()
    if form == "--wacz":
        import zipfile

        with zipfile.ZipFile(tmp_path / "out.wacz") as package:
            assert all(b"the user's own secret" not in package.read(member)
                       for member in package.namelist())


def test_a_text_swapped_for_other_words_is_not_exported(tmp_path: Path) -> None:
    root, hostile, _kept = _library(tmp_path)
    record = yaml.safe_load((root / "records" / f"{hostile}.yaml").read_text("utf-8"))
    digest = record["text_sha256"]
    (root / "text" / digest[:2] / digest).write_text("words the page never held", "utf-8")
    out = run_cli("export", "--warc", str(tmp_path / "out.warc"), library=root)
    assert out.code in (0, 1), out.stderr
    assert b"words the page never held" not in (tmp_path / "out.warc").read_bytes()


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_blob_that_is_no_file_is_missing_not_a_hang(tmp_path: Path, kind: str) -> None:
    root, hostile, kept_url = _library(tmp_path)
    record = yaml.safe_load((root / "records" / f"{hostile}.yaml").read_text("utf-8"))
    digest = record["bytes_sha256"]
    blob = root / "store" / digest[:2] / digest
    blob.unlink()
    if kind == "fifo":
        os.mkfifo(blob)
    else:
        blob.mkdir()
    out = run_cli("export", "--warc", str(tmp_path / "out.warc"), "--json", library=root,
                  timeout=60)
    assert out.code == 1, out.stderr
    assert "cannot write" not in out.stderr
    assert "the bytes of 1 retrieval are gone or no longer match" in out.stderr
    assert out.json()["exported_as"].get("missing") == 1
    assert kept_url in (tmp_path / "out.warc").read_bytes().decode("utf-8", "replace")


@pytest.mark.parametrize("command", ["show", "forget"])
def test_an_id_too_long_to_name_a_file_is_one_line(tmp_path: Path, command: str) -> None:
    root, _hostile, _kept = _library(tmp_path)
    out = run_cli(command, "a" * 300, library=root)
    assert out.code != 0 and "internal error" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "not a record id" in out.stderr


def test_verify_names_an_entry_that_is_no_regular_file(tmp_path: Path) -> None:
    # A link to /dev/zero at a blob and a FIFO at a text: never read (rightly), and verify
    # said "0 problems".
    root, hostile, _kept = _library(tmp_path)
    record = yaml.safe_load((root / "records" / f"{hostile}.yaml").read_text("utf-8"))
    blob = root / "store" / record["bytes_sha256"][:2] / record["bytes_sha256"]
    text = root / "text" / record["text_sha256"][:2] / record["text_sha256"]
    blob.unlink()
    blob.symlink_to("/dev/zero")
    text.unlink()
    os.mkfifo(text)
    out = run_cli("verify", "--json", library=root, timeout=60)
    assert out.code == 1, out.stdout + out.stderr
    kinds = {(p["kind"], p["digest"]) for p in out.json()["problems"]}
    assert ("unreadable_entry", record["bytes_sha256"]) in kinds
    assert ("unreadable_entry", record["text_sha256"]) in kinds
