"""Answers checked against pages, through the pipeline and the CLI: outcomes, records, logs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import CliResult, LocalServer, article_html
from pdfs import make_pdf
from readreceipt.api import check_answer
from readreceipt.errors import ExitCode, RecordNotFound
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]

FAITHFUL = '"replaced 212 of the bridge\'s 480 bearings with lead-rubber isolators"'
ALTERED = '"replaced 312 of the bridge\'s 480 bearings with lead-rubber isolators"'
WALL = ("<html><head><title>Just a moment...</title></head><body><h1>Checking your browser "
        "before accessing the site.</h1><p>Please enable JavaScript and cookies to continue."
        "</p><script src='/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1'></script>"
        "</body></html>")


def _answer(tmp_path: Path, text: str) -> str:
    path = tmp_path / "answer.md"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_capture_with_a_faithful_answer(cli: Cli, server: LocalServer, tmp_path: Path,
                                        library_dir: Path) -> None:
    url = server.route("/a", article_html())
    out = cli("capture", url, "--now", "--json", "--answer",
              _answer(tmp_path, f"The page says {FAITHFUL}."))
    assert out.code == 0, out.stderr
    check = out.json()["answer_check"]
    assert check["outcome"] == "found"
    assert check["passages"][0]["tier"] == "main"
    assert not (library_dir / "flags.jsonl").exists()


def test_capture_with_a_misquote_exits_10_and_flags(cli: Cli, server: LocalServer,
                                                    tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    answer = f"The page says {ALTERED}."
    out = cli("capture", url, "--now", "--json", "--session", "s1", "--answer",
              _answer(tmp_path, answer))
    assert out.code == 10
    data = out.json()
    passage = data["answer_check"]["passages"][0]
    assert passage["found"] is False and "212" in passage["nearest"]
    [flag] = [json.loads(x) for x in (library_dir / "flags.jsonl").read_text().splitlines()]
    assert flag["record_id"] == data["record_id"] and flag["session_id"] == "s1"
    assert "212" in flag["nearest"]
    assert (flag["edited"], flag["missing"]) == (False, None)
    # The answer itself is kept only as its digest and length.
    record = Path(data["record_path"]).read_text()
    assert "answer_sha256" in record and "\nanswer:" not in record
    assert answer not in record
    human = cli("capture", url, "--now", "--answer", _answer(tmp_path, answer))
    assert "NOT on the page" in human.stdout and "the page says" in human.stdout


def test_check_against_the_copy_held(cli: Cli, server: LocalServer, tmp_path: Path,
                                     library_dir: Path) -> None:
    url = server.route("/a", article_html())
    captured = cli("capture", url, "--now", "--json").json()
    requests = len(server.requests)
    out = cli("check", url, "--json", "--answer", _answer(tmp_path, f"It said {ALTERED}."))
    assert out.code == 10
    data = out.json()
    assert {"url", "record_id", "fetched_at", "answer_check"} <= set(data)
    assert data["record_id"] == captured["record_id"]
    assert set(data["answer_check"]["passages"][0]) >= {"text", "found", "tier", "nearest",
                                                        "similarity"}
    assert len(server.requests) == requests  # no request made
    [line] = [json.loads(x) for x in
              (library_dir / "answer_checks.jsonl").read_text().splitlines()]
    assert line["record_id"] == captured["record_id"] and line["outcome"] == "not_found"
    ok = cli("check", url, "--answer", "-", input=f"It said {FAITHFUL}.")
    assert ok.code == 0 and "found" in ok.stdout and captured["fetched_at"] in ok.stdout


def test_check_without_a_copy(cli: Cli, server: LocalServer, tmp_path: Path,
                              library_dir: Path) -> None:
    url = server.route("/a", article_html())
    answer = _answer(tmp_path, f"It said {FAITHFUL}.")
    Library.open(library_dir).close()  # a library, but no copy of the page in it
    out = cli("check", url, "--answer", answer)
    assert out.code == 1 and "no copy" in out.stderr
    fetched = cli("check", url, "--answer", answer, "--fetch", "--json")
    assert fetched.code == 0 and fetched.json()["answer_check"]["outcome"] == "found"


@pytest.mark.parametrize(("path", "body", "status", "headers", "reason"), [
    ("/wall", WALL, 200, {}, "wall"),
    ("/forbidden", "<html><body>Forbidden</body></html>", 403, {}, "http_403"),
    ("/scan.pdf", make_pdf([]), 200, {"Content-Type": "application/pdf"}, "pdf_no_text"),
    ("/bad.json", '{"a": ', 200, {"Content-Type": "application/json"}, "invalid_json"),
    ("/blob", b"\x00\x01\x02" * 400, 200, {"Content-Type": "application/octet-stream"},
     "binary"),
    ("/huge", "<html><body><p>" + "word " * 4000 + "</p></body></html>", 200, {},
     "truncated"),
])
def test_not_run_is_never_a_pass(allow_server: LocalServer, library_dir: Path, path: str,
                                 body: str | bytes, status: int, headers: dict[str, str],
                                 reason: str) -> None:
    url = allow_server.route(path, body, status=status, headers=headers)
    result = capture(url, CaptureOptions(now=True, answer=f"It said {FAITHFUL}.",
                                         max_bytes=5000, render=False),
                     Library.open(library_dir))
    check = result.record.answer_check
    assert check is not None
    assert (check["outcome"], check["reason"]) == ("not_run", reason)
    assert result.exit_code != 0  # not a pass: the verdict's own code stands


def test_an_answer_with_no_quotation(allow_server: LocalServer, library_dir: Path) -> None:
    url = allow_server.route("/a", article_html())
    result = capture(url, CaptureOptions(now=True, answer="The bridge was retrofitted."),
                     Library.open(library_dir))
    check = result.record.answer_check or {}
    assert (check.get("outcome"), check.get("reason")) == ("not_run", "no_quotation")
    assert result.exit_code == ExitCode.NOT_CHECKED  # nothing checked: no pass, no flag


def test_answer_without_page_text_is_counted(cli: Cli, server: LocalServer, tmp_path: Path,
                                             library_dir: Path) -> None:
    url = server.route("/thin", "<html><body><p>Welcome.</p></body></html>")
    long_answer = "The page explains in detail how the system works. " * 20
    cli("capture", url, "--now", "--answer", _answer(tmp_path, long_answer))
    status = cli("status", "--json").json()
    assert status["answer_without_page_text"] == 1


def test_api_check_answer(allow_server: LocalServer, library_dir: Path) -> None:
    url = allow_server.route("/a", article_html())
    lib = Library.open(library_dir)
    with pytest.raises(RecordNotFound):
        check_answer(url, f"It said {FAITHFUL}.", library=lib)
    capture(url, CaptureOptions(now=True), lib)
    held = check_answer(url, f"It said {ALTERED}.", library=lib)
    assert held.answer_check["outcome"] == "not_found" and held.exit_code == 10


def test_an_elided_misquote_names_its_missing_piece(cli: Cli, server: LocalServer,
                                                    tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    faithful = '"replaced 212 of the [bridge\'s] 480 bearings … with lead-rubber isolators"'
    out = cli("capture", url, "--now", "--json", "--answer",
              _answer(tmp_path, f"The page says {faithful}."))
    assert out.code == 0
    assert out.json()["answer_check"]["passages"][0]["edited"] is True
    altered = faithful.replace("480", "408")
    out = cli("check", url, "--json", "--answer", _answer(tmp_path, f"It says {altered}."))
    assert out.code == 10
    [flag] = [json.loads(x) for x in (library_dir / "flags.jsonl").read_text().splitlines()]
    assert flag["edited"] is True
    assert flag["missing"] is not None and "408 bearings" in flag["missing"]
