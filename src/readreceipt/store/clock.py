"""The one timestamp format of the store: UTC, ISO 8601, microseconds, a trailing ``Z``.

Standard library only, so that the index (and through it the hook's report path) can stamp
rows without importing the record's YAML machinery.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def stamp_of(text: str) -> str:
    """A date or date-time someone typed (ISO 8601; no zone means UTC) as a timestamp in the
    store's format, to compare with ``fetched_at``. ValueError, saying why, when it is not
    one or lies outside the times that can be compared (years 1 to 9999 in UTC)."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError("not an ISO 8601 date or time") from None
    if when.tzinfo is not None:
        try:
            when = when.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # 0001-01-01T00:00+01:00 is before the first UTC time there is
            raise ValueError("outside the times that can be compared (years 1 to 9999 in "
                             "UTC)") from None
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
