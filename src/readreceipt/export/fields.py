"""The fields of a stored record that an export writes into header lines, checked first.

A WARC record's headers and the HTTP messages inside it are lines, so a CR or LF in any value
written there ends the line and starts another, and two end the header block: a record's
``final_url``, ``peer_address``, ``http_version``, ``user_agent``, its response header names
and each redirect hop's fields would forge headers or whole WARC records. A capture cannot
produce such values (the HTTP parser refuses them, URLs are written canonical by the URL
policy), but a library is files: one carried in a repository, pushed by someone else or edited
by hand is as hostile as a page. :func:`header_problem` names the first field that is no
header's value; the exporter leaves such a record out like an unreadable one (named on stderr,
exit 1, the rest exported).

Invariants: a record :func:`header_problem` passes writes no byte below 0x20 (tab aside) or
0x7F into any header line; the work is linear in the record.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Mapping
from typing import Any

from readreceipt.store.records import Record

#: The longest URL written: captures keep at most 2,048 characters (the URL policy's cap);
#: older or hand-made records get room, and the CDXJ key's SURT stays quick at this length.
MAX_URL_CHARS = 8192
#: RFC 9110 section 5.6.2: a field name is a token.
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VERSION = re.compile(r"HTTP/[0-9](?:\.[0-9])?")
#: What no header line may hold: C0 controls but tab, and DEL. (Whitespace runs in values,
#: tabs among them, are folded to one space when written: export/http.py.)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
#: A URL holds no space or control character at all.
_NOT_IN_URL = re.compile(r"[\x00-\x20\x7f]")


def header_problem(record: Record) -> str | None:
    """What in ``record`` cannot be written into a header line; None when nothing."""
    for name, value in _fields(record):
        problem = _problem(name, value)
        if problem:
            return problem
    return None


def _fields(record: Record) -> Iterator[tuple[str, Any]]:
    yield "final_url", record.final_url or record.url
    yield "peer_address", record.peer_address
    yield "http_version", record.http_version
    yield "user_agent", record.user_agent
    yield from (("header", item) for item in record.response_headers.items())
    for index, hop in enumerate(record.redirect_chain):
        if not isinstance(hop, Mapping):
            continue  # not written as a hop (export/http.py redirect_hops)
        yield f"redirect_chain[{index}].url", hop.get("url")
        yield f"redirect_chain[{index}].peer_address", hop.get("peer_address")
        yield f"redirect_chain[{index}].http_version", hop.get("http_version")
        headers = hop.get("headers")
        if isinstance(headers, Mapping):
            yield from ((f"redirect_chain[{index}].header", item) for item in headers.items())


def _problem(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if name.endswith("header"):
        key, text = value
        if not isinstance(key, str) or not _TOKEN.fullmatch(key):
            return f"{name} name {str(key)[:40]!r} is not an HTTP field name"
        if _CONTROL.search(str(text)):
            return f"{name} {key!r} holds a control character"
        return None
    if not isinstance(value, str):
        return f"{name} is not a string"
    if name.endswith("url"):
        if len(value) > MAX_URL_CHARS:
            return f"{name} is longer than {MAX_URL_CHARS} characters"
        if _NOT_IN_URL.search(value):
            return f"{name} holds a space or a control character"
    elif name.endswith("peer_address"):
        try:
            ipaddress.ip_address(value)
        except ValueError:
            return f"{name} {value[:60]!r} is not an IP address"
    elif name.endswith("http_version"):
        if not _VERSION.fullmatch(value):
            return f"{name} {value[:20]!r} is not an HTTP version"
    elif _CONTROL.search(value):
        return f"{name} holds a control character"
    return None
