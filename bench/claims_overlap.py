"""Which pages of a development set are also in a blind set, found by hashing, never by reading.

A development set of the claim benchmark (bench/claims.py) must share no page with its blind
held-out sets (postlight/parser's fixtures, trafilatura's tests/eval, mozilla/readability's
test pages). Each page's extracted main text is folded (case, every non-letter-or-digit run
to one space) and hashed whole and by its shingles of 8 words (a CJK letter
counts as a word); a development page whose
whole text or a fifth of whose shingles a blind page also has is printed by its name (its
set and file), nothing of the blind pages is printed but their count. Exit 1 when any
development page overlaps.

    .venv/bin/python bench/claims_overlap.py --dev NAME=GITDIR:FOLDER ... \\
        --blind NAME=GITDIR:FOLDER ... [--blind-readability GITDIR]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys

from claims import _git_html, _readability, git_pages_arg

_FOLD = re.compile(r"[\W_]+")
_TOKEN = re.compile(r"[\u3040-\u9fff\uac00-\ud7a3]|[^\s\u3040-\u9fff\uac00-\ud7a3]+")
SHINGLE = 8
SHARED_SHARE = 0.2


def _folded(body: bytes) -> str:
    from readreceipt.reading.extract import extract

    return _FOLD.sub(" ", extract(body, "text/html", None).main_text.casefold()).strip()


def _shingles(text: str) -> set[int]:
    # every start on both sides: a copy shifted by a word still shares its shingles
    words = _TOKEN.findall(text)
    return {int.from_bytes(hashlib.blake2b(" ".join(words[i:i + SHINGLE]).encode(),
                                           digest_size=8).digest(), "big")
            for i in range(max(1, len(words) - SHINGLE + 1))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dev", type=git_pages_arg, action="append", default=[])
    parser.add_argument("--blind", type=git_pages_arg, action="append", default=[])
    parser.add_argument("--blind-readability", action="append", default=[])
    args = parser.parse_args()
    whole: set[str] = set()
    pieces: set[int] = set()
    blind = 0
    bodies = [body for _, git_dir, folder in args.blind for _, body in _git_html(git_dir, folder)]
    from pathlib import Path

    for where in args.blind_readability:
        bodies += [body for _, body in _readability(Path(where))]
    for body in bodies:
        text = _folded(body)
        if len(text) < 200:
            continue
        blind += 1
        whole.add(hashlib.sha256(text.encode()).hexdigest())
        pieces |= _shingles(text)
    dev = overlapping = 0
    for name, git_dir, folder in args.dev:
        for file, body in _git_html(git_dir, folder):
            text = _folded(body)
            if len(text) < 200:
                continue
            dev += 1
            mine = _shingles(text)
            share = len(mine & pieces) / len(mine)
            if hashlib.sha256(text.encode()).hexdigest() in whole or share >= SHARED_SHARE:
                overlapping += 1
                print(f"overlaps a blind page: {name} {file} ({100 * share:.0f} % of its "
                      "shingles)")
    print(f"{dev} development pages against {blind} blind pages: {overlapping} overlap")
    return 1 if overlapping else 0


if __name__ == "__main__":
    sys.exit(main())
