"""A library copied while it was in use, or mounted read-only, reads complete.

The index is SQLite in WAL mode: rows a command committed may still be in ``index.db-wal``
while another connection (``serve``, a batch) is open. A copy taken then, and later read from
a read-only disk, must show those rows, and ``verify`` must not call their records orphans.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from conftest import LocalServer, article_html, run_cli, tmpfs
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library


def _rows(index: Path) -> int:
    conn = sqlite3.connect(index)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM retrievals").fetchone()[0])
    finally:
        conn.close()


def _read_everything(lib: Path, ids: set[str]) -> None:
    """Every reading command sees every committed retrieval."""
    logged = run_cli("log", "--json", library=lib)
    assert logged.code == 0, logged.stderr
    assert {r["record_id"] for r in logged.json()["retrievals"]} == ids
    assert run_cli("status", "--json", library=lib).json()["retrievals"] == len(ids)
    verified = run_cli("verify", "--json", library=lib)
    assert verified.code == 0, verified.stdout  # no committed record called an orphan
    assert verified.json()["problems"] == []
    for record_id in ids:
        assert run_cli("show", record_id, library=lib).code == 0


def test_a_copy_taken_mid_batch_reads_complete_from_a_read_only_disk(
        allow_server: LocalServer, tmp_path: Path) -> None:
    one = allow_server.route("/one", article_html())
    two = allow_server.route("/two", article_html().replace("four years", "five years"))
    with tmpfs(tmp_path / "live", "8m") as live, tmpfs(tmp_path / "ro", "8m") as ro:
        with Library.open(live / "lib") as lib:
            first = capture(one, CaptureOptions(now=True), lib).record.record_id
        with Library.open(live / "lib") as lib:  # a batch still running: its rows in the WAL
            second = capture(two, CaptureOptions(now=True), lib).record.record_id
            shutil.copytree(live / "lib", ro / "whole")  # index.db, -wal and -shm
            shutil.copytree(live / "lib", ro / "no-shm")
            (ro / "no-shm" / "index.db-shm").unlink()
        assert (ro / "whole" / "index.db-wal").stat().st_size > 0
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        for copy in ("whole", "no-shm"):
            _read_everything(ro / copy, {first, second})
        exported = run_cli("export", "--warc", str(tmp_path / "out.warc"),
                           library=ro / "no-shm")
        assert exported.code == 0, exported.stderr


def test_a_writer_that_closes_leaves_index_db_complete_beside_a_reader(
        allow_server: LocalServer, tmp_path: Path) -> None:
    """``serve`` holds the index open; a capture that ends meanwhile checkpoints, so a copy of
    ``index.db`` alone (as some backup tools take it) holds its row."""
    url = allow_server.route("/one", article_html())
    root = tmp_path / "lib"
    with Library.open(root) as reader:
        reader.index.summary()  # a reader, as the viewer is, keeps the WAL from resetting
        with Library.open(root) as writer:
            capture(url, CaptureOptions(now=True), writer)
        alone = tmp_path / "copy.db"
        shutil.copyfile(root / "index.db", alone)
        assert _rows(alone) == 1
