"""Benchmark: the content verdict on a third set, a *development* set of real pages.

146 real pages from 99 public repositories (bench/devset3_labels.tsv: where each page came
from, by repository, path and commit, with its label and language), gathered for issue 21's
fourth round (nine self-hosted domain-sale pages for its seventh; five sale pages and a
domain marketplace's home for its ninth) from sources no other
corpus, test or benchmark here uses (none of bench/heldout2.py's sources, none of
../shared/RESERVED.md's): maintenance, closure and suspension notices in 16 languages, sign-in
pages (several of them phishing kits' copies of real banks' pages, said so in the notes), bot
checks of self-hosted firewalls, parked and for-sale pages, paywalls, soft 404s and shells, and
clean pages beside them. Unlike the held-out sets, rules were written looking at this one: its
figures say what a change does to pages like these, not how the verdict does on pages it has
never seen (bench/heldout2.py says that). So it prints every page it misses.

The pages are read from checkouts of the source repositories (``--fetch-dir``, one folder
per repository as ``owner+name``, as bench/heldout2.py reads its own), or from a folder of
the pages as collected (``--pages``: one ``<id>.html`` each). A few pages are not a file of
their repository as it stands (a page decoded from a JSON field, one whose copy was taken
from the code index, and four pages of a package mirror too large to fetch here): the
notes say which; ``--pages`` holds them as judged. One source stores each page in a JSON
record (``UNWRAP``).

    .venv/bin/python bench/devset3.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset3.py --fetch-dir DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import heldout  # sibling scripts, not a package: their helpers are reused
import heldout2

LABELS = Path(__file__).with_name("devset3_labels.tsv")
CLEAN = {"article", "hard_negative"}


def _robots_txt_field(raw: bytes) -> bytes:
    """The page a robots.txt crawler stored in its JSON record's ``robotsTxt`` field (what the
    site served at /robots.txt: HTML, for these pages)."""
    return str(json.loads(raw).get("robotsTxt") or "").encode("utf-8")


#: Sources whose files wrap the page: how to take the page out.
UNWRAP = {"avuim/RobotsTXTCrawler": _robots_txt_field}


def rows(labels: Path = LABELS) -> list[dict[str, str]]:
    """The labelled pages of ``labels`` (this set's, or another development set's file of the
    same columns), ambiguous ones left out."""
    with labels.open(encoding="utf-8", newline="") as fh:
        return [r for r in csv.DictReader(fh, delimiter="\t") if r["label"] != "ambiguous"]


def page_file(pages: Path, row: dict[str, str]) -> Path:
    """Where a collected copy of the row's page lies in a ``--pages`` folder."""
    return pages / f"{row['id']}.html"


def body(row: dict[str, str], pages: Path | None, fetch_dir: Path | None) -> bytes | None:
    """The page as collected (``pages``) or as its source repository holds it (``fetch_dir``),
    unwrapped where its source stores it inside another format (``UNWRAP``)."""
    if pages is not None:
        path = page_file(pages, row)
        return path.read_bytes() if path.is_file() else None
    checkout = heldout2.find_checkout(fetch_dir, row["source_repo"]) if fetch_dir else None
    raw = heldout.read_blob(checkout, row["commit"], row["path"]) if checkout else None
    if raw is not None and checkout is not None and row.get("includes"):
        raw = assemble(raw, row["includes"], lambda path: heldout.read_blob(
            checkout, row["commit"], path))
    unwrap = UNWRAP.get(row["source_repo"])
    return unwrap(raw) if raw is not None and unwrap is not None else raw


def assemble(view: bytes, includes: str, read: Callable[[str], bytes | None]) -> bytes:
    """A server-side view with its includes put in, as its server serves it: ``includes`` is
    ``needle>path|needle>path``, and each line of the view holding a needle (the include
    statement) is replaced by the file at that path of the same commit (development set 7:
    a notice view whose navigation and footer are included files)."""
    for spec in filter(None, includes.split("|")):
        needle, path = spec.split(">", 1)
        part = read(path)
        if part is not None:
            view = b"\n".join(part if needle.encode() in line else line
                               for line in view.split(b"\n"))
    return view


def page_arguments(description: str) -> argparse.Namespace | int:
    """A development set's command line (``--pages`` or ``--fetch-dir``, ``--quiet``,
    ``--json``), or the exit code when there is nothing to read: 0 with neither folder given
    (the pages are not kept in a checkout), 2 for a folder that is not there."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--pages", type=Path, help="a folder of the pages as collected (<id>.html)")
    ap.add_argument("--fetch-dir", type=Path, help="folder of checkouts (DIR/owner+name)")
    ap.add_argument("--quiet", action="store_true", help="no list of misses")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    if args.pages is None and args.fetch_dir is None:
        print("skipped: give --pages or --fetch-dir (the pages are not kept in this checkout)")
        return 0
    folder = args.pages if args.pages is not None else args.fetch_dir
    if not folder.is_dir():
        print(f"no such folder: {folder}", file=sys.stderr)
        return 2
    return args


def tally(labels: Path, args: argparse.Namespace, clean: set[str],
          widths: tuple[int, int, int] = (18, 18, 100)) -> tuple[Counter[str], list[str]]:
    """Each page of a sign-in, notice or bot-check development set judged: counts for all
    pages and per source (walls right and flagged, clean pages kept and called a wall, the
    decisions by kind), and a line per miss or false alarm (``widths``: of its id, its label,
    its rule)."""
    n: Counter[str] = Counter()
    misses: list[str] = []
    for r in rows(labels):
        page = body(r, args.pages, args.fetch_dir)
        if page is None:
            n["not read"] += 1
            continue
        label = "ok" if r["label"] in clean else r["label"]
        got, rule = heldout.judge(page)
        want = heldout2.WANT[label] if label != "ok" else "ok"
        for group in ("all", r["source_repo"]):
            if label == "ok":
                n[f"{group} clean"] += 1
                n[f"{group} clean kept"] += got == "ok"
                n[f"{group} clean called a wall"] += got.startswith(heldout2.FLAGS)
            else:
                n[f"{group} walls"] += 1
                n[f"{group} walls right"] += got == want
                n[f"{group} walls flagged"] += got != "ok"
        if label != "ok" and got != "ok":
            n[f"decided by {rule.split(':', 1)[0]}"] += 1
        if got != want:
            misses.append(f"  {r['id']:{widths[0]}} {r['label']:{widths[1]}} "
                          f"{r['language']:3} {got:17} {rule[:widths[2]]}")
    return n, misses


def sources(n: Counter[str]) -> list[str]:
    """The source repositories a tally counted, by name."""
    return sorted({k.rsplit(" ", 1)[0] for k in n if k.endswith(" walls")
                   or k.endswith(" clean")} - {"all"})


def print_groups(n: Counter[str], title: str, walls_word: str, width: int = 52) -> None:
    """A tally's figures, for all pages and per source (``walls_word`` names its walls)."""
    print(f"{title}: {n['all walls']} {walls_word}, {n['all clean']} hard negatives"
          + (f"; {n['not read']} not read" if n["not read"] else ""))
    for group in ["all", *sources(n)]:
        walls, clean = n[group + " walls"], n[group + " clean"]
        line = f"  {group:{width}}"
        if walls:
            line += (f" {walls_word} {n[group + ' walls right']}/{walls} right reason, "
                     f"{n[group + ' walls flagged']}/{walls} flagged;")
        if clean:
            line += (f" clean {n[group + ' clean kept']}/{clean} kept "
                     f"({n[group + ' clean called a wall']} called a wall)")
        print(line)


def finish(n: Counter[str], misses: list[str], args: argparse.Namespace) -> int:
    """A development set's report's end: the decisions by kind of evidence, every miss and
    false alarm (unless ``--quiet``), the figures to ``--json``; the exit code."""
    print("  decided by: " + ", ".join(f"{k[11:]} {v}" for k, v in sorted(n.items())
                                        if k.startswith("decided by ")))
    if misses and not args.quiet:
        print("misses and false alarms:")
        print("\n".join(misses))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(dict(n), indent=2) + "\n", encoding="utf-8")
    return 0


def run_set(doc: str, labels: Path, title: str, walls_word: str) -> int:
    """A development set's whole run, as devset5.py and the later sets make it: the
    arguments (``doc``'s first paragraph their description), the tally of ``labels``, the
    per-source report and its end; the exit code."""
    args = page_arguments(doc.split("\n\n")[0])
    if isinstance(args, int):
        return args
    n, misses = tally(labels, args, {"article", "hard_negative"})
    print_groups(n, title, walls_word)
    return finish(n, misses, args)


def main() -> int:
    args = page_arguments(__doc__.split("\n\n")[0])
    if isinstance(args, int):
        return args
    n: Counter[str] = Counter()
    misses: list[str] = []
    for r in rows():
        page = body(r, args.pages, args.fetch_dir)
        if page is None:
            n["not read"] += 1
            continue
        label = "ok" if r["label"] in CLEAN else r["label"]
        got, rule = heldout.judge(page)
        want = heldout2.WANT[label] if label != "ok" else "ok"
        if label == "ok":
            n["clean"] += 1
            n["clean kept"] += got == "ok"
            n["clean called a wall"] += got.startswith(heldout2.FLAGS)
        else:
            for key in ("walls", f"{label}"):
                n[f"{key} n"] += 1
                n[f"{key} right"] += got == want
                n[f"{key} flagged"] += got != "ok"
            if got != "ok":
                n[f"decided by {rule.split(':', 1)[0]}"] += 1
        if got != want:
            misses.append(f"  {r['id']:24} {r['label']:18} {r['language']:3} {got:18} {rule[:70]}")
    labels = sorted({k[:-2] for k in n if k.endswith(" n")} - {"walls"})
    print(f"development set 3: {n['walls n']} walls, shells, soft 404s and parked pages; "
          f"{n['clean']} clean pages" + (f"; {n['not read']} not read" if n["not read"] else ""))
    print(f"  walls {n['walls right']}/{n['walls n']} right reason, {n['walls flagged']}/"
          f"{n['walls n']} flagged; clean {n['clean kept']}/{n['clean']} kept "
          f"({n['clean called a wall']} called a wall, shell, soft 404 or parked)")
    print("  per label (right reason, flagged): " + ", ".join(
        f"{k} {n[k + ' right']}/{n[k + ' n']} ({n[k + ' flagged']})" for k in labels))
    return finish(n, misses, args)


if __name__ == "__main__":
    sys.exit(main())
