"""Benchmark: export throughput and the viewer's list page, for a library of 10,000 retrievals.

The library is built from the 181 pages of ../shared/corpus/articles straight through the
Library API (put_bytes, put_text, save), NOT by capturing over HTTP: 10,000 paced captures
would take hours. Each page is extracted once; its captures are then repeated at different
times: every other capture of a page carries a changed byte (a comment appended, so a new
payload with the same text, as HTML mostly is), every fourth is of the URL with a query added
(the same bytes at another URL), and every 25th is a timeout with no response. So about half
the exported responses are revisits. The library is kept in bench/out/ and reused.

Reported in one run: records per second for a read-only pass over the library (load each
record, read its bytes and texts: the floor any export pays), and for WARC, WARC.gz and WACZ
exports, with the ratio to that pass; the viewer's page times (median of several HTTP GETs
against the running server) at 10,000 retrievals and, as the baseline, at 181.

    .venv/bin/python bench/export.py [--records 10000] [--gets 15] [--rebuild]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
# ../shared beside the checkout, or beside the folder that holds it (a worktree)
CORPUS = next((p / "shared" / "corpus" for p in HERE.parents[1:3]
               if (p / "shared" / "corpus").is_dir()), HERE.parent.parent / "shared" / "corpus"
              ) / "articles"
sys.path.insert(0, str(HERE.parent / "src"))

from readreceipt.export import export_wacz, export_warc  # noqa: E402 - after the path insert
from readreceipt.reading.extract import extract  # noqa: E402
from readreceipt.store.library import Library  # noqa: E402
from readreceipt.store.records import Record  # noqa: E402
from readreceipt.viewer import make_viewer_server  # noqa: E402

T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def corpus_pages() -> list[dict[str, Any]]:
    truth = json.loads((CORPUS / "ground-truth.json").read_text())
    pages = []
    for digest, entry in sorted(truth.items()):
        body = gzip.decompress((CORPUS / "html" / f"{digest}.html.gz").read_bytes())
        ex = extract(body, "text/html")
        pages.append({"url": entry["url"], "body": body, "main": ex.main_text,
                      "page": ex.page_text, "title": ex.title, "extractor": ex.extractor,
                      "charset": ex.charset})
    return pages


def build(root: Path, count: int) -> float:
    """Write ``count`` retrievals into a new library at ``root``; seconds taken."""
    started = time.perf_counter()
    pages = corpus_pages()
    lib = Library.open(root)
    texts: dict[int, tuple[str, str]] = {}
    for i in range(count):
        n, k = i % len(pages), i // len(pages)
        page = pages[n]
        when = (T0 + timedelta(seconds=37 * i)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        record_id = f"{when[:4]}{when[5:7]}{when[8:10]}T{when[11:13]}{when[14:16]}" \
                    f"{when[17:19]}Z-{i:08x}"
        url = page["url"] + (f"?copy={k}" if k % 4 == 3 else "")
        if i % 25 == 24:
            lib.save(Record(record_id=record_id, url=url, final_url=url, fetched_at=when,
                            verdict="FAILED", reason="timeout", user_agent="readreceipt/bench",
                            session_id=f"bench-{i // 100}"))
            continue
        body = page["body"] + (f"\n<!-- capture {k} -->".encode() if k % 2 else b"")
        lib.put_bytes(body)
        if n not in texts:
            texts[n] = (lib.put_text(page["main"]), lib.put_text(page["page"]))
        main_digest, page_digest = texts[n]
        lib.save(Record(
            record_id=record_id, url=url, final_url=url, fetched_at=when, http_status=200,
            content_type="text/html", charset=page["charset"], bytes=len(body),
            bytes_sha256=hashlib.sha256(body).hexdigest(), bytes_kept=True,
            text_sha256=main_digest, page_text_sha256=page_digest,
            text_chars=len(page["main"]), extractor=page["extractor"],
            response_headers={"content-type": "text/html; charset=utf-8",
                              "server": "bench", "content-encoding": "gzip"},
            peer_address="203.0.113.10", user_agent="readreceipt/bench", verdict="RETRIEVED",
            reason="ok", session_id=f"bench-{i // 100}", title=page["title"]))
    lib.close()
    return time.perf_counter() - started


def library(count: int, rebuild: bool) -> tuple[Path, float | None]:
    root = OUT / f"export-library-{count}"
    stamp = root / "BUILT"
    if rebuild or not stamp.exists():
        shutil.rmtree(root, ignore_errors=True)
        seconds = build(root, count)
        stamp.write_text(json.dumps({"records": count, "seconds": seconds}))
        return root, seconds
    return root, None


def read_pass(lib: Library) -> float:
    """Load every record with its bytes and texts, as an export must; seconds."""
    started = time.perf_counter()
    for row in lib.index.retrievals(limit=None):
        record = lib.load(row.record_id)
        lib.body(record)
        lib.text(record.text_sha256)
        lib.text(record.page_text_sha256)
    return time.perf_counter() - started


def timed_export(lib: Library, kind: str, folder: Path) -> dict[str, Any]:
    path = folder / {"warc": "out.warc", "warc.gz": "out.warc.gz", "wacz": "out.wacz"}[kind]
    started = time.perf_counter()
    result = (export_wacz if kind == "wacz" else export_warc)(lib, path)
    seconds = time.perf_counter() - started
    size = path.stat().st_size
    path.unlink()
    return {"seconds": seconds, "records_per_second": result.retrievals / seconds,
            "bytes": size, "warc_records": result.warc_records,
            "exported_as": result.by_kind}


def get_median(port: int, path: str, gets: int) -> dict[str, float]:
    times = []
    for _ in range(gets):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - started)
        conn.close()
        assert response.status == 200, (path, response.status)
    return {"median_ms": 1000 * statistics.median(times), "min_ms": 1000 * min(times)}


def viewer_times(root: Path, gets: int, history_url: str) -> dict[str, dict[str, float]]:
    lib = Library.open(root)
    server, _ = make_viewer_server(lib, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        total = lib.index.count_retrievals()
        newest = lib.index.retrievals(limit=1)[0].record_id
        paths = {
            "list": "/",
            "list, FAILED only": "/?verdict=FAILED",
            "list, URL filter": "/?url=copy%3D3",
            "list, last page": f"/?offset={max(0, total - 50)}",
            "one retrieval": f"/record/{newest}",
            "history of a URL": "/history?" + urlencode({"url": history_url}),
        }
        return {name: get_median(port, path, gets) for name, path in paths.items()}
    finally:
        server.shutdown()
        server.server_close()
        lib.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--gets", type=int, default=15)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)

    root, built = library(args.records, args.rebuild)
    small, _ = library(181, args.rebuild)
    history_url = json.loads((CORPUS / "ground-truth.json").read_text())[
        sorted(json.loads((CORPUS / "ground-truth.json").read_text()))[0]]["url"]
    report: dict[str, Any] = {"records": args.records, "library_build_seconds": built,
                              "built_through": "Library API (put_bytes/put_text/save), "
                                               "not HTTP captures"}
    with Library.open(root) as lib:
        seconds = read_pass(lib)
        report["read_pass"] = {"seconds": seconds, "records_per_second": args.records / seconds}
        with tempfile.TemporaryDirectory(dir=OUT) as work:
            for kind in ("warc", "warc.gz", "wacz"):
                report[kind] = timed_export(lib, kind, Path(work))
                report[kind]["ratio_to_read_pass"] = (
                    report["read_pass"]["records_per_second"]
                    / report[kind]["records_per_second"])
    report["viewer"] = {"at_records": args.records,
                        "pages": viewer_times(root, args.gets, history_url),
                        "baseline_181": viewer_times(small, args.gets, history_url)}
    (OUT / "export.json").write_text(json.dumps(report, indent=2))

    print(f"library: {args.records} retrievals from the 181 corpus pages, built through the "
          "Library API"
          + (f" in {built:.0f} s" if built else " (reused)"))
    print(f"read-only pass        {report['read_pass']['records_per_second']:8.0f} records/s")
    for kind in ("warc", "warc.gz", "wacz"):
        r = report[kind]
        print(f"export {kind:<8}       {r['records_per_second']:8.0f} records/s "
              f"({r['seconds']:.1f} s, {r['bytes'] / 1e6:.0f} MB, {r['ratio_to_read_pass']:.1f}x "
              f"the read pass) {r['exported_as']}")
    print(f"viewer (median of {args.gets} GETs)   at {args.records:>6}   at 181")
    for name, figures in report["viewer"]["pages"].items():
        base = report["viewer"]["baseline_181"][name]["median_ms"]
        print(f"  {name:<20} {figures['median_ms']:8.1f} ms {base:8.1f} ms")


if __name__ == "__main__":
    main()
