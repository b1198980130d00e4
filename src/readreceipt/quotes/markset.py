"""The quotation marks of every script, as characters: the one table of them.

:mod:`readreceipt.quotes.marks` pairs them (which closes which, and where each may open);
this module holds only the table, so that a quick look needs no more than it: the hook's
stop asks :func:`may_quote` before it opens a library to check an agent's answer.

Standard library only, and of it nothing: the hook's quick modes import this.
"""

from __future__ import annotations

#: Family of an opening mark -> the characters that close it.
CLOSERS: dict[str, str] = {
    '"': '"', "\uff02": "\uff02",
    # A straight mark closes a curly or low one too: hands (and phones' keyboards) open with
    # one and close with the other ("He said “the city kept its word" on Tuesday").
    "\u201c": '\u201d"',
    "\u201e": '\u201c\u201d"',
    "\u201d": "\u201d",
    "\u00ab": "\u00bb",
    "\u00bb": "\u00ab\u00bb",
    "\u2039": "\u203a",
    "\u203a": "\u2039\u203a",
    "\u201a": "\u2018\u2019",
    "\u2018": "\u2019",
    "\u300c": "\u300d", "\u300e": "\u300f", "\uff62": "\uff63", "\u301d": "\u301e\u301f",
    "\ufe41": "\ufe42", "\ufe43": "\ufe44",
}
#: Every character that opens or closes a quotation somewhere.
MARK_CHARS = frozenset(CLOSERS) | frozenset("".join(CLOSERS.values()))


def may_quote(text: str) -> bool:
    """Might ``text`` hold a quotation: a quotation mark of any script, or a markdown block
    quote (a line opening with ``>``)? False means surely not; True means look."""
    if any(mark in text for mark in MARK_CHARS):
        return True
    return ">" in text and any(line.lstrip().startswith(">") for line in text.splitlines())
