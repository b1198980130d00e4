"""The shared article corpus served on 127.0.0.1 (readreceipt.localserver), for benchmarks."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from readreceipt.localserver import LocalServer, Route


def _shared() -> Path:
    """``../shared`` beside the checkout (the development workspace), or beside the folder
    that holds it (a worktree one level further down); the first that exists."""
    checkout = Path(__file__).resolve().parents[1]
    beside = [folder / "shared" for folder in checkout.parents[:2]]
    return next((folder for folder in beside if folder.is_dir()), beside[0])


CORPUS = _shared() / "corpus"
ARTICLES = CORPUS / "articles"


def load_articles() -> dict[str, bytes]:
    """sha -> page bytes (decompressed), for every article in the corpus."""
    pages = {}
    for path in sorted((ARTICLES / "html").glob("*.html.gz")):
        pages[path.name.removesuffix(".html.gz")] = gzip.decompress(path.read_bytes())
    return pages


def ground_truth() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((ARTICLES / "ground-truth.json").read_text())
    return data


class Served(NamedTuple):
    status: int
    headers: dict[str, str]
    body: bytes


@contextmanager
def serve(pages: Mapping[str, bytes | Served], content_type: str = "text/html") -> Iterator[str]:
    """Serve ``pages`` at /<key> (percent-decoded); yields the base URL (http://127.0.0.1:PORT).

    A plain ``bytes`` value is served 200 with ``content_type``; a :class:`Served` value with
    its own status and headers. Any other path is a 404."""
    routes = {}
    for key, page in pages.items():
        if isinstance(page, bytes):
            page = Served(200, {"Content-Type": content_type}, page)
        routes["/" + key] = Route(page.status, page.body, page.headers)
    with LocalServer(routes) as server:
        yield server.base
