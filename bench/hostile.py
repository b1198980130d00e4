"""Benchmark: the hostile inputs of issue 20 (and issue 23's big and dense pages), before and
after, in seconds and peak memory, and how the time grows with the input.

Each case is an input an attacker controls (a page, an answer, a PDF) and the real entry point
it reaches: ``pipeline.capture`` of a page served from a local server (``--now``, no
rendering, the default caps and deadline), ``agents.fetchpage.fetch_page`` (the hidden-text
stripper and the fence), or ``quotes.quotations.check_answer_text`` (what the hook, ``check``
and ``audit`` call). Every run is a fresh process (``--worker``) so its peak RSS is its own;
the time is the entry point's CPU time alone (its wall time is kept too, in the JSON: on a
machine shared by many it measures the others; building the input, starting the server, and
a first call on a tiny input that pays for the imports are not counted), the RSS is the
whole process's.

Each case runs at four sizes, doubling, the largest the issue's (or the default cap's); the
slope of log(time) over log(size) says how the time grows: 1 linear, 2 quadratic. "Before" is
another checkout of the package (``--before SRC``: a ``src`` folder, e.g. of ``git worktree
add /tmp/old <commit>``), run in the same session, case by case, interleaved with "after"
(this checkout), so both meet the same load; a run past ``--kill`` seconds is stopped and
shown as ``>kill``. Goal (issue 20): every case under 2 s and 150 MiB at the largest size, and
slopes near 1. The machine is shared: read the ratios, not the seconds.

Figures, not assertions.

    .venv/bin/python bench/hostile.py [--before /tmp/old/src] [--kill 60] [--only NAME]
                                      [--sizes 4] [--json bench/out/hostile.json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(HERE.parent / "tests"))  # tests/pdfs.py: the PDF builder


@dataclass(frozen=True)
class Case:
    name: str
    largest: int  # the size of the case (or the default cap's)
    unit: str
    run: Callable[[int], Any]  # builds the input, returns the work to time


# --- the work of each case --------------------------------------------------------------


def _capture(body: bytes, content_type: str = "text/html",
             headers: dict[str, str] | None = None) -> Callable[[], Any]:
    from readreceipt.localserver import LocalServer
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library

    server = LocalServer()
    url = server.route("/page", body, headers={"Content-Type": content_type, **(headers or {})})
    os.environ["READRECEIPT_ALLOW_HOSTS"] = server.pair
    library = Library.open(Path(tempfile.mkdtemp()) / ".readreceipt")

    def work() -> str:
        result = capture(url, CaptureOptions(now=True, render=False), library)
        parts = " ".join(f"{k} {v:.2f}" for k, v in result.timings.items())
        return f"{result.record.verdict} {result.record.reason}; {parts}"

    return work


def _fetch(body: bytes) -> Callable[[], Any]:
    from readreceipt.agents.fetchpage import fetch_page
    from readreceipt.localserver import LocalServer
    from readreceipt.store.library import Library

    server = LocalServer()
    url = server.route("/page", body)
    os.environ["READRECEIPT_ALLOW_HOSTS"] = server.pair
    folder = Path(tempfile.mkdtemp())
    library = Library.open(folder / ".readreceipt")

    def work() -> str:
        result = fetch_page(url, library=library, output=str(folder / "page.md"), now=True)
        return f"{result.record.verdict} {result.record.reason}"

    return work


def _check(answer: str, page: str) -> Callable[[], Any]:
    from readreceipt.quotes.quotations import check_answer_text

    def work() -> str:
        check = check_answer_text(answer, main_text=page, page_text=page)
        return f"{check.outcome} {check.reason or ''} {len(check.passages)} checked".strip()

    return work


PROSE = ("The council met on Tuesday evening and voted to approve the new harbour plan after "
         "a long debate about the cost of the sea wall and the future of the fishing fleet. ")
PAGE_900K = PROSE * (900_000 // len(PROSE))


def _article(size: int) -> bytes:
    rng = random.Random(7)  # noqa: S311  (a fixed page of words, not a secret)
    words = PROSE.lower().replace(".", "").split()
    paragraphs = []
    total = 0
    while total < size:
        para = "<p>" + " ".join(rng.choice(words) for _ in range(60)) + ".</p>\n"
        paragraphs.append(para)
        total += len(para)
    return ("<!doctype html><html><head><title>Harbour</title></head><body><article>"
            "<h1>The harbour plan</h1>" + "".join(paragraphs) + "</article></body></html>"
            ).encode()


def _bomb(size: int) -> bytes:
    """``size`` bytes of A as raw deflate (1 GiB: 1 MB on the wire), made once a machine."""
    cached = Path(tempfile.gettempdir()) / f"readreceipt-bench-bomb-{size}.deflate"
    if cached.exists():
        return cached.read_bytes()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b"A" * (1 << 20)
    out = b"".join([*(packer.compress(chunk) for _ in range(size >> 20)), packer.flush()])
    cached.write_bytes(out)
    return out


def _pdf(pages: int) -> bytes:
    from pdfs import make_shared_stream_pdf

    return make_shared_stream_pdf(pages)


MIB = 1 << 20
#: An ordinary capture, the yardstick of the run: a 100 KB article.
BASELINE = "0 baseline: a 100 KB article"
CASES = [
    Case(BASELINE, 100_000, "bytes", lambda n: _capture(_article(n))),
    Case("1 no spaces, text/html", MIB, "bytes", lambda n: _capture(b"x" * n)),
    Case("1 deflate bomb of A (wire MB)", 1024 * MIB, "bytes decoded",
         lambda n: _capture(_bomb(n), headers={"Content-Encoding": "deflate"})),
    Case("1 repeated paragraphs, no tags", MIB, "bytes",
         lambda n: _capture((PROSE * (n // len(PROSE))).encode())),
    Case("2 style of letters (fetch)", 240_000, "bytes",
         lambda n: _fetch(b"<html><head><style>" + b"a" * n + b"</style></head><body><p>"
                          + PROSE.encode() + b"</p></body></html>")),
    Case("2 style of @a (fetch)", 240_000, "bytes",
         lambda n: _fetch(b"<html><head><style>" + b"@a " * (n // 3) + b"</style></head>"
                          b"<body><p>" + PROSE.encode() + b"</p></body></html>")),
    Case("2 nested @media (fetch)", 10_000, "blocks",
         lambda n: _fetch(b"<html><head><style>" + b"@media a{" * n + b"</style></head>"
                          b"<body><p>" + PROSE.encode() + b"</p></body></html>")),
    Case("2 deep divs, hidden spans (fetch)", 10_000, "depth",
         lambda n: _fetch(b"<html><body><p>" + PROSE.encode() + b"</p>" + b"<div>" * n +
                          b"<span hidden>x</span>" * n + b"</div>" * n + b"</body></html>")),
    Case("3 nested openers (answer)", MIB, "bytes",
         lambda n: _check('"a \u201cb \u2018c \u00abd ' * (n // 12), PAGE_900K)),
    Case("3 one long quotation", 220_000, "bytes",
         lambda n: _check('"' + (PROSE * (n // len(PROSE))).strip().replace(
             "fishing", "fishers") + '"', PAGE_900K)),
    Case("3 short quotations, 900 KB page", 1000, "quotations",
         lambda n: _check(" ".join(f'"the council met on Tuesday and voted on plan {i}"'
                                   for i in range(n)), PAGE_900K)),
    Case("3 digits in a quotation", 128_000, "digits",
         lambda n: _check(f'"the sea wall cost {"1" * n} pounds in all"', PAGE_900K)),
    Case("4 PDF pages sharing one stream", 60_000, "pages",
         lambda n: _capture(_pdf(n), "application/pdf")),
    Case("5 tiny elements", 250_000, "elements",
         lambda n: _capture(b"<html><body><article>" + b"<b>a</b>" * (n // 2) +
                            b"<i>b</i>" * (n - n // 2) + b"</article></body></html>")),
    Case("5 big HTML page", 10 * MIB, "bytes", lambda n: _capture(_article(n))),
]


# --- one run, in a process of its own ---------------------------------------------------------


def worker(name: str, size: int) -> None:
    case = next(c for c in CASES if c.name == name)
    # Once small first: the imports and first-call set-up (trafilatura, Lexbor, pdfium, the
    # library) are the same for every input and are not the input's cost.
    case.run(max(1, size // 1000) if not case.name.startswith("1 deflate") else 1 << 20)()
    work = case.run(size)
    started, cpu = time.perf_counter(), time.process_time()
    outcome = work()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": time.process_time() - cpu, "wall": seconds, "mib": peak,
                      "outcome": outcome}))


def measure(name: str, size: int, src: Path, kill: float) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", name, str(size)],
                              capture_output=True, text=True, env=env, timeout=kill,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"seconds": None, "mib": None, "outcome": f">{kill:g} s, stopped"}
    if done.returncode != 0:
        return {"seconds": None, "mib": None, "outcome": "error: " +
                (done.stderr.strip().splitlines() or ["?"])[-1][:80]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def slope(points: list[tuple[int, float | None]]) -> float | None:
    """The least-squares slope of log(seconds) over log(size), over the runs that ended."""
    xs = [math.log(s) for s, t in points if t]
    ys = [math.log(t) for _, t in points if t]
    if len(xs) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else None


def _cell(run: dict[str, Any]) -> str:
    if run["seconds"] is None:
        return run["outcome"][:18]
    return f"{run['seconds']:.2f} s {run['mib']:.0f} MiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", nargs=2, metavar=("CASE", "SIZE"))
    parser.add_argument("--before", type=Path, help="src folder of the package before")
    parser.add_argument("--kill", type=float, default=60.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--sizes", type=int, default=4)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return 0
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(a shared machine)")
    sides = [("after", SRC)] + ([("before", args.before)] if args.before else [])
    results: dict[str, Any] = {}
    for case in CASES:
        if args.only and args.only not in case.name:
            continue
        sizes = [case.largest >> k for k in range(args.sizes - 1, -1, -1)]
        if case.name.startswith(("1 deflate", "0 baseline")):
            sizes = [case.largest]  # decoded past the size cap: the cap is the size
        runs: dict[str, list[tuple[int, dict[str, Any]]]] = {side: [] for side, _ in sides}
        for size in sizes:  # interleaved: both sides meet the same load
            for side, src in sides:
                runs[side].append((size, measure(case.name, size, src, args.kill)))
        results[case.name] = {side: {"runs": [{"size": s, **r} for s, r in points],
                                     "slope": slope([(s, r["seconds"]) for s, r in points])}
                              for side, points in runs.items()}
        largest = {side: points[-1][1] for side, points in runs.items()}
        base = results.get(BASELINE, {}).get("after", {}).get("runs", [{}])[0].get("seconds")
        times = f"x{largest['after']['seconds'] / base:.0f} baseline" if base and \
            largest["after"]["seconds"] else ""
        line = f"{case.name:36} {sizes[-1]:>11,} {case.unit:9} {times:>13}"
        for side, _ in reversed(sides):
            s = results[case.name][side]["slope"]
            line += f" | {side}: {_cell(largest[side]):22} slope {s:.2f}" if s is not None \
                else f" | {side}: {_cell(largest[side]):22} slope -   "
        print(line + f"  [{largest['after']['outcome']}]", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
