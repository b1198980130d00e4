"""A record's YAML, written directly: the same bytes PyYAML's ``safe_dump`` writes, faster.

``yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)`` runs every value
through a representer, a serializer and an event-driven emitter, in Python: about 3 ms a
record, a tenth of what a capture costs besides its extraction. libyaml's emitter is
quicker but does not write the same bytes (it escapes characters past U+FFFF and folds long
quoted lines its own way), and a record's bytes must not depend on whether libyaml was
built. So :func:`dump` writes what PyYAML's emitter writes, for the shapes a record takes:
block mappings of plain keys, block sequences, and scalars written plain or single-quoted
(PyYAML's own choice between them, its own line folding at the width), ``null``, booleans,
integers and finite floats. Anything else (a key that needs quotes, a string with a line
break, a tab or another character PyYAML writes double-quoted, a nested sequence, an empty
mapping at the top) makes it answer None, and the caller uses PyYAML. ``tests/test_records.py``
holds the two to the same bytes on every shape and on many random strings.

The rules below are PyYAML 6's emitter (``Emitter.analyze_scalar``, ``choose_scalar_style``,
``write_plain``, ``write_single_quoted``, ``write_indent``), for the cases above only.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.resolver import Resolver

__all__ = ["NOT_PLAIN", "PLAIN_KEY", "WRITABLE", "dump"]

#: The width records are written at (``width=100``) and PyYAML's indent step.
WIDTH = 100
_STEP = 2

_RESOLVER = Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
#: Characters PyYAML writes without escapes in a single-line scalar (allow_unicode): printable
#: ASCII and printable Unicode; not U+FEFF, the line and paragraph separators, NEL, tabs or
#: other controls (those make it write the scalar double-quoted).
WRITABLE = re.compile("[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                       "\U00010000-\U0010fffe]*")
#: What keeps a single-line scalar from being written plain in block context (its
#: "block indicators", and spaces at its ends).
NOT_PLAIN = re.compile(r"^(?:---|\.\.\.)|^[#,\[\]{}&*!|>'\"%@`]|^[?:-](?: |$)|.:(?: |$)| #|^ | $")
#: Keys written plain as PyYAML writes them (simple keys, never folded).
PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,99}")


class _Out:
    """The emitter's position: what is written, the column, and its two flags."""

    __slots__ = ("column", "indention", "parts", "whitespace")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.column = 0
        self.whitespace = True
        self.indention = True

    def write(self, data: str) -> None:
        self.parts.append(data)
        self.column += len(data)

    def indicator(self, mark: str, need_whitespace: bool, *, indention: bool = False) -> None:
        self.write(mark if self.whitespace or not need_whitespace else " " + mark)
        self.whitespace = False
        self.indention = self.indention and indention

    def indent(self, indent: int) -> None:
        if not self.indention or self.column > indent or (
                self.column == indent and not self.whitespace):
            self.parts.append("\n")
            self.column = 0
            self.whitespace = self.indention = True
        if self.column < indent:
            self.whitespace = True
            self.write(" " * (indent - self.column))


class _Unsupported(Exception):
    """A value outside what :func:`dump` writes: PyYAML writes the record."""


def dump(data: dict[str, Any]) -> str | None:
    """``yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)``, or None
    when ``data`` holds something this writer leaves to PyYAML."""
    if not isinstance(data, dict) or not data:
        return None
    out = _Out()
    try:
        _mapping(out, data, None, set())
    except _Unsupported:
        return None
    out.indent(0)  # the document's end: a line break after the last value
    return "".join(out.parts)


def _mapping(out: _Out, data: dict[str, Any], indent: int | None, seen: set[int]) -> None:
    _once(data, seen)
    own = 0 if indent is None else indent + _STEP
    for key, value in data.items():
        if not isinstance(key, str) or not PLAIN_KEY.fullmatch(key) or \
                not _reads_back_as_str(key):
            raise _Unsupported
        out.indent(own)
        _plain(out, key, own, split=False)
        out.indicator(":", False)
        _node(out, value, own, seen)


def _once(collection: object, seen: set[int]) -> None:
    """A collection met twice is written by PyYAML as an anchor and an alias: not here."""
    if id(collection) in seen:
        raise _Unsupported
    seen.add(id(collection))


def _node(out: _Out, value: Any, indent: int, seen: set[int]) -> None:
    """A mapping's value, or a sequence's item, at the collection's ``indent``."""
    if isinstance(value, dict):
        if not value:
            out.indicator("{", True)
            out.indicator("}", False)
        else:
            _mapping(out, value, indent, seen)
    elif isinstance(value, list):
        if not value:
            out.indicator("[", True)
            out.indicator("]", False)
        else:
            _sequence(out, value, indent, seen)
    else:
        _scalar(out, value, indent + _STEP)


def _sequence(out: _Out, items: list[Any], indent: int, seen: set[int]) -> None:
    # A sequence that is a mapping's value is indentless: its dashes at the mapping's indent.
    _once(items, seen)
    for item in items:
        out.indent(indent)
        out.indicator("-", True, indention=True)
        if isinstance(item, list) and item:
            raise _Unsupported  # a sequence in a sequence: not in a record
        _node(out, item, indent, seen)


def _scalar(out: _Out, value: Any, indent: int) -> None:
    if value is None:
        _plain(out, "null", indent)
    elif value is True or value is False:
        _plain(out, "true" if value else "false", indent)
    elif isinstance(value, int):
        _plain(out, str(value), indent)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise _Unsupported
        text = repr(value).lower()
        if "." not in text and "e" in text:
            text = text.replace("e", ".0e", 1)
        _plain(out, text, indent)
    elif isinstance(value, str):
        if not WRITABLE.fullmatch(value):
            raise _Unsupported  # a line break, a tab, a control: written double-quoted
        if value and not NOT_PLAIN.search(value) and _reads_back_as_str(value):
            _plain(out, value, indent)
        else:
            _single_quoted(out, value, indent)
    else:
        raise _Unsupported


def _reads_back_as_str(text: str) -> bool:
    """Whether PyYAML reads ``text`` written plain back as a string (not as a number, a
    date, a boolean or null): else it quotes it."""
    tag: str = _RESOLVER.resolve(  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
        yaml.ScalarNode, text, (True, False))
    return tag == _STR_TAG


def _plain(out: _Out, text: str, indent: int, *, split: bool = True) -> None:
    """PyYAML's ``write_plain`` for a single-line scalar: folded at a lone space past the
    width."""
    if not out.whitespace:
        out.write(" ")
    out.whitespace = out.indention = False
    if not split or len(text) + out.column <= WIDTH or " " not in text:
        out.write(text)
        return
    spaces = False
    start = end = 0
    n = len(text)
    while end <= n:
        ch = text[end] if end < n else None
        if spaces:
            if ch != " ":
                if start + 1 == end and out.column > WIDTH:
                    out.indent(indent)
                    out.whitespace = out.indention = False
                else:
                    out.write(text[start:end])
                start = end
        elif ch is None or ch == " ":
            out.write(text[start:end])
            start = end
        if ch is not None:
            spaces = ch == " "
        end += 1


def _single_quoted(out: _Out, text: str, indent: int) -> None:
    """PyYAML's ``write_single_quoted`` for a single-line scalar."""
    out.indicator("'", True)
    spaces = False
    start = end = 0
    n = len(text)
    while end <= n:
        ch = text[end] if end < n else None
        if spaces:
            if ch is None or ch != " ":
                if start + 1 == end and out.column > WIDTH and start != 0 and end != n:
                    out.indent(indent)
                else:
                    out.write(text[start:end])
                start = end
        elif (ch is None or ch == " " or ch == "'") and start < end:
            out.write(text[start:end])
            start = end
        if ch == "'":
            out.write("''")
            start = end + 1
        if ch is not None:
            spaces = ch == " "
        end += 1
    out.indicator("'", False)
