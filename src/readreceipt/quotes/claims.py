"""The figures an answer states, checked against the page it is about.

Pure: no I/O, no clock, no randomness; the answer is never kept.

What is checked (:func:`check_claims`): every figure of the answer outside the passages the
quotation check checks (:mod:`readreceipt.quotes.figures`: counts, amounts, percentages,
measurements, dates and years, ranks, ranges, in digits or in words), and the names it gives
(:mod:`readreceipt.quotes.names`). Left out: figures in code, in URLs, in block quotes and
long enough quotations (the quotation check's), and figures the prompt holds (the agent's own
words handed back). In ``attributed`` mode (a session's final message, which mixes what pages
said with the agent's own work) only sentences that name a source are read.

How a figure is found: on each of the page's texts in turn (the main content, the whole
visible text, the tables' cells with their headers, the publisher's metadata;
:class:`PageTexts`), as a figure holding the same value in any form
(:mod:`readreceipt.quotes.figures` reads both sides alike) **and** attached to a word of the
answer's sentence: a word standing within :data:`~readreceipt.quotes.figureindex.WINDOW`
characters of it in the same paragraph (:func:`context_stems`). A figure the answer rounds
and says so ("about 12 %" for 11.8 %, "nearly 1 million" for 960,000), writes with a scale
word ("3.5 million" for 3,482,000) or converts ("7.5 miles" for 12 km) is ``approximate``:
within half the place of its last digit, and for a hedge within :data:`HEDGE_SHARE` of the
page's value (one-sided hedges, "more than 1,000", on their side and within the place of
their last digit: 1,000 to 1,999). A figure no value of the page explains may still be a sum, a
difference, a share or a change of two figures the page attaches to the same words
(:func:`computed_reading`), when the answer's sentence says it reckons ("in total", "a
difference of", "rose by", "insgesamt", "au total": :func:`..figurecontext.says_computed`);
only when none is it ``not_found``, with the nearest figure the
page attaches to those words, in the page's own words.

Outcomes: ``found``, ``approximate`` (never a flag), ``not_found`` (a flag), ``not_run``
(figures past :data:`MAX_CLAIMS`: not checked, never a pass).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from readreceipt.fetching.deadline import Deadline
from readreceipt.quotes import figurecontext
from readreceipt.quotes.figureindex import (
    FigureIndex,
    base_precision,
    base_step,
    base_value,
    fold_words,
    index_of,
)
from readreceipt.quotes.figures import Figure, Reading, find_figures
from readreceipt.quotes.units import same_currency, unit_of, units_of

__all__ = ["APPROXIMATE", "FOUND", "HEDGE_SHARE", "MAX_CLAIMS", "NOT_FOUND", "NOT_RUN",
           "Claim", "PageTexts", "check_claims", "computed_reading"]

FOUND, APPROXIMATE, NOT_FOUND, NOT_RUN = "found", "approximate", "not_found", "not_run"
FIGURE, NAME = "figure", "name"

#: Figures checked in one answer; past this they are reported ``not_run`` (a model's answer
#: about one page states a few dozen at most; the cap bounds a hostile one).
MAX_CLAIMS = 200
#: "about X": the page's value within this share of X (and within half X's last place).
HEDGE_SHARE = 0.15
#: "more than X", "under X": the page's value on that side, within X's last place and
#: within this share ("more than 1,000" for 1,000 up to 1,200).
ONE_SIDED_SHARE = 0.2
#: Figures the page attaches to the answer's words tried as operands of a computed figure.
COMPUTED_OPERANDS = 16
_EPSILON = 1e-9


@dataclass(frozen=True)
class PageTexts:
    """The page's texts, in the order a figure is looked for in them. ``more`` gives the
    tables' cells and the publisher's metadata when they are not given: called only when a
    figure is on neither of the first two texts (a copy held reads them from its bytes)."""

    main: str
    page: str = ""
    table: str = ""
    metadata: str = ""
    more: Callable[[], tuple[str, str]] | None = field(default=None, compare=False)

    def tiers(self) -> Iterator[tuple[str, str]]:
        """(name, text) of each text that holds anything, the later ones read lazily."""
        seen: list[str] = []
        table, metadata = self.table, self.metadata
        for name in ("main", "page", "table", "metadata"):
            if name == "table" and not (table or metadata) and self.more is not None:
                table, metadata = self.more()
            text = {"main": self.main, "page": self.page, "table": table,
                    "metadata": metadata}[name]
            if text.strip() and text not in seen:
                seen.append(text)
                yield name, text


class _Tiers:
    """The page's texts as figure indexes, each built when first looked in."""

    def __init__(self, texts: PageTexts) -> None:
        self._source = texts.tiers()
        self._texts: list[tuple[str, str]] = []
        self._done = False

    def texts(self) -> Iterator[tuple[str, str]]:
        yield from self._texts
        while not self._done:
            try:
                pair = next(self._source)
            except StopIteration:
                self._done = True
                return
            self._texts.append(pair)
            yield pair

    def __iter__(self) -> Iterator[tuple[str, FigureIndex]]:
        for name, text in self.texts():
            yield name, index_of(text)

    def any(self) -> bool:
        return next(iter(self.texts()), None) is not None


@dataclass(frozen=True)
class Claim:
    kind: str  # "figure" | "name"
    text: str  # as the answer wrote it
    value: str  # what it was read as ("84000", "11.8 %", "2026-03-03", "12 km")
    outcome: str  # found | approximate | not_found | not_run
    where: str | None = None  # the page's text it was found in (or its nearest figure)
    nearest: str | None = None  # not found: the nearest figure the page attaches to its words
    match: str | None = None  # found: the page's own words where it is
    computed: str | None = None  # found as a computation of the page's figures: "155 - 120"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "value": self.value,
                "outcome": self.outcome, "where": self.where, "nearest": self.nearest,
                "match": self.match, "computed": self.computed}


def check_claims(answer: str, texts: PageTexts, *, prompt: str = "",
                 attributed: bool = False, names: bool = True,
                 deadline: Deadline | None = None) -> tuple[Claim, ...]:
    """Every figure (and name) ``answer`` states, checked against ``texts``; past
    ``deadline`` the rest are ``not_run`` (each name scans the page's texts: 100 names on an
    8 MB page took 68 s under a 5 s deadline)."""
    tiers = _Tiers(texts)
    if not tiers.any():
        return ()
    prepared = figurecontext.prepare(answer)
    found = find_figures(prepared, limit=MAX_CLAIMS + 50)
    in_prompt = _prompt_values(prompt)
    out: list[Claim] = []
    checked = 0
    for figure in found:
        sentence = figurecontext.sentence_of(answer, figure.start, figure.end)
        if attributed and not figurecontext.attributes(answer, sentence):
            continue
        text = answer[figure.start:figure.end]
        if in_prompt and _value_key(figure) & in_prompt:
            continue
        if figure.spelled and not figurecontext.worth_checking(figure, text):
            continue
        if checked >= MAX_CLAIMS or (deadline is not None and deadline.expired):
            out.append(Claim(FIGURE, text, describe(figure), NOT_RUN))
            continue
        checked += 1
        stems = figurecontext.context_stems(answer, sentence, figure, found)
        computes = figurecontext.says_computed(answer, sentence)
        out.append(_check_figure(figure, text, stems, tiers, computes))
    if names:
        from readreceipt.quotes.names import check_names

        out.extend(check_names(answer, prepared, tiers.texts, attributed=attributed,
                               deadline=deadline))
    return tuple(out)


# ------------------------------------------------------------------------------ one figure

def _check_figure(figure: Figure, text: str, stems: list[str], tiers: _Tiers,
                  computes: str | None) -> Claim:
    value = describe(figure)
    approximate: Claim | None = None
    for name, index in tiers:
        outcome, page_figure = _best(figure, index, stems)
        if outcome == FOUND and page_figure is not None:
            return Claim(FIGURE, text, value, FOUND, name, match=index.snippet(page_figure))
        if outcome == APPROXIMATE and approximate is None and page_figure is not None:
            approximate = Claim(FIGURE, text, value, APPROXIMATE, name,
                                match=index.snippet(page_figure))
    if approximate is not None:
        return approximate
    if figure.high:  # a range the page gives as two figures: each end on its own
        ends = [_check_figure(end, text, stems, tiers, None) for end in _ends(figure)]
        if all(c.outcome in (FOUND, APPROXIMATE) for c in ends):
            outcome = FOUND if all(c.outcome == FOUND for c in ends) else APPROXIMATE
            return Claim(FIGURE, text, value, outcome, ends[0].where, match=ends[0].match)
    for name, index in tiers:
        computed = computed_reading(figure, index, stems, computes=computes)
        if computed is not None:
            how, operands = computed
            return Claim(FIGURE, text, value, APPROXIMATE if "≈" in how else FOUND, name,
                         match=index.snippet(operands), computed=how)
    for name, index in tiers:
        nearest = _nearest(figure, index, stems)
        if nearest is not None:
            return Claim(FIGURE, text, value, NOT_FOUND, name, nearest=index.snippet(nearest))
    return Claim(FIGURE, text, value, NOT_FOUND)


def _ends(figure: Figure) -> list[Figure]:
    """A range's two ends as figures of their own (its unit and currency on each)."""
    return [dataclasses.replace(figure, readings=readings, high=())
            for readings in (figure.readings, figure.high)]


def _best(figure: Figure, index: FigureIndex, stems: list[str]
          ) -> tuple[str | None, Figure | None]:
    """The best agreement of ``figure`` with a figure of ``index`` beside its words."""
    best: tuple[str | None, Figure | None] = (None, None)
    for page_figure in _chained(_candidates(figure, index, stems),
                                lambda: _spelled_candidates(figure, index)):
        agreement = agree(figure, page_figure, index)
        if agreement is None or (best[0] == FOUND):
            continue
        if stems and not _attached(index, page_figure, stems):
            continue
        if agreement == FOUND:
            return FOUND, page_figure
        best = (APPROXIMATE, page_figure)
    return best


def _chained(first: Iterable[Figure], then: Callable[[], list[Figure]]) -> Iterator[Figure]:
    yield from first
    yield from then()


def _attached(index: FigureIndex, page_figure: Figure, stems: list[str]) -> bool:
    window = index.window(page_figure)
    return any(_at_word_start(window, stem) for stem in stems)


def _at_word_start(window: str, stem: str) -> bool:
    """Whether ``stem`` begins a word of ``window`` (a stem is a word's start: "region" of
    "regional"; inside a word it is another word's middle: "ion" of "region")."""
    at = window.find(stem)
    while at >= 0:
        before = window[at - 1] if at else ""
        if not before or not before.isalnum() or _unspaced(before) or _unspaced(stem[0]):
            return True
        at = window.find(stem, at + 1)
    return False


def _unspaced(char: str) -> bool:
    """A character of a script written without spaces between words (Thai, Lao, Myanmar,
    Khmer, and CJK from U+2E80 on), where no word start can be told by what stands before."""
    code = ord(char)
    return code >= 0x2E80 or 0x0E00 <= code <= 0x109F or 0x1780 <= code <= 0x17FF


def _unit_beside(window: str, unit_text: str) -> bool:
    """Whether ``window`` names the unit as a token of its own that belongs to no other
    number: "(km) 12", "Height in metres: 12". Not a substring ("m" of "rooms"), and not a
    unit another number carries ("%" of "5%", "5 %", "USD" of "5 USD", "$" of "$5")."""
    unit = unit_text.lower()
    at = window.find(unit)
    while at >= 0:
        end = at + len(unit)
        before = window[at - 1] if at else " "
        after = window[end] if end < len(window) else " "
        whole = not (unit[0].isalnum() and before.isalnum()) and \
            not (unit[-1].isalnum() and after.isalnum())
        carried = window[:at].rstrip()[-1:].isdigit() or (
            not unit[0].isalnum() and window[end:].lstrip()[:1].isdigit())
        if whole and not carried:
            return True
        at = window.find(unit, at + 1)
    return False


def _candidates(figure: Figure, index: FigureIndex, stems: list[str] | None = None
                ) -> Iterator[Figure]:
    """Figures of the page that may hold the answer's value (a generous first cut, by
    digits; :func:`agree` decides), in the page's order, each read when come to; with
    ``stems``, only those that may stand beside one of them (the rest could not count)."""
    if figure.dates:
        wanted = {part for parts in figure.dates for part in (parts[0], parts[2])
                  if part is not None}
        return (f for f in index.whole_numbers(wanted, stems) if f.dates or f.kind == "year")
    share = _share(figure)
    targets = []
    for r in (*figure.readings, *figure.high):
        targets.append(r.value)
        targets.extend(_converted(figure, r))
    # a numeric date holds a year or a date only (_dates_agree): not read for another figure
    return index.with_digits(targets, share, dates=figure.kind == "year", stems=stems)


def _spelled_candidates(figure: Figure, index: FigureIndex) -> list[Figure]:
    """The page's numbers in words, for an answer's figure they may write (read only when
    its digits did not hold it: reading a page's words costs more than its digits)."""
    # a whole number, or a quarter's multiple ("3,5": "dreieinhalb")
    if figure.dates or not any((4 * r.value).is_integer() and 0 < abs(r.value) < 1e13
                               for r in (*figure.readings, *figure.high)):
        return []
    return index.spelled()


def _share(figure: Figure) -> float:
    """How far (a share of the value) a page's digits may stand from the answer's and still
    be its rounding: nothing for a figure said exactly."""
    if figure.hedge:
        return ONE_SIDED_SHARE
    if figure.scaled or figure.unit is not None:
        steps = [r.step / 2 / abs(r.value) for r in figure.readings if r.value]
        return min(max(steps, default=0.0), HEDGE_SHARE) + 1e-9
    return 0.0


def _converted(figure: Figure, reading: Reading) -> list[float]:
    """The answer's value in the other units of its dimension (12 km: 7.46 miles...)."""
    if figure.unit is None:
        return []
    base = base_value(figure, reading)
    return [(base - u.offset) / u.factor for u in units_of(figure.unit.dimension)
            if u.name != figure.unit.name]


def agree(answer: Figure, page: Figure, index: FigureIndex | None = None) -> str | None:
    """FOUND, APPROXIMATE or None: does ``page`` hold the value ``answer`` states?"""
    if answer.dates or page.dates:
        return _dates_agree(answer, page)
    answer, page = _kilo(answer, page), _kilo(page, answer)
    if not _dimensions_agree(answer, page, index):
        return None
    if answer.high:
        if page.high:
            low = _values_agree(answer, answer.readings, page, page.readings)
            high = _values_agree(answer, answer.high, page, page.high)
            if low and high:
                return FOUND if low == high == FOUND else APPROXIMATE
        return None
    readings = page.high + page.readings if page.high else page.readings
    return _values_agree(answer, answer.readings, page, readings)


def _kilo(figure: Figure, other: Figure) -> Figure:
    """A Japanese or Korean "kilo" (キロ, 킬로: kilometres or kilograms) read as the unit of
    the figure it is compared with, when that is a length or a mass."""
    if figure.unit is None or figure.unit.dimension != "kilo" or other.unit is None:
        return figure
    unit = {"length": "km", "mass": "kg"}.get(other.unit.dimension)
    return figure if unit is None else dataclasses.replace(figure, unit=unit_of(unit))


def _dimensions_agree(answer: Figure, page: Figure, index: FigureIndex | None) -> bool:
    dim_a, dim_p = answer.dimension, page.dimension
    if dim_a is None:  # a count; or an amount said without its currency ("3.5 million");
        # or one end of a range the page gives with its unit ("40 to eighty percent")
        return dim_p is None or dim_p in ("money", "times") or bool(page.high)
    if dim_p is None:
        # a table cell or a bare number whose unit the words beside it name: "(km) 12"
        if index is None or not answer.unit_text:
            return False
        unit = answer.unit_text.lower()
        right_after = fold_words(index.text[page.end:page.end + len(unit) + 2]).lstrip()
        return right_after.lower().startswith(unit) or \
            _unit_beside(index.window(page), answer.unit_text)
    if dim_a != dim_p:
        return False
    if dim_a == "money":
        assert answer.currency is not None and page.currency is not None
        return same_currency(answer.currency, page.currency)
    return True


def _values_agree(answer: Figure, readings: tuple[Reading, ...], page: Figure,
                  page_readings: tuple[Reading, ...]) -> str | None:
    best: str | None = None
    converted = (answer.unit is not None and page.unit is not None
                 and answer.unit.name != page.unit.name)
    # The answer's number said without the unit the page gives it ("10 to fifteen minutes"
    # for the page's "10 to 15 minutes"): the number as written, not in a base unit.
    both = answer.unit is not None or page.unit is None
    for ar in readings:
        a = base_value(answer, ar) if both else ar.value
        for pr in page_readings:
            p = base_value(page, pr) if both else pr.value
            if math.isclose(a, p, rel_tol=1e-9, abs_tol=1e-12):
                if not converted or _exact_conversion(answer, page):
                    return FOUND
                best = APPROXIMATE
                continue
            if _rounded(answer, ar, a, p, converted=converted):
                best = APPROXIMATE
    return best


def _exact_conversion(answer: Figure, page: Figure) -> bool:
    """1.2 km and 1,200 m: the same value in units of one system (a power of ten apart)."""
    assert answer.unit is not None and page.unit is not None
    ratio = answer.unit.factor / page.unit.factor
    return answer.unit.offset == page.unit.offset == 0 and \
        abs(math.log10(ratio) - round(math.log10(ratio))) < 1e-9


def _rounded(answer: Figure, reading: Reading, a: float, p: float, *, converted: bool) -> bool:
    """Whether the answer's ``a`` is ``p`` rounded the way the answer says it rounds."""
    if answer.kind == "year" or (answer.spelled and not answer.hedge):
        return False
    half = base_precision(answer, reading) / 2 + abs(a) * _EPSILON
    step = base_step(answer, reading) / 2 + abs(a) * _EPSILON
    place = base_precision(answer, reading)
    if answer.hedge == "over":  # "more than 1,000": 1,000 up to 1,249
        return a - step <= p and p - a < place and p - a <= abs(a) * ONE_SIDED_SHARE
    if answer.hedge == "under":  # "under 1 million": 750,000 up to 1 million
        return p <= a + step and a - p < place and a - p <= abs(a) * ONE_SIDED_SHARE
    if answer.hedge == "about":
        return abs(a - p) <= half and abs(a - p) <= abs(p) * HEDGE_SHARE + _EPSILON
    if answer.scaled or converted:  # "3.5 million" for 3,482,000; "7.5 miles" for 12 km
        return abs(a - p) <= step and abs(a - p) <= abs(p) * HEDGE_SHARE + _EPSILON
    return False


def _dates_agree(answer: Figure, page: Figure) -> str | None:
    if not answer.dates:  # a year said alone, a page date holding it
        if answer.kind == "year" and any(parts[0] == answer.readings[0].value
                                         for parts in page.dates):
            return FOUND
        return None
    page_dates = page.dates or (((int(page.readings[0].value), None, None),)
                                if page.kind == "year" else ())
    for a in answer.dates:
        for p in page_dates:
            if all(x is None or x == y for x, y in zip(a, p, strict=True)):
                return FOUND
    return None


# --------------------------------------------------------------------- computed and nearest

def computed_reading(figure: Figure, index: FigureIndex, stems: list[str], *,
                     computes: str | None = "total") -> tuple[str, Figure] | None:
    """(how, one operand) when ``figure`` is a sum, a difference, a share or a change of
    two figures the page attaches to the answer's words, within the answer's rounding."""
    if figure.dates or figure.high or figure.ordinal or not stems or not computes:
        return None
    beside = sorted(index.beside(stems), key=lambda pair: -pair[1])[:COMPUTED_OPERANDS]
    values: list[tuple[float, Figure]] = []
    for f, _score in sorted(beside, key=lambda pair: pair[0].start):
        if f.dates or f.high or f.ordinal:
            continue
        if figure.dimension == "time" and f.kind == "year":
            values.append((f.readings[0].value * 31557600.0, f))  # years apart
            continue
        if f.kind == "year":
            continue
        if f.dimension == figure.dimension or figure.dimension is None or (
                figure.dimension == "percent" and f.dimension != "percent"):
            values.append((base_value(f, f.readings[0]), f))
    if len(values) < 2:
        return None
    for reading in figure.readings:
        a = base_value(figure, reading)
        half = max(base_step(figure, reading) / 2, abs(a) * 1e-6)
        for i, (x, fx) in enumerate(values):
            for y, fy in values[i + 1:]:
                if x == y or fx.dimension != fy.dimension:
                    continue  # the page saying one figure twice is not two operands
                for how, result in _results(figure, x, y, fx, fy, computes):
                    if abs(result - a) <= half:
                        exact = math.isclose(result, a, rel_tol=1e-9)
                        return (how if exact else f"≈ {how}"), fx
    return None


def _results(figure: Figure, x: float, y: float, fx: Figure, fy: Figure, cue: str
             ) -> list[tuple[str, float]]:
    """The readings of two operands a sentence's cue allows: a "total" a sum, a difference
    or a share of a whole (the part smaller than the whole); a "change" a difference or,
    for a percentage, the rate of change between two amounts (never two percentages: a
    page of market figures would explain any)."""
    tx, ty = _short(fx), _short(fy)
    small, large = (x, y) if abs(x) <= abs(y) else (y, x)
    ts, tl = (tx, ty) if abs(x) <= abs(y) else (ty, tx)
    if figure.dimension == "percent":
        if fx.dimension == fy.dimension == "percent":
            return [(f"{tx} + {ty}", x + y), (f"{tl} - {ts}", abs(x - y))] \
                if cue == "total" else []
        if fx.dimension != fy.dimension or not small:
            return []
        change = [(f"({tl} - {ts}) / {ts}", 100 * abs(large - small) / abs(small))]
        return ([(f"{ts} / {tl}", 100 * small / large), *change]) if cue == "total" \
            else change
    if figure.dimension == "times":
        return [(f"{tl} / {ts}", large / small)] if small else []
    difference = [(f"{tl} - {ts}", abs(x - y))]
    return ([(f"{tx} + {ty}", x + y), *difference]) if cue == "total" else difference


def _short(f: Figure) -> str:
    return _number(f.readings[0].value)


def _nearest(figure: Figure, index: FigureIndex, stems: list[str]) -> Figure | None:
    """The figure the page attaches to the answer's words that comes closest in kind and
    value to the answer's."""
    if not stems:
        return None
    beside = index.beside(stems)
    if not beside:
        return None
    target = _magnitude(figure)

    def rank(pair: tuple[Figure, int]) -> tuple[int, int, float]:
        f, score = pair
        same = int(_same_kind(figure, f))
        magnitude = _magnitude(f)
        distance = abs(magnitude - target) if target is not None and magnitude is not None \
            else 99.0
        return (-same, -score, distance)

    return min(beside, key=rank)[0]


def _same_kind(a: Figure, b: Figure) -> bool:
    if a.dates or b.dates:
        return (bool(a.dates) and bool(b.dates)) or (a.kind == "year" and bool(b.dates))
    return a.dimension == b.dimension and a.kind == b.kind


def _magnitude(f: Figure) -> float | None:
    if f.dates:
        parts = f.dates[0]
        return float((parts[0] or 0) * 400 + (parts[1] or 0) * 32 + (parts[2] or 0))
    if not f.readings:
        return None
    v = abs(base_value(f, f.readings[0]))
    return math.log10(v) if v > 0 else -12.0


# -------------------------------------------------------------------------- describing

def describe(f: Figure) -> str:
    """What a figure was read as, in one canonical line."""
    if f.dates:
        return " or ".join(_date(parts) for parts in f.dates)
    value = _number(f.readings[0].value) if f.readings else ""
    if f.high:
        value = f"{value}\u2013{_number(f.high[0].value)}"
    if f.percent:
        return f"{value} %"
    if f.currency is not None:
        return f"{value} {f.currency.code}"
    if f.unit is not None:
        return f"{value} {f.unit.name}"
    if f.ordinal:
        return f"rank {value}"
    return value


def _number(v: float) -> str:
    if v.is_integer() and abs(v) < 1e18:
        return str(int(v))
    return f"{v:.10g}"


def _date(parts: tuple[int | None, int | None, int | None]) -> str:
    year, month, day = parts
    y = f"{year:04d}" if year is not None else "-"
    m = f"{month:02d}" if month is not None else None
    d = f"{day:02d}" if day is not None else None
    return "-".join(x for x in (y, m, d) if x is not None)


def _value_key(f: Figure) -> set[str]:
    if f.dates:
        return {_date(p) for p in f.dates}
    return {_number(r.value) for r in f.readings}


_PROMPT_CHARS = 20_000


def _prompt_values(prompt: str) -> set[str]:
    if not prompt.strip():
        return set()
    keys: set[str] = set()
    for f in find_figures(prompt[:_PROMPT_CHARS], limit=200):
        keys |= _value_key(f)
    return keys


_FLAG_CHARS = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def claim_message(url: str, claim: Claim) -> str:
    """One plain sentence for a figure or name not on the page it is attributed to."""
    def clip(text: str) -> str:
        text = " ".join(_CONTROL.sub(" ", text).split())
        return text if len(text) <= _FLAG_CHARS else text[:_FLAG_CHARS] + "\u2026"

    what = "figure" if claim.kind == FIGURE else "name"
    if claim.nearest:
        where = f" ({claim.where} text)" if claim.where else ""
        nearest = f'the nearest figure the page gives beside the same words is ' \
                  f'"{clip(claim.nearest)}"{where}'
        if claim.kind == NAME:
            nearest = f'the page names "{clip(claim.nearest)}"{where}'
    else:
        nearest = ("the page gives no figure beside the same words" if claim.kind == FIGURE
                   else "the page names no such person, organisation or place")
    return (f'The {what} "{clip(claim.text)}" is not on {clip(url)} as readreceipt fetched '
            f"it: {nearest}; readreceipt fetched the page again independently, so its copy "
            "can differ from what the fetch tool read.")
