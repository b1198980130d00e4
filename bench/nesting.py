"""Benchmark: the cost of deep nesting, with and without the bounded pass's flattening.

- the corpus's deepest nesting (../shared/corpus: articles, walls, walls2), as the pass counts
  it and as Lexbor's tree has it, against ``markup.MAX_DEPTH``;
- what the pass itself costs on the corpus (milliseconds per MB of HTML, beside the time
  extraction takes on the same pages);
- a hostile page of N nested ``<div>`` elements, each with a word, for growing N: the time
  to extract and judge it with the flattening (the default) and without it (``MAX_DEPTH``
  set out of reach), in the same run. Without it the time grows with the square of N; runs
  past ``--budget`` seconds are not started again at a larger N.

Figures, not assertions.

    .venv/bin/python bench/nesting.py [--budget 120]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import sys
import time
from pathlib import Path

from readreceipt.reading import markup
from readreceipt.reading.extract import HTML_TEXT_BYTES, extract
from readreceipt.reading.fingerprint import PageView, judge_content

# ../shared beside the checkout, or beside the folder that holds it (a worktree)
CORPUS = next((p / "shared" / "corpus" for p in Path(__file__).resolve().parents[2:4]
               if (p / "shared" / "corpus").is_dir()),
              Path(__file__).resolve().parents[2] / "shared" / "corpus")
SIZES = (1_000, 4_000, 16_000, 40_000, 160_000)


def corpus_pages() -> list[tuple[str, bytes]]:
    pages = [(f"articles/{p.name[:12]}", gzip.decompress(p.read_bytes()))
             for p in sorted((CORPUS / "articles" / "html").glob("*.html.gz"))]
    for folder in ("walls", "walls2"):
        labels = CORPUS / folder / "LABELS.tsv"
        with labels.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                pages.append((f"{folder}/{row['file']}", (CORPUS / folder / row["file"])
                              .read_bytes()))
    return pages


def lexbor_depth(html: str) -> int:
    from selectolax.lexbor import LexborHTMLParser

    root = LexborHTMLParser(html).root
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        child = node.child if node is not None else None
        while child is not None:
            if child.tag and not child.tag.startswith("-"):
                stack.append((child, depth + 1))
            child = child.next
    return deepest


def corpus_figures() -> None:
    pages = corpus_pages()
    deepest = max((markup.prepare(body, HTML_TEXT_BYTES).depth, key) for key, body in pages)
    lexbor = max((lexbor_depth(body.decode("utf-8", "replace")), key) for key, body in pages)
    size = sum(len(body) for _, body in pages)
    started = time.perf_counter()
    for _, body in pages:
        markup.prepare(body, HTML_TEXT_BYTES)
    pass_s = time.perf_counter() - started
    started = time.perf_counter()
    for _, body in pages:
        extract(body, "text/html", None)
    extract_s = time.perf_counter() - started
    print(f"corpus: {len(pages)} pages, {size / 1e6:.1f} MB of HTML")
    print(f"  deepest nesting: {deepest[0]} as the pass counts it ({deepest[1]}), {lexbor[0]} "
          f"in Lexbor's tree ({lexbor[1]}); MAX_DEPTH = {markup.MAX_DEPTH}")
    print(f"  the pass: {1000 * pass_s / (size / 1e6):.1f} ms per MB; whole extraction (pass "
          f"included): {1000 * extract_s / (size / 1e6):.1f} ms per MB "
          f"(the pass is {100 * pass_s / extract_s:.1f} % of it)")
    print()


def hostile(levels: int) -> bytes:
    return (b"<html><head><title>Deep</title></head><body>" + b"<div>w " * levels
            + b"</div>" * levels + b"</body></html>")


def timed(body: bytes) -> float:
    started = time.perf_counter()
    ex = extract(body, "text/html", "utf-8")
    judge_content(PageView(url="u", final_url="u", status=200, headers={},
                           content_type="text/html", html=ex.html, main_text=ex.main_text,
                           page_text=ex.page_text, body_bytes=len(body)))
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds past which the unflattened runs stop growing")
    args = parser.parse_args()
    if CORPUS.is_dir():
        corpus_figures()
    else:
        print(f"corpus not found at {CORPUS}: its figures are left out", file=sys.stderr)
    print(f"{'levels':>8s} {'bytes':>10s} {'flattened':>10s} {'not flattened':>14s} {'ratio':>7s}")
    bound = markup.MAX_DEPTH
    over_budget = False
    for levels in SIZES:
        body = hostile(levels)
        flat = timed(body)
        plain = None
        if not over_budget:
            markup.MAX_DEPTH = 10 ** 9
            try:
                plain = timed(body)
            finally:
                markup.MAX_DEPTH = bound
            over_budget = plain > args.budget
        shown = f"{plain:13.2f}s" if plain is not None else f"{'(not run)':>14s}"
        ratio = f"{plain / flat:7.1f}" if plain is not None else f"{'-':>7s}"
        print(f"{levels:8d} {len(body):10d} {flat:9.2f}s {shown} {ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
