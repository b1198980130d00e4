"""Benchmark: the figures an answer states, checked against real pages.

Answers are built from the text readreceipt extracts from real pages: the article corpus
(../shared/corpus/articles), the hard negatives of ../shared/corpus/walls2 (full articles in
Czech, Japanese, Arabic, German, Portuguese, Spanish, Italian, Russian, Vietnamese, Zulu...)
and, held out, mozilla/readability's test pages (``--readability``, a checkout or a bare
git directory; never looked at while the rules were written). From each page's main text,
sentences holding a figure are taken, and each figure is restated:

- *faithful*, in another form the same value takes: verbatim; other thousands separators
  (German, French narrow no-break space, Swiss apostrophe) or none; a scale word ("3.5
  million", "3,5 Millionen", "350万"); spelled out (num2words, in the page's language);
  percent in words; the currency written another way; a date in another order and language
  (babel's long and medium forms, ISO); rounded and hedged ("about" in the page's language);
  a unit converted (km to miles, kg to pounds, °C to °F);
- *altered*: a digit changed, the value scaled x10, a year moved, a unit swapped (km and
  miles, kg and pounds, million and billion, euros and dollars, days and weeks), a date's day
  and month swapped where both are 12 or under (written with the month's name, so that the
  answer is unambiguous). An altered figure whose value the page holds somewhere in digits
  is counted apart ("elsewhere"), since attached to the same words it may truly be there;
- *computed*: two figures of one sentence and their sum or difference (or, for percentages
  of one whole, a share), stated as the answer's own reckoning; and the same with the result
  altered, to measure what the computed reading lets through.

The forms are made by independent code (babel, num2words, this file's own regular
expressions), never by readreceipt's tables. Reported per form and per language: faithful
figures found or approximate, altered figures flagged, and faithful answers with any flag;
the time of the claim check beside the quotation check's on the same answers and pages, and
both on a 50 KB page. Figures, not assertions; the machine may be shared (said in the output).

    .venv/bin/python bench/claims.py [--pages N] [--seed 7] [--readability PATH]
                                     [--git-pages NAME=GITDIR:FOLDER ...] [--held-out-only]
                                     [--misses] [--json OUT] [--against MAIN_CHECKOUT]
                                     [--timing-only]

``--git-pages`` adds a held-out set: every ``.html`` (or ``.html.gz``) file under FOLDER of
a bare git directory's HEAD (e.g. postlight/parser's ``fixtures``, trafilatura's ``tests/eval``),
reported as its own set under NAME; ``--held-out-only`` leaves the development pages out.
The claim check's second development set (issue 22; ``--misses`` allowed) is four such sets:
codelucas/newspaper and AndyTheFactory/newspaper4k (``tests/data/html``), j0k3r/graby
(``tests/fixtures/content``), smallrivers/snacktory (``src/test/resources``). Its third
(issue 22, ``--misses`` allowed), for languages other than English, is three more:
flairNLP/fundus (``tests/resources/parser/test_data``: gzipped pages of German, Austrian,
Swiss, Spanish, French, Italian, Polish, Czech, Turkish, Nordic, Korean... publishers),
GeneralNewsExtractor/GeneralNewsExtractor (``tests``: Chinese news) and
koron/java-extractarticle (``src/test/resources``: Japanese news); bench/claims_overlap.py
found none of their pages in a blind set (by hashing extracted text, never by reading).
postlight/parser's fixtures and trafilatura's tests/eval are its blind held-out sets:
aggregate figures only, never ``--misses``.

Needs babel (installed with trafilatura) and num2words (``pip install num2words``); without
num2words the spelled-out form is skipped, saying so.
"""

# ruff: noqa: RUF001 - the forms are what people write
from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import random
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ../shared beside the repository (a worktree may stand one level deeper)
SHARED = next((p / "shared" / "corpus" for p in HERE.parents if (p / "shared" / "corpus").is_dir()),
              HERE.parent.parent / "shared" / "corpus")
ARTICLES = SHARED / "articles"
WALLS2 = SHARED / "walls2"

FAITHFUL = ("verbatim", "separators", "no separators", "scale word", "spelled out",
            "percent in words", "currency", "date reordered", "about", "unit converted",
            "clause")
ALTERED = ("digit changed", "scaled x10", "year moved", "unit swapped", "day-month swapped")

# ------------------------------------------------------------------------------- pages


@dataclass
class Page:
    name: str
    source: str  # "articles", "walls2", "readability", or a --git-pages name
    lang: str
    main: str
    text: str


def _lang(html: str, main: str) -> str:
    m = re.search(r"<html[^>]{0,400}?\blang=[\"']?([A-Za-z]{2,3})", html[:5000], re.I)
    if m:
        return m.group(1).lower()
    sample = main[:3000]
    if re.search(r"[\u3040-\u30ff]", sample):
        return "ja"
    if re.search(r"[\uac00-\ud7a3]", sample):
        return "ko"
    if re.search(r"[\u4e00-\u9fff]", sample):
        return "zh"
    if re.search(r"[\u0400-\u04ff]", sample):
        return "ru"
    if re.search(r"[\u0600-\u06ff]", sample):
        return "ar"
    return "en"


def load_pages(limit: int | None, readability: Path | None,
               git_pages: tuple[tuple[str, Path, str], ...] = (),
               development: bool = True) -> list[Page]:
    from readreceipt.reading.extract import extract

    def page(name: str, source: str, body: bytes) -> Page | None:
        ex = extract(body, "text/html", None)
        if len(ex.main_text) < 400:
            return None
        html = body[:20000].decode("utf-8", "replace")
        return Page(name, source, _lang(html, ex.main_text), ex.main_text, ex.page_text)

    pages: list[Page] = []
    if development and ARTICLES.is_dir():
        for f in sorted((ARTICLES / "html").glob("*.html.gz"))[:limit]:
            p = page(f.name[:12], "articles", gzip.decompress(f.read_bytes()))
            if p:
                pages.append(p)
    if development and WALLS2.is_dir():
        for f in sorted((WALLS2 / "hard_negative").glob("*.html"))[:limit]:
            p = page(f.stem, "walls2", f.read_bytes())
            if p:
                pages.append(p)
    if readability is not None:
        for name, body in _readability(readability):
            p = page(name, "readability", body)
            if p:
                pages.append(p)
    for source, git_dir, folder in git_pages:
        for name, body in _git_html(git_dir, folder)[:limit]:
            p = page(name, source, body)
            if p:
                pages.append(p)
    return pages


def _git_html_paths(git_dir: Path, folder: str) -> list[str]:
    """The ``.html`` files under ``folder`` at HEAD of the bare git directory ``git_dir``."""
    try:
        names = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only",
                                "HEAD", folder.rstrip("/") + "/"],
                               capture_output=True, check=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return []
    return sorted(n for n in names if n.endswith((".html", ".htm", ".html.gz")))


def _git_html(git_dir: Path, folder: str) -> list[tuple[str, bytes]]:
    """Every ``.html`` file under ``folder`` at HEAD of ``git_dir``: (its name, its bytes;
    a gzipped one, as fundus keeps its pages, unpacked)."""
    out = []
    for path in _git_html_paths(git_dir, folder):
        shown = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"],
                               capture_output=True, check=False)
        if shown.returncode != 0:
            continue
        body = shown.stdout
        if path.endswith(".gz"):
            try:
                body = gzip.decompress(body)
            except (OSError, EOFError):
                continue
        out.append((path.rsplit("/", 1)[-1], body))
    return out


def git_pages_arg(value: str) -> tuple[str, Path, str]:
    name, _, rest = value.partition("=")
    git_dir, _, folder = rest.rpartition(":")
    if not name or not git_dir or not folder:
        raise argparse.ArgumentTypeError("expected NAME=GITDIR:FOLDER")
    return name, Path(git_dir), folder


def _readability(where: Path) -> list[tuple[str, bytes]]:
    folder = where / "test" / "test-pages" if (where / "test").is_dir() else where
    if folder.is_dir() and any(folder.glob("*/source.html")):
        return [(p.parent.name, p.read_bytes()) for p in sorted(folder.glob("*/source.html"))]
    git = ["git", f"--git-dir={where}"]
    try:
        names = subprocess.run([*git, "ls-tree", "--name-only", "HEAD", "test/test-pages/"],
                               capture_output=True, check=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return []
    out = []
    for path in names:
        shown = subprocess.run([*git, "show", f"HEAD:{path}/source.html"], capture_output=True)
        if shown.returncode == 0:
            out.append((path.rsplit("/", 1)[-1], shown.stdout))
    return out


# ---------------------------------------------------------------------------- sentences

_SPLIT = re.compile(r"(?<=[.!?。！？])(?<!\b[A-Z][a-z]\.)(?<!\b[A-Z]\.)(?<!\bNo\.)"
                    r"(?<!\bSt\.)(?<!\bMr\.)(?<!\bDr\.)\s+(?=[\"“«A-ZÀ-ÖØ-Þ0-9\u0400-\u04ff])"
                    r"|(?<=[。！？])")


_ABBREVIATED = re.compile(r"(?:\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|No|Nr|"
                         r"St|Mr|Mrs|Ms|Dr|Prof|Gen|Gov|Sen|Rep|Inc|Co|Corp|Ltd|vs|U\.S|"
                         r"U\.K|a\.m|p\.m|ca|approx)\.|\b[A-Z]\.|(?<![\d.,])\b\d{1,2}\.)$")
# (a day's number and its stop, "am 11." before "Mai": German writes its dates so, and a
# sentence cut there leaves an answer holding "am 11." alone, which nobody writes)
_QUOTED = re.compile("[\"\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d\u300e\u300f]"
                     "|(?<!\\w)\u2018|\u2019(?!\\w)")


def sentences(main: str) -> list[str]:
    """The sentences of a main text that hold a digit and no quotation (a quotation's
    figures are the quotation check's)."""
    out = []
    for paragraph in main.split("\n"):
        pieces: list[str] = []
        for piece in _SPLIT.split(paragraph.strip()):
            if pieces and _ABBREVIATED.search(pieces[-1]):
                pieces[-1] += " " + piece
            else:
                pieces.append(piece)
        for s in pieces:
            # ">> Hier finden Sie...": a page's arrows, which an answer's Markdown would
            # read as a block quote (the quotation check's, not the claim check's)
            s = s.strip().lstrip("> ").strip()
            if _QUOTED.search(s):
                continue
            if (25 <= len(s) <= 320 and re.search(r"\d", s) and len(s.split()) >= 4) or \
                    (10 <= len(s) <= 200 and re.search(r"[\u3040-\u9fff\uac00-\ud7a3]", s) \
                    and re.search(r"\d", s)):
                out.append(s)
    return out


# ---------------------------------------------------------------------------- targets

_N = r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+(?:[.,]\d{1,4})?|\d{1,9}(?:[.,]\d{1,4})?"
_PERCENT = re.compile(rf"(?<![\w.,])(?P<n>{_N})\s?%")
_MONEY = re.compile(rf"(?P<cur>[$€£])\s?(?P<n>{_N})(?:\s(?P<scale>million|billion)\b)?")
_MONEY_AFTER = re.compile(
    rf"(?<![\w.,])(?P<n>{_N})\s(?:(?P<scale>Millionen|Milliarden|millions|milliards|millones|"
    rf"milioni|milhões|million|billion)\s(?:de\s|d['’])?)?(?P<cur>€|Euro|euros|dollars)\b")
_UNIT = re.compile(rf"(?<![\w.,])(?P<n>{_N})\s?(?P<unit>km|kilometres|kilometers|miles|kg|"
                   r"kilograms|pounds|°C|°F|metres|meters|feet)(?![\w/])")
_YEAR = re.compile(r"(?<![\w.,/-])(?P<n>1[89]\d{2}|20\d{2})(?![\w.,/-]|\s?%)")
_COUNT = re.compile(r"(?<![\w.,/:*×\u2013\u2212-])(?P<n>[2-9]|[1-9]\d)(?=\s[^\W\d_]{3,})"
                    r"(?![\w.,:/-])")  # not after any dash nor "24*"
_BIG = re.compile(r"(?<![\w.,/:-])(?P<n>\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+)(?![\w.,/-]?\d)")
_DECIMAL = re.compile(r"(?<![\w.,/:-])(?P<n>\d{1,3}[.,]\d{1,2})(?![\w.,/-]?\d)(?!\s?%)"
                      r"(?![^\W\d_])")  # "802.11ax": a standard's name, not a decimal

_TIME_AFTER = re.compile(r"\s?(?:[ap]\.?m\.?(?![^\W\d_])|Uhr\b|h(?![^\W\d_])|hrs\b)", re.I)

LOCALES = {"en": "en", "de": "de", "fr": "fr", "es": "es", "it": "it", "pt": "pt", "nl": "nl",
           "ru": "ru", "cs": "cs", "ja": "ja", "ko": "ko", "zh": "zh", "vi": "vi", "ar": "ar",
           "zu": "zu", "pl": "pl", "tr": "tr", "sv": "sv", "da": "da", "no": "nb", "fi": "fi",
           "he": "he", "hu": "hu", "ro": "ro", "el": "el", "id": "id", "uk": "uk"}
ABOUT = {"en": "about", "de": "etwa", "fr": "environ", "es": "alrededor de", "it": "circa",
         "pt": "cerca de", "nl": "ongeveer", "ru": "около", "cs": "asi", "ja": "約",
         "zh": "约", "ko": "약", "vi": "khoảng", "ar": "حوالي", "pl": "około"}
PERCENT_WORDS = {"en": "percent", "de": "Prozent", "fr": "pour cent", "es": "por ciento",
                 "it": "per cento", "pt": "por cento", "nl": "procent", "ru": "процентов",
                 "cs": "procent"}


def locale_of(lang: str) -> str:
    return LOCALES.get(lang, "en")


def parse_number(text: str, lang: str) -> float | None:
    """The value of a number as the page's language writes it (babel's reading)."""
    from babel.numbers import NumberFormatError, parse_decimal

    try:
        # strict: "10.10" (a version) is no German 1010, nor "1.2.3" anything
        return float(parse_decimal(text.replace("\u202f", "\u00a0").replace(" ", "\u00a0"),
                                   locale=locale_of(lang), strict=True))
    except (NumberFormatError, ValueError):
        return None


@dataclass
class Target:
    kind: str  # percent, money, unit, year, count, big, decimal, date
    start: int
    end: int
    value: float
    groups: dict[str, str]


def targets(sentence: str, lang: str) -> list[Target]:
    out: list[Target] = []
    taken: list[tuple[int, int]] = []

    # every language's months: a page's lang attribute may name another language than its
    # text's ("9 juni 2024" on a page that says lang="en")
    month_words = {w.lower() for code in (lang, *_MONTH_LANGS) for w in months(code)} | {
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "week", "no", "nr", "page", "chapter", "section", "article", "room", "route", "season"}

    def add(kind: str, m: re.Match[str], value: float | None) -> None:
        if value is None or any(s < m.end() and m.start() < e for s, e in taken):
            return
        before = re.findall(r"[^\W\d_]+", sentence[max(0, m.start() - 12):m.start()])
        if kind in ("count", "big", "decimal") and before and \
                before[-1].lower() in month_words:
            return  # a day of a month, a week's or a page's number: not a count
        after = re.match(r"\.?\s?([^\W\d_]+)", sentence[m.end():m.end() + 16])
        if kind in ("count", "big", "decimal") and after and \
                after.group(1).lower() in month_words:
            return  # "16 octobre", "3. März": a day of a month, not a count
        if kind != "date" and _TIME_AFTER.match(sentence, m.end()):
            return  # "6.24pm", "11.30 Uhr", "20 h": a time of day, not a figure
        if kind == "count" and before and re.search(r"[A-Z\d]", before[-1][1:]):
            return  # "DirectX 11", "iOS 9": a product's number, not a count
        taken.append((m.start(), m.end()))
        out.append(Target(kind, m.start(), m.end(), value,
                          {k: v for k, v in m.groupdict().items() if v}))

    # nothing inside an address: "%E2%99%BD" holds no percentage
    taken.extend((u.start(), u.end()) for u in _URL.finditer(sentence))
    urls = len(taken)
    for m in _date_pattern(lang).finditer(sentence):
        d = _date_value(m, lang)
        if d is not None:
            add("date", m, float(d.toordinal()))
    for kind, pattern in (("percent", _PERCENT), ("money", _MONEY), ("money", _MONEY_AFTER),
                          ("unit", _UNIT), ("year", _YEAR), ("big", _BIG),
                          ("decimal", _DECIMAL), ("count", _COUNT)):
        for m in pattern.finditer(sentence):
            n = m.group("n")
            add(kind, m, float(n) if kind == "year" else parse_number(n, lang))
    del taken[:urls]
    return sorted(out, key=lambda t: t.start)


_URL = re.compile(r"(?:https?://|www\.)[^\s)）]{1,400}")
#: "US$6.9 billion": the country written against the sign, which the currency forms and the
#: currency swap would leave standing ("US USD 6.9 billion", "US€6.9 billion")
_SIGN_PREFIX = re.compile(r"\b(?:US|USD|A|AU|C|CA|NZ|HK|S|R|NT|Mex) ?$")


def _sign_prefixed(sentence: str, t: Target) -> bool:
    return t.kind == "money" and t.groups.get("cur") == "$" and \
        _SIGN_PREFIX.search(sentence, 0, t.start) is not None


# --------------------------------------------------------------------------------- dates

_MONTH_CACHE: dict[str, list[str]] = {}
_MONTH_LANGS = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "cs", "sv", "da", "no", "tr")


def months(lang: str) -> list[str]:
    if lang not in _MONTH_CACHE:
        from babel.dates import get_month_names

        try:
            names = get_month_names("wide", locale=locale_of(lang), context="format")
            _MONTH_CACHE[lang] = [names[i] for i in range(1, 13)]
        except Exception:
            _MONTH_CACHE[lang] = months("en") if lang != "en" else []
    return _MONTH_CACHE[lang]


def _date_pattern(lang: str) -> re.Pattern[str]:
    names = "|".join(re.escape(m) for m in sorted({*months(lang), *months("en")}, key=len,
                                                  reverse=True))
    return re.compile(
        rf"(?<![\w.])(?P<d1>[0-3]?\d)\.?\s(?:de\s)?(?P<m1>{names})(?:\s(?:de\s)?(?P<y1>\d{{4}}))?"
        rf"|(?P<m2>{names})\s(?P<d2>[0-3]?\d),?\s(?P<y2>\d{{4}})"
        rf"|(?<![\w.])(?P<y3>\d{{4}})-(?P<mo3>[01]\d)-(?P<d3>[0-3]\d)(?!\d)", re.I)


def _date_value(m: re.Match[str], lang: str) -> dt.date | None:
    g = m.groupdict()
    names = [x.lower() for x in months(lang)]
    english = [x.lower() for x in months("en")]

    def month(word: str) -> int:
        w = word.lower()
        return (names.index(w) if w in names else english.index(w)) + 1

    try:
        if g.get("y3"):
            return dt.date(int(g["y3"]), int(g["mo3"]), int(g["d3"]))
        if g.get("m2"):
            return dt.date(int(g["y2"]), month(g["m2"]), int(g["d2"]))
        if g.get("m1") and g.get("y1"):
            return dt.date(int(g["y1"]), month(g["m1"]), int(g["d1"]))
    except ValueError:
        return None
    return None


# ---------------------------------------------------------------------------- the forms

def fmt(value: float, lang: str, decimals: int | None = None) -> str:
    from babel.numbers import format_decimal

    pattern = None
    if decimals is not None:
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=locale_of(lang))


def decimals_of(text: str, lang: str) -> int:
    mark = "." if fmt(1.5, lang)[1] == "." else ","
    if mark in text and len(text.rsplit(mark, 1)[1]) != 3:
        return len(text.rsplit(mark, 1)[1])
    return 0


def faithful_forms(t: Target, sentence: str, lang: str, rng: random.Random
                   ) -> dict[str, str]:
    """form -> the target's new text (the rest of the sentence stays as written)."""
    from babel.numbers import format_compact_decimal

    text = sentence[t.start:t.end]
    n = t.groups.get("n", text)
    v = t.value
    forms: dict[str, str] = {"verbatim": text}
    if t.kind == "date":
        from babel.dates import format_date

        d = dt.date.fromordinal(int(v))
        forms["date reordered"] = rng.choice([
            d.isoformat(), format_date(d, "long", locale=locale_of(lang)),
            format_date(d, "long", locale="en"), f"{d.day} {months('en')[d.month - 1]} {d.year}"])
        return forms
    dec = decimals_of(n, lang)
    if v >= 1000 and t.kind != "year":
        # never a grouping mark that the sentence's own decimals use ("83.261" beside
        # "25.5 percent" is 83.261, in any language)
        marks = set(re.findall(r"(?<![\d.,])\d+([.,])\d{1,2}(?![\d.,])", sentence))
        grouping = {"en": ",", "de": "."}
        other = rng.choice([x for x in ("en", "de", "fr", "de_CH") if x != locale_of(lang)
                            and grouping.get(x) not in marks])
        forms["separators"] = text.replace(n, fmt(v, other, dec), 1)
        forms["no separators"] = text.replace(n, fmt(v, "en", dec).replace(",", ""), 1)
    if v >= 1_000_000 and t.kind in ("big", "money") and "scale" not in t.groups:
        compact = format_compact_decimal(v, format_type="long", locale=locale_of(lang),
                                         fraction_digits=1)
        forms["scale word"] = text.replace(n, compact, 1)
    if t.kind in ("count",) and v.is_integer() and 2 <= v <= 99:
        words = _spelled(int(v), lang)
        if words:
            forms["spelled out"] = text.replace(n, words, 1)
    if t.kind == "percent" and lang in PERCENT_WORDS:
        forms["percent in words"] = f"{n} {PERCENT_WORDS[lang]}"
    if t.kind == "money" and not _sign_prefixed(sentence, t):
        cur = t.groups["cur"]
        scale = t.groups.get("scale")
        code = {"$": "USD", "€": "EUR", "£": "GBP", "Euro": "EUR", "euros": "EUR",
                "dollars": "USD"}.get(cur, "USD")
        forms["currency"] = f"{code} {n}" + (f" {scale}" if scale else "")
    if t.kind in ("big", "money", "percent", "decimal", "unit") and v >= 10 and \
            lang in ABOUT:
        rounded = float(f"{v:.2g}")
        if rounded != v:
            shown = fmt(rounded, lang, 0 if rounded >= 10 else 1)
            hedged = ABOUT[lang] + " " + text.replace(n, shown, 1)
            if sentence[t.start - 1:t.start] in "-\u2212+" and t.start:
                hedged = None  # "-about 38%": a hedge goes before the sign, not after it
            if _HEDGED.search(sentence[max(0, t.start - 24):t.start]):
                hedged = None  # "plus de environ 130": one hedge is all anyone writes
            if hedged is not None:
                forms["about"] = hedged
    if t.kind == "unit" and not _range_end(sentence, t):
        converted = _convert(v, t.groups["unit"])
        if converted is not None:
            value, unit = converted
            forms["unit converted"] = f"{ABOUT.get(lang, 'about')} {fmt(value, lang, 1)} {unit}"
    return forms


def _spelled(n: int, lang: str) -> str | None:
    try:
        from num2words import num2words
    except ImportError:
        return None
    if lang not in ("en", "de", "fr", "es", "it", "pt", "nl", "ru", "cs", "pl"):
        return None
    try:
        return str(num2words(n, lang=lang))
    except (NotImplementedError, OverflowError):
        return None


# exact factors (a mile is 1.609344 km, a pound 0.45359237 kg, a foot 0.3048 m): a rounded
# factor put "141,633,217.9 miles" where 227,936,640 km is 141,633,247.6
_CONVERSIONS = {"km": (1 / 1.609344, "miles"), "kilometres": (1 / 1.609344, "miles"),
                "kilometers": (1 / 1.609344, "miles"), "miles": (1.609344, "km"),
                "kg": (1 / 0.45359237, "pounds"), "kilograms": (1 / 0.45359237, "pounds"),
                "metres": (1 / 0.3048, "feet"), "meters": (1 / 0.3048, "feet"),
                "feet": (0.3048, "metres")}


def _range_end(sentence: str, t: Target) -> bool:
    """Whether the target is one end of a range ("50 to 100 metres", "3-5 km"): converting
    one end alone writes what nobody would ("150 to about 91.4 metres")."""
    before = sentence[max(0, t.start - 12):t.start]
    return bool(re.search(r"\d\s?(?:to|and|-|\u2013|bis|à|a|y)\s?$", before))


def _convert(v: float, unit: str) -> tuple[float, str] | None:
    if unit in ("°C", "°F"):
        return (v * 9 / 5 + 32, "°F") if unit == "°C" else ((v - 32) * 5 / 9, "°C")
    if unit in _CONVERSIONS:
        factor, other = _CONVERSIONS[unit]
        return v * factor, other
    return None


_SWAPS = {"km": "miles", "kilometres": "miles", "kilometers": "miles", "miles": "km",
          "kg": "pounds", "kilograms": "pounds", "pounds": "kg", "°C": "°F", "°F": "°C",
          "metres": "feet", "meters": "feet", "feet": "metres", "million": "billion",
          "billion": "million", "€": "$", "$": "€", "£": "$", "Euro": "Dollar",
          "euros": "dollars", "dollars": "euros"}


def altered_forms(t: Target, sentence: str, lang: str, rng: random.Random) -> dict[str, str]:
    text = sentence[t.start:t.end]
    n = t.groups.get("n", text)
    out: dict[str, str] = {}
    if t.kind == "date":
        d = dt.date.fromordinal(int(t.value))
        out["year moved"] = text.replace(str(d.year), str(d.year + rng.choice((-2, -1, 1, 2))))
        if d.day <= 12 and d.month <= 12 and d.day != d.month:
            swapped = dt.date(d.year, d.day, d.month)
            out["day-month swapped"] = (
                f"{swapped.day} {months(lang)[swapped.month - 1]} {swapped.year}"
                if months(lang) else swapped.strftime("%d %B %Y"))
        return out
    if t.kind == "year":
        out["year moved"] = str(int(t.value) + rng.choice((-3, -2, -1, 1, 2, 3)))
        return out
    digits = [i for i, ch in enumerate(n) if ch.isdigit()]
    if digits:
        i = rng.choice(digits)
        new = str((int(n[i]) + rng.choice((1, 2, 3, 4, 5, 6, 7))) % 10)
        if i == digits[0] and new == "0":
            new = "9"
        changed = n[:i] + new + n[i + 1:]
        value = parse_number(changed, lang)
        # "over 60%" is still true of the page's "over 66%": a hedged figure changed within
        # what its hedge allows is no altered figure
        hedged = _HEDGED.search(sentence[max(0, t.start - 24):t.start]) is not None and \
            value is not None and abs(value - t.value) <= 0.25 * abs(t.value)
        if re.search(r"[1-9]", changed) and not hedged:  # zero says nothing checkable
            out["digit changed"] = text.replace(n, changed, 1)
    if t.kind != "year":
        dec = decimals_of(n, lang)
        out["scaled x10"] = text.replace(n, fmt(t.value * 10, lang, dec), 1)
    for word in ("unit", "scale", "cur"):
        unit = t.groups.get(word)
        if word == "cur" and _sign_prefixed(sentence, t):
            continue
        if unit in _SWAPS:
            out["unit swapped"] = text.replace(unit, _SWAPS[unit], 1)
            break
    return out


_HEDGED = re.compile(
    r"(?:\b(?:over|more than|under|less than|fewer than|up to|at least|about|around|nearly|"
    r"almost|approximately|roughly|some|mehr als|über|unter|etwa|rund|knapp|fast|gut|"
    r"plus de|moins de|environ|près de|presque|más de|menos de|unos|unas|casi|circa|oltre|"
    r"quasi|cerca de|mais de|quase|bis zu|jusqu'à|hasta|fino a|até|tot|do|до|ponad|"
    r"powyżej|więcej niż|około|более|менее|свыше|около)|~|≈)\s?[$€£]?\s?$", re.I)


def _digits_key(text: str) -> str:
    return re.sub(r"(?<=\d)[,.\u00a0\u202f ’'](?=\d{3})", "", text)


def on_page_elsewhere(new_text: str, page: str, lang: str = "en") -> bool:
    """Whether the altered figure's digits (or, for a small number, its words) stand on
    the page anyway; "5.0" stands there as "5" too."""
    digits = re.findall(r"\d[\d,.\u00a0\u202f ’']*\d|\d", new_text)
    digits += [re.sub(r"([.,]\d*?)0{1,4}$", r"\1", d).rstrip(".,") for d in digits
               if re.search(r"[.,]\d*0$", d)]  # "5.0" stands as "5", "0.50" as "0.5"
    key = _digits_key(page)
    if any(re.search(rf"(?<![\d.,]){re.escape(_digits_key(d))}(?![\d]|[.,]\d)", key)
           for d in digits):
        return True
    low = page.lower()
    for d in digits:
        if d.isdigit() and int(d) <= 100:
            for language in {"en", lang}:
                words = _spelled(int(d), language)
                if words and re.search(rf"(?<!\w){re.escape(words.lower())}(?!\w)", low):
                    return True
    return False


# -------------------------------------------------------------------------------- checking


@dataclass
class Tally:
    asked: Counter[tuple[str, str]]
    right: Counter[tuple[str, str]]
    unread: Counter[tuple[str, str]]

    @classmethod
    def new(cls) -> Tally:
        return cls(Counter(), Counter(), Counter())


def outcome_at(claims: tuple, start: int, end: int) -> str:
    for c in claims:
        if c.kind != "figure":
            continue
        if c.span[0] < end and start < c.span[1]:
            return str(c.outcome)
    return "unread"


def run(args: argparse.Namespace) -> dict:
    from readreceipt.quotes.claims import PageTexts, check_claims
    from readreceipt.quotes.quotations import check_answer_text

    rng = random.Random(args.seed)  # noqa: S311 - a reproducible sample, not a secret
    pages = load_pages(args.pages, args.readability, tuple(args.git_pages),
                       not args.held_out_only)
    faithful, altered = Tally.new(), Tally.new()
    elsewhere = Tally.new()
    answers_flagged: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    computed: Counter[tuple[str, str]] = Counter()
    names: Counter[tuple[str, str]] = Counter()
    times_claims: list[float] = []
    times_quotes: list[float] = []
    misses: list[str] = []
    langs: Counter[str] = Counter()
    for page in pages:
        texts = PageTexts(main=page.main, page=page.text)
        chosen = sentences(page.main)
        rng.shuffle(chosen)
        used = 0
        for sentence in chosen:
            if used >= args.per_page:
                break
            found = targets(sentence, page.lang)
            if not found:
                continue
            used += 1
            langs[page.lang] += 1
            t = rng.choice(found)
            group = f"{page.source}:{page.lang}"
            for form, new in faithful_forms(t, sentence, page.lang, rng).items():
                answer = sentence[:t.start] + new + sentence[t.end:]
                started = time.perf_counter()
                claims = _with_spans(check_claims(answer, texts), answer)
                times_claims.append(time.perf_counter() - started)
                got = outcome_at(claims, t.start, t.start + len(new))
                key = (form, group)
                faithful.asked[key] += 1
                faithful.right[key] += got in ("found", "approximate")
                faithful.unread[key] += got == "unread"
                answers[group] += 1
                flagged = [c for c in claims if c.outcome == "not_found"]
                answers_flagged[group] += bool(flagged)
                if got not in ("found", "approximate") or flagged:
                    misses.append(f"FAITHFUL {form} [{group} {page.name}] {got}: {new!r} in "
                                  f"{answer[:240]!r} "
                                  f"flags={[(c.text, c.nearest) for c in flagged][:3]}")
                if form == "verbatim":
                    started = time.perf_counter()
                    check_answer_text(f'The page says "{sentence}".', main_text=page.main,
                                      page_text=page.text)
                    times_quotes.append(time.perf_counter() - started)
            for form, new in altered_forms(t, sentence, page.lang, rng).items():
                answer = sentence[:t.start] + new + sentence[t.end:]
                claims = _with_spans(check_claims(answer, texts), answer)
                got = outcome_at(claims, t.start, t.start + len(new))
                tally = elsewhere if on_page_elsewhere(new, page.text, page.lang) else altered
                key = (form, group)
                tally.asked[key] += 1
                tally.right[key] += got == "not_found"
                tally.unread[key] += got == "unread"
                if got != "not_found" and tally is altered:
                    misses.append(f"ALTERED {form} [{group} {page.name}] {got}: "
                                  f"{sentence[t.start:t.end]!r} -> {new!r} in {answer[:200]!r}")
            _computed(sentence, found, page, texts, computed, misses, check_claims)
        _names(page, texts, pages, rng, names, misses, check_claims)
    return {"pages": len(pages), "langs": langs, "faithful": faithful, "altered": altered,
            "elsewhere": elsewhere, "answers": answers, "answers_flagged": answers_flagged,
            "computed": computed, "names": names, "times_claims": times_claims,
            "times_quotes": times_quotes,
            "misses": misses}


def _computed(sentence: str, found: list[Target], page: Page, texts: object,
              computed: Counter[tuple[str, str]], misses: list[str], check_claims: object
              ) -> None:
    """Two figures of one kind in a sentence, and the answer's own sum or difference of
    them, said in the same sentence with the same unit."""
    same = [t for t in found if t.kind in ("big", "count", "money", "percent")]
    pairs = [(a, b) for i, a in enumerate(same) for b in same[i + 1:]
             if a.kind == b.kind and a.groups.get("cur") == b.groups.get("cur")
             and a.groups.get("scale") == b.groups.get("scale")]
    if not pairs:
        return
    a, b = pairs[0]
    for how, value in (("sum", a.value + b.value), ("difference", abs(a.value - b.value))):
        if value <= 0:
            continue
        word = {"sum": "together", "difference": "a difference of"}[how]
        for altered in (False, True):
            v = value
            if altered:
                v = value + max(1.0, 10 ** (len(str(int(value))) - 1))
            shown = _shown(v, a, page.lang)
            if altered and on_page_elsewhere(shown, page.text, page.lang):
                continue
            answer = f"{sentence.rstrip('.')}, {word} {shown}."
            at = answer.rfind(shown)
            claims = _with_spans(check_claims(answer, texts), answer)  # type: ignore[operator]
            got = outcome_at(claims, at, at + len(shown))
            tag = f"{how} altered" if altered else how
            computed[(f"{tag} asked", page.source)] += 1
            computed[(f"{tag} {got}", page.source)] += 1
            if (got == "not_found") != altered:
                misses.append(f"COMPUTED {tag} {got} [{page.lang} {page.name}] "
                              f"{answer[-220:]!r}")


def _shown(value: float, t: Target, lang: str) -> str:
    number = fmt(value, lang, 0 if float(value).is_integer() else 1)
    if t.kind == "percent":
        return f"{number} %"
    if t.kind == "money":
        cur, scale = t.groups["cur"], t.groups.get("scale")
        tail = f" {scale}" if scale else ""
        return f"{cur}{number}{tail}" if cur in "$€£" else f"{number}{tail} {cur}"
    return number


_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,15} [A-Z][a-z]{2,15}(?= [a-z])")


def _names(page: Page, texts: object, pages: list[Page], rng: random.Random,
           names: Counter[tuple[str, str]], misses: list[str], check_claims: object) -> None:
    """A two-word name a sentence of the page gives, kept (found) and swapped for another
    page's name none of whose words this page holds (flagged)."""
    for sentence in sentences(page.main)[:40]:
        m = _NAME.search(sentence)
        if m is None:
            continue
        claims = check_claims(sentence, texts)  # type: ignore[operator]
        got = next((c.outcome for c in claims if c.kind == "name" and m.group() in c.text),
                   "unread")
        names[("faithful asked", page.source)] += 1
        names[(f"faithful {got}", page.source)] += 1
        if got == "not_found":
            misses.append(f"NAME faithful [{page.lang} {page.name}] {m.group()!r}")
        low = page.text.lower()
        for other in rng.sample(pages, min(len(pages), 30)):
            swap = _NAME.search(other.main)
            if swap and not any(w.lower() in low for w in swap.group().split()):
                answer = sentence[:m.start()] + swap.group() + sentence[m.end():]
                claims = check_claims(answer, texts)  # type: ignore[operator]
                got = next((c.outcome for c in claims if c.kind == "name"
                            and swap.group() in c.text), "unread")
                names[("invented asked", page.source)] += 1
                names[(f"invented {got}", page.source)] += 1
                if got != "not_found":
                    misses.append(f"NAME invented {got} [{page.lang} {page.name}] "
                                  f"{swap.group()!r} in {answer[:160]!r}")
                break
        return


@dataclass
class _Spanned:
    kind: str
    outcome: str
    text: str
    nearest: str | None
    span: tuple[int, int]


def _with_spans(claims: tuple, answer: str) -> tuple[_Spanned, ...]:
    """Each claim with where its text stands in the answer (in order, first free place)."""
    out = []
    at = 0
    for c in claims:
        where = answer.find(c.text, at) if c.kind == "figure" else answer.find(c.text)
        if where < 0:
            where = answer.find(c.text)
        span = (where, where + len(c.text)) if where >= 0 else (-1, -1)
        if c.kind == "figure" and where >= 0:
            at = where + len(c.text)  # the next figure stands after this one ("1,242 ... 42")
        out.append(_Spanned(c.kind, c.outcome, c.text, c.nearest, span))
    return tuple(out)


# --------------------------------------------------------------------------------- report

def _pct(right: int, asked: int) -> str:
    return f"{right}/{asked} ({100 * right / asked:.1f} %)" if asked else "-"


SETS = (("development pages: the article corpus and walls2's hard negatives",
         ("articles", "walls2")),
        ("held out: mozilla/readability's test pages", ("readability",)))


def report(r: dict, args: argparse.Namespace) -> None:
    print(f"{r['pages']} pages; sentences by language: {dict(r['langs'].most_common())}")
    print("(the machine is shared with other work: times are medians of this run)")
    held_out = tuple((f"held out: {name} ({git_dir.name}:{folder})", (name,))
                     for name, git_dir, folder in args.git_pages)
    for name, sources in SETS + held_out:
        if not any(g.split(":")[0] in sources for g in r["answers"]):
            continue
        print(f"\n# {name}\n")
        _report_set(r, sources)
    tc, tq = r["times_claims"], r["times_quotes"]
    if tc and tq:
        print(f"\nmedian check time per answer on these pages: claims "
              f"{1000 * statistics.median(tc):.3f} ms, quotations "
              f"{1000 * statistics.median(tq):.3f} ms")
    if args.misses:
        print("\n" + "\n".join(r["misses"]))


def _report_set(r: dict, sources: tuple[str, ...]) -> None:
    def ours(group: str) -> bool:
        return group.split(":")[0] in sources

    for title, tally, forms in (("faithful: found or approximate", r["faithful"], FAITHFUL),
                                ("altered: flagged", r["altered"], ALTERED),
                                ("altered, the value elsewhere on the page: flagged",
                                 r["elsewhere"], ALTERED)):
        print(f"## {title}")
        by_form: Counter[str] = Counter()
        by_form_right: Counter[str] = Counter()
        by_lang: Counter[str] = Counter()
        by_lang_right: Counter[str] = Counter()
        for (form, group), n in tally.asked.items():
            if not ours(group):
                continue
            by_form[form] += n
            by_form_right[form] += tally.right[(form, group)]
            lang = group.split(":")[1]
            by_lang[lang] += n
            by_lang_right[lang] += tally.right[(form, group)]
        for form in forms:
            if by_form[form]:
                unread = sum(v for (f, g), v in tally.unread.items() if f == form and ours(g))
                print(f"  {form:22} {_pct(by_form_right[form], by_form[form]):>22}"
                      + (f"   ({unread} not read as figures)" if unread else ""))
        print("  by language: " + ", ".join(
            f"{lang} {_pct(by_lang_right[lang], n)}" for lang, n in by_lang.most_common()))
        total = sum(by_form.values())
        print(f"  all {_pct(sum(by_form_right.values()), total)}\n")
    answers = sum(n for g, n in r["answers"].items() if ours(g))
    flagged = sum(n for g, n in r["answers_flagged"].items() if ours(g))
    print(f"faithful answers with any flag: {_pct(flagged, answers)}")
    c = r["computed"]
    for how in ("sum", "difference"):
        asked = sum(n for (k, src), n in c.items() if k == f"{how} asked" and src in sources)

        def n(key: str, how: str = how) -> int:
            return sum(v for (k, src), v in c.items() if k == f"{how} {key}" and src in sources)

        if asked:
            print(f"computed {how}: {asked} asked; found {n('found')}, approximate "
                  f"{n('approximate')}, not_found {n('not_found')}, unread {n('unread')}; "
                  f"altered result flagged {_pct(n('altered not_found'), n('altered asked'))}")
    nm = r["names"]

    def names(key: str) -> int:
        return sum(v for (k, src), v in nm.items() if k == key and src in sources)

    if names("faithful asked"):
        found = _pct(names("faithful found"), names("faithful asked"))
        print(f"names given by the page: found {found}"
              f", approximate {names('faithful approximate')}, flagged "
              f"{names('faithful not_found')}; a name from another page none of whose words "
              f"this page holds: flagged "
              f"{_pct(names('invented not_found'), names('invented asked'))}")


def timing_jobs(pages: list[Page], rounds: int = 30) -> list[tuple[str, str, str]]:
    """(text, first answer, second answer) for the 50 KB timing: every answer on a page of
    its own (the pages' main texts joined from another starting page)."""
    rng = random.Random(7)  # noqa: S311 - which sentences answer, not a secret
    jobs: list[tuple[str, str, str]] = []
    for k in range(rounds):
        text, sources = "", []
        for p in pages[k % len(pages):] + pages[:k % len(pages)]:
            if len(text) >= 50_000:
                break
            text += p.main + "\n"
            sources.extend(sentences(p.main)[:3])
        text = text[:50_000]
        sources = [s for s in sources if s in text]
        if len(sources) >= 2:
            first, second = rng.sample(sources, 2)
            jobs.append((text, first, second))
    return jobs


def _checks() -> dict[str, object]:
    """The checks timed: the claim check, the quotation check and the whole answer check
    (quotations, claims and agreement: quotes/answers.py check())."""
    from readreceipt.quotes import answers
    from readreceipt.quotes.claims import PageTexts, check_claims
    from readreceipt.quotes.quotations import check_answer_text

    def whole(text: str, answer: str) -> None:
        page = answers.Page("r", "https://example.org/", None, "RETRIEVED", "ok")
        answers.check(answer, "", [answers.Copy(page, text, text)])

    return {
        "claims": lambda text, s: check_claims(s, PageTexts(main=text, page=text)),
        "quotation check": lambda text, s: check_answer_text(f'"{s}"', main_text=text,
                                                             page_text=text),
        "whole answer check": whole,
        "whole, with a quotation": lambda text, s: whole(text, f'{s} It says "{s}".'),
    }


def time_job(checks: dict[str, object], job: tuple[str, str, str], n: int, round_: int
             ) -> dict[str, tuple[float, float]]:
    """(fresh, kept) seconds of each check on one job: its page read afresh (its text made
    one no cache holds), then a second answer on the same page (kept)."""
    text, first, second = job
    out: dict[str, tuple[float, float]] = {}
    for k, (name, run) in enumerate(checks.items()):
        # a text no check has read yet: no cache holds it
        page = text + chr(0x2460 + n % 20) * (1 + k + len(checks) * round_)
        started = time.perf_counter()
        run(page, first)  # type: ignore[operator]
        fresh = time.perf_counter() - started
        started = time.perf_counter()
        run(page, second)  # type: ignore[operator]
        out[name] = (fresh, time.perf_counter() - started)
    return out


def time_checks(jobs: list[tuple[str, str, str]], round_: int = 0
                ) -> dict[str, tuple[list[float], list[float]]]:
    """:func:`time_job` on every job, gathered by check."""
    checks = _checks()
    times: dict[str, tuple[list[float], list[float]]] = {}
    for n, job in enumerate(jobs):
        for name, (fresh, kept) in time_job(checks, job, n, round_).items():
            times.setdefault(name, ([], []))[0].append(fresh)
            times[name][1].append(kept)
    return times


def _serve_timing(jobs_file: Path) -> None:
    """A timing worker: for each line "N ROUND" on stdin, job N timed, one JSON line out."""
    jobs = [tuple(job) for job in json.loads(jobs_file.read_text())]
    checks = _checks()
    time_job(checks, jobs[0], 19, 99)  # the lazy imports, not timed
    for line in sys.stdin:
        n, round_ = (int(x) for x in line.split())
        print(json.dumps(time_job(checks, jobs[n], n, round_)), flush=True)  # type: ignore[arg-type]


def print_times(times: dict[str, tuple[list[float], list[float]]], label: str = "") -> None:
    def p90(xs: list[float]) -> float:
        return 1000 * sorted(xs)[int(len(xs) * 0.9)]

    for name, (fresh, kept) in times.items():
        print(f"  {label}{name:26} fresh {1000 * statistics.median(fresh):6.2f} ms (p90 "
              f"{p90(fresh):6.2f}), kept {1000 * statistics.median(kept):6.2f} ms (p90 "
              f"{p90(kept):6.2f})")


def timing_50k(pages: list[Page], against: Path | None = None, rounds: int = 6) -> None:
    """The 50 KB timing (:func:`time_checks`); with ``against`` (a checkout whose ``src``
    holds another version of readreceipt, main's), both versions in worker processes, in
    interleaved rounds, so that both meet the same load."""
    jobs = timing_jobs(pages)
    if against is None:
        print(f"on 50 KB pages ({len(jobs)} pages, each read afresh, then a second answer on "
              "it kept); medians:")
        print_times(time_checks(jobs))
        return
    import os
    import tempfile

    versions = {"this": HERE.parent / "src", "against": against / "src"}
    gathered: dict[str, dict[str, tuple[list[float], list[float]]]] = {v: {} for v in versions}
    with tempfile.TemporaryDirectory() as tmp:
        jobs_file = Path(tmp) / "jobs.json"
        jobs_file.write_text(json.dumps(jobs))
        workers = {version: subprocess.Popen(
            [sys.executable, __file__, "--timing-serve", str(jobs_file)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(src)}) for version, src in versions.items()}
        try:
            for round_ in range(rounds):
                for n in range(len(jobs)):
                    # each job on both versions in turn, the one first alternating: the two
                    # meet the same load within a fraction of a second
                    order = list(workers) if (n + round_) % 2 == 0 else list(workers)[::-1]
                    for version in order:
                        worker = workers[version]
                        assert worker.stdin is not None and worker.stdout is not None
                        worker.stdin.write(f"{n} {round_}\n")
                        worker.stdin.flush()
                        for name, (fresh, kept) in json.loads(worker.stdout.readline()).items():
                            have = gathered[version].setdefault(name, ([], []))
                            have[0].append(fresh)
                            have[1].append(kept)
        finally:
            for worker in workers.values():
                assert worker.stdin is not None
                worker.stdin.close()
                worker.wait()
    print(f"on 50 KB pages ({len(jobs)} pages x {rounds} rounds, each read afresh, then a "
          f"second answer on it kept), this code and {against}'s interleaved job by job "
          "in two worker processes (the machine may be shared); medians:")
    for version in versions:
        print_times(gathered[version], f"{version:8} ")


def _keyed(value: object) -> object:
    """A counter keyed by tuples as JSON: the parts joined with " | "."""
    if isinstance(value, dict):
        return {" | ".join(k) if isinstance(k, tuple) else k: v for k, v in value.items()}
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=None, help="pages per source, at most")
    parser.add_argument("--per-page", type=int, default=6, help="sentences per page")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--readability", type=Path, default=None)
    parser.add_argument("--git-pages", type=git_pages_arg, action="append", default=[],
                        metavar="NAME=GITDIR:FOLDER")
    parser.add_argument("--held-out-only", action="store_true")
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--against", type=Path, default=None,
                        help="time the 50 KB pages against this checkout's src (main's)")
    parser.add_argument("--timing-only", action="store_true",
                        help="only the 50 KB timing")
    parser.add_argument("--timing-serve", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.timing_serve is not None:  # a worker of the interleaved timing
        _serve_timing(args.timing_serve)
        return 0
    if args.timing_only:
        timing_50k(load_pages(args.pages, None), args.against)
        return 0
    if not ARTICLES.is_dir() and args.readability is None and not args.git_pages:
        print(f"no pages at {ARTICLES}: nothing measured")
        return 0
    for name, git_dir, folder in args.git_pages:
        if not _git_html_paths(git_dir, folder):
            print(f"claims.py: --git-pages {name}: no .html file under {folder} at HEAD of "
                  f"{git_dir} (a bare git directory)", file=sys.stderr)
            return 2
    r = run(args)
    report(r, args)
    if not args.held_out_only:
        timing_50k(load_pages(args.pages, None), args.against)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({k: _keyed(v) for k, v in r.items() if k in (
            "pages", "answers", "answers_flagged", "computed", "names")}, default=str, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
