"""HTML built so that page content can only ever be text: escaped by default, markup by name.

Every string that reaches a page is escaped unless it is a :class:`Markup`, and only the
helpers here make Markup: :func:`tag` escapes its text children and every attribute value,
:func:`join` escapes each part. A captured page's words, titles, URLs and headers are plain
``str`` and so are always escaped; no helper takes raw HTML from a caller.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from urllib.parse import urlencode, urlsplit


class Markup(str):
    """A string that is already HTML (made only by this module's helpers)."""

    __slots__ = ()


def escape(value: object) -> Markup:
    if isinstance(value, Markup):
        return value
    return Markup(html.escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[object], sep: str = "") -> Markup:
    return Markup(escape(sep).join(escape(p) for p in parts))


#: Elements this viewer uses; anything else is a programming error, not a page's choice.
_ELEMENTS = frozenset({
    "a", "article", "body", "button", "caption", "code", "dd", "del", "details", "div", "dl",
    "dt", "footer", "form", "h1", "h2", "h3", "head", "header", "html", "input", "ins",
    "label", "li", "link", "main", "mark", "meta", "nav", "ol", "option", "p", "pre",
    "section", "select", "small", "span", "strong", "summary", "table", "tbody", "td", "th",
    "thead", "title", "tr", "ul",
})
_VOID = frozenset({"input", "link", "meta"})


def tag(element: str, /, *children: object, **attrs: object) -> Markup:
    """``<element attrs>children</element>``; ``class_`` for class, ``data_x`` for data-x."""
    if element not in _ELEMENTS:
        raise ValueError(f"element {element!r} is not one this viewer writes")
    rendered = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        attr = key.rstrip("_").replace("_", "-")
        rendered.append(f" {attr}" if value is True else f' {attr}="{escape(value)}"')
    opening = f"<{element}{''.join(rendered)}>"
    if element in _VOID:
        return Markup(opening)
    return Markup(opening + join(c for c in children if c is not None) + f"</{element}>")


def href(path: str, **params: object) -> str:
    """A link inside the viewer, with a query of the given (non-empty) parameters."""
    query = urlencode({k: str(v) for k, v in params.items() if v not in (None, "")})
    return f"{path}?{query}" if query else path


def outbound(url: str, text: object | None = None) -> Markup:
    """A link to a captured URL: http(s) only, no referrer, never a script URL."""
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        return tag("span", text if text is not None else url, class_="url")
    return tag("a", text if text is not None else url, href=url, rel="noreferrer noopener",
               class_="url")


def page(title: str, body: Markup, *, nav: str = "") -> bytes:
    """A whole document: the stylesheet is a file (no inline style), no script at all."""
    links = [("/", "Retrievals"), ("/flags", "Flags"), ("/audits", "Audits")]
    menu = tag("nav", *[tag("a", label, href=path,
                            class_="here" if label.lower() == nav else None)
                        for path, label in links])
    document = Markup("<!doctype html>") + tag(
        "html",
        tag("head", tag("meta", charset="utf-8"),
            tag("meta", name="viewport", content="width=device-width, initial-scale=1"),
            tag("meta", name="referrer", content="no-referrer"),
            tag("title", f"{title} \u2014 readreceipt"),
            tag("link", rel="stylesheet", href="/static/viewer.css")),
        tag("body",
            tag("header", tag("strong", "readreceipt"), " ", menu,
                tag("small", "read-only viewer", class_="ro")),
            tag("main", tag("h1", title), body),
            tag("footer", "Every page shown here is text from the library: nothing captured "
                "runs in this viewer.")),
        lang="en")
    return document.encode("utf-8")


CSS = """
:root { --ok: #1b7f3b; --bad: #b3261e; --unk: #9a6700; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { display: flex; gap: 1.2em; align-items: baseline; padding: .6em 1.2em;
         border-bottom: 1px solid var(--line); background: var(--soft); }
header nav a { margin-right: 1em; }
header nav a.here { font-weight: 600; text-decoration: none; color: inherit; }
header .ro { margin-left: auto; color: #57606a; }
main { padding: 1em 1.2em; max-width: 110em; }
footer { padding: 1em 1.2em; color: #57606a; font-size: 13px; border-top: 1px solid var(--line); }
h1 { font-size: 1.4em; margin: .2em 0 .6em; overflow-wrap: anywhere; }
h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .3em .6em;
         border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
td.url, .url { overflow-wrap: anywhere; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 .45em; border-radius: .3em; font-size: 13px;
         font-weight: 600; color: #fff; }
.badge.RETRIEVED, .badge.found { background: var(--ok); }
.badge.FAILED, .badge.not_found { background: var(--bad); }
.badge.UNKNOWN, .badge.not_run, .badge.none { background: var(--unk); }
form.filters { display: flex; flex-wrap: wrap; gap: .8em; align-items: end; margin-bottom: 1em; }
form.filters label { display: flex; flex-direction: column; font-size: 13px; color: #57606a; }
form.filters input, form.filters select, form.filters button { font: inherit; padding: .2em .4em; }
.pager { margin: 1em 0; display: flex; gap: 1.5em; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft);
        border: 1px solid var(--line); padding: .8em 1em; font: 14px/1.55 ui-serif, Georgia,
        serif; max-height: 60em; overflow: auto; }
mark { background: #fff3b0; padding: 0 .1em; }
mark.nearest { background: #ffd8b5; }
del { background: #ffebe9; color: #82071e; }
ins { background: #dafbe1; color: #116329; text-decoration: none; }
.quote { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; margin: .8em 0;
         padding: .8em; border: 1px solid var(--line); border-radius: .4em; }
.quote.found { background: #f3fbf5; }
.quote.not_found { background: #fff8f7; }
.quote h3 { font-size: 13px; margin: 0 0 .3em; color: #57606a; font-weight: 600; }
.quote .passage { font: 14px/1.55 ui-serif, Georgia, serif; overflow-wrap: anywhere; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1.2em; }
dl.fields dt { color: #57606a; }
dl.fields dd { margin: 0; overflow-wrap: anywhere; }
.muted { color: #57606a; }
.sentence { font-size: 1.05em; margin: 0 0 1em; }
"""
