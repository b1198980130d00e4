"""Figures in a text: every number with what it counts, as people write it.

:func:`find_figures` reads a text (an answer, or one of a page's texts: the same function on
both sides, so both are always read alike) and returns its :class:`Figure` s in order: a
number with its unit or noun, money with its currency, a percentage, a measurement, a count,
a date or a year, an ordinal or a rank, a range. Each figure carries every reading its
characters allow (:class:`Reading`: "1.200" is 1200 in German and 1.2 in English; a numeric
date 03/04/2026 is 3 April or March 4 until the text's own dates say which order it uses),
and what it was written with: a scale word ("3.5 million"), a hedge ("about"), words
("three", "dreißig", 三千).

What is not a figure (left out, as the quotation check leaves out what is not a passage):
a number glued to Latin, Greek or Cyrillic letters (an identifier: A380, COVID-19, MP3, 5G),
a version or an address (3.11.2, 10.0.0.1), a time of day or a score (10:30, 2:1), a
footnote or list marker ([12], "1. " at a line's start), a number inside a longer digit run
than :data:`MAX_DIGITS`, a decade (1990s), a word that is a number only in a run ("one",
articles).

Invariants: every pattern is bounded (no unbounded repetition) and runs once over the text
or anchored at a number found; the one scan of a page starts only where a digit or a CJK
numeral stands (:mod:`readreceipt.reading.digitscan`: the same matches, without the engine
stepping on every character); the number of figures read from one text is capped
(:data:`MAX_FIGURES`); spelled-out numbers are looked for only among the words the text
holds (one split, one set intersection). Pure: no I/O.
"""


from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from readreceipt.quotes import dates as _dates
from readreceipt.quotes import numberwords
from readreceipt.quotes.suffix import (
    CJK_COUNTERS,
    ORDINAL_SUFFIXES,
    SPACE,
    TIMES,
    Suffix,
    digits_follow,
)
from readreceipt.quotes.units import (
    CURRENCIES,
    HEDGES,
    SCALES,
    SCALES_CASED,
    SCALES_GLUED,
    UNITS,
    Currency,
    Unit,
)
from readreceipt.reading import digitscan

__all__ = ["MAX_DIGITS", "MAX_FIGURES", "Figure", "Reading", "Scan", "find_figures",
           "significant_digits"]

#: Integer digits a number may have (a longer run is an identifier, not a figure).
MAX_DIGITS = 15
#: Figures read from one text; the rest of a longer one are not read (a page of tables).
MAX_FIGURES = 5000

DateParts = _dates.DateParts


@dataclass(frozen=True)
class Reading:
    value: float  # in the figure's own unit, scale words applied ("3.5 million": 3.5e6)
    precision: float  # the place of the last significant digit ("84,000": 1000; "11.8": 0.1)
    step: float = 1.0  # the place of the last digit written ("84,000": 1; "3.5 million": 1e5)

    def times(self, factor: float) -> Reading:
        return Reading(self.value * factor, self.precision * factor, self.step * factor)

    def negated(self) -> Reading:
        return Reading(-self.value, self.precision, self.step)


@dataclass(frozen=True)
class Figure:
    start: int
    end: int
    kind: str  # number | percent | money | measure | date | year | ordinal | range
    readings: tuple[Reading, ...] = ()
    high: tuple[Reading, ...] = ()  # a range's upper end (readings: its lower end)
    unit: Unit | None = None
    currency: Currency | None = None
    percent: bool = False
    hedge: str | None = None  # "about" | "over" | "under"
    scaled: bool = False  # a scale word multiplies the digits ("3.5 million", "3500万")
    spelled: bool = False  # written in words ("three", "dreißig", 三十)
    dates: tuple[DateParts, ...] = ()
    ordinal: bool = False
    unit_text: str = ""  # the unit, currency or percent word as written

    @property
    def dimension(self) -> str | None:
        """What the figure measures, for comparing: None for a plain count or rank."""
        if self.dates:
            return "date"
        if self.percent:
            return "percent"
        if self.currency is not None:
            return "money"
        if self.unit is not None:
            return self.unit.dimension
        return None


# --------------------------------------------------------------------------- the one scan

# (the times and division signs stand amid the Latin-1 letters: "69.1\u00d7151.7" is two
# numbers)
_LATIN_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff"
_CJK_NUM = numberwords.CJK_EVERYDAY + numberwords.CJK_MYRIADS  # the one table's
_MASTER = re.compile(
    # A figure starts with a digit or a CJK numeral: said first, so that the engine skips
    # every other character at once (ten times faster on a page's text than without).
    rf"(?=[\d{_CJK_NUM}])(?:"
    # numeric dates: 2026-03-03, 2026/3/3, 03/03/2026, 3.3.2026
    rf"(?P<date>(?<![\d.,/\-])(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}"
    rf"|\d{{1,2}}[-/.]\d{{1,2}}[-/.](?:\d{{4}}|\d{{2}}))(?!\d|[.,/\-]\d))"
    # CJK and Korean dates: 2026年3月3日, 3月3日, 2026년 3월 3일
    rf"|(?P<cjkdate>(?:\d{{4}}|[〇零一二三四五六七八九]{{4}})\s?[年년]"
    rf"(?:\s?(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})\s?[月월]"
    rf"(?:\s?(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})\s?[日号일])?)?"
    rf"|(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})\s?[月월]\s?(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
    rf"\s?[日号일])"
    # numbers: grouped by any locale's separator, or plain, with a decimal part
    rf"|(?P<num>(?<![{_LATIN_LETTER}\d.,])(?:\d{{1,3}}(?P<sep>[,.'\u2019\uff0c{SPACE}])\d{{3}}"
    rf"(?:(?P=sep)\d{{3}}){{0,5}}(?:[.,]\d{{1,9}})?|\d{{1,2}},\d{{2}},\d{{3}}(?:,\d{{2}},\d{{3}})?"
    rf"|\d{{1,{MAX_DIGITS}}}(?:[.,]\d{{1,9}})?)(?!\d))"
    # CJK numerals where a counter or 第 says they count: 三千五百万元, 第三
    rf"|(?P<cjk>(?<=第)[{_CJK_NUM}]{{1,24}}|(?<=百分之)[{_CJK_NUM}]{{1,24}}"
    rf"|[{_CJK_NUM}]{{1,24}}(?=[{CJK_COUNTERS}])))"
)
#: The words after a time of day: hours in the languages the tables read.
_CLOCK_WORD = re.compile(r"[ \u00a0]?(?:horas?|uhr|heures?|ore|uur|godz\.?|klo|hrs?|h)(?![^\W\d_])",
                         re.I)
_LIST_MARKER = re.compile(r"(?:^|\n)[ \t>*#-]{0,6}$")
_WORD_GLUED = re.compile(rf"[{_LATIN_LETTER}]{{1,20}}")


def find_figures(text: str, *, limit: int = MAX_FIGURES, hedges: bool = True) -> list[Figure]:
    """Every figure of ``text``, in order (at most ``limit``). ``hedges``: read the words
    that say a figure is rounded (an answer's; a page's are not compared)."""
    return Scan(text, limit=limit, hedges=hedges).all()


class Scan:
    """One text's numbers found by the one scan, each read (what stands around it) only
    when asked for (:meth:`at`) or all in order (:meth:`all`).

    A page is asked for the few numbers that may hold an answer's values: reading all of a
    50 KB page's numbers costs ten times the scan, and most are never compared."""

    def __init__(self, text: str, *, limit: int = MAX_FIGURES, hedges: bool = True) -> None:
        self.text = text
        self.limit = limit
        # the engine's own scan, made from the places a digit or a numeral stands
        self.matches = digitscan.scan(_MASTER, text, also=_CJK_NUM, limit=2 * limit)
        self._reader = _Reader(text, self, hedges)
        self._read: dict[int, Figure | None] = {}
        self._mark: tuple[str | None] | None = None
        self._order: tuple[str | None] | None = None

    @property
    def mark(self) -> str | None:
        """The decimal mark the text's numbers show (worked out when first needed)."""
        if self._mark is None:
            self._mark = (decimal_mark(self._cores()),)
        return self._mark[0]

    def _cores(self) -> Iterator[str]:
        """The numbers' cores, but a time of day written with a stop or a comma ("a las
        19.00 horas", "um 7.30 Uhr"): no decimal, so no say in the text's decimal mark."""
        text = self.text
        for m in self.matches:
            if m.lastgroup == "num":
                core = m.group()
                if len(core) in (4, 5) and core[-3] in ".," and \
                        _CLOCK_WORD.match(text, m.end()) is not None:
                    continue
                yield core

    @property
    def order(self) -> str | None:
        """The order of the text's numeric dates (worked out when first needed)."""
        if self._order is None:
            self._order = (_date_order(self.matches),)
        return self._order[0]

    def at(self, i: int) -> Figure | None:
        """The figure that starts with match ``i`` (None: not a figure)."""
        if i not in self._read:
            self._read[i] = self._reader.read(self.matches[i])
        return self._read[i]

    def all(self) -> list[Figure]:
        out: list[Figure] = []
        taken = 0  # the end of the last figure: a range's second number is not read twice
        for i, m in enumerate(self.matches):
            if m.start() < taken:
                continue
            if len(out) >= self.limit:
                break
            figure = self.at(i)
            if figure is not None:
                out.append(figure)
                taken = figure.end
        out.extend(self.spelled(self.limit - len(out), out))
        out.sort(key=lambda f: f.start)
        return out

    def spelled(self, room: int, taken: list[Figure]) -> list[Figure]:
        """The numbers written in words, outside the figures in ``taken``."""
        return self._reader.spelled(room, taken)


def _date_order(matches: list[re.Match[str]]) -> str | None:
    """The order of a text's numeric dates, where one of them shows it (25/12: day first)."""
    day_first = month_first = False
    for m in matches:
        if m.lastgroup != "date":
            continue
        parts = re.split(r"[-/.]", m.group())
        if len(parts) != 3 or len(parts[0]) == 4:
            continue
        day_first = day_first or int(parts[0]) > 12
        month_first = month_first or int(parts[1]) > 12
    if day_first != month_first:
        return "dmy" if day_first else "mdy"
    return None


_SEPARATORS = str.maketrans("", "", ",.'\u2019 \u00a0\u202f\u2009\uff0c")


#: The full-width comma Japanese and Chinese pages group full-width digits with (U+FF0C).
_WIDE_COMMA = "\uff0c"


def significant_digits(match: re.Match[str]) -> str | None:
    """A number's digits without separators, decimal mark and the zeros at either end:
    "84,000", "84.000", "84 000", "8.4" and "840" are all "84". Two numbers can hold one
    value (under a scale word or a unit of another power of ten) only if these agree, or
    for a rounding, begin alike. None for a date or a CJK numeral."""
    if match.lastgroup != "num":
        return None
    core = match.group()
    if not core.isascii():
        core = "".join(str(unicodedata.digit(ch)) if ch.isdigit() else ch for ch in core)
    return core.translate(_SEPARATORS).strip("0") or "0"


def _place(value: int) -> float:
    """The place of an integer's last significant digit (84000: 1000; 7: 1)."""
    if value == 0:
        return 1.0
    place = 1
    while value % (place * 10) == 0:
        place *= 10
    return float(place)


def _spelled_reading(value: float) -> Reading:
    """A number written in words: a whole one to its last significant place ("thirty": 10),
    a fraction to its own ("dreieinhalb": 0.5, "zweieinviertel": 0.25)."""
    if float(value).is_integer():
        return Reading(float(value), _place(int(value)))
    place = 0.5 if (2 * value).is_integer() else 0.25
    return Reading(value, place, place)


def decimal_mark(cores: Iterable[str]) -> str | None:
    """The decimal mark a text's own numbers show ("." or ","), or None when they show
    neither or both: "3,5" and "1.234.567" say ","; "3.14" and "1,234,567" say "."."""
    says: set[str] = set()
    for written in cores:
        core = written.replace(_WIDE_COMMA, ",")
        seps = [ch for ch in core if ch in ".,"]
        if not seps:
            continue
        if len(set(seps)) == 2:
            says.add(seps[-1])
        elif len(seps) > 1:
            says.add("." if seps[0] == "," else ",")
        else:
            tail = core.rsplit(seps[0], 1)[1]
            if len(tail) != 3:
                says.add(seps[0])
        if len(says) == 2:
            return None
    return next(iter(says)) if says else None


def _ambiguous(core: str) -> bool:
    """One "," or "." before exactly three digits: "1,200", "1.200" (thousands or a decimal)."""
    core = core.replace(_WIDE_COMMA, ",")
    return (core.count(",") + core.count(".") == 1 and len(core) >= 5
            and core[-4] in ".," and core[-3:].isdigit())


def number_readings(core: str, mark: str | None = None) -> list[Reading]:
    """The values a run of digits and separators may write (most likely first). A single
    "," or "." before three digits ("1,200", "1.200") is read as the text's ``mark`` says
    (decimal_mark), and both ways when it does not say, "x,000" always as thousands."""
    core = core.replace(_WIDE_COMMA, ",")  # full-width digits grouped by full-width commas
    digits = core if core.isascii() else "".join(
        str(unicodedata.digit(ch)) if ch.isdigit() else ch for ch in core)
    seps = [ch for ch in digits if not ch.isdigit()]
    if not seps:
        return [Reading(float(int(digits)), _place(int(digits)))]
    kinds = list(dict.fromkeys(seps))
    groups = re.split(r"[^\d]", digits)
    if len(kinds) == 1:
        sep = kinds[0]
        if len(seps) > 1:  # 1,234,567 / 1.234.567 / 1 234 567 / 12,34,567
            if sep in ".," and len(groups[-1]) != 3:
                return []
            whole = int("".join(groups))
            return [Reading(float(whole), _place(whole))]
        lead, tail = groups
        decimal = _decimal(lead, tail) if sep in ".," else None
        if len(tail) == 3 and len(lead) <= 3 and lead != "0":
            whole = int(lead + tail)
            grouped = Reading(float(whole), _place(whole))
            if decimal is None or tail == "000" or (mark is not None and mark != sep):
                return [grouped]
            return [decimal] if mark == sep else [grouped, decimal]
        return [decimal] if decimal is not None else []
    # two kinds: the last is the decimal mark (1,234.56 / 1.234,56 / 1 234,56 / 1'234.50)
    if len(kinds) != 2 or seps[-1] not in ".," or seps.count(seps[-1]) != 1:
        return []
    whole_groups, tail = groups[:-1], groups[-1]
    if any(len(g) != 3 for g in whole_groups[1:]):
        return []
    decimal = _decimal("".join(whole_groups), tail)
    return [decimal] if decimal is not None else []


def _decimal(lead: str, tail: str) -> Reading | None:
    if not lead:
        return None
    place = 10.0 ** -len(tail)
    return Reading(float(f"{lead}.{tail}"), place, place)


class _Reader:
    """What stands around a number: its sign, currency, hedge, scale, unit, range."""

    def __init__(self, text: str, scan: Scan, hedges: bool = True) -> None:
        self.text = text
        self.scan = scan
        self.hedges = hedges

    def read(self, m: re.Match[str]) -> Figure | None:
        kind = m.lastgroup
        if kind == "date":
            return self.numeric_date(m)
        if kind == "cjkdate":
            return self.cjk_date(m)
        if kind == "cjk":
            value = numberwords.cjk_value(m.group())
            return None if value is None else self.figure(
                m.start(), m.end(), (Reading(float(value), _place(value)),), spelled=True)
        return self.number(m)

    # -- numbers --------------------------------------------------------------------------

    def number(self, m: re.Match[str]) -> Figure | None:
        text, start, end = self.text, m.start(), m.end()
        core = m.group()
        sep = m.group("sep")
        # "10 100-metre", "10 100m": two numbers (not "1 000th"); a no-break space is a
        # grouping mark ("1\u202f340km", "12\u202f500-square-foot": French typography)
        if sep == " " and (text[end:end + 1] == "-" or _glued_letter(text, end)) and \
                not _ordinal_glued(text, end):
            core = core.split(sep)[0]
            end = start + len(core)
        if core.isdigit():
            named = self._named_date(start, end, core)
            if named is not None:
                return named
        if self._not_a_figure(start, end):
            return None
        readings = number_readings(core, self.scan.mark if _ambiguous(core) else None)
        if not readings:
            return None
        return self.figure(start, end, tuple(readings))

    def _named_date(self, start: int, end: int, core: str) -> Figure | None:
        """A date with its month in words around the number ``core`` at [start, end):
        "3 March (2026)", "3. März", "3 de marzo de 2026", "March 3(, 2026)", "March 2026"."""
        text = self.text
        value = int(core)
        if len(core) <= 2 and 1 <= value <= 31:
            after = _dates.month_after(text, end)
            if after is not None and _month_word_ok(text, end, after[1]):
                month, stop = after
                year = _dates.year_after(text, stop)
                if year is not None:
                    return Figure(start, year[1], "date", dates=((year[0], month, value),))
                return Figure(start, stop, "date", dates=((None, month, value),))
        before = _dates.month_before(text, start)
        if before is None or not _month_word_ok(text, before[1], start):
            return None
        month, begin = before
        if len(core) <= 2 and 1 <= value <= 31:
            stop = end
            suffix = re.match(r"(?:st|nd|rd|th|\.)(?![^\W\d_])", text[end:end + 3])
            if suffix:
                stop += suffix.end()
            year = _dates.year_after(text, stop)
            if year is not None:
                return Figure(begin, year[1], "date", dates=((year[0], month, value),))
            return Figure(begin, stop, "date", dates=((None, month, value),))
        if len(core) == 4 and 1000 <= value <= 2100:
            return Figure(begin, end, "date", dates=((value, month, None),))
        return None

    def _not_a_figure(self, start: int, end: int) -> bool:
        text = self.text
        before = text[max(0, start - 2): start]
        after = text[end: end + 2]
        if after[:1] == ":" and after[1:2].isdigit():
            return True  # 10:30, 2:1
        if after[:1] in "./" and after[1:2].isdigit():
            return True  # 3.11.2, 1/2 (dates were read before)
        if before[-1:] in ".:/" and before[:1].isdigit():
            return True  # the tail of a version, a time or an address
        if before[-1:] == "-" and before[:1].isalpha():
            return True  # COVID-19
        if before[-1:] == "[" and after[:1] == "]":
            return True  # a footnote marker
        # twelve digits and more, against CJK: an identifier (ISBN, registration, licence);
        # a count that large is written with 億 or 兆
        if end - start >= 12 and text[start:end].isdigit() and any(
                ch and unicodedata.east_asian_width(ch) == "W" for ch in (before[-1:], after[:1])):
            return True  # 湘公安网备号43010402000231号: a registration number, not a count
        if _LIST_MARKER.search(text, max(0, start - 8), start) and after[:1] in ".)" and \
                after[1:2] in " \t":
            return True  # "1. " opening a list item
        if _glued_letter(text, end):
            word = _WORD_GLUED.match(text, end)
            glued = word.group() if word else ""
            if word is not None and glued in ("e", "E") and digits_follow(text, word.end()):
                return True  # 1e6, 2E-3: a number in exponent form, read by no rule here
            return not _known_glued(glued)
        return False

    def figure(self, start: int, end: int, readings: tuple[Reading, ...], *,
               spelled: bool = False, ordinal: bool = False) -> Figure | None:
        """A figure from a number at [start, end): what stands around it read."""
        text = self.text
        after = Suffix(text, end)
        currency_before, start_with = _currency_before(text, start)
        negative = _negative(text, start_with)
        if negative:
            start_with -= 1
            readings = tuple(r.negated() for r in readings)
        if after.scale:
            readings = tuple(r.times(after.scale) for r in readings)
            if after.scale_word[-1:] in MYRIADS and len(readings) == 1 and \
                    text[after.end:after.end + 1].isdigit():
                readings, after = _myriad_run(text, readings[0], after)
        if after.unit_text in ("an", "An") and (after.scale or any(
                abs(r.value) >= 2 for r in readings)):
            after.drop_unit(text)  # French "an" is one year ("1 an", "2 ans"): "163,75 an"
        ordinal = ordinal or after.ordinal or _ordinal_before(text, start_with)
        hedge = (_hedge_before(text, start_with) or after.hedge) if self.hedges else None
        currency = currency_before or after.currency
        if after.scale_word == "m" and currency is None:
            return None  # "3.5m" without money: metres or millions, unsaid
        high: tuple[Reading, ...] = ()
        stop = after.end
        range_at = _range_tail(text, after.end if not (after.unit or after.percent or
                                                        after.currency) else end,
                               start_with)
        if range_at is not None and after.ordinal is False:
            second = _MASTER.match(text, range_at)
            if second is not None and second.lastgroup == "num":
                other = number_readings(second.group(), self.scan.mark
                                        if _ambiguous(second.group()) else None)
                tail = Suffix(text, second.end())
                if other and not tail.ordinal:
                    scale = tail.scale or after.scale or 1.0
                    if tail.scale and not after.scale:  # "3 to 5 million": both in millions
                        readings = tuple(r.times(scale) for r in readings)
                    high = tuple(r.times(scale) for r in other)
                    stop = max(tail.end, after.end)
                    after = after.merged(tail)
                    currency = currency or tail.currency
        kind = _kind(readings, high, after, currency, ordinal, spelled, text[start:end])
        if kind is None:
            return None
        return Figure(start_with, stop, kind, readings, high, after.unit, currency,
                      after.percent, hedge, bool(after.scale), spelled, (), ordinal,
                      after.unit_text or (currency_before_text(text, start_with, start)
                                          if currency_before else ""))

    # -- dates ----------------------------------------------------------------------------

    def numeric_date(self, m: re.Match[str]) -> Figure | None:
        parts = re.split(r"[-/.]", m.group())
        seps = set(re.findall(r"[-/.]", m.group()))
        if len(seps) != 1:
            return None
        a, b, c = (int(p) for p in parts)
        if len(parts[0]) == 4:  # year first: ISO order, never month-day swapped
            if not _dates.valid(a, b, c):
                return None
            return Figure(m.start(), m.end(), "date", dates=((a, b, c),))
        year = c if len(parts[2]) == 4 else _dates.two_digit_year(c)
        if seps == {"-"} and len(parts[2]) == 2:
            return None  # 3-4-26: a score, a phone number, a range of parts
        order = self.scan.order if a <= 12 and b <= 12 else None
        readings = _dates.numeric_readings(a, b, year, order)
        if not readings:
            return None
        return Figure(m.start(), m.end(), "date", dates=tuple(readings))

    def cjk_date(self, m: re.Match[str]) -> Figure | None:
        numbers = re.findall(rf"\d{{1,4}}|[{_CJK_NUM}]{{1,4}}", m.group())
        values: list[int] = []
        for n in numbers:
            v = int(n) if n.isdigit() else numberwords.cjk_value(n)
            if v is None:
                return None
            values.append(v)
        has_year = bool(re.match(r"(?:\d{4}|[〇零一二三四五六七八九]{4})\s?[年년]", m.group()))
        year = values.pop(0) if has_year else None
        month = values.pop(0) if values else None
        day = values.pop(0) if values else None
        if not _dates.valid(year, month, day):
            return None
        if month is None and year is not None:  # 2026年: a year
            return self.figure(m.start(), m.end() - 1, (Reading(float(year), 1.0),))
        return Figure(m.start(), m.end(), "date", dates=((year, month, day),))

    # -- numbers in words -----------------------------------------------------------------

    def spelled(self, room: int, taken_spans: list[Figure]) -> list[Figure]:
        from readreceipt.quotes.spelled import spelled_runs

        if room <= 0:
            return []
        out: list[Figure] = []
        taken = sorted((f.start, f.end) for f in taken_spans)
        starts = [s for s, _ in taken]
        for start, end, value in spelled_runs(self.text, room):
            i = bisect_left(starts, end)
            if i and taken[i - 1][1] > start:
                continue  # inside a figure read already (a unit word, a date's month)
            readings = (_spelled_reading(value),)
            word = self.text[start:end]
            if numberwords.multiplicative_value(word.lower()) is not None:
                out.append(Figure(start, end, "measure", readings, unit=TIMES,
                                  spelled=True, unit_text=word))  # "twice", "dreimal"
                continue
            figure = self.figure(start, end, readings, spelled=True)
            if figure is not None and figure.end > end and \
                    bisect_left(starts, figure.end) > bisect_left(starts, end):
                # "twenty to 30 minutes": the range would take in a figure read already
                # ("30 minutes"): the word alone, the figure after it stays its own
                figure = Figure(start, end, "number", readings, spelled=True)
            if figure is not None:
                out.append(figure)
        return out


#: The CJK and Korean myriads after which digits go on with the same number ("1万2000人",
#: "3億5000万円", "2만5000명"): what Japanese, Chinese and Korean news write most.
MYRIADS = frozenset("万萬億亿兆만억조")
#: Parts of one such number read at most (億, 万 and the units: three).
_MYRIAD_PARTS = 3


def _myriad_run(text: str, first: Reading, after: Suffix) -> tuple[tuple[Reading, ...],
                                                                      Suffix]:
    """"1万2000": the digits after a myriad, each with a smaller scale (or none), added
    to it; the suffix of the last part is the figure's (its counter, currency, hedge)."""
    value, scale, tail = first.value, after.scale, after
    for _part in range(_MYRIAD_PARTS):
        m = _MASTER.match(text, tail.end)
        if m is None or m.lastgroup != "num":
            break
        parts = number_readings(m.group(), ",")
        if len(parts) != 1 or not parts[0].value.is_integer():
            break
        nxt = Suffix(text, m.end())
        if (nxt.scale or 1.0) >= scale:
            break
        value += parts[0].value * (nxt.scale or 1.0)
        scale, tail = nxt.scale or 1.0, nxt
        if not nxt.scale:
            break
    if tail is after:
        return (first,), after
    whole = int(value)
    tail.scale, tail.scale_word = 1.0, after.scale_word  # said with a myriad; applied here
    return (Reading(float(whole), _place(whole)),), tail


def _month_word_ok(text: str, start: int, end: int) -> bool:
    """A month word that is mostly another word ("may", "mar") counts only as written for
    a month: capitalised."""
    word = text[start:end].strip(" .,\u00a0").split()
    if not word:
        return True
    first = word[0] if not word[0][:1].isdigit() else word[-1]
    low = first.lower().rstrip(".")
    if low in _dates.AMBIGUOUS_MONTHS:
        return first[:1].isupper()
    return True


def currency_before_text(text: str, start_with: int, start: int) -> str:
    return text[start_with:start].strip()


def _glued_letter(text: str, end: int) -> bool:
    return end < len(text) and (text[end].isalpha() and re.match(
        rf"[{_LATIN_LETTER}]", text[end]) is not None)


def _ordinal_glued(text: str, end: int) -> bool:
    """An ordinal's letters glued to the number ("1 000th", "10 000e"), ending the word."""
    word = _WORD_GLUED.match(text, end)
    return word is not None and word.group() in ("st", "nd", "rd", "th", "e", "ème", "ième") \
        and not _glued_letter(text, word.end())


def _short_unit(word: str) -> Unit | None:
    """A unit written as a word; a short one (three letters or fewer) only in its own case
    ("5 g", "3 GB"; not "5G", "4K")."""
    unit = UNITS.get(word.lower())
    if unit is None or len(word) > 3 or word == word.lower() or word == unit.name:
        return unit
    return None


def _known_glued(word: str) -> bool:
    low = word.lower()
    return (low in ORDINAL_SUFFIXES or word in SCALES_GLUED or _short_unit(word) is not None
            or low in CURRENCIES or low in ("x",) or word in SCALES_CASED or low in SCALES)


def _negative(text: str, start: int) -> bool:
    if start == 0 or text[start - 1] not in "-\u2212":
        return False
    return start == 1 or text[start - 2] in " (\n\t\u00a0=:"


_CURRENCY_BEFORE = re.compile(rf"([^\s\d]{{1,5}})[{SPACE}]{{0,1}}$")


def _currency_before(text: str, start: int) -> tuple[Currency | None, int]:
    window = text[max(0, start - 7): start]
    m = _CURRENCY_BEFORE.search(window)
    if m is None:
        return None, start
    run = m.group(1).lstrip("([{\u201c\"'")
    currency = CURRENCIES.get(run.lower())
    if currency is None or (run.isalpha() and run.islower() and len(run) > 1):
        return None, start  # "usd" lower case before a number is not how a code is written
    return currency, start - (len(window) - m.start(1)) + (len(m.group(1)) - len(run))


_ORDINAL_BEFORE = re.compile(r"(?:\bno\.|\bnr\.|\bn[°º]|#|第|\brank(?:ed)?|\bplatz|\bplace"
                             r"|\bnumber)\s{0,2}$", re.I)


def _ordinal_before(text: str, start: int) -> bool:
    return _ORDINAL_BEFORE.search(text, max(0, start - 10), start) is not None


_HEDGE_PUNCTUATION = "([{\u201c\"'\u2018,;:"


def _hedge_before(text: str, start: int) -> str | None:
    window = text[max(0, start - 28): start]
    if not window:
        return None
    stripped = window.rstrip(SPACE + "\t")
    if stripped[-1:] in ("~", "≈", "±"):
        return "about"
    if stripped and unicodedata.east_asian_width(stripped[-1]) == "W":
        for size in (3, 2, 1):
            hedge = HEDGES.get(stripped[-size:])
            if hedge:
                return hedge
        return None
    words = []
    for w in stripped.lower().split()[-4:]:
        w = w.strip(_HEDGE_PUNCTUATION)
        if "'" in w[:2] or "\u2019" in w[:2]:
            w = w[2:] if w[:1] in "dl" else w  # "d'environ": environ
        if w:
            words.append(w)
    for size in (4, 3, 2, 1):
        if len(words) >= size:
            hedge = HEDGES.get(" ".join(words[-size:]))
            if hedge:
                return hedge
    return None


_RANGE_TAIL = re.compile(rf"[{SPACE}]{{0,2}}(?:[-\u2013\u2014~\u301c\uff5e]|to|bis|à|a|al|tot"
                         rf"|до|au|и|and|und|et|y|e|en|or|oder|ou|o)[{SPACE}]{{0,2}}(?=\d)")
_BETWEEN = re.compile(r"(?:between|zwischen|entre|tra|fra|tussen|между|from|von|de|del|da|"
                      r"van|от)\s{1,2}$", re.I)


def _range_tail(text: str, at: int, start: int) -> int | None:
    m = _RANGE_TAIL.match(text, at, min(len(text), at + 8))
    if m is None:
        return None
    word = m.group().strip(SPACE)
    if word in ("and", "und", "et", "y", "e", "en", "и", "or", "oder", "ou", "o"):
        if word in ("or", "oder", "ou", "o"):
            return None  # "3 or 4": two figures, each said
        if _BETWEEN.search(text, max(0, start - 12), start) is None:
            return None
    if word in ("to", "bis", "à", "a", "al", "tot", "до", "au", "de") and \
            _BETWEEN.search(text, max(0, start - 12), start) is None and word not in (
                "to", "bis", "tot", "до"):
        return None
    return m.end()


def _kind(readings: tuple[Reading, ...], high: tuple[Reading, ...], after: Suffix,
          currency: Currency | None, ordinal: bool, spelled: bool, core: str) -> str | None:
    if high:
        return "range"
    if after.percent:
        return "percent"
    if currency is not None:
        return "money"
    if after.unit is not None:
        return "measure"
    if ordinal:
        return "ordinal"
    first = readings[0]
    if (not spelled and not after.scale and first.value.is_integer()
            and 1000 <= first.value <= 2100 and core.isdigit() and len(core) == 4):
        return "year"
    return "number"
