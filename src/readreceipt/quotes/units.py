"""What a figure is a figure of: units, currencies, percent words, scale words, hedges.

The tables of :mod:`readreceipt.quotes.figures`, in one place, each keyed by the word as it is
written once lowered (the look-up folds case only; accents are part of the word). Every entry
names what it means, never how it is matched:

- :data:`SCALES`: a word or abbreviation that multiplies the number before it ("3.5 million",
  "3,5 Mio.", "3.500 millones", "3500万", "350억"); a word meaning 10⁹ in one language and 10¹²
  in another ("billion" in English and German) carries both;
- :data:`PERCENT`: the ways of saying "per cent" after a number, in the languages the tables
  read ("%", "per cent", "Prozent", "pour cent", "por ciento", "процентов", "パーセント");
- :data:`CURRENCIES`: a currency's signs, codes and words; a sign shared by several currencies
  ("$", "kr", "¥") is a family, which matches any member ("$" matches "US$" and "A$"), while
  two named members ("US$", "A$") differ;
- :data:`UNITS`: units of measure with their dimension and factor to one base unit per
  dimension, so that "1.2 km" is "1,200 m" exactly and "12 km" is "7.5 miles" as a rounding;
  temperatures carry their offset;
- :data:`HEDGES`: the words that say a figure is rounded ("about", "nearly", "etwa", "près
  de", "約"), each either two-sided or one-sided (``over``/``under``); the tolerances they buy
  live in :mod:`readreceipt.quotes.claims`.

Invariant: no entry is a word that is mostly something else where it stands (after a number,
or before one for hedges): "m" reads as metres unless money stands beside it (then millions),
"pounds" is a currency only beside "sterling" or "£", "second" is never a unit after an
ordinal. tests/test_claims_tables.py checks that every alias parses back to its entry.
"""

# ruff: noqa: RUF001, RUF003 - the tables hold the characters people write (full-width forms)
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CURRENCIES", "HEDGES", "PERCENT", "SCALES", "UNITS", "Currency", "Unit",
           "currency_of", "unit_of"]

# --------------------------------------------------------------------------------- scales

def _scale_table() -> dict[str, tuple[float, ...]]:
    table: dict[str, tuple[float, ...]] = {}
    groups: list[tuple[tuple[float, ...], str]] = [
        ((1e3,), "thousand thousands k tsd tsd. tausend mille mil mila milla duizend тыс тыс. "
                 "тысяча тысячи тысяч tis. tis tisíc tysięcy tys. tys tysiące tusen tusind bin"),
        ((1e5,), "lakh lakhs lac"),
        ((1e6,), "million millions mn mln mln. mio mio. millionen millón millones milione "
                 "milioni milhão milhões milhao milhoes miljoen miljoenen млн млн. миллион "
                 "миллиона миллионов milionů milionu miliony milion milionów miljon miljoner "
                 "millioner milyon juta triệu مليون"),
        ((1e7,), "crore crores"),
        ((1e9,), "bn bn. mrd mrd. mld mld. milliarde milliarden milliard milliards miliardo "
                 "miliardi miljard miljarden млрд млрд. миллиард миллиарда миллиардов miliard "
                 "miliardy miliardů miliardów milliarder milyar tỷ مليار"),
        ((1e9, 1e12), "billion billions"),  # 10⁹ in English; 10¹² in German, French
        ((1e12,), "trillion trillions tn billionen bilhão bilhões bilião biliões bilion "
                  "trilhão trilhões трлн трлн. триллион триллиона триллионов"),
    ]
    for value, words in groups:
        for word in words.split():
            table[word] = value
    table["billion"] = (1e9,)  # lowered "Billion": English (and German, kept below)
    return table


#: Lowered scale word -> the factors it may mean. Capitalised German "Billion(en)" is told
#: apart by :data:`SCALES_CASED` (English writes it lower case after a number).
SCALES: dict[str, tuple[float, ...]] = _scale_table()
SCALES_CASED: dict[str, tuple[float, ...]] = {"Billion": (1e12, 1e9), "Billionen": (1e12,),
                                              "Mio": (1e6,), "Mrd": (1e9,)}
#: Scale words glued to the number ("3.5m", "$2bn", "10k"): short forms only.
SCALES_GLUED: dict[str, tuple[float, ...]] = {"k": (1e3,), "K": (1e3,), "m": (1e6,),
                                              "M": (1e6,), "bn": (1e9,), "b": (1e9,),
                                              "B": (1e9,), "Bn": (1e9,), "tn": (1e12,),
                                              "mn": (1e6,), "mln": (1e6,)}
#: Scale letters written against a currency sign, spaced from the number: French "40 M€",
#: "1,2 Md€", "300 k€" (only before the sign: "40 M" alone is no scale).
SCALES_BEFORE_SIGN: dict[str, tuple[float, ...]] = {"k": (1e3,), "K": (1e3,), "M": (1e6,),
                                                    "Md": (1e9,), "Mds": (1e9,),
                                                    "Mrd": (1e9,), "Mio": (1e6,)}
#: CJK and Korean myriads and their multiples, written after digits ("3500万", "1.2億",
#: "3千万", "350억").
SCALES_CJK: dict[str, float] = {
    "十": 10.0, "百": 100.0, "千": 1e3, "万": 1e4, "萬": 1e4, "億": 1e8, "亿": 1e8, "兆": 1e12,
    "십": 10.0, "백": 100.0, "천": 1e3, "만": 1e4, "억": 1e8, "조": 1e12,
}

# -------------------------------------------------------------------------------- percent

#: Lowered words for "per cent" after a number ("%" and "％" are read as signs).
PERCENT: frozenset[str] = frozenset((
    "percent", "per cent", "pct", "pct.", "prozent", "pour cent", "pourcent", "por ciento",
    "porciento", "per cento", "percento", "por cento", "procent", "procento", "procenta",
    "procent", "procentu", "procentů", "prosent", "procentos", "процент", "процента",
    "процентов", "процентів", "pourcentage", "パーセント", "퍼센트", "phần trăm", "persen",
    "yüzde", "في المئة", "بالمئة",
    # German officialese: "3,5 v. H." (vom Hundert), Austrian and Swiss statutes and reports
    "v. h", "v.h", "vom hundert", "von hundert",
    # Polish news: "3,5 proc." (procent)
    "proc", "proc.",
))
#: Percentage points: compatible with per cent (an answer often says one for the other).
PERCENT_POINTS: frozenset[str] = frozenset((
    "percentage point", "percentage points", "pp", "pp.", "prozentpunkte",
    "prozentpunkt", "points de pourcentage", "point de pourcentage", "puntos porcentuales",
    "punto porcentual", "punti percentuali", "punto percentuale", "pontos percentuais",
    "ponto percentual", "procentpunt", "procentpunten", "procentní body", "п.п.",
))

# ------------------------------------------------------------------------------ currencies


@dataclass(frozen=True)
class Currency:
    code: str  # ISO 4217, or a family ("$", "kr", "¥", "R") when the sign names several
    family: str  # the sign shared by the family


def _currencies() -> dict[str, Currency]:
    table: dict[str, Currency] = {}
    rows = [
        ("USD", "$", "us$ usd dollar dollars dollar(s) dólar dólares dollari dollaro "
                     "долларов доллара доллар 美元 ドル 달러 usd$"),
        ("AUD", "$", "a$ au$ aud"), ("CAD", "$", "c$ ca$ cad"), ("NZD", "$", "nz$ nzd"),
        ("HKD", "$", "hk$ hkd"), ("SGD", "$", "s$ sgd"), ("MXN", "$", "mx$ mxn"),
        ("BRL", "$", "r$ brl reais real"), ("TWD", "$", "nt$ twd"),
        ("$", "$", "$ ＄"),
        ("EUR", "€", "€ eur euro euros евро 欧元 ユーロ 유로 eurô"),
        ("GBP", "£", "£ gbp sterling pounds pound"), ("JPY", "¥", "jpy yen 円 엔"),
        ("CNY", "¥", "cny rmb yuan 元 人民币 renminbi"), ("¥", "¥", "¥ ￥"),
        ("INR", "₹", "₹ inr rs rs. rupee rupees"), ("KRW", "₩", "₩ krw won 원"),
        ("RUB", "₽", "₽ rub руб руб. рублей рубля рубль rubles roubles"),
        ("CHF", "CHF", "chf franken"), ("PLN", "zł", "zł pln złotych zloty"),
        ("CZK", "Kč", "kč czk korun koruny"), ("SEK", "kr", "sek kronor"),
        ("NOK", "kr", "nok"), ("DKK", "kr", "dkk"), ("kr", "kr", "kr kr. kroner"),
        ("TRY", "₺", "₺ try tl lira"), ("ZAR", "R", "zar rand"), ("NGN", "₦", "₦ ngn naira"),
        ("ILS", "₪", "₪ ils shekel shekels"), ("VND", "₫", "₫ vnd đồng dong"),
        ("IDR", "Rp", "rp idr rupiah"), ("UAH", "₴", "₴ uah гривень"),
        ("AED", "AED", "aed dirham dirhams"), ("SAR", "SAR", "sar riyal riyals"),
        ("EGP", "EGP", "egp جنيه"), ("BTC", "BTC", "btc bitcoin bitcoins ₿"),
    ]
    for code, family, words in rows:
        for word in words.split():
            table[word] = Currency(code, family)
    return table


#: Lowered sign, code or word -> currency.
CURRENCIES: dict[str, Currency] = _currencies()
#: Longest currency sign or word looked for on either side of a number.
CURRENCY_CHARS = max(len(k) for k in CURRENCIES)


def currency_of(word: str) -> Currency | None:
    return CURRENCIES.get(word.lower())


def same_currency(a: Currency, b: Currency) -> bool:
    """Two currencies an answer and a page may name for one amount: the same code, or one
    of them only the family's sign ("$" for "US$")."""
    if a.code == b.code:
        return True
    return a.family == b.family and (a.code == a.family or b.code == b.family)


# ----------------------------------------------------------------------------------- units


@dataclass(frozen=True)
class Unit:
    name: str  # canonical ("km", "mi", "kg", "°C", "year")
    dimension: str  # "length", "mass", "time"...
    factor: float  # to the dimension's base unit
    offset: float = 0.0  # base = value * factor + offset (temperatures)


def _units() -> dict[str, Unit]:
    table: dict[str, Unit] = {}
    rows: list[tuple[str, str, float, str]] = [
        # length (metres)
        ("mm", "length", 1e-3, "mm millimetre millimetres millimeter millimeters millimètres "
                               "milímetros millimetri миллиметров мм 毫米 ミリ 밀리미터"),
        ("cm", "length", 1e-2, "cm centimetre centimetres centimeter centimeters centimètres "
                               "centímetros centimetri zentimeter сантиметров см 厘米 センチ "
                               "센티미터"),
        ("m", "length", 1.0, "m metre metres meter meters mètres metros metri meter "
                             "метров метра м 米 メートル 미터"),
        ("km", "length", 1e3, "km kilometre kilometres kilometer kilometers kilomètres "
                              "kilomètre kilómetros kilómetro chilometri chilometro "
                              "quilômetros quilómetros quilômetro kilometern километров "
                              "километра километр км 公里 千米 キロメートル 킬로미터 ㎞"),
        # Japanese キロ and Korean 킬로 alone are kilometres or kilograms, as the words beside
        # them say ("20キロ走った", "20キロ太った"): agreeing with either (claims.agree)
        ("kilo", "kilo", 1.0, "キロ 킬로"),
        ("in", "length", 0.0254, "inch inches zoll pouces pulgadas pollici polegadas 英寸 "
                                 "インチ 인치"),
        ("ft", "length", 0.3048, "ft feet foot fuß pieds pies piedi pés футов 英尺 フィート 피트"),
        ("yd", "length", 0.9144, "yd yard yards"),
        ("mi", "length", 1609.344, "mi mile miles meilen milles millas miglia milhas миль 英里 "
                                   "マイル 마일"),
        ("nmi", "length", 1852.0, "nautical miles nmi seemeilen"),
        # mass (kilograms)
        ("mg", "mass", 1e-6, "mg milligram milligrams milligramme milligrammes miligramos"),
        ("g", "mass", 1e-3, "g gram grams gramme grammes gramm gramos grammi gramas грамм 克 "
                            "グラム 그램"),
        ("kg", "mass", 1.0, "kg kilogram kilograms kilogramme kilogrammes kilogramm kilo kilos "
                            "kilogramos chilogrammi quilos quilogramas килограммов кг 公斤 千克 "
                            "キログラム 킬로그램 ㎏"),
        ("t", "mass", 1e3, "t tonne tonnes tons ton tonnen tonnellate toneladas tonnes "
                           "тонн тонны 吨 トン 톤"),
        ("lb", "mass", 0.45359237, "lb lbs pound pounds"),
        ("oz", "mass", 0.028349523125, "oz ounce ounces unzen onces onzas"),
        # volume (litres)
        ("ml", "volume", 1e-3, "ml millilitre millilitres milliliter milliliters mililitros "
                               "毫升 ミリリットル"),
        ("l", "volume", 1.0, "l litre litres liter liters litros litri литров 升 リットル 리터"),
        ("gal", "volume", 3.785411784, "gal gallon gallons gallonen gallons galones galloni"),
        ("bbl", "volume", 158.987294928, "barrel barrels bbl barils barriles barili barris"),
        ("m3", "volume", 1e3, "m³ m3 cubic metres cubic meters kubikmeter"),
        # area (square metres)
        ("m2", "area", 1.0, "m² m2 sq m square metres square meters quadratmeter "
                            "mètres carrés metros cuadrados metri quadrati 平方米 平方メートル"),
        ("km2", "area", 1e6, "km² km2 sq km square kilometres square kilometers "
                             "quadratkilometer kilomètres carrés kilómetros cuadrados "
                             "chilometri quadrati 平方公里 平方キロメートル"),
        ("ha", "area", 1e4, "ha hectare hectares hektar hektaren ettari hectáreas 公顷 "
                            "ヘクタール 헥타르"),
        ("acre", "area", 4046.8564224, "acre acres"),
        ("sqft", "area", 0.09290304, "sq ft square feet square foot"),
        ("sqmi", "area", 2589988.110336, "sq mi square miles square mile"),
        # speed (km/h)
        ("km/h", "speed", 1.0, "km/h kph kmh km/std"),
        ("mph", "speed", 1.609344, "mph"),
        ("m/s", "speed", 3.6, "m/s"),
        ("kn", "speed", 1.852, "knots knoten noeuds nudos nodi"),
        # temperature (degrees Celsius)
        ("°C", "temperature", 1.0, "°c ºc ℃ celsius grad celsius degrés celsius "
                                   "grados celsius"),
        ("°F", "temperature", 5 / 9, "°f ºf ℉ fahrenheit"),
        # time (seconds)
        ("s", "time", 1.0, "sec secs seconds sekunden secondes segundos secondi seconden "
                           "секунд 秒 초"),
        ("min", "time", 60.0, "min mins minute minutes minuten minutos minuti minuut minuten "
                              "минут минуты 分钟 分間 분"),
        ("h", "time", 3600.0, "h hr hrs hour hours stunde stunden heure heures horas hora ore "
                              "uur uren часов часа 小时 時間 시간"),
        ("day", "time", 86400.0, "day days tag tage tagen jour jours día días giorno giorni "
                                 "dia dias dag dagen дней дня 天 日間 일간"),
        ("week", "time", 604800.0, "week weeks woche wochen semaine semaines semana semanas "
                                   "settimana settimane weken недель недели 周 週間 주"),
        ("month", "time", 2629800.0, "month months monat monate monaten mois mes meses mese "
                                     "mesi maand maanden месяцев месяца 个月 か月 ヶ月 カ月 "
                                     "개월"),
        ("year", "time", 31557600.0, "year years jahr jahre jahren an ans année années año "
                                     "años anno anni ano anos jaar jaren лет года 年間 년간"),
        ("decade", "time", 315576000.0, "decade decades jahrzehnt jahrzehnte décennie "
                                        "décennies década décadas decennio decenni"),
        ("century", "time", 3155760000.0, "century centuries jahrhundert jahrhunderte "
                                          "siècle siècles siglo siglos secolo secoli"),
        # data (bytes)
        ("kB", "data", 1e3, "kb kilobytes"), ("MB", "data", 1e6, "mb megabytes"),
        ("GB", "data", 1e9, "gb gigabytes"), ("TB", "data", 1e12, "tb terabytes"),
        ("PB", "data", 1e15, "pb petabytes"),
        # power (watts) and energy (watt-hours)
        ("W", "power", 1.0, "w watt watts"), ("kW", "power", 1e3, "kw kilowatt kilowatts"),
        ("MW", "power", 1e6, "mw megawatt megawatts"),
        ("GW", "power", 1e9, "gw gigawatt gigawatts"),
        ("Wh", "energy", 1.0, "wh"), ("kWh", "energy", 1e3, "kwh"),
        ("MWh", "energy", 1e6, "mwh"), ("GWh", "energy", 1e9, "gwh"),
        ("TWh", "energy", 1e12, "twh"),
        ("kcal", "energy", 1.163, "kcal kilocalorie kilocalories kilokalorien kilocalorías "
                                  "キロカロリー 킬로칼로리 千卡 大卡"),
        # frequency (hertz)
        ("Hz", "frequency", 1.0, "hz hertz"), ("kHz", "frequency", 1e3, "khz"),
        ("MHz", "frequency", 1e6, "mhz"), ("GHz", "frequency", 1e9, "ghz"),
    ]
    for name, dimension, factor, words in rows:
        unit = Unit(name, dimension, factor, -32 * 5 / 9 if name == "°F" else 0.0)
        for word in _phrases(words):
            table.setdefault(word, unit)
    return table


_MULTIWORD = ("nautical miles", "cubic metres", "cubic meters", "square metres",
              "square meters", "square kilometres", "square kilometers", "square feet",
              "square foot", "square miles", "square mile", "sq m", "sq km", "sq ft", "sq mi",
              "mètres carrés", "metros cuadrados", "metri quadrati", "kilomètres carrés",
              "kilómetros cuadrados", "chilometri quadrati", "grad celsius", "degrés celsius",
              "grados celsius")


def _phrases(words: str) -> list[str]:
    out = []
    rest = f" {words} "
    for phrase in _MULTIWORD:
        if f" {phrase} " in rest:
            out.append(phrase)
            rest = rest.replace(f" {phrase} ", " ")
    return out + rest.split()


#: Lowered unit word or symbol -> unit. Case matters for a few symbols (MW and mW, Mb), which
#: the tables do not tell apart: an answer and a page that differ only there are rare.
UNITS: dict[str, Unit] = _units()
#: Unit words a figure takes only when written right after the number, never as the noun of
#: a count: "an" and "ans" (French years) would read "3 an" in other languages.
WEAK_UNITS: frozenset[str] = frozenset(("an", "t", "l", "g", "m", "h", "s", "w", "in", "min",
                                        "mi", "ft", "yd", "kn", "dia", "dag"))


def unit_of(word: str) -> Unit | None:
    return UNITS.get(word.lower())


_BY_DIMENSION: dict[str, tuple[Unit, ...]] = {}
for _unit in UNITS.values():
    _BY_DIMENSION.setdefault(_unit.dimension, ())
    if _unit not in _BY_DIMENSION[_unit.dimension]:
        _BY_DIMENSION[_unit.dimension] += (_unit,)


def units_of(dimension: str) -> tuple[Unit, ...]:
    """Every unit of a dimension (for the conversions an answer may have made)."""
    return _BY_DIMENSION.get(dimension, ())


# ---------------------------------------------------------------------------------- hedges

def _hedges() -> dict[str, str]:
    table: dict[str, str] = {}
    rows = {
        "about": ["about", "around", "roughly", "approximately", "approx.", "approx", "some",
                  "circa", "ca.", "c.", "~", "≈", "an estimated", "estimated", "nearly",
                  "almost", "close to", "etwa", "rund", "ungefähr", "zirka", "annähernd",
                  "fast", "beinahe", "nahezu", "environ", "près de", "presque", "quasiment",
                  "autour de", "approximativement", "quelque", "alrededor de", "cerca de",
                  "casi", "aproximadamente", "unos", "unas", "en torno a", "quasi",
                  "intorno a", "all'incirca", "pressoché", "quase", "em torno de",
                  "por volta de", "ongeveer", "bijna", "zo'n", "rond de", "около", "почти",
                  "примерно", "приблизительно", "порядка", "asi", "přibližně", "téměř",
                  "skoro", "zhruba", "kolem", "około", "prawie", "blisko", "cirka",
                  "omkring", "nästan", "næsten", "nesten", "yaklaşık", "neredeyse", "khoảng",
                  "gần", "sekitar", "hampir", "حوالي", "نحو", "قرابة", "約", "约", "大约",
                  "大約", "およそ", "ほぼ", "近", "将近", "약", "거의"],
        "over": ["more than", "over", "above", "at least", "upwards of", "as many as",
                 "as much as", "well over", "just over", "in excess of", "exceeding",
                 "mehr als", "über", "mindestens", "gut", "plus de", "au moins", "au-delà de",
                 "más de", "al menos", "por encima de", "più di", "oltre", "almeno",
                 "mais de", "pelo menos", "acima de", "meer dan", "ten minste", "minstens",
                 "ruim", "более", "больше", "свыше", "не менее", "více než", "přes",
                 "nejméně", "ponad", "co najmniej", "över", "mer än", "mere end", "drygt",
                 "fazla", "hơn", "lebih dari", "أكثر من", "超过", "超過", "逾", "超"],
        "under": ["less than", "under", "below", "fewer than", "at most", "up to",
                  "no more than", "just under", "weniger als", "unter", "höchstens", "bis zu",
                  "knapp", "moins de", "jusqu'à", "au plus", "menos de", "hasta",
                  "como máximo", "meno di", "fino a", "al massimo", "até", "no máximo",
                  "minder dan", "hoogstens", "менее", "меньше", "не более", "méně než", "až",
                  "mniej niż", "mindre än", "knappt", "kurang dari", "أقل من", "不到", "未満"],
    }
    for kind, words in rows.items():
        for word in words:
            table[word] = kind
    return table


#: Lowered words before a number saying it is rounded: ``about`` two-sided, ``over`` the
#: true figure is at least as large, ``under`` at most as large.
HEDGES: dict[str, str] = _hedges()
#: Hedges written after the number ("30余人", "30多人", "3万人以上", "30여 명", "12% or so").
HEDGES_AFTER: dict[str, str] = {
    "余": "over", "餘": "over", "多": "over", "以上": "over", "超": "over", "余り": "over",
    "強": "over", "弱": "under", "以下": "under", "未満": "under", "左右": "about",
    "前後": "about", "程度": "about", "近く": "about", "ほど": "about", "여": "over",
    "이상": "over", "가량": "about", "정도": "about", "이하": "under", "+": "over",
    "or so": "about", "or more": "over", "or less": "under", "odd": "over",
    "und mehr": "over", "et plus": "over", "o más": "over", "e più": "over",
}
#: Longest hedge looked for before a number, in characters.
HEDGE_CHARS = max(len(k) for k in HEDGES)
