"""The claim check on forms a multilingual development set showed it misread (issue 22's
second development set: newspaper, newspaper4k, graby and snacktory test pages). Every page
and answer here is a sentence built for the test."""

# ruff: noqa: RUF001 - full-width digits and commas are what some of these pages write
from __future__ import annotations

import pytest

from readreceipt.quotes.claims import APPROXIMATE, FOUND, NOT_FOUND, PageTexts, check_claims
from readreceipt.quotes.figures import find_figures
from readreceipt.quotes.spelled import spelled_runs


def outcomes(answer: str, page: str) -> list[tuple[str, str]]:
    return [(c.text, c.outcome) for c in check_claims(answer, PageTexts(main=page, page=page))
            if c.kind == "figure"]


def read(text: str) -> list[tuple[str, str]]:
    return [(text[f.start:f.end], f.kind) for f in find_figures(text)]


# a unit or a percent word ends at punctuation glued to it
@pytest.mark.parametrize(("text", "expected"), [
    ("Book now and save 40 percent!", [("40 percent", "percent")]),
    ("Spare jetzt 40 Prozent!", [("40 Prozent", "percent")]),
    ("the pipe lies 2,000 meters\u2014deeper than the wreck", [("2,000 meters", "measure")]),
    ("a climb of 800 metres\u2013the hardest", [("800 metres", "measure")]),
    ("Is it 12 km? Yes.", [("12 km", "measure")]),
    ("the road runs 12 km-long", [("12", "number")]),  # a compound word is no unit
])
def test_a_unit_or_percent_word_ends_at_punctuation(text: str,
                                                    expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


def test_a_percent_said_in_words_before_an_exclamation_is_found() -> None:
    page = "Subscribe this week and save 40% on the yearly plan!"
    assert outcomes("Subscribe this week and save 40 percent on the yearly plan!", page) == \
        [("40 percent", FOUND)]
    assert outcomes("Subscribe this week and save 45 percent on the yearly plan!", page) == \
        [("45 percent", NOT_FOUND)]


def test_a_converted_measure_before_a_dash_is_approximate() -> None:
    page = "Below 2,000 meters\u2014where the sea is calm\u2014divers cannot work."
    assert outcomes("Below about 6,561.7 feet\u2014where the sea is calm\u2014divers cannot "
                    "work.", page) == [("6,561.7 feet", APPROXIMATE)]


# one end of a range said without the unit the page gives the range
@pytest.mark.parametrize(("answer", "expected"), [
    ("Let the dough rest for 20 to thirty minutes before baking.",
     [("20", FOUND), ("thirty minutes", FOUND)]),
    ("Let the dough rest for twenty to 30 minutes before baking.",
     [("twenty", FOUND), ("30 minutes", FOUND)]),
    ("Let the dough rest for 25 to thirty minutes before baking.",
     [("25", NOT_FOUND), ("thirty minutes", FOUND)]),
])
def test_a_range_end_said_without_its_unit(answer: str,
                                           expected: list[tuple[str, str]]) -> None:
    page = "Let the dough rest for 20 to 30 minutes before baking."
    assert outcomes(answer, page) == expected


def test_a_measure_said_with_its_unit_is_not_a_bare_number_beside_the_unit_word() -> None:
    page = "About 3,000 volunteers came by ship from ports more than 400 miles away."
    assert outcomes("About 3,000 volunteers came by ship from ports more than 900 miles away.",
                    page) == [("3,000", FOUND), ("900 miles", NOT_FOUND)]


# English cents are coins, French cents hundreds
@pytest.mark.parametrize(("text", "values"), [
    ("the fare rose by seventy-five cents", [75]),
    ("a stamp costs twenty cents", [20]),
    ("il en a vendu trois cents", [300]),
    ("deux cents mètres", [200]),
    ("cinq cent mille euros", [500000]),
])
def test_cents_after_a_number_word(text: str, values: list[int]) -> None:
    assert [v for _, _, v in spelled_runs(text, 10)] == values


def test_spelled_cents_are_found_against_digits() -> None:
    page = "Shares fell 2.1%, or 87 cents, to $41.30 in early trading."
    assert outcomes("Shares fell 2.1%, or eighty-seven cents, to $41.30 in early trading.",
                    page) == [("2.1%", FOUND), ("eighty-seven", FOUND), ("$41.30", FOUND)]
    assert ("eighty-four", NOT_FOUND) in outcomes(
        "Shares fell 2.1%, or eighty-four cents, to $41.30 in early trading.", page)


@pytest.mark.parametrize("text", ["their 1\u202f000th customer", "their 1 000th customer",
                                  "le 10\u00a0000e visiteur"])
def test_an_ordinal_with_a_spaced_thousands_group_is_one_figure(text: str) -> None:
    [(written, kind)] = read(text)
    assert kind == "ordinal" and written[0] == text[text.index(written[0])]
    assert len(written) >= 6


def test_a_spaced_number_before_a_hyphened_word_is_still_two_numbers() -> None:
    assert read("the 10 100-metre heats")[0] == ("10", "number")


# a month glued after a dash or a bracket is still a date's month
@pytest.mark.parametrize("text", ["SPRINGFIELD, Oregon\u2014April 27, 2015\u2014The council",
                                  "SPRINGFIELD\u2013April 27, 2015", "(April 27, 2015)",
                                  "\u201cApril 27, 2015"])
def test_a_month_after_a_dash_or_bracket_reads_as_a_date(text: str) -> None:
    dates = [f for f in find_figures(text) if f.kind == "date"]
    assert [f.dates for f in dates] == [((2015, 4, 27),)]


def test_a_dateline_year_moved_is_flagged_as_one_date() -> None:
    page = "SPRINGFIELD, Oregon\u2014April 27, 2015\u2014The council approved the budget."
    assert outcomes("SPRINGFIELD, Oregon\u2014April 27, 2013\u2014The council approved the "
                    "budget.", page) == [("April 27, 2013", NOT_FOUND)]
    assert outcomes("The council approved the budget on 27 April 2015.", page) == \
        [("27 April 2015", FOUND)]


# digits going on after a myriad are one number ("1万2000人"), as Japanese, Chinese and
# Korean news write them
@pytest.mark.parametrize(("text", "value"), [
    ("会場には1万2000人が集まった。", "12000"),
    ("3億5000万円の赤字となった。", "350000000 JPY"),
    ("約1万2千人が参加した。", "12000"),
    ("2万5,000人が避難した。", "25000"),
    ("1億2345万6789円を計上した。", "123456789 JPY"),
    ("관중 2만5000명이 모였다.", "25000"),
    ("会場には1万人が集まった。", "10000"),
])
def test_digits_after_a_myriad_go_on_with_the_same_number(text: str, value: str) -> None:
    from readreceipt.quotes.claims import describe

    assert [describe(f) for f in find_figures(text)] == [value]


@pytest.mark.parametrize(("page", "answer", "expected"), [
    ("会場には1万2000人が集まった。", "会場には12,000人が集まった。", FOUND),
    ("会場には12,000人が集まった。", "会場には1万2000人が集まった。", FOUND),
    ("会場には1万2000人が集まった。", "会場には約1万2千人が集まった。", FOUND),
    ("会場には1万2000人が集まった。", "会場には1万3000人が集まった。", NOT_FOUND),
    ("会場には1万2000人が集まった。", "会場には12万人が集まった。", NOT_FOUND),
    ("会場には1万2000人が集まった。", "会場には1万人が集まった。", NOT_FOUND),
])
def test_a_myriad_number_against_its_other_forms(page: str, answer: str,
                                                 expected: str) -> None:
    assert [o for _, o in outcomes(answer, page)] == [expected]


# French writes millions and billions of euros as "M€" and "Md€"
@pytest.mark.parametrize(("text", "value"), [
    ("Le projet coûte 40 M€ au total.", "40000000 EUR"),
    ("un budget de 1,2 Md€.", "1200000000 EUR"),
    ("soit 300 k€ de plus", "300000 EUR"),
    ("les 40 M de la ligne", "40"),  # no sign: no scale said
])
def test_a_scale_letter_before_a_currency_sign(text: str, value: str) -> None:
    from readreceipt.quotes.claims import describe

    assert [describe(f) for f in find_figures(text)] == [value]


def test_millions_of_euros_said_as_m_euro_are_found() -> None:
    page = "Le chantier coûtera 40 millions d'euros à la région."
    assert outcomes("Le chantier coûtera 40 M€ à la région.", page) == [("40 M€", FOUND)]
    assert outcomes("Le chantier coûtera 400 M€ à la région.", page) == [("400 M€", NOT_FOUND)]


def test_a_currency_word_ending_a_sentence_ends_before_its_full_stop() -> None:
    text = "Die Kosten betragen 1.234,50 Euro. Danach nichts."
    [figure] = find_figures(text)
    assert text[figure.start:figure.end] == "1.234,50 Euro"


@pytest.mark.parametrize(("text", "value"), [
    ("１２，０００人が参加した。", "12000"),  # full-width digits grouped by a full-width comma
    ("３，５００円", "3500 JPY"),
    ("距離は約7.5 milesで、徒歩で3時間。", "7.5 mi"),  # a unit word ends at a CJK character
    ("3 公里", "3 km"),  # a CJK unit word is still one word
])
def test_full_width_grouping_and_units_before_cjk(text: str, value: str) -> None:
    from readreceipt.quotes.claims import describe

    assert describe(find_figures(text)[0]) == value


def test_a_full_width_number_is_found_in_ascii_digits() -> None:
    page = "昨年は１２，０００人が参加した。"
    assert outcomes("昨年は12,000人が参加した。", page) == [("12,000", FOUND)]
    assert outcomes("昨年は13,000人が参加した。", page) == [("13,000", NOT_FOUND)]


def test_a_clause_comma_between_cjk_digits_is_no_grouping() -> None:
    from readreceipt.quotes.claims import describe

    assert [describe(f) for f in find_figures("3，5人")] == ["3", "5"]
