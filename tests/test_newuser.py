"""What a new user meets first (issue 11, item 12), each through the real console script.

Terminal behaviour is checked on a real pseudo-terminal of a known size, its output fed to a
terminal emulator (pyte), so the test sees the screen a person would: what stays on it after
the command ends, and how a table is laid out at 80 columns.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import termios
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest
import yaml

from conftest import BIN, CliResult, LocalServer, article_html, clean_env, run_cli
from library_builder import article, at, put_capture
from readreceipt.store.library import Library
from test_answers import WALL
from test_hook import MISQUOTE, hook, other_tool, webfetch

Cli = Callable[..., CliResult]


def on_terminal(args: list[str], env: dict[str, str], *, columns: int = 80, rows: int = 40,
                timeout: float = 60) -> list[str]:
    """Run ``args`` on a pseudo-terminal of ``columns`` x ``rows``; the screen at the end."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave,
                            env={**env, "TERM": "xterm-256color"}, close_fds=True)
    os.close(slave)
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            stream.feed(data)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
    return [line.rstrip() for line in screen.display]


# ------------------------------------------------------------------------- --from files


def test_url_lists_take_comments_and_blank_lines(cli: Cli, server: LocalServer,
                                                 tmp_path: Path) -> None:
    a = server.route("/a", article_html())
    b = server.route("/b", article_html())
    listing = tmp_path / "urls.txt"
    listing.write_text(f"# pages to keep\n\n{a}   # the article\n   \n\t{b}\n# done\n")
    out = cli("capture", "--from", str(listing), "--now", "--json")
    assert out.code == 0, out.stderr
    assert [c["url"] for c in out.json()["captures"]] == [a, b]


# ---------------------------------------------------------------- default names of fetch


def test_two_fetches_of_one_url_in_one_second_keep_both_files(cli: Cli, server: LocalServer,
                                                              tmp_path: Path) -> None:
    url = server.route("/page", article_html())
    env = {"TMPDIR": str(tmp_path)}
    first = cli("fetch", url, "--format", "html", "--json", env=env)
    second = cli("fetch", url, "--format", "raw", "--json", env=env)  # the copy held, reused
    assert first.code == 0 and second.code == 0, second.stderr
    one, two = Path(first.json()["path"]), Path(second.json()["path"])
    assert one != two and one.parent == two.parent
    assert "BEGIN UNTRUSTED" in one.read_text("utf-8")  # the first file was not replaced
    assert two.read_bytes() == article_html().encode("utf-8")


# ------------------------------------------------------------------ checks and flags


def test_a_repeated_check_stores_its_flags_once(cli: Cli, server: LocalServer,
                                                tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/bridge", article_html())
    assert cli("capture", url, "--now").code == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(MISQUOTE)
    for _ in range(3):
        assert cli("check", url, "--answer", str(answer)).code == 10
    flags = (library_dir / "flags.jsonl").read_text().splitlines()
    assert len(flags) == 1
    assert cli("status", "--json").json()["flags"] == 1


def test_report_tells_a_passage_once(server: LocalServer, library_dir: Path,
                                     tmp_path: Path) -> None:
    url = server.route("/bridge", article_html())
    assert hook("capture", webfetch(url, MISQUOTE), library_dir, allow=server.pair).code == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(MISQUOTE)
    again = run_cli("capture", url, "--now", "--answer", str(answer), "--session",
                    webfetch(url)["session_id"], library=library_dir, allow=server.pair)
    assert again.code == 10  # a second capture, flagging the same passage of the same page
    told = json.loads(hook("report", other_tool(), library_dir).stdout)
    context = told["hookSpecificOutput"]["additionalContext"]
    assert context.count("far more rigid") == 1, context
    assert context.startswith("readreceipt: 1 quoted passage")


def test_check_against_a_wall_is_not_a_pass(cli: Cli, server: LocalServer,
                                            tmp_path: Path) -> None:
    url = server.route("/wall", WALL)
    assert cli("capture", url, "--now").code == 8
    answer = tmp_path / "answer.txt"
    answer.write_text('The page says "Checking your browser before accessing the site".')
    out = cli("check", url, "--answer", str(answer), "--json")
    assert out.json()["answer_check"]["outcome"] == "not_run"
    assert out.code == 8


# -------------------------------------------------------------------------- show and log


def test_show_piped_is_yaml_that_parses_and_text_keeps_its_lines(
        cli: Cli, server: LocalServer, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    prompt = ("What did the chief engineer say about the bearings, the deck and the four "
              "years of work, in her own words, at the reopening ceremony last spring?")
    record_id = cli("capture", url, "--now", "--prompt", prompt, "--json").json()["record_id"]
    shown = cli("show", record_id)
    assert shown.code == 0
    on_disk = yaml.safe_load((library_dir / "records" / f"{record_id}.yaml").read_text())
    assert yaml.safe_load(shown.stdout) == on_disk
    with_text = cli("show", record_id, "--text").stdout
    text = with_text.split("--- main text ---\n", 1)[1]
    with Library.open(library_dir) as lib:
        assert text == lib.text(on_disk["text_sha256"]) + "\n"


#: Long enough that a row does not fit 80 columns; the URLs differ only at their end.
LONG = "https://news.example/articles/2026/03/harbour-bridge-retrofit-part-{}"


@pytest.fixture
def three_long_urls(library_dir: Path) -> Iterator[list[tuple[str, str]]]:
    """(record id, url) of three captures whose URLs differ only at their end."""
    with Library.open(library_dir) as lib:
        made = [put_capture(lib, LONG.format(n), article(f"Part {n}", "Words " * 60), at(n))
                for n in range(3)]
    yield [(r.record_id, r.url) for r in made]


@pytest.mark.parametrize("command", ["log", "history"])
def test_at_80_columns_no_id_and_no_url_is_cut(three_long_urls: list[tuple[str, str]],
                                               library_dir: Path, command: str) -> None:
    env = clean_env(READRECEIPT_LIBRARY=str(library_dir))
    args = [command] if command == "log" else [command, three_long_urls[0][1]]
    screen = [line.strip() for line in on_terminal([str(BIN / "readreceipt"), *args], env,
                                                   columns=80)]
    assert max(len(line) for line in screen) <= 80
    mine = three_long_urls if command == "log" else three_long_urls[:1]
    for record_id, url in mine:
        assert any(record_id in line.split() for line in screen), screen
        if command == "log":
            assert any(url in line.split() for line in screen), screen


def test_log_piped_never_wraps(three_long_urls: list[tuple[str, str]],
                               library_dir: Path) -> None:
    out = run_cli("log", library=library_dir, env={"COLUMNS": "40"})
    lines = out.stdout.splitlines()
    assert len(lines) == 4  # the header and one line per retrieval
    for record_id, url in three_long_urls:
        assert any(record_id in line and url in line for line in lines)


def test_status_piped_is_not_wrapped(cli: Cli, server: LocalServer) -> None:
    cli("capture", server.route("/a", article_html()), "--now")
    out = cli("status")
    assert any(line.startswith("answer checks:") and line.endswith("on the page)")
               for line in out.stdout.splitlines())


def test_the_progress_bar_leaves_no_trace(server: LocalServer, library_dir: Path) -> None:
    urls = [server.route(f"/p{n}", article_html()) for n in range(3)]
    env = clean_env(READRECEIPT_LIBRARY=str(library_dir), READRECEIPT_ALLOW_HOSTS=server.pair)
    screen = on_terminal([str(BIN / "readreceipt"), "capture", "--now", *urls], env,
                         columns=100)
    text = "\n".join(screen)
    assert text.count("RETRIEVED: the page was read") == 3, text
    assert "capturing" not in text, text


# ------------------------------------------------------------------------ errors, --json


def test_debug_prints_the_traceback(cli: Cli, library_dir: Path) -> None:
    Library.open(library_dir).close()
    quiet = cli("show", "20260101T000000Z-00000000")
    assert quiet.code == 1 and "Traceback" not in quiet.stderr
    loud = cli("show", "20260101T000000Z-00000000", env={"READRECEIPT_DEBUG": "1"})
    assert loud.code == 1 and "Traceback (most recent call last)" in loud.stderr
    assert "RecordNotFound" in loud.stderr
    assert loud.stderr.strip().splitlines()[-1] == quiet.stderr.strip()


@pytest.mark.parametrize("args", [
    ("capture", "--json", "--bogus"), ("log", "--json", "--limit", "0"),
    ("capture", "https://example.com/", "--json", "--timeout", "nan"),
    ("show", "--json"),
])
def test_usage_errors_honour_json(cli: Cli, args: tuple[str, ...]) -> None:
    out = cli(*args)
    assert out.code == 1
    error = out.json()["error"]
    assert error["reason"] == "usage" and error["exit_code"] == 1 and error["message"]
    assert out.stdout.count("\n") == 1


# ----------------------------------------------------------------------- the viewer's 400s


@pytest.fixture
def viewer(library_dir: Path) -> Iterator[str]:
    from readreceipt.viewer import make_viewer_server

    with Library.open(library_dir) as lib:
        put_capture(lib, "https://news.example/a", article("A", "Words " * 60), at(0))
        server, _ = make_viewer_server(lib, 0)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()


@pytest.mark.parametrize("query", [
    "/?offset=99999999999999999999999", "/?offset=-3", "/?offset=abc",
    "/?until=9999-12-31", "/?since=0000-01-01", "/?url=" + "a" * 60_000,
    "/history?url=" + "a" * 60_000, "/flags?session=" + "s" * 5000,
    "/?verdict=BOGUS",  # not silently dropped: the page would say every retrieval matched
])
def test_viewer_nonsense_queries_are_400s_with_the_usual_headers(viewer: str,
                                                                 query: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(viewer + query, timeout=30)
    assert caught.value.code == 400
    assert "default-src 'none'" in caught.value.headers["Content-Security-Policy"]
    assert caught.value.headers["X-Content-Type-Options"] == "nosniff"


def test_viewer_sane_queries_still_answer(viewer: str) -> None:
    for query in ("/?offset=0", "/?until=2026-12-31&since=2026-01-01", "/?url=news",
                  "/?verdict=retrieved", "/?verdict="):
        with urllib.request.urlopen(viewer + query, timeout=30) as page:
            assert page.status == 200
