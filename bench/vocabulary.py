"""Writes src/readreceipt/reading/tables/vocabulary.py from maintained multilingual vocabularies.

The verdict's wording, where wording stays, is taken from translations other projects keep up,
not guessed per miss: the short UI terms of web frameworks' and web servers' own error and
sign-in pages, in the most used languages of the web.

- Laravel-Lang/lang (MIT): ``locales/<lang>/json.json``, Laravel's own strings translated into
  over a hundred locales: "Not Found", "Forbidden", "Service Unavailable", "Too Many Requests"
  (the titles of its error pages), "Server Error", "Page Expired", "Unauthorized" (the titles
  of its 500, 419 and 401 pages), "Log in", "Login";
- apache/httpd (Apache-2.0): ``docs/error/HTTP_FORBIDDEN.html.var``,
  ``HTTP_SERVICE_UNAVAILABLE.html.var``, ``HTTP_INTERNAL_SERVER_ERROR.html.var``,
  ``HTTP_BAD_GATEWAY.html.var`` and ``HTTP_UNAUTHORIZED.html.var``, the titles of Apache's
  multi-language error pages.

Each term is lower-cased and stripped of its closing punctuation; a term of fewer than three
characters (or one letter of a wide script) is left out, as is one that is a word of every page
("ok"). The output names the source, path, key and licence of every entry. Run it again when
the sources move:

    .venv/bin/python bench/vocabulary.py --laravel ../lang --httpd ../httpd > \\
        src/readreceipt/reading/tables/vocabulary.py
"""

from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

LARAVEL_COMMIT = "bd286f095bdfa2ec4607994af45f1a9f037de112"
HTTPD_COMMIT = "0cb680442ecaa6118cc610b5ecc6e824330bf61a"
#: The most used content languages of the web (W3Techs' survey), as Laravel-Lang names them.
LANGUAGES = ("en", "es", "de", "ja", "fr", "ru", "pt", "pt_BR", "it", "tr", "nl", "pl", "fa",
             "zh_CN", "zh_TW", "vi", "id", "cs", "ko", "uk", "ar", "hu", "el", "sv", "ro", "he",
             "th", "hi", "da", "fi", "sk", "nb", "bg")
#: concept -> Laravel's English key(s).
LARAVEL_KEYS = {
    "not_found": ("Not Found",),
    "forbidden": ("Forbidden",),
    "unavailable": ("Service Unavailable",),
    "too_many_requests": ("Too Many Requests",),
    "sign_in": ("Log in", "Login"),
    "server_error": ("Server Error",),
    "page_expired": ("Page Expired",),
    "unauthorized": ("Unauthorized",),
}
HTTPD_FILES = {"forbidden": "HTTP_FORBIDDEN", "unavailable": "HTTP_SERVICE_UNAVAILABLE",
               "server_error": "HTTP_INTERNAL_SERVER_ERROR", "bad_gateway": "HTTP_BAD_GATEWAY",
               "unauthorized": "HTTP_UNAUTHORIZED"}
#: Every concept, as the output's docstring names them.
CONCEPTS = ", ".join(dict.fromkeys([*LARAVEL_KEYS, *HTTPD_FILES]))


def show(git_dir: Path, commit: str, path: str) -> str | None:
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          capture_output=True, check=False)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def clean(term: str) -> str | None:
    term = " ".join(html.unescape(term).lower().split())
    term = term.strip(" .!?\u3002\uff1f\uff01\u00a1\u00bf:;")
    wide = any(ord(ch) > 0x2E80 for ch in term)
    if len(term) < (2 if wide else 3) or ":" in term:
        return None
    return term


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--laravel", type=Path, required=True, help="a checkout of Laravel-Lang/lang")
    ap.add_argument("--httpd", type=Path, required=True, help="a checkout of apache/httpd")
    args = ap.parse_args()
    rows: dict[tuple[str, str], tuple[str, str]] = {}  # (concept, term) -> (lang, source)
    for lang in LANGUAGES:
        text = show(args.laravel, LARAVEL_COMMIT, f"locales/{lang}/json.json")
        if text is None:
            continue
        table = json.loads(text)
        for concept, keys in LARAVEL_KEYS.items():
            for key in keys:
                term = clean(key if lang == "en" else table.get(key) or "")
                if term:
                    rows.setdefault((concept, term), (lang, f"Laravel-Lang/lang locales/{lang}"
                                                             f"/json.json {key!r}"))
    for concept, name in HTTPD_FILES.items():
        text = show(args.httpd, HTTPD_COMMIT, f"docs/error/{name}.html.var") or ""
        for m in re.finditer(r"Content-language: *(\S+).{0,400}?TITLE\" value=\"([^\"]{1,80})\"",
                             text, re.S):
            term = clean(m.group(2))
            if term:
                rows.setdefault((concept, term), (m.group(1), f"apache/httpd docs/error/"
                                                               f"{name}.html.var ({m.group(1)})"))
    print('"""Terms from maintained multilingual vocabularies, one entry a term, with its source '
          "and licence.\n\nWritten by bench/vocabulary.py (do not edit by hand; run it again). "
          "Sources:\nLaravel-Lang/lang at " + LARAVEL_COMMIT[:12] + " (MIT) and apache/httpd at "
          + HTTPD_COMMIT[:12] + " (Apache-2.0).\nConcepts: "
          + "\n".join(textwrap.wrap(CONCEPTS, 86))
          + '.\n"""'
          "\n\n# ruff: noqa: RUF001 - the terms are written in their own alphabets\n\n"
          "from __future__ import annotations\n\nfrom typing import NamedTuple\n\n"
          '__all__ = ["TERMS", "Term", "terms"]\n\n\nclass Term(NamedTuple):\n'
          "    concept: str\n    language: str\n    term: str\n    source: str\n"
          "    licence: str\n\n\nTERMS: tuple[Term, ...] = (")
    for (concept, term), (lang, source) in sorted(rows.items()):
        licence = "MIT" if source.startswith("Laravel") else "Apache-2.0"
        q = [json.dumps(v, ensure_ascii=False) for v in (concept, lang, term, source, licence)]
        print(f"    Term({q[0]}, {q[1]}, {q[2]},\n         {q[3]}, {q[4]}),")
    print(")\n\n\ndef terms(concept: str) -> tuple[str, ...]:\n"
          '    """The terms of one concept, longest first (so an alternation tries them so)."""\n'
          "    return tuple(sorted({t.term for t in TERMS if t.concept == concept},\n"
          "                        key=lambda t: (-len(t), t)))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
