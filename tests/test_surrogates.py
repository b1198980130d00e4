"""Odd text is kept, escaped, never dropped (issue 11, item 9).

A lone surrogate (``"\\ud800"``) is valid JSON and arrives in hook payloads: in the session
id, the URL, the answer. It once lost the record and even the skipped line, though the page
had been fetched. Here each goes through the real hook script, and every store is read back
by the real CLI: the YAML record, the JSON Lines logs and the index rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import LocalServer, article_html, run_cli
from readreceipt.store.library import Library
from test_hook import MISQUOTE, hook, records, silent, skipped, webfetch

LONE = "\ud800"
ESCAPED = "\\ud800"  # the six characters it is stored as


def _payload_bytes(payload: dict[str, Any]) -> bytes:
    # json.dumps writes a lone surrogate as the escape \ud800: valid JSON, as Claude Code's is.
    return json.dumps(payload).encode("ascii")


@pytest.mark.parametrize("where", ["session_id", "answer", "prompt"])
def test_a_lone_surrogate_keeps_the_record(where: str, server: LocalServer,
                                           library_dir: Path) -> None:
    url = server.route("/bridge", article_html())
    payload = webfetch(url, MISQUOTE)
    if where == "session_id":
        payload["session_id"] = f"session-{LONE}"
    elif where == "answer":
        payload["tool_response"]["result"] = MISQUOTE.replace("rigid", f"rigid{LONE}")
    else:
        payload["tool_input"]["prompt"] = f"What did {LONE} say?"
    out = hook("capture", _payload_bytes(payload), library_dir, allow=server.pair)
    assert silent(out), out
    assert len(server.requests) >= 1  # the page was fetched...
    [record] = records(library_dir)  # ...so there is a record, and it parses
    assert record["verdict"] == "RETRIEVED"
    if where == "session_id":
        assert record["session_id"] == f"session-{ESCAPED}"
    if where == "prompt":
        assert record["prompt"] == f"What did {ESCAPED} say?"
    # The index holds its row, and the CLI reads everything back.
    log = run_cli("log", "--json", library=library_dir)
    assert log.code == 0, log.stderr
    [row] = log.json()["retrievals"]
    assert row["record_id"] == record["record_id"]
    shown = run_cli("show", record["record_id"], library=library_dir)
    assert shown.code == 0 and yaml.safe_load(shown.stdout)["record_id"] == record["record_id"]
    # The misquotation was flagged: its JSON line and its index row are there too.
    flags = [json.loads(x) for x in (library_dir / "flags.jsonl").read_text().splitlines()]
    assert flags and all(f["record_id"] == record["record_id"] for f in flags)
    assert run_cli("status", "--json", library=library_dir).json()["flags"] == len(flags)


def test_the_session_id_still_finds_its_flags(server: LocalServer, library_dir: Path) -> None:
    url = server.route("/bridge", article_html())
    session = f"s-{LONE}"
    payload = webfetch(url, MISQUOTE, session=session)
    assert silent(hook("capture", _payload_bytes(payload), library_dir, allow=server.pair))
    report = hook("report", _payload_bytes({**payload, "tool_name": "Bash"}), library_dir)
    assert report.code == 0
    context = json.loads(report.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "is not on" in context


def test_a_lone_surrogate_in_the_url_is_fetched_as_a_browser_would(
        server: LocalServer, library_dir: Path) -> None:
    server.route("/page\ufffd", article_html())
    payload = webfetch(server.url(f"/page{LONE}"), MISQUOTE)
    assert silent(hook("capture", _payload_bytes(payload), library_dir, allow=server.pair))
    [record] = records(library_dir)
    assert record["url"] == server.url("/page%EF%BF%BD")
    assert record["verdict"] == "RETRIEVED"


def test_a_refused_url_with_a_lone_surrogate_keeps_its_skipped_line(
        library_dir: Path) -> None:
    payload = webfetch(f"ftp://example.com/{LONE}", MISQUOTE, session=f"s-{LONE}")
    assert silent(hook("capture", _payload_bytes(payload), library_dir))
    [line] = skipped(library_dir)
    assert line["rule"] == "scheme" and line["session_id"] == f"s-{ESCAPED}"


def test_a_payload_that_is_not_a_capture_keeps_its_skipped_line(library_dir: Path) -> None:
    payload = webfetch("https://example.com/", MISQUOTE, session=f"s-{LONE}")
    payload["tool_name"] = f"Web{LONE}Fetch"
    Library.open(library_dir).close()  # a skip is written to a library there, never makes one
    assert silent(hook("capture", _payload_bytes(payload), library_dir))
    [line] = skipped(library_dir)
    assert line["rule"] == "hook_not_webfetch" and ESCAPED in line["message"]


def test_the_cli_prints_odd_text_escaped(server: LocalServer, library_dir: Path) -> None:
    """An undecodable byte on the command line arrives as a lone surrogate too."""
    url = server.route("/bridge", article_html())
    out = run_cli("capture", url, "--now", "--session", "s-\udcff", "--json",
                  library=library_dir, allow=server.pair)
    assert out.code == 0, out.stderr
    assert out.json()["record_id"]
    [record] = records(library_dir)
    assert record["session_id"] == "s-\\udcff"
