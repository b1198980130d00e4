"""The viewer in headless Chromium (Playwright): the list, a flag, a diff, and hostile pages.

Screenshots are kept in test-artifacts/ (CI keeps that folder as an artifact). Skipped only
when /usr/bin/chromium is absent (.ci/run installs it).
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import BIN, clean_env
from library_builder import at, put_capture
from readreceipt.store.library import Library
from test_viewer import HOSTILE, build

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does)"),
]


@pytest.fixture(scope="module")
def library_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser") / "lib"
    with Library.open(root) as lib:
        build(lib)
    return root


@pytest.fixture(scope="module")
def served(library_root: Path) -> Iterator[str]:
    """The real ``readreceipt serve`` on a free port."""
    env = clean_env()
    env["READRECEIPT_LIBRARY"] = str(library_root)
    proc = subprocess.Popen([str(BIN / "readreceipt"), "serve", "--port", "0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    url = json.loads(proc.stdout.readline())["url"].rstrip("/")
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"])
        yield chromium
        chromium.close()


class Watched:
    """A page with every dialog and console message it produced."""

    def __init__(self, browser: Any, *, javascript: bool = True) -> None:
        self.context = browser.new_context(java_script_enabled=javascript,
                                           viewport={"width": 1280, "height": 900},
                                           accept_downloads=True)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.console: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.on("pageerror", lambda error: self.console.append(str(error)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"viewer-{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    page = Watched(browser)
    yield page
    page.close()


def test_the_list_filters_without_javascript(browser: Any, served: str) -> None:
    plain = Watched(browser, javascript=False)
    try:
        page = plain.page
        page.goto(served + "/")
        assert page.locator("#retrievals tbody tr").count() == 50
        assert "63 retrievals match" in page.inner_text("main")
        plain.shot("list")
        page.select_option("select[name=verdict]", "FAILED")
        page.click("button[type=submit]")
        page.wait_for_url("**/?verdict=FAILED*")
        rows = page.locator("#retrievals tbody tr")
        assert rows.count() == 1 and "slow.example" in rows.inner_text()
        page.goto(served + "/?url=hostile")
        assert page.locator("#retrievals tbody tr").count() == 2
        plain.shot("list-filtered")
    finally:
        plain.close()


def test_a_flag_shows_the_nearest_passage(watched: Watched, served: str) -> None:
    page = watched.page
    page.goto(served + "/flags")
    row = page.locator("#flags tbody tr").first
    assert "the council approved the budget of 4.9 million" in row.inner_text()
    assert ("the council approved the budget of 4.5 million"
            in row.locator("td.nearest").inner_text())
    watched.shot("flags")
    row.locator("a").first.click()
    page.wait_for_url("**/record/*")
    missing = page.locator(".quote.not_found")
    assert missing.count() == 1
    assert "99% similar" in missing.inner_text()
    mark = page.locator("#main-text mark.nearest")
    assert mark.inner_text() == ("the council approved the budget of 4.5 million for the new "
                                 "library building")
    assert mark.is_visible()
    assert page.locator(".quote.found").count() == 1
    watched.shot("record-flag")
    assert watched.dialogs == [] and watched.console == []


def test_a_history_shows_the_word_diff(watched: Watched, served: str) -> None:
    page = watched.page
    page.goto(served + "/history?url=https://hostile.example/page")
    assert page.locator("#diff del").all_inner_texts() == ["4.2 "]
    assert page.locator("#diff ins").all_inner_texts() == ["4.5 "]
    assert page.locator("#captures tbody tr").count() == 2
    watched.shot("history-diff")


def test_a_hostile_page_is_only_text(watched: Watched, served: str) -> None:
    page = watched.page
    page.goto(served + "/?url=hostile")
    page.locator("#retrievals tbody tr").last.locator("td.url a").click()
    page.wait_for_url("**/record/*")
    text = page.inner_text("#main-text")
    assert "<script>alert(1)</script>" in text
    assert "<img src=x onerror=alert(2)>" in text
    assert "<script>alert('title')</script>" in page.inner_text("main")
    assert page.locator("script").count() == 0 and page.locator("img").count() == 0
    page.wait_for_timeout(300)
    watched.shot("hostile")
    assert watched.dialogs == [] and watched.console == []


def test_raw_bytes_are_a_download_not_a_page(watched: Watched, served: str) -> None:
    page = watched.page
    page.goto(served + "/?url=hostile")
    page.locator("#retrievals tbody tr a").first.click()
    with page.expect_download() as info:
        page.click("text=bytes as received")
    download = info.value
    assert download.suggested_filename.endswith(".bin")
    assert Path(download.path()).read_bytes().startswith(b"<!doctype html>")
    assert watched.dialogs == []


# ------------------------------------------------------------------ one layer at a time

@pytest.fixture
def unescaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """An in-process viewer whose escaping is switched off, to test the policy on its own."""
    from readreceipt.viewer import html as viewer_html
    from readreceipt.viewer import make_viewer_server
    from readreceipt.viewer import pages as viewer_pages

    def no_escape(value: object) -> viewer_html.Markup:
        return viewer_html.Markup("" if value is None else str(value))

    monkeypatch.setattr(viewer_html, "escape", no_escape)
    monkeypatch.setattr(viewer_pages, "escape", no_escape)
    lib = Library.open(tmp_path / "lib")
    record = put_capture(lib, "https://hostile.example/page", HOSTILE, at(0))
    server, _ = make_viewer_server(lib, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", record.record_id
    server.shutdown()
    server.server_close()
    lib.close()


def test_the_policy_alone_stops_an_unescaped_script(watched: Watched,
                                                    unescaped: tuple[str, str]) -> None:
    base, record_id = unescaped
    page = watched.page
    page.goto(f"{base}/record/{record_id}")
    page.wait_for_timeout(500)
    assert page.locator("#main-text script").count() >= 1  # the escaping really is off
    assert watched.dialogs == []
    assert any("Content Security Policy" in message for message in watched.console)


def test_control_without_either_layer_the_script_runs(
        watched: Watched, unescaped: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Shows the two tests above can fail: with no escaping and no policy, the page runs."""
    from readreceipt.viewer import app as viewer_app

    monkeypatch.setattr(viewer_app, "CSP", "default-src *; script-src 'unsafe-inline'")
    base, record_id = unescaped
    watched.page.goto(f"{base}/record/{record_id}")
    watched.page.wait_for_timeout(500)
    assert "1" in watched.dialogs and "title" in watched.dialogs
