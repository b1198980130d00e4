"""A page text's figures, looked up by value and by the words beside them.

:class:`FigureIndex` reads one text once (:func:`readreceipt.quotes.figures.find_figures`)
and answers the two questions the claim check asks of it: which figures hold a value
(:meth:`FigureIndex.near_value`, every reading, in the dimension's base unit, a range's two
ends each), and which figures stand within :data:`WINDOW` characters of a word
(:meth:`FigureIndex.beside`, for the nearest figure the page attaches to the answer's words
and for the operands of a computed figure). :func:`fold_words` is the one fold both sides'
words go through: case and accents, nothing else.

An index is built per text and kept for the last few texts (the same page is checked many
times in a row: a hook's answer, then the Stop gate's; a benchmark's answers).
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache

from readreceipt.quotes.figures import (
    MAX_FIGURES,
    MYRIADS,
    Figure,
    Reading,
    Scan,
    significant_digits,
)
from readreceipt.quotes.spelled import lowered

__all__ = ["WINDOW", "FigureIndex", "base_precision", "base_step", "base_value", "fold_words",
           "index_of"]

#: How far (characters, either side, within one paragraph) a word may stand from a figure
#: and still be attached to it: about a dozen words, a clause ("an average of 84,000
#: crossings a day on the harbour bridge").
WINDOW = 90
#: How far a figure may stretch past its number's digits (a currency or a hedge before; a
#: scale, a unit phrase, a range's other end after): a number farther than WINDOW and this
#: from every word of the answer's sentence cannot be attached to one, and is not read.
REACH = 160
#: Occurrences of one word looked at when gathering the figures beside it.
MAX_OCCURRENCES = 400

_COMBINING = re.compile("[\u0300-\u036f]")


def fold_words(text: str) -> str:
    """``text`` lowered, its accents dropped (NFKD): the only fold words go through."""
    if text.isascii():
        return text.lower()
    # NFKD then NFC: the accents go, Hangul syllables (which NFKD takes apart) come back.
    return unicodedata.normalize(
        "NFC", _COMBINING.sub("", unicodedata.normalize("NFKD", text))).casefold()


def base_value(figure: Figure, reading: Reading) -> float:
    """A reading in its dimension's base unit (metres, kilograms, seconds, °C...)."""
    unit = figure.unit
    if unit is None:
        return reading.value
    return reading.value * unit.factor + unit.offset


def base_precision(figure: Figure, reading: Reading) -> float:
    unit = figure.unit
    return reading.precision * (unit.factor if unit is not None else 1.0)


def base_step(figure: Figure, reading: Reading) -> float:
    unit = figure.unit
    return reading.step * (unit.factor if unit is not None else 1.0)


def _digits_of(value: float) -> str:
    """The significant digits of a value, as :func:`significant_digits` writes a number."""
    text = f"{value:.12g}".split("e")[0]
    return text.replace(".", "").strip("0") or "0"


def _mantissa(value: float) -> float:
    """``value`` brought into [1, 10)."""
    if value <= 0:
        return 0.0
    return float(value / 10.0 ** math.floor(math.log10(value)))


def _mantissa_of(digits: str) -> float:
    return float(f"{digits[0]}.{digits[1:]}") if digits else 0.0





class FigureIndex:
    """One page text's figures, read only where an answer's figure may be among them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.scan = Scan(text, hedges=False)
        self.starts = [m.start() for m in self.scan.matches]
        self._digits: dict[str, list[int]] = {}
        self._others: list[int] = []  # dates and CJK numerals: always read when asked
        self._others_not_dates: list[int] = []  # ... CJK numerals and their dates
        by_core: dict[str, list[int]] = {}
        for i, m in enumerate(self.scan.matches):
            if m.lastgroup == "num":
                by_core.setdefault(m.group(), []).append(i)
                if text[m.end():m.end() + 1] in MYRIADS and text[m.end() + 1:m.end() + 2] \
                        .isdigit():
                    self._others.append(i)  # "1万2000": its value's digits are not its own
                    self._others_not_dates.append(i)
            else:
                self._others.append(i)
                if m.lastgroup != "date":
                    self._others_not_dates.append(i)
        for indices in by_core.values():
            digits = significant_digits(self.scan.matches[indices[0]]) or "0"
            self._digits.setdefault(digits, []).extend(indices)
        self._spelled: list[Figure] | None = None
        self._mantissas: tuple[list[float], list[str]] | None = None

    def spelled(self) -> list[Figure]:
        """The page's numbers written in words (read once, when first asked for)."""
        if self._spelled is None:
            self._spelled = self.scan.spelled(MAX_FIGURES, [])
        return self._spelled

    def _near(self, i: int, stems: list[str] | None) -> bool:
        """Whether match ``i`` stands near enough to one of ``stems`` for its figure to be
        attached to it (None: no words to stand near, every match is)."""
        if not stems:
            return True
        m = self.scan.matches[i]
        around = fold_words(self.text[max(0, m.start() - WINDOW - REACH):
                                      m.end() + WINDOW + REACH])
        return any(stem in around for stem in stems)

    def _read(self, indices: Iterable[int], stems: list[str] | None) -> Iterator[Figure]:
        for i in sorted(set(indices)):
            if self._near(i, stems):
                f = self.scan.at(i)
                if f is not None:
                    yield f

    def whole_numbers(self, wanted: set[int], stems: list[str] | None = None
                      ) -> Iterator[Figure]:
        """Figures that may hold a date's or a year's parts: a number written as digits
        alone whose value is one of ``wanted`` ("22", "03", "2010"; a day or a year is never
        written "2,010"), numeric dates holding one of them, CJK numerals and their dates;
        each read only when come to (a page of timestamps holds hundreds of numbers whose
        digits are a year's, "2010" in "20.10" or "201.0", which no date holds)."""
        keys = {_digits_of(float(w)) for w in wanted if w}
        # a numeric date writes the day (or, for a month's date, the year) in its digits
        written = {str(w) for w in wanted}
        matches = self.scan.matches
        out: list[int] = []
        for key in keys:
            out.extend(i for i in self._digits.get(key, []) if matches[i].group().isdigit()
                       and int(matches[i].group()) in wanted)
        out.extend(i for i in self._others if matches[i].lastgroup != "date"
                   or any(w in matches[i].group() for w in written))
        yield from self._read(out, stems)

    def with_digits(self, targets: list[float], share: float, *, dates: bool = True,
                    stems: list[str] | None = None) -> Iterator[Figure]:
        """Figures whose digits may write one of ``targets`` (any power of ten: a scale
        word, a unit of another prefix), within ``share`` of it, in the page's order, each
        read only when the caller comes to it (most callers stop at the first that agrees);
        CJK numerals always, and numeric dates unless ``dates`` is False (a figure that is
        neither a date nor a year, which no date can hold); with ``stems``, only numbers
        standing near one of them (:meth:`_near`: a figure no word of the answer's sentence
        stands beside is not read at all)."""
        out_indices: list[int] = list(self._others if dates else self._others_not_dates)
        for t in targets:
            if not t:
                out_indices.extend(self._digits.get("0", []))
                continue
            out_indices.extend(self._digits.get(_digits_of(abs(t)), []))
            if share:
                out_indices.extend(self._near_mantissa(_mantissa(abs(t)), share))
        yield from self._read(out_indices, stems)

    def _near_mantissa(self, wanted: float, share: float) -> list[int]:
        """Matches whose digits' mantissa is within ``share`` of ``wanted`` (a sorted list and
        two bisections: a hostile answer's many figures cost no scan of the page each)."""
        if self._mantissas is None:
            pairs = sorted((_mantissa_of(d), d) for d in self._digits)
            self._mantissas = ([m for m, _ in pairs], [d for _, d in pairs])
        keys, digits = self._mantissas
        out: list[int] = []
        for centre in (wanted, wanted * 10, wanted / 10):  # across the wrap at 10
            low, high = centre * (1 - share), centre * (1 + share)
            for d in digits[bisect_left(keys, low): bisect_right(keys, high)]:
                out.extend(self._digits[d])
        return out

    def figures_between(self, start: int, end: int) -> list[Figure]:
        """The figures whose number starts in [start, end)."""
        first, last = bisect_left(self.starts, start), bisect_left(self.starts, end)
        return [f for i in range(first, last) if (f := self.scan.at(i)) is not None]

    def window(self, figure: Figure) -> str:
        """The text around ``figure`` within one paragraph, folded."""
        text = self.text
        start = max(0, figure.start - WINDOW)
        end = min(len(text), figure.end + WINDOW)
        cut = text.rfind("\n", start, figure.start)
        if cut >= 0:
            start = cut + 1
        cut = text.find("\n", figure.end, end)
        if cut >= 0:
            end = cut
        return fold_words(text[start:end])

    def lowered(self) -> str:
        """The text lowered, its offsets kept (the number words read the same one)."""
        return lowered(self.text)

    def beside(self, stems: list[str]) -> list[tuple[Figure, int]]:
        """Figures within WINDOW of any of ``stems`` (lowered words or stems), numbers in
        words included, with how many distinct stems stand beside each."""
        low = self.lowered()
        score: dict[tuple[int, int], set[str]] = {}
        seen_figures: dict[tuple[int, int], Figure] = {}
        spelled = self.spelled()
        spelled_starts = [f.start for f in spelled]
        for stem in stems:
            at = low.find(stem)
            seen = 0
            while at >= 0 and seen < MAX_OCCURRENCES:
                seen += 1
                lo, hi = at - WINDOW - 40, at + WINDOW
                near = self.figures_between(lo, hi) + spelled[
                    bisect_left(spelled_starts, lo): bisect_left(spelled_starts, hi)]
                for f in near:
                    if f.end >= at - WINDOW and f.start <= at + len(stem) + WINDOW and \
                            "\n" not in low[min(f.start, at): max(f.end, at)]:
                        key = (f.start, f.end)
                        seen_figures[key] = f
                        score.setdefault(key, set()).add(stem)
                at = low.find(stem, at + 1)
        return [(seen_figures[k], len(v)) for k, v in sorted(score.items())]

    def snippet(self, figure: Figure) -> str:
        """The figure in the page's own characters with the words around it ("an average of
        84,000 crossings a day"): a stretch of this text, verbatim."""
        text = self.text
        start, end = figure.start, figure.end
        left = text.rfind("\n", max(0, start - 40), start)
        begin = left + 1 if left >= 0 else max(0, start - 40)
        if begin > 0 and left < 0:
            space = text.find(" ", begin, start)
            begin = space + 1 if space >= 0 else start
        stop = min(len(text), end + 48)
        cut = text.find("\n", end, stop)
        if cut >= 0:
            stop = cut
        elif stop < len(text):
            space = text.rfind(" ", end, stop)
            stop = space if space > end else stop
        for mark in (". ", "; ", "? ", "! "):
            cut = text.find(mark, end, stop)
            if cut >= 0:
                stop = cut + 1
        for mark in (". ", "; "):
            cut = text.rfind(mark, begin, start)
            if cut >= 0:
                begin = cut + 2
        return text[begin:stop].strip()


@lru_cache(maxsize=8)
def index_of(text: str) -> FigureIndex:
    """The index of ``text``, kept for the last few texts."""
    return FigureIndex(text)
