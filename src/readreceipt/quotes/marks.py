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

The table of marks (which closes which) is :mod:`readreceipt.quotes.markset`'s, so that a
quick look for a mark needs nothing else. Pure: no I/O.
"""

# ruff: noqa: RUF002, RUF003 - the marks of every script are what this module is about
from __future__ import annotations

import re
from dataclasses import dataclass

from readreceipt.quotes.markset import CLOSERS as _CLOSERS
from readreceipt.quotes.markset import MARK_CHARS
from readreceipt.quotes.scripts import hangul, unspaced

__all__ = ["MARK_CHARS", "quoted_spans"]

# Marks that open wherever they stand (when they do not close something first).
_ALWAYS_OPEN = frozenset("\u201c\u201e\u00ab\u2039\u201a\u300c\u300e\uff62\u301d\ufe41\ufe43")
# Marks that open only where their place says so: before a word, after a space or an
# opening bracket (a Swedish ”, a German », a straight ").
_OPEN_BY_PLACE = frozenset('"\uff02\u201d\u00bb\u203a\u2018')
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
    for m in _MARK_AT.finditer(paragraph):
        i, mark = m.start(), m.group()
        before = paragraph[i - 1] if i else ""
        after = paragraph[i + 1] if i + 1 < len(paragraph) else ""
        if mark in _STRAIGHT:
            action = _straight(paragraph, i, before, after, stack)
        else:
            action = _curly(paragraph, i, mark, before, after, stack)
        if action == "close":
            depth = max(d for d, o in enumerate(stack) if mark in _CLOSERS[o.mark])
            opened = stack[depth]
            del stack[depth:]
            closed.append((opened.at, i, opened.attribute))
        elif action == "open":
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


def _closes(mark: str, stack: list[_Open]) -> bool:
    return any(mark in _CLOSERS[o.mark] for o in stack)


def _straight(paragraph: str, i: int, before: str, after: str,
              stack: list[_Open]) -> str | None:
    """A straight mark opens or closes by its place: 5"x7" is inches, not a quotation."""
    can_open = (not before or _spacelike(before) or before in _OPEN_AFTER) and bool(
        after) and not after.isspace()
    # Korean glues its particles to the closing mark ("…"고 말했다, "…"라고).
    can_close = bool(before) and not before.isspace() and (
        _spacelike(after) or after in _CLOSE_BEFORE or hangul(after))
    open_here = _straight_closes(paragraph, i, stack)
    if can_open and can_close:
        return "close" if open_here else "open"
    if can_close:
        return "close" if open_here else None
    return "open" if can_open else None


def _straight_closes(paragraph: str, i: int, stack: list[_Open]) -> bool:
    """Whether the straight mark at ``i`` may close the innermost passage it can close: one it
    opened, or a curly or low one whose own closing mark does not come later (before the next
    opening of its kind); when it does, this straight mark is inches or a nested mark."""
    mark = paragraph[i]
    opened = next((o for o in reversed(stack) if mark in _CLOSERS[o.mark]), None)
    if opened is None or opened.mark == mark:
        return opened is not None
    following = paragraph.find(opened.mark, i + 1)
    ahead = paragraph[i + 1 : len(paragraph) if following < 0 else following]
    return not any(ch in ahead for ch in _CLOSERS[opened.mark] if ch != mark)


def _curly(paragraph: str, i: int, mark: str, before: str, after: str,
           stack: list[_Open]) -> str | None:
    if mark == "\u2019":
        return "close" if _closes(mark, stack) and _single_closes(paragraph, i) else None
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


def _single_closes(paragraph: str, i: int) -> bool:
    """Whether the ’ at ``i`` can close a single quotation rather than be an apostrophe."""
    before = paragraph[i - 1] if i else ""
    after = paragraph[i + 1] if i + 1 < len(paragraph) else ""
    if not before or before.isspace() or (after and after.isalnum()):
        return False  # inside a word (don’t), or opening nothing
    if before in "sS" and after.isspace():  # the workers’ union: prefer a later closer
        following = paragraph.find("\u2018", i + 1)
        end = len(paragraph) if following < 0 else following
        return not any(_single_closes(paragraph, j) for j in range(i + 1, end)
                       if paragraph[j] == "\u2019")
    return True
