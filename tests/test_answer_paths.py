"""The answer given is checked against the copy a capture answers with, on every path.

A fresh fetch, a copy reused inside the dedup window, a copy another capture made while this
one waited for its host's turn: whichever answers, the answer given with *this* capture is
checked against that copy, reported, written down as an answer check naming it, and decides
the exit code; a capture with no answer reports no check. A reused copy is reported under the
URL asked for, naming the record it reuses and that record's own URL.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import CliResult, LocalServer, article_html
from readreceipt.fetching import politeness
from readreceipt.fetching.politeness import reserve_slot
from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
from readreceipt.store.library import Library

Cli = Callable[..., CliResult]

FAITHFUL = 'The page says "replaced 212 of the bridge\'s 480 bearings with lead-rubber isolators".'
ALTERED = 'The page says "replaced 312 of the bridge\'s 480 bearings with lead-rubber isolators".'


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_a_reused_copy_checks_the_answer_given_not_an_earlier_one(
        cli: Cli, server: LocalServer, tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    bad, good = _file(tmp_path, "bad.md", ALTERED), _file(tmp_path, "good.md", FAITHFUL)
    first = cli("capture", url, "--now", "--json", "--answer", bad)
    assert first.code == 10 and first.json()["answer_check"]["outcome"] == "not_found"
    record_id = first.json()["record_id"]

    # No answer: no check is reported (the copy's earlier one is not this capture's).
    plain = cli("capture", url, "--json")
    assert plain.code == 0, plain.stderr
    assert plain.json()["reused"] is True and "answer_check" not in plain.json()
    human = cli("capture", url)
    assert human.code == 0 and "answer check" not in human.stdout

    # A faithful answer against the same copy: found, exit 0, recorded naming the copy.
    checked = cli("capture", url, "--json", "--session", "s2", "--answer", good)
    assert checked.code == 0, checked.stdout
    data = checked.json()
    assert data["reused"] is True and data["record_id"] == record_id
    assert data["answer_check"]["outcome"] == "found"
    [line] = _lines(library_dir / "answer_checks.jsonl")
    assert (line["record_id"], line["outcome"], line["session_id"]) == (record_id, "found", "s2")
    human = cli("capture", url, "--answer", good)
    assert human.code == 0 and "answer check: found" in human.stdout


def test_a_misquote_against_a_copy_with_no_earlier_check_exits_10(
        cli: Cli, server: LocalServer, tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    record_id = cli("capture", url, "--now", "--json").json()["record_id"]
    out = cli("capture", url, "--json", "--answer", _file(tmp_path, "bad.md", ALTERED))
    assert out.code == 10, out.stdout
    data = out.json()
    assert data["reused"] is True
    passage = data["answer_check"]["passages"][0]
    assert passage["found"] is False and "212" in passage["nearest"]
    [flag] = _lines(library_dir / "flags.jsonl")
    assert flag["record_id"] == record_id
    [line] = _lines(library_dir / "answer_checks.jsonl")
    assert (line["record_id"], line["outcome"]) == (record_id, "not_found")
    human = cli("capture", url, "--answer", _file(tmp_path, "bad.md", ALTERED))
    assert human.code == 10 and "NOT on the page" in human.stdout


@pytest.fixture
def lib(library_dir: Path) -> Iterator[Library]:
    with Library.open(library_dir) as opened:
        yield opened


def test_a_copy_made_while_waiting_for_the_turn_checks_the_answer(
        allow_server: LocalServer, lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """The capture waits for its host's turn (far off: ten slots are taken), another capture
    makes a copy meanwhile, and the waiting one answers with it: its answer is checked."""
    url = allow_server.route("/a", article_html())
    host = allow_server.host
    for _ in range(10):  # the waiting capture's turn is twenty seconds off, at the least
        reserve_slot(lib, host, politeness.MIN_GAP_SECONDS)
    waiting = threading.Event()
    real = politeness.recent_copy
    calls = 0

    def watched(library: Library, asked: str, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:  # the first look is the dedup window's, the second the turn's
            waiting.set()
        return real(library, asked, *args, **kwargs)

    monkeypatch.setattr(politeness, "recent_copy", watched)
    results: list[CaptureResult | BaseException] = []

    def queued() -> None:
        try:
            with Library.open(lib.root) as own:
                results.append(capture(url, CaptureOptions(wait=120, answer=ALTERED,
                                                           session_id="q"), own))
        except BaseException as exc:  # handed to the test's thread
            results.append(exc)

    worker = threading.Thread(target=queued)
    worker.start()
    assert waiting.wait(60), "the capture never waited for its turn"
    made = capture(url, CaptureOptions(now=True), lib)
    worker.join(60)
    [result] = results
    assert isinstance(result, CaptureResult), result
    assert result.reused and result.record.record_id == made.record.record_id
    assert result.exit_code == 10
    assert result.to_json()["answer_check"]["outcome"] == "not_found"
    [flag] = _lines(lib.root / "flags.jsonl")
    assert (flag["record_id"], flag["session_id"]) == (made.record.record_id, "q")


def test_a_reused_copy_is_reported_under_the_url_asked_for(
        cli: Cli, server: LocalServer) -> None:
    page = server.route("/article.html", article_html())
    redirect = server.route("/redirect", status=302, headers={"Location": "/article.html"})
    first = cli("capture", redirect, "--now", "--json").json()
    assert first["final_url"] == page
    out = cli("capture", page, "--json")
    assert out.code == 0, out.stderr
    data = out.json()
    assert data["reused"] is True and data["url"] == page
    assert (data["record_id"], data["record_url"]) == (first["record_id"], redirect)
    human = cli("capture", page).stdout.splitlines()
    assert human[0] == page
    assert f"answered from the copy of {redirect} fetched at" in "\n".join(human)


PAGE_ONE = ("<html><head><title>One</title></head><body><article><h1>The bridge</h1>"
            "<p>The retrofit of the harbour bridge took four years and was finished in the "
            "spring of 2026, two months late.</p>" + "<p>Filler sentence about the bridge and "
            "its long history in the harbour town.</p>" * 12 + "</article></body></html>")
PAGE_TWO = ("<html><head><title>Two</title></head><body><article><h1>The tunnel</h1>"
            "<p>The tunnel under the river was closed for nine weeks while its pumps were "
            "replaced.</p>" + "<p>Filler sentence about the tunnel and the traffic that "
            "crosses the river.</p>" * 12 + "</article></body></html>")
BOTH = ('The first says "the harbour bridge took four years and was finished in the spring of '
        '2026" and the second "the river was closed for nine weeks while its pumps were '
        'replaced".')


def test_an_answer_about_several_pages_is_found_on_any_of_them(
        cli: Cli, server: LocalServer, tmp_path: Path, library_dir: Path) -> None:
    one, two = server.route("/one", PAGE_ONE), server.route("/two", PAGE_TWO)
    out = cli("capture", one, two, "--now", "--json", "--answer",
              _file(tmp_path, "both.md", BOTH))
    assert out.code == 0, out.stdout
    data = out.json()
    check = data["answer_check"]
    assert check["outcome"] == "found"
    assert [(p["found"], p["url"]) for p in check["passages"]] == [(True, one), (True, two)]
    ids = [c["record_id"] for c in data["captures"]]
    assert [p["record_id"] for p in check["passages"]] == ids
    # Each page alone misses the other's quotation; together they hold both.
    assert [(p["url"], p["outcome"]) for p in check["pages"]] == [(one, "not_found"),
                                                                  (two, "not_found")]
    assert all("answer_check" not in c and c["exit_code"] == 0 for c in data["captures"])
    assert not (library_dir / "flags.jsonl").exists()
    # Written down as an answer check naming each page, with the one outcome.
    lines = _lines(library_dir / "answer_checks.jsonl")
    assert [(x["record_id"], x["outcome"]) for x in lines] == [(ids[0], "found"),
                                                               (ids[1], "found")]
    human = cli("capture", one, two, "--answer", _file(tmp_path, "both.md", BOTH))
    assert human.code == 0
    assert f"found on {one}" in human.stdout and f"found on {two}" in human.stdout


def test_a_quotation_on_none_of_the_pages_is_flagged_once(
        cli: Cli, server: LocalServer, tmp_path: Path, library_dir: Path) -> None:
    one, two = server.route("/one", PAGE_ONE), server.route("/two", PAGE_TWO)
    wrong = BOTH.replace("nine weeks", "six weeks")
    out = cli("capture", one, two, "--now", "--json", "--answer",
              _file(tmp_path, "wrong.md", wrong))
    assert out.code == 10
    data = out.json()
    first, second = data["answer_check"]["passages"]
    assert (first["found"], first["url"]) == (True, one)
    assert (second["found"], second["url"]) == (False, two)  # where the nearest passage is
    assert "nine weeks" in second["nearest"]
    [flag] = _lines(library_dir / "flags.jsonl")
    assert (flag["url"], flag["record_id"]) == (two, data["captures"][1]["record_id"])
    human = cli("capture", one, two, "--answer", _file(tmp_path, "wrong.md", wrong))
    assert human.code == 10
    assert "NOT on any of the pages" in human.stdout and f"{two} says" in human.stdout


def test_nothing_checked_has_its_own_exit_code(cli: Cli, server: LocalServer,
                                               tmp_path: Path) -> None:
    """0 is a pass and 10 a flag; an answer that could not be checked is neither."""
    url = server.route("/a", article_html())
    assert cli("capture", url, "--now").code == 0
    empty = _file(tmp_path, "empty.md", "")
    # No quotation, and no figure or name either (a figure is checked: "four years" is)
    plain = _file(tmp_path, "plain.md", "The bridge was retrofitted against earthquakes.")
    assert cli("check", url, "--answer",
               _file(tmp_path, "figure.md", "The retrofit took four years.")).code == 0
    for answer, reason in ((empty, "no_quotation"), (plain, "no_quotation")):
        out = cli("check", url, "--json", "--answer", answer)
        assert out.code == 11, (answer, out.stdout)
        assert out.json()["answer_check"]["reason"] == reason
    human = cli("check", url, "--answer", plain)
    assert human.code == 11 and "not run (no_quotation); this is not a pass" in human.stdout
    assert cli("check", url, "--answer", _file(tmp_path, "good.md", FAITHFUL)).code == 0
    assert cli("forget", url).code == 0
    gone = cli("check", url, "--json", "--answer", _file(tmp_path, "good.md", FAITHFUL))
    assert gone.code == 11
    assert gone.json()["answer_check"]["reason"] == "bytes_forgotten"
    # A capture whose answer holds no quotation: the page was read, the answer not checked.
    assert cli("capture", url, "--answer", plain).code == 11


def test_the_nearest_passage_is_shown_whole_and_without_doubled_marks(
        cli: Cli, server: LocalServer, tmp_path: Path, library_dir: Path) -> None:
    url = server.route("/a", article_html())
    assert cli("capture", url, "--now").code == 0
    answer = _file(tmp_path, "a.md", 'It says "the retrofit took four years and was finished '
                   'in 2026" and "We did not make the bridge stronger, we made it far more '
                   'rigid".')
    out = cli("check", url, "--answer", answer)
    assert out.code == 10
    assert ("the page says: \u201cThe retrofit of the harbour bridge took four years and was "
            "finished in the spring of 2026\u201d") in out.stdout
    assert ("the page says: \u201cWe did not make the bridge stronger, we made it more "
            "forgiving\u201d") in out.stdout
    nearest = {flag["nearest"] for flag in _lines(library_dir / "flags.jsonl")}
    assert "We did not make the bridge stronger, we made it more forgiving" in nearest
