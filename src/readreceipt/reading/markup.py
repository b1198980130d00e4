"""HTML a parser can read in bounded time and memory: one linear pass before any parser runs.

Two things make an HTML body costly to parse without making it longer to read:

- *invisible bulk*: application state in inline scripts, bundles, style sheets, SVG sprites,
  comments. A real article page can carry megabytes of them around a few kilobytes of text;
  read from its beginning only, such a page would be called unread (``text_prefix``) for
  markup nobody sees.
- *depth*: the HTML parsers (Lexbor, libxml2 under trafilatura) spend time in proportion to
  the open elements for every tag, so a body of nested elements costs the square of its
  length (400,000 nested ``<div>`` elements, 2.4 MB, ran for over five minutes).

:func:`prepare` scans the body once with a tokenizer of its own (a ``find`` for each ``<``
and one regular expression per tag, never backtracking; a body within the limit, most pages,
has the same tokens listed by one pattern and a tighter loop over them only measures it, and
the full pass runs only when that loop meets an element the pass would change) and writes the
markup the parsers will read:

- past ``limit`` bytes of body, the invisible parts are taken out of the *whole* body first
  (comments; the contents of ``script``, ``style``, ``svg`` and ``template``; a long
  ``noscript``), keeping each script's start tag (its ``src``, its type, which the
  fingerprints read) and the JSON-LD blocks (the publisher's word); then the limit applies
  to what remains, so only a page whose *visible* markup is longer than ``limit`` is read
  from its beginning;
- an element opened deeper than :data:`MAX_DEPTH` loses its start and end tags (its text
  stays where it was), which is what browsers do: Blink's and WebKit's HTML parsers attach
  elements past depth 512 to the element at that depth instead of nesting them further.

- a start tag holding more than :data:`MAX_ATTRIBUTES` attributes keeps its first ones and
  loses the rest (its element and its text stay): both parsers check each new attribute
  against the element's earlier ones in turn, so one tag's cost is the square of its
  attributes (one ``<div>`` of 32,000 distinct attributes, 341 KB, took Lexbor 4 s and
  libxml2 8 s a parse, and a capture of it ran 35 s past its 2 s deadline).
- past :data:`MAX_ELEMENTS` start tags, or :data:`MAX_PAGE_ATTRIBUTES` attributes in all, the
  rest of the body is not read (as past ``limit``: the page is read from its beginning,
  ``complete`` is False): every element and every attribute costs the parsers far more than
  its bytes (250,000 tiny elements, 2 MB, took 10 s and 320 MB; 30,000 elements of 16 short
  attributes each, 2 MiB, 350 MiB), and real markup is not that dense.

Invariants: linear in the body's length whatever its shape; no start tag of the output holds
more than :data:`MAX_ATTRIBUTES` attributes; the output is at most ``limit``
bytes (plus one tag), so memory follows the limit, not the size cap; a body within the limit
no deeper than :data:`MAX_DEPTH` and with no tag over :data:`MAX_ATTRIBUTES` comes back as the
same object, untouched; never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_ATTRIBUTES", "MAX_DEPTH", "MAX_ELEMENTS", "MAX_PAGE_ATTRIBUTES",
           "NOSCRIPT_KEEP", "Prepared", "prepare"]

#: Elements nested deeper than this are flattened (Blink's and WebKit's parser limit). The
#: corpus's deepest page nests 61 elements by this count (bench/nesting.py prints it).
MAX_DEPTH = 512
#: Start tags read at most. The corpus's articles hold at most 1,737 (at least 50 bytes of
#: markup each, 157 the median), its walls and hard negatives 3,326; at 50 bytes an element,
#: the 2 MiB of visible markup read hold 42,000.
MAX_ELEMENTS = 50_000
#: Attributes one start tag keeps. The corpora's most on one element is 64 (a ``meta``; the
#: next 40, then 27: 610 pages of the articles, walls, walls2 and tests/pages, counted by
#: Lexbor), so no real tag is near it; at this many a tag costs the parsers about what its
#: bytes would as text (a 2 MB page of tags of 256 attributes each: 2.2 s a capture, about
#: what 2 MB of tiny elements costs).
MAX_ATTRIBUTES = 256
#: Attributes read in all. The corpora's most on one page is 3,846 (a Nikkei article, about
#: 1.9 an element; the densest page holds 3.1 an element; counted as :data:`_ONE_ATTRIBUTE`
#: counts, over 610 pages), so a real page is cut by this only past some 16,000 elements,
#: nearly five times the corpora's largest. Each attribute costs the parsers' trees about half
#: a kilobyte: 480,000 short ones in the 2 MiB of visible markup read took a capture to 489
#: MiB; at this cap that page takes 142 MiB (at twice it, 186).
MAX_PAGE_ATTRIBUTES = 50_000
#: A page's attributes are counted only past this many bytes of them (two bytes an attribute
#: at least): 15 of the 181 articles have more, and counting theirs takes about 0.7 ms.
_PAGE_COUNTED_FROM = 2 * MAX_PAGE_ATTRIBUTES
#: An attribute takes at least two bytes of a tag (a name character and what parts it from the
#: next), so a tag's attributes are counted only past this many bytes.
_COUNTED_FROM = 2 * MAX_ATTRIBUTES
#: A noscript element's contents are kept when this short (a shell's "enable JavaScript"
#: notice, which the fingerprints read); a longer one is left out past the limit.
NOSCRIPT_KEEP = 4096

#: Elements that hold no markup, only text up to their end tag.
_RAW_TEXT = frozenset({b"script", b"style", b"textarea", b"title", b"xmp", b"iframe",
                       b"noembed", b"noframes", b"noscript", b"plaintext"})
_VOID = frozenset({b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input",
                   b"link", b"meta", b"source", b"track", b"wbr", b"param", b"keygen",
                   b"frame", b"basefont", b"bgsound", b"image"})
#: Elements a parser closes on its own when a sibling starts (optional end tags): not
#: counted as depth, since nesting them does not nest them.
_SELF_CLOSING_SIBLINGS = frozenset({b"p", b"li", b"dt", b"dd", b"option", b"optgroup", b"tr",
                                    b"td", b"th", b"tbody", b"thead", b"tfoot", b"caption",
                                    b"colgroup", b"rb", b"rp", b"rt", b"rtc", b"html", b"head",
                                    b"body"})
#: Elements a second start tag closes (or ignores) rather than nests.
_NO_NESTING = frozenset({b"a", b"nobr", b"form", b"button"})
_FOREIGN = frozenset({b"svg", b"math"})
#: Elements taken out whole, contents and all, past the limit.
_DROPPED_WHOLE = frozenset({b"svg", b"template"})

#: The next piece of markup: a comment, a doctype or processing instruction, an end tag or a
#: start tag (with its name); a "<" before anything else is text.
_TOKEN = re.compile(rb"<(?:(!--)|[!?]|(/)?([A-Za-z][^\s/>]*))")
#: A start tag's attributes up to its ">" (a quote opens only after "="; a value left open
#: runs to the end of the body, as in a browser), then the ">" (empty: no end). Possessive:
#: what follows the repetition always matches, so its greedy way is the one kept, and no
#: backtracking state is held per repetition (greedy alone, it held 130 MiB of the engine's
#: stack on one tag of 1 MB of short attributes).
_ATTRS = re.compile(rb"((?:[^>=]++|=\s*+\"[^\"]*+\"?|=\s*+'[^']*+'?|=)*+)(>?)")
#: One attribute of a start tag's attributes (as :data:`_ATTRS` delimits them): a name and its
#: value if it has one, or a stray "=" and its value. Possessive over disjoint runs.
_VALUE = rb"=\s*+(?:\"[^\"]*+\"?|'[^']*+'?|[^\s>]*+)"
_ONE_ATTRIBUTE = re.compile(rb"[^\s/>=]++(?:\s*+" + _VALUE + rb")?|" + _VALUE)
#: The same tokens in one match, a start tag's attributes and its ">" included, for the pass
#: over a body within the limit (:meth:`_Pass.within`): possessive, as the first way the
#: pattern above matches is the one it keeps (what follows the attributes always matches).
_WHOLE_TOKEN = re.compile(rb"<(?:(!--)|[!?]|/([A-Za-z][^\s/>]*+)|([A-Za-z][^\s/>]*+)"
                          rb"((?:[^>=]++|=\s*+\"[^\"]*+\"?|=\s*+'[^']*+'?|=)*+)(>?))")
_LD_JSON = re.compile(rb"ld\+json", re.I)
#: Every token :meth:`_Pass.within` reads, in one pattern for ``findall``: a comment to its
#: ``-->``; a raw text element's start tag (its attributes a group) and, when its ">" is
#: found, its contents and its end tag (the first ``</`` and its name, in either case,
#: followed by a space, "/" or ">"; up to the next ">"); a doctype or processing instruction
#: to its ">"; an end tag to its ">"; a start tag with its name, attributes and ">" (empty:
#: none). Each piece ends where the pass's own ``find`` calls end it (the end of the body
#: when they find nothing), and every repetition is possessive over disjoint characters, so
#: it never backtracks; no piece can fail once its opening is matched (what follows a
#: repetition is optional), so no run is rescanned.
_ATTRIBUTES = rb"(?:[^>=]++|=\s*+\"[^\"]*+\"?|=\s*+'[^']*+'?|=)*+"
_LISTED = re.compile(
    rb"<(?:!--(?:[^-]++|-(?!->))*+(?:-->)?"
    rb"|(?:(?i:(" + b"|".join(sorted(_RAW_TEXT)) + rb"))(?![^\s/>])(" + _ATTRIBUTES +
    rb")(?:(>)(?:[^<]++|<(?!/(?i:\1)[\s/>]))*+(?:</[^>]*+>?)?)?)"
    rb"|[!?][^>]*+>?"
    rb"|/([A-Za-z][^\s/>]*+)[^>]*+>?"
    rb"|([A-Za-z][^\s/>]*+)(" + _ATTRIBUTES + rb")(>?))")
#: The most ``<`` of a body whose tokens :data:`_LISTED` lists at once (a list of this many
#: tuples is some megabytes; the corpus's articles hold at most a few tens of thousands).
_LISTED_TOKENS = 100_000
_ENDS: dict[bytes, re.Pattern[bytes]] = {}


def _end_of(name: bytes) -> re.Pattern[bytes]:
    pattern = _ENDS.get(name)
    if pattern is None:
        pattern = _ENDS[name] = re.compile(rb"</" + re.escape(name) + rb"[\s/>]", re.I)
    return pattern


def _nested_end(name: bytes) -> re.Pattern[bytes]:
    key = b"+" + name
    pattern = _ENDS.get(key)
    if pattern is None:
        pattern = _ENDS[key] = re.compile(rb"<(/?)" + re.escape(name) + rb"[\s/>]", re.I)
    return pattern


def _attributes_cut_at(attrs: bytes) -> int | None:
    """Where the attributes past :data:`MAX_ATTRIBUTES` begin in a start tag's ``attrs``, or
    None when it holds no more than that. Reads at most the first attributes past the cap."""
    if len(attrs) <= _COUNTED_FROM:
        return None
    for seen, m in enumerate(_ONE_ATTRIBUTE.finditer(attrs)):
        if seen == MAX_ATTRIBUTES:
            return m.start()
    return None


def _attribute_count(attrs: bytes) -> int:
    """How many attributes a start tag's ``attrs`` hold, at most :data:`MAX_ATTRIBUTES` (the
    rest are cut): a tag past the cap is read only to the attribute after it."""
    if not attrs:
        return 0
    if _attributes_cut_at(attrs) is not None:
        return MAX_ATTRIBUTES
    return len(_ONE_ATTRIBUTE.findall(attrs))


def _page_attributes(tokens: list[tuple[bytes, ...]]) -> int:
    """How many attributes the start tags of :data:`_LISTED`'s ``tokens`` hold, in all (each
    tag's attributes stand apart: no attribute or value crosses a ">")."""
    return len(_ONE_ATTRIBUTE.findall(b">".join([t[1] or t[5] for t in tokens
                                                  if t[1] or t[5]])))


def _popped_through(stack: list[bytes], open_: dict[bytes, int], name: bytes) -> int:
    """Pop the open elements down to and including the last ``name``; how many of those
    popped were svg or math."""
    foreign = 0
    while stack:
        top = stack.pop()
        open_[top] -= 1
        foreign += top in _FOREIGN
        if top == name:
            break
    return foreign


@dataclass(frozen=True)
class Prepared:
    """The markup to parse, and what the pass did to it."""

    markup: bytes
    #: All of the body's visible markup is in ``markup`` (False: it was longer than the limit,
    #: and ``markup`` is its beginning).
    complete: bool = True
    #: Bytes of invisible content taken out (0 unless the body was longer than the limit).
    removed: int = 0
    #: Start tags dropped because they opened past MAX_DEPTH.
    flattened: int = 0
    #: The deepest nesting met, counted as MAX_DEPTH counts it.
    depth: int = 0
    #: Start tags that lost their attributes past MAX_ATTRIBUTES.
    attributes_cut: int = 0


class _Writer:
    """The output: runs of the body kept as they are, up to a limit."""

    def __init__(self, body: bytes, limit: int) -> None:
        self.body = body
        self.limit = limit
        self.out = bytearray()
        self.kept_from = 0
        self.full = False

    def drop(self, start: int, end: int) -> None:
        """Leave out ``body[start:end]`` (everything before it since the last drop is kept)."""
        self.keep_until(start)
        self.kept_from = end

    def keep_until(self, end: int) -> None:
        kept_from = self.kept_from
        if end > kept_from:
            if not self.full:
                room = self.limit - len(self.out)
                if end - kept_from > room:
                    self.out += self.body[kept_from:kept_from + room]
                    self.full = True
                else:
                    self.out += self.body[kept_from:end]
            self.kept_from = end


def prepare(body: bytes, limit: int, max_depth: int | None = None) -> Prepared:
    """The markup of ``body`` to parse, at most ``limit`` bytes (see the module docstring);
    nesting flattened past ``max_depth`` (:data:`MAX_DEPTH`)."""
    return _Pass(body, limit, MAX_DEPTH if max_depth is None else max_depth).run()


class _Pass:
    def __init__(self, body: bytes, limit: int, max_depth: int) -> None:
        self.body = body
        self.limit = limit
        self.max_depth = max_depth
        self.strip = len(body) > limit  # take the invisible parts out
        self.writer: _Writer | None = _Writer(body, limit) if self.strip else None
        self.stack: list[bytes] = []
        self.open: dict[bytes, int] = {}  # how many of each name are on the stack
        self.overflow: dict[bytes, int] = {}  # start tags dropped past max_depth, by name
        self.foreign = 0  # open svg/math elements, where "/>" closes an element
        self.removed = 0
        self.flattened = 0
        self.depth = 0
        self.elements = 0  # start tags read
        self.attributes_cut = 0
        self.attributes = 0  # attributes read, in all
        self.cut = False  # stopped at MAX_ELEMENTS or MAX_PAGE_ATTRIBUTES

    def run(self) -> Prepared:
        if self.writer is None:
            within = self.within()
            if within is not None:
                return within
        body, n, pos = self.body, len(self.body), 0
        stopped = False  # at the limit: the rest of the body is not read
        find = _TOKEN.search
        while pos < n:
            m = find(body, pos)
            if m is None:
                break
            at = m.start()
            writer = self.writer
            if writer is not None and len(writer.out) + at - writer.kept_from > self.limit:
                stopped, pos = True, at
                break
            name = m.group(3)
            if name is None:
                pos = self._other(m, at)
            elif m.group(2):  # an end tag
                end = body.find(b">", m.end())
                pos = n if end < 0 else end + 1
                self._end_tag(name.lower(), at, pos)
            else:
                self.elements += 1
                attrs = _ATTRS.match(body, m.end())
                assert attrs is not None  # the pattern matches the empty string
                self.attributes += _attribute_count(attrs.group(1))
                if self.elements > MAX_ELEMENTS or self.attributes > MAX_PAGE_ATTRIBUTES:
                    self.cut, stopped, pos = True, True, at
                    if self.writer is None:
                        self.writer = _Writer(body, self.limit)
                    break
                # No ">": the tag runs to the end of the body (a quote left open).
                pos = self._start_tag(name.lower(), attrs, at) if attrs.group(2) else n
            if self.writer is not None and self.writer.full:
                stopped = True
                break
        if self.writer is None:
            return Prepared(body, True, 0, 0, self.depth)
        self.writer.keep_until(min(pos, n) if stopped else n)
        return Prepared(bytes(self.writer.out), not (self.writer.full or self.cut), self.removed,
                        self.flattened, self.depth, self.attributes_cut)

    def within(self) -> Prepared | None:
        """The pass over a body within the limit, which is left as it came: the same tokens
        and the same stack as :meth:`run`, or None at the first element it would change (one
        past ``max_depth``, past :data:`MAX_ELEMENTS` or :data:`MAX_PAGE_ATTRIBUTES`, or a tag
        past :data:`MAX_ATTRIBUTES`), where :meth:`run` takes over from the start. Most pages
        take this way; it only measures their depth.

        A body of at most :data:`_LISTED_TOKENS` ``<`` has its tokens listed by one call
        (:data:`_LISTED`, raw text and comments matched whole, so they are tokens of their
        own): the loop below is then all that runs in Python. A longer body is scanned token
        by token (:meth:`_within_searched`), so memory stays a bounded list's."""
        body = self.body
        if body.count(b"<") > _LISTED_TOKENS:
            return self._within_searched()
        max_depth, most = self.max_depth, MAX_ELEMENTS
        stack: list[bytes] = []
        open_: dict[bytes, int] = {}
        foreign = depth = elements = 0
        counted_from = _COUNTED_FROM
        attribute_bytes = 0
        tokens = _LISTED.findall(body)
        for raw, raw_attrs, raw_ends, closing, name, attrs, ends in tokens:
            if closing:  # an end tag
                closing = closing.lower()
                if open_.get(closing):
                    foreign -= _popped_through(stack, open_, closing)
                continue
            if raw:  # a raw text element, its contents and end tag
                elements += 1
                size = len(raw_attrs)
                attribute_bytes += size
                if elements > most or (size > counted_from
                                       and _attributes_cut_at(raw_attrs) is not None):
                    return None
                if not raw_ends or raw.lower() == b"plaintext":
                    break  # (no ">": the tag runs to the end of the body)
                continue
            if not name:  # a comment, a doctype, a processing instruction
                continue
            elements += 1
            size = len(attrs)
            attribute_bytes += size
            if elements > most or (size > counted_from
                                   and _attributes_cut_at(attrs) is not None):
                return None
            if not ends:  # no ">": the tag runs to the end of the body
                break
            name = name.lower()
            if name in _VOID or name in _SELF_CLOSING_SIBLINGS or (
                    (foreign or name in _FOREIGN) and attrs.rstrip().endswith(b"/")):
                continue
            if name in _NO_NESTING and open_.get(name):
                foreign -= _popped_through(stack, open_, name)
            if len(stack) >= max_depth:
                return None
            stack.append(name)
            open_[name] = open_.get(name, 0) + 1
            foreign += name in _FOREIGN
            if len(stack) > depth:
                depth = len(stack)
        if attribute_bytes > _PAGE_COUNTED_FROM and \
                _page_attributes(tokens) > MAX_PAGE_ATTRIBUTES:
            return None
        return Prepared(body, True, 0, 0, depth)

    def _within_searched(self) -> Prepared | None:
        """:meth:`within` one token a search (each token one match, the stack in locals)."""
        body, n, pos = self.body, len(self.body), 0
        search, max_depth, most = _WHOLE_TOKEN.search, self.max_depth, MAX_ELEMENTS
        stack: list[bytes] = []
        open_: dict[bytes, int] = {}
        foreign = depth = elements = attribute_bytes = 0
        while pos < n:
            m = search(body, pos)
            if m is None:
                break
            comment, closing, name, attrs, ends = m.groups()
            if closing is not None:  # an end tag
                end = body.find(b">", m.end())
                pos = n if end < 0 else end + 1
                name = closing.lower()
                if open_.get(name):
                    foreign -= _popped_through(stack, open_, name)
                continue
            if name is None:  # a comment, a doctype, a processing instruction
                at = m.start()
                if comment:
                    end = body.find(b"-->", at + 4)
                    pos = n if end < 0 else end + 3
                else:
                    end = body.find(b">", at)
                    pos = n if end < 0 else end + 1
                continue
            elements += 1
            size = len(attrs)
            attribute_bytes += size
            if elements > most or attribute_bytes > _PAGE_COUNTED_FROM or (
                    size > _COUNTED_FROM and _attributes_cut_at(attrs) is not None):
                return None  # (the attributes are counted where run() reads them)
            if not ends:  # no ">": the tag runs to the end of the body
                break
            pos = m.end()
            name = name.lower()
            if name in _RAW_TEXT:
                if name == b"plaintext":
                    break
                close = _end_of(name).search(body, pos)
                pos = n if close is None else (body.find(b">", close.start()) + 1 or n)
                continue
            if name in _VOID or name in _SELF_CLOSING_SIBLINGS or (
                    (foreign or name in _FOREIGN) and attrs.rstrip().endswith(b"/")):
                continue
            if name in _NO_NESTING and open_.get(name):
                foreign -= _popped_through(stack, open_, name)
            if len(stack) >= max_depth:
                return None
            stack.append(name)
            open_[name] = open_.get(name, 0) + 1
            foreign += name in _FOREIGN
            if len(stack) > depth:
                depth = len(stack)
        return Prepared(body, True, 0, 0, depth)

    # -- tokens -----------------------------------------------------------------------------

    def _other(self, m: re.Match[bytes], at: int) -> int:
        """A comment, a doctype, a processing instruction; where scanning goes on."""
        body = self.body
        if m.group(1):
            end = body.find(b"-->", at + 4)
            end = len(body) if end < 0 else end + 3
            if self.strip:
                self._remove(at, end)
            return end
        end = body.find(b">", at)
        return len(body) if end < 0 else end + 1

    def _start_tag(self, name: bytes, attrs: re.Match[bytes], at: int) -> int:
        end = attrs.end()
        if name in _RAW_TEXT:
            return self._raw_text(name, attrs, at)
        if self.strip and name in _DROPPED_WHOLE:
            close = self._matching_end(name, end)
            self._remove(at, close)
            return close
        self._cut_attributes(attrs)
        if name in _VOID or name in _SELF_CLOSING_SIBLINGS or (
                (self.foreign or name in _FOREIGN) and attrs.group(1).rstrip().endswith(b"/")):
            return end
        if name in _NO_NESTING and self.open.get(name):
            self._pop_through(name)
        if len(self.stack) >= self.max_depth:
            self._flatten(name, at, end)
            return end
        self.stack.append(name)
        self.open[name] = self.open.get(name, 0) + 1
        self.foreign += name in _FOREIGN
        if len(self.stack) > self.depth:
            self.depth = len(self.stack)
        return end

    def _cut_attributes(self, attrs: re.Match[bytes]) -> None:
        """Leave out a start tag's attributes past :data:`MAX_ATTRIBUTES`; what closes the tag
        (a trailing "/", which closes a foreign element, and the ">") stays."""
        held = attrs.group(1)
        cut = _attributes_cut_at(held)
        if cut is None:
            return
        kept = held.rstrip()
        tail = len(kept) - 1 if kept.endswith(b"/") else len(kept)
        self.attributes_cut += 1
        start = attrs.start(1)
        self._drop(start + cut, start + max(tail, cut))

    def _end_tag(self, name: bytes, at: int, end: int) -> None:
        if self.overflow.get(name):
            self.overflow[name] -= 1
            self._drop(at, end)
        elif self.open.get(name):
            self._pop_through(name)

    def _raw_text(self, name: bytes, attrs: re.Match[bytes], at: int) -> int:
        """A script, style, title, textarea...: its contents are text up to its end tag."""
        body, start = self.body, attrs.end()
        self._cut_attributes(attrs)
        if name == b"plaintext":
            return len(body)
        close = _end_of(name).search(body, start)
        inner_end = len(body) if close is None else close.start()
        tag_end = len(body) if close is None else (body.find(b">", close.start()) + 1 or
                                                  len(body))
        if self.strip:
            if name == b"style":
                self._remove(at, tag_end)
            elif name == b"script" and not _LD_JSON.search(attrs.group(1)):
                self._remove(start, inner_end)  # the start and end tags stay
            elif name == b"noscript" and inner_end - start > NOSCRIPT_KEEP:
                self._remove(start, inner_end)
        return tag_end

    def _matching_end(self, name: bytes, start: int) -> int:
        """Where an element that may nest in itself (svg, template) ends, after its end tag."""
        pattern, level, pos = _nested_end(name), 1, start
        while True:
            m = pattern.search(self.body, pos)
            if m is None:
                return len(self.body)
            level += -1 if m.group(1) else 1
            pos = m.end()
            if level == 0:
                end = self.body.find(b">", m.start())
                return len(self.body) if end < 0 else end + 1

    # -- the stack and the output ---------------------------------------------------------------

    def _pop_through(self, name: bytes) -> None:
        while self.stack:
            top = self.stack.pop()
            self.open[top] -= 1
            self.foreign -= top in _FOREIGN
            if top == name:
                return

    def _flatten(self, name: bytes, at: int, end: int) -> None:
        self.overflow[name] = self.overflow.get(name, 0) + 1
        self.flattened += 1
        self._drop(at, end)

    def _remove(self, start: int, end: int) -> None:
        """Leave out invisible content."""
        if end > start:
            self.removed += end - start
            self._drop(start, end)

    def _drop(self, start: int, end: int) -> None:
        if self.writer is None:  # the first change to a body kept as it came: copy from here
            self.writer = _Writer(self.body, self.limit)
        self.writer.drop(start, end)
