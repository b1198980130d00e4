"""The viewer over HTTP: pages, filters, escaping, headers, read-only, Host check, the CLI."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, clean_env
from library_builder import article, at, put_capture, put_failure
from readreceipt.history import word_diff
from readreceipt.quotes.answerlog import check_held_copy
from readreceipt.store.library import Library
from readreceipt.store.records import Record
from readreceipt.viewer import make_viewer_server

HOSTILE_TITLE = "<script>alert('title')</script>"
HOSTILE = article(
    HOSTILE_TITLE.replace("<", "&lt;").replace(">", "&gt;"),
    "Plain words first, then the trap: &lt;script&gt;alert(1)&lt;/script&gt; and "
    "&lt;img src=x onerror=alert(2)&gt; and more words to make the page long enough.",
    "Second paragraph: the council approved the budget of 4.2 million for the new "
    "library building on Tuesday evening.")
HOSTILE_2 = HOSTILE.replace(b"4.2 million", b"4.5 million")
ANSWER = ('The page says "the council approved the budget of 4.9 million for the new library '
          'building" and "Plain words first, then the trap".')


@dataclass
class Viewed:
    lib: Library
    base: str
    port: int
    first: Record
    second: Record
    failure: Record


def build(lib: Library) -> tuple[Record, Record, Record]:
    first = put_capture(lib, "https://hostile.example/page", HOSTILE, at(0), session_id="s-1")
    second = put_capture(lib, "https://hostile.example/page", HOSTILE_2, at(60),
                         session_id="s-1")
    failure = put_failure(lib, "https://slow.example/", at(5))
    for i in range(60):
        put_capture(lib, f"https://many.example/item/{i}", article(
            f"Item {i}", f"Item number {i} of the catalogue is a plain page of sample text "
            "that only exists to fill the list."), at(120 + i), session_id="s-many")
    check_held_copy(lib, second, ANSWER, "", "s-1")
    return first, second, failure


@pytest.fixture(scope="module")
def viewed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Viewed]:
    lib = Library.open(tmp_path_factory.mktemp("viewer") / "lib")
    first, second, failure = build(lib)
    server, _ = make_viewer_server(lib, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    yield Viewed(lib, f"http://127.0.0.1:{port}", port, first, second, failure)
    server.shutdown()
    server.server_close()
    lib.close()


def request(port: int, path: str, method: str = "GET",
            host: str | None = None) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    if host is None:
        conn.request(method, path)
    else:  # exactly this Host header, or none at all
        conn.putrequest(method, path, skip_host=True)
        if host:
            conn.putheader("Host", host)
        conn.endheaders()
    response = conn.getresponse()
    body = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_every_page_carries_the_strict_policy(viewed: Viewed) -> None:
    for path in ("/", "/flags", f"/record/{viewed.second.record_id}",
                 "/history?url=https://hostile.example/page", "/static/viewer.css",
                 "/nothing-here"):
        status, headers, _ = request(viewed.port, path)
        assert status in (200, 404), path
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert "script-src" not in csp and "unsafe" not in csp
        assert headers["x-content-type-options"] == "nosniff"
    _, headers, _ = request(viewed.port, "/static/viewer.css")
    assert headers["content-type"].startswith("text/css")


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


@pytest.mark.parametrize("request_bytes", [
    b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # 414
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-A: b\r\n" * 150 + b"\r\n",  # 431
], ids=["414", "431"])
def test_the_server_s_own_error_pages_carry_the_policy_too(viewed: Viewed,
                                                           request_bytes: bytes) -> None:
    # A request the HTTP server itself refuses, before the viewer sees it, was answered by
    # the standard library's error page with none of the viewer's headers. (A request line
    # it cannot read at all is answered as HTTP/0.9, with no headers of any kind; no
    # browser sends one.)
    head = _raw(viewed.port, request_bytes).split(b"\r\n\r\n", 1)[0].decode("latin-1")
    status = head.split("\r\n", 1)[0]
    assert status.split()[1] in ("414", "431"), head
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip()
               for line in head.split("\r\n")[1:]}
    assert headers.get("content-security-policy", "").startswith("default-src 'none'"), head
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("x-frame-options") == "DENY"


def test_page_content_is_escaped_everywhere(viewed: Viewed) -> None:
    for path in ("/", f"/record/{viewed.first.record_id}", "/flags",
                 "/history?url=https://hostile.example/page"):
        _, _, body = request(viewed.port, path)
        assert "<script" not in body.lower(), path
        assert "<img" not in body.lower(), path
    _, _, body = request(viewed.port, f"/record/{viewed.first.record_id}")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "&lt;img src=x onerror=alert(2)&gt;" in body
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in body


def test_bytes_are_only_ever_a_download(viewed: Viewed) -> None:
    status, headers, body = request(viewed.port, f"/record/{viewed.first.record_id}/body")
    assert status == 200
    assert headers["content-type"] == "application/octet-stream"
    assert headers["content-disposition"].startswith("attachment;")
    assert headers["content-security-policy"].startswith("sandbox")
    assert body.encode() == HOSTILE
    status, headers, body = request(viewed.port, f"/record/{viewed.first.record_id}/text")
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["content-disposition"].startswith("attachment;")
    assert "<script>alert(1)</script>" in body
    status, _, _ = request(viewed.port, f"/record/{viewed.failure.record_id}/body")
    assert status == 404


def test_read_only_and_only_at_its_own_host(viewed: Viewed) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, headers, _ = request(viewed.port, "/", method)
        assert status == 405 and headers["allow"] == "GET, HEAD"
    status, _, body = request(viewed.port, "/", "HEAD")
    assert status == 200 and body == ""
    assert request(viewed.port, "/", host=f"localhost:{viewed.port}")[0] == 200
    for host in (f"rebound.example:{viewed.port}", "127.0.0.1:1", "127.0.0.1", ""):
        assert request(viewed.port, "/", host=host)[0] == 421, host


def test_unknown_and_malformed_paths_are_not_found(viewed: Viewed) -> None:
    for path in ("/record/..%2f..%2fetc%2fpasswd", "/record/.hidden", "/record/nope-1",
                 "/record/nope-1/body", "/history?url=https://never.example/", "/etc/passwd"):
        assert request(viewed.port, path)[0] == 404, path


def test_list_filters_and_pages(viewed: Viewed) -> None:
    _, _, body = request(viewed.port, "/")
    assert "63 retrievals match" in body and "1\u201350 of 63" in body
    assert body.count('<tr class="row">') == 50
    _, _, older = request(viewed.port, "/?offset=50")
    assert older.count('<tr class="row">') == 13 and "\u2190 newer" in older
    _, _, failed = request(viewed.port, "/?verdict=FAILED")
    assert "1 retrieval matches" in failed and "slow.example" in failed
    _, _, by_url = request(viewed.port, "/?url=hostile")
    assert "2 retrievals match" in by_url
    _, _, by_session = request(viewed.port, "/?session=s-many&url=item/1")
    assert "11 retrievals match" in by_session
    _, _, by_date = request(viewed.port, "/?since=2026-03-01&until=2026-03-01")
    assert "63 retrievals match" in by_date
    _, _, none = request(viewed.port, "/?since=2026-03-02")
    assert "0 retrievals match" in none


def test_record_shows_each_quotation_with_the_nearest_passage(viewed: Viewed) -> None:
    _, _, body = request(viewed.port, f"/record/{viewed.second.record_id}")
    assert '<div class="quote not_found">' in body
    assert "the council approved the budget of 4.9 million" in body
    assert ('<mark class="nearest">the council approved the budget of 4.5 million for the new '
            'library building</mark>') in body
    assert '<div class="quote found">' in body
    assert '<mark class="found">Plain words first, then the trap</mark>' in body


def test_history_shows_a_word_diff(viewed: Viewed) -> None:
    _, _, body = request(viewed.port, "/history?url=https://hostile.example/page")
    assert "2 captures, 2 distinct texts" in body
    assert "<del>4.2 </del><ins>4.5 </ins>" in body
    assert "1 word removed, 1 word added" in body


def test_flags_list_the_passage_and_the_nearest(viewed: Viewed) -> None:
    _, _, body = request(viewed.port, "/flags")
    assert "1 quotation was not on the page it was attributed to" in body
    assert "the council approved the budget of 4.9 million" in body
    assert "the council approved the budget of 4.5 million" in body


def test_word_diff_rebuilds_the_new_text() -> None:
    old = "One two three.\nFour five six seven.\n\nEight nine."
    new = "One two three.\nFour 5 six   seven eight.\n\nNine.\nTen."
    diff = word_diff(old, new)
    assert "".join(s.text for s in diff.segments if s.op != "del") == new
    assert [(s.op, s.text) for s in diff.segments][:6] == [
        ("same", "One two three.\nFour "), ("del", "five "), ("ins", "5 "),
        ("same", "six   "), ("del", "seven.\n"), ("ins", "seven eight.\n")]
    assert (diff.words_removed, diff.words_added) == (4, 5)
    assert word_diff("same\ntext", "same\ntext").changed is False


def test_word_diff_of_a_long_rewrite_stays_whole() -> None:
    old = " ".join(f"w{i}" for i in range(9000))
    new = " ".join(f"v{i}" for i in range(9000))
    diff = word_diff(old, new)
    assert [s.op for s in diff.segments] == ["del", "ins"]
    assert diff.words_removed == diff.words_added == 9000


def test_serve_command_binds_loopback_and_reports_its_url(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib")
    put_capture(lib, "https://one.example/", article("One", "A single page of text that is "
                                                    "long enough to count as a page."), at(0))
    lib.close()
    env = clean_env()
    env["READRECEIPT_LIBRARY"] = str(tmp_path / "lib")
    proc = subprocess.Popen([str(BIN / "readreceipt"), "serve", "--port", "0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdout is not None
        started = json.loads(proc.stdout.readline())
        assert started["url"].startswith("http://127.0.0.1:")
        status, _, body = request(started["port"], "/")
        assert status == 200 and "one.example" in body
        import socket

        with socket.socket() as sock:  # not reachable on any other local address
            sock.settimeout(2)
            other = socket.gethostbyname(socket.gethostname())
            if not other.startswith("127."):
                assert sock.connect_ex((other, started["port"])) != 0
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_nearest_passage_across_a_line_break_is_marked(tmp_path: Path) -> None:
    """The nearest passage is reported with its line breaks made spaces; the viewer found it
    in the text only character for character, so one across a line was never marked."""
    from readreceipt.viewer.pages import record_page

    body = (b"The retrofit of the harbour bridge took four years\nand was finished in the "
            b"spring of 2026, two months later than planned.\n" + b"Filler line of text.\n" * 30)
    with Library.open(tmp_path / "lib") as lib:
        record = put_capture(lib, "https://plain.example/notes.txt", body, at(0),
                             content_type="text/plain; charset=utf-8")
        check_held_copy(lib, record, 'It says "the retrofit took four years and was finished '
                        'in 2026".', "")
        html = record_page(lib, record.record_id).decode()
    assert ('<mark class="nearest">The retrofit of the harbour bridge took four years\nand was '
            'finished in the spring of 2026</mark>') in html


# --- the viewer's marks: a passage found any whitespace apart (viewer/pages.py) --------------


def _by_pattern(text: str, passage: str) -> tuple[int, int] | None:
    """What the viewer did before: a pattern of the passage's words, any whitespace apart."""
    import re

    found = re.search(r"\s+".join(re.escape(w) for w in passage.split()), text)
    return (found.start(), found.end()) if found else None


@pytest.mark.parametrize("seed", range(40))
def test_a_passage_is_found_any_whitespace_apart_where_the_pattern_found_it(seed: int) -> None:
    import random

    from readreceipt.viewer.pages import _Spaced

    rng = random.Random(seed)  # noqa: S311 - reproducible texts, not secrets
    words = ["harbour", "plan", "vote", "a", "the", "council", "4.2", "«x»"]
    gaps = [" ", "  ", "\n", " \n\t", "\u00a0", "\u2003"]
    text = "".join(rng.choice(words) + rng.choice(gaps) for _ in range(rng.randint(1, 60)))
    text = rng.choice(["", " ", "\n"]) + text
    for _ in range(20):
        start = rng.randrange(len(text))
        passage = text[start:start + rng.randint(1, 40)]
        if rng.random() < 0.3:
            passage = passage.replace(" ", "\n")
        if not passage.split():
            continue
        assert _Spaced(text).find(passage) == _by_pattern(text, passage), (text, passage)


def test_a_passage_not_on_a_repeated_page_is_not_marked_and_the_next_one_is() -> None:
    """The page repeats one word; the first passage is 300 of them and then another, not
    there (the shape that made the pattern's search cost the page times the passage: its
    time is measured in bench/hostile.py); the second is there with other whitespace."""
    from readreceipt.viewer.pages import _highlight

    text = "a  " * 200_000
    marked = _highlight(text, [(" ".join(["a"] * 300) + " b", "found"),
                               ("a a\na", "nearest")])
    assert marked.count("<mark") == 1 and '<mark class="nearest">a  a  a</mark>' in marked


def test_a_record_page_shows_the_newest_checks_and_marks_each_passage_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every logged check was shown and each of its passages marked with a search of both
    texts, repeats and all: 1,000 checks of 100 passages on a 1.3 MB text took 122 s."""
    from readreceipt.viewer import pages

    sentences = [f"Sentence {i} of the harbour report says the tide rose {i} cm." for i in
                 range(600)]
    body = ("<html><body><article>" + "".join(f"<p>{s}</p>" for s in sentences)
            + "</article></body></html>").encode()
    searched: list[list[str]] = []  # the passages each text was searched for
    real = pages._highlight

    def counted(text: str, marks: list[tuple[str, str]]) -> Any:
        searched.append([passage for passage, _ in marks])
        return real(text, marks)

    monkeypatch.setattr(pages, "_highlight", counted)
    with Library.open(tmp_path / "lib") as lib:
        record = put_capture(lib, "https://news.example/report", body, at(0))
        for n in range(60):  # each check quotes 100 sentences, the same ones again and again
            lib.log("answer_checks.jsonl", {
                "record_id": record.record_id, "outcome": "found", "reason": None,
                "passages": [{"text": sentences[(n + i) % 150], "found": True}
                             for i in range(100)]})
        html = pages.record_page(lib, record.record_id).decode()
    assert html.count('<section class="check">') == pages.MAX_CHECKS_SHOWN
    assert "40 earlier checks of this copy are not shown" in html
    assert searched and all(len(one) == len(set(one)) <= pages.MAX_MARKS for one in searched)
    shown = {sentences[(n + i) % 150] for n in range(40, 60) for i in range(100)}
    assert set(searched[0]) == shown  # the passages of the checks shown, each once
    assert '<mark class="found">Sentence 149 of the harbour report' in html
