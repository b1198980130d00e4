"""Bounded reading of what a user hands the CLI: numbers, sizes, answer files and URL lists.

Every input has a bound and a one-line refusal (exit 1) instead of an internal error or an
unbounded read: ``--timeout nan``, ``--max-bytes 10 parsecs``, ``--answer /dev/zero`` and
``--from /dev/zero`` each end in one sentence. The numbers are documented in docs/cli.md.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any, BinaryIO

import click

from readreceipt.errors import UsageError
from readreceipt.quotes.answers import MAX_ANSWER_BYTES

#: The longest a deadline or a wait may be, in seconds: an hour.
MAX_SECONDS = 3600.0
#: The largest size cap: 1 GiB (the body is held in memory while it is judged).
MAX_BYTES_CAP = 1024 ** 3
#: The most URLs one ``capture --from`` takes, and the most bytes read from its file.
MAX_URLS = 10_000
MAX_URL_FILE_BYTES = 16 * 1024 * 1024

_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1000, "kib": 1024, "m": 1024 ** 2, "mb": 1000 ** 2,
          "mib": 1024 ** 2, "g": 1024 ** 3, "gb": 1000 ** 3, "gib": 1024 ** 3}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)", re.IGNORECASE)  # on the stripped value


class Seconds(click.ParamType[float]):
    """A finite number of seconds between ``low`` and :data:`MAX_SECONDS`."""

    name = "seconds"

    def __init__(self, low: float, *, low_open: bool = False) -> None:
        self.low = low
        self.low_open = low_open

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        below = number <= self.low if self.low_open else number < self.low
        if not math.isfinite(number) or below or number > MAX_SECONDS:
            self.fail(f"{value!r} is not a number of seconds from {self.low:g} to "
                      f"{MAX_SECONDS:g}", param, ctx)
        return number


class ByteSize(click.ParamType[int]):
    """A size: bytes, or a number with a unit (``K``/``KiB`` 1024, ``kB`` 1000, ``M``/``MiB``,
    ``MB``, ``G``/``GiB``, ``GB``), from 1 byte to :data:`MAX_BYTES_CAP`."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            size = value
        else:
            match = _SIZE.fullmatch(str(value).strip())
            unit = _UNITS.get(match[2].lower()) if match else None
            if match is None or unit is None:
                self.fail(f"{value!r} is not a size (bytes, or a number with K, KiB, MB, "
                          "MiB, G...)", param, ctx)
            size = int(float(match[1]) * unit)
        if not 1 <= size <= MAX_BYTES_CAP:
            self.fail(f"{value!r} is not a size from 1 byte to 1 GiB", param, ctx)
        return size


def _read_bounded(source: str, limit: int, what: str) -> bytes:
    """At most ``limit`` bytes of ``source`` (a file, or ``-`` for stdin); UsageError past
    it or when it cannot be read."""
    try:
        if source == "-":
            stream: BinaryIO = sys.stdin.buffer
            data = stream.read(limit + 1)
        else:
            with Path(source).open("rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} from {source}: {exc.strerror or exc}",
                         reason=f"bad_{what.replace(' ', '_')}") from exc
    if len(data) > limit:
        raise UsageError(f"{what} in {source} is longer than {limit:,} bytes, the most "
                         "readreceipt reads; nothing was done",
                         reason=f"{what.replace(' ', '_')}_too_long")
    return data


def _text(data: bytes, source: str, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{what} in {source} is not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start})", reason=f"bad_{what.replace(' ', '_')}") from None


def read_answer(source: str) -> str:
    """The answer text from a file, or stdin for ``-``: at most MAX_ANSWER_BYTES."""
    return _text(_read_bounded(source, MAX_ANSWER_BYTES, "the answer"), source, "the answer")


#: A comment: ``#`` at the start of a line, or after white space (a URL's own ``#fragment``
#: follows no space, and a URL holds none).
_COMMENT = re.compile(r"(?<!\S)#.*")


def url_lines(text: str) -> list[str]:
    """The URLs of a ``--from`` file: one a line; blank lines and ``# comments`` skipped."""
    urls = []
    for line in text.splitlines():
        url = _COMMENT.sub("", line).strip()
        if url:
            urls.append(url)
    return urls


def read_urls(source: str) -> list[str]:
    """The URLs listed in ``source`` (a file, or ``-``), at most :data:`MAX_URLS`."""
    what = "the URL list"
    urls = url_lines(_text(_read_bounded(source, MAX_URL_FILE_BYTES, what), source, what))
    if len(urls) > MAX_URLS:
        raise UsageError(f"{source} lists {len(urls):,} URLs; one capture takes at most "
                         f"{MAX_URLS:,}; split the list", reason="too_many_urls")
    return urls
