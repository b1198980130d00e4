"""Where a text's digits stand, found without the pattern engine stepping on every character.

A number scan (the figure index's, :mod:`readreceipt.quotes.figures`; the agreement check's,
:mod:`readreceipt.reading.agreement`) is a pattern that can start only at a digit (or a CJK
numeral). CPython's engine still tests each character of the text against the pattern's
first characters, about 25 ns a character (1.3 ms for a 50 KB page) however few digits the
page holds. :func:`positions` finds those characters with ``str.find`` (a memchr-like
search) instead, after asking the text's UTF-16 code units which blocks of Unicode it uses
at all: a Latin page is searched for the ten ASCII digits only, an Arabic page also for its
two sets of digits. :func:`scan` then tries the pattern anchored at each position, in order,
skipping the positions inside the last match: the very matches ``finditer`` gives
(tests/test_digitscan.py compares them on pages, scripts and hostile texts).

Invariants: linear in the text. A text with more than one such character in :data:`DENSE`,
or more than :data:`MAX_POSITIONS` of them, is left to ``finditer`` (there the engine stops
at almost every character anyway); so is a short text (an answer). The positions of a text's
decimal digits are kept for the last few texts: a page is read by the figure index and by
the agreement check in turn, and its digits are found once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from itertools import islice

__all__ = ["DENSE", "MAX_POSITIONS", "SHORT_TEXT", "decimal_digits", "digit_positions",
           "iter_scan", "positions", "scan"]

#: A text with more than one wanted character in this many is scanned by the engine itself:
#: a position found costs about what the engine spends stepping over this many characters.
DENSE = 16
#: At most this many positions are gathered for one text (a bound on memory); past it the
#: engine scans.
MAX_POSITIONS = 100_000
#: Texts shorter than this (characters) are scanned by the engine: finding positions first
#: saves nothing on an answer.
SHORT_TEXT = 2048

# The zeros of the runs of ten decimal digits (Unicode category Nd, what ``\d`` matches)
# beyond ASCII, as of this Unicode version; another version's are worked out when first
# asked for (tests/test_digitscan.py checks the table against the running Python's).
_ZEROS_VERSION = "14.0.0"
_ZEROS = (
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50,
    0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450,
    0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0,
    0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140,
    0x1E2F0, 0x1E950, 0x1FBF0,
)


@cache
def decimal_digits() -> str:
    """Every character ``\\d`` matches, ASCII first."""
    zeros: Iterable[int] = _ZEROS
    if unicodedata.unidata_version != _ZEROS_VERSION:
        # Each run of ten holds exactly one code point that is a multiple of ten.
        zeros = sorted({c - unicodedata.decimal(chr(c)) for c in range(0x80, 0x110000, 10)
                        if chr(c).isdecimal()})
    return "0123456789" + "".join(chr(zero + i) for zero in zeros for i in range(10))


@lru_cache(maxsize=16)
def _groups(chars: str) -> tuple[str, tuple[tuple[int, str], ...], tuple[tuple[bytes, str], ...]]:
    """``chars`` as (the ASCII ones, the others of the Basic Multilingual Plane by the high
    byte of their UTF-16 code unit, the others by their first UTF-16 code unit)."""
    ascii_chars = "".join(ch for ch in chars if ch.isascii())
    bmp: dict[int, str] = {}
    astral: dict[bytes, str] = {}
    for ch in chars:
        if ch.isascii():
            continue
        units = ch.encode("utf-16-le")
        if len(units) == 2:
            bmp[units[1]] = bmp.get(units[1], "") + ch
        else:
            astral[units[:2]] = astral.get(units[:2], "") + ch
    return ascii_chars, tuple(bmp.items()), tuple(astral.items())


@lru_cache(maxsize=2)
def _code_units(text: str) -> tuple[bytes, bytes]:
    """(the text's UTF-16 code units, their high bytes): which blocks the text uses."""
    units = text.encode("utf-16-le", "surrogatepass")
    return units, units[1::2]


def positions(text: str, chars: str) -> list[int] | None:
    """Where each character of ``chars`` stands in ``text``, in order; None when there are
    more than one in :data:`DENSE` characters or more than :data:`MAX_POSITIONS`."""
    cap = min(MAX_POSITIONS, len(text) // DENSE + 64)
    ascii_chars, bmp, astral = _groups(chars)
    wanted = [ascii_chars]
    if not text.isascii():
        units, high = _code_units(text)
        # A high byte (or a first code unit) found at an odd offset only costs a search.
        wanted += [group for byte, group in bmp if byte in high]
        # a character beyond the plane: first its high surrogate's byte (a quick search),
        # then the surrogate itself (a slower one), which most pages never come to
        wanted += [group for unit, group in astral if unit[1] in high and unit in units]
    out: list[int] = []
    find = text.find
    for group in wanted:
        for ch in group:
            at = find(ch)
            while at >= 0:
                out.append(at)
                if len(out) > cap:  # here, not after the character's every place is listed
                    return None
                at = find(ch, at + 1)
    out.sort()
    return out


@lru_cache(maxsize=8)
def digit_positions(text: str) -> tuple[int, ...] | None:
    """Where the decimal digits of ``text`` stand (:func:`positions`), kept for the last
    few texts."""
    found = positions(text, decimal_digits())
    return None if found is None else tuple(found)


def scan(pattern: re.Pattern[str], text: str, *, also: str = "", limit: int | None = None
         ) -> list[re.Match[str]]:
    """The matches ``pattern.finditer(text)`` gives (the first ``limit``), for a pattern that
    can match only at a decimal digit or a character of ``also``, and never matches nothing
    (one that starts with a lookahead for those characters)."""
    found = iter_scan(pattern, text, also=also)
    return list(found if limit is None else islice(found, limit))


def iter_scan(pattern: re.Pattern[str], text: str, *, also: str = ""
              ) -> Iterator[re.Match[str]]:
    """:func:`scan`'s matches one at a time, for a reader that keeps few of them (a page of
    millions of numbers held a list of every match)."""
    starts: Iterable[int] | None = None
    if len(text) >= SHORT_TEXT:
        starts = digit_positions(text)
        if starts is not None and also:
            more = positions(text, also)
            starts = None if more is None else sorted((*starts, *more)) if more else starts
    if starts is None:
        yield from pattern.finditer(text)
        return
    taken = 0
    match = pattern.match
    for at in starts:
        if at < taken:
            continue  # inside the last match: finditer goes on from its end
        m = match(text, at)  # lookbehinds see the text before ``at``, as finditer's do
        if m is not None:
            yield m
            taken = max(m.end(), at + 1)
