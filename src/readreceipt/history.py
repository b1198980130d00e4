"""A URL over time: its distinct texts, the two captures to compare, and the word diff
between what they said. ``history`` (the CLI) and the viewer's history page both read it.

The diff goes paragraph first, then word. Paragraphs (lines) are matched first, so a long
article that changed one sentence costs one small word diff, not a diff of every word against
every word. Inside a changed run of paragraphs the words are compared, ignoring how much
whitespace separates them; whitespace is kept in the output so the text reads as it was.

Invariants: joining the ``same`` and ``ins`` segments gives the new text exactly, joining
``same`` and ``del`` gives the old one up to the whitespace between unchanged words; a run too
long to compare word by word (:data:`MAX_WORDS`), or past what one diff compares in all
(:data:`MAX_PAIRS`), is shown as removed then added, never dropped; the work is bounded by
that budget and, outside it, linear in the texts (a sort of the anchors aside). Nothing here
writes; the only reads are the two texts compared.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from readreceipt.store.library import Library
from readreceipt.store.protocols import Retrieval

#: Above this many words on a side, a changed run is not compared word by word: SequenceMatcher
#: grows with the product of the two lengths, and a run that long reads better as replaced.
MAX_WORDS = 4000
#: The most pairs of lines and of words one diff hands SequenceMatcher, in all. Its work grows
#: with the product of the two runs it compares (about 40 ns a pair here, more on repeated
#: lines): unbounded, 16,000 repeated lines took 19.6 s and 32,000 lines changed every other one
#: 49 s. A diff whose texts fit is compared whole, as it always was; a longer one is compared
#: between the lines that stand once in each text and in the same order (the anchors of a
#: patience diff), so the unchanged paragraphs of a long article still line up, and a run past
#: what is left of this is shown as removed then added.
MAX_PAIRS = 4_000_000
#: How deep the anchored comparison looks for anchors again inside a run between two.
_ANCHOR_DEPTH = 3

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


def _changes(items: list[str]) -> int:
    """1 and one more for each item unlike the one before it."""
    return 1 + sum(1 for before, item in pairwise(items) if item != before)


class _Out:
    """The segments being written, each kept as pieces until the end (joining a growing
    string once per piece would copy it once per piece), and the pairs left to compare."""

    def __init__(self) -> None:
        self.ops: list[str] = []
        self.pieces: list[list[str]] = []
        self.pairs_left = MAX_PAIRS

    def emit(self, op: str, text: str) -> None:
        if not text:
            return
        if self.ops and self.ops[-1] == op:
            self.pieces[-1].append(text)
        else:
            self.ops.append(op)
            self.pieces.append([text])

    def replaced(self, old: str, new: str) -> None:
        self.emit("del", old)
        self.emit("ins", new)

    def afford(self, a: list[str], b: list[str]) -> bool:
        """Whether comparing runs ``a`` and ``b`` is within what is left (and if so, spend
        it). SequenceMatcher looks for the longest match again in what is left of the runs
        after each match it finds, so runs that change item at every step among few
        distinct items (lines "a", "b", "a", ...) cost up to their product once more for
        each short match: 2,000 such lines, 4 million pairs, took 46 s. The product is
        charged once for each time the items the two have in common go into the shorter
        run's count of changes (a run of one line repeated changes once: one long match)."""
        if len(a) * len(b) > self.pairs_left:
            return False
        changes = min(_changes(a), _changes(b))
        common = len(set(a).intersection(b)) or 1
        cost = len(a) * len(b) * max(1, changes // common)
        if cost > self.pairs_left:
            return False
        self.pairs_left -= cost
        return True

    def diff(self) -> Diff:
        return Diff(tuple(Segment(op, "".join(parts))
                          for op, parts in zip(self.ops, self.pieces, strict=True)))


def _word_diff(old: str, new: str, out: _Out) -> None:
    a, b = _words(old), _words(new)
    if len(a) > MAX_WORDS or len(b) > MAX_WORDS:
        out.replaced(old, new)
        return
    keys_a, keys_b = [t.strip() for t in a], [t.strip() for t in b]
    if not out.afford(keys_a, keys_b):
        out.replaced(old, new)
        return
    matcher = SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.emit("same", "".join(b[j1:j2]))
        else:
            out.emit("del", "".join(a[i1:i2]))
            out.emit("ins", "".join(b[j1:j2]))


def _matched_lines(a: list[str], b: list[str], out: _Out) -> None:
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.emit("same", "".join(a[i1:i2]))
        elif op == "delete":
            out.emit("del", "".join(a[i1:i2]))
        elif op == "insert":
            out.emit("ins", "".join(b[j1:j2]))
        else:
            _word_diff("".join(a[i1:i2]), "".join(b[j1:j2]), out)


def _anchors(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """The longest chain, in order in both, of lines that stand once in ``a`` and once in
    ``b``, as (index in a, index in b): patience sorting, so O(n log n)."""
    once_a, once_b = Counter(a), Counter(b)
    at_b = {line: j for j, line in enumerate(b) if once_b[line] == 1}
    pairs = [(i, at_b[line]) for i, line in enumerate(a)
             if once_a[line] == 1 and line in at_b]
    tops: list[int] = []  # the smallest j ending a chain of each length
    ends: list[int] = []  # the index in pairs of that chain's last pair
    before = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        length = bisect_left(tops, j)
        if length == len(tops):
            tops.append(j)
            ends.append(k)
        else:
            tops[length], ends[length] = j, k
        before[k] = ends[length - 1] if length else -1
    chain: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        chain.append(pairs[k])
        k = before[k]
    return chain[::-1]


def _anchored_lines(a: list[str], b: list[str], out: _Out, depth: int) -> None:
    """Lines ``a`` to ``b``: compared whole when the pairs left allow it, else run by run
    between their anchors, else replaced."""
    if not a or not b:
        out.replaced("".join(a), "".join(b))
    elif out.afford(a, b):
        _matched_lines(a, b, out)
    elif depth == 0 or not (chain := _anchors(a, b)):
        out.replaced("".join(a), "".join(b))
    else:
        i0 = j0 = 0
        for i, j in chain:
            _anchored_lines(a[i0:i], b[j0:j], out, depth - 1)
            out.emit("same", a[i])
            i0, j0 = i + 1, j + 1
        _anchored_lines(a[i0:], b[j0:], out, depth - 1)


def word_diff(old: str, new: str) -> Diff:
    """Segments that turn ``old`` into ``new``."""
    out = _Out()
    a, b = _lines(old), _lines(new)
    if out.afford(a, b):
        _matched_lines(a, b, out)
        return out.diff()
    # Too long to compare whole: the lines both begin and end with first, then the middle.
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    out.emit("same", "".join(a[:head]))
    _anchored_lines(a[head:len(a) - tail], b[head:len(b) - tail], out, _ANCHOR_DEPTH)
    out.emit("same", "".join(a[len(a) - tail:]))
    return out.diff()


# ------------------------------------------------------------------- versions and pairs

def text_versions(rows: Sequence[Retrieval]) -> dict[str, int]:
    """The distinct main-text digests of a URL's captures (``rows`` newest first), oldest
    first, each with its version number (1 for the oldest). A mapping, so that a URL of
    thousands of distinct texts is numbered in one pass (a list searched for every capture
    made the viewer's history page quadratic: 10.8 s at 20,000 captures)."""
    texts: dict[str, int] = {}
    for r in reversed(rows):
        if r.text_sha256 and r.text_sha256 not in texts:
            texts[r.text_sha256] = len(texts) + 1
    return texts


def pair_to_compare(rows: Sequence[Retrieval], older_id: str | None = None,
                    newer_id: str | None = None) -> tuple[Retrieval | None, Retrieval | None]:
    """The two captures to compare (``rows`` newest first): those asked for, else the newest
    two that say different things (the older None when every capture says the same)."""
    by_id: Mapping[str, Retrieval] = {r.record_id: r for r in rows}
    older, newer = by_id.get(older_id or ""), by_id.get(newer_id or "")
    if older is not None or newer is not None:
        return older, newer
    with_text = [r for r in rows if r.text_sha256]
    if not with_text:
        return None, None
    newest = with_text[0]
    for r in with_text[1:]:
        if r.text_sha256 != newest.text_sha256:
            return r, newest
    return None, newest


def compare(lib: Library, older: Retrieval, newer: Retrieval) -> Diff | None:
    """What changed from ``older``'s text to ``newer``'s; None when either is no longer
    held."""
    old_text, new_text = lib.text(older.text_sha256), lib.text(newer.text_sha256)
    if old_text is None or new_text is None:
        return None
    return word_diff(old_text, new_text)


#: Words of unchanged text shown either side of a change in a short diff.
CONTEXT_WORDS = 6


def short_changes(diff: Diff, *, limit: int = 5, width: int = 200) -> tuple[list[str], int]:
    """Each change of ``diff`` on one line, with a few words of context either side, the
    removed words as ``[-...-]`` and the added as ``{+...+}``; at most ``limit`` lines (and
    each at most ``width`` characters), and how many changes were left out."""
    segments = diff.segments
    changes = [i for i, s in enumerate(segments) if s.op != "same"
               and (i == 0 or segments[i - 1].op == "same")]
    lines = []
    for i in changes[:limit]:
        before = segments[i - 1].text.split()[-CONTEXT_WORDS:] if i > 0 else []
        parts = [" ".join(before)] if before else []
        j = i
        while j < len(segments) and segments[j].op != "same":
            words = " ".join(segments[j].text.split())
            parts.append(f"[-{words}-]" if segments[j].op == "del" else f"{{+{words}+}}")
            j += 1
        if j < len(segments):
            parts.append(" ".join(segments[j].text.split()[:CONTEXT_WORDS]))
        line = " ".join(p for p in parts if p)
        lines.append(line if len(line) <= width else line[:width - 1] + "\u2026")
    return lines, max(0, len(changes) - limit)
