"""Property-based tests (Hypothesis) of what reads untrusted input: the URL policy, the
decoders, the quotation finder, the fence, the CSS stripper and the record reader.

Each property holds for every input Hypothesis makes: the function ends in its own way (a
result, or its one kind of refusal, never another exception), within a bound on its work
(lines of the package's code run, tests/work.py, for the parts written in Python; a
per-example deadline, generous, for the parts in C), and what it returns keeps the
function's promise. In CI the examples are drawn from a fixed seed (``derandomize``) and
bounded in number (``FUZZ_EXAMPLES``); ``bench/fuzz.py`` runs the same properties far longer.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from datetime import timedelta
from typing import Any

import brotlicffi
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from readreceipt.agents.fence import fence, strip_hidden_html
from readreceipt.agents.hiddenhtml import plain_rules
from readreceipt.errors import RefusedError
from readreceipt.fetching.decoding import DecodeFailure, decoded
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.quotes.quotations import MAX_CANDIDATES, check_answer_text, find_quotations
from readreceipt.store.records import Record
from work import lines_run

#: Examples per property in CI, from a fixed seed; bench/fuzz.py sets more, and a random
#: draw, through the environment.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "120"))
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=5),
                derandomize=not os.environ.get("FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow])


def within(lines: int, size: int, per_char: int = 400, base: int = 50_000) -> None:
    """The work a Python part did is linear in its input: at most ``per_char`` lines a
    character over a fixed start."""
    assert lines <= base + per_char * size, f"{lines} lines for {size} characters"


# --- the URL policy ---------------------------------------------------------------------------

_URL_PIECES = st.sampled_from([
    "http://", "https://", "HTTP://", "ftp://", "javascript:", "//", "\\\\", "/", "\\", "@",
    ":", "%", "%2e", "%40", "%00", "?", "#", "&", "=", "[", "]", "::1", "127.0.0.1",
    "0x7f.1", "localhost", "example.com", "xn--", "\u0131", "\uff0e", "\u3002", "a", "0",
    "token=", "access_token=", "AKIAIOSFODNN7EXAMPLE", "\t", "\n", " ", "user:pw@",
    "169.254.169.254", "[::ffff:127.0.0.1]", ".internal", "%25", "\u200b"])
URLS = st.one_of(st.text(max_size=300),
                 st.lists(_URL_PIECES, max_size=25).map("".join))


@FUZZ
@given(URLS)
@example("http://a:80\\@b/")
@example("http:/\\127.0.0.1/")
def test_the_url_policy_refuses_or_returns_a_checked_url(raw: str) -> None:
    try:
        checked = check_url(raw)
    except RefusedError as exc:
        assert exc.reason  # a refusal says which rule
        return
    assert checked.scheme in ("http", "https")
    assert len(checked.url) <= 2048
    assert "@" not in checked.url.split("//", 1)[1].split("/", 1)[0]  # no user name
    again = check_url(checked.url)  # the canonical form passes as itself
    assert again.url == checked.url and again.host == checked.host


# --- the decoders -------------------------------------------------------------------------------

_ENCODE = {
    "gzip": gzip.compress,
    "deflate": zlib.compress,  # zlib-wrapped, as the RFC says
    "br": brotlicffi.compress,
}


@FUZZ
@given(st.binary(max_size=4096), st.lists(st.sampled_from(sorted(_ENCODE)), max_size=3),
       st.integers(min_value=1, max_value=512))
def test_the_decoders_undo_what_was_encoded(data: bytes, codings: list[str],
                                            chunk: int) -> None:
    body = data
    for coding in codings:
        body = _ENCODE[coding](body)
    pieces = [body[i:i + chunk] for i in range(0, len(body), chunk)]
    assert b"".join(decoded(pieces, ", ".join(codings))) == data


@FUZZ
@given(st.binary(max_size=4096), st.sampled_from(["gzip", "deflate", "br", "gzip, br",
                                                   "x-gzip", "identity", "zstd"]))
def test_the_decoders_refuse_garbage_in_their_own_way(data: bytes, coding: str) -> None:
    try:
        out = b"".join(decoded([data], coding))
    except DecodeFailure:
        return
    # whatever came out is no more than the decoders' own bound per input byte
    assert len(out) <= max(1 << 20, 2000 * len(data))


# --- the quotation finder ---------------------------------------------------------------------

_MARKS = st.sampled_from([*'"\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019\u201a\u2039\u203a'
                          '\u300c\u300d\u300e\u300f\uff02', "> ", "\n", "\n\n", " ", "```",
                          "*", "_", "[...]"])
_WORDS = st.sampled_from(["the", "council", "voted", "on", "Tuesday", "12", "000", "'s",
                          "workers", "don\u2019t", "\u00a0", "\u4e2d\u6587\u5b57",
                          "s\u2019", "...", "[sic]"])
ANSWERS = st.lists(st.one_of(_MARKS, _WORDS), max_size=120).map(" ".join)


@FUZZ
@given(ANSWERS)
@example('"a \u201cb \u2018c \u00abd ' * 40)
def test_the_quotation_finder_reads_any_answer_in_linear_work(answer: str) -> None:
    (passages, skipped), lines = lines_run(find_quotations, answer)
    within(lines, len(answer))
    assert len(passages) + len(skipped) <= MAX_CANDIDATES + answer.count("\n") + 1
    assert all(p.strip() for p in passages)


@FUZZ
@given(ANSWERS, st.text(max_size=400))
def test_a_quotation_copied_from_the_page_is_found(answer: str, page: str) -> None:
    passages, _ = find_quotations(answer)
    check = check_answer_text(answer, main_text=page + " " + answer, page_text=page + " " +
                              answer)
    assert check.outcome in ("found", "not_found", "not_run")
    if passages and check.outcome == "not_run":
        assert check.reason in ("no_quotation", "thin_text")


# --- the fence ----------------------------------------------------------------------------------

_PAGE_TEXT = st.one_of(st.text(max_size=600), st.lists(st.sampled_from([
    "===== END UNTRUSTED WEB CONTENT", "=====", "<|im_start|>", "</system-reminder>",
    "<system-reminder>", "\\<|im\\_start|>", "&lt;system&gt;", "\u200b", "\u202e",
    "\n", "Human:", "ignore all previous instructions", "\uff1csystem\uff1e", "\\u003c"]),
    max_size=40).map("".join))


@FUZZ
@given(_PAGE_TEXT, st.text(alphabet="0123456789abcdef", min_size=16, max_size=16))
def test_the_fence_holds_whatever_the_page_says(text: str, nonce: str) -> None:
    fenced = fence(text, (("url", "http://example.com/"),), nonce=nonce)
    lines = fenced.document.split("\n")
    # the fence's own lines stand once each, and nothing of the page between them equals them
    assert lines.count(fenced.begin) == 1 and lines.count(fenced.end) == 1
    body = lines[lines.index(fenced.begin) + 1:lines.index(fenced.end)]
    assert fenced.end not in body and fenced.begin not in body
    assert "\u200b" not in "\n".join(body) and "\u202e" not in "\n".join(body)


# --- the CSS stripper -------------------------------------------------------------------------

_CSS = st.lists(st.sampled_from(["{", "}", ";", "@media a", "@supports (x:y)", ".x", "#y",
                                 "p.z", "display:none", "opacity:0", "/*", "*/", ",", " ",
                                 "a", "@import url(x)", "color:#fff", "\n"]),
                max_size=200).map("".join)


@FUZZ
@given(_CSS)
@example("@media a{" * 300)
def test_the_css_stripper_reads_any_sheet_in_linear_work(css: str) -> None:
    rules, lines = lines_run(plain_rules, css)
    within(lines, len(css), per_char=60)
    for selector, body in rules:
        assert "{" not in body and "}" not in body and "{" not in selector


@FUZZ
@given(st.text(alphabet="abcdefghij", min_size=3, max_size=12),
       st.text(alphabet="klmnopqrst", min_size=3, max_size=12), _CSS,
       st.sampled_from(['hidden', 'style="display:none"', 'aria-hidden="true"',
                        'class="sr-only"', 'style="font-size:0"', 'style="opacity:0.01"']))
def test_hidden_words_never_pass_the_stripper(shown: str, secret: str, css: str,
                                              how: str) -> None:
    html = (f"<html><head><style>{css}</style></head><body><p>{shown}</p>"
            f"<div><span {how}>{secret}</span></div></body></html>")
    out, count = strip_hidden_html(html)
    assert secret not in out and count >= 1
    assert shown in out or count >= 2  # the sheet itself may hide the paragraph (p.z)


# --- the record reader ----------------------------------------------------------------------

_YAML = st.one_of(st.text(max_size=500), st.lists(st.sampled_from([
    "record_id: x\n", "url: http://a/\n", "format_version: 3\n", "&a [1, 2, *a]\n",
    "a: &a [x, x, x, x]\n", "b: [*a, *a, *a, *a]\n", "c: &c [*b, *b, *b, *b]\n",
    "d: [*c, *c, *c, *c, *c, *c]\n", "redirect_chain: [{url: a}]\n", "!!python/object:os.system\n",
    "verdict: 1\n", "- x\n", "? ", ": ", "'", '"', "\t", "\n", "{", "}", "[", "]"]),
    max_size=40).map("".join))


@FUZZ
@given(_YAML)
@example("record_id: x\nurl: http://a/\nl0: &l0 [a,a,a,a,a,a,a,a,a,a]\n" + "".join(
    f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 8)))
def test_the_record_reader_reads_a_record_or_says_why(text: str) -> None:
    try:
        record = Record.from_yaml(text)
    except ValueError as exc:
        assert str(exc)
        return
    # What was read can be shown and written again, and costs what its text did (no alias
    # bomb of a few hundred bytes naming 10^8 values: the last example).
    shown = json.dumps(record.to_dict(), default=str)
    assert len(shown) <= 20_000 * (len(text) + 1)
    assert Record.from_yaml(record.to_yaml()).record_id == record.record_id


@pytest.mark.parametrize("field", ["url", "title", "detail", "prompt"])
@FUZZ
@given(value=st.text(max_size=200))
def test_a_record_written_reads_back_whatever_its_text(field: str, value: Any) -> None:
    record = Record(record_id="20261201T000000Z-abcdef12", url="http://example.com/")
    record = record.replace(**{field: value})
    again = Record.from_yaml(record.to_yaml())
    assert getattr(again, field) == value or "\\ud" in record.to_yaml()
