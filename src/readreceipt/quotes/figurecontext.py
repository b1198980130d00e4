"""The answer's side of the claim check: which of its words a figure is said with.

:func:`prepare` blanks (with spaces, so offsets stay) what is not the answer's own statement
about the page: code, URLs and link targets, markup tags, block quotes and the quotations
long enough for the quotation check (their figures are that check's). :func:`sentence_of`
finds the sentence a figure stands in; :func:`context_stems` its words, folded and cut to a
stem ("crossings" -> "crossi", so "crossing" on the page holds it), the function words of the
languages the tables read left out, the nearest first; in Chinese and Japanese, which write
no spaces, the pairs of characters around the figure. :func:`attributes` says whether a
sentence names a source (for a session's final message, :func:`..claims.check_claims`'s
``attributed`` mode).

Every pattern here is bounded; a sentence is at most :data:`SENTENCE_CHARS` either side.
"""

# ruff: noqa: RUF001 - the words and marks of the languages read
from __future__ import annotations

import re

from readreceipt.quotes.dates import MONTHS
from readreceipt.quotes.figureindex import fold_words
from readreceipt.quotes.figures import Figure
from readreceipt.quotes.marks import quoted_spans
from readreceipt.quotes.numberwords import ORDINALS, WORDS
from readreceipt.quotes.scripts import long_enough
from readreceipt.quotes.units import CURRENCIES, HEDGES, PERCENT, UNITS

__all__ = ["MAX_STEMS", "SENTENCE_CHARS", "attributes", "context_stems", "prepare",
           "says_computed", "sentence_of", "worth_checking"]

SENTENCE_CHARS = 300
MAX_STEMS = 12

_BLANKED = re.compile(
    r"```.{0,20000}?```|~~~.{0,20000}?~~~|`[^`\n]{1,400}`"  # code
    r"|\]\([^)\s]{1,2000}\)"  # a markdown link's target
    r"|\b(?:https?|ftp)://[^\s<>\"')\]]{1,2000}|\bwww\.[^\s<>\"')\]]{1,2000}"  # URLs
    r"|<[A-Za-z/!][^<>\n]{0,400}>"  # markup tags
    r"|^ {0,3}>[^\n]{0,20000}",  # block quotes (the quotation check's)
    re.S | re.M)
_PARAGRAPH = re.compile(r"\n[ \t]{0,40}\n")


def prepare(answer: str) -> str:
    """``answer`` with what the claim check does not read made spaces (offsets kept)."""
    chars = list(answer)

    def blank(start: int, end: int) -> None:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "

    for m in _BLANKED.finditer(answer):
        blank(m.start(), m.end())
    offset = 0
    for paragraph in _PARAGRAPH.split(answer):
        start = answer.find(paragraph, offset)
        offset = start + len(paragraph)
        for at, passage, _attribute in quoted_spans(paragraph):
            if long_enough(passage):  # ``at`` is where its opening mark stands
                inner = paragraph.find(passage, at)
                inner = at if inner < 0 else inner
                blank(start + inner, start + inner + len(passage))
    return "".join(chars)


# A full stop ends a sentence before a capital, a quotation mark or the end; before a digit,
# a "$" or a lower-case word it is an abbreviation's ("Orig. $1,599", "Sept. 30", "approx. 3").
_BOUNDARY = re.compile(r"[.!?;](?=[\"'\u201d\u00bb)\]]{0,2}(?:\s{1,4}[^\W\d_]|\s{0,4}$))"
                       r"|[!?;](?=\s)|[\u3002\uff01\uff1f\uff1b]|\n")


def sentence_of(answer: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) of the sentence holding the figure at [start, end)."""
    low = max(0, start - SENTENCE_CHARS)
    begin = low
    for m in _BOUNDARY.finditer(answer, low, start):
        if not (m.group() == "." and _not_an_end(answer, m.start())):
            begin = m.end()
    high = min(len(answer), end + SENTENCE_CHARS)
    stop = high
    for m in _BOUNDARY.finditer(answer, end, high):
        if m.group() == "." and _not_an_end(answer, m.start()):
            continue
        stop = m.start()
        break
    return begin, stop


def _not_an_end(text: str, at: int) -> bool:
    """A full stop that ends an abbreviation ("Dr. Roe") or a lower-case word before one."""
    before = text[max(0, at - 6): at]
    word = re.search(r"[^\W\d_]{1,6}$", before)
    if word is None:
        return False
    nxt = re.match(r"[\s\"'\u201d\u00bb)\]]{0,6}([^\W\d_])", text[at + 1: at + 8])
    return word.group().lower() in _ABBREVIATIONS and bool(nxt) and (
        len(word.group()) <= 2 or (nxt is not None and nxt.group(1).isupper()))


_ABBREVIATIONS = frozenset(("mr", "mrs", "ms", "dr", "st", "no", "nr", "vs", "ca", "approx",
                            "e.g", "i.e", "etc", "mio", "mrd", "bn", "inc", "ltd", "co", "jr",
                            "sr", "prof", "z", "b", "bzw", "vgl", "u", "a", "s", "p", "pp",
                            "fig", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                            "sept", "oct", "nov", "dec", "okt", "dez", "tsd"))


def _stopwords() -> frozenset[str]:
    words = """
    the a an and or of to in on at for with by from into over under about as is was are were
    be been being has have had do does did will would can could should may might must it its
    this that these those there here their they them he she his her him we our you your i me
    my not no but if than then so such also only just more most less very which who whom
    whose what when where while how all any each both some other another same own per via
    page article site website report post says said say states stated according reports
    notes note shows show wrote writes text source sources document told mentions mentioned
    der die das den dem des ein eine einen einem einer und oder von zu im in am an auf aus
    mit für ist sind war waren wird werden wurde wurden hat haben hatte nach bei als auch
    nicht noch nur laut sich es er sie wir ihr dass seite artikel zufolge um über vor
    le la les un une des du de et ou en au aux dans sur par pour avec est sont était été a
    ont selon qui que ne pas plus ce cette ces il elle ils elles son sa ses leur page
    el los las unos unas y o en del al con por para es son fue fueron ha han según que no
    se lo su sus pagina página artículo
    il lo gli i una di da con per tra fra è sono era stato ha hanno secondo che non si
    o os as um uma dos das do da em no na nos nas com por para é são foi ser tem segundo
    de het een en van in op te met voor bij is zijn was waren heeft hebben volgens dat niet
    и в на с по из за от до для что как это не но или его ее их был была были есть
    согласно также
    a v na s z do za od pro že se je jsou byl byla bylo podle
    """
    return frozenset(fold_words(w) for w in words.split())


_STOP = _stopwords()
#: Words a figure is made of (units, currencies, hedges, months, number words), which say
#: nothing about what it counts.
_FIGURE_WORDS = frozenset(fold_words(w) for w in (*UNITS, *CURRENCIES, *HEDGES, *PERCENT,
                                                  *MONTHS, *WORDS, *ORDINALS)
                          if " " not in w)
_LATIN_WORD = re.compile(r"[^\W\d_]{2,40}")
_HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,40}")
_HANGUL = re.compile(r"[\uac00-\ud7a3]{2,40}")
_CJK_NUMERAL_CHARS = frozenset("〇零一二两三四五六七八九十百千万萬亿億兆年月日")


def stem(word: str) -> str:
    """A folded word cut to what its other forms share ("crossings" -> "crossi")."""
    if len(word) <= 4:
        return word
    return word[: max(4, min(6, len(word) - 2))]


def context_stems(answer: str, sentence: tuple[int, int], figure: Figure,
                  figures: list[Figure]) -> list[str]:
    """The stems of the words ``figure`` is said with, the nearest first."""
    begin, end = sentence
    spans = [(f.start, f.end) for f in figures if f.start < end and f.end > begin]
    scored: list[tuple[int, str]] = []
    centre = (figure.start + figure.end) // 2
    for m in _LATIN_WORD.finditer(answer, begin, end):
        if any(s <= m.start() < e for s, e in spans):
            continue
        if _HAN_KANA.fullmatch(m.group()) or _HANGUL.search(m.group()):
            continue
        word = fold_words(m.group())
        if word in _STOP or word in _FIGURE_WORDS or len(word) < 3:
            continue
        scored.append((abs(m.start() - centre), stem(word)))
    for m in _HAN_KANA.finditer(answer, begin, end):
        run = m.group()
        for i in range(len(run) - 1):
            pair = run[i:i + 2]
            if any(ch in _CJK_NUMERAL_CHARS for ch in pair):
                continue
            scored.append((abs(m.start() + i - centre), pair))
    for m in _HANGUL.finditer(answer, begin, end):
        scored.append((abs(m.start() - centre), m.group()[:2]))
    scored.sort()
    out: list[str] = []
    for _, s in scored:
        if s not in out:
            out.append(s)
        if len(out) >= MAX_STEMS:
            break
    return out


_ATTRIBUTION = re.compile(
    r"according to|the (?:page|article|site|website|report|post|study|document|source|"
    r"paper|blog|announcement|release|story)\b|\b(?:it|they) (?:says|said|states|reports|"
    r"notes|shows|writes)|\bper the\b|https?://|\]\(|\blaut\b|zufolge|die seite|der artikel|"
    r"\bselon\b|d'après|la page|l'article|según|de acuerdo con|la página|el artículo|"
    r"\bsecondo\b|l'articolo|de acordo com|a página|o artigo|\bvolgens\b|de pagina|"
    r"het artikel|согласно|по данным|据|根据|によると|によれば|에 따르면", re.I)


def attributes(answer: str, sentence: tuple[int, int]) -> bool:
    """Whether the sentence names a source: "according to", "the page says", a link."""
    return _ATTRIBUTION.search(answer, *sentence) is not None


#: Words by which an answer says a figure is its own reckoning from the page's figures
#: (a sum, a difference, a share, a change): only then is a figure no value of the page
#: holds tried as a computation (a computed reading for every figure would explain too
#: many altered ones: bench/claims.py measured 40 of the misses so).
_TOTAL = re.compile(
    r"\b(?:in total|a total of|total of|total(?:s|l?ing|l?ed)|combined|together|altogether|"
    r"in all|sum of|add(?:s|ed|ing)? up to|difference|"
    r"insgesamt|zusammen|differenz|unterschied|"
    r"au total|en tout|différence|en total|en conjunto|diferencia|in totale|"
    r"complessivamente|differenza|no total|ao todo|diferença|in totaal|verschil|"
    r"всего|итого|разница)\b|合计|共计|总共|合計|합계|차이", re.I)
_CHANGE = re.compile(
    r"\b(?:(?:rose|risen|grew|grown|increased|fell|fallen|dropped|declined|decreased|jumped|"
    r"climbed) by|(?:rose|risen|grew|grown|increased|fell|fallen|dropped|declined|decreased|"
    r"jumped|climbed|surged|soared|plunged|slumped)(?= (?:about |roughly |nearly |almost |"
    r"some |around |more than |over |just )?[\d~])|"
    r"an? (?:increase|decrease|rise|drop|fall|gain|loss|jump) of)", re.I)


def says_computed(answer: str, sentence: tuple[int, int]) -> str | None:
    """How the sentence says its figure is reckoned from others: "total" ("in total", "a
    difference of", "insgesamt", "au total": a sum, a difference, a share) or "change"
    ("rose by", "grew 17 %": a difference, a rate of change); None when it does not."""
    if _TOTAL.search(answer, *sentence):
        return "total"
    if _CHANGE.search(answer, *sentence):
        return "change"
    return None


def worth_checking(figure: Figure, text: str) -> bool:
    """A number in words is a figure when it counts something: not "one of", "a second"."""
    low = text.lower().strip()
    return low not in ("second", "seconde", "segundo", "secondo")
