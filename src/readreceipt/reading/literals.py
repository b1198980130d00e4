"""Substrings a regular expression cannot match without: a test that lets most pages skip it.

The wall, not-found and error tables are long alternations of phrases (``(?:to (continue|keep)
reading,? ...|...)``), and Python's engine tries every one of them at every position of a
page's text: milliseconds a pattern on an ordinary article, where none of them is.
:func:`required` reads a pattern's parse and returns, for each way the pattern can match
(each branch of its alternations), the literal strings that way needs: a match is possible
only if, for some way, every one of its strings is in the text. :func:`may_match` asks that
with ``str.__contains__`` (in C); when it says no, the pattern cannot match and need not run.
When it says yes the regex runs as before: the answer is the same either way.

Sound by construction, never a guess: a run of literal characters in a sequence that is not
optional is in every match; a group repeated at least once needs what its body needs; an
alternation needs what one of its branches needs. Anything else (a class, a dot, an optional
part, a backreference, a case-insensitive pattern) breaks a run or drops a need, which only
weakens the test (a weaker test lets the regex run more often, never less).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

__all__ = ["may_match", "required", "required_by_branch"]

#: Ways one sequence may have when its parts multiply them (a part that would pass this is
#: left out, which weakens the test and keeps it sound).
MAX_SEQUENCE_WAYS = 8
#: Ways an alternation may have (its branches' together); past this it needs nothing.
MAX_WAYS = 256
#: Literals shorter than this are in nearly every text: not worth a test.
MIN_LENGTH = 3

#: One way to match: the literals it needs, all of them.
Way = frozenset[str]


@cache
def required(pattern: str) -> tuple[tuple[str, ...], ...] | None:
    """For each way ``pattern`` can match, the literals it needs (longest first); None when
    some way needs nothing worth testing (the pattern then always runs)."""
    parsed = _parsed(pattern)
    return None if parsed is None else _kept(_top(list(parsed[0]), parsed[1]))


def required_by_branch(pattern: str, branches: int) -> list[tuple[tuple[str, ...], ...] | None]:
    """:func:`required` of each top-level branch of ``pattern`` (one alternation, bare or in
    a group, of ``branches`` branches: reading/branches.py), from one parse of the whole;
    None for every branch when the parse does not have that shape."""
    parsed = _parsed(pattern)
    items = list(parsed[0]) if parsed is not None else []
    if parsed is not None and len(items) == 1 and items[0][0] is parsed[1].SUBPATTERN:
        items = list(items[0][1][-1])
    if parsed is None or len(items) != 1 or items[0][0] is not parsed[1].BRANCH or \
            len(items[0][1][1]) != branches:
        return [None] * branches
    return [_kept(_top(list(branch), parsed[1])) for branch in items[0][1][1]]


def _parsed(pattern: str) -> tuple[Any, Any] | None:
    """The stdlib's parse of ``pattern`` and the parser module; None on any doubt."""
    try:
        from re import _parser  # type: ignore[attr-defined]  # the stdlib's own parser, 3.11+

        parsed = _parser.parse(pattern)
    except Exception:  # any doubt: no test, the regex always runs
        return None
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    return parsed, _parser


def _kept(ways: list[Way]) -> tuple[tuple[str, ...], ...] | None:
    kept = []
    for way in ways:
        strong = tuple(sorted((s for s in way if _strong(s)), key=len, reverse=True))
        if not strong:
            return None
        kept.append(strong)
    return tuple(dict.fromkeys(kept))


def may_match(ways: tuple[tuple[str, ...], ...], text: str) -> bool:
    """Whether every literal of some way is in ``text``."""
    return any(all(s in text for s in way) for way in ways)


def _top(items: list[tuple[Any, Any]], p: Any) -> list[Way]:
    """A pattern that is one alternation (bare, or in a group) has its branches' ways, each
    counted against MAX_WAYS rather than a sequence's smaller limit."""
    if len(items) == 1 and items[0][0] is p.SUBPATTERN:
        return _top(list(items[0][1][-1]), p)
    if len(items) == 1 and items[0][0] is p.BRANCH:
        return _branches(items[0][1][1], p)
    return _sequence(items, p)


def _sequence(items: list[tuple[Any, Any]], p: Any) -> list[Way]:
    """The ways a sequence matches: combinations of its parts' ways, the strongest parts
    first while the combinations stay within MAX_SEQUENCE_WAYS (a part left out only weakens
    the test)."""
    parts: list[list[Way]] = []
    run: list[str] = []
    for op, av in items:
        if op is p.LITERAL:
            run.append(chr(av))
            continue
        if run:
            parts.append([frozenset({"".join(run)})])
            run = []
        if op is p.SUBPATTERN:
            parts.append(_sequence(list(av[-1]), p))
        elif op is p.BRANCH:
            parts.append(_branches(av[1], p))
        elif op in _repeats(p) and av[0] >= 1:
            parts.append(_sequence(list(av[2]), p))
        elif op is getattr(p, "ATOMIC_GROUP", None):
            parts.append(_sequence(list(av), p))
    if run:
        parts.append([frozenset({"".join(run)})])
    ways: list[Way] = [frozenset()]
    for part in sorted(parts, key=lambda ways_of: (-_strength(ways_of), len(ways_of))):
        if _strength(part) == 0 or len(ways) * len(part) > MAX_SEQUENCE_WAYS:
            continue
        ways = [a | b for a in ways for b in part]
    return ways


def _strong(literal: str) -> bool:
    """Rare enough in a text to be worth a test: three characters, or two of a script
    whose characters are words or syllables (CJK)."""
    return len(literal) >= MIN_LENGTH or (len(literal) == 2 and not literal.isascii())


def _strength(ways: list[Way]) -> int:
    """How selective a part is: the weakest of its ways' best literals (0: some way needs
    nothing worth testing)."""
    best = [max((len(s) for s in way if _strong(s)), default=0) for way in ways]
    return min(best, default=0)


def _repeats(p: Any) -> tuple[Any, ...]:
    return tuple(op for op in (p.MAX_REPEAT, p.MIN_REPEAT, getattr(p, "POSSESSIVE_REPEAT", None))
                 if op is not None)


def _branches(branches: list[Any], p: Any) -> list[Way]:
    ways: list[Way] = []
    for branch in branches:
        ways += _sequence(list(branch), p)
    return ways if len(ways) <= MAX_WAYS else [frozenset()]  # too many: needs nothing
