"""Which declared charsets a body is decoded with, and as which Python codec.

A charset label comes from the server (``Content-Type``) or the page (``<meta charset>``),
so it is untrusted. Python's codec registry knows far more names than the web's encodings
(WHATWG Encoding): text transforms that are no charset at all (``rot13``, ``punycode``,
``undefined``, which raises on every byte), bytes-to-bytes codecs (``base64``, ``zlib``,
``hex``, ``uu``), and encodings browsers refuse because a page in them reads differently to
a filter than to a reader (``utf-7``: ``+ADw-script+AD4-`` is ``<script>``). A label is
therefore decoded only when its codec is one of the web's encodings (:data:`WEB_CODECS`,
plus UTF-32, which readreceipt has always read); any other label counts as undeclared, and
the body is decoded as an undeclared one is (a BOM, the page's meta charset, UTF-8, then
windows-1252).

Invariants: :func:`codec_for` never raises; what it returns is a text codec Python has;
the labels readreceipt decoded before this table keep the codec they had (``latin-1``,
``iso-8859-1`` and ``ascii`` read as windows-1252, as browsers read them).
"""

from __future__ import annotations

import codecs

#: The Python codecs of WHATWG Encoding's encodings (https://encoding.spec.whatwg.org/,
#: section 4.2), by the name ``codecs.lookup`` gives them, and UTF-32's, kept. The
#: "replacement" encoding's labels (iso-2022-kr, hz-gb-2312, iso-2022-cn) and
#: x-user-defined are not here: a browser decodes none of them as text either.
WEB_CODECS = frozenset({
    "utf-8", "utf-8-sig", "utf-16", "utf-16-be", "utf-16-le", "utf-32", "utf-32-be",
    "utf-32-le", "cp866", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6",
    "iso8859-7", "iso8859-8", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
    "iso8859-16", "koi8-r", "koi8-u", "mac-roman", "cp874", "cp1250", "cp1251", "cp1252",
    "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "mac-cyrillic", "gbk",
    "gb2312", "gb18030", "big5", "big5hkscs", "euc_jp", "iso2022_jp", "shift_jis", "cp932",
    "euc_kr", "cp949",
})
#: WHATWG labels Python's registry lacks, and the codec each names there.
_WEB_LABELS = {
    "windows-874": "cp874", "dos-874": "cp874", "x-mac-cyrillic": "mac-cyrillic",
    "x-mac-ukrainian": "mac-cyrillic", "iso-8859-8-i": "iso8859-8", "csiso88598i": "iso8859-8",
    "logical": "iso8859-8", "x-sjis": "shift_jis", "windows-31j": "cp932",
    "x-euc-jp": "euc_jp", "x-gbk": "gbk", "x-x-big5": "big5", "unicode-1-1-utf-8": "utf-8",
    "unicode11utf8": "utf-8", "unicode20utf8": "utf-8", "x-unicode20utf8": "utf-8",
    **{f"x-cp125{digit}": f"cp125{digit}" for digit in range(9)},
}
#: What browsers read these labels as (WHATWG Encoding maps them to windows-1252).
_AS_WINDOWS_1252 = frozenset({"latin-1", "iso8859-1", "ascii"})
#: A label longer than this is no label (the longest WHATWG label has 24 characters).
MAX_LABEL_CHARS = 40


def codec_for(label: str) -> str | None:
    """The Python codec to decode a body labelled ``label`` with; None: treat as undeclared."""
    name = label.strip().strip("\"'").lower()
    if not name or len(name) > MAX_LABEL_CHARS:
        return None
    name = _WEB_LABELS.get(name, name)
    try:
        codec = codecs.lookup(name).name
    except (LookupError, ValueError):  # ValueError: a name holding a NUL
        return None
    if codec in _AS_WINDOWS_1252:
        return "cp1252"
    return codec if codec in WEB_CODECS else None
