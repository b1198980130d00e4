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
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from readreceipt.fetching.headers import FIELD_NAME
from readreceipt.store.records import Record

#: The longest URL written: captures keep at most 2,048 characters (the URL policy's cap);
#: older or hand-made records get room, and the CDXJ key's SURT stays quick at this length.
MAX_URL_CHARS = 8192
_VERSION = re.compile(r"HTTP/[0-9](?:\.[0-9])?")
#: What no header line may hold: C0 controls but tab, and DEL. (Whitespace runs in values,
#: tabs among them, are folded to one space when written: export/http.py.)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
#: A URL holds no space or control character at all.
_NOT_IN_URL = re.compile(r"[\x00-\x20\x7f]")

Check = Callable[[str, Any], "str | None"]


def header_problem(record: Record) -> str | None:
    """What in ``record`` cannot be written into a header line; None when nothing."""
    for name, value, check in _fields(record):
        problem = None if value is None else check(name, value)
        if problem:
            return problem
    return None


def _fields(record: Record) -> Iterator[tuple[str, Any, Check]]:
    yield "final_url", record.final_url or record.url, _url
    yield "peer_address", record.peer_address, _address
    yield "http_version", record.http_version, _version
    yield "user_agent", record.user_agent, _text
    yield from (("header", item, _header) for item in record.response_headers.items())
    for index, hop in enumerate(record.redirect_chain):
        if not isinstance(hop, Mapping):
            continue  # not written as a hop (export/http.py redirect_hops)
        at = f"redirect_chain[{index}]"
        yield f"{at}.url", hop.get("url"), _url
        yield f"{at}.peer_address", hop.get("peer_address"), _address
        yield f"{at}.http_version", hop.get("http_version"), _version
        headers = hop.get("headers")
        if isinstance(headers, Mapping):
            yield from ((f"{at}.header", item, _header) for item in headers.items())


def _header(name: str, item: Any) -> str | None:
    key, value = item
    if not isinstance(key, str) or not FIELD_NAME.fullmatch(key):
        return f"{name} name {str(key)[:40]!r} is not an HTTP field name"
    if _CONTROL.search(str(value)):
        return f"{name} {key!r} holds a control character"
    return None


def _url(name: str, value: Any) -> str | None:
    if not isinstance(value, str):
        return f"{name} is not a string"
    if len(value) > MAX_URL_CHARS:
        return f"{name} is longer than {MAX_URL_CHARS} characters"
    if _NOT_IN_URL.search(value):
        return f"{name} holds a space or a control character"
    return None


def _address(name: str, value: Any) -> str | None:
    try:
        ipaddress.ip_address(value if isinstance(value, str) else "")
    except ValueError:
        return f"{name} {str(value)[:60]!r} is not an IP address"
    return None


def _version(name: str, value: Any) -> str | None:
    if not isinstance(value, str) or not _VERSION.fullmatch(value):
        return f"{name} {str(value)[:20]!r} is not an HTTP version"
    return None


def _text(name: str, value: Any) -> str | None:
    if not isinstance(value, str):
        return f"{name} is not a string"
    return f"{name} holds a control character" if _CONTROL.search(value) else None
