"""Numbers written in words: "three", "twenty-three", "a dozen", "dreiundzwanzig", "dreißig",
"quatre-vingt-dix", "veintitrés", "trentuno", "drieëntwintig", "двадцать три", 三千五百万.

:func:`word_value` reads one word (a German, Dutch, Italian or Spanish compound is cut into
its parts: "dreihundertfünfzig" is drei+hundert+fünfzig); :func:`combine` reads a run of
such words as one number the way the languages build them (units after tens, "and"/"und"/
"et"/"y"/"e"/"en" between, a hundred and a thousand multiplying what stands before them);
:func:`fraction_value` reads a German or Dutch fraction written as one word ("dreieinhalb",
"anderthalb", "tweeënhalf"); :func:`cjk_value` reads a run of CJK numerals (the reading
:mod:`.pagereadings` makes of a page, exactly: 五六, "five or six", is not one number).

Invariants: a word is read only when the whole of it is a number (so "tender" is never
"ten"+"der" and "elfenbein" never "elf"); a run is cut where the grammar breaks ("three
four" is two numbers); the parts of a compound are at most :data:`MAX_PARTS`, a word at most
:data:`MAX_WORD_CHARS`: the cost of a word is bounded.
"""

# ruff: noqa: RUF001 - the tables hold the numerals people write
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CJK_EVERYDAY", "CJK_MYRIADS", "CJK_NUMERALS", "CONNECTORS", "FRACTION_ENDINGS",
           "MAX_PARTS", "MAX_WORD_CHARS", "MULTIPLICATIVE_ENDINGS", "MULTIPLICATIVE_WORDS",
           "ORDINALS", "Part",
           "cjk_digits_of", "cjk_value", "combine", "fraction_value", "multiplicative_value",
           "ordinal_value", "word_value"]

MAX_WORD_CHARS = 48
MAX_PARTS = 10


@dataclass(frozen=True)
class Part:
    value: int
    kind: str  # "unit" (0-99 as one word), "hundred", "scale" (1000 and up), "and"


@dataclass(frozen=True)
class _Language:
    """One language's number words, each field a space-separated list of lowered words."""

    units: str  # zero, one, two...: worth their place in the list
    tens: str  # twenty, thirty... ninety (a slash between the forms of one)
    hundred: str = ""
    thousand: str = ""
    dozen: str = ""
    hundreds: str = ""  # two hundred ... nine hundred as one word (and its -as feminine)
    feminine_hundreds: bool = False
    more: tuple[tuple[int, str, str], ...] = ()  # (value, kind, words): the other forms


_LANGUAGES = (
    _Language(  # English
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen",
        "twenty thirty forty fifty sixty seventy eighty ninety", "hundred", "thousand",
        "dozen", more=((10**6, "scale", "million"), (10**9, "scale", "billion"))),
    _Language(  # German
        "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
        "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn",
        "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig", "hundert",
        "tausend", "dutzend",
        more=((1, "unit", "ein eine einen einem einer"), (2, "unit", "zwo"),
              (30, "unit", "dreissig"))),
    _Language(  # French
        "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze "
        "quinze seize",
        "vingt/vingts trente quarante cinquante soixante septante "
        "quatre-vingt/quatre-vingts nonante", "cent cents", "mille", "douzaine",
        more=((1, "unit", "une"), (80, "unit", "huitante octante"))),
    _Language(  # Spanish
        "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece "
        "catorce quince dieciséis diecisiete dieciocho diecinueve",
        "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa", "cien ciento",
        "mil", "docena",
        "doscientos trescientos cuatrocientos quinientos seiscientos setecientos "
        "ochocientos novecientos", feminine_hundreds=True,
        # veinti: the compound's first part (veintitrés); trés, dós, séis: its last
        more=((1, "unit", "un una"), (16, "unit", "dieciseis"), (20, "unit", "veinti"),
              (3, "unit", "trés"), (2, "unit", "dós"), (6, "unit", "séis"))),
    _Language(  # Italian
        "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
        "quattordici quindici sedici diciassette diciotto diciannove",
        "venti trenta quaranta cinquanta sessanta settanta ottanta novanta", "cento",
        "mille mila", "dozzina",
        # the tens elided before uno, otto: trentuno, quarantotto
        more=((3, "unit", "tré"), (20, "unit", "vent"), (30, "unit", "trent"),
              (40, "unit", "quarant"), (50, "unit", "cinquant"), (60, "unit", "sessant"),
              (70, "unit", "settant"), (80, "unit", "ottant"), (90, "unit", "novant"))),
    _Language(  # Portuguese
        "zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze "
        "quinze dezesseis dezessete dezoito dezenove",
        "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa", "cem cento",
        "", "dúzia",
        "duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos "
        "novecentos", feminine_hundreds=True,
        more=((1, "unit", "uma"), (2, "unit", "duas"), (14, "unit", "quatorze"),
              (16, "unit", "dezasseis"), (17, "unit", "dezassete"),
              (19, "unit", "dezanove"))),
    _Language(  # Dutch
        "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien "
        "vijftien zestien zeventien achttien negentien",
        "twintig dertig veertig vijftig zestig zeventig tachtig negentig", "honderd",
        "duizend", "dozijn", more=((1, "unit", "één"),)),
    _Language(  # Russian (the nominative, and the genitive that follows "около", "более")
        "ноль один два три четыре пять шесть семь восемь девять десять одиннадцать "
        "двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать "
        "восемнадцать девятнадцать",
        "двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто",
        "сто", "тысяча тысячи тысяч", "",
        "двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот",
        more=((1, "unit", "одна одно"), (2, "unit", "две двух"), (3, "unit", "трёх трех"),
              (4, "unit", "четырёх четырех"), (5, "unit", "пяти"), (6, "unit", "шести"),
              (7, "unit", "семи"), (8, "unit", "восьми"), (9, "unit", "девяти"),
              (10, "unit", "десяти"), (20, "unit", "двадцати"), (30, "unit", "тридцати"))),
    _Language(  # Polish (the nominative, and the genitive after "ponad", "około")
        "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście "
        "dwanaście trzynaście czternaście piętnaście szesnaście siedemnaście osiemnaście "
        "dziewiętnaście",
        "dwadzieścia trzydzieści czterdzieści pięćdziesiąt sześćdziesiąt siedemdziesiąt "
        "osiemdziesiąt dziewięćdziesiąt", "sto", "tysiąc tysiące tysięcy", "tuzin",
        "dwieście trzysta czterysta pięćset sześćset siedemset osiemset dziewięćset",
        more=((1, "unit", "jedna jedno"), (2, "unit", "dwie dwóch dwu"),
              (3, "unit", "trzech"), (4, "unit", "czterech"), (5, "unit", "pięciu"),
              (6, "unit", "sześciu"), (7, "unit", "siedmiu"), (8, "unit", "ośmiu"),
              (9, "unit", "dziewięciu"), (10, "unit", "dziesięciu"),
              (20, "unit", "dwudziestu"), (30, "unit", "trzydziestu"),
              (40, "unit", "czterdziestu"), (50, "unit", "pięćdziesięciu"))),
    _Language(  # Czech (the nominative, and the other cases a count takes: "třiceti")
        "nula jedna dva tři čtyři pět šest sedm osm devět deset jedenáct dvanáct třináct "
        "čtrnáct patnáct šestnáct sedmnáct osmnáct devatenáct",
        "dvacet třicet čtyřicet padesát šedesát sedmdesát osmdesát devadesát", "sto",
        "tisíc tisíce tisícům tisících", "tucet",
        more=((1, "unit", "jeden jedno"), (2, "unit", "dvě dvou"), (3, "unit", "tří třech"),
              (4, "unit", "čtyřech"), (5, "unit", "pěti"), (6, "unit", "šesti"),
              (7, "unit", "sedmi"), (8, "unit", "osmi"), (9, "unit", "devíti"),
              (10, "unit", "deseti"), (20, "unit", "dvaceti"), (30, "unit", "třiceti"),
              (40, "unit", "čtyřiceti"), (50, "unit", "padesáti"),
              # "dvě stě": 2 x 100 ("sta", "set", the other plurals, are Italian and
              # English words)
              (100, "hundred", "stě"))),
)


def _table() -> dict[str, Part]:
    """Every language's words, a word two languages share keeping the first one's worth."""
    t: dict[str, Part] = {}

    def put(value: int, kind: str, words: str) -> None:
        for w in words.split():
            t.setdefault(w, Part(value, kind))

    for lang in _LANGUAGES:
        for value, word in enumerate(lang.units.split()):
            put(value, "unit", word)
        for value, kind, words in lang.more:
            put(value, kind, words)
        for i, forms in enumerate(lang.tens.split()):
            put(20 + 10 * i, "unit", forms.replace("/", " "))
        put(100, "hundred", lang.hundred)
        for i, word in enumerate(lang.hundreds.split()):
            put(100 * (i + 2), "unit", f"{word} {word[:-2]}as" if lang.feminine_hundreds
                else word)
        put(1000, "scale", lang.thousand)
        put(12, "scale", lang.dozen)
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
    if parts[-1].kind == "and":
        return None  # "billionen" is no English billion and a Dutch "en"
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


# ------------------------------------------------------------------------------ fractions

#: Fractions German and Dutch write in one word after the whole number: "dreieinhalb" 3.5,
#: "zweieinviertel" 2.25, "zweidreiviertel" 2.75, "tweeënhalf" 2.5, "vijfenhalf" 5.5.
_FRACTION_TAILS = (("einhalb", 0.5), ("einviertel", 0.25), ("dreiviertel", 0.75),
                   ("ënhalf", 0.5), ("enhalf", 0.5))
#: ... and the words for one and a half that name no whole number.
_FRACTION_WORDS = {"anderthalb": 1.5, "anderhalf": 1.5}
#: The last letters every fraction word ends with (a token is tried only when it does).
FRACTION_ENDINGS = ("halb", "viertel", "half")


def fraction_value(word: str) -> float | None:
    """What a one-word German or Dutch fraction is worth ("dreieinhalb": 3.5), or None: the
    whole before the fraction must be one number word or compound ("zweihundertfünfzig")."""
    if word in _FRACTION_WORDS:
        return _FRACTION_WORDS[word]
    if len(word) > MAX_WORD_CHARS:
        return None
    for tail, part in _FRACTION_TAILS:
        if word.endswith(tail) and len(word) > len(tail):
            head = _split(word[: -len(tail)])
            if not head:
                return None
            numbers = combine(head)
            if len(numbers) != 1 or numbers[0][1] != len(head) or numbers[0][0] < 1:
                return None
            return numbers[0][0] + part
    return None


# ------------------------------------------------------------------------ multiplicatives

#: How many times, said in one word: "twice", "doubled", "verdreifacht" (the German and
#: Dutch "-mal"/"-maal" compounds are read from their number: "zehnmal", "tweemaal").
_MULTIPLICATIVES = {
    "twice": 2, "thrice": 3, "doubled": 2, "tripled": 3, "trebled": 3, "quadrupled": 4,
    "verdoppelt": 2, "verdoppelte": 2, "verdoppelten": 2, "verdreifacht": 3,
    "verdreifachte": 3, "vervierfacht": 4, "verdubbeld": 2, "verdrievoudigd": 3,
    "doublé": 2, "triplé": 3, "quadruplé": 4, "duplicó": 2, "triplicó": 3,
    "raddoppiato": 2, "triplicato": 3, "duplicou": 2, "triplicou": 3,
}
MULTIPLICATIVE_WORDS = frozenset(_MULTIPLICATIVES)
#: The endings of the compounds, looked for by a literal search each.
MULTIPLICATIVE_ENDINGS = ("mal", "maal")


def multiplicative_value(word: str) -> int | None:
    """How many times a lowered word says ("twice": 2, "dreimal": 3), or None; "einmal"
    (once, and "again") is none."""
    if word in _MULTIPLICATIVES:
        return _MULTIPLICATIVES[word]
    for tail in ("maal", "mal"):
        if word.endswith(tail) and len(word) > len(tail) + 2 and len(word) <= MAX_WORD_CHARS:
            head = _split(word[: -len(tail)])
            if not head:
                return None
            numbers = combine(head)
            if len(numbers) == 1 and numbers[0][1] == len(head) and numbers[0][0] >= 2:
                return numbers[0][0]
            return None
    return None


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

# The one table of CJK numerals (the page's reading in digits, pagereadings.py, and the
# figures, figures.py, read theirs from here): the everyday digits and units, the financial
# forms of both (壹, 拾: cheques and contracts), the myriads.
_CJK_EVERYDAY_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
                        "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CJK_EVERYDAY_SMALL = {"十": 10, "百": 100, "千": 1000}
_CJK_DIGITS = {**_CJK_EVERYDAY_DIGITS, "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5, "陆": 6,
               "柒": 7, "捌": 8, "玖": 9}
_CJK_SMALL = {**_CJK_EVERYDAY_SMALL, "拾": 10, "佰": 100, "仟": 1000}
_CJK_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}
#: Every character a CJK numeral run may hold.
CJK_NUMERALS = "".join((*_CJK_DIGITS, *_CJK_SMALL, *_CJK_LARGE))
#: The numerals of everyday writing below a myriad (no financial forms).
CJK_EVERYDAY = "".join((*_CJK_EVERYDAY_DIGITS, *_CJK_EVERYDAY_SMALL))
#: The myriads: 万, 亿 and their traditional forms, 兆.
CJK_MYRIADS = "".join(_CJK_LARGE)


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


def cjk_digits_of(run: str) -> str | None:
    """``run`` written in digits: a run without units digit by digit, as years are written
    (二〇一九: "2019", a leading zero kept), else the number :func:`cjk_value` reads; None
    where it reads no one number (五六)."""
    value = cjk_value(run)
    if value is None:
        return None
    if any(ch in _CJK_SMALL or ch in _CJK_LARGE for ch in run):
        return str(value)
    return "".join(str(_CJK_DIGITS[ch]) for ch in run)
