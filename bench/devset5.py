"""Benchmark: notices standing in for a site and their hard negatives, a fifth *development* set.

126 real pages from 40 public repositories in 13 languages (bench/devset5_labels.tsv: where
each page came from, by repository, path and commit, with its label and language), gathered
for issue 21's seventh round because the sealed set's misses were interstitials, outage and
error notices in new wording and error templates no table names:

- ``other_interstitial`` (79), ``challenge`` (11: refusals and rate limits), ``soft_404``
  (4): maintenance, outage, closure and suspension notices and servers' error templates
  served in place of a page, bare or inside the site's own template (a university's
  breadcrumbs, GOV.UK's header and footer, a host's menu), with a paragraph of
  explanation, a date, a support address, a help table: hosting and error-page template
  sets (HttpErrorPages, a multilingual nginx set in seven languages, a Polish set of
  Cloudflare custom error pages, Chinese and Japanese sets without the status code
  shown), hosts' suspended-account pages, and sites' own maintenance pages;
- ``hard_negative`` (32): real pages that carry the same words or shapes beside their own
  content: maintenance firms' service pages (Wartung, onderhoud, manutenzione, bakim),
  guides' maintenance chapters, a maintenance checklist, short contact, thank-you and
  legal pages of the same sites, one-page sites, an outage postmortem. They must stay clean.

No source here is one of the other development sets', bench/heldout.py's,
bench/heldout2.py's or ../shared/RESERVED.md's. Rules were written looking at this set, so
its figures say what a change does to pages like these, not how the verdict does on unseen
ones. Every miss and false alarm is printed, with per-source figures.

    .venv/bin/python bench/devset5.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset5.py --fetch-dir DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("devset5_labels.tsv")


if __name__ == "__main__":
    sys.exit(devset3.run_set(__doc__, LABELS, "development set 5", "notices"))
