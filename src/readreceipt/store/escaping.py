"""Text that cannot be written as UTF-8, made storable: lone surrogates, escaped.

A JSON document may hold ``"\\ud800"``: a lone UTF-16 surrogate, valid JSON, not a character.
Python decodes it into a ``str`` that no UTF-8 file, YAML loader or SQLite column takes
(and an undecodable command-line byte arrives as one too: ``\\udcff``). Such text reaches
readreceipt in hook payloads (session ids, URLs, answers) and in MCP calls; refusing it would
lose the capture it came with.

Rule: every lone surrogate is written as the six characters ``\\udXXX`` (Python's
``backslashreplace``), in every store (YAML records, JSON Lines logs, SQLite rows), so odd
text is kept, visibly, and read back as the same escaped text everywhere. Other text is left
exactly as it is.

Standard library only (the hook's report path opens the index).
"""

from __future__ import annotations

from typing import Any


def escape_text(text: str) -> str:
    """``text`` with each lone surrogate written as ``\\udXXX``; otherwise unchanged."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def storable(value: Any) -> Any:
    """``value`` with every string in it (in dicts, lists and tuples too) escaped."""
    if isinstance(value, str):
        return escape_text(value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(storable(v) for v in value)
    return value
