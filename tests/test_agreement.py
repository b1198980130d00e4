"""Answer agreement: an answer rich in specifics none of which is on a short copy says the copy
is not the page the agent read (UNKNOWN copy_differs, the overlap recorded), never that the
agent misquoted; an answer about the page it was given keeps the page read.

Through the real capture pipeline and the real CLI against a real HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import CliResult, LocalServer, article_html
from readreceipt.reading.agreement import MAX_LOOKUPS, agreement, disagrees, held_words, specifics

Cli = Callable[..., CliResult]

#: What an agent wrote after reading the harbour-bridge article (the demo's own page).
ANSWER = ("The retrofit of the harbour bridge took four years and finished in 2026. Engineers "
          "replaced 212 of the bridge's 480 bearings with lead-rubber isolators, so the deck can "
          "move 60 centimetres sideways. It cost 318 million, about 9 percent over budget; the "
          "north approach needed 46 new steel piles. The transport authority counted 94,000 "
          'crossings a day. The chief engineer said "We did not make the bridge stronger, we '
          'made it more forgiving," at the reopening.')

#: A short page standing in the article's place, in words no table has (a members' gate
#: with no form the structure rules read).
STAND_IN = ("<html><head><title>Harbour Courier</title></head><body><main><h1>Harbour Courier"
            "</h1><p>Welkom terug. Deze pagina is even niet te bekijken; kom straks nog eens "
            "langs. Leden kunnen intussen het weekoverzicht lezen in de app, en wie nog geen "
            "lid is, vindt bij de balie van de bibliotheek een folder met alle informatie over "
            "de abonnementen en de prijzen voor studenten.</p></main></body></html>")


def test_the_specifics_of_an_answer() -> None:
    numbers, names, words = specifics(ANSWER)
    assert {"212", "480", "318", "94000", "2026"} <= numbers
    assert "engineers" not in names  # opens a sentence
    assert {"isolators", "centimetres", "crossings"} <= words


def test_an_answer_agrees_with_the_page_it_was_read_from() -> None:
    page = article_html()
    agreed = agreement(ANSWER, page, page)
    assert agreed.specifics >= 15 and agreed.share > 0.8
    assert not disagrees(agreed, page)


def test_a_short_copy_holding_none_of_the_specifics_disagrees() -> None:
    agreed = agreement(ANSWER, "Welkom terug. Deze pagina is even niet te bekijken.",
                       "Harbour Courier Welkom terug.")
    assert agreed.found <= 1 and disagrees(agreed, "Welkom terug. Deze pagina is even niet.")
    # A long copy is a page: disagreeing with it is the answer's own matter.
    assert not disagrees(agreed, "word " * 400)
    # An answer with few specifics says too little to judge a copy by.
    assert not disagrees(agreement("It is about a bridge.", "x", "x"), "x")


def test_capture_with_an_answer_about_another_page_is_copy_differs_not_a_misquote(
        cli: Cli, server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/news/bridge", STAND_IN)
    answer = tmp_path / "answer.md"
    answer.write_text(ANSWER, encoding="utf-8")
    plain = cli("capture", url, "--now", "--json")
    assert plain.json()["verdict"] == "RETRIEVED", plain.json()  # the page alone reads
    done = cli("capture", url, "--now", "--json", "--answer", str(answer))
    data = done.json()
    assert (data["verdict"], data["reason"]) == ("UNKNOWN", "copy_differs"), data
    assert data["rule"].startswith("answer:")
    assert done.code == 8  # not the page; never 10, the agent is not flagged
    check = data["answer_check"]
    assert check["outcome"] == "not_run" and check["reason"] == "copy_differs"
    assert check["overlap"]["specifics"] >= 8 and check["overlap"]["found"] <= 1
    # The same answer against the page itself: read, and the quotation found.
    good = cli("capture", server.route("/news/bridge-2", article_html()), "--now", "--json",
               "--answer", str(answer))
    assert good.code == 0, good.stdout
    assert good.json()["verdict"] == "RETRIEVED"
    assert good.json()["answer_check"]["outcome"] == "found"
    assert good.json()["answer_check"]["overlap"]["share"] > 0.8


def test_check_against_a_held_short_copy_does_not_flag_the_agent(
        cli: Cli, server: LocalServer, tmp_path: Path) -> None:
    url = server.route("/news/held", STAND_IN)
    held = cli("capture", url, "--now", "--json")
    assert held.code == 0
    answer = tmp_path / "answer.md"
    answer.write_text(ANSWER, encoding="utf-8")
    checked = cli("check", url, "--answer", str(answer), "--json")
    data = checked.json()
    assert data["answer_check"]["outcome"] == "not_run", data
    assert data["answer_check"]["reason"] == "copy_differs"
    assert data["answer_check"]["overlap"]["found"] <= 1
    assert checked.code != 10


def _every_word(text: str) -> set[str]:
    """The copy's words read one by one, as the agreement read them before it looked up only
    the answer's: the reference the lookups must give."""
    return {m.group(0).lower() for m in re.finditer(r"[^\W\d_]{2,60}", text)}


@pytest.mark.parametrize("copy", [
    "The harbour bridge carried crossings; harbourmaster Roe and the bridges' crossing.",
    "crossings" * 300 + " crossings",  # one word standing too often: every word read
    "İstanbul harbour İİİ crossings",  # lowering changes the length: every word read
    "ΟΔΟΣ harbour, Straße crossings",
])
def test_the_words_looked_up_are_the_words_the_copy_holds(copy: str) -> None:
    wanted = frozenset(("harbour", "crossings", "bridge", "roe", "straße", "οδος", "istanbul",
                        "bridges", "crossing", "master"))
    assert held_words(copy, wanted) == wanted & _every_word(copy)


def test_an_answer_of_many_words_reads_every_word_of_the_copy_once() -> None:
    copy = " ".join(f"word{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(400))
    wanted = frozenset(f"word{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(0, 800, 3))
    assert len(wanted) > MAX_LOOKUPS
    assert held_words(copy, wanted) == wanted & _every_word(copy)
    assert held_words(copy, wanted)  # some are held, some not
    assert held_words(copy, wanted) != wanted


def test_the_numbers_of_a_page_of_numbers_are_read_one_at_a_time() -> None:
    """Only the answer's numbers are kept while the copy's are read: a page of hundreds of
    thousands of numbers costs no list of its matches (a 10 MiB one held about 250 MiB)."""
    import tracemalloc

    from readreceipt.reading.agreement import numbers_held

    page = " ".join(str(100_000 + i) for i in range(300_000))
    tracemalloc.start()
    try:
        held = numbers_held(page, frozenset({"100007", "399999", "12"}))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert held == {"100007", "399999"}
    # The digits' places listed up to their cap (MAX_POSITIONS ints), and no match kept.
    assert peak < 8_000_000, peak
    found = agreement("The counts were 100,007 and 399,999.", page, page)
    assert (found.specifics, found.found) == (2, 2)
