"""A URL over time: its distinct texts, the two captures to compare, and the word diff
between what they said. ``history`` (the CLI) and the viewer's history page both read it.

The diff goes paragraph first, then word. Paragraphs (lines) are matched first, so a long
article that changed one sentence costs one small word diff, not a diff of every word against
every word. Inside a changed run of paragraphs the words are compared, ignoring how much
whitespace separates them; whitespace is kept in the output so the text reads as it was.

Invariants: joining the ``same`` and ``ins`` segments gives the new text exactly, joining
``same`` and ``del`` gives the old one up to the whitespace between unchanged words; a run too
long to compare word by word (:data:`MAX_WORDS`) is shown as removed then added, never
dropped. Nothing here writes; the only reads are the two texts compared.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from readreceipt.store.library import Library
from readreceipt.store.protocols import Retrieval

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


# ------------------------------------------------------------------- versions and pairs

def text_versions(rows: Sequence[Retrieval]) -> list[str]:
    """The distinct main-text digests of a URL's captures (``rows`` newest first), oldest
    first: the text a capture holds is version ``index + 1``."""
    texts: list[str] = []
    for r in reversed(rows):
        if r.text_sha256 and r.text_sha256 not in texts:
            texts.append(r.text_sha256)
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
