"""Finding the regular expressions that are not linear in their input, and the package's own.

Two kinds of super-linear cost, each looked for on the parsed pattern (``re._parser``, the
parse CPython's engine runs), never on its text:

- **within one attempt** (catastrophic backtracking): a repetition nested in a repetition
  that can take the same characters (``(a+)+``, ``(\\w+ ?)+``): regexploit, the PyPI tool,
  finds these (:func:`nested_repeats`); and two unbounded repetitions in a row, with only
  what may match nothing between them, that can take the same characters (``\\w+\\s*\\w+x``),
  which it does not look for (:func:`adjacent_repeats`): quadratic in one attempt.
- **across attempts** (``search``, ``finditer``, ``sub`` try every start): an unbounded
  repetition that scans a run of characters which the text before it in the pattern could
  also be made of, followed by something that can fail (``\\S+\\.\\w{2,3}`` on a text without
  spaces or dots: each start scans to the end of the run, n²/2): :func:`rescanning_repeats`.
  regexploit does not look for these either, and they are the ones the pages found.

The classes of characters are judged by CPython's own engine on a sample of characters (ASCII,
whitespace, and the marks, letters, digits and spaces of the scripts the tables read), so
``\\w``, ``\\s``, ``(?i)`` and negated classes mean exactly what they mean when the pattern
runs. A bounded repetition (``{0,300}``) is linear whatever it holds: its cost per attempt has
a ceiling, which the benchmarks (bench/hostile.py) measure.

:func:`package_patterns` finds every compiled pattern of the package at run time: the
module-level patterns and the tables of entries (``Compiled`` objects in tuples, dicts,
dataclasses), and every pattern compiled while the package is imported, so a table added or
moved anywhere is looked at without a list kept by hand.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as C
from re import _parser as sre_parse
from typing import Any

from regexsteps import class_regex

#: The characters a class is judged on: ASCII, and the marks, letters, digits and spaces of
#: the scripts the tables and the quotation finder read.
SAMPLE = "".join(chr(c) for c in range(9, 14)) + "".join(chr(c) for c in range(32, 127)) + (
    "\x85\xa0\xab\xbb\xe9\xdf\xd8\u0436\u03a9\u0663\u2009\u200b\u202f\u2013\u2014\u2018\u2019"
    "\u201a\u201c\u201d\u201e\u2026\u2039\u203a\u3000\u300c\u300d\u300e\u300f\u4e2d\u3042"
    "\uac00\uff02\uff62\ufeff")
BYTES_SAMPLE = "".join(chr(c) for c in range(256))

@dataclass(frozen=True)
class Finding:
    """One super-linear construct of one pattern."""

    kind: str  # "nested", "adjacent", "rescanning"
    pattern: str
    where: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.kind} ({self.detail}): {self.pattern[:120]!r}"


# --- the parsed pattern as a small tree ---------------------------------------------------


@dataclass(frozen=True)
class _Chars:
    chars: frozenset[str]


@dataclass(frozen=True)
class _Seq:
    items: tuple[Any, ...]


@dataclass(frozen=True)
class _Alt:
    options: tuple[Any, ...]


@dataclass(frozen=True)
class _Rep:
    low: int
    high: int  # C.MAXREPEAT when unbounded
    body: Any
    possessive: bool = False  # never gives back what it took

    @property
    def unbounded(self) -> bool:
        return self.high == C.MAXREPEAT


@dataclass(frozen=True)
class _Test:
    """Zero-width: an anchor, a word edge, a lookaround; it may fail. ``start_only``: it holds
    at the start of the text alone (``\\A``, ``^`` without MULTILINE), so no second attempt
    passes it; ``not_after``: a negative lookbehind of one character of these, so an attempt
    cannot pass it inside a run of them."""

    start_only: bool = False
    not_after: frozenset[str] = frozenset()
    end_only: bool = False


class _Tree:
    def __init__(self, pattern: re.Pattern[Any]) -> None:
        self.flags = pattern.flags
        self.is_bytes = isinstance(pattern.pattern, bytes)
        text = pattern.pattern.decode("latin-1") if self.is_bytes else pattern.pattern
        flags = pattern.flags & ~re.UNICODE if self.is_bytes else pattern.flags
        self.sample = BYTES_SAMPLE if self.is_bytes else SAMPLE
        self.root = self._seq(sre_parse.parse(text, flags))

    def _judge(self, regex: str) -> frozenset[str]:
        return _members(regex, self.flags & (re.I | re.S | re.A) | (re.A if self.is_bytes
                                                                      else 0), self.sample)

    def _seq(self, ops: Any) -> _Seq:
        return _Seq(tuple(self._op(op, av) for op, av in ops))

    def _op(self, op: Any, av: Any) -> Any:
        if op is C.LITERAL:
            return _Chars(self._judge(re.escape(chr(av))))
        if op is C.NOT_LITERAL:
            return _Chars(self._judge("[^" + re.escape(chr(av)) + "]"))
        if op is C.ANY:
            return _Chars(self._judge("."))
        if op is C.IN:
            return _Chars(self._in(av))
        if op is C.SUBPATTERN:
            return self._seq(av[-1])
        if op is C.BRANCH:
            return _Alt(tuple(self._seq(b) for b in av[1]))
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, high, body = av
            return _Rep(low, high, self._seq(body), op is C.POSSESSIVE_REPEAT)
        if op is C.ATOMIC_GROUP:
            return self._seq(av)
        if op is C.ASSERT_NOT and av[0] == -1 and len(av[1]) == 1 and \
                av[1][0][0] in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            return _Test(not_after=self._op(*av[1][0]).chars)
        if op in (C.ASSERT, C.ASSERT_NOT, C.GROUPREF_EXISTS):
            return _Test()
        if op is C.AT:
            if av is C.AT_BEGINNING and self.flags & re.M:  # only just after a newline
                return _Test(not_after=frozenset(self.sample) - {"\n"})
            return _Test(start_only=av is C.AT_BEGINNING_STRING or av is C.AT_BEGINNING,
                         end_only=av is C.AT_END_STRING)
        if op is C.GROUPREF:  # a back reference: one comparison, never backtracked into
            return _Chars(frozenset(self.sample))
        raise ValueError(f"unknown opcode {op}")

    def _in(self, items: Any) -> frozenset[str]:
        return self._judge(class_regex(items))


@lru_cache(maxsize=4096)
def _members(regex: str, flags: int, sample: str) -> frozenset[str]:
    one = re.compile(regex, flags)
    return frozenset(ch for ch in sample if one.fullmatch(ch))


# --- what a piece can match -----------------------------------------------------------------


def _nullable(n: Any) -> bool:
    """May match the empty string (a test counts as passing)."""
    if isinstance(n, _Chars):
        return False
    if isinstance(n, _Seq):
        return all(_nullable(i) for i in n.items)
    if isinstance(n, _Alt):
        return any(_nullable(o) for o in n.options)
    if isinstance(n, _Rep):
        return n.low == 0 or _nullable(n.body)
    return True


def _passes(n: Any) -> bool:
    """Always matches the empty string: nothing after it can make an attempt fail."""
    if isinstance(n, _Test | _Chars):
        return False
    if isinstance(n, _Seq):
        return all(_passes(i) for i in n.items)
    if isinstance(n, _Alt):
        return any(_passes(o) for o in n.options)
    return n.low == 0


def _consumed(n: Any) -> frozenset[str]:
    """Every character the piece can take."""
    if isinstance(n, _Chars):
        return n.chars
    if isinstance(n, _Seq):
        return frozenset().union(*(_consumed(i) for i in n.items))
    if isinstance(n, _Alt):
        return frozenset().union(*(_consumed(o) for o in n.options))
    if isinstance(n, _Rep):
        return _consumed(n.body)
    return frozenset()


def _first(n: Any) -> frozenset[str]:
    """Every character a match of the piece can begin with."""
    if isinstance(n, _Chars):
        return n.chars
    if isinstance(n, _Seq):
        out: frozenset[str] = frozenset()
        for item in n.items:
            out |= _first(item)
            if not _nullable(item):
                break
        return out
    if isinstance(n, _Alt):
        return frozenset().union(*(_first(o) for o in n.options))
    if isinstance(n, _Rep):
        return _first(n.body)
    return frozenset()


def first_chars(pattern: re.Pattern[Any]) -> frozenset[str] | None:
    """The characters of the sample a match of ``pattern`` can begin with; None when a match
    may be empty (then it can begin anywhere)."""
    tree = _Tree(pattern)
    return None if _nullable(tree.root) else _first(tree.root)


def _ends_text(n: Any) -> bool:
    """Some way through the piece is only the end of the text (``\\Z``)."""
    if isinstance(n, _Test):
        return n.end_only
    if isinstance(n, _Seq):
        return bool(n.items) and all(_ends_text(i) or _passes(i) for i in n.items) and any(
            _ends_text(i) for i in n.items)
    if isinstance(n, _Alt):
        return any(_ends_text(o) for o in n.options)
    return False


def _made_of(n: Any, chars: frozenset[str]) -> bool:
    """Some string the piece matches is made only of ``chars`` (the empty string counts)."""
    if isinstance(n, _Chars):
        return bool(n.chars & chars)
    if isinstance(n, _Seq):
        return all(_made_of(i, chars) for i in n.items)
    if isinstance(n, _Alt):
        return any(_made_of(o, chars) for o in n.options)
    if isinstance(n, _Rep):
        return n.low == 0 or _made_of(n.body, chars)
    return not n.start_only


def _reps(n: Any, path: tuple[tuple[Any, int], ...] = ()) -> Iterator[
        tuple[_Rep, tuple[tuple[Any, int], ...]]]:
    """Every repetition, with the chain of (container, index) that leads to it."""
    if isinstance(n, _Seq):
        for i, item in enumerate(n.items):
            yield from _reps(item, (*path, (n, i)))
    elif isinstance(n, _Alt):
        for i, option in enumerate(n.options):
            yield from _reps(option, (*path, (n, i)))
    elif isinstance(n, _Rep):
        yield n, path
        yield from _reps(n.body, (*path, (n, 0)))


# --- the three checks -------------------------------------------------------------------------


def rescanning_repeats(pattern: re.Pattern[Any], where: str = "") -> list[Finding]:
    """Unbounded repetitions that every start of a search may scan again (n² in all)."""
    tree = _Tree(pattern)
    found = []
    for rep, path in _reps(tree.root):
        if not rep.unbounded:
            continue
        chars = _consumed(rep.body)
        if not chars or _anchored_start(tree.root, pattern):
            continue
        before_ok, after_fails = True, False
        for container, index in path:
            if isinstance(container, _Seq):
                before = container.items[:index]
                # A run of what a lookbehind at the start refuses holds no second start.
                guards = [i for i in container.items[:1] if isinstance(i, _Test)]
                if any(chars <= guard.not_after for guard in guards):
                    before_ok = False
                before_ok &= all(_made_of(i, chars) for i in before)
                after = container.items[index + 1:]
                # A lazy scan of every character that may stop at the end of the text always
                # ends in a match: one scan per match.
                if after and _ends_text(after[0]) and chars >= frozenset(tree.sample):
                    continue
                after_fails |= not all(_passes(i) for i in after)
            elif isinstance(container, _Rep) and container.low > 1:
                after_fails = True
        if before_ok and after_fails:
            found.append(Finding("rescanning", _text(pattern), where,
                                 f"an unbounded repetition of {_show(chars)} that the text "
                                 "before it can be made of, then something that can fail"))
    return found


def adjacent_repeats(pattern: re.Pattern[Any], where: str = "") -> list[Finding]:
    """Two unbounded repetitions in a row that can take the same characters (n² per try)."""
    tree = _Tree(pattern)
    found = []

    def visit(n: Any, root: bool = False) -> None:
        if isinstance(n, _Seq):
            items = _flatten(n)
            for i, item in enumerate(items):
                for a in _tail_reps(item):
                    for j, b in enumerate(items[i + 1:], i + 1):
                        shared = _consumed(a.body) & frozenset().union(
                            *(_first(r.body) for r in _head_reps(b)))
                        # Split two ways only matters when what follows can fail (at the end
                        # of the whole pattern nothing can; inside a group, something may).
                        fails_after = not root or not all(_passes(x) for x in items[j + 1:])
                        if shared and fails_after:
                            found.append(Finding("adjacent", _text(pattern), where,
                                                 "two unbounded repetitions in a row over "
                                                 f"{_show(shared)}"))
                            break
                        if not _nullable(b):
                            break
            for item in n.items:
                visit(item)
        elif isinstance(n, _Alt):
            for o in n.options:
                visit(o)
        elif isinstance(n, _Rep):
            visit(n.body)

    visit(tree.root, root=True)
    return found


def nested_repeats(pattern: re.Pattern[Any], where: str = "") -> list[Finding]:
    """regexploit's finding: repetitions whose backtracking multiplies (polynomial of degree
    three and more, or exponential)."""
    from regexploit.ast.sre import SreOpParser
    from regexploit.redos import find

    if isinstance(pattern.pattern, bytes):
        text, flags = pattern.pattern.decode("latin-1"), pattern.flags & ~re.UNICODE
    else:
        text, flags = pattern.pattern, pattern.flags
    try:
        parsed = SreOpParser().parse_sre(text, flags)
    except Exception:
        return []
    return [Finding("nested", _text(pattern), where,
                    f"starriness {r.starriness}, e.g. {r.example()}")
            for r in find(parsed) if r.starriness > 1]


def audit(pattern: re.Pattern[Any], where: str = "") -> list[Finding]:
    return (rescanning_repeats(pattern, where) + adjacent_repeats(pattern, where)
            + nested_repeats(pattern, where))


def _tail_reps(n: Any) -> list[_Rep]:
    """The unbounded repetitions a match of the piece can end with, that may give back."""
    if isinstance(n, _Rep):
        return [n] if n.unbounded and not n.possessive else []
    if isinstance(n, _Alt):
        return [r for o in n.options for r in _tail_reps(o)]
    if isinstance(n, _Seq):
        out: list[_Rep] = []
        for item in reversed(n.items):
            out += _tail_reps(item)
            if not _nullable(item):
                break
        return out
    return []


def _head_reps(n: Any) -> list[_Rep]:
    """The unbounded repetitions a match of the piece can begin with."""
    if isinstance(n, _Rep):
        return [n] if n.unbounded else []
    if isinstance(n, _Alt):
        return [r for o in n.options for r in _head_reps(o)]
    if isinstance(n, _Seq):
        out: list[_Rep] = []
        for item in n.items:
            out += _head_reps(item)
            if not _nullable(item):
                break
        return out
    return []


def _flatten(seq: _Seq) -> list[Any]:
    out: list[Any] = []
    for item in seq.items:
        if isinstance(item, _Seq):
            out.extend(_flatten(item))
        else:
            out.append(item)
    return out


def _anchored_start(root: _Seq, pattern: re.Pattern[Any]) -> bool:
    """The pattern can only match at the start of the text (``\\A``, or ``^`` without
    MULTILINE): a search makes one attempt."""
    text = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode(
        "latin-1")
    ops = sre_parse.parse(text, pattern.flags & ~re.UNICODE if isinstance(pattern.pattern, bytes)
                          else pattern.flags)
    if not ops.data:
        return False
    op, av = ops.data[0]
    return op is C.AT and (av is C.AT_BEGINNING_STRING or (
        av is C.AT_BEGINNING and not pattern.flags & re.M))


def _text(pattern: re.Pattern[Any]) -> str:
    p = pattern.pattern
    return p.decode("latin-1") if isinstance(p, bytes) else p


def _show(chars: frozenset[str]) -> str:
    if len(chars) > 12:
        return f"{len(chars)} characters of the sample"
    return repr("".join(sorted(chars)))


# --- the package's own patterns, found at run time -------------------------------------------


def package_patterns(package: str = "readreceipt") -> dict[re.Pattern[Any], str]:
    """Every compiled pattern of ``package``: whatever its modules hold (in module globals,
    in tuples, lists, dicts and sets of them, in dataclass instances such as a table's
    ``Compiled`` entries), and whatever was compiled while they were imported. Each is named
    by where it was found first."""
    found: dict[re.Pattern[Any], str] = {}
    compiled: list[tuple[re.Pattern[Any], str]] = []
    original = re._compile  # type: ignore[attr-defined]

    def noting(pattern: Any, flags: Any) -> Any:
        result = original(pattern, flags)
        caller = sys._getframe(2).f_globals.get("__name__", "")
        if caller.startswith(package) and isinstance(result, re.Pattern):
            compiled.append((result, caller))
        return result

    root = importlib.import_module(package)
    re._compile = noting  # type: ignore[attr-defined]
    try:
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            try:
                module = importlib.import_module(info.name)
            except ImportError:  # an optional extra (mcp, playwright) not installed
                continue
            for name, value in vars(module).items():
                if not name.startswith("__"):
                    _walk(value, f"{info.name}.{name}", found, 0, set())
    finally:
        re._compile = original  # type: ignore[attr-defined]
    for pattern, module in compiled:
        found.setdefault(pattern, f"{module} (compiled on import)")
    return found


def _walk(value: Any, where: str, found: dict[re.Pattern[Any], str], depth: int,
          seen: set[int]) -> None:
    if depth > 6 or id(value) in seen:
        return
    if isinstance(value, re.Pattern):
        found.setdefault(value, where)
        return
    if isinstance(value, str | bytes | int | float | bool | type) or value is None:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for item in value.values():
            _walk(item, where, found, depth + 1, seen)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _walk(item, where, found, depth + 1, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name, None), where, found, depth + 1, seen)
