"""A record's YAML, read directly: what ``yaml.load`` reads from what :mod:`recordyaml` writes.

Reading a record with PyYAML costs about 2 ms even with libyaml's parser (its constructor
and resolver are Python, called once for each of a record's hundred or so values), which
is a third of what an export spends on a record and most of what ``show`` and the viewer
spend. :func:`load` reads the shapes :func:`readreceipt.store.recordyaml.dump` writes, and
nothing else: block mappings of plain keys (a nested mapping two columns in, a sequence at
its key's column, PyYAML's indentless style), block sequences of scalars and of mappings,
``{}`` and ``[]``, and single-line scalars written plain or single-quoted, folded onto
further lines at single spaces. Every scalar is held to the rules the writer chose it by
(``recordyaml``'s ``WRITABLE``, ``NOT_PLAIN`` and PyYAML's own resolver), so a plain
scalar means here what it means to PyYAML.

Anything else (a comment, a tab, a blank line, a double-quoted or block scalar, an anchor,
a flow collection, a key that needs quotes, a repeated key, an indentation the writer would
not make, a number in a form other than the one the writer writes, a timestamp) makes it
answer None, and the caller reads the text with PyYAML, which then also says what is wrong
with it. So a record that was edited by hand, written by an older version or tampered with
is read exactly as before. ``tests/test_recordparse.py`` holds the two readers to the same
values on every record shape and on random ones (Hypothesis), and this reader to None on
texts PyYAML reads otherwise.

Linear in the text: each line is looked at once, and a scalar's pieces are joined once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import yaml
from yaml.resolver import Resolver

from readreceipt.store.recordyaml import NOT_PLAIN, PLAIN_KEY, WRITABLE

__all__ = ["load"]

_RESOLVER = Resolver()
_TAG = "tag:yaml.org,2002:"
#: Integers as the writer writes them (``str(int)``); PyYAML's other forms (octal, hex,
#: underscores, base 60) are left to it.
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
#: Floats as the writer writes them (``repr``, lowered, ``.0`` before an exponent).
_FLOAT = re.compile(r"\A-?[0-9]+\.[0-9]*(?:e[-+][0-9]+)?")  # \A: one start, as fullmatch reads it
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
#: The characters a record's text may hold at all: the writer's, and line breaks.
_TEXT = re.compile("[\n" + WRITABLE.pattern[1:])
#: Mappings and sequences nested deeper than this are left to PyYAML (a record nests four).
MAX_DEPTH = 32


class _Other(Exception):
    """Not a shape the writer makes: PyYAML reads the text."""


def load(text: str, max_values: int) -> dict[str, Any] | None:
    """The mapping ``yaml.safe_load(text)`` reads, or None when ``text`` is not in the form
    :func:`recordyaml.dump` writes (then read it with PyYAML), or holds more than
    ``max_values`` values."""
    if not text.endswith("\n") or not _TEXT.fullmatch(text):
        return None
    lines = text[:-1].split("\n")
    reader = _Reader(lines, max_values)
    try:
        data = reader.mapping(0, None)
        if reader.at != len(lines):
            return None
    except _Other:
        return None
    return data


class _Reader:
    __slots__ = ("at", "left", "lines")

    def __init__(self, lines: list[str], max_values: int) -> None:
        self.lines = lines
        self.at = 0
        self.left = max_values

    def _count(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _Other

    def _nested(self, indent: int) -> None:
        if indent > 2 * MAX_DEPTH:  # every level is two columns in, or a dash and a space
            raise _Other

    def _indent_of(self, line: str) -> int:
        return len(line) - len(line.lstrip(" "))

    def mapping(self, indent: int, first: str | None) -> dict[str, Any]:
        """The mapping whose keys stand at ``indent``; ``first`` is its first line's rest
        when it began after a sequence's dash."""
        self._nested(indent)
        self._count()
        data: dict[str, Any] = {}
        while True:
            if first is not None:
                rest, first = first, None
            else:
                if self.at >= len(self.lines):
                    break
                line = self.lines[self.at]
                if self._indent_of(line) != indent:
                    break
                rest = line[indent:]
                self.at += 1
            key, sep, value = rest.partition(":")
            if not sep or not _plain_key(key) or key in data or (value and value[0] != " "):
                raise _Other
            self._count()
            data[key] = self._value(value[1:], indent)
        if not data:
            raise _Other
        return data

    def _value(self, value: str, indent: int) -> Any:
        """A mapping's value: on its key's line, or the block below it."""
        if value == "":
            if self.at >= len(self.lines):
                raise _Other
            below = self.lines[self.at]
            if below.startswith(" " * indent + "- ") or below == " " * indent + "-":
                return self.sequence(indent)
            if self._indent_of(below) == indent + 2:
                return self.mapping(indent + 2, None)
            raise _Other
        if value[0] == " ":
            raise _Other
        return self._inline(value, indent + 2)

    def _inline(self, value: str, indent: int) -> Any:
        """A value written on the line: ``{}``, ``[]`` or a scalar continued at ``indent``."""
        self._count()
        if value == "{}":
            return {}
        if value == "[]":
            return []
        pieces = [value]
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if self._indent_of(line) != indent or len(line) == indent:
                break
            pieces.append(line[indent:])
            self.at += 1
        if len(pieces) == 1:
            return _single_quoted(pieces) if value[0] == "'" else _one_plain(value)
        if any(piece.endswith(" ") for piece in pieces[:-1]):
            raise _Other  # YAML drops the spaces before a fold: not the writer's
        return _single_quoted(pieces) if value[0] == "'" else _plain(pieces)

    def sequence(self, indent: int) -> list[Any]:
        self._nested(indent)
        self._count()
        items: list[Any] = []
        dash = " " * indent + "-"
        while self.at < len(self.lines) and self.lines[self.at].startswith(dash):
            line = self.lines[self.at]
            rest = line[indent + 1:]
            self.at += 1
            if not rest.startswith(" ") or rest[1:2] in ("", " "):
                raise _Other  # a nested block after a bare dash: not the writer's
            rest = rest[1:]
            if rest[0] not in "'-" and _is_key_line(rest):
                items.append(self.mapping(indent + 2, rest))
            else:
                items.append(self._inline(rest, indent + 2))
        return items


def _is_key_line(rest: str) -> bool:
    key, sep, value = rest.partition(":")
    return bool(sep) and (value == "" or value[0] == " ") and PLAIN_KEY.fullmatch(key) is not None


@lru_cache(maxsize=1024)
def _plain_key(key: str) -> bool:
    """Whether ``key`` is a key the writer writes plain (a record has a few dozen names)."""
    return PLAIN_KEY.fullmatch(key) is not None and _resolve(key) == "str"


@lru_cache(maxsize=4096)
def _one_plain(text: str) -> Any:
    """A plain scalar on one line; remembered, since most of a record's values recur (null,
    false, the verdicts, the content types, the extractor's name). The values are
    immutable."""
    return _plain([text])


def _resolve(text: str) -> str:
    tag: str = _RESOLVER.resolve(  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
        yaml.ScalarNode, text, (True, False))
    return tag.removeprefix(_TAG)


def _plain(pieces: list[str]) -> Any:
    for piece in pieces[1:]:
        if piece[0] in "#-?:,[]{}&*!|>'\"%@`":
            raise _Other  # a continuation PyYAML might read another way
    text = " ".join(pieces)
    if NOT_PLAIN.search(text) or not WRITABLE.fullmatch(text):
        raise _Other
    kind = _resolve(text)
    if kind == "str":
        return text
    if len(pieces) > 1:
        raise _Other  # the writer folds only strings
    if kind == "null" and text == "null":
        return None
    if kind == "bool":
        return _BOOLS[text.lower()]
    if kind == "int" and _INT.fullmatch(text):
        return int(text)
    if kind == "float" and _FLOAT.fullmatch(text):
        return float(text)
    raise _Other  # a timestamp, a merge key, a number in another form


def _single_quoted(pieces: list[str]) -> str:
    first, last = pieces[0], pieces[-1]
    if (len(first) < 2 and len(pieces) == 1) or not last.endswith("'"):
        raise _Other
    inner = " ".join(pieces)[1:-1]
    # Inside, a quote stands only doubled; one alone would end the scalar early.
    if inner.replace("''", "").count("'") or not WRITABLE.fullmatch(inner):
        raise _Other
    return inner.replace("''", "'")
