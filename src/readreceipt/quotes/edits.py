"""Quotations the quoter edited: elisions, editorial notes and bracketed stand-ins.

People and models shorten and adapt what they quote, by conventions every style guide
describes. :func:`parse` reads them out of a passage:

- An **elision** (``...``, ``…``, ``. . .``, ``[...]``, ``[…]``, ``(...)``) cuts the passage
  into pieces. Each piece is looked for, in order, close together on the page: the next
  piece starts at most :data:`ELISION_GAP_CHARS` after the previous one ends (a paragraph's
  reach). A piece too short to mean anything alone (under :data:`SHORT_PIECE_CHARS`) is held
  to its neighbour within :data:`JOIN_GAP_CHARS` (a sentence's reach), so it never passes on
  its own. The stretch an elision leaves out may not start or end with a negation, which
  would bind the quoted words ("the plan was [not] approved"), unless a sentence ends between
  them; inside, the stretch may hold any.
- An **editorial note** (``[sic]``, ``[emphasis added]``, ``[Hervorhebung d. Verf.]``…, the
  closed list :data:`_NOTES`) is dropped: it is the quoter's, not the page's.
- A **bracketed capital or small letter** at a word's start (``[T]he``) is the page's letter
  in the other case; case never counts in a match anyway.
- A **bracketed stand-in** (``[the bridge's]`` for "its") matches a short span at that place:
  at most :data:`STANDIN_MAX_WORDS` words and :data:`STANDIN_MAX_CHARS` characters of the
  page, holding no negation and no number the stand-in does not hold itself. A bracket glued
  to a word (``bridge[s]``) stands in for that whole word.

A passage with any of these is ``edited``: the outcome says so, since it is not verbatim.
Every piece must be found for the passage to be; when one is not, :func:`locate` says which
(the first that could not be placed after the ones before it).

Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from readreceipt.quotes.negations import has_negation
from readreceipt.quotes.pagereadings import cjk_digits
from readreceipt.quotes.scripts import latin_length, unspaced
from readreceipt.quotes.textfold import fold

if TYPE_CHECKING:
    from readreceipt.quotes.textmatch import Needle, PageText

__all__ = ["ELISION_GAP_CHARS", "JOIN_GAP_CHARS", "SHORT_PIECE_CHARS", "STANDIN_MAX_CHARS",
           "STANDIN_MAX_WORDS", "Edited", "has_edit_marks", "locate", "parse"]

#: How far apart two pieces of an elided quotation may be on the page (folded characters
#: from the end of one to the start of the next). Quoters elide within a paragraph: of the
#: 3,417 paragraphs of the corpus's article bodies (over 40 characters), the median is 184
#: characters, 95 % are under 538 and 99 % under 866.
ELISION_GAP_CHARS = 900
#: A piece shorter than this (in Latin characters' worth) means little alone: at 20
#: characters a stretch of one article is on another page 3 % of the time, at 10 characters
#: 23 % (the evidence table of :mod:`readreceipt.quotes.scripts`).
SHORT_PIECE_CHARS = 20
#: How far a short piece may be from its neighbour: a sentence (of the corpus's 7,165
#: sentences, 95 % are under 229 characters, 99 % under 309).
JOIN_GAP_CHARS = 250
#: What a bracketed stand-in may cover on the page: "a few words".
STANDIN_MAX_WORDS = 4
STANDIN_MAX_CHARS = 40

# Besides the Latin conventions: Japanese and Chinese (中略) and (略), "omitted", in either
# width of parenthesis or bracket, and a run of middle dots (・・・); Russian <...>; the
# full-width and tortoise-shell brackets around dots (tests/test_quotes_edits.py).
_OPEN = "(\uff08\\[\uff3b\u3014"
_CLOSE = ")\uff09\\]\uff3d\u3015"
_ELISION = (rf"[{_OPEN}]\s*(?:中略|前略|後略|下略|以下略|上略|略)\s*[{_CLOSE}]"
            r"|[\u30fb\uff65]{2,}|<\s*(?:\.\s*){2,}>|<\s*[\u2026\u22ef]+\s*>"
            rf"|[{_OPEN}]\s*(?:(?:\.\s*){{2,}}|[\u2026\u22ef]+\s*)[{_CLOSE}]"
            r"|\.(?:\s?\.){2,}|[\u2026\u22ef]+")
# A bracket in the Latin form or the full-width and tortoise-shell ones CJK text uses.
_MARK = re.compile(rf"(?P<elision>{_ELISION})|[\[\uff3b\u3014](?P<bracket>[^\[\]\uff3b\uff3d"
                   rf"\u3014\u3015\n]{{1,80}})[\]\uff3d\u3015]")
# Editorial notes in the languages the check meets most; matched on the bracket's content.
_NOTES = re.compile(
    r"(?:sic|sic!|sic passim|!|\?|sic\.|"
    r"(?:emphasis|italics|bold|underlining|underline|stress) (?:added|mine|supplied|in "
    r"original|original|omitted|removed)|original emphasis|emphasis in the original|"
    r"(?:internal )?(?:citations?|footnotes?|quotation marks|quotations|alterations?) "
    r"(?:omitted|in original)|"
    r"hervorhebung[^\]]*|herv\.[^\]]*|sic!?|"
    r"nous soulignons|c'est nous qui soulignons|je souligne|soulign[ée] (?:par nous|dans "
    r"l'original)|"
    r"(?:el )?(?:énfasis|subrayado|destacado) (?:es )?(?:añadido|agregado|mío|nuestro|en el "
    r"original)|"
    r"(?:grifo|destaque) (?:nosso|meu|no original)|corsivo (?:mio|nostro|aggiunto)|"
    r"enfasi (?:mia|aggiunta)|podkr(?:eślenie|\.)[^\]]*|wyróżnienie[^\]]*|"
    r"курсив (?:мой|наш)|выделено (?:мной|нами)|"
    r"原文(?:ママ|のまま|如此)|ママ|强调(?:为)?(?:引者|笔者)所加|着重号(?:为)?引者所加)",
    re.I)
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\([^()\s]+\)")
# From the start of the last run of letters only: a search tried at every letter of a long
# run would scan the rest of it each time.
_LETTERS_BEFORE = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?=\n?\Z)")
_LETTERS_AFTER = re.compile(r"[^\W\d_]+")
_EDGE = " \t,;:"
_SENTENCE_END = frozenset(".!?\u3002\uff01\uff1f")
_WS = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")


def has_edit_marks(passage: str) -> bool:
    """Whether ``passage`` holds an elision or a bracket (a markdown link aside)."""
    return _MARK.search(_MARKDOWN_LINK.sub(r"\1", passage)) is not None


@dataclass(frozen=True)
class Edited:
    """A passage read as its quoter edited it."""

    pieces: tuple[str, ...]  # the page's words the quoter claims, in order
    gaps: tuple[str | None, ...]  # between piece i and i+1: None (elision) or the stand-in

    @property
    def verbatim(self) -> str:
        """The words claimed to be the page's, joined: what the length rule weighs."""
        return " ".join(self.pieces)

    def unit(self, i: int) -> str:
        """Piece ``i`` as a reader should see it when it is missing: a short piece with its
        neighbour, since it was checked with it."""
        piece = self.pieces[i]
        if latin_length(piece) >= SHORT_PIECE_CHARS or len(self.pieces) == 1:
            return piece
        if i + 1 < len(self.pieces):
            return f"{piece} \u2026 {self.pieces[i + 1]}"
        return f"{self.pieces[i - 1]} \u2026 {piece}"


def parse(passage: str) -> Edited:
    """The pieces of ``passage`` and what stands between them."""
    text = _MARKDOWN_LINK.sub(r"\1", passage)
    chunks: list[str] = [""]
    gaps: list[str | None] = []
    pos = 0
    for m in _MARK.finditer(text):
        if m.start() < pos:
            continue  # inside a word a stand-in already took
        chunk, end = text[pos : m.start()], m.end()
        content = m.group("bracket")
        if content is None:
            chunks[-1] += chunk
            chunks.append("")
            gaps.append(None)
        elif _NOTES.fullmatch(content.strip()):
            chunks[-1] += chunk + " "
        else:
            before = _LETTERS_BEFORE.search(chunk)
            after = _LETTERS_AFTER.match(text, end)
            if before and unspaced(before.group()[-1]):
                before = None
            if after and unspaced(after.group()[0]):
                after = None
            if before is None and after is not None and len(content) == 1 and content.isalpha():
                chunks[-1] += chunk + content  # [T]he
            else:
                standin = m.group()
                if before is not None:
                    chunk, standin = chunk[: before.start()], before.group() + standin
                if after is not None:
                    standin, end = standin + after.group(), after.end()
                chunks[-1] += chunk
                chunks.append("")
                gaps.append(standin)
        pos = end
    chunks[-1] += text[pos:]
    pieces: list[str] = []
    kept_gaps: list[str | None] = []
    pending: str | None = ""  # the gap before the next piece ("" when none yet)
    for i, chunk in enumerate(chunks):
        piece = _WS.sub(" ", chunk).strip(_EDGE + " ")
        if not any(ch.isalnum() for ch in piece):
            piece = ""  # a full stop after a stand-in is the answer's sentence, not a piece
        if piece:
            if pieces:
                kept_gaps.append(pending)
            pieces.append(piece)
            pending = ""
        if i < len(gaps):
            # Two gaps with nothing between them: an elision is the wider of the two.
            pending = gaps[i] if pending == "" else None
    return Edited(tuple(pieces), tuple(kept_gaps))


def locate(edited: Edited, page: PageText, needles: list[Needle]) -> int:
    """How many pieces, from the first, could be placed in order: ``len(pieces)`` when the
    passage is found. Tried on the page's text and on each of its readings."""
    best = 0
    for hay, squeezed in page.hays(any(n.digits for n in needles)):
        placed = _Chain(edited, needles, hay, squeezed).run()
        if placed == len(needles):
            return placed
        best = max(best, placed)
    return best


class _Chain:
    """One search for the pieces of an edited passage in one folded text, in order."""

    #: Placements tried before giving up: a short first piece can occur many times.
    BUDGET = 400

    def __init__(self, edited: Edited, needles: list[Needle], hay: str, squeezed: str) -> None:
        self.edited, self.needles, self.hay, self.squeezed = edited, needles, hay, squeezed
        self.placed = 0
        self.budget = self.BUDGET
        self.short = [latin_length(p) < SHORT_PIECE_CHARS for p in edited.pieces]

    def run(self) -> int:
        self._place(0, 0, len(self.hay), 0)
        return self.placed

    def _reach(self, i: int) -> int:
        """How far after piece ``i`` the next one may start."""
        if self.edited.gaps[i] is not None:
            return STANDIN_MAX_CHARS + 2
        return JOIN_GAP_CHARS if self.short[i] or self.short[i + 1] else ELISION_GAP_CHARS

    def _place(self, i: int, lo: int, hi: int, prev_end: int) -> bool:
        for start, end in self.needles[i].spans(self.hay, self.squeezed, lo, hi):
            if i and not _gap_holds(self.edited.gaps[i - 1], self.hay[prev_end:start]):
                continue
            self.placed = max(self.placed, i + 1)
            if i + 1 == len(self.needles):
                return True
            self.budget -= 1
            if self.budget < 0:
                return False
            if self._place(i + 1, end, min(len(self.hay), end + self._reach(i)), end):
                return True
        return False


def _gap_holds(standin: str | None, between: str) -> bool:
    """Whether the page's ``between`` may be what an elision (``standin`` None) or a stand-in
    left out."""
    if standin is None:
        # A negation binds the quoted words only within their sentence: a stretch that starts
        # after a sentence's end (or ends with one) may start (or end) with one.
        head_free = between.lstrip(_EDGE)[:1] in _SENTENCE_END
        tail_free = between.rstrip(" ")[-1:] in _SENTENCE_END
        between = between.strip(_EDGE + " .")
        if not between:
            return True
        words = between.split(" ")
        # A run of a script without spaces (a Thai clause, a Chinese sentence) is no word:
        # its first and last characters are the edge, not the whole run.
        first, last = words[0], words[-1]
        head = first[:3] if any(unspaced(ch) for ch in first) else " ".join(words[:2])
        tail = last[-3:] if any(unspaced(ch) for ch in last) else " ".join(words[-2:])
        return not ((not head_free and has_negation(head))
                    or (not tail_free and has_negation(tail)))
    between = between.strip(_EDGE + " .")
    if latin_length(between) > STANDIN_MAX_CHARS or between.count(" ") >= STANDIN_MAX_WORDS:
        return False
    folded = fold(standin)
    if has_negation(between) and not has_negation(folded):
        return False
    numbers = set(_DIGITS.findall(cjk_digits(between)))
    return numbers <= set(_DIGITS.findall(cjk_digits(folded)))
