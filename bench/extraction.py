"""Benchmark: the second reading (reading/secondreading.py), before and after, in one run.

On the 181 pages of ../shared/corpus/articles, with their ground truth:

- main-text F1 by the article-extraction benchmark's own measure (4-word shingles counted
  with their multiplicity, each page's counts normalised, precision and recall averaged over
  pages, F1 of the two averages), of the first reading (trafilatura, as extract() runs it)
  and of the text extract() now returns (the second reading where it was used);
- how many pages had a second reading made, and how many used it, with why;
- the same two figures for a second reader of the other kind, trafilatura with
  ``favor_recall=True``, on the pages where a second reading was made;

on the synthetic failure pages of tests/pages/second_reading (layouts trafilatura is known to
cut short, with the article as their ground truth): the same three readings;

and on every labelled page of both wall corpora, the articles and tests/pages: the content
verdict with the first reading and with the returned one (``judge_content`` on both, same
pages, same run), so a verdict the second reading changed shows.

Figures, not assertions.

    .venv/bin/python bench/extraction.py [--json bench/out/extraction.json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _corpus_server import ground_truth, load_articles
from readreceipt.reading.extract import Extraction, extract
from readreceipt.reading.fingerprint import PageView, judge_content
from verdicts import load_pages

SYNTHETIC = Path(__file__).resolve().parents[1] / "tests" / "pages" / "second_reading"

_TOKEN = re.compile(r"\w+")


# -- the article-extraction benchmark's measure (scrapinghub/article-extraction-benchmark) --

def _shingle_counts(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    words = _TOKEN.findall(text or "")
    return Counter(tuple(words[i:i + n]) for i in range(max(1, len(words) - n + 1))
                   if words[i:i + n])


def precision_recall(truth: str, text: str) -> tuple[float, float]:
    """One page's precision and recall over shingles, its counts normalised to sum to 1."""
    want, got = _shingle_counts(truth), _shingle_counts(text)
    hit = sum((want & got).values())
    extra = sum((got - want).values())
    missed = sum((want - got).values())
    if extra == missed == 0:
        return 1.0, 1.0
    precision = hit / (hit + extra) if hit + extra else 0.0
    recall = hit / (hit + missed) if hit + missed else 0.0
    return precision, recall


def f1(pairs: Iterable[tuple[float, float]]) -> float:
    pairs = list(pairs)
    if not pairs:
        return 0.0
    p = statistics.mean(x for x, _ in pairs)
    r = statistics.mean(y for _, y in pairs)
    return 2 * p * r / (p + r) if p + r else 0.0


# -- readings ----------------------------------------------------------------------------------

def first_reading(ex: Extraction) -> str:
    return ex.second_reading.first_text if ex.second_reading is not None else ex.main_text


def recall_reading(html: str) -> str:
    """The other kind of second reader: trafilatura again, with its recall-oriented settings."""
    import trafilatura

    out = trafilatura.extract(html, include_comments=False, include_tables=True,
                              deduplicate=False, favor_recall=True)
    return (out or "").strip()


def compare(name: str, cases: list[tuple[str, str, Extraction]]) -> dict[str, object]:
    """F1 of the first reading, the returned one, and the favor_recall reading where a second
    reading was made (all pages for the first two)."""
    first = [precision_recall(t, first_reading(ex)) for _, t, ex in cases]
    final = [precision_recall(t, ex.main_text) for _, t, ex in cases]
    tried = [(k, t, ex) for k, t, ex in cases if ex.second_reading is not None]
    used = [c for c in tried if c[2].second_reading is not None and c[2].second_reading.used]
    tried_first = [precision_recall(t, first_reading(ex)) for _, t, ex in tried]
    tried_ours = [precision_recall(t, ex.main_text) for _, t, ex in tried]
    tried_recall = [precision_recall(t, recall_reading(ex.html or "")) for _, t, ex in tried]
    print(f"{name}: {len(cases)} pages; second reading made on {len(tried)}, used on {len(used)}")
    print(f"  main-text F1, all pages:   first reading {f1(first):.4f}   returned {f1(final):.4f}")
    if tried:
        print(f"  on the {len(tried)} pages read again: first {f1(tried_first):.4f}   "
              f"second reading (ours) {f1(tried_ours):.4f}   trafilatura favor_recall "
              f"{f1(tried_recall):.4f}")
    for (key, _truth, ex), a, b, c in zip(tried, tried_first, tried_ours, tried_recall,
                                         strict=True):
        r = ex.second_reading
        assert r is not None
        print(f"    {key[:40]:40s} F1 {_one(a):.2f} -> {_one(b):.2f} (favor_recall "
              f"{_one(c):.2f}) used={r.used} {r.method}: {r.why} [{r.evidence}]")
    print()
    return {"pages": len(cases), "made": len(tried), "used": len(used),
            "f1_first": f1(first), "f1_returned": f1(final),
            "read_again": {"f1_first": f1(tried_first), "f1_second": f1(tried_ours),
                           "f1_favor_recall": f1(tried_recall)},
            "pages_read_again": [{"page": k, "used": ex.second_reading.used,
                                  "method": ex.second_reading.method,
                                  "why": ex.second_reading.why}
                                 for k, _, ex in tried if ex.second_reading is not None]}


def _one(pr: tuple[float, float]) -> float:
    return 2 * pr[0] * pr[1] / (pr[0] + pr[1]) if sum(pr) else 0.0


def verdicts_before_after() -> dict[str, object]:
    """The content verdict on every labelled page with the first reading and with the
    returned one."""
    changed: list[str] = []
    counted: Counter[str] = Counter()
    for page in load_pages():
        ex = extract(page.body, "text/html", None)
        counted["pages"] += 1
        if ex.second_reading is None:
            continue
        counted["made"] += 1
        counted["used"] += ex.second_reading.used
        before = judge_content(_view(page.key, page.status, page.headers, ex, first_reading(ex),
                                     len(page.body)))
        after = judge_content(_view(page.key, page.status, page.headers, ex, ex.main_text,
                                    len(page.body)))
        b = before.reason if before else "ok"
        a = after.reason if after else "ok"
        if a != b:
            changed.append(f"{page.label} {page.key}: {b} -> {a}")
    print(f"verdicts: {counted['pages']} labelled pages (walls, walls2, articles, tests/pages); "
          f"second reading made on {counted['made']}, used on {counted['used']}; content "
          f"verdict changed on {len(changed)}")
    for line in changed:
        print("  " + line)
    print()
    return {"pages": counted["pages"], "made": counted["made"], "used": counted["used"],
            "changed": changed}


def _view(key: str, status: int, headers: dict[str, str], ex: Extraction, main: str,
          size: int) -> PageView:
    return PageView(url=key, final_url=key, status=status, headers=headers,
                    content_type="text/html", html=ex.html, main_text=main,
                    page_text=ex.page_text, body_bytes=size)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    truth = ground_truth()
    started = time.perf_counter()
    articles = [(key, truth[key]["articleBody"], extract(body, "text/html", None))
                for key, body in load_articles().items()]
    elapsed = time.perf_counter() - started
    synthetic = [(path.stem, path.with_suffix(".truth.txt").read_text("utf-8"),
                  extract(path.read_bytes(), "text/html", None))
                 for path in sorted(SYNTHETIC.glob("*.html"))]
    figures = {"articles": compare("articles corpus", articles),
               "synthetic": compare("synthetic failure pages (tests/pages/second_reading)",
                                    synthetic),
               "verdicts": verdicts_before_after(),
               "extract_ms_per_article": 1000 * elapsed / max(len(articles), 1)}
    print(f"extraction with the second reading wired in: {figures['extract_ms_per_article']:.1f} "
          "ms an article page (mean)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
