"""The tables' entries a page is looked at for (evidence.open_entries) and the main text's
letters (Facts.main_letters): shortcuts that must give the answers the full reading gives.

- ``open_entries`` drops only entries :func:`evidence.first` would pass over: for every table
  and every count of main letters around the gates' bounds, an entry dropped has a gate that
  is a bound the count is over, and is not a paywall's teaser entry (which the publisher's
  lock opens on a page of any length); the kept ones keep their order;
- ``first`` over the open entries names the same entry and rule as over the whole table, on
  every synthetic page of tests/pages and on pages built at each band;
- the main letters without a line split are those the list rule counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readreceipt.reading import evidence
from readreceipt.reading.errorpages import _TEXT_TABLE
from readreceipt.reading.evidence import first, open_entries
from readreceipt.reading.extract import extract
from readreceipt.reading.facts import (
    BLOCK_MAX_MAIN_LETTERS,
    GATES,
    LIST_MAX_LETTERS_PER_LINE,
    LIST_MIN_LINES,
    Compiled,
    Facts,
    PageView,
    letters,
)
from readreceipt.reading.fingerprint import _AFTER_SIGN_IN, _BEFORE_SIGN_IN
from readreceipt.reading.notfound import _NO_RESULTS, _PARKED, _SOFT_404

TABLES: dict[str, tuple[Compiled, ...]] = {
    "walls before sign-in": _BEFORE_SIGN_IN, "walls after sign-in": _AFTER_SIGN_IN,
    "parked": _PARKED, "soft 404": _SOFT_404, "no results": _NO_RESULTS,
    "error page text": _TEXT_TABLE,
}
PAGES = Path(__file__).parent / "pages"
COUNTS = sorted({0, 1, 2000, 10_000, *(b + d for b in GATES.values() for d in (-1, 0, 1))})


def _view(html: str, url: str = "http://a.test/x") -> PageView:
    ex = extract(html.encode(), "text/html", None)
    return PageView(url, url, 200, {}, "text/html", ex.html, ex.main_text, ex.page_text,
                    len(html), tree=ex.page_tree)


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("count", COUNTS)
def test_only_entries_whose_gate_is_shut_are_left_out(name: str, count: int) -> None:
    table = TABLES[name]
    kept = open_entries(table, count)
    assert list(kept) == [c for c in table if c in kept]  # in the table's order
    for c in table:
        if c in kept:
            continue
        gate = c.entry.gate
        assert gate in GATES and count > GATES[gate], (name, c.entry.name, count)
        assert not (c.entry.kind == "paywall" and gate == "teaser")
    # Every entry whose gate the count is within is kept.
    assert all(c in kept for c in table if c.entry.gate in GATES and count <= GATES[c.entry.gate])
    assert all(c in kept for c in table if c.entry.gate not in GATES)


def test_a_long_page_keeps_only_the_tail_and_the_locked_teaser_entries() -> None:
    kept = open_entries(_AFTER_SIGN_IN, 10_000)
    assert kept
    assert all(c.entry.gate == "tail" or (c.entry.kind, c.entry.gate) == ("paywall", "teaser")
               for c in kept)
    assert open_entries(_BEFORE_SIGN_IN, 10_000) == tuple(
        c for c in _BEFORE_SIGN_IN if c.entry.gate == "tail" or
        (c.entry.kind, c.entry.gate) == ("paywall", "teaser"))


def test_a_table_is_never_answered_for_another_of_the_same_id() -> None:
    made = tuple(_PARKED)  # a new tuple, the same entries
    assert open_entries(made, 100) == open_entries(_PARKED, 100)
    assert open_entries(made[:1], 100) == tuple(c for c in made[:1]
                                                if c in open_entries(_PARKED, 100))


def _first_both(f: Facts, table: tuple[Compiled, ...],
                monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    short = first(f, table)
    with monkeypatch.context() as m:
        m.setattr(evidence, "open_entries", lambda t, n: t)
        whole = first(f, table)
    return short, whole


def _synthetic() -> list[Path]:
    return sorted(PAGES.rglob("*.html"))


@pytest.mark.parametrize("path", _synthetic(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_first_names_the_same_entry_as_the_whole_table_does(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = Facts(_view(path.read_text(encoding="utf-8", errors="replace")))
    for name, table in TABLES.items():
        short, whole = _first_both(f, table, monkeypatch)
        assert short == whole, name


_WORDS = ["Please", "sign", "in", "to", "continue", "reading", "subscribers", "only",
          "page", "not", "found", "this", "domain", "is", "for", "sale", "access", "denied"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=0, max_size=600),
       st.sampled_from(["", "<p>Subscribers only. Subscribe to read the rest.</p>",
                        '<script type="application/ld+json">{"isAccessibleForFree": false}'
                        "</script>", "<h1>Page not found</h1>"]))
def test_first_agrees_on_pages_of_every_band(words: list[str], extra: str) -> None:
    text = " ".join(words)
    html = f"<html><head><title>T</title></head><body>{extra}<p>{text}</p></body></html>"
    f = Facts(_view(html))
    with pytest.MonkeyPatch.context() as m:
        for table in TABLES.values():
            short = first(f, table)
            m.setattr(evidence, "open_entries", lambda t, n: t)
            whole = first(f, table)
            m.undo()
            assert short == whole


def _listed_letters(text: str) -> int | None:
    """The main letters as the list rule counted them before the shortcut: the raw count,
    or None where the rule would read the layout (a list of short lines)."""
    raw = letters(text)
    lines = [line for line in text.split("\n") if line.strip()]
    if raw <= BLOCK_MAX_MAIN_LETTERS or len(lines) < LIST_MIN_LINES or \
            raw > LIST_MAX_LETTERS_PER_LINE * len(lines):
        return raw
    return None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab \u00e9\u4e2d\n", max_size=120), max_size=40))
def test_main_letters_shortcut_counts_as_the_list_rule(parts: list[str]) -> None:
    text = "\n".join(parts)
    expected = _listed_letters(text)
    view = PageView("http://a.test/x", "http://a.test/x", 200, {}, "text/html",
                    "<html><body><p>x</p></body></html>", text, text, 100)
    got = Facts(view).main_letters
    if expected is not None:
        assert got == expected
    else:  # the layout's reading: never more than the raw count
        assert got <= letters(text)


@pytest.mark.parametrize("extra", [0, 1])
def test_a_menu_at_the_bound_is_still_read_as_links(extra: int) -> None:
    # 25 lines of 40 letters each (the bound itself: the rule reads the layout), every one
    # a link's text: none counts. A letter more is past the bound, and all count.
    lines = [("abcdefghij" * 4)[:39] + chr(ord("a") + i % 26) for i in range(25)]
    lines[0] += "x" * extra
    links = "".join(f'<li><a href="/{i}">{line}</a></li>' for i, line in enumerate(lines))
    html = f"<html><body><ul>{links}</ul></body></html>"
    text = "\n".join(lines)
    view = PageView("http://a.test/x", "http://a.test/x", 200, {}, "text/html", html, text,
                    text, len(html))
    assert Facts(view).main_letters == (0 if extra == 0 else letters(text))
