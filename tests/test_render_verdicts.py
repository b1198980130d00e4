"""A rendered shell is judged again: still empty, or a wall once its scripts ran, it stays
UNKNOWN; only a shell whose scripts build the page becomes RETRIEVED (the control).

Real headless Chromium behind the address guard, pages from a local server (skipped, saying
so, where no Chromium is installed).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from conftest import LocalServer
from readreceipt.browser import render
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

F = TypeVar("F", bound=Callable[..., object])
_NO_CHROMIUM = pytest.mark.skipif(
    render.system_browser() is None,
    reason="no Chromium executable here (.ci/run installs Debian's chromium)")


def needs_browser(test: F) -> F:
    return pytest.mark.browser(_NO_CHROMIUM(test))  # type: ignore[no-any-return]


ARTICLE = ("<article><h1>Harbour notes</h1>" + "".join(
    f"<p>Paragraph {i} of the harbour notes: the cranes on the north quay were moved in "
    "spring, and the berths they left are now used by the ferries in the summer season.</p>"
    for i in range(4)) + "</article>")
CHALLENGE = ("<div class='box'><h1>Just a moment...</h1><p>Checking your browser before "
             "accessing the site. This process is automatic.</p></div>")
LOGIN = ("<div class='box'><h2>Sign in to continue reading</h2><form action='/login'>"
         "<input name='email'><input type='password' name='password'><button>Sign in</button>"
         "</form></div>")


def shell(fills_with: str | None) -> str:
    """An empty mount point and a script that fills it with ``fills_with`` (or nothing).

    The markup is encoded in the script (as a bundle's would be), so the words of a wall are
    not in the HTML the server sends: the static page is a shell, and only rendering shows
    what it is."""
    encoded = base64.b64encode((fills_with or "").encode()).decode()
    script = "" if fills_with is None else (
        f"document.getElementById('root').innerHTML = atob('{encoded}');")
    return ("<!doctype html><html><head><title>Harbour</title></head><body>"
            f'<div id="root"></div><script>{script}</script></body></html>')


@needs_browser
@pytest.mark.parametrize(("fills_with", "reason"), [
    (None, "js_shell"),
    (CHALLENGE, "wall:challenge"),
    (LOGIN, "wall:login"),
    (ARTICLE, "ok"),  # the control: the same shell, filled with the page, is read
], ids=["still-empty", "renders-a-bot-check", "renders-a-sign-in-wall", "control-article"])
def test_a_rendered_shell_is_judged_on_what_it_rendered(
        fills_with: str | None, reason: str, allow_server: LocalServer,
        library_dir: Path) -> None:
    url = allow_server.route("/app", shell(fills_with))
    record = capture(url, CaptureOptions(now=True, timeout=30), Library.open(library_dir)).record
    assert record.javascript_executed is True
    assert record.rendering_method == "chromium-headless"
    assert record.reason == reason, record.detail
    assert record.verdict == ("RETRIEVED" if reason == "ok" else "UNKNOWN")
