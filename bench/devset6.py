"""Benchmark: bot checks no vendor table knew and their hard negatives, a sixth *development* set.

82 real pages from 24 public repositories (bench/devset6_labels.tsv: where each page came
from, by repository, path and commit, with its label and language), gathered for issue 21's
eighth round because the sealed set names "bot checks that carry no vendor marker the tables
know" as a miss kind, and grown in its ninth with CDN and firewall block templates (the
sealed set's "a CDN's error template in several languages"):

- ``challenge`` (57): self-hosted anti-bot gates' challenge pages and templates
  (BunkerWeb's antibot pages across three branches: image captcha, hCaptcha, reCAPTCHA,
  Turnstile, mCaptcha, ALTCHA, Cap and its JavaScript proof of work; go-away's challenge
  templates; CrowdSec's captcha and ban pages from two bouncers; Cap's checkpoint gate;
  aasaam's nginx-protection captcha; the IronFox fork of the nginx testcookie module's
  set-cookie templates and refusal; pow-shield-php's proof-of-work page) and scraper
  projects' saved challenge pages (Russian, Polish and English fixtures: captcha, block
  and robot-check pages); and, since the ninth round, Cloudflare custom-page templates in
  Chinese and English from three projects (block, rate-limit, captcha and "under attack"
  pages, some with only the client-IP and Ray-ID placeholders), a CDN-style block page with
  an English/Chinese switch, a self-hosted security gateway's block pages, Wordfence's old
  block page and Datadog's in-app firewall block template (a copy from the code index: its
  repository is too large to fetch here);
- ``hard_negative`` (25): pages that load a captcha or proof-of-work widget for a form
  (Cap's and two pow-captcha libraries' demos, one in Chinese), documentation of a
  captcha or cookie challenge (BunkerWeb's security-tuning page, the testcookie module's
  project page), a sign-up template with a captcha, the same scraper projects' ordinary
  fixtures (articles, product and listing pages), the Cloudflare template projects' demo
  home pages, and a security plugin's own admin screens and report (Wordfence: blocked IP
  addresses, WHOIS, country blocking, an activity report of blocked attacks with addresses
  and times). They must stay clean.

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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("devset6_labels.tsv")


if __name__ == "__main__":
    sys.exit(devset3.run_set(__doc__, LABELS, "development set 6", "challenges"))
