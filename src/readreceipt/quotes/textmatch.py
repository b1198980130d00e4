"""What may differ between a page and a quotation of it and still match, and what may not.

Works on text already folded by :mod:`readreceipt.quotes.textfold`:

- :func:`squeeze`: spaces, quotation marks and markdown emphasis removed, the looser second
  try (a tag or a line end puts a space inside a word; an answer adds emphasis and nests a
  quotation in single marks). :func:`squeezed_pattern` finds a squeezed needle in the folded
  text with the boundaries at its two ends still checked, as :func:`boundaries_hold` does for
  the plain search: a match never starts or ends inside a word or a number.
- :func:`strip_markdown`: the emphasis, code marks and escapes an answer adds.
- :func:`nearest_passage`: for a passage not found, the closest passage the page holds, in
  the page's own characters and widened to whole words, with its similarity (rapidfuzz).
- :class:`PageText` and :class:`Needle`: a page's text folded once with its readings
  (:mod:`readreceipt.quotes.pagereadings`) and squeezes made when first needed, and a passage folded
  for searching; :meth:`Needle.found_in` tries the plain search on the text and each reading,
  then the squeezed one.

Invariant, checked by the must-not-match tables in tests/test_textfold.py: nothing here removes
or changes a digit, a sign, an inequality, a decimal point or a percent sign, and nothing joins
two numbers into one (a space between two digits survives a squeeze).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rapidfuzz import fuzz

from readreceipt.quotes.negations import NEGATION_AFTER, NEGATION_BEFORE, NEGATION_BEFORE_WORD
from readreceipt.quotes.pagereadings import (
    cjk_digits,
    folded_readings,
    source_readings,
    ungrouped,
)
from readreceipt.quotes.scripts import UNSPACED_CLASS, hangul, unspaced
from readreceipt.quotes.textfold import LazyFolded, fold, fold_text

__all__ = [
    "Needle",
    "PageText",
    "boundaries_hold",
    "find_bounded",
    "nearest_passage",
    "squeeze",
    "squeezed_pattern",
    "strip_markdown",
    "trim",
]


# ----------------------------------------------------------------------------- the looser try

# What a squeeze removes: whitespace, quotation marks (an answer nesting a quotation turns "
# into '), markdown emphasis and code marks, and the backslash of a markdown escape. Letters,
# digits, full stops, minus signs and every other mark stay.
_SQUEEZE_CLASS = r"\s\"'*_`\\"
_SQUEEZED_OUT = (" ", '"', "'", "*", "_", "`", "\\")
# A space between two digits is kept (as NUL): "3 5-year plans" must not read "35-year plans".
_DIGIT_GAP = re.compile(r"(\d) (?=\d)")  # in a needle only (see squeeze)
# A hyphen between two letters, ignored in a PDF, where a line end breaks a word with one and
# an extractor may or may not keep it. Never beside a digit, where it is a minus or a range.
_LETTER_HYPHEN = re.compile(r"-(?<=[^\W\d_]-)(?=[^\W\d_])")


def squeeze(folded: str, *, pdf: bool = False, digit_gaps: bool = False) -> str:
    """``folded`` (whose only whitespace is single spaces) with spaces, quotation marks and
    markdown emphasis removed.

    With ``digit_gaps`` a space between two digits is kept, as NUL, which is how a needle's
    pattern (:func:`squeezed_pattern`) knows where a number ends. A page is squeezed without:
    its squeeze is only a quick test before that pattern, which never lets a space between
    two digits go, runs on the folded page."""
    text = _DIGIT_GAP.sub("\\1\x00", folded) if digit_gaps else folded
    for mark in _SQUEEZED_OUT:
        text = text.replace(mark, "")
    return _LETTER_HYPHEN.sub("", text) if pdf and "-" in text else text


def squeezed_pattern(needle: str, *, pdf: bool = False) -> re.Pattern[str]:
    """A pattern finding squeezed ``needle`` in a *folded* text, word boundaries at both ends.

    Between two characters of the needle it allows what :func:`squeeze` removes; between two
    digits only emphasis marks, never a space (a NUL in the needle stands for that space).
    """
    gap = f"[{_SQUEEZE_CLASS}]*"
    letter_gap = f"[{_SQUEEZE_CLASS}-]*"
    parts: list[str] = [_start_guard(needle[0])]
    for i, ch in enumerate(needle):
        if i:
            prev = needle[i - 1]
            if prev == "\x00" or ch == "\x00":
                parts.append("")
            elif prev.isdigit() and ch.isdigit():
                parts.append("[*_`]*")
            elif pdf and prev.isalpha() and ch.isalpha():
                parts.append(letter_gap)
            else:
                parts.append(gap)
        parts.append(r"\s+" if ch == "\x00" else re.escape(ch))
    parts.append(_end_guard(needle[-1]))
    return re.compile("".join(parts))


# A word character of a script that separates words: the class a word boundary looks at.
_SPACED_WORD = f"[^\\W_{UNSPACED_CLASS}]"


def _start_guard(first: str) -> str:
    guard = ""
    if first.isalnum() and not unspaced(first):
        guard += f"(?<!{_SPACED_WORD})"
    if first.isdigit():
        # Not the tail of a decimal or a thousands group, not after a sign or an exponent mark.
        guard += r"(?<!\d[.,])(?<![-+^±])"
    return guard


def _end_guard(last: str) -> str:
    guard = ""
    if last.isalnum() and not unspaced(last):
        guard += f"(?!{_SPACED_WORD})"
    if last.isdigit():
        # Not the head of a decimal or thousands group, and not a number cut from its unit.
        guard += r"(?![.,]\d)(?![%‰°^])"
    return guard


def boundaries_hold(hay: str, start: int, end: int) -> bool:
    """Whether ``hay[start:end]`` starts and ends where a word or a number does.

    In a script without spaces between words (Chinese, Japanese, Thai) a match may start or
    end beside any letter, but never right after a negation that binds what follows (不, 没,
    未…) nor right before an ending that negates what precedes (ない, ません…); in Korean
    never right after a negating word (안, 못) nor before one (않다, 못하다, 아니다, 없다):
    the tables are :mod:`readreceipt.quotes.negations`.
    """
    first, last = hay[start], hay[end - 1]
    if start > 0:
        before = hay[start - 1]
        wide = not (first.isascii() and before.isascii())  # the common case skips the tables
        if first.isalnum() and before.isalnum() and not (
                wide and (unspaced(first) or unspaced(before))):
            return False
        if first.isdigit() and (
            before.isdigit() or before in "-+^±"
            or (before in ".," and start > 1 and hay[start - 2].isdigit())
        ):
            return False
        if wide and (unspaced(first) or unspaced(before)) and before in NEGATION_BEFORE:
            return False
        if wide and (hangul(first) or unspaced(first)) and \
                NEGATION_BEFORE_WORD.search(hay, max(0, start - 4), start):
            return False
    if end < len(hay):
        after = hay[end]
        wide = not (last.isascii() and after.isascii())
        if last.isalnum() and after.isalnum() and not (
                wide and (unspaced(last) or unspaced(after))):
            return False
        if last.isdigit() and (
            after.isdigit() or after in "%‰°^"
            or (after in ".," and end + 1 < len(hay) and hay[end + 1].isdigit())
        ):
            return False
        if wide and (unspaced(last) or hangul(last)) and _negation_follows(hay, end):
            return False
    return True


def _negation_follows(hay: str, end: int) -> bool:
    """Whether a negating ending starts at ``end`` or runs across it (a match cut inside
    ません, with ま in it and せん after it, still drops the negation)."""
    for at in range(max(0, end - 3), end + 1):
        m = NEGATION_AFTER.match(hay, at)
        if m is not None and m.end() > end:
            return True
    return False


# ---------------------------------------------------------------------------- answer markdown

#: Emphasis spans at most this many characters: an opening mark that never closes (``*a *a
#: *a...``) is then given up after that many, not at the end of the answer. An answer
#: emphasises a word or a phrase; a whole passage in emphasis is unwrapped apart
#: (quotations._unwrap).
MAX_EMPHASIS_CHARS = 300
#: Nested emphasis is undone at most this many levels deep (``***a** b*`` takes two).
MAX_EMPHASIS_LEVELS = 4
_EMPHASIS = re.compile(rf"(\*{{1,3}}|_{{1,3}})(?=\S)(.{{1,{MAX_EMPHASIS_CHARS}}}?)(?<=\S)\1")
_CODE = re.compile(r"(?<!`)`+([^`]+)`+")  # a run of marks opens once, not at each mark
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!\"'<>|~])")


def strip_markdown(passage: str) -> str:
    """A passage with the markdown an answer adds (emphasis, code marks, escapes) removed."""
    text = _ESCAPE.sub(r"\1", passage)
    text = _CODE.sub(r"\1", text)
    for _ in range(MAX_EMPHASIS_LEVELS):  # nested emphasis: ***a** b*
        previous, text = text, _EMPHASIS.sub(r"\2", text)
        if text == previous:
            break
    return text


# ------------------------------------------------------------------------------- searching

_TRAILING = " .,;:\u3002\u3001"


def trim(folded: str) -> str:
    """A closing full stop or comma belongs to the answer's sentence, not to the page's."""
    return folded.strip().rstrip(_TRAILING).rstrip()


class PageText:
    """One text of the page, folded once; its readings, squeezes and the map back to the
    source made when first needed (the map only for a passage not found)."""

    def __init__(self, source: str, pdf: bool) -> None:
        self.source = source
        self.pdf = pdf
        self.mapped = LazyFolded(source)
        self.text = self.mapped.text
        self._readings: list[str] | None = None
        self._numbers: list[tuple[str, str]] | None = None
        self._squeezed: list[tuple[str, str]] | None = None

    @property
    def readings(self) -> list[str]:
        """The folded text's further readings (each differs from it)."""
        if self._readings is None:
            made = [fold_text(r) for r in source_readings(self.source, pdf=self.pdf)]
            self._readings = [*folded_readings(self.text), *(r for r in made if r != self.text)]
        return self._readings

    @property
    def numbers(self) -> list[tuple[str, str]]:
        """(the text with CJK numerals as digits, its squeeze), when that differs: a reading
        only a passage holding a digit can need."""
        if self._numbers is None:
            digits = cjk_digits(self.text)
            self._numbers = [] if digits == self.text else [
                (digits, squeeze(digits, pdf=self.pdf))]
        return self._numbers

    def hays(self, digits: bool) -> list[tuple[str, str]]:
        """Every folded text a passage is looked for in, with its squeeze."""
        return [*self.squeezed, *self.numbers] if digits else self.squeezed

    @property
    def squeezed(self) -> list[tuple[str, str]]:
        """(folded text or reading, its squeeze), the text first."""
        if self._squeezed is None:
            texts = [self.text, *self.readings]
            self._squeezed = [(t, squeeze(t, pdf=self.pdf)) for t in texts]
        return self._squeezed


class Needle:
    """A passage folded for searching: as written, without markdown, and squeezed."""

    def __init__(self, passage: str, pdf: bool) -> None:
        clean = trim(fold(strip_markdown(passage)))
        # The answer's thousands grouped by typographic spaces, written without them, as the
        # page may write them (pagereadings.source_readings reads the page the other way).
        plain = trim(fold(ungrouped(strip_markdown(passage))))
        variants = (trim(fold(passage)), clean, cjk_digits(clean), plain)
        self.strict = [n for n in dict.fromkeys(variants) if n]
        self.clean = clean
        self.squeezed = trim(squeeze(clean, pdf=pdf))  # for the quick test
        self._marked = trim(squeeze(clean, pdf=pdf, digit_gaps=True))  # for the pattern
        self.pdf = pdf
        # Only a Chinese or Japanese passage with a digit can need the page's CJK numerals read
        # as digits (a page in those scripts writes them; the answer may not).
        self.digits = any(ch.isdigit() for ch in clean) and any(unspaced(ch) for ch in clean)
        self._pattern: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = squeezed_pattern(self._marked, pdf=self.pdf)
        return self._pattern

    def found_in(self, page: PageText) -> bool:
        """Whether ``page`` holds the passage: plainly in its text or a reading, or squeezed."""
        # The text first: its further readings are made only when it does not hold the passage.
        if any(find_bounded(needle, page.text) for needle in self.strict):
            return True
        readings = [*page.readings, *(t for t, _ in page.numbers)] if self.digits \
            else page.readings
        if any(find_bounded(needle, hay) for hay in readings for needle in self.strict):
            return True
        if not self.squeezed:
            return False
        for hay, squeezed in page.hays(self.digits):
            if self.squeezed in squeezed and next(self._squeezed_spans(hay, 0, len(hay)), None):
                return True
        return False

    def spans(self, hay: str, squeezed: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """Where in the folded ``hay`` (``squeezed`` its squeeze) the passage is, starting
        between ``lo`` and ``hi``: plain matches first, then squeezed ones."""
        for needle in self.strict:
            at = hay.find(needle, lo, hi + len(needle))
            while at >= 0:
                if boundaries_hold(hay, at, at + len(needle)):
                    yield at, at + len(needle)
                at = hay.find(needle, at + 1, hi + len(needle))
        if self.squeezed and self.squeezed in squeezed:
            yield from self._squeezed_spans(hay, lo, hi)

    def _squeezed_spans(self, hay: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        reach = min(len(hay), hi + 4 * len(self._marked) + 64)  # room for the gaps
        for m in self.pattern.finditer(hay, lo, reach):
            if m.start() > hi:
                return
            if boundaries_hold(hay, m.start(), m.end()):
                yield m.span()


def find_bounded(needle: str, hay: str) -> bool:
    """Whether ``needle`` occurs in ``hay`` starting and ending where words or numbers do."""
    at = hay.find(needle)
    while at >= 0:
        if boundaries_hold(hay, at, at + len(needle)):
            return True
        at = hay.find(needle, at + 1)
    return False


# --------------------------------------------------------------------------- nearest passage

_WS = re.compile(r"\s+")

def nearest_passage(needle: str, page: PageText) -> tuple[str | None, float | None]:
    """The passage of the page closest to ``needle``, widened to whole words, and its score."""
    hay = page.text
    if not needle or not hay.strip():
        return None, None
    if len(needle) >= len(hay):
        start, end, score = 0, len(hay), _ratio(needle, hay)
    else:
        located = _locate(needle, hay)
        if located is None:
            return None, None
        start, end, score = _word_aligned(needle, hay, *located)
        start, end = _cover_missing_words(needle, hay, start, end)
        start, end = _whole_clauses(needle, hay, start, end)
    a, b = page.mapped.source_span(start, end)
    source = page.source
    # Whole words, where the script has words: Chinese and Japanese run on without a space.
    while a > 0 and not source[a - 1].isspace() and not unspaced(source[a - 1]):
        a -= 1
    while b < len(source) and not source[b].isspace() and not unspaced(source[b]):
        b += 1
    nearest = _WS.sub(" ", source[a:b]).strip().lstrip("\u3002\u3001\uff0c")
    # The page's own quotation marks around the passage, and the comma that ended its clause,
    # are not part of it: shown between marks, they would be doubled (“"We did not…,"”).
    nearest = _unwrapped(nearest)
    # Not found, so never shown as identical however close (one letter in 2,000 rounds to 100).
    return (nearest or None), min(round(float(score), 1), 99.9)


#: A needle longer than this is located by probes of PROBE_CHARS (rapidfuzz aligns up to 64
#: characters bit-parallel over the whole page; a longer one costs time in its square).
LONG_NEEDLE_CHARS = 128
PROBE_CHARS = 64


#: A ratio between long texts is taken on their first this many characters: its cost is the
#: product of the two lengths (a 1 MiB quotation against a 900 KB page: 10^12 steps).
SCORE_CHARS = 4096


def _ratio(a: str, b: str) -> float:
    return float(fuzz.ratio(a[:SCORE_CHARS], b[:SCORE_CHARS]))


def _locate(needle: str, hay: str) -> tuple[int, int] | None:
    """Where in ``hay`` the span most like ``needle`` is (as long as the needle)."""
    if len(needle) <= LONG_NEEDLE_CHARS:
        found = fuzz.partial_ratio_alignment(needle, hay)
        return None if found is None else (found.dest_start, found.dest_end)
    # Probe with its start, middle and end; the probe that reads best places the whole.
    best: tuple[float, int] | None = None
    for offset in (0, (len(needle) - PROBE_CHARS) // 2, len(needle) - PROBE_CHARS):
        probe = fuzz.partial_ratio_alignment(needle[offset : offset + PROBE_CHARS], hay)
        if probe is not None and (best is None or probe.score > best[0]):
            best = (probe.score, max(0, probe.dest_start - offset))
    if best is None:
        return None
    return best[1], min(len(hay), best[1] + len(needle))


def _word_aligned(needle: str, hay: str, start: int, end: int) -> tuple[int, int, float]:
    """The span of whole words near ``hay[start:end]`` that reads most like ``needle``.

    The alignment is as long as the needle, so where the page says it in fewer or more
    characters it begins or ends inside a neighbouring word; the three word edges either side
    are tried and the closest span wins.
    """
    if len(needle) > LONG_NEEDLE_CHARS:
        # Each ratio costs the needle's length squared: a long one is scored once, where
        # its probes placed it (a 27 KB quotation: 10 ms, not 1 s), on its beginning.
        return start, end, _ratio(needle, hay[start:end])
    slack = max(12, len(needle) // 4)
    starts = _edges(hay, start, slack, starting=True)
    ends = _edges(hay, end, slack, starting=False)
    best = (fuzz.ratio(needle, hay[start:end]), start, end)
    for i in starts:
        for j in ends:
            if j > i:
                score = fuzz.ratio(needle, hay[i:j], score_cutoff=best[0])
                if score > best[0]:
                    best = (score, i, j)
    return best[1], best[2], best[0]


#: Where a clause ends, for widening the nearest passage to what the page says instead.
_CLAUSE_MARKS = frozenset('.,;:!?"\n\u201c\u201d\u3002\u3001')
_WORD = re.compile(r"\w+")


def _whole_clauses(needle: str, hay: str, start: int, end: int) -> tuple[int, int]:
    """Widen the span to the clause edges when the needle's first or last word is not in it.

    The closest span by ratio stops where the wording differs: for "we made it safer" against
    "we made it more forgiving," it ends at "it". A reader needs the page's own ending to see
    the difference, so the span runs on to the end of the clause (as far as half the needle's
    length, at least 24 characters), and likewise back to the clause's start.
    """
    words = _WORD.findall(needle)
    if not words:
        return start, end
    slack = max(24, len(needle) // 2)
    span = hay[start:end]
    if words[-1] not in span[-(len(words[-1]) + 12):]:
        limit = min(len(hay), end + slack)
        stop = next((i for i in range(end, limit) if hay[i] in _CLAUSE_MARKS), None)
        if stop is not None:
            end = stop
    if words[0] not in span[: len(words[0]) + 12]:
        limit = max(0, start - slack)
        stop = next((i for i in range(start - 1, limit - 1, -1) if hay[i] in _CLAUSE_MARKS),
                    None)
        if stop is not None:
            start = stop + 1
    return start, end


#: How many of the needle's first (and last) words are looked for just outside the closest
#: span: the words a ratio alignment drops where the page puts more words between them.
EDGE_WORDS = 3


def _cover_missing_words(needle: str, hay: str, start: int, end: int) -> tuple[int, int]:
    """Widen the span over the needle's first and last words when the span lacks them but
    the page has them just outside it.

    The closest span by ratio is as long as the needle, so where the page says more it drops
    the needle's edges: for "the retrofit took four years" against "the retrofit of the
    harbour bridge took four years" it starts at "the harbour", leaving out the very words
    that differ. A word of the needle's first (last) three that the span lacks and that
    stands within reach before (after) it pulls the start (end) back to it, and over the
    needle's words before (after) it as the page has them.
    """
    words = _WORD.findall(needle)
    if len(words) < 2:
        return start, end
    slack = max(24, len(needle) // 2)
    inside = set(_WORD.findall(hay[start:end]))
    lead = words[:EDGE_WORDS]
    for i, word in enumerate(lead):
        if word in inside:
            continue
        window = max(0, start - slack)
        found = [m for m in _WORD.finditer(hay, window, start) if m.group(0) == word]
        if found:
            at = found[-1].start()
            before = list(_WORD.finditer(hay, window, at))
            for want, got in zip(reversed(lead[:i]), reversed(before), strict=False):
                if got.group(0) != want:
                    break
                at = got.start()
            start = at
        break
    tail = words[-EDGE_WORDS:]
    for i in range(len(tail) - 1, -1, -1):
        word = tail[i]
        if word in inside:
            continue
        window = min(len(hay), end + slack)
        found = [m for m in _WORD.finditer(hay, end, window) if m.group(0) == word]
        if found:
            at = found[0].end()
            after = list(_WORD.finditer(hay, at, window))
            for want, got in zip(tail[i + 1:], after, strict=False):
                if got.group(0) != want:
                    break
                at = got.end()
            end = at
        break
    return start, end


#: Marks that wrap a passage or end its clause on the page, left off the nearest passage.
_WRAPPING = "\"\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d\u300e\u300f"


def _unwrapped(text: str) -> str:
    """``text`` without the quotation marks around it and a comma, semicolon or colon that
    ended its clause (a closing full stop stays: it is the page's sentence end)."""
    out = text.strip().rstrip(",;:").strip()
    while out and out[0] in _WRAPPING:
        out = out[1:].lstrip()
    while out and (out[-1] in _WRAPPING or out[-1] in ",;:"):
        out = out[:-1].rstrip()
    return out


def _edges(hay: str, at: int, slack: int, *, starting: bool) -> list[int]:
    """Up to three places either side of ``at`` where a word starts (or ends) in ``hay``."""
    def edge(i: int) -> bool:
        if starting:
            return i == 0 or (hay[i - 1] == " " and hay[i] != " ")
        return i == len(hay) or (hay[i] == " " and hay[i - 1] != " ")

    before = [i for i in range(at, max(0, at - slack) - 1, -1) if edge(i)][:3]
    after = [i for i in range(at + 1, min(len(hay), at + slack) + 1) if edge(i)][:3]
    return [*before, *after]
