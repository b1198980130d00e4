"""How much work a regular expression does on a text, counted in steps, not seconds.

:func:`steps` runs a pattern's search over a text with a backtracking matcher of its own,
built on the parse CPython's engine runs (``re._parser``), and counts each character it
compares, each test and each start it tries: the measure in which CPython's engine (also a
backtracking matcher, without memoisation) is linear or not. It gives the same answer as
``re`` (:func:`steps` checks that it does, and says so when it does not), so a pattern judged
linear here is judged on its real behaviour, on any machine, at any load.

Work beyond ``cap`` steps stops the count (:class:`TooMuch`): a quadratic pattern is found
without being run to the end.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from re import _constants as C
from re import _parser as sre_parse
from typing import Any

Cont = Callable[[int, tuple[Any, ...]], bool]

_CATEGORY = {
    C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W",
}


def class_regex(items: Any) -> str:
    """The regular expression of a parsed character class (``re._parser``'s IN items)."""
    parts: list[str] = []
    negate = False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            parts.append(re.escape(chr(av)))
        elif op is C.RANGE:
            parts.append(re.escape(chr(av[0])) + "-" + re.escape(chr(av[1])))
        elif op is C.CATEGORY:
            parts.append(_CATEGORY[av])
        else:
            raise ValueError(f"unknown class item {op}")
    return "[" + ("^" if negate else "") + "".join(parts) + "]"


class TooMuch(Exception):
    """More than the cap of steps."""


class Disagrees(AssertionError):
    """The step counter and CPython's engine found different matches (a fault of the counter,
    so the count proves nothing)."""


class _Matcher:
    def __init__(self, pattern: re.Pattern[Any], text: str, cap: int) -> None:
        self.pattern = pattern
        self.text = text
        self.n = len(text)
        self.cap = cap
        self.count = 0
        self.flags = pattern.flags
        self.is_bytes = isinstance(pattern.pattern, bytes)
        source = pattern.pattern.decode("latin-1") if self.is_bytes else pattern.pattern
        parse_flags = pattern.flags & ~re.UNICODE if self.is_bytes else pattern.flags
        self.root = sre_parse.parse(source, parse_flags)
        self._classes: dict[int, Callable[[str], bool]] = {}
        self.word = re.compile(r"\w", re.A if self.is_bytes or pattern.flags & re.A else 0)

    # -- one character against one opcode -------------------------------------------------

    def _tick(self, k: int = 1) -> None:
        self.count += k
        if self.count > self.cap:
            raise TooMuch

    def _class(self, op: Any, av: Any) -> Callable[[str], bool]:
        key = id(av) if op is C.IN else hash((op, av))
        test = self._classes.get(key)
        if test is None:
            regex = self._regex(op, av)
            flags = self.flags & (re.I | re.S | re.A) | (re.A if self.is_bytes else 0)
            one = re.compile(regex, flags)
            memo: dict[str, bool] = {}

            def test(ch: str, one: re.Pattern[str] = one, memo: dict[str, bool] = memo) -> bool:
                hit = memo.get(ch)
                if hit is None:
                    hit = memo[ch] = one.fullmatch(ch) is not None
                return hit

            self._classes[key] = test
        return test

    def _regex(self, op: Any, av: Any) -> str:
        if op is C.LITERAL:
            return re.escape(chr(av))
        if op is C.NOT_LITERAL:
            return "[^" + re.escape(chr(av)) + "]"
        if op is C.ANY:
            return "."
        return class_regex(av)

    @staticmethod
    def _single(ops: Any) -> tuple[Any, Any] | None:
        """The one character-class opcode a repetition's body is, if it is one."""
        if len(ops) == 1 and ops[0][0] in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            return ops[0]
        return None

    # -- the matcher ------------------------------------------------------------------------

    def seq(self, ops: Any, i: int, pos: int, caps: tuple[Any, ...], k: Cont) -> bool:
        if i == len(ops):
            return k(pos, caps)
        op, av = ops[i]
        self._tick()

        def rest(p: int, c: tuple[Any, ...]) -> bool:
            return self.seq(ops, i + 1, p, c, k)

        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            if pos < self.n and self._class(op, av)(self.text[pos]):
                return rest(pos + 1, caps)
            return False
        if op is C.SUBPATTERN:
            group, _, _, body = av
            if group is None:
                return self.seq(body, 0, pos, caps, rest)

            def close(p: int, c: tuple[Any, ...], start: int = pos) -> bool:
                c2 = list(c) + [None] * max(0, group + 1 - len(c))
                c2[group] = (start, p)
                return rest(p, tuple(c2))

            return self.seq(body, 0, pos, caps, close)
        if op is C.ATOMIC_GROUP:
            found: list[tuple[int, tuple[Any, ...]]] = []
            if self.seq(av, 0, pos, caps, lambda p, c: found.append((p, c)) or True):
                return rest(*found[0])
            return False
        if op is C.BRANCH:
            return any(self.seq(branch, 0, pos, caps, rest) for branch in av[1])
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return self._repeat(op, av, pos, caps, rest)
        if op in (C.ASSERT, C.ASSERT_NOT):
            direction, body = av
            hit = self._look(direction, body, pos, caps)
            return rest(pos, caps) if hit == (op is C.ASSERT) else False
        if op is C.AT:
            return rest(pos, caps) if self._at(av, pos) else False
        if op is C.GROUPREF:
            span = caps[av] if av < len(caps) else None
            if span is None:
                return False
            piece = self.text[span[0]:span[1]]
            self._tick(len(piece))
            if self.flags & re.I:
                ok = self.text[pos:pos + len(piece)].lower() == piece.lower()
            else:
                ok = self.text.startswith(piece, pos)
            return rest(pos + len(piece), caps) if ok else False
        raise ValueError(f"unknown opcode {op}")

    def _look(self, direction: int, body: Any, pos: int, caps: tuple[Any, ...]) -> bool:
        if direction == 1:
            return self.seq(body, 0, pos, caps, lambda p, c: True)
        low, high = body.getwidth()
        for width in range(low, min(high, pos) + 1):
            if self.seq(body, 0, pos - width, caps, lambda p, c: p == pos):
                return True
        return False

    def _repeat(self, op: Any, av: Any, pos: int, caps: tuple[Any, ...], rest: Cont) -> bool:
        low, high, body = av
        high = sys.maxsize if high == C.MAXREPEAT else high
        single = self._single(body)
        if single is not None:
            test = self._class(*single)
            end = pos
            limit = min(self.n, pos + high)
            if op is C.MIN_REPEAT:
                while end < pos + low:
                    self._tick()
                    if end >= limit or not test(self.text[end]):
                        return False
                    end += 1
                while True:
                    if rest(end, caps):
                        return True
                    self._tick()
                    if end >= limit or not test(self.text[end]):
                        return False
                    end += 1
            while end < limit:
                self._tick()
                if not test(self.text[end]):
                    break
                end += 1
            if end - pos < low:
                return False
            if op is C.POSSESSIVE_REPEAT:
                return rest(end, caps)
            for stop in range(end, pos + low - 1, -1):
                self._tick()
                if rest(stop, caps):
                    return True
            return False

        if op is C.POSSESSIVE_REPEAT:  # the greedy longest, never given back
            taken: list[tuple[int, tuple[Any, ...]]] = []
            self._greedy(low, high, body, pos, caps, taken)
            return bool(taken) and rest(*taken[0])

        def loop(count: int, p: int, c: tuple[Any, ...]) -> bool:
            def again(q: int, c2: tuple[Any, ...]) -> bool:
                return q != p and loop(count + 1, q, c2)

            if op is C.MIN_REPEAT:
                if count >= low and rest(p, c):
                    return True
                return count < high and self.seq(body, 0, p, c, again)
            if count < high and self.seq(body, 0, p, c, again):
                return True
            return count >= low and rest(p, c)

        return loop(0, pos, caps)

    def _greedy(self, low: int, high: int, body: Any, pos: int, caps: tuple[Any, ...],
                taken: list[tuple[int, tuple[Any, ...]]]) -> None:
        def loop(count: int, p: int, c: tuple[Any, ...]) -> bool:
            def again(q: int, c2: tuple[Any, ...]) -> bool:
                return q != p and loop(count + 1, q, c2)

            if count < high and self.seq(body, 0, p, c, again):
                return True
            if count >= low:
                taken.append((p, c))
                return True
            return False

        loop(0, pos, caps)

    def _at(self, code: Any, pos: int) -> bool:
        text, n = self.text, self.n
        if code is C.AT_BEGINNING_STRING or (code is C.AT_BEGINNING and not self.flags & re.M):
            return pos == 0
        if code is C.AT_BEGINNING:
            return pos == 0 or text[pos - 1] == "\n"
        if code is C.AT_END_STRING:
            return pos == n
        if code is C.AT_END:
            if self.flags & re.M:
                return pos == n or text[pos] == "\n"
            return pos == n or (pos == n - 1 and text[pos] == "\n")
        if code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            before = pos > 0 and self.word.match(text[pos - 1]) is not None
            after = pos < n and self.word.match(text[pos]) is not None
            return (before != after) == (code is C.AT_BOUNDARY)
        raise ValueError(f"unknown anchor {code}")

    def search(self, first: frozenset[str] | None) -> tuple[int, int] | None:
        """Every start in turn; like CPython's engine, a start whose character cannot begin
        a match (``first``, when known) is passed over at the cost of one step."""
        ops = self.root
        for start in range(self.n + 1):
            self._tick()
            if first is not None and (start == self.n or self.text[start] not in first):
                continue
            end: list[int] = []
            if self.seq(ops, 0, start, (), lambda p, c, end=end: end.append(p) or True):
                return start, end[0]
        return None


def _first_chars(pattern: re.Pattern[Any], text: str) -> frozenset[str] | None:
    """The characters of ``text`` a match can begin with; None when a match may be empty or
    begin with something the sample of characters does not judge."""
    import redos

    sample = redos.BYTES_SAMPLE if isinstance(pattern.pattern, bytes) else redos.SAMPLE
    if not set(text) <= set(sample):
        return None
    return redos.first_chars(pattern)


def steps(pattern: re.Pattern[Any], text: str, cap: int = 10**7) -> int:
    """Steps a search of ``text`` takes (every start tried until the first match).

    :class:`TooMuch` beyond ``cap``; :class:`Disagrees` when the match found is not the one
    CPython's engine finds."""
    is_bytes = isinstance(pattern.pattern, bytes)
    if is_bytes:  # the bytes of the text, one character each
        text = text.encode("utf-8").decode("latin-1")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        matcher = _Matcher(pattern, text, cap)
        span = matcher.search(_first_chars(pattern, text))
    finally:
        sys.setrecursionlimit(old)
    subject: Any = text.encode("latin-1") if is_bytes else text
    real = pattern.search(subject)
    if (real.span() if real else None) != span:
        raise Disagrees(f"{pattern.pattern!r} on {text[:60]!r}...: counted {span}, "
                        f"re found {real.span() if real else None}")
    return matcher.count
