"""Progress bars on the long commands (export, verify, capture --from), on a terminal only."""

from __future__ import annotations

import itertools
import json
from datetime import datetime
from pathlib import Path

from conftest import LocalServer, article_html, run_cli, run_on_terminal
from library_builder import article, at, put_capture
from readreceipt.store.library import Library


def small_library(root: Path) -> Path:
    with Library.open(root) as lib:
        for i in range(5):
            put_capture(lib, f"https://site.example/{i}", article(
                f"Page {i}", f"Page {i} holds a paragraph of plain text, long enough to be "
                "read as a page by the extractor."), at(i))
    return root


def test_export_draws_a_bar_on_a_terminal_only(tmp_path: Path) -> None:
    root = small_library(tmp_path / "lib")
    code, _, drawn = run_on_terminal(["export", "--wacz", str(tmp_path / "tty.wacz")],
                                     {"READRECEIPT_LIBRARY": str(root)})
    assert code == 0 and "exporting" in drawn and "5/5" in drawn
    piped = run_cli("export", "--wacz", str(tmp_path / "piped.wacz"), library=root)
    assert piped.code == 0 and "exporting" not in piped.stderr
    code, out, drawn = run_on_terminal(["export", "--warc", str(tmp_path / "j.warc"), "--json"],
                                       {"READRECEIPT_LIBRARY": str(root)})
    assert code == 0 and json.loads(out)["retrievals"] == 5 and "exporting" not in drawn


def test_verify_draws_a_bar_on_a_terminal_only(tmp_path: Path) -> None:
    root = small_library(tmp_path / "lib")
    code, out, drawn = run_on_terminal(["verify"], {"READRECEIPT_LIBRARY": str(root)})
    assert code == 0 and "verifying" in drawn
    assert "15 blobs, texts and records checked; 0 problems" in out  # 10 blobs, 5 records
    piped = run_cli("verify", library=root)
    assert piped.code == 0 and "verifying" not in piped.stderr


def test_capture_from_a_file_is_paced_with_a_bar(tmp_path: Path, server: LocalServer) -> None:
    for name in ("one", "two", "three"):
        server.route(f"/{name}", article_html().replace("harbour", f"harbour {name}"))
    urls = tmp_path / "urls.txt"
    urls.write_text("# three pages of one host\n" + "".join(
        server.url(f"/{n}") + "\n" for n in ("one", "two", "three")))
    env = {"READRECEIPT_LIBRARY": str(tmp_path / "lib"), "READRECEIPT_ALLOW_HOSTS": server.pair}
    code, out, drawn = run_on_terminal(["capture", "--from", str(urls)], env)
    assert code == 0, out + drawn
    assert "capturing" in drawn and "/three" in drawn
    with Library.open(tmp_path / "lib") as lib:
        rows = sorted(lib.index.retrievals(limit=None), key=lambda r: r.fetched_at)
    assert [r.url.rsplit("/", 1)[1] for r in rows] == ["one", "two", "three"]
    times = [datetime.fromisoformat(r.fetched_at.replace("Z", "+00:00")) for r in rows]
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    assert all(gap >= 1.9 for gap in gaps), gaps  # each waited for its turn, none declined
