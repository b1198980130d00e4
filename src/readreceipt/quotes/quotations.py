"""The quotation check: are the passages an answer quotes on the page it quotes?

Pure: no I/O, no clock, no randomness; the same answer and texts always give the same result,
and the answer is never kept (callers store its digest and length only).

What counts as a quotation (:func:`find_quotations`): a passage in quotation marks of any
script (:mod:`readreceipt.quotes.marks`: "…", “…”, „…“, « … », »…«, ”…”, 「…」, 『…』,
full-width forms, and single marks where they cannot be apostrophes), or a markdown block
quote, long enough for its script (:mod:`readreceipt.quotes.scripts`: 30 Latin characters,
10 Chinese, Japanese or Korean ones). Left out, with the reason: a passage whose words are in the
prompt (``in_prompt``: the agent's own wording handed back), an attribute value of reproduced
markup (``attribute``), a block quote holding a heading, a list or a table
(``structured_blockquote``: a reproduced document).

How a passage is looked for (:func:`check_answer_text`): folded the same way as the page
(:mod:`readreceipt.quotes.textfold`), in the main content first and then in the whole visible
text, in the text itself and then in its further readings
(:mod:`readreceipt.quotes.pagereadings`), and once more with spaces, quotation marks and
emphasis removed from both sides (:mod:`readreceipt.quotes.textmatch`). Every try can only add
a way of finding a passage, and none lets a digit, a sign, a decimal point, an inequality or a
negation go: the ends of a match must fall where a word or a number does (in Chinese and
Japanese, where no negation binds them). A passage the quoter edited (elisions, editorial
notes, bracketed stand-ins: :mod:`readreceipt.quotes.edits`) that is not on the page as
written is looked for piece by piece, in order and close together, and its result says
``edited``. A passage not found is reported with the nearest passage the page does hold, in
the page's own characters, and how similar it is; for an edited one, with the piece missing.

``not_run`` is never a pass: nothing was checked, and the reason says why.

Linear and bounded: at most :data:`MAX_QUOTATIONS` passages of an answer are checked (the
rest are counted, ``unchecked``), at most :data:`MAX_CANDIDATES` quoted spans are read, and the
check runs inside a deadline (the capture's own, or :data:`CHECK_SECONDS`): when it passes,
the passages not yet looked for are counted unchecked and the outcome is ``not_run``
(``timeout``) unless a passage already checked was not found.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache

from readreceipt.errors import FetchTimeout
from readreceipt.fetching.deadline import Deadline
from readreceipt.quotes.edits import has_edit_marks, locate, parse
from readreceipt.quotes.marks import quoted_spans
from readreceipt.quotes.scripts import MIN_QUOTATION_CHARS, long_enough
from readreceipt.quotes.textfold import fold
from readreceipt.quotes.textmatch import (
    Needle,
    PageText,
    nearest_passage,
    squeeze,
    strip_markdown,
    trim,
)

log = logging.getLogger(__name__)

__all__ = [
    "LONG_ANSWER_CHARS",
    "MIN_QUOTATION_CHARS",
    "THIN_PAGE_CHARS",
    "AnswerCheck",
    "PassageResult",
    "answer_without_page_text",
    "check_answer_text",
    "find_quotations",
    "flag_message",
    "not_run",
]

# ------------------------------------------------------------------------------- thresholds

# MIN_QUOTATION_CHARS, and the minimum for each script, live in quotes/scripts.py with their
# evidence.

#: A page served with success holding less text than this did not bring its content: a wall,
#: an error page or an empty shell (the verdict's thin-page line is drawn at the same place).
THIN_PAGE_CHARS = 400

#: An answer this long cannot have come from a page under THIN_PAGE_CHARS: it is twice what
#: such a page can say. A short answer over a short page ("the page asks you to sign in") is
#: the fetch tool working, so neither length alone is a signal.
LONG_ANSWER_CHARS = 2 * THIN_PAGE_CHARS

#: An attribution under a block quote ("— the incident report", "-- Jane Roe, engineer") is
#: a name and a role; a longer line after a dash is the quotation wrapped at a dash.
ATTRIBUTION_CHARS = 80

#: How much of a passage a flag message repeats: enough to find it in the answer.
MESSAGE_PASSAGE_CHARS = 300

#: The passages of one answer checked at most. Models' answers quote a handful (the
#: corpus's answers at most 12); each passage is a search of the page's texts, so a thousand
#: short quotations against a 900 KB page would cost seconds. The rest are counted.
MAX_QUOTATIONS = 100
#: The passages not found of one answer for which the nearest passage of the page is looked
#: for (each is an alignment over the whole page: 0.1 s on a 900 KB page); the others are
#: reported not found without one.
MAX_NEAREST = 10
#: The quoted spans of one answer read at most (before the checks pass over terms, titles and
#: passages of the prompt): ten times the passages checked.
MAX_CANDIDATES = 10 * MAX_QUOTATIONS
#: The time a check may take when no capture's deadline is given (``check``, ``audit``): the
#: capture's own default.
CHECK_SECONDS = 30.0

FOUND, NOT_FOUND, NOT_RUN = "found", "not_found", "not_run"


@dataclass(frozen=True)
class PassageResult:
    text: str  # the passage as the answer wrote it (whitespace runs made one space)
    found: bool
    tier: str | None  # "main" (main content), "page" (whole visible text); None if not found
    nearest: str | None  # not found: the closest passage the page holds, its own characters
    similarity: float | None  # not found: 0..100
    edited: bool = False  # the quoter elided or bracketed words: not verbatim
    missing: str | None = None  # edited and not found: the piece that is not on the page


@dataclass(frozen=True)
class AnswerCheck:
    outcome: str  # "found" | "not_found" | "not_run"
    reason: str | None  # why not_run; None otherwise
    passages: tuple[PassageResult, ...]
    skipped: tuple[tuple[str, str], ...] = field(default=())  # (passage, why not checked)
    #: Passages past MAX_QUOTATIONS or past the deadline: counted, not checked.
    unchecked: int = 0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "outcome": self.outcome,
            "reason": self.reason,
            "passages": [
                {"text": p.text, "found": p.found, "tier": p.tier, "nearest": p.nearest,
                 "similarity": p.similarity, "edited": p.edited, "missing": p.missing}
                for p in self.passages
            ],
            "skipped": [{"text": text, "why": why} for text, why in self.skipped],
        }
        if self.unchecked:
            out["unchecked"] = self.unchecked
        return out


def not_run(reason: str) -> AnswerCheck:
    """A check that did not run, and why. Never a pass."""
    return AnswerCheck(NOT_RUN, reason, ())


def answer_without_page_text(answer: str, page_text_chars: int, content_type: str,
                             status: int) -> bool:
    """A long answer over an HTML or text page, served with success, that holds almost no text.

    Recorded and counted, never told to the agent: the second fetch meeting a wall the first
    did not is a likelier cause than the answer being invented.
    """
    mime = content_type.split(";", 1)[0].strip().lower()
    textual = mime.startswith("text/") or mime == "application/xhtml+xml"
    return (200 <= status < 300 and textual and page_text_chars < THIN_PAGE_CHARS
            and len(answer) >= LONG_ANSWER_CHARS)


# ----------------------------------------------------------------------- finding quotations

# The fence's marks taken once (possessive): a line of 10^6 backticks split every way between
# the fence and its info string would cost 10^12 steps.
_FENCE = re.compile(r"^ {0,3}(`{3,}+|~{3,}+)[^\n]*\n.*?(?:^ {0,3}\1[^\n]*$|\Z)", re.M | re.S)
_BLOCK_MARKS = re.compile(r"^ {0,3}>(?:[ \t]?>)*[ \t]?")
# A line that makes a block quote a reproduced document: heading, list item, table row, code
# fence, a nested quote, a GitHub alert.
_STRUCTURE = re.compile(r"#{1,6}(?:\s|$)|[-*+]\s|\d{1,3}[.)]\s|\||`{3}|~{3}|\[![A-Za-z]+\]")
_NESTED = re.compile(r"^ {0,3}>[ \t]?>")
_ATTRIBUTION = re.compile(r"^(?:[-\u2013\u2014\u2015~]{1,3}|--)\s*\S")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class _Candidate:
    position: int  # where it starts in the answer (block marks removed), for the order
    text: str
    why: str | None = None  # why it is not checked, or None
    block: int | None = None  # the block quote paragraph it is, or lies inside


def find_quotations(answer: str, prompt: str = "") -> tuple[list[str], list[tuple[str, str]]]:
    """(passages to check, passages skipped with why), in the order the answer gives them.

    A block quote is one passage, quotation marks inside it included (a block presents all
    its words as the page's); the quotations inside it are looked for on their own only when
    the block itself is not checked (edited, say).
    """
    candidates = _candidates(answer, prompt)
    return ([c.text for c in candidates if c.why is None],
            [(c.text, c.why) for c in candidates if c.why is not None])


def _candidates(answer: str, prompt: str) -> list[_Candidate]:
    text = _FENCE.sub("\n", answer.replace("\r\n", "\n").replace("\r", "\n"))
    lines = text.split("\n")
    demarked = [_BLOCK_MARKS.sub("", line) for line in lines]
    plain = "\n".join(demarked)
    line_starts = [0]
    for line in demarked:
        line_starts.append(line_starts[-1] + len(line) + 1)

    pairs: list[_Candidate] = []
    offset = 0
    for paragraph in _PARAGRAPH.split(plain):
        start = plain.find(paragraph, offset)
        offset = start + len(paragraph)
        pairs.extend(_Candidate(start + at, passage, "attribute" if attribute else None)
                     for at, passage, attribute in quoted_spans(paragraph))
        if len(pairs) >= MAX_CANDIDATES:
            del pairs[MAX_CANDIDATES:]
            break
    at = [c.position for c in pairs]  # in order: paragraphs, then spans, in the answer's

    found: list[_Candidate] = []
    for number, (first, last, structured) in enumerate(_block_paragraphs(lines)):
        kept = [ln for ln in demarked[first:last] if ln.strip()]
        position = line_starts[first]
        if structured:
            found.append(_Candidate(position, " ".join(kept), "structured_blockquote"))
            continue
        while len(kept) > 1 and _ATTRIBUTION.match(kept[-1].strip()) and \
                len(kept[-1].strip()) <= ATTRIBUTION_CHARS:
            kept.pop()  # "-- the author": the answer's attribution, not the page's words
        found.append(_Candidate(position, " ".join(kept), block=number))
        for i in range(bisect_left(at, position), bisect_left(at, line_starts[last])):
            c = pairs[i]
            pairs[i] = _Candidate(c.position, c.text, c.why, block=number)

    folded_prompt = fold(strip_markdown(prompt)) if prompt.strip() else ""
    squeezed_prompt = squeeze(folded_prompt)
    checked_blocks: set[int] = set()
    out: list[_Candidate] = []
    seen: set[tuple[str, str | None]] = set()
    # Blocks first, so that the quotations inside a block checked whole can be passed over.
    for c in [*found[:MAX_CANDIDATES], *pairs]:
        if c.block is not None and c.block in checked_blocks:
            continue
        passage = _unwrap(_WS.sub(" ", c.text).strip())
        claimed = parse(passage).verbatim if has_edit_marks(passage) else passage
        if not long_enough(claimed):
            continue  # a term, a title, a URL or an identifier, not a passage
        why = c.why
        if why is None and folded_prompt and _in_prompt(passage, folded_prompt, squeezed_prompt):
            why = "in_prompt"
        if why is None and c.block is not None:
            checked_blocks.add(c.block)
        if (passage, why) not in seen:
            seen.add((passage, why))
            out.append(_Candidate(c.position, passage, why, c.block))
    return sorted(out, key=lambda c: c.position)


def _block_paragraphs(lines: list[str]) -> list[tuple[int, int, bool]]:
    """(first line, end line, block is structured) for each paragraph of each block quote."""
    out: list[tuple[int, int, bool]] = []
    block: list[tuple[int, int]] = []
    first = -1
    structured = False
    for index, line in enumerate([*lines, ""]):
        if _BLOCK_MARKS.match(line):
            body = _BLOCK_MARKS.sub("", line)
            structured = structured or bool(_STRUCTURE.match(body) or _NESTED.match(line))
            if body.strip() and first < 0:
                first = index
            elif not body.strip() and first >= 0:
                block.append((first, index))
                first = -1
            continue
        if first >= 0:
            block.append((first, index))
        out.extend((a, b, structured) for a, b in block)
        block, first, structured = [], -1, False
    return out


def _unwrap(passage: str) -> str:
    """Emphasis the answer wraps a whole passage in is the answer's, not the page's."""
    for mark in ("***", "**", "*", "__", "_"):
        if len(passage) > 2 * len(mark) and passage.startswith(mark) and passage.endswith(mark):
            return passage[len(mark) : -len(mark)].strip()
    return passage


def _in_prompt(passage: str, folded_prompt: str, squeezed_prompt: str) -> bool:
    needle = trim(fold(strip_markdown(passage)))
    return needle in folded_prompt or trim(squeeze(needle)) in squeezed_prompt


# --------------------------------------------------------------------------------- matching

@lru_cache(maxsize=4)
def _page_text(source: str, pdf: bool) -> PageText:
    return PageText(source, pdf)


def check_answer_text(answer: str, *, main_text: str, page_text: str, prompt: str = "",
                      is_pdf: bool = False, deadline: Deadline | None = None) -> AnswerCheck:
    """Check the quotations of ``answer`` against the page's texts. Pure but for the clock
    (``deadline``: the capture's, else :data:`CHECK_SECONDS` from now).

    ``not_found`` when any passage is not found, ``found`` when all are, and
    ``not_run``/``no_quotation`` when nothing is left to check; ``not_run``/``timeout`` when
    the deadline passed before every passage was looked for and none looked for was missing.
    """
    deadline = deadline or Deadline.after(CHECK_SECONDS)
    passages, skipped_list = find_quotations(answer, prompt)
    skipped = tuple(skipped_list)
    over = max(0, len(passages) - MAX_QUOTATIONS)
    passages = passages[:MAX_QUOTATIONS]
    if not passages:
        return AnswerCheck(NOT_RUN, "no_quotation", (), skipped)
    if not main_text.strip() and not page_text.strip():
        return AnswerCheck(NOT_RUN, "thin_text", (), skipped, over)
    results: list[PassageResult] = []
    try:
        deadline.check()
        tiers = [(name, _page_text(text, is_pdf))
                 for name, text in (("main", main_text), ("page", page_text)) if text.strip()]
        if len(tiers) == 2 and main_text == page_text:
            tiers = tiers[:1]
        for passage in passages:
            deadline.check()
            nearest = sum(not r.found for r in results) < MAX_NEAREST
            results.append(_check_passage(passage, tiers, is_pdf, nearest=nearest))
    except FetchTimeout:
        unchecked = over + len(passages) - len(results)
        if all(r.found for r in results):
            return AnswerCheck(NOT_RUN, "timeout", tuple(results), skipped, unchecked)
        return AnswerCheck(NOT_FOUND, None, tuple(results), skipped, unchecked)
    outcome = FOUND if all(r.found for r in results) else NOT_FOUND
    return AnswerCheck(outcome, None, tuple(results), skipped, over)


def _check_passage(passage: str, tiers: list[tuple[str, PageText]], pdf: bool, *,
                   nearest: bool = True) -> PassageResult:
    """One passage against the page's texts: as written, then (when the quoter edited it)
    piece by piece; the nearest passage of the page for one not found when ``nearest``."""
    needle = Needle(passage, pdf)
    tier = next((name for name, text in tiers if needle.found_in(text)), None)
    marked = has_edit_marks(passage)
    if tier is not None:
        # Found as written: edited only if a trailing ellipsis was trimmed off to find it.
        return PassageResult(passage, True, tier, None, None,
                             edited=marked and not has_edit_marks(needle.clean))
    if not marked:
        if not nearest:
            return PassageResult(passage, False, None, None, None)
        close, similarity = nearest_passage(needle.clean, tiers[-1][1])
        return PassageResult(passage, False, None, close, similarity)
    edited = parse(passage)
    needles = [Needle(piece, pdf) for piece in edited.pieces]
    placed = 0
    for name, text in tiers:
        here = locate(edited, text, needles)
        if here == len(needles):
            return PassageResult(passage, True, name, None, None, edited=True)
        placed = max(placed, here)
    missing = edited.unit(min(placed, len(needles) - 1))
    close, similarity = nearest_passage(Needle(missing, pdf).clean, tiers[-1][1]) if nearest \
        else (None, None)
    return PassageResult(passage, False, None, close, similarity, edited=True, missing=missing)


# ---------------------------------------------------------------------------------- messages

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _clip(text: str) -> str:
    text = _WS.sub(" ", _CONTROL.sub(" ", text)).strip()
    if len(text) <= MESSAGE_PASSAGE_CHARS:
        return text
    cut = text.rfind(" ", 0, MESSAGE_PASSAGE_CHARS)
    return text[: cut if cut > MESSAGE_PASSAGE_CHARS // 2 else MESSAGE_PASSAGE_CHARS] + "\u2026"


def flag_message(url: str, passage: PassageResult) -> str:
    """One plain sentence for a passage not found on the page it is attributed to."""
    if passage.nearest:
        similarity = f" ({passage.similarity:.0f}% similar)" if passage.similarity is not None \
            else ""
        nearest = f'the nearest passage on the page says "{_clip(passage.nearest)}"{similarity}'
    else:
        nearest = "the page holds nothing close to it"
    if passage.missing:
        nearest = (f'its piece "{_clip(passage.missing)}" is not there in order and close to '
                   f"the rest, and {nearest}")
    return (f'The quoted passage "{_clip(passage.text)}" is not on {_clip(url)}: {nearest}; '
            "readreceipt fetched the page again independently, so its copy can differ from "
            "what the fetch tool read.")
