"""Benchmark: bot checks no vendor table knew and their hard negatives, a sixth *development* set.

55 real pages from 17 public repositories (bench/devset6_labels.tsv: where each page came
from, by repository, path and commit, with its label and language), gathered for issue 21's
eighth round because the sealed set names "bot checks that carry no vendor marker the tables
know" as a miss kind:

- ``challenge`` (36): self-hosted anti-bot gates' challenge pages and templates
  (BunkerWeb's antibot pages across three branches: image captcha, hCaptcha, reCAPTCHA,
  Turnstile, mCaptcha, ALTCHA, Cap and its JavaScript proof of work; go-away's challenge
  templates; CrowdSec's captcha and ban pages from two bouncers; Cap's checkpoint gate;
  aasaam's nginx-protection captcha; the IronFox fork of the nginx testcookie module's
  set-cookie templates and refusal; pow-shield-php's proof-of-work page) and scraper
  projects' saved challenge pages (Russian, Polish and English fixtures: captcha, block
  and robot-check pages);
- ``hard_negative`` (19): pages that load a captcha or proof-of-work widget for a form
  (Cap's and two pow-captcha libraries' demos, one in Chinese), documentation of a
  captcha or cookie challenge (BunkerWeb's security-tuning page, the testcookie module's
  project page), a sign-up template with a captcha, and the same scraper projects'
  ordinary fixtures (articles, product and listing pages). They must stay clean.

Many challenge pages are templates as their repositories keep them (placeholders unfilled):
a gate's fixed markup and script are what every site it fronts serves. No source here is
one of the other development sets', bench/heldout.py's, bench/heldout2.py's or
../shared/RESERVED.md's. Rules were written looking at this set, so its figures say what a
change does to pages like these, not how the verdict does on unseen ones. Every miss and
false alarm is printed, with per-source figures.

    .venv/bin/python bench/devset6.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset6.py --fetch-dir DIR
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # sibling scripts, not a package: their helpers are reused
import heldout
import heldout2

LABELS = Path(__file__).with_name("devset6_labels.tsv")
CLEAN = {"article", "hard_negative"}


def main() -> int:
    args = devset3.page_arguments(__doc__.split("\n\n")[0])
    if isinstance(args, int):
        return args
    n: Counter[str] = Counter()
    misses: list[str] = []
    for r in devset3.rows(LABELS):
        page = devset3.body(r, args.pages, args.fetch_dir)
        if page is None:
            n["not read"] += 1
            continue
        label = "ok" if r["label"] in CLEAN else r["label"]
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
            misses.append(f"  {r['id']:18} {r['label']:18} {r['language']:3} {got:17} "
                          f"{rule[:100]}")
    sources = sorted({k.rsplit(" ", 1)[0] for k in n if k.endswith(" walls")
                      or k.endswith(" clean")} - {"all"})
    print(f"development set 6: {n['all walls']} challenges, {n['all clean']} hard negatives"
          + (f"; {n['not read']} not read" if n["not read"] else ""))
    for group in ["all", *sources]:
        walls, clean = n[group + " walls"], n[group + " clean"]
        line = f"  {group:52}"
        if walls:
            line += (f" challenges {n[group + ' walls right']}/{walls} right reason, "
                     f"{n[group + ' walls flagged']}/{walls} flagged;")
        if clean:
            line += (f" clean {n[group + ' clean kept']}/{clean} kept "
                     f"({n[group + ' clean called a wall']} called a wall)")
        print(line)
    return devset3.finish(n, misses, args)


if __name__ == "__main__":
    sys.exit(main())
