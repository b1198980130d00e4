"""Benchmark: quotations from real pages nobody here wrote rules against.

mozilla/readability's test pages (130 real pages, many languages, each with ``source.html``
as served and ``expected.html``, readability's own reading of the article) were never part of
the shared corpus, nor looked at while the quotation rules were written. From each page's
expected article text, up to five sentences (40-220 characters, holding no quotation marks of
their own, not an aside in brackets, not missing the inline math readability leaves out) are
quoted, and each is checked against the texts readreceipt extracts from
``source.html`` (:func:`readreceipt.quotes.quotations.check_answer_text`):

- *faithful*: the sentence verbatim, in straight double quotes; then in curly quotes,
  French guillemets (with no-break spaces inside), German low-9 quotes and Japanese corner
  brackets; and, for a sentence of twelve words or more, elided: its first five words, an
  ellipsis, its last five;
- *altered*: the sentence with one digit changed (not inside a citation mark such as
  ``[84]``) or, without digits, one word of four or more letters dropped from its middle.

An elided stretch whose left-out words hold a negation is reported apart: by design
(:mod:`readreceipt.quotes.edits`) an elision may not start or end next to a negation, which
would turn the quoted words round, so some of those are flagged on purpose.

Figures, not assertions. Without the pages it says so and exits 0::

    git clone https://github.com/mozilla/readability /tmp/readability
    .venv/bin/python bench/quotes_heldout.py /tmp/readability/test/test-pages [--seed 7]
"""

from __future__ import annotations

import argparse
import html
import random
import re
import sys
from collections import Counter
from pathlib import Path

FORMS = ("straight", "curly", "guillemets", "low-9", "corner", "elided", "elided over a negation")
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+")
_QUOTE_MARKS = re.compile("[\"\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d]")
# Not a sentence anyone would quote: one wholly in brackets (an aside), or one whose inline
# math readability left out of its expected text ("for any pair of vectors , where").
_DAMAGED = re.compile(r"^\[| [,.]")  # (French spaces a colon, never a comma)


def sentences(expected_html: str) -> list[str]:
    import lxml.html

    doc = lxml.html.fromstring(expected_html)
    # html.unescape: lxml's parser predates HTML5's entities (&percnt; stays as written).
    paragraphs = (" ".join(html.unescape(p.text_content()).split()) for p in doc.iter("p"))
    return [s.strip().rstrip(".").strip() for para in paragraphs
            for s in _SENTENCE_END.split(para)
            if 40 <= len(s) <= 220 and not _QUOTE_MARKS.search(s) and not _DAMAGED.search(s)]


def quoted_forms(sentence: str) -> dict[str, str]:
    try:
        from readreceipt.quotes.negations import has_negation
        from readreceipt.quotes.textfold import fold
    except ImportError:  # an older readreceipt, measured as a baseline: no negation table
        def has_negation(text: str) -> bool:
            return False

        def fold(text: str) -> str:
            return text

    forms = {"straight": f'The page says "{sentence}".',
             "curly": f"The page says \u201c{sentence}\u201d.",
             "guillemets": f"La page dit \u00ab\u00a0{sentence}\u00a0\u00bb.",
             "low-9": f"Die Seite sagt \u201e{sentence}\u201c.",
             "corner": f"\u30da\u30fc\u30b8\u306b\u300c{sentence}\u300d\u3068\u3042\u308b\u3002"}
    words = sentence.split()
    if len(words) >= 12:
        left_out = " ".join(words[5:-5])
        form = "elided over a negation" if has_negation(fold(left_out)) else "elided"
        forms[form] = f'The page says "{" ".join(words[:5])} \u2026 {" ".join(words[-5:])}".'
    return forms


def altered(sentence: str, rng: random.Random) -> str | None:
    digits = [m.start() for m in re.finditer(r"\d", sentence)
              if not re.search(r"\[[^\]]*$", sentence[:m.start()])]
    if digits:
        i = rng.choice(digits)
        return sentence[:i] + str((int(sentence[i]) + 3) % 10) + sentence[i + 1:]
    words = sentence.split()
    middle = [i for i in range(2, len(words) - 2) if len(re.sub(r"\W", "", words[i])) >= 4]
    if not middle:
        return None
    i = rng.choice(middle)
    return " ".join(words[:i] + words[i + 1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", type=Path, help="readability's test/test-pages folder")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--misses", action="store_true", help="print every miss")
    args = parser.parse_args()
    if not args.pages.is_dir():
        print(f"no test pages at {args.pages}: nothing measured (see the module docstring)")
        return 0
    from readreceipt.quotes.quotations import check_answer_text
    from readreceipt.reading.extract import extract

    rng = random.Random(args.seed)  # noqa: S311 - a reproducible sample, not a secret
    asked: Counter[str] = Counter()
    right: Counter[str] = Counter()
    misses: list[str] = []
    pages = 0
    for folder in sorted(p for p in args.pages.iterdir() if p.is_dir()):
        expected, source = folder / "expected.html", folder / "source.html"
        if not (expected.is_file() and source.is_file()):
            continue
        found_here = sentences(expected.read_text("utf-8"))
        if not found_here:
            continue
        pages += 1
        ex = extract(source.read_bytes(), "text/html", None)

        def outcome(answer: str, main: str = ex.main_text, page: str = ex.page_text) -> str:
            return check_answer_text(answer, main_text=main, page_text=page).outcome

        for sentence in rng.sample(found_here, min(5, len(found_here))):
            for form, answer in quoted_forms(sentence).items():
                asked[form] += 1
                got = outcome(answer)
                right[form] += got == "found"
                if got != "found":
                    misses.append(f"{folder.name}: {form} {got}: {sentence[:120]}")
            change = altered(sentence, rng)
            if change is not None:
                asked["altered"] += 1
                got = outcome(f'The page says "{change}".')
                right["altered"] += got == "not_found"
                if got != "not_found":
                    misses.append(f"{folder.name}: altered {got}: {change[:120]}")
    print(f"{pages} pages of mozilla/readability's test pages\n")
    print(f"{'form':26} {'faithful found':>16}")
    for form in FORMS:
        if asked[form]:
            share = 100 * right[form] / asked[form]
            print(f"{form:26} {right[form]:>7} / {asked[form]:<5} {share:5.1f} %")
    if asked["altered"]:
        print(f"\naltered (a digit changed or a word dropped), flagged: {right['altered']} / "
              f"{asked['altered']} ({100 * right['altered'] / asked['altered']:.1f} %)")
    if args.misses:
        print("\n".join(["", *misses]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
