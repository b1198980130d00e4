"""Benchmark: the content verdict on a second held-out set, blind.

``bench/heldout2_labels.tsv`` (the first batch) and ``bench/heldout2_added_labels.tsv`` (the
second, added to fill the first's gaps: bot checks and WAF blocks of more vendors, sign-in
pages in many languages, ISP and legal block pages, parked domains, clean pages in more
languages) name real pages that other public projects keep in their git history (test
fixtures of scrapers, site monitors and home-automation integrations, cached HTTP responses of
an embed library and of a CDN cache, a form-classification dataset of saved pages, a collection
of censorship block pages, static exports of sites, GitHub Pages sites' not-found and
maintenance pages, built single-page-app entry points), one a line: ``source_repo``, ``path``,
``commit``, ``label``, ``language`` and a short ``note`` on the kind of page. ``--part``
judges one batch alone (``first``, ``added``) or both (``all``, the default). None of these
repositories was used by any corpus, test or other benchmark of the project, nor is any in
../shared/RESERVED.md or a fork or copy of one.
Nothing of the pages is copied here: each is read from a checkout of its repository by commit
(``git show COMMIT:PATH``), like ``bench/heldout.py`` does, and judged by the same content
verdict (``extract`` + ``judge_content``, via :func:`heldout.judge`).

Labels: ``challenge``, ``login``, ``consent``, ``paywall``, ``other_interstitial`` (outage,
maintenance, error and unsupported-browser notices, ISP and legal block pages, geo-blocks,
age gates), ``js_shell``, ``soft_404``, ``parked`` (walls,
shells, soft 404s and parked pages: each must be flagged, with the reason named in ``WANT``),
``ok`` (a real page, hard negatives among them: must stay clean) and ``ambiguous`` (left out of
every figure). Printed: walls caught with the right reason and flagged at all, clean pages kept
clean, per label, per language group and per source repository (languages in groups, sources
with fewer than five judged pages pooled, so that no line stands for one page). By default
nothing but counts is printed, never a page's text or which page missed, so that running it
does not show a rule writer the pages; ``--verbose`` adds one line per page (its id, label,
reason and rule).

Rules are never to be written while looking at these pages: the set is measured blind, once
per change of the rules, and reported as counts.

Checkouts. ``--fetch-dir DIR`` names a folder holding one git directory per source repository,
as ``DIR/<owner>+<name>`` (bare, or a work tree, or with the git directory at ``repo`` or
``repo/.git`` inside it, the layout the search tool's ``fetch`` leaves under /work/.mirror).
``--list-repos`` prints the repositories and commits needed. To fill such a folder from GitHub::

    .venv/bin/python bench/heldout2.py --list-repos | while read repo commit; do
        git clone --bare "https://github.com/$repo" "checkouts/${repo/\\//+}"; done
    .venv/bin/python bench/heldout2.py --fetch-dir checkouts [--part first|added|all] \\
        [--json bench/out/heldout2.json]

It skips (saying so, exit 0) when no checkout is found; a page whose checkout or commit is
missing is counted apart and named by repository only.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import heldout  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("heldout2_labels.tsv")
ADDED = Path(__file__).with_name("heldout2_added_labels.tsv")
PARTS = {"first": (LABELS,), "added": (ADDED,), "all": (LABELS, ADDED)}
#: label -> the reason the verdict should give (bench/heldout.py's, and the kinds it lacks).
WANT = heldout.WANT | {"consent": "wall:consent", "paywall": "wall:paywall",
                       "parked": "parked"}
FLAGS = heldout.FLAGS
OTHER = "other (ar, el, fa, hu, id, ms, tr)"
#: Languages are reported in groups, and sources with fewer than ``MIN_GROUP`` judged pages
#: pooled, so that no printed line stands for one page of the labels file.
LANGUAGE_GROUPS = {
    "English": ("en",),
    "Romance": ("es", "pt", "fr", "it", "gl", "ro", "ca"),
    "Germanic": ("de", "nl", "sv", "da", "no"),
    "Slavic and Baltic": ("ru", "pl", "cs", "sk", "hr", "sr", "uk", "lv", "lt", "bg"),
    "Chinese, Japanese, Korean": ("zh", "ja", "ko"),
    OTHER: ("ar", "el", "fa", "hu", "id", "ms", "tr"),
}
MIN_GROUP = 5


def language_group(code: str) -> str:
    for group, codes in LANGUAGE_GROUPS.items():
        if code in codes:
            return group
    return OTHER


def php_cache_body(raw: bytes) -> bytes:
    """The response body inside one of oscarotero/Embed's cached-response PHP files.

    Each file returns a PHP array whose ``'body'`` entry is a single-quoted string, in which
    only ``\\\\`` and ``\\'`` are escapes.
    """
    text = raw.decode("utf-8", "replace")
    found = re.search(r"'body' => '((?:[^'\\]|\\.)*)'", text, re.S)
    if found is None:
        return b""
    return re.sub(r"\\([\\'])", r"\1", found.group(1)).encode("utf-8")


def js_template_body(raw: bytes) -> bytes:
    """The page inside a JavaScript module that exports it as one template literal.

    The page is what lies between the first and the last backquote; only ``\\```, ``\\$``
    and ``\\\\`` are taken as escapes (the pages hold no ``${}`` substitution).
    """
    text = raw.decode("utf-8", "replace")
    start, end = text.find("`"), text.rfind("`")
    if start < 0 or end <= start:
        return b""
    return re.sub(r"\\([`$\\])", r"\1", text[start + 1:end]).encode("utf-8")


#: Sources whose files wrap the page: how to take the page out.
UNWRAP: dict[str, Callable[[bytes], bytes]] = {"oscarotero/Embed": php_cache_body,
                                               "lukatarman/steam-game-stats": js_template_body}


@dataclass(frozen=True)
class Row:
    repo: str
    path: str
    commit: str
    label: str
    language: str

    @property
    def page_id(self) -> str:
        return f"{self.repo}:{self.commit[:10]}:{self.path}"


def load_rows(*paths: Path) -> list[Row]:
    rows: list[Row] = []
    for path in paths or PARTS["all"]:
        with path.open(encoding="utf-8") as fh:
            rows += [Row(r["source_repo"], r["path"], r["commit"], r["label"], r["language"])
                     for r in csv.DictReader(fh, delimiter="\t")]
    return rows


def find_checkout(base: Path, repo: str) -> Path | None:
    root = base / repo.replace("/", "+")
    for candidate in (root / "repo" / ".git", root / "repo", root / ".git", root):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


class Tally:
    """Counts for one group of pages (a label, a language, a source, or all)."""

    def __init__(self) -> None:
        self.n: Counter[str] = Counter()

    def add(self, label: str, got: str) -> None:
        if label == "ok":
            self.n["clean"] += 1
            self.n["clean kept"] += got == "ok"
            self.n["clean flagged"] += got.startswith(FLAGS)
        else:
            self.n["walls"] += 1
            self.n["right"] += got == WANT[label]
            self.n["flagged"] += got != "ok"

    def line(self, min_n: int = 1) -> str:
        """The group's figures; a part of fewer than ``min_n`` pages is only said to be small."""
        parts = []
        if 0 < self.n["walls"] < min_n:
            parts.append(f"walls: fewer than {min_n}")
        elif self.n["walls"]:
            parts.append(f"walls {self.n['right']}/{self.n['walls']} right reason, "
                         f"{self.n['flagged']}/{self.n['walls']} flagged")
        if 0 < self.n["clean"] < min_n:
            parts.append(f"clean: fewer than {min_n}")
        elif self.n["clean"]:
            parts.append(f"clean {self.n['clean kept']}/{self.n['clean']} kept "
                         f"({self.n['clean flagged']} called a wall, shell, soft 404 or parked)")
        return "; ".join(parts)

    def as_dict(self) -> dict[str, int]:
        return dict(self.n)


def pool_sources(groups: dict[tuple[str, str], Tally]) -> None:
    """Fold the sources with fewer than ``MIN_GROUP`` judged pages into one line."""
    small = [k for g, k in groups
             if g == "source" and sum(groups[g, k].n[c] for c in ("walls", "clean")) < MIN_GROUP]
    pooled = Tally()
    for k in small:
        pooled.n.update(groups.pop(("source", k)).n)
    if small:
        groups["source", f"{len(small)} sources of < {MIN_GROUP} pages each"] = pooled


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fetch-dir", type=Path,
                    help="folder of checkouts, one per source repository (DIR/owner+name)")
    ap.add_argument("--list-repos", action="store_true",
                    help="print the source repositories and commits needed, then stop")
    ap.add_argument("--part", choices=sorted(PARTS), default="all",
                    help="judge the first batch, the added batch, or both (default)")
    ap.add_argument("--labels", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--verbose", action="store_true",
                    help="one line per page: id, label, reason, rule (never its text)")
    args = ap.parse_args()
    rows = load_rows(args.labels) if args.labels else load_rows(*PARTS[args.part])
    if args.list_repos:
        commits: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            commits[r.repo].add(r.commit)
        for repo in sorted(commits):
            print(repo, " ".join(sorted(commits[repo])))
        return 0
    checkouts = {repo: find_checkout(args.fetch_dir, repo) if args.fetch_dir else None
                 for repo in {r.repo for r in rows}}
    if not any(checkouts.values()):
        print("skipped: no checkout of the held-out sources (give --fetch-dir; "
              "--list-repos names them)")
        return 0
    groups: dict[tuple[str, str], Tally] = defaultdict(Tally)
    unread: Counter[str] = Counter()
    judged = 0
    for r in rows:
        if r.label == "ambiguous":
            continue
        checkout = checkouts[r.repo]
        body = heldout.read_blob(checkout, r.commit, r.path) if checkout else None
        if body is None:
            unread[r.repo] += 1
            continue
        if r.repo in UNWRAP:
            body = UNWRAP[r.repo](body)
        got, rule = heldout.judge(body)
        judged += 1
        for key in (("all", ""), ("label", r.label),
                    ("language group", language_group(r.language)), ("source", r.repo)):
            groups[key].add(r.label, got)
        if args.verbose:
            print(f"  {r.label:18} {got:18} {rule:28} {r.page_id}")
    if unread:
        print(f"not read ({sum(unread.values())} pages; checkout or commit missing): "
              + ", ".join(f"{repo} {n}" for repo, n in sorted(unread.items())))
    print(f"held-out set 2 ({args.part}): {judged} pages judged from "
          f"{len({k for kind, k in groups if kind == 'source'})} sources")
    print(f"all: {groups['all', ''].line()}")
    figures: dict[str, object] = {"all": groups["all", ""].as_dict()}
    pool_sources(groups)
    for kind in ("label", "language group", "source"):
        print(f"per {kind}:")
        keys = sorted(k for g, k in groups if g == kind)
        # Labels are named in full (the issue reports each kind); the other groups say only
        # "fewer than MIN_GROUP" of a part so small that it would point at its pages.
        min_n = 1 if kind == "label" else MIN_GROUP
        for k in keys:
            print(f"  {k:34} {groups[kind, k].line(min_n)}")
        if kind == "label":
            figures[kind] = {k: groups[kind, k].as_dict() for k in keys}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
