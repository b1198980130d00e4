"""Negations, the one list: the words a quotation may not lose at its edges or in its gaps.

A match that starts or ends inside a word is refused for the scripts that separate words
(:mod:`readreceipt.quotes.textmatch`); Chinese and Japanese separate none, so a quotation may
start or end beside any character, and would let "同意这个计划" (agrees to the plan) pass on a
page that says "不同意这个计划" (does not agree). These tables close that door:

- :data:`NEGATION_BEFORE`: characters that negate what follows them in Han and kana text
  (不 没 沒 未 无 無 非 别 別 莫 勿 弗 否): a match may not start right after one.
- :data:`NEGATION_AFTER`: what negates the words before it, right after a match's end:
  Japanese verb and adjective endings (ない, なかった, ません, ず, ぬ, ではない…) and the
  Korean words that follow what they negate (않다, 못하다, 아니다, 없다).
- :data:`NEGATION_BEFORE_WORD`: Korean short negations written as a word of their own before
  the verb (안 갔다, 못 갔다), and the negating words of the other scripts written without
  spaces, Thai ไม่, Lao ບໍ່, Khmer មិន and ពុំ (เห็นด้วย, "agree", inside ไม่เห็นด้วย, "do not
  agree"): a match may not start right after one.
- :data:`NEGATION_WORDS`: negating words of the languages that separate words, folded (lower
  case, curly apostrophes straight). An editorial stand-in (``[the council]``) may cover a few
  words of the page and an elision may leave out a stretch, but neither may hide one of these
  where it binds the quoted words (:mod:`readreceipt.quotes.edits`).

Invariant, checked by the must-not-match tables in tests/test_textfold.py and
tests/test_quotes.py: a quotation never matches where the page negates its words and the
quotation does not.
"""

from __future__ import annotations

import re

__all__ = ["NEGATION_AFTER", "NEGATION_BEFORE", "NEGATION_BEFORE_WORD", "NEGATION_WORDS",
           "has_negation"]

NEGATION_BEFORE = frozenset("不没沒未无無非别別莫勿弗否")

NEGATION_AFTER = re.compile(
    # Japanese: a verb stem or noun, up to two kana of conjugation (し, でき, では, てい,
    # られ, が…), then the negative ending (ずっと, "all along", is not one).
    r"[\u3041-\u3096]{0,2}?(?:ない|なかっ|なく|なけれ|ません|ませ|ず(?!っ)|ぬ|ありません)"
    # Korean: the long negation and the negative predicates, after a space or glued.
    r"| ?(?:않|못\s?하|못했|아니|없)"
)

# Thai ไม่, Lao ບໍ່, Khmer មិន and ពុំ: glued to the word they negate. A space after one ends
# its clause ("...หรือไม่ ", "or not", closes a clause and the next one starts afresh), so only
# a glued one binds what follows; Korean writes its own as a word apart (안 갔다).
_UNSPACED_NEGATIONS = "\u0e44\u0e21\u0e48|\u0e9a\u0ecd\u0ec8|\u1798\u17b7\u1793|\u1796\u17bb\u17c6"
NEGATION_BEFORE_WORD = re.compile(f"(?:(?:^|\\s)(?:안|못) ?|{_UNSPACED_NEGATIONS})$")

NEGATION_WORDS = frozenset((
    # English
    "not", "no", "never", "n't", "cannot", "without", "neither", "nor", "none", "nobody",
    "nothing", "nowhere",
    # German, Dutch, Scandinavian
    "nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals",
    "niet", "geen", "nooit", "inte", "ej", "aldrig", "ingen", "ikke", "aldri", "ei",
    # French, Spanish, Portuguese, Italian, Romanian
    "ne", "n'", "pas", "jamais", "aucun", "aucune", "sans", "nunca", "jamás", "sin",
    "ningún", "ninguna", "ninguno", "não", "sem", "nenhum", "nenhuma", "non", "mai", "senza",
    "nessun", "nessuno", "nessuna", "nu", "niciodată", "fără",
    # Polish, Czech, Slovak, Russian, Ukrainian
    "nie", "nigdy", "bez", "żaden", "żadna", "żadne", "nikdy", "žádný", "не", "нет",
    "никогда", "без", "ни", "ні", "ніколи",
    # Greek, Turkish, Hungarian, Finnish
    "δεν", "μην", "όχι", "değil", "yok", "hiç", "nem", "soha", "ole",
))

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]*)?")
_UNSPACED_NEGATION = re.compile(_UNSPACED_NEGATIONS)


def has_negation(folded: str) -> bool:
    """Whether a folded stretch of text holds a negation, in any of the tables."""
    if any(ch in NEGATION_BEFORE for ch in folded) or NEGATION_AFTER.search(folded):
        return True
    if _UNSPACED_NEGATION.search(folded):
        return True
    return any(word in NEGATION_WORDS or word.endswith("n't") or word.startswith("n'")
               for word in _WORD.findall(folded))
