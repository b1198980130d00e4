"""Figures and names an answer states that the page does not hold are never found.

Found from outside (a probe of the answer check): a unit the answer gives was taken as
named beside a bare number of the page when its text stood anywhere within 90 characters
(the "%" of another figure's "5%", the "m" inside "rooms"); "1e6" read as the French
ordinal "1e"; and a name joined by a particle was found when each part stood anywhere on
the page ("Bank of Canada. England won.").
"""
# ruff: noqa: RUF001 - a page in full-width digits and commas is one of the cases

from __future__ import annotations

import pytest

from readreceipt.quotes.claims import APPROXIMATE, FOUND, PageTexts, check_claims


def outcomes(answer: str, page: str, kind: str = "figure") -> list[tuple[str, str]]:
    return [(c.text, c.outcome) for c in check_claims(answer, PageTexts(main=page, page=page))
            if c.kind == kind]


@pytest.mark.parametrize(("answer", "page"), [
    ("Unemployment rose to 12% last year.", "Unemployment in 12 regions rose to 5% last year."),
    ("Unemployment rose to 12% last year.", "In 12 regions unemployment rose to 5 % last year."),
    ("Turnout was 12 percent.", "In 12 regions turnout was 40 percent."),
    ("It costs 12 USD.", "It has 12 parts and costs 5 USD."),
    ("The tower is 120 m tall.", "The tower has 120 rooms."),
    ("The fare is $12.", "The 12 stops cost $5 each."),
])
def test_a_unit_another_number_carries_or_a_words_letter_is_no_unit_beside(
        answer: str, page: str) -> None:
    assert [outcome for _, outcome in outcomes(answer, page)] != [FOUND]


@pytest.mark.parametrize(("answer", "page"), [
    ("The tower is 120 m tall.", "Height (m): 120, the tallest in the city."),
    ("Turnout was 12 percent.", "Turnout, in percent: 12"),
    ("昨年は12,000人が参加した。", "昨年は１２，０００人が参加した。"),
])
def test_a_unit_named_beside_a_bare_number_still_counts(answer: str, page: str) -> None:
    assert [outcome for _, outcome in outcomes(answer, page)] == [FOUND]


def test_a_number_in_exponent_form_is_no_ordinal() -> None:
    assert outcomes("It cost 1e6 dollars.", "It cost 1 dollar and 6 cents.") == []
    assert outcomes("Elle est arrivée 2e au classement.", "Elle est arrivée 2e au classement "
                    "général.") == [("2e", FOUND)]  # the ordinal itself still read


def test_the_parts_of_a_name_must_stand_together() -> None:
    page = "The report came from the Bank of Canada. England won the match."
    [(name, outcome)] = outcomes("The report came from the Bank of England.", page, "name")
    assert name.startswith("Bank of England") and outcome == APPROXIMATE  # never FOUND
    near = "Jane Roe, chief engineer at Harbour Works, said the wall would hold."
    [(name, outcome)] = outcomes("Jane Roe of Harbour Works said so.", near, "name")
    assert name.startswith("Jane Roe of Harbour Works") and outcome == FOUND


def test_figures_and_names_past_the_deadline_are_not_run() -> None:
    # Each name reads the page's texts: 100 names on an 8 MB page took 68 s under a 5 s
    # deadline, which the figure and name check never looked at.
    from readreceipt.fetching.deadline import Deadline
    from readreceipt.quotes.claims import NOT_RUN

    page = "The harbour board met on Tuesday and 12 members voted. " * 200
    answer = "Jane Roe of Harbour Works said 12 members voted, and Anne Poe agreed."
    claims = check_claims(answer, PageTexts(main=page, page=page), deadline=Deadline.after(0))
    assert claims and all(c.outcome == NOT_RUN for c in claims)
    assert {c.kind for c in claims} == {"figure", "name"}
