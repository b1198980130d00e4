"""The team library at scale, beside the local library holding the same rows.

1. **Questions over 1,000,000 retrievals.** The same rows (200,000 URLs on 5,000 hosts, 30
   days, 10,000 sessions, the verdict mix of real use) are loaded into a PostgreSQL index
   (COPY) and into a local SQLite index; then p50/p95 of what the commands ask, through the
   Index protocol each backend implements: ``status`` (the summary), ``log --limit 20``,
   ``history URL``, the dedup lookup (``newest_reached_since``) and a pacing reservation.
2. **Captures per second** of small article pages served on 127.0.0.1: 1, 2 and 4 worker
   processes (each its own ``readreceipt capture --from FILE --now``, as separate machines
   would be) against one team store, beside one process on the local library.
3. **Sizes** for ``docs/scaling.md``: bytes per row of ``retrievals`` with its indexes, and
   the mean size of each kind of object once real pages (the article corpus, when it is
   there) are captured into a team store.

The PostgreSQL cluster (fsync off, as the tests run it) and moto's S3 server are throwaway
ones on loopback, so the figures compare backends on one machine; they are not a tuned
server's.

    .venv/bin/python bench/team.py [--rows 1000000] [--captures 240]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from readreceipt.localserver import LocalServer  # noqa: E402
from readreceipt.store.library import Library  # noqa: E402
from readreceipt.store.rows import RETRIEVAL_COLUMNS  # noqa: E402
from readreceipt.store.team import config  # noqa: E402
from teamstore import (  # noqa: E402 - after the path insert
    AWS_KEY_ID,
    AWS_SECRET,
    BUCKET,
    start_moto,
    start_postgres,
)

BIN = Path(sys.executable).parent
URLS = 200_000
HOSTS = 5_000
SESSIONS = 10_000
SPAN_SECONDS = 30 * 86_400
T0 = 1_780_000_000  # 2026-05-28, the first fetched_at of the generated rows
VERDICTS = [("RETRIEVED", "ok")] * 82 + [("UNKNOWN", "wall:challenge")] * 6 + [
    ("UNKNOWN", "js_shell")] * 3 + [("UNKNOWN", "thin_text")] * 2 + [
    ("FAILED", "http_404")] * 4 + [("FAILED", "timeout")] * 2 + [("FAILED", "dns")]

PAGE = ("<html><head><title>Item {n}</title></head><body><article><h1>Item {n}</h1>"
        "<p>This is the text of item {n}, written out in whole sentences so that the "
        "extractor finds a main text worth keeping. It says what item {n} is, where it came "
        "from and why anyone would want to read about it.</p><p>A second paragraph adds a "
        "little more about item {n}, so that the page is not judged thin.</p></article>"
        "</body></html>")


def url_of(n: int) -> str:
    return f"https://host{n % HOSTS}.example/articles/{n}"


def row(i: int) -> tuple[Any, ...]:
    """The i-th generated retrieval, in RETRIEVAL_COLUMNS order."""
    rnd = random.Random(i)  # noqa: S311 - reproducible made-up rows, no secret
    n = rnd.randrange(URLS)
    when = T0 + i * SPAN_SECONDS // 1_000_000 + rnd.random()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(when)) + f".{i % 1_000_000:06d}Z"
    verdict, reason = VERDICTS[i % len(VERDICTS)]
    reached = reason not in ("timeout", "dns")
    digest = f"{rnd.getrandbits(256):064x}"
    values = {
        "record_id": stamp[:19].replace("-", "").replace(":", "") + f"Z-{i:08x}",
        "url": url_of(n), "final_url": url_of(n), "host": f"host{n % HOSTS}.example",
        "fetched_at": stamp, "http_status": (404 if reason == "http_404" else 200)
        if reached else None, "content_type": "text/html" if reached else None,
        "verdict": verdict, "reason": reason, "wall": "challenge" if "wall" in reason else None,
        "bytes": rnd.randrange(2_000, 400_000) if reached else 0,
        "bytes_sha256": digest if reached else None, "bytes_kept": reached,
        "truncated": False, "text_sha256": f"{rnd.getrandbits(256):064x}" if reached else None,
        "page_text_sha256": f"{rnd.getrandbits(256):064x}" if reached else None,
        "text_chars": rnd.randrange(0, 20_000) if reached else 0,
        "javascript_executed": reason == "js_shell", "session_id": f"s{rnd.randrange(SESSIONS)}",
        "agent_id": None, "answer_outcome": "found" if i % 7 == 0 else None,
        "answer_without_page_text": False, "title": f"Article {n}" if reached else None,
    }
    return tuple(values[c] for c in RETRIEVAL_COLUMNS)


def rows(count: int) -> Iterator[tuple[Any, ...]]:
    return (row(i) for i in range(count))


def load_postgres(url: str, count: int) -> float:
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        with conn.cursor() as cur, cur.copy(
                f"COPY retrievals ({', '.join(RETRIEVAL_COLUMNS)}) FROM STDIN") as copy:
            for values in rows(count):
                copy.write_row(values)
        conn.execute("ANALYZE retrievals")
    return time.perf_counter() - started


def load_sqlite(path: Path, count: int) -> float:
    started = time.perf_counter()
    conn = sqlite3.connect(path, isolation_level=None)
    marks = ", ".join("?" for _ in RETRIEVAL_COLUMNS)
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO retrievals ({', '.join(RETRIEVAL_COLUMNS)}) "  # noqa: S608 - constant column names
                     f"VALUES ({marks})", rows(count))
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - started


def percentiles(call: Callable[[int], object], times: int) -> tuple[float, float]:
    samples = []
    for k in range(times):
        started = time.perf_counter()
        call(k)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.95) - 1)]


def questions(lib: Library, count: int) -> dict[str, tuple[float, float]]:
    rnd = random.Random(7)  # noqa: S311 - which URLs to ask about, no secret
    known = [url_of(rnd.randrange(min(URLS, count))) for _ in range(200)]
    since = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(T0 + SPAN_SECONDS - 900))
    index = lib.index
    return {
        "status (summary)": percentiles(lambda k: index.summary(), 10),
        "log --limit 20": percentiles(lambda k: index.retrievals(limit=20), 200),
        "history URL": percentiles(lambda k: index.for_url(known[k % 200]), 200),
        "dedup lookup": percentiles(
            lambda k: index.newest_reached_since(known[k % 200], since), 200),
        "pacing reservation": percentiles(
            lambda k: index.reserve_pacing_slot(f"host{k % HOSTS}.example", 2.0, time.time),
            200),
    }


def sizes(url: str) -> dict[str, float]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        count, heap, total = conn.execute(
            "SELECT count(*), pg_relation_size('retrievals'), "
            "pg_total_relation_size('retrievals') FROM retrievals").fetchone()  # type: ignore[misc]
    return {"rows": count, "heap_bytes_per_row": heap / count,
            "bytes_per_row_with_indexes": total / count}


def captures_per_second(env: dict[str, str], workers: int, total: int, server: LocalServer,
                        folder: Path) -> float:
    """``total`` captures of distinct pages split among ``workers`` processes; per second."""
    urls = [server.route(f"/{folder.name}/{workers}/{n}", PAGE.format(n=n))
            for n in range(total)]
    procs = []
    started = time.perf_counter()
    for w in range(workers):
        machine = folder / f"w{workers}-{w}"
        machine.mkdir(parents=True)
        (machine / "urls.txt").write_text("\n".join(urls[w::workers]) + "\n")
        procs.append(subprocess.Popen(
            [str(BIN / "readreceipt"), "capture", "--from", "urls.txt", "--now", "--no-render",
             "--json"], cwd=machine, env={**env, "READRECEIPT_LIBRARY": str(machine / "lib")},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for proc in procs:
        _, err = proc.communicate(timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(err.decode()[-2000:])
    return total / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--captures", type=int, default=240)
    parser.add_argument("--corpus-pages", type=int, default=120,
                        help="Corpus articles captured to measure object sizes (0: none).")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="readreceipt-bench-team-"))
    postgres, moto = start_postgres(), start_moto()
    index_url = postgres.url("bench")
    result: dict[str, Any] = {"rows": args.rows}
    try:
        import psycopg

        with psycopg.connect(postgres.url(), autocommit=True) as conn:
            conn.execute("CREATE SCHEMA bench")
        s3 = {"AWS_ENDPOINT_URL": moto.endpoint, "AWS_ACCESS_KEY_ID": AWS_KEY_ID,
              "AWS_SECRET_ACCESS_KEY": AWS_SECRET, "AWS_REGION": "us-east-1"}
        os.environ.update(s3)
        team = config.resolve(None, index_url=index_url, blobs_url=f"s3://{BUCKET}/bench")
        assert team is not None
        team_lib = Library.open_team(work / "here", team)
        local_lib = Library.open_local(work / "local")
        if args.rows:
            result["load_seconds"] = {
                "postgres (COPY)": load_postgres(index_url, args.rows),
                "sqlite (executemany)": load_sqlite(work / "local" / "index.db", args.rows)}
            result["sizes"] = sizes(index_url)
            result["questions_ms"] = {"postgres": questions(team_lib, args.rows),
                                      "sqlite": questions(local_lib, args.rows)}
        team_lib.close()
        local_lib.close()

        env = {k: v for k, v in os.environ.items() if not k.startswith("READRECEIPT_")}
        server = LocalServer()
        env["READRECEIPT_ALLOW_HOSTS"] = server.pair
        try:
            with psycopg.connect(postgres.url(), autocommit=True) as conn:
                conn.execute("CREATE SCHEMA captures")
                conn.execute("CREATE SCHEMA corpus")
            team_env = {**env, "READRECEIPT_INDEX_URL": postgres.url("captures"),
                        "READRECEIPT_BLOBS_URL": f"s3://{BUCKET}/captures"}
            if args.captures:
                result["captures_per_second"] = {"local, 1 process": captures_per_second(
                    env, 1, args.captures, server, work / "local-captures")}
                for workers in (1, 2, 4):
                    result["captures_per_second"][f"team, {workers} process"
                                                  f"{'es' if workers > 1 else ''}"] = \
                        captures_per_second(team_env, workers, args.captures, server,
                                            work / f"team-captures-{workers}")
            if args.corpus_pages:
                result["object_sizes"] = corpus_sizes(
                    {**env, "READRECEIPT_INDEX_URL": postgres.url("corpus"),
                     "READRECEIPT_BLOBS_URL": f"s3://{BUCKET}/corpus"},
                    args.corpus_pages, server, work / "corpus")
                if "sizes" in result:
                    result["sizes"].update(_pg_sizes(postgres.url("corpus"), "corpus rows"))
        finally:
            server.close()
    finally:
        moto.stop()
        postgres.stop()
        shutil.rmtree(work, ignore_errors=True)
    report(result)


def corpus_sizes(env: dict[str, str], count: int, server: LocalServer,
                 folder: Path) -> dict[str, float]:
    """Capture ``count`` corpus articles into a team store; the mean size of each kind of
    object (bytes, texts, records) and how many of each a capture made."""
    try:
        from _corpus_server import load_articles
    except ImportError:
        return {}
    try:
        pages = list(load_articles().items())[:count]
    except OSError:
        return {}
    if not pages:
        return {}
    urls = [server.route(f"/corpus/{sha}", body, headers={"Content-Type": "text/html"})
            for sha, body in pages]
    folder.mkdir(parents=True)
    (folder / "urls.txt").write_text("\n".join(urls) + "\n")
    subprocess.run([str(BIN / "readreceipt"), "capture", "--from", "urls.txt", "--now",
                    "--no-render", "--jobs", "2", "--json"], cwd=folder, env=env,
                   capture_output=True, timeout=1800, check=False)
    import boto3

    client = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], region_name="us-east-1",
                          aws_access_key_id=AWS_KEY_ID, aws_secret_access_key=AWS_SECRET)
    sizes: dict[str, list[int]] = {"records": [], "store": [], "text": []}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET,
                                                                 Prefix="corpus/"):
        for item in page.get("Contents", []):
            kind = item["Key"].split("/")[1]
            if kind in sizes:
                sizes[kind].append(int(item["Size"]))
    found: dict[str, float] = {"corpus pages captured": len(sizes["records"])}
    for kind, values in sizes.items():
        if values:
            found[f"{kind}/ objects"] = len(values)
            found[f"{kind}/ mean bytes"] = statistics.mean(values)
            found[f"{kind}/ median bytes"] = statistics.median(values)
    return found


def _pg_sizes(url: str, label: str) -> dict[str, float]:
    measured = sizes(url)
    return {f"{label}: bytes per row with indexes": measured["bytes_per_row_with_indexes"]}


def report(result: dict[str, Any]) -> None:
    if "questions_ms" in result:
        print(f"\n{result['rows']:,} retrievals loaded: " + ", ".join(
            f"{name} {seconds:.0f} s" for name, seconds in result["load_seconds"].items()))
        print("\n| question | PostgreSQL p50 / p95 (ms) | SQLite p50 / p95 (ms) |\n"
              "|---|---|---|")
        pg, lite = result["questions_ms"]["postgres"], result["questions_ms"]["sqlite"]
        for name in pg:
            print(f"| {name} | {pg[name][0]:.2f} / {pg[name][1]:.2f} | "
                  f"{lite[name][0]:.2f} / {lite[name][1]:.2f} |")
    print("\n| captures | per second |\n|---|---|")
    for name, rate in result.get("captures_per_second", {}).items():
        print(f"| {name} | {rate:.1f} |")
    print("\n| size | value |\n|---|---|")
    for name, value in {**result.get("sizes", {}), **result.get("object_sizes", {})}.items():
        print(f"| {name} | {value:,.0f} |")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    name = "team.json" if "questions_ms" in result else "team-sizes.json"
    (out / name).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
