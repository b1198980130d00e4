"""A JSON document's main text: its values in document order, one a line.

Strings (escapes undone), numbers as the document wrote them (``1.50`` stays ``1.50``),
``true``, ``false`` and the constants Python's parser accepts (``NaN``, ``Infinity``); keys
and ``null`` say nothing. :func:`json_values` is the one entry point, with two readings
behind it that give the same text:

- a document of at most :data:`MAX_JSON_VALUES` values is parsed by the standard library,
  which also says whether it is JSON at all;
- a longer one is read a slice at a time by patterns of the language's tokens
  (:func:`_streamed`), because every parsed value is a Python object of its own (about 165
  bytes with its place in the lists): the 10 MiB read of ``[1,1,1,...]`` took a capture to
  859 MiB and 5.4 s. A slice is about :data:`SLICE_CHARS` characters (to the next bracket,
  comma or colon; a string longer than that is a slice of its own), so what the reading holds
  besides the text and its result is bounded whatever the document.

Invariants: both readings are linear in the text (every pattern possessive over disjoint
runs; a slice's end is found from where it may be, and what a slice cuts of a string is read
again only once); on a document both can read they
give the same text (tests/test_json_text.py compares them on generated documents). What the
streamed reading does not do, and the parse does: it checks the document token by token (an
unknown character, a raw control character in a string, a bad escape or a malformed number
make it not JSON), not its grammar (a missing comma or a colon out of place passes); and a key
written twice in one object keeps both of its values, where the parse keeps the last. Of
the grammar it checks only that as many brackets of each kind close as open.
"""

from __future__ import annotations

import json
import operator
import re
from itertools import compress, repeat
from typing import cast

__all__ = ["MAX_JSON_VALUES", "SLICE_CHARS", "STREAMED_EXTRACTOR", "json_values", "values_over"]

#: A document of more values than this (scalars and containers) is read a slice at a time
#: instead of parsed: this many cost the parse about 41 MiB. Values are counted from the
#: commas and brackets first (an upper bound: a comma in a string counts too), and only past
#: this from the scalars and brackets.
MAX_JSON_VALUES = 250_000
#: What the record's ``extractor`` says of a document read a slice at a time.
STREAMED_EXTRACTOR = "json (stdlib, a slice at a time: too many values to parse whole)"
#: About the most characters of a document the streamed reading reads at once (to the next
#: bracket, comma or colon; a longer string is read whole). Each string of a slice costs about
#: 150 bytes while it is read (its body, its place in three lists), and a slice of tiny
#: strings holds one every three characters: a document of them read so peaks at about six
#: times its size, its text and the result included (38 times as one slice).
SLICE_CHARS = 128 * 1024

_BLANK = " \t\n\r"  # JSON's whitespace: not Unicode's, which the parse rejects
#: A string's body: no raw quote, backslash or control character; escapes read whole.
_STRING_BODY = r'(?:[^"\\\x00-\x1f]++|\\.)*+'
#: A string: its body, then its closing quote if it has one. Searched from outside a string,
#: each match begins at an opening quote and none can fail, so a quote inside a string is
#: never tried as the start of one (a string cut by a slice's end, full of escaped quotes,
#: would be read again from each of them). One that stops before a closing quote ends at the
#: slice's end or at what no string holds.
_STRINGS = re.compile(f'"({_STRING_BODY})(")?')
#: The blanks after a string and the colon that may follow them (a pattern that cannot fail:
#: it is only ever matched at one place, but its blanks need not be read twice).
_COLON = re.compile(f"[{_BLANK}]*+(:)?")
#: Where a slice may end: after punctuation that is not a blank.
_CUT = re.compile(r"[,:\[\]{}]")
#: Where each string stood, once the strings are out.
_MARK = "\x00"
_TO_LINE_ENDS = str.maketrans(dict.fromkeys(_BLANK + "[]{},:", "\n"))
_LINE_ENDS = re.compile(r"\n\n++")
#: A number as the parse reads it (no leading zero; a fraction and an exponent need digits).
_NUMBER = r"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+"
#: What is left once punctuation is line ends: a line a number, a word, null or a string's mark.
_TOKEN_LINES = re.compile(f"\\A(?:(?:{_NUMBER}|true|false|null|NaN|-?Infinity|{_MARK})\n)*+")
_NULL_LINE = re.compile(r"^null\n", re.MULTILINE)
#: A JSON scalar, for counting values: a string, a number, or a literal.
_SCALAR = re.compile(r'"(?:[^"\\]++|\\.)*+"?|-?[0-9][0-9.eE+-]*+|true|false|null')


def json_values(text: str) -> tuple[str | None, bool]:
    """The main text of the JSON document ``text`` (None if it is not JSON) and whether it was
    read a slice at a time (past :data:`MAX_JSON_VALUES`) rather than parsed."""
    if values_over(text, MAX_JSON_VALUES):
        return _streamed(text), True
    return _parsed(text), False


def values_over(text: str, most: int) -> bool:
    """Whether the JSON ``text`` may hold more than ``most`` values (scalars and containers)."""
    containers = text.count("[") + text.count("{")
    if text.count(",") + containers + 1 <= most:
        return False
    # Counted up to one past the bound only: subn keeps every piece between its matches.
    return _SCALAR.subn("", text, count=most + 1)[1] + containers > most


class _Number(str):
    """A JSON number as the document wrote it."""


def _parsed(text: str) -> str | None:
    try:
        data = json.loads(text, parse_int=_Number, parse_float=_Number,
                          parse_constant=_Number)
    except (json.JSONDecodeError, RecursionError):
        return None
    values: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            values.append("true" if item else "false")
        elif isinstance(item, str):
            values.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return "\n".join(values)


def _streamed(text: str) -> str | None:
    """The document's values read a slice at a time; None where a token is not JSON's."""
    if _MARK in text:  # a raw NUL, in a string or out of one: not JSON
        return None
    texts: list[str] = []
    squares = curlies = 0  # brackets opened and not yet closed, of each kind
    pos, end = 0, len(text)
    while pos < end:
        sliced = _slice(text, pos, end)
        read = None if sliced is None else _slice_values(sliced[1])
        if sliced is None or read is None:
            return None
        values, count, skeleton = read
        if count:
            texts.append(values)
        squares += skeleton.count("[") - skeleton.count("]")
        curlies += skeleton.count("{") - skeleton.count("}")
        pos = sliced[0]
    return "\n".join(texts) if squares == curlies == 0 else None


def _slice(text: str, pos: int, end: int) -> tuple[int, list[str | None]] | None:
    """The slice that begins at ``pos`` (outside any string, between tokens): where it ends
    and its pieces as :data:`_STRINGS` splits it (``outside, body, quote, outside, body,
    quote, ..., outside``). It ends after the first punctuation but blanks past
    :data:`SLICE_CHARS` on (so never inside a number or word, nor between a key and its
    colon), or before the string that punctuation is in; a string that begins the slice and
    runs past it is the slice, with a key's colon. None if what begins at ``pos`` is no
    token, or a string stops before its closing quote."""
    after = _CUT.search(text, pos + SLICE_CHARS) if pos + SLICE_CHARS < end else None
    cut = after.end() if after else end
    window = text[pos:cut]
    pieces: list[str | None] = _STRINGS.split(window) if '"' in window else [window]
    closed = pieces[2::3]
    if None not in closed:
        return cut, pieces
    if closed.index(None) < len(closed) - 1:  # a string stopped short inside the slice
        return None
    # The window's end cuts its last string: the slice ends before it, or is that string.
    body, tail = cast("str", pieces[-3]), cast("str", pieces[-1])  # a body, an outside
    opened = cut - len(tail) - len(body) - 1
    if opened > pos:
        return opened, pieces[:-3]
    string = _STRINGS.match(text, pos)
    if string is None or string[2] is None:  # a quote that never closes
        return None
    colon = _COLON.match(text, string.end())
    stop = colon.end() if colon and colon[1] else string.end()
    return stop, ["", string[1], '"', text[string.end():stop]]


def _slice_values(pieces: list[str | None]) -> tuple[str, int, str] | None:
    """The values of a slice's pieces (as :func:`_slice` gives them), one a line, how many
    there are, and the slice with its strings out; None if a token is not JSON's.

    Everything here is one call into C over the slice, nothing a step per token in Python:
    the strings are taken out (a value's leaves a mark, a key's, the string before a colon,
    a blank), the punctuation becomes line ends, every line must then be a number, a word or
    a mark, and the values' bodies go back where their marks were, the whole undone as one
    JSON string.
    """
    bodies: list[str] | None = None
    if len(pieces) == 1:
        skeleton = pieces[0] or ""
    else:
        # A key's string is followed by its colon: its body is left out and its mark with it.
        after = cast("list[str]", pieces[3::3])
        keys = list(map(str.startswith, map(str.lstrip, after, repeat(_BLANK)), repeat(":")))
        bodies = list(compress(cast("list[str]", pieces[1::3]), map(operator.not_, keys)))
        pieces[1::3] = map((_MARK, " ").__getitem__, keys)
        pieces[2::3] = repeat("", len(keys))
        skeleton = "".join(cast("list[str]", pieces))
    lines = _LINE_ENDS.sub("\n", skeleton.translate(_TO_LINE_ENDS)).lstrip("\n")
    if lines and not lines.endswith("\n"):
        lines += "\n"
    if _TOKEN_LINES.fullmatch(lines) is None:
        return None
    lines = _NULL_LINE.sub("", lines).rstrip("\n")
    count = lines.count("\n") + 1 if lines else 0
    if bodies is None:
        return lines, count, skeleton
    between = lines.replace("\n", "\\n").split(_MARK)
    joined = [""] * (2 * len(bodies) + 1)
    joined[::2] = between
    joined[1::2] = bodies
    try:
        decoded: str = json.loads('"' + "".join(joined) + '"')
    except json.JSONDecodeError:  # an escape the language has not
        return None
    return decoded, count, skeleton
