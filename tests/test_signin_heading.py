"""The box's own heading (issue 21, ninth round): more than MAX_BEFORE letters of content may
stand before a sign-in box only when they stand before the box's own heading and that heading
is an h1 (a sign-in column's title beside a welcome column); a site's log-in module under an
h2 or h3, titled like the other modules of its columns, is one module among them."""

from __future__ import annotations

import time
from pathlib import Path

from judged import judged
from readreceipt.reading.placement import tree
from readreceipt.reading.signin import MAX_BEFORE, sign_in_boxes

PAGES = Path(__file__).parent / "pages"

_WELCOME = "".join(f"<p>Line {i} of the welcome column, about the service we offer you.</p>"
                   for i in range(8))


def _page(tag: str) -> str:
    return (f"<html><body><div class='left'>{_WELCOME}</div><div class='right'>"
            f"<{tag}>Sign in</{tag}><form action='/session'><input name='user'>"
            "<input type='password' name='pw'><button>Go</button></form></div>"
            "</body></html>")


def _box_under(tag: str) -> int | None:
    page = tree(_page(tag))
    assert page is not None
    boxes = sign_in_boxes(page, "")
    assert len(boxes) == 1
    assert boxes[0].before > MAX_BEFORE  # the welcome column stands before the box
    return boxes[0].under_heading


def test_only_an_h1_titles_a_box_with_more_than_max_before_before_it() -> None:
    assert _box_under("h1") == 0
    assert _box_under("h2") is None
    assert _box_under("h3") is None


def test_a_welcome_column_then_the_sign_in_column_h1_is_a_wall() -> None:
    html = (PAGES / "login" / "nl_split_welcome_column_then_form.html").read_text()
    assert judged(html) is not None and judged(html)[0] == "wall:login"  # type: ignore[index]
    assert judged(_page("h1")) is not None


def test_a_shop_log_in_module_under_an_h3_beside_its_welcome_text_stays_clean() -> None:
    html = (PAGES / "hard_negative" / "de_shop_home_login_module_under_h3.html").read_text()
    assert judged(html) is None
    # The same page with its module titled by an h1 is taken for a sign-in column: the
    # heading's level is what the rule reads.
    assert judged(html.replace("<h3>Anmelden</h3>", "<h1>Anmelden</h1>")) is not None
    assert judged(_page("h3")) is None


def test_the_heading_is_measured_in_linear_time() -> None:
    def run(columns: int) -> float:
        body = "".join(f"<div><h3>Module {i}</h3>{_WELCOME}</div>" for i in range(columns))
        html = (f"<html><body>{body}<h3>Sign in</h3><form><input name='u'>"
                "<input type='password'><button>Go</button></form></body></html>")
        page = tree(html)
        assert page is not None
        started = time.perf_counter()
        sign_in_boxes(page, "")
        return time.perf_counter() - started

    run(20)
    small, large = run(200), run(2000)
    assert large < 40 * max(small, 1e-4)
