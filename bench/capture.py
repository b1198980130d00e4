"""Benchmark: what one capture costs, against its floor and against the closest prior tool.

Every figure is a ratio against a baseline measured in the same run, in interleaved rounds,
so a machine shared with other work (as the one these were written on) moves both sides
alike. Figures, not assertions. The article corpus (../shared/corpus/articles, 181 real
pages) is served from 127.0.0.1.

- default: pages per second capturing the corpus in one process (in-process API,
  ``--now``), the split of the time across fetch, extraction, verdict and store, and the peak
  RSS of a process capturing a 1 GiB body against one capturing a small page;
- ``--floor``: each page's capture against trafilatura's extraction of the same page alone
  (on the page's decoded text), in the same process, the three alternating page by page, a
  fresh library each round (so every capture writes its bytes and texts, as a first capture
  does). The figure is the median over pages of capture time / extraction time (issue 23: at
  most 1.3), against two baselines: trafilatura as a user calls it (``extract``: its
  defaults, fallback extractors included) and trafilatura as readreceipt calls it
  (``extract_fast``: ``fast=True``, no fallbacks). With ``--older SRC``: the same for this
  checkout and for readreceipt imported from SRC, each in a persistent process of its own,
  the two taking each page in turn, and the two captures' times page by page. With
  ``--named``: each page under the host name it was published at, pinned to the local
  server (a page's links name its own domain, which the parked-domain check reads at each
  mention: under 127.0.0.1 that cost is not there);
- ``--peer``: readreceipt against retrieved 0.2.0 (PyPI ``retrieved``, the closest prior tool:
  it re-fetches and keeps bytes and a record, with a regex for text), each capturing the same
  pages through its own in-process API in a process of its own (retrieved in a venv of its
  own under bench/out/, installed on first use), the two alternating round by round. The
  figure is readreceipt's captures per second over retrieved's (issue 23: at least 1.5).
  retrieved refuses loopback addresses; its child process lets 127.0.0.1 through its
  denylist, which is the only change made to it.

    .venv/bin/python bench/capture.py                    # rate, split, RSS
    .venv/bin/python bench/capture.py --floor [--rounds 5] [--older ../main/src] [--named]
    .venv/bin/python bench/capture.py --peer [--rounds 5] [--older ../main/src]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import ground_truth, load_articles, serve
from _retrieved import VERSION as RETRIEVED_VERSION
from _retrieved import ensure_retrieved
from readreceipt.pipeline import CaptureOptions, capture
from readreceipt.store.library import Library

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
#: This checkout's code, for the child processes: without it they would import the readreceipt
#: the interpreter has installed, which is another checkout's when the venv is borrowed.
THIS_SRC = str(HERE.parent / "src")
PEER_VERSION = RETRIEVED_VERSION
FLOOR_TARGET = 1.3
PEER_TARGET = 1.5


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


# -- --floor: a capture against trafilatura's extraction of the same page ------------------

#: The two extractions a capture is set against: trafilatura with its fallback extractors
#: (its default, what a user of it gets) and without them (what reading/extract.py runs).
BASELINES = {"extract": False, "extract_fast": True}


def trafilatura_alone(text: str, fast: bool = False) -> str:
    """trafilatura's extraction with readreceipt's options (reading/extract.py), nothing else;
    ``fast`` as :data:`BASELINES` says."""
    import trafilatura

    return trafilatura.extract(text, include_comments=False, include_tables=True,
                               deduplicate=False, favor_precision=False, fast=fast) or ""


def _ratios(took: dict[str, dict[str, list[float]]], baseline: str) -> dict[str, float]:
    """Median, p25 and p75 over pages of capture time / ``baseline``'s time (each page's
    median over rounds)."""
    ratios = sorted(statistics.median(t["capture"]) / statistics.median(t[baseline])
                    for t in took.values())
    return {"median_ratio": round(statistics.median(ratios), 3),
            "p25_ratio": round(ratios[len(ratios) // 4], 3),
            "p75_ratio": round(ratios[3 * len(ratios) // 4], 3),
            f"{baseline}_median_ms": round(1000 * statistics.median(
                statistics.median(t[baseline]) for t in took.values()), 2)}


def _floor_figures(name: str, took: dict[str, dict[str, list[float]]]) -> dict[str, object]:
    capture_ms = 1000 * statistics.median(statistics.median(t["capture"]) for t in took.values())
    figures: dict[str, object] = {"capture_median_ms": round(capture_ms, 2)}
    print(f"  {name}: median capture {capture_ms:.1f} ms")
    for baseline, fast in BASELINES.items():
        got = _ratios(took, baseline)
        figures[baseline] = got
        print(f"    against trafilatura {'fast=True' if fast else 'defaults '} "
              f"({got[f'{baseline}_median_ms']:.1f} ms): median over pages "
              f"{got['median_ratio']:.2f} (p25 {got['p25_ratio']:.2f}, "
              f"p75 {got['p75_ratio']:.2f}); target {FLOOR_TARGET} x: "
              f"{'meets' if got['median_ratio'] <= FLOOR_TARGET else 'MISSES'}")
    return figures


def _steps(i: int, r: int) -> list[str]:
    """The order of a page's three timings, rotated page by page and round by round."""
    steps = ["capture", *BASELINES]
    k = (i + r) % len(steps)
    return steps[k:] + steps[:k]


def _timed(step: str, url: str, text: str, lib: Library) -> float:
    t0 = time.perf_counter()
    if step == "capture":
        capture(url, _options(url), lib)
    else:
        trafilatura_alone(text, BASELINES[step])
    return time.perf_counter() - t0


def _options(url: str) -> CaptureOptions:
    """A capture of ``url`` under ``--now``; a host name (``--named``) pinned to 127.0.0.1."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if host == "127.0.0.1":
        return CaptureOptions(now=True)
    return CaptureOptions(now=True, resolve=(f"{host}:{parts.port}:127.0.0.1",))


def _urls(base: str, keys: list[str], named: bool) -> tuple[dict[str, str], str]:
    """Each page's URL on the local server, and the READRECEIPT_ALLOW_HOSTS exemptions.
    ``named``: under the host name the page was published at (its ground truth's address),
    pinned to the server's address, so that what a capture reads of its own site's links
    (its own domain's every mention, as on the web) is measured too."""
    from urllib.parse import urlsplit

    served = base.removeprefix("http://")
    if not named:
        return {k: f"{base}/{k}" for k in keys}, served
    port = served.rsplit(":", 1)[1]
    truth = ground_truth()
    hosts = {k: urlsplit(truth[k]["url"]).hostname or "127.0.0.1" for k in keys}
    urls = {k: f"http://{hosts[k]}:{port}/{k}" for k in keys}
    return urls, ",".join(sorted({f"{h}:{port}" for h in hosts.values()} | {served}))


def floor_run(rounds: int, limit: int | None = None, named: bool = False) -> dict[str, object]:
    from readreceipt.reading.extract import decode

    pages = load_articles()
    keys = list(pages)[:limit]
    texts = {k: decode(pages[k], None, html=True)[0] for k in keys}
    took: dict[str, dict[str, list[float]]] = {
        k: {step: [] for step in ("capture", *BASELINES)} for k in keys}
    with tempfile.TemporaryDirectory() as tmp, serve(pages) as base:
        urls, allowed = _urls(base, keys, named)
        os.environ["READRECEIPT_ALLOW_HOSTS"] = allowed
        warm = Library.open(Path(tmp) / "warm")
        for step in ("capture", *BASELINES):
            _timed(step, urls[keys[0]], texts[keys[0]], warm)
        warm.close()
        for r in range(rounds):
            lib = Library.open(Path(tmp) / f"round{r}")
            for i, key in enumerate(keys if r % 2 == 0 else reversed(keys)):
                for step in _steps(i, r):
                    took[key][step].append(_timed(step, urls[key], texts[key], lib))
            lib.close()
    print(f"floor: {len(keys)} pages x {rounds} rounds, capture against trafilatura's "
          "extraction of the same page, same process")
    return {"pages": len(keys), "rounds": rounds, "target": FLOOR_TARGET,
            **_floor_figures("this checkout", took)}


#: A worker for ``--floor --older``: the per-page measurement of :func:`floor_run` in a
#: process of its own (readreceipt imported from its PYTHONPATH), one page a request: a line
#: ``{"url", "key", "order", "fresh"}`` in, ``{step: seconds}`` out, one entry a step.
FLOOR_CHILD = textwrap.dedent("""
    import json, shutil, sys, tempfile
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from _corpus_server import load_articles
    from capture import _timed
    from readreceipt.reading.extract import decode
    from readreceipt.store.library import Library
    pages = load_articles()
    texts = {}
    root = Path(tempfile.mkdtemp())
    lib, made = None, 0
    for line in sys.stdin:
        ask = json.loads(line)
        if lib is None or ask["fresh"]:
            if lib is not None:
                lib.close()
            made += 1
            lib = Library.open(root / f"lib{made}")
        text = texts.get(ask["key"]) or texts.setdefault(
            ask["key"], decode(pages[ask["key"]], None, html=True)[0])
        took = {step: _timed(step, ask["url"], text, lib) for step in ask["order"]}
        print(json.dumps(took), flush=True)
    if lib is not None:
        lib.close()
    shutil.rmtree(root, ignore_errors=True)
""")


def floor_against(rounds: int, limit: int | None, older: str,
                  named: bool = False) -> dict[str, object]:
    """:func:`floor_run`'s figures for this checkout and for readreceipt imported from
    ``older`` (another checkout's src/), each in a persistent process of its own, the two
    taking each page in turn (which goes first alternating), so both see the same load;
    and the paired ratio of their captures' times, page by page. Both are set against the
    same two trafilatura baselines, each timed in its own process."""
    pages = load_articles()
    keys = list(pages)[:limit]
    names = ("this checkout", f"readreceipt from {older}")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    took: dict[str, dict[str, dict[str, list[float]]]] = {
        n: {k: {step: [] for step in ("capture", *BASELINES)} for k in keys} for n in names}
    with serve(pages) as base:
        urls, env["READRECEIPT_ALLOW_HOSTS"] = _urls(base, keys, named)
        workers = {
            name: subprocess.Popen(
                [sys.executable, "-c", FLOOR_CHILD, str(HERE)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True,
                env={**env, "PYTHONPATH": older if name != names[0] else THIS_SRC})
            for name in names}
        try:
            for worker in workers.values():  # warm: imports, the first library
                _ask(worker, urls[keys[0]], keys[0], _steps(0, 0), True)
            for r in range(rounds):
                for i, key in enumerate(keys if r % 2 == 0 else reversed(keys)):
                    turn = list(names) if (i + r) % 2 else list(reversed(names))
                    for name in turn:
                        got = _ask(workers[name], urls[key], key, _steps(i, r), i == 0)
                        for step, seconds in got.items():
                            took[name][key][step].append(seconds)
        finally:
            for worker in workers.values():
                assert worker.stdin is not None
                worker.stdin.close()
                worker.wait(timeout=60)
    result: dict[str, object] = {"pages": len(keys), "rounds": rounds, "target": FLOOR_TARGET}
    print(f"floor: {len(keys)} pages x {rounds} rounds, capture against trafilatura's "
          "extraction of the same page, same process; two versions in turn")
    for name in names:
        result[name] = _floor_figures(name, took[name])
    ours, theirs = took[names[0]], took[names[1]]
    paired = sorted(statistics.median(ours[k]["capture"]) / statistics.median(theirs[k]["capture"])
                    for k in keys)
    result["capture_time_against_older"] = round(statistics.median(paired), 3)
    print(f"  capture time, this checkout / {names[1]}: median over pages "
          f"{statistics.median(paired):.3f} (p25 {paired[len(paired) // 4]:.3f}, p75 "
          f"{paired[3 * len(paired) // 4]:.3f})")
    return result


def _ask(worker: subprocess.Popen[str], url: str, key: str, order: list[str],
         fresh: bool) -> dict[str, float]:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps({"url": url, "key": key, "order": order, "fresh": fresh})
                       + "\n")
    worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise SystemExit("a floor worker ended early (its error is above)")
    answer: dict[str, float] = json.loads(line)
    return answer


# -- --peer: readreceipt against retrieved 0.2.0, each in a process of its own -------------

OURS_CHILD = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library
    urls, root = json.loads(sys.argv[1]), Path(sys.argv[2])
    with Library.open(root / "warm") as warm:
        capture(urls[0], CaptureOptions(now=True), warm)
    with Library.open(root / "lib") as lib:
        t0 = time.perf_counter()
        for url in urls:
            capture(url, CaptureOptions(now=True), lib)
        print(json.dumps({"seconds": time.perf_counter() - t0, "captures": len(urls)}))
""")

PEER_CHILD = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from retrieved import refuse
    from retrieved.api import capture
    from retrieved.store import Library
    # The benchmark's pages are on 127.0.0.1, which retrieved's denylist refuses: let that
    # one address through (the denylist's checks still run, at their cost).
    _private = refuse._is_private
    refuse._is_private = lambda host: host != "127.0.0.1" and _private(host)
    urls, root = json.loads(sys.argv[1]), Path(sys.argv[2])
    capture(urls[0], library=Library(root / "warm"), pace=False)
    lib = Library(root / "lib")
    t0 = time.perf_counter()
    for url in urls:
        capture(url, library=lib, pace=False)
    print(json.dumps({"seconds": time.perf_counter() - t0, "captures": len(urls)}))
""")


def _child(python: Path, script: str, urls: list[str], env: dict[str, str],
           source: str | None = None) -> float:
    """Captures per second of one child process over ``urls`` (readreceipt imported from
    ``source``, a checkout's src/ folder, when given)."""
    if source is not None:
        env = {**env, "PYTHONPATH": source}
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([str(python), "-c", script, json.dumps(urls), tmp], env=env,
                             capture_output=True, text=True, check=False, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(f"a benchmark child failed:\n{out.stderr[-3000:]}")
    done = json.loads(out.stdout.strip().splitlines()[-1])
    return float(done["captures"]) / float(done["seconds"])


def peer_run(rounds: int, limit: int | None = None,
             older: str | None = None) -> dict[str, object] | None:
    bin_dir = ensure_retrieved()
    if bin_dir is None:
        return None
    python = bin_dir / "python"
    pages = dict(list(load_articles().items())[:limit])
    rates: dict[str, list[float]] = {"readreceipt": [], "retrieved": []}
    turns: list[tuple[str, Path, str, str | None]] = [
        ("readreceipt", Path(sys.executable), OURS_CHILD, THIS_SRC),
        ("retrieved", python, PEER_CHILD, None)]
    if older is not None:  # readreceipt as it was, from another checkout's src/
        rates["readreceipt (older)"] = []
        turns.append(("readreceipt (older)", Path(sys.executable), OURS_CHILD, older))
    with serve(pages) as base:
        urls = [f"{base}/{key}" for key in pages]
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("READRECEIPT_", "RETRIEVED_")) and k != "PYTHONPATH"}
        env["READRECEIPT_ALLOW_HOSTS"] = base.removeprefix("http://")
        for r in range(rounds):
            for name, interpreter, script, source in turns[r % len(turns):] + \
                    turns[:r % len(turns)]:
                rates[name].append(_child(interpreter, script, urls, env, source))
    ratios = [ours / theirs for ours, theirs in zip(rates["readreceipt"], rates["retrieved"],
                                                    strict=True)]
    result = {"pages": len(pages), "rounds": rounds,
              "readreceipt_per_s": round(statistics.median(rates["readreceipt"]), 2),
              "retrieved_per_s": round(statistics.median(rates["retrieved"]), 2),
              "ratio": round(statistics.median(ratios), 3),
              "ratios": [round(x, 3) for x in ratios], "target": PEER_TARGET}
    print(f"peer: {len(pages)} pages x {rounds} rounds, in-process API, one process each")
    print(f"  readreceipt {result['readreceipt_per_s']} captures/s, retrieved {PEER_VERSION} "
          f"{result['retrieved_per_s']} captures/s")
    print(f"  readreceipt / retrieved: {result['ratio']:.2f} (round by round "
          f"{', '.join(f'{x:.2f}' for x in ratios)}); target {PEER_TARGET} x: "
          f"{'meets' if statistics.median(ratios) >= PEER_TARGET else 'MISSES'}")
    if older is not None:
        before = [o / t for o, t in zip(rates["readreceipt (older)"], rates["retrieved"],
                                        strict=True)]
        result["older_ratio"] = round(statistics.median(before), 3)
        print(f"  readreceipt from {older} / retrieved: {result['older_ratio']:.2f} "
              f"({statistics.median(rates['readreceipt (older)']):.2f} captures/s)")
    return result


# -- RSS on a 1 GiB body --------------------------------------------------------------------

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floor", action="store_true",
                        help="a capture against trafilatura's extraction alone")
    parser.add_argument("--peer", action="store_true",
                        help=f"readreceipt against retrieved {PEER_VERSION}")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=None,
                        help="the first N pages of the corpus only (a quick look)")
    parser.add_argument("--older", metavar="SRC",
                        help="with --peer: also readreceipt imported from SRC (another "
                        "checkout's src/ folder: the code before a change), same rounds; with "
                        "--floor: both versions, each in a process of its own, page by page")
    parser.add_argument("--named", action="store_true",
                        help="with --floor: each page under the host name it was published "
                        "at (pinned to the local server), not 127.0.0.1")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    if args.floor and args.older:
        figures["floor"] = floor_against(args.rounds, args.pages, args.older, args.named)
    elif args.floor:
        figures["floor"] = floor_run(args.rounds, args.pages, args.named)
    if args.peer:
        figures["peer"] = peer_run(args.rounds, args.pages, args.older)
    if not (args.floor or args.peer):
        corpus_run()
        rss_run()
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
