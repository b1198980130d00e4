"""Two facts every reading module asks: how many letters a text holds, and whether an element
hides itself.

Letters, not characters, measure how much a page says: digits, spaces and punctuation are
left out, and a letter of any script counts once, so a page in Japanese and one in English
are measured alike. An element hides itself by the ``hidden`` attribute, ``aria-hidden="true"``
or an inline style of ``display: none`` / ``visibility: hidden`` (what the markup alone says:
no style sheet is applied).

Invariant: pure functions; the one place these two rules are written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["hides_itself", "letters"]

_NON_LETTERS = re.compile(r"[\W\d_]+")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden")


def letters(text: str) -> int:
    """How many letters (of any script) ``text`` holds."""
    return len(_NON_LETTERS.sub("", text))


def hides_itself(attrs: Mapping[str, str | None]) -> bool:
    """Whether an element's own attributes hide it from the reader."""
    if "hidden" in attrs or (attrs.get("aria-hidden") or "").strip().lower() == "true":
        return True
    return _HIDDEN_STYLE.search((attrs.get("style") or "").lower()) is not None
