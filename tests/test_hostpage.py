"""A hosting company's page in place of a site (reading/hostpage.py): read from its links.

The pages it must name: a host's default page for a domain with no files yet (parked) and a
host's page for a suspended account with the host's own menu (an interstitial). Beside them,
the clean pages that share part of the shape, each kept clean by one of the rule's guards: a
firm's one-page site linking to its social profiles, a link-in-bio page, a small business's
page on a site builder, a moved site's notice, a page in a cloud bucket linking to its
owner's shop, a project page on a code host, a short page whose own links are absolute.
"""

from __future__ import annotations

import pytest

import regexsteps
from readreceipt.reading.extract import extract
from readreceipt.reading.facts import PageView
from readreceipt.reading.fingerprint import judge_content
from readreceipt.reading.hostpage import _LINK, MIN_LINKS, name_of


def _judged(html: str, url: str = "https://www.gartenbau-linde.example/") -> tuple[str, str] | None:
    ex = extract(html.encode(), "text/html", None)
    view = PageView(url, url, 200, {}, "text/html", ex.html, ex.main_text, ex.page_text,
                    len(html))
    signal = judge_content(view)
    return None if signal is None else (signal.reason, signal.rule)


def _reason(html: str, url: str = "https://www.gartenbau-linde.example/") -> str:
    got = _judged(html, url)
    return "ok" if got is None else got[0]


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body>{body}</body></html>")


_HOST = "https://www.nordwebhost.example"
_DEFAULT = _page("Domain noch ohne Inhalt", f"""
<div class="box"><a href="{_HOST}/"><img src="{_HOST}/logo.svg" alt="NordWebHost"></a>
<h1>Hier entsteht eine neue Internetpräsenz</h1>
<p>Diese Domain ist bei uns eingerichtet, es wurden aber noch keine Dateien hochgeladen.
Laden Sie Ihre Website per FTP in das Verzeichnis <code>htdocs</code> hoch oder installieren
Sie WordPress mit einem Klick im Kundenbereich.</p>
<p><a href="https://kunden.nordwebhost.example/login">Kundenbereich</a> ·
<a href="{_HOST}/hilfe/ftp-zugang">Anleitung: FTP-Zugang</a> ·
<a href="{_HOST}/kontakt">Kontakt</a></p>
<p class="small">© NordWebHost GmbH</p></div>""")

_MENU = "".join(f'<li><a href="{_HOST}/{p}">{t}</a></li>' for p, t in (
    ("webhosting", "Webhosting"), ("domains", "Domains"), ("server", "Server"),
    ("ssl", "SSL-Zertifikate"), ("preise", "Preise"), ("agb", "AGB"),
    ("datenschutz", "Datenschutz"), ("impressum", "Impressum")))
_SUSPENDED = _page("Website vorübergehend gesperrt", f"""
<header><a href="{_HOST}/">NordWebHost</a><ul>{_MENU}</ul></header>
<main><h1>Diese Website wurde deaktiviert</h1>
<p>Der Vertrag für dieses Hosting-Paket ist ausgelaufen oder die Rechnung ist offen. Als
Inhaber melden Sie sich bitte im Kundenbereich an oder schreiben Sie unserem Support.</p>
<p><a href="https://kunden.nordwebhost.example/">Kundenbereich</a> ·
<a href="mailto:support@nordwebhost.example">support@nordwebhost.example</a></p></main>""")


def test_a_hosts_default_page_is_parked_by_its_links() -> None:
    got = _judged(_DEFAULT)
    assert got is not None
    assert got[0] == "parked"
    assert got[1].startswith("structure:") and "a host's page in place of the site" in got[1]


def test_a_hosts_suspension_page_with_its_menu_is_an_interstitial() -> None:
    got = _judged(_SUSPENDED)
    assert got is not None
    assert got[0] == "wall:interstitial"
    assert got[1].startswith("structure:") and "'wurde deaktiviert'" in got[1]


def test_one_link_to_the_site_itself_keeps_the_page_clean() -> None:
    own = _DEFAULT.replace("</div></body>",
                           '<a href="/impressum">Impressum</a></div></body>')
    assert _reason(own) != "parked"
    absolute = _DEFAULT.replace(
        "</div></body>", '<a href="https://gartenbau-linde.example/impressum">Impressum</a>'
        "</div></body>")
    assert _reason(absolute) != "parked"


def test_a_page_declaring_its_own_address_there_is_the_sites_own() -> None:
    """A site's short page whose links are all absolute (to www. of its own name), judged
    where its address is not known (a saved copy): its head says where it lives."""
    head = '<link rel="canonical" href="https://www.nordwebhost.example/hilfe/ftp">'
    page = _DEFAULT.replace("</title>", "</title>" + head)
    assert _reason(page, "https://copy.archive.example/1") != "parked"
    assert _reason(_DEFAULT, "https://copy.archive.example/1") == "parked"


def test_a_one_page_site_linking_to_its_social_profiles_is_clean() -> None:
    page = _page("Gartenbau Linde: Garten- und Landschaftsbau", """
<div><h1>Gartenbau Linde</h1><p>Wir planen und pflegen Gärten in Lüneburg und Umgebung:
Rasen, Hecken, Pflaster und Teiche. Rufen Sie uns an, wir kommen zur Besichtigung.</p>
<p>Tel. 04131 000000</p>
<p><a href="https://www.facebook.com/gartenbaulinde">Facebook</a>
<a href="https://www.instagram.com/gartenbaulinde/">Instagram</a>
<a href="https://www.linkedin.com/company/gartenbau-linde">LinkedIn</a>
<a href="https://www.youtube.com/@gartenbaulinde">YouTube</a></p></div>""")
    assert _reason(page) != "parked"


def test_a_link_in_bio_page_is_clean() -> None:
    links = "".join(f'<a class="btn" href="{u}">{t}</a>' for u, t in (
        ("https://open.spotify.com/artist/4x", "New single on Spotify"),
        ("https://music.apple.com/artist/mira", "Apple Music"),
        ("https://www.youtube.com/watch?v=abc", "Video: live at the Roundhouse"),
        ("https://www.bandsintown.com/a/mira", "Tour dates"),
        ("https://shop.miramusic.example/", "Merch"),
        ("https://linkbio.example/", "Make your own page"),
        ("https://linkbio.example/report", "Report")))
    page = _page("Mira | linkbio", f"<div><h1>Mira</h1><p>Singer, songwriter.</p>{links}</div>")
    assert _reason(page, "https://linkbio.example/mira") != "parked"
    assert _reason(page, "https://mira.example/") != "parked"


def test_a_small_business_page_on_a_site_builder_is_clean() -> None:
    page = _page("Bäckerei Sonnenkorn", """
<div><h1>Bäckerei Sonnenkorn</h1><p>Brot aus eigenem Sauerteig, Brötchen ab sechs Uhr,
sonntags Kuchen. Mittwochs Ruhetag.</p>
<p><a href="mailto:info@sonnenkorn.example">info@sonnenkorn.example</a></p>
<footer><a href="https://www.sitebaukasten.example/">Erstellt mit Sitebaukasten</a> ·
<a href="https://www.sitebaukasten.example/signup">Eigene Website erstellen</a> ·
<a href="https://www.sitebaukasten.example/abuse">Missbrauch melden</a></footer></div>""")
    assert _reason(page, "https://sonnenkorn.example/") != "parked"


def test_a_moved_sites_notice_is_clean() -> None:
    new = "https://www.kanzlei-berger.example/"
    page = _page("Wir sind umgezogen", f"""
<div><a href="{new}"><img src="logo.png" alt="Kanzlei Berger"></a><h1>Neue Adresse</h1>
<p>Unsere Website ist jetzt unter <a href="{new}">www.kanzlei-berger.example</a> zu finden.
Bitte ändern Sie Ihre Lesezeichen.</p><p><a href="{new}">Weiter zur neuen Website</a></p>
</div>""")
    assert _reason(page, "https://berger-anwaelte.example/") != "parked"


_SHOP = "https://www.kaffeerösterei.example"
_LANDING = _page("Herbstaktion", f"""
<div><a href="{_SHOP}/"><img src="hero.jpg" alt="Rösterei"></a><h1>Herbstmischung</h1>
<p>Unsere Herbstmischung ist da: kräftig, mit Noten von Haselnuss.</p>
<p><a href="{_SHOP}/herbst">Jetzt bestellen</a> · <a href="{_SHOP}/kontakt">Kontakt</a> ·
<a href="{_SHOP}/impressum">Impressum</a></p></div>""")


def test_a_page_in_a_cloud_bucket_linking_to_its_owners_shop_is_clean() -> None:
    assert _reason(_LANDING, "https://promo-2024.s3.eu-central-1.amazonaws.com/herbst.html") \
        != "parked"
    # The same page on a host of its own would be the shop's template there.
    assert _reason(_LANDING, "https://herbst-aktion.example/") == "parked"


def test_a_project_page_on_a_code_host_is_clean() -> None:
    page = _page("tinyqueue", """
<div><h1>tinyqueue</h1><p>The smallest and simplest binary heap priority queue.</p>
<a href="https://github.com/mira/tinyqueue">View on GitHub</a>
<a href="https://github.com/mira/tinyqueue/zipball/main">Download .zip</a>
<a href="https://github.com/mira/tinyqueue/tarball/main">Download .tar.gz</a>
<p>This page was generated by <a href="https://pages.github.com">GitHub Pages</a>.</p>
<a href="https://github.com/">GitHub</a></div>""")
    assert _reason(page, "https://mira.github.io/tinyqueue/") != "parked"


def test_names_without_their_suffix() -> None:
    assert name_of("www.hostinger.fr") == name_of("cpanel.hostinger.com") == "hostinger"
    assert name_of("domeny.az.pl") == name_of("az0088.srv.az.pl:2083") == "az"
    assert name_of("shop.example.co.uk") == "example"
    assert name_of("user.github.io") == "github"
    assert name_of("127.0.0.1") == "127.0.0.1"
    assert name_of("panel.hosting.example") == "hosting"


def test_too_few_links_are_no_host_page() -> None:
    few = "".join(f'<a href="{_HOST}/{p}">x</a>' for p in ("", "a")[: MIN_LINKS - 1])
    page = _page("Neue Website", f"<div><h1>Neue Website</h1><p>Bald mehr.</p>{few}</div>")
    assert _reason(page) != "parked"


@pytest.mark.parametrize("opener", ["<a ", "<form ", "<area "])
def test_the_link_pattern_is_linear_on_unclosed_openers(opener: str) -> None:
    text = (opener + "x" * 30) * 300
    assert regexsteps.steps(_LINK, text) < 40 * len(text)


def test_a_sign_in_page_whose_links_are_all_absolute_is_not_a_host_page() -> None:
    form = ('<form action="https://www.nordwebhost.example/login" method="post">'
            '<input name="user"><input type="password" name="pw"><button>Anmelden</button>'
            "</form>")
    page = _DEFAULT.replace("</div></body>", form + "</div></body>")
    assert _reason(page) != "parked"
