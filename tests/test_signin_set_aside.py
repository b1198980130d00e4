"""The main text beside a sign-in box leaves out what the structure sets aside as chrome
(signin.set_aside_lines): a sign-in page whose extracted main text holds a hidden carousel is
still a sign-in page; an article's own paragraphs are never set aside."""

from __future__ import annotations

from pathlib import Path

from judged import judged
from readreceipt.reading.placement import tree
from readreceipt.reading.signin import SignIn, set_aside_lines

PAGES = Path(__file__).parent / "pages"


def test_hidden_and_footer_lines_are_set_aside_but_content_paragraphs_are_not() -> None:
    page = tree("<html><body><div style='display:none'><p>Offer one <b>now</b></p></div>"
                "<footer><p>Firm Ltd, Street 1</p></footer>"
                "<div class='sidebar'><p>Sidebar offer</p></div>"
                "<main><p>An article's <a href='/x'>own</a> paragraph</p>"
                "<p>Firm Ltd, Street 1</p></main></body></html>")
    assert page is not None
    aside = set_aside_lines(page)
    assert "Offer one now" in aside  # a block's text nodes joined, as an extractor writes it
    assert "An article's own paragraph" not in aside
    assert "Firm Ltd, Street 1" not in aside  # also in the content: kept
    assert "Sidebar offer" not in aside  # a sidebar may hold a page's own offers


def test_a_source_line_break_inside_a_text_node_gives_the_pieces() -> None:
    page = tree("<html><body><div role='dialog'><p>Cookies help us\nrun this site</p></div>"
                "<main><p>Body</p></main></body></html>")
    assert page is not None
    aside = set_aside_lines(page)
    assert {"Cookies help us", "run this site"} <= aside


def test_sign_in_page_whose_main_text_holds_a_hidden_carousel_is_a_sign_in_page() -> None:
    html = (PAGES / "login" / "de_sign_in_page_hidden_offers_carousel.html").read_text()
    found = judged(html)
    assert found is not None and found[0] == "wall:login", found


def test_article_with_a_sign_in_form_below_it_stays_clean() -> None:
    html = (PAGES / "hard_negative" / "de_article_sign_in_to_discuss_below.html").read_text()
    assert judged(html) is None


def _box(place: str) -> SignIn:
    return SignIn("a password field", place, before=0, beside=40, long_paragraphs=0,
                  heading_after=False, box_lines=frozenset())


def test_a_box_in_the_main_column_is_weighed_by_the_main_text_not_set_aside() -> None:
    assert not _box("content").main_thing(3000)
    assert _box("content").main_thing(3000, 100)
    assert _box("form").main_thing(3000, 100)


def test_a_box_in_a_dialog_or_a_list_of_links_is_weighed_by_the_whole_main_text() -> None:
    # A home page under a sign-in dialog, or a bank's home page whose box the link density
    # took for a list of links (scrapy/protego's arvest.com): the text set aside as chrome
    # there may be the page's own.
    assert not _box("dialog").main_thing(1000, 0)
    assert not _box("links").main_thing(340, 113)
    assert _box("links").main_thing(150, 150)
