"""Benchmark: where the maintained vocabularies' terms stand on pages that are *not* walls.

For every concept of reading/tables/vocabulary.py, on the 181 articles and every clean page
(article_about_walls, hard_negative) of both corpora and of tests/pages, counts the pages
whose text holds one of the concept's terms anywhere, whose shown heading (title segment,
h1, h2) *is* one (terms.py's heading rule), whose line of its own is one (the label rule),
and of those, the pages short enough for a wall's gate (``block``). A concept whose terms sit
in clean text is restricted (heading or label only) or dropped; the figures are the evidence
quoted in tables/notices.py and tables/terms.py.

    .venv/bin/python bench/vocabulary_hits.py [--concept NAME ...]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from readreceipt.reading.facts import GATES, Facts
from readreceipt.reading.tables.terms import heading_entry, label_entry, title_alternation
from readreceipt.reading.tables.vocabulary import TERMS
from verdicts import _view, load_pages

CLEAN = ("article", "article_about_walls", "hard_negative")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--concept", action="append", help="only these concepts")
    args = ap.parse_args()
    concepts = args.concept or sorted({t.concept for t in TERMS})
    text_rx = {c: re.compile(title_alternation(c)) for c in concepts}
    whole = {c: re.compile(heading_entry("x", c, c).expr) for c in concepts}
    line = {c: re.compile(label_entry("x", c, c).expr) for c in concepts}
    counts: dict[str, Counter[str]] = {c: Counter() for c in concepts}
    seen: dict[str, list[str]] = {c: [] for c in concepts}
    pages = [p for p in load_pages() if p.label in CLEAN]
    for page in pages:
        f = Facts(_view(page))
        short = f.main_letters <= GATES["block"]
        for c in concepts:
            hits = {"text": text_rx[c].search(f.text), "heading": next(
                (m for h in f.visible_headings if (m := whole[c].search(h))), None),
                "label": line[c].search(f.labels)}
            for where, m in hits.items():
                if m is None:
                    continue
                counts[c][where] += 1
                counts[c][where + " (short page)"] += short
                seen[c].append(f"{where}{' short' if short else ''}: {page.key} "
                               f"{m.group(0).strip()[:50]!r}")
    print(f"{len(pages)} clean pages (articles, hard negatives, articles about walls)")
    for c in concepts:
        n = len({t.language for t in TERMS if t.concept == c})
        terms = sum(1 for t in TERMS if t.concept == c)
        figures = ", ".join(f"{k} {v}" for k, v in sorted(counts[c].items())) or "no hit"
        print(f"  {c:20} {terms:4} terms, {n:2} languages: {figures}")
        for s in seen[c][:12]:
            print(f"      {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
