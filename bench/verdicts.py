"""Benchmark: the verdict on real pages, through the real capture pipeline.

Serves every labelled page of ../shared/corpus/walls and ../shared/corpus/walls2 (with the
status and headers of its ``.meta.json`` where there is one; otherwise 200 and text/html), all
181 pages of ../shared/corpus/articles, and the synthetic pages of tests/pages (written here,
labelled the same way, kept apart in every table) from a local server on 127.0.0.1, captures
each with ``readreceipt.pipeline.capture`` (``--now``, no rendering: the verdict on the bytes
served), and prints:

- the confusion table: corpus label x verdict reason;
- per label, how many pages were judged as expected (README of the corpus: walls, shells and
  soft 404s UNKNOWN with their reason; articles, hard negatives and articles about walls
  RETRIEVED), with the rule that fired on every miss;
- per source repository (the corpus's ``source_repo`` column; the articles are one source):
  walls caught, walls missed, clean pages kept clean, false alarms; so a rule that fits one
  source shows;
- leave one source out: every rule that caught a wall, with the sources it caught walls in; a
  rule only one source triggers is suspect, and the recall each source would have if the
  rules only it supports were taken away is printed beside its own, overall and for every
  kind of evidence (the rule's first word: structure, comparison, answer, vendor, publisher,
  wording; a vendor's own markup is the vendor's on every site, so never counted as one
  source's);
- decisions by kind of evidence: how many flagged pages each kind decided, per label and in
  all (wording should decide a minority);
- the time the content fingerprint takes beside the extraction it follows (same run, same
  pages: ``judge_content`` and ``extract`` called directly), as a ratio.

Figures, not assertions.

    .venv/bin/python bench/verdicts.py [--direct] [--json bench/out/verdicts.json]
        [--devset3 DIR] [--devset4 DIR] [--devset5 DIR] [--devset6 DIR]
        [--devset7 DIR] [--devset8 DIR]

``--direct`` skips the server and the pipeline and calls ``extract`` + ``judge_content``
(quicker; the same content verdict, without the transport layer). ``--devsetN DIR`` judges
the development set's pages too (a folder of ``<id>.html``, as bench/devsetN.py reads them):
a table of its own, and every development set together in a second leave-one-source-out
table and count of decisions by kind.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import CORPUS, Served, serve
from readreceipt.reading.extract import extract
from readreceipt.reading.fingerprint import PageView, judge_content

WALLS = CORPUS / "walls"
WALL_SETS = (CORPUS / "walls", CORPUS / "walls2")
ARTICLES = CORPUS / "articles" / "html"
SYNTHETIC = Path(__file__).resolve().parents[1] / "tests" / "pages"
ARTICLE_SOURCE = "scrapinghub/article-extraction-benchmark"

#: label -> (verdict, reason) the corpus README expects.
EXPECTED: dict[str, tuple[str, str]] = {
    "challenge": ("UNKNOWN", "wall:challenge"),
    "login": ("UNKNOWN", "wall:login"),
    "consent": ("UNKNOWN", "wall:consent"),
    "paywall": ("UNKNOWN", "wall:paywall"),
    "other_interstitial": ("UNKNOWN", "wall:interstitial"),
    "js_shell": ("UNKNOWN", "js_shell"),
    "soft_404": ("UNKNOWN", "soft_404"),
    "parked": ("UNKNOWN", "parked"),
    "article_about_walls": ("RETRIEVED", "ok"),
    "hard_negative": ("RETRIEVED", "ok"),
    "article": ("RETRIEVED", "ok"),
}

# Headers a server sets for the transfer, not for the page: the body is served as stored
# (decoded), so the recorded encoding and length do not apply.
_TRANSFER_HEADERS = {"content-encoding", "transfer-encoding", "content-length", "connection",
                     "keep-alive"}


@dataclass(frozen=True)
class Page:
    key: str  # the path it is served at, without the leading slash
    label: str
    body: bytes
    status: int
    headers: dict[str, str]
    corpus: str = "walls"  # walls | walls2 | articles | synthetic
    source: str = ""  # the public repository the page was taken from


#: The development sets gathered from public repositories beside the corpora (bench/devsetN.py
#: reads each; their pages are kept outside the repository, one folder each).
DEVSETS = ("devset3", "devset4", "devset5", "devset6", "devset7", "devset8")


def load_devset(name: str, folder: Path) -> list[Page]:
    """The pages of bench/<name>_labels.tsv, read from ``folder`` (``<id>.html`` each; see
    bench/<name>.py), each under its own source repository; ambiguous pages left out."""
    import devset3  # a sibling script, as _corpus_server is: its reader serves every set

    pages: list[Page] = []
    for row in devset3.rows(Path(__file__).with_name(f"{name}_labels.tsv")):
        path = devset3.page_file(folder, row)
        if row["label"] in EXPECTED and path.is_file():
            pages.append(Page(f"{name}/{row['id']}", row["label"], path.read_bytes(), 200,
                              {"content-type": "text/html; charset=utf-8"}, name,
                              row["source_repo"]))
    return pages


def load_pages(*, synthetic: bool = True) -> list[Page]:
    pages: list[Page] = []
    sets = [*WALL_SETS, *([SYNTHETIC] if synthetic and SYNTHETIC.is_dir() else [])]
    for folder in sets:
        if not (folder / "LABELS.tsv").is_file():
            continue
        corpus = "synthetic" if folder == SYNTHETIC else folder.name
        with (folder / "LABELS.tsv").open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                path = folder / row["file"]
                status, headers = 200, {"content-type": "text/html; charset=utf-8"}
                meta = path.with_name(path.name + ".meta.json")
                if meta.is_file():
                    data = json.loads(meta.read_text(encoding="utf-8"))
                    status = int(data.get("status", 200))
                    headers = {k.lower(): str(v) for k, v in data.get("headers", {}).items()
                               if k.lower() not in _TRANSFER_HEADERS}
                pages.append(Page(f"{corpus}/{row['file']}", row["label"], path.read_bytes(),
                                  status, headers, corpus, row.get("source_repo") or corpus))
    for path in sorted(ARTICLES.glob("*.html.gz")):
        pages.append(Page("a/" + path.name.removesuffix(".gz"), "article",
                          gzip.decompress(path.read_bytes()), 200,
                          {"content-type": "text/html"}, "articles", ARTICLE_SOURCE))
    return pages


@dataclass(frozen=True)
class Outcome:
    page: Page
    verdict: str
    reason: str
    rule: str


def run_pipeline(pages: list[Page]) -> list[Outcome]:
    from readreceipt.pipeline import CaptureOptions, capture
    from readreceipt.store.library import Library

    outcomes = []
    served = {p.key: Served(p.status, p.headers, p.body) for p in pages}
    with tempfile.TemporaryDirectory() as tmp, serve(served) as base:
        hostport = base.removeprefix("http://")
        os.environ["READRECEIPT_ALLOW_HOSTS"] = hostport
        library = Library.open(Path(tmp) / "library")
        options = CaptureOptions(now=True, render=False, keep="none")
        for page in pages:
            result = capture(f"http://{hostport}/{quote(page.key)}", options, library)
            r = result.record
            outcomes.append(Outcome(page, r.verdict, r.reason, r.rule or ""))
    return outcomes


def run_direct(pages: list[Page]) -> list[Outcome]:
    outcomes = []
    for page in pages:
        signal = judge_content(_view(page))
        if page.status >= 400:
            outcomes.append(Outcome(page, "FAILED", f"http_{page.status}", "transport"))
        elif signal is None:
            outcomes.append(Outcome(page, "RETRIEVED", "ok", "ok"))
        else:
            outcomes.append(Outcome(page, "UNKNOWN", signal.reason, signal.rule))
    return outcomes


def _view(page: Page) -> PageView:
    ex = extract(page.body, "text/html", None)
    return PageView(url=page.key, final_url=page.key, status=page.status, headers=page.headers,
                    content_type="text/html", html=ex.html, main_text=ex.main_text,
                    page_text=ex.page_text, body_bytes=len(page.body))


def timing(pages: list[Page]) -> dict[str, float]:
    """Milliseconds per page for extraction and for the fingerprint, measured together."""
    extract_ms, judge_ms, big_short_ms = [], [], []
    for page in pages:
        t0 = time.perf_counter()
        ex = extract(page.body, "text/html", None)
        t1 = time.perf_counter()
        view = PageView(url=page.key, final_url=page.key, status=page.status,
                        headers=page.headers, content_type="text/html", html=ex.html,
                        main_text=ex.main_text, page_text=ex.page_text,
                        body_bytes=len(page.body))
        judge_content(view)
        t2 = time.perf_counter()
        extract_ms.append(1000 * (t1 - t0))
        judge_ms.append(1000 * (t2 - t1))
        if len(page.body) > 500_000 and page.label != "article":
            big_short_ms.append(1000 * (t2 - t1) / (len(page.body) / 1e6))
    return {
        "extract_ms_median": statistics.median(extract_ms),
        "judge_ms_median": statistics.median(judge_ms),
        "judge_ms_p95": sorted(judge_ms)[int(0.95 * (len(judge_ms) - 1))],
        "judge_ms_max": max(judge_ms),
        "judge_over_extract": sum(judge_ms) / sum(extract_ms),
        "judge_ms_per_mb_big_wall_pages": (statistics.median(big_short_ms)
                                           if big_short_ms else 0.0),
    }


def _expected(o: Outcome) -> bool:
    return (o.verdict, o.reason) == EXPECTED[o.page.label]


def _is_wall(label: str) -> bool:
    return EXPECTED[label][0] == "UNKNOWN"


def _rule_key(rule: str) -> str:
    """The rule without what varies between pages of one kind (a length, which mount point)."""
    rule = re.sub(r"\d+", "N", rule.split(";")[0])
    return re.sub(r"^structure:empty .*", "structure:empty mount point", rule)


def _vendor_layout(rule: str) -> bool:
    """A vendor's or platform's own markup, headers or template (its evidence is the vendor's
    layout, on every site it fronts), as opposed to words and structure any site may show."""
    return rule.startswith("vendor:")


def _kind(rule: str) -> str:
    """The kind of evidence that decided (the rule's first word)."""
    return rule.split(";")[0].split(":", 1)[0]


def label_table(outcomes: list[Outcome], title: str) -> dict[str, object]:
    labels = [*EXPECTED]
    table: dict[str, Counter[str]] = defaultdict(Counter)
    misses: list[str] = []
    expected_ok: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for o in outcomes:
        label = o.page.label
        table[label][o.reason] += 1
        totals[label] += 1
        if _expected(o):
            expected_ok[label] += 1
        else:
            misses.append(f"  {label:20s} {o.page.key[:70]:70s} {o.verdict} {o.reason} "
                          f"[{o.rule}]")
    if not outcomes:
        return {}
    reasons = sorted({o.reason for o in outcomes}, key=lambda r: (r == "ok", r))
    width = max(len(r) for r in reasons) + 1
    print(f"{title}: confusion table (rows: corpus label; columns: verdict reason)")
    print(f"{'':20s}" + "".join(f"{r:>{width}s}" for r in reasons))
    for label in labels:
        if totals[label]:
            print(f"{label:20s}" + "".join(f"{table[label][r] or '.':>{width}}" for r in reasons))
    print()
    print(f"{title}: judged as expected, per label")
    for label in labels:
        if totals[label]:
            print(f"  {label:20s} {expected_ok[label]:4d} / {totals[label]:<4d}"
                  f" expected {EXPECTED[label][0]} {EXPECTED[label][1]}")
    walls_total = sum(totals[lab] for lab in labels if _is_wall(lab))
    walls_ok = sum(expected_ok[lab] for lab in labels if _is_wall(lab))
    walls_flagged = sum(1 for o in outcomes if _is_wall(o.page.label) and o.verdict != "RETRIEVED")
    clean_total = sum(totals[lab] for lab in labels if not _is_wall(lab))
    clean_ok = sum(expected_ok[lab] for lab in labels if not _is_wall(lab))
    print(f"  walls, shells, soft 404s caught with the right reason: {walls_ok} / {walls_total}"
          f" (flagged at all: {walls_flagged})")
    print(f"  articles, hard negatives, articles about walls RETRIEVED: {clean_ok} / "
          f"{clean_total} (articles alone: {expected_ok['article']} / {totals['article']})")
    if misses:
        print("misses:")
        print("\n".join(misses))
    print()
    return {
        "table": {lab: dict(table[lab]) for lab in labels if totals[lab]},
        "expected": {lab: [expected_ok[lab], totals[lab]] for lab in labels if totals[lab]},
        "walls_caught": [walls_ok, walls_total],
        "walls_flagged": [walls_flagged, walls_total],
        "clean_retrieved": [clean_ok, clean_total],
        "misses": misses,
    }


def source_table(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    """Per source repository: walls caught / wrong reason / missed, clean kept / false alarms."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        row = rows[f"{o.page.source} ({o.page.corpus})"]
        if _is_wall(o.page.label):
            row["caught" if _expected(o) else
                "wrong" if o.verdict != "RETRIEVED" else "missed"] += 1
        else:
            row["clean" if _expected(o) else "false_alarm"] += 1
    cols = ("caught", "wrong", "missed", "clean", "false_alarm")
    print("per source repository (walls: caught, caught with another reason, missed; "
          "clean pages: kept clean, false alarms)")
    print(f"{'':58s}" + "".join(f"{c:>12s}" for c in cols))
    for name in sorted(rows):
        print(f"{name[:58]:58s}" + "".join(f"{rows[name][c] or '.':>12}" for c in cols))
    print()
    return {name: dict(row) for name, row in rows.items()}


def leave_one_source_out(outcomes: list[Outcome]) -> dict[str, object]:
    """Which sources each catching rule is supported by; recall per source without its own."""
    support: dict[str, set[str]] = defaultdict(set)
    for o in outcomes:
        if _is_wall(o.page.label) and _expected(o):
            support[_rule_key(o.rule)].add(o.page.source)
    lone = {rule: next(iter(srcs)) for rule, srcs in support.items()
            if len(srcs) == 1 and not _vendor_layout(rule)}
    print(f"leave one source out: {len(support)} rules caught walls; {len(lone)} of the rules "
          "that are not a vendor's own markup caught walls in one source only")
    per_source: dict[str, list[int]] = {}
    by_source: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if _is_wall(o.page.label):
            by_source[o.page.source].append(o)
    for source in sorted(by_source):
        walls_here = by_source[source]
        caught = [o for o in walls_here if _expected(o)]
        held_out = [o for o in caught if lone.get(_rule_key(o.rule)) != source]
        per_source[source] = [len(caught), len(held_out), len(walls_here)]
        print(f"  {source[:45]:45s} caught {len(caught):3d} / {len(walls_here):<3d}"
              f" without its own rules {len(held_out):3d} / {len(walls_here)}")
    total = sum(v[2] for v in per_source.values())
    held = sum(v[1] for v in per_source.values())
    print(f"  all sources, each without the rules only it supports: {held} / {total} "
          f"({100 * held / max(total, 1):.1f} %)")
    per_kind: dict[str, list[int]] = {}
    for source, walls_here in by_source.items():
        for o in walls_here:
            if not _expected(o):
                continue
            row = per_kind.setdefault(_kind(o.rule), [0, 0])
            row[0] += 1
            row[1] += lone.get(_rule_key(o.rule)) != source
    print("  per kind of evidence: walls it caught, and of those still caught with the rules "
          "only one source supports taken away")
    for kind, (caught_n, held_n) in sorted(per_kind.items(), key=lambda kv: -kv[1][0]):
        print(f"    {kind:12s} {held_n:3d} / {caught_n:<3d} ({100 * held_n / caught_n:5.1f} %)")
    for rule, source in sorted(lone.items(), key=lambda kv: (kv[1], kv[0])):
        print(f"    one source only: {rule[:70]:70s} {source}")
    print()
    return {"lone_rules": lone, "per_source": per_source, "held_out_recall": [held, total],
            "per_kind": per_kind}


def evidence_counts(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    """What kind of evidence decided each verdict (the rule's first word), per label and in
    all."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        if o.verdict != "RETRIEVED":
            table[o.page.label][_kind(o.rule)] += 1
    print("evidence that decided each flagged page (kind of evidence), per label")
    for label in EXPECTED:
        if table[label]:
            print(f"  {label:20s} " + ", ".join(f"{k} {n}" for k, n in table[label].most_common()))
    everything: Counter[str] = Counter()
    for label, counts in table.items():
        if _is_wall(label):
            everything.update(counts)
    total = sum(everything.values())
    if total:
        print("  walls, shells, soft 404s decided, by kind: " + ", ".join(
            f"{k} {n} ({100 * n / total:.0f} %)" for k, n in everything.most_common()))
    print()
    return {label: dict(c) for label, c in table.items()} | {"all walls": dict(everything)}


def report(outcomes: list[Outcome], times: dict[str, float]) -> dict[str, object]:
    development = [o for o in outcomes if o.page.corpus not in ("synthetic", *DEVSETS)]
    synthetic = [o for o in outcomes if o.page.corpus == "synthetic"]
    devsets = [o for o in outcomes if o.page.corpus in DEVSETS]
    figures: dict[str, object] = {}
    for name in ("walls", "walls2"):
        part = [o for o in outcomes if o.page.corpus in (name, "articles")]
        figures[name] = label_table(part, f"{name} + articles")
    figures["development"] = label_table(development, "both corpora + articles")
    figures["sources"] = source_table(development)
    figures["leave_one_source_out"] = leave_one_source_out(development)
    figures["evidence"] = evidence_counts(development)
    if synthetic:
        figures["synthetic"] = label_table(synthetic, "synthetic pages (tests/pages)")
        figures["synthetic_evidence"] = evidence_counts(synthetic)
    if devsets:
        # The development sets gathered for issue 21 beside the corpora: their many sources
        # let a rule show whether it holds beyond the one source it was seen in.
        articles = [o for o in development if o.page.corpus == "articles"]
        named = sorted({o.page.corpus for o in devsets})
        for name in named:
            figures[name] = label_table([o for o in devsets if o.page.corpus == name]
                                        + articles, f"{name} + articles")
        print(f"all development sets (walls, walls2, {', '.join(named)}, articles):")
        figures["all_leave_one_source_out"] = leave_one_source_out(development + devsets)
        figures["all_evidence"] = evidence_counts(development + devsets)
    print(f"speed (same run, direct calls): extraction {times['extract_ms_median']:.1f} ms a "
          f"page (median); content fingerprint {times['judge_ms_median']:.2f} ms median, "
          f"{times['judge_ms_p95']:.2f} ms p95, {times['judge_ms_max']:.1f} ms max; "
          f"fingerprint / extraction = {100 * times['judge_over_extract']:.1f} %; "
          f"pages over 500 kB with little text: "
          f"{times['judge_ms_per_mb_big_wall_pages']:.1f} ms per MB")
    figures["timing"] = times
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--direct", action="store_true",
                        help="call extract + judge_content instead of the capture pipeline")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    for name in DEVSETS:
        parser.add_argument(f"--{name}", type=Path, help=f"a folder of bench/{name}_labels.tsv's "
                            "pages (<id>.html): judged too, and counted with the other "
                            "development sets in a second leave-one-source-out table")
    args = parser.parse_args()
    if not all(w.is_dir() for w in WALL_SETS) or not ARTICLES.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    folders = {name: getattr(args, name) for name in DEVSETS if getattr(args, name) is not None}
    for folder in folders.values():
        if not folder.is_dir():
            print(f"no such folder: {folder}", file=sys.stderr)
            return 2
    pages = load_pages()
    for name, folder in folders.items():
        pages += load_devset(name, folder)
    started = time.perf_counter()
    outcomes = run_direct(pages) if args.direct else run_pipeline(pages)
    elapsed = time.perf_counter() - started
    print(f"{len(pages)} pages through {'extract + judge_content' if args.direct else 'capture()'}"
          f" in {elapsed:.1f} s\n")
    figures = report(outcomes, timing(pages))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
