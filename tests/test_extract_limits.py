"""Extraction reads a bounded beginning of a large body, and every reader is told so.

Memory is measured in bench/memory.py (figures, not assertions); these tests hold the
behaviour that makes it bounded: what is read, what the record says, what the verdict and
the answer check conclude from a text that is not the whole page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import LocalServer, article_html, run_cli
from pdfs import make_pdf_pages
from readreceipt.reading import extract as extract_module
from readreceipt.reading.extract import (
    HTML_TEXT_BYTES,
    MAIN_DIRECT_CHARS,
    TEXT_BYTES,
    decode,
    extract,
)
from readreceipt.reading.verdict import exit_code_for

FIRST = "The harbour committee approved the northern quay on Tuesday."
LAST = "This closing sentence sits past the point where extraction stops reading."


def _html_of(size: int, *, tail: str = LAST) -> bytes:
    head = (f"<!doctype html><html><head><meta charset='utf-8'><title>Quay</title></head>"
            f"<body><article><h1>Quay</h1><p>{FIRST}</p>").encode()
    para = (b"<p>The engineers walked the old wall at low tide and counted the cracked "
            b"blocks, one by one, along the whole length of the pier.</p>\n")
    end = f"<p>{tail}</p></article></body></html>".encode()
    count = max(0, (size - len(head) - len(end)) // len(para))
    return head + para * count + end


def test_a_page_within_the_limit_is_read_whole() -> None:
    body = _html_of(200_000)
    result = extract(body, "text/html", "utf-8")
    assert not result.from_prefix
    assert LAST in result.page_text and LAST in result.main_text


def test_html_past_the_limit_is_read_from_its_beginning() -> None:
    body = _html_of(HTML_TEXT_BYTES + 500_000)
    result = extract(body, "text/html", "utf-8")
    assert result.from_prefix
    assert FIRST in result.page_text and FIRST in result.main_text
    assert LAST not in result.page_text
    assert result.html is not None and len(result.html) <= HTML_TEXT_BYTES


def test_large_html_is_read_through_its_visible_markup() -> None:
    """Past MAIN_DIRECT_CHARS the main text comes from the markup without scripts, so a page
    that is mostly script still yields its article, whole."""
    script = "<script>var data = '" + "x" * (MAIN_DIRECT_CHARS + 100_000) + "';</script>"
    body = (f"<!doctype html><html><head><title>Quay</title>{script}</head><body><article>"
            f"<h1>Quay</h1><p>{FIRST}</p>" + "<p>" + ("The tide rose over the old wall. " * 40)
            + f"</p><p>{LAST}</p></article></body></html>").encode()
    assert MAIN_DIRECT_CHARS < len(body) < HTML_TEXT_BYTES
    result = extract(body, "text/html", "utf-8")
    assert not result.from_prefix
    assert FIRST in result.main_text and LAST in result.main_text
    assert "xxxx" not in result.main_text and "xxxx" not in result.page_text


def test_a_character_cut_at_the_limit_does_not_change_the_charset() -> None:
    prefix = b"<html><body><p>" + "caf\u00e9 ".encode() * 10
    body = prefix + b"x" * (HTML_TEXT_BYTES - len(prefix) - 1) + "\u00e9".encode() * 1000
    assert body[HTML_TEXT_BYTES - 1:HTML_TEXT_BYTES + 1] == "\u00e9".encode()
    result = extract(body, "text/html", "utf-8")
    assert result.from_prefix and result.charset == "utf-8"
    assert "caf\u00e9" in result.page_text
    text, used = decode("caf\u00e9".encode()[:-1], "utf-8", partial=True)
    assert (text, used) == ("caf", "utf-8")


def test_plain_text_and_json_past_their_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract_module, "TEXT_BYTES", 1000)
    text = extract(("line of text\n" * 200).encode(), "text/plain")
    assert text.from_prefix and len(text.page_text) <= 1000
    data = json.dumps({"items": [{"body": "a long string of words"}] * 100}).encode()
    result = extract(data, "application/json")
    # The beginning of a JSON document does not parse; it is not called invalid for that.
    assert result.from_prefix and result.error is None
    assert result.main_text == "" and result.page_text == data[:1000].decode()
    whole = extract(data[:900] + b"", "application/json")
    assert whole.error == "invalid_json" and not whole.from_prefix  # a control: cut by itself
    assert TEXT_BYTES == 10 * 1024 * 1024  # the default cap: a body within it is read whole


def test_a_pdf_past_its_text_limit_stops_at_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = make_pdf_pages([["First page of the report."], ["Second page of the report."],
                          ["Third page of the report."]])
    assert not extract(pdf, "application/pdf").from_prefix
    # The limit as the reading in the PDF's own process applies it (a patch of this
    # process's module does not reach that one).
    monkeypatch.setattr(extract_module, "PDF_TEXT_CHARS", 10)
    text, _title, partial, _error = extract_module.read_pdf_here(pdf)
    assert partial
    assert "First page" in text and "Second page" not in text


def test_the_verdict_and_exit_code_of_a_text_from_a_prefix() -> None:
    assert exit_code_for("UNKNOWN", "text_prefix") == 7


@pytest.fixture
def big_page(allow_server: LocalServer) -> str:
    return allow_server.route("/big", _html_of(HTML_TEXT_BYTES + 500_000))


def test_capture_records_a_text_from_a_prefix_and_checks_no_answer(
        big_page: str, library_dir: Path, allow_server: LocalServer) -> None:
    answer = f'The page says "{FIRST}" and "the northern quay was rejected outright".'
    out = run_cli("capture", big_page, "--now", "--json", "--answer", "-", input=answer,
                  library=library_dir, allow=allow_server.pair)
    data = out.json()
    assert out.code == 7, out.stderr
    assert (data["verdict"], data["reason"]) == ("UNKNOWN", "text_prefix")
    assert data["text_from_prefix"] is True and data["truncated"] is False
    # A passage may sit in the part not read: the check does not run rather than cry misquote.
    assert data["answer_check"]["outcome"] == "not_run"
    assert data["answer_check"]["reason"] == "text_prefix"
    record = (library_dir / "records" / f"{data['record_id']}.yaml").read_text("utf-8")
    assert "text_from_prefix: true" in record
    assert not (library_dir / "flags.jsonl").exists()


def test_a_normal_page_is_not_marked(allow_server: LocalServer, library_dir: Path) -> None:
    url = allow_server.route("/article", article_html())
    out = run_cli("capture", url, "--now", "--json", library=library_dir,
                  allow=allow_server.pair)
    assert out.code == 0, out.stderr
    assert out.json()["text_from_prefix"] is False


def test_fetch_writes_the_beginning_and_says_it_was_not_read_whole(
        big_page: str, library_dir: Path, allow_server: LocalServer, tmp_path: Path) -> None:
    target = tmp_path / "big.md"
    out = run_cli("fetch", big_page, "--now", "-o", str(target), library=library_dir,
                  allow=allow_server.pair)
    assert out.code == 7, out.stderr
    written = target.read_text("utf-8")
    assert FIRST in written and LAST not in written
    assert "text_prefix" in written  # the file's header names the verdict's reason


def _heavy_page() -> bytes:
    """A real-shaped heavy page: 3 MiB of inline script (application state) in the head,
    an SVG sprite, then an ordinary article."""
    state = "window.__STATE__ = " + json.dumps(
        [{"id": i, "teaser": "An unrelated story's teaser " * 4} for i in range(25_000)]) + ";"
    pad = 3 * 1024 * 1024 - len(state)
    script = f"<script>{state}/*{'x' * max(pad, 0)}*/</script>"
    sprite = "<svg style='display:none'>" + "<symbol id='s'><path d='M0 0'/></symbol>" * 500 \
        + "</svg>"
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Quay</title>{script}"
            f"</head><body>{sprite}<article><h1>Quay</h1><p>{FIRST}</p>"
            + "".join(f"<p>At low tide on day {day} the engineers walked the old wall again and "
                      f"counted {day * 7} cracked blocks along the pier.</p>"
                      for day in range(1, 31))
            + f"<p>{LAST}</p></article></body></html>").encode()


def test_a_heavy_page_is_read_whole_through_its_visible_markup() -> None:
    body = _heavy_page()
    assert len(body) > HTML_TEXT_BYTES + 1024 * 1024
    # The control: read from its beginning, the page would hold no word of the article.
    assert FIRST.encode() not in body[:HTML_TEXT_BYTES]
    result = extract(body, "text/html", "utf-8")
    assert not result.from_prefix
    assert FIRST in result.main_text and LAST in result.main_text
    assert "teaser" not in result.page_text


def test_capture_of_a_heavy_page_is_retrieved_and_of_a_long_visible_one_text_prefix(
        allow_server: LocalServer, library_dir: Path) -> None:
    heavy = allow_server.route("/heavy", _heavy_page())
    out = run_cli("capture", heavy, "--now", "--json", "--answer", "-",
                  input=f'It says "{LAST}"', library=library_dir, allow=allow_server.pair)
    data = out.json()
    assert out.code == 0, out.stderr
    assert (data["verdict"], data["reason"], data["text_from_prefix"]) == ("RETRIEVED", "ok",
                                                                          False)
    assert data["answer_check"]["outcome"] == "found"
    visible = allow_server.route("/visible", _html_of(3 * 1024 * 1024))
    out = run_cli("capture", visible, "--now", "--json", library=library_dir,
                  allow=allow_server.pair)
    assert out.code == 7, out.stderr
    assert (out.json()["reason"], out.json()["text_from_prefix"]) == ("text_prefix", True)


def test_fetch_writes_a_heavy_page_whole(allow_server: LocalServer, library_dir: Path,
                                         tmp_path: Path) -> None:
    url = allow_server.route("/heavy", _heavy_page())
    target = tmp_path / "heavy.md"
    out = run_cli("fetch", url, "--now", "-o", str(target), library=library_dir,
                  allow=allow_server.pair)
    assert out.code == 0, out.stderr
    written = target.read_text("utf-8")
    assert FIRST in written and LAST in written and "teaser" not in written


def test_the_full_reading_bound_is_the_verdicts_thin_text_bound() -> None:
    from readreceipt.reading.fingerprint import THIN_RATIO_MAX_MAIN_LETTERS

    assert extract_module.FULL_READING_MAX_LETTERS == THIN_RATIO_MAX_MAIN_LETTERS


def test_a_short_main_text_is_read_again_with_trafilaturas_fallbacks() -> None:
    import trafilatura

    page = (Path(__file__).parent / "pages" / "hard_negative"
            / "forum_thread_logged_in_to_view_attachments.html").read_bytes()
    fast_only = trafilatura.extract(page.decode(), include_comments=False, fast=True) or ""
    # The page's reply is what the fast pass drops (so this test can tell the two apart).
    assert "line roller bearing" not in fast_only
    got = extract(page, "text/html", "utf-8")
    assert "line roller bearing" in got.main_text
    assert got.main_text.startswith("Reel squeaks after service")


def test_a_main_text_of_short_lines_is_a_list_and_prose_is_not() -> None:
    states = "\n".join(["Find your senators", "Alabama", "Alaska", "Arizona", "Arkansas"] * 20)
    prose = " ".join(["The committee met on Tuesday to hear the harbour engineers."] * 3)
    assert extract_module._is_list(states)
    assert not extract_module._is_list(f"{prose}\n{states[:200]}")
    assert not extract_module._is_list("")


@pytest.fixture
def trafilatura_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each call of trafilatura's extract from here on, as whether it was the fast pass."""
    import trafilatura

    calls: list[bool] = []
    real = trafilatura.extract

    def counted(*args: object, **kwargs: object) -> str | None:
        calls.append(bool(kwargs.get("fast")))
        return real(*args, **kwargs)  # type: ignore[arg-type]  # the real call, counted

    monkeypatch.setattr(trafilatura, "extract", counted)
    return calls


def test_a_huge_page_with_little_text_is_read_by_trafilatura_once(
        trafilatura_calls: list[bool]) -> None:
    calls = trafilatura_calls
    # Few elements (under the start-tag cap), long attributes: visible markup past the bound.
    cells = f"<td title='{'t' * 240}'></td>" * (MAIN_DIRECT_CHARS // 200)
    page = (f"<html><body><p>A short note.</p><table><tr>{cells}</tr></table>"
            "</body></html>").encode()
    extract(page, "text/html", "utf-8")
    assert calls == [True]
    calls.clear()
    extract(b"<html><body><p>A short note.</p></body></html>", "text/html", "utf-8")
    assert calls == [True, False]  # a short page is read again, with the fallbacks


def test_a_dense_page_with_little_text_is_read_by_trafilatura_once(
        trafilatura_calls: list[bool]) -> None:
    """A list of short lines is read again with the fallbacks, unless its markup holds more
    tags than FULL_READING_MAX_TAGS: then a second reading would cost more than the page's
    bytes say (every element is a node of both trafilatura's trees)."""
    calls = trafilatura_calls
    bound = extract_module.FULL_READING_MAX_TAGS

    def listing(items: int) -> bytes:
        return ("<html><body><ul>" + "<li>Access denied</li>" * items
                + "</ul></body></html>").encode()

    dense = listing(bound // 2 + 10)  # two "<" an item
    assert len(dense) < MAIN_DIRECT_CHARS  # the tags, not the bytes, bind
    got = extract(dense, "text/html", "utf-8")
    assert calls == [True] and "Access denied" in got.main_text
    calls.clear()
    extract(listing(bound // 2 - 10), "text/html", "utf-8")
    assert calls == [True, False]  # within the bound, the list is read again


def test_fetch_writes_a_dense_page_from_one_reading(trafilatura_calls: list[bool],
                                                    allow_server: LocalServer,
                                                    library_dir: Path, tmp_path: Path) -> None:
    """The file for an agent is written by trafilatura with its fallbacks, except from markup
    denser than the capture reads twice: there the fallbacks are a second reading of every
    element, and the file comes from the one reading the capture made too."""
    import readreceipt
    from readreceipt.store.library import Library

    bound = extract_module.FULL_READING_MAX_TAGS
    dense = ("<html><body><ul>" + "<li>Access denied</li>" * (bound // 2 + 10)
             + "</ul></body></html>").encode()
    url = allow_server.route("/dense", dense)
    with Library.open(library_dir) as lib:
        trafilatura_calls.clear()
        result = readreceipt.fetch_page(url, output=tmp_path / "dense.md", library=lib,
                                        now=True)
        assert result.exit_code == 0, result.line()
        assert trafilatura_calls == [True, True]  # the capture's reading, then the file's
        assert "Access denied" in (tmp_path / "dense.md").read_text("utf-8")
        trafilatura_calls.clear()
        plain = allow_server.route("/plain", b"<html><body><p>A short note.</p></body></html>")
        readreceipt.fetch_page(plain, output=tmp_path / "plain.md", library=lib, now=True)
        assert trafilatura_calls[-1] is False  # the file of an ordinary page: fallbacks on


def _pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog), with its xref."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def test_a_pdf_listing_more_pages_than_it_holds_is_read_to_its_last_page() -> None:
    # "/Count 3" over one kid: pdfium fails to load page 2, which ended the capture in
    # "internal error: PdfiumError" with no record and the body's blob orphaned.
    pdf = _pdf_of([
        b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 3 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F0 5 0 R >> >> >>",
        b"<< /Length 44 >>\nstream\nBT /F0 12 Tf 72 700 Td (hello world) Tj ET\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])
    result = extract(pdf, "application/pdf")
    assert "hello world" in result.main_text and result.from_prefix


def test_a_pdf_whose_first_page_cannot_load_is_unreadable() -> None:
    pdf = _pdf_of([b"<< /Type /Catalog /Pages 2 0 R >>",
                   b"<< /Type /Pages /Kids [] /Count 2 >>"])
    result = extract(pdf, "application/pdf")
    assert result.error in ("pdf_unreadable", "pdf_no_text")


def test_a_pdf_page_too_costly_to_read_is_recorded_not_fatal() -> None:
    """One page of a million tiny text runs (28 KB): pdfium builds each (345 MiB for the
    page, 816 with its text page; 4 million took 3.1 GiB). Read in a process of its own
    under a memory limit and the time left, such a PDF is pdf_too_costly, never the end of
    the process that captures it."""
    import zlib

    from readreceipt.reading import pdfchild

    runs = zlib.compress(b"BT /F0 1 Tf " + b"(a) Tj 1 0 Td " * 6_000_000 + b"ET")
    pdf = _pdf_of([
        b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F0 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(runs) + runs
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])
    assert len(pdf) < 200_000
    result = extract(pdf, "application/pdf", seconds=20)
    assert result.error == "pdf_too_costly", (result.error, len(result.main_text))
    assert pdfchild.MAX_MEMORY <= 2 * 1024 ** 3
