"""Bare notices (reading/barenotice.py): a page that is one short notice, named by its word.

One notice, and beside it the same words on pages each guard keeps clean: a page with the
links of a site, one its publisher types as an article, one whose word stands in a sentence
of prose. Each guard has its page; without the guard, that page would be a notice.
"""

from __future__ import annotations

import re

import pytest

import regexsteps
from judged import judged
from readreceipt.reading.barenotice import (
    _LINK,
    MAX_LINE,
    MAX_LINKS,
    MAX_OPENING_LINE,
    STATUS_LINE,
    _pattern,
    notice_word,
)
from readreceipt.reading.tables.noticewords import NOTICE_SOURCES, NOTICE_WORDS


def _reason(html: str) -> str:
    """The verdict's reason; a short page that is no notice may still be thin text."""
    got = judged(html)
    return "ok" if got is None else got[0]


def _page(title: str, body: str, head: str = "") -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}"
            f"</head><body>{body}</body></html>")


_NOTICE = "<div><h1>Estamos en mantenimiento</h1><p>La tienda vuelve a abrir esta tarde.</p></div>"


def test_a_bare_notice_is_an_interstitial_named_by_its_word() -> None:
    got = judged(_page("Tienda", _NOTICE))
    assert got is not None
    assert got[0] == "wall:interstitial"
    assert got[1].startswith("wording:notice 'mantenimiento' (maintenance) on a bare page")


def _rule(html: str) -> str:
    got = judged(html)
    return "" if got is None else got[1]


def test_a_page_with_a_sites_links_is_not_a_bare_notice() -> None:
    # (Its notice heading over the short content still names it, by the chrome rule below.)
    links = "".join(f'<a href="/s{i}">Sección {i}</a> ' for i in range(MAX_LINKS + 1))
    assert "on a bare page" not in _rule(_page("Tienda", f"<div>{links}</div>{_NOTICE}"))
    fewer = "".join(f'<a href="/s{i}">Sección {i}</a> ' for i in range(MAX_LINKS))
    assert "on a bare page" in _rule(_page("Tienda", f"<div>{fewer}</div>{_NOTICE}"))


def test_a_page_typed_as_an_article_is_not_a_bare_notice() -> None:
    typed = '<meta property="og:type" content="article">'
    assert _reason(_page("Tienda", _NOTICE, typed)) != "wall:interstitial"


def test_a_notice_word_inside_a_line_of_prose_does_not_name_the_page() -> None:
    prose = ("Cada primavera el club revisa los barcos uno por uno; este año el mantenimiento "
             "de las velas y los cabos lo hacen los socios más jóvenes con el monitor.")
    assert len(prose) > MAX_LINE
    page = _page("Club náutico", f"<div><h1>Club náutico</h1><p>{prose}</p></div>")
    assert _reason(page) != "wall:interstitial"


def test_a_word_of_a_spaced_script_matches_only_from_a_words_start() -> None:
    # German compounds: "Aufzugswartung" (a firm's name) is not the notice word "Wartung".
    pattern = _pattern(NOTICE_WORDS["maintenance"])
    assert pattern.search("wartungsarbeiten") is not None
    assert pattern.search("aufzugswartung müller") is None
    assert pattern.search("システムメンテナンスのお知らせ") is not None  # unspaced: anywhere


@pytest.mark.parametrize("concept", sorted(NOTICE_WORDS))
def test_every_word_is_lower_case_and_names_its_source(concept: str) -> None:
    for language, word, source in NOTICE_WORDS[concept]:
        assert word == word.lower() and re.fullmatch(r"[a-z]{2}", language), word
        assert source in ("vocabulary", "written", *NOTICE_SOURCES), word


def test_every_named_source_is_cited_with_its_version_and_file() -> None:
    used = {source for words in NOTICE_WORDS.values() for _, _, source in words}
    assert set(NOTICE_SOURCES) <= used  # no source cited that no entry uses
    for citation in NOTICE_SOURCES.values():
        assert re.search(r"\d+\.\d+\.\d+|[0-9a-f]{40}", citation), citation
        assert "/" in citation and ("msgid" in citation or "bupdate" in citation)


@pytest.mark.parametrize(("line", "concept"), [
    ("konto ist deaktiviert.", "suspended"),  # Flask-Security's German message
    ("le compte est désactivé.", "suspended"),
    ("compte verrouillé: trop de tentatives de connexion.", "suspended"),  # django-axes
    ("учетная запись заблокирована: слишком много попыток входа.", "suspended"),
    ("your account has been banned for breaking the rules", "suspended"),
    ("sorry, your browser is not supported.", "unsupported"),
    ("browser aktualisieren", "unsupported"),  # browser-update's German button
])
def test_account_and_browser_notices_are_named(line: str, concept: str) -> None:
    found = notice_word([line])
    assert found is not None and found[0] == concept


def _volunteer_chrome(content: str) -> str:
    menu = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in
                   ("home", "projects", "shop", "about", "join"))
    footer = "".join(f'<a href="/{w}">{w.title()}</a> ' for w in ("privacy", "imprint", "contact"))
    return _page("Harbour | Suspended", f"<header><ul class='menu'>{menu}</ul></header>"
                 f"<section class='section'>{content}</section><footer>{footer}</footer>")


_SUSPENDED = ("<p>Your account has been suspended because it broke our rules. Write to the "
              "coordinators.</p>")


def test_a_notice_with_no_h1_in_the_sites_chrome_is_read_from_its_opening_lines() -> None:
    got = judged(_volunteer_chrome(f"<h3>Suspended</h3>{_SUSPENDED}"))
    assert got is not None and got[0] == "wall:interstitial"
    assert "in the opening lines of the short content" in got[1]


def test_a_short_page_under_its_own_heading_is_not_read_from_its_opening_lines() -> None:
    # The same sentence under the page's own h1 (a help page's "Our rules"): the heading
    # names the page, and it names no notice.
    assert "opening lines" not in _rule(_volunteer_chrome(f"<h1>Our rules</h1>{_SUSPENDED}"))


def test_a_long_opening_line_is_not_read() -> None:
    long = ("<p>" + "Your account has been suspended " + "and the rest of a long sentence " * 6
            + "</p>")
    assert len(long) > MAX_OPENING_LINE
    assert "opening lines" not in _rule(_volunteer_chrome(long))


def test_counting_links_reads_a_run_of_unclosed_openers_once() -> None:
    """A page of "<a " openers and no ">" (a title and nothing else, so the count runs): each
    attempt stops at the next opener, so the steps stay a small multiple of the length. The
    first version read up to 2,000 characters from every opener (20 s on 1.2 MB)."""
    text = "<a " * 3000
    assert regexsteps.steps(_LINK, text) < 20 * len(text)
    unbounded = re.compile(r"<a\b[^>]{0,2000}?\bhref\s*=")
    with pytest.raises(regexsteps.TooMuch):
        regexsteps.steps(unbounded, text, cap=20 * len(text))


_REFUSED = ("<div class='code'>403</div><h1>无访问权限</h1><p>很抱歉，您当前没有访问此系统的权限。"  # noqa: RUF001 - Chinese punctuation
            "如需访问，请联系系统管理员将您的IP地址添加到访问白名单中。</p>")  # noqa: RUF001


def test_a_status_code_alone_on_a_line_of_a_bare_page_names_it() -> None:
    got = judged(_page("无访问权限", _REFUSED))
    assert got is not None
    assert got[0] == "wall:challenge"
    assert got[1].startswith("structure:the status code 403 as a line of its own")
    gone = judged(_page("Wartung", "<div class='code'>503</div><p>Bitte später.</p>"))
    assert gone is not None and gone[0] == "wall:interstitial"


def test_a_status_code_beside_a_sites_links_or_in_a_line_of_text_names_nothing() -> None:
    links = "".join(f'<a href="/s{i}">Раздел {i}</a> ' for i in range(MAX_LINKS + 1))
    assert _reason(_page("无访问权限", f"<div>{links}</div>{_REFUSED}")) != "wall:challenge"
    # A room number or a price in a line of its own text is not a code alone on its line.
    room = _page("Seminar", "<h1>Seminar</h1><p>Room 403, second floor</p><p>Tuesday 10:00</p>")
    assert _reason(room) not in ("wall:challenge", "soft_404", "wall:interstitial")


@pytest.mark.parametrize(("code", "reason"), [
    ("400", "wall:interstitial"), ("501", "wall:interstitial"), ("520", "wall:interstitial"),
    ("429", "wall:challenge"),
])
def test_every_error_code_alone_on_a_line_of_a_bare_page_names_it(code: str, reason: str) -> None:
    # The multilingual nginx set of bench/devset5_labels.tsv writes the code in a block of
    # its own over one sentence of its language ("400 / Der Server konnte ...").
    got = judged(_page("HTTP", f"<div class='code'>{code}</div><p>Der Server antwortet nicht.</p>"))
    assert got is not None
    assert got[0] == reason
    assert got[1].startswith(f"structure:the status code {code} as a line of its own")


@pytest.mark.parametrize("number", ["401", "407", "450", "499", "599"])
def test_a_number_no_error_code_table_knows_names_nothing(number: str) -> None:
    # 401 and 407 ask for a sign-in (the sign-in rules judge the page); the rest are no
    # registered error codes: a three-digit count or price on a short page is no status.
    got = judged(_page("Kasse", f"<div class='n'>{number}</div><p>Der Server antwortet nicht.</p>"))
    assert got is None or not got[1].startswith("structure:the status code")


def _chrome(content: str, links: int = 10) -> str:
    menu = " ".join(f'<a href="/bereich{i}/">Bereich {i}</a>' for i in range(links))
    return _page("Übungssystem", f"<div id='kopf'><h1>Übungssystem</h1>{menu}</div>"
                 f"<div id='inhalt'>{content}</div><div id='fuss'>"
                 "<a href='/impressum/'>Impressum</a></div>")


_WARTUNG = "<h2>Wartungsarbeiten</h2><p>Das System steht heute nicht zur Verfügung.</p>"


def test_a_notice_heading_the_short_content_inside_a_sites_chrome_is_an_interstitial() -> None:
    got = judged(_chrome(_WARTUNG))
    assert got is not None
    assert got[0] == "wall:interstitial"
    assert got[1].startswith("wording:notice 'wartung' (maintenance) heading the short content")


def test_the_chrome_notice_needs_short_content_its_last_heading_and_few_headings() -> None:
    # A firm's own page on the maintenance it sells: a paragraph of its own under the heading.
    sold = ("<h2>Wartung</h2><p>" + "Wir prüfen Brenner, Abgaswerte und Druck und reinigen "
            "den Wärmetauscher; jede Messung steht im Protokoll. " * 3 + "</p>")
    assert _reason(_chrome(sold)) != "wall:interstitial"
    # A category named so, with a heading a post: its last heading is a post's.
    listing = ("<h2>Wartung</h2><h2><a href='/a/'>Kette prüfen</a></h2>"
               "<h2><a href='/b/'>Bremsen tauschen</a></h2>")
    assert _reason(_chrome(listing)) != "wall:interstitial"
    # Sections of a short page, the last one named so: more headings than a notice has.
    sections = ("<h2>Leistungen</h2><p>Heizung.</p><h2>Preise</h2><p>Auf Anfrage.</p>"
                "<h2>Wartung</h2><p>Jährlich.</p>")
    assert _reason(_chrome(sections)) != "wall:interstitial"
    # The word in the site's header only (the firm's name), the content a phone number.
    header = _page("Kontakt", "<header><h1>Wartung und Service Müller</h1><nav>"
                   + " ".join(f"<a href='/s{i}/'>Seite {i}</a>" for i in range(6))
                   + "</nav></header><main><h2>Kontakt</h2><p>Telefon 0123 456789.</p></main>")
    assert _reason(header) != "wall:interstitial"
    # A section of the site: its menu leads to a page named by the notice's word.
    section = _chrome(_WARTUNG).replace("Bereich 3</a>", "Wartung</a>")
    assert _reason(section) != "wall:interstitial"
    # Typed as an article by its publisher: a news brief, whatever its heading.
    typed = _chrome(_WARTUNG).replace(
        "</head>", '<meta property="og:type" content="article"></head>')
    assert _reason(typed) != "wall:interstitial"


def test_the_status_line_is_bounded_on_a_line_of_marks_and_digits() -> None:
    """The code's pattern is anchored and its runs of marks bounded: on a line of marks and
    digits of the longest length read (``MAX_LINE``), each start is tried once and fails
    after a few steps; a search from every position stays a small multiple of the length."""
    for line in ("!" * MAX_LINE, "5" * MAX_LINE, "!-5" * (MAX_LINE // 3)):
        assert STATUS_LINE.match(line) is None
        assert regexsteps.steps(STATUS_LINE, line) < 20 * len(line)

