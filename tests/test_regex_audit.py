"""Every regular expression of the package is linear in the text it runs on.

The patterns are found at run time (tests/redos.py: every compiled pattern the modules hold,
the tables of entries included, and every pattern compiled while they are imported), so a
table added or moved is audited without anyone listing it here. Two checks:

- the audit (regexploit, the PyPI tool, for nested repetitions; tests/redos.py for the two
  kinds it does not look for: a search that rescans a run from every start, and two
  unbounded repetitions splitting one run) finds nothing;
- hand-written worst cases, per table and per kind of text a page or an answer can be made of
  (a run without spaces, repeated paragraphs, 16,000 digits, nested openers, a run of each
  pattern's own opening characters...): the work, counted in steps of a backtracking matcher
  that finds the same matches as CPython's engine (tests/regexsteps.py), at most a little more
  than doubles when the text doubles. Steps, not seconds: the same on any machine at any
  load.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import redos
import regexsteps

PATTERNS = redos.package_patterns()


def _ids(items: dict[re.Pattern[Any], str]) -> list[str]:
    return [f"{where}:{i}" for i, where in enumerate(items.values())]


# --- the audit itself can fail ------------------------------------------------------------


@pytest.mark.parametrize("pattern", [
    r"\S+\.\w{2,3}",                 # the wall table's entry of issue 20: n² without spaces
    r"<title[^>]*x",                 # a tag's opening repeated, never closed
    r"\w+\s*\w+x",                   # two repetitions splitting one run
    r"(a+)+b",                       # nested: exponential (regexploit)
    r"(\d+)(?:[\u00a0]\d{3})+(?!\d)",  # the grouped number of issue 20, before
    r"\s+$",
])
def test_the_audit_finds_super_linear_patterns(pattern: str) -> None:
    assert redos.audit(re.compile(pattern)), pattern


@pytest.mark.parametrize("pattern", [
    r"\S{1,200}\.\w{2,3}", r"(?<!\S)\S+\.\w{2,3}", r"<title[^<>]*x", r"\.\w+x", r"^\s+x",
    r"\S+", r"(?<!`)`+([^`]+)`+", r"(?s)<!--.*?(?:-->|\Z)",
])
def test_the_audit_passes_linear_patterns(pattern: str) -> None:
    assert redos.audit(re.compile(pattern)) == [], pattern


def test_the_patterns_are_found_where_they_live() -> None:
    """The collector finds the tables (compiled entries inside tuples of dataclasses) and the
    module-level patterns, so a table moved elsewhere is still audited."""
    where = set(PATTERNS.values())
    assert len(PATTERNS) > 150
    assert any(w.startswith("readreceipt.reading.fingerprint._BEFORE_SIGN_IN") for w in where)
    assert any(w.startswith("readreceipt.quotes.") for w in where)
    assert any(w.startswith("readreceipt.agents.fence.") for w in where)
    texts = {p.pattern for p in PATTERNS}
    assert any("available in your (country" in t for t in texts if isinstance(t, str))


# --- the package's own patterns -------------------------------------------------------------


@pytest.mark.parametrize("pattern", list(PATTERNS), ids=_ids(PATTERNS))
def test_no_pattern_of_the_package_is_super_linear(pattern: re.Pattern[Any]) -> None:
    findings = redos.audit(pattern, PATTERNS[pattern])
    assert findings == [], "\n".join(str(f) for f in findings)


# --- worst cases, counted in steps -----------------------------------------------------------

#: A text of each kind a page, an answer or a transcript can send, at a given length.
HOSTILE: dict[str, Any] = {
    "no spaces": lambda n: "x" * n,
    "no spaces, dotted": lambda n: "a." * (n // 2),
    "repeated paragraph": lambda n: ("This site is currently not available in your country "
                                     "or region. " * (n // 64 + 1))[:n],
    "digits": lambda n: "1" * n,
    "grouped digits spoiled": lambda n: ("1" + "\u00a0111" * (n // 4))[:n] + "\u00a011",
    "nested openers": lambda n: ('"a \u201cb \u2018c \u00abd ' * (n // 12 + 1))[:n],
    "spaces": lambda n: " " * n,
    "separators": lambda n: "| " * (n // 2),
    "tags never closed": lambda n: ("<title<img<script " * (n // 18 + 1))[:n],
    "emphasis never closed": lambda n: "*a " * (n // 3),
    "braces": lambda n: ("@a{" * (n // 3)),
    "backticks": lambda n: "`" * n,
    # A JSON string cut by the end of a slice, every quote in it escaped (reading/jsontext.py).
    "escaped quotes never closed": lambda n: '"' + '\\"' * (n // 2),
}
#: Twice the text, at most this much more than twice the work: linear work doubles (plus the
#: constant of a bounded repetition filling up: 2.2 at three times its bound); quadratic work
#: quadruples.
GROWTH = 2.5


def _bound(pattern: re.Pattern[Any]) -> int:
    """The largest bound of a bounded repetition: below four times it, a bounded pattern
    still grows like a quadratic one (measured at three times it)."""
    text = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode(
        "latin-1")
    bounds = [int(b) for b in re.findall(r"\{\d*,(\d+)\}", text)] + [
        int(b) for b in re.findall(r"\{(\d+)\}", text)]
    return max(bounds, default=1)


#: Patterns whose bounded repetitions are too long to fill in a test's few thousand characters
#: are measured at three times their bound; past this, only in bench/hostile.py.
MAX_TEST_CHARS = 6000


def _sized(pattern: re.Pattern[Any]) -> int:
    return max(200, 3 * _bound(pattern))


WORST = {p: w for p, w in PATTERNS.items() if 2 * _sized(p) <= MAX_TEST_CHARS}


def test_most_patterns_are_measured_here() -> None:
    assert len(WORST) >= 0.9 * len(PATTERNS)


@pytest.mark.parametrize("pattern", list(WORST), ids=_ids(WORST))
def test_worst_cases_grow_linearly(pattern: re.Pattern[Any]) -> None:
    n = _sized(pattern)
    texts = dict(HOSTILE)
    own = _own_opening(pattern)
    if own:
        texts["its own opening, repeated"] = lambda k: (own * (k // len(own) + 1))[:k]
    first = redos.first_chars(pattern)
    for name, make in texts.items():
        if first is not None and not first & set(make(64)):
            continue  # no start of a match in it: one step a character, whatever its length
        small = regexsteps.steps(pattern, make(n))
        try:
            large = regexsteps.steps(pattern, make(2 * n), cap=int(GROWTH * small) + 64)
        except regexsteps.TooMuch:
            pytest.fail(f"{PATTERNS[pattern]}: on {name}, twice the text takes more than "
                        f"{GROWTH} times the steps ({small} at {n} characters)")
        assert large <= GROWTH * small + 64


#: Steps a character, at most, on a run of a tag pattern's own opener that never closes: each
#: attempt must stop at the next tag's ``<``, not read a tag's whole bound from every opener
#: (``<input\b[^>]{0,400}?...`` read 400 characters from each: 1 MB of ``<input`` took 2.9 s).
PER_CHARACTER = 40


def _tag_opener(pattern: re.Pattern[Any]) -> str:
    """``<input`` for a pattern opening with a tag's name (``<a`` for any tag), else ""."""
    text = pattern.pattern if isinstance(pattern.pattern, str) else ""
    m = re.match(r"(?:\(\?:)?<([a-z]+)\b", text, re.I)
    if m:
        return "<" + m.group(1)
    return "<a" if text.startswith("<[a-z]") else ""


TAG_PATTERNS = {p: where for p, where in PATTERNS.items() if _tag_opener(p)}


def test_the_tag_patterns_are_found() -> None:
    assert len(TAG_PATTERNS) >= 10


@pytest.mark.parametrize("pattern", list(TAG_PATTERNS), ids=_ids(TAG_PATTERNS))
def test_a_run_of_unclosed_openers_is_read_once(pattern: re.Pattern[Any]) -> None:
    text = (_tag_opener(pattern) + " ") * 2000
    if not pattern.flags & re.IGNORECASE:
        text = text.lower()
    try:
        regexsteps.steps(pattern, text, cap=PER_CHARACTER * len(text))
    except regexsteps.TooMuch:
        pytest.fail(f"{TAG_PATTERNS[pattern]}: a run of unclosed openers takes more than "
                    f"{PER_CHARACTER} steps a character")


def test_the_opener_measure_sees_a_tag_read_to_its_bound_from_every_opener() -> None:
    old = re.compile(r"<input\b[^>]{0,400}?type=[\"']?password")
    with pytest.raises(regexsteps.TooMuch):
        regexsteps.steps(old, "<input " * 2000, cap=PER_CHARACTER * 7 * 2000)


def _own_opening(pattern: re.Pattern[Any]) -> str:
    """The literal text a pattern opens with (``<title``, ``consent.yahoo.com/``), where it
    opens with one: a page made of it repeated is the pattern's own worst case."""
    text = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode(
        "latin-1")
    m = re.match(r"(?:\\.|[^\\()\[\]{}*+?|^$.])+", text.removeprefix("(?:"))
    if not m:
        return ""
    return re.sub(r"\\(.)", r"\1", m.group(0))


def test_the_step_count_sees_a_quadratic_pattern() -> None:
    """The measure can fail: the wall entry of issue 20, as it was, quadruples."""
    old = re.compile(r"(site|website|store|shop|page|\S+\.\w{2,3}) (which )?is intended")
    small = regexsteps.steps(old, "x" * 400)
    with pytest.raises(regexsteps.TooMuch):
        regexsteps.steps(old, "x" * 800, cap=int(GROWTH * small) + 64)
