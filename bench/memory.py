"""Benchmark: peak RSS of one capture, by body kind and size cap, against a small page.

Each capture runs in a fresh interpreter (``ru_maxrss`` of that process alone) against a
local server on 127.0.0.1:

- ``html``, ``text``, ``json``, ``pdf``: a body of that kind just under the cap, so every
  step (decoding, extraction, the JSON parse, the PDF's text layer) sees all of it;
- ``gzip bomb``, ``brotli bomb``, ``deflate bomb``: 1 GiB of zero bytes compressed to about a
  megabyte, served as ``text/html`` with that content-encoding (cut at the cap);
- the baseline: a bare capture of a 20 KB article page, measured in the same run.

Caps: the default (10 MiB), 50 MB and 100 MB (``--max-bytes 50000000`` and ``100000000``).
Figures, not assertions: peak RSS in MiB and its ratio to the baseline. Rendering is off
(a browser is another process and not what is measured here).

    .venv/bin/python bench/memory.py                 # every kind at every cap
    .venv/bin/python bench/memory.py --caps 10MiB    # the default cap only
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import brotlicffi

from readreceipt.fetching.transport import DEFAULT_MAX_BYTES

GIB = 1024 ** 3
MIB = 1024 * 1024
CAPS = {"10MiB": DEFAULT_MAX_BYTES, "50MB": 50_000_000, "100MB": 100_000_000}
KINDS = ("html", "text", "json", "pdf", "gzip bomb", "brotli bomb", "deflate bomb")
#: Room left under the cap, so a body "just under the cap" is not cut by it.
HEADROOM = 64 * 1024
CHILD_TIMEOUT = 1200.0

_PROSE = ("The committee met on a grey morning to weigh the harbour plan, and the engineers "
          "set out once more why the old sea wall could not carry the new cranes without "
          "deeper piles, a second drainage culvert and a year of settlement before use. ")

_CHILD = textwrap.dedent("""
    import resource, sys, time
    from pathlib import Path
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library
    started = time.monotonic()
    r = capture(sys.argv[1], CaptureOptions(now=True, timeout=900, max_bytes=int(sys.argv[3]),
                                            render=False), Library.open(Path(sys.argv[2])))
    rec = r.record
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, rec.bytes, rec.truncated,
          rec.verdict, rec.reason, rec.text_chars, getattr(rec, "text_from_prefix", False),
          f"{time.monotonic() - started:.1f}")
""")


# -- bodies ---------------------------------------------------------------------------------


def html_body(size: int) -> Iterator[bytes]:
    head = (b"<!doctype html><html><head><meta charset='utf-8'><title>Harbour plan</title>"
            b"</head><body><header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
            b"</header><main><article><h1>Harbour plan</h1>\n")
    tail = b"</article></main><footer><p>Port gazette</p></footer></body></html>\n"
    unit = (b"<section class='part'><h2>Part</h2><p>%s</p><p>%s <a href='/n/1'>more</a></p>"
            b"</section>\n" % (_PROSE.encode(), _PROSE.encode()))
    yield from _filled(head, unit, tail, size)


def text_body(size: int) -> Iterator[bytes]:
    yield from _filled(b"Harbour plan\n\n", (_PROSE + "\n\n").encode(), b"\n", size)


def json_body(size: int) -> Iterator[bytes]:
    item = b'{"id": 1, "title": "Harbour plan", "tags": ["port", "works"], "body": "%s"}' % (
        _PROSE.encode())
    head, tail = b'{"items": [', b"]}"
    count = max(1, (size - len(head) - len(tail)) // (len(item) + 2))
    block = b", ".join([item] * 100) + b", "
    full, rest = divmod(count - 1, 100)
    yield head
    for _ in range(full):
        yield block
    yield (b", ".join([item] * rest) + b", ") if rest else b""
    yield item + tail


def _filled(head: bytes, unit: bytes, tail: bytes, size: int) -> Iterator[bytes]:
    """``head``, as many ``unit`` as fit in ``size`` (in steps of about 1 MiB), ``tail``."""
    yield head
    left = size - len(head) - len(tail)
    step = unit * max(1, MIB // len(unit))
    while left >= len(step):
        yield step
        left -= len(step)
    while left >= len(unit):
        yield unit
        left -= len(unit)
    yield b" " * max(left, 0)
    yield tail


def pdf_file(size: int, folder: Path) -> Path:
    """A text PDF of about ``size`` bytes: many pages of prose, uncompressed streams."""
    path = folder / f"bench-{size}.pdf"
    if path.exists():
        return path
    lines = [_PROSE[i:i + 90] for i in range(0, len(_PROSE), 90)] * 12
    shown = "".join(f"({line}) Tj T*\n" for line in lines)
    content = f"BT /F1 10 Tf 40 760 Td 12 TL\n{shown}ET\n".encode("latin-1")
    per_page = len(content) + 300
    pages = max(1, (size - 1024) // per_page)
    offsets: list[int] = []
    with path.open("wb") as out:
        written = out.write(b"%PDF-1.4\n")

        def obj(number: int, body: bytes) -> None:
            nonlocal written
            offsets.append(written)
            written += out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))

        kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(pages)).encode()
        obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        obj(2, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages))
        obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for i in range(pages):
            obj(4 + 2 * i, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents "
                           b"%d 0 R /Resources << /Font << /F1 3 0 R >> >> >>" % (5 + 2 * i))
            obj(5 + 2 * i, b"<< /Length %d >>\nstream\n%sendstream" % (len(content), content))
        xref = written
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
        out.write(b"".join(b"%010d 00000 n \n" % off for off in offsets))
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
            len(offsets) + 1, xref))
    return path


def bomb(encoding: str) -> bytes:
    """1 GiB of zero bytes under ``encoding``, compressed in 1 MiB steps."""
    zeros = bytes(MIB)
    parts: list[bytes] = []
    if encoding == "br":
        comp = brotlicffi.Compressor(quality=5)
        for _ in range(GIB // MIB):
            parts.append(comp.process(zeros))
        parts.append(comp.finish())
    else:
        wbits = 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS
        z = zlib.compressobj(9, zlib.DEFLATED, wbits)
        for _ in range(GIB // MIB):
            parts.append(z.compress(zeros))
        parts.append(z.flush())
    return b"".join(parts)


# -- the server -----------------------------------------------------------------------------


class _Server:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.bombs = {enc: bomb(enc) for enc in ("gzip", "br", "deflate")}
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle(self) -> None:
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    return  # the capture stopped reading at its cap

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                size = int(parse_qs(parts.query).get("size", ["20000"])[0])
                kind = parts.path.strip("/")
                try:
                    outer.answer(self, kind, size)
                except (BrokenPipeError, ConnectionResetError):
                    return

            def log_message(self, format: str, *args: object) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def answer(self, handler: BaseHTTPRequestHandler, kind: str, size: int) -> None:
        makers: dict[str, tuple[str, Callable[[int], Iterator[bytes]]]] = {
            "html": ("text/html; charset=utf-8", html_body),
            "small": ("text/html; charset=utf-8", html_body),
            "text": ("text/plain; charset=utf-8", text_body),
            "json": ("application/json", json_body),
        }
        encoding = {"gzip-bomb": "gzip", "brotli-bomb": "br", "deflate-bomb": "deflate"}
        handler.send_response(200)
        if kind in makers:
            ctype, make = makers[kind]
            body = b"".join(make(size)) if size < 1_000_000 else None
            handler.send_header("Content-Type", ctype)
            handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            for part in ([body] if body is not None else make(size)):
                if part:
                    handler.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            handler.wfile.write(b"0\r\n\r\n")
        elif kind == "pdf":
            path = pdf_file(size, self.folder)
            handler.send_header("Content-Type", "application/pdf")
            handler.send_header("Content-Length", str(path.stat().st_size))
            handler.end_headers()
            with path.open("rb") as f:
                while chunk := f.read(MIB):
                    handler.wfile.write(chunk)
        else:
            data = self.bombs[encoding[kind]]
            handler.send_header("Content-Type", "text/html")
            handler.send_header("Content-Encoding", encoding[kind])
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _measure(url: str, cap: int, folder: Path) -> tuple[int, str]:
    env = {**os.environ, "READRECEIPT_ALLOW_HOSTS": url.split("/")[2]}
    lib = tempfile.mkdtemp(dir=folder)
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, url, lib, str(cap)],
                             capture_output=True, text=True, env=env, check=True,
                             timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1, f"did not finish in {CHILD_TIMEOUT:g} s"
    except subprocess.CalledProcessError as exc:
        return -1, "failed: " + (exc.stderr.strip().splitlines() or ["?"])[-1][:100]
    finally:
        subprocess.run(["rm", "-rf", lib], check=False)
    rss, size, truncated, verdict, reason, chars, prefix, seconds = out.stdout.split()
    note = (f"{int(size) / MIB:.1f} MiB{' cut' if truncated == 'True' else ''}, "
            f"{verdict} {reason}, {int(chars):,} chars")
    if prefix == "True":
        note += ", text from its beginning"
    return int(rss), f"{note}, {seconds} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caps", nargs="*", default=list(CAPS), choices=list(CAPS))
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=list(KINDS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        started = time.monotonic()
        server = _Server(folder)
        try:
            base_rss, base_note = _measure(f"{server.base}/small?size=20000",
                                           DEFAULT_MAX_BYTES, folder)
            print(f"baseline: bare capture of a 20 KB page: {base_rss} MiB ({base_note})")
            print(f"{'kind':14s} {'cap':>6s} {'peak RSS':>9s} {'x base':>7s}  what")
            for cap_name in args.caps:
                cap = CAPS[cap_name]
                for kind in args.kinds:
                    path = kind.replace(" ", "-")
                    size = cap - HEADROOM
                    rss, note = _measure(f"{server.base}/{path}?size={size}", cap, folder)
                    shown = f"{rss} MiB" if rss >= 0 else "-"
                    ratio = f"{rss / base_rss:.2f}" if rss >= 0 else "-"
                    print(f"{kind:14s} {cap_name:>6s} {shown:>9s} {ratio:>7s}  {note}",
                          flush=True)
        finally:
            server.close()
        print(f"({time.monotonic() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
