"""How much work a piece of the package does, counted in lines of its own code run.

:func:`lines_run` calls a function with a tracer that counts every line executed in frames of
``readreceipt`` (generator expressions and comprehensions included): a count that is the same
on any machine at any load, so a test can compare the work at two sizes of input without
timing anything. Work done inside C (a regular expression, a parser) is not counted; the
regular expressions have their own count (tests/regexsteps.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

PACKAGE = str(Path(__file__).resolve().parents[1] / "src" / "readreceipt")
T = TypeVar("T")


def lines_run(func: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, int]:
    """``func(*args, **kwargs)`` and the number of the package's lines it ran."""
    import readreceipt

    roots = tuple({PACKAGE, str(Path(readreceipt.__file__).resolve().parent)})
    return lines_run_in(roots, func, *args, **kwargs)


def lines_run_in(roots: tuple[str, ...], func: Callable[..., T], *args: Any,
                 **kwargs: Any) -> tuple[T, int]:
    """``func(*args, **kwargs)`` and the number of lines it ran in files whose paths start
    with one of ``roots`` (the package's, or a module of the standard library it leans on)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "call" and frame.f_code.co_filename.startswith(roots):
            return local
        return None

    old = sys.gettrace()
    sys.settrace(calls)
    try:
        result = func(*args, **kwargs)
    finally:
        sys.settrace(old)
    return result, count


def grows_linearly(make: Callable[[int], Any], run: Callable[[Any], Any], size: int,
                   growth: float = 2.5) -> tuple[int, int]:
    """(lines at ``size``, lines at twice it), asserting the second is at most ``growth``
    times the first: linear work doubles, quadratic work quadruples."""
    small = lines_run(run, make(size))[1]
    large = lines_run(run, make(2 * size))[1]
    assert large <= growth * small, f"{small} lines at {size}, {large} at {2 * size}"
    return small, large
