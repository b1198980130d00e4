# ruff: noqa: RUF001 - the pages are written in their own alphabets
"""Two notices' phrases: a site's own update notice ("We are currently updating the site",
tables/noticewords.py, on a bare page) and a geo-block that names the reader's own address
as the reason (tables/access.py, Russian). Beside each, the page that carries nearly the
same words without being the notice: a company's news item about updating its website, a
news brief about a service restricted for users from a country."""

from __future__ import annotations

from judged import judged


def _reason(html: str) -> str:
    got = judged(html)
    return "ok" if got is None else got[0]


def test_a_bare_update_notice_is_an_interstitial() -> None:
    page = ("<html><head><title>We are currently updating the site</title></head><body>"
            "<div><h1>We are currently updating the site</h1><p>Full service will resume "
            "shortly.</p></div></body></html>")
    assert _reason(page) == "wall:interstitial"


def test_a_news_item_about_updating_the_website_is_clean() -> None:
    nav = "".join(f'<li><a href="/{p}">{p}</a></li>' for p in ("news", "products", "contact"))
    body = ("We have spent the winter updating our website: the catalogue now shows stock by "
            "warehouse, the order history goes back ten years and the spare-parts finder "
            "works on phones. Tell us what you think through the contact form. ") * 3
    page = (f"<html><head><title>Spring news</title></head><body><nav><ul>{nav}</ul></nav>"
            f"<article><h1>Updating our website</h1><p>{body}</p></article></body></html>")
    assert _reason(page) == "ok"


def test_a_geo_block_naming_the_readers_address_is_an_interstitial() -> None:
    page = ("<html><body><div class='box'><p class='big'>Доступ для посетителей из вашей "
            "страны закрыт</p><p>Мы определили, что ваш IP-адрес принадлежит Российской "
            "Федерации, поэтому ограничили доступ к содержимому сайта.</p></div></body></html>")
    assert _reason(page) == "wall:interstitial"


def test_a_news_brief_about_users_from_a_country_is_clean() -> None:
    page = ("<html><head><title>Сервис ограничил доступ</title></head><body><article>"
            "<h1>Сервис ограничил доступ</h1><p>Онлайн-кинотеатр сообщил, что доступ "
            "пользователям из Российской Федерации ограничен с понедельника; подписчики "
            "получат возврат средств в течение месяца, говорится в заявлении компании.</p>"
            "</article></body></html>")
    assert _reason(page) != "wall:interstitial"
