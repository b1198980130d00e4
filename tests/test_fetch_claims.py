"""A capture about to fetch a URL claims it (fetching/politeness.py: claimed_fetch), on both
back ends:

- two processes capturing one slow URL make one request: the second's turn comes while the
  first is still fetching, and it waits for that copy (before the claims it fetched again
  whenever a capture took longer than the host's gap);
- a claim left by a capture that died holds the URL only until it runs out; then the next
  capture fetches, its request after the claim's end;
- a capture whose claim-holder ends without a copy that reached a server fetches itself;
- ``--now`` neither waits for a claim nor is held by one, and a capture waits for one no
  longer than its ``--wait``.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

from conftest import BIN, LocalServer, article_html, clean_env, reply
from readreceipt.fetching.politeness import MIN_GAP_SECONDS
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from teamstore import library_env

#: How long the slow page holds its first answer: past the second capture's turn.
HOLD_SECONDS = MIN_GAP_SECONDS + 2.5


@pytest.fixture
def lib(either_library: Library) -> Library:
    return either_library


def _slow(arrivals: list[float]) -> object:
    def held(handler: BaseHTTPRequestHandler) -> None:
        arrivals.append(time.time())
        time.sleep(HOLD_SECONDS)
        reply(handler, article_html().encode())
    return held


def test_two_processes_capturing_one_slow_url_make_one_request(lib: Library,
                                                               server: LocalServer) -> None:
    arrivals: list[float] = []
    url = server.route("/slow", handler=_slow(arrivals))  # type: ignore[arg-type]
    env = clean_env(**library_env(lib, server.pair))
    procs = [subprocess.Popen([str(BIN / "readreceipt"), "capture", url, "--json",
                               "--wait", "60"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(2)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out))
    assert len(arrivals) == 1, f"{len(arrivals)} requests for one URL"
    assert sorted(r["reused"] for r in results) == [False, True]
    assert len({r["record_id"] for r in results}) == 1


def test_a_dead_capture_s_claim_runs_out_and_the_next_capture_fetches(
        lib: Library, allow_server: LocalServer) -> None:
    arrivals: list[float] = []

    def page(handler: BaseHTTPRequestHandler) -> None:
        arrivals.append(time.time())
        reply(handler, article_html().encode())

    url = allow_server.route("/once", handler=page)
    # A capture that claimed the URL and was killed: its claim runs 3 s more.
    assert lib.index.claim_fetch(url, "a-capture-that-died", 3.0) is None
    ends = time.time() + 3.0
    result = capture(url, CaptureOptions(wait=30), lib)
    assert not result.reused and result.record.verdict == "RETRIEVED"
    assert len(arrivals) == 1 and arrivals[0] >= ends - 0.5  # not before the claim ran out
    # ... and this capture let its own claim go: a claim now is taken at once.
    assert lib.index.claim_fetch(url, "next", 1.0) is None


def test_a_holder_that_ends_without_a_copy_leaves_the_fetch_to_the_waiter(
        lib: Library, allow_server: LocalServer) -> None:
    url = allow_server.route("/later", article_html())
    assert lib.index.claim_fetch(url, "holder", 60.0) is None
    timer = threading.Timer(1.0, lib.index.release_fetch, (url, "holder"))  # no copy made
    timer.start()
    result = capture(url, CaptureOptions(wait=30), lib)
    timer.join()
    assert not result.reused
    assert [r["path"] for r in allow_server.requests].count("/later") == 1


def test_now_is_not_held_by_a_claim(lib: Library, allow_server: LocalServer) -> None:
    url = allow_server.route("/fresh", article_html())
    assert lib.index.claim_fetch(url, "holder", 600.0) is None
    result = capture(url, CaptureOptions(now=True, timeout=20), lib)
    assert not result.reused and result.record.verdict == "RETRIEVED"
    lib.index.release_fetch(url, "holder")


def test_a_capture_waits_for_a_claim_no_longer_than_its_wait(lib: Library,
                                                               allow_server: LocalServer) -> None:
    url = allow_server.route("/patient", article_html())
    assert lib.index.claim_fetch(url, "holder", 600.0) is None
    result = capture(url, CaptureOptions(wait=0), lib)  # --wait 0: told, never held
    assert not result.reused and result.record.verdict == "RETRIEVED"
    assert [r["path"] for r in allow_server.requests].count("/patient") == 1
    lib.index.release_fetch(url, "holder")
