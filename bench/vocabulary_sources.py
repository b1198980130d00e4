"""The readers of bench/vocabulary.py: one function a maintained vocabulary, each yielding
``Row(concept, language, term, source, licence)`` for the keys it is asked for.

Every row's ``source`` names the project, its version (a commit or a package version), the
file and the key the term was read from, so that anyone can look it up. Terms are lower-cased
and stripped of closing punctuation (``clean``); a *sentence* key gives its first sentence
(WordPress's maintenance notice, MediaWiki's empty-page notice), and a term still holding
markup or a placeholder (``$1``, ``%s``, ``{{``), or a "sentence" of fewer than three words,
is left out: it is not what a page shows.

Only the most used content languages of the web are read (``TOP``, W3Techs' survey), as
language codes without their region, except where the region is a written standard of its own
(Brazilian Portuguese, Simplified and Traditional Chinese).
"""

from __future__ import annotations

import gettext
import html
import io
import json
import re
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

#: The most used content languages of the web (W3Techs' survey), by ISO 639-1 code.
TOP = frozenset({"en", "es", "de", "ja", "fr", "ru", "pt", "it", "tr", "nl", "pl", "fa", "zh",
                 "vi", "id", "cs", "ko", "uk", "ar", "hu", "el", "sv", "ro", "he", "th", "hi",
                 "da", "fi", "sk", "nb", "no", "bg"})
_KEEP_REGION = {"pt-br": "pt-br", "zh-cn": "zh-cn", "zh-tw": "zh-tw", "zh-hk": "zh-tw",
                "zh-hans": "zh-cn", "zh-hant": "zh-tw"}


#: The end of a first sentence: a stop and a capital (or a letter of a caseless script) after
#: it, a wide stop, or a line break; not an abbreviation's point ("pga. planlagt").
_SENTENCE_END = re.compile("(?<=[.!?])\\s+(?=[A-Z\u00c0-\u00de\u0391-\u03a9\u0400-\u042f"
                           "\u05d0-\u05ea\u0600-\u06ff])|(?<=[\u3002\uff01\uff1f])|\n")


#: Terms left out of a concept, with why: a word that is, in the same or another language,
#: the everyday name of something else a page may be about (a title segment "Registrar" is a
#: university's office, "Enregistrement" a recording, "Daftar" an Indonesian list).
EXCLUDE = {
    ("sign_up", "registrar"): "English: a registry office (universities', domain registrars')",
    ("sign_up", "enregistrement"): "French: a recording",
    ("sign_up", "daftar"): "Indonesian: a list ('Daftar Isi', contents)",
}


class Row(NamedTuple):
    concept: str
    language: str
    term: str
    source: str
    licence: str


def language(code: str) -> str | None:
    """A locale code as the table names it ("de_DE" -> "de", "pt_BR" -> "pt-br"), or None
    for a language outside ``TOP``."""
    code = code.lower().replace("_", "-")
    if code in _KEEP_REGION:
        return _KEEP_REGION[code]
    base = code.split("-")[0]
    if base == "he" or code == "iw":
        return "he"
    return base if base in TOP else None


def clean(term: str, *, sentence: bool = False) -> str | None:
    term = html.unescape(term).replace("\u2019", "'").replace("&rsquo;", "'")
    if sentence:
        term = _SENTENCE_END.split(term.strip(), maxsplit=1)[0]
    if re.search(r"<|\$\d|%\w|%\(|\{\{|\[\[", term):
        return None
    term = " ".join(term.lower().split())
    term = term.strip(" .!?\u3002\uff1f\uff01\u00a1\u00bf:;\u061f\u0964")
    wide = any(ord(ch) > 0x2E80 for ch in term)
    if len(term) < (2 if wide else 3) or ":" in term:
        return None
    # (Thai, like the wide scripts, writes a sentence without spaces between its words.)
    unspaced = wide or any("\u0e00" <= ch <= "\u0e7f" for ch in term)
    if sentence and (len(term) < 5 if unspaced else len(term.split()) < 3):
        return None  # a fragment ("o método" before a placeholder), not the sentence
    return term


def _git_show(git_dir: Path, commit: str, path: str) -> str | None:
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          capture_output=True, check=False)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def _rows(concept: str, lang: str | None, raw: str | None, source: str, licence: str, *,
          sentence: bool = False) -> Iterator[Row]:
    if lang is None or not raw:
        return
    term = clean(raw, sentence=sentence)
    if term and (concept, term) not in EXCLUDE:
        yield Row(concept, lang, term, source, licence)


# --- Laravel-Lang/lang (MIT), a git checkout ----------------------------------------------

LARAVEL_COMMIT = "bd286f095bdfa2ec4607994af45f1a9f037de112"
#: concept -> Laravel's English keys (the titles of its error pages; its sign-in strings).
LARAVEL_KEYS = {
    "not_found": ("Not Found",), "forbidden": ("Forbidden",),
    "unavailable": ("Service Unavailable",), "too_many_requests": ("Too Many Requests",),
    "sign_in": ("Log in", "Login"), "sign_up": ("Register",), "server_error": ("Server Error",),
    "page_expired": ("Page Expired",), "unauthorized": ("Unauthorized",),
}
_LARAVEL_LOCALES = ("en", "es", "de", "ja", "fr", "ru", "pt", "pt_BR", "it", "tr", "nl", "pl",
                    "fa", "zh_CN", "zh_TW", "vi", "id", "cs", "ko", "uk", "ar", "hu", "el", "sv",
                    "ro", "he", "th", "hi", "da", "fi", "sk", "nb", "bg")


def laravel(checkout: Path) -> Iterator[Row]:
    for locale in _LARAVEL_LOCALES:
        text = _git_show(checkout, LARAVEL_COMMIT, f"locales/{locale}/json.json")
        if text is None:
            continue
        table = json.loads(text)
        lang = locale.lower().replace("_", "-")
        for concept, keys in LARAVEL_KEYS.items():
            for key in keys:
                raw = key if locale == "en" else table.get(key)
                yield from _rows(concept, lang, raw, f"Laravel-Lang/lang@{LARAVEL_COMMIT[:12]} "
                                 f"locales/{locale}/json.json {key!r}", "MIT")


# --- apache/httpd (Apache-2.0), a git checkout --------------------------------------------

HTTPD_COMMIT = "0cb680442ecaa6118cc610b5ecc6e824330bf61a"
HTTPD_FILES = {"forbidden": "HTTP_FORBIDDEN", "unavailable": "HTTP_SERVICE_UNAVAILABLE",
               "server_error": "HTTP_INTERNAL_SERVER_ERROR", "bad_gateway": "HTTP_BAD_GATEWAY",
               "unauthorized": "HTTP_UNAUTHORIZED"}


def httpd(checkout: Path) -> Iterator[Row]:
    for concept, name in HTTPD_FILES.items():
        text = _git_show(checkout, HTTPD_COMMIT, f"docs/error/{name}.html.var") or ""
        for m in re.finditer(r"Content-language: *(\S+).{0,400}?TITLE\" value=\"([^\"]{1,80})\"",
                             text, re.S):
            yield from _rows(concept, m.group(1), m.group(2),
                             f"apache/httpd@{HTTPD_COMMIT[:12]} docs/error/{name}.html.var "
                             f"({m.group(1)}) TITLE", "Apache-2.0")


#: concept -> (the error page whose *body* is read, whether every branch of its SSI
#: conditional is: 403's two say the same of a directory and of a file; 404's second is
#: advice about typing, not the notice).
HTTPD_BODIES = {"unavailable_text": ("HTTP_SERVICE_UNAVAILABLE", False),
                "not_found_text": ("HTTP_NOT_FOUND", False),
                "forbidden_text": ("HTTP_FORBIDDEN", True)}
_HTTPD_BODY = re.compile(r"Content-language: *(\S+).{0,400}?include/top\.html\" -->"
                         r"(.{0,3000}?)<!--#include virtual=\"include/bottom", re.S)
_SSI = re.compile(r"<!--#.{0,200}?-->", re.S)


def httpd_bodies(checkout: Path) -> Iterator[Row]:
    """The first sentence of each branch of a page's body (its SSI conditionals split it)."""
    for concept, (name, every) in HTTPD_BODIES.items():
        text = _git_show(checkout, HTTPD_COMMIT, f"docs/error/{name}.html.var") or ""
        for m in _HTTPD_BODY.finditer(text):
            parts = [p for p in _SSI.split(m.group(2)) if p.strip()]
            for part in parts if every else parts[:1]:
                yield from _rows(concept, language(m.group(1)), " ".join(part.split()),
                                 f"apache/httpd@{HTTPD_COMMIT[:12]} docs/error/{name}.html.var "
                                 f"({m.group(1)}) body", "Apache-2.0", sentence=True)


# --- keycloakify (MIT; Keycloak's own login-theme messages, Apache-2.0), the npm package --

KEYCLOAKIFY_VERSION = "11.16.0"
_KC_DIR = "package/login/i18n/messages_defaultSet"
#: concept -> (Keycloak's message key, a sentence?)
KEYCLOAK_KEYS = (
    ("sign_in_heading", "loginAccountTitle", False),
    ("sign_up", "doRegister", False),
    ("not_found", "pageNotFound", False),
    ("suspended_text", "accountDisabledMessage", True),
    ("suspended_text", "accountTemporarilyDisabledMessage", True),
)
_KC_ENTRY = re.compile(r'^\s{0,8}(\w{1,80}): "((?:[^"\\\n]|\\.){0,400})",?$', re.M)


def keycloakify(tarball: Path) -> Iterator[Row]:
    """``tarball``: ``npm pack keycloakify@<version>``'s file."""
    with tarfile.open(tarball) as tf:
        for member in sorted(tf.getmembers(), key=lambda m: m.name):
            if not (member.name.startswith(_KC_DIR + "/") and member.name.endswith(".js")):
                continue
            locale = member.name.rsplit("/", 1)[1].removesuffix(".js")
            handle = tf.extractfile(member)
            if handle is None or locale == "index":
                continue
            table = {k: json.loads(f'"{v}"') for k, v in
                     _KC_ENTRY.findall(handle.read().decode("utf-8"))}
            for concept, key, sentence in KEYCLOAK_KEYS:
                yield from _rows(concept, language(locale), table.get(key),
                                 f"keycloakify {KEYCLOAKIFY_VERSION} {member.name} {key!r}",
                                 "MIT (Keycloak's messages: Apache-2.0)", sentence=sentence)


# --- gettext catalogues: Django and django-allauth (PyPI wheels), WordPress (Debian) ------

_PO_ENTRY = re.compile(r'^msgid ((?:"(?:[^"\\\n]|\\.)*"\s*)+)msgstr ((?:"(?:[^"\\\n]|\\.)*"\s*)+)',
                       re.M)
_PO_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _po(text: str) -> dict[str, str]:
    def joined(s: str) -> str:
        return "".join(_PO_STRING.findall(s)).replace('\\"', '"').replace("\\n", "\n")
    return {joined(m.group(1)): joined(m.group(2)) for m in _PO_ENTRY.finditer(text)}


DJANGO_VERSION = "5.2.19"
#: (catalogue folder in the wheel, concept, English msgid, a sentence?)
DJANGO_KEYS = (
    ("django/contrib/admin/locale", "sign_in", "Log in", False),
    ("django/contrib/admin/locale", "not_found", "Page not found", False),
    ("django/contrib/admin/locale", "not_found_text",
     "We\u2019re sorry, but the requested page could not be found.", True),
    ("django/contrib/admin/locale", "server_error", "Server error (500)", False),
    ("django/contrib/admin/locale", "server_error", "Server error", False),
    ("django/conf/locale", "forbidden", "Forbidden", False),
    ("django/contrib/auth/locale", "suspended_text", "This account is inactive.", True),
)
ALLAUTH_VERSION = "65.22.1"
ALLAUTH_KEYS = (
    ("allauth/locale", "suspended", "Account Inactive", False),
    ("allauth/locale", "suspended_text", "This account is inactive.", True),
    ("allauth/locale", "sign_in", "Sign In", False),
    ("allauth/locale", "sign_up", "Sign Up", False),
)


def _wheel(wheel: Path, project: str, version: str,
           keys: tuple[tuple[str, str, str, bool], ...], licence: str) -> Iterator[Row]:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        for folder, concept, key, sentence in keys:
            yield from _rows(concept, "en", key, f"{project} {version} {folder} (msgid) "
                             f"{key!r}", licence, sentence=sentence)
            for name in sorted(n for n in names if n.startswith(folder + "/")
                               and n.endswith("/LC_MESSAGES/django.po")):
                locale = name[len(folder) + 1:].split("/")[0]
                table = _po(zf.read(name).decode("utf-8"))
                yield from _rows(concept, language(locale), table.get(key), f"{project} "
                                 f"{version} {name} {key!r}", licence, sentence=sentence)


def django(wheel: Path) -> Iterator[Row]:
    yield from _wheel(wheel, "Django", DJANGO_VERSION, DJANGO_KEYS, "BSD-3-Clause")


def allauth(wheel: Path) -> Iterator[Row]:
    yield from _wheel(wheel, "django-allauth", ALLAUTH_VERSION, ALLAUTH_KEYS, "MIT")


WORDPRESS_VERSION = "wordpress-l10n 6.1.9+dfsg1-0+deb12u1"
_WP_DIR = "usr/share/wordpress/wp-content/languages"
#: concept -> (WordPress core's English msgid, a sentence?)
WORDPRESS_KEYS = (
    ("sign_in", "Log In", False),
    ("not_found", "Page not found", False),
    ("maintenance_notice", "Briefly unavailable for scheduled maintenance. Check back in a "
                           "minute.", True),
    ("suspended_text", "This site has been archived or suspended.", True),
    ("server_error", "Error establishing a database connection", False),
)


def wordpress(root: Path) -> Iterator[Row]:
    """``root``: wordpress-l10n's .deb extracted (``dpkg-deb -x``)."""
    for _concept, key, sentence in WORDPRESS_KEYS:
        yield from _rows(_concept, "en", key, f"{WORDPRESS_VERSION} {_WP_DIR} (msgid) {key!r}",
                         "GPL-2.0-or-later", sentence=sentence)
    for mo in sorted((root / _WP_DIR).glob("*.mo")):
        if "-" in mo.stem:  # admin-*, admin-network-*, continents-cities-*
            continue
        catalogue = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
        for concept, key, sentence in WORDPRESS_KEYS:
            value = catalogue.gettext(key)  # the key itself where it has no translation
            yield from _rows(concept, language(mo.stem), None if value == key else value,
                             f"{WORDPRESS_VERSION} {_WP_DIR}/{mo.name} {key!r}",
                             "GPL-2.0-or-later", sentence=sentence)


# --- MediaWiki (Debian), languages/i18n/<code>.json -----------------------------------------

MEDIAWIKI_VERSION = "mediawiki 1:1.39.17-1+deb12u2"
_MW_DIR = "usr/share/mediawiki/languages/i18n"
MEDIAWIKI_KEYS = (
    ("sign_in", "login", False),
    ("sign_in_required", "loginreqtitle", False),
    ("not_found_text", "noarticletext", True),
    ("suspended", "blockedtitle", False),
)


def mediawiki(root: Path) -> Iterator[Row]:
    """``root``: mediawiki's .deb extracted."""
    for path in sorted((root / _MW_DIR).glob("*.json"), key=lambda p: (p.stem != "en", p.stem)):
        if path.stem == "qqq":
            continue
        table = json.loads(path.read_text(encoding="utf-8"))
        for concept, key, sentence in MEDIAWIKI_KEYS:
            yield from _rows(concept, language(path.stem), table.get(key),
                             f"{MEDIAWIKI_VERSION} {_MW_DIR}/{path.name} {key!r}",
                             "GPL-2.0-or-later", sentence=sentence)


# --- Squid's error pages (Debian squid-langpack), <lang>/ERR_ACCESS_DENIED ------------------

SQUID_VERSION = "squid-langpack 20220130-1"
_SQ_DIR = "usr/share/squid-langpack"
_SQ_H2 = re.compile(r"<h2>([^<]{3,120})</h2>")
_SQ_BOLD = re.compile(r"<p><b>([^<]{3,80})</b></p>")


def squid(root: Path) -> Iterator[Row]:
    """``root``: squid-langpack's .deb extracted. Squid's heading over every error it serves
    ("The requested URL could not be retrieved") and the reason of ERR_ACCESS_DENIED."""
    # English first: a language folder may carry a line its translators left in English,
    # which is English's term, not theirs (collect() keeps a term's first source).
    for folder in sorted((p for p in (root / _SQ_DIR).iterdir() if p.is_dir()
                          and not p.is_symlink()), key=lambda p: (p.name != "en", p.name)):
        page = folder / "ERR_ACCESS_DENIED"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8", errors="replace")
        where = f"{SQUID_VERSION} {_SQ_DIR}/{folder.name}/ERR_ACCESS_DENIED"
        lang = language(folder.name)
        h2, bold = _SQ_H2.search(text), _SQ_BOLD.search(text)
        yield from _rows("proxy_error", lang, h2.group(1) if h2 else None, f"{where} <h2>",
                         "GPL-2.0-or-later")
        yield from _rows("access_denied", lang, bold.group(1) if bold else None,
                         f"{where} <p><b>", "GPL-2.0-or-later")
