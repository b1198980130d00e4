"""Benchmark: capture the 181 corpus articles from a local server, and a 1 GiB streamed body.

Prints pages per second, the split of time across fetch, extraction, verdict and store, and
the peak RSS of a process capturing a 1 GiB body against one capturing a small page (same
run, same machine). Figures, not assertions.

    .venv/bin/python bench/capture.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import load_articles, serve
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library


def corpus_run() -> None:
    pages = load_articles()
    with tempfile.TemporaryDirectory() as tmp, serve(pages) as base:
        os.environ["READRECEIPT_ALLOW_HOSTS"] = base.removeprefix("http://")
        lib = Library.open(Path(tmp) / "lib")
        # Warm imports (trafilatura, lxml) so the first page does not carry them.
        capture(f"{base}/{next(iter(pages))}", CaptureOptions(now=True), lib)
        totals: dict[str, float] = {}
        verdicts: dict[str, int] = {}
        started = time.perf_counter()
        for key in pages:
            result = capture(f"{base}/{key}", CaptureOptions(now=True), lib)
            for step, seconds in result.timings.items():
                totals[step] = totals.get(step, 0.0) + seconds
            verdicts[result.record.verdict] = verdicts.get(result.record.verdict, 0) + 1
        elapsed = time.perf_counter() - started
    n = len(pages)
    print(f"corpus: {n} pages in {elapsed:.2f} s = {n / elapsed:.1f} pages/s "
          f"({1000 * elapsed / n:.1f} ms a page); verdicts {verdicts}")
    accounted = sum(totals.values())
    for step in ("fetch", "extract", "verdict", "store"):
        share = totals.get(step, 0.0)
        print(f"  {step:8s} {1000 * share / n:7.2f} ms a page  {100 * share / elapsed:5.1f} %")
    print(f"  other    {1000 * (elapsed - accounted) / n:7.2f} ms a page  "
          f"{100 * (elapsed - accounted) / elapsed:5.1f} %  (policy, politeness, records)")


_RSS_CHILD = textwrap.dedent("""
    import resource, sys
    from pathlib import Path
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library
    r = capture(sys.argv[1], CaptureOptions(now=True, timeout=600), Library.open(Path(sys.argv[2])))
    print(r.record.bytes, r.record.truncated,
          resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
""")


def rss_run() -> None:
    gib = 1024 ** 3
    chunk = os.urandom(1024 * 1024)

    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            size = gib if self.path == "/huge" else 20_000
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            sent = 0
            try:
                while sent < size:
                    part = chunk[: min(len(chunk), size - sent)]
                    self.wfile.write(part)
                    sent += len(part)
            except (BrokenPipeError, ConnectionResetError):
                return

        def log_message(self, format: str, *args: object) -> None:
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    env = {**os.environ, "READRECEIPT_ALLOW_HOSTS": base.removeprefix("http://")}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("small", "huge"):
            out = subprocess.run([sys.executable, "-c", _RSS_CHILD, f"{base}/{name}",
                                  f"{tmp}/{name}"], capture_output=True, text=True, env=env,
                                 check=True)
            kept, truncated, rss = out.stdout.split()
            results[name] = (int(kept), truncated, int(rss))
    httpd.shutdown()
    small, huge = results["small"], results["huge"]
    print(f"peak RSS: 20 KB body {small[2]} MiB; 1 GiB streamed body {huge[2]} MiB "
          f"(kept {huge[0] // (1024 * 1024)} MiB, truncated={huge[1]}); "
          f"ratio {huge[2] / small[2]:.2f}")


if __name__ == "__main__":
    corpus_run()
    rss_run()
