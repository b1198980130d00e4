"""A page of tests/pages served from 127.0.0.1 and captured by the real pipeline, no
rendering: what the served verdict tests (test_walls_served, test_vocabulary) judge."""

from __future__ import annotations

from pathlib import Path

from readreceipt.localserver import LocalServer
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library
from readreceipt.store.records import Record

PAGES = Path(__file__).resolve().parent / "pages"


def captured_page(server: LocalServer, library_dir: Path, page: str) -> Record:
    """The record of capturing ``page`` (a path under tests/pages) as the server serves it."""
    url = server.route(f"/{Path(page).stem}", (PAGES / page).read_bytes(),
                       headers={"content-type": "text/html; charset=utf-8"})
    return capture(url, CaptureOptions(now=True, render=False), Library.open(library_dir)).record
