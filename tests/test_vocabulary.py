"""Issue 21's wording from maintained vocabularies (reading/tables/vocabulary.py, notices.py,
terms.py): notices in languages no hand table covers are named by the maintained term, through
the whole capture on a real local server; pages that only *mention* those terms stay
RETRIEVED; the generated table is what bench/vocabulary.py writes, every entry with its
source and licence; and the terms are matched in linear work.

Every wall page here was judged otherwise by the code before the maintained terms (thin text,
a JavaScript shell, a clean page, or an error word, not the vendor's heading): the note of each
in tests/pages/LABELS.tsv says what.
"""

# ruff: noqa: RUF001 - the pages are written in their own alphabets

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import regexsteps
from conftest import LocalServer
from judged import judged
from readreceipt.reading.tables.terms import phrase_entry, title_alternation
from readreceipt.reading.tables.vocabulary import TERMS, terms
from servedpages import captured_page

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "readreceipt" / "reading" / "tables" / "vocabulary.py"

#: (page, verdict, reason, the kind of evidence the rule begins with; None when RETRIEVED)
CASES = (
    ("other_interstitial/ru_wordpress_maintenance_notice.html", "UNKNOWN",
     "wall:interstitial", "vendor"),
    ("other_interstitial/pl_allauth_account_inactive.html", "UNKNOWN", "wall:interstitial",
     "wording"),
    ("other_interstitial/ru_keycloak_account_disabled.html", "UNKNOWN", "wall:interstitial",
     "wording"),
    ("other_interstitial/tr_squid_proxy_error.html", "UNKNOWN", "wall:interstitial", "vendor"),
    ("challenge/es_apache_forbidden_sentence.html", "UNKNOWN", "wall:challenge", "wording"),
    ("other_interstitial/sv_host_503_apache_sentence.html", "UNKNOWN", "wall:interstitial",
     "wording"),
    ("soft_404/hu_django_admin_page_not_found.html", "UNKNOWN", "soft_404", "wording"),
    ("login/ru_keycloak_sign_in_heading_script_form.html", "UNKNOWN", "wall:login", "wording"),
    ("hard_negative/short_news_quotes_wordpress_maintenance_message.html", "RETRIEVED", "ok",
     None),
    ("hard_negative/help_article_sign_in_to_your_account_steps.html", "RETRIEVED", "ok", None),
    ("hard_negative/de_forum_post_mentions_wartungsmodus_and_login.html", "RETRIEVED", "ok",
     None),
)


@pytest.mark.parametrize(("page", "verdict", "reason", "kind"), CASES,
                         ids=[Path(c[0]).stem for c in CASES])
def test_a_served_notice_is_named_by_the_maintained_term(
        allow_server: LocalServer, library_dir: Path, page: str, verdict: str, reason: str,
        kind: str | None) -> None:
    record = captured_page(allow_server, library_dir, page)
    assert (record.verdict, record.reason) == (verdict, reason), record.rule
    if kind is not None:
        assert (record.rule or "").split(":", 1)[0] == kind, record.rule
        # named by a maintained term: the entry's name, or the term the page carried (the
        # rule quotes its first 80 characters)
        said = record.rule.split(" ", 1)[1].rsplit(" (in ", 1)[0]
        assert "(vocabulary)" in record.rule or any(t.term.startswith(said) for t in TERMS), \
            record.rule


def _judge(html: str) -> str:
    got = judged(html)
    return "ok" if got is None else f"{got[0]} {got[1]}"


def test_a_refusal_on_a_line_of_its_own_is_a_wall_but_not_in_a_sentence() -> None:
    """Squid's reason line ("Доступ запрещён.") stands alone; the same words inside a
    sentence of a short news item are news."""
    notice = ("<html><head><title>Сервер</title></head><body><div><p><b>Доступ запрещён.</b>"
              "</p><p>Настройки контроля доступа не позволяют выполнить ваш запрос. Обратитесь"
              " к администратору сети, если считаете, что это ошибка.</p></div></body></html>")
    news = ("<html><head><title>Новости района</title></head><body><article><h1>Суд по делу"
            " о парковке</h1><p>Журналистам доступ запрещён не был: заседание прошло открыто, "
            "решение объявят в пятницу. Жители двора ждут его уже второй год.</p><p>Управа "
            "обещала до решения суда не ставить шлагбаум и оставить проезд свободным для "
            "машин скорой помощи и пожарных.</p></article></body></html>")
    assert _judge(notice).startswith("wall:challenge wording:label доступ запрещён")
    assert _judge(news) == "ok"


def test_the_table_is_what_the_generator_writes_from_its_rows() -> None:
    """No hand edit: rendering the table's own rows again gives the file byte for byte (the
    readers themselves need the sources: bench/vocabulary.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import vocabulary
    import vocabulary_sources

    rows = [vocabulary_sources.Row(*t) for t in TERMS]
    assert vocabulary.collect(rows) == rows
    assert vocabulary.render(rows) == TABLE.read_text(encoding="utf-8")


_SOURCE = re.compile(r"^(Laravel-Lang/lang@[0-9a-f]{12}|apache/httpd@[0-9a-f]{12}|Django \d|"
                     r"django-allauth \d|keycloakify \d|wordpress-l10n \d|mediawiki 1:\d|"
                     r"squid-langpack \d)\S* \S+.*\S$")
_LICENCES = {"MIT", "Apache-2.0", "BSD-3-Clause", "GPL-2.0-or-later",
             "MIT (Keycloak's messages: Apache-2.0)"}


def test_every_term_names_its_source_version_path_key_and_licence() -> None:
    assert len(TERMS) > 900
    for t in TERMS:
        assert _SOURCE.match(t.source), t
        assert t.licence in _LICENCES, t
        assert t.term == " ".join(t.term.split()) == t.term.lower(), t
        assert "<" not in t.term and "$1" not in t.term, t


@pytest.mark.parametrize("concept", ["proxy_error", "access_denied", "maintenance_notice",
                                     "suspended", "suspended_text", "not_found_text",
                                     "sign_in_required", "sign_in_heading",
                                     "unavailable_text", "forbidden_text"])
def test_each_new_concept_is_in_many_of_the_webs_languages(concept: str) -> None:
    languages = {t.language.split("-")[0] for t in TERMS if t.concept == concept}
    assert len(languages) >= 17, (concept, sorted(languages))
    assert "en" in languages


def test_a_template_sentence_is_matched_in_linear_steps() -> None:
    """The longest sentence of a concept, cut before its last word and repeated, is the
    alternation's worst text: twice the text, at most a little more than twice the steps."""
    pattern = re.compile(phrase_entry("interstitial", "suspended_text", "x").expr)
    near = terms("suspended_text")[0].rsplit(" ", 1)[0] + " "
    small = regexsteps.steps(pattern, near * 20)
    large = regexsteps.steps(pattern, near * 40, cap=int(2.5 * small) + 64)
    assert large <= 2.5 * small + 64
    assert re.search(title_alternation("suspended_text"), terms("suspended_text")[0])
