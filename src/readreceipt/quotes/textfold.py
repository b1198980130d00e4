"""Folding text so that a page and an answer typeset by different hands can be compared.

Used by :mod:`readreceipt.quotes.quotations` on both sides of every comparison, so both sides
are always folded by the same function. :func:`fold_mapped` (and :func:`fold`): entities
decoded, NFKC, case folded, curly and straight marks made one, the several dashes made one
hyphen, soft hyphens and zero-width characters removed, whitespace runs made one space. The
result keeps a map back to the original text, so a passage located in the folded page can be
shown in the page's own characters. (What else may differ and still match is
:mod:`readreceipt.quotes.textmatch`.)

Invariant, checked by the must-not-match tables in tests/test_textfold.py: no fold removes or
changes a digit, a sign (``-`` ``+`` ``±``), an inequality, a decimal point or a percent sign.
Exponents keep a ``^`` so that ``10²`` never reads as ``102``; a vulgar fraction after a digit
is set apart so ``1½`` never reads as ``11/2``.

Speed: most pages fold one character to one (curly marks and dashes included), and those are
folded over the whole text at once, with only runs of spaces, entities, runs of dashes and "…"
as places where the length changes. A long text goes in pieces, and a piece that does not fold
one to one takes the slower road, run by run (:mod:`readreceipt.quotes.foldchars`). The map back to
the source is made only when asked for (:class:`LazyFolded`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

from readreceipt.quotes.foldchars import (
    MARKS,
    MARKS_AT,
    SITE,
    VULGAR,
    Builder,
    Folded,
    SourceSpans,
    fold_entity,
    fold_general,
)

__all__ = ["Folded", "LazyFolded", "fold", "fold_mapped", "fold_text"]

# Every whitespace character but the space, made a space (length kept); runs are left to SITE.
_OTHER_SPACE = re.compile(  # every character str.isspace() holds but " " and "\n" (tested)
    "[\t\x0b\x0c\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


#: A long text is folded in pieces of about this many characters, cut at a single space (no
#: fold joins across one), so that a ligature or an ellipsis in one paragraph does not send
#: the whole page down the slower road.
PIECE_CHARS = 4096
SMALL_PIECE_CHARS = 256


def fold_mapped(text: str) -> Folded:
    """Fold ``text`` and keep the map back to it. Does not strip the ends (the map stays simple)."""
    work = text.replace("\n", " ")
    if _OTHER_SPACE.search(work):
        work = _OTHER_SPACE.sub(" ", work)
    return _fold_pieces(text, work, PIECE_CHARS)


def _fold_pieces(source: str, work: str, size: int) -> Folded:
    """Fold piece by piece; a piece that does not fold one to one is cut smaller first, so
    that the slower road is taken only around the characters that need it."""
    if len(work) <= 2 * size:
        cased = _cased_one_to_one(work)
        if cased is not None:
            return _fold_simple(source, cased)
        if size <= SMALL_PIECE_CHARS or len(work) <= 2 * SMALL_PIECE_CHARS:
            return fold_general(source, work)
        size = SMALL_PIECE_CHARS
    end = _cut(work, size)
    if end == len(work):  # no place to cut: one piece after all
        cased = _cased_one_to_one(work)
        return _fold_simple(source, cased) if cased is not None else fold_general(source, work)
    built = Builder()
    start = 0
    while start < len(work):
        built.extend(_fold_pieces(source[start:end], work[start:end], size), start)
        start, end = end, _cut(work, end + size)
    return built.done(lower=False)


def fold_text(text: str) -> str:
    """``fold_mapped(text).text`` without the map, faster (the map is only needed to show a
    passage in the page's own characters)."""
    work = text.replace("\n", " ")
    if _OTHER_SPACE.search(work):
        work = _OTHER_SPACE.sub(" ", work)
    return _fold_pieces_text(text, work, PIECE_CHARS)


class LazyFolded(SourceSpans):
    """A long text folded without its map; the map of a piece is made when a span in it is
    asked for (only a passage not found is shown in the page's own characters)."""

    def __init__(self, source: str) -> None:
        self.source = source
        work = source.replace("\n", " ")
        if _OTHER_SPACE.search(work):
            work = _OTHER_SPACE.sub(" ", work)
        self._src_starts: list[int] = []
        self._fold_starts: list[int] = []
        parts: list[str] = []
        start, folded = 0, 0
        while start < len(work) or not parts:
            end = _cut(work, start + PIECE_CHARS) if len(work) - start > 2 * PIECE_CHARS \
                else len(work)
            part = _fold_pieces_text(source[start:end], work[start:end], PIECE_CHARS)
            self._src_starts.append(start)
            self._fold_starts.append(folded)
            parts.append(part)
            start, folded = end, folded + len(part)
        self._src_starts.append(len(source))
        self.text = "".join(parts)
        self._maps: dict[int, Folded] = {}

    def _char_source(self, pos: int) -> tuple[int, int]:
        i = max(0, bisect_right(self._fold_starts, pos) - 1)
        if i not in self._maps:
            self._maps[i] = fold_mapped(self.source[self._src_starts[i] : self._src_starts[i + 1]])
        a, b = self._maps[i]._char_source(pos - self._fold_starts[i])
        return a + self._src_starts[i], b + self._src_starts[i]


def _fold_pieces_text(source: str, work: str, size: int) -> str:
    """As _fold_pieces, without the map."""
    if len(work) <= 2 * size:
        cased = _cased_one_to_one(work)
        if cased is not None:
            return _fold_simple_text(source, cased)
        if size <= SMALL_PIECE_CHARS or len(work) <= 2 * SMALL_PIECE_CHARS:
            return fold_general(source, work).text
        size = SMALL_PIECE_CHARS
    end = _cut(work, size)
    if end == len(work):  # no place to cut: one piece after all
        cased = _cased_one_to_one(work)
        return (_fold_simple_text(source, cased) if cased is not None
                else fold_general(source, work).text)
    parts = []
    start = 0
    while start < len(work):
        parts.append(_fold_pieces_text(source[start:end], work[start:end], size))
        start, end = end, _cut(work, end + size)
    return "".join(parts)


def _fold_simple_text(source: str, cased: str) -> str:
    """As _fold_simple, without the map: case and marks, then the runs, all in C."""
    if "&" in cased and _ENTITY.search(cased):  # rare in extracted text: take the long way
        return _fold_simple(source, cased).text
    work = cased
    if "  " in work:  # these three never touch one another, so their order does not matter
        work = _SPACE_RUN.sub(" ", work)
    if "--" in work:
        work = _DASH_RUN.sub("-", work)
    return work.replace("\u2026", "...") if "\u2026" in work else work


def _cut(work: str, at: int) -> int:
    """The first space at or after ``at`` between two letters or digits (nothing folds across
    one), or the end of the text."""
    at = work.find(" ", at)
    while at > 0 and not (work[at - 1].isalnum() and work[at + 1 : at + 2].isalnum()):
        at = work.find(" ", at + 1)
    return len(work) if at <= 0 else at


# Characters that never fold to exactly one, whatever NFKC says of them: deleted ones,
# exponents, fractions.
_NOT_ONE_AT = re.compile(
    "[" + "".join(re.escape(chr(c)) for c, v in MARKS.items() if v is None)
    + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾" + VULGAR + "]")
_SIMPLE_TRIGGER = re.compile("  +|&|--+|\u2026")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_SPACE_RUN = re.compile("  +")  # a literal prefix: found faster than " {2,}"
_DASH_RUN = re.compile("-{2,}")


def _cased_one_to_one(work: str) -> str | None:
    """``work`` case-folded with its marks made one, when every character of it but "…" folds
    to exactly one; else None. Decided in C over the whole text: no deleted character,
    exponent or fraction, nothing NFKC would change (so nothing composes either), and a case
    fold that keeps the length (it never shortens)."""
    if work.isascii():
        return work.lower()
    if _NOT_ONE_AT.search(work):
        return None
    probe = work.replace("\u2026", "") if "\u2026" in work else work
    if not unicodedata.is_normalized("NFKC", probe):
        return None
    cased = work.casefold()
    if len(cased) != len(work):
        return None
    if MARKS_AT.search(cased):
        for mark in set(MARKS_AT.findall(cased)):
            cased = cased.replace(mark, MARKS[ord(mark)] or "")
    return cased


def _fold_simple(source: str, work: str) -> Folded:
    """The fold of a text whose characters fold one to one (but "…"), given case-folded with
    its marks made one: only runs of spaces, entities, runs of dashes and "…" are sites."""
    built = Builder()
    last = 0
    for trigger in _SIMPLE_TRIGGER.finditer(work):
        start, end = trigger.span()
        if start < last:
            continue
        first = work[start]
        if first == "\u2026":
            repl = "..."
        elif first == "-":
            repl = "-"
        else:
            m = SITE.match(work, start)
            if m is None:
                continue
            end = m.end()
            if m.lastgroup == "ws":
                repl = " "
                if start > last and work[start - 1] == " ":
                    start -= 1
            else:
                repl = fold_entity(source[start:end])
        if start > last:
            built.plain(work[last:start])
        built.site(start, end, repl)
        last = end
    if last < len(work):
        built.plain(work[last:])
    return built.done(lower=False)


def fold(text: str) -> str:
    """The folded form of ``text``, ends stripped (used for passages and prompts)."""
    return fold_text(text).strip()
