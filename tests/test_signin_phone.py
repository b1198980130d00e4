# ruff: noqa: RUF001 - the pages are written in their own scripts and marks
"""A sign-in by text message (reading/signin.py): a phone number, a one-time code sent to it
and a button, the page's main thing, is a sign-in wall. Beside it, forms with a phone field
that sign nobody in: a callback request (a name and a phone), an order's phone and promo
code, and the same sign-in box in the header of a full article."""

from __future__ import annotations

from judged import judged

_BOX = """<form novalidate><input type="tel" name="phoneNo" placeholder="手机号">
<button type="button">获取短信验证码</button>
<input type="number" name="digits" placeholder="输入 6 位短信验证码">
<button type="submit">登录 / 注册</button></form>"""


def _page(body: str, title: str = "登录") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_phone_and_code_sign_in_is_a_wall() -> None:
    got = judged(_page(f"<main><h1>登录后查看更多内容</h1>{_BOX}<p>未注册手机验证后自动登录</p>"
                       "</main>"))
    assert got is not None
    assert got[0] == "wall:login"
    assert "a phone number and a one-time code" in got[1]


def test_a_callback_request_is_not_a_sign_in() -> None:
    form = """<form action="/callback"><input name="name" placeholder="Имя">
<input type="tel" name="phone" placeholder="Телефон"><button>Перезвоните мне</button></form>"""
    text = "<p>Оставьте заявку, и мы перезвоним в течение 15 минут.</p>"
    got = judged(_page(f"<main><h1>Обратный звонок</h1>{text}{form}</main>", "Звонок"))
    assert got is None or got[0] != "wall:login"


def test_an_orders_phone_and_promo_code_is_not_a_sign_in() -> None:
    form = """<form action="/order"><input type="tel" name="phone" placeholder="Phone">
<input name="promoCode" placeholder="Promo code"><button>Order</button></form>"""
    got = judged(_page(f"<main><h1>Order a cake</h1><p>Tell us your number.</p>{form}</main>",
                       "Order"))
    assert got is None or got[0] != "wall:login"


def test_the_box_in_the_header_of_a_full_article_is_not_a_wall() -> None:
    paragraphs = "".join(f"<p>第{i}段。今年的上海国际电影节共收到来自一百多个国家和地区的"
                         f"四千余部报名影片，评委会将在六月中旬公布入围名单，"
                         f"并在闭幕式上揭晓金爵奖。</p>"
                         for i in range(10))
    page = _page(f"<header>{_BOX}</header><article><h1>电影节报名影片创新高</h1>{paragraphs}"
                 f"</article>", "电影节报名影片创新高")
    assert judged(page) is None
