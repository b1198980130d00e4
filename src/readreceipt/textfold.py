"""Folding text so that a page and an answer typeset by different hands can be compared.

Used by :mod:`readreceipt.quotes` on both sides of every comparison, so both sides are always
folded by the same function. Three tools live here:

- :func:`fold_mapped` (and :func:`fold`): entities decoded, NFKC, case folded, curly and
  straight marks made one, the several dashes made one hyphen, soft hyphens and zero-width
  characters removed, whitespace runs made one space. The result keeps a map back to the
  original text, so a passage located in the folded page can be shown in the page's own
  characters.
- :func:`squeeze`: a folded text with spaces, quotation marks and markdown emphasis removed,
  the looser second try. :func:`squeezed_pattern` finds a squeezed needle in the *folded* text
  with the word boundaries at its two ends still checked.
- :func:`folded_readings` and :func:`source_readings`: further readings of a page (the space an
  extractor leaves before punctuation, footnote markers and screen-reader text left out, TeX
  written as the characters it renders to, a PDF's line-end hyphens joined), each searched
  beside the plain one so that a reading can only ever find more.

Invariant, checked by the must-not-match tables in tests/test_textfold.py: no fold, squeeze or
reading removes or changes a digit, a sign (``-`` ``+`` ``±``), an inequality, a decimal point
or a percent sign, and none joins two numbers into one. Exponents keep a ``^`` so that ``10²``
never reads as ``102``; a vulgar fraction after a digit is set apart so ``1½`` never reads as
``11/2``.
"""

# ruff: noqa: RUF001 - the tables here are the look-alike characters themselves
from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Folded",
    "fold",
    "fold_mapped",
    "folded_readings",
    "source_readings",
    "squeeze",
    "squeezed_pattern",
    "strip_markdown",
]

# One character for each family of marks. Applied before NFKC (for characters NFKC would
# decompose awkwardly) and again after it (for characters NFKC produces).
_MARKS: dict[int, str | None] = {}
for _ch in "\u2018\u2019\u201a\u201b\u2032\u02bc\u2039\u203a\uff07":
    _MARKS[ord(_ch)] = "'"
for _ch in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u301d\u301e\uff02":
    _MARKS[ord(_ch)] = '"'
for _ch in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b":
    _MARKS[ord(_ch)] = "-"
# Invisible: a line-breaking hint (soft hyphen), zero-width spaces and joiners, word joiner,
# invisible operators, byte-order mark, pdfium's broken-word mark, direction marks.
for _ch in (
    "\u00ad\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\ufffe\u180e"
    "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
):
    _MARKS[ord(_ch)] = None
# Different glyphs for one relation; never a change of relation (≤ stays ≤, never <).
_MARKS[ord("\u223c")] = "~"  # tilde operator, what TeX's \sim renders
_MARKS[ord("\u2a7d")] = "\u2264"  # slanted ≤
_MARKS[ord("\u2a7e")] = "\u2265"  # slanted ≥
_MARKS[ord("\u2044")] = "/"  # fraction slash, what NFKC writes inside ½
_MARKS[ord("\u2215")] = "/"  # division slash

_MARKS_AT = re.compile("[" + "".join(re.escape(chr(c)) for c in _MARKS) + "]")
# Everything a fold treats specially besides NFKC and case: marks, superscripts, fractions.
_SPECIAL_AT = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in _MARKS) + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉]")


def _marks(text: str) -> str:
    """``text`` with _MARKS applied (a scan in C first: most runs hold none of them)."""
    return text.translate(_MARKS) if _MARKS_AT.search(text) else text


# Exponents are kept apart from the digits before them: NFKC alone reads 10² as 102.
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾", "0123456789+-=()")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾]+")
_VULGAR = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"
_VULGAR_AT = re.compile(f"[{_VULGAR}]")
_VULGAR_AFTER_DIGIT = re.compile(f"(?<=[0-9])(?=[{_VULGAR}])")
_DASHES = "\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b"  # a regex class body

# What the folding has to look at; everything else is ASCII that only needs lower-casing,
# which keeps length, so the map records only the places where the length changes.
_WS_ENTITY = r"&(?:nbsp|ensp|emsp|thinsp|#0*(?:9|10|13|32|160)|#[xX]0*(?:9|[aA]|[dD]|20|[aA]0));"
_SITE = re.compile(
    rf"(?P<ws>(?:\s|{_WS_ENTITY}){{2,}}|[^\S ]|{_WS_ENTITY})"
    r"|(?P<ent>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    rf"|(?P<dash>[-{_DASHES}]{{2,}}|[{_DASHES}])"
)
_DASH_SET = frozenset(
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d\u2e3a\u2e3b")
_RUN_STOP = re.compile(rf"[A-Za-z&\-{_DASHES}\x00-\x1f\x7f]")
# Where a site can start: any character but printable ASCII other than "&" and "-" (with what
# follows it), or a run of spaces. One character class first, so the scan over the common
# characters stays in C; _SITE then decides at each such place.
_TRIGGER = re.compile(r"[^ -%'-,.-~][^!-%'-,.-~]*|  +")
# Every whitespace character but the space, made a space (length kept); runs are left to _SITE.
_OTHER_SPACE = re.compile(r"[^\S ]")


def _fold_chars(run: str, after_digit: bool = False) -> str:
    """Fold a run of text holding no entity, no run of spaces and no run of ASCII hyphens."""
    if len(run) <= 8:
        return _fold_short(run, after_digit)
    return _fold_run(run, after_digit)


def _fold_run(run: str, after_digit: bool) -> str:
    if run.isascii():
        return run.lower()
    if after_digit and run[0] in _VULGAR:
        run = " " + run
    special = _SPECIAL_AT.search(run) is not None
    if special:
        if _SUPERSCRIPT_RUN.search(run):
            run = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), run)
        if _VULGAR_AT.search(run):
            run = _VULGAR_AFTER_DIGIT.sub(" ", run)
        run = _marks(run)
    if not unicodedata.is_normalized("NFKC", run):
        run = unicodedata.normalize("NFKC", run)
        special = True  # NFKC can write a mark of its own (a non-breaking hyphen, say)
    run = run.casefold()
    return _marks(run) if special else run


_fold_short = lru_cache(maxsize=4096)(_fold_run)


def _fold_entity(entity: str) -> str:
    decoded = html.unescape(entity)
    if decoded == entity:
        return entity.lower()
    if decoded.isspace():
        return " "
    return _fold_chars(decoded) if not decoded.isascii() else decoded.lower()


@dataclass(frozen=True)
class Folded:
    """A folded text and the places where its length differs from the original's."""

    text: str
    # Each site where folding changed the length: folded [start, end) came from source
    # [start, end). Between sites the two texts run in step, character for character.
    fold_starts: tuple[int, ...]
    fold_ends: tuple[int, ...]
    src_starts: tuple[int, ...]
    src_ends: tuple[int, ...]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that folded into ``text[start:end]``."""
        first = self._char_source(start)[0]
        if end <= start:
            return first, first
        return first, self._char_source(end - 1)[1]

    def _char_source(self, pos: int) -> tuple[int, int]:
        """The source span that folded into the character at ``pos``."""
        i = bisect_right(self.fold_starts, pos) - 1
        if i < 0:
            return pos, pos + 1
        if pos < self.fold_ends[i]:
            return self.src_starts[i], self.src_ends[i]
        at = self.src_ends[i] + (pos - self.fold_ends[i])
        return at, at + 1


class _Builder:
    """The folded text as it is built, and the sites where its length differs."""

    __slots__ = ("fe", "fs", "out", "pos", "se", "ss")

    def __init__(self) -> None:
        self.out: list[str] = []
        self.fs: list[int] = []
        self.fe: list[int] = []
        self.ss: list[int] = []
        self.se: list[int] = []
        self.pos = 0  # length of the folded text so far

    def plain(self, piece: str) -> None:
        self.out.append(piece)
        self.pos += len(piece)

    def site(self, src_start: int, src_end: int, repl: str, *, exact: bool = True) -> None:
        """``repl`` folded from source[src_start:src_end]; ``exact`` when, of equal length,
        its characters also correspond one to one."""
        if len(repl) != src_end - src_start or not exact:
            self.fs.append(self.pos)
            self.fe.append(self.pos + len(repl))
            self.ss.append(src_start)
            self.se.append(src_end)
        self.out.append(repl)
        self.pos += len(repl)

    def done(self, *, lower: bool) -> Folded:
        text = "".join(self.out)
        return Folded(text.lower() if lower else text, tuple(self.fs), tuple(self.fe),
                      tuple(self.ss), tuple(self.se))


def fold_mapped(text: str) -> Folded:
    """Fold ``text`` and keep the map back to it. Does not strip the ends (the map stays simple)."""
    work = text.replace("\n", " ")
    if _OTHER_SPACE.search(work):
        work = _OTHER_SPACE.sub(" ", work)
    cased = _cased_one_to_one(work)
    if cased is not None:
        return _fold_simple(text, cased)
    return _fold_general(text, work)


# Characters that never fold to exactly one, whatever NFKC says of the text: deleted ones,
# exponents, fractions.
_NOT_ONE = re.compile(
    "[" + "".join(re.escape(chr(c)) for c, v in _MARKS.items() if v is None)
    + "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾" + _VULGAR + "]")
_SIMPLE_TRIGGER = re.compile("  +|&|--+|\u2026")


def _cased_one_to_one(work: str) -> str | None:
    """``work`` case-folded when every character of it but "…" folds to exactly one, else
    None. Decided in C: no deleted character, exponent or fraction, nothing NFKC changes, a
    case fold that keeps the length (it never shortens)."""
    if _NOT_ONE.search(work):
        return None
    cased = work.casefold()
    if len(cased) != len(work):
        return None
    probe = work.replace("\u2026", "") if "\u2026" in work else work
    return cased if unicodedata.is_normalized("NFKC", probe) else None


def _fold_simple(source: str, work: str) -> Folded:
    """The fold of a text whose characters fold one to one (but "…"), given case-folded: marks
    over the whole text at once; only runs of spaces, entities, runs of dashes and "…" are
    sites."""
    if _MARKS_AT.search(work):
        work = _MARKS_AT.sub(lambda m: _MARKS[ord(m.group())] or "", work)
    built = _Builder()
    last = 0
    for trigger in _SIMPLE_TRIGGER.finditer(work):
        start, end = trigger.span()
        if start < last:
            continue
        first = work[start]
        if first == "\u2026":
            repl = "..."
        elif first == "-":
            repl = "-"
        else:
            m = _SITE.match(work, start)
            if m is None:
                continue
            end = m.end()
            if m.lastgroup == "ws":
                repl = " "
                if start > last and work[start - 1] == " ":
                    start -= 1
            else:
                repl = _fold_entity(source[start:end])
        if start > last:
            built.plain(work[last:start])
        built.site(start, end, repl)
        last = end
    if last < len(work):
        built.plain(work[last:])
    return built.done(lower=False)


def _fold_general(source: str, text: str) -> Folded:
    """The fold of any text: each run of characters that are not ASCII folded on its own, cut
    where the length changes so the map stays fine-grained."""
    built = _Builder()
    last = 0

    def fold_run(start: int, end: int, after_digit: bool) -> None:
        run = text[start:end]
        pieces = _run_pieces_cached(run, after_digit) if len(run) <= 16 else \
            _run_pieces(run, after_digit)
        for offset, length, folded, exact in pieces:
            if exact:
                built.plain(folded)
            else:
                built.site(start + offset, start + offset + length, folded, exact=False)

    for trigger in _TRIGGER.finditer(text):
        at, stop = trigger.span()
        at = max(at, last)
        while at < stop:
            if text[at] > "\x7f" and text[at] not in _DASH_SET:
                # A run: from a character that is not ASCII on, over spaces, digits and
                # punctuation, to the next ASCII letter, entity, dash or run of spaces. A
                # Cyrillic paragraph is then one run, folded in one call.
                start, kind = at, "uni"
                stopper = _RUN_STOP.search(text, at + 1)
                end = stopper.start() if stopper else len(text)
                spaces = text.find("  ", at + 1, end)
                end = spaces if spaces >= 0 else end
                while text[end - 1] == " ":  # a space before what stops the run is not its
                    end -= 1
            else:
                m = _SITE.match(text, at)
                if m is None:
                    at += 1
                    continue
                start, end = m.span()
                kind = m.lastgroup or ""
            # The character before may belong to the site: the space before a line break,
            # the letter a combining mark sits on.
            if start > last and (
                (kind == "ws" and text[start - 1] == " ")
                or (kind == "uni" and unicodedata.combining(source[start])
                    and text[start - 1].isascii())
            ):
                start -= 1
            if start > last:
                built.plain(text[last:start])
            if kind == "ws":
                built.site(start, end, " ")
            elif kind == "ent":
                built.site(start, end, _fold_entity(text[start:end]))
            elif kind == "dash":
                built.site(start, end, "-")
            else:
                fold_run(start, end, text[start - 1 : start].isdigit())
            last = at = end
    if last < len(text):
        built.plain(text[last:])
    return built.done(lower=True)


@lru_cache(maxsize=8192)
def _irregular(ch: str) -> bool:
    """Whether ``ch`` does not fold to exactly one character on its own: it expands (a
    ligature, an exponent, a fraction), vanishes (a soft hyphen), or may join its neighbour
    (a combining mark, a Hangul jamo)."""
    return (unicodedata.category(ch)[0] == "M" or "\u1100" <= ch <= "\u11ff"
            or len(_fold_short(ch, False)) != 1)




def _irregular_pattern(run: str) -> re.Pattern[str] | None:
    """A pattern for the places of ``run`` that do not fold one to one, or None."""
    # The common case, decided in C: nothing for NFKC to change, a case fold that keeps the
    # length (it never shortens), nothing to delete. Then every character folds to one.
    if (not _SPECIAL_AT.search(run) and unicodedata.is_normalized("NFKC", run)
            and len(run.casefold()) == len(run)):
        return None
    odd = [ch for ch in set(run) if not ch.isascii() and _irregular(ch)]
    if not odd:
        return None
    marks = "".join(re.escape(ch) for ch in odd if unicodedata.category(ch)[0] == "M")
    others = "".join(re.escape(ch) for ch in odd if unicodedata.category(ch)[0] != "M")
    parts = [f"[{others}][{marks}]*" if others and marks else f"[{others}]" if others else ""]
    if marks:
        parts.append(f".?[{marks}]+")
    return re.compile("|".join(p for p in parts if p), re.S)


def _run_pieces(run: str, after_digit: bool) -> tuple[tuple[int, int, str, bool], ...]:
    """(offset, source length, folded, one to one) covering ``run``, cut so that every piece
    either folds one character to one or is a single place that does not."""
    odd = _irregular_pattern(run)
    if odd is None:  # every character folds to exactly one: the run is one piece
        return ((0, len(run), _fold_chars(run, after_digit), True),)
    pieces: list[tuple[int, int, str, bool]] = []
    done = 0
    for m in odd.finditer(run):
        i, j = m.span()
        if i > done:
            folded = _fold_chars(run[done:i], after_digit and done == 0)
            pieces.append((done, i - done, folded, True))
        digit_before = run[i - 1].isdigit() if i else after_digit
        pieces.append((i, j - i, _fold_chars(m.group(), digit_before), False))
        done = j
    if done < len(run):
        pieces.append((done, len(run) - done, _fold_chars(run[done:]), True))
    return tuple(pieces)


_run_pieces_cached = lru_cache(maxsize=8192)(_run_pieces)


def fold(text: str) -> str:
    """The folded form of ``text``, ends stripped (used for passages and prompts)."""
    return fold_mapped(text).text.strip()


# ----------------------------------------------------------------------------- the looser try

# What a squeeze removes: whitespace, quotation marks (an answer nesting a quotation turns "
# into '), markdown emphasis and code marks, and the backslash of a markdown escape. Letters,
# digits, full stops, minus signs and every other mark stay.
_SQUEEZE_CLASS = r"\s\"'*_`\\"
_SQUEEZED_OUT = (" ", '"', "'", "*", "_", "`", "\\")
# A space between two digits is kept (as NUL): "3 5-year plans" must not read "35-year plans".
_DIGIT_GAP = re.compile(r"(\d) (?=\d)")
# A hyphen between two letters, ignored in a PDF, where a line end breaks a word with one and
# an extractor may or may not keep it. Never beside a digit, where it is a minus or a range.
_LETTER_HYPHEN = re.compile(r"-(?<=[^\W\d_]-)(?=[^\W\d_])")


def squeeze(folded: str, *, pdf: bool = False) -> str:
    """``folded`` (whose only whitespace is single spaces) with spaces, quotation marks and
    markdown emphasis removed."""
    text = _DIGIT_GAP.sub("\\1\x00", folded)
    for mark in _SQUEEZED_OUT:
        text = text.replace(mark, "")
    return _LETTER_HYPHEN.sub("", text) if pdf and "-" in text else text


def squeezed_pattern(needle: str, *, pdf: bool = False) -> re.Pattern[str]:
    """A pattern finding squeezed ``needle`` in a *folded* text, word boundaries at both ends.

    Between two characters of the needle it allows what :func:`squeeze` removes; between two
    digits only emphasis marks, never a space (a NUL in the needle stands for that space).
    """
    gap = f"[{_SQUEEZE_CLASS}]*"
    letter_gap = f"[{_SQUEEZE_CLASS}-]*"
    parts: list[str] = [_start_guard(needle[0])]
    for i, ch in enumerate(needle):
        if i:
            prev = needle[i - 1]
            if prev == "\x00" or ch == "\x00":
                parts.append("")
            elif prev.isdigit() and ch.isdigit():
                parts.append("[*_`]*")
            elif pdf and prev.isalpha() and ch.isalpha():
                parts.append(letter_gap)
            else:
                parts.append(gap)
        parts.append(r"\s+" if ch == "\x00" else re.escape(ch))
    parts.append(_end_guard(needle[-1]))
    return re.compile("".join(parts))


def _start_guard(first: str) -> str:
    guard = ""
    if first.isalnum():
        guard += r"(?<![^\W_])"
    if first.isdigit():
        # Not the tail of a decimal or a thousands group, not after a sign or an exponent mark.
        guard += r"(?<!\d[.,])(?<![-+^±])"
    return guard


def _end_guard(last: str) -> str:
    guard = ""
    if last.isalnum():
        guard += r"(?![^\W_])"
    if last.isdigit():
        # Not the head of a decimal or thousands group, and not a number cut from its unit.
        guard += r"(?![.,]\d)(?![%‰°^])"
    return guard


def boundaries_hold(hay: str, start: int, end: int) -> bool:
    """Whether ``hay[start:end]`` starts and ends where a word or a number does."""
    first, last = hay[start], hay[end - 1]
    if start > 0:
        before = hay[start - 1]
        if first.isalnum() and before.isalnum():
            return False
        if first.isdigit() and (
            before in "-+^±" or (before in ".," and start > 1 and hay[start - 2].isdigit())
        ):
            return False
    if end < len(hay):
        after = hay[end]
        if last.isalnum() and after.isalnum():
            return False
        if last.isdigit() and (
            after in "%‰°^" or (after in ".," and end + 1 < len(hay) and hay[end + 1].isdigit())
        ):
            return False
    return True


# ---------------------------------------------------------------------------- answer markdown

_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
_CODE = re.compile(r"`+([^`]+)`+")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!\"'<>|~])")


def strip_markdown(passage: str) -> str:
    """A passage with the markdown an answer adds (emphasis, code marks, escapes) removed."""
    text = _ESCAPE.sub(r"\1", passage)
    text = _CODE.sub(r"\1", text)
    previous = None
    while previous != text:  # nested emphasis: ***a** b*
        previous, text = text, _EMPHASIS.sub(r"\2", text)
    return text


# ------------------------------------------------------------------------------ TeX as rendered

# A listing or a feed (arXiv's, for one) carries an abstract as its author typed it, and an
# answer written from the rendered page says "κ = 0.36" where the text holds "$\\kappa = 0.36$".
# A closed table, one command for one character: a command not in it stays as typed, and no
# digit, sign or letter of the text is touched.
_TEX_SYMBOLS: dict[str, str] = {
    # alpha..omega are U+03B1..U+03C9 in this order (final sigma included).
    **{name: chr(0x3B1 + i) for i, name in enumerate((
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "varsigma", "sigma", "tau",
        "upsilon", "phi", "chi", "psi", "omega"))},
    "varepsilon": "ε", "vartheta": "ϑ", "varphi": "φ", "varrho": "ϱ", "varpi": "ϖ",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗",
    "le": "≤", "leq": "≤", "leqslant": "≤", "ge": "≥", "geq": "≥", "geqslant": "≥",
    "ne": "≠", "neq": "≠", "approx": "≈", "simeq": "≃", "sim": "∼", "equiv": "≡",
    "propto": "∝", "ll": "≪", "gg": "≫", "lesssim": "≲", "gtrsim": "≳",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒",
    "Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "mapsto": "↦",
    "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "int": "∫",
    "sqrt": "√", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪",
    "cap": "∩", "forall": "∀", "exists": "∃", "neg": "¬", "land": "∧", "lor": "∨",
    "emptyset": "∅", "ell": "ℓ", "hbar": "ℏ", "circ": "∘", "bullet": "•", "star": "⋆",
    "dagger": "†", "prime": "′", "langle": "⟨", "rangle": "⟩", "vert": "|", "mid": "|",
    "lvert": "|", "rvert": "|", "ldots": "…", "dots": "…", "cdots": "⋯", "degree": "°",
    "AA": "Å", "S": "§", "textdegree": "°", "textasciitilde": "~",
}
# Commands that change how their argument looks and add no character of their own.
_TEX_STYLES = frozenset((
    "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal", "mathbb", "mathfrak",
    "boldsymbol", "bm", "operatorname", "text", "textrm", "textbf", "textit", "texttt",
    "textsf", "textsc", "emph", "mbox", "hbox", "mathnormal", "left", "right", "big", "Big",
    "bigg", "Bigg", "displaystyle", "textstyle", "scriptstyle", "rm", "bf", "it", "limits",
    "nolimits",
))
_TEX_TEXT_WRAPPER = re.compile(
    r"\\(?:textbf|textit|texttt|textsc|textrm|textsf|emph|text|mbox)\s*\{([^{}]*)\}"
)
_TEX_MATH = re.compile(
    r"\$\$(?P<a>[^$]{1,400}?)\$\$|\$(?P<b>[^$\n]{1,200}?)\$"
    r"|\\\((?P<c>.{1,400}?)\\\)|\\\[(?P<d>.{1,400}?)\\\]",
    re.S,
)
_TEX_SIGNS = re.compile(r"\\[A-Za-z]|[\^_{}]")
_TEX_DEGREE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?")
_TEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_TEX_ESCAPED = re.compile(r"\\([%&$#_{}])")
_TEX_SPACING = re.compile(r"\\[,;:!]|\\ ")
_TEX_QUOTES = re.compile(r"``(.{1,400}?)''", re.S)


def has_tex(text: str) -> bool:
    """Whether ``text`` may hold TeX worth a reading of its own."""
    return "\\" in text or "``" in text


def _math_rendered(body: str) -> str:
    body = _TEX_DEGREE.sub("°", body)
    body = _TEX_SPACING.sub("", _TEX_ESCAPED.sub(lambda m: "\x01" + m.group(1), body))

    def command(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _TEX_STYLES:
            return ""
        return _TEX_SYMBOLS.get(name, m.group(0))

    body = _TEX_COMMAND.sub(command, body)
    # Braces group and a subscript mark only lowers; a caret stays, as an exponent does.
    body = re.sub(r"(?<!\x01)[{}_~]", lambda m: " " if m.group() == "~" else "", body)
    return body.replace("\x01", "")


def tex_rendered(text: str) -> str:
    """``text`` with its TeX math written as the characters a rendered page would show."""

    def math(m: re.Match[str]) -> str:
        body = next(g for g in m.groups() if g is not None)
        return _math_rendered(body) if _TEX_SIGNS.search(body) else m.group(0)

    text = _TEX_TEXT_WRAPPER.sub(r"\1", text)
    text = _TEX_MATH.sub(math, text)
    return _TEX_QUOTES.sub(r'"\1"', text)


# -------------------------------------------------------------------------- readings of a page

# Footnote markers, as they read once folded: a bracketed reference or tag, an exponent mark
# after a word or a closing mark (a superscript number), a number stuck to the end of a
# sentence before the next word ("the end.12 next").
_FOOTNOTE_BRACKETED = re.compile(
    r"\[(?:\d{1,3}|[a-z]|note \d{1,3}|citation needed|clarification needed|when\?)\]")
_FOOTNOTE_RAISED = re.compile(r"\^(?<=[^\W\d_.,;:!?\"')]\^)\d{1,3}(?![\d.,])")
_FOOTNOTE_GLUED = re.compile(r"([.,;:!?\"')])(?<=[^\W\d_].)\d{1,3}(?= [^\W\d_])")
# Text a page holds for screen readers, which a sighted reader never sees inside the sentence.
_SCREEN_READER = re.compile(
    r" ?\(?\b(?:opens|open|opening) in (?:a )?new (?:tab|window)(?: or (?:tab|window))?\)?"
    r"| ?\((?:link is external|external link|link sends e-?mail|new window)\)"
)
_SCREEN_READER_WORDS = ("new tab", "new window", "(link", "(external")
# A space an extractor puts where a tag ended: "the report , which" and "( see".
_TAG_SPACE_BEFORE = re.compile(r" (?=[,;:!?)\]]|\.(?!\d))")
_TAG_SPACE_AFTER = re.compile(r"([(\[]) ")
_PDF_BREAK = re.compile(r"([^\W\d_])[-\u00ad\ufffe][ \t]*\r?\n\s*(?=[^\W\d_])")


def folded_readings(folded: str) -> list[tuple[str, bool]]:
    """Further readings of an already folded page text (no refolding needed), each with
    whether its squeeze differs from the text's own.

    Without the spaces an extractor leaves before closing punctuation (a squeeze removes those
    spaces anyway), and without footnote markers and screen-reader text. Only readings that
    differ from ``folded`` are returned.
    """
    tight = _TAG_SPACE_BEFORE.sub("", folded)
    if "( " in tight or "[ " in tight:
        tight = _TAG_SPACE_AFTER.sub(r"\1", tight)
    asides = _FOOTNOTE_GLUED.sub(r"\1", folded)
    if "[" in asides:
        asides = _FOOTNOTE_BRACKETED.sub("", asides)
    if "^" in asides:
        asides = _FOOTNOTE_RAISED.sub("", asides)
    if any(words in asides for words in _SCREEN_READER_WORDS):
        asides = _SCREEN_READER.sub("", asides)
    readings = [(tight, False)] if tight != folded else []
    if asides != folded:
        readings.append((asides, True))
    return readings


def source_readings(text: str, *, pdf: bool = False) -> list[str]:
    """Further readings made from the page's own text, to be folded by the caller.

    TeX written as the characters it renders to (only where the text holds TeX), and for a PDF
    the words broken by a hyphen at a line end joined, without the hyphen and with it.
    """
    readings: list[str] = []
    if has_tex(text):
        readings.append(tex_rendered(text))
    if pdf and _PDF_BREAK.search(text):
        readings.append(_PDF_BREAK.sub(r"\1", text))
        readings.append(_PDF_BREAK.sub(r"\1-", text))
    return [r for r in readings if r != text]
