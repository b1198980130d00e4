"""Which S3 client the team library uses: boto3 against obstore, measured in one run.

The hook's worker imports the object store client on every WebFetch it captures into a team
library, so import cost matters as much as speed. Measured here, interleaved round by round:

- import: wall time and the resident memory added by ``import <client>`` in a fresh interpreter
  (the median of several), beside ``python -c pass`` (the floor) and psycopg (the index's
  driver, imported beside it);
- against a moto S3 server on 127.0.0.1: conditional puts (``If-None-Match: *``) of small
  objects (a record or a text, 5 KiB), a second put of the same key (the no-op path), and a
  10 MiB body put and read back streaming.

moto is slow next to a real S3 and is the same server for both, so read the ratios, not the
absolute figures.

    .venv/bin/python bench/s3_clients.py [--rounds 7] [--objects 200]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from teamstore import AWS_KEY_ID, AWS_SECRET, BUCKET, start_moto  # noqa: E402 - after the path insert

#: Resident memory from /proc (what the import added and still holds), and the import's time.
IMPORT_PROBE = ("import time\n"
                "def rss():\n"
                "    for line in open('/proc/self/status'):\n"
                "        if line.startswith('VmRSS:'):\n"
                "            return int(line.split()[1])\n"
                "before = rss()\n"
                "t = time.perf_counter()\n"
                "{stmt}\n"
                "took = time.perf_counter() - t\n"
                "print(took, (rss() - before) / 1024)\n")


def import_cost(stmt: str, rounds: int) -> tuple[float, float]:
    """Median seconds and MiB of ``stmt`` in a fresh interpreter."""
    seconds, mib = [], []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", IMPORT_PROBE.format(stmt=stmt)],
                             capture_output=True, check=True, timeout=120).stdout.split()
        seconds.append(float(out[0]))
        mib.append(float(out[1]))
    return statistics.median(seconds), statistics.median(mib)


def with_obstore(endpoint: str, prefix: str, objects: int, big: bytes) -> dict[str, float]:
    import obstore
    from obstore.exceptions import AlreadyExistsError
    from obstore.store import S3Store

    store = S3Store(BUCKET, prefix=prefix, endpoint=endpoint, region="us-east-1",
                    access_key_id=AWS_KEY_ID, secret_access_key=AWS_SECRET,
                    client_options={"allow_http": True})
    small = os.urandom(5 * 1024)
    started = time.perf_counter()
    for n in range(objects):
        obstore.put(store, f"small/{n}", small, mode="create")
    puts = time.perf_counter() - started
    started = time.perf_counter()
    for n in range(objects):
        with contextlib.suppress(AlreadyExistsError):
            obstore.put(store, f"small/{n}", small, mode="create")
    again = time.perf_counter() - started
    started = time.perf_counter()
    obstore.put(store, "big", big, mode="create")
    read = sum(len(chunk) for chunk in obstore.get(store, "big").stream(1024 * 1024))
    assert read == len(big)
    return {"put_per_s": objects / puts, "noop_put_per_s": objects / again,
            "big_put_get_s": time.perf_counter() - started}


def with_boto3(endpoint: str, prefix: str, objects: int, big: bytes) -> dict[str, float]:
    import boto3
    from botocore.exceptions import ClientError

    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id=AWS_KEY_ID, aws_secret_access_key=AWS_SECRET)
    small = os.urandom(5 * 1024)
    started = time.perf_counter()
    for n in range(objects):
        client.put_object(Bucket=BUCKET, Key=f"{prefix}/small/{n}", Body=small, IfNoneMatch="*")
    puts = time.perf_counter() - started
    started = time.perf_counter()
    for n in range(objects):
        with contextlib.suppress(ClientError):
            client.put_object(Bucket=BUCKET, Key=f"{prefix}/small/{n}", Body=small,
                              IfNoneMatch="*")
    again = time.perf_counter() - started
    started = time.perf_counter()
    client.put_object(Bucket=BUCKET, Key=f"{prefix}/big", Body=big, IfNoneMatch="*")
    body = client.get_object(Bucket=BUCKET, Key=f"{prefix}/big")["Body"]
    read = sum(len(chunk) for chunk in iter(lambda: body.read(1024 * 1024), b""))
    assert read == len(big)
    return {"put_per_s": objects / puts, "noop_put_per_s": objects / again,
            "big_put_get_s": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--objects", type=int, default=200)
    args = parser.parse_args()
    imports = {name: import_cost(stmt, args.rounds) for name, stmt in (
        ("python -c pass", "pass"), ("obstore", "import obstore, obstore.store"),
        ("boto3", "import boto3"), ("psycopg + psycopg_pool", "import psycopg, psycopg_pool"))}
    moto = start_moto()
    big = os.urandom(10 * 1024 * 1024)
    runs: dict[str, list[dict[str, float]]] = {"obstore": [], "boto3": []}
    try:
        for n in range(3):  # interleaved, so drift in moto hits both alike
            runs["obstore"].append(with_obstore(moto.endpoint, f"o{n}", args.objects, big))
            runs["boto3"].append(with_boto3(moto.endpoint, f"b{n}", args.objects, big))
    finally:
        moto.stop()
    speed = {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]}
             for name, rs in runs.items()}
    print("| import | seconds (median) | resident memory added (MiB) |\n|---|---|---|")
    for name, (seconds, mib) in imports.items():
        print(f"| {name} | {seconds:.3f} | {mib:.1f} |")
    print("\n| client (moto on loopback) | conditional puts/s, 5 KiB | no-op puts/s (412) | "
          "10 MiB put + streamed get (s) |\n|---|---|---|---|")
    for name, figures in speed.items():
        print(f"| {name} | {figures['put_per_s']:.0f} | {figures['noop_put_per_s']:.0f} | "
              f"{figures['big_put_get_s']:.2f} |")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    result: dict[str, Any] = {"imports": imports, "speed": speed}
    (out / "s3_clients.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
