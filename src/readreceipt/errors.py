"""Every exception readreceipt raises on purpose, and the table of exit codes.

:class:`ExitCode` is the one table of the codes a command ends with (``docs/cli.md``): the
exceptions below carry theirs, the verdict (:func:`readreceipt.reading.verdict.exit_code_for`),
the answer checks, ``verify`` and the CLI read theirs from it.

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
    "EXIT_CODE_MEANINGS",
    "DeclinedError",
    "ExitCode",
    "FetchError",
    "FetchTimeout",
    "LibraryError",
    "ReadReceiptError",
    "RecordNotFound",
    "RefusedError",
    "UsageError",
    "batch_exit_code",
]


class ExitCode:
    """The exit codes of ``readreceipt`` (plain ints: this module stays import-light)."""

    OK = 0
    #: A usage error, or the library cannot be used (not a library, read-only, disk full,
    #: unknown record), or ``verify`` found a problem, or ``export`` could not export a
    #: selected retrieval whole (its record unreadable, its bytes gone or changed).
    USAGE = 1
    LIBRARY = 1
    REFUSED = 2  # a security rule: URL policy, address guard, credentials in the URL
    DECLINED = 3  # politeness: robots.txt, pacing, session cap
    NETWORK = 4  # DNS, connection, TLS, https->http downgrade
    HTTP_ERROR = 5  # an HTTP error status (or too many redirects)
    TIMEOUT = 6
    TOO_LARGE = 7  # over the size cap, or the text read from the beginning only
    NOT_THE_PAGE = 8  # a wall, a JavaScript shell, a soft 404, thin text
    NO_TEXT = 9  # an empty body, a PDF without a text layer, binary, invalid JSON
    QUOTE_NOT_FOUND = 10  # a quotation, figure or name of the answer is not on the page
    #: An answer was given but nothing in it was checked: it holds no quotation, figure or
    #: name (or is empty), or the copy's texts are gone (its bytes forgotten). Never a pass;
    #: a copy that is not the page (a wall: 8) keeps its own code.
    NOT_CHECKED = 11
    INTERRUPTED = 130  # Ctrl-C


def batch_exit_code(codes: list[int], *, stopped: bool = False) -> int:
    """The exit code of one command over several URLs (``capture URL URL...``, ``--from``).

    0 when every URL's was 0. Otherwise the gravest of them: "not checked" (11) first, then
    the codes rise from no page at all (2-6) through a page that is not what it seems (7-9)
    to a quotation that is not on its page (10), so a script testing for 10 learns of any
    misquote whatever else happened.
    A batch stopped because the library cannot be written is 1, whatever came before. Each
    URL's own code is in the ``--json`` output.
    """
    if stopped:
        return ExitCode.LIBRARY
    return max(codes, key=_severity, default=ExitCode.OK)


def _severity(code: int) -> float:
    """How much a code says went wrong, for a batch: "not checked" (11) says least, below
    every failure to read a page and below a misquote, but it is no pass."""
    return 0.5 if code == ExitCode.NOT_CHECKED else float(code)


#: What each code means, in the words ``docs/cli.md`` uses (a test keeps them in step).
EXIT_CODE_MEANINGS: dict[int, str] = {
    ExitCode.OK: "ok",
    ExitCode.USAGE: "usage, or the library cannot be used (not a library, read-only, disk "
                    "full, unknown record), or `verify` found a problem, or `export` could not "
                    "export a selected retrieval whole",
    ExitCode.REFUSED: "refused by a security rule (URL policy, including a URL that does not "
                      "parse; address guard; credentials in the URL)",
    ExitCode.DECLINED: "declined by politeness (robots.txt, pacing, session cap)",
    ExitCode.NETWORK: "network (DNS, connection, TLS, https→http downgrade)",
    ExitCode.HTTP_ERROR: "HTTP error status, or too many redirects",
    ExitCode.TIMEOUT: "timeout",
    ExitCode.TOO_LARGE: "over the size cap, or text read from the body's beginning only",
    ExitCode.NOT_THE_PAGE: "not the page (wall, shell, soft 404, thin text)",
    ExitCode.NO_TEXT: "no text extracted (empty body, PDF without text layer, binary, "
                      "invalid JSON)",
    ExitCode.QUOTE_NOT_FOUND: "a quotation, a figure or a name is not on the page",
    ExitCode.NOT_CHECKED: "an answer was given but not checked (it holds no quotation, figure "
                          "or name, or the copy's texts are gone): not a pass",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}


class ReadReceiptError(Exception):
    """Root of readreceipt's exceptions."""

    exit_code: int = ExitCode.USAGE
    #: A browser's rendering discarded by this error: the requests a security layer refused
    #: on its way (``{url, reason, layer}`` each), which the record keeps all the same.
    blocked_requests: tuple[dict[str, str], ...] = ()

    def __init__(self, message: str, *, url: str | None = None, reason: str = "error") -> None:
        super().__init__(message)
        self.url = url
        self.reason = reason


class RefusedError(ReadReceiptError):
    """A security rule refused the request; nothing was sent to the target."""

    exit_code = ExitCode.REFUSED


class DeclinedError(ReadReceiptError):
    """Politeness declined the request for now (robots.txt, pacing, session cap)."""

    exit_code = ExitCode.DECLINED


class FetchError(ReadReceiptError):
    """The network failed before an HTTP response arrived."""

    exit_code = ExitCode.NETWORK


class FetchTimeout(FetchError):
    """The total deadline passed."""

    exit_code = ExitCode.TIMEOUT


class LibraryError(ReadReceiptError):
    """The evidence library cannot be found, opened, read or written."""

    exit_code = ExitCode.LIBRARY


class RecordNotFound(LibraryError):
    """No record matches the id or URL asked for."""


class UsageError(ReadReceiptError):
    """An argument that makes no sense."""
