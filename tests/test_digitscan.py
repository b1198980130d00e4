"""reading/digitscan.py: the number scans made from the places digits stand give exactly
the matches the engine's own scan gives, on every script's digits and on hostile texts, and
stay linear (the positions are capped; a text dense with digits goes to the engine)."""

# ruff: noqa: RUF001 - the digits of other scripts are the point
from __future__ import annotations

import re
import unicodedata

import pytest

from readreceipt.quotes import figures
from readreceipt.reading import agreement, digitscan

PROSE = ("The transport authority counted an average of 84,000 crossings a day in 2025, "
         "up from 79.500 in 2019 (3/4/2026, 2026-03-03); the fare rose 12 % to €3,50. ")
SCRIPTS = [
    "ارتفع العدد إلى ١٢٣٬٤٥٦ شخصا في عام ٢٠٢٥، أي ۱۲ بالمئة. ",   # Arabic-Indic, Persian
    "जनसंख्या १२३४ से बढ़कर ५६७८ हो गई। ",                     # Devanagari
    "人口は２０２５年に１２３万人、三千五百万元、第三位、2026年3月3日。",  # fullwidth, CJK
    "ประชากร ๑๒๓ คน 😀 🤔 𝟏𝟐𝟑 items and 𝟗 more. ",            # Thai, emoji, math digits
    "Ünïcödé «ﬁne» text — no digits at all here, only words… ",
    "\ud800 a lone surrogate, then 42 apples and 7 pears. ",
]
FILLER = ("A paragraph of prose follows, as pages hold between their figures: the council met "
          "again on the harbour bridge, heard the residents and the engineers, and adjourned. ")


def _spans(found: list[re.Match[str]]) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), m.lastgroup) for m in found]


@pytest.mark.parametrize("body", [PROSE, *SCRIPTS, PROSE + "".join(SCRIPTS)])
def test_the_scan_gives_the_engines_matches(body: str) -> None:
    body += FILLER * (1 + len(body) // 40)
    text = body * (1 + 3 * digitscan.SHORT_TEXT // len(body))
    assert len(text) >= digitscan.SHORT_TEXT
    assert digitscan.digit_positions(text) is not None  # the positions were used
    for pattern, also in ((figures._MASTER, figures._CJK_NUM), (agreement._NUMBER, "")):
        expected = _spans(list(pattern.finditer(text)))
        assert _spans(digitscan.scan(pattern, text, also=also)) == expected
        assert _spans(digitscan.scan(pattern, text, also=also, limit=5)) == expected[:5]


def test_every_decimal_digit_is_looked_for() -> None:
    """The table of the runs of digits is the running Python's (``\\d`` and isdecimal)."""
    every = {chr(c) for c in range(0x110000) if chr(c).isdecimal()}
    assert set(digitscan.decimal_digits()) == every
    assert {ch for ch in every if re.fullmatch(r"\d", ch)} == every
    assert unicodedata.unidata_version  # the table's version is checked at run time


def test_positions_are_where_the_characters_stand() -> None:
    text = "x" * 3000 + "٣ 7 ９ 𝟏 三" + "y" * 3000
    found = digitscan.positions(text, digitscan.decimal_digits())
    assert found == [i for i, ch in enumerate(text) if ch.isdecimal()]
    assert digitscan.positions(text, figures._CJK_NUM) == [text.index("三")]


@pytest.mark.parametrize("text", [
    "7" * 200_000, "1 " * 100_000, "1," * 100_000, "٣" * 100_000, "三" * 100_000 + "个",
    ("12 apples " * 20_000),
])
def test_a_text_dense_with_digits_goes_to_the_engine(text: str) -> None:
    """More than one digit in DENSE characters: no list of positions is made (a bound on
    the work and the memory), and the matches are still the engine's."""
    import tracemalloc

    tracemalloc.start()
    try:
        given_up = digitscan.positions(text, digitscan.decimal_digits() + figures._CJK_NUM)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert given_up is None
    # Given up at the cap, not after listing every place of a digit (200,000: 7 MB); a text
    # beyond ASCII also has its UTF-16 code units read once (about 3 bytes a character).
    assert peak < 40 * (len(text) // digitscan.DENSE + 64) + 4 * len(text) + 100_000, peak
    found = digitscan.scan(figures._MASTER, text, also=figures._CJK_NUM, limit=100)
    assert _spans(found) == _spans(list(figures._MASTER.finditer(text))[:100])


def test_the_positions_are_capped() -> None:
    text = ("a" * (digitscan.DENSE - 1) + "5") * (digitscan.MAX_POSITIONS + 10)
    assert len(text) // digitscan.DENSE > digitscan.MAX_POSITIONS
    assert digitscan.positions(text, "5") is None
