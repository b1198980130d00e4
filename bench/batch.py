"""Benchmark: ``capture --from FILE --jobs N`` against one job, the command run whole.

The 181 articles of ../shared/corpus/articles are served by four local servers (127.0.0.1 to
127.0.0.4 where the system has them, else 127.0.0.1 four times) under many host names, each
pinned to one of them with ``--resolve`` and exempted with ``READRECEIPT_ALLOW_HOSTS``: every
name is fetched twice, far apart in the list, so the batch runs as a real one does (robots.txt
asked once per host, each capture waiting for its host's turn, 2 s apart) without the pacing
being what limits it. Each run is the real console script with a fresh library; the rounds
interleave the job counts (1, 2, 4, 8 jobs, the order turned each round), so a machine shared
with other work slows each alike. Printed per job count: the median wall time, the captures
per second, and the rate against one job's in the same round (median over rounds).

Every run must exit 0 with every URL reported RETRIEVED; a run that does not stops the
benchmark. Figures, not assertions (issue 23: two jobs at least 1.8 times one job's rate on a
two-core machine).

    .venv/bin/python bench/batch.py [--rounds 3] [--jobs 1,2,4,8] [--pages 181]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import load_articles
from readreceipt.localserver import LocalServer, Route

BIN = Path(sys.executable).parent
ADDRESSES = ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4")
TARGET = 1.8


def start_servers(pages: dict[str, bytes], stack: ExitStack) -> list[LocalServer]:
    routes = {f"/{key}": Route(200, body, {"Content-Type": "text/html"})
              for key, body in pages.items()}
    servers = []
    for address in ADDRESSES:
        try:
            servers.append(stack.enter_context(LocalServer(routes, host=address)))
        except OSError:  # not every system answers on all of 127/8 (macOS: 127.0.0.1 only)
            servers.append(stack.enter_context(LocalServer(routes)))
    return servers


def plan(keys: list[str], servers: list[LocalServer]) -> tuple[list[str], list[str], str]:
    """URLs (each host twice, far apart), the --resolve pins, the exemptions."""
    hosts = (len(keys) + 1) // 2
    urls, pins, pairs = [], [], []
    for h in range(hosts):
        server = servers[h % len(servers)]
        name = f"site{h}.batch.test"
        pins.append(f"{name}:{server.port}:{server.host}")
        pairs.append(f"{name}:{server.port}")
    for i, key in enumerate(keys):
        h = i % hosts
        server = servers[h % len(servers)]
        urls.append(f"http://site{h}.batch.test:{server.port}/{key}")
    return urls, pins, ",".join(pairs)


def run(jobs: int, listed: Path, pins: list[str], env: dict[str, str], work: Path,
        expected: int) -> float:
    """Wall seconds of one batch, from the command's start to its exit."""
    library = Path(tempfile.mkdtemp(dir=work))
    args = [str(BIN / "readreceipt"), "capture", "--from", str(listed), "--jobs", str(jobs),
            "--no-render", "--json", "--library", str(library / "lib")]
    for pin in pins:
        args += ["--resolve", pin]
    started = time.perf_counter()
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"--jobs {jobs} exited {out.returncode}:\n{out.stderr[-3000:]}")
    captures = json.loads(out.stdout)["captures"]
    verdicts = {c.get("verdict") for c in captures}
    if len(captures) != expected or verdicts != {"RETRIEVED"}:
        raise SystemExit(f"--jobs {jobs}: {len(captures)} captures reported, verdicts {verdicts}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", default="1,2,4,8")
    parser.add_argument("--pages", type=int, default=None)
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    counts = sorted({int(j) for j in args.jobs.split(",")} | {1})
    pages = dict(list(load_articles().items())[:args.pages])
    walls: dict[int, list[float]] = {n: [] for n in counts}
    speedups: dict[int, list[float]] = {n: [] for n in counts}
    load_before = os.getloadavg()[0]
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        servers = start_servers(pages, stack)
        urls, pins, pairs = plan(list(pages), servers)
        listed = Path(tmp) / "urls.txt"
        listed.write_text("\n".join(urls) + "\n", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith("READRECEIPT_")}
        env["READRECEIPT_ALLOW_HOSTS"] = pairs
        for r in range(args.rounds):
            order = counts[r % len(counts):] + counts[:r % len(counts)]
            took = {}
            for n in order:
                took[n] = run(n, listed, pins, env, Path(tmp), len(urls))
                walls[n].append(took[n])
            for n in counts:
                speedups[n].append(took[1] / took[n])
    hosts = len({u.split("/")[2] for u in urls})
    print(f"batch: {len(urls)} captures from {hosts} host names on "
          f"{len({s.host for s in servers})} loopback addresses, {args.rounds} rounds, "
          f"{os.cpu_count()} cores, the command run whole; load average "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after (other work on the "
          "machine takes its share of the cores from every job count alike)")
    print(f"{'jobs':>5} {'wall s':>8} {'captures/s':>11} {'x one job':>10}")
    figures = []
    for n in counts:
        wall = statistics.median(walls[n])
        speedup = statistics.median(speedups[n])
        figures.append({"jobs": n, "wall_s": round(wall, 2),
                        "captures_per_s": round(len(urls) / wall, 2),
                        "speedup": round(speedup, 3)})
        print(f"{n:>5} {wall:8.2f} {len(urls) / wall:11.2f} {speedup:10.2f}")
    if 2 in speedups:
        two = statistics.median(speedups[2])
        print(f"two jobs: {two:.2f} x one job's rate; target {TARGET} x: "
              f"{'meets' if two >= TARGET else 'MISSES'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": args.rounds, "captures": len(urls),
                                               "rows": figures}, indent=2) + "\n")


if __name__ == "__main__":
    main()
