"""Benchmark: the content verdict on real pages nobody wrote a rule against.

The pages are other projects' test data, read straight from git checkouts of them (nothing is
copied into this repository; ``bench/heldout_labels.tsv`` names each page by source
repository, path and commit, with its label):

- scrapy/protego ``tests/test_data/*``: what real sites served at ``/robots.txt``. Many sent
  an HTML page instead: their not-found page, a maintenance or outage page, a geo-block, a
  bot check, a sign-in page, a JavaScript shell, or an ordinary page. The 97 labelled here are
  the HTML ones not already in ../shared/corpus. Labels: ``soft_404``, ``other_interstitial``,
  ``challenge``, ``login``, ``js_shell``, ``ok`` (a real page: must not be flagged) and
  ``ambiguous`` (left out of every figure);
- mozilla/readability ``test/test-pages/*/source.html`` and postlight/parser
  ``fixtures/*.html``: 300 real articles, which must all stay clean.

With ``--trafilatura`` (a checkout of adbar/trafilatura), its ``tests/eval/*.html`` at
``TRAFILATURA_COMMIT`` are judged too: real news and blog pages in many languages, a second
unseen set for false alarms (the few real paywalls among them are listed, not counted right
or wrong: no label is written for them).

Each page goes through ``extract`` + ``judge_content`` (the content verdict, as
``bench/verdicts.py --direct``). Printed: walls, shells and soft 404s judged with the right
reason and flagged at all; clean pages kept clean; articles flagged (a wall, a shell or a soft
404 is a false alarm; thin text is counted apart); per label; and every miss with the rule
that fired. Every figure is printed for two halves as well: the labelled walls and the clean
pages, each sorted by file name, split by position (0, 2, 4... "even"; 1, 3, 5... "odd"), so
that rules developed looking at one half can be judged on the other.

Figures, not assertions. Skips (saying so, exit 0) when a checkout is missing.

    .venv/bin/python bench/heldout.py --protego ../protego --readability ../readability \\
        --postlight ../parser [--json bench/out/heldout.json] [--quiet]

A checkout may be a work tree or a bare repository; the commit in the labels file is read,
not whatever is checked out.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from readreceipt.reading.extract import extract
from readreceipt.reading.fingerprint import PageView, judge_content

LABELS = Path(__file__).with_name("heldout_labels.tsv")
SOURCES = {"protego": "scrapy/protego", "readability": "mozilla/readability",
           "postlight": "postlight/parser"}
#: label -> the reason the verdict should give.
WANT = {"soft_404": "soft_404", "other_interstitial": "wall:interstitial",
        "challenge": "wall:challenge", "login": "wall:login", "js_shell": "js_shell"}
#: The commit of adbar/trafilatura whose evaluation pages ``--trafilatura`` reads.
TRAFILATURA_COMMIT = "e90b0ef51ab026fdb905fb6c5b3c84dd3d784fd5"
#: Reasons that call a page something other than itself (thin text only says it is short).
FLAGS = ("wall:", "js_shell", "soft_404", "parked")


@dataclass(frozen=True)
class Row:
    repo: str
    path: str
    commit: str
    label: str

    @property
    def name(self) -> str:
        return self.path.removesuffix("/source.html").rsplit("/", 1)[-1]


def read_blob(checkout: Path, commit: str, path: str) -> bytes | None:
    done = subprocess.run(["git", "-C", str(checkout), "show", f"{commit}:{path}"],
                          capture_output=True, timeout=60, check=False)
    return done.stdout if done.returncode == 0 else None


def judge(body: bytes) -> tuple[str, str]:
    ex = extract(body, "text/html", None)
    view = PageView(url="https://example.org/page", final_url="https://example.org/page",
                    status=200, headers={}, content_type="text/html", html=ex.html,
                    main_text=ex.main_text, page_text=ex.page_text, body_bytes=len(body))
    signal = judge_content(view)
    if signal is None:
        return "ok", ""
    return signal.reason, signal.rule


def halves(rows: list[Row]) -> dict[str, str]:
    """Each labelled page's half: walls and clean pages each sorted by name, by position."""
    half: dict[str, str] = {}
    walls = sorted((r for r in rows if r.label in WANT), key=lambda r: r.name)
    clean = sorted((r for r in rows if r.label == "ok"), key=lambda r: r.name)
    for group in (walls, clean):
        for i, r in enumerate(group):
            half[r.path] = "even" if i % 2 == 0 else "odd"
    return half


def evaluation_pages(checkout: Path) -> dict[str, object]:
    """trafilatura's evaluation pages: how many are flagged, and which, with the rule."""
    listing = subprocess.run(["git", "-C", str(checkout), "ls-tree", "--name-only",
                              TRAFILATURA_COMMIT, "tests/eval/"], capture_output=True,
                             text=True, timeout=60, check=False).stdout.split()
    flagged: list[str] = []
    pages = 0
    for path in listing:
        if not path.endswith(".html"):
            continue
        body = read_blob(checkout, TRAFILATURA_COMMIT, path)
        if body is None:
            continue
        pages += 1
        got, rule = judge(body)
        if got.startswith(FLAGS):
            flagged.append(f"  {path.rsplit('/', 1)[-1]}: {got} {rule}")
    print(f"trafilatura's evaluation pages: {pages}; flagged {len(flagged)}")
    print("\n".join(flagged))
    return {"pages": pages, "flagged": flagged}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for key, repo in SOURCES.items():
        ap.add_argument(f"--{key}", type=Path, help=f"a checkout of {repo}")
    ap.add_argument("--trafilatura", type=Path, help="a checkout of adbar/trafilatura (its "
                    "evaluation pages, judged for false alarms)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--quiet", action="store_true", help="no list of misses")
    args = ap.parse_args()
    checkouts = {SOURCES[k]: getattr(args, k) for k in SOURCES}
    absent = [f"{repo} (--{k})" for k, repo in SOURCES.items()
              if checkouts[repo] is None or not checkouts[repo].exists()]
    if absent:
        print("skipped: no checkout of " + ", ".join(absent))
        return 0
    with LABELS.open(encoding="utf-8") as fh:
        rows = [Row(r["source_repo"], r["path"], r["commit"], r["label"])
                for r in csv.DictReader(fh, delimiter="\t")]
    half = halves(rows)
    tally: Counter[tuple[str, str]] = Counter()  # (figure, half or "all")
    per_label: Counter[tuple[str, str, str]] = Counter()
    lines: list[str] = []
    missing: list[str] = []
    for r in rows:
        if r.label == "ambiguous":
            continue
        body = read_blob(checkouts[r.repo], r.commit, r.path)
        if body is None:
            missing.append(f"{r.repo}:{r.commit[:10]}:{r.path}")
            continue
        got, rule = judge(body)
        flagged = got.startswith(FLAGS)
        for h in ("all", half.get(r.path, "")):
            if r.label == "article":
                tally["articles", h] += 1
                tally["article false alarms", h] += flagged
                tally["article thin_text", h] += got == "thin_text"
            elif r.label == "ok":
                tally["clean", h] += 1
                tally["clean kept", h] += got == "ok"
            else:
                tally["walls", h] += 1
                tally["right", h] += got == WANT[r.label]
                tally["flagged", h] += got != "ok"
                per_label[r.label, h, "n"] += 1
                per_label[r.label, h, "right"] += got == WANT[r.label]
        if r.label in WANT and got != WANT[r.label]:
            lines.append(f"  {half[r.path]:4} {'MISSED' if got == 'ok' else 'WRONG':6} "
                         f"{r.label:18} {r.name}: {got} {rule}")
        elif r.label == "ok" and got != "ok":
            lines.append(f"  {half[r.path]:4} FALSE  ok {r.name}: {got} {rule}")
        elif r.label == "article" and flagged:
            lines.append(f"       FALSE  article {r.repo} {r.name}: {got} {rule}")
    if missing:
        print(f"not in the checkouts ({len(missing)}): " + ", ".join(missing[:5]))
    figures: dict[str, object] = {}
    for h in ("all", "even", "odd"):
        label_fig = {lab: f"{per_label[lab, h, 'right']}/{per_label[lab, h, 'n']}"
                     for lab in WANT if per_label[lab, h, "n"]}
        figures[h] = {k: tally[k, h] for k in ("walls", "right", "flagged", "clean",
                                                "clean kept")} | {"per label": label_fig}
        print(f"{h:4}: walls, shells, soft 404s {tally['right', h]}/{tally['walls', h]} right "
              f"reason, {tally['flagged', h]}/{tally['walls', h]} flagged; clean pages kept "
              f"clean {tally['clean kept', h]}/{tally['clean', h]}")
        print("      per label (right reason): " +
              ", ".join(f"{k} {v}" for k, v in label_fig.items()))
    figures["articles"] = {"pages": tally["articles", "all"],
                           "false alarms": tally["article false alarms", "all"],
                           "thin_text": tally["article thin_text", "all"]}
    print(f"articles: {tally['articles', 'all']}; called a wall, shell, soft 404 or parked: "
          f"{tally['article false alarms', 'all']}; thin text: "
          f"{tally['article thin_text', 'all']}")
    if not args.quiet and lines:
        print("misses and false alarms:")
        print("\n".join(lines))
    if args.trafilatura is not None:
        figures["trafilatura eval"] = evaluation_pages(args.trafilatura)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
