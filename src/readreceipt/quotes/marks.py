"""Quotation marks of every script: where a quoted passage of an answer opens and closes.

:func:`quoted_spans` reads one paragraph and returns the outermost passages it holds in
quotation marks. Each script typesets them its own way, and one character can open in one
language and close in another (“ opens in English and closes „German“), so marks are paired
on a stack: a mark closes the innermost open passage it can close, and otherwise opens one
when its place allows. Marks nested inside a passage stay part of it; only the outermost
closed pairs are passages.

| opens | closes | where |
|---|---|---|
| `"` `＂` | the same | everywhere (straight, full-width); by its place, as before |
| `“` | `”` (or `"`) | English, Chinese, and the many languages that borrowed them |
| `„` | `“` or `”` (or `"`) | German, Czech, Slovak (`“`); Polish, Hungarian, Romanian (`”`) |
| `”` | `”` | Swedish, Finnish |
| `«` | `»` | French (often with inner spaces, U+00A0 or U+202F), Spanish, Italian, Russian… |
| `»` | `«` or `»` | German, Danish (`»…«`); Swedish, Finnish (`»…»`) |
| `‹` `›` `‚` | `›`, `‹` or `›`, `‘` or `’` | the single forms of the above |
| `‘` | `’` | English single, only where neither can be an apostrophe (below) |
| `「` `『` `｢` `〝` `﹁` `﹃` | `」` `』` `｣` `〞`/`〟` `﹂` `﹄` | Japanese, Chinese |

A straight `"` closes an open `“` or `„` when no straight mark is open and no closing mark
of the opener's own follows before its next opening (mixed marks: the passage is still a
quotation, and must not go unchecked; but in “the 12" pipes” the `"` is inches, and closing
there would leave the rest of the passage unchecked).

Straight single quotes (`'`, `＇`) are never read: every one of them can be an apostrophe.
A curly `‘` opens only where an apostrophe cannot stand (not inside a word, not before an
elided word or a decade such as ’tis or ’90s), and `’` closes it only where it is not inside
a word; a `’` after an ``s`` and before a space (the workers’ union) closes only when no
other closing `’` follows before the next `‘`.

Pure: no I/O. Linear in the paragraph: at most :data:`MAX_OPEN_MARKS` passages are open at
once (a mark that would open one more is read as text: real prose nests three or four deep,
``"a “b ‘c «d`` repeated 4,000 times nests 16,000), and what a mark asks of the marks after
it (is there a closer before the next opener?) is answered from an index of their places.
"""

# ruff: noqa: RUF002, RUF003 - the marks of every script are what this module is about
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from readreceipt.quotes.scripts import hangul, unspaced

__all__ = ["MARK_CHARS", "quoted_spans"]

# Family of an opening mark -> the characters that close it.
_CLOSERS: dict[str, str] = {
    '"': '"', "\uff02": "\uff02",
    # A straight mark closes a curly or low one too: hands (and phones' keyboards) open with
    # one and close with the other ("He said “the city kept its word" on Tuesday").
    "\u201c": '\u201d"',
    "\u201e": '\u201c\u201d"',
    "\u201d": "\u201d",
    "\u00ab": "\u00bb",
    "\u00bb": "\u00ab\u00bb",
    "\u2039": "\u203a",
    "\u203a": "\u2039\u203a",
    "\u201a": "\u2018\u2019",
    "\u2018": "\u2019",
    "\u300c": "\u300d", "\u300e": "\u300f", "\uff62": "\uff63", "\u301d": "\u301e\u301f",
    "\ufe41": "\ufe42", "\ufe43": "\ufe44",
}
# Marks that open wherever they stand (when they do not close something first).
_ALWAYS_OPEN = frozenset("\u201c\u201e\u00ab\u2039\u201a\u300c\u300e\uff62\u301d\ufe41\ufe43")
# Marks that open only where their place says so: before a word, after a space or an
# opening bracket (a Swedish ”, a German », a straight ").
_OPEN_BY_PLACE = frozenset('"\uff02\u201d\u00bb\u203a\u2018')
MARK_CHARS = frozenset(_CLOSERS) | frozenset("".join(_CLOSERS.values()))
_MARK_AT = re.compile("[" + re.escape("".join(sorted(MARK_CHARS))) + "]")
_STRAIGHT = frozenset('"\uff02')

# Before an opening mark / after a closing one, besides a space: punctuation that can stand
# there (ASCII, and the CJK forms).
_OPEN_AFTER = frozenset("([{<\u2014\u2013-/*_~:=\u2018'\uff1a\uff0c\u3001\u3002\uff08\u300c\u300e"
                        "\u3010\u300a\uff08")
_CLOSE_BEFORE = frozenset(".,;:!?)]}>*_~\u2014\u2013-/'\u2019\"\u201d\u3002\uff0c\u3001\uff1b"
                          "\uff1a\uff01\uff1f\uff09\u300d\u300f\u3011\u300b")
# ’tis, ’twas, ’em, ’n’, ’cause, ’til, ’90s: words and decades an apostrophe starts.
_ELIDED_WORD = re.compile(r"(?:[Tt]is|[Tt]was|em|n|cause|til|bout|round|\d0s)\b")
_ATTRIBUTE_BEFORE = re.compile(r"[\w:.-]\s*=\s*$")
#: At most this many passages open at once (prose nests three or four deep); a mark that
#: would open one more is text.
MAX_OPEN_MARKS = 8


def _spacelike(ch: str) -> bool:
    # A letter of a script without spaces between words stands where a space would.
    return not ch or ch.isspace() or unspaced(ch)


@dataclass
class _Open:
    mark: str
    at: int
    attribute: bool


def quoted_spans(paragraph: str) -> list[tuple[int, str, bool]]:
    """(offset, passage, is an attribute value) for each outermost quoted span of a paragraph,
    in order. A mark left open pairs with nothing."""
    stack: list[_Open] = []
    closed: list[tuple[int, int, bool]] = []  # (open at, close at, attribute)
    places = _Places(paragraph)
    for i, mark in places.marks:
        before = paragraph[i - 1] if i else ""
        after = paragraph[i + 1] if i + 1 < len(paragraph) else ""
        if mark in _STRAIGHT:
            action = _straight(places, i, before, after, stack)
        else:
            action = _curly(places, i, mark, before, after, stack)
        if action == "close":
            depth = max(d for d, o in enumerate(stack) if mark in _CLOSERS[o.mark])
            opened = stack[depth]
            del stack[depth:]
            closed.append((opened.at, i, opened.attribute))
        elif action == "open" and len(stack) < MAX_OPEN_MARKS:
            attribute = mark in ('"', "\u201c") and bool(
                _ATTRIBUTE_BEFORE.search(paragraph, max(0, i - 80), i))
            stack.append(_Open(mark, i, attribute))
    out: list[tuple[int, str, bool]] = []
    reach = -1
    for start, end, attribute in sorted(closed):
        if start > reach:  # not inside a pair already taken
            out.append((start, paragraph[start + 1 : end], attribute))
            reach = end
    return out


class _Places:
    """Where each mark of a paragraph stands, for questions about the marks after one."""

    def __init__(self, paragraph: str) -> None:
        self.paragraph = paragraph
        self.marks = [(m.start(), m.group()) for m in _MARK_AT.finditer(paragraph)]
        self._at: dict[str, list[int]] = {}
        for i, mark in self.marks:
            self._at.setdefault(mark, []).append(i)
        self.single_closers = self._single_closers()

    def next(self, mark: str, i: int) -> int:
        """Where ``mark`` next stands after ``i``; the paragraph's length when it does not."""
        places = self._at.get(mark, [])
        k = bisect_right(places, i)
        return places[k] if k < len(places) else len(self.paragraph)

    def _single_closers(self) -> frozenset[int]:
        """The ’ that can close a single quotation rather than be an apostrophe (not inside
        a word; after an s and before a space, the workers’ union, only when no other closing
        ’ follows before the next ‘), judged from the last to the first."""
        paragraph, closers = self.paragraph, set()
        nearest = len(paragraph)  # the closing ’ nearest after the one looked at
        opening = len(paragraph)  # the ‘ nearest after it
        for i, mark in reversed(self.marks):
            if mark == "\u2018":
                opening = i
            if mark != "\u2019":
                continue
            before = paragraph[i - 1] if i else ""
            after = paragraph[i + 1] if i + 1 < len(paragraph) else ""
            if not before or before.isspace() or (after and after.isalnum()):
                continue
            if before in "sS" and after.isspace() and nearest < opening:
                continue
            closers.add(i)
            nearest = i
        return frozenset(closers)


def _closes(mark: str, stack: list[_Open]) -> bool:
    return any(mark in _CLOSERS[o.mark] for o in stack)


def _straight(places: _Places, i: int, before: str, after: str,
              stack: list[_Open]) -> str | None:
    """A straight mark opens or closes by its place: 5"x7" is inches, not a quotation."""
    can_open = (not before or _spacelike(before) or before in _OPEN_AFTER) and bool(
        after) and not after.isspace()
    # Korean glues its particles to the closing mark ("…"고 말했다, "…"라고).
    can_close = bool(before) and not before.isspace() and (
        _spacelike(after) or after in _CLOSE_BEFORE or hangul(after))
    open_here = _straight_closes(places, i, stack)
    if can_open and can_close:
        return "close" if open_here else "open"
    if can_close:
        return "close" if open_here else None
    return "open" if can_open else None


def _straight_closes(places: _Places, i: int, stack: list[_Open]) -> bool:
    """Whether the straight mark at ``i`` may close the innermost passage it can close: one it
    opened, or a curly or low one whose own closing mark does not come later (before the next
    opening of its kind); when it does, this straight mark is inches or a nested mark."""
    mark = places.paragraph[i]
    opened = next((o for o in reversed(stack) if mark in _CLOSERS[o.mark]), None)
    if opened is None or opened.mark == mark:
        return opened is not None
    following = places.next(opened.mark, i)
    return not any(places.next(ch, i) < following for ch in _CLOSERS[opened.mark] if ch != mark)


def _curly(places: _Places, i: int, mark: str, before: str, after: str,
           stack: list[_Open]) -> str | None:
    paragraph = places.paragraph
    if mark == "\u2019":
        return "close" if _closes(mark, stack) and i in places.single_closers else None
    if mark in "\u2018\u201c" and _closes(mark, stack) and (
            (before and not before.isspace()) or not after or after.isspace()):
        return "close"  # closing a ‚German‘ „quotation“; after a space it opens a nested one
    if mark == "\u2018":
        opens = (_spacelike(before) or before in _OPEN_AFTER or before in MARK_CHARS) and \
            bool(after) and not after.isspace() and not _ELIDED_WORD.match(paragraph, i + 1)
        return "open" if opens else None
    if mark != "\u201c" and _closes(mark, stack):
        return "close"
    if mark in _ALWAYS_OPEN:
        return "open"
    if mark in _OPEN_BY_PLACE:
        by_place = (_spacelike(before) or before in _OPEN_AFTER) and bool(after) and \
            not after.isspace()
        return "open" if by_place else None
    return None
