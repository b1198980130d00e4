"""A table entry's alternation searched one branch at a time, each behind its own literals.

A wall or not-found entry is one long alternation of phrasings (``(?:to (continue|keep)
reading...|you('ve| have) reached...|...)``). :mod:`readreceipt.reading.literals` lets a text
skip the whole pattern when no branch's literals are in it; but when one branch's are (an
article says "in your" and "outside"), Python's engine tries *every* branch at every position
of the text: about 2 ms an entry on a page of a few thousand letters. Split, each branch runs
only where its own literals are, and a branch that opens with a literal lets the engine jump
from one occurrence of it to the next.

The answer is the whole pattern's: at a position, an alternation matches with its first
branch that matches there, and a search takes the leftmost position; so the leftmost of the
branches' own first matches, the earlier branch on a tie, is the match the whole pattern
finds, the same text. A lookbehind the alternation opens behind (the maintained
vocabularies' "not after an opening quote", tables/terms.py) holds at a position whatever
branch follows, so each branch carries it and the reasoning stands; such an entry used to
run whole, about 4 ms on a short page's text. :func:`split` returns no branches (the entry
then runs whole, as before) for any pattern where that reasoning could slip: inline flags,
backreferences, a conditional, anything outside the one alternation.

Invariant: every branch is a part of a pattern the regex audit holds to linear time, and is
audited itself (tests/test_branches.py: the tables compile their branches when first searched,
so the import-time collector of tests/test_regex_audit.py does not see them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import Pattern

from readreceipt.reading.literals import may_match, required, required_by_branch

__all__ = ["Branch", "search_branches", "split"]

#: Alternations with fewer branches than this run whole: the split saves nothing.
MIN_BRANCHES = 3
#: A backreference, a named one, a conditional, an inline flag: patterns split never hold one.
_UNSAFE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(|\(\?[aiLmsux-]+[:)]")


@dataclass(frozen=True)
class Branch:
    regex: Pattern[str]
    #: The literals each way of this branch needs (reading/literals.py); None: always runs.
    needs: tuple[tuple[str, ...], ...] | None


def split(pattern: str) -> tuple[Branch, ...]:
    """The top-level branches of ``pattern`` (bare, or the one non-capturing group it is),
    compiled; empty when the pattern is not split (see the module docstring)."""
    if _UNSAFE.search(pattern):
        return ()
    # A lookbehind before the alternation (the vocabulary's "not after an opening quote")
    # holds at a position or not whatever branch follows: each branch takes it along.
    prefix = _lookbehind_prefix(pattern)
    rest = pattern[len(prefix):]
    body = rest[3:-1] if rest.startswith("(?:") and _closes_at_end(rest) else rest
    parts = _top_level(body)
    if len(parts) < MIN_BRANCHES:
        return ()
    # Each branch's literals from one parse of the whole; where the parser reshaped the
    # alternation (a prefix every branch shares is taken out of them), from each branch's own
    # (a lookbehind needs nothing: literals.py passes over it).
    needs = required_by_branch(pattern, len(parts)) if not prefix else [None] * len(parts)
    if all(n is None for n in needs):
        needs = [required(part) for part in parts]
    parts = [prefix + part for part in parts]
    try:
        return tuple(Branch(re.compile(part), n) for part, n in zip(parts, needs, strict=True))
    except re.error:
        return ()


def search_branches(branches: tuple[Branch, ...], text: str) -> re.Match[str] | None:
    """The match the whole alternation finds in ``text``: the leftmost of its branches'
    first matches, the earlier branch on a tie."""
    best: re.Match[str] | None = None
    for branch in branches:
        if branch.needs is not None and not may_match(branch.needs, text):
            continue
        m = branch.regex.search(text)
        if m is not None and (best is None or m.start() < best.start()):
            best = m  # strictly left of the best: on a tie the earlier branch stays
    return best


def _lookbehind_prefix(pattern: str) -> str:
    """The lookbehind group ``pattern`` opens with (``(?<!...)``, ``(?<=...)``), when what
    follows it is one group closing at the end; empty otherwise."""
    if not pattern.startswith(("(?<!", "(?<=")):
        return ""
    end = _group_end(pattern)
    if end is None:
        return ""
    rest = pattern[end + 1:]
    return pattern[:end + 1] if rest.startswith("(?:") and _closes_at_end(rest) else ""


def _closes_at_end(pattern: str) -> bool:
    """Whether the group opening at 0 closes at the last character."""
    return _group_end(pattern) == len(pattern) - 1


def _group_end(pattern: str) -> int | None:
    """Where the group opening at 0 closes; None when it does not."""
    depth = 0
    for at, kind in _structure(pattern):
        if kind == "(":
            depth += 1
        elif kind == ")":
            depth -= 1
            if depth == 0:
                return at
    return None


def _top_level(body: str) -> list[str]:
    """``body`` cut at its top-level ``|``."""
    parts, depth, start = [], 0, 0
    for at, kind in _structure(body):
        if kind == "(":
            depth += 1
        elif kind == ")":
            depth -= 1
        elif depth == 0:
            parts.append(body[start:at])
            start = at + 1
    parts.append(body[start:])
    return parts


def _structure(pattern: str) -> list[tuple[int, str]]:
    """Positions of the parentheses and bars that give a pattern its structure: not escaped,
    not inside a character class."""
    found: list[tuple[int, str]] = []
    at, n, in_class = 0, len(pattern), False
    while at < n:
        c = pattern[at]
        if c == "\\":
            at += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            # A "]" (or "^]") right after the opening is a member, not the end.
            if pattern.startswith("^]", at + 1):
                at += 2
            elif pattern.startswith("]", at + 1):
                at += 1
        elif c in "()|":
            found.append((at, c))
        at += 1
    return found
