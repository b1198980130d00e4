"""Names an answer attributes to a page: people, organisations, places the page should name.

A name is a run of two or more capitalised words ("Jane Roe", "Harbour Transport
Authority", "Banco de España", "Jean-Luc Picard"), with the particles names take between
them (of, de, van, von, der, al...), outside code, URLs, headings and the quotations the
quotation check reads; a sentence's first word counts only when the run goes on past it,
and function words, months and weekdays at the ends are dropped. German capitalises every
noun, so a run of German nouns can read as a name: such a run almost always shares a word
with the page, which is why a name is flagged only when the page holds **none** of its words.

Outcomes: ``found`` (the page holds the whole name, case and accents aside), ``approximate``
(the page holds some of its words: a surname, an organisation's short form), ``not_found``
(the page names no such entity: none of its words of three letters or more is on it).

Pure; a page's text is folded (once, kept for the last few pages) only when its lowered
text cannot say whether it holds a name (:class:`_PageText`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from readreceipt.quotes.figurecontext import attributes, sentence_of
from readreceipt.quotes.figureindex import fold_words

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from readreceipt.fetching.deadline import Deadline
    from readreceipt.quotes.claims import Claim

__all__ = ["MAX_NAMES", "MAX_NAME_WORDS", "check_names", "find_names"]

#: Names checked in one answer.
MAX_NAMES = 100
#: The most words a name runs to ("Banco de la Nación Argentina del Sur"); a longer run of
#: capitals is a title-case line, not a name.
MAX_NAME_WORDS = 8
_TOKEN = re.compile(r"[^\W\d_][\w'\u2019.\-]{0,40}")
_PARTICLES = frozenset(("of", "de", "da", "do", "dos", "das", "del", "della", "di", "van",
                        "von", "der", "den", "du", "des", "la", "le", "al", "el", "bin", "ibn",
                        "y", "e", "&", "zu", "ter", "ten", "st."))
#: Titles before a name, which a page may leave out ("Dr. Jane Roe", "Jane Roe").
def _split(words: str) -> list[str]:
    return words.split()


_TITLES = frozenset(("dr", "mr", "mrs", "ms", "prof", "sir", "dame", "herr", "frau", "m",
                     "mme", "sr", "sra", "dott", "lord", "lady", "st"))
_NOT_NAMES = frozenset(fold_words(w) for w in _split("""
    the a an in on at of for to and or but if as by from with this that these those it
    its according however also our we you he she they his her their my i there here when
    while after before since during although because so yet then thus still every each
    all some monday tuesday wednesday thursday friday saturday sunday january february
    march april may june july august september october november december der die das ein
    eine im am zum zur und oder laut nach bei mit von für auf dem den des le la les un
    une des du au aux et ou selon dans pour sur avec el los las unos unas y en según
    para con por del al il lo gli uno una e di da secondo per con o os um uma em segundo
    para com het een en volgens voor met summary overview key note notes answer source
    sources page article report update according yes no
    """))


def find_names(text: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, words) of each name-like run of ``text`` (already prepared: code, URLs
    and quotations blanked)."""
    out: list[tuple[int, int, list[str]]] = []
    line_start = 0
    for line in text.split("\n"):
        if not line.lstrip().startswith("#"):
            out.extend((line_start + s, line_start + e, words)
                       for s, e, words in _runs(line))
        line_start += len(line) + 1
        if len(out) >= MAX_NAMES:
            break
    return out[:MAX_NAMES]


def _runs(line: str) -> list[tuple[int, int, list[str]]]:
    tokens = [(m.start(), m.end(), m.group().rstrip(".'\u2019-"))
              for m in _TOKEN.finditer(line)]
    out = []
    run: list[tuple[int, int, str]] = []
    for index, (start, end, word) in enumerate([*tokens, (len(line), len(line), "")]):
        capital = (bool(word) and word[0].isupper() and not word.isupper()) or \
            (2 <= len(word) <= 6 and word.isupper() and word.isalpha())
        gap = line[run[-1][1]: start] if run else ""
        joined = run and len(gap) <= 2 and gap.strip() in ("", "&")
        if capital and (not run or joined):
            run.append((start, end, word))
            continue
        if word.lower() in _PARTICLES and run and joined and index + 1 < len(tokens) and \
                tokens[index + 1][2][:1].isupper():
            run.append((start, end, word))
            continue
        out.extend(_name_of(line, run))
        run = [(start, end, word)] if capital else []
    return out


def _name_of(line: str, run: list[tuple[int, int, str]]) -> list[tuple[int, int, list[str]]]:
    if len(run) > MAX_NAME_WORDS + 2:
        return []  # a title-case line or a list of words, not one name
    first, last = 0, len(run)
    while first < last and (fold_words(run[first][2]) in _NOT_NAMES
                            or run[first][2].lower() in _PARTICLES
                            or run[first][2].lower().rstrip(".") in _TITLES):
        first += 1
    while last > first and (fold_words(run[last - 1][2]) in _NOT_NAMES
                            or run[last - 1][2].lower() in _PARTICLES):
        last -= 1
    run = run[first:last]
    capitals = [w for _, _, w in run if w[:1].isupper()]
    if len(capitals) < 2:
        return []
    if line[max(0, run[-1][1]): run[-1][1] + 1] == ":" and len(capitals) <= 3:
        return []  # a label: "Key Points:"
    return [(run[0][0], run[-1][1], [w for _, _, w in run])]


@lru_cache(maxsize=8)
def _folded(text: str) -> str:
    return " ".join(fold_words(text).split())


@lru_cache(maxsize=8)
def _lowered(text: str) -> str:
    return text.lower()


#: Places of a phrase in a page's lowered text looked at before the page is folded whole.
_MAX_PLACES = 200
_WORD_CHAR = re.compile(r"[^\W_]")


class _PageText:
    """One of the page's texts, asked whether it holds a folded phrase as words.

    The answer is the folded text's (:func:`_folded`: case, accents and runs of spaces
    aside), but the text is folded whole only when a cheaper reading cannot say: an ASCII
    phrase standing in the lowered text between ASCII characters that are no letters or
    digits is in the folded text too (folding keeps ASCII as lowering does); on an ASCII
    text a phrase of one word that the lowered text does not hold so is in neither."""

    def __init__(self, text: str) -> None:
        self.text = text

    def holds(self, phrase: str) -> bool:
        if phrase.isascii():
            found = self._in_lowered(phrase)
            if found is not None:
                return found
        return _holds(_folded(self.text), phrase)

    def _in_lowered(self, phrase: str) -> bool | None:
        """True or False when the lowered text says, None when only the folded can."""
        low = _lowered(self.text)
        if len(low) != len(self.text):
            return None
        at, places, unsure = low.find(phrase), 0, False
        while at >= 0:
            places += 1
            if places > _MAX_PLACES:
                return None
            ends = [low[at - 1: at] if at else "", low[at + len(phrase): at + len(phrase) + 1]]
            if all(not ch or (ch.isascii() and not _WORD_CHAR.match(ch)) for ch in ends):
                return True
            unsure = unsure or any(not ch.isascii() for ch in ends)
            at = low.find(phrase, at + 1)
        if unsure or " " in phrase or not self.text.isascii():
            return None
        return False


def _holds(folded: str, phrase: str) -> bool:
    return re.search(rf"(?<![^\W_]){re.escape(phrase)}(?![^\W_])", folded) is not None


#: How far apart two parts of a name joined by a particle may stand on the page ("Jane Roe,
#: of Harbour Works"; "Jane Roe, chief engineer at Harbour Works").
_PARTS_GAP = 60


def _parts_held(page: _PageText, words: list[str]) -> bool:
    """"Jane Roe of Harbour Works": a name joined to another by a particle, its parts held
    in order within one sentence, a few words apart (each anywhere on the page let "Bank of
    England" be found on "Bank of Canada. England won.")."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word.lower() in _PARTICLES:
            parts.append([])
        else:
            parts[-1].append(word)
    named = [" ".join(fold_words(w) for w in p) for p in parts if p]
    if len(named) < 2 or not all(page.holds(p) for p in named):
        return False
    gap = rf"[^.!?\n]{{0,{_PARTS_GAP}}}?"
    pattern = gap.join(rf"(?<![^\W_]){re.escape(p)}(?![^\W_])" for p in named)
    return re.search(pattern, _folded(page.text)) is not None


def check_names(answer: str, prepared: str, tiers: Callable[[], Iterator[tuple[str, str]]],
                *, attributed: bool = False, deadline: Deadline | None = None) -> list[Claim]:
    from readreceipt.quotes.claims import APPROXIMATE, FOUND, NAME, NOT_FOUND, NOT_RUN, Claim

    out: list[Claim] = []
    seen: set[str] = set()
    found = find_names(prepared)
    if not found:
        return out
    folded_tiers = [(name, _PageText(text)) for name, text in tiers()]
    for start, end, words in found:
        text = answer[start:end]
        if text in seen:
            continue
        seen.add(text)
        if attributed and not attributes(answer, sentence_of(answer, start, end)):
            continue
        whole = " ".join(fold_words(w) for w in words)
        if deadline is not None and deadline.expired:  # each name reads the page's texts
            out.append(Claim(NAME, text, " ".join(words), NOT_RUN))
            continue
        outcome, where = NOT_FOUND, None
        for tier, folded in folded_tiers:
            if folded.holds(whole) or _parts_held(folded, words):
                outcome, where = FOUND, tier
                break
        if outcome != FOUND:
            parts = [fold_words(w) for w in words if len(w) >= 3 and w.lower()
                     not in _PARTICLES and fold_words(w) not in _NOT_NAMES]
            for tier, folded in folded_tiers:
                held = [p for p in parts if folded.holds(p)]
                # a surname of a full name, most of an organisation's words; one word of
                # three ("The New Black Death") is the page's word beside another name
                if held and 2 * len(held) >= len(parts):
                    outcome, where = APPROXIMATE, tier
                    break
        out.append(Claim(NAME, text, " ".join(words), outcome, where))
    return out
