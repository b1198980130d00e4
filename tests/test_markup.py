"""The bounded pass before any parser: invisible bulk out past the limit, deep nesting flat.

Heavy real-shaped pages (megabytes of inline script around an ordinary article) are read
whole; a page whose *visible* markup passes the limit is still read from its beginning; a
hostile page of deeply nested elements is extracted and judged in time linear in its size.
"""

from __future__ import annotations

import pytest

from readreceipt.reading import markup
from readreceipt.reading.extract import HTML_TEXT_BYTES, extract
from readreceipt.reading.fingerprint import PageView, judge_content
from readreceipt.reading.markup import MAX_DEPTH, MAX_ELEMENTS, prepare

LIMIT = 10_000


def test_a_body_within_the_limit_comes_back_untouched() -> None:
    body = b"<html><body><!-- c --><script>var a = '<div>';</script><p>Text</p></body></html>"
    assert prepare(body, LIMIT).markup is body


def test_past_the_limit_the_invisible_parts_go_and_the_visible_stay() -> None:
    article = b"<article><h1>Quay</h1><p>The tide rose over the old wall.</p></article>"
    body = (b"<html><head><title>Quay</title><script src='/app.js'>" + b"x" * 20_000
            + b"</script><style>" + b"b{}" * 5_000 + b"</style>"
            + b"<script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script></head>"
            + b"<body><svg><svg><path d='M0'/></svg><text>icon</text></svg><!-- " + b"c" * 5_000
            + b" --><template><p>hidden</p><template>inner</template>still</template>"
            + b"<noscript>Please enable JavaScript.</noscript>" + article + b"</body></html>")
    out = prepare(body, LIMIT)
    assert out.complete and out.removed > 40_000
    text = out.markup
    assert article in text
    assert b"<script src='/app.js'></script>" in text  # the tag stays, its contents go
    assert b'{"@type": "NewsArticle"}' in text  # the publisher's word stays
    assert b"Please enable JavaScript." in text  # a short noscript stays
    for gone in (b"xxxx", b"b{}", b"icon", b"<path", b"cccc", b"hidden", b"inner", b"still"):
        assert gone not in text


def test_a_long_noscript_goes_past_the_limit() -> None:
    body = b"<html><body><noscript>" + b"n" * (LIMIT * 2) + b"</noscript><p>Kept</p></body>"
    out = prepare(body, LIMIT)
    assert out.complete and b"nnnn" not in out.markup and b"<p>Kept</p>" in out.markup


def test_visible_markup_past_the_limit_is_its_beginning() -> None:
    body = b"<html><body>" + b"<p>A visible paragraph of text.</p>" * 1_000 + b"</body></html>"
    out = prepare(body, LIMIT)
    assert not out.complete and len(out.markup) == LIMIT
    assert out.markup == body[:LIMIT]  # nothing was invisible: a plain prefix


def test_the_output_never_passes_the_limit() -> None:
    for body in (b"x" * (LIMIT * 3), b"<p>" * (LIMIT * 2), b"<!--" + b"-" * LIMIT * 2,
                 b"<div>" * LIMIT + b"<script>" + b"s" * LIMIT, b"<a href='" + b"q" * LIMIT * 2):
        assert len(prepare(body, LIMIT).markup) <= LIMIT


def test_markup_inside_scripts_and_quotes_is_not_counted_as_nesting() -> None:
    body = (b"<html><body><script>document.write('" + b"<div>" * 2_000 + b"');</script>"
            b"<div title='" + b"<div>" * 2_000 + b"'>x</div></body></html>")
    out = prepare(body, len(body) + 1)
    assert out.markup is body and out.depth <= 3


def test_nesting_past_the_bound_is_flattened_and_its_text_kept() -> None:
    levels = MAX_DEPTH + 300
    body = (b"<html><body>" + b"".join(b"<div>w%d " % i for i in range(levels))
            + b"</div>" * levels + b"<p>After</p></body></html>")
    out = prepare(body, len(body) + 1)
    assert out.markup is not body and out.depth == MAX_DEPTH and out.flattened == 300
    assert out.markup.count(b"<div>") == MAX_DEPTH and out.markup.count(b"</div>") == MAX_DEPTH
    ex = extract(body, "text/html", "utf-8")
    assert all(f"w{i}" in ex.page_text for i in (0, MAX_DEPTH, levels - 1))
    assert "After" in ex.page_text


def test_elements_that_close_themselves_do_not_nest() -> None:
    body = (b"<html><body>" + b"<p>para <li>item <br><img src=x><input>" * 3_000
            + b"<a href=1>one<a href=2>two" * 1_000 + b"</body></html>")
    out = prepare(body, len(body) + 1)
    assert out.markup is body and out.depth <= 3


def test_svg_self_closing_tags_close_and_html_ones_do_not() -> None:
    svg = b"<svg>" + b"<path d='M0'/>" * 2_000 + b"</svg>"
    assert prepare(svg, len(svg) + 1).depth == 1
    divs = b"<div/>" * (MAX_DEPTH + 10)  # HTML ignores the slash: these nest
    assert prepare(divs, len(divs) + 1).flattened == 10


#: Nested <div> elements, each with a word: as many as the element cap lets through
#: (markup.MAX_ELEMENTS, less html, head, title and body), so the page is read whole and
#: only the flattening stands between its nesting and the parsers. A deeper page is cut at the
#: element cap, so this is the deepest the parsers could be handed. Without the flattening,
#: Lexbor's time here grows with the square of the depth (bench/nesting.py: over a minute at
#: 160,000 levels), and the layout and trafilatura more.
HOSTILE_LEVELS = MAX_ELEMENTS - 10


def _hostile() -> bytes:
    return (b"<html><head><title>Deep</title></head><body>" + b"<div>w " * HOSTILE_LEVELS
            + b"</div>" * HOSTILE_LEVELS + b"</body></html>")


def _depth_read(ex_html: str | None) -> int:
    """How deep the markup the parsers were handed nests."""
    assert ex_html is not None
    encoded = ex_html.encode("utf-8")
    return prepare(encoded, len(encoded) + 1, max_depth=10 ** 9).depth


def test_a_hostile_deeply_nested_page_is_extracted_and_judged_flat() -> None:
    """Read whole, every word kept, and the parsers handed at most MAX_DEPTH levels (the time
    this saves is bench/nesting.py's and bench/hostile.py's figure, not a test's)."""
    body = _hostile()
    assert len(body) < HTML_TEXT_BYTES
    ex = extract(body, "text/html", "utf-8")
    view = PageView(url="http://127.0.0.1/deep", final_url="http://127.0.0.1/deep", status=200,
                    headers={}, content_type="text/html", html=ex.html, main_text=ex.main_text,
                    page_text=ex.page_text, body_bytes=len(body))
    judge_content(view)
    assert not ex.from_prefix and ex.page_text.count("w") == HOSTILE_LEVELS
    assert _depth_read(ex.html) == MAX_DEPTH


def test_the_bound_is_what_makes_it_flat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: with no depth bound the pass leaves the nesting as it is, and the parsers
    are handed all the levels (so the test above fails without the flattening)."""
    monkeypatch.setattr(markup, "MAX_DEPTH", 10 ** 9)
    out = prepare(_hostile(), HTML_TEXT_BYTES)
    assert out.complete and out.flattened == 0 and out.depth == HOSTILE_LEVELS
    assert _depth_read(out.markup.decode("utf-8")) == HOSTILE_LEVELS



_SOUP = (b"<div>", b"</div>", b"<p>", b"</p>", b"<a href='x'>", b"</a>", b"<svg>", b"</svg>",
         b"<path/>", b"<div/>", b"<script>", b"</script>", b"<!--", b"-->", b"<!doctype html>",
         b"<?x?>", b"<b", b">", b"'", b'"', b"=", b"text ", b"<style>", b"</style >", b"<li>",
         b"<form>", b"</form>", b"<math>", b"<br/>", b"<plaintext>", b"</ x>",
         b"<DIV class=\"a>b\">", b"<textarea>", b"</TEXTAREA>", b"<span title='<div>'>")


def test_the_quick_pass_within_the_limit_is_the_full_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A body within the limit is measured by a tighter loop (``_Pass.within``); on tag soup
    of every kind of token, at depth bounds it meets and does not, its answer is the full
    pass's (which runs when ``within`` hands over)."""
    import random

    rng = random.Random(23)  # noqa: S311 - a fixed seed for reproducible tag soup, not secrets
    bodies = [b"".join(rng.choice(_SOUP) for _ in range(rng.randint(0, 80)))
              for _ in range(3000)]
    quick = [[prepare(b, len(b) + 1, depth) for depth in (None, 3, 6)] for b in bodies]
    monkeypatch.setattr(markup._Pass, "within", lambda self: None)
    full = [[prepare(b, len(b) + 1, depth) for depth in (None, 3, 6)] for b in bodies]
    assert quick == full
    assert any(p.flattened for row in full for p in row)  # the bounds were met
    assert all((p.markup is b) == (q.markup is b)
               for b, row, rowq in zip(bodies, full, quick, strict=True)
               for p, q in zip(row, rowq, strict=True))


#: Tag soup around raw text elements: their end tags in either case, with and without the
#: space, "/" or ">" that ends a name, a name that only begins like one, a start tag left
#: open, comments and quotes holding what looks like an end tag.
_RAW_SOUP = (b"<script>", b"<SCRIPT type='a>b'>", b"</script>", b"</SCRIPT >", b"</script/",
             b"</scriptx>", b"</script", b"<script", b"<title>", b"</Title>", b"<noscript>",
             b"</noscript>", b"<iframe src=x>", b"</iframe>", b"<xmp>", b"</xmp>", b"<div>",
             b"</div>", b"<!--", b"-->", b"--", b"-", b"<!-->", b"'", b'"', b"=", b"x ", b"<",
             b">", b"</", b"<svg>", b"<path/>", b"</svg>", b"<plaintext>", b"<a>", b"</a>")


def test_the_listed_tokens_are_the_searched_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """A body within the limit has its tokens listed by one pattern (``_LISTED``: raw text and
    comments matched whole) unless it holds more than ``_LISTED_TOKENS`` "<"; on tag soup
    around raw text elements and comments, and on the soup of every kind of token, the
    listed pass's answer is the token-by-token pass's, and both are the full pass's."""
    import random

    rng = random.Random(2323)  # noqa: S311 - a fixed seed for reproducible tag soup
    bodies = [b"".join(rng.choice(soup) for _ in range(rng.randint(0, 60)))
              for soup in (_RAW_SOUP, _SOUP) for _ in range(2500)]
    listed = [[prepare(b, len(b) + 1, depth) for depth in (None, 2, 4)] for b in bodies]
    monkeypatch.setattr(markup, "_LISTED_TOKENS", -1)
    searched = [[prepare(b, len(b) + 1, depth) for depth in (None, 2, 4)] for b in bodies]
    assert listed == searched
    monkeypatch.setattr(markup._Pass, "within", lambda self: None)
    full = [[prepare(b, len(b) + 1, depth) for depth in (None, 2, 4)] for b in bodies]
    assert listed == full
    assert any(p.flattened for row in full for p in row)  # the bounds were met
    assert any(p.depth for row in full for p in row)


def test_a_body_of_many_tokens_is_searched_token_by_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``_LISTED_TOKENS`` "<" the tokens are not listed at once (the list's memory would
    follow the body): the token-by-token pass measures the body instead, to the same answer."""
    calls: list[int] = []
    searched = markup._Pass._within_searched

    def counted(self: markup._Pass) -> markup.Prepared | None:
        calls.append(1)
        return searched(self)

    monkeypatch.setattr(markup._Pass, "_within_searched", counted)
    body = b"<div>1 < 2 < 3</div>" * (markup._LISTED_TOKENS // 4 + 1)
    out = prepare(body, len(body) + 1)
    assert calls and out.markup is body and out.depth == 1
    small = b"<div><p>x</p></div>"
    calls.clear()
    assert prepare(small, len(small) + 1).depth == 1 and not calls
