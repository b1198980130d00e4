"""Every exception readreceipt raises on purpose, and the exit code each one means.

The hierarchy is small on purpose; each adapter (CLI, hook, MCP server) maps it once::

    ReadReceiptError                  .url, .reason, .exit_code
    ├── RefusedError        (2)       a security rule: URL policy, address guard, credentials
    ├── DeclinedError       (3)       politeness: robots.txt, pacing, dedup, session cap
    ├── FetchError          (4)       the network: DNS, connection, TLS, protocol
    │   └── FetchTimeout    (6)       the total deadline passed
    ├── LibraryError        (1)       the library cannot be opened, read or written
    │   └── RecordNotFound  (1)       no record matches an id or URL
    └── UsageError          (1)       an argument that makes no sense

HTTP error statuses, walls and empty pages are *not* exceptions: a capture that reached a
server always produces a record with a verdict; only the verdict's exit code differs.

Invariant: ``reason`` is a short machine-readable code (``"private_address"``,
``"robots"``...) and ``str(exc)`` is one human sentence that never contains a secret.
"""

from __future__ import annotations

__all__ = [
    "DeclinedError",
    "FetchError",
    "FetchTimeout",
    "LibraryError",
    "ReadReceiptError",
    "RecordNotFound",
    "RefusedError",
    "UsageError",
]


class ReadReceiptError(Exception):
    """Root of readreceipt's exceptions."""

    exit_code: int = 1

    def __init__(self, message: str, *, url: str | None = None, reason: str = "error") -> None:
        super().__init__(message)
        self.url = url
        self.reason = reason


class RefusedError(ReadReceiptError):
    """A security rule refused the request; nothing was sent to the target."""

    exit_code = 2


class DeclinedError(ReadReceiptError):
    """Politeness declined the request for now (robots.txt, pacing, session cap)."""

    exit_code = 3


class FetchError(ReadReceiptError):
    """The network failed before an HTTP response arrived."""

    exit_code = 4


class FetchTimeout(FetchError):
    """The total deadline passed."""

    exit_code = 6


class LibraryError(ReadReceiptError):
    """The evidence library cannot be found, opened, read or written."""

    exit_code = 1


class RecordNotFound(LibraryError):
    """No record matches the id or URL asked for."""


class UsageError(ReadReceiptError):
    """An argument that makes no sense."""
