"""What stands around a sign-in box (issue 21, eighth round): a main-text line that an
extractor joined from a run of the site's menu items is chrome (signin.set_aside_lines); a box
in the main column with only chrome around it is the page's main thing; a sign-in page's pitch
after its form (paragraphs of prose after the box, none before it, no h1 after it) does not
make it an article, while a story's prose before the box or its h1 after the box still does;
and a box in a dialog is the page's main thing only over a page bare in all, chrome too."""

from __future__ import annotations

import time
from pathlib import Path

from judged import judged
from readreceipt.reading.placement import tree
from readreceipt.reading.signin import MAX_LONG_AFTER, SignIn, set_aside_lines

PAGES = Path(__file__).parent / "pages"

_MENU = ("<html><body><div class='site-nav'>"
         "<a class='go-back'>Go Back</a><a href='/a'>Car stereos</a><h4>Car stereos</h4>"
         "<a class='go-back'>Go Back</a><a href='/b'>Speakers</a><h4>Speakers</h4>"
         "</div><nav><a href='/h'>Home</a></nav><main><p>Car stereos</p>"
         "<form><input type='password'></form></main></body></html>")


def test_a_line_joined_from_a_run_of_menu_items_is_set_aside() -> None:
    page = tree(_MENU.replace("class='site-nav'", "class='nav'"))
    assert page is not None
    joined = "Go Back Speakers Speakers"
    assert joined not in set_aside_lines(page)  # not asked
    assert joined in set_aside_lines(page, [joined])
    # Not a run of the page's texts in their order, or only part of one: kept.
    assert "Speakers Go Back" not in set_aside_lines(page, ["Speakers Go Back"])
    assert "Go Back Speak" not in set_aside_lines(page, ["Go Back Speak"])


def test_a_run_that_takes_in_a_text_of_the_content_is_kept() -> None:
    # "Go Back" stands in the menu, "Opening hours today" after it in the content.
    html = ("<html><body><div class='nav'><a class='go-back'>Go Back</a></div>"
            "<p>Opening hours today</p><form><input type='password'></form></body></html>")
    mixed = tree(html)
    assert mixed is not None
    assert "Go Back Opening hours today" not in set_aside_lines(
        mixed, ["Go Back Opening hours today"])


def test_runs_are_matched_in_linear_work() -> None:
    def run(items: int) -> float:
        menu = "".join("<a class='go-back'>Go Back</a><a href='/x'>Item</a>"
                       for _ in range(items))
        page = tree(f"<html><body><div class='nav'>{menu}</div><main><p>x</p></main>"
                    "</body></html>")
        assert page is not None
        # Lines that start where many nodes do and run along the whole menu before they
        # fail: without the walk's budget, lines times the menu's length.
        whole = "Go Back Item " * items
        lines = [f"{whole}never {i}" for i in range(items // 20)]
        started = time.perf_counter()
        set_aside_lines(page, lines)
        return time.perf_counter() - started

    small, large = run(500), run(4000)
    assert large < 8 * 3 * small + 0.05, (small, large)  # 8x the input: not 64x


def _box(place: str = "content", **kw: object) -> SignIn:
    fields: dict[str, object] = {"before": 10, "beside": 40, "long_paragraphs": 0,
                                 "heading_after": False, "box_lines": frozenset()}
    fields.update(kw)
    return SignIn("a password field", place, **fields)  # type: ignore[arg-type]


def test_a_box_in_the_main_column_with_only_chrome_around_it_is_the_pages_main_thing() -> None:
    # The extracted main text is a list of links the structure does not set aside (5,000
    # letters, 300 of them not links' whole texts): next to nothing else stands there.
    assert _box().main_thing(5000, 5000, 300)
    assert _box("form").main_thing(5000, 5000, 300)
    assert not _box().main_thing(5000, 5000)  # links' texts not measured: the old bound
    assert not _box(beside=400).main_thing(5000, 5000, 300)
    assert not _box(page_elsewhere=True).main_thing(5000, 5000, 300)
    assert not _box(beside_listing=True).main_thing(5000, 5000, 300)
    assert not _box(long_paragraphs=1).main_thing(5000, 5000, 300)
    assert not _box().main_thing(5000, 5000, 1500)


def test_paragraphs_after_the_box_only_without_an_h1_after_it() -> None:
    after = {"beside": 1800, "long_paragraphs": MAX_LONG_AFTER}
    assert _box(**after).main_thing(1800, 1800, 1800)
    assert not _box(**after, long_before=1).main_thing(1800, 1800, 1800)
    assert not _box(**after, heading_after=True).main_thing(1800, 1800, 1800)
    assert not _box(beside=1800, long_paragraphs=MAX_LONG_AFTER + 1).main_thing(
        1800, 1800, 1800)


def test_sign_in_page_with_testimonials_after_its_form_is_a_wall() -> None:
    html = (PAGES / "login" / "sign_in_page_testimonials_after_form.html").read_text()
    found = judged(html)
    assert found is not None and found[0] == "wall:login", found


def test_a_story_under_its_h1_after_a_login_box_stays_clean() -> None:
    html = (PAGES / "hard_negative" /
            "story_under_its_h1_after_a_members_login_box.html").read_text()
    assert judged(html) is None


def test_a_story_before_a_log_in_to_comment_box_stays_clean() -> None:
    html = (PAGES / "hard_negative" /
            "story_paragraphs_before_a_log_in_to_comment_box.html").read_text()
    assert judged(html) is None


def test_a_dialogs_box_is_the_main_thing_only_over_a_page_bare_in_all() -> None:
    # A shop's home page of menus and brand links (chrome, by the link density) under its
    # log-in and registration popups (ya_parser's boutique.ru: 4,435 letters outside them).
    assert _box("dialog", beside=36, outside_dialog=120).main_thing(200)
    assert not _box("dialog", beside=36, outside_dialog=4435).main_thing(200)


def test_members_area_sign_in_dialog_on_a_bare_page_is_a_wall() -> None:
    html = (PAGES / "login" / "members_area_sign_in_dialog_on_a_bare_page.html").read_text()
    found = judged(html)
    assert found is not None and found[0] == "wall:login", found


def test_a_line_that_is_also_a_text_of_the_content_is_never_set_aside_as_a_run() -> None:
    # A sign-up dialog repeats the visible form's labels: "Password:" is the page's own.
    page = tree("<html><body><div role='dialog'><p>Password:</p><p>Sign in here</p></div>"
                "<main><form><label>Password:</label><input type='password'></form>"
                "</main></body></html>")
    assert page is not None
    assert "Password:" not in set_aside_lines(page, ["Password:"])
