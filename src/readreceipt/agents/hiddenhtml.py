"""Elements a reader of the page never sees, found without a browser.

A page can hold text for machines only: an instruction in a zero-size font, at zero opacity,
pushed off the screen, clipped away, written white on white, or in a screen-reader-only
class. :func:`hidden_elements` finds such elements so that :mod:`readreceipt.agents.fence`
drops them (with everything inside) before a page's text is written for an agent.

What is judged, and why each rule holds on pages nobody here has seen:

- the ``hidden`` attribute and ``aria-hidden="true"``;
- an inline style, or a rule of the page's own ``<style>`` whose selector is one plain class
  or id (``.x``, ``#y``, ``p.x``) outside any ``@media``/``@supports`` block (those apply only
  sometimes), that declares: ``display:none``, ``visibility:hidden|collapse``,
  ``content-visibility:hidden``; a font size of zero or at most 1px/1pt; an opacity under
  :data:`MIN_OPACITY`; a transparent text colour; an offset, indent, margin or translation
  of :data:`OFF_SCREEN_PX` or more to the left or top; a ``clip-path`` that keeps nothing
  (``inset(50%)`` or more, a zero circle) or a ``clip: rect()`` of at most 1px; zero width or
  height with ``overflow: hidden``; ``transform: scale(0)``;
- the text colour equal (within :data:`SAME_COLOUR`) to the nearest background an element or
  an ancestor declares (inline or ``bgcolor``); with none declared, the browser's white,
  unless the page has a style sheet of its own (which may set a dark one we cannot see);
- the screen-reader-only classes of the widespread frameworks (:data:`SCREEN_READER_CLASSES`),
  whose whole purpose is text no sighted reader sees.

Linear and capped: a style sheet is read in one pass (no pattern scans it again from each brace
or comment mark), at most :data:`MAX_STYLE_CHARS` of them a page and :data:`MAX_CSS_DEPTH`
braces deep (past either, the rest of the sheet is not read: what it would hide reaches the
agent fenced and marked); a background is looked up once per element, however deep.

Never hidden: ``<html>``, ``<head>``, ``<body>``. Pages hide their whole body until a script
has run (anti-flicker snippets); dropping it would drop the page, and hiding everything
smuggles nothing past a reader.

Rules a stylesheet applies through complex selectors, inherited colours and scripts are
beyond this module: a browser would be needed. What is missed still reaches the agent fenced
and marked.
"""

from __future__ import annotations

import re
from typing import Any

#: Fainter than this, text is invisible on any background (an opacity fade starts at 0).
MIN_OPACITY = 0.1
#: An element moved this far left or up is off every screen (the usual trick is -9999px;
#: off-canvas menus sit a few hundred pixels out and hold navigation, not prose).
OFF_SCREEN_PX = 500.0
#: Largest difference in any RGB channel between a text colour and its background that a
#: reader cannot see.
SAME_COLOUR = 8
#: Classes of Bootstrap, Tailwind, WordPress, Drupal, HTML5 Boilerplate, Foundation and the
#: A11Y Project for "visible to screen readers only".
SCREEN_READER_CLASSES = frozenset({
    "sr-only", "sr-only-focusable", "visually-hidden", "visually-hidden-focusable",
    "visuallyhidden", "screen-reader-text", "screen-reader-only", "element-invisible",
    "show-for-sr", "a11y-hidden", "u-visually-hidden", "offscreen",
})
_NEVER_HIDDEN = frozenset({"html", "head", "body"})

#: What of a page's own style sheets is read, and how deep their blocks may nest (the deepest
#: real sheets nest a few levels: @supports, @media, a rule, CSS nesting).
MAX_STYLE_CHARS = 512 * 1024
MAX_CSS_DEPTH = 32
#: A length longer than this is no length a page writes ("-9999.5px" is 9).
_MAX_LENGTH_CHARS = 32

_LENGTH = re.compile(r"^(-?(?:\d+(?:\.\d*)?|\.\d+))(px|pt|em|rem|%|vw|vh|)$")
_PX_PER = {"px": 1.0, "": 1.0, "pt": 4 / 3, "em": 16.0, "rem": 16.0, "vw": 19.2, "vh": 10.8}
_HEX = re.compile(r"^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$")
_FUNC = re.compile(r"^(rgba?|hsla?)\(([^)]*)\)$")
_NAMED = {"white": (255, 255, 255), "black": (0, 0, 0), "snow": (255, 250, 250),
          "ivory": (255, 255, 240), "whitesmoke": (245, 245, 245), "ghostwhite": (248, 248, 255),
          "red": (255, 0, 0), "silver": (192, 192, 192), "gray": (128, 128, 128),
          "grey": (128, 128, 128), "transparent": None}
_WHITE = (255, 255, 255)
_SIMPLE_SELECTOR = re.compile(r"^([a-z][a-z0-9]*)?([.#])([A-Za-z_][\w-]*)$")


def declarations(style: str) -> dict[str, str]:
    """An inline style or a rule's body as {property: value}, lower-cased, !important off."""
    out: dict[str, str] = {}
    for part in style.split(";"):
        name, sep, value = part.partition(":")
        if sep:
            value = value.lower().replace("!important", "").strip()
            out[name.strip().lower()] = " ".join(value.split())
    return out


def _px(value: str) -> float | None:
    m = _LENGTH.match(value.strip()[:_MAX_LENGTH_CHARS + 1])
    if not m or m.group(2) == "%":
        return None
    return float(m.group(1)) * _PX_PER[m.group(2)]


def _is_zero(value: str) -> bool:
    m = _LENGTH.match(value.strip()[:_MAX_LENGTH_CHARS + 1])
    return m is not None and float(m.group(1)) == 0


def colour(value: str) -> tuple[int, int, int] | None:
    """An opaque colour as RGB; None for anything else (transparency included)."""
    value = value.strip()
    if value in _NAMED:
        return _NAMED[value]
    m = _HEX.match(value)
    if m:
        digits = m.group(1)
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        if len(digits) == 8 and digits[6:] != "ff":
            return None
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    m = _FUNC.match(value)
    if m and m.group(1).startswith("rgb"):
        parts = [p for p in re.split(r"[\s,/]+", m.group(2).strip()) if p]
        if len(parts) == 4 and _alpha(parts[3]) < 1:
            return None
        try:
            rgb = [float(p[:-1]) * 2.55 if p.endswith("%") else float(p) for p in parts[:3]]
        except ValueError:
            return None
        if len(rgb) == 3:
            return (round(rgb[0]), round(rgb[1]), round(rgb[2]))
    return None


def _alpha(text: str) -> float:
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return 1.0


def _transparent(value: str) -> bool:
    value = value.strip()
    if value == "transparent":
        return True
    m = _HEX.match(value)
    if m and len(m.group(1)) in (4, 8):
        digits = m.group(1)
        return digits[3] == "0" if len(digits) == 4 else digits[6:] == "00"
    m = _FUNC.match(value)
    if m:
        parts = [p for p in re.split(r"[\s,/]+", m.group(2).strip()) if p]
        return len(parts) == 4 and _alpha(parts[3]) == 0
    return False


def _far_out(value: str | None) -> bool:
    if value is None:
        return False
    px = _px(value)
    return px is not None and px <= -OFF_SCREEN_PX


def _clip_path_hides(value: str) -> bool:
    m = re.match(r"^inset\(\s*([\d.]+)%", value)
    if m and float(m.group(1)) >= 50:
        return True
    return bool(re.match(r"^(?:circle|ellipse)\(\s*0(?:px|%)?(?:\s|\))", value))


def _clip_hides(value: str) -> bool:
    m = re.match(r"^rect\(([^)]*)\)$", value)
    if not m:
        return False
    sizes = [_px(p) for p in re.split(r"[\s,]+", m.group(1).strip()) if p]
    return len(sizes) == 4 and all(s is not None and abs(s) <= 1 for s in sizes)


def _transform_hides(value: str) -> bool:
    m = re.search(r"translate(?:x|3d)?\(\s*([^,)\s]+)", value)
    if m and _far_out(m.group(1)):
        return True
    m = re.search(r"translatey\(\s*([^,)\s]+)", value)
    if m and _far_out(m.group(1)):
        return True
    return bool(re.search(r"scale(?:x|y)?\(\s*0(?:\.0*)?\s*[,)]", value))


def style_hides(decl: dict[str, str]) -> str | None:
    """Why these declarations hide an element from a reader, or None."""
    get = decl.get
    if get("display") == "none":
        return "display:none"
    if get("visibility") in ("hidden", "collapse"):
        return "visibility"
    if get("content-visibility") == "hidden":
        return "content-visibility"
    size = get("font-size")
    if size is not None and (_is_zero(size) or ((_px(size) or 2.0) <= 1.0)):
        return "font-size"
    opacity = get("opacity")
    if opacity is not None and _alpha(opacity) < MIN_OPACITY:
        return "opacity"
    if get("color") is not None and _transparent(get("color") or ""):
        return "transparent text"
    if get("position") in ("absolute", "fixed", "relative", "sticky") and any(
            _far_out(get(side)) for side in ("left", "top", "right", "bottom")):
        return "off-screen"
    if any(_far_out(get(prop)) for prop in ("text-indent", "margin-left", "margin-top")):
        return "off-screen"
    if _transform_hides(get("transform") or ""):
        return "transform"
    if _clip_path_hides(get("clip-path") or "") or _clip_hides(get("clip") or ""):
        return "clipped"
    if (get("overflow") or get("overflow-x") or get("overflow-y")) == "hidden" and any(
            _is_zero(get(prop) or "1") for prop in ("width", "height", "max-width",
                                                    "max-height")):
        return "zero size"
    return None


def _stylesheet_rules(tree: Any) -> tuple[set[str], set[str], set[tuple[str, str]]]:
    """(classes, ids, (tag, class-or-id)) that the page's own style sheets hide outright."""
    classes: set[str] = set()
    ids: set[str] = set()
    tagged: set[tuple[str, str]] = set()
    budget = MAX_STYLE_CHARS
    for node in tree.css("style"):
        css = (node.text(deep=True) or "")[:budget]
        budget -= len(css)
        for selectors, body in plain_rules(css):
            if style_hides(declarations(body)) is None:
                continue
            for selector in selectors.split(","):
                m = _SIMPLE_SELECTOR.match(selector.strip())
                if not m:
                    continue
                tag, kind, name = m.groups()
                if tag:
                    tagged.add((tag, kind + name))
                elif kind == ".":
                    classes.add(name)
                else:
                    ids.add(name)
        if budget <= 0:
            break
    return classes, ids, tagged


def _without_comments(css: str) -> str:
    parts, pos = [], 0
    while (start := css.find("/*", pos)) >= 0:
        parts.append(css[pos:start])
        end = css.find("*/", start + 2)
        if end < 0:
            return "".join(parts)  # an unclosed comment runs to the end of the sheet
        pos = end + 2
    parts.append(css[pos:])
    return "".join(parts)


def plain_rules(css: str) -> list[tuple[str, str]]:
    """The innermost ``selector { declarations }`` pairs of a style sheet that stand outside
    every at-rule block (``@media``, ``@supports``...: they apply only sometimes), in one
    pass. The selector is the text since the last brace or at-rule statement; past
    :data:`MAX_CSS_DEPTH` nested braces the rest of the sheet is not read."""
    css = _without_comments(css)
    rules: list[tuple[str, str]] = []
    at_rule: list[bool] = []  # per open brace: inside an at-rule's block (at it or above)
    start = 0  # where the text since the last brace or statement begins
    inner = -1  # the open brace with no brace after it yet, if any
    selector = ""
    for i, ch in enumerate(css):
        if ch == "{":
            if len(at_rule) >= MAX_CSS_DEPTH:
                break
            selector = css[start:i]
            at_rule.append((bool(at_rule) and at_rule[-1]) or selector.lstrip().startswith("@"))
            inner, start = i, i + 1
        elif ch == "}":
            if inner >= 0 and not at_rule[-1]:
                rules.append((selector, css[inner + 1:i]))
            if at_rule:
                at_rule.pop()
            inner, start = -1, i + 1
        elif ch == ";" and inner < 0:
            start = i + 1  # after an at-rule statement (@import ...;)
    return rules


Ground = tuple[tuple[int, int, int] | None, bool]


def _background(node: Any, known: dict[int, Ground]) -> Ground:
    """The nearest background declared at or above ``node``: (colour, whether one was).
    ``known`` holds the answers already found, so each element is looked at once however
    many coloured elements sit below it."""
    path: list[int] = []
    answer: Ground = (None, False)
    while node is not None:
        if node.mem_id in known:
            answer = known[node.mem_id]
            break
        path.append(node.mem_id)
        own = _own_background(node)
        if own is not None:
            answer = own
            break
        node = node.parent
    for mem_id in path:
        known[mem_id] = answer
    return answer


def _own_background(node: Any) -> Ground | None:
    attrs = node.attributes or {}
    decl = declarations(attrs.get("style") or "")
    for prop in ("background-color", "background"):
        if prop in decl:
            value = decl[prop]
            if prop == "background":
                value = next((w for w in value.split() if colour(w) or _transparent(w)),
                             "")
            if value and not _transparent(value):
                return colour(value), True
    bgcolor = attrs.get("bgcolor")
    if bgcolor:
        return colour(bgcolor.strip().lower()), True
    return None


def _same(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(x - y) <= SAME_COLOUR for x, y in zip(a, b, strict=True))


def hidden_elements(tree: Any) -> list[Any]:
    """Every element of ``tree`` (a selectolax Lexbor tree) that no reader sees."""
    classes, ids, tagged = _stylesheet_rules(tree)
    has_stylesheet = tree.css_first("style, link[rel~=stylesheet]") is not None
    found = []
    grounds: dict[int, Ground] = {}
    for node in tree.css("[hidden], [aria-hidden], [style], [class], [id]"):
        if node.tag in _NEVER_HIDDEN:
            continue
        attrs = node.attributes
        if "hidden" in attrs or (attrs.get("aria-hidden") or "").strip().lower() == "true":
            found.append(node)
            continue
        own = set((attrs.get("class") or "").split())
        ident = attrs.get("id") or ""
        if own & SCREEN_READER_CLASSES or own & classes or ident in ids or any(
                (node.tag, mark) in tagged for mark in
                [*(f".{c}" for c in own), *([f"#{ident}"] if ident else [])]):
            found.append(node)
            continue
        style = attrs.get("style")
        if not style:
            continue
        decl = declarations(style)
        if style_hides(decl) is not None:
            found.append(node)
            continue
        text_colour = colour(decl.get("color", ""))
        if text_colour is not None:
            ground, declared = _background(node, grounds)
            if not declared and not has_stylesheet:
                ground = _WHITE  # the browser's own background
            if ground is not None and _same(text_colour, ground):
                found.append(node)
    return found
