"""What the content checks may ask of one page, each fact computed at most once.

``PageView`` is what the caller hands the content layer (headers, HTML, the two texts);
``Facts`` answers the checks' questions about it lazily: how many letters of main text (a
menu taken for content not counted), where on the page some words sit (placement.py), what
the publisher says (publisher.py), the title, headings, noscript and alt text, the end of the
main text. ``GATES`` says how thin a page must be for an entry of a table to count.

Invariants: pure; cheap for long pages (most pages): only their main text is counted and its
tail searched; the markup and whole text are folded only for pages short enough to be a wall.
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from re import Pattern

from readreceipt.fetching.deadline import Deadline
from readreceipt.reading.basics import letters
from readreceipt.reading.branches import Branch, search_branches, split
from readreceipt.reading.literals import may_match, required
from readreceipt.reading.placement import Layout, PageTree, layout_of, tree
from readreceipt.reading.publisher import OG_ARTICLE, PublisherSays, publisher_says
from readreceipt.reading.signin import (
    MAX_BEFORE,
    MAX_BESIDE,
    MAX_BOX_LETTERS,
    PROVIDER_NEEDLES,
    SignIn,
    set_aside_lines,
    sign_in_boxes,
)
from readreceipt.reading.tables.entries import Entry
from readreceipt.reading.tables.signin import IDENTIFIER_NAMES

__all__ = ["BARE_MAX_MAIN_LETTERS", "BLOCK_MAX_MAIN_LETTERS", "EMPTY_MAX_LETTERS", "GATES",
           "LABEL_MAX_CHARS", "TAIL_CHARS", "TEASER_MAX_MAIN_LETTERS", "TEMPLATE", "Compiled",
           "ContentSignal", "Facts", "PageView", "compile_entries", "fold", "letters"]

# --- thresholds (letters of text: digits, spaces and punctuation do not count) -----------
# Evidence: ../shared/corpus (walls/ and the 181 articles), through readreceipt.reading.extract as
# the pipeline runs it: "main" is the main-content text, "page" the whole visible text.

# A vendor's script alone (which ordinary pages also load) counts only on a page with
# nothing to read: the Reblaze, Weibo and Imperva challenges show 0 letters; JSTOR shows 619
# main letters and carries PerimeterX's script (hard_negative/jstor_*).
EMPTY_MAX_LETTERS = 30
# A captcha widget or a password field (which also sit in comment forms and site headers)
# counts only on a page with almost no main text: Reddit's check 115, Google's 126, the
# sign-in pages 110 and 127; articles carrying a reCAPTCHA or a password field: from 530.
BARE_MAX_MAIN_LETTERS = 200
# A page that is the wall and nothing else. Largest such wall: YouTube's consent page 645,
# Forza's not-found page 594, NCBI's block page 523. (The shortest article is 352: the
# entries at this gate are phrases an article does not carry.)
BLOCK_MAX_MAIN_LETTERS = 800
# A paywall keeps a teaser: Boston Globe 904 letters, Zeit 783, Bloomberg 573.
TEASER_MAX_MAIN_LETTERS = 1500
# How far before a paywall's words a teaser's cut (a word glued to an ellipsis) may be: an
# author's line or a short bio may stand between (AOC's teaser, in trafilatura's evaluation
# pages: 110 characters; a bio of a few lines, about 500).
CUT_REACH = 600
_CUT = re.compile(r"[^\W\d_]{2}(\.\.\.|\u2026)(?=\s)")
# A wall at the end of a long article: Nature's registration wall ends its 8,945-letter
# main text within the last 300 characters; The Week's unenforced regwall markup is not in
# the main text at all (hard_negative/theweek_*).
TAIL_CHARS = 400
# Main text that is a list of short lines may be a site's navigation taken for content
# (walls2/soft_404/tjx_*: 2,336 letters of menu items, 24 letters a line). Lines that are
# only a link's text are not counted when the main text has this many lines, this short.
LIST_MIN_LINES = 10
LIST_MAX_LETTERS_PER_LINE = 40
# A label stands on a line of its own: "Subscriber Only" (15 characters), "Members Only" (12),
# "Exklusiv für Abonnenten" (23), "Este contenido es exclusivo para suscriptores" (46). A
# sentence of an article's paragraph is longer; a one-line paragraph this short is rare.
LABEL_MAX_CHARS = 60
# The table rules read at most this much of each text (the page's visible text, its main
# text): every entry is a search of it, so a page of a few megabytes of text and a short main
# text (navigation taken for none, or digits, which are no letters) would cost seconds. The
# wall with the most visible text in the corpus has 18,862 characters (walls/login/nature_*),
# the longest clean page 30,059: both well inside this; walls are short pages (the gates).
WALL_TEXT_CHARS = 64 * 1024

GATES: Mapping[str, int] = {
    "empty": EMPTY_MAX_LETTERS,
    "bare": BARE_MAX_MAIN_LETTERS,
    "block": BLOCK_MAX_MAIN_LETTERS,
    "teaser": TEASER_MAX_MAIN_LETTERS,
}


@dataclass(frozen=True)
class PageView:
    """What the content layer may look at; the caller extracts the texts once."""

    url: str
    final_url: str
    status: int
    headers: Mapping[str, str]
    content_type: str
    html: str | None
    main_text: str
    page_text: str
    body_bytes: int
    #: The page's tree when extraction already walked it (its second reading), else None
    #: (the layout then walks the markup itself, when a check asks for it).
    tree: PageTree | None = field(default=None, compare=False, repr=False)
    #: The addresses the fetch was redirected through between the one asked (``url``) and
    #: the last (``final_url``), in order (reading/redirects.py).
    via: tuple[str, ...] = ()


@dataclass(frozen=True)
class ContentSignal:
    """Why the content is not (or may not be) the page asked for."""

    reason: str
    wall: str | None
    rule: str
    vendor: str | None
    detail: str


# --- folding and counting ------------------------------------------------------------------


# --- folding -------------------------------------------------------------------------------

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
#: An unrendered template expression: ``{{ x }}``, or the delimiters sites give AngularJS and
#: Vue when ``{{`` is taken by their server's own templates (Jinja, Django, Twig, Handlebars):
#: ``{[{ x }]}``, ``{[ x ]}``, ``[[ x ]]`` (tests/pages/js_shell/angular_custom_delimiters_*).
#: Bounded, so an unclosed one costs a few hundred characters.
TEMPLATE = re.compile(r"\{\{.{0,300}?\}\}|\{\[\{.{0,300}?\}\]\}|\{\[ ?[\w$:.].{0,300}?\]\}|"
                      r"\[\[ ?[\w$:.][\w$:. |()'\"-]{0,300}?\]\]", re.S)
#: The opening of one (cheap test before the regex runs).
_TEMPLATE_OPENINGS = ("{{", "{[", "[[")
_TAG = re.compile(r"<[^<>]*>")


def fold(text: str) -> str:
    """Lower case, straight quotes, one space for any run of whitespace."""
    return " ".join(text.translate(_QUOTES).lower().split())


def _strip(fragment: str) -> str:
    return fold(htmllib.unescape(_TAG.sub(" ", fragment)))


# Bounded, so an unclosed element costs a few hundred characters, not the rest of the page.
# Run on the HTML as it came, its tag names matched as HTML matches them (ASCII letters in
# either case): what they capture is folded, so the page's markup need not be lower-cased
# for them (that copy costs about 3 ms an article, and a long page's checks need no other).
_TITLE = re.compile(r"<title[^<>]{0,200}>(.{0,2000}?)</title>", re.S | re.I | re.A)
_HEADING = re.compile(r"<h[12][^<>]{0,500}>(.{0,1000}?)</h[12]>", re.S | re.I | re.A)
_NOSCRIPT = re.compile(r"<noscript[^<>]{0,200}>(.{0,2000}?)</noscript>", re.S | re.I | re.A)
_IMG_ALT = re.compile(r"<img[^<>]*?\salt=[\"']([^\"']+)")
_SCRIPT = re.compile(r"<script\b")
# A sign-in form's inputs: a password field, or a user-name field by the names sign-in forms
# give it, bare or after a framework's prefix ("form:userId", "ctl00$login$UserName"); a
# newsletter's e-mail field is not one. Or a form that posts to a sign-in address
# (tests/pages/login/bank_login_step_one_no_password.html: user ID and date of birth first,
# the password on the next step).
_USER_NAMES = r"(username|login|userid|user_id|j_username|loginname|logonid|logon_id)"
_SIGN_IN_INPUT = re.compile(r"<input\b[^<>]{0,400}?(type=[\"']?password|autocomplete=[\"']?"
                            r"(username|current-password)|name=[\"']?([\w.$\[\]-]{0,60}?[:.$\[])?"
                            + _USER_NAMES + r"[\"'\]\s>])")
_SIGN_IN_FORM = re.compile(r"<form\b[^<>]{0,400}?action=[\"']?[^\"'\s>]{0,200}?"
                           r"(log-?in|sign-?in|log-?on|authenticat|/auth/|/sso/)")


#: A credential box needs an input like one of these in the markup (signin.py), or an
#: identity provider's name (signin.PROVIDER_NEEDLES): a password field, an identifier's
#: autocomplete token, a field named as an account's identifier (tables/signin.py), a phone
#: number's or a one-time code's field (a sign-in by text message). Checked
#: before the page is parsed; bounded, so one tag costs at most a few hundred characters.
_CREDENTIAL_INPUT = re.compile(
    r"<input\b[^<>]{0,400}?(?:type=[\"']?(?:password|tel\b)|autocomplete=[\"']?(?:username|"
    r"webauthn|email|one-time-code)|(?:name|id)=[\"']?[^\"'>]{0,40}?(?:"
    + "|".join(sorted(IDENTIFIER_NAMES)) + "))",
    re.I)  # some names are not ASCII ("användarnamn"); Facts.markup lowers ASCII only


#: A password field's type as markup spells it, found in an ``<input>`` tag however far into
#: the tag (a field whose attributes, indented, run past the bound above:
#: bench/devset4_labels.tsv dd_customer_globeandmail_ca_login, 636 characters); not in a
#: script's string, which would build the page's tree for nothing on many articles.
_PASSWORD_TYPES = ('type="password"', "type='password'", "type=password")
#: Occurrences of a password type read, and how far back its tag may open.
_PASSWORD_LOOKS = 50
_TAG_BACK = 4000


def _password_input(markup: str) -> bool:
    """Whether a password type stands inside an ``<input`` tag: from each occurrence (capped),
    back to the tag it is in (bounded), so the work is linear in the page."""
    looks = 0
    for spelling in _PASSWORD_TYPES:
        at = markup.find(spelling)
        while at >= 0 and looks < _PASSWORD_LOOKS:
            looks += 1
            opened = markup.rfind("<", max(0, at - _TAG_BACK), at)
            if opened >= 0 and markup.startswith("<input", opened) and \
                    markup.find(">", opened, at) < 0:
                return True
            at = markup.find(spelling, at + len(spelling))
    return False


_NOT_LETTERS = re.compile(r"[\W\d_]+")


def _squash(text: str) -> str:
    """The letters of ``text``, lower-cased, nothing between them."""
    return _NOT_LETTERS.sub("", text).lower()


def short_lines(text: str) -> str:
    """The lines of ``text`` short enough to be a label, folded, one a line."""
    return "\n".join(line for raw in text.split("\n")
                     if (line := fold(raw)) and len(line) <= LABEL_MAX_CHARS)


@dataclass(frozen=True)
class Compiled:
    """A table entry, compiled once; ``needs`` holds, for each way the regex can match, the
    substrings that way needs (reading/literals.py), so the regex runs only on a text that
    holds all of some way's; :attr:`branches`, the regex's top-level alternation split
    (reading/branches.py), each branch then run only on a text that holds its own."""

    entry: Entry
    regex: Pattern[str] | None
    needs: tuple[tuple[str, ...], ...] | None = None

    @cached_property
    def branches(self) -> tuple[Branch, ...]:
        # Split and compiled when first searched: most entries never are on a long page,
        # and the tables' import would take half as long again.
        return split(self.entry.expr) if self.regex is not None else ()

    def search(self, haystack: str) -> str | None:
        """What matched (the literal, or the text the regex matched), or None."""
        if self.regex is None:
            return self.entry.expr if self.entry.expr in haystack else None
        anchor = self.entry.anchor
        if anchor is not None and anchor not in haystack:
            return None
        if self.needs is not None and not may_match(self.needs, haystack):
            return None
        m = search_branches(self.branches, haystack) if self.branches else \
            self.regex.search(haystack)
        return m.group(0).strip()[:80] if m else None


def compile_entries(entries: Iterable[Entry]) -> tuple[Compiled, ...]:
    return tuple(Compiled(e, None, None) if e.literal else
                 Compiled(e, re.compile(e.expr), required(e.expr)) for e in entries)


class Facts:
    """Everything the rules ask of one page, each computed at most once and only if asked."""

    def __init__(self, page: PageView, deadline: Deadline | None = None) -> None:
        self.page = page
        self.deadline = deadline
        self.html = page.html or ""
        self.main_letters = self._main_letters()
        self.cleared: list[str] = []  # evidence found and set aside, and why

    def in_time(self) -> None:
        """FetchTimeout when the capture's deadline has passed (judging spends it too)."""
        if self.deadline is not None:
            self.deadline.check()

    def _main_letters(self) -> int:
        """Letters of main text, without lines that are only a link's text in a list of
        short lines (a menu taken for the content)."""
        text = self.page.main_text
        raw = letters(text)
        # (A text has at most one line more than it has line breaks: more letters than the
        # bound allows that many lines is more than it allows its lines, and no line is
        # split for it. An article's text is such a text.)
        if raw <= BLOCK_MAX_MAIN_LETTERS or \
                raw > LIST_MAX_LETTERS_PER_LINE * (text.count("\n") + 1):
            return raw
        lines = [line for line in text.split("\n") if line.strip()]
        if len(lines) < LIST_MIN_LINES or raw > LIST_MAX_LETTERS_PER_LINE * len(lines):
            return raw
        links = self.layout.link_texts
        return sum(letters(line) for line in lines if " ".join(line.lower().split()) not in links)

    @cached_property
    def tree(self) -> PageTree | None:
        # The tree the second reading walked, when it did: the page is not walked twice.
        if self.page.tree is not None:
            return self.page.tree
        return tree(self.html) if self.html else None

    @cached_property
    def layout(self) -> Layout:
        return layout_of(self.tree)

    @cached_property
    def sign_in(self) -> tuple[SignIn, int] | None:
        """The credential box that is the page's main thing (signin.py), with the letters of
        main text outside it; None when there is none."""
        providers = any(needle in self.markup for needle in PROVIDER_NEEDLES)
        if not providers and _CREDENTIAL_INPUT.search(self.markup) is None and \
                not _password_input(self.markup):
            return None
        if self.tree is None:
            return None
        # A sign-in page's content is what stands beside its box, plus the box itself: a page
        # whose content outside every chrome is longer has more than a box to read (the main
        # text may be longer: an extractor takes menus, banners and hidden blocks too).
        if self.main_letters > MAX_BESIDE + MAX_BEFORE and \
                self.layout.content_letters > MAX_BESIDE + MAX_BEFORE + MAX_BOX_LETTERS:
            return None
        boxes = sign_in_boxes(self.tree, self.page.main_text, providers=providers)
        if not boxes:
            return None
        # The main text's letters by line, once: each box takes away its own lines' (a page
        # of n boxes beside n lines would cost n² read line by line for every box); and of
        # those, the lines the structure sets aside as chrome (signin.set_aside_lines).
        by_line: dict[str, int] = {}
        for line in self.page.main_text.split("\n"):
            if one := " ".join(line.split()):
                by_line[one] = by_line.get(one, 0) + letters(one)
        aside = set_aside_lines(self.tree, by_line)
        total = sum(by_line.values())
        total_shown = sum(n for line, n in by_line.items() if line not in aside)
        # And of those, the lines that are not a link's whole text (a menu's item).
        links = self.tree.link_texts
        prose = {line for line in by_line if line not in aside and line.lower() not in links}
        total_prose = sum(by_line[line] for line in prose)
        for box in boxes:
            own = [line for line in box.box_lines if line in by_line]
            outside = total - sum(by_line[line] for line in own)
            shown_outside = total_shown - sum(by_line[line] for line in own
                                              if line not in aside)
            prose_outside = total_prose - sum(by_line[line] for line in own if line in prose)
            if box.main_thing(outside, shown_outside, prose_outside):
                return box, shown_outside if box.place in ("content", "form") else outside
        return None

    @cached_property
    def publisher(self) -> PublisherSays:
        if "isaccessibleforfree" not in self.markup and "ld+json" not in self.markup:
            return PublisherSays(None, "")
        return publisher_says(self.html, self.page.page_text, self.page.main_text)

    @cached_property
    def typed_article(self) -> bool:
        """The page's markup types it as an article (schema.org, og:type)."""
        return self.publisher.article or OG_ARTICLE.search(self.markup) is not None

    @cached_property
    def locked(self) -> bool:
        """The publisher says the page is locked (``isAccessibleForFree`` false: publisher.py).
        JSON-LD spells the key one way, so a page whose HTML never spells it is not asked
        for its JSON-LD, nor lower-cased for the test (asked of every page with a paywall
        entry, long ones too). A key written with JSON escapes is not read as the key."""
        return "isAccessibleForFree" in self.html and self.publisher.locked

    @cached_property
    def substance(self) -> int:
        """Letters of content on the page by either measure: extracted, or outside chrome."""
        return max(self.main_letters, self.layout.content_letters)

    def beside(self, kind: str) -> int:
        """Letters of content beside the chrome of ``kind`` (a dialog, a form...), by either
        measure: outside all chrome, or the main text without the lines that chrome holds
        (an extractor may take a lone dialog's text for the main text)."""
        box = " ".join(self.layout.chrome.get(kind, "").split())
        main = sum(letters(line) for line in self.page.main_text.split("\n")
                   if (one := " ".join(line.split())) and one not in box)
        return max(self.layout.content_letters, main)

    def place(self, c: Compiled) -> str:
        """Where a text entry's words are: "content", a kind of chrome, or "own words"
        (title, noscript, alt text: the page's own, wherever they sit). A label is looked
        for on lines of its own only."""
        prepare = short_lines if c.entry.where == "label" else fold
        where = self.layout.place_of(lambda text: c.search(prepare(text)) is not None)
        if where is not None:
            return where
        if c.search(prepare(self.shown_main)) is not None:
            return "content"
        if c.search(prepare(self.page.main_text)) is not None:
            # Only in lines of the main text the page does not show (the extractor keeps a
            # <template>'s or a hidden element's text): hidden, like any hidden element.
            return "hidden"
        return "own words"

    @cached_property
    def shown_main(self) -> str:
        """The main text without the lines the page does not show: trafilatura keeps the
        text of ``<template>`` elements and hidden blocks, a single-page application's
        not-found view among them (tests/pages/hard_negative/spa_hidden_not_found_*)."""
        if not self.layout.parsed:
            return self.page.main_text
        # Compared as runs of letters, so a line the extractor joined across inline elements
        # still meets the text nodes it came from (substring search is linear in 3.11).
        shown = _squash("".join([self.layout.content, *(t for k, t in self.layout.chrome.items()
                                                        if k != "hidden")]))
        return "\n".join(line for line in self.page.main_text.split("\n")
                         if _squash(line) in shown)

    def breaks_off_before(self, c: Compiled) -> bool:
        """The page's text breaks off mid-sentence (a word glued to an ellipsis,
        "interactions économi...") within ``CUT_REACH`` characters before where the entry's
        words begin: a teaser cut short, then the call to read on (tests/pages/paywall/
        fr_teaser_cut_then_register_form.html). An article's own "and then..." is not
        followed by a subscription's words."""
        text = fold(self.page.page_text)
        found = c.search(text)
        if found is None:
            return False
        at = text.find(found)
        return _CUT.search(text, max(0, at - CUT_REACH), max(0, at)) is not None

    @cached_property
    def labels(self) -> str:
        """Lines of the page's text short enough to be a label (LABEL_MAX_CHARS)."""
        return "\n".join(short_lines(t[:WALL_TEXT_CHARS])
                         for t in (self.page.page_text, self.page.main_text))

    @cached_property
    def sign_in_form(self) -> bool:
        """Whether the page carries a sign-in form's inputs (password or user-name field)."""
        return bool(self.layout.passwords) or _SIGN_IN_INPUT.search(self.markup) is not None \
            or _SIGN_IN_FORM.search(self.markup) is not None

    @cached_property
    def page_letters(self) -> int:
        """Letters of visible text, not counting unrendered {{templates}}."""
        return letters(TEMPLATE.sub(" ", self.page.page_text)) if self.templated_raw else (
            letters(self.page.page_text))

    @cached_property
    def templated_raw(self) -> bool:
        text = self.page.page_text
        return any(o in text for o in _TEMPLATE_OPENINGS) and TEMPLATE.search(text) is not None

    @cached_property
    def templated(self) -> bool:
        """Unrendered {{templates}} are most of the visible text (walls/js_shell/sinica_*)."""
        if not self.templated_raw:
            return False
        return letters(self.page.page_text) >= 2 * self.page_letters

    @cached_property
    def markup(self) -> str:
        """The HTML with its ASCII letters lower-cased: what the markup tests read (tag and
        attribute names, ids, classes, addresses, script markers: every pattern and needle
        they hold is ASCII or, in _CREDENTIAL_INPUT, matched ignoring case). ``str.lower``
        would also lower every other script's letters, at about 3 ms an article (a page's
        text is never ASCII alone); this is under 1 ms, and keeps the length."""
        html = self.html
        if html.isascii():
            return html.lower()
        return html.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")

    def lowered(self) -> str:
        """The lower-cased markup (:attr:`markup`), for a test that asks for it only once the
        page is short enough for it to matter (the copy costs about 3 ms an article)."""
        return self.markup

    @cached_property
    def title(self) -> str:
        m = _TITLE.search(self.html)
        return _strip(m.group(1)) if m else ""

    @cached_property
    def headings(self) -> tuple[str, ...]:
        found = [_strip(m.group(1)) for m in _HEADING.finditer(self.html)]
        return tuple(h for h in [self.title, *found] if h)

    @cached_property
    def shown_headings(self) -> tuple[str, ...]:
        """The title, and the h1/h2 headings that stand where the content is or in the
        site's header over it, its navigation included (a landing page's hero heading may sit
        in a ``<nav>``: tests/pages/js_shell/template_heading_inside_header_nav.html); not a
        hidden message, a dialog's, a form's or a sidebar's."""
        own = [self.title] if self.title else []
        if self.layout.parsed:
            kinds = ("content", "header", "navigation")
            own += [h for h in self.headings[len(own):] if self._shown(h, kinds)]
        else:
            shown = fold(self.page.main_text)
            own += [h for h in self.headings[len(own):] if h in shown]
        return tuple(own)

    @cached_property
    def content_headings(self) -> tuple[str, ...]:
        """The h1/h2 headings that stand in the content (placement.py), not in the site's
        header, navigation, footer or sidebar, in the page's order; none when the page
        was not parsed (nothing then says where a heading stands)."""
        if not self.layout.parsed:
            return ()
        start = 1 if self.title else 0
        return tuple(h for h in self.headings[start:] if self._shown(h, ("content",)))

    @cached_property
    def visible_headings(self) -> tuple[str, ...]:
        """The title, and the h1/h2 headings the page shows somewhere: not one inside a
        hidden element, a ``<template>`` or a script's string (a single-page application
        ships its not-found view's heading hidden in every page: tests/pages/hard_negative/
        spa_hidden_not_found_template.html)."""
        own = [self.title] if self.title else []
        if not self.layout.parsed:
            return tuple(own + list(self.headings[len(own):]))
        kinds = ("content", *(kind for kind in self.layout.chrome if kind != "hidden"))
        own += [h for h in self.headings[len(own):] if self._shown(h, kinds)]
        return tuple(own)

    @cached_property
    def _certain_folded(self) -> dict[str, str]:
        """Kind -> its text outside the elements a script shows only on a condition
        (placement.Layout.certain), folded."""
        layout = self.layout
        return {kind: fold(layout.certain_text(kind)) for kind in ("content", *layout.chrome)}

    def only_in_content(self, heading: str) -> bool:
        """Whether ``heading`` (folded) stands where the content is and not in the site's
        header or navigation (a sale page's name on offer, not a site's logo); on a page the
        layout could not read, whether the main text holds it."""
        if not self.layout.parsed:
            return heading in fold(self.page.main_text)
        return self._shown(heading, ("content",)) and not self._shown(
            heading, ("header", "navigation"))

    def _shown(self, heading: str, kinds: tuple[str, ...]) -> bool:
        """Whether ``heading`` (folded) stands in the texts of ``kinds``, outside every
        element a script shows only on a condition (placement.conditional)."""
        folded = self._certain_folded
        return any(heading in folded[kind] for kind in kinds if kind in folded)

    @cached_property
    def noscript(self) -> str:
        return " ".join(_strip(m.group(1)) for m in _NOSCRIPT.finditer(self.html))

    @cached_property
    def text(self) -> str:
        # (The headings the page shows are in its visible text already; one only the markup
        # holds, hidden or in a template, is not the page's.)
        page = fold(self.page.page_text[:WALL_TEXT_CHARS])
        main = fold(self.page.main_text[:WALL_TEXT_CHARS])
        # The main text is most often a part of the visible text: searched once, not twice.
        parts = [self.title, page, "" if main in page else main, self.noscript]
        if self.page_letters == 0:
            # An image-only page says what it is in its alt text (walls/soft_404/ncsoft_*).
            parts.append(self.alt_text)
        return "\n".join(parts)

    @cached_property
    def alt_text(self) -> str:
        return " ".join(fold(htmllib.unescape(a)) for a in _IMG_ALT.findall(self.markup))

    @cached_property
    def tail(self) -> str:
        return fold(self.page.main_text[-TAIL_CHARS * 2:])[-TAIL_CHARS:]

    @cached_property
    def has_scripts(self) -> bool:
        return _SCRIPT.search(self.markup) is not None

    def header(self, name: str) -> str:
        return self.page.headers.get(name, "").lower()

    def allows(self, gate: str) -> bool:
        if gate == "tail":
            return True
        if gate == "empty" and self.page_letters > EMPTY_MAX_LETTERS:
            return False
        return self.main_letters <= GATES[gate]

    def matches(self, c: Compiled) -> str | None:
        where = c.entry.where
        if where == "tail":
            return c.search(self.tail)
        if where == "markup":
            return c.search(self.markup)
        if where == "title":
            return c.search(self.title)
        if where == "heading":
            # Raw headings first (no parse); a match counts only where the page shows it.
            for h in self.headings:
                if (m := c.search(h)) is not None and h in self.visible_headings:
                    return m
            return None
        if where == "label":
            return c.search(self.labels)
        return c.search(self.text)
