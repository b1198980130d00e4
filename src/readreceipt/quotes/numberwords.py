"""Numbers written in words: "three", "twenty-three", "a dozen", "dreiundzwanzig", "dreißig",
"quatre-vingt-dix", "veintitrés", "trentuno", "drieëntwintig", "двадцать три", 三千五百万.

:func:`word_value` reads one word (a German, Dutch, Italian or Spanish compound is cut into
its parts: "dreihundertfünfzig" is drei+hundert+fünfzig); :func:`combine` reads a run of
such words as one number the way the languages build them (units after tens, "and"/"und"/
"et"/"y"/"e"/"en" between, a hundred and a thousand multiplying what stands before them);
:func:`cjk_value` reads a run of CJK numerals (the reading :mod:`.pagereadings` makes of
a page, exactly: 五六, "five or six", is not one number).

Invariants: a word is read only when the whole of it is a number (so "tender" is never
"ten"+"der" and "elfenbein" never "elf"); a run is cut where the grammar breaks ("three
four" is two numbers); the parts of a compound are at most :data:`MAX_PARTS`, a word at most
:data:`MAX_WORD_CHARS`: the cost of a word is bounded.
"""

# ruff: noqa: RUF001 - the tables hold the numerals people write
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CONNECTORS", "MAX_PARTS", "MAX_WORD_CHARS", "ORDINALS", "Part", "cjk_value",
           "combine", "ordinal_value", "word_value"]

MAX_WORD_CHARS = 48
MAX_PARTS = 10


@dataclass(frozen=True)
class Part:
    value: int
    kind: str  # "unit" (0-99 as one word), "hundred", "scale" (1000 and up), "and"


def _words(words: str) -> list[str]:
    return words.split()


def _table() -> dict[str, Part]:
    t: dict[str, Part] = {}

    def units(words: str, start: int = 0) -> None:
        for i, w in enumerate(words.split()):
            if w != "-":
                t.setdefault(w, Part(start + i, "unit"))

    def tens(words: str) -> None:
        for i, w in enumerate(words.split()):
            for form in w.split("/"):
                t.setdefault(form, Part(20 + 10 * i, "unit"))

    def put(value: int, kind: str, words: str) -> None:
        for w in words.split():
            t.setdefault(w, Part(value, kind))

    # English
    units("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen")
    tens("twenty thirty forty fifty sixty seventy eighty ninety")
    put(100, "hundred", "hundred")
    put(1000, "scale", "thousand")
    put(10**6, "scale", "million")
    put(10**9, "scale", "billion")
    put(12, "scale", "dozen")
    # German
    units("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
          "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn")
    put(1, "unit", "ein eine einen einem einer")
    put(2, "unit", "zwo")
    put(30, "unit", "dreissig")
    tens("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")
    put(100, "hundred", "hundert")
    put(1000, "scale", "tausend")
    put(12, "scale", "dutzend")
    # French
    units("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze "
          "quinze seize")
    put(1, "unit", "une")
    tens("vingt/vingts trente quarante cinquante soixante septante quatre-vingt/quatre-vingts "
         "nonante")
    put(80, "unit", "huitante octante")
    put(100, "hundred", "cent cents")
    put(1000, "scale", "mille")
    put(12, "scale", "douzaine")
    # Spanish
    units("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece "
          "catorce quince dieciséis diecisiete dieciocho diecinueve")
    put(1, "unit", "un una")
    put(16, "unit", "dieciseis")
    tens("veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa")
    put(20, "unit", "veinti")  # the compound's first part: veintitrés
    put(3, "unit", "trés")
    put(2, "unit", "dós")
    put(6, "unit", "séis")
    put(100, "hundred", "cien ciento")
    for i, w in enumerate(_words("doscientos trescientos cuatrocientos quinientos seiscientos "
                           "setecientos ochocientos novecientos")):
        put(100 * (i + 2), "unit", w + " " + w[:-2] + "as")
    put(1000, "scale", "mil")
    put(12, "scale", "docena")
    # Italian
    units("zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
          "quattordici quindici sedici diciassette diciotto diciannove")
    put(3, "unit", "tré")
    tens("venti trenta quaranta cinquanta sessanta settanta ottanta novanta")
    for w, v in (("vent", 20), ("trent", 30), ("quarant", 40), ("cinquant", 50),
                 ("sessant", 60), ("settant", 70), ("ottant", 80), ("novant", 90)):
        put(v, "unit", w)  # elided before uno, otto: trentuno, quarantotto
    put(100, "hundred", "cento")
    put(1000, "scale", "mille mila")
    put(12, "scale", "dozzina")
    # Portuguese
    units("zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze "
          "quinze dezesseis dezessete dezoito dezenove")
    put(1, "unit", "uma")
    put(2, "unit", "duas")
    put(14, "unit", "quatorze")
    put(16, "unit", "dezasseis")
    put(17, "unit", "dezassete")
    put(19, "unit", "dezanove")
    tens("vinte trinta quarenta cinquenta sessenta setenta oitenta noventa")
    put(100, "hundred", "cem cento")
    for i, w in enumerate(_words("duzentos trezentos quatrocentos quinhentos seiscentos setecentos "
                           "oitocentos novecentos")):
        put(100 * (i + 2), "unit", w + " " + w[:-2] + "as")
    put(12, "scale", "dúzia")
    # Dutch
    units("nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien "
          "vijftien zestien zeventien achttien negentien")
    put(1, "unit", "één")
    tens("twintig dertig veertig vijftig zestig zeventig tachtig negentig")
    put(100, "hundred", "honderd")
    put(1000, "scale", "duizend")
    put(12, "scale", "dozijn")
    # Russian (the nominative, and the genitive that follows "около", "более")
    units("ноль один два три четыре пять шесть семь восемь девять десять одиннадцать "
          "двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать "
          "восемнадцать девятнадцать")
    put(1, "unit", "одна одно")
    put(2, "unit", "две двух")
    put(3, "unit", "трёх трех")
    put(4, "unit", "четырёх четырех")
    put(5, "unit", "пяти")
    put(6, "unit", "шести")
    put(7, "unit", "семи")
    put(8, "unit", "восьми")
    put(9, "unit", "девяти")
    put(10, "unit", "десяти")
    tens("двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто")
    put(20, "unit", "двадцати")
    put(30, "unit", "тридцати")
    put(100, "hundred", "сто")
    for i, w in enumerate(_words("двести триста четыреста пятьсот шестьсот семьсот "
                                 "восемьсот девятьсот")):
        put(100 * (i + 2), "unit", w)
    put(1000, "scale", "тысяча тысячи тысяч")
    return t


#: Lowered word -> what it is worth. A word whose value is 1 ("one", "ein", "un") is kept
#: for compounds and runs ("one hundred", "einundzwanzig"); alone it is an article.
WORDS: dict[str, Part] = _table()
#: Words between the parts of one number.
CONNECTORS: frozenset[str] = frozenset(("and", "und", "et", "y", "e", "en", "ën", "i", "и"))
#: Words that are a number only inside a run, never alone: articles and pronouns.
NOT_ALONE: frozenset[str] = frozenset((
    "one", "ein", "eine", "einen", "einem", "einer", "eins", "un", "une", "uno", "una", "um",
    "uma", "een", "één", "один", "одна", "одно", "cent", "e", "i", "y", "en", "zero", "null",
    "nul", "zéro", "cero", "ноль", "veinti", "vent", "trent", "quarant", "cinquant",
    "sessant", "settant", "ottant", "novant", "tré", "trés", "dós", "séis", "sei", "sept",
    "neuf", "onze", "due", "sto", "dos", "once",
))

#: The first part of each Dutch and German compound ordered unit+tens ("dreiundzwanzig").
_REVERSED_CONNECTORS = frozenset(("und", "en", "ën"))
_MAX_PART_CHARS = max(len(w) for w in WORDS)


def _split(word: str) -> list[Part] | None:
    """The parts of a compound ("dreihundertfünfzig"), longest part first; None if the word
    is not made of number parts alone."""
    if word in WORDS:
        return [WORDS[word]]
    if len(word) > MAX_WORD_CHARS:
        return None
    parts: list[Part] = []
    at = 0
    while at < len(word):
        if len(parts) >= MAX_PARTS:
            return None
        for size in range(min(_MAX_PART_CHARS, len(word) - at), 1, -1):
            piece = word[at: at + size]
            part = WORDS.get(piece)
            if part is None and piece in _REVERSED_CONNECTORS and parts:
                part = Part(0, "and")
            if part is not None:
                parts.append(part)
                at += size
                break
        else:
            return None
    return parts


def word_value(word: str) -> list[Part] | None:
    """The parts of one lowered word (hyphens already cut), or None if it is no number."""
    if word in CONNECTORS:
        return [Part(0, "and")]
    return _split(word)


def combine(parts: list[Part]) -> list[tuple[int, int]]:
    """The numbers a run of parts writes: [(value, parts used)], read left to right; a run
    the grammar breaks is cut there and read on as a new number."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(parts):
        value, used = _one(parts[i:])
        if used == 0:
            i += 1
            continue
        out.append((value, used))
        i += used
    return out


def _fits(last: int, value: int) -> bool:
    """Whether a unit-part ``value`` may follow the unit-part ``last`` inside one number:
    units after tens ("twenty-three"), after ten ("dix-sept"), teens after the French 60 and
    80 ("soixante-dix"), anything under a hundred after hundreds ("doscientos tres")."""
    if last == 0:
        return True
    if last >= 100:
        return value < 100
    if last == 10:
        return value < 10
    if last >= 20 and last % 10 == 0:
        return value < 10 or (last in (60, 80) and 10 <= value < 20)
    return False


def _one(parts: list[Part]) -> tuple[int, int]:
    total = current = 0
    last = 0  # the last unit-part added since the last multiplier (0: none)
    last_scale = 10**16
    reversed_and = False  # "drei und zwanzig": a unit, then "und", then its tens
    used = 0
    for index, part in enumerate(parts):
        if part.kind == "and":
            if used == 0 or index + 1 >= len(parts) or parts[index + 1].kind == "and":
                break
            reversed_and = 0 < last < 10
            continue
        if part.kind == "unit":
            if reversed_and:
                if not (20 <= part.value < 100 and part.value % 10 == 0):
                    break
                current += part.value
                last = 1  # nothing may follow but a multiplier
                reversed_and = False
            elif _fits(last, part.value):
                current += part.value
                last = part.value
            else:
                break
        elif part.kind == "hundred":
            if current % 1000 >= 100 or reversed_and:
                break
            current = (current or 1) * part.value
            last = 100
        else:  # a scale: thousand, million, dozen
            if part.value >= last_scale or reversed_and:
                break
            total += (current or 1) * part.value
            current, last, last_scale = 0, 0, part.value
        used = index + 1
    return total + current, used


# ------------------------------------------------------------------------------- ordinals

def _ordinals() -> dict[str, int]:
    t: dict[str, int] = {}
    rows = [
        (2, "second zweite zweiten zweiter zweites zweitem deuxième seconde segundo segunda "
            "secondo seconda tweede второй второе вторая второго druhý druhá"),
        (3, "third dritte dritten dritter drittes drittem troisième tercero tercera tercer "
            "terzo terza terceiro terceira derde третий третье третья третьего třetí"),
        (4, "fourth vierte vierten vierter viertes quatrième cuarto cuarta quarto quarta "
            "vierde четвёртый четвертый четвёртое čtvrtý"),
        (5, "fifth fünfte fünften fünfter fünftes cinquième quinto quinta vijfde пятый pátý"),
        (6, "sixth sechste sechsten sechster sixième sexto sexta sesto sesta zesde шестой"),
        (7, "seventh siebte siebten siebter septième séptimo séptima settimo settima sétimo "
            "sétima zevende седьмой"),
        (8, "eighth achte achten achter huitième octavo octava ottavo ottava oitavo oitava "
            "achtste восьмой"),
        (9, "ninth neunte neunten neunter neuvième noveno novena nono nona negende девятый"),
        (10, "tenth zehnte zehnten zehnter dixième décimo décima decimo decima tiende "
             "десятый"),
        (11, "eleventh elfte elften onzième undécimo undicesimo elfde"),
        (12, "twelfth zwölfte zwölften douzième duodécimo dodicesimo twaalfde"),
        (20, "twentieth zwanzigste zwanzigsten vingtième vigésimo ventesimo twintigste"),
        (100, "hundredth hundertste centième centésimo centesimo honderdste"),
    ]
    for value, words in rows:
        for w in words.split():
            t[w] = value
    return t


#: Lowered ordinal word -> its rank. "first" and its kin are left out: "first" is mostly
#: not a rank ("at first", "the first time"); so is "second" after "a", "per", "split".
ORDINALS: dict[str, int] = _ordinals()


def ordinal_value(word: str) -> int | None:
    return ORDINALS.get(word)


# ------------------------------------------------------------------------------ CJK numerals

_CJK_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
               "六": 6, "七": 7, "八": 8, "九": 9, "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5,
               "陆": 6, "柒": 7, "捌": 8, "玖": 9}
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}
#: Every character a CJK numeral run may hold.
CJK_NUMERALS = "".join((*_CJK_DIGITS, *_CJK_SMALL, *_CJK_LARGE))


def cjk_value(run: str) -> int | None:
    """``run`` (CJK numerals, myriads included: 三千五百万) as one number, or None where it
    is not one exact number (五六, "five or six"; 二二二 without units reads digit by digit,
    as years are written: 二〇二六)."""
    if not run or len(run) > 24:
        return None
    if not any(ch in _CJK_SMALL or ch in _CJK_LARGE for ch in run):
        if len(run) == 2 and "〇" not in run and "零" not in run:
            return None
        if any(ch not in _CJK_DIGITS for ch in run):
            return None
        return int("".join(str(_CJK_DIGITS[ch]) for ch in run))
    total = 0
    section = 0  # below the current myriad
    digit: int | None = None
    last_small = 10**4
    last_large = 10**16
    for ch in run:
        if ch in _CJK_DIGITS:
            if _CJK_DIGITS[ch] == 0:
                if digit is not None:
                    return None
                continue
            if digit is not None:
                return None
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_SMALL:
            unit = _CJK_SMALL[ch]
            if unit >= last_small:
                return None
            section += (1 if digit is None else digit) * unit
            digit, last_small = None, unit
        else:
            large = _CJK_LARGE[ch]
            if large >= last_large:
                return None
            section += digit or 0
            if section == 0:
                return None
            total += section * large
            section, digit, last_small, last_large = 0, None, 10**4, large
    return total + section + (digit or 0)
