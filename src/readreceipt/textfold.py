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
- :func:`page_readings`: further readings of a page (footnote markers and screen-reader text
  left out, TeX written as the characters it renders to, a PDF's line-end hyphens joined), each
  searched beside the plain one so that a reading can only ever find more.

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

__all__ = [
    "Folded",
    "fold",
    "fold_mapped",
    "page_readings",
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

# Exponents are kept apart from the digits before them: NFKC alone reads 10² as 102.
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾", "0123456789+-=()")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾]+")
_VULGAR = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞↉"

# What the folding has to look at; everything else is ASCII that only needs lower-casing,
# which keeps length, so the map records only the places where the length changes.
_WS_ENTITY = r"&(?:nbsp|ensp|emsp|thinsp|#0*(?:9|10|13|32|160)|#[xX]0*(?:9|[aA]|[dD]|20|[aA]0));"
_SITE = re.compile(
    rf"(?P<ws>(?:\s|{_WS_ENTITY}){{2,}}|[^\S ]|{_WS_ENTITY})"
    r"|(?P<ent>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|(?P<dash>[-\u2010-\u2015\u2212\ufe58\ufe63\uff0d]{2,})"
    # A non-ASCII run (with single spaces inside it, so a Cyrillic sentence is one site),
    # taking an ASCII letter before a combining mark so NFKC can compose the two.
    r"|(?P<uni>(?:[A-Za-z](?=[\u0300-\u036f]))?"
    r"[^\x00-\x7f\s](?:[^\x00-\x7f\s]| (?=[^\x00-\x7f\s]))*)"
)


def _fold_chars(run: str, after_digit: bool = False) -> str:
    """Fold a run of characters that is not plain ASCII (no whitespace handling)."""
    if after_digit and run[0] in _VULGAR:
        run = " " + run
    if not run.isascii():
        run = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), run)
    run = unicodedata.normalize("NFKC", run.translate(_MARKS)).casefold().translate(_MARKS)
    # Another whitespace character can only come from NFKC of a compatibility space.
    return run if run.isprintable() or " " not in run else " ".join(run.split())


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


def fold_mapped(text: str) -> Folded:
    """Fold ``text`` and keep the map back to it. Does not strip the ends (the map stays simple)."""
    out: list[str] = []
    fs: list[int] = []
    fe: list[int] = []
    ss: list[int] = []
    se: list[int] = []
    last = 0
    pos = 0  # length of the folded text so far

    def site(src_start: int, src_end: int, repl: str) -> None:
        nonlocal pos
        if len(repl) != src_end - src_start:
            fs.append(pos)
            fe.append(pos + len(repl))
            ss.append(src_start)
            se.append(src_end)
        out.append(repl)
        pos += len(repl)

    for m in _SITE.finditer(text):
        start, end = m.span()
        if start > last:
            out.append(text[last:start])
            pos += start - last
        kind = m.lastgroup
        if kind == "ws":
            site(start, end, " ")
        elif kind == "ent":
            site(start, end, _fold_entity(m.group()))
        elif kind == "dash":
            site(start, end, "-")
        else:
            run = m.group()
            after_digit = start > 0 and text[start - 1].isdigit()
            folded = _fold_chars(run, after_digit)
            if len(folded) == len(run):
                out.append(folded)
                pos += len(folded)
            else:
                # Fold one character (with its combining marks) at a time, so the map stays
                # fine-grained over a long run.
                for k, cluster in _clusters(run):
                    at = start + k
                    site(at, at + len(cluster), _fold_chars(cluster, text[at - 1 : at].isdigit()))
        last = end
    if last < len(text):
        out.append(text[last:])
    return Folded("".join(out).lower(), tuple(fs), tuple(fe), tuple(ss), tuple(se))


def _clusters(run: str) -> list[tuple[int, str]]:
    """``run`` cut into characters, each with the combining marks that follow it."""
    out: list[tuple[int, str]] = []
    for k, ch in enumerate(run):
        if out and unicodedata.combining(ch):
            out[-1] = (out[-1][0], out[-1][1] + ch)
        else:
            out.append((k, ch))
    return out


def fold(text: str) -> str:
    """The folded form of ``text``, ends stripped (used for passages and prompts)."""
    return fold_mapped(text).text.strip()


# ----------------------------------------------------------------------------- the looser try

# What a squeeze removes: whitespace, quotation marks (an answer nesting a quotation turns "
# into '), markdown emphasis and code marks, and the backslash of a markdown escape. Letters,
# digits, full stops, minus signs and every other mark stay.
_SQUEEZE_CLASS = r"\s\"'*_`\\"
_SQUEEZE = re.compile(f"[{_SQUEEZE_CLASS}]+")
# A space between two digits is kept (as NUL): "3 5-year plans" must not read "35-year plans".
_DIGIT_GAP = re.compile(r"(?<=\d)\s+(?=\d)")
# A hyphen between two letters, ignored in a PDF, where a line end breaks a word with one and
# an extractor may or may not keep it. Never beside a digit, where it is a minus or a range.
_LETTER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def squeeze(folded: str, *, pdf: bool = False) -> str:
    """``folded`` with spaces, quotation marks and markdown emphasis removed."""
    text = _SQUEEZE.sub("", _DIGIT_GAP.sub("\x00", folded))
    return _LETTER_HYPHEN.sub("", text) if pdf else text


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

# Footnote markers: a bracketed reference, a superscript number after a word, a number stuck to
# the end of a sentence before the next one ("the end.12 Next"), the "citation needed" tag.
_FOOTNOTE = re.compile(
    r"\[(?i:\d{1,3}|[a-z]|note \d{1,3}|citation needed|clarification needed|when\?)\]"
    r"|(?<=[^\W\d_]|[.,;:!?\"'”’)])[¹²³⁰⁴-⁹]+"
    r"|(?<=[^\W\d_][.,;:!?\"”’)])\d{1,3}(?=\s+[A-Z])",
)
# Text a page holds for screen readers and a sighted reader never sees inside the sentence.
_SCREEN_READER = re.compile(
    r"\(?\b(?:opens|open|opening) in (?:a )?new (?:tab|window)(?: or (?:tab|window))?\)?"
    r"|\((?:link is external|external link|link sends e-?mail|pdf|new window)\)",
    re.I,
)
# A space an extractor puts where a tag ended: "the report , which" and "( see".
_TAG_SPACE = re.compile(r"\s+(?=[,;:!?)\]]|\.(?!\d))|(?<=[(\[])\s+")


def _without_asides(text: str) -> str:
    return _SCREEN_READER.sub(" ", _FOOTNOTE.sub("", text))


def _pdf_joined(text: str, keep_hyphen: bool) -> str:
    return re.sub(
        r"([^\W\d_])[-\u00ad][ \t]*\r?\n\s*(?=[^\W\d_])",
        r"\1-" if keep_hyphen else r"\1",
        text,
    )


def page_readings(text: str, *, pdf: bool = False) -> list[str]:
    """Further readings of a page's text, each worth searching beside the text itself.

    Only readings that differ from ``text`` are returned, so a page with no footnotes, no TeX
    and no line-end hyphens costs nothing more.
    """
    readings: list[str] = []

    def add(reading: str) -> None:
        if reading != text and reading not in readings:
            readings.append(reading)

    add(_TAG_SPACE.sub("", text))
    add(_without_asides(text))
    if has_tex(text):
        add(tex_rendered(text))
    if pdf:
        add(_pdf_joined(text, keep_hyphen=False))
        add(_pdf_joined(text, keep_hyphen=True))
    return readings

