"""A word diff between two texts a URL said at two times, paragraph first, then word.

Paragraphs (lines) are matched first, so a long article that changed one sentence costs one
small word diff, not a diff of every word against every word. Inside a changed run of
paragraphs the words are compared, ignoring how much whitespace separates them; whitespace is
kept in the output so the text reads as it was.

Invariants: joining the ``same`` and ``ins`` segments gives the new text exactly, joining
``same`` and ``del`` gives the old one up to the whitespace between unchanged words; a run too
long to compare word by word (:data:`MAX_WORDS`) is
shown as removed then added, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

#: Above this many words on a side, a changed run is not compared word by word: SequenceMatcher
#: grows with the product of the two lengths, and a run that long reads better as replaced.
MAX_WORDS = 4000

_TOKEN = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Segment:
    op: str  # "same" | "del" | "ins"
    text: str


@dataclass(frozen=True)
class Diff:
    segments: tuple[Segment, ...]

    @property
    def words_removed(self) -> int:
        return sum(len(s.text.split()) for s in self.segments if s.op == "del")

    @property
    def words_added(self) -> int:
        return sum(len(s.text.split()) for s in self.segments if s.op == "ins")

    @property
    def changed(self) -> bool:
        return any(s.op != "same" for s in self.segments)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _emit(out: list[Segment], op: str, text: str) -> None:
    if not text:
        return
    if out and out[-1].op == op:
        out[-1] = Segment(op, out[-1].text + text)
    else:
        out.append(Segment(op, text))


def _word_diff(old: str, new: str, out: list[Segment]) -> None:
    a, b = _words(old), _words(new)
    if len(a) > MAX_WORDS or len(b) > MAX_WORDS:
        _emit(out, "del", old)
        _emit(out, "ins", new)
        return
    keys_a, keys_b = [t.strip() for t in a], [t.strip() for t in b]
    matcher = SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            _emit(out, "same", "".join(b[j1:j2]))
        else:
            _emit(out, "del", "".join(a[i1:i2]))
            _emit(out, "ins", "".join(b[j1:j2]))


def word_diff(old: str, new: str) -> Diff:
    """Segments that turn ``old`` into ``new``."""
    out: list[Segment] = []
    a, b = _lines(old), _lines(new)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            _emit(out, "same", "".join(a[i1:i2]))
        elif op == "delete":
            _emit(out, "del", "".join(a[i1:i2]))
        elif op == "insert":
            _emit(out, "ins", "".join(b[j1:j2]))
        else:
            _word_diff("".join(a[i1:i2]), "".join(b[j1:j2]), out)
    return Diff(tuple(out))
