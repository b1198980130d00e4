"""Where diagnostics go: readreceipt's own to stderr; the libraries' only when asked (``-v``).

A capture's stderr is for readreceipt's own lines (a bad input gets one clear line).
trafilatura logs its own view of a page at WARNING and ERROR ("discarding data: None",
"parsed tree length: 0, wrong data type or not valid HTML") where readreceipt has already
judged the page (an empty or unreadable body is the verdict's to say), so those lines
reached the user as if they were readreceipt's. Other libraries' messages pass at ``-v``.
"""

from __future__ import annotations

import logging
import sys

_OWN = "readreceipt"


class _OwnUnlessVerbose(logging.Filter):
    def __init__(self, verbose: bool) -> None:
        super().__init__()
        self.verbose = verbose

    def filter(self, record: logging.LogRecord) -> bool:
        own = record.name == _OWN or record.name.startswith(_OWN + ".")
        return own or self.verbose


def configure(level: int, fmt: str) -> None:
    """Diagnostics at ``level`` and above to stderr in ``fmt``; below WARNING is verbose."""
    logging.basicConfig(level=level, stream=sys.stderr, format=fmt)
    for handler in logging.getLogger().handlers:
        handler.filters = [f for f in handler.filters if not isinstance(f, _OwnUnlessVerbose)]
        handler.addFilter(_OwnUnlessVerbose(level < logging.WARNING))
