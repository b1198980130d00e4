"""Benchmark: walls no rule was written from (sign-in, notice, block, sale): development set 8.

52 real pages from 18 public repositories in 6 languages (bench/devset8_labels.tsv: where
each page came from, by repository, path and commit, with its label and language), gathered
for issue 21 after the ninth round's rules (sign-in pages, notices inside a site's template,
block templates of CDNs and WAFs, pages that send the reader on) left the sealed set's
figure where it was, to ask whether those rules hold on pages none of them was written from:

- ``login`` (9): sign-in pages with text around the form (headings, instructions, sign-up
  and forgot-password links, a site's navigation), in English, German, Spanish and Japanese,
  and a home router's captured log-in page;
- ``other_interstitial`` (15): maintenance pages bare and inside a site's layout, account
  notices (suspended, over the daily limit, not authorised), a region block, a "JavaScript
  required" notice, a generic error view;
- ``challenge`` (7): sites' own IP and request block pages and a "checking your browser"
  page with no CDN or WAF vendor's markup, a DNS firewall's block page, a 429 page;
- ``parked`` (4): a domain-for-sale lander project's templates;
- ``hard_negative`` (17): the same sites' ordinary pages (about, terms, contact, guides that
  speak of logging in, an admin table of blocked IPs, the for-sale project's own home page,
  a thank-you page that sends the reader on, a router's status page).

Most pages are server templates as their repositories keep them (placeholders unfilled);
two are captures kept as a site client's test fixtures. No source here is one of the other
development sets', bench/heldout.py's, bench/heldout2.py's or ../shared/RESERVED.md's, and
no rule had been written looking at this set when its first figures were taken (see
docs/design.md, "Issue 21, development set 8, first run"). Every miss and false alarm is
printed, with per-source figures.

    .venv/bin/python bench/devset8.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset8.py --fetch-dir DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("devset8_labels.tsv")


if __name__ == "__main__":
    sys.exit(devset3.run_set(__doc__, LABELS, "development set 8", "walls"))
