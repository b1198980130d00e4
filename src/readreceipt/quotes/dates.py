"""Dates as people write them, in any order and language.

"3 March 2026", "March 3, 2026", "3rd of March", "2026-03-03", "03/03/2026", "3. März 2026",
"3 de marzo de 2026", "3 марта 2026 г.", "3. března 2026", "2026年3月3日", "2026년 3월 3일",
"ngày 3 tháng 3 năm 2026", "March 2026", "3 March": each is read as (year, month, day) with
the parts the text gives (None for the others).

The month names are :data:`MONTHS` (lowered; English, German, French, Spanish, Italian,
Portuguese, Dutch, Russian and Czech and Polish in the cases a date takes, the Scandinavian
languages, Turkish, Indonesian, Arabic). A numeric date whose day and month are both 12 or
under (03/04/2026) is read both ways unless its text says which (:func:`numeric_readings`):
the page's own unambiguous dates tell its order, and a reading is never guessed otherwise.

Pure. The patterns are anchored or bounded; :mod:`readreceipt.quotes.figures` runs them only
at the numbers it has found, so the cost is per number, not per character.
"""

# ruff: noqa: RUF001, RUF002 - month names in their own scripts
from __future__ import annotations

import re

__all__ = ["MONTHS", "DateParts", "month_after", "month_before", "numeric_readings",
           "valid"]

DateParts = tuple[int | None, int | None, int | None]  # (year, month, day)


def _months() -> dict[str, int]:
    rows = [
        "january jan jan. januar jänner janvier janv. enero ene. gennaio gen. janeiro "
        "januari января январь январе ledna leden stycznia styczeń ocak ocak'ta يناير",
        "february feb feb. februar février févr. fév. febrero febbraio fevereiro fev. "
        "februari февраля февраль феврале února únor lutego luty şubat فبراير",
        "march mar mar. märz mär. mars marzo março maart mrt. марта март марте března "
        "březen marca marzec mart maret marts مارس",
        "april apr apr. avril abril abr. aprile aprel апреля апрель апреле dubna duben "
        "kwietnia kwiecień nisan أبريل",
        "may mai maio mayo maggio mag. mei мая май мае května květen maja maj mayıs مايو",
        "june jun jun. juni juin junio giugno giu. junho июня июнь июне června červen "
        "czerwca czerwiec haziran يونيو",
        "july jul jul. juli juillet juil. julio luglio lug. julho июля июль июле července "
        "červenec lipca lipiec temmuz يوليو",
        "august aug aug. août agosto ago. augustus августа август августе srpna srpen "
        "sierpnia sierpień ağustos agustus augusti أغسطس",
        "september sep sep. sept sept. septembre septiembre setiembre settembre set. setembro "
        "сентября сентябрь сентябре září września wrzesień eylül سبتمبر",
        "october oct oct. oktober okt. octobre octubre ottobre ott. outubro out. "
        "октября октябрь октябре října říjen października październik ekim أكتوبر",
        "november nov nov. novembre noviembre novembro ноября ноябрь ноябре listopadu "
        "listopad listopada kasım نوفمبر",
        "december dec dec. dezember dez. décembre déc. diciembre dic. dicembre dezembro "
        "desember декабря декабрь декабре prosince prosinec grudnia grudzień aralık ديسمبر",
    ]
    table: dict[str, int] = {}
    for number, words in enumerate(rows, start=1):
        for word in words.split():
            table.setdefault(word, number)
    return table


#: Lowered month name or abbreviation -> month number.
MONTHS: dict[str, int] = _months()
#: Month words that are mostly something else standing alone ("may", "mar", "sept" is
#: French seven, "an" is no month): read as a month only beside a day or a year.
AMBIGUOUS_MONTHS: frozenset[str] = frozenset(("may", "mar", "mart", "sept", "set", "mag",
                                              "gen", "out", "ago", "dec", "jan"))

_WORD_AFTER = re.compile(
    r"(?:st|nd|rd|th|er|e|\.|º|ª)?\s{0,2}(?:de\s|del\s|of\s|,\s?)?\s{0,2}"
    r"([^\W\d_]{2,12}\.?)")
_YEAR_AFTER = re.compile(r"\s{0,2},?\s{0,2}(?:de\s|del\s|of\s)?\s{0,2}(\d{4})(?!\d)"
                         r"(?:\s{0,2}(?:г\.|года|году|r\.|roku|yılı))?")
_DAY_AFTER = re.compile(r"\s{0,2}(\d{1,2})(?:st|nd|rd|th|\.|º)?(?![\d.,]\d)")


def valid(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None and not 1 <= day <= {2: 29, 4: 30, 6: 30, 9: 30, 11: 30}.get(
            month or 1, 31):
        return False
    return year is None or 1 <= year <= 9999


def month_after(text: str, end: int) -> tuple[int, int] | None:
    """(month, end of the month word) when a month name follows a day at ``end``
    ("3 March", "3. März", "3 de marzo", "3rd of March")."""
    m = _WORD_AFTER.match(text, end, min(len(text), end + 24))
    if m is None:
        return None
    month = MONTHS.get(m.group(1).lower())
    return (month, m.end()) if month is not None else None


def month_before(text: str, start: int) -> tuple[int, int] | None:
    """(month, start of the month word) when a month name stands just before ``start``
    ("March 3", "March 2026", "marzo de 2026")."""
    window = text[max(0, start - 24): start]
    if not window[-1:].isspace() and window[-1:] != ",":
        return None
    words = window.rstrip(" ,\u00a0").rsplit(None, 2)
    if words and words[-1].lower() in ("de", "del", "of") and len(words) > 1:
        words = words[:-1]
    if not words:
        return None
    # "California—April 27", "(April 27": what is glued before the month is no part of it
    word = re.split("[\u2014\u2013/(\\[\"\u201c\u00ab]", words[-1])[-1]
    month = MONTHS.get(word.lower()) or MONTHS.get(word.lower().rstrip(".,"))
    if month is None:
        return None
    return month, start - len(window) + window.rfind(word)


def year_after(text: str, end: int) -> tuple[int, int] | None:
    """(year, end) when a four-digit year follows at ``end`` ("March 3, 2026")."""
    m = _YEAR_AFTER.match(text, end, min(len(text), end + 24))
    return (int(m.group(1)), m.end()) if m else None


def day_after(text: str, end: int) -> tuple[int, int] | None:
    """(day, end) when a day of the month follows a month name ("March 3rd")."""
    m = _DAY_AFTER.match(text, end, min(len(text), end + 8))
    if m is None:
        return None
    day = int(m.group(1))
    return (day, m.end()) if 1 <= day <= 31 else None


def two_digit_year(year: int) -> int:
    return 2000 + year if year < 70 else 1900 + year


def numeric_readings(first: int, second: int, year: int | None, order: str | None
                     ) -> list[DateParts]:
    """The readings of a numeric date ``first/second/year``: day-month, month-day, or both
    when both could be and ``order`` ("dmy", "mdy" or None: the text's own order, where its
    other dates show it) does not say."""
    day_first = (year, second, first) if valid(year, second, first) else None
    month_first = (year, first, second) if valid(year, first, second) else None
    if order == "dmy" and day_first:
        return [day_first]
    if order == "mdy" and month_first:
        return [month_first]
    return list(dict.fromkeys(r for r in (day_first, month_first) if r))
