"""Reading figures: what a text's numbers, dates and amounts are read as, and what is no figure."""

# ruff: noqa: RUF001 - the characters people write figures with are what these tables are about
from __future__ import annotations

import pytest

from readreceipt.quotes.claims import describe
from readreceipt.quotes.figures import MAX_DIGITS, decimal_mark, find_figures, number_readings
from readreceipt.quotes.numberwords import cjk_value
from readreceipt.quotes.spelled import spelled_runs


def read(text: str) -> list[tuple[str, str, str]]:
    """(the figure's characters, its kind, what it was read as) for each figure of text."""
    return [(text[f.start:f.end], f.kind, describe(f)) for f in find_figures(text)]


def values(text: str) -> list[str]:
    return [value for _, _, value in read(text)]


# (text, what its figures are read as, in order)
READS = [
    # grouping of every locale, decimal marks
    ("84,000 crossings a day", ["84000"]),
    ("84.000 Überquerungen am Tag, 3,5 % mehr", ["84000", "3.5 %"]),
    ("84 000 passages par jour", ["84000"]),
    ("84\u202f000 passages", ["84000"]),
    ("84\u00a0000 passages", ["84000"]),
    ("84’000 Fahrten", ["84000"]),
    ("12,34,567 rupees", ["1234567 INR"]),
    ("1,234.56 and 1.234,56", ["1234.56", "1234.56"]),
    ("it rose 2.5 points", ["2.5"]),
    # scale words
    ("3.5 million people", ["3500000"]),
    ("3,5 Millionen Menschen", ["3500000"]),
    ("3,5 Mio. Euro", ["3500000 EUR"]),
    ("3.500 millones de euros", ["3500000000 EUR"]),
    ("3,5 milliards d'euros", ["3500000000 EUR"]),
    ("$3.5bn and US$200m", ["3500000000 $", "200000000 USD"]),
    ("3500万元", ["35000000 CNY"]),
    ("1.2億円", ["120000000 JPY"]),
    ("350억 원", ["35000000000 KRW"]),
    ("Rs 24 lakh", ["2400000 INR"]),
    # currencies before and after
    ("€300 and 300 € and 300 euros and EUR 300", ["300 EUR"] * 4),
    ("£71.6million fee", ["71600000 GBP"]),
    ("R$ 3,5 milhões", ["3500000 BRL"]),
    # percent
    ("12 % and 12% and 12 percent and 12 per cent", ["12 %"] * 4),
    ("12 Prozent, 12 pour cent, 12 por ciento, 12 per cento", ["12 %"] * 4),
    ("12 процентов; 12％; 12パーセント", ["12 %"] * 3),
    # measurements and units
    ("a 12 km bridge, 12 kilometres, 12-kilometre", ["12 km"] * 3),
    ("30°C and 86 °F", ["30 °C", "86 °F"]),
    ("5kg, 5 kilograms", ["5 kg"] * 2),
    ("a 10-year plan", ["10 year"]),
    ("3 times as many, 3x faster", ["3 times", "3 times"]),
    # ordinals and ranks
    ("ranked 3rd, No. 4 and #5", ["rank 3", "rank 4", "rank 5"]),
    ("第3位", ["rank 3"]),
    # ranges
    ("3–5 years", ["3\u20135 year"]),
    ("between 3 and 5 million", ["3000000\u20135000000"]),
    ("from 2019 to 2021", ["2019\u20132021"]),
    # dates in any order and language
    ("3 March 2026", ["2026-03-03"]),
    ("March 3, 2026", ["2026-03-03"]),
    ("March 3rd, 2026", ["2026-03-03"]),
    ("2026-03-03", ["2026-03-03"]),
    ("3. März 2026", ["2026-03-03"]),
    ("3 de marzo de 2026", ["2026-03-03"]),
    ("3 mars 2026", ["2026-03-03"]),
    ("3 марта 2026 г.", ["2026-03-03"]),
    ("3. března 2026", ["2026-03-03"]),
    ("2026年3月3日", ["2026-03-03"]),
    ("二〇二六年三月三日", ["2026-03-03"]),
    ("2026년 3월 3일", ["2026-03-03"]),
    ("March 2026", ["2026-03"]),
    ("on 3 March", ["--03-03"]),
    ("25/12/2025 and 03/04/2026", ["2025-12-25", "2026-04-03"]),  # the text is day-first
    ("12/25/2025 and 03/04/2026", ["2025-12-25", "2026-03-04"]),  # the text is month-first
    ("03/04/2026", ["2026-04-03 or 2026-03-04"]),  # nothing says which
    ("in 2026", ["2026"]),
    # spelled out, in several languages
    ("twenty-three bridges", ["23"]),
    ("three hundred and twelve", ["312"]),
    ("a dozen eggs", ["12"]),
    ("dreiundzwanzig Brücken, dreißig Jahre", ["23", "30 year"]),
    ("zweihundertfünfzig", ["250"]),
    ("quatre-vingt-dix ans", ["90 year"]),
    ("soixante-dix-sept", ["77"]),
    ("veintitrés puentes y treinta y cinco", ["23", "35"]),
    ("trentuno giorni", ["31 day"]),
    ("vinte e cinco anos", ["25 year"]),
    ("drieëntwintig bruggen", ["23"]),
    ("двадцать три моста", ["23"]),
    ("三千五百万元", ["35000000 CNY"]),
    # hedged
    ("about 12 %", ["12 %"]),
]


@pytest.mark.parametrize(("text", "expected"), READS)
def test_figures_are_read_as_written(text: str, expected: list[str]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize(("text", "hedge"), [
    ("about 12 %", "about"), ("nearly 1 million", "about"), ("more than 300", "over"),
    ("less than 10", "under"), ("(about 5,200 km)", "about"), ("etwa 300", "about"),
    ("mehr als 300", "over"), ("près de 300", "about"), ("plus de 300", "over"),
    ("alrededor de 300", "about"), ("約300人", "about"), ("300人以上", "over"),
    ("около 300", "about"), ("~300", "about"), ("30余人", "over"), ("3.5 million", None),
])
def test_hedges_are_read(text: str, hedge: str | None) -> None:
    figures = find_figures(text)
    assert len(figures) == 1
    assert figures[0].hedge == hedge


# What is not a figure at all, or not the figure it looks like.
NOT_FIGURES = [
    "COVID-19 spread", "the A380 flew", "an MP3 file", "5G networks", "H2O and CO2",
    "version 3.11.2", "at 10:30", "it ended 2:1", "see [12] and [13]", "in the 1990s",
    "address 10.0.0.1", "3D printing",
]


@pytest.mark.parametrize("text", NOT_FIGURES)
def test_identifiers_times_and_markers_are_no_figures(text: str) -> None:
    assert read(text) == []


def test_a_list_marker_is_no_figure_but_the_item_s_figure_is() -> None:
    assert values("1. The bridge has 480 bearings\n2. It reopened") == ["480"]


@pytest.mark.parametrize(("text", "not_read_as"), [
    ("one of the first", "1"), ("ein Haus", "1"), ("une maison", "1"), ("due to rain", "2"),
    ("once upon a time", "11"), ("the tender offer", "10"), ("elfenbein", "11"),
    ("neuf maisons neuves", "9"),
])
def test_words_that_are_numbers_only_in_a_run_are_not_read_alone(text: str,
                                                                 not_read_as: str) -> None:
    assert not_read_as not in values(text)


def test_runs_of_number_words_are_cut_where_the_grammar_breaks() -> None:
    assert values("three four five") == ["3", "4", "5"]
    assert values("twenty twenty") == ["20", "20"]


@pytest.mark.parametrize(("core", "mark", "expected"), [
    ("1,200", None, [1200.0, 1.2]), ("1.200", None, [1200.0, 1.2]),
    ("1,200", ".", [1200.0]), ("1,200", ",", [1.2]), ("1.200", ",", [1200.0]),
    ("2,000", None, [2000.0]),  # "x,000" is never a decimal
    ("1,5", None, [1.5]), ("3.14", None, [3.14]), ("1,234,567", None, [1234567.0]),
    ("1,23,4", None, []),
])
def test_one_separator_before_three_digits_is_read_as_the_text_says(
        core: str, mark: str | None, expected: list[float]) -> None:
    assert [r.value for r in number_readings(core, mark)] == expected


def test_the_decimal_mark_comes_from_the_text_s_own_numbers() -> None:
    assert decimal_mark(["3,5", "1.234.567"]) == ","
    assert decimal_mark(["3.14", "1,234,567"]) == "."
    assert decimal_mark(["3,5", "3.14"]) is None
    assert decimal_mark(["1,200"]) is None
    # and it decides: in a German text "1.200" is 1200, in an English one 1.2
    assert values("Es kostet 3,5 Mio. Euro und 1.200 Euro") == ["3500000 EUR", "1200 EUR"]
    assert values("It is 3.5 km long and 1,200 m wide") == ["3.5 km", "1200 m"]


@pytest.mark.parametrize(("run", "value"), [
    ("三千五百万", 35_000_000), ("二十三", 23), ("一百零五", 105), ("二〇二六", 2026),
    ("十", 10), ("两千", 2000), ("五六", None), ("三三百", None),
])
def test_cjk_numerals(run: str, value: int | None) -> None:
    assert cjk_value(run) == value


def test_a_digit_run_longer_than_a_number_is_no_figure() -> None:
    assert read("id " + "7" * (MAX_DIGITS + 5)) == []


def test_figures_read_from_one_text_are_capped() -> None:
    text = " ".join(f"{i} apples" for i in range(2, 400))
    assert len(find_figures(text, limit=50)) == 50


def test_spelled_runs_are_found_among_the_words_the_text_holds() -> None:
    text = "The city built twenty-three bridges and a dozen tunnels over nineteen years."
    runs = [(text[s:e], v) for s, e, v in spelled_runs(text, 10)]
    assert runs == [("twenty-three", 23), ("a dozen", 12), ("nineteen", 19)]
