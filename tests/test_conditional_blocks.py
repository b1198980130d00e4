"""Text a script shows only on a condition is not the page's own heading, nor where the page's
words sit (reading/placement.py: ``CONDITIONAL_ATTRIBUTES``, ``HIDING_CLASSES``).

A page built with an in-markup framework (Vue without a build step, AngularJS, Alpine) ships
every view it can show: its article, and beside it the not-found view the router shows for a
wrong address. A CSS framework's page ships a "404" box hidden by a class until a script
shows it. Read as shown, either makes a real article a soft 404 (issue 21: "a real page whose
hidden template strings read as a soft 404"). A real not-found page shows its notice: it is
still one, with such an element elsewhere on it.
"""

from __future__ import annotations

import pytest

from judged import judged
from readreceipt.reading.placement import conditional

ARTICLE = ("<p>The council approved the new budget for the river district after a long debate "
           "about flood defences, school places and the cost of repairing the old bridge. "
           "Residents who spoke at the meeting asked for the work on the embankment to start "
           "before the winter, and the council agreed to publish a timetable next month.</p>"
           "<p>The leader of the opposition said the plan left the northern estates without a "
           "new bus route and promised to raise it again at the spring meeting.</p>")


def _page(body: str) -> str:
    return ("<!doctype html><html><head><title>Council approves river budget</title>"
            "<script src='/app.js'></script></head><body><header><nav><a href='/'>Home</a> "
            "<a href='/news'>News</a></nav></header><main><article><h1>Council approves river "
            f"budget</h1>{body}</article></main><footer>Town Gazette</footer></body></html>")


NOT_FOUND_VIEW = ("<h1>Page not found</h1><p>Sorry, we couldn't find the page you were "
                  "looking for.</p>")


@pytest.mark.parametrize("opening", [
    '<div v-if="notFound">', '<div v-else>', '<section v-show="missing">',
    '<div ng-if="vm.notFound">', '<div data-ng-show="vm.missing">', '<div x-show="missing">',
    '<div *ngIf="notFound">', '<div class="error-view d-none">', '<div class="hidden">',
    '<div class="is-hidden box">', '<div class="ng-hide">',
])
def test_a_not_found_view_a_script_may_show_beside_the_article_is_not_the_page(
        opening: str) -> None:
    assert judged(_page(ARTICLE + opening + NOT_FOUND_VIEW + "</div>")) is None


def test_a_status_heading_in_a_hidden_box_is_not_the_pages_own_heading() -> None:
    box = ('<div class="modal d-none"><h1>404</h1><h2>Page Not Found</h2>'
           "<p>We couldn't find the page you were looking for.</p></div>")
    assert judged(_page(ARTICLE + box)) is None


def test_a_real_not_found_page_with_a_conditional_element_elsewhere_is_still_one() -> None:
    html = ("<!doctype html><html><head><title>Page not found</title></head><body>"
            "<header><nav><a href='/'>Home</a></nav></header><main><h1>Page not found</h1>"
            "<p>Sorry, we couldn't find the page you were looking for.</p>"
            '<div v-if="loggedIn">Welcome back</div><div class="d-none">Loading</div>'
            "</main></body></html>")
    found = judged(html)
    assert found is not None and found[0] == "soft_404"


def test_a_class_that_hides_only_on_some_screens_hides_nothing() -> None:
    """Bootstrap 3's hidden-xs hides on phones only: the notice it holds is shown."""
    html = ("<!doctype html><html><head><title>Oops</title></head><body><main>"
            '<div class="col-md-12 hidden-xs"><h1>Page not found</h1>'
            "<p>Sorry, we couldn't find the page you were looking for.</p></div>"
            "</main></body></html>")
    found = judged(html)
    assert found is not None and found[0] == "soft_404"


def test_which_attributes_leave_an_element_to_a_script() -> None:
    assert conditional({"v-if": "x"})
    assert conditional({"class": "Card D-NONE"})
    assert not conditional({"class": "hidden-xs visible-lg"})
    assert not conditional({"id": "hidden"})
    assert not conditional({})
