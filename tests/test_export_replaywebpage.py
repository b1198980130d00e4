"""An exported WACZ opened by ReplayWeb.page itself (its npm bundle, in headless Chromium).

The page embeds ReplayWeb.page (``<replay-web-page>``), which loads the WACZ over HTTP range
requests in a service worker, reads our datapackage, the paged CDXJ index (``index.idx``, then
the ``index.cdx.gz`` blocks it points to) and the WARC, and replays each capture, a revisit
included, and a URL that was redirected, through its archived 301 to the page. Needs Chromium
and the ReplayWeb.page bundle that ``make test`` unpacks with npm into .venv/replaywebpage
(``npm pack replaywebpage@2.5.3``).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from library_builder import article, at, put_capture
from readreceipt.export import export_wacz
from readreceipt.store.library import Library

CHROMIUM = Path("/usr/bin/chromium")
BUNDLE = Path(os.environ.get("READRECEIPT_REPLAYWEBPAGE",
                             Path(__file__).resolve().parents[1] / ".venv" / "replaywebpage"))
PAGE = article("Night buses return to the river line",
               "Night buses return to the river line on 4 May, running every twenty minutes "
               "between midnight and five in the morning.",
               "The council says the service costs 1.2 million a year.")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium"),
    pytest.mark.skipif(not (BUNDLE / "sw.js").exists(),
                       reason=f"needs the ReplayWeb.page bundle in {BUNDLE} (make test unpacks "
                              "it with `npm pack replaywebpage@2.5.3`)"),
]


class _RangeHandler(SimpleHTTPRequestHandler):
    """Static files with byte ranges (ReplayWeb.page reads a WACZ by ranges, from the end)."""

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        wanted = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if wanted is None or not os.path.isfile(path):
            return super().send_head()
        size = os.path.getsize(path)
        first, last = wanted.groups()
        start = max(0, size - int(last)) if first == "" else int(first)
        end = size - 1 if first == "" or last == "" else min(int(last), size - 1)
        with open(path, "rb") as handle:
            handle.seek(start)
            data = handle.read(end - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return BytesIO(data)

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "site"
    (root / "replay").mkdir(parents=True)
    for name in ("ui.js", "sw.js"):
        data = (BUNDLE / name).read_bytes()
        (root / "replay" / name).write_bytes(data)
        (root / name).write_bytes(data)
    with Library.open(tmp_path / "lib") as lib:
        put_capture(lib, "https://city.example/buses", PAGE, at(0))
        put_capture(lib, "https://city.example/buses", PAGE, at(90))  # a revisit
        put_capture(lib, "https://city.example/buses",
                    PAGE.replace(b"twenty minutes", b"thirty minutes"), at(180))
        put_capture(lib, "https://city.example/night-buses", PAGE, at(240),
                    final_url="https://city.example/buses",
                    redirect_chain=({"url": "https://city.example/night-buses", "status": 301,
                                     "headers": {"location": "/buses",
                                                 "content-length": "0"}},))
        export_wacz(lib, root / "evidence.wacz")
    for stamp, url in (("20260301090000", "buses"), ("20260301103000", "buses"),
                       ("20260301120000", "buses"), ("20260301130000", "night-buses")):
        (root / f"at-{stamp}.html").write_text(
            "<!doctype html><html><head><script src='./ui.js'></script></head><body>"
            f"<replay-web-page source='/evidence.wacz' url='https://city.example/{url}' "
            f"ts='{stamp}' replayBase='/replay/' embed='replayonly'></replay-web-page>"
            "</body></html>")

    class Handler(_RangeHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _replayed_text(browser: Any, url: str) -> tuple[str, str]:
    """The URL of the frame replaying the capture, and its text."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        for tick in range(120):
            page.wait_for_timeout(500)
            if tick == 60:
                # Under load the service worker can miss the first load; one reload, as a
                # reader would, lets it take over.
                page.reload()
            for frame in page.frames:
                if "mp_/https://city.example/buses" not in frame.url:
                    continue
                try:
                    text = frame.inner_text("body")
                except Exception:  # noqa: S112 - the frame is still loading; look again
                    continue
                if "Night buses" in text:
                    return frame.url, " ".join(text.split())
        raise AssertionError(f"ReplayWeb.page replayed nothing from {url}")
    finally:
        context.close()


def test_replaywebpage_replays_every_capture(site: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"])
        try:
            frame, text = _replayed_text(browser, f"{site}/at-20260301090000.html")
            assert "20260301090000mp_" in frame and "every twenty minutes" in text
            frame, text = _replayed_text(browser, f"{site}/at-20260301103000.html")
            assert "20260301103000mp_" in frame and "every twenty minutes" in text
            frame, text = _replayed_text(browser, f"{site}/at-20260301120000.html")
            assert "20260301120000mp_" in frame and "every thirty minutes" in text
            # Asked for the old address: the archived 301 leads to the page captured there.
            frame, text = _replayed_text(browser, f"{site}/at-20260301130000.html")
            assert "20260301130000mp_/https://city.example/buses" in frame
            assert "every twenty minutes" in text
        finally:
            browser.close()
