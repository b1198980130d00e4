"""The real console script: the JSON contract, the human output, and every bad input."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, CliResult, LocalServer, article_html, clean_env, reply, run_cli, tmpfs
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]

CAPTURE_KEYS = {"url", "final_url", "verdict", "reason", "wall", "http_status", "bytes",
                "bytes_sha256", "text_sha256", "truncated", "javascript_executed", "record_id",
                "record_path"}


def test_capture_json_contract(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    out = cli("capture", url, "--now", "--json")
    assert out.code == 0, out.stderr
    data = out.json()
    assert set(data) >= CAPTURE_KEYS
    assert data["verdict"] == "RETRIEVED" and data["http_status"] == 200
    assert Path(data["record_path"]).is_file()
    assert out.stdout.count("\n") == 1  # exactly one JSON object


def test_capture_several_urls(cli: Cli, server: LocalServer) -> None:
    a = server.route("/a", article_html())
    missing = server.url("/missing")
    out = cli("capture", a, missing, "--now", "--json")
    data = out.json()
    assert [c["verdict"] for c in data["captures"]] == ["RETRIEVED", "FAILED"]
    assert out.code == 5  # the worst outcome wins


SHELL_PAGE = "<!doctype html><html><body><div id='root'></div><script src='/app.js'></script>" \
             "</body></html>"


def test_a_batch_exits_with_its_highest_code_and_gives_each_one(cli: Cli,
                                                                server: LocalServer) -> None:
    read = server.route("/a", article_html())
    shell = server.route("/shell", SHELL_PAGE)
    missing = server.url("/missing")
    out = cli("capture", read, shell, missing, "--now", "--no-render", "--json")
    data = out.json()
    assert [(c["verdict"], c["exit_code"]) for c in data["captures"]] == [
        ("RETRIEVED", 0), ("UNKNOWN", 8), ("FAILED", 5)]
    assert out.code == 8  # not the order given: the highest code
    refused = cli("capture", read, "ftp://example.org/", "--json")
    assert [c["exit_code"] if "exit_code" in c else c["error"]["exit_code"]
            for c in refused.json()["captures"]] == [0, 2]
    assert refused.code == 2
    both_read = cli("capture", read, server.route("/b", article_html()), "--now")
    assert both_read.code == 0


def test_from_a_file_is_a_batch_even_of_one_url(cli: Cli, server: LocalServer,
                                                tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# one page\n{server.route('/a', article_html())}\n")
    out = cli("capture", "--from", str(urls), "--now", "--json")
    assert out.code == 0, out.stderr
    assert [c["verdict"] for c in out.json()["captures"]] == ["RETRIEVED"]
    urls.write_text("ftp://example.org/\n")
    refused = cli("capture", "--from", str(urls), "--json")
    assert refused.code == 2
    assert refused.json()["captures"][0]["error"]["reason"]  # one shape, whatever happened


def test_a_batch_stops_when_the_library_cannot_be_written(cli: Cli, server: LocalServer,
                                                         library_dir: Path) -> None:
    def break_the_library(handler: Any) -> None:
        # While /b is being fetched, the library's record folder becomes a file.
        (library_dir / "records").rename(library_dir / "records.moved")
        (library_dir / "records").write_text("not a folder")
        reply(handler, article_html().replace("318 million", "319 million").encode())

    urls = [server.route("/a", article_html()), server.route("/b", handler=break_the_library),
            server.route("/c", article_html()), server.route("/d", article_html())]
    out = cli("capture", *urls, "--now", "--json")
    assert out.code == 1, out.stderr
    captures = out.json()["captures"]
    assert captures[0]["verdict"] == "RETRIEVED"
    assert captures[1]["error"]["exit_code"] == 1
    assert captures[2:] == [{"url": urls[2], "attempted": False},
                            {"url": urls[3], "attempted": False}]
    assert "the batch stopped" in out.stderr and "2 URLs were not attempted" in out.stderr
    assert [r["path"] for r in server.requests] == ["/a", "/b"]  # no server asked for nothing
    # What was stored before stays stored.
    assert (library_dir / "records.moved" / f"{captures[0]['record_id']}.yaml").is_file()


def test_jobs_keep_the_batch_rules(cli: Cli, server: LocalServer, library_dir: Path) -> None:
    read = server.route("/a", article_html())
    missing = server.url("/missing")
    out = cli("capture", read, missing, "--now", "--jobs", "2", "--json")
    assert [(c["verdict"], c["exit_code"]) for c in out.json()["captures"]] == [
        ("RETRIEVED", 0), ("FAILED", 5)]
    assert out.code == 5

    def break_the_library(handler: Any) -> None:
        (library_dir / "records").rename(library_dir / "records.moved")
        (library_dir / "records").write_text("not a folder")
        reply(handler, article_html().replace("318 million", "317 million").encode())

    urls = [server.route("/break", handler=break_the_library),
            *(server.route(f"/n{i}", article_html()) for i in range(7))]
    seen = len(server.requests)
    stopped = cli("capture", *urls, "--now", "--jobs", "2", "--json")
    assert stopped.code == 1, stopped.stderr
    assert "the batch stopped at" in stopped.stderr
    captures = stopped.json()["captures"]
    assert captures[0]["error"]["exit_code"] == 1
    assert captures[-1] == {"url": urls[-1], "attempted": False}
    # Once the library broke (while /break was served), the other worker's URL in hand at
    # most, one more at worst; before it, the other worker may have gone through several
    # URLs on a loaded machine (it can start before the first worker's request arrives).
    paths = [r["path"] for r in server.requests[seen:]]
    assert "/break" in paths
    assert len(paths) - paths.index("/break") - 1 <= 2, paths


def test_capture_human_output_says_what_happened(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    out = cli("capture", url, "--now")
    assert out.code == 0
    assert "RETRIEVED: the page was read" in out.stdout
    assert "record:" in out.stdout


def test_answer_text_in_brackets_is_printed_as_written(cli: Cli, server: LocalServer,
                                                      tmp_path: Path) -> None:
    """An answer's words reach the terminal as written: rich's markup would drop `[sic]` and
    `[T]` (printing a quotation the answer never made) and fail whole on a stray `[/b]`."""
    url = server.route("/a", article_html())
    edited = ("Engineers replaced 212 of [sic] the bridge's 480 bearings with lead-rubber "
              "isolators")
    unfound = "[/b] the harbour bridge was [bold]painted green[/] in 1999 by the council"
    answer = tmp_path / "answer.md"
    answer.write_text(f'It says "{edited}" and "{unfound}".', encoding="utf-8")
    for args in (("capture", url, "--now", "--answer", str(answer)),
                 ("check", url, "--answer", str(answer))):
        out = cli(*args)
        assert out.code == 10, out.stderr
        assert "internal error" not in out.stderr
        assert f"found: \u201c{edited}\u201d" in out.stdout
        assert f"NOT on the page: \u201c{unfound}\u201d" in out.stdout


def test_capture_exit_codes_follow_the_verdict(cli: Cli, server: LocalServer) -> None:
    assert cli("capture", server.url("/nope"), "--now").code == 5
    big = server.route("/big", "x" * 5000, headers={"Content-Type": "text/plain"})
    assert cli("capture", big, "--now", "--max-bytes", "1000").code == 7


def test_status_log_show_history_json(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    first = cli("capture", url, "--now", "--json").json()
    server.route("/a", article_html().replace("318 million", "320 million"))
    cli("capture", url, "--now", "--json")
    cli("capture", server.url("/gone"), "--now", "--json")

    status = cli("status", "--json").json()
    assert status["retrievals"] == 3
    assert status["verdicts"] == {"RETRIEVED": 2, "FAILED": 1}
    assert status["reasons"]["http_404"] == 1

    log = cli("log", "--json", "--limit", "2").json()
    assert len(log["retrievals"]) == 2
    failed = cli("log", "--json", "--verdict", "failed").json()
    assert [r["reason"] for r in failed["retrievals"]] == ["http_404"]

    shown = cli("show", first["record_id"], "--json", "--text").json()
    assert shown["record_id"] == first["record_id"]
    assert "318 million" in shown["text"]

    history = cli("history", url, "--json").json()
    assert len(history["captures"]) == 2 and history["distinct_texts"] == 2
    assert [c["text_version"] for c in history["captures"]] == [1, 2]


def test_a_url_typed_as_people_type_it_finds_its_captures(cli: Cli, server: LocalServer
                                                          ) -> None:
    """capture keeps the URL's canonical form (`http://host:port/`); show, history, check and
    forget find it from the form it was typed in (no path, a capital scheme)."""
    server.route("/", article_html())
    typed = f"HTTP://{server.pair}"  # held as http://127.0.0.1:PORT/
    captured = cli("capture", typed, "--now", "--json").json()
    assert captured["url"] == server.url("/")
    assert cli("show", typed, "--json").json()["record_id"] == captured["record_id"]
    history = cli("history", typed, "--json")
    assert history.code == 0, history.stderr
    assert [c["record_id"] for c in history.json()["captures"]] == [captured["record_id"]]
    checked = cli("check", typed, "--answer", "-", "--json", input='"not on the page at all, '
                  'not anywhere on it"')
    assert checked.json()["record_id"] == captured["record_id"]
    forgotten = cli("forget", typed, "--json")
    assert forgotten.json() == {"forgotten": [captured["record_id"]], "already_forgotten": []}
    assert cli("show", "http://nothing.example/", "--json").code == 1  # still not found


def test_urls_and_answer_cannot_both_come_from_stdin(cli: Cli, server: LocalServer) -> None:
    """The URL list would take all of stdin and the answer be checked empty (not_run)."""
    url = server.route("/a", article_html())
    out = cli("capture", "--from", "-", "--answer", "-", "--now", input=f"{url}\n")
    assert out.code == 1 and "cannot both read stdin" in out.stderr
    assert server.requests == []  # nothing was fetched


def test_log_says_when_a_filter_matches_nothing(cli: Cli, server: LocalServer) -> None:
    cli("capture", server.route("/a", article_html()), "--now")
    empty = cli("log", "--session", "no-such-session")
    assert empty.code == 0 and empty.stdout.strip() == "no retrievals match"
    assert cli("log", "--verdict", "unknown").stdout.strip() == "no retrievals match"
    assert "RETRIEVED" in cli("log").stdout


def test_show_human(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    cli("capture", url, "--now")
    out = cli("show", url)
    assert out.code == 0 and "verdict: RETRIEVED" in out.stdout


# -- bad input: one clear line on stderr, the right exit code, no traceback ---------------

def _one_clear_line(out: CliResult) -> None:
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert 1 <= len(lines) <= 2, out.stderr  # the message, and at most a "Try --help" hint
    assert lines[0].startswith("readreceipt: ")


@pytest.mark.parametrize("url", ["not a url", "http://", "http://exa mple.com/",
                                 "javascript:alert(1)", "file:///etc/passwd"])
def test_malformed_or_forbidden_urls(cli: Cli, url: str) -> None:
    out = cli("capture", url)
    assert out.code in (1, 2)
    _one_clear_line(out)


@pytest.mark.parametrize(("url", "reason"), [
    ("http://10.1.2.3/page", "private_address"),  # the address guard
    ("http://localhost/page", "local_host_name"),  # the URL policy
])
def test_a_refusal_under_json_names_its_url(cli: Cli, url: str, reason: str) -> None:
    out = cli("capture", url, "--json")
    assert out.code == 2
    error = out.json()["error"]
    assert (error["reason"], error["url"]) == (reason, url)


def test_unknown_record_id(cli: Cli, library_dir: Path) -> None:
    Library.open(library_dir).close()
    out = cli("show", "20991231T000000Z-deadbeef")
    assert out.code == 1
    _one_clear_line(out)
    assert "no record" in out.stderr


def test_unknown_record_id_json(cli: Cli, library_dir: Path) -> None:
    Library.open(library_dir).close()
    out = cli("show", "nope-nope", "--json")
    assert out.code == 1
    assert out.json()["error"]["reason"] in ("unknown_record", "bad_id")


def test_unknown_option_is_usage(cli: Cli) -> None:
    out = cli("capture", "--no-such-option")
    assert out.code == 1
    assert "Traceback" not in out.stderr


def test_a_library_that_is_not_one(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "thesis.tex").write_text("important")
    out = run_cli("status", "--library", str(folder))
    assert out.code == 1
    _one_clear_line(out)
    assert "not a readreceipt library" in out.stderr
    assert [p.name for p in folder.iterdir()] == ["thesis.tex"]


def test_a_corrupt_index_is_one_line(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "index.db").write_bytes(b"this is not sqlite" * 100)
    out = run_cli("status", library=lib)
    assert out.code == 1
    _one_clear_line(out)


def test_a_read_only_library(tmp_path: Path, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    with tmpfs(tmp_path / "ro", "4m") as mnt:
        lib = mnt / "lib"
        first = run_cli("capture", url, "--now", "--json", library=lib, allow=server.pair)
        assert first.code == 0
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        out = run_cli("capture", url, "--now", library=lib, allow=server.pair)
        assert out.code == 1
        _one_clear_line(out)
        assert "not writable" in out.stderr or "cannot be" in out.stderr
        # nothing already stored was lost
        assert run_cli("verify", library=lib).code == 0
        shown = run_cli("show", first.json()["record_id"], "--json", library=lib)
        assert shown.code == 0


def test_a_full_disk_while_writing_a_blob(tmp_path: Path, server: LocalServer) -> None:
    small = server.route("/small", article_html())
    big = server.route("/big", os.urandom(3 * 1024 * 1024),
                       headers={"Content-Type": "application/octet-stream"})
    with tmpfs(tmp_path / "full", "2m") as mnt:
        lib = mnt / "lib"
        first = run_cli("capture", small, "--now", "--json", library=lib, allow=server.pair)
        assert first.code == 0
        out = run_cli("capture", big, "--now", library=lib, allow=server.pair)
        assert out.code == 1
        _one_clear_line(out)
        assert "disk is full" in out.stderr
        assert not list(lib.rglob(".tmp-*"))  # no torn temp files left
        assert run_cli("verify", library=lib).code == 0
        status = json.loads(run_cli("status", "--json", library=lib).stdout)
        assert status["retrievals"] == 1


def test_no_traceback_on_a_missing_answer_file(cli: Cli, server: LocalServer) -> None:
    url = server.route("/a", article_html())
    out = cli("capture", url, "--now", "--answer", "/nonexistent/answer.txt")
    assert out.code == 1
    _one_clear_line(out)


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_in_a_batch_says_what_was_done_and_what_was_not(
        server: LocalServer, library_dir: Path, as_json: bool) -> None:
    """Ctrl-C printed only "aborted"; it says what was captured, what was cut short and how
    many URLs were never attempted, as a batch stopped by the library does."""
    reached = threading.Event()
    release = threading.Event()

    def slow(handler: BaseHTTPRequestHandler) -> None:
        reached.set()
        release.wait(30)
        with contextlib.suppress(OSError):  # the client is gone by now
            reply(handler, article_html().encode())

    urls = [server.route("/one", article_html()), server.route("/two", handler=slow),
            server.route("/three", article_html())]
    env = clean_env(READRECEIPT_LIBRARY=str(library_dir), READRECEIPT_ALLOW_HOSTS=server.pair)
    proc = subprocess.Popen([str(BIN / "readreceipt"), "capture", *urls, "--now",
                             *(["--json"] if as_json else [])], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert reached.wait(60), "the second capture never reached the server"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        release.set()
    assert proc.returncode == 130, err
    [line] = [x for x in err.decode().splitlines() if x.startswith("readreceipt: interrupted")]
    assert line == (f"readreceipt: interrupted: 1 of 3 URLs done, the capture of {urls[1]} "
                    "cut short, 1 not attempted")
    if as_json:
        data = json.loads(out)
        assert data["interrupted"] is True
        assert [c.get("attempted") for c in data["captures"]] == [None, True, False]
        assert data["captures"][0]["verdict"] == "RETRIEVED"
