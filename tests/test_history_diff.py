"""The word diff of ``history`` and the viewer's history page does bounded work on any two
texts.

SequenceMatcher's work grows with the product of the runs it compares, and two captures of one
URL are whatever its server sent: repeated lines, or a long text changed every other line,
cost it minutes. The work is counted here in lines run inside difflib and readreceipt (the
same on any machine), never timed; and the diff stays a diff: joining what it keeps and adds
gives the new text, what it keeps and removes the old, and a long article's few changes are
still found word by word.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from readreceipt import history
from readreceipt.history import MAX_PAIRS, word_diff
from work import lines_run_in

#: Where the diff's work is done: this module, and the difflib it hands runs to.
_COUNTED = (str(Path(history.__file__).resolve()),
            str(Path(sys.modules["difflib"].__file__ or "").resolve()))


def _lines_run(func: Callable[[], Any]) -> int:
    return lines_run_in(_COUNTED, func)[1]


def _repeated(n: int) -> tuple[str, str]:
    return "same line\n" * n + "tail\n", "head\n" + "same line\n" * n


def _every_other(n: int) -> tuple[str, str]:
    old = "".join(f"line {i}\n" for i in range(n))
    new = "".join(f"line {i}\n" if i % 2 else f"changed {i}\n" for i in range(n))
    return old, new


def _kept(diff: history.Diff, drop: str) -> str:
    return "".join(s.text for s in diff.segments if s.op != drop)


@pytest.mark.parametrize("shape", [_repeated, _every_other], ids=["repeated", "every-other"])
def test_the_diff_of_two_long_texts_grows_linearly(shape: Callable[[int], tuple[str, str]]
                                                   ) -> None:
    size = 3000  # 9,000,000 line pairs: past MAX_PAIRS, so the bound is what is tested
    assert size * size > MAX_PAIRS
    small = _lines_run(lambda: word_diff(*shape(size)))
    large = _lines_run(lambda: word_diff(*shape(2 * size)))
    assert large <= 2.5 * small, f"{small} lines at {size}, {large} at {2 * size}"
    old, new = shape(2 * size)
    diff = word_diff(old, new)
    assert _kept(diff, "del") == new and _kept(diff, "ins") == old


def test_a_long_article_changed_in_two_places_is_still_diffed_word_by_word() -> None:
    old = "".join(f"Paragraph {i} of a long article about the harbour.\n" for i in range(20_000))
    new = old.replace("Paragraph 3 of", "Paragraph three of").replace(
        "Paragraph 19995 of a long", "A changed line near the end of a long")
    diff = word_diff(old, new)
    assert _kept(diff, "del") == new and _kept(diff, "ins") == old
    assert (diff.words_removed, diff.words_added) == (3, 7)


def test_a_text_within_the_budget_is_compared_whole_as_before() -> None:
    """Under MAX_PAIRS the whole texts go to one SequenceMatcher, as they always did: the
    repeated lines line up however they shift."""
    old, new = _repeated(500)
    diff = word_diff(old, new)
    assert [(s.op, s.text) for s in diff.segments] == [
        ("ins", "head\n"), ("same", "same line\n" * 500), ("del", "tail\n")]



def _alternating(n: int) -> tuple[str, str]:
    return ("".join("a\n" if i % 2 else "b\n" for i in range(n)),
            "".join("a\n" if i % 2 else "c\n" for i in range(n)))


@pytest.mark.parametrize("unit", ["lines", "words"])
def test_runs_of_few_alternating_items_are_charged_for_their_many_short_matches(
        unit: str) -> None:
    """Lines "b", "a", "b", ... against "c", "a", ...: SequenceMatcher finds each one-line
    match by looking at what is left of both runs again, so 2,000 lines (4 million pairs,
    within MAX_PAIRS) took 46 s. Charged for those matches, the diff stays linear."""
    def shape(n: int) -> tuple[str, str]:
        old, new = _alternating(n)
        return (old, new) if unit == "lines" else (old.replace("\n", " "),
                                                   new.replace("\n", " "))

    small = _lines_run(lambda: word_diff(*shape(250)))
    large = _lines_run(lambda: word_diff(*shape(500)))
    assert large <= 2.5 * small, f"{small} lines run at 250, {large} at 500"
    old, new = shape(500)
    diff = word_diff(old, new)
    assert _kept(diff, "del") == new and _kept(diff, "ins") == old
