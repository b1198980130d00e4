"""The one timestamp format of the store: UTC, ISO 8601, microseconds, a trailing ``Z``.

Standard library only, so that the index (and through it the hook's report path) can stamp
rows without importing the record's YAML machinery.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
