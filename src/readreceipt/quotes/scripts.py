"""How long a quotation must be to be worth checking, by the script it is written in.

A quoted string too short is a term, a title or a label: a few words occur on pages by
accident, or are the answer's own phrase in marks. How short is too short depends on the
script: a Chinese or Japanese character carries about what two Latin letters do, so thirty
of them are a paragraph, not a clause. The minimum is one figure, :data:`MIN_QUOTATION_CHARS`
Latin characters, and every character is weighed against it by its script
(:func:`latin_length`): a Han or kana character as :data:`CJK_WEIGHT` Latin ones, a Hangul
syllable as :data:`HANGUL_WEIGHT`, everything else (Latin, Cyrillic, Greek, Arabic, spaces,
digits) as one. A passage mixing scripts is weighed character by character.

The evidence, measured by ``bench/quotes.py --length-evidence`` on the corpus (the 181
articles and the wall/hard-negative pages, among them five Japanese and two Korean pages):

- Accidental matches, Latin. A stretch of one article is also on another page 23 % of the
  time at 10 characters, 6.3 % at 15, 3.0 % at 20, 2.0 % at 30 and 1.3 % at 40, the floor
  being text the pages share: past 30 a longer minimum buys little.
- Accidental matches, by script, counted the same way for all three (a stretch of a page's
  main text, 80 % of it in the script, found on another page or a second time on its own;
  199 Latin pages, 4 Han/kana, 2 Hangul): Latin 29.2 % at 12 characters, 9.5 % at 20, 5.7 %
  at 30; Han and kana 6.1 % at 8, 2.8 % at 10, 1.6 % at 12, 0.8 % at 15; Hangul 10.5 % at
  6, 1.3 % at 8 to 12, none from 15 on. Both fall under the Latin rate at 30 characters from
  8 characters on.
- Information per character (lzma, 3,000 characters of each script's pages, the format's
  overhead removed): Latin 4.2 bits, Han and kana 8.8, Hangul (spaces included) 8.0, about
  twice as much: 30 Latin characters say what about 14 to 16 of the others do.

The two measures bracket the minimum between 8 and 16 characters. It is set at 10 Han, kana
or Hangul characters (weight 3), where accidental matches are half the Latin rate at 30
characters (2.8 % against 5.7 %), which is what the minimum is for: a passage that long
already names one place on one page. The information measure alone would ask for 14 to 16,
but Chinese and Japanese answers quote short phrases (「遺憾だ」と述べた), and a longer minimum
would leave those unchecked, the failure this rule was written to end. The samples of the
other scripts are small (a few pages): the figures say where the minimum lies, not to the
character. A Korean clause also holds spaces, which weigh one each: about nine syllables make a
passage.
"""

from __future__ import annotations

import re

__all__ = ["CJK_WEIGHT", "HANGUL_WEIGHT", "MIN_QUOTATION_CHARS",
           "UNSPACED_CLASS", "hangul", "latin_length", "long_enough", "unspaced"]

#: The minimum, in Latin characters (see the module docstring for the evidence).
MIN_QUOTATION_CHARS = 30
#: What one Han or kana character weighs, in Latin characters: 10 of them make a passage.
CJK_WEIGHT = 3.0
#: What one Hangul syllable weighs, in Latin characters (the spaces of a Korean clause weigh
#: one each, so a clause of about nine syllables makes a passage).
HANGUL_WEIGHT = 3.0

_CJK = re.compile("[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                  "\uff66-\uff9f\U00020000-\U0003134f]")
_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def latin_length(text: str) -> float:
    """The length of ``text`` in Latin characters' worth."""
    if text.isascii():
        return float(len(text))
    cjk = len(_CJK.findall(text))
    hangul = len(_HANGUL.findall(text))
    return len(text) - cjk - hangul + CJK_WEIGHT * cjk + HANGUL_WEIGHT * hangul


def long_enough(text: str) -> bool:
    """Whether ``text`` is a passage rather than a term: long enough for its script, and not
    one unbroken token (a URL, an identifier) unless its script has no spaces to break it."""
    if latin_length(text) < MIN_QUOTATION_CHARS:
        return False
    if " " in text:
        return True
    # No space: a passage only in a script without spaces (a few of its letters at least,
    # beside Latin names), never an address.
    return len(_UNSPACED.findall(text)) >= 4 and "://" not in text


# Scripts written without spaces between words (Han, kana, Thai, Lao, Myanmar, Khmer): no
# word boundary to lean on, so a quotation may begin or end beside any of their letters.
#: The body of a regex character class holding them (for patterns that must not treat their
#: letters as word characters).
UNSPACED_CLASS = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff"
                  "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
                  "\U00020000-\U0003134f")
_UNSPACED = re.compile(f"[{UNSPACED_CLASS}]")


def unspaced(ch: str) -> bool:
    """Whether ``ch`` is a letter of a script written without spaces between words."""
    return ch >= "\u0e00" and _UNSPACED.match(ch) is not None  # a cheap no for most text


def hangul(ch: str) -> bool:
    """Whether ``ch`` is Hangul."""
    return ch >= "\u1100" and _HANGUL.match(ch) is not None
