"""The second reading: an article trafilatura cuts short is read again from its structure.

The failure pages of ``tests/pages/second_reading`` are layouts trafilatura is known to cut
short (an article split into rows with adverts or link rows between them); each test shows
the first reading loses the article's later paragraphs (the control) and the returned one
holds them. Through the real pipeline, the record names the extractor and the quotation
check finds a late passage in the main text; with the second reading switched off, the same
passage is only in the whole page's text.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from conftest import CORPUS, run_cli
from readreceipt.localserver import LocalServer
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.reading import secondreading
from readreceipt.reading.extract import extract
from readreceipt.reading.placement import PageTree, tree
from readreceipt.reading.secondreading import article_evidence, second_reading
from readreceipt.store.library import Library

PAGES = Path(__file__).resolve().parent / "pages" / "second_reading"
FAILURES = sorted(PAGES.glob("*.html"))
ARTICLES = CORPUS / "articles" / "html"


def _tree(html: str) -> PageTree:
    page = tree(html)
    assert page is not None
    return page


def _paragraphs(page: Path) -> list[str]:
    text = page.with_suffix(".truth.txt").read_text("utf-8")
    return [p.strip() for p in text.split("\n\n") if p.strip()]


def test_there_are_failure_pages() -> None:
    assert len(FAILURES) >= 3


@pytest.mark.parametrize("page", FAILURES, ids=lambda p: p.stem)
def test_the_second_reading_recovers_what_the_first_lost(page: Path) -> None:
    ex = extract(page.read_bytes(), "text/html", "utf-8")
    paragraphs = _paragraphs(page)
    reading = ex.second_reading
    assert reading is not None and reading.used, reading
    # The control: trafilatura's own reading lost most of the article.
    lost = [p for p in paragraphs if p not in reading.first_text]
    assert len(lost) >= len(paragraphs) // 2
    # The returned main text holds every paragraph, in order, and nothing of the chrome.
    positions = [ex.main_text.find(p) for p in paragraphs]
    assert -1 not in positions and positions == sorted(positions)
    for chrome in ("Advertisement", "Sign in", "Read also", "About us", "Password"):
        assert chrome not in ex.main_text
    assert ex.extractor.startswith("readreceipt ") and "second reading" in ex.extractor
    assert ex.first_extractor is not None and ex.first_extractor.startswith("trafilatura ")
    assert reading.method == "continuation"


def test_an_article_read_well_is_not_read_again() -> None:
    body = (PAGES / "condenast_rows_adverts_between.truth.txt").read_text("utf-8")
    html = ("<html><head><title>Ferry</title></head><body><nav><a href=/>Home</a></nav>"
            f"<article>{''.join(f'<p>{p}</p>' for p in body.split(chr(10) * 2) if p)}"
            "</article></body></html>")
    ex = extract(html.encode(), "text/html", "utf-8")
    assert ex.second_reading is None
    assert ex.extractor.startswith("trafilatura ")


def test_the_densest_block_stands_in_for_a_reading_that_kept_only_chrome() -> None:
    page = PAGES / "condenast_rows_adverts_between.html"
    html = page.read_text("utf-8")
    slogan = "Independent news from the coast and the islands since 1901"
    reading = second_reading(html, _tree(html), slogan)  # a first reading that kept the tagline
    assert reading is not None and reading.used
    assert reading.method == "densest block"
    assert all(p in reading.text for p in _paragraphs(page))
    assert slogan not in reading.text


def test_a_second_reading_that_adds_nothing_is_not_used() -> None:
    paragraph = ("The harbour board met again on Monday to hear the engineers' report on the "
                 "eastern breakwater, which storms damaged twice last winter and which the board "
                 "must now decide whether to repair or rebuild.")
    other = ("Readers wrote in their hundreds about the breakwater, and these letters are a "
             "small part of what arrived at the office over the weekend, printed as they came.")
    html = ("<html><head><meta property='og:type' content='article'></head><body><main>"
            "<div class='story'><p>" + paragraph + "</p></div>"
            + "".join(f"<div class='letter'><div class='text'><p>{other} ({i})</p></div></div>"
                      for i in range(8)) + "</main></body></html>")
    reading = second_reading(html, _tree(html), paragraph)
    assert reading is not None
    # Continuation from the kept paragraph finds nothing more of its shape: not used.
    assert not reading.used and reading.method == "continuation"


def test_plainly_an_article_needs_evidence() -> None:
    short = "<html><body><main><p>One line about a ferry.</p></main></body></html>"
    assert article_evidence(short, _tree(short)) is None
    og = ("<html><head><meta property='og:type' content='article'></head>"
          "<body><p>One line.</p></body></html>")
    assert article_evidence(og, _tree(og)) == "og:type article"
    ld = ("<html><head><script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script>"
          "</head><body><p>One line.</p></body></html>")
    assert article_evidence(ld, _tree(ld)) == "JSON-LD NewsArticle"


def test_a_page_not_plainly_an_article_gets_no_second_reading() -> None:
    menu = "".join(f"<div class='tile'><p>Tile {i}: opening hours, prices and the way to the "
                   "ticket office, with a map and a note on parking nearby for coaches.</p></div>"
                   for i in range(6))
    html = f"<html><body><div class='hero'><p>Welcome</p></div>{menu}</body></html>"
    reading = second_reading(html, _tree(html), "Welcome")
    assert reading is None  # no run of paragraphs in one block, no publisher markup


@pytest.mark.skipif(not ARTICLES.is_dir(), reason="article corpus not present")
def test_on_the_corpus_only_cut_articles_are_read_again() -> None:
    used = []
    for path in sorted(ARTICLES.glob("*.html.gz")):
        ex = extract(gzip.decompress(path.read_bytes()), "text/html", None)
        if ex.second_reading is not None and ex.second_reading.used:
            used.append(path.name[:8])
            assert len(ex.main_text) > 2 * len(ex.second_reading.first_text)
    # The two Wired pages whose article trafilatura cut after its first block.
    assert sorted(used) == ["2f42ef1d", "d48aeb9c"]


def _capture(server: LocalServer, library_dir: Path, answer: str) -> dict[str, object]:
    page = PAGES / "condenast_rows_adverts_between.html"
    url = server.route("/ferry", page.read_bytes(),
                       headers={"Content-Type": "text/html; charset=utf-8"})
    result = capture(url, CaptureOptions(now=True, render=False, answer=answer),
                     Library.open(library_dir))
    return result.record.to_dict()


def test_the_record_names_the_second_reading_and_quotes_are_checked_on_it(
        allow_server: LocalServer, library_dir: Path) -> None:
    late = _paragraphs(PAGES / "condenast_rows_adverts_between.html")[-1]
    record = _capture(allow_server, library_dir, f'The paper wrote: "{late}"')
    assert record["verdict"] == "RETRIEVED"
    assert str(record["extractor"]).startswith("readreceipt ")
    second = record["second_reading"]
    assert isinstance(second, dict) and second["used"] is True
    assert second["method"] == "continuation" and second["evidence"] == "JSON-LD NewsArticle"
    assert str(second["first_extractor"]).startswith("trafilatura ")
    assert int(second["first_chars"]) < int(second["second_chars"]) == record["text_chars"]
    check = record["answer_check"]
    assert isinstance(check, dict) and check["outcome"] == "found"
    assert [p["tier"] for p in check["passages"]] == ["main"]


def test_without_the_second_reading_the_late_passage_is_only_in_the_page_text(
        allow_server: LocalServer, library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secondreading, "wanted", lambda main, page, chrome=0: False)
    late = _paragraphs(PAGES / "condenast_rows_adverts_between.html")[-1]
    record = _capture(allow_server, library_dir, f'The paper wrote: "{late}"')
    assert record["second_reading"] is None
    assert str(record["extractor"]).startswith("trafilatura ")
    check = record["answer_check"]
    assert isinstance(check, dict)
    assert [p["tier"] for p in check["passages"]] == ["page"]


def test_fetch_writes_the_second_reading(allow_server: LocalServer, library_dir: Path,
                                         tmp_path: Path) -> None:
    page = PAGES / "condenast_rows_adverts_between.html"
    url = allow_server.route("/ferry", page.read_bytes(),
                             headers={"Content-Type": "text/html; charset=utf-8"})
    target = tmp_path / "ferry.md"
    out = run_cli("fetch", url, "--now", "-o", str(target), library=library_dir,
                  allow=allow_server.pair)
    assert out.code == 0, out.stderr
    written = target.read_text("utf-8")
    assert all(p in written for p in _paragraphs(page))


def test_the_second_reading_keeps_what_the_first_wrote_its_own_way() -> None:
    """A list the first reading kept (written its extractor's way, "- item") stays in the
    second, in its place, with the paragraphs of the later rows put in after it."""
    page = PAGES / "condenast_rows_adverts_between.html"
    items = ("<ul><li>Weekday crossings carry three hundred people</li>"
             "<li>Summer weekends carry over a thousand</li></ul>")
    html = page.read_text("utf-8").replace("<p>Councillors", f"{items}<p>Councillors", 1)
    ex = extract(html.encode(), "text/html", "utf-8")
    reading = ex.second_reading
    assert reading is not None and reading.used
    listed = [line for line in reading.first_text.split("\n") if "Weekday" in line]
    assert listed and listed[0].startswith("- "), reading.first_text  # the extractor's way
    paragraphs = _paragraphs(page)
    at = [ex.main_text.find(text) for text in (paragraphs[0], listed[0], paragraphs[1],
                                               paragraphs[-1])]
    assert -1 not in at and at == sorted(at)
    assert ex.main_text.count("Weekday crossings") == 1
