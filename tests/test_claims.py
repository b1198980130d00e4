"""The claim check: the figures and names an answer states, found on the page or not.

Must-find rows: the page says a figure one way, the answer another way people write the same
value (found) or rounds it and says so (approximate). Must-flag rows: the answer's figure is
not the page's (a digit, x10, a year, a unit, day and month swapped, a currency), or the page
holds that value only beside other words. In many languages.
"""

# ruff: noqa: RUF001 - the characters people write figures with are what these tables are about
from __future__ import annotations

import pytest

from readreceipt.quotes.claims import (
    APPROXIMATE,
    FOUND,
    MAX_CLAIMS,
    NOT_FOUND,
    NOT_RUN,
    Claim,
    PageTexts,
    check_claims,
    claim_message,
)

BRIDGE = (
    "The harbour bridge reopened on 3 March 2026 after a retrofit that took four years.\n"
    "The transport authority counted an average of 84,000 crossings a day in 2025, up from "
    "71,500 in 2019.\n"
    "Engineers replaced 212 of the bridge's 480 bearings with lead-rubber isolators. The work "
    "cost €3.48 million.\n"
    "Traffic fell by 11.8 % during the works. The bridge is 1.2 km long and 960,000 people "
    "live within 10 km of it.\n"
    "Jane Roe, chief engineer at Harbour Works, led the project.")


def figures(answer: str, main: str = BRIDGE, **texts: str) -> list[Claim]:
    return [c for c in check_claims(answer, PageTexts(main=main, **texts))
            if c.kind == "figure"]


def outcome(answer: str, page: str = BRIDGE) -> str:
    """The outcome of the answer's first figure; its others must be on the page."""
    found = figures(answer, page)
    assert found, answer
    assert all(c.outcome != NOT_FOUND for c in found[1:]), found
    return found[0].outcome


# (page, answer): the answer's one figure is the page's, written another way.
MUST_FIND = [
    (BRIDGE, "The authority counted 84,000 crossings a day."),
    (BRIDGE, "The authority counted 84000 crossings daily."),
    (BRIDGE, "Die Behörde zählte 84.000 crossings pro Tag."),
    (BRIDGE, "L'autorité compte 84 000 crossings par jour."),
    (BRIDGE, "The authority counted 84\u202f000 crossings."),
    (BRIDGE, "It reopened on March 3, 2026."),
    (BRIDGE, "It reopened on 2026-03-03."),
    (BRIDGE, "It reopened in March 2026."),
    (BRIDGE, "Die Brücke wurde am 3. März 2026 reopened."),
    (BRIDGE, "The bridge reopened 2026年3月3日."),
    (BRIDGE, "The bridge is 1,200 m long."),
    (BRIDGE, "Engineers replaced two hundred and twelve bearings."),
    (BRIDGE, "The retrofit took 4 years."),
    (BRIDGE, "The work cost 3,48 Mio. €."),
    (BRIDGE, "The work cost EUR 3.48 million."),
    (BRIDGE, "The work cost 3.48 million euros."),
    (BRIDGE, "Traffic fell 11.8 percent during the works."),
    (BRIDGE, "Traffic fell by 11,8 Prozent during the works."),
    (BRIDGE, "The authority counted around 84 thousand crossings a day."),
    ("Die Stadt zählt 3,5 Millionen Einwohner.", "Die Stadt zählt 3.500.000 Einwohner."),
    ("Die Stadt zählt dreißig Brücken.", "Die Stadt zählt 30 Brücken."),
    ("La ville compte quatre-vingt-dix ponts.", "La ville compte 90 ponts."),
    ("La ciudad tiene veintitrés puentes.", "La ciudad tiene 23 puentes."),
    ("La città ha trentuno ponti.", "La città ha 31 ponti."),
    ("A cidade tem vinte e cinco pontes.", "A cidade tem 25 pontes."),
    ("De stad telt drieëntwintig bruggen.", "De stad telt 23 bruggen."),
    ("В городе двадцать три моста.", "В городе 23 моста."),
    ("工程耗资三千五百万元。", "工程耗资3500万元。"),
    ("売上は2025年に3割増えた。", "売上は２０２５年に増えた。"),
    ("공사비는 350억 원이었다.", "공사비는 350억 원이었다."),
    ("The company has a dozen offices.", "The company has 12 offices."),
    ("The company has 12 offices.", "The company has a dozen offices."),
    ("Le 3 mars 2026, le pont a rouvert.", "Le pont a rouvert le 3 mars 2026."),
    ("El puente reabrió el 3 de marzo de 2026.", "El puente reabrió el 2026-03-03."),
    ("Мост открыли 3 марта 2026 г.", "Мост открыли 03.03.2026."),
    ("Sales rose 3–5 % a year.", "Sales rose between 3 and 5 % a year."),
    ("인구는 350만 명이다.", "인구는 3,500,000명이다."),
    ("Il traffico è calato dell'11,8 per cento.", "Il traffico è calato dell'11,8 %."),
    ("A ponte reabriu em 3 de março de 2026.", "A ponte reabriu em 2026-03-03."),
    ("De brug ging op 3 maart 2026 weer open.", "De brug ging op March 3, 2026 weer open."),
    ("Most byl otevřen 3. března 2026.", "Most byl otevřen 2026-03-03."),
    ("Мост стоил 3,5 млрд рублей.", "Мост стоил 3 500 000 000 рублей."),
    ("大桥全长12公里。", "大桥全长12,000米。"),
    ("Die Brücke ist 1,2 km lang.", "Die Brücke ist 1.200 m lang."),
]


@pytest.mark.parametrize(("page", "answer"), MUST_FIND)
def test_the_same_value_written_another_way_is_found(page: str, answer: str) -> None:
    assert outcome(answer, page) == FOUND


# (page, answer): rounded and said so, or converted: approximate, never a flag.
MUST_APPROXIMATE = [
    (BRIDGE, "Traffic fell by about 12 % during the works."),
    (BRIDGE, "Nearly 1 million people live within 10 km."),
    (BRIDGE, "The work cost about 3.5 million euros."),
    (BRIDGE, "The work cost roughly €3.5m."),
    (BRIDGE, "The bridge is about 0.75 miles long."),
    (BRIDGE, "The authority counted more than 80,000 crossings a day."),
    ("Der Verkehr sank um 11,8 Prozent.", "Der Verkehr sank um etwa 12 Prozent."),
    ("Le trafic a baissé de 11,8 %.", "Le trafic a baissé d'environ 12 %."),
    ("El tráfico cayó un 11,8 %.", "El tráfico cayó alrededor de 12 %."),
    ("交通量は11.8%減った。", "交通量は約12%減った。"),
    ("It weighs 12 kg.", "It weighs about 26 pounds."),
    ("It was 30 °C in the shade.", "It was 86 °F in the shade."),
]


@pytest.mark.parametrize(("page", "answer"), MUST_APPROXIMATE)
def test_rounding_said_as_such_is_approximate(page: str, answer: str) -> None:
    assert outcome(answer, page) == APPROXIMATE


# (page, answer): the answer's figure is not what the page says beside those words.
MUST_FLAG = [
    (BRIDGE, "The authority counted 94,000 crossings a day."),  # a digit
    (BRIDGE, "The authority counted 840,000 crossings a day."),  # x10
    (BRIDGE, "In 2024 the authority counted 84,000 crossings a day."),  # a year moved
    (BRIDGE, "It reopened on 3 April 2026."),  # a month
    (BRIDGE, "It reopened on 4 March 2026."),  # a day
    (BRIDGE, "It reopened on 3 March 2025."),  # the year of a date
    (BRIDGE, "The bridge is 1.2 miles long."),  # a unit
    (BRIDGE, "The work cost $3.48 million."),  # a currency
    (BRIDGE, "The work cost €3.48 billion."),  # a scale word
    (BRIDGE, "Traffic fell by 18.8 % during the works."),
    (BRIDGE, "Traffic fell by about 20 % during the works."),  # a hedge is no licence
    (BRIDGE, "The authority counted more than 90,000 crossings a day."),
    (BRIDGE, "Engineers replaced 221 bearings."),
    (BRIDGE, "The retrofit took five years."),
    ("Die Stadt zählt 3,5 Millionen Einwohner.", "Die Stadt zählt 35 Millionen Einwohner."),
    ("La ville compte 84 000 habitants.", "La ville compte 48 000 habitants."),
    ("工程耗资三千五百万元。", "工程耗资3600万元。"),
    ("Мост открыли 3 марта 2026 г.", "Мост открыли 3 апреля 2026 г."),
    ("It opened on 4 March 2026.", "It opened on 3 April 2026."),  # day and month swapped
    ("The tower is 300 metres tall.", "The tower is 300 feet tall."),
    ("It took 12 days to build.", "It took 12 weeks to build."),
    ("인구는 350만 명이다.", "인구는 530만 명이다."),
    ("Il traffico è calato dell'11,8 per cento.", "Il traffico è calato dell'18,8 per cento."),
    ("De brug ging op 3 maart 2026 weer open.", "De brug ging op 3 mei 2026 weer open."),
    ("大桥全长12公里。", "大桥全长12英里。"),
    # the value is on the page, but beside other words
    (BRIDGE, "The authority counted 480 crossings a day."),
    (BRIDGE, "The bridge has 84,000 bearings."),
]


@pytest.mark.parametrize(("page", "answer"), MUST_FLAG)
def test_a_figure_the_page_does_not_hold_beside_its_words_is_flagged(page: str,
                                                                   answer: str) -> None:
    assert outcome(answer, page) == NOT_FOUND


def test_a_flagged_figure_names_the_nearest_figure_the_page_attaches_to_its_words() -> None:
    [claim] = figures("The authority counted 94,000 crossings a day.")
    assert claim.outcome == NOT_FOUND
    assert claim.nearest is not None and "84,000 crossings a day" in claim.nearest
    assert claim.nearest in BRIDGE  # the page's own characters
    assert claim.where == "main"
    message = claim_message("https://example.org/bridge", claim)
    assert '"94,000"' in message and "84,000 crossings a day" in message
    assert "not on https://example.org/bridge as readreceipt fetched it" in message
    assert "lie" not in message.lower()


def test_a_found_figure_says_where_and_shows_the_page_s_words() -> None:
    [claim] = figures("Traffic fell by 11.8 percent.")
    assert claim.outcome == FOUND
    assert claim.where == "main"
    assert claim.match is not None and "11.8 %" in claim.match and claim.match in BRIDGE


def test_the_texts_are_read_in_turn_main_then_page_then_tables_then_metadata() -> None:
    main = "The bridge reopened after four years."
    answer = "The bridge carries 84,000 crossings a day."
    assert figures(answer, main)[0].outcome == NOT_FOUND
    assert figures(answer, main, page="Crossings: 84,000 a day")[0].where == "page"
    assert figures(answer, main, table="Daily crossings | 2025 | 84,000")[0].where == "table"
    assert figures(answer, main, metadata="description: 84,000 crossings a day")[0].where \
        == "metadata"


def test_a_figure_computed_from_the_page_is_explained_not_flagged() -> None:
    [total] = [c for c in figures("Crossings rose by 12,500 a day between 2019 and 2025.")
               if c.text == "12,500"]
    assert total.outcome == FOUND
    assert total.computed == "84000 - 71500"
    [share] = [c for c in figures("Crossings grew about 17 % since 2019.") if "17" in c.text]
    assert share.outcome == APPROXIMATE and share.computed is not None
    # a wrong reckoning is still a flag
    [wrong] = [c for c in figures("Crossings rose by 22,500 a day between 2019 and 2025.")
               if c.text == "22,500"]
    assert wrong.outcome == NOT_FOUND


def test_a_computation_is_tried_only_where_the_answer_says_it_reckons() -> None:
    # 268 = 480 - 212, but nothing in the sentence says it is a difference
    assert outcome("The bridge has 268 isolators.") == NOT_FOUND
    assert figures("In total 268 bearings were not replaced.")[0].outcome == FOUND


def test_figures_in_quotations_code_and_urls_are_not_this_check_s() -> None:
    answer = ('The page says "the transport authority counted 99,000 crossings a day". '
              "See `sleep 42` and https://example.org/2024/07/report-99.")
    assert figures(answer) == []


def test_a_short_quoted_term_s_figure_is_still_checked() -> None:
    assert outcome('It was called "the 99 bridge".') == NOT_FOUND


def test_figures_the_prompt_holds_are_the_agent_s_own() -> None:
    found = check_claims("Summarise the 2031 plan: the bridge reopened on 3 March 2026.",
                         PageTexts(main=BRIDGE), prompt="What does the 2031 plan say?")
    assert [c.text for c in found if c.kind == "figure"] == ["3 March 2026"]


def test_attributed_mode_reads_only_sentences_that_name_a_source() -> None:
    answer = ("I ran 14 tests and fixed 3 bugs. According to the article, the authority "
              "counted 94,000 crossings a day.")
    found = check_claims(answer, PageTexts(main=BRIDGE), attributed=True)
    assert [(c.text, c.outcome) for c in found] == [("94,000", NOT_FOUND)]


def test_past_the_cap_figures_are_not_run_never_passed() -> None:
    answer = " ".join(f"The authority counted {i} crossings." for i in range(1000,
                                                                            1000 + MAX_CLAIMS + 5))
    found = figures(answer)
    assert len(found) == MAX_CLAIMS + 5
    assert [c.outcome for c in found[MAX_CLAIMS:]] == [NOT_RUN] * 5


def test_an_empty_page_checks_nothing() -> None:
    assert check_claims("It cost $5.", PageTexts(main="  ")) == ()


# --------------------------------------------------------------------------------- names

def names(answer: str, page: str = BRIDGE) -> list[tuple[str, str]]:
    return [(c.text, c.outcome) for c in check_claims(answer, PageTexts(main=page))
            if c.kind == "name"]


def test_a_name_the_page_holds_is_found() -> None:
    assert names("Jane Roe of Harbour Works led it.") == [("Jane Roe of Harbour Works", FOUND)]
    assert names("Harbour Works led it.") == [("Harbour Works", FOUND)]


def test_a_name_the_page_names_in_part_is_approximate() -> None:
    assert names("Engineer Mary Roe led it.") == [("Engineer Mary Roe", APPROXIMATE)]


def test_a_name_none_of_whose_words_the_page_holds_is_flagged() -> None:
    assert names("Dr. John Smith of Acme Corp led it.") == [
        ("John Smith of Acme Corp", NOT_FOUND)]


@pytest.mark.parametrize("answer", [
    "The bridge reopened. It was late.",  # one capital: a sentence's first word
    "According To the page, it reopened.",  # function words at the ends
    "## Key Findings\nIt reopened.",  # a heading
    "Summary: it reopened in March.",
])
def test_what_is_not_a_name(answer: str) -> None:
    assert names(answer) == []


def test_names_in_other_scripts_and_languages() -> None:
    page = "Le ministre Jean-Luc Martin a inauguré le pont de la Banque de France."
    assert names("Jean-Luc Martin a inauguré le pont.", page) == [("Jean-Luc Martin", FOUND)]
    assert names("Pierre Dupont a inauguré le pont.", page) == [("Pierre Dupont", NOT_FOUND)]


def test_a_quotation_s_last_figure_is_the_quotation_check_s_too() -> None:
    answer = ('The first says "the harbour bridge took four years and was finished in the '
              'spring of 2026" and the second "the river was closed for nine weeks".')
    assert figures(answer) == []
