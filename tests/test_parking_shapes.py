"""Sale pages by their shape (reading/parking.py): a shop's listing framed on a parked domain,
a broker's lander titled with its domain, a template that writes the host it is served at.

Each shape has the page it must name and, beside it, the clean pages that share part of it:
a site-information service's own list of sites, a CDN's list of files, a blog's list of
websites; a news brief about a broker, a small business titled with its domain and carrying
its registrar's badge, a page naming a broker only in prose; a page that reads its host for
its analytics, and an application whose empty heading its script fills with something else.
"""

from __future__ import annotations

from readreceipt.reading.extract import extract
from readreceipt.reading.facts import PageView
from readreceipt.reading.fingerprint import judge_content
from readreceipt.reading.parking import MIN_LISTED


def _reason(html: str, url: str = "https://quietbay.example/") -> str:
    ex = extract(html.encode(), "text/html", None)
    view = PageView(url, url, 200, {}, "text/html", ex.html, ex.main_text, ex.page_text,
                    len(html))
    signal = judge_content(view)
    return "ok" if signal is None else signal.reason


def _rule(html: str, url: str = "https://quietbay.example/") -> str:
    ex = extract(html.encode(), "text/html", None)
    view = PageView(url, url, 200, {}, "text/html", ex.html, ex.main_text, ex.page_text,
                    len(html))
    signal = judge_content(view)
    return "" if signal is None else signal.rule


def _page(title: str, body: str, head: str = "") -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}"
            f"</head><body>{body}</body></html>")


_NAMES = ["kwiaty", "rowery", "herbata", "zegarki", "meble", "opony", "perfumy", "kawa",
          "buty", "lampy", "dywany", "rybki", "sery", "wino"]
_INTRO = ("<p>Kup domenę i zbuduj swoją wizytówkę w Internecie. Wszystkie domeny z tej listy "
          "są dostępne od ręki, a transfer przeprowadzamy w ciągu jednego dnia roboczego.</p>")


def _listing(host: str, names: list[str], suffix: str = ".pl") -> str:
    rows = "".join(f'<tr><td><a href="https://{host}/{n}{suffix}">{n}{suffix}</a></td>'
                   f'<td><a href="https://{host}/{n}{suffix}">Kup teraz</a></td></tr>'
                   for n in names)
    return _page("Sklep z domenami - profil sprzedawcy",
                 f"<h1>Domeny na sprzedaż</h1>{_INTRO}<table>{rows}</table>")


def test_a_shops_listing_framed_on_a_parked_domain_is_parked() -> None:
    page = _listing("sklep.domenowo.example", _NAMES[:MIN_LISTED])
    assert _reason(page) == "parked"
    assert _rule(page).startswith("structure:links offering")


def test_fewer_names_than_a_listing_are_not_one() -> None:
    page = _listing("sklep.domenowo.example", _NAMES[: MIN_LISTED - 1])
    assert _reason(page) != "parked"


def test_a_site_information_services_own_list_of_sites_is_clean() -> None:
    page = _listing("siteinfo.example", _NAMES[:MIN_LISTED], ".com")
    assert _reason(page, "https://www.siteinfo.example/similar/kwiaty.com") != "parked"
    # Its saved copy, judged where its address is unknown, says where it lives in its head.
    head = '<link rel="canonical" href="https://siteinfo.example/similar/kwiaty.com">'
    saved = page.replace("</title>", "</title>" + head)
    assert _reason(saved, "https://archive.example/copy/1") != "parked"


def test_a_cdns_list_of_files_is_clean() -> None:
    files = ["jquery.min.js", "bootstrap.css", "lodash.js", "d3.min.js", "chart.js",
             "vue.global.js", "react.js", "axios.min.js", "moment.js", "three.module.js",
             "popper.min.js", "gsap.js"]
    rows = "".join(f'<li><a href="https://cdn.libs.example/{f}">{f}</a></li>' for f in files)
    page = _page("Popular libraries", f"<h1>Popular libraries</h1>{_INTRO}<ul>{rows}</ul>")
    assert _reason(page) != "parked"


def test_a_blogs_list_of_websites_is_clean() -> None:
    rows = "".join(f'<li><a href="https://{n}.example/">{n}.example</a></li>'
                   for n in _NAMES[:12])
    page = _page("Strony, które lubię", f"<h1>Strony, które lubię</h1>{_INTRO}<ul>{rows}</ul>")
    assert _reason(page) != "parked"


_LANDER = _page("QUIETBAY.COM - For Sale", """
<div class="hero"><h1>QUIETBAY.COM</h1><p>Interested in this name? Make an offer and our
domain experts will get back to you within one business day.</p>
<form method="post" action="?/offer"><input name="email" type="email"><input name="price">
<button>Make an offer</button></form></div>
<script>fetch('https://market.saw.com/api/landing/public/visits', {method: 'POST'});</script>
""")


def test_a_brokers_lander_titled_with_its_domain_is_parked() -> None:
    assert _reason(_LANDER) == "parked"
    assert _rule(_LANDER).startswith("vendor:the broker saw.com's address")


def test_a_brokers_name_in_prose_is_no_address() -> None:
    prose = _LANDER.replace("https://market.saw.com/api/landing/public/visits", "/visits")
    prose = prose.replace("</form>", "</form><p>Brokered by Saw.com.</p>")
    assert _reason(prose) != "parked"


def test_a_news_brief_about_a_broker_is_clean() -> None:
    page = _page("Sedo.com reports a record quarter", """
<h1>Sedo.com reports a record quarter</h1><p>The domain marketplace sold more names in the
third quarter than in any quarter before, it said on Tuesday, led by short .com names and
the new generic endings. The figures are on <a href="https://sedo.com/us/press/">its press
page</a>.</p>""")
    assert _reason(page, "https://sedo.com/us/press/record-quarter") != "parked"


def test_a_small_business_titled_with_its_domain_and_its_registrars_badge_is_clean() -> None:
    page = _page("joesplumbing.example", """
<h1>Joe's Plumbing</h1><p>Boilers, leaks and bathrooms in Leeds since 2004. Call us on
0113 000 0000 or drop by the workshop on Kirkstall Road, Monday to Saturday.</p>
<footer><a href="https://www.godaddy.com/websites/website-builder?isc=gdwb">Powered by
GoDaddy</a></footer>""")
    assert _reason(page, "https://joesplumbing.example/") != "parked"


_TEMPLATE = _page("Domain for sale", """
<div class="lang"><a href="index-ru.html">RU</a></div>
<main><div class="tag">For sale</div><h1 class="domain"></h1>
<p>Available now: send your offer.</p>
<button onclick="location.href='https://wa.example/send?t=' + location.hostname">WhatsApp
</button>
</main><script>document.querySelector('.domain').textContent = window.location.hostname;
</script>""")


def test_a_template_writing_the_host_into_its_empty_heading_is_parked() -> None:
    assert _reason(_TEMPLATE) == "parked"
    assert _rule(_TEMPLATE).startswith("structure:a script reads the address it is served at")


def test_a_page_reading_its_host_for_analytics_is_clean() -> None:
    page = _page("Opening hours", """
<h1>Opening hours</h1><p>Monday to Friday 9 to 5.</p>
<script>if (window.location.hostname !== 'localhost') { track('view'); }</script>""")
    assert _reason(page) != "parked"


def test_an_application_filling_its_empty_heading_otherwise_is_not_parked() -> None:
    page = _page("Dashboard", """
<main><h1 id="greeting"></h1><div id="app"></div></main>
<script src="/static/app.js"></script>""")
    assert _reason(page) != "parked"


def test_a_logo_heading_beside_a_script_that_only_reads_the_host_is_not_parked() -> None:
    page = _page("Loading", """
<header><h1 class="logo"></h1></header><div id="app"></div>
<script>var base = 'https://' + window.location.host + '/api/'; loadApp(base);</script>""")
    assert _reason(page) != "parked"
