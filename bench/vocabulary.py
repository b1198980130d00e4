"""Writes src/readreceipt/reading/tables/vocabulary.py from maintained multilingual vocabularies.

The verdict's wording, where wording stays, is taken from translations other projects keep up,
not guessed per miss: the short UI terms of web frameworks', CMSs' and web servers' own error,
maintenance and sign-in pages, in the most used languages of the web. The readers, one a
source, are in vocabulary_sources.py:

- Laravel-Lang/lang (MIT, git checkout): ``locales/<lang>/json.json``, Laravel's strings: the
  titles of its error pages ("Not Found", "Forbidden", "Service Unavailable", "Too Many
  Requests", "Server Error", "Page Expired", "Unauthorized") and "Log in", "Login";
- apache/httpd (Apache-2.0, git checkout): the titles of ``docs/error/HTTP_*.html.var``;
- apache/httpd's pages' first sentences: 503's "The server is temporarily unable to service
  your request due to maintenance downtime or capacity problems", 404's "The requested URL was
  not found on this server", 403's "You don't have permission to access the requested object";
- keycloakify (MIT, the npm tarball; Keycloak's login theme's messages, Apache-2.0): "Sign in
  to your account", "Page not found", "Account is disabled, contact your administrator.";
- Django (BSD-3-Clause, the PyPI wheel): its admin's "Log in", "Page not found", its 404
  sentence, "Server error (500)"; its CSRF page's "Forbidden"; auth's "This account is inactive.";
- django-allauth (MIT, the PyPI wheel): "Account Inactive", "This account is inactive.",
  "Sign In";
- WordPress core (GPL-2.0-or-later, Debian's wordpress-l10n): "Log In", "Page not found",
  its maintenance notice, multisite's "This site has been archived or suspended.", "Error
  establishing a database connection";
- MediaWiki (GPL-2.0-or-later, Debian's mediawiki): ``languages/i18n/<lang>.json`` keys
  ``login``, ``loginreqtitle``, ``noarticletext``, ``blockedtitle``;
- Squid's error pages (GPL-2.0-or-later, Debian's squid-langpack): ERR_ACCESS_DENIED's
  heading and reason, in some forty languages.

The output names the source (project, version, file, key) and licence of every entry. Run it
again when the sources move (the Debian packages by ``apt-get download`` then ``dpkg-deb -x``,
the wheels by ``pip download --no-deps``):

    .venv/bin/python bench/vocabulary.py --laravel ../lang --httpd ../httpd \\
        --httpd_bodies ../httpd --keycloakify keycloakify-11.16.0.tgz \\
        --django django-5.2.19-py3-none-any.whl --allauth django_allauth-65.22.1-py3-none-any.whl \\
        --wordpress wordpress-l10n/ --mediawiki mediawiki/ --squid squid-langpack/ \\
        > src/readreceipt/reading/tables/vocabulary.py
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import vocabulary_sources as vs

#: option -> (reader, what it reads), in the order the sources are read (a term two sources
#: share keeps the first one's source).
READERS: dict[str, tuple[Callable[[Path], Iterator[vs.Row]], str]] = {
    "laravel": (vs.laravel, "a checkout of Laravel-Lang/lang"),
    "httpd": (vs.httpd, "a checkout of apache/httpd"),
    "httpd_bodies": (vs.httpd_bodies, "the same checkout (its pages' sentences)"),
    "keycloakify": (vs.keycloakify, "keycloakify's npm tarball"),
    "django": (vs.django, "Django's wheel"),
    "allauth": (vs.allauth, "django-allauth's wheel"),
    "wordpress": (vs.wordpress, "wordpress-l10n's .deb extracted"),
    "mediawiki": (vs.mediawiki, "mediawiki's .deb extracted"),
    "squid": (vs.squid, "squid-langpack's .deb extracted"),
}


def collect(rows: Iterable[vs.Row]) -> list[vs.Row]:
    """One row a (concept, term), the first source's; sorted by concept, then term."""
    kept: dict[tuple[str, str], vs.Row] = {}
    for row in rows:
        kept.setdefault((row.concept, row.term), row)
    return [kept[k] for k in sorted(kept)]


def render(rows: list[vs.Row]) -> str:
    concepts = ", ".join(sorted({r.concept for r in rows}))
    projects = sorted({f"{r.source.split(' ')[0].split('@')[0]} ({r.licence})" for r in rows})
    out = ['"""Terms from maintained multilingual vocabularies, one entry a term, with its source '
           "and licence.\n\nWritten by bench/vocabulary.py (do not edit by hand; run it again). "
           "Sources:\n" + "\n".join(textwrap.wrap(", ".join(projects) + ".", 94))
           + "\nConcepts: " + "\n".join(textwrap.wrap(concepts, 86)) + '.\n"""',
           "\n# ruff: noqa: RUF001, E501 - the terms are written in their own alphabets; a "
           "source is one line\n",
           "from __future__ import annotations\n\nfrom typing import NamedTuple\n",
           '__all__ = ["TERMS", "Term", "terms"]\n\n',
           "class Term(NamedTuple):\n    concept: str\n    language: str\n    term: str\n"
           "    source: str\n    licence: str\n\n",
           "TERMS: tuple[Term, ...] = ("]
    for r in rows:
        q = [json.dumps(v, ensure_ascii=False) for v in r]
        out.append(f"    Term({q[0]}, {q[1]}, {q[2]},\n         {q[3]}, {q[4]}),")
    out.append(")\n\n\ndef terms(concept: str) -> tuple[str, ...]:\n"
               '    """The terms of one concept, longest first (so an alternation tries them '
               'so)."""\n'
               "    return tuple(sorted({t.term for t in TERMS if t.concept == concept},\n"
               "                        key=lambda t: (-len(t), t)))")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, (_reader, what) in READERS.items():
        ap.add_argument(f"--{name}", type=Path, required=True, help=what)
    args = ap.parse_args()
    rows = collect(row for name, (reader, _what) in READERS.items()
                   for row in reader(getattr(args, name)))
    sys.stdout.write(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
