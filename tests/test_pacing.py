"""Pacing, the dedup window and the session cap, within one process and across several."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

import pacelog
from conftest import BIN, LocalServer, article_html, clean_env, reply, run_cli
from readreceipt.errors import DeclinedError, RefusedError
from readreceipt.fetching.politeness import (
    MAX_CRAWL_DELAY,
    MIN_GAP_SECONDS,
    SESSION_CAP,
    PolitenessOptions,
    check_session_cap,
    recent_copy,
    reserve_slot,
    wait_for_turn,
)
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.discovery import INDEX_FILENAME
from readreceipt.store.library import Library
from readreceipt.store.records import Record, new_record_id, utc_now


@pytest.fixture
def lib(library_dir: Path) -> Iterator[Library]:
    with Library.open(library_dir) as opened:
        yield opened


class FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _sql(lib: Library, query: str, *params: object) -> float:
    """One value from the embedded index, read by hand (the store has no such question)."""
    conn = sqlite3.connect(lib.root / "index.db")
    try:
        return float(conn.execute(query, params).fetchone()[0])
    finally:
        conn.close()


def test_slots_queue_one_gap_apart(lib: Library) -> None:
    clock = FakeClock(1000.0)
    starts = [reserve_slot(lib, "example.com", MIN_GAP_SECONDS, clock) for _ in range(3)]
    assert starts == [1000.0, 1002.0, 1004.0]
    # another host has its own schedule
    assert reserve_slot(lib, "example.org", MIN_GAP_SECONDS, clock) == 1000.0
    # time passing past the schedule: the next slot is now
    clock.now = 2000.0
    assert reserve_slot(lib, "example.com", MIN_GAP_SECONDS, clock) == 2000.0


def test_crawl_delay_lengthens_the_gap_up_to_its_cap(lib: Library) -> None:
    clock = FakeClock(0.0)
    assert reserve_slot(lib, "slow.example", 10.0, clock) == 0.0
    assert reserve_slot(lib, "slow.example", 10.0, clock) == 10.0
    assert reserve_slot(lib, "capped.example", 3600.0, clock) == 0.0
    assert reserve_slot(lib, "capped.example", 3600.0, clock) == MAX_CRAWL_DELAY
    assert reserve_slot(lib, "short.example", 0.5, clock) == 0.0
    assert reserve_slot(lib, "short.example", 0.5, clock) == MIN_GAP_SECONDS


def test_a_worker_that_will_not_wait_declines_and_gives_its_slot_back(lib: Library) -> None:
    target = check_url("https://example.com/a")
    assert wait_for_turn(lib, target, PolitenessOptions()) == 0.0
    with pytest.raises(DeclinedError) as info:
        wait_for_turn(lib, target, PolitenessOptions(wait=0.0))
    assert info.value.reason == "pacing"
    assert "--now" in str(info.value)
    assert "--wait" in str(info.value)
    next_at = _sql(lib, "SELECT next_at FROM pacing WHERE host = ?", "example.com")
    # the declined worker's slot was returned: the schedule is one gap after the first
    assert next_at - time.time() <= MIN_GAP_SECONDS


def test_wait_holds_the_command_for_its_turn(lib: Library) -> None:
    target = check_url("https://example.com/a")
    wait_for_turn(lib, target, PolitenessOptions())
    waited = wait_for_turn(lib, target, PolitenessOptions(wait=5.0))
    assert 0.0 < waited <= MIN_GAP_SECONDS


def _record(url: str, *, status: int | None, session: str | None = None,
            fetched_at: str | None = None) -> Record:
    return Record(record_id=new_record_id(), url=url, final_url=url,
                  fetched_at=fetched_at or utc_now(), http_status=status,
                  verdict="RETRIEVED" if status else "FAILED",
                  reason="ok" if status else "dns", session_id=session)


def test_dedup_window_counts_only_retrievals_that_reached_a_server(lib: Library) -> None:
    url = "https://example.com/page"
    lib.save(_record(url, status=None))
    assert recent_copy(lib, url) is None
    lib.save(_record(url, status=200, fetched_at="2000-01-01T00:00:00.000000Z"))
    assert recent_copy(lib, url) is None  # outside the window
    held = _record(url, status=200)
    lib.save(held)
    found = recent_copy(lib, url)
    assert found is not None and found.record_id == held.record_id


def test_session_cap(lib: Library) -> None:
    for _ in range(SESSION_CAP - 1):
        lib.save(_record(f"https://example.com/{new_record_id()}", status=200, session="s"))
    check_session_cap(lib, "s")
    check_session_cap(lib, None)
    lib.save(_record("https://example.com/last", status=200, session="s"))
    with pytest.raises(DeclinedError) as info:
        check_session_cap(lib, "s")
    assert info.value.reason == "session_cap"
    check_session_cap(lib, "other")


def test_refused_url_spends_no_slot(server: LocalServer, lib: Library,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    canary = LocalServer()
    try:
        monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", server.pair)
        with pytest.raises(RefusedError):
            capture(canary.url("/x"), CaptureOptions(timeout=5), lib)
        assert _sql(lib, "SELECT COUNT(*) FROM pacing") == 0
        assert _sql(lib, "SELECT COUNT(*) FROM robots") == 0
        assert canary.connections == 0
    finally:
        canary.close()


def test_cli_dedup_pacing_and_session_cap(server: LocalServer, library_dir: Path) -> None:
    # The host asks for the longest gap kept (its Crawl-delay, capped at MAX_CRAWL_DELAY), so
    # "at once" below means within a minute of the first fetch, not within the 2 s that three
    # command starts on a loaded machine did not always fit in.
    server.route("/robots.txt", f"User-agent: *\nCrawl-delay: {MAX_CRAWL_DELAY:.0f}\n",
                 headers={"Content-Type": "text/plain"})
    a = server.route("/a", article_html())
    b = server.route("/b", article_html())
    first = run_cli("capture", a, "--json", "--session", "s1", library=library_dir,
                    allow=server.pair)
    assert first.code == 0, first.stderr
    assert first.json()["reused"] is False
    # the same URL within 15 minutes: answered from the record held, no request
    again = run_cli("capture", a, "--json", library=library_dir, allow=server.pair)
    assert again.code == 0
    assert again.json()["reused"] is True
    assert again.json()["record_id"] == first.json()["record_id"]
    # another URL on the same host at once: declined, naming --now
    paced = run_cli("capture", b, "--session", "s1", library=library_dir, allow=server.pair)
    assert paced.code == 3
    assert "--now" in paced.stderr and f"less than {MAX_CRAWL_DELAY:g} s ago" in paced.stderr
    assert [r["path"] for r in server.requests] == ["/robots.txt", "/a"]
    line = json.loads((library_dir / "skipped.jsonl").read_text().splitlines()[-1])
    assert (line["rule"], line["url"], line["session_id"]) == ("pacing", b, "s1")
    # --now skips pacing and the dedup window
    forced = run_cli("capture", a, "--now", "--json", library=library_dir, allow=server.pair)
    assert forced.code == 0
    assert forced.json()["reused"] is False
    assert [r["path"] for r in server.requests][-1] == "/a"


def test_four_processes_queue_two_seconds_apart(server: LocalServer,
                                                library_dir: Path) -> None:
    arrivals: list[tuple[float, str]] = []
    body = article_html().encode()

    def timed(handler: BaseHTTPRequestHandler) -> None:
        arrivals.append((time.time(), handler.path))
        reply(handler, body)

    urls = [server.route(f"/w{n}", handler=timed) for n in range(4)]
    Library.open(library_dir).close()  # created once, before the workers race
    pacelog.log_sqlite(library_dir / INDEX_FILENAME)
    env = clean_env()
    env.update(READRECEIPT_LIBRARY=str(library_dir), READRECEIPT_ALLOW_HOSTS=server.pair)
    procs = [subprocess.Popen([str(BIN / "readreceipt"), "capture", url, "--wait", "30",
                               "--json"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for url in urls]
    outputs = [p.communicate(timeout=60) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()
        assert json.loads(out)["verdict"] == "RETRIEVED"
    assert sorted(p for _, p in arrivals) == ["/w0", "/w1", "/w2", "/w3"]
    # The schedule the index kept: one slot a request, one gap apart, and no request at the
    # server before its slot (tests/pacelog.py: the requests' own gaps also measure how late
    # a loaded machine wakes a worker).
    pacelog.assert_paced(pacelog.sqlite_changes(library_dir / INDEX_FILENAME),
                         pacelog.paced_requests(server), MIN_GAP_SECONDS)
    assert [r["path"] for r in server.requests].count("/robots.txt") == 1


def test_eight_processes_capturing_one_url_make_one_request(server: LocalServer,
                                                            library_dir: Path) -> None:
    """Issue 11, item 11: each waits for the host's turn, then looks at the dedup window
    again (and while waiting), so the copy the first one made answers the other seven. The
    host asks for 30 s between requests (its Crawl-delay), longer than the first capture
    takes on a loaded machine: with the default pace a second turn could come before the
    first copy was saved, and that process fetched again (seen at a load of 16). Each may
    wait 300 s, past the last of the seven turns, so none declines before the copy is there;
    they end as soon as it is."""
    server.route("/robots.txt", "User-agent: *\nCrawl-delay: 30\n",
                 headers={"Content-Type": "text/plain"})
    url = server.route("/same", article_html())
    Library.open(library_dir).close()  # created once, before the workers race
    env = clean_env(READRECEIPT_LIBRARY=str(library_dir), READRECEIPT_ALLOW_HOSTS=server.pair)
    procs = [subprocess.Popen([str(BIN / "readreceipt"), "capture", url, "--wait", "300",
                               "--json"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(8)]
    outputs = [p.communicate(timeout=90) for p in procs]
    results = []
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()
        results.append(json.loads(out))
    page_requests = [r for r in server.requests if r["path"] == "/same"]
    assert len(page_requests) == 1, f"{len(page_requests)} requests for one URL"
    assert sorted(r["reused"] for r in results) == [False] + [True] * 7
    assert len({r["record_id"] for r in results}) == 1


def test_two_pages_of_one_host_typed_in_a_row_both_arrive(server: LocalServer,
                                                          library_dir: Path) -> None:
    """capture waited 0 s by default (fetch 10 s): a second page of a host typed within its
    gap was declined, exit 3. Now one default for both. The host asks for 8 s between
    requests (its Crawl-delay): the second command comes within that gap unless starting it
    takes longer, and the turn then comes within the 10 s it waits."""
    arrivals: list[float] = []
    body = article_html().encode()

    def timed(handler: BaseHTTPRequestHandler) -> None:
        arrivals.append(time.time())
        reply(handler, body)

    server.route("/robots.txt", "User-agent: *\nCrawl-delay: 8\n",
                 headers={"Content-Type": "text/plain"})
    a, b = (server.route(f"/{name}", handler=timed) for name in ("a", "b"))
    first = run_cli("capture", a, library=library_dir, allow=server.pair)
    second = run_cli("capture", b, library=library_dir, allow=server.pair)
    assert (first.code, second.code) == (0, 0), second.stderr
    assert arrivals[1] - arrivals[0] >= 8 - 0.2  # the host's pace was kept
