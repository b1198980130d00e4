"""Two facts every reading module asks: how many letters a text holds, and whether an element
hides itself.

Letters, not characters, measure how much a page says: digits, spaces and punctuation are
left out. A letter of an alphabet counts once; a Han, kana or Hangul character counts
:data:`WIDE_LETTER_WEIGHT` times, since it says about what two Latin letters do (lzma
measures 8.8 bits a character for Chinese and Japanese page text, 8.0 for Korean, 4.2 for
Latin: quotes/scripts.py). So the thresholds drawn on the mostly Latin corpus hold for a
Chinese news brief of 120 characters, which is not thin text (tests/pages/hard_negative/
zh_short_news_paidui.html).

An element hides itself by the ``hidden`` attribute, ``aria-hidden="true"`` or an inline
style of ``display: none`` / ``visibility: hidden`` (what the markup alone says: no style
sheet is applied).

Invariant: pure functions; the one place these two rules are written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["WIDE_LETTER_WEIGHT", "hides_itself", "letters"]

_NON_LETTERS = re.compile(r"[\W\d_]+")
#: What one Han, kana or Hangul character weighs, in letters (module docstring).
WIDE_LETTER_WEIGHT = 2
_WIDE = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                   "\uac00-\ud7a3\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f]")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden")
#: The ASCII bytes that are no letter: what ``_NON_LETTERS`` takes out of an ASCII text.
_ASCII_NON_LETTERS = bytes(b for b in range(128) if not chr(b).isalpha())
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")


def letters(text: str) -> int:
    """How many letters ``text`` holds, a Han, kana or Hangul character weighed as
    :data:`WIDE_LETTER_WEIGHT` of them."""
    if text.isascii():
        # The same count, a hundred times faster than the substitution (0.001 s a MB, not
        # 0.1), and asked of a page's whole text several times while it is judged.
        return len(text.encode("ascii").translate(None, _ASCII_NON_LETTERS))
    # The ASCII letters counted as above, the substitution kept for the rest: a text in a
    # Latin script is mostly ASCII with a few curly quotes and accents, and the substitution
    # over all of it (a match at every space) cost 3 ms an article of the corpus, now 0.6.
    # Both count character by character, so splitting the text changes no count.
    count = len(text.encode("ascii", "ignore").translate(None, _ASCII_NON_LETTERS))
    rest = _ASCII_RUNS.sub("", text)
    count += len(_NON_LETTERS.sub("", rest))
    return count + (WIDE_LETTER_WEIGHT - 1) * len(_WIDE.findall(rest))


def hides_itself(attrs: Mapping[str, str | None]) -> bool:
    """Whether an element's own attributes hide it from the reader."""
    if "hidden" in attrs or (attrs.get("aria-hidden") or "").strip().lower() == "true":
        return True
    return _HIDDEN_STYLE.search((attrs.get("style") or "").lower()) is not None
