"""Further readings of a page's text, each searched beside the text itself.

A reading can only ever find more: a passage is found when any reading holds it. A reading of
the folded text (:func:`folded_readings`): without footnote markers and screen-reader text
("opens in a new tab"); for a passage holding a digit, with numbers written in CJK numerals
as digits (:func:`cjk_digits`). Readings of the page's own text, to be folded by the caller
(:func:`source_readings`): TeX written as the characters it renders to, by a closed table, and
for a PDF the words a line end broke with a hyphen, joined without it and with it.

Invariant, checked by the must-not-match tables in tests/test_textfold.py: no reading changes
a digit, a sign, an inequality or a decimal point (a CJK numeral becomes exactly the number it
writes, or stays as written; a number grouped by typographic spaces loses only the spaces), and
TeX that is not math (an amount in dollars) stays as typed.
"""

# ruff: noqa: RUF001 - the TeX table is the look-alike characters themselves
from __future__ import annotations

import re

from readreceipt.quotes.numberwords import CJK_EVERYDAY, cjk_digits_of

__all__ = ["cjk_digits", "folded_readings", "has_tex", "source_readings", "tex_rendered",
           "ungrouped"]


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
_TEX_DEGREE = re.compile(r"\^\s*(?:\{\s*)?\\circ\s*\}?")
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
_PDF_BREAK = re.compile(r"([^\W\d_])[-\u00ad\ufffe][ \t]*\r?\n\s*(?=[^\W\d_])")


def folded_readings(folded: str) -> list[str]:
    """Further readings of an already folded page text (no refolding needed): without
    footnote markers and screen-reader text. Only a reading that differs is returned.

    (The space an extractor leaves where a tag ended, "the report , which", needs no reading:
    the squeezed try removes it.)
    """
    asides = _FOOTNOTE_GLUED.sub(r"\1", folded)
    if "[" in asides:
        asides = _FOOTNOTE_BRACKETED.sub("", asides)
    if "^" in asides:
        asides = _FOOTNOTE_RAISED.sub("", asides)
    if any(words in asides for words in _SCREEN_READER_WORDS):
        asides = _SCREEN_READER.sub("", asides)
    return [asides] if asides != folded else []


# -------------------------------------------------------------------------- numbers in CJK

# A Chinese or Japanese page writes 三千五百万 where an answer writes 3500万, and 二〇一九年 for
# 2019年. The reading writes each such number in digits, exactly: a digit is never guessed.
# The larger units (万, 億/亿) stay as written, as modern text keeps them ("3500万"). Two
# numerals side by side without a unit or a zero (五六个, "five or six") are an estimate, not
# a number, and stay as written; so does anything that does not parse.
# (The table is numberwords.py's, the one table of CJK numerals; the myriads are left out.)
_CJK_NUMBER = re.compile(f"[{CJK_EVERYDAY}]+")


def cjk_digits(text: str) -> str:
    """``text`` with the numbers it writes in CJK numerals written in digits."""
    if text.isascii() or not _CJK_NUMBER.search(text):  # isascii: a fast no
        return text
    return _CJK_NUMBER.sub(lambda m: cjk_digits_of(m.group()) or m.group(), text)


# A number whose thousands a page groups with a no-break, narrow no-break, thin or figure
# space (French, Russian, Polish, Czech, Swedish typesetting: "1 200 000 euros"), which an
# answer writes "1200000": typographic spaces only, which do not part two numbers (a plain
# space does: "3 500-year plans"), and only in the shape of a grouped number, a lead group of
# one to three digits then groups of three ("en 2019\u00a0300 personnes" is a year and a count,
# never 2019300; nor is "12.345\u00a0678", where the group may close a decimal, nor a run
# whose last group has a fourth digit, "1\u00a0234\u00a05678").
_GROUP_SPACES = "\u00a0\u202f\u2009\u2007"
# The quick test, which most pages fail: the scan for the whole shape costs a few times more.
_GROUP_SPACE_DIGITS = re.compile(f"[{_GROUP_SPACES}]\\d{{3}}")
#: A number grouped by spaces holds at most this many groups of three after its first (10^30):
#: a search that met a chain of groups spoiled at its end would otherwise try every group of
#: it again from each group's start. Each start is the start of a run of digits only.
MAX_DIGIT_GROUPS = 10
_GROUPED_NUMBER = re.compile(
    f"(?<!\\d)(\\d+)(?:[{_GROUP_SPACES}]\\d{{3}}){{1,{MAX_DIGIT_GROUPS}}}(?!\\d|[{_GROUP_SPACES}]\\d)")


def ungrouped(text: str) -> str:
    """``text`` with the typographic spaces inside grouped numbers removed, nothing else."""
    if _GROUP_SPACE_DIGITS.search(text) is None:
        return text
    return _GROUPED_NUMBER.sub(_joined, text)


def _joined(m: re.Match[str]) -> str:
    start = m.start()
    if len(m.group(1)) > 3 or (start and m.string[start - 1] in ".,"):
        return m.group()  # not one grouped number: leave it as written
    return "".join(ch for ch in m.group() if ch not in _GROUP_SPACES)


def source_readings(text: str, *, pdf: bool = False) -> list[str]:
    """Further readings made from the page's own text, to be folded by the caller.

    TeX written as the characters it renders to (only where the text holds TeX); numbers
    grouped by typographic spaces, written without them; and for a PDF the words broken by a
    hyphen at a line end joined, without the hyphen and with it.
    """
    readings: list[str] = []
    if has_tex(text):
        readings.append(tex_rendered(text))
    if (plain := ungrouped(text)) != text:
        readings.append(plain)
    if pdf and _PDF_BREAK.search(text):
        readings.append(_PDF_BREAK.sub(r"\1", text))
        readings.append(_PDF_BREAK.sub(r"\1-", text))
    return [r for r in readings if r != text]
