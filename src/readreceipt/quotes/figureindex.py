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

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

from readreceipt.quotes.figures import Figure, Reading, find_figures

__all__ = ["WINDOW", "FigureIndex", "base_value", "fold_words", "index_of"]

#: How far (characters, either side, within one paragraph) a word may stand from a figure
#: and still be attached to it: about a dozen words, a clause ("an average of 84,000
#: crossings a day on the harbour bridge").
WINDOW = 90
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


@dataclass(frozen=True)
class Entry:
    """One value a figure holds: a reading, or one end of a range."""

    value: float  # in the base unit
    figure: int  # index into FigureIndex.figures
    end: str  # "low", "high" or "" (not a range)


class FigureIndex:
    def __init__(self, text: str) -> None:
        self.text = text
        self.figures: list[Figure] = find_figures(text)
        self.starts = [f.start for f in self.figures]
        self._values: dict[str | None, tuple[list[float], list[Entry]]] | None = None
        self._lowered: str | None = None
        self.years: dict[int, list[int]] = {}
        for i, f in enumerate(self.figures):
            for parts in f.dates:
                if parts[0] is not None:
                    self.years.setdefault(parts[0], []).append(i)

    def _by_dimension(self) -> dict[str | None, tuple[list[float], list[Entry]]]:
        if self._values is None:
            groups: dict[str | None, list[Entry]] = {}
            for i, f in enumerate(self.figures):
                if f.dates:
                    continue
                for r in f.readings:
                    groups.setdefault(f.dimension, []).append(
                        Entry(base_value(f, r), i, "low" if f.high else ""))
                for r in f.high:
                    groups.setdefault(f.dimension, []).append(Entry(base_value(f, r), i, "high"))
            self._values = {}
            for dim, entries in groups.items():
                entries.sort(key=lambda e: e.value)
                self._values[dim] = ([e.value for e in entries], entries)
        return self._values

    def near_value(self, dimension: str | None, low: float, high: float) -> list[Entry]:
        """Entries of ``dimension`` whose value lies in [low, high]."""
        table = self._by_dimension().get(dimension)
        if table is None:
            return []
        values, entries = table
        return entries[bisect_left(values, low): bisect_right(values, high)]

    def dimensions(self) -> list[str | None]:
        return list(self._by_dimension())

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
        if self._lowered is None:
            low = self.text.lower()
            self._lowered = low if len(low) == len(self.text) else "".join(
                ch.lower() if len(ch.lower()) == 1 else ch for ch in self.text)
        return self._lowered

    def beside(self, stems: list[str]) -> dict[int, int]:
        """Figures within WINDOW of any of ``stems`` (lowered words or stems), with how many
        distinct stems stand beside each."""
        low = self.lowered()
        score: dict[int, set[str]] = {}
        for stem in stems:
            at = low.find(stem)
            seen = 0
            while at >= 0 and seen < MAX_OCCURRENCES:
                seen += 1
                first = bisect_left(self.starts, at - WINDOW - 40)
                last = bisect_right(self.starts, at + WINDOW)
                for i in range(first, last):
                    f = self.figures[i]
                    if f.end >= at - WINDOW and f.start <= at + len(stem) + WINDOW and \
                            "\n" not in low[min(f.start, at): max(f.end, at)]:
                        score.setdefault(i, set()).add(stem)
                at = low.find(stem, at + 1)
        return {i: len(s) for i, s in score.items()}

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
