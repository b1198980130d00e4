"""A local HTTP server over the shared article corpus, for benchmarks (never the internet)."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

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


@contextmanager
def serve(pages: dict[str, bytes], content_type: str = "text/html") -> Iterator[str]:
    """Serve ``pages`` at /<key>; yields the base URL (http://127.0.0.1:PORT)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            body = pages.get(self.path.lstrip("/"))
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

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
