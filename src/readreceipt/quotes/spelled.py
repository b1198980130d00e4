"""Where a text writes numbers in words, and what they are worth.

:func:`spelled_runs` finds the runs of number words of a text ("twenty-three", "a dozen",
"three hundred and twelve", "dreiundzwanzig", "trois cents", "veintitrés", "двадцать три")
and reads each with :mod:`readreceipt.quotes.numberwords`.

Cost: one split of the lowered text (its marks and hyphens made spaces first) and one set
intersection decide which number words the text holds at all (most pages hold a dozen); a
compound is tried only for a long word that begins and ends as a number word does; only the
words found are then located, each by a literal search. A run is at most
:data:`MAX_RUN_WORDS` words; the runs read are capped by the caller. A page's lowered text
is kept for the last few texts (:func:`lowered`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from readreceipt.quotes import numberwords
from readreceipt.quotes.numberwords import CONNECTORS, NOT_ALONE, WORDS, Part

__all__ = ["MAX_RUN_WORDS", "lowered", "spelled_runs"]

MAX_RUN_WORDS = 12
_PUNCT = ".,;:!?()[]{}\"'\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019*_"
#: The first three letters of every number word: a compound is tried only when its word
#: starts with one of them (a German or Dutch compound starts with its first part).
_PREFIXES = frozenset(w[:3] for w in WORDS if len(w) >= 3)
#: ... and ends with the last three letters of one (a compound ends with its last part).
_SUFFIXES = frozenset(w[-3:] for w in WORDS)
_ARTICLES = frozenset(("a", "an", "ein", "eine", "un", "une", "uno", "una", "um", "uma", "een"))
#: French "cent(s)" multiplies only a French unit before it ("trois cents"); after any
#: other word it is the coin ("seventy-five cents", "twenty cents"). "six" is left out: "six
#: cents" is more often six of the coin in an answer than 600.
_CENT = frozenset(("cent", "cents"))
_BEFORE_CENT = frozenset(("deux", "trois", "quatre", "cinq", "sept", "huit", "neuf"))
_WORD = re.compile(r"[^\W\d_]{1,48}")
_LETTER = re.compile(r"[^\W\d_]")


#: What parts a text's words: besides spaces, the marks a word may stand between and the
#: hyphens inside a compound ("twenty-three"); each replaced by a space in one pass of its own.
_PARTING = _PUNCT + "-\u2010"
_WORD_SET = frozenset(WORDS)


def _number_words(lowered: str) -> tuple[set[str], set[str]]:
    """The distinct words of ``lowered`` that are numbers or number compounds: the text's
    words taken apart once (by spaces, marks and hyphens), the table's words among them
    found by one set intersection, a compound tried only for a long word that begins and
    ends the way a number word does; and, apart, the fractions written as one word
    ("dreieinhalb"). A word found here is only looked for: where it stands as a word is
    :func:`spelled_runs`' to say."""
    parted = lowered
    for mark in _PARTING:
        if mark in parted:
            parted = parted.replace(mark, " ")
    tokens = set(parted.split())
    found = tokens & _WORD_SET
    found.update(word for word in tokens if len(word) > 5 and word[:3] in _PREFIXES
                 and (word[-3:] in _SUFFIXES or word[-2:] in _SUFFIXES) and word not in found
                 and numberwords.word_value(word))
    whole = _ending_words(lowered, numberwords.FRACTION_ENDINGS, numberwords.fraction_value)
    whole |= tokens & numberwords.MULTIPLICATIVE_WORDS
    whole |= _ending_words(lowered, numberwords.MULTIPLICATIVE_ENDINGS,
                           numberwords.multiplicative_value)
    return found, whole


#: Occurrences of one kind of ending looked at in one text, at most.
_MAX_ENDING_HITS = 200


def _ending_words(lowered: str, endings: tuple[str, ...],
                  value_of: Callable[[str], float | None]) -> set[str]:
    """The words of ``lowered`` that end with one of ``endings`` and are worth something by
    ``value_of`` ("dreieinhalb", "zehnmal"): each ending found as a literal, the word it
    ends read back (at most MAX_WORD_CHARS letters); an English page's many "half" or
    "normal" cost a search each, never a walk of its words."""
    out: set[str] = set()
    hits = 0
    for ending in endings:
        at = lowered.find(ending)
        while at >= 0 and hits < _MAX_ENDING_HITS:
            hits += 1
            end = at + len(ending)
            if end >= len(lowered) or not lowered[end].isalpha():
                start = at
                while start > 0 and lowered[start - 1].isalpha() and \
                        end - start < numberwords.MAX_WORD_CHARS:
                    start -= 1
                word = lowered[start:end]
                if len(word) > len(ending) and value_of(word) is not None:
                    out.add(word)
            at = lowered.find(ending, end)
    return out


@lru_cache(maxsize=8)
def lowered(text: str) -> str:
    """``text`` lowered with its offsets kept (a character whose lower case is longer stays
    as written): the figure index's word windows and the number words read the same one."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def spelled_runs(text: str, limit: int) -> list[tuple[int, int, float]]:
    """(start, end, value) of each number written in words in ``text``, in order (a
    fraction written as one word, "dreieinhalb", is a number of its own: 3.5; so is a
    multiplicative, "twice": 2, read by the caller as so many times)."""
    low = lowered(text)
    words, whole = _number_words(low)
    if not words and not whole:
        return []
    hits = _located(low, words, 20 * limit)
    out: list[tuple[int, int, float]] = list(_runs(low, hits, limit)) if hits else []
    for start, end, word in _located(low, whole, limit):
        value = whole_word_value(word)
        if value is not None:
            out.append((start, end, value))
    return sorted(out)[:limit]


def whole_word_value(word: str) -> float | None:
    """What a number written as one word of its own is worth: a fraction ("dreieinhalb")
    or how many times ("twice", "dreimal")."""
    fraction = numberwords.fraction_value(word)
    if fraction is not None:
        return fraction
    times = numberwords.multiplicative_value(word)
    return None if times is None else float(times)


def _located(low: str, words: set[str], cap: int) -> list[tuple[int, int, str]]:
    """Where each word stands as a word in ``low``, in order (at most about ``cap``)."""
    hits: list[tuple[int, int, str]] = []
    for word in words:
        # The word as a literal (a memchr-like search), its edges after: a word, not a part.
        at, size = low.find(word), len(word)
        while at >= 0 and len(hits) <= cap:
            end = at + size
            if not (at and low[at - 1].isalpha()) and _LETTER.match(low, end) is None:
                hits.append((at, end, word))
            at = low.find(word, at + 1)
    hits.sort()
    return hits


def _runs(lowered: str, hits: list[tuple[int, int, str]], limit: int
          ) -> list[tuple[int, int, float]]:
    out: list[tuple[int, int, float]] = []
    i = 0
    while i < len(hits) and len(out) < limit:
        run = [hits[i]]
        j = i + 1
        while j < len(hits) and len(run) < MAX_RUN_WORDS:
            gap = lowered[run[-1][1]: hits[j][0]]
            if len(gap) > 5 or gap.strip(" -\u00a0\u2010") not in ("", *CONNECTORS):
                break
            if hits[j][2] in _CENT and run[-1][2] not in _BEFORE_CENT:
                break  # "seventy-five cents": money, not French hundreds
            run.append(hits[j])
            j += 1
        parts: list[tuple[Part, int, int]] = []
        for index, (start, end, word) in enumerate(run):
            if index:
                gap = lowered[run[index - 1][1]:start].strip(" -\u00a0\u2010")
                if gap in CONNECTORS:
                    parts.append((Part(0, "and"), start, start))
            for part in numberwords.word_value(word) or []:
                parts.append((part, start, end))
        parts = _quatre_vingt(lowered, parts)
        consumed = 0
        for value, used in numberwords.combine([p for p, _, _ in parts]):
            chunk = parts[consumed: consumed + used]
            consumed += used
            if not chunk:
                continue
            start, end = chunk[0][1], chunk[-1][2]
            while chunk and chunk[-1][0].kind == "and":
                chunk = chunk[:-1]
            if not chunk:
                continue
            end = chunk[-1][2]
            alone = len({(s, e) for _, s, e in chunk}) == 1
            word = lowered[start:end]
            start = _with_article(lowered, start, chunk[0][0])
            with_article = start != chunk[0][1]
            if alone and (word in NOT_ALONE or value <= 1) and not with_article:
                continue
            if not with_article and all(p.kind in ("hundred", "scale") for p, _, _ in chunk):
                continue  # "million", "hundreds": a scale word alone counts nothing
            out.append((start, end, value))
        i = j
    return out[:limit]


def _quatre_vingt(lowered: str, parts: list[tuple[Part, int, int]]
                  ) -> list[tuple[Part, int, int]]:
    """French 80 is four twenties, "quatre-vingt(s)": one part, not 4 then 20."""
    out: list[tuple[Part, int, int]] = []
    for part, start, end in parts:
        if out and lowered[start:end] in ("vingt", "vingts") and \
                lowered[out[-1][1]:out[-1][2]] == "quatre" and start - out[-1][2] <= 1:
            out[-1] = (Part(80, "unit"), out[-1][1], end)
            continue
        out.append((part, start, end))
    return out


def _with_article(lowered: str, start: int, first: Part) -> int:
    """"a hundred", "a dozen", "ein Dutzend": the article is part of the number."""
    if first.kind not in ("hundred", "scale"):
        return start
    m = re.search(r"(?<![^\W\d_])([^\W\d_]{1,4})[ \u00a0]{1,2}$", lowered[max(0, start - 8):start])
    if m and m.group(1) in _ARTICLES:
        return start - (len(lowered[max(0, start - 8):start]) - m.start(1))
    return start
