"""The claim check on hostile answers and pages: every count capped, nothing lost, one answer.

No time is asserted here (bench/claims.py measures the cost); these inputs are the shapes a
pattern that is not linear, or an uncapped loop, would take minutes on, and the suite's
per-test timeout would fail them.
"""

from __future__ import annotations

from readreceipt.quotes.claims import MAX_CLAIMS, NOT_RUN, PageTexts, check_claims
from readreceipt.quotes.figureindex import FigureIndex
from readreceipt.quotes.figures import MAX_FIGURES, find_figures
from readreceipt.quotes.names import MAX_NAMES, find_names
from readreceipt.reading import digitscan

PAGE = "The transport authority counted an average of 84,000 crossings a day in 2025."


def test_an_answer_of_a_hundred_thousand_figures_is_read_up_to_the_cap() -> None:
    answer = " ".join(f"It counted {i:,} crossings." for i in range(100_000))
    claims = [c for c in check_claims(answer, PageTexts(main=PAGE)) if c.kind == "figure"]
    assert MAX_CLAIMS < len(claims) <= MAX_CLAIMS + 50
    assert all(c.outcome == NOT_RUN for c in claims[MAX_CLAIMS:])


def test_a_page_of_numbers_is_read_up_to_the_cap() -> None:
    page = " ".join(f"{i} apples, {i}.5 % and €{i},000" for i in range(60_000))
    index = FigureIndex(page)
    assert len(index.scan.matches) <= 2 * MAX_FIGURES
    claims = check_claims("There were 12,345,678 apples.", PageTexts(main=page))
    assert [c.outcome for c in claims] == ["not_found"]


def test_a_long_page_read_from_its_digits_places_is_read_up_to_the_cap() -> None:
    """A page sparse enough in digits for the scan made from their places
    (reading/digitscan.py), and long: the matches stop at the cap all the same."""
    page = " ".join(f"In {1000 + i % 1000} the council of the city met once more on the old "
                    "harbour bridge, and then adjourned."
                    for i in range(20_000))
    assert digitscan.digit_positions(page) is not None
    index = FigureIndex(page)
    assert len(index.scan.matches) == 2 * MAX_FIGURES
    claims = check_claims("It met in 1999 on the bridge.", PageTexts(main=page))
    assert [c.outcome for c in claims] == ["found"]


def test_runs_without_separators_or_spaces() -> None:
    for text in ("7" * 200_000, "1," * 100_000, "1." * 100_000, "1 " * 100_000,
                 "$" * 100_000 + "5", "-" * 100_000 + "3", "三" * 100_000 + "个",
                 "3 million " * 20_000, "about " * 50_000 + "3", "```" * 50_000,
                 "https://" * 50_000, "March " * 50_000 + "3, 2026", "Jane Roe " * 50_000,
                 "Déjà Vu " * 40_000):
        figures = find_figures(text)
        assert len(figures) <= MAX_FIGURES
        check_claims(text[:200_000], PageTexts(main=PAGE))


def test_an_answer_of_capitalised_words_names_at_most_the_cap() -> None:
    answer = " ".join(f"Jane Roe{i} met John Doe{i}." for i in range(20_000))
    assert len(find_names(answer)) <= MAX_NAMES
    names = [c for c in check_claims(answer, PageTexts(main=PAGE)) if c.kind == "name"]
    assert len(names) <= MAX_NAMES


def test_number_words_without_end() -> None:
    text = "twenty-three " * 50_000 + "dreihundertfünfundzwanzigtausend" * 1000
    assert len(find_figures(text)) <= MAX_FIGURES
    words = "und".join(["drei"] * 5000)  # one word far longer than a number is
    assert find_figures(words) == []


def test_units_and_dates_glued_to_punctuation_are_read_up_to_the_cap() -> None:
    # issue 22: a unit or percent word ends at punctuation, a month may follow a dash; each
    # look is a few bounded matches from a number, so a text of them is read once, capped
    for text in ("5 percent!" * 60_000, "3,000 meters\u2014" * 40_000,
                 "Oregon\u2014April 27, 2015\u2014" * 20_000, "1\u202f000th " * 60_000,
                 "twenty to 30 minutes, " * 30_000, "seventy-five cents " * 30_000,
                 "5 " + "\u2014" * 200_000, "5 " + "a" * 200_000):
        figures = find_figures(text)
        assert 0 < len(figures) <= MAX_FIGURES
        check_claims(text[:200_000], PageTexts(main=PAGE))
