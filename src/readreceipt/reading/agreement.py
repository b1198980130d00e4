"""Answer agreement: how much of what an agent's answer states the copy holds.

Where the agent's own reading is known (an answer given: the hook's, MCP's, ``capture
--answer``, ``check``, ``audit``), its *specifics* are set against the copy: the numbers it
gives (digits, with thousands separators and decimal commas read as the page may write
them), the names it uses (capitalised words that do not open a sentence), and its distinctive
words (long words, at least ``MIN_WORD_LETTERS`` letters). An answer rich in specifics none of
which is on a *short* copy is evidence the copy is not the page the agent read (a sign-in
page, a bot check, an interstitial in words no table has, a different page at the same
address): the verdict becomes UNKNOWN ``copy_differs``. It is never a reason to flag the agent:
the answer's quotations are then not checked against that copy (``not_run``), and the overlap
is recorded beside the check (``answer_check.overlap``).

Invariants: pure; linear in the answer's and the copy's lengths; nothing here depends on the
answer's language beyond the scripts' own capitals and digits.

Cost: the copy is read for what the answer states, not whole: its numbers in one scan
started only where its digits stand (:mod:`readreceipt.reading.digitscan`: the places found
once per text, and shared with the figure index's scan of the same page), its words only
as the answer's own (at most :data:`MAX_LOOKUPS` of them, each found in the lowered copy
with its ends checked; a longer answer, or a word standing too often, reads every word of
the copy once). A copy's numbers and words are kept for the last few copies (the pipeline
and the answer check read one copy in turn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from readreceipt.reading import digitscan
from readreceipt.reading.basics import letters

__all__ = ["MAX_SHARE", "MIN_SPECIFICS", "MIN_WORD_LETTERS", "SHORT_COPY_LETTERS", "Agreement",
           "agreement", "disagrees"]

#: An answer states enough to judge a copy by with at least this many distinct specifics.
MIN_SPECIFICS = 8
#: ... and a short copy holding at most this share of them is not the page it was read from
#: (an agent's answer about a page holds most of its numbers and names: bench/quotes.py's
#: answers hold all of theirs; a paraphrase keeps most names and numbers).
MAX_SHARE = 0.1
#: A copy this short (letters of main text) may be a stand-in the tables do not name; a longer
#: copy is a page, and an answer disagreeing with it is the answer's own matter.
SHORT_COPY_LETTERS = 800
#: A distinctive word: at least this many letters.
MIN_WORD_LETTERS = 8
#: Specifics kept as examples in the record.
EXAMPLES = 6
#: The answer is read up to this many characters for its specifics.
MAX_ANSWER_CHARS = 200_000
#: Words of an answer looked up one by one in a copy; past this many, or past
#: :data:`MAX_OCCURRENCES` places of one word, every word of the copy is read instead (a
#: bounded amount of work either way: lookups times the copy's length, or one pass).
MAX_LOOKUPS = 64
MAX_OCCURRENCES = 200

#: A number: grouped in thousands (at most seven groups, so a run of digit groups costs a
#: bounded amount at each start), or plain digits (at most 30), with a decimal part. The
#: lookahead first lets the engine skip every character but a digit at once.
_NUMBER = re.compile(r"(?=\d)(?:(?<![\w.,])\d{1,3}(?:[,.\u00a0\u202f ]\d{3}){1,7}"
                     r"(?:[.,]\d{1,6})?(?![\w])|(?<![\w.,])\d{1,30}(?:[.,]\d{1,6})?(?![\w]))")
_WORD = re.compile(r"[^\W\d_]{2,60}")
_LETTER = re.compile(r"[^\W\d_]")
#: What a number of _NUMBER holds besides its digits.
_SEPARATORS = str.maketrans("", "", ",.\u00a0\u202f ")
_SENTENCE_END = re.compile(r"[.!?:;\"\u201c\u201d\u00ab\u00bb()\[\]\n]\s{0,3}$")


@dataclass(frozen=True)
class Agreement:
    """What the answer states that the copy holds."""

    specifics: int
    found: int
    examples: tuple[str, ...]  # specifics of the answer not on the copy, first ones

    @property
    def share(self) -> float:
        return self.found / self.specifics if self.specifics else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"specifics": self.specifics, "found": self.found,
                "share": round(self.share, 3), "missing_examples": list(self.examples)}


def _digits(number: str) -> str:
    """A number of _NUMBER as digits only (1,200.5 / 1.200,5 / 1 200,5 all read 12005)."""
    return number.translate(_SEPARATORS)


def specifics(answer: str) -> tuple[set[str], set[str], set[str]]:
    """(numbers as digits, names, distinctive words) the answer states, folded."""
    text = answer[:MAX_ANSWER_CHARS]
    numbers = {d for m in _NUMBER.finditer(text) if len(d := _digits(m.group(0))) >= 2}
    names: set[str] = set()
    words: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group(0)
        if word[0].isupper() and not word.isupper() and m.start() > 0 and \
                not _SENTENCE_END.search(text[max(0, m.start() - 3):m.start()]):
            names.add(word.lower())
        elif len(word) >= MIN_WORD_LETTERS and word.islower():
            words.add(word)
    return numbers, names, words - names


def agreement(answer: str, main_text: str, page_text: str) -> Agreement:
    """How many of the answer's specifics the copy's texts hold (module docstring)."""
    numbers, names, words = specifics(answer)
    texts = [main_text] if page_text == main_text else [main_text, page_text]
    copy_numbers: set[str] = set()
    copy_words: set[str] = set()
    for text in texts:  # no number or word runs across the two (a line break between)
        copy_numbers |= numbers_held(text, frozenset(numbers - copy_numbers))
        copy_words |= held_words(text, frozenset((names | words) - copy_words))
    found = len(numbers & copy_numbers) + len(names & copy_words) + len(words & copy_words)
    missing = sorted(numbers - copy_numbers)[:2] + sorted(names - copy_words)[:2] + \
        sorted(words - copy_words)
    total = len(numbers) + len(names) + len(words)
    return Agreement(total, found, tuple(missing[:EXAMPLES]))


@lru_cache(maxsize=8)
def numbers_held(text: str, wanted: frozenset[str]) -> frozenset[str]:
    """The numbers of ``wanted`` (as digits) that a copy's text holds. Its numbers are read one
    at a time and only the wanted kept, so memory follows the answer's numbers, not the
    page's (a 10 MiB page of numbers held every match at once: about 250 MiB)."""
    if not wanted:
        return frozenset()
    held: set[str] = set()
    for m in digitscan.iter_scan(_NUMBER, text):
        digits = _digits(m.group())
        if digits in wanted:
            held.add(digits)
            if len(held) == len(wanted):
                break
    return frozenset(held)


@lru_cache(maxsize=8)
def _lowered(text: str) -> str | None:
    """``text`` lowered, or None when lowering changes its length (offsets would not hold)."""
    low = text.lower()
    return low if len(low) == len(text) else None


@lru_cache(maxsize=8)
def _words_of(text: str) -> frozenset[str]:
    return frozenset(m.group(0).lower() for m in _WORD.finditer(text))


def held_words(text: str, wanted: frozenset[str]) -> set[str]:
    """The words of ``wanted`` (lowered, as _WORD reads them) that ``text`` holds as words:
    each looked up where it stands, with letters on neither side; the copy's every word
    read instead when there are too many to look up."""
    if not wanted:
        return set()
    low = _lowered(text)
    if low is None or len(wanted) > MAX_LOOKUPS:
        return set(wanted & _words_of(text))
    held: set[str] = set()
    for word in wanted:
        at, tries = low.find(word), 0
        while at >= 0:
            tries += 1
            if tries > MAX_OCCURRENCES:
                return set(wanted & _words_of(text))
            end = at + len(word)
            if (at == 0 or not _LETTER.match(low, at - 1)) and not _LETTER.match(low, end):
                held.add(word)
                break
            at = low.find(word, at + 1)
    return held


def disagrees(agreed: Agreement, main_text: str) -> bool:
    """Whether the answer's specifics say the copy is not the page the agent read: a short
    copy holding (almost) none of an answer rich in them."""
    return (agreed.specifics >= MIN_SPECIFICS and agreed.share <= MAX_SHARE
            and letters(main_text) <= SHORT_COPY_LETTERS)
