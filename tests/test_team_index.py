"""One contract, two indexes: the questions the pipeline asks get the same answers from the
local library (SQLite, files) and from a team library (a real PostgreSQL, a real S3 API).

Every test here runs twice, once per backend; the team's needs the throwaway cluster and
moto server of ``teamstore`` (skipped, saying why, only where PostgreSQL is not installed).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import LocalServer, article_html
from library_builder import at, put_capture, put_failure
from readreceipt.store.library import Library
from readreceipt.store.protocols import (
    ROBOTS_PENDING,
    AnswerCheck,
    Audit,
    CachedRobots,
    NewFlag,
    ProbeAnswer,
    RetrievalFilter,
)
from readreceipt.store.team.pgschema import MIGRATIONS
from teamstore import Team

PAGE = b"<html><head><title>A page</title></head><body><p>" + b"Words of the page. " * 40 \
    + b"</p></body></html>"


@pytest.fixture
def lib(either_library: Library) -> Library:
    return either_library


def test_a_url_filter_finds_its_text_as_written(lib: Library) -> None:
    # % and _ were LIKE wildcards: "alpha_beta" found /alphaXbeta, and "%" every URL.
    wanted = put_capture(lib, "https://w.example/alpha_beta?q=50%25", PAGE, at(0))
    put_capture(lib, "https://w.example/alphaXbeta?q=50x25", PAGE, at(1))
    put_capture(lib, "https://w.example/alpha-beta\\x", PAGE, at(2))
    for text in ("alpha_beta", "50%25", "a_b"):
        found = [r.record_id for r in lib.index.retrievals(RetrievalFilter(url_like=text))]
        assert found == [wanted.record_id], text
    assert lib.index.count_retrievals(RetrievalFilter(url_like="%")) == 1
    assert lib.index.count_retrievals(RetrievalFilter(url_like="_____")) == 0
    assert lib.index.count_retrievals(RetrievalFilter(url_like="beta\\x")) == 1


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_retrievals_are_asked_and_answered_alike(lib: Library) -> None:
    a1 = put_capture(lib, "https://a.example/x", PAGE, at(0), session_id="s1")
    a2 = put_capture(lib, "https://a.example/y", PAGE + b" ", at(5), session_id="s1",
                     final_url="https://a.example/x")
    failed = put_failure(lib, "https://b.example/", at(10))
    assert lib.index.retrieval(a1.record_id) is not None
    assert lib.index.retrieval("nope") is None
    # newest first, by URL asked for or arrived at
    assert [r.record_id for r in lib.index.for_url("https://a.example/x")] == [
        a2.record_id, a1.record_id]
    assert [r.record_id for r in lib.index.for_url("https://a.example/x", limit=1)] == [
        a2.record_id]
    assert lib.index.count_retrievals() == 3
    assert lib.index.count_retrievals(RetrievalFilter(verdict="failed")) == 1
    assert [r.record_id for r in lib.index.retrievals(RetrievalFilter(session_id="s1"))] == [
        a2.record_id, a1.record_id]
    assert [r.record_id for r in lib.index.retrievals(RetrievalFilter(url_like="b.exa"))] == [
        failed.record_id]
    assert [r.record_id for r in lib.index.retrievals(limit=1, offset=1)] == [a2.record_id]
    assert [r.record_id for r in lib.index.all_retrievals()] == sorted(
        [a1.record_id, a2.record_id, failed.record_id])
    assert lib.index.ids_with_prefix(a1.record_id[:-2]) == [a1.record_id]
    # the dedup lookup: only a retrieval that reached a server, within the window
    assert lib.index.newest_reached_since("https://a.example/x", at(1)) == a2.record_id
    assert lib.index.newest_reached_since("https://a.example/x", at(6)) is None
    assert lib.index.newest_reached_since("https://b.example/", at(0)) is None
    assert lib.index.session_capture_count("s1") == 2
    summary = lib.index.summary()
    assert (summary.retrievals, summary.urls, summary.bytes_kept) == (3, 3, 2)
    assert summary.by_verdict() == {"RETRIEVED": 2, "FAILED": 1}
    row = lib.index.retrieval(a1.record_id)
    assert row is not None and row.bytes_kept is True and row.host == "a.example"
    assert lib.index.is_bytes_kept(a1.bytes_sha256 or "")
    assert lib.index.is_text_kept(a1.text_sha256 or "")
    lib.index.set_forgotten([a1.record_id])
    assert lib.index.retrieval(a1.record_id).bytes_kept is False  # type: ignore[union-attr]
    assert not lib.index.is_bytes_kept(a1.bytes_sha256 or "")
    after = lib.index.summary()  # the totals are the groups' sums: forgetting shows in them
    assert (after.retrievals, after.bytes_kept) == (3, 1)
    assert after.by_verdict_reason == (("RETRIEVED", "ok", 2), ("FAILED", failed.reason, 1))


def test_flags_are_claimed_once(lib: Library) -> None:
    record = put_capture(lib, "https://a.example/q", PAGE, at(0))
    new = [NewFlag(record.record_id, record.url, f"passage {i}", None, None, "s9",
                   "sub" if i == 2 else None, at(i)) for i in range(3)]
    assert lib.index.add_flags(new) == new
    assert lib.index.add_flags(new) == []  # the same answer checked again flags nothing new
    assert len(lib.index.flags()) == 3
    assert lib.index.has_unreported_flags("s9", "sub")
    mine = lib.index.claim_unreported_flags("s9", "sub", limit=5)
    assert [f.passage for f in mine] == ["passage 2"] and mine[0].reported_to == "sub"
    assert not lib.index.has_unreported_flags("s9", "sub")
    rest = lib.index.claim_unreported_flags("s9", None, limit=5)
    assert [f.passage for f in rest] == ["passage 0", "passage 1"]
    assert lib.index.claim_unreported_flags("s9", None, limit=5) == []
    lib.index.add_check(AnswerCheck(record.record_id, record.url, "found", None, "ab", "s9",
                                    None))
    assert lib.index.summary().answer_checks == 1


def test_pacing_slots_queue_one_gap_apart_and_are_given_back(lib: Library) -> None:
    clock = Clock(1000.0)
    began = time.monotonic()
    first = lib.index.reserve_pacing_slot("pace.example", 2.0, clock)
    second = lib.index.reserve_pacing_slot("pace.example", 2.0, clock)
    until_second = time.monotonic() - began
    other = lib.index.reserve_pacing_slot("other.example", 2.0, clock)
    lib.index.release_pacing_slot("pace.example", second, 2.0)
    again = lib.index.reserve_pacing_slot("pace.example", 2.0, clock)
    until_again = time.monotonic() - began
    # The team index keeps the schedule on the server's clock and answers in the caller's:
    # the time that passed on the server between the two calls shifts an answer back by that
    # much (never more, never by a gap), so the time measured here around them bounds it.
    assert first == other == 1000.0  # a host with no slot taken starts now
    assert 2.0 - until_second - 0.001 <= second - first <= 2.0 + 1e-6
    assert 2.0 - until_again - 0.001 <= again - first <= 2.0 + 1e-6  # the slot given back is reused
    if not lib.team:
        assert second == again == 1002.0  # one clock: no shift at all


def test_the_robots_cache_lets_one_worker_fetch(lib: Library) -> None:
    now = time.time()

    def fresh(entry: CachedRobots) -> bool:
        return entry.outcome != ROBOTS_PENDING and now - entry.fetched_at < 60

    first = lib.index.claim_robots("https://r.example", now, fresh=fresh, pending_timeout=30)
    assert first.claimed
    waiting = lib.index.claim_robots("https://r.example", now, fresh=fresh, pending_timeout=30)
    assert waiting.wait
    lib.index.store_robots(CachedRobots("https://r.example", now, 200, "User-agent: *\n",
                                        "rules"))
    hit = lib.index.claim_robots("https://r.example", now, fresh=fresh, pending_timeout=30)
    assert hit.entry is not None and hit.entry.body == "User-agent: *\n"
    lib.index.release_robots_claim("https://r.example")  # only a pending claim is released
    assert lib.index.claim_robots("https://r.example", now, fresh=fresh,
                                  pending_timeout=30).entry is not None


def test_probe_answers_and_logs_keep_odd_text(lib: Library) -> None:
    answer = ProbeAnswer("https://p.example", time.time(), "https://p.example/zz", None, 404,
                         "ab" * 32, "not here\x00 at all")
    lib.index.remember_probe_answer(answer)
    held = lib.index.probe_answer_for_origin("https://p.example", time.time() - 60)
    assert held is not None and held.status == 404 and held.text is not None
    assert held.text.startswith("not here") and held.text.endswith(" at all")
    assert lib.index.probe_answer_for_origin("https://p.example", time.time() + 60) is None
    note = "a NUL \x00" + (" and a lone \ud800" if lib.team else "")
    lib.log("skipped.jsonl", {"url": "https://x.example/", "note": note})
    lib.log("skipped.jsonl", {"url": "https://y.example/"})
    entries = list(lib.read_log("skipped.jsonl"))
    assert [e["url"] for e in entries] == ["https://x.example/", "https://y.example/"]
    assert entries[0]["note"] == note  # kept as the JSON escapes it, not dropped
    assert lib.count_log("skipped.jsonl") == 2
    assert list(lib.read_log("flags.jsonl")) == []


def test_audits_are_kept_and_found(lib: Library) -> None:
    first = Audit("a1", "/t/one.jsonl", "s1", at(0), 3, 4, 1, '{"pages": 3}')
    second = Audit("a2", "/t/two.jsonl", None, at(5), 1, 0, 0, "{}")
    lib.index.add_audit(first)
    lib.index.add_audit(second)
    lib.index.add_audit(first)  # kept under its id: the same audit again replaces itself
    assert lib.index.audits() == [second, first]
    assert lib.index.audit("a1") == first and lib.index.audit("zz") is None


def test_migrations_are_applied_once_when_processes_start_together(team: Team) -> None:
    code = ("import sys; from readreceipt.store.team import config; "
            "from readreceipt.store.team.postgres import PostgresIndex; "
            "PostgresIndex(config.resolve(None, index_url=sys.argv[1], "
            "blobs_url=sys.argv[2])).close(); print('ok')")
    procs = [subprocess.Popen([sys.executable, "-c", code, team.index_url, team.blobs_url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outputs
    applied = team.sql("SELECT name FROM readreceipt_migrations ORDER BY name")
    assert [r[0] for r in applied] == [name for name, _ in MIGRATIONS]
    # and in the test's own schema, not elsewhere
    assert team.sql("SELECT count(*) FROM information_schema.tables WHERE table_schema = %s "
                    "AND table_name = 'retrievals'", team.schema) == [(1,)]


def test_a_blob_is_written_once_and_a_second_writer_is_a_no_op(team: Team,
                                                               tmp_path: Path) -> None:
    with Library.locate(tmp_path, index_url=team.index_url, blobs_url=team.blobs_url) as lib:
        digest = lib.put_bytes(b"first body")
        key = f"store/{digest[:2]}/{digest}"
        # Someone wrote other bytes under that key (a bug elsewhere, an attacker): the
        # conditional put never overwrites what is there.
        team.put(key, b"tampered")
        assert lib.put_bytes(b"first body") == digest
        assert team.get(key) == b"tampered"
        checked, problems = lib.verify()
        assert checked == 1
        assert [p.kind for p in problems] == ["digest_mismatch", "orphan_blob"]
        big = bytes(range(256)) * 8192  # 2 MiB: looked for before it is sent, streamed back
        big_digest = lib.put_bytes(big)
        assert lib.blobs.get(big_digest) == big
        assert b"".join(lib.blobs.chunks(big_digest)) == big
        with pytest.raises(KeyError):
            lib.blobs.get("0" * 64)
    assert json.loads(json.dumps(team.object_keys("store/"))) == sorted(team.object_keys("store/"))


def test_a_team_library_opened_and_closed_again_and_again_leaves_nothing_behind(
        team: Team, tmp_path: Path) -> None:
    # The MCP server opens the library for every call: each opening hooked a scrubbing
    # filter to psycopg's loggers that closing left there, one more for every call, for
    # as long as the server ran.
    import logging

    loggers = [logging.getLogger(name) for name in ("psycopg", "psycopg.pool")]
    before = [len(logger.filters) for logger in loggers]
    for _ in range(3):
        with Library.locate(tmp_path, index_url=team.index_url, blobs_url=team.blobs_url):
            assert [len(logger.filters) for logger in loggers] == [n + 1 for n in before]
    assert [len(logger.filters) for logger in loggers] == before


def test_a_record_id_drawn_twice_never_overwrites_the_first_capture(
        lib: Library, server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # An id is a second's stamp and 32 random bits: at a team library's 100 million captures
    # a month, two captures draw the same one about every two months. The second then
    # replaced the first's record and row, and the first capture was gone.
    from readreceipt import pipeline

    monkeypatch.setenv("READRECEIPT_ALLOW_HOSTS", server.pair)
    drawn = "20260101T000000Z-00000001"
    monkeypatch.setattr(pipeline, "new_record_id", lambda: drawn)
    first = pipeline.capture(server.route("/first", article_html()),
                             pipeline.CaptureOptions(now=True), lib)
    second = pipeline.capture(server.route("/second", "<html><body><p>" + "Other words. " * 60
                                           + "</p></body></html>"),
                              pipeline.CaptureOptions(now=True), lib)
    assert first.record.record_id == drawn and second.record.record_id != drawn
    assert lib.load(drawn).url == server.url("/first")
    assert lib.load(second.record.record_id).url == server.url("/second")
    assert second.record_location == lib.record_location(second.record.record_id)
    assert {r.url for r in lib.index.retrievals()} == {server.url("/first"),
                                                       server.url("/second")}


def test_a_body_larger_than_a_multipart_chunk_is_still_written_only_once(
        team: Team, tmp_path: Path) -> None:
    # obstore may send a body over its 5 MiB chunk as a multipart upload, and only a
    # single PUT carries the condition: between the look before sending (put_bytes' HEAD)
    # and the write, another writer's object under the same key must still never be
    # replaced, whatever the size.
    big = bytes(range(256)) * (24 * 1024)  # 6 MiB, under the default 10 MiB size cap
    with Library.locate(tmp_path, index_url=team.index_url, blobs_url=team.blobs_url) as lib:
        digest = hashlib.sha256(big).hexdigest()
        key = lib.blobs.key(digest)
        team.put(key, b"tampered")
        assert lib.blobs.bucket.put_once(key, big) is False
        assert team.get(key) == b"tampered"
        other = big + b"!"
        assert lib.blobs.get(lib.put_bytes(other)) == other
