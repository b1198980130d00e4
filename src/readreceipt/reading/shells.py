"""JavaScript shells: pages whose text is for scripts to fill in, recognised in the HTML.

A client-rendered page ships markup its framework fills at run time. Three kinds of sign,
none of them a site's: an *empty mount point* (``<div id="root"></div>``, ``<app-root>``),
or one holding only a loading word (``<app>Chargement...</app>``); *unrendered templates*
(``{{ article.title }}``) standing where the content would be, with or without the site's
chrome around them; *empty bindings* (``ng-bind``, ``v-text``, ``v-html``, ``x-text``
elements with nothing inside), the AngularJS / Vue / Alpine way of leaving text to scripts.

Each sign counts only on a page with little content of its own: a server-rendered page of
the same framework fills its mount point (Next.js's own 404 page says "This page could not
be found." inside #__next), renders its templates and fills its bindings.

Invariants: pure functions of the lower-cased markup and extracted texts; the numbers live
here with their evidence; a shell is never a wall (the fingerprint checks walls first).
"""

from __future__ import annotations

import re

from readreceipt.reading.walls import SHELL_MOUNT_IDS, SHELL_MOUNT_TAGS

__all__ = [
    "MAX_CONTENT_LETTERS_BESIDE_TEMPLATES",
    "MIN_EMPTY_BINDINGS",
    "MIN_TEMPLATES",
    "empty_bindings",
    "empty_mount",
    "loading_mount",
    "template_share",
]

#: Unrendered templates with chrome around them (a CMS's menus are rendered on the server,
#: the article is not): at least this many {{ }} expressions, and no more letters than this
#: of content outside chrome once they are taken out. Corpus shells show at most 93 letters
#: of their own (walls/js_shell/camping_info_*); the shortest article has 352.
MIN_TEMPLATES = 3
MAX_CONTENT_LETTERS_BESIDE_TEMPLATES = 200
#: Empty binding elements: this many, on a page with as little content as above.
MIN_EMPTY_BINDINGS = 3

_TEMPLATE = re.compile(r"\{\{.{0,300}?\}\}", re.S)
_NON_LETTERS = re.compile(r"[\W\d_]+")
_BINDING = re.compile(r"<[a-z][a-z0-9-]*\s[^>]{0,400}?\b(?:ng-bind(?:-html)?|data-ng-bind|"
                      r"v-text|v-html|x-text|x-html)\s*=\s*[\"'][^\"']{1,200}[\"'][^>]{0,400}>"
                      r"\s*</")
#: A mount point's only text may be a loading word, in the languages the wall table knows.
_LOADING = re.compile(r"^\W*(loading|chargement|cargando|carregando|caricamento|laden|"
                      r"wird geladen|lade|読み込み中|로딩 ?중|加载中|載入中)\W*$")


def _letters(text: str) -> int:
    return len(_NON_LETTERS.sub("", text))


def empty_mount(markup: str) -> str | None:
    """The first framework mount point that is empty in the HTML, named; else None."""
    for ident in SHELL_MOUNT_IDS:
        for quote in ('"', "'"):
            at = markup.find(f"id={quote}{ident}{quote}")
            if at >= 0 and _closes_at_once(markup, markup.find(">", at)):
                return f"#{ident} mount point"
    for tag in SHELL_MOUNT_TAGS:
        at = markup.find(f"<{tag}")
        if at >= 0 and _closes_at_once(markup, markup.find(">", at)):
            return f"<{tag}>"
    return None


def loading_mount(markup: str) -> str | None:
    """A mount point (as above, or an ``<app>`` element) holding only a loading word."""
    candidates = [(f"id=\"{i}\"", f"#{i} mount point") for i in SHELL_MOUNT_IDS]
    candidates += [(f"<{t}", f"<{t}>") for t in (*SHELL_MOUNT_TAGS, "app")]
    for needle, name in candidates:
        at = markup.find(needle)
        if needle == "<app" and at >= 0 and markup[at + 4:at + 5] not in (">", " "):
            continue
        end = markup.find(">", at) if at >= 0 else -1
        if end < 0:
            continue
        inner = markup[end + 1:end + 201]
        close = inner.find("<")
        if close > 0 and _LOADING.match(" ".join(inner[:close].split())):
            return f"{name} that only says it is loading"
    return None


def _closes_at_once(markup: str, tag_end: int) -> bool:
    """Whether the element whose start tag ends at ``tag_end`` closes with nothing inside."""
    if tag_end < 0:
        return False
    return markup[tag_end + 1:tag_end + 201].lstrip().startswith("</")


def template_share(content: str) -> tuple[int, int]:
    """(how many {{ }} expressions, letters left once they are taken out) of ``content``."""
    found = _TEMPLATE.findall(content)
    return len(found), _letters(_TEMPLATE.sub(" ", content)) if found else _letters(content)


def empty_bindings(markup: str) -> int:
    """How many elements bind their text to a script's value and hold nothing yet."""
    if "-bind" not in markup and "-text" not in markup and "-html" not in markup:
        return 0
    return sum(1 for _ in _BINDING.finditer(markup[:2_000_000]))
