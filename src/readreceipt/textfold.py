"""Folding text so that a page and an answer typeset by different hands can be compared.

Used by :mod:`readreceipt.quotes` on both sides of every comparison, so both sides are always
folded by the same function. :func:`fold_mapped` (and :func:`fold`): entities decoded, NFKC,
case folded, curly and straight marks made one, the several dashes made one hyphen, soft
hyphens and zero-width characters removed, whitespace runs made one space. The result keeps a
map back to the original text, so a passage located in the folded page can be shown in the
page's own characters. (What else may differ and still match is :mod:`readreceipt.textmatch`.)

Invariant, checked by the must-not-match tables in tests/test_textfold.py: no fold removes or
changes a digit, a sign (``-`` ``+`` ``±``), an inequality, a decimal point or a percent sign.
Exponents keep a ``^`` so that ``10²`` never reads as ``102``; a vulgar fraction after a digit
is set apart so ``1½`` never reads as ``11/2``.

Speed: most pages fold one character to one (curly marks and dashes included), and those are
folded over the whole text at once, with only runs of spaces, entities, runs of dashes and "…"
as places where the length changes; other texts are folded run by run.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Folded", "LazyFolded", "fold", "fold_mapped", "fold_text"]

# One character for each family of marks. Applied before NFKC (for characters NFKC would
# decompose awkwardly) and again after it (for characters NFKC produces).
_MARKS: dict[int, str | None] = {}
for _ch in "\u2018\u2019\u201a\u201b\u2032\u02bc\u2039\u203a\uff07":
    _MARKS[ord(_ch)] = "'"
for _ch in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u301d\u301e\uff02":
    _MARKS[ord(_ch)] = '"'
for _ch in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b":
    _MARKS[ord(_ch)] = "-"
# Invisible: a line-breaking hint (soft hyphen), zero-width spaces and joiners, word joiner,
# invisible operators, byte-order mark, pdfium's broken-word mark, direction marks.
for _ch in (
    "\u00ad\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\ufffe\u180e"
    "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
):
    _MARKS[ord(_ch)] = None
# Different glyphs for one relation; never a change of relation (≤ stays ≤, never <).
_MARKS[ord("\u223c")] = "~"  # tilde operator, what TeX's \sim renders
_MARKS[ord("\u2a7d")] = "\u2264"  # slanted ≤
_MARKS[ord("\u2a7e")] = "\u2265"  # slanted ≥
_MARKS[ord("\u2044")] = "/"  # fraction slash, what NFKC writes inside ½
_MARKS[ord("\u2215")] = "/"  # division slash

_MARKS_AT = re.compile("[" + "".join(re.escape(chr(c)) for c in _MARKS) + "]")
# Everything a fold treats specially besides NFKC and case: marks, superscripts, fractions.
_SPECIAL_AT = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in _MARKS) + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉]")


def _marks(text: str) -> str:
    """``text`` with _MARKS applied (a scan in C first: most runs hold none of them)."""
    return text.translate(_MARKS) if _MARKS_AT.search(text) else text


# Exponents are kept apart from the digits before them: NFKC alone reads 10² as 102.
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾", "0123456789+-=()")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾]+")
_VULGAR = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"
_VULGAR_AT = re.compile(f"[{_VULGAR}]")
_VULGAR_AFTER_DIGIT = re.compile(f"(?<=[0-9])(?=[{_VULGAR}])")
_DASHES = "\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b"  # a regex class body

# What the folding has to look at; everything else is ASCII that only needs lower-casing,
# which keeps length, so the map records only the places where the length changes.
_WS_ENTITY = r"&(?i:nbsp|ensp|emsp|thinsp|#0*(?:9|10|13|32|160)|#x0*(?:9|a|d|20|a0));"
_SITE = re.compile(
    rf"(?P<ws>(?:\s|{_WS_ENTITY}){{2,}}|[^\S ]|{_WS_ENTITY})"
    r"|(?P<ent>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    rf"|(?P<dash>[-{_DASHES}]{{2,}}|[{_DASHES}])"
)
_DASH_SET = frozenset(
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b")
_RUN_STOP = re.compile(rf"[A-Za-z&\-{_DASHES}\x00-\x1f\x7f]")
# Where a site can start: any character but printable ASCII other than "&" and "-" (with what
# follows it), or a run of spaces. One character class first, so the scan over the common
# characters stays in C; _SITE then decides at each such place.
_TRIGGER = re.compile(r"[^ -%'-,.-~][^!-%'-,.-~]*|  +")
# Every whitespace character but the space, made a space (length kept); runs are left to _SITE.
_OTHER_SPACE = re.compile(  # every character str.isspace() holds but " " and "\n" (tested)
    "[\t\x0b\x0c\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _fold_chars(run: str, after_digit: bool = False) -> str:
    """Fold a run of text holding no entity, no run of spaces and no run of ASCII hyphens."""
    if len(run) <= 8:
        return _fold_short(run, after_digit)
    return _fold_run(run, after_digit)


def _fold_run(run: str, after_digit: bool) -> str:
    if run.isascii():
        return run.lower()
    if after_digit and run[0] in _VULGAR:
        run = " " + run
    special = _SPECIAL_AT.search(run) is not None
    if special:
        if _SUPERSCRIPT_RUN.search(run):
            run = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), run)
        if _VULGAR_AT.search(run):
            run = _VULGAR_AFTER_DIGIT.sub(" ", run)
        run = _marks(run)
    if not unicodedata.is_normalized("NFKC", run):
        run = unicodedata.normalize("NFKC", run)
        special = True  # NFKC can write a mark of its own (a non-breaking hyphen, say)
    run = run.casefold()
    return _marks(run) if special else run


_fold_short = lru_cache(maxsize=4096)(_fold_run)


def _fold_entity(entity: str) -> str:
    decoded = html.unescape(entity)
    if decoded == entity:
        return entity.lower()
    if decoded.isspace():
        return " "
    return _fold_chars(decoded) if not decoded.isascii() else decoded.lower()


@dataclass(frozen=True)
class Folded:
    """A folded text and the places where its length differs from the original's."""

    text: str
    # Each site where folding changed the length: folded [start, end) came from source
    # [start, end). Between sites the two texts run in step, character for character.
    fold_starts: tuple[int, ...]
    fold_ends: tuple[int, ...]
    src_starts: tuple[int, ...]
    src_ends: tuple[int, ...]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that folded into ``text[start:end]``."""
        first = self._char_source(start)[0]
        if end <= start:
            return first, first
        return first, self._char_source(end - 1)[1]

    def _char_source(self, pos: int) -> tuple[int, int]:
        """The source span that folded into the character at ``pos``."""
        i = bisect_right(self.fold_starts, pos) - 1
        if i < 0:
            return pos, pos + 1
        if pos < self.fold_ends[i]:
            return self.src_starts[i], self.src_ends[i]
        at = self.src_ends[i] + (pos - self.fold_ends[i])
        return at, at + 1


class _Builder:
    """The folded text as it is built, and the sites where its length differs."""

    __slots__ = ("fe", "fs", "out", "pos", "se", "ss")

    def __init__(self) -> None:
        self.out: list[str] = []
        self.fs: list[int] = []
        self.fe: list[int] = []
        self.ss: list[int] = []
        self.se: list[int] = []
        self.pos = 0  # length of the folded text so far

    def plain(self, piece: str) -> None:
        self.out.append(piece)
        self.pos += len(piece)

    def site(self, src_start: int, src_end: int, repl: str, *, exact: bool = True) -> None:
        """``repl`` folded from source[src_start:src_end]; ``exact`` when, of equal length,
        its characters also correspond one to one."""
        if len(repl) != src_end - src_start or not exact:
            self.fs.append(self.pos)
            self.fe.append(self.pos + len(repl))
            self.ss.append(src_start)
            self.se.append(src_end)
        self.out.append(repl)
        self.pos += len(repl)

    def extend(self, part: Folded, src_offset: int) -> None:
        """Append the fold of a piece of the source that starts at ``src_offset``."""
        self.fs.extend(self.pos + f for f in part.fold_starts)
        self.fe.extend(self.pos + f for f in part.fold_ends)
        self.ss.extend(src_offset + s for s in part.src_starts)
        self.se.extend(src_offset + s for s in part.src_ends)
        self.out.append(part.text)
        self.pos += len(part.text)

    def done(self, *, lower: bool) -> Folded:
        text = "".join(self.out)
        return Folded(text.lower() if lower else text, tuple(self.fs), tuple(self.fe),
                      tuple(self.ss), tuple(self.se))


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
            return _fold_general(source, work)
        size = SMALL_PIECE_CHARS
    end = _cut(work, size)
    if end == len(work):  # no place to cut: one piece after all
        cased = _cased_one_to_one(work)
        return _fold_simple(source, cased) if cased is not None else _fold_general(source, work)
    built = _Builder()
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


class LazyFolded:
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

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the source that folded into ``text[start:end]``."""
        first = self._char_source(start)[0]
        if end <= start:
            return first, first
        return first, self._char_source(end - 1)[1]

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
            return _fold_general(source, work).text
        size = SMALL_PIECE_CHARS
    end = _cut(work, size)
    if end == len(work):  # no place to cut: one piece after all
        cased = _cased_one_to_one(work)
        return (_fold_simple_text(source, cased) if cased is not None
                else _fold_general(source, work).text)
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
    "[" + "".join(re.escape(chr(c)) for c, v in _MARKS.items() if v is None)
    + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾" + _VULGAR + "]")
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
    if _MARKS_AT.search(cased):
        for mark in set(_MARKS_AT.findall(cased)):
            cased = cased.replace(mark, _MARKS[ord(mark)] or "")
    return cased


def _fold_simple(source: str, work: str) -> Folded:
    """The fold of a text whose characters fold one to one (but "…"), given case-folded with
    its marks made one: only runs of spaces, entities, runs of dashes and "…" are sites."""
    built = _Builder()
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
            m = _SITE.match(work, start)
            if m is None:
                continue
            end = m.end()
            if m.lastgroup == "ws":
                repl = " "
                if start > last and work[start - 1] == " ":
                    start -= 1
            else:
                repl = _fold_entity(source[start:end])
        if start > last:
            built.plain(work[last:start])
        built.site(start, end, repl)
        last = end
    if last < len(work):
        built.plain(work[last:])
    return built.done(lower=False)


def _fold_general(source: str, text: str) -> Folded:
    """The fold of any text: each run of characters that are not ASCII folded on its own, cut
    where the length changes so the map stays fine-grained."""
    built = _Builder()
    last = 0

    def fold_run(start: int, end: int, after_digit: bool) -> None:
        run = text[start:end]
        pieces = _run_pieces_cached(run, after_digit) if len(run) <= 16 else \
            _run_pieces(run, after_digit)
        for offset, length, folded, exact in pieces:
            if exact:
                built.plain(folded)
            else:
                built.site(start + offset, start + offset + length, folded, exact=False)

    for trigger in _TRIGGER.finditer(text):
        at, stop = trigger.span()
        at = max(at, last)
        while at < stop:
            if text[at] > "\x7f" and text[at] not in _DASH_SET:
                # A run: from a character that is not ASCII on, over spaces, digits and
                # punctuation, to the next ASCII letter, entity, dash or run of spaces. A
                # Cyrillic paragraph is then one run, folded in one call.
                start, kind = at, "uni"
                stopper = _RUN_STOP.search(text, at + 1)
                end = stopper.start() if stopper else len(text)
                spaces = text.find("  ", at + 1, end)
                end = spaces if spaces >= 0 else end
                while text[end - 1] == " ":  # a space before what stops the run is not its
                    end -= 1
            else:
                m = _SITE.match(text, at)
                if m is None:
                    at += 1
                    continue
                start, end = m.span()
                kind = m.lastgroup or ""
            # The character before may belong to the site: the space before a line break,
            # the letter a combining mark sits on.
            if start > last and (
                (kind == "ws" and text[start - 1] == " ")
                or (kind == "uni" and unicodedata.combining(source[start])
                    and text[start - 1].isascii())
            ):
                start -= 1
            if start > last:
                built.plain(text[last:start])
            if kind == "ws":
                built.site(start, end, " ")
            elif kind == "ent":
                built.site(start, end, _fold_entity(text[start:end]))
            elif kind == "dash":
                built.site(start, end, "-")
            else:
                fold_run(start, end, text[start - 1 : start].isdigit())
            last = at = end
    if last < len(text):
        built.plain(text[last:])
    return built.done(lower=True)


@lru_cache(maxsize=8192)
def _irregular(ch: str) -> bool:
    """Whether ``ch`` does not fold to exactly one character on its own: it expands (a
    ligature, an exponent, a fraction), vanishes (a soft hyphen), or may join its neighbour
    (a combining mark, a Hangul jamo)."""
    return (unicodedata.category(ch)[0] == "M" or "\u1100" <= ch <= "\u11ff"
            or len(_fold_short(ch, False)) != 1)




def _irregular_pattern(run: str) -> re.Pattern[str] | None:
    """A pattern for the places of ``run`` that do not fold one to one, or None."""
    # The common case, decided in C: nothing for NFKC to change, a case fold that keeps the
    # length (it never shortens), nothing to delete. Then every character folds to one.
    if (not _SPECIAL_AT.search(run) and unicodedata.is_normalized("NFKC", run)
            and len(run.casefold()) == len(run)):
        return None
    odd = [ch for ch in set(run) if not ch.isascii() and _irregular(ch)]
    if not odd:
        return None
    marks = "".join(re.escape(ch) for ch in odd if unicodedata.category(ch)[0] == "M")
    others = "".join(re.escape(ch) for ch in odd if unicodedata.category(ch)[0] != "M")
    parts = [f"[{others}][{marks}]*" if others and marks else f"[{others}]" if others else ""]
    if marks:
        parts.append(f".?[{marks}]+")
    return re.compile("|".join(p for p in parts if p), re.S)


def _run_pieces(run: str, after_digit: bool) -> tuple[tuple[int, int, str, bool], ...]:
    """(offset, source length, folded, one to one) covering ``run``, cut so that every piece
    either folds one character to one or is a single place that does not."""
    odd = _irregular_pattern(run)
    if odd is None:  # every character folds to exactly one: the run is one piece
        return ((0, len(run), _fold_chars(run, after_digit), True),)
    pieces: list[tuple[int, int, str, bool]] = []
    done = 0
    for m in odd.finditer(run):
        i, j = m.span()
        if i > done:
            folded = _fold_chars(run[done:i], after_digit and done == 0)
            pieces.append((done, i - done, folded, True))
        digit_before = run[i - 1].isdigit() if i else after_digit
        pieces.append((i, j - i, _fold_chars(m.group(), digit_before), False))
        done = j
    if done < len(run):
        pieces.append((done, len(run) - done, _fold_chars(run[done:]), True))
    return tuple(pieces)


_run_pieces_cached = lru_cache(maxsize=8192)(_run_pieces)


def fold(text: str) -> str:
    """The folded form of ``text``, ends stripped (used for passages and prompts)."""
    return fold_text(text).strip()
