"""Benchmark: sign-in pages and their hard negatives, a fourth *development* set of real pages.

168 real pages (166 judged) from twenty public repositories (bench/devset4_labels.tsv: where
each page came from, by repository, path and commit, with its label and language), gathered
for issue 21's sixth round because the sealed set's weakest kind is the sign-in page (the
development sets were already right on almost all theirs):

- ``login`` (116): sign-in pages as sites served them, in 20 languages, many with hundreds to
  thousands of letters around the form (a shop's menus, promotion terms, cookie dialogs,
  legal addresses, marketing text): Mozilla's Fathom login-form samples (1rneh's copy of
  mozilla/fathom-login-forms, ``lockwise-proof-of-concept/samples``), DuckDuckGo's autofill
  test forms (duckduckgo/duckduckgo-autofill ``test-forms``), and three captured Russian
  sign-in pages (DmytryGlazkov/ya_parser, a devset3 source); and, for the seventh round,
  three federated-only and identifier-first sign-in pages (EvanOman/goodreads-tools'
  Goodreads, joostlek/python-volkswagen's two sign-in steps); and, for the ninth round
  (rows ``b8_*``), 21 sign-in pages that site clients' and scrapers' tests captured, from 12
  more repositories: ten of a login-field detector's (ByVictorrr/LoginFieldDetector), three
  Japanese (bookmeter, two Net Print captures), and a Brazilian student system's, a
  Venezuelan passport office's, a bank's, a university portal's, a transit card's, Freenom's,
  VK's OAuth page and Zwift's Keycloak page;
- ``hard_negative`` (50; two more pages are ``ambiguous``, left out): real pages that carry a
  sign-in box, a sign-in dialog or dropdown a click opened, or a newsletter form beside their
  own content: articles and product pages of metascraper's fixtures (microlinkhq/metascraper),
  shop and portal home pages of the Fathom samples captured with the sign-in open, banks' and
  portals' home pages of the autofill test forms, and Russian shops' home pages captured by
  ya_parser, a Goodreads book page, and (ninth round) a torrent site's home and show pages
  with a log-in form in the header (jaysh/eztvit-python) and a parking app's page that ships
  every view, a log-in form among them (carlosonunez/lincoln-ne-parking-bot). They must stay
  clean.

No source here is one of bench/heldout.py's, bench/heldout2.py's or ../shared/RESERVED.md's.
Rules were written looking at this set, so its figures say what a change does to pages like
these, not how the verdict does on unseen ones. Every miss and false alarm is printed, with
per-source figures (to judge a rule by the sources it does not rest on).

    .venv/bin/python bench/devset4.py --pages DIR [--quiet] [--json FILE]
    .venv/bin/python bench/devset4.py --fetch-dir DIR

(``--fetch-dir`` reads every row from its repository's checkout, the ninth round's rows too;
a ``--pages`` folder collected before that round holds only the first 142.)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # a sibling script, not a package: its helpers are reused

LABELS = Path(__file__).with_name("devset4_labels.tsv")
CLEAN = {"article", "hard_negative"}


def main() -> int:
    args = devset3.page_arguments(__doc__.split("\n\n")[0])
    if isinstance(args, int):
        return args
    n, misses = devset3.tally(LABELS, args, CLEAN, widths=(44, 13, 90))
    print(f"development set 4: {n['all walls']} sign-in pages, {n['all clean']} hard negatives"
          + (f"; {n['not read']} not read" if n["not read"] else ""))
    for group in ["all", *devset3.sources(n)]:
        print(f"  {group:34} sign-in {n[group + ' walls right']}/{n[group + ' walls']} right "
              f"reason, {n[group + ' walls flagged']}/{n[group + ' walls']} flagged; clean "
              f"{n[group + ' clean kept']}/{n[group + ' clean']} kept "
              f"({n[group + ' clean called a wall']} called a wall)")
    return devset3.finish(n, misses, args)


if __name__ == "__main__":
    sys.exit(main())
