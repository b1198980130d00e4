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
shown as ``>kill``, and the larger sizes of that side are not run (they would take longer
still), so one case costs at most its sizes times ``--kill`` a side and a whole run finishes.
Goal (issue 20): every case under 2 s and 150 MiB at the largest size, and slopes of at
most 1. The machine is shared: read the ratios, not the seconds.

Figures, not assertions.

    .venv/bin/python bench/hostile.py [--before /tmp/old/src] [--kill 60] [--case KEY]...
                                      [--sizes 4] [--json bench/out/hostile.json] [--list]

``--case`` takes a case's key (``--list`` prints them) or a part of its name, and may be
given more than once; without it every case runs.
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
    key: str  # what --case names it by
    name: str
    largest: int  # the size of the case (or the default cap's)
    unit: str
    run: Callable[[int], Any]  # builds the input, returns the work to time
    #: Builds a small input of the same kind whose work pays for the imports and first-call
    #: set-up; None: the case's own input at a thousandth of the size. (The answer cases
    #: warm up on a page of their own: the folded page is cached, and a warm-up on the case's
    #: page would leave its folding out of the time.)
    warm: Callable[[], Any] | None = None


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


def _capture_robots(robots: bytes) -> Callable[[], Any]:
    """A capture that asks robots.txt first (no ``--now``), of a page the file allows."""
    from readreceipt.localserver import LocalServer
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library

    server = LocalServer()
    server.route("/robots.txt", robots, headers={"Content-Type": "text/plain"})
    url = server.route("/page", _article(20_000), headers={"Content-Type": "text/html"})
    os.environ["READRECEIPT_ALLOW_HOSTS"] = server.pair
    library = Library.open(Path(tempfile.mkdtemp()) / ".readreceipt")

    def work() -> str:
        result = capture(url, CaptureOptions(render=False), library)
        return f"{result.record.verdict} {result.record.reason}"

    return work


def _export(size: int, suffix: str) -> Callable[[], Any]:
    """``export`` of a library holding one capture of ``size`` bytes of plain text."""
    from readreceipt.export.run import export_warc
    from readreceipt.store.library import Library

    folder = Path(tempfile.mkdtemp())
    # Built in a process of its own, so this one's peak memory is the export's alone.
    build = ("import sys; from pathlib import Path; from library_builder import at, put_capture;"
             "from readreceipt.store.library import Library;"
             "line = b'a line of plain text in a large body\\n'; size = int(sys.argv[2]);"
             "lib = Library.open(Path(sys.argv[1]));"
             "put_capture(lib, 'https://big.example/file.txt',"
             " (line * (size // len(line) + 1))[:size], at(0), content_type='text/plain');"
             "lib.close()")
    subprocess.run([sys.executable, "-c", build, str(folder / ".readreceipt"), str(size)],
                   check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    library = Library.open(folder / ".readreceipt")

    def work() -> str:
        result = export_warc(library, folder / f"out.{suffix}")
        return f"{result.warc_records} records, {result.size} bytes"

    return work


def _record_page(checks: int) -> Callable[[], Any]:
    """The viewer's page of one capture of a 1.3 MB text with ``checks`` logged answer checks
    of 100 passages each, found on the page's visible text but not in its main text."""
    from library_builder import at, put_capture
    from readreceipt.store.library import Library
    from readreceipt.viewer.pages import record_page

    library = Library.open(Path(tempfile.mkdtemp()) / ".readreceipt")
    body = ("<html><body><nav>menu</nav><article><p>"
            + PROSE * (1_300_000 // len(PROSE)) + "</p></article></body></html>").encode()
    record = put_capture(library, "https://news.example/report", body, at(0))
    for n in range(checks):
        library.log("answer_checks.jsonl", {
            "record_id": record.record_id, "outcome": "found", "reason": None,
            "passages": [{"text": f"quoted line {n}-{i} from the menu", "found": True,
                          "tier": "page"} for i in range(100)]})

    def work() -> str:
        return f"{len(record_page(library, record.record_id))} bytes of page"

    return work


def _agents_then_rules(size: int) -> bytes:
    """A robots.txt of ``size`` bytes: one group of K agents, then K rules."""
    count = size // 36
    return (b"".join(b"User-agent: agent%d\n" % i for i in range(count))
            + b"".join(b"Disallow: /p%d\n" % i for i in range(count)))


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


def _strip(html: str) -> Callable[[], Any]:
    from readreceipt.agents.fence import strip_hidden_html

    def work() -> str:
        return f"{strip_hidden_html(html)[1]} hidden"

    return work


def _check(answer: str, page: str) -> Callable[[], Any]:
    from readreceipt.quotes.quotations import check_answer_text

    def work() -> str:
        check = check_answer_text(answer, main_text=page, page_text=page)
        return f"{check.outcome} {check.reason or ''} {len(check.passages)} checked".strip()

    return work


def _diff(old: str, new: str) -> Callable[[], Any]:
    from readreceipt.history import word_diff

    def work() -> str:
        diff = word_diff(old, new)
        return f"{diff.words_removed} removed {diff.words_added} added"

    return work


def _check_copy(answer: str, page: str) -> Callable[[], Any]:
    """The whole check of an answer against a copy (``answers.check_one``: its quotations,
    figures and names, and how much of it the copy holds), as ``check`` makes it."""
    from readreceipt.quotes.answers import Copy, Page, check_one

    copy = Copy(Page("r", "https://example.org/a", "2026-01-01T00:00:00Z", "RETRIEVED", "ok",
                     content_type="text/plain"), page, page)

    def work() -> str:
        return check_one(answer, "", copy).outcome

    return work


def _mark(text: str, passage: str) -> Callable[[], Any]:
    from readreceipt.viewer.pages import _highlight

    def work() -> str:
        return f"{_highlight(text, [(passage, 'found')]).count('<mark')} marked"

    return work


PROSE = ("The council met on Tuesday evening and voted to approve the new harbour plan after "
         "a long debate about the cost of the sea wall and the future of the fishing fleet. ")
PAGE_900K = PROSE * (900_000 // len(PROSE))


def _article(size: int) -> bytes:
    """An article of paragraphs of ``size`` bytes at most (the 10 MiB one within the default
    size cap, so that it is read, not cut)."""
    rng = random.Random(7)  # noqa: S311  (a fixed page of words, not a secret)
    words = PROSE.lower().replace(".", "").split()
    head = ("<!doctype html><html><head><title>Harbour</title></head><body><article>"
            "<h1>The harbour plan</h1>")
    tail = "</article></body></html>"
    paragraphs = []
    total = len(head) + len(tail)
    while True:
        para = "<p>" + " ".join(rng.choice(words) for _ in range(60)) + ".</p>\n"
        if total + len(para) > size:
            break
        paragraphs.append(para)
        total += len(para)
    return (head + "".join(paragraphs) + tail).encode()


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
def _warm_check() -> Callable[[], Any]:
    return _check('"the council met on Tuesday evening and voted"', PROSE * 4)


CASES = [
    Case("baseline", BASELINE, 100_000, "bytes", lambda n: _capture(_article(n))),
    Case("no-spaces", "1 no spaces, text/html", MIB, "bytes", lambda n: _capture(b"x" * n)),
    Case("deflate-bomb", "1 deflate bomb of A (wire MB)", 1024 * MIB, "bytes decoded",
         lambda n: _capture(_bomb(n), headers={"Content-Encoding": "deflate"}),
         warm=lambda: _capture(_bomb(1 << 20), headers={"Content-Encoding": "deflate"})),
    Case("paragraphs", "1 repeated paragraphs, no tags", MIB, "bytes",
         lambda n: _capture((PROSE * (n // len(PROSE))).encode())),
    Case("style-letters", "2 style of letters (fetch)", 240_000, "bytes",
         lambda n: _fetch(b"<html><head><style>" + b"a" * n + b"</style></head><body><p>"
                          + PROSE.encode() + b"</p></body></html>")),
    Case("style-at", "2 style of @a (fetch)", 240_000, "bytes",
         lambda n: _fetch(b"<html><head><style>" + b"@a " * (n // 3) + b"</style></head>"
                          b"<body><p>" + PROSE.encode() + b"</p></body></html>")),
    # Closed, as the 100 KB: a block left open is no block to set aside.
    Case("nested-media", "2 nested @media (fetch)", 10_000, "blocks",
         lambda n: _fetch(b"<html><head><style>" + b"@media a{" * n + b"p{color:red}"
                          + b"}" * n + b"</style></head><body><p>" + PROSE.encode()
                          + b"</p></body></html>")),
    Case("deep-hidden", "2 deep divs, hidden spans (fetch)", 10_000, "depth",
         lambda n: _fetch(b"<html><body><p>" + PROSE.encode() + b"</p>" + b"<div>" * n +
                          b"<span hidden>x</span>" * n + b"</div>" * n + b"</body></html>")),
    # The stripper itself on the nesting as it came: fetch_page hands it markup flattened at
    # markup.MAX_DEPTH, which bounds each walk up already.
    Case("deep-hidden-strip", "2 deep divs, hidden spans (stripper, unflattened)", 10_000,
         "depth", lambda n: _strip("<html><body><p>" + PROSE + "</p>" + "<div>" * n
                                   + "<span hidden>x</span>" * n + "</div>" * n
                                   + "</body></html>")),
    Case("nested-openers", "3 nested openers (answer)", MIB, "bytes",
         lambda n: _check('"a \u201cb \u2018c \u00abd ' * (n // 12), PAGE_900K),
         warm=_warm_check),
    Case("long-quotation", "3 one long quotation", 220_000, "bytes",
         lambda n: _check('"' + (PROSE * (n // len(PROSE))).strip().replace(
             "fishing", "fishers") + '"', PAGE_900K), warm=_warm_check),
    Case("many-quotations", "3 short quotations, 900 KB page", 1000, "quotations",
         lambda n: _check(" ".join(f'"the council met on Tuesday and voted on plan {i}"'
                                   for i in range(n)), PAGE_900K), warm=_warm_check),
    Case("digits", "3 digits in a quotation", 128_000, "digits",
         lambda n: _check(f'"the sea wall cost {"1" * n} pounds in all"', PAGE_900K),
         warm=_warm_check),
    Case("pdf-pages", "4 PDF pages sharing one stream", 60_000, "pages",
         lambda n: _capture(_pdf(n), "application/pdf")),
    Case("tiny-elements", "5 tiny elements", 250_000, "elements",
         lambda n: _capture(b"<html><body><article>" + b"<b>a</b>" * (n // 2) +
                            b"<i>b</i>" * (n - n // 2) + b"</article></body></html>")),
    # Tiny elements whose main text is a list of short lines, which the fast reading is read
    # again for with trafilatura's fallbacks (below the element cap: 32,000 took 3.3 s).
    Case("list-items", "5 tiny list items (a list read again)", 40_000, "elements",
         lambda n: _capture(b"<html><body><ul>" + b"<li>Access denied</li>" * n
                            + b"</ul></body></html>")),
    # Tiny links: the element cap's costliest shape measured (trafilatura's trees of links).
    Case("tiny-links", "5 tiny links", 250_000, "elements",
         lambda n: _capture(b"<html><body><article>"
                            + b"".join(b"<a href='/p%d'>l</a> " % i for i in range(n))
                            + b"</article></body></html>")),
    Case("big-page", "5 big HTML page", 10 * MIB, "bytes", lambda n: _capture(_article(n))),
    # A title and a run of link openers that never close: the bare-notice check counts links
    # over the markup (its first pattern read 2,000 characters from every opener).
    Case("unclosed-openers", "6 unclosed <a openers under a title", MIB, "bytes",
         lambda n: _capture(b"<html><head><title>Notice</title></head><body>"
                            + b"<a " * (n // 3))),
    # The same with the sign-in check's and og:type's tags (each read 300-400 characters from
    # every opener before the review of issue 21's fifth round).
    Case("unclosed-inputs", "6 unclosed <input and <meta openers under a title", MIB, "bytes",
         lambda n: _capture(b"<html><head><title>Notice</title></head><body>"
                            + b"<input <meta " * (n // 13))),
    # One start tag of distinct attributes: both parsers check each against the tag's earlier
    # ones, so unbounded it cost the square of them (32,000: 35 s a capture).
    Case("attributes", "7 one tag of many attributes", 100_000, "attributes",
         lambda n: _capture(b"<html><head><title>Notice</title></head><body><p>"
                            + PROSE.encode() + b"</p><div "
                            + b" ".join(b"a%d='v'" % i for i in range(n))
                            + b">x</div></body></html>")),
    # Elements of 16 short attributes each, 2 MiB of them: the attributes in all, not any one
    # tag's, bound the parsers' trees (480,000 of them took a capture to 350 MiB).
    Case("attributed-elements", "7 elements of 16 short attributes", 3 * MIB, "bytes",
         lambda n: _capture(b"<html><body><p>" + PROSE.encode() + b"</p>"
                            + (b"<div " + b" ".join(b"a%d" % i for i in range(16))
                               + b">x</div>") * (n // 70) + b"</body></html>")),
    # The yardstick of the JSON case below: as many bytes of plain text, read as they are.
    Case("plain-text", "8 plain text of short words", 10 * MIB, "bytes",
         lambda n: _capture(b"ab " * (n // 3 - 1), "text/plain")),
    # A JSON document of tiny values: every parsed value is a Python object of its own.
    Case("json-values", "8 JSON of tiny values", 10 * MIB, "bytes",
         lambda n: _capture(b"[" + b"1," * (n // 2 - 2) + b"1]", "application/json")),
    # Past MAX_JSON_VALUES a document is read a slice at a time (reading/jsontext.py): its
    # costliest shapes are tiny strings, each a piece of its slice, and objects' keys.
    Case("json-strings", "8 JSON of tiny escaped strings", 10 * MIB, "bytes",
         lambda n: _capture(b"[" + b'"\\u00e9",' * (n // 9 - 1) + b'""]', "application/json")),
    Case("json-objects", "8 JSON of small objects", 10 * MIB, "bytes",
         lambda n: _capture(b"[" + b'{"id":7,"ok":true,"name":"a b"},' * (n // 32 - 1)
                            + b"{}]", "application/json")),
    # A string that never closes, every quote in it escaped, after enough values to be read
    # a slice at a time: a search for strings that may fail was tried again from each quote.
    Case("json-open-string", "8 JSON string of escaped quotes, never closed", 10 * MIB,
         "bytes", lambda n: _capture(b"[" + b"1," * 300_000 + b'"' + b'\\"' * (n // 2 - 300_002),
                                     "application/json")),
    # Two captures' texts compared (``history``, the viewer's history page): SequenceMatcher's
    # work grows with the product of the runs it compares.
    Case("diff-repeated", "9 history diff of repeated lines", 64_000, "lines",
         lambda n: _diff("same line\n" * n + "tail\n", "head\n" + "same line\n" * n),
         warm=lambda: _diff("a\nb\n", "a\nc\n")),
    Case("diff-every-other", "9 history diff, every other line changed", 64_000, "lines",
         lambda n: _diff("".join(f"line {i}\n" for i in range(n)),
                         "".join(f"line {i}\n" if i % 2 else f"changed {i}\n"
                                 for i in range(n))),
         warm=lambda: _diff("a\nb\n", "a\nc\n")),
    # Lines of few distinct items changing at every step: SequenceMatcher looked again at
    # what was left of both runs for each of its many one-line matches (cubic).
    Case("diff-alternating", "9 history diff of alternating repeated lines", 4000, "lines",
         lambda n: _diff("".join("a\n" if i % 2 else "b\n" for i in range(n)),
                         "".join("a\n" if i % 2 else "c\n" for i in range(n))),
         warm=lambda: _diff("a\nb\n", "a\nc\n")),
    # An answer with a figure checked against a page of numbers: the copy's numbers were
    # listed, every match at once.
    Case("answer-numbers-page", "3 an answer's figures, a page of numbers", 10 * MIB, "bytes",
         lambda n: _check_copy("It gives 12,345 as the total.", "1," * (n // 2)),
         warm=lambda: _check_copy("It gives 12 as the total.", "1, 2, 12")),
    # The viewer marking a passage not on the page: its words were a pattern tried at every
    # start of the text.
    Case("mark-repeated", "9 viewer mark, passage of 300 words not on a repeated page",
         MIB, "bytes", lambda n: _mark("a  " * (n // 3), " ".join(["a"] * 300) + " b"),
         warm=lambda: _mark("a b", "a c")),
    # A page of "<" as text, written for an agent: every one escaped, and the fence noting
    # where each escape came from.
    Case("fetch-escapes", "10 fetch: a page of '<' as text", 2 * MIB, "bytes",
         lambda n: _fetch(b"<html><body><p>" + b"<" * n + b"</p></body></html>")),
    # Dense links written for an agent: trafilatura's fallbacks were a second reading of all.
    Case("fetch-links", "10 fetch: tiny links", 40_000, "elements",
         lambda n: _fetch(b"<html><body>"
                          + b"".join(b"<a href='/p%d'>link %d</a> " % (i, i) for i in range(n))
                          + b"</body></html>")),
    # One tag of short attributes in a page past the visible-markup limit, which takes the
    # full pass: its attributes' pattern held a backtracking stack per repetition.
    # One robots.txt group of many agents and many rules: protego gives every agent a copy
    # of every rule (K x R), up to robots.txt's 500 KiB read.
    Case("robots-groups", "11 robots.txt: many agents, then many rules", 500 * 1024,
         "bytes", lambda n: _capture_robots(_agents_then_rules(n)),
         warm=lambda: _capture_robots(_agents_then_rules(1000))),
    # One capture of a big body exported: the body was copied four times on its way out.
    Case("export-body", "12 export --warc of one big body", 128 * MIB, "bytes",
         lambda n: _export(n, "warc"), warm=lambda: _export(1 << 16, "warc")),
    Case("export-body-gz", "12 export --warc .gz of one big body", 128 * MIB, "bytes",
         lambda n: _export(n, "warc.gz"), warm=lambda: _export(1 << 16, "warc.gz")),
    # The viewer's page of one capture with many logged checks: each passage of each check
    # was a search of both texts (1,000 checks of 100 passages on 1.3 MB: 122 s).
    Case("viewer-checks", "13 viewer record page, logged checks of 100 passages", 1000,
         "checks", _record_page, warm=lambda: _record_page(1)),
    Case("long-tag", "7 one long tag of short attributes, 3 MiB page", 3 * MIB, "bytes",
         lambda n: _capture(b"<html><body><p>" + PROSE.encode() + b"</p><div "
                            + b"a= " * (n // 3) + b">x</div></body></html>")),
]


# --- one run, in a process of its own ---------------------------------------------------------


def worker(name: str, size: int) -> None:
    case = next(c for c in CASES if c.key == name)
    # Once small first: the imports and first-call set-up (trafilatura, Lexbor, pdfium, the
    # library) are the same for every input and are not the input's cost.
    (case.warm or (lambda: case.run(max(1, size // 1000))))()()
    work = case.run(size)
    started, cpu = time.perf_counter(), time.process_time()
    outcome = work()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": time.process_time() - cpu, "wall": seconds, "mib": peak,
                      "outcome": outcome}))


def measure(key: str, size: int, src: Path, kill: float) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", key, str(size)],
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


def _cell(run: dict[str, Any] | None) -> str:
    if run is None:
        return "-"
    if run["seconds"] is None:
        return run["outcome"][:18]
    return f"{run['seconds']:.2f} s {run['mib']:.0f} MiB"


def _chosen(names: list[str]) -> list[Case]:
    """The cases ``--case`` names (a key, or a part of a name), in the table's order."""
    if not names:
        return CASES
    chosen = [c for c in CASES if any(n == c.key or n in c.name for n in names)]
    unknown = [n for n in names if not any(n == c.key or n in c.name for c in CASES)]
    if unknown:
        raise SystemExit(f"no case named {', '.join(unknown)}; --list names them")
    return chosen


def _run_case(case: Case, sides: list[tuple[str, Path]], count: int,
              kill: float) -> dict[str, Any]:
    sizes = [case.largest >> k for k in range(count - 1, -1, -1)]
    if case.key in ("deflate-bomb", "baseline"):
        sizes = [case.largest]  # decoded past the size cap: the cap is the size
    runs: dict[str, list[tuple[int, dict[str, Any]]]] = {side: [] for side, _ in sides}
    stopped: set[str] = set()
    for size in sizes:  # interleaved: both sides meet the same load
        for side, src in sides:
            if side in stopped:  # a smaller size was stopped: this one would take longer
                run = {"seconds": None, "mib": None, "outcome": f">{kill:g} s, not run"}
            else:
                run = measure(case.key, size, src, kill)
                if run["seconds"] is None and "stopped" in run["outcome"]:
                    stopped.add(side)
            runs[side].append((size, run))
    return {"sizes": sizes,
            **{side: {"runs": [{"size": s, **r} for s, r in points],
                      "slope": slope([(s, r["seconds"]) for s, r in points])}
               for side, points in runs.items()}}


def _table(results: dict[str, Any], sides: list[str]) -> str:
    """The run as a markdown table: the largest size of each case, each side, the slopes."""
    head = "| case | size | " + " | ".join(f"{s} (CPU s, peak MiB)" for s in sides) + \
        " | slope " + " -> ".join(sides) + " | outcome (after) |"
    lines = [head, "|" + "---|" * (len(sides) + 4)]
    for case in CASES:
        if case.key not in results:
            continue
        result = results[case.key]
        largest = {side: result[side]["runs"][-1] for side in sides}
        slopes = " -> ".join(f"{result[side]['slope']:.2f}" if result[side]["slope"]
                             is not None else "-" for side in sides)
        lines.append(f"| {case.name} | {result['sizes'][-1]:,} {case.unit} | " +
                     " | ".join(_cell(largest[side]) for side in sides) +
                     f" | {slopes} | {largest[sides[-1]]['outcome'][:60]} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", nargs=2, metavar=("CASE", "SIZE"))
    parser.add_argument("--before", type=Path, help="src folder of the package before")
    parser.add_argument("--kill", type=float, default=60.0,
                        help="seconds (wall) a run may take before it is stopped")
    parser.add_argument("--case", action="append", default=[],
                        help="a case's key or a part of its name (more than once: several)")
    parser.add_argument("--list", action="store_true", help="print the cases' keys")
    parser.add_argument("--sizes", type=int, default=4)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return 0
    if args.list:
        for case in CASES:
            print(f"{case.key:16} {case.name} (largest {case.largest:,} {case.unit})")
        return 0
    cases = _chosen(args.case)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(a shared machine)")
    sides = [("after", SRC)] + ([("before", args.before)] if args.before else [])
    results: dict[str, Any] = {}
    for case in cases:
        results[case.key] = result = _run_case(case, sides, args.sizes, args.kill)
        largest = {side: result[side]["runs"][-1] for side, _ in sides}
        base = results.get("baseline", {}).get("after", {}).get("runs", [{}])[0].get("seconds")
        times = f"x{largest['after']['seconds'] / base:.0f} baseline" if base and \
            largest["after"]["seconds"] else ""
        line = f"{case.name:36} {result['sizes'][-1]:>11,} {case.unit:9} {times:>13}"
        for side, _ in reversed(sides):
            s = result[side]["slope"]
            line += f" | {side}: {_cell(largest[side]):22} slope {s:.2f}" if s is not None \
                else f" | {side}: {_cell(largest[side]):22} slope -   "
        print(line + f"  [{largest['after']['outcome']}]", flush=True)
    print()
    print(_table(results, [side for side, _ in reversed(sides)]))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
