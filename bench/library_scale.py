"""Benchmark: the library at scale: ``status``, ``log``, ``show``, ``history`` as the rows grow,
and the memory an export holds as the records grow, on the local and the team library.

1. **Questions as the rows grow.** Generated retrievals (``bench/team.py``'s rows: 200,000
   URLs on 5,000 hosts, the verdict mix of real use) are added in steps to a SQLite index and
   a PostgreSQL one (the rollup's triggers firing on every row, as captures fire them), and
   at each step the p50 of: ``status`` from the rollup (``Index.summary``), ``status`` as it
   was, counting every row (``counted_summary``: the baseline, the same run), ``log --limit
   20``, ``show ID`` (by id and by prefix) and ``history URL``. Flat means the same at every
   step.
2. **Export memory as the records grow.** A library of ``--records`` captures (small distinct
   pages, each with its bytes, texts and record, written through the Library API with fsync
   turned off in the builder only: a bench library, not evidence) is exported to WACZ at four
   sizes (``--since`` cuts: an eighth, a quarter, a half, all; ``--sizes`` names others, e.g.
   ``0.5,1`` for a team export too long to make four times), each in a fresh process whose
   peak RSS (``VmHWM``: ``ru_maxrss`` would carry the forking parent's) is its own, by this
   checkout and by ``--before SRC`` (another checkout's ``src``, e.g. main's, the
   list-holding export), interleaved. Printed: peak RSS
   per size and the slope in KiB per record (least squares over the sizes). Local and team
   (PostgreSQL + moto S3, throwaway, on loopback).
   ``--team-bulk`` builds the team library's captures faster (the same objects, six put at
   once, and the same rows by one COPY: ``build_team_bulk``); the export reads them as ever.

The machine is shared: times are medians of many asks; memory is not moved by load.

    .venv/bin/python bench/library_scale.py [--rows 10000,100000,400000] [--records 16000]
                                            [--team-records 2000]
                                            [--before /tmp/main/src] [--no-team]
                                            [--sizes 0.125,0.25,0.5,1]
                                            [--no-local] [--team-bulk]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from readreceipt.store.library import Library  # noqa: E402
from readreceipt.store.records import Record  # noqa: E402
from readreceipt.store.rows import RETRIEVAL_COLUMNS  # noqa: E402
from team import URLS, row, url_of  # noqa: E402 - after the path insert

PAGE = ("<html><head><title>Item {n}</title></head><body><article><h1>Item {n}</h1>"
        "<p>This is the text of item {n}, written out in whole sentences so that an export has "
        "something to carry. It says what item {n} is and where it came from.</p></article>"
        "</body></html>")
T0 = 1_780_000_000

EXPORT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from readreceipt.export import export_wacz
from readreceipt.export.selection import Selection
from readreceipt.store.library import Library
spec = json.loads(sys.argv[2])
if spec.get("small_buffers"):  # the bounded buffers at a tenth of their size
    from readreceipt.export import cdxj
    from readreceipt.store.local import scratch
    cdxj.SortedLines.__init__.__defaults__ = (2_500,)
    scratch.CACHE_KIB = 819
if spec.get("team"):
    from readreceipt.store.team import config
    team = config.resolve(None, index_url=spec["team"][0], blobs_url=spec["team"][1])
    lib = Library.open_team(Path(spec["here"]), team)
else:
    lib = Library.open_local(Path(spec["root"]))
started = time.perf_counter()
with lib:
    result = export_wacz(lib, Path(spec["out"]), Selection(since=spec["since"]))
# VmHWM, not ru_maxrss: Linux carries the forking parent's peak across exec into ru_maxrss
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"retrievals": result.retrievals, "seconds": time.perf_counter() - started,
                  "maxrss_kib": hwm}))
"""


# 1. questions ---------------------------------------------------------------------------

#: The export's four sizes by default: an eighth, a quarter, a half and all of the records.
SHARES = (0.125, 0.25, 0.5, 1.0)


def p50(call: Callable[[int], object], times: int) -> float:
    samples = []
    for k in range(times):
        started = time.perf_counter()
        call(k)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def add_rows_postgres(url: str, start: int, end: int) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        with conn.cursor() as cur, cur.copy(
                f"COPY retrievals ({', '.join(RETRIEVAL_COLUMNS)}) FROM STDIN") as copy:
            for i in range(start, end):
                copy.write_row(row(i))
        conn.execute("ANALYZE retrievals")


def add_rows_sqlite(path: Path, start: int, end: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    marks = ", ".join("?" for _ in RETRIEVAL_COLUMNS)
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO retrievals ({', '.join(RETRIEVAL_COLUMNS)}) "  # noqa: S608 - constant column names
                     f"VALUES ({marks})", (row(i) for i in range(start, end)))
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def ask(lib: Library, count: int) -> dict[str, float]:
    index = lib.index
    some = [row(i * max(1, count // 200)) for i in range(200)]
    ids = [r[0] for r in some]
    urls = [url_of(i * 997 % min(URLS, count)) for i in range(200)]
    assert index.summary() == index.counted_summary()  # type: ignore[attr-defined]
    return {
        "status (rollup)": p50(lambda k: index.summary(), 30),
        "status, counting every row (before)": p50(
            lambda k: index.counted_summary(), 5),  # type: ignore[attr-defined]
        "log --limit 20": p50(lambda k: index.retrievals(limit=20), 200),
        "show ID": p50(lambda k: index.retrieval(ids[k % 200]), 200),
        "show PREFIX": p50(lambda k: index.ids_with_prefix(ids[k % 200][:18]), 200),
        "history URL": p50(lambda k: index.for_url(urls[k % 200]), 200),
    }


def questions(steps: list[int], work: Path, team: Any | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    local = Library.open_local(work / "rows-local")
    backends: list[tuple[str, Library, Callable[[int, int], None]]] = [
        ("sqlite", local, lambda a, b: add_rows_sqlite(work / "rows-local" / "index.db", a, b))]
    if team is not None:
        backends.append(("postgres", Library.open_team(work / "rows-here", team),
                         lambda a, b: add_rows_postgres(team.index_url, a, b)))
    done = 0
    for step in steps:
        for name, lib, add in backends:
            started = time.perf_counter()
            add(done, step)
            load = time.perf_counter() - started
            found.setdefault(name, {})[step] = {"load_seconds": load, **ask(lib, step)}
            print(f"  {name} at {step:,} rows: " + ", ".join(
                f"{k} {v:.2f}" for k, v in found[name][step].items()), flush=True)
        done = step
    for _, lib, _ in backends:
        lib.close()
    return found


# 2. export memory -------------------------------------------------------------------------

def stamp(i: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(T0 + 37 * i)) + ".000000Z"


def capture(i: int, count: int) -> tuple[bytes, str, Record]:
    """The ``i``-th capture of a bench library of ``count``: its body, its text, its record."""
    body = PAGE.format(n=i).encode()
    when = stamp(i)
    url = f"https://host{i % 50}.example/item/{i % (count // 2 or 1)}"
    text = f"This is the text of item {i}."
    digest = lib_sha(text.encode("utf-8"))
    record = Record(
        record_id=when[:19].replace("-", "").replace(":", "") + f"Z-{i:08x}", url=url,
        final_url=url, fetched_at=when, http_status=200, content_type="text/html",
        charset="utf-8", bytes=len(body), bytes_sha256=lib_sha(body), bytes_kept=True,
        text_sha256=digest, page_text_sha256=digest, text_chars=len(text),
        extractor="trafilatura", response_headers={"content-type": "text/html"},
        peer_address="203.0.113.10", user_agent="readreceipt/bench",
        verdict="RETRIEVED", reason="ok", session_id=f"bench-{i // 100}",
        title=f"Item {i}")
    return body, text, record


def build(lib: Library, count: int) -> float:
    """``count`` captures in ``lib``, through the Library API; seconds. fsync is off here
    (a bench library)."""
    real_fsync = os.fsync
    os.fsync = lambda fd: None
    started = time.perf_counter()
    try:
        for i in range(count):
            body, text, record = capture(i, count)
            lib.put_bytes(body)
            lib.put_text(text)
            lib.save(record)
    finally:
        os.fsync = real_fsync
    return time.perf_counter() - started


def build_team_bulk(team: Any, count: int, threads: int = 6) -> float:
    """The same ``count`` captures as :func:`build` in the team library ``team``, written
    faster: the same objects (bytes, text, record YAML, under the keys the library uses) put
    by ``threads`` threads at once, and the same index rows by one COPY (the rollup's
    triggers fire on it as on INSERTs). The export then reads them the normal way. Seconds."""
    from concurrent.futures import ThreadPoolExecutor

    import psycopg

    from readreceipt.store.rows import row_for
    from readreceipt.store.team.objects import Bucket, ObjectBlobStore, ObjectRecordStore

    lib = Library.open_team(Path(tempfile.gettempdir()) / "readreceipt-bulk-here", team)
    lib.close()  # made the schema (migrations); the rows go in by COPY below
    bucket = Bucket(team)
    blobs, texts = ObjectBlobStore(bucket, "store"), ObjectBlobStore(bucket, "text")
    records = ObjectRecordStore(bucket)
    started = time.perf_counter()

    def put(i: int) -> tuple[Any, ...]:
        body, text, record = capture(i, count)
        bucket.put(blobs.key(lib_sha(body)), body)
        bucket.put(texts.key(lib_sha(text.encode("utf-8"))), text.encode("utf-8"))
        bucket.put(records.key(record.record_id), record.to_yaml().encode("utf-8"))
        return row_for(record)

    with ThreadPoolExecutor(threads) as pool, \
            psycopg.connect(team.index_url, autocommit=True) as conn:
        with conn.cursor() as cur, cur.copy(
                f"COPY retrievals ({', '.join(RETRIEVAL_COLUMNS)}) FROM STDIN") as copy:
            for done, values in enumerate(pool.map(put, range(count)), 1):
                copy.write_row(values)
                if done % 10_000 == 0:
                    print(f"    {done:,} of {count:,} built", flush=True)
        conn.execute("ANALYZE retrievals")
    return time.perf_counter() - started


def lib_sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def export_memory(spec: dict[str, Any], count: int, sources: dict[str, Path], rounds: int,
                  work: Path, shares: tuple[float, ...] = SHARES
                  ) -> dict[str, dict[int, dict[str, float]]]:
    sizes = [round(count * share) for share in shares]
    found: dict[str, dict[int, list[dict[str, float]]]] = {n: {} for n in sources}
    for r in range(rounds):
        for size in sizes:
            order = list(sources.items())
            if r % 2:
                order.reverse()
            for name, src in order:
                out = work / f"export-{name}-{size}.wacz"
                run = subprocess.run(
                    [sys.executable, "-c", EXPORT, str(src), json.dumps(
                        {**spec, "since": stamp(count - size), "out": str(out)})],
                    capture_output=True, text=True, timeout=7200, check=False)
                out.unlink(missing_ok=True)
                if run.returncode != 0:
                    raise RuntimeError(run.stderr[-2000:])
                figures = json.loads(run.stdout.strip().splitlines()[-1])
                assert figures["retrievals"] == size, (figures, size)
                found[name].setdefault(size, []).append(figures)
                print(f"  {name:<7} {size:>8,} records: {figures['maxrss_kib'] / 1024:7.1f} MiB"
                      f" {figures['seconds']:7.1f} s", flush=True)
    return {name: {size: {"maxrss_mib": max(f["maxrss_kib"] for f in runs) / 1024,
                          "seconds": statistics.median(f["seconds"] for f in runs)}
                   for size, runs in by_size.items()} for name, by_size in found.items()}


def parse_shares(text: str) -> tuple[float, ...]:
    """``--sizes``: the shares of the records exported, each in (0, 1], in rising order."""
    shares = tuple(float(part) for part in text.split(","))
    if not shares or any(not 0 < s <= 1 for s in shares) or list(shares) != sorted(shares):
        raise argparse.ArgumentTypeError("shares in (0, 1], rising, comma-separated")
    return shares


def slope(points: dict[int, dict[str, float]]) -> float:
    """KiB of peak RSS per record (least squares)."""
    xs = list(points)
    ys = [points[x]["maxrss_mib"] * 1024 for x in xs]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / \
        sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10000,100000,400000")
    parser.add_argument("--records", type=int, default=16_000)
    parser.add_argument("--team-records", type=int, default=2_000,
                        help="records of the team library (moto answers a GET in ~10 ms)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, default=None)
    parser.add_argument("--no-team", action="store_true")
    parser.add_argument("--no-questions", action="store_true")
    parser.add_argument("--no-export", action="store_true")
    parser.add_argument("--no-local", action="store_true",
                        help="the team library's export memory only")
    parser.add_argument("--team-bulk", action="store_true",
                        help="build the team library with build_team_bulk (the same objects "
                             "and rows, put several at once and COPYed) instead of through "
                             "the Library API")
    parser.add_argument("--small-buffers", action="store_true",
                        help="this checkout's export with its bounded buffers (index lines "
                             "sorted in memory, the scratch file's cache) at a tenth of their "
                             "size: what grows below those bounds shows as slope")
    parser.add_argument("--sizes", type=parse_shares, default=SHARES,
                        help="the shares of the records exported, each in a fresh process "
                             "(default 0.125,0.25,0.5,1; fewer for a long team export)")
    parser.add_argument("--json", type=Path, default=HERE / "out" / "library_scale.json")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="readreceipt-bench-scale-"))
    report: dict[str, Any] = {"rows": args.rows, "records": args.records}
    postgres = moto = team = None
    try:
        if not args.no_team:
            import psycopg

            from readreceipt.store.team import config
            from teamstore import AWS_KEY_ID, AWS_SECRET, BUCKET, start_moto, start_postgres

            postgres, moto = start_postgres(), start_moto()
            os.environ.update({"AWS_ENDPOINT_URL": moto.endpoint,
                               "AWS_ACCESS_KEY_ID": AWS_KEY_ID,
                               "AWS_SECRET_ACCESS_KEY": AWS_SECRET, "AWS_REGION": "us-east-1"})
            with psycopg.connect(postgres.url(), autocommit=True) as conn:
                conn.execute("CREATE SCHEMA rows")
                conn.execute("CREATE SCHEMA records")
            team = config.resolve(None, index_url=postgres.url("rows"),
                                  blobs_url=f"s3://{BUCKET}/rows")
        if not args.no_questions:
            steps = [int(s) for s in args.rows.split(",")]
            print("questions (p50, ms):", flush=True)
            report["questions_ms"] = questions(steps, work, team)
        if not args.no_export:
            sources = {"after": SRC} | ({"before": args.before} if args.before else {})
            print("export to WACZ, peak RSS:", flush=True)
            if not args.no_local:
                local = Library.open_local(work / "records-local")
                built = build(local, args.records)
                local.close()
                print(f"  local library of {args.records:,} records built in {built:.0f} s",
                      flush=True)
                report["export_local"] = export_memory(
                    {"root": str(work / "records-local"), "small_buffers": args.small_buffers},
                    args.records, sources, args.rounds, work, args.sizes)
            if team is not None and postgres is not None:
                from readreceipt.store.team import config
                from teamstore import BUCKET

                records_team = config.resolve(None, index_url=postgres.url("records"),
                                              blobs_url=f"s3://{BUCKET}/records")
                if args.team_bulk:
                    built = build_team_bulk(records_team, args.team_records)
                else:
                    lib = Library.open_team(work / "records-here", records_team)
                    built = build(lib, args.team_records)
                    lib.close()
                print(f"  team library of {args.team_records:,} records built in {built:.0f} s",
                      flush=True)
                report["export_team"] = export_memory(
                    {"team": [records_team.index_url, records_team.blobs_url],
                     "here": str(work / "records-here"), "small_buffers": args.small_buffers},
                    args.team_records, sources, args.rounds, work, args.sizes)
            for key in ("export_local", "export_team"):
                for name, points in report.get(key, {}).items():
                    if len(points) < 2:  # one size has no slope
                        continue
                    report.setdefault("slopes_kib_per_record", {})[f"{key} {name}"] = \
                        slope(points)
            print("slopes, KiB of peak RSS per record:", json.dumps(
                report.get("slopes_kib_per_record"), indent=1), flush=True)
    finally:
        if moto is not None:
            moto.stop()
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(work, ignore_errors=True)
    args.json.parent.mkdir(exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
