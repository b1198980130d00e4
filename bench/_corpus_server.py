"""A local HTTP server over the shared article corpus, for benchmarks (never the internet)."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
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
    its own status and headers."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            page = pages.get(unquote(self.path.lstrip("/")))
            if page is None:
                page = Served(404, {}, b"")
            elif isinstance(page, bytes):
                page = Served(200, {"Content-Type": content_type}, page)
            self.send_response(page.status)
            for name, value in page.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(page.body)))
            self.end_headers()
            self.wfile.write(page.body)

        def log_message(self, format: str, *args: object) -> None:
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
