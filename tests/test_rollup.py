"""``status`` answers from a rollup kept as rows change, on both indexes.

- it reads no retrieval row: SQLite's authorizer refuses every read of ``retrievals`` and the
  summary still answers; PostgreSQL answers while another session holds the table locked;
- after captures by several processes at once, answers checked and flagged, ``forget``, a
  record written again under its id, rows deleted by hand and (team) a ``push``, the rollup
  equals a count of every row;
- the migration counts the rows already there.
"""

from __future__ import annotations

import sqlite3
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, LocalServer, article_html, clean_env, run_cli
from library_builder import at, put_capture, put_failure
from readreceipt.store.library import Library
from readreceipt.store.local import sqlite as local_sqlite
from teamstore import Team, library_env

ANSWER = 'The page says "the harbour bridge took four hundred years to build" and more.'


@pytest.fixture
def lib(either_library: Library) -> Library:
    return either_library


def _env(lib: Library, server: LocalServer) -> dict[str, str]:
    return library_env(lib, server.pair)


def _delete_rows(lib: Library, sql: str, *params: str) -> None:
    """Run ``sql`` (``?`` placeholders) on the index as another program would."""
    if lib.team is not None:
        import psycopg

        with psycopg.connect(lib.team.index_url, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s").encode(), params)
    else:
        with sqlite3.connect(lib.root / "index.db") as conn:
            conn.execute(sql, params)


@pytest.mark.slow
def test_the_rollup_equals_a_full_count_after_everything(lib: Library, server: LocalServer,
                                                          tmp_path: Path) -> None:
    pages = [server.route(f"/p{n}", article_html().replace("318 million", f"{n} million"))
             for n in range(12)]
    env = clean_env(**_env(lib, server))
    # four processes capturing at once, two of the URLs twice, one answer flagged each
    procs = [subprocess.Popen([str(BIN / "readreceipt"), "capture", *pages[w::4], pages[0],
                               "--now", "--answer", "-", "--json"], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for w in range(4)]
    for proc in procs:
        _, err = proc.communicate(ANSWER.encode(), timeout=600)
        assert proc.returncode in (0, 10), err.decode()[-2000:]
    missing = run_cli("capture", server.url("/missing"), "--now", env=_env(lib, server))
    assert missing.code == 5
    checked = run_cli("check", pages[3], "--answer", "-", input=ANSWER, env=_env(lib, server))
    assert checked.code == 10
    summary = lib.index.summary()
    assert summary.retrievals == 17 and summary.urls == 13 and summary.flags >= 4
    assert summary.answer_checks >= 1
    # forget, and a record written again under its id (another verdict, another URL)
    forgotten = lib.forget(pages[1])
    assert forgotten
    again = lib.resolve(pages[2])[0]
    lib.save(again.replace(verdict="UNKNOWN", reason="wall:login", url=pages[5]))
    put_capture(lib, "https://example.org/built", b"<html><body>" + b"<p>word </p>" * 50
                + b"</body></html>", at(1), reason="ok")
    put_failure(lib, "https://example.org/gone", at(2))
    _delete_rows(lib, "DELETE FROM retrievals WHERE url = ?", pages[7])
    _delete_rows(lib, "DELETE FROM flags WHERE id IN (SELECT MIN(id) FROM flags)")
    if lib.team is not None:  # a local library handed in, some of it already there
        local = tmp_path / "laptop" / ".readreceipt"
        with Library.open_local(local) as laptop:
            put_capture(laptop, "https://example.org/laptop", article_html().encode(), at(3))
        assert run_cli("push", str(local), env=_env(lib, server)).code == 0
    assert lib.index.summary() == lib.index.counted_summary()  # type: ignore[attr-defined]


def test_the_migration_counts_what_was_there(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for name, sql in local_sqlite.MIGRATIONS:
        if name.startswith("0008"):
            break
        assert isinstance(sql, str)
        for statement in sql.split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    conn.executemany("INSERT INTO migrations VALUES (?, 'then')",
                     [(n,) for n, _ in local_sqlite.MIGRATIONS if n < "0008"])
    conn.executemany("INSERT INTO retrievals (record_id, url, fetched_at, verdict, reason, "
                     "bytes_kept, answer_outcome) VALUES (?, ?, 't', ?, ?, ?, ?)",
                     [(f"r{i}", f"https://e.org/{i % 7}", "RETRIEVED" if i % 3 else "FAILED",
                       "ok" if i % 3 else "timeout", i % 2, "found" if i % 5 == 0 else None)
                      for i in range(50)])
    conn.close()
    index = local_sqlite.SQLiteIndex(path)
    try:
        summary = index.summary()
        assert summary == index.counted_summary()
        assert (summary.retrievals, summary.urls, summary.bytes_kept) == (50, 7, 25)
    finally:
        index.close()


def test_status_reads_no_retrieval_row_local(tmp_path: Path) -> None:
    with Library.open(tmp_path / "lib") as lib:
        for n in range(3):
            put_capture(lib, f"https://example.org/{n}", article_html().encode(), at(n))
        conn = lib.index._conn  # type: ignore[attr-defined]

        def no_retrievals(action: int, table: str | None, *_: object) -> int:
            return sqlite3.SQLITE_DENY if table == "retrievals" else sqlite3.SQLITE_OK

        conn.set_authorizer(no_retrievals)
        try:
            summary = lib.index.summary()
        finally:
            conn.set_authorizer(None)
        assert summary.retrievals == 3 and summary.urls == 3


def test_status_reads_no_retrieval_row_team(team: Team, tmp_path: Path) -> None:
    import psycopg

    lib = Library.locate(tmp_path / "here", index_url=team.index_url, blobs_url=team.blobs_url)
    with lib:
        for n in range(3):
            put_capture(lib, f"https://example.org/{n}", article_html().encode(), at(n))
        lib.log("skipped.jsonl", {"url": "https://example.org/refused"})
        answered: list[tuple[int, int]] = []
        with psycopg.connect(team.index_url) as holder:
            holder.execute("LOCK TABLE retrievals, log_entries IN ACCESS EXCLUSIVE MODE")
            asking = threading.Thread(
                target=lambda: answered.append((lib.index.summary().retrievals,
                                                lib.count_log("skipped.jsonl"))), daemon=True)
            asking.start()
            asking.join(60)  # the lock is held all this while: a count of rows would wait
            done_while_locked = list(answered)
            holder.rollback()
        asking.join(60)
        assert done_while_locked == [(3, 1)]


def test_statements_of_many_rows_keep_the_team_rollup_exact(team: Team, tmp_path: Path) -> None:
    # A COPY, a DELETE and an UPDATE of many rows each move the counts once (statement
    # triggers over their transition tables), URLs repeated within one statement included.
    import psycopg

    lib = Library.locate(tmp_path / "here", index_url=team.index_url, blobs_url=team.blobs_url)
    with lib:
        put_capture(lib, "https://example.org/u/1", article_html().encode(), at(1))
        with psycopg.connect(team.index_url, autocommit=True) as conn:
            with conn.cursor() as cur, cur.copy(
                    "COPY retrievals (record_id, url, final_url, host, fetched_at, verdict, "
                    "reason, bytes_kept, answer_outcome) FROM STDIN") as copy:
                for i in range(3000):
                    url = f"https://example.org/u/{i % 700}"
                    copy.write_row((f"20260101T000000Z-{i:08x}", url, url, "example.org",
                                    "2026-01-01T00:00:00Z", "RETRIEVED" if i % 4 else "FAILED",
                                    "ok" if i % 4 else "timeout", i % 3 == 0,
                                    "found" if i % 5 == 0 else None))
            assert lib.index.summary() == lib.index.counted_summary()  # type: ignore[attr-defined]
            conn.execute("DELETE FROM retrievals WHERE url LIKE '%/u/1%' OR record_id LIKE '%5'")
            conn.execute("UPDATE retrievals SET url = 'https://example.org/moved', "
                         "verdict = 'UNKNOWN', reason = 'thin_text' WHERE record_id LIKE '%a'")
        summary = lib.index.summary()
        assert summary == lib.index.counted_summary()  # type: ignore[attr-defined]
        assert 0 < summary.urls < 700 and summary.retrievals < 3001


def test_the_team_s_log_counts_are_kept_and_count_what_was_there(team: Team,
                                                                 tmp_path: Path) -> None:
    # status's "refused or declined" is skipped.jsonl's entries: on the team library a row
    # count of log_entries grew with them; the rollup keeps it (migration 0009).
    lib = Library.locate(tmp_path / "here", index_url=team.index_url, blobs_url=team.blobs_url)
    with lib:
        for n in range(5):
            lib.log("skipped.jsonl", {"url": f"https://example.org/{n}", "reason": "robots"})
        lib.log("flags.jsonl", {"url": "https://example.org/f"})
        team.sql("DELETE FROM log_entries WHERE id = (SELECT MIN(id) FROM log_entries)")
        index: Any = lib.index
        for name, entries in (("skipped.jsonl", 4), ("flags.jsonl", 1), ("audits.jsonl", 0)):
            assert lib.count_log(name) == index.counted_log(name) == entries
    # entries written before the migration: counted once when it is applied
    team.sql("DROP TRIGGER rollup_log_entries_inserted ON log_entries")
    team.sql("DROP TRIGGER rollup_log_entries_deleted ON log_entries")
    team.sql("DROP FUNCTION readreceipt_rollup_logs()")
    team.sql("DELETE FROM rollup_counts WHERE name LIKE 'log:%%'")
    team.sql("DELETE FROM readreceipt_migrations WHERE name = '0009_log_counts'")
    team.sql("INSERT INTO log_entries (log, line) VALUES ('skipped.jsonl', '{}')")
    with Library.locate(tmp_path / "here", index_url=team.index_url,
                        blobs_url=team.blobs_url) as again:
        assert again.count_log("skipped.jsonl") == 5
        again.log("skipped.jsonl", {"url": "https://example.org/late"})
        assert again.count_log("skipped.jsonl") == 6
