"""No page, answer or file can make readreceipt work without bound (issue 20).

Each kind of untrusted text the attacker's pass used is here at two sizes, and the work the
package does on it (lines of its own code run, tests/work.py; the regular expressions have
their own audit, tests/test_regex_audit.py) at most a little more than doubles when the
input doubles. The caps are tested where they bind, and a capture whose reading and judging
pass its deadline is recorded UNKNOWN ``timeout``. Speed itself is measured in
bench/hostile.py, never here.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import LocalServer
from pdfs import make_shared_stream_pdf
from readreceipt.agents.fence import strip_hidden_html
from readreceipt.agents.hiddenhtml import MAX_CSS_DEPTH, plain_rules
from readreceipt.fetching.deadline import Deadline
from readreceipt.quotes.marks import MAX_OPEN_MARKS, quoted_spans
from readreceipt.quotes.quotations import (
    MAX_NEAREST,
    MAX_QUOTATIONS,
    check_answer_text,
    find_quotations,
)
from readreceipt.reading.extract import PDF_MAX_PAGES, extract
from readreceipt.reading.facts import WALL_TEXT_CHARS, Facts, PageView
from readreceipt.reading.jsontext import MAX_JSON_VALUES, STREAMED_EXTRACTOR
from readreceipt.reading.markup import (
    MAX_ATTRIBUTES,
    MAX_ELEMENTS,
    MAX_PAGE_ATTRIBUTES,
    prepare,
)
from work import grows_linearly, lines_run

PAGE = "The council voted on Tuesday to approve the new harbour plan after a long debate. "


# --- hidden text (agents/hiddenhtml.py, agents/fence.py) ------------------------------------


def _nested(depth: int, inner: str) -> str:
    return "<html><body>" + "<div>" * depth + inner * depth + "</div>" * depth + \
        "</body></html>"


def test_hidden_spans_under_deep_nesting_are_stripped_in_linear_work() -> None:
    """10,000 nested divs holding 10,000 hidden spans took 18.5 s: every span walked up to
    the root looking for a hidden ancestor."""
    grows_linearly(lambda d: _nested(d, "<span hidden>x</span>"), strip_hidden_html, 300)


def test_coloured_text_under_deep_nesting_finds_its_background_in_linear_work() -> None:
    grows_linearly(lambda d: _nested(d, '<span style="color:#fefefe">x</span>'),
                   strip_hidden_html, 300)


def test_hidden_text_is_still_stripped() -> None:
    html = _nested(50, '<span hidden>secret</span><span style="color:#fff">white</span>')
    html = html.replace("<body>", "<body><p>shown</p>")
    out, count = strip_hidden_html(html)
    assert "shown" in out and "secret" not in out and "white" not in out
    assert count == 100


@pytest.mark.parametrize("make", [
    lambda n: "a" * n,                      # 30 KB of "a" in a style took 13 s
    lambda n: "@a " * (n // 3),             # 5.5 s
    lambda n: "@media a{" * (n // 9),       # 10,000 nested: 40 s
    lambda n: "/*" * (n // 2),
    lambda n: ".x{display:none}" * (n // 16),
], ids=["letters", "at-words", "nested-media", "comment-openers", "rules"])
def test_style_sheets_are_read_in_linear_work(make: Any) -> None:
    grows_linearly(make, plain_rules, 3000)


def test_style_rules_outside_conditional_blocks_only() -> None:
    css = (".a{display:none} @media print{.b{display:none}} @supports (x:y){@media z{.c{x:y}}}"
           " /* .d{display:none} */ @import url(x); .e{opacity:0}")
    assert [s.strip() for s, _ in plain_rules(css)] == [".a", ".e"]


def test_style_nesting_past_the_cap_is_not_read() -> None:
    deep = "a{" * MAX_CSS_DEPTH + "}" * MAX_CSS_DEPTH
    assert [s for s, _ in plain_rules(deep + ".x{display:none}")] == ["a", ".x"]
    assert plain_rules("a{" * (MAX_CSS_DEPTH + 1) + ".x{display:none}") == []


def test_a_page_style_sheet_still_hides() -> None:
    html = ("<html><head><style>.sneaky{display:none} @media print{.p{display:none}}</style>"
            "</head><body><p>shown</p><p class=sneaky>hidden words</p><p class=p>print</p>"
            "</body></html>")
    out, count = strip_hidden_html(html)
    assert "hidden words" not in out and "print" in out and count == 1


# --- quotation marks and the quotation check (quotes/) ---------------------------------------


def test_nested_openers_are_paired_in_linear_work() -> None:
    """The opener chain of issue 20 (4,000 times, 48 KB) took 6.5 s to find quotations in,
    7 s more to check."""
    grows_linearly(lambda n: '"a \u201cb \u2018c \u00abd ' * n, quoted_spans, 400)


def test_a_mark_that_can_only_open_past_the_cap_costs_a_few_lines() -> None:
    """Linear was not enough: at the 1 MiB answer cap the chain holds 350,000 marks, and each
    asked every open passage whether it closed one (36 lines of work a mark, 1.8 s of CPU).
    With 8 open, a mark none of them can close is text at once."""
    answer = '"a \u201cb \u2018c \u00abd ' * 2000
    marks = 4 * 2000
    assert lines_run(quoted_spans, answer)[1] <= 10 * marks


def test_apostrophes_after_s_are_judged_in_linear_work() -> None:
    """An opening single mark, then "the workers' union" (a closing single mark after an s)
    many times: each asked whether a later one closes."""
    grows_linearly(lambda n: "\u2018" + "the workers\u2019 union " * n, quoted_spans, 400)


def test_straight_marks_inside_a_curly_quotation_are_judged_in_linear_work() -> None:
    grows_linearly(lambda n: "\u201c" + 'the 12" pipe ' * n, quoted_spans, 400)


def test_openers_past_the_cap_are_text() -> None:
    text = "\u00ab" * (MAX_OPEN_MARKS + 5) + "x" * 40 + "\u00bb" * (MAX_OPEN_MARKS + 5)
    spans = quoted_spans(text)
    assert len(spans) == 1
    # The outermost pair is still found; the openers past the cap are part of its text.
    assert spans[0][1].count("\u00ab") == MAX_OPEN_MARKS + 4


def test_quotations_past_the_cap_are_counted_not_checked() -> None:
    page = PAGE * 200
    answer = " ".join(f'"the council voted on Tuesday to approve plan number {i}"'
                      for i in range(MAX_QUOTATIONS + 50))
    passages, _ = find_quotations(answer)
    assert len(passages) == MAX_QUOTATIONS + 50
    check = check_answer_text(answer, main_text=page, page_text=page)
    assert len(check.passages) == MAX_QUOTATIONS and check.unchecked == 50
    assert check.outcome == "not_found"
    assert sum(p.nearest is not None for p in check.passages) == MAX_NEAREST
    assert check.to_dict()["unchecked"] == 50


def test_a_check_past_its_deadline_is_not_run() -> None:
    page = PAGE * 10
    answer = '"the council voted on Tuesday to approve the new harbour plan"'
    passed = Deadline(1.0, time.monotonic() - 1)
    check = check_answer_text(answer, main_text=page, page_text=page, deadline=passed)
    assert (check.outcome, check.reason, check.unchecked) == ("not_run", "timeout", 1)
    done = check_answer_text(answer, main_text=page, page_text=page)
    assert done.outcome == "found"


def test_a_long_digit_run_is_checked() -> None:
    digits = "1" * 16_000
    page = f"The figure was {digits} and the council voted. " + PAGE
    found = check_answer_text(f'"the figure was {digits} and the council voted"',
                              main_text=page, page_text=page)
    assert found.outcome == "found"


# --- the table rules read a bounded text --------------------------------------------------------


def test_the_table_rules_read_a_bounded_text() -> None:
    """1 MiB without spaces took over 120 s in the wall rules; they now read a bounded part of
    a page whose main text is short (a wall's is: the gates)."""
    big = "x" * (4 * WALL_TEXT_CHARS)
    view = PageView("http://a.test/", "http://a.test/", 200, {}, "text/html", "<p>x</p>", big,
                    big, len(big))
    assert len(Facts(view).text) <= 2 * WALL_TEXT_CHARS + 100


# --- PDF pages and elements -------------------------------------------------------------------


def test_a_pdf_is_read_to_its_page_cap() -> None:
    """60,000 pages sharing one content stream took 9.3 s and were called RETRIEVED."""
    result = extract(make_shared_stream_pdf(PDF_MAX_PAGES + 40), "application/pdf")
    assert result.from_prefix is True
    assert result.main_text.count("one page of many") == PDF_MAX_PAGES


def test_markup_is_read_to_its_element_cap() -> None:
    body = b"<html><body>" + b"<b>a</b>" * (MAX_ELEMENTS + 100) + b"</body></html>"
    prepared = prepare(body, len(body) * 2)
    assert prepared.complete is False
    assert prepared.markup.count(b"<b>") == MAX_ELEMENTS - 2  # html and body are elements
    within = b"<html><body>" + b"<b>a</b>" * 1000 + b"</body></html>"
    assert prepare(within, len(within) * 2).markup is within


def _attributes(count: int, value: bytes = b"") -> bytes:
    return b" ".join(b"a%d%s" % (i, value) for i in range(count))


def _attribute_counts(markup: bytes) -> list[int]:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(markup.decode())
    return [len(node.attributes) for node in tree.root.traverse()] if tree.root else []


@pytest.mark.parametrize("limit", [1 << 21, 8000], ids=["within-the-limit", "past-it"])
def test_a_tag_keeps_its_first_attributes_up_to_the_cap(limit: int) -> None:
    """Both parsers check each attribute against the tag's earlier ones, so one tag of many
    attributes costs the square of them: past the cap they are left out, the text stays."""
    body = (b"<html><body><p>" + PAGE.encode() + b"</p><div " + _attributes(3000, b'="v"')
            + b">kept text</div><svg><circle " + _attributes(400) + b" /></svg><script "
            + _attributes(300) + b">var a = 1;</script></body></html>")
    prepared = prepare(body, limit)
    assert max(_attribute_counts(prepared.markup)) == MAX_ATTRIBUTES
    assert max(_attribute_counts(body)) == 3000  # the cap, not the parser, made the difference
    assert b"a255" in prepared.markup and b"a256" not in prepared.markup
    assert b'a255="v" >kept text</div>' in prepared.markup
    if limit > len(body):
        assert prepared.attributes_cut == 3
        assert b"a255 /></svg>" in prepared.markup  # the foreign element still closes itself
    else:  # the svg is taken out whole, the script's contents too; its start tag is cut
        assert (prepared.attributes_cut, prepared.complete) == (2, True)
        assert b"a255 ></script>" in prepared.markup
    page_text = extract(body, "text/html", "utf-8").page_text
    assert "kept text" in page_text and PAGE.strip() in page_text


def test_a_tag_at_the_attribute_cap_is_left_as_it_came_and_one_past_it_is_cut() -> None:
    body = (b"<html><body><div " + _attributes(MAX_ATTRIBUTES, b"='a b c'")
            + b">x</div><p title='" + b"w " * 5000 + b"'>y</p></body></html>")
    assert prepare(body, len(body) * 2).markup is body
    # Over 100,000 "<": the pass within the limit reads such a body token by token.
    searched = b"<html><body><p>" + b"1 < 2 " * 100_001 + b"<i " + _attributes(2000) + b">b</i>"
    assert prepare(searched, len(searched) * 2).attributes_cut == 1


@pytest.mark.parametrize("texts", [0, 110_000], ids=["tokens-listed", "tokens-searched"])
def test_markup_is_read_to_its_attribute_cap(texts: int) -> None:
    """Every attribute costs the parsers' trees about half a kilobyte: short ones by the
    hundred thousand in a body within the limit are read up to MAX_PAGE_ATTRIBUTES."""
    tag = b"<div " + _attributes(16) + b">x</div>"
    count = MAX_PAGE_ATTRIBUTES // 16 + 100
    body = b"<html><body><p>" + b"1 < 2 " * texts + b"</p>" + tag * count + b"</body></html>"
    assert count < MAX_ELEMENTS and len(body) < 1 << 21  # neither of the other bounds binds
    prepared = prepare(body, 1 << 21)
    assert prepared.complete is False
    read = sum(_attribute_counts(prepared.markup))
    assert MAX_PAGE_ATTRIBUTES - 16 <= read <= MAX_PAGE_ATTRIBUTES


def test_long_attribute_values_are_not_many_attributes() -> None:
    """Past the bytes where a page's attributes are counted, they are counted, not guessed:
    long values (srcsets, data blobs, class lists) are one attribute each."""
    value = b"='" + b"w-4 h-4 text-sm " * 40 + b"'"
    body = (b"<html><body>" + (b"<div class" + value + b" data-x" + value + b">x</div>") * 200
            + b"</body></html>")
    assert len(body) > 4 * MAX_PAGE_ATTRIBUTES  # well past the bytes counted from
    assert prepare(body, 1 << 21).markup is body


def test_the_attributes_are_counted_in_linear_work() -> None:
    def make(n: int) -> bytes:
        return b"<html><body>" + (b"<div " + _attributes(n) + b">x</div>") * 4 + b"</body></html>"

    grows_linearly(make, lambda body: prepare(body, 1 << 21), 2000)
    spaces = b"<div a" + b" " * 200_000 + b"b>x</div>"  # no rescanning of a run of spaces
    assert prepare(spaces, 1 << 21).markup is spaces


def test_a_page_of_one_tag_with_tens_of_thousands_of_attributes_is_read_within_its_deadline(
        allow_server: LocalServer, library_dir: Path) -> None:
    """Unbounded, this page costs the two parsers over a minute (the tag is parsed five
    times); with the cap it takes a fraction of a second, far inside the deadline."""
    from conftest import run_cli

    body = (b"<html><head><title>Harbour plan</title></head><body><article><p>"
            + PAGE.encode() * 8 + b"</p><div " + _attributes(40_000, b"='v'")
            + b">The vote was close.</div></article></body></html>")
    url = allow_server.route("/attributes", body)
    out = run_cli("capture", url, "--now", "--no-render", "--json", "--timeout", "30",
                  library=library_dir, allow=allow_server.pair)
    data = out.json()
    assert data["reason"] != "timeout", data
    assert data["verdict"] == "RETRIEVED", data


@pytest.mark.parametrize(("value", "line"), [(b"1", "1"), (b"[]", None), (b'""', "")],
                         ids=["digits", "lists", "strings"])
def test_a_json_document_of_too_many_values_is_not_parsed(value: bytes, line: str | None) -> None:
    """Every parsed value is an object of its own (about 165 bytes): a document of tiny values
    past MAX_JSON_VALUES is read a slice at a time (reading/jsontext.py), not into a tree."""
    count = MAX_JSON_VALUES + 10
    body = b"[" + (value + b",") * (count - 1) + value + b"]"
    got = extract(body, "application/json", None)
    assert (got.kind, got.error, got.from_prefix) == ("json", None, False)
    assert got.page_text == body.decode()
    assert got.main_text == ("" if line is None else "\n".join([line] * count))
    assert got.extractor == STREAMED_EXTRACTOR
    within = b"[" + (value + b",") * (MAX_JSON_VALUES - 10) + value + b"]"
    assert extract(within, "application/json", None).extractor == "json (stdlib)"


def test_a_json_document_of_long_strings_is_parsed_whatever_its_commas() -> None:
    """The commas are only a first bound: values are counted before a document is read as
    text, so prose full of commas is still parsed into its values."""
    prose = "The harbour, the council said, would open in May, June, or July. " * 2
    doc = {"items": [{"title": f"Item {i}", "text": prose} for i in range(MAX_JSON_VALUES // 8)]}
    body = json.dumps(doc).encode()
    assert body.count(b",") > MAX_JSON_VALUES  # the first bound alone would not parse it
    got = extract(body, "application/json", None)
    assert got.extractor.startswith("json") and got.main_text.startswith("Item 0\nThe harbour")


def test_dense_markup_is_read_from_its_beginning(allow_server: LocalServer,
                                                 library_dir: Path) -> None:
    from conftest import run_cli

    body = b"<html><body><article>" + b"<b>a</b> " * (MAX_ELEMENTS + 10) + \
        b"</article></body></html>"
    url = allow_server.route("/dense", body)
    # A deadline no load reaches: the cap is the subject, not the deadline.
    out = run_cli("capture", url, "--now", "--json", "--timeout", "600", library=library_dir,
                  allow=allow_server.pair)
    data = out.json()
    assert (data["verdict"], data["reason"], data["text_from_prefix"]) == (
        "UNKNOWN", "text_prefix", True)


# --- judging spends the capture's deadline ------------------------------------------------------


def test_a_capture_whose_reading_passes_its_deadline_is_recorded(
        allow_server: LocalServer, library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader is made slow (the machine may be): the fetch ends inside the deadline, the
    reading outlasts it. The capture is UNKNOWN timeout, its record and bytes written, and the
    answer not checked, instead of running on past the deadline."""
    from readreceipt import pipeline
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library

    real = pipeline.extract

    def slow(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        time.sleep(4.5)  # past the 4 s deadline whatever the fetch took of it
        return result

    monkeypatch.setattr(pipeline, "extract", slow)
    url = allow_server.route("/page", f"<html><body><p>{PAGE * 20}</p></body></html>")
    with Library.open(library_dir) as lib:
        result = capture(url, CaptureOptions(now=True, timeout=4.0, render=False,
                                             answer=f'"{PAGE.strip()}"'), lib)
    record = result.record
    assert (record.verdict, record.reason) == ("UNKNOWN", "timeout")
    assert result.exit_code == 6
    assert record.bytes_kept and record.text_sha256
    assert record.answer_check is not None
    assert (record.answer_check["outcome"], record.answer_check["reason"]) == (
        "not_run", "timeout")
    on_disk = (library_dir / "records" / f"{record.record_id}.yaml").read_text("utf-8")
    assert "reason: timeout" in on_disk
    assert json.dumps(result.to_json())


def test_many_captcha_forms_are_judged_in_linear_work() -> None:
    """Each candidate form measured the content outside it by walking the whole page: a page
    of n captcha forms beside n paragraphs (none of them the page's main thing) cost n², now
    the running sums of reading/captcha.py."""
    from readreceipt.reading.captcha import captcha_form
    from readreceipt.reading.placement import tree

    def page(n: int) -> Any:
        forms = f'<form><img src="/captcha.png"><input name="a"></form><p>{PAGE}</p>' * n
        return tree(f"<html><body><main>{forms}</main></body></html>")

    grows_linearly(page, lambda t: captcha_form(t, "", 0), 400)


def test_many_consent_forms_are_judged_in_linear_work() -> None:
    """The same for forms posting to a consent host (reading/consent.py): each measured the
    content outside its region and counted the page's links anew."""
    from readreceipt.reading.consent import consent_form
    from readreceipt.reading.placement import tree

    def page(n: int) -> Any:
        forms = ('<form action="https://consent.example.com/save"><button>OK</button></form>'
                 f"<p>{PAGE}</p>") * n
        return tree(f"<html><body><main>{forms}</main></body></html>")

    grows_linearly(page, lambda t: consent_form(t, 0), 400)


def test_many_sign_in_forms_are_judged_in_linear_work() -> None:
    """Each credential box measured the content before and after it, and looked for a heading
    after it, by walking the whole page (reading/signin.py): a page of n password forms
    beside n paragraphs cost n²; now running sums over the page, and the listing beside a
    box (reading/listings.py) from prefix counts."""
    from readreceipt.reading.placement import tree
    from readreceipt.reading.signin import sign_in_boxes

    def page(n: int) -> Any:
        forms = ('<form><input name="user"><input type="password" name="pw"><button>Go'
                 f'</button></form><h2>Part</h2><p>{PAGE}</p>') * n
        return tree(f"<html><body><main>{forms}</main></body></html>")

    grows_linearly(page, lambda t: sign_in_boxes(t, ""), 200)


def test_many_sign_in_boxes_are_weighed_against_the_main_text_in_linear_work() -> None:
    """Facts.sign_in counted the main text outside each box by reading the whole main text
    once a box: n boxes beside a main text of n lines (digits, which are no letters, so the
    gate lets it through) cost n²."""
    def page(n: int) -> Facts:
        forms = '<form><input type="password" name="pw"><button>Go</button></form>' * n
        html = f"<html><body><main>{forms}</main></body></html>"
        main = "\n".join(f"{i} {i}" for i in range(n))
        return Facts(PageView("https://example.org/", "https://example.org/", 200, {},
                              "text/html", html, main, main, len(html)))

    grows_linearly(page, lambda f: f.sign_in, 200)
