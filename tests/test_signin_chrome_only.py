"""Issue 21, seventh round: what makes a sign-in box the page's main thing on sites the rules
have not seen (reading/signin.py, reading/listings.py).

- A box inside a container a script opens on a click (a modal, a dropdown, a drawer, a popup,
  an overlay, a hiding class), whatever its tag: a dialog, judged as one.
- A gallery (a grid of tiles: a link, a picture and a figure) anywhere outside the box: the
  page is a shop's or a portal's, the box its widget.
- A box in a list of links, a sidebar or a teaser on a page that is only chrome beside it:
  the page's main thing; not beside a gallery, a dated run of headlines, or a ``main``
  element that does not hold it.
"""

from __future__ import annotations

from pathlib import Path

from judged import judged
from readreceipt.reading.listings import Listings
from readreceipt.reading.placement import subtree_ends, tree
from readreceipt.reading.signin import sign_in_boxes
from work import grows_linearly

PAGES = Path(__file__).parent / "pages"

_FORM = ("<form action='/account/login' method='post'><input type='email' name='email'>"
         "<input type='password' name='password'><button>Log in</button></form>")


def _listings(html: str) -> tuple[Listings, list[int], int]:
    page = tree(html)
    assert page is not None
    form = next(i for i, n in enumerate(page.elements) if n.tag == "form")
    return Listings.of(page), subtree_ends(page.elements), form


def _tiles(n: int, price: str = "£24.50", picture: bool = True) -> str:
    img = "<img src='/p.jpg' alt=''>" if picture else ""
    return "".join(f"<div class='tile'><a href='/p/{i}'>{img}</a><a href='/p/{i}'>Kit number "
                   f"{i}</a><span>{price}</span></div>" for i in range(n))


def test_four_tiles_of_a_picture_a_link_and_a_price_are_a_gallery() -> None:
    listings, end, form = _listings(f"<html><body>{_FORM}<div>{_tiles(4)}</div></body></html>")
    assert listings.gallery_outside(end, form)


def test_three_tiles_or_tiles_without_a_picture_or_a_figure_are_not() -> None:
    for inner in (_tiles(3), _tiles(6, picture=False), _tiles(6, price="sold out")):
        listings, end, form = _listings(f"<html><body>{_FORM}<div>{inner}</div></body></html>")
        assert not listings.gallery_outside(end, form), inner[:80]


def test_a_gallery_in_the_navigation_or_inside_the_box_does_not_count() -> None:
    listings, end, form = _listings(
        f"<html><body><nav><div>{_tiles(5)}</div></nav>{_FORM}</body></html>")
    assert not listings.gallery_outside(end, form)
    listings, end, box = _listings(
        f"<html><body><form><div>{_tiles(5)}</div><input type='password'></form></body></html>")
    assert not listings.gallery_outside(end, box)


def test_a_mega_menu_named_navigation_is_not_a_gallery_even_as_the_layouts_wrapper() -> None:
    menu = f"<div class='nav-wrapper'><div>{_tiles(6)}</div></div>"
    listings, end, form = _listings(f"<html><body>{menu}{_FORM}</body></html>")
    assert not listings.gallery_outside(end, form)


def test_headlines_with_dated_stamps_are_a_dated_run_a_menu_with_counts_is_not() -> None:
    items = "".join(f"<div><a href='/n/{i}'>Headline {i}</a> <span>Yesterday, 1{i}:02</span>"
                    "</div>" for i in range(4))
    listings, end, form = _listings(f"<html><body>{_FORM}<div>{items}</div></body></html>")
    assert listings.run_outside(end, form)
    menu = "".join(f"<li><a href='/c/{i}'>Category {i}</a> ({i}2)</li>" for i in range(8))
    listings, end, form = _listings(f"<html><body>{_FORM}<ul>{menu}</ul></body></html>")
    assert not listings.run_outside(end, form)


def _place(html: str) -> str:
    page = tree(html)
    assert page is not None
    boxes = sign_in_boxes(page, "")
    assert len(boxes) == 1
    return boxes[0].place


def test_a_box_in_a_container_a_script_opens_is_a_dialog() -> None:
    for opener in ("modalWindow", "ty-dropdown-box", "siteDrawer", "js-login-overlay",
                   "popup-login", "d-none"):
        html = (f"<html><body><main><p>{'Text of the page. ' * 30}</p></main>"
                f"<div class='{opener}'>{_FORM}</div></body></html>")
        assert _place(html) == "dialog", opener


def test_a_word_that_only_contains_an_openers_name_does_not_make_one() -> None:
    html = (f"<html><body><main><p>{'Text of the page. ' * 30}</p></main>"
            f"<div class='popupcorn modality'>{_FORM}</div></body></html>")
    assert _place(html) != "dialog"


def test_the_body_marked_modal_open_is_not_a_dialog_around_everything() -> None:
    help_text = "<p>" + "Use the address you gave when you ordered. " * 12 + "</p>"
    html = (f"<html><body class='modal-open'><div><h1>Log in</h1>{_FORM}{help_text}</div>"
            "</body></html>")
    assert _place(html) != "dialog"


def test_product_page_captured_with_its_sign_in_drawer_open_stays_clean() -> None:
    html = (PAGES / "hard_negative" / "product_page_sign_in_drawer_open.html").read_text()
    assert judged(html) is None
    # The same page, the drawer's name taken away: the box is the page's main thing.
    got = judged(html.replace("siteDrawer accountDrawer", "account").replace(
        "drawerInner", "inner"))
    assert got is not None and got[0] == "wall:login"


def test_shop_home_with_a_product_grid_beside_its_login_column_stays_clean() -> None:
    html = (PAGES / "hard_negative" / "shop_home_product_tiles_beside_login_column.html")
    assert judged(html.read_text()) is None


def test_shop_sign_in_page_in_a_sidebar_cell_among_its_menus_is_a_wall() -> None:
    html = (PAGES / "login" / "shop_sign_in_in_sidebar_cell_among_menus.html").read_text()
    got = judged(html)
    assert got is not None and got[0] == "wall:login", got


def test_the_same_column_beside_a_main_element_with_the_pages_text_is_not() -> None:
    html = (PAGES / "login" / "shop_sign_in_in_sidebar_cell_among_menus.html").read_text()
    article = "<main><p>" + "A note on track gauges for beginners, short. " * 8 + "</p></main>"
    assert judged(html.replace("<div class=\"bottom-links\">", article +
                               "<div class=\"bottom-links\">")) is None


def test_the_same_column_beside_a_run_of_dated_headlines_is_not() -> None:
    html = (PAGES / "login" / "shop_sign_in_in_sidebar_cell_among_menus.html").read_text()
    news = "".join(f"<div><a href='/news/{i}'>Show report number {i}</a> <span>March {i + 2}, "
                   "2025</span></div>" for i in range(4))
    assert judged(html.replace("<div class=\"bottom-links\">", f"<div>{news}</div>"
                               "<div class=\"bottom-links\">")) is None


def _nested(depth: int) -> str:
    return ("<html><body>" + "<div class='modal'>" * depth + _FORM + "</div>" * depth
            + _tiles(depth) + "</body></html>")


def test_openers_and_galleries_are_found_in_linear_work() -> None:
    def run(html: str) -> object:
        page = tree(html)
        assert page is not None
        return sign_in_boxes(page, "")

    grows_linearly(_nested, run, 300)


def test_the_same_column_on_a_page_with_the_sites_sign_in_in_its_navigation_is_not() -> None:
    html = (PAGES / "login" / "shop_sign_in_in_sidebar_cell_among_menus.html").read_text()
    widget = ("<nav><form action='/login'><input name='username'><input type='password' "
              "name='pw'><button>Go</button></form><a href='/a'>Shop</a> <a href='/b'>Help</a>"
              "</nav>")
    assert judged(html.replace("<body>", "<body>" + widget)) is None


def _federated(links: str, text: str = "") -> str:
    return (f"<html><head><title>Bookish</title></head><body><header><a href='/'>Bookish</a>"
            f"</header><div class='auth'><h1>Welcome back</h1>{links}"
            f"<a href='/user/sign_up'>Join</a></div>{text}</body></html>")


def _broker(provider: str) -> str:
    return (f"<a href='https://www.bookish.test/ap/signin?identityProvider={provider}&amp;"
            "openid.mode=checkid_setup&amp;openid.ns=http%3A%2F%2Fspecs.openid.net%2Fauth"
            f"%2F2.0'><button>{provider}</button></a>")


def test_openid_requests_to_several_providers_through_one_broker_are_a_sign_in_page() -> None:
    got = judged(_federated(_broker("APPLE") + _broker("GOOGLE") + _broker("AMAZON")))
    assert got is not None and got[0] == "wall:login", got
    assert "OpenID/OAuth" in got[1]


def test_oauth_authorization_requests_to_two_hosts_are_providers() -> None:
    links = "".join(f"<a href='https://id.{h}.test/authorize?response_type=code&amp;client_id=x"
                    f"&amp;redirect_uri=y'>{h}</a>" for h in ("north", "south"))
    got = judged(_federated(links))
    assert got is not None and got[0] == "wall:login", got


def test_one_broker_link_without_a_provider_named_is_one_provider_only() -> None:
    got = judged(_federated(_broker("").replace("identityProvider=&amp;", "")))
    assert got is None or got[0] != "wall:login", got  # a thin page, not a sign-in wall


def test_an_article_with_sign_in_requests_to_comment_stays_clean() -> None:
    article = "<article><h1>Harbour reopens</h1>" + "<p>" + \
        "The harbour reopened after a winter of repairs. " * 10 + "</p>" * 3 + "</article>"
    page = _federated(_broker("APPLE") + _broker("GOOGLE")).replace(
        "<div class='auth'>", article + "<div class='auth'>").replace("Welcome back",
                                                                       "Sign in to comment")
    assert judged(page) is None


def test_a_password_field_whose_indented_attributes_run_long_is_still_read() -> None:
    pad = "\n" + " " * 600
    html = ("<html><head><title>Northwind</title></head><body><h1>Northwind members</h1>"
            "<form action='/x'>"
            f"<input name='email'><input aria-label='Password'{pad}type='password' name='pw'>"
            "<button>Log in</button></form></body></html>")
    got = judged(html)
    assert got is not None and got[0] == "wall:login", got
