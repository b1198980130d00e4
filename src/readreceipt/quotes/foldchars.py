"""The slower road of folding: text folded run by run, with the tables both roads share.

:mod:`readreceipt.quotes.textfold` folds most text in one pass over the whole of it; a piece of text
holding a character that does not fold to exactly one (a ligature, an exponent, a fraction, a
soft hyphen, a combining mark) comes here, where each run of characters that are not ASCII is
folded on its own and cut where its length changes, so the map back to the source stays exact
to the character. The tables of marks, dashes and invisible characters live here too.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "MARKS",
    "MARKS_AT",
    "SITE",
    "VULGAR",
    "WS_ENTITY",
    "Builder",
    "Folded",
    "fold_entity",
    "fold_general",
]

# One character for each family of marks. Applied before NFKC (for characters NFKC would
# decompose awkwardly) and again after it (for characters NFKC produces).
MARKS: dict[int, str | None] = {}
for _ch in "\u2018\u2019\u201a\u201b\u2032\u02bc\u2039\u203a\uff07":
    MARKS[ord(_ch)] = "'"
for _ch in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u301d\u301e\u301f\uff02":
    MARKS[ord(_ch)] = '"'
# CJK corner brackets are quotation marks: the corner brackets (and the vertical forms) as
# double, the white corner brackets, the nested form, as single; pages and answers nest them
# differently.
for _ch in "\u300c\u300d\ufe41\ufe42":
    MARKS[ord(_ch)] = '"'
for _ch in "\u300e\u300f\ufe43\ufe44":
    MARKS[ord(_ch)] = "'"
for _ch in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b":
    MARKS[ord(_ch)] = "-"
# Invisible: a line-breaking hint (soft hyphen), zero-width spaces and joiners, word joiner,
# invisible operators, byte-order mark, pdfium's broken-word mark, direction marks.
for _ch in (
    "\u00ad\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\ufffe\u180e"
    "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
):
    MARKS[ord(_ch)] = None
# Arabic vowel signs and other marks over or under a letter, and the tatweel that stretches a
# word to justify a line; Hebrew points and cantillation. Pages and answers write them or
# leave them out at will (a headline voweled, the same words unvoweled in the answer), as
# every Arabic and Hebrew search engine assumes; the letters stay.
for _code in [*range(0x0610, 0x061B), *range(0x064B, 0x0660), 0x0640, 0x0670,
              *range(0x06D6, 0x06DD), *range(0x06DF, 0x06E5), 0x06E7, 0x06E8,
              *range(0x06EA, 0x06EE), *range(0x0591, 0x05BE), 0x05BF, 0x05C1, 0x05C2, 0x05C4,
              0x05C5, 0x05C7]:
    MARKS[_code] = None
# Different glyphs for one relation; never a change of relation (≤ stays ≤, never <).
MARKS[ord("\u223c")] = "~"  # tilde operator, what TeX's \sim renders
MARKS[ord("\u301c")] = "~"  # wave dash, the Japanese range mark (NFKC makes U+FF5E a tilde)
MARKS[ord("\u2a7d")] = "\u2264"  # slanted ≤
MARKS[ord("\u2a7e")] = "\u2265"  # slanted ≥
MARKS[ord("\u2044")] = "/"  # fraction slash, what NFKC writes inside ½
MARKS[ord("\u2215")] = "/"  # division slash

MARKS_AT = re.compile("[" + "".join(re.escape(chr(c)) for c in MARKS) + "]")
# Everything a fold treats specially besides NFKC and case: marks, superscripts, fractions.
_SPECIAL_AT = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in MARKS) + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉]")


def _marks(text: str) -> str:
    """``text`` with MARKS applied (a scan in C first: most runs hold none of them)."""
    return text.translate(MARKS) if MARKS_AT.search(text) else text


# Exponents are kept apart from the digits before them: NFKC alone reads 10² as 102.
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾", "0123456789+-=()")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾]+")
VULGAR = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"
_VULGAR_AT = re.compile(f"[{VULGAR}]")
_VULGAR_AFTER_DIGIT = re.compile(f"(?<=[0-9])(?=[{VULGAR}])")
_DASHES = "\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b"  # a regex class body

# What the folding has to look at; everything else is ASCII that only needs lower-casing,
# which keeps length, so the map records only the places where the length changes.
WS_ENTITY = r"&(?i:nbsp|ensp|emsp|thinsp|#0*(?:9|10|13|32|160)|#x0*(?:9|a|d|20|a0));"
SITE = re.compile(
    rf"(?P<ws>(?:\s|{WS_ENTITY}){{2,}}|[^\S ]|{WS_ENTITY})"
    r"|(?P<ent>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    rf"|(?P<dash>[-{_DASHES}]{{2,}}|[{_DASHES}])"
)
_DASH_SET = frozenset(
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b")
_RUN_STOP = re.compile(rf"[A-Za-z&\-{_DASHES}\x00-\x1f\x7f]")
# Where a site can start: any character but printable ASCII other than "&" and "-" (with what
# follows it), or a run of spaces. One character class first, so the scan over the common
# characters stays in C; SITE then decides at each such place.
_TRIGGER = re.compile(r"[^ -%'-,.-~][^!-%'-,.-~]*|  +")
def _fold_chars(run: str, after_digit: bool = False) -> str:
    """Fold a run of text holding no entity, no run of spaces and no run of ASCII hyphens."""
    if len(run) <= 8:
        return _fold_short(run, after_digit)
    return _fold_run(run, after_digit)


def _fold_run(run: str, after_digit: bool) -> str:
    if run.isascii():
        return run.lower()
    if after_digit and run[0] in VULGAR:
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


def fold_entity(entity: str) -> str:
    decoded = html.unescape(entity)
    if decoded == entity:
        return entity.lower()
    if decoded.isspace():
        return " "
    return _fold_chars(decoded) if not decoded.isascii() else decoded.lower()


class SourceSpans:
    """Maps a span of folded text back to the source characters it came from; a subclass
    says where one folded character came from."""

    def _char_source(self, pos: int) -> tuple[int, int]:
        raise NotImplementedError

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the source that folded into ``text[start:end]``."""
        first = self._char_source(start)[0]
        if end <= start:
            return first, first
        return first, self._char_source(end - 1)[1]


@dataclass(frozen=True)
class Folded(SourceSpans):
    """A folded text and the places where its length differs from the original's."""

    text: str
    # Each site where folding changed the length: folded [start, end) came from source
    # [start, end). Between sites the two texts run in step, character for character.
    fold_starts: tuple[int, ...]
    fold_ends: tuple[int, ...]
    src_starts: tuple[int, ...]
    src_ends: tuple[int, ...]

    def _char_source(self, pos: int) -> tuple[int, int]:
        """The source span that folded into the character at ``pos``."""
        i = bisect_right(self.fold_starts, pos) - 1
        if i < 0:
            return pos, pos + 1
        if pos < self.fold_ends[i]:
            return self.src_starts[i], self.src_ends[i]
        at = self.src_ends[i] + (pos - self.fold_ends[i])
        return at, at + 1


class Builder:
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


def fold_general(source: str, text: str) -> Folded:
    """The fold of any text: each run of characters that are not ASCII folded on its own, cut
    where the length changes so the map stays fine-grained."""
    built = Builder()
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
                m = SITE.match(text, at)
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
                built.site(start, end, fold_entity(text[start:end]))
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

