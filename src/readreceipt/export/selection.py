"""Which retrievals an export takes: by URL pattern, by date, by session.

Invariant: the records come oldest first (then by record id), so a payload's first capture is
written before any later capture that repeats it; a later one can then be a revisit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from readreceipt.errors import UsageError
from readreceipt.store.clock import stamp_of
from readreceipt.store.library import Library
from readreceipt.store.protocols import RetrievalFilter


@dataclass(frozen=True)
class Selection:
    """Filters of ``readreceipt export``; all None takes every retrieval."""

    url_pattern: str | None = None  # text the URL contains; ``*`` matches any run of characters
    since: str | None = None  # a fetched_at lower bound, as :func:`parse_since` makes it
    session_id: str | None = None

    def matches_url(self, *urls: str | None) -> bool:
        if not self.url_pattern:
            return True
        pattern = _pattern(self.url_pattern)
        return any(u and pattern.search(u) for u in urls)


#: The selection that takes every retrieval.
EVERYTHING = Selection()


def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in text.split("*")))


def parse_since(text: str) -> str:
    """A date or date-time (ISO 8601; no zone means UTC) as a ``fetched_at`` bound."""
    try:
        return stamp_of(text)
    except ValueError as exc:
        raise UsageError(f"--since wants a date such as 2026-01-31 or 2026-01-31T12:00; "
                         f"{text!r} is {exc}", reason="bad_date") from None


def selected_ids(library: Library, selection: Selection) -> Iterator[str]:
    """Record ids of the retrievals the selection takes, oldest first, read from the index a
    page at a time (an export of a million holds one page of them)."""
    where = RetrievalFilter(session_id=selection.session_id, since=selection.since)
    for row in library.index.oldest_first(where):
        if selection.matches_url(row.url, row.final_url):
            yield row.record_id

