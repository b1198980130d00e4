"""The offline demo: a local server with sample pages, each captured into a fresh library.

Only the demo's own server (its exact ``127.0.0.1:port``) is exempted from the
private-address rule, through ``CaptureOptions.allow_hosts``; every record it makes says so.

Invariant: the demo makes no request beyond 127.0.0.1 and writes only into the library it
is given.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

from readreceipt.errors import ReadReceiptError
from readreceipt.localserver import LocalServer, Route
from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
from readreceipt.store.library import Library

#: path -> (package file, content type); anything else is a 404 (:mod:`readreceipt.localserver`).
PAGES: dict[str, tuple[str, str]] = {
    "/harbour-bridge": ("article.html", "text/html; charset=utf-8"),
    "/app": ("shell.html", "text/html; charset=utf-8"),
    "/station.json": ("data.json", "application/json"),
    "/report.pdf": ("report.pdf", "application/pdf"),
}
ORDER = ("/harbour-bridge", "/app", "/station.json", "/report.pdf", "/no-such-page")

#: An answer a reader model might give about the article: one faithful quotation, one altered,
#: and a figure changed beside one kept (the page says "about 9 percent"): the slip a reader
#: model makes most, shown by the same check.
SAMPLE_ANSWER = (
    'The bridge retrofit "replaced 212 of the bridge\'s 480 bearings with lead-rubber '
    'isolators", and the chief engineer said "We did not make the bridge stronger, we made it '
    'safer." The work cost 318 million, about 19 percent over the original budget.'
)


def _routes() -> dict[str, Route]:
    pages = resources.files("readreceipt.demo_pages")
    return {path: Route(200, pages.joinpath(name).read_bytes(), {"Content-Type": ctype})
            for path, (name, ctype) in PAGES.items()}


@contextlib.contextmanager
def demo_server() -> Iterator[str]:
    """Serve the sample pages on 127.0.0.1 (a free port); yields the base URL."""
    with LocalServer(_routes(), name="readreceipt-demo") as server:
        yield server.base


@dataclass(frozen=True)
class DemoStep:
    url: str
    result: CaptureResult | None
    error: ReadReceiptError | None = None


def run_demo(library: Library) -> tuple[str, list[DemoStep], CaptureResult | None]:
    """Capture every sample page, then check a sample answer against the article."""
    steps: list[DemoStep] = []
    checked: CaptureResult | None = None
    with demo_server() as base:
        pair = base.removeprefix("http://")
        options = CaptureOptions(now=True, timeout=10, allow_hosts=(pair,), render=False,
                                 session_id="demo")
        for path in ORDER:
            url = base + path
            try:
                steps.append(DemoStep(url, capture(url, options, library)))
            except ReadReceiptError as exc:
                steps.append(DemoStep(url, None, exc))
        answer_options = CaptureOptions(now=True, timeout=10, allow_hosts=(pair,),
                                         render=False, session_id="demo", answer=SAMPLE_ANSWER,
                                         prompt="What was done to the bridge?")
        with contextlib.suppress(ReadReceiptError):
            checked = capture(base + ORDER[0], answer_options, library)
    return base, steps, checked


