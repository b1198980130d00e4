"""Content-encoding removed with bounded memory, whatever the server sends.

httpx decodes each raw chunk in one call, so a 64 KiB gzip chunk can become tens of
megabytes at once (and brotli far more). Here every decoder yields at most ``CHUNK`` bytes
per step, so a decompression bomb costs no more memory than an honest body.

Invariants: :func:`decoded` never holds more than one raw chunk plus ``CHUNK`` decoded
bytes; unknown encodings, and more than :data:`MAX_CODINGS` of them, raise
:class:`DecodeFailure`; so does a compressed stream the body ends before the stream's own
end (a body cut short, or with junk for its last part, under an honest Content-Length,
which the transport alone cannot see), once the whole body has been read: what came is
not the page, and is not passed off as one. An empty body is no stream and passes (a 404
that names a coding and sends nothing).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import brotlicffi

CHUNK = 64 * 1024
#: Content-codings undone at most. Real servers apply one (two at the very most); a header
#: listing thousands would nest as many decoders. curl stops at five for the same reason
#: (CVE-2022-32206, "HTTP compression denial of service").
MAX_CODINGS = 5


class DecodeFailure(Exception):
    """The body's content-encoding is unknown or corrupt."""


def decoded(raw: Iterable[bytes], content_encoding: str | None) -> Iterator[bytes]:
    """Undo ``content_encoding`` (possibly a list, applied in order) on the raw chunks."""
    stream: Iterator[bytes] = iter(raw)
    codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    if len(codings) > MAX_CODINGS:
        raise DecodeFailure(f"{len(codings)} content-codings applied one over another; "
                            f"readreceipt undoes at most {MAX_CODINGS}")
    for coding in reversed(codings):
        if coding in ("gzip", "x-gzip"):
            stream = _zlib(stream, 16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            stream = _deflate(stream)
        elif coding == "br":
            stream = _brotli(stream)
        else:
            raise DecodeFailure(f"unknown content-encoding {coding!r}")
    return stream


#: What a stream cut short is told by.
_CUT_SHORT = "the compressed body ended before its compressed stream did (it was cut short)"


def _zlib(raw: Iterator[bytes], wbits: int) -> Iterator[bytes]:
    d = zlib.decompressobj(wbits)
    began = False
    try:
        for data in raw:
            began = began or bool(data)
            while data:
                out = d.decompress(data, CHUNK)
                data = d.unconsumed_tail
                if out:
                    yield out
                if d.eof:
                    if d.unused_data.startswith(b"\x1f\x8b"):  # concatenated gzip members
                        data = d.unused_data + data
                        d = zlib.decompressobj(wbits)
                    else:
                        break
        if began and not d.eof:
            raise DecodeFailure(_CUT_SHORT)
        tail = d.flush()  # all input was consumed above, so what is left is small
        if tail:
            yield tail
    except zlib.error as exc:
        raise DecodeFailure(f"corrupt compressed body: {exc}") from exc


def _deflate(raw: Iterator[bytes]) -> Iterator[bytes]:
    """'deflate' is zlib-wrapped per RFC 9110, but many servers send it raw; sniff it, on
    its first two bytes (however the body was cut into chunks: found by tests/test_fuzz.py,
    a first chunk of one byte was read as raw deflate)."""
    first = b""
    for chunk in raw:
        first += chunk
        if len(first) >= 2:
            break

    def again() -> Iterator[bytes]:
        yield first
        yield from raw

    wbits = zlib.MAX_WBITS if first[:1] and (first[0] & 0x0F) == 8 and \
        int.from_bytes(first[:2], "big") % 31 == 0 else -zlib.MAX_WBITS
    return _zlib(again(), wbits)


def _brotli(raw: Iterator[bytes]) -> Iterator[bytes]:
    # brotlicffi, not Google's ``brotli`` module: pywb's brotlipy installs a different module
    # under that same name, and only these two offer an output limit.
    d = brotlicffi.Decompressor()
    began = False
    try:
        for data in raw:
            began = began or bool(data)
            out = d.decompress(data, output_buffer_limit=CHUNK)
            if out:
                yield out
            while not d.can_accept_more_data():
                out = d.decompress(b"", output_buffer_limit=CHUNK)
                if not out:
                    break
                yield out
        if began and not d.is_finished():
            raise DecodeFailure(_CUT_SHORT)
    except brotlicffi.error as exc:
        raise DecodeFailure(f"corrupt brotli body: {exc}") from exc
