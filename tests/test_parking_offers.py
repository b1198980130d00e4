"""Sale pages by the offer they take (reading/parking.py): an inquiry form for an offer on a
domain, and a registrar's aftermarket link offering the domain a heading shows.

The sale pages are written in Polish and Russian with no phrase of the wording tables, so that
only the structure can name them; beside each, the clean pages that share part of the shape:
a shop's promotion form with an "offer" field under its logo heading, a sale page's form on a
page whose domain is nowhere, a news site whose logo heading is its domain and whose article
links to an aftermarket, and a long article with an offer form.
"""

# ruff: noqa: RUF001 - the Russian sale page is written in Cyrillic on purpose

from __future__ import annotations

import pytest

import regexsteps
from readreceipt.reading.extract import extract
from readreceipt.reading.facts import PageView
from readreceipt.reading.fingerprint import judge_content
from readreceipt.reading.parking import _ATTR, _FIELD, _FORM_OPEN, MAX_FORMS
from readreceipt.reading.tables.parking import DOMAIN_FIELDS, OFFER_FIELDS


def _judge(html: str, url: str = "https://example.org/") -> tuple[str, str]:
    ex = extract(html.encode(), "text/html", None)
    view = PageView(url, url, 200, {}, "text/html", ex.html, ex.main_text, ex.page_text,
                    len(html))
    signal = judge_content(view)
    return ("ok", "") if signal is None else (signal.reason, signal.rule)


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang='pl'><head><meta charset='utf-8'><title>{title}"
            f"</title></head><body>{body}</body></html>")


_ABOUT = ("<p>Krótka, łatwa do zapamiętania nazwa, która od lat przyciąga ruch z wyszukiwarek. "
          "Przekazanie odbywa się przez zaufanego pośrednika w ciągu kilku dni roboczych, a "
          "płatność zabezpiecza depozyt.</p>")


def _inquiry(fields: str, form_id: str = "kontakt") -> str:
    return (f'<form id="{form_id}" action="/wyslij" method="post">'
            '<label>Imię <input type="text" name="name"></label>'
            '<label>E-mail <input type="email" name="email"></label>'
            f'{fields}<textarea name="message"></textarea>'
            '<button type="submit">Wyślij</button></form>')


@pytest.mark.parametrize("field", sorted(OFFER_FIELDS)[:3])
def test_an_offer_form_with_a_hidden_domain_field_is_a_sale_page(field: str) -> None:
    hidden = sorted(DOMAIN_FIELDS)[0]
    page = _page("Nazwa na sprzedaż",
                 f"<main><h1>Ta nazwa czeka na nowego właściciela</h1>{_ABOUT}"
                 + _inquiry(f'<input type="number" name="{field}">'
                            f'<input type="hidden" name="{hidden}" value="">') + "</main>")
    reason, rule = _judge(page)
    assert reason == "parked"
    assert rule.startswith("structure:a form for an offer on a domain (its hidden domain field)")


def test_an_offer_form_under_the_domain_as_the_pages_heading_is_a_sale_page() -> None:
    page = _page("Premium nazwa", f"<main><h1>kwiatydlaciebie.pl</h1>{_ABOUT}"
                 + _inquiry("", form_id="main-offer-form") + "</main>")
    reason, rule = _judge(page)
    assert reason == "parked"
    assert "the domain its page shows" in rule


def test_the_form_alone_names_no_domain() -> None:
    # The same inquiry form with no domain anywhere: a company's "request a quote" page.
    page = _page("Zapytanie ofertowe", f"<main><h1>Zapytaj o wycenę</h1>{_ABOUT}"
                 + _inquiry('<input type="number" name="budget">') + "</main>")
    assert _judge(page) == ("ok", "")


def test_a_shops_promotion_form_under_its_logo_heading_is_not_a_sale() -> None:
    # The domain is the site's logo in its header, not the page's own heading.
    page = _page("Promocje", '<header><h1><a href="/">sklepik.pl</a></h1>'
                 '<nav><a href="/">Start</a> <a href="/promocje">Promocje</a></nav></header>'
                 f"<main><h2>Zaproponuj promocję dla stałych klientów</h2>{_ABOUT}"
                 + _inquiry('<input type="text" name="offer">') + "</main>")
    assert _judge(page) == ("ok", "")


def test_an_offer_form_beside_a_long_article_is_not_a_sale() -> None:
    story = "".join(f"<p>{_ABOUT[3:-4]} Akapit {i}.</p>" for i in range(14))
    page = _page("kwiatydlaciebie.pl - poradnik", f"<main><h1>kwiatydlaciebie.pl</h1>{story}"
                 + _inquiry('<input type="number" name="offer">') + "</main>")
    assert _judge(page) == ("ok", "")


def _russian_sale(link: str) -> str:
    prose = "".join("<p>Домен с историей и постоянной аудиторией. Передача проходит через "
                    "безопасную сделку регистратора, после оплаты права переходят новому "
                    f"владельцу за {n} рабочих дня.</p>" for n in (2, 3, 4))
    return ("<!DOCTYPE html><html lang='ru'><head><meta charset='utf-8'><title>Журнал о "
            "технологиях</title></head><body><main><h1>Только сегодня</h1>"
            f"<h2>zhurnal-tekh.ru</h2>{prose}{link}</main></body></html>")


def test_an_aftermarket_link_offering_the_domain_a_heading_shows_is_a_sale() -> None:
    page = _russian_sale('<a href="https://www.nic.ru/shop/lot/zhurnal-tekh.ru/">Купить</a>')
    reason, rule = _judge(page)
    assert reason == "parked"
    assert rule == "structure:a link to nic.ru offering this domain (zhurnal-tekh.ru)"


def test_an_aftermarket_link_to_another_domain_is_not_a_sale_of_this_one() -> None:
    page = _russian_sale('<a href="https://www.nic.ru/shop/lot/drugoi-domen.ru/">Купить</a>')
    assert _judge(page) == ("ok", "")


def test_a_news_sites_logo_domain_and_an_aftermarket_link_elsewhere_are_not_a_sale() -> None:
    story = "".join("<p>Аукционы доменов в этом году побили рекорды, рассказали участники рынка "
                    f"и регистраторы, опрошенные редакцией. Абзац {i}.</p>" for i in range(6))
    page = ("<!DOCTYPE html><html lang='ru'><head><meta charset='utf-8'><title>Новости"
            "</title></head><body><header><h1><a href='/'>novosti-dnya.ru</a></h1></header>"
            f"<main><h2>Рекорды аукционов</h2>{story}"
            "<a href='https://www.nic.ru/shop/'>магазин доменов</a></main></body></html>")
    assert _judge(page) == ("ok", "")


@pytest.mark.parametrize("text", [
    "<form " + "a" * 5000,                       # an opening tag that never closes
    "<form>" + '<input name="x" ' * 2000,        # fields that never close
    '<input name="' + "o" * 5000,                # an attribute value that runs on
])
def test_the_form_patterns_are_linear_on_hostile_markup(text: str) -> None:
    for pattern in (_FORM_OPEN, _FIELD, _ATTR):
        assert regexsteps.steps(pattern, text) < 40 * len(text), pattern.pattern


def test_a_page_of_many_forms_reads_a_bounded_number() -> None:
    # More forms than are read, the sale page's form last: past the bound it is not read.
    filler = '<form id="search"><input name="q"></form>' * (MAX_FORMS + 5)
    page = _page("Nazwa na sprzedaż",
                 f"<main><h1>Ta nazwa czeka</h1>{_ABOUT}{filler}"
                 + _inquiry('<input type="number" name="offer">'
                            '<input type="hidden" name="domain">') + "</main>")
    assert _judge(page)[0] != "parked"
    within = _page("Nazwa na sprzedaż",
                   f"<main><h1>Ta nazwa czeka</h1>{_ABOUT}{filler[:len(filler) // 10]}"
                   + _inquiry('<input type="number" name="offer">'
                              '<input type="hidden" name="domain">') + "</main>")
    assert _judge(within)[0] == "parked"
