"""Benchmark: notices in place of a page, in a site's own template: a seventh *development* set.

54 real pages from 29 public repositories in 5 languages (bench/devset7_labels.tsv: where
each page came from, by repository, path and commit, with its label and language), gathered
for issue 21's ninth round because the sealed set's misses were "interstitials, outage and
error notices in new wording and an account-deactivated notice" that pass as retrieved:

- ``other_interstitial`` (35), ``challenge`` (1), ``soft_404`` (3): web applications' own
  views for a suspended, banned, blocked, deactivated, inactive or pending account, a
  suspended user's profile, an event no longer available, a region block, an unsupported
  browser, JavaScript turned off, maintenance in the site's template, "please wait, you are
  being redirected" pages that refresh themselves, a link shortener's and a blog engine's
  "you are leaving" interstitials, a placeholder; and the same sites' not-found views;
- ``hard_negative`` (15): the same sites' own short pages in the same template (about,
  contact, FAQ, home, account settings, a registration and an event's confirmation), a
  host's imprint, terms and privacy pages that speak of suspension, a status page. They must
  stay clean.

Many pages are server templates as their repositories keep them (placeholders unfilled). A
view whose header, navigation or footer is an included file is read with its includes put in
(the labels file's ``includes`` column: the include statement's line replaced by the file at
the same commit, devset3.assemble), as the server serves it. No source here is one of the
other development sets', bench/heldout.py's, bench/heldout2.py's or ../shared/RESERVED.md's.
Rules were written looking at this set, so its figures say what a change does to pages like
these, not how the verdict does on unseen ones. Every miss and false alarm is printed, with
per-source figures.

    .venv/bin/python bench/devset7.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset7.py --fetch-dir DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("devset7_labels.tsv")


if __name__ == "__main__":
    sys.exit(devset3.run_set(__doc__, LABELS, "development set 7", "notices"))
