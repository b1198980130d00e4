"""HTTP/1.1 message framing for the browser's proxy (:mod:`readreceipt.browser.proxy`).

Only what a forward proxy needs: read a bounded message head, parse a request, read a
bounded request body, rewrite a response head to ``Connection: close``, and relay a
response body by its own framing (``Content-Length``, ``chunked``, or until the server
closes), so that a server which keeps its connection open after the body cannot hold the
browser's request hostage until the idle timeout.

Invariant: nothing here reads more than its limit into memory; every failure is a
:class:`Reply` the proxy sends back to the browser.
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass

from readreceipt.fetching.headers import FIELD_NAME

CHUNK = 64 * 1024
#: A chunk-size line or trailer line longer than this is not HTTP.
MAX_LINE = 4096

_STATUS_LINE = re.compile(rb"^HTTP/1\.[01] ([1-5][0-9][0-9])(?: |$)")


class Reply(Exception):
    """Answer the browser with this status and end the connection."""

    def __init__(self, status: int, phrase: str, text: str, *, refused: bool = False) -> None:
        super().__init__(text)
        self.status = status
        self.phrase = phrase
        self.text = text
        self.refused = refused


@dataclass(frozen=True)
class Request:
    method: str
    target: str
    headers: tuple[tuple[str, str], ...]

    def header(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name]


class Buffered:
    """A socket with read-ahead: lines and exact lengths, never more than asked for held."""

    def __init__(self, sock: socket.socket, initial: bytes = b"") -> None:
        self.sock = sock
        self.buf = initial

    def _fill(self) -> None:
        chunk = self.sock.recv(CHUNK)
        if not chunk:
            raise EOFError
        self.buf += chunk

    def line(self, limit: int = MAX_LINE) -> bytes:
        """One line, CRLF included."""
        while (end := self.buf.find(b"\n")) < 0:
            if len(self.buf) > limit:
                raise Reply(502, "Bad Gateway", "the server sent an overlong line")
            self._fill()
        line, self.buf = self.buf[:end + 1], self.buf[end + 1:]
        return line

    def read(self, most: int) -> bytes:
        """Between 1 and ``most`` bytes (at most CHUNK): what is buffered, else one recv."""
        if not self.buf:
            self._fill()
        data, self.buf = self.buf[:min(most, CHUNK)], self.buf[min(most, CHUNK):]
        return data

    def until_eof(self) -> bytes:
        if self.buf:
            data, self.buf = self.buf, b""
            return data
        return self.sock.recv(CHUNK)


def read_head(sock: socket.socket, limit: int, *, upstream: bool,
              initial: bytes = b"") -> tuple[bytes, bytes]:
    """Read up to the blank line ending a message head; return (head, bytes after it).

    A head over ``limit`` or cut short is answered 431/400 for the browser's request, 502
    for the server's response.
    """
    data = initial
    while True:
        end = data.find(b"\r\n\r\n")
        if end >= 0 and end + 4 <= limit:
            return data[:end + 4], data[end + 4:]
        if len(data) > limit:
            if upstream:
                raise Reply(502, "Bad Gateway", "the server's response head is too large")
            raise Reply(431, "Request Header Fields Too Large", "request head too large")
        chunk = sock.recv(CHUNK)
        if not chunk:
            if upstream:
                raise Reply(502, "Bad Gateway", "the server closed before its response head")
            raise Reply(400, "Bad Request", "connection closed before the request head ended")
        data += chunk


_NEVER_IN_A_LINE = ("\r", "\n", "\x00")


def parse_request(head: bytes) -> Request:
    text = head.decode("latin-1")  # every byte decodes; the checks below refuse oddities
    lines = text.split("\r\n")
    if any(ch in line for line in lines for ch in _NEVER_IN_A_LINE):
        # A bare CR or LF splits a line for one reader and not another ("X: a\rGET
        # http://..." smuggles a second request past a proxy that relays it); NUL ends a
        # string in C. RFC 9110 section 5.5 and RFC 9112 section 2.2 let a recipient refuse.
        raise Reply(400, "Bad Request", "a bare CR, LF or NUL in the request head")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1.") or \
            not FIELD_NAME.fullmatch(parts[0]):
        raise Reply(400, "Bad Request", "malformed request line")
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not FIELD_NAME.fullmatch(name):  # also refuses obsolete line folding
            raise Reply(400, "Bad Request", "malformed header line")
        headers.append((name, value.strip()))
    return Request(parts[0].upper(), parts[1], tuple(headers))


def read_request_body(client: socket.socket, request: Request, rest: bytes,
                      limit: int) -> bytes:
    if request.header("transfer-encoding"):
        raise Reply(501, "Not Implemented", "chunked request bodies are not relayed")
    lengths = request.header("content-length")
    if not lengths:
        return b""
    if len(set(lengths)) != 1 or not lengths[0].isdigit():
        raise Reply(400, "Bad Request", "bad Content-Length")
    size = int(lengths[0])
    if size > limit:
        raise Reply(413, "Content Too Large", "request body too large")
    body = rest
    while len(body) < size:
        chunk = client.recv(min(CHUNK, size - len(body)))
        if not chunk:
            raise Reply(400, "Bad Request", "request body cut short")
        body += chunk
    return body[:size]


def connection_tokens(headers: tuple[tuple[str, str], ...]) -> set[str]:
    """Header names listed in Connection / Proxy-Connection (hop-by-hop by declaration)."""
    tokens: set[str] = set()
    for name, value in headers:
        if name.lower() in ("connection", "proxy-connection"):
            tokens.update(t.strip().lower() for t in value.split(",") if t.strip())
    return tokens


@dataclass(frozen=True)
class ResponseHead:
    status: int
    raw: bytes  # rewritten: Connection: close, no Keep-Alive
    content_length: int | None
    chunked: bool

    @property
    def informational(self) -> bool:
        # 1xx heads (103 Early Hints) precede the real one. 101 would end HTTP, but Upgrade
        # is never passed on, so a 101 is final.
        return 100 <= self.status < 200 and self.status != 101


def response_head(head: bytes) -> ResponseHead:
    """Parse a response head and rewrite its connection headers to ``Connection: close``."""
    lines = head[:-4].split(b"\r\n")
    match = _STATUS_LINE.match(lines[0])
    if match is None:
        raise Reply(502, "Bad Gateway", "the server's status line is not HTTP/1.x")
    status = int(match.group(1))
    kept = [lines[0]]
    lengths: set[bytes] = set()
    chunked = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        low = name.strip().lower()
        if low in (b"connection", b"proxy-connection", b"keep-alive"):
            continue
        if low == b"content-length":
            lengths.add(value.strip())
        if low == b"transfer-encoding":
            chunked = value.split(b",")[-1].strip().lower() == b"chunked"
        kept.append(line)
    informational = 100 <= status < 200 and status != 101
    if not informational:
        kept.append(b"Connection: close")
    length: int | None = None
    if lengths and not chunked:
        if len(lengths) != 1 or not next(iter(lengths)).isdigit():
            raise Reply(502, "Bad Gateway", "the server sent a bad Content-Length")
        length = int(next(iter(lengths)))
    return ResponseHead(status, b"\r\n".join(kept) + b"\r\n\r\n", length, chunked)


def relay_body(source: Buffered, emit: Callable[[bytes], None], head: ResponseHead,
               method: str) -> None:
    """Pass the response body on by its own framing; stop where it ends."""
    if method == "HEAD" or head.status in (204, 304):
        return
    try:
        if head.chunked:
            _relay_chunked(source, emit)
        elif head.content_length is not None:
            _relay_exact(source, emit, head.content_length)
        else:
            while data := source.until_eof():
                emit(data)
    except EOFError:
        return  # the server closed early; the browser sees a short body and says so


def _relay_exact(source: Buffered, emit: Callable[[bytes], None], size: int) -> None:
    while size > 0:
        data = source.read(size)
        emit(data)
        size -= len(data)


def _relay_chunked(source: Buffered, emit: Callable[[bytes], None]) -> None:
    while True:
        line = source.line()
        emit(line)
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise Reply(502, "Bad Gateway", "the server's chunked body is malformed") from None
        if size == 0:
            while (trailer := source.line()) not in (b"\r\n", b"\n"):
                emit(trailer)
            emit(trailer)
            return
        _relay_exact(source, emit, size + 2)  # the chunk and its CRLF


def send_reply(sock: socket.socket, reply: Reply, *, marker: str) -> None:
    """Send ``reply`` as a small text/plain response; refusals carry ``marker: refused``."""
    body = (reply.text + "\n").encode("utf-8", "replace")
    head = [f"HTTP/1.1 {reply.status} {reply.phrase}", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Connection: close", "Cache-Control: no-store"]
    if reply.refused:
        head.append(f"{marker}: refused")
    with contextlib.suppress(OSError):
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
