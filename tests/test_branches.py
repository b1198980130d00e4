"""A table entry searched branch by branch finds what the whole pattern finds
(reading/branches.py): the same text at the same place, on every page and phrase we hold."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import redos
from readreceipt.reading import errorpages, fingerprint, notfound
from readreceipt.reading.branches import search_branches, split
from readreceipt.reading.facts import Compiled, fold

PAGES = Path(__file__).parent / "pages"
TABLES = {"before sign-in": fingerprint._BEFORE_SIGN_IN,
          "after sign-in": fingerprint._AFTER_SIGN_IN, "soft 404": notfound._SOFT_404,
          "no results": notfound._NO_RESULTS, "parked": notfound._PARKED,
          "error pages": errorpages._TEXT_TABLE}
_TAG = re.compile(r"<[^<>]*>")


def _found(m: re.Match[str] | None) -> tuple[int, str] | None:
    return None if m is None else (m.start(), m.group(0))


def test_the_earlier_branch_wins_a_tie() -> None:
    """At one position the alternation takes its first branch that matches, not the longest."""
    branches = split(r"(?:ab|a|abc)")
    assert len(branches) == 3
    assert _found(search_branches(branches, "xabc")) == (1, "ab")
    assert _found(search_branches(split(r"(?:abc|ab|a)"), "xabc")) == (1, "abc")


def test_the_leftmost_match_wins_over_branch_order() -> None:
    branches = split(r"(?:later|early|never)")
    assert _found(search_branches(branches, "early then later")) == (0, "early")
    assert search_branches(branches, "none of them") is None


@pytest.mark.parametrize("pattern", [
    r"(?:a|b)",                     # too few branches to gain anything
    r"(?:aa|bb|cc)dd",              # something after the group: every branch would need it
    r"(?i)(?:aa|bb|cc)",            # an inline flag
    r"(?:(a)\1|bb|cc)",             # a backreference: its group number would move
    r"(?:(?P<x>a)(?P=x)|bb|cc)",
    r"[a|b|c]",                     # bars in a class are members
    r"a\|b\|c",                     # escaped bars are characters
])
def test_patterns_that_could_slip_are_not_split(pattern: str) -> None:
    assert split(pattern) == ()


def test_a_lookbehind_before_the_alternation_goes_with_every_branch() -> None:
    """The vocabulary's entries open with "not after an opening quote": split, each branch
    keeps it, and a quoted phrase is passed over for the next unquoted one, as whole."""
    pattern = r'(?<!["«])(?:page not found|seite nicht gefunden|no encontrada)'
    branches = split(pattern)
    assert [b.regex.pattern for b in branches] == [
        r'(?<!["«])page not found', r'(?<!["«])seite nicht gefunden',
        r'(?<!["«])no encontrada']
    assert all(b.needs for b in branches)  # each behind its own phrase
    text = 'the heading "page not found" and «seite nicht gefunden» then: no encontrada'
    whole = re.compile(pattern).search(text)
    assert _found(search_branches(branches, text)) == _found(whole) == (62, "no encontrada")
    # Something after the group: every branch would need it, not split.
    assert split(r'(?<!")(?:aa|bb|cc)dd') == ()


def test_groups_and_classes_keep_their_bars() -> None:
    parts = [b.regex.pattern for b in split(r"(?:a(b|c)|[|(]x|\(y|z)")]
    assert parts == [r"a(b|c)", r"[|(]x", r"\(y", "z"]


def _texts() -> list[str]:
    """Every test page's markup as text (tags out, folded), and each entry's own phrases
    where a page holds none: the texts the tables are searched in."""
    texts = []
    for path in sorted(PAGES.rglob("*.html")):
        raw = path.read_text(encoding="utf-8", errors="replace")
        texts.append(fold(html.unescape(_TAG.sub(" ", raw))))
    return texts


TEXTS = _texts()


@pytest.mark.parametrize("table", list(TABLES))
def test_every_split_entry_finds_what_its_whole_pattern_finds(table: str) -> None:
    entries: tuple[Compiled, ...] = TABLES[table]
    split_ones = [c for c in entries if c.branches]
    if table in ("before sign-in", "error pages"):
        assert split_ones, "the long alternations of this table are split"
    hits = 0
    for c in split_ones:
        assert c.regex is not None
        # Each text alone, and two glued (a phrase of one page before another's).
        for i, text in enumerate(TEXTS):
            for haystack in (text, text + " " + TEXTS[i - 1]):
                whole = _found(c.regex.search(haystack))
                assert _found(search_branches(c.branches, haystack)) == whole, c.entry.name
                hits += whole is not None
    if table == "before sign-in":
        assert hits > 0, "the wall pages hold some of these phrases: matches are compared"


def test_every_branch_is_linear() -> None:
    """The branches are compiled when first searched, after the audit's collector has run:
    each is audited here as the tables' patterns are there."""
    findings = [f for table in TABLES.values() for c in table for b in c.branches
                for f in redos.audit(b.regex, f"{c.entry.name}: branch")]
    assert sum(len(c.branches) for table in TABLES.values() for c in table) > 300
    assert findings == [], "\n".join(str(f) for f in findings)
