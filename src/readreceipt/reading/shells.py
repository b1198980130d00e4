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

from readreceipt.reading.basics import letters
from readreceipt.reading.facts import (
    BARE_MAX_MAIN_LETTERS,
    BLOCK_MAX_MAIN_LETTERS,
    TEMPLATE,
    ContentSignal,
    Facts,
)
from readreceipt.reading.tables.entries import alt

__all__ = [
    "MAX_CONTENT_LETTERS_BESIDE_TEMPLATES",
    "MIN_EMPTY_BINDINGS",
    "MIN_TEMPLATES",
    "SHELL_MARKERS",
    "SHELL_MAX_PAGE_LETTERS",
    "SHELL_MOUNT_IDS",
    "SHELL_MOUNT_TAGS",
    "SHELL_NOSCRIPT",
    "check_js_shell",
    "empty_bindings",
    "empty_mount",
    "loading_mount",
    "mount_without_text",
    "template_share",
]

# A client-rendered page ships an empty element for its framework to fill. Server-rendered
# pages of the same frameworks fill it in the HTML (Next.js's own 404 page says "This page
# could not be found." inside #__next), so only an *empty* one counts
# (walls/js_shell/camping_info_*, wevolver_*, x_profile_*, aptoide_*).
SHELL_MOUNT_IDS = ("root", "app", "__next", "__nuxt", "react-root", "___gatsby", "svelte",
                   "main-app", "application", "ember-app")
SHELL_MOUNT_TAGS = ("app-root",)  # Angular's default root component

# Substrings of the lower-cased markup that name a framework or bundler. They only name the
# framework of a page that is a shell by the rules in fingerprint.py; they do not make one.
SHELL_MARKERS: tuple[tuple[str, str], ...] = (
    ("ng-app", "AngularJS"),
    ("ng-version=", "Angular"),
    ("data-reactroot", "React"),
    ("data-v-app", "Vue"),
    ("data-server-rendered", "Vue"),
    ("__next_data__", "Next.js"),
    ("/_next/static/", "Next.js"),
    ("window.__nuxt__", "Nuxt"),
    ("/static/js/main.", "create-react-app"),
    ("chunk-vendors", "Vue CLI"),
    ("webpackjsonp", "webpack"),
    ("data-sveltekit", "SvelteKit"),
    ("__remixcontext", "Remix"),
    ("main.dart.js", "Flutter"),
    ("flutter_bootstrap.js", "Flutter"),
    ("_framework/blazor", "Blazor"),
    ("ember-application", "Ember"),
    ('id="mount_', "React (Meta)"),
)

# What a shell tells people without JavaScript (inside <noscript>, so not page text).
SHELL_NOSCRIPT = alt(
    r"enable javascript", r"javascript (is )?(required|disabled)", r"without javascript",
    r"javascript to run this app", r"turn on javascript", r"javascript aktivieren",
    r"activer javascript", r"habilita(r)? javascript", r"abilita(re)? javascript",
    r"ative o javascript", r"javascript inschakelen")

# A JavaScript shell shows (almost) nothing without its scripts, and says so by an empty
# mount point, unrendered {{templates}} or a noscript notice (or shows nothing at all):
# corpus shells show at most 66 letters, all of them templates; a YouTube error page showing
# only its 144-letter footer is named by its player status instead (a soft 404).
SHELL_MAX_PAGE_LETTERS = 100

#: Unrendered templates with chrome around them (a CMS's menus are rendered on the server,
#: the article is not): at least this many {{ }} expressions, and no more letters than this
#: of content outside chrome once they are taken out. Corpus shells show at most 93 letters
#: of their own (walls/js_shell/camping_info_*); the shortest article has 352.
MIN_TEMPLATES = 3
MAX_CONTENT_LETTERS_BESIDE_TEMPLATES = 200
#: Empty binding elements: this many, on a page with as little content as above.
MIN_EMPTY_BINDINGS = 3

_BINDING = re.compile(r"<[a-z][a-z0-9-]*\s[^<>]{0,400}?\b(?:ng-bind(?:-html)?|data-ng-bind|"
                      r"v-text|v-html|x-text|x-html)\s*=\s*[\"'][^\"']{1,200}[\"'][^<>]{0,400}>"
                      r"\s*</")
#: A mount point's only text may be a loading word, in the languages the wall table knows.
_LOADING = re.compile(r"^\W*(loading|chargement|cargando|carregando|caricamento|laden|"
                      r"wird geladen|lade|読み込み中|로딩 ?중|加载中|載入中|please wait|"
                      r"bitte warten|"
                      r"veuillez patienter|un momento|por favor,? espere|attendere|even geduld|"
                      r"aguarde|お待ちください|잠시만 기다려 ?주세요|请稍候|請稍候)\W*$")


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


def mount_without_text(html: str) -> str | None:
    """The first framework mount point whose whole subtree shows no text, or only a loading
    word (a spinner element inside it, ``<app-root><div><p>Please wait…</p></div></app-root>``),
    named; else None. Parses the page: called only on pages with little text."""
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(html)
        tree.strip_tags(["script", "style", "noscript", "template", "svg"])
        found = [(f"#{i} mount point", tree.css_first(f'[id="{i}"]')) for i in SHELL_MOUNT_IDS]
        found += [(f"<{t}>", tree.css_first(t)) for t in SHELL_MOUNT_TAGS]
    except Exception:  # selectolax raises a variety on hostile markup
        return None
    for name, node in found:
        if node is None:
            continue
        text = " ".join(node.text(deep=True, separator=" ").split()).lower()
        if not text:
            return name
        if _LOADING.match(text):
            return f"{name} that only says it is loading"
    return None


def _closes_at_once(markup: str, tag_end: int) -> bool:
    """Whether the element whose start tag ends at ``tag_end`` closes with nothing inside."""
    if tag_end < 0:
        return False
    return markup[tag_end + 1:tag_end + 201].lstrip().startswith("</")


def template_share(content: str) -> tuple[int, int]:
    """(how many {{ }} expressions, letters left once they are taken out) of ``content``."""
    found = TEMPLATE.findall(content)
    return len(found), letters(TEMPLATE.sub(" ", content)) if found else letters(content)


def empty_bindings(markup: str) -> int:
    """How many elements bind their text to a script's value and hold nothing yet."""
    if "-bind" not in markup and "-text" not in markup and "-html" not in markup:
        return 0
    return sum(1 for _ in _BINDING.finditer(markup[:2_000_000]))


_SHELL_NOSCRIPT = re.compile(SHELL_NOSCRIPT)


def check_js_shell(f: Facts) -> ContentSignal | None:
    """Scripts, little text, and a sign the text is for scripts to fill in (py)."""
    # The signs first: each needs a short page, which most pages are not, and the scripts'
    # test needs the lower-cased markup.
    found = (_shell_sign(f) if f.main_letters <= BARE_MAX_MAIN_LETTERS else None) or \
        _templated_heading(f)
    if found is None or not f.has_scripts:
        return None
    what, rule = found
    framework = next((name for marker, name in SHELL_MARKERS if marker in f.markup), None)
    if framework is not None:
        what = f"{what}; {framework}"
    return ContentSignal(reason="js_shell", wall=None, rule=rule, vendor=None,
                         detail=f"a JavaScript shell with no content ({what})")


def _templated_heading(f: Facts) -> tuple[str, str] | None:
    """The page's own heading is nothing but unrendered templates, and the main text is
    short once they are taken out: the scripts were to write the page (a server-rendered
    page renders its own heading; an article about templates has more to say)."""
    if f.main_letters > BLOCK_MAX_MAIN_LETTERS or not f.templated_raw:
        return None
    count = template_share(f.page.page_text)[0]
    left = template_share(f.page.main_text)[1]
    if count < MIN_TEMPLATES:
        return None
    if f.layout.parsed:
        # Templates are counted against the text beside them: a page that shows more
        # letters of its own, outside chrome, than it leaves to templates, and more than a
        # shell's few lines, was rendered on the server with a few values left to scripts
        # (tests/pages/hard_negative/product_page_template_heading_beside_text.html).
        real = template_share(f.layout.content)[1]
        waiting = letters(f.layout.content) - real
        if real > MAX_CONTENT_LETTERS_BESIDE_TEMPLATES and real > waiting:
            return None
    for heading in f.shown_headings[1 if f.title else 0:]:
        n, rest = template_share(heading)
        if n and not rest:
            return (f"a heading made of unrendered templates ({heading[:40]!r}) over "
                    f"{left} letters", "structure:unrendered templates in the heading")
    return None


def _shell_sign(f: Facts) -> tuple[str, str] | None:
    if f.page_letters <= SHELL_MAX_PAGE_LETTERS:
        mount = empty_mount(f.markup) or loading_mount(f.markup) or mount_without_text(f.html)
        if mount is not None:
            return f"an empty {mount}" if "loading" not in mount else f"a {mount}", \
                f"structure:empty {mount}"
        if f.templated:
            return "unrendered {{templates}}", "structure:unrendered templates"
        if _SHELL_NOSCRIPT.search(f.noscript):
            return "a 'please enable JavaScript' notice", "wording:noscript enable javascript"
        if f.page_letters == 0 and not f.alt_text:
            # Nothing at all to see, not even an image: only scripts could fill it.
            return "scripts and no text", "structure:scripts and no text"
        # A little text of its own (walls/soft_404/physicsclassroom_*: a one-line 'not
        # found' page; a server-rendered 404): left to the checks below.
        return None
    # A mount point with nothing in it, inside the site's chrome rendered on the server (a
    # header of links, a footer): the content was left to the scripts (tests/pages/js_shell/
    # nuxt_spinner_inside_mount.html, vue_empty_app_with_header_nav.html).
    if f.layout.content_letters <= MAX_CONTENT_LETTERS_BESIDE_TEMPLATES:
        mount = mount_without_text(f.html)
        if mount is not None:
            return (f"an empty {mount} beside the site's chrome" if "loading" not in mount
                    else f"a {mount}, beside the site's chrome"), f"structure:empty {mount}"
    if not f.templated_raw and "-bind" not in f.markup and "v-" not in f.markup and \
            "x-text" not in f.markup:
        return None
    # Text beside the shell's own: the site's chrome rendered on the server around templates
    # or bindings the scripts were to fill.
    count, left = template_share(f.layout.content)
    if count >= MIN_TEMPLATES and left <= MAX_CONTENT_LETTERS_BESIDE_TEMPLATES:
        return (f"{count} unrendered {{{{templates}}}} where the content would be",
                "structure:unrendered templates beside chrome")
    bindings = empty_bindings(f.markup)
    if bindings >= MIN_EMPTY_BINDINGS and \
            f.layout.content_letters <= MAX_CONTENT_LETTERS_BESIDE_TEMPLATES:
        return f"{bindings} empty ng-/v- bindings", "structure:empty bindings"
    return None

