"""What follows a number in a text: its scale word, currency, percent sign, unit, ordinal
mark or hedge, read by :class:`Suffix` from where the number ends.

Split from :mod:`readreceipt.quotes.figures` (which reads the number itself and builds the
figure); the characters both read by (the spaces between a number and its word, the CJK
counters, the ordinal endings) are defined here, once.

Invariants: every pattern is bounded and anchored where the number ends, so reading what
follows one number costs a bounded number of steps (at most four words, each looked for
within 40 characters; a unit's or a percent's phrase of at most three words within 60; a CJK
run of at most seven characters); pure: no I/O.
"""

# ruff: noqa: RUF001 - the characters people write numbers and units with
from __future__ import annotations

import re
import unicodedata
from typing import TypeVar

from readreceipt.quotes.units import (
    CURRENCIES,
    HEDGES_AFTER,
    PERCENT,
    PERCENT_POINTS,
    SCALES,
    SCALES_BEFORE_SIGN,
    SCALES_CASED,
    SCALES_CJK,
    SCALES_GLUED,
    UNITS,
    Currency,
    Unit,
)

__all__ = ["CJK_COUNTERS", "ORDINAL_SUFFIXES", "SPACE", "TIMES", "Suffix", "digits_follow"]

#: The spaces a number and its word may stand apart by (the narrow and the no-break ones).
SPACE = " \u00a0\u202f\u2009"
#: The CJK counters and signs a CJK number is written with ("三个", "五年", "百点").
CJK_COUNTERS = ("个個人名年月日号件次倍位家岁歳天条項项种万萬亿億元円点%％場场座所台辆輛"
                "架艘头頭只隻本部册冊篇期届屆周週分秒度")
#: An ordinal's endings glued to its number, in the languages the tables hold ("1st", "2e").
ORDINAL_SUFFIXES = frozenset(("st", "nd", "rd", "th", "e", "er", "re", "ère", "ème", "eme",
                              "ième", "o", "a", "º", "ª", "te", "de", "ste", "ten", "ter"))
_T = TypeVar("_T")

_NEXT_WORD = re.compile(rf"[{SPACE}]{{0,2}}(-?)([^\W\d_]{{1,24}}\.?|[%％‰°º℃℉€£¥₹₩₽$¢₺₦₪₫₴]"
                        rf"|m²|m³|km²|km/h|m/s|°[CF])")
_SYMBOL_UNITS = ("km/h", "m/s", "km²", "m²", "m³", "°C", "°F", "°c", "°f", "℃", "℉")


def digits_follow(text: str, at: int) -> bool:
    """A digit, or a sign then a digit, at ``at``: "1e6" and "2e-3" are numbers written in
    exponent form, not the French ordinal "1e" followed by something."""
    ahead = text[at:at + 2]
    return ahead[:1].isdigit() or (ahead[:1] in "+-" and ahead[1:2].isdigit())


class Suffix:
    """What follows a number: scale word, currency, percent, unit, ordinal mark, hedge."""

    def __init__(self, text: str, end: int) -> None:
        self.scale = 0.0
        self.scale_word = ""
        self.currency: Currency | None = None
        self.percent = False
        self.unit: Unit | None = None
        self.unit_text = ""
        self.ordinal = False
        self.hedge: str | None = None
        self.end = end
        self._read(text, end)

    def merged(self, other: Suffix) -> Suffix:
        self.currency = self.currency or other.currency
        self.percent = self.percent or other.percent
        self.unit = self.unit or other.unit
        self.unit_text = self.unit_text or other.unit_text
        self.end = max(self.end, other.end)
        return self

    def drop_unit(self, text: str) -> None:
        """The unit word read is none: the figure ends before it."""
        stop = self.end - len(self.unit_text)
        while stop > 0 and text[stop - 1] in SPACE:
            stop -= 1
        self.unit, self.unit_text, self.end = None, "", stop

    def _read(self, text: str, end: int) -> None:
        at = end
        if at < len(text) and unicodedata.east_asian_width(text[at]) == "W":
            self._read_cjk(text, at)
            return
        glued = True
        for _step in range(4):
            m = _NEXT_WORD.match(text, at, min(len(text), at + 40))
            if m is None:
                break
            word = m.group(2)
            if len(word) > 1 and word.endswith(".") and word.rstrip(".").lower() not in SCALES \
                    and word not in SCALES_CASED:
                word = word[:-1]  # a sentence's full stop, not an abbreviation's
            low = word.lower()
            spaced = m.start(2) > at + len(m.group(1))
            hyphen = bool(m.group(1))
            if glued and not spaced and not hyphen and low in ORDINAL_SUFFIXES and \
                    not self.scale and not self.unit and not self.currency and \
                    not digits_follow(text, m.end()):
                self.ordinal = True
                self.end = m.end()
                return
            if not self.scale and not self.unit and not self.percent and (
                    (glued and not spaced and word in SCALES_GLUED)
                    or word in SCALES_CASED or low.rstrip(".") in SCALES or low in SCALES
                    or (word in SCALES_BEFORE_SIGN and text[m.end():m.end() + 1] in "€$£")):
                factors = SCALES_CASED.get(word) or SCALES_GLUED.get(word) if (
                    not spaced and word in SCALES_GLUED) else SCALES_CASED.get(word) or \
                    SCALES.get(low) or SCALES.get(low.rstrip(".")) or \
                    SCALES_BEFORE_SIGN.get(word)
                if factors:
                    self.scale, self.scale_word = factors[0], word
                    at = self.end = m.end()
                    if word.endswith(".") and low not in SCALES and word not in SCALES_CASED:
                        at = self.end = m.end() - 1  # "million." ends a sentence
                    at = _skip_of(text, at)
                    glued = False
                    continue
            if word in ("%", "％") or self._phrase(text, m, PERCENT):
                self.percent = True
                self.unit_text = self.unit_text or word
                if word in ("%", "％"):
                    self.end = m.end()
                return
            if self._phrase(text, m, PERCENT_POINTS):
                self.percent = True
                return
            currency = CURRENCIES.get(low) if not (low.isalpha() and len(low) <= 3 and
                                                   word.islower() and low not in _LOWER_SIGNS) \
                else None
            if currency is None and unicodedata.east_asian_width(word[0]) == "W":
                cjk_currency = _cjk_currency(word)  # "100 달러를": the sign, then a particle
                if cjk_currency is not None:
                    currency, word = cjk_currency
            if currency is None and low in ("euro", "euros", "dollars", "dollar", "yen",
                                            "yuan", "rupees", "won", "pounds"):
                currency = CURRENCIES.get(low)
            if low in ("pound", "pounds") and "sterling" not in text[m.end(): m.end() + 10]:
                currency = None  # pounds of weight, unless said sterling (or written £)
            if currency is not None and self.currency is None and not self.unit:
                self.currency = currency
                self.unit_text = word
                self.end = m.start(2) + len(word)  # "1.234,50 Euro." ends before the stop
                return
            unit = self._unit(text, m)
            if unit is not None and not self.unit:
                self.unit, self.unit_text = unit
                if glued and word.lower() == "x":
                    pass
                return
            if glued and not spaced and low == "x":
                self.unit = TIMES
                self.unit_text = "x"
                self.end = m.end()
                return
            hedge = HEDGES_AFTER.get(" ".join(text[m.start(2): m.start(2) + 9].lower().split()[:2]))
            if hedge:
                self.hedge = hedge
            return

    def _phrase(self, text: str, m: re.Match[str], table: frozenset[str]) -> bool:
        words = _phrase_words(text, m.start(2))
        for size in (3, 2, 1):
            if len(words) < size:
                continue
            phrase = " ".join(w for w, _ in words[:size]).lower().rstrip(".,;:)")
            if phrase in table:
                last, end = words[size - 1]
                self.end = end - (len(last) - len(last.rstrip(".,;:)")))
                return True
        return False

    def _unit(self, text: str, m: re.Match[str]) -> tuple[Unit, str] | None:
        start = m.start(2)
        for symbol in _SYMBOL_UNITS:
            if text.startswith(symbol, start):
                unit = UNITS.get(symbol.lower())
                if unit is not None:
                    self.end = start + len(symbol)
                    return unit, symbol
        spans = _phrase_words(text, start)
        words = [w for w, _ in spans]
        for size in (3, 2, 1):
            phrase = " ".join(words[:size]).rstrip(".,;:)!?").lower()
            unit = UNITS.get(phrase)
            if unit is None and size == 1 and phrase.endswith("."):
                unit = UNITS.get(phrase.rstrip("."))
            if unit is not None and size == 1 and len(phrase) <= 3:
                written = " ".join(words[:1]).rstrip(".,;:)!?")
                if written != phrase and written != unit.name:
                    unit = None  # "5G", "4K": a short unit is written in its own case
            if unit is not None and len(words) >= size:
                if phrase in _WEAK_ALONE and m.start(2) - m.start() > 2:
                    return None
                last, end = spans[size - 1]
                self.end = end - (len(last) - len(last.rstrip(".,;:)!?")))
                return unit, text[start:self.end]
        cjk = _cjk_unit(words[0]) if words and \
            unicodedata.east_asian_width(words[0][0]) == "W" else None
        if cjk is not None:  # "5 킬로미터를", "5 キロを": the unit, then a particle or a verb
            self.end = start + len(cjk[1])
            return cjk
        if m.group(2) == "°":
            self.end = m.end()
            return _DEGREE, "°"
        # (German writes the noun too: "2 Mal")
        if m.group(2).lower() in ("times", "fold", "mal", "fois", "veces", "volte", "vezes",
                                  "keer", "раз", "razy", "krát"):
            self.end = m.end()
            return TIMES, m.group(2)
        return None

    def _read_cjk(self, text: str, at: int) -> None:
        run = text[at: at + 6]
        i = 0
        factor = 1.0
        while i < len(run) and run[i] in SCALES_CJK and SCALES_CJK[run[i]] >= 10:
            factor *= SCALES_CJK[run[i]]
            i += 1
        if i:
            self.scale = factor
            self.scale_word = run[:i]
            self.end = at + i
        if i and text[at + i: at + i + 1] == " ":
            i += 1
        rest = text[at + i: at + i + 7]
        if (rest[:1] and rest[0] in CJK_COUNTERS and HEDGES_AFTER.get(rest[1:3])) or \
                HEDGES_AFTER.get(rest[1:2]):
            self.hedge = HEDGES_AFTER.get(rest[1:3]) or HEDGES_AFTER.get(rest[1:2])
        for size in (6, 5, 4, 3, 2, 1):
            piece = rest[:size]
            if piece in ("%", "％", "パーセント", "퍼센트"):
                self.percent, self.unit_text = True, piece
                self.end = at + i + size
                return
            currency = CURRENCIES.get(piece)
            if currency is not None and len(piece) == size:
                self.currency, self.unit_text = currency, piece
                self.end = at + i + size
                return
            unit = UNITS.get(piece)
            if unit is not None and len(piece) == size and piece not in ("年", "日", "分"):
                self.unit, self.unit_text = unit, piece
                self.end = at + i + size
                return
            if piece in ("倍", "배"):
                self.unit, self.unit_text = TIMES, piece
                self.end = at + i + size
                return
            hedge = HEDGES_AFTER.get(piece)
            if hedge:
                self.hedge = hedge
                return
            if piece in ("位", "위", "등", "番"):
                self.ordinal = True
                return


#: What a Korean word goes on with after a unit or a currency: its particles and endings
#: ("킬로미터를", "달러가", "원이다"); a Hangul run that goes on otherwise is another word.
_KOREAN_PARTICLES = frozenset((
    "", "을", "를", "이", "가", "은", "는", "의", "에", "로", "으로", "와", "과", "도", "만",
    "까지", "부터", "씩", "에서", "이다", "이며", "이고", "이나", "나", "에서는", "으로는", "가량",
    "짜리"))


def _cjk_unit(run: str) -> tuple[Unit, str] | None:
    """The unit a CJK or Hangul run begins with, longest first ("킬로미터를": 킬로미터, "キロ
    メートルを": キロメートル); a day, a year or a minute is a date's part, not read here."""
    found = _cjk_prefix(run, UNITS, ("年", "日", "分"))
    return None if found is None else (found[0], found[1])


def _cjk_currency(run: str) -> tuple[Currency, str] | None:
    """The currency a CJK or Hangul run spaced from its number begins with ("달러를")."""
    found = _cjk_prefix(run, CURRENCIES, ())
    return None if found is None else (found[0], found[1])


def _cjk_prefix(run: str, table: dict[str, _T], skip: tuple[str, ...]
                ) -> tuple[_T, str] | None:
    """The entry of ``table`` a CJK or Hangul run begins with, longest first: in Korean only
    when what follows it is a particle, in Japanese and Chinese whatever follows."""
    hangul = "\uac00" <= run[:1] <= "\ud7a3"
    for size in range(min(len(run), 6), 0, -1):
        piece = run[:size]
        entry = table.get(piece)
        if entry is not None and piece not in skip and \
                (not hangul or run[size:] in _KOREAN_PARTICLES):
            return entry, piece
    return None


#: Currency signs written in lower case after the number ("100 kr", "3,5 mln zł"): a short
#: lower-case word is otherwise no currency ("100 eur" is rare, "100 all" is English).
_LOWER_SIGNS = frozenset(("rs", "zł", "kr", "kč"))
_WEAK_ALONE = frozenset(("an", "ans", "t", "l", "g", "m", "h", "w", "min", "mi", "ft", "yd",
                         "kn", "dia", "dag", "set", "tag"))
TIMES = Unit("times", "times", 1.0)
_DEGREE = Unit("°", "temperature", 1.0)


_OF = re.compile(r"[ \u00a0]{1,2}(?:de|of|d')[ \u00a0]{0,2}|[ \u00a0]{0,2}d['\u2019]")


def _skip_of(text: str, at: int) -> int:
    """After a scale word, the "de"/"d'"/"of" before a currency ("3 millones de euros")."""
    m = _OF.match(text[at:at + 8])
    if m is None:
        return at
    nxt = text[at + m.end(): at + m.end() + 12].split(" ")[0].lower().rstrip(".,;:")
    return at + m.end() if nxt in CURRENCIES or nxt.rstrip("s") in CURRENCIES else at


#: One word of a unit or percent phrase: it ends at a space or at punctuation that cannot
#: be part of it ("66 percent!", "3,000 meters—the cables", "12 km, then") or at a CJK
#: character ("7.5 milesで").
_CJK_RANGES = "\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef\uac00-\ud7a3"
_PHRASE_WORD = re.compile(
    f"[ \u00a0]{{0,3}}([{_CJK_RANGES}]{{1,30}}"
    f"|[^\\s\u2014\u2013!?,;:()\\[\\]\"\u201c\u201d\u00ab\u00bb\u2026{_CJK_RANGES}]{{1,30}})")


def _phrase_words(text: str, start: int, size: int = 3) -> list[tuple[str, int]]:
    """Up to ``size`` words from ``start``, each with where it ends; punctuation after a
    word ends the phrase (bounded: three matches of a bounded pattern)."""
    out: list[tuple[str, int]] = []
    at, stop = start, min(len(text), start + 60)
    while len(out) < size:
        m = _PHRASE_WORD.match(text, at, stop)
        if m is None or (not out and m.start(1) != start):
            break
        out.append((m.group(1), m.end()))
        at = m.end()
        if at >= stop or not text[at].isspace():
            break
    return out
