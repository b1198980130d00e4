"""The wall table against the evidence corpus (../shared/corpus), and the table's own rules.

Every labelled page in ``walls/`` and ``walls2/`` must get its expected reason, and every one
of the 181 articles must get none. The corpus is read by path; these tests skip when it is
absent. The synthetic pages of ``tests/pages`` (written here, in this project's own words,
for the failures seen on pages outside the corpus: chrome phrases beside full articles, a
header sign-in widget, templates beside chrome, a registration wall, not-found pages inside
full navigation) are held to the same expectations and never skip. Pages go through the real
extraction, as in the pipeline.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from pathlib import Path

import pytest

from conftest import CORPUS
from readreceipt.reading import errorpages, notfound
from readreceipt.reading.extract import extract
from readreceipt.reading.fingerprint import GATES, PageView, judge_content
from readreceipt.reading.tables import walls

WALLS_DIR = CORPUS / "walls"
WALL_DIRS = (CORPUS / "walls", CORPUS / "walls2")
SYNTHETIC_DIR = Path(__file__).resolve().parent / "pages"
ARTICLES_DIR = CORPUS / "articles" / "html"

EXPECTED: dict[str, str | None] = {
    "challenge": "wall:challenge",
    "login": "wall:login",
    "consent": "wall:consent",
    "paywall": "wall:paywall",
    "other_interstitial": "wall:interstitial",
    "js_shell": "js_shell",
    "soft_404": "soft_404",
    "parked": "parked",
    "article_about_walls": None,
    "hard_negative": None,
}

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="evidence corpus not present")


def _labelled(folders: tuple[Path, ...] = WALL_DIRS) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for folder in folders:
        labels = folder / "LABELS.tsv"
        if not labels.is_file():
            continue
        with labels.open(encoding="utf-8", newline="") as fh:
            rows += [(str(folder / row["file"]), row["label"])
                     for row in csv.DictReader(fh, delimiter="\t")]
    return rows


def _articles() -> list[str]:
    return sorted(p.name for p in ARTICLES_DIR.glob("*.html.gz")) if ARTICLES_DIR.is_dir() else []


def corpus_view(path: Path, body: bytes) -> PageView:
    """The page as the local bench server would serve it (status and headers from .meta.json)."""
    status, headers = 200, {"content-type": "text/html"}
    meta = path.with_name(path.name + ".meta.json")
    if meta.is_file():
        data = json.loads(meta.read_text(encoding="utf-8"))
        status = int(data.get("status", 200))
        headers = {k.lower(): str(v) for k, v in data.get("headers", {}).items()}
    ex = extract(body, "text/html", None)
    return PageView(url="http://127.0.0.1/p", final_url="http://127.0.0.1/p", status=status,
                    headers=headers, content_type="text/html", html=ex.html,
                    main_text=ex.main_text, page_text=ex.page_text, body_bytes=len(body))


@needs_corpus
def test_the_corpus_is_what_the_readme_says() -> None:
    rows = _labelled()
    assert len(rows) >= 50 + 48
    # Every corpus label is one the tests know (parked pages are synthetic only).
    assert {label for _, label in rows} == set(EXPECTED) - {"parked"}
    assert len(_articles()) == 181


@needs_corpus
@pytest.mark.parametrize(("name", "label"), _labelled(), ids=lambda v: Path(v).name)
def test_every_labelled_page_gets_its_expected_reason(name: str, label: str) -> None:
    _expect(Path(name), label)


@pytest.mark.parametrize(("name", "label"), _labelled((SYNTHETIC_DIR,)),
                         ids=lambda v: Path(v).name)
def test_every_synthetic_page_gets_its_expected_reason(name: str, label: str) -> None:
    _expect(Path(name), label)


def test_the_synthetic_pages_are_there() -> None:
    assert len(_labelled((SYNTHETIC_DIR,))) >= 9


def _expect(path: Path, label: str) -> None:
    signal = judge_content(corpus_view(path, path.read_bytes()))
    got = signal.reason if signal is not None else None
    assert got == EXPECTED[label], f"{path.name}: {signal}"
    if signal is not None:
        assert signal.rule and signal.detail


@needs_corpus
@pytest.mark.parametrize("name", _articles())
def test_no_article_is_called_anything(name: str) -> None:
    path = ARTICLES_DIR / name
    signal = judge_content(corpus_view(path, gzip.decompress(path.read_bytes())))
    assert signal is None, f"{name}: {signal}"


# --- the table itself ---------------------------------------------------------------------

ALL_ENTRIES = (walls.WALLS + notfound.SOFT_404 + notfound.NO_RESULTS + notfound.PARKED
               + errorpages.ERROR_PAGE)
KINDS = {"challenge", "login", "consent", "paywall", "interstitial", "soft_404", "parked"}


@pytest.mark.parametrize("entry", ALL_ENTRIES, ids=lambda e: f"{e.kind}:{e.name}")
def test_every_entry_is_well_formed(entry: walls.Entry) -> None:
    assert entry.kind in KINDS
    assert entry.where in {"title", "heading", "text", "label", "markup", "tail"}
    assert entry.gate in (*GATES, "tail")
    assert (entry.where == "tail") == (entry.gate == "tail")
    assert entry.ev, "every entry says where it was seen"
    # Patterns meet folded (lower-case) text: an upper-case letter outside an escape such as
    # \d or \D could never match.
    assert not re.search(r"(?<!\\)[A-Z]", entry.expr), entry.expr
    if not entry.literal:
        compiled = re.compile(entry.expr)
        assert not compiled.match(""), "a pattern that matches nothing would fire everywhere"
    if entry.anchor is not None:
        assert not entry.literal and entry.anchor in entry.expr.replace("\\", "")


def test_entries_that_ordinary_pages_also_carry_need_an_empty_or_bare_page() -> None:
    # Vendor scripts seen on full pages in the corpus (hard_negative/jstor_*, osthessen_*)
    # and captcha widgets under comment forms must never be enough on a page with text.
    weak = {"_pxappid", "/cdn-cgi/challenge-platform/", "js.datadome.co", "_incapsula_resource",
            "g-recaptcha", "h-captcha", "cf-turnstile"}
    gates = {e.expr: e.gate for e in walls.WALLS if e.literal}
    assert {gates[m] for m in weak} <= {"empty", "bare"}


def test_headers_and_vendor_hints_are_lower_case() -> None:
    for rule in walls.HEADER_RULES:
        assert rule.header == rule.header.lower() and rule.value == rule.value.lower()
    for name, value, _vendor in walls.VENDOR_HINTS:
        assert name == name.lower() and value == value.lower()


def test_every_vocabulary_term_names_its_source_and_licence() -> None:
    from readreceipt.reading.tables.vocabulary import TERMS

    assert TERMS
    for term in TERMS:
        assert term.source and term.licence in ("MIT", "Apache-2.0", "BSD-3-Clause",
                                                "GPL-2.0-or-later",
                                                "MIT (Keycloak's messages: Apache-2.0)"), term
        assert term.term == term.term.lower().strip(), term
    for concept in ("not_found", "forbidden", "unavailable"):
        languages = {t.language for t in TERMS if t.concept == concept}
        assert len(languages) >= 20, (concept, sorted(languages))


def test_entries_from_a_vocabulary_say_so() -> None:
    from_vocabulary = [e for e in ALL_ENTRIES if "vocabulary" in e.name]
    assert len(from_vocabulary) >= 4
    assert all(e.licence and "vocabulary.py" in e.ev for e in from_vocabulary)
    # Words, unless the entry names the one vendor whose template prints them (Squid's
    # heading, WordPress's maintenance sentence: tables/notices.py).
    assert all(e.evidence == ("vendor" if e.vendor else "wording") for e in from_vocabulary)
    assert {e.vendor for e in from_vocabulary} == {None, "Squid", "WordPress"}


def test_every_entry_names_a_kind_of_evidence() -> None:
    from readreceipt.reading.tables.entries import EVIDENCE_KINDS

    assert {e.evidence for e in ALL_ENTRIES} <= set(EVIDENCE_KINDS)
    assert {e.evidence for e in ALL_ENTRIES} >= {"vendor", "wording", "structure"}
