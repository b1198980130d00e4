"""readreceipt: a verifiable read receipt for every web page an AI agent relies on.

The public API, loaded lazily so that importing a small module of the package (the hook's
fast path, for one) never pulls in httpx, trafilatura or SQLite::

    from readreceipt import capture, CaptureOptions, Library, check_answer, fetch_page

Exceptions are importable from here too; their hierarchy is drawn in ``errors.py``.
"""

from __future__ import annotations

from readreceipt._version import __version__
from readreceipt.errors import (
    DeclinedError,
    FetchError,
    FetchTimeout,
    LibraryError,
    ReadReceiptError,
    RecordNotFound,
    RefusedError,
    UsageError,
)

# Not typing.TYPE_CHECKING: importing typing (and re, enum with it) costs the hook's fast path
# about 10 ms, most of a bare interpreter start. mypy honours a constant of this name.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from readreceipt.api import check_answer, fetch_page
    from readreceipt.pipeline import CaptureOptions, CaptureResult, capture
    from readreceipt.store.library import Library
    from readreceipt.store.records import Record

_LAZY = {
    "capture": "readreceipt.pipeline",
    "CaptureOptions": "readreceipt.pipeline",
    "CaptureResult": "readreceipt.pipeline",
    "Library": "readreceipt.store.library",
    "Record": "readreceipt.store.records",
    "check_answer": "readreceipt.api",
    "fetch_page": "readreceipt.api",
}

__all__ = [
    "CaptureOptions",
    "CaptureResult",
    "DeclinedError",
    "FetchError",
    "FetchTimeout",
    "Library",
    "LibraryError",
    "ReadReceiptError",
    "Record",
    "RecordNotFound",
    "RefusedError",
    "UsageError",
    "__version__",
    "capture",
    "check_answer",
    "fetch_page",
]


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'readreceipt' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value
