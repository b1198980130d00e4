"""Bytes to text, by what the bytes are: HTML, PDF, JSON, plain text, or binary.

For HTML two texts come out: the *main content* (trafilatura, comments excluded), which the
text digest and the quotation check look at first, and the *whole visible text* (selectolax's
Lexbor parser, scripts and styles removed), so that a quotation from a sidebar is still found
on the page. Each result names its extractor with its version.

Memory follows a fixed bound, not the size cap. Parsers cost a multiple of what they read
(trafilatura's lxml trees about 30 times the markup, Lexbor's about 10, a JSON parse about 5
and up to 80 for a document of tiny values, so a long JSON document is read a slice at a
time: reading/jsontext.py), so extraction reads at most
:data:`HTML_TEXT_BYTES` of an HTML body's *visible* markup (one bounded pass takes scripts,
styles, comments, SVG and templates out of the whole body first, and flattens nesting past
512 levels: reading/markup.py), at most :data:`TEXT_BYTES` of any other text, and at most
:data:`PDF_TEXT_CHARS` characters from a PDF. Longer than that, a
body is read from its beginning, and the result says so (``from_prefix``): the texts are
then not the whole page, which the verdict and the answer check treat as they treat a body
the size cap cut (UNKNOWN, no check). The Lexbor tree is freed (and handed back to the
system) before trafilatura builds its own; past :data:`MAIN_DIRECT_CHARS`, trafilatura reads
the markup without its scripts, styles and comments.

trafilatura runs first without its fallback extractors (``fast=True``: no readability port,
no jusText), which cost about a third of its time on the article corpus and did not earn it
there: main-text F1 over the 181 articles of the first reading is 0.9645 as below against
0.9598 with the fallbacks always on (bench/extraction.py, same run; 0.9623 with them never
on), and readreceipt's own fallback, the second reading
(secondreading.py), runs wherever the first reading is short against the page's visible
text. A main text the fast pass may have got wrong in a way the verdict would feel is read
again with the fallbacks, and that reading kept: one short enough for the verdict to call
thin (:data:`FULL_READING_MAX_LETTERS`: on a short page the fallbacks find what the fast
pass dropped, a forum thread's title and reply, and there they cost little), and one that
is mostly short lines (:data:`LIST_MAX_PROSE_SHARE`: a list of links the fast pass took for
the content, where the fallbacks find the page's one paragraph, a not-found notice). Where the
markup trafilatura reads is still past :data:`MAIN_DIRECT_CHARS` once scripts and styles are
gone, or holds more than :data:`FULL_READING_MAX_TAGS` tags, the fallbacks never run: a huge or
dense page's trees are not built twice.

Invariants: :func:`extract` never raises on bad content (a failure is ``error`` set and empty
texts); it does no I/O; the same bytes and content type always give the same texts.
"""

from __future__ import annotations

import codecs
import ctypes
import dataclasses
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from readreceipt.reading.charsets import codec_for

if TYPE_CHECKING:
    from readreceipt.reading.placement import PageTree
    from readreceipt.reading.secondreading import SecondReading

log = logging.getLogger(__name__)

#: The most of an HTML body's visible markup extraction reads (the body's invisible parts
#: are taken out first). The largest page of the article corpus is 1.5 MB of HTML (the median
#: 115 KB); bench/memory.py measures what 2 MiB costs.
HTML_TEXT_BYTES = 2 * 1024 * 1024
#: The most of any other text body (plain text, JSON, XML) extraction reads: the default size
#: cap, so a body within the default cap is always read whole.
TEXT_BYTES = 10 * 1024 * 1024
#: The most characters taken from a PDF's text layer (about as many bytes of text).
PDF_TEXT_CHARS = 10 * 1024 * 1024
#: The most pages of a PDF read: each costs its text layer's set-up whatever it holds, and 60,000
#: pages sharing one content stream (8 MB) cost 9 s. Reports and theses run to hundreds of
#: pages, long books to a couple of thousand; past this the text is read from the first pages
#: only (``text_prefix``).
PDF_MAX_PAGES = 2000
#: HTML up to this size goes to trafilatura as it came; larger HTML without its scripts,
#: styles and comments (one regex pass), so that trafilatura's tree holds only what it reads.
#: Every page of the corpus but three is under it; those three have under 230 KB of markup
#: once scripts and styles are gone, and their texts are the same either way.
MAIN_DIRECT_CHARS = 1024 * 1024
#: A main text of fewer letters than this, read without trafilatura's fallbacks, is read
#: again with them. The bound is the verdict's: a main text this short may be judged thin
#: (fingerprint.THIN_RATIO_MAX_MAIN_LETTERS, which tests/test_extract_limits.py holds
#: equal), so below it the verdict sees the same text as with the fallbacks always on.
FULL_READING_MAX_LETTERS = 600
#: A main text with less than this share of its letters in lines of at least
#: :data:`PROSE_LINE_LETTERS` letters is a list, read again with trafilatura's fallbacks. On
#: the 181 articles 4 fast readings fall under it (0.00 to 0.14; the next 0.36); a held-out
#: not-found page (bench/heldout.py, scrapy/protego's www.senate.gov: 0.00, a list of states
#: where the full reading has the notice) is why it exists, found after the fast pass was
#: measured there, so that page's half of the held-out set is no longer blind to it.
LIST_MAX_PROSE_SHARE = 0.3
PROSE_LINE_LETTERS = 80
#: The read again with the fallbacks (the two bounds above) is made only on markup of at most
#: this many "<" (about half as many elements). It is a second full trafilatura reading, some
#: 45 microseconds an element: on dense markup it was most of a capture (a list of 32,000
#: short lines, 768 KB: 1.5 of the reading's 3.3 s), while the 373 pages of the corpora and
#: tests/pages read again hold at most 6,310 (a wiki page; the next 4,171). Past it the fast
#: reading stands, as past :data:`MAIN_DIRECT_CHARS`.
FULL_READING_MAX_TAGS = 20_000
#: Markup at least this long has its parsers' freed trees handed back to the system between
#: stages (:func:`_release_freed_memory`); below it the trees are a few megabytes, which glibc
#: reuses for the next stage anyway, and the call (a walk of the heap: about 1 ms a call,
#: three a page) would cost more than it returns. The corpus's median page is 115 KB.
TRIM_FROM_CHARS = 512 * 1024

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
JSON_TYPES = frozenset({"application/json", "text/json"})
PDF_TYPES = frozenset({"application/pdf"})
INVISIBLE_TAGS = ("script", "style", "noscript", "template", "svg", "head")


@dataclass(frozen=True)
class Extraction:
    kind: str  # "html" | "pdf" | "json" | "text" | "binary" | "empty"
    main_text: str
    page_text: str
    title: str | None
    extractor: str  # names and versions: "trafilatura 2.3.1 (lxml 6.1.3) + selectolax 1.0.2"
    charset: str | None = None
    html: str | None = None  # the decoded HTML, for the content fingerprints
    error: str | None = None  # "invalid_json" | "binary" | "pdf_no_text" | "pdf_unreadable"
    #: The texts come from the body's beginning only (it is longer than extraction reads).
    from_prefix: bool = False
    #: The second reading of an article whose main text came out far shorter than the page
    #: (reading/secondreading.py): made or not, used or not, and why.
    second_reading: SecondReading | None = None
    #: The extractor of the first reading, when a second reading replaced it.
    first_extractor: str | None = None
    #: The page's tree (reading/placement.py) when the second reading walked it, for the
    #: verdict to read the same walk rather than make its own (a page under
    #: :data:`TRIM_FROM_CHARS` only: a long page's tree is freed at once).
    page_tree: PageTree | None = dataclasses.field(default=None, compare=False, repr=False)


def extract(body: bytes, content_type: str, charset: str | None = None, *,
            seconds: float | None = None) -> Extraction:
    """Extract the texts of ``body`` served as ``content_type`` (media type only);
    ``seconds``: the most a PDF's reading may take (the capture's time left)."""
    if not body:
        return Extraction("empty", "", "", None, "none")
    kind = sniff_kind(body, content_type)
    if kind == "pdf":
        return _pdf(body, seconds)
    if kind == "binary":
        return Extraction("binary", "", "", None, "none", error="binary")
    if kind == "html":
        text, used, partial = html_text(body, charset)
        result = _html(text, used)
        return dataclasses.replace(result, from_prefix=True) if partial else result
    partial = len(body) > TEXT_BYTES
    text, used = decode(body[:TEXT_BYTES] if partial else body, charset, partial=partial)
    if kind == "json" and partial:  # the beginning of a JSON document does not parse
        result = Extraction("json", "", text, None, "json (stdlib)", charset=used)
    elif kind == "json":
        result = _json(text, used)
    else:
        result = Extraction("text", text, text, None, "plain", charset=used)
    return dataclasses.replace(result, from_prefix=True) if partial else result


def html_text(body: bytes, charset: str | None) -> tuple[str, str, bool]:
    """The HTML extraction reads, decoded: (text, charset used, read from its beginning only).

    The body goes through one bounded pass first (reading/markup.py): past
    :data:`HTML_TEXT_BYTES`, its invisible parts are taken out of the whole body and the limit
    applies to what remains; nesting past ``markup.MAX_DEPTH`` is flattened."""
    from readreceipt.reading.markup import prepare

    if _wide(body, charset):
        # UTF-16 or UTF-32: the pass reads bytes as ASCII-compatible, so it reads this body's
        # beginning once decoded (and encoded as UTF-8) instead: nesting still flattened.
        partial = len(body) > HTML_TEXT_BYTES
        text, used = decode(body[:HTML_TEXT_BYTES] if partial else body, charset, html=True,
                            partial=partial)
        encoded = text.encode("utf-8")
        flat = prepare(encoded, len(encoded)).markup
        return (text if flat is encoded else flat.decode("utf-8")), used, partial
    prepared = prepare(body, HTML_TEXT_BYTES)
    text, used = decode(prepared.markup, charset, html=True, partial=not prepared.complete)
    return text, used, not prepared.complete


_WIDE_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)


def _wide(body: bytes, charset: str | None) -> bool:
    """Whether the body is in an encoding whose bytes are not ASCII-compatible."""
    if body.startswith(_WIDE_BOMS):
        return not body.startswith(codecs.BOM_UTF8)
    name = (charset or "").lower().replace("_", "-")
    return name.startswith(("utf-16", "utf-32", "ucs-2", "ucs-4", "utf16", "utf32"))


def sniff_kind(body: bytes, content_type: str) -> str:
    """The kind of content, from the declared type and, when that is vague, the bytes."""
    ct = content_type.lower()
    head = body[:1024].lstrip()
    if ct in PDF_TYPES or head.startswith(b"%PDF-"):
        return "pdf"
    if ct in HTML_TYPES:
        return "html"
    if ct in JSON_TYPES or ct.endswith("+json"):
        return "json"
    if ct.startswith("text/") or ct.endswith("+xml") or ct in ("application/xml", ""):
        lowered = head[:512].lower()
        if ct in ("", "text/plain") and lowered.startswith((b"<!doctype html", b"<html")):
            return "html"
        if _looks_binary(body):
            return "binary"
        return "text"
    if ct == "application/octet-stream" and not _looks_binary(body):
        return "text"
    return "binary"


def _looks_binary(body: bytes) -> bool:
    sample = body[:4096]
    return b"\x00" in sample


_META_CHARSET = re.compile(rb"""<meta[^<>]+charset\s*=\s*(?:["']\s*)?([a-zA-Z0-9_.:-]+)""", re.I)


def decode(body: bytes, declared: str | None, *, html: bool = False,
           partial: bool = False) -> tuple[str, str]:
    """Decode with the declared charset, a BOM, a <meta> charset, UTF-8, then windows-1252.

    A label is used only when it names one of the web's encodings (reading/charsets.py);
    any other is passed over as if it were not there.

    ``partial``: ``body`` is the beginning of a longer body, so a character cut at its end is
    left out rather than taken as a sign of the wrong charset.
    """
    candidates: list[str] = []
    if body.startswith(codecs.BOM_UTF8):
        candidates.append("utf-8-sig")
    elif body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates.append("utf-16")
    if declared:
        candidates.append(declared)
    if html:
        match = _META_CHARSET.search(body[:4096])
        if match:
            candidates.append(match.group(1).decode("ascii", "replace"))
    candidates.append("utf-8")
    for name in candidates:
        codec = codec_for(name)  # a web encoding's codec, or None: the label is passed over
        if codec is None:
            continue
        try:
            if partial:
                return codecs.getincrementaldecoder(codec)().decode(body, final=False), codec
            return body.decode(codec), codec
        except UnicodeError:
            continue
    return body.decode("cp1252", errors="replace"), "cp1252"


#: The distributions whose versions decide the texts (and so ``text_sha256``) of an HTML
#: page: trafilatura's main content depends on its own parse (lxml; its fallbacks, jusText
#: and the readability port, are not run); the whole visible text on selectolax.
#: ``constraints.txt`` pins them.
HTML_TEXT_LIBRARIES = ("trafilatura", "lxml", "selectolax")
PDF_TEXT_LIBRARIES = ("pypdfium2",)


@cache
def _html_extractor_name() -> str:
    """``trafilatura 2.3.1 (lxml 6.1.3) + selectolax 1.0.2``: every version a record's text
    digests depend on."""
    from importlib.metadata import version

    main, *under, whole = HTML_TEXT_LIBRARIES
    parts = ", ".join(f"{name} {version(name)}" for name in under)
    return f"{main} {version(main)} ({parts}) + {whole} {version(whole)}"


def _is_list(text: str) -> bool:
    """Whether less than :data:`LIST_MAX_PROSE_SHARE` of the text's letters are in lines of
    prose (:data:`PROSE_LINE_LETTERS` letters or more). One pass over the text."""
    from readreceipt.reading.basics import letters

    counts = [letters(line) for line in text.splitlines()]
    prose = sum(n for n in counts if n >= PROSE_LINE_LETTERS)
    return prose < LIST_MAX_PROSE_SHARE * sum(counts)


def _main_text(trafilatura: ModuleType, markup: str, fast: bool) -> str:
    """trafilatura's main content of ``markup``, comments excluded; empty when it fails."""
    try:
        main: str = trafilatura.extract(markup, include_comments=False, include_tables=True,
                                        deduplicate=False, favor_precision=False,
                                        fast=fast) or ""
    except Exception:  # trafilatura raises a wide variety on hostile markup
        log.warning("trafilatura failed on a page; main content left empty", exc_info=True)
        return ""
    return main.strip()


def _html(text: str, charset: str) -> Extraction:
    import trafilatura
    from selectolax.lexbor import LexborHTMLParser

    from readreceipt.reading.basics import letters
    from readreceipt.reading.placement import sure_chrome_letters
    from readreceipt.reading.secondreading import wanted

    tree = LexborHTMLParser(text)
    title_node = tree.css_first("title")
    title = title_node.text(strip=True) if title_node is not None else None
    tree.strip_tags(list(INVISIBLE_TAGS))
    root = tree.body or tree.root
    page_text = _tidy(root.text(separator="\n")) if root is not None else ""
    sure_chrome = sure_chrome_letters(root, letters(page_text)) if root is not None else 0
    del tree, root, title_node  # freed before trafilatura builds trees of its own
    _release_freed_memory(len(text))
    # Past MAIN_DIRECT_CHARS, without the scripts, styles and comments trafilatura would drop
    # anyway (a page of markup alone is the same string, not a copy).
    markup = text if len(text) <= MAIN_DIRECT_CHARS else _NOT_SHOWN.sub(" ", text)
    main = _main_text(trafilatura, markup, fast=True)
    short = letters(main) < FULL_READING_MAX_LETTERS or _is_list(main)
    if short and len(markup) <= MAIN_DIRECT_CHARS and not too_dense_to_read_twice(markup):
        main = _main_text(trafilatura, markup, fast=False)
    _release_freed_memory(len(text))
    result = Extraction("html", main, page_text, title or None, _html_extractor_name(),
                        charset=charset, html=text)
    # A second reading only where the main text may be far shorter than the content.
    return _read_again(result) if wanted(main, page_text, sure_chrome) else result


def too_dense_to_read_twice(markup: str) -> bool:
    """Whether ``markup`` holds more tags than :data:`FULL_READING_MAX_TAGS`: trafilatura's
    fallbacks, a second reading of every element, are then left out (here and in the file
    ``fetch`` writes)."""
    return markup.count("<") > FULL_READING_MAX_TAGS


def _read_again(first: Extraction) -> Extraction:
    """The extraction with a second reading made, and used when it is the better one."""
    from readreceipt.reading.placement import tree
    from readreceipt.reading.secondreading import extractor_name, second_reading

    html = first.html or ""
    page = tree(html)
    reading = second_reading(html, page, first.main_text) if page is not None else None
    kept = page if len(html) < TRIM_FROM_CHARS else None
    del page
    _release_freed_memory(len(html))
    if reading is None:
        return dataclasses.replace(first, page_tree=kept)
    if not reading.used:
        return dataclasses.replace(first, second_reading=reading, page_tree=kept)
    whole = _html_extractor_name().rsplit(" + ", 1)[-1]
    return dataclasses.replace(first, main_text=reading.text, second_reading=reading,
                               extractor=f"{extractor_name()} + {whole}",
                               first_extractor=first.extractor, page_tree=kept)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to call, nothing kept back either
        return None
    return trim


def _release_freed_memory(markup_chars: int) -> None:
    """Hand the parsers' freed trees of a page of ``markup_chars`` back to the system
    (glibc's ``malloc_trim``), when the page is long enough for it to matter
    (:data:`TRIM_FROM_CHARS`).

    glibc keeps freed small blocks for later small allocations, but the next stage's large
    strings are mapped afresh; without this, each stage's peak would stack on the one before.
    """
    if markup_chars < TRIM_FROM_CHARS:
        return
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


#: Script and style elements' contents and comments, as an HTML parser ends them (the first
#: ``</script`` or ``</style``; the first ``-->``); an element left open runs to the end.
_NOT_SHOWN = re.compile(r"<(script|style)\b.*?(?:</\1\s*>|\Z)|<!--.*?(?:-->|\Z)",
                        re.IGNORECASE | re.DOTALL)

_BLANKS = re.compile(r"[ \t\r\f\v\u00a0]+")


def _tidy(text: str) -> str:
    """The lines of ``text`` stripped, the empty ones left out, and every run of blanks in
    them one space. The lines are stripped first (Lexbor's text is mostly the markup's
    indentation, a line a text node), so the one substitution reads only what is left: the
    same text as runs made spaces first (a run of blanks holds no newline, and a stripped
    line neither begins nor ends with one), in about three quarters of the time."""
    lines = [line for raw in text.split("\n") if (line := raw.strip())]
    return _BLANKS.sub(" ", "\n".join(lines))


def _json(text: str, charset: str) -> Extraction:
    """A JSON document's main text is its values, one a line (reading/jsontext.py)."""
    from readreceipt.reading.jsontext import MAX_JSON_VALUES, STREAMED_EXTRACTOR, json_values

    values, streamed = json_values(text)
    name = STREAMED_EXTRACTOR if streamed else "json (stdlib)"
    if streamed:
        log.info("a JSON document of more than %d values is read a slice at a time",
                 MAX_JSON_VALUES)
    if values is None:
        return Extraction("json", "", text, None, name, charset=charset, error="invalid_json")
    return Extraction("json", values, text, None, name, charset=charset)


@cache
def _pdf_extractor_name() -> str:
    from importlib.metadata import version

    return " + ".join(f"{name} {version(name)}" for name in PDF_TEXT_LIBRARIES)


def _pdf(body: bytes, seconds: float | None) -> Extraction:
    """The PDF's text, read in a process of its own under a memory and a time limit
    (reading/pdfchild.py): what pdfium builds of a page is bounded by nothing else."""
    from readreceipt.reading.pdfchild import read_pdf

    answer = read_pdf(body, seconds)
    text = answer.get("text")
    title = answer.get("title")
    error = answer.get("error")
    return Extraction("pdf", text if isinstance(text, str) else "",
                      text if isinstance(text, str) else "",
                      title if isinstance(title, str) else None, _pdf_extractor_name(),
                      error=error if isinstance(error, str) else None,
                      from_prefix=answer.get("partial") is True)


def read_pdf_here(body: bytes) -> tuple[str, str | None, bool, str | None]:
    """(text, title, read from its first pages only, error) of a PDF, read by pdfium in this
    process: what reading/pdfchild.py runs in its own."""
    import pypdfium2

    try:
        doc = pypdfium2.PdfDocument(body)
    except Exception:  # pypdfium2 raises PdfiumError and others on broken files
        return "", None, False, "pdf_unreadable"
    partial = failed = False
    try:
        pages: list[str] = []
        taken = 0
        for index in range(len(doc)):
            if taken >= PDF_TEXT_CHARS or index >= PDF_MAX_PAGES:
                partial = True  # the text of the pages after this one is not read
                break
            try:
                page = doc[index]
                textpage = page.get_textpage()
            except Exception:  # a page the document lists but cannot load: "/Count 3" of
                # one "/Kids", a page tree past pdfium's depth; the pages before it stand
                partial = failed = True
                break
            # pdfium marks a word broken at a line end with U+FFFE; join the halves.
            pages.append(textpage.get_text_range().replace("\ufffe", "").replace("\r\n", "\n")
                         .strip())
            taken += len(pages[-1])
            textpage.close()
            page.close()
        try:
            title = (doc.get_metadata_dict().get("Title") or None)
        except Exception:  # metadata pdfium cannot read is no title
            title = None
    finally:
        doc.close()
    text = "\n\n".join(pages).strip()
    if failed and not pages:
        return "", title, False, "pdf_unreadable"
    return text, title, partial, None if text else "pdf_no_text"
